//! Growing the combine step's reach (see `search.rs`): when the search has found no
//! answer within the reach, it doubles, and the grids and the crossings that were left
//! out for lying beyond the old reach are brought up to the new one. Split from
//! `search.rs`, which owns the order of the search.

use super::*;

impl CombineScratch {
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
        self.diff_grid.reset(grid_cell(reach));
        for (k, d) in self.diffs.iter().enumerate() {
            self.diff_grid.insert(k as u32, &within(&d.bounds, reach));
        }
        self.element_grid.reset(grid_cell(reach));
        for &e in &self.active {
            if let Some(b) = self.live[e as usize] {
                self.element_grid.insert(e, &within(&b, reach));
            }
        }
    }
}
