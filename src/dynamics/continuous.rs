//! Pseudo-continuous detection (Ren and Xie 2011): fast bodies must not pass through thin ones.
//!
//! The discrete pipeline only looks at the pose a body has at the end of each substep.
//! A body that moves further than its own thickness (plus the obstacle's) in one
//! substep can be on one side of a wall before and on the other after, never
//! overlapping it at a pose the narrow phase sees: it *tunnels*. Ren and Xie's Robot
//! Fish platform fixes this by inserting intermediate poses between steps and rolling
//! back to the moment of contact. This file does that after every step (after every
//! substep under the literal projection, which detects every substep), for each
//! dynamic body that moved "fast":
//!
//! ```text
//! motion bound  s = |Δc| + |Δθ|·reach         (no core point moved further than s)
//! fast          s > fraction × min_extent × substeps swept
//!               (settings; a circle's extent is its radius; per substep, as before the
//!               detection moved to once per step)
//! swept box     box of the circle of radius outer_reach around c0 and around c1
//! targets       other bodies (static, kinematic, sleeping, slow dynamic — at their
//!               end-of-substep poses) whose box meets the swept box and that do not
//!               already overlap the body at its start pose (those are the solver's)
//! time of impact τ ∈ [0, 1], by one of the two modes below
//! if τ < 1:     put the body at its pose at τ; keep its velocity
//! ```
//!
//! The body keeps its velocity, and the part of the substep after τ is lost (Box2D's
//! TOI does the same): the next substep's narrow phase finds the contact and the solver
//! stops or bounces the body properly. Other fast bodies are not targets (two bullets
//! may still pass through each other), and targets are frozen at their end poses, which
//! is exact for static bodies and off by less than the fast threshold for slow ones.
//!
//! # Interpolation (Ren and Xie 2011)
//!
//! Intermediate poses spaced so that no point of the body moves more than
//! `fraction × min_extent` between two of them (n = ⌈s / (fraction·min_extent)⌉,
//! capped by `continuous_max_poses`); position and angle interpolate linearly, exactly
//! as the integrator moved them. At the first pose that overlaps a target, bisection
//! between it and the previous pose narrows the time of first contact until the
//! bracket is shorter than `slop` in distance; the body goes to the overlapping end of
//! the bracket, so it penetrates by at most `slop` and the narrow phase, which reports
//! only overlap, is sure to see the contact next substep.
//!
//! Why it avoids tunnelling: two consecutive poses overlap each other by at least
//! (1 − fraction/2) of the body's thickness along the motion, so a wall crossing the path
//! meets at least one of them. Where it still fails: past the pose cap (very fast or very
//! thin bodies) the spacing grows and thin walls slip between poses again; a glancing
//! hit on the last few per cent of a round body's width can fall between two poses; the
//! narrow phase's own errors (NonConvexSat's false hits) become false stops.
//!
//! # Conservative advancement (Mirtich 1996)
//!
//! B. Mirtich, "Impulse-based dynamic simulation of rigid body systems", PhD thesis,
//! UC Berkeley, 1996, ch. 2 (also Ericson, *Real-Time Collision Detection*, 9.5.4).
//! For every pair of convex pieces (body, target): GJK gives the distance d and the unit
//! normal n from the body's closest point to the target's. The plane through the
//! target's closest point, normal to n, separates the two pieces, so the body must cross
//! it before they touch; none of its core points approaches it faster than
//! μ = max(0, Δc·n) + |Δθ|·reach per unit τ. Advancing by d/μ is therefore safe:
//!
//! ```text
//! τ = 0
//! loop:
//!     for each piece pair: d, n = GJK(pose(τ)); Δτ_pair = d / μ(n)   (∞ when μ = 0)
//!     if min d ≤ tolerance: time of impact τ
//!     τ += min Δτ_pair;  if τ ≥ 1 (or ≥ the best τ so far): no impact
//! ```
//!
//! At the impact the gap is below `slop / 4`; the body is then nudged along n by the gap
//! plus `slop / 2` so it overlaps by half the slop, for the same reason as above.
//!
//! Why it avoids tunnelling: every step is a lower bound on the time left before
//! contact, so it can never step over the contact, however thin the pieces, and the
//! rotation is in the bound. Where it can still fail or be slow: it only knows linear
//! motion in τ (as the integrator makes it) against frozen targets; when the body spins
//! fast and its gap is small, μ is dominated by |Δθ|·reach and the steps become tiny, so
//! the iteration cap ([`MAX_ADVANCEMENT_ITERATIONS`]) can end the search early — it then
//! stops the body early (conservatively), losing time instead of tunnelling; the nudge
//! along n is exact for translation only.

use super::body::{Body, BodySet};
use super::settings::{ContinuousMode, WorldSettings};
use crate::bounds::Aabb;
use crate::math::{is_finite, Pose, Rot, Vec2};
use crate::narrow::{collide, gjk, GjkInput, Work};

/// Advancement stops after this many distance queries per target; the τ reached so far
/// is then used (it is always at or before the true time of impact).
pub const MAX_ADVANCEMENT_ITERATIONS: u32 = 32;

/// Bisection stops after this many halvings even if the bracket is still longer than the
/// tolerance (2⁻²⁴ of a substep: at f32 precision τ stops changing anyway).
const MAX_BISECTIONS: u32 = 24;

/// Watches [`ContinuousScratch::sweep_recorded`] work, for lesson 16: every method has
/// an empty default, and the simulation's path ([`ContinuousScratch::sweep`]) passes
/// [`NoContinuousRecord`], whose calls compile to nothing. Poses are of the swept body's
/// origin (world frame); τ is the share of the substep, in [0, 1].
pub(crate) trait ContinuousRecorder {
    /// A fast body is swept: its slot, its poses at τ = 0 and τ = 1, and its motion bound
    /// s (m, no core point moves further over the substep).
    fn sweep_body(&mut self, _slot: usize, _start: &Pose, _end: &Pose, _bound_m: f32) {}
    /// Interpolation tested the intermediate pose at `tau`; `hit`: it overlaps a target.
    fn pose_sampled(&mut self, _tau: f32, _pose: &Pose, _hit: bool) {}
    /// Bisection's bracket after one halving: the pose at `t0` overlaps nothing, the pose
    /// at `t1` overlaps; `mid` was tested and `hit` says what it found.
    fn bracket(&mut self, _t0: f32, _t1: f32, _mid: f32, _hit: bool) {}
    /// Conservative advancement against target slot `target`, at `tau`: the smallest gap
    /// over the piece pairs (m), its unit normal (body towards target, world frame), the
    /// closest points on the body and the target, and the safe advance Δτ = d / μ
    /// (infinite when nothing approaches).
    fn advanced(&mut self, _target: usize, _tau: f32, _gap_m: f32, _normal: Vec2, _points: (Vec2, Vec2), _step: f32) {}
    /// The body was put back at its time of impact `tau` (after the nudge, if any).
    fn impact(&mut self, _slot: usize, _tau: f32, _nudge: Vec2) {}
}

/// The recorder that records nothing (the simulation's).
pub(crate) struct NoContinuousRecord;

impl ContinuousRecorder for NoContinuousRecord {}

/// Where a dynamic body's centre of mass was and how it was turned when the substep began.
#[derive(Clone, Copy, Debug)]
struct StartPose {
    center: Vec2,
    angle_rad: f32,
}

/// What the sweeps of one substep did (added to the step's profile).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct SweepCounts {
    /// Fast bodies swept.
    pub bodies: u32,
    /// Bodies moved back to a time of impact.
    pub rollbacks: u32,
    /// Narrow-phase or distance queries made.
    pub queries: u32,
}

/// Scratch of the sweeps: start poses per slot and reused lists. Never saved.
#[derive(Clone, Debug, Default)]
pub(crate) struct ContinuousScratch {
    start: Vec<Option<StartPose>>,
    fast: Vec<usize>,
    is_fast: Vec<bool>,
    targets: Vec<usize>,
    /// Per slot, the box of each body that is not fast (a possible target), taken once
    /// per sweep: only fast bodies move during it, so these boxes hold for every fast
    /// body's search. Computed again for each fast body, they were 37% of the shipped
    /// rain's step (1000 boxes times each fast body).
    target_boxes: Vec<Option<Aabb>>,
}

/// One body's motion over the substep, as a function of τ ∈ [0, 1].
#[derive(Clone, Copy, Debug)]
struct Motion {
    start: StartPose,
    delta_center: Vec2,
    delta_angle: f32,
    local_center: Vec2,
    /// Bound on how far any core point moves over the whole substep (m).
    bound: f32,
}

impl Motion {
    /// The pose of the body's origin at τ (linear in centre and angle, like the
    /// integrator).
    fn pose_at(&self, tau: f32) -> (Vec2, f32, Pose) {
        let center = self.start.center + self.delta_center * tau;
        let angle = self.start.angle_rad + self.delta_angle * tau;
        let rot = Rot::from_angle(angle);
        let pose = Pose {
            translation: center - rot.apply(self.local_center),
            rotation: rot,
        };
        (center, angle, pose)
    }
}

impl ContinuousScratch {
    /// Remembers where every awake dynamic body starts the substep.
    pub(crate) fn record_start(&mut self, bodies: &BodySet) {
        self.start.clear();
        self.start.resize(bodies.slot_count(), None);
        for (slot, start) in self.start.iter_mut().enumerate() {
            if let Some(b) = bodies.slot(slot) {
                if b.is_dynamic() && !b.is_sleeping() {
                    *start = Some(StartPose {
                        center: b.center_of_mass(),
                        angle_rad: b.angle(),
                    });
                }
            }
        }
    }

    /// Sweeps every fast body from its recorded start to its current pose and rolls it
    /// back to its time of impact (see the module docs). Call after integration.
    ///
    /// `substeps` is how many substeps the motion since `record_start` spans: a body is
    /// fast when it moves more than the fraction of its extent *per substep*.
    pub(crate) fn sweep(&mut self, bodies: &mut BodySet, settings: &WorldSettings, substeps: u32) -> SweepCounts {
        self.sweep_recorded(bodies, settings, substeps, &mut NoContinuousRecord)
    }

    /// [`ContinuousScratch::sweep`], telling `recorder` every pose tested, every bracket,
    /// every advancement and every impact (lesson 16 replays them).
    pub(crate) fn sweep_recorded<R: ContinuousRecorder>(
        &mut self,
        bodies: &mut BodySet,
        settings: &WorldSettings,
        substeps: u32,
        recorder: &mut R,
    ) -> SweepCounts {
        let mut counts = SweepCounts::default();
        if settings.continuous == ContinuousMode::Off {
            return counts;
        }
        let fraction = if settings.continuous_fraction.is_finite() && settings.continuous_fraction > 0.0 {
            settings.continuous_fraction
        } else {
            0.5
        };
        // First pass: which bodies are fast. Fast bodies are not targets of each other,
        // so the order the sweeps run in cannot change their results (determinism).
        self.fast.clear();
        self.is_fast.clear();
        self.is_fast.resize(bodies.slot_count(), false);
        for slot in 0..self.start.len().min(bodies.slot_count()) {
            let (Some(start), Some(body)) = (self.start[slot], bodies.slot(slot)) else {
                continue;
            };
            if let Some(m) = motion_of(body, start) {
                if m.bound > fraction * body.min_extent() * substeps.max(1) as f32 {
                    self.fast.push(slot);
                    self.is_fast[slot] = true;
                }
            }
        }
        self.target_boxes.clear();
        if !self.fast.is_empty() {
            let is_fast = &self.is_fast;
            self.target_boxes.extend((0..bodies.slot_count()).map(|slot| {
                let fast = is_fast.get(slot).copied().unwrap_or(false);
                bodies.slot(slot).filter(|_| !fast).map(Body::aabb)
            }));
        }
        for i in 0..self.fast.len() {
            let slot = self.fast[i];
            let Some(start) = self.start[slot] else { continue };
            let Some(body) = bodies.slot(slot) else { continue };
            let Some(motion) = motion_of(body, start) else { continue };
            counts.bodies += 1;
            self.collect_targets(bodies, slot, &motion, settings, &mut counts);
            if self.targets.is_empty() {
                continue;
            }
            let Some(body) = bodies.slot(slot) else { continue };
            recorder.sweep_body(slot, &motion.pose_at(0.0).2, &motion.pose_at(1.0).2, motion.bound);
            let hit = match settings.continuous {
                ContinuousMode::Off => None,
                ContinuousMode::Interpolation => toi_by_interpolation(
                    body,
                    &motion,
                    bodies,
                    &self.targets,
                    settings,
                    fraction,
                    &mut counts,
                    recorder,
                )
                .map(|tau| (tau, Vec2::ZERO)),
                ContinuousMode::ConservativeAdvancement => {
                    toi_by_advancement(body, &motion, bodies, &self.targets, settings, &mut counts, recorder)
                }
            };
            if let Some((tau, nudge)) = hit {
                let (center, angle, _) = motion.pose_at(tau);
                if let Some(body) = bodies.slot_mut(slot) {
                    body.place_center(center + nudge, angle);
                    counts.rollbacks += 1;
                    recorder.impact(slot, tau, nudge);
                }
            }
        }
        counts
    }

    /// Bodies whose boxes meet the swept box of `slot`'s motion, minus fast bodies and
    /// bodies it already overlaps at its start pose.
    ///
    /// A linear scan over the boxes taken once per sweep (`target_boxes`): fast bodies
    /// are few, and the broad phase's structures hold this substep's start boxes, not
    /// swept ones.
    fn collect_targets(
        &mut self,
        bodies: &BodySet,
        slot: usize,
        motion: &Motion,
        settings: &WorldSettings,
        counts: &mut SweepCounts,
    ) {
        self.targets.clear();
        let Some(body) = bodies.slot(slot) else { return };
        // Rotation-proof swept box: whatever the angle, the body lies within its outer
        // reach of its centre of mass, and the centre moves on the segment c0 → c1.
        let c0 = motion.start.center;
        let c1 = c0 + motion.delta_center;
        let reach = Vec2::splat(body.outer_reach());
        let swept = Aabb::new(c0.min(c1) - reach, c0.max(c1) + reach).inflated(settings.slop.max(0.0));
        let (_, _, start_pose) = motion.pose_at(0.0);
        for (other, aabb) in self.target_boxes.iter().enumerate() {
            // Fast bodies, the body itself among them, have no box here.
            let Some(aabb) = aabb else { continue };
            if !aabb.overlaps(&swept) {
                continue;
            }
            let Some(target) = bodies.slot(other) else { continue };
            counts.queries += 1;
            let already = collide(
                body.shape(),
                &start_pose,
                target.shape(),
                &target.pose(),
                settings.narrow_phase,
                &settings.narrow_config,
                None,
            );
            if !already.intersect {
                self.targets.push(other);
            }
        }
    }
}

/// The motion from `start` to the body's current pose, or `None` when it is not finite
/// (such a body is about to be removed, not swept).
fn motion_of(body: &Body, start: StartPose) -> Option<Motion> {
    let delta_center = body.center_of_mass() - start.center;
    let delta_angle = body.angle() - start.angle_rad;
    let bound = delta_center.length() + delta_angle.abs() * body.core_reach();
    (is_finite(delta_center) && bound.is_finite()).then_some(Motion {
        start,
        delta_center,
        delta_angle,
        local_center: body.local_center(),
        bound,
    })
}

/// Does the body at `pose` overlap any of `targets`?
fn hits_any(
    body: &Body,
    pose: &Pose,
    bodies: &BodySet,
    targets: &[usize],
    settings: &WorldSettings,
    counts: &mut SweepCounts,
) -> bool {
    targets.iter().any(|&t| {
        let Some(target) = bodies.slot(t) else { return false };
        counts.queries += 1;
        collide(
            body.shape(),
            pose,
            target.shape(),
            &target.pose(),
            settings.narrow_phase,
            &settings.narrow_config,
            None,
        )
        .intersect
    })
}

/// Ren and Xie's (2011) motion interpolation: the τ of the first overlapping intermediate pose,
/// refined by bisection (module docs). `None` when no pose overlaps.
// One argument past clippy's seven: the recorder, which the simulation's path passes as
// a zero-sized no-op; bundling the others into a struct for it would only hide them.
#[allow(clippy::too_many_arguments)]
fn toi_by_interpolation<R: ContinuousRecorder>(
    body: &Body,
    motion: &Motion,
    bodies: &BodySet,
    targets: &[usize],
    settings: &WorldSettings,
    fraction: f32,
    counts: &mut SweepCounts,
    recorder: &mut R,
) -> Option<f32> {
    let spacing = fraction * body.min_extent();
    let max_poses = settings.continuous_max_poses.max(1);
    // `as` saturates, so an absurd ratio becomes the cap rather than a wrap-around.
    let poses = ((motion.bound / spacing).ceil() as u32).clamp(1, max_poses);
    let tolerance = settings.slop.max(1e-4);
    let mut previous = 0.0f32;
    for k in 1..=poses {
        let tau = k as f32 / poses as f32;
        let pose = motion.pose_at(tau).2;
        let hit = hits_any(body, &pose, bodies, targets, settings, counts);
        recorder.pose_sampled(tau, &pose, hit);
        if !hit {
            previous = tau;
            continue;
        }
        // Invariant: the pose at `lo` overlaps nothing, the pose at `hi` overlaps.
        let (mut lo, mut hi) = (previous, tau);
        for _ in 0..MAX_BISECTIONS {
            if (hi - lo) * motion.bound <= tolerance {
                break;
            }
            let mid = 0.5 * (lo + hi);
            let hit = hits_any(body, &motion.pose_at(mid).2, bodies, targets, settings, counts);
            if hit {
                hi = mid;
            } else {
                lo = mid;
            }
            recorder.bracket(lo, hi, mid, hit);
        }
        return Some(hi);
    }
    None
}

/// Conservative advancement against every target; the earliest impact as (τ, nudge),
/// where the nudge (world frame, m) closes the remaining gap plus half the slop.
fn toi_by_advancement<R: ContinuousRecorder>(
    body: &Body,
    motion: &Motion,
    bodies: &BodySet,
    targets: &[usize],
    settings: &WorldSettings,
    counts: &mut SweepCounts,
    recorder: &mut R,
) -> Option<(f32, Vec2)> {
    let slop = settings.slop.max(1e-4);
    let tolerance = 0.25 * slop;
    let mut best: Option<(f32, Vec2)> = None;
    for &t in targets {
        let Some(target) = bodies.slot(t) else { continue };
        let limit = best.map_or(1.0, |(tau, _)| tau);
        let found = advance_against(body, motion, (t, target), settings, tolerance, limit, counts, recorder);
        if let Some((tau, gap, normal)) = found {
            if best.is_none_or(|(b, _)| tau < b) {
                best = Some((tau, normal * (gap.max(0.0) + 0.5 * slop)));
            }
        }
    }
    best
}

/// Conservative advancement of the body along `motion` towards one frozen target, up to
/// τ = `limit`: (τ, gap, unit normal from the body towards the target) at the impact.
/// `target` is the target's slot and body.
#[allow(clippy::too_many_arguments)] // see `toi_by_interpolation`
fn advance_against<R: ContinuousRecorder>(
    body: &Body,
    motion: &Motion,
    (target_slot, target): (usize, &Body),
    settings: &WorldSettings,
    tolerance: f32,
    limit: f32,
    counts: &mut SweepCounts,
    recorder: &mut R,
) -> Option<(f32, f32, Vec2)> {
    let target_pose = target.pose();
    let spin = motion.delta_angle.abs() * body.core_reach();
    // The unprojected bound: no core point moves further than this per unit τ. Used when
    // GJK gives no normal (cores touching), where no plane is known.
    let any_direction = motion.bound;
    let mut tau = 0.0f32;
    for _ in 0..MAX_ADVANCEMENT_ITERATIONS {
        let (_, _, pose) = motion.pose_at(tau);
        counts.queries += 1;
        let mut closest_gap = f32::INFINITY;
        let mut closest_normal = Vec2::ZERO;
        let mut closest_points = (Vec2::ZERO, Vec2::ZERO);
        let mut step = f32::INFINITY;
        let mut work = Work::default();
        for i in 0..body.shape().piece_count() {
            for j in 0..target.shape().piece_count() {
                let input = GjkInput {
                    a: body.shape().piece(i),
                    pose_a: pose,
                    b: target.shape().piece(j),
                    pose_b: target_pose,
                };
                let out = gjk(&input, &settings.narrow_config, &mut work, &mut None);
                let gap = out.distance - input.a.radius - input.b.radius;
                let normal = if out.normal != Vec2::ZERO {
                    Some(out.normal)
                } else {
                    (out.point_b - out.point_a).try_normalize()
                };
                if gap < closest_gap {
                    closest_gap = gap;
                    closest_normal = normal.unwrap_or(Vec2::ZERO);
                    closest_points = (out.point_a, out.point_b);
                }
                let approach = match normal {
                    Some(n) => motion.delta_center.dot(n).max(0.0) + spin,
                    None => any_direction,
                };
                if approach > 0.0 {
                    step = step.min(gap.max(0.0) / approach);
                }
            }
        }
        if !closest_gap.is_finite() {
            return None;
        }
        recorder.advanced(target_slot, tau, closest_gap, closest_normal, closest_points, step);
        if closest_gap <= tolerance {
            return Some((tau, closest_gap, closest_normal));
        }
        tau += step;
        if tau.is_nan() || tau >= limit {
            return None;
        }
    }
    // Out of iterations: τ is still before the impact, so stopping here is safe.
    Some((tau, 0.0, Vec2::ZERO))
}

#[cfg(test)]
mod tests;
