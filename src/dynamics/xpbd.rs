//! Projection done right: position-based contact resolution after Müller, Macklin,
//! Chentanez, Jeschke and Kim, "Detailed Rigid Body Simulation with Extended Position
//! Based Dynamics" (SCA 2020), Algorithm 2 with its contact handling (§3.5, §3.6).
//!
//! Projection means moving bodies apart instead of changing their velocities. Done
//! naively (`projection.rs`: move A out by the whole MTV, once per pair, then patch the
//! velocity) it cannot stack: each pair is resolved alone, ignoring the rotation and the
//! other pairs, so every correction disturbs the neighbours and a pyramid melts. XPBD
//! keeps the idea and fixes each flaw:
//!
//! - **Generalised inverse masses.** A correction Δλ along n at anchor r moves each body
//!   by Δλ·n/m and turns it by Δλ·(r × n)/I; the share of each body is
//!   `w = 1/m + (r × n)²/I`, so a box resting on one corner turns as it should.
//! - **Substeps, not iterations.** Positions are predicted from velocities
//!   (x += v·h) and projected once per substep; many small substeps converge a stack far
//!   better than many iterations of one big step (§3.4). Velocities are then *derived*
//!   from the positions, v = Δx/h, so what the projection did shows up as motion.
//! - **A velocity pass** (§3.6) takes back what the projection must not leave behind:
//!   the push-out speed of a contact (its normal velocity is set to zero, or to −e times
//!   the approach speed for a bounce), and dynamic friction, limited by μ times the
//!   normal impulse λn/h (the paper's h·μ·f_n with f_n = λn/h²). Where a pair is
//!   stacked and at rest, the lower body counts as four times as heavy in that normal
//!   impulse, so that one pass settles a tall stack instead of ringing it
//!   (`LOWER_SCALE`, after shock propagation and mass scaling for stacking).
//! - **Static friction as a position constraint** (§3.5): the drift along the surface
//!   of two material points, fixed when the contact began to stick, is undone while the
//!   needed correction stays within μ·λn — a box on a 20° slope stays exactly where it
//!   is — and is clamped to that cone beyond it, the velocity pass's dynamic friction
//!   getting what is left.
//! - **Contacts kept while within the margin.** Contacts come from the once-per-step
//!   detection with its speculative margin (`contacts.rs`); a pair resolved to just
//!   touching keeps its points, so it does not flicker on and off between steps.
//!
//! Per step:
//!
//! ```text
//! for each substep:
//!     x_prev = x;  v += g·h;  x += v·h                 (deltas, body_state.rs)
//!     vn_before = normal velocity of every point
//!     × position_iterations:
//!         for each point:
//!             C = s + slop + tolerated   s: current separation; only C < 0 is corrected
//!                 tolerated: old overlap not yet shed (at most max_push·h per substep)
//!             Δλ = −C / (w_a + w_b)
//!             move A by −Δλ·n, B by +Δλ·n (each by its w share, with rotation)
//!             in the last pass, right after the point's own projection (static
//!             friction, its λn settled):
//!                 drift d_t along the surface of the point's two stick points;
//!                 λt ← clamp(λt − d_t/w_t, ±μ·λn); move them back by what λt grew
//!     v = (x − x_prev)/h
//!     one velocity pass, for each point that was corrected or touches:
//!         vn → (vn_before < −threshold ? −e·vn_before : 0)
//!             (a stacked pair at rest: the lower body's 1/m and 1/I times LOWER_SCALE)
//!         dynamic friction: impulse −vt/w_t, clamped to ±(μ·(λn/h + pn) − |λt|/h)
//! ```
//!
//! Compliance is zero (rigid contacts); the slop keeps resting pairs a few millimetres
//! inside each other, as the impulse solver does, so the narrow phase keeps reporting
//! them; and overlap a pair started the step with is shed at most at `max_push_speed`
//! (deep overlap before the substeps, with no velocity: `crowd.rs`), so bodies created
//! inside each other separate over a few steps instead of flying apart.
//!
//! The rest of these docs (`xpbd/rocking_and_cost.md`): how the 100-row pyramid that
//! rocked was settled, what was measured and tried on it before, and where a step's
//! instructions go.
#![doc = include_str!("xpbd/rocking_and_cost.md")]

use super::body_state::{BodyState, BodyStates};
use super::constraint::{
    inverse_effective_mass, relative_velocity, tangent_of, Constraint, ConstraintPoint, Constraints,
};
use super::observe::{PassKind, SolverWatch};
use super::settings::WorldSettings;
use super::xpbd_wide::WideXpbd;
use crate::math::{cross, Vec2};
use stacking::scaled;
pub(super) use stacking::{LOWER_SCALE, STACKED_COS};

mod stacking;

/// Per-slot positions at the start of the substep, and the passes' bundles of eight
/// constraints (scratch, reused).
#[derive(Clone, Debug, Default)]
pub(crate) struct XpbdScratch {
    previous: Vec<(Vec2, f32)>,
    wide: WideXpbd,
}

/// Moves A by −Δλ·n and B by +Δλ·n at anchors `r_a`, `r_b` (a positional impulse, in
/// kg·m), each by its share of the generalised inverse mass.
#[inline]
fn apply_correction(a: &mut BodyState, b: &mut BodyState, r_a: Vec2, r_b: Vec2, correction: Vec2) {
    a.dp -= a.inv_mass * correction;
    a.turn_by_correction(-a.inv_inertia * cross(r_a, correction));
    b.dp += b.inv_mass * correction;
    b.turn_by_correction(b.inv_inertia * cross(r_b, correction));
}

/// Solves one step of contacts by position-based dynamics over `substeps` substeps of
/// `h` (see the module docs).
///
/// The passes run eight constraints at once (`xpbd_wide.rs`), colour by colour; the
/// answer is the same, bit for bit, as one constraint after another in colour order
/// (`solve_positions`, `solve_static_friction`, `solve_velocities`): the
/// constraints of a colour share no body that moves.
pub(crate) fn solve_step(
    states: &mut BodyStates,
    constraints: &mut Constraints,
    settings: &WorldSettings,
    substeps: u32,
    h: f32,
    scratch: &mut XpbdScratch,
    watch: &mut dyn SolverWatch,
) {
    let slop = settings.slop;
    let iterations = settings.projection_iterations.max(1);
    let inv_h = 1.0 / h;
    let velocity_pass = VelocityPass {
        restitution_threshold: settings.restitution_threshold,
        inv_h,
        up: -settings.gravity.normalize_or_zero(),
        lower_scale: LOWER_SCALE,
    };
    let XpbdScratch { previous, wide } = scratch;
    // The pull-back's cone is the last step's λn alone (`pull_back_old_drift`): the
    // tangential impulses start from zero before the bundles copy them.
    for p in constraints.points.iter_mut() {
        p.tangent_impulse = 0.0;
    }
    wide.build(constraints, states);
    // An observer sees the constraints between passes: bring them up to date first.
    let watching = watch.watching();
    let sync = |constraints: &mut Constraints, wide: &WideXpbd| {
        if watching {
            wide.write_back(constraints);
        }
    };
    wide.static_friction(states, constraints, slop);
    sync(constraints, wide);
    watch.pass_done(PassKind::PullBack, 0, 0, states, constraints);
    let max_push = settings.max_push_speed * h;
    let gravity_dv = settings.gravity * h;
    for substep in 0..substeps {
        watch.substep_begun(substep);
        // How much old overlap a pair may have shed by the end of this substep.
        let shed_so_far = max_push * (substep + 1) as f32;
        predict(states, previous, gravity_dv, h);
        watch.pass_done(PassKind::Integrate, substep, 0, states, constraints);

        // Project positions. The first pass also starts each point's substep (see
        // `SubstepStart`): a pass of its own for that was a sixth of the passes. The
        // last pass holds each constraint's points by static friction right after
        // projecting them (`PositionPass::hold`).
        for pass in 0..iterations {
            let position_pass = PositionPass {
                slop,
                shed_so_far,
                start: (pass == 0).then_some(SubstepStart { gravity_dv }),
                hold: pass + 1 == iterations,
            };
            wide.positions(states, constraints, &position_pass);
            sync(constraints, wide);
            watch.pass_done(PassKind::PositionPass, substep, pass, states, constraints);
        }

        // Velocities from positions (dynamic bodies; kinematic ones keep theirs).
        for (s, &(dp, dtheta)) in states.states.iter_mut().zip(previous.iter()) {
            if s.moves_by_forces {
                s.v = (s.dp - dp) * inv_h;
                s.w = (s.dtheta - dtheta) * inv_h;
            }
        }
        watch.pass_done(PassKind::DeriveVelocities, substep, 0, states, constraints);

        // One velocity pass, with dynamic friction (see `settle_constraint`).
        wide.velocities(states, constraints, &velocity_pass);
        sync(constraints, wide);
        watch.pass_done(PassKind::VelocityPass, substep, 0, states, constraints);
    }
    wide.write_back(constraints);
}

/// The substep's prediction, in one sweep over the bodies: each slot's position at the
/// start of the substep is kept in `previous` (for the velocities derived at its end),
/// then v += g·h on awake dynamic bodies and x += v·h on moving ones.
///
/// The same arithmetic as `BodyStates::integrate_velocities` then
/// `BodyStates::integrate_positions` (each body's update depends on that body alone, so
/// one sweep gives what two give), without reading the 5050-box pyramid's states three
/// times a substep.
fn predict(states: &mut BodyStates, previous: &mut Vec<(Vec2, f32)>, gravity_dv: Vec2, h: f32) {
    previous.clear();
    previous.reserve(states.states.len());
    for s in states.states.iter_mut() {
        previous.push((s.dp, s.dtheta));
        if s.moves_by_forces {
            s.v += gravity_dv;
        }
        if s.moves {
            s.dp += s.v * h;
            s.turn(s.w * h);
        }
    }
}

/// One pass of position projection over every contact point, along its normal.
///
/// A point is projected to its slop, plus the overlap it started the step with and may
/// not have shed yet: overlap the bodies make during the step (a box landing, a fast
/// ball meeting a wall) is undone at once, old overlap is pushed out at no more than
/// `max_push_speed` (`shed_so_far`, m, is that speed times the time since the step
/// began), and deep old overlap is tolerated for the whole step (`crowd.rs` sheds it).
///
/// Capping each correction instead, as this solver did, mixed the two: a ball at
/// 130 m/s stopped against a wall by continuous detection went into it by 0.5 m in one
/// substep, got 2.5 cm of it back, and came out through the far side; and in a crowd the
/// capped corrections added up along chains of overlapping bodies and flung them 150 m.
/// Not capping old overlap at all kicked apart a non-convex pair whose reported depth
/// jumps between steps (a tooth found, then another), and the default scene never fell
/// asleep.
///
/// One constraint after another: the reference `xpbd_wide.rs` is tested against.
#[cfg(test)]
pub(super) fn solve_positions(states: &mut BodyStates, constraints: &mut Constraints, pass: &PositionPass) {
    for (c, points) in constraints.iter_mut() {
        project_constraint(&mut states.states, c, points, pass);
    }
}

/// `solve_positions` for one constraint (the wide passes' constraints of more than
/// two points, and those of the colour whose constraints may share bodies).
#[inline]
pub(super) fn project_constraint(
    states: &mut [BodyState],
    c: &Constraint,
    points: &mut [ConstraintPoint],
    pass: &PositionPass,
) {
    let PositionPass {
        slop,
        shed_so_far,
        start,
        hold,
    } = *pass;
    let (ia, ib) = (c.a as usize, c.b as usize);
    let (mut a, mut b) = (states[ia], states[ib]);
    if let Some(start) = start {
        start.begin(&a, &b, points);
    }
    for p in points.iter_mut() {
        let tolerated = if p.deep {
            p.start_overlap
        } else {
            (p.start_overlap - shed_so_far).max(0.0)
        };
        let violation = p.current_separation(&a, &b) + slop + tolerated;
        if violation >= 0.0 {
            continue;
        }
        let (r_a, r_b) = (a.dq.apply(p.anchor_a), b.dq.apply(p.anchor_b));
        let w = inverse_effective_mass(&a, &b, r_a, r_b, p.normal);
        if w.is_nan() || w <= 0.0 {
            continue;
        }
        let delta = -violation / w;
        if !delta.is_finite() {
            continue; // never spread a non-finite value to the other body
        }
        p.normal_impulse += delta;
        apply_correction(&mut a, &mut b, r_a, r_b, delta * p.normal);
    }
    states[ia] = a;
    states[ib] = b;
    if hold {
        hold_constraint(states, c, points, slop);
    }
}

/// Static friction's memory, once per step before the first substep: the drift that
/// earlier steps left between each point's stick points (what their passes could not
/// undo) is pulled back, within μ times the last step's λn. What the cone does not
/// allow stays to be pulled back by the substeps; a point whose pull-back was clamped
/// with a drift beyond `slip_drift` has slipped and sticks again where it is next step
/// (see `solve_static_friction`).
///
/// Done here, the pull-back moves the bodies without giving them velocity: the
/// substeps derive velocity from the motion since their own start. Pulled back inside
/// the substeps instead, an old drift of a few millimetres became a velocity back
/// towards the stick point, the body overshot, drifted again, and a hexagon resting on
/// a comb rocked for ever at 7 cm/s (a spring with no damper).
///
/// Two mistakes here kept the 20-row pyramid swaying for ever (top box over 6 cm,
/// half the boxes faster than 5 cm/s): what the pull-back could not undo was
/// forgotten (the stick points were moved to where the bodies were, so each step the
/// pyramid settled from a new rest position), and a clamped point was never marked as
/// slipped, so it kept pulling towards a stick point up to `KEEP_DRIFT` away.
///
/// `solve_step` does the same with the wide passes (the zeroing before it bundles the
/// constraints).
#[cfg(test)]
pub(super) fn pull_back_old_drift(states: &mut BodyStates, constraints: &mut Constraints, slip_drift: f32) {
    for p in constraints.points.iter_mut() {
        p.tangent_impulse = 0.0; // the cone is the last step's λn alone
    }
    solve_static_friction(states, constraints, slip_drift);
}

/// Static friction (§3.5): undo each pushed point's drift along the surface, the
/// correction's total in the substep clamped to the cone μ·λn.
///
/// Three choices differ from the paper, found on a slope, a 3-box tower and the 20-row
/// pyramid:
/// - the drift is measured between two material points fixed when the contact began to
///   stick (`contacts.rs`, carried over from step to step by feature id), not since
///   the start of the substep: whatever one substep or step leaves uncorrected is
///   pulled back later instead of being forgotten — at the start of the next step,
///   without giving velocity (`pull_back_old_drift`). Measured since the substep,
///   then since the step, the pyramid's top box crept 3.6 cm in nine seconds; measured
///   from the stick points, it moves 6 mm, all in the first second;
/// - beyond the cone the correction is clamped, not dropped (the paper applies it only
///   while inside): dropped all-or-nothing, a corner whose share of λn fell just short
///   lost all its friction, and a μ = 0.5 box crept 8 mm down a 20° slope; clamped, it
///   holds, and the dynamic friction of the velocity pass gets only the rest of the
///   cone (μ·λn/h − |λt|/h), so friction is never counted twice;
/// - a clamped point is marked as slipped (its stick points are taken again where it
///   is, next step) only once its drift exceeds `slip_drift` (the slop, 5 mm): a clamp
///   alone does not mean the contact slides. A resting point's λn in one substep is
///   its share of the load times h² (m·g·h², 0.17 mm·kg at 240 Hz), and it is zero at
///   a point that overlaps by less than the slop (a tenth to a quarter of the overlapping
///   points of the resting 40-row pyramid), so a drift of a fraction of a millimetre
///   already reaches the cone: a quarter to a third of the corrections on that pyramid
///   were clamped, half of them by more than twice. Marked as slipped at every clamp,
///   those points forgot their drift every step, the pyramid settled each step from a
///   new rest position, and its flanks slid off the ground (40 rows: 1.7 m beyond the
///   bottom row by 15 s; 100 rows: boxes off both ends). Remembered, the drift is pulled
///   back over the following steps within the cone, and the 40-row pyramid stands (its
///   top box 3 cm off in 15 s, 80% of its pairs reused). A box that really slides
///   passes 5 mm of drift within a few steps (a μ = 0.5 box on a 35° slope, in its
///   first tenth of a second) and sticks afresh as before; one that stops after
///   sliding is pulled back by at most that much. Tried and not kept: a 1 mm limit
///   (the 40-row pyramid's flank still slid), never marking a clamp as slipped
///   (anchors then live until `KEEP_DRIFT`, 2 cm: the default scene's non-convex
///   bodies did not come to rest), and a cone shared by the points of a pair
///   (μ·Σλn, PhysX's patch friction; a lightly loaded corner then took the pair's
///   whole budget, turned its box, and both pyramids collapsed);
/// - it runs once a substep, in the last position pass, on each constraint right after
///   that constraint's own projection (`PositionPass::hold`): its points' λn
///   have settled by then, as they have for a pass of its own after the normal passes,
///   but the bodies are gathered once for both, and the later constraints of the pass
///   project against positions friction has already corrected. Measured at 20 s
///   (sleeping off), boxes faster than 5 cm/s: 60 rows 619 → 41, 100 rows 3708 → 2689
///   against a pass of its own (with the single velocity pass of `settle_constraint`:
///   101 and 2970). Not kept: static friction in every position pass (60 rows: 1739
///   boxes fast; with λn still growing, the first pass's cone is too small and its
///   slips are marked early), and each point's friction straight after its own
///   normal correction (before 2026-11: the tangential correction at one corner
///   turned the box and pushed the other corner in, whose normal correction then
///   turned it back — a rocking that grew).
///
/// The 100-row pyramid, which did not come to rest, rocked rather than slipped (module
/// docs, "Settled", in `xpbd/rocking_and_cost.md`: the velocity pass settled it); tried
/// on it here and not kept: pulling back at every substep's start as well (no better),
/// a slip limit of twice the slop (no better), the velocity pass's full cone at held
/// points, and a cone from the last substep's velocity-pass normal impulse at touching
/// points (both let the 100-row pyramid collapse).
///
/// One constraint after another: the reference `xpbd_wide.rs` is tested against.
#[cfg(test)]
pub(super) fn solve_static_friction(states: &mut BodyStates, constraints: &mut Constraints, slip_drift: f32) {
    for (c, points) in constraints.iter_mut() {
        hold_constraint(&mut states.states, c, points, slip_drift);
    }
}

/// `solve_static_friction` for one constraint.
#[inline]
pub(super) fn hold_constraint(
    states: &mut [BodyState],
    c: &Constraint,
    points: &mut [ConstraintPoint],
    slip_drift: f32,
) {
    let (ia, ib) = (c.a as usize, c.b as usize);
    let (mut a, mut b) = (states[ia], states[ib]);
    let friction = c.friction;
    for p in points.iter_mut() {
        if p.normal_impulse <= 0.0 {
            continue;
        }
        let (r_a, r_b) = (a.dq.apply(p.anchor_a), b.dq.apply(p.anchor_b));
        let drift = p.stick_drift(&a, &b);
        let tangent = tangent_of(p.normal);
        let along = drift.dot(tangent);
        let w_t = inverse_effective_mass(&a, &b, r_a, r_b, tangent);
        if along == 0.0 || w_t.is_nan() || w_t <= 0.0 {
            continue;
        }
        let cone = friction * p.normal_impulse;
        if cone.is_nan() {
            continue; // friction ∞ on a vanishing impulse
        }
        let wanted = p.tangent_impulse - along / w_t;
        let total = wanted.clamp(-cone, cone);
        if total != wanted && along.abs() > slip_drift {
            p.slipped = true; // it sticks again where it is next step
        }
        if total.is_finite() {
            let delta_t = total - p.tangent_impulse;
            p.tangent_impulse = total;
            apply_correction(&mut a, &mut b, r_a, r_b, delta_t * tangent);
        }
    }
    states[ia] = a;
    states[ib] = b;
}

/// The velocity pass over the points the projection moved or that touch: restitution
/// (or zero normal speed) and dynamic friction, once per substep.
///
/// One pass, not as many as the position passes (two, until 2026-11-27: the first
/// without friction, so that a pushed point's equality could not raise the friction
/// limit). With static friction held in the last position pass
/// (`solve_static_friction`), measured at 20 s with sleeping off, boxes faster than
/// 5 cm/s on 60 and 100 rows, and whether the shipped scenes come to rest:
///
/// | velocity passes | 60 rows | 100 rows | rest |
/// |---|---:|---:|---|
/// | two (and static friction in a pass of its own, as before) | 619 | 3708 | yes |
/// | two | 41 | 2689 | a star on two tips of the non-convex test scene keeps 6 cm/s |
/// | one, each point's friction after its normal | 101 | 2970 | the default scene rocks at 0.05 rad/s |
/// | one, every normal then every friction (kept) | 218 | 3029 | yes |
///
/// The second pass was a fifth of a step's instructions on the 5050-box pyramid.
///
/// One constraint after another: the reference `xpbd_wide.rs` is tested against.
#[cfg(test)]
pub(super) fn solve_velocities(states: &mut BodyStates, constraints: &mut Constraints, settings: &VelocityPass) {
    for (c, points) in constraints.iter_mut() {
        settle_constraint(&mut states.states, c, points, settings);
    }
}

/// `solve_velocities` for one constraint.
#[inline]
pub(super) fn settle_constraint(
    states: &mut [BodyState],
    c: &Constraint,
    points: &mut [ConstraintPoint],
    settings: &VelocityPass,
) {
    let (ia, ib) = (c.a as usize, c.b as usize);
    let (mut a, mut b) = (states[ia], states[ib]);
    let (friction, restitution) = (c.friction, c.restitution);
    // A point the projection pushed this substep is an equality: its normal speed
    // becomes the target. A point merely touching (overlapping, but within the slop, so
    // not pushed) only may not approach: without it, a box whose one corner was pushed
    // rolls on the other for ever. Touching counts from the first overlap, not only
    // near the slop's depth: with the band 0.1 mm wide, a box could rock through the
    // rest of the slop freely, and the 20-row pyramid swayed for three seconds (top box
    // over 1.1 cm after the first second; 0.9 cm now). The pass changes velocities only,
    // so whether a point acts is the same in both loops.
    let acts =
        |p: &ConstraintPoint, a: &BodyState, b: &BodyState| p.normal_impulse > 0.0 || p.current_separation(a, b) <= 0.0;
    // The normal part on every point first, then friction on every point: friction's
    // cone then holds the whole constraint's normal impulse (with each point's
    // friction straight after its own normal, the default scene kept rocking at
    // 0.05 rad/s and never fell asleep).
    for p in points.iter_mut() {
        if !acts(p, &a, &b) {
            continue;
        }
        let pushed = p.normal_impulse > 0.0;
        let (r_a, r_b) = (a.dq.apply(p.anchor_a), b.dq.apply(p.anchor_b));
        let n = p.normal;
        let vn = relative_velocity(&a, &b, r_a, r_b).dot(n);
        let target = if pushed && p.relative_velocity < -settings.restitution_threshold {
            -restitution * p.relative_velocity
        } else {
            0.0
        };
        // The lower body of a stacked pair at rest weighs more here (`LOWER_SCALE`).
        let (k_a, k_b) = if target == 0.0 && p.relative_velocity.abs() <= settings.restitution_threshold {
            settings.normal_scales(n)
        } else {
            (1.0, 1.0)
        };
        let (mut a_n, mut b_n) = (scaled(&a, k_a), scaled(&b, k_b));
        let w_n = inverse_effective_mass(&a_n, &b_n, r_a, r_b, n);
        if w_n > 0.0 {
            // A pushed point is an equality (its normal speed becomes the target,
            // whichever way); a touching one may only be pushed apart. Both on the
            // running total of the substep, as an impulse solver clamps.
            let before = p.velocity_normal_impulse;
            let wanted = before + (target - vn) / w_n;
            let total = if pushed { wanted } else { wanted.max(0.0) };
            if total.is_finite() {
                p.velocity_normal_impulse = total;
                super::constraint::apply_impulse(&mut a_n, &mut b_n, r_a, r_b, (total - before) * n);
                (a.v, a.w, b.v, b.w) = (a_n.v, a_n.w, b_n.v, b_n.w);
            }
        }
    }
    for p in points.iter_mut() {
        if !acts(p, &a, &b) {
            continue;
        }
        let (r_a, r_b) = (a.dq.apply(p.anchor_a), b.dq.apply(p.anchor_b));
        // Dynamic friction, limited by μ times the normal impulse of the substep
        // (the projection's λn/h — λn is a positional impulse, kg·m — and the
        // velocity pass's), less what static friction already spent of that cone
        // as a position correction (|λt|/h): the box then slides down a 35° slope
        // within 0.3% of the textbook, and friction is never counted twice.
        let tangent = tangent_of(p.normal);
        let vt = relative_velocity(&a, &b, r_a, r_b).dot(tangent);
        let w_t = inverse_effective_mass(&a, &b, r_a, r_b, tangent);
        let cone = friction * (p.normal_impulse * settings.inv_h + p.velocity_normal_impulse.max(0.0));
        // max(NaN, 0) is 0: friction ∞ on a vanishing impulse adds nothing, and clamp
        // never sees a NaN bound (it would panic).
        let limit = (cone - p.tangent_impulse.abs() * settings.inv_h).max(0.0);
        if vt != 0.0 && w_t > 0.0 {
            let impulse = (-vt / w_t).clamp(-limit, limit);
            if impulse.is_finite() {
                super::constraint::apply_impulse(&mut a, &mut b, r_a, r_b, impulse * tangent);
            }
        }
    }
    states[ia] = a;
    states[ib] = b;
}

/// The start of a substep for a constraint's points, done in the substep's first
/// position pass: the impulses of the substep start from zero, and the relative normal
/// velocity before the substep (what restitution reflects) is recorded. Position passes
/// do not change velocities, so the bodies' velocities are still those of the start of
/// the substep plus gravity's `gravity_dv` (m/s), which is taken off again.
#[derive(Clone, Copy, Debug)]
pub(super) struct SubstepStart {
    pub gravity_dv: Vec2,
}

impl SubstepStart {
    #[inline]
    fn begin(&self, a: &BodyState, b: &BodyState, points: &mut [ConstraintPoint]) {
        let before = |s: &BodyState| BodyState {
            v: if s.moves_by_forces { s.v - self.gravity_dv } else { s.v },
            ..*s
        };
        let (a, b) = (before(a), before(b));
        for p in points.iter_mut() {
            let (r_a, r_b) = (a.dq.apply(p.anchor_a), b.dq.apply(p.anchor_b));
            p.relative_velocity = relative_velocity(&a, &b, r_a, r_b).dot(p.normal);
            p.normal_impulse = 0.0;
            p.tangent_impulse = 0.0;
            p.velocity_normal_impulse = 0.0;
        }
    }
}

/// One position pass of a substep (`solve_positions`).
#[derive(Clone, Copy, Debug)]
pub(super) struct PositionPass {
    /// The slop (m): overlap a point keeps, and static friction's slip limit.
    pub slop: f32,
    /// How much old overlap a pair may have shed by the end of this substep (m).
    pub shed_so_far: f32,
    /// The substep's first pass also starts its points (`SubstepStart`).
    pub start: Option<SubstepStart>,
    /// The substep's last pass holds each constraint's points by static friction right
    /// after projecting them (`solve_static_friction`).
    pub hold: bool,
}

/// What the velocity pass needs from the settings.
pub(super) struct VelocityPass {
    pub restitution_threshold: f32,
    pub inv_h: f32,
    /// Against gravity, unit (zero without gravity): which body of a pair is the lower.
    pub up: Vec2,
    /// The factor on the lower body's inverse mass and inertia in a resting point's
    /// normal impulse ([`VelocityPass::normal_scales`]; 1 leaves the pass as the paper
    /// has it).
    pub lower_scale: f32,
}
