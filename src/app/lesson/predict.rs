//! Predict mode in the lesson player (K, or "Predict" in the lesson panel): stepping
//! forward stops before a step that has a question (`lesson::predict`), the card asks
//! it, the view to answer in is outlined, and a left click there is scored against the
//! trace before the step is shown. The shown step then marks the click and the answer.
//!
//! Next (→) while a question is open reveals the step without scoring ("skipped"); Esc
//! closes the question and stays. Scores stay in the window: nothing is written or sent.

use super::paint::{arrow, dot, draw_rectangle_lines, label, line, ring};
use super::{colors, LessonMode, Rect};
use crate::app::camera::Camera;
use crate::lesson::{question, PredictView, Question, Scoreboard};
use crate::math::Vec2;
use macroquad::prelude::Color;

/// Predict mode's state in one lesson.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PredictState {
    /// Predict mode is on.
    pub on: bool,
    /// The question waiting for a click.
    pub pending: Option<Question>,
    /// The clicks scored so far.
    pub board: Scoreboard,
}

impl PredictState {
    /// "2 of 3 within tolerance, 1 skipped": the panel's score line.
    pub fn score_text(&self) -> String {
        let b = &self.board;
        let mut text = format!("{} of {} within tolerance", b.hits(), b.asked());
        if b.skipped > 0 {
            text += &format!(", {} skipped", b.skipped);
        }
        text
    }
}

impl LessonMode {
    /// Turns predict mode on or off (off closes an open question).
    pub fn toggle_predict(&mut self) -> String {
        self.predict.on = !self.predict.on;
        self.predict.pending = None;
        if self.predict.on {
            "predict mode: before each step with a question, click your answer in the outlined view".to_string()
        } else {
            format!("predict mode off ({})", self.predict.score_text())
        }
    }

    /// One step (or iteration) forward, as Next and → do: in predict mode it stops at
    /// the next step with an unanswered question and asks it; with a question open, it
    /// reveals that step unscored. Returns what the status bar says, if anything.
    pub fn forward(&mut self, by_iteration: bool) -> Option<String> {
        if let Some(q) = self.predict.pending.take() {
            self.predict.board.skipped += 1;
            self.player.seek(q.step);
            return Some("revealed without a prediction (skipped)".to_string());
        }
        if self.predict.on {
            let cursor = self.player.cursor();
            let target = if by_iteration {
                let it = self.player.iteration_of(cursor);
                let end = self.player.iteration_steps(it).end;
                if cursor + 1 < end {
                    end - 1
                } else {
                    self.player.iteration_steps(it + 1).end.saturating_sub(1)
                }
            } else {
                cursor + 1
            };
            if let Some(q) = self.question_between(cursor + 1, target) {
                let prompt = q.prompt;
                self.predict.pending = Some(q);
                return Some(format!("predict: {prompt}"));
            }
        }
        if by_iteration {
            self.player.next_iteration();
        } else {
            self.player.next();
        }
        None
    }

    /// The first unanswered question of steps `from..=to`.
    fn question_between(&self, from: usize, to: usize) -> Option<Question> {
        let last = self.player.len().saturating_sub(1);
        (from..=to.min(last))
            .filter(|&step| self.predict.board.attempt_for(step).is_none())
            .find_map(|step| question(&self.lesson, self.player.trace(), step))
    }

    /// Play in predict mode: stops before the next step with an unanswered question and
    /// asks it. Returns the prompt when it asked.
    pub fn hold_for_question(&mut self) -> Option<&'static str> {
        if !self.predict.on || self.predict.pending.is_some() || !self.player.is_playing() {
            return None;
        }
        let next = self.player.cursor() + 1;
        let q = self.question_between(next, next)?;
        self.player.pause();
        let prompt = q.prompt;
        self.predict.pending = Some(q);
        Some(prompt)
    }

    /// Scores a click at `screen_px` for the open question when it is inside the
    /// question's view, then shows the step. `None` when no question is open or the click
    /// is elsewhere.
    pub fn answer_click(&mut self, screen_px: Vec2) -> Option<String> {
        let q = self.predict.pending.as_ref()?;
        let (camera, rect) = self.view_of(q.view);
        if !rect.contains(screen_px) {
            return None;
        }
        let click = camera.screen_to_world(screen_px);
        let q = self.predict.pending.take()?;
        let attempt = q.score(click);
        self.predict.board.record(attempt);
        self.player.seek(q.step);
        let verdict = if attempt.hit { "right" } else { "off" };
        Some(format!(
            "prediction {verdict}: {} from the answer (tolerance {}); {}",
            crate::lesson::fmt_num(attempt.distance),
            crate::lesson::fmt_num(q.tolerance),
            self.predict.score_text()
        ))
    }

    /// The question Next would ask from the step shown, with where its answer is on
    /// the screen: what `render --predict` writes for scripts and the window tests
    /// (`null` when Next asks nothing).
    pub fn next_question_json(&self) -> serde_json::Value {
        let next = self.player.cursor() + 1;
        let Some(q) = self.question_between(next, next) else {
            return serde_json::Value::Null;
        };
        let (camera, _) = self.view_of(q.view);
        let answers: Vec<[f32; 2]> = q
            .answers
            .iter()
            .map(|&a| {
                let p = camera.world_to_screen(a);
                [p.x, p.y]
            })
            .collect();
        serde_json::json!({
            "step": q.step,
            "view": match q.view { PredictView::World => "world", PredictView::Minkowski => "minkowski" },
            "prompt": q.prompt,
            "answers_px": answers,
            "tolerance_px": camera.length_to_screen(q.tolerance),
        })
    }

    /// The camera and rectangle of a view.
    fn view_of(&self, view: PredictView) -> (&Camera, Rect) {
        match view {
            PredictView::World => (&self.world_camera, self.layout.world),
            PredictView::Minkowski => (&self.minkowski_camera, self.layout.minkowski),
        }
    }
}

/// Marks in `view` (drawn between the view's begin and end): the outline asking for a
/// click while a question is open there, and on a step that was predicted, the click
/// and the answer joined by a line.
pub fn draw(mode: &LessonMode, view: PredictView) {
    let (camera, rect) = mode.view_of(view);
    if let Some(q) = mode.predict.pending.as_ref().filter(|q| q.view == view) {
        let inset = 3.0;
        draw_rectangle_lines(
            rect.min.x + inset,
            rect.min.y + inset,
            rect.size().x - 2.0 * inset,
            rect.size().y - 2.0 * inset,
            4.0,
            colors::PREDICT,
        );
        // The tolerance, drawn as a ring around the cursor would give the answer away;
        // a scale bar of its length at the view's top right says how close is enough.
        let r_px = camera.length_to_screen(q.tolerance);
        let right = Vec2::new(rect.max.x - 16.0, rect.min.y + 34.0);
        let left_world = camera.screen_to_world(right - Vec2::new(r_px, 0.0));
        let right_world = camera.screen_to_world(right);
        line(camera, left_world, right_world, 3.0, colors::PREDICT);
        label(
            camera,
            left_world,
            Vec2::new(0.0, 18.0),
            "click within this of the answer",
            colors::PREDICT,
        );
        if let Some(g) = q.given {
            let length = camera.length_to_world(70.0);
            arrow(camera, g.from, g.direction * length, 3.0, colors::DIRECTION);
            label(
                camera,
                g.from + g.direction * length,
                Vec2::new(6.0, -6.0),
                g.name,
                colors::DIRECTION,
            );
        }
    }
    let Some(attempt) = mode.predict.board.attempt_for(mode.player.cursor()) else {
        return;
    };
    if question(&mode.lesson, mode.player.trace(), attempt.step).is_none_or(|q| q.view != view) {
        return;
    }
    let colour = if attempt.hit {
        colors::PREDICT_HIT
    } else {
        colors::PREDICT_MISS
    };
    line(camera, attempt.click, attempt.answer, 1.5, Color { a: 0.7, ..colour });
    ring(camera, attempt.answer, 9.0, 2.5, colors::PREDICT_HIT);
    dot(camera, attempt.click, 4.0, colour);
    let words = if attempt.hit { "your click: right" } else { "your click" };
    label(camera, attempt.click, Vec2::new(8.0, 14.0), words, colour);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gjk_lesson() -> LessonMode {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/scenes/lessons/06_gjk.ron");
        let scene = crate::scene::load(path).unwrap();
        let mut mode = LessonMode::from_scene(&scene, Vec2::new(1280.0, 800.0)).unwrap();
        mode.refit();
        mode
    }

    fn answer_px(mode: &LessonMode) -> Vec2 {
        let q = mode.predict.pending.as_ref().expect("a question is open");
        mode.view_of(q.view).0.world_to_screen(q.answers[0])
    }

    #[test]
    fn next_asks_before_a_step_with_a_question_and_a_click_reveals_it() {
        let mut mode = gjk_lesson();
        // Off: Next just steps.
        assert!(mode.forward(false).is_none());
        assert_eq!(mode.player.cursor(), 1);
        mode.toggle_predict();
        // Step 2 is GJK's first iteration: Next asks and stays.
        let said = mode.forward(false).expect("it asks");
        assert!(said.contains("support point"), "{said}");
        assert_eq!(mode.player.cursor(), 1, "not shown before the click");
        let q = mode.predict.pending.clone().unwrap();
        assert_eq!(q.step, 2);
        // A click outside the question's view is not an answer.
        assert!(mode.answer_click(mode.layout.world.min + Vec2::splat(20.0)).is_none());
        let said = mode.answer_click(answer_px(&mode)).expect("scored");
        assert!(said.starts_with("prediction right"), "{said}");
        assert_eq!(mode.player.cursor(), 2, "the step is shown");
        assert_eq!((mode.predict.board.asked(), mode.predict.board.hits()), (1, 1));
        // The next question revealed with Next instead of a click counts as skipped.
        mode.forward(false).expect("asks again");
        assert!(mode.predict.pending.is_some());
        mode.forward(false).expect("reveals");
        assert_eq!(mode.player.cursor(), 3);
        assert_eq!(mode.predict.board.skipped, 1);
    }

    #[test]
    fn an_edit_closes_the_open_question_and_play_stops_at_the_next() {
        let mut mode = gjk_lesson();
        mode.toggle_predict();
        mode.forward(false);
        mode.forward(false);
        assert!(mode.predict.pending.is_some());
        mode.recompute();
        assert!(mode.predict.pending.is_none(), "its answer was the old trace's");
        mode.player.play();
        assert!(mode.hold_for_question().is_some());
        assert!(!mode.player.is_playing(), "play pauses to ask");
    }
}
