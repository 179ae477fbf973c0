//! `collision-lab run`, run as a user would: every shipped scene under every broad
//! phase, narrow phase and resolution; the same hash every time and under every broad
//! phase; the final state saved as a scene; the documented JSON; errors.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const BROAD_PHASES: [&str; 4] = ["BruteForce", "SweepAndPrune", "SpatialHash", "DynamicAabbTree"];
const NARROW_PHASES: [&str; 3] = ["NonConvexSat", "SatDecomposed", "GjkEpa"];
const RESOLUTIONS: [&str; 2] = ["Impulses", "Projection"];

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_collision-lab"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("the binary runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Runs and parses `--json`, failing with stderr on a non-zero exit.
fn run_json(args: &[&str]) -> serde_json::Value {
    let mut all = vec!["run"];
    all.extend_from_slice(args);
    all.push("--json");
    let o = run(&all);
    assert!(o.status.success(), "{all:?}: {}", stderr(&o));
    serde_json::from_str(&stdout(&o)).unwrap_or_else(|e| panic!("{all:?}: {e}\n{}", stdout(&o)))
}

fn hash(json: &serde_json::Value) -> String {
    json["final_hash"].as_str().expect("final_hash is a string").to_string()
}

/// Every `.ron` file shipped in `scenes/`, relative to the crate, sorted.
fn shipped_scenes() -> Vec<String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes");
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .expect("scenes/ exists")
        .map(|entry| {
            entry
                .expect("readable entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .filter(|name| name.ends_with(".ron"))
        .map(|name| format!("scenes/{name}"))
        .collect();
    names.sort();
    names
}

/// A fresh directory for this test's files.
fn temp_dir(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("collision-lab-run-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

#[test]
fn every_scene_runs_under_every_combination_with_one_hash_per_narrow_phase_and_resolution() {
    let scenes = shipped_scenes();
    assert!(scenes.len() >= 5, "{scenes:?}");
    // One thread per scene: 24 short runs each.
    std::thread::scope(|s| {
        for scene in &scenes {
            s.spawn(move || {
                for narrow in NARROW_PHASES {
                    for resolution in RESOLUTIONS {
                        let hashes: Vec<String> = BROAD_PHASES
                            .iter()
                            .map(|broad| {
                                let json = run_json(&[
                                    scene,
                                    "--steps",
                                    "20",
                                    "--algorithm",
                                    narrow,
                                    "--broad-phase",
                                    broad,
                                    "--resolution",
                                    resolution,
                                ]);
                                assert_eq!(json["steps"], 20);
                                assert_eq!(json["settings"]["narrow_phase"], narrow);
                                assert_eq!(json["settings"]["broad_phase"], *broad);
                                assert_eq!(json["settings"]["resolution"], resolution);
                                assert_eq!(json["counters"]["bodies_removed"], 0, "{scene}");
                                hash(&json)
                            })
                            .collect();
                        assert!(
                            hashes.iter().all(|h| *h == hashes[0]),
                            "{scene}, {narrow}, {resolution}: {hashes:?}"
                        );
                    }
                }
            });
        }
    });
}

#[test]
fn two_runs_give_the_same_hash_and_racing_does_not_change_it() {
    let first = run_json(&["scenes/default.ron", "--steps", "60"]);
    let second = run_json(&["scenes/default.ron", "--steps", "60"]);
    let racing = run_json(&["scenes/default.ron", "--steps", "60", "--race"]);
    assert_eq!(hash(&first), hash(&second));
    assert_eq!(hash(&first), hash(&racing));
    assert_eq!(hash(&first).len(), 16, "64 bits in hex");
    assert!(u64::from_str_radix(&hash(&first), 16).is_ok());
    // More steps, another state.
    assert_ne!(hash(&first), hash(&run_json(&["scenes/default.ron", "--steps", "61"])));
}

#[test]
fn the_json_has_the_documented_fields() {
    // A second: the bodies start apart and take a moment to reach the ground.
    let json = run_json(&["scenes/default.ron", "--steps", "60", "--race"]);
    assert_eq!(json["scene"], "scenes/default.ron");
    assert_eq!(json["bodies"], 32);
    assert_eq!(json["steps"], 60);
    assert_eq!(json["rate_hz"], 60.0);
    assert!((json["dt_s"].as_f64().expect("dt") - 1.0 / 60.0).abs() < 1e-6);
    for field in [
        "narrow_phase",
        "broad_phase",
        "resolution",
        "substeps",
        "velocity_iterations",
        "relax_iterations",
        "projection_iterations",
    ] {
        assert!(!json["settings"][field].is_null(), "settings.{field}");
    }
    for phase in ["broad", "narrow", "resolution", "integration", "total"] {
        for stat in ["mean", "median"] {
            let ms = json["phases_ms"][phase][stat].as_f64();
            assert!(ms.is_some_and(|ms| ms >= 0.0), "phases_ms.{phase}.{stat}: {ms:?}");
        }
    }
    for counter in [
        "candidate_pairs",
        "contacts",
        "nv",
        "np",
        "gjk_iterations",
        "epa_iterations",
    ] {
        assert!(json["counters"][counter].is_f64(), "counters.{counter}");
    }
    assert!(json["counters"]["bodies_removed"].is_u64());
    assert!(json["counters"]["candidate_pairs"].as_f64().expect("pairs") > 0.0);

    let race = &json["race"];
    assert_eq!(race["chosen"], "SatDecomposed", "the scene's narrow phase");
    let algorithms = race["algorithms"].as_array().expect("algorithms");
    assert_eq!(algorithms.len(), 3);
    for (entry, name) in algorithms.iter().zip(NARROW_PHASES) {
        assert_eq!(entry["algorithm"], name);
        assert!(entry["queries"].as_u64().expect("queries") > 0, "{name}");
        assert!(entry["narrow_ms_total"].as_f64().expect("time") > 0.0, "{name}");
        for field in [
            "narrow_ms_mean",
            "intersecting",
            "nv",
            "np",
            "gjk_iterations",
            "epa_iterations",
        ] {
            assert!(!entry[field].is_null(), "{name}.{field}");
        }
        for kind in ["intersect", "normal", "depth"] {
            assert!(entry["disagreements"][kind].is_u64(), "{name}.disagreements.{kind}");
        }
    }
    assert_eq!(
        algorithms[1]["disagreements"]["intersect"], 0,
        "the chosen one never disagrees"
    );
    // Against the exact answer every algorithm is counted, the chosen one too, and the
    // heuristic is wrong most often.
    let checked = race["exact_checked"].as_u64().expect("exact_checked");
    assert!(checked > 0);
    let wrong: Vec<u64> = algorithms
        .iter()
        .map(|a| a["wrong_by_exact"].as_u64().expect("wrong_by_exact"))
        .collect();
    assert!(wrong.iter().all(|&n| n <= checked), "{wrong:?} of {checked}");
    assert!(wrong[0] > wrong[1] && wrong[0] > wrong[2], "{wrong:?}");
    // Without --race there is no race.
    assert!(run_json(&["scenes/default.ron", "--steps", "1"])["race"].is_null());
}

#[test]
fn the_table_names_every_phase_counter_and_the_hash() {
    let o = run(&["run", "scenes/default.ron", "--steps", "10", "--race"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    for word in [
        "broad",
        "narrow",
        "resolution",
        "integration",
        "total",
        "mean ms/step",
        "median ms/step",
        "candidate pairs",
        "contacts",
        "Nv",
        "Np",
        "GJK iterations",
        "EPA iterations",
        "bodies removed",
        "race",
        "NonConvexSat",
        "GjkEpa",
        "final state hash",
    ] {
        assert!(text.contains(word), "{word} missing from:\n{text}");
    }
    let json = run_json(&["scenes/default.ron", "--steps", "10"]);
    assert!(text.contains(&hash(&json)), "the same hash in the table:\n{text}");
}

#[test]
fn save_final_writes_a_scene_that_loads_and_continues() {
    let dir = temp_dir("save");
    let out = dir.join("final.ron");
    let out_str = out.to_str().expect("utf-8 path");
    let json = run_json(&[
        "scenes/default.ron",
        "--steps",
        "30",
        "--broad-phase",
        "SpatialHash",
        "--save-final",
        out_str,
    ]);
    let saved = collision_lab::scene::load(&out).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(saved.len(), json["bodies"].as_u64().expect("bodies") as usize);
    // The options the run used are the saved settings.
    assert_eq!(
        saved.def().settings.broad_phase,
        collision_lab::broad::BroadPhaseKind::SpatialHash
    );
    // The bodies moved: the saved state is the final one, not the initial.
    let initial = collision_lab::scene::load("scenes/default.ron").expect("loads");
    assert_ne!(saved.def().bodies, initial.def().bodies);
    // The saved scene runs too.
    run_json(&[out_str, "--steps", "5"]);
    let leftovers: Vec<_> = std::fs::read_dir(&dir).expect("dir").collect();
    assert_eq!(leftovers.len(), 1, "no temporary files left behind");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_scene_settings_are_used_and_options_override_them() {
    let dir = temp_dir("settings");
    let path = dir.join("settings.ron");
    std::fs::write(
        &path,
        "(version: 1, settings: (narrow_phase: GjkEpa, broad_phase: BruteForce, resolution: Projection, \
         rate: 120.0, substeps: 2, velocity_iterations: 3),\n\
         bodies: [(kind: Static, shape: Polygon(points: [(-5, -1), (5, -1), (5, 0), (-5, 0)])),\n\
         (shape: Circle(radius: 0.5), position: (0.0, 2.0))])\n",
    )
    .expect("write");
    let path = path.to_str().expect("utf-8 path");
    let json = run_json(&[path, "--steps", "3"]);
    assert_eq!(json["rate_hz"], 120.0);
    assert!((json["dt_s"].as_f64().expect("dt") - 1.0 / 120.0).abs() < 1e-7);
    assert_eq!(json["settings"]["narrow_phase"], "GjkEpa");
    assert_eq!(json["settings"]["broad_phase"], "BruteForce");
    assert_eq!(json["settings"]["resolution"], "Projection");
    assert_eq!(json["settings"]["substeps"], 2);
    assert_eq!(json["settings"]["velocity_iterations"], 3);
    let json = run_json(&[
        path,
        "--steps",
        "3",
        "--algorithm",
        "nonconvexsat",
        "--broad-phase",
        "SweepAndPrune",
        "--resolution",
        "Impulses",
    ]);
    assert_eq!(json["settings"]["narrow_phase"], "NonConvexSat");
    assert_eq!(json["settings"]["broad_phase"], "SweepAndPrune");
    assert_eq!(json["settings"]["resolution"], "Impulses");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_options_and_bad_scenes_exit_1() {
    for args in [
        &["run", "scenes/default.ron", "--algorithm", "Quadtree"][..],
        &["run", "scenes/default.ron", "--broad-phase", "Octree"],
        &["run", "scenes/default.ron", "--resolution", "Springs"],
        &["run", "scenes/default.ron", "--steps", "0"],
        &["run", "scenes/default.ron", "--steps", "many"],
        &["run", "scenes/default.ron", "--no-such-option"],
        &["run"],
        &["run", "scenes/no-such-scene.ron"],
    ] {
        let o = run(args);
        assert_eq!(o.status.code(), Some(1), "{args:?}");
        assert!(!stderr(&o).is_empty(), "{args:?}");
        assert!(stdout(&o).is_empty(), "{args:?}");
    }

    let dir = temp_dir("bad");
    let path = dir.join("bad.ron");
    std::fs::write(&path, "(\n    version: 1,\n    settings: (substeps: 0),\n)\n").expect("write");
    let o = run(&["run", path.to_str().expect("utf-8 path")]);
    assert_eq!(o.status.code(), Some(1));
    let expected = format!("error: {}:3:26: substeps must be in 1..=64, got 0", path.display());
    assert!(stderr(&o).contains(&expected), "{}", stderr(&o));

    // A save that cannot happen (the target is a directory) is an error too.
    let o = run(&[
        "run",
        "scenes/minimal.ron",
        "--steps",
        "1",
        "--save-final",
        dir.to_str().expect("utf-8 path"),
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    assert!(stderr(&o).contains("cannot save"), "{}", stderr(&o));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn run_has_help() {
    let o = run(&["run", "--help"]);
    assert!(o.status.success());
    let text = stdout(&o);
    for option in [
        "--steps",
        "--algorithm",
        "--broad-phase",
        "--resolution",
        "--race",
        "--save-final",
        "--json",
        "SweepAndPrune",
        "Projection",
    ] {
        assert!(text.contains(option), "{option} missing from:\n{text}");
    }
}

/// `run --save-final` over a lesson scene dropped its `lesson` block.
#[test]
fn regression_save_final_dropped_the_lesson_block() {
    let dir = temp_dir("lesson");
    let out = dir.join("lesson.ron");
    let out_str = out.to_str().expect("utf-8 path");
    run_json(&[
        "scenes/lessons/02_sat_mtv.ron",
        "--steps",
        "10",
        "--save-final",
        out_str,
    ]);
    let loaded = collision_lab::scene::load("scenes/lessons/02_sat_mtv.ron").expect("loads");
    let saved = collision_lab::scene::load(&out).unwrap_or_else(|e| panic!("{e}"));
    assert!(loaded.def().lesson.is_some());
    assert_eq!(saved.def().lesson, loaded.def().lesson);
    // Saving the saved scene over itself keeps it again.
    run_json(&[out_str, "--steps", "10", "--save-final", out_str]);
    let again = collision_lab::scene::load(&out).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(again.def().lesson, loaded.def().lesson);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A static body saved after a run moved from (0.3, 0.7) to (0.3, 0.70000005): the
/// world keeps the centre of mass, and the origin recomputed from it rounds.
#[test]
fn regression_a_static_body_moved_from_0_7_to_0_70000005_when_saved() {
    let dir = temp_dir("static");
    let scene = dir.join("scene.ron");
    std::fs::write(
        &scene,
        "(version: 1, bodies: [\n\
         (name: \"ledge\", kind: Static, shape: Polygon(points: [(0.1, 0.1), (2.3, 0.1), (2.3, 0.45), (0.1, 0.45)]), position: (0.3, 0.7), angle: 0.3),\n\
         (name: \"far\", kind: Static, shape: Polygon(points: [(9000.0, 0.0), (9001.0, 0.0), (9001.0, 1.0)]), position: (-9000.3, 0.7)),\n\
         (shape: Circle(radius: 0.25), position: (1.0, 3.0)),\n\
         ])\n",
    )
    .expect("write");
    let out = dir.join("final.ron");
    run_json(&[
        scene.to_str().expect("utf-8 path"),
        "--steps",
        "60",
        "--save-final",
        out.to_str().expect("utf-8 path"),
    ]);
    let loaded = collision_lab::scene::load(&scene).expect("loads");
    let saved = collision_lab::scene::load(&out).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(saved.def().bodies[0], loaded.def().bodies[0]);
    assert_eq!(saved.def().bodies[1], loaded.def().bodies[1]);
    // The ball fell: it is saved where the world has it.
    assert_ne!(saved.def().bodies[2].position, loaded.def().bodies[2].position);
    let text = std::fs::read_to_string(&out).expect("saved");
    assert!(text.contains("position: (0.3, 0.7)"), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// When the save failed the run's results were not printed at all.
#[test]
fn regression_a_failed_save_hid_the_results() {
    let dir = temp_dir("failed-save");
    let o = run(&[
        "run",
        "scenes/minimal.ron",
        "--steps",
        "5",
        "--json",
        "--save-final",
        &format!("{}/missing/final.ron", dir.display()),
    ]);
    assert_eq!(o.status.code(), Some(1));
    let json: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("the results, as JSON");
    assert_eq!(json["steps"], 5);
    let err = stderr(&o);
    assert!(err.starts_with("error: "), "{err}");
    assert!(err.contains("cannot save: the folder"), "{err}");
    assert!(err.contains("missing does not exist"), "{err}");

    let o = run(&[
        "run",
        "scenes/minimal.ron",
        "--steps",
        "5",
        "--save-final",
        &format!("{}/", dir.display()),
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stdout(&o).contains("final state hash"), "{}", stdout(&o));
    assert!(
        stderr(&o).contains("is a directory; give a file name"),
        "{}",
        stderr(&o)
    );
    let _ = std::fs::remove_dir_all(&dir);
}
