//! The shape enum and the two simple shapes.

use super::convex::ConvexView;
use super::polygon::{Polygon, PolygonError};
use crate::bounds::Aabb;
use crate::math::{is_finite, right_perp, Vec2};

/// A circle centred on its body's origin.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Circle {
    radius: f32,
}

/// The origin, as a one-vertex slice: a circle's core for convex queries.
static ORIGIN: [Vec2; 1] = [Vec2::ZERO];

impl Circle {
    /// A circle of `radius` metres; the radius must be finite and positive.
    pub fn new(radius: f32) -> Result<Circle, ShapeError> {
        if !radius.is_finite() {
            return Err(ShapeError::NonFiniteRadius(radius));
        }
        if radius <= 0.0 {
            return Err(ShapeError::NonPositiveRadius(radius));
        }
        Ok(Circle { radius })
    }

    /// Radius in metres.
    pub fn radius(&self) -> f32 {
        self.radius
    }

    /// The circle as a point at the local origin inflated by its radius.
    pub fn view(&self) -> ConvexView<'_> {
        ConvexView {
            vertices: &ORIGIN,
            normals: &[],
            radius: self.radius,
            summary: None,
        }
    }
}

/// A line segment from `a` to `b` in its body's local frame, with no thickness.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Segment {
    vertices: [Vec2; 2],
    normals: [Vec2; 2],
}

impl Segment {
    /// A segment between two distinct finite points.
    pub fn new(a: Vec2, b: Vec2) -> Result<Segment, ShapeError> {
        if !is_finite(a) || !is_finite(b) {
            return Err(ShapeError::NonFinitePoint);
        }
        if (b - a).length_squared() <= f32::EPSILON * f32::EPSILON * a.length_squared().max(1.0) {
            return Err(ShapeError::ZeroLengthSegment);
        }
        let n = right_perp(b - a).normalize();
        Ok(Segment {
            vertices: [a, b],
            normals: [n, -n],
        })
    }

    /// First end point, local frame.
    pub fn a(&self) -> Vec2 {
        self.vertices[0]
    }

    /// Second end point, local frame.
    pub fn b(&self) -> Vec2 {
        self.vertices[1]
    }

    /// The segment as a two-vertex convex view with two opposite normals.
    pub fn view(&self) -> ConvexView<'_> {
        ConvexView {
            vertices: &self.vertices,
            normals: &self.normals,
            radius: 0.0,
            summary: None,
        }
    }
}

/// Why a shape could not be built.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ShapeError {
    /// A circle's radius is NaN or infinite.
    #[error("the radius is not finite: {0}")]
    NonFiniteRadius(f32),
    /// A circle's radius is zero or negative.
    #[error("the radius must be positive, got {0}")]
    NonPositiveRadius(f32),
    /// A segment end point is NaN or infinite.
    #[error("a segment end point is not finite")]
    NonFinitePoint,
    /// A segment's two end points coincide.
    #[error("the segment has zero length (its end points coincide)")]
    ZeroLengthSegment,
    /// The polygon is invalid.
    #[error(transparent)]
    Polygon(#[from] PolygonError),
}

/// Which kind of shape, without its data.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ShapeKind {
    /// [`Circle`]
    Circle,
    /// [`Polygon`]
    Polygon,
    /// [`Segment`]
    Segment,
}

/// Any shape a body can have.
#[derive(Clone, Debug, PartialEq)]
pub enum Shape {
    /// A circle around the body's origin.
    Circle(Circle),
    /// A simple polygon, convex or not.
    Polygon(Polygon),
    /// A line segment.
    Segment(Segment),
}

impl Shape {
    /// Which kind of shape this is.
    pub fn kind(&self) -> ShapeKind {
        match self {
            Shape::Circle(_) => ShapeKind::Circle,
            Shape::Polygon(_) => ShapeKind::Polygon,
            Shape::Segment(_) => ShapeKind::Segment,
        }
    }

    /// Number of convex pieces the decomposition-based narrow phases work on.
    pub fn piece_count(&self) -> usize {
        match self {
            Shape::Polygon(p) => p.pieces().len(),
            _ => 1,
        }
    }

    /// Convex piece `i` as a view (the shape itself for circles and segments).
    // Always inlined: the piece loop and the combine step ask for pieces by index
    // (`narrow/compound.rs`), and as a call, which the compiler kept even when asked
    // to inline, it cost `examples/gjk_workload.rs` 163.5 M instructions against
    // 162.4 M under GjkEpa (callgrind; SatDecomposed 142.4 M against 141.3 M), the
    // same answers.
    #[inline(always)]
    pub fn piece(&self, i: usize) -> ConvexView<'_> {
        match self {
            Shape::Circle(c) => c.view(),
            Shape::Polygon(p) => p.pieces()[i].view(),
            Shape::Segment(s) => s.view(),
        }
    }

    /// Per edge of piece `i`: true when the edge is a diagonal of the convex
    /// decomposition (inside the polygon) rather than part of the outline. Empty for
    /// circles and segments, which have no diagonals.
    pub fn piece_diagonals(&self, i: usize) -> &[bool] {
        match self {
            Shape::Polygon(p) => p.pieces()[i].diagonals(),
            _ => &[],
        }
    }

    /// The whole shape as a view; for a non-convex polygon this is its outline.
    pub fn whole(&self) -> ConvexView<'_> {
        match self {
            Shape::Circle(c) => c.view(),
            Shape::Polygon(p) => p.view(),
            Shape::Segment(s) => s.view(),
        }
    }

    /// Local-frame axis-aligned bounding box.
    pub fn local_aabb(&self) -> Aabb {
        match self {
            Shape::Circle(c) => Aabb::new(Vec2::splat(-c.radius()), Vec2::splat(c.radius())),
            Shape::Polygon(p) => p.local_aabb(),
            Shape::Segment(s) => Aabb::from_points(&[s.a(), s.b()]),
        }
    }

    /// A length that sets the scale of the shape (half the local bounding box diagonal,
    /// at least a millimetre); tolerances are relative to it.
    pub fn size(&self) -> f32 {
        let b = self.local_aabb();
        (0.5 * (b.max - b.min).length()).max(1e-3)
    }
}
