use super::primitives::*;
use super::*;

#[test]
fn events_pop_nearest_first_and_open_before_testing() {
    let mut heap = BinaryHeap::new();
    heap.push(Event::new(1.0, What::Test(0)));
    heap.push(Event::new(1.0, What::Open { piece_a: 3, piece_b: 4 }));
    heap.push(Event::new(0.5, What::Test(1)));
    heap.push(Event::new(1.0, What::Activate(2)));
    let order: Vec<What> = std::iter::from_fn(|| heap.pop().map(|e| e.what())).collect();
    assert_eq!(
        order,
        [
            What::Test(1),
            What::Open { piece_a: 3, piece_b: 4 },
            What::Activate(2),
            What::Test(0)
        ]
    );
}

#[test]
fn segments_cross_once_and_parallel_ones_not_at_all() {
    let p = segment_crossing(
        Vec2::new(-1.0, 0.0),
        Vec2::new(1.0, 0.0),
        Vec2::new(0.5, -1.0),
        Vec2::new(0.5, 1.0),
    );
    assert_eq!(p, Some(Vec2::new(0.5, 0.0)));
    let miss = segment_crossing(
        Vec2::new(-1.0, 0.0),
        Vec2::new(1.0, 0.0),
        Vec2::new(1.5, -1.0),
        Vec2::new(1.5, 1.0),
    );
    assert_eq!(miss, None);
    let parallel = segment_crossing(Vec2::ZERO, Vec2::X, Vec2::Y, Vec2::new(1.0, 1.0));
    assert_eq!(parallel, None);
}

#[test]
fn a_segment_meets_a_circle_twice_and_two_circles_meet_twice() {
    let [p, q] = segment_circle(Vec2::new(-2.0, 0.5), Vec2::new(2.0, 0.5), Vec2::ZERO, 1.0);
    let (p, q) = (p.unwrap(), q.unwrap());
    let x = (1.0f32 - 0.25).sqrt();
    assert!((p - Vec2::new(-x, 0.5)).length() < 1e-6 && (q - Vec2::new(x, 0.5)).length() < 1e-6);
    let [p, q] = circle_circle(Vec2::ZERO, 1.0, Vec2::new(1.0, 0.0), 1.0);
    let y = 0.75f32.sqrt();
    let (p, q) = (p.unwrap(), q.unwrap());
    assert!((p - Vec2::new(0.5, -y)).length() < 1e-6 && (q - Vec2::new(0.5, y)).length() < 1e-6);
    assert_eq!(circle_circle(Vec2::ZERO, 1.0, Vec2::new(3.0, 0.0), 1.0), [None, None]);
}

#[test]
fn an_arc_holds_the_directions_between_its_normals() {
    let (from, to) = (Vec2::X, Vec2::Y);
    assert!(on_arc(from, to, false, Vec2::new(1.0, 1.0).normalize()));
    assert!(!on_arc(from, to, false, Vec2::new(-1.0, 1.0).normalize()));
    assert!(!on_arc(from, to, false, Vec2::new(1.0, -1.0).normalize()));
    // A segment's end spans a half turn.
    assert!(on_arc(Vec2::Y, -Vec2::Y, false, -Vec2::X));
    assert!(!on_arc(Vec2::Y, -Vec2::Y, false, Vec2::X));
}

#[test]
fn ray_interval_of_a_square_and_a_rounded_square() {
    let sq = [
        Vec2::new(-1.0, -1.0),
        Vec2::new(1.0, -1.0),
        Vec2::new(1.0, 1.0),
        Vec2::new(-1.0, 1.0),
    ];
    assert_eq!(ray_interval(&sq, 0.0, Vec2::X), Some((-1.0, 1.0)));
    let (s0, s1) = ray_interval(&sq, 0.5, Vec2::X).unwrap();
    assert!((s0 + 1.5).abs() < 1e-6 && (s1 - 1.5).abs() < 1e-6);
    // Along the diagonal the rounded corner is hit: exit at √2 + 0.5.
    let d = Vec2::new(1.0, 1.0).normalize();
    let (_, s1) = ray_interval(&sq, 0.5, d).unwrap();
    assert!((s1 - (2f32.sqrt() + 0.5)).abs() < 1e-5);
}

#[test]
fn ray_interval_of_a_disc_and_a_capsule() {
    let (s0, s1) = ray_interval(&[Vec2::new(1.0, 0.0)], 0.5, Vec2::X).unwrap();
    assert!((s0 - 0.5).abs() < 1e-6 && (s1 - 1.5).abs() < 1e-6);
    let seg = [Vec2::new(-1.0, 0.0), Vec2::new(1.0, 0.0)];
    let (s0, s1) = ray_interval(&seg, 0.25, Vec2::Y).unwrap();
    assert!((s0 + 0.25).abs() < 1e-6 && (s1 - 0.25).abs() < 1e-6);
}

#[test]
fn events_keep_their_key_and_what_and_order_like_the_fields() {
    let keys = [
        f32::NEG_INFINITY,
        -2.5,
        -0.0,
        0.0,
        1e-30,
        0.5,
        1.0,
        3.0e7,
        f32::INFINITY,
    ];
    let whats = [
        What::Bound { piece_a: 7, piece_b: 1 },
        What::Open { piece_a: 0, piece_b: 9 },
        What::Open { piece_a: 2, piece_b: 3 },
        What::Expand(4),
        What::Activate(u32::MAX),
        What::Test(0),
        What::Test(5),
    ];
    let events: Vec<(f32, What)> = keys.iter().flat_map(|&k| whats.iter().map(move |&w| (k, w))).collect();
    for &(k, w) in &events {
        let e = Event::new(k, w);
        assert_eq!((e.key().to_bits(), e.what()), (k.to_bits(), w));
        for &(k2, w2) in &events {
            let fields = k2.total_cmp(&k).then_with(|| w2.cmp(&w));
            assert_eq!(e.cmp(&Event::new(k2, w2)), fields, "{k} {w:?} against {k2} {w2:?}");
        }
    }
}

/// Opens a convex polygon (counter-clockwise) as a difference the way `open` stores it.
fn push_difference(s: &mut CombineScratch, core: &[Vec2], radius: f32) {
    let start = s.core.len() as u32;
    s.core.extend_from_slice(core);
    let plane_start = s.planes.len() as u32;
    let n = core.len();
    for k in 0..n {
        let (p, q) = (core[k], core[(k + 1) % n]);
        let normal = right_perp(q - p).normalize_or_zero();
        s.planes.push((normal, normal.dot(p)));
    }
    let run = (start, n as u32);
    s.diffs.push(Difference {
        piece_a: 0,
        piece_b: 0,
        core: run,
        planes: (plane_start, n as u32),
        radius,
        bounds: Aabb::from_points(core).inflated(radius),
        slab: slab_of(core, radius),
    });
}

/// Long thin needles through and near the origin at scattered angles, as between two
/// stars' tips, and a pseudo-random stream of points around the origin.
fn needles_and_points() -> (CombineScratch, Vec<Vec2>) {
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state >> 40) as f32 / (1u64 << 24) as f32
    };
    let mut s = CombineScratch::default();
    s.clear();
    s.skip_held = true;
    for _ in 0..600 {
        let angle = std::f32::consts::TAU * next();
        let (along, across) = (Vec2::from_angle(angle), Vec2::from_angle(angle + 1.5707964));
        let shift = across * 0.004 * (next() - 0.5) + along * 0.3 * (next() - 0.5);
        let (half_length, half_width) = (0.3 + 0.3 * next(), 0.0005 + 0.002 * next());
        let corners = [
            -along * half_length - across * half_width,
            along * half_length - across * half_width,
            along * half_length + across * half_width,
            -along * half_length + across * half_width,
        ];
        let core: Vec<Vec2> = corners.iter().map(|&c| c + shift).collect();
        let radius = if next() < 0.2 { 0.001 * next() } else { 0.0 };
        push_difference(&mut s, &core, radius);
    }
    let points = (0..20_000)
        .map(|_| Vec2::new(next() - 0.5, next() - 0.5) * 0.04)
        .collect();
    (s, points)
}

#[test]
fn the_radial_table_only_names_differences_that_hold_the_point() {
    let (mut s, points) = needles_and_points();
    let tol = 1e-6;
    s.fill_radial(tol);
    let mut named = 0;
    for &p in &points {
        if let Some(k) = s.radial_holder(p) {
            named += 1;
            assert!(s.strictly_inside(&s.diffs[k as usize], p, tol), "{p} named for {k}");
        }
    }
    // The table is of use: it names a holder for a fair share of the points.
    assert!(named > points.len() / 20, "{named}");
}

#[test]
fn the_differences_grid_lists_every_difference_that_holds_a_point() {
    let (mut s, points) = needles_and_points();
    let tol = 1e-6;
    s.reach = 0.03;
    s.grids_on = true;
    s.fill_grids();
    // Enough differences for the cells along each one (`list_difference`).
    assert!(s.diff_grid_fine);
    let mut near = Vec::new();
    let (mut held, mut answered) = (0, 0);
    for &p in points.iter().filter(|p| p.length() <= s.reach) {
        let listed = s.diff_grid.near(&Aabb::new(p, p), &mut near);
        answered += usize::from(listed);
        for (k, d) in s.diffs.iter().enumerate() {
            if s.strictly_inside(d, p, tol) {
                held += 1;
                assert!(!listed || near.contains(&(k as u32)), "{p} held by {k}, not listed");
            }
        }
    }
    assert!(held > 0 && answered > 0, "{held} {answered}");
}

/// The needles of [`needles_and_points`] in the coverage table (`coverage.rs`), at a
/// tolerance of 1e-6 m.
fn covered_needles() -> (CombineScratch, Vec<Vec2>) {
    let (mut s, points) = needles_and_points();
    s.reach = 0.03;
    s.fill_cover(1e-6);
    (s, points)
}

/// Does some difference hold `p` strictly, by the per-point test?
fn held_by_some(s: &CombineScratch, p: Vec2) -> bool {
    s.diffs.iter().any(|d| s.strictly_inside(d, p, 1e-6))
}

#[test]
fn the_coverage_table_only_takes_in_points_some_difference_holds() {
    let (s, points) = covered_needles();
    let mut covered = 0;
    for &p in &points {
        if s.covers(p) {
            covered += 1;
            assert!(held_by_some(&s, p), "{p} taken in, held by none");
        }
    }
    // The held radius follows the table, and stays within what is held.
    assert!(s.held_radius > 0.0, "{}", s.held_radius);
    for k in 0..360 {
        let p = Vec2::from_angle(k as f32 * std::f32::consts::TAU / 360.0) * s.held_radius * 0.999;
        assert!(held_by_some(&s, p), "{p} inside the held radius, held by none");
    }
    // The table is of use: it takes in a fair share of the points.
    assert!(covered > points.len() / 10, "{covered}");
}

/// The table filled at a small reach and extended when the reach grows
/// (`extend_cover`) takes in only held points, and every point within the grown reach
/// that a table filled afresh there takes in.
#[test]
fn the_coverage_table_extended_to_a_grown_reach_loses_nothing() {
    let (mut extended, points) = needles_and_points();
    extended.reach = 0.004;
    extended.fill_cover(1e-6);
    let before = points.iter().filter(|&&p| extended.covers(p)).count();
    extended.reach = 0.03;
    extended.extend_cover(1e-6);
    let (fresh, _) = covered_needles();
    let mut covered = 0;
    for &p in &points {
        if extended.covers(p) {
            covered += 1;
            assert!(held_by_some(&extended, p), "{p} taken in, held by none");
        } else {
            assert!(!(fresh.covers(p) && p.length() < 0.03), "{p} taken in afresh only");
        }
    }
    // The grown reach took in more (the needles reach far beyond 4 mm).
    assert!(covered > before, "{before} {covered}");
}

/// `angles_beyond` marks the angle of every point of a difference farther than the
/// radius and than the angle's floor (the coverage table visits only those angles): the
/// needles of [`needles_and_points`], points inside them and on their sides, at several
/// radii, with no floors and with uneven ones.
#[test]
fn the_angles_beyond_a_radius_hold_every_point_beyond_it() {
    use super::coverage::{angles_beyond, WORDS};
    use super::radial::bin_of;
    let (s, _) = needles_and_points();
    let mut checked = 0;
    for (k, d) in s.diffs.iter().enumerate() {
        let core = run(&s.core, d.core);
        for (radius, uneven) in [0.0, 0.001, 0.004, 0.02, 0.1]
            .into_iter()
            .flat_map(|r| [(r, false), (r, true)])
        {
            let floor = |b: usize| if uneven { 0.003 * (b % 7) as f32 } else { 0.0 };
            let mut marks = [0u64; WORDS];
            angles_beyond(core, radius, floor, &mut marks);
            let n = core.len();
            for j in 0..=40 {
                let t = j as f32 / 40.0;
                for i in 0..n {
                    let (p, q, r) = (core[i], core[(i + 1) % n], core[(i + 2) % n]);
                    // On a side, and inside (between the side and the next vertex).
                    for point in [p + (q - p) * t, (p + (q - p) * t) * 0.5 + r * 0.5] {
                        if point.length() > radius && point.length() > floor(bin_of(point)) {
                            let b = bin_of(point);
                            checked += 1;
                            assert!(
                                marks[b / 64] >> (b % 64) & 1 == 1,
                                "difference {k}, {point} beyond {radius}"
                            );
                        }
                    }
                }
            }
        }
    }
    assert!(checked > 100_000, "{checked}");
}

#[test]
fn the_covered_stretch_of_an_edge_is_held_point_by_point() {
    let (s, _) = covered_needles();
    let mut walked = 0;
    for k in 0..400 {
        // Edges of all directions passing at various distances from the origin.
        let angle = k as f32 * 0.77;
        let (along, across) = (Vec2::from_angle(angle), Vec2::from_angle(angle + 1.5707964));
        let offset = across * (0.0005 * (k % 37) as f32) + along * 0.001 * (k % 7) as f32;
        let (p0, p1) = (offset - along * 0.05, offset + along * 0.05);
        let (_, t_near) = nearest_on_segment(p0, p1);
        let (lo, hi) = s.covered_stretch(p0, p1, t_near);
        if lo > hi {
            continue;
        }
        walked += 1;
        assert!(lo <= t_near && t_near <= hi, "{lo} {t_near} {hi}");
        for j in 0..=200 {
            let t = lo + (hi - lo) * j as f32 / 200.0;
            let p = p0 + (p1 - p0) * t;
            assert!(
                held_by_some(&s, p),
                "edge {k}: {p} at t = {t} in [{lo}, {hi}], held by none"
            );
            // And by the table itself: the walk (angle by angle, or a group of angles
            // at once) stops where the edge reaches the table's distance.
            assert!(
                s.covers(p),
                "edge {k}: {p} at t = {t} in [{lo}, {hi}], not in the table"
            );
        }
    }
    assert!(walked > 40, "{walked}");
}

/// Regression: the two points of a non-convex pair came deepest first, so a hexagon
/// lying across two teeth of a comb swapped them whenever its other end sank deeper,
/// and the solver, which takes them in order, kept it rocking at 5 cm/s.
#[test]
fn regression_two_contact_points_keep_their_order_whichever_is_deeper() {
    use crate::narrow::contact::{ContactId, ContactPoint};
    let point = |x: f32, depth: f32, id: u64| ContactPoint {
        point: Vec2::new(x, 0.0),
        depth,
        id: ContactId(id),
    };
    let ids = |depth_left: f32, depth_right: f32| {
        let candidates = [
            point(-1.0, depth_left, 7),
            point(1.0, depth_right, 3),
            point(0.0, 0.001, 5),
        ];
        reduce_to_two(&candidates)
            .as_slice()
            .iter()
            .map(|p| p.id.0)
            .collect::<Vec<_>>()
    };
    // The ends are kept (the deepest and the farthest from it), in id order.
    assert_eq!(ids(0.005, 0.004), [3, 7]);
    assert_eq!(ids(0.004, 0.005), [3, 7]);
}
