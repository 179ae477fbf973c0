//! The shape palette: drag a shape onto the world to drop it there.

use super::super::state::AppState;

/// The shape palette: drag a shape onto the world to drop it there.
#[derive(Default)]
pub struct PalettePanel {}

impl PalettePanel {
    /// Draws the panel.
    pub fn ui(&mut self, _ui: &mut egui::Ui, _state: &mut AppState) {}
}
