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
/// every node of the polygon's tree against the query's root, as the descent does it)
/// and Cp (one edge-box test, every edge pair). A few milliseconds in all; empty when
/// the scene is not a lesson 12 scene.
pub(crate) fn measure(scene: &Scene) -> Vec<MeasuredCost> {
    use std::hint::black_box;
    use std::time::Instant;
    let Some(bodies) = Bodies::of(scene) else {
        return Vec::new();
    };
    let xf_ab = bodies.xf_ab();
    // Repeat a round of `tests` tests until 1.5 ms have passed (long beside the clock's
    // resolution and its ~20 ns reading cost); ns per test.
    let per_test = |tests: usize, mut round: Box<dyn FnMut() -> u32 + '_>| {
        black_box(round());
        let start = Instant::now();
        let mut rounds = 0u64;
        while start.elapsed().as_secs_f64() < 1.5e-3 {
            black_box(round());
            rounds += 1;
        }
        start.elapsed().as_secs_f64() * 1e9 / (rounds.max(1) as f64 * tests.max(1) as f64)
    };
    BoundKind::ALL
        .into_iter()
        .map(|kind| {
            let (a, b) = bodies.trees(kind);
            let boxes_only = a.boxes_only(&b);
            let nodes = a.node_count();
            let cv_ns = per_test(
                nodes,
                Box::new(|| {
                    (0..nodes)
                        .map(|i| a.node_test(black_box(i), &b, 0, &xf_ab, MARGIN_M, boxes_only) as u32)
                        .sum()
                }),
            );
            let (ea, eb) = (bodies.a_local.len(), bodies.b_local.len());
            let cp_ns = per_test(
                ea * eb,
                Box::new(|| {
                    let mut hits = 0;
                    for i in 0..ea {
                        for j in 0..eb {
                            hits += a.item_test(black_box(i), &b, j, &xf_ab, MARGIN_M) as u32;
                        }
                    }
                    hits
                }),
            );
            MeasuredCost { kind, cv_ns, cp_ns }
        })
        .collect()
}
