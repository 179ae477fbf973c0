//! Bounding volumes (Zakharov and Sadykov 2003): AABB, bounding circle, OBB and 8-DOP, each with its
//! overlap test, and their tightness.
//!
//! A bounding volume is a cheap outer shape: if two volumes do not overlap, the shapes
//! inside cannot either. The cost model T = Nv·Cv + Np·Cp (Liu et al. 2018; Zakharov and Sadykov 2003) counts these
//! tests (Nv, cost Cv each) against the exact tests they save (Np, cost Cp each).
//!
//! | kind | file | built from | overlap test |
//! |---|---|---|---|
//! | [`Aabb`] | `aabb.rs` | min/max of world points | 2 intervals |
//! | [`BoundingCircle`] | `circle.rs` | Welzl's minimal circle (local, then posed) | centre distance |
//! | [`Obb`] | `obb.rs` | min-area rectangle (default) or covariance axes, local then posed | 4 separating axes |
//! | [`Kdop8`] | `kdop.rs` | projections on x, y and the diagonals of world points | 4 intervals |
//!
//! ```
//! use collision_lab::bounds::{BoundKind, BoundingVolume};
//! use collision_lab::geometry::{Circle, Shape};
//! use collision_lab::math::{Pose, Vec2};
//! let ball = Shape::Circle(Circle::new(1.0).unwrap());
//! let a = BoundingVolume::of_shape(&ball, &Pose::new(Vec2::ZERO, 0.0), BoundKind::Obb);
//! let b = BoundingVolume::of_shape(&ball, &Pose::new(Vec2::new(1.5, 0.0), 0.0), BoundKind::Circle);
//! assert!(a.overlaps(&b)); // kinds may differ
//! ```
//!
//! [`BoundingVolume`] wraps the four; its `overlaps` answers any pair of kinds exactly.
//! [`tightness()`] measures how well a volume fits (τ, d, ρ = τ/d).

mod aabb;
mod circle;
pub(crate) mod hull;
mod kdop;
mod obb;
mod tightness;
mod volume;

pub use aabb::Aabb;
pub use circle::{minimal_enclosing_circle, BoundingCircle};
pub use kdop::{Kdop8, KDOP8_DIRECTIONS};
pub use obb::{Obb, ObbMethod};
pub use tightness::{
    closest_point_on_shape, distance_to_shape, shape_diameter, shape_diameter_points, tightness,
    tightness_with_resolution, Tightness, DEFAULT_TIGHTNESS_RESOLUTION,
};
pub use volume::{bound_shape, BoundKind, BoundingVolume};
