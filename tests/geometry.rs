//! Polygon validation, convex decomposition and mass properties.

mod common;

use collision_lab::geometry::{Circle, MassProperties, Polygon, PolygonError, Segment, Shape};
use collision_lab::math::Vec2;
use common::integer_comb;
use proptest::prelude::*;

fn pts(v: &[(f32, f32)]) -> Vec<Vec2> {
    v.iter().map(|&(x, y)| Vec2::new(x, y)).collect()
}

fn signed_area(v: &[Vec2]) -> f64 {
    let n = v.len();
    (0..n)
        .map(|i| {
            let (a, b) = (v[i], v[(i + 1) % n]);
            0.5 * (a.x as f64 * b.y as f64 - a.y as f64 * b.x as f64)
        })
        .sum()
}

fn turn(a: Vec2, b: Vec2, c: Vec2) -> f64 {
    let (e1x, e1y) = (b.x as f64 - a.x as f64, b.y as f64 - a.y as f64);
    let (e2x, e2y) = (c.x as f64 - b.x as f64, c.y as f64 - b.y as f64);
    e1x * e2y - e1y * e2x
}

// ---------------------------------------------------------------- validation

//  3 ╲ ╱ 2      the bowtie: edge 0 (0→1) crosses edge 2 (2→3)
//     ╳
//  0 ╱ ╲ 1
#[test]
fn bowtie_names_edges_0_and_2() {
    let err = Polygon::new(&pts(&[(0., 0.), (1., 1.), (1., 0.), (0., 1.)])).unwrap_err();
    assert_eq!(
        err,
        PolygonError::SelfIntersecting {
            edge_a: 0,
            edge_b: 2,
            a0: (0., 0.),
            a1: (1., 1.),
            b0: (1., 0.),
            b1: (0., 1.),
        }
    );
}

#[test]
fn crossing_edges_are_named_by_user_indices_after_dropped_repeats() {
    // The repeated first point shifts every later index by one: the crossing edges are
    // the user's edges 1 and 3.
    let err = Polygon::new(&pts(&[(0., 0.), (0., 0.), (1., 1.), (1., 0.), (0., 1.)])).unwrap_err();
    match err {
        PolygonError::SelfIntersecting {
            edge_a,
            edge_b,
            a0,
            a1,
            b0,
            b1,
        } => {
            assert_eq!((edge_a, edge_b), (1, 3));
            assert_eq!((a0, a1, b0, b1), ((0., 0.), (1., 1.), (1., 0.), (0., 1.)));
        }
        other => panic!("expected a crossing, got {other:?}"),
    }
}

#[test]
fn spike_doubling_back_is_self_intersection() {
    // ┌────┐
    // │ |  │   edge 3 runs down to (2, 1), edge 4 comes back up the same line
    // └────┘
    let err = Polygon::new(&pts(&[
        (0., 0.),
        (4., 0.),
        (4., 4.),
        (2., 4.),
        (2., 1.),
        (2., 3.),
        (0., 4.),
    ]))
    .unwrap_err();
    match err {
        PolygonError::SelfIntersecting { edge_a, edge_b, .. } => {
            assert!(
                [3, 4, 5].contains(&edge_a) && [3, 4, 5].contains(&edge_b),
                "{edge_a} {edge_b}"
            );
        }
        other => panic!("expected a spike, got {other:?}"),
    }
}

#[test]
fn spike_on_a_triangle_seam_is_self_intersection() {
    // The outline goes (0,0) → (2,0) and straight back to (1,0).
    let err = Polygon::new(&pts(&[(0., 0.), (2., 0.), (1., 0.), (1., 1.)])).unwrap_err();
    assert!(matches!(err, PolygonError::SelfIntersecting { .. }), "{err:?}");
}

#[test]
fn touching_at_a_vertex_is_self_intersection() {
    // A figure eight pinched at (1, 1): vertices 2 and 5 coincide.
    let err = Polygon::new(&pts(&[(0., 0.), (2., 0.), (1., 1.), (2., 2.), (0., 2.), (1., 1.)])).unwrap_err();
    assert!(matches!(err, PolygonError::SelfIntersecting { .. }), "{err:?}");
}

#[test]
fn overlapping_collinear_edges_are_self_intersection() {
    // Two unit squares joined by an edge walked twice: (1,0)–(1,1) up and (1,1)–(1,0.5) down.
    let err = Polygon::new(&pts(&[
        (0., 0.),
        (1., 0.),
        (1., 1.),
        (2., 1.),
        (2., 2.),
        (1., 2.),
        (1., 0.5),
        (0., 1.),
    ]))
    .unwrap_err();
    assert!(matches!(err, PolygonError::SelfIntersecting { .. }), "{err:?}");
}

#[test]
fn duplicates_and_collinear_vertices_are_removed() {
    let p = Polygon::new(&pts(&[
        (0., 0.),
        (0., 0.),
        (1., 0.),
        (2., 0.),
        (2., 0.),
        (2., 1.),
        (2., 2.),
        (0., 2.),
        (0., 1.),
        (0., 0.),
    ]))
    .unwrap();
    let v = p.vertices();
    assert_eq!(v.len(), 4, "{v:?}");
    for corner in pts(&[(0., 0.), (2., 0.), (2., 2.), (0., 2.)]) {
        assert!(v.contains(&corner));
    }
    assert!(p.is_convex());
}

#[test]
fn clockwise_input_is_made_counter_clockwise() {
    let cw = pts(&[(0., 0.), (0., 1.), (2., 1.), (2., 0.)]);
    let p = Polygon::new(&cw).unwrap();
    assert!(signed_area(p.vertices()) > 0.0);
    assert_eq!(p.vertices().len(), 4);
    for c in &cw {
        assert!(p.vertices().contains(c));
    }
}

#[test]
fn nan_reports_its_index() {
    let err = Polygon::new(&pts(&[(0., 0.), (1., 0.), (f32::NAN, 1.), (0., 1.)])).unwrap_err();
    match err {
        PolygonError::NonFinite { index, y, .. } => {
            assert_eq!(index, 2);
            assert_eq!(y, 1.0);
        }
        other => panic!("{other:?}"),
    }
    let err = Polygon::new(&pts(&[(0., 0.), (1., f32::INFINITY), (0., 1.)])).unwrap_err();
    assert!(matches!(err, PolygonError::NonFinite { index: 1, .. }));
}

#[test]
fn zero_area_is_rejected() {
    for case in [
        pts(&[(0., 0.), (1., 0.), (2., 0.)]),
        pts(&[(0., 0.), (1., 1.), (2., 2.), (3., 3.)]),
        pts(&[(0., 0.), (1., 0.), (0.5, 1e-9)]),
    ] {
        assert_eq!(Polygon::new(&case).unwrap_err(), PolygonError::ZeroArea, "{case:?}");
    }
}

#[test]
fn three_distinct_vertices_are_required() {
    let cases: [(Vec<Vec2>, usize); 4] = [
        (vec![], 0),
        (pts(&[(0., 0.), (1., 1.)]), 2),
        (pts(&[(0., 0.), (1., 1.), (0., 0.)]), 2),
        (pts(&[(3., 3.), (3., 3.), (3., 3.)]), 1),
    ];
    for (points, distinct) in cases {
        assert_eq!(
            Polygon::new(&points).unwrap_err(),
            PolygonError::TooFewVertices { distinct }
        );
    }
    assert!(Polygon::new(&pts(&[(0., 0.), (1., 0.), (0., 1.)])).is_ok());
}

#[test]
fn back_and_forth_between_two_points_is_too_few_vertices() {
    let err = Polygon::new(&pts(&[(0., 0.), (1., 0.), (0., 0.), (1., 0.)])).unwrap_err();
    assert_eq!(err, PolygonError::TooFewVertices { distinct: 2 });
}

// ---------------------------------------------------------------- decomposition

fn reflex_count(v: &[Vec2]) -> usize {
    let n = v.len();
    (0..n)
        .filter(|&i| turn(v[(i + n - 1) % n], v[i], v[(i + 1) % n]) < 0.0)
        .count()
}

/// Every property the decomposition promises, checked on one polygon.
fn check_decomposition(p: &Polygon) -> Result<(), TestCaseError> {
    let v = p.vertices();
    let pieces = p.pieces();
    let mut area_sum = 0.0f64;
    for piece in pieces {
        let pv = piece.vertices();
        let k = pv.len();
        prop_assert!(k >= 3, "piece with {} vertices", k);
        for i in 0..k {
            prop_assert!(
                turn(pv[i], pv[(i + 1) % k], pv[(i + 2) % k]) > 0.0,
                "piece not strictly convex: {:?}",
                pv
            );
            prop_assert!(v.contains(&pv[i]), "piece vertex {:?} is not a polygon vertex", pv[i]);
        }
        area_sum += signed_area(pv);
    }
    let area = signed_area(v);
    prop_assert!(area > 0.0);
    prop_assert!(
        (area_sum - area).abs() <= 1e-4 * area,
        "pieces {} vs polygon {}",
        area_sum,
        area
    );
    // An edge marked as a diagonal is shared with another piece (reversed), so it runs
    // inside the polygon: its middle is on no outline edge. (Diagonals that another
    // piece splits at a vertex stay unmarked, which is only less pruning.)
    let size = p.local_aabb().max.length().max(p.local_aabb().min.length());
    for (k, piece) in pieces.iter().enumerate() {
        let pv = piece.vertices();
        let n = pv.len();
        prop_assert_eq!(piece.diagonals().len(), n);
        for i in (0..n).filter(|&i| piece.diagonals()[i]) {
            let (a, b) = (pv[i], pv[(i + 1) % n]);
            let twin = pieces.iter().enumerate().any(|(l, other)| {
                let ov = other.vertices();
                l != k && (0..ov.len()).any(|m| ov[m] == b && ov[(m + 1) % ov.len()] == a)
            });
            prop_assert!(twin, "diagonal {:?}-{:?} of piece {} has no twin", a, b, k);
            let middle = 0.5 * (a + b);
            for j in 0..v.len() {
                let (p0, p1) = (v[j], v[(j + 1) % v.len()]);
                let e = p1 - p0;
                let t = ((middle - p0).dot(e) / e.length_squared()).clamp(0.0, 1.0);
                prop_assert!(
                    (p0 + e * t - middle).length() > 1e-6 * size,
                    "diagonal {:?}-{:?} lies on outline edge {}",
                    a,
                    b,
                    j
                );
            }
        }
    }
    let r = reflex_count(v);
    prop_assert!(
        pieces.len() <= 2 * r + 1,
        "{} pieces for {} reflex vertices",
        pieces.len(),
        r
    );
    Ok(())
}

/// Star-shaped around the origin: sorted angles (each gap < π), radii in [0.2, 1].
fn star(samples: &[(f32, f32)], scale: f32, clockwise: bool) -> Vec<Vec2> {
    let n = samples.len();
    let mut v: Vec<Vec2> = samples
        .iter()
        .enumerate()
        .map(|(i, &(u, r))| {
            let a = (i as f32 + u) * std::f32::consts::TAU / n as f32;
            Vec2::new(a.cos(), a.sin()) * r * scale
        })
        .collect();
    if clockwise {
        v.reverse();
    }
    v
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn star_polygons_validate_and_decompose(
        samples in (4usize..64).prop_flat_map(|n| prop::collection::vec((0.0f32..0.9, 0.2f32..1.0), n)),
        scale in 0.01f32..100.0,
        clockwise in any::<bool>(),
    ) {
        let points = star(&samples, scale, clockwise);
        let p = Polygon::new(&points).map_err(|e| TestCaseError::fail(format!("{e}")))?;
        check_decomposition(&p)?;
        // Oracle: geo's area of the raw input equals ours.
        use geo::Area;
        let ring: Vec<geo::Coord<f64>> = points.iter().map(|q| geo::coord! { x: q.x as f64, y: q.y as f64 }).collect();
        let geo_area = geo::Polygon::new(geo::LineString::new(ring), vec![]).unsigned_area();
        let ours = Shape::Polygon(p).mass_properties().area as f64;
        prop_assert!((ours - geo_area).abs() <= 1e-4 * geo_area, "{} vs geo {}", ours, geo_area);
    }

    #[test]
    fn combs_validate_and_decompose(teeth in prop::collection::vec((1u8..4, 1u8..4, 1u8..6), 1..12)) {
        let p = Polygon::new(&integer_comb(&teeth)).map_err(|e| TestCaseError::fail(format!("{e}")))?;
        check_decomposition(&p)?;
    }

    #[test]
    fn polygon_mass_equals_the_sum_over_its_convex_pieces(
        samples in (4usize..40).prop_flat_map(|n| prop::collection::vec((0.0f32..0.9, 0.2f32..1.0), n)),
        offset in (-10.0f32..10.0, -10.0f32..10.0),
    ) {
        let points: Vec<Vec2> = star(&samples, 2.0, false).iter().map(|q| *q + Vec2::new(offset.0, offset.1)).collect();
        let p = Polygon::new(&points).map_err(|e| TestCaseError::fail(format!("{e}")))?;
        let parts: Vec<MassProperties> = p
            .pieces()
            .iter()
            .map(|piece| Shape::Polygon(Polygon::new(piece.vertices()).unwrap()).mass_properties())
            .collect();
        let sum = MassProperties::combined(&parts);
        let whole = Shape::Polygon(p).mass_properties();
        prop_assert!((sum.area - whole.area).abs() <= 1e-4 * whole.area);
        prop_assert!((sum.centroid - whole.centroid).length() <= 1e-4 * (1.0 + whole.centroid.length()));
        prop_assert!((sum.inertia - whole.inertia).abs() <= 1e-3 * whole.inertia, "{} vs {}", sum.inertia, whole.inertia);
    }
}

#[test]
fn u_shape_decomposes_into_at_most_three_pieces() {
    let u = Polygon::new(&pts(&[
        (0., 0.),
        (3., 0.),
        (3., 3.),
        (2., 3.),
        (2., 1.),
        (1., 1.),
        (1., 3.),
        (0., 3.),
    ]))
    .unwrap();
    assert!(!u.is_convex());
    assert!(u.pieces().len() <= 3);
    check_decomposition(&u).unwrap();
}

#[test]
fn gear_with_500_teeth_validates_and_decomposes() {
    let teeth = 500;
    let mut v = Vec::new();
    for k in 0..teeth {
        let a = k as f32 * std::f32::consts::TAU / teeth as f32;
        let step = std::f32::consts::TAU / teeth as f32;
        for (da, r) in [(0.0, 10.0), (0.25, 10.0), (0.25, 10.5), (0.5, 10.5)] {
            let t = a + da * step;
            v.push(Vec2::new(t.cos(), t.sin()) * r);
        }
    }
    let p = Polygon::new(&v).unwrap();
    check_decomposition(&p).unwrap();
}

#[test]
fn star_with_10k_vertices_validates_and_decomposes() {
    // Deterministic pseudo-random radii (xorshift), like a coastline around a centre.
    let n = 10_000;
    let mut s: u32 = 12345;
    let v: Vec<Vec2> = (0..n)
        .map(|i| {
            s ^= s << 13;
            s ^= s >> 17;
            s ^= s << 5;
            let r = 50.0 + 10.0 * (s as f32 / u32::MAX as f32);
            let a = i as f32 * std::f32::consts::TAU / n as f32;
            Vec2::new(a.cos(), a.sin()) * r
        })
        .collect();
    let p = Polygon::new(&v).unwrap();
    check_decomposition(&p).unwrap();
}

#[test]
fn comb_regression_exactly_collinear_notch_floors_do_not_break_ear_clipping() {
    let p = Polygon::new(&integer_comb(&[(1, 1, 3), (1, 2, 3), (2, 1, 1), (1, 1, 3)])).unwrap();
    check_decomposition(&p).unwrap();
}

// ---------------------------------------------------------------- mass

fn close(a: f32, b: f32, rel: f32) -> bool {
    (a - b).abs() <= rel * b.abs().max(1e-6)
}

#[test]
fn box_inertia_is_area_times_w2_plus_h2_over_12() {
    let (w, h) = (3.0f32, 0.5f32);
    let c = Vec2::new(7.0, -2.0);
    let p = Polygon::new(
        &pts(&[(0., 0.), (w, 0.), (w, h), (0., h)])
            .iter()
            .map(|q| *q + c)
            .collect::<Vec<_>>(),
    )
    .unwrap();
    let m = Shape::Polygon(p).mass_properties();
    let area = w * h;
    assert!(close(m.area, area, 1e-6));
    assert!((m.centroid - (c + Vec2::new(w / 2.0, h / 2.0))).length() < 1e-5);
    assert!(close(m.inertia, area * (w * w + h * h) / 12.0, 1e-5), "{}", m.inertia);
}

fn box_mass(x0: f32, y0: f32, x1: f32, y1: f32) -> MassProperties {
    Shape::Polygon(Polygon::new(&pts(&[(x0, y0), (x1, y0), (x1, y1), (x0, y1)])).unwrap()).mass_properties()
}

#[test]
fn l_shape_equals_its_two_boxes_by_the_parallel_axis_theorem() {
    //  ┌┐
    //  │└─┐
    //  └──┘
    let l = Shape::Polygon(Polygon::new(&pts(&[(0., 0.), (3., 0.), (3., 1.), (1., 1.), (1., 2.), (0., 2.)])).unwrap());
    let m = l.mass_properties();
    let parts = MassProperties::combined(&[box_mass(0., 0., 3., 1.), box_mass(0., 1., 1., 2.)]);
    assert!(close(m.area, 4.0, 1e-6));
    assert!((m.centroid - parts.centroid).length() < 1e-5);
    // By hand: boxes 3×1 at (1.5, .5) and 1×1 at (.5, 1.5); centroid (1.25, .75).
    assert!((m.centroid - Vec2::new(1.25, 0.75)).length() < 1e-5);
    let by_hand = 3.0 * 10.0 / 12.0
        + 3.0 * (0.25f32.powi(2) + 0.25f32.powi(2))
        + 2.0 / 12.0
        + (0.75f32.powi(2) + 0.75f32.powi(2));
    assert!(close(m.inertia, by_hand, 1e-5), "{} vs {}", m.inertia, by_hand);
    assert!(close(parts.inertia, by_hand, 1e-5));
}

#[test]
fn circle_mass() {
    let r = 1.5f32;
    let m = Shape::Circle(Circle::new(r).unwrap()).mass_properties();
    assert!(close(m.area, std::f32::consts::PI * r * r, 1e-6));
    assert_eq!(m.centroid, Vec2::ZERO);
    assert!(close(m.inertia, std::f32::consts::PI * r.powi(4) / 2.0, 1e-6));
}

#[test]
fn segment_is_a_thin_rod() {
    let s = Segment::new(Vec2::new(1.0, 1.0), Vec2::new(4.0, 5.0)).unwrap();
    let m = Shape::Segment(s).mass_properties();
    assert!(close(m.area, 5.0, 1e-6)); // length
    assert!((m.centroid - Vec2::new(2.5, 3.0)).length() < 1e-6);
    assert!(close(m.inertia, 125.0 / 12.0, 1e-6));
}

#[test]
fn non_convex_polygon_centroid_can_be_outside_it() {
    // A thin U: the centroid lies in the notch, and the cached piece centroids agree.
    let u = Polygon::new(&pts(&[
        (0., 0.),
        (3., 0.),
        (3., 3.),
        (2.9, 3.),
        (2.9, 0.1),
        (0.1, 0.1),
        (0.1, 3.),
        (0., 3.),
    ]))
    .unwrap();
    let m = Shape::Polygon(u.clone()).mass_properties();
    assert!((m.centroid.x - 1.5).abs() < 1e-5);
    assert!(m.centroid.y > 0.1, "{:?}", m.centroid);
    let parts: Vec<MassProperties> = u
        .pieces()
        .iter()
        .map(|pc| Shape::Polygon(Polygon::new(pc.vertices()).unwrap()).mass_properties())
        .collect();
    let sum = MassProperties::combined(&parts);
    assert!(close(sum.inertia, m.inertia, 1e-4));
}

#[test]
fn comb_with_2500_teeth_regression_base_corner_retested_after_every_cut() {
    // The base corners' ear triangles span the whole comb; this once made ear clipping
    // quadratic with a large constant. Correctness here, timing in the report.
    let teeth: Vec<(u8, u8, u8)> = (0..2500).map(|i| (1, 1 + (i % 2) as u8, 4)).collect();
    let p = Polygon::new(&integer_comb(&teeth)).unwrap();
    check_decomposition(&p).unwrap();
}

#[test]
fn two_zigzag_chains_far_apart_validate_and_decompose() {
    // Ear triangles span the 100 m between the chains, so their boxes hold many reflex
    // vertices: the slow case for the ear test.
    let k = 1000;
    let mut v: Vec<Vec2> = (0..k)
        .map(|i| Vec2::new(if i % 2 == 0 { 0.0 } else { 1.0 }, i as f32))
        .collect();
    v.extend(
        (0..k)
            .rev()
            .map(|i| Vec2::new(if i % 2 == 0 { 100.0 } else { 101.0 }, i as f32 + 0.5)),
    );
    let p = Polygon::new(&v).unwrap();
    check_decomposition(&p).unwrap();
}

// An L is two convex pieces cut along one diagonal: each piece has it once, marked.
#[test]
fn an_l_shape_s_pieces_share_one_marked_diagonal() {
    let l = Polygon::new(&pts(&[
        (0.0, 0.0),
        (2.0, 0.0),
        (2.0, 1.0),
        (1.0, 1.0),
        (1.0, 2.0),
        (0.0, 2.0),
    ]))
    .unwrap();
    assert_eq!(l.pieces().len(), 2);
    let marked: Vec<usize> = l
        .pieces()
        .iter()
        .map(|p| p.diagonals().iter().filter(|&&d| d).count())
        .collect();
    assert_eq!(marked, [1, 1]);
    let convex = Polygon::new(&pts(&[(0.0, 0.0), (1.0, 0.0), (0.0, 1.0)])).unwrap();
    assert!(convex.pieces()[0].diagonals().iter().all(|&d| !d));
}
