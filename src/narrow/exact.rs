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

/// True when the shapes' interiors overlap: intersection area above `1e-12` of the
/// smaller shape's bounding-box area (the rounding of the f64 clipping, with room).
pub fn polygons_overlap(a: &Shape, pose_a: &Pose, b: &Shape, pose_b: &Pose) -> bool {
    let box_area = |s: &Shape| {
        let bb = s.local_aabb();
        let d = bb.max - bb.min;
        d.x * d.y
    };
    overlap_area(a, pose_a, b, pose_b) > 1e-12 * box_area(a).min(box_area(b))
}

/// Convex hull, counter-clockwise, of a point set (Andrew's monotone chain).
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
            while hull.len() >= start + 2
                && cross(hull[hull.len() - 1] - hull[hull.len() - 2], p - hull[hull.len() - 2]) <= 0.0
            {
                hull.pop();
            }
            hull.push(p);
        }
        hull.pop();
    }
    hull
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
    if matches!(a, Shape::Circle(_)) || matches!(b, Shape::Circle(_)) {
        return None;
    }
    let scale = super::query_scale(a, pose_a, b, pose_b);
    let tol = 16.0 * f32::EPSILON * scale;
    let pieces_a: Vec<Vec<Vec2>> = (0..a.piece_count())
        .map(|i| world_vertices(&a.piece(i), pose_a))
        .collect();
    let pieces_b: Vec<Vec<Vec2>> = (0..b.piece_count())
        .map(|j| world_vertices(&b.piece(j), pose_b))
        .collect();
    let mut hulls: Vec<Vec<Vec2>> = Vec::new();
    for pa in &pieces_a {
        for pb in &pieces_b {
            let mut diffs: Vec<Vec2> = pa.iter().flat_map(|&p| pb.iter().map(move |&q| p - q)).collect();
            let hull = convex_hull(&mut diffs);
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
        return None;
    }
    let edges: Vec<(usize, Vec2, Vec2)> = hulls
        .iter()
        .enumerate()
        .flat_map(|(k, h)| (0..h.len()).map(move |i| (k, h[i], h[(i + 1) % h.len()])))
        .collect();
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
    candidates.sort_by(|p, q| p.length_squared().total_cmp(&q.length_squared()));
    let p = candidates
        .into_iter()
        .find(|&p| !hulls.iter().any(|h| strictly_inside(p, h)))?;
    let depth = p.length();
    // The MTV is −p; the normal from A to B is p's direction.
    Some(ExactPenetration {
        normal: p / depth.max(f32::MIN_POSITIVE),
        depth,
    })
}
