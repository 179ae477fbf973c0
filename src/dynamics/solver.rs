//! Sequential impulses: the default contact resolution.
//!
//! Erin Catto, "Iterative Dynamics with Temporal Coherence" (GDC 2005) and Box2D-lite:
//! every contact point is a velocity constraint `vn ≥ 0` on the relative normal velocity
//! at the point, solved one point at a time (projected Gauss–Seidel) over several
//! passes. What makes it stack:
//!
//! - **Accumulated, clamped impulses.** Each point keeps the total normal impulse λn of
//!   the substep; a pass computes a correction and clamps the *total* to λn ≥ 0, so a
//!   later pass may take back what an earlier one overdid (clamping each increment
//!   instead would only ever push).
//! - **Coulomb friction** along the tangent, with the total clamped to |λt| ≤ μ·λn.
//! - **Warm starting.** Points are matched with the previous substep's by the narrow
//!   phase's [`ContactId`](crate::narrow::ContactId) (which features touch); a matched point starts from its old
//!   impulses, applied before the first pass. A resting stack then starts each substep
//!   already nearly solved instead of from zero.
//! - **Persistent points.** The narrow phase reports at most two points per pair, from
//!   one pair of features. A non-convex body resting on two separate features (a gear on
//!   two teeth, a U on both legs) gets one of them per substep, alternately, and rocks
//!   for ever. So a point of the previous substep that the narrow phase did not report
//!   again is kept (up to [`MAX_POINTS`](super::contacts::MAX_POINTS)) while it is still valid: its anchors, stored
//!   in each body's frame, are still within `slop` of touching along the new normal,
//!   have not slid apart by more than [`KEEP_DRIFT`](super::contacts::KEEP_DRIFT), and the bodies have turned
//!   against each other by less than [`KEEP_TURN_RAD`](super::contacts::KEEP_TURN_RAD). This is Bullet's persistent manifold (Coumans),
//!   used only to fill in what a single-feature narrow phase leaves out.
//! - **Restitution** from the relative normal velocity measured *before* solving (after
//!   gravity), applied only above a threshold speed and only where the point actually
//!   pushed — so a resting body does not bounce on gravity's own velocity.
//!
//! # Position correction: why soft contacts
//!
//! Overlap left by the discrete step must be pushed out. The options:
//! Baumgarte (add β·depth/h to the velocity target) feeds the push-out into the real
//! velocity, so it shows up as energy: stacks jitter and bodies pop out of deep overlap;
//! split impulses keep a second, pseudo velocity that moves positions only, at the cost
//! of a second solve per pass. We use Box2D v3's **soft step** (Catto, "Solver2D",
//! 2024; Box2D v3 `contact_solver.c`): the contact is a stiff, heavily damped spring on
//! the penetration, expressed with the three coefficients of `b2MakeSoft`
//!
//! ```text
//! ω = 2π·hertz,  a1 = 2ζ + h·ω,  a2 = h·ω·a1,  a3 = 1 / (1 + a2)
//! bias_rate = ω / a1,  mass_scale = a2·a3,  impulse_scale = a3
//! ```
//!
//! and after the positions move, a few **relax** passes without any bias remove the
//! push-out velocity again. The spring's stiffness follows the substep (it is capped at a
//! quarter of the substep rate), so it stays stable for any mass ratio, and because
//! relaxing takes the bias velocity back, push-out adds no energy: the benefit of split
//! impulses for one cheap extra pass. Overlap up to `slop` is left alone so resting
//! contacts persist (the narrow phase only reports overlapping shapes).
//!
//! Per step (Box2D v3's `b2SolverStage_*` order):
//!
//! ```text
//! prepare                 constraints built once (constraint.rs)
//! for each substep:
//!     v += g·h
//!     warm start          apply the accumulated impulses
//!     solve(bias)         × velocity_iterations
//!     x += v·h            deltas only (body_state.rs)
//!     solve(none)         × relax_iterations
//! restitution             one pass, vn → −e·vn_before where it applies
//! store                   impulses into the contacts for the next step
//! ```

use super::body_state::{BodyState, BodyStates};
use super::constraint::{apply_impulse_along, relative_speed, tangent_of, Constraint, ConstraintPoint, Constraints};
use super::observe::{PassKind, SolverWatch};
use super::settings::WorldSettings;
use super::solver_wide::WideContacts;

/// The three coefficients of a soft constraint (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Softness {
    pub bias_rate: f32,
    pub mass_scale: f32,
    pub impulse_scale: f32,
}

impl Softness {
    /// A spring of `hertz` with damping ratio `zeta` over a time step `h` (s). Zero
    /// hertz gives a rigid constraint with no position bias.
    pub(crate) fn new(hertz: f32, zeta: f32, h: f32) -> Softness {
        if !(hertz > 0.0 && h > 0.0) {
            return Softness {
                bias_rate: 0.0,
                mass_scale: 1.0,
                impulse_scale: 0.0,
            };
        }
        let omega = std::f32::consts::TAU * hertz;
        let a1 = 2.0 * zeta + h * omega;
        let a2 = h * omega * a1;
        let a3 = 1.0 / (1.0 + a2);
        Softness {
            bias_rate: omega / a1,
            mass_scale: a2 * a3,
            impulse_scale: a3,
        }
    }
}

/// Pair material. Friction is the geometric mean √(μa·μb) (Box2D's mixing rule: ice on
/// anything stays slippery, and a zero-friction body makes every pair frictionless);
/// restitution is the larger of the two (a ball bounces on a clay floor).
pub fn mix_friction_restitution(
    friction_a: f32,
    friction_b: f32,
    restitution_a: f32,
    restitution_b: f32,
) -> (f32, f32) {
    ((friction_a * friction_b).sqrt(), restitution_a.max(restitution_b))
}

/// Tuning of one step's solve, taken from the settings once.
#[derive(Clone, Copy, Debug)]
pub(crate) struct StepTuning {
    pub softness: Softness,
    pub inv_h: f32,
    pub slop: f32,
    pub max_push_speed: f32,
}

/// Solves one step of contacts by sequential impulses over `substeps` substeps of `h`
/// (see the module docs): integrates the states' velocities and position deltas and
/// leaves the accumulated impulses in `constraints`.
///
/// The passes run four constraints at once (`solver_wide.rs`), colour by colour; the
/// answer is the same, number for number, as one constraint after another in colour order
/// (`solve`, `warm_start`): the constraints of a colour share no body that moves.
pub(crate) fn solve_step(
    states: &mut BodyStates,
    constraints: &mut Constraints,
    settings: &WorldSettings,
    substeps: u32,
    h: f32,
    wide: &mut WideContacts,
    watch: &mut dyn SolverWatch,
) {
    let tuning = StepTuning::new(settings, h);
    wide.build(constraints, states);
    // An observer sees the constraints between passes: bring them up to date first.
    let watching = watch.watching();
    let sync = |constraints: &mut Constraints, wide: &WideContacts| {
        if watching {
            wide.write_back(constraints);
        }
    };
    for substep in 0..substeps {
        watch.substep_begun(substep);
        states.integrate_velocities(settings.gravity, h);
        if settings.warm_starting {
            wide.warm_start(states, constraints);
        }
        sync(constraints, wide);
        watch.pass_done(PassKind::WarmStart, substep, 0, states, constraints);
        for i in 0..settings.velocity_iterations {
            wide.solve(states, constraints, &tuning, true);
            sync(constraints, wide);
            watch.pass_done(PassKind::VelocityIteration, substep, i, states, constraints);
        }
        states.integrate_positions(h);
        watch.pass_done(PassKind::Integrate, substep, 0, states, constraints);
        for i in 0..settings.relax_iterations {
            wide.solve(states, constraints, &tuning, false);
            sync(constraints, wide);
            watch.pass_done(PassKind::RelaxIteration, substep, i, states, constraints);
        }
    }
    wide.write_back(constraints);
    apply_restitution(states, constraints, settings.restitution_threshold);
    let last = substeps.saturating_sub(1);
    watch.pass_done(PassKind::Restitution, last, 0, states, constraints);
}

impl StepTuning {
    /// The tuning of a step of substeps `h` (s) long.
    pub(crate) fn new(settings: &WorldSettings, h: f32) -> StepTuning {
        let hertz = settings.contact_hertz.min(0.25 / h);
        StepTuning {
            softness: Softness::new(hertz, settings.contact_damping_ratio, h),
            inv_h: 1.0 / h,
            slop: settings.slop,
            max_push_speed: settings.max_push_speed,
        }
    }
}

/// Applies the accumulated impulses, one constraint after another (the reference the
/// four-wide pass is tested against).
#[cfg(test)]
pub(crate) fn warm_start(states: &mut BodyStates, constraints: &Constraints) {
    for c in &constraints.list {
        warm_start_constraint(&mut states.states, c, constraints.points_of(c));
    }
}

/// Applies the accumulated impulses of one constraint.
#[inline]
pub(crate) fn warm_start_constraint(states: &mut [BodyState], c: &Constraint, points: &[ConstraintPoint]) {
    let (ia, ib) = (c.a as usize, c.b as usize);
    let (mut a, mut b) = (states[ia], states[ib]);
    for p in points {
        let n = p.normal;
        apply_impulse_along(&mut a, &mut b, n, p.cross_na, p.cross_nb, p.normal_impulse);
        apply_impulse_along(&mut a, &mut b, tangent_of(n), p.cross_ta, p.cross_tb, p.tangent_impulse);
    }
    states[ia] = a;
    states[ib] = b;
}

/// One pass over every constraint, one after another (the reference the four-wide pass
/// is tested against).
#[cfg(test)]
pub(crate) fn solve(states: &mut BodyStates, constraints: &mut Constraints, t: &StepTuning, use_bias: bool) {
    for (c, points) in constraints.iter_mut() {
        solve_constraint(&mut states.states, c, points, t, use_bias);
    }
}

/// One constraint's normal impulses (with the soft position bias when `use_bias`),
/// then its friction.
#[inline]
pub(crate) fn solve_constraint(
    states: &mut [BodyState],
    c: &Constraint,
    points: &mut [ConstraintPoint],
    t: &StepTuning,
    use_bias: bool,
) {
    let soft = t.softness;
    let (ia, ib) = (c.a as usize, c.b as usize);
    let (mut a, mut b) = (states[ia], states[ib]);
    let friction = c.friction;
    for p in points.iter_mut() {
        // Fixed anchors: the Jacobian keeps the anchors of the start of the step
        // (Box2D v3 does the same; its angular parts are precomputed); only the
        // separation follows the bodies' turn.
        // s > 0: the point is apart, or within the slop: let it approach by s this
        // substep (the speculative rule), no softness needed.
        // A deep overlap the step started with is tolerated: it is shed apart, at a
        // bounded speed (`crowd.rs`). Shallower old overlap is pushed out by the
        // soft bias, capped at the push-out speed, below.
        let tolerated = if p.deep { p.start_overlap } else { 0.0 };
        let s = p.current_separation(&a, &b) + t.slop + tolerated;
        let (bias, mass_scale, impulse_scale) = if s > 0.0 {
            (s * t.inv_h, 1.0, 0.0)
        } else if use_bias {
            (
                (soft.bias_rate * s).max(-t.max_push_speed),
                soft.mass_scale,
                soft.impulse_scale,
            )
        } else {
            (0.0, 1.0, 0.0)
        };
        let vn = relative_speed(&a, &b, p.normal, p.cross_na, p.cross_nb);
        let impulse = -p.normal_mass * mass_scale * (vn + bias) - impulse_scale * p.normal_impulse;
        let total = (p.normal_impulse + impulse).max(0.0);
        if !total.is_finite() {
            continue; // never spread a non-finite value to the other body
        }
        let applied = total - p.normal_impulse;
        p.normal_impulse = total;
        p.max_normal_impulse = p.max_normal_impulse.max(applied);
        apply_impulse_along(&mut a, &mut b, p.normal, p.cross_na, p.cross_nb, applied);
    }
    // Friction after every point's normal impulse, whose totals set its limits.
    for p in points.iter_mut() {
        let tangent = tangent_of(p.normal);
        let vt = relative_speed(&a, &b, tangent, p.cross_ta, p.cross_tb);
        // A limit that overflowed to infinity (friction 1e30 and a large impulse)
        // still clamps; NaN is refused below.
        let limit = friction * p.normal_impulse;
        let total = (p.tangent_impulse - p.tangent_mass * vt).max(-limit).min(limit);
        if !total.is_finite() {
            continue;
        }
        let applied = total - p.tangent_impulse;
        p.tangent_impulse = total;
        apply_impulse_along(&mut a, &mut b, tangent, p.cross_ta, p.cross_tb, applied);
    }
    states[ia] = a;
    states[ib] = b;
}

/// Restitution: where a point approached faster than `threshold` before solving and
/// pushed, drive its normal velocity to −e·(velocity before).
fn apply_restitution(states: &mut BodyStates, constraints: &mut Constraints, threshold: f32) {
    let states = &mut states.states;
    for (c, points) in constraints.iter_mut() {
        if c.restitution == 0.0 {
            continue;
        }
        let (ia, ib) = (c.a as usize, c.b as usize);
        let (mut a, mut b) = (states[ia], states[ib]);
        let restitution = c.restitution;
        for p in points.iter_mut() {
            if p.relative_velocity > -threshold || p.max_normal_impulse == 0.0 {
                continue;
            }
            let vn = relative_speed(&a, &b, p.normal, p.cross_na, p.cross_nb);
            let impulse = -p.normal_mass * (vn + restitution * p.relative_velocity);
            let total = (p.normal_impulse + impulse).max(0.0);
            if !total.is_finite() {
                continue;
            }
            let applied = total - p.normal_impulse;
            p.normal_impulse = total;
            apply_impulse_along(&mut a, &mut b, p.normal, p.cross_na, p.cross_nb, applied);
        }
        states[ia] = a;
        states[ib] = b;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn soft_coefficients_approach_rigid_for_stiff_springs() {
        // ζ = 10, 30 Hz at 240 Hz substeps: over-damped, most of the rigid mass.
        let s = Softness::new(30.0, 10.0, 1.0 / 240.0);
        assert!(s.mass_scale > 0.0 && s.mass_scale < 1.0);
        assert!((s.mass_scale + s.impulse_scale - 1.0).abs() < 1e-6);
        let rigid = Softness::new(0.0, 10.0, 1.0 / 240.0);
        assert_eq!(
            (rigid.mass_scale, rigid.impulse_scale, rigid.bias_rate),
            (1.0, 0.0, 0.0)
        );
    }

    #[test]
    fn mixing_rules() {
        let (f, e) = mix_friction_restitution(0.25, 1.0, 0.2, 0.7);
        assert!((f - 0.5).abs() < 1e-7);
        assert_eq!(e, 0.7);
    }
}
