//! Dynamic AABB tree: a bounding-volume hierarchy kept up to date incrementally.
//!
//! Sources: G. van den Bergen, "Efficient collision detection of complex deformable
//! models using AABB trees" (JGT, 1997) for refitting boxes instead of rebuilding;
//! E. Catto's `b2DynamicTree` in Box2D (v2.4 `b2_dynamic_tree.cpp`, v3 `dynamic_tree.c`)
//! for the fattened leaves, the surface-area insertion and the rotations. This is our own
//! implementation of those ideas.
//!
//! - **Leaves hold fattened boxes**: the body's box grown by a margin (and stretched
//!   along its last displacement). While the body's tight box stays inside, the tree is
//!   not touched; a body resting or moving slowly costs one containment test per step.
//! - **Insertion by the surface-area heuristic** (perimeter in 2D): walk down from the
//!   root, at each node comparing the cost of making the new leaf this node's sibling
//!   with the cheapest cost of pushing it into either child:
//!
//!   ```text
//!   direct = 2·P(node ∪ leaf)                      new parent above node
//!   inherit = 2·(P(node ∪ leaf) − P(node))          every ancestor below grows
//!   cost(child) = inherit + P(child ∪ leaf) [− P(child) if child is internal]
//!   stop when direct < both costs, else descend into the cheaper child
//!   ```
//!
//!   Perimeter, because the chance that a random query box hits a node grows with the
//!   node's perimeter (Minkowski sum of two boxes), not its area.
//! - **Rotations**: walking back up after an insert or a removal, a node whose children
//!   differ in height by more than 1 lifts the taller child into its place (an AVL-style
//!   single rotation). Without it, bodies added in a line (a row of boxes) build a list
//!   of depth N.
//! - **Removal**: the leaf's sibling takes the parent's place; ancestors are refitted.
//! - **Refit in place**: a leaf whose new fat box one of its nearest ancestors already
//!   holds keeps its place; only the nodes below that ancestor grow (Box2D v3's
//!   `b2DynamicTree_EnlargeProxy`; see `DynamicTree::move_proxy`).
//! - **Stable ids**: a proxy is named by its node index plus a generation counter bumped
//!   when the node is freed, so a stale id is refused instead of moving someone else.
//!
//! `tree_broad_phase.rs` uses this tree as a broad phase.

use crate::bounds::Aabb;
use crate::math::Vec2;

mod build;
mod join;
mod restructure;

/// Default margin by which leaves are fattened (metres): Box2D's `b2_aabbMargin`. Bodies
/// moving less than this per step (most bodies at rest or in a stack) are never
/// reinserted; a larger margin means fewer reinserts but looser boxes and more node tests.
pub const DEFAULT_TREE_MARGIN: f32 = 0.1;

/// "No node".
const NULL: u32 = u32::MAX;

/// Watches an insertion into a [`DynamicTree`] ([`DynamicTree::create_proxy_recorded`]):
/// every node of the descent with the costs that decided it, and every rotation on the
/// way back up. Every method has an empty default and the normal path passes
/// [`NoTreeRecord`], whose calls compile to nothing. The lessons record with it
/// (`lesson::topic`); it reads, it never steers.
pub trait TreeRecorder {
    /// At internal node `node` (its box), the new leaf `leaf`: `direct` is the cost of
    /// making the leaf this node's sibling, `costs[k]` of descending into child `k`
    /// (boxes `children[k]`); `chosen` is the child descended into, `None` when the
    /// descent stops here.
    fn descend(
        &mut self,
        _node: &Aabb,
        _leaf: &Aabb,
        _children: [&Aabb; 2],
        _direct: f32,
        _costs: [f32; 2],
        _chosen: Option<usize>,
    ) {
    }
    /// The descent ended at `sibling` (its box): a new parent holds it and the leaf.
    fn sibling(&mut self, _sibling: &Aabb) {}
    /// Rebalancing lifted the child with box `lifted` (height `lifted_height`) into the
    /// place of its parent, whose box was `demoted`.
    fn rotate(&mut self, _demoted: &Aabb, _lifted: &Aabb, _lifted_height: u32) {}
}

/// The recorder that records nothing (the normal path).
#[derive(Clone, Copy, Debug, Default)]
pub struct NoTreeRecord;

impl TreeRecorder for NoTreeRecord {}

/// A fat box is refitted when it has grown beyond the new fat box plus this many margins
/// (e.g. a fast body came to rest with a stretched box).
const SHRINK_MARGINS: f32 = 4.0;

/// [`DynamicTree::set_fat_boxes`] builds the tree again when at least one leaf in this
/// many has a new fat box …
const REBUILD_FRACTION: usize = 8;

/// … and at least this many do (a small tree is cheap to update either way). It is
/// refitted first (its shape kept, every box fitted again): bodies moving together
/// leave a good tree good. Only when that leaves the tree's cost (the sum of its
/// internal nodes' perimeters) more than this many times what it was when last built
/// whole is it built again.
const REBUILD_MIN: usize = 32;

/// See [`REBUILD_MIN`]. On the rain of 1000 polygons (which fall in step), a refit
/// instead of a build on the steps where most of them leave their fat boxes took the
/// broad phase from 0.080 to 0.067 ms a step while they fall; limits of 2 and 3 gave
/// the same.
const REFIT_GROWTH: f32 = 1.5;

/// How many ancestors of a moved leaf [`DynamicTree::move_proxy`] looks at for one that
/// already holds the new fat box before it reinserts the leaf. Three levels hold about
/// eight leaves, a pile's box and its neighbours; more would let a node grow over a
/// larger part of the tree before the next refit.
const REFIT_LEVELS: u32 = 3;

/// Names one proxy of a [`DynamicTree`]: node index and generation. An id whose proxy was
/// destroyed stays refused even after its node is reused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ProxyId {
    index: u32,
    generation: u32,
}

impl ProxyId {
    /// The node index (for drawing and debugging; not stable across destroy/create).
    pub fn index(self) -> u32 {
        self.index
    }
}

#[derive(Clone, Copy, Debug)]
struct Node {
    /// Leaves: the fattened box. Internal nodes: the union of the children's boxes.
    aabb: Aabb,
    parent: u32,
    child1: u32,
    /// `NULL` for a leaf.
    child2: u32,
    /// 0 for a leaf, 1 + the taller child's height otherwise.
    height: u32,
    /// Leaves: the caller's data (the broad phase stores the slot).
    user_data: u32,
    generation: u32,
    in_use: bool,
}

impl Node {
    fn is_leaf(&self) -> bool {
        self.child2 == NULL
    }
}

/// One tree node, for drawing.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TreeNodeView {
    /// The node's box (fattened for leaves), metres, world frame.
    pub aabb: Aabb,
    /// Distance from the root (root: 0).
    pub depth: u32,
    /// Height above the leaves (leaf: 0).
    pub height: u32,
    /// For a leaf, the caller's data (the broad phase: the proxy's slot); `None` for an
    /// internal node.
    pub leaf_data: Option<u32>,
}

/// The dynamic AABB tree itself, usable on its own with explicit proxy ids.
#[derive(Clone, Debug)]
pub struct DynamicTree {
    nodes: Vec<Node>,
    free: Vec<u32>,
    root: u32,
    margin: f32,
    leaves: usize,
    /// Scratch of [`Self::rebuild`]: each leaf with its box's centre …
    build_scratch: Vec<(Vec2, u32)>,
    /// … and of [`Self::refit_all`]: nodes to visit, and whether their children are done.
    refit_stack: Vec<(u32, bool)>,
    /// The tree's cost ([`Self::cost`]) when it was last built whole.
    built_cost: f32,
}

impl Default for DynamicTree {
    fn default() -> Self {
        DynamicTree::new(DEFAULT_TREE_MARGIN)
    }
}

impl DynamicTree {
    /// An empty tree fattening leaves by `margin` metres (a NaN, infinite or negative
    /// margin gives [`DEFAULT_TREE_MARGIN`]).
    pub fn new(margin: f32) -> Self {
        DynamicTree {
            nodes: Vec::new(),
            free: Vec::new(),
            root: NULL,
            margin: sanitize_margin(margin),
            leaves: 0,
            build_scratch: Vec::new(),
            refit_stack: Vec::new(),
            built_cost: 0.0,
        }
    }

    /// The fattening margin (metres).
    pub fn margin(&self) -> f32 {
        self.margin
    }

    /// Removes every proxy (buffers are kept; old ids are refused from now on).
    pub fn clear(&mut self) {
        for (i, node) in self.nodes.iter_mut().enumerate() {
            if node.in_use {
                node.in_use = false;
                node.generation = node.generation.wrapping_add(1);
                self.free.push(i as u32);
            }
        }
        self.root = NULL;
        self.leaves = 0;
    }

    /// Number of proxies (leaves).
    pub fn proxy_count(&self) -> usize {
        self.leaves
    }

    /// Nodes in use, leaves and internal (2·leaves − 1 when not empty).
    pub fn node_count(&self) -> usize {
        self.nodes.len() - self.free.len()
    }

    /// Height of the root (empty tree or a single leaf: 0).
    pub fn height(&self) -> u32 {
        self.node(self.root).map_or(0, |n| n.height)
    }

    /// Adds a proxy with tight box `aabb` (fattened by the margin) carrying `user_data`.
    pub fn create_proxy(&mut self, aabb: Aabb, user_data: u32) -> ProxyId {
        self.create_proxy_recorded(aabb, user_data, &mut NoTreeRecord)
    }

    /// [`Self::create_proxy`], telling `recorder` how the insertion went.
    #[inline]
    pub fn create_proxy_recorded<R: TreeRecorder>(&mut self, aabb: Aabb, user_data: u32, recorder: &mut R) -> ProxyId {
        let leaf = self.allocate();
        let node = &mut self.nodes[leaf as usize];
        node.aabb = aabb.inflated(self.margin);
        node.user_data = user_data;
        self.insert_leaf(leaf, recorder);
        self.leaves += 1;
        ProxyId {
            index: leaf,
            generation: self.nodes[leaf as usize].generation,
        }
    }

    /// Removes a proxy. Returns false (and does nothing) for a stale or unknown id.
    pub fn destroy_proxy(&mut self, id: ProxyId) -> bool {
        if !self.is_valid(id) {
            return false;
        }
        self.remove_leaf(id.index);
        self.release(id.index);
        self.leaves -= 1;
        true
    }

    /// True when `id` names a live proxy.
    pub fn is_valid(&self, id: ProxyId) -> bool {
        self.nodes
            .get(id.index as usize)
            .is_some_and(|n| n.in_use && n.is_leaf() && n.generation == id.generation)
    }

    /// Tells the tree the proxy's tight box is now `aabb` after moving by
    /// `displacement` (metres, world frame; pass zero for no prediction). The proxy gets
    /// a new fat box only when `aabb` left its fat box, or the fat box has become much
    /// too large (it is then refitted in place when a near ancestor holds the new box,
    /// else reinserted); the new fat box is `aabb` grown by the margin and stretched along
    /// `displacement`. Returns `Some(true)` when the fat box is new, `Some(false)` when the fat
    /// box still holds, `None` for a stale id.
    ///
    /// The same as [`Self::new_fat_box`] then [`Self::set_fat_boxes`] for this proxy
    /// alone.
    pub fn move_proxy(&mut self, id: ProxyId, aabb: Aabb, displacement: Vec2) -> Option<bool> {
        let fat = self.new_fat_box(id, aabb, displacement)?;
        if let Some(fat) = fat {
            self.place_leaf(id.index, fat);
        }
        Some(fat.is_some())
    }

    /// What [`Self::move_proxy`] would decide, without changing the tree: the proxy's new
    /// fat box (`Some(Some(fat))`), `Some(None)` when its fat box still holds, `None` for
    /// a stale id. A caller moving many proxies collects the new boxes and hands them to
    /// [`Self::set_fat_boxes`] together.
    pub fn new_fat_box(&self, id: ProxyId, aabb: Aabb, displacement: Vec2) -> Option<Option<Aabb>> {
        if !self.is_valid(id) {
            return None;
        }
        let old_fat = self.nodes[id.index as usize].aabb;
        let mut fat = aabb.inflated(self.margin);
        // Stretch towards the motion: next step's box is likely there (Box2D v2.4).
        let d = if displacement.is_finite() {
            displacement
        } else {
            Vec2::ZERO
        };
        if d.x < 0.0 {
            fat.min.x += d.x;
        } else {
            fat.max.x += d.x;
        }
        if d.y < 0.0 {
            fat.min.y += d.y;
        } else {
            fat.max.y += d.y;
        }
        // Too large: the old fat box is not inside the new one grown by a few margins.
        // The grown box also reaches back along the motion, where the old box was left
        // behind: without that, Box2D v2.4's test (the grown box alone) calls the box of
        // every body moving more than SHRINK_MARGINS margins per step too large and
        // reinserts it every step, however well it was predicted (a body falling faster
        // than 24 m/s at 60 Hz, with the default margin).
        let mut huge = fat.inflated(SHRINK_MARGINS * self.margin);
        if d.x < 0.0 {
            huge.max.x -= d.x;
        } else {
            huge.min.x -= d.x;
        }
        if d.y < 0.0 {
            huge.max.y -= d.y;
        } else {
            huge.min.y -= d.y;
        }
        let too_large = !contains_box(&huge, &old_fat);
        if contains_box(&old_fat, &aabb) && !too_large {
            return Some(None);
        }
        Some(Some(fat))
    }

    /// Gives each proxy of `moved` its new fat box (from [`Self::new_fat_box`]; stale ids
    /// are skipped). A few are placed one at a time (refitted in place, or removed and
    /// inserted again); when at least one proxy in `REBUILD_FRACTION` has a new box,
    /// the whole tree is built again from its leaves instead (`build.rs`).
    ///
    /// Why: bodies that move together leave their fat boxes together. The 1000 polygons
    /// of `scenes/rain_1000.ron` fall in step, and every fifth step some 650 of them
    /// needed a new box at once; one by one, each cost a removal, a descent from the root
    /// and the rotations back up (about 3,300 instructions), and those steps' broad phase
    /// took 0.45 ms against 0.03–0.07 ms for the steps between. A build of the whole tree
    /// costs about 900 instructions a leaf (0.28 ms for those steps). The fat boxes, and
    /// so the pairs, are the same either way: only the shape of the tree differs.
    ///
    /// Returns whether the whole tree was refitted or built again: a caller keeping
    /// pairs then finds them all at once (`join.rs`) rather than one query per moved
    /// proxy.
    pub fn set_fat_boxes(&mut self, moved: &[(ProxyId, Aabb)]) -> bool {
        let many = moved.len() >= REBUILD_MIN && moved.len() * REBUILD_FRACTION >= self.leaves;
        for &(id, fat) in moved {
            if !self.is_valid(id) {
                continue;
            }
            if many {
                self.nodes[id.index as usize].aabb = fat;
            } else {
                self.place_leaf(id.index, fat);
            }
        }
        if many {
            let refitted = self.refit_all();
            let still_good = refitted.is_finite() && refitted <= REFIT_GROWTH * self.built_cost;
            if !still_good {
                self.rebuild();
                self.built_cost = self.cost();
            }
        }
        many
    }

    /// Gives `leaf` the fat box `fat`: refitted in place when a near ancestor holds it,
    /// else removed and inserted again.
    fn place_leaf(&mut self, leaf: u32, fat: Aabb) {
        if !self.refit_in_place(leaf, fat) {
            self.remove_leaf(leaf);
            self.nodes[leaf as usize].aabb = fat;
            self.insert_leaf(leaf, &mut NoTreeRecord);
        }
    }

    /// Gives `leaf` the fat box `fat` where it stands, when one of its nearest
    /// [`REFIT_LEVELS`] ancestors already holds `fat`: the nodes below that ancestor
    /// grow to hold it, and nothing above changes. Returns false (and changes nothing)
    /// when none does; the caller then reinserts the leaf.
    ///
    /// A body swaying or settling in a pile leaves its fat box by a few millimetres,
    /// and a new fat box still lies among its neighbours'. Removing and reinserting
    /// it cost a removal with its refit and a descent from the root with its
    /// rotations: on the 5050-box pyramid under impulses, about 400 boxes a step. With
    /// this, pair finding there went from 7.7 to 7.2 M instructions a step (30 steps
    /// from rest, the first step's build included). Growing the few nodes below a holding
    /// ancestor costs a walk of a few nodes (Box2D v3 grows an ancestor chain too,
    /// `b2DynamicTree_EnlargeProxy`, and rebuilds the grown part later). A grown node
    /// is never larger than the ancestor that held the box, so the tree gets no looser
    /// than its boxes a few levels up, and the next removal or insertion below it
    /// refits it tight again. Which nodes hold a leaf changes no pair: queries report
    /// the leaves whose fat boxes overlap, however the tree is shaped.
    fn refit_in_place(&mut self, leaf: u32, fat: Aabb) -> bool {
        let first = self.nodes[leaf as usize].parent;
        let mut holder = first;
        let mut levels = 0;
        while holder != NULL && !contains_box(&self.nodes[holder as usize].aabb, &fat) {
            levels += 1;
            if levels == REFIT_LEVELS {
                return false;
            }
            holder = self.nodes[holder as usize].parent;
        }
        if holder == NULL && first != NULL {
            // No ancestor holds it (the root included): reinsert.
            return false;
        }
        self.nodes[leaf as usize].aabb = fat;
        let mut node = first;
        while node != holder {
            let n = &mut self.nodes[node as usize];
            n.aabb = n.aabb.union(&fat);
            node = n.parent;
        }
        true
    }

    /// The fat box of a live proxy.
    pub fn fat_aabb(&self, id: ProxyId) -> Option<Aabb> {
        self.is_valid(id).then(|| self.nodes[id.index as usize].aabb)
    }

    /// Calls `visit(user_data)` for every proxy whose fat box overlaps `aabb` (touching
    /// counts). `stack` is scratch, reused between calls. Returns the node boxes tested.
    pub fn query(&self, aabb: &Aabb, stack: &mut Vec<u32>, mut visit: impl FnMut(u32)) -> u64 {
        stack.clear();
        let Some(root) = self.node(self.root) else { return 0 };
        let mut tests = 1;
        if !root.aabb.overlaps(aabb) {
            return tests;
        }
        if root.is_leaf() {
            visit(root.user_data);
            return tests;
        }
        // The stack holds only internal nodes whose box overlaps: each child is tested
        // before it is pushed, so the half or more of the children a query rejects
        // never go through the stack (the same nodes are tested, in the same number).
        stack.push(self.root);
        while let Some(i) = stack.pop() {
            let node = &self.nodes[i as usize];
            for child in [node.child1, node.child2] {
                let c = &self.nodes[child as usize];
                tests += 1;
                if !c.aabb.overlaps_unbranched(aabb) {
                    continue;
                }
                if c.is_leaf() {
                    visit(c.user_data);
                } else {
                    stack.push(child);
                }
            }
        }
        tests
    }

    /// Every node from the root down (depth first), for drawing.
    pub fn node_views(&self) -> Vec<TreeNodeView> {
        let mut views = Vec::with_capacity(self.node_count());
        let mut stack = Vec::new();
        if self.root != NULL {
            stack.push((self.root, 0u32));
        }
        while let Some((i, depth)) = stack.pop() {
            let node = &self.nodes[i as usize];
            views.push(TreeNodeView {
                aabb: node.aabb,
                depth,
                height: node.height,
                leaf_data: node.is_leaf().then_some(node.user_data),
            });
            if !node.is_leaf() {
                stack.push((node.child2, depth + 1));
                stack.push((node.child1, depth + 1));
            }
        }
        views
    }

    /// Checks the tree's invariants: parent links, heights (leaf 0, else 1 + taller
    /// child), every box containing its children's, node and leaf counts. Returns the
    /// first violation found.
    pub fn validate(&self) -> Result<(), String> {
        let mut reached = 0usize;
        let mut leaves = 0usize;
        let mut stack = Vec::new();
        if let Some(root) = self.node(self.root) {
            if root.parent != NULL {
                return Err(format!("root {} has parent {}", self.root, root.parent));
            }
            stack.push(self.root);
        }
        while let Some(i) = stack.pop() {
            let node = self.node(i).ok_or_else(|| format!("node {i} is out of range"))?;
            if !node.in_use {
                return Err(format!("node {i} is reachable but free"));
            }
            reached += 1;
            if reached > self.nodes.len() {
                return Err("the tree has a cycle".to_string());
            }
            if node.is_leaf() {
                leaves += 1;
                if node.height != 0 {
                    return Err(format!("leaf {i} has height {}", node.height));
                }
                continue;
            }
            let (c1, c2) = (node.child1, node.child2);
            for c in [c1, c2] {
                let child = self.node(c).ok_or_else(|| format!("node {i} has a bad child {c}"))?;
                if child.parent != i {
                    return Err(format!("child {c} of {i} names {} as parent", child.parent));
                }
                if !contains_box(&node.aabb, &child.aabb) {
                    return Err(format!("node {i}'s box does not contain child {c}'s"));
                }
                stack.push(c);
            }
            let expected = 1 + self.nodes[c1 as usize].height.max(self.nodes[c2 as usize].height);
            if node.height != expected {
                return Err(format!("node {i} has height {}, expected {expected}", node.height));
            }
        }
        if reached != self.node_count() {
            return Err(format!("{reached} nodes reachable, {} in use", self.node_count()));
        }
        if leaves != self.leaves {
            return Err(format!("{leaves} leaves reachable, {} proxies", self.leaves));
        }
        Ok(())
    }

    fn node(&self, i: u32) -> Option<&Node> {
        self.nodes.get(i as usize)
    }

    fn allocate(&mut self) -> u32 {
        let fresh = |generation| Node {
            aabb: Aabb::new(Vec2::ZERO, Vec2::ZERO),
            parent: NULL,
            child1: NULL,
            child2: NULL,
            height: 0,
            user_data: 0,
            generation,
            in_use: true,
        };
        if let Some(i) = self.free.pop() {
            let generation = self.nodes[i as usize].generation;
            self.nodes[i as usize] = fresh(generation);
            i
        } else {
            self.nodes.push(fresh(0));
            (self.nodes.len() - 1) as u32
        }
    }

    fn release(&mut self, i: u32) {
        let node = &mut self.nodes[i as usize];
        node.in_use = false;
        node.generation = node.generation.wrapping_add(1);
        self.free.push(i);
    }
}

pub(super) fn sanitize_margin(margin: f32) -> f32 {
    if margin.is_finite() && margin >= 0.0 {
        margin
    } else {
        DEFAULT_TREE_MARGIN
    }
}

/// True when `outer` contains `inner` (boundaries included).
#[inline]
fn contains_box(outer: &Aabb, inner: &Aabb) -> bool {
    outer.min.x <= inner.min.x && outer.min.y <= inner.min.y && inner.max.x <= outer.max.x && inner.max.y <= outer.max.y
}

#[cfg(test)]
mod tests;
