//! Minimal enclosing circle by Welzl's algorithm.
//!
//! E. Welzl, "Smallest enclosing disks (balls and ellipsoids)", 1991; the iterative
//! form is the one in de Berg et al., *Computational Geometry*, §4.7 (`MiniDisc`):
//!
//! ```text
//! shuffle P
//! D = circle on p0, p1
//! for i in 2..n:        if p_i ∉ D: D = circle with p_i on its boundary over p_0..p_i-1
//!   for j in 0..i:      if p_j ∉ D: D = circle on p_i, p_j (diameter)
//!     for k in 0..j:    if p_k ∉ D: D = circumcircle(p_i, p_j, p_k)
//! ```
//!
//! Expected O(n) after a random shuffle. We shuffle with a fixed-seed xorshift so the
//! result is deterministic (the lab compares runs by hash), and we run on the convex
//! hull only (the circle is decided by hull points). Arithmetic is in f64; a final pass
//! grows the f32 radius until every input point is inside, so containment holds exactly
//! in the f32 the rest of the lab uses.

use super::hull::convex_hull;
use crate::math::{Pose, Vec2};

/// A circle in the world frame (metres).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BoundingCircle {
    /// Centre, world frame.
    pub center: Vec2,
    /// Radius (metres).
    pub radius: f32,
}

impl BoundingCircle {
    /// The minimal enclosing circle of `local_points` placed by `pose`. The circle is
    /// computed in the local frame (it commutes with rigid motions) and only its centre
    /// is moved. No points: a zero circle at the pose's origin.
    pub fn from_points_posed(local_points: &[Vec2], pose: &Pose) -> Self {
        let local = minimal_enclosing_circle(local_points);
        // Posing a point rounds by about ε·(|local| + |translation|) per coordinate; the
        // margin keeps every posed input point inside (8 ε leaves a factor 2 to spare).
        let margin = 8.0 * f32::EPSILON * (local.center.length() + local.radius + pose.translation.length());
        BoundingCircle {
            center: pose.apply_point(local.center),
            radius: local.radius + margin,
        }
    }

    /// Overlap (touching counts, as for [`super::Aabb::overlaps`]).
    pub fn overlaps(&self, other: &BoundingCircle) -> bool {
        let r = self.radius + other.radius;
        self.center.distance_squared(other.center) <= r * r
    }

    /// True when `world_point` is inside or on the circle.
    pub fn contains(&self, world_point: Vec2) -> bool {
        self.center.distance_squared(world_point) <= self.radius * self.radius
    }

    /// `segments` points on the circle, counter-clockwise, world frame (at least 3).
    pub fn outline(&self, segments: usize) -> Vec<Vec2> {
        let k = segments.max(3);
        (0..k)
            .map(|i| {
                let a = std::f32::consts::TAU * i as f32 / k as f32;
                self.center + self.radius * Vec2::new(a.cos(), a.sin())
            })
            .collect()
    }

    /// Area (m²).
    pub fn area(&self) -> f32 {
        std::f32::consts::PI * self.radius * self.radius
    }
}

/// Welzl's minimal enclosing circle of `points` (frame of the points).
pub fn minimal_enclosing_circle(points: &[Vec2]) -> BoundingCircle {
    let mut hull: Vec<[f64; 2]> = convex_hull(points).iter().map(|p| [p.x as f64, p.y as f64]).collect();
    if hull.is_empty() {
        return BoundingCircle {
            center: Vec2::ZERO,
            radius: 0.0,
        };
    }
    // Deterministic Fisher–Yates with xorshift64 (G. Marsaglia, 2003).
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15 ^ hull.len() as u64;
    for i in (1..hull.len()).rev() {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let j = (state % (i as u64 + 1)) as usize;
        hull.swap(i, j);
    }
    let mut d = Disc::point(hull[0]);
    for i in 1..hull.len() {
        if d.contains(hull[i]) {
            continue;
        }
        d = Disc::point(hull[i]);
        for j in 0..i {
            if d.contains(hull[j]) {
                continue;
            }
            d = Disc::diameter(hull[i], hull[j]);
            for k in 0..j {
                if !d.contains(hull[k]) {
                    d = Disc::three(hull[i], hull[j], hull[k]);
                }
            }
        }
    }
    let center = Vec2::new(d.c[0] as f32, d.c[1] as f32);
    // Grow the f32 radius to cover every input point as f32 sees it.
    let mut radius = d.r as f32;
    for p in points {
        let dist = center.distance(*p);
        if dist > radius {
            radius = dist;
        }
    }
    BoundingCircle { center, radius }
}

/// A disc in f64 during Welzl's loops.
#[derive(Clone, Copy)]
struct Disc {
    c: [f64; 2],
    r: f64,
}

impl Disc {
    fn point(p: [f64; 2]) -> Disc {
        Disc { c: p, r: 0.0 }
    }

    fn diameter(a: [f64; 2], b: [f64; 2]) -> Disc {
        let c = [0.5 * (a[0] + b[0]), 0.5 * (a[1] + b[1])];
        Disc {
            c,
            r: dist(c, a).max(dist(c, b)),
        }
    }

    /// Circumcircle; for (nearly) collinear points, the disc on the farthest pair.
    fn three(a: [f64; 2], b: [f64; 2], c: [f64; 2]) -> Disc {
        let (bx, by) = (b[0] - a[0], b[1] - a[1]);
        let (cx, cy) = (c[0] - a[0], c[1] - a[1]);
        let d = 2.0 * (bx * cy - by * cx);
        let scale = (bx * bx + by * by).max(cx * cx + cy * cy);
        if d.abs() <= 1e-12 * scale {
            let pairs = [Disc::diameter(a, b), Disc::diameter(a, c), Disc::diameter(b, c)];
            return pairs.into_iter().fold(pairs[0], |m, x| if x.r > m.r { x } else { m });
        }
        let b2 = bx * bx + by * by;
        let c2 = cx * cx + cy * cy;
        let ux = (cy * b2 - by * c2) / d;
        let uy = (bx * c2 - cx * b2) / d;
        let center = [a[0] + ux, a[1] + uy];
        Disc {
            c: center,
            r: dist(center, a).max(dist(center, b)).max(dist(center, c)),
        }
    }

    /// Inside with a relative slack of 1e-12 (f64), so points on the circle are not
    /// re-added forever by rounding.
    fn contains(&self, p: [f64; 2]) -> bool {
        dist(self.c, p) <= self.r * (1.0 + 1e-12) + 1e-300
    }
}

fn dist(a: [f64; 2], b: [f64; 2]) -> f64 {
    ((a[0] - b[0]).powi(2) + (a[1] - b[1]).powi(2)).sqrt()
}
