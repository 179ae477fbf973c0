//! Degenerate input never panics and gives sane answers.

mod common;

use collision_lab::geometry::{Circle, Polygon, Segment, Shape};
use collision_lab::math::{Pose, Vec2};
use collision_lab::narrow::{collide, trace::Trace, Algorithm, NarrowConfig};
use common::*;
use proptest::prelude::*;

fn all(a: &Shape, pa: &Pose, b: &Shape, pb: &Pose) {
    let config = NarrowConfig::default();
    for alg in Algorithm::ALL {
        let c = collide(a, pa, b, pb, alg, &config, None);
        assert!(
            c.depth.is_finite() && c.mtv.is_finite() && c.normal.is_finite(),
            "{alg}: {c:?}"
        );
        if c.intersect {
            assert!(c.depth > 0.0 && (c.normal.length() - 1.0).abs() < 1e-3, "{alg}: {c:?}");
        }
        let mut trace = Trace::new();
        let traced = collide(a, pa, b, pb, alg, &config, Some(&mut trace));
        assert_eq!(traced, c, "{alg}: tracing changed the answer");
        assert!(!trace.steps.is_empty());
    }
}

#[test]
fn bad_polygons_are_refused_not_panicked_on() {
    assert!(Polygon::new(&[Vec2::ZERO, Vec2::X, Vec2::new(2.0, 0.0)]).is_err());
    assert!(Polygon::new(&[Vec2::ZERO, Vec2::X, Vec2::new(f32::NAN, 1.0)]).is_err());
    assert!(Polygon::new(&[Vec2::ZERO, Vec2::ZERO, Vec2::ZERO]).is_err());
    assert!(Polygon::new(&[]).is_err());
    assert!(Circle::new(f32::NAN).is_err());
    assert!(Circle::new(-1.0).is_err());
    assert!(Segment::new(Vec2::ONE, Vec2::ONE).is_err());
}

#[test]
fn identical_shapes_at_one_pose() {
    let star = Shape::Polygon(Polygon::new(&star(5, 1.0, 0.4)).unwrap());
    let sq = poly(&[(-0.5, -0.5), (0.5, -0.5), (0.5, 0.5), (-0.5, 0.5)]);
    let circle = Shape::Circle(Circle::new(0.5).unwrap());
    let seg = Shape::Segment(Segment::new(Vec2::new(-1.0, 0.0), Vec2::new(1.0, 0.0)).unwrap());
    for s in [&star, &sq, &circle, &seg] {
        all(s, &Pose::IDENTITY, s, &Pose::IDENTITY);
    }
}

#[test]
fn vertex_touching_vertex_and_edges_touching() {
    let sq = poly(&[(-0.5, -0.5), (0.5, -0.5), (0.5, 0.5), (-0.5, 0.5)]);
    for d in [
        Vec2::new(1.0, 1.0),
        Vec2::new(1.0, 0.0),
        Vec2::new(1.0, 0.5),
        Vec2::new(0.0, 1.0),
    ] {
        all(&sq, &Pose::IDENTITY, &sq, &Pose::new(d, 0.0));
    }
    // A diamond's vertex on a square's edge.
    all(
        &sq,
        &Pose::IDENTITY,
        &sq,
        &Pose::new(Vec2::new(0.5 + 0.5 * 2f32.sqrt(), 0.0), std::f32::consts::FRAC_PI_4),
    );
}

#[test]
fn segments_crossing_collinear_and_parallel() {
    let seg = Shape::Segment(Segment::new(Vec2::new(-1.0, 0.0), Vec2::new(1.0, 0.0)).unwrap());
    all(&seg, &Pose::IDENTITY, &seg, &Pose::new(Vec2::ZERO, 1.0));
    all(&seg, &Pose::IDENTITY, &seg, &Pose::new(Vec2::new(0.5, 0.0), 0.0));
    all(&seg, &Pose::IDENTITY, &seg, &Pose::new(Vec2::new(0.5, 1e-3), 0.0));
    let sq = poly(&[(-0.5, -0.5), (0.5, -0.5), (0.5, 0.5), (-0.5, 0.5)]);
    all(&sq, &Pose::IDENTITY, &seg, &Pose::new(Vec2::new(0.0, 0.5), 0.0));
    all(&seg, &Pose::new(Vec2::new(0.2, 0.3), 0.1), &sq, &Pose::IDENTITY);
}

#[test]
fn huge_and_tiny_coordinates() {
    let tiny = Shape::Polygon(Polygon::new(&star(5, 1e-3, 4e-4)).unwrap());
    let huge = Shape::Polygon(Polygon::new(&star(5, 1e4, 4e3)).unwrap());
    let unit = Shape::Polygon(Polygon::new(&star(5, 1.0, 0.4)).unwrap());
    all(
        &unit,
        &Pose::new(Vec2::splat(1e5), 0.3),
        &unit,
        &Pose::new(Vec2::new(1e5 + 0.7, 1e5), 0.0),
    );
    all(&tiny, &Pose::IDENTITY, &tiny, &Pose::new(Vec2::new(1e-3, 0.0), 0.2));
    all(&huge, &Pose::IDENTITY, &huge, &Pose::new(Vec2::new(5e3, 0.0), 0.2));
    all(&huge, &Pose::IDENTITY, &tiny, &Pose::new(Vec2::new(5e3, 0.0), 0.2));
}

#[test]
fn non_finite_poses_do_not_panic() {
    let star = Shape::Polygon(Polygon::new(&star(5, 1.0, 0.4)).unwrap());
    let config = NarrowConfig::default();
    for bad in [f32::NAN, f32::INFINITY, f32::NEG_INFINITY] {
        for alg in Algorithm::ALL {
            let c = collide(
                &star,
                &Pose::new(Vec2::new(bad, 0.0), 0.0),
                &star,
                &Pose::IDENTITY,
                alg,
                &config,
                None,
            );
            assert!(!c.intersect || c.depth.is_finite(), "{alg}: {c:?}");
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 500, ..ProptestConfig::default() })]
    #[test]
    fn random_near_touching_pairs_never_panic(a in nonconvex_polygon(), b in convex_shape(), angle in -3.2f32..3.2, t in 0.0f32..1.0) {
        // Slide B along a ray until its box just touches A's: grazing configurations.
        let pb = Pose::new(Vec2::from_angle(angle) * (0.5 + 2.0 * t), angle * 0.5);
        all(&a, &Pose::IDENTITY, &b, &pb);
    }
}
