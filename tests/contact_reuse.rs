//! Reused contacts (`dynamics/contacts.rs`, "Reused contacts"; the tolerances in
//! `dynamics/contacts/reuse.rs`): a resting pair is not tested again, a pair moved by
//! hand is, and how far a pair may move and keep its contact grows with its size under
//! the position-based solver.
//!
//! `cargo test --test contact_reuse -- --nocapture` prints the measured figures.

use collision_lab::dynamics::{Resolution, World, WorldSettings};
use collision_lab::math::{Point, Vec2};
use collision_lab::scene::{self, BodyDef, Scene, SceneDef, ShapeDef};

mod common;

use common::pyramid_world;

const DT: f32 = 1.0 / 60.0;

/// A `side` m box resting on a static floor whose top is y = 0, its bottom in the floor
/// by `overlap_m`.
fn box_on_floor(side: f32, overlap_m: f32, settings: WorldSettings) -> World {
    let square = |w: f32, h: f32| ShapeDef::Polygon {
        points: [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)]
            .map(|(x, y)| Point(0.5 * w * x, 0.5 * h * y))
            .to_vec(),
    };
    let mut floor = BodyDef::new(square(40.0, 1.0));
    floor.position = Point(0.0, -0.5);
    floor.kind = scene::BodyKind::Static;
    let mut body = BodyDef::new(square(side, side));
    body.position = Point(0.0, 0.5 * side - overlap_m);
    let def = SceneDef {
        bodies: vec![floor, body],
        ..SceneDef::default()
    };
    World::from_scene_with(&Scene::from_def(def).expect("a valid scene"), settings)
}

/// Reused contacts (`dynamics/contacts.rs`): on the resting 20-row pyramid most pairs
/// are not tested again, the state is the same for any number of threads (checked in
/// `tests/threads.rs`), and a body moved by hand — by a centimetre — has its pairs
/// tested again at once.
#[test]
fn resting_pairs_reuse_their_contacts_and_a_moved_body_is_tested_again() {
    for resolution in [Resolution::Impulses, Resolution::Projection] {
        let (mut world, top) = pyramid_world(resolution);
        let mut last = None;
        for _ in 0..240 {
            last = Some(world.step(DT).profile);
        }
        let settled = last.expect("steps were taken");
        println!(
            "{}: after 4 s, {} of {} candidate pairs reused",
            resolution.name(),
            settled.reused_pairs,
            settled.candidate_pairs
        );
        assert!(
            settled.reused_pairs * 2 > settled.candidate_pairs,
            "{}: a resting pyramid reuses most of its pairs",
            resolution.name()
        );
        // Nudge the top box by 12 mm: its two contacts below must be tested, so fewer
        // pairs are reused than in the step before. A pair of convex polygons keeps its
        // contact while it has moved less than the slop (5 mm, `contacts.rs`) since it
        // was last tested, and it may have drifted up to that far the other way
        // already, so the nudge is more than twice the slop.
        let before = world.step(DT).profile.reused_pairs;
        let body = world.body_mut(top).expect("the top box");
        let pose = body.pose();
        body.set_pose(pose.translation + Vec2::new(0.012, 0.0), body.angle());
        let after = world.step(DT).profile.reused_pairs;
        assert!(
            after + 2 <= before,
            "{}: the moved box's pairs were reused ({after} reused after, {before} before)",
            resolution.name()
        );
    }
}

/// Under projection a pair of convex polygons keeps its contact while B has moved less
/// than a sixteenth of the smaller shape's reach against A, within 2 mm and the slop
/// (`contacts/reuse.rs`, `CONVEX_REUSE_SIZE_FRACTION`): a 1 m box resting on the ground and
/// slid by 3.5 mm is not tested again (it may move 5 mm), a 6 cm box slid as far is (it
/// may move a sixteenth of its 4.2 cm reach, 2.7 mm), and under impulses, which keep
/// 2 mm, neither is.
#[test]
fn a_resting_convex_pair_keeps_its_contact_for_a_move_that_grows_with_its_size() {
    for (resolution, side, kept) in [
        (Resolution::Projection, 1.0, true),
        (Resolution::Projection, 0.06, false),
        (Resolution::Impulses, 1.0, false),
    ] {
        let settings = WorldSettings {
            resolution,
            sleeping: false,
            ..WorldSettings::default()
        };
        // Started in the overlap it rests in (the slop): a box started touching sinks
        // into it while its contact is reused, and that counts as moving.
        let mut world = box_on_floor(side, settings.slop, settings);
        let boxed = world.bodies().handles()[1];
        for _ in 0..120 {
            world.step(DT);
        }
        let before = world.step(DT).profile;
        assert_eq!(
            (before.candidate_pairs, before.reused_pairs),
            (1, 1),
            "{resolution:?}, {side} m box: at rest, its one pair is reused"
        );
        let b = world.body_mut(boxed).expect("the box");
        let pose = b.pose();
        b.set_pose(pose.translation + Vec2::new(0.0035, 0.0), b.angle());
        let after = world.step(DT).profile;
        assert_eq!(
            after.reused_pairs == 1,
            kept,
            "{resolution:?}, {side} m box slid 3.5 mm: reused {} of {}",
            after.reused_pairs,
            after.candidate_pairs
        );
    }
}
