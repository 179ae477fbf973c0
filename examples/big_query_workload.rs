//! A fixed big-polygon workload for profiles: the poses of `collision-lab bench
//! --big-query` (B moved in along a random direction until the outlines just touch, then
//! 0.01 m further), one query per pose and algorithm, counted by callgrind.
//!
//! ```text
//! CARGO_ENCODED_RUSTFLAGS="" cargo build --release --target-dir target/plain --example big_query_workload
//! RAYON_NUM_THREADS=1 valgrind --tool=callgrind --toggle-collect='*big_query_workload*queries*' \
//!     target/plain/release/examples/big_query_workload star 10000 same GjkEpa
//! ```
//!
//! (The plain x86-64 build: valgrind does not decode the AVX-512 instructions that
//! `.cargo/config.toml`'s native build may use.)
//!
//! Arguments: family, vertex count, partner (`box` or `same`), algorithm (all three when
//! left out), pose (all when left out or out of range), timed repeats (1). Prints each
//! answer, the work it reports and the fastest repeat's time (a call before them fills
//! the buffers).

use collision_lab::geometry::families::{Family, SplitMix64};
use collision_lab::geometry::{Polygon, Shape};
use collision_lab::math::{Pose, Vec2};
use collision_lab::narrow::exact_distance::touching_offset;
use collision_lab::narrow::{collide, Algorithm, Contact, NarrowConfig};
use std::f32::consts::{PI, TAU};

/// How far B is pushed in past touching (metres), as the bench does.
const OVERLAP_M: f32 = 0.01;
/// Poses asked.
const POSES: usize = 6;

/// The measured part: one query.
#[inline(never)]
fn queries(a: &Shape, pa: &Pose, b: &Shape, pb: &Pose, algorithm: Algorithm, config: &NarrowConfig) -> Contact {
    collide(a, pa, b, pb, algorithm, config, None)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let family = args
        .get(1)
        .and_then(|name| Family::ALL.into_iter().find(|f| f.name() == name))
        .unwrap_or(Family::Star);
    let n: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(10_000);
    let same = args.get(3).is_none_or(|s| s == "same");
    let algorithms: Vec<Algorithm> = match args.get(4) {
        Some(name) => vec![name.parse().expect("an algorithm")],
        None => Algorithm::ALL.to_vec(),
    };
    let only_pose: Option<usize> = args.get(5).and_then(|s| s.parse().ok()).filter(|&p| p < POSES);
    let repeats: usize = args.get(6).and_then(|s| s.parse().ok()).unwrap_or(1);
    let seed = 1u64;
    let build = |s: u64| Shape::Polygon(Polygon::new(&family.generate(n, 1.0, s)).expect("a valid family shape"));
    let a = build(seed);
    let b = if same {
        build(seed + 1)
    } else {
        let h = 0.1;
        Shape::Polygon(
            Polygon::new(&[Vec2::new(-h, -h), Vec2::new(h, -h), Vec2::new(h, h), Vec2::new(-h, h)]).expect("a box"),
        )
    };
    let mut rng = SplitMix64::new(seed ^ (n as u64) ^ (u64::from(same) << 32));
    let mut poses = Vec::new();
    for _ in 0..4 * POSES {
        if poses.len() == POSES {
            break;
        }
        let pose_a = Pose::new(Vec2::ZERO, rng.range_f32(-PI, PI));
        let d = Vec2::from_angle(rng.range_f32(0.0, TAU));
        let angle_b = rng.range_f32(-PI, PI);
        if let Some(t) = touching_offset(&a, &pose_a, &b, angle_b, d, OVERLAP_M) {
            poses.push((pose_a, Pose::new(d * (t - OVERLAP_M), angle_b)));
        }
    }
    let config = NarrowConfig::default();
    for algorithm in algorithms {
        for (k, (pa, pb)) in poses.iter().enumerate() {
            if only_pose.is_some_and(|p| p != k) {
                continue;
            }
            // The fastest of `repeats` calls (the first one also fills the buffers).
            let mut fastest = f64::INFINITY;
            let mut c = queries(&a, pa, &b, pb, algorithm, &config);
            for _ in 0..repeats {
                let t = std::time::Instant::now();
                c = queries(&a, pa, &b, pb, algorithm, &config);
                fastest = fastest.min(t.elapsed().as_secs_f64());
            }
            println!(
                "{algorithm} pose {k}: {:.1} µs, intersect {}, depth {:.6}, normal ({:.4}, {:.4}), pairs {}, bv {}",
                fastest * 1e6,
                c.intersect,
                c.depth,
                c.normal.x,
                c.normal.y,
                c.work.piece_pairs_tested,
                c.work.bv_tests
            );
        }
    }
}
