//! The selected body: inspect and edit it (kind, density, friction, restitution, velocity, angle); delete, duplicate.

use super::super::state::AppState;

/// The selected body: inspect and edit it (kind, density, friction, restitution, velocity, angle); delete, duplicate.
#[derive(Default)]
pub struct InspectorPanel {}

impl InspectorPanel {
    /// Draws the panel.
    pub fn ui(&mut self, _ui: &mut egui::Ui, _state: &mut AppState) {}
}
