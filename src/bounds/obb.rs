//! Oriented bounding boxes: two ways to choose the axes, and the separating-axis
//! overlap test.
//!
//! * [`ObbMethod::Covariance`] (Liu et al. 2018; S. Gottschalk, M. Lin, D. Manocha, "OBBTree",
//!   SIGGRAPH 1996): the axes are the eigenvectors of the covariance matrix of the
//!   convex hull's vertices. Cheap (one pass), but it depends on how the vertices are
//!   spread, not only on the shape: a square's covariance is isotropic, so its axes are
//!   arbitrary and a rotated square gets a box up to twice its area.
//! * [`ObbMethod::MinArea`] (G. Toussaint, "Solving geometric problems with the rotating
//!   calipers", 1983; H. Freeman, R. Shapira, 1975): the minimum-area rectangle has a
//!   side on a hull edge, so we try every hull edge direction, tracking the three other
//!   extreme vertices with calipers that only move forward: O(h) after the hull.
//!
//! **The default is `MinArea`**: it is the tightest box by area, exact for rectangles,
//! and costs O(h log h) once per shape (boxes are built in the local frame and then
//! posed, so nothing is recomputed as bodies move). Covariance stays available because
//! Liu et al. (2018) use it and the lab compares the two.
//!
//! Overlap of two OBBs by separating axes (Zakharov and Sadykov 2003): in 2D only the two axes of each
//! box can separate them, four tests in all.

use super::hull::convex_hull;
use crate::math::{cross, Pose, Rot, Vec2};

/// How the axes of an [`Obb`] are chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum ObbMethod {
    /// Minimum-area rectangle by rotating calipers (the default; see the module docs).
    #[default]
    MinArea,
    /// Eigenvectors of the covariance of the hull vertices (Liu et al. 2018).
    Covariance,
}

/// An oriented box in the world frame.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Obb {
    /// Centre, world frame (metres).
    pub center: Vec2,
    /// Orientation: the box's x axis is `(cos, sin)`, its y axis `(-sin, cos)`.
    pub rotation: Rot,
    /// Half the side lengths along the box's own axes (metres, ≥ 0).
    pub half_extents: Vec2,
}

impl Obb {
    /// The OBB of `local_points` placed by `pose`, with the default method
    /// ([`ObbMethod::MinArea`]).
    pub fn from_points_posed(local_points: &[Vec2], pose: &Pose) -> Self {
        Self::from_points_posed_with(local_points, pose, ObbMethod::default())
    }

    /// The OBB of `local_points` placed by `pose`. Computed in the local frame, then
    /// posed (both methods commute with rigid motions). No points: a zero box at the
    /// pose's origin.
    pub fn from_points_posed_with(local_points: &[Vec2], pose: &Pose, method: ObbMethod) -> Self {
        let local = local_obb(local_points, method);
        // Posing rounds by about ε·(|local| + |translation|); grow the box by twice
        // that so every posed input point stays inside.
        let scale = local.center.length() + local.half_extents.length() + pose.translation.length();
        Obb {
            center: pose.apply_point(local.center),
            rotation: pose.rotation.compose(local.rotation),
            half_extents: local.half_extents + Vec2::splat(8.0 * f32::EPSILON * scale),
        }
    }

    /// The box's two unit axes, world frame.
    pub fn axes(&self) -> [Vec2; 2] {
        let x = Vec2::new(self.rotation.cos, self.rotation.sin);
        [x, Vec2::new(-x.y, x.x)]
    }

    /// Separating-axis overlap test on the four box axes. Touching counts as overlap.
    pub fn overlaps(&self, other: &Obb) -> bool {
        let d = other.center - self.center;
        let (a, b) = (self.axes(), other.axes());
        let radius = |axes: &[Vec2; 2], half: Vec2, axis: Vec2| {
            half.x * axes[0].dot(axis).abs() + half.y * axes[1].dot(axis).abs()
        };
        a.iter().chain(b.iter()).all(|&axis| {
            d.dot(axis).abs() <= radius(&a, self.half_extents, axis) + radius(&b, other.half_extents, axis)
        })
    }

    /// True when `world_point` is inside or on the box.
    pub fn contains(&self, world_point: Vec2) -> bool {
        let local = self.rotation.apply_inv(world_point - self.center);
        local.x.abs() <= self.half_extents.x && local.y.abs() <= self.half_extents.y
    }

    /// The four corners, counter-clockwise, world frame.
    pub fn outline(&self) -> Vec<Vec2> {
        let [ax, ay] = self.axes();
        let (hx, hy) = (ax * self.half_extents.x, ay * self.half_extents.y);
        vec![
            self.center - hx - hy,
            self.center + hx - hy,
            self.center + hx + hy,
            self.center - hx + hy,
        ]
    }

    /// Area (m²).
    pub fn area(&self) -> f32 {
        4.0 * self.half_extents.x * self.half_extents.y
    }
}

/// The box in the points' own frame.
fn local_obb(points: &[Vec2], method: ObbMethod) -> Obb {
    let hull = convex_hull(points);
    let axis = match hull.len() {
        0 => {
            return Obb {
                center: Vec2::ZERO,
                rotation: Rot::IDENTITY,
                half_extents: Vec2::ZERO,
            }
        }
        1 => Vec2::X,
        2 => (hull[1] - hull[0]).normalize_or(Vec2::X),
        _ => match method {
            ObbMethod::MinArea => min_area_axis(&hull),
            ObbMethod::Covariance => covariance_axis(&hull),
        },
    };
    fit_box(&hull, axis)
}

/// Box with x axis `axis` (unit) around `points`: extents from one projection pass, so
/// every point is inside whatever produced the axis.
fn fit_box(points: &[Vec2], axis: Vec2) -> Obb {
    let perp = Vec2::new(-axis.y, axis.x);
    let (mut lo, mut hi) = (Vec2::splat(f32::INFINITY), Vec2::splat(f32::NEG_INFINITY));
    for p in points {
        let q = Vec2::new(p.dot(axis), p.dot(perp));
        lo = lo.min(q);
        hi = hi.max(q);
    }
    let mid = 0.5 * (lo + hi);
    // Round the half extents up by a few ulps so the corners computed back in world
    // coordinates still contain the extreme points.
    let half = (0.5 * (hi - lo)) * (1.0 + 4.0 * f32::EPSILON)
        + Vec2::splat(4.0 * f32::EPSILON * hi.abs().max(lo.abs()).max_element());
    Obb {
        center: axis * mid.x + perp * mid.y,
        rotation: Rot {
            cos: axis.x,
            sin: axis.y,
        },
        half_extents: half,
    }
}

/// Rotating calipers over a counter-clockwise hull (≥ 3 vertices, no collinear ones):
/// for each edge direction u (normal n pointing inwards) the extremes are the vertex
/// farthest along u, the one farthest along n and the one least along u; as the edge
/// index advances, u turns counter-clockwise and each extreme only moves forward.
fn min_area_axis(hull: &[Vec2]) -> Vec2 {
    let h = hull.len();
    let at = |i: usize| hull[i % h];
    let (mut right, mut top, mut left) = (1usize, 1usize, 1usize);
    let mut best_area = f32::INFINITY;
    let mut best_axis = Vec2::X;
    for i in 0..h {
        let u = (at(i + 1) - at(i)).normalize_or_zero();
        if u == Vec2::ZERO {
            continue;
        }
        let n = Vec2::new(-u.y, u.x);
        if i == 0 {
            right = i + 1;
        }
        // Each loop is bounded by h steps so rounding cannot make it spin.
        for _ in 0..h {
            if at(right + 1).dot(u) > at(right).dot(u) {
                right += 1;
            } else {
                break;
            }
        }
        if i == 0 {
            top = right;
        }
        for _ in 0..h {
            if at(top + 1).dot(n) > at(top).dot(n) {
                top += 1;
            } else {
                break;
            }
        }
        if i == 0 {
            left = top;
        }
        for _ in 0..h {
            if at(left + 1).dot(u) < at(left).dot(u) {
                left += 1;
            } else {
                break;
            }
        }
        let width = (at(right) - at(left)).dot(u);
        let height = cross(u, at(top) - at(i));
        let area = width * height;
        if area < best_area {
            best_area = area;
            best_axis = u;
        }
    }
    best_axis
}

/// Principal axis of the covariance of the hull vertices: for a symmetric 2×2 matrix
/// [[a, b], [b, c]] the major eigenvector is at angle ½·atan2(2b, a − c).
fn covariance_axis(hull: &[Vec2]) -> Vec2 {
    let n = hull.len() as f64;
    let (mut mx, mut my) = (0.0f64, 0.0f64);
    for p in hull {
        mx += p.x as f64;
        my += p.y as f64;
    }
    mx /= n;
    my /= n;
    let (mut a, mut b, mut c) = (0.0f64, 0.0f64, 0.0f64);
    for p in hull {
        let (dx, dy) = (p.x as f64 - mx, p.y as f64 - my);
        a += dx * dx;
        b += dx * dy;
        c += dy * dy;
    }
    let angle = 0.5 * (2.0 * b).atan2(a - c);
    Vec2::new(angle.cos() as f32, angle.sin() as f32)
}
