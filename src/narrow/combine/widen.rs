//! Growing the combine step's reach (see `search.rs`): when the search has found no
//! answer within the reach, it doubles, and the grids and the crossings that were left
//! out for lying beyond the old reach are brought up to the new one. Split from
//! `search.rs`, which owns the order of the search.

use super::*;

/// The differences' grid splits the reach's square into this many cells a side: long
/// thin differences near the origin (the needles of two stars' tips) are listed only in
/// the cells along them (`list_difference`), so finer cells than the elements' grid
/// (4 a side, `grid_cell`) split them. Measured on two 3000-vertex stars at a 1 cm
/// overlap (`examples/big_query_workload.rs`, the slowest pose): at 16 a side the
/// differences asked per held point fell from 190 to 32, and the query from 47 to 36 ms;
/// but listing each difference in up to 289 cells cost two 10,000-vertex combs a third
/// of their query, and 8 a side keeps most of the gain at a quarter of that. Below
/// `radial::RADIAL_MIN_DIFFERENCES` open differences the grid lists boxes in the
/// elements' cells, as before: on the small polygons of `examples/combine_profile.rs`
/// the finer listing more than doubled the query's instructions.
const DIFF_CELLS_ACROSS_REACH: f32 = 8.0;

impl CombineScratch {
    /// Lists difference `k` in the differences' grid, in the cells of its box within the
    /// reach's square that no side of its core, moved out by its radius and a rounding
    /// margin, leaves wholly outside: a point a difference holds is inside every side
    /// moved out by its radius (`strictly_inside` asks for more), so the grid still
    /// returns every difference that may hold a point.
    pub(super) fn list_difference(&mut self, k: u32) {
        let d = self.diffs[k as usize];
        let bounds = within(&d.bounds, self.reach);
        if !self.diff_grid_fine {
            // Few differences: their boxes, as for the elements.
            self.diff_grid.insert(k, &bounds);
            return;
        }
        let planes = &self.planes[d.planes.0 as usize..(d.planes.0 + d.planes.1) as usize];
        let margin = 1e-5 * d.bounds.min.abs().max(d.bounds.max.abs()).max_element();
        let across = DIFF_CELLS_ACROSS_REACH as i64 + 1;
        self.diff_grid.insert_where(k, &bounds, across * across, |cell| {
            planes.iter().all(|&(normal, offset)| {
                // The cell's corner least far along the normal.
                let corner = Vec2::new(
                    if normal.x >= 0.0 { cell.min.x } else { cell.max.x },
                    if normal.y >= 0.0 { cell.min.y } else { cell.max.y },
                );
                normal.dot(corner) - offset <= d.radius + margin
            })
        });
    }

    /// The reach has grown from `old` to `self.reach`: lists the open differences and
    /// active elements in grids for the new square, and queues the crossings of active
    /// elements that lie in the new ring (old, reach] — those `activate` left out.
    pub(super) fn widen_grids(&mut self, old: f32) {
        let reach = self.reach;
        for k in 0..self.active.len() {
            let e = self.active[k];
            let live = if self.walks() {
                self.live_box(e)
            } else {
                Some(self.elements[e as usize].bounds)
            };
            self.live[e as usize] = live;
        }
        if self.grids_on {
            self.fill_grids();
        }
        let mut near = std::mem::take(&mut self.near);
        for k in 0..self.active.len() {
            let e = self.active[k];
            let element = self.elements[e as usize];
            let Some(mine) = self.live[e as usize] else {
                continue;
            };
            let from_grid = self.grids_on && self.element_grid.near(&within(&mine, reach), &mut near);
            let others: &[u32] = if from_grid { &near } else { &self.active };
            for &o in others {
                // Each pair once, as `activate` took it: the newer element against the
                // one activated before it.
                let other = self.elements[o as usize];
                let Some(theirs) = self.live[o as usize] else {
                    continue;
                };
                if self.active_at[o as usize] >= k as u32 || other.diff == element.diff || !mine.overlaps(&theirs) {
                    continue;
                }
                let mut found = [Vec2::ZERO; 2];
                let count = crossings(&element.feature, &other.feature, &mut found);
                for &p in &found[..count] {
                    let distance = p.length();
                    if distance <= old || distance > reach {
                        continue;
                    }
                    if self.on_held_stretch(e, p) || self.on_held_stretch(o, p) {
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
                        &self.cover,
                        c,
                    );
                }
            }
        }
        self.near = near;
    }

    /// Lists the open differences and the active elements' live parts in the grids, for
    /// the square of the current reach: when the grids come into use, and when the
    /// reach grows.
    pub(super) fn fill_grids(&mut self) {
        let reach = self.reach;
        self.diff_grid_fine = self.diffs.len() >= super::radial::RADIAL_MIN_DIFFERENCES;
        self.diff_grid.reset(if self.diff_grid_fine {
            DIFF_CELLS_ACROSS_REACH.recip() * 2.0 * reach
        } else {
            grid_cell(reach)
        });
        for k in 0..self.diffs.len() {
            self.list_difference(k as u32);
        }
        self.element_grid.reset(grid_cell(reach));
        for &e in &self.active {
            if let Some(b) = self.live[e as usize] {
                self.element_grid.insert(e, &within(&b, reach));
            }
        }
    }
}
