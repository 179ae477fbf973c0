//! # The lesson player
//!
//! A scene with a `lesson` block opens here instead of the sandbox: two shapes, time
//! frozen, and the core's recorded trace ([`crate::lesson`]) replayed step by step in
//! three views that always show the same step:
//!
//! - the **world** (`world_view.rs`): A and B, the support points, the current axis with
//!   both shadows, the clipping lines, the contact points, the MTV;
//! - the **Minkowski difference** A − B (`minkowski_view.rs`): its hull, the origin, the
//!   GJK simplex with the Voronoi regions that decide what it keeps, the search
//!   direction, the EPA polytope; hovering a vertex shows the pair (a_i, b_j) behind it;
//! - the **projection strip** (`strip.rs`): one row per SAT axis tested so far.
//!
//! The panel (`panel.rs`) holds the narration card, the pseudocode, the player's
//! controls and the knobs; `input.rs` turns the mouse into edits (drag and rotate the
//! shapes, drag their vertices), each of which recomputes the trace once and lets the
//! player keep its place ([`Player::retrace`]). Stepping never runs physics: the views
//! read [`Player::state`], a pure function of the recorded steps.
//!
//! Lessons 11 on (`lesson::topic`: bounding volumes, sweep and prune, the spatial hash,
//! the dynamic tree) open in [`topic_mode::TopicMode`] instead: the same player, predict
//! mode, quiz and SVG export over a trace whose steps carry their own marks, drawn by
//! `topic_view.rs` in a world view and a diagram, with `topic_panel.rs` as the panel.

pub mod colors;
pub mod input;
pub mod knobs;
#[cfg(test)]
mod label_tests;
pub mod layout;
pub mod minkowski_view;
pub mod paint;
pub mod panel;
pub mod predict;
mod quiz_view;
pub mod regions;
pub mod strip;
pub mod svg;
pub mod topic_mode;
pub mod topic_panel;
pub mod topic_view;
pub mod world_view;

pub use layout::{Layout, Rect, VIEW_GAP_PX};

use super::camera::Camera;
use crate::bounds::Aabb;
use crate::lesson::{ExactAnswer, Lesson, MinkowskiView, Player};
use crate::math::Vec2;
use crate::narrow::trace::{Owner, TraceStep};
use crate::narrow::{Algorithm, Contact, NarrowConfig};
use crate::scene::{Scene, SceneDef};

/// What the mouse is doing in the world or Minkowski view.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Drag {
    /// Moving A or B; `grab_offset` is the body's origin minus the grabbed point (m).
    Body {
        /// Which body.
        owner: Owner,
        /// Origin minus grab point, world frame.
        grab_offset: Vec2,
    },
    /// Moving vertex `index` of polygon A or B.
    Vertex {
        /// Which body.
        owner: Owner,
        /// Vertex index (counter-clockwise numbering of the whole polygon).
        index: usize,
    },
    /// Panning a view with the right or middle button.
    Pan {
        /// True for the Minkowski view.
        minkowski: bool,
    },
}

/// A vertex of A − B: piece pair `piece`, vertex `vertex` of its hull.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MinkowskiVertex {
    /// Index into [`MinkowskiView::pieces`].
    pub piece: usize,
    /// Index into that piece's `vertices`.
    pub vertex: usize,
}

/// The lesson player's state: the lesson, its trace's player, what the user points at.
#[derive(Clone, Debug)]
pub struct LessonMode {
    /// The two shapes, their poses, the preset and the knobs.
    pub lesson: Lesson,
    /// The cursor over the recorded trace.
    pub player: Player,
    /// The algorithm whose trace is shown.
    pub algorithm: Algorithm,
    /// That algorithm's answer.
    pub contact: Contact,
    /// A − B with the vertex pair behind every vertex (recomputed with each edit).
    pub minkowski: MinkowskiView,
    /// The exact answer (polygons), for the lessons that compare.
    pub exact: Option<ExactAnswer>,
    /// The A − B vertex under the cursor.
    pub hovered_minkowski: Option<MinkowskiVertex>,
    /// A vertex handle under the cursor in the world view.
    pub hovered_vertex: Option<(Owner, usize)>,
    /// The body under the cursor in the world view.
    pub hovered_body: Option<Owner>,
    /// What the mouse is dragging.
    pub drag: Option<Drag>,
    /// The world view's camera (its screen is the whole window; it is fitted to
    /// `layout.world`).
    pub world_camera: Camera,
    /// The Minkowski view's camera.
    pub minkowski_camera: Camera,
    /// The views' rectangles.
    pub layout: Layout,
    /// The viewport and window size the cameras were fitted for (refit when they change).
    fitted_for: Option<((Vec2, Vec2), Vec2)>,
    /// Whether the trace tests SAT axes (the strip is shown).
    pub has_strip: bool,
    /// The shapes were edited since the lesson was opened or saved.
    pub edited: bool,
    /// Predict mode (`predict.rs`).
    pub predict: predict::PredictState,
    /// The end-of-lesson quiz: the choice picked for each question, and whether the
    /// answers have been checked.
    pub quiz: QuizState,
    /// "Export SVG" was asked: the next frame's views are recorded (`svg.rs`) …
    pub export_svg: bool,
    /// … into this, until the frame's end writes it.
    pub last_svg: Option<String>,
}

/// The quiz's answers so far (its questions come from the trace: `lesson::quiz`).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct QuizState {
    /// Per question, the choice picked.
    pub picked: Vec<Option<usize>>,
    /// The answers were checked: right and wrong are shown.
    pub checked: bool,
}

impl LessonMode {
    /// The lesson of `scene`, at the first step of its starting algorithm, or `None` for
    /// an ordinary scene.
    pub fn from_scene(scene: &Scene, screen_size_px: Vec2) -> Option<LessonMode> {
        let lesson = Lesson::from_scene(scene).ok()?;
        let algorithm = lesson.algorithm();
        let (contact, trace) = lesson.trace(algorithm);
        let camera = Camera::new(Vec2::ZERO, 60.0, screen_size_px);
        let mut mode = LessonMode {
            minkowski: lesson.minkowski(),
            exact: lesson.exact(),
            lesson,
            player: Player::new(trace),
            algorithm,
            contact,
            hovered_minkowski: None,
            hovered_vertex: None,
            hovered_body: None,
            drag: None,
            world_camera: camera,
            minkowski_camera: camera,
            layout: Layout::split((Vec2::ZERO, screen_size_px), None),
            fitted_for: None,
            has_strip: false,
            edited: false,
            predict: predict::PredictState::default(),
            quiz: QuizState::default(),
            export_svg: false,
            last_svg: None,
        };
        mode.has_strip = mode.trace_has_sat_axes();
        mode.fit(screen_size_px, (Vec2::ZERO, screen_size_px));
        Some(mode)
    }

    fn trace_has_sat_axes(&self) -> bool {
        self.player
            .trace()
            .steps
            .iter()
            .any(|s| matches!(s, TraceStep::SatAxis(_)))
    }

    /// Number of rows the strip will have at the last step (for the layout).
    pub fn strip_rows(&self) -> Option<usize> {
        self.has_strip.then(|| {
            self.player
                .trace()
                .steps
                .iter()
                .filter(|s| matches!(s, TraceStep::SatAxis(_)))
                .count()
        })
    }

    /// Lays the views out in `viewport` and fits both cameras, when the viewport or the
    /// window changed since the last fit (so a pan or zoom by the user stays otherwise).
    pub fn fit_if_needed(&mut self, screen_size_px: Vec2, viewport: (Vec2, Vec2)) {
        if self.fitted_for != Some((viewport, screen_size_px)) {
            self.fit(screen_size_px, viewport);
        }
    }

    /// Fits both views again at the next frame (F, View > Fit).
    pub fn refit(&mut self) {
        self.fitted_for = None;
    }

    /// Lays the views out and fits both cameras to their content.
    pub fn fit(&mut self, screen_size_px: Vec2, viewport: (Vec2, Vec2)) {
        self.layout = Layout::split(viewport, self.strip_rows());
        self.world_camera.screen_size_px = screen_size_px;
        self.minkowski_camera.screen_size_px = screen_size_px;
        let world = self.world_bounds();
        let r = self.layout.world;
        self.world_camera.fit_in(&world, r.min, r.max, 36.0);
        let mink = self.minkowski_bounds();
        let r = self.layout.minkowski;
        self.minkowski_camera.fit_in(&mink, r.min, r.max, 36.0);
        self.fitted_for = Some((viewport, screen_size_px));
    }

    /// Both shapes (with some room for the axis drawn beside them).
    pub fn world_bounds(&self) -> Aabb {
        let mut points = Vec::new();
        for owner in [Owner::A, Owner::B] {
            let shape = self.lesson.shape(owner);
            let pose = self.lesson.pose(owner);
            let local = shape.local_aabb();
            for c in [
                local.min,
                local.max,
                Vec2::new(local.min.x, local.max.y),
                Vec2::new(local.max.x, local.min.y),
            ] {
                points.push(pose.apply_point(c));
            }
        }
        let b = Aabb::from_points(&points);
        let pad = (b.max - b.min).max_element() * 0.14;
        Aabb::new(b.min - Vec2::splat(pad), b.max + Vec2::splat(pad))
    }

    /// A − B and the origin.
    pub fn minkowski_bounds(&self) -> Aabb {
        let mut points = vec![Vec2::ZERO];
        for piece in &self.minkowski.pieces {
            for v in &piece.vertices {
                points.push(v.point + Vec2::splat(piece.radius));
                points.push(v.point - Vec2::splat(piece.radius));
            }
        }
        let b = Aabb::from_points(&points);
        let pad = (b.max - b.min).max_element() * 0.12;
        Aabb::new(b.min - Vec2::splat(pad), b.max + Vec2::splat(pad))
    }

    /// Recomputes the trace after an edit (shapes, knobs or algorithm) and keeps the
    /// player's place where it can. This is the one place a lesson runs the narrow phase.
    pub fn recompute(&mut self) {
        // An open question's answer, and the quiz, were the old trace's.
        self.predict.pending = None;
        self.quiz = QuizState::default();
        let (contact, trace) = self.lesson.trace(self.algorithm);
        self.contact = contact;
        self.player.retrace(trace);
        self.minkowski = self.lesson.minkowski();
        self.exact = self.lesson.exact();
        let had_strip = self.has_strip;
        self.has_strip = self.trace_has_sat_axes();
        if had_strip != self.has_strip {
            self.fitted_for = None;
        }
        // Keep A − B in sight while the shapes are edited.
        if !self.minkowski_fits() {
            if let Some((viewport, screen)) = self.fitted_for {
                let mink = self.minkowski_bounds();
                let r = self.layout.minkowski;
                self.minkowski_camera.screen_size_px = screen;
                self.minkowski_camera.fit_in(&mink, r.min, r.max, 36.0);
                self.fitted_for = Some((viewport, screen));
            }
        }
        if self.hovered_minkowski.is_some_and(|h| {
            self.minkowski
                .pieces
                .get(h.piece)
                .is_none_or(|p| h.vertex >= p.vertices.len())
        }) {
            self.hovered_minkowski = None;
        }
    }

    fn minkowski_fits(&self) -> bool {
        let b = self.minkowski_bounds();
        let r = self.layout.minkowski;
        let (p, q) = (
            self.minkowski_camera.world_to_screen(b.min),
            self.minkowski_camera.world_to_screen(b.max),
        );
        r.contains(p) && r.contains(q)
    }

    /// Shows `algorithm`'s trace, keeping the place where it can.
    pub fn set_algorithm(&mut self, algorithm: Algorithm) {
        if self.algorithm != algorithm {
            self.algorithm = algorithm;
            self.recompute();
            self.fitted_for = None;
        }
    }

    /// Turns the knobs and recomputes.
    pub fn set_config(&mut self, config: NarrowConfig) {
        if *self.lesson.config() != config {
            self.lesson.set_config(config);
            self.recompute();
        }
    }

    /// Applies a preset (or the scene as written) and refits the views.
    pub fn set_preset(&mut self, preset: Option<usize>) -> Result<(), String> {
        self.lesson.set_preset(preset).map_err(|e| e.to_string())?;
        self.recompute();
        self.edited = true;
        self.fitted_for = None;
        Ok(())
    }

    /// The scene to save: the lesson's shapes and poses as edited, its block kept.
    pub fn scene_to_save(&self) -> SceneDef {
        self.lesson.to_scene_def()
    }
}

/// What a scripted render (`collision-lab render --lesson-step …`) shows of a lesson.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RenderLesson {
    /// The algorithm (None: the lesson's own).
    pub algorithm: Option<Algorithm>,
    /// The preset (None: the scene as written).
    pub preset: Option<usize>,
    /// The step shown (None: the first; past the end: the last).
    pub step: Option<usize>,
}

impl RenderLesson {
    /// Puts `mode` where the render asks.
    pub fn apply(&self, mode: &mut LessonMode) -> Result<(), String> {
        if let Some(a) = self.algorithm {
            mode.set_algorithm(a);
        }
        if self.preset.is_some() {
            mode.set_preset(self.preset)?;
            mode.edited = false;
        }
        if let Some(step) = self.step {
            mode.player.seek(step);
        }
        Ok(())
    }
}

/// Plays the lesson for one frame (the interactive window; a render keeps its step). In
/// predict mode, play stops before each step with a question and asks it.
pub fn advance_player(state: &mut crate::app::state::AppState, interactive: bool) {
    let Some(mode) = state.lesson.as_mut().filter(|_| interactive) else {
        return;
    };
    if let Some(prompt) = mode.hold_for_question() {
        state.set_status(format!("predict: {prompt}"));
        return;
    }
    mode.player.advance(macroquad::time::get_frame_time());
}

/// The labels of `views` as JSON: per view its rectangle `[x0, y0, x1, y1]` (px, y
/// down), the origin marker's box if it has one, each label's `text` and `rect`, and the
/// labels no free place was found for (`overlapping`).
pub fn labels_json(views: &[paint::PlacedLabels]) -> serde_json::Value {
    let rect = |min: Vec2, max: Vec2| serde_json::json!([min.x, min.y, max.x, max.y]);
    serde_json::Value::Array(
        views
            .iter()
            .map(|v| {
                serde_json::json!({
                    "view": rect(v.view.min, v.view.max),
                    "origin": v.origin.map(|o| rect(o.min, o.max)),
                    "labels": v.labels.iter().map(|(text, r)| serde_json::json!({
                        "text": text,
                        "rect": rect(r.min, r.max),
                    })).collect::<Vec<_>>(),
                    "overlapping": v.overlapping,
                })
            })
            .collect(),
    )
}

/// Draws the three views of the lesson (world, Minkowski, strip) in screen space.
pub fn draw(mode: &LessonMode) {
    paint::begin_frame();
    let state = mode.player.state();
    world_view::draw(mode, &state);
    minkowski_view::draw(mode, &state);
    if let Some(r) = mode.layout.strip {
        strip::draw(r, &state);
    }
    scissor(None);
}

/// Limits drawing to `rect` (logical px), or lifts the limit.
pub(crate) fn scissor(rect: Option<Rect>) {
    if !paint::live() {
        return;
    }
    match rect {
        Some(r) => svg::begin_clip(r),
        None => svg::end_clip(),
    }
    let dpi = macroquad::window::screen_dpi_scale();
    // SAFETY: macroquad's documented way to reach the batcher; called on the window's
    // thread between frames' drawing calls, as every other draw call.
    let mut gl = unsafe { macroquad::window::get_internal_gl() };
    gl.flush();
    gl.quad_gl.scissor(rect.map(|r| {
        (
            (r.min.x * dpi) as i32,
            (r.min.y * dpi) as i32,
            (r.size().x * dpi).ceil() as i32,
            (r.size().y * dpi).ceil() as i32,
        )
    }));
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use std::path::{Path, PathBuf};

    /// The narrow-phase lessons (1–10), which open in [`LessonMode`].
    pub(crate) fn lesson_paths() -> Vec<PathBuf> {
        all_lesson_paths()
            .into_iter()
            .filter(|p| {
                crate::scene::load(p)
                    .unwrap()
                    .def()
                    .lesson
                    .as_ref()
                    .unwrap()
                    .topic
                    .is_narrow()
            })
            .collect()
    }

    /// Every lesson scene, sorted.
    pub(crate) fn all_lesson_paths() -> Vec<PathBuf> {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/lessons");
        let mut all: Vec<PathBuf> = std::fs::read_dir(dir)
            .unwrap()
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|x| x == "ron"))
            .collect();
        all.sort();
        all
    }

    pub(crate) fn open(name: &str) -> LessonMode {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/lessons").join(name);
        let scene = crate::scene::load(path).unwrap();
        LessonMode::from_scene(&scene, Vec2::new(1400.0, 900.0)).unwrap()
    }

    #[test]
    fn every_lesson_opens_in_lesson_mode_in_the_app() {
        let paths = lesson_paths();
        assert_eq!(paths.len(), 10);
        for path in paths {
            let scene = crate::scene::load(&path).unwrap();
            let state = crate::app::state::AppState::new(&scene, Some(path.clone()), Vec2::new(1400.0, 900.0));
            let mode = state
                .lesson
                .as_ref()
                .unwrap_or_else(|| panic!("{} is a lesson", path.display()));
            assert!(!mode.player.is_empty(), "{}", path.display());
            assert_eq!(mode.player.cursor(), 0);
            assert!(!mode.minkowski.pieces.is_empty());
            let r = mode.layout;
            assert!(r.world.size().x > 100.0 && r.minkowski.size().x > 100.0);
        }
        let scene = crate::scene::parse(crate::app::DEFAULT_SCENE_RON, "default.ron").unwrap();
        let state = crate::app::state::AppState::new(&scene, None, Vec2::new(1400.0, 900.0));
        assert!(state.lesson.is_none(), "an ordinary scene opens the sandbox");
    }

    #[test]
    fn the_player_controls_drive_the_views_state() {
        let mut m = open("06_gjk.ron");
        let s0 = m.player.state();
        assert!(s0.gjk.is_none());
        assert!(m.player.next());
        m.player.last();
        let end = m.player.state();
        assert!(end.result.is_some(), "the last step shows the answer");
        assert!(end.gjk.is_some_and(|g| g.end.is_some()));
        m.player.prev();
        assert_eq!(m.player.state().index, end.index - 1);
        m.player.first();
        assert_eq!(m.player.state(), s0, "stepping back is exact");
    }

    #[test]
    fn changing_the_algorithm_or_the_knobs_recomputes_and_keeps_the_place() {
        let mut m = open("04_nonconvex_sat.ron");
        assert!(m.has_strip);
        m.player.seek(3);
        m.set_algorithm(Algorithm::SatDecomposed);
        assert_eq!(m.player.state().algorithm, Some(Algorithm::SatDecomposed));
        let mut m = open("06_gjk.ron");
        m.player.seek(2);
        let mut c = *m.lesson.config();
        c.gjk_max_iterations = 1;
        m.set_config(c);
        assert_eq!(m.lesson.config().gjk_max_iterations, 1);
        assert!(m.player.cursor() <= 2);
    }

    #[test]
    fn both_cameras_show_their_content_inside_their_view() {
        for path in lesson_paths() {
            let scene = crate::scene::load(&path).unwrap();
            let mut m = LessonMode::from_scene(&scene, Vec2::new(1400.0, 900.0)).unwrap();
            m.fit(
                Vec2::new(1400.0, 900.0),
                (Vec2::new(0.0, 24.0), Vec2::new(980.0, 876.0)),
            );
            for (cam, b, r) in [
                (m.world_camera, m.world_bounds(), m.layout.world),
                (m.minkowski_camera, m.minkowski_bounds(), m.layout.minkowski),
            ] {
                let lo = cam.world_to_screen(b.min);
                let hi = cam.world_to_screen(b.max);
                assert!(
                    r.contains(lo) && r.contains(hi),
                    "{}: {lo} {hi} in {r:?}",
                    path.display()
                );
            }
        }
    }
}
