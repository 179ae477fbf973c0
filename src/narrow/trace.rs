//! Algorithm internals as data.
//!
//! A narrow phase given `Some(&mut Trace)` records every step it takes; lessons and debug
//! overlays only read these steps, so replaying, stepping back and drawing never re-run
//! an algorithm. Given `None`, the algorithms skip all of this (a branch on an `Option`
//! per step, nothing allocated).
//!
//! Every point and direction is in the world frame, in metres.

use super::Algorithm;
use crate::math::Vec2;
use serde::Serialize;

/// The recorded steps of one query, in order.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Trace {
    /// Steps in the order the algorithm took them.
    pub steps: Vec<TraceStep>,
}

impl Trace {
    /// An empty trace.
    pub fn new() -> Self {
        Trace::default()
    }

    /// Appends a step.
    pub fn push(&mut self, step: TraceStep) {
        self.steps.push(step);
    }
}

/// Records a step when a trace is wanted; the closure runs only then, so building the
/// step costs nothing otherwise.
#[inline]
pub(crate) fn record(trace: &mut Option<&mut Trace>, step: impl FnOnce() -> TraceStep) {
    if let Some(t) = trace.as_deref_mut() {
        t.push(step());
    }
}

/// Which of the two shapes a feature belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Owner {
    /// Shape A (the one the MTV moves).
    A,
    /// Shape B.
    B,
}

/// One step of a narrow-phase query.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub enum TraceStep {
    /// The query starts: which algorithm, and how many convex pieces each shape has.
    Begin {
        /// The algorithm running.
        algorithm: Algorithm,
        /// Pieces of A.
        pieces_a: usize,
        /// Pieces of B.
        pieces_b: usize,
    },
    /// A bounding-volume test between two pieces (decomposed algorithms cull with it).
    BoundsTest {
        /// Piece of A.
        piece_a: usize,
        /// Piece of B.
        piece_b: usize,
        /// Whether the volumes overlap (false: the pair is skipped).
        overlap: bool,
    },
    /// A pair of convex pieces goes to the exact test.
    PiecePair {
        /// Piece of A.
        piece_a: usize,
        /// Piece of B.
        piece_b: usize,
    },
    /// A separating-axis projection.
    SatAxis(SatAxisStep),
    /// Fayzrakhmanov et al.'s (2015) step 7: does the edge of non-convex A that gave this axis touch B?
    EdgeTest(EdgeTestStep),
    /// Circle against polygon: the Voronoi region holding the centre (Ren and Xie 2011).
    Voronoi(VoronoiStep),
    /// One GJK iteration.
    Gjk(GjkStep),
    /// GJK stopped.
    GjkEnd(GjkEnd),
    /// EPA's starting polygon, grown from GJK's simplex when that was a point or a
    /// segment (the origin on the boundary of the simplex).
    EpaStart(EpaStartStep),
    /// One EPA iteration.
    Epa(EpaStep),
    /// EPA stopped.
    EpaEnd(EpaEnd),
    /// Decomposed algorithms: a candidate for the nearest point of the boundary of A − B,
    /// and whether it is on that boundary.
    Combine(CombineStep),
    /// Contact points by clipping the incident edge against the reference edge.
    Clip(ClipStep),
    /// The final answer.
    Result {
        /// Whether the shapes intersect.
        intersect: bool,
        /// Unit normal from A to B (zero when not intersecting).
        normal: Vec2,
        /// Depth (0 when not intersecting).
        depth: f32,
        /// Contact points.
        points: Vec<Vec2>,
    },
}

/// What an axis is normal to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum AxisSource {
    /// Edge `edge` of piece `piece` of shape `owner` (piece 0 for whole shapes).
    Edge {
        /// Whose edge.
        owner: Owner,
        /// Piece index (0 when the whole shape is used).
        piece: usize,
        /// Edge index within the piece or shape.
        edge: usize,
    },
    /// From a circle's centre to the nearest vertex of the other shape.
    CircleToVertex {
        /// Vertex index on the polygon.
        vertex: usize,
    },
    /// Between two circle centres.
    CenterToCenter,
}

/// One separating-axis projection: both intervals and the gap between them.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct SatAxisStep {
    /// 0-based number of this axis within the current (piece) test.
    pub index: usize,
    /// How many axes this test has at most.
    pub total: usize,
    /// Where the axis comes from.
    pub source: AxisSource,
    /// Unit axis, world frame.
    pub axis: Vec2,
    /// A's projection interval on `axis` (metres).
    pub interval_a: (f32, f32),
    /// B's projection interval on `axis`.
    pub interval_b: (f32, f32),
    /// Gap between the intervals: positive separates, negative is the overlap.
    pub gap: f32,
    /// True when this axis is the new minimum-overlap axis.
    pub new_minimum: bool,
}

/// Fayzrakhmanov et al.'s (2015) per-edge test: the edge's own projection against B's interval.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct EdgeTestStep {
    /// Edge of A.
    pub edge: usize,
    /// Unit axis (the edge's normal), world frame.
    pub axis: Vec2,
    /// Where the edge itself projects (both end points give this value).
    pub edge_value: f32,
    /// B's projection interval on the axis.
    pub interval_b: (f32, f32),
    /// True when B has points on both sides of (or on) the edge's line; false when B
    /// lies wholly on one side, so this edge cannot touch B.
    pub straddles: bool,
}

/// The feature of a polygon whose Voronoi region holds a circle's centre.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum VoronoiRegion {
    /// Outside, nearest to vertex `i`: the centre-to-vertex test applies.
    Vertex(usize),
    /// Outside, nearest to the interior of edge `i`: the edge normal applies.
    Edge(usize),
    /// The centre is inside the polygon; edge `i` is the nearest.
    Inside(usize),
}

/// Circle against polygon by Voronoi regions.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct VoronoiStep {
    /// Piece of the polygon (0 for a whole polygon).
    pub piece: usize,
    /// Circle centre, world frame.
    pub center: Vec2,
    /// The region found.
    pub region: VoronoiRegion,
    /// Closest point of the polygon's boundary to the centre, world frame.
    pub closest: Vec2,
    /// Signed distance from the centre to the polygon (negative inside).
    pub distance: f32,
}

/// A vertex of the Minkowski difference A − B and the two vertices it came from.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct SupportPoint {
    /// `a - b`, world frame.
    pub point: Vec2,
    /// The vertex of A, world frame.
    pub a: Vec2,
    /// The vertex of B, world frame.
    pub b: Vec2,
    /// Index of A's vertex (within its piece).
    pub index_a: usize,
    /// Index of B's vertex (within its piece).
    pub index_b: usize,
}

/// One GJK iteration.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GjkStep {
    /// 0-based iteration number.
    pub iteration: u32,
    /// The simplex at the start of the iteration.
    pub simplex: Vec<SupportPoint>,
    /// Point of that simplex closest to the origin.
    pub closest: Vec2,
    /// Search direction (towards the origin from `closest`), world frame.
    pub direction: Vec2,
    /// The new support point found along `direction`.
    pub support: SupportPoint,
    /// The simplex after adding the support point and dropping vertices not needed to
    /// hold the new closest point.
    pub simplex_after: Vec<SupportPoint>,
}

/// Why GJK stopped (the termination rules, explained in `gjk.rs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum GjkTermination {
    /// The simplex encloses the origin (or the origin lies on it): the shapes touch or
    /// overlap.
    ContainsOrigin,
    /// The new support point is already in the simplex: the closest point is final.
    RepeatedSupport,
    /// The support point does not move the bound by more than the progress epsilon.
    NoProgress,
    /// The iteration cap was reached.
    IterationCap,
}

/// GJK's answer.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GjkEnd {
    /// Why it stopped.
    pub reason: GjkTermination,
    /// The final simplex.
    pub simplex: Vec<SupportPoint>,
    /// Distance between the shapes (0 when they touch or overlap).
    pub distance: f32,
    /// Closest point on A, world frame (meaningful when `distance > 0`).
    pub point_a: Vec2,
    /// Closest point on B, world frame.
    pub point_b: Vec2,
}

/// Where EPA starts.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct EpaStartStep {
    /// GJK's final simplex.
    pub simplex: Vec<SupportPoint>,
    /// The polygon EPA starts from: the simplex itself when it was a proper triangle,
    /// otherwise the simplex plus support points along the perpendiculars of its
    /// segment (a side with no extent means the shapes only touch).
    pub polytope: Vec<SupportPoint>,
    /// True when support points had to be added to the simplex.
    pub grown: bool,
}

/// One EPA iteration.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct EpaStep {
    /// 0-based iteration number.
    pub iteration: u32,
    /// The polytope (counter-clockwise) at the start of the iteration.
    pub polytope: Vec<SupportPoint>,
    /// Index of the polytope edge closest to the origin (from vertex `closest_edge` to
    /// the next).
    pub closest_edge: usize,
    /// Outward unit normal of that edge.
    pub normal: Vec2,
    /// Distance from the origin to that edge.
    pub distance: f32,
    /// Support point along `normal`.
    pub support: SupportPoint,
    /// How far the support point lies beyond the edge (`support · normal − distance`).
    pub gain: f32,
}

/// Why EPA stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum EpaTermination {
    /// The support point along the closest edge's normal adds nothing: that edge is on
    /// the boundary of A − B.
    Converged,
    /// The support point is already a polytope vertex.
    RepeatedSupport,
    /// The iteration cap was reached; the best edge so far is returned.
    IterationCap,
    /// The origin lies on the boundary of A − B: the shapes only touch.
    Touching,
    /// GJK's simplex could not be grown into a polygon (A − B has no area here).
    Degenerate,
}

/// EPA's answer.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct EpaEnd {
    /// Why it stopped.
    pub reason: EpaTermination,
    /// The final polytope.
    pub polytope: Vec<SupportPoint>,
    /// Penetration normal, from A towards B (unit, world frame).
    pub normal: Vec2,
    /// Penetration depth (metres).
    pub depth: f32,
}

/// What kind of point of A − B a combine candidate is (see `combine.rs`): the nearest
/// point of the union of the pieces' Minkowski differences is always one of these.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum CombineCandidate {
    /// The foot of the perpendicular from the origin on an edge of one piece pair's
    /// difference (the edge moved out by the pieces' radii when they are rounded).
    EdgeFoot,
    /// The point of a rounded corner of one piece pair's difference nearest the origin
    /// (rounded pieces only: a circle's difference with a polygon piece).
    RoundedCorner,
    /// A vertex of one piece pair's difference (an end of a moved-out edge when rounded).
    Vertex,
    /// Where the boundary of the pair's difference crosses the boundary of this other
    /// pair's difference.
    Crossing {
        /// Piece of A of the other pair.
        piece_a: usize,
        /// Piece of B of the other pair.
        piece_b: usize,
    },
}

/// Decomposed algorithms: one candidate for the nearest point of the boundary of A − B
/// (the union of the piece pairs' Minkowski differences), tested in increasing distance
/// from the origin. The first that no piece pair's difference holds strictly inside is
/// the answer: the MTV is minus this point.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct CombineStep {
    /// Piece of A of the pair whose difference gives the candidate.
    pub from_piece_a: usize,
    /// Piece of B of that pair.
    pub from_piece_b: usize,
    /// What the candidate is.
    pub candidate: CombineCandidate,
    /// The candidate point of A − B, world frame (metres).
    pub point: Vec2,
    /// Unit normal (A towards B) the candidate would give.
    pub normal: Vec2,
    /// Its distance from the origin: the depth it would give.
    pub depth: f32,
    /// The piece pair whose difference holds the point strictly inside (so it is not on
    /// the boundary of the union), or `None`: the point is the answer.
    pub held_by: Option<(usize, usize)>,
}

impl CombineStep {
    /// True for the candidate that is the answer (no difference holds it).
    pub fn is_answer(&self) -> bool {
        self.held_by.is_none()
    }
}

/// Clipping the incident edge against the reference edge's side planes.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ClipStep {
    /// Which shape holds the reference edge.
    pub reference: Owner,
    /// Reference edge end points, world frame.
    pub reference_edge: (Vec2, Vec2),
    /// Incident edge end points before clipping, world frame.
    pub incident_edge: (Vec2, Vec2),
    /// Incident edge after clipping to the reference edge's side planes.
    pub clipped: Vec<Vec2>,
    /// Points kept (below the reference face), with their depth.
    pub kept: Vec<(Vec2, f32)>,
}
