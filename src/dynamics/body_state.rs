//! The bodies as the solvers see them during one step: a dense array of velocities and
//! position and rotation *deltas* since the start of the step, indexed by slot.
//!
//! Why deltas (Box2D v3's `b2BodyState`): contacts are detected once per step, at the
//! start poses, and every substep must know how far each contact point has moved since.
//! With the anchors stored relative to the centres of mass at the start of the step,
//! the current separation of a point is
//!
//! ```text
//! s = base_separation + ((dp_b + dq_b·r_b) − (dp_a + dq_a·r_a)) · n
//! ```
//!
//! which needs only the deltas, not the poses — and the deltas stay small numbers, so
//! the sum keeps its precision even far from the origin. The array is 36 bytes a body,
//! read and written in place by every pass; the bodies themselves (with their shapes and
//! names) are touched twice a step, to gather and to write back.

use super::body::BodySet;
use crate::math::{Rot, Vec2};

/// One body during a step.
///
/// In declaration order (`repr(C)`): the wide passes load the first eight numbers as one
/// row of eight lanes (`lanes.rs`).
#[derive(Clone, Copy, Debug, Default)]
#[repr(C)]
pub(crate) struct BodyState {
    /// Linear velocity of the centre of mass (m/s).
    pub v: Vec2,
    /// Angular velocity (rad/s).
    pub w: f32,
    /// How far the centre of mass has moved since the start of the step (m).
    pub dp: Vec2,
    /// How far the body has turned since the start of the step, as a rotation (kept
    /// normalised; applied to anchors) …
    pub dq: Rot,
    /// … and as an angle (rad), summed exactly, for the final pose.
    pub dtheta: f32,
    /// 1/mass (1/kg); 0 for bodies the solver may not push (static, kinematic, absent).
    pub inv_mass: f32,
    /// 1/inertia about the centre of mass (1/(kg·m²)); 0 likewise.
    pub inv_inertia: f32,
    /// Gravity and velocity integration apply (awake dynamic bodies).
    pub moves_by_forces: bool,
    /// Positions integrate (awake dynamic and kinematic bodies).
    pub moves: bool,
}

impl BodyState {
    /// Turns the body by `delta_angle` (rad) more: the first-order update of the
    /// rotation, renormalised (Box2D v3's `b2IntegrateRotation`; exact to O(δ³), and no
    /// sine or cosine in the inner loop), and the exact sum of the angle.
    #[inline]
    pub fn turn(&mut self, delta_angle: f32) {
        if delta_angle == 0.0 {
            return;
        }
        let (c, s) = self.turned(delta_angle);
        let inv_len = (c * c + s * s).sqrt().recip();
        self.dq = Rot {
            cos: c * inv_len,
            sin: s * inv_len,
        };
        self.dtheta += delta_angle;
    }

    /// [`BodyState::turn`] for the small turns of a position correction (one contact
    /// point's share, called several times a substep for every point): the rotation is
    /// renormalised by one Newton step for 1/√x from 1 instead of a square root and a
    /// division, which were a fifth of the position-based solver's time on the 5050-box
    /// pyramid.
    ///
    /// Why it is enough: the rotation is unit before the turn, so its squared length
    /// after it is x = 1 + δ², and the Newton step y = (3 − x)/2 gives 1/√x to within
    /// 3δ⁴/8 — below f32's resolution for |δ| < 0.02 rad, and a correction turns a body
    /// by far less. Larger turns take the exact path.
    #[inline]
    pub fn turn_by_correction(&mut self, delta_angle: f32) {
        const SMALL_RAD: f32 = 0.02;
        if delta_angle.abs() >= SMALL_RAD || delta_angle.is_nan() {
            self.turn(delta_angle);
            return;
        }
        let (c, s) = self.turned(delta_angle);
        let inv_len = 0.5 * (3.0 - (c * c + s * s));
        self.dq = Rot {
            cos: c * inv_len,
            sin: s * inv_len,
        };
        self.dtheta += delta_angle;
    }

    /// The rotation turned by `delta_angle` to first order, not normalised.
    #[inline]
    fn turned(&self, delta_angle: f32) -> (f32, f32) {
        (
            self.dq.cos - delta_angle * self.dq.sin,
            self.dq.sin + delta_angle * self.dq.cos,
        )
    }
}

/// The dense state of every slot (empty slots are inert zeros).
#[derive(Clone, Debug, Default)]
pub(crate) struct BodyStates {
    pub states: Vec<BodyState>,
}

impl BodyStates {
    /// Gathers velocities and masses from `bodies`, deltas zero. Reuses the array.
    pub fn gather(&mut self, bodies: &BodySet) {
        self.states.clear();
        self.states.resize(bodies.slot_count(), BodyState::default());
        for (i, s) in self.states.iter_mut().enumerate() {
            let Some(body) = bodies.slot(i) else { continue };
            let awake = !body.is_sleeping();
            let dynamic = body.is_dynamic();
            *s = BodyState {
                v: body.linear_velocity(),
                w: body.angular_velocity(),
                dp: Vec2::ZERO,
                dq: Rot::IDENTITY,
                dtheta: 0.0,
                inv_mass: body.inv_mass(),
                inv_inertia: body.inv_inertia(),
                moves_by_forces: dynamic && awake,
                moves: awake && body.kind() != crate::dynamics::BodyKind::Static,
            };
        }
    }

    /// v += g·h on awake dynamic bodies.
    pub fn integrate_velocities(&mut self, gravity: Vec2, h: f32) {
        let dv = gravity * h;
        for s in &mut self.states {
            if s.moves_by_forces {
                s.v += dv;
            }
        }
    }

    /// dp += v·h, turn by ω·h, on awake moving bodies.
    pub fn integrate_positions(&mut self, h: f32) {
        for s in &mut self.states {
            if s.moves {
                s.dp += s.v * h;
                s.turn(s.w * h);
            }
        }
    }

    /// Writes the step's result back: poses moved by the deltas, velocities set (dynamic
    /// bodies only; a kinematic body keeps the velocity it was given).
    pub fn write_back(&self, bodies: &mut BodySet) {
        for (i, s) in self.states.iter().enumerate() {
            if !s.moves {
                continue;
            }
            let Some(body) = bodies.slot_mut(i) else { continue };
            body.translate_rotate(s.dp, s.dtheta);
            if body.is_dynamic() {
                body.set_velocities_unchecked(s.v, s.w);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn turning_in_small_steps_tracks_the_angle() {
        let mut s = BodyState {
            dq: Rot::IDENTITY,
            ..BodyState::default()
        };
        // A quarter turn in 240 substeps of a body spinning at 15 rad/s for 1/10 s.
        for _ in 0..240 {
            s.turn(std::f32::consts::FRAC_PI_2 / 240.0);
        }
        assert!((s.dtheta - std::f32::consts::FRAC_PI_2).abs() < 1e-5);
        let exact = Rot::from_angle(s.dtheta);
        assert!((s.dq.cos - exact.cos).abs() < 1e-4 && (s.dq.sin - exact.sin).abs() < 1e-4);
    }

    #[test]
    fn small_corrections_keep_the_rotation_unit_and_on_track() {
        // A thousand corrections of mixed sign and size, as a resting body gets in a
        // second of substeps, then one larger than the fast path takes.
        let mut fast = BodyState::default();
        let mut exact = BodyState::default();
        for i in 0..1000 {
            let delta = 0.015 * ((i as f32) * 0.7).sin();
            fast.turn_by_correction(delta);
            exact.turn(delta);
        }
        fast.turn_by_correction(0.3);
        exact.turn(0.3);
        let len = (fast.dq.cos * fast.dq.cos + fast.dq.sin * fast.dq.sin).sqrt();
        assert!((len - 1.0).abs() < 1e-6, "length {len}");
        assert!((fast.dq.cos - exact.dq.cos).abs() < 1e-5 && (fast.dq.sin - exact.dq.sin).abs() < 1e-5);
        assert_eq!(fast.dtheta, exact.dtheta);
    }
}
