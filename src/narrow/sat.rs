//! The separating axis test for two convex polygons (or segments).
//!
//! Two convex shapes are disjoint exactly when some axis separates their projections,
//! and for polygons it is enough to try the edge normals of both (Gottschalk 1996;
//! Ericson, *Real-Time Collision Detection*, 4.4). When every axis overlaps, the axis of
//! least overlap gives the penetration: the depth is the smallest overlap, and since the
//! edge normals of both shapes are exactly the edge normals of the Minkowski difference
//! A − B, that smallest overlap is the exact penetration depth.
//!
//! Liu et al.'s (2018) lesson: never transform primitives one by one. Everything here happens in
//! A's local frame; B's vertices are projected by turning the *axis* into B's frame
//! (one rotation per axis) instead of turning B's vertices into A's frame.

use super::contact::Work;
use super::query::{PieceQuery, Recorder};
use super::trace::{AxisSource, Owner, SatAxisStep, TraceStep};
use super::PairPenetration;
use crate::math::Vec2;
use wide::{f32x4, f32x8};

mod lanes;
use lanes::project_lanes;
pub(crate) use lanes::{lane_higher, lane_lower, lane_lower_eight};

/// Interval of `view`'s vertices projected on `axis` (both in the view's local frame).
#[inline]
pub(crate) fn project_interval(vertices: &[Vec2], axis: Vec2) -> (f32, f32) {
    let mut lo = f32::INFINITY;
    let mut hi = f32::NEG_INFINITY;
    // Four independent running minima and maxima (lane k: vertices k, k + 4, …): one
    // chain would make every vertex wait for the previous comparison. Plain
    // comparisons, not f32::min/max: those also handle NaN, which costs extra
    // instructions on this hot loop, and a NaN coordinate cannot reach here (shapes and
    // poses are validated).
    let (lo4, hi4) = project_lanes(vertices, axis);
    for v in &vertices[vertices.len() / 4 * 4..] {
        let d = v.dot(axis);
        lo = if d < lo { d } else { lo };
        hi = if d > hi { d } else { hi };
    }
    for k in 0..4 {
        lo = if lo4[k] < lo { lo4[k] } else { lo };
        hi = if hi4[k] > hi { hi4[k] } else { hi };
    }
    (lo, hi)
}

/// Signed gap between two intervals: positive when they are apart, minus the overlap
/// otherwise.
#[inline]
pub(crate) fn interval_gap(a: (f32, f32), b: (f32, f32)) -> f32 {
    (b.0 - a.1).max(a.0 - b.1)
}

/// SAT on convex pieces `a` and `b` (radius 0). Returns the least-overlap axis as a
/// normal from A towards B with its depth (positive: overlap; otherwise the largest gap,
/// the test having stopped at the first separating axis).
///
/// The piece indices recorded in the trace come from `q.pieces`; `stop_at` is the gap
/// above which an axis counts as separating (the touching tolerance, or the speculative
/// margin).
pub(crate) fn penetration_sat(q: &PieceQuery, stop_at: f32, rec: &mut Recorder) -> PairPenetration {
    let (a, b, pose_a, xf_ab, pieces) = (&q.a, &q.b, &q.pose_a, q.xf_ab, q.pieces);
    let total = a.normals.len() + b.normals.len();
    // Best axis so far, in A's frame, oriented from A towards B.
    let mut best_gap = f32::NEG_INFINITY;
    let mut best_axis = Vec2::X;
    let mut index = 0;
    for (owner, normals) in [(Owner::A, a.normals), (Owner::B, b.normals)] {
        for (edge, &n) in normals.iter().enumerate() {
            let local_axis = match owner {
                Owner::A => n,
                Owner::B => xf_ab.apply_vector(n),
            };
            // B's projection: turn the axis into B's frame, project, shift by B's origin.
            let axis_in_b = xf_ab.apply_inv_vector(local_axis);
            let offset_b = xf_ab.translation.dot(local_axis);
            let ia = project_interval(a.vertices, local_axis);
            let ib = project_interval(b.vertices, axis_in_b);
            let ib = (ib.0 + offset_b, ib.1 + offset_b);
            let gap = interval_gap(ia, ib);
            rec.work.axes_tested += 1;
            rec.work.vertices_scanned += (a.vertices.len() + b.vertices.len()) as u32;
            let new_minimum = gap > best_gap;
            if new_minimum {
                best_gap = gap;
                // Orient from A towards B: if B lies on the positive side of A along the
                // axis, the overlap is ia.max − ib.min and the normal is +axis.
                best_axis = if ib.1 - ia.0 >= ia.1 - ib.0 {
                    local_axis
                } else {
                    -local_axis
                };
            }
            rec.record(|| {
                let world_axis = pose_a.apply_vector(local_axis);
                let shift = pose_a.translation.dot(world_axis);
                TraceStep::SatAxis(SatAxisStep {
                    index,
                    total,
                    source: AxisSource::Edge {
                        owner,
                        piece: if owner == Owner::A { pieces.0 } else { pieces.1 },
                        edge,
                    },
                    axis: world_axis,
                    interval_a: (ia.0 + shift, ia.1 + shift),
                    interval_b: (ib.0 + shift, ib.1 + shift),
                    gap,
                    new_minimum,
                })
            });
            index += 1;
            if gap > stop_at {
                // A separating axis: the shapes are disjoint, no need to look further.
                return PairPenetration {
                    normal: pose_a.apply_vector(best_axis),
                    depth: -gap,
                };
            }
        }
    }
    PairPenetration {
        normal: pose_a.apply_vector(best_axis),
        depth: -best_gap,
    }
}

/// Whether every edge normal has an opposite one (to a few ulps): true for boxes and for
/// any centrally symmetric polygon, whose normals come in antiparallel pairs half a turn
/// apart.
pub(crate) fn centrally_symmetric(normals: &[Vec2]) -> bool {
    let n = normals.len();
    let half = n / 2;
    n % 2 == 0 && (0..half).all(|i| (normals[i] + normals[i + half]).length_squared() <= 1e-12)
}

/// From this many vertices on, the deepest vertex of the other shape below an edge is
/// found by hill climbing from the previous edge's instead of by a scan. Walking a
/// polygon's edges in order turns their normals counter-clockwise, and the other shape's
/// vertex farthest against the normal moves forward around its ring with them (rotating
/// calipers; Shamos 1978, Toussaint, "Solving geometric problems with the rotating
/// calipers", 1983), so all edges together cost O(n + m) dots instead of O(n·m). A box has
/// too few vertices for the branches to pay (a scan of 4 is 4 independent dots); an
/// octagon has enough (measured with `collision-lab bench --families convex`).
pub(crate) const CLIMB_MIN_VERTICES: usize = 6;

/// Up to this many vertices of the other shape, a polygon of more than four edges scans
/// eight of its edges at once ([`lowest_of_eight`]) instead of climbing: eight lanes of
/// independent dots beat the climb's dependent, branching ones. Measured with
/// `collision-lab bench --families convex --vertices N`, overlapping pairs, SatDecomposed,
/// medians of nine to fifteen alternating runs each (2026-11-28; parry2d 0.7–1.4 µs in
/// the same runs): 8 vertices 229 → 192 ns, 12 vertices 401 → 350 ns, 16 vertices 481 →
/// 369 ns; 6 vertices 201 → 212 ns (within the runs' spread; their fastest 193 → 171).
/// The scan's dots grow as n·m, the climb's as n + m: 24 vertices were not tried.
pub(crate) const WIDE_SCAN_MAX_VERTICES: usize = 16;

/// The vertex of `vertices` (a convex ring) least along `normal`, by hill climbing from
/// `start`: forward while the dot falls, else backward while it falls. A convex ring's
/// dots are unimodal along it, so the first vertex with no lower neighbour is the
/// lowest (up to rounding between vertices whose dots tie, which are equally low).
/// Returns (index, dot, dots computed).
#[inline]
pub(crate) fn climb_lowest(vertices: &[Vec2], normal: Vec2, start: usize) -> (usize, f32, u32) {
    let n = vertices.len();
    let (mut at, mut lowest) = (start, normal.dot(vertices[start]));
    let mut dots = 1;
    let mut moved = false;
    loop {
        let next = if at + 1 == n { 0 } else { at + 1 };
        let d = normal.dot(vertices[next]);
        dots += 1;
        if d < lowest {
            (at, lowest, moved) = (next, d, true);
        } else {
            break;
        }
    }
    if !moved {
        loop {
            let prev = if at == 0 { n - 1 } else { at - 1 };
            let d = normal.dot(vertices[prev]);
            dots += 1;
            if d < lowest {
                (at, lowest) = (prev, d);
            } else {
                break;
            }
        }
    }
    (at, lowest, dots)
}

/// The vertex of `vertices` least along `normal`, by a scan (ties to the lowest index).
/// Returns (index, dot).
#[inline]
pub(crate) fn scan_lowest(vertices: &[Vec2], normal: Vec2) -> (usize, f32) {
    let (mut at, mut lowest) = (0, f32::INFINITY);
    for (k, v) in vertices.iter().enumerate() {
        let d = normal.dot(*v);
        if d < lowest {
            (at, lowest) = (k, d);
        }
    }
    (at, lowest)
}

/// The separations of `others` (one shape's vertices) from each edge of the other shape
/// (edge k starts at `on_edge[k]`, its outward unit normal is `normal(k)`), in edge order:
/// calls `visit(normal, gap)` for each until it returns true (stop). Counts the dots in
/// `work` as if the edges were done one by one (the ones after a stop are not counted).
#[inline]
pub(crate) fn edge_separations(
    on_edge: &[Vec2],
    normal: impl Fn(usize) -> Vec2,
    others: &[Vec2],
    work: &mut Work,
    mut visit: impl FnMut(Vec2, f32) -> bool,
) {
    // Several edges at once, one per lane. Each lane takes the same minimum of the same
    // dots in the same order as a scalar scan, so the gaps are the same to the bit; an
    // edge group past a stop costs up to seven edges' dots for nothing, but the step's
    // pairs mostly overlap (every edge is tried) and small rings scanned one edge at a
    // time spent most of their instructions on the loop, not the dots.
    if on_edge.len() > 4 && others.len() <= WIDE_SCAN_MAX_VERTICES {
        scan_edge_groups(on_edge, &normal, others, work, &mut visit, lowest_of_eight);
        return;
    }
    if others.len() < CLIMB_MIN_VERTICES {
        scan_edge_groups(on_edge, &normal, others, work, &mut visit, lowest_of_four);
        return;
    }
    let mut deepest = 0;
    for (k, &start) in on_edge.iter().enumerate() {
        let n = normal(k);
        let (at, lowest, dots) = if k > 0 {
            climb_lowest(others, n, deepest)
        } else {
            let (at, lowest) = scan_lowest(others, n);
            (at, lowest, others.len() as u32)
        };
        deepest = at;
        work.vertices_scanned += dots;
        work.axes_tested += 1;
        if visit(n, lowest - n.dot(start)) {
            return;
        }
    }
}

/// The least dot of `vertices` along each of four directions: lane i holds exactly what
/// the scalar fold `if d < lowest { d } else { lowest }` over the vertices in order gives
/// for `directions[i]` (the same products and sum per dot, the same comparison).
#[inline]
fn lowest_of_four(directions: &[Vec2; 4], vertices: &[Vec2]) -> [f32; 4] {
    let nx = f32x4::from(directions.map(|d| d.x));
    let ny = f32x4::from(directions.map(|d| d.y));
    let mut lowest = f32x4::splat(f32::INFINITY);
    for v in vertices {
        let d = nx * f32x4::splat(v.x) + ny * f32x4::splat(v.y);
        lowest = lane_lower(d, lowest);
    }
    lowest.to_array()
}

/// [`edge_separations`] by scans, `N` edges at a time (`lowest_of` gives the least dot of
/// `others` along each of `N` normals); the last group repeats its last edge in its
/// unused lanes.
#[inline]
fn scan_edge_groups<const N: usize>(
    on_edge: &[Vec2],
    normal: &impl Fn(usize) -> Vec2,
    others: &[Vec2],
    work: &mut Work,
    visit: &mut impl FnMut(Vec2, f32) -> bool,
    lowest_of: fn(&[Vec2; N], &[Vec2]) -> [f32; N],
) {
    for (g, starts) in on_edge.chunks(N).enumerate() {
        let last = starts.len() - 1;
        let normals: [Vec2; N] = std::array::from_fn(|i| normal(N * g + i.min(last)));
        let lowest = lowest_of(&normals, others);
        for (i, &start) in starts.iter().enumerate() {
            let n = normals[i];
            work.vertices_scanned += others.len() as u32;
            work.axes_tested += 1;
            if visit(n, lowest[i] - n.dot(start)) {
                return;
            }
        }
    }
}

/// [`lowest_of_four`] on eight directions at once (one vector register where the
/// processor has 256-bit vectors, two four-lane halves elsewhere).
#[inline]
fn lowest_of_eight(directions: &[Vec2; 8], vertices: &[Vec2]) -> [f32; 8] {
    let nx = f32x8::from(directions.map(|d| d.x));
    let ny = f32x8::from(directions.map(|d| d.y));
    let mut lowest = f32x8::splat(f32::INFINITY);
    for v in vertices {
        let d = nx * f32x8::splat(v.x) + ny * f32x8::splat(v.y);
        lowest = lane_lower_eight(d, lowest);
    }
    lowest.to_array()
}

/// [`project_interval`] on four axes at once, one per lane: each lane makes the same dots
/// and keeps the same four running minima and maxima, joined in the same order, so its
/// interval is the scalar one to the bit (the sign of a zero included). Returns the
/// lower ends and the upper ends.
pub(crate) fn project_four(vertices: &[Vec2], axes: &[Vec2; 4]) -> ([f32; 4], [f32; 4]) {
    let (ax, ay) = (f32x4::from(axes.map(|a| a.x)), f32x4::from(axes.map(|a| a.y)));
    let dot = |v: &Vec2| f32x4::splat(v.x) * ax + f32x4::splat(v.y) * ay;
    let (mut lo, mut hi) = (f32x4::splat(f32::INFINITY), f32x4::splat(f32::NEG_INFINITY));
    let (mut lo4, mut hi4) = ([lo; 4], [hi; 4]);
    let chunks = vertices.chunks_exact(4);
    let rest = chunks.remainder();
    for c in chunks {
        for k in 0..4 {
            let d = dot(&c[k]);
            lo4[k] = lane_lower(d, lo4[k]);
            hi4[k] = lane_higher(d, hi4[k]);
        }
    }
    for v in rest {
        let d = dot(v);
        lo = lane_lower(d, lo);
        hi = lane_higher(d, hi);
    }
    for k in 0..4 {
        lo = lane_lower(lo4[k], lo);
        hi = lane_higher(hi4[k], hi);
    }
    (lo.to_array(), hi.to_array())
}

/// The lowest vertex of `vertices` along `direction` for the `k`-th edge of a walk around
/// the other shape: a plain minimum for small rings (no index, no branch to mispredict),
/// else a scan for the first edge and hill climbing from the previous edge's vertex
/// after it (see [`CLIMB_MIN_VERTICES`]). Returns (index, dot, dots computed); the index
/// is 0 for a plain minimum.
#[inline]
fn lowest_for_edge(vertices: &[Vec2], direction: Vec2, k: usize, previous: usize) -> (usize, f32, u32) {
    let n = vertices.len();
    if n < CLIMB_MIN_VERTICES {
        let lowest = vertices.iter().fold(f32::INFINITY, |lowest, v| {
            let d = direction.dot(*v);
            if d < lowest {
                d
            } else {
                lowest
            }
        });
        (0, lowest, n as u32)
    } else if k == 0 {
        let (at, lowest) = scan_lowest(vertices, direction);
        (at, lowest, n as u32)
    } else {
        climb_lowest(vertices, direction, previous)
    }
}

/// [`penetration_sat`]'s answer for two polygon or segment pieces (no radius) when no
/// trace is asked for, in O(n + m) dot products instead of O((n + m)²), and without
/// turning B's vertices into A's frame (so a piece pair of a non-convex shape, or a
/// convex B of any size, costs no buffer).
///
/// Box2D's one-sided test (`b2FindMaxSeparation`, manifold.c) over the edge normals of
/// the Minkowski difference A − B, {n_Ai, −n_Bj}, in A's frame (`xf_ab` = (R, t) places
/// B there):
///
/// ```text
/// for each edge i of A (normal n, start a_i):          // B's deepest vertex below it
///     m   = R⁻¹ n                                      // the axis in B's frame
///     gap = min_j m·b_j + n·t − n·a_i                  // b_j by hill climbing
/// for each edge j of B (normal m in B's frame, start b_j):
///     n   = R m                                        // the axis in A's frame
///     gap = min_i n·a_i − n·(R b_j + t)                // a_i by hill climbing
/// keep the first largest gap; stop at the first gap above `stop_at`
/// ```
///
/// Walking one shape's edges in order turns their normals counter-clockwise, and the
/// other shape's deepest vertex moves forward around its ring with them (rotating
/// calipers; Toussaint 1983), so each walk climbs from the previous edge's vertex and
/// the whole test costs O(n + m) dots. `polygon_polygon::sat_in_a` explains why the
/// one-sided directions give the general test's penetration (depth and normal, up to
/// exactly tied directions), and why, for shapes apart by less than `stop_at` (only
/// under a positive stop: the speculative margin, or touching counted as intersecting),
/// the two-sided test must run instead unless both shapes are centrally symmetric; it
/// does here too ([`penetration_sat`] without its trace). A gap above `stop_at` is a
/// gap along a real axis, so it bounds the pieces' distance from below just as the
/// general test's does (the combine step keys apart pairs by it).
pub(crate) fn penetration_sat_climbing(q: &PieceQuery, stop_at: f32, work: &mut Work) -> PairPenetration {
    let mut best_gap = f32::NEG_INFINITY;
    // Best normal so far, A's frame, from A towards B.
    let mut best_normal = Vec2::X;
    difference_faces(q, work, |normal, gap, _| {
        if gap > best_gap {
            (best_gap, best_normal) = (gap, normal);
            return gap > stop_at;
        }
        false
    });
    if best_gap > 0.0 && best_gap <= stop_at && !(centrally_symmetric(q.a.normals) && centrally_symmetric(q.b.normals))
    {
        return penetration_sat(q, stop_at, &mut Recorder { work, trace: &mut None });
    }
    PairPenetration {
        normal: q.pose_a.apply_vector(best_normal),
        depth: -best_gap,
    }
}

/// The edge a face of A − B comes from: edge k of piece A, or edge k of piece B.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum FaceEdge {
    A(usize),
    B(usize),
}

/// The faces of the Minkowski difference A − B of two convex pieces (radius 0), in A's
/// frame, in the order of [`penetration_sat_climbing`]'s one-sided test: A's edges, then
/// B's. Calls `visit(normal, gap, edge)` for each until it returns true (then returns
/// true): `normal` is the face's outward unit normal (an edge normal of A, or of B
/// negated: from A towards B), and −`gap` its offset, h(normal) = max n·(a − b). A point
/// p lies inside the difference by `-(normal·p + gap)` on that side, so SAT's
/// penetration is −(largest gap), and p is strictly inside by more than `tol` when
/// `normal·p + gap < −tol` on every face (the combine step's shortcut asks that).
#[inline]
pub(crate) fn difference_faces(
    q: &PieceQuery,
    work: &mut Work,
    mut visit: impl FnMut(Vec2, f32, FaceEdge) -> bool,
) -> bool {
    let (a, b, xf_ab) = (&q.a, &q.b, &q.xf_ab);
    let t_ab = xf_ab.translation;
    let mut deepest = 0;
    for (i, (&n, &a_i)) in a.normals.iter().zip(a.vertices).enumerate() {
        let (at, lowest_in_b, dots) = lowest_for_edge(b.vertices, xf_ab.apply_inv_vector(n), i, deepest);
        deepest = at;
        work.axes_tested += 1;
        work.vertices_scanned += dots;
        if visit(n, lowest_in_b + n.dot(t_ab) - n.dot(a_i), FaceEdge::A(i)) {
            return true;
        }
    }
    deepest = 0;
    for (j, (&m, &b_j)) in b.normals.iter().zip(b.vertices).enumerate() {
        let n = xf_ab.apply_vector(m);
        let (at, lowest_in_a, dots) = lowest_for_edge(a.vertices, n, j, deepest);
        deepest = at;
        work.axes_tested += 1;
        work.vertices_scanned += dots;
        // B's outward normal points from B towards A.
        if visit(-n, lowest_in_a - n.dot(xf_ab.apply_point(b_j)), FaceEdge::B(j)) {
            return true;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::{Polygon, Shape};
    use crate::math::Pose;
    use crate::narrow::contact::Work;
    use crate::narrow::trace::Trace;
    use crate::narrow::NarrowConfig;

    fn unit_square() -> Shape {
        Shape::Polygon(
            Polygon::new(&[
                Vec2::new(-0.5, -0.5),
                Vec2::new(0.5, -0.5),
                Vec2::new(0.5, 0.5),
                Vec2::new(-0.5, 0.5),
            ])
            .unwrap(),
        )
    }

    #[test]
    fn squares_offset_by_0_6_overlap_0_4_along_x() {
        let s = unit_square();
        let pen = penetration_sat(
            &PieceQuery::new(
                s.piece(0),
                &Pose::IDENTITY,
                s.piece(0),
                &Pose::new(Vec2::new(0.6, 0.1), 0.0),
                1.0,
                &NarrowConfig::default(),
            ),
            0.0,
            &mut Recorder {
                work: &mut Work::default(),
                trace: &mut None,
            },
        );
        assert!((pen.depth - 0.4).abs() < 1e-6);
        assert!((pen.normal - Vec2::X).length() < 1e-6);
    }

    #[test]
    fn stops_at_the_first_separating_axis() {
        let s = unit_square();
        let mut work = Work::default();
        let pen = penetration_sat(
            &PieceQuery::new(
                s.piece(0),
                &Pose::IDENTITY,
                s.piece(0),
                &Pose::new(Vec2::new(0.0, 3.0), 0.3),
                1.0,
                &NarrowConfig::default(),
            ),
            0.0,
            &mut Recorder {
                work: &mut work,
                trace: &mut None,
            },
        );
        assert!(pen.depth < 0.0);
        assert!(work.axes_tested < 8);
    }

    #[test]
    fn trace_lists_every_axis_with_world_intervals() {
        let s = unit_square();
        let mut trace = Trace::new();
        penetration_sat(
            &PieceQuery::new(
                s.piece(0),
                &Pose::new(Vec2::new(10.0, 0.0), 0.0),
                s.piece(0),
                &Pose::new(Vec2::new(10.6, 0.1), 0.0),
                1.0,
                &NarrowConfig::default(),
            ),
            0.0,
            &mut Recorder {
                work: &mut Work::default(),
                trace: &mut Some(&mut trace),
            },
        );
        assert_eq!(trace.steps.len(), 8);
        let TraceStep::SatAxis(first) = &trace.steps[0] else {
            panic!("expected an axis step")
        };
        assert_eq!(first.axis, -Vec2::Y);
        let TraceStep::SatAxis(second) = &trace.steps[1] else {
            panic!("expected an axis step")
        };
        assert!((second.interval_a.1 - 10.5).abs() < 1e-5 && (second.interval_b.0 - 10.1).abs() < 1e-5);
    }
}
