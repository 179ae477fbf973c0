//! A shape as it was given, before it is built: plain data, no cached geometry.
//!
//! Building ([`ShapeDesc::build`]) validates and normalises: a polygon loses repeated
//! and collinear points and is turned counter-clockwise (see [`Polygon::new`]). The
//! built [`Shape`] therefore cannot say how it was written, and a body that is saved
//! must write its shape as it was given (a clockwise outline stays clockwise, a lesson
//! preset's vertex `k` stays vertex `k`). So a body keeps its description next to the
//! built shape, and saving writes the description back.

use super::polygon::Polygon;
use super::shape::{Circle, Segment, Shape, ShapeError};
use crate::math::Vec2;

/// A shape as given, in its body's local frame (m). Not validated: [`ShapeDesc::build`]
/// is where a bad radius or a self-intersecting polygon is refused.
#[derive(Clone, Debug, PartialEq)]
pub enum ShapeDesc {
    /// A circle centred on the body's origin.
    Circle {
        /// Radius (m).
        radius: f32,
    },
    /// A simple polygon, convex or not, in either orientation, exactly as given.
    Polygon {
        /// The vertices, in the order given.
        points: Vec<Vec2>,
    },
    /// A line segment between two points.
    Segment {
        /// First end point.
        a: Vec2,
        /// Second end point.
        b: Vec2,
    },
}

impl ShapeDesc {
    /// Validates and builds the shape. The error says what is wrong, with the place
    /// inside the shape where the geometry knows it: the vertex that is not finite, the
    /// two edges that cross (indices into `points` as given).
    pub fn build(&self) -> Result<Shape, ShapeError> {
        match self {
            ShapeDesc::Circle { radius } => Circle::new(*radius).map(Shape::Circle),
            ShapeDesc::Segment { a, b } => Segment::new(*a, *b).map(Shape::Segment),
            ShapeDesc::Polygon { points } => Ok(Shape::Polygon(Polygon::new(points)?)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::PolygonError;

    #[test]
    fn a_clockwise_outline_builds_counter_clockwise_and_its_description_stays() {
        //  1 ── 2    given clockwise: 0 (0,0) → 1 (0,1) → 2 (1,1) → 3 (1,0);
        //  │    │    built counter-clockwise
        //  0 ── 3
        let points = vec![
            Vec2::new(0.0, 0.0),
            Vec2::new(0.0, 1.0),
            Vec2::new(1.0, 1.0),
            Vec2::new(1.0, 0.0),
        ];
        let desc = ShapeDesc::Polygon { points: points.clone() };
        let Ok(Shape::Polygon(built)) = desc.build() else {
            panic!("a unit square builds")
        };
        assert_ne!(built.vertices(), points.as_slice(), "normalised");
        assert_eq!(desc, ShapeDesc::Polygon { points }, "the description is untouched");
    }

    #[test]
    fn errors_keep_the_geometry_s_place() {
        //  3   1     a bow tie: edge 0 (0 → 1) crosses edge 2 (2 → 3)
        //  │ ╳ │
        //  0   2
        let bow_tie = ShapeDesc::Polygon {
            points: vec![
                Vec2::new(0.0, 0.0),
                Vec2::new(1.0, 1.0),
                Vec2::new(1.0, 0.0),
                Vec2::new(0.0, 1.0),
            ],
        };
        assert!(matches!(
            bow_tie.build(),
            Err(ShapeError::Polygon(PolygonError::SelfIntersecting { .. }))
        ));
        assert!(matches!(
            ShapeDesc::Circle { radius: f32::NAN }.build(),
            Err(ShapeError::NonFiniteRadius(r)) if r.is_nan()
        ));
    }
}
