//! Every pair of overlapping leaves at once: of one tree with itself, or of two trees
//! (a simultaneous descent of both, as in Bullet's `btDbvt::collideTT` and Box2D v3's
//! tree-against-tree pair update).
//!
//! Why: when most proxies of a tree got new fat boxes in one step (bodies falling
//! together, `DynamicTree::set_fat_boxes`), querying the tree once per moved proxy
//! descends from the root hundreds of times and finds every pair twice, once from each
//! end; on the rain of 1000 polygons those queries were the largest part of the broad
//! phase while the polygons fall. One descent of the tree against itself tests each pair
//! of overlapping subtrees once.
//!
//! ```text
//! pairs(a, b):                      a, b: nodes whose boxes overlap
//!     a == b:  a leaf → nothing; else pairs(c1, c1), pairs(c2, c2), pairs(c1, c2) if they overlap
//!     both leaves → report (a, b)
//!     else descend the larger (by perimeter) internal one: pairs(a, child) for its children
//!         whose boxes overlap the other
//! ```

use super::restructure::perimeter;
use super::{DynamicTree, NULL};

impl DynamicTree {
    /// Calls `visit(data_a, data_b)` once for every pair of distinct proxies of this tree
    /// whose fat boxes overlap (touching counts), in no particular order. `stack` is
    /// scratch. Returns the node pairs tested.
    pub fn self_pairs(&self, stack: &mut Vec<(u32, u32)>, visit: impl FnMut(u32, u32)) -> u64 {
        if self.root == NULL {
            return 0;
        }
        self.descend(self, (self.root, self.root), stack, visit)
    }

    /// Calls `visit(data_here, data_there)` for every proxy of this tree and proxy of
    /// `other` whose fat boxes overlap (touching counts). Returns the node pairs tested.
    pub fn pairs_with(&self, other: &DynamicTree, stack: &mut Vec<(u32, u32)>, mut visit: impl FnMut(u32, u32)) -> u64 {
        if self.root == NULL || other.root == NULL {
            return 0;
        }
        let (a, b) = (&self.nodes[self.root as usize], &other.nodes[other.root as usize]);
        if !a.aabb.overlaps(&b.aabb) {
            return 1;
        }
        1 + self.descend(other, (self.root, other.root), stack, &mut visit)
    }

    /// The descent from the pair `start` (overlapping, or a node with itself when `other`
    /// is this tree) of this tree's node and `other`'s.
    fn descend(
        &self,
        other: &DynamicTree,
        start: (u32, u32),
        stack: &mut Vec<(u32, u32)>,
        mut visit: impl FnMut(u32, u32),
    ) -> u64 {
        let same_tree = std::ptr::eq(self, other);
        let mut tests = 0;
        stack.clear();
        stack.push(start);
        while let Some((i, j)) = stack.pop() {
            let (a, b) = (&self.nodes[i as usize], &other.nodes[j as usize]);
            if same_tree && i == j {
                if !a.is_leaf() {
                    let (c1, c2) = (a.child1, a.child2);
                    stack.push((c1, c1));
                    stack.push((c2, c2));
                    tests += 1;
                    if self.nodes[c1 as usize]
                        .aabb
                        .overlaps_unbranched(&self.nodes[c2 as usize].aabb)
                    {
                        stack.push((c1, c2));
                    }
                }
                continue;
            }
            match (a.is_leaf(), b.is_leaf()) {
                (true, true) => visit(a.user_data, b.user_data),
                (false, true) => self.split_here(i, &b.aabb, j, stack, &mut tests),
                (true, false) => other.split_there(&a.aabb, i, j, stack, &mut tests),
                (false, false) => {
                    if perimeter(&a.aabb) >= perimeter(&b.aabb) {
                        self.split_here(i, &b.aabb, j, stack, &mut tests);
                    } else {
                        other.split_there(&a.aabb, i, j, stack, &mut tests);
                    }
                }
            }
        }
        tests
    }

    /// Pushes (child of `i`, `j`) for each child of this tree's internal node `i` whose
    /// box overlaps `other_box` (the box of node `j` of the other tree).
    fn split_here(
        &self,
        i: u32,
        other_box: &crate::bounds::Aabb,
        j: u32,
        stack: &mut Vec<(u32, u32)>,
        tests: &mut u64,
    ) {
        let node = &self.nodes[i as usize];
        for child in [node.child1, node.child2] {
            *tests += 1;
            if self.nodes[child as usize].aabb.overlaps_unbranched(other_box) {
                stack.push((child, j));
            }
        }
    }

    /// Pushes (`i`, child of `j`) for each child of this tree's internal node `j` whose
    /// box overlaps `box_i` (the box of node `i` of the tree being descended with it).
    fn split_there(&self, box_i: &crate::bounds::Aabb, i: u32, j: u32, stack: &mut Vec<(u32, u32)>, tests: &mut u64) {
        let node = &self.nodes[j as usize];
        for child in [node.child1, node.child2] {
            *tests += 1;
            if self.nodes[child as usize].aabb.overlaps_unbranched(box_i) {
                stack.push((i, child));
            }
        }
    }
}
