//! The mouse and the keys in lesson mode, as pure functions of a [`FrameInput`] (tested
//! without a window).
//!
//! - Left drag on a vertex handle of a polygon moves that vertex; on a shape, moves the
//!   shape. The wheel while holding a shape, or Q / E over it, turns it.
//! - Right or middle drag pans the view under the cursor; the wheel elsewhere zooms it.
//! - Hovering a vertex of A − B in the Minkowski view picks it (the views highlight the
//!   pair of vertices it came from).
//! - Keys: Space plays or pauses, → / ← (or . and Backspace) step, Home / End jump.
//!
//! Every edit goes through the core's `Lesson` (which refuses a polygon that would cross
//! itself) and then recomputes the trace once.

use super::{Drag, LessonMode, MinkowskiVertex};
use crate::app::input::{Button, FrameInput, Key};
use crate::app::pick::shape_contains;
use crate::app::state::{AppState, Status};
use crate::geometry::Shape;
use crate::math::Vec2;
use crate::narrow::trace::Owner;

/// Pick radius of a vertex handle (px).
pub const HANDLE_PICK_PX: f32 = 9.0;
/// Pick radius of an A − B vertex (px).
pub const MINKOWSKI_PICK_PX: f32 = 10.0;
/// One wheel notch turns a held shape by this much (radians, 5°).
pub const WHEEL_TURN_RAD: f32 = 5.0 * std::f32::consts::PI / 180.0;

/// Lesson-mode input for one frame: changes the lesson and returns what the status bar
/// should say (an error when an edit was refused). `last_mouse_px` is the previous
/// frame's cursor (for panning).
pub fn handle(mode: &mut LessonMode, input: &FrameInput, last_mouse_px: Vec2) -> Option<Status> {
    let mut status = keys(mode, input).map(info);
    let mouse = input.mouse_px;
    // Predict mode: a left click in the view the open question asks about answers it.
    if mode.predict.pending.is_some() && mode.drag.is_none() && !input.ui_wants_pointer && input.pressed(Button::Left) {
        if let Some(text) = mode.answer_click(mouse) {
            return Some(info(text));
        }
    }
    let in_world = mode.layout.world.contains(mouse);
    let in_minkowski = mode.layout.minkowski.contains(mouse);

    // Hover (not while dragging: the highlight would flicker between features).
    if mode.drag.is_none() {
        mode.hovered_vertex = None;
        mode.hovered_body = None;
        mode.hovered_minkowski = None;
        if !input.ui_wants_pointer {
            if in_world {
                mode.hovered_vertex = vertex_at(mode, mouse);
                if mode.hovered_vertex.is_none() {
                    mode.hovered_body = body_at(mode, mode.world_camera.screen_to_world(mouse));
                }
            } else if in_minkowski {
                mode.hovered_minkowski = minkowski_vertex_at(mode, mouse);
            }
        }
    }

    // Press: start a drag.
    if mode.drag.is_none() && !input.ui_wants_pointer {
        if input.pressed(Button::Left) && in_world {
            let world = mode.world_camera.screen_to_world(mouse);
            if let Some((owner, index)) = vertex_at(mode, mouse) {
                mode.drag = Some(Drag::Vertex { owner, index });
            } else if let Some(owner) = body_at(mode, world) {
                let grab_offset = mode.lesson.pose(owner).translation - world;
                mode.drag = Some(Drag::Body { owner, grab_offset });
            }
        } else if (input.pressed(Button::Right) || input.pressed(Button::Middle)) && (in_world || in_minkowski) {
            mode.drag = Some(Drag::Pan {
                minkowski: in_minkowski,
            });
        }
    }

    // Move.
    match mode.drag {
        Some(Drag::Vertex { owner, index }) if mouse != last_mouse_px => {
            let target = mode.world_camera.screen_to_world(mouse);
            match mode.lesson.drag_vertex(owner, index, target) {
                Ok(()) => {
                    mode.edited = true;
                    mode.recompute();
                    status = Some(info(format!("moved vertex {index} of {owner:?}")));
                }
                Err(e) => status = Some(error(format!("vertex not moved: {e}"))),
            }
        }
        Some(Drag::Body { owner, grab_offset }) => {
            let pose = mode.lesson.pose(owner);
            let position = mode.world_camera.screen_to_world(mouse) + grab_offset;
            let angle = pose.angle() + input.wheel * WHEEL_TURN_RAD + key_turn(input);
            if position != pose.translation || angle != pose.angle() {
                status = Some(move_body(mode, owner, position, angle, mouse));
            }
        }
        Some(Drag::Pan { minkowski }) => {
            let camera = if minkowski {
                &mut mode.minkowski_camera
            } else {
                &mut mode.world_camera
            };
            camera.pan_by_screen(mouse - last_mouse_px);
        }
        _ => {}
    }

    // Turning the hovered shape with Q / E, zooming with the wheel.
    if mode.drag.is_none() && !input.ui_wants_pointer {
        if let Some(owner) = mode.hovered_body {
            let turn = key_turn(input);
            if turn != 0.0 {
                let pose = mode.lesson.pose(owner);
                status = Some(move_body(mode, owner, pose.translation, pose.angle() + turn, mouse));
            }
        }
        if input.wheel != 0.0 && (in_world || in_minkowski) {
            let camera = if in_minkowski {
                &mut mode.minkowski_camera
            } else {
                &mut mode.world_camera
            };
            camera.zoom_about(mouse, 1.1f32.powf(input.wheel));
        }
    }

    // Release.
    let released = match mode.drag {
        Some(Drag::Pan { .. }) => !input.down(Button::Right) && !input.down(Button::Middle),
        Some(_) => input.released(Button::Left) || !input.down(Button::Left),
        None => false,
    };
    if released {
        mode.drag = None;
    }
    status
}

fn move_body(mode: &mut LessonMode, owner: Owner, position: Vec2, angle: f32, _mouse: Vec2) -> Status {
    match mode.lesson.set_pose(owner, position, angle) {
        Ok(()) => {
            mode.edited = true;
            mode.recompute();
            info(format!(
                "{owner:?} at ({:.2}, {:.2}), {:.0}°",
                position.x,
                position.y,
                angle.to_degrees()
            ))
        }
        Err(e) => error(format!("not moved: {e}")),
    }
}

/// Q turns counter-clockwise, E clockwise (5° a press).
fn key_turn(input: &FrameInput) -> f32 {
    if input.ui_wants_keyboard {
        return 0.0;
    }
    let mut turn = 0.0;
    if input.key(Key::Q) {
        turn += WHEEL_TURN_RAD;
    }
    if input.key(Key::E) {
        turn -= WHEEL_TURN_RAD;
    }
    turn
}

/// The player's keys; returns what the status bar should say, if anything.
fn keys(mode: &mut LessonMode, input: &FrameInput) -> Option<String> {
    if input.ui_wants_keyboard || input.ctrl {
        return None;
    }
    let mut said = None;
    for &key in &input.keys {
        match key {
            Key::Space => {
                if mode.player.is_playing() {
                    mode.player.pause();
                } else {
                    mode.player.play();
                }
            }
            Key::Right | Key::Period => {
                mode.player.pause();
                said = mode.forward(false).or(said);
            }
            Key::K => said = Some(mode.toggle_predict()),
            Key::Escape if mode.predict.pending.is_some() => {
                mode.predict.pending = None;
                said = Some("question closed".to_string());
            }
            Key::Left | Key::Backspace => {
                mode.player.pause();
                mode.player.prev();
            }
            Key::Home => {
                mode.player.pause();
                mode.player.first();
            }
            Key::End => {
                mode.player.pause();
                mode.player.last();
            }
            Key::F => mode.fitted_for = None,
            _ => {}
        }
    }
    said
}

fn info(text: String) -> Status {
    Status { text, is_error: false }
}

fn error(text: String) -> Status {
    Status { text, is_error: true }
}

/// The polygon vertex handle under `mouse_px` in the world view (B's drawn last, so it
/// wins a tie).
pub fn vertex_at(mode: &LessonMode, mouse_px: Vec2) -> Option<(Owner, usize)> {
    let mut best: Option<((Owner, usize), f32)> = None;
    for owner in [Owner::A, Owner::B] {
        if !matches!(mode.lesson.shape(owner), Shape::Polygon(_)) {
            continue;
        }
        for (i, v) in mode.lesson.world_vertices(owner).into_iter().enumerate() {
            let d = (mode.world_camera.world_to_screen(v) - mouse_px).length();
            if d <= HANDLE_PICK_PX && best.is_none_or(|(_, bd)| d <= bd) {
                best = Some(((owner, i), d));
            }
        }
    }
    best.map(|(v, _)| v)
}

/// The shape under `world_point` (B first: it is drawn on top).
pub fn body_at(mode: &LessonMode, world_point: Vec2) -> Option<Owner> {
    let tolerance = mode.world_camera.length_to_world(3.0);
    [Owner::B, Owner::A].into_iter().find(|&owner| {
        let local = mode.lesson.pose(owner).apply_inv_point(world_point);
        shape_contains(mode.lesson.shape(owner), local, tolerance)
    })
}

/// The vertex of A − B under `mouse_px` in the Minkowski view, the nearest within
/// [`MINKOWSKI_PICK_PX`].
pub fn minkowski_vertex_at(mode: &LessonMode, mouse_px: Vec2) -> Option<MinkowskiVertex> {
    let mut best: Option<(MinkowskiVertex, f32)> = None;
    for (p, piece) in mode.minkowski.pieces.iter().enumerate() {
        for (v, sp) in piece.vertices.iter().enumerate() {
            let d = (mode.minkowski_camera.world_to_screen(sp.point) - mouse_px).length();
            if d <= MINKOWSKI_PICK_PX && best.is_none_or(|(_, bd)| d < bd) {
                best = Some((MinkowskiVertex { piece: p, vertex: v }, d));
            }
        }
    }
    best.map(|(v, _)| v)
}

/// Lesson-mode input on the app's state: runs [`handle`] and shows its status.
pub fn handle_app(state: &mut AppState, input: &FrameInput, last_mouse_px: Vec2) {
    let Some(mode) = state.lesson.as_mut() else {
        return;
    };
    let status = handle(mode, input, last_mouse_px);
    let edited = mode.edited;
    if let Some(s) = status {
        state.status = Some(s);
    }
    if edited {
        state.dirty = true;
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::open;
    use super::*;

    fn at(mouse_px: Vec2) -> FrameInput {
        FrameInput {
            mouse_px,
            ..FrameInput::default()
        }
    }

    fn press(mouse_px: Vec2) -> FrameInput {
        FrameInput {
            mouse_px,
            pressed: vec![Button::Left],
            down: vec![Button::Left],
            ..FrameInput::default()
        }
    }

    fn hold(mouse_px: Vec2) -> FrameInput {
        FrameInput {
            mouse_px,
            down: vec![Button::Left],
            ..FrameInput::default()
        }
    }

    fn release(mouse_px: Vec2) -> FrameInput {
        FrameInput {
            mouse_px,
            released: vec![Button::Left],
            ..FrameInput::default()
        }
    }

    #[test]
    fn dragging_a_vertex_recomputes_the_trace_and_keeps_the_place() {
        let mut m = open("06_gjk.ron");
        m.player.seek(3);
        let kind_before = crate::lesson::StepKind::of(m.player.step().unwrap());
        let v = m.lesson.world_vertices(Owner::A)[0];
        let px = m.world_camera.world_to_screen(v);
        assert_eq!(vertex_at(&m, px), Some((Owner::A, 0)));
        let trace_before = m.player.trace().clone();
        handle(&mut m, &press(px), px);
        assert_eq!(
            m.drag,
            Some(Drag::Vertex {
                owner: Owner::A,
                index: 0
            })
        );
        let to = px + Vec2::new(0.0, -25.0);
        let status = handle(&mut m, &hold(to), px).unwrap();
        assert!(!status.is_error, "{}", status.text);
        let moved = m.lesson.world_vertices(Owner::A)[0];
        assert!((moved - m.world_camera.screen_to_world(to)).length() < 1e-3);
        assert_ne!(*m.player.trace(), trace_before, "the trace was recomputed");
        assert_eq!(m.player.cursor(), 3, "the player keeps its place");
        assert_eq!(crate::lesson::StepKind::of(m.player.step().unwrap()), kind_before);
        handle(&mut m, &release(to), to);
        assert_eq!(m.drag, None);
        assert!(m.edited);
    }

    #[test]
    fn a_self_crossing_vertex_drag_is_refused_and_says_so() {
        let mut m = open("04_nonconvex_sat.ron");
        // Drag vertex 0 of the U (B, at the origin) to (1.2, 0.9): its edge from vertex 7
        // (−1.5, 1) would cross the notch's left wall (x = −0.9).
        let vs = m.lesson.world_vertices(Owner::B);
        let px = m.world_camera.world_to_screen(vs[0]);
        let lesson_before = m.lesson.clone();
        let trace_before = m.player.trace().clone();
        let mut state = {
            let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/lessons/04_nonconvex_sat.ron");
            let scene = crate::scene::load(path).unwrap();
            AppState::new(&scene, None, Vec2::new(1400.0, 900.0))
        };
        std::mem::swap(state.lesson.as_mut().unwrap(), &mut m);
        handle_app(&mut state, &press(px), px);
        let across = state
            .lesson
            .as_ref()
            .unwrap()
            .world_camera
            .world_to_screen(Vec2::new(1.2, 0.9));
        handle_app(&mut state, &hold(across), px);
        let mode = state.lesson.as_ref().unwrap();
        assert_eq!(mode.lesson, lesson_before, "the lesson is unchanged");
        assert_eq!(*mode.player.trace(), trace_before);
        let status = state.status.as_ref().unwrap();
        assert!(
            status.is_error && status.text.contains("vertex not moved"),
            "{}",
            status.text
        );
    }

    #[test]
    fn dragging_a_shape_moves_it_and_the_wheel_turns_it() {
        let mut m = open("06_gjk.ron");
        let c = m.lesson.pose(Owner::B).translation;
        let px = m.world_camera.world_to_screen(c);
        assert_eq!(body_at(&m, c), Some(Owner::B));
        handle(&mut m, &press(px), px);
        let to = px + Vec2::new(40.0, 0.0);
        handle(&mut m, &hold(to), px);
        let moved = m.lesson.pose(Owner::B).translation;
        assert!((moved.x - c.x - m.world_camera.length_to_world(40.0)).abs() < 1e-3);
        let angle = m.lesson.pose(Owner::B).angle();
        handle(&mut m, &FrameInput { wheel: 2.0, ..hold(to) }, to);
        assert!((m.lesson.pose(Owner::B).angle() - angle - 2.0 * WHEEL_TURN_RAD).abs() < 1e-5);
        handle(&mut m, &release(to), to);
        assert!(m.drag.is_none());
    }

    #[test]
    fn hovering_a_minkowski_vertex_names_its_pair() {
        let mut m = open("05_minkowski.ron");
        let piece = &m.minkowski.pieces[0];
        let k = piece.vertices.len() / 2;
        let sp = piece.vertices[k];
        let px = m.minkowski_camera.world_to_screen(sp.point);
        handle(&mut m, &at(px + Vec2::new(2.0, -2.0)), px);
        let h = m.hovered_minkowski.expect("a vertex is hovered");
        let found = m.minkowski.pieces[h.piece].vertices[h.vertex];
        assert_eq!(found.point, sp.point);
        // The pair it came from: a_i of A and b_j of B, world frame, and a_i − b_j is it.
        let va = m.lesson.world_vertices(Owner::A);
        let vb = m.lesson.world_vertices(Owner::B);
        assert!((va[found.index_a] - found.a).length() < 1e-4);
        assert!((vb[found.index_b] - found.b).length() < 1e-4);
        assert!((found.a - found.b - found.point).length() < 1e-4);
        handle(&mut m, &at(Vec2::new(-100.0, -100.0)), px);
        assert!(m.hovered_minkowski.is_none());
    }

    #[test]
    fn the_keys_step_the_player() {
        let mut m = open("06_gjk.ron");
        let key = |k| FrameInput {
            keys: vec![k],
            ..FrameInput::default()
        };
        handle(&mut m, &key(Key::Right), Vec2::ZERO);
        assert_eq!(m.player.cursor(), 1);
        handle(&mut m, &key(Key::End), Vec2::ZERO);
        assert_eq!(m.player.cursor(), m.player.len() - 1);
        handle(&mut m, &key(Key::Left), Vec2::ZERO);
        assert_eq!(m.player.cursor(), m.player.len() - 2);
        handle(&mut m, &key(Key::Home), Vec2::ZERO);
        assert_eq!(m.player.cursor(), 0);
        handle(&mut m, &key(Key::Space), Vec2::ZERO);
        assert!(m.player.is_playing());
    }
}
