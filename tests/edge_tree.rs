//! The edge and piece trees change the time, never the answer: NonConvexSat with the
//! trees forced on gives the same contact as with them off, and the exact overlap test
//! the same verdict, on random pairs of every family.

use collision_lab::geometry::families::Family;
use collision_lab::geometry::{Polygon, Shape};
use collision_lab::math::{Pose, Vec2};
use collision_lab::narrow::exact::{overlap_area, overlap_area_tree, polygons_overlap_with};
use collision_lab::narrow::{collide, Algorithm, Contact, EdgeTreePolicy, NarrowConfig};
use proptest::prelude::*;

fn family() -> impl Strategy<Value = Family> {
    prop::sample::select(Family::ALL.to_vec())
}

fn shape() -> impl Strategy<Value = Shape> {
    (family(), 8usize..200, 0.3f32..2.0, any::<u64>()).prop_map(|(f, n, size, seed)| {
        Shape::Polygon(Polygon::new(&f.generate(n, size, seed)).expect("families are valid"))
    })
}

fn pose() -> impl Strategy<Value = Pose> {
    (-1.2f32..1.2, -1.2f32..1.2, -3.2f32..3.2).prop_map(|(x, y, a)| Pose::new(Vec2::new(x, y), a))
}

/// Everything but the work counters, which differ by design.
fn answer(c: &Contact) -> (bool, Vec2, Vec2, f32, Vec<Vec2>) {
    (
        c.intersect,
        c.mtv,
        c.normal,
        c.depth,
        c.points.as_slice().iter().map(|p| p.point).collect(),
    )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn nonconvex_sat_is_the_same_with_and_without_the_tree(a in shape(), pa in pose(), b in shape(), pb in pose()) {
        let on = NarrowConfig { edge_tree: EdgeTreePolicy::Always, ..NarrowConfig::default() };
        let off = NarrowConfig { edge_tree: EdgeTreePolicy::Never, ..NarrowConfig::default() };
        let c_on = collide(&a, &pa, &b, &pb, Algorithm::NonConvexSat, &on, None);
        let c_off = collide(&a, &pa, &b, &pb, Algorithm::NonConvexSat, &off, None);
        prop_assert_eq!(answer(&c_on), answer(&c_off));
        // Same axes; the vertex counts differ (a one-leaf tree scans its vertices twice,
        // once for the max and once for the min).
        prop_assert_eq!(c_on.work.axes_tested, c_off.work.axes_tested);
    }

    /// SatDecomposed and GjkEpa find their candidate piece pairs by descending both piece
    /// trees instead of testing every pair of piece boxes: the same contact, fewer tests.
    #[test]
    fn decomposed_algorithms_are_the_same_with_and_without_the_piece_trees(a in shape(), pa in pose(), b in shape(), pb in pose()) {
        let on = NarrowConfig { edge_tree: EdgeTreePolicy::Always, ..NarrowConfig::default() };
        let off = NarrowConfig { edge_tree: EdgeTreePolicy::Never, ..NarrowConfig::default() };
        for algorithm in [Algorithm::SatDecomposed, Algorithm::GjkEpa] {
            let c_on = collide(&a, &pa, &b, &pb, algorithm, &on, None);
            let c_off = collide(&a, &pa, &b, &pb, algorithm, &off, None);
            prop_assert_eq!(answer(&c_on), answer(&c_off), "{}", algorithm);
            prop_assert_eq!(c_on.work.piece_pairs_tested, c_off.work.piece_pairs_tested.min(c_on.work.piece_pairs_tested));
        }
    }

    #[test]
    fn exact_overlap_is_the_same_with_and_without_the_tree(a in shape(), pa in pose(), b in shape(), pb in pose()) {
        let on = polygons_overlap_with(&a, &pa, &b, &pb, EdgeTreePolicy::Always);
        let off = polygons_overlap_with(&a, &pa, &b, &pb, EdgeTreePolicy::Never);
        prop_assert_eq!(on, off);
        let (tree_area, _) = overlap_area_tree(&a, &pa, &b, &pb);
        let brute_area = overlap_area(&a, &pa, &b, &pb);
        prop_assert!((tree_area - brute_area).abs() <= 1e-6 * brute_area.max(1e-6), "{} vs {}", tree_area, brute_area);
    }
}
