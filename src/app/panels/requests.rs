//! What the panels ask for: a frame's layout reads the state and records requests;
//! [`UiRequests::apply`] carries them out once the layout is done.
//!
//! Why: when a panel changed the state while it was being laid out, the panels after
//! it drew another state than the ones before it (the inspector showed a body the
//! simulation panel had just reset), and every panel could reach every field. Now a
//! panel owns its own state (dialogs, coalescers, sliders' sizes) and reads the rest;
//! the only way it changes the world, the clock, the tools or the view is a
//! [`Request`], applied in the order the panels made them. This is how the windows of
//! egui's own demo are built: each owns its state and reports what it wants.

use super::super::files::{self, Pending};
use super::super::flags::DebugFlags;
use super::super::shapes::ShapeParams;
use super::super::state::AppState;
use super::super::tools::{edit, set_mode, Mode};
use super::super::undo::Restore;
use super::Panels;
use crate::dynamics::{BodyHandle, WorldSettings};
use crate::math::Vec2;
use crate::narrow::Algorithm;
use crate::scene::BodyDef;
use std::path::PathBuf;

/// One thing a panel asks for.
#[derive(Clone, Debug, PartialEq)]
pub enum Request {
    /// Edit > Undo, Edit > Redo.
    Undo,
    /// See [`Request::Undo`].
    Redo,
    /// View > Fit the scene.
    FitView,
    /// View > Hide (or show) the side panels.
    ToggleSidePanels,
    /// Show or hide the help window.
    ShowHelp(bool),
    /// The narrow phase (wakes a sleeping scene and says so: [`AppState::set_narrow_phase`]).
    NarrowPhase(Algorithm),
    /// Every other setting of the world; its narrow phase and race flag are ignored
    /// (they have requests of their own, with side effects).
    Settings(WorldSettings),
    /// Switch race mode on or off (its counters start again).
    Race(bool),
    /// Start the race counters again.
    ResetRaceCounters,
    /// The clock: run/pause, one step, reset the scene, time scale, rate (Hz).
    TogglePause,
    /// See [`Request::TogglePause`].
    SingleStep,
    /// See [`Request::TogglePause`].
    Reset,
    /// See [`Request::TogglePause`].
    TimeScale(f64),
    /// See [`Request::TogglePause`].
    Rate(f64),
    /// "Stir when asleep".
    Stir(bool),
    /// "One step per frame" (N).
    OneStepPerFrame(bool),
    /// The debug drawing toggles.
    Debug(DebugFlags),
    /// The tool of the left mouse button.
    Mode(Mode),
    /// A palette item is being dragged into the world (the tools finish the drop).
    PaletteDrag(ShapeParams),
    /// The inspector starts an undo entry for `body` (its state now is what undo puts
    /// back).
    BeginBodyEdit {
        /// What the entry says ("friction of 'box 1'").
        label: String,
        /// The body edited.
        body: BodyHandle,
        /// Whether undo puts the motion back too.
        restore: Restore,
    },
    /// Rebuild `body` from a definition (the inspector's edit).
    RebuildBody(BodyHandle, BodyDef),
    /// Delete or duplicate a body.
    DeleteBody(BodyHandle),
    /// See [`Request::DeleteBody`].
    DuplicateBody(BodyHandle),
    /// Open a scene, asking first about unsaved edits.
    Open(PathBuf),
    /// Save to the scene's file (or ask where).
    Save,
    /// Save under this name.
    SaveTo(PathBuf),
    /// "Unsaved edits": save first, then go on if the save worked.
    SaveThen(Pending),
    /// "Unsaved edits": discard them and go on.
    Discard(Pending),
    /// Leave lesson mode for the sandbox.
    ExitLesson,
    /// The lesson's shapes were edited: the scene has unsaved edits.
    MarkEdited,
    /// A message for the status bar (`Err`: an error).
    Status(Result<String, String>),
    /// The part of the window the panels left free for the world (px, min and max).
    Viewport(Vec2, Vec2),
}

/// What the panels asked for in one frame.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct UiRequests {
    /// Save a screenshot of this frame (the frame takes it at its end).
    pub screenshot: bool,
    /// The rest, in the order they were made.
    pub requests: Vec<Request>,
}

impl UiRequests {
    /// Records a request.
    pub fn push(&mut self, request: Request) {
        self.requests.push(request);
    }

    /// Records `request` when `new` differs from `old` (a widget edited a copy).
    pub fn if_changed<T: PartialEq>(&mut self, old: &T, new: T, request: impl FnOnce(T) -> Request) {
        if *old != new {
            self.requests.push(request(new));
        }
    }

    /// Carries out the requests, in order, once every panel has been laid out.
    pub fn apply(&self, state: &mut AppState, panels: &mut Panels) {
        for request in &self.requests {
            apply_one(request, state, panels);
        }
    }
}

fn apply_one(request: &Request, state: &mut AppState, panels: &mut Panels) {
    match request {
        Request::Undo => state.undo(),
        Request::Redo => state.redo(),
        Request::FitView => state.fit_view(),
        Request::ToggleSidePanels => state.hide_side_panels = !state.hide_side_panels,
        Request::ShowHelp(show) => state.show_help = *show,
        Request::NarrowPhase(algorithm) => state.set_narrow_phase(*algorithm),
        Request::Settings(new) => {
            let settings = state.world.settings_mut();
            let (narrow_phase, race) = (settings.narrow_phase, settings.race);
            *settings = WorldSettings {
                narrow_phase,
                race,
                ..*new
            };
        }
        Request::Race(race) => {
            state.world.settings_mut().race = *race;
            state.history.reset_race_counters();
        }
        Request::ResetRaceCounters => state.history.reset_race_counters(),
        Request::TogglePause => state.clock.toggle_pause(),
        Request::SingleStep => {
            state.clock.pause();
            state.clock.request_single_step();
        }
        Request::Reset => state.reset(),
        Request::TimeScale(scale) => {
            state.clock.set_time_scale(*scale);
        }
        Request::Rate(rate) => {
            state.clock.set_rate(*rate);
        }
        Request::Stir(on) => state.stir.enabled = *on,
        Request::OneStepPerFrame(on) => state.one_step_per_frame = *on,
        Request::Debug(flags) => state.debug = flags.clone(),
        Request::Mode(mode) => set_mode(state, mode.clone()),
        Request::PaletteDrag(params) => {
            if !state.tools.busy() {
                state.tools.palette_drag = Some(*params);
            }
        }
        Request::BeginBodyEdit { label, body, restore } => state.begin_body_edit(label.clone(), *body, *restore),
        Request::RebuildBody(body, def) => {
            if let Err(e) = edit::rebuild_body(state, *body, def) {
                state.set_error(format!("cannot apply: {e}"));
            }
        }
        Request::DeleteBody(body) => edit::delete_body(state, *body),
        Request::DuplicateBody(body) => {
            edit::duplicate_body(state, *body);
        }
        Request::Open(path) => panels.files.open(state, path),
        Request::Save => panels.files.save(state),
        Request::SaveTo(path) => {
            let _ = files::save_to(state, &mut panels.files.recent, path);
        }
        Request::SaveThen(pending) => {
            panels.files.save(state);
            if !state.dirty {
                panels.files.resolve(state, pending);
            }
        }
        Request::Discard(pending) => panels.files.resolve(state, pending),
        Request::ExitLesson => super::super::lesson::panel::exit_lesson(state),
        Request::MarkEdited => state.dirty = true,
        Request::Status(Ok(text)) => state.set_status(text.clone()),
        Request::Status(Err(text)) => state.set_error(text.clone()),
        Request::Viewport(min, max) => state.viewport_px = (*min, *max),
    }
}
