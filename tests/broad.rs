//! The four broad phases against a brute-force oracle written here, over random scenes
//! that move, grow and shrink for several steps; plus each algorithm's own invariants.

use collision_lab::bounds::Aabb;
use collision_lab::broad::{
    BroadPhase, BroadPhaseConfig, BroadPhaseKind, DynamicTree, Proxy, SpatialHash, SweepAndPrune,
};
use collision_lab::math::Vec2;
use proptest::prelude::*;

mod common;
use common::Rng;

/// The oracle: every pair, tested directly; unusable boxes (NaN, inverted) are skipped.
fn oracle(proxies: &[Proxy]) -> Vec<(u32, u32)> {
    let usable = |b: &Aabb| b.min.x <= b.max.x && b.min.y <= b.max.y;
    let mut pairs = Vec::new();
    for (i, a) in proxies.iter().enumerate() {
        for b in &proxies[i + 1..] {
            if usable(&a.aabb) && usable(&b.aabb) && !(a.is_static && b.is_static) && a.aabb.overlaps(&b.aabb) {
                pairs.push((a.id.min(b.id), a.id.max(b.id)));
            }
        }
    }
    pairs.sort_unstable();
    pairs.dedup();
    pairs
}

fn bx(x0: f32, y0: f32, x1: f32, y1: f32) -> Aabb {
    Aabb::new(Vec2::new(x0, y0), Vec2::new(x1, y1))
}

/// A body of the test scene: its box and whether it is static.
#[derive(Clone, Copy, Debug)]
struct Body {
    aabb: Aabb,
    is_static: bool,
}

/// A new body of one of the awkward kinds, possibly copying or touching an existing one.
fn new_body(rng: &mut Rng, bodies: &[Body]) -> Body {
    let is_static = rng.below(5) == 0;
    let aabb = match rng.below(12) {
        // Zero-size box (a point), on the lattice.
        0 => {
            let p = Vec2::new(rng.lattice(-6.0, 6.0), rng.lattice(-1.0, 6.0));
            bx(p.x, p.y, p.x, p.y)
        }
        // Identical to an existing box.
        1 if !bodies.is_empty() => bodies[rng.below(bodies.len())].aabb,
        // Touching an existing box on its right or top side.
        2 if !bodies.is_empty() => {
            let o = bodies[rng.below(bodies.len())].aabb;
            let (w, h) = (rng.lattice(0.0, 2.0), rng.lattice(0.0, 2.0));
            if rng.below(2) == 0 {
                bx(o.max.x, o.min.y, o.max.x + w, o.min.y + h)
            } else {
                bx(o.min.x, o.max.y, o.min.x + w, o.max.y + h)
            }
        }
        // A long thin static-ish plank.
        3 => {
            let x = rng.lattice(-20.0, 0.0);
            let y = rng.lattice(-1.0, 6.0);
            bx(x, y, x + rng.lattice(5.0, 40.0), y + 0.25)
        }
        // Rarely: an unusable box (NaN or inverted), which every algorithm must skip.
        4 if rng.below(6) == 0 => {
            if rng.below(2) == 0 {
                bx(f32::NAN, 0.0, 1.0, 1.0)
            } else {
                bx(1.0, 1.0, 0.0, 2.0)
            }
        }
        // Rarely: a box with an infinite side (a half-plane wall).
        5 if rng.below(6) == 0 => bx(rng.lattice(-8.0, 8.0), -2.0, f32::INFINITY, 0.5),
        // Ordinary boxes, from centimetres to a few metres, on or off the lattice.
        _ => {
            let (x, y) = if rng.below(2) == 0 {
                (rng.lattice(-6.0, 6.0), rng.lattice(-1.0, 6.0))
            } else {
                (rng.range(-6.0, 6.0), rng.range(-1.0, 6.0))
            };
            let size = if rng.below(4) == 0 { 0.05 } else { 2.0 };
            bx(x, y, x + rng.range(0.0, size), y + rng.range(0.0, size))
        }
    };
    Body { aabb, is_static }
}

/// One step of change: small motions (some on the lattice), additions, removals (which
/// also move the last body into the freed slot).
fn evolve(rng: &mut Rng, bodies: &mut Vec<Body>) {
    for b in bodies.iter_mut() {
        if b.is_static || rng.below(4) == 0 {
            continue;
        }
        let d = if rng.below(2) == 0 {
            Vec2::new(rng.lattice(-0.25, 0.25), rng.lattice(-0.25, 0.25))
        } else {
            Vec2::new(rng.range(-0.3, 0.3), rng.range(-0.3, 0.3))
        };
        b.aabb = Aabb::new(b.aabb.min + d, b.aabb.max + d);
    }
    for _ in 0..rng.below(4) {
        if !bodies.is_empty() && rng.below(2) == 0 {
            let i = rng.below(bodies.len());
            bodies.swap_remove(i);
        }
    }
    for _ in 0..rng.below(4) {
        let b = new_body(rng, bodies);
        bodies.push(b);
    }
}

/// The proxies of `bodies`: ids are the slots, or a scrambled unique labelling.
fn proxies_of(bodies: &[Body], scrambled_ids: bool) -> Vec<Proxy> {
    bodies
        .iter()
        .enumerate()
        .map(|(i, b)| {
            let id = if scrambled_ids {
                (i as u32).wrapping_mul(2_654_435_761) % 1_000_003
            } else {
                i as u32
            };
            Proxy::new(id, b.aabb, b.is_static)
        })
        .collect()
}

fn ground() -> Body {
    Body {
        aabb: bx(-1000.0, -1.0, 1000.0, 0.0),
        is_static: true,
    }
}

fn config() -> ProptestConfig {
    ProptestConfig {
        cases: 96,
        ..ProptestConfig::default()
    }
}

proptest! {
    #![proptest_config(config())]

    /// Every kind, kept across steps, returns exactly the oracle's pairs at every step;
    /// one broad phase switched to a random kind at random steps does too.
    #[test]
    fn all_kinds_match_brute_force_every_step(
        seed in any::<u64>(),
        initial in 0usize..60,
        steps in 1usize..12,
        scrambled_ids in any::<bool>(),
        fixed_cell in prop::option::of(0.1f32..3.0),
    ) {
        let mut rng = Rng::new(seed);
        let mut bodies = vec![ground()];
        for _ in 0..initial {
            let b = new_body(&mut rng, &bodies);
            bodies.push(b);
        }
        let config = BroadPhaseConfig { hash_cell_size: fixed_cell, ..BroadPhaseConfig::default() };
        let mut phases: Vec<BroadPhase> =
            BroadPhaseKind::ALL.iter().map(|&k| BroadPhase::with_config(k, config)).collect();
        let mut switching = BroadPhase::new(BroadPhaseKind::SpatialHash);
        let mut out = Vec::new();
        for step in 0..steps {
            let proxies = proxies_of(&bodies, scrambled_ids);
            let expected = oracle(&proxies);
            for phase in &mut phases {
                let stats = phase.update(&proxies, &mut out);
                prop_assert_eq!(&out, &expected, "{} at step {}", phase.kind(), step);
                prop_assert_eq!(stats.pairs, expected.len());
                prop_assert_eq!(stats.kind, phase.kind());
            }
            if rng.below(3) == 0 {
                switching.set_kind(BroadPhaseKind::ALL[rng.below(4)]);
            }
            switching.update(&proxies, &mut out);
            prop_assert_eq!(&out, &expected, "switched to {} at step {}", switching.kind(), step);
            prop_assert!(phases[3].aabb_tree().tree().validate().is_ok());
            evolve(&mut rng, &mut bodies);
        }
    }

    /// No kind reports a pair of two static bodies, even when all bodies overlap.
    #[test]
    fn static_pairs_are_never_reported(n in 2usize..30, dynamic in 0usize..3) {
        let proxies: Vec<Proxy> = (0..n)
            .map(|i| Proxy::new(i as u32, bx(0.0, 0.0, 1.0 + i as f32 * 0.01, 1.0), i >= dynamic))
            .collect();
        let mut out = Vec::new();
        for kind in BroadPhaseKind::ALL {
            BroadPhase::new(kind).update(&proxies, &mut out);
            prop_assert!(out.iter().all(|&(a, b)| !(proxies[a as usize].is_static && proxies[b as usize].is_static)));
            // Each dynamic body pairs with every other body.
            let expected: usize = (0..dynamic.min(n)).map(|d| n - 1 - d).sum();
            prop_assert_eq!(out.len(), expected, "{}", kind);
        }
    }
}

#[test]
fn touching_boxes_pair_in_every_kind() {
    let proxies = [
        Proxy::new(0, bx(0.0, 0.0, 1.0, 1.0), false),
        Proxy::new(1, bx(1.0, 0.0, 2.0, 1.0), false), // shares an edge with 0
        Proxy::new(2, bx(2.0, 1.0, 3.0, 2.0), false), // shares a corner with 1
        Proxy::new(3, bx(0.5, 0.5, 0.5, 0.5), false), // a point inside 0
        Proxy::new(4, bx(3.0001, 0.0, 4.0, 1.0), true), // just apart from 2
    ];
    let mut out = Vec::new();
    for kind in BroadPhaseKind::ALL {
        BroadPhase::new(kind).update(&proxies, &mut out);
        assert_eq!(out, [(0, 1), (0, 3), (1, 2)], "{kind}");
    }
}

#[test]
fn brute_force_counts_every_pair() {
    let proxies: Vec<Proxy> = (0..10)
        .map(|i| Proxy::new(i, bx(i as f32, 0.0, i as f32 + 0.5, 1.0), false))
        .collect();
    let stats = BroadPhase::new(BroadPhaseKind::BruteForce).update(&proxies, &mut Vec::new());
    assert_eq!(stats.bv_tests, 45);
    assert_eq!(stats.pairs, 0);
}

#[test]
fn insertion_sort_counts_swaps_between_steps() {
    let mut sap = SweepAndPrune::default();
    let mut out = Vec::new();
    let at = |xs: &[f32]| -> Vec<Proxy> {
        xs.iter()
            .enumerate()
            .map(|(i, &x)| Proxy::new(i as u32, bx(x, 0.0, x + 1.0, 1.0), false))
            .collect()
    };
    let first = sap.update(&at(&[0.0, 2.0, 4.0, 6.0]), &mut out);
    assert!(first.rebuilt);
    assert_eq!(first.swaps, 0);
    // Small motions that keep the order: no swaps, no rebuild.
    let same = sap.update(&at(&[0.1, 2.1, 3.9, 6.0]), &mut out);
    assert!(!same.rebuilt);
    assert_eq!(same.swaps, 0);
    // Body 0 jumps past bodies 1 and 2: two adjacent swaps; it now overlaps 2.
    let moved = sap.update(&at(&[4.5, 2.1, 3.9, 6.0]), &mut out);
    assert_eq!(moved.swaps, 2);
    assert_eq!(out, [(0, 2)]);
    let order: Vec<u32> = sap.intervals().iter().map(|iv| iv.slot).collect();
    assert_eq!(order, [1, 2, 0, 3]);
    assert!(sap.intervals().windows(2).all(|w| w[0].min_x <= w[1].min_x));
    // Sweep steps count the x-overlaps walked: only (2, 0).
    assert_eq!(moved.sweep_steps, 1);
    assert_eq!(moved.bv_tests, 1);
}

#[test]
fn spatial_hash_puts_a_huge_ground_in_the_oversized_list() {
    let mut proxies = vec![Proxy::new(0, bx(-1.0e5, -1.0, 1.0e5, 0.0), true)];
    for i in 0..20 {
        let x = i as f32 * 0.75;
        proxies.push(Proxy::new(i + 1, bx(x, -0.2, x + 0.5, 0.3), false));
    }
    let mut hash = SpatialHash::default();
    let mut out = Vec::new();
    let stats = hash.update(&proxies, &mut out);
    assert_eq!(hash.oversized(), [0]);
    assert_eq!(stats.oversized, 1);
    assert!(
        (stats.cell_size - 0.5).abs() < 1e-6,
        "median box size, not the ground's"
    );
    // Each small box covers at most 2x2 cells; the ground none.
    assert!(stats.cell_entries <= 20 * 4, "{}", stats.cell_entries);
    assert_eq!(stats.cells, hash.cells().len());
    assert_eq!(
        hash.cells().iter().map(|c| c.count as usize).sum::<usize>(),
        stats.cell_entries
    );
    for (k, cell) in hash.cells().iter().enumerate() {
        let cell_box = cell.aabb(stats.cell_size);
        for slot in hash.cell_slots(k) {
            assert!(cell_box.overlaps(&proxies[slot as usize].aabb));
        }
    }
    assert_eq!(out, oracle(&proxies));
    assert_eq!(out.len(), 20, "every box touches the ground, none another");

    // An infinite box is oversized too, and no cell count explodes.
    proxies.push(Proxy::new(99, bx(f32::NEG_INFINITY, 5.0, f32::INFINITY, 6.0), false));
    let stats = hash.update(&proxies, &mut out);
    assert_eq!(stats.oversized, 2);
    assert_eq!(out, oracle(&proxies));
}

#[test]
fn tree_stays_valid_through_many_updates() {
    let mut rng = Rng::new(7);
    let mut tree = DynamicTree::new(0.1);
    let mut live = Vec::new();
    let mut reinserts = 0;
    for step in 0..2000 {
        match rng.below(10) {
            0..=2 => {
                let (x, y) = (rng.range(-50.0, 50.0), rng.range(-50.0, 50.0));
                let b = bx(x, y, x + rng.range(0.0, 3.0), y + rng.range(0.0, 3.0));
                live.push((tree.create_proxy(b, step), b));
            }
            3 if !live.is_empty() => {
                let (id, _) = live.swap_remove(rng.below(live.len()));
                assert!(tree.destroy_proxy(id));
            }
            _ => {
                for (id, b) in live.iter_mut() {
                    let d = Vec2::new(rng.range(-0.3, 0.3), rng.range(-0.3, 0.3));
                    *b = Aabb::new(b.min + d, b.max + d);
                    if tree.move_proxy(*id, *b, d) == Some(true) {
                        reinserts += 1;
                    }
                    let fat = tree.fat_aabb(*id).unwrap();
                    assert!(fat.min.cmple(b.min).all() && b.max.cmple(fat.max).all());
                }
            }
        }
        if let Err(e) = tree.validate() {
            panic!("step {step}: {e}");
        }
    }
    assert!(reinserts > 0);
    let n = live.len();
    assert_eq!(tree.proxy_count(), n);
    assert_eq!(tree.node_count(), 2 * n - 1);
    // A balanced tree of n leaves: height within a small factor of log2 n.
    assert!(
        (tree.height() as f32) <= 3.0 * (n as f32).log2() + 2.0,
        "height {} for {n}",
        tree.height()
    );
    let views = tree.node_views();
    assert_eq!(views.len(), tree.node_count());
    assert_eq!(views[0].depth, 0);
    assert_eq!(views[0].height, tree.height());
    assert_eq!(views.iter().filter(|v| v.leaf_data.is_some()).count(), n);
    assert_eq!(views.iter().map(|v| v.depth).max(), Some(tree.height()));
}

#[test]
fn resting_bodies_are_not_reinserted() {
    let proxies: Vec<Proxy> = (0..50)
        .map(|i| Proxy::new(i, bx(i as f32, 0.0, i as f32 + 0.9, 1.0), false))
        .collect();
    let mut broad = BroadPhase::new(BroadPhaseKind::DynamicAabbTree);
    let mut out = Vec::new();
    let first = broad.update(&proxies, &mut out);
    assert!(first.rebuilt);
    assert_eq!(first.tree_nodes, 99);
    let again = broad.update(&proxies, &mut out);
    assert!(!again.rebuilt);
    assert_eq!(again.reinserts, 0);
    assert!(again.tree_height >= 6);
}

#[test]
fn kinds_have_names_and_round_trip() {
    for kind in BroadPhaseKind::ALL {
        assert_eq!(kind.name().parse::<BroadPhaseKind>(), Ok(kind));
        assert_eq!(kind.to_string().to_lowercase().parse::<BroadPhaseKind>(), Ok(kind));
        let json = serde_json::to_string(&kind).unwrap();
        assert_eq!(serde_json::from_str::<BroadPhaseKind>(&json).unwrap(), kind);
    }
    assert!("octree".parse::<BroadPhaseKind>().is_err());
    assert_eq!(BroadPhaseKind::default(), BroadPhase::default().kind());
}

#[test]
fn empty_and_single_scenes() {
    let one = [Proxy::new(3, bx(0.0, 0.0, 1.0, 1.0), false)];
    let mut out = vec![(7, 8)];
    for kind in BroadPhaseKind::ALL {
        let mut broad = BroadPhase::new(kind);
        broad.update(&[], &mut out);
        assert!(out.is_empty());
        broad.update(&one, &mut out);
        assert!(out.is_empty());
        broad.update(&[], &mut out);
        assert!(out.is_empty(), "{kind}");
    }
}

/// Regression: SAP stopped its sweep at the first unusable interval (sorted at +∞), so
/// two usable boxes lying at x = +∞ after it were never paired.
#[test]
fn sap_pairs_boxes_at_infinity_sorted_among_unusable_ones() {
    let proxies = [
        Proxy::new(0, bx(f32::INFINITY, 0.0, f32::INFINITY, 1.0), false),
        Proxy::new(1, bx(f32::NAN, 0.0, 1.0, 1.0), false),
        Proxy::new(2, bx(f32::INFINITY, 0.5, f32::INFINITY, 2.0), false),
    ];
    let mut out = Vec::new();
    for kind in BroadPhaseKind::ALL {
        BroadPhase::new(kind).update(&proxies, &mut out);
        assert_eq!(out, [(0, 2)], "{kind}");
    }
}

/// A circle of radius 2e9 m beside two small circles (the fuzzed scene's boxes): its box
/// spans 2^32 cells on each axis, whose product overflowed to 0 and sent it into the
/// grid, which tried to fill every cell and aborted on a 4 GB allocation.
#[test]
fn spatial_hash_body_spanning_billions_of_cells_goes_to_the_oversized_list() {
    let proxies = [
        Proxy::new(0, bx(-2.0e9, -2.0e9, 2.0e9, 2.0e9), false),
        Proxy::new(1, bx(-0.5, -0.5, 0.5, 0.5), false),
        Proxy::new(2, bx(0.75, -0.5, 1.75, 0.5), false),
    ];
    let mut hash = SpatialHash::default();
    let mut out = Vec::new();
    let stats = hash.update(&proxies, &mut out);
    assert_eq!(hash.oversized(), [0]);
    assert!(stats.cell_entries <= 8, "{} entries", stats.cell_entries);
    assert_eq!(out, oracle(&proxies));
    assert_eq!(out, [(0, 1), (0, 2)]);

    // Through the switching broad phase too, against brute force, with every shape of
    // huge box: one axis saturated, both, both infinite, and a tiny fixed cell size that
    // makes ordinary boxes span millions of cells.
    let mut more = proxies.to_vec();
    more.push(Proxy::new(3, bx(-3.0e9, 0.0, 3.0e9, 0.25), false));
    more.push(Proxy::new(
        4,
        bx(f32::NEG_INFINITY, f32::NEG_INFINITY, f32::INFINITY, f32::INFINITY),
        true,
    ));
    for cell in [None, Some(1.0e-6)] {
        let config = BroadPhaseConfig {
            hash_cell_size: cell,
            hash_oversize_cells: u32::MAX,
            ..BroadPhaseConfig::default()
        };
        let mut hash = BroadPhase::with_config(BroadPhaseKind::SpatialHash, config);
        let mut brute = BroadPhase::new(BroadPhaseKind::BruteForce);
        let (mut got, mut want) = (Vec::new(), Vec::new());
        let stats = hash.update(&more, &mut got);
        brute.update(&more, &mut want);
        assert_eq!(got, want, "cell size {cell:?}");
        let cap = collision_lab::broad::MAX_OVERSIZE_CELLS as usize;
        assert!(stats.cell_entries <= more.len() * cap, "{} entries", stats.cell_entries);
    }
}
