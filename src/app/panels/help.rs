//! The help overlay (H): every key and mouse action.

use super::super::state::AppState;

/// Shows the help window while `state.show_help` is set.
pub fn show(_ctx: &egui::Context, _state: &mut AppState) {}
