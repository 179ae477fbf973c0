//! EPA (expanding polytope algorithm): penetration depth and normal of two overlapping
//! convex shapes, grown from GJK's final simplex. HELPER: implement.

use super::contact::Work;
use super::gjk::{GjkInput, Simplex};
use super::trace::{EpaTermination, Trace};
use super::NarrowConfig;
use crate::math::Vec2;

/// EPA's answer.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EpaOutput {
    /// Penetration normal from A towards B (unit, world frame).
    pub normal: Vec2,
    /// Penetration depth (metres), >= 0.
    pub depth: f32,
    /// Why it stopped.
    pub termination: EpaTermination,
    /// Iterations run.
    pub iterations: u32,
}

/// Runs EPA from GJK's final simplex.
pub fn epa(
    _input: &GjkInput,
    _simplex: &Simplex,
    _config: &NarrowConfig,
    _work: &mut Work,
    _trace: &mut Option<&mut Trace>,
) -> EpaOutput {
    unimplemented!("HELPER")
}
