//! What lesson 12's cost model multiplies: the counts a descent records (in the trace)
//! and the times of its two tests on this machine (never in the trace: they differ from
//! run to run, and the golden traces are exact).

use super::{Bodies, MARGIN_M};
use crate::bounds::BoundKind;
use crate::scene::Scene;

/// The work of one descent with one node volume: what the cost model multiplies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CostCount {
    /// The node volume.
    pub kind: BoundKind,
    /// Node pairs tested (Nv).
    pub nv: u32,
    /// Edge pairs tested at the leaves (Np).
    pub np: u32,
}

/// The counts of every node volume's descent, and which one the lesson steps through.
#[derive(Clone, Debug, PartialEq)]
pub struct CostCounts {
    /// The node volume stepped through.
    pub shown: BoundKind,
    /// One row per node volume, in [`BoundKind::ALL`] order.
    pub rows: Vec<CostCount>,
}

/// Cv and Cp of one node volume, timed on this machine (ns per test).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MeasuredCost {
    /// The node volume.
    pub kind: BoundKind,
    /// One node test: the query's volume moved into the tree's frame and tested.
    pub cv_ns: f64,
    /// One edge test: two edge boxes (the same for every node volume).
    pub cp_ns: f64,
}

/// Times the descent's two tests on this machine: per node volume, Cv (one node test,
/// every node of the polygon's tree against the query's root, as the descent does it),
/// and Cp (one edge-box test, every edge pair), timed once: it is the same function on
/// the same boxes whatever the node volume. About 20 ms in all; empty when the scene is
/// not a lesson 12 scene.
pub(crate) fn measure(scene: &Scene) -> Vec<MeasuredCost> {
    use std::hint::black_box;
    let Some(bodies) = Bodies::of(scene) else {
        return Vec::new();
    };
    let xf_ab = bodies.xf_ab();
    let (ea, eb) = (bodies.a_local.len(), bodies.b_local.len());
    let (a, b) = bodies.trees(BoundKind::Aabb);
    let cp_ns = per_test(ea * eb, &mut || {
        let mut hits = 0;
        for i in 0..ea {
            for j in 0..eb {
                hits += a.item_test(black_box(i), &b, j, &xf_ab, MARGIN_M) as u32;
            }
        }
        hits
    });
    BoundKind::ALL
        .into_iter()
        .map(|kind| {
            let (a, b) = bodies.trees(kind);
            let boxes_only = a.boxes_only(&b);
            let nodes = a.node_count();
            let cv_ns = per_test(nodes, &mut || {
                (0..nodes)
                    .map(|i| a.node_test(black_box(i), &b, 0, &xf_ab, MARGIN_M, boxes_only) as u32)
                    .sum()
            });
            MeasuredCost { kind, cv_ns, cp_ns }
        })
        .collect()
}

/// Nanoseconds per test of `round`, which makes `tests` tests: the least over
/// [`SAMPLES`] samples of [`SAMPLE_S`] each. The least, not the mean: on a shared machine
/// a sample can only be slowed (by another process, an interrupt), never sped up, so the
/// fastest sample is the closest to the test's own cost.
fn per_test(tests: usize, round: &mut dyn FnMut() -> u32) -> f64 {
    use std::hint::black_box;
    use std::time::Instant;
    black_box(round());
    (0..SAMPLES)
        .map(|_| {
            let start = Instant::now();
            let mut rounds = 0u64;
            while start.elapsed().as_secs_f64() < SAMPLE_S {
                black_box(round());
                rounds += 1;
            }
            start.elapsed().as_secs_f64() * 1e9 / (rounds.max(1) as f64 * tests.max(1) as f64)
        })
        .fold(f64::INFINITY, f64::min)
}

/// Samples per timing, and the length of one: long beside the clock's resolution and
/// its ~20 ns reading cost, short enough that one is seldom interrupted.
const SAMPLES: usize = 9;
const SAMPLE_S: f64 = 0.25e-3;
