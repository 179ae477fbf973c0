//! A hashed uniform grid of boxes: which of the items inserted so far may overlap a
//! box, or hold a point, without asking every item.
//!
//! The combine step (`combine.rs`) asks two such questions again and again as its
//! search grows: which open differences may hold a candidate point, and which active
//! edges may cross a new one. Between two polygons of 10,000 vertices it holds thousands
//! of each near the origin, and a scan of all of them per question made the search
//! quadratic. Items arrive one at a time and are never removed, so a static tree does
//! not fit; a uniform grid does (the "spatial hashing" of Teschner et al., "Optimized
//! spatial hashing for collision detection of deformable objects", VMV 2003): each item
//! is listed in the cells its box covers, cells are hashed into a fixed table of buckets
//! (a collision only lists an item in a bucket it does not need, never the reverse), and
//! an item covering more than [`MAX_CELLS`] cells goes to one list that every question
//! reads — long thin differences (the wedges of a star against a box) would otherwise
//! fill the table, and then no grid would help anyway.
//!
//! Questions return candidates only: callers test the boxes (and the exact shapes)
//! themselves, so the grid can only make work, never change an answer. Buffers are kept
//! between queries and nothing is allocated in steady state.

use crate::bounds::Aabb;

/// Buckets of the hash table (a power of two).
const BUCKETS: usize = 1024;

/// Items whose box covers more cells than this go to the list every question reads.
pub(super) const MAX_CELLS: i64 = 16;

/// See the module docs.
#[derive(Default)]
pub(super) struct BoxGrid {
    /// Cell side (metres); 0 or less: no grid, every item is in `wide`.
    cell: f32,
    buckets: Vec<Vec<u32>>,
    /// Buckets holding something, to clear them quickly.
    used: Vec<u32>,
    /// Items covering more than [`MAX_CELLS`] cells (or any, without a grid).
    wide: Vec<u32>,
    /// Per item, the question that last returned it (so each is returned once).
    seen: Vec<u32>,
    question: u32,
    /// Items inserted.
    inserted: usize,
}

impl BoxGrid {
    /// Empties the grid and sets its cell side (metres).
    pub(super) fn reset(&mut self, cell: f32) {
        for &b in &self.used {
            self.buckets[b as usize].clear();
        }
        self.used.clear();
        self.wide.clear();
        self.seen.clear();
        self.question = 0;
        self.inserted = 0;
        self.cell = if cell.is_finite() { cell } else { 0.0 };
        if self.buckets.len() != BUCKETS {
            self.buckets = vec![Vec::new(); BUCKETS];
        }
    }

    /// The range of cells a box covers, or `None` when it covers too many (or there is
    /// no grid, or the box is not finite).
    fn cells(&self, b: &Aabb) -> Option<(i64, i64, i64, i64)> {
        self.cells_up_to(b, MAX_CELLS)
    }

    /// [`Self::cells`] with another limit on the count.
    fn cells_up_to(&self, b: &Aabb, max_cells: i64) -> Option<(i64, i64, i64, i64)> {
        if self.cell <= 0.0 {
            return None;
        }
        let inv = 1.0 / self.cell;
        let (x0, y0) = ((b.min.x * inv).floor(), (b.min.y * inv).floor());
        let (x1, y1) = ((b.max.x * inv).floor(), (b.max.y * inv).floor());
        // Far from the grid's scale (or NaN) the float-to-int casts would saturate.
        if !(x0.abs() < 1e9 && y0.abs() < 1e9 && x1.abs() < 1e9 && y1.abs() < 1e9) {
            return None;
        }
        let (x0, y0, x1, y1) = (x0 as i64, y0 as i64, x1 as i64, y1 as i64);
        ((x1 - x0 + 1) * (y1 - y0 + 1) <= max_cells).then_some((x0, y0, x1, y1))
    }

    fn bucket(x: i64, y: i64) -> usize {
        // Two large odd multipliers (Teschner et al.'s primes) mixed by xor.
        let h = (x.wrapping_mul(73_856_093) ^ y.wrapping_mul(19_349_663)) as u64;
        (h as usize) & (BUCKETS - 1)
    }

    /// Lists item `id` (ids count up from 0) under its box.
    pub(super) fn insert(&mut self, id: u32, b: &Aabb) {
        if self.seen.len() <= id as usize {
            self.seen.resize(id as usize + 1, 0);
        }
        self.inserted += 1;
        let Some((x0, y0, x1, y1)) = self.cells(b) else {
            self.wide.push(id);
            return;
        };
        for y in y0..=y1 {
            for x in x0..=x1 {
                let k = Self::bucket(x, y);
                let list = &mut self.buckets[k];
                if list.is_empty() {
                    self.used.push(k as u32);
                }
                // The same item twice in a bucket (two of its cells hashed alike) is
                // harmless: `seen` returns it once.
                list.push(id);
            }
        }
    }

    /// Lists item `id` under the cells of its box (up to `max_cells` of them) that
    /// `may_touch` does not rule out, given each cell's box (grown by a thousandth of a
    /// cell, above the rounding of the floor that puts a point in its cell). For long
    /// thin items, whose boxes are mostly empty: a needle across the grid is listed in
    /// the cells along it, not in all of its box's. `may_touch` must be true for every
    /// cell the item overlaps; then the questions still return a superset.
    pub(super) fn insert_where(&mut self, id: u32, b: &Aabb, max_cells: i64, mut may_touch: impl FnMut(&Aabb) -> bool) {
        if self.seen.len() <= id as usize {
            self.seen.resize(id as usize + 1, 0);
        }
        self.inserted += 1;
        let Some((x0, y0, x1, y1)) = self.cells_up_to(b, max_cells) else {
            self.wide.push(id);
            return;
        };
        let (cell, slack) = (self.cell, 1e-3 * self.cell);
        for y in y0..=y1 {
            for x in x0..=x1 {
                let min = crate::math::Vec2::new(x as f32 * cell, y as f32 * cell);
                let cell_box = Aabb::new(min, min + crate::math::Vec2::splat(cell)).inflated(slack);
                if !may_touch(&cell_box) {
                    continue;
                }
                let k = Self::bucket(x, y);
                let list = &mut self.buckets[k];
                if list.is_empty() {
                    self.used.push(k as u32);
                }
                list.push(id);
            }
        }
    }

    /// Writes to `out` (cleared first) every item that may overlap box `b`, once each
    /// (a superset of those whose boxes do, in no particular order), and returns true;
    /// or returns false, writing nothing, when `b` covers too many cells, or when most
    /// items are wide (the long wedges of two stars): then the caller asks every item
    /// itself, which is cheaper than copying them.
    pub(super) fn near(&mut self, b: &Aabb, out: &mut Vec<u32>) -> bool {
        out.clear();
        if 2 * self.wide.len() > self.inserted {
            return false;
        }
        let Some((x0, y0, x1, y1)) = self.cells(b) else {
            return false;
        };
        self.question = self.question.wrapping_add(1);
        if self.question == 0 {
            self.seen.iter_mut().for_each(|s| *s = 0);
            self.question = 1;
        }
        let q = self.question;
        // An item listed in parts (an edge's two live parts, `combine/cover.rs`) may be
        // both wide and in the cells: it is returned once all the same.
        for &id in &self.wide {
            let seen = &mut self.seen[id as usize];
            if *seen != q {
                *seen = q;
                out.push(id);
            }
        }
        for y in y0..=y1 {
            for x in x0..=x1 {
                for &id in &self.buckets[Self::bucket(x, y)] {
                    let seen = &mut self.seen[id as usize];
                    if *seen != q {
                        *seen = q;
                        out.push(id);
                    }
                }
            }
        }
        true
    }
}
