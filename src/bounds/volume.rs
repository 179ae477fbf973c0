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
use super::kdop::{Kdop8, KDOP8_DIRECTIONS};
use super::obb::{Obb, ObbMethod};
use crate::geometry::Shape;
use crate::math::{cross, right_perp, Pose, Vec2};

/// Which kind of bounding volume (a lesson preset may name one: `tree_volume`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
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

    /// The name on labels, in panels and in lessons.
    pub fn name(self) -> &'static str {
        match self {
            BoundKind::Aabb => "AABB",
            BoundKind::Circle => "circle",
            BoundKind::Obb => "OBB",
            BoundKind::Kdop8 => "8-DOP",
        }
    }
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

/// What a bounding-volume tree asks of its nodes' volumes (`geometry::edge_tree`): build
/// one around points, bound a projection from above, move one into another frame, and
/// bound the distance between two from below. Each bound errs on the safe side by more
/// than the rounding it involves, so a tree of any kind prunes only what cannot matter
/// and gives the same answers as a tree of boxes.
impl BoundingVolume {
    /// The volume of `kind` around `points` (their own frame).
    pub fn around_points(points: &[Vec2], kind: BoundKind) -> BoundingVolume {
        let here = Pose::IDENTITY;
        match kind {
            BoundKind::Aabb => BoundingVolume::Aabb(Aabb::from_points(points)),
            BoundKind::Circle => BoundingVolume::Circle(BoundingCircle::from_points_posed(points, &here)),
            BoundKind::Obb => BoundingVolume::Obb(Obb::from_points_posed(points, &here)),
            BoundKind::Kdop8 => BoundingVolume::Kdop8(Kdop8::from_points_posed(points, &here)),
        }
    }

    /// An upper bound on `p · axis` over every point `p` of the volume, at least as large
    /// as any such product computed in f32 (a relative slack covers the rounding).
    pub fn max_along(&self, axis: Vec2) -> f32 {
        let (value, magnitude) = match self {
            BoundingVolume::Aabb(b) => {
                let x = if axis.x >= 0.0 { b.max.x } else { b.min.x };
                let y = if axis.y >= 0.0 { b.max.y } else { b.min.y };
                // Exact in the rounding sense already (module docs of `edge_tree`).
                return x * axis.x + y * axis.y;
            }
            BoundingVolume::Circle(c) => (
                c.center.dot(axis) + c.radius * axis.length(),
                c.center.length() + c.radius,
            ),
            BoundingVolume::Obb(o) => {
                let [u, v] = o.axes();
                (
                    o.center.dot(axis) + o.half_extents.x * u.dot(axis).abs() + o.half_extents.y * v.dot(axis).abs(),
                    o.center.length() + o.half_extents.length(),
                )
            }
            BoundingVolume::Kdop8(k) => {
                // The 8-DOP lies in its box (slabs 0 and 1) and in its diamond (slabs 2
                // and 3, an orthonormal pair): bound the projection over each by its
                // corner furthest along the axis, and keep the smaller. No outline to
                // build, so a tree of 8-DOPs prunes as cheaply as one of boxes.
                let corner = |i: usize, j: usize| {
                    let (di, dj) = (KDOP8_DIRECTIONS[i], KDOP8_DIRECTIONS[j]);
                    let (ai, aj) = (axis.dot(di), axis.dot(dj));
                    let si = if ai >= 0.0 { k.max[i] } else { k.min[i] };
                    let sj = if aj >= 0.0 { k.max[j] } else { k.min[j] };
                    si * ai + sj * aj
                };
                let magnitude = k.max.iter().chain(&k.min).fold(0.0f32, |m, x| m.max(x.abs()));
                (corner(0, 1).min(corner(2, 3)), 2.0 * magnitude)
            }
        };
        value + 16.0 * f32::EPSILON * magnitude * axis.length()
    }

    /// This volume, given in frame B, expressed in frame A by `b_to_a` and grown by
    /// `margin` (m) all round: a volume of the same kind holding every point it held.
    pub fn moved(&self, b_to_a: &Pose, margin: f32) -> BoundingVolume {
        match self {
            BoundingVolume::Aabb(b) => {
                let corners = [b.min, Vec2::new(b.max.x, b.min.y), b.max, Vec2::new(b.min.x, b.max.y)];
                BoundingVolume::Aabb(Aabb::from_points(&corners.map(|c| b_to_a.apply_point(c))).inflated(margin))
            }
            BoundingVolume::Circle(c) => {
                let center = b_to_a.apply_point(c.center);
                let slack = 8.0 * f32::EPSILON * (center.length() + c.radius);
                BoundingVolume::Circle(BoundingCircle {
                    center,
                    radius: c.radius + margin + slack,
                })
            }
            BoundingVolume::Obb(o) => {
                let center = b_to_a.apply_point(o.center);
                let slack = 8.0 * f32::EPSILON * (center.length() + o.half_extents.length());
                BoundingVolume::Obb(Obb {
                    center,
                    rotation: b_to_a.rotation.compose(o.rotation),
                    half_extents: o.half_extents + Vec2::splat(margin + slack),
                })
            }
            BoundingVolume::Kdop8(k) => {
                // The directions are fixed in each frame: bound the turned outline again.
                let mut moved = Kdop8::EMPTY;
                for p in k.outline() {
                    moved.add_point(b_to_a.apply_point(p));
                }
                let slack = 8.0 * f32::EPSILON * moved.max.iter().chain(&moved.min).fold(0.0f32, |m, x| m.max(x.abs()));
                for i in 0..4 {
                    moved.min[i] -= margin + slack;
                    moved.max[i] += margin + slack;
                }
                BoundingVolume::Kdop8(moved)
            }
        }
    }

    /// A lower bound on the distance between two volumes of the same kind (0 when they
    /// overlap): a separating direction's gap, which the true distance is at least.
    /// Mixed kinds give 0 (no bound).
    pub fn gap_to(&self, other: &BoundingVolume) -> f32 {
        use BoundingVolume as V;
        let gap = match (self, other) {
            (V::Aabb(p), V::Aabb(q)) => (p.min - q.max).max(q.min - p.max).max(Vec2::ZERO).length(),
            (V::Circle(p), V::Circle(q)) => (p.center - q.center).length() - p.radius - q.radius,
            (V::Obb(p), V::Obb(q)) => {
                let (pa, qa) = (p.outline(), q.outline());
                p.axes()
                    .into_iter()
                    .chain(q.axes())
                    .map(|axis| interval_gap(project(&pa, axis), project(&qa, axis)))
                    .fold(0.0, f32::max)
            }
            (V::Kdop8(p), V::Kdop8(q)) => (0..4)
                .map(|i| (p.min[i] - q.max[i]).max(q.min[i] - p.max[i]))
                .fold(0.0, f32::max),
            _ => 0.0,
        };
        gap.max(0.0)
    }
}

/// How far apart two intervals are (negative when they overlap).
fn interval_gap(a: (f32, f32), b: (f32, f32)) -> f32 {
    (a.0 - b.1).max(b.0 - a.1)
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
