//! Narrow-phase cost per pair, side by side: the three algorithms, with and without a
//! trace, and parry2d on the same convex pair as a reference.
//!
//! `cargo bench --bench narrow`

use collision_lab::geometry::{Polygon, Shape};
use collision_lab::math::{Pose, Vec2};
use collision_lab::narrow::{collide, trace::Trace, Algorithm, NarrowConfig};
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use std::f32::consts::TAU;
use std::hint::black_box;

fn star(points: usize, outer: f32, inner: f32) -> Shape {
    let v: Vec<Vec2> = (0..2 * points)
        .map(|i| Vec2::from_angle(i as f32 * TAU / (2 * points) as f32) * if i % 2 == 0 { outer } else { inner })
        .collect();
    Shape::Polygon(Polygon::new(&v).unwrap())
}

fn ngon(n: usize, r: f32) -> Shape {
    let v: Vec<Vec2> = (0..n)
        .map(|i| Vec2::from_angle(i as f32 * TAU / n as f32) * r)
        .collect();
    Shape::Polygon(Polygon::new(&v).unwrap())
}

fn bench(c: &mut Criterion) {
    let config = NarrowConfig::default();
    let pairs = [
        ("hexagons", ngon(6, 1.0), ngon(6, 1.0)),
        ("stars-5", star(5, 1.0, 0.45), star(5, 1.0, 0.45)),
        ("stars-16", star(16, 1.0, 0.6), star(16, 1.0, 0.6)),
    ];
    let pose_a = Pose::new(Vec2::ZERO, 0.1);
    let pose_b = Pose::new(Vec2::new(1.5, 0.3), 0.7);
    let mut group = c.benchmark_group("narrow");
    for (name, a, b) in &pairs {
        for alg in Algorithm::ALL {
            group.bench_with_input(BenchmarkId::new(alg.name(), name), &(), |bench, _| {
                bench.iter(|| collide(black_box(a), &pose_a, black_box(b), &pose_b, alg, &config, None))
            });
            group.bench_with_input(
                BenchmarkId::new(format!("{}+trace", alg.name()), name),
                &(),
                |bench, _| {
                    bench.iter(|| {
                        let mut trace = Trace::new();
                        collide(
                            black_box(a),
                            &pose_a,
                            black_box(b),
                            &pose_b,
                            alg,
                            &config,
                            Some(&mut trace),
                        )
                    })
                },
            );
        }
    }
    // parry2d on the convex pair, as a reference point for the convex case.
    let hex: Vec<parry2d::math::Vector> = (0..6)
        .map(|i| parry2d::math::Vector::new((i as f32 * TAU / 6.0).cos(), (i as f32 * TAU / 6.0).sin()))
        .collect();
    let phex = parry2d::shape::ConvexPolygon::from_convex_polyline(hex).unwrap();
    let ppa = parry2d::math::Pose::new(parry2d::math::Vector::new(0.0, 0.0), 0.1);
    let ppb = parry2d::math::Pose::new(parry2d::math::Vector::new(1.5, 0.3), 0.7);
    group.bench_function("parry2d/hexagons", |bench| {
        bench.iter(|| parry2d::query::contact(&ppa, black_box(&phex), &ppb, black_box(&phex), 0.0))
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
