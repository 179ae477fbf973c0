//! `collision-lab [open] [SCENE]` and `collision-lab render`: the commands that open
//! the sandbox window.

use super::CliError;
use clap::Args;
use collision_lab::app::{self, flags::DebugFlags, AppOptions, Mode, RenderOptions};
use collision_lab::scene;
use std::path::PathBuf;

/// `collision-lab open SCENE`.
#[derive(Debug, Args)]
pub struct OpenArgs {
    /// The scene to open (RON); without it, the built-in default scene. A file that does
    /// not load is reported (here and in the window), and the default scene opens.
    pub scene: Option<PathBuf>,
    /// Close the window after this many seconds (wall time), without asking about
    /// unsaved edits: for scripts and tests.
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds)]
    pub exit_after: Option<f64>,
    /// On exit, print one JSON line on stdout:
    /// {"frames":N,"mean_ms":…,"p95_ms":…,"max_ms":…,"sim_ratio":…} (sim_ratio: simulated
    /// time / real time).
    #[arg(long)]
    pub frame_stats: bool,
}

fn parse_seconds(text: &str) -> Result<f64, String> {
    text.parse::<f64>()
        .ok()
        .filter(|s| s.is_finite() && *s >= 0.0)
        .ok_or_else(|| format!("`{text}` is not a number of seconds (0 or more)"))
}

/// `collision-lab render SCENE --frames N --out shot.png`.
#[derive(Debug, Args)]
pub struct RenderArgs {
    /// The scene to render (RON).
    pub scene: PathBuf,
    /// Frames to run before the picture is taken (frame 0 is the scene as loaded).
    #[arg(long, default_value_t = 60)]
    pub frames: u32,
    /// Fixed simulation steps per frame (0 keeps the scene still).
    #[arg(long, default_value_t = 1)]
    pub steps_per_frame: u32,
    /// The PNG to write.
    #[arg(long, default_value = "shot.png")]
    pub out: PathBuf,
    /// Debug layers, comma separated: axes, contacts, mtv, voronoi, bounds (= aabb),
    /// circle, obb, kdop, pieces, broad, velocities, centers, minkowski.
    #[arg(long, default_value = "")]
    pub debug: String,
    /// Include the overlay panels in the picture.
    #[arg(long)]
    pub ui: bool,
    /// Print where the frame time went (simulation, UI, drawing, whole frame; means
    /// after a few warm-up frames) when done.
    #[arg(long)]
    pub stats: bool,
    /// Lesson scenes: also write the labels of the picture as JSON (each view's
    /// rectangle; each label's text and box as drawn)
    #[arg(long, value_name = "OUT.json")]
    pub labels: Option<PathBuf>,
    /// Lesson scenes: also write the question predict mode would ask next (its step,
    /// view, prompt, and its answers in screen pixels) as JSON
    #[arg(long, value_name = "OUT.json")]
    pub predict: Option<PathBuf>,
    /// Lesson scenes: also write the lesson's views as SVG (vector, for slides)
    #[arg(long, value_name = "OUT.svg")]
    pub svg: Option<PathBuf>,
    /// Lesson scenes: the step to show (0 is the first; `last` the answer).
    #[arg(long, value_parser = parse_step)]
    pub lesson_step: Option<usize>,
    /// Lesson scenes: the preset to apply (0 is the first in the file).
    #[arg(long)]
    pub lesson_preset: Option<usize>,
    /// Lesson scenes: the algorithm to show (NonConvexSat, SatDecomposed, GjkEpa).
    #[arg(long)]
    pub lesson_algorithm: Option<collision_lab::narrow::Algorithm>,
    /// Window size in logical pixels, WIDTHxHEIGHT.
    #[arg(long, default_value = "1280x800", value_parser = parse_size)]
    pub size: (i32, i32),
}

fn parse_step(text: &str) -> Result<usize, String> {
    if text.eq_ignore_ascii_case("last") {
        return Ok(usize::MAX);
    }
    text.parse()
        .map_err(|_| format!("`{text}` is not a step number or `last`"))
}

fn parse_size(text: &str) -> Result<(i32, i32), String> {
    let (w, h) = text
        .split_once(['x', 'X'])
        .ok_or_else(|| format!("`{text}` is not WIDTHxHEIGHT"))?;
    let parse = |s: &str| {
        s.trim()
            .parse::<i32>()
            .ok()
            .filter(|v| (64..=8192).contains(v))
            .ok_or_else(|| format!("`{s}` is not a size between 64 and 8192 pixels"))
    };
    Ok((parse(w)?, parse(h)?))
}

/// Opens the sandbox on `args.scene` (the default scene when None, or when the file does
/// not load: then the error goes to stderr and to the window's status bar).
pub fn open(args: &OpenArgs) -> Result<(), CliError> {
    let start = app::files::startup_scene(args.scene.as_deref()).map_err(CliError::Scene)?;
    if let Some(error) = &start.error {
        eprintln!("error: {error} (opening the default scene instead)");
    }
    app::run(AppOptions {
        scene: start.scene,
        path: start.path,
        window_size: app::DEFAULT_WINDOW_SIZE,
        mode: Mode::Interactive,
        startup_error: start.error,
        exit_after_s: args.exit_after,
        frame_stats: args.frame_stats,
    })
    .map_err(CliError::Window)
}

/// Renders a scene to a PNG.
pub fn render(args: &RenderArgs) -> Result<(), CliError> {
    let debug = DebugFlags::parse_list(&args.debug).map_err(CliError::Window)?;
    let (scene, path) = (scene::load(&args.scene)?, Some(args.scene.clone()));
    app::run(AppOptions {
        scene,
        path,
        window_size: args.size,
        mode: Mode::Render(RenderOptions {
            frames: args.frames,
            steps_per_frame: args.steps_per_frame,
            out: args.out.clone(),
            debug,
            with_ui: args.ui,
            stats: args.stats,
            lesson: app::lesson::RenderLesson {
                algorithm: args.lesson_algorithm,
                preset: args.lesson_preset,
                step: args.lesson_step,
            },
            labels_out: args.labels.clone(),
            predict_out: args.predict.clone(),
            svg_out: args.svg.clone(),
        }),
        startup_error: None,
        exit_after_s: None,
        frame_stats: false,
    })
    .map_err(CliError::Window)?;
    println!("wrote {}", args.out.display());
    Ok(())
}
