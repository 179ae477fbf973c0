//! The dynamic AABB tree (`aabb_tree.rs`) as a broad phase.
//!
//! One tree proxy per slot of the caller's slice, moved each step (reinserted only when
//! its box leaves its fat box). Then the tree is queried once per non-static box with
//! its tight box, and each candidate is tested tight box against tight box, so the
//! fattening never adds a pair. Box2D instead keeps pairs between steps and queries only
//! the proxies that moved; we return every overlapping pair each step (all four broad
//! phases must agree), which that scheme would also have to recheck.

use super::aabb_tree::{sanitize_margin, DynamicTree, ProxyId};
use super::pairs::{finish_pairs, is_usable, push_pair};
use super::{BroadPhaseKind, BroadPhaseStats, Proxy};
use crate::bounds::Aabb;

/// The tree as a broad phase: one proxy per slot of the caller's slice, moved each step.
#[derive(Clone, Debug, Default)]
pub struct AabbTreeBroadPhase {
    tree: DynamicTree,
    /// State per slot: the tree proxy (None for an unusable box) and last step's box.
    handles: Vec<Option<ProxyId>>,
    previous: Vec<Aabb>,
    /// Tuning: displacement prediction factor.
    prediction: f32,
    /// Scratch: the query stack.
    stack: Vec<u32>,
}

impl AabbTreeBroadPhase {
    /// Empties the tree; the next update rebuilds it.
    pub fn clear(&mut self) {
        self.tree.clear();
        self.handles.clear();
        self.previous.clear();
    }

    /// Sets the fattening margin (metres); a change empties the tree.
    pub fn set_margin(&mut self, margin: f32) {
        if sanitize_margin(margin) != self.tree.margin() {
            self.tree = DynamicTree::new(margin);
            self.handles.clear();
            self.previous.clear();
        }
    }

    /// Fat boxes are stretched along last step's displacement times `factor` (0: off;
    /// NaN or negative: 0).
    pub fn set_prediction(&mut self, factor: f32) {
        self.prediction = if factor.is_finite() { factor.max(0.0) } else { 0.0 };
    }

    /// The tree, for drawing ([`DynamicTree::node_views`]) and checking.
    pub fn tree(&self) -> &DynamicTree {
        &self.tree
    }

    /// Moves every proxy and queries the tree; `out` gets the overlapping pairs, sorted.
    pub fn update(&mut self, proxies: &[Proxy], out: &mut Vec<(u32, u32)>) -> BroadPhaseStats {
        out.clear();
        let mut stats = BroadPhaseStats {
            kind: BroadPhaseKind::DynamicAabbTree,
            proxies: proxies.len(),
            rebuilt: self.handles.is_empty() && !proxies.is_empty(),
            ..BroadPhaseStats::default()
        };
        // Slots beyond the slice are gone.
        while self.handles.len() > proxies.len() {
            if let Some(Some(id)) = self.handles.pop() {
                self.tree.destroy_proxy(id);
            }
            self.previous.pop();
        }
        for (slot, p) in proxies.iter().enumerate() {
            let usable = is_usable(&p.aabb);
            if slot == self.handles.len() {
                self.handles
                    .push(usable.then(|| self.tree.create_proxy(p.aabb, slot as u32)));
                self.previous.push(p.aabb);
                continue;
            }
            match (self.handles[slot], usable) {
                (Some(id), true) => {
                    // The min corner's motion: a box can change size too, but a body's
                    // box moves with it.
                    let displacement = (p.aabb.min - self.previous[slot].min) * self.prediction;
                    if self.tree.move_proxy(id, p.aabb, displacement) == Some(true) {
                        stats.reinserts += 1;
                    }
                }
                (Some(id), false) => {
                    self.tree.destroy_proxy(id);
                    self.handles[slot] = None;
                }
                (None, true) => self.handles[slot] = Some(self.tree.create_proxy(p.aabb, slot as u32)),
                (None, false) => {}
            }
            self.previous[slot] = p.aabb;
        }

        // One query per moving box: a static box finds no static partner, and its
        // dynamic partners find it.
        for (slot_a, a) in proxies.iter().enumerate() {
            if a.is_static || self.handles[slot_a].is_none() {
                continue;
            }
            let mut tight_tests = 0u64;
            let node_tests = self.tree.query(&a.aabb, &mut self.stack, |slot_b| {
                let b = &proxies[slot_b as usize];
                // A dynamic pair is found from both sides; keep it from the lower slot.
                if slot_b as usize == slot_a || (!b.is_static && (slot_b as usize) < slot_a) {
                    return;
                }
                tight_tests += 1;
                if a.aabb.overlaps(&b.aabb) {
                    push_pair(out, a.id, b.id);
                }
            });
            stats.bv_tests += node_tests + tight_tests;
        }
        finish_pairs(out);
        stats.pairs = out.len();
        stats.tree_nodes = self.tree.node_count();
        stats.tree_height = self.tree.height();
        stats
    }
}
