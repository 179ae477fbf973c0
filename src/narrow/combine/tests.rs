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
