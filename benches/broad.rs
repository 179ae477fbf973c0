//! Broad-phase cost per step, the four kinds side by side: 100, 1000 and 5000 boxes of
//! 0.2–1 m in a square sized so each box touches about three others, on a static ground.
//! Each iteration moves every box a little (up to 2 cm, as at 1.2 m/s and 60 Hz,
//! bouncing off the region's sides) and runs one update, as the world will.
//!
//! `cargo bench --bench broad`

use collision_lab::bounds::Aabb;
use collision_lab::broad::{BroadPhase, BroadPhaseKind, Proxy};
use collision_lab::math::Vec2;
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use std::hint::black_box;

/// Deterministic scene generator (splitmix64).
struct Rng(u64);

impl Rng {
    fn unit(&mut self) -> f32 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        ((z ^ (z >> 31)) >> 40) as f32 / (1u64 << 24) as f32
    }
    fn range(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * self.unit()
    }
}

/// Boxes moving in a square region over a ground, plus their velocities.
struct Scene {
    proxies: Vec<Proxy>,
    velocities: Vec<Vec2>,
    side: f32,
}

impl Scene {
    fn new(boxes: usize) -> Scene {
        // Two boxes of mean side s = 0.6 m overlap when their centres are within about
        // 2s on both axes: a (2s)² = 1.44 m² window. k neighbours per box need an area
        // of N·1.44/k; k = 3.
        let side = (boxes as f32 * 1.44 / 3.0).sqrt();
        let mut rng = Rng(2024);
        let mut proxies = vec![Proxy::new(
            0,
            Aabb::new(Vec2::new(-1.0, -1.0), Vec2::new(side + 1.0, 0.0)),
            true,
        )];
        let mut velocities = vec![Vec2::ZERO];
        for i in 1..=boxes {
            let size = Vec2::new(rng.range(0.2, 1.0), rng.range(0.2, 1.0));
            let min = Vec2::new(rng.range(0.0, side - size.x), rng.range(0.0, side - size.y));
            proxies.push(Proxy::new(i as u32, Aabb::new(min, min + size), false));
            velocities.push(Vec2::new(rng.range(-0.02, 0.02), rng.range(-0.02, 0.02)));
        }
        Scene {
            proxies,
            velocities,
            side,
        }
    }

    /// One step of motion; boxes bounce off the region's sides.
    fn step(&mut self) {
        for (p, v) in self.proxies.iter_mut().zip(&mut self.velocities).skip(1) {
            if (p.aabb.min.x + v.x < 0.0) || (p.aabb.max.x + v.x > self.side) {
                v.x = -v.x;
            }
            if (p.aabb.min.y + v.y < 0.0) || (p.aabb.max.y + v.y > self.side) {
                v.y = -v.y;
            }
            p.aabb = Aabb::new(p.aabb.min + *v, p.aabb.max + *v);
        }
    }
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("broad");
    for boxes in [100usize, 1000, 5000] {
        for kind in BroadPhaseKind::ALL {
            let mut scene = Scene::new(boxes);
            let mut broad = BroadPhase::new(kind);
            let mut pairs = Vec::new();
            // Warm the state (first build, sorted order, tree) outside the measurement.
            for _ in 0..10 {
                scene.step();
                broad.update(&scene.proxies, &mut pairs);
            }
            let stats = broad.update(&scene.proxies, &mut pairs);
            eprintln!("{kind} n={boxes}: {stats:?}");
            group.bench_with_input(BenchmarkId::new(kind.name(), boxes), &boxes, |bench, _| {
                bench.iter(|| {
                    scene.step();
                    black_box(broad.update(black_box(&scene.proxies), &mut pairs))
                })
            });
        }
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
