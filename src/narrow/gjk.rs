//! GJK (Gilbert–Johnson–Keerthi): distance between two convex shapes, or "they overlap".
//! HELPER: implement. Signatures below are the contract.

use super::contact::Work;
use super::trace::{GjkTermination, SupportPoint, Trace};
use super::{NarrowConfig, PairPenetration};
use crate::geometry::ConvexView;
use crate::math::{Pose, Vec2};

/// Two convex cores with their poses (radii are ignored by GJK itself).
#[derive(Clone, Copy, Debug)]
pub struct GjkInput<'a> {
    /// Shape A, local frame.
    pub a: ConvexView<'a>,
    /// Places A in the world.
    pub pose_a: Pose,
    /// Shape B, local frame.
    pub b: ConvexView<'a>,
    /// Places B in the world.
    pub pose_b: Pose,
}

/// Up to three support points.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Simplex {
    /// Vertices; only the first `len` are used.
    pub points: [Option<SupportPoint>; 3],
}

/// GJK's answer.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GjkOutput {
    /// Distance between the cores (0 when they touch or overlap).
    pub distance: f32,
    /// Closest point on A's core, world frame.
    pub point_a: Vec2,
    /// Closest point on B's core, world frame.
    pub point_b: Vec2,
    /// The final simplex.
    pub simplex: Simplex,
    /// Why it stopped.
    pub termination: GjkTermination,
    /// Iterations run.
    pub iterations: u32,
}

/// Runs GJK.
pub fn gjk(_input: &GjkInput, _config: &NarrowConfig, _work: &mut Work, _trace: &mut Option<&mut Trace>) -> GjkOutput {
    unimplemented!("HELPER")
}

/// GJK (and EPA when the cores overlap) on one pair of convex pieces, radii included.
pub(crate) fn penetration_gjk_epa(
    _input: &GjkInput,
    _config: &NarrowConfig,
    _work: &mut Work,
    _trace: &mut Option<&mut Trace>,
) -> PairPenetration {
    unimplemented!("HELPER")
}
