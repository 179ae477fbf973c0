//! The plane sweep shared by the simple-polygon check (`validate.rs`, Shamos–Hoey) and
//! the monotone partition (`monotone.rs`, de Berg et al. ch. 3): the event order and the
//! sweep-line status, an ordered set of segments kept in a treap.
//!
//! # Event order
//!
//! The line sweeps top to bottom; points on one horizontal line are met west to east
//! (de Berg, van Kreveld, Overmars, Schwarzkopf, "Computational Geometry", 3rd ed.,
//! §3.2: "if two points have the same y-coordinate, the one with smaller x-coordinate is
//! higher"). That is the order of a line turned by an infinitesimal angle, so a polygon
//! with horizontal edges (combs, grids) is swept as if it had none, and every
//! orientation test — exact ([`super::predicates::orient`]) and invariant under turns —
//! answers as it would for the turned line.
//!
//! # Status
//!
//! The segments cut by the sweep line, west to east. Each is directed down the sweep
//! (upper end point first), so a point is east of a segment exactly when it is left of
//! it: `orient(upper, lower, p) > 0`. The caller keeps the segments and says, for one
//! member at a time, whether it lies west of the place asked about; the treap (random
//! priorities fixed by the item's index, so runs are repeatable) keeps that O(log n)
//! expected per operation (C. R. Aragon, R. Seidel, "Randomized search trees", FOCS 1989).

use super::predicates::orient;
use crate::math::Vec2;
use std::cmp::Ordering;

/// True when `a` comes before `b` in the sweep: higher, or as high and further west.
#[inline]
pub(crate) fn above(a: Vec2, b: Vec2) -> bool {
    a.y > b.y || (a.y == b.y && a.x < b.x)
}

/// Indices of `points` in sweep order (equal points stay next to each other).
pub(crate) fn sweep_order(points: &[Vec2]) -> Vec<u32> {
    let mut order: Vec<u32> = (0..points.len() as u32).collect();
    // `partial_cmp` (not `total_cmp`): -0.0 and 0.0 are one coordinate, as in `above`.
    // Points are finite here (validation checks that first).
    order.sort_unstable_by(|&i, &j| {
        let (a, b) = (points[i as usize], points[j as usize]);
        b.y.partial_cmp(&a.y)
            .unwrap_or(Ordering::Equal)
            .then(a.x.partial_cmp(&b.x).unwrap_or(Ordering::Equal))
    });
    order
}

/// A segment directed down the sweep: `upper` comes before `lower`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct SweepSegment {
    pub upper: Vec2,
    pub lower: Vec2,
}

impl SweepSegment {
    /// The segment between `a` and `b`, directed down the sweep.
    pub fn new(a: Vec2, b: Vec2) -> Self {
        if above(a, b) {
            SweepSegment { upper: a, lower: b }
        } else {
            SweepSegment { upper: b, lower: a }
        }
    }

    /// Side of `p` (a point the sweep line through it cuts this segment at): `1` east,
    /// `-1` west, `0` on the segment's line.
    #[inline]
    pub fn side_of(&self, p: Vec2) -> i8 {
        orient(self.upper, self.lower, p)
    }
}

/// West-to-east order of two segments that the sweep line cuts at once, which touch
/// nowhere except possibly at a common upper end point: the segment that starts later
/// is placed by its upper end point against the other (by its lower end point when the
/// upper ones are the same). Exact. `None` when that point lies on the other's line —
/// then the two touch (the point is inside the other's sweep range), which a caller that
/// checked each segment as it entered the status never meets.
pub(crate) fn compare_segments(s: &SweepSegment, t: &SweepSegment) -> Option<Ordering> {
    let east_of = |side: i8| match side {
        1 => Some(Ordering::Less),
        -1 => Some(Ordering::Greater),
        _ => None,
    };
    if s.upper == t.upper {
        east_of(s.side_of(t.lower))
    } else if above(s.upper, t.upper) {
        east_of(s.side_of(t.upper))
    } else {
        east_of(t.side_of(s.upper)).map(Ordering::reverse)
    }
}

const NIL: u32 = u32::MAX;

/// The sweep-line status: items (the caller's segment indices, below `capacity`) in
/// west-to-east order. The order lives in the caller's answers to "is this member west
/// of the place asked about?", which must be true on a prefix of the members.
pub(crate) struct SweepStatus {
    left: Vec<u32>,
    right: Vec<u32>,
    priority: Vec<u32>,
    root: u32,
    len: usize,
}

impl SweepStatus {
    /// An empty status for items `0..capacity`.
    pub fn new(capacity: usize) -> Self {
        let priority = (0..capacity as u64)
            .map(|i| {
                // SplitMix64's finaliser: a fixed pseudo-random priority per item.
                let mut z = i.wrapping_add(1).wrapping_mul(0x9e37_79b9_7f4a_7c15);
                z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
                z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
                (z ^ (z >> 31)) as u32
            })
            .collect();
        SweepStatus {
            left: vec![NIL; capacity],
            right: vec![NIL; capacity],
            priority,
            root: NIL,
            len: 0,
        }
    }

    /// Number of items in the status.
    #[cfg(test)]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Inserts `item` after every member for which `west` is true (and before the
    /// others); returns its new west and east neighbours.
    pub fn insert(&mut self, item: u32, mut west: impl FnMut(u32) -> bool) -> (Option<u32>, Option<u32>) {
        let (l, r) = self.split(self.root, &mut west);
        let neighbours = (self.last(l), self.first(r));
        self.left[item as usize] = NIL;
        self.right[item as usize] = NIL;
        let l = self.merge(l, item);
        self.root = self.merge(l, r);
        self.len += 1;
        neighbours
    }

    /// Removes `item`, given `west`: true exactly for the members west of `item`. Returns
    /// the two members that are now neighbours, or `None` when `item` was not where
    /// `west` said (the caller's order is inconsistent; the status is left unchanged).
    pub fn remove(&mut self, item: u32, mut west: impl FnMut(u32) -> bool) -> Option<(Option<u32>, Option<u32>)> {
        let (l, r) = self.split(self.root, &mut west);
        let (first, rest) = self.split_first(r);
        if first != item {
            let r = self.merge(first, rest);
            self.root = self.merge(l, r);
            return None;
        }
        let neighbours = (self.last(l), self.first(rest));
        self.root = self.merge(l, rest);
        self.len -= 1;
        Some(neighbours)
    }

    /// The last member for which `west` is true (the segment directly west of a point).
    pub fn last_west(&self, mut west: impl FnMut(u32) -> bool) -> Option<u32> {
        let mut t = self.root;
        let mut best = None;
        while t != NIL {
            if west(t) {
                best = Some(t);
                t = self.right[t as usize];
            } else {
                t = self.left[t as usize];
            }
        }
        best
    }

    /// Splits the treap `t` into the members for which `west` holds and the rest.
    fn split(&mut self, t: u32, west: &mut dyn FnMut(u32) -> bool) -> (u32, u32) {
        if t == NIL {
            return (NIL, NIL);
        }
        let i = t as usize;
        if west(t) {
            let (l, r) = self.split(self.right[i], west);
            self.right[i] = l;
            (t, r)
        } else {
            let (l, r) = self.split(self.left[i], west);
            self.left[i] = r;
            (l, t)
        }
    }

    /// Splits off the first member of `t`: (first, rest), first NIL when `t` is empty.
    fn split_first(&mut self, t: u32) -> (u32, u32) {
        if t == NIL {
            return (NIL, NIL);
        }
        let i = t as usize;
        if self.left[i] == NIL {
            let rest = self.right[i];
            self.right[i] = NIL;
            return (t, rest);
        }
        let (first, rest) = self.split_first(self.left[i]);
        self.left[i] = rest;
        (first, t)
    }

    /// Joins two treaps, every member of `a` west of every member of `b`.
    fn merge(&mut self, a: u32, b: u32) -> u32 {
        if a == NIL {
            return b;
        }
        if b == NIL {
            return a;
        }
        if self.priority[a as usize] > self.priority[b as usize] {
            let r = self.merge(self.right[a as usize], b);
            self.right[a as usize] = r;
            a
        } else {
            let l = self.merge(a, self.left[b as usize]);
            self.left[b as usize] = l;
            b
        }
    }

    fn first(&self, mut t: u32) -> Option<u32> {
        if t == NIL {
            return None;
        }
        while self.left[t as usize] != NIL {
            t = self.left[t as usize];
        }
        Some(t)
    }

    fn last(&self, mut t: u32) -> Option<u32> {
        if t == NIL {
            return None;
        }
        while self.right[t as usize] != NIL {
            t = self.right[t as usize];
        }
        Some(t)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Integers as stand-ins for segments: the status must keep them sorted through
    /// inserts and removes in any order.
    #[test]
    fn status_keeps_order_and_reports_neighbours() {
        let mut status = SweepStatus::new(100);
        let mut model: Vec<u32> = Vec::new();
        let mut rng = crate::geometry::families::SplitMix64::new(7);
        for step in 0..2000 {
            let item = (rng.next_u64() % 100) as u32;
            if let Some(pos) = model.iter().position(|&m| m == item) {
                let got = status.remove(item, |m| m < item).expect("present");
                let want = (pos.checked_sub(1).map(|p| model[p]), model.get(pos + 1).copied());
                model.remove(pos);
                assert_eq!(got, want, "remove {item} at step {step}");
            } else {
                let pos = model.partition_point(|&m| m < item);
                let got = status.insert(item, |m| m < item);
                let want = (pos.checked_sub(1).map(|p| model[p]), model.get(pos).copied());
                model.insert(pos, item);
                assert_eq!(got, want, "insert {item} at step {step}");
            }
            assert_eq!(status.len(), model.len());
            let probe = (rng.next_u64() % 101) as u32;
            assert_eq!(
                status.last_west(|m| m < probe),
                model.iter().rev().find(|&&m| m < probe).copied()
            );
        }
    }

    //   a          two segments from one upper point: the one whose lower end is
    //  / \         further west comes first
    // b   c
    #[test]
    fn segments_from_one_point_are_ordered_by_their_lower_ends() {
        let a = Vec2::new(0., 1.);
        let s = SweepSegment::new(a, Vec2::new(-1., 0.));
        let t = SweepSegment::new(a, Vec2::new(1., 0.));
        assert_eq!(compare_segments(&s, &t), Some(Ordering::Less));
        assert_eq!(compare_segments(&t, &s), Some(Ordering::Greater));
        // A horizontal segment starts at its west end.
        let h = SweepSegment::new(Vec2::new(2., 0.), Vec2::new(-2., 0.));
        assert_eq!(h.upper, Vec2::new(-2., 0.));
        let touching = SweepSegment::new(Vec2::new(0., 0.), Vec2::new(0., -1.));
        assert_eq!(compare_segments(&h, &touching), None);
    }
}
