//! The tools: select and drag bodies, drop shapes from the palette, draw polygons.
//!
//! Tool logic takes plain [`FrameInput`]s and changes the [`AppState`], so it is tested
//! without a window.

use super::input::FrameInput;
use super::state::AppState;

/// What the left mouse button does, and what it is in the middle of.
#[derive(Clone, Debug, Default)]
pub struct ToolState {}

impl ToolState {
    /// True when the wheel belongs to the tool (rotating a held body), not the camera.
    pub fn wants_wheel(&self) -> bool {
        false
    }
}

/// Reacts to this frame's input (after the camera took pan and zoom).
pub fn handle_input(_state: &mut AppState, _input: &FrameInput) {}

/// Runs before every simulation step (the mouse spring pulls the held body).
pub fn before_step(_state: &mut AppState, _dt_s: f32) {}
