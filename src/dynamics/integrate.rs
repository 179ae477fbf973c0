//! Semi-implicit (symplectic) Euler, split in its two halves so contacts can act
//! between them:
//!
//! ```text
//! v ← v + g·h            integrate_velocities   (dynamic bodies only)
//! … contacts change v …
//! x ← x + v·h, θ ← θ + ω·h   integrate_positions (dynamic and kinematic bodies)
//! ```
//!
//! Solving contacts after gravity and before the position update is what lets a
//! resting body stay put: the solver sees gravity's velocity and cancels it before it
//! can move the body into the ground (Box2D-lite's order).
//!
//! Known error, free fall from rest: after n steps of h, v = −g·n·h exactly, while
//! y = y0 − g·h²·n(n+1)/2 = y0 − g·t²/2 − g·h·t/2, i.e. the body is ahead of the exact
//! parabola by g·h·t/2 (the position uses the already-updated velocity).

use super::body::BodySet;
use crate::math::Vec2;

/// v += g·h on awake dynamic bodies (a sleeping body is not integrated at all: gravity
/// would otherwise build up a velocity nothing cancels).
pub(crate) fn integrate_velocities(bodies: &mut BodySet, gravity: Vec2, h: f32) {
    for body in bodies.iter_mut() {
        if body.is_dynamic() && !body.is_sleeping() {
            let v = body.linear_velocity() + gravity * h;
            let w = body.angular_velocity();
            body.set_velocities_unchecked(v, w);
        }
    }
}

/// x += v·h, θ += ω·h on moving, awake bodies (the centre of mass moves; the origin
/// follows).
pub(crate) fn integrate_positions(bodies: &mut BodySet, h: f32) {
    for body in bodies.iter_mut() {
        if body.kind() != crate::dynamics::BodyKind::Static && !body.is_sleeping() {
            let dx = body.linear_velocity() * h;
            let dtheta = body.angular_velocity() * h;
            body.translate_rotate(dx, dtheta);
        }
    }
}
