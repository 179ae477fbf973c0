//! Fayzrakhmanov et al. (2015): the separating axis test on whole, possibly non-convex polygons, without
//! convex decomposition (Fayzrakhmanov et al.).
//!
//! The paper's steps, for polygons PA and PB (what each line of code below implements is
//! marked with its step number):
//!
//! ```text
//! 1  E[i] = p[i+1] − p[i] for both polygons          (edges, wrapping around)
//! 2  m = edges of PA + edges of PB; k = 1
//! 3  axis A = normalise(−E[k].y, E[k].x)
//! 4  project both polygons on A: [minA, maxA], [minB, maxB]
//! 5  I = minB − maxA if minA < minB else minA − maxB  (gap)
//! 6  I > 0: the axis separates them — no collision, stop
//! 7  if E[k] is PA's and PA is non-convex: project the edge itself (one value e);
//!    if PB lies wholly on one side of e, the edge does not touch PB: next edge.
//!    If that holds for every edge of PA, the polygons do not intersect: stop.
//! 8  if the overlap −I beats the best so far: D = −I, V = A
//! 9  after all m axes the separating translation is V·D
//! 10 C = centre(PA) − centre(PB); if C·V < 0 flip V
//! 11 move PA by V
//! ```
//!
//! It is a heuristic. Plain SAT is exact only for convex shapes: two non-convex polygons
//! can overlap on every edge axis without touching (a false positive), and the least
//! overlap among edge axes can be far from the true penetration depth, and step 10's
//! centre-to-centre sign can point the wrong way. We implement it faithfully and measure
//! those disagreements (tests/nonconvex_rates.rs); lessons show them.
//!
//! Touching counts as not intersecting: step 6 stops on a gap above minus the touching
//! tolerance, and step 7 treats B resting exactly on the edge's line as one side.
//!
//! Step 4 is the hot loop — every axis projects every vertex, O(n·m) in all — so a
//! polygon with many vertices projects through its edge tree instead (Liu et al.'s (2018)
//! bounding-volume hierarchy; `NarrowConfig::edge_tree`), with the same result bit for
//! bit and O((n + m) log n) work on typical outlines.
//!
//! Circles have no edges; with a circle involved the whole-outline Voronoi test of
//! `circle.rs` (Ren and Xie 2011) answers instead.

use super::contact::{Contact, Work};
use super::query::{penetration_with_circle, PieceQuery, Recorder, ShapeQuery};
use super::sat::{interval_gap, project_interval};
use super::trace::{record, AxisSource, EdgeTestStep, Owner, SatAxisStep, Trace, TraceStep};
use super::EdgeTreePolicy;
use super::{contact_from_pair, NarrowConfig, PairPenetration};
use crate::bounds::Aabb;
use crate::geometry::{mass::polygon_centroid, ConvexView, EdgeTree, Shape, SupportRing};
use crate::math::{Pose, Vec2};

/// Fayzrakhmanov et al.'s (2015) algorithm (circles by Voronoi regions). See the module docs.
pub(crate) fn collide_nonconvex_sat(q: &ShapeQuery, trace: &mut Option<&mut Trace>) -> Contact {
    let (a, pose_a, b, pose_b, scale, config) = (q.a, &q.pose_a, q.b, &q.pose_b, q.scale, q.config);
    let mut work = Work {
        primitive_tests: 1,
        ..Work::default()
    };
    let whole = q.whole();
    let (va, vb) = (whole.a, whole.b);
    let pen = match penetration_with_circle(&whole, trace) {
        Some(pen) => Some(pen),
        None => {
            let a_nonconvex = matches!(a, Shape::Polygon(p) if !p.is_convex());
            let trees = (edge_tree_of(a, config), edge_tree_of(b, config));
            let pruned = trace.is_none()
                && match config.edge_tree {
                    EdgeTreePolicy::Never => false,
                    EdgeTreePolicy::Always => true,
                    EdgeTreePolicy::Auto { .. } => va.vertices.len() + vb.vertices.len() >= PRUNE_MIN_VERTICES,
                };
            if pruned {
                let outlines = Outlines {
                    a: &va,
                    pose_a,
                    ring_a: ring_of(a),
                    tree_a: trees.0,
                    a_nonconvex,
                    b: &vb,
                    pose_b,
                    ring_b: ring_of(b),
                    tree_b: trees.1,
                    box_b: match b {
                        Shape::Polygon(p) => p.local_aabb(),
                        _ => Aabb::from_points(vb.vertices),
                    },
                    xf_ab: q.xf_ab,
                    scale,
                    straddle: straddle_tolerance(q),
                    config,
                };
                sat_whole_outlines_pruned(&outlines, &mut work)
            } else {
                let straddle = straddle_tolerance(q);
                sat_whole_outlines(
                    &whole,
                    (a_nonconvex, straddle),
                    trees,
                    &mut Recorder { work: &mut work, trace },
                )
            }
        }
    };
    match pen {
        Some(pen) if config.is_penetrating(pen.depth, scale) => contact_from_pair(&whole, pen, work, trace),
        _ => Contact::separated(work),
    }
}

/// Step 7's tolerance (m): B straddles the line of an edge of A when it reaches beyond
/// it by more than this on both sides. The test compares B's projection, computed in A's
/// frame, with the edge, so its rounding is relative to the pair's own extent in A's
/// frame (the larger size plus B's offset from A), not to the world coordinates that
/// step 6's touching tolerance carries: with the latter, two identical non-convex bodies
/// at the same pose 7 km out had no edge of A straddling B (a 2.3 mm notch within a
/// 6.8 mm tolerance) and came out apart (`tests/precision.rs`).
fn straddle_tolerance(q: &ShapeQuery) -> f32 {
    q.config.touch_tolerance * (q.a.size().max(q.b.size()) + q.xf_ab.translation.abs().max_element())
}

/// The edge tree NonConvexSat projects through, if the policy wants it for this shape.
fn edge_tree_of<'s>(shape: &'s Shape, config: &NarrowConfig) -> Option<&'s EdgeTree> {
    match shape {
        Shape::Polygon(p) if config.edge_tree.uses_tree(p.vertices().len()) => Some(p.edge_tree()),
        _ => None,
    }
}

/// Step 4's projection of one outline: through its edge tree when there is one (the
/// same interval, bit for bit, visiting O(log n) nodes on typical outlines — Liu et al.'s (2018)
/// hierarchy, see `geometry::edge_tree`), else over every vertex.
#[inline]
fn project_outline(vertices: &[Vec2], tree: Option<&EdgeTree>, axis: Vec2, work: &mut Work) -> (f32, f32) {
    match tree {
        Some(tree) => {
            let (interval, cost) = tree.project(vertices, axis);
            work.bv_tests += cost.nodes;
            work.vertices_scanned += cost.vertices;
            interval
        }
        None => {
            work.vertices_scanned += vertices.len() as u32;
            project_interval(vertices, axis)
        }
    }
}

/// Centre of an outline for step 10: the area centroid of a polygon, the midpoint of a
/// segment. The paper says only "centre"; the centroid is the natural choice for a body
/// and does not depend on how densely the outline is sampled, unlike the vertex mean.
fn outline_center(view: &ConvexView) -> Vec2 {
    if view.vertices.len() >= 3 {
        polygon_centroid(view.vertices)
    } else {
        view.vertices.iter().copied().sum::<Vec2>() / view.vertices.len() as f32
    }
}

/// Steps 1–10 on two outlines. `None` when an axis separates them or step 7 finds that
/// no edge of non-convex A touches B.
fn sat_whole_outlines(
    q: &PieceQuery,
    (a_nonconvex, touch): (bool, f32),
    (tree_a, tree_b): (Option<&EdgeTree>, Option<&EdgeTree>),
    rec: &mut Recorder,
) -> Option<PairPenetration> {
    let (a, pose_a, b, pose_b, scale, config) = (&q.a, &q.pose_a, &q.b, &q.pose_b, q.scale, q.config);
    // Everything in A's frame; B is projected by turning each axis into B's frame (Liu
    // et al.'s (2018) reuse of the relative transform, computed once per pair).
    let xf_ab = q.xf_ab;
    let (work, trace) = (&mut *rec.work, &mut *rec.trace);
    let (na, nb) = (a.vertices.len(), b.vertices.len());
    // A segment is a polygon of two vertices whose two edges are the same line; one of
    // them is enough (the other gives the same axis).
    let edges_a = if na == 2 { 1 } else { na };
    let edges_b = if nb == 2 { 1 } else { nb };
    let m = edges_a + edges_b; // step 2
    let mut best_overlap = f32::INFINITY; // D
    let mut best_axis = Vec2::ZERO; // V, A's frame
    let mut a_edges_touching = 0;
    for k in 0..m {
        // Step 1: the edge, in A's frame.
        let (owner, edge, local_edge, local_start) = if k < edges_a {
            let p0 = a.vertices[k];
            (Owner::A, k, a.vertices[(k + 1) % na] - p0, p0)
        } else {
            let j = k - edges_a;
            let p0 = xf_ab.apply_point(b.vertices[j]);
            (Owner::B, j, xf_ab.apply_point(b.vertices[(j + 1) % nb]) - p0, p0)
        };
        // Step 3.
        let local_axis = Vec2::new(-local_edge.y, local_edge.x).normalize_or_zero();
        if local_axis == Vec2::ZERO {
            continue;
        }
        // Step 4.
        let ia = project_outline(a.vertices, tree_a, local_axis, work);
        let ib = project_outline(b.vertices, tree_b, xf_ab.apply_inv_vector(local_axis), work);
        let offset_b = xf_ab.translation.dot(local_axis);
        let ib = (ib.0 + offset_b, ib.1 + offset_b);
        // Step 5 (the paper's two cases are the larger of the two one-sided gaps).
        let gap = interval_gap(ia, ib);
        work.axes_tested += 1;
        let world = |v: f32, world_axis: Vec2| v + pose_a.translation.dot(world_axis);
        let trace_axis = |trace: &mut Option<&mut Trace>, new_minimum: bool| {
            record(trace, || {
                let world_axis = pose_a.apply_vector(local_axis);
                TraceStep::SatAxis(SatAxisStep {
                    index: k,
                    total: m,
                    source: AxisSource::Edge { owner, piece: 0, edge },
                    axis: world_axis,
                    interval_a: (world(ia.0, world_axis), world(ia.1, world_axis)),
                    interval_b: (world(ib.0, world_axis), world(ib.1, world_axis)),
                    gap,
                    new_minimum,
                })
            })
        };
        // Step 6 (touching counts as separated).
        if !config.is_penetrating(-gap, scale) {
            trace_axis(trace, false);
            return None;
        }
        // Step 7.
        if owner == Owner::A && a_nonconvex {
            let edge_value = local_start.dot(local_axis);
            let straddles = ib.0 < edge_value - touch && ib.1 > edge_value + touch;
            work.edge_tests += 1;
            let new_minimum = straddles && -gap < best_overlap;
            trace_axis(trace, new_minimum);
            record(trace, || {
                let world_axis = pose_a.apply_vector(local_axis);
                TraceStep::EdgeTest(EdgeTestStep {
                    edge,
                    axis: world_axis,
                    edge_value: world(edge_value, world_axis),
                    interval_b: (world(ib.0, world_axis), world(ib.1, world_axis)),
                    straddles,
                })
            });
            if !straddles {
                if k + 1 == edges_a && a_edges_touching == 0 {
                    return None;
                }
                continue;
            }
            a_edges_touching += 1;
            // Step 8 for an edge that touches B.
            if new_minimum {
                best_overlap = -gap;
                best_axis = local_axis;
            }
            continue;
        }
        // Step 8.
        let new_minimum = -gap < best_overlap;
        if new_minimum {
            best_overlap = -gap;
            best_axis = local_axis;
        }
        trace_axis(trace, new_minimum);
    }
    if a_nonconvex && a_edges_touching == 0 {
        return None;
    }
    if !best_overlap.is_finite() {
        return None;
    }
    // Steps 9 and 10.
    Some(finish(a, pose_a, b, pose_b, best_axis, best_overlap))
}

/// From this many vertices in the two outlines together, [`EdgeTreePolicy::Auto`] skips
/// the axes that cannot matter (`sat_whole_outlines_pruned`). Below it every axis is
/// projected: the two passes of the pruned loop cost more than they save on small
/// shapes.
pub const PRUNE_MIN_VERTICES: usize = 256;

fn ring_of(shape: &Shape) -> Option<&SupportRing> {
    match shape {
        Shape::Polygon(p) => p.support_ring(),
        _ => None,
    }
}

/// The two outlines of a NonConvexSat query and what the pruned loop reads.
struct Outlines<'a> {
    a: &'a ConvexView<'a>,
    pose_a: &'a Pose,
    ring_a: Option<&'a SupportRing>,
    tree_a: Option<&'a EdgeTree>,
    a_nonconvex: bool,
    b: &'a ConvexView<'a>,
    pose_b: &'a Pose,
    ring_b: Option<&'a SupportRing>,
    tree_b: Option<&'a EdgeTree>,
    /// B's local box: an interval around B's projection on any axis.
    box_b: Aabb,
    /// B's pose in A's frame.
    xf_ab: Pose,
    scale: f32,
    /// Step 7's tolerance (m): see [`straddle_tolerance`].
    straddle: f32,
    config: &'a NarrowConfig,
}

/// What steps 4–7 say about one axis.
#[derive(Clone, Copy, Debug, PartialEq)]
enum AxisVerdict {
    /// The axis separates the outlines (step 6).
    Separates,
    /// An edge of non-convex A whose line B lies wholly on one side of (step 7).
    NotTouching,
    /// The overlap on the axis, a candidate for the least (step 8).
    Overlap(f32),
}

impl Outlines<'_> {
    /// The number of edges of each outline (a segment has one: its two are one line).
    fn edge_counts(&self) -> (usize, usize) {
        let (na, nb) = (self.a.vertices.len(), self.b.vertices.len());
        (if na == 2 { 1 } else { na }, if nb == 2 { 1 } else { nb })
    }

    /// Steps 1 and 3 for axis `k` (A's edges first): whether it is A's, the unit axis
    /// and the edge's start, in A's frame, exactly as `sat_whole_outlines` computes
    /// them; `None` for a degenerate edge.
    #[inline]
    fn axis(&self, k: usize, edges_a: usize) -> Option<(bool, Vec2, Vec2)> {
        let (na, nb) = (self.a.vertices.len(), self.b.vertices.len());
        let (of_a, local_edge, local_start) = if k < edges_a {
            let p0 = self.a.vertices[k];
            (true, self.a.vertices[(k + 1) % na] - p0, p0)
        } else {
            let j = k - edges_a;
            let p0 = self.xf_ab.apply_point(self.b.vertices[j]);
            (false, self.xf_ab.apply_point(self.b.vertices[(j + 1) % nb]) - p0, p0)
        };
        let local_axis = Vec2::new(-local_edge.y, local_edge.x).normalize_or_zero();
        (local_axis != Vec2::ZERO).then_some((of_a, local_axis, local_start))
    }

    /// A lower bound on the overlap of the outlines' projections on `local_axis`, from
    /// intervals inside both projections (the support rings, or every vertex of an
    /// outline without one); also whether B's inner interval alone shows that B
    /// straddles the line at `edge_value` (step 7's test, which then holds for the
    /// exact interval too). Never above the exact overlap, bit for bit: the inner
    /// intervals are projections of actual vertices by the same formula, and rounding
    /// is monotone.
    #[inline]
    fn overlap_bound(&self, local_axis: Vec2, edge_value: f32, touch: f32) -> (f32, bool) {
        let inner = |ring: Option<&SupportRing>, vertices: &[Vec2], axis: Vec2| match ring {
            Some(ring) => ring.inner_interval(axis),
            None => project_interval(vertices, axis),
        };
        let ia = inner(self.ring_a, self.a.vertices, local_axis);
        let ib = inner(self.ring_b, self.b.vertices, self.xf_ab.apply_inv_vector(local_axis));
        let offset_b = self.xf_ab.translation.dot(local_axis);
        let ib = (ib.0 + offset_b, ib.1 + offset_b);
        let straddles = ib.0 < edge_value - touch && ib.1 > edge_value + touch;
        (-interval_gap(ia, ib), straddles)
    }

    /// Whether B surely lies on one side of the line at `edge_value` on `local_axis`
    /// (step 7's "does not touch"), from an interval around B's projection: its box's
    /// corners, projected by the vertices' formula (so never inside the exact interval,
    /// rounding being monotone).
    #[inline]
    fn surely_one_side(&self, local_axis: Vec2, edge_value: f32, touch: f32) -> bool {
        let axis = self.xf_ab.apply_inv_vector(local_axis);
        let corner = |d: Vec2| {
            let x = if d.x >= 0.0 { self.box_b.max.x } else { self.box_b.min.x };
            let y = if d.y >= 0.0 { self.box_b.max.y } else { self.box_b.min.y };
            x * d.x + y * d.y
        };
        let offset_b = self.xf_ab.translation.dot(local_axis);
        let (lo, hi) = (-corner(-axis) + offset_b, corner(axis) + offset_b);
        lo >= edge_value - touch || hi <= edge_value + touch
    }

    /// [`Self::overlap_bound`] for A's edge `k`, with its axis and A's own inner interval
    /// from A's ring (the same values, bit for bit, as computed here).
    #[inline]
    fn bound_on_a_edge(&self, k: usize, ring_a: &SupportRing) -> f32 {
        let local_axis = ring_a.edge_axis(k);
        if local_axis == Vec2::ZERO {
            return f32::INFINITY;
        }
        let ia = ring_a.own_interval(k);
        let axis_b = self.xf_ab.apply_inv_vector(local_axis);
        let ib = match self.ring_b {
            Some(ring) => ring.inner_interval(axis_b),
            None => project_interval(self.b.vertices, axis_b),
        };
        let offset_b = self.xf_ab.translation.dot(local_axis);
        -interval_gap(ia, (ib.0 + offset_b, ib.1 + offset_b))
    }

    /// Steps 4–7 on one axis, exactly as `sat_whole_outlines` does them. `cache` holds
    /// the last axes projected: parallel edges (a comb's teeth) give the same axis to
    /// the bit, and the same intervals.
    fn verdict(
        &self,
        of_a: bool,
        local_axis: Vec2,
        local_start: Vec2,
        cache: &mut ProjectionCache,
        work: &mut Work,
    ) -> AxisVerdict {
        let (ia, ib) = cache.get(local_axis).unwrap_or_else(|| {
            let ia = project_outline(self.a.vertices, self.tree_a, local_axis, work);
            let ib = project_outline(
                self.b.vertices,
                self.tree_b,
                self.xf_ab.apply_inv_vector(local_axis),
                work,
            );
            let offset_b = self.xf_ab.translation.dot(local_axis);
            let ib = (ib.0 + offset_b, ib.1 + offset_b);
            cache.put(local_axis, (ia, ib));
            (ia, ib)
        });
        let gap = interval_gap(ia, ib);
        work.axes_tested += 1;
        if !self.config.is_penetrating(-gap, self.scale) {
            return AxisVerdict::Separates;
        }
        if of_a && self.a_nonconvex {
            let touch = self.straddle;
            let edge_value = local_start.dot(local_axis);
            work.edge_tests += 1;
            if !(ib.0 < edge_value - touch && ib.1 > edge_value + touch) {
                return AxisVerdict::NotTouching;
            }
        }
        AxisVerdict::Overlap(-gap)
    }
}

/// The last few axes the pruned loop projected, with both intervals.
#[derive(Default)]
struct ProjectionCache {
    entries: [Option<(Vec2, Interval, Interval)>; 4],
    next: usize,
}

type Interval = (f32, f32);

impl ProjectionCache {
    fn get(&self, axis: Vec2) -> Option<(Interval, Interval)> {
        self.entries
            .iter()
            .flatten()
            .find(|(a, _, _)| a.x.to_bits() == axis.x.to_bits() && a.y.to_bits() == axis.y.to_bits())
            .map(|&(_, ia, ib)| (ia, ib))
    }

    fn put(&mut self, axis: Vec2, (ia, ib): (Interval, Interval)) {
        self.entries[self.next] = Some((axis, ia, ib));
        self.next = (self.next + 1) % self.entries.len();
    }
}

thread_local! {
    /// Per axis, the lower bound of the pruned loop's first pass (kept between calls so
    /// that a query allocates nothing in steady state).
    static BOUNDS: std::cell::RefCell<Vec<f32>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// [`sat_whole_outlines`] without the axes that cannot change its answer (no trace).
///
/// The answer of steps 1–10 does not depend on the order of the axes: `None` if any
/// axis separates (or, for non-convex A, if no edge of A touches B), else the least
/// overlap, the first axis on ties. So the axes can be taken in any order, with the
/// tie broken by index, and an axis can be skipped when a lower bound on its overlap
/// (`Outlines::overlap_bound`, two dot products per outline with the support rings)
/// is above the least overlap found: it cannot be the least, and cannot separate, since
/// the least one found does not. Pseudocode:
///
/// ```text
/// pass 1: bound[k] = lower bound on axis k's overlap, for every axis
/// seed:   the axis of least bound among those that always count (B's edges; A's
///         too when A is convex): its exact verdict; separating → None
/// pass 2: for every other axis k in order:
///           bound[k] > least, or = least with k after the least's axis → skip
///                                   (an edge of A whose line B surely straddles
///                                   counts as touching)
///           else exact verdict: separating → None; not touching → next;
///                overlap < least, or equal on a smaller k → the new least
/// end:    non-convex A with no touching edge known → check the skipped edges of A
/// ```
///
/// The same answer bit for bit as the full loop (`tests/edge_tree.rs` compares them);
/// on two polygons of 10,000 vertices at a shallow contact it projects a few dozen axes
/// instead of 20,000.
fn sat_whole_outlines_pruned(o: &Outlines, work: &mut Work) -> Option<PairPenetration> {
    BOUNDS.with(|cell| {
        let mut fresh = Vec::new();
        let mut borrowed = cell.try_borrow_mut().ok();
        let bounds = borrowed.as_deref_mut().unwrap_or(&mut fresh);
        let answer = pruned_loop(o, work, bounds);
        if bounds.capacity() > 1 << 20 {
            *bounds = Vec::new();
        }
        answer
    })
}

fn pruned_loop(o: &Outlines, work: &mut Work, bounds: &mut Vec<f32>) -> Option<PairPenetration> {
    let touch = o.straddle;
    let (edges_a, edges_b) = o.edge_counts();
    let m = edges_a + edges_b;
    let counts_always = |k: usize| k >= edges_a || !o.a_nonconvex;
    // Pass 1. With a ring, the axis of an edge of A and A's own inner interval on it
    // were computed at load. B's axes are computed here as the full loop does, from B's
    // vertices turned into A's frame: turning B's own axes instead would round them
    // differently, and on a short edge (a comb's 0.2 mm tooth tops) that moves the
    // overlap by ~1e-4 m, far more than the bound may err.
    bounds.clear();
    let mut seed: Option<(usize, f32)> = None;
    let nb = o.b.vertices.len();
    // B's vertices turned into A's frame, each once: the end of edge j is the start of
    // edge j + 1 (the same values as the full loop turns twice).
    let mut b_end = o.xf_ab.apply_point(o.b.vertices[0]);
    for k in 0..m {
        let bound = match (k < edges_a, o.ring_a) {
            (true, Some(ring_a)) => o.bound_on_a_edge(k, ring_a),
            (false, _) if nb >= 3 => {
                let j = k - edges_a;
                let p0 = b_end;
                b_end = o.xf_ab.apply_point(o.b.vertices[(j + 1) % nb]);
                let e = b_end - p0;
                let local_axis = Vec2::new(-e.y, e.x).normalize_or_zero();
                if local_axis == Vec2::ZERO {
                    f32::INFINITY
                } else {
                    o.overlap_bound(local_axis, f32::NAN, touch).0
                }
            }
            _ => match o.axis(k, edges_a) {
                Some((_, local_axis, _)) => o.overlap_bound(local_axis, f32::NAN, touch).0,
                None => f32::INFINITY,
            },
        };
        bounds.push(bound);
        if counts_always(k) && bound.is_finite() && seed.is_none_or(|(_, b)| bound < b) {
            seed = Some((k, bound));
        }
    }
    // The least overlap so far and its axis index.
    let mut best: Option<(f32, usize, Vec2)> = None;
    let mut cache = ProjectionCache::default();
    let tolerated = |bound: f32| o.config.is_penetrating(bound, o.scale);
    let mut touching = false;
    if let Some((k, _)) = seed {
        let (of_a, local_axis, local_start) = o.axis(k, edges_a)?;
        match o.verdict(of_a, local_axis, local_start, &mut cache, work) {
            AxisVerdict::Separates => return None,
            AxisVerdict::NotTouching => {}
            AxisVerdict::Overlap(overlap) => {
                touching |= of_a;
                best = Some((overlap, k, local_axis));
            }
        }
    }
    // Pass 2. A skipped edge of non-convex A whose straddling neither bound decides
    // is marked (its bound set to NaN) for the end.
    let mut undecided = false;
    // An index loop: `bounds[k]` is read and marked, and k breaks the ties.
    #[allow(clippy::needless_range_loop)]
    for k in 0..m {
        if Some(k) == seed.map(|(s, _)| s) {
            continue;
        }
        let of_a = k < edges_a;
        // Above the least, or equal to it on a later axis (which loses the tie): this
        // axis cannot be the answer, nor separate.
        let skipped = best.is_some_and(|(least, at, _)| bounds[k] > least || (bounds[k] == least && k > at));
        if skipped && !(of_a && o.a_nonconvex && !touching) {
            continue;
        }
        let axis = match (of_a, o.ring_a) {
            (true, Some(ring_a)) => {
                let local_axis = ring_a.edge_axis(k);
                (local_axis != Vec2::ZERO).then_some((true, local_axis, o.a.vertices[k]))
            }
            _ => o.axis(k, edges_a),
        };
        let Some((of_a, local_axis, local_start)) = axis else {
            continue;
        };
        let edge_value = local_start.dot(local_axis);
        if skipped {
            // No edge of A is known to touch B yet: does this one?
            if o.overlap_bound(local_axis, edge_value, touch).1 {
                touching = true;
            } else if !o.surely_one_side(local_axis, edge_value, touch) {
                bounds[k] = f32::NAN;
                undecided = true;
            }
            continue;
        }
        if of_a && o.a_nonconvex && tolerated(bounds[k]) && o.surely_one_side(local_axis, edge_value, touch) {
            // An edge of A whose line B surely does not straddle, on an axis that
            // surely does not separate: step 7 passes it by.
            continue;
        }
        let v = o.verdict(of_a, local_axis, local_start, &mut cache, work);
        match v {
            AxisVerdict::Separates => return None,
            AxisVerdict::NotTouching => {}
            AxisVerdict::Overlap(overlap) => {
                touching |= of_a;
                let better = best.is_none_or(|(least, at, _)| overlap < least || (overlap == least && k < at));
                if better {
                    best = Some((overlap, k, local_axis));
                }
            }
        }
    }
    if o.a_nonconvex && !touching {
        // Rare: no edge of A was seen to touch B, but some skipped ones may; their
        // exact test decides (none separates: each was skipped for an overlap above
        // the least).
        let found = undecided
            && (0..edges_a).any(|k| {
                bounds[k].is_nan()
                    && o.axis(k, edges_a).is_some_and(|(_, axis, start)| {
                        o.verdict(true, axis, start, &mut cache, work) != AxisVerdict::NotTouching
                    })
            });
        if !found {
            return None;
        }
    }
    let (least, _, axis) = best?;
    Some(finish(o.a, o.pose_a, o.b, o.pose_b, axis, least))
}

/// Steps 9 and 10: V·D moves A out of B, and V must point from B's centre to A's.
fn finish(
    a: &ConvexView,
    pose_a: &Pose,
    b: &ConvexView,
    pose_b: &Pose,
    best_axis: Vec2,
    best_overlap: f32,
) -> PairPenetration {
    let mut v = pose_a.apply_vector(best_axis);
    let c = pose_a.apply_point(outline_center(a)) - pose_b.apply_point(outline_center(b));
    if c.dot(v) < 0.0 {
        v = -v;
    }
    // The MTV is V·D, so the normal from A towards B is −V.
    PairPenetration {
        normal: -v,
        depth: best_overlap,
    }
}
