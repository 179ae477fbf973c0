//! Growing the combine step's reach (see `search.rs`): when the search has found no
//! answer within the reach, it doubles, and the grids and the crossings that were left
//! out for lying beyond the old reach are brought up to the new one. Split from
//! `search.rs`, which owns the order of the search.

use super::*;

/// The grids' cell side for a reach: the reach's square is 4 × 4 cells, so that what
/// lies near the origin at a shallow contact between finely cut outlines spans a few
/// cells, and what spans the square goes to the list every question reads.
fn grid_cell(reach: f32) -> f32 {
    0.5 * reach
}

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

/// Sub-bands of a ring (`pair_band`), in equal ratios of radius, once the grids are on
/// (`GRID_MIN_DIFFERENCES`). Two 10,000-vertex stars took the same time at 4, 8 or 16;
/// on the small polygons of `examples/combine_profile.rs` (callgrind, plain build)
/// sub-bands from 64 differences on (`WALK_MIN_DIFFERENCES`) cost 3% more instructions
/// (54.67 M against 52.90 M): their rings hold few crossings, and each band reads every
/// active element.
const SUB_BANDS: usize = 8;

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
    ///
    /// Each active edge's held stretch is first walked on into the new reach, from its
    /// ends, with the differences and the coverage table (`coverage.rs`, filled again
    /// for the new reach just before) as they are now: `activate` walked it only as far
    /// as the old reach, and before this an edge's whole part in the new ring was live.
    /// Between two 10,000-vertex stars at a 1 cm overlap thousands of needles cross the
    /// reach's disc, and their parts in the ring met nearly every other's: on the
    /// slowest pose of `examples/big_query_workload.rs` the rings of one query paired
    /// 218 million elements and computed 92 million crossings, 9 million of them in the
    /// rings, nearly all held. With the walk (and the live parts kept apart, and cells
    /// of their size, `parts_cell`) 28 million pairs, 8.9 million crossings computed,
    /// 1.5 million in the rings. The walk only takes in points the per-point test holds
    /// (`held_stretch`), so the crossings it leaves out would only have been found held.
    pub(super) fn widen_grids(&mut self, old: f32, tol: f32) {
        let walks = self.walks();
        for k in 0..self.active.len() {
            let e = self.active[k];
            let element = self.elements[e as usize];
            if walks {
                if let Feature::Edge { p0, p1, .. } = element.feature {
                    let known = self.held[e as usize];
                    let (_, t) = nearest_on_segment(p0, p1);
                    self.held[e as usize] = self.held_stretch(p0, p1, t, tol, known);
                }
            }
            self.live[e as usize] = if walks {
                self.live_parts(e)
            } else {
                [Some(element.bounds), None]
            };
        }
        if self.grids_on {
            self.fill_grids();
        }
        // The new ring's sub-bands: the first one's crossings now, the others' as the
        // search reaches them.
        self.bands.clear();
        let sub_bands = if self.grids_on && walks && self.reach.is_finite() {
            SUB_BANDS
        } else {
            1
        };
        let step = (self.reach / old).powf((sub_bands as f32).recip());
        for k in 0..sub_bands {
            self.bands.push(if k == 0 { old } else { self.bands[k - 1] * step });
        }
        self.bands.push(self.reach);
        for k in 1..sub_bands {
            self.queue(Event::new(self.bands[k], What::Band(k as u32)));
        }
        self.pair_band(0);
    }

    /// Queues the crossings of the active elements in sub-band `k` of the ring the
    /// reach last grew by, at distances in (inner, outer] of its radii: the pairs of
    /// their parts there (only there can two elements cross in it), listed in their own
    /// grid. From then on `activate` queues crossings up to its outer radius only.
    ///
    /// Why sub-bands: the search stops at the answer, often well inside the ring (on
    /// the slowest pose of two 10,000-vertex stars the last ring runs from 6.9 to
    /// 13.8 mm and the answer lies at 9.3 mm), and every crossing beyond it was
    /// computed for nothing. A crossing at distance d in sub-band k of two active
    /// elements is found by this call when both were active by its key (the band's
    /// inner radius, below d), or else by `activate` of the later one, at its own
    /// distance (at most d, and in sub-band k or before: up to the outer radius of the
    /// current sub-band) — and crossings are computed newer element first either way,
    /// so a point on a border comes out the same bits in both and is queued once.
    pub(super) fn pair_band(&mut self, k: usize) {
        let (inner, outer) = (self.bands[k], self.bands[k + 1]);
        self.band_end = outer;
        let walks = self.walks();
        self.ring.resize(self.elements.len(), [None, None]);
        for a in 0..self.active.len() {
            let e = self.active[a];
            self.ring[e as usize] = if walks {
                self.live_parts_between(e, inner, outer)
            } else {
                self.live[e as usize]
            };
        }
        if self.grids_on {
            self.ring_grid.reset(self.parts_cell(&self.ring));
            for a in 0..self.active.len() {
                let e = self.active[a];
                for part in self.ring[e as usize].into_iter().flatten() {
                    self.ring_grid.insert(e, &within(&part, self.reach));
                }
            }
        }
        for a in 0..self.active.len() {
            self.queue_crossings(self.active[a], (inner, outer), true);
        }
    }

    /// Queues the crossings of active element `e` with the active elements activated
    /// before it (`active_at`) of other differences, at distances in (lo, hi]: the pairs
    /// whose live parts (`live_parts`) overlap, found through the elements' grid or
    /// among all active elements. Each pair is taken once, the newer element first, as
    /// `activate` took it, so the crossings computed are the same bit for bit.
    pub(super) fn queue_crossings(&mut self, e: u32, (lo, hi): (f32, f32), in_ring: bool) {
        let element = self.elements[e as usize];
        let parts = if in_ring { &self.ring } else { &self.live };
        let mine = parts[e as usize];
        let before = self.active_at[e as usize];
        let reach = self.reach;
        let mut near = std::mem::take(&mut self.near);
        for part in 0..2 {
            let Some(piece) = mine[part] else {
                // The parts are filled first to last.
                break;
            };
            let grid = if in_ring {
                &mut self.ring_grid
            } else {
                &mut self.element_grid
            };
            let from_grid = self.grids_on && grid.near(&within(&piece, reach), &mut near);
            let others: &[u32] = if from_grid { &near } else { &self.active };
            let parts = if in_ring { &self.ring } else { &self.live };
            for &o in others {
                let other = self.elements[o as usize];
                if self.active_at[o as usize] >= before || other.diff == element.diff {
                    continue;
                }
                let theirs = parts[o as usize];
                let meets = |b: &Aabb| theirs.iter().flatten().any(|t| b.overlaps(t));
                // A pair whose first parts meet was taken with the first part.
                if !meets(&piece) || (part == 1 && mine[0].as_ref().is_some_and(meets)) {
                    continue;
                }
                let mut found = [Vec2::ZERO; 2];
                let count = crossings(&element.feature, &other.feature, &mut found);
                for &p in &found[..count] {
                    let distance = p.length();
                    if distance <= lo || distance > hi {
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

    /// Lists active element `e`'s live parts in the elements' grid (when in use).
    pub(super) fn list_element(&mut self, e: u32) {
        if !self.grids_on {
            return;
        }
        let reach = self.reach;
        for part in self.live[e as usize].into_iter().flatten() {
            self.element_grid.insert(e, &within(&part, reach));
        }
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
        self.element_grid.reset(self.parts_cell(&self.live));
        for k in 0..self.active.len() {
            self.list_element(self.active[k]);
        }
    }

    /// The cell side of a grid of the active elements' parts (`live` or `ring`): their
    /// mean extent within the reach's square, between a 32nd of the square and
    /// [`grid_cell`]'s quarter of it.
    ///
    /// Why not a fixed quarter: between two 10,000-vertex stars at a 1 cm overlap the
    /// live parts in the last ring are ~10,000 stretches of ~2 mm in a band a few
    /// millimetres wide, in a reach's square of 28 mm; quarter cells returned thousands
    /// of parts per question (44 million over the widening of one query, 6 ns each)
    /// where 9 million boxes met. Cells of the parts' own size return the parts near a
    /// part, a few times those it meets.
    fn parts_cell(&self, parts: &[Live]) -> f32 {
        let reach = self.reach;
        let coarse = grid_cell(reach);
        let (mut sum, mut count) = (0.0f32, 0u32);
        for &e in &self.active {
            for part in parts[e as usize].iter().flatten() {
                let b = within(part, reach);
                sum += (b.max - b.min).max_element().max(0.0);
                count += 1;
            }
        }
        if count == 0 || !reach.is_finite() {
            return coarse;
        }
        (sum / count as f32).clamp(coarse / 8.0, coarse)
    }
}
