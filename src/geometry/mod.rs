//! Shapes and the geometry computed once per shape.
//!
//! Three shapes cover what the sandbox needs: [`Circle`], [`Polygon`] (any simple
//! polygon, convex or not) and [`Segment`] (walls and lines, like the pool borders in
//! Ren and Xie 2011). All coordinates are in the shape's local frame, in metres, y-up; a
//! [`crate::math::Pose`] places that frame in the world.
//!
//! Building a polygon validates and normalises it (see [`Polygon::new`]) and caches what
//! every query needs: outward normals, convexity, a convex decomposition
//! ([`decompose`]), the local bounding box and bounding-volume trees over the edges and
//! the pieces ([`edge_tree`]). Mass properties live in [`mass`]. Test and benchmark
//! shapes at any vertex count come from [`families`].
//!
//! A [`ShapeDesc`] is a shape as it was given (the radius, the points in the order
//! written), plain data that [`ShapeDesc::build`] turns into a [`Shape`]; a body keeps it
//! so that saving writes the shape as it was given, not as it was normalised.

mod convex;
pub mod decompose;
mod desc;
pub mod edge_tree;
pub mod families;
mod flip;
mod half_plane;
pub mod mass;
mod monotone;
mod polygon;
pub(crate) mod predicates;
mod shape;
pub mod support_ring;
mod sweep;
mod validate;

pub use convex::{ConvexPolygon, ConvexView, VertexSummary};
pub use desc::ShapeDesc;
pub use edge_tree::EdgeTree;
pub use families::Family;
pub use half_plane::clip_half_plane;
pub use mass::MassProperties;
pub use polygon::{BuildStage, Polygon, PolygonError};
pub use shape::{Circle, Segment, Shape, ShapeError, ShapeKind};
pub use support_ring::SupportRing;
