//! `collision-lab bench` runs end to end on a tiny workload and writes a well-formed
//! Markdown table, CSV and SVG. No timing is asserted: only that the numbers exist.

use std::process::Command;

#[test]
fn bench_quick_writes_table_csv_and_svg() {
    let dir = std::env::temp_dir().join(format!("collision-lab-bench-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let out = Command::new(env!("CARGO_BIN_EXE_collision-lab"))
        .args([
            "bench",
            "--quick",
            "--families",
            "comb",
            "--vertices",
            "8,16",
            "--pairs",
            "2",
        ])
        .args(["--distances", "-0.01,0.01", "--no-progress", "--out-dir"])
        .arg(&dir)
        .output()
        .expect("the binary runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );

    // Markdown: the Fig. 3 table with one row for the family, every method named.
    assert!(stdout.contains("## Fig. 3"), "{stdout}");
    assert!(stdout.lines().any(|l| l.starts_with("| comb |")), "{stdout}");
    for method in [
        "NonConvexSat",
        "NonConvexSat+tree",
        "SatDecomposed",
        "GjkEpa",
        "parry2d",
    ] {
        assert!(
            stdout.contains(&format!("| comb | 8 | {method} |")),
            "{method}\n{stdout}"
        );
    }
    assert!(stdout.contains("T = Nv·Cv + Np·Cp"), "{stdout}");

    // CSV: header plus 2 counts × 2 distances × 5 methods, every line the same width.
    let csv = std::fs::read_to_string(dir.join("results.csv")).expect("results.csv");
    let lines: Vec<&str> = csv.lines().collect();
    let columns = lines[0].split(',').count();
    assert!(lines[0].starts_with("family,vertices,distance,method"), "{}", lines[0]);
    assert_eq!(lines.len(), 1 + 2 * 2 * 5, "{csv}");
    for line in &lines[1..] {
        assert_eq!(line.split(',').count(), columns, "{line}");
        assert!(line.starts_with("comb,"), "{line}");
        let median_ns: f64 = line.split(',').nth(6).unwrap().parse().expect("median_ns is a number");
        assert!(median_ns >= 0.0);
    }

    // SVG: one document, bars and the legend.
    let svg = std::fs::read_to_string(dir.join("fig3.svg")).expect("fig3.svg");
    assert!(
        svg.trim_start().starts_with("<svg") && svg.trim_end().ends_with("</svg>"),
        "{svg}"
    );
    assert!(svg.matches("<rect").count() >= 5, "bars");
    assert!(svg.contains("GjkEpa") && svg.contains("comb"), "legend and labels");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bench_rejects_an_unknown_family() {
    let out = Command::new(env!("CARGO_BIN_EXE_collision-lab"))
        .args(["bench", "--families", "blob"])
        .output()
        .expect("the binary runs");
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("blob"));
}

/// `bench --big-curve` times every tree with every node volume, says whether all agree
/// with no tree, and fits the cost model per volume. No timing is asserted.
#[test]
fn big_curve_has_rows_for_every_node_volume() {
    let dir = std::env::temp_dir().join(format!("collision-lab-curve-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let out = Command::new(env!("CARGO_BIN_EXE_collision-lab"))
        .args([
            "bench",
            "--quick",
            "--families",
            "comb",
            "--vertices",
            "8",
            "--pairs",
            "1",
        ])
        .args(["--big-curve", "--curve-vertices", "16,64", "--no-progress", "--out-dir"])
        .arg(&dir)
        .output()
        .expect("the binary runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for volume in ["AABB", "circle", "OBB", "8-DOP"] {
        assert!(
            stdout.contains(&format!("NonConvexSat, {volume} tree")),
            "{volume}: {stdout}"
        );
        assert!(
            stdout.contains(&format!("exact overlap, {volume} piece tree")),
            "{volume}"
        );
        assert!(
            stdout.lines().any(|l| l.starts_with(&format!("| {volume} |"))),
            "a cost-model row for {volume}: {stdout}"
        );
    }
    // The three algorithms at a shallow overlap, as the world calls them (under 1 ms is the aim).
    for algorithm in ["NonConvexSat", "SatDecomposed", "GjkEpa"] {
        assert!(
            stdout.contains(&format!("{algorithm}, shallow")),
            "{algorithm}: {stdout}"
        );
    }
    // Every row: all trees agree with no tree.
    let rows: Vec<&str> = stdout
        .lines()
        .filter(|l| l.starts_with("| gear |") || l.starts_with("| coastline |"))
        .collect();
    assert_eq!(rows.len(), 4, "{stdout}");
    assert!(rows.iter().all(|r| r.trim_end().ends_with("| yes |")), "{rows:?}");
    let csv = std::fs::read_to_string(dir.join("tree_curve.csv")).expect("the curve's CSV");
    for volume in ["AABB", "circle", "OBB", "8-DOP"] {
        assert!(
            csv.lines().filter(|l| l.contains(&format!(",{volume},"))).count() >= 8,
            "{volume}: {csv}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bench_big_load_and_big_query_print_their_tables() {
    let run = |args: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_collision-lab"))
            .arg("bench")
            .args(args)
            .output()
            .expect("the binary runs");
        let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
        assert!(
            out.status.success(),
            "{stdout}\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
        stdout
    };
    let load = run(&[
        "--big-load",
        "--families",
        "comb,star",
        "--load-vertices",
        "500",
        "--no-progress",
    ]);
    assert!(load.contains("## Loading big polygons"), "{load}");
    assert!(load.lines().any(|l| l.starts_with("| comb | 500 |")), "{load}");
    assert!(load.lines().any(|l| l.starts_with("| star | 500 |")), "{load}");

    let query = run(&[
        "--big-query",
        "--families",
        "comb",
        "--query-vertices",
        "100",
        "--no-progress",
    ]);
    assert!(query.contains("## One query on big polygons"), "{query}");
    for algorithm in ["NonConvexSat", "SatDecomposed", "GjkEpa"] {
        assert!(
            query.contains(&format!("| box 0.2 m | {algorithm} |")),
            "{algorithm}\n{query}"
        );
        assert!(
            query.contains(&format!("| comb 100 | {algorithm} |")),
            "{algorithm}\n{query}"
        );
    }
}
