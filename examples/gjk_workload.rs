//! A fixed GjkEpa workload for instruction counts (callgrind): the benchmark's shape
//! families at fixed signed distances under seeded poses, each pair asked a fixed number
//! of times. Unlike `collision-lab bench`, which times batches sized by the clock, the
//! work done here is the same on every run, so callgrind's counts compare two versions
//! of the narrow phase on a shared machine.
//!
//! ```text
//! CARGO_ENCODED_RUSTFLAGS="" cargo build --release --target-dir target/plain --example gjk_workload
//! RAYON_NUM_THREADS=1 valgrind --tool=callgrind --toggle-collect='*gjk_workload*queries*' \
//!     target/plain/release/examples/gjk_workload            # every family
//! target/plain/release/examples/gjk_workload convex 8       # one family, one vertex count
//! ```
//!
//! (The plain x86-64 build: valgrind does not decode the AVX-512 instructions that
//! `.cargo/config.toml`'s native build may use.)
//!
//! Placing the pairs (a bisection on the exact oracle) takes far longer than the queries,
//! minutes under callgrind, so the poses are kept in a file under the temporary directory,
//! named after the arguments: run once natively, and callgrind measures the queries alone.
//!
//! `GJK_WORKLOAD_DISTANCES=0.01` places the pairs at those signed distances only (default
//! -0.02,0,0.01).
//!
//! `GJK_WORKLOAD_ALGORITHM=SatDecomposed` runs another algorithm on the same pairs. It prints a checksum of the answers (depth and normal bits), so two versions that
//! should agree can be seen to agree.

use collision_lab::geometry::families::{Family, SplitMix64};
use collision_lab::geometry::{Polygon, Shape};
use collision_lab::math::{Pose, Rot, Vec2};
use collision_lab::narrow::exact_distance::place_at_distance;
use collision_lab::narrow::{collide, Algorithm, NarrowConfig};
use std::f32::consts::{PI, TAU};

/// Times each placed pair is asked (`GJK_WORKLOAD_REPEATS` for more, e.g. under `perf`,
/// where the native build's wall time is sampled).
const REPEATS: usize = 20;
/// Pairs per family, vertex count and distance.
const PAIRS: usize = 6;

struct Placed {
    family: Family,
    vertices: usize,
    /// Which of the family's two shapes is A (the other is B).
    first: usize,
    a: Shape,
    b: Shape,
    pose_a: Pose,
    pose_b: Pose,
}

fn place(family: Family, vertices: usize, distance: f32, rng: &mut SplitMix64) -> Vec<Placed> {
    let shapes = shapes(family, vertices);
    let mut out = Vec::new();
    for k in 0..PAIRS {
        let first = k % 2;
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
                    family,
                    vertices,
                    first,
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

/// The family's two shapes at `vertices` (what [`place`] places).
fn shapes(family: Family, vertices: usize) -> [Shape; 2] {
    [1, 2]
        .map(|seed| Shape::Polygon(Polygon::new(&family.generate(vertices, 1.0, seed)).expect("a valid family shape")))
}

/// One line per pair: family, vertex count, which shape is A, then both poses as the bits
/// of x, y, cos, sin.
fn save(pairs: &[Placed]) -> String {
    let pose = |p: &Pose| {
        [p.translation.x, p.translation.y, p.rotation.cos, p.rotation.sin]
            .map(|x| x.to_bits().to_string())
            .join(" ")
    };
    pairs
        .iter()
        .map(|p| {
            format!(
                "{} {} {} {} {}\n",
                p.family.name(),
                p.vertices,
                p.first,
                pose(&p.pose_a),
                pose(&p.pose_b)
            )
        })
        .collect()
}

/// The pairs [`save`] wrote, or `None` if the text is not such a list.
fn load(text: &str) -> Option<Vec<Placed>> {
    text.lines()
        .map(|line| {
            let words: Vec<&str> = line.split(' ').collect();
            let name = *words.first()?;
            let family = Family::ALL.into_iter().find(|f| f.name() == name)?;
            let vertices: usize = words.get(1)?.parse().ok()?;
            let first: usize = words.get(2)?.parse().ok()?;
            let mut bits = words[3..].iter().map(|w| w.parse::<u32>().ok().map(f32::from_bits));
            let mut pose = || -> Option<Pose> {
                let v = [bits.next()??, bits.next()??, bits.next()??, bits.next()??];
                Some(Pose {
                    translation: Vec2::new(v[0], v[1]),
                    rotation: Rot { cos: v[2], sin: v[3] },
                })
            };
            let (pose_a, pose_b) = (pose()?, pose()?);
            let [a, b] = shapes(family, vertices);
            let (a, b) = if first == 0 { (a, b) } else { (b, a) };
            Some(Placed {
                family,
                vertices,
                first,
                a,
                b,
                pose_a,
                pose_b,
            })
        })
        .collect()
}

/// The measured part: every pair, `repeats` times. Returns a checksum of the answers.
#[inline(never)]
fn queries(pairs: &[Placed], algorithm: Algorithm, config: &NarrowConfig, repeats: usize) -> u64 {
    let mut sum = 0u64;
    for _ in 0..repeats {
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
    let cache = std::env::temp_dir().join(format!(
        "gjk_workload_poses_{}_{}{}.txt",
        args.get(1).map_or("all", |s| s.as_str()),
        args.get(2).map_or("all", |s| s.as_str()),
        std::env::var("GJK_WORKLOAD_DISTANCES").unwrap_or_default()
    ));
    let cached = std::fs::read_to_string(&cache).ok().and_then(|text| load(&text));
    let pairs = cached.unwrap_or_else(|| {
        let mut rng = SplitMix64::new(7);
        let mut pairs = Vec::new();
        for &family in &families {
            for &n in &vertex_counts {
                // Signed distances (fractions of the 1 m shapes), e.g.
                // GJK_WORKLOAD_DISTANCES=0.01 for apart pairs only.
                let ds: Vec<f32> = std::env::var("GJK_WORKLOAD_DISTANCES")
                    .map(|v| v.split(',').map(|x| x.parse().unwrap()).collect())
                    .unwrap_or(vec![-0.02, 0.0, 0.01]);
                for distance in ds {
                    pairs.extend(place(family, n, distance, &mut rng));
                }
            }
        }
        // A failed write only means placing again next time.
        let _ = std::fs::write(&cache, save(&pairs));
        pairs
    });
    if std::env::var_os("GJK_WORKLOAD_PRINT").is_some() {
        // Each pair's answer, to see which pairs two versions disagree on.
        for p in &pairs {
            let c = collide(&p.a, &p.pose_a, &p.b, &p.pose_b, algorithm, &config, None);
            println!(
                "{} {} {:?} {:?} {:?}",
                p.family.name(),
                p.vertices,
                c.depth,
                c.normal,
                c.points.as_slice().iter().map(|q| q.point).collect::<Vec<_>>()
            );
        }
    }
    let repeats = std::env::var("GJK_WORKLOAD_REPEATS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(REPEATS);
    println!(
        "{} pairs x {repeats}: checksum {:016x}",
        pairs.len(),
        queries(&pairs, algorithm, &config, repeats)
    );
}
