//! Scene-mutation fuzzing that stays in `cargo test`.
//!
//! Each case takes a shipped scene, mutates its text (numbers swapped for extreme or
//! scaled values, enum names swapped, lines duplicated or deleted) and pushes the result
//! through what a user can reach from a file:
//!
//! ```text
//! parse                          → a scene, or an error with a line and column
//! save → parse                   → the same definition (what loads, saves and reloads)
//! every pair, every algorithm    → no panic; finite depth, normal and MTV
//! 30 steps, one combination of   → no panic; every body finite or reported removed
//!   narrow phase × broad phase × resolution (case i takes combination i mod 36)
//! ```
//!
//! The seed is fixed, so a failure names its case and reproduces. `cargo test` runs
//! [`DEFAULT_CASES`]; a longer run: `COLLISION_LAB_FUZZ_CASES=100000 cargo test --release
//! --test fuzz_scenes -- --nocapture` (and `COLLISION_LAB_FUZZ_SEED=n` for other scenes).

use collision_lab::broad::BroadPhaseKind;
use collision_lab::dynamics::{Resolution, World, WorldSettings};
use collision_lab::narrow::{collide, Algorithm, NarrowConfig};
use collision_lab::scene::{self, Scene};
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};

mod common;
use common::Rng;

/// Cases per `cargo test`: about 2 s on two cores in the test profile (100,000 take
/// 40 s).
const DEFAULT_CASES: usize = 5000;
/// Steps simulated per accepted scene.
const STEPS: usize = 30;

/// The shipped scenes small enough to step 30 times in a millisecond or so (the
/// benchmark pyramids and rain are left out), with their text.
fn base_scenes() -> Vec<(String, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes");
    let mut paths = Vec::new();
    for dir in [root.clone(), root.join("lessons")] {
        for entry in std::fs::read_dir(dir).expect("scenes/ exists") {
            let path = entry.expect("entry").path();
            let name = path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            let bench = ["pyramid", "rain"].iter().any(|b| name.starts_with(b));
            if name.ends_with(".ron") && !bench {
                paths.push(path);
            }
        }
    }
    paths.sort();
    let mut scenes: Vec<(String, String)> = paths
        .into_iter()
        .map(|p| (p.display().to_string(), std::fs::read_to_string(&p).expect("readable")))
        .collect();
    // Saved runs, so that the state block (slots, islands, contacts, impulses) is
    // mutated too: the default pile at 7 s, part asleep, and the pool after a second.
    for (name, steps) in [("default.ron", 420), ("pool.ron", 60)] {
        let (_, text) = scenes
            .iter()
            .find(|(path, _)| path.ends_with(name))
            .expect("a shipped scene");
        let scene = scene::parse(text, name).expect("loads");
        let mut world = World::from_scene(&scene);
        for _ in 0..steps {
            world.step(1.0 / scene.def().settings.rate);
        }
        let saved = scene::to_ron_string(&world.to_scene_def_with_state()).expect("writes");
        scenes.push((format!("{name} saved after {steps} steps"), saved));
    }
    scenes
}

/// Values a number is replaced with: the ends of every range, just past them, the
/// faults fuzzing found before, and the non-finite ones.
const EXTREMES: &[&str] = &[
    "0.0",
    "-0.0",
    "1e-3",
    "0.00099",
    "1e-4",
    "1e-45",
    "1.0",
    "-1.0",
    "0.5",
    "3",
    "10.0",
    "10.01",
    "1000.0",
    "1e4",
    "-1e4",
    "10001.0",
    "1e5",
    "-1e5",
    "100001.0",
    "1e6",
    "1e9",
    "2e9",
    "2e19",
    "1e35",
    "1e36",
    "3.4e38",
    "NaN",
    "inf",
    "-inf",
    "1e-7",
    "-1e-7",
    "64",
    "65",
    "0",
    "1",
    "4294967295",
];

/// Enum names swapped for one another (a wrong one is an error, which is tested too).
const NAMES: &[&str] = &[
    "Static",
    "Dynamic",
    "Kinematic",
    "NonConvexSat",
    "SatDecomposed",
    "GjkEpa",
    "SweepAndPrune",
    "BruteForce",
    "SpatialHash",
    "DynamicAabbTree",
    "Impulses",
    "Projection",
    "LiteralProjection",
    "Off",
    "Interpolation",
    "ConservativeAdvancement",
    "Circle",
    "Polygon",
    "Segment",
];

/// Byte ranges of the number literals of `text` (outside strings and comments), with a
/// leading minus sign.
fn number_spans(text: &str) -> Vec<(usize, usize)> {
    let b = text.as_bytes();
    let mut spans = Vec::new();
    let mut i = 0;
    let mut in_string = false;
    while i < b.len() {
        let c = b[i];
        if in_string {
            match c {
                b'\\' => i += 1,
                b'"' => in_string = false,
                _ => {}
            }
            i += 1;
            continue;
        }
        match c {
            b'"' => in_string = true,
            b'/' if b.get(i + 1) == Some(&b'/') => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
                continue;
            }
            b'0'..=b'9' if i == 0 || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_' || b[i - 1] == b'.') => {
                let start = if i > 0 && b[i - 1] == b'-' { i - 1 } else { i };
                let mut end = i;
                while end < b.len()
                    && (b[end].is_ascii_digit()
                        || b[end] == b'.'
                        || b[end] == b'e'
                        || b[end] == b'E'
                        || (matches!(b[end], b'-' | b'+') && matches!(b[end - 1], b'e' | b'E')))
                {
                    end += 1;
                }
                spans.push((start, end));
                i = end;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    spans
}

/// One mutation of `text`.
fn mutate(text: &str, rng: &mut Rng) -> String {
    match rng.below(10) {
        // A number: an extreme value, the value scaled by a power of ten, or nudged.
        0..=5 => {
            let spans = number_spans(text);
            if spans.is_empty() {
                return text.to_string();
            }
            let (start, end) = *rng.pick(&spans);
            let old: f64 = text[start..end].parse().unwrap_or(1.0);
            let new = match rng.below(3) {
                0 => rng.pick(EXTREMES).to_string(),
                1 => format!("{:e}", old * 10f64.powi(rng.below(17) as i32 - 8)),
                _ => format!(
                    "{:?}",
                    (old as f32) * (1.0 + f32::EPSILON * (rng.below(5) as f32 - 2.0))
                ),
            };
            format!("{}{new}{}", &text[..start], &text[end..])
        }
        // An enum name for another.
        6 => {
            let found: Vec<(usize, &str)> = NAMES
                .iter()
                .flat_map(|name| text.match_indices(*name).collect::<Vec<_>>())
                .collect();
            if found.is_empty() {
                return text.to_string();
            }
            let (at, old) = *rng.pick(&found);
            format!("{}{}{}", &text[..at], rng.pick(NAMES), &text[at + old.len()..])
        }
        // A line duplicated (a body twice, a field twice) or deleted.
        _ => {
            let lines: Vec<&str> = text.lines().collect();
            let k = rng.below(lines.len());
            let mut out: Vec<&str> = lines.clone();
            if rng.below(2) == 0 {
                out.insert(k, lines[k]);
            } else {
                out.remove(k);
            }
            out.join("\n")
        }
    }
}

/// What the cases found, for the summary line.
#[derive(Default)]
struct Tally {
    cases: AtomicUsize,
    accepted: AtomicUsize,
    refused: AtomicUsize,
    pairs: AtomicUsize,
    steps: AtomicUsize,
    removed: AtomicUsize,
}

/// Fails the test, naming the case and showing its scene.
fn fail(context: &str, what: String) -> ! {
    panic!("{what}\n{context}")
}

/// Runs case `case`; a failed check panics with the case number and the scene text.
fn run_case(case: usize, seed: u64, bases: &[(String, String)], tally: &Tally) {
    let mut rng = Rng::new(seed ^ (case as u64).wrapping_mul(0x2545_f491_4f6c_dd1d));
    let (base_name, base_text) = rng.pick(bases);
    let mut text = base_text.clone();
    for _ in 0..1 + rng.below(4) {
        text = mutate(&text, &mut rng);
    }
    let context = format!("case {case} (from {base_name}, seed {seed:#x})\n--- scene ---\n{text}\n---");
    tally.cases.fetch_add(1, Ordering::Relaxed);
    let scene = match scene::parse(&text, "fuzz.ron") {
        Ok(scene) => scene,
        Err(e) => {
            if e.position.is_none() {
                fail(&context, format!("an error from text without a place: {e}"));
            }
            tally.refused.fetch_add(1, Ordering::Relaxed);
            return;
        }
    };
    tally.accepted.fetch_add(1, Ordering::Relaxed);

    // What loads, saves and loads back the same.
    let saved = scene::to_ron_string(scene.def()).unwrap_or_else(|e| fail(&context, format!("cannot write: {e}")));
    match scene::parse(&saved, "saved.ron") {
        Ok(again) if again.def() == scene.def() => {}
        Ok(_) => fail(&context, format!("saved and reloaded differently:\n{saved}")),
        Err(e) => fail(&context, format!("saved but does not reload: {e}\n{saved}")),
    }

    check_contacts(&scene, &context, tally);
    check_steps(&scene, case, &context, tally);
}

/// Every pair at its initial pose through every algorithm.
fn check_contacts(scene: &Scene, context: &str, tally: &Tally) {
    let config = NarrowConfig::default();
    let shapes = scene.shapes();
    let poses: Vec<_> = scene.def().bodies.iter().map(|b| b.pose()).collect();
    for a in 0..shapes.len() {
        for b in a + 1..shapes.len() {
            for algorithm in Algorithm::ALL {
                let c = collide(&shapes[a], &poses[a], &shapes[b], &poses[b], algorithm, &config, None);
                let finite = c.depth.is_finite() && c.mtv.is_finite() && c.normal.is_finite();
                if !finite || (c.intersect && c.depth < 0.0) {
                    fail(context, format!("{algorithm} on bodies {a}, {b}: {c:?}"));
                }
                tally.pairs.fetch_add(1, Ordering::Relaxed);
            }
        }
    }
}

/// 30 steps under combination `case mod 36`.
fn check_steps(scene: &Scene, case: usize, context: &str, tally: &Tally) {
    let narrow_phase = Algorithm::ALL[case % 3];
    let broad_phase = BroadPhaseKind::ALL[(case / 3) % 4];
    let resolution = Resolution::ALL[(case / 12) % 3];
    let def = scene.def();
    let settings = WorldSettings {
        narrow_phase,
        broad_phase,
        resolution,
        ..WorldSettings::from_scene_settings(&def.settings, def.gravity.into())
    };
    let mut world = World::from_scene_with(scene, settings);
    let dt = 1.0 / def.settings.rate;
    let combination = format!("{narrow_phase}, {broad_phase}, {}", resolution.name());
    for step in 0..STEPS {
        let report = world.step(dt);
        tally.removed.fetch_add(report.removed.len(), Ordering::Relaxed);
        for (handle, body) in world.bodies().iter() {
            let c = body.center_of_mass();
            let v = body.linear_velocity();
            let finite =
                c.is_finite() && v.is_finite() && body.angle().is_finite() && body.angular_velocity().is_finite();
            if !finite {
                fail(
                    context,
                    format!(
                        "{combination}, step {step}: body {} is not finite: {c} {v}",
                        handle.index
                    ),
                );
            }
        }
    }
    tally.steps.fetch_add(STEPS, Ordering::Relaxed);
    let _ = world.state_hash();
}

fn env_number(name: &str) -> Option<u64> {
    std::env::var(name).ok().and_then(|v| v.trim().parse().ok())
}

#[test]
fn mutated_scenes_load_save_collide_and_step_without_panic_or_nan() {
    let cases = env_number("COLLISION_LAB_FUZZ_CASES").map_or(DEFAULT_CASES, |n| n as usize);
    let seed = env_number("COLLISION_LAB_FUZZ_SEED").unwrap_or(0x00c0_111d_e5ce_4e5e);
    let bases = base_scenes();
    assert!(bases.len() >= 10, "{} base scenes", bases.len());
    let tally = Tally::default();
    let next = AtomicUsize::new(0);
    let start = std::time::Instant::now();
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get()).min(4);
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| loop {
                let case = next.fetch_add(1, Ordering::Relaxed);
                if case >= cases {
                    break;
                }
                run_case(case, seed, &bases, &tally);
            });
        }
    });
    let n = |a: &AtomicUsize| a.load(Ordering::Relaxed);
    eprintln!(
        "fuzz: {} cases ({} accepted, {} refused with a place), {} pair queries, {} steps, {} bodies removed, {:.1} s",
        n(&tally.cases),
        n(&tally.accepted),
        n(&tally.refused),
        n(&tally.pairs),
        n(&tally.steps),
        n(&tally.removed),
        start.elapsed().as_secs_f64()
    );
    assert_eq!(n(&tally.cases), cases);
    // The mutations are not all refused: the simulation is really exercised.
    assert!(
        n(&tally.accepted) * 5 >= cases,
        "only {} of {cases} accepted",
        n(&tally.accepted)
    );
}

#[test]
fn number_spans_skip_strings_comments_and_names() {
    let text = "(a: -1.5e-3, // 7\n name: \"x9\", v2: 3, p: (4, -5.0E+2))";
    let found: Vec<&str> = number_spans(text).into_iter().map(|(s, e)| &text[s..e]).collect();
    assert_eq!(found, ["-1.5e-3", "3", "4", "-5.0E+2"]);
}
