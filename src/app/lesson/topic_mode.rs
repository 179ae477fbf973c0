//! The lesson player for lessons whose trace is not a narrow phase's (lessons 11 on:
//! `lesson::topic`): the same player, predict mode, quiz, SVG export and label placement
//! as [`super::LessonMode`], over a [`TopicTrace`] whose steps say themselves what the
//! two views draw. Nothing here knows which topic it plays.
//!
//! The views are the world (left) and the topic's diagram (right; the Minkowski view's
//! place). Mouse: right or middle drag pans a view, the wheel zooms it; in predict mode
//! a left click in the outlined view answers. Keys as in every lesson.

use super::{Layout, QuizState, Rect};
use crate::app::camera::Camera;
use crate::app::input::{Button, FrameInput, Key};
use crate::bounds::Aabb;
use crate::lesson::topic::{MeasuredCost, Pane, TopicLesson, TopicTrace};
use crate::lesson::{fmt_num, Player, Scoreboard};
use crate::math::Vec2;
use crate::scene::Scene;

/// Predict mode in a topic lesson: the open question is the target of step `pending`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TopicPredict {
    /// Predict mode is on.
    pub on: bool,
    /// The step whose target waits for a click.
    pub pending: Option<usize>,
    /// The clicks scored so far.
    pub board: Scoreboard,
}

/// A topic lesson in the window.
#[derive(Clone, Debug)]
pub struct TopicMode {
    /// The lesson: its scene, presets and topic.
    pub lesson: TopicLesson,
    /// The cursor over the recorded trace.
    pub player: Player<TopicTrace>,
    /// The world view's camera.
    pub world_camera: Camera,
    /// The diagram's camera.
    pub diagram_camera: Camera,
    /// The views' rectangles (`minkowski` is the diagram's).
    pub layout: Layout,
    fitted_for: Option<((Vec2, Vec2), Vec2)>,
    /// Which view a right or middle drag pans.
    pub panning: Option<Pane>,
    /// Predict mode.
    pub predict: TopicPredict,
    /// The quiz's answers.
    pub quiz: QuizState,
    /// "Export SVG" was asked: the next frame's views are recorded …
    pub export_svg: bool,
    /// … into this.
    pub last_svg: Option<String>,
    /// Lesson 12: Cv and Cp per node volume, timed when the lesson (or a preset) was
    /// opened; empty for the other topics.
    pub costs: Vec<MeasuredCost>,
}

impl TopicMode {
    /// The topic lesson of `scene` at its first step, or `None` for any other scene.
    pub fn from_scene(scene: &Scene, screen_size_px: Vec2) -> Option<TopicMode> {
        let lesson = TopicLesson::from_scene(scene).ok()?;
        let camera = Camera::new(Vec2::ZERO, 60.0, screen_size_px);
        let mut mode = TopicMode {
            player: Player::new(lesson.trace()),
            lesson,
            world_camera: camera,
            diagram_camera: camera,
            layout: Layout::split((Vec2::ZERO, screen_size_px), None),
            fitted_for: None,
            panning: None,
            predict: TopicPredict::default(),
            quiz: QuizState::default(),
            export_svg: false,
            last_svg: None,
            costs: Vec::new(),
        };
        mode.costs = mode.lesson.measure_costs();
        mode.fit(screen_size_px, (Vec2::ZERO, screen_size_px));
        Some(mode)
    }

    /// Lays out and fits when the viewport or the window changed.
    pub fn fit_if_needed(&mut self, screen_size_px: Vec2, viewport: (Vec2, Vec2)) {
        if self.fitted_for != Some((viewport, screen_size_px)) {
            self.fit(screen_size_px, viewport);
        }
    }

    /// Fits both views again at the next frame.
    pub fn refit(&mut self) {
        self.fitted_for = None;
    }

    /// Lays the two views out and fits each camera to everything its view shows over the
    /// whole trace (so the picture does not jump while stepping).
    pub fn fit(&mut self, screen_size_px: Vec2, viewport: (Vec2, Vec2)) {
        let trace = self.player.trace();
        let padded = |b: Option<Aabb>, share: f32| {
            let b = b.unwrap_or(Aabb::new(Vec2::splat(-1.0), Vec2::splat(1.0)));
            let pad = (b.max - b.min).max_element().max(1e-3) * share;
            Aabb::new(b.min - Vec2::splat(pad), b.max + Vec2::splat(pad))
        };
        let (world, diagram) = (padded(trace.world_bounds, 0.12), padded(trace.diagram_bounds, 0.06));
        // Width in proportion to each picture's aspect (width / height), within 35–65%:
        // a wide world beside a tall list gets the room it can use.
        let aspect = |b: &Aabb| {
            let s = (b.max - b.min).max(Vec2::splat(1e-3));
            s.x / s.y
        };
        let share = (aspect(&world) / (aspect(&world) + aspect(&diagram))).clamp(0.35, 0.65);
        self.layout = Layout::side_by_side(viewport, share);
        for (camera, bounds, rect) in [
            (&mut self.world_camera, world, self.layout.world),
            (&mut self.diagram_camera, diagram, self.layout.minkowski),
        ] {
            camera.screen_size_px = screen_size_px;
            // Room at the top for the view's title.
            camera.fit_in(&bounds, rect.min + Vec2::new(0.0, 18.0), rect.max, 36.0);
        }
        self.fitted_for = Some((viewport, screen_size_px));
    }

    /// The camera and rectangle of a pane.
    pub fn view_of(&self, pane: Pane) -> (&Camera, Rect) {
        match pane {
            Pane::World => (&self.world_camera, self.layout.world),
            Pane::Diagram => (&self.diagram_camera, self.layout.minkowski),
        }
    }

    /// Applies a preset (or the scene as written), records the trace again and keeps
    /// the player's place where it can.
    pub fn set_preset(&mut self, preset: Option<usize>) -> Result<(), String> {
        self.lesson.set_preset(preset)?;
        self.predict.pending = None;
        self.quiz = QuizState::default();
        self.player.retrace(self.lesson.trace());
        self.costs = self.lesson.measure_costs();
        self.fitted_for = None;
        Ok(())
    }

    /// Turns predict mode on or off.
    pub fn toggle_predict(&mut self) -> String {
        self.predict.on = !self.predict.on;
        self.predict.pending = None;
        if self.predict.on {
            "predict mode: before each step with a question, click your answer in the outlined view".to_string()
        } else {
            format!("predict mode off ({})", self.score_text())
        }
    }

    /// "2 of 3 within tolerance, 1 skipped".
    pub fn score_text(&self) -> String {
        let b = &self.predict.board;
        let mut text = format!("{} of {} within tolerance", b.hits(), b.asked());
        if b.skipped > 0 {
            text += &format!(", {} skipped", b.skipped);
        }
        text
    }

    /// The first unanswered question among steps `from..=to`.
    fn question_between(&self, from: usize, to: usize) -> Option<usize> {
        let steps = &self.player.trace().steps;
        (from..=to.min(steps.len().saturating_sub(1)))
            .find(|&i| steps[i].target.is_some() && self.predict.board.attempt_for(i).is_none())
    }

    /// Next (→): in predict mode, stops before a step with a question and asks it; with a
    /// question open, shows that step unscored.
    pub fn forward(&mut self, by_iteration: bool) -> Option<String> {
        if let Some(step) = self.predict.pending.take() {
            self.predict.board.skipped += 1;
            self.player.seek(step);
            return Some("revealed without a prediction (skipped)".to_string());
        }
        if self.predict.on {
            let cursor = self.player.cursor();
            let target = if by_iteration {
                let it = self.player.iteration_of(cursor);
                self.player
                    .iteration_steps(it + 1)
                    .end
                    .saturating_sub(1)
                    .max(cursor + 1)
            } else {
                cursor + 1
            };
            if let Some(step) = self.question_between(cursor + 1, target) {
                self.predict.pending = Some(step);
                return self.prompt().map(|p| format!("predict: {p}"));
            }
        }
        if by_iteration {
            self.player.next_iteration();
        } else {
            self.player.next();
        }
        None
    }

    /// The open question's prompt.
    pub fn prompt(&self) -> Option<&str> {
        let step = self.predict.pending?;
        self.player
            .trace()
            .steps
            .get(step)?
            .target
            .as_ref()
            .map(|t| t.prompt.as_str())
    }

    /// Play in predict mode: pauses before the next step with a question.
    pub fn hold_for_question(&mut self) -> Option<String> {
        if !self.predict.on || self.predict.pending.is_some() || !self.player.is_playing() {
            return None;
        }
        let next = self.player.cursor() + 1;
        let step = self.question_between(next, next)?;
        self.player.pause();
        self.predict.pending = Some(step);
        self.prompt().map(str::to_string)
    }

    /// Scores a click for the open question when it falls in the question's view, then
    /// shows the step.
    pub fn answer_click(&mut self, screen_px: Vec2) -> Option<String> {
        let step = self.predict.pending?;
        let target = self.player.trace().steps.get(step)?.target.clone()?;
        let (camera, rect) = self.view_of(target.pane);
        if !rect.contains(screen_px) {
            return None;
        }
        let attempt = target.score(step, camera.screen_to_world(screen_px));
        self.predict.pending = None;
        self.predict.board.record(attempt);
        self.player.seek(step);
        Some(format!(
            "prediction {}: {} from the answer (tolerance {}); {}",
            if attempt.hit { "right" } else { "off" },
            fmt_num(attempt.distance),
            fmt_num(target.tolerance),
            self.score_text()
        ))
    }

    /// The question Next would ask, with its answers in screen pixels (`render
    /// --predict`); `null` when Next asks nothing.
    pub fn next_question_json(&self) -> serde_json::Value {
        let next = self.player.cursor() + 1;
        let Some(step) = self.question_between(next, next) else {
            return serde_json::Value::Null;
        };
        let Some(t) = self.player.trace().steps[step].target.as_ref() else {
            return serde_json::Value::Null;
        };
        let (camera, _) = self.view_of(t.pane);
        let answers: Vec<[f32; 2]> = t
            .answers
            .iter()
            .map(|&a| {
                let p = camera.world_to_screen(a);
                [p.x, p.y]
            })
            .collect();
        serde_json::json!({
            "step": step,
            "view": match t.pane { Pane::World => "world", Pane::Diagram => "diagram" },
            "prompt": t.prompt,
            "answers_px": answers,
            "tolerance_px": camera.length_to_screen(t.tolerance),
        })
    }

    /// One frame of mouse and keys; returns what the status bar should say.
    pub fn handle(&mut self, input: &FrameInput, last_mouse_px: Vec2) -> Option<String> {
        let said = self.keys(input);
        let mouse = input.mouse_px;
        if !input.ui_wants_pointer && self.panning.is_none() && input.pressed(Button::Left) {
            if let Some(text) = self.answer_click(mouse) {
                return Some(text);
            }
        }
        let pane_at = |m: &TopicMode| {
            if m.layout.world.contains(mouse) {
                Some(Pane::World)
            } else if m.layout.minkowski.contains(mouse) {
                Some(Pane::Diagram)
            } else {
                None
            }
        };
        if !input.ui_wants_pointer && (input.pressed(Button::Right) || input.pressed(Button::Middle)) {
            self.panning = pane_at(self);
        }
        if let Some(pane) = self.panning {
            let camera = match pane {
                Pane::World => &mut self.world_camera,
                Pane::Diagram => &mut self.diagram_camera,
            };
            camera.pan_by_screen(mouse - last_mouse_px);
            if !input.down(Button::Right) && !input.down(Button::Middle) {
                self.panning = None;
            }
        } else if !input.ui_wants_pointer && input.wheel != 0.0 {
            match pane_at(self) {
                Some(Pane::World) => self.world_camera.zoom_about(mouse, 1.1f32.powf(input.wheel)),
                Some(Pane::Diagram) => self.diagram_camera.zoom_about(mouse, 1.1f32.powf(input.wheel)),
                None => {}
            }
        }
        said
    }

    fn keys(&mut self, input: &FrameInput) -> Option<String> {
        if input.ui_wants_keyboard || input.ctrl {
            return None;
        }
        let mut said = None;
        for &key in &input.keys {
            let p = &mut self.player;
            match key {
                Key::Space if p.is_playing() => p.pause(),
                Key::Space => p.play(),
                Key::Right | Key::Period => {
                    p.pause();
                    said = self.forward(false).or(said);
                }
                Key::K => said = Some(self.toggle_predict()),
                Key::Escape if self.predict.pending.is_some() => {
                    self.predict.pending = None;
                    said = Some("question closed".to_string());
                }
                Key::Left | Key::Backspace => {
                    p.pause();
                    p.prev();
                }
                Key::Home => {
                    p.pause();
                    p.first();
                }
                Key::End => {
                    p.pause();
                    p.last();
                }
                Key::F => self.refit(),
                _ => {}
            }
        }
        said
    }
}

/// Plays a topic lesson for one frame (the interactive window only).
pub fn advance(state: &mut crate::app::state::AppState, interactive: bool) {
    let Some(mode) = state.topic.as_mut().filter(|_| interactive) else {
        return;
    };
    if let Some(prompt) = mode.hold_for_question() {
        state.set_status(format!("predict: {prompt}"));
        return;
    }
    mode.player.advance(macroquad::time::get_frame_time());
}

/// Mouse and keys of a topic lesson for one frame.
pub fn handle_app(state: &mut crate::app::state::AppState, input: &FrameInput, last_mouse_px: Vec2) {
    let Some(mode) = state.topic.as_mut() else {
        return;
    };
    if let Some(text) = mode.handle(input, last_mouse_px) {
        state.set_status(text);
    }
}

impl super::RenderLesson {
    /// Puts a topic lesson where the render asks (the algorithm does not apply).
    pub fn apply_topic(&self, mode: &mut TopicMode) -> Result<(), String> {
        if self.preset.is_some() {
            mode.set_preset(self.preset)?;
        }
        if let Some(step) = self.step {
            mode.player.seek(step);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    pub(crate) fn open(name: &str) -> TopicMode {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("scenes/lessons")
            .join(name);
        let scene = crate::scene::load(path).unwrap();
        TopicMode::from_scene(&scene, Vec2::new(1280.0, 800.0)).expect("a topic lesson")
    }

    #[test]
    fn predict_asks_before_a_step_with_a_target_and_a_click_on_the_answer_scores() {
        let mut mode = open("11_bounding_volumes.ron");
        mode.toggle_predict();
        let mut asked = None;
        for _ in 0..mode.player.len() {
            if let Some(said) = mode.forward(false) {
                if said.starts_with("predict:") {
                    asked = mode.predict.pending;
                    break;
                }
            }
        }
        let step = asked.expect("lesson 11 asks where the volume fits worst");
        assert_eq!(mode.player.cursor() + 1, step, "not shown before the click");
        let t = mode.player.trace().steps[step].target.clone().unwrap();
        let (camera, _) = mode.view_of(t.pane);
        let px = camera.world_to_screen(t.answers[0]);
        let said = mode.answer_click(px).expect("scored");
        assert!(said.starts_with("prediction right"), "{said}");
        assert_eq!(mode.player.cursor(), step);
        assert_eq!((mode.predict.board.asked(), mode.predict.board.hits()), (1, 1));
    }

    /// Lesson 12 times Cv and Cp when it opens (never in the trace), and predict mode
    /// asks for the next node of the descent in the tree diagram.
    #[test]
    fn lesson_12_measures_its_costs_and_asks_for_the_next_node_in_the_tree() {
        let mut mode = open("12_trees.ron");
        assert_eq!(mode.costs.len(), 4, "one row per node volume");
        for c in &mode.costs {
            assert!(c.cv_ns > 0.0 && c.cp_ns > 0.0 && c.cv_ns.is_finite(), "{c:?}");
        }
        mode.toggle_predict();
        let mut asked = None;
        for _ in 0..mode.player.len() {
            if mode.forward(false).is_some_and(|said| said.starts_with("predict:")) {
                asked = mode.predict.pending;
                break;
            }
        }
        let step = asked.expect("the descent asks which node comes next");
        let t = mode.player.trace().steps[step].target.clone().unwrap();
        assert_eq!(t.pane, Pane::Diagram);
        let (camera, _) = mode.view_of(t.pane);
        let px = camera.world_to_screen(t.answers[0]);
        let said = mode.answer_click(px).expect("scored");
        assert!(said.starts_with("prediction right"), "{said}");
    }

    #[test]
    fn a_preset_retraces_and_refits() {
        let mut mode = open("11_bounding_volumes.ron");
        mode.player.last();
        mode.set_preset(Some(1)).unwrap();
        assert_eq!(mode.player.cursor(), mode.player.len() - 1, "still at the answer");
        assert!(mode.player.trace().steps.last().unwrap().card.title.contains("circle"));
    }
}
