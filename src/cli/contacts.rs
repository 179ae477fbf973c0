//! `collision-lab contacts`: every pair of a scene's bodies through one narrow phase, at
//! the bodies' initial poses, as a table or as JSON lines.

use super::CliError;
use clap::Args;
use collision_lab::geometry::{Shape, ShapeKind};
use collision_lab::math::Pose;
use collision_lab::narrow::exact::{exact_penetration, polygons_overlap};
use collision_lab::narrow::{collide, Algorithm, Contact, NarrowConfig, Work};
use collision_lab::scene::{self, Scene};
use serde::Serialize;
use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

/// Arguments of `contacts`.
#[derive(Debug, Args)]
pub struct ContactsArgs {
    /// The scene file (RON)
    #[arg(value_name = "SCENE.ron")]
    scene: PathBuf,
    /// Narrow phase to use [default: the scene's settings.narrow_phase]
    #[arg(
        long,
        value_name = "ALGORITHM",
        ignore_case = true,
        value_parser = super::named_choice::<Algorithm, _>(Algorithm::ALL.map(Algorithm::name))
    )]
    algorithm: Option<Algorithm>,
    /// Print every pair, not only the intersecting ones
    #[arg(long)]
    all_pairs: bool,
    /// Print one JSON object per line instead of a table
    #[arg(long)]
    json: bool,
    /// Also print the work of each query: bounding-volume tests, piece pairs, axes,
    /// edge tests, support calls, GJK and EPA iterations
    #[arg(long)]
    work: bool,
    /// Also compute the exact answer for polygon pairs (intersection area and the true
    /// minimum translation, by brute force) and say where the algorithm disagrees
    #[arg(long)]
    exact: bool,
}

/// One tested pair: body indices in file order, the answer, and how long it took.
struct PairResult {
    a: usize,
    b: usize,
    contact: Contact,
    ns: u64,
    /// With `--exact`, for polygon pairs: whether they overlap, and the exact depth.
    exact: Option<Exact>,
}

/// The exact answer for a polygon pair.
#[derive(Clone, Copy, Debug, Serialize)]
struct Exact {
    intersect: bool,
    /// Set exactly when `intersect` is (0 for an overlap thinner than the depth search's
    /// tolerance); `null` in JSON otherwise.
    depth: Option<f32>,
}

impl PairResult {
    /// Shown without `--all-pairs`: the algorithm or the exact answer says they collide.
    fn interesting(&self) -> bool {
        self.contact.intersect || self.exact.is_some_and(|e| e.intersect)
    }

    /// How the algorithm's answer compares with the exact one.
    fn verdict(&self) -> String {
        let Some(e) = self.exact else {
            return "n/a (not two polygons)".into();
        };
        match (self.contact.intersect, e.intersect) {
            (true, false) => "false positive".into(),
            (false, true) => "false negative".into(),
            (false, false) => "agrees".into(),
            (true, true) => match e.depth {
                Some(d) if d > 0.0 => {
                    let ratio = self.contact.depth / d;
                    if (ratio - 1.0).abs() <= 1e-3 {
                        "agrees".into()
                    } else {
                        format!("MTV {ratio:.2}x exact")
                    }
                }
                _ => "agrees".into(),
            },
        }
    }
}

/// Runs the command, writing to stdout.
pub fn run(args: &ContactsArgs) -> Result<(), CliError> {
    let scene = scene::load(&args.scene)?;
    let algorithm = args.algorithm.unwrap_or(scene.def().settings.narrow_phase);
    super::warn_scene_outside_precision_range("at its initial pose", &scene);
    let results = test_pairs(&scene, algorithm, &NarrowConfig::default(), args.exact);
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    if args.json {
        write_json(&mut out, &results, algorithm, args)?;
    } else {
        write_table(&mut out, &scene, &results, algorithm, args)?;
    }
    out.flush()?;
    Ok(())
}

/// Tests bodies `a < b` pairwise, timing each query alone.
fn test_pairs(scene: &Scene, algorithm: Algorithm, config: &NarrowConfig, exact: bool) -> Vec<PairResult> {
    let shapes = scene.shapes();
    let poses: Vec<_> = scene.def().bodies.iter().map(|b| b.pose()).collect();
    let mut results = Vec::with_capacity(shapes.len() * shapes.len().saturating_sub(1) / 2);
    for a in 0..shapes.len() {
        for b in a + 1..shapes.len() {
            let start = Instant::now();
            let contact = collide(&shapes[a], &poses[a], &shapes[b], &poses[b], algorithm, config, None);
            let ns = u64::try_from(start.elapsed().as_nanos()).unwrap_or(u64::MAX);
            let exact = (exact && shapes[a].kind() == ShapeKind::Polygon && shapes[b].kind() == ShapeKind::Polygon)
                .then(|| exact_answer(&shapes[a], &poses[a], &shapes[b], &poses[b]));
            results.push(PairResult {
                a,
                b,
                contact,
                ns,
                exact,
            });
        }
    }
    results
}

/// The exact answer for two polygons, consistent with itself: a depth exactly when they
/// intersect.
///
/// Two oracles answer: the overlap area (f64 clipping, intersect when above 1e-12 of the
/// smaller box) and the exact penetration (the origin strictly inside A − B, with a
/// tolerance of 16 ε times the scale). On an overlap thinner than that tolerance
/// (squares overlapping by 1e-6 m) the first says yes and the second finds no depth,
/// which printed `"intersect":true,"depth":null`. The area decides; a depth below the
/// tolerance is reported as 0.
fn exact_answer(a: &Shape, pose_a: &Pose, b: &Shape, pose_b: &Pose) -> Exact {
    let intersect = polygons_overlap(a, pose_a, b, pose_b);
    let depth = intersect.then(|| exact_penetration(a, pose_a, b, pose_b).map_or(0.0, |e| e.depth));
    Exact { intersect, depth }
}

/// The JSON form of one pair; field order is the documented one.
#[derive(Serialize)]
struct PairJson {
    a: usize,
    b: usize,
    algorithm: &'static str,
    intersect: bool,
    mtv: Option<[f32; 2]>,
    normal: Option<[f32; 2]>,
    depth: Option<f32>,
    points: Option<Vec<[f32; 2]>>,
    ns: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    work: Option<Work>,
    #[serde(skip_serializing_if = "Option::is_none")]
    exact: Option<Exact>,
}

fn write_json(
    out: &mut impl Write,
    results: &[PairResult],
    algorithm: Algorithm,
    args: &ContactsArgs,
) -> Result<(), CliError> {
    for r in results.iter().filter(|r| args.all_pairs || r.interesting()) {
        let c = &r.contact;
        let hit = c.intersect;
        let line = PairJson {
            a: r.a,
            b: r.b,
            algorithm: algorithm.name(),
            intersect: hit,
            mtv: hit.then(|| c.mtv.to_array()),
            normal: hit.then(|| c.normal.to_array()),
            depth: hit.then_some(c.depth),
            points: hit.then(|| c.points.as_slice().iter().map(|p| p.point.to_array()).collect()),
            ns: r.ns,
            work: args.work.then_some(c.work),
            exact: r.exact,
        };
        // Serialising plain numbers, strings and arrays cannot fail.
        let text = serde_json::to_string(&line).map_err(std::io::Error::other)?;
        writeln!(out, "{text}")?;
    }
    Ok(())
}

fn write_table(
    out: &mut impl Write,
    scene: &Scene,
    results: &[PairResult],
    algorithm: Algorithm,
    args: &ContactsArgs,
) -> Result<(), CliError> {
    let label = |i: usize| match &scene.def().bodies[i].name {
        Some(name) => format!("{i} {name}"),
        None => i.to_string(),
    };
    let mut header = vec!["A", "B", "intersect", "depth", "normal", "mtv", "points", "time"];
    if args.work {
        header.extend(["bv", "pieces", "axes", "edges", "support", "gjk", "epa"]);
    }
    if args.exact {
        header.extend(["exact", "verdict"]);
    }
    let mut rows: Vec<Vec<String>> = Vec::new();
    for r in results.iter().filter(|r| args.all_pairs || r.interesting()) {
        let c = &r.contact;
        let mut row = vec![
            label(r.a),
            label(r.b),
            if c.intersect { "yes" } else { "no" }.to_string(),
        ];
        if c.intersect {
            let points: Vec<String> = c.points.as_slice().iter().map(|p| vec2(p.point.to_array())).collect();
            row.extend([
                format!("{:.4}", c.depth),
                vec2(c.normal.to_array()),
                vec2(c.mtv.to_array()),
                points.join(" "),
            ]);
        } else {
            row.extend(["-", "-", "-", "-"].map(String::from));
        }
        row.push(duration(r.ns));
        if args.work {
            let w = &c.work;
            row.extend(
                [
                    w.bv_tests,
                    w.piece_pairs_tested,
                    w.axes_tested,
                    w.edge_tests,
                    w.support_calls,
                    w.gjk_iterations,
                    w.epa_iterations,
                ]
                .map(|n| n.to_string()),
            );
        }
        if args.exact {
            row.push(match r.exact {
                Some(Exact { depth: Some(d), .. }) => format!("yes {d:.4}"),
                Some(Exact { depth: None, .. }) => "no".into(),
                None => "-".into(),
            });
            row.push(r.verdict());
        }
        rows.push(row);
    }
    if rows.is_empty() {
        writeln!(out, "no intersecting pairs")?;
    } else {
        let mut widths: Vec<usize> = header.iter().map(|h| h.chars().count()).collect();
        for row in &rows {
            for (w, cell) in widths.iter_mut().zip(row) {
                *w = (*w).max(cell.chars().count());
            }
        }
        let header: Vec<String> = header.iter().map(|h| h.to_string()).collect();
        for row in std::iter::once(&header).chain(&rows) {
            let cells: Vec<String> = row
                .iter()
                .zip(&widths)
                .map(|(cell, &w)| format!("{cell:<w$}"))
                .collect();
            writeln!(out, "{}", cells.join("  ").trim_end())?;
        }
    }
    let intersecting = results.iter().filter(|r| r.contact.intersect).count();
    let total_ns: u64 = results.iter().map(|r| r.ns).sum();
    writeln!(
        out,
        "{} pairs tested, {} intersecting, {} total ({}, {})",
        results.len(),
        intersecting,
        duration(total_ns),
        algorithm,
        args.scene.display()
    )?;
    Ok(())
}

/// A vector for the table; adding 0.0 turns -0.0 into 0.0, which reads better.
fn vec2([x, y]: [f32; 2]) -> String {
    format!("({:.4}, {:.4})", x + 0.0, y + 0.0)
}

/// A duration in the unit that keeps it short.
fn duration(ns: u64) -> String {
    match ns {
        0..=999 => format!("{ns} ns"),
        1_000..=999_999 => format!("{:.1} µs", ns as f64 / 1e3),
        _ => format!("{:.2} ms", ns as f64 / 1e6),
    }
}
