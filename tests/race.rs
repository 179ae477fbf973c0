//! Race mode: the three narrow phases side by side inside the world. Racing never
//! changes the simulation; it finds Fayzrakhmanov et al.'s (2015) known false positive; it counts the work
//! of all three.

use collision_lab::dynamics::{DisagreementKind, RaceReport, World, WorldSettings};
use collision_lab::narrow::Algorithm;
use collision_lab::scene::{self, Scene};
use std::path::Path;

const DT: f32 = 1.0 / 60.0;

fn shipped(name: &str) -> Scene {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes").join(name);
    scene::load(&path).unwrap_or_else(|e| panic!("{e}"))
}

/// Steps `world` `steps` times and returns every step's race report.
fn run(world: &mut World, steps: usize) -> Vec<RaceReport> {
    (0..steps).filter_map(|_| world.step(DT).race).collect()
}

#[test]
fn racing_never_changes_the_simulation() {
    for name in ["default.ron", "nonconvex_pairs.ron"] {
        let scene = shipped(name);
        for algorithm in Algorithm::ALL {
            let settings = |race: bool| WorldSettings {
                narrow_phase: algorithm,
                race,
                ..*World::from_scene(&scene).settings()
            };
            let mut plain = World::from_scene_with(&scene, settings(false));
            let mut racing = World::from_scene_with(&scene, settings(true));
            for step in 0..120 {
                let plain_report = plain.step(DT);
                let race_report = racing.step(DT);
                assert!(plain_report.race.is_none());
                assert!(race_report.race.is_some());
                assert_eq!(
                    plain.state_hash(),
                    racing.state_hash(),
                    "{name}, {algorithm}, step {step}"
                );
            }
        }
    }
}

//  +--+      +--+
//  |  | +--+ |  |      a box floating in a U's notch, touching nothing. With the box
//  |  | +--+ |  |      first it is the narrow phase's A, and Fayzrakhmanov et al.'s heuristic with a convex A
//  |  +------+  |      sees overlapping projections on every axis: a collision that
//  +------------+      is not there. The decomposed algorithms see none.
const BOX_IN_NOTCH: &str = r#"(
    version: 1,
    gravity: (0.0, 0.0),
    settings: (narrow_phase: SatDecomposed),
    bodies: [
        (
            name: "box",
            shape: Polygon(points: [(-0.3, -0.3), (0.3, -0.3), (0.3, 0.3), (-0.3, 0.3)]),
            position: (1.5, 2.0),
        ),
        (
            name: "U",
            kind: Static,
            shape: Polygon(points: [(0, 0), (3, 0), (3, 3), (2, 3), (2, 1), (1, 1), (1, 3), (0, 3)]),
        ),
    ],
)"#;

#[test]
fn the_box_in_the_notch_is_an_intersect_disagreement_against_sat_decomposed() {
    let scene = scene::parse(BOX_IN_NOTCH, "box_in_notch.ron").expect("a valid scene");
    let settings = WorldSettings {
        race: true,
        ..*World::from_scene(&scene).settings()
    };
    let mut world = World::from_scene_with(&scene, settings);
    let handles = world.bodies().handles();
    let report = world.step(DT).race.expect("racing");
    assert_eq!(report.chosen, Algorithm::SatDecomposed);
    // One pair, detected once per step: NonConvexSat disagrees; GjkEpa does not.
    assert_eq!(
        report.count(Algorithm::NonConvexSat, DisagreementKind::IntersectDiffers),
        1
    );
    assert_eq!(report.disagreements.len(), 1, "{report:#?}");
    for (i, d) in report.disagreements.iter().enumerate() {
        assert_eq!((d.body_a, d.body_b), (handles[0], handles[1]), "the box is A");
        assert_eq!(d.other, Algorithm::NonConvexSat);
        assert_eq!(d.substep, i as u32);
        assert!(!d.chosen_answer.intersect);
        assert!(d.other_answer.intersect);
        assert!((d.other_answer.depth - 1.3).abs() < 1e-5, "{d:?}");
    }
    assert_eq!(report.stats(Algorithm::NonConvexSat).intersecting, 1);
    assert_eq!(report.stats(Algorithm::SatDecomposed).intersecting, 0);
    assert_eq!(report.stats(Algorithm::GjkEpa).intersecting, 0);
    // The simulation used SatDecomposed: nothing touched, so the box has not moved.
    assert!(world.contacts().is_empty());
}

#[test]
fn the_exact_answer_counts_the_heuristic_wrong_even_when_it_is_the_chosen_one() {
    // With NonConvexSat chosen, the other two disagree with it; only the exact oracle
    // says which side is right.
    let scene = scene::parse(BOX_IN_NOTCH, "box_in_notch.ron").expect("a valid scene");
    let settings = WorldSettings {
        race: true,
        narrow_phase: Algorithm::NonConvexSat,
        ..*World::from_scene(&scene).settings()
    };
    let mut world = World::from_scene_with(&scene, settings);
    let report = world.step(DT).race.expect("racing");
    assert_eq!(report.exact_checked, 1, "{report:#?}");
    assert_eq!(report.wrong_by_exact, [1, 0, 0], "only NonConvexSat is wrong");
    assert!(report.scale_m > 3.0, "the scene is about 4 m across");
}

#[test]
fn every_algorithm_is_counted() {
    let scene = shipped("default.ron");
    let settings = WorldSettings {
        race: true,
        ..*World::from_scene(&scene).settings()
    };
    let mut world = World::from_scene_with(&scene, settings);
    let reports = run(&mut world, 120);
    assert_eq!(reports.len(), 120);
    let mut candidate_pairs = 0;
    for (step, report) in reports.iter().enumerate() {
        for (stats, algorithm) in report.per_algorithm.iter().zip(Algorithm::ALL) {
            assert_eq!(stats.algorithm, algorithm);
            // All three answer the same pairs.
            assert_eq!(stats.queries, report.per_algorithm[0].queries, "step {step}");
        }
        candidate_pairs += report.per_algorithm[0].queries;
    }
    assert!(candidate_pairs > 0);
    for algorithm in Algorithm::ALL {
        let queries: u32 = reports.iter().map(|r| r.stats(algorithm).queries).sum();
        let intersecting: u32 = reports.iter().map(|r| r.stats(algorithm).intersecting).sum();
        let primitive_tests: u32 = reports.iter().map(|r| r.stats(algorithm).work.primitive_tests).sum();
        let axes_or_iterations: u32 = reports
            .iter()
            .map(|r| {
                let w = &r.stats(algorithm).work;
                w.axes_tested + w.gjk_iterations
            })
            .sum();
        let nanos: u128 = reports.iter().map(|r| r.stats(algorithm).time.as_nanos()).sum();
        assert_eq!(queries, candidate_pairs, "{algorithm}");
        assert!(intersecting > 0, "{algorithm}: bodies land on the ground");
        assert!(primitive_tests > 0, "{algorithm}");
        assert!(axes_or_iterations > 0, "{algorithm}");
        assert!(nanos > 0, "{algorithm}");
    }
    // The chosen algorithm never disagrees with itself.
    let chosen = world.settings().narrow_phase;
    assert!(reports.iter().flat_map(|r| &r.disagreements).all(|d| d.other != chosen));
}
