//! 8-DOPs: discrete oriented polytopes with eight fixed face directions (J. Klosowski
//! et al., "Efficient collision detection using bounding volume hierarchies of k-DOPs",
//! IEEE TVCG 1998). An AABB with its corners cut at 45°: still only interval tests,
//! but much tighter around diagonal or round shapes (Ren and Xie 2011; Zakharov and Sadykov 2003).

use crate::geometry::clip_half_plane;
use crate::math::{Pose, Vec2};

/// The four directions, world frame: x, y, and the two diagonals (unit length).
pub const KDOP8_DIRECTIONS: [Vec2; 4] = [
    Vec2::new(1.0, 0.0),
    Vec2::new(0.0, 1.0),
    Vec2::new(std::f32::consts::FRAC_1_SQRT_2, std::f32::consts::FRAC_1_SQRT_2),
    Vec2::new(std::f32::consts::FRAC_1_SQRT_2, -std::f32::consts::FRAC_1_SQRT_2),
];

/// An 8-DOP in the world frame: for each of [`KDOP8_DIRECTIONS`], the interval
/// `[min[i], max[i]]` of the shape's projections (metres).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Kdop8 {
    /// Smallest projection on each direction.
    pub min: [f32; 4],
    /// Largest projection on each direction.
    pub max: [f32; 4],
}

impl Kdop8 {
    /// An empty 8-DOP (inverted intervals): overlaps and contains nothing.
    pub const EMPTY: Kdop8 = Kdop8 {
        min: [f32::INFINITY; 4],
        max: [f32::NEG_INFINITY; 4],
    };

    /// The 8-DOP of `local_points` placed by `pose`. Unlike the OBB, the directions are
    /// fixed in the world, so the points are transformed first (O(n) per pose).
    pub fn from_points_posed(local_points: &[Vec2], pose: &Pose) -> Self {
        let mut k = Kdop8::EMPTY;
        for &p in local_points {
            k.add_point(pose.apply_point(p));
        }
        k
    }

    /// The 8-DOP of a disc (world frame).
    pub fn from_circle(world_center: Vec2, radius: f32) -> Self {
        let mut k = Kdop8::EMPTY;
        for (i, d) in KDOP8_DIRECTIONS.iter().enumerate() {
            let c = world_center.dot(*d);
            k.min[i] = c - radius;
            k.max[i] = c + radius;
        }
        k
    }

    /// Grows the intervals to hold `world_point`.
    pub fn add_point(&mut self, world_point: Vec2) {
        for (i, d) in KDOP8_DIRECTIONS.iter().enumerate() {
            let s = world_point.dot(*d);
            self.min[i] = self.min[i].min(s);
            self.max[i] = self.max[i].max(s);
        }
    }

    /// Overlap: all four intervals overlap (touching counts). Exact for two 8-DOPs,
    /// since every edge normal of either is one of the four shared directions.
    pub fn overlaps(&self, other: &Kdop8) -> bool {
        (0..4).all(|i| self.min[i] <= other.max[i] && other.min[i] <= self.max[i])
    }

    /// True when `world_point` projects inside all four intervals.
    pub fn contains(&self, world_point: Vec2) -> bool {
        KDOP8_DIRECTIONS.iter().enumerate().all(|(i, d)| {
            let s = world_point.dot(*d);
            s >= self.min[i] && s <= self.max[i]
        })
    }

    /// The octagon (some sides may have zero length and are dropped), counter-clockwise,
    /// world frame: the x/y box clipped by the two diagonal slabs (Sutherland–Hodgman).
    pub fn outline(&self) -> Vec<Vec2> {
        if (0..4).any(|i| self.min[i] > self.max[i]) {
            return Vec::new();
        }
        let mut poly = vec![
            Vec2::new(self.min[0], self.min[1]),
            Vec2::new(self.max[0], self.min[1]),
            Vec2::new(self.max[0], self.max[1]),
            Vec2::new(self.min[0], self.max[1]),
        ];
        for (i, &d) in KDOP8_DIRECTIONS.iter().enumerate().skip(2) {
            poly = clip_half_plane(&poly, d, self.max[i]);
            poly = clip_half_plane(&poly, -d, -self.min[i]);
        }
        let mut out: Vec<Vec2> = Vec::with_capacity(poly.len());
        for p in poly {
            if out
                .last()
                .is_none_or(|q: &Vec2| q.distance(p) > 1e-6 * (1.0 + p.abs().max_element()))
            {
                out.push(p);
            }
        }
        while out.len() > 1 && out[0].distance(out[out.len() - 1]) <= 1e-6 * (1.0 + out[0].abs().max_element()) {
            out.pop();
        }
        out
    }

    /// Area of the octagon (m²).
    pub fn area(&self) -> f32 {
        let o = self.outline();
        let n = o.len();
        if n < 3 {
            return 0.0;
        }
        (0..n).map(|i| 0.5 * crate::math::cross(o[i], o[(i + 1) % n])).sum()
    }
}
