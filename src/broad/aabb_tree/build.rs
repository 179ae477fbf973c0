//! A whole tree at once: when a broad phase starts (the first step of a scene, or a
//! switch of algorithm) every proxy is new, and inserting them one by one pays a
//! descent from the root and the rotations on the way back for each. The same holds
//! when many proxies get new fat boxes in one step (bodies falling together leave their
//! boxes together): `DynamicTree::set_fat_boxes` then builds the tree again over all
//! its leaves, which keep their nodes (and so their ids).
//!
//! Built top down instead (the median split of a kd-tree, as in Wald's survey of BVH
//! construction, "On fast construction of SAH-based bounding volume hierarchies", 2007,
//! without the SAH sweep): the leaves' centres are split at the median of the axis
//! along which they spread most, and each half is built the same way.
//!
//! ```text
//! build(leaves):
//!     one leaf → it
//!     axis = the longer side of the box of the leaves' centres
//!     put the median leaf (by centre along axis) at n/2, smaller before, larger after
//!     node(build(leaves[..n/2]), build(leaves[n/2..]))
//! ```
//!
//! Halves differ by at most one leaf, so sibling heights differ by at most one: the
//! tree is as balanced as the rotations keep an incrementally built one, and
//! `insert_leaf` and `remove_leaf` work on it unchanged. On the 5050-box pyramid the
//! first step's insertions cost 13.6 M instructions one by one and the build 7.8 M, and
//! the first step's queries, all 5050 of them, went from 12.4 M to 7.8 M on the better
//! tree (pair finding that step: 34 M to 21 M).
//!
//! The leaves' centres are gathered into one array beside their node indices, so the
//! spread and the split read memory in order. A Z-order build was tried for the rebuilds
//! (one integer sort of Morton codes, halves split at the middle): cheaper to build, but
//! its trees answered queries slower, and the rain of 1000 polygons' broad phase lost
//! more than the build saved (0.084 → 0.097 ms a step while the polygons fall).

use super::restructure::perimeter;
use super::{DynamicTree, ProxyId, NULL};
use crate::bounds::Aabb;
use crate::math::Vec2;

impl DynamicTree {
    /// Adds a proxy for each of `tight` (tight box, user data), as
    /// [`Self::create_proxy`] would, and returns their ids in the same order. Into an
    /// empty tree they are built top down (see `build.rs`); into a tree that has
    /// proxies already, inserted one by one.
    pub fn create_proxies(&mut self, tight: &[(Aabb, u32)]) -> Vec<ProxyId> {
        if self.root != NULL || tight.len() < 2 {
            return tight
                .iter()
                .map(|&(aabb, data)| self.create_proxy(aabb, data))
                .collect();
        }
        let mut ids = Vec::with_capacity(tight.len());
        for &(aabb, data) in tight {
            let leaf = self.allocate();
            let node = &mut self.nodes[leaf as usize];
            node.aabb = aabb.inflated(self.margin);
            node.user_data = data;
            ids.push(ProxyId {
                index: leaf,
                generation: node.generation,
            });
        }
        self.leaves += ids.len();
        self.rebuild();
        self.built_cost = self.cost();
        ids
    }

    /// Builds the tree again over its leaves (their fat boxes as they are): every
    /// internal node is released and the new ones are allocated from the freed ones.
    /// Leaves keep their nodes, so every proxy id stays valid. See the module docs.
    pub(super) fn rebuild(&mut self) {
        let mut leaves = std::mem::take(&mut self.build_scratch);
        leaves.clear();
        for i in 0..self.nodes.len() {
            let node = &self.nodes[i];
            if !node.in_use {
                continue;
            }
            if node.is_leaf() {
                leaves.push(((node.aabb.min + node.aabb.max) * 0.5, i as u32));
            } else {
                self.release(i as u32);
            }
        }
        self.root = match leaves.is_empty() {
            true => NULL,
            false => self.build_top_down(&mut leaves),
        };
        if self.root != NULL {
            self.nodes[self.root as usize].parent = NULL;
        }
        self.build_scratch = leaves;
    }

    /// Fits every internal node's box to its children's again, bottom up, keeping the
    /// tree's shape, and returns the tree's cost: the sum of its internal nodes'
    /// perimeters (what a query pays for, `restructure.rs`).
    pub(super) fn refit_all(&mut self) -> f32 {
        let mut stack = std::mem::take(&mut self.refit_stack);
        stack.clear();
        let mut cost = 0.0;
        if self.root != NULL && !self.nodes[self.root as usize].is_leaf() {
            stack.push((self.root, false));
        }
        while let Some((i, children_done)) = stack.pop() {
            let node = self.nodes[i as usize];
            if children_done {
                let aabb = self.nodes[node.child1 as usize]
                    .aabb
                    .union(&self.nodes[node.child2 as usize].aabb);
                self.nodes[i as usize].aabb = aabb;
                cost += perimeter(&aabb);
                continue;
            }
            stack.push((i, true));
            for child in [node.child1, node.child2] {
                if !self.nodes[child as usize].is_leaf() {
                    stack.push((child, false));
                }
            }
        }
        self.refit_stack = stack;
        cost
    }

    /// The tree's cost as [`Self::refit_all`] measures it, without changing it.
    pub(super) fn cost(&self) -> f32 {
        self.nodes
            .iter()
            .filter(|n| n.in_use && !n.is_leaf())
            .map(|n| perimeter(&n.aabb))
            .sum()
    }

    /// The subtree over `leaves` (at least one, each with its box's centre), split at
    /// the median; returns its root. The centres sit beside the leaves in one array, so
    /// the spread and the split read it in order.
    fn build_top_down(&mut self, leaves: &mut [(Vec2, u32)]) -> u32 {
        if let [(_, leaf)] = leaves {
            return *leaf;
        }
        let (mut lo, mut hi) = (leaves[0].0, leaves[0].0);
        for &(c, _) in leaves.iter() {
            lo = lo.min(c);
            hi = hi.max(c);
        }
        let size = hi - lo;
        let mid = leaves.len() / 2;
        if size.x >= size.y {
            leaves.select_nth_unstable_by(mid, |a, b| a.0.x.total_cmp(&b.0.x));
        } else {
            leaves.select_nth_unstable_by(mid, |a, b| a.0.y.total_cmp(&b.0.y));
        }
        let (low, high) = leaves.split_at_mut(mid);
        let child1 = self.build_top_down(low);
        let child2 = self.build_top_down(high);
        let parent = self.allocate();
        self.set_children(parent, child1, child2);
        self.nodes[child1 as usize].parent = parent;
        self.nodes[child2 as usize].parent = parent;
        parent
    }
}
