//! Narration cards of GJK's and EPA's steps (the rest is in `narration.rs`).

use super::narration::{fmt_num, fmt_vec, plural, Card};
use super::pseudocode::{epa, gjk, Listing};
use crate::narrow::trace::{
    EpaEnd, EpaStartStep, EpaStep, EpaTermination, GjkEnd, GjkStep, GjkTermination, SupportPoint, Trace, TraceStep,
};

fn support_text(w: &SupportPoint) -> String {
    format!(
        "{} = a{} {} − b{} {}",
        fmt_vec(w.point),
        w.index_a,
        fmt_vec(w.a),
        w.index_b,
        fmt_vec(w.b)
    )
}

fn simplex_name(n: usize) -> &'static str {
    match n {
        0 => "empty",
        1 => "a point",
        2 => "a segment",
        _ => "a triangle",
    }
}

pub(super) fn gjk_step(trace: &Trace, index: usize, g: &GjkStep) -> Card {
    let start = if g.iteration == 0 {
        let first = g.simplex.first().map(support_text).unwrap_or_default();
        format!("GJK began with one support point of A − B, {first}. ")
    } else {
        String::new()
    };
    let distance = g.closest.length();
    let outcome = match trace.steps.get(index + 1) {
        Some(TraceStep::GjkEnd(end)) if end.reason == GjkTermination::RepeatedSupport => {
            " That point is already in the simplex: no point of A − B lies farther towards the origin, so the \
             distance is final."
                .to_string()
        }
        Some(TraceStep::GjkEnd(end)) if end.reason == GjkTermination::NoProgress => format!(
            " It brings the origin no closer than {} (within ε), so the distance is final.",
            fmt_num(distance)
        ),
        _ => {
            let kept = g.simplex_after.len();
            if kept == 3 {
                " With it the simplex is a triangle around the origin.".to_string()
            } else {
                format!(
                    " The simplex becomes {} — only the vertices the new closest point needs are kept.",
                    simplex_name(kept)
                )
            }
        }
    };
    Card {
        title: format!("GJK iteration {}", g.iteration + 1),
        text: format!(
            "{start}The simplex is {} with {}; its point closest to the origin is v = {} at distance {}. The \
             origin lies in direction d = −v = {} from it, so GJK asks for the support point of A − B along d: \
             the vertex of A farthest along d minus the vertex of B farthest against it, w = {}.{outcome}",
            simplex_name(g.simplex.len()),
            plural(g.simplex.len(), "point", "points"),
            fmt_vec(g.closest),
            fmt_num(distance),
            fmt_vec(g.direction),
            support_text(&g.support)
        ),
        listing: Listing::Gjk,
        pseudocode_line: gjk::SUPPORT,
    }
}

pub(super) fn gjk_end(end: &GjkEnd) -> Card {
    let (text, line) = match end.reason {
        GjkTermination::ContainsOrigin => (
            format!(
                "The simplex ({}) holds the origin{}: the origin is in A − B, so some point of A minus some \
                 point of B is zero — A and B touch or overlap. GJK answers \"yes\"; how deep is EPA's question.",
                simplex_name(end.simplex.len()),
                if end.simplex.len() < 3 {
                    " on its boundary (a degenerate case: the search direction −v would be zero)"
                } else {
                    ""
                }
            ),
            gjk::CONTAINS,
        ),
        reason => (
            format!(
                "GJK stops ({}): the origin is outside A − B, so A and B do not touch. The distance between them \
                 is {}, from {} on A to {} on B.",
                match reason {
                    GjkTermination::RepeatedSupport => "the support point repeated",
                    GjkTermination::NoProgress => "no more progress",
                    _ => "iteration cap reached",
                },
                fmt_num(end.distance),
                fmt_vec(end.point_a),
                fmt_vec(end.point_b)
            ),
            match reason {
                GjkTermination::RepeatedSupport => gjk::REPEATED,
                GjkTermination::NoProgress => gjk::NO_PROGRESS,
                _ => gjk::CAP,
            },
        ),
    };
    Card {
        title: "GJK's answer".to_string(),
        text,
        listing: Listing::Gjk,
        pseudocode_line: line,
    }
}

pub(super) fn epa_start(s: &EpaStartStep) -> Card {
    let text = if s.grown {
        format!(
            "EPA needs a polygon around the origin, but GJK's simplex is {}: the origin lies on its boundary. \
             Support points on both sides grow it into a polygon of {}.",
            simplex_name(s.simplex.len()),
            plural(s.polytope.len(), "vertex", "vertices")
        )
    } else {
        format!(
            "EPA starts from GJK's triangle, which holds the origin. The penetration depth is the distance from \
             the origin to the nearest edge of A − B; EPA grows the polygon ({}) outwards until its nearest \
             edge is an edge of A − B.",
            plural(s.polytope.len(), "vertex", "vertices")
        )
    };
    Card {
        title: "EPA: the starting polygon".to_string(),
        text,
        listing: Listing::Epa,
        pseudocode_line: epa::START,
    }
}

pub(super) fn epa_step(trace: &Trace, index: usize, e: &EpaStep) -> Card {
    let outcome = match trace.steps.get(index + 1) {
        Some(TraceStep::EpaEnd(end)) if end.reason == EpaTermination::RepeatedSupport => {
            " That point is already a vertex: the edge is final.".to_string()
        }
        Some(TraceStep::EpaEnd(_)) => format!(
            " It lies only {} beyond the edge: the edge is on the boundary of A − B.",
            fmt_num(e.gain)
        ),
        _ => format!(
            " It lies {} beyond the edge, so A − B reaches farther here: the point is inserted and the search \
             goes on.",
            fmt_num(e.gain)
        ),
    };
    let line = match trace.steps.get(index + 1) {
        Some(TraceStep::EpaEnd(end)) if end.reason == EpaTermination::RepeatedSupport => epa::REPEATED,
        Some(TraceStep::EpaEnd(_)) => epa::CONVERGED,
        _ => epa::INSERT,
    };
    Card {
        title: format!("EPA iteration {}", e.iteration + 1),
        text: format!(
            "The polygon has {}; its edge nearest the origin is edge {} at distance {}, outward normal {}. The \
             support point of A − B along that normal is w = {}.{outcome}",
            plural(e.polytope.len(), "vertex", "vertices"),
            e.closest_edge,
            fmt_num(e.distance),
            fmt_vec(e.normal),
            support_text(&e.support)
        ),
        listing: Listing::Epa,
        pseudocode_line: line,
    }
}

pub(super) fn epa_end(end: &EpaEnd) -> Card {
    let (why, line) = match end.reason {
        EpaTermination::Converged => ("converged", epa::ANSWER),
        EpaTermination::RepeatedSupport => ("the support point repeated", epa::ANSWER),
        EpaTermination::IterationCap => ("iteration cap reached; best edge so far", epa::CAP),
        EpaTermination::Touching => ("the origin is on the boundary of A − B: they only touch", epa::START),
        EpaTermination::Degenerate => ("A − B has no area here", epa::START),
    };
    Card {
        title: "EPA's answer".to_string(),
        text: format!(
            "EPA stops ({why}). Penetration depth {} along the normal {} (from A towards B): moving A by {} \
             separates them.",
            fmt_num(end.depth),
            fmt_vec(end.normal),
            fmt_vec(-end.normal * end.depth)
        ),
        listing: Listing::Epa,
        pseudocode_line: line,
    }
}
