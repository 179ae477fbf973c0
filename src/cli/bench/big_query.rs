//! `bench --big-query`: one query between a big polygon and a box, or two big
//! polygons, at shallow overlap, for all three algorithms (the aim at "any size": under
//! 1 ms up to 10,000 vertices).
//!
//! Poses: A at the origin, B turned at random; along a random direction d, B is moved in
//! until the shapes just touch (bisection on the exact overlap test), then
//! [`OVERLAP_M`] further: a penetration of at most that, where the outlines meet — the
//! contact of a body resting on another, not outlines crossing everywhere. Each row is
//! the median (and the slowest) over [`POSES`] poses, each timed in batches.

use super::measure::time_per_call;
use super::workload::SHAPE_SIZE_M;
use collision_lab::geometry::families::{Family, SplitMix64};
use collision_lab::geometry::{Polygon, Shape};
use collision_lab::math::{Pose, Vec2};
use collision_lab::narrow::exact_distance::touching_offset;
use collision_lab::narrow::{collide, Algorithm, NarrowConfig};
use std::f32::consts::{PI, TAU};

/// Vertex counts timed by default.
pub const DEFAULT_VERTICES: [usize; 2] = [1_000, 10_000];

/// How far B is pushed in along the placement direction past touching (metres; 1% of
/// the 1 m shape size).
pub const OVERLAP_M: f32 = 0.01 * SHAPE_SIZE_M;

/// Poses per row.
const POSES: usize = 6;

/// Side of the box partner (metres).
const BOX_SIDE_M: f32 = 0.2 * SHAPE_SIZE_M;

/// What the big polygon is tested against.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Partner {
    /// A square of side [`BOX_SIDE_M`].
    Box,
    /// Another polygon of the same family and count (next seed).
    Same,
}

/// One row.
#[derive(Clone, Debug)]
pub struct Row {
    pub family: Family,
    pub vertices: usize,
    pub pieces: usize,
    pub partner: Partner,
    pub algorithm: Algorithm,
    /// Median and slowest time per query over the poses (ns).
    pub median_ns: f64,
    pub max_ns: f64,
    /// Poses where the algorithm found the shapes intersecting, of the poses placed.
    pub intersecting: usize,
    pub poses: usize,
    /// Mean piece pairs tested exactly and bounding-volume tests per query.
    pub pairs_tested: f64,
    pub bv_tests: f64,
}

/// Times every family × count × partner × algorithm; `row_done` with each row as it is
/// measured (a query at 10,000 vertices can take seconds, so rows are shown as they
/// come).
pub fn run(
    families: &[Family],
    counts: &[usize],
    seed: u64,
    mut row_done: impl FnMut(&Row),
) -> Result<Vec<Row>, String> {
    let mut rows = Vec::new();
    let h = 0.5 * BOX_SIDE_M;
    let square = Shape::Polygon(
        Polygon::new(&[Vec2::new(-h, -h), Vec2::new(h, -h), Vec2::new(h, h), Vec2::new(-h, h)])
            .map_err(|e| e.to_string())?,
    );
    for &family in families {
        for &n in counts {
            let build = |s: u64| {
                Polygon::new(&family.generate(n, SHAPE_SIZE_M, s))
                    .map(Shape::Polygon)
                    .map_err(|e| format!("{family} at {n} vertices: {e}"))
            };
            let a = build(seed)?;
            let same = build(seed + 1)?;
            for partner in [Partner::Box, Partner::Same] {
                let b = match partner {
                    Partner::Box => &square,
                    Partner::Same => &same,
                };
                let mut rng = SplitMix64::new(seed ^ (n as u64) ^ ((partner as u64) << 32));
                let mut poses: Vec<(Pose, Pose)> = Vec::with_capacity(POSES);
                for _ in 0..4 * POSES {
                    if poses.len() == POSES {
                        break;
                    }
                    let pose_a = Pose::new(Vec2::ZERO, rng.range_f32(-PI, PI));
                    let d = Vec2::from_angle(rng.range_f32(0.0, TAU));
                    let angle_b = rng.range_f32(-PI, PI);
                    if let Some(t) = touching_offset(&a, &pose_a, b, angle_b, d, OVERLAP_M) {
                        poses.push((pose_a, Pose::new(d * (t - OVERLAP_M), angle_b)));
                    }
                }
                for algorithm in Algorithm::ALL {
                    let config = NarrowConfig::default();
                    let mut times = Vec::with_capacity(poses.len());
                    let (mut intersecting, mut pairs, mut bv) = (0, 0.0, 0.0);
                    for (pa, pb) in &poses {
                        let c = collide(&a, pa, b, pb, algorithm, &config, None);
                        intersecting += usize::from(c.intersect);
                        pairs += f64::from(c.work.piece_pairs_tested);
                        bv += f64::from(c.work.bv_tests);
                        times.push(time_per_call(2e7, || {
                            collide(&a, pa, b, pb, algorithm, &config, None).depth
                        }));
                    }
                    if times.is_empty() {
                        continue;
                    }
                    times.sort_by(f64::total_cmp);
                    rows.push(Row {
                        family,
                        vertices: n,
                        pieces: a.piece_count(),
                        partner,
                        algorithm,
                        median_ns: times[times.len() / 2],
                        max_ns: times[times.len() - 1],
                        intersecting,
                        poses: poses.len(),
                        pairs_tested: pairs / poses.len().max(1) as f64,
                        bv_tests: bv / poses.len().max(1) as f64,
                    });
                    row_done(rows.last().expect("just pushed"));
                }
            }
        }
    }
    Ok(rows)
}

/// The Markdown table's title and header (µs).
pub fn header() -> String {
    format!(
        "## One query on big polygons at shallow overlap (µs; pushed {OVERLAP_M} m in past \
         touching, up to {POSES} poses)\n\n\
         | family | vertices | pieces | against | algorithm | median | slowest | intersecting | piece pairs | BV tests |\n\
         |---|---:|---:|---|---|---:|---:|---:|---:|---:|\n"
    )
}

/// One row of the table.
pub fn markdown_row(r: &Row) -> String {
    let partner = match r.partner {
        Partner::Box => format!("box {BOX_SIDE_M} m"),
        Partner::Same => format!("{} {}", r.family, r.vertices),
    };
    format!(
        "| {} | {} | {} | {} | {} | {:.1} | {:.1} | {}/{} | {:.1} | {:.0} |\n",
        r.family,
        r.vertices,
        r.pieces,
        partner,
        r.algorithm.name(),
        r.median_ns * 1e-3,
        r.max_ns * 1e-3,
        r.intersecting,
        r.poses,
        r.pairs_tested,
        r.bv_tests
    )
}
