//! Convex pairs: the three narrow phases against each other and against parry2d.

mod common;

use collision_lab::geometry::Shape;
use collision_lab::math::{Pose, Vec2};
use collision_lab::narrow::{collide, Algorithm, Contact, NarrowConfig};
use common::*;
use parry2d::math::{Pose as PPose, Vector as PVec};
use proptest::prelude::*;

fn to_parry(shape: &Shape) -> Box<dyn parry2d::shape::Shape> {
    match shape {
        Shape::Circle(c) => Box::new(parry2d::shape::Ball::new(c.radius())),
        Shape::Segment(s) => {
            Box::new(parry2d::shape::Segment::new(PVec::new(s.a().x, s.a().y), PVec::new(s.b().x, s.b().y)))
        }
        Shape::Polygon(p) => Box::new(
            parry2d::shape::ConvexPolygon::from_convex_polyline(p.vertices().iter().map(|v| PVec::new(v.x, v.y)).collect())
                .expect("a valid convex polygon"),
        ),
    }
}

fn to_parry_pose(pose: &Pose) -> PPose {
    PPose::new(PVec::new(pose.translation.x, pose.translation.y), pose.angle())
}

/// parry2d's signed distance (negative: penetration depth).
fn parry_signed_distance(a: &Shape, pa: &Pose, b: &Shape, pb: &Pose) -> f32 {
    let c = parry2d::query::contact(&to_parry_pose(pa), to_parry(a).as_ref(), &to_parry_pose(pb), to_parry(b).as_ref(), 10.0)
        .expect("supported pair")
        .expect("within prediction");
    c.dist
}

fn parry_intersects(a: &Shape, pa: &Pose, b: &Shape, pb: &Pose) -> bool {
    parry_signed_distance(a, pa, b, pb) < 0.0
}

/// Scale for tolerances: shape sizes plus coordinate magnitude (f32 rounding grows with
/// both).
fn scale(a: &Shape, pa: &Pose, b: &Shape, pb: &Pose) -> f32 {
    a.size().max(b.size()) + pa.translation.abs().max_element().max(pb.translation.abs().max_element())
}

fn run_all(a: &Shape, pa: &Pose, b: &Shape, pb: &Pose) -> [Contact; 3] {
    let config = NarrowConfig::default();
    Algorithm::ALL.map(|alg| collide(a, pa, b, pb, alg, &config, None))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, ..ProptestConfig::default() })]

    /// The three algorithms agree on intersect with each other and with parry2d; their
    /// depths agree within 1e-4 relative. The absolute floor of 1e-5 × scale is f32
    /// rounding of the coordinates (the ulp of a coordinate of 2 m is 2.4e-7 m, and
    /// depths are differences of sums of products of coordinates).
    #[test]
    fn three_algorithms_agree_with_parry(a in convex_shape(), pa in pose(1.5), b in convex_shape(), pb in pose(1.5)) {
        let s = scale(&a, &pa, &b, &pb);
        let parry = parry_signed_distance(&a, &pa, &b, &pb);
        // Pairs within rounding of touching can honestly go either way.
        prop_assume!(parry.abs() > 1e-5 * s);
        let expected = parry < 0.0;
        let contacts = run_all(&a, &pa, &b, &pb);
        for (alg, c) in Algorithm::ALL.iter().zip(&contacts) {
            prop_assert_eq!(c.intersect, expected, "{} disagrees with parry2d (dist {})", alg, parry);
            if expected {
                let tol = 1e-4 * -parry + 1e-5 * s;
                prop_assert!((c.depth - -parry).abs() <= tol, "{} depth {} vs parry2d {}", alg, c.depth, -parry);
                prop_assert!((c.normal.length() - 1.0).abs() < 1e-4);
                prop_assert!(!c.points.is_empty());
                prop_assert!((c.mtv + c.normal * c.depth).length() < 1e-5 * s);
            }
        }
    }

    /// Applying the MTV (and a hair more) separates the shapes, for the decomposition
    /// algorithms always; for seed 000 whenever its centre-to-centre sign rule picks the
    /// right side (measured separately in tests/nonconvex_rates.rs).
    #[test]
    fn applying_the_mtv_separates(a in convex_shape(), pa in pose(1.0), b in convex_shape(), pb in pose(1.0)) {
        let s = scale(&a, &pa, &b, &pb);
        for c in &run_all(&a, &pa, &b, &pb)[1..] {
            if c.intersect {
                let moved_a = moved(&pa, c.mtv - c.normal * (1e-4 * s));
                prop_assert!(!parry_intersects(&a, &moved_a, &b, &pb), "still overlapping after the MTV {:?}", c.mtv);
            }
        }
    }

    /// Swapping A and B flips the normal and keeps the depth.
    #[test]
    fn swapping_flips_the_normal(a in convex_shape(), pa in pose(1.0), b in convex_shape(), pb in pose(1.0)) {
        let config = NarrowConfig::default();
        for alg in [Algorithm::SatDecomposed, Algorithm::GjkEpa] {
            let ab = collide(&a, &pa, &b, &pb, alg, &config, None);
            let ba = collide(&b, &pb, &a, &pa, alg, &config, None);
            prop_assert_eq!(ab.intersect, ba.intersect);
            if ab.intersect && ab.depth > 1e-4 {
                prop_assert!((ab.depth - ba.depth).abs() <= 1e-4 * ab.depth + 1e-5 * scale(&a, &pa, &b, &pb));
            }
        }
    }
}

#[test]
fn unit_squares_offset_by_0_6_overlap_0_4_along_x() {
    let sq = poly(&[(-0.5, -0.5), (0.5, -0.5), (0.5, 0.5), (-0.5, 0.5)]);
    let pb = Pose::new(Vec2::new(0.6, 0.1), 0.0);
    for c in run_all(&sq, &Pose::IDENTITY, &sq, &pb) {
        assert!(c.intersect);
        assert!((c.depth - 0.4).abs() < 1e-5, "depth {}", c.depth);
        assert!((c.normal - Vec2::X).length() < 1e-5, "normal {:?}", c.normal);
        assert!((c.mtv - Vec2::new(-0.4, 0.0)).length() < 1e-5);
        assert_eq!(c.points.len(), 2);
    }
}

#[test]
fn touching_squares_do_not_intersect_in_any_algorithm() {
    let sq = poly(&[(-0.5, -0.5), (0.5, -0.5), (0.5, 0.5), (-0.5, 0.5)]);
    for pb in [Pose::new(Vec2::new(1.0, 0.0), 0.0), Pose::new(Vec2::new(1.0, 1.0), 0.0), Pose::new(Vec2::new(0.3, 1.0), 0.0)] {
        for c in run_all(&sq, &Pose::IDENTITY, &sq, &pb) {
            assert!(!c.intersect, "touching at {:?} reported as intersecting: {:?}", pb.translation, c);
        }
    }
}

#[test]
fn circle_pairs_agree() {
    let c1 = Shape::Circle(collision_lab::geometry::Circle::new(0.5).unwrap());
    let sq = poly(&[(-0.5, -0.5), (0.5, -0.5), (0.5, 0.5), (-0.5, 0.5)]);
    // Circle beyond the square's corner: the vertex region decides.
    let pc = Pose::new(Vec2::new(0.8, 0.8), 0.0);
    for c in run_all(&sq, &Pose::IDENTITY, &c1, &pc) {
        assert!(c.intersect);
        let expected = 0.5 - (0.3f32 * 2f32.sqrt());
        assert!((c.depth - expected).abs() < 1e-5, "depth {} expected {}", c.depth, expected);
        assert!((c.normal - Vec2::new(1.0, 1.0).normalize()).length() < 1e-4);
    }
}
