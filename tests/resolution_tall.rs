//! Position-based resolution on the tall shipped pyramids (`tests/resolution.rs` has the
//! 20-row one and the textbook cases).
//!
//! `cargo test --release --test resolution_tall -- --nocapture` prints the measured
//! figures.

use collision_lab::dynamics::{ContinuousMode, Resolution, World, WorldSettings};
use collision_lab::math::Vec2;
use collision_lab::scene;

const DT: f32 = 1.0 / 60.0;

/// What a run of a shipped pyramid under `Projection` (its shipped settings otherwise,
/// sleeping on as shipped) did: the top box's move from 1 s to the end (m), the largest |x| and
/// the lowest y of a box centre over the run (m), the reused share of the candidate
/// pairs over the last quarter of the run, and whether every box sleeps at the end.
struct Held {
    top_moved: Vec2,
    widest: f32,
    lowest: f32,
    reused: f32,
    asleep: bool,
}

fn run_pyramid(name: &str, steps: u32) -> Held {
    let scene = scene::load(format!("{}/scenes/{name}", env!("CARGO_MANIFEST_DIR"))).expect("a shipped scene");
    let settings = WorldSettings {
        resolution: Resolution::Projection,
        ..*World::from_scene(&scene).settings()
    };
    let mut world = World::from_scene_with(&scene, settings);
    let top = *world.bodies().handles().last().expect("bodies");
    let (mut at_1s, mut widest, mut lowest) = (Vec2::ZERO, 0.0f32, f32::INFINITY);
    let (mut candidates, mut reused) = (0u64, 0u64);
    for step in 1..=steps {
        let profile = world.step(DT).profile;
        if step == 60 {
            at_1s = world.body(top).expect("top box").pose().translation;
        }
        if step > steps * 3 / 4 {
            candidates += u64::from(profile.candidate_pairs);
            reused += u64::from(profile.reused_pairs);
        }
        for (_, b) in world.bodies().iter().filter(|(_, b)| b.is_dynamic()) {
            let c = b.center_of_mass();
            widest = widest.max(c.x.abs());
            lowest = lowest.min(c.y);
        }
    }
    let top_moved = world.body(top).map_or(Vec2::splat(f32::NAN), |b| b.pose().translation) - at_1s;
    let reused = reused as f32 / candidates.max(1) as f32;
    let asleep = world
        .bodies()
        .iter()
        .filter(|(_, b)| b.is_dynamic())
        .all(|(_, b)| b.is_sleeping());
    println!(
        "{name}, Projection, {:.0} s: top box moved {top_moved:?} after the first second; widest |x| {widest:.3} m, \
         lowest centre {lowest:.3} m; {:.0}% of candidate pairs reused over the last quarter; all asleep at the end: {asleep}",
        steps as f32 * DT,
        100.0 * reused
    );
    Held {
        top_moved,
        widest,
        lowest,
        reused,
        asleep,
    }
}

/// Regression: under `Projection` the 40-row pyramid's right flank slid off (measured on
/// 2026-11-25: boxes 1.7 m beyond the bottom row's end by 15 s, 4.2 m by 20 s; the top
/// box 0.4 m off). Static friction marked every point whose correction reached the cone
/// μ·λn as slipped, and a slipped point forgot its drift; a resting point's λn in one
/// substep is a sliver of its load (m·g·h²), so a third of the points "slipped" every
/// step and each step the pyramid settled from a new rest position (`xpbd.rs`,
/// `hold_constraint`).
#[test]
fn regression_projection_pyramid_40_flank_slides() {
    let held = run_pyramid("pyramid_40.ron", 900);
    // The bottom row's end boxes stand at |x| = 19.5975 m.
    assert!(held.widest < 19.65, "a box slid off the flank to |x| = {}", held.widest);
    assert!(held.lowest > 0.45, "a box sank to {}", held.lowest);
    assert!(held.top_moved.x.abs() < 0.05, "the top box moved {:?}", held.top_moved);
    // At rest the bodies do not move against each other, so their contacts are reused
    // (under 10% before the fix: every pair crept past the reuse tolerance), unless the
    // whole pyramid sleeps, when no pair is tested at all (since the velocity pass
    // weighs the lower box of a resting pair more, it falls asleep within 15 s).
    assert!(
        held.asleep || held.reused > 0.5,
        "only {:.0}% of pairs reused",
        100.0 * held.reused
    );
}

/// Regression: under `Projection` the 5050-box pyramid rang for ever and, with the step
/// bench's settings (sleeping and continuous detection off, 4 substeps), its top box
/// slid off near step 200: at step 150 it was 0.68 m to the side at 1.1 m/s, and 4,684
/// of the boxes moved faster than 5 cm/s. One Gauss–Seidel velocity pass with the true
/// masses sent half of every correction down the column; the lower body of a stacked
/// pair at rest now counts as four times as heavy there (`xpbd.rs`, `LOWER_SCALE`).
#[test]
fn regression_projection_pyramid_100_rang_and_lost_its_top_box() {
    let scene = scene::load(format!("{}/scenes/pyramid_100.ron", env!("CARGO_MANIFEST_DIR"))).expect("a shipped scene");
    let settings = WorldSettings {
        resolution: Resolution::Projection,
        substeps: 4,
        sleeping: false,
        continuous: ContinuousMode::Off,
        ..*World::from_scene(&scene).settings()
    };
    let mut world = World::from_scene_with(&scene, settings);
    let top = *world.bodies().handles().last().expect("bodies");
    let start = world.body(top).expect("top box").pose().translation;
    for _ in 0..300 {
        world.step(DT);
    }
    let moved = world.body(top).expect("top box").pose().translation - start;
    let speeds: Vec<f32> = world
        .bodies()
        .iter()
        .filter(|(_, b)| b.is_dynamic())
        .map(|(_, b)| b.linear_velocity().length())
        .collect();
    let fast = speeds.iter().filter(|&&v| v > 0.05).count();
    let fastest = speeds.iter().fold(0.0f32, |m, &v| m.max(v));
    println!("pyramid_100, Projection, bench settings, 300 steps: top box moved {moved:?}; {fast} boxes faster than 5 cm/s, the fastest {fastest:.3} m/s");
    assert!(moved.x.abs() < 0.1, "the top box moved {moved:?}");
    assert!(moved.y > -1.0, "the top box sank by {}", -moved.y);
    assert!(
        fast < speeds.len() / 20,
        "{fast} of {} boxes faster than 5 cm/s",
        speeds.len()
    );
    assert!(fastest < 0.2, "a box at {fastest} m/s");
}
