//! Sweep and prune (Chulanov 2016; Baraff's "sort and sweep", Cohen et al.'s I-COLLIDE, 1995)
//! along x.
//!
//! ```text
//! keep intervals [min_x, max_x] sorted by min_x       (insertion sort, every step)
//! for i in 0..n:
//!     for j in i+1..n while min_x[j] <= max_x[i]:      (x intervals overlap)
//!         test the two boxes; report if they overlap
//! ```
//!
//! Why insertion sort: bodies move little between steps, so last step's order is almost
//! right and insertion sort fixes it in O(N + swaps), where a general sort would pay
//! O(N log N) every step. The swap count is reported: it is the price of coherence and
//! explodes when many bodies pass each other in x (a pile falling in a column sorts fast;
//! a row of bodies sliding through another row does not).
//!
//! Why only x: a second sorted axis would prune more pairs but doubles the sorting; with
//! the y test done on the few x-overlapping pairs the sweep stays simple. Its weak case
//! is many boxes sharing an x range (a tall stack, a wide ground): every one of them is
//! walked by the sweep (`sweep_steps` in the stats).

use super::pairs::{finish_pairs, is_usable, push_pair};
use super::{BroadPhaseKind, BroadPhaseStats, Proxy};

/// One proxy's x interval in the sorted order.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SapInterval {
    /// Left end of the box (metres, world frame); `+∞` for an unusable box, which sorts
    /// it last.
    pub min_x: f32,
    /// Right end of the box (metres, world frame); `−∞` for an unusable box.
    pub max_x: f32,
    /// Bottom of the box (metres, world frame). Both y ends are copied here so that the sweep reads
    /// only this array, in order: looked up in the proxies instead, every sweep step
    /// was a jump to another place in memory (a quarter of the broad phase's time on
    /// the 5050-box pyramid, whose columns put ~50 boxes in every x range).
    pub min_y: f32,
    /// Top of the box (metres, world frame).
    pub max_y: f32,
    /// Position of the proxy in the slice given to `update`.
    pub slot: u32,
    /// The proxy's id.
    pub id: u32,
    /// False when the box was skipped (NaN, inverted).
    pub usable: bool,
    /// The proxy cannot move (see [`Proxy`]): two such never make a pair.
    pub is_static: bool,
}

/// What the sweep decided about a later interval `b` while scanning from `a`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SapOutcome {
    /// `b` starts after `a` ends: the scan from `a` stops here.
    Stop,
    /// `b`'s box is unusable (NaN or inverted): skipped.
    Unusable,
    /// Both are static: never a pair.
    BothStatic,
    /// The x intervals overlap and so do the y intervals: a pair.
    Pair,
    /// The x intervals overlap, the y intervals do not.
    ApartInY,
}

/// Watches [`SweepAndPrune::update_recorded`] work: every method has an empty default,
/// and the normal path ([`SweepAndPrune::update`]) passes [`NoSapRecord`], whose calls
/// compile to nothing, so recording costs nothing when no one asks for it. The lessons
/// record with it (`lesson::topic`); it reads, it never steers.
pub trait SapRecorder {
    /// The keys were refreshed from this step's boxes; `intervals` is last step's order
    /// (before sorting). `full_sort` says whether a full sort follows instead of the
    /// insertion sort.
    fn keys_refreshed(&mut self, _intervals: &[SapInterval], _full_sort: bool) {}
    /// The insertion sort moved `moving` one place left, past `passed` (`passed.min_x >
    /// moving.min_x`).
    fn swap(&mut self, _moving: &SapInterval, _passed: &SapInterval) {}
    /// The order is final; the sweep starts.
    fn sorted(&mut self, _intervals: &[SapInterval]) {}
    /// The sweep from `a` reached `b` and decided `outcome`.
    fn compare(&mut self, _a: &SapInterval, _b: &SapInterval, _outcome: SapOutcome) {}
}

/// The recorder that records nothing (the normal path).
#[derive(Clone, Copy, Debug, Default)]
pub struct NoSapRecord;

impl SapRecorder for NoSapRecord {}

/// Sweep and prune with a persistent, insertion-sorted interval list.
#[derive(Clone, Debug, Default)]
pub struct SweepAndPrune {
    /// State: the intervals, sorted by `min_x`, one per proxy.
    intervals: Vec<SapInterval>,
}

/// When more than this fraction of the proxies are new, insertion sort would move each
/// of them across the whole list (O(N²)); a full sort is cheaper.
const FULL_SORT_NEW_FRACTION: usize = 8;

impl SweepAndPrune {
    /// Forgets the order; the next update sorts from scratch.
    pub fn clear(&mut self) {
        self.intervals.clear();
    }

    /// The intervals in sorted order (after the last update), for drawing.
    pub fn intervals(&self) -> &[SapInterval] {
        &self.intervals
    }

    /// Re-sorts the intervals of `proxies` and sweeps; `out` gets the overlapping pairs,
    /// sorted.
    pub fn update(&mut self, proxies: &[Proxy], out: &mut Vec<(u32, u32)>) -> BroadPhaseStats {
        self.update_recorded(proxies, out, &mut NoSapRecord)
    }

    /// [`Self::update`], telling `recorder` every swap of the sort and every comparison
    /// of the sweep (what the sweep-and-prune lesson replays).
    #[inline]
    pub fn update_recorded<R: SapRecorder>(
        &mut self,
        proxies: &[Proxy],
        out: &mut Vec<(u32, u32)>,
        recorder: &mut R,
    ) -> BroadPhaseStats {
        out.clear();
        let mut stats = BroadPhaseStats {
            kind: BroadPhaseKind::SweepAndPrune,
            proxies: proxies.len(),
            ..BroadPhaseStats::default()
        };
        let full_sort = self.resync(proxies.len());
        // Refresh every key from this step's boxes.
        for iv in &mut self.intervals {
            let p = &proxies[iv.slot as usize];
            iv.id = p.id;
            iv.usable = is_usable(&p.aabb);
            iv.is_static = p.is_static;
            (iv.min_y, iv.max_y) = (p.aabb.min.y, p.aabb.max.y);
            (iv.min_x, iv.max_x) = if iv.usable {
                (p.aabb.min.x, p.aabb.max.x)
            } else {
                (f32::INFINITY, f32::NEG_INFINITY)
            };
        }
        recorder.keys_refreshed(&self.intervals, full_sort);
        if full_sort {
            // Keys hold no NaN (unusable boxes got ±∞), so total_cmp agrees with `>` up to
            // the sign of zero, which the sweep's `<=` does not care about.
            self.intervals.sort_unstable_by(|a, b| a.min_x.total_cmp(&b.min_x));
            stats.rebuilt = true;
        } else {
            stats.swaps = insertion_sort_recorded(&mut self.intervals, recorder);
        }
        recorder.sorted(&self.intervals);

        for (i, a) in self.intervals.iter().enumerate() {
            if !a.usable {
                // Unusable intervals sort last, but usable boxes lying at x = +∞ sort
                // among them: skip, do not stop.
                continue;
            }
            for b in &self.intervals[i + 1..] {
                if b.min_x > a.max_x {
                    recorder.compare(a, b, SapOutcome::Stop);
                    break; // sorted: no later interval starts before a ends
                }
                stats.sweep_steps += 1;
                if !b.usable {
                    recorder.compare(a, b, SapOutcome::Unusable);
                    continue; // reached only when a.max_x is +∞
                }
                if a.is_static && b.is_static {
                    recorder.compare(a, b, SapOutcome::BothStatic);
                    continue;
                }
                stats.bv_tests += 1;
                // The x intervals overlap: b starts within a (sorted, and the break
                // above), and a usable box has min ≤ max. What `Aabb::overlaps` tests
                // beyond that is y.
                if a.min_y <= b.max_y && b.min_y <= a.max_y {
                    recorder.compare(a, b, SapOutcome::Pair);
                    push_pair(out, a.id, b.id);
                } else {
                    recorder.compare(a, b, SapOutcome::ApartInY);
                }
            }
        }
        finish_pairs(out);
        stats.pairs = out.len();
        stats
    }

    /// Makes the interval list hold exactly the slots `0..n`, keeping the order of the
    /// slots that remain. Returns true when a full sort is needed.
    fn resync(&mut self, n: usize) -> bool {
        let old = self.intervals.len();
        if old == n {
            return false;
        }
        if old == 0 || n == 0 {
            self.intervals.clear();
        } else if n < old {
            self.intervals.retain(|iv| (iv.slot as usize) < n);
        }
        let kept = self.intervals.len();
        // Slots are always 0..len, so the new ones are kept..n.
        self.intervals.extend((kept..n).map(|slot| SapInterval {
            min_x: f32::INFINITY,
            max_x: f32::NEG_INFINITY,
            min_y: f32::INFINITY,
            max_y: f32::NEG_INFINITY,
            slot: slot as u32,
            id: 0,
            usable: false,
            is_static: false,
        }));
        kept == 0 || (n - kept) * FULL_SORT_NEW_FRACTION > n
    }
}

/// The insertion sort without a recorder, for the tests.
#[cfg(test)]
pub(crate) fn insertion_sort_by_min_x(intervals: &mut [SapInterval]) -> u64 {
    insertion_sort_recorded(intervals, &mut NoSapRecord)
}

/// Sorts by `min_x` with adjacent moves, returning how many moves it made; O(N + swaps).
/// Stable, so equal keys keep last step's order. `recorder` hears of every move.
#[inline]
fn insertion_sort_recorded<R: SapRecorder>(intervals: &mut [SapInterval], recorder: &mut R) -> u64 {
    let mut swaps = 0u64;
    for i in 1..intervals.len() {
        let moving = intervals[i];
        let mut k = i;
        while k > 0 && intervals[k - 1].min_x > moving.min_x {
            recorder.swap(&moving, &intervals[k - 1]);
            intervals[k] = intervals[k - 1];
            k -= 1;
        }
        swaps += (i - k) as u64;
        intervals[k] = moving;
    }
    swaps
}

#[cfg(test)]
mod tests {
    use super::*;

    fn iv(min_x: f32, slot: u32) -> SapInterval {
        SapInterval {
            min_x,
            max_x: min_x + 1.0,
            min_y: 0.0,
            max_y: 1.0,
            slot,
            id: slot,
            usable: true,
            is_static: false,
        }
    }

    #[test]
    fn a_recorded_update_answers_as_the_plain_one_and_hears_every_swap() {
        use crate::bounds::Aabb;
        use crate::math::Vec2;
        #[derive(Default)]
        struct Count {
            swaps: u64,
            compares: u64,
            pairs: u64,
        }
        impl SapRecorder for Count {
            fn swap(&mut self, moving: &SapInterval, passed: &SapInterval) {
                assert!(passed.min_x > moving.min_x);
                self.swaps += 1;
            }
            fn compare(&mut self, _a: &SapInterval, _b: &SapInterval, outcome: SapOutcome) {
                self.compares += 1;
                self.pairs += u64::from(outcome == SapOutcome::Pair);
            }
        }
        let boxes = |shift: f32| -> Vec<Proxy> {
            (0..6)
                .map(|i| {
                    // Odd boxes run left, even ones right: they pass each other.
                    let x = i as f32 + if i % 2 == 0 { shift } else { -shift };
                    let min = Vec2::new(x, 0.1 * i as f32);
                    Proxy::new(i, Aabb::new(min, min + Vec2::splat(1.2)), false)
                })
                .collect()
        };
        let (mut plain, mut recorded) = (SweepAndPrune::default(), SweepAndPrune::default());
        for shift in [0.0, 0.7, 1.6] {
            let (mut a, mut b) = (Vec::new(), Vec::new());
            let mut count = Count::default();
            let s = plain.update(&boxes(shift), &mut a);
            let r = recorded.update_recorded(&boxes(shift), &mut b, &mut count);
            assert_eq!((a.clone(), s.swaps, s.bv_tests), (b, r.swaps, r.bv_tests));
            assert_eq!(count.swaps, r.swaps);
            assert_eq!(count.pairs, a.len() as u64);
            assert!(count.compares >= r.sweep_steps);
        }
    }

    #[test]
    fn insertion_sort_counts_adjacent_swaps() {
        // 3 1 2 -> 1 2 3: "1" passes "3" (1 swap), "2" passes "3" (1 swap).
        let mut v = vec![iv(3.0, 0), iv(1.0, 1), iv(2.0, 2)];
        assert_eq!(insertion_sort_by_min_x(&mut v), 2);
        assert_eq!(v.iter().map(|i| i.slot).collect::<Vec<_>>(), [1, 2, 0]);
        // Sorted input: no swaps. Reversed input of n: n(n-1)/2 swaps (the inversions).
        assert_eq!(insertion_sort_by_min_x(&mut v), 0);
        let mut r: Vec<_> = (0..10).map(|i| iv(10.0 - i as f32, i)).collect();
        assert_eq!(insertion_sort_by_min_x(&mut r), 45);
        // Equal keys keep their order (stable).
        let mut e = vec![iv(1.0, 0), iv(1.0, 1), iv(0.0, 2)];
        assert_eq!(insertion_sort_by_min_x(&mut e), 2);
        assert_eq!(e.iter().map(|i| i.slot).collect::<Vec<_>>(), [2, 0, 1]);
    }
}
