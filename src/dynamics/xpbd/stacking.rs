//! The velocity pass on a stack at rest: the lower body of a stacked pair weighs more
//! in a resting point's normal impulse ([`LOWER_SCALE`]).

use super::VelocityPass;
use crate::dynamics::body_state::BodyState;
use crate::math::Vec2;

/// [`VelocityPass::lower_scale`]: in a resting point's normal impulse the lower body of
/// a stacked pair counts as four times as heavy as it is.
///
/// Why. The velocity pass must take out the push-out speed the position passes leave in
/// a column (each pushed point's normal speed goes to zero), and one Gauss–Seidel pass
/// with the true masses cannot do that down a tall stack: each point's impulse splits
/// the correction between its two bodies, so half of it travels down the column instead
/// of settling the upper body on the lower one, and the next substep's positions send it
/// back up. The 100-row pyramid rang like that for ever (below: 3,138 of its 5,050 boxes
/// faster than 5 cm/s after 20 s, its top box 0.5 m off the middle; under the bench's
/// settings the top box slid off near step 200). A stack at rest on the ground is
/// settled in one pass only when each lower body holds still against the body it
/// carries: Guendelman, Bridson and Fedkiw's shock propagation ("Nonconvex Rigid Bodies
/// with Stacking", 2003) makes it immovable; Macklin, Müller, Chentanez and Kim ("Unified
/// Particle Physics for Real-Time Applications", 2014, §5.2) scale the mass of particles
/// lower in a pile up for the same reason. Measured on a model column of 100 rows (the
/// pyramid's masses, 4 substeps, 2 position passes, 600 steps), the lower body's
/// inverse mass times 0 left the column creeping into its slop for seconds, times 0.25
/// or 0.5 settled it within 150 steps, times 1 kept it ringing. In the world, 5050-box
/// pyramid, bench settings: times 0.25 → every box below 5 cm/s at 600 steps (0.5:
/// 4,254 of them above it), and the shipped pyramid (sleeping on) falls asleep within
/// 40 s; the step time fell from 5.4 to 3.3 ms, as resting pairs keep their contacts.
///
/// What it costs. The impulse no longer conserves momentum: the lower body takes a
/// quarter of its share, as if what it rests on took the rest — as the ground does in a
/// converged solve. So it is kept to where that is the case: normals within 60° of the
/// vertical ([`STACKED_COS`]), points at rest or nearly (no bounce, and a normal speed
/// at the substep's start under the restitution threshold, 1 m/s, either way), and the
/// normal impulse only (friction keeps the true masses). Faster than that, the true
/// masses: a ball thrown up into a box would otherwise send the box off at up to four
/// times the speed, and a pair pushed apart fast (NonConvexSat's long MTVs) would be
/// pulled back onto a lower body that barely gives: with only approaches guarded, a
/// star in the default scene kept bouncing at up to 2 m/s under NonConvexSat at 60 Hz,
/// and over the three narrow phases at seven rates from 59.8 to 60.2 Hz, 14 of 21 runs
/// fell asleep within 25 s, against 17 of 21 with both ways guarded (16 with the true
/// masses; the scene is chaotic, so read these as no worse). Tried and not kept: only
/// while the lower body's point is not moving up (then no head-on hit can gain energy),
/// which the pile's own rocking defeats (1,754 boxes above 5 cm/s at 600 steps); scaling
/// the position passes too (a model column took off: the position corrections then add
/// momentum, and the derived velocities keep it).
pub(in crate::dynamics) const LOWER_SCALE: f32 = 0.25;

/// A pair is stacked when its normal is within 60° of the vertical (cos 60°).
pub(in crate::dynamics) const STACKED_COS: f32 = 0.5;

impl VelocityPass {
    /// The factors on A's and B's inverse mass and inertia in the normal impulse of a
    /// resting point with normal `n` (A towards B): [`VelocityPass::lower_scale`] for
    /// the lower body of a stacked pair (see [`LOWER_SCALE`]), else 1.
    #[inline]
    pub fn normal_scales(&self, n: Vec2) -> (f32, f32) {
        let along = n.dot(self.up);
        if along > STACKED_COS {
            (self.lower_scale, 1.0)
        } else if along < -STACKED_COS {
            (1.0, self.lower_scale)
        } else {
            (1.0, 1.0)
        }
    }
}

/// `s` with its inverse mass and inertia times `k`.
#[inline]
pub(super) fn scaled(s: &BodyState, k: f32) -> BodyState {
    BodyState {
        inv_mass: s.inv_mass * k,
        inv_inertia: s.inv_inertia * k,
        ..*s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pass() -> VelocityPass {
        VelocityPass {
            restitution_threshold: 1.0,
            inv_h: 240.0,
            up: Vec2::Y,
            lower_scale: LOWER_SCALE,
        }
    }

    #[test]
    fn the_lower_body_of_a_stacked_pair_is_the_scaled_one() {
        let k = LOWER_SCALE;
        // A below B (the normal from A to B points up), B below A, side by side.
        assert_eq!(pass().normal_scales(Vec2::Y), (k, 1.0));
        assert_eq!(pass().normal_scales(-Vec2::Y), (1.0, k));
        assert_eq!(pass().normal_scales(Vec2::X), (1.0, 1.0));
        // 60° from the vertical is the limit: 55° is stacked, 65° is not.
        let at = |deg: f32| Vec2::new(deg.to_radians().sin(), deg.to_radians().cos());
        assert_eq!(pass().normal_scales(at(55.0)), (k, 1.0));
        assert_eq!(pass().normal_scales(at(65.0)), (1.0, 1.0));
        assert_eq!(pass().normal_scales(-at(55.0)), (1.0, k));
        // No gravity, no stack.
        let weightless = VelocityPass {
            up: Vec2::ZERO,
            ..pass()
        };
        assert_eq!(weightless.normal_scales(Vec2::Y), (1.0, 1.0));
    }

    #[test]
    fn scaling_touches_the_inverse_masses_only() {
        let s = BodyState {
            inv_mass: 2.0,
            inv_inertia: 8.0,
            v: Vec2::new(1.0, -3.0),
            w: 0.5,
            ..BodyState::default()
        };
        let t = scaled(&s, 0.25);
        assert_eq!((t.inv_mass, t.inv_inertia), (0.5, 2.0));
        assert_eq!((t.v, t.w), (s.v, s.w));
        let same = scaled(&s, 1.0);
        assert_eq!((same.inv_mass, same.inv_inertia), (s.inv_mass, s.inv_inertia));
    }
}
