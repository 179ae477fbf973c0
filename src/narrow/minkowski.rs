//! The Minkowski difference A − B of two convex shapes (the configuration-space obstacle
//! in Chulanov 2016): the set {a − b : a ∈ A, b ∈ B}. A and B overlap exactly when it holds the
//! origin, their distance is its distance from the origin, and the penetration depth is
//! the distance from the origin to its boundary. GJK and EPA only sample it through
//! support points; lessons draw all of it, and exact ray exits are computed against it.
//!
//! # The O(n + m) merge
//!
//! A − B = A + (−B). Reflecting B through the origin (b ↦ −b) is a rotation by π, so −B is
//! still a CCW convex polygon. The boundary of the sum of two convex polygons consists of
//! the edges of both, each used once, in order of their direction angle (de Berg et al.,
//! *Computational Geometry*, 3rd ed., §13.3): walking around the sum, the direction of
//! the boundary turns monotonically through 2π and every edge of A and of −B appears
//! where its direction comes up. So:
//!
//! ```text
//! start both polygons at their lowest vertex (min y, then min x): their first edge has
//!   the smallest angle in [0, 2π), the rest follow in increasing angle
//! p = start(A) + start(−B)                      (the lowest vertex of the sum)
//! while edges remain in either sequence:
//!     emit p
//!     e = the smaller-angle edge among the next edge of A and the next of −B
//!         (both when they are parallel and point the same way: one merged edge)
//!     p += e
//! ```
//!
//! A point has no edges, a segment has two (there and back), so 1- and 2-vertex cores
//! need no special case; the sum of two parallel segments comes out as a 2-vertex
//! "polygon". Angles are compared exactly (half-plane, then the sign of a cross product),
//! and consecutive edges that turn by less than a few ulps are merged afterwards, so
//! collinear edges never leave a vertex in the middle of a side.

use super::trace::SupportPoint;
use crate::geometry::ConvexView;
use crate::math::{cross, Pose, Vec2};

/// Vertices (counter-clockwise, world frame) of the hull of A − B, cores only (radii are
/// ignored). Starts at the lowest (then leftmost) vertex; collinear vertices are merged.
/// One vertex when both cores are points, two when the difference is a segment, empty
/// when a view has no vertex. Expects convex CCW views (as every `ConvexView` is).
pub fn minkowski_difference_hull(a: ConvexView, pose_a: &Pose, b: ConvexView, pose_b: &Pose) -> Vec<Vec2> {
    minkowski_difference_hull_sourced(a, pose_a, b, pose_b)
        .into_iter()
        .map(|w| w.point)
        .collect()
}

/// The same hull as [`minkowski_difference_hull`] (the same points, bit for bit), each
/// vertex with the pair it came from: vertex `index_a` of A (world point `a`) minus vertex
/// `index_b` of B (world point `b`), indices into the views' vertices. Lessons use it to
/// highlight the pair (a_i, b_j) behind a vertex of A − B.
///
/// The merge walks both boundaries at once, so after taking k edges of A and l edges of
/// −B the current vertex is A's vertex k steps past its lowest plus −B's vertex l steps
/// past its lowest: the sources are known without any search. (`point` is accumulated
/// edge by edge, so it can differ from `a − b` by rounding.)
pub fn minkowski_difference_hull_sourced(
    a: ConvexView,
    pose_a: &Pose,
    b: ConvexView,
    pose_b: &Pose,
) -> Vec<SupportPoint> {
    let mut scratch = HullScratch::default();
    minkowski_difference_hull_into(a, pose_a, b, pose_b, &mut scratch);
    scratch.hull
}

/// Buffers for [`minkowski_difference_hull_into`], kept between calls so that the world's
/// step builds hulls without allocating (`collide_compound`).
#[derive(Clone, Debug, Default)]
pub(crate) struct HullScratch {
    world_a: Vec<Vec2>,
    world_b: Vec<Vec2>,
    neg_b: Vec<Vec2>,
    edges_a: Vec<(Vec2, usize)>,
    edges_b: Vec<(Vec2, usize)>,
    /// The hull of the last call, as [`minkowski_difference_hull_sourced`] returns it.
    pub hull: Vec<SupportPoint>,
    /// Pieces of A and of B prepared for [`minkowski_difference_core_prepared`].
    pub prepared_a: PreparedCores,
    pub prepared_b: PreparedCores,
}

/// One prepared core: where its posed vertices and its edges (from the lowest vertex,
/// as `edges_from_lowest` gives them) are stored in [`PreparedCores`].
#[derive(Clone, Copy, Debug)]
struct PreparedCore {
    vertices: (u32, u32),
    edges: (u32, u32),
    lowest: u32,
}

/// The cores of one shape's pieces, posed (and, for B, reflected) and their edges sorted
/// from the lowest vertex, each prepared on first use: the combine step builds the
/// difference of a piece of A with many pieces of B and the other way round, and
/// preparing a core was half the cost of a hull.
#[derive(Clone, Debug, Default)]
pub(crate) struct PreparedCores {
    /// Posed vertices (for B: posed, then reflected through the origin).
    points: Vec<Vec2>,
    edges: Vec<(Vec2, usize)>,
    cores: Vec<Option<PreparedCore>>,
}

impl PreparedCores {
    /// Forgets every core; `count` pieces may be prepared.
    pub(crate) fn reset(&mut self, count: usize) {
        self.points.clear();
        self.edges.clear();
        self.cores.clear();
        self.cores.resize(count, None);
    }

    /// Prepares piece `k` (`view` at `pose`, reflected when `reflect`) unless it is.
    fn prepare(&mut self, k: usize, view: ConvexView, pose: &Pose, reflect: bool) -> PreparedCore {
        if let Some(core) = self.cores[k] {
            return core;
        }
        let start = self.points.len();
        if reflect {
            self.points.extend(view.vertices.iter().map(|v| -pose.apply_point(*v)));
        } else {
            self.points.extend(view.vertices.iter().map(|v| pose.apply_point(*v)));
        }
        let mut edges = std::mem::take(&mut self.edges);
        let edge_start = edges.len();
        let lowest = edges_from_lowest_into(&self.points[start..], &mut edges);
        self.edges = edges;
        let core = PreparedCore {
            vertices: (start as u32, view.vertices.len() as u32),
            edges: (edge_start as u32, (self.edges.len() - edge_start) as u32),
            lowest: lowest as u32,
        };
        self.cores[k] = Some(core);
        core
    }
}

/// The hull of [`minkowski_difference_hull_into`] for piece `i` of A (`a` at `pose_a`)
/// and piece `j` of B (`b` at `pose_b`), the same points bit for bit, from the pieces'
/// prepared cores (prepared here on first use; `prepared_a` and `prepared_b` must have
/// been reset for these shapes and poses). The combine step builds its differences with
/// [`minkowski_difference_core_prepared`]; this is what the tests compare it against.
#[cfg(test)]
pub(crate) fn minkowski_difference_hull_prepared(
    (i, a, pose_a): (usize, ConvexView, &Pose),
    (j, b, pose_b): (usize, ConvexView, &Pose),
    scratch: &mut HullScratch,
) {
    scratch.hull.clear();
    if a.vertices.is_empty() || b.vertices.is_empty() {
        return;
    }
    let core_a = scratch.prepared_a.prepare(i, a, pose_a, false);
    let core_b = scratch.prepared_b.prepare(j, b, pose_b, true);
    let range = |(start, len): (u32, u32)| start as usize..(start + len) as usize;
    let (pa, pb) = (&scratch.prepared_a, &scratch.prepared_b);
    merge(
        (
            &pa.points[range(core_a.vertices)],
            core_a.lowest as usize,
            &pa.edges[range(core_a.edges)],
        ),
        (
            &pb.points[range(core_b.vertices)],
            core_b.lowest as usize,
            &pb.edges[range(core_b.edges)],
        ),
        &mut scratch.hull,
    );
}

/// The vertices of the hull [`merge`] builds from the prepared cores (the same points,
/// bit for bit, after the same collinear merging) appended to `points`, and each one's
/// `(index_a, index_b)` to `sources`; returns how many. The combine step reads nothing
/// else of a hull: writing its vertices where it keeps them, without the support points'
/// world points and a copy, took 5 M of 286 M instructions off `examples/gjk_workload`.
pub(crate) fn minkowski_difference_core_prepared(
    (i, a, pose_a): (usize, ConvexView, &Pose),
    (j, b, pose_b): (usize, ConvexView, &Pose),
    scratch: &mut HullScratch,
    points: &mut Vec<Vec2>,
    sources: &mut Vec<(u32, u32)>,
) -> usize {
    if a.vertices.is_empty() || b.vertices.is_empty() {
        return 0;
    }
    let core_a = scratch.prepared_a.prepare(i, a, pose_a, false);
    let core_b = scratch.prepared_b.prepare(j, b, pose_b, true);
    let range = |(start, len): (u32, u32)| start as usize..(start + len) as usize;
    let (pa, pb) = (&scratch.prepared_a, &scratch.prepared_b);
    let (world_a, edges_a) = (&pa.points[range(core_a.vertices)], &pa.edges[range(core_a.edges)]);
    let (neg_b, edges_b) = (&pb.points[range(core_b.vertices)], &pb.edges[range(core_b.edges)]);
    let start = points.len();
    // `merge`'s walk (the same sums in the same order).
    walk(
        (world_a, core_a.lowest as usize, edges_a),
        (neg_b, core_b.lowest as usize, edges_b),
        |p, ia, ib| {
            points.push(p);
            sources.push((ia as u32, ib as u32));
        },
    );
    remove_collinear_core(points, sources, start);
    points.len() - start
}

/// [`remove_collinear`] on the vertices `points[start..]` (and their `sources`): the same
/// tests in the same order, so the same vertices go.
fn remove_collinear_core(points: &mut Vec<Vec2>, sources: &mut Vec<(u32, u32)>, start: usize) {
    const STRAIGHT: f32 = 4.0 * f32::EPSILON;
    const CLEARLY_TURNING: f32 = (2.0 * STRAIGHT) * (2.0 * STRAIGHT);
    let mut changed = true;
    while changed && points.len() - start > 2 {
        changed = false;
        let hull = &points[start..];
        let n = hull.len();
        let mut removed = None;
        let (mut prev, mut cur) = (hull[n - 1], hull[0]);
        for i in 0..n {
            let next = hull[if i + 1 < n { i + 1 } else { 0 }];
            let (e0, e1) = (cur - prev, next - cur);
            let c = cross(e0, e1);
            if !(c > 0.0 && c * c > CLEARLY_TURNING * e0.length_squared() * e1.length_squared()) {
                let straight = c.abs() <= STRAIGHT * e0.length() * e1.length() && e0.dot(e1) > 0.0;
                if straight || e0 == Vec2::ZERO {
                    removed = Some(i);
                    break;
                }
            }
            (prev, cur) = (cur, next);
        }
        if let Some(i) = removed {
            points.remove(start + i);
            sources.remove(start + i);
            changed = true;
        }
    }
}

/// [`minkowski_difference_hull_sourced`] into `scratch.hull`, reusing its buffers.
pub(crate) fn minkowski_difference_hull_into(
    a: ConvexView,
    pose_a: &Pose,
    b: ConvexView,
    pose_b: &Pose,
    scratch: &mut HullScratch,
) {
    let HullScratch {
        world_a,
        world_b,
        neg_b,
        edges_a,
        edges_b,
        hull,
        prepared_a: _,
        prepared_b: _,
    } = scratch;
    hull.clear();
    if a.vertices.is_empty() || b.vertices.is_empty() {
        return;
    }
    world_a.clear();
    world_a.extend(a.vertices.iter().map(|v| pose_a.apply_point(*v)));
    world_b.clear();
    world_b.extend(b.vertices.iter().map(|v| pose_b.apply_point(*v)));
    neg_b.clear();
    neg_b.extend(world_b.iter().map(|v| -*v));
    let lowest_a = edges_from_lowest(world_a, edges_a);
    let lowest_b = edges_from_lowest(neg_b, edges_b);
    merge((world_a, lowest_a, edges_a), (neg_b, lowest_b, edges_b), hull);
}

/// The merge of the module docs: A's vertices (posed) and −B's (posed, reflected), each
/// with its lowest vertex and its edges from there, into `hull` (cleared first).
fn merge(
    (world_a, lowest_a, edges_a): (&[Vec2], usize, &[(Vec2, usize)]),
    (neg_b, lowest_b, edges_b): (&[Vec2], usize, &[(Vec2, usize)]),
    hull: &mut Vec<SupportPoint>,
) {
    hull.clear();
    let sourced = |point: Vec2, ia: usize, ib: usize| SupportPoint {
        point,
        a: world_a[ia],
        b: -neg_b[ib],
        index_a: ia,
        index_b: ib,
    };

    walk((world_a, lowest_a, edges_a), (neg_b, lowest_b, edges_b), |p, ia, ib| {
        hull.push(sourced(p, ia, ib))
    });
    remove_collinear(hull);
}

/// The walk of the merge: from the sum of the two lowest vertices, round both edge
/// lists in angle order (equal angles taken together), `emit`ting each vertex of the
/// sum with the indices of the two vertices it is made of; a sum with no edges emits
/// its one point.
#[inline]
fn walk(
    (world_a, lowest_a, edges_a): (&[Vec2], usize, &[(Vec2, usize)]),
    (neg_b, lowest_b, edges_b): (&[Vec2], usize, &[(Vec2, usize)]),
    mut emit: impl FnMut(Vec2, usize, usize),
) {
    let mut p = world_a[lowest_a] + neg_b[lowest_b];
    let (mut ia, mut ib) = (lowest_a, lowest_b);
    let (mut i, mut j) = (0, 0);
    let mut emitted = false;
    while i < edges_a.len() || j < edges_b.len() {
        emit(p, ia, ib);
        emitted = true;
        let step = match (edges_a.get(i), edges_b.get(j)) {
            (Some(&(ea, end_a)), Some(&(eb, end_b))) => match angle_order(ea, eb) {
                std::cmp::Ordering::Less => {
                    i += 1;
                    ia = end_a;
                    ea
                }
                std::cmp::Ordering::Greater => {
                    j += 1;
                    ib = end_b;
                    eb
                }
                std::cmp::Ordering::Equal => {
                    i += 1;
                    j += 1;
                    (ia, ib) = (end_a, end_b);
                    ea + eb
                }
            },
            (Some(&(ea, end_a)), None) => {
                i += 1;
                ia = end_a;
                ea
            }
            (None, Some(&(eb, end_b))) => {
                j += 1;
                ib = end_b;
                eb
            }
            (None, None) => break,
        };
        p += step;
    }
    if !emitted {
        emit(p, ia, ib);
    }
}

/// The index of the lowest vertex (min y, then min x); `edges` gets the edge vectors
/// going CCW from it, each with the index of the vertex it ends at, without zero-length
/// edges. A single vertex has no edges.
fn edges_from_lowest(vertices: &[Vec2], edges: &mut Vec<(Vec2, usize)>) -> usize {
    edges.clear();
    edges_from_lowest_into(vertices, edges)
}

/// [`edges_from_lowest`], appending to `edges` instead of replacing them.
fn edges_from_lowest_into(vertices: &[Vec2], edges: &mut Vec<(Vec2, usize)>) -> usize {
    let n = vertices.len();
    let Some(&first) = vertices.first() else {
        return 0;
    };
    let (mut lowest, mut l) = (0, first);
    for (i, &v) in vertices.iter().enumerate().skip(1) {
        if v.y < l.y || (v.y == l.y && v.x < l.x) {
            (lowest, l) = (i, v);
        }
    }
    if n > 1 {
        // Each vertex once, from the lowest round to it again (the next index by a
        // comparison, not a remainder).
        edges.reserve(n);
        let (mut p, mut end) = (l, lowest);
        for _ in 0..n {
            end = if end + 1 == n { 0 } else { end + 1 };
            let q = vertices[end];
            let e = q - p;
            if e != Vec2::ZERO {
                edges.push((e, end));
            }
            p = q;
        }
    }
    lowest
}

/// 0 for directions with angle in [0, π) (y > 0, or y = 0 and x > 0), 1 for [π, 2π).
#[inline]
fn half(e: Vec2) -> u8 {
    if e.y > 0.0 || (e.y == 0.0 && e.x > 0.0) {
        0
    } else {
        1
    }
}

/// Orders two non-zero directions by angle in [0, 2π): by half-plane first, then by the
/// sign of their cross product (exact within a half-plane, where angles differ by < π).
fn angle_order(u: Vec2, v: Vec2) -> std::cmp::Ordering {
    let (hu, hv) = (half(u), half(v));
    if hu != hv {
        return hu.cmp(&hv);
    }
    let c = cross(u, v);
    if c > 0.0 {
        std::cmp::Ordering::Less
    } else if c < 0.0 {
        std::cmp::Ordering::Greater
    } else {
        std::cmp::Ordering::Equal
    }
}

/// Removes vertices where the boundary goes straight on (turn below a few ulps relative
/// to the edge lengths; rotated inputs rarely give an exact zero). A U-turn (a segment's
/// end) is kept.
fn remove_collinear(hull: &mut Vec<SupportPoint>) {
    const STRAIGHT: f32 = 4.0 * f32::EPSILON;
    // A left turn by twice the threshold, compared in squares (no square roots): nearly
    // every vertex of a hull turns that much, and is kept without the exact test. The
    // factor leaves the squares' rounding (a few ulps) far from the threshold, so the
    // vertices removed are the ones the exact test removes.
    const CLEARLY_TURNING: f32 = (2.0 * STRAIGHT) * (2.0 * STRAIGHT);
    let mut changed = true;
    while changed && hull.len() > 2 {
        changed = false;
        let n = hull.len();
        for i in 0..n {
            let prev = hull[(i + n - 1) % n].point;
            let cur = hull[i].point;
            let next = hull[(i + 1) % n].point;
            let (e0, e1) = (cur - prev, next - cur);
            let c = cross(e0, e1);
            if c > 0.0 && c * c > CLEARLY_TURNING * e0.length_squared() * e1.length_squared() {
                continue;
            }
            let straight = c.abs() <= STRAIGHT * e0.length() * e1.length() && e0.dot(e1) > 0.0;
            if straight || e0 == Vec2::ZERO {
                hull.remove(i);
                changed = true;
                break;
            }
        }
    }
}

#[cfg(test)]
mod tests;
