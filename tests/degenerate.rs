//! Degenerate input never panics and gives sane answers.

mod common;

use collision_lab::geometry::{Circle, Polygon, Segment, Shape};
use collision_lab::math::{Pose, Vec2};
use collision_lab::narrow::exact::polygons_overlap;
use collision_lab::narrow::{collide, trace::Trace, Algorithm, Contact, NarrowConfig};
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
        assert_same_meaning(alg, &traced, &c);
        assert!(!trace.steps.is_empty());
    }
}

/// Tracing changes nothing but the work and the last bits: without a trace, SatDecomposed
/// and GjkEpa answer two convex polygons in A's frame (`narrow/polygon_polygon.rs`) where
/// the traced path works in the world frame, with the same verdict, depth, normal, points
/// and contact ids up to rounding (`tests/narrow_convex.rs` checks that on random pairs).
/// NonConvexSat has no separate untraced path: there the answers are identical.
fn assert_same_meaning(alg: Algorithm, traced: &Contact, c: &Contact) {
    if alg == Algorithm::NonConvexSat || traced == c {
        assert_eq!(traced, c, "{alg}: tracing changed the answer");
        return;
    }
    let tol = 1e-5 * traced.depth.abs().max(1.0);
    if traced.intersect != c.intersect {
        // Only a touching pair may change its verdict with the rounding.
        assert!(
            traced.depth.max(c.depth) <= tol,
            "{alg}: traced {traced:?}, untraced {c:?}"
        );
        return;
    }
    assert!(
        (traced.depth - c.depth).abs() <= tol,
        "{alg}: traced {traced:?}, untraced {c:?}"
    );
    if (traced.normal - c.normal).length() > 1e-4 {
        // Axes tied for least penetration (identical shapes): either is right.
        return;
    }
    let (pt, pc) = (traced.points.as_slice(), c.points.as_slice());
    assert_eq!(pt.len(), pc.len(), "{alg}: traced {traced:?}, untraced {c:?}");
    for (p, q) in pt.iter().zip(pc) {
        assert_eq!(p.id, q.id, "{alg}: traced {traced:?}, untraced {c:?}");
        assert!(
            (p.point - q.point).length() <= tol,
            "{alg}: traced {traced:?}, untraced {c:?}"
        );
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

/// The degenerate configurations of one pair, built from a convex polygon A.
#[derive(Clone, Copy, Debug)]
enum Layout {
    /// B is A at the same pose.
    Identical,
    /// B is A shrunk by `scale` about A's centroid: concentric and nested.
    Nested { scale: f32 },
    /// B is A moved right by exactly A's width: touching at a vertex or an edge.
    Touching,
    /// B is a rectangle `width` thin and longer than A, through A's centroid at `angle`.
    Sliver { width: f32, angle: f32 },
    /// B is A moved by three times its radius along `angle`: clearly apart.
    Apart { angle: f32 },
}

fn layout() -> impl Strategy<Value = Layout> {
    prop_oneof![
        Just(Layout::Identical),
        (0.05f32..0.6).prop_map(|scale| Layout::Nested { scale }),
        Just(Layout::Touching),
        (1e-3f32..1e-2, -3.2f32..3.2).prop_map(|(width, angle)| Layout::Sliver { width, angle }),
        (-3.2f32..3.2).prop_map(|angle| Layout::Apart { angle }),
    ]
}

/// A's points, and B's points in the same frame, and whether they overlap when that
/// is certain (`None` for touching).
fn build_layout(a: &[Vec2], layout: Layout) -> (Vec<Vec2>, Option<bool>) {
    let centroid = a.iter().copied().sum::<Vec2>() / a.len() as f32;
    let radius = a.iter().map(|p| p.distance(centroid)).fold(0.0, f32::max);
    match layout {
        Layout::Identical => (a.to_vec(), Some(true)),
        Layout::Nested { scale } => (
            a.iter().map(|&p| centroid + (p - centroid) * scale).collect(),
            Some(true),
        ),
        Layout::Touching => {
            let (lo, hi) = a.iter().fold((f32::INFINITY, f32::NEG_INFINITY), |(lo, hi), p| {
                (lo.min(p.x), hi.max(p.x))
            });
            (a.iter().map(|&p| p + Vec2::new(hi - lo, 0.0)).collect(), None)
        }
        Layout::Sliver { width, angle } => {
            let (u, n) = (
                Vec2::from_angle(angle) * 2.0 * radius,
                Vec2::from_angle(angle).perp() * 0.5 * width,
            );
            (
                vec![centroid - u - n, centroid + u - n, centroid + u + n, centroid - u + n],
                Some(true),
            )
        }
        Layout::Apart { angle } => {
            let d = Vec2::from_angle(angle) * 3.0 * radius;
            (a.iter().map(|&p| p + d).collect(), Some(false))
        }
    }
}

/// One degenerate pair through `algorithm`, at `size` (metres per unit of A) and moved
/// `far` metres away: no panic, nothing non-finite, and where the answer is certain
/// and f32 can still tell (the move leaves the shapes more than a few ulps across), the
/// algorithm and the exact oracle both give it.
fn check_degenerate(algorithm: Algorithm, a_points: &[Vec2], layout: Layout, size: f32, far: f32, angle: f32) {
    let (b_points, expected) = build_layout(a_points, layout);
    let scaled = |pts: &[Vec2]| pts.iter().map(|&p| p * size).collect::<Vec<_>>();
    let (Ok(a), Ok(b)) = (Polygon::new(&scaled(a_points)), Polygon::new(&scaled(&b_points))) else {
        return; // a hull the polygon builder calls degenerate: covered by its own tests
    };
    let (a, b) = (Shape::Polygon(a), Shape::Polygon(b));
    let pose = Pose::new(Vec2::new(far, -far), angle);
    let c = collide(&a, &pose, &b, &pose, algorithm, &NarrowConfig::default(), None);
    assert!(
        c.depth.is_finite() && c.mtv.is_finite() && c.normal.is_finite(),
        "{algorithm} {layout:?}: {c:?}"
    );
    if c.intersect {
        assert!(
            c.depth >= 0.0 && (c.normal.length() - 1.0).abs() < 1e-3,
            "{algorithm} {layout:?}: {c:?}"
        );
    }
    let resolvable = far.abs() * f32::EPSILON * 64.0 < 0.05 * size;
    if let (Some(expected), true) = (expected, resolvable) {
        let exact = polygons_overlap(&a, &pose, &b, &pose);
        assert_eq!(exact, expected, "oracle, {layout:?} at size {size}, {far} m away");
        assert_eq!(
            c.intersect, expected,
            "{algorithm}, {layout:?} at size {size}, {far} m away: {c:?}"
        );
    }
}

fn degenerate_case() -> impl Strategy<Value = (Vec<Vec2>, Layout, f32, f32, f32)> {
    (
        convex_points(1.0),
        layout(),
        prop::sample::select(vec![1e-3f32, 1.0, 1e3]),
        prop::sample::select(vec![0.0f32, 37.5, 1e4, 1e5]),
        -3.2f32..3.2,
    )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn degenerate_pairs_non_convex_sat((a, layout, size, far, angle) in degenerate_case()) {
        check_degenerate(Algorithm::NonConvexSat, &a, layout, size, far, angle);
    }

    #[test]
    fn degenerate_pairs_sat_decomposed((a, layout, size, far, angle) in degenerate_case()) {
        check_degenerate(Algorithm::SatDecomposed, &a, layout, size, far, angle);
    }

    #[test]
    fn degenerate_pairs_gjk_epa((a, layout, size, far, angle) in degenerate_case()) {
        check_degenerate(Algorithm::GjkEpa, &a, layout, size, far, angle);
    }
}
