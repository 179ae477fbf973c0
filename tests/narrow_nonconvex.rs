//! Non-convex pairs: the decomposition algorithms against the exact answer, and the exact
//! oracle itself against geo's polygon boolean operations.

mod common;

use collision_lab::geometry::Shape;
use collision_lab::math::{Pose, Vec2};
use collision_lab::narrow::exact::{exact_penetration, overlap_area, polygons_overlap};
use collision_lab::narrow::{collide, Algorithm, NarrowConfig};
use common::*;
use geo::{Area, BooleanOps};
use proptest::prelude::*;

fn to_geo(shape: &Shape, pose: &Pose) -> geo::Polygon<f64> {
    let Shape::Polygon(p) = shape else {
        panic!("polygons only")
    };
    let pts: Vec<(f64, f64)> = p
        .vertices()
        .iter()
        .map(|&v| {
            let w = pose.apply_point(v);
            (w.x as f64, w.y as f64)
        })
        .collect();
    geo::Polygon::new(geo::LineString::from(pts), vec![])
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1000, ..ProptestConfig::default() })]

    /// The oracle's intersection area (sum over convex piece pairs) equals geo's boolean
    /// intersection area, computed in f64 on the whole polygons.
    #[test]
    fn overlap_area_matches_geo(a in nonconvex_polygon(), pa in pose(1.0), b in nonconvex_polygon(), pb in pose(1.0)) {
        let ours = overlap_area(&a, &pa, &b, &pb) as f64;
        let theirs = to_geo(&a, &pa).intersection(&to_geo(&b, &pb)).unsigned_area();
        prop_assert!((ours - theirs).abs() <= 1e-4 * theirs.max(1.0), "area {} vs geo {}", ours, theirs);
    }

    /// SatDecomposed and GjkEpa say "intersect" exactly when the polygons overlap with
    /// positive area, and their MTV leaves no overlap.
    #[test]
    fn decomposed_algorithms_match_the_exact_overlap(a in nonconvex_polygon(), pa in pose(1.2), b in nonconvex_polygon(), pb in pose(1.2)) {
        let area = overlap_area(&a, &pa, &b, &pb);
        // Shallow grazes whose overlap area is at the level of rounding can go either way.
        prop_assume!(area == 0.0 || area > 1e-5);
        let expected = polygons_overlap(&a, &pa, &b, &pb);
        let config = NarrowConfig::default();
        for alg in [Algorithm::SatDecomposed, Algorithm::GjkEpa] {
            let c = collide(&a, &pa, &b, &pb, alg, &config, None);
            prop_assert_eq!(c.intersect, expected, "{} (overlap area {}, depth {})", alg, area, c.depth);
            if c.intersect {
                let moved_a = moved(&pa, c.mtv - c.normal * 1e-4);
                let left = overlap_area(&a, &moved_a, &b, &pb);
                prop_assert!(left < 1e-6, "{}: {} m² still overlapping after the MTV {:?}", alg, left, c.mtv);
                // The combined MTV can only be longer than the exact minimum.
                if let Some(exact) = exact_penetration(&a, &pa, &b, &pb) {
                    prop_assert!(c.depth >= exact.depth * (1.0 - 1e-4) - 1e-5, "{} depth {} below exact {}", alg, c.depth, exact.depth);
                }
            }
        }
    }

    /// The two decomposition algorithms agree with each other on depth (both take the
    /// same candidates through the same combination).
    #[test]
    fn sat_decomposed_and_gjk_epa_agree(a in nonconvex_polygon(), pa in pose(1.2), b in nonconvex_polygon(), pb in pose(1.2)) {
        let config = NarrowConfig::default();
        let s = collide(&a, &pa, &b, &pb, Algorithm::SatDecomposed, &config, None);
        let g = collide(&a, &pa, &b, &pb, Algorithm::GjkEpa, &config, None);
        if s.intersect && g.intersect {
            prop_assert!((s.depth - g.depth).abs() <= 1e-3 * s.depth + 1e-5, "SAT {} vs GJK/EPA {}", s.depth, g.depth);
        }
    }

    /// The exact MTV separates, and nothing shorter along the same line does.
    #[test]
    fn exact_penetration_is_tight(a in nonconvex_polygon(), pa in pose(1.0), b in nonconvex_polygon(), pb in pose(1.0)) {
        if let Some(e) = exact_penetration(&a, &pa, &b, &pb) {
            // Below a centimetre the overlap left at 98% is too thin for even f64 areas.
            prop_assume!(e.depth > 1e-2);
            let out = moved(&pa, -e.normal * (e.depth + 1e-4));
            prop_assert!(overlap_area(&a, &out, &b, &pb) < 1e-6);
            let short = moved(&pa, -e.normal * (e.depth * 0.98));
            let half = moved(&pa, -e.normal * (e.depth * 0.5));
            prop_assert!(overlap_area(&a, &short, &b, &pb) > 0.0, "exact {:?}; area at 0 {}, at 0.5 {}, at 0.98 {}; SatDecomposed {:?}",
                e, overlap_area(&a, &pa, &b, &pb), overlap_area(&a, &half, &b, &pb), overlap_area(&a, &short, &b, &pb),
                collide(&a, &pa, &b, &pb, Algorithm::SatDecomposed, &NarrowConfig::default(), None).depth);
        }
    }
}

#[test]
fn exact_depth_of_unit_squares_offset_by_0_6_0_1_is_0_4_along_minus_x() {
    let sq = poly(&[(-0.5, -0.5), (0.5, -0.5), (0.5, 0.5), (-0.5, 0.5)]);
    let e = exact_penetration(&sq, &Pose::IDENTITY, &sq, &Pose::new(Vec2::new(0.6, 0.1), 0.0)).unwrap();
    assert!((e.depth - 0.4).abs() < 1e-6);
    // Normal A→B is +x, so the MTV (−normal·depth) is 0.4 along −x.
    assert!((e.normal - Vec2::X).length() < 1e-6);
}

//  +--+      +--+
//  |  |  B   |  |      a U with a box B resting in its notch, lowered 0.2 into the
//  |  +======+  |      notch's floor: the exact MTV lifts B out of the floor (depth
//  |            |      0.2), not sideways out of the walls.
//  +------------+
#[test]
fn exact_depth_of_a_box_sunk_into_a_u_floor() {
    let u = poly(&[
        (0.0, 0.0),
        (3.0, 0.0),
        (3.0, 3.0),
        (2.0, 3.0),
        (2.0, 1.0),
        (1.0, 1.0),
        (1.0, 3.0),
        (0.0, 3.0),
    ]);
    let bx = poly(&[(-0.4, -0.4), (0.4, -0.4), (0.4, 0.4), (-0.4, 0.4)]);
    let pb = Pose::new(Vec2::new(1.5, 1.2), 0.0);
    let e = exact_penetration(&u, &Pose::IDENTITY, &bx, &pb).unwrap();
    assert!((e.depth - 0.2).abs() < 1e-5, "depth {}", e.depth);
    assert!((e.normal - Vec2::Y).length() < 1e-5);
    let config = NarrowConfig::default();
    for alg in [Algorithm::SatDecomposed, Algorithm::GjkEpa] {
        let c = collide(&u, &Pose::IDENTITY, &bx, &pb, alg, &config, None);
        assert!((c.depth - 0.2).abs() < 1e-5, "{alg}: depth {}", c.depth);
        assert!((c.normal - Vec2::Y).length() < 1e-4, "{alg}: normal {:?}", c.normal);
    }
}
