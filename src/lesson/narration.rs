//! A narration card for every step: what is computed and why, with the step's live
//! numbers (two decimals), and the pseudocode line it is on.
//!
//! Cards read only the recorded steps (the one shown and those before it for context:
//! which algorithm runs, the running minimum, the piece pair), so they never disagree
//! with the views and cost nothing to recompute when stepping back. No trace can make
//! them panic: every lookup has a fallback.

use super::narration_gjk::{epa_end, epa_start, epa_step, gjk_end, gjk_step};
use super::pseudocode::{circle, clip, compound, nonconvex, sat, Listing};
use crate::math::Vec2;
use crate::narrow::trace::{
    AxisSource, ClipStep, CombineCandidate, CombineStep, EdgeTestStep, Owner, SatAxisStep, Trace, TraceStep,
    VoronoiRegion, VoronoiStep,
};
use crate::narrow::Algorithm;

/// What the narration panel shows for one step.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Card {
    /// A short heading ("Axis 3 of 12").
    pub title: String,
    /// What is computed and why, with the numbers of this step.
    pub text: String,
    /// The listing the step belongs to.
    pub listing: Listing,
    /// The line of `listing` being executed (an index into [`Listing::lines`]).
    pub pseudocode_line: usize,
}

/// A number to two decimals, with a true minus sign and no "−0.00".
pub fn fmt_num(x: f32) -> String {
    if !x.is_finite() {
        return format!("{x}");
    }
    let s = format!("{x:.2}");
    if s == "-0.00" {
        "0.00".to_string()
    } else {
        s.replace('-', "−")
    }
}

pub(super) fn fmt_vec(v: Vec2) -> String {
    format!("({}, {})", fmt_num(v.x), fmt_num(v.y))
}

pub(super) fn fmt_interval(i: (f32, f32)) -> String {
    format!("[{}, {}]", fmt_num(i.0), fmt_num(i.1))
}

fn owner_name(o: Owner) -> &'static str {
    match o {
        Owner::A => "A",
        Owner::B => "B",
    }
}

pub(super) fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// The algorithm of the trace (its `Begin` step).
fn algorithm_of(trace: &Trace) -> Option<Algorithm> {
    trace.steps.iter().find_map(|s| match s {
        TraceStep::Begin { algorithm, .. } => Some(*algorithm),
        _ => None,
    })
}

/// The card of step `index` of `trace` (clamped; an empty trace gets a placeholder).
pub fn narrate(trace: &Trace, index: usize) -> Card {
    let Some(last) = trace.steps.len().checked_sub(1) else {
        return Card {
            title: "Nothing recorded".to_string(),
            text: "This trace has no steps: run an algorithm on the two shapes first.".to_string(),
            listing: Listing::Sat,
            pseudocode_line: 0,
        };
    };
    let index = index.min(last);
    let algorithm = algorithm_of(trace).unwrap_or_default();
    match &trace.steps[index] {
        TraceStep::Begin {
            algorithm,
            pieces_a,
            pieces_b,
        } => begin(*algorithm, *pieces_a, *pieces_b),
        TraceStep::BoundsTest {
            piece_a,
            piece_b,
            overlap,
        } => Card {
            title: format!("Boxes of pieces A{piece_a} and B{piece_b}"),
            text: if *overlap {
                format!(
                    "The bounding boxes of piece {piece_a} of A and piece {piece_b} of B overlap, so this pair \
                     may touch: it goes to the exact test. (Box tests are cheap; they spare the exact test for \
                     pairs that are far apart.)"
                )
            } else {
                format!(
                    "The bounding boxes of piece {piece_a} of A and piece {piece_b} of B do not overlap, so these \
                     two pieces cannot touch: the pair is skipped without an exact test."
                )
            },
            listing: Listing::Compound,
            pseudocode_line: compound::BOUNDS,
        },
        TraceStep::PiecePair { piece_a, piece_b } => Card {
            title: format!("Exact test: A{piece_a} against B{piece_b}"),
            text: format!(
                "Piece {piece_a} of A and piece {piece_b} of B are convex, so an exact test applies: {}.",
                match algorithm {
                    Algorithm::GjkEpa => "GJK, then EPA if they overlap",
                    _ => "the separating axis test (or Voronoi regions for a circle)",
                }
            ),
            listing: Listing::Compound,
            pseudocode_line: compound::PAIR,
        },
        TraceStep::SatAxis(axis) => sat_axis(trace, index, algorithm, axis),
        TraceStep::EdgeTest(edge) => edge_test(trace, index, edge),
        TraceStep::Voronoi(v) => voronoi(v),
        TraceStep::Gjk(g) => gjk_step(trace, index, g),
        TraceStep::GjkEnd(end) => gjk_end(end),
        TraceStep::EpaStart(start) => epa_start(start),
        TraceStep::Epa(e) => epa_step(trace, index, e),
        TraceStep::EpaEnd(end) => epa_end(end),
        TraceStep::Combine(c) => combine(c),
        TraceStep::Clip(c) => clip_step(c),
        TraceStep::Result {
            intersect,
            normal,
            depth,
            points,
        } => result(algorithm, *intersect, *normal, *depth, points),
    }
}

fn begin(algorithm: Algorithm, pieces_a: usize, pieces_b: usize) -> Card {
    let (text, listing, line) = match algorithm {
        Algorithm::NonConvexSat => (
            format!(
                "Fayzrakhmanov et al.'s (2015) separating axis test on the whole outlines, without cutting them into convex \
                 pieces. Every edge of A and of B gives an axis; if the shadows (projections) of A and B on \
                 some axis do not overlap, a line perpendicular to it separates the shapes. If every axis \
                 overlaps, the axis with the least overlap gives the push that separates them. For convex \
                 shapes this is exact; A and B here have {} and {}, and with non-convex shapes it is only a \
                 heuristic.",
                plural(pieces_a, "convex piece", "convex pieces"),
                plural(pieces_b, "convex piece", "convex pieces")
            ),
            Listing::NonConvexSat,
            nonconvex::EDGES,
        ),
        Algorithm::SatDecomposed => (
            format!(
                "SAT over a convex decomposition: A is cut into {} and B into {}; every pair of pieces whose \
                 boxes overlap gets the exact separating axis test, and the answers are combined.",
                plural(pieces_a, "convex piece", "convex pieces"),
                plural(pieces_b, "convex piece", "convex pieces")
            ),
            Listing::Compound,
            compound::START,
        ),
        Algorithm::GjkEpa => (
            format!(
                "GJK and EPA over a convex decomposition: A is cut into {} and B into {}; every pair of pieces \
                 whose boxes overlap gets GJK (do they overlap? how far apart?) and, when they overlap, EPA \
                 (how deep, in which direction).",
                plural(pieces_a, "convex piece", "convex pieces"),
                plural(pieces_b, "convex piece", "convex pieces")
            ),
            Listing::Compound,
            compound::START,
        ),
    };
    Card {
        title: format!("Start: {algorithm}"),
        text,
        listing,
        pseudocode_line: line,
    }
}

/// The smallest overlap among the axes of the same test before step `index`.
fn previous_minimum(trace: &Trace, index: usize) -> Option<f32> {
    for step in trace.steps[..index].iter().rev() {
        match step {
            TraceStep::SatAxis(a) if a.new_minimum => return Some(-a.gap),
            TraceStep::SatAxis(_) | TraceStep::EdgeTest(_) => {}
            _ => return None,
        }
    }
    None
}

/// True when no further axis of the same test follows step `index`.
fn last_axis_of_test(trace: &Trace, index: usize) -> bool {
    !trace.steps[index + 1..]
        .iter()
        .take_while(|s| matches!(s, TraceStep::SatAxis(_) | TraceStep::EdgeTest(_)))
        .any(|s| matches!(s, TraceStep::SatAxis(_)))
}

pub(crate) fn source_text(source: &AxisSource) -> String {
    match source {
        AxisSource::Edge { owner, piece, edge } if *piece == 0 => format!("edge {edge} of {}", owner_name(*owner)),
        AxisSource::Edge { owner, piece, edge } => {
            format!("edge {edge} of piece {piece} of {}", owner_name(*owner))
        }
        AxisSource::CircleToVertex { vertex } => format!("circle centre to vertex {vertex}"),
        AxisSource::CenterToCenter => "centre to centre".to_string(),
    }
}

fn sat_axis(trace: &Trace, index: usize, algorithm: Algorithm, axis: &SatAxisStep) -> Card {
    let nonconvex = algorithm == Algorithm::NonConvexSat;
    let listing = if nonconvex { Listing::NonConvexSat } else { Listing::Sat };
    let head = format!(
        "axis {} of {} ({}): A projects to {}, B to {}",
        axis.index + 1,
        axis.total,
        source_text(&axis.source),
        fmt_interval(axis.interval_a),
        fmt_interval(axis.interval_b)
    );
    let has_edge_test = matches!(trace.steps.get(index + 1), Some(TraceStep::EdgeTest(_)));
    let stops = last_axis_of_test(trace, index) && !has_edge_test && (axis.index + 1 < axis.total || axis.gap >= 0.0);
    let previous = previous_minimum(trace, index);
    let overlap = -axis.gap;
    let (tail, line) = if stops || axis.gap > 0.0 {
        let why = if axis.gap > 0.0 {
            format!("gap {} > 0", fmt_num(axis.gap))
        } else {
            format!("gap {} (touching counts as apart)", fmt_num(axis.gap))
        };
        (
            format!(
                "{why}: the shadows do not overlap, so the line perpendicular to this axis separates A from B — \
                 no collision, no need to test the other axes."
            ),
            if nonconvex {
                nonconvex::SEPARATED
            } else {
                sat::SEPARATED
            },
        )
    } else if has_edge_test {
        (
            format!(
                "overlap {}. A is not convex, so before this axis counts, step 7 checks whether this edge of A \
                 actually reaches B.",
                fmt_num(overlap)
            ),
            nonconvex::EDGE_TEST,
        )
    } else if axis.new_minimum {
        let why = match previous {
            Some(p) => format!("overlap {} < {} — new minimum", fmt_num(overlap), fmt_num(p)),
            None => format!(
                "overlap {} — the first overlap, so the minimum so far",
                fmt_num(overlap)
            ),
        };
        (
            format!(
                "{why}: pushing A along this axis by {} would separate the shadows.",
                fmt_num(overlap)
            ),
            if nonconvex { nonconvex::MINIMUM } else { sat::MINIMUM },
        )
    } else {
        let why = match previous {
            Some(p) => format!("overlap {} ≥ {} — the minimum stays", fmt_num(overlap), fmt_num(p)),
            None => format!("overlap {} — not counted", fmt_num(overlap)),
        };
        (
            format!("{why}; the shadows overlap here too, so this axis does not separate them."),
            if nonconvex { nonconvex::MINIMUM } else { sat::GAP },
        )
    };
    Card {
        title: format!("Axis {} of {}", axis.index + 1, axis.total),
        text: format!("{}, {tail}", upper_first(&head)),
        listing,
        pseudocode_line: line,
    }
}

fn upper_first(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().collect::<String>() + c.as_str(),
        None => String::new(),
    }
}

fn edge_test(trace: &Trace, index: usize, e: &EdgeTestStep) -> Card {
    let axis = trace.steps[..index].iter().rev().find_map(|s| match s {
        TraceStep::SatAxis(a) => Some(*a),
        _ => None,
    });
    let head = format!(
        "Step 7, edge {} of A: the edge itself lies at {} on its own normal, B spans {}",
        e.edge,
        fmt_num(e.edge_value),
        fmt_interval(e.interval_b)
    );
    let tail = if e.straddles {
        let overlap = axis.map(|a| -a.gap);
        let previous = previous_minimum(trace, index.saturating_sub(1));
        let min = match (overlap, axis.is_some_and(|a| a.new_minimum), previous) {
            (Some(o), true, Some(p)) => format!(" Its overlap {} < {} — new minimum.", fmt_num(o), fmt_num(p)),
            (Some(o), true, None) => format!(
                " Its overlap {} is the first that counts — the minimum so far.",
                fmt_num(o)
            ),
            (Some(o), false, Some(p)) => format!(" Its overlap {} ≥ {} — the minimum stays.", fmt_num(o), fmt_num(p)),
            _ => String::new(),
        };
        format!(": B reaches both sides of the edge's line, so this edge may touch B and its axis counts.{min}")
    } else {
        let last_a_edge = !trace.steps[index + 1..]
            .iter()
            .any(|s| matches!(s, TraceStep::EdgeTest(_) | TraceStep::SatAxis(_)));
        let none_touch = !trace.steps[..index]
            .iter()
            .any(|s| matches!(s, TraceStep::EdgeTest(t) if t.straddles));
        if last_a_edge && none_touch {
            ": B lies wholly on one side of the edge's line. That was A's last edge and none of them reaches \
             B, so the paper concludes: no collision."
                .to_string()
        } else {
            ": B lies wholly on one side of the edge's line, so this edge cannot touch B; its axis is skipped."
                .to_string()
        }
    };
    Card {
        title: format!("Edge test: edge {} of A", e.edge),
        text: format!("{head}{tail}"),
        listing: Listing::NonConvexSat,
        pseudocode_line: nonconvex::EDGE_TEST,
    }
}

fn voronoi(v: &VoronoiStep) -> Card {
    let (region, line) = match v.region {
        VoronoiRegion::Vertex(i) => (
            format!(
                "the Voronoi region of vertex {i}: the nearest point of the polygon is that corner {}, so the \
                 axis to test runs from the corner to the centre",
                fmt_vec(v.closest)
            ),
            circle::AXIS,
        ),
        VoronoiRegion::Edge(i) => (
            format!(
                "the Voronoi region of edge {i}: the nearest point {} lies inside that edge, so the edge's normal \
                 is the axis to test",
                fmt_vec(v.closest)
            ),
            circle::AXIS,
        ),
        VoronoiRegion::Inside(i) => (
            format!(
                "the inside of the polygon; the nearest edge is edge {i}, at {}, and its normal is the way out",
                fmt_vec(v.closest)
            ),
            circle::FEATURE,
        ),
    };
    Card {
        title: "Circle: which Voronoi region?".to_string(),
        text: format!(
            "The circle's centre {} lies in {region}. Its signed distance to the polygon is {}; the circle \
             overlaps the polygon when its radius is larger than that.",
            fmt_vec(v.center),
            fmt_num(v.distance)
        ),
        listing: Listing::CircleVoronoi,
        pseudocode_line: line,
    }
}

fn combine(c: &CombineStep) -> Card {
    let what = match c.candidate {
        CombineCandidate::EdgeFoot => format!(
            "the foot of the perpendicular from the origin on an edge of A{} − B{}",
            c.from_piece_a, c.from_piece_b
        ),
        CombineCandidate::RoundedCorner => format!(
            "the point of a rounded corner of A{} − B{} nearest the origin",
            c.from_piece_a, c.from_piece_b
        ),
        CombineCandidate::Vertex => format!("a vertex of A{} − B{}", c.from_piece_a, c.from_piece_b),
        CombineCandidate::Crossing { piece_a, piece_b } => format!(
            "where the edges of A{} − B{} and A{piece_a} − B{piece_b} cross",
            c.from_piece_a, c.from_piece_b
        ),
    };
    let verdict = match c.held_by {
        Some((i, j)) => {
            format!("A{i} − B{j} holds it strictly inside, so it is inside A − B, not on its boundary: try the next.")
        }
        None => format!(
            "No piece pair's difference holds it, so it is on the boundary of A − B, and no nearer candidate \
             was: the MTV moves A by minus this point, depth {}.",
            fmt_num(c.depth)
        ),
    };
    Card {
        title: "Combining the pieces".to_string(),
        text: format!(
            "Pushing A out of one piece of B could push it into another, so the depth is measured on A − B, the \
             union of every piece pair's difference. Candidate {} at distance {}: {what}. {verdict}",
            fmt_vec(c.point),
            fmt_num(c.depth),
        ),
        listing: Listing::Compound,
        pseudocode_line: if c.is_answer() {
            compound::BEST
        } else {
            compound::CANDIDATE
        },
    }
}

fn clip_step(c: &ClipStep) -> Card {
    let kept: Vec<String> = c
        .kept
        .iter()
        .map(|(p, d)| format!("{} (depth {})", fmt_vec(*p), fmt_num(*d)))
        .collect();
    Card {
        title: "Contact points by clipping".to_string(),
        text: format!(
            "Reference edge on {} from {} to {} (the edge most parallel to the normal); incident edge on the \
             other shape from {} to {}. Clipped to the reference edge's side planes it keeps {}; below the \
             reference face: {}.",
            owner_name(c.reference),
            fmt_vec(c.reference_edge.0),
            fmt_vec(c.reference_edge.1),
            fmt_vec(c.incident_edge.0),
            fmt_vec(c.incident_edge.1),
            plural(c.clipped.len(), "point", "points"),
            if kept.is_empty() {
                "none".to_string()
            } else {
                kept.join(", ")
            }
        ),
        listing: Listing::Clip,
        pseudocode_line: clip::CLIP,
    }
}

fn result(algorithm: Algorithm, intersect: bool, normal: Vec2, depth: f32, points: &[Vec2]) -> Card {
    let (listing, line) = match algorithm {
        Algorithm::NonConvexSat => (
            Listing::NonConvexSat,
            if intersect {
                nonconvex::MOVE
            } else {
                nonconvex::SEPARATED
            },
        ),
        _ => (Listing::Compound, compound::ANSWER),
    };
    let text = if intersect {
        let pts: Vec<String> = points.iter().map(|p| fmt_vec(*p)).collect();
        format!(
            "{algorithm} answers: they intersect. Normal {} from A towards B, depth {}; the minimum translation \
             vector that moves A out of B is {}. Contact points: {}.{}",
            fmt_vec(normal),
            fmt_num(depth),
            fmt_vec(-normal * depth),
            if pts.is_empty() {
                "none".to_string()
            } else {
                pts.join(", ")
            },
            if algorithm == Algorithm::NonConvexSat {
                " (Step 10 chose the sign from the centres: C = centre(A) − centre(B) and the MTV point the same way.)"
            } else {
                ""
            }
        )
    } else {
        format!(
            "{algorithm} answers: they do not intersect. (Shapes that only touch, at depth 0 within rounding, \
             count as not intersecting unless the touching knob says otherwise.)"
        )
    };
    Card {
        title: "The answer".to_string(),
        text,
        listing,
        pseudocode_line: line,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_have_two_decimals_and_a_true_minus() {
        assert_eq!(fmt_num(-1.2), "−1.20");
        assert_eq!(fmt_num(0.845), "0.85");
        assert_eq!(fmt_num(-0.001), "0.00");
        assert_eq!(fmt_vec(Vec2::new(0.4, -2.1)), "(0.40, −2.10)");
    }

    #[test]
    fn empty_trace_gets_a_card() {
        let card = narrate(&Trace::new(), 3);
        assert!(!card.text.is_empty());
        assert!(card.pseudocode_line < card.listing.lines().len());
    }
}
