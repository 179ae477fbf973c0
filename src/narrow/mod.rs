//! The narrow phase: do two posed shapes overlap, and how do we separate them?
//!
//! One entry point, [`collide`], takes two shapes with their poses and the chosen
//! [`Algorithm`]; every algorithm answers with the same [`Contact`] (Ren and Xie's (2011) output:
//! intersect, minimum translation vector, normal, depth, contact points) and reports
//! the [`Work`] it did, so the cost model T = Nv·Cv + Np·Cp can be shown.
//!
//! - [`Algorithm::NonConvexSat`] — Fayzrakhmanov et al. (2015): SAT on whole polygons, no decomposition,
//!   with its per-edge test for a non-convex A (`sat_nonconvex.rs`). A heuristic: fast,
//!   sometimes wrong, and we measure how often.
//! - [`Algorithm::SatDecomposed`] — SAT (`sat.rs`) between every pair of convex pieces
//!   whose bounding boxes overlap (`compound.rs`), combined into one answer (`combine.rs`).
//! - [`Algorithm::GjkEpa`] — GJK (`gjk.rs`) and EPA (`epa.rs`) on the same piece pairs,
//!   combined the same way.
//!
//! Two single-piece convex polygons (every box of a pile) take a fast path when no trace
//! is asked for (`polygon_polygon.rs`): the same SAT or GJK/EPA and clip, in A's local
//! frame with B's vertices turned into it once, giving the same answer up to rounding.
//!
//! Circles use Voronoi regions (`circle.rs`; Ren and Xie 2011); contact points come from
//! clipping the incident edge against the reference edge (`clip.rs`). `exact.rs` holds
//! the exact polygon-overlap oracle the tests and benchmarks measure against; `oracle.rs`
//! gives the exact answer for any pair (circles too) and judges an algorithm's answer by
//! it (what the sandbox flags live and race mode counts).
//!
//! Every test takes one input (`query.rs`: the shapes, their poses, B's pose relative
//! to A computed once per pair, the scale and the configuration, like Box2D v3's
//! `b2DistanceInput` and parry's `pos12`) and reports to one recorder (work and trace).
//! SAT, GJK/EPA and the Voronoi regions work in A's frame with it, so the answers hold
//! anywhere within the stated precision range ([`precision`]: coordinates up to 10⁴
//! times a body's size).
//!
//! Touching is not intersecting: a depth at or below the touching tolerance (a few ulps
//! of the coordinates, [`NarrowConfig::touch_tolerance`]) gives `intersect: false`, in
//! all three algorithms alike.
//!
//! Pass `Some(&mut trace)` to record every step as data ([`trace`]); with `None` the
//! algorithms record nothing.

mod box_grid;
mod circle;
mod clip;
mod combine;
mod compound;
mod contact;
mod epa;
pub mod exact;
pub mod exact_distance;
mod gjk;
mod gjk_epa;
mod minkowski;
pub mod oracle;
mod polygon_polygon;
pub mod precision;
mod query;
pub(crate) mod sat;
mod sat_nonconvex;
mod simplex;
mod speculative;
pub mod trace;

pub use contact::{Contact, ContactId, ContactPoint, ContactPoints, Work};
pub use epa::{epa, EpaOutput};
pub use gjk::{gjk, GjkInput, GjkOutput};
pub use minkowski::{minkowski_difference_hull, minkowski_difference_hull_sourced};
pub use simplex::Simplex;
pub use speculative::{collide_and_speculate, speculative_points, SpeculativePoints, MAX_SPECULATIVE_POINTS};
pub(crate) use speculative::{collide_and_speculate_known, KnownPair};
pub use trace::Trace;

use crate::geometry::Shape;
use crate::math::{Pose, Vec2};
use serde::{Deserialize, Serialize};

/// The narrow-phase algorithms the user can pick at run time.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
pub enum Algorithm {
    /// Fayzrakhmanov et al. (2015): SAT on whole (possibly non-convex) polygons, no decomposition.
    #[default]
    NonConvexSat,
    /// SAT over every pair of convex pieces, culled by bounding boxes.
    SatDecomposed,
    /// GJK + EPA over every pair of convex pieces, culled by bounding boxes.
    GjkEpa,
}

impl Algorithm {
    /// All algorithms, in menu order.
    pub const ALL: [Algorithm; 3] = [Algorithm::NonConvexSat, Algorithm::SatDecomposed, Algorithm::GjkEpa];

    /// The name used in scene files and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Algorithm::NonConvexSat => "NonConvexSat",
            Algorithm::SatDecomposed => "SatDecomposed",
            Algorithm::GjkEpa => "GjkEpa",
        }
    }
}

impl std::fmt::Display for Algorithm {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Algorithm {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        Algorithm::ALL
            .into_iter()
            .find(|a| a.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| format!("unknown algorithm '{s}' (expected NonConvexSat, SatDecomposed or GjkEpa)"))
    }
}

/// Whether shapes that only touch count as intersecting.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum TouchingPolicy {
    /// Depth at or below the tolerance is "not intersecting" (the default, in every
    /// algorithm alike).
    #[default]
    Separated,
    /// Depth at or above minus the tolerance is "intersecting" (lessons show the
    /// difference).
    Intersecting,
}

/// Tuning for the narrow phase. The defaults suit shapes from millimetres to hundreds of
/// metres; lessons expose every field as a knob.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct NarrowConfig {
    /// Depths within `touch_tolerance × scale` of zero count as touching, where scale is
    /// the larger shape's size plus its distance from the origin. 8 ulps of f32 keeps
    /// exactly touching shapes touching in all three algorithms after the rounding of
    /// a pose; much larger and real shallow contacts would be missed.
    pub touch_tolerance: f32,
    /// What touching counts as.
    pub touching: TouchingPolicy,
    /// GJK stops after this many iterations (a polygon pair needs far fewer; the cap only
    /// guards against cycling on rounding).
    pub gjk_max_iterations: u32,
    /// GJK stops when a new support point improves the distance bound by less than this
    /// fraction of the scale.
    pub gjk_epsilon: f32,
    /// EPA stops after this many iterations.
    pub epa_max_iterations: u32,
    /// EPA stops when the support point lies less than this fraction of the scale beyond
    /// the closest edge.
    pub epa_epsilon: f32,
    /// GJK's first search direction (world frame); `None` uses the centre-to-centre
    /// direction.
    pub gjk_initial_direction: Option<Vec2>,
    /// Decomposed algorithms skip piece pairs whose bounding boxes do not overlap (true,
    /// the default: it changes no answer, only the work). Lessons turn it off so that
    /// GJK's distance and SAT's separating axis are shown for shapes whose boxes are
    /// apart too.
    pub cull_by_bounds: bool,
    /// When NonConvexSat projects through the polygons' edge trees instead of over every
    /// vertex (same answer either way; see `geometry::edge_tree`).
    pub edge_tree: EdgeTreePolicy,
}

/// Polygons with at least this many vertices project through their edge tree under
/// [`EdgeTreePolicy::Auto`]'s default. Measured with `collision-lab bench --big-curve`
/// (README, "Reproducing the paper's Fig. 3"): below a few thousand vertices the
/// brute-force loop, four independent chains wide, beats the tree's descent (3x at 64
/// vertices). At 5000 the tree is 2.7x faster on a coastline and 0.8x on a gear, whose
/// vertices all lie near one circle so that box corners prune little; at 10,000, 6x and
/// 1.0x.
pub const EDGE_TREE_MIN_VERTICES: u32 = 5000;

/// Whether a query descends the polygons' bounding-volume trees (Liu et al. 2018) or scans every
/// vertex. The answers are identical; only the time differs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum EdgeTreePolicy {
    /// Use the tree of each polygon with at least `min_vertices` vertices.
    Auto {
        /// The vertex count from which the tree is used.
        min_vertices: u32,
    },
    /// Always use the trees (tests and benchmarks).
    Always,
    /// Never use them (the paper's algorithm as written).
    Never,
}

impl Default for EdgeTreePolicy {
    fn default() -> Self {
        EdgeTreePolicy::Auto {
            min_vertices: EDGE_TREE_MIN_VERTICES,
        }
    }
}

impl EdgeTreePolicy {
    /// Whether a polygon of `vertex_count` vertices goes through its tree.
    pub fn uses_tree(self, vertex_count: usize) -> bool {
        match self {
            EdgeTreePolicy::Auto { min_vertices } => vertex_count >= min_vertices as usize,
            EdgeTreePolicy::Always => true,
            EdgeTreePolicy::Never => false,
        }
    }
}

impl Default for NarrowConfig {
    fn default() -> Self {
        NarrowConfig {
            touch_tolerance: 8.0 * f32::EPSILON,
            touching: TouchingPolicy::Separated,
            gjk_max_iterations: 64,
            gjk_epsilon: 1e-6,
            epa_max_iterations: 64,
            epa_epsilon: 1e-6,
            gjk_initial_direction: None,
            cull_by_bounds: true,
            edge_tree: EdgeTreePolicy::default(),
        }
    }
}

impl NarrowConfig {
    /// The SAT gap above which an axis separates (the negated touching threshold).
    #[inline]
    pub fn separating_gap(&self, scale: f32) -> f32 {
        let tol = self.touch_tolerance * scale;
        match self.touching {
            TouchingPolicy::Separated => -tol,
            TouchingPolicy::Intersecting => tol,
        }
    }

    /// Whether a signed `depth` (positive: overlap) is an intersection at `scale`.
    #[inline]
    pub fn is_penetrating(&self, depth: f32, scale: f32) -> bool {
        let tol = self.touch_tolerance * scale;
        match self.touching {
            TouchingPolicy::Separated => depth > tol,
            TouchingPolicy::Intersecting => depth >= -tol,
        }
    }
}

/// A penetration (or separation) of two convex pieces along one normal: the answer of a
/// piece-pair test before the pieces are combined.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct PairPenetration {
    /// Unit normal from A towards B, world frame.
    pub normal: Vec2,
    /// Positive: penetration depth along `normal`. Negative or zero: separated (for GJK,
    /// minus the distance; for SAT, the largest gap found).
    pub depth: f32,
}

impl PairPenetration {
    /// The answer for the pair swapped (B, A): the same depth along the opposite normal.
    #[inline]
    pub fn flipped(self) -> PairPenetration {
        PairPenetration {
            normal: -self.normal,
            depth: self.depth,
        }
    }
}

/// The scale tolerances are measured against: the shapes' sizes plus how far from the
/// origin they sit (f32 rounding grows with the coordinates' magnitude).
pub(crate) fn query_scale(a: &Shape, pose_a: &Pose, b: &Shape, pose_b: &Pose) -> f32 {
    a.size().max(b.size())
        + pose_a
            .translation
            .abs()
            .max_element()
            .max(pose_b.translation.abs().max_element())
}

/// Tests shapes `a` and `b`, placed in the world by `pose_a` and `pose_b`, with
/// `algorithm`. The MTV in the answer moves A out of B; the normal points from A towards
/// B. Pass `Some(&mut trace)` to record the steps.
pub fn collide(
    a: &Shape,
    pose_a: &Pose,
    b: &Shape,
    pose_b: &Pose,
    algorithm: Algorithm,
    config: &NarrowConfig,
    mut trace: Option<&mut Trace>,
) -> Contact {
    trace::record(&mut trace, || trace::TraceStep::Begin {
        algorithm,
        pieces_a: a.piece_count(),
        pieces_b: b.piece_count(),
    });
    // Each algorithm builds its query (`query.rs`: B's pose relative to A, once per
    // pair); the decomposed ones after their box test, which most pairs of a pile fail.
    let (shape_a, shape_b) = ((a, pose_a), (b, pose_b));
    let contact = match algorithm {
        Algorithm::NonConvexSat => {
            let q = query::ShapeQuery::new(a, pose_a, b, pose_b, query_scale(a, pose_a, b, pose_b), config);
            sat_nonconvex::collide_nonconvex_sat(&q, &mut trace)
        }
        Algorithm::SatDecomposed => {
            compound::collide_compound(shape_a, shape_b, compound::PairTest::Sat, config, &mut trace)
        }
        Algorithm::GjkEpa => {
            compound::collide_compound(shape_a, shape_b, compound::PairTest::GjkEpa, config, &mut trace)
        }
    };
    trace::record(&mut trace, || trace::TraceStep::Result {
        intersect: contact.intersect,
        normal: contact.normal,
        depth: contact.depth,
        points: contact.points.as_slice().iter().map(|p| p.point).collect(),
    });
    contact
}

/// The contact of a single shape (or piece) pair whose penetration is known: contact
/// points by clipping (or a circle's deepest point).
pub(crate) fn contact_from_pair(
    q: &query::PieceQuery,
    pen: PairPenetration,
    work: Work,
    trace: &mut Option<&mut Trace>,
) -> Contact {
    let points = clip::contact_points(q, pen.normal, pen.depth, trace);
    Contact::penetrating(pen.normal, pen.depth, points, work)
}

/// A `w` × `h` box centred on its origin (m), for the narrow phase's unit tests.
#[cfg(test)]
pub(crate) fn test_rect(w: f32, h: f32) -> Shape {
    Shape::Polygon(
        crate::geometry::Polygon::new(&[
            Vec2::new(-w / 2.0, -h / 2.0),
            Vec2::new(w / 2.0, -h / 2.0),
            Vec2::new(w / 2.0, h / 2.0),
            Vec2::new(-w / 2.0, h / 2.0),
        ])
        .expect("a box is a valid polygon"),
    )
}
