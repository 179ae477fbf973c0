//! The oracle behind `collision-lab bench`: exact penetration depth and signed distance
//! on hand-computed cases, the fast (bounded) oracle against the brute-force one, the
//! placement of pairs at a chosen distance, and the shape families it places.

use collision_lab::geometry::families::{Family, SplitMix64};
use collision_lab::geometry::{Polygon, Shape};
use collision_lab::math::{Pose, Vec2};
use collision_lab::narrow::exact::exact_penetration;
use collision_lab::narrow::exact_distance::{
    depth_upper_bound, exact_penetration_fast, outline_distance, place_at_distance, signed_distance,
};

fn poly(points: &[(f32, f32)]) -> Shape {
    let pts: Vec<Vec2> = points.iter().map(|&(x, y)| Vec2::new(x, y)).collect();
    Shape::Polygon(Polygon::new(&pts).expect("valid polygon"))
}

fn unit_square() -> Shape {
    poly(&[(-0.5, -0.5), (0.5, -0.5), (0.5, 0.5), (-0.5, 0.5)])
}

fn at(x: f32, y: f32) -> Pose {
    Pose::new(Vec2::new(x, y), 0.0)
}

#[test]
fn two_unit_squares_offset_0_6_0_1_have_depth_0_4_along_minus_x() {
    let (a, b) = (unit_square(), unit_square());
    let (pa, pb) = (at(0.0, 0.0), at(0.6, 0.1));
    for e in [
        exact_penetration(&a, &pa, &b, &pb).expect("overlap"),
        exact_penetration_fast(&a, &pa, &b, &pb).expect("overlap"),
    ] {
        assert!((e.depth - 0.4).abs() < 1e-5, "{e:?}");
        // The MTV moves A by −normal·depth = (−0.4, 0).
        let mtv = -e.normal * e.depth;
        assert!((mtv - Vec2::new(-0.4, 0.0)).length() < 1e-5, "{mtv:?}");
    }
    assert!((signed_distance(&a, &pa, &b, &pb) + 0.4).abs() < 1e-5);
}

/// A U (notch x∈[1,2], y∈[1,2]) and a 0.8 square centred at (1.9, 1.5), which pokes
/// 0.3 into the right arm. Out to the left is 0.3 (then it sits in the notch); up and
/// out of the notch would be 0.9; so the depth is 0.3, along −x for the square.
///
/// ```text
///  ┌──┐  ┌──┐
///  │  │[]│  │   [] the square, overlapping the right arm
///  │  └──┘  │
///  └────────┘
/// ```
#[test]
fn square_in_the_notch_of_a_u_has_depth_0_3_along_minus_x() {
    let u = poly(&[
        (0., 0.),
        (3., 0.),
        (3., 2.),
        (2., 2.),
        (2., 1.),
        (1., 1.),
        (1., 2.),
        (0., 2.),
    ]);
    let sq = poly(&[(-0.4, -0.4), (0.4, -0.4), (0.4, 0.4), (-0.4, 0.4)]);
    let (ps, pu) = (at(1.9, 1.5), at(0.0, 0.0));
    for e in [
        exact_penetration(&sq, &ps, &u, &pu).expect("overlap"),
        exact_penetration_fast(&sq, &ps, &u, &pu).expect("overlap"),
    ] {
        assert!((e.depth - 0.3).abs() < 1e-5, "{e:?}");
        assert!((e.normal - Vec2::X).length() < 1e-5, "{e:?}");
    }
    // Inside the notch without touching: distance 0.1 to the right arm.
    let d = signed_distance(&sq, &at(1.5, 1.5), &u, &pu);
    assert!((d - 0.1).abs() < 1e-5, "{d}");
}

#[test]
fn separated_and_touching_squares() {
    let (a, b) = (unit_square(), unit_square());
    let d = signed_distance(&a, &at(0.0, 0.0), &b, &at(1.25, 0.3));
    assert!((d - 0.25).abs() < 1e-6, "{d}");
    // Corner to corner: (1.3, 1.4) apart → gap (0.3, 0.4), distance 0.5.
    let d = outline_distance(&a, &at(0.0, 0.0), &b, &at(1.3, 1.4));
    assert!((d - 0.5).abs() < 1e-6, "{d}");
    let d = signed_distance(&a, &at(0.0, 0.0), &b, &at(1.0, 0.2));
    assert!(d.abs() < 1e-6, "touching: {d}");
    assert_eq!(depth_upper_bound(&a, &at(0.0, 0.0), &b, &at(1.25, 0.0)), 0.0);
}

/// The bounded oracle equals the brute-force one on random non-convex pairs.
#[test]
fn fast_oracle_matches_brute_force() {
    let mut rng = SplitMix64::new(7);
    let families = [
        Family::Star,
        Family::Comb,
        Family::LShape,
        Family::UShape,
        Family::Random,
        Family::Gear,
    ];
    let mut overlapping = 0;
    for k in 0..120 {
        let fam_a = families[k % families.len()];
        let fam_b = families[(k / families.len()) % families.len()];
        let a = Shape::Polygon(Polygon::new(&fam_a.generate(12, 1.0, k as u64)).unwrap());
        let b = Shape::Polygon(Polygon::new(&fam_b.generate(10, 0.8, 99 + k as u64)).unwrap());
        let pa = Pose::new(Vec2::ZERO, rng.range_f32(-3.1, 3.1));
        let pb = Pose::new(
            Vec2::new(rng.range_f32(-0.8, 0.8), rng.range_f32(-0.8, 0.8)),
            rng.range_f32(-3.1, 3.1),
        );
        let slow = exact_penetration(&a, &pa, &b, &pb);
        let fast = exact_penetration_fast(&a, &pa, &b, &pb);
        match (slow, fast) {
            (None, None) => {}
            (Some(s), Some(f)) => {
                overlapping += 1;
                assert!((s.depth - f.depth).abs() <= 1e-5, "pair {k}: {s:?} vs {f:?}");
                assert!(s.depth <= depth_upper_bound(&a, &pa, &b, &pb) * 1.0001 + 1e-6);
            }
            other => panic!("pair {k}: {other:?}"),
        }
    }
    assert!(overlapping > 30, "the sample should mostly overlap: {overlapping}");
}

/// Every family at every benchmark vertex count is a valid polygon of about the
/// requested size, and the big-curve shapes (a 500-tooth gear, a coastline) too.
#[test]
fn families_are_valid_at_every_count() {
    let counts = [8usize, 16, 32, 64, 128, 256];
    for family in Family::ALL {
        for n in counts {
            let pts = family.generate(n, 2.0, 3);
            let p = Polygon::new(&pts).unwrap_or_else(|e| panic!("{family} at {n}: {e}"));
            let got = p.vertices().len();
            assert!(got.abs_diff(n) <= n / 4 + 2, "{family} at {n}: {got} vertices");
            assert_eq!(p.is_convex(), family.is_convex(), "{family} at {n}");
            let bb = p.local_aabb();
            assert!(bb.min.cmpge(Vec2::splat(-1.0 - 1e-4)).all() && bb.max.cmple(Vec2::splat(1.0 + 1e-4)).all());
        }
        assert_eq!(family.name().parse::<Family>(), Ok(family));
    }
    let gear = Polygon::new(&Family::Gear.generate(2000, 2.0, 0)).expect("500-tooth gear");
    assert_eq!(gear.vertices().len(), 2000);
    for family in [Family::Coastline, Family::Spiral, Family::Comb] {
        let p = Polygon::new(&family.generate(1000, 2.0, 1)).expect("1000 vertices");
        assert!(p.vertices().len().abs_diff(1000) <= 10, "{family}");
    }
    // Deterministic: the same seed gives the same polygon.
    assert_eq!(Family::Random.generate(64, 1.0, 5), Family::Random.generate(64, 1.0, 5));
    assert_ne!(Family::Random.generate(64, 1.0, 5), Family::Random.generate(64, 1.0, 6));
}

/// Bisection places a pair of every family at each benchmark distance.
#[test]
fn placement_reaches_the_target_distance() {
    let size = 1.0;
    let mut rng = SplitMix64::new(11);
    for family in Family::ALL {
        let a = Shape::Polygon(Polygon::new(&family.generate(16, size, 1)).unwrap());
        let b = Shape::Polygon(Polygon::new(&family.generate(16, size, 2)).unwrap());
        for target in [-0.02f32, -0.01, 0.0, 0.01] {
            let mut placed = 0;
            for _ in 0..20 {
                let pose_a = Pose::new(Vec2::ZERO, rng.range_f32(-3.1, 3.1));
                let dir = Vec2::from_angle(rng.range_f32(0.0, std::f32::consts::TAU));
                let Some((pose_b, d)) = place_at_distance(
                    &a,
                    &pose_a,
                    &b,
                    rng.range_f32(-3.1, 3.1),
                    dir,
                    target * size,
                    2.0 * size,
                ) else {
                    continue;
                };
                assert!((d - target * size).abs() < 1e-4 * size, "{family} at {target}: {d}");
                let check = signed_distance(&a, &pose_a, &b, &pose_b);
                assert!((check - d).abs() <= 1e-6, "{check} vs {d}");
                placed += 1;
                if placed == 3 {
                    break;
                }
            }
            assert!(placed >= 1, "{family} at {target}: no pose placed");
        }
    }
}
