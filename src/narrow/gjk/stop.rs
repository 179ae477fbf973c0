//! How a run of GJK ended ([`GjkStop`]), and the answers read from it with the final
//! simplex: the distance and normal the GJK → EPA hand-off needs, and the whole of
//! [`GjkOutput`] for [`gjk`](super::gjk).

use super::{separation_normal, GjkOutput};
use crate::math::Vec2;
use crate::narrow::simplex::WorkingSimplex;
use crate::narrow::trace::GjkTermination;

/// How a run of GJK ([`gjk_until`](super::gjk_until)) ended. The final simplex is the caller's; the closest
/// points on A and B, which only [`gjk`](super::gjk)'s output and the trace show, are left to be
/// computed from it ([`GjkStop::output`]).
#[derive(Clone, Copy, Debug)]
pub(in crate::narrow) struct GjkStop {
    /// Why it stopped.
    pub(in crate::narrow) termination: GjkTermination,
    /// Iterations run (support queries after the first).
    pub(in crate::narrow) iterations: u32,
    /// The final simplex's point closest to the origin (`WorkingSimplex::closest`).
    pub(super) closest: Vec2,
    /// GJK's lower bound on the distance when `apart_enough` stopped it.
    pub(super) apart_lower_bound: Option<f32>,
    /// The length the tolerances were relative to ([`GjkInput::scale`](super::GjkInput::scale)).
    pub(in crate::narrow) scale: f32,
}

impl GjkStop {
    /// The distance between the cores: 0 when they touch or overlap, a lower bound when
    /// `apart_enough` stopped GJK early ([`GjkOutput::distance`]).
    pub(in crate::narrow) fn distance(&self) -> f32 {
        match (self.apart_lower_bound, self.termination) {
            (Some(lower_bound), _) => lower_bound,
            (None, GjkTermination::ContainsOrigin) => 0.0,
            (None, _) => self.closest.length(),
        }
    }

    /// The unit normal from A towards B for apart cores ([`GjkOutput::normal`]) from the
    /// final `simplex`; zero when they touch or overlap.
    pub(in crate::narrow) fn normal(&self, simplex: &WorkingSimplex) -> Vec2 {
        if self.apart_lower_bound.is_none() && self.termination == GjkTermination::ContainsOrigin {
            return Vec2::ZERO;
        }
        separation_normal(simplex, self.closest)
    }

    /// [`gjk`](super::gjk)'s answer from the final `simplex`.
    pub(super) fn output(&self, simplex: &WorkingSimplex) -> GjkOutput {
        let (point_a, point_b) = simplex.witness_points();
        GjkOutput {
            distance: self.distance(),
            point_a,
            point_b,
            normal: self.normal(simplex),
            simplex: simplex.to_simplex(),
            termination: self.termination,
            iterations: self.iterations,
        }
    }
}
