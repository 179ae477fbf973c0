//! Predict mode: before a step is revealed, the student clicks where its key point will
//! be; the click is scored against the recorded trace and then the step is shown.
//!
//! Predicting before seeing is the exercise that makes an algorithm stick (the
//! "predict–observe–explain" cycle of physics teaching: White and Gunstone, "Probing
//! Understanding", 1992). Every question comes from the trace itself — the point the
//! algorithm is about to compute — so there is no answer key to keep in step with the
//! lessons, and editing the shapes changes the answers with them.
//!
//! | step | asked | view |
//! |---|---|---|
//! | SAT axis | the vertex of B that projects lowest on the axis (where B's interval starts) | world |
//! | Voronoi | the point of the polygon nearest the circle's centre | world |
//! | GJK iteration | the support point w, farthest point of A − B along d | A − B |
//! | GJK end, apart | the point of A nearest B | world |
//! | EPA iteration | the support point along the closest edge's outward normal | A − B |
//! | EPA end | the point of A − B's boundary nearest the origin | A − B |
//! | clipping | a contact point | world |
//!
//! The tolerance is a share of the view's scale — the size of the pair (world) or of
//! A − B — never a fixed length, so a lesson drawn in millimetres is scored as fairly as
//! one in metres. Nothing here draws; the app asks [`question`] and [`Question::score`].

use super::lesson::Lesson;
use crate::geometry::Shape;
use crate::math::Vec2;
use crate::narrow::trace::{GjkTermination, Owner, Trace, TraceStep};

/// A click this close to an answer, as a share of the view's scale, is a hit.
pub const TOLERANCE_SHARE: f32 = 0.08;

/// The view a question is answered in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PredictView {
    /// The world view (A and B where they are).
    World,
    /// The Minkowski view (A − B, the origin at the shapes' overlap).
    Minkowski,
}

/// What the student is asked before step `step` is shown.
#[derive(Clone, Debug, PartialEq)]
pub struct Question {
    /// The step that reveals the answer.
    pub step: usize,
    /// The question, as the card shows it.
    pub prompt: &'static str,
    /// Where to click.
    pub view: PredictView,
    /// The right answers (any one counts), in the view's coordinates (m).
    pub answers: Vec<Vec2>,
    /// How close counts as right (m).
    pub tolerance: f32,
    /// What the step starts from and the student needs to see to answer (GJK's search
    /// direction, EPA's edge normal, the SAT axis), drawn while the question is open.
    pub given: Option<Given>,
}

/// A direction the question gives: drawn as an arrow from `from` (view coordinates, m).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Given {
    /// Where the arrow starts.
    pub from: Vec2,
    /// Which way it points (unit).
    pub direction: Vec2,
    /// Its name in the card ("d").
    pub name: &'static str,
}

/// A scored click.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Attempt {
    /// The step it predicted.
    pub step: usize,
    /// Where the student clicked (m, the question's view).
    pub click: Vec2,
    /// The answer nearest the click.
    pub answer: Vec2,
    /// How far the click was from it (m).
    pub distance: f32,
    /// Within the tolerance.
    pub hit: bool,
}

impl Question {
    /// Scores a click at `click` (m, in the question's view).
    pub fn score(&self, click: Vec2) -> Attempt {
        let answer = self
            .answers
            .iter()
            .copied()
            .min_by(|p, q| (*p - click).length().total_cmp(&(*q - click).length()))
            .unwrap_or(click);
        let distance = (answer - click).length();
        Attempt {
            step: self.step,
            click,
            answer,
            distance,
            hit: distance <= self.tolerance,
        }
    }
}

/// The question to ask before step `step` of `trace` (recorded on `lesson`'s shapes),
/// or `None` when that step has nothing to predict.
pub fn question(lesson: &Lesson, trace: &Trace, step: usize) -> Option<Question> {
    let world_scale = || {
        let points: Vec<Vec2> = [Owner::A, Owner::B]
            .into_iter()
            .flat_map(|o| reach_points(lesson, o))
            .collect();
        extent(&points)
    };
    let minkowski_scale = || {
        let points: Vec<Vec2> = lesson
            .minkowski()
            .pieces
            .iter()
            .flat_map(|p| p.vertices.iter().map(|v| v.point))
            .collect();
        extent(&points)
    };
    let given = |from: Vec2, direction: Vec2, name| {
        Some(Given {
            from,
            direction: direction.normalize_or_zero(),
            name,
        })
    };
    let (prompt, view, answers, given) = match trace.steps.get(step)? {
        TraceStep::SatAxis(s) => {
            let b = lesson.world_vertices(Owner::B);
            let centre = b.iter().copied().sum::<Vec2>() / b.len().max(1) as f32;
            let arrow = given(centre, s.axis, "axis");
            let answers = match lesson.shape(Owner::B) {
                Shape::Circle(c) => vec![b[0] - c.radius() * s.axis],
                _ => {
                    let tie = 1e-4 * world_scale();
                    b.into_iter()
                        .filter(|v| v.dot(s.axis) <= s.interval_b.0 + tie)
                        .collect()
                }
            };
            (
                "Which vertex of B projects lowest on this axis (where B's interval starts)? Click it.",
                PredictView::World,
                answers,
                arrow,
            )
        }
        TraceStep::Voronoi(v) => (
            "Which point of the polygon is nearest the circle's centre? Click it.",
            PredictView::World,
            vec![v.closest],
            None,
        ),
        TraceStep::Gjk(g) => (
            "Where is the next support point w: the point of A − B farthest along d? Click it.",
            PredictView::Minkowski,
            vec![g.support.point],
            given(g.closest, g.direction, "d"),
        ),
        TraceStep::GjkEnd(end) if end.distance > 0.0 && end.reason != GjkTermination::ContainsOrigin => (
            "The shapes are apart. Where is the point of A nearest B? Click it.",
            PredictView::World,
            vec![end.point_a],
            None,
        ),
        TraceStep::Epa(e) => (
            "Where is EPA's next support point: farthest along the closest edge's outward normal n? Click it.",
            PredictView::Minkowski,
            vec![e.support.point],
            given(e.normal * e.distance, e.normal, "n"),
        ),
        TraceStep::EpaEnd(end) if end.depth > 0.0 => (
            "Where is the boundary of A − B nearest the origin (the tip of the penetration vector)? Click it.",
            PredictView::Minkowski,
            vec![end.normal * end.depth],
            None,
        ),
        TraceStep::Clip(c) if !c.kept.is_empty() => (
            "Where will a contact point be? Click one.",
            PredictView::World,
            c.kept.iter().map(|&(p, _)| p).collect(),
            None,
        ),
        _ => return None,
    };
    if answers.is_empty() {
        return None;
    }
    let scale = match view {
        PredictView::World => world_scale(),
        PredictView::Minkowski => minkowski_scale(),
    };
    Some(Question {
        step,
        prompt,
        view,
        answers,
        tolerance: TOLERANCE_SHARE * scale,
        given,
    })
}

/// The points that bound a shape in the world: its vertices, or a circle's extreme
/// points.
fn reach_points(lesson: &Lesson, owner: Owner) -> Vec<Vec2> {
    let points = lesson.world_vertices(owner);
    match lesson.shape(owner) {
        Shape::Circle(c) => {
            let r = c.radius();
            vec![points[0] - Vec2::splat(r), points[0] + Vec2::splat(r)]
        }
        _ => points,
    }
}

/// The diagonal of the box around `points` (m), at least a millimetre.
fn extent(points: &[Vec2]) -> f32 {
    let (lo, hi) = points.iter().fold(
        (Vec2::splat(f32::INFINITY), Vec2::splat(f32::NEG_INFINITY)),
        |(lo, hi), &p| (lo.min(p), hi.max(p)),
    );
    if lo.x > hi.x {
        return 1e-3;
    }
    (hi - lo).length().max(1e-3)
}

/// A student's predictions in one lesson: how many were asked and how many hit.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Scoreboard {
    /// Every scored click, in order.
    pub attempts: Vec<Attempt>,
    /// Questions revealed without a click.
    pub skipped: u32,
}

impl Scoreboard {
    /// Records an attempt.
    pub fn record(&mut self, attempt: Attempt) {
        self.attempts.push(attempt);
    }

    /// Clicks scored.
    pub fn asked(&self) -> usize {
        self.attempts.len()
    }

    /// Clicks within the tolerance.
    pub fn hits(&self) -> usize {
        self.attempts.iter().filter(|a| a.hit).count()
    }

    /// The attempt that predicted `step`, if any (the last one).
    pub fn attempt_for(&self, step: usize) -> Option<&Attempt> {
        self.attempts.iter().rev().find(|a| a.step == step)
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// True when `scenes/lessons/<name>` is a narrow-phase lesson (1–10).
    pub(crate) fn is_narrow(name: &str) -> bool {
        let path = format!("{}/scenes/lessons/{name}", env!("CARGO_MANIFEST_DIR"));
        crate::scene::load(path)
            .ok()
            .and_then(|s| s.def().lesson.as_ref().map(|l| l.topic.is_narrow()))
            .unwrap_or(false)
    }

    fn lesson(name: &str) -> Lesson {
        let path = format!("{}/scenes/lessons/{name}", env!("CARGO_MANIFEST_DIR"));
        Lesson::from_scene(&crate::scene::load(path).unwrap()).unwrap()
    }

    #[test]
    fn every_lesson_asks_something_and_its_answers_score_as_hits() {
        for e in std::fs::read_dir(format!("{}/scenes/lessons", env!("CARGO_MANIFEST_DIR"))).unwrap() {
            let name = e.unwrap().file_name().to_string_lossy().into_owned();
            if !is_narrow(&name) {
                continue; // lessons 11 on ask through their topic traces (`topic.rs`)
            }
            let l = lesson(&name);
            let mut asked = 0;
            for algorithm in l.algorithms() {
                let (_, trace) = l.trace(algorithm);
                for q in (0..trace.steps.len()).filter_map(|i| question(&l, &trace, i)) {
                    asked += 1;
                    assert!(q.tolerance > 0.0 && q.tolerance.is_finite());
                    for &answer in &q.answers {
                        assert!(q.score(answer).hit, "{name}: the answer itself scores");
                        assert!(q.score(answer + Vec2::new(q.tolerance * 0.99, 0.0)).hit);
                    }
                    // Far from every answer misses.
                    let far = q.answers[0] + Vec2::new(1e3 * q.tolerance, 0.0);
                    assert!(!q.score(far).hit, "{name}: a click far away hit");
                }
            }
            assert!(asked > 0, "{name} asks nothing");
        }
    }

    #[test]
    fn a_gjk_question_asks_for_the_support_point_in_a_minus_b() {
        let l = lesson("06_gjk.ron");
        let (_, trace) = l.trace(crate::narrow::Algorithm::GjkEpa);
        let (step, q) = (0..trace.steps.len())
            .find_map(|i| {
                question(&l, &trace, i)
                    .filter(|q| q.view == PredictView::Minkowski)
                    .map(|q| (i, q))
            })
            .expect("GJK asks in A − B");
        let TraceStep::Gjk(g) = &trace.steps[step] else {
            panic!("the first A − B question is a GJK iteration");
        };
        assert_eq!(q.answers, vec![g.support.point]);
        // Scored relative to the size of A − B: a tenth of it away misses.
        let miss = q.score(g.support.point + Vec2::new(q.tolerance * 1.5, 0.0));
        assert!(!miss.hit && (miss.distance - q.tolerance * 1.5).abs() < 1e-4);
    }

    #[test]
    fn the_scoreboard_counts_hits() {
        let mut board = Scoreboard::default();
        let q = Question {
            step: 3,
            prompt: "",
            view: PredictView::World,
            answers: vec![Vec2::ZERO, Vec2::new(1.0, 0.0)],
            tolerance: 0.1,
            given: None,
        };
        board.record(q.score(Vec2::new(0.95, 0.02)));
        board.record(q.score(Vec2::new(0.5, 0.0)));
        assert_eq!((board.asked(), board.hits()), (2, 1));
        assert_eq!(board.attempts[0].answer, Vec2::new(1.0, 0.0));
        assert_eq!(board.attempt_for(3), Some(&board.attempts[1]), "the last attempt");
    }
}
