//! The broad phase: which pairs of bodies are close enough to test exactly?
//!
//! Each step the world hands over the world AABB of every body as a [`Proxy`]; the broad
//! phase answers with the candidate pairs whose boxes overlap (touching counts, as in
//! [`Aabb::overlaps`](crate::bounds::Aabb::overlaps): the exact test decides). Chulanov (2016) lists the menu, Zakharov and Sadykov (2003) the
//! cost model T = Nv·Cv + Np·Cp: every algorithm counts its box tests (Nv) in
//! [`BroadPhaseStats`], and the pairs it returns are the Np the narrow phase will pay for.
//!
//! | kind | file | idea | cost per step |
//! |---|---|---|---|
//! | [`BroadPhaseKind::BruteForce`] | `brute_force.rs` | every pair | N(N−1)/2 tests |
//! | [`BroadPhaseKind::SweepAndPrune`] | `sweep_and_prune.rs` | sort by min x, scan while intervals overlap | O(N + swaps + x-overlaps) |
//! | [`BroadPhaseKind::SpatialHash`] | `spatial_hash.rs` | uniform grid, test within cells | O(N + same-cell pairs) |
//! | [`BroadPhaseKind::DynamicAabbTree`] (default) | `aabb_tree.rs`, `tree_broad_phase.rs` | bounding-volume tree of fattened boxes; pairs of fat boxes kept between steps | O(N + pairs + moved · log N) |
//!
//! All four return exactly the same pairs, `(a, b)` with `a < b`, sorted, each once;
//! static–static pairs are never reported. [`BroadPhase`] keeps every algorithm's state
//! between steps and switches between them at run time.
//!
//! ```
//! use collision_lab::bounds::Aabb;
//! use collision_lab::broad::{BroadPhase, BroadPhaseKind, Proxy};
//! use collision_lab::math::Vec2;
//! let boxes = [
//!     Proxy::new(0, Aabb::new(Vec2::new(-10.0, -1.0), Vec2::new(10.0, 0.0)), true), // ground
//!     Proxy::new(1, Aabb::new(Vec2::new(0.0, 0.0), Vec2::new(1.0, 1.0)), false),    // touches it
//!     Proxy::new(2, Aabb::new(Vec2::new(5.0, 3.0), Vec2::new(6.0, 4.0)), false),    // alone
//! ];
//! let mut pairs = Vec::new();
//! for kind in BroadPhaseKind::ALL {
//!     let mut broad = BroadPhase::new(kind);
//!     broad.update(&boxes, &mut pairs);
//!     assert_eq!(pairs, [(0, 1)]);
//! }
//! ```
//!
//! Proxy ids are labels: state is kept per position in the slice, so the world can pass
//! its body indices and add or remove bodies between steps; a proxy whose box changed
//! a lot (because a different body now sits at that position) only costs more work.
//! A box with a NaN coordinate or `min > max` on an axis is left out by every algorithm.
//!
//! Everything an algorithm keeps is readable for drawing (SAP's sorted intervals, the
//! grid's occupied cells, the tree's nodes); the core never draws.

mod aabb_tree;
mod brute_force;
mod pairs;
mod spatial_hash;
mod sweep_and_prune;
mod tree_broad_phase;

pub use aabb_tree::{DynamicTree, NoTreeRecord, ProxyId, TreeNodeView, TreeRecorder, DEFAULT_TREE_MARGIN};
pub use brute_force::BruteForce;
pub use pairs::{is_usable, Proxy};
pub use spatial_hash::{GridCell, SpatialHash, DEFAULT_OVERSIZE_CELLS, MAX_OVERSIZE_CELLS};
pub use sweep_and_prune::{NoSapRecord, SapInterval, SapOutcome, SapRecorder, SweepAndPrune};
pub use tree_broad_phase::AabbTreeBroadPhase;

use serde::{Deserialize, Serialize};

/// The broad-phase algorithms the user can pick at run time.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
pub enum BroadPhaseKind {
    /// Every pair (the oracle).
    BruteForce,
    /// Chulanov (2016): sort by min x (insertion sort, coherent from step to step), sweep.
    SweepAndPrune,
    /// Uniform grid; pairs within shared cells.
    SpatialHash,
    /// Dynamic bounding-volume tree of fattened boxes (Box2D's `b2DynamicTree`), with
    /// the pairs of fat boxes kept between steps. The default: a pile at rest costs one
    /// box test per pair, where sweep and prune walks every x-overlap (on the 5050-box
    /// pyramid a column of 100 boxes: 1.7 ms a step against 0.65).
    #[default]
    DynamicAabbTree,
}

impl BroadPhaseKind {
    /// All kinds, in menu order.
    pub const ALL: [BroadPhaseKind; 4] = [
        BroadPhaseKind::BruteForce,
        BroadPhaseKind::SweepAndPrune,
        BroadPhaseKind::SpatialHash,
        BroadPhaseKind::DynamicAabbTree,
    ];

    /// The name used in scene files and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            BroadPhaseKind::BruteForce => "BruteForce",
            BroadPhaseKind::SweepAndPrune => "SweepAndPrune",
            BroadPhaseKind::SpatialHash => "SpatialHash",
            BroadPhaseKind::DynamicAabbTree => "DynamicAabbTree",
        }
    }
}

impl std::fmt::Display for BroadPhaseKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for BroadPhaseKind {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        BroadPhaseKind::ALL
            .into_iter()
            .find(|k| k.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| {
                format!(
                    "unknown broad phase '{s}' (expected BruteForce, SweepAndPrune, SpatialHash or DynamicAabbTree)"
                )
            })
    }
}

/// Tuning for the broad phases; the defaults suit boxes from centimetres to tens of
/// metres.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct BroadPhaseConfig {
    /// Grid cell size (metres); `None` picks it each step from the median box size (see
    /// `spatial_hash.rs`).
    pub hash_cell_size: Option<f32>,
    /// A box covering more than this many grid cells goes to the grid's oversized list,
    /// tested against every box instead of filling cells.
    pub hash_oversize_cells: u32,
    /// How far (metres) the tree fattens each box, so a body moving less than this
    /// between steps is not reinserted.
    pub tree_margin: f32,
    /// The tree also stretches a box along its last displacement times this factor
    /// (0 turns the prediction off). Default 4, Box2D v2.4's `b2_aabbMultiplier`: a body
    /// moving steadily is reinserted every four steps or so instead of every other one
    /// (the 1000 falling polygons of `scenes/rain_1000.ron` reinserted 28% of their
    /// proxies a step with 2; see `tree_broad_phase.rs` for what a reinsertion costs).
    pub tree_prediction: f32,
}

impl Default for BroadPhaseConfig {
    fn default() -> Self {
        BroadPhaseConfig {
            hash_cell_size: None,
            hash_oversize_cells: DEFAULT_OVERSIZE_CELLS,
            tree_margin: DEFAULT_TREE_MARGIN,
            tree_prediction: 4.0,
        }
    }
}

/// The work one step of a broad phase did: plain data for the app's plots. Counters that
/// do not apply to the algorithm stay 0.
#[derive(Clone, Copy, Debug, PartialEq, Default, Serialize)]
pub struct BroadPhaseStats {
    /// Which algorithm produced these numbers.
    pub kind: BroadPhaseKind,
    /// Proxies given (including unusable ones, which are skipped).
    pub proxies: usize,
    /// Box overlap tests made (Nv): full two-axis tests between proxies plus, for the
    /// tree, node tests during queries.
    pub bv_tests: u64,
    /// Candidate pairs returned (the Np the narrow phase will see).
    pub pairs: usize,
    /// Sweep and prune: adjacent swaps made by the insertion sort.
    pub swaps: u64,
    /// Sweep and prune: x-interval overlaps the sweep walked (before the y test).
    pub sweep_steps: u64,
    /// Spatial hash: cell size used (metres).
    pub cell_size: f32,
    /// Spatial hash: occupied cells.
    pub cells: usize,
    /// Spatial hash: (cell, proxy) entries, i.e. proxies counted once per cell.
    pub cell_entries: usize,
    /// Spatial hash: proxies in the oversized list.
    pub oversized: usize,
    /// Tree: nodes in use (leaves and internal).
    pub tree_nodes: usize,
    /// Tree: height of the root (a single leaf has height 0).
    pub tree_height: u32,
    /// Tree: proxies given a new fat box because their box left the old one (reinserted,
    /// or refitted in place when a near ancestor held the new box).
    pub reinserts: usize,
    /// True when the algorithm rebuilt its state from scratch this step (first step,
    /// kind switched, proxy count changed a lot).
    pub rebuilt: bool,
}

impl Default for BroadPhase {
    fn default() -> Self {
        BroadPhase::new(BroadPhaseKind::default())
    }
}

/// A broad phase whose algorithm can be switched at run time. Keeps each algorithm's
/// state between steps and its scratch buffers, so a step with the same number of
/// proxies allocates nothing.
#[derive(Clone, Debug)]
pub struct BroadPhase {
    kind: BroadPhaseKind,
    config: BroadPhaseConfig,
    brute_force: BruteForce,
    sweep_and_prune: SweepAndPrune,
    spatial_hash: SpatialHash,
    aabb_tree: AabbTreeBroadPhase,
}

impl BroadPhase {
    /// A broad phase of `kind` with the default tuning.
    pub fn new(kind: BroadPhaseKind) -> Self {
        BroadPhase::with_config(kind, BroadPhaseConfig::default())
    }

    /// A broad phase of `kind` with `config`.
    pub fn with_config(kind: BroadPhaseKind, config: BroadPhaseConfig) -> Self {
        let mut broad = BroadPhase {
            kind,
            config,
            brute_force: BruteForce,
            sweep_and_prune: SweepAndPrune::default(),
            spatial_hash: SpatialHash::default(),
            aabb_tree: AabbTreeBroadPhase::default(),
        };
        broad.set_config(config);
        broad
    }

    /// The algorithm in use.
    pub fn kind(&self) -> BroadPhaseKind {
        self.kind
    }

    /// Switches algorithm. The new one rebuilds its state at the next
    /// [`update`](Self::update); the old one's state is dropped (its buffers are kept for
    /// a switch back).
    pub fn set_kind(&mut self, kind: BroadPhaseKind) {
        if kind != self.kind {
            self.kind = kind;
            self.sweep_and_prune.clear();
            self.spatial_hash.clear();
            self.aabb_tree.clear();
        }
    }

    /// The tuning in use.
    pub fn config(&self) -> &BroadPhaseConfig {
        &self.config
    }

    /// Changes the tuning; the tree rebuilds at the next update if its margin changed.
    pub fn set_config(&mut self, config: BroadPhaseConfig) {
        self.config = config;
        self.spatial_hash.set_cell_size(config.hash_cell_size);
        self.spatial_hash.set_oversize_cells(config.hash_oversize_cells);
        self.aabb_tree.set_margin(config.tree_margin);
        self.aabb_tree.set_prediction(config.tree_prediction);
    }

    /// Finds the pairs of `proxies` whose boxes overlap: `out` is cleared and filled with
    /// `(a, b)` ids, `a < b`, sorted, each pair once, no static–static pair.
    pub fn update(&mut self, proxies: &[Proxy], out: &mut Vec<(u32, u32)>) -> BroadPhaseStats {
        match self.kind {
            BroadPhaseKind::BruteForce => self.brute_force.update(proxies, out),
            BroadPhaseKind::SweepAndPrune => self.sweep_and_prune.update(proxies, out),
            BroadPhaseKind::SpatialHash => self.spatial_hash.update(proxies, out),
            BroadPhaseKind::DynamicAabbTree => self.aabb_tree.update(proxies, out),
        }
    }

    /// Sweep and prune's state (sorted intervals), for drawing.
    pub fn sweep_and_prune(&self) -> &SweepAndPrune {
        &self.sweep_and_prune
    }

    /// The spatial hash's state (occupied cells, oversized list), for drawing.
    pub fn spatial_hash(&self) -> &SpatialHash {
        &self.spatial_hash
    }

    /// The tree broad phase's state (its nodes), for drawing.
    pub fn aabb_tree(&self) -> &AabbTreeBroadPhase {
        &self.aabb_tree
    }
}

/// The pairs of `proxies` whose boxes overlap, by brute force, with no state: the oracle
/// tests and tools compare against.
pub fn overlapping_pairs(proxies: &[Proxy]) -> Vec<(u32, u32)> {
    let mut out = Vec::new();
    BruteForce.update(proxies, &mut out);
    out
}
