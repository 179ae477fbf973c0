//! NonConvexSat on two convex polygons: the world's fused detection
//! (`narrow::collide_and_speculate`, one SAT in A's frame for the contact and the
//! speculative points, `narrow/polygon_polygon.rs`) against the paper's literal loop
//! (`collide`, Fayzrakhmanov et al. 2015, `narrow/sat_nonconvex.rs`).
//!
//! On convex polygons the paper's algorithm is the classic separating axis test over
//! both polygons' edge normals, with the normal's sense taken from the centroids (its
//! step 10), so the two must give the same verdict (beyond the touching tolerance), the
//! same depth and normal up to rounding, and the same contact points; and the fused
//! path's speculative points must be those `speculative_points` gives, bit for bit.

mod common;

use collision_lab::geometry::Shape;
use collision_lab::math::{Pose, Vec2};
use collision_lab::narrow::{collide, collide_and_speculate, speculative_points, Algorithm, NarrowConfig, Work};
use common::*;
use proptest::prelude::*;

/// World vertices in f64.
fn world64(shape: &Shape, pose: &Pose) -> Vec<(f64, f64)> {
    let Shape::Polygon(p) = shape else {
        panic!("polygons only")
    };
    let (c, s) = (pose.rotation.cos as f64, pose.rotation.sin as f64);
    let (tx, ty) = (pose.translation.x as f64, pose.translation.y as f64);
    p.vertices()
        .iter()
        .map(|v| {
            (
                c * v.x as f64 - s * v.y as f64 + tx,
                s * v.x as f64 + c * v.y as f64 + ty,
            )
        })
        .collect()
}

/// Overlap of the two projections on the unit axis `n` (f64; negative: a gap).
fn overlap_on64(va: &[(f64, f64)], vb: &[(f64, f64)], n: (f64, f64)) -> f64 {
    let proj = |v: &[(f64, f64)]| {
        v.iter()
            .map(|p| p.0 * n.0 + p.1 * n.1)
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), d| (lo.min(d), hi.max(d)))
    };
    let ((a0, a1), (b0, b1)) = (proj(va), proj(vb));
    (a1 - b0).min(b1 - a0)
}

/// The least overlap over both polygons' edge normals (f64): the penetration depth of
/// two convex polygons (negative: apart).
fn sat_depth64(a: &Shape, pa: &Pose, b: &Shape, pb: &Pose) -> f64 {
    let (va, vb) = (world64(a, pa), world64(b, pb));
    let axes = |v: &[(f64, f64)]| -> Vec<(f64, f64)> {
        let n = v.len();
        (0..n)
            .map(|i| {
                let (ex, ey) = (v[(i + 1) % n].0 - v[i].0, v[(i + 1) % n].1 - v[i].1);
                let l = (ex * ex + ey * ey).sqrt();
                (ey / l, -ex / l)
            })
            .collect()
    };
    axes(&va)
        .into_iter()
        .chain(axes(&vb))
        .map(|n| overlap_on64(&va, &vb, n))
        .fold(f64::INFINITY, f64::min)
}

/// The centroids' offset along `normal` (world, f32): the quantity whose sign is the
/// paper's step 10.
fn centroid_offset_along(a: &Shape, pa: &Pose, b: &Shape, pb: &Pose, normal: Vec2) -> f32 {
    let (Shape::Polygon(poly_a), Shape::Polygon(poly_b)) = (a, b) else {
        panic!("polygons only")
    };
    (pb.apply_point(poly_b.pieces()[0].centroid()) - pa.apply_point(poly_a.pieces()[0].centroid())).dot(normal)
}

fn check_fused_matches_literal(a: &Shape, pa: &Pose, b: &Shape, pb: &Pose, margin: f32) -> Result<(), TestCaseError> {
    let config = NarrowConfig::default();
    let literal = collide(a, pa, b, pb, Algorithm::NonConvexSat, &config, None);
    let mut work = Work::default();
    let (fused, speculative) = collide_and_speculate(a, pa, b, pb, Algorithm::NonConvexSat, &config, margin, &mut work);
    let s = scale(a, pa, b, pb);
    let band = 16.0 * f32::EPSILON * s;
    let exact = sat_depth64(a, pa, b, pb);
    if exact.abs() > band as f64 {
        prop_assert_eq!(
            fused.intersect,
            literal.intersect,
            "verdict; exact depth {}; fused {:?} literal {:?}",
            exact,
            fused,
            literal
        );
    }
    if !fused.intersect {
        // Speculation is the same call's, bit for bit.
        let alone = speculative_points(a, pa, b, pb, margin, &mut Work::default());
        prop_assert_eq!(speculative, alone);
    } else {
        prop_assert!(speculative.is_empty());
    }
    if !(fused.intersect && literal.intersect) {
        return Ok(());
    }
    prop_assert!(
        (fused.depth - literal.depth).abs() <= 1e-5 * literal.depth + 1e-6 * s,
        "depth {} vs {}",
        fused.depth,
        literal.depth
    );
    if (fused.normal - literal.normal).length() > 1e-4 {
        if (fused.normal + literal.normal).length() <= 1e-4 {
            // The same axis, opposite senses: only where step 10's centroid offset is
            // zero up to rounding.
            let offset = centroid_offset_along(a, pa, b, pb, literal.normal);
            prop_assert!(offset.abs() <= 1e-5 * s, "senses differ at offset {}", offset);
            return Ok(());
        }
        // Two different axes tied for least overlap: each must really be one.
        let (va, vb) = (world64(a, pa), world64(b, pb));
        for n in [fused.normal, literal.normal] {
            let along = overlap_on64(&va, &vb, (n.x as f64, n.y as f64));
            prop_assert!(
                (along - exact).abs() <= 2e-6 * s as f64,
                "normal {:?} (fused {:?}, literal {:?}) overlaps {} not {}",
                n,
                fused.normal,
                literal.normal,
                along,
                exact
            );
        }
        return Ok(());
    }
    if has_nearly_collinear_edges(a)
        || has_nearly_collinear_edges(b)
        || reference_choice_ties(a, pa, b, pb, literal.normal)
    {
        return Ok(());
    }
    // A point within rounding of the reference face may be kept by one and dropped by
    // the other; every other point must be in both, with the same id.
    let (pf, pl) = (fused.points.as_slice(), literal.points.as_slice());
    for (these, others) in [(pf, pl), (pl, pf)] {
        for p in these.iter().filter(|p| p.depth > 2.0 * band) {
            let twin = others.iter().find(|q| q.id == p.id);
            prop_assert!(twin.is_some(), "contact ids: fused {:?} literal {:?}", pf, pl);
            let q = twin.unwrap();
            prop_assert!(
                (p.point - q.point).length() <= 1e-5 + 1e-6 * s,
                "points: fused {:?} literal {:?}",
                pf,
                pl
            );
            prop_assert!((p.depth - q.depth).abs() <= 1e-5 + 1e-6 * s);
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, ..ProptestConfig::default() })]

    /// Random convex pairs, from deep overlap to a little apart.
    #[test]
    fn fused_nonconvex_sat_matches_the_literal_loop_on_convex_pairs(
        a in convex_polygon(),
        pa in pose(1.5),
        b in convex_polygon(),
        pb in pose(1.5),
        margin in 0.0f32..0.3,
    ) {
        check_fused_matches_literal(&a, &pa, &b, &pb, margin)?;
    }

    /// Pairs that barely touch (B moved along the line between the centres until the
    /// pair is within a few millimetres of touching), where a resting pile's pairs live.
    #[test]
    fn fused_nonconvex_sat_matches_the_literal_loop_near_touching(
        a in convex_polygon(),
        pa in pose(1.0),
        b in convex_polygon(),
        angle in -3.2f32..3.2,
        direction in 0.0f32..std::f32::consts::TAU,
        gap in -0.01f32..0.01,
    ) {
        // Slide B out from A's centre until the f64 SAT depth is about −gap.
        let d = Vec2::from_angle(direction);
        let (mut lo, mut hi) = (0.0f32, 5.0f32);
        for _ in 0..40 {
            let mid = 0.5 * (lo + hi);
            let pb = Pose::new(pa.translation + d * mid, angle);
            if sat_depth64(&a, &pa, &b, &pb) > -gap as f64 { lo = mid } else { hi = mid }
        }
        let pb = Pose::new(pa.translation + d * lo, angle);
        check_fused_matches_literal(&a, &pa, &b, &pb, 0.02)?;
    }
}

/// A box resting on a wider one: the answer the pyramids ask for every step, exactly.
#[test]
fn box_on_ground_gets_the_literal_answer() {
    let ground = poly(&[(-2.0, -0.5), (2.0, -0.5), (2.0, 0.5), (-2.0, 0.5)]);
    let bx = poly(&[(-0.5, -0.5), (0.5, -0.5), (0.5, 0.5), (-0.5, 0.5)]);
    let (pa, pb) = (
        Pose::new(Vec2::new(0.0, -0.5), 0.0),
        Pose::new(Vec2::new(0.1, 0.499), 0.0),
    );
    let config = NarrowConfig::default();
    let literal = collide(&ground, &pa, &bx, &pb, Algorithm::NonConvexSat, &config, None);
    let (fused, _) = collide_and_speculate(
        &ground,
        &pa,
        &bx,
        &pb,
        Algorithm::NonConvexSat,
        &config,
        0.02,
        &mut Work::default(),
    );
    assert!(literal.intersect && fused.intersect);
    assert!((fused.normal - Vec2::Y).length() < 1e-6, "{:?}", fused.normal);
    assert!((fused.normal - literal.normal).length() < 1e-6);
    assert!((fused.depth - literal.depth).abs() < 1e-6);
    assert_eq!(fused.points.as_slice().len(), 2);
    for (p, q) in fused.points.as_slice().iter().zip(literal.points.as_slice()) {
        assert_eq!(p.id, q.id);
        assert!((p.point - q.point).length() < 1e-6);
    }
}
