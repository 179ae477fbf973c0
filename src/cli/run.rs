//! `collision-lab run`: a scene simulated headless for a number of steps, with the time
//! each phase took, the work counters, race mode's comparison of the narrow phases and
//! the final state hash; as a table or as one JSON object.

use super::CliError;
use clap::Args;
use collision_lab::broad::BroadPhaseKind;
use collision_lab::dynamics::{DisagreementKind, RaceReport, Resume, StepReport, World, WorldSettings};
use collision_lab::narrow::{Algorithm, Work};
use collision_lab::scene::{self, ResolutionDef, SceneDef};
use serde::Serialize;
use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

/// Arguments of `run`.
#[derive(Debug, Args)]
pub struct RunArgs {
    /// The scene file (RON)
    #[arg(value_name = "SCENE.ron")]
    scene: PathBuf,
    /// Steps to simulate, each 1/rate seconds (the scene's settings.rate)
    #[arg(long, value_name = "N", default_value_t = 600, value_parser = clap::value_parser!(u32).range(1..))]
    steps: u32,
    /// Narrow phase [default: the scene's settings.narrow_phase]
    #[arg(
        long,
        value_name = "ALGORITHM",
        ignore_case = true,
        value_parser = super::named_choice::<Algorithm, _>(Algorithm::ALL.map(Algorithm::name))
    )]
    algorithm: Option<Algorithm>,
    /// Broad phase [default: the scene's settings.broad_phase]
    #[arg(
        long,
        value_name = "BROAD_PHASE",
        ignore_case = true,
        value_parser = super::named_choice::<BroadPhaseKind, _>(BroadPhaseKind::ALL.map(BroadPhaseKind::name))
    )]
    broad_phase: Option<BroadPhaseKind>,
    /// Contact resolution [default: the scene's settings.resolution]
    #[arg(
        long,
        value_name = "RESOLUTION",
        ignore_case = true,
        value_parser = super::named_choice::<ResolutionDef, _>(ResolutionDef::ALL.map(ResolutionDef::name))
    )]
    resolution: Option<ResolutionDef>,
    /// Race mode: also run the two other narrow phases on every candidate pair and report
    /// their time and disagreements with the chosen one (the simulation is unchanged)
    #[arg(long)]
    race: bool,
    /// Write the final state as a scene file (replaced atomically; the scene's lesson
    /// block and the bodies that did not move are kept as loaded). It ends with a state
    /// block, so `run OUT.ron` continues this run exactly
    #[arg(long, value_name = "OUT.ron")]
    save_final: Option<PathBuf>,
    /// With --save-final: leave the state block out (a file to edit or share that starts
    /// afresh from the final poses)
    #[arg(long, requires = "save_final")]
    no_state: bool,
    /// Print one JSON object instead of a table
    #[arg(long)]
    json: bool,
}

/// Runs the command, writing to stdout.
pub fn run(args: &RunArgs) -> Result<(), CliError> {
    let scene = scene::load(&args.scene)?;
    let mut settings_def = scene.def().settings.clone();
    if let Some(algorithm) = args.algorithm {
        settings_def.narrow_phase = algorithm;
    }
    if let Some(broad_phase) = args.broad_phase {
        settings_def.broad_phase = broad_phase;
    }
    if let Some(resolution) = args.resolution {
        settings_def.resolution = resolution;
    }
    let settings = WorldSettings {
        race: args.race,
        ..WorldSettings::from_scene_settings(&settings_def, scene.def().gravity.into())
    };
    let mut world = World::from_scene_with(&scene, settings);
    if let Resume::Stale { reason } = world.resume() {
        eprintln!("note: the scene's state block was ignored ({reason}); the run starts afresh from the bodies");
    }
    let resumed_from = match world.resume() {
        Resume::Exact { steps } => Some(*steps),
        _ => None,
    };
    // The scene's rate was checked on loading (finite, 1..=1000 Hz), so dt is positive.
    let dt = 1.0 / settings_def.rate;
    let outside_at_start = super::warn_scene_outside_precision_range("at the start", &scene);
    let mut summary = Summary::new(args.race.then_some(settings.narrow_phase));
    for _ in 0..args.steps {
        let report = world.step(dt);
        summary.add(&report);
    }
    // Saved before the results are printed (a closed stdout must not lose the save), and
    // its error returned after them: the run's numbers are worth having either way.
    let saved = match &args.save_final {
        Some(path) => scene::save(path, &final_scene(&scene, &world, settings, !args.no_state)),
        None => Ok(()),
    };
    if outside_at_start == 0 {
        // Bodies can also fly out of the range during the run.
        super::warn_outside_precision_range(
            "at the end",
            world
                .bodies()
                .iter()
                .map(|(h, b)| (h.index as usize, b.name(), b.shape(), b.pose())),
        );
    }
    let mut result = RunJson::new(args, &summary, &world, scene.len(), settings_def.rate, dt);
    result.resumed_from_step = resumed_from;
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    if args.json {
        // Plain numbers, strings and arrays: serialising cannot fail.
        let text = serde_json::to_string(&result).map_err(std::io::Error::other)?;
        writeln!(out, "{text}")?;
    } else {
        write_table(&mut out, &result)?;
    }
    out.flush()?;
    saved.map_err(CliError::from)
}

/// The scene `--save-final` writes: the world's state, plus what the world does not
/// carry.
///
/// - A body whose state is still, bit for bit, the state its definition builds (a static
///   body, a body that never moved) is written as it was loaded. The world keeps a body
///   by its centre of mass, and turning that back into the origin's position rounds in
///   f32: 0.7 came back as 0.70000005, and 0.3 as 0.3125 for a polygon drawn 1e6 m from
///   its origin.
/// - With `with_state`, the state block the world writes (`World::to_scene_def_with_state`)
///   ends the file, so running it continues this run exactly.
/// - The loaded scene's lesson block is kept, its body numbers following the bodies
///   the world removed; if a body it names was removed, it is left out with a note on
///   stderr.
fn final_scene(scene: &scene::Scene, world: &World, settings: WorldSettings, with_state: bool) -> SceneDef {
    let start = World::from_scene_with(scene, settings);
    let loaded = scene.def();
    let mut def = if with_state {
        world.to_scene_def_with_state()
    } else {
        world.to_scene_def()
    };
    // `from_scene_with` puts body i in slot i, and `run` inserts nothing: a body's slot
    // is its index in the loaded file.
    let mut new_index = vec![None; loaded.bodies.len()];
    for (k, ((handle, body), saved)) in world.bodies().iter().zip(&mut def.bodies).enumerate() {
        let index = handle.index as usize;
        if let Some(slot) = new_index.get_mut(index) {
            *slot = Some(k);
        }
        let unmoved = start.body(handle).is_some_and(|b| b.to_def() == body.to_def());
        if let (true, Some(as_loaded)) = (unmoved, loaded.bodies.get(index)) {
            *saved = as_loaded.clone();
        }
    }
    if let Some(lesson) = &loaded.lesson {
        def.lesson = lesson.renumbered(|i| new_index.get(i).copied().flatten());
        if def.lesson.is_none() {
            eprintln!("note: the saved scene has no lesson block: a body the lesson studies left the world");
        }
    }
    def
}

/// Everything kept from the steps: each phase's time per step (for the median), and
/// sums of the counters.
struct Summary {
    steps: u32,
    broad: Vec<Duration>,
    narrow: Vec<Duration>,
    resolution: Vec<Duration>,
    integration: Vec<Duration>,
    total: Vec<Duration>,
    candidate_pairs: u64,
    reused_pairs: u64,
    known_apart_pairs: u64,
    contacts: u64,
    work: WorkSums,
    removed: u64,
    race: Option<RaceSums>,
}

/// [`Work`] summed over many steps, in 64 bits (a long run overflows 32).
#[derive(Clone, Copy, Debug, Default)]
struct WorkSums {
    bv_tests: u64,
    primitive_tests: u64,
    gjk_iterations: u64,
    epa_iterations: u64,
}

impl WorkSums {
    fn add(&mut self, w: &Work) {
        self.bv_tests += u64::from(w.bv_tests);
        self.primitive_tests += u64::from(w.primitive_tests);
        self.gjk_iterations += u64::from(w.gjk_iterations);
        self.epa_iterations += u64::from(w.epa_iterations);
    }
}

/// Race reports summed over the steps, per algorithm in [`Algorithm::ALL`] order.
struct RaceSums {
    chosen: Algorithm,
    time: [Duration; 3],
    queries: [u64; 3],
    intersecting: [u64; 3],
    work: [WorkSums; 3],
    /// Disagreements with the chosen algorithm, per algorithm, per kind in
    /// [`DisagreementKind::ALL`] order.
    disagreements: [[u64; 3]; 3],
    /// Pairs each algorithm got wrong by the exact oracle.
    wrong_by_exact: [u64; 3],
    /// Pairs the oracle answered.
    exact_checked: u64,
}

impl RaceSums {
    fn add(&mut self, report: &RaceReport) {
        for (i, algorithm) in Algorithm::ALL.into_iter().enumerate() {
            let stats = report.stats(algorithm);
            self.time[i] += stats.time;
            self.queries[i] += u64::from(stats.queries);
            self.intersecting[i] += u64::from(stats.intersecting);
            self.work[i].add(&stats.work);
            for (k, kind) in DisagreementKind::ALL.into_iter().enumerate() {
                self.disagreements[i][k] += report.count(algorithm, kind) as u64;
            }
            self.wrong_by_exact[i] += u64::from(report.wrong_by_exact[i]);
        }
        self.exact_checked += u64::from(report.exact_checked);
    }
}

impl Summary {
    fn new(race_against: Option<Algorithm>) -> Summary {
        Summary {
            steps: 0,
            broad: Vec::new(),
            narrow: Vec::new(),
            resolution: Vec::new(),
            integration: Vec::new(),
            total: Vec::new(),
            candidate_pairs: 0,
            reused_pairs: 0,
            known_apart_pairs: 0,
            contacts: 0,
            work: WorkSums::default(),
            removed: 0,
            race: race_against.map(|chosen| RaceSums {
                chosen,
                time: [Duration::ZERO; 3],
                queries: [0; 3],
                intersecting: [0; 3],
                work: [WorkSums::default(); 3],
                disagreements: [[0; 3]; 3],
                wrong_by_exact: [0; 3],
                exact_checked: 0,
            }),
        }
    }

    fn add(&mut self, report: &StepReport) {
        let p = &report.profile;
        self.steps += 1;
        self.broad.push(p.broad);
        self.narrow.push(p.narrow);
        self.resolution.push(p.resolution);
        self.integration.push(p.integration);
        self.total.push(p.total);
        self.candidate_pairs += u64::from(p.candidate_pairs);
        self.reused_pairs += u64::from(p.reused_pairs);
        self.known_apart_pairs += u64::from(p.known_apart_pairs);
        self.contacts += u64::from(p.contacts);
        self.work.add(&p.work);
        self.removed += report.removed.len() as u64;
        if let (Some(sums), Some(race)) = (self.race.as_mut(), report.race.as_ref()) {
            sums.add(race);
        }
    }

    /// A sum as a mean per step.
    fn per_step(&self, sum: u64) -> f64 {
        sum as f64 / f64::from(self.steps.max(1))
    }
}

/// Mean and median of one phase's time per step (ms).
#[derive(Clone, Copy, Debug, Serialize)]
struct PhaseJson {
    mean: f64,
    median: f64,
}

impl PhaseJson {
    fn of(times: &[Duration]) -> PhaseJson {
        let mut ms: Vec<f64> = times.iter().map(|d| d.as_secs_f64() * 1e3).collect();
        ms.sort_by(f64::total_cmp);
        let mean = ms.iter().sum::<f64>() / ms.len().max(1) as f64;
        let median = match ms.len() {
            0 => 0.0,
            n if n % 2 == 1 => ms[n / 2],
            n => 0.5 * (ms[n / 2 - 1] + ms[n / 2]),
        };
        PhaseJson { mean, median }
    }
}

/// The documented JSON object (README, "run"); the table prints the same numbers.
#[derive(Debug, Serialize)]
struct RunJson {
    scene: String,
    bodies: usize,
    steps: u32,
    rate_hz: f32,
    dt_s: f32,
    settings: SettingsJson,
    phases_ms: PhasesJson,
    counters: CountersJson,
    race: Option<RaceJson>,
    /// The step the run went on from when the scene held a saved state, else null.
    resumed_from_step: Option<u64>,
    /// Simulated time at the end (s), counting a resumed run's earlier steps.
    final_time_s: f64,
    final_hash: String,
}

#[derive(Debug, Serialize)]
struct SettingsJson {
    narrow_phase: &'static str,
    broad_phase: &'static str,
    resolution: &'static str,
    substeps: u32,
    velocity_iterations: u32,
    relax_iterations: u32,
    projection_iterations: u32,
}

#[derive(Debug, Serialize)]
struct PhasesJson {
    broad: PhaseJson,
    narrow: PhaseJson,
    resolution: PhaseJson,
    integration: PhaseJson,
    total: PhaseJson,
}

/// Means per step, except `bodies_removed`, a total.
#[derive(Debug, Serialize)]
struct CountersJson {
    candidate_pairs: f64,
    reused_pairs: f64,
    known_apart_pairs: f64,
    contacts: f64,
    nv: f64,
    np: f64,
    gjk_iterations: f64,
    epa_iterations: f64,
    bodies_removed: u64,
}

#[derive(Debug, Serialize)]
struct RaceJson {
    chosen: &'static str,
    algorithms: Vec<RaceAlgorithmJson>,
    /// Pairs the exact oracle answered (every `wrong_by_exact` is out of these).
    exact_checked: u64,
}

#[derive(Debug, Serialize)]
struct RaceAlgorithmJson {
    algorithm: &'static str,
    narrow_ms_total: f64,
    narrow_ms_mean: f64,
    queries: u64,
    intersecting: u64,
    nv: u64,
    np: u64,
    gjk_iterations: u64,
    epa_iterations: u64,
    disagreements: DisagreementsJson,
    /// Pairs this algorithm got wrong by the exact oracle (false positive, false
    /// negative, or an MTV more than 1% off the exact one).
    wrong_by_exact: u64,
}

/// Counts by kind, against the chosen algorithm (all zero for the chosen one itself).
#[derive(Debug, Serialize)]
struct DisagreementsJson {
    intersect: u64,
    normal: u64,
    depth: u64,
}

impl RunJson {
    fn new(args: &RunArgs, summary: &Summary, world: &World, bodies: usize, rate_hz: f32, dt_s: f32) -> RunJson {
        let s = world.settings();
        let race = summary.race.as_ref().map(|r| RaceJson {
            chosen: r.chosen.name(),
            algorithms: Algorithm::ALL
                .into_iter()
                .enumerate()
                .map(|(i, algorithm)| {
                    let total_ms = r.time[i].as_secs_f64() * 1e3;
                    let [intersect, normal, depth] = r.disagreements[i];
                    RaceAlgorithmJson {
                        algorithm: algorithm.name(),
                        narrow_ms_total: total_ms,
                        narrow_ms_mean: total_ms / f64::from(summary.steps.max(1)),
                        queries: r.queries[i],
                        intersecting: r.intersecting[i],
                        nv: r.work[i].bv_tests,
                        np: r.work[i].primitive_tests,
                        gjk_iterations: r.work[i].gjk_iterations,
                        epa_iterations: r.work[i].epa_iterations,
                        disagreements: DisagreementsJson {
                            intersect,
                            normal,
                            depth,
                        },
                        wrong_by_exact: r.wrong_by_exact[i],
                    }
                })
                .collect(),
            exact_checked: r.exact_checked,
        });
        RunJson {
            scene: args.scene.display().to_string(),
            bodies,
            steps: summary.steps,
            rate_hz,
            dt_s,
            settings: SettingsJson {
                narrow_phase: s.narrow_phase.name(),
                broad_phase: s.broad_phase.name(),
                resolution: s.resolution.name(),
                substeps: s.substeps,
                velocity_iterations: s.velocity_iterations,
                relax_iterations: s.relax_iterations,
                projection_iterations: s.projection_iterations,
            },
            phases_ms: PhasesJson {
                broad: PhaseJson::of(&summary.broad),
                narrow: PhaseJson::of(&summary.narrow),
                resolution: PhaseJson::of(&summary.resolution),
                integration: PhaseJson::of(&summary.integration),
                total: PhaseJson::of(&summary.total),
            },
            counters: CountersJson {
                candidate_pairs: summary.per_step(summary.candidate_pairs),
                reused_pairs: summary.per_step(summary.reused_pairs),
                known_apart_pairs: summary.per_step(summary.known_apart_pairs),
                contacts: summary.per_step(summary.contacts),
                nv: summary.per_step(summary.work.bv_tests),
                np: summary.per_step(summary.work.primitive_tests),
                gjk_iterations: summary.per_step(summary.work.gjk_iterations),
                epa_iterations: summary.per_step(summary.work.epa_iterations),
                bodies_removed: summary.removed,
            },
            race,
            resumed_from_step: None,
            final_time_s: world.time(),
            final_hash: format!("{:016x}", world.state_hash()),
        }
    }
}

fn write_table(out: &mut impl Write, r: &RunJson) -> Result<(), CliError> {
    let s = &r.settings;
    writeln!(out, "scene         {} ({} bodies)", r.scene, r.bodies)?;
    // The passes of the resolution in use: each resolution reads its own setting.
    let passes = match s.resolution {
        "Impulses" => format!(
            ", {} biased + {} relax passes",
            s.velocity_iterations, s.relax_iterations
        ),
        "Projection" => format!(", {} position passes", s.projection_iterations),
        _ => String::new(),
    };
    writeln!(
        out,
        "settings      {}, {}, {}; {} substeps{passes}",
        s.narrow_phase, s.broad_phase, s.resolution, s.substeps
    )?;
    writeln!(
        out,
        "steps         {} at {} Hz (dt {:.3} ms, {:.3} s simulated)",
        r.steps,
        r.rate_hz,
        f64::from(r.dt_s) * 1e3,
        f64::from(r.dt_s) * f64::from(r.steps)
    )?;
    if let Some(from) = r.resumed_from_step {
        writeln!(
            out,
            "resumed       from step {from}, the scene's saved state; ends at step {} (t = {:.3} s)",
            from + u64::from(r.steps),
            r.final_time_s
        )?;
    }
    writeln!(out)?;
    writeln!(out, "phase         mean ms/step  median ms/step")?;
    let p = &r.phases_ms;
    for (name, phase) in [
        ("broad", p.broad),
        ("narrow", p.narrow),
        ("resolution", p.resolution),
        ("integration", p.integration),
        ("total", p.total),
    ] {
        writeln!(out, "{name:<12}  {:>12.4}  {:>14.4}", phase.mean, phase.median)?;
    }
    writeln!(out)?;
    let c = &r.counters;
    writeln!(out, "per step (mean)")?;
    for (name, value) in [
        ("candidate pairs", c.candidate_pairs),
        ("  of which reused", c.reused_pairs),
        ("  of which known apart", c.known_apart_pairs),
        ("contacts", c.contacts),
        ("Nv (bounding-volume tests)", c.nv),
        ("Np (primitive tests)", c.np),
        ("GJK iterations", c.gjk_iterations),
        ("EPA iterations", c.epa_iterations),
    ] {
        writeln!(out, "  {name:<28}{value:>10.2}")?;
    }
    writeln!(out, "bodies removed (total)        {:>10}", c.bodies_removed)?;
    if let Some(race) = &r.race {
        writeln!(out)?;
        writeln!(
            out,
            "race (the simulation used {}; disagreements are with it)",
            race.chosen
        )?;
        writeln!(
            out,
            "algorithm      narrow ms total  ms/step  intersecting  Nv        Np        intersect≠  normal>10°  depth>10%"
        )?;
        for a in &race.algorithms {
            let d = &a.disagreements;
            let counts = if a.algorithm == race.chosen {
                format!("{:<10}  {:<10}  {}", "-", "-", "-")
            } else {
                format!("{:<10}  {:<10}  {}", d.intersect, d.normal, d.depth)
            };
            writeln!(
                out,
                "{:<13}  {:>15.3}  {:>7.4}  {:>12}  {:<8}  {:<8}  {}",
                a.algorithm, a.narrow_ms_total, a.narrow_ms_mean, a.intersecting, a.nv, a.np, counts
            )?;
        }
        writeln!(
            out,
            "wrong by the exact answer, of {} pairs: {}",
            race.exact_checked,
            race.algorithms
                .iter()
                .map(|a| format!("{} {}", a.algorithm, a.wrong_by_exact))
                .collect::<Vec<_>>()
                .join(" · ")
        )?;
    }
    writeln!(out)?;
    writeln!(out, "final state hash  {}", r.final_hash)?;
    Ok(())
}
