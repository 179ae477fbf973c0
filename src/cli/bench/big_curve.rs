//! Past the paper: time against vertex count up to 10,000 for NonConvexSat and the
//! exact overlap test, each with and without the bounding-volume trees (Liu et al.'s (2018)
//! lesson in 2D: a coastline or a gear with 500 teeth must still collide in real time).
//!
//! Shapes: a gear (n/4 teeth: 500 teeth at 2000 vertices) and a coastline (fractal
//! star-shaped outline), 1 m across. Poses: A at the origin, B's origin 0.5 m away in a
//! random direction, both turned at random, so the outlines cross (the worst case for
//! NonConvexSat, which then tests every axis). Each point is the median over up to
//! eight poses, as many as fit in the time budget (at least one). A method whose time
//! at the next count is predicted (quadratic growth) to pass `MAX_PREDICTED_NS` is
//! skipped there and beyond, and the table says so.

use super::measure::time_per_call;
use super::workload::SHAPE_SIZE_M;
use collision_lab::geometry::families::{Family, SplitMix64};
use collision_lab::geometry::{Polygon, Shape};
use collision_lab::math::{Pose, Vec2};
use collision_lab::narrow::exact::polygons_overlap_with;
use collision_lab::narrow::{collide, Algorithm, EdgeTreePolicy, NarrowConfig};
use std::f32::consts::{PI, TAU};
use std::time::Instant;

/// Families on the curve.
pub const CURVE_FAMILIES: [Family; 2] = [Family::Gear, Family::Coastline];

/// Time budget per point (all poses together).
const POINT_BUDGET_NS: f64 = 1.5e9;

/// Points predicted to take longer than this per query are skipped.
const MAX_PREDICTED_NS: f64 = 4e9;

/// What a curve point times.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Query {
    /// NonConvexSat over every vertex.
    SatAllVertices,
    /// NonConvexSat through the edge trees.
    SatEdgeTree,
    /// Exact overlap clipping every piece pair.
    OverlapAllPairs,
    /// Exact overlap clipping the piece pairs the piece trees find.
    OverlapPieceTree,
}

impl Query {
    /// Every query, in table order.
    pub const ALL: [Query; 4] = [
        Query::SatAllVertices,
        Query::SatEdgeTree,
        Query::OverlapAllPairs,
        Query::OverlapPieceTree,
    ];

    /// Label in tables and the chart.
    pub fn name(self) -> &'static str {
        match self {
            Query::SatAllVertices => "NonConvexSat, no tree",
            Query::SatEdgeTree => "NonConvexSat, edge tree",
            Query::OverlapAllPairs => "exact overlap, all piece pairs",
            Query::OverlapPieceTree => "exact overlap, piece tree",
        }
    }

    /// Runs the query once; the answer reduced to a comparable value.
    fn run(self, a: &Shape, pa: &Pose, b: &Shape, pb: &Pose) -> (bool, f32) {
        let sat = |edge_tree| {
            let config = NarrowConfig {
                edge_tree,
                ..NarrowConfig::default()
            };
            let c = collide(a, pa, b, pb, Algorithm::NonConvexSat, &config, None);
            (c.intersect, c.depth)
        };
        match self {
            Query::SatAllVertices => sat(EdgeTreePolicy::Never),
            Query::SatEdgeTree => sat(EdgeTreePolicy::Always),
            Query::OverlapAllPairs => (polygons_overlap_with(a, pa, b, pb, EdgeTreePolicy::Never), 0.0),
            Query::OverlapPieceTree => (polygons_overlap_with(a, pa, b, pb, EdgeTreePolicy::Always), 0.0),
        }
    }
}

/// One point of the curve.
#[derive(Clone, Debug)]
pub struct Point {
    pub family: Family,
    pub vertices: usize,
    pub pieces: usize,
    pub query: Query,
    /// Median time per query (ns); `None` when skipped.
    pub ns: Option<f64>,
    pub poses: usize,
    /// The tree and no-tree answers were equal on every pose timed by both.
    pub same_answer: bool,
}

/// Runs the curve; `tick` is called after each point.
pub fn run(counts: &[usize], seed: u64, mut tick: impl FnMut(&str)) -> Result<Vec<Point>, String> {
    let mut points = Vec::new();
    for family in CURVE_FAMILIES {
        let mut last: [Option<(usize, f64)>; 4] = [None; 4];
        let mut skipping = [false; 4];
        for &n in counts {
            let build = |s: u64| {
                Polygon::new(&family.generate(n, SHAPE_SIZE_M, s))
                    .map(Shape::Polygon)
                    .map_err(|e| format!("{family} at {n} vertices: {e}"))
            };
            let (a, b) = (build(seed)?, build(seed + 1)?);
            let mut rng = SplitMix64::new(seed ^ n as u64);
            let poses: Vec<(Pose, Pose)> = (0..8)
                .map(|_| {
                    let pa = Pose::new(Vec2::ZERO, rng.range_f32(-PI, PI));
                    let dir = Vec2::from_angle(rng.range_f32(0.0, TAU));
                    (pa, Pose::new(dir * (0.5 * SHAPE_SIZE_M), rng.range_f32(-PI, PI)))
                })
                .collect();
            let mut answers: [Vec<(bool, f32)>; 4] = Default::default();
            for (qi, query) in Query::ALL.into_iter().enumerate() {
                let predicted = last[qi].map(|(m, ns)| ns * (n as f64 / m as f64).powi(2));
                if skipping[qi] || predicted.is_some_and(|p| p > MAX_PREDICTED_NS) {
                    skipping[qi] = true;
                    points.push(skipped(family, n, &a, query));
                    continue;
                }
                let start = Instant::now();
                let mut times = Vec::new();
                for (pa, pb) in &poses {
                    answers[qi].push(query.run(&a, pa, &b, pb));
                    times.push(time_per_call(2e7, || query.run(&a, pa, &b, pb)));
                    if start.elapsed().as_nanos() as f64 > POINT_BUDGET_NS {
                        break;
                    }
                }
                times.sort_by(f64::total_cmp);
                let median = times[times.len() / 2];
                last[qi] = Some((n, median));
                points.push(Point {
                    family,
                    vertices: n,
                    pieces: a.piece_count(),
                    query,
                    ns: Some(median),
                    poses: times.len(),
                    same_answer: true,
                });
                tick(&format!("tree curve: {family} {n} {}", query.name()));
            }
            // Tree and no-tree must agree wherever both ran.
            for (with, without) in [(1, 0), (3, 2)] {
                let k = answers[with].len().min(answers[without].len());
                let same = answers[with][..k] == answers[without][..k];
                if let Some(p) = points
                    .iter_mut()
                    .rev()
                    .find(|p| p.family == family && p.vertices == n && p.query == Query::ALL[with])
                {
                    p.same_answer = same;
                }
            }
        }
    }
    Ok(points)
}

fn skipped(family: Family, n: usize, a: &Shape, query: Query) -> Point {
    Point {
        family,
        vertices: n,
        pieces: a.piece_count(),
        query,
        ns: None,
        poses: 0,
        same_answer: true,
    }
}

/// The curve as a Markdown table: one row per family and count, one column per query.
pub fn markdown(points: &[Point]) -> String {
    use std::fmt::Write as _;
    let mut md = String::from(
        "## Tree curve: time per query (µs) against vertex count\n\n\
         | family | n | pieces |",
    );
    for q in Query::ALL {
        let _ = write!(md, " {} |", q.name());
    }
    md.push_str(" tree speed-up (SAT) | tree speed-up (overlap) | same answers |\n|---|---:|---:|");
    md.push_str(&"---:|".repeat(Query::ALL.len() + 2));
    md.push_str("---|\n");
    let mut keys: Vec<(Family, usize, usize)> = points.iter().map(|p| (p.family, p.vertices, p.pieces)).collect();
    keys.dedup();
    for (family, n, pieces) in keys {
        let get = |q: Query| {
            points
                .iter()
                .find(|p| p.family == family && p.vertices == n && p.query == q)
                .and_then(|p| p.ns)
        };
        let _ = write!(md, "| {family} | {n} | {pieces} |");
        for q in Query::ALL {
            match get(q) {
                Some(ns) => {
                    let _ = write!(md, " {:.1} |", ns / 1000.0);
                }
                None => md.push_str(" skipped (> 4 s predicted) |"),
            }
        }
        let ratio = |x: Option<f64>, y: Option<f64>| match (x, y) {
            (Some(x), Some(y)) => format!("{:.1}x", x / y),
            _ => "–".into(),
        };
        let same = points
            .iter()
            .filter(|p| p.family == family && p.vertices == n)
            .all(|p| p.same_answer);
        let _ = writeln!(
            md,
            " {} | {} | {} |",
            ratio(get(Query::SatAllVertices), get(Query::SatEdgeTree)),
            ratio(get(Query::OverlapAllPairs), get(Query::OverlapPieceTree)),
            if same { "yes" } else { "NO" }
        );
    }
    md
}

/// The curve as CSV.
pub fn csv(points: &[Point]) -> String {
    let mut out = String::from("family,vertices,pieces,query,ns,poses,same_answer\n");
    for p in points {
        out.push_str(&format!(
            "{},{},{},{},{},{},{}\n",
            p.family,
            p.vertices,
            p.pieces,
            p.query.name(),
            p.ns.map_or(String::new(), |ns| format!("{ns:.0}")),
            p.poses,
            p.same_answer
        ));
    }
    out
}
