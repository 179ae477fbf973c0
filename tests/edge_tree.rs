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
        // The work differs by design: with the trees forced on, the axes that cannot
        // change the answer are skipped (`sat_whole_outlines_pruned`), which usually
        // projects far fewer axes, but may project a few more where the full loop stops
        // at an early separating axis.
        prop_assert_eq!(answer(&c_on), answer(&c_off));
    }

    /// SatDecomposed and GjkEpa find their candidate piece pairs by descending both piece
    /// trees instead of testing every pair of piece boxes: the same contact, fewer tests.
    /// The same up to rounding, not bit for bit: through the trees the combine step also
    /// scans the untested pairs by tree and bounds them by SAT before building their
    /// differences, so it meets the differences in another order, and where three of
    /// them meet in one corner of the union it may take that corner as the crossing of
    /// another pair of edges, a few ulps away.
    #[test]
    fn decomposed_algorithms_are_the_same_with_and_without_the_piece_trees(a in shape(), pa in pose(), b in shape(), pb in pose()) {
        let on = NarrowConfig { edge_tree: EdgeTreePolicy::Always, ..NarrowConfig::default() };
        let off = NarrowConfig { edge_tree: EdgeTreePolicy::Never, ..NarrowConfig::default() };
        for algorithm in [Algorithm::SatDecomposed, Algorithm::GjkEpa] {
            let c_on = collide(&a, &pa, &b, &pb, algorithm, &on, None);
            let c_off = collide(&a, &pa, &b, &pb, algorithm, &off, None);
            prop_assert_eq!(c_on.intersect, c_off.intersect, "{}", algorithm);
            // 1e-5 of the depth plus 1e-6 m: far below the oracle's 1e-4, far above
            // the few ulps a corner's rounding moves it.
            let close = |x: f32, y: f32| (x - y).abs() <= 1e-5 * x.abs().max(y.abs()) + 1e-6;
            prop_assert!(close(c_on.depth, c_off.depth), "{}: depth {} vs {}", algorithm, c_on.depth, c_off.depth);
            prop_assert!((c_on.normal - c_off.normal).length() <= 1e-4, "{}: normal {} vs {}", algorithm, c_on.normal, c_off.normal);
            prop_assert!((c_on.mtv - c_off.mtv).length() <= 1e-5 * c_on.depth.abs() + 1e-6, "{}: mtv {} vs {}", algorithm, c_on.mtv, c_off.mtv);
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

/// Distance between segments p0–p1 and q0–q1 (m): 0 when they cross, else the least of
/// the four end-to-segment distances.
fn segment_distance(p0: Vec2, p1: Vec2, q0: Vec2, q1: Vec2) -> f32 {
    let cross = |a: Vec2, b: Vec2| a.x * b.y - a.y * b.x;
    let (d1, d2) = (cross(p1 - p0, q0 - p0), cross(p1 - p0, q1 - p0));
    let (d3, d4) = (cross(q1 - q0, p0 - q0), cross(q1 - q0, p1 - q0));
    if d1 * d2 < 0.0 && d3 * d4 < 0.0 {
        return 0.0;
    }
    let to_segment = |x: Vec2, a: Vec2, b: Vec2| {
        let ab = b - a;
        let t = ((x - a).dot(ab) / ab.length_squared().max(f32::MIN_POSITIVE)).clamp(0.0, 1.0);
        (a + ab * t - x).length()
    };
    to_segment(p0, q0, q1)
        .min(to_segment(p1, q0, q1))
        .min(to_segment(q0, p0, p1))
        .min(to_segment(q1, p0, p1))
}

fn outline(shape: &Shape) -> Vec<Vec2> {
    match shape {
        Shape::Polygon(p) => p.vertices().to_vec(),
        _ => unreachable!("the families are polygons"),
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 60, ..ProptestConfig::default() })]

    /// Trees of every node volume give the same answers as the brute-force loops: the
    /// same projection bit for bit, every edge pair within the margin visited, and the
    /// same least edge distance. Only the work differs.
    #[test]
    fn every_node_volume_gives_the_same_answers(a in shape(), pa in pose(), b in shape(), pb in pose(), angle in -3.2f32..3.2) {
        use collision_lab::bounds::BoundKind;
        use collision_lab::geometry::EdgeTree;
        let (va, vb) = (outline(&a), outline(&b));
        let axis = Vec2::from_angle(angle);
        let brute_max = va.iter().map(|v| v.x * axis.x + v.y * axis.y).fold(f32::MIN, f32::max);
        let brute_min = va.iter().map(|v| v.x * axis.x + v.y * axis.y).fold(f32::MAX, f32::min);
        let margin = 0.05;
        let world = |pose: &Pose, v: &[Vec2], i: usize| (pose.apply_point(v[i]), pose.apply_point(v[(i + 1) % v.len()]));
        let mut near = Vec::new();
        let mut brute_distance = f32::INFINITY;
        for i in 0..va.len() {
            for j in 0..vb.len() {
                let (p0, p1) = world(&pa, &va, i);
                let (q0, q1) = world(&pb, &vb, j);
                let d = segment_distance(p0, p1, q0, q1);
                brute_distance = brute_distance.min(d);
                // Well inside the margin: the trees' rounding cannot hide these.
                if d < 0.5 * margin {
                    near.push((i, j));
                }
            }
        }
        let mut distances = Vec::new();
        for kind in BoundKind::ALL {
            let (ta, tb) = (EdgeTree::over_edges_with(&va, kind), EdgeTree::over_edges_with(&vb, kind));
            prop_assert_eq!(ta.kind(), kind);
            let ((lo, hi), _) = ta.project(&va, axis);
            prop_assert_eq!((lo, hi), (brute_min, brute_max), "{:?}", kind);
            let mut visited = std::collections::HashSet::new();
            ta.for_each_overlapping_pair(&pa, &tb, &pb, margin, |i, j| {
                visited.insert((i, j));
            });
            for pair in &near {
                prop_assert!(visited.contains(pair), "{:?} missed the edge pair {:?}", kind, pair);
            }
            let d = ta.min_item_distance(&pa, &tb, &pb, |i, j| {
                let (p0, p1) = world(&pa, &va, i);
                let (q0, q1) = world(&pb, &vb, j);
                segment_distance(p0, p1, q0, q1)
            });
            distances.push(d);
        }
        for d in &distances {
            prop_assert_eq!(*d, brute_distance, "{:?}", distances);
        }
    }
}
