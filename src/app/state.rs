//! The sandbox's state: the world and everything the user has chosen around it.
//!
//! The window loop, the panels and the tools change it; drawing only reads it.

use super::camera::Camera;
use super::debug_cache::DebugCache;
use super::flags::DebugFlags;
use super::history::{History, StepSample};
use super::stir::{Stir, STIR_AFTER_S};
use super::tools::{self, ToolState};
use super::undo::{self, BodyChange, Restore, UndoStack};
use crate::dynamics::{BodyHandle, FixedClock, StepReport, World, WorldSettings, DEFAULT_MAX_FRAME_SECONDS};
use crate::math::Vec2;
use crate::narrow::Algorithm;
use crate::scene::{Scene, SceneDef};
use std::path::PathBuf;

/// Pixels left around the scene when the view is fitted.
pub const FIT_MARGIN_PX: f32 = 40.0;

/// True when the world has dynamic bodies and every one of them sleeps (nothing is
/// tested, so the plots go flat). False for a world without dynamic bodies.
pub fn all_asleep(world: &World) -> bool {
    let mut dynamic = world.bodies().iter().filter(|(_, b)| b.is_dynamic()).peekable();
    dynamic.peek().is_some() && dynamic.all(|(_, b)| b.is_sleeping())
}

/// A message in the status bar: what just happened, or what went wrong.
#[derive(Clone, Debug, PartialEq)]
pub struct Status {
    /// The text.
    pub text: String,
    /// True for errors (drawn in red, kept until replaced).
    pub is_error: bool,
}

/// Everything the sandbox knows.
pub struct AppState {
    /// The simulation.
    pub world: World,
    /// The scene as loaded or last saved: what Reset returns to and what "unsaved
    /// changes" compares against.
    pub loaded: SceneDef,
    /// The world's handle of each body of `loaded`, by its index there: a save keeps
    /// the loaded file's lesson block with its body numbers following the bodies.
    pub loaded_handles: Vec<BodyHandle>,
    /// Where the scene came from (None: a built-in or a new scene).
    pub scene_path: Option<PathBuf>,
    /// Bodies were edited since the scene was loaded or saved.
    pub dirty: bool,
    /// The fixed-step clock (pause, single step, time scale, rate).
    pub clock: FixedClock,
    /// The view.
    pub camera: Camera,
    /// The selected body.
    pub selection: Option<BodyHandle>,
    /// The body under the cursor.
    pub hovered: Option<BodyHandle>,
    /// The active tool and what it is doing.
    pub tools: ToolState,
    /// Debug layers.
    pub debug: DebugFlags,
    /// Undo / redo.
    pub undo: UndoStack,
    /// Samples for the plots.
    pub history: History,
    /// The last step's report (profile, race).
    pub last_report: Option<StepReport>,
    /// The status bar.
    pub status: Option<Status>,
    /// The help overlay is open.
    pub show_help: bool,
    /// The side panels are hidden (Tab): the world gets the whole width.
    pub hide_side_panels: bool,
    /// The part of the window the panels leave free (px): where the view is fitted.
    pub viewport_px: (Vec2, Vec2),
    /// A right/middle drag began over the overlay (so it scrolls the panel, not the view).
    pub pan_started_in_ui: bool,
    /// What the debug layers read besides the world (focus pair trace, Voronoi pairs,
    /// tightness), refreshed once per frame by [`AppState::update_debug_cache`].
    pub debug_cache: DebugCache,
    /// Where the Minkowski layer's inset sits (dragged by its title).
    pub minkowski_inset: super::inset::MinkowskiInset,
    /// Lesson mode: set when the scene has a `lesson` block; time is frozen and the
    /// lesson player replaces the sandbox's tools and panels.
    pub lesson: Option<super::lesson::LessonMode>,
    /// Lesson mode for a lesson whose trace is not the narrow phase's (lessons 11 on:
    /// bounding volumes, sweep and prune, …); at most one of `lesson` and `topic` is set.
    pub topic: Option<super::lesson::topic_mode::TopicMode>,
    /// Slow mode (N): exactly one fixed step per frame while running, whatever the frame
    /// time, so a fast event (a projectile meeting a wall) can be watched step by step.
    pub one_step_per_frame: bool,
    /// "Stir when asleep": kicks a few bodies once the whole scene has slept a while.
    pub stir: Stir,
}

impl AppState {
    /// The sandbox on `scene`, loaded from `path`, for a window of `screen_size_px`; the
    /// view fits the scene.
    pub fn new(scene: &Scene, path: Option<PathBuf>, screen_size_px: Vec2) -> AppState {
        let world = World::from_scene(scene);
        let loaded_handles = world.bodies().iter().map(|(h, _)| h).collect();
        let mut clock = FixedClock::new(f64::from(scene.def().settings.rate));
        clock.resume();
        let mut state = AppState {
            world,
            loaded: scene.def().clone(),
            loaded_handles,
            scene_path: path,
            dirty: false,
            clock,
            camera: Camera::new(Vec2::ZERO, 40.0, screen_size_px),
            selection: None,
            hovered: None,
            tools: ToolState::default(),
            debug: DebugFlags::default(),
            undo: UndoStack::new(),
            history: History::default(),
            last_report: None,
            status: None,
            show_help: false,
            hide_side_panels: false,
            pan_started_in_ui: false,
            viewport_px: (Vec2::ZERO, screen_size_px),
            debug_cache: DebugCache::default(),
            minkowski_inset: Default::default(),
            lesson: super::lesson::LessonMode::from_scene(scene, screen_size_px),
            topic: super::lesson::topic_mode::TopicMode::from_scene(scene, screen_size_px),
            one_step_per_frame: false,
            stir: Stir::default(),
        };
        state.fit_view();
        state
    }

    /// Replaces the scene (after the user confirmed losing unsaved edits, if any): new
    /// world with the scene's own settings, history and undo cleared, view fitted.
    pub fn replace_scene(&mut self, scene: &Scene, path: Option<PathBuf>) {
        let screen = self.camera.screen_size_px;
        let debug = self.debug.clone();
        let viewport = self.viewport_px;
        let (one_step_per_frame, stir_enabled) = (self.one_step_per_frame, self.stir.enabled);
        *self = AppState::new(scene, path, screen);
        self.debug = debug;
        self.viewport_px = viewport;
        // How the user likes to watch is theirs, not the scene's.
        self.one_step_per_frame = one_step_per_frame;
        self.stir.enabled = stir_enabled;
        self.fit_view();
    }

    /// True in lesson mode, whatever the lesson's topic: the sandbox's tools, panels and
    /// clock are set aside.
    pub fn in_lesson(&self) -> bool {
        self.lesson.is_some() || self.topic.is_some()
    }

    /// A short name for the title and the status bar.
    pub fn scene_name(&self) -> String {
        self.scene_path.as_ref().and_then(|p| p.file_name()).map_or_else(
            || "default scene (built in)".to_string(),
            |n| n.to_string_lossy().into_owned(),
        )
    }

    /// Fits the view to the bodies worth seeing (F): every body near the scene.
    pub fn fit_view(&mut self) {
        if let Some(lesson) = self.lesson.as_mut() {
            lesson.refit();
        }
        if let Some(topic) = self.topic.as_mut() {
            topic.refit();
        }
        let boxes: Vec<_> = self.world.bodies().iter().map(|(_, body)| body.aabb()).collect();
        if let Some(b) = super::camera::worth_seeing(&boxes, self.world.scene_bounds()) {
            let (lo, hi) = self.viewport_px;
            self.camera.fit_in(&b, lo, hi, FIT_MARGIN_PX);
        }
    }

    /// Runs the steps the clock owes for a frame of `frame_s` seconds; returns how many.
    ///
    /// The steps stop when the clock's step budget is spent (the app may read the wall
    /// clock; the core's clock is told the elapsed time): the rest are dropped, the scene
    /// runs in slow motion, and the window stays responsive. In the one-step-per-frame
    /// mode a running clock gives exactly one step. Afterwards the stir looks at whether
    /// everything sleeps (see [`Stir`]).
    pub fn advance(&mut self, frame_s: f64) -> u32 {
        let run = if self.one_step_per_frame && !self.clock.is_paused() {
            self.step_once();
            1
        } else {
            let owed = self.clock.advance(frame_s);
            let start = std::time::Instant::now();
            let mut run = 0;
            while run < owed && self.clock.within_budget(run, start.elapsed().as_secs_f64()) {
                self.step_once();
                run += 1;
            }
            self.clock.drop_steps(owed, run);
            run
        };
        let running_s = if self.clock.is_paused() || !frame_s.is_finite() {
            0.0
        } else {
            frame_s.clamp(0.0, DEFAULT_MAX_FRAME_SECONDS)
        };
        if self.stir.update(all_asleep(&self.world), running_s) {
            self.stir_now();
        }
        run
    }

    /// Wakes a few dynamic bodies with the stir's kicks (not an edit: the simulation, not
    /// the user, moved them).
    pub fn stir_now(&mut self) {
        let dynamic: Vec<BodyHandle> = self
            .world
            .bodies()
            .iter()
            .filter(|(_, b)| b.is_dynamic())
            .map(|(h, _)| h)
            .collect();
        let kicks = self.stir.kicks(&dynamic);
        for kick in &kicks {
            self.world.wake(kick.body);
            if let Some(body) = self.world.body_mut(kick.body) {
                body.set_linear_velocity(kick.linear_velocity);
                body.set_angular_velocity(kick.angular_velocity);
            }
        }
        self.set_status(format!(
            "all asleep for {STIR_AFTER_S:.0} s: stirred {} bod{} (Simulation panel: stir when asleep)",
            kicks.len(),
            if kicks.len() == 1 { "y" } else { "ies" }
        ));
    }

    /// The slow-motion readout for the status bar, when the simulation cannot keep up
    /// with real time ("slow motion: 0.40× real time").
    pub fn slow_motion_text(&self) -> Option<String> {
        if self.one_step_per_frame && !self.clock.is_paused() {
            // The clock is not consulted in that mode (its ratio would be stale): one
            // step of dt per frame of the recent mean length.
            let frame_ms = self.history.recent_frame_mean().frame_ms;
            return Some(if frame_ms > 0.0 {
                format!(
                    "one step per frame (N): {:.2}× real time",
                    self.clock.dt_seconds() * 1e3 / frame_ms
                )
            } else {
                "one step per frame (N)".to_string()
            });
        }
        self.clock
            .is_slow_motion()
            .then(|| format!("slow motion: {:.2}× real time", self.clock.real_time_ratio()))
    }

    /// One fixed step: tools act (the mouse spring), the world steps, the plots sample.
    pub fn step_once(&mut self) {
        let dt = self.clock.dt_seconds_f32();
        tools::before_step(self, dt);
        let report = self.world.step(dt);
        if !report.removed.is_empty() {
            self.set_error(format!(
                "{} bod{} removed: {}",
                report.removed.len(),
                if report.removed.len() == 1 { "y" } else { "ies" },
                report
                    .removed
                    .iter()
                    .map(|r| format!("{} ({})", r.name.as_deref().unwrap_or("unnamed"), r.reason))
                    .collect::<Vec<_>>()
                    .join("; ")
            ));
        }
        let sample = StepSample::from_report(self.world.time(), self.world.settings().narrow_phase, &report);
        self.history.push_step(sample);
        self.last_report = Some(report);
        if self.selection.is_some_and(|h| !self.world.bodies().contains(h)) {
            self.selection = None;
        }
    }

    /// Refreshes what the debug layers read (the focus pair's trace, the Voronoi pairs,
    /// the tightness labels) for the world as it is now. Called once per frame after the
    /// steps, so that drawing only reads.
    pub fn update_debug_cache(&mut self) {
        let view = self.camera.visible_world();
        self.debug_cache
            .update(&self.world, self.selection, self.hovered, &self.debug, &view);
    }

    /// Switches the narrow phase live (keys 1/2/3 and the overlay), and wakes the scene:
    /// a sleeping pile is not tested at all, so the switch would show nothing on the
    /// per-algorithm plot (and the user pressed the key to see the difference).
    pub fn set_narrow_phase(&mut self, algorithm: Algorithm) {
        if self.world.settings().narrow_phase != algorithm {
            self.world.settings_mut().narrow_phase = algorithm;
            let asleep: Vec<BodyHandle> = self
                .world
                .bodies()
                .iter()
                .filter(|(_, b)| b.is_sleeping())
                .map(|(h, _)| h)
                .collect();
            for &handle in &asleep {
                self.world.wake(handle);
            }
            let woken = if asleep.is_empty() { "" } else { " (the scene is woken)" };
            self.set_status(format!("narrow phase: {}{woken}", algorithm.name()));
        }
    }

    /// Records `body` as it is now, so that the edit of it about to be made (over one
    /// gesture: a drag, a slider) can be undone, and marks the scene as edited. `restore`:
    /// whether undoing puts the body back where it is now (a move) or only its properties.
    pub fn begin_body_edit(&mut self, label: impl Into<String>, body: BodyHandle, restore: Restore) {
        let before = self.world.body(body).map(|b| b.to_def());
        self.undo.record(label, vec![BodyChange { body, before, restore }]);
        self.dirty = true;
    }

    /// Makes an undoable edit of the world, done at once by `f`: the entry holds the
    /// bodies `f` added, removed or changed, and nothing else.
    pub fn edit<R>(&mut self, label: impl Into<String>, f: impl FnOnce(&mut World) -> R) -> R {
        let before = undo::body_defs(&self.world);
        let result = f(&mut self.world);
        let changes = undo::diff(&before, &self.world);
        if !changes.is_empty() {
            self.undo.record(label, changes);
            self.dirty = true;
        }
        result
    }

    /// Undoes the last edit (Ctrl+Z): the bodies it touched go back, the others keep
    /// their simulated state.
    pub fn undo(&mut self) {
        match self.undo.undo(&mut self.world) {
            Some(label) => {
                self.after_undo_or_redo();
                self.set_status(format!("undid: {label}"));
            }
            None => self.set_status("nothing to undo"),
        }
    }

    /// Redoes the last undone edit (Ctrl+Shift+Z, Ctrl+Y).
    pub fn redo(&mut self) {
        match self.undo.redo(&mut self.world) {
            Some(label) => {
                self.after_undo_or_redo();
                self.set_status(format!("redid: {label}"));
            }
            None => self.set_status("nothing to redo"),
        }
    }

    fn after_undo_or_redo(&mut self) {
        self.dirty = true;
        self.selection = self.selection.filter(|h| self.world.bodies().contains(*h));
        // A body held across an undo would go on moving without an undo entry.
        self.tools.grab = None;
    }

    /// Reset (R): the bodies as loaded, the live settings kept (so a user comparing
    /// algorithms can reset and watch the same start with the other one). Undoable: the
    /// entry lists every body, those taken away and those put in.
    pub fn reset(&mut self) {
        let before = undo::body_defs(&self.world);
        let settings: WorldSettings = *self.world.settings();
        match Scene::from_def(self.loaded.clone()) {
            Ok(scene) => self.world = World::from_scene_with(&scene, settings),
            // The loaded scene was checked when it was opened.
            Err(e) => return self.set_error(format!("cannot reset: {e}")),
        }
        // The old world's handles are gone with it: every old body was removed, every
        // body now was added (in that order, so undo takes the new ones out first).
        let mut changes: Vec<BodyChange> = before
            .into_iter()
            .map(|(body, def)| BodyChange {
                body,
                before: Some(def),
                restore: Restore::Everything,
            })
            .collect();
        changes.extend(self.world.bodies().handles().into_iter().map(|body| BodyChange {
            body,
            before: None,
            restore: Restore::Everything,
        }));
        self.undo.record("reset", changes);
        self.after_undo_or_redo();
        // The bodies are the file's again.
        self.dirty = false;
        self.history.clear();
        self.set_status("reset to the loaded scene");
    }

    /// Shows `text` in the status bar.
    pub fn set_status(&mut self, text: impl Into<String>) {
        self.status = Some(Status {
            text: text.into(),
            is_error: false,
        });
    }

    /// Shows an error in the status bar.
    pub fn set_error(&mut self, text: impl Into<String>) {
        self.status = Some(Status {
            text: text.into(),
            is_error: true,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn state() -> AppState {
        let scene = crate::scene::parse(include_str!("../../scenes/default.ron"), "default.ron").unwrap();
        AppState::new(&scene, None, Vec2::new(1280.0, 800.0))
    }

    #[test]
    fn the_view_fits_the_scene_at_start() {
        let s = state();
        let v = s.camera.visible_world();
        for (_, b) in s.world.bodies().iter() {
            let a = b.aabb();
            assert!(v.min.x <= a.min.x && v.min.y <= a.min.y && v.max.x >= a.max.x && v.max.y >= a.max.y);
        }
    }

    #[test]
    fn the_clock_drives_the_steps() {
        let mut s = state();
        // Frames longer than the clock's clamp (0.25 s) count as the clamp.
        assert_eq!(s.advance(0.2), 12, "60 Hz scene, 0.2 s");
        assert_eq!(s.world.step_count(), 12);
        assert_eq!(s.history.steps.len(), 12);
        s.clock.pause();
        assert_eq!(s.advance(0.5), 0);
        s.clock.request_single_step();
        assert_eq!(s.advance(0.0), 1);
    }

    #[test]
    fn an_edit_is_undone_and_redone() {
        let mut s = state();
        let h = s.world.bodies().handles()[3];
        let before = s.world.body(h).unwrap().pose().translation;
        s.edit("move body 3", |w| {
            w.body_mut(h).unwrap().set_pose(Vec2::new(100.0, 100.0), 0.0)
        });
        assert!(s.dirty);
        s.undo();
        let back = s.world.bodies().iter().nth(3).unwrap().1.pose().translation;
        assert!((back - before).length() < 1e-6);
        s.redo();
        let again = s.world.bodies().iter().nth(3).unwrap().1.pose().translation;
        assert!((again - Vec2::new(100.0, 100.0)).length() < 1e-6);
    }

    #[test]
    fn switching_the_narrow_phase_wakes_a_sleeping_scene() {
        let mut s = state();
        for _ in 0..1200 {
            s.step_once(); // 20 s: long enough for the default scene to fall asleep
        }
        let sleeping = |s: &AppState| s.world.bodies().iter().filter(|(_, b)| b.is_sleeping()).count();
        assert!(sleeping(&s) > 0, "nothing fell asleep in 20 s");
        s.set_narrow_phase(Algorithm::GjkEpa);
        assert_eq!(sleeping(&s), 0, "the switch left bodies asleep");
    }

    /// The default scene falls asleep by itself (the scene is not changed for the
    /// sandbox); the app then stirs it after three seconds, unless told not to.
    #[test]
    fn a_sleeping_scene_is_stirred_after_three_seconds_unless_switched_off() {
        let frame_s = 1.0 / 60.0;
        let run_until_asleep = |s: &mut AppState| {
            for _ in 0..1800 {
                s.advance(frame_s);
                if s.stir.countdown_s().is_some() || (!s.stir.enabled && all_asleep(&s.world)) {
                    return;
                }
            }
            panic!("the default scene did not fall asleep in 30 s");
        };
        let mut s = state();
        run_until_asleep(&mut s);
        let mut frames = 0;
        while all_asleep(&s.world) {
            s.advance(frame_s);
            frames += 1;
            assert!(frames < 200, "no stir after {frames} frames asleep");
        }
        let asleep_s = f64::from(frames) * frame_s;
        assert!((asleep_s - STIR_AFTER_S).abs() < 0.1, "stirred after {asleep_s} s");
        assert!(
            s.world.bodies().iter().any(|(_, b)| b.linear_velocity().y > 1.0),
            "nothing was kicked up"
        );
        assert!(!s.dirty, "a stir is not an edit");

        let mut quiet = state();
        quiet.stir.enabled = false;
        run_until_asleep(&mut quiet);
        for _ in 0..600 {
            quiet.advance(frame_s);
        }
        assert!(all_asleep(&quiet.world), "stirring is off");
    }

    #[test]
    fn reset_returns_to_the_loaded_bodies_and_keeps_the_settings() {
        let mut s = state();
        let hash0 = s.world.state_hash();
        s.set_narrow_phase(Algorithm::GjkEpa);
        s.advance(1.0);
        assert_ne!(s.world.state_hash(), hash0);
        s.reset();
        assert_eq!(s.world.settings().narrow_phase, Algorithm::GjkEpa);
        assert_eq!(s.world.bodies().len(), s.loaded.bodies.len());
        s.undo();
        assert!(s.world.step_count() == 0, "undo restores bodies, not the step count");
    }
}
