//! The pseudocode listings the narration points into, one per algorithm, in the words of
//! the source files' own pseudocode (`sat.rs`, `sat_nonconvex.rs`, `circle.rs`, `gjk.rs`,
//! `epa.rs`, `clip.rs`, `compound.rs`). A card's `pseudocode_line` indexes these.

/// Which listing a narration card refers to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Listing {
    /// SAT on two convex pieces (`sat.rs`).
    Sat,
    /// Fayzrakhmanov et al.'s (2015) eleven steps on whole polygons (`sat_nonconvex.rs`).
    NonConvexSat,
    /// Circle against polygon by Voronoi regions (`circle.rs`; Ren and Xie 2011).
    CircleVoronoi,
    /// GJK (`gjk.rs`).
    Gjk,
    /// EPA (`epa.rs`).
    Epa,
    /// Contact points by clipping (`clip.rs`).
    Clip,
    /// Decomposed shapes: piece pairs and their combination (`compound.rs`, `combine.rs`).
    Compound,
    /// Bounding volumes and their tightness (`bounds/`; Zakharov and Sadykov 2003).
    BoundingVolumes,
    /// Sweep and prune (`broad/sweep_and_prune.rs`; Chulanov 2016).
    SweepAndPrune,
    /// The spatial hash (`broad/spatial_hash.rs`).
    SpatialHash,
    /// A static tree over a polygon's edges and its pairwise descent, with the cost
    /// model (`geometry/edge_tree/`; Liu, Jiang and Shi 2018).
    Trees,
    /// The dynamic AABB tree (`broad/aabb_tree.rs`).
    DynamicTree,
    /// Pseudo-continuous detection (`dynamics/continuous.rs`; Ren and Xie 2011).
    Continuous,
    /// Contact resolution three ways (`dynamics/projection.rs`, `xpbd.rs`, `solver.rs`).
    Resolution,
}

impl Listing {
    /// Every listing, in the order lessons introduce them.
    pub const ALL: [Listing; 14] = [
        Listing::Sat,
        Listing::NonConvexSat,
        Listing::CircleVoronoi,
        Listing::Gjk,
        Listing::Epa,
        Listing::Clip,
        Listing::Compound,
        Listing::BoundingVolumes,
        Listing::SweepAndPrune,
        Listing::SpatialHash,
        Listing::Trees,
        Listing::DynamicTree,
        Listing::Continuous,
        Listing::Resolution,
    ];

    /// A short name for the listing's heading.
    pub fn name(self) -> &'static str {
        match self {
            Listing::Sat => "SAT (convex)",
            Listing::NonConvexSat => "Non-convex SAT (Fayzrakhmanov et al. 2015)",
            Listing::CircleVoronoi => "Circle against polygon (Voronoi regions)",
            Listing::Gjk => "GJK",
            Listing::Epa => "EPA",
            Listing::Clip => "Contact points by clipping",
            Listing::Compound => "Convex pieces, combined",
            Listing::BoundingVolumes => "Bounding volumes and their tightness",
            Listing::SweepAndPrune => "Sweep and prune (Chulanov 2016)",
            Listing::SpatialHash => "Spatial hash",
            Listing::Trees => "Edge tree descent and the cost model (Liu et al. 2018)",
            Listing::DynamicTree => "Dynamic AABB tree",
            Listing::Continuous => "Pseudo-continuous detection (Ren and Xie 2011)",
            Listing::Resolution => "Contact resolution, three ways",
        }
    }

    /// The lines, without line numbers; indentation shows the loops.
    pub fn lines(self) -> &'static [&'static str] {
        match self {
            Listing::Sat => SAT,
            Listing::NonConvexSat => NONCONVEX_SAT,
            Listing::CircleVoronoi => CIRCLE_VORONOI,
            Listing::Gjk => GJK,
            Listing::Epa => EPA,
            Listing::Clip => CLIP,
            Listing::Compound => COMPOUND,
            Listing::BoundingVolumes => BOUNDING_VOLUMES,
            Listing::SweepAndPrune => SWEEP_AND_PRUNE,
            Listing::SpatialHash => SPATIAL_HASH,
            Listing::Trees => TREES,
            Listing::DynamicTree => DYNAMIC_TREE,
            Listing::Continuous => CONTINUOUS,
            Listing::Resolution => RESOLUTION,
        }
    }
}

/// Lines of [`Listing::Sat`].
// Every line is named, used or not, so that editing a listing shows which names move.
#[allow(dead_code)]
pub(crate) mod sat {
    pub const LOOP: usize = 0;
    pub const PROJECT: usize = 1;
    pub const GAP: usize = 2;
    pub const SEPARATED: usize = 3;
    pub const MINIMUM: usize = 4;
    pub const ANSWER: usize = 5;
}

const SAT: &[&str] = &[
    "for each edge normal n of A, then of B:",
    "    project A on n: [minA, maxA]; project B: [minB, maxB]",
    "    gap = max(minB − maxA, minA − maxB)",
    "    if gap > 0: n separates them — no collision, stop",
    "    if the overlap −gap is below the best: best = (n, −gap)",
    "normal = best n, turned to point from A to B; depth = its overlap",
];

/// Lines of [`Listing::NonConvexSat`]: line k is the paper's step k + 1.
// Every line is named, used or not, so that editing a listing shows which names move.
#[allow(dead_code)]
pub(crate) mod nonconvex {
    pub const EDGES: usize = 0;
    pub const COUNT: usize = 1;
    pub const AXIS: usize = 2;
    pub const PROJECT: usize = 3;
    pub const GAP: usize = 4;
    pub const SEPARATED: usize = 5;
    pub const EDGE_TEST: usize = 6;
    pub const MINIMUM: usize = 7;
    pub const TRANSLATION: usize = 8;
    pub const SIGN: usize = 9;
    pub const MOVE: usize = 10;
}

const NONCONVEX_SAT: &[&str] = &[
    "1  E[i] = p[i+1] − p[i] for both polygons (edges, wrapping around)",
    "2  m = edges of PA + edges of PB; k = 1",
    "3  axis A = normalise(−E[k].y, E[k].x)",
    "4  project both polygons on A: [minA, maxA], [minB, maxB]",
    "5  I = minB − maxA if minA < minB else minA − maxB (the gap)",
    "6  if I > 0: the axis separates them — no collision, stop",
    "7  if E[k] is PA's and PA is not convex: if PB lies wholly on one side of E[k]'s line, skip this edge (no edge of PA touches PB: stop)",
    "8  if the overlap −I beats the best so far: D = −I, V = A",
    "9  after all m axes the separating translation is V·D",
    "10 C = centre(PA) − centre(PB); if C·V < 0, flip V",
    "11 move PA by V",
];

/// Lines of [`Listing::CircleVoronoi`].
// Every line is named, used or not, so that editing a listing shows which names move.
#[allow(dead_code)]
pub(crate) mod circle {
    pub const CENTRE: usize = 0;
    pub const FEATURE: usize = 1;
    pub const AXIS: usize = 2;
    pub const DEPTH: usize = 4;
}

const CIRCLE_VORONOI: &[&str] = &[
    "c = the circle's centre, in the polygon's frame",
    "find the feature of the outline nearest to c: its Voronoi region holds c",
    "vertex region: axis = c − vertex; edge region (or inside): axis = the edge's normal",
    "d = distance from c to the outline (negative when c is inside)",
    "depth = r − d; they intersect when depth > 0",
];

/// Lines of [`Listing::Gjk`].
// Every line is named, used or not, so that editing a listing shows which names move.
#[allow(dead_code)]
pub(crate) mod gjk {
    pub const START: usize = 0;
    pub const CLOSEST: usize = 2;
    pub const CONTAINS: usize = 4;
    pub const SUPPORT: usize = 5;
    pub const REPEATED: usize = 6;
    pub const NO_PROGRESS: usize = 7;
    pub const CAP: usize = 8;
    pub const ADD: usize = 9;
}

const GJK: &[&str] = &[
    "w = support(d0); simplex = [w]",
    "loop:",
    "    v = point of the simplex closest to the origin",
    "    drop the simplex vertices v does not need",
    "    if the simplex is a triangle or |v| ≈ 0: ContainsOrigin (they overlap)",
    "    w = support(−v)   (farthest point of A − B along −v)",
    "    if w is already in the simplex: RepeatedSupport (distance final)",
    "    if |v| − (w·v)/|v| ≤ ε·scale: NoProgress (distance final)",
    "    if the iteration cap is reached: IterationCap",
    "    simplex += w",
];

/// Lines of [`Listing::Epa`].
// Every line is named, used or not, so that editing a listing shows which names move.
#[allow(dead_code)]
pub(crate) mod epa {
    pub const START: usize = 0;
    pub const CLOSEST: usize = 2;
    pub const SUPPORT: usize = 3;
    pub const CONVERGED: usize = 4;
    pub const REPEATED: usize = 5;
    pub const CAP: usize = 6;
    pub const INSERT: usize = 7;
    pub const ANSWER: usize = 8;
}

const EPA: &[&str] = &[
    "polytope = GJK's simplex, grown to a polygon holding the origin",
    "loop:",
    "    e = polytope edge closest to the origin; n its outward normal; d = its distance",
    "    w = support(n)   (farthest point of A − B along n)",
    "    if w·n − d ≤ ε·scale: Converged (e lies on the boundary of A − B)",
    "    if w is already a vertex: RepeatedSupport",
    "    if the iteration cap is reached: IterationCap",
    "    insert w between e's end points",
    "depth = d, normal = n",
];

/// Lines of [`Listing::Clip`].
// Every line is named, used or not, so that editing a listing shows which names move.
#[allow(dead_code)]
pub(crate) mod clip {
    pub const CLIP: usize = 2;
}

const CLIP: &[&str] = &[
    "reference edge = the edge (of A or B) most parallel to the normal",
    "incident edge = the other shape's edge most anti-parallel to it",
    "clip the incident edge to the slab between the reference edge's side planes",
    "keep the clipped points below the reference face; each point's depth is how far below",
];

/// Lines of [`Listing::Compound`].
// Every line is named, used or not, so that editing a listing shows which names move.
#[allow(dead_code)]
pub(crate) mod compound {
    pub const START: usize = 0;
    pub const BOUNDS: usize = 1;
    pub const PAIR: usize = 2;
    pub const CANDIDATE: usize = 3;
    pub const BEST: usize = 5;
    pub const ANSWER: usize = 6;
}

const COMPOUND: &[&str] = &[
    "for each convex piece Ai of A and Bj of B:",
    "    if the boxes of Ai and Bj do not overlap: skip the pair",
    "    run the exact test (SAT or GJK + EPA) on Ai, Bj",
    "for each candidate point p of A − B (the union of all Ai − Bj), nearest the origin first:",
    "    (feet of perpendiculars on edges, vertices, crossings of two differences' edges)",
    "    if no Ai − Bj holds p strictly inside: p is on the boundary, stop",
    "normal = p / |p|, depth = |p|; contact points by clipping",
];

/// Lines of [`Listing::BoundingVolumes`].
// Every line is named, used or not, so that editing a listing shows which names move.
#[allow(dead_code)]
pub(crate) mod bounding {
    pub const SHAPE: usize = 0;
    pub const DIAMETER: usize = 1;
    pub const VOLUME: usize = 2;
    pub const TAU: usize = 3;
    pub const BEST: usize = 4;
}

const BOUNDING_VOLUMES: &[&str] = &[
    "S = the shape, world frame",
    "d = the largest distance between two points of S (two hull vertices)",
    "for each kind V in AABB, circle, OBB (min-area, covariance), 8-DOP: build V around S",
    "    τ = max over q in V of dist(q, S) (Hausdorff distance: q is where V fits worst); ρ = τ / d",
    "the kind with the smallest ρ fits S best",
];

/// Lines of [`Listing::SweepAndPrune`].
// Every line is named, used or not, so that editing a listing shows which names move.
#[allow(dead_code)]
pub(crate) mod sap {
    pub const INTERVALS: usize = 0;
    pub const SORT: usize = 1;
    pub const SWAP: usize = 2;
    pub const OUTER: usize = 3;
    pub const INNER: usize = 4;
    pub const STOP: usize = 5;
    pub const TEST_Y: usize = 6;
    pub const REPORT: usize = 7;
}

const SWEEP_AND_PRUNE: &[&str] = &[
    "for each body: interval [min x, max x] of its box",
    "keep the intervals sorted by min x (insertion sort: last step's order is nearly right)",
    "    while an interval's min x is below its left neighbour's: swap them",
    "for each interval a, in sorted order:",
    "    for each later interval b:",
    "        if b.min x > a.max x: stop (no later interval starts before a ends)",
    "        the x intervals overlap: if the y intervals do too, (a, b) is a pair",
    "report the pairs; the bodies move; next step: refresh the intervals, sort again (few swaps), sweep",
];

/// Lines of [`Listing::SpatialHash`].
// Every line is named, used or not, so that editing a listing shows which names move.
#[allow(dead_code)]
pub(crate) mod hash {
    pub const CELL: usize = 0;
    pub const INSERT: usize = 1;
    pub const OVERSIZE: usize = 2;
    pub const CELLS: usize = 3;
    pub const PAIRS: usize = 4;
    pub const BIG: usize = 5;
}

const SPATIAL_HASH: &[&str] = &[
    "cell size h (about the typical box's size)",
    "for each box: add it to every cell its box covers",
    "    a box covering too many cells is oversized: kept aside instead",
    "for each occupied cell:",
    "    every two boxes in it whose boxes overlap make a pair (each pair once)",
    "each oversized box is tested against every other box",
];

/// Lines of [`Listing::Trees`] (`geometry/edge_tree/`: `build`, then
/// `for_each_overlapping_pair_recorded`).
// Every line is named, used or not, so that editing a listing shows which names move.
#[allow(dead_code)]
pub(crate) mod trees {
    pub const BUILD: usize = 0;
    pub const SPLIT: usize = 1;
    pub const POP: usize = 2;
    pub const PRUNE: usize = 3;
    pub const LEAF: usize = 4;
    pub const OPEN: usize = 5;
    pub const COST: usize = 6;
}

const TREES: &[&str] = &[
    "build(edges): node volume V around the edges' end points (AABB, circle, OBB or 8-DOP)",
    "    more than 8 edges: split at the median edge along the longer side of the node's box; build both halves",
    "descend: stack = [(root of A, root of B)]; pop a pair; Nv += 1",
    "    if V(a) does not overlap V(b) moved into A's frame: prune (skip both subtrees)",
    "    both leaves: for each edge pair: Np += 1; boxes overlap: a candidate pair for the exact test",
    "    else: push the larger node's two children (the right child is popped first)",
    "T = Nv·Cv + Np·Cp (Cv: one volume test, Cp: one edge-box test, both timed here)",
];

/// Lines of [`Listing::DynamicTree`].
// Every line is named, used or not, so that editing a listing shows which names move.
#[allow(dead_code)]
pub(crate) mod tree {
    pub const INSERT: usize = 0;
    pub const DESCEND: usize = 1;
    pub const SIBLING: usize = 2;
    pub const REFIT: usize = 3;
    pub const ROTATE: usize = 4;
    pub const QUERY: usize = 5;
    pub const VISIT: usize = 6;
}

const DYNAMIC_TREE: &[&str] = &[
    "insert leaf L (its box fattened by a margin):",
    "    descend from the root to the child whose box grows least in perimeter",
    "    make L and the sibling found children of a new parent",
    "    walk back up, refitting every ancestor's box",
    "    where a node's children differ in height by more than 1: lift the taller one (rotation)",
    "query box Q: from the root,",
    "    visit a node only if its box overlaps Q; a leaf reached is a candidate",
];

/// Lines of [`Listing::Continuous`].
// Every line is named, used or not, so that editing a listing shows which names move.
#[allow(dead_code)]
pub(crate) mod continuous {
    pub const DISCRETE: usize = 0;
    pub const FAST: usize = 1;
    pub const POSES: usize = 2;
    pub const BISECT: usize = 3;
    pub const ROLLBACK: usize = 4;
    pub const ADVANCE: usize = 5;
    pub const CONTACT: usize = 6;
    pub const COMPARE: usize = 7;
}

const CONTINUOUS: &[&str] = &[
    "one discrete step: integrate, then detect at the end pose only",
    "fast: some point moves further than a fraction of the body's size",
    "interpolation: for k = 1..n: pose at tau = k/n; stop at the first that overlaps",
    "    bisection: [t0, t1] = [previous tau, tau]; halve while longer than the slop",
    "    put the body at t1 (it overlaps by at most the slop), keep its velocity",
    "advancement: d, n = GJK distance at tau; tau += d / mu (mu: fastest approach along n)",
    "    when d is under a quarter of the slop: time of impact tau",
    "compare: the two times of impact, and the queries each method needed",
];

/// Lines of [`Listing::Resolution`].
// Every line is named, used or not, so that editing a listing shows which names move.
#[allow(dead_code)]
pub(crate) mod resolution {
    pub const DETECT: usize = 0;
    pub const LITERAL: usize = 1;
    pub const PREDICT: usize = 2;
    pub const PROJECT: usize = 3;
    pub const STATIC_FRICTION: usize = 4;
    pub const VELOCITY_PASS: usize = 5;
    pub const WARM_START: usize = 6;
    pub const ITERATE: usize = 7;
    pub const RELAX: usize = 8;
    pub const REPEAT: usize = 9;
}

const RESOLUTION: &[&str] = &[
    "each world step: detect contacts (points, n, depth); per substep h:",
    "literal: each overlapping pair: A out of B by the whole MTV; cancel approach",
    "position-based: v += g h; x += v h (predict)",
    "    position passes: d lambda = -C / (wA + wB), both moved by their shares",
    "    in the last, after each contact: static friction, |lambda_t| <= mu lambda_n",
    "    v = (x - x_prev)/h; velocity pass: vn -> 0 (or -e vn); resting: lower body 4x; friction",
    "impulses: v += g h; warm start: apply last step's impulses",
    "    velocity iterations: lambda = max(0, acc + d lambda) - acc",
    "    x += v h; relax iterations: the same without the bias",
    "repeat every substep and step; after a second, compare the stacks",
];
