//! Convex hull of a point set (A. M. Andrew, "Another efficient algorithm for convex
//! hulls in two dimensions", 1979: the monotone chain), used by the OBB and the bounding
//! circle, which only ever need the hull's vertices.

use crate::geometry::predicates::orient;
use crate::math::Vec2;

/// Counter-clockwise hull vertices, without collinear or repeated points, starting at
/// the lowest-x (then lowest-y) point. Fewer than three points come back for degenerate
/// input (one point, or all on a line: its two end points).
pub(crate) fn convex_hull(points: &[Vec2]) -> Vec<Vec2> {
    let mut sorted: Vec<Vec2> = points.iter().copied().filter(|p| p.is_finite()).collect();
    sorted.sort_by(|a, b| a.x.total_cmp(&b.x).then(a.y.total_cmp(&b.y)));
    sorted.dedup();
    if sorted.len() < 3 {
        return sorted;
    }
    // Exact orientation: a point on the hull edge is popped (orient ≤ 0), so the hull
    // has no straight vertices even on integer grids.
    let mut hull: Vec<Vec2> = Vec::with_capacity(2 * sorted.len());
    for &p in &sorted {
        while hull.len() >= 2 && orient(hull[hull.len() - 2], hull[hull.len() - 1], p) <= 0 {
            hull.pop();
        }
        hull.push(p);
    }
    let lower_len = hull.len() + 1;
    for &p in sorted.iter().rev().skip(1) {
        while hull.len() >= lower_len && orient(hull[hull.len() - 2], hull[hull.len() - 1], p) <= 0 {
            hull.pop();
        }
        hull.push(p);
    }
    hull.pop(); // the first point again
    hull
}
