use super::*;
use crate::dynamics::{World, WorldSettings};
use crate::math::Point;
use crate::scene::{BodyDef, BodyKind, Scene, SceneDef, ShapeDef};

/// Counts what it is told, so the test knows the recorder was really called.
#[derive(Default)]
struct Tally {
    calls: usize,
    impacts: Vec<(usize, f32, Vec2)>,
}

impl ContinuousRecorder for Tally {
    fn pose_sampled(&mut self, _tau: f32, _pose: &Pose, _hit: bool) {
        self.calls += 1;
    }
    fn bracket(&mut self, _t0: f32, _t1: f32, _mid: f32, _hit: bool) {
        self.calls += 1;
    }
    fn advanced(&mut self, _t: usize, _tau: f32, _gap: f32, _n: Vec2, _p: (Vec2, Vec2), _step: f32) {
        self.calls += 1;
    }
    fn impact(&mut self, slot: usize, tau: f32, nudge: Vec2) {
        self.impacts.push((slot, tau, nudge));
    }
}

/// A spinning box at 120 m/s towards a 2 cm wall, stepped once with detection off:
/// the bodies after the discrete step and the sweep scratch that saw them start.
fn tunnelled() -> (BodySet, ContinuousScratch) {
    let rect = |w: f32, h: f32| ShapeDef::Polygon {
        points: vec![
            Point(-w / 2.0, -h / 2.0),
            Point(w / 2.0, -h / 2.0),
            Point(w / 2.0, h / 2.0),
            Point(-w / 2.0, h / 2.0),
        ],
    };
    let mut wall = BodyDef::new(rect(0.02, 2.0));
    wall.kind = BodyKind::Static;
    let mut bullet = BodyDef::new(rect(0.2, 0.1));
    bullet.position = Point(-1.0, 0.1);
    bullet.linear_velocity = Point(120.0, 0.0);
    bullet.angular_velocity = 30.0;
    let scene = Scene::from_def(SceneDef {
        bodies: vec![wall, bullet],
        ..SceneDef::default()
    })
    .expect("valid scene");
    let settings = WorldSettings {
        gravity: Vec2::ZERO,
        continuous: ContinuousMode::Off,
        substeps: 1,
        ..WorldSettings::default()
    };
    let mut world = World::from_scene_with(&scene, settings);
    let mut scratch = ContinuousScratch::default();
    scratch.record_start(world.bodies());
    world.step(1.0 / 60.0);
    (world.bodies().clone(), scratch)
}

#[test]
fn the_recorded_sweep_moves_the_bodies_as_the_plain_one() {
    for mode in [ContinuousMode::Interpolation, ContinuousMode::ConservativeAdvancement] {
        let settings = WorldSettings {
            continuous: mode,
            ..WorldSettings::default()
        };
        let (mut plain, mut scratch) = tunnelled();
        let mut recorded = plain.clone();
        let mut scratch_recorded = scratch.clone();
        let counts = scratch.sweep(&mut plain, &settings, 1);
        let mut tally = Tally::default();
        let counts_recorded = scratch_recorded.sweep_recorded(&mut recorded, &settings, 1, &mut tally);
        assert_eq!(counts, counts_recorded, "{mode:?}");
        assert_eq!(counts.rollbacks, 1, "{mode:?}: the bullet is caught");
        assert!(tally.calls > 2, "{mode:?}: the recorder heard the search");
        assert_eq!(tally.impacts.len(), 1, "{mode:?}");
        for slot in 0..plain.slot_count() {
            let (a, b) = (plain.slot(slot).unwrap(), recorded.slot(slot).unwrap());
            assert_eq!(a.pose(), b.pose(), "{mode:?} slot {slot}");
            assert_eq!(a.linear_velocity(), b.linear_velocity(), "{mode:?} slot {slot}");
        }
    }
}
