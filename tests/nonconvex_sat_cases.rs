//! Fayzrakhmanov et al.'s (2015) non-convex SAT, pinned on the cases where its heuristic goes wrong. Each
//! test is named after the failure it pins; the decomposition algorithms give the exact
//! answer on the same pair, which is what lessons show side by side.

mod common;

use collision_lab::geometry::{Polygon, Shape};
use collision_lab::math::{Pose, Vec2};
use collision_lab::narrow::exact::{exact_penetration, polygons_overlap};
use collision_lab::narrow::trace::{Trace, TraceStep};
use collision_lab::narrow::{collide, Algorithm, NarrowConfig};
use common::*;

fn u_shape() -> Shape {
    poly(&[
        (0.0, 0.0),
        (3.0, 0.0),
        (3.0, 3.0),
        (2.0, 3.0),
        (2.0, 1.0),
        (1.0, 1.0),
        (1.0, 3.0),
        (0.0, 3.0),
    ])
}

fn square(half: f32) -> Shape {
    poly(&[(-half, -half), (half, -half), (half, half), (-half, half)])
}

//  +--+      +--+
//  |  | +--+ |  |      a box floating in a U's notch, touching nothing. Every edge
//  |  | +--+ |  |      axis (x and y) shows overlapping projections, so SAT with the
//  |  +------+  |      convex box as A reports a collision; with the U as A, step 7
//  +------------+      notices no U edge touches the box.
#[test]
fn false_positive_box_in_u_notch() {
    let (u, bx) = (u_shape(), square(0.3));
    let pose_box = Pose::new(Vec2::new(1.5, 2.0), 0.0);
    let config = NarrowConfig::default();
    assert!(
        !polygons_overlap(&bx, &pose_box, &u, &Pose::IDENTITY),
        "the exact answer: no overlap"
    );
    let heuristic = collide(
        &bx,
        &pose_box,
        &u,
        &Pose::IDENTITY,
        Algorithm::NonConvexSat,
        &config,
        None,
    );
    assert!(
        heuristic.intersect,
        "Fayzrakhmanov et al.'s heuristic with a convex A cannot see the notch"
    );
    assert!(
        (heuristic.depth - 1.3).abs() < 1e-5,
        "least overlap is on y: {}",
        heuristic.depth
    );
    let swapped = collide(
        &u,
        &Pose::IDENTITY,
        &bx,
        &pose_box,
        Algorithm::NonConvexSat,
        &config,
        None,
    );
    assert!(!swapped.intersect, "with the U as A, step 7 rejects every edge");
    for alg in [Algorithm::SatDecomposed, Algorithm::GjkEpa] {
        assert!(!collide(&bx, &pose_box, &u, &Pose::IDENTITY, alg, &config, None).intersect);
    }
}

//  +--+      +--+
//  |  |      |  |      a box sunk 0.2 into the notch's floor. Only the floor edge
//  |  | +--+ |  |      straddles the box, so the U's axes give overlap 1.6 on y; the
//  |  +-|--|-+  |      centre-to-centre sign (U's centroid is above the box's centre)
//  |    +--+    |      points up: Fayzrakhmanov et al.'s heuristic lifts the whole U 1.6 m instead of pushing
//  +------------+      it down 0.2 m.
#[test]
fn wrong_mtv_box_sunk_into_u_floor() {
    let (u, bx) = (u_shape(), square(0.4));
    let pose_box = Pose::new(Vec2::new(1.5, 1.2), 0.0);
    let config = NarrowConfig::default();
    let exact = exact_penetration(&u, &Pose::IDENTITY, &bx, &pose_box).unwrap();
    assert!((exact.depth - 0.2).abs() < 1e-5);
    let mut trace = Trace::new();
    let c = collide(
        &u,
        &Pose::IDENTITY,
        &bx,
        &pose_box,
        Algorithm::NonConvexSat,
        &config,
        Some(&mut trace),
    );
    assert!(c.intersect);
    assert!((c.depth - 1.6).abs() < 1e-5, "depth {}", c.depth);
    assert!((c.mtv - Vec2::new(0.0, 1.6)).length() < 1e-5, "mtv {:?}", c.mtv);
    // Step 7 ran for each of the U's eight edges and only the floor straddles the box.
    let straddling: Vec<usize> = trace
        .steps
        .iter()
        .filter_map(|s| match s {
            TraceStep::EdgeTest(e) if e.straddles => Some(e.edge),
            _ => None,
        })
        .collect();
    assert_eq!(straddling, vec![4]);
    for alg in [Algorithm::SatDecomposed, Algorithm::GjkEpa] {
        let d = collide(&u, &Pose::IDENTITY, &bx, &pose_box, alg, &config, None);
        assert!(
            (d.depth - 0.2).abs() < 1e-5 && (d.mtv - Vec2::new(0.0, -0.2)).length() < 1e-4,
            "{alg}: {d:?}"
        );
    }
}

//      /\
//  ___/  \___        a small box wholly inside a star's body. No edge line of the star
//  \   []   /        passes through the box, so step 7 finds no edge of A touching B and
//   /  /\  \         declares "no intersection" — a false negative.
//  /_/    \_\
#[test]
fn false_negative_box_inside_star() {
    let star = Shape::Polygon(Polygon::new(&star(5, 1.0, 0.4)).unwrap());
    let bx = square(0.05);
    let config = NarrowConfig::default();
    assert!(polygons_overlap(&star, &Pose::IDENTITY, &bx, &Pose::IDENTITY));
    assert!(
        !collide(
            &star,
            &Pose::IDENTITY,
            &bx,
            &Pose::IDENTITY,
            Algorithm::NonConvexSat,
            &config,
            None
        )
        .intersect
    );
    for alg in [Algorithm::SatDecomposed, Algorithm::GjkEpa] {
        assert!(
            collide(&star, &Pose::IDENTITY, &bx, &Pose::IDENTITY, alg, &config, None).intersect,
            "{alg}"
        );
    }
}

#[test]
fn nonconvex_sat_trace_lists_axes_in_the_papers_order() {
    let (u, bx) = (u_shape(), square(0.4));
    let mut trace = Trace::new();
    collide(
        &u,
        &Pose::IDENTITY,
        &bx,
        &Pose::new(Vec2::new(1.5, 1.2), 0.0),
        Algorithm::NonConvexSat,
        &NarrowConfig::default(),
        Some(&mut trace),
    );
    let axes: Vec<usize> = trace
        .steps
        .iter()
        .filter_map(|s| match s {
            TraceStep::SatAxis(a) => Some(a.index),
            _ => None,
        })
        .collect();
    // m = 8 edges of the U + 4 of the box, tested k = 0..m in order.
    assert_eq!(axes, (0..12).collect::<Vec<_>>());
}
