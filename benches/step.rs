//! Speed, side by side: one `World::step` of Collision Lab against one step of rapier2d
//! on the same scenes, from one run, printed as a Markdown table.
//!
//! ```text
//! cargo bench --bench step                  all four scenes (a few minutes on 2 cores)
//! cargo bench --bench step -- pyramid_20    only the scenes whose name contains a filter
//! cargo bench --bench step -- --quick       10 warm-up and 20 timed steps per run
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
//!    timed alone with `Instant`; we print mean and median ms per step.
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
//! at the start and the end, and how many dynamic bodies are still above the first
//! static body (the ground or the container's floor).

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
/// impacts and the pile settling. The whole bench takes about a minute and a half on
/// 2 cores, most of it Collision Lab on the 5050-box pyramid.
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
    fn of(samples: &mut [Duration]) -> Timing {
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
            "last body y {:.3} -> {:.3} m ({verdict}, moved {:+.3} m); {} of {} dynamic bodies above the ground",
            self.top_start_y, self.top_end_y, -drop, self.kept, self.dynamic
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

/// One timed run of Collision Lab.
struct LabRun {
    narrow: Algorithm,
    broad: BroadPhaseKind,
    resolution: Resolution,
    timing: Timing,
    /// Profile summed over the timed steps.
    profile: StepProfile,
    steps: usize,
    removed: usize,
    sanity: Sanity,
}

fn run_lab(scene: &Scene, case: &Case, (narrow, broad, resolution): (Algorithm, BroadPhaseKind, Resolution)) -> LabRun {
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
    let mut world = World::from_scene_with(scene, settings);
    let top_start_y = def.bodies.last().map_or(0.0, |b| b.position.1);
    let mut removed = 0;
    for _ in 0..case.warm_up {
        removed += world.step(DT).removed.len();
    }
    let mut samples = Vec::with_capacity(case.timed);
    let mut profile = StepProfile::default();
    for _ in 0..case.timed {
        let start = Instant::now();
        let report = world.step(DT);
        samples.push(start.elapsed());
        removed += report.removed.len();
        add_profile(&mut profile, &report.profile);
    }
    let floor = ground_floor_y(def);
    let dynamic: Vec<f32> = world
        .bodies()
        .iter()
        .filter(|(_, b)| b.is_dynamic())
        .map(|(_, b)| b.pose().translation.y)
        .collect();
    // The last body keeps its slot unless it was removed; then it counts as fallen.
    let top_end_y = world
        .bodies()
        .iter()
        .last()
        .filter(|_| world.bodies().len() == def.bodies.len())
        .map_or(f32::NEG_INFINITY, |(_, b)| b.pose().translation.y);
    LabRun {
        narrow,
        broad,
        resolution,
        timing: Timing::of(&mut samples),
        profile,
        steps: case.timed,
        removed,
        sanity: Sanity {
            top_start_y,
            top_end_y,
            kept: dynamic.iter().filter(|&&y| y > floor).count(),
            dynamic: def.bodies.iter().filter(|b| b.kind == BodyKind::Dynamic).count(),
        },
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
mod rapier {
    use super::{Sanity, DT, SUBSTEPS};
    use collision_lab::scene::{BodyKind, SceneDef, ShapeDef};
    use rapier2d::prelude::{
        CCDSolver, CoefficientCombineRule, ColliderBuilder, ColliderSet, DefaultBroadPhase, ImpulseJointSet,
        IntegrationParameters, IslandManager, MultibodyJointSet, NarrowPhase, PhysicsPipeline, RigidBodyBuilder,
        RigidBodyHandle, RigidBodySet, SoftBodySet, Vector,
    };

    /// Everything `PhysicsPipeline::step` takes.
    pub struct RapierWorld {
        gravity: Vector,
        params: IntegrationParameters,
        pipeline: PhysicsPipeline,
        islands: IslandManager,
        broad_phase: DefaultBroadPhase,
        narrow_phase: NarrowPhase,
        bodies: RigidBodySet,
        colliders: ColliderSet,
        impulse_joints: ImpulseJointSet,
        multibody_joints: MultibodyJointSet,
        soft_bodies: SoftBodySet,
        ccd: CCDSolver,
        /// Body handles in file order.
        handles: Vec<RigidBodyHandle>,
        floor_y: f32,
    }

    /// Solver passes per substep: rapier's defaults (1, 1) or ours (`WorldSettings` defaults).
    #[derive(Clone, Copy, Debug)]
    pub struct Passes {
        pub pgs: usize,
        pub stabilization: usize,
    }

    impl RapierWorld {
        pub fn new(def: &SceneDef, passes: Passes) -> RapierWorld {
            let params = IntegrationParameters {
                dt: DT,
                // Substeps (see the bench's docs for the mapping).
                num_solver_iterations: SUBSTEPS as usize,
                num_internal_pgs_iterations: passes.pgs,
                num_internal_stabilization_iterations: passes.stabilization,
                // No continuous detection: it is off on our side too.
                max_ccd_substeps: 0,
                ..IntegrationParameters::default()
            };
            let mut bodies = RigidBodySet::new();
            let mut colliders = ColliderSet::new();
            let mut handles = Vec::with_capacity(def.bodies.len());
            for body in &def.bodies {
                let builder = match body.kind {
                    BodyKind::Static => RigidBodyBuilder::fixed(),
                    BodyKind::Dynamic => RigidBodyBuilder::dynamic(),
                    BodyKind::Kinematic => RigidBodyBuilder::kinematic_velocity_based(),
                };
                let rb = builder
                    .translation(Vector::new(body.position.0, body.position.1))
                    .rotation(body.angle)
                    .linvel(Vector::new(body.linear_velocity.0, body.linear_velocity.1))
                    .angvel(body.angular_velocity)
                    .can_sleep(false)
                    .build();
                let handle = bodies.insert(rb);
                let collider = collider_of(&body.shape)
                    .density(body.density)
                    .friction(body.friction)
                    .friction_combine_rule(CoefficientCombineRule::GeometricMean)
                    .restitution(body.restitution)
                    .restitution_combine_rule(CoefficientCombineRule::Max)
                    .build();
                colliders.insert_with_parent(collider, handle, &mut bodies);
                handles.push(handle);
            }
            RapierWorld {
                gravity: Vector::new(def.gravity.0, def.gravity.1),
                params,
                pipeline: PhysicsPipeline::new(),
                islands: IslandManager::new(),
                broad_phase: DefaultBroadPhase::default(),
                narrow_phase: NarrowPhase::new(),
                bodies,
                colliders,
                impulse_joints: ImpulseJointSet::new(),
                multibody_joints: MultibodyJointSet::new(),
                soft_bodies: SoftBodySet::new(),
                ccd: CCDSolver::new(),
                handles,
                floor_y: super::ground_floor_y(def),
            }
        }

        pub fn step(&mut self) {
            self.pipeline.step(
                self.gravity,
                &self.params,
                &mut self.islands,
                &mut self.broad_phase,
                &mut self.narrow_phase,
                &mut self.bodies,
                &mut self.colliders,
                &mut self.impulse_joints,
                &mut self.multibody_joints,
                &mut self.soft_bodies,
                &mut self.ccd,
                &(),
                &(),
            );
        }

        pub fn sanity(&self, top_start_y: f32) -> Sanity {
            let dynamic: Vec<f32> = self
                .bodies
                .iter()
                .filter(|(_, b)| b.is_dynamic())
                .map(|(_, b)| b.translation().y)
                .collect();
            Sanity {
                top_start_y,
                top_end_y: self.handles.last().map_or(0.0, |&h| self.bodies[h].translation().y),
                kept: dynamic.iter().filter(|&&y| y > self.floor_y).count(),
                dynamic: dynamic.len(),
            }
        }
    }

    /// The rapier collider for a scene shape, in the body's local frame.
    fn collider_of(shape: &ShapeDef) -> ColliderBuilder {
        match shape {
            ShapeDef::Circle { radius } => ColliderBuilder::ball(*radius),
            ShapeDef::Segment { a, b } => ColliderBuilder::segment(Vector::new(a.0, a.1), Vector::new(b.0, b.1)),
            ShapeDef::Polygon { points } => {
                let mut vertices: Vec<Vector> = points.iter().map(|p| Vector::new(p.0, p.1)).collect();
                if let Some((min, max)) = axis_aligned_rectangle(&vertices) {
                    let half = (max - min) * 0.5;
                    return ColliderBuilder::cuboid(half.x, half.y).translation((min + max) * 0.5);
                }
                // rapier wants counter-clockwise; the scene format takes either.
                if signed_area(&vertices) < 0.0 {
                    vertices.reverse();
                }
                if is_convex(&vertices) {
                    if let Some(builder) = ColliderBuilder::convex_polyline(vertices.clone()) {
                        return builder;
                    }
                }
                // Not needed by the bench's scenes (all convex); kept so any scene runs.
                let n = vertices.len() as u32;
                let indices: Vec<[u32; 2]> = (0..n).map(|i| [i, (i + 1) % n]).collect();
                ColliderBuilder::convex_decomposition(&vertices, &indices)
            }
        }
    }

    /// `Some((min, max))` when the polygon is exactly its bounding box (four corners).
    fn axis_aligned_rectangle(vertices: &[Vector]) -> Option<(Vector, Vector)> {
        if vertices.len() != 4 {
            return None;
        }
        let min = vertices.iter().fold(Vector::splat(f32::INFINITY), |m, &v| m.min(v));
        let max = vertices.iter().fold(Vector::splat(f32::NEG_INFINITY), |m, &v| m.max(v));
        let is_corner = |v: &Vector| (v.x == min.x || v.x == max.x) && (v.y == min.y || v.y == max.y);
        let distinct = vertices
            .iter()
            .enumerate()
            .all(|(i, a)| vertices[i + 1..].iter().all(|b| a != b));
        (vertices.iter().all(is_corner) && distinct).then_some((min, max))
    }

    fn signed_area(vertices: &[Vector]) -> f32 {
        let n = vertices.len();
        (0..n).map(|i| vertices[i].perp_dot(vertices[(i + 1) % n])).sum::<f32>() * 0.5
    }

    /// Every turn of a counter-clockwise polygon is a left turn.
    fn is_convex(vertices: &[Vector]) -> bool {
        let n = vertices.len();
        (0..n).all(|i| {
            let (a, b, c) = (vertices[i], vertices[(i + 1) % n], vertices[(i + 2) % n]);
            (b - a).perp_dot(c - b) > 0.0
        })
    }
}

/// One timed run of rapier2d.
struct RapierRun {
    timing: Timing,
    sanity: Sanity,
}

fn run_rapier(def: &SceneDef, case: &Case, passes: rapier::Passes) -> RapierRun {
    let mut world = rapier::RapierWorld::new(def, passes);
    let top_start_y = def.bodies.last().map_or(0.0, |b| b.position.1);
    for _ in 0..case.warm_up {
        world.step();
    }
    let mut samples = Vec::with_capacity(case.timed);
    for _ in 0..case.timed {
        let start = Instant::now();
        world.step();
        samples.push(start.elapsed());
    }
    RapierRun {
        timing: Timing::of(&mut samples),
        sanity: world.sanity(top_start_y),
    }
}

/// Everything measured on one scene.
struct SceneResult {
    name: String,
    bodies: usize,
    steps: usize,
    lab: Vec<LabRun>,
    rapier: RapierRun,
    rapier_matched: RapierRun,
}

fn ms_per_step(d: Duration, steps: usize) -> f64 {
    d.as_secs_f64() * 1e3 / steps.max(1) as f64
}

fn print_lab_run(run: &LabRun) {
    let p = &run.profile;
    let total = ms_per_step(p.total, run.steps);
    let part = |d: Duration| {
        let ms = ms_per_step(d, run.steps);
        format!("{ms:.2} ms ({:.0}%)", 100.0 * ms / total.max(1e-9))
    };
    let per_substep = |n: u64| n as f64 / p.substeps.max(1) as f64;
    println!(
        "  Collision Lab {:<13} {:<13} {:<10} mean {:>8.3} ms  median {:>8.3} ms | broad {}, narrow {}, resolution {}, integration {} | per substep: {:.0} candidate pairs, {:.0} contacts, {:.0} points",
        run.narrow.name(),
        run.broad.name(),
        run.resolution.name(),
        run.timing.mean_ms,
        run.timing.median_ms,
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
    println!("      sanity: {}{removed}", run.sanity.describe());
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
        let mut lab = Vec::new();
        for config in LAB_CONFIGS {
            let run = run_lab(&scene, &case, config);
            print_lab_run(&run);
            lab.push(run);
        }
        let defaults = rapier::Passes {
            pgs: 1,
            stabilization: 1,
        };
        let rapier = run_rapier(scene.def(), &case, defaults);
        println!(
            "  {RAPIER} (1 + 1 passes per substep)   mean {:>8.3} ms  median {:>8.3} ms",
            rapier.timing.mean_ms, rapier.timing.median_ms
        );
        println!("      sanity: {}", rapier.sanity.describe());
        let our_settings = WorldSettings::default();
        let ours = rapier::Passes {
            pgs: our_settings.velocity_iterations as usize,
            stabilization: our_settings.relax_iterations as usize,
        };
        let rapier_matched = run_rapier(scene.def(), &case, ours);
        println!(
            "  {RAPIER} ({} + {} passes, as ours)     mean {:>8.3} ms  median {:>8.3} ms",
            ours.pgs, ours.stabilization, rapier_matched.timing.mean_ms, rapier_matched.timing.median_ms
        );
        println!("      sanity: {}", rapier_matched.sanity.describe());
        println!();
        results.push(SceneResult {
            name,
            bodies: scene.len(),
            steps: case.timed,
            lab,
            rapier,
            rapier_matched,
        });
    }

    println!(
        "| scene | bodies | timed steps | {RAPIER} | {RAPIER}, our passes | NonConvexSat + Impulses | NonConvexSat + Projection | SatDecomposed + Impulses | SatDecomposed + Projection |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|---:|---:|");
    for r in &results {
        let rapier = r.rapier.timing.mean_ms;
        let cells: Vec<String> = r
            .lab
            .iter()
            .map(|run| format!("{:.2} ({:.2}x)", run.timing.mean_ms, run.timing.mean_ms / rapier))
            .collect();
        println!(
            "| {} | {} | {} | {:.2} | {:.2} | {} |",
            r.name,
            r.bodies,
            r.steps,
            rapier,
            r.rapier_matched.timing.mean_ms,
            cells.join(" | ")
        );
    }
    println!();
    println!("ms per step, mean; in brackets, the time relative to {RAPIER} (1 + 1 passes per substep).");
}
