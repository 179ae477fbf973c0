//! Exact geometric predicates on f32 points: the sign of an orientation and closed
//! segment intersection.
//!
//! Validation, triangulation and hulls decide "left, right or on the line" thousands of
//! times; a wrong sign there turns a valid polygon into a rejected one or, worse, lets
//! a crossing through. Rounding makes the naive f32 cross product wrong exactly in the
//! cases users draw most (integer grids, axis-aligned combs), so the sign here is exact.
//!
//! Method (after J. R. Shewchuk, "Adaptive Precision Floating-Point Arithmetic and Fast
//! Robust Geometric Predicates", 1997): a product of two f32 values has at most 48
//! significant bits, so it is exact in f64. Expanding
//! `(b - a) × (c - a)` gives six such products; we add them with Knuth's TwoSum into a
//! non-overlapping expansion, whose sign is that of its largest non-zero component.
//! A cheap f64 filter answers first; the expansion runs only near zero.

use crate::math::Vec2;

/// Knuth's TwoSum: `s + e == a + b` exactly, with `s = fl(a + b)`.
#[inline]
fn two_sum(a: f64, b: f64) -> (f64, f64) {
    let s = a + b;
    let bb = s - a;
    let e = (a - (s - bb)) + (b - bb);
    (s, e)
}

/// Exact sign of `(b - a) × (c - a)`: `1` when `a, b, c` turn counter-clockwise
/// (c left of the directed line a→b), `-1` clockwise, `0` exactly collinear.
/// Any finite f32 inputs.
pub(crate) fn orient(a: Vec2, b: Vec2, c: Vec2) -> i8 {
    let (ax, ay) = (a.x as f64, a.y as f64);
    let (bx, by) = (b.x as f64, b.y as f64);
    let (cx, cy) = (c.x as f64, c.y as f64);
    // Filter: the f64 differences and products carry a relative error below 4·2^-53 of
    // |l| + |r|; 1e-12 leaves a wide margin, so a sign past it is certain.
    let l = (bx - ax) * (cy - ay);
    let r = (by - ay) * (cx - ax);
    let det = l - r;
    let bound = 1e-12 * (l.abs() + r.abs());
    if det > bound {
        return 1;
    }
    if det < -bound {
        return -1;
    }
    // Exact path: bx·cy − bx·ay − ax·cy − by·cx + by·ax + ay·cx (the ax·ay terms cancel).
    let terms = [bx * cy, -(bx * ay), -(ax * cy), -(by * cx), by * ax, ay * cx];
    let mut expansion = [0.0f64; 6];
    let mut len = 0;
    for t in terms {
        // Shewchuk's Grow-Expansion: keeps the components non-overlapping, increasing.
        let mut q = t;
        for e in expansion.iter_mut().take(len) {
            let (s, err) = two_sum(q, *e);
            *e = err;
            q = s;
        }
        expansion[len] = q;
        len += 1;
    }
    for &e in expansion[..len].iter().rev() {
        if e > 0.0 {
            return 1;
        }
        if e < 0.0 {
            return -1;
        }
    }
    0
}

/// True when `p`, known to be collinear with `a` and `b`, lies on the closed segment
/// `a`–`b` (coordinate comparisons are exact).
#[inline]
fn collinear_on_segment(a: Vec2, b: Vec2, p: Vec2) -> bool {
    p.x >= a.x.min(b.x) && p.x <= a.x.max(b.x) && p.y >= a.y.min(b.y) && p.y <= a.y.max(b.y)
}

/// Exact test: do the closed segments `a0–a1` and `b0–b1` share at least one point?
/// Touching at an end point and collinear overlap both count.
pub(crate) fn segments_intersect(a0: Vec2, a1: Vec2, b0: Vec2, b1: Vec2) -> bool {
    let d1 = orient(b0, b1, a0);
    let d2 = orient(b0, b1, a1);
    if d1 * d2 > 0 {
        return false; // a strictly on one side of b's line: the common case, two tests
    }
    let d3 = orient(a0, a1, b0);
    let d4 = orient(a0, a1, b1);
    if d3 * d4 > 0 {
        return false;
    }
    if d1 * d2 < 0 && d3 * d4 < 0 {
        return true;
    }
    (d1 == 0 && collinear_on_segment(b0, b1, a0))
        || (d2 == 0 && collinear_on_segment(b0, b1, a1))
        || (d3 == 0 && collinear_on_segment(a0, a1, b0))
        || (d4 == 0 && collinear_on_segment(a0, a1, b1))
}

/// For adjacent edges `a→b` and `b→c` (sharing `b`): true when they share more than
/// `b`, i.e. the outline doubles back on itself (a "spike": `c` collinear with `a–b`
/// and on `a`'s side of `b`).
pub(crate) fn adjacent_edges_overlap(a: Vec2, b: Vec2, c: Vec2) -> bool {
    if orient(a, b, c) != 0 {
        return false;
    }
    // Collinear: compare on x unless the line is vertical (then on y). Exact.
    let (ab, cb) = if a.x != b.x {
        (a.x - b.x, c.x - b.x)
    } else {
        (a.y - b.y, c.y - b.y)
    };
    (ab > 0.0 && cb > 0.0) || (ab < 0.0 && cb < 0.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn orient_is_exact_where_f32_rounding_lies() {
        // Three points on the line y = x, far from the origin: the f32 cross product of
        // the differences is rounding noise; the exact answer is 0.
        let a = Vec2::new(0.1, 0.1);
        let b = Vec2::new(12345.678, 12345.678);
        let c = Vec2::new(1e7, 1e7);
        assert_eq!(orient(a, b, c), 0);
        // One ulp off the line is seen.
        let c_up = Vec2::new(1e7, f32::from_bits(1e7f32.to_bits() + 1));
        assert_eq!(orient(a, b, c_up), 1);
        assert_eq!(orient(a, c_up, b), -1);
    }

    #[test]
    fn segments_touching_or_overlapping_intersect() {
        let p = |x: f32, y: f32| Vec2::new(x, y);
        assert!(segments_intersect(p(0., 0.), p(2., 2.), p(0., 2.), p(2., 0.)));
        assert!(segments_intersect(p(0., 0.), p(2., 0.), p(1., 0.), p(1., 3.)));
        assert!(segments_intersect(p(0., 0.), p(2., 0.), p(1., 0.), p(3., 0.)));
        assert!(!segments_intersect(p(0., 0.), p(1., 0.), p(2., 0.), p(3., 0.)));
        assert!(!segments_intersect(p(0., 0.), p(1., 1.), p(0., 1.), p(0.4, 0.6)));
    }

    #[test]
    fn spike_is_detected() {
        let p = |x: f32, y: f32| Vec2::new(x, y);
        assert!(adjacent_edges_overlap(p(0., 0.), p(2., 0.), p(1., 0.)));
        assert!(!adjacent_edges_overlap(p(0., 0.), p(2., 0.), p(3., 0.)));
        assert!(!adjacent_edges_overlap(p(0., 0.), p(2., 0.), p(2., 1.)));
    }
}
