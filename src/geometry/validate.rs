//! Validation and normalisation of a user's polygon (see [`super::Polygon::new`]).
//!
//! ```text
//! points ──► finite? ──► drop repeats ──► ≥ 3 distinct? ──► not all on one line?
//!        ──► no two edges touch (Shamos–Hoey sweep) ──► drop collinear vertices ──► area > 0?
//!        ──► counter-clockwise
//! ```
//!
//! Errors name the user's own point and edge indices: edge `i` joins input point `i` to
//! input point `i + 1` (wrapping). Internally every kept vertex remembers the input edge
//! that leaves it, so a crossing found after repeats were dropped still names the edge
//! the user drew.

use super::polygon::PolygonError;
use super::predicates::{adjacent_edges_overlap, segments_intersect};
use super::sweep::{compare_segments, sweep_order, SweepSegment, SweepStatus};
use crate::math::{is_finite, Vec2};
use std::cmp::Ordering;

/// Two consecutive points closer than this fraction of the polygon's bounding-box
/// diagonal are one point. f32 coordinates carry about 6e-8 relative error, so anything
/// within ~16 ulps of the polygon's extent is rounding, not an edge; keeping such edges
/// would give normals made of noise.
const DUPLICATE_REL: f32 = 1e-6;

/// A vertex is collinear (and dropped) when its edges turn by less than this sine:
/// `|e1 × e2| ≤ COLLINEAR_SIN · |e1| |e2|` (plus the f32 noise term below). Relative to
/// the two edge lengths, so the test is scale-free: a micro-radian deflection is below
/// what anyone draws and above what f32 can tell from straight on long edges.
const COLLINEAR_SIN: f64 = 1e-6;

/// The f32 cross product the narrow phase computes on an edge pair carries an absolute
/// error about `4 ε |p| (|e1| + |e2|)` (ε = f32 epsilon, |p| the coordinate magnitude):
/// below that its sign, hence convexity and normals, is noise. Vertices in that band are
/// dropped too.
const CROSS_NOISE: f64 = 4.0 * f32::EPSILON as f64;

/// Area below `ZERO_AREA_REL · diagonal²` is "negligible": the polygon is thinner than a
/// few ulps of its own size.
const ZERO_AREA_REL: f64 = 8.0 * f32::EPSILON as f64;

/// Validates and normalises a user's points (see [`super::Polygon::new`] for the steps).
/// The result is counter-clockwise, simple, with no duplicate or collinear neighbours.
pub(crate) fn validate_and_normalise(points: &[Vec2]) -> Result<Vec<Vec2>, PolygonError> {
    for (index, p) in points.iter().enumerate() {
        if !is_finite(*p) {
            return Err(PolygonError::NonFinite { index, x: p.x, y: p.y });
        }
    }
    let scale = bbox_diagonal(points);
    let duplicate_tol = DUPLICATE_REL * scale;

    // Drop repeats. `Kept { point, edge }`: `edge` is the input edge leaving this vertex,
    // i.e. the last input index of its run of repeats.
    let mut kept: Vec<Kept> = Vec::with_capacity(points.len());
    for (i, &p) in points.iter().enumerate() {
        match kept.last_mut() {
            Some(last) if last.point.distance(p) <= duplicate_tol => last.edge = i,
            _ => kept.push(Kept { point: p, edge: i }),
        }
    }
    // A closing point equal to the first joins the first run; the first vertex's
    // outgoing edge is unchanged.
    while kept.len() > 1 && kept[kept.len() - 1].point.distance(kept[0].point) <= duplicate_tol {
        kept.pop();
    }

    let distinct = count_distinct(&kept);
    if distinct < 3 {
        return Err(PolygonError::TooFewVertices { distinct });
    }
    if all_collinear(&kept) {
        return Err(PolygonError::ZeroArea);
    }

    if let Some((i, j)) = find_touching_edges(&kept) {
        return Err(crossing_error(points, kept[i].edge, kept[j].edge));
    }

    let before = kept.len();
    let kept = remove_collinear(kept);
    if kept.len() < 3 {
        return Err(PolygonError::ZeroArea);
    }
    // Dropping nearly collinear vertices moves edges by at most a micro-radian; check
    // again so that even that cannot let a touching pair through.
    if kept.len() != before {
        if let Some((i, j)) = find_touching_edges(&kept) {
            return Err(crossing_error(points, kept[i].edge, kept[j].edge));
        }
    }

    let area = signed_area_f64(&kept);
    let diag = scale as f64;
    if area.abs() <= ZERO_AREA_REL * diag * diag {
        return Err(PolygonError::ZeroArea);
    }
    let mut vertices: Vec<Vec2> = kept.iter().map(|k| k.point).collect();
    if area < 0.0 {
        vertices.reverse();
    }
    Ok(vertices)
}

/// A vertex kept from the input, with the input edge that leaves it.
#[derive(Clone, Copy, Debug)]
struct Kept {
    point: Vec2,
    edge: usize,
}

fn bbox_diagonal(points: &[Vec2]) -> f32 {
    let mut lo = Vec2::splat(f32::INFINITY);
    let mut hi = Vec2::splat(f32::NEG_INFINITY);
    for &p in points {
        lo = lo.min(p);
        hi = hi.max(p);
    }
    if points.is_empty() {
        0.0
    } else {
        (hi - lo).length()
    }
}

fn count_distinct(kept: &[Kept]) -> usize {
    let mut pts: Vec<(u32, u32)> = kept
        .iter()
        .map(|k| (k.point.x.to_bits(), k.point.y.to_bits()))
        .collect();
    pts.sort_unstable();
    pts.dedup();
    // -0.0 and 0.0 have different bits; only matters for a count below three, where a
    // second look costs nothing.
    if pts.len() < 4 {
        let mut v: Vec<Vec2> = Vec::new();
        for k in kept {
            if !v.contains(&k.point) {
                v.push(k.point);
            }
        }
        return v.len();
    }
    pts.len()
}

fn all_collinear(kept: &[Kept]) -> bool {
    let a = kept[0].point;
    let Some(b) = kept.iter().map(|k| k.point).find(|&p| p != a) else {
        return true;
    };
    kept.iter().all(|k| super::predicates::orient(a, b, k.point) == 0)
}

fn crossing_error(points: &[Vec2], edge_a: usize, edge_b: usize) -> PolygonError {
    let (edge_a, edge_b) = (edge_a.min(edge_b), edge_a.max(edge_b));
    let n = points.len();
    let t = |p: Vec2| (p.x, p.y);
    PolygonError::SelfIntersecting {
        edge_a,
        edge_b,
        a0: t(points[edge_a]),
        a1: t(points[(edge_a + 1) % n]),
        b0: t(points[edge_b]),
        b1: t(points[(edge_b + 1) % n]),
    }
}

/// Finds two edges of the closed outline that share a point they should not, as
/// positions in `kept` (edge `k` joins `kept[k]` to `kept[k + 1]`). Neighbouring edges
/// may share their common vertex and nothing else; other edges may share nothing.
///
/// Shamos–Hoey sweep (M. I. Shamos, D. Hoey, "Geometric intersection problems", FOCS
/// 1976; de Berg et al., "Computational Geometry", §2.1), O(n log n) whatever the shape,
/// in the event order and status of `sweep.rs`:
///
/// ```text
/// two vertices at one point            → their edges touch (found on the sorted order)
/// for each vertex v, top to bottom:
///     remove the edges ending at v; test the two segments that become neighbours
///     insert the edges starting at v (placing one exactly on another's line = touch);
///     test each against its new neighbours
/// ```
///
/// Why testing status neighbours suffices, touching included: take the first point q
/// (in sweep order) where two edges meet that must not. Until the sweep reaches q no
/// two edges cross, so the status order is consistent, and just before q the edges
/// through q are consecutive in it; every pair that ever becomes consecutive is tested
/// (closed segments, exact), so one of them is caught by q at the latest. A vertex lying
/// inside another edge is caught as its edge enters, or, when both its edges end there,
/// as a neighbour pair tested on the way down. The grid this replaces was linear on
/// coastlines but quadratic where many long edges share cells (a 30,000-vertex star:
/// 0.81 s; a comb: 0.16 s).
fn find_touching_edges(kept: &[Kept]) -> Option<(usize, usize)> {
    let n = kept.len();
    let points: Vec<Vec2> = kept.iter().map(|k| k.point).collect();
    let order = sweep_order(&points);
    // All vertices distinct from here on, so exactly two edges meet at each one.
    for w in order.windows(2) {
        let (i, j) = (w[0] as usize, w[1] as usize);
        if points[i] == points[j] {
            return Some((i.min(j), i.max(j)));
        }
    }
    let segment = |k: usize| SweepSegment::new(points[k], points[(k + 1) % n]);
    let segments: Vec<SweepSegment> = (0..n).map(segment).collect();
    let mut status = SweepStatus::new(n);
    let touch = |i: u32, j: u32| {
        let (i, j) = (i as usize, j as usize);
        edges_touch(kept, i, j).then_some((i.min(j), i.max(j)))
    };
    for &v in &order {
        let v = v as usize;
        let p = points[v];
        let incident = [(v + n - 1) % n, v];
        for &e in &incident {
            if segments[e].lower == p {
                let west = |s: u32| compare_segments(&segments[s as usize], &segments[e]) == Some(Ordering::Less);
                match status.remove(e as u32, west) {
                    Some((Some(a), Some(b))) => {
                        if let Some(pair) = touch(a, b) {
                            return Some(pair);
                        }
                    }
                    Some(_) => {}
                    // Unreachable when every entering edge was checked; a status that
                    // lost its order has met edges that touch, and `e` is one of them.
                    None => return (0..n).find_map(|k| (k != e).then(|| touch(e as u32, k as u32)).flatten()),
                }
            }
        }
        for &e in &incident {
            if segments[e].upper == p {
                let mut on_line = None;
                let west = |s: u32| match compare_segments(&segments[s as usize], &segments[e]) {
                    Some(order) => order == Ordering::Less,
                    None => {
                        on_line = on_line.or(Some(s));
                        true
                    }
                };
                let (a, b) = status.insert(e as u32, west);
                if let Some(s) = on_line {
                    // `p` (or, from a shared upper end, the whole edge) lies on edge `s`.
                    if let Some(pair) = touch(s, e as u32) {
                        return Some(pair);
                    }
                }
                for s in [a, b].into_iter().flatten() {
                    if let Some(pair) = touch(s, e as u32) {
                        return Some(pair);
                    }
                }
            }
        }
    }
    None
}

/// Exact: do edges `i` and `j` (positions in `kept`) share a point they must not?
fn edges_touch(kept: &[Kept], i: usize, j: usize) -> bool {
    let n = kept.len();
    let p = |k: usize| kept[k % n].point;
    if (i + 1) % n == j {
        adjacent_edges_overlap(p(i), p(j), p(j + 1))
    } else if (j + 1) % n == i {
        adjacent_edges_overlap(p(j), p(i), p(i + 1))
    } else {
        segments_intersect(p(i), p(i + 1), p(j), p(j + 1))
    }
}

/// True when the turn at `b` (from `a`, to `c`) is straight within the tolerances above
/// and goes forward (a turn of nearly 180° is a hairpin, a real feature: kept).
fn is_straight(a: Vec2, b: Vec2, c: Vec2) -> bool {
    let (ax, ay, bx, by, cx, cy) = (a.x as f64, a.y as f64, b.x as f64, b.y as f64, c.x as f64, c.y as f64);
    let (e1x, e1y, e2x, e2y) = (bx - ax, by - ay, cx - bx, cy - by);
    let cross = e1x * e2y - e1y * e2x;
    let dot = e1x * e2x + e1y * e2y;
    let l1 = (e1x * e1x + e1y * e1y).sqrt();
    let l2 = (e2x * e2x + e2y * e2y).sqrt();
    let magnitude = ax
        .abs()
        .max(ay.abs())
        .max(bx.abs())
        .max(by.abs())
        .max(cx.abs())
        .max(cy.abs());
    dot > 0.0 && cross.abs() <= COLLINEAR_SIN * l1 * l2 + CROSS_NOISE * magnitude * (l1 + l2)
}

/// Drops collinear vertices. One pass with a stack (a vertex is tested against the last
/// kept one and the next input one, so runs of collinear vertices collapse), then the
/// seam where the outline closes is fixed up. The merged edge keeps the input edge index
/// of its first part.
fn remove_collinear(kept: Vec<Kept>) -> Vec<Kept> {
    let mut out: Vec<Kept> = Vec::with_capacity(kept.len());
    for k in kept {
        while out.len() >= 2 && is_straight(out[out.len() - 2].point, out[out.len() - 1].point, k.point) {
            out.pop();
        }
        out.push(k);
    }
    // The seam: the last and first vertices against their wrapped neighbours.
    loop {
        let m = out.len();
        if m < 3 {
            break;
        }
        if is_straight(out[m - 2].point, out[m - 1].point, out[0].point) {
            out.pop();
        } else if is_straight(out[m - 1].point, out[0].point, out[1].point) {
            // The edge into vertex 0 now runs on to vertex 1: it starts at out[m-1],
            // whose outgoing input edge index is unchanged.
            out.remove(0);
        } else {
            break;
        }
    }
    out
}

/// Shoelace area in f64, about the first vertex (differences are small there, so the
/// sum does not cancel catastrophically far from the origin).
fn signed_area_f64(kept: &[Kept]) -> f64 {
    let o = kept[0].point;
    let n = kept.len();
    let mut twice = 0.0f64;
    for i in 1..n - 1 {
        let a = kept[i].point - o;
        let b = kept[i + 1].point - o;
        twice += a.x as f64 * b.y as f64 - a.y as f64 * b.x as f64;
    }
    0.5 * twice
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pts(v: &[(f32, f32)]) -> Vec<Vec2> {
        v.iter().map(|&(x, y)| Vec2::new(x, y)).collect()
    }

    //  1 ┌──┐ 2     a unit square given clockwise, its closing point repeating the first
    //    │  │
    //  0 └──┘ 3
    #[test]
    fn clockwise_square_with_closing_repeat_becomes_ccw() {
        let v = validate_and_normalise(&pts(&[(0., 0.), (0., 1.), (1., 1.), (1., 0.), (0., 0.)])).unwrap();
        assert_eq!(v.len(), 4);
        assert!(signed_area_f64(&v.iter().map(|&point| Kept { point, edge: 0 }).collect::<Vec<_>>()) > 0.0);
    }

    #[test]
    fn seam_collinear_vertex_is_removed() {
        // Vertex 0 sits in the middle of the bottom edge.
        let v = validate_and_normalise(&pts(&[(1., 0.), (2., 0.), (2., 1.), (0., 1.), (0., 0.)])).unwrap();
        assert_eq!(v.len(), 4);
        assert!(!v.contains(&Vec2::new(1., 0.)));
    }
}

#[cfg(test)]
mod sweep_tests {
    use super::*;
    use proptest::prelude::*;

    fn brute_force(kept: &[Kept]) -> bool {
        let n = kept.len();
        (0..n).any(|i| (i + 1..n).any(|j| edges_touch(kept, i, j)))
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(4000))]

        // Oracle: every pair of edges, exactly. Points on a 6 × 6 integer grid, so
        // touching vertices, vertices on edges, collinear overlaps and horizontal edges
        // are the common case, not the rare one.
        #[test]
        fn sweep_finds_a_touching_pair_exactly_when_brute_force_does(
            raw in prop::collection::vec((0u8..6, 0u8..6), 3..14),
        ) {
            let mut kept: Vec<Kept> = Vec::new();
            for (edge, &(x, y)) in raw.iter().enumerate() {
                let point = Vec2::new(x as f32, y as f32);
                if kept.last().is_none_or(|k| k.point != point) {
                    kept.push(Kept { point, edge });
                }
            }
            while kept.len() > 1 && kept[kept.len() - 1].point == kept[0].point {
                kept.pop();
            }
            prop_assume!(kept.len() >= 3);
            let found = find_touching_edges(&kept);
            prop_assert_eq!(found.is_some(), brute_force(&kept), "{:?}", kept.iter().map(|k| k.point).collect::<Vec<_>>());
            if let Some((i, j)) = found {
                prop_assert!(edges_touch(&kept, i, j), "reported edges {} and {} do not touch", i, j);
            }
        }
    }
}
