//! One shape for a pair query: what every narrow-phase test takes ([`PairQuery`]) and
//! where it reports its work and trace ([`Recorder`]), instead of eight to eleven
//! positional arguments per function.
//!
//! The input follows Box2D v3's `b2DistanceInput` and `b2Collide*` functions and parry's
//! `pos12`: besides the two world poses (the traces and the answers are in the world
//! frame), it carries B's pose relative to A, `xf_ab`, computed once per shape pair. The
//! tests work in A's frame with it, so their rounding depends on how far B is from A, not
//! on how far the pair is from the world origin (README, "Precision range").
//!
//! [`penetration_with_circle`] is the one dispatcher for pairs that hold a circle, shared
//! by all three algorithms and the speculative points; a circle as A is the same test
//! with the pair [`flipped`](PairQuery::flipped) and the answer flipped back.

use super::circle::{penetration_circle_circle, penetration_outline_circle};
use super::contact::Work;
use super::trace::{Trace, TraceStep};
use super::{NarrowConfig, PairPenetration};
use crate::geometry::{ConvexView, Shape};
use crate::math::Pose;

/// A pair query's input: the two shapes (whole shapes or convex pieces), where they are,
/// and how the answer is judged.
#[derive(Clone, Copy)]
pub(crate) struct PairQuery<'a, S> {
    /// Shape A, local frame.
    pub a: S,
    /// Shape B, local frame.
    pub b: S,
    /// Places A in the world.
    pub pose_a: Pose,
    /// Places B in the world.
    pub pose_b: Pose,
    /// Places B in A's frame (`pose_a⁻¹ · pose_b`).
    pub xf_ab: Pose,
    /// The pieces' indices in their shapes, for traces and contact ids ((0, 0) for whole
    /// shapes).
    pub pieces: (usize, usize),
    /// The length tolerances are relative to (`query_scale`).
    pub scale: f32,
    /// The narrow phase's tuning.
    pub config: &'a NarrowConfig,
}

/// A query on two convex pieces (or whole convex outlines, or circles).
pub(crate) type PieceQuery<'a> = PairQuery<'a, ConvexView<'a>>;

/// A query on two whole shapes.
pub(crate) type ShapeQuery<'a> = PairQuery<'a, &'a Shape>;

impl<'a, S: Copy> PairQuery<'a, S> {
    /// The query for `a` at `pose_a` and `b` at `pose_b`, with `xf_ab` computed here.
    pub fn new(a: S, pose_a: &Pose, b: S, pose_b: &Pose, scale: f32, config: &'a NarrowConfig) -> Self {
        PairQuery {
            a,
            b,
            pose_a: *pose_a,
            pose_b: *pose_b,
            xf_ab: pose_a.inv_mul(pose_b),
            pieces: (0, 0),
            scale,
            config,
        }
    }

    /// The same query with A and B swapped: its answer's normal is the negated one
    /// ([`PairPenetration::flipped`]).
    pub fn flipped(&self) -> Self {
        PairQuery {
            a: self.b,
            b: self.a,
            pose_a: self.pose_b,
            pose_b: self.pose_a,
            xf_ab: self.pose_b.inv_mul(&self.pose_a),
            pieces: (self.pieces.1, self.pieces.0),
            scale: self.scale,
            config: self.config,
        }
    }
}

impl<'a> ShapeQuery<'a> {
    /// The query on piece `i` of A and piece `j` of B (same poses, same `xf_ab`).
    #[inline]
    pub fn piece(&self, i: usize, j: usize) -> PieceQuery<'a> {
        PairQuery {
            a: self.a.piece(i),
            b: self.b.piece(j),
            pose_a: self.pose_a,
            pose_b: self.pose_b,
            xf_ab: self.xf_ab,
            pieces: (i, j),
            scale: self.scale,
            config: self.config,
        }
    }

    /// The query on the two whole outlines (a circle is its centre and radius).
    #[inline]
    pub fn whole(&self) -> PieceQuery<'a> {
        PairQuery {
            a: self.a.whole(),
            b: self.b.whole(),
            pose_a: self.pose_a,
            pose_b: self.pose_b,
            xf_ab: self.xf_ab,
            pieces: (0, 0),
            scale: self.scale,
            config: self.config,
        }
    }
}

/// Where a query reports what it did: the work counters (the cost model's Nv and Np) and
/// the optional trace (`None`: nothing is recorded and nothing is paid for).
pub(crate) struct Recorder<'r, 't> {
    /// The counters, added to as the query goes.
    pub work: &'r mut Work,
    /// The trace, when one is asked for.
    pub trace: &'r mut Option<&'t mut Trace>,
}

impl<'r, 't> Recorder<'r, 't> {
    /// Records the step `step` builds, only when a trace is asked for.
    #[inline]
    pub fn record(&mut self, step: impl FnOnce() -> TraceStep) {
        super::trace::record(self.trace, step);
    }

    /// Whether a trace is being recorded.
    #[inline]
    pub fn tracing(&self) -> bool {
        self.trace.is_some()
    }
}

/// The answer for a pair that holds a circle, by Voronoi regions (`circle.rs`; Ren and
/// Xie 2011), or `None` when both are outlines (polygons or segments) and the caller's own
/// test decides. A circle has no edge normals; a circle as A is the outline–circle test
/// with the pair flipped.
pub(crate) fn penetration_with_circle(q: &PieceQuery, trace: &mut Option<&mut Trace>) -> Option<PairPenetration> {
    match (q.a.normals.is_empty(), q.b.normals.is_empty()) {
        (true, true) => Some(penetration_circle_circle(q)),
        (false, true) => Some(penetration_outline_circle(q, trace)),
        (true, false) => Some(penetration_outline_circle(&q.flipped(), trace).flipped()),
        (false, false) => None,
    }
}
