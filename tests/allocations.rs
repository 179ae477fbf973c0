//! The step allocates nothing in steady state: every per-step buffer (candidate pairs,
//! contacts, body states, constraints, scratch) is kept and reused. Counted with a
//! global allocator that counts allocations made on the test's own thread while
//! counting is on.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use collision_lab::dynamics::{Resolution, World, WorldSettings};
use collision_lab::narrow::Algorithm;
use collision_lab::scene;

struct Counting;

thread_local! {
    static COUNTING: Cell<bool> = const { Cell::new(false) };
    static COUNT: Cell<u64> = const { Cell::new(0) };
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // `try_with`: the thread-locals may be gone while a thread shuts down.
        let _ = COUNTING.try_with(|on| {
            if on.get() {
                let _ = COUNT.try_with(|c| c.set(c.get() + 1));
            }
        });
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let _ = COUNTING.try_with(|on| {
            if on.get() {
                let _ = COUNT.try_with(|c| c.set(c.get() + 1));
            }
        });
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// Heap allocations made by `f` on this thread.
fn allocations_in(f: impl FnOnce()) -> u64 {
    COUNT.with(|c| c.set(0));
    COUNTING.with(|on| on.set(true));
    f();
    COUNTING.with(|on| on.set(false));
    COUNT.with(|c| c.get())
}

/// Allocations in 30 steps of `scene` after `warm_up` steps, awake (sleeping off:
/// sleeping bodies would cost nothing and prove nothing), for every narrow phase and
/// both solvers' resolutions.
fn allocations_per_combination(scene_file: &str, warm_up: usize) -> Vec<(String, u64)> {
    let scene = scene::load(format!("{}/scenes/{scene_file}", env!("CARGO_MANIFEST_DIR"))).expect("shipped");
    let mut report = Vec::new();
    for resolution in [Resolution::Impulses, Resolution::Projection] {
        for algorithm in [Algorithm::NonConvexSat, Algorithm::SatDecomposed, Algorithm::GjkEpa] {
            let settings = WorldSettings {
                resolution,
                narrow_phase: algorithm,
                sleeping: false,
                ..*World::from_scene(&scene).settings()
            };
            let mut world = World::from_scene_with(&scene, settings);
            // Buffers grow to the scene's size while it moves.
            for _ in 0..warm_up {
                world.step(1.0 / 60.0);
            }
            let count = allocations_in(|| {
                for _ in 0..30 {
                    world.step(1.0 / 60.0);
                }
            });
            report.push((format!("{} + {}", algorithm.name(), resolution.name()), count));
        }
    }
    println!("allocations in 30 steps of {scene_file} after {warm_up} steps: {report:?}");
    report
}

/// One test, so that no other test's thread allocates while counting is on.
#[test]
fn a_settled_world_steps_without_allocating() {
    // The counter counts: one Vec is one allocation.
    let one = allocations_in(|| {
        std::hint::black_box(Vec::<u8>::with_capacity(16));
    });
    assert_eq!(one, 1, "the counting allocator is not counting");
    // Convex boxes, settled after a second; the same with enough pairs (about 2,400)
    // for the narrow phase to run on rayon's threads, whose allocations the global
    // counter sees too; and the default scene's non-convex bodies (stars, combs, gears:
    // piece trees, Minkowski differences, the combine step) after fifteen seconds.
    //
    // The steps run on a rayon worker (`install`), as a program that steps inside its
    // pool does. Called from outside any pool, rayon hands each parallel section to its
    // pool through a global queue that allocates a block every 63 sections (crossbeam's
    // `Injector`): one allocation in about 60 steps, which is rayon's, not the step's.
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .expect("a thread pool");
    for (scene_file, warm_up) in [("pyramid_20.ron", 60), ("pyramid_40.ron", 60), ("default.ron", 900)] {
        let report = pool.install(|| allocations_per_combination(scene_file, warm_up));
        assert!(
            report.iter().all(|(_, n)| *n == 0),
            "{scene_file}: allocations in 30 steps {report:?}"
        );
    }
}
