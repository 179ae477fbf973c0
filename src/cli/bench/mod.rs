//! `collision-lab bench`: Fayzrakhmanov et al.'s (2015) Fig. 3 (NonConvexSat against SAT and GJK/EPA over a
//! convex decomposition) reproduced on shape families at fixed distances (Liu et al.'s (2018)
//! protocol), with parry2d as an external reference, accuracy against an exact oracle,
//! and — past the paper — the time of NonConvexSat and the exact overlap test up to
//! 10,000 vertices with and without bounding-volume trees.
//!
//! - `workload.rs`: shape sets and pairs placed at a signed distance by bisection.
//! - `measure.rs`: the methods, timing in batches, accuracy per pair.
//! - `report.rs`: per-workload rows, Markdown, CSV, the cost-model fit.
//! - `big_curve.rs`: the tree curve, and the three algorithms at a shallow overlap up to
//!   10,000 vertices.
//! - `big_load.rs`: `--big-load`, the load time of big polygons stage by stage.
//! - `big_query.rs`: `--big-query`, one query on big polygons at shallow overlap.
//! - `svg.rs`: the two charts (plotters, SVG backend).
//!
//! parry2d is used here only: the core library does not depend on it.

mod big_curve;
mod big_load;
mod big_query;
mod measure;
mod redraw;
mod report;
mod svg;
mod workload;

use super::CliError;
use clap::Args;
use collision_lab::geometry::families::{Family, SplitMix64};
use indicatif::{ProgressBar, ProgressStyle};
use measure::{Method, ParryShapes};
use std::io::Write;
use std::path::{Path, PathBuf};

/// The families of the paper's comparison (the coastline joins them on the tree curve).
const DEFAULT_FAMILIES: [Family; 8] = [
    Family::Star,
    Family::Comb,
    Family::Gear,
    Family::LShape,
    Family::UShape,
    Family::Spiral,
    Family::Random,
    Family::Convex,
];
const DEFAULT_VERTICES: [usize; 6] = [8, 16, 32, 64, 128, 256];
const QUICK_VERTICES: [usize; 3] = [8, 32, 128];
const DEFAULT_DISTANCES: [f32; 4] = [-0.02, -0.01, 0.0, 0.01];
const DEFAULT_CURVE: [usize; 9] = [16, 32, 64, 128, 256, 1000, 2500, 5000, 10000];
const QUICK_CURVE: [usize; 5] = [16, 64, 256, 1000, 2500];

/// Arguments of `bench`.
#[derive(Debug, Args)]
pub struct BenchArgs {
    /// A run under a minute: vertex counts 8, 32, 128, 4 pairs per workload, shorter
    /// timing batches; the tree curve (with --big-curve) stops at 2500 vertices
    #[arg(long)]
    quick: bool,
    /// Shape families, comma-separated [default: star,comb,gear,l,u,spiral,random,convex]
    #[arg(
        long,
        value_name = "FAMILY,..",
        value_delimiter = ',',
        ignore_case = true,
        value_parser = super::named_choice::<Family, _>(Family::ALL.map(Family::name))
    )]
    families: Vec<Family>,
    /// Vertex counts, comma-separated [default: 8,16,32,64,128,256]
    #[arg(long, value_name = "N,..", value_delimiter = ',')]
    vertices: Vec<usize>,
    /// Signed distances as fractions of the shape size (negative: penetration depth)
    /// [default: -0.02,-0.01,0,0.01]
    #[arg(long, value_name = "D,..", value_delimiter = ',', allow_hyphen_values = true)]
    distances: Vec<f32>,
    /// Pairs (random poses) per workload [default: 24, or 4 with --quick]
    #[arg(long, value_name = "N")]
    pairs: Option<usize>,
    /// Seed of the shapes and poses
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Directory for the CSV and SVG files (created if missing)
    #[arg(long, value_name = "DIR", default_value = "bench")]
    out_dir: PathBuf,
    /// Where to write the CSV [default: OUT_DIR/results.csv]
    #[arg(long, value_name = "PATH")]
    csv: Option<PathBuf>,
    /// Where to write the Fig. 3 chart [default: OUT_DIR/fig3.svg]
    #[arg(long, value_name = "PATH")]
    svg: Option<PathBuf>,
    /// Also time NonConvexSat and the exact overlap test up to 10,000 vertices with and
    /// without the bounding-volume trees, and all three algorithms at a shallow overlap
    /// (OUT_DIR/tree_curve.csv and .svg)
    #[arg(long)]
    big_curve: bool,
    /// Vertex counts of the tree curve [default: 16,32,64,128,256,1000,2500,5000,10000]
    #[arg(long, value_name = "N,..", value_delimiter = ',')]
    curve_vertices: Vec<usize>,
    /// Only time loading big polygons, stage by stage (validation, triangulation,
    /// merging, pieces, trees, mass, a one-body scene file), and print that table.
    /// --families picks the shapes [default: star,comb,coastline]
    #[arg(long)]
    big_load: bool,
    /// Vertex counts of --big-load [default: 10000,30000,100000]
    #[arg(long, value_name = "N,..", value_delimiter = ',')]
    load_vertices: Vec<usize>,
    /// Only time one query of each algorithm between a big polygon and a box, and
    /// between two big polygons, at shallow overlap, and print that table. --families
    /// picks the shapes [default: star,comb,coastline]
    #[arg(long, conflicts_with = "big_load")]
    big_query: bool,
    /// Vertex counts of --big-query [default: 1000,10000]
    #[arg(long, value_name = "N,..", value_delimiter = ',')]
    query_vertices: Vec<usize>,
    /// Only draw the Fig. 3 chart again from a results CSV a run wrote (to --svg, or
    /// OUT_DIR/fig3.svg); nothing is measured
    #[arg(long, value_name = "CSV", conflicts_with_all = ["big_load", "big_query"])]
    redraw: Option<PathBuf>,
    /// No progress bar
    #[arg(long)]
    no_progress: bool,
}

fn write_file(path: &Path, contents: &str) -> Result<(), CliError> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)?;
    }
    std::fs::write(path, contents)?;
    Ok(())
}

/// Runs the benchmark: Markdown on stdout, CSV and SVG files, progress on stderr.
pub fn run(args: &BenchArgs) -> Result<(), CliError> {
    if args.big_load {
        return run_big_load(args);
    }
    if args.big_query {
        return run_big_query(args);
    }
    if let Some(csv) = &args.redraw {
        let svg = args.svg.clone().unwrap_or_else(|| args.out_dir.join("fig3.svg"));
        return redraw::run_redraw(csv, &svg);
    }
    let families: Vec<Family> = if args.families.is_empty() {
        DEFAULT_FAMILIES.to_vec()
    } else {
        args.families.clone()
    };
    let vertices: Vec<usize> = match (&args.vertices[..], args.quick) {
        ([], true) => QUICK_VERTICES.to_vec(),
        ([], false) => DEFAULT_VERTICES.to_vec(),
        (v, _) => v.to_vec(),
    };
    let distances: Vec<f32> = if args.distances.is_empty() {
        DEFAULT_DISTANCES.to_vec()
    } else {
        args.distances.clone()
    };
    let pairs = args.pairs.unwrap_or(if args.quick { 4 } else { 24 }).max(1);
    let batch_ns = if args.quick { 2e4 } else { 2e5 };
    let curve_counts: Vec<usize> = match (&args.curve_vertices[..], args.quick) {
        ([], true) => QUICK_CURVE.to_vec(),
        ([], false) => DEFAULT_CURVE.to_vec(),
        (v, _) => v.to_vec(),
    };
    let csv_path = args.csv.clone().unwrap_or_else(|| args.out_dir.join("results.csv"));
    let svg_path = args.svg.clone().unwrap_or_else(|| args.out_dir.join("fig3.svg"));

    let workloads = (families.len() * vertices.len() * distances.len()) as u64;
    let curve_steps = if args.big_curve {
        (big_curve::CURVE_FAMILIES.len() * curve_counts.len() * big_curve::Query::ALL.len()) as u64
    } else {
        0
    };
    let bar = if args.no_progress {
        ProgressBar::hidden()
    } else {
        ProgressBar::new(workloads + curve_steps)
    };
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} [{elapsed_precise}] {msg}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );

    let mut rows = Vec::new();
    let mut unplaced = Vec::new();
    let mut worst_placement = 0.0f32;
    let mut rng = SplitMix64::new(args.seed);
    for &family in &families {
        for &n in &vertices {
            let set = workload::ShapeSet::new(family, n, args.seed).map_err(CliError::Bench)?;
            let parry = ParryShapes::new(&set);
            for &d in &distances {
                bar.set_message(format!("{family} {n} vertices, distance {d:+}"));
                let placed = workload::place_pairs(&set, d, pairs, &mut rng);
                if placed.len() < pairs {
                    unplaced.push(format!("{family}/{n}/{d:+}: {} of {pairs} placed", placed.len()));
                }
                if placed.is_empty() {
                    bar.inc(1);
                    continue;
                }
                for p in &placed {
                    worst_placement = worst_placement.max((p.exact.signed_distance - d * workload::SHAPE_SIZE_M).abs());
                }
                let exact: Vec<bool> = placed.iter().map(|p| p.exact.intersect).collect();
                for method in Method::ALL {
                    let outcomes = measure::measure(method, &set, &parry, &placed, batch_ns);
                    rows.push(report::summarise(
                        family,
                        n,
                        d,
                        method,
                        set.mean_pieces(),
                        &outcomes,
                        &exact,
                    ));
                }
                bar.inc(1);
            }
        }
    }

    let curve = if args.big_curve {
        let points = big_curve::run(&curve_counts, args.seed, |msg| {
            bar.set_message(msg.to_string());
            bar.inc(1);
        })
        .map_err(CliError::Bench)?;
        Some(points)
    } else {
        None
    };
    bar.finish_and_clear();

    let methods = Method::ALL;
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    writeln!(out, "# collision-lab bench\n")?;
    writeln!(
        out,
        "Families: {}; vertices: {}; distances (fraction of the 1 m shape size): {}; {pairs} pairs per \
         workload (random poses, placed by bisection on the exact signed distance); seed {}; {}.\n",
        families.iter().map(|f| f.name()).collect::<Vec<_>>().join(", "),
        vertices.iter().map(|n| n.to_string()).collect::<Vec<_>>().join(", "),
        distances
            .iter()
            .map(|d| format!("{d:+}"))
            .collect::<Vec<_>>()
            .join(", "),
        args.seed,
        if args.quick { "quick run" } else { "full run" },
    )?;
    writeln!(
        out,
        "Placement reached every target signed distance within {:.1e} m.\n",
        worst_placement
    )?;
    if !unplaced.is_empty() {
        writeln!(out, "Pairs not placed in 40 poses: {}.\n", unplaced.join("; "))?;
    }
    write!(out, "{}", report::markdown(&rows, &families, &methods))?;

    write_file(&csv_path, &report::csv(&rows))?;
    let means = report::fig3_means(&rows, &families, &methods);
    let title = format!(
        "Mean time per pair, {pairs} pairs x {} distances per workload",
        distances.len()
    );
    let chart = svg::fig3(&means, &families, &methods, &title).map_err(CliError::Bench)?;
    write_file(&svg_path, &chart)?;
    writeln!(out, "\nWrote {} and {}.", csv_path.display(), svg_path.display())?;

    if let Some(points) = curve {
        writeln!(out, "\n{}", big_curve::markdown(&points))?;
        let curve_csv = args.out_dir.join("tree_curve.csv");
        let curve_svg = args.out_dir.join("tree_curve.svg");
        write_file(&curve_csv, &big_curve::csv(&points))?;
        let lines: Vec<svg::Curve> = big_curve::CURVE_FAMILIES
            .iter()
            .enumerate()
            .flat_map(|(fi, &family)| {
                let points = &points;
                big_curve::Query::ALL
                    .into_iter()
                    .enumerate()
                    .map(move |(qi, q)| svg::Curve {
                        label: format!("{family}: {}", q.name()),
                        colour: qi,
                        dashed: fi == 1,
                        points: points
                            .iter()
                            .filter(|p| p.family == family && p.query == q)
                            .filter_map(|p| Some((p.vertices as f64, p.ns?)))
                            .collect(),
                    })
            })
            .collect();
        let chart = svg::curve(
            &lines,
            "Time per query against vertex count, with and without the trees",
        )
        .map_err(CliError::Bench)?;
        write_file(&curve_svg, &chart)?;
        writeln!(out, "Wrote {} and {}.", curve_csv.display(), curve_svg.display())?;
    }
    out.flush()?;
    Ok(())
}

/// `--big-load`: the load-time table only.
fn run_big_load(args: &BenchArgs) -> Result<(), CliError> {
    let families: Vec<Family> = if args.families.is_empty() {
        big_load::DEFAULT_FAMILIES.to_vec()
    } else {
        args.families.clone()
    };
    let counts: Vec<usize> = if args.load_vertices.is_empty() {
        big_load::DEFAULT_VERTICES.to_vec()
    } else {
        args.load_vertices.clone()
    };
    let bar = if args.no_progress {
        ProgressBar::hidden()
    } else {
        ProgressBar::new((families.len() * counts.len()) as u64)
    };
    let rows = big_load::run(&families, &counts, args.seed, |msg| {
        bar.set_message(msg.to_string());
        bar.inc(1);
    })
    .map_err(CliError::Bench)?;
    bar.finish_and_clear();
    let mut out = std::io::stdout().lock();
    writeln!(out, "# collision-lab bench --big-load\n")?;
    write!(out, "{}", big_load::markdown(&rows))?;
    out.flush()?;
    Ok(())
}

/// `--big-query`: the big-polygon query table only.
fn run_big_query(args: &BenchArgs) -> Result<(), CliError> {
    let families: Vec<Family> = if args.families.is_empty() {
        big_load::DEFAULT_FAMILIES.to_vec()
    } else {
        args.families.clone()
    };
    let counts: Vec<usize> = if args.query_vertices.is_empty() {
        big_query::DEFAULT_VERTICES.to_vec()
    } else {
        args.query_vertices.clone()
    };
    // Rows are printed as they are measured, no progress bar.
    let mut out = std::io::stdout().lock();
    writeln!(out, "# collision-lab bench --big-query\n")?;
    write!(out, "{}", big_query::header())?;
    out.flush()?;
    big_query::run(&families, &counts, args.seed, |row| {
        let _ = write!(out, "{}", big_query::markdown_row(row));
        let _ = out.flush();
    })
    .map_err(CliError::Bench)?;
    Ok(())
}
