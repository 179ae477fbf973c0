//! The dynamic AABB tree (`aabb_tree.rs`) as a broad phase, with persistent pairs.
//!
//! One tree proxy per slot of the caller's slice, moved each step and reinserted only
//! when its box leaves its fat box (the box grown by the margin and stretched along its
//! motion). The broad phase keeps, between steps, every pair whose *fat* boxes overlap
//! (Box2D's pair set, Bullet's overlapping-pair cache). Fat boxes change only when a
//! proxy is reinserted (or refitted in place, `aabb_tree.rs`), so a step only
//!
//! 1. drops the kept pairs of a reinserted proxy (step 2 finds those that still
//!    overlap) and of a removed one,
//! 2. queries the tree with the fat box of each reinserted proxy and merges the pairs
//!    found, each found once (from the lower slot when both moved), so the two lists
//!    share no pair and merge in place: 5000 boxes created at one point make 12.5
//!    million pairs, and a copy more of them would cost 100 MB,
//! 3. reports the kept pairs whose *tight* boxes overlap.
//!
//! Static proxies (bodies that cannot be pushed, and sleeping ones) live in a tree of
//! their own, as in Box2D v3 (one tree per body type): a moved static proxy queries only
//! the movable tree, a moved movable proxy both. A floor or a wall 30 m long in the same
//! tree as the bodies lying along it makes every internal node above it as long, and
//! every query near it descends them; in the 1000-body rain the tree's queries were a
//! twentieth of the step. Which tree holds a proxy changes no pair: the kept pairs are
//! those of overlapping fat boxes, wherever the boxes are kept.
//!
//! A tight box lies inside its fat box, so step 3 reports exactly the pairs every other
//! broad phase reports (all four must agree, and the world's answer must not depend on
//! the choice): the fattening saves work, never adds a pair. A pile at rest reinserts
//! nothing and costs one box test per pair, where querying the tree with every box
//! cost a descent per body (on the 5050-box pyramid, 4.2 ms a step against 0.1).
//!
//! ```text
//! pairs: sorted (slot_lo, slot_hi), fat boxes overlap, not both static
//! for each slot: move its proxy in its tree; reinserted, created or changed static flag
//!     (then moved to the other tree) → moved
//! (the movable tree refitted or rebuilt whole, and half its proxies moved or more:
//!     pairs = join(movable, movable) ∪ join(movable, static), sorted; skip to `out`)
//! pairs.retain(neither moved nor removed)
//! fresh = for each moved slot a (increasing): movable_tree.query(a's fat box), and
//!     static_tree's too when a is movable → b, unless b moved and b < a
//!     (pairs (a, b) above a sorted per a; pairs (b, a) below a sorted together)
//! pairs = merge(pairs, fresh below a), then merge(pairs, fresh above a)
//! out = pairs whose tight boxes overlap, as (id, id)
//! ```

use super::aabb_tree::{sanitize_margin, DynamicTree, ProxyId};
use super::pairs::{finish_pairs, is_usable, push_pair};
use super::{BroadPhaseKind, BroadPhaseStats, Proxy};
use crate::bounds::Aabb;

/// At least one movable proxy in this many has a new fat box: the pairs are found by
/// joining the trees instead of a query per moved proxy (`find_all_pairs`).
const JOIN_FRACTION: usize = 2;

/// What the broad phase keeps for one slot of the caller's slice.
#[derive(Clone, Copy, Debug)]
struct Slot {
    /// The tree proxy (None for an unusable box).
    handle: Option<ProxyId>,
    /// Its fat box in the tree (metres, world frame), kept here to test pairs without
    /// walking to the tree's node.
    fat: Aabb,
    /// Last step's tight box (for the motion prediction).
    previous: Aabb,
    /// Last step's static flag: a slot whose flag changes pairs differently. Its proxy is
    /// in the static tree when set, the movable one otherwise.
    is_static: bool,
}

/// The tree as a broad phase: one proxy per slot of the caller's slice, moved each
/// step, and the pairs of overlapping fat boxes kept between steps.
#[derive(Clone, Debug, Default)]
pub struct AabbTreeBroadPhase {
    /// The proxies of bodies that can move …
    tree: DynamicTree,
    /// … and of static ones (see the module docs).
    static_tree: DynamicTree,
    slots: Vec<Slot>,
    /// Pairs of slots `(low, high)` whose fat boxes overlap, not both static; sorted.
    pairs: Vec<(u32, u32)>,
    /// Tuning: displacement prediction factor.
    prediction: f32,
    /// Scratch: the query stack, the slots that moved (as a list and per slot), and the
    /// pairs they found.
    stack: Vec<u32>,
    moved: Vec<u32>,
    is_moved: Vec<bool>,
    /// Whether the last [`Self::move_proxies`] destroyed a proxy (its slot gone or its
    /// box unusable): its kept pairs must go.
    lost: bool,
    fresh: Vec<(u32, u32)>,
    /// Scratch: the fresh pairs whose lower slot did not move (see step 2 of
    /// [`Self::update`]).
    fresh_below: Vec<(u32, u32)>,
    /// Per slot: its kept pairs stay (it has a proxy and did not move).
    kept: Vec<bool>,
    /// Scratch: the proxies with a new fat box, of the movable tree and the static one,
    /// placed together after every slot is seen (`DynamicTree::set_fat_boxes`) …
    new_fat: [Vec<(ProxyId, Aabb)>; 2],
    /// … and whether that refitted or rebuilt the whole movable tree this step.
    all_moved: bool,
    /// Scratch of the tree joins.
    pair_stack: Vec<(u32, u32)>,
}

impl AabbTreeBroadPhase {
    /// Empties the tree; the next update rebuilds it.
    pub fn clear(&mut self) {
        self.tree.clear();
        self.static_tree.clear();
        self.slots.clear();
        self.pairs.clear();
    }

    /// Sets the fattening margin (metres); a change empties the tree.
    pub fn set_margin(&mut self, margin: f32) {
        if sanitize_margin(margin) != self.tree.margin() {
            self.tree = DynamicTree::new(margin);
            self.static_tree = DynamicTree::new(margin);
            self.slots.clear();
            self.pairs.clear();
        }
    }

    /// Fat boxes are stretched along last step's displacement times `factor` (0: off;
    /// NaN or negative: 0).
    pub fn set_prediction(&mut self, factor: f32) {
        self.prediction = if factor.is_finite() { factor.max(0.0) } else { 0.0 };
    }

    /// The tree of the proxies that can move, for drawing ([`DynamicTree::node_views`])
    /// and checking.
    pub fn tree(&self) -> &DynamicTree {
        &self.tree
    }

    /// The tree of the static proxies (see the module docs).
    pub fn static_tree(&self) -> &DynamicTree {
        &self.static_tree
    }

    /// The tree a proxy with this static flag lives in.
    fn tree_for(&mut self, is_static: bool) -> &mut DynamicTree {
        if is_static {
            &mut self.static_tree
        } else {
            &mut self.tree
        }
    }

    /// The pairs of slots whose fat boxes overlap, kept between steps (sorted; not
    /// filtered by the tight boxes).
    pub fn kept_pairs(&self) -> &[(u32, u32)] {
        &self.pairs
    }

    /// Moves every proxy, updates the kept pairs; `out` gets the overlapping pairs,
    /// sorted.
    pub fn update(&mut self, proxies: &[Proxy], out: &mut Vec<(u32, u32)>) -> BroadPhaseStats {
        out.clear();
        let mut stats = BroadPhaseStats {
            kind: BroadPhaseKind::DynamicAabbTree,
            proxies: proxies.len(),
            rebuilt: self.slots.is_empty() && !proxies.is_empty(),
            ..BroadPhaseStats::default()
        };
        self.move_proxies(proxies, &mut stats);
        self.mark_moved();

        // Most movable proxies moved (the whole tree was refitted or rebuilt): every pair
        // at once, instead of steps 1 and 2.
        if self.all_moved {
            self.find_all_pairs(&mut stats);
        }
        // 1. Drop the pairs of moved proxies (found again below if their fat boxes
        // still overlap) and of proxies gone. A pile at rest moves and loses none, and
        // skips the walk over its pairs (while it settles, the 5050-box pyramid still
        // reinserts a few boxes a step, and the walk costs 1.5% of its step).
        if !self.all_moved && (!self.moved.is_empty() || self.lost) {
            // One flag per slot first, so the walk over the pairs reads two bytes per
            // pair instead of two slots (on the 5050-box pyramid the walk cost 1.8% of
            // the step when it read the slots).
            let kept = &mut self.kept;
            kept.clear();
            kept.extend(
                self.slots
                    .iter()
                    .zip(&self.is_moved)
                    .map(|(s, &moved)| s.handle.is_some() && !moved),
            );
            let alive = |i: u32| kept.get(i as usize).copied().unwrap_or(false);
            self.pairs.retain(|&(a, b)| alive(a) && alive(b));
        }

        // 2. The moved proxies' partners, each pair once. The moved slots come in
        // increasing order, so the pairs `(a, b)` a moved `a` finds above it come out
        // grouped by `a` in order, and only each small group needs sorting; the pairs
        // `(b, a)` below it (an unmoved `b`) go to a list of their own, sorted whole.
        // Sorting every fresh pair at once cost as much as the queries when the whole
        // pile was new (the first step of the 5050-box pyramid).
        self.fresh.clear();
        self.fresh_below.clear();
        let moved = if self.all_moved { &[][..] } else { &self.moved[..] };
        for &slot_a in moved {
            let a = self.slots[slot_a as usize];
            let group_start = self.fresh.len();
            let (above, below, is_moved) = (&mut self.fresh, &mut self.fresh_below, &self.is_moved);
            let mut visit = |slot_b: u32| {
                if slot_b > slot_a {
                    above.push((slot_a, slot_b));
                } else if slot_b < slot_a && !is_moved[slot_b as usize] {
                    below.push((slot_b, slot_a));
                }
                // Else `b` is `a` itself, or moved and below: it finds the pair.
            };
            // The movable tree holds no static proxy, and a static proxy has no pair
            // with another.
            stats.bv_tests += self.tree.query(&a.fat, &mut self.stack, &mut visit);
            if !a.is_static {
                stats.bv_tests += self.static_tree.query(&a.fat, &mut self.stack, &mut visit);
            }
            self.fresh[group_start..].sort_unstable();
        }
        // The two fresh lists (disjoint: a pair's first slot is moved in one, unmoved in
        // the other) are merged together first, so the long list of kept pairs is
        // merged into once: each merge moves every kept pair after the first fresh one,
        // and two merges cost the rain of 1000 polygons 1.5% of its step.
        self.fresh_below.sort_unstable();
        merge_disjoint_in_place(&mut self.fresh_below, &self.fresh);
        if !self.fresh_below.is_empty() {
            merge_disjoint_in_place(&mut self.pairs, &self.fresh_below);
        }

        // 3. The kept pairs whose tight boxes overlap.
        for &(a, b) in &self.pairs {
            let (pa, pb) = (&proxies[a as usize], &proxies[b as usize]);
            if pa.aabb.overlaps_unbranched(&pb.aabb) {
                push_pair(out, pa.id, pb.id);
            }
        }
        stats.bv_tests += self.pairs.len() as u64;
        // Already sorted when ids are slots (the world's case); labels in another
        // order are sorted here.
        finish_pairs(out);
        stats.pairs = out.len();
        stats.tree_nodes = self.tree.node_count() + self.static_tree.node_count();
        stats.tree_height = self.tree.height().max(self.static_tree.height());
        stats
    }

    /// Moves, creates and destroys the tree's proxies to match `proxies`; `moved` gets
    /// the slots whose fat box is new.
    fn move_proxies(&mut self, proxies: &[Proxy], stats: &mut BroadPhaseStats) {
        self.moved.clear();
        self.is_moved.clear();
        self.is_moved.resize(proxies.len(), false);
        self.lost = false;
        if self.slots.is_empty() && self.tree.proxy_count() == 0 && self.static_tree.proxy_count() == 0 {
            self.create_all(proxies);
            return;
        }
        // Slots beyond the slice are gone.
        while self.slots.len() > proxies.len() {
            if let Some(Slot {
                handle: Some(id),
                is_static,
                ..
            }) = self.slots.pop()
            {
                self.tree_for(is_static).destroy_proxy(id);
                self.lost = true;
            }
        }
        for (slot, p) in proxies.iter().enumerate() {
            let usable = is_usable(&p.aabb);
            if slot == self.slots.len() {
                let handle = usable.then(|| self.tree_for(p.is_static).create_proxy(p.aabb, slot as u32));
                self.slots.push(Slot {
                    handle,
                    fat: self.fat_of(handle, p.is_static, p.aabb),
                    previous: p.aabb,
                    is_static: p.is_static,
                });
                if handle.is_some() {
                    self.moved.push(slot as u32);
                }
                continue;
            }
            let s = self.slots[slot];
            let handle = match (s.handle, usable) {
                (Some(id), true) if s.is_static != p.is_static => {
                    // Into the other tree, with a fresh fat box.
                    self.tree_for(s.is_static).destroy_proxy(id);
                    self.moved.push(slot as u32);
                    Some(self.tree_for(p.is_static).create_proxy(p.aabb, slot as u32))
                }
                (Some(id), true) => {
                    // The min corner's motion: a box can change size too, but a body's
                    // box moves with it.
                    let displacement = (p.aabb.min - s.previous.min) * self.prediction;
                    let tree = if p.is_static { &self.static_tree } else { &self.tree };
                    if let Some(Some(fat)) = tree.new_fat_box(id, p.aabb, displacement) {
                        // Placed in the tree after the loop, all together (see
                        // `DynamicTree::set_fat_boxes`).
                        self.new_fat[usize::from(p.is_static)].push((id, fat));
                        stats.reinserts += 1;
                        self.moved.push(slot as u32);
                        self.slots[slot] = Slot {
                            handle: Some(id),
                            fat,
                            previous: p.aabb,
                            is_static: p.is_static,
                        };
                        continue;
                    }
                    Some(id)
                }
                (Some(id), false) => {
                    self.tree_for(s.is_static).destroy_proxy(id);
                    self.lost = true;
                    None
                }
                (None, true) => {
                    self.moved.push(slot as u32);
                    Some(self.tree_for(p.is_static).create_proxy(p.aabb, slot as u32))
                }
                (None, false) => None,
            };
            self.slots[slot] = Slot {
                handle,
                fat: self.fat_of(handle, p.is_static, p.aabb),
                previous: p.aabb,
                is_static: p.is_static,
            };
        }
        let [movable, fixed] = &mut self.new_fat;
        // Every pair at once only when most moved: with a few hundred of thousands (a
        // heap landing), the join and the sort of all the pairs cost more than those
        // queries (the rain's broad phase while it lands 0.129 → 0.157 ms a step).
        let most = movable.len() * JOIN_FRACTION >= self.tree.proxy_count();
        self.all_moved = self.tree.set_fat_boxes(movable) && most;
        self.static_tree.set_fat_boxes(fixed);
        movable.clear();
        fixed.clear();
    }

    /// Every pair of fat boxes that overlap, found at once (`aabb_tree/join.rs`): the
    /// movable tree against itself and against the static tree, sorted. What the kept
    /// pairs are after steps 1 and 2, when most of the movable proxies moved.
    fn find_all_pairs(&mut self, stats: &mut BroadPhaseStats) {
        let pairs = &mut self.pairs;
        pairs.clear();
        let mut add = |a: u32, b: u32| pairs.push(if a < b { (a, b) } else { (b, a) });
        stats.bv_tests += self.tree.self_pairs(&mut self.pair_stack, &mut add);
        stats.bv_tests += self.tree.pairs_with(&self.static_tree, &mut self.pair_stack, &mut add);
        pairs.sort_unstable();
    }

    /// A proxy for every usable box of `proxies`, into empty trees: each tree is built
    /// whole (`aabb_tree/build.rs`), not one insertion at a time, and every slot with a
    /// proxy is moved.
    fn create_all(&mut self, proxies: &[Proxy]) {
        self.slots.extend(proxies.iter().map(|p| Slot {
            handle: None,
            fat: p.aabb,
            previous: p.aabb,
            is_static: p.is_static,
        }));
        for is_static in [false, true] {
            let tight: Vec<(Aabb, u32)> = proxies
                .iter()
                .enumerate()
                .filter(|(_, p)| p.is_static == is_static && is_usable(&p.aabb))
                .map(|(slot, p)| (p.aabb, slot as u32))
                .collect();
            let ids = self.tree_for(is_static).create_proxies(&tight);
            for (&(_, slot), id) in tight.iter().zip(ids) {
                let fat = self.fat_of(Some(id), is_static, proxies[slot as usize].aabb);
                let s = &mut self.slots[slot as usize];
                s.handle = Some(id);
                s.fat = fat;
            }
        }
        self.moved.extend(
            self.slots
                .iter()
                .enumerate()
                .filter(|(_, s)| s.handle.is_some())
                .map(|(slot, _)| slot as u32),
        );
    }

    /// Marks the slots in `moved` (after [`Self::move_proxies`]).
    fn mark_moved(&mut self) {
        for &slot in &self.moved {
            self.is_moved[slot as usize] = true;
        }
    }

    /// The fat box of a proxy in the tree for `is_static` (its tight box when it has
    /// none).
    fn fat_of(&self, handle: Option<ProxyId>, is_static: bool, tight: Aabb) -> Aabb {
        let tree = if is_static { &self.static_tree } else { &self.tree };
        handle.and_then(|id| tree.fat_aabb(id)).unwrap_or(tight)
    }
}

/// `pairs` = `pairs` ∪ `fresh`, both sorted and sharing no element, merged from the back
/// so no second list is needed.
fn merge_disjoint_in_place(pairs: &mut Vec<(u32, u32)>, fresh: &[(u32, u32)]) {
    let (mut i, mut j) = (pairs.len(), fresh.len());
    pairs.resize(i + j, (0, 0));
    let mut k = pairs.len();
    while j > 0 {
        k -= 1;
        if i > 0 && pairs[i - 1] > fresh[j - 1] {
            i -= 1;
            pairs[k] = pairs[i];
        } else {
            j -= 1;
            pairs[k] = fresh[j];
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::broad::overlapping_pairs;
    use crate::math::Vec2;

    fn boxed(id: u32, x: f32, y: f32, is_static: bool) -> Proxy {
        Proxy::new(id, Aabb::new(Vec2::new(x, y), Vec2::new(x + 1.0, y + 1.0)), is_static)
    }

    /// Bodies that drift apart and together over many steps, one turning static, one
    /// going NaN and coming back, the slice shrinking and growing: the kept pairs give
    /// the brute-force answer every step.
    #[test]
    fn kept_pairs_answer_like_brute_force_while_bodies_move() {
        let mut broad = AabbTreeBroadPhase::default();
        broad.set_margin(0.1);
        broad.set_prediction(2.0);
        let mut out = Vec::new();
        for step in 0..200u32 {
            let t = step as f32 * 0.05;
            let count = if (60..80).contains(&step) { 9 } else { 12 };
            let proxies: Vec<Proxy> = (0..count)
                .map(|i| {
                    let phase = i as f32 * 0.7;
                    let x = (t + phase).sin() * 3.0 + i as f32 * 0.4;
                    let y = (t * 0.6 + phase).cos() * 2.0;
                    let mut p = boxed(i, x, y, i == 0 || (i == 5 && step > 100));
                    if i == 7 && (30..40).contains(&step) {
                        p.aabb.min.x = f32::NAN;
                    }
                    p
                })
                .collect();
            broad.update(&proxies, &mut out);
            assert_eq!(out, overlapping_pairs(&proxies), "step {step}");
        }
    }

    /// A grid of bodies falling together leaves its fat boxes together (the tree is
    /// refitted or built again, `DynamicTree::set_fat_boxes`, and the pairs found by
    /// joining the trees), while a few of them wobble and land on a static floor one
    /// row at a time: the pairs are brute force's every step.
    #[test]
    fn bodies_falling_together_pair_like_brute_force() {
        let mut broad = AabbTreeBroadPhase::default();
        broad.set_margin(0.1);
        broad.set_prediction(4.0);
        let mut out = Vec::new();
        let (mut reinserts, mut steps_with_many, mut steps_joined) = (0, 0, 0);
        for step in 0..120u32 {
            let t = step as f32 / 60.0;
            let fall = 0.5 * 9.81 * t * t;
            let mut proxies = vec![boxed(0, -1.0, -1.0, true)];
            proxies[0].aabb.max.x = 30.0;
            for i in 1..=150u32 {
                let (col, row) = ((i - 1) % 15, (i - 1) / 15);
                let wobble = if i % 7 == 0 {
                    (t * 9.0 + i as f32).sin() * 0.3
                } else {
                    0.0
                };
                // Each row stops on the floor (stacked 1.05 m apart), then rests.
                let y = (2.0 + row as f32 * 1.5 - fall).max(row as f32 * 1.05);
                proxies.push(boxed(i, col as f32 * 1.5 + wobble, y, false));
            }
            let stats = broad.update(&proxies, &mut out);
            reinserts += stats.reinserts;
            steps_with_many += usize::from(stats.reinserts * 8 >= 150);
            steps_joined += usize::from(broad.all_moved);
            assert_eq!(out, overlapping_pairs(&proxies), "step {step}");
            broad.tree.validate().unwrap();
        }
        assert!(
            steps_with_many >= 5,
            "{steps_with_many} steps moved many ({reinserts} reinserts)"
        );
        assert!(steps_joined >= 1, "no step found its pairs by joining the trees");
    }

    /// A body falling steadily faster than the shrink test's four margins a step (0.5 m
    /// a step, 30 m/s at 60 Hz) keeps its stretched box for several steps. Before the
    /// grown box of the shrink test reached back along the motion, the old box stuck out
    /// of it behind the body and it was reinserted every step (39 times here).
    #[test]
    fn a_fast_steady_body_is_not_reinserted_every_step() {
        let mut broad = AabbTreeBroadPhase::default();
        broad.set_prediction(4.0);
        let mut out = Vec::new();
        let mut reinserts = 0;
        for step in 0..40 {
            let proxies = [boxed(0, 0.0, -0.5 * step as f32, false), boxed(1, 5.0, 0.0, true)];
            reinserts += broad.update(&proxies, &mut out).reinserts;
            assert!(out.is_empty());
        }
        assert!(reinserts <= 10, "{reinserts} reinserts in 40 steps");
    }

    /// A pile that does not move reinserts nothing and finds no new pair.
    #[test]
    fn a_pile_at_rest_queries_nothing() {
        let mut broad = AabbTreeBroadPhase::default();
        let proxies: Vec<Proxy> = (0..30)
            .map(|i| boxed(i, (i % 6) as f32 * 0.9, (i / 6) as f32 * 0.9, false))
            .collect();
        let mut out = Vec::new();
        let first = broad.update(&proxies, &mut out);
        assert!(first.rebuilt);
        let pairs = out.clone();
        let second = broad.update(&proxies, &mut out);
        assert_eq!(out, pairs);
        assert_eq!(second.reinserts, 0);
        assert!(broad.moved.is_empty());
        // One box test per kept pair and no descent.
        assert_eq!(second.bv_tests, broad.kept_pairs().len() as u64);
    }
}
