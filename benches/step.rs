//! Speed, side by side: one `World::step` of Collision Lab against one step of rapier2d
//! on the same scenes, from one run, printed as a Markdown table.
//!
//! ```text
//! cargo bench --bench step                  all four scenes (about 15 s once built)
//! cargo bench --bench step -- pyramid_20    only the scenes whose name contains a filter
//! cargo bench --bench step -- --quick       10 warm-up and 20 timed steps per run
//! cargo bench --bench step -- --rounds      also each round's ratio to rapier2d, in order
//! ```
//!
//! For each scene (`scenes/pyramid_20.ron`, `pyramid_40`, `pyramid_100`, `rain_1000`):
//! 1. Collision Lab is built from the scene file ([`World::from_scene_with`]) under four
//!    settings — narrow phase NonConvexSat (the default) or SatDecomposed, resolution
//!    Impulses or Projection, broad phase DynamicAabbTree (the default) — everything
//!    else at its default;
//! 2. rapier2d is built from the same [`SceneDef`]: same shapes (axis-aligned boxes as
//!    cuboids, as a rapier user would write them; other convex polygons as convex
//!    polylines), densities, friction (combined by geometric mean, as ours), restitution
//!    (combined by max), gravity;
//! 3. every world takes `warm_up` steps of 1/60 s untimed, then `timed` steps, each
//!    timed alone with `Instant`, the six worlds taking turns ten steps at a time
//!    ([`run_scene`]); we print mean and median ms per step, and each of ours against
//!    rapier2d as the median over the rounds of the two engines' times in one round.
//!
//! Both engines run on one thread (rapier2d's `parallel` feature is off; Collision Lab,
//! whose narrow phase uses rayon's threads on big steps, runs inside a one-thread rayon
//! pool; `--threads N` gives it N), with sleeping off (rapier: `can_sleep(false)`; ours:
//! `WorldSettings::sleeping = false`) and continuous collision detection off (rapier:
//! `max_ccd_substeps = 0`; ours: `ContinuousMode::Off`).
//!
//! Substeps, the parameter mapping. Since 0.20, rapier's solver is a soft-step TGS
//! solver: `IntegrationParameters::num_solver_iterations` is the number of *substeps*
//! (`dt` is divided by it: `params.dt /= num_solver_iterations` in its island solver);
//! each substep integrates gravity, runs `num_internal_pgs_iterations` biased velocity
//! passes, integrates positions, then runs `num_internal_stabilization_iterations`
//! unbiased ("relax") passes. Collision detection runs once per step; the substeps reuse
//! its contacts. Collision Lab does the same (detection once per step, contacts moved
//! with the bodies in each substep; a pair whose bodies have not moved against each
//! other keeps its contact without being tested, as Bullet's and PhysX's caches do), and
//! solves with `velocity_iterations` (1 by default) biased and `relax_iterations` (1)
//! relax passes per substep. So:
//!
//! | Collision Lab             | rapier2d                                   |
//! |---------------------------|--------------------------------------------|
//! | `substeps = 4`            | `num_solver_iterations = 4` (its default)  |
//! | `velocity_iterations = 1` | `num_internal_pgs_iterations = 1` (default)|
//! | `relax_iterations = 1`    | `num_internal_stabilization_iterations = 1`|
//! | detection once per step   | detection once per step                    |
//!
//! The headline compares both at their defaults with 4 substeps. A second rapier2d run
//! with our counts of internal passes shows how much of a gap is the amount of solver
//! work rather than how fast it is done; with both at 1 + 1 (our default since the
//! impulse solver was measured to hold the 5050-box pyramid with one biased pass, as
//! Box2D v3's soft step does), it is a second measurement of the same thing, which shows
//! how much a shared machine moves the numbers.
//!
//! The sanity line per run: the height of the scene's last body (the pyramid's top box)
//! at the start and the end, how far it moved sideways and its speed at the end, and how
//! many dynamic bodies are still above the first static body (the ground or the
//! container's floor).

use collision_lab::broad::BroadPhaseKind;
use collision_lab::dynamics::{ContinuousMode, Resolution, StepProfile, World, WorldSettings};
use collision_lab::narrow::Algorithm;
use collision_lab::scene::{self, BodyKind, Scene, SceneDef, ShapeDef};
use std::time::{Duration, Instant};

/// One step of simulated time (s): 60 Hz.
const DT: f32 = 1.0 / 60.0;
/// Substeps per step, in both engines.
const SUBSTEPS: u32 = 4;
/// The rapier2d version in `Cargo.toml` (for the table's header).
const RAPIER: &str = "rapier2d 0.36";

/// A scene to run and how many steps to take on it.
#[derive(Clone, Copy, Debug)]
struct Case {
    file: &'static str,
    warm_up: usize,
    timed: usize,
}

/// 30 warm-up steps (0.5 s) then 120 timed (2 s) steps. The rain is timed for 240 steps
/// (4 s), long enough for its top row (41 m up) to land: the window covers the fall, the
/// impacts and the pile settling. The whole bench takes about 15 s on 2 cores
/// (2026-11-28), most of it on the 5050-box pyramid.
const CASES: [Case; 4] = [
    Case {
        file: "scenes/pyramid_20.ron",
        warm_up: 30,
        timed: 120,
    },
    Case {
        file: "scenes/pyramid_40.ron",
        warm_up: 30,
        timed: 120,
    },
    Case {
        file: "scenes/pyramid_100.ron",
        warm_up: 30,
        timed: 120,
    },
    Case {
        file: "scenes/rain_1000.ron",
        warm_up: 30,
        timed: 240,
    },
];

/// Collision Lab settings tried on every scene: both resolutions that stack, with the
/// default narrow phase and with SatDecomposed, on the default broad phase.
const LAB_CONFIGS: [(Algorithm, BroadPhaseKind, Resolution); 4] = [
    (
        Algorithm::NonConvexSat,
        BroadPhaseKind::DynamicAabbTree,
        Resolution::Impulses,
    ),
    (
        Algorithm::NonConvexSat,
        BroadPhaseKind::DynamicAabbTree,
        Resolution::Projection,
    ),
    (
        Algorithm::SatDecomposed,
        BroadPhaseKind::DynamicAabbTree,
        Resolution::Impulses,
    ),
    (
        Algorithm::SatDecomposed,
        BroadPhaseKind::DynamicAabbTree,
        Resolution::Projection,
    ),
];

/// Mean and median of per-step wall times.
#[derive(Clone, Copy, Debug)]
struct Timing {
    mean_ms: f64,
    median_ms: f64,
}

impl Timing {
    fn of(samples: &[Duration]) -> Timing {
        let mut samples = samples.to_vec();
        samples.sort_unstable();
        let ms = |d: Duration| d.as_secs_f64() * 1e3;
        let n = samples.len().max(1);
        let mean_ms = samples.iter().map(|&d| ms(d)).sum::<f64>() / n as f64;
        let median_ms = match samples.len() {
            0 => 0.0,
            len if len % 2 == 1 => ms(samples[len / 2]),
            len => 0.5 * (ms(samples[len / 2 - 1]) + ms(samples[len / 2])),
        };
        Timing { mean_ms, median_ms }
    }
}

/// Did the scene hold together: height of the last body, and bodies still above ground.
#[derive(Clone, Copy, Debug)]
struct Sanity {
    top_start_y: f32,
    top_end_y: f32,
    /// How far the last body moved sideways (m), and its speed at the end (m/s): a top
    /// box can slide off a swaying pyramid while its height still says "stood".
    top_shift_x: f32,
    top_end_speed: f32,
    /// Dynamic bodies whose centre is above the bottom of the first static body.
    kept: usize,
    dynamic: usize,
}

impl Sanity {
    fn describe(&self) -> String {
        let drop = self.top_start_y - self.top_end_y;
        // A resting stack sinks by the overlap each contact is allowed (Collision Lab's
        // `slop`, 5 mm a contact, so ~0.5 m over 100 rows); a collapse drops it by metres.
        let tolerance = (0.02 * self.top_start_y.abs()).max(0.1);
        let verdict = if drop.abs() < tolerance {
            "stood"
        } else if drop > 0.0 {
            "fell"
        } else {
            "rose"
        };
        format!(
            "last body y {:.3} -> {:.3} m ({verdict}, moved {:+.3} m), x moved {:+.3} m, {:.3} m/s at the end; \
             {} of {} dynamic bodies above the ground",
            self.top_start_y, self.top_end_y, -drop, self.top_shift_x, self.top_end_speed, self.kept, self.dynamic
        )
    }
}

/// Where the scene's ground is: the bottom of its first static body's shape (world y).
fn ground_floor_y(def: &SceneDef) -> f32 {
    def.bodies
        .iter()
        .find(|b| b.kind == BodyKind::Static)
        .map(|b| match &b.shape {
            ShapeDef::Polygon { points } => b.position.1 + points.iter().map(|p| p.1).fold(f32::INFINITY, f32::min),
            ShapeDef::Circle { radius } => b.position.1 - radius,
            ShapeDef::Segment { a, b: end } => b.position.1 + a.1.min(end.1),
        })
        .unwrap_or(f32::NEG_INFINITY)
}

/// One Collision Lab world under one setting, stepped in turn with the others.
struct LabRun {
    narrow: Algorithm,
    broad: BroadPhaseKind,
    resolution: Resolution,
    world: World,
    /// Each timed step's wall time, in the order taken.
    samples: Vec<Duration>,
    /// Profile summed over the timed steps.
    profile: StepProfile,
    removed: usize,
}

impl LabRun {
    fn new(scene: &Scene, (narrow, broad, resolution): (Algorithm, BroadPhaseKind, Resolution)) -> LabRun {
        let def = scene.def();
        let settings = WorldSettings {
            gravity: def.gravity.into(),
            narrow_phase: narrow,
            broad_phase: broad,
            resolution,
            substeps: SUBSTEPS,
            // Same work as rapier2d's side: nothing sleeps, no continuous detection.
            sleeping: false,
            continuous: ContinuousMode::Off,
            ..WorldSettings::default()
        };
        LabRun {
            narrow,
            broad,
            resolution,
            world: World::from_scene_with(scene, settings),
            samples: Vec::new(),
            profile: StepProfile::default(),
            removed: 0,
        }
    }

    /// One step; its time and profile are kept when `timed`.
    fn step(&mut self, timed: bool) {
        let start = Instant::now();
        let report = self.world.step(DT);
        let elapsed = start.elapsed();
        self.removed += report.removed.len();
        if timed {
            self.samples.push(elapsed);
            add_profile(&mut self.profile, &report.profile);
        }
    }

    fn sanity(&self, def: &SceneDef) -> Sanity {
        let world = &self.world;
        let floor = ground_floor_y(def);
        let dynamic: Vec<f32> = world
            .bodies()
            .iter()
            .filter(|(_, b)| b.is_dynamic())
            .map(|(_, b)| b.pose().translation.y)
            .collect();
        // The last body keeps its slot unless it was removed; then it counts as fallen.
        let top = world
            .bodies()
            .iter()
            .last()
            .filter(|_| world.bodies().len() == def.bodies.len())
            .map(|(_, b)| b);
        let top_start_x = def.bodies.last().map_or(0.0, |b| b.position.0);
        Sanity {
            top_start_y: def.bodies.last().map_or(0.0, |b| b.position.1),
            top_end_y: top.map_or(f32::NEG_INFINITY, |b| b.pose().translation.y),
            top_shift_x: top.map_or(f32::NAN, |b| b.pose().translation.x - top_start_x),
            top_end_speed: top.map_or(f32::NAN, |b| b.linear_velocity().length()),
            kept: dynamic.iter().filter(|&&y| y > floor).count(),
            dynamic: def.bodies.iter().filter(|b| b.kind == BodyKind::Dynamic).count(),
        }
    }
}

fn add_profile(sum: &mut StepProfile, step: &StepProfile) {
    sum.substeps += step.substeps;
    sum.broad += step.broad;
    sum.narrow += step.narrow;
    sum.resolution += step.resolution;
    sum.integration += step.integration;
    sum.total += step.total;
    sum.candidate_pairs += step.candidate_pairs;
    sum.broad_tests += step.broad_tests;
    sum.contacts += step.contacts;
    sum.contact_points += step.contact_points;
}

/// The scene rebuilt in rapier2d.
#[path = "step/rapier.rs"]
mod rapier;

/// One rapier2d world, stepped in turn with the others.
struct RapierRun {
    world: rapier::RapierWorld,
    samples: Vec<Duration>,
}

impl RapierRun {
    fn new(def: &SceneDef, passes: rapier::Passes) -> RapierRun {
        RapierRun {
            world: rapier::RapierWorld::new(def, passes),
            samples: Vec::new(),
        }
    }

    fn step(&mut self, timed: bool) {
        let start = Instant::now();
        self.world.step();
        let elapsed = start.elapsed();
        if timed {
            self.samples.push(elapsed);
        }
    }
}

/// Steps taken by one engine before the next takes its turn (see [`run_scene`]).
const ROUND_STEPS: usize = 10;

/// The six engines of one scene: our four settings, then rapier2d with its own pass
/// counts and with ours.
struct Engines {
    lab: Vec<LabRun>,
    rapier: RapierRun,
    rapier_matched: RapierRun,
}

impl Engines {
    const COUNT: usize = LAB_CONFIGS.len() + 2;

    /// `steps` steps of engine `k`.
    fn steps(&mut self, k: usize, steps: usize, timed: bool) {
        for _ in 0..steps {
            match k {
                k if k < self.lab.len() => self.lab[k].step(timed),
                k if k == self.lab.len() => self.rapier.step(timed),
                _ => self.rapier_matched.step(timed),
            }
        }
    }
}

/// Warms every engine up, then times them in rounds: each takes [`ROUND_STEPS`] steps
/// in turn (the first engine of a round moves on by one each round), until each has
/// taken `case.timed` timed steps.
///
/// Why rounds: a shared machine's speed moves by tens of percent within a minute (on
/// 2026-11-27 rapier2d's 5050-box pyramid took 8.80 ms a step in one run and 5.79 ms in
/// the next), and run one after another each engine met different weather. Taking
/// turns, every engine runs through the same minutes; each round's steps also give a
/// ratio of two engines measured seconds apart ([`round_ratio`]). Ten steps a turn keep
/// an engine's data warm in the caches after its first step, as a real loop does.
fn run_scene(scene: &Scene, case: &Case) -> Engines {
    let defaults = rapier::Passes {
        pgs: 1,
        stabilization: 1,
    };
    let our_settings = WorldSettings::default();
    let ours = rapier::Passes {
        pgs: our_settings.velocity_iterations as usize,
        stabilization: our_settings.relax_iterations as usize,
    };
    let mut engines = Engines {
        lab: LAB_CONFIGS.iter().map(|&config| LabRun::new(scene, config)).collect(),
        rapier: RapierRun::new(scene.def(), defaults),
        rapier_matched: RapierRun::new(scene.def(), ours),
    };
    for k in 0..Engines::COUNT {
        engines.steps(k, case.warm_up, false);
    }
    let rounds = case.timed.div_ceil(ROUND_STEPS);
    for round in 0..rounds {
        let steps = ROUND_STEPS.min(case.timed - round * ROUND_STEPS);
        for turn in 0..Engines::COUNT {
            engines.steps((round + turn) % Engines::COUNT, steps, true);
        }
    }
    engines
}

/// The median, over the rounds, of the time `ours` took for the round's steps over the
/// time `theirs` took for the same round's: a ratio of two engines measured within
/// seconds of each other, which a change of the machine's speed between rounds moves
/// far less than a ratio of means.
fn round_ratio(ours: &[Duration], theirs: &[Duration]) -> f64 {
    let mut ratios = round_ratios(ours, theirs);
    ratios.sort_by(f64::total_cmp);
    match ratios.len() {
        0 => f64::NAN,
        n if n % 2 == 1 => ratios[n / 2],
        n => 0.5 * (ratios[n / 2 - 1] + ratios[n / 2]),
    }
}

/// Each round's time of `ours` over `theirs`, in the rounds' order (`--rounds` prints
/// them: which part of a run an engine loses, the rain's landing say, which the median
/// hides).
fn round_ratios(ours: &[Duration], theirs: &[Duration]) -> Vec<f64> {
    ours.chunks(ROUND_STEPS)
        .zip(theirs.chunks(ROUND_STEPS))
        .map(|(a, b)| {
            let sum = |s: &[Duration]| s.iter().map(Duration::as_secs_f64).sum::<f64>();
            sum(a) / sum(b).max(1e-12)
        })
        .collect()
}

/// Everything measured on one scene.
struct SceneResult {
    name: String,
    bodies: usize,
    steps: usize,
    engines: Engines,
}

fn ms_per_step(d: Duration, steps: usize) -> f64 {
    d.as_secs_f64() * 1e3 / steps.max(1) as f64
}

fn print_lab_run(run: &LabRun, def: &SceneDef, rapier: &RapierRun, rounds: bool) {
    let p = &run.profile;
    let steps = run.samples.len();
    let total = ms_per_step(p.total, steps);
    let part = |d: Duration| {
        let ms = ms_per_step(d, steps);
        format!("{ms:.2} ms ({:.0}%)", 100.0 * ms / total.max(1e-9))
    };
    let per_substep = |n: u64| n as f64 / p.substeps.max(1) as f64;
    let timing = Timing::of(&run.samples);
    println!(
        "  Collision Lab {:<13} {:<13} {:<10} mean {:>8.3} ms  median {:>8.3} ms  {:.2}x {RAPIER} by round | broad {}, narrow {}, resolution {}, integration {} | per substep: {:.0} candidate pairs, {:.0} contacts, {:.0} points",
        run.narrow.name(),
        run.broad.name(),
        run.resolution.name(),
        timing.mean_ms,
        timing.median_ms,
        round_ratio(&run.samples, &rapier.samples),
        part(p.broad),
        part(p.narrow),
        part(p.resolution),
        part(p.integration),
        per_substep(p.candidate_pairs as u64),
        per_substep(p.contacts as u64),
        per_substep(p.contact_points as u64),
    );
    let removed = if run.removed > 0 {
        format!("; {} bodies removed (not finite)", run.removed)
    } else {
        String::new()
    };
    println!("      sanity: {}{removed}", run.sanity(def).describe());
    if rounds {
        let ratios: Vec<String> = round_ratios(&run.samples, &rapier.samples)
            .iter()
            .map(|r| format!("{r:.2}"))
            .collect();
        println!("      by round of {ROUND_STEPS} steps: {}", ratios.join(" "));
    }
}

fn print_rapier_run(run: &RapierRun, label: &str, def: &SceneDef) {
    let timing = Timing::of(&run.samples);
    println!(
        "  {RAPIER} ({label}) mean {:>8.3} ms  median {:>8.3} ms",
        timing.mean_ms, timing.median_ms
    );
    let top_start = def.bodies.last().map_or((0.0, 0.0), |b| (b.position.0, b.position.1));
    println!("      sanity: {}", run.world.sanity(top_start).describe());
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let threads = args
        .iter()
        .position(|a| a == "--threads")
        .and_then(|i| args.get(i + 1))
        .and_then(|n| n.parse::<usize>().ok())
        .unwrap_or(1);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("a thread pool");
    println!("Collision Lab on {threads} thread(s)");
    pool.install(|| run(&args));
}

fn run(args: &[String]) {
    let quick = args.iter().any(|a| a == "--quick");
    let rounds = args.iter().any(|a| a == "--rounds");
    // `cargo bench` passes `--bench`; every other word that is not a flag filters scenes.
    let filters: Vec<&str> = args
        .iter()
        .filter(|a| !a.starts_with("--") && a.parse::<usize>().is_err())
        .map(String::as_str)
        .collect();
    let root = env!("CARGO_MANIFEST_DIR");

    let mut results = Vec::new();
    for case in &CASES {
        if !filters.is_empty() && !filters.iter().any(|f| case.file.contains(f)) {
            continue;
        }
        let case = if quick {
            Case {
                file: case.file,
                warm_up: 10,
                timed: 20,
            }
        } else {
            *case
        };
        let path = format!("{root}/{}", case.file);
        let scene = match scene::load(&path) {
            Ok(scene) => scene,
            Err(e) => {
                eprintln!("error: {e}");
                std::process::exit(1);
            }
        };
        let name = case
            .file
            .trim_start_matches("scenes/")
            .trim_end_matches(".ron")
            .to_string();
        println!(
            "## {name}: {} bodies, {} warm-up + {} timed steps of 1/60 s, {SUBSTEPS} substeps",
            scene.len(),
            case.warm_up,
            case.timed
        );
        let engines = run_scene(&scene, &case);
        for run in &engines.lab {
            print_lab_run(run, scene.def(), &engines.rapier, rounds);
        }
        let our_settings = WorldSettings::default();
        print_rapier_run(&engines.rapier, "1 + 1 passes per substep", scene.def());
        let ours = format!(
            "{} + {} passes, as ours",
            our_settings.velocity_iterations, our_settings.relax_iterations
        );
        print_rapier_run(&engines.rapier_matched, &ours, scene.def());
        println!();
        results.push(SceneResult {
            name,
            bodies: scene.len(),
            steps: case.timed,
            engines,
        });
    }

    println!(
        "| scene | bodies | timed steps | {RAPIER} | {RAPIER}, our passes | NonConvexSat + Impulses | NonConvexSat + Projection | SatDecomposed + Impulses | SatDecomposed + Projection |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|---:|---:|");
    for r in &results {
        let e = &r.engines;
        let cells: Vec<String> = e
            .lab
            .iter()
            .map(|run| {
                format!(
                    "{:.2} ({:.2}x)",
                    Timing::of(&run.samples).mean_ms,
                    round_ratio(&run.samples, &e.rapier.samples)
                )
            })
            .collect();
        println!(
            "| {} | {} | {} | {:.2} | {:.2} | {} |",
            r.name,
            r.bodies,
            r.steps,
            Timing::of(&e.rapier.samples).mean_ms,
            Timing::of(&e.rapier_matched.samples).mean_ms,
            cells.join(" | ")
        );
    }
    println!();
    println!(
        "ms per step, mean; in brackets, the time relative to {RAPIER} (1 + 1 passes per substep): the median over rounds of {ROUND_STEPS} steps of the two engines' times in the same round."
    );
}
