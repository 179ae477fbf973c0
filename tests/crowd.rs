//! Crowds: bodies created inside each other separate at a bounded speed, settle, and stay
//! within bounded memory (`src/dynamics/crowd.rs`).
//!
//! The peak of live heap bytes is measured with a global allocator that tracks it (this
//! test binary only), so the memory promise is checked, not guessed.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

use collision_lab::dynamics::{Resolution, World, WorldSettings, MAX_CROWDED_PAIRS};
use collision_lab::math::Point;
use collision_lab::scene::{self, BodyDef, Scene, ShapeDef};

struct PeakTracking;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

fn grew(size: usize) {
    let live = LIVE.fetch_add(size, Ordering::Relaxed) + size;
    PEAK.fetch_max(live, Ordering::Relaxed);
}

unsafe impl GlobalAlloc for PeakTracking {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        grew(layout.size());
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
        grew(new_size);
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOCATOR: PeakTracking = PeakTracking;

const DT: f32 = 1.0 / 60.0;

fn unit_box(x: f32, y: f32) -> BodyDef {
    let mut b = BodyDef::new(ShapeDef::Polygon {
        points: vec![Point(-0.5, -0.5), Point(0.5, -0.5), Point(0.5, 0.5), Point(-0.5, 0.5)],
    });
    b.position = Point(x, y);
    b
}

/// A 100 m static ground with its top at y = 0, and `n` unit boxes all at (0, 5).
fn boxes_at_one_point(n: usize) -> Scene {
    let mut ground = BodyDef::new(ShapeDef::Polygon {
        points: vec![
            Point(-50.0, -0.5),
            Point(50.0, -0.5),
            Point(50.0, 0.5),
            Point(-50.0, 0.5),
        ],
    });
    ground.position = Point(0.0, -0.5);
    ground.kind = scene::BodyKind::Static;
    let mut bodies = vec![ground];
    bodies.extend((0..n).map(|_| unit_box(0.0, 5.0)));
    Scene::from_def(scene::SceneDef {
        bodies,
        ..scene::SceneDef::default()
    })
    .expect("a valid scene")
}

fn dynamic_bodies(world: &World) -> impl Iterator<Item = &collision_lab::dynamics::Body> {
    world.bodies().iter().map(|(_, b)| b).filter(|b| b.is_dynamic())
}

/// Regression: 500 boxes created at one point were thrown up to 782 m (the solvers
/// capped each pair's push-out speed, but the caps added up along chains of
/// overlapping bodies), and 394 of them left the scene. Now every body stays on the
/// ground, none is lost, none is faster than a fall from the heap's top, and the heap
/// comes to rest.
#[test]
fn regression_boxes_created_at_one_point_separate_without_exploding() {
    for resolution in [Resolution::Impulses, Resolution::Projection] {
        let scene = boxes_at_one_point(200);
        let settings = WorldSettings {
            resolution,
            ..*World::from_scene(&scene).settings()
        };
        let mut world = World::from_scene_with(&scene, settings);
        let (mut fastest, mut highest_ever, mut removed) = (0.0f32, 0.0f32, 0);
        for _ in 0..1200 {
            removed += world.step(DT).removed.len();
            let top = dynamic_bodies(&world)
                .map(|b| b.linear_velocity().length())
                .fold(0.0, f32::max);
            fastest = fastest.max(top);
            let high = dynamic_bodies(&world)
                .map(|b| b.pose().translation.y)
                .fold(0.0, f32::max);
            highest_ever = highest_ever.max(high);
        }
        let lowest = dynamic_bodies(&world)
            .map(|b| b.pose().translation.y)
            .fold(f32::INFINITY, f32::min);
        let highest = dynamic_bodies(&world)
            .map(|b| b.pose().translation.y)
            .fold(0.0f32, f32::max);
        let widest = dynamic_bodies(&world)
            .map(|b| b.pose().translation.x.abs())
            .fold(0.0f32, f32::max);
        let still = dynamic_bodies(&world)
            .map(|b| b.linear_velocity().length())
            .fold(0.0f32, f32::max);
        println!(
            "{}: 200 boxes at one point after 20 s: fastest ever {fastest:.2} m/s, now {still:.3} m/s; \
             centres y {lowest:.3}..{highest:.2} m, |x| ≤ {widest:.2} m; removed {removed}",
            resolution.name()
        );
        assert_eq!(removed, 0, "{}: bodies were lost", resolution.name());
        // No faster than a fall from the highest point any box reached, plus the push-out
        // speed (the crowd builds a heap; boxes tumble down its sides).
        let bound = (2.0 * 9.81 * highest_ever).sqrt() + 3.0;
        println!("  highest centre ever {highest_ever:.2} m: speed bound {bound:.1} m/s");
        assert!(
            highest_ever < 20.0,
            "{}: bodies were thrown up to {highest_ever} m",
            resolution.name()
        );
        assert!(
            fastest < bound,
            "{}: a body was flung at {fastest} m/s",
            resolution.name()
        );
        assert!(
            lowest > 0.4,
            "{}: a box sank into the ground: centre at {lowest}",
            resolution.name()
        );
        assert!(
            widest < 50.0,
            "{}: a box left the ground: |x| {widest}",
            resolution.name()
        );
        assert!(
            still < 0.5,
            "{}: the heap is still moving at {still} m/s",
            resolution.name()
        );
    }
}

/// 5000 boxes at one point made 12.5 million candidate pairs and took 10–16 GB and
/// 23 s per step. Crowded pairs are now thinned to a bounded number per body: the peak
/// of live heap stays far below 1 GB, and the first steps keep at most
/// `MAX_CROWDED_PAIRS` pairs per box (plus its pair with the ground).
#[test]
fn regression_five_thousand_boxes_at_one_point_stay_within_a_gigabyte() {
    let n = 5000;
    let scene = boxes_at_one_point(n);
    let mut world = World::from_scene(&scene);
    let before = LIVE.load(Ordering::Relaxed);
    PEAK.store(before, Ordering::Relaxed);
    let mut most_pairs = 0u32;
    for _ in 0..20 {
        let report = world.step(DT);
        most_pairs = most_pairs.max(report.profile.candidate_pairs);
    }
    let peak_mb = (PEAK.load(Ordering::Relaxed) - before) as f64 / 1e6;
    let bound = n as u32 * MAX_CROWDED_PAIRS / 2 + n as u32;
    println!("5000 boxes at one point, 20 steps: peak heap {peak_mb:.0} MB, most candidate pairs {most_pairs} (bound {bound})");
    assert!(peak_mb < 1000.0, "peak heap {peak_mb} MB");
    assert!(most_pairs <= bound, "{most_pairs} candidate pairs");
    let removed = n + 1 - world.bodies().iter().count();
    assert_eq!(removed, 0);
}

/// Small balls in a big dynamic bin — far more than `MAX_CROWDED_PAIRS` of them inside
/// the bin's box — keep their pairs with it: none falls through the floor.
#[test]
fn balls_in_a_dynamic_bin_never_fall_through_it() {
    // Sixty balls inside a dynamic bin, resting on the ground.
    let mut bodies = Vec::new();
    let mut ground = unit_box(0.0, -0.5);
    ground.shape = ShapeDef::Polygon {
        points: vec![
            Point(-20.0, -0.5),
            Point(20.0, -0.5),
            Point(20.0, 0.5),
            Point(-20.0, 0.5),
        ],
    };
    ground.kind = scene::BodyKind::Static;
    bodies.push(ground);
    let mut bin = unit_box(0.0, 0.0);
    bin.shape = ShapeDef::Polygon {
        points: vec![
            Point(-4.0, 0.0),
            Point(4.0, 0.0),
            Point(4.0, 4.0),
            Point(3.8, 4.0),
            Point(3.8, 0.2),
            Point(-3.8, 0.2),
            Point(-3.8, 4.0),
            Point(-4.0, 4.0),
        ],
    };
    bodies.push(bin);
    for i in 0..60 {
        let mut ball = unit_box(-3.4 + 0.55 * (i % 13) as f32, 0.5 + 0.55 * (i / 13) as f32);
        ball.shape = ShapeDef::Circle { radius: 0.25 };
        bodies.push(ball);
    }
    let scene = Scene::from_def(scene::SceneDef {
        bodies,
        ..scene::SceneDef::default()
    })
    .expect("a valid scene");
    let mut world = World::from_scene(&scene);
    for _ in 0..240 {
        world.step(DT);
    }
    let ball_ys: Vec<f32> = dynamic_bodies(&world)
        .filter(|b| b.outer_reach() < 0.3)
        .map(|b| b.pose().translation.y)
        .collect();
    let lowest = ball_ys.iter().copied().fold(f32::INFINITY, f32::min);
    println!("60 balls in a dynamic bin after 4 s: lowest ball centre {lowest:.3} m (bin floor top at 0.2 m)");
    assert_eq!(ball_ys.len(), 60);
    assert!(lowest > 0.4, "a ball fell through the bin's floor: {lowest}");
}
