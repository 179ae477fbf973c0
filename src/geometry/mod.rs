//! Shapes and the geometry computed once per shape.
//!
//! Three shapes cover what the sandbox needs: [`Circle`], [`Polygon`] (any simple
//! polygon, convex or not) and [`Segment`] (walls and lines, like the pool borders of
//! seed 003). All coordinates are in the shape's local frame, in metres, y-up; a
//! [`crate::math::Pose`] places that frame in the world.
//!
//! Building a polygon validates and normalises it (see [`Polygon::new`]) and caches what
//! every query needs: outward normals, convexity, a convex decomposition
//! ([`decompose`]), and the local bounding box. Mass properties live in [`mass`].

mod convex;
pub mod decompose;
pub mod mass;
mod polygon;
pub(crate) mod predicates;
mod shape;
mod validate;

pub use convex::{ConvexPolygon, ConvexView};
pub use mass::MassProperties;
pub use polygon::{Polygon, PolygonError};
pub use shape::{Circle, Segment, Shape, ShapeError, ShapeKind};
