//! A fixed workload for profiling the combine step: every non-convex family of the
//! benchmark, overlapping at 1% and 2% of the size, SatDecomposed and GjkEpa.
//!
//! ```text
//! cargo run --release --example combine_profile -- [reps] [vertices,..] [families,..]
//! ```
use collision_lab::geometry::families::{Family, SplitMix64};
use collision_lab::geometry::{Polygon, Shape};
use collision_lab::math::{Pose, Vec2};
use collision_lab::narrow::exact_distance::place_at_distance;
use collision_lab::narrow::{collide, Algorithm, NarrowConfig};
use std::f32::consts::{PI, TAU};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let reps: usize = args.get(1).map_or(20, |s| s.parse().unwrap());
    let verts: Vec<usize> = args.get(2).map_or(vec![32, 128, 256], |s| {
        s.split(',').map(|x| x.parse().unwrap()).collect()
    });
    let families: Vec<Family> = args.get(3).map_or(Family::NON_CONVEX.to_vec(), |s| {
        s.split(',').map(|x| x.parse().unwrap()).collect()
    });
    let mut rng = SplitMix64::new(1);
    let mut pairs = Vec::new();
    for &f in &families {
        for &n in &verts {
            let shapes: Vec<Shape> = (0..2)
                .map(|k| Shape::Polygon(Polygon::new(&f.generate(n, 1.0, 1 + k)).unwrap()))
                .collect();
            for &d in &[-0.02f32, -0.01] {
                let mut placed = 0;
                while placed < 6 {
                    let pose_a = Pose::new(
                        Vec2::new(rng.range_f32(-2.0, 2.0), rng.range_f32(-2.0, 2.0)),
                        rng.range_f32(-PI, PI),
                    );
                    let dir = Vec2::from_angle(rng.range_f32(0.0, TAU));
                    let angle_b = rng.range_f32(-PI, PI);
                    if let Some((pose_b, _)) = place_at_distance(&shapes[0], &pose_a, &shapes[1], angle_b, dir, d, 1.5)
                    {
                        pairs.push((f, n, shapes.clone(), pose_a, pose_b));
                        placed += 1;
                    }
                }
            }
        }
    }
    let config = NarrowConfig::default();
    for alg in [Algorithm::SatDecomposed, Algorithm::GjkEpa] {
        let start = Instant::now();
        let mut sum = 0.0f64;
        for _ in 0..reps {
            for (_, _, s, pa, pb) in &pairs {
                sum += collide(&s[0], pa, &s[1], pb, alg, &config, None).depth as f64;
            }
        }
        let ns = start.elapsed().as_nanos() as f64 / (reps * pairs.len()) as f64;
        println!(
            "{}: {:.0} ns per pair ({} pairs), depth sum {:.6}",
            alg.name(),
            ns,
            pairs.len(),
            sum / reps as f64
        );
    }
}
