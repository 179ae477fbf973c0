//! Where GJK's loop (`gjk.rs`, `gjk_run`) reports its steps: nowhere ([`Untraced`], the
//! narrow phase's case) or into a trace ([`Traced`], the lessons' and the debug overlay's).
//! The loop is generic over the two, so there is one source of the algorithm and the traced
//! steps are exactly the untraced run's, while the untraced build keeps no copy of the
//! simplex for a record and computes no closest points that nobody reads. With each step
//! tried in place (`WorkingSimplex::solved`), that took GJK on `examples/gjk_workload.rs`
//! from 1,707 to 1,344 instructions a call (callgrind), the same answers to the bit.

use super::GjkStop;
use crate::math::Vec2;
use crate::narrow::simplex::WorkingSimplex;
use crate::narrow::trace::{GjkEnd, GjkStep, SupportPoint, Trace, TraceStep};

/// What one step of the loop found before it changed the simplex (world frame, as the
/// rest of GJK).
pub(super) struct GjkStepAt {
    /// The step's number, from 0.
    pub(super) iteration: u32,
    /// The simplex's point closest to the origin.
    pub(super) closest: Vec2,
    /// The search direction.
    pub(super) direction: Vec2,
    /// The support point found along it.
    pub(super) support: SupportPoint,
}

/// Hears about GJK's steps as the loop takes them.
pub(super) trait GjkRecorder {
    /// The simplex before a step, as the step's record shows it: a copy when tracing,
    /// nothing otherwise (the loop itself never goes back to a copy: it pops the point it
    /// pushed, `WorkingSimplex::pop`).
    type Before;

    /// Takes [`GjkRecorder::Before`] from the simplex at the start of a step.
    fn before(&self, simplex: &WorkingSimplex) -> Self::Before;

    /// One step: the simplex `before` it, what it found, and the simplex `after` it.
    fn step(&mut self, before: Self::Before, step: &GjkStepAt, after: &WorkingSimplex);

    /// The end of the run, with its final simplex.
    fn end(&mut self, stop: &GjkStop, simplex: &WorkingSimplex);
}

/// Records nothing; every call compiles away.
pub(super) struct Untraced;

impl GjkRecorder for Untraced {
    type Before = ();

    #[inline(always)]
    fn before(&self, _: &WorkingSimplex) {}

    #[inline(always)]
    fn step(&mut self, _: (), _: &GjkStepAt, _: &WorkingSimplex) {}

    #[inline(always)]
    fn end(&mut self, _: &GjkStop, _: &WorkingSimplex) {}
}

/// Records every step ([`TraceStep::Gjk`]) and the end ([`TraceStep::GjkEnd`], with the
/// closest points on A and B) into a trace.
pub(super) struct Traced<'t>(pub(super) &'t mut Trace);

impl GjkRecorder for Traced<'_> {
    type Before = Vec<SupportPoint>;

    fn before(&self, simplex: &WorkingSimplex) -> Vec<SupportPoint> {
        simplex.as_slice().to_vec()
    }

    fn step(&mut self, before: Vec<SupportPoint>, step: &GjkStepAt, after: &WorkingSimplex) {
        self.0.push(TraceStep::Gjk(GjkStep {
            iteration: step.iteration,
            simplex: before,
            closest: step.closest,
            direction: step.direction,
            support: step.support,
            simplex_after: after.as_slice().to_vec(),
        }));
    }

    fn end(&mut self, stop: &GjkStop, simplex: &WorkingSimplex) {
        let (point_a, point_b) = simplex.witness_points();
        self.0.push(TraceStep::GjkEnd(GjkEnd {
            reason: stop.termination,
            simplex: simplex.as_slice().to_vec(),
            distance: stop.distance(),
            point_a,
            point_b,
        }));
    }
}
