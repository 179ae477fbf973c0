//! How the tree changes shape: a leaf inserted by the surface-area heuristic, a leaf
//! removed, and the refit and AVL-style rotations on the way back up (see the parent
//! module's docs for the rules and their sources).

use super::{DynamicTree, NoTreeRecord, TreeRecorder, NULL};
use crate::bounds::Aabb;

impl DynamicTree {
    /// Inserts the (already allocated) leaf by the surface-area heuristic, then refits
    /// and rebalances the ancestors.
    pub(super) fn insert_leaf<R: TreeRecorder>(&mut self, leaf: u32, recorder: &mut R) {
        if self.root == NULL {
            self.root = leaf;
            self.nodes[leaf as usize].parent = NULL;
            return;
        }
        let leaf_box = self.nodes[leaf as usize].aabb;
        let mut index = self.root;
        while !self.nodes[index as usize].is_leaf() {
            let node = self.nodes[index as usize];
            let node_perimeter = perimeter(&node.aabb);
            let combined = perimeter_of_union(&node.aabb, &leaf_box);
            let direct_cost = 2.0 * combined;
            let inherited_cost = 2.0 * (combined - node_perimeter);
            let child_cost = |c: u32| {
                let child = &self.nodes[c as usize];
                let grown = perimeter_of_union(&child.aabb, &leaf_box);
                let new_cost = if child.is_leaf() {
                    grown
                } else {
                    grown - perimeter(&child.aabb)
                };
                new_cost + inherited_cost
            };
            let (cost1, cost2) = (child_cost(node.child1), child_cost(node.child2));
            let children = [
                &self.nodes[node.child1 as usize].aabb,
                &self.nodes[node.child2 as usize].aabb,
            ];
            if direct_cost < cost1 && direct_cost < cost2 {
                recorder.descend(&node.aabb, &leaf_box, children, direct_cost, [cost1, cost2], None);
                break;
            }
            // Ties (and NaN costs from infinite boxes) go to child 2: any choice is valid.
            let chosen = if cost1 < cost2 { 0 } else { 1 };
            recorder.descend(
                &node.aabb,
                &leaf_box,
                children,
                direct_cost,
                [cost1, cost2],
                Some(chosen),
            );
            index = if chosen == 0 { node.child1 } else { node.child2 };
        }
        let sibling = index;
        recorder.sibling(&self.nodes[sibling as usize].aabb);

        // A new parent takes the sibling's place, with the sibling and the leaf below it.
        let old_parent = self.nodes[sibling as usize].parent;
        let new_parent = self.allocate();
        {
            let sibling_node = self.nodes[sibling as usize];
            let p = &mut self.nodes[new_parent as usize];
            p.parent = old_parent;
            p.aabb = leaf_box.union(&sibling_node.aabb);
            p.height = sibling_node.height + 1;
            p.child1 = sibling;
            p.child2 = leaf;
        }
        self.replace_child(old_parent, sibling, new_parent);
        self.nodes[sibling as usize].parent = new_parent;
        self.nodes[leaf as usize].parent = new_parent;
        self.refit_upwards(self.nodes[leaf as usize].parent, recorder);
    }

    /// Unlinks a leaf (the node stays allocated); its sibling takes the parent's place.
    pub(super) fn remove_leaf(&mut self, leaf: u32) {
        if leaf == self.root {
            self.root = NULL;
            return;
        }
        let parent = self.nodes[leaf as usize].parent;
        let grand_parent = self.nodes[parent as usize].parent;
        let p = self.nodes[parent as usize];
        let sibling = if p.child1 == leaf { p.child2 } else { p.child1 };
        self.replace_child(grand_parent, parent, sibling);
        self.nodes[sibling as usize].parent = grand_parent;
        self.release(parent);
        self.nodes[leaf as usize].parent = NULL;
        self.refit_upwards(grand_parent, &mut NoTreeRecord);
    }

    /// In `parent` (or at the root when `parent` is NULL), `old` becomes `new`.
    pub(super) fn replace_child(&mut self, parent: u32, old: u32, new: u32) {
        if parent == NULL {
            self.root = new;
            return;
        }
        let p = &mut self.nodes[parent as usize];
        if p.child1 == old {
            p.child1 = new;
        } else {
            p.child2 = new;
        }
    }

    /// From `index` to the root: rebalance, then recompute height and box.
    pub(super) fn refit_upwards<R: TreeRecorder>(&mut self, mut index: u32, recorder: &mut R) {
        while index != NULL {
            index = self.balance(index, recorder);
            let node = self.nodes[index as usize];
            self.set_children(index, node.child1, node.child2);
            index = node.parent;
        }
    }

    /// Makes `child1` and `child2` the children of `parent`, its box and height fitted
    /// to theirs (the children's parent links are the caller's to set).
    pub(super) fn set_children(&mut self, parent: u32, child1: u32, child2: u32) {
        let (c1, c2) = (self.nodes[child1 as usize], self.nodes[child2 as usize]);
        let p = &mut self.nodes[parent as usize];
        p.child1 = child1;
        p.child2 = child2;
        p.aabb = c1.aabb.union(&c2.aabb);
        p.height = 1 + c1.height.max(c2.height);
    }

    /// If `a`'s children differ in height by more than 1, lifts the taller one into
    /// `a`'s place and returns it; otherwise returns `a`.
    ///
    /// ```text
    ///        a                    up
    ///      /   \                /    \
    ///   stay    up     ->      a     keep        keep: up's taller child
    ///          /  \          /   \               give: up's shorter child
    ///       keep  give    stay   give
    /// ```
    pub(super) fn balance<R: TreeRecorder>(&mut self, a: u32, recorder: &mut R) -> u32 {
        let node = self.nodes[a as usize];
        if node.is_leaf() || node.height < 2 {
            return a;
        }
        let (b, c) = (node.child1, node.child2);
        let (hb, hc) = (self.nodes[b as usize].height, self.nodes[c as usize].height);
        let (up, stay) = if hc > hb + 1 {
            (c, b)
        } else if hb > hc + 1 {
            (b, c)
        } else {
            return a;
        };
        let up_node = self.nodes[up as usize];
        recorder.rotate(&node.aabb, &up_node.aabb, up_node.height);
        let (f, g) = (up_node.child1, up_node.child2);
        let (keep, give) = if self.nodes[f as usize].height > self.nodes[g as usize].height {
            (f, g)
        } else {
            (g, f)
        };
        // `up` takes `a`'s place.
        self.replace_child(node.parent, a, up);
        self.nodes[up as usize].parent = node.parent;
        // `a` keeps `stay` and adopts `give`; `up` holds `a` and `keep`.
        self.nodes[give as usize].parent = a;
        self.nodes[a as usize].parent = up;
        self.set_children(a, stay, give);
        self.set_children(up, a, keep);
        up
    }
}

/// Perimeter of a box (metres): the 2D "surface area" of the heuristic.
#[inline]
pub(super) fn perimeter(aabb: &Aabb) -> f32 {
    let size = aabb.max - aabb.min;
    2.0 * (size.x + size.y)
}

#[inline]
fn perimeter_of_union(a: &Aabb, b: &Aabb) -> f32 {
    perimeter(&a.union(b))
}
