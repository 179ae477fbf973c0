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
//!   distance); for the pairs it never tested because their boxes are apart, the box
//!   distance (box of A_i minus box of B_j), raised when the pair comes up by a
//!   *bound* event to the pieces' gap along one axis (from one box's centre to the
//!   other's; SAT's largest gap through the piece trees of huge polygons): more than
//!   half the differences the boxes let in are never needed;
//! - *expand* M_ij: its edges are queued only as the search's reach comes to them (an
//!   edge is no nearer the origin than its line, less rounding); most of a
//!   difference's edges lie far beyond the answer and are never built;
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
use super::minkowski::minkowski_difference_core_prepared;
use super::query::{Recorder, ShapeQuery};
use super::query_scale;
use super::sat::penetration_sat;
use super::trace::{record, CombineCandidate, CombineStep, Trace, TraceStep};
use crate::bounds::Aabb;
use crate::geometry::{EdgeTree, Shape};
use crate::math::{cross, right_perp, Pose, Vec2};
use std::collections::BinaryHeap;

mod event;
use event::{Event, What};

mod primitives;
use primitives::{
    box_distance, box_distance_squared, clip_line, crossings, nearest_on_segment, on_arc, only_diagonals, ray_interval,
    reduce_to_two, run, segment_distance, slab_across, take_in, union_of, within, EVERYWHERE,
};

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
    /// A strip holding the grown difference, across the core's longest edge: (unit
    /// normal, least and greatest offset along it, widened by a rounding margin). Long
    /// thin differences (the wedges of two stars) have boxes far larger than
    /// themselves; the strip tells most points they cannot hold from two products.
    slab: (Vec2, f32, f32),
}

impl Difference {
    /// False when `p` is certainly not inside the difference (outside its box or its
    /// strip by more than rounding); true when it may be.
    fn may_hold(&self, p: Vec2) -> bool {
        let (normal, lo, hi) = self.slab;
        let along = normal.dot(p);
        self.bounds.contains(p) && lo <= along && along <= hi
    }
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

/// The combine step's buffers, kept between calls with the rest of [`CompoundScratch`].
#[derive(Default)]
pub(super) struct CombineScratch {
    core: Vec<Vec2>,
    /// Per core vertex, the pieces' vertices it came from (`index_a`, `index_b` of the
    /// hull's `SupportPoint`): the diagonal test of an edge queued after its difference
    /// was opened reads them.
    sources: Vec<(u32, u32)>,
    /// Per core vertex, whether the edge starting there is still to be queued (the edges
    /// of a difference are queued only as the reach comes to them, `queue_edges`).
    pending: Vec<bool>,
    /// The edges `queue_edges` queues in one call.
    due: Vec<u32>,
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
    /// Whether `held_radius` grows and the grids below may be used (no trace is being
    /// recorded: with one, every test is shown in the order of the plain scans).
    skip_held: bool,
    /// Whether the grids below are in use: from [`GRID_MIN_DIFFERENCES`] open
    /// differences on (`search.rs`, `fill_grids`).
    grids_on: bool,
    /// The open differences' boxes, for `holder` (`box_grid.rs`).
    diff_grid: BoxGrid,
    /// Whether `diff_grid` lists each difference in the cells along it, in finer cells
    /// (`widen.rs`, `list_difference`): from `radial::RADIAL_MIN_DIFFERENCES` open
    /// differences on.
    diff_grid_fine: bool,
    /// The active elements' boxes, for the crossings of a new one.
    element_grid: BoxGrid,
    /// What a grid question found.
    near: Vec<u32>,
    /// Per element, its place in `active` (so `widen_grids` takes each pair of active
    /// elements in the order `activate` met them, and computes the same crossings).
    active_at: Vec<u32>,
    /// Per element, the stretch of it (edge parameters) known to be held strictly by
    /// open differences, or `cover::NOTHING_HELD` (`cover.rs`).
    held: Vec<(f32, f32)>,
    /// Per element, its live parts in the current reach (`cover.rs`, `live_parts`).
    live: Vec<Live>,
    /// Per active element, its live parts in the ring the reach last grew by, and their
    /// grid (reset there: `widen.rs`).
    ring: Vec<Live>,
    ring_grid: BoxGrid,
    /// The sub-bands of that ring (`widen.rs`, `pair_band`): their radii, inner first,
    /// and the outer radius of the one whose crossings were queued last (∞ before).
    bands: Vec<f32>,
    band_end: f32,
    /// Per angle around the origin, a distance within which the difference beside it
    /// holds every point (`radial.rs`).
    radial: Vec<(f32, u32)>,
    /// Whether `radial` is kept: from `radial::RADIAL_MIN_DIFFERENCES` open differences
    /// on, without a trace.
    radial_on: bool,
    /// Per angle around the origin, the distance within which the open differences
    /// together hold every point (`coverage.rs`); empty while not kept (as `radial`).
    cover: Vec<f32>,
    /// Per angle, the intervals of distances that do not chain to the origin yet, least
    /// start first (as bits: the distances are not negative).
    cover_pending: Vec<BinaryHeap<std::cmp::Reverse<(u32, u32)>>>,
    /// Per group of angles of `cover`, their least distance (`coverage.rs`,
    /// `covered_stretch`).
    cover_groups: Vec<f32>,
    /// A distance at or below every angle's in `cover` (its least, found with the held
    /// radius's: `coverage.rs`).
    cover_least: f32,
    /// Per open difference, whether all its intervals are in the table (none was left
    /// out for lying beyond the reach, `coverage.rs`).
    cover_complete: Vec<bool>,
    /// Whether an angle at or below the held radius grew since the held radius last
    /// followed the table (`coverage.rs`).
    raised_least: bool,
    /// A difference's core clipped to the reach's square (`coverage.rs`).
    clip_buffer: Vec<Vec2>,
    /// Candidates found held so far (`coverage::COVER_MIN_HELD_TESTS`).
    held_tests: usize,
    /// The pairs of the small union (`shortcut::small_union_exit`), in (A, B) order.
    members: Vec<(usize, usize, super::PairPenetration)>,
    /// The piece pairs the shortcut's check may find holding a point (`shortcut.rs`),
    /// kept for the whole call: the boxes do not change between its tries.
    blocking: shortcut::NearPairs,
    /// The least distance from the origin of an edge made only of diagonals that the
    /// search came to (`queue_edges`; only its ends are candidates).
    nearest_diagonal: f32,
}

/// From this many open differences on, the grids list the differences and the active
/// elements (below it every question scans them all). Measured with callgrind on the
/// benchmark's families at 32-256 vertices overlapping by 1-2% of their size
/// (`examples/combine_profile.rs`): a query opens 20 differences on average, the grids'
/// upkeep (a hash and a floor per cell) was 8% of the combine step's instructions, and
/// listing only from 32 differences on took 3% off the whole query. The grids are for
/// the thousands of differences of big polygons. Measured again on the bench's
/// 256-vertex stars, whose queries open up to a few hundred differences
/// (`examples/gjk_workload.rs star 256`, callgrind): from 256 on rather than 32 took
/// GjkEpa from 88.4 M to 75.8 M instructions at 1% overlap and from 198.5 M to 167.2 M
/// at 2% (SatDecomposed 51.9 M to 47.0 M at 1%), with the same answers; two 1000-vertex
/// stars (`examples/big_query_workload.rs`) 26.4 M to 25.0 M, two coastlines 7.9 M to
/// 7.5 M.
const GRID_MIN_DIFFERENCES: usize = 256;

/// Above this many stored vertices the buffers are given back after the call: one query
/// between two huge polygons should not keep megabytes for the rest of the run.
const KEEP_VERTICES_MAX: usize = 1 << 16;

impl CombineScratch {
    fn clear(&mut self) {
        self.core.clear();
        self.sources.clear();
        self.pending.clear();
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
        self.grids_on = false;
        self.diff_grid.reset(0.0);
        self.diff_grid_fine = false;
        self.element_grid.reset(0.0);
        self.near.clear();
        self.active_at.clear();
        self.held.clear();
        self.live.clear();
        self.ring.clear();
        self.band_end = f32::INFINITY;
        self.radial.clear();
        self.radial_on = false;
        self.cover.clear();
        self.raised_least = false;
        self.held_tests = 0;
        self.nearest_diagonal = f32::INFINITY;
    }

    pub(super) fn release_if_huge(&mut self) {
        if self.core.capacity() > KEEP_VERTICES_MAX || self.candidates.capacity() > KEEP_VERTICES_MAX {
            // The grids stay: they are small, and rebuilding their thousand buckets
            // every call cost more than the search on 1000-vertex stars.
            let diff_grid = std::mem::take(&mut self.diff_grid);
            let element_grid = std::mem::take(&mut self.element_grid);
            let ring_grid = std::mem::take(&mut self.ring_grid);
            *self = CombineScratch {
                diff_grid,
                element_grid,
                ring_grid,
                ..CombineScratch::default()
            };
        }
    }
}

/// Finds the point of A − B's boundary nearest the origin (see the module docs), then
/// gathers contact points along its direction.
pub(super) fn combine<'a>(
    q: &ShapeQuery<'a>,
    mut work: Work,
    trace: &mut Option<&mut Trace>,
    scratch: &mut CompoundScratch,
    depths_exact: bool,
) -> Contact {
    let (a, b, scale, config) = (q.a, q.b, q.scale, q.config);
    // The search runs in A's frame (A at the identity, B at `xf_ab`): there the
    // differences' coordinates are of the shapes' size wherever the pair sits, and so is
    // their rounding. In the world frame, two identical 1 m bodies at x = 6146 m had
    // every vertex of A − B rounded to half a millimetre and a "strictly inside"
    // tolerance of 6 mm, and the combined depth came out 18 mm short
    // (`tests/precision.rs`). The tolerance of "strictly inside" is now the one of A's
    // frame; the verdict (touching or not) keeps the world's, as for every query.
    let scale_in_a = query_scale(a, &Pose::IDENTITY, b, &q.xf_ab);
    let tol = config.touch_tolerance * scale_in_a;
    // Lower bounds measured by the piece loop (gaps, in the world's rounding) are
    // trusted only to within the world's tolerance.
    let gap_margin = config.touch_tolerance * scale;
    let CompoundScratch {
        boxes_a: _,
        boxes_b: _,
        boxes_in_a: (boxes_a, boxes_b),
        from_trees,
        hits,
        apart,
        hull,
        points,
        combine: s,
        found: _,
    } = scratch;
    let Some(&(deepest_a, deepest_b, deepest)) = hits.iter().max_by(|x, y| x.2.depth.total_cmp(&y.2.depth)) else {
        return Contact::separated(work);
    };
    s.clear();
    s.blocking.reset();
    s.skip_held = trace.is_none();
    // The true depth is at least every overlapping pair's own depth, so the first ring
    // of boxes reaches twice the deepest.
    let first_reach = 2.0 * deepest.depth.max(tol);
    let boxes = match (a, b) {
        (Shape::Polygon(pa), Shape::Polygon(pb)) if *from_trees => PieceBoxes::Trees {
            tree_a: pa.piece_tree(),
            tree_b: pb.piece_tree(),
            xf_ab: q.xf_ab,
        },
        _ => PieceBoxes::InA {
            boxes_a,
            boxes_b,
            all_a: union_of(boxes_a),
            all_b: union_of(boxes_b),
        },
    };
    let bodies = Bodies {
        query: *q,
        a,
        b,
        xf_ab: q.xf_ab,
        boxes,
        hits,
        apart,
        all_tested: !config.cull_by_bounds,
        tol,
        gap_margin,
        rotation_a: q.pose_a.rotation,
    };
    // The deepest pair's own way out when nothing else is in its way, or the nearest
    // way out of a few differences' union (`shortcut.rs`), else the search over all of
    // them; either way the point of A − B's boundary nearest the origin.
    let shortcut = if s.skip_held {
        shortcut::deepest_exit(
            &bodies,
            (deepest_a, deepest_b),
            depths_exact,
            &mut s.blocking,
            &mut work,
        )
    } else {
        Err(None)
    };
    let found = match shortcut {
        Ok(exit) => Found::Exit(exit),
        Err(Some(blocked)) => match shortcut::small_union_exit(s, &bodies, hull, blocked, first_reach, &mut work) {
            Some(w) => Found::SmallUnion(w),
            None => Found::Search,
        },
        Err(None) => Found::Search,
    };
    let winner = match found {
        Found::Exit(_) => None,
        Found::SmallUnion(w) => Some(w),
        Found::Search => {
            s.clear();
            s.skip_held = trace.is_none();
            hull.prepared_a.reset(a.piece_count());
            hull.prepared_b.reset(b.piece_count());
            let Some(w) = s.nearest_boundary_point(&bodies, hull, first_reach, trace) else {
                // Unreachable for finite input (the union's farthest vertex is on its
                // boundary); NaN coordinates end here.
                return Contact::separated(work);
            };
            Some(w)
        }
    };
    let (depth, normal_in_a) = match (found, winner) {
        (Found::Exit(exit), _) => (exit.depth, exit.normal),
        (_, Some(w)) => {
            let c = s.candidates[w];
            let depth = c.point.length();
            let normal_in_a = if c.normal != Vec2::ZERO {
                c.normal
            } else if depth > tol {
                c.point / depth
            } else {
                // Touching counted as intersecting: the point has no direction of its own.
                q.pose_a.rotation.apply_inv(deepest.normal)
            };
            (depth, normal_in_a)
        }
        (_, None) => return Contact::separated(work),
    };
    if !config.is_penetrating(depth, scale) {
        return Contact::separated(work);
    }
    let normal = q.pose_a.rotation.apply(normal_in_a);
    // Contact points: clip every piece pair whose difference holds the origin along the
    // chosen normal, each with its own depth along it, and keep the deepest point and the
    // point farthest from it (a two-point manifold spans the contact).
    points.clear();
    let mut clip = |interval: Option<(f32, f32)>, k: usize, l: usize| {
        if let Some((s_in, s_out)) = interval {
            if s_in < -tol && s_out > tol {
                let pts = contact_points(&q.piece(k, l), normal, s_out, trace);
                points.extend_from_slice(pts.as_slice());
            }
        }
    };
    if !matches!(found, Found::Search) {
        // Not every difference that holds the origin is open. They are the overlapping
        // pairs', and those of the pairs found apart by no more than the rounding of the
        // world frame the piece loop measured in (far from the world's origin a pair can
        // be apart there and overlap in A's frame). The exit's own line leaves its
        // difference at the exit, having entered at least as far behind.
        let exit_pair = match found {
            Found::Exit(exit) => Some(exit.pair),
            _ => None,
        };
        let near_apart = bodies
            .apart
            .iter()
            .filter(|p| p.2 - gap_margin <= tol)
            .map(|p| (p.0 as usize, p.1 as usize));
        let mut planes = std::mem::take(&mut s.planes);
        for (k, l) in bodies.hits.iter().map(|h| (h.0, h.1)).chain(near_apart) {
            let interval = if Some((k, l)) == exit_pair {
                Some((-depth, depth))
            } else {
                shortcut::ray_interval_of_pair(&bodies, (k, l), normal_in_a, &mut planes, &mut work)
            };
            clip(interval, k, l);
        }
        s.planes = planes;
        s.diffs.clear();
    }
    for d in &s.diffs {
        // A difference holds the origin only if its box does: most boxes do not.
        if !d.bounds.contains(Vec2::ZERO) {
            continue;
        }
        let interval = if d.radius == 0.0 && d.planes.1 > 0 {
            // The core's sides, as `open` stored them (`ray_interval` would compute the
            // same planes again).
            clip_line(
                normal_in_a,
                s.planes[d.planes.0 as usize..(d.planes.0 + d.planes.1) as usize]
                    .iter()
                    .copied(),
            )
        } else {
            ray_interval(run(&s.core, d.core), d.radius, normal_in_a)
        };
        clip(interval, d.piece_a, d.piece_b);
    }
    let points = reduce_to_two(points);
    Contact::penetrating(normal, depth, points, work)
}

/// How the combine step found its answer.
#[derive(Clone, Copy, Debug)]
enum Found {
    /// The deepest pair's own exit (`shortcut::deepest_exit`).
    Exit(shortcut::Exit),
    /// This candidate of the search run on a few differences
    /// (`shortcut::small_union_exit`).
    SmallUnion(usize),
    /// The search over all differences.
    Search,
}

mod bodies;
use bodies::{Bodies, PieceBoxes};
mod cover;
use cover::Live;
mod coverage;
mod open;
mod radial;
mod search;
mod shortcut;
mod widen;

#[cfg(test)]
mod tests;
