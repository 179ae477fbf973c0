//! Pairs known to be apart: a candidate pair the narrow phase found farther apart than
//! its speculative margin is not tested again while the bodies cannot have closed the
//! gap it measured.
//!
//! Why: the broad phase's boxes are loose for the shapes in them, so in a heap of
//! polygons a third to a half of the candidate pairs are boxes that overlap around
//! shapes that do not come near (the rain of 1000 polygons, `scenes/rain_1000.ron`:
//! about 800 of its 2,500 candidates a step once it has landed). Each cost a full pair
//! set-up and a separating axis test to learn, again, that it has no points.
//!
//! What makes skipping exact. The test that said "apart" stopped on an axis — an edge
//! normal of A or of B, or its opposite (`narrow::polygon_polygon::sat_in_a`) — along
//! which the shapes were `gap` apart, more than the margin. That axis turns with the
//! body whose edge it is. Seen from that body, no point of the other has moved farther
//! than the bound of [`moved_bound`] since; so along the same axis the shapes are still
//! at least `gap − moved` apart. While that is above the margin now (with room for the
//! rounding of the two tests), the test would stop again — on that axis or an earlier
//! one — and the pair would again have no points: skipping it changes no answer, and
//! the state hashes stay what they were. This is the conservative-advancement bound of
//! Mirtich ("Impulse-based dynamic simulation of rigid body systems", 1996), used as
//! Bullet and rapier use their cached separating distances; only the proof that the
//! pair is apart is kept, never a contact.
//!
//! Only the fused two-polygon path reports such a gap
//! (`narrow::SpeculativePoints::proven_gap`); other pairs are tested every step.
//!
//! Measured on the rain with the step bench's settings (`collision-lab run` on a copy
//! of `rain_1000.ron` with 4 substeps, sleeping and continuous detection off, one
//! thread, 270 steps; medians of 6 runs taking turns with the build before): 182 of
//! its 1,475 candidate pairs a step are skipped (about 400 of 2,540 once it has
//! landed); the step 0.618 → 0.599 ms under projection (narrow phase 0.267 → 0.252)
//! and 0.550 → 0.519 ms under impulses; the state hashes are the same.

use super::RelativePose;
use crate::dynamics::body::{Body, BodyHandle};

/// A candidate pair last found apart by more than its margin (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct ApartPair {
    pub slot_a: u32,
    pub slot_b: u32,
    pub handle_a: BodyHandle,
    pub handle_b: BodyHandle,
    /// B seen from A when the narrow phase last ran on the pair …
    pub detected_at: RelativePose,
    /// … and the gap it measured then along its stopping axis (m, above the margin then).
    pub gap: f32,
}

impl ApartPair {
    /// Whether the pair, with B seen from A at `now` and the pair's margin `margin` (m),
    /// is certainly still apart by more than the margin: the narrow phase would find no
    /// points (see the module docs).
    pub fn still_apart(&self, now: &RelativePose, a: &Body, b: &Body, margin: f32) -> bool {
        let then = &self.detected_at;
        let moved = moved_bound(then, now, a.outer_reach(), b.outer_reach());
        // Rounding: each test's gap is good to a few ulps of the coordinates it works
        // with (A's frame: the centres' distance plus the reaches). A thousand times
        // that is still far below any margin, so almost every pair that is apart by a
        // visible amount is skipped, and none on the edge is.
        let extent = then.translation.length() + a.outer_reach() + b.outer_reach();
        let rounding = 1e-4 * extent + 1e-6;
        // NaN anywhere makes the comparison false: tested.
        self.gap - moved > margin + rounding
    }
}

/// How far, at most, a point of either body has moved seen from the other (m) between
/// the relative poses `then` and `now`, with `reach_a`, `reach_b` the bodies' reaches
/// from their centres of mass (m).
///
/// With t the vector from A's centre to B's in A's frame and θ B's angle less A's:
/// - a point p of B, seen from A, is t + R(θ)p, so it moves by at most |Δt| + |Δθ|·|p|;
/// - a point p of A, seen from B, is R(−θ)(p − t), so it moves by at most
///   |Δt| + |Δθ|·|p − t| ≤ |Δt| + |Δθ|·(reach_a + |t|), with |t| taken at its larger
///   value of the two (a chord is shorter than its arc).
pub(crate) fn moved_bound(then: &RelativePose, now: &RelativePose, reach_a: f32, reach_b: f32) -> f32 {
    let apart = then.translation.length().max(now.translation.length());
    // `moved_from` is the first case's bound for any reach; the larger reach covers both.
    now.moved_from(then, reach_b.max(reach_a + apart))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::{Rot, Vec2};

    /// B seen from A as `moved_bound` describes it: its point `p_b` (B's frame from B's
    /// centre) in A's frame, and A's point `p_a` in B's frame.
    fn b_in_a(pose: &RelativePose, p_b: Vec2) -> Vec2 {
        pose.translation + Rot::from_angle(pose.angle).apply(p_b)
    }
    fn a_in_b(pose: &RelativePose, p_a: Vec2) -> Vec2 {
        Rot::from_angle(-pose.angle).apply(p_a - pose.translation)
    }

    /// A dynamic body: a convex polygon of `sides` corners at random distances from a
    /// point off its origin (so its centre of mass is not the origin), at a pose.
    fn polygon_body(rng: &mut crate::dynamics::test_rng::Lcg, position: Vec2, angle: f32) -> Body {
        use crate::dynamics::BodyDesc;
        use crate::geometry::ShapeDesc;
        let sides = 3 + rng.below(6);
        let centre = Vec2::new(rng.range(-0.2, 0.2), rng.range(-0.2, 0.2));
        let mut points = Vec::with_capacity(sides);
        for k in 0..sides {
            let turn = (k as f32 + rng.range(0.0, 0.8)) * std::f32::consts::TAU / sides as f32;
            let reach = rng.range(0.15, 0.45);
            points.push(centre + Rot::from_angle(turn).apply(Vec2::X) * reach);
        }
        let mut desc = BodyDesc::new(ShapeDesc::Polygon { points }).expect("a convex polygon");
        (desc.position, desc.angle) = (position, angle);
        Body::new(desc)
    }

    // The claim the skipping rests on (module docs): a pair the fused test found apart,
    // moved by anything `still_apart` accepts, has no points when tested again — under
    // every algorithm (the user may switch between steps). Random convex polygons near
    // each other, random small moves of both.
    #[test]
    fn a_pair_still_apart_has_no_points_when_tested_again() {
        use crate::narrow::{collide_and_speculate, Algorithm, NarrowConfig, Work};
        let mut rng = crate::dynamics::test_rng::Lcg(11);
        let config = NarrowConfig::default();
        let margin = 0.02;
        let (mut proven, mut skipped) = (0, 0);
        for _ in 0..20000 {
            let (a_at, a_angle) = (
                Vec2::new(rng.range(-5.0, 5.0), rng.range(-5.0, 5.0)),
                rng.range(-3.0, 3.0),
            );
            let a = polygon_body(&mut rng, a_at, a_angle);
            let towards = Rot::from_angle(rng.range(0.0, std::f32::consts::TAU)).apply(Vec2::X);
            let (b_at, b_angle) = (
                a.pose().translation + towards * rng.range(0.4, 1.1),
                rng.range(-3.0, 3.0),
            );
            let mut b = polygon_body(&mut rng, b_at, b_angle);
            let found = collide_and_speculate(
                a.shape(),
                &a.pose(),
                b.shape(),
                &b.pose(),
                Algorithm::SatDecomposed,
                &config,
                margin,
                &mut Work::default(),
            );
            let Some(gap) = found.1.proven_gap() else { continue };
            assert!(!found.0.intersect && found.1.is_empty() && gap > margin);
            proven += 1;
            let was = ApartPair {
                slot_a: 0,
                slot_b: 1,
                handle_a: BodyHandle {
                    index: 0,
                    generation: 0,
                },
                handle_b: BodyHandle {
                    index: 1,
                    generation: 0,
                },
                detected_at: RelativePose::of(&a, &b),
                gap,
            };
            // Move B (A's moves are B's, seen from A) by up to 7 cm and 0.1 rad.
            let pose = b.pose();
            let shift = Vec2::new(rng.range(-0.05, 0.05), rng.range(-0.05, 0.05));
            b.set_pose(pose.translation + shift, b.angle() + rng.range(-0.1, 0.1));
            if !was.still_apart(&RelativePose::of(&a, &b), &a, &b, margin) {
                continue;
            }
            skipped += 1;
            for algorithm in [Algorithm::NonConvexSat, Algorithm::SatDecomposed, Algorithm::GjkEpa] {
                let again = collide_and_speculate(
                    a.shape(),
                    &a.pose(),
                    b.shape(),
                    &b.pose(),
                    algorithm,
                    &config,
                    margin,
                    &mut Work::default(),
                );
                assert!(
                    !again.0.intersect && again.1.is_empty(),
                    "{algorithm:?}: a pair taken as still apart (gap {gap} then) has points"
                );
            }
        }
        // Not vacuous: most near pairs are proven apart, and many moves keep them so.
        assert!(proven > 500 && skipped > 200, "proven {proven}, skipped {skipped}");
    }

    // The bound holds the true motion of points on both bodies' rims, for random moves
    // and turns, seen from either side.
    #[test]
    fn moved_bound_holds_every_rim_point_seen_from_either_body() {
        let mut rng = crate::dynamics::test_rng::Lcg(7);
        for _ in 0..2000 {
            let (reach_a, reach_b) = (rng.range(0.1, 2.0), rng.range(0.1, 2.0));
            let then = RelativePose {
                translation: Vec2::new(rng.range(-3.0, 3.0), rng.range(-3.0, 3.0)),
                angle: rng.range(-3.0, 3.0),
            };
            let now = RelativePose {
                translation: then.translation + Vec2::new(rng.range(-0.2, 0.2), rng.range(-0.2, 0.2)),
                angle: then.angle + rng.range(-0.5, 0.5),
            };
            let bound = moved_bound(&then, &now, reach_a, reach_b);
            for k in 0..16 {
                let dir = Rot::from_angle(k as f32 * std::f32::consts::TAU / 16.0).apply(Vec2::X);
                let (p_a, p_b) = (dir * reach_a, dir * reach_b);
                let moved_b = (b_in_a(&now, p_b) - b_in_a(&then, p_b)).length();
                let moved_a = (a_in_b(&now, p_a) - a_in_b(&then, p_a)).length();
                assert!(moved_b <= bound * 1.0001 + 1e-6, "B's point moved {moved_b} > {bound}");
                assert!(moved_a <= bound * 1.0001 + 1e-6, "A's point moved {moved_a} > {bound}");
            }
        }
    }
}
