//! The `collision-lab` binary, run as a user would.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

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

fn temp_file(name: &str, contents: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("collision-lab-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join(name);
    std::fs::write(&path, contents).expect("write");
    path
}

#[test]
fn help_lists_the_commands_and_the_sandbox() {
    let o = run(&["--help"]);
    assert!(o.status.success());
    let text = stdout(&o);
    assert!(text.contains("Usage: collision-lab"), "{text}");
    assert!(text.contains("contacts"), "{text}");
    assert!(text.contains("render"), "{text}");
    assert!(text.contains("sandbox"), "{text}");
}

/// With no arguments the sandbox window opens; with no display to open it on, the user
/// gets a sentence saying so and what to do, not a panic.
#[test]
fn no_arguments_without_a_display_says_why_the_window_cannot_open() {
    let o = Command::new(env!("CARGO_BIN_EXE_collision-lab"))
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .output()
        .expect("runs");
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("no display") && err.contains("xvfb-run"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
}

/// A bad scene given to the window commands is reported with its position; the window
/// would then open on the default scene (tests/window.rs), here there is no display to
/// open it on. The headless commands keep failing on it with status 1.
#[test]
#[cfg(feature = "sandbox")]
fn a_bad_scene_is_reported_by_open_and_fails_contacts_and_run() {
    let path = temp_file("bad_open.ron", "(version: 1, bodies: [(shape: Circle(radius: -1.0))])");
    let p = path.to_str().expect("utf-8 path");
    let o = Command::new(env!("CARGO_BIN_EXE_collision-lab"))
        .args(["open", p, "--exit-after", "1"])
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .output()
        .expect("runs");
    let err = stderr(&o);
    assert!(
        err.contains("bad_open.ron:1:") && err.contains("default scene"),
        "{err}"
    );
    assert!(err.contains("no display"), "{err}");
    for command in ["contacts", "run"] {
        let o = run(&[command, p]);
        assert_eq!(o.status.code(), Some(1), "{command}");
        assert!(stderr(&o).contains("bad_open.ron:1:"), "{command}: {}", stderr(&o));
    }
    let help = stdout(&run(&["open", "--help"]));
    assert!(
        help.contains("--exit-after") && help.contains("--frame-stats"),
        "{help}"
    );
}

#[test]
fn every_command_has_help() {
    for args in [
        &["--help"][..],
        &["help"],
        &["contacts", "--help"],
        &["help", "contacts"],
    ] {
        let o = run(args);
        assert!(o.status.success(), "{args:?}: {}", stderr(&o));
        assert!(stdout(&o).contains("Usage:"), "{args:?}");
    }
    let text = stdout(&run(&["contacts", "--help"]));
    for option in [
        "--algorithm",
        "--all-pairs",
        "--json",
        "--work",
        "NonConvexSat",
        "SatDecomposed",
        "GjkEpa",
    ] {
        assert!(text.contains(option), "{option} missing from:\n{text}");
    }
}

#[test]
fn a_bad_scene_exits_1_with_its_position() {
    let path = temp_file(
        "bad.ron",
        "(\n    version: 1,\n    bodies: [\n        (shape: Circle(radius: -1.0)),\n    ],\n)\n",
    );
    let o = run(&["contacts", path.to_str().expect("utf-8 path")]);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    let expected = format!("{}:4:32: body 0: the radius must be positive", path.display());
    assert!(err.contains(&expected), "{err}");
    assert!(stdout(&o).is_empty());
}

#[test]
fn usage_errors_exit_1() {
    for args in [
        &["contacts"][..],
        &["contacts", "scenes/minimal.ron", "--algorithm", "Quadtree"],
        &["contacts", "no/such/scene.ron"],
        &["frobnicate"],
    ] {
        let o = run(args);
        assert_eq!(o.status.code(), Some(1), "{args:?}");
        assert!(!stderr(&o).is_empty(), "{args:?}");
    }
}

/// Runs `contacts --json` and parses every line.
fn json_lines(scene: &Path, extra: &[&str]) -> Vec<(String, serde_json::Value)> {
    let mut args = vec!["contacts", scene.to_str().expect("utf-8 path"), "--json"];
    args.extend(extra);
    let o = run(&args);
    assert!(o.status.success(), "{}", stderr(&o));
    stdout(&o)
        .lines()
        .map(|line| {
            let value = serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}"));
            (line.to_string(), value)
        })
        .collect()
}

const FIELDS: [&str; 9] = [
    "a",
    "b",
    "algorithm",
    "intersect",
    "mtv",
    "normal",
    "depth",
    "points",
    "ns",
];

/// Needs the merged narrow phase.
#[test]
fn json_lines_have_exactly_the_documented_fields() {
    let lines = json_lines(
        Path::new("scenes/convex_pairs.ron"),
        &["--all-pairs", "--algorithm", "GjkEpa"],
    );
    assert_eq!(lines.len(), 18 * 17 / 2);
    for (line, value) in &lines {
        let object = value.as_object().expect("an object");
        let mut keys: Vec<&str> = object.keys().map(String::as_str).collect();
        keys.sort_unstable();
        let mut expected = FIELDS.to_vec();
        expected.sort_unstable();
        assert_eq!(keys, expected, "{line}");
        // In the documented order.
        let offsets: Vec<usize> = FIELDS
            .iter()
            .map(|f| line.find(&format!("\"{f}\":")).expect("field present"))
            .collect();
        assert!(offsets.windows(2).all(|w| w[0] < w[1]), "{line}");
        assert_eq!(value["algorithm"], "GjkEpa");
        assert!(value["ns"].is_u64());
        if value["intersect"] == true {
            assert_eq!(value["mtv"].as_array().map(Vec::len), Some(2), "{line}");
            assert_eq!(value["normal"].as_array().map(Vec::len), Some(2), "{line}");
            assert!(value["depth"].as_f64().is_some_and(|d| d > 0.0), "{line}");
            assert!(
                value["points"]
                    .as_array()
                    .is_some_and(|p| !p.is_empty() && p.len() <= 2),
                "{line}"
            );
        } else {
            for field in ["mtv", "normal", "depth", "points"] {
                assert!(value[field].is_null(), "{line}");
            }
        }
    }
}

/// Needs the merged narrow phase.
#[test]
fn convex_pairs_give_the_expected_contacts_in_every_algorithm() {
    // From the comments in scenes/convex_pairs.ron: pairs 1–6 and 9 intersect; pair 7 is
    // apart and pair 8 only touches.
    let expected = [(0, 1), (2, 3), (4, 5), (6, 7), (8, 9), (10, 11), (16, 17)];
    let depths = [0.4, 0.5, 0.25, 0.2, 0.2, 0.2, 0.2];
    let normals = [
        [1.0, 0.0],
        [1.0, 0.0],
        [1.0, 0.0],
        [0.0, 1.0],
        [0.0, 1.0],
        [1.0, 0.0],
        [0.0, 1.0],
    ];
    for algorithm in ["NonConvexSat", "SatDecomposed", "GjkEpa"] {
        let lines = json_lines(Path::new("scenes/convex_pairs.ron"), &["--algorithm", algorithm]);
        let pairs: Vec<(u64, u64)> = lines
            .iter()
            .map(|(_, v)| (v["a"].as_u64().expect("a"), v["b"].as_u64().expect("b")))
            .collect();
        let expected_pairs: Vec<(u64, u64)> = expected.iter().map(|&(a, b)| (a, b)).collect();
        assert_eq!(pairs, expected_pairs, "{algorithm}");
        for (((line, v), depth), normal) in lines.iter().zip(depths).zip(normals) {
            let close = |value: &serde_json::Value, want: f64| value.as_f64().is_some_and(|x| (x - want).abs() < 1e-4);
            assert!(close(&v["depth"], depth), "{algorithm}: {line}");
            assert!(
                close(&v["normal"][0], normal[0]) && close(&v["normal"][1], normal[1]),
                "{algorithm}: {line}"
            );
            // The MTV moves A out of B: minus the normal times the depth.
            assert!(close(&v["mtv"][0], -normal[0] * depth), "{algorithm}: {line}");
            assert!(close(&v["mtv"][1], -normal[1] * depth), "{algorithm}: {line}");
        }
    }
}

/// Needs the merged narrow phase.
#[test]
fn the_table_names_bodies_and_sums_up() {
    let o = run(&["contacts", "scenes/convex_pairs.ron", "--work"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    let mut lines = text.lines();
    let header = lines.next().expect("a header");
    assert!(
        header.starts_with("A ") && header.contains("depth") && header.contains("axes"),
        "{text}"
    );
    assert!(text.contains("0 square A") && text.contains("1 square B"), "{text}");
    let summary = text.lines().last().expect("a summary");
    assert!(summary.starts_with("153 pairs tested, 7 intersecting, "), "{summary}");
    assert!(summary.contains("GjkEpa"), "the scene's own narrow phase: {summary}");
}

#[test]
fn exact_column_shows_where_nonconvex_sat_is_wrong_and_the_decompositions_are_not() {
    let o = run(&[
        "contacts",
        "scenes/nonconvex_pairs.ron",
        "--algorithm",
        "NonConvexSat",
        "--exact",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    // The hooked L shapes, the interleaved combs and the meshing gears are separated,
    // yet overlap on every edge axis.
    for pair in ["6 L hook A", "8 comb up", "16 gear A"] {
        let line = text
            .lines()
            .find(|l| l.starts_with(pair))
            .unwrap_or_else(|| panic!("{pair} missing:\n{text}"));
        assert!(line.ends_with("false positive"), "{line}");
    }
    for alg in ["SatDecomposed", "GjkEpa"] {
        let o = run(&[
            "contacts",
            "scenes/nonconvex_pairs.ron",
            "--algorithm",
            alg,
            "--exact",
            "--all-pairs",
        ]);
        let text = stdout(&o);
        for line in text.lines().skip(1).filter(|l| !l.contains("pairs tested")) {
            assert!(line.ends_with("agrees"), "{alg}: {line}");
        }
    }
}

/// `contacts --exact` printed `"intersect":true,"depth":null` for two squares that
/// overlap by less than the exact depth search's tolerance (1e-6 m here): the overlap
/// area said yes, the depth search found nothing.
#[test]
fn regression_exact_said_intersect_true_with_depth_null() {
    let path = temp_file(
        "thin.ron",
        "(version: 1, gravity: (0.0, 0.0), bodies: [\n\
         (shape: Polygon(points: [(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)])),\n\
         (shape: Polygon(points: [(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)]), position: (0.999999, 0.0)),\n\
         (shape: Polygon(points: [(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)]), position: (0.5, 0.5)),\n\
         (shape: Polygon(points: [(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)]), position: (5.0, 0.0)),\n\
         ])\n",
    );
    for alg in ["NonConvexSat", "SatDecomposed", "GjkEpa"] {
        let lines = json_lines(&path, &["--exact", "--all-pairs", "--algorithm", alg]);
        assert_eq!(lines.len(), 6);
        let mut thin = 0;
        for (line, value) in &lines {
            let exact = &value["exact"];
            let intersect = exact["intersect"].as_bool().expect("intersect");
            assert_eq!(intersect, exact["depth"].is_number(), "{line}");
            if let Some(depth) = exact["depth"].as_f64() {
                assert!(depth >= 0.0, "{line}");
                thin += usize::from(depth < 1e-5);
            }
        }
        assert!(thin >= 1, "the thin overlap is there: {lines:?}");
    }
}

/// An unterminated string said `expected a string, found "A`.
#[test]
fn regression_unterminated_string_was_called_a_missing_string() {
    let path = temp_file(
        "open.ron",
        "(version: 1, bodies: [\n    (shape: Circle(radius: 0.5)),\n    (name: \"A, shape: Circle(radius: 0.5)),\n])\n",
    );
    let o = run(&["contacts", path.to_str().expect("utf-8 path")]);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    let expected = format!(
        "error: {}:3:12: body 1: unterminated string starting at line 3, column 12",
        path.display()
    );
    assert!(err.contains(&expected), "{err}");
}
