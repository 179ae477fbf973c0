//! Drawing of the shape being dragged from the palette and the polygon being drawn.

use super::super::state::AppState;

/// Draws the tools' previews (a palette shape under the cursor, a polygon in progress).
pub fn draw_tool_preview(_state: &AppState) {}
