//! How often Fayzrakhmanov et al.'s (2015) non-convex SAT disagrees with the exact answer, on a fixed set
//! of random non-convex pairs. The heuristic is allowed to be wrong — that is the
//! paper's trade — but not to get worse unnoticed: the rates measured when this test was
//! written are the ceilings below (with a little room for rounding). If a change makes
//! them better, lower the ceilings.

mod common;

use collision_lab::geometry::Shape;
use collision_lab::math::Pose;
use collision_lab::narrow::exact::{exact_penetration, overlap_area};
use collision_lab::narrow::{collide, Algorithm, NarrowConfig};
use common::*;
use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::TestRunner;

/// Disagreement counts over the sample.
#[derive(Debug, Default)]
struct Rates {
    pairs: u32,
    overlapping: u32,
    false_positive: u32,
    false_negative: u32,
    mtv_leaves_overlap: u32,
    depth_over_1_5x_exact: u32,
    depth_ratio_sum: f64,
    depth_ratio_count: u32,
}

fn measure(algorithm: Algorithm, n: u32) -> Rates {
    let mut runner = TestRunner::deterministic();
    let strategy = (nonconvex_polygon(), pose(1.2), nonconvex_polygon(), pose(1.2));
    let config = NarrowConfig::default();
    let mut r = Rates::default();
    while r.pairs < n {
        let (a, pa, b, pb): (Shape, Pose, Shape, Pose) = strategy.new_tree(&mut runner).unwrap().current();
        let area = overlap_area(&a, &pa, &b, &pb);
        if area > 0.0 && area < 1e-5 {
            continue; // grazing: either answer is defensible
        }
        r.pairs += 1;
        let exact = area > 0.0;
        r.overlapping += exact as u32;
        let c = collide(&a, &pa, &b, &pb, algorithm, &config, None);
        match (c.intersect, exact) {
            (true, false) => r.false_positive += 1,
            (false, true) => r.false_negative += 1,
            (true, true) => {
                let out = moved(&pa, c.mtv - c.normal * 1e-4);
                if overlap_area(&a, &out, &b, &pb) > 1e-6 {
                    r.mtv_leaves_overlap += 1;
                }
                if let Some(e) = exact_penetration(&a, &pa, &b, &pb) {
                    let ratio = c.depth as f64 / e.depth.max(1e-6) as f64;
                    r.depth_ratio_sum += ratio;
                    r.depth_ratio_count += 1;
                    if ratio > 1.5 {
                        r.depth_over_1_5x_exact += 1;
                    }
                }
            }
            (false, false) => {}
        }
    }
    r
}

fn pct(x: u32, of: u32) -> f64 {
    100.0 * x as f64 / of.max(1) as f64
}

#[test]
fn nonconvex_sat_disagreement_rates_do_not_get_worse() {
    let r = measure(Algorithm::NonConvexSat, 1500);
    let fp = pct(r.false_positive, r.pairs - r.overlapping);
    let fnr = pct(r.false_negative, r.overlapping);
    let bad_mtv = pct(r.mtv_leaves_overlap, r.overlapping);
    let long = pct(r.depth_over_1_5x_exact, r.depth_ratio_count);
    let mean_ratio = r.depth_ratio_sum / r.depth_ratio_count.max(1) as f64;
    println!(
        "NonConvexSat on {} pairs ({} overlapping): false positives {fp:.1}% of separated pairs, \
         false negatives {fnr:.1}% of overlapping pairs, MTV leaves overlap {bad_mtv:.1}%, \
         depth > 1.5x exact {long:.1}%, mean depth / exact {mean_ratio:.2}",
        r.pairs, r.overlapping
    );
    assert!(fp <= FP_CEILING, "false-positive rate rose to {fp:.1}%");
    assert!(fnr <= FN_CEILING, "false-negative rate rose to {fnr:.1}%");
    assert!(bad_mtv <= BAD_MTV_CEILING, "MTV failure rate rose to {bad_mtv:.1}%");
    assert!(long <= LONG_CEILING, "over-long MTV rate rose to {long:.1}%");
}

#[test]
fn decomposition_algorithms_have_no_disagreements_on_the_same_sample() {
    for alg in [Algorithm::SatDecomposed, Algorithm::GjkEpa] {
        let r = measure(alg, 400);
        println!("{alg}: {r:?}");
        assert_eq!(
            (r.false_positive, r.false_negative, r.mtv_leaves_overlap),
            (0, 0, 0),
            "{alg}"
        );
    }
}

// Ceilings in percent: the rate measured on 2026-11-22 (in the comment) plus about one
// point. The mean |MTV| / exact depth measured then was 2.09.
const FP_CEILING: f64 = 14.5; // 13.4% of separated pairs reported as colliding
const FN_CEILING: f64 = 1.0; // 0.0%: step 7 misses a body wholly inside A, rare here
const BAD_MTV_CEILING: f64 = 2.0; // 0.9%: the centre-to-centre sign points into B
const LONG_CEILING: f64 = 29.0; // 27.8% of MTVs longer than 1.5x the exact one

/// On convex pairs Fayzrakhmanov et al.'s (2015) depth is exact (its axes are all the edge normals), but its
/// step-10 sign comes from the centre-to-centre direction, not from which side the
/// overlap is least on: for deep overlaps of lopsided shapes it can point into B.
#[test]
fn nonconvex_sat_sign_rule_on_convex_pairs() {
    let mut runner = TestRunner::deterministic();
    let strategy = (convex_polygon(), pose(1.0), convex_polygon(), pose(1.0));
    let config = NarrowConfig::default();
    let (mut overlapping, mut wrong_side) = (0u32, 0u32);
    while overlapping < 1000 {
        let (a, pa, b, pb): (Shape, Pose, Shape, Pose) = strategy.new_tree(&mut runner).unwrap().current();
        let c = collide(&a, &pa, &b, &pb, Algorithm::NonConvexSat, &config, None);
        let exact = collide(&a, &pa, &b, &pb, Algorithm::SatDecomposed, &config, None);
        if !(c.intersect && exact.intersect && exact.depth > 1e-3) {
            continue;
        }
        overlapping += 1;
        assert!(
            (c.depth - exact.depth).abs() <= 1e-4 * exact.depth + 1e-5,
            "depth {} vs {}",
            c.depth,
            exact.depth
        );
        let out = moved(&pa, c.mtv - c.normal * 1e-4);
        if overlap_area(&a, &out, &b, &pb) > 1e-6 {
            wrong_side += 1;
        }
    }
    let rate = pct(wrong_side, overlapping);
    println!("NonConvexSat on 1000 overlapping convex pairs: MTV on the wrong side {rate:.1}%");
    // Measured 2026-11-22: 0.8%; the ceiling leaves about one point.
    assert!(rate <= SIGN_CEILING, "wrong-side rate rose to {rate:.1}%");
}

const SIGN_CEILING: f64 = 2.0; // measured 0.8%
