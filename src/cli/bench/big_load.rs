//! `bench --big-load`: where the time goes when a big polygon is loaded (the aim: at "any
//! size": a 100,000-vertex polygon must load in under a second).
//!
//! For each family and vertex count, the polygon is built through
//! [`Polygon::new_observed`], which reports each [`BuildStage`] as it finishes; the clock
//! is read here, in the CLI, never in the library. Then the body's mass properties, and
//! the whole path of a scene file: the polygon written as a one-body scene in RON and
//! read back with [`scene::parse`] (RON parsing, validation, decomposition, trees).
//!
//! Each row is the median over up to [`RUNS`] builds (one when a build takes longer than
//! [`REPEAT_BELOW_S`], so a slow algorithm still finishes).

use super::workload::SHAPE_SIZE_M;
use collision_lab::geometry::families::Family;
use collision_lab::geometry::{BuildStage, Polygon, Shape};
use collision_lab::scene;
use std::fmt::Write as _;
use std::time::Instant;

/// Families timed by default: three kinds of big outline (radial spikes, a collinear-heavy
/// comb, a rough outline).
pub const DEFAULT_FAMILIES: [Family; 3] = [Family::Star, Family::Comb, Family::Coastline];

/// Vertex counts timed by default.
pub const DEFAULT_VERTICES: [usize; 3] = [10_000, 30_000, 100_000];

/// Builds per row at most.
const RUNS: usize = 3;

/// A build slower than this (seconds) is not repeated.
const REPEAT_BELOW_S: f64 = 2.0;

/// One row: a polygon's load, stage by stage (seconds).
#[derive(Clone, Debug)]
pub struct Row {
    pub family: Family,
    /// Vertices generated (the family's count may differ slightly from the one asked).
    pub vertices: usize,
    pub pieces: usize,
    /// Seconds per stage, in [`BuildStage::ALL`] order.
    pub stages: [f64; 5],
    pub mass: f64,
    /// `scene::parse` of the one-body scene file (everything a file load does).
    pub scene: f64,
    pub runs: usize,
}

/// One build's times (seconds), as in [`Row`].
struct Sample {
    stages: [f64; 5],
    mass: f64,
    scene: f64,
}

/// Times every family at every count; `tick` is called after each row.
pub fn run(families: &[Family], counts: &[usize], seed: u64, mut tick: impl FnMut(&str)) -> Result<Vec<Row>, String> {
    let mut rows = Vec::new();
    for &family in families {
        for &n in counts {
            let points = family.generate(n, SHAPE_SIZE_M, seed);
            let text = one_body_scene(&points);
            let mut samples: Vec<Sample> = Vec::new();
            let mut pieces = 0;
            while samples.len() < RUNS {
                let mut stages = [0.0; 5];
                let start = Instant::now();
                let mut last = start;
                let polygon = Polygon::new_observed(&points, |stage| {
                    let now = Instant::now();
                    let k = BuildStage::ALL.iter().position(|s| *s == stage).unwrap_or(0);
                    stages[k] = (now - last).as_secs_f64();
                    last = now;
                })
                .map_err(|e| format!("{family} at {n} vertices: {e}"))?;
                pieces = polygon.pieces().len();
                let shape = Shape::Polygon(polygon);
                let start_mass = Instant::now();
                std::hint::black_box(shape.mass_properties());
                let mass = start_mass.elapsed().as_secs_f64();
                drop(shape);
                let start_scene = Instant::now();
                let loaded = scene::parse(&text, "(big-load)").map_err(|e| format!("{family} at {n} vertices: {e}"))?;
                let scene = start_scene.elapsed().as_secs_f64();
                drop(loaded);
                let total: f64 = stages.iter().sum();
                samples.push(Sample { stages, mass, scene });
                if total + scene > REPEAT_BELOW_S {
                    break;
                }
            }
            let runs = samples.len();
            let median = |f: &dyn Fn(&Sample) -> f64| {
                let mut v: Vec<f64> = samples.iter().map(f).collect();
                v.sort_by(f64::total_cmp);
                v[v.len() / 2]
            };
            let mut stages = [0.0; 5];
            for (k, s) in stages.iter_mut().enumerate() {
                *s = median(&|x| x.stages[k]);
            }
            rows.push(Row {
                family,
                vertices: points.len(),
                pieces,
                stages,
                mass: median(&|x| x.mass),
                scene: median(&|x| x.scene),
                runs,
            });
            tick(&format!("big load: {family} {n}"));
        }
    }
    Ok(rows)
}

/// A scene file with one static body, the polygon at the origin.
fn one_body_scene(points: &[collision_lab::math::Vec2]) -> String {
    let mut text = String::from("(version: 1, gravity: (0.0, 0.0), bodies: [(shape: Polygon(points: [");
    for p in points {
        let _ = write!(text, "({:?}, {:?}), ", p.x, p.y);
    }
    text.push_str("]))])\n");
    text
}

/// The Markdown table (milliseconds).
pub fn markdown(rows: &[Row]) -> String {
    let mut out = String::from(
        "## Loading big polygons (ms, median of the runs)\n\n\
         | family | vertices | pieces | validation | triangulation | merging | pieces | trees | Polygon::new | mass | scene file | runs |\n\
         |---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n",
    );
    let ms = |s: f64| format!("{:.1}", s * 1e3);
    for r in rows {
        let total: f64 = r.stages.iter().sum();
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} | {} | {} | {} | **{}** | {} | {} | {} |",
            r.family,
            r.vertices,
            r.pieces,
            ms(r.stages[0]),
            ms(r.stages[1]),
            ms(r.stages[2]),
            ms(r.stages[3]),
            ms(r.stages[4]),
            ms(total),
            ms(r.mass),
            ms(r.scene),
            r.runs
        );
    }
    out
}
