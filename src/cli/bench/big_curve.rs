//! Past the paper: time against vertex count up to 10,000 for NonConvexSat and the
//! exact overlap test, each with and without the bounding-volume trees (Liu et al.'s (2018)
//! lesson in 2D: a coastline or a gear with 500 teeth must still collide in real time),
//! and each tree with each kind of node volume — AABB, circle, OBB, 8-DOP — so the
//! OBB-tree paper's claim (Gottschalk, Lin and Manocha, "OBBTree", 1996: tighter
//! volumes, fewer tests) can be checked in 2D against what each test costs. The cost
//! model T = Nv·Cv + Np·Cp is fitted per kind from the measured work and times
//! ([`fit_costs`]).
//!
//! Shapes: a gear (n/4 teeth: 500 teeth at 2000 vertices) and a coastline (fractal
//! star-shaped outline), 1 m across. Poses: A at the origin, B's origin 0.5 m away in a
//! random direction, both turned at random, so the outlines cross (the worst case for
//! NonConvexSat's plain loop, which then tests every axis). The last three columns time
//! the three algorithms as the world calls them (default configuration) at a *shallow*
//! overlap instead, B pushed [`OVERLAP_M`] in past touching as in `bench --big-query`:
//! the contact of a body resting on another, which must stay under 1 ms up to 10,000
//! vertices (the aim). At the crossing poses the decomposed algorithms' exact depth is
//! half a metre deep in both bodies, and their combine step has every piece pair to
//! look at. NonConvexSat's tree columns (`EdgeTreePolicy::Always`) also skip the axes
//! that cannot change its answer (`narrow::sat_nonconvex`), so they count fewer
//! projections than the plain loop, not only cheaper ones. Each point is the median over up to
//! eight poses, as many as fit in the time budget (at least one). A method whose time
//! at the next count is predicted (quadratic growth) to pass `MAX_PREDICTED_NS` is
//! skipped there and beyond, and the table says so.

use super::big_query::OVERLAP_M;
use super::measure::time_per_call;
use super::workload::SHAPE_SIZE_M;
use collision_lab::bounds::BoundKind;
use collision_lab::geometry::families::{Family, SplitMix64};
use collision_lab::geometry::{Polygon, Shape};
use collision_lab::math::{Pose, Vec2};
use collision_lab::narrow::exact::polygons_overlap_with;
use collision_lab::narrow::exact_distance::touching_offset;
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
    /// NonConvexSat through the edge trees, nodes bounded by this kind of volume.
    SatEdgeTree(BoundKind),
    /// Exact overlap clipping every piece pair.
    OverlapAllPairs,
    /// Exact overlap clipping the piece pairs the piece trees find.
    OverlapPieceTree(BoundKind),
    /// The algorithm as the world calls it (default configuration), at a shallow
    /// overlap (poses of their own, see the module docs).
    Shallow(Algorithm),
}

impl Query {
    /// Every query, in table order: each tree with each node volume.
    pub const ALL: [Query; 13] = [
        Query::SatAllVertices,
        Query::SatEdgeTree(BoundKind::Aabb),
        Query::SatEdgeTree(BoundKind::Circle),
        Query::SatEdgeTree(BoundKind::Obb),
        Query::SatEdgeTree(BoundKind::Kdop8),
        Query::OverlapAllPairs,
        Query::OverlapPieceTree(BoundKind::Aabb),
        Query::OverlapPieceTree(BoundKind::Circle),
        Query::OverlapPieceTree(BoundKind::Obb),
        Query::OverlapPieceTree(BoundKind::Kdop8),
        Query::Shallow(Algorithm::NonConvexSat),
        Query::Shallow(Algorithm::SatDecomposed),
        Query::Shallow(Algorithm::GjkEpa),
    ];

    /// Label in tables and the chart.
    pub fn name(self) -> &'static str {
        use BoundKind as K;
        match self {
            Query::SatAllVertices => "NonConvexSat, no tree",
            Query::SatEdgeTree(K::Aabb) => "NonConvexSat, AABB tree",
            Query::SatEdgeTree(K::Circle) => "NonConvexSat, circle tree",
            Query::SatEdgeTree(K::Obb) => "NonConvexSat, OBB tree",
            Query::SatEdgeTree(K::Kdop8) => "NonConvexSat, 8-DOP tree",
            Query::OverlapAllPairs => "exact overlap, all piece pairs",
            Query::OverlapPieceTree(K::Aabb) => "exact overlap, AABB piece tree",
            Query::OverlapPieceTree(K::Circle) => "exact overlap, circle piece tree",
            Query::OverlapPieceTree(K::Obb) => "exact overlap, OBB piece tree",
            Query::OverlapPieceTree(K::Kdop8) => "exact overlap, 8-DOP piece tree",
            Query::Shallow(Algorithm::NonConvexSat) => "NonConvexSat, shallow",
            Query::Shallow(Algorithm::SatDecomposed) => "SatDecomposed, shallow",
            Query::Shallow(Algorithm::GjkEpa) => "GjkEpa, shallow",
        }
    }

    /// The node volume whose trees the query descends (boxes for the no-tree queries,
    /// which do not descend).
    fn volume(self) -> BoundKind {
        match self {
            Query::SatEdgeTree(k) | Query::OverlapPieceTree(k) => k,
            _ => BoundKind::Aabb,
        }
    }

    /// The query without a tree that this one must agree with.
    fn baseline(self) -> Option<Query> {
        match self {
            Query::SatEdgeTree(_) => Some(Query::SatAllVertices),
            Query::OverlapPieceTree(_) => Some(Query::OverlapAllPairs),
            _ => None,
        }
    }

    /// Runs the query once (the shapes' trees have the query's volume); the answer
    /// reduced to a comparable value, and the work (Nv, Np) when the query reports it.
    fn run(self, a: &Shape, pa: &Pose, b: &Shape, pb: &Pose) -> ((bool, f32), (u32, u32)) {
        let sat = |edge_tree| {
            let config = NarrowConfig {
                edge_tree,
                ..NarrowConfig::default()
            };
            let c = collide(a, pa, b, pb, Algorithm::NonConvexSat, &config, None);
            // Np: the vertices projected (what a leaf of the edge tree does).
            ((c.intersect, c.depth), (c.work.bv_tests, c.work.vertices_scanned))
        };
        match self {
            Query::SatAllVertices => sat(EdgeTreePolicy::Never),
            Query::SatEdgeTree(_) => sat(EdgeTreePolicy::Always),
            Query::OverlapAllPairs => (
                (polygons_overlap_with(a, pa, b, pb, EdgeTreePolicy::Never), 0.0),
                (0, 0),
            ),
            Query::OverlapPieceTree(_) => (
                (polygons_overlap_with(a, pa, b, pb, EdgeTreePolicy::Always), 0.0),
                (0, 0),
            ),
            Query::Shallow(algorithm) => {
                let c = collide(a, pa, b, pb, algorithm, &NarrowConfig::default(), None);
                ((c.intersect, c.depth), (c.work.bv_tests, c.work.vertices_scanned))
            }
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
    /// Mean bounding-volume tests (Nv) and primitive tests (Np) per query, over the poses
    /// timed (zero when the query does not count them).
    pub nv: f64,
    pub np: f64,
}

/// Runs the curve; `tick` is called after each point.
pub fn run(counts: &[usize], seed: u64, mut tick: impl FnMut(&str)) -> Result<Vec<Point>, String> {
    let mut points = Vec::new();
    let queries = Query::ALL.len();
    for family in CURVE_FAMILIES {
        let mut last: Vec<Option<(usize, f64)>> = vec![None; queries];
        let mut skipping = vec![false; queries];
        for &n in counts {
            let build = |s: u64| {
                Polygon::new(&family.generate(n, SHAPE_SIZE_M, s)).map_err(|e| format!("{family} at {n} vertices: {e}"))
            };
            let (a, b) = (build(seed)?, build(seed + 1)?);
            // The same polygons with each kind of node volume in their trees.
            let shapes: Vec<(BoundKind, Shape, Shape)> = BoundKind::ALL
                .into_iter()
                .map(|k| {
                    (
                        k,
                        Shape::Polygon(a.clone().with_tree_volume(k)),
                        Shape::Polygon(b.clone().with_tree_volume(k)),
                    )
                })
                .collect();
            let mut rng = SplitMix64::new(seed ^ n as u64);
            let poses: Vec<(Pose, Pose)> = (0..8)
                .map(|_| {
                    let pa = Pose::new(Vec2::ZERO, rng.range_f32(-PI, PI));
                    let dir = Vec2::from_angle(rng.range_f32(0.0, TAU));
                    (pa, Pose::new(dir * (0.5 * SHAPE_SIZE_M), rng.range_f32(-PI, PI)))
                })
                .collect();
            // The shallow poses: B pushed in past touching along a random direction.
            let (_, a_box, b_box) = shapes
                .iter()
                .find(|(k, _, _)| *k == BoundKind::Aabb)
                .expect("every kind is built");
            let mut shallow: Vec<(Pose, Pose)> = Vec::new();
            for _ in 0..32 {
                if shallow.len() == 8 {
                    break;
                }
                let pa = Pose::new(Vec2::ZERO, rng.range_f32(-PI, PI));
                let dir = Vec2::from_angle(rng.range_f32(0.0, TAU));
                let angle_b = rng.range_f32(-PI, PI);
                if let Some(t) = touching_offset(a_box, &pa, b_box, angle_b, dir, OVERLAP_M) {
                    shallow.push((pa, Pose::new(dir * (t - OVERLAP_M), angle_b)));
                }
            }
            let mut answers: Vec<Vec<(bool, f32)>> = vec![Vec::new(); queries];
            for (qi, query) in Query::ALL.into_iter().enumerate() {
                let (_, a, b) = shapes
                    .iter()
                    .find(|(k, _, _)| *k == query.volume())
                    .expect("every kind is built");
                let predicted = last[qi].map(|(m, ns)| ns * (n as f64 / m as f64).powi(2));
                if skipping[qi] || predicted.is_some_and(|p| p > MAX_PREDICTED_NS) {
                    skipping[qi] = true;
                    points.push(skipped(family, n, a, query));
                    continue;
                }
                let start = Instant::now();
                let mut times = Vec::new();
                let (mut nv, mut np) = (0.0, 0.0);
                let posed = if matches!(query, Query::Shallow(_)) {
                    &shallow
                } else {
                    &poses
                };
                for (pa, pb) in posed {
                    let (answer, (v, p)) = query.run(a, pa, b, pb);
                    answers[qi].push(answer);
                    nv += f64::from(v);
                    np += f64::from(p);
                    times.push(time_per_call(2e7, || query.run(a, pa, b, pb)));
                    if start.elapsed().as_nanos() as f64 > POINT_BUDGET_NS {
                        break;
                    }
                }
                if times.is_empty() {
                    points.push(skipped(family, n, a, query));
                    continue;
                }
                times.sort_by(f64::total_cmp);
                let median = times[times.len() / 2];
                last[qi] = Some((n, median));
                let timed = times.len() as f64;
                points.push(Point {
                    family,
                    vertices: n,
                    pieces: a.piece_count(),
                    query,
                    ns: Some(median),
                    poses: times.len(),
                    same_answer: true,
                    nv: nv / timed,
                    np: np / timed,
                });
                tick(&format!("tree curve: {family} {n} {}", query.name()));
            }
            // Every tree, of every volume, must agree with the loop without a tree
            // wherever both ran.
            for (with, query) in Query::ALL.into_iter().enumerate() {
                let Some(base) = query.baseline() else { continue };
                let without = Query::ALL.iter().position(|q| *q == base).expect("listed");
                let k = answers[with].len().min(answers[without].len());
                let same = answers[with][..k] == answers[without][..k];
                if let Some(p) = points
                    .iter_mut()
                    .rev()
                    .find(|p| p.family == family && p.vertices == n && p.query == query)
                {
                    p.same_answer = same;
                }
            }
        }
    }
    Ok(points)
}

/// Per node volume, the cost model T = Nv·Cv + Np·Cp of Liu et al. (2018) fitted by
/// least squares (no intercept) to the NonConvexSat tree points: (kind, Cv ns, Cp ns,
/// points used, relative RMS error of the fit).
pub fn fit_costs(points: &[Point]) -> Vec<(BoundKind, f64, f64, usize, f64)> {
    BoundKind::ALL
        .into_iter()
        .filter_map(|kind| {
            let rows: Vec<(f64, f64, f64)> = points
                .iter()
                .filter(|p| p.query == Query::SatEdgeTree(kind))
                .filter_map(|p| Some((p.nv, p.np, p.ns?)))
                .collect();
            let (mut svv, mut svp, mut spp, mut svt, mut spt) = (0.0, 0.0, 0.0, 0.0, 0.0);
            for &(v, p, t) in &rows {
                svv += v * v;
                svp += v * p;
                spp += p * p;
                svt += v * t;
                spt += p * t;
            }
            let det = svv * spp - svp * svp;
            if rows.len() < 2 || det.abs() < 1e-9 {
                return None;
            }
            let cv = (svt * spp - spt * svp) / det;
            let cp = (spt * svv - svt * svp) / det;
            let (mut err, mut total) = (0.0, 0.0);
            for &(v, p, t) in &rows {
                err += (v * cv + p * cp - t).powi(2);
                total += t * t;
            }
            Some((kind, cv, cp, rows.len(), (err / total.max(1e-30)).sqrt()))
        })
        .collect()
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
        nv: 0.0,
        np: 0.0,
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
    md.push_str(" fastest edge tree (speed-up) | fastest piece tree (speed-up) | same answers |\n|---|---:|---:|");
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
        // The tree of each kind against no tree: the best of the four volumes.
        let fastest = |tree: fn(BoundKind) -> Query, base: Query| {
            let best = BoundKind::ALL
                .into_iter()
                .filter_map(|k| Some((k, get(tree(k))?)))
                .min_by(|x, y| x.1.total_cmp(&y.1));
            match (best, get(base)) {
                (Some((k, t)), Some(b)) => format!("{} ({:.1}x)", kind_name(k), b / t),
                (Some((k, _)), None) => kind_name(k).to_string(),
                _ => "–".into(),
            }
        };
        let same = points
            .iter()
            .filter(|p| p.family == family && p.vertices == n)
            .all(|p| p.same_answer);
        let _ = writeln!(
            md,
            " {} | {} | {} |",
            fastest(Query::SatEdgeTree, Query::SatAllVertices),
            fastest(Query::OverlapPieceTree, Query::OverlapAllPairs),
            if same { "yes" } else { "NO" }
        );
    }
    let fits = fit_costs(points);
    if !fits.is_empty() {
        md.push_str(
            "\nCost model T = Nv·Cv + Np·Cp per node volume (NonConvexSat through the edge tree; \
             least squares over every family and count):\n\n\
             | node volume | Cv (ns per volume test) | Cp (ns per vertex projected) | points | RMS error |\n\
             |---|---:|---:|---:|---:|\n",
        );
        for (kind, cv, cp, n, err) in fits {
            let _ = writeln!(
                md,
                "| {} | {cv:.1} | {cp:.2} | {n} | {:.0}% |",
                kind_name(kind),
                err * 100.0
            );
        }
    }
    md
}

/// The curve as CSV.
pub fn csv(points: &[Point]) -> String {
    let mut out = String::from("family,vertices,pieces,query,node_volume,ns,poses,same_answer,nv,np\n");
    for p in points {
        out.push_str(&format!(
            "{},{},{},{},{},{},{},{},{:.1},{:.1}\n",
            p.family,
            p.vertices,
            p.pieces,
            p.query.name(),
            kind_name(p.query.volume()),
            p.ns.map_or(String::new(), |ns| format!("{ns:.0}")),
            p.poses,
            p.same_answer,
            p.nv,
            p.np
        ));
    }
    out
}

/// A node volume's name in tables.
fn kind_name(kind: BoundKind) -> &'static str {
    match kind {
        BoundKind::Aabb => "AABB",
        BoundKind::Circle => "circle",
        BoundKind::Obb => "OBB",
        BoundKind::Kdop8 => "8-DOP",
    }
}
