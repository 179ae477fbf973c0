//! Command-line parsing (clap) and the dispatch to each command.
//!
//! Exit status: 0 on success (help included), 1 on any error, the message on stderr.
//! A closed stdout (`collision-lab contacts … | head`) is not an error.

mod bench;
mod contacts;
mod run;
#[cfg(feature = "sandbox")]
mod window;

use clap::builder::{PossibleValuesParser, TypedValueParser};
#[cfg(not(feature = "sandbox"))]
use clap::CommandFactory;
use clap::{Parser, Subcommand};
use collision_lab::scene::SceneError;
use std::process::ExitCode;

/// A 2D physics sandbox and a laboratory for collision-detection algorithms.
#[derive(Debug, Parser)]
#[command(
    name = "collision-lab",
    version,
    long_about = "Collision Lab: a 2D physics sandbox and a laboratory for collision-detection \
algorithms (NonConvexSat, SatDecomposed, GjkEpa).\n\n\
Run without a command (or with only a scene file), Collision Lab opens the interactive \
sandbox window.",
    args_conflicts_with_subcommands = true,
    after_help = "Examples:\n  collision-lab                       (the sandbox on the default scene)\n  \
collision-lab scenes/pool.ron\n  \
collision-lab render scenes/default.ron --frames 120 --out shot.png --debug contacts,aabb\n  \
collision-lab contacts scenes/convex_pairs.ron --algorithm GjkEpa\n  \
collision-lab run scenes/default.ron --steps 600 --race\n  \
collision-lab bench --quick --out-dir bench"
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    /// A scene to open in the sandbox (same as `collision-lab open SCENE`).
    scene: Option<std::path::PathBuf>,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Test every pair of a scene's bodies at their initial poses and print the contacts
    Contacts(contacts::ContactsArgs),
    /// Simulate a scene headless and print the time per phase, the work counters and the
    /// final state hash
    Run(run::RunArgs),
    /// Open the sandbox window on a scene (the default scene without one)
    #[cfg(feature = "sandbox")]
    Open(window::OpenArgs),
    /// Open the window, run a scene for some frames, save a screenshot (PNG) and exit
    #[cfg(feature = "sandbox")]
    Render(window::RenderArgs),
    /// Reproduce Fayzrakhmanov et al.'s (2015) Fig. 3 (NonConvexSat against SAT and GJK/EPA over a convex
    /// decomposition, and parry2d) on shape families at fixed distances, with accuracy
    /// against an exact oracle; Markdown on stdout, CSV and SVG files
    Bench(bench::BenchArgs),
}

/// Why a command failed.
#[derive(Debug, thiserror::Error)]
enum CliError {
    /// The scene file is unreadable or invalid; its message carries file:line:column.
    /// (Boxed: a scene error is large and would make every result carry its size.)
    #[error("{0}")]
    Scene(Box<SceneError>),
    /// Writing the output failed.
    #[error("cannot write the output: {0}")]
    Output(#[from] std::io::Error),
    /// The window could not do what was asked (a render not written, a bad option).
    #[cfg_attr(not(feature = "sandbox"), allow(dead_code))]
    #[error("{0}")]
    Window(String),
    /// The benchmark could not build a shape or draw a chart.
    #[error("bench: {0}")]
    Bench(String),
}

impl From<SceneError> for CliError {
    fn from(e: SceneError) -> Self {
        CliError::Scene(Box::new(e))
    }
}

/// Parses the arguments, runs the command and turns the outcome into an exit status.
pub fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            // Help and version go to stdout with status 0; usage errors to stderr with 1.
            let _ = e.print();
            return if e.use_stderr() {
                ExitCode::FAILURE
            } else {
                ExitCode::SUCCESS
            };
        }
    };
    // A bare word that is neither a file nor a `.ron` path is a mistyped command, not a
    // scene to look for: say so instead of opening the sandbox on the default scene.
    if let (None, Some(word)) = (&cli.command, &cli.scene) {
        if !word.exists() && word.extension().is_none() && word.components().count() == 1 {
            eprintln!(
                "error: `{}` is neither a command nor a scene file (commands: open, render, contacts, run, bench; see `collision-lab --help`)",
                word.display()
            );
            return ExitCode::FAILURE;
        }
    }
    let result = match cli.command {
        #[cfg(feature = "sandbox")]
        None => window::open(&window::OpenArgs {
            scene: cli.scene,
            exit_after: None,
            frame_stats: false,
        }),
        #[cfg(not(feature = "sandbox"))]
        None => {
            let _ = cli.scene;
            Cli::command().print_long_help().map_err(CliError::from)
        }
        #[cfg(feature = "sandbox")]
        Some(Command::Open(args)) => window::open(&args),
        #[cfg(feature = "sandbox")]
        Some(Command::Render(args)) => window::render(&args),
        Some(Command::Contacts(args)) => contacts::run(&args),
        Some(Command::Run(args)) => run::run(&args),
        Some(Command::Bench(args)) => bench::run(&args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(CliError::Output(e)) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

/// A clap value parser for one of a fixed set of names (listed in `--help` and in the
/// error for a wrong value), turned into the type they name.
fn named_choice<T, const N: usize>(names: [&'static str; N]) -> impl TypedValueParser<Value = T>
where
    T: std::str::FromStr<Err = String> + Clone + Send + Sync + 'static,
{
    PossibleValuesParser::new(names).try_map(|name| name.parse::<T>())
}

/// Prints to stderr, `when` (e.g. "at the start"), the bodies that lie outside the narrow
/// phase's precision range (`narrow::precision`): their contacts may be wrong, and the
/// user should hear so instead of reading a confident answer. At most three are named;
/// the rest are counted. Returns how many there were.
fn warn_outside_precision_range<'s>(
    when: &str,
    bodies: impl Iterator<
        Item = (
            usize,
            Option<&'s str>,
            &'s collision_lab::geometry::Shape,
            collision_lab::math::Pose,
        ),
    >,
) -> usize {
    const NAMED: usize = 3;
    let mut count = 0;
    for (index, name, shape, pose) in bodies {
        let Some(beyond) = collision_lab::narrow::precision::check_range(shape, &pose) else {
            continue;
        };
        if count < NAMED {
            let name = name.map(|n| format!(" (\"{n}\")")).unwrap_or_default();
            eprintln!("warning: {when}, body {index}{name}: {beyond}");
        }
        count += 1;
    }
    if count > NAMED {
        eprintln!(
            "warning: {when}, {} more bodies lie outside the precision range",
            count - NAMED
        );
    }
    count
}

/// [`warn_outside_precision_range`] over a scene's bodies at their poses in the file.
fn warn_scene_outside_precision_range(when: &str, scene: &collision_lab::scene::Scene) -> usize {
    let shapes = scene.shapes();
    warn_outside_precision_range(
        when,
        scene
            .def()
            .bodies
            .iter()
            .enumerate()
            .map(|(i, b)| (i, b.name.as_deref(), &shapes[i], b.pose())),
    )
}
