//! Which open difference holds a point, told by its direction from the origin: a table
//! of the union's radial reach around the origin, for the differences that hold it.
//!
//! Between two finely cut outlines at a shallow contact (two stars of 10,000 vertices,
//! their tips resting on each other) hundreds of piece pairs overlap, and their
//! differences are long thin needles through the origin: their boxes all cover the
//! region the search tests, so the grids (`box_grid.rs`) cannot split them, and each
//! candidate was asked of hundreds of differences before one was found to hold it.
//! Seen from the origin, though, a needle is long in two narrow ranges of directions
//! and short in all others. A convex difference D that holds the origin holds the
//! point r·u (u a unit direction) exactly when r is below its radial function ρ_D(u),
//! the distance from the origin to its boundary along u (Preparata and Shamos,
//! "Computational Geometry: An Introduction", 1985, on star-shaped polygons: every
//! convex polygon is star-shaped from an inner point). The table splits the directions
//! into [`BINS`] equal angles and keeps, per angle, the greatest lower bound of ρ_D over
//! that angle among the open differences, and which difference gives it: a point nearer
//! than its angle's bound is held by that difference, found from one arctangent.
//!
//! The bound is exact to the per-point test (`cover.rs`, `strictly_inside`): a
//! difference's planes are moved in by the tolerance and a rounding margin before ρ is
//! taken, and the angle is widened a little on each side, so that a point it takes in is
//! held by the per-point test too. A point it does not take in is asked of the
//! differences one by one as before: the answer does not change.

use super::*;

/// Angles of the table (and of the coverage table, `coverage.rs`). Measured on two
/// 10,000-vertex stars at a 1 cm overlap, where the answer lies about a centimetre from
/// the origin and the needles there are a few millimetres wide (a tenth of a radian or
/// more): for this table alone finer angles only cost more upkeep, but the coverage
/// table's distances follow the union's outline closer with them: on the slowest pose
/// of `examples/big_query_workload.rs`, 1024 angles left 366,000 candidates to test
/// where 256 left 530,000, and the query took a third of the time.
pub(super) const BINS: usize = 1024;

/// From this many open differences on, the table is kept (below it the per-point scan
/// is cheaper than the upkeep, up to 256 angles per difference). Measured on two
/// 10,000-vertex combs (`examples/big_query_workload.rs`): from 64 on, filling the
/// table doubled the slowest pose's query (1.0 to 2.2 ms); from 512 on it is as before,
/// and two 3000-vertex stars still fill it.
pub(super) const RADIAL_MIN_DIFFERENCES: usize = 512;

/// How much each angle is widened on each side (radians): far above the rounding of
/// the arctangent that picks a point's angle, so a point is always inside the angle it
/// is looked up in.
const ANGLE_SLACK: f32 = 1e-4;

/// The relative margin by which the planes are moved in, as for the held intervals
/// (`cover.rs`): far above the rounding of the per-point test's dot products.
pub(super) const ROUNDING_MARGIN: f32 = 1e-5;

/// The angle a direction falls in.
pub(super) fn bin_of(p: Vec2) -> usize {
    let turn = (p.y.atan2(p.x) + std::f32::consts::PI) / std::f32::consts::TAU;
    ((turn * BINS as f32) as usize).min(BINS - 1)
}

/// The unit directions at the two ends of each angle, widened by [`ANGLE_SLACK`]
/// (computed once: the sines and cosines were a tenth of a query's instructions).
pub(super) fn bin_ends() -> &'static [(Vec2, Vec2)] {
    static ENDS: std::sync::OnceLock<Vec<(Vec2, Vec2)>> = std::sync::OnceLock::new();
    ENDS.get_or_init(|| {
        let width = std::f32::consts::TAU / BINS as f32;
        (0..BINS)
            .map(|b| {
                let start = -std::f32::consts::PI + width * b as f32;
                (
                    Vec2::from_angle(start - ANGLE_SLACK),
                    Vec2::from_angle(start + width + ANGLE_SLACK),
                )
            })
            .collect()
    })
}

impl CombineScratch {
    /// Starts the table with every open difference.
    pub(super) fn fill_radial(&mut self, tol: f32) {
        self.radial.clear();
        self.radial.resize(BINS, (0.0, u32::MAX));
        self.radial_on = true;
        for k in 0..self.diffs.len() {
            self.add_radial(k as u32, tol);
        }
    }

    /// Raises the table's bounds by difference `k`, when it holds the origin by more
    /// than the tolerance.
    pub(super) fn add_radial(&mut self, k: u32, tol: f32) {
        let d = self.diffs[k as usize];
        if d.planes.1 < 3 {
            return;
        }
        let planes = &self.planes[d.planes.0 as usize..(d.planes.0 + d.planes.1) as usize];
        let core = run(&self.core, d.core);
        let farthest = core.iter().map(|v| v.length()).fold(0.0, f32::max);
        let shrink = tol + ROUNDING_MARGIN * farthest;
        let least = planes.iter().map(|&(_, offset)| offset).fold(f32::INFINITY, f32::min);
        // A difference not holding the origin by the margin has no radial bound; one
        // lying within the held radius holds nothing the search asks about.
        if least <= shrink || farthest <= self.held_radius {
            return;
        }
        // Only the angles where it reaches beyond the held radius (`coverage.rs`,
        // `angles_beyond`): nearer points are not asked about, or rarely, and then of
        // the differences one by one.
        let mut marks = [0u64; super::coverage::WORDS];
        super::coverage::angles_beyond(core, self.held_radius.max(0.0), |b| self.radial[b].0, &mut marks);
        for b in super::coverage::marked(marks) {
            let (lo, hi) = bin_ends()[b];
            let current = self.radial[b].0;
            if current >= farthest {
                // Its radial function never exceeds its farthest vertex.
                continue;
            }
            // ρ of the shrunk core over the angle: for each side, its moved offset over
            // the greatest cosine between its normal and a direction of the angle (1
            // when the normal is inside it; the nearer end otherwise, the cosine having
            // one peak); a side no direction of the angle faces bounds nothing there.
            let mut bound = f32::INFINITY;
            for &(normal, offset) in planes {
                let facing = if cross(lo, normal) >= 0.0 && cross(normal, hi) >= 0.0 {
                    1.0
                } else {
                    normal.dot(lo).max(normal.dot(hi))
                };
                if facing > 0.0 {
                    bound = bound.min((offset - shrink) / facing);
                    if bound <= current {
                        break;
                    }
                }
            }
            if bound > current {
                self.radial[b] = (bound, k);
            }
        }
    }

    /// The open difference the table says holds `p` strictly, if any.
    pub(super) fn radial_holder(&self, p: Vec2) -> Option<u32> {
        let (bound, k) = self.radial[bin_of(p)];
        (p.length() < bound).then_some(k)
    }
}
