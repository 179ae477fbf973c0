//! Timing and accuracy of each method on one workload's pairs.
//!
//! Timing: every pair is run once to warm the caches (and to get the answer that the
//! accuracy columns judge), then timed in batches: the batch repeats the query enough
//! times to last about `batch_ns`, three batches, and the pair's time is the median of
//! the three batch means. Results pass through `black_box` so nothing is optimised away.
//! The workload reports the median and the 95th percentile over its pairs.
//!
//! Accuracy against the exact answer of `workload.rs`:
//! - intersect agreement: the method's `intersect` equals the exact one (exact: the
//!   Minkowski-difference depth above the narrow phases' touching tolerance);
//! - MTV separates: A moved by the method's MTV no longer penetrates B by more than
//!   1e-4 of the shape size (the exact oracle again); only over pairs where both say
//!   they intersect;
//! - |MTV| / exact depth over the same pairs.

use super::workload::{Pair, ShapeSet, SHAPE_SIZE_M};
use collision_lab::geometry::Shape;
use collision_lab::math::{Pose, Vec2};
use collision_lab::narrow::exact_distance::signed_distance_capped;
use collision_lab::narrow::{collide, Algorithm, EdgeTreePolicy, NarrowConfig, Work};
use parry2d::shape::SharedShape;
use std::hint::black_box;
use std::time::Instant;

/// A row of the comparison.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    /// Fayzrakhmanov et al. (2015) as written: every vertex projected on every axis.
    NonConvexSat,
    /// Fayzrakhmanov et al. (2015) projecting through the edge trees (the app's choice for big polygons).
    NonConvexSatTree,
    /// SAT over the convex decomposition.
    SatDecomposed,
    /// GJK + EPA over the convex decomposition.
    GjkEpa,
    /// parry2d 0.31's contact query on a compound of the same convex pieces.
    Parry2d,
}

impl Method {
    /// Every method, in table order.
    pub const ALL: [Method; 5] = [
        Method::NonConvexSat,
        Method::NonConvexSatTree,
        Method::SatDecomposed,
        Method::GjkEpa,
        Method::Parry2d,
    ];

    /// Name in tables, CSV and charts.
    pub fn name(self) -> &'static str {
        match self {
            Method::NonConvexSat => "NonConvexSat",
            Method::NonConvexSatTree => "NonConvexSat+tree",
            Method::SatDecomposed => "SatDecomposed",
            Method::GjkEpa => "GjkEpa",
            Method::Parry2d => "parry2d",
        }
    }

    /// How it works, for the reader judging the comparison.
    pub fn how(self) -> &'static str {
        match self {
            Method::NonConvexSat => {
                "Fayzrakhmanov et al. (2015) as written: one SAT over whole outlines, all n+m edge normals, every vertex \
                 projected on every axis (O((n+m)^2)), step 7's per-edge test for non-convex A; no decomposition"
            }
            Method::NonConvexSatTree => {
                "the same algorithm and the same answers, projecting through an AABB tree over the edges \
                 (best-first descent pruned by box corners, O((n+m) log n) typical)"
            }
            Method::SatDecomposed => {
                "convex pieces (cached decomposition: monotone triangulation, Delaunay flips, Hertel-Mehlhorn); candidate \
                 piece pairs by box tests, all pA*pB below 64 pairs, from the two piece trees above; SAT on each \
                 candidate in A's frame, O(ni+mj) with the deepest vertex found by hill climbing; pair answers \
                 combined exactly: the MTV reaches the nearest boundary point of the union of the pieces' Minkowski \
                 differences (candidates best first, only differences that near built, covered stretches of edges skipped)"
            }
            Method::GjkEpa => {
                "same pieces and candidate pairs; GJK on each (support points by a scan, or by hill climbing \
                 from the last support on pieces of 32+ vertices), EPA started from GJK's final simplex; same combine step"
            }
            Method::Parry2d => {
                "external reference: parry2d::query::contact on two Compounds of the same convex pieces \
                 (parry's BVH over parts, its own GJK/EPA per part pair); the deepest part contact, not a \
                 whole-body MTV"
            }
        }
    }
}

/// One pair's outcome for one method.
#[derive(Clone, Copy, Debug, Default)]
pub struct PairOutcome {
    /// Time per query (ns).
    pub ns: f64,
    pub work: Work,
    pub intersect: bool,
    /// `None` unless both the method and the exact answer say they intersect.
    pub mtv_separates: Option<bool>,
    /// |MTV| / exact depth, same condition.
    pub depth_ratio: Option<f64>,
}

/// parry2d's compounds of a set's shapes, built once per set.
pub struct ParryShapes(Vec<SharedShape>);

impl ParryShapes {
    /// Compounds of the convex pieces of each shape (local frames).
    pub fn new(set: &ShapeSet) -> ParryShapes {
        let to_parry = |v: Vec2| parry2d::math::Vector::new(v.x, v.y);
        ParryShapes(
            set.shapes
                .iter()
                .map(|s| {
                    let parts = (0..s.piece_count())
                        .filter_map(|i| {
                            let points: Vec<_> = s.piece(i).vertices.iter().map(|&v| to_parry(v)).collect();
                            // Unmodified: parry's default drops vertices whose edges
                            // turn by less than ~1°, and a 256-gon's all do.
                            parry2d::shape::ConvexPolygon::from_convex_polyline_unmodified(points)
                                .map(|p| (parry2d::math::Pose::IDENTITY, SharedShape::new(p)))
                        })
                        .collect();
                    SharedShape::compound(parts)
                })
                .collect(),
        )
    }
}

/// The answer a method gives, reduced to what the accuracy columns need.
struct Answer {
    intersect: bool,
    mtv: Vec2,
    depth: f32,
    work: Work,
}

fn parry_pose(p: &Pose) -> parry2d::math::Pose {
    parry2d::math::Pose::new(parry2d::math::Vector::new(p.translation.x, p.translation.y), p.angle())
}

/// Runs `method` once on a pair.
fn answer(method: Method, a: &Shape, pa: &Pose, b: &Shape, pb: &Pose, parry: (&SharedShape, &SharedShape)) -> Answer {
    let ours = |algorithm: Algorithm, edge_tree: EdgeTreePolicy| {
        let config = NarrowConfig {
            edge_tree,
            ..NarrowConfig::default()
        };
        let c = collide(a, pa, b, pb, algorithm, &config, None);
        Answer {
            intersect: c.intersect,
            mtv: c.mtv,
            depth: c.depth,
            work: c.work,
        }
    };
    match method {
        Method::NonConvexSat => ours(Algorithm::NonConvexSat, EdgeTreePolicy::Never),
        Method::NonConvexSatTree => ours(Algorithm::NonConvexSat, EdgeTreePolicy::Always),
        Method::SatDecomposed => ours(Algorithm::SatDecomposed, EdgeTreePolicy::default()),
        Method::GjkEpa => ours(Algorithm::GjkEpa, EdgeTreePolicy::default()),
        Method::Parry2d => {
            let c = parry_contact(pa, pb, parry);
            // Touching counts as not intersecting, as in our narrow phases.
            let tol = 8.0 * f32::EPSILON * super::workload::query_scale(a, pa, b, pb);
            match c {
                Some(c) if -c.dist > tol => {
                    let normal = Vec2::new(c.normal1.x, c.normal1.y);
                    Answer {
                        intersect: true,
                        mtv: -normal * -c.dist,
                        depth: -c.dist,
                        work: Work::default(),
                    }
                }
                _ => Answer {
                    intersect: false,
                    mtv: Vec2::ZERO,
                    depth: 0.0,
                    work: Work::default(),
                },
            }
        }
    }
}

fn parry_contact(pa: &Pose, pb: &Pose, (sa, sb): (&SharedShape, &SharedShape)) -> Option<parry2d::query::Contact> {
    parry2d::query::contact(&parry_pose(pa), sa.as_ref(), &parry_pose(pb), sb.as_ref(), 0.0)
        .ok()
        .flatten()
}

/// Time per call of `f` (ns): three batches of about `batch_ns` each, median of their
/// means (see the module docs). A call that alone outlasts a batch is timed once (the
/// big polygons of the tree curve without their tree take seconds).
pub fn time_per_call<T>(batch_ns: f64, mut f: impl FnMut() -> T) -> f64 {
    let start = Instant::now();
    black_box(f());
    let once = start.elapsed().as_nanos().max(1) as f64;
    if once >= batch_ns {
        return once;
    }
    let reps = (batch_ns / once).clamp(1.0, 100_000.0) as u32;
    let mut means = [0.0f64; 3];
    for mean in &mut means {
        let start = Instant::now();
        for _ in 0..reps {
            black_box(f());
        }
        *mean = start.elapsed().as_nanos() as f64 / reps as f64;
    }
    means.sort_by(f64::total_cmp);
    means[1]
}

/// Times and judges `method` on every pair of a workload.
pub fn measure(method: Method, set: &ShapeSet, parry: &ParryShapes, pairs: &[Pair], batch_ns: f64) -> Vec<PairOutcome> {
    pairs
        .iter()
        .map(|p| {
            let (a, b) = (&set.shapes[p.a], &set.shapes[p.b]);
            let shapes_parry = (&parry.0[p.a], &parry.0[p.b]);
            // Warm-up, and the answer to judge.
            let ans = answer(method, a, &p.pose_a, b, &p.pose_b, shapes_parry);
            let ns = time_per_call(batch_ns, || {
                answer(method, a, &p.pose_a, b, &p.pose_b, shapes_parry).depth
            });
            let (mut mtv_separates, mut depth_ratio) = (None, None);
            if ans.intersect && p.exact.intersect {
                let moved = Pose {
                    translation: p.pose_a.translation + ans.mtv,
                    ..p.pose_a
                };
                // Penetrating by more than 1e-4 of the size is "not separated"; the search
                // need not look deeper than that.
                let tolerance = 1e-4 * SHAPE_SIZE_M;
                let left = signed_distance_capped(a, &moved, b, &p.pose_b, 2.0 * tolerance);
                mtv_separates = Some(left >= -tolerance);
                if let Some(d) = p.exact.depth.filter(|&d| d > 0.0) {
                    depth_ratio = Some(ans.depth as f64 / d as f64);
                }
            }
            PairOutcome {
                ns,
                work: ans.work,
                intersect: ans.intersect,
                mtv_separates,
                depth_ratio,
            }
        })
        .collect()
}
