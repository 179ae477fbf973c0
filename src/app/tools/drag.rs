//! Grabbing bodies with the mouse.
//!
//! - **Running**, dynamic body: a mouse spring pulls the grabbed point (fixed in the
//!   body) toward the cursor, once per fixed step ([`apply_spring`]). Letting go
//!   throws the body: it keeps the velocity the spring gave it. Not an edit — the
//!   simulation moved it.
//! - **Paused** (or a static / kinematic body): the grabbed point follows the cursor
//!   exactly. That is an edit: the first motion records one undo entry for the whole
//!   gesture ("move body N"), so one Ctrl+Z puts the body back where it was picked up.
//! - The wheel (and Q / E) rotates the held body: exactly about the grabbed point while
//!   paused; while running it sets a target angle that an angular spring holds.
//!
//! The spring is the soft constraint of Box2D's mouse joint (E. Catto, "Soft
//! Constraints", GDC 2011): a point constraint `C = p − target` solved once per step
//! with a stiffness and damping given as a frequency and a damping ratio, scaled by the
//! body's mass so a pebble and a boulder follow the cursor alike:
//!
//! ```text
//! ω = 2π·f,  k = m·ω²,  c = 2·m·ζ·ω
//! γ = 1 / (h·(c + h·k))          softness (1/kg)
//! β = h·k·γ                      position feedback (1/s)
//! K = [1/m + r⊥ r⊥ᵀ / I] + γ·1   effective mass at the point, softened
//! J = −K⁻¹ · (v + ω×r + β·C),    |J| ≤ F_max·h
//! ```
//!
//! Being implicit, it is stable at any frequency below the step rate; at 60 Hz, 5 Hz
//! and ζ = 0.7 the body settles on the cursor in about a fifth of a second and sags
//! g / ω² ≈ 1 cm under gravity.

use super::super::input::FrameInput;
use super::super::state::AppState;
use super::{body_label, pressed_in_world, PICK_TOLERANCE_PX};
use crate::dynamics::BodyHandle;
use crate::math::{cross, Rot, Vec2};

/// Stiffness of the mouse spring, as the frequency of the oscillation it would make
/// undamped (Hz). Higher follows tighter; past ~a quarter of the step rate it stops
/// feeling like a spring.
pub const SPRING_FREQUENCY_HZ: f32 = 5.0;
/// Damping ratio of the mouse spring (1 = critically damped). Slightly under 1 keeps a
/// hint of swing so a thrown body feels thrown.
pub const SPRING_DAMPING_RATIO: f32 = 0.7;
/// The spring's force limit, in multiples of the body's weight: strong enough to lift
/// it out of a pile, not so strong it can punch it through a wall.
pub const SPRING_MAX_FORCE_PER_WEIGHT: f32 = 1000.0;
/// The held body's angular velocity is multiplied by this each step (Box2D's mouse
/// joint does the same): a body held off its centre swings, but does not spin forever.
pub const HELD_ANGULAR_DAMPING: f32 = 0.98;
/// Rotation per wheel notch (rad): 10°.
pub const WHEEL_ROTATION_RAD: f32 = 10.0 * std::f32::consts::PI / 180.0;
/// Rotation per Q / E press (rad): 15°.
pub const KEY_ROTATION_RAD: f32 = 15.0 * std::f32::consts::PI / 180.0;

/// A body held by the mouse.
#[derive(Clone, Debug, PartialEq)]
pub struct Grab {
    /// The body.
    pub body: BodyHandle,
    /// The grabbed point, in the body's local frame (m).
    pub local_anchor: Vec2,
    /// Where the grabbed point should be: the cursor (world, m).
    pub target_world: Vec2,
    /// While running: the angle the user turned the body to (rad), held by an angular
    /// spring. `None` until the user rotates: the body swings freely about the grab.
    pub target_angle: Option<f32>,
    /// An exact move has been recorded as an undo entry for this gesture.
    pub moved: bool,
}

impl Grab {
    /// The grabbed point in the world now (m).
    pub fn anchor_world(&self, state: &AppState) -> Option<Vec2> {
        let body = state.world.body(self.body)?;
        Some(body.pose().apply_point(self.local_anchor))
    }
}

/// True when the held body follows the cursor exactly (an edit) rather than by spring.
pub fn is_exact(state: &AppState, handle: BodyHandle) -> bool {
    state.clock.is_paused() || state.world.body(handle).is_some_and(|b| !b.is_dynamic())
}

/// The Select mode's left button: press picks (and grabs), motion drags, release lets go.
pub fn handle(state: &mut AppState, input: &FrameInput) {
    if let Some(grab) = &mut state.tools.grab {
        grab.target_world = state.tools.cursor_world;
        let handle = grab.body;
        if !state.world.bodies().contains(handle) {
            // Undone, deleted or removed by the step while held.
            state.tools.grab = None;
            return;
        }
        if input.wheel != 0.0 {
            rotate_held(state, input.wheel * WHEEL_ROTATION_RAD);
        }
        if is_exact(state, handle) {
            move_exact(state, 0.0);
        }
        if input.released(super::Button::Left) || !input.down(super::Button::Left) {
            release(state);
        }
        return;
    }
    if !pressed_in_world(state, input) {
        return;
    }
    let cursor = state.tools.cursor_world;
    let tolerance = state.camera.length_to_world(PICK_TOLERANCE_PX);
    let Some(handle) = super::pick::body_at(&state.world, cursor, tolerance) else {
        state.selection = None;
        return;
    };
    state.selection = Some(handle);
    let Some(body) = state.world.body(handle) else {
        return;
    };
    if !state.clock.is_paused() && !body.is_dynamic() {
        let what = format!("{:?}", body.kind()).to_lowercase();
        state.set_status(format!(
            "{} is {what}: pause (Space) to move it",
            body_label(state, handle)
        ));
        return;
    }
    let local_anchor = body.pose().apply_inv_point(cursor);
    state.tools.grab = Some(Grab {
        body: handle,
        local_anchor,
        target_world: cursor,
        target_angle: None,
        moved: false,
    });
    if !state.clock.is_paused() {
        state.world.wake(handle);
    }
}

/// Lets go of the held body. A running body keeps its velocity (it is thrown); a moved
/// one says so in the status bar.
pub fn release(state: &mut AppState) {
    if let Some(grab) = state.tools.grab.take() {
        if grab.moved {
            state.set_status(format!("moved {} (Ctrl+Z to undo)", body_label(state, grab.body)));
        }
    }
}

/// Rotates the held body by `delta_rad` (counter-clockwise): exactly about the grabbed
/// point when exact, else by moving the spring's target angle. No body held: nothing.
pub fn rotate_held(state: &mut AppState, delta_rad: f32) {
    let Some(grab) = &state.tools.grab else {
        return;
    };
    let handle = grab.body;
    let Some(body) = state.world.body(handle) else {
        return;
    };
    if is_exact(state, handle) {
        move_exact(state, delta_rad);
    } else {
        let angle = body.angle();
        if let Some(grab) = &mut state.tools.grab {
            grab.target_angle = Some(grab.target_angle.unwrap_or(angle) + delta_rad);
        }
        state.world.wake(handle);
    }
}

/// Puts the held body where the cursor says, turned by `delta_rad` about the grabbed
/// point; the first change of a gesture records the undo entry.
fn move_exact(state: &mut AppState, delta_rad: f32) {
    let Some(grab) = state.tools.grab.clone() else {
        return;
    };
    let Some(body) = state.world.body(grab.body) else {
        return;
    };
    let angle = body.angle() + delta_rad;
    let origin = grab.target_world - Rot::from_angle(angle).apply(grab.local_anchor);
    let pose = body.pose();
    if delta_rad == 0.0 && (origin - pose.translation).length() <= f32::EPSILON * origin.length().max(1.0) {
        return;
    }
    if !grab.moved {
        let label = format!("move {}", body_label(state, grab.body));
        state.begin_body_edit(label, grab.body, crate::app::undo::Restore::Everything);
        if let Some(g) = &mut state.tools.grab {
            g.moved = true;
        }
    }
    if let Some(body) = state.world.body_mut(grab.body) {
        body.set_pose(origin, angle);
    }
}

/// One step of the mouse spring (and the angular spring, once the user has rotated the
/// held body): impulses at the grabbed point, see the module docs. Nothing while
/// paused, or when the held body is not dynamic.
pub fn apply_spring(state: &mut AppState, h: f32) {
    if state.clock.is_paused() || !(h > 0.0 && h.is_finite()) {
        return;
    }
    let Some(grab) = state.tools.grab.clone() else {
        return;
    };
    let g = state.world.settings().gravity.length();
    let weight_accel = if g > 0.0 { g } else { 9.81 };
    let Some(body) = state.world.body_mut(grab.body) else {
        return;
    };
    let (m, inv_m, inertia, inv_i) = (body.mass(), body.inv_mass(), body.inertia(), body.inv_inertia());
    if !body.is_dynamic() || inv_m <= 0.0 {
        return;
    }
    let omega = std::f32::consts::TAU * SPRING_FREQUENCY_HZ;
    let soft = |mass: f32| {
        let k = mass * omega * omega;
        let c = 2.0 * mass * SPRING_DAMPING_RATIO * omega;
        let gamma = 1.0 / (h * (c + h * k));
        (gamma, h * k * gamma)
    };
    let max_impulse = SPRING_MAX_FORCE_PER_WEIGHT * m * weight_accel * h;

    let mut v = body.linear_velocity();
    let mut w = body.angular_velocity() * HELD_ANGULAR_DAMPING;

    // The target angle, if the user turned the body: a 1-D soft constraint on θ.
    if let Some(target) = grab.target_angle {
        if inertia > 0.0 {
            let (gamma, beta) = soft(inertia);
            let c = body.angle() - target;
            let impulse = -(w + beta * c) / (inv_i + gamma);
            let max_angular = max_impulse * body.outer_reach().max(1e-3);
            w += inv_i * impulse.clamp(-max_angular, max_angular);
        }
    }

    // The point: a 2-D soft constraint p(anchor) = target.
    let (gamma, beta) = soft(m);
    let center = body.center_of_mass();
    let r = body.rotation().apply(grab.local_anchor - body.local_center());
    let c = center + r - grab.target_world;
    let cdot = v + Vec2::new(-w * r.y, w * r.x);
    let k11 = inv_m + inv_i * r.y * r.y + gamma;
    let k12 = -inv_i * r.x * r.y;
    let k22 = inv_m + inv_i * r.x * r.x + gamma;
    let det = k11 * k22 - k12 * k12;
    if det.abs() > f32::MIN_POSITIVE {
        let rhs = -(cdot + beta * c);
        let mut impulse = Vec2::new(k22 * rhs.x - k12 * rhs.y, -k12 * rhs.x + k11 * rhs.y) / det;
        let len = impulse.length();
        if len > max_impulse {
            impulse *= max_impulse / len;
        }
        v += inv_m * impulse;
        w += inv_i * cross(r, impulse);
    }
    body.set_linear_velocity(v);
    body.set_angular_velocity(w);
}

#[cfg(test)]
mod tests {
    use super::super::handle_input;
    use super::super::test_support::{held, hover, named, press, screen_of, state};
    use super::*;
    use crate::app::input::{camera_input, FrameInput, Key};

    #[test]
    fn a_paused_drag_moves_the_body_exactly_and_one_undo_puts_it_back() {
        let mut s = state();
        s.clock.pause();
        let star = named(&s, "star 1");
        let start = s.world.body(star).unwrap().pose();
        let at = screen_of(&s, star);
        handle_input(&mut s, &press(at));
        assert_eq!(s.selection, Some(star));
        // Several frames of motion: one gesture, one undo entry.
        for i in 1..=10 {
            handle_input(&mut s, &held(at + Vec2::new(8.0 * i as f32, -3.0 * i as f32)));
        }
        let end_px = at + Vec2::new(80.0, -30.0);
        handle_input(&mut s, &super::super::test_support::release(end_px));
        assert!(s.tools.grab.is_none());
        let moved = s.world.body(star).unwrap().pose();
        let expected = s.camera.screen_to_world(end_px) - s.camera.screen_to_world(at);
        assert!(
            (moved.translation - start.translation - expected).length() < 1e-4,
            "moved by {} instead of {expected}",
            moved.translation - start.translation
        );
        assert_eq!(moved.angle(), start.angle());
        assert_eq!(s.undo.undo_label(), Some("move 'star 1'"));
        s.undo();
        let back = s.world.body(star).unwrap().pose();
        assert!((back.translation - start.translation).length() < 1e-5);
        assert!(s.undo.undo_label().is_none(), "exactly one entry for the gesture");
    }

    #[test]
    fn undo_while_dragging_lets_go_so_no_move_goes_unrecorded() {
        let mut s = state();
        s.clock.pause();
        let star = named(&s, "star 1");
        let at = screen_of(&s, star);
        handle_input(&mut s, &press(at));
        handle_input(&mut s, &held(at + Vec2::new(30.0, 0.0)));
        let mut ctrl_z = held(at + Vec2::new(30.0, 0.0));
        ctrl_z.keys = vec![Key::Z];
        ctrl_z.ctrl = true;
        crate::app::input::global_keys(&mut s, &ctrl_z);
        handle_input(&mut s, &ctrl_z);
        assert!(s.tools.grab.is_none());
        let back = s.world.body(star).unwrap().pose().translation;
        handle_input(&mut s, &held(at + Vec2::new(60.0, 0.0)));
        assert_eq!(s.world.body(star).unwrap().pose().translation, back);
    }

    #[test]
    fn a_click_without_motion_is_not_an_edit() {
        let mut s = state();
        s.clock.pause();
        let star = named(&s, "star 1");
        let at = screen_of(&s, star);
        handle_input(&mut s, &press(at));
        handle_input(&mut s, &held(at));
        handle_input(&mut s, &super::super::test_support::release(at));
        assert!(s.undo.undo_label().is_none());
        assert!(!s.dirty);
    }

    #[test]
    fn the_spring_pulls_the_body_to_the_cursor_and_letting_go_throws_it() {
        let mut s = state();
        let ball = named(&s, "ball 1");
        let start = s.world.body(ball).unwrap().center_of_mass();
        let at = screen_of(&s, ball);
        handle_input(&mut s, &press(at));
        assert!(s.tools.grab.is_some());
        // Hold the cursor 3 m up and 2 m right of where the ball was picked up.
        let goal = start + Vec2::new(2.0, 3.0);
        let goal_px = s.camera.world_to_screen(goal);
        handle_input(&mut s, &held(goal_px));
        let steps = 60;
        for _ in 0..steps {
            s.step_once();
        }
        let c = s.world.body(ball).unwrap().center_of_mass();
        assert!(
            (c - goal).length() < 0.1,
            "after 1 s the ball is at {c}, the cursor at {goal}"
        );
        assert!(s.undo.undo_label().is_none(), "the simulation moved it: not an edit");
        // Swing the cursor fast to the right for a few frames, then let go.
        for i in 1..=5 {
            handle_input(&mut s, &held(goal_px + Vec2::new(25.0 * i as f32, 0.0)));
            s.step_once();
        }
        handle_input(
            &mut s,
            &super::super::test_support::release(goal_px + Vec2::new(125.0, 0.0)),
        );
        assert!(s.tools.grab.is_none());
        let v = s.world.body(ball).unwrap().linear_velocity();
        assert!(v.x > 2.0, "thrown to the right: {v}");
        s.step_once();
        assert!(
            s.world.body(ball).unwrap().linear_velocity().x > 1.0,
            "nothing holds it back"
        );
    }

    #[test]
    fn static_bodies_are_not_dragged_while_running_but_move_while_paused() {
        let mut s = state();
        let wall = named(&s, "left wall");
        let at = s.camera.world_to_screen(s.world.body(wall).unwrap().center_of_mass());
        handle_input(&mut s, &press(at));
        assert!(s.tools.grab.is_none());
        assert_eq!(s.selection, Some(wall));
        assert!(s.status.as_ref().unwrap().text.contains("pause"));
        handle_input(&mut s, &super::super::test_support::release(at));
        s.clock.pause();
        let before = s.world.body(wall).unwrap().pose().translation;
        handle_input(&mut s, &press(at));
        handle_input(&mut s, &held(at + Vec2::new(40.0, 0.0)));
        handle_input(&mut s, &super::super::test_support::release(at + Vec2::new(40.0, 0.0)));
        let after = s.world.body(wall).unwrap().pose().translation;
        assert!((after.x - before.x - s.camera.length_to_world(40.0)).abs() < 1e-4);
        s.undo();
        assert_eq!(s.world.body(wall).unwrap().pose().translation, before);
    }

    #[test]
    fn the_wheel_rotates_the_held_body_about_the_grab_and_does_not_zoom() {
        let mut s = state();
        s.clock.pause();
        let star = named(&s, "star 1");
        let at = screen_of(&s, star) + Vec2::new(5.0, 3.0);
        let angle0 = s.world.body(star).unwrap().angle();
        let zoom0 = s.camera.pixels_per_metre;
        let frame = |s: &mut AppState, input: FrameInput| {
            camera_input(s, &input, input.mouse_px);
            handle_input(s, &input);
        };
        frame(&mut s, press(at));
        let anchor = s.tools.grab.as_ref().unwrap().anchor_world(&s).unwrap();
        let mut wheel = held(at);
        wheel.wheel = 2.0;
        frame(&mut s, wheel);
        assert_eq!(s.camera.pixels_per_metre, zoom0, "the wheel did not zoom");
        let angle1 = s.world.body(star).unwrap().angle();
        assert!((angle1 - angle0 - 2.0 * WHEEL_ROTATION_RAD).abs() < 1e-5);
        let anchor1 = s.tools.grab.as_ref().unwrap().anchor_world(&s).unwrap();
        assert!((anchor1 - anchor).length() < 1e-4, "turned about the grabbed point");
        // Q turns counter-clockwise, E clockwise.
        let mut q = held(at);
        q.keys = vec![Key::E];
        frame(&mut s, q);
        let angle2 = s.world.body(star).unwrap().angle();
        assert!((angle2 - angle1 + KEY_ROTATION_RAD).abs() < 1e-5);
        frame(&mut s, super::super::test_support::release(at));
        s.undo();
        assert_eq!(
            s.world.body(star).unwrap().angle(),
            angle0,
            "one undo for move and turns"
        );
        // Not holding anything: the wheel zooms.
        let mut wheel = hover(at);
        wheel.wheel = 1.0;
        frame(&mut s, wheel);
        assert!(s.camera.pixels_per_metre > zoom0);
    }

    #[test]
    fn turning_a_body_held_by_the_spring_holds_the_new_angle() {
        let mut s = state();
        let b = named(&s, "box 1");
        let at = screen_of(&s, b);
        handle_input(&mut s, &press(at));
        let angle0 = s.world.body(b).unwrap().angle();
        let mut turn = held(at);
        turn.keys = vec![Key::Q, Key::Q];
        handle_input(&mut s, &turn);
        // Half a second: settled, before the bodies stacked above it fall on it.
        for _ in 0..30 {
            handle_input(&mut s, &held(at));
            s.step_once();
        }
        let angle = s.world.body(b).unwrap().angle();
        let target = angle0 + 2.0 * KEY_ROTATION_RAD;
        assert!((angle - target).abs() < 0.01, "angle {angle}, target {target}");
    }
}
