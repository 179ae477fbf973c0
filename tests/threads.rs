//! The narrow phase of a big step runs on rayon's threads (`dynamics/contacts.rs`): the
//! world must come out the same, bit for bit, whatever the number of threads (each cuts
//! the pairs into different chunks) and with race mode, which detects on one thread.

use collision_lab::dynamics::{World, WorldSettings};
use collision_lab::scene;

const DT: f32 = 1.0 / 60.0;

/// The state hash of `steps` steps of a shipped scene on a pool of `threads` threads.
fn hash_with_threads(scene_file: &str, steps: usize, threads: usize, race: bool) -> u64 {
    let scene = scene::load(format!("{}/scenes/{scene_file}", env!("CARGO_MANIFEST_DIR"))).expect("a shipped scene");
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("a thread pool");
    pool.install(|| {
        let settings = WorldSettings {
            sleeping: false,
            race,
            ..*World::from_scene(&scene).settings()
        };
        let mut world = World::from_scene_with(&scene, settings);
        for _ in 0..steps {
            world.step(DT);
        }
        world.state_hash()
    })
}

#[test]
fn every_thread_count_gives_the_same_world() {
    // pyramid_40: 820 boxes, about 2,400 candidate pairs a step, above the parallel
    // threshold; rain_1000 as the balls fall and pile.
    for (scene_file, steps) in [("pyramid_40.ron", 40), ("rain_1000.ron", 60)] {
        let one = hash_with_threads(scene_file, steps, 1, false);
        for threads in [2, 3, 8] {
            assert_eq!(
                hash_with_threads(scene_file, steps, threads, false),
                one,
                "{scene_file}: {threads} threads"
            );
        }
        assert_eq!(
            hash_with_threads(scene_file, steps, 2, true),
            one,
            "{scene_file}: race mode"
        );
    }
}
