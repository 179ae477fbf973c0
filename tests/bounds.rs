//! Bounding volumes: containment, Welzl against brute force, conservativeness of the
//! overlap tests (also across kinds), OBB exactness, tightness.

use collision_lab::bounds::{
    distance_to_shape, minimal_enclosing_circle, tightness, BoundKind, BoundingVolume, Kdop8, Obb, ObbMethod,
};
use collision_lab::geometry::{Circle, Polygon, Segment, Shape};
use collision_lab::math::{Pose, Vec2};
use proptest::prelude::*;

fn pts(v: &[(f32, f32)]) -> Vec<Vec2> {
    v.iter().map(|&(x, y)| Vec2::new(x, y)).collect()
}

fn star(samples: &[(f32, f32)]) -> Vec<Vec2> {
    let n = samples.len();
    samples
        .iter()
        .enumerate()
        .map(|(i, &(u, r))| {
            let a = (i as f32 + u) * std::f32::consts::TAU / n as f32;
            Vec2::new(a.cos(), a.sin()) * r
        })
        .collect()
}

fn star_strategy() -> impl Strategy<Value = Vec<(f32, f32)>> {
    (4usize..32).prop_flat_map(|n| prop::collection::vec((0.0f32..0.9, 0.2f32..2.0), n))
}

fn pose_strategy() -> impl Strategy<Value = Pose> {
    (-3.0f32..3.0, -3.0f32..3.0, -3.2f32..3.2).prop_map(|(x, y, a)| Pose::new(Vec2::new(x, y), a))
}

/// Every volume we can build for a shape: four kinds, plus the covariance OBB.
fn all_volumes(shape: &Shape, pose: &Pose) -> Vec<BoundingVolume> {
    let mut v: Vec<BoundingVolume> = BoundKind::ALL
        .iter()
        .map(|&k| BoundingVolume::of_shape(shape, pose, k))
        .collect();
    v.push(BoundingVolume::of_shape_with(
        shape,
        pose,
        BoundKind::Obb,
        ObbMethod::Covariance,
    ));
    v
}

/// Points of the filled shape, world frame: vertices, points along the edges, and
/// interior points (a grid kept where the distance to the shape is 0).
fn sample_shape(shape: &Shape, pose: &Pose) -> Vec<Vec2> {
    let mut out = Vec::new();
    match shape {
        Shape::Polygon(p) => {
            let v = p.vertices();
            for i in 0..v.len() {
                for s in 0..4 {
                    out.push(pose.apply_point(v[i].lerp(v[(i + 1) % v.len()], s as f32 / 4.0)));
                }
            }
            let b = p.local_aabb();
            for j in 0..=12 {
                for i in 0..=12 {
                    let q = pose.apply_point(b.min + (b.max - b.min) * Vec2::new(i as f32 / 12.0, j as f32 / 12.0));
                    if distance_to_shape(shape, pose, q) == 0.0 {
                        out.push(q);
                    }
                }
            }
        }
        Shape::Segment(s) => {
            for k in 0..=8 {
                out.push(pose.apply_point(s.a().lerp(s.b(), k as f32 / 8.0)));
            }
        }
        Shape::Circle(c) => {
            for k in 0..16 {
                let a = k as f32 * std::f32::consts::TAU / 16.0;
                out.push(pose.apply_point(Vec2::new(a.cos(), a.sin()) * c.radius() * 0.999));
            }
            out.push(pose.translation);
        }
    }
    out
}

fn shape_strategy() -> impl Strategy<Value = Shape> {
    prop_oneof![
        star_strategy().prop_map(|s| Shape::Polygon(Polygon::new(&star(&s)).unwrap())),
        (0.1f32..2.0).prop_map(|r| Shape::Circle(Circle::new(r).unwrap())),
        ((-2.0f32..2.0, -2.0f32..2.0), (-2.0f32..2.0, -2.0f32..2.0))
            .prop_filter("distinct", |(a, b)| (a.0 - b.0).abs() + (a.1 - b.1).abs() > 0.01)
            .prop_map(|(a, b)| Shape::Segment(Segment::new(Vec2::new(a.0, a.1), Vec2::new(b.0, b.1)).unwrap())),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn every_volume_contains_every_shape_point(shape in shape_strategy(), pose in pose_strategy()) {
        // Vertices are exact shape points: contained exactly. Edge and interior samples
        // are computed (lerp, rounding by an ulp or so): contained within 1e-5.
        let vertices: Vec<Vec2> = match &shape {
            Shape::Polygon(p) => p.vertices().iter().map(|v| pose.apply_point(*v)).collect(),
            Shape::Segment(s) => vec![pose.apply_point(s.a()), pose.apply_point(s.b())],
            Shape::Circle(_) => vec![pose.translation],
        };
        let samples = sample_shape(&shape, &pose);
        for volume in all_volumes(&shape, &pose) {
            for q in &vertices {
                prop_assert!(volume.contains(*q), "{:?} misses vertex {:?}", volume, q);
            }
            for q in &samples {
                prop_assert!(contains_within(&volume, *q, 1e-5 * (1.0 + q.length())), "{:?} misses {:?}", volume, q);
            }
        }
    }

    #[test]
    fn volumes_of_overlapping_shapes_overlap_for_every_pair_of_kinds(
        a in shape_strategy(), b in shape_strategy(), pose_a in pose_strategy(), pose_b in pose_strategy(),
    ) {
        let sa = sample_shape(&a, &pose_a);
        let sb = sample_shape(&b, &pose_b);
        let shapes_touch = sa.iter().any(|q| distance_to_shape(&b, &pose_b, *q) == 0.0)
            || sb.iter().any(|q| distance_to_shape(&a, &pose_a, *q) == 0.0);
        if shapes_touch {
            for va in all_volumes(&a, &pose_a) {
                for vb in all_volumes(&b, &pose_b) {
                    prop_assert!(va.overlaps(&vb), "{:?} vs {:?}", va, vb);
                    prop_assert!(vb.overlaps(&va));
                }
            }
        }
    }

    #[test]
    fn cross_kind_overlap_agrees_with_point_samples_of_the_volumes(
        a in shape_strategy(), b in shape_strategy(), pose_a in pose_strategy(), pose_b in pose_strategy(),
    ) {
        // A volume's outline points lying inside the other volume prove an overlap.
        for va in all_volumes(&a, &pose_a) {
            for vb in all_volumes(&b, &pose_b) {
                let witness = va.outline().iter().any(|q| vb.contains(*q)) || vb.outline().iter().any(|q| va.contains(*q));
                if witness {
                    prop_assert!(va.overlaps(&vb), "{:?} vs {:?}", va, vb);
                }
            }
        }
    }

    #[test]
    fn welzl_equals_brute_force_on_small_sets(points in prop::collection::vec((-5.0f32..5.0, -5.0f32..5.0), 1..9)) {
        let p: Vec<Vec2> = points.iter().map(|&(x, y)| Vec2::new(x, y)).collect();
        let welzl = minimal_enclosing_circle(&p);
        let brute = brute_force_circle(&p);
        prop_assert!((welzl.radius - brute.1).abs() <= 1e-4 * (1.0 + brute.1), "welzl {} brute {}", welzl.radius, brute.1);
        for q in &p {
            prop_assert!(welzl.center.distance(*q) <= welzl.radius);
        }
    }

    #[test]
    fn obb_of_a_rotated_rectangle_is_the_rectangle(
        w in 0.1f32..5.0, h in 0.1f32..5.0, pose in pose_strategy(), square in any::<bool>(),
    ) {
        let h = if square { w } else { h };
        let rect = Shape::Polygon(Polygon::new(&pts(&[(-w / 2.0, -h / 2.0), (w / 2.0, -h / 2.0), (w / 2.0, h / 2.0), (-w / 2.0, h / 2.0)])).unwrap());
        let BoundingVolume::Obb(obb) = BoundingVolume::of_shape(&rect, &pose, BoundKind::Obb) else { unreachable!() };
        // The box is grown by a few ulps of its distance from the origin (rounding
        // margin), hence the second term.
        prop_assert!((obb.area() - w * h).abs() <= 1e-4 * w * h + 2e-5 * (w + h), "area {} vs {}", obb.area(), w * h);
        prop_assert!((obb.center - pose.translation).length() <= 1e-4 * (w + h));
        // Every box corner is a rectangle corner.
        let Shape::Polygon(p) = &rect else { unreachable!() };
        let corners: Vec<Vec2> = p.vertices().iter().map(|v| pose.apply_point(*v)).collect();
        for c in obb.outline() {
            prop_assert!(corners.iter().any(|k| k.distance(c) <= 1e-4 * (w + h)), "{:?} not a corner", c);
        }
    }
}

/// `contains`, or within `tol` of the volume.
fn contains_within(volume: &BoundingVolume, q: Vec2, tol: f32) -> bool {
    if let BoundingVolume::Circle(c) = volume {
        return c.center.distance(q) <= c.radius + tol;
    }
    let o = volume.outline();
    volume.contains(q)
        || (0..o.len()).any(|i| {
            let (a, b) = (o[i], o[(i + 1) % o.len()]);
            let t = ((q - a).dot(b - a) / (b - a).length_squared().max(f32::MIN_POSITIVE)).clamp(0.0, 1.0);
            (a + (b - a) * t).distance(q) <= tol
        })
}

/// Smallest circle through 2 or 3 of the points that holds all of them, by trying every
/// pair and triple: O(n⁴), an oracle for tiny sets.
fn brute_force_circle(p: &[Vec2]) -> (Vec2, f32) {
    let pd: Vec<[f64; 2]> = p.iter().map(|q| [q.x as f64, q.y as f64]).collect();
    if pd.len() == 1 {
        return (p[0], 0.0);
    }
    let holds = |c: [f64; 2], r: f64| {
        pd.iter()
            .all(|q| ((q[0] - c[0]).powi(2) + (q[1] - c[1]).powi(2)).sqrt() <= r * (1.0 + 1e-9) + 1e-9)
    };
    let mut best = (Vec2::ZERO, f64::INFINITY);
    let n = pd.len();
    for i in 0..n {
        for j in i + 1..n {
            let c = [(pd[i][0] + pd[j][0]) / 2.0, (pd[i][1] + pd[j][1]) / 2.0];
            let r = ((pd[i][0] - c[0]).powi(2) + (pd[i][1] - c[1]).powi(2)).sqrt();
            if r < best.1 && holds(c, r) {
                best = (Vec2::new(c[0] as f32, c[1] as f32), r);
            }
            for k in j + 1..n {
                let (a, b, cc) = (pd[i], pd[j], pd[k]);
                let (bx, by, cx, cy) = (b[0] - a[0], b[1] - a[1], cc[0] - a[0], cc[1] - a[1]);
                let d = 2.0 * (bx * cy - by * cx);
                if d.abs() < 1e-12 {
                    continue;
                }
                let (b2, c2) = (bx * bx + by * by, cx * cx + cy * cy);
                let center = [a[0] + (cy * b2 - by * c2) / d, a[1] + (bx * c2 - cx * b2) / d];
                let r = ((a[0] - center[0]).powi(2) + (a[1] - center[1]).powi(2)).sqrt();
                if r < best.1 && holds(center, r) {
                    best = (Vec2::new(center[0] as f32, center[1] as f32), r);
                }
            }
        }
    }
    if best.1.is_infinite() {
        // All points equal.
        return (p[0], 0.0);
    }
    (best.0, best.1 as f32)
}

#[test]
fn obb_overlap_uses_the_four_axes() {
    // Two unit squares rotated 45°, centres 1.5 apart on x: their AABBs overlap
    // (half width 0.707 each) but the boxes only touch... no: 0.707 + 0.707 = 1.414 < 1.5,
    // so they are apart on the x axis too. Move them to 1.3: AABB overlap, and the
    // diamonds overlap as well (1.3 < 1.414). At 1.45 along the diagonal direction they
    // are separated only by a box axis.
    let sq = Shape::Polygon(Polygon::new(&pts(&[(-0.5, -0.5), (0.5, -0.5), (0.5, 0.5), (-0.5, 0.5)])).unwrap());
    let a_pose = Pose::new(Vec2::ZERO, std::f32::consts::FRAC_PI_4);
    let d = Vec2::new(1.0, 1.0).normalize() * 1.2; // along the box's x axis: 1.2 > 1.0
    let b_pose = Pose::new(d, std::f32::consts::FRAC_PI_4);
    let a = BoundingVolume::of_shape(&sq, &a_pose, BoundKind::Obb);
    let b = BoundingVolume::of_shape(&sq, &b_pose, BoundKind::Obb);
    assert!(!a.overlaps(&b));
    let a_box = BoundingVolume::of_shape(&sq, &a_pose, BoundKind::Aabb);
    let b_box = BoundingVolume::of_shape(&sq, &b_pose, BoundKind::Aabb);
    assert!(a_box.overlaps(&b_box), "the AABBs cannot tell them apart");
    // Cross-kind: OBB against the other's AABB overlaps, OBB against its 8-DOP not.
    let b_kdop = BoundingVolume::of_shape(&sq, &b_pose, BoundKind::Kdop8);
    assert!(!a.overlaps(&b_kdop));
}

#[test]
fn kdop8_of_a_diamond_is_the_diamond() {
    let diamond = Shape::Polygon(Polygon::new(&pts(&[(1., 0.), (0., 1.), (-1., 0.), (0., -1.)])).unwrap());
    let k = BoundingVolume::of_shape(&diamond, &Pose::IDENTITY, BoundKind::Kdop8);
    assert!((k.area() - 2.0).abs() < 1e-5, "{}", k.area());
    assert!(!k.contains(Vec2::new(0.6, 0.6)));
    let BoundingVolume::Kdop8(kd) = k else { unreachable!() };
    assert_eq!(kd.outline().len(), 4);
    assert!(!kd.overlaps(&Kdop8::from_circle(Vec2::new(1.0, 1.0), 0.4)));
}

#[test]
fn covariance_and_min_area_agree_on_an_elongated_rectangle() {
    let r: Vec<Vec2> = pts(&[(-2., -0.5), (2., -0.5), (2., 0.5), (-2., 0.5)]);
    let pose = Pose::new(Vec2::new(1.0, 2.0), 0.4);
    let a = Obb::from_points_posed_with(&r, &pose, ObbMethod::Covariance);
    let b = Obb::from_points_posed_with(&r, &pose, ObbMethod::MinArea);
    assert!((a.area() - 4.0).abs() < 1e-4 && (b.area() - 4.0).abs() < 1e-4);
}

// ---------------------------------------------------------------- tightness

#[test]
fn square_aabb_has_tau_zero() {
    let sq = Shape::Polygon(Polygon::new(&pts(&[(0., 0.), (2., 0.), (2., 2.), (0., 2.)])).unwrap());
    let pose = Pose::new(Vec2::new(3.0, -1.0), 0.0);
    let v = BoundingVolume::of_shape(&sq, &pose, BoundKind::Aabb);
    let t = tightness(&sq, &pose, &v);
    assert!(t.tau < 1e-5, "{t:?}");
    assert!((t.diameter - 8f32.sqrt()).abs() < 1e-5);
}

#[test]
fn equilateral_triangle_circle_has_tau_half_the_circumradius() {
    // Minimal circle = circumcircle, R = s/√3; the farthest point from the triangle is
    // the middle of an arc, R − R/2 = R/2 from the edge below it.
    let s = 2.0f32;
    let h = s * 3f32.sqrt() / 2.0;
    let tri = Shape::Polygon(Polygon::new(&pts(&[(0., 0.), (s, 0.), (s / 2.0, h)])).unwrap());
    let pose = Pose::new(Vec2::new(-1.0, 0.5), 0.3);
    let v = BoundingVolume::of_shape(&tri, &pose, BoundKind::Circle);
    let big_r = s / 3f32.sqrt();
    let BoundingVolume::Circle(c) = &v else { unreachable!() };
    assert!((c.radius - big_r).abs() < 1e-5);
    let t = tightness(&tri, &pose, &v);
    assert!((t.tau - big_r / 2.0).abs() < 1e-3, "{t:?} expected {}", big_r / 2.0);
    assert!(t.tau <= big_r / 2.0 + 1e-5 && t.tau + t.tau_error >= big_r / 2.0 - 1e-5);
    assert!((t.diameter - s).abs() < 1e-5);
    assert!((t.rho - 1.0 / (2.0 * 3f32.sqrt())).abs() < 1e-3);
}

/// The largest distance from a corner of the volume to the shape: what a vertices-only
/// method would report.
fn vertices_only_tau(shape: &Shape, pose: &Pose, v: &BoundingVolume) -> f32 {
    v.outline()
        .iter()
        .map(|q| distance_to_shape(shape, pose, *q))
        .fold(0.0, f32::max)
}

#[test]
fn u_notch_gives_tau_above_the_vertices_only_estimate() {
    let u = Shape::Polygon(
        Polygon::new(&pts(&[
            (0., 0.),
            (3., 0.),
            (3., 3.),
            (2., 3.),
            (2., 1.),
            (1., 1.),
            (1., 3.),
            (0., 3.),
        ]))
        .unwrap(),
    );
    let pose = Pose::IDENTITY;
    let v = BoundingVolume::of_shape(&u, &pose, BoundKind::Aabb);
    let t = tightness(&u, &pose, &v);
    assert_eq!(vertices_only_tau(&u, &pose, &v), 0.0);
    // The notch is 1 wide: its top middle is 0.5 from both walls.
    assert!((t.tau - 0.5).abs() < 1e-3, "{t:?}");
}

#[test]
fn c_cavity_maximum_lies_inside_the_volume_not_on_its_boundary() {
    // A square ring with a narrow mouth on the right: the cavity centre (2, 2) is 1 from
    // the walls, while every point of the AABB's boundary is within 0.2 of the shape.
    let c = Shape::Polygon(
        Polygon::new(&pts(&[
            (0., 0.),
            (4., 0.),
            (4., 1.8),
            (3., 1.8),
            (3., 1.),
            (1., 1.),
            (1., 3.),
            (3., 3.),
            (3., 2.2),
            (4., 2.2),
            (4., 4.),
            (0., 4.),
        ]))
        .unwrap(),
    );
    let pose = Pose::new(Vec2::new(10.0, 0.0), 0.0);
    let v = BoundingVolume::of_shape(&c, &pose, BoundKind::Aabb);
    let boundary_max = {
        let o = v.outline();
        let mut m = 0.0f32;
        for i in 0..o.len() {
            for s in 0..200 {
                let q = o[i].lerp(o[(i + 1) % o.len()], s as f32 / 200.0);
                m = m.max(distance_to_shape(&c, &pose, q));
            }
        }
        m
    };
    let t = tightness(&c, &pose, &v);
    assert!(t.tau > boundary_max + 0.5, "{t:?} boundary {boundary_max}");
    assert!((t.tau - 1.0).abs() < 1e-3, "{t:?}");
    assert!(t.tau_error < 0.1);
    // Rotated, the OBB still hugs the ring, so τ is again the cavity's 1.
    let turned = Pose::new(Vec2::new(10.0, 0.0), 1.0);
    let obb = BoundingVolume::of_shape(&c, &turned, BoundKind::Obb);
    let t_obb = tightness(&c, &turned, &obb);
    assert!((t_obb.tau - 1.0).abs() < 1e-3, "{t_obb:?}");
}
