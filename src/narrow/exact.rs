//! Exact answers for polygon pairs, used as the oracle that the three narrow phases are
//! measured against (tests, benchmarks, lessons' "exact answer" panel).
//!
//! - [`overlap_area`]: the area of A ∩ B, as the sum of the areas of every convex piece
//!   pair's intersection (Sutherland–Hodgman clipping). Pieces of one polygon do not
//!   overlap each other, so the sum is exact. Positive area is the definition of
//!   "intersecting" (touching has zero area).
//! - [`exact_penetration`]: the true minimum translation of A out of B. A − B is the
//!   union of the convex M_ij = A_i − B_j; the MTV is −p for the point p of the union's
//!   boundary nearest the origin. That point is either the foot of the perpendicular from
//!   the origin on some edge, a vertex of some M_ij, or a crossing of two edges of
//!   different M_ij — whichever of those candidates is nearest and not strictly inside any
//!   M_ij. Brute force, O(E²) for E edges over all M_ij: slow by design, simple enough to
//!   trust. The hulls here are built independently of the narrow phase's
//!   `minkowski.rs` (hull of all pairwise differences), so the oracle shares no code
//!   with what it checks, apart from the decomposition.

use super::EdgeTreePolicy;
use crate::bounds::Aabb;
use crate::geometry::predicates::orient;
use crate::geometry::{ConvexView, Shape};
use crate::math::{cross, right_perp, Pose, Vec2};
use glam::DVec2;

/// World-frame vertices of a convex view.
fn world_vertices(view: &ConvexView, pose: &Pose) -> Vec<Vec2> {
    view.vertices.iter().map(|&v| pose.apply_point(v)).collect()
}

/// World vertices in f64: areas of thin overlaps (1e-9 m² and less) vanish in f32
/// rounding, and the oracle must see every overlap the algorithms can.
fn world_vertices64(view: &ConvexView, pose: &Pose) -> Vec<DVec2> {
    let (c, s) = (pose.rotation.cos as f64, pose.rotation.sin as f64);
    let t = pose.translation.as_dvec2();
    view.vertices
        .iter()
        .map(|v| {
            let v = v.as_dvec2();
            DVec2::new(c * v.x - s * v.y, s * v.x + c * v.y) + t
        })
        .collect()
}

/// Signed area of a counter-clockwise polygon (shoelace).
fn area(poly: &[DVec2]) -> f64 {
    let n = poly.len();
    0.5 * (0..n).map(|i| poly[i].perp_dot(poly[(i + 1) % n])).sum::<f64>()
}

/// Sutherland–Hodgman: `subject` clipped by convex counter-clockwise `clip`.
fn clip_convex(subject: &[DVec2], clip: &[DVec2]) -> Vec<DVec2> {
    let mut out = subject.to_vec();
    let n = clip.len();
    for i in 0..n {
        if out.is_empty() {
            break;
        }
        let (c0, c1) = (clip[i], clip[(i + 1) % n]);
        let e = c1 - c0;
        let input = std::mem::take(&mut out);
        let m = input.len();
        for k in 0..m {
            let p = input[k];
            let q = input[(k + 1) % m];
            let dp = e.perp_dot(p - c0);
            let dq = e.perp_dot(q - c0);
            if dp >= 0.0 {
                out.push(p);
            }
            if (dp >= 0.0) != (dq >= 0.0) {
                out.push(p + (q - p) * (dp / (dp - dq)));
            }
        }
    }
    out
}

/// Area of the intersection of two shapes (polygons and segments; a segment has no
/// area). Circles are not supported and give 0.
pub fn overlap_area(a: &Shape, pose_a: &Pose, b: &Shape, pose_b: &Pose) -> f32 {
    if !matches!(a, Shape::Polygon(_)) || !matches!(b, Shape::Polygon(_)) {
        return 0.0;
    }
    let pieces_b: Vec<Vec<DVec2>> = (0..b.piece_count())
        .map(|j| world_vertices64(&b.piece(j), pose_b))
        .collect();
    let mut total = 0.0f64;
    for i in 0..a.piece_count() {
        let pa = world_vertices64(&a.piece(i), pose_a);
        for pb in &pieces_b {
            let clipped = clip_convex(&pa, pb);
            if clipped.len() >= 3 {
                total += area(&clipped).max(0.0);
            }
        }
    }
    total as f32
}

/// [`overlap_area`] with the piece pairs found by descending both polygons' piece trees
/// (Liu et al.'s (2018) hierarchy; `geometry::edge_tree`) instead of trying every pair: only pieces
/// whose boxes overlap are clipped. Pieces with disjoint boxes have an empty
/// intersection, so the area is the same up to the order of the f64 sum (relative
/// 1e-12). Returns the area and the box tests done.
pub fn overlap_area_tree(a: &Shape, pose_a: &Pose, b: &Shape, pose_b: &Pose) -> (f32, u32) {
    let (Shape::Polygon(pa), Shape::Polygon(pb)) = (a, b) else {
        return (0.0, 0);
    };
    // Conservative: B's boxes are turned into A's frame in f32; grow them by 16 ulps of
    // the scale so rounding never culls a pair that touches.
    let margin = 16.0 * f32::EPSILON * super::query_scale(a, pose_a, b, pose_b);
    let mut world_b: Vec<Option<Vec<DVec2>>> = vec![None; b.piece_count()];
    let mut world_a: Vec<Option<Vec<DVec2>>> = vec![None; a.piece_count()];
    let mut total = 0.0f64;
    let tests = pa
        .piece_tree()
        .for_each_overlapping_pair(pose_a, pb.piece_tree(), pose_b, margin, |i, j| {
            let va = world_a[i].get_or_insert_with(|| world_vertices64(&a.piece(i), pose_a));
            let vb = world_b[j].get_or_insert_with(|| world_vertices64(&b.piece(j), pose_b));
            let clipped = clip_convex(va, vb);
            if clipped.len() >= 3 {
                total += area(&clipped).max(0.0);
            }
        });
    (total as f32, tests)
}

/// The threshold of [`polygons_overlap`]: `1e-12` of the smaller shape's bounding-box area.
fn overlap_threshold(a: &Shape, b: &Shape) -> f32 {
    let box_area = |s: &Shape| {
        let bb = s.local_aabb();
        let d = bb.max - bb.min;
        d.x * d.y
    };
    1e-12 * box_area(a).min(box_area(b))
}

/// True when the shapes' interiors overlap: intersection area above `1e-12` of the
/// smaller shape's bounding-box area (the rounding of the f64 clipping, with room).
/// Goes through the piece trees ([`overlap_area_tree`]): measured faster than trying
/// every piece pair from 16 vertices on (1.5x there, 3x on gears and up to 1000x on a
/// 10,000-vertex coastline; `collision-lab bench --big-curve`).
/// [`polygons_overlap_with`] chooses.
pub fn polygons_overlap(a: &Shape, pose_a: &Pose, b: &Shape, pose_b: &Pose) -> bool {
    polygons_overlap_with(a, pose_a, b, pose_b, EdgeTreePolicy::Always)
}

/// [`polygons_overlap`] with the tree used or not as `policy` says for the larger
/// polygon's vertex count. The answer is the same either way.
pub fn polygons_overlap_with(a: &Shape, pose_a: &Pose, b: &Shape, pose_b: &Pose, policy: EdgeTreePolicy) -> bool {
    let vertex_count = |s: &Shape| match s {
        Shape::Polygon(p) => p.vertices().len(),
        _ => 0,
    };
    let area = if policy.uses_tree(vertex_count(a).max(vertex_count(b))) {
        overlap_area_tree(a, pose_a, b, pose_b).0
    } else {
        overlap_area(a, pose_a, b, pose_b)
    };
    area > overlap_threshold(a, b)
}

/// Convex hull, counter-clockwise, of a point set (Andrew's monotone chain), with the
/// turn test decided exactly ([`orient`]).
///
/// In f32 the test is noise for points a few ulps apart, and a piece's difference with
/// itself (or its rounded copy) has such points: a − a' for each vertex, all within
/// 1e-11 m of the origin. On a sliver triangle 32 µm across the chain took a turn
/// between two of them for a left turn, kept one as a hull vertex where the hull turns
/// right (the origin itself, 32 µm inside), and the oracle found the origin outside the
/// difference: depth 0 for a sliver on itself. The exact test makes the hull the true
/// hull of the rounded points.
pub(crate) fn convex_hull(points: &mut [Vec2]) -> Vec<Vec2> {
    points.sort_by(|p, q| p.x.total_cmp(&q.x).then(p.y.total_cmp(&q.y)));
    if points.len() < 3 {
        return points.to_vec();
    }
    let mut hull: Vec<Vec2> = Vec::with_capacity(points.len() + 1);
    for pass in 0..2 {
        let start = hull.len();
        let iter: Box<dyn Iterator<Item = &Vec2>> = if pass == 0 {
            Box::new(points.iter())
        } else {
            Box::new(points.iter().rev())
        };
        for &p in iter {
            while hull.len() >= start + 2 && orient(hull[hull.len() - 2], hull[hull.len() - 1], p) <= 0 {
                hull.pop();
            }
            hull.push(p);
        }
        hull.pop();
    }
    hull
}

/// `hull` without the vertices that end an edge shorter than `min_length` (metres).
/// Two pieces sharing a vertex put a near-duplicate pair of points next to the origin
/// in their difference (a − b for the shared vertex, a few ulps apart once B is placed
/// in A's frame): the hull then has an edge a few 1e-8 m long whose normal is rounding
/// noise, and a point well inside the difference tested outside it (identical bodies got
/// a depth of 0.574 where it is 0.587). Points closer than the tolerance are one point
/// at that tolerance.
fn without_short_edges(hull: Vec<Vec2>, min_length: f32) -> Vec<Vec2> {
    let mut kept: Vec<Vec2> = Vec::with_capacity(hull.len());
    for p in hull {
        if kept.last().is_none_or(|&q: &Vec2| (p - q).length() >= min_length) {
            kept.push(p);
        }
    }
    while kept.len() > 1 && (kept[kept.len() - 1] - kept[0]).length() < min_length {
        kept.pop();
    }
    kept
}

/// The exact minimum translation of A out of B.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ExactPenetration {
    /// Unit normal from A towards B (the MTV is `-normal * depth`).
    pub normal: Vec2,
    /// Penetration depth (metres).
    pub depth: f32,
}

/// The exact penetration of two polygons or segments (no circles), or `None` when their
/// Minkowski difference does not hold the origin strictly inside. See the module docs.
pub fn exact_penetration(a: &Shape, pose_a: &Pose, b: &Shape, pose_b: &Pose) -> Option<ExactPenetration> {
    exact_penetration_within(a, pose_a, b, pose_b, f32::INFINITY)
}

/// [`exact_penetration`] looking only within `radius` metres of the origin of A − B:
/// at the pieces' Minkowski differences M_ij whose boxes come that near, and at
/// boundary candidates that near. When the true depth is at most `radius` the answer is
/// the same: the nearest boundary point p of the union has |p| ≤ radius, every M_ij that
/// holds p or the origin meets that disk, and a candidate inside the disk that no M_ij
/// meeting the disk holds is held by none. `None` when they do not overlap or the depth
/// exceeds `radius` ([`penetration_search`] tells the two apart).
pub fn exact_penetration_within(
    a: &Shape,
    pose_a: &Pose,
    b: &Shape,
    pose_b: &Pose,
    radius: f32,
) -> Option<ExactPenetration> {
    match penetration_search(a, pose_a, b, pose_b, radius) {
        PenetrationSearch::Found(p) => Some(p),
        _ => None,
    }
}

/// What [`penetration_search`] found within its radius.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum PenetrationSearch {
    /// The origin is not strictly inside A − B: no penetration (or circles).
    Outside,
    /// They overlap deeper than the radius.
    Deeper,
    /// The exact penetration (depth ≤ radius).
    Found(ExactPenetration),
}

/// The search behind [`exact_penetration_within`], telling "no overlap" from "deeper
/// than `radius`".
///
/// The search runs in A's frame (B's pose relative to A computed once, A at the
/// identity) and turns the normal back: in the world frame, the posed vertices of a
/// pair 10 km from the origin are rounded to a millimetre, and two 1 m squares
/// overlapping by 44.7 mm at (9000, 9000) got a depth 0.6 mm short. The tolerance stays
/// the one of the world poses, so "touching" means what it means to the narrow phase.
pub fn penetration_search(a: &Shape, pose_a: &Pose, b: &Shape, pose_b: &Pose, radius: f32) -> PenetrationSearch {
    if matches!(a, Shape::Circle(_)) || matches!(b, Shape::Circle(_)) {
        return PenetrationSearch::Outside;
    }
    let tol = 16.0 * f32::EPSILON * super::query_scale(a, pose_a, b, pose_b);
    match penetration_search_in_a(a, b, &pose_a.inv_mul(pose_b), radius, tol) {
        PenetrationSearch::Found(p) => PenetrationSearch::Found(ExactPenetration {
            normal: pose_a.rotation.apply(p.normal),
            depth: p.depth,
        }),
        other => other,
    }
}

/// [`penetration_search`] with A at the identity and B at `xf_ab` (B in A's frame);
/// `tol` (metres) is the "strictly inside" tolerance.
fn penetration_search_in_a(a: &Shape, b: &Shape, xf_ab: &Pose, radius: f32, tol: f32) -> PenetrationSearch {
    use PenetrationSearch::{Deeper, Found, Outside};
    let (pose_a, pose_b) = (&Pose::IDENTITY, xf_ab);
    let pieces_a: Vec<Vec<Vec2>> = (0..a.piece_count())
        .map(|i| world_vertices(&a.piece(i), pose_a))
        .collect();
    let pieces_b: Vec<Vec<Vec2>> = (0..b.piece_count())
        .map(|j| world_vertices(&b.piece(j), pose_b))
        .collect();
    let boxes_a: Vec<Aabb> = pieces_a.iter().map(|p| Aabb::from_points(p)).collect();
    let boxes_b: Vec<Aabb> = pieces_b.iter().map(|p| Aabb::from_points(p)).collect();
    // Box of M_ij = box(A_i) − box(B_j); its distance from the origin.
    let near = |ba: &Aabb, bb: &Aabb| {
        let (lo, hi) = (ba.min - bb.max, ba.max - bb.min);
        let gap = (lo.max(-hi)).max(Vec2::ZERO);
        radius.is_infinite() || gap.length() <= radius + tol
    };
    let mut hulls: Vec<Vec<Vec2>> = Vec::new();
    for (pa, ba) in pieces_a.iter().zip(&boxes_a) {
        for (pb, bb) in pieces_b.iter().zip(&boxes_b) {
            if !near(ba, bb) {
                continue;
            }
            let mut diffs: Vec<Vec2> = pa.iter().flat_map(|&p| pb.iter().map(move |&q| p - q)).collect();
            let hull = without_short_edges(convex_hull(&mut diffs), tol);
            if hull.len() >= 3 {
                hulls.push(hull);
            }
        }
    }
    let strictly_inside = |p: Vec2, hull: &[Vec2]| {
        let n = hull.len();
        (0..n).all(|i| {
            let normal = right_perp(hull[(i + 1) % n] - hull[i]).normalize_or_zero();
            normal.dot(p - hull[i]) < -tol
        })
    };
    if !hulls.iter().any(|h| strictly_inside(Vec2::ZERO, h)) {
        return Outside;
    }
    // Within a finite radius only edges that come that near the origin can give a
    // candidate that near (for an infinite radius: every edge, the brute force).
    let reach = radius + tol;
    let near_origin = |p0: Vec2, p1: Vec2| {
        let e = p1 - p0;
        let t = (-p0.dot(e) / e.length_squared().max(f32::MIN_POSITIVE)).clamp(0.0, 1.0);
        (p0 + e * t).length() <= reach
    };
    let edges: Vec<(usize, Vec2, Vec2)> = hulls
        .iter()
        .enumerate()
        .flat_map(|(k, h)| (0..h.len()).map(move |i| (k, h[i], h[(i + 1) % h.len()])))
        .filter(|&(_, p0, p1)| radius.is_infinite() || near_origin(p0, p1))
        .collect();
    let hull_boxes: Vec<Aabb> = hulls.iter().map(|h| Aabb::from_points(h)).collect();
    let mut candidates: Vec<Vec2> = Vec::new();
    for &(_, p0, p1) in &edges {
        candidates.push(p0);
        let e = p1 - p0;
        let t = -p0.dot(e) / e.length_squared().max(f32::MIN_POSITIVE);
        if (0.0..=1.0).contains(&t) {
            candidates.push(p0 + e * t);
        }
    }
    for (x, &(kx, p0, p1)) in edges.iter().enumerate() {
        for &(ky, q0, q1) in &edges[x + 1..] {
            if kx == ky {
                continue;
            }
            let (r, s) = (p1 - p0, q1 - q0);
            let denom = cross(r, s);
            if denom.abs() <= f32::EPSILON * r.length() * s.length() {
                continue;
            }
            let t = cross(q0 - p0, s) / denom;
            let u = cross(q0 - p0, r) / denom;
            if (0.0..=1.0).contains(&t) && (0.0..=1.0).contains(&u) {
                candidates.push(p0 + r * t);
            }
        }
    }
    candidates.retain(|p| p.length() <= reach);
    candidates.sort_by(|p, q| p.length_squared().total_cmp(&q.length_squared()));
    // A hull can only hold a point its box holds. A point on the edges of several hulls
    // and strictly inside none can still be an inner point of their union: two pieces
    // of B sharing a diagonal give two differences sharing an edge, and a point of that
    // edge is inside the union (it was taken for the nearest boundary point, 0.574 where
    // the depth is 0.587). So such a point counts as held when the hulls around it cover
    // every direction out of it (`covered_around`).
    let held = |p: Vec2| {
        let grown = |bb: &Aabb| Aabb::new(bb.min - Vec2::splat(tol), bb.max + Vec2::splat(tol));
        let around: Vec<&Vec<Vec2>> = hulls
            .iter()
            .zip(&hull_boxes)
            .filter(|(_, bb)| grown(bb).contains(p))
            .map(|(h, _)| h)
            .collect();
        around.iter().any(|h| strictly_inside(p, h)) || covered_around(p, &around, tol)
    };
    let Some(p) = candidates.into_iter().find(|&p| !held(p)) else {
        return Deeper;
    };
    let depth = p.length();
    // The MTV is −p; the normal from A to B is p's direction.
    Found(ExactPenetration {
        normal: p / depth.max(f32::MIN_POSITIVE),
        depth,
    })
}

/// Whether the hulls (convex, counter-clockwise) that hold `p` within `tol` together
/// cover a small disc around it: near `p` each such hull is a cone of directions (a
/// half-plane when `p` is on one of its edges, the corner's angle at a vertex), and `p`
/// is an inner point of their union exactly when those cones cover the full circle.
/// Angles are compared with a slack of 1e-4 rad: two hulls sharing an edge give
/// complementary half-planes whose rounded normals differ by a few ulps.
fn covered_around(p: Vec2, hulls: &[&Vec<Vec2>], tol: f32) -> bool {
    use std::f64::consts::{PI, TAU};
    const SLACK: f64 = 1e-4;
    // Each cone as an interval of angles [start, start + length], start in [0, 2π).
    let mut cones: Vec<(f64, f64)> = Vec::new();
    for h in hulls {
        let n = h.len();
        let outward = |i: usize| right_perp(h[(i + 1) % n] - h[i]).normalize_or_zero();
        let offsets: Vec<f32> = (0..n).map(|i| outward(i).dot(p - h[i])).collect();
        if offsets.iter().any(|&d| d > tol) {
            continue; // p is outside this hull
        }
        // The edges p lies on: each keeps the directions d with outward·d ≤ 0, an
        // interval of length π starting a quarter turn past the outward normal.
        let mut cone: Option<(f64, f64)> = None;
        for i in (0..n).filter(|&i| offsets[i] >= -tol) {
            let normal = outward(i);
            let start = (f64::from(normal.y).atan2(f64::from(normal.x)) + 0.5 * PI).rem_euclid(TAU);
            cone = Some(match cone {
                None => (start, PI),
                Some(c) => intersect_arcs(c, (start, PI)),
            });
        }
        if let Some(c) = cone {
            if c.1 > 0.0 {
                cones.push(c);
            }
        }
    }
    // Sweep once round the circle from 0, unrolling each arc that wraps past 2π.
    let mut arcs: Vec<(f64, f64)> = Vec::new();
    for (start, length) in cones {
        let end = start + length;
        arcs.push((start, end.min(TAU)));
        if end > TAU {
            arcs.push((0.0, end - TAU));
        }
    }
    arcs.sort_by(|a, b| a.0.total_cmp(&b.0));
    let mut reached = 0.0f64;
    for (start, end) in arcs {
        if start > reached + SLACK {
            return false;
        }
        reached = reached.max(end);
    }
    reached >= TAU - SLACK
}

/// The intersection of two arcs of the circle (start in [0, 2π), length ≤ π): an arc
/// (its length 0 when they do not meet). Arcs of length at most π meet in one arc.
fn intersect_arcs(a: (f64, f64), b: (f64, f64)) -> (f64, f64) {
    use std::f64::consts::TAU;
    // b's start seen from a's start, in [0, 2π).
    let offset = (b.0 - a.0).rem_euclid(TAU);
    if offset <= a.1 {
        // b starts inside a.
        (b.0, b.1.min(a.1 - offset))
    } else if TAU - offset <= b.1 {
        // a starts inside b.
        (a.0, a.1.min(b.1 - (TAU - offset)))
    } else {
        (a.0, 0.0)
    }
}

#[cfg(test)]
mod cover_tests {
    use super::*;

    fn square(min: Vec2, max: Vec2) -> Vec<Vec2> {
        vec![min, Vec2::new(max.x, min.y), max, Vec2::new(min.x, max.y)]
    }

    #[test]
    fn a_point_on_an_edge_two_squares_share_is_covered() {
        let left = square(Vec2::new(-1.0, -1.0), Vec2::new(0.0, 1.0));
        let right = square(Vec2::new(0.0, -1.0), Vec2::new(1.0, 1.0));
        assert!(covered_around(Vec2::new(0.0, 0.3), &[&left, &right], 1e-6));
        // On the outer edge of the pair: half the directions leave both.
        assert!(!covered_around(Vec2::new(0.5, 1.0), &[&left, &right], 1e-6));
        // One square alone never covers a point of its edge.
        assert!(!covered_around(Vec2::new(0.0, 0.3), &[&left], 1e-6));
    }

    #[test]
    fn a_corner_four_squares_share_is_covered_and_three_leave_a_gap() {
        let q = |x: f32, y: f32| square(Vec2::new(x, y), Vec2::new(x + 1.0, y + 1.0));
        let (a, b, c, d) = (q(0.0, 0.0), q(-1.0, 0.0), q(-1.0, -1.0), q(0.0, -1.0));
        assert!(covered_around(Vec2::ZERO, &[&a, &b, &c, &d], 1e-6));
        assert!(!covered_around(Vec2::ZERO, &[&a, &b, &c], 1e-6));
    }

    #[test]
    fn near_duplicate_hull_points_become_one() {
        let hull = vec![
            Vec2::new(-1.0, 1.0),
            Vec2::new(3.7e-9, 1.5e-8),
            Vec2::new(1.5e-8, -7.5e-9),
            Vec2::new(1.0, -1.0),
            Vec2::new(1.0, 1.0 - 1e-9),
            Vec2::new(1.0, 1.0),
        ];
        let kept = without_short_edges(hull, 1e-6);
        assert_eq!(
            kept,
            vec![
                Vec2::new(-1.0, 1.0),
                Vec2::new(3.7e-9, 1.5e-8),
                Vec2::new(1.0, -1.0),
                Vec2::new(1.0, 1.0 - 1e-9)
            ]
        );
    }

    #[test]
    fn arcs_intersect_as_on_the_circle() {
        use std::f64::consts::{FRAC_PI_2, PI};
        let (s, l) = intersect_arcs((0.0, PI), (FRAC_PI_2, PI));
        assert!((s - FRAC_PI_2).abs() < 1e-12 && (l - FRAC_PI_2).abs() < 1e-12);
        // Wrapping: [3π/2, 5π/2] and [0, π] meet in [0, π/2].
        let (s, l) = intersect_arcs((1.5 * PI, PI), (0.0, PI));
        assert!(s.abs() < 1e-12 && (l - FRAC_PI_2).abs() < 1e-12);
        assert_eq!(intersect_arcs((0.0, 0.5), (PI, 0.5)).1, 0.0);
    }
}
