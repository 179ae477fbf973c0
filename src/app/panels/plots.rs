//! Live plots: time per phase, narrow-phase time per algorithm, race mode, Nv and Np; the frame-time readout.

use super::super::state::AppState;

/// Live plots: time per phase, narrow-phase time per algorithm, race mode, Nv and Np; the frame-time readout.
#[derive(Default)]
pub struct PlotsPanel {}

impl PlotsPanel {
    /// Draws the panel.
    pub fn ui(&mut self, _ui: &mut egui::Ui, _state: &mut AppState) {}
}
