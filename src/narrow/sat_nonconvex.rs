//! Seed 000 (in progress)
use super::contact::Contact;
use super::trace::Trace;
use super::NarrowConfig;
use crate::geometry::Shape;
use crate::math::Pose;

pub(crate) fn collide_nonconvex_sat(
    _a: &Shape,
    _pose_a: &Pose,
    _b: &Shape,
    _pose_b: &Pose,
    _config: &NarrowConfig,
    _trace: &mut Option<&mut Trace>,
) -> Contact {
    unimplemented!()
}
