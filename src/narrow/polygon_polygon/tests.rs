//! The fast convex path against the general one and the exact oracle.
use super::*;
use crate::geometry::{Polygon, Shape};
use crate::narrow::speculative::{speculative_pieces, speculative_points};
use crate::narrow::NarrowConfig;
use proptest::prelude::*;

/// A convex polygon: `n` points at sorted angles on an ellipse (points on an ellipse
/// are always in convex position).
fn ellipse_polygon(angles: &[f32], rx: f32, ry: f32) -> Option<Shape> {
    let mut angles = angles.to_vec();
    angles.sort_by(f32::total_cmp);
    let points: Vec<Vec2> = angles.iter().map(|a| Vec2::new(rx * a.cos(), ry * a.sin())).collect();
    Polygon::new(&points).ok().map(Shape::Polygon)
}

use super::super::test_rect as rect;

/// How far B lies beyond A along the world direction `u` (m; negative: their
/// shadows on `u` overlap).
fn gap_along(a: &Shape, pose_a: &Pose, b: &Shape, pose_b: &Pose, u: Vec2) -> f32 {
    let (Shape::Polygon(pa), Shape::Polygon(pb)) = (a, b) else {
        unreachable!("polygon pairs only")
    };
    let max_a = pa
        .vertices()
        .iter()
        .map(|&v| u.dot(pose_a.apply_point(v)))
        .fold(f32::MIN, f32::max);
    let min_b = pb
        .vertices()
        .iter()
        .map(|&v| u.dot(pose_b.apply_point(v)))
        .fold(f32::MAX, f32::min);
    min_b - max_a
}

/// The fast speculative points and the general loop's agree: same count, normals,
/// separations, points and ids (up to rounding).
fn assert_speculative_agree(a: &Shape, pose_a: &Pose, b: &Shape, pose_b: &Pose, margin: f32) {
    let fast = speculative_points(a, pose_a, b, pose_b, margin, &mut Work::default());
    let general = speculative_pieces(a, pose_a, b, pose_b, margin, &mut Work::default());
    // Points agree to 1e-5 m plus a millionth of the distance from the origin: the
    // general path clips in the world frame, where a point where the incident edge
    // crosses a side plane at a shallow angle is rounded to some ulps of its
    // coordinates.
    let tol = 1e-5 + 1e-6 * pose_a.translation.abs().max(pose_b.translation.abs()).max_element();
    let (f, g) = (fast.as_slice(), general.as_slice());
    assert_eq!(f.len(), g.len(), "fast {f:?}\ngeneral {g:?}");
    for ((nf, pf), (ng, pg)) in f.iter().zip(g) {
        // Two axes tied to rounding (a nearly parallel edge of each shape, both
        // separating by the same gap) may be chosen either way: the normals then
        // differ, and each must separate the shapes by the same gap.
        let same_normal = (*nf - *ng).length() < 1e-5;
        let tied = (gap_along(a, pose_a, b, pose_b, *nf) - gap_along(a, pose_a, b, pose_b, *ng)).abs() < tol;
        assert!(same_normal || tied, "fast {f:?}\ngeneral {g:?}");
        if !same_normal {
            // Tied axes clip against different reference edges: ids and points differ by
            // design (seen: two facing edges 0.02 rad apart, both 0.0765 m away, gave
            // normals 0.02 rad apart and points 0.7 mm apart).
            continue;
        }
        // The clip's reference edge may also be a tie (an edge of A and one of B
        // nearly parallel, 1e-3 bias apart): then the two manifolds clip against
        // different side planes, and ids and points differ by design. Seen with a
        // 5-gon over a 7-gon whose facing edges were 0.1° apart: points 4 mm apart.
        const REFERENCE_ON_B: u64 = 1 << 31;
        if (pf.id.0 ^ pg.id.0) & REFERENCE_ON_B != 0 {
            continue;
        }
        assert_eq!(pf.id, pg.id, "fast {f:?}\ngeneral {g:?}");
        // A point where the incident edge crosses a side plane at a shallow angle
        // carries the rounding of that crossing divided by the angle's sine: seen
        // 2.2e-5 m apart at 1.7 m from the origin, where the depths agreed to 5e-6.
        // A tenth of a millimetre still tells a wrong point (centimetres off) apart.
        let point_tol = 1e-4 + tol;
        assert!((pf.point - pg.point).length() < point_tol, "fast {f:?}\ngeneral {g:?}");
        assert!((pf.depth - pg.depth).abs() < point_tol, "fast {f:?}\ngeneral {g:?}");
    }
}

//      +---+        box B a few centimetres above ground A, slightly turned, and
//      +---+        beside it: both speculative paths give the same two points
//  +-----------+
//  +-----------+
#[test]
fn boxes_near_each_other_get_the_same_speculative_points() {
    let (ground, bx) = (rect(4.0, 1.0), rect(1.0, 1.0));
    let pose_a = Pose::new(Vec2::new(2.0, -3.0), 0.0);
    for (x, y, angle) in [
        (2.0, -1.97, 0.0),
        (2.3, -1.99, 0.01),
        (4.52, -2.5, 0.0),
        (4.6, -1.9, 0.5),
    ] {
        assert_speculative_agree(&ground, &pose_a, &bx, &Pose::new(Vec2::new(x, y), angle), 0.05);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn fast_speculative_points_match_the_general_loop(
        angles_a in prop::collection::vec(0.0f32..std::f32::consts::TAU, 3..10),
        angles_b in prop::collection::vec(0.0f32..std::f32::consts::TAU, 3..40),
        radii in (0.3f32..1.0, 0.3f32..1.0, 0.3f32..1.0, 0.3f32..1.0),
        pose_a in (-5.0f32..5.0, -5.0f32..5.0, -3.2f32..3.2),
        direction in 0.0f32..std::f32::consts::TAU,
        turn in -3.2f32..3.2,
        margin in 0.0f32..0.3,
        gap_fraction in -0.2f32..1.5,
    ) {
        let (Some(a), Some(b)) = (
            ellipse_polygon(&angles_a, radii.0, radii.1),
            ellipse_polygon(&angles_b, radii.2, radii.3),
        ) else {
            return Ok(());
        };
        let pose_a = Pose::new(Vec2::new(pose_a.0, pose_a.1), pose_a.2);
        // B along `direction` from A, pushed out until apart, then back to about
        // `gap_fraction` of the margin.
        let dir = Vec2::from_angle(direction);
        let mut distance = 0.0f32;
        let mut pose_b = Pose::new(pose_a.translation, turn);
        for _ in 0..40 {
            let c = crate::narrow::collide(&a, &pose_a, &b, &pose_b, crate::narrow::Algorithm::SatDecomposed, &NarrowConfig::default(), None);
            if !c.intersect {
                break;
            }
            distance += c.depth.max(0.01);
            pose_b = Pose::new(pose_a.translation + dir * distance, turn);
        }
        pose_b = Pose::new(pose_b.translation + dir * (gap_fraction * margin), turn);
        assert_speculative_agree(&a, &pose_a, &b, &pose_b, margin);
        // Deeper too: the collide path with B in either stack buffer (up to 16
        // vertices, or up to 64) against the traced general path.
        let deeper = Pose::new(pose_b.translation - dir * (2.0 * margin), turn);
        for algorithm in [crate::narrow::Algorithm::SatDecomposed, crate::narrow::Algorithm::GjkEpa] {
            let config = NarrowConfig::default();
            let fast = crate::narrow::collide(&a, &pose_a, &b, &deeper, algorithm, &config, None);
            let mut trace = crate::narrow::Trace::new();
            let general = crate::narrow::collide(&a, &pose_a, &b, &deeper, algorithm, &config, Some(&mut trace));
            if fast.depth.max(general.depth) > 1e-5 {
                prop_assert_eq!(fast.intersect, general.intersect, "{:?} {:?}", fast, general);
                prop_assert!((fast.depth - general.depth).abs() <= 1e-5 * general.depth + 2e-5, "{:?} {:?}", fast, general);
            }
        }
    }
}

//        +----------------------+   B: a wide box 0.2 m above A's 0.15 mm top edge,
//        +----------------------+   within a 0.3 m speculative margin
//
//                   ..              A: a tall quadrilateral whose top edge (the
//                  /  \             reference edge) is 1.5e-4 m long, 5 m from the
//                 /    \            origin and turned
//                +------+
//
// The general path clipped in the world frame, where the ends of that edge are rounded
// to ulps of 5 m (4.8e-7 m): the side planes turned by up to ~3e-3 rad, and the points
// 0.2 m above the face moved along them by up to 4.5e-4 m at the third pose (an f32
// replay of the old clip), over the 1e-4 m the proptest above allows (it drew such an A
// once). Both paths now clip in A's frame.
#[test]
fn fast_speculative_points_match_the_general_loop_for_a_tiny_reference_edge_far_from_the_origin() {
    let half_top = 0.75e-4;
    let a = Shape::Polygon(
        Polygon::new(&[
            Vec2::new(-1.0, -1.0),
            Vec2::new(1.0, -1.0),
            Vec2::new(half_top, 1.0),
            Vec2::new(-half_top, 1.0),
        ])
        .expect("a convex quadrilateral"),
    );
    let b = rect(3.0, 0.5);
    for (x, y, angle) in [(5.0, 5.0, 0.7), (-4.3, 4.9, 2.1), (3.7, -4.1, -1.3)] {
        let pose_a = Pose::new(Vec2::new(x, y), angle);
        // B's bottom face 0.2 m above A's top edge, B a little turned and shifted.
        let up = pose_a.apply_vector(Vec2::Y);
        let side = pose_a.apply_vector(Vec2::X);
        let centre = pose_a.translation + up * (1.0 + 0.2 + 0.25) + side * 0.013;
        let pose_b = Pose::new(centre, angle + 0.002);
        let fast = speculative_points(&a, &pose_a, &b, &pose_b, 0.3, &mut Work::default());
        assert!(!fast.is_empty(), "B is within the margin");
        assert_speculative_agree(&a, &pose_a, &b, &pose_b, 0.3);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, ..ProptestConfig::default() })]

    /// The world's one-SAT detection gives, bit for bit, what `collide` and then
    /// `speculative_points` gave (the world ran both): overlapping, touching, apart within
    /// the margin and beyond it, under both touching policies and with box culling off.
    #[test]
    fn one_sat_detection_is_collide_then_speculation(
        angles_a in prop::collection::vec(0.0f32..std::f32::consts::TAU, 3..10),
        angles_b in prop::collection::vec(0.0f32..std::f32::consts::TAU, 3..40),
        radii in (0.3f32..1.0, 0.3f32..1.0, 0.3f32..1.0, 0.3f32..1.0),
        pose_a in (-50.0f32..50.0, -50.0f32..50.0, -3.2f32..3.2),
        offset in (-2.5f32..2.5, -2.5f32..2.5),
        turn in -3.2f32..3.2,
        margin in prop_oneof![Just(0.0f32), 0.0f32..0.5],
        intersecting in any::<bool>(),
        cull in any::<bool>(),
    ) {
        let (Some(a), Some(b)) = (
            ellipse_polygon(&angles_a, radii.0, radii.1),
            ellipse_polygon(&angles_b, radii.2, radii.3),
        ) else {
            return Ok(());
        };
        let pose_a = Pose::new(Vec2::new(pose_a.0, pose_a.1), pose_a.2);
        let pose_b = Pose::new(pose_a.translation + Vec2::new(offset.0, offset.1), turn);
        let config = NarrowConfig {
            touching: if intersecting {
                crate::narrow::TouchingPolicy::Intersecting
            } else {
                crate::narrow::TouchingPolicy::Separated
            },
            cull_by_bounds: cull,
            ..NarrowConfig::default()
        };
        let algorithm = crate::narrow::Algorithm::SatDecomposed;
        let (contact, speculative) = crate::narrow::collide_and_speculate(
            &a, &pose_a, &b, &pose_b, algorithm, &config, margin, &mut Work::default(),
        );
        let two_calls = crate::narrow::collide(&a, &pose_a, &b, &pose_b, algorithm, &config, None);
        prop_assert_eq!(contact.intersect, two_calls.intersect);
        prop_assert_eq!(contact.normal.to_array().map(f32::to_bits), two_calls.normal.to_array().map(f32::to_bits));
        prop_assert_eq!(contact.depth.to_bits(), two_calls.depth.to_bits());
        prop_assert_eq!(contact.points.as_slice(), two_calls.points.as_slice());
        let expected = if two_calls.intersect {
            crate::narrow::SpeculativePoints::default()
        } else {
            speculative_points(&a, &pose_a, &b, &pose_b, margin, &mut Work::default())
        };
        prop_assert_eq!(speculative, expected);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 4000, ..ProptestConfig::default() })]

    /// The branch-free SAT for polygons of up to eight vertices (`small.rs`) against the
    /// general one-sided SAT on the same pair in A's frame: where the general test scans
    /// both sides, the same normal and depth to the bit and the same work; where it
    /// climbs a side (four edges or fewer against six vertices or more), the depth to
    /// rounding and the normal the same or tied.
    #[test]
    fn the_small_polygon_sat_answers_as_the_general_one_sided_sat(
        angles_a in prop::collection::vec(0.0f32..std::f32::consts::TAU, 3..9),
        angles_b in prop::collection::vec(0.0f32..std::f32::consts::TAU, 3..9),
        radii in (0.2f32..1.0, 0.2f32..1.0, 0.2f32..1.0, 0.2f32..1.0),
        offset in (-1.8f32..1.8, -1.8f32..1.8, -3.2f32..3.2),
        stop_at in prop::sample::select(vec![0.0f32, 0.02, 0.3, f32::INFINITY]),
    ) {
        let (Some(Shape::Polygon(a)), Some(Shape::Polygon(b))) = (
            ellipse_polygon(&angles_a, radii.0, radii.1),
            ellipse_polygon(&angles_b, radii.2, radii.3),
        ) else {
            return Ok(());
        };
        let (va, vb) = (a.view(), b.view());
        let xf_ab = Pose::new(Vec2::new(offset.0, offset.1), offset.2);
        let mut buffer = [Vec2::ZERO; MAX_VERTICES_B];
        let pair = PairInA::new(&va, &vb, &xf_ab, &mut buffer);
        prop_assume!(small::fits(&pair));
        let (mut work_small, mut work_general) = (Work::default(), Work::default());
        let (n_small, d_small) = small::sat_one_sided_small(&pair, stop_at, &mut work_small);
        let (n_general, d_general) = sat_one_sided_in_a(&pair, stop_at, &mut work_general);
        let (n, m) = (va.vertices.len(), vb.vertices.len());
        let climbs = |edges: usize, others: usize| !(edges > 4 && others <= 16) && others >= 6;
        if !climbs(n, m) && !climbs(m, n) {
            prop_assert_eq!(d_small.to_bits(), d_general.to_bits());
            prop_assert_eq!((n_small.x.to_bits(), n_small.y.to_bits()), (n_general.x.to_bits(), n_general.y.to_bits()));
            prop_assert_eq!(work_small.axes_tested, work_general.axes_tested);
            prop_assert_eq!(work_small.vertices_scanned, work_general.vertices_scanned);
        } else {
            prop_assert!((d_small - d_general).abs() <= 1e-5, "depth {} against {}", d_small, d_general);
            prop_assert_eq!(work_small.axes_tested, work_general.axes_tested);
        }
    }
}
