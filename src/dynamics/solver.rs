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
//!   phase's [`ContactId`] (which features touch); a matched point starts from its old
//!   impulses, applied before the first pass. A resting stack then starts each substep
//!   already nearly solved instead of from zero.
//! - **Persistent points.** The narrow phase reports at most two points per pair, from
//!   one pair of features. A non-convex body resting on two separate features (a gear on
//!   two teeth, a U on both legs) gets one of them per substep, alternately, and rocks
//!   for ever. So a point of the previous substep that the narrow phase did not report
//!   again is kept (up to [`MAX_POINTS`]) while it is still valid: its anchors, stored
//!   in each body's frame, are still within `slop` of touching along the new normal,
//!   have not slid apart by more than [`KEEP_DRIFT`], and the normal has turned less
//!   than [`KEEP_NORMAL_COS`] allows. This is Bullet's persistent manifold (Coumans),
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
//! Per substep (the world calls these in order):
//!
//! ```text
//! prepare      anchors r = p − c, effective masses, pre-solve normal velocity, warm impulses
//! warm_start   apply last substep's matched impulses
//! solve(bias)  × velocity_iterations
//! —            the world integrates positions with the solved velocities
//! solve(none)  × relax_iterations
//! restitution  one pass, vn → −e·vn_before where it applies
//! store        impulses into the cache for the next substep
//! ```

use super::body::{cross_sv, BodyHandle, BodySet};
use super::manifold::ContactManifold;
use super::settings::WorldSettings;
use crate::math::{cross, Vec2};
use crate::narrow::ContactId;
use std::collections::HashMap;

/// Most points one pair's constraint holds: the narrow phase's two, plus kept ones.
pub const MAX_POINTS: usize = 4;

/// A kept point is dropped once its two anchors have slid this far apart along the
/// surface (m): the features no longer touch there.
pub const KEEP_DRIFT: f32 = 0.02;

/// A kept point is dropped when the pair's normal turns by more than about 10° (the
/// cosine of that angle): the contact geometry has changed.
pub const KEEP_NORMAL_COS: f32 = 0.985;

/// The three coefficients of a soft constraint (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Softness {
    bias_rate: f32,
    mass_scale: f32,
    impulse_scale: f32,
}

impl Softness {
    /// A spring of `hertz` with damping ratio `zeta` over a time step `h` (s). Zero
    /// hertz gives a rigid constraint with no position bias.
    pub(crate) fn new(hertz: f32, zeta: f32, h: f32) -> Softness {
        if hertz <= 0.0 || h <= 0.0 {
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

/// Velocities and inverse masses of one body while solving (scratch, per slot).
#[derive(Clone, Copy, Debug, Default)]
struct SolverBody {
    v: Vec2,
    w: f32,
    inv_mass: f32,
    inv_inertia: f32,
}

/// One contact point of a constraint.
#[derive(Clone, Copy, Debug, Default)]
struct ConstraintPoint {
    id: ContactId,
    /// Anchors from each centre of mass to the point (m, world frame).
    r_a: Vec2,
    r_b: Vec2,
    /// The same anchors in each body's rotated frame, to find the point again next
    /// substep.
    local_r_a: Vec2,
    local_r_b: Vec2,
    /// Negative penetration (m).
    separation: f32,
    normal_mass: f32,
    tangent_mass: f32,
    normal_impulse: f32,
    tangent_impulse: f32,
    /// Largest normal impulse increment of the substep: restitution only applies to
    /// points that actually pushed.
    max_normal_impulse: f32,
    /// Relative normal velocity before solving (m/s; negative when approaching).
    relative_velocity: f32,
}

/// The constraint of one intersecting pair.
#[derive(Clone, Copy, Debug)]
struct Constraint {
    key: (BodyHandle, BodyHandle),
    a: usize,
    b: usize,
    normal: Vec2,
    friction: f32,
    restitution: f32,
    points: [ConstraintPoint; MAX_POINTS],
    count: usize,
}

/// Impulses kept from one substep to the next, per pair, matched by feature id.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct CachedPair {
    normal: Vec2,
    points: [CachedPoint; MAX_POINTS],
    count: usize,
}

/// One cached point: its feature id, accumulated impulses, anchors (body frames) and
/// separation when it was made.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct CachedPoint {
    id: ContactId,
    normal_impulse: f32,
    tangent_impulse: f32,
    local_r_a: Vec2,
    local_r_b: Vec2,
    separation: f32,
}

/// The persistent contact cache: (body A, body B) → last substep's points with their
/// accumulated impulses. Runtime state of the world (it carries over between steps);
/// lookups only, never iterated, so the hash map's order cannot affect results.
#[derive(Clone, Debug, Default)]
pub(crate) struct ContactCache {
    pairs: HashMap<(BodyHandle, BodyHandle), CachedPair>,
}

impl ContactCache {
    /// Forgets every pair that involves `handle`.
    pub(crate) fn forget_body(&mut self, handle: BodyHandle) {
        self.pairs.retain(|k, _| k.0 != handle && k.1 != handle);
    }

    /// Forgets everything.
    pub(crate) fn clear(&mut self) {
        self.pairs.clear();
    }
}

/// Scratch memory of the solver, reused every substep and never saved.
#[derive(Clone, Debug, Default)]
pub(crate) struct ContactSolver {
    bodies: Vec<SolverBody>,
    constraints: Vec<Constraint>,
    softness: Option<Softness>,
    inv_h: f32,
    slop: f32,
    max_push_speed: f32,
}

impl ContactSolver {
    /// Builds the constraints of `manifolds` (slot indices `slots[i]` for manifold `i`)
    /// for a substep of `h` seconds, taking warm-start impulses from `cache`.
    pub(crate) fn prepare(
        &mut self,
        bodies: &BodySet,
        manifolds: &[ContactManifold],
        cache: &ContactCache,
        settings: &WorldSettings,
        h: f32,
    ) {
        self.bodies.clear();
        self.bodies.resize(bodies.slot_count(), SolverBody::default());
        for (i, sb) in self.bodies.iter_mut().enumerate() {
            if let Some(body) = bodies.slot(i) {
                *sb = SolverBody {
                    v: body.linear_velocity(),
                    w: body.angular_velocity(),
                    inv_mass: body.inv_mass(),
                    inv_inertia: body.inv_inertia(),
                };
            }
        }
        let hertz = settings.contact_hertz.min(0.25 / h);
        self.softness = Some(Softness::new(hertz, settings.contact_damping_ratio, h));
        self.inv_h = 1.0 / h;
        self.slop = settings.slop;
        self.max_push_speed = settings.max_push_speed;

        self.constraints.clear();
        for m in manifolds {
            let (ia, ib) = (m.body_a.index as usize, m.body_b.index as usize);
            let (Some(body_a), Some(body_b)) = (bodies.slot(ia), bodies.slot(ib)) else {
                continue;
            };
            let (sa, sb) = (self.bodies[ia], self.bodies[ib]);
            let (friction, restitution) = mix_friction_restitution(
                body_a.friction(),
                body_b.friction(),
                body_a.restitution(),
                body_b.restitution(),
            );
            let normal = m.normal;
            let tangent = Vec2::new(normal.y, -normal.x);
            let key = (m.body_a, m.body_b);
            let warm = if settings.warm_starting {
                cache.pairs.get(&key)
            } else {
                None
            };
            let mut c = Constraint {
                key,
                a: ia,
                b: ib,
                normal,
                friction,
                restitution,
                points: [ConstraintPoint::default(); MAX_POINTS],
                count: 0,
            };
            let (rot_a, rot_b) = (body_a.rotation(), body_b.rotation());
            let (center_a, center_b) = (body_a.center_of_mass(), body_b.center_of_mass());
            let add_point = |c: &mut Constraint, id: ContactId, r_a: Vec2, r_b: Vec2, separation: f32| {
                if c.count == MAX_POINTS {
                    return;
                }
                let k = |dir: Vec2| {
                    let (ra, rb) = (cross(r_a, dir), cross(r_b, dir));
                    sa.inv_mass + sb.inv_mass + sa.inv_inertia * ra * ra + sb.inv_inertia * rb * rb
                };
                let inv_or_zero = |k: f32| if k > 0.0 { 1.0 / k } else { 0.0 };
                let dv = sb.v + cross_sv(sb.w, r_b) - sa.v - cross_sv(sa.w, r_a);
                let (normal_impulse, tangent_impulse) = warm
                    .and_then(|w| w.points[..w.count].iter().find(|q| q.id == id))
                    .map_or((0.0, 0.0), |q| (q.normal_impulse, q.tangent_impulse));
                c.points[c.count] = ConstraintPoint {
                    id,
                    r_a,
                    r_b,
                    local_r_a: rot_a.apply_inv(r_a),
                    local_r_b: rot_b.apply_inv(r_b),
                    separation,
                    normal_mass: inv_or_zero(k(normal)),
                    tangent_mass: inv_or_zero(k(tangent)),
                    normal_impulse,
                    tangent_impulse,
                    max_normal_impulse: 0.0,
                    relative_velocity: dv.dot(normal),
                };
                c.count += 1;
            };
            let new_points = m.points.as_slice();
            for p in new_points {
                add_point(&mut c, p.id, p.point - center_a, p.point - center_b, -p.depth);
            }
            // Persistent points (see the module docs): last substep's points the narrow
            // phase did not report again, while their anchors still touch.
            if let Some(w) = warm.filter(|w| w.normal.dot(normal) >= KEEP_NORMAL_COS) {
                for q in &w.points[..w.count] {
                    if new_points.iter().any(|p| p.id == q.id) {
                        continue;
                    }
                    let (r_a, r_b) = (rot_a.apply(q.local_r_a), rot_b.apply(q.local_r_b));
                    let d = (center_b + r_b) - (center_a + r_a);
                    let separation = q.separation + d.dot(normal);
                    let drift = (d - d.dot(normal) * normal).length();
                    if separation < settings.slop && drift < KEEP_DRIFT {
                        // Anchor both bodies at the midpoint, as the narrow phase does.
                        let mid = center_a + r_a + 0.5 * d;
                        add_point(&mut c, q.id, mid - center_a, mid - center_b, separation);
                    }
                }
            }
            if c.count > 0 {
                self.constraints.push(c);
            }
        }
    }

    /// Applies the warm-start impulses.
    pub(crate) fn warm_start(&mut self) {
        for c in &self.constraints {
            let tangent = Vec2::new(c.normal.y, -c.normal.x);
            let (mut a, mut b) = (self.bodies[c.a], self.bodies[c.b]);
            for p in &c.points[..c.count] {
                let impulse = p.normal_impulse * c.normal + p.tangent_impulse * tangent;
                apply(&mut a, &mut b, p.r_a, p.r_b, impulse);
            }
            self.bodies[c.a] = a;
            self.bodies[c.b] = b;
        }
    }

    /// One pass over every constraint: normal impulses (with the soft position bias when
    /// `use_bias`), then friction.
    pub(crate) fn solve(&mut self, use_bias: bool) {
        let soft = self.softness.unwrap_or(Softness::new(0.0, 0.0, 0.0));
        let (inv_h, slop, max_push) = (self.inv_h, self.slop, self.max_push_speed);
        for c in &mut self.constraints {
            let tangent = Vec2::new(c.normal.y, -c.normal.x);
            let (mut a, mut b) = (self.bodies[c.a], self.bodies[c.b]);
            for p in &mut c.points[..c.count] {
                // s > 0: the point is within the slop: let it approach by s this substep
                // (the speculative rule), no softness needed.
                let s = p.separation + slop;
                let (bias, mass_scale, impulse_scale) = if s > 0.0 {
                    (s * inv_h, 1.0, 0.0)
                } else if use_bias {
                    ((soft.bias_rate * s).max(-max_push), soft.mass_scale, soft.impulse_scale)
                } else {
                    (0.0, 1.0, 0.0)
                };
                let dv = b.v + cross_sv(b.w, p.r_b) - a.v - cross_sv(a.w, p.r_a);
                let vn = dv.dot(c.normal);
                let impulse = -p.normal_mass * mass_scale * (vn + bias) - impulse_scale * p.normal_impulse;
                let total = (p.normal_impulse + impulse).max(0.0);
                if !total.is_finite() {
                    continue; // never spread a non-finite value to the other body
                }
                let applied = total - p.normal_impulse;
                p.normal_impulse = total;
                p.max_normal_impulse = p.max_normal_impulse.max(applied);
                apply(&mut a, &mut b, p.r_a, p.r_b, applied * c.normal);
            }
            for p in &mut c.points[..c.count] {
                let dv = b.v + cross_sv(b.w, p.r_b) - a.v - cross_sv(a.w, p.r_a);
                let vt = dv.dot(tangent);
                let limit = c.friction * p.normal_impulse;
                let total = (p.tangent_impulse - p.tangent_mass * vt).clamp(-limit, limit);
                if !total.is_finite() {
                    continue;
                }
                let applied = total - p.tangent_impulse;
                p.tangent_impulse = total;
                apply(&mut a, &mut b, p.r_a, p.r_b, applied * tangent);
            }
            self.bodies[c.a] = a;
            self.bodies[c.b] = b;
        }
    }

    /// Restitution: where a point approached faster than `threshold` before solving
    /// and pushed, drive its normal velocity to −e·(velocity before).
    pub(crate) fn apply_restitution(&mut self, threshold: f32) {
        for c in &mut self.constraints {
            if c.restitution == 0.0 {
                continue;
            }
            let (mut a, mut b) = (self.bodies[c.a], self.bodies[c.b]);
            for p in &mut c.points[..c.count] {
                if p.relative_velocity > -threshold || p.max_normal_impulse == 0.0 {
                    continue;
                }
                let dv = b.v + cross_sv(b.w, p.r_b) - a.v - cross_sv(a.w, p.r_a);
                let vn = dv.dot(c.normal);
                let impulse = -p.normal_mass * (vn + c.restitution * p.relative_velocity);
                let total = (p.normal_impulse + impulse).max(0.0);
                if !total.is_finite() {
                    continue;
                }
                let applied = total - p.normal_impulse;
                p.normal_impulse = total;
                apply(&mut a, &mut b, p.r_a, p.r_b, applied * c.normal);
            }
            self.bodies[c.a] = a;
            self.bodies[c.b] = b;
        }
    }

    /// Writes the solved velocities back to the dynamic bodies.
    pub(crate) fn write_velocities(&self, bodies: &mut BodySet) {
        for (i, sb) in self.bodies.iter().enumerate() {
            if let Some(body) = bodies.slot_mut(i) {
                if body.is_dynamic() {
                    body.set_velocities_unchecked(sb.v, sb.w);
                }
            }
        }
    }

    /// Replaces the cache's content with this substep's points and impulses.
    pub(crate) fn store_impulses(&self, cache: &mut ContactCache) {
        cache.pairs.clear();
        for c in &self.constraints {
            let mut cached = CachedPair {
                normal: c.normal,
                count: c.count,
                ..CachedPair::default()
            };
            for (q, p) in cached.points.iter_mut().zip(&c.points[..c.count]) {
                *q = CachedPoint {
                    id: p.id,
                    normal_impulse: p.normal_impulse,
                    tangent_impulse: p.tangent_impulse,
                    local_r_a: p.local_r_a,
                    local_r_b: p.local_r_b,
                    separation: p.separation,
                };
            }
            cache.pairs.insert(c.key, cached);
        }
    }

    /// Number of constraints prepared this substep.
    pub(crate) fn constraint_count(&self) -> usize {
        self.constraints.len()
    }
}

/// Applies `impulse` (N·s, world frame) at anchors `r_a`, `r_b`: −impulse to A, +impulse
/// to B.
#[inline]
fn apply(a: &mut SolverBody, b: &mut SolverBody, r_a: Vec2, r_b: Vec2, impulse: Vec2) {
    a.v -= a.inv_mass * impulse;
    a.w -= a.inv_inertia * cross(r_a, impulse);
    b.v += b.inv_mass * impulse;
    b.w += b.inv_inertia * cross(r_b, impulse);
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
