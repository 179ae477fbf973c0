//! The tree's own tests; `tests/broad.rs` checks it against brute force.
use super::*;

fn unit_box(x: f32, y: f32) -> Aabb {
    Aabb::new(Vec2::new(x, y), Vec2::new(x + 1.0, y + 1.0))
}

#[test]
fn a_recorded_insertion_builds_the_same_tree_and_reports_its_descent_and_rotations() {
    #[derive(Default)]
    struct Count {
        descents: u32,
        siblings: u32,
        rotations: u32,
    }
    impl TreeRecorder for Count {
        fn descend(
            &mut self,
            node: &Aabb,
            _: &Aabb,
            children: [&Aabb; 2],
            _: f32,
            costs: [f32; 2],
            chosen: Option<usize>,
        ) {
            assert!(contains_box(node, children[0]) && contains_box(node, children[1]));
            if let Some(k) = chosen {
                assert!(costs[k] <= costs[1 - k]);
            }
            self.descents += 1;
        }
        fn sibling(&mut self, _: &Aabb) {
            self.siblings += 1;
        }
        fn rotate(&mut self, _: &Aabb, _: &Aabb, _: u32) {
            self.rotations += 1;
        }
    }
    let (mut plain, mut recorded) = (DynamicTree::default(), DynamicTree::default());
    let mut count = Count::default();
    // A row: without rotations it would be a list.
    for i in 0..12 {
        plain.create_proxy(unit_box(2.0 * i as f32, 0.0), i);
        recorded.create_proxy_recorded(unit_box(2.0 * i as f32, 0.0), i, &mut count);
    }
    assert_eq!(plain.node_views(), recorded.node_views());
    assert_eq!(count.siblings, 11, "every insert after the first finds a sibling");
    assert!(count.rotations > 0 && count.descents > 0);
    assert!(recorded.height() <= 5, "height {}", recorded.height());
}

#[test]
fn a_row_of_boxes_stays_shallow() {
    // Inserted left to right, without rotations this is a list of depth 255.
    let mut tree = DynamicTree::new(0.1);
    for i in 0..256 {
        tree.create_proxy(unit_box(2.0 * i as f32, 0.0), i);
    }
    tree.validate().unwrap();
    assert!(tree.height() <= 16, "height {}", tree.height());
    assert_eq!(tree.node_count(), 2 * 256 - 1);
}

#[test]
fn stale_ids_are_refused() {
    let mut tree = DynamicTree::new(0.1);
    let a = tree.create_proxy(unit_box(0.0, 0.0), 0);
    assert!(tree.destroy_proxy(a));
    let b = tree.create_proxy(unit_box(5.0, 0.0), 1);
    assert_eq!(a.index(), b.index(), "the node is reused");
    assert!(!tree.destroy_proxy(a));
    assert_eq!(tree.move_proxy(a, unit_box(9.0, 0.0), Vec2::ZERO), None);
    assert_eq!(tree.proxy_count(), 1);
    tree.validate().unwrap();
}

#[test]
fn small_moves_do_not_reinsert() {
    let mut tree = DynamicTree::new(0.1);
    let a = tree.create_proxy(unit_box(0.0, 0.0), 0);
    tree.create_proxy(unit_box(3.0, 0.0), 1);
    assert_eq!(tree.move_proxy(a, unit_box(0.05, 0.0), Vec2::ZERO), Some(false));
    assert_eq!(tree.move_proxy(a, unit_box(0.5, 0.0), Vec2::new(0.5, 0.0)), Some(true));
    // Stretched along the displacement.
    let fat = tree.fat_aabb(a).unwrap();
    assert!(fat.max.x >= 1.5 + 0.5 + 0.1 - 1e-6 && fat.min.x <= 0.5 - 0.1 + 1e-6);
    tree.validate().unwrap();
}

/// A box that leaves its fat box by a little, still inside its parent's box, keeps its
/// place (same parent, same sibling); in a 10 x 10 pile swaying back and forth the tree
/// stays valid and every query still answers like a scan of the leaves.
#[test]
fn a_box_leaving_its_fat_box_among_its_neighbours_is_refitted_in_place() {
    let mut pair = DynamicTree::new(0.1);
    let a = pair.create_proxy(unit_box(0.0, 0.0), 0);
    pair.create_proxy(unit_box(1.01, 0.0), 1);
    let family = |tree: &DynamicTree| {
        let parent = tree.nodes[a.index as usize].parent;
        let p = &tree.nodes[parent as usize];
        (parent, p.child1, p.child2, p.parent)
    };
    let before = family(&pair);
    // 0.05 m out of its fat box, into its neighbour's.
    let moved = unit_box(0.15, 0.0);
    assert_eq!(pair.move_proxy(a, moved, Vec2::ZERO), Some(true));
    assert_eq!(family(&pair), before, "the leaf kept its place");
    assert_eq!(pair.fat_aabb(a), Some(moved.inflated(0.1)));
    pair.validate().unwrap();

    let mut tree = DynamicTree::new(0.1);
    let ids: Vec<ProxyId> = (0..100)
        .map(|i| tree.create_proxy(unit_box((i % 10) as f32 * 1.01, (i / 10) as f32), i))
        .collect();
    let mut stack = Vec::new();
    for round in 0..6 {
        let dx = if round % 2 == 0 { 0.15 } else { -0.15 };
        for (i, &id) in ids.iter().enumerate() {
            let b = unit_box((i % 10) as f32 * 1.01 + dx, (i / 10) as f32);
            tree.move_proxy(id, b, Vec2::ZERO).unwrap();
        }
        tree.validate().unwrap();
        for &id in &ids {
            let query = tree.fat_aabb(id).unwrap();
            let mut found = Vec::new();
            tree.query(&query, &mut stack, |d| found.push(d));
            found.sort_unstable();
            let expected: Vec<u32> = (0..100u32)
                .filter(|&j| tree.fat_aabb(ids[j as usize]).unwrap().overlaps(&query))
                .collect();
            assert_eq!(found, expected);
        }
    }
}

/// Built whole, a tree of a pyramid of boxes is valid and balanced, and answers every
/// query like the tree built one insertion at a time; it then takes moves, insertions
/// and removals like any other.
#[test]
fn a_tree_built_whole_answers_like_one_built_by_insertions() {
    let mut tight = Vec::new();
    for row in 0..20u32 {
        for col in 0..(20 - row) {
            tight.push((
                unit_box(col as f32 * 1.005 + row as f32 * 0.5, row as f32),
                tight.len() as u32,
            ));
        }
    }
    let mut whole = DynamicTree::new(0.1);
    let ids = whole.create_proxies(&tight);
    whole.validate().unwrap();
    assert_eq!(whole.proxy_count(), tight.len());
    assert!(whole.height() <= 8, "height {}", whole.height());
    let mut incremental = DynamicTree::new(0.1);
    for &(aabb, data) in &tight {
        incremental.create_proxy(aabb, data);
    }
    let mut stack = Vec::new();
    let answer = |tree: &DynamicTree, query: &Aabb, stack: &mut Vec<u32>| {
        let mut found = Vec::new();
        tree.query(query, stack, |d| found.push(d));
        found.sort_unstable();
        found
    };
    for (&(aabb, _), &id) in tight.iter().zip(&ids) {
        assert_eq!(whole.fat_aabb(id), Some(aabb.inflated(0.1)));
        assert_eq!(
            answer(&whole, &aabb, &mut stack),
            answer(&incremental, &aabb, &mut stack)
        );
    }
    assert_eq!(whole.move_proxy(ids[3], unit_box(30.0, 0.0), Vec2::ZERO), Some(true));
    assert!(whole.destroy_proxy(ids[7]));
    whole.create_proxy(unit_box(-5.0, 0.0), 999);
    whole.validate().unwrap();
    // Into a tree that has proxies, one at a time.
    let more = whole.create_proxies(&tight[..5]);
    assert_eq!(more.len(), 5);
    whole.validate().unwrap();
}

/// Many proxies moved at once (a rebuild of the whole tree) and a few (one at a time):
/// either way every id stays valid, each proxy has the fat box it was given, the tree
/// keeps its invariants, and queries find exactly the proxies whose fat boxes overlap.
#[test]
fn new_fat_boxes_given_together_keep_ids_and_answer_like_brute_force() {
    let mut tree = DynamicTree::new(0.1);
    let mut ids = Vec::new();
    for i in 0..100u32 {
        ids.push(tree.create_proxy(unit_box((i % 10) as f32 * 1.5, (i / 10) as f32 * 1.5), i));
    }
    let mut stack = Vec::new();
    for (round, moving) in [(0, 60usize), (1, 3), (2, 100), (3, 12)] {
        // The first `moving` proxies fall 0.4 m and drift right with the round.
        let shift = Vec2::new(0.2 * round as f32, -0.4);
        let mut moved = Vec::new();
        for (i, &id) in ids.iter().enumerate().take(moving) {
            let old = tree.fat_aabb(id).unwrap();
            let tight = Aabb::new(old.min + Vec2::splat(0.1) + shift, old.max - Vec2::splat(0.1) + shift);
            let fat = tree.new_fat_box(id, tight, shift).unwrap().expect("left its fat box");
            moved.push((id, fat));
            assert_eq!(tree.fat_aabb(id), Some(old), "proxy {i}: asking changes nothing");
        }
        tree.set_fat_boxes(&moved);
        tree.validate().unwrap();
        assert_eq!(tree.proxy_count(), 100);
        for &(id, fat) in &moved {
            assert_eq!(tree.fat_aabb(id), Some(fat), "round {round}");
        }
        let boxes: Vec<Aabb> = ids.iter().map(|&id| tree.fat_aabb(id).unwrap()).collect();
        for (i, query) in boxes.iter().enumerate() {
            let mut found = Vec::new();
            tree.query(query, &mut stack, |d| found.push(d));
            found.sort_unstable();
            let expected: Vec<u32> = (0..100u32).filter(|&j| boxes[j as usize].overlaps(query)).collect();
            assert_eq!(found, expected, "round {round}, proxy {i}");
        }
    }
    // A stale id among them is skipped.
    let gone = ids[5];
    assert!(tree.destroy_proxy(gone));
    tree.set_fat_boxes(&[(gone, unit_box(50.0, 50.0)), (ids[6], unit_box(60.0, 60.0))]);
    assert_eq!(tree.fat_aabb(gone), None);
    assert_eq!(tree.fat_aabb(ids[6]), Some(unit_box(60.0, 60.0)));
    tree.validate().unwrap();
}

/// The joins (`join.rs`) find exactly the overlapping pairs brute force finds: a tree
/// with itself (each pair once, no proxy with itself) and two trees with each other,
/// on scattered boxes of many sizes, built whole and moved one by one.
#[test]
fn joins_find_the_pairs_brute_force_finds() {
    let mut seed = 7u32;
    let mut next = || {
        seed = seed.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
        (seed >> 8) as f32 / (1u32 << 24) as f32
    };
    let mut boxes = |count: usize| -> Vec<(Aabb, u32)> {
        (0..count as u32)
            .map(|i| {
                let (x, y, w, h) = (next() * 30.0, next() * 30.0, 0.2 + next() * 3.0, 0.2 + next() * 3.0);
                (Aabb::new(Vec2::new(x, y), Vec2::new(x + w, y + h)), i)
            })
            .collect()
    };
    let (here, there) = (boxes(300), boxes(40));
    let mut tree = DynamicTree::new(0.1);
    let ids = tree.create_proxies(&here);
    // Some moved one at a time, so the tree is not only the built one.
    for (k, &id) in ids.iter().enumerate().step_by(7) {
        tree.move_proxy(id, unit_box(k as f32 * 0.1, 5.0), Vec2::ZERO);
    }
    let mut other = DynamicTree::new(0.1);
    let other_ids: Vec<ProxyId> = there
        .iter()
        .map(|&(aabb, data)| other.create_proxy(aabb, data))
        .collect();
    let fat = |t: &DynamicTree, ids: &[ProxyId]| ids.iter().map(|&id| t.fat_aabb(id).unwrap()).collect::<Vec<_>>();
    let (fat_here, fat_there) = (fat(&tree, &ids), fat(&other, &other_ids));
    let mut stack = Vec::new();
    let mut found = Vec::new();
    tree.self_pairs(&mut stack, |a, b| found.push((a.min(b), a.max(b))));
    found.sort_unstable();
    let mut expected = Vec::new();
    for i in 0..fat_here.len() {
        for j in i + 1..fat_here.len() {
            if fat_here[i].overlaps(&fat_here[j]) {
                expected.push((i as u32, j as u32));
            }
        }
    }
    assert!(expected.len() > 100, "{} pairs", expected.len());
    assert_eq!(found, expected);
    let mut across = Vec::new();
    tree.pairs_with(&other, &mut stack, |a, b| across.push((a, b)));
    across.sort_unstable();
    let mut expected_across = Vec::new();
    for (i, a) in fat_here.iter().enumerate() {
        for (j, b) in fat_there.iter().enumerate() {
            if a.overlaps(b) {
                expected_across.push((i as u32, j as u32));
            }
        }
    }
    assert!(!expected_across.is_empty());
    assert_eq!(across, expected_across);
    // Empty and single-proxy trees.
    let empty = DynamicTree::new(0.1);
    assert_eq!(empty.self_pairs(&mut stack, |_, _| panic!("no pairs")), 0);
    assert_eq!(tree.pairs_with(&empty, &mut stack, |_, _| panic!("no pairs")), 0);
}
