//! How the window is asked to open: the sandbox or a scripted render, the scene, the
//! size, and what to print on exit.

use super::{flags, lesson};
use crate::scene::Scene;
use std::path::PathBuf;

/// Default window size (logical pixels).
pub const DEFAULT_WINDOW_SIZE: (i32, i32) = (1280, 800);

/// What the window is for: the interactive sandbox, or a scripted render.
#[derive(Clone, Debug)]
pub enum Mode {
    /// The sandbox, until the user closes it.
    Interactive,
    /// Run `frames` frames of `steps_per_frame` fixed steps each (not wall-clock time,
    /// so the picture is the same on every machine), save a screenshot to `out`, exit.
    Render(RenderOptions),
}

/// `collision-lab render …`.
#[derive(Clone, Debug)]
pub struct RenderOptions {
    /// Frames to run before the screenshot.
    pub frames: u32,
    /// Fixed steps per frame.
    pub steps_per_frame: u32,
    /// The PNG to write.
    pub out: PathBuf,
    /// Debug layers to draw.
    pub debug: flags::DebugFlags,
    /// Include the egui overlay in the picture.
    pub with_ui: bool,
    /// Print where the frames' time went (mean simulation / UI / drawing / frame) on exit.
    pub stats: bool,
    /// Lesson scenes: what the lesson player shows in the picture.
    pub lesson: lesson::RenderLesson,
    /// Lesson scenes: write the labels of the last frame here as JSON (each view's
    /// rectangle, each label's text and box as drawn with the real font).
    pub labels_out: Option<PathBuf>,
    /// Lesson scenes: write the question Next would ask in predict mode here as JSON,
    /// with its answers in screen pixels.
    pub predict_out: Option<PathBuf>,
    /// Lesson scenes: write the views of the last frame here as SVG.
    pub svg_out: Option<PathBuf>,
}

/// How to open the window.
#[derive(Clone, Debug)]
pub struct AppOptions {
    /// The scene and where it came from (None: the built-in default).
    pub scene: Scene,
    /// Its path, if it came from a file.
    pub path: Option<PathBuf>,
    /// Window size (logical px).
    pub window_size: (i32, i32),
    /// Interactive or render.
    pub mode: Mode,
    /// Shown in the status bar as the window opens (a scene named on the command line
    /// that did not load).
    pub startup_error: Option<String>,
    /// Interactive: close the window after this many seconds of wall time (scripts and
    /// tests), without asking about unsaved edits.
    pub exit_after_s: Option<f64>,
    /// Interactive: print one JSON line of frame statistics on stdout when the window
    /// closes (see [`super::frame_stats`]).
    pub frame_stats: bool,
}
