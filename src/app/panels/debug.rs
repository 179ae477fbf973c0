//! Debug drawing toggles.

use super::super::state::AppState;

/// Debug drawing toggles.
#[derive(Default)]
pub struct DebugPanel {}

impl DebugPanel {
    /// Draws the panel.
    pub fn ui(&mut self, _ui: &mut egui::Ui, _state: &mut AppState) {}
}
