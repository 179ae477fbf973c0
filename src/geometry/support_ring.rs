//! A ring of support points: a big polygon's extreme vertex in each of
//! [`SUPPORT_RING_DIRECTIONS`] fixed directions, computed once at load.
//!
//! NonConvexSat (`narrow::sat_nonconvex`) projects both polygons on every edge normal of
//! both. Most of those axes cannot matter: their overlap is far above the least one
//! found. To skip them without projecting, it needs a cheap *lower* bound on the
//! overlap, that is an interval inside each polygon's true projection. The projection
//! of any vertex lies in the true interval, so the ring's point for the direction
//! nearest the axis (and for the opposite direction) gives one, in two dot products,
//! and nearly tight: with 256 directions the axis is at most ~0.9° (δ) from a ring
//! direction, so the bound misses the true extreme by at most r·(1 − cos δ) ≈ 1.2e-4·r
//! where the hull is round (radius r), and by at most ℓ·sin δ ≈ 0.016·ℓ along a flat
//! stretch of hull of length ℓ.
//!
//! Because the bound is the projection of an actual vertex, computed with the same
//! formula as the exact projection (`narrow::sat::project_interval`, the edge tree's
//! leaves), it is at most the exact value bit for bit (rounding is monotone), so
//! pruning with it never changes an answer.
//!
//! Directions are indexed by their "diamond angle" (the position of the direction's
//! point on the square |x| + |y| = 1, from 0 to 4 counter-clockwise from +x), which is
//! monotone in the angle and needs one division instead of an `atan2`.

use crate::math::Vec2;

/// Directions in a ring.
pub const SUPPORT_RING_DIRECTIONS: usize = 256;

/// Polygons with at least this many vertices get a ring (below it, projecting every
/// vertex costs about as much as the ring saves).
pub const SUPPORT_RING_MIN_VERTICES: usize = 64;

/// See the module docs.
#[derive(Clone, Debug, PartialEq)]
pub struct SupportRing {
    /// Per direction, the vertex farthest along it (local frame).
    points: Vec<Vec2>,
    /// Per edge i (vertex i to i + 1), the axis NonConvexSat tests for it: the edge
    /// turned a quarter left and normalised, by the same formula, so the same to the bit.
    axes: Vec<Vec2>,
    /// Per edge, the inner interval of the polygon's own projection on its axis: the
    /// part of every query's bound that does not depend on the pose.
    own: Vec<(f32, f32)>,
}

/// The diamond angle of `d` in [0, 4): 0 along +x, 1 along +y, 2 along −x, 3 along −y.
#[inline]
fn diamond_angle(d: Vec2) -> f32 {
    let s = d.x.abs() + d.y.abs();
    if s == 0.0 {
        return 0.0;
    }
    let (x, y) = (d.x / s, d.y / s);
    if y >= 0.0 {
        if x >= 0.0 {
            y
        } else {
            1.0 - x
        }
    } else if x < 0.0 {
        2.0 - y
    } else {
        3.0 + x
    }
}

/// The direction (not unit) at diamond angle `t` in [0, 4).
fn diamond_direction(t: f32) -> Vec2 {
    match t {
        t if t < 1.0 => Vec2::new(1.0 - t, t),
        t if t < 2.0 => Vec2::new(1.0 - t, 2.0 - t),
        t if t < 3.0 => Vec2::new(t - 3.0, 2.0 - t),
        t => Vec2::new(t - 3.0, t - 4.0),
    }
}

/// The ring direction an axis falls in.
#[inline]
fn slot(axis: Vec2) -> usize {
    let k = (diamond_angle(axis) * (SUPPORT_RING_DIRECTIONS as f32 / 4.0)) as usize;
    k.min(SUPPORT_RING_DIRECTIONS - 1)
}

impl SupportRing {
    /// The ring of a polygon's vertices (local frame): each direction's extreme vertex,
    /// found by walking the convex hull (Andrew's monotone chain, `bounds::hull`)
    /// counter-clockwise as the directions turn, O(n log n) for the hull and O(h + 256)
    /// for the walk (a scan of every vertex per direction took 0.18 s at 100,000).
    pub fn new(vertices: &[Vec2]) -> SupportRing {
        let hull = crate::bounds::hull::convex_hull(vertices);
        let h = hull.len();
        let dot = |p: Vec2, d: Vec2| p.x * d.x + p.y * d.y;
        let direction = |k: usize| diamond_direction((k as f32 + 0.5) * 4.0 / SUPPORT_RING_DIRECTIONS as f32);
        let mut at = (0..h)
            .max_by(|&i, &j| dot(hull[i], direction(0)).total_cmp(&dot(hull[j], direction(0))))
            .unwrap_or(0);
        let points: Vec<Vec2> = (0..SUPPORT_RING_DIRECTIONS)
            .map(|k| {
                let d = direction(k);
                if h == 0 {
                    return vertices.first().copied().unwrap_or(Vec2::ZERO);
                }
                // The support moves counter-clockwise along a convex hull as the
                // direction does: climb while the next vertex is farther along d.
                for _ in 0..h {
                    let next = (at + 1) % h;
                    if dot(hull[next], d) > dot(hull[at], d) {
                        at = next;
                    } else {
                        break;
                    }
                }
                hull[at]
            })
            .collect();
        let n = vertices.len();
        let axes: Vec<Vec2> = (0..n)
            .map(|i| {
                let e = vertices[(i + 1) % n] - vertices[i];
                Vec2::new(-e.y, e.x).normalize_or_zero()
            })
            .collect();
        let mut ring = SupportRing {
            points,
            axes,
            own: Vec::new(),
        };
        ring.own = ring.axes.iter().map(|&axis| ring.inner_interval(axis)).collect();
        ring
    }

    /// Edge `i`'s axis (see the field's docs), local frame.
    #[inline]
    pub fn edge_axis(&self, i: usize) -> Vec2 {
        self.axes[i]
    }

    /// [`SupportRing::inner_interval`] on edge `i`'s own axis, computed at load.
    #[inline]
    pub fn own_interval(&self, i: usize) -> (f32, f32) {
        self.own[i]
    }

    /// An interval inside the polygon's projection on `axis` (local frame): the
    /// projections of two of its vertices, the ring's points for the directions nearest
    /// −axis and axis, by the exact projection's formula (see the module docs).
    #[inline]
    pub fn inner_interval(&self, axis: Vec2) -> (f32, f32) {
        // −axis is half a turn round, in the diamond angle too (rounding at a slot's edge
        // only picks a neighbouring direction, a valid bound still).
        let k = slot(axis);
        let lo = self.points[(k + SUPPORT_RING_DIRECTIONS / 2) % SUPPORT_RING_DIRECTIONS];
        let hi = self.points[k];
        (lo.x * axis.x + lo.y * axis.y, hi.x * axis.x + hi.y * axis.y)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn diamond_angle_is_monotone_in_the_angle() {
        let mut last = -1.0;
        for k in 0..1000 {
            let t = diamond_angle(Vec2::from_angle(k as f32 * std::f32::consts::TAU / 1000.0));
            assert!(t >= last && t < 4.0, "{t} after {last}");
            last = t;
        }
        for k in 0..SUPPORT_RING_DIRECTIONS {
            let t = (k as f32 + 0.5) * 4.0 / SUPPORT_RING_DIRECTIONS as f32;
            assert_eq!(slot(diamond_direction(t)), k);
        }
    }

    #[test]
    fn the_inner_interval_is_inside_the_projection_and_nearly_all_of_it() {
        let vertices: Vec<Vec2> = (0..2000)
            .map(|i| {
                let t = i as f32 * std::f32::consts::TAU / 2000.0;
                Vec2::from_angle(t) * (1.0 + 0.2 * (9.0 * t).sin())
            })
            .collect();
        let ring = SupportRing::new(&vertices);
        for k in 0..360 {
            let axis = Vec2::from_angle(k as f32 * 0.0175 + 0.003);
            let (lo, hi) = ring.inner_interval(axis);
            let (exact_lo, exact_hi) = vertices
                .iter()
                .map(|v| v.x * axis.x + v.y * axis.y)
                .fold((f32::INFINITY, f32::NEG_INFINITY), |(a, b), d| (a.min(d), b.max(d)));
            assert!(lo >= exact_lo && hi <= exact_hi);
            // The hull's flat stretches between lobes are ~0.9 m long: 0.016 × 0.9.
            assert!(
                exact_hi - hi < 0.015 && lo - exact_lo < 0.015,
                "{lo} {hi} vs {exact_lo} {exact_hi}"
            );
        }
    }
}
