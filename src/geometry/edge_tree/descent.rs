//! Reading an [`EdgeTree`] from outside: its nodes as read-only views, and the pairwise
//! descent's tests one by one.
//!
//! Lesson 12 (trees and the cost model) steps through
//! [`EdgeTree::for_each_overlapping_pair_recorded`] with a recorder that keeps every
//! test, and times [`EdgeTree::node_test`] and [`EdgeTree::item_test`], the descent's
//! own two tests, to measure Cv and Cp of Liu, Jiang and Shi's (2018) cost model
//! T = Nv·Cv + Np·Cp on the machine it runs on. Every other caller passes `()` as the
//! recorder: its calls are empty and inlined, so the world's queries pay nothing.

use super::EdgeTree;
use crate::bounds::{Aabb, BoundingVolume};
use crate::math::{Pose, Vec2};

/// What a pairwise descent reports, in the order it tests: each node pair (Nv) and each
/// item pair at two leaves (Np), with the outcome. Both default to doing nothing.
pub trait PairRecorder {
    /// Node `a` of the first tree and node `b` of the other were tested; `overlap`:
    /// their volumes overlap, so the pair is opened (else pruned with its subtrees).
    #[inline(always)]
    fn node_pair(&mut self, a: usize, b: usize, overlap: bool) {
        let _ = (a, b, overlap);
    }

    /// Item `a` of the first tree and item `b` of the other (two leaves' items) were
    /// tested; `overlap`: their boxes overlap, and the pair goes to the caller.
    #[inline(always)]
    fn item_pair(&mut self, a: usize, b: usize, overlap: bool) {
        let _ = (a, b, overlap);
    }
}

/// The recorder of every plain query: records nothing, costs nothing.
impl PairRecorder for () {}

/// One node of a tree, read-only (local frame of the tree's polygon).
#[derive(Clone, Debug, PartialEq)]
pub struct NodeView<'a> {
    /// The volume the queries prune with (its box, for a tree of boxes).
    pub volume: BoundingVolume,
    /// The node's box (every tree keeps one: the split uses it).
    pub bounds: Aabb,
    /// Inner node: its two children (left, right). `None` for a leaf.
    pub children: Option<[usize; 2]>,
    /// Leaf: the items it holds (edge indices, in leaf order). Empty for an inner node.
    pub items: &'a [u32],
}

impl EdgeTree {
    /// Node `i` (pre-order: the root is 0, a left child follows its parent), or `None`
    /// past the last node.
    pub fn node(&self, i: usize) -> Option<NodeView<'_>> {
        let n = self.nodes.get(i)?;
        let (children, items) = if n.count > 0 {
            let first = n.first_or_right as usize;
            (None, &self.order[first..first + n.count as usize])
        } else {
            (Some([i + 1, n.first_or_right as usize]), &[][..])
        };
        Some(NodeView {
            volume: self.volume(i),
            bounds: n.bounds,
            children,
            items,
        })
    }

    /// True when the pairwise tests of this tree against `other` use boxes alone (both
    /// trees are trees of boxes): the fast path of [`EdgeTree::node_test`].
    pub fn boxes_only(&self, other: &EdgeTree) -> bool {
        self.volumes.is_empty() && other.volumes.is_empty()
    }

    /// Node `j`'s volume turned into another tree's frame by `xf_ab` (this tree's frame
    /// to that one's) and grown by `margin` metres: what the other tree's nodes are tested
    /// against when this tree is the `other` of a pairwise descent.
    pub fn node_volume_moved(&self, j: usize, xf_ab: &Pose, margin: f32) -> BoundingVolume {
        self.volume(j).moved(xf_ab, margin)
    }

    /// The descent's node test (one unit of Nv): does node `i`'s volume overlap node `j`
    /// of `other` turned into this frame by `xf_ab` and grown by `margin`? `boxes_only`
    /// must be [`EdgeTree::boxes_only`]: the boxes' path turns B's box's corners and
    /// boxes them again, without building a [`BoundingVolume`].
    #[inline(always)]
    pub fn node_test(&self, i: usize, other: &EdgeTree, j: usize, xf_ab: &Pose, margin: f32, boxes_only: bool) -> bool {
        if boxes_only {
            self.nodes[i]
                .bounds
                .overlaps(&box_in_a(&other.nodes[j].bounds, xf_ab, margin))
        } else {
            self.volume(i).overlaps(&other.volume(j).moved(xf_ab, margin))
        }
    }

    /// The descent's item test (one unit of Np): do the boxes of item `a` and of
    /// `other`'s item `b` (turned into this frame, boxed again, grown by `margin`)
    /// overlap? Boxes whatever the node volume: leaves hold edges, not volumes.
    #[inline(always)]
    pub fn item_test(&self, a: usize, other: &EdgeTree, b: usize, xf_ab: &Pose, margin: f32) -> bool {
        self.item_bounds[a].overlaps(&box_in_a(&other.item_bounds[b], xf_ab, margin))
    }
}

/// `b` (frame B) turned into frame A by `xf_ab`, boxed again and grown by `margin`.
#[inline(always)]
fn box_in_a(b: &Aabb, xf_ab: &Pose, margin: f32) -> Aabb {
    let corners = [b.min, Vec2::new(b.max.x, b.min.y), b.max, Vec2::new(b.min.x, b.max.y)];
    Aabb::from_points(&corners.map(|c| xf_ab.apply_point(c))).inflated(margin)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bounds::BoundKind;

    /// A recorder that keeps every test.
    #[derive(Default)]
    struct Log(Vec<(bool, usize, usize, bool)>);

    impl PairRecorder for Log {
        fn node_pair(&mut self, a: usize, b: usize, overlap: bool) {
            self.0.push((true, a, b, overlap));
        }
        fn item_pair(&mut self, a: usize, b: usize, overlap: bool) {
            self.0.push((false, a, b, overlap));
        }
    }

    /// The recorded descent finds the same pairs and counts the same tests as the plain
    /// one, for every node volume; its node tests agree with `node_test`.
    #[test]
    fn the_recorded_descent_is_the_plain_descent() {
        let ring: Vec<Vec2> = (0..120)
            .map(|i| Vec2::from_angle(i as f32 * 0.0523599) * (2.0 + 0.4 * (i as f32 * 0.7).sin()))
            .collect();
        let square = [
            Vec2::new(-0.3, -0.3),
            Vec2::new(0.3, -0.3),
            Vec2::new(0.3, 0.3),
            Vec2::new(-0.3, 0.3),
        ];
        let pose_b = Pose::new(Vec2::new(2.1, 0.2), 0.4);
        for kind in BoundKind::ALL {
            let a = EdgeTree::over_edges_with(&ring, kind);
            let b = EdgeTree::over_edges_with(&square, kind);
            let mut plain = Vec::new();
            let n_plain = a.for_each_overlapping_pair(&Pose::IDENTITY, &b, &pose_b, 0.0, |i, j| plain.push((i, j)));
            let mut recorded = Vec::new();
            let mut log = Log::default();
            let n_recorded = a.for_each_overlapping_pair_recorded(
                &Pose::IDENTITY,
                &b,
                &pose_b,
                0.0,
                |i, j| recorded.push((i, j)),
                &mut log,
            );
            assert_eq!((plain.clone(), n_plain), (recorded, n_recorded), "{kind:?}");
            assert!(!plain.is_empty(), "{kind:?}: the square crosses the ring");
            assert_eq!(log.0.len() as u32, n_plain);
            let boxes_only = a.boxes_only(&b);
            let xf_ab = Pose::IDENTITY.inv_mul(&pose_b);
            for &(node, i, j, overlap) in &log.0 {
                if node {
                    assert_eq!(a.node_test(i, &b, j, &xf_ab, 0.0, boxes_only), overlap);
                    let v = a.node(i).expect("a node");
                    assert_eq!(v.children.is_none(), !v.items.is_empty());
                }
            }
        }
    }
}
