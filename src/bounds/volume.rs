//! The four kinds of bounding volume behind one enum, built for any shape at any pose,
//! with an overlap test that works across kinds.
//!
//! Why across kinds: Zakharov and Sadykov's (2003) advice is to pick the volume per body (OBBs for long
//! rotating bodies, circles where precision matters little, AABB/k-DOP for bodies at
//! rest), so a broad phase meets mixed pairs and needs an answer for them, not `None`.
//! Every kind is convex and all but the circle are polygons, so mixed pairs have exact
//! tests: polygon–polygon by separating axes over both outlines' edge normals, and
//! circle–polygon by the distance from the centre to the polygon. Same-kind pairs take
//! each kind's own fast test.

use super::aabb::Aabb;
use super::circle::BoundingCircle;
use super::kdop::Kdop8;
use super::obb::{Obb, ObbMethod};
use crate::geometry::Shape;
use crate::math::{cross, right_perp, Pose, Vec2};

/// Which kind of bounding volume.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BoundKind {
    /// Axis-aligned box.
    Aabb,
    /// Minimal enclosing circle.
    Circle,
    /// Oriented box ([`ObbMethod::MinArea`]).
    Obb,
    /// 8-DOP.
    Kdop8,
}

impl BoundKind {
    /// All kinds, in a fixed order (for tables and UI lists).
    pub const ALL: [BoundKind; 4] = [BoundKind::Aabb, BoundKind::Circle, BoundKind::Obb, BoundKind::Kdop8];
}

/// A bounding volume of any kind, world frame.
#[derive(Clone, Debug, PartialEq)]
pub enum BoundingVolume {
    /// Axis-aligned box.
    Aabb(Aabb),
    /// Circle.
    Circle(BoundingCircle),
    /// Oriented box.
    Obb(Obb),
    /// 8-DOP.
    Kdop8(Kdop8),
}

/// Number of points used for a circle's outline when it meets a polygonal volume or is
/// drawn. Only for drawing: the cross-kind test uses the true circle.
const CIRCLE_OUTLINE_SEGMENTS: usize = 48;

impl BoundingVolume {
    /// The volume of kind `kind` around `shape` placed by `pose` (world frame). Circles
    /// are bounded exactly; the OBB uses [`ObbMethod::MinArea`].
    pub fn of_shape(shape: &Shape, pose: &Pose, kind: BoundKind) -> BoundingVolume {
        Self::of_shape_with(shape, pose, kind, ObbMethod::default())
    }

    /// As [`Self::of_shape`], choosing how an OBB's axes are found.
    pub fn of_shape_with(shape: &Shape, pose: &Pose, kind: BoundKind, obb_method: ObbMethod) -> BoundingVolume {
        let world_center = pose.translation;
        match (shape, kind) {
            (Shape::Circle(c), BoundKind::Aabb) => {
                let r = Vec2::splat(c.radius());
                BoundingVolume::Aabb(Aabb::new(world_center - r, world_center + r))
            }
            (Shape::Circle(c), BoundKind::Circle) => BoundingVolume::Circle(BoundingCircle {
                center: world_center,
                radius: c.radius(),
            }),
            (Shape::Circle(c), BoundKind::Obb) => BoundingVolume::Obb(Obb {
                center: world_center,
                rotation: pose.rotation,
                half_extents: Vec2::splat(c.radius()),
            }),
            (Shape::Circle(c), BoundKind::Kdop8) => BoundingVolume::Kdop8(Kdop8::from_circle(world_center, c.radius())),
            (_, kind) => {
                let segment_points;
                let local_points: &[Vec2] = match shape {
                    Shape::Polygon(p) => p.vertices(),
                    Shape::Segment(s) => {
                        segment_points = [s.a(), s.b()];
                        &segment_points
                    }
                    Shape::Circle(_) => &[],
                };
                match kind {
                    BoundKind::Aabb => BoundingVolume::Aabb(Aabb::from_points_posed(local_points, pose)),
                    BoundKind::Circle => BoundingVolume::Circle(BoundingCircle::from_points_posed(local_points, pose)),
                    BoundKind::Obb => BoundingVolume::Obb(Obb::from_points_posed_with(local_points, pose, obb_method)),
                    BoundKind::Kdop8 => BoundingVolume::Kdop8(Kdop8::from_points_posed(local_points, pose)),
                }
            }
        }
    }

    /// Which kind this is.
    pub fn kind(&self) -> BoundKind {
        match self {
            BoundingVolume::Aabb(_) => BoundKind::Aabb,
            BoundingVolume::Circle(_) => BoundKind::Circle,
            BoundingVolume::Obb(_) => BoundKind::Obb,
            BoundingVolume::Kdop8(_) => BoundKind::Kdop8,
        }
    }

    /// Do the two volumes overlap (touching counts)? Exact for every pair of kinds:
    /// each kind's own test for same-kind pairs, separating axes or circle–polygon
    /// distance across kinds (see the module docs).
    pub fn overlaps(&self, other: &BoundingVolume) -> bool {
        use BoundingVolume as V;
        match (self, other) {
            (V::Aabb(a), V::Aabb(b)) => a.overlaps(b),
            (V::Circle(a), V::Circle(b)) => a.overlaps(b),
            (V::Obb(a), V::Obb(b)) => a.overlaps(b),
            (V::Kdop8(a), V::Kdop8(b)) => a.overlaps(b),
            (V::Circle(c), poly) | (poly, V::Circle(c)) => circle_overlaps_convex(c, &poly.outline()),
            (a, b) => convex_polygons_overlap(&a.outline(), &b.outline()),
        }
    }

    /// True when `world_point` is inside or on the volume.
    pub fn contains(&self, world_point: Vec2) -> bool {
        match self {
            BoundingVolume::Aabb(b) => b.contains(world_point),
            BoundingVolume::Circle(c) => c.contains(world_point),
            BoundingVolume::Obb(o) => o.contains(world_point),
            BoundingVolume::Kdop8(k) => k.contains(world_point),
        }
    }

    /// The outline as counter-clockwise world-frame points, for drawing (a circle gives
    /// a 48-gon inscribed in it).
    pub fn outline(&self) -> Vec<Vec2> {
        match self {
            BoundingVolume::Aabb(b) => b.outline(),
            BoundingVolume::Circle(c) => c.outline(CIRCLE_OUTLINE_SEGMENTS),
            BoundingVolume::Obb(o) => o.outline(),
            BoundingVolume::Kdop8(k) => k.outline(),
        }
    }

    /// Area (m²).
    pub fn area(&self) -> f32 {
        match self {
            BoundingVolume::Aabb(b) => b.area(),
            BoundingVolume::Circle(c) => c.area(),
            BoundingVolume::Obb(o) => o.area(),
            BoundingVolume::Kdop8(k) => k.area(),
        }
    }
}

/// Builds the bounding volume of `kind` for `shape` at `pose` (world frame); the same as
/// [`BoundingVolume::of_shape`].
pub fn bound_shape(shape: &Shape, pose: &Pose, kind: BoundKind) -> BoundingVolume {
    BoundingVolume::of_shape(shape, pose, kind)
}

/// Separating axes for two convex counter-clockwise point lists (degenerate ones too:
/// a segment contributes its normal, a point nothing; the centre-to-centre direction is
/// added so two points are still told apart).
fn convex_polygons_overlap(a: &[Vec2], b: &[Vec2]) -> bool {
    if a.is_empty() || b.is_empty() {
        return false;
    }
    let mean = |p: &[Vec2]| p.iter().copied().sum::<Vec2>() / p.len() as f32;
    let extra = [mean(b) - mean(a)];
    edge_axes(a)
        .chain(edge_axes(b))
        .chain(extra)
        .filter(|axis| *axis != Vec2::ZERO)
        .all(|axis| {
            let (lo_a, hi_a) = project(a, axis);
            let (lo_b, hi_b) = project(b, axis);
            lo_a <= hi_b && lo_b <= hi_a
        })
}

/// Outward (for counter-clockwise input) edge normals, not normalised.
fn edge_axes(p: &[Vec2]) -> impl Iterator<Item = Vec2> + '_ {
    let n = p.len();
    (0..n).map(move |i| right_perp(p[(i + 1) % n] - p[i]))
}

fn project(points: &[Vec2], axis: Vec2) -> (f32, f32) {
    points.iter().fold((f32::INFINITY, f32::NEG_INFINITY), |(lo, hi), p| {
        let d = p.dot(axis);
        (lo.min(d), hi.max(d))
    })
}

/// Circle against a convex counter-clockwise polygon: the centre is inside, or within
/// the radius of an edge.
fn circle_overlaps_convex(circle: &BoundingCircle, poly: &[Vec2]) -> bool {
    let n = poly.len();
    if n == 0 {
        return false;
    }
    let c = circle.center;
    if n >= 3 && (0..n).all(|i| cross(poly[(i + 1) % n] - poly[i], c - poly[i]) >= 0.0) {
        return true;
    }
    let r2 = circle.radius * circle.radius;
    (0..n).any(|i| distance_squared_to_segment(c, poly[i], poly[(i + 1) % n]) <= r2)
}

/// Squared distance from `p` to the closed segment `a`–`b`.
pub(crate) fn distance_squared_to_segment(p: Vec2, a: Vec2, b: Vec2) -> f32 {
    let ab = b - a;
    let len2 = ab.length_squared();
    let t = if len2 > 0.0 {
        ((p - a).dot(ab) / len2).clamp(0.0, 1.0)
    } else {
        0.0
    };
    (a + ab * t).distance_squared(p)
}
