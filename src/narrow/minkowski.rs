//! The Minkowski difference A − B of two convex shapes. (in progress)
use crate::geometry::ConvexView;
use crate::math::{Pose, Vec2};

/// Vertices (counter-clockwise, world frame) of the hull of A − B, cores only.
pub fn minkowski_difference_hull(_a: ConvexView, _pose_a: &Pose, _b: ConvexView, _pose_b: &Pose) -> Vec<Vec2> {
    unimplemented!()
}
