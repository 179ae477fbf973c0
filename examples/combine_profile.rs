//! A fixed workload for profiling the combine step: every non-convex family of the
//! benchmark, overlapping at 1% and 2% of the size, SatDecomposed and GjkEpa.
//!
//! ```text
//! cargo run --release --example combine_profile -- [reps] [vertices,..] [families,..]
//! ```
//!
//! Placing the pairs (a bisection on the exact oracle) takes far longer than the
//! queries, so the poses are kept in a file under the temporary directory, named after
//! the arguments: a second run (under callgrind, say) measures the queries alone.
use collision_lab::geometry::families::{Family, SplitMix64};
use collision_lab::geometry::{Polygon, Shape};
use collision_lab::math::{Pose, Rot, Vec2};
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
    let cache = std::env::temp_dir().join(format!(
        "combine_profile_poses_{}_{}.txt",
        args.get(2).map_or("default", |s| s.as_str()),
        args.get(3).map_or("default", |s| s.as_str())
    ));
    // Each pose as the bits of x, y, cos, sin; two per pair, pairs in generation order.
    let cached: Option<Vec<Pose>> = std::fs::read_to_string(&cache).ok().map(|text| {
        text.lines()
            .map(|line| {
                let v: Vec<f32> = line.split(' ').map(|w| f32::from_bits(w.parse().unwrap())).collect();
                Pose {
                    translation: Vec2::new(v[0], v[1]),
                    rotation: Rot { cos: v[2], sin: v[3] },
                }
            })
            .collect()
    });
    let mut next_cached = 0;
    for &f in &families {
        for &n in &verts {
            let shapes: Vec<Shape> = (0..2)
                .map(|k| Shape::Polygon(Polygon::new(&f.generate(n, 1.0, 1 + k)).unwrap()))
                .collect();
            for &d in &[-0.02f32, -0.01] {
                let mut placed = 0;
                while let Some(poses) = &cached {
                    if placed == 6 {
                        break;
                    }
                    let (pose_a, pose_b) = (poses[next_cached], poses[next_cached + 1]);
                    next_cached += 2;
                    pairs.push((f, n, shapes.clone(), pose_a, pose_b));
                    placed += 1;
                }
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
    if cached.is_none() {
        let line = |p: &Pose| {
            let bits = [p.translation.x, p.translation.y, p.rotation.cos, p.rotation.sin].map(f32::to_bits);
            format!("{} {} {} {}\n", bits[0], bits[1], bits[2], bits[3])
        };
        let text: String = pairs.iter().map(|(_, _, _, pa, pb)| line(pa) + &line(pb)).collect();
        // Only a cache: a run that cannot write it still measures.
        let _ = std::fs::write(&cache, text);
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
