//! NonConvexSat on big outlines: the axes that cannot change the answer are skipped.
//! Every axis's overlap is first bounded from below with two dot products per outline
//! (the support rings of `geometry/support_ring.rs`), then only the axes whose bound
//! does not beat the least overlap found so far are projected exactly. The answer is
//! the one of the plain loop in `sat_nonconvex.rs`, bit for bit (`tests/edge_tree.rs`,
//! `tests/big_queries.rs`).

use super::super::contact::Work;
use super::super::sat::{interval_gap, project_interval};
use super::super::{NarrowConfig, PairPenetration};
use super::{finish, project_outline};
use crate::bounds::Aabb;
use crate::geometry::{ConvexView, EdgeTree, Shape, SupportRing};
use crate::math::{Pose, Vec2};

/// From this many vertices in the two outlines together, [`EdgeTreePolicy::Auto`](crate::narrow::EdgeTreePolicy::Auto) skips
/// the axes that cannot matter (`sat_whole_outlines_pruned`). Below it every axis is
/// projected: the two passes of the pruned loop cost more than they save on small
/// shapes.
pub const PRUNE_MIN_VERTICES: usize = 256;

pub(super) fn ring_of(shape: &Shape) -> Option<&SupportRing> {
    match shape {
        Shape::Polygon(p) => p.support_ring(),
        _ => None,
    }
}

/// The two outlines of a NonConvexSat query and what the pruned loop reads.
pub(super) struct Outlines<'a> {
    pub(super) a: &'a ConvexView<'a>,
    pub(super) pose_a: &'a Pose,
    pub(super) ring_a: Option<&'a SupportRing>,
    pub(super) tree_a: Option<&'a EdgeTree>,
    pub(super) a_nonconvex: bool,
    pub(super) b: &'a ConvexView<'a>,
    pub(super) pose_b: &'a Pose,
    pub(super) ring_b: Option<&'a SupportRing>,
    pub(super) tree_b: Option<&'a EdgeTree>,
    /// B's local box: an interval around B's projection on any axis.
    pub(super) box_b: Aabb,
    /// B's pose in A's frame.
    pub(super) xf_ab: Pose,
    pub(super) scale: f32,
    /// Step 7's tolerance (m): see `straddle_tolerance`.
    pub(super) straddle: f32,
    pub(super) config: &'a NarrowConfig,
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

/// `sat_whole_outlines` without the axes that cannot change its answer (no trace).
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
pub(super) fn sat_whole_outlines_pruned(o: &Outlines, work: &mut Work) -> Option<PairPenetration> {
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
