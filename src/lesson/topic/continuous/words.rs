//! Lesson 16's numbers as its cards write them, and its quiz.

use crate::lesson::quiz::{choose, QuizQuestion};

pub(super) fn fmt4(x: f32) -> String {
    format!("{x:.4}")
}

/// Millimetres, for the slop-sized lengths that metres would round to 0.00.
pub(super) fn mm(m: f32) -> String {
    format!("{:.1} mm", 1000.0 * m)
}

pub(super) fn pct(tau: f32) -> String {
    format!("{:.1}%", 100.0 * tau)
}

pub(super) fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    c.next().map_or(String::new(), |f| f.to_uppercase().chain(c).collect())
}

pub(super) fn quiz(poses: usize, halvings: usize, advances: usize) -> Vec<QuizQuestion> {
    let mut out = Vec::new();
    let opts = |n: usize, unit: &str| -> Vec<String> {
        [n.saturating_sub(1), n, n + 1, n + 2]
            .iter()
            .map(|k| format!("{k} {unit}"))
            .collect()
    };
    out.extend(choose(
        "How many intermediate poses did interpolation test, the overlapping one included?",
        &opts(poses, "poses"),
        &format!("{poses} poses"),
        "Poses are tested in order until one overlaps the wall; the ones after it are never looked at.".to_string(),
    ));
    out.extend(choose(
        "How many times did bisection halve the bracket?",
        &opts(halvings, "halvings"),
        &format!("{halvings} halvings"),
        "Each halving tests the middle pose; it stops when the bracket is shorter than the slop.".to_string(),
    ));
    out.extend(choose(
        "How many GJK distances did conservative advancement compute?",
        &opts(advances, "distances"),
        &format!("{advances} distances"),
        "One per advance, the last one finding the gap under a quarter of the slop.".to_string(),
    ));
    out
}
