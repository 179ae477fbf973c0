//! The tools: select and drag bodies, drop shapes from the palette, draw polygons.
//!
//! Tool logic takes plain [`FrameInput`]s and changes the [`AppState`], so it is tested
//! without a window. One frame:
//!
//! ```text
//! cursor, hover          where the pointer is in the world, which body is under it
//! palette drag in flight released over the world: drop the shape; over a panel: cancel
//! keys                   Delete, Ctrl+D, Escape, Enter, Backspace, Q/E
//! the mode's left button Select: grab / move / throw   (drag.rs)
//!                        Place: click drops the shape   (place.rs)
//!                        DrawPolygon: click a vertex    (draw_polygon.rs)
//!                        Launch: drag aims, release fires (launch.rs)
//! ```
//!
//! Every change of the world a user would want to take back goes through
//! `AppState::begin_edit` / [`AppState::edit`]: one undo entry per gesture.

pub mod drag;
pub mod draw_polygon;
pub mod edit;
pub mod launch;
pub mod place;

use super::input::{Button, FrameInput, Key};
use super::pick;
use super::shapes::ShapeParams;
use super::state::AppState;
use crate::math::Vec2;
pub use drag::Grab;

/// Pick tolerance around bodies and polygon vertices (logical px).
pub const PICK_TOLERANCE_PX: f32 = 4.0;

/// What the left mouse button does.
#[derive(Clone, Debug, Default, PartialEq)]
pub enum Mode {
    /// Select, hover, drag and throw bodies. The default.
    #[default]
    Select,
    /// A click in the world drops this shape (a palette item clicked, not dragged).
    Place(ShapeParams),
    /// Clicks add the vertices of a new polygon.
    DrawPolygon,
    /// Drag to aim, release to fire a projectile (launch.rs).
    Launch,
}

/// What the left mouse button does, and what it is in the middle of.
#[derive(Clone, Debug, Default)]
pub struct ToolState {
    /// The mode.
    pub mode: Mode,
    /// The body held by the mouse, if any.
    pub grab: Option<Grab>,
    /// A palette item being dragged out of the palette (set by the palette panel when
    /// egui reports the drag started; dropped by [`handle_input`] on release).
    pub palette_drag: Option<ShapeParams>,
    /// The vertices of the polygon being drawn (world frame, m), in click order.
    pub polygon: Vec<Vec2>,
    /// The cursor in the world (m), as of the last input.
    pub cursor_world: Vec2,
    /// The cursor is over the world (not over a panel) and inside the free viewport.
    pub cursor_in_world: bool,
    /// Seed of the next random polygon; advanced by each one dropped so each differs.
    pub next_seed: u64,
    /// A shot being aimed (Launch mode, left button held).
    pub aim: Option<launch::Aim>,
}

impl ToolState {
    /// True when the wheel belongs to the tool (rotating a held body), not the camera.
    pub fn wants_wheel(&self) -> bool {
        self.grab.is_some()
    }

    /// True while the left button is in the middle of something (a body held, a shape
    /// dragged from the palette) — panels should not start anything else.
    pub fn busy(&self) -> bool {
        self.grab.is_some() || self.palette_drag.is_some() || self.aim.is_some()
    }
}

/// Reacts to this frame's input (after the camera took pan and zoom).
pub fn handle_input(state: &mut AppState, input: &FrameInput) {
    track_cursor(state, input);
    // The Minkowski inset's title bar drags the inset, not a body under it.
    if state.debug.minkowski
        && state.tools.palette_drag.is_none()
        && state.minkowski_inset.handle_input(
            state.viewport_px,
            crate::app::draw::debug::focus::focus_on_screen(state),
            input,
        )
    {
        state.hovered = None;
        return;
    }
    if state.tools.palette_drag.is_some() {
        place::handle_palette_drag(state, input);
        return;
    }
    if !input.ui_wants_keyboard {
        handle_keys(state, input);
    }
    match state.tools.mode {
        Mode::Select => drag::handle(state, input),
        Mode::Place(params) => place::handle_place_mode(state, input, params),
        Mode::DrawPolygon => draw_polygon::handle(state, input),
        Mode::Launch => launch::handle(state, input),
    }
    // The body under the cursor (the held one while held).
    state.hovered = match &state.tools.grab {
        Some(g) => Some(g.body),
        None if state.tools.cursor_in_world && state.tools.mode == Mode::Select => pick::body_at(
            &state.world,
            state.tools.cursor_world,
            state.camera.length_to_world(PICK_TOLERANCE_PX),
        ),
        None => None,
    };
}

/// Runs before every simulation step (the mouse spring pulls the held body).
pub fn before_step(state: &mut AppState, dt_s: f32) {
    drag::apply_spring(state, dt_s);
}

/// Where the cursor is in the world, and whether it is over the world at all.
fn track_cursor(state: &mut AppState, input: &FrameInput) {
    state.tools.cursor_world = state.camera.screen_to_world(input.mouse_px);
    let (lo, hi) = state.viewport_px;
    let p = input.mouse_px;
    let in_viewport = p.x >= lo.x && p.y >= lo.y && p.x <= hi.x && p.y <= hi.y;
    state.tools.cursor_in_world = in_viewport && !input.ui_wants_pointer;
}

/// True when the left button went down over the world this frame.
pub(crate) fn pressed_in_world(state: &AppState, input: &FrameInput) -> bool {
    input.pressed(Button::Left) && state.tools.cursor_in_world
}

/// The tool keys: Delete, Ctrl+D, Escape, Enter, Backspace, Q/E, L.
fn handle_keys(state: &mut AppState, input: &FrameInput) {
    let drawing = state.tools.mode == Mode::DrawPolygon;
    for &key in &input.keys {
        match key {
            Key::Escape => escape(state),
            Key::Enter if drawing => {
                draw_polygon::close(state);
            }
            Key::Backspace if drawing => draw_polygon::remove_last_vertex(state),
            Key::Delete | Key::Backspace => {
                if let Some(h) = state.selection {
                    state.tools.grab = None;
                    edit::delete_body(state, h);
                }
            }
            Key::D if input.ctrl => {
                if let Some(h) = state.selection {
                    edit::duplicate_body(state, h);
                }
            }
            Key::L if !input.ctrl => {
                let launching = state.tools.mode == Mode::Launch;
                set_mode(state, if launching { Mode::Select } else { Mode::Launch });
            }
            Key::Q => drag::rotate_held(state, drag::KEY_ROTATION_RAD),
            Key::E => drag::rotate_held(state, -drag::KEY_ROTATION_RAD),
            _ => {}
        }
    }
}

/// Escape: let go of what the mouse holds, else step out of the mode, else deselect.
fn escape(state: &mut AppState) {
    if state.tools.grab.is_some() {
        drag::release(state);
    } else if state.tools.aim.take().is_some() {
        state.set_status("launch cancelled");
    } else if state.tools.mode == Mode::DrawPolygon && !state.tools.polygon.is_empty() {
        state.tools.polygon.clear();
        state.set_status("polygon cancelled");
    } else if state.tools.mode != Mode::Select {
        set_mode(state, Mode::Select);
    } else {
        state.selection = None;
    }
}

/// Switches the mode, dropping what the previous one was in the middle of.
pub fn set_mode(state: &mut AppState, mode: Mode) {
    if state.tools.grab.is_some() {
        drag::release(state);
    }
    state.tools.polygon.clear();
    state.tools.aim = None;
    state.set_status(match &mode {
        Mode::Select => "select: click a body to inspect it, drag to move it".to_string(),
        Mode::Place(p) => format!(
            "click in the world to drop a {} (Shift: keep dropping, Esc: stop)",
            p.shape.name()
        ),
        Mode::DrawPolygon => {
            "draw polygon: click the vertices; Enter or the first vertex closes it, Backspace removes one, Esc cancels"
                .to_string()
        }
        Mode::Launch => format!(
            "launch: drag in the world to aim, release to fire a ball ({} m/s per metre of drag, at most {} m/s); L or Esc: stop",
            launch::SPEED_PER_METRE,
            launch::MAX_SPEED_M_PER_S
        ),
    });
    state.tools.mode = mode;
}

/// A short name for a body in labels and messages: its name, else "body N".
pub fn body_label(state: &AppState, handle: crate::dynamics::BodyHandle) -> String {
    match state.world.body(handle).and_then(|b| b.name()) {
        Some(name) => format!("'{name}'"),
        None => format!("body {}", handle.index),
    }
}

#[cfg(test)]
pub(crate) mod test_support {
    //! Made-up frames for the tools' tests.
    use super::super::input::{Button, FrameInput, Key};
    use super::super::state::AppState;
    use crate::math::Vec2;

    /// The default scene in a 1280 × 800 window, no panels.
    pub fn state() -> AppState {
        let scene = crate::scene::parse(include_str!("../../../scenes/default.ron"), "default.ron").unwrap();
        AppState::new(&scene, None, Vec2::new(1280.0, 800.0))
    }

    /// A frame with the cursor at `px` and the left button held.
    pub fn held(px: Vec2) -> FrameInput {
        FrameInput {
            mouse_px: px,
            down: vec![Button::Left],
            ..FrameInput::default()
        }
    }

    /// A frame where the left button goes down at `px`.
    pub fn press(px: Vec2) -> FrameInput {
        FrameInput {
            pressed: vec![Button::Left],
            ..held(px)
        }
    }

    /// A frame where the left button goes up at `px`.
    pub fn release(px: Vec2) -> FrameInput {
        FrameInput {
            mouse_px: px,
            released: vec![Button::Left],
            ..FrameInput::default()
        }
    }

    /// A frame with the cursor at `px`, nothing pressed.
    pub fn hover(px: Vec2) -> FrameInput {
        FrameInput {
            mouse_px: px,
            ..FrameInput::default()
        }
    }

    /// A frame where `key` goes down (cursor at the origin of the screen).
    pub fn key(key: Key) -> FrameInput {
        FrameInput {
            keys: vec![key],
            ..FrameInput::default()
        }
    }

    /// The handle of the body named `name`.
    pub fn named(state: &AppState, name: &str) -> crate::dynamics::BodyHandle {
        state
            .world
            .bodies()
            .iter()
            .find(|(_, b)| b.name() == Some(name))
            .map(|(h, _)| h)
            .unwrap_or_else(|| panic!("no body named {name}"))
    }

    /// The screen point (px) of a body's centre of mass.
    pub fn screen_of(state: &AppState, h: crate::dynamics::BodyHandle) -> Vec2 {
        state
            .camera
            .world_to_screen(state.world.body(h).unwrap().center_of_mass())
    }
}

#[cfg(test)]
mod tests {
    use super::test_support::*;
    use super::*;

    #[test]
    fn hover_and_click_select_and_empty_space_deselects() {
        let mut s = state();
        let ball = named(&s, "ball 1");
        let at = screen_of(&s, ball);
        handle_input(&mut s, &hover(at));
        assert_eq!(s.hovered, Some(ball));
        handle_input(&mut s, &press(at));
        handle_input(&mut s, &release(at));
        assert_eq!(s.selection, Some(ball));
        // High between the walls, above the pile: nothing there.
        let sky = s.camera.world_to_screen(Vec2::new(-5.5, 13.2));
        handle_input(&mut s, &hover(sky));
        assert_eq!(s.hovered, None);
        handle_input(&mut s, &press(sky));
        handle_input(&mut s, &release(sky));
        assert_eq!(s.selection, None);
    }

    #[test]
    fn clicks_over_the_panels_do_nothing() {
        let mut s = state();
        let ball = named(&s, "ball 1");
        let at = screen_of(&s, ball);
        let mut input = press(at);
        input.ui_wants_pointer = true;
        handle_input(&mut s, &input);
        assert_eq!(s.selection, None);
        assert!(s.tools.grab.is_none());
        assert_eq!(s.hovered, None);
    }

    #[test]
    fn escape_steps_out_of_a_mode_then_deselects() {
        let mut s = state();
        s.selection = Some(named(&s, "ball 1"));
        set_mode(&mut s, Mode::DrawPolygon);
        handle_input(&mut s, &key(Key::Escape));
        assert_eq!(s.tools.mode, Mode::Select);
        assert!(s.selection.is_some());
        handle_input(&mut s, &key(Key::Escape));
        assert_eq!(s.selection, None);
    }

    #[test]
    fn keys_are_ignored_while_a_text_field_has_the_keyboard() {
        let mut s = state();
        let ball = named(&s, "ball 1");
        s.selection = Some(ball);
        let mut input = key(Key::Delete);
        input.ui_wants_keyboard = true;
        handle_input(&mut s, &input);
        assert!(s.world.bodies().contains(ball));
    }
}
