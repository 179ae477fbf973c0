//! Scenes: open (file dialog, dropped file, recent files), save, save as, and the
//! question before unsaved edits would be replaced.

use super::super::state::AppState;
use super::UiRequests;

/// The file menu's state.
#[derive(Default)]
pub struct FilesPanel {}

impl FilesPanel {
    /// The "File" menu in the menu bar.
    pub fn menu(&mut self, _ui: &mut egui::Ui, _state: &mut AppState, _requests: &mut UiRequests) {}

    /// Dialogs (file picker, confirmation) as windows over everything.
    pub fn windows(&mut self, _ctx: &egui::Context, _state: &mut AppState) {}
}
