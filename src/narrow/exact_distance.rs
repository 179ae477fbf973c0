//! Exact signed distance between two polygons (or segments), fast enough to place
//! thousands of benchmark pairs at a chosen distance (Liu et al.'s (2018) fixed-distance poses).
//!
//! - Separated or touching: the distance is the least distance between an edge of A and
//!   an edge of B (two disjoint simple polygons, neither inside the other, are closest
//!   on their boundaries). Found by branch and bound over the two edge trees
//!   (`geometry::edge_tree`): node pairs whose boxes are further apart than the best
//!   edge pair so far are skipped. Segment distances in f64.
//! - Overlapping: minus the exact penetration depth of `exact.rs` — the distance from
//!   the origin to the boundary of A − B, the union of the pieces' Minkowski
//!   differences — restricted to the M_ij that come within an upper bound U of the
//!   origin ([`exact::exact_penetration_within`]). U is proven, not guessed: moving A
//!   along any unit axis u by the overlap of the two shapes' projections on u leaves the
//!   projections disjoint, hence the shapes; so U = the least such overlap over the
//!   edge normals of both shapes and 16 evenly spread axes bounds the true depth. The
//!   brute-force oracle's O(E²) then runs on a handful of piece pairs near the contact
//!   instead of all of them. Tests compare it with the unrestricted oracle.
//!
//! The sign convention is the benchmark's: negative = penetration depth, zero =
//! touching, positive = gap (metres).

use super::exact::{self, ExactPenetration, PenetrationSearch};
use crate::geometry::{EdgeTree, Shape};
use crate::math::{right_perp, Pose, Vec2};
use glam::DVec2;
use std::borrow::Cow;
use std::f32::consts::TAU;

/// The outline of a polygon or segment and its edge tree (a segment's is built here).
fn outline(shape: &Shape) -> Option<(&[Vec2], Cow<'_, EdgeTree>)> {
    match shape {
        Shape::Polygon(p) => Some((p.vertices(), Cow::Borrowed(p.edge_tree()))),
        Shape::Segment(_) => {
            let v = shape.whole().vertices;
            Some((v, Cow::Owned(EdgeTree::over_edges(v))))
        }
        Shape::Circle(_) => None,
    }
}

/// An upper bound on the penetration depth of A into B (metres; 0 when some tested axis
/// separates them). See the module docs.
pub fn depth_upper_bound(a: &Shape, pose_a: &Pose, b: &Shape, pose_b: &Pose) -> f32 {
    let (Some((va, ta)), Some((vb, tb))) = (outline(a), outline(b)) else {
        return f32::INFINITY;
    };
    let edge_normals = |v: &[Vec2], pose: &Pose| -> Vec<Vec2> {
        let n = v.len();
        (0..n)
            .map(|i| pose.apply_vector(right_perp(v[(i + 1) % n] - v[i]).normalize_or_zero()))
            .collect()
    };
    let mut axes = edge_normals(va, pose_a);
    axes.extend(edge_normals(vb, pose_b));
    axes.extend((0..16).map(|k| Vec2::from_angle(k as f32 * TAU / 32.0)));
    let mut bound = f32::INFINITY;
    for world_axis in axes {
        if world_axis == Vec2::ZERO {
            continue;
        }
        let project = |v: &[Vec2], tree: &EdgeTree, pose: &Pose| {
            let ((lo, hi), _) = tree.project(v, pose.apply_inv_vector(world_axis));
            let shift = pose.translation.dot(world_axis);
            (lo + shift, hi + shift)
        };
        let (a0, a1) = project(va, &ta, pose_a);
        let (b0, b1) = project(vb, &tb, pose_b);
        let overlap = (a1 - b0).min(b1 - a0);
        if overlap <= 0.0 {
            return 0.0;
        }
        bound = bound.min(overlap);
    }
    bound
}

/// The exact penetration of A into B (as [`exact::exact_penetration`]), searching only
/// near the origin of A − B. `None` when they do not overlap.
pub fn exact_penetration_fast(a: &Shape, pose_a: &Pose, b: &Shape, pose_b: &Pose) -> Option<ExactPenetration> {
    let bound = depth_upper_bound(a, pose_a, b, pose_b);
    if bound <= 0.0 {
        return None;
    }
    // The bound is computed in f32: widen it by a relative 1e-4 so rounding of the
    // projections can never make the disk miss the true nearest boundary point.
    exact::exact_penetration_within(a, pose_a, b, pose_b, bound * 1.0001 + 1e-6 * a.size().max(b.size()))
}

/// Distance between segments p0–p1 and q0–q1 (f64; 0 when they cross or touch).
fn segment_distance(p0: DVec2, p1: DVec2, q0: DVec2, q1: DVec2) -> f64 {
    let orient = |a: DVec2, b: DVec2, c: DVec2| (b - a).perp_dot(c - a);
    let (d1, d2) = (orient(p0, p1, q0), orient(p0, p1, q1));
    let (d3, d4) = (orient(q0, q1, p0), orient(q0, q1, p1));
    if d1 * d2 < 0.0 && d3 * d4 < 0.0 {
        return 0.0;
    }
    let point_segment = |p: DVec2, a: DVec2, b: DVec2| {
        let e = b - a;
        let t = ((p - a).dot(e) / e.length_squared().max(f64::MIN_POSITIVE)).clamp(0.0, 1.0);
        (a + e * t - p).length()
    };
    point_segment(p0, q0, q1)
        .min(point_segment(p1, q0, q1))
        .min(point_segment(q0, p0, p1))
        .min(point_segment(q1, p0, p1))
}

/// Least distance between the outlines of A and B (metres; 0 when they cross or touch).
/// Not the distance between the regions: a polygon inside another is at distance 0
/// only if their outlines meet — [`signed_distance`] handles overlap first.
pub fn outline_distance(a: &Shape, pose_a: &Pose, b: &Shape, pose_b: &Pose) -> f32 {
    let (Some((va, ta)), Some((vb, tb))) = (outline(a), outline(b)) else {
        return f32::NAN;
    };
    // Everything in A's frame, in f64.
    let xf_ab = pose_a.inv_mul(pose_b);
    let (c, s) = (xf_ab.rotation.cos as f64, xf_ab.rotation.sin as f64);
    let t = xf_ab.translation.as_dvec2();
    let b_in_a = |v: Vec2| {
        let v = v.as_dvec2();
        DVec2::new(c * v.x - s * v.y, s * v.x + c * v.y) + t
    };
    let (na, nb) = (va.len(), vb.len());
    let edges_a = if na == 2 { 1 } else { na };
    let edges_b = if nb == 2 { 1 } else { nb };
    // The trees are in each shape's local frame; distances of items are measured in A's.
    ta.min_item_distance(&Pose::default(), &tb, &xf_ab, |i, j| {
        if i >= edges_a || j >= edges_b {
            return f32::INFINITY;
        }
        let (p0, p1) = (va[i].as_dvec2(), va[(i + 1) % na].as_dvec2());
        let (q0, q1) = (b_in_a(vb[j]), b_in_a(vb[(j + 1) % nb]));
        segment_distance(p0, p1, q0, q1) as f32
    })
}

/// Signed distance of A and B: minus the exact penetration depth when they overlap, the
/// distance between their outlines otherwise (metres). See the module docs.
pub fn signed_distance(a: &Shape, pose_a: &Pose, b: &Shape, pose_b: &Pose) -> f32 {
    match exact_penetration_fast(a, pose_a, b, pose_b) {
        Some(p) => -p.depth,
        None => outline_distance(a, pose_a, b, pose_b),
    }
}

/// Signed distance as [`signed_distance`], but with the depth searched only up to
/// `cap` metres (cheap: only the pieces near the contact are looked at); −∞ when they
/// overlap deeper than `cap`. What the placement's bisection and the benchmark's
/// "does the MTV separate" check need.
pub fn signed_distance_capped(a: &Shape, pose_a: &Pose, b: &Shape, pose_b: &Pose, cap: f32) -> f32 {
    match exact::penetration_search(a, pose_a, b, pose_b, cap) {
        PenetrationSearch::Found(p) => -p.depth,
        PenetrationSearch::Deeper => f32::NEG_INFINITY,
        PenetrationSearch::Outside => outline_distance(a, pose_a, b, pose_b),
    }
}

/// Places B so that its signed distance to A is `target` metres: B turned by
/// `angle_b` radians, its origin at `pose_a.translation + direction · s`, with s found by
/// bisection on [0, `reach`] (Liu et al.'s (2018) fixed-distance poses). `direction` is a unit
/// world vector.
///
/// Bisection needs the signed distance below the target at s = 0 and above it at
/// s = `reach`; `None` when that fails (a pose where B's origin on A's still leaves them
/// apart, e.g. a thin spiral turned into its own gap — draw another pose). The signed
/// distance of non-convex shapes need not grow monotonically with s, so the answer is
/// one crossing, not necessarily the first. Returns B's pose and the signed distance
/// reached there, within a few f32 steps of s of the target (48 halvings).
pub fn place_at_distance(
    a: &Shape,
    pose_a: &Pose,
    b: &Shape,
    angle_b: f32,
    direction: Vec2,
    target: f32,
    reach: f32,
) -> Option<(Pose, f32)> {
    let pose_at = |s: f32| Pose::new(pose_a.translation + direction * s, angle_b);
    // Only the sign of f − target steers the bisection, so depths beyond twice the
    // target (plus 0.5% of the size) need not be computed exactly.
    let cap = 2.0 * (-target).max(0.0) + 0.005 * a.size().max(b.size());
    let f = |s: f32| signed_distance_capped(a, pose_a, b, &pose_at(s), cap);
    let (mut lo, mut hi) = (0.0f32, reach);
    let (f_lo, f_hi) = (f(lo), f(hi));
    if !(f_lo < target && f_hi > target) {
        return None;
    }
    let mut best = if target - f_lo < f_hi - target {
        (lo, f_lo)
    } else {
        (hi, f_hi)
    };
    for _ in 0..48 {
        if (best.1 - target).abs() <= 1e-7 * reach {
            break;
        }
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            break;
        }
        let d = f(mid);
        if (d - target).abs() < (best.1 - target).abs() {
            best = (mid, d);
        }
        if d < target {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    Some((pose_at(best.0), best.1))
}

/// Extent of `shape` at `pose` along `d`: max over its polygon's vertices of ⟨v, d⟩
/// (world frame; 0 for other shapes).
fn extent_along(shape: &Shape, pose: &Pose, d: Vec2) -> f32 {
    let Shape::Polygon(p) = shape else { return 0.0 };
    p.vertices()
        .iter()
        .map(|&v| pose.apply_point(v).dot(d))
        .fold(f32::NEG_INFINITY, f32::max)
}

/// How far along `d` B's origin (B turned by `angle_b`) must be for the shapes to just
/// touch: bisection (32 halvings) on the exact overlap test through the edge trees,
/// from the offset where their extents on `d` separate, plus `slack_m`, down to where
/// they overlap. `None` when they do not overlap even with B's origin at A's. What
/// `bench --big-query` and `examples/big_query_workload.rs` place their pairs with.
pub fn touching_offset(a: &Shape, pose_a: &Pose, b: &Shape, angle_b: f32, d: Vec2, slack_m: f32) -> Option<f32> {
    let turned = Pose::new(Vec2::ZERO, angle_b);
    let overlap = |t: f32| {
        exact::polygons_overlap_with(
            a,
            pose_a,
            b,
            &Pose::new(d * t, angle_b),
            crate::narrow::EdgeTreePolicy::Always,
        )
    };
    let mut apart = extent_along(a, pose_a, d) + extent_along(b, &turned, -d) + slack_m;
    let mut inside = 0.0f32;
    if !overlap(inside) {
        return None;
    }
    for _ in 0..32 {
        let mid = 0.5 * (apart + inside);
        if overlap(mid) {
            inside = mid;
        } else {
            apart = mid;
        }
    }
    Some(inside)
}
