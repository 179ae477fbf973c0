//! Combining convex piece pairs into one answer. (in progress)
use super::contact::Contact;
use super::trace::Trace;
use super::NarrowConfig;
use crate::geometry::Shape;
use crate::math::Pose;

/// Which exact test runs on each convex piece pair.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum PairTest {
    /// SAT (circles by Voronoi regions).
    Sat,
    /// GJK, then EPA when the cores overlap.
    GjkEpa,
}

pub(crate) fn collide_compound(
    _a: &Shape,
    _pose_a: &Pose,
    _b: &Shape,
    _pose_b: &Pose,
    _test: PairTest,
    _config: &NarrowConfig,
    _trace: &mut Option<&mut Trace>,
) -> Contact {
    unimplemented!()
}
