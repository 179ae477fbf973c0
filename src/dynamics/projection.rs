//! The papers' literal projection resolution: move positions, then fix velocities, as
//! the non-convex SAT paper's step 11 ("move PA by V") and the polygon-mesh survey's
//! resolution section describe it. [`super::Resolution::LiteralProjection`]; the
//! position-based method that stacks is `xpbd.rs`.
//!
//! For each intersecting pair, in candidate order:
//!
//! ```text
//! w = inv_mass_a + inv_mass_b                     (nothing to do when 0)
//! if A can move:  A moves by the whole mtv        (mtv moves A out of B)
//! else:           B moves by −mtv
//! p  = mean of the contact points, r = p − centre
//! vn = (v_b + ω_b × r_b − v_a − ω_a × r_a) · n     (n from A to B)
//! if vn < 0:  λ = −vn / (w + I_a⁻¹ (r_a × n)² + I_b⁻¹ (r_b × n)²)
//!             apply (1 + e)·λ·n to B and its opposite to A     (e = pair restitution)
//! ```
//!
//! λ alone cancels the approach (a perfectly inelastic hit); (1 + e)·λ sends the bodies
//! apart at e times their approach speed, the survey's "elastic hit". No friction, no
//! rotation in the move and no memory between substeps: each pair is resolved alone, so
//! moving A out of B pushes it into its other neighbours, and a stack collapses (the
//! pyramid test in `tests/resolution.rs` records it). Moving by the whole MTV leaves the
//! pair exactly touching, which the narrow phase reports as separated; resting bodies
//! therefore find their contact again every other substep, which is the method's known
//! jitter.

use super::body::BodySet;
use super::manifold::ContactManifold;
use super::observe::{LiteralMove, PassView, StepObserver};
use super::solver::mix_friction_restitution;
use crate::math::{cross, Vec2};

/// Resolves every manifold by the literal projection (see the module docs).
/// `observer` sees each pair after it was resolved (`substep` is passed on to it).
pub(crate) fn resolve_by_literal_projection(
    bodies: &mut BodySet,
    manifolds: &[ContactManifold],
    substep: u32,
    observer: &mut impl StepObserver,
) {
    for (index, m) in manifolds.iter().enumerate() {
        let (ia, ib) = (m.body_a.index as usize, m.body_b.index as usize);
        let (Some(a), Some(b)) = (bodies.slot(ia), bodies.slot(ib)) else {
            continue;
        };
        let w = a.inv_mass() + b.inv_mass();
        if w <= 0.0 {
            continue;
        }
        let (_, restitution) = mix_friction_restitution(a.friction(), b.friction(), a.restitution(), b.restitution());
        let (move_a, move_b) = if a.inv_mass() > 0.0 {
            (m.mtv, Vec2::ZERO)
        } else {
            (Vec2::ZERO, -m.mtv)
        };
        let points = m.points.as_slice();
        let point = if points.is_empty() {
            0.5 * (a.center_of_mass() + b.center_of_mass())
        } else {
            points.iter().map(|p| p.point).sum::<Vec2>() / points.len() as f32
        };
        // Anchors after the move: the impulse acts on the separated configuration.
        let r_a = point - (a.center_of_mass() + move_a);
        let r_b = point - (b.center_of_mass() + move_b);
        let n = m.normal;
        let vn = (b.velocity_at(point) - a.velocity_at(point)).dot(n);
        let mut impulse = Vec2::ZERO;
        if vn < 0.0 {
            let (rna, rnb) = (cross(r_a, n), cross(r_b, n));
            let k = w + a.inv_inertia() * rna * rna + b.inv_inertia() * rnb * rnb;
            let lambda = -vn / k;
            if lambda.is_finite() {
                impulse = (1.0 + restitution) * lambda * n;
            }
        }
        let (ima, iia, imb, iib) = (a.inv_mass(), a.inv_inertia(), b.inv_mass(), b.inv_inertia());
        if let Some(a) = bodies.slot_mut(ia) {
            if a.is_dynamic() {
                a.translate_rotate(move_a, 0.0);
                let v = a.linear_velocity() - ima * impulse;
                let w = a.angular_velocity() - iia * cross(r_a, impulse);
                a.set_velocities_unchecked(v, w);
            }
        }
        if let Some(b) = bodies.slot_mut(ib) {
            if b.is_dynamic() {
                b.translate_rotate(move_b, 0.0);
                let v = b.linear_velocity() + imb * impulse;
                let w = b.angular_velocity() + iib * cross(r_b, impulse);
                b.set_velocities_unchecked(v, w);
            }
        }
        let moved = LiteralMove {
            slot_a: ia as u32,
            slot_b: ib as u32,
            move_a,
            move_b,
            impulse,
            normal: n,
        };
        observer.iteration_done(&PassView::literal(substep, index as u32, bodies, moved));
    }
}
