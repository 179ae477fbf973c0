//! Dropping palette shapes into the world.
//!
//! Two ways in: a real drag-and-drop — the press starts on a palette item (egui reports
//! `drag_started`, the palette sets [`ToolState::palette_drag`](super::ToolState)) and
//! the release happens over the world, which macroquad reports to
//! [`handle_palette_drag`] — or a click on the item, which enters
//! [`Mode::Place`], where a click in the world drops it.
//!
//! Either way the body is dynamic, its centre of mass lands under the cursor, and it
//! may overlap what is already there: the solver pushes them apart. One undo entry
//! ("add star") per body.

use super::super::input::{Button, FrameInput};
use super::super::shapes::{PaletteShape, ShapeParams};
use super::super::state::AppState;
use super::{pressed_in_world, set_mode, Mode};
use crate::dynamics::BodyHandle;
use crate::math::Vec2;
use crate::scene::BodyDef;

/// A shape is being dragged out of the palette: on release, drop it if the cursor is
/// over the world, else (over a panel) cancel.
pub fn handle_palette_drag(state: &mut AppState, input: &FrameInput) {
    let Some(params) = state.tools.palette_drag else {
        return;
    };
    // egui has the pointer for the whole drag (it started on a widget), so "over the
    // world" is the free viewport, not `ui_wants_pointer`.
    let (lo, hi) = state.viewport_px;
    let p = input.mouse_px;
    let over_world = p.x >= lo.x && p.y >= lo.y && p.x <= hi.x && p.y <= hi.y;
    state.tools.cursor_in_world = over_world;
    if input.released(Button::Left) {
        state.tools.palette_drag = None;
        if over_world {
            drop_shape(state, params, state.tools.cursor_world);
        } else {
            state.set_status(format!("{} not dropped: released over a panel", params.shape.name()));
        }
    } else if !input.down(Button::Left) {
        // The release was missed (focus lost while dragging): forget the drag.
        state.tools.palette_drag = None;
    }
}

/// Place mode: a click in the world drops the shape; with Shift held the mode stays for
/// another, else it returns to Select.
pub fn handle_place_mode(state: &mut AppState, input: &FrameInput, params: ShapeParams) {
    if !pressed_in_world(state, input) {
        return;
    }
    drop_shape(state, params, state.tools.cursor_world);
    if input.shift {
        // The next random polygon differs from this one.
        state.tools.mode = Mode::Place(ShapeParams {
            seed: state.tools.next_seed,
            ..params
        });
    } else {
        let status = state.status.clone();
        set_mode(state, Mode::Select);
        state.status = status;
    }
}

/// Inserts a dynamic body of `params` with its centre of mass at `world_point`, selects
/// it; undoable. Returns its handle (None if the shape was refused, with the reason in
/// the status bar — the palette's shapes are all valid, so only absurd sizes get there).
pub fn drop_shape(state: &mut AppState, params: ShapeParams, world_point: Vec2) -> Option<BodyHandle> {
    let mut def = BodyDef::new(params.shape_def());
    def.position = world_point.into();
    let count = state.world.bodies().len();
    def.name = Some(format!("{} {}", params.shape.name(), count + 1));
    // Check first, so a refused shape leaves no empty undo entry behind.
    let desc = match def.to_desc() {
        Ok(desc) => desc,
        Err(e) => {
            state.set_error(format!("cannot add {}: {e}", params.shape.name()));
            return None;
        }
    };
    let label = format!("add {}", params.shape.name());
    let handle = state.edit(label.clone(), |w| w.insert(desc));
    if params.shape == PaletteShape::Random {
        state.tools.next_seed = state.tools.next_seed.wrapping_add(1);
    }
    state.selection = Some(handle);
    state.set_status(format!("{label} (Ctrl+Z to undo)"));
    Some(handle)
}

#[cfg(test)]
mod tests {
    use super::super::handle_input;
    use super::super::test_support::*;
    use super::*;

    fn star() -> ShapeParams {
        ShapeParams {
            shape: PaletteShape::Star,
            size_m: 1.5,
            sides: 6,
            seed: 0,
        }
    }

    #[test]
    fn a_shape_dragged_from_the_palette_drops_where_it_is_released() {
        let mut s = state();
        // The palette is a panel on the left: the world is what is right of it.
        s.viewport_px = (Vec2::new(260.0, 30.0), Vec2::new(1280.0, 780.0));
        let n = s.world.bodies().len();
        // egui saw the drag start on the palette item...
        s.tools.palette_drag = Some(star());
        let mut over_panel = held(Vec2::new(100.0, 300.0));
        over_panel.ui_wants_pointer = true;
        handle_input(&mut s, &over_panel);
        assert!(!s.tools.cursor_in_world, "no ghost over the panel");
        // ...the cursor crosses into the world (egui still owns the pointer)...
        let drop_px = Vec2::new(700.0, 200.0);
        let mut over_world = held(drop_px);
        over_world.ui_wants_pointer = true;
        handle_input(&mut s, &over_world);
        assert!(s.tools.cursor_in_world);
        assert_eq!(s.world.bodies().len(), n, "nothing dropped yet");
        // ...and is released there.
        let mut up = release(drop_px);
        up.ui_wants_pointer = true;
        handle_input(&mut s, &up);
        assert_eq!(s.world.bodies().len(), n + 1);
        let h = s.selection.expect("the new body is selected");
        let c = s.world.body(h).unwrap().center_of_mass();
        assert!((c - s.camera.screen_to_world(drop_px)).length() < 1e-4, "{c}");
        assert!(s.world.body(h).unwrap().is_dynamic());
        assert_eq!(s.undo.undo_label(), Some("add star"));
        s.undo();
        assert_eq!(s.world.bodies().len(), n);
    }

    #[test]
    fn a_shape_released_over_a_panel_is_not_dropped() {
        let mut s = state();
        s.viewport_px = (Vec2::new(260.0, 30.0), Vec2::new(1280.0, 780.0));
        let n = s.world.bodies().len();
        s.tools.palette_drag = Some(star());
        let mut up = release(Vec2::new(100.0, 300.0));
        up.ui_wants_pointer = true;
        handle_input(&mut s, &up);
        assert!(s.tools.palette_drag.is_none());
        assert_eq!(s.world.bodies().len(), n);
        assert!(s.undo.undo_label().is_none());
    }

    #[test]
    fn place_mode_drops_on_click_and_shift_keeps_it() {
        let mut s = state();
        let n = s.world.bodies().len();
        s.tools.mode = Mode::Place(ShapeParams {
            shape: PaletteShape::Random,
            ..star()
        });
        let mut click = press(Vec2::new(640.0, 100.0));
        click.shift = true;
        handle_input(&mut s, &click);
        handle_input(&mut s, &release(Vec2::new(640.0, 100.0)));
        assert!(
            matches!(s.tools.mode, Mode::Place(p) if p.seed == 1),
            "next random differs"
        );
        handle_input(&mut s, &press(Vec2::new(740.0, 100.0)));
        assert_eq!(s.world.bodies().len(), n + 2);
        assert_eq!(s.tools.mode, Mode::Select);
        let shapes: Vec<_> = s
            .world
            .bodies()
            .iter()
            .skip(n)
            .map(|(_, b)| b.shape().clone())
            .collect();
        assert_ne!(shapes[0], shapes[1]);
    }
}
