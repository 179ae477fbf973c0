//! How far from the origin the union holds every point, per angle: the radial table
//! (`radial.rs`) chained across differences, those that hold the origin and those that
//! do not.
//!
//! Between two finely cut outlines at a shallow contact (two 10,000-vertex stars, their
//! tips resting on each other) the differences near the origin are thousands of long
//! thin needles, most of them not through the origin, and their edges cross millions of
//! times nearer the origin than the answer: every one of those crossings is held, and
//! testing them was nearly all of the query (3.5 million tests on one pose). No single
//! difference holds the disc the answer bounds, so the held radius and the radial table
//! tell few of them; the union of the needles does.
//!
//! A ray from the origin along a unit u leaves a convex difference D's half-planes
//! n·p ≤ o by a set of distances that is one interval; over an angle of directions, the
//! distances r for which r·u is inside D for *every* u of the angle are again one
//! interval [lo, hi], from each side's offset over the greatest cosine between its normal
//! and a direction of the angle (as in `radial.rs`; a side the origin is outside of
//! gives a least distance, one it is inside of a greatest). Per angle the table keeps
//! R, the distance within which the intervals met so far chain from 0 without a gap:
//! every point of the angle nearer than R is held, whichever difference holds it. The
//! intervals are taken from the sides moved in by the tolerance and a rounding margin
//! and from the angle widened by `radial::ANGLE_SLACK`, as for the radial table, so a
//! point the table takes in is held by the per-point test too; a point it does not take
//! in is tested as before, and the answer does not change.
//!
//! ```text
//!        D1          D3            one angle of directions from the origin:
//!   0 [=======]                    [0, hi1] from D1 (holds the origin),
//!          [========]   D2         [lo2, hi2] from D2 starts before hi1 ends,
//!                 [=====]          [lo3, hi3] from D3 before hi2: R = hi3
//! ```

use super::cover::NOTHING_HELD;
use super::radial::{bin_ends, bin_of, BINS, ROUNDING_MARGIN};
use super::*;
use std::cmp::Reverse;

/// Points nearer the origin than this fraction of an edge's farthest end are not walked
/// over (`covered_stretch`): there the rounding of a point on the edge could turn its
/// direction by more than the angles' slack.
const NEAR_ORIGIN: f32 = 1e-4;

/// The table is kept from this many candidates found held on (without a trace): it
/// costs up to an angle's sides per angle per difference, which only pays where held
/// candidates abound. Measured with `examples/big_query_workload.rs` at a 1 cm
/// overlap: two 10,000-vertex coastlines open up to 5000 differences but most poses
/// find under a thousand candidates held, and keeping the table from 512 differences
/// on made the quickest pose's query twice as slow (2 to 4 ms of CPU); two
/// 10,000-vertex stars find hundreds of thousands held without it, and their queries
/// took the same time whether the table came at 64, 1024 held candidates or 512
/// differences.
pub(super) const COVER_MIN_HELD_TESTS: usize = 1024;

/// The held radius follows the table's least distance every this many differences.
const HELD_RADIUS_EVERY: u32 = 16;

/// The directions of the angles' borders (border b starts angle b), unwidened.
fn borders() -> &'static [Vec2] {
    static BORDERS: std::sync::OnceLock<Vec<Vec2>> = std::sync::OnceLock::new();
    BORDERS.get_or_init(|| {
        let width = std::f32::consts::TAU / BINS as f32;
        (0..BINS)
            .map(|b| Vec2::from_angle(-std::f32::consts::PI + width * b as f32))
            .collect()
    })
}

/// The distances [lo, hi] at which every direction of the angle from `lo_dir`
/// counter-clockwise to `hi_dir` is inside all `planes` moved in by `shrink`; `None` when
/// no distance is.
/// An interval ending at or below `floor` is of no use (the angle's distance is already
/// past it): `None` as soon as that is certain.
fn interval_over_angle(
    planes: &[(Vec2, f32)],
    shrink: f32,
    (lo_dir, hi_dir): (Vec2, Vec2),
    floor: f32,
) -> Option<(f32, f32)> {
    let (mut lo, mut hi) = (0.0f32, f32::INFINITY);
    for &(normal, offset) in planes {
        // The greatest cosine between the normal and a direction of the angle.
        let facing = if cross(lo_dir, normal) >= 0.0 && cross(normal, hi_dir) >= 0.0 {
            1.0
        } else {
            normal.dot(lo_dir).max(normal.dot(hi_dir))
        };
        let room = offset - shrink;
        if room > 0.0 {
            if facing > 0.0 {
                hi = hi.min(room / facing);
            }
        } else if facing >= 0.0 {
            // Some direction leaves this side's half-plane at every distance.
            return None;
        } else {
            lo = lo.max(room / facing);
        }
        if lo >= hi || hi <= floor {
            return None;
        }
    }
    Some((lo, hi))
}

/// The convex polygon `core` clipped to the square [−half, half]² (Sutherland and
/// Hodgman, "Reentrant polygon clipping", 1974), written to `out` (emptied first; left
/// empty when nothing is inside). An infinite `half` keeps the polygon.
fn clip_to_square(core: &[Vec2], half: f32, out: &mut Vec<Vec2>) {
    out.clear();
    out.extend_from_slice(core);
    if !half.is_finite() {
        return;
    }
    let mut next = Vec::with_capacity(core.len() + 4);
    for (axis, sign) in [(0usize, 1.0f32), (0, -1.0), (1, 1.0), (1, -1.0)] {
        // Keep sign·coordinate <= half.
        let side = |p: Vec2| sign * if axis == 0 { p.x } else { p.y } - half;
        next.clear();
        let n = out.len();
        for k in 0..n {
            let (p, q) = (out[k], out[(k + 1) % n]);
            let (sp, sq) = (side(p), side(q));
            if sp <= 0.0 {
                next.push(p);
            }
            if (sp < 0.0 && sq > 0.0) || (sp > 0.0 && sq < 0.0) {
                next.push(p + (q - p) * (sp / (sp - sq)));
            }
        }
        std::mem::swap(out, &mut next);
        if out.is_empty() {
            return;
        }
    }
}

/// Angles per group of the table's walks along an edge (`covered_stretch`): a group
/// nearer than its least distance is crossed in one step.
const GROUP: usize = 16;

/// Words of a bit set of the angles.
pub(super) const WORDS: usize = BINS / 64;

/// Marks in `marks` every angle in which the convex polygon `poly` has a point farther
/// than `radius` from the origin and than the angle's `floor`, and the angles on either
/// side (the angles are widened by `radial::ANGLE_SLACK`, far less than one; a point's
/// angle may round into the next one): the angles of its boundary's parts outside the
/// circle of that radius, where such a part reaches past the floor. A ray from the
/// origin that meets the polygon beyond the circle leaves it there, across its
/// boundary, so no other angle has such a point.
///
/// Between two 10,000-vertex stars most differences near the origin are needles
/// through it, long in two narrow ranges of angles and well inside the table's least
/// distance in all others, and every one was visited in all 1024 angles (22 million
/// angle visits in one query of `examples/big_query_workload.rs`, half of them to find
/// the angle's distance already past the reach).
pub(super) fn angles_beyond(poly: &[Vec2], radius: f32, floor: impl Fn(usize) -> f32, marks: &mut [u64; WORDS]) {
    // An angle whose distance is already at or past a part's farthest point (one of its
    // ends: the distance along a segment is convex) learns nothing from that part.
    let mut mark = |from: usize, count: usize, farthest: f32| {
        for step in 0..count.min(BINS) {
            let b = (from + step) % BINS;
            if floor(b) < farthest {
                marks[b / 64] |= 1 << (b % 64);
            }
        }
    };
    // A part from p to q outside the circle: the angles it sweeps, less than a half
    // turn (it does not pass through the origin), and one more on either side.
    let mut sweep = |(p, bp): (Vec2, usize), (q, bq): (Vec2, usize)| {
        let turn = cross(p, q);
        let (from, to) = if turn > 0.0 {
            (bp, bq)
        } else if turn < 0.0 {
            (bq, bp)
        } else if p.dot(q) > 0.0 {
            (bp.min(bq), bp.max(bq))
        } else {
            // Through the origin (only with a radius of zero): every angle.
            (0, BINS - 1)
        };
        mark(
            (from + BINS - 1) % BINS,
            (to + BINS - from) % BINS + 3,
            p.length().max(q.length()),
        );
    };
    let n = poly.len();
    // A vertex's angle, with its bin: the arctangent is computed once for the vertex
    // that ends one side and starts the next.
    let mut last: Option<(usize, usize)> = None;
    let mut vertex = |k: usize| {
        let k = if k < n { k } else { 0 };
        let b = match last {
            Some((j, b)) if j == k => b,
            _ => bin_of(poly[k]),
        };
        last = Some((k, b));
        (poly[k], b)
    };
    let point = |p: Vec2| (p, bin_of(p));
    // A little inside the circle, so that a part the rounding puts on it is kept.
    let radius = radius * (1.0 - 1e-4);
    for k in 0..n {
        let (p, q) = (poly[k], poly[if k + 1 < n { k + 1 } else { 0 }]);
        let r = q - p;
        let (len2, half_b) = (r.length_squared(), p.dot(r));
        let disc = half_b * half_b - len2 * (p.length_squared() - radius * radius);
        if radius <= 0.0 || len2 <= 0.0 || disc <= 0.0 {
            // Wholly outside (or a point): its angles.
            sweep(vertex(k), vertex(k + 1));
            continue;
        }
        // Inside the circle between t0 and t1.
        let root = disc.sqrt();
        let (t0, t1) = ((-half_b - root) / len2, (-half_b + root) / len2);
        if t0 > 0.0 {
            let start = vertex(k);
            sweep(start, if t0 < 1.0 { point(p + r * t0) } else { vertex(k + 1) });
        }
        if t1 < 1.0 {
            let start = if t1 > 0.0 { point(p + r * t1) } else { vertex(k) };
            sweep(start, vertex(k + 1));
        }
    }
}

/// The angles marked in `marks`, in order.
pub(super) fn marked(marks: [u64; WORDS]) -> impl Iterator<Item = usize> {
    (0..WORDS).flat_map(move |w| {
        let mut bits = marks[w];
        std::iter::from_fn(move || {
            (bits != 0).then(|| {
                let b = w * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                b
            })
        })
    })
}

impl CombineScratch {
    /// Starts the table with every open difference (when it comes into use).
    pub(super) fn fill_cover(&mut self, tol: f32) {
        self.cover.clear();
        self.cover.resize(BINS, 0.0);
        self.cover_groups.clear();
        self.cover_groups.resize(BINS / GROUP, 0.0);
        self.cover_least = 0.0;
        self.cover_pending.resize_with(BINS, Default::default);
        for pending in &mut self.cover_pending {
            pending.clear();
        }
        self.cover_complete.clear();
        self.cover_complete.resize(self.diffs.len(), false);
        for k in 0..self.diffs.len() {
            self.add_cover(k as u32, tol);
        }
        self.raise_held_radius();
    }

    /// Brings the table up to a grown reach: adds again the open differences that left
    /// something out for lying beyond the old reach (`add_cover`); the others' intervals
    /// are all in already.
    ///
    /// The table once started again from every difference at each ring: a fifth of the
    /// slowest query between two 10,000-vertex coastlines (perf). Its distances need no
    /// reach: an interval is what a difference holds, wherever it lies, so the table
    /// may keep intervals beyond the reach (they wait among the angle's pending ones
    /// until the chain comes to them), and adding an interval a second time changes
    /// nothing.
    pub(super) fn extend_cover(&mut self, tol: f32) {
        self.cover_complete.resize(self.diffs.len(), false);
        for k in 0..self.diffs.len() {
            if !self.cover_complete[k] {
                self.add_cover(k as u32, tol);
            }
        }
        self.raise_held_radius();
    }

    /// Chains difference `k`'s intervals into the table, over the angles it spans, and
    /// notes whether any was left out for lying beyond the reach (`extend_cover`).
    pub(super) fn add_cover(&mut self, k: u32, tol: f32) {
        if self.cover_complete.len() <= k as usize {
            self.cover_complete.resize(k as usize + 1, false);
        }
        let d = self.diffs[k as usize];
        if d.planes.1 < 3 {
            self.cover_complete[k as usize] = true;
            return;
        }
        let core = run(&self.core, d.core);
        let farthest = core.iter().map(|v| v.length()).fold(0.0, f32::max);
        let shrink = tol + ROUNDING_MARGIN * farthest;
        // The angles where it may raise the table: those its part beyond the table's least
        // distance spans (`angles_beyond`; elsewhere its intervals end below every
        // angle's distance). Only the angles of its part within the reach are visited
        // now (the others when the reach grows, `extend_cover`): the core clipped to the
        // reach's square.
        let reach = self.reach;
        // Complete unless the reach's square cuts its core (more angles may come in
        // with a greater reach) or an angle is skipped below for lying past the reach.
        let mut complete = d.bounds.min.abs().max(d.bounds.max.abs()).max_element() <= reach;
        let mut marks = [0u64; WORDS];
        if complete {
            // Inside the square: nothing to clip.
            angles_beyond(core, self.cover_least, |b| self.cover[b], &mut marks);
        } else {
            let mut clipped = std::mem::take(&mut self.clip_buffer);
            clip_to_square(core, reach, &mut clipped);
            if !clipped.is_empty() {
                angles_beyond(&clipped, self.cover_least, |b| self.cover[b], &mut marks);
            }
            self.clip_buffer = clipped;
        }
        let planes = d.planes;
        for b in marked(marks) {
            // An angle whose distance is past the difference's farthest point (beyond
            // which it holds nothing) learns nothing from it; one whose distance is past
            // the reach, nothing yet.
            let floor = self.cover[b];
            if floor >= farthest {
                continue;
            }
            if floor >= reach {
                complete = false;
                continue;
            }
            let planes = &self.planes[planes.0 as usize..(planes.0 + planes.1) as usize];
            if let Some((lo, hi)) = interval_over_angle(planes, shrink, bin_ends()[b], floor) {
                self.chain(b, lo, hi);
            }
        }
        self.cover_complete[k as usize] = complete;
        // The least distance of the table bounds the held radius from below; finding
        // it reads every angle, so it is found again only every few differences (a held
        // radius a little behind only leaves candidates to be tested).
        if k % HELD_RADIUS_EVERY == 0 {
            self.raise_held_radius();
        }
    }

    /// Raises the held radius to the table's least distance, when an angle at or below
    /// it grew since the last time.
    pub(super) fn raise_held_radius(&mut self) {
        if self.raised_least {
            self.raised_least = false;
            let least = self.cover.iter().copied().fold(f32::INFINITY, f32::min);
            self.cover_least = least;
            self.held_radius = self.held_radius.max(least);
        }
    }

    /// Adds the interval [lo, hi] to angle `b`, chaining the waiting ones it reaches.
    fn chain(&mut self, b: usize, lo: f32, hi: f32) {
        let covered = &mut self.cover[b];
        if hi <= *covered {
            return;
        }
        // The least distance of the table (which the held radius follows) can only grow
        // when an angle at or below the held radius grows.
        self.raised_least |= *covered <= self.held_radius.max(0.0);
        let pending = &mut self.cover_pending[b];
        if lo > *covered {
            // Distances are not negative: their bits sort as they do.
            pending.push(Reverse((lo.to_bits(), hi.to_bits())));
            return;
        }
        let old = *covered;
        *covered = hi;
        while let Some(&Reverse((l, h))) = pending.peek() {
            if f32::from_bits(l) > *covered {
                break;
            }
            pending.pop();
            *covered = covered.max(f32::from_bits(h));
        }
        // The group's least distance grows only when its least angle grows.
        let g = b / GROUP;
        if self.cover_groups[g] == old {
            let angles = &self.cover[g * GROUP..(g + 1) * GROUP];
            self.cover_groups[g] = angles.iter().copied().fold(f32::INFINITY, f32::min);
        }
    }

    /// Does the table say `p` is held?
    pub(super) fn covers(&self, p: Vec2) -> bool {
        !self.cover.is_empty() && p.length() < self.cover[bin_of(p)]
    }

    /// The table's distance for points computed near angle `b`: the least of it and its
    /// neighbours', since a point of an edge found in one angle may, by rounding, lie in
    /// the next.
    fn cover_near(&self, b: usize) -> f32 {
        let c = &self.cover;
        c[b].min(c[(b + 1) % BINS]).min(c[(b + BINS - 1) % BINS])
    }

    /// The stretch [lo, hi] of edge p0–p1 (parameters, 0 at p0) around its point at
    /// `t_near` (nearest the origin) that the table says is held, or [`NOTHING_HELD`]:
    /// from that point outward, angle by angle, as long as the edge's part in the angle
    /// is nearer than the angle's distance (the distance from the origin grows away from
    /// the nearest point, so a part's farthest point is its end).
    pub(super) fn covered_stretch(&self, p0: Vec2, p1: Vec2, t_near: f32) -> (f32, f32) {
        if self.cover.is_empty() {
            return NOTHING_HELD;
        }
        let r = p1 - p0;
        let (spin, len2) = (cross(p0, r), r.length_squared());
        let near = p0 + r * t_near;
        let limit = NEAR_ORIGIN * p0.length().max(p1.length());
        if spin == 0.0 || len2 <= 0.0 || near.length() < limit {
            return NOTHING_HELD;
        }
        let b0 = bin_of(near);
        if near.length() >= self.cover_near(b0) {
            return NOTHING_HELD;
        }
        let half_b = p0.dot(r);
        let c0 = p0.length_squared();
        // Where the edge is `radius` from the origin, on the side of the nearest point
        // given by `sign` (+1 above it, −1 below).
        let at_distance = |radius: f32, sign: f32| {
            let disc = half_b * half_b - len2 * (c0 - radius * radius);
            (-half_b + sign * disc.max(0.0).sqrt()) / len2
        };
        let mut ends = [t_near; 2];
        for (side, sign) in [(0usize, 1.0f32), (1, -1.0)] {
            // The order the angles come in as t moves this way.
            let forward = (spin > 0.0) == (sign > 0.0);
            let mut b = b0;
            let mut t = t_near;
            for _ in 0..BINS {
                // A whole group of angles at once, when the walk enters one at its
                // first angle and the edge's farthest point in it (where it leaves it)
                // is nearer than every angle's distance there and beside it: the
                // angle-by-angle walk would go through it to the same border.
                if b % GROUP == if forward { 0 } else { GROUP - 1 } {
                    let g = b / GROUP;
                    let exit = if forward { (b + GROUP) % BINS } else { b + 1 - GROUP };
                    let border = borders()[exit];
                    let denom = cross(border, r);
                    let cut = -cross(border, p0) / denom;
                    let crosses = denom != 0.0 && (cut - t) * sign > 0.0 && border.dot(p0 + r * cut) > 0.0;
                    let end = match (sign > 0.0, crosses) {
                        (true, true) => cut.min(1.0),
                        (true, false) => 1.0,
                        (false, true) => cut.max(0.0),
                        (false, false) => 0.0,
                    };
                    let c = &self.cover;
                    let (before, after) = (c[(g * GROUP + BINS - 1) % BINS], c[(g * GROUP + GROUP) % BINS]);
                    let radius = self.cover_groups[g].min(before).min(after);
                    if (p0 + r * end).length() < radius {
                        t = end;
                        if end <= 0.0 || end >= 1.0 {
                            break;
                        }
                        b = if forward {
                            (b + GROUP) % BINS
                        } else {
                            (b + BINS - GROUP) % BINS
                        };
                        continue;
                    }
                }
                // The border left going this way, and where the edge's line crosses it.
                let border = borders()[if forward { (b + 1) % BINS } else { b }];
                let denom = cross(border, r);
                let cut = -cross(border, p0) / denom;
                let crosses = denom != 0.0 && (cut - t) * sign > 0.0 && border.dot(p0 + r * cut) > 0.0;
                let end = if sign > 0.0 {
                    if crosses {
                        cut.min(1.0)
                    } else {
                        1.0
                    }
                } else if crosses {
                    cut.max(0.0)
                } else {
                    0.0
                };
                let radius = self.cover_near(b);
                let point = p0 + r * end;
                if point.length() >= radius {
                    // Held up to where the edge reaches the angle's distance (a hair
                    // short of it), and no further.
                    let cut_short = at_distance(radius * (1.0 - ROUNDING_MARGIN), sign);
                    if (cut_short - t) * sign > 0.0 && (end - cut_short) * sign >= 0.0 {
                        t = cut_short;
                    }
                    break;
                }
                t = end;
                if end <= 0.0 || end >= 1.0 {
                    break;
                }
                b = if forward { (b + 1) % BINS } else { (b + BINS - 1) % BINS };
            }
            ends[side] = t;
        }
        let (lo, hi) = (ends[1], ends[0]);
        if lo < hi {
            (lo, hi)
        } else {
            NOTHING_HELD
        }
    }
}
