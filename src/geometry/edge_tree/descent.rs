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
        self.item_bounds[a].overlaps(&other.item_box_in(b, xf_ab, margin))
    }

    /// Item `b`'s box turned into another tree's frame by `xf_ab`, boxed again and grown
    /// by `margin`: the box [`EdgeTree::item_test`] tests the other tree's items against.
    #[inline(always)]
    pub(super) fn item_box_in(&self, b: usize, xf_ab: &Pose, margin: f32) -> Aabb {
        box_in_a(&self.item_bounds[b], xf_ab, margin)
    }
}

/// `b` (frame B) turned into frame A by `xf_ab`, boxed again and grown by `margin`.
///
/// The box of the four turned corners (`Aabb::posed`) to the bit, in half its
/// arithmetic: a turned corner's x is fl(fl(c·x) − fl(s·y)) + tx, and rounding to
/// nearest is monotone in each operand, so its least value over the corners is
/// fl(fl(min c·x − max s·y) + tx), the products taken at the box's two x and two y
/// (and the same for the greatest, and for y' = s·x + c·y). Eight products and four sums
/// instead of sixteen and eight, and comparisons instead of `f32::min`'s NaN rule. The
/// descent turns one of these for every node pair and item pair it tests: on the
/// decomposed queries of `examples/gjk_workload.rs` the corners' turns and boxing were
/// about a tenth of all instructions. (Only the sign of a zero corner can differ.)
#[inline(always)]
fn box_in_a(b: &Aabb, xf_ab: &Pose, margin: f32) -> Aabb {
    let (c, s) = (xf_ab.rotation.cos, xf_ab.rotation.sin);
    let ordered = |p: f32, q: f32| if q < p { (q, p) } else { (p, q) };
    let (cx_lo, cx_hi) = ordered(c * b.min.x, c * b.max.x);
    let (sy_lo, sy_hi) = ordered(s * b.min.y, s * b.max.y);
    let (sx_lo, sx_hi) = ordered(s * b.min.x, s * b.max.x);
    let (cy_lo, cy_hi) = ordered(c * b.min.y, c * b.max.y);
    let t = xf_ab.translation;
    Aabb {
        min: Vec2::new((cx_lo - sy_hi) + t.x, (sx_lo + cy_lo) + t.y),
        max: Vec2::new((cx_hi - sy_lo) + t.x, (sx_hi + cy_hi) + t.y),
    }
    .inflated(margin)
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

    /// `box_in_a` gives the box of the four turned corners to the bit.
    #[test]
    fn box_in_a_is_the_box_of_the_turned_corners() {
        let mut rng = crate::geometry::families::SplitMix64::new(3);
        let mut next = || rng.range_f32(-1.0, 1.0);
        for k in 0..2000 {
            let size = if k % 3 == 0 { 1e4 } else { 1.0 };
            let (x, y) = (next() * size, next() * size);
            let b = Aabb::new(Vec2::new(x, y), Vec2::new(x + next().abs(), y + next().abs() * size));
            let angle = if k % 7 == 0 {
                (k / 7 % 4) as f32 * std::f32::consts::FRAC_PI_2
            } else {
                next() * 4.0
            };
            let pose = Pose::new(Vec2::new(next() * 3.0, next() * size), angle);
            let got = box_in_a(&b, &pose, 0.25);
            let want = b.posed(&pose).inflated(0.25);
            let bits = |a: &Aabb| [a.min.x, a.min.y, a.max.x, a.max.y].map(|v| if v == 0.0 { 0 } else { v.to_bits() });
            assert_eq!(bits(&got), bits(&want), "{b:?} {pose:?}");
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
