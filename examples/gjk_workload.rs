//! A fixed GjkEpa workload for instruction counts (callgrind): the benchmark's shape
//! families at fixed signed distances under seeded poses, each pair asked a fixed number
//! of times. Unlike `collision-lab bench`, which times batches sized by the clock, the
//! work done here is the same on every run, so callgrind's counts compare two versions
//! of the narrow phase on a shared machine.
//!
//! ```text
//! cargo build --release --example gjk_workload
//! RAYON_NUM_THREADS=1 valgrind --tool=callgrind --toggle-collect='*gjk_workload*queries*' \
//!     target/release/examples/gjk_workload            # every family
//! target/release/examples/gjk_workload convex 8       # one family, one vertex count
//! ```
//!
//! `GJK_WORKLOAD_ALGORITHM=SatDecomposed` runs another algorithm on the same pairs. It prints a checksum of the answers (depth and normal bits), so two versions that
//! should agree can be seen to agree.

use collision_lab::geometry::families::{Family, SplitMix64};
use collision_lab::geometry::{Polygon, Shape};
use collision_lab::math::{Pose, Vec2};
use collision_lab::narrow::exact_distance::place_at_distance;
use collision_lab::narrow::{collide, Algorithm, NarrowConfig};
use std::f32::consts::{PI, TAU};

/// Times each placed pair is asked.
const REPEATS: usize = 20;
/// Pairs per family, vertex count and distance.
const PAIRS: usize = 6;

struct Placed {
    a: Shape,
    b: Shape,
    pose_a: Pose,
    pose_b: Pose,
}

fn place(family: Family, vertices: usize, distance: f32, rng: &mut SplitMix64) -> Vec<Placed> {
    let shapes: Vec<Shape> = (0..2)
        .map(|k| Shape::Polygon(Polygon::new(&family.generate(vertices, 1.0, 1 + k)).expect("a valid family shape")))
        .collect();
    let mut out = Vec::new();
    for k in 0..PAIRS {
        let (a, b) = (&shapes[k % 2], &shapes[(k + 1) % 2]);
        for _ in 0..40 {
            let pose_a = Pose::new(
                Vec2::new(rng.range_f32(-2.0, 2.0), rng.range_f32(-2.0, 2.0)),
                rng.range_f32(-PI, PI),
            );
            let direction = Vec2::from_angle(rng.range_f32(0.0, TAU));
            let angle_b = rng.range_f32(-PI, PI);
            if let Some((pose_b, _)) = place_at_distance(a, &pose_a, b, angle_b, direction, distance, 1.5) {
                out.push(Placed {
                    a: a.clone(),
                    b: b.clone(),
                    pose_a,
                    pose_b,
                });
                break;
            }
        }
    }
    out
}

/// The measured part: every pair, `REPEATS` times. Returns a checksum of the answers.
#[inline(never)]
fn queries(pairs: &[Placed], algorithm: Algorithm, config: &NarrowConfig) -> u64 {
    let mut sum = 0u64;
    for _ in 0..REPEATS {
        for p in pairs {
            let c = collide(&p.a, &p.pose_a, &p.b, &p.pose_b, algorithm, config, None);
            let bits = |x: f32| u64::from(x.to_bits());
            sum = sum
                .wrapping_mul(31)
                .wrapping_add(bits(c.depth) ^ bits(c.normal.x).rotate_left(21) ^ bits(c.normal.y).rotate_left(42));
            for q in c.points.as_slice() {
                sum = sum
                    .wrapping_mul(31)
                    .wrapping_add(bits(q.point.x) ^ bits(q.point.y).rotate_left(32));
            }
        }
    }
    sum
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let families: Vec<Family> = match args.get(1) {
        Some(name) => Family::ALL.into_iter().filter(|f| f.name() == name).collect(),
        None => Family::ALL.into_iter().filter(|f| *f != Family::Coastline).collect(),
    };
    let vertex_counts: Vec<usize> = match args.get(2) {
        Some(n) => vec![n.parse().expect("a vertex count")],
        None => vec![8, 32, 128],
    };
    // Another algorithm for comparison, e.g. GJK_WORKLOAD_ALGORITHM=SatDecomposed.
    let algorithm: Algorithm = std::env::var("GJK_WORKLOAD_ALGORITHM")
        .ok()
        .and_then(|name| name.parse().ok())
        .unwrap_or(Algorithm::GjkEpa);
    let config = NarrowConfig::default();
    let mut rng = SplitMix64::new(7);
    let mut pairs = Vec::new();
    for &family in &families {
        for &n in &vertex_counts {
            for distance in [-0.02, 0.0, 0.01] {
                pairs.extend(place(family, n, distance, &mut rng));
            }
        }
    }
    println!(
        "{} pairs x {REPEATS}: checksum {:016x}",
        pairs.len(),
        queries(&pairs, algorithm, &config)
    );
}
