//! The two bodies as the combine step's search reads them: their shapes, B's pose in
//! A's frame, where lower bounds on the piece pairs' distances come from, and the
//! piece loop's findings. Split from `combine.rs`.

use super::*;

/// Where the search gets lower bounds on the piece pairs' distances from.
#[derive(Clone, Copy)]
pub(super) enum PieceBoxes<'a> {
    /// Every piece's box in A's frame (`CompoundScratch::boxes_in_a`), compared pair by
    /// pair, and the box of each side's boxes (made once: the shortcut's check asks for
    /// them on every try, the search once a run).
    InA {
        boxes_a: &'a [Aabb],
        boxes_b: &'a [Aabb],
        all_a: Aabb,
        all_b: Aabb,
    },
    /// The polygons' piece trees: local boxes, B's turned into A's frame by `xf_ab`
    /// and compared there (the gap between two boxes bounds the distance between their
    /// pieces in any frame). The search then touches only the pieces near each other.
    Trees {
        tree_a: &'a EdgeTree,
        tree_b: &'a EdgeTree,
        xf_ab: Pose,
    },
}

/// The two bodies, their pieces' boxes and the tolerance: what the search reads. The
/// search runs in A's frame: A at the identity, B at `xf_ab`.
pub(super) struct Bodies<'a> {
    /// The query (its pieces for SAT's bounds).
    pub(super) query: ShapeQuery<'a>,
    pub(super) a: &'a Shape,
    pub(super) b: &'a Shape,
    /// B's pose in A's frame.
    pub(super) xf_ab: Pose,
    pub(super) boxes: PieceBoxes<'a>,
    /// The piece pairs the piece loop tested (every pair whose boxes touch, or every
    /// pair when `all_tested`): overlapping, and apart with a lower bound on their gap.
    pub(super) hits: &'a [(usize, usize, crate::narrow::PairPenetration)],
    pub(super) apart: &'a [(u32, u32, f32)],
    pub(super) all_tested: bool,
    /// The touching tolerance in A's frame (m): "strictly inside" means by more.
    pub(super) tol: f32,
    /// The touching tolerance of the world poses (m): the piece loop's gaps, measured
    /// with it, bound the pairs' distances to within it.
    pub(super) gap_margin: f32,
    /// A's rotation: turns the search's points into the world frame for the trace.
    pub(super) rotation_a: crate::math::Rot,
}

impl Bodies<'_> {
    /// A lower bound on the distance between piece i of A and piece j of B (the
    /// distance of their difference from the origin): the gap between their boxes.
    pub(super) fn pair_gap(&self, i: usize, j: usize) -> f32 {
        match &self.boxes {
            PieceBoxes::InA { boxes_a, boxes_b, .. } => box_distance(&boxes_a[i], &boxes_b[j]),
            PieceBoxes::Trees { tree_a, tree_b, xf_ab } => {
                tree_a.item_bounds(i).gap(&tree_b.item_bounds(j).posed(xf_ab))
            }
        }
    }
}
