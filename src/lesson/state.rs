//! What the three views show at one step of a trace: a pure function of the recorded
//! steps up to that index, so stepping back gives exactly what stepping forward did.

use crate::math::Vec2;
use crate::narrow::trace::{
    ClipStep, CombineStep, EdgeTestStep, EpaEnd, GjkEnd, SatAxisStep, SupportPoint, Trace, TraceStep, VoronoiStep,
};
use crate::narrow::Algorithm;

/// One row of the projection strip: an axis tested so far.
#[derive(Clone, Debug, PartialEq)]
pub struct SatRow {
    /// Index of the `SatAxis` step in the trace.
    pub step: usize,
    /// The piece pair whose test this axis belongs to ((0, 0) for whole shapes).
    pub pieces: (usize, usize),
    /// The axis with both intervals and the gap.
    pub axis: SatAxisStep,
    /// Fayzrakhmanov et al.'s (2015) per-edge test on this axis, when it ran and has been reached.
    pub edge_test: Option<EdgeTestStep>,
    /// The smallest overlap of this test after this row (`None` before any counts).
    pub running_min: Option<f32>,
    /// True when this row holds the running minimum of its test at the current step.
    pub is_minimum: bool,
}

impl SatRow {
    /// The overlap on this axis (negative: a gap).
    pub fn overlap(&self) -> f32 {
        -self.axis.gap
    }
}

/// The GJK view: the simplex, the direction, the new support point.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct GjkView {
    /// Iteration of the last `Gjk` step reached (`None` before the first).
    pub iteration: Option<u32>,
    /// The simplex before that iteration added its support point.
    pub previous: Vec<SupportPoint>,
    /// The simplex now (after adding and reducing), or the final one.
    pub simplex: Vec<SupportPoint>,
    /// Point of the previous simplex closest to the origin.
    pub closest: Option<Vec2>,
    /// Search direction (−closest).
    pub direction: Option<Vec2>,
    /// Support point found along the direction.
    pub support: Option<SupportPoint>,
    /// GJK's answer, once reached.
    pub end: Option<GjkEnd>,
}

/// The EPA view: the polytope and its closest edge.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct EpaView {
    /// Iteration of the last `Epa` step reached.
    pub iteration: Option<u32>,
    /// The polytope (counter-clockwise).
    pub polytope: Vec<SupportPoint>,
    /// Index of its edge closest to the origin (from that vertex to the next).
    pub closest_edge: Option<usize>,
    /// Outward normal of that edge.
    pub normal: Option<Vec2>,
    /// Distance of that edge from the origin.
    pub distance: Option<f32>,
    /// Support point along the normal.
    pub support: Option<SupportPoint>,
    /// How far the support point lies beyond the edge.
    pub gain: Option<f32>,
    /// True when GJK's simplex had to be grown into a polygon.
    pub grown: bool,
    /// EPA's answer, once reached.
    pub end: Option<EpaEnd>,
}

/// The final answer, once the `Result` step is reached.
#[derive(Clone, Debug, PartialEq)]
pub struct ResultView {
    /// Whether the shapes intersect.
    pub intersect: bool,
    /// Unit normal from A towards B.
    pub normal: Vec2,
    /// Depth (m).
    pub depth: f32,
    /// The minimum translation vector that moves A out of B: −normal·depth.
    pub mtv: Vec2,
    /// Contact points (world frame).
    pub points: Vec<Vec2>,
}

/// Everything the views show at one step.
#[derive(Clone, Debug, PartialEq)]
pub struct StepState {
    /// The step's index.
    pub index: usize,
    /// The algorithm of the trace.
    pub algorithm: Option<Algorithm>,
    /// The piece pair under test (decomposed algorithms), if any yet.
    pub piece_pair: Option<(usize, usize)>,
    /// The projection strip: every SAT axis tested so far, in order.
    pub sat_rows: Vec<SatRow>,
    /// The axis of the current step, when it is a SAT axis or an edge test.
    pub current_axis: Option<SatAxisStep>,
    /// The Voronoi region found for a circle, once reached (current piece pair).
    pub voronoi: Option<VoronoiStep>,
    /// GJK on the current piece pair, once started.
    pub gjk: Option<GjkView>,
    /// EPA on the current piece pair, once started.
    pub epa: Option<EpaView>,
    /// Candidate normals of the combination so far.
    pub combine: Vec<CombineStep>,
    /// Clipping steps so far (one per clipped piece pair).
    pub clips: Vec<ClipStep>,
    /// The answer, once reached.
    pub result: Option<ResultView>,
}

/// The state after steps `0..=index` of `trace` (`index` is clamped to the last step).
/// O(index); a lesson trace has tens of steps.
pub fn state_at(trace: &Trace, index: usize) -> StepState {
    let last = trace.steps.len().saturating_sub(1);
    let index = index.min(last);
    let mut s = StepState {
        index,
        algorithm: None,
        piece_pair: None,
        sat_rows: Vec::new(),
        current_axis: None,
        voronoi: None,
        gjk: None,
        epa: None,
        combine: Vec::new(),
        clips: Vec::new(),
        result: None,
    };
    // Start of the current SAT test among `sat_rows` (rows before it belong to earlier
    // piece pairs), for the running minimum.
    let mut run_start = 0;
    for (i, step) in trace.steps.iter().enumerate().take(index + 1) {
        match step {
            TraceStep::Begin { algorithm, .. } => s.algorithm = Some(*algorithm),
            TraceStep::BoundsTest { .. } => {}
            TraceStep::PiecePair { piece_a, piece_b } => {
                s.piece_pair = Some((*piece_a, *piece_b));
                run_start = s.sat_rows.len();
                s.voronoi = None;
                s.gjk = None;
                s.epa = None;
            }
            TraceStep::SatAxis(axis) => {
                let previous = s.sat_rows[run_start..].last().and_then(|r| r.running_min);
                let running_min = if axis.new_minimum { Some(-axis.gap) } else { previous };
                if axis.new_minimum {
                    for row in &mut s.sat_rows[run_start..] {
                        row.is_minimum = false;
                    }
                }
                s.sat_rows.push(SatRow {
                    step: i,
                    pieces: s.piece_pair.unwrap_or((0, 0)),
                    axis: *axis,
                    edge_test: None,
                    running_min,
                    is_minimum: axis.new_minimum,
                });
            }
            TraceStep::EdgeTest(edge) => {
                if let Some(row) = s.sat_rows.last_mut() {
                    row.edge_test = Some(*edge);
                }
            }
            TraceStep::Voronoi(v) => s.voronoi = Some(*v),
            TraceStep::Gjk(g) => {
                let view = s.gjk.get_or_insert_with(GjkView::default);
                view.iteration = Some(g.iteration);
                view.previous = g.simplex.clone();
                view.simplex = g.simplex_after.clone();
                view.closest = Some(g.closest);
                view.direction = Some(g.direction);
                view.support = Some(g.support);
            }
            TraceStep::GjkEnd(end) => {
                let view = s.gjk.get_or_insert_with(GjkView::default);
                view.simplex = end.simplex.clone();
                view.end = Some(end.clone());
            }
            TraceStep::EpaStart(start) => {
                s.epa = Some(EpaView {
                    polytope: start.polytope.clone(),
                    grown: start.grown,
                    ..EpaView::default()
                });
            }
            TraceStep::Epa(e) => {
                let view = s.epa.get_or_insert_with(EpaView::default);
                view.iteration = Some(e.iteration);
                view.polytope = e.polytope.clone();
                view.closest_edge = Some(e.closest_edge);
                view.normal = Some(e.normal);
                view.distance = Some(e.distance);
                view.support = Some(e.support);
                view.gain = Some(e.gain);
            }
            TraceStep::EpaEnd(end) => {
                let view = s.epa.get_or_insert_with(EpaView::default);
                view.polytope = end.polytope.clone();
                view.end = Some(end.clone());
            }
            TraceStep::Combine(c) => s.combine.push(*c),
            TraceStep::Clip(c) => s.clips.push(c.clone()),
            TraceStep::Result {
                intersect,
                normal,
                depth,
                points,
            } => {
                s.result = Some(ResultView {
                    intersect: *intersect,
                    normal: *normal,
                    depth: *depth,
                    mtv: -*normal * *depth,
                    points: points.clone(),
                });
            }
        }
    }
    s.current_axis = match trace.steps.get(index) {
        Some(TraceStep::SatAxis(axis)) => Some(*axis),
        Some(TraceStep::EdgeTest(_)) => s.sat_rows.last().map(|r| r.axis),
        _ => None,
    };
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::narrow::trace::{AxisSource, Owner};

    fn axis(index: usize, gap: f32, new_minimum: bool) -> TraceStep {
        TraceStep::SatAxis(SatAxisStep {
            index,
            total: 3,
            source: AxisSource::Edge {
                owner: Owner::A,
                piece: 0,
                edge: index,
            },
            axis: Vec2::X,
            interval_a: (0.0, 1.0),
            interval_b: (1.0 + gap, 2.0),
            gap,
            new_minimum,
        })
    }

    #[test]
    fn running_minimum_follows_the_new_minimum_flags() {
        let trace = Trace {
            steps: vec![axis(0, -0.8, true), axis(1, -0.9, false), axis(2, -0.3, true)],
        };
        let s = state_at(&trace, 1);
        assert_eq!(s.sat_rows.len(), 2);
        assert_eq!(s.sat_rows[1].running_min, Some(0.8));
        assert!(s.sat_rows[0].is_minimum && !s.sat_rows[1].is_minimum);
        let s = state_at(&trace, 99);
        assert_eq!(s.index, 2);
        assert_eq!(s.sat_rows[2].running_min, Some(0.3));
        assert!(!s.sat_rows[0].is_minimum && s.sat_rows[2].is_minimum);
        assert_eq!(s.current_axis.map(|a| a.index), Some(2));
    }
}
