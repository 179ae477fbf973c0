//! Two rectangles: the separating axis test of the convex fast path
//! ([`super::sat_in_a`]) with closed-form projections, for every box pair of a pile.
//!
//! The same algorithm as the general path, on a shape that makes it cheap: a rectangle's
//! edge normals come in opposite pairs, so an oriented-box separating axis test needs only
//! its two axes per box, and a box's shadow on an axis u is its centre's ± the projected
//! half extents, |u·x|·hx + |u·y|·hy — the OBB test of Gottschalk, Lin and Manocha,
//! "OBBTree: a hierarchical structure for rapid interference detection" (SIGGRAPH 1996),
//! as Ericson's "Real-Time Collision Detection" (2005, §4.4.1) writes it. Here it keeps
//! the general path's answer bit for bit, so the axes, their order, the first largest gap
//! and the stop are the general path's (Box2D's one-sided test over A's normals, then
//! B's), and only the projections that round the same way in closed form are taken in
//! closed form:
//! - A's shadow on B's normal n (A's frame): A's vertices are exactly (±hx, ±hy)
//!   ([`crate::geometry::ConvexPolygon::centred_box`]), so each dot is ±(nx·hx) ±
//!   (ny·hy) with the products rounded alike up to sign, and the least of the four is
//!   −(|nx|·hx + |ny|·hy) to the bit (rounding is symmetric and monotone).
//! - B's vertices on A's normals are the general path's dots of the same four vertices
//!   turned into A's frame (they are needed for the clip anyway).
//!
//! The reference face and the incident edge are chosen by the general path's rule
//! (`clip_in_a`: each box's support vertex along the normal, then the better aligned of
//! its two edges, the 1e-3 bias towards A) from fixed-size scans, and clipped by the same
//! `clip::clip_incident`, so the points and their ids are the same too.
//! `rectangles_match_the_general_path` below checks all of it on random pairs.

use super::{clip_edges_in_a, PairInA};
use crate::math::Vec2;
use crate::narrow::contact::{ContactPoints, Work};

/// [`super::sat_in_a`] for two centred boxes, A's half extents `half_a` (m): the normal
/// from A towards B (A's frame) and the depth (positive: overlap; otherwise minus the
/// gap of the axis that stopped the test, or of the best axis). Boxes are centrally
/// symmetric, so the one-sided test is the whole test (see [`super::sat_in_a`]).
pub(super) fn sat_rectangles_in_a(pair: &PairInA, half_a: Vec2, stop_at: f32, work: &mut Work) -> (Vec2, f32) {
    // Fixed-size copies, so that the loops below are unrolled.
    let (vertices_a, normals_a) = (four(pair.a.vertices), four(pair.a.normals));
    let vertices_b = four(pair.vertices_b());
    let mut best_gap = f32::NEG_INFINITY;
    let mut best_normal = Vec2::X;
    // A's edges: the separation of B's vertices from each.
    for k in 0..4 {
        let n = normals_a[k];
        let lowest = vertices_b.iter().fold(f32::INFINITY, |lowest, v| {
            let d = n.dot(*v);
            if d < lowest {
                d
            } else {
                lowest
            }
        });
        let gap = lowest - n.dot(vertices_a[k]);
        if gap > best_gap {
            (best_gap, best_normal) = (gap, n);
            if gap > stop_at {
                return finish(work, k as u32 + 1, best_normal, best_gap);
            }
        }
    }
    // B's edges: the separation of A's vertices from each, A's lowest in closed form.
    let normals_b = four(pair.b.normals).map(|n| pair.rot_ab.apply(n));
    for j in 0..4 {
        let n = normals_b[j];
        let lowest = -(n.x.abs() * half_a.x + n.y.abs() * half_a.y);
        let gap = lowest - n.dot(vertices_b[j]);
        if gap > best_gap {
            // B's outward normal points from B towards A.
            (best_gap, best_normal) = (gap, -n);
            if gap > stop_at {
                return finish(work, j as u32 + 5, best_normal, best_gap);
            }
        }
    }
    finish(work, 8, best_normal, best_gap)
}

/// [`super::clip_in_a`] for two centred boxes: the same edges (each shape's support
/// vertex along the normal, first of the largest dots, then the better aligned of its two
/// edges) from fixed-size scans, and the same clip.
pub(super) fn clip_rectangles_in_a(pair: &PairInA, normal: Vec2, depth: f32, max_separation: f32) -> ContactPoints {
    let edge_a = best_edge_of_four(four(pair.a.vertices), |i| pair.a.normals[i], normal);
    // −(v·normal) and −(n·normal), as `clip_in_a` writes them, are v·(−normal) and
    // n·(−normal) to the bit: each product and the sum only change sign.
    let edge_b = best_edge_of_four(four(pair.vertices_b()), |j| pair.normal_b(j), -normal);
    clip_edges_in_a(pair, edge_a, edge_b, depth, max_separation)
}

/// `clip::best_edge` on four vertices: the first vertex of largest dot along `direction`
/// (a NaN dot never wins), then of the edges before and after it the one whose normal is
/// more aligned with `direction` (ties to the edge after): (edge, alignment).
#[inline]
fn best_edge_of_four(vertices: [Vec2; 4], normal: impl Fn(usize) -> Vec2, direction: Vec2) -> (usize, f32) {
    let mut support = 0;
    let mut support_dot = f32::NEG_INFINITY;
    for (i, v) in vertices.iter().enumerate() {
        let d = v.dot(direction);
        if d > support_dot {
            (support, support_dot) = (i, d);
        }
    }
    let prev = (support + 3) % 4;
    let (d_next, d_prev) = (normal(support).dot(direction), normal(prev).dot(direction));
    if d_prev > d_next {
        (prev, d_prev)
    } else {
        (support, d_next)
    }
}

/// A centred box's four vertices or normals (its flag guarantees four).
#[inline]
fn four(items: &[Vec2]) -> [Vec2; 4] {
    items
        .try_into()
        .expect("a centred box has four vertices and four normals")
}

/// The answer, with the work counted as the general path counts it: per axis, one axis
/// and the four vertices of the other box.
#[inline]
fn finish(work: &mut Work, axes: u32, normal: Vec2, gap: f32) -> (Vec2, f32) {
    work.axes_tested += axes;
    work.vertices_scanned += 4 * axes;
    (normal, -gap)
}

#[cfg(test)]
mod tests {
    use super::super::{detect_polygon_polygon_sat, SatRule};
    use crate::geometry::{Polygon, Shape};
    use crate::math::{Pose, Rot, Vec2};
    use crate::narrow::contact::Work;
    use crate::narrow::NarrowConfig;
    use proptest::prelude::*;
    use std::f32::consts::{FRAC_PI_2, PI};

    /// A `w` × `h` box centred on its origin.
    fn centred_box(w: f32, h: f32) -> Shape {
        crate::narrow::test_rect(w, h)
    }

    fn half_extents(shape: &Shape) -> Option<Vec2> {
        match shape {
            Shape::Polygon(p) => p.pieces()[0].centred_box(),
            _ => None,
        }
    }

    #[test]
    fn only_centred_axis_aligned_boxes_are_flagged() {
        assert_eq!(half_extents(&centred_box(2.0, 0.5)), Some(Vec2::new(1.0, 0.25)));
        let off_centre = [(0.0, 0.0), (2.0, 0.0), (2.0, 1.0), (0.0, 1.0)];
        let turned = [(1.0, 0.0), (0.0, 1.0), (-1.0, 0.0), (0.0, -1.0)];
        let kite = [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 2.0)];
        for points in [off_centre, turned, kite] {
            let points: Vec<Vec2> = points.iter().map(|&(x, y)| Vec2::new(x, y)).collect();
            let shape = Shape::Polygon(Polygon::new(&points).unwrap());
            assert_eq!(half_extents(&shape), None, "{points:?}");
        }
    }

    /// The world's detection of a box pair through the rectangle SAT and through the
    /// general convex SAT: (contact, speculative points, speculation's counters).
    fn both_paths(a: &Shape, pose_a: &Pose, b: &Shape, pose_b: &Pose, rule: SatRule, margin: f32) -> [String; 2] {
        let config = NarrowConfig::default();
        let scale = crate::narrow::query_scale(a, pose_a, b, pose_b);
        let (va, vb) = (a.piece(0), b.piece(0));
        let half_a = half_extents(a).expect("A is a centred box");
        assert!(half_extents(b).is_some(), "B is a centred box");
        [Some(half_a), None].map(|rectangles| {
            let mut work = Work::default();
            let answer = detect_polygon_polygon_sat(
                (&va, pose_a),
                (&vb, pose_b),
                (scale, &config, rule),
                (margin, None),
                rectangles,
                &mut work,
            );
            // Debug prints every float to the bit (shortest round trip), ids and counters.
            format!("{answer:?} {work:?}")
        })
    }

    /// Two boxes placed against each other along one of A's axes: `side` picks the axis
    /// (±x, ±y of A), `gap` is the distance between their shadows on it (negative:
    /// overlap), `lateral` slides B along A's face (a fraction of A's half extent), `turn`
    /// is B's angle relative to A.
    #[allow(clippy::too_many_arguments)] // the pose's parts, as the strategy draws them
    fn placed_pair(
        (w_a, h_a, w_b, h_b): (f32, f32, f32, f32),
        angle_a: f32,
        centre_a: Vec2,
        turn: f32,
        side: usize,
        gap: f32,
        lateral: f32,
    ) -> (Shape, Pose, Shape, Pose) {
        let (a, b) = (centred_box(w_a, h_a), centred_box(w_b, h_b));
        let axis = [Vec2::X, Vec2::Y, -Vec2::X, -Vec2::Y][side];
        let across = Vec2::new(-axis.y, axis.x);
        let half_a = Vec2::new(0.5 * w_a, 0.5 * h_a);
        let rot_b = Rot::from_angle(turn);
        let (bx, by) = (rot_b.apply(Vec2::X), rot_b.apply(Vec2::Y));
        let extent = |u: Vec2| u.x.abs() * half_a.x + u.y.abs() * half_a.y;
        let extent_b = |u: Vec2| u.dot(bx).abs() * 0.5 * w_b + u.dot(by).abs() * 0.5 * h_b;
        let centre_b_in_a = axis * (extent(axis) + extent_b(axis) + gap) + across * (lateral * extent(across));
        let pose_a = Pose::new(centre_a, angle_a);
        let pose_b = Pose::new(pose_a.apply_point(centre_b_in_a), angle_a + turn);
        (a, pose_a, b, pose_b)
    }

    fn sizes() -> impl Strategy<Value = (f32, f32, f32, f32)> {
        let size = 0.05f32..4.0;
        let aspect = prop_oneof![Just(1.0f32), 0.1f32..10.0];
        (size.clone(), aspect.clone(), size, aspect).prop_map(|(w_a, r_a, w_b, r_b)| (w_a, w_a * r_a, w_b, w_b * r_b))
    }

    fn turns() -> impl Strategy<Value = f32> {
        prop_oneof![
            Just(0.0f32),
            -1e-3f32..1e-3,
            (0usize..4, -1e-4f32..1e-4).prop_map(|(k, e)| k as f32 * FRAC_PI_2 + e),
            -PI..PI,
        ]
    }

    fn gaps() -> impl Strategy<Value = f32> {
        prop_oneof![Just(0.0f32), -1e-5f32..1e-5, -0.3f32..0.0, 0.0f32..0.08]
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 4000, ..ProptestConfig::default() })]
        /// Box pairs of every kind a pile has — squares and long planks, parallel, nearly
        /// parallel, edge on edge, touching, overlapping, apart within the margin and
        /// beyond it — get the same contact, points, ids, speculative points and counters,
        /// to the bit, from the rectangle SAT as from the general convex one, under both
        /// SAT rules.
        #[test]
        fn rectangles_match_the_general_path(
            sizes in sizes(),
            angle_a in -PI..PI,
            (x, y) in (-50.0f32..50.0, -50.0f32..50.0),
            turn in turns(),
            side in 0usize..4,
            gap in gaps(),
            lateral in -1.5f32..1.5,
            margin in prop_oneof![Just(0.04f32), 0.0f32..0.1],
        ) {
            let (a, pose_a, b, pose_b) = placed_pair(sizes, angle_a, Vec2::new(x, y), turn, side, gap, lateral);
            let rules = [SatRule::Decomposed, SatRule::NonConvexSat { centroid_a: Vec2::ZERO, centroid_b: Vec2::ZERO }];
            for rule in rules {
                let [fast, general] = both_paths(&a, &pose_a, &b, &pose_b, rule, margin);
                prop_assert_eq!(fast, general);
            }
        }
    }
}
