//! The quiz at the end of a lesson: a few multiple-choice questions built from the
//! trace just replayed ("which axis separated them?", "why did GJK stop?").
//!
//! Every question and every choice comes from the recorded trace, never from an answer
//! key: the right choice is what the algorithm did, the distractors are what it could
//! have done (the other axes it tested, the other ways GJK or EPA can stop, the other
//! Voronoi regions, counts one off). Choices are in a fixed order (sorted by their text),
//! so the right one is not always first and a quiz reads the same every time.

use super::narration::{fmt_num, source_text};
use crate::narrow::trace::{EpaTermination, GjkTermination, Trace, TraceStep, VoronoiRegion};

/// One multiple-choice question.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QuizQuestion {
    /// The question.
    pub prompt: String,
    /// The choices, in the order shown.
    pub choices: Vec<String>,
    /// Index of the right choice.
    pub answer: usize,
    /// Why, in one sentence, shown after answering.
    pub why: String,
}

/// The quiz of `trace`: at most one question per kind of step it holds, in the order
/// the steps came.
pub fn quiz(trace: &Trace) -> Vec<QuizQuestion> {
    let mut out = Vec::new();
    let steps = &trace.steps;
    // SAT: the axes of the first exact test, by what they came from.
    let axes: Vec<_> = steps
        .iter()
        .filter_map(|s| match s {
            TraceStep::SatAxis(a) => Some(a),
            _ => None,
        })
        .collect();
    if !axes.is_empty() {
        let names: Vec<String> = axes.iter().map(|a| source_text(&a.source)).collect();
        let n = axes.len();
        let counts: Vec<String> = [n.saturating_sub(1).max(1), n, n + 1, n + 2]
            .iter()
            .map(|k| format!("{k} axes"))
            .collect();
        let stopped_early = axes.iter().any(|a| a.gap > 0.0);
        out.extend(choose(
            "How many axes were tested before the answer was known?",
            &counts,
            &format!("{n} axes"),
            if stopped_early {
                format!("SAT stops at the first axis that separates: axis number {n} did.")
            } else {
                format!("No axis separated, so all {n} had to be tested to be sure they overlap.")
            },
        ));
        if let Some(sep) = axes.iter().position(|a| a.gap > 0.0) {
            out.extend(choose(
                "Which axis separated the shapes?",
                &names,
                &names[sep],
                format!(
                    "On {} the shadows do not overlap (gap {}), so the shapes cannot touch and SAT stops.",
                    names[sep],
                    fmt_num(axes[sep].gap)
                ),
            ));
        } else if let Some(min) = axes.iter().rposition(|a| a.new_minimum) {
            out.extend(choose(
                "Which axis gave the minimum overlap, the MTV's direction?",
                &names,
                &names[min],
                format!(
                    "Every axis overlapped; {} overlapped least ({}), so the MTV lies along it.",
                    names[min],
                    fmt_num(-axes[min].gap)
                ),
            ));
        }
    }
    for step in steps {
        match step {
            TraceStep::Voronoi(v) => {
                let name = |r: &VoronoiRegion| match r {
                    VoronoiRegion::Vertex(i) => format!("the region of vertex {i}"),
                    VoronoiRegion::Edge(i) => format!("the region of edge {i}"),
                    VoronoiRegion::Inside(_) => "inside the polygon".to_string(),
                };
                let right = name(&v.region);
                let (i, inside) = match v.region {
                    VoronoiRegion::Vertex(i) | VoronoiRegion::Edge(i) => (i, false),
                    VoronoiRegion::Inside(i) => (i, true),
                };
                let mut choices = vec![
                    name(&VoronoiRegion::Vertex(i)),
                    name(&VoronoiRegion::Edge(i)),
                    name(&VoronoiRegion::Vertex(i + 1)),
                ];
                if inside {
                    choices.push(right.clone());
                } else {
                    choices.push(name(&VoronoiRegion::Inside(i)));
                }
                out.extend(choose(
                    "Which Voronoi region of the polygon held the circle's centre?",
                    &choices,
                    &right,
                    format!("The centre lies in {right}: that feature's normal is the axis to test."),
                ));
            }
            TraceStep::GjkEnd(end) => {
                let iterations = steps.iter().filter(|s| matches!(s, TraceStep::Gjk(_))).count();
                let reasons = [
                    GjkTermination::ContainsOrigin,
                    GjkTermination::RepeatedSupport,
                    GjkTermination::NoProgress,
                    GjkTermination::IterationCap,
                ]
                .map(|r| format!("{r:?}"));
                out.extend(choose(
                    "Why did GJK stop?",
                    &reasons,
                    &format!("{:?}", end.reason),
                    match end.reason {
                        GjkTermination::ContainsOrigin => {
                            "The simplex came to hold the origin: the shapes overlap.".to_string()
                        }
                        _ => format!(
                            "No support point could bring the simplex closer to the origin: the shapes are {} apart.",
                            fmt_num(end.distance)
                        ),
                    },
                ));
                if iterations > 0 {
                    let counts: Vec<String> = [
                        iterations.saturating_sub(1).max(1),
                        iterations,
                        iterations + 1,
                        iterations + 2,
                    ]
                    .iter()
                    .map(|n| format!("{n} iterations"))
                    .collect();
                    out.extend(choose(
                        "How many iterations did GJK take?",
                        &counts,
                        &format!("{iterations} iterations"),
                        format!("The trace holds {iterations} GJK iterations, one support point each."),
                    ));
                }
            }
            TraceStep::EpaEnd(end) => {
                let reasons = [
                    EpaTermination::Converged,
                    EpaTermination::RepeatedSupport,
                    EpaTermination::IterationCap,
                    EpaTermination::Touching,
                    EpaTermination::Degenerate,
                ]
                .map(|r| format!("{r:?}"));
                out.extend(choose(
                    "Why did EPA stop?",
                    &reasons,
                    &format!("{:?}", end.reason),
                    format!("EPA ended with {:?} at depth {}.", end.reason, fmt_num(end.depth)),
                ));
            }
            TraceStep::Clip(c) => {
                let n = c.kept.len();
                let counts: Vec<String> = (0..=2).map(|k| format!("{k} points")).collect();
                if n <= 2 {
                    out.extend(choose(
                        "How many contact points did clipping keep?",
                        &counts,
                        &format!("{n} points"),
                        format!("Of the incident edge's clipped points, {n} lie below the reference edge."),
                    ));
                }
            }
            _ => {}
        }
    }
    if let Some(TraceStep::Result { intersect, .. }) = steps.last() {
        let yes_no = ["no".to_string(), "yes".to_string()];
        out.extend(choose(
            "Do the shapes overlap?",
            &yes_no,
            if *intersect { "yes" } else { "no" },
            if *intersect {
                "The algorithm found a penetration: they overlap.".to_string()
            } else {
                "The algorithm found them apart.".to_string()
            },
        ));
    }
    // One question per prompt: a decomposed trace repeats its steps per piece pair.
    let mut seen = std::collections::HashSet::new();
    out.retain(|q| seen.insert(q.prompt.clone()));
    out
}

/// A question whose choices are `choices` (deduplicated, sorted, at most six, the right
/// one always kept) and whose answer is `right`; `None` when that leaves a single
/// choice (nothing to choose).
pub(crate) fn choose(prompt: &str, choices: &[String], right: &str, why: String) -> Option<QuizQuestion> {
    let mut all: Vec<String> = choices.to_vec();
    all.sort();
    all.dedup();
    if all.len() > 6 {
        // Keep the right one and its neighbours in the sorted order.
        let at = all.iter().position(|c| c == right).unwrap_or(0);
        let start = at.saturating_sub(2).min(all.len() - 6);
        all = all[start..start + 6].to_vec();
    }
    if !all.iter().any(|c| c == right) {
        all.push(right.to_string());
        all.sort();
    }
    if all.len() < 2 {
        return None;
    }
    let answer = all.iter().position(|c| c == right).unwrap_or(0);
    Some(QuizQuestion {
        prompt: prompt.to_string(),
        choices: all,
        answer,
        why,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lesson::Lesson;

    fn trace_of(name: &str) -> Vec<Trace> {
        let path = format!("{}/scenes/lessons/{name}", env!("CARGO_MANIFEST_DIR"));
        let l = Lesson::from_scene(&crate::scene::load(path).unwrap()).unwrap();
        l.algorithms().into_iter().map(|a| l.trace(a).1).collect()
    }

    #[test]
    fn every_lesson_has_a_quiz_whose_answers_are_among_the_choices() {
        for e in std::fs::read_dir(format!("{}/scenes/lessons", env!("CARGO_MANIFEST_DIR"))).unwrap() {
            let name = e.unwrap().file_name().to_string_lossy().into_owned();
            if !crate::lesson::predict::tests::is_narrow(&name) {
                continue; // lessons 11 on carry their own quiz (`topic.rs`)
            }
            for trace in trace_of(&name) {
                let q = quiz(&trace);
                assert!(q.len() >= 2, "{name}: {q:?}");
                for question in &q {
                    assert!(question.choices.len() >= 2, "{name}: {question:?}");
                    assert!(question.answer < question.choices.len());
                    let mut sorted = question.choices.clone();
                    sorted.sort();
                    sorted.dedup();
                    assert_eq!(sorted, question.choices, "sorted, no repeats");
                    assert!(!question.why.is_empty());
                }
            }
        }
    }

    #[test]
    fn the_separating_axis_question_names_the_axis_that_separated() {
        // Lesson 1's second preset is separated on the first axis.
        let path = format!("{}/scenes/lessons/01_projections.ron", env!("CARGO_MANIFEST_DIR"));
        let mut l = Lesson::from_scene(&crate::scene::load(path).unwrap()).unwrap();
        l.set_preset(Some(1)).unwrap();
        let (_, trace) = l.trace(l.algorithm());
        let q = quiz(&trace);
        let tested = trace
            .steps
            .iter()
            .filter(|s| matches!(s, TraceStep::SatAxis(_)))
            .count();
        let count = q.iter().find(|q| q.prompt.starts_with("How many axes")).expect("asked");
        assert_eq!(count.choices[count.answer], format!("{tested} axes"));
        if let Some(sep) = q.iter().find(|q| q.prompt == "Which axis separated the shapes?") {
            let first = trace
                .steps
                .iter()
                .find_map(|s| match s {
                    TraceStep::SatAxis(a) if a.gap > 0.0 => Some(source_text(&a.source)),
                    _ => None,
                })
                .unwrap();
            assert_eq!(sep.choices[sep.answer], first);
        }
        assert_eq!(
            q.last().unwrap().choices[q.last().unwrap().answer],
            "no",
            "they do not overlap"
        );
    }
}
