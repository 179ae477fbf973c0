//! Which open difference holds a point, and which stretch of an edge is held: the
//! questions the combine step's search (`search.rs`) asks of the differences it has
//! built. Split from `search.rs`, which owns the order of the search.
//!
//! ## Held stretches
//! Between two finely cut outlines at a shallow contact (two stars of 10,000 vertices
//! resting on each other) thousands of piece pairs overlap, their differences are long
//! thin needles through the origin, and their edges cross each other hundreds of
//! thousands of times near it; nearly every crossing is deep inside some other needle,
//! and testing each one was almost all of the query's time (250,000 tests of 100
//! differences each on two 3000-vertex stars). A difference is convex, so the part of an
//! edge's line it holds strictly is one interval, found by clipping the line against its
//! sides (Cyrus and Beck, "Generalized two- and three-dimensional clipping", 1978). When
//! an edge is activated, the search walks from its point nearest the origin outward,
//! hopping from the interval one difference holds to the next difference holding that
//! interval's end, until it meets a point no difference holds or leaves the search's
//! reach. Every candidate on that stretch — the edge's own, and its crossings with other
//! edges — would only be found held, so none is queued. The answer does not change: the
//! intervals are shrunk by a rounding margin, so that a point they take in is held by
//! the per-point test too, and what they leave out is tested as before.
//!
//! ```text
//!   origin ·        ┌──── held by D1 ────┐┌── held by D2 ──┐
//!   edge  ─────────[=====================][================]x───────── (x: first
//!                  ^ foot                                          point held by none)
//! ```

use super::*;

/// Most hops of one walk along an edge (each one a holder question and a clip): a walk
/// stopped early only leaves candidates to be tested, so this bounds the work without
/// changing the answer.
const WALK_STEPS_MAX: usize = 16;

/// The margin (relative to the coordinates involved) by which held intervals are shrunk:
/// the rounding of a dot product and of a crossing's coordinates is a few ulps, far
/// below it; the held radius (`search.rs`) uses the same.
const ROUNDING_MARGIN: f32 = 1e-5;

/// The boxes of the parts of an element that can still give candidates in the current
/// reach, below and above its held stretch (`live_parts`); the first is filled before
/// the second, and none is left when nothing is.
pub(super) type Live = [Option<Aabb>; 2];

/// An interval of edge parameters held by no difference (lo > hi).
pub(super) const NOTHING_HELD: (f32, f32) = (1.0, 0.0);

/// From this many open differences on, edges are walked (and crossings looked for
/// between live parts only). Below it the candidates are few and the walks' holder
/// questions cost more than the tests they save: measured with `bench --quick`
/// (8-128 vertices), walking every edge made SatDecomposed and GjkEpa ~8% slower.
const WALK_MIN_DIFFERENCES: usize = 64;

impl CombineScratch {
    /// Whether edges are walked now (no trace, and enough differences open).
    pub(super) fn walks(&self) -> bool {
        self.skip_held && self.diffs.len() >= WALK_MIN_DIFFERENCES
    }

    /// The first open difference that holds `p` strictly inside (by more than `tol`).
    pub(super) fn holder(&mut self, p: Vec2, tol: f32) -> Option<u32> {
        if self
            .diffs
            .get(self.hint)
            .is_some_and(|d| d.may_hold(p) && self.strictly_inside(d, p, tol))
        {
            return Some(self.hint as u32);
        }
        if self.radial_on {
            if let Some(k) = self.radial_holder(p) {
                self.hint = k as usize;
                return Some(k);
            }
        }
        let mut near = std::mem::take(&mut self.near);
        let from_grid = self.grids_on && self.diff_grid.near(&Aabb::new(p, p), &mut near);
        // The hint was asked first and does not hold `p`: not again (a query's
        // candidates are mostly on the boundary of the one difference they came from, and
        // of few others, so the scan below would ask it a second time every time).
        let hint = self.hint;
        let holds = |k: usize| {
            k != hint && {
                let d = &self.diffs[k];
                d.may_hold(p) && self.strictly_inside(d, p, tol)
            }
        };
        let found = if from_grid {
            near.iter().copied().find(|&k| holds(k as usize))
        } else {
            (0..self.diffs.len()).find(|&k| holds(k)).map(|k| k as u32)
        };
        self.near = near;
        let k = found?;
        self.hint = k as usize;
        Some(k)
    }

    pub(super) fn strictly_inside(&self, d: &Difference, p: Vec2, tol: f32) -> bool {
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
        // A side at or beyond `outside` settles it (the largest distance is at least
        // that one): most points asked about are outside the difference, and a needle's
        // first sides usually tell.
        let outside = if d.radius <= 0.0 { -tol } else { margin.max(-tol) };
        let mut s = f32::NEG_INFINITY;
        for &(normal, offset) in planes {
            let side = normal.dot(p) - offset;
            if side >= outside {
                return false;
            }
            s = s.max(side);
        }
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

    /// The stretch [lo, hi] of edge p0–p1 (as parameters, 0 at p0, 1 at p1) around its
    /// point at `t_near` that open differences hold strictly (module docs), or
    /// [`NOTHING_HELD`]. Walks at most to the search's reach in each direction. `known`
    /// is a stretch around `t_near` already known to be held (found in a smaller reach,
    /// `widen.rs`), or [`NOTHING_HELD`]: the walk goes on from its ends.
    pub(super) fn held_stretch(&mut self, p0: Vec2, p1: Vec2, t_near: f32, tol: f32, known: (f32, f32)) -> (f32, f32) {
        let r = p1 - p0;
        // The table of what the differences hold together (`coverage.rs`) first: the
        // walk goes on from its ends. Both stretches hold `t_near`, so together they are
        // one stretch.
        let (mut lo, mut hi) = self.covered_stretch(p0, p1, t_near);
        if known.0 <= known.1 {
            (lo, hi) = if lo <= hi {
                (lo.min(known.0), hi.max(known.1))
            } else {
                known
            };
        }
        if lo > hi {
            let Some(first) = self.holder(p0 + r * t_near, tol) else {
                return NOTHING_HELD;
            };
            (lo, hi) = self.held_interval(first, p0, r, tol);
            if !(lo <= t_near && t_near <= hi) {
                // The margin left the point itself out: nothing certain to build on.
                return NOTHING_HELD;
            }
        }
        let reach = self.reach;
        let beyond_reach = |t: f32| (p0 + r * t).length() > reach;
        // Outward from the nearest point: up (towards p1), then down (towards p0).
        for _ in 0..WALK_STEPS_MAX {
            if hi >= 1.0 || beyond_reach(hi) {
                break;
            }
            let Some(d) = self.holder(p0 + r * hi, tol) else { break };
            let (a, b) = self.held_interval(d, p0, r, tol);
            if !(a <= hi && b > hi) {
                break;
            }
            hi = b;
        }
        for _ in 0..WALK_STEPS_MAX {
            if lo <= 0.0 || beyond_reach(lo) {
                break;
            }
            let Some(d) = self.holder(p0 + r * lo, tol) else { break };
            let (a, b) = self.held_interval(d, p0, r, tol);
            if !(a < lo && b >= lo) {
                break;
            }
            lo = a;
        }
        (lo.max(0.0), hi.min(1.0))
    }

    /// The parameters t for which p0 + t·r lies inside difference `k` by the margin
    /// `strictly_inside` asks for plus [`ROUNDING_MARGIN`]: a point there (or within
    /// rounding of the line) is held. Only the core is used (a rounded difference holds
    /// all of it when its radius exceeds the tolerance); [`NOTHING_HELD`] for a core
    /// without sides.
    fn held_interval(&self, k: u32, p0: Vec2, r: Vec2, tol: f32) -> (f32, f32) {
        let d = &self.diffs[k as usize];
        if d.planes.1 == 0 {
            return NOTHING_HELD;
        }
        let planes = &self.planes[d.planes.0 as usize..(d.planes.0 + d.planes.1) as usize];
        let size = planes.iter().map(|&(_, offset)| offset.abs()).fold(0.0, f32::max);
        let margin = ROUNDING_MARGIN * (size + p0.length() + (p0 + r).length());
        let shrink = if d.radius > tol { margin } else { tol + margin };
        let (mut lo, mut hi) = (f32::NEG_INFINITY, f32::INFINITY);
        for &(normal, offset) in planes {
            // normal·(p0 + t·r) − offset < −shrink, i.e. slope·t < −gap.
            let (slope, gap) = (normal.dot(r), normal.dot(p0) - offset + shrink);
            if slope > 0.0 {
                hi = hi.min(-gap / slope);
            } else if slope < 0.0 {
                lo = lo.max(-gap / slope);
            } else if gap >= 0.0 {
                return NOTHING_HELD;
            }
        }
        if lo < hi {
            (lo, hi)
        } else {
            NOTHING_HELD
        }
    }

    /// The boxes of the parts of element `e` that can still give candidates in the
    /// current reach: for an edge, its stretch within the reach's disc less its held
    /// stretch — one part on each side of the held stretch, or none when nothing is
    /// left (its crossings there would all be held or out of reach); for an arc, its
    /// box. Grown by a rounding margin, and the disc by a thousandth, so that they hold
    /// every crossing point computed on those parts: boxes only pick the pairs whose
    /// crossings are computed, and each crossing is still checked against the reach and
    /// the held stretches one by one.
    ///
    /// The two parts are kept apart: an edge crossing the disc through its held middle
    /// (a needle of two stars' tips through the origin) has its live parts at the
    /// disc's two far sides, and the box of both was nearly the reach's square, which
    /// met every other such edge's.
    pub(super) fn live_parts(&self, e: u32) -> Live {
        self.live_parts_between(e, 0.0, self.reach)
    }

    /// [`Self::live_parts`] within the disc of radius `outer` instead of the reach's,
    /// less the disc of radius `inner` about the origin (shrunk by a thousandth, as the
    /// outer disc is grown, so that the parts hold every crossing point computed
    /// farther than `inner`): the parts in the ring, or sub-band of it, that
    /// `widen_grids` and `pair_band` queue the crossings of. Up to four stretches are
    /// left (each live part less the disc), kept as two boxes (the last ones joined).
    pub(super) fn live_parts_between(&self, e: u32, inner: f32, outer: f32) -> Live {
        let element = &self.elements[e as usize];
        let Feature::Edge { p0, p1, .. } = element.feature else {
            return [Some(element.bounds), None];
        };
        let r = p1 - p0;
        let (mut a, mut b) = (0.0f32, 1.0f32);
        if outer.is_finite() {
            // |p0 + t·r|² <= R²: the roots of len2·t² + 2·(p0·r)·t + |p0|² − R².
            let reach = 1.001 * outer;
            let (len2, half_b) = (r.length_squared(), p0.dot(r));
            let c = p0.length_squared() - reach * reach;
            let disc = half_b * half_b - len2 * c;
            if disc < 0.0 || len2 <= 0.0 {
                return [None, None];
            }
            let root = disc.sqrt();
            a = a.max((-half_b - root) / len2);
            b = b.min((-half_b + root) / len2);
            if a > b {
                return [None, None];
            }
        }
        let (lo, hi) = self.held[e as usize];
        let margin = ROUNDING_MARGIN * (p0.length() + p1.length());
        let piece = |t0: f32, t1: f32| Aabb::from_points(&[p0 + r * t0, p0 + r * t1]).inflated(margin);
        let below = (lo > hi || a < lo).then(|| (a, if lo > hi { b } else { lo.min(b) }));
        let above = (lo <= hi && b > hi).then(|| (hi.max(a), b));
        // The stretch nearer the origin than `inner`, (cut_lo, cut_hi), or none.
        let (cut_lo, cut_hi) = if inner > 0.0 {
            let inner = 0.999 * inner;
            let (len2, half_b) = (r.length_squared(), p0.dot(r));
            let disc = half_b * half_b - len2 * (p0.length_squared() - inner * inner);
            if disc > 0.0 && len2 > 0.0 {
                let root = disc.sqrt();
                ((-half_b - root) / len2, (-half_b + root) / len2)
            } else {
                (1.0, 0.0)
            }
        } else {
            (1.0, 0.0)
        };
        let mut parts: Live = [None, None];
        let mut count = 0;
        for (t0, t1) in [below, above].into_iter().flatten() {
            let stretches = if cut_lo < cut_hi {
                [(t0, t1.min(cut_lo)), (t0.max(cut_hi), t1)]
            } else {
                [(t0, t1), (1.0, 0.0)]
            };
            for (t0, t1) in stretches {
                if t0 > t1 && cut_lo < cut_hi {
                    continue;
                }
                let b = piece(t0, t1);
                match count {
                    0 | 1 => parts[count] = Some(b),
                    _ => parts[1] = parts[1].map(|x| x.union(&b)),
                }
                count += 1;
                if cut_lo >= cut_hi {
                    break;
                }
            }
        }
        parts
    }

    /// Is `p`, a point of element `e`, on the stretch of it known to be held? Only
    /// edges have such stretches.
    pub(super) fn on_held_stretch(&self, e: u32, p: Vec2) -> bool {
        let (lo, hi) = self.held[e as usize];
        if lo > hi {
            return false;
        }
        let Feature::Edge { p0, p1, .. } = self.elements[e as usize].feature else {
            return false;
        };
        let r = p1 - p0;
        let t = (p - p0).dot(r) / r.length_squared();
        lo <= t && t <= hi
    }
}
