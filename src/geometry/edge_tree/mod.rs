//! A static bounding-volume tree over a polygon's edges (and, with the same code, over
//! its convex pieces): Liu et al.'s (2018) hierarchy, in 2D, with axis-aligned boxes.
//!
//! Liu, Jiang and Shi (2018) make meshes of 15k–125k triangles collide quickly by
//! descending a tree of bounding volumes only where volumes overlap, so that the cost
//! T = Nv·Cv + Np·Cp has few primitive tests. In 2D the primitives are edges. Two
//! queries use the tree here, and both give *bit-identical* answers to the brute-force
//! loops they replace:
//!
//! - [`EdgeTree::project`]: the interval of every vertex projected on an axis
//!   (Fayzrakhmanov et al.'s (2015) step 4, `narrow::sat_nonconvex`). An overlap test cannot prune here — the extremes over *all*
//!   vertices are asked for — but a node's box bounds its vertices' projections: the box
//!   corner furthest along the axis projects at least as far as any vertex inside
//!   (rounding is monotone: x ≤ X gives fl(x·a) ≤ fl(X·a) for a ≥ 0, and sums likewise),
//!   so a node whose corner does not beat the best vertex so far is skipped. Best-first
//!   descent visits O(log n) nodes on typical outlines instead of n vertices.
//! - [`EdgeTree::for_each_overlapping_pair`]: pairwise descent of two trees into node
//!   pairs whose boxes overlap (B's boxes turned into A's frame), handing the leaf items
//!   that may touch to the caller (the exact overlap test clips only those piece pairs).
//!
//! **Node volumes.** Nodes are bounded by axis-aligned boxes unless the tree is built
//! with another [`BoundKind`] (`over_edges_with`: circle, OBB, 8-DOP; the OBB-tree of
//! Gottschalk, Lin and Manocha, 1996, in 2D). The queries then prune with that volume's
//! own bounds (`BoundingVolume::max_along`, `moved`, `gap_to`), each erring on the safe
//! side by more than its rounding, so every kind gives the same answers as the boxes
//! (`tests/edge_tree.rs`); only the number of nodes visited and the cost of a visit
//! differ (`bench --big-curve`). Splits always use the boxes.
//!
//! **Reading the tree.** The nodes stay private, but [`EdgeTree::node`] hands out a
//! read-only [`NodeView`] (volume, children or items), and
//! [`EdgeTree::for_each_overlapping_pair_recorded`] reports every node pair and item pair
//! it tests to a [`PairRecorder`] (`descent.rs`): lesson 12 steps through a descent with
//! it. The plain query passes `()`, whose empty calls compile to nothing.
//!
//! Built once, at `Polygon::new`, by halving: a node over a run of items splits it at the
//! median of the items' box centres along the longer side of its box (O(n log n)),
//! leaves of at most [`LEAF_ITEMS`] items. Nodes are stored in pre-order, so the left
//! child of node i is i + 1.

mod descent;

pub use descent::{NodeView, PairRecorder};

use crate::bounds::{Aabb, BoundKind, BoundingVolume};
use crate::math::{Pose, Vec2};

/// Items per leaf. Eight vertices project in about the time a node's box test takes, so
/// smaller leaves only add nodes; much larger leaves prune less.
pub const LEAF_ITEMS: usize = 8;

/// One node: its box (local frame) and either two children or a run of items.
#[derive(Clone, Debug, PartialEq)]
struct Node {
    bounds: Aabb,
    /// Leaf: first index into `order`. Inner: index of the right child.
    first_or_right: u32,
    /// Leaf: number of items (≥ 1). Inner: 0.
    count: u32,
}

/// The work of one projection through the tree: nodes whose box was tested (Nv) and
/// vertices projected at the leaves.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ProjectionCost {
    /// Nodes visited.
    pub nodes: u32,
    /// Vertices projected.
    pub vertices: u32,
}

/// A static AABB tree over a list of items (a polygon's edges, or its convex pieces),
/// each item with a box in the polygon's local frame. See the module docs.
#[derive(Clone, Debug, PartialEq)]
pub struct EdgeTree {
    nodes: Vec<Node>,
    /// Item indices in leaf order.
    order: Vec<u32>,
    /// Each item's box, by item index.
    item_bounds: Vec<Aabb>,
    /// The node volume the queries prune with. Every tree keeps its nodes' boxes (the
    /// split uses them); a tree of another kind also has `volumes`.
    kind: BoundKind,
    /// Per node, its volume of `kind` around its items' points (empty for boxes).
    volumes: Vec<BoundingVolume>,
    /// Per item, the points its volume holds (an edge's two ends twice, a box's corners).
    item_points: Vec<[Vec2; 4]>,
}

impl EdgeTree {
    /// The tree over the edges of a closed outline: edge i runs from vertex i to vertex
    /// i + 1 (wrapping), and its box holds both ends.
    pub fn over_edges(vertices: &[Vec2]) -> EdgeTree {
        EdgeTree::over_edges_with(vertices, BoundKind::Aabb)
    }

    /// [`EdgeTree::over_edges`] with nodes bounded by volumes of `kind` (the answers are
    /// the same for every kind; only the work differs).
    pub fn over_edges_with(vertices: &[Vec2], kind: BoundKind) -> EdgeTree {
        let n = vertices.len();
        let ends = |i: usize| (vertices[i], vertices[(i + 1) % n]);
        let boxes = (0..n)
            .map(|i| {
                let (p, q) = ends(i);
                Aabb::from_points(&[p, q])
            })
            .collect();
        let points = (0..n)
            .map(|i| {
                let (p, q) = ends(i);
                [p, q, p, q]
            })
            .collect();
        EdgeTree::build_tree(boxes, points, kind)
    }

    /// The tree over arbitrary item boxes (local frame).
    pub fn over_boxes(item_bounds: Vec<Aabb>) -> EdgeTree {
        EdgeTree::over_boxes_with(item_bounds, BoundKind::Aabb)
    }

    /// [`EdgeTree::over_boxes`] with nodes bounded by volumes of `kind`.
    pub fn over_boxes_with(item_bounds: Vec<Aabb>, kind: BoundKind) -> EdgeTree {
        let points = item_bounds
            .iter()
            .map(|b| [b.min, Vec2::new(b.max.x, b.min.y), b.max, Vec2::new(b.min.x, b.max.y)])
            .collect();
        EdgeTree::build_tree(item_bounds, points, kind)
    }

    fn build_tree(item_bounds: Vec<Aabb>, item_points: Vec<[Vec2; 4]>, kind: BoundKind) -> EdgeTree {
        let mut tree = EdgeTree {
            nodes: Vec::with_capacity(2 * item_bounds.len() / LEAF_ITEMS + 1),
            order: (0..item_bounds.len() as u32).collect(),
            item_bounds,
            kind,
            volumes: Vec::new(),
            item_points: if kind == BoundKind::Aabb {
                Vec::new()
            } else {
                item_points
            },
        };
        if !tree.order.is_empty() {
            tree.build(0, tree.order.len());
        }
        tree
    }

    /// Builds the node over `order[lo..hi]` and its subtree; returns its index.
    fn build(&mut self, lo: usize, hi: usize) -> usize {
        let bounds = self.order[lo..hi]
            .iter()
            .map(|&i| self.item_bounds[i as usize])
            .reduce(|a, b| a.union(&b))
            .expect("non-empty run");
        let index = self.nodes.len();
        self.nodes.push(Node {
            bounds,
            first_or_right: lo as u32,
            count: (hi - lo) as u32,
        });
        if self.kind != BoundKind::Aabb {
            let points: Vec<Vec2> = self.order[lo..hi]
                .iter()
                .flat_map(|&i| self.item_points[i as usize])
                .collect();
            self.volumes.push(BoundingVolume::around_points(&points, self.kind));
        }
        if hi - lo <= LEAF_ITEMS {
            return index;
        }
        let extent = bounds.max - bounds.min;
        let along_x = extent.x >= extent.y;
        let key = |b: &Aabb| {
            let c = b.center();
            if along_x {
                c.x
            } else {
                c.y
            }
        };
        let mid = (lo + hi) / 2;
        let boxes = &self.item_bounds;
        self.order[lo..hi].select_nth_unstable_by(mid - lo, |&i, &j| {
            key(&boxes[i as usize]).total_cmp(&key(&boxes[j as usize]))
        });
        self.build(lo, mid);
        let right = self.build(mid, hi);
        self.nodes[index].first_or_right = right as u32;
        self.nodes[index].count = 0;
        index
    }

    /// The kind of volume the nodes are bounded by.
    pub fn kind(&self) -> BoundKind {
        self.kind
    }

    /// Node `i`'s volume (its box, for a tree of boxes).
    fn volume(&self, i: usize) -> BoundingVolume {
        match self.volumes.get(i) {
            Some(v) => v.clone(),
            None => BoundingVolume::Aabb(self.nodes[i].bounds),
        }
    }

    /// An upper bound on the projection of node `i`'s points on `axis`.
    #[inline]
    fn bound_along(&self, i: usize, axis: Vec2) -> f32 {
        match self.volumes.get(i) {
            Some(v) => v.max_along(axis),
            None => {
                // A tree of boxes: the box corner furthest along the axis, projected with
                // the vertices' own formula (exact in the rounding sense, module docs).
                // Written out here, not through `max_along`: this is the inner loop of
                // NonConvexSat's projections.
                let b = &self.nodes[i].bounds;
                let x = if axis.x >= 0.0 { b.max.x } else { b.min.x };
                let y = if axis.y >= 0.0 { b.max.y } else { b.min.y };
                x * axis.x + y * axis.y
            }
        }
    }

    /// Number of nodes (leaves and inner nodes).
    pub fn node_count(&self) -> usize {
        self.nodes.len()
    }

    /// The root's box (the polygon's local box), or `None` for an empty tree.
    pub fn bounds(&self) -> Option<Aabb> {
        self.nodes.first().map(|n| n.bounds)
    }

    /// The largest projection of `vertices` (the outline the tree was built over, local
    /// frame) on `axis`, and the work it took. Equal, bit for bit, to the
    /// maximum over every vertex of `v.x·axis.x + v.y·axis.y` (see the module docs).
    /// Edge i contributes its start vertex i, so every vertex is counted once.
    pub fn max_projection(&self, vertices: &[Vec2], axis: Vec2) -> (f32, ProjectionCost) {
        // A box: its corner furthest along the axis, projected with the vertices'
        // formula; another volume: its support, with a slack for rounding. Two copies of
        // the descent, so the boxes' inner loop asks nothing about the kind.
        if self.volumes.is_empty() {
            self.max_projection_by(vertices, axis, |i| self.bound_along(i, axis))
        } else {
            self.max_projection_by(vertices, axis, |i| self.volumes[i].max_along(axis))
        }
    }

    /// [`EdgeTree::max_projection`] with node `i`'s bound given by `corner(i)`.
    #[inline]
    fn max_projection_by(&self, vertices: &[Vec2], axis: Vec2, corner: impl Fn(usize) -> f32) -> (f32, ProjectionCost) {
        let mut best = f32::NEG_INFINITY;
        let mut cost = ProjectionCost::default();
        let mut stack: [u32; 64] = [0; 64];
        let mut top = 0;
        if self.nodes.is_empty() {
            return (best, cost);
        }
        stack[0] = 0;
        top += 1;
        while top > 0 {
            top -= 1;
            let i = stack[top] as usize;
            let node = &self.nodes[i];
            cost.nodes += 1;
            if corner(i) <= best {
                continue;
            }
            if node.count > 0 {
                let first = node.first_or_right as usize;
                cost.vertices += node.count;
                for &edge in &self.order[first..first + node.count as usize] {
                    let v = vertices[edge as usize];
                    let d = v.x * axis.x + v.y * axis.y;
                    best = if d > best { d } else { best };
                }
                continue;
            }
            // Best first: push the less promising child first so the other pops next.
            let (left, right) = (i + 1, node.first_or_right as usize);
            let (near, far) = if corner(left) >= corner(right) {
                (left, right)
            } else {
                (right, left)
            };
            // Depth is at most log2(n / LEAF_ITEMS) + 1 < 32 for any u32 count, and the
            // stack holds at most one pending sibling per level plus the pair pushed here.
            stack[top] = far as u32;
            stack[top + 1] = near as u32;
            top += 2;
        }
        (best, cost)
    }

    /// `[min, max]` of `vertices` projected on `axis` and the nodes visited; equal, bit
    /// for bit, to the brute-force loop (min is minus the max along −axis, and negation
    /// is exact).
    pub fn project(&self, vertices: &[Vec2], axis: Vec2) -> ((f32, f32), ProjectionCost) {
        let (hi, c1) = self.max_projection(vertices, axis);
        let (neg_lo, c2) = self.max_projection(vertices, -axis);
        let cost = ProjectionCost {
            nodes: c1.nodes + c2.nodes,
            vertices: c1.vertices + c2.vertices,
        };
        ((-neg_lo, hi), cost)
    }

    /// Calls `visit(i, j)` for every item i of this tree (frame of `pose_a`) and item j
    /// of `other` (frame of `pose_b`) whose boxes overlap once both are in A's frame
    /// (B's boxes turned into A's frame and boxed again, grown by `margin` metres, so the
    /// test is conservative). Returns the number of box tests (Nv).
    pub fn for_each_overlapping_pair(
        &self,
        pose_a: &Pose,
        other: &EdgeTree,
        pose_b: &Pose,
        margin: f32,
        visit: impl FnMut(usize, usize),
    ) -> u32 {
        self.for_each_overlapping_pair_recorded(pose_a, other, pose_b, margin, visit, &mut ())
    }

    /// [`EdgeTree::for_each_overlapping_pair`], reporting each node pair and item pair it
    /// tests, with the outcome, to `recorder` in the order tested.
    pub fn for_each_overlapping_pair_recorded<R: PairRecorder>(
        &self,
        pose_a: &Pose,
        other: &EdgeTree,
        pose_b: &Pose,
        margin: f32,
        mut visit: impl FnMut(usize, usize),
        recorder: &mut R,
    ) -> u32 {
        if self.nodes.is_empty() || other.nodes.is_empty() {
            return 0;
        }
        let xf_ab = pose_a.inv_mul(pose_b);
        let boxes_only = self.volumes.is_empty() && other.volumes.is_empty();
        let mut tests = 0;
        // Inline: a world step descends these trees for every non-convex pair and must
        // not allocate; 64 entries hold the descent of trees 30 levels deep, and a deeper
        // one spills to the heap.
        let mut stack: smallvec::SmallVec<[(u32, u32); 64]> = smallvec::smallvec![(0, 0)];
        while let Some((i, j)) = stack.pop() {
            let (na, nb) = (&self.nodes[i as usize], &other.nodes[j as usize]);
            tests += 1;
            let overlap = self.node_test(i as usize, other, j as usize, &xf_ab, margin, boxes_only);
            recorder.node_pair(i as usize, j as usize, overlap);
            if !overlap {
                continue;
            }
            match (na.count > 0, nb.count > 0) {
                (true, true) => {
                    let fa = na.first_or_right as usize;
                    let fb = nb.first_or_right as usize;
                    let items_b = &other.order[fb..fb + nb.count as usize];
                    // B's items turned into A's frame once per leaf pair, not once per
                    // item pair (`item_test`'s boxes, the same bits): two full leaves
                    // test 64 item pairs with 8 turned boxes instead of 64.
                    debug_assert!(items_b.len() <= LEAF_ITEMS, "a leaf holds at most LEAF_ITEMS items");
                    let mut boxes_b = [Aabb::new(Vec2::ZERO, Vec2::ZERO); LEAF_ITEMS];
                    for (slot, &jb) in boxes_b.iter_mut().zip(items_b) {
                        *slot = other.item_box_in(jb as usize, &xf_ab, margin);
                    }
                    for &ia in &self.order[fa..fa + na.count as usize] {
                        let box_a = &self.item_bounds[ia as usize];
                        for (&jb, box_b) in items_b.iter().zip(&boxes_b) {
                            tests += 1;
                            let hit = box_a.overlaps(box_b);
                            recorder.item_pair(ia as usize, jb as usize, hit);
                            if hit {
                                visit(ia as usize, jb as usize);
                            }
                        }
                    }
                }
                // Descend the larger box first (or the only inner node).
                (false, true) => stack.extend([(i + 1, j), (na.first_or_right, j)]),
                (true, false) => stack.extend([(i, j + 1), (i, nb.first_or_right)]),
                (false, false) => {
                    if na.bounds.area() >= nb.bounds.area() {
                        stack.extend([(i + 1, j), (na.first_or_right, j)]);
                    } else {
                        stack.extend([(i, j + 1), (i, nb.first_or_right)]);
                    }
                }
            }
        }
        tests
    }

    /// Item `i`'s box (the tree's frame).
    pub fn item_bounds(&self, i: usize) -> Aabb {
        self.item_bounds[i]
    }

    /// Calls `visit(i, j, gap)` for every item i of this tree (frame of `pose_a`) and
    /// item j of `other` (frame of `pose_b`) whose boxes are at most `max_gap` apart in
    /// A's frame (B's boxes turned into it and boxed again), with that gap: a lower bound
    /// on the distance between the two items, 0 when the boxes overlap. Returns the
    /// number of box tests (Nv).
    ///
    /// The combine step (`narrow::combine`) scans the piece pairs near the origin of the
    /// Minkowski difference in rings of growing gap with this, instead of measuring every
    /// pair of pieces; node pairs farther apart than `max_gap` are never opened.
    pub fn for_each_pair_within(
        &self,
        pose_a: &Pose,
        other: &EdgeTree,
        pose_b: &Pose,
        max_gap: f32,
        mut visit: impl FnMut(usize, usize, f32),
    ) -> u32 {
        if self.nodes.is_empty() || other.nodes.is_empty() {
            return 0;
        }
        let xf_ab = pose_a.inv_mul(pose_b);
        let mut tests = 0;
        // Inline, as in `for_each_overlapping_pair`: a world step must not allocate.
        let mut stack: smallvec::SmallVec<[(u32, u32); 64]> = smallvec::smallvec![(0, 0)];
        while let Some((i, j)) = stack.pop() {
            let (na, nb) = (&self.nodes[i as usize], &other.nodes[j as usize]);
            tests += 1;
            if na.bounds.gap(&nb.bounds.posed(&xf_ab)) > max_gap {
                continue;
            }
            match (na.count > 0, nb.count > 0) {
                (true, true) => {
                    let fa = na.first_or_right as usize;
                    let fb = nb.first_or_right as usize;
                    for &jb in &other.order[fb..fb + nb.count as usize] {
                        let box_b = other.item_bounds[jb as usize].posed(&xf_ab);
                        for &ia in &self.order[fa..fa + na.count as usize] {
                            tests += 1;
                            let gap = self.item_bounds[ia as usize].gap(&box_b);
                            if gap <= max_gap {
                                visit(ia as usize, jb as usize, gap);
                            }
                        }
                    }
                }
                (false, true) => stack.extend([(i + 1, j), (na.first_or_right, j)]),
                (true, false) => stack.extend([(i, j + 1), (i, nb.first_or_right)]),
                (false, false) => {
                    if na.bounds.area() >= nb.bounds.area() {
                        stack.extend([(i + 1, j), (na.first_or_right, j)]);
                    } else {
                        stack.extend([(i, j + 1), (i, nb.first_or_right)]);
                    }
                }
            }
        }
        tests
    }

    /// Lower bound on the distance between items of this tree (frame of `pose_a`) and
    /// `other` (frame of `pose_b`): branch and bound over node pairs, calling
    /// `item_distance(i, j)` only for item pairs whose boxes could be nearer than the
    /// best found. Returns the least item distance (exact when `item_distance` is).
    pub fn min_item_distance(
        &self,
        pose_a: &Pose,
        other: &EdgeTree,
        pose_b: &Pose,
        mut item_distance: impl FnMut(usize, usize) -> f32,
    ) -> f32 {
        if self.nodes.is_empty() || other.nodes.is_empty() {
            return f32::INFINITY;
        }
        let xf_ab = pose_a.inv_mul(pose_b);
        let to_a = |b: &Aabb| {
            let corners = [b.min, Vec2::new(b.max.x, b.min.y), b.max, Vec2::new(b.min.x, b.max.y)];
            Aabb::from_points(&corners.map(|c| xf_ab.apply_point(c)))
        };
        let box_gap = |p: &Aabb, q: &Aabb| {
            let d = (p.min - q.max).max(q.min - p.max).max(Vec2::ZERO);
            d.length()
        };
        let boxes_only = self.volumes.is_empty() && other.volumes.is_empty();
        let mut best = f32::INFINITY;
        // Inline: a world step descends these trees for every non-convex pair and must
        // not allocate; 64 entries hold the descent of trees 30 levels deep, and a deeper
        // one spills to the heap.
        let mut stack: smallvec::SmallVec<[(u32, u32); 64]> = smallvec::smallvec![(0, 0)];
        while let Some((i, j)) = stack.pop() {
            let (na, nb) = (&self.nodes[i as usize], &other.nodes[j as usize]);
            let gap = if boxes_only {
                box_gap(&na.bounds, &to_a(&nb.bounds))
            } else {
                self.volume(i as usize)
                    .gap_to(&other.volume(j as usize).moved(&xf_ab, 0.0))
            };
            // A 1e-6 relative slack: the volumes of B are rounded into A's frame.
            if gap * (1.0 - 1e-6) > best {
                continue;
            }
            match (na.count > 0, nb.count > 0) {
                (true, true) => {
                    let fa = na.first_or_right as usize;
                    let fb = nb.first_or_right as usize;
                    for &ia in &self.order[fa..fa + na.count as usize] {
                        for &jb in &other.order[fb..fb + nb.count as usize] {
                            best = best.min(item_distance(ia as usize, jb as usize));
                        }
                    }
                }
                (false, true) => stack.extend([(i + 1, j), (na.first_or_right, j)]),
                (true, false) => stack.extend([(i, j + 1), (i, nb.first_or_right)]),
                (false, false) => {
                    if na.bounds.area() >= nb.bounds.area() {
                        stack.extend([(i + 1, j), (na.first_or_right, j)]);
                    } else {
                        stack.extend([(i, j + 1), (i, nb.first_or_right)]);
                    }
                }
            }
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Projection through the tree equals the brute-force loop, bit for bit.
    #[test]
    fn projection_matches_brute_force() {
        let vertices: Vec<Vec2> = (0..500)
            .map(|i| {
                let t = i as f32 * 0.0125663;
                Vec2::from_angle(t) * (1.0 + 0.3 * (7.0 * t).sin())
            })
            .collect();
        let tree = EdgeTree::over_edges(&vertices);
        for k in 0..100 {
            let axis = Vec2::from_angle(k as f32 * 0.0628 + 0.01);
            let ((lo, hi), visited) = tree.project(&vertices, axis);
            let brute_hi = vertices
                .iter()
                .map(|v| v.x * axis.x + v.y * axis.y)
                .fold(f32::MIN, f32::max);
            let brute_lo = vertices
                .iter()
                .map(|v| v.x * axis.x + v.y * axis.y)
                .fold(f32::MAX, f32::min);
            assert_eq!((lo, hi), (brute_lo, brute_hi));
            assert!(visited.nodes < tree.node_count() as u32);
        }
    }
}
