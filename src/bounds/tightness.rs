//! How well a bounding volume fits its shape (Zakharov and Sadykov 2003): τ, d and ρ = τ / d.
//!
//! * τ (tau) is the Hausdorff distance between the volume V and the filled shape S.
//!   S ⊂ V, so it is the largest distance from a point of V to S:
//!   τ = max over q ∈ V of dist(q, S).
//! * d is the shape's diameter, the largest distance between two of its points (two hull
//!   vertices for a polygon, 2r for a circle, the length for a segment).
//! * ρ = τ / d, a scale-free score: 0 is a perfect fit.
//!
//! # Computing τ
//!
//! For a convex shape dist(·, S) is a convex function, so its maximum over V is at a
//! corner of V (or on a circle's rim). For a non-convex shape it is not: inside a U's
//! notch, or the cavity of a C, the farthest point can be deep inside V, far from its
//! corners. So τ is found numerically:
//!
//! 1. candidates: V's outline vertices; points along V's boundary at spacing ≤ h; the
//!    nodes of a grid of spacing h over V's box that lie in V. h = (longest side of V's
//!    box) / `resolution` (64 by default);
//! 2. local refinement: from the 8 best candidates, a compass (pattern) search with step
//!    h/2 halving down to h/512, moving only to points inside V.
//!
//! Accuracy: dist(·, S) is 1-Lipschitz. Every point of V is within h/√2 of a grid node,
//! or (near the boundary, where that node may fall outside V) within h/√2 + h/2 of a
//! boundary sample, so the true τ is at most (best sample) + 1.21·h. The result reports
//! that guarantee as `tau_error`: the true τ lies in [`tau`, `tau + tau_error`]. In
//! practice refinement brings τ within rounding of the true value.
//!
//! Cost: O(resolution² · n) distance evaluations for an n-vertex polygon; computed on
//! request only, never when a volume is built.

use super::volume::{distance_squared_to_segment, BoundingVolume};
use crate::geometry::Shape;
use crate::math::{Pose, Vec2};

/// Default grid resolution for [`tightness`] (cells along the longer side of the
/// volume's box).
pub const DEFAULT_TIGHTNESS_RESOLUTION: usize = 64;

/// Fit of a bounding volume to its shape (Zakharov and Sadykov 2003).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tightness {
    /// Hausdorff distance between volume and shape (metres), a lower estimate.
    pub tau: f32,
    /// Guaranteed bound on the numeric error of `tau` (metres): the true Hausdorff
    /// distance lies in `[tau, tau + tau_error]`.
    pub tau_error: f32,
    /// Largest distance between two points of the shape (metres).
    pub diameter: f32,
    /// `tau / diameter` (dimensionless).
    pub rho: f32,
    /// The point of the volume where it fits worst: `tau` from the shape (world frame).
    pub far_point: Vec2,
    /// The point of the shape nearest `far_point`: with it, the pair realising `tau`.
    pub near_point: Vec2,
}

/// Tightness of `volume` (world frame) around `shape` placed by `pose`, on a 64-cell
/// grid. See the module documentation for the method and its accuracy.
pub fn tightness(shape: &Shape, pose: &Pose, volume: &BoundingVolume) -> Tightness {
    tightness_with_resolution(shape, pose, volume, DEFAULT_TIGHTNESS_RESOLUTION)
}

/// As [`tightness`], with `resolution` grid cells along the longer side (at least 2).
pub fn tightness_with_resolution(shape: &Shape, pose: &Pose, volume: &BoundingVolume, resolution: usize) -> Tightness {
    let resolution = resolution.max(2);
    let dist = |q: Vec2| distance_to_shape(shape, pose, q);
    let diameter = shape_diameter(shape);

    let (lo, hi) = match volume {
        BoundingVolume::Circle(c) => (c.center - Vec2::splat(c.radius), c.center + Vec2::splat(c.radius)),
        other => {
            let o = other.outline();
            let lo = o.iter().copied().fold(Vec2::splat(f32::INFINITY), Vec2::min);
            let hi = o.iter().copied().fold(Vec2::splat(f32::NEG_INFINITY), Vec2::max);
            (lo, hi)
        }
    };
    let side = (hi - lo).max_element();
    if !side.is_finite() || side <= 0.0 {
        return Tightness {
            tau: 0.0,
            tau_error: 0.0,
            diameter,
            rho: 0.0,
            far_point: lo,
            near_point: closest_point_on_shape(shape, pose, lo),
        };
    }
    let h = side / resolution as f32;

    // 1. Candidates.
    let mut candidates: Vec<(f32, Vec2)> = Vec::new();
    let mut push = |q: Vec2| candidates.push((dist(q), q));
    match volume {
        BoundingVolume::Circle(c) => {
            let k = ((std::f32::consts::TAU * c.radius / h).ceil() as usize).max(8);
            for q in c.outline(k) {
                push(q);
            }
        }
        other => {
            let o = other.outline();
            let n = o.len();
            for i in 0..n {
                let (a, b) = (o[i], o[(i + 1) % n]);
                let steps = ((a.distance(b) / h).ceil() as usize).max(1);
                for s in 0..steps {
                    push(a + (b - a) * (s as f32 / steps as f32));
                }
            }
        }
    }
    let nx = ((hi.x - lo.x) / h).ceil() as usize;
    let ny = ((hi.y - lo.y) / h).ceil() as usize;
    for j in 0..=ny {
        for i in 0..=nx {
            let q = lo + Vec2::new(i as f32 * h, j as f32 * h);
            if volume.contains(q) {
                push(q);
            }
        }
    }
    candidates.sort_by(|a, b| b.0.total_cmp(&a.0));
    let sampled_max = candidates.first().map_or(0.0, |c| c.0);

    // 2. Compass search from the best few.
    let r = std::f32::consts::FRAC_1_SQRT_2;
    let directions = [
        Vec2::new(1.0, 0.0),
        Vec2::new(-1.0, 0.0),
        Vec2::new(0.0, 1.0),
        Vec2::new(0.0, -1.0),
        Vec2::new(r, r),
        Vec2::new(-r, r),
        Vec2::new(r, -r),
        Vec2::new(-r, -r),
    ];
    let mut tau = sampled_max;
    let mut far_point = candidates.first().map_or(lo, |c| c.1);
    for &(start_value, start) in candidates.iter().take(8) {
        let (mut value, mut q) = (start_value, start);
        let mut step = 0.5 * h;
        while step > h / 512.0 {
            let best = directions
                .iter()
                .map(|d| q + *d * step)
                .filter(|p| volume.contains(*p))
                .map(|p| (dist(p), p))
                .fold(None, |m: Option<(f32, Vec2)>, x| match m {
                    Some(m) if m.0 >= x.0 => Some(m),
                    _ => Some(x),
                });
            match best {
                Some((v, p)) if v > value => {
                    value = v;
                    q = p;
                }
                _ => step *= 0.5,
            }
        }
        if value > tau {
            (tau, far_point) = (value, q);
        }
    }
    let bound = sampled_max + h * (std::f32::consts::FRAC_1_SQRT_2 + 0.5);
    Tightness {
        tau,
        tau_error: (bound - tau).max(0.0),
        diameter,
        rho: if diameter > 0.0 { tau / diameter } else { 0.0 },
        far_point,
        near_point: closest_point_on_shape(shape, pose, far_point),
    }
}

/// The point of the filled shape placed by `pose` nearest `world_point` (world frame):
/// the point itself when it is inside.
pub fn closest_point_on_shape(shape: &Shape, pose: &Pose, world_point: Vec2) -> Vec2 {
    let q = pose.apply_inv_point(world_point);
    let on_segment = |a: Vec2, b: Vec2| {
        let ab = b - a;
        let t = if ab.length_squared() > 0.0 {
            ((q - a).dot(ab) / ab.length_squared()).clamp(0.0, 1.0)
        } else {
            0.0
        };
        a + ab * t
    };
    let local = match shape {
        Shape::Circle(c) => {
            let r = c.radius();
            if q.length() <= r {
                q
            } else {
                q.normalize_or_zero() * r
            }
        }
        Shape::Segment(s) => on_segment(s.a(), s.b()),
        Shape::Polygon(p) => {
            if distance_to_shape(shape, pose, world_point) == 0.0 {
                q
            } else {
                let v = p.vertices();
                (0..v.len())
                    .map(|i| on_segment(v[i], v[(i + 1) % v.len()]))
                    .min_by(|a, b| a.distance_squared(q).total_cmp(&b.distance_squared(q)))
                    .unwrap_or(q)
            }
        }
    };
    pose.apply_point(local)
}

/// Two points of the shape (local frame) at the largest distance from each other: the
/// pair behind [`shape_diameter`] (a circle gives the ends of its horizontal diameter).
pub fn shape_diameter_points(shape: &Shape) -> (Vec2, Vec2) {
    match shape {
        Shape::Circle(c) => (Vec2::new(-c.radius(), 0.0), Vec2::new(c.radius(), 0.0)),
        Shape::Segment(s) => (s.a(), s.b()),
        Shape::Polygon(p) => {
            let hull = super::hull::convex_hull(p.vertices());
            let mut best = (0.0f32, Vec2::ZERO, Vec2::ZERO);
            for i in 0..hull.len() {
                for j in i + 1..hull.len() {
                    let d = hull[i].distance_squared(hull[j]);
                    if d > best.0 {
                        best = (d, hull[i], hull[j]);
                    }
                }
            }
            (best.1, best.2)
        }
    }
}

/// Distance (metres) from `world_point` to the filled shape placed by `pose`: 0 inside,
/// else the distance to the boundary.
pub fn distance_to_shape(shape: &Shape, pose: &Pose, world_point: Vec2) -> f32 {
    let q = pose.apply_inv_point(world_point);
    match shape {
        Shape::Circle(c) => (q.length() - c.radius()).max(0.0),
        Shape::Segment(s) => distance_squared_to_segment(q, s.a(), s.b()).sqrt(),
        Shape::Polygon(p) => {
            let v = p.vertices();
            let n = v.len();
            let mut inside = false;
            let mut best = f32::INFINITY;
            for i in 0..n {
                let (a, b) = (v[i], v[(i + 1) % n]);
                // Crossing number (W. R. Franklin's PNPOLY rule).
                if (a.y > q.y) != (b.y > q.y) && q.x < a.x + (q.y - a.y) / (b.y - a.y) * (b.x - a.x) {
                    inside = !inside;
                }
                best = best.min(distance_squared_to_segment(q, a, b));
            }
            if inside {
                0.0
            } else {
                best.sqrt()
            }
        }
    }
}

/// Largest distance between two points of the shape (frame-independent).
pub fn shape_diameter(shape: &Shape) -> f32 {
    match shape {
        Shape::Circle(c) => 2.0 * c.radius(),
        Shape::Segment(s) => s.a().distance(s.b()),
        Shape::Polygon(p) => {
            // The farthest pair is a pair of hull vertices; hulls are small next to the
            // polygon, so the O(h²) scan is fine for an on-request measure.
            let hull = super::hull::convex_hull(p.vertices());
            let mut best = 0.0f32;
            for i in 0..hull.len() {
                for j in i + 1..hull.len() {
                    best = best.max(hull[i].distance_squared(hull[j]));
                }
            }
            best.sqrt()
        }
    }
}
