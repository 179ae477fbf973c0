//! Combining the piece pairs' answers into one exact answer for two non-convex bodies.
//!
//! ## What is exact
//! Each overlapping piece pair proposes a normal and a depth, but pushing A out of one
//! piece of B can push it into another, so no single pair's MTV is safe for the whole
//! bodies, and the shortest safe one need not be any pair's normal. What is exact is
//! this (the configuration-space obstacle of Lozano-Pérez, "Spatial planning: a
//! configuration space approach", 1983): A − B is the union U of the piece pairs'
//! Minkowski differences M_ij = A_i − B_j — all pairs, not only the overlapping ones —
//! and translating A by t leaves the bodies overlapping exactly when −t lies inside U.
//! So the minimum translation is −p for the point p of U's boundary nearest the origin.
//! Kim, Otaduy, Lin and Manocha ("Fast penetration depth computation for
//! physically-based animation", SCA 2002) compute the penetration depth of non-convex
//! polyhedra the same way, from the pairwise Minkowski sums of convex pieces; in 2D the
//! nearest point can be found exactly, as below. `exact.rs` holds an independent
//! brute-force version of the same definition, which the tests compare against.
//!
//! ## Where the nearest boundary point can be
//! U's boundary is made of pieces of the M_ij's edges. If p lies inside one such piece,
//! it is the foot of the perpendicular from the origin on that edge. Otherwise p is a
//! corner of U: a vertex of some M_ij, or a point where the edges of two M_ij cross.
//! Rounded pieces (a circle against a polygon) grow each M_ij by the radii: its edges
//! move out by the radius and its corners become circular arcs, whose point nearest the
//! origin joins the feet, and crossings with arcs join the crossings. A candidate is on
//! U's boundary when no M_kl holds it strictly inside (within the touching tolerance).
//! Only the feet on edges that face away from the origin are left out: there U lies on
//! the origin's side of the edge only if another difference covers it, and then the
//! foot is not on the boundary.
//!
//! ## Best first
//! Candidates are tested in increasing distance from the origin, and the first on U's
//! boundary is the answer. To test few of them and build few M_ij, everything is driven
//! by one priority queue of events, each keyed by a lower bound on the distance from the
//! origin of everything it produces (so the events come out in Dijkstra's order):
//! - *open* M_ij: build its hull and queue its edges (and arcs). The key is a lower bound
//!   on M_ij's distance from the origin: 0 for the pairs the piece loop found
//!   overlapping (their differences hold the origin, and may hold any candidate); the gap
//!   the piece loop measured for the pairs it found apart (SAT's largest gap, GJK's
//!   distance); the box distance (box of A_i minus box of B_j) for the pairs it never
//!   tested because their boxes are apart;
//! - *activate* an edge, at its distance: queue its nearest point (a foot, or an end) and
//!   its start vertex, and its crossings with the active edges of other differences;
//! - *test* a candidate, at its distance: is it strictly inside an open M_kl?
//!
//! When a candidate is tested, every M_kl that comes that near the origin is open, so
//! every difference that could hold it has been built, and every edge that near is
//! active, so no untested candidate is nearer. The untested pairs' boxes are scanned in
//! rings: within twice the deepest pair's depth first (the true depth is at least every
//! pair's own depth), then twice as far, and so on; differences farther than the answer
//! are never built.
//!
//! Three things keep the candidates few without changing the answer:
//! - An edge of M_ij made only of diagonals of the pieces' decompositions (edges shared
//!   by two pieces, `Shape::piece_diagonals`) has its inner points inside U: a
//!   diagonal's inner points are inner points of its polygon, so their translates are
//!   inner points of A − b for a point b of B. Only its ends are queued.
//! - An edge with both ends strictly inside one open M_kl is inside it (M_kl is convex),
//!   so none of its points is on the boundary: it is dropped when activated.
//! - Consecutive candidates tend to be held by the same difference, which is asked
//!   first.

use super::box_grid::BoxGrid;
use super::clip::contact_points;
use super::compound::CompoundScratch;
use super::contact::{Contact, Work};
use super::minkowski::minkowski_difference_hull_into;
use super::query::{Recorder, ShapeQuery};
use super::sat::penetration_sat;
use super::trace::{record, CombineCandidate, CombineStep, Trace, TraceStep};
use crate::bounds::Aabb;
use crate::geometry::{EdgeTree, Shape};
use crate::math::{cross, right_perp, Pose, Vec2};
use std::cmp::Ordering;
use std::collections::BinaryHeap;

mod primitives;
use primitives::{crossings, ray_interval, reduce_to_two};

/// One piece pair's Minkowski difference, built because its box came within reach.
#[derive(Clone, Copy, Debug)]
struct Difference {
    piece_a: usize,
    piece_b: usize,
    /// The core's vertices (counter-clockwise, radii left out) in `CombineScratch::core`.
    core: (u32, u32),
    /// The core's edges as (outward unit normal, offset) in `CombineScratch::planes`;
    /// empty when the core has fewer than three vertices.
    planes: (u32, u32),
    /// The pieces' radii added together: the difference is its core grown by this.
    radius: f32,
    /// Box of the grown difference.
    bounds: Aabb,
}

/// A piece of a difference's boundary.
#[derive(Clone, Copy, Debug)]
enum Feature {
    /// An edge of the core moved out by the radius, with its outward unit normal.
    Edge { p0: Vec2, p1: Vec2, normal: Vec2 },
    /// A rounded corner: the arc of the circle around `center` from outward direction
    /// `from` counter-clockwise to `to` (the whole circle when `full`).
    Arc {
        center: Vec2,
        radius: f32,
        from: Vec2,
        to: Vec2,
        full: bool,
    },
}

/// A feature, the difference it bounds and its box.
#[derive(Clone, Copy, Debug)]
struct Element {
    diff: u32,
    feature: Feature,
    bounds: Aabb,
}

/// A candidate point of the union's boundary.
#[derive(Clone, Copy, Debug)]
struct Candidate {
    point: Vec2,
    /// The normal it gives (A towards B); zero for "the point's own direction".
    normal: Vec2,
    kind: Kind,
    diff: u32,
}

#[derive(Clone, Copy, Debug)]
enum Kind {
    EdgeFoot,
    RoundedCorner,
    Vertex,
    Crossing { other: u32 },
}

/// What an event does (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum What {
    /// Measure a lower bound on the pair's distance (SAT's largest gap) before opening
    /// it: the piece trees' boxes are loose around long thin pieces.
    Bound {
        piece_a: u32,
        piece_b: u32,
    },
    Open {
        piece_a: u32,
        piece_b: u32,
    },
    Activate(u32),
    Test(u32),
}

/// An event of the best-first search: smallest key first, then opening before activating
/// before testing (so that at a given distance everything that could hold a candidate is
/// built before the candidate is tested), then by index, so the order is deterministic.
#[derive(Clone, Copy, Debug)]
struct Event {
    key: f32,
    what: What,
}

impl Ord for Event {
    fn cmp(&self, other: &Self) -> Ordering {
        // BinaryHeap pops the greatest: reverse for the least key first.
        other.key.total_cmp(&self.key).then_with(|| other.what.cmp(&self.what))
    }
}

impl PartialOrd for Event {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl PartialEq for Event {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Event {}

/// The combine step's buffers, kept between calls with the rest of [`CompoundScratch`].
#[derive(Default)]
pub(super) struct CombineScratch {
    core: Vec<Vec2>,
    planes: Vec<(Vec2, f32)>,
    diffs: Vec<Difference>,
    elements: Vec<Element>,
    active: Vec<u32>,
    candidates: Vec<Candidate>,
    columns: Vec<u32>,
    events: BinaryHeap<Event>,
    /// Events beyond the current reach, queued when the reach grows past them (most
    /// never are: pushing them on the heap would only cost).
    later: Vec<Event>,
    reach: f32,
    /// The difference that held the last point tested: consecutive candidates are
    /// usually held by the same one, so it is asked first.
    hint: usize,
    /// Every point nearer the origin than this is strictly inside an open difference
    /// (one that holds the origin, by its planes' least offset less the tolerance and a
    /// rounding margin): candidates and edges that near are not queued at all, since
    /// they would only be found held. Off (−∞) while a trace is recorded, which shows
    /// every test.
    held_radius: f32,
    /// Whether `held_radius` grows and the grids below are used (no trace is being
    /// recorded: with one, every test is shown in the order of the plain scans).
    skip_held: bool,
    /// The open differences' boxes, for `holder` (`box_grid.rs`).
    diff_grid: BoxGrid,
    /// The active elements' boxes, for the crossings of a new one.
    element_grid: BoxGrid,
    /// What a grid question found.
    near: Vec<u32>,
    /// Per element, its place in `active` (so `widen_grids` takes each pair of active
    /// elements in the order `activate` met them, and computes the same crossings).
    active_at: Vec<u32>,
}

/// Above this many stored vertices the buffers are given back after the call: one query
/// between two huge polygons should not keep megabytes for the rest of the run.
const KEEP_VERTICES_MAX: usize = 1 << 16;

impl CombineScratch {
    fn clear(&mut self) {
        self.core.clear();
        self.planes.clear();
        self.diffs.clear();
        self.elements.clear();
        self.active.clear();
        self.candidates.clear();
        self.columns.clear();
        self.events.clear();
        self.later.clear();
        self.reach = f32::NEG_INFINITY;
        self.hint = 0;
        self.held_radius = f32::NEG_INFINITY;
        self.skip_held = false;
        self.diff_grid.reset(0.0);
        self.element_grid.reset(0.0);
        self.near.clear();
        self.active_at.clear();
    }

    pub(super) fn release_if_huge(&mut self) {
        if self.core.capacity() > KEEP_VERTICES_MAX || self.candidates.capacity() > KEEP_VERTICES_MAX {
            // The grids stay: they are small, and rebuilding their thousand buckets
            // every call cost more than the search on 1000-vertex stars.
            let diff_grid = std::mem::take(&mut self.diff_grid);
            let element_grid = std::mem::take(&mut self.element_grid);
            *self = CombineScratch {
                diff_grid,
                element_grid,
                ..CombineScratch::default()
            };
        }
    }
}

/// Where the search gets lower bounds on the piece pairs' distances from.
enum PieceBoxes<'a> {
    /// Every piece's world box (from the all-pairs loop), compared pair by pair.
    World { boxes_a: &'a [Aabb], boxes_b: &'a [Aabb] },
    /// The polygons' piece trees: local boxes, B's turned into A's frame by `xf_ab`
    /// and compared there (the gap between two boxes bounds the distance between their
    /// pieces in any frame). The search then touches only the pieces near each other.
    Trees {
        tree_a: &'a EdgeTree,
        tree_b: &'a EdgeTree,
        xf_ab: Pose,
    },
}

/// The two bodies, their pieces' boxes and the tolerance: what the search reads.
struct Bodies<'a> {
    /// The query (its pieces for SAT's bounds).
    query: ShapeQuery<'a>,
    a: &'a Shape,
    pose_a: &'a Pose,
    b: &'a Shape,
    pose_b: &'a Pose,
    boxes: PieceBoxes<'a>,
    /// The piece pairs the piece loop tested (every pair whose boxes touch, or every
    /// pair when `all_tested`): overlapping, and apart with a lower bound on their gap.
    hits: &'a [(usize, usize, super::PairPenetration)],
    apart: &'a [(u32, u32, f32)],
    all_tested: bool,
    tol: f32,
}

impl Bodies<'_> {
    /// A lower bound on the distance between piece i of A and piece j of B (the
    /// distance of their difference from the origin): the gap between their boxes.
    fn pair_gap(&self, i: usize, j: usize) -> f32 {
        match &self.boxes {
            PieceBoxes::World { boxes_a, boxes_b } => box_distance(&boxes_a[i], &boxes_b[j]),
            PieceBoxes::Trees { tree_a, tree_b, xf_ab } => {
                tree_a.item_bounds(i).gap(&tree_b.item_bounds(j).posed(xf_ab))
            }
        }
    }
}

/// Finds the point of A − B's boundary nearest the origin (see the module docs), then
/// gathers contact points along its direction.
pub(super) fn combine<'a>(
    q: &ShapeQuery<'a>,
    work: Work,
    trace: &mut Option<&mut Trace>,
    scratch: &mut CompoundScratch,
) -> Contact {
    let (a, pose_a, b, pose_b, scale, config) = (q.a, &q.pose_a, q.b, &q.pose_b, q.scale, q.config);
    let tol = config.touch_tolerance * scale;
    let CompoundScratch {
        boxes_a,
        boxes_b,
        from_trees,
        hits,
        apart,
        hull,
        points,
        combine: s,
        found: _,
    } = scratch;
    let Some(&(_, _, deepest)) = hits.iter().max_by(|x, y| x.2.depth.total_cmp(&y.2.depth)) else {
        return Contact::separated(work);
    };
    s.clear();
    s.skip_held = trace.is_none();
    // The true depth is at least every overlapping pair's own depth, so the first ring
    // of boxes reaches twice the deepest.
    let first_reach = 2.0 * deepest.depth.max(tol);
    if s.skip_held {
        s.diff_grid.reset(grid_cell(first_reach));
        s.element_grid.reset(grid_cell(first_reach));
    }
    let boxes = match (a, b) {
        (Shape::Polygon(pa), Shape::Polygon(pb)) if *from_trees => PieceBoxes::Trees {
            tree_a: pa.piece_tree(),
            tree_b: pb.piece_tree(),
            xf_ab: q.xf_ab,
        },
        _ => PieceBoxes::World { boxes_a, boxes_b },
    };
    let bodies = Bodies {
        query: *q,
        a,
        pose_a,
        b,
        pose_b,
        boxes,
        hits,
        apart,
        all_tested: !config.cull_by_bounds,
        tol,
    };
    let Some(winner) = s.nearest_boundary_point(&bodies, hull, first_reach, trace) else {
        // Unreachable for finite input (the union's farthest vertex is on its boundary);
        // NaN coordinates end here.
        return Contact::separated(work);
    };
    let c = s.candidates[winner];
    let depth = c.point.length();
    if !config.is_penetrating(depth, scale) {
        return Contact::separated(work);
    }
    let normal = if c.normal != Vec2::ZERO {
        c.normal
    } else if depth > tol {
        c.point / depth
    } else {
        // Touching counted as intersecting: the point has no direction of its own.
        deepest.normal
    };
    // Contact points: clip every piece pair whose difference holds the origin along the
    // chosen normal, each with its own depth along it, and keep the deepest point and the
    // point farthest from it (a two-point manifold spans the contact).
    points.clear();
    for d in &s.diffs {
        let Some((s_in, s_out)) = ray_interval(run(&s.core, d.core), d.radius, normal) else {
            continue;
        };
        if s_in < -tol && s_out > tol {
            let pts = contact_points(&q.piece(d.piece_a, d.piece_b), normal, s_out, trace);
            points.extend_from_slice(pts.as_slice());
        }
    }
    let points = reduce_to_two(points);
    Contact::penetrating(normal, depth, points, work)
}

/// The vertices of a stored run.
fn run(points: &[Vec2], (start, len): (u32, u32)) -> &[Vec2] {
    &points[start as usize..(start + len) as usize]
}

/// Distance from the origin to the box of M_ij = box of A_i minus box of B_j.
fn box_distance(box_a: &Aabb, box_b: &Aabb) -> f32 {
    let (lo, hi) = (box_a.min - box_b.max, box_a.max - box_b.min);
    lo.max(-hi).max(Vec2::ZERO).length()
}

/// The part of box `b` in the square around the origin that holds the disc of radius
/// `reach` (all of `b` for an infinite reach): what the grids list, since every point
/// the search asks about lies in that disc.
fn within(b: &Aabb, reach: f32) -> Aabb {
    Aabb::new(b.min.max(Vec2::splat(-reach)), b.max.min(Vec2::splat(reach)))
}

/// The grids' cell side for a reach: the reach's square is 4 × 4 cells, so that what
/// lies near the origin at a shallow contact between finely cut outlines spans a few
/// cells, and what spans the square goes to the list every question reads.
fn grid_cell(reach: f32) -> f32 {
    0.5 * reach
}

/// The box of a set of boxes.
fn union_of(boxes: &[Aabb]) -> Aabb {
    boxes
        .iter()
        .copied()
        .reduce(|x, y| x.union(&y))
        .unwrap_or(Aabb::new(Vec2::ZERO, Vec2::ZERO))
}

/// The point of segment p0–p1 nearest the origin, and its parameter along the segment.
fn nearest_on_segment(p0: Vec2, p1: Vec2) -> (Vec2, f32) {
    let e = p1 - p0;
    let len2 = e.length_squared();
    if len2 <= 0.0 {
        return (p0, 0.0);
    }
    let t = (-p0.dot(e) / len2).clamp(0.0, 1.0);
    (p0 + e * t, t)
}

/// Distance from `p` to segment p0–p1.
fn segment_distance(p: Vec2, p0: Vec2, p1: Vec2) -> f32 {
    nearest_on_segment(p0 - p, p1 - p).0.length()
}

/// Are the edges of a piece from vertex `from` counter-clockwise to vertex `to` all
/// diagonals (`diagonals` per edge; empty for a piece without any)? True when there are
/// none in between (the difference's edge took no edge of this piece).
fn only_diagonals(diagonals: &[bool], count: usize, from: usize, to: usize) -> bool {
    let mut k = from;
    while k != to {
        if !diagonals.get(k).copied().unwrap_or(false) {
            return false;
        }
        k = (k + 1) % count;
    }
    true
}

/// Is `dir` (unit) on the arc from `from` counter-clockwise to `to`? Arcs span at most a
/// half turn (a convex corner's outward normals, or a segment's end).
fn on_arc(from: Vec2, to: Vec2, full: bool, dir: Vec2) -> bool {
    full || (cross(from, dir) >= 0.0 && cross(dir, to) >= 0.0)
}

impl CombineScratch {
    /// The best-first search of the module docs; the index of the winning candidate.
    fn nearest_boundary_point(
        &mut self,
        bodies: &Bodies,
        hull: &mut super::minkowski::HullScratch,
        first_reach: f32,
        trace: &mut Option<&mut Trace>,
    ) -> Option<usize> {
        // Boxes of all of A and all of B, in the frame the pieces' boxes are compared in.
        let (all_a, all_b) = match &bodies.boxes {
            PieceBoxes::World { boxes_a, boxes_b } => (union_of(boxes_a), union_of(boxes_b)),
            PieceBoxes::Trees { tree_a, tree_b, xf_ab } => {
                let empty = Aabb::new(Vec2::ZERO, Vec2::ZERO);
                (
                    tree_a.bounds().unwrap_or(empty),
                    tree_b.bounds().map_or(empty, |b| b.posed(xf_ab)),
                )
            }
        };
        // No box of a difference is farther than the box of all of A minus all of B.
        let farthest = {
            let (lo, hi) = (all_a.min - all_b.max, all_a.max - all_b.min);
            lo.abs().max(hi.abs()).length()
        };
        let mut scanned = f32::NEG_INFINITY;
        let mut reach = first_reach;
        loop {
            if reach >= farthest {
                reach = f32::INFINITY;
            }
            self.reach = reach;
            if self.skip_held && scanned != f32::NEG_INFINITY {
                self.widen_grids(scanned);
            }
            let mut k = 0;
            while k < self.later.len() {
                if self.later[k].key <= reach {
                    let event = self.later.swap_remove(k);
                    self.events.push(event);
                } else {
                    k += 1;
                }
            }
            if scanned == f32::NEG_INFINITY {
                self.open_tested(bodies);
            }
            if !bodies.all_tested {
                self.open_ring(bodies, &all_a, &all_b, scanned, reach);
            }
            while let Some(event) = self.events.pop() {
                match event.what {
                    What::Bound { piece_a, piece_b } => {
                        self.bound(bodies, event.key, piece_a, piece_b);
                    }
                    What::Open { piece_a, piece_b } => {
                        self.open(bodies, hull, piece_a as usize, piece_b as usize);
                    }
                    What::Activate(e) => self.activate(e, bodies.tol),
                    What::Test(c) => {
                        let held = self.holder(self.candidates[c as usize].point, bodies.tol);
                        self.record_test(c, held, trace);
                        if held.is_none() {
                            return Some(c as usize);
                        }
                    }
                }
            }
            if reach == f32::INFINITY {
                return None;
            }
            scanned = reach;
            reach *= 2.0;
        }
    }

    /// Queues an event now, or for the round whose reach takes it in.
    fn queue(&mut self, event: Event) {
        if event.key <= self.reach {
            self.events.push(event);
        } else {
            self.later.push(event);
        }
    }

    /// Queues the opening of the pairs the piece loop tested. An overlapping pair's
    /// difference holds the origin, so it may hold any candidate: it opens first. An
    /// apart pair's difference is at least its gap from the origin (and at least its box
    /// distance): it opens there, less the tolerance, since points inside it by more
    /// than that are what it holds.
    fn open_tested(&mut self, bodies: &Bodies) {
        // `open_ring` walks both lists in step with its scan.
        debug_assert!(bodies.hits.windows(2).all(|w| (w[0].0, w[0].1) < (w[1].0, w[1].1)));
        debug_assert!(bodies.apart.windows(2).all(|w| (w[0].0, w[0].1) < (w[1].0, w[1].1)));
        for &(i, j, _) in bodies.hits {
            self.queue(Event {
                key: 0.0,
                what: What::Open {
                    piece_a: i as u32,
                    piece_b: j as u32,
                },
            });
        }
        for &(i, j, gap) in bodies.apart {
            let boxed = bodies.pair_gap(i as usize, j as usize);
            self.queue(Event {
                key: (gap - bodies.tol).max(boxed).max(0.0),
                what: What::Open { piece_a: i, piece_b: j },
            });
        }
    }

    /// Queues the opening of every untested difference whose box distance lies in
    /// (lo, hi]. The tested pairs (`open_tested`) are every pair whose boxes touch, except
    /// those the piece trees found apart by more than the tolerance: the walk skips the
    /// tested ones (both lists are in the scan's order, by piece of A then of B).
    fn open_ring(&mut self, bodies: &Bodies, all_a: &Aabb, all_b: &Aabb, lo: f32, hi: f32) {
        let (boxes_a, boxes_b) = match &bodies.boxes {
            PieceBoxes::World { boxes_a, boxes_b } => (*boxes_a, *boxes_b),
            PieceBoxes::Trees { .. } => return self.open_ring_from_trees(bodies, lo, hi),
        };
        // Whole rows and columns first: a piece of B too far from all of A (or of A from
        // all of B) has no pair in the ring.
        self.columns.clear();
        self.columns
            .extend((0..boxes_b.len() as u32).filter(|&j| box_distance(all_a, &boxes_b[j as usize]) <= hi));
        let (mut next_hit, mut next_apart) = (0, 0);
        for (i, box_a) in boxes_a.iter().enumerate() {
            if box_distance(box_a, all_b) > hi {
                continue;
            }
            for k in 0..self.columns.len() {
                let j = self.columns[k];
                let d = box_distance(box_a, &boxes_b[j as usize]);
                if d <= lo || d > hi {
                    continue;
                }
                if d == 0.0 {
                    // Boxes that touch: tested unless the trees left the pair out.
                    let here = (i, j as usize);
                    let hits = bodies.hits;
                    while hits.get(next_hit).is_some_and(|h| (h.0, h.1) < here) {
                        next_hit += 1;
                    }
                    let apart = bodies.apart;
                    while apart
                        .get(next_apart)
                        .is_some_and(|p| (p.0 as usize, p.1 as usize) < here)
                    {
                        next_apart += 1;
                    }
                    let tested = hits.get(next_hit).is_some_and(|h| (h.0, h.1) == here)
                        || apart
                            .get(next_apart)
                            .is_some_and(|p| (p.0 as usize, p.1 as usize) == here);
                    if tested {
                        continue;
                    }
                }
                self.queue(Event {
                    key: d,
                    what: What::Open {
                        piece_a: i as u32,
                        piece_b: j,
                    },
                });
            }
        }
    }

    /// [`Self::open_ring`] through the piece trees: the untested pairs whose boxes (in
    /// A's frame) are in (lo, hi] apart, found by descending both trees to that gap, so
    /// the pieces far from the other body cost nothing. Each pair first gets a tighter
    /// bound (`bound`) before its difference is built.
    fn open_ring_from_trees(&mut self, bodies: &Bodies, lo: f32, hi: f32) {
        let PieceBoxes::Trees { tree_a, tree_b, .. } = bodies.boxes else {
            return;
        };
        let tested = |i: usize, j: usize| {
            bodies.hits.binary_search_by(|h| (h.0, h.1).cmp(&(i, j))).is_ok()
                || bodies
                    .apart
                    .binary_search_by(|p| (p.0 as usize, p.1 as usize).cmp(&(i, j)))
                    .is_ok()
        };
        tree_a.for_each_pair_within(bodies.pose_a, tree_b, bodies.pose_b, hi, |i, j, gap| {
            if gap <= lo || tested(i, j) {
                return;
            }
            self.queue(Event {
                key: gap,
                what: What::Bound {
                    piece_a: i as u32,
                    piece_b: j as u32,
                },
            });
        });
    }

    /// Replaces a pair's box gap by SAT's largest gap between its pieces (every axis, no
    /// early exit): also a lower bound on their distance, and on long thin pieces, whose
    /// boxes overlap far more often than the pieces come near, a much tighter one. The
    /// pair is opened at that distance, less the tolerance.
    fn bound(&mut self, bodies: &Bodies, key: f32, i: u32, j: u32) {
        let pen = penetration_sat(
            &bodies.query.piece(i as usize, j as usize),
            f32::INFINITY,
            &mut Recorder {
                work: &mut Work::default(),
                trace: &mut None,
            },
        );
        self.queue(Event {
            key: (-pen.depth - bodies.tol).max(key),
            what: What::Open { piece_a: i, piece_b: j },
        });
    }

    /// Builds the difference of pieces i and j and queues its edges (and arcs).
    fn open(&mut self, bodies: &Bodies, hull: &mut super::minkowski::HullScratch, i: usize, j: usize) {
        let (va, vb) = (bodies.a.piece(i), bodies.b.piece(j));
        let radius = va.radius + vb.radius;
        minkowski_difference_hull_into(va, bodies.pose_a, vb, bodies.pose_b, hull);
        let n = hull.hull.len();
        if n == 0 || (n < 3 && radius <= 0.0) {
            // No area: it holds nothing and bounds nothing of the union's interior.
            return;
        }
        let start = self.core.len() as u32;
        self.core.extend(hull.hull.iter().map(|w| w.point));
        let core = (start, n as u32);
        let plane_start = self.planes.len() as u32;
        if n >= 3 {
            for k in 0..n {
                let (p, q) = (self.core[start as usize + k], self.core[start as usize + (k + 1) % n]);
                let normal = right_perp(q - p).normalize_or_zero();
                self.planes.push((normal, normal.dot(p)));
            }
        }
        let planes = (plane_start, self.planes.len() as u32 - plane_start);
        if self.skip_held && n >= 3 {
            // A core holding the origin holds every point nearer the origin than its
            // planes' least offset; `strictly_inside` asks for the tolerance more, and
            // the margin covers the rounding of the dot products there (a relative
            // 1e-5, far above f32's few ulps).
            let least = self.planes[plane_start as usize..]
                .iter()
                .map(|&(_, offset)| offset)
                .fold(f32::INFINITY, f32::min);
            let held = least - 2.0 * bodies.tol - 1e-5 * least.abs();
            self.held_radius = self.held_radius.max(held);
        }
        let bounds = Aabb::from_points(run(&self.core, core)).inflated(radius);
        let diff = self.diffs.len() as u32;
        self.diffs.push(Difference {
            piece_a: i,
            piece_b: j,
            core,
            planes,
            radius,
            bounds,
        });
        if self.skip_held {
            self.diff_grid.insert(diff, &within(&bounds, self.reach));
        }
        // Vertices read from the hull scratch, so that the closures borrow nothing of
        // `self` while elements are queued.
        let vertex = |k: usize| hull.hull[k % n].point;
        let normal_of = |k: usize| right_perp(vertex(k + 1) - vertex(k)).normalize_or_zero();
        // An edge of the difference made only of diagonals of the pieces' decompositions
        // lies inside A − B: a diagonal's inner points are inside its polygon, so their
        // translates are inside the union (the neighbouring piece's difference holds them).
        // Only its ends can be on the boundary.
        let (diagonals_a, diagonals_b) = (bodies.a.piece_diagonals(i), bodies.b.piece_diagonals(j));
        let (count_a, count_b) = (va.vertices.len(), vb.vertices.len());
        let diagonal = |k: usize| {
            let (from, to) = (hull.hull[k % n], hull.hull[(k + 1) % n]);
            only_diagonals(diagonals_a, count_a, from.index_a, to.index_a)
                && only_diagonals(diagonals_b, count_b, from.index_b, to.index_b)
        };
        // Edges (a two-vertex core has two: there and back).
        let edge_count = if n >= 2 { n } else { 0 };
        for k in 0..edge_count {
            let normal = normal_of(k);
            if normal == Vec2::ZERO {
                continue;
            }
            let (p0, p1) = (vertex(k) + normal * radius, vertex(k + 1) + normal * radius);
            if diagonal(k) {
                self.push_candidate(p0, Vec2::ZERO, Kind::Vertex, diff);
                if radius > 0.0 {
                    self.push_candidate(p1, Vec2::ZERO, Kind::Vertex, diff);
                }
                continue;
            }
            let element = Element {
                diff,
                feature: Feature::Edge { p0, p1, normal },
                bounds: Aabb::from_points(&[p0, p1]),
            };
            self.push_element(element, nearest_on_segment(p0, p1).0.length());
        }
        if radius > 0.0 {
            for k in 0..n {
                let center = vertex(k);
                let (from, to, full) = if n == 1 {
                    (Vec2::X, Vec2::X, true)
                } else {
                    (normal_of(k + n - 1), normal_of(k), false)
                };
                let element = Element {
                    diff,
                    feature: Feature::Arc {
                        center,
                        radius,
                        from,
                        to,
                        full,
                    },
                    bounds: Aabb::new(center - Vec2::splat(radius), center + Vec2::splat(radius)),
                };
                self.push_element(element, (center.length() - radius).abs());
            }
        }
    }

    fn push_element(&mut self, element: Element, distance: f32) {
        // An element within the held radius is held in every point (the disc is convex),
        // and so are its own candidates and its crossings with others.
        let farthest = match element.feature {
            Feature::Edge { p0, p1, .. } => p0.length().max(p1.length()),
            Feature::Arc { center, radius, .. } => center.length() + radius,
        };
        if farthest < self.held_radius {
            return;
        }
        let e = self.elements.len() as u32;
        self.elements.push(element);
        self.queue(Event {
            key: distance,
            what: What::Activate(e),
        });
    }

    fn push_candidate(&mut self, point: Vec2, normal: Vec2, kind: Kind, diff: u32) {
        let c = Candidate {
            point,
            normal,
            kind,
            diff,
        };
        Self::push_candidate_into(
            &mut self.candidates,
            &mut self.events,
            &mut self.later,
            self.reach,
            self.held_radius,
            c,
        );
    }

    /// [`Self::push_candidate`] on the fields it needs, so that it can be called while
    /// another field is borrowed.
    fn push_candidate_into(
        candidates: &mut Vec<Candidate>,
        events: &mut BinaryHeap<Event>,
        later: &mut Vec<Event>,
        reach: f32,
        held_radius: f32,
        candidate: Candidate,
    ) {
        let key = candidate.point.length();
        if key < held_radius {
            return;
        }
        let c = candidates.len() as u32;
        candidates.push(candidate);
        let event = Event {
            key,
            what: What::Test(c),
        };
        if key <= reach {
            events.push(event);
        } else {
            later.push(event);
        }
    }

    /// Queues an element's own candidates and its crossings with the active elements of
    /// other differences, then makes it active.
    fn activate(&mut self, e: u32, tol: f32) {
        let element = self.elements[e as usize];
        let diff = element.diff;
        match element.feature {
            Feature::Edge { p0, p1, normal } => {
                // An edge strictly inside another difference (both ends inside one convex
                // difference) bounds nothing of the union: its foot, its vertex and its
                // crossings would all be held. Dropping it saves testing them.
                if let Some(h) = self.holder(p0, tol) {
                    if self.strictly_inside(&self.diffs[h as usize], p1, tol) {
                        return;
                    }
                }
                let (nearest, t) = nearest_on_segment(p0, p1);
                // A foot on an edge facing away from the origin is never the answer
                // (module docs); an end of the edge is the start vertex of one of them.
                if t > 0.0 && t < 1.0 && normal.dot(p0) >= 0.0 {
                    self.push_candidate(nearest, normal, Kind::EdgeFoot, diff);
                }
                self.push_candidate(p0, Vec2::ZERO, Kind::Vertex, diff);
                if self.diffs[diff as usize].radius > 0.0 {
                    // Rounded: the end is not the next edge's start (an arc lies between).
                    self.push_candidate(p1, Vec2::ZERO, Kind::Vertex, diff);
                }
            }
            Feature::Arc {
                center,
                radius,
                from,
                to,
                full,
            } => {
                // The circle's point nearest the origin is center − radius·ĉ; it faces
                // the origin only when the origin is inside the circle.
                let dist = center.length();
                if dist < radius {
                    let dir = if dist > 0.0 {
                        -center / dist
                    } else if full {
                        Vec2::X
                    } else {
                        let mid = (from + to).normalize_or_zero();
                        if mid == Vec2::ZERO {
                            from
                        } else {
                            mid
                        }
                    };
                    if on_arc(from, to, full, dir) {
                        self.push_candidate(center + dir * radius, dir, Kind::RoundedCorner, diff);
                    }
                }
            }
        }
        // The active elements that may cross this one: from the grid, or all of them.
        // Without a trace, only the crossings within the reach are queued (the others
        // when the reach grows past them, `widen_grids`): between long thin differences
        // (two stars' wedges) most crossings lie far out and are never tested.
        let mut near = std::mem::take(&mut self.near);
        let from_grid = self.skip_held && self.element_grid.near(&within(&element.bounds, self.reach), &mut near);
        let others: &[u32] = if from_grid { &near } else { &self.active };
        for &o in others {
            let other = self.elements[o as usize];
            if other.diff == diff || !other.bounds.overlaps(&element.bounds) {
                continue;
            }
            let mut found = [Vec2::ZERO; 2];
            let count = crossings(&element.feature, &other.feature, &mut found);
            for &p in &found[..count] {
                if self.skip_held && p.length() > self.reach {
                    continue;
                }
                let c = Candidate {
                    point: p,
                    normal: Vec2::ZERO,
                    kind: Kind::Crossing { other: other.diff },
                    diff,
                };
                Self::push_candidate_into(
                    &mut self.candidates,
                    &mut self.events,
                    &mut self.later,
                    self.reach,
                    self.held_radius,
                    c,
                );
            }
        }
        self.near = near;
        if self.active_at.len() <= e as usize {
            self.active_at.resize(e as usize + 1, u32::MAX);
        }
        self.active_at[e as usize] = self.active.len() as u32;
        self.active.push(e);
        if self.skip_held {
            self.element_grid.insert(e, &within(&element.bounds, self.reach));
        }
    }

    /// The reach has grown from `old` to `self.reach`: lists the open differences and
    /// active elements in grids for the new square, and queues the crossings of active
    /// elements that lie in the new ring (old, reach] — those `activate` left out.
    fn widen_grids(&mut self, old: f32) {
        let reach = self.reach;
        self.diff_grid.reset(grid_cell(reach));
        for (k, d) in self.diffs.iter().enumerate() {
            self.diff_grid.insert(k as u32, &within(&d.bounds, reach));
        }
        self.element_grid.reset(grid_cell(reach));
        for &e in &self.active {
            self.element_grid
                .insert(e, &within(&self.elements[e as usize].bounds, reach));
        }
        let mut near = std::mem::take(&mut self.near);
        for k in 0..self.active.len() {
            let e = self.active[k];
            let element = self.elements[e as usize];
            let from_grid = self.element_grid.near(&within(&element.bounds, reach), &mut near);
            let others: &[u32] = if from_grid { &near } else { &self.active };
            for &o in others {
                // Each pair once, as `activate` took it: the newer element against the
                // one activated before it.
                let other = self.elements[o as usize];
                if self.active_at[o as usize] >= k as u32
                    || other.diff == element.diff
                    || !other.bounds.overlaps(&element.bounds)
                {
                    continue;
                }
                let mut found = [Vec2::ZERO; 2];
                let count = crossings(&element.feature, &other.feature, &mut found);
                for &p in &found[..count] {
                    let distance = p.length();
                    if distance <= old || distance > reach {
                        continue;
                    }
                    let c = Candidate {
                        point: p,
                        normal: Vec2::ZERO,
                        kind: Kind::Crossing { other: other.diff },
                        diff: element.diff,
                    };
                    Self::push_candidate_into(
                        &mut self.candidates,
                        &mut self.events,
                        &mut self.later,
                        reach,
                        self.held_radius,
                        c,
                    );
                }
            }
        }
        self.near = near;
    }

    /// The first open difference that holds `p` strictly inside (by more than `tol`).
    fn holder(&mut self, p: Vec2, tol: f32) -> Option<u32> {
        if self
            .diffs
            .get(self.hint)
            .is_some_and(|d| d.bounds.contains(p) && self.strictly_inside(d, p, tol))
        {
            return Some(self.hint as u32);
        }
        let mut near = std::mem::take(&mut self.near);
        let from_grid = self.skip_held && self.diff_grid.near(&Aabb::new(p, p), &mut near);
        let holds = |d: &Difference| d.bounds.contains(p) && self.strictly_inside(d, p, tol);
        let found = if from_grid {
            near.iter().copied().find(|&k| holds(&self.diffs[k as usize]))
        } else {
            self.diffs.iter().position(holds).map(|k| k as u32)
        };
        self.near = near;
        let k = found?;
        self.hint = k as usize;
        Some(k)
    }

    fn strictly_inside(&self, d: &Difference, p: Vec2, tol: f32) -> bool {
        let core = run(&self.core, d.core);
        let margin = d.radius - tol;
        if d.planes.1 == 0 {
            // A point or a segment, grown (unrounded ones are never opened).
            let distance = match core {
                [v] => (p - *v).length(),
                [v0, v1] => segment_distance(p, *v0, *v1),
                _ => return false,
            };
            return distance < margin;
        }
        // The largest signed distance to the edges' lines: below zero inside the core
        // (then minus the distance to its boundary), above zero at most the distance.
        let planes = &self.planes[d.planes.0 as usize..(d.planes.0 + d.planes.1) as usize];
        let s = planes
            .iter()
            .map(|&(normal, offset)| normal.dot(p) - offset)
            .fold(f32::NEG_INFINITY, f32::max);
        if s < -tol {
            return true;
        }
        if d.radius <= 0.0 || s >= margin {
            return false;
        }
        if s <= 0.0 {
            return margin > 0.0;
        }
        let n = core.len();
        let distance = (0..n)
            .map(|k| segment_distance(p, core[k], core[(k + 1) % n]))
            .fold(f32::INFINITY, f32::min);
        distance < margin
    }

    fn record_test(&self, c: u32, held: Option<u32>, trace: &mut Option<&mut Trace>) {
        record(trace, || {
            let cand = self.candidates[c as usize];
            let d = self.diffs[cand.diff as usize];
            let depth = cand.point.length();
            let normal = if cand.normal != Vec2::ZERO {
                cand.normal
            } else {
                cand.point.normalize_or_zero()
            };
            let pieces = |k: u32| {
                let d = self.diffs[k as usize];
                (d.piece_a, d.piece_b)
            };
            TraceStep::Combine(CombineStep {
                from_piece_a: d.piece_a,
                from_piece_b: d.piece_b,
                candidate: match cand.kind {
                    Kind::EdgeFoot => CombineCandidate::EdgeFoot,
                    Kind::RoundedCorner => CombineCandidate::RoundedCorner,
                    Kind::Vertex => CombineCandidate::Vertex,
                    Kind::Crossing { other } => {
                        let (piece_a, piece_b) = pieces(other);
                        CombineCandidate::Crossing { piece_a, piece_b }
                    }
                },
                point: cand.point,
                normal,
                depth,
                held_by: held.map(pieces),
            })
        });
    }
}

#[cfg(test)]
mod tests;
