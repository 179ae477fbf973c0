//! The combine step's shortcuts: the deepest pair's own way out, taken when no other
//! piece pair is in its way, and else the way out of the union of the few differences
//! that were in the way (see `combine.rs`'s module docs for the search they skip).
//!
//! The union U of the differences holds the deepest pair's difference M*, so no point
//! nearer the origin than M*'s boundary is outside U: the true depth is at least M*'s
//! own, d*. M*'s boundary point nearest the origin, p* = d*·n* (n* the face SAT's least
//! overlap picks), is then the answer as soon as no other difference M_kl holds it
//! strictly (by more than the tolerance): it is a boundary point of U at the least
//! distance any can have. The full search would accept a candidate at most the
//! tolerance nearer (a point within the tolerance of M*'s boundary is not "strictly"
//! inside it), so the two answers agree to within it.
//!
//! Whether M_kl holds p* strictly is SAT on pieces k and l with B moved by p*
//! (`sat::difference_faces`): no difference is built. Only the pairs whose boxes overlap
//! once B is moved by p* can hold it. Measured on the benchmark's families at 8-128
//! vertices (`examples/gjk_workload.rs`), of the queries whose deepest pair overlaps
//! beyond the touching tolerance the answer was that pair's own depth in 81%; the
//! search opened 4.3 differences on average for those, 15.8 for the rest. With the
//! shortcut the workload's instructions went from 241.9 M to 199.5 M under
//! SatDecomposed and from 269.9 M to 239.1 M under GjkEpa (callgrind, plain x86-64
//! build). The depths agree with the search's to within the touching tolerance, which
//! is relative to the shapes' size: at most 4e-8 m on the workload's 1 m shapes, 1.9e-5 m
//! against the default scene's 24 m ground (the search may stop at a candidate up to
//! the tolerance nearer the origin, inside the deepest difference by less than it).
//!
//! When another difference holds p*, the search runs on the few differences in the way
//! alone ([`small_union_exit`]), and its answer is checked the same way. That took the
//! workload on to 168.4 M instructions under SatDecomposed and 204.0 M under GjkEpa, with
//! the same depths and normals.
//!
//! Touching pairs take the shortcut too, as long as the deepest overlap is beyond the
//! tolerance (d* > tol): p* is then within a few tolerances of the origin, along M*'s
//! face of least overlap, and the same check decides it. They once went to the search
//! (a deepest overlap under 4 tolerances), which cost the benchmark's touching poses a
//! full search each: 1,240 of the workload's 3,760 combine steps. Taking them here took
//! the workload from 168.5 M to 158.9 M instructions under SatDecomposed and from 194.4 M
//! to 185.4 M under GjkEpa; every verdict and contact point stayed the same, and the 58
//! depths that moved (of 432 pairs) moved by less than 1e-6 m, their normals by less
//! than 1e-3.
//!
//! Not taken (the search runs instead) under a trace (which shows the search), for
//! shapes other than two polygons (rounded pieces, segments), for a deepest pair within
//! the tolerance of touching (its point has no direction of its own), and when M*'s
//! face is made of a decomposition's diagonal: a diagonal's points are inside the whole
//! polygon, so p* may be inside U there without any one difference holding it (the
//! search queues only such an edge's ends, `queue_edges`).

use super::*;
use crate::narrow::sat::{difference_faces, FaceEdge};
use crate::narrow::PairPenetration;

/// The shortcut's answer, in A's frame.
#[derive(Clone, Copy, Debug)]
pub(super) struct Exit {
    /// The outward unit normal of the face of the boundary point p* nearest the origin
    /// (A towards B; −p* = −depth·normal is the MTV).
    pub normal: Vec2,
    /// |point|, the depth.
    pub depth: f32,
    /// The deepest pair (piece of A, piece of B), whose face it is.
    pub pair: (usize, usize),
}

/// How many times the shortcut moves on to a deeper overlapping pair that holds the
/// exit it tried (see [`deepest_exit`]).
const DEEPER_TRIES: usize = 3;

/// The deepest pair's exit, when nothing else holds it (module docs); `None` when the
/// search must decide.
///
/// The piece loop's depths may be only lower bounds (GJK's final triangle, with
/// `DepthNeed::LowerBound`), so the pair it calls deepest may not be: when an
/// overlapping pair holds the exit tried and is itself deeper, its exit is tried next.
/// Measured on `examples/gjk_workload.rs` under GjkEpa (callgrind), moving on took its
/// instructions from 239.1 M to 236.7 M; the shortcut then answers 2,020 of the 2,560
/// queries whose deepest pair overlaps beyond the touching tolerance (SatDecomposed,
/// whose depths are exact, 2,080).
///
/// When the depths were lower bounds (`depths_exact` false) and that chain ends blocked,
/// the exactly deepest pair's exit ([`exactly_deepest`]) is tried once more.
pub(super) fn deepest_exit(
    bodies: &Bodies,
    deepest: (usize, usize),
    depths_exact: bool,
    near: &mut NearPairs,
    work: &mut Work,
) -> Result<Exit, Option<Blocked>> {
    let first = exit_from(bodies, deepest, near, work);
    match first {
        Err(Some(blocked)) if !depths_exact => match exactly_deepest(bodies, work) {
            Some(pair) if pair != blocked.tried && pair != deepest => exit_from(bodies, pair, near, work),
            _ => first,
        },
        _ => first,
    }
}

/// [`deepest_exit`]'s chain from the pair `deepest`, moving on to deeper blockers.
fn exit_from(
    bodies: &Bodies,
    deepest: (usize, usize),
    near: &mut NearPairs,
    work: &mut Work,
) -> Result<Exit, Option<Blocked>> {
    if !matches!((bodies.a, bodies.b), (Shape::Polygon(_), Shape::Polygon(_))) {
        return Err(None);
    }
    let mut exit = nearest_face(bodies, deepest, work).ok_or(None)?;
    for _ in 0..DEEPER_TRIES {
        let point = exit.normal * exit.depth;
        let Some(by) = blocker(bodies, point, |pair| pair == exit.pair, near, work) else {
            return Ok(exit);
        };
        let blocked = Blocked { tried: exit.pair, by };
        // Only an overlapping pair can be deeper; a deeper one's exit is farther out.
        if bodies.hits.binary_search_by(|h| (h.0, h.1).cmp(&by)).is_err() {
            return Err(Some(blocked));
        }
        match nearest_face(bodies, by, work) {
            Some(next) if next.depth > exit.depth => exit = next,
            _ => return Err(Some(blocked)),
        }
    }
    Err(None)
}

/// The overlapping pair of greatest depth, measured exactly (SAT's least overlap on the
/// pair's difference, `sat::difference_faces`), for when the piece loop's depths were
/// only lower bounds (GjkEpa). `None` when no depth is a number.
///
/// Measured on `examples/gjk_workload.rs` under GjkEpa (callgrind): on one U pose the
/// lower bounds named a pair whose exit a shallower pair held, the small union did not
/// settle and the full search ran (20 of the workload's 40 such searches), while the
/// truly deepest pair's exit was free, as SatDecomposed's exact depths find at once.
/// Asked only when the first try was blocked, so a query whose shortcut succeeds pays
/// nothing for it.
fn exactly_deepest(bodies: &Bodies, work: &mut Work) -> Option<(usize, usize)> {
    let mut best: Option<((usize, usize), f32)> = None;
    for &(i, j, _) in bodies.hits {
        let depth = -least_overlap(bodies, (i, j), work).0;
        if depth.is_finite() && best.is_none_or(|(_, d)| depth > d) {
            best = Some(((i, j), depth));
        }
    }
    best.map(|(pair, _)| pair)
}

/// A pair whose exit another pair's difference holds.
#[derive(Clone, Copy, Debug)]
pub(super) struct Blocked {
    /// The pair whose exit was tried.
    pub tried: (usize, usize),
    /// A pair whose difference holds it.
    pub by: (usize, usize),
}

/// Most differences the small union takes ([`small_union_exit`]).
const SMALL_UNION_MAX: usize = 4;

/// When the deepest pair's exit is held by another difference: the union's boundary
/// point nearest the origin found among a few differences only.
///
/// The same argument as the module docs', for a set S of differences instead of one:
/// every point nearer the origin than the boundary of S's union is held by a member (or
/// lies inside a decomposition's diagonal, which is inside the union), so if S's nearest
/// boundary point is held by no other difference it is the answer. The search is run
/// on S alone (its differences opened, no ring of other pairs), its answer checked
/// against every other pair as the single exit is, and a difference that holds it joins
/// S, up to [`SMALL_UNION_MAX`] members. On two stars whose tips interleave, pushing the
/// deepest tip out along its face pushes it into the next tip: the answer is a corner
/// of the two differences, found here with two instead of the dozen the search opens.
///
/// Returns the winning candidate's index in `s.candidates` (its differences are the only
/// ones open); `None` when the search must decide.
pub(super) fn small_union_exit(
    s: &mut CombineScratch,
    bodies: &Bodies,
    hull: &mut crate::narrow::minkowski::HullScratch,
    blocked: Blocked,
    first_reach: f32,
    work: &mut Work,
) -> Option<usize> {
    let mut members = std::mem::take(&mut s.members);
    members.clear();
    let join = |members: &mut Vec<(usize, usize, PairPenetration)>, pair: (usize, usize)| {
        let pen = bodies.hits.binary_search_by(|h| (h.0, h.1).cmp(&pair)).map_or(
            PairPenetration {
                normal: Vec2::X,
                depth: 0.0,
            },
            |at| bodies.hits[at].2,
        );
        if let Err(at) = members.binary_search_by(|m| (m.0, m.1).cmp(&pair)) {
            members.insert(at, (pair.0, pair.1, pen));
        }
    };
    join(&mut members, blocked.tried);
    join(&mut members, blocked.by);
    let mut near = std::mem::take(&mut s.blocking);
    let mut winner = None;
    while members.len() <= SMALL_UNION_MAX {
        let union = Bodies {
            hits: &members,
            apart: &[],
            all_tested: true,
            ..*bodies
        };
        s.clear();
        s.skip_held = true;
        hull.prepared_a.reset(bodies.a.piece_count());
        hull.prepared_b.reset(bodies.b.piece_count());
        let Some(w) = s.nearest_boundary_point(&union, hull, first_reach, &mut None) else {
            break;
        };
        let point = s.candidates[w].point;
        // Points of a diagonal edge are inside the union only thanks to the piece across
        // it, whose difference is not a member: nearer than the answer, the union's
        // boundary may run on through that difference.
        if s.nearest_diagonal <= point.length() + bodies.tol {
            break;
        }
        let is_member = |pair: (usize, usize)| members.binary_search_by(|m| (m.0, m.1).cmp(&pair)).is_ok();
        match blocker(bodies, point, is_member, &mut near, work) {
            None => {
                winner = Some(w);
                break;
            }
            Some(by) => join(&mut members, by),
        }
    }
    s.members = members;
    s.blocking = near;
    winner
}

/// The face of pieces `pair`'s difference nearest the origin as an exit, or `None` when
/// the shortcut cannot take it: a pair overlapping by no more than the tolerance (its
/// point has no direction the search would trust), a NaN, or a face of a
/// decomposition's diagonal (module docs).
fn nearest_face(bodies: &Bodies, pair: (usize, usize), work: &mut Work) -> Option<Exit> {
    let (i, j) = pair;
    let (gap, normal, edge) = least_overlap(bodies, pair, work);
    let depth = -gap;
    // (Written so that a NaN depth declines too.)
    if depth.is_nan() || depth <= bodies.tol {
        return None;
    }
    let diagonal = match edge {
        FaceEdge::A(k) => bodies.a.piece_diagonals(i).get(k),
        FaceEdge::B(k) => bodies.b.piece_diagonals(j).get(k),
    };
    if diagonal.copied().unwrap_or(false) {
        return None;
    }
    Some(Exit { normal, depth, pair })
}

/// Pieces `pair`'s face of least overlap (the largest one-sided gap, SAT's answer): its
/// gap, outward normal and edge (A's frame).
fn least_overlap(bodies: &Bodies, (i, j): (usize, usize), work: &mut Work) -> (f32, Vec2, FaceEdge) {
    let mut best = (f32::NEG_INFINITY, Vec2::X, FaceEdge::A(0));
    difference_faces(&bodies.query.piece(i, j), work, |normal, gap, edge| {
        if gap > best.0 {
            best = (gap, normal, edge);
        }
        false
    });
    best
}

/// The largest coordinate magnitude of a box: what rounding in its frame scales with.
fn magnitude(b: &Aabb) -> f32 {
    b.min.abs().max(b.max.abs()).max_element()
}

/// The piece pairs whose boxes (A's frame) come within `reach` of each other on both
/// axes, in (A, B) order: every pair whose difference can hold a point at most `reach`
/// from the origin less the boxes' slack ([`blocker`]). Built on the first check of a
/// call and again only when a check reaches farther.
///
/// Every check used to scan every pair of boxes: on the workload's 128-vertex stars
/// (65 pieces each, about 4,200 box pairs) the scans were most of the 87,000
/// instructions of a small union's search (`examples/gjk_workload.rs`, callgrind), for
/// the handful of pairs near the contact. Measured on the whole workload: 174.6 M →
/// 170.3 M instructions under GjkEpa, 153.9 M → 150.0 M under SatDecomposed, the same
/// answers (checksums). Scanning on a call's first check and listing from its second
/// cost 2 M more.
#[derive(Default)]
pub(super) struct NearPairs {
    pairs: Vec<(u32, u32)>,
    /// The reach the list was built for (−∞: not built).
    reach: f32,
    /// B's pieces near A's box, with their boxes grown by the reach (a buffer of the
    /// build).
    columns: Vec<(u32, Aabb)>,
}

impl NearPairs {
    pub(super) fn reset(&mut self) {
        self.pairs.clear();
        self.reach = f32::NEG_INFINITY;
    }

    /// The list for `reach` at least: kept when built for as far, else built for twice
    /// as far (a check that moves on to a deeper pair reaches a little farther each
    /// time). Built by a scan of the boxes, whole rows and columns first (as
    /// `open_ring`'s). (The piece trees' descent, tried instead, cost the workload 9%
    /// more instructions: its boxes are B's local ones turned and boxed again.)
    fn within(&mut self, reach: f32, boxes_a: &[Aabb], boxes_b: &[Aabb], all_a: &Aabb, all_b: &Aabb) -> &[(u32, u32)] {
        // (Written so that a NaN reach rebuilds, and the list then holds every pair
        // the scan's own tests could pass.)
        if reach <= self.reach {
            return &self.pairs;
        }
        self.reach = if reach.is_finite() { 2.0 * reach } else { f32::INFINITY };
        let grown = |b: &Aabb| b.inflated(self.reach);
        let all_b = grown(all_b);
        self.columns.clear();
        for (l, box_b) in boxes_b.iter().enumerate() {
            let box_b = grown(box_b);
            if box_b.overlaps(all_a) {
                self.columns.push((l as u32, box_b));
            }
        }
        self.pairs.clear();
        for (k, box_a) in boxes_a.iter().enumerate() {
            if !box_a.overlaps(&all_b) {
                continue;
            }
            for &(l, box_b) in &self.columns {
                // All four comparisons, not the first that fails: no branch to
                // mispredict per pair (NaN boxes fail, as `overlaps`).
                let overlap = (box_a.min.x <= box_b.max.x)
                    & (box_b.min.x <= box_a.max.x)
                    & (box_a.min.y <= box_b.max.y)
                    & (box_b.min.y <= box_a.max.y);
                if overlap {
                    self.pairs.push((k as u32, l));
                }
            }
        }
        &self.pairs
    }
}

/// The first piece pair, other than those `skip` names, whose difference holds `point`
/// (A's frame) strictly (by more than the tolerance), or `None` when none does.
fn blocker(
    bodies: &Bodies,
    point: Vec2,
    skip: impl Fn((usize, usize)) -> bool,
    near: &mut NearPairs,
    work: &mut Work,
) -> Option<(usize, usize)> {
    let (tol, depth) = (bodies.tol, point.length());
    let held = |k: usize, l: usize, work: &mut Work| {
        // Strictly inside on every face: no face stops the walk.
        !difference_faces(&bodies.query.piece(k, l), work, |n, gap, _| n.dot(point) + gap >= -tol)
    };
    // An apart pair's difference is at least its gap (trusted to the world's tolerance)
    // from the origin: beyond the exit's distance it cannot hold it.
    let beyond = |k: usize, l: usize| {
        bodies
            .apart
            .binary_search_by(|p| (p.0 as usize, p.1 as usize).cmp(&(k, l)))
            .is_ok_and(|at| bodies.apart[at].2 - bodies.gap_margin > depth + tol)
    };
    match &bodies.boxes {
        PieceBoxes::InA {
            boxes_a,
            boxes_b,
            all_a,
            all_b,
        } => {
            // Boxes in A's frame carry the rounding of turning B into it: a relative
            // margin far above it (as `axis_gap`'s), and the tolerance.
            let slack = tol + 1e-5 * (magnitude(all_a) + magnitude(all_b));
            // B moved by the point: a pair can hold it only if its boxes overlap then.
            // Moved by |point| at most on each axis and grown by the slack, B's box
            // stays within depth + slack of where it was: the near pairs hold every
            // such pair, in the order of a scan of all pairs, so the first found is
            // the same.
            let moved = |b: &Aabb| Aabb::new(b.min + point, b.max + point).inflated(slack);
            let holds = |k: usize, l: usize, box_b: &Aabb, work: &mut Work| {
                !skip((k, l)) && boxes_a[k].overlaps(box_b) && !beyond(k, l) && held(k, l, work)
            };
            for &(k, l) in near.within(depth + slack, boxes_a, boxes_b, all_a, all_b) {
                let (k, l) = (k as usize, l as usize);
                if holds(k, l, &moved(&boxes_b[l]), work) {
                    return Some((k, l));
                }
            }
            None
        }
        PieceBoxes::Trees { tree_a, tree_b, xf_ab } => {
            let of = |b: Option<Aabb>| b.map_or(0.0, |b| magnitude(&b));
            let slack = tol + 1e-5 * (of(tree_a.bounds()) + of(tree_b.bounds().map(|b| b.posed(xf_ab))));
            let mut found = None;
            tree_a.for_each_pair_within(&Pose::IDENTITY, tree_b, xf_ab, depth + slack, |k, l, _| {
                if found.is_none() && !skip((k, l)) && !beyond(k, l) && held(k, l, work) {
                    found = Some((k, l));
                }
            });
            found
        }
    }
}

/// The stretch of the line s·`dir` (s in metres, A's frame) inside pieces k and l's
/// difference, from its faces (`sat::difference_faces`, kept in `planes`), as
/// `clip_line` gives it for a built difference; `None` when the line misses it.
pub(super) fn ray_interval_of_pair(
    bodies: &Bodies,
    (k, l): (usize, usize),
    dir: Vec2,
    planes: &mut Vec<(Vec2, f32)>,
    work: &mut Work,
) -> Option<(f32, f32)> {
    planes.clear();
    difference_faces(&bodies.query.piece(k, l), work, |normal, gap, _| {
        planes.push((normal, -gap));
        false
    });
    clip_line(dir, planes.iter().copied())
}
