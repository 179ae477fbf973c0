//! Spatial hashing (Chulanov 2016) on a uniform grid, built by sorting.
//!
//! ```text
//! for each box: put (cell, box) in a list for every cell the box covers
//! sort the list by cell                     (boxes of a cell become neighbours)
//! for each cell, for each two boxes in it: test; report the pair only in the cell
//!     that holds the lower-left corner of the two boxes' intersection
//! test the oversized boxes against every box
//! ```
//!
//! A sorted list rather than a hash map: the result and the time are deterministic (no
//! random hasher seed), the memory is two flat buffers reused every step, and the cells
//! come out in one order the app can draw. The grid is rebuilt every step; there is no
//! state to keep coherent, which makes this the broad phase that minds teleports least.
//!
//! Each pair is reported once without a "seen" set: two overlapping boxes share every
//! cell their intersection covers, and exactly one of those holds the intersection's
//! lower-left corner. The corner lies in both boxes, so its cell (computed by the same
//! floor as theirs) is always one both were inserted in.
//!
//! Cell size: Chulanov (2016) notes the grid works best when bodies have similar sizes, and the
//! cell should be about one body: much smaller and every body fills many cells (more
//! entries to sort), much larger and many bodies share a cell (more pairs tested). By
//! default it is the median of the boxes' larger side, recomputed each step. The median,
//! not the mean: one 200 m ground would drag a mean of 0.5 m boxes to metres, and the
//! typical body is what the cell must fit. With it, half the boxes cover at most 2×2 cells.
//!
//! Oversized boxes: a box covering more than `oversize_cells` cells (default 64, e.g. 8×8)
//! is not inserted; it goes to a list tested against every box. A ground of 1 km at
//! 0.5 m cells would otherwise fill thousands of cells every step, and a box with an
//! infinite side infinitely many. An oversized box costs N tests, about what its cells
//! would cost once it covers more than a few dozen. The setting is clamped to
//! [`MAX_OVERSIZE_CELLS`], so no box ever fills more than 4096 cells and the grid's
//! memory stays proportional to the number of boxes.

use super::pairs::{finish_pairs, is_usable, push_pair};
use super::{BroadPhaseKind, BroadPhaseStats, Proxy};
use crate::bounds::Aabb;
use crate::math::Vec2;

/// Default for [`SpatialHash::set_oversize_cells`]: boxes covering more cells go to the
/// oversized list.
pub const DEFAULT_OVERSIZE_CELLS: u32 = 64;

/// The most cells one box may fill, whatever [`SpatialHash::set_oversize_cells`] asks
/// (a 64 × 64 block). It bounds the grid's memory at 16 bytes × 4096 per box: without
/// it a setting of `u32::MAX` would let one box fill gigabytes. A box past it costs N
/// box tests in the oversized list, which beats sorting thousands of entries anyway.
pub const MAX_OVERSIZE_CELLS: u32 = 4096;

/// Cell size used when the boxes give no usable size (all points, or none) (metres).
const FALLBACK_CELL_SIZE: f32 = 1.0;

/// One occupied grid cell, for drawing: it covers
/// `[ix·size, (ix+1)·size] × [iy·size, (iy+1)·size]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GridCell {
    /// Column (x / cell size, rounded down).
    pub ix: i32,
    /// Row (y / cell size, rounded down).
    pub iy: i32,
    /// Boxes inserted in this cell.
    pub count: u32,
}

impl GridCell {
    /// The cell's box (metres, world frame) for a grid of `cell_size`.
    pub fn aabb(&self, cell_size: f32) -> Aabb {
        let min = Vec2::new(self.ix as f32, self.iy as f32) * cell_size;
        Aabb::new(min, min + Vec2::splat(cell_size))
    }
}

/// The uniform-grid broad phase.
#[derive(Clone, Debug)]
pub struct SpatialHash {
    /// Tuning: `None` picks the cell size from the boxes each step.
    cell_size_setting: Option<f32>,
    oversize_cells: u32,
    /// Result of the last update: cell size used, occupied cells, oversized slots.
    cell_size: f32,
    cells: Vec<GridCell>,
    cell_starts: Vec<u32>,
    oversized: Vec<u32>,
    /// Scratch: (cell key, slot) entries, box sizes for the median, per-slot flags.
    entries: Vec<(u64, u32)>,
    sizes: Vec<f32>,
    is_oversized: Vec<bool>,
}

impl Default for SpatialHash {
    fn default() -> Self {
        SpatialHash {
            cell_size_setting: None,
            oversize_cells: DEFAULT_OVERSIZE_CELLS,
            cell_size: FALLBACK_CELL_SIZE,
            cells: Vec::new(),
            cell_starts: Vec::new(),
            oversized: Vec::new(),
            entries: Vec::new(),
            sizes: Vec::new(),
            is_oversized: Vec::new(),
        }
    }
}

impl SpatialHash {
    /// Forgets the last grid (buffers are kept).
    pub fn clear(&mut self) {
        self.cells.clear();
        self.cell_starts.clear();
        self.oversized.clear();
        self.entries.clear();
    }

    /// Fixes the cell size (metres); `None`, a non-finite or a non-positive size means
    /// "automatic" (median box size).
    pub fn set_cell_size(&mut self, cell_size: Option<f32>) {
        self.cell_size_setting = cell_size.filter(|s| s.is_finite() && *s > 0.0);
    }

    /// Boxes covering more than `cells` cells go to the oversized list; clamped to
    /// `1..=`[`MAX_OVERSIZE_CELLS`].
    pub fn set_oversize_cells(&mut self, cells: u32) {
        self.oversize_cells = cells.clamp(1, MAX_OVERSIZE_CELLS);
    }

    /// The cell size of the last update (metres).
    pub fn cell_size(&self) -> f32 {
        self.cell_size
    }

    /// The occupied cells of the last update, for drawing.
    pub fn cells(&self) -> &[GridCell] {
        &self.cells
    }

    /// Positions (in the proxy slice) of the boxes inserted in `cells()[cell_index]`;
    /// empty for an index out of range.
    pub fn cell_slots(&self, cell_index: usize) -> impl Iterator<Item = u32> + '_ {
        let (start, count) = match (self.cell_starts.get(cell_index), self.cells.get(cell_index)) {
            (Some(&start), Some(cell)) => (start as usize, cell.count as usize),
            _ => (0, 0),
        };
        self.entries.iter().skip(start).take(count).map(|e| e.1)
    }

    /// Positions (in the proxy slice) of the boxes in the oversized list at the last
    /// update.
    pub fn oversized(&self) -> &[u32] {
        &self.oversized
    }

    /// Builds the grid of `proxies` and finds the overlapping pairs; `out` gets them,
    /// sorted.
    pub fn update(&mut self, proxies: &[Proxy], out: &mut Vec<(u32, u32)>) -> BroadPhaseStats {
        out.clear();
        let mut stats = BroadPhaseStats {
            kind: BroadPhaseKind::SpatialHash,
            proxies: proxies.len(),
            ..BroadPhaseStats::default()
        };
        self.cell_size = self.cell_size_setting.unwrap_or_else(|| self.median_size(proxies));
        let inv_cell = 1.0 / self.cell_size;

        // Insert every usable box in the cells it covers, or in the oversized list.
        self.entries.clear();
        self.oversized.clear();
        self.is_oversized.clear();
        self.is_oversized.resize(proxies.len(), false);
        for (slot, p) in proxies.iter().enumerate() {
            if !is_usable(&p.aabb) {
                continue;
            }
            let (lo, hi) = (cell_of(p.aabb.min, inv_cell), cell_of(p.aabb.max, inv_cell));
            if covers_more_than(lo, hi, self.oversize_cells) {
                self.oversized.push(slot as u32);
                self.is_oversized[slot] = true;
                continue;
            }
            for ix in lo.0..=hi.0 {
                for iy in lo.1..=hi.1 {
                    self.entries.push((cell_key(ix, iy), slot as u32));
                }
            }
        }
        self.entries.sort_unstable();
        stats.cell_entries = self.entries.len();
        stats.oversized = self.oversized.len();

        // Pairs within each cell.
        self.cells.clear();
        self.cell_starts.clear();
        let mut start = 0;
        while start < self.entries.len() {
            let key = self.entries[start].0;
            let end = start + self.entries[start..].iter().take_while(|e| e.0 == key).count();
            let cell = cell_from_key(key);
            self.cells.push(GridCell {
                ix: cell.0,
                iy: cell.1,
                count: (end - start) as u32,
            });
            self.cell_starts.push(start as u32);
            let run = &self.entries[start..end];
            for (k, &(_, slot_a)) in run.iter().enumerate() {
                let a = &proxies[slot_a as usize];
                for &(_, slot_b) in &run[k + 1..] {
                    let b = &proxies[slot_b as usize];
                    if a.is_static && b.is_static {
                        continue;
                    }
                    stats.bv_tests += 1;
                    if a.aabb.overlaps(&b.aabb) {
                        let corner = a.aabb.min.max(b.aabb.min);
                        if cell_of(corner, inv_cell) == cell {
                            push_pair(out, a.id, b.id);
                        }
                    }
                }
            }
            start = end;
        }
        stats.cells = self.cells.len();

        // Oversized boxes against every box (and each other once).
        for (k, &slot_o) in self.oversized.iter().enumerate() {
            let o = &proxies[slot_o as usize];
            for (slot, p) in proxies.iter().enumerate() {
                if self.is_oversized[slot] || !is_usable(&p.aabb) || (o.is_static && p.is_static) {
                    continue;
                }
                stats.bv_tests += 1;
                if o.aabb.overlaps(&p.aabb) {
                    push_pair(out, o.id, p.id);
                }
            }
            for &slot_p in &self.oversized[k + 1..] {
                let p = &proxies[slot_p as usize];
                if o.is_static && p.is_static {
                    continue;
                }
                stats.bv_tests += 1;
                if o.aabb.overlaps(&p.aabb) {
                    push_pair(out, o.id, p.id);
                }
            }
        }
        finish_pairs(out);
        stats.pairs = out.len();
        stats.cell_size = self.cell_size;
        stats
    }

    /// The median of the usable boxes' larger side (metres), ignoring points and infinite
    /// boxes; [`FALLBACK_CELL_SIZE`] when none remains. O(N) by selection.
    fn median_size(&mut self, proxies: &[Proxy]) -> f32 {
        self.sizes.clear();
        self.sizes
            .extend(proxies.iter().filter(|p| is_usable(&p.aabb)).map(|p| {
                let size = p.aabb.max - p.aabb.min;
                size.x.max(size.y)
            }));
        self.sizes.retain(|s| s.is_finite() && *s > 0.0);
        if self.sizes.is_empty() {
            return FALLBACK_CELL_SIZE;
        }
        let mid = self.sizes.len() / 2;
        let (_, median, _) = self.sizes.select_nth_unstable_by(mid, f32::total_cmp);
        // A subnormal size would give an infinite 1/size; below a micrometre the grid is
        // meaningless anyway.
        median.max(1e-6)
    }
}

/// True when the cells `lo..=hi` (inclusive on both axes) are more than `limit`.
///
/// Each side is compared alone before the product: a box spanning the saturated range
/// on both axes covers 2^32 × 2^32 cells, a product that overflows even `i64` (it
/// wrapped to 0 and sent a 2e9 m circle into the grid to fill every cell, an abort on a
/// 4 GB allocation). With both sides at most `limit` ≤ `u32::MAX`, the product fits a
/// `u64`.
#[inline]
fn covers_more_than(lo: (i32, i32), hi: (i32, i32), limit: u32) -> bool {
    let side = |lo: i32, hi: i32| (i64::from(hi) - i64::from(lo) + 1).max(0) as u64;
    let (w, h) = (side(lo.0, hi.0), side(lo.1, hi.1));
    let limit = u64::from(limit);
    w > limit || h > limit || w * h > limit
}

/// The cell holding `point`. `as` saturates, so points beyond ±2^31 cells land in the
/// border cells instead of wrapping; the exact box test still decides.
#[inline]
fn cell_of(point: Vec2, inv_cell: f32) -> (i32, i32) {
    ((point.x * inv_cell).floor() as i32, (point.y * inv_cell).floor() as i32)
}

#[inline]
fn cell_key(ix: i32, iy: i32) -> u64 {
    ((ix as u32 as u64) << 32) | iy as u32 as u64
}

#[inline]
fn cell_from_key(key: u64) -> (i32, i32) {
    ((key >> 32) as u32 as i32, key as u32 as i32)
}
