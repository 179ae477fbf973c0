//! Axis-aligned bounding boxes.

use crate::math::{Pose, Vec2};

/// An axis-aligned box `[min, max]` (metres).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Aabb {
    /// Lower-left corner.
    pub min: Vec2,
    /// Upper-right corner.
    pub max: Vec2,
}

impl Aabb {
    /// A box from its corners.
    pub fn new(min: Vec2, max: Vec2) -> Self {
        Aabb { min, max }
    }

    /// The smallest box holding every point; an empty slice gives an inverted box that
    /// overlaps nothing.
    pub fn from_points(points: &[Vec2]) -> Self {
        let mut b = Aabb {
            min: Vec2::splat(f32::INFINITY),
            max: Vec2::splat(f32::NEG_INFINITY),
        };
        for &p in points {
            b.min = b.min.min(p);
            b.max = b.max.max(p);
        }
        b
    }

    /// The box of `local_points` placed by `pose`.
    pub fn from_points_posed(local_points: &[Vec2], pose: &Pose) -> Self {
        let mut b = Aabb {
            min: Vec2::splat(f32::INFINITY),
            max: Vec2::splat(f32::NEG_INFINITY),
        };
        for &p in local_points {
            let w = pose.apply_point(p);
            b.min = b.min.min(w);
            b.max = b.max.max(w);
        }
        b
    }

    /// The box of this box's four corners placed by `pose` (a local box turned into
    /// another frame: it holds everything the original held).
    pub fn posed(&self, pose: &Pose) -> Aabb {
        let corners = [
            self.min,
            Vec2::new(self.max.x, self.min.y),
            self.max,
            Vec2::new(self.min.x, self.max.y),
        ];
        Aabb::from_points(&corners.map(|c| pose.apply_point(c)))
    }

    /// The distance between two boxes (0 when they overlap or touch): a lower bound on
    /// the distance between anything inside them.
    #[inline]
    pub fn gap(&self, other: &Aabb) -> f32 {
        (self.min - other.max)
            .max(other.min - self.max)
            .max(Vec2::ZERO)
            .length()
    }

    /// Interval overlap on both axes. Boxes that only touch count as overlapping: the
    /// box test must never reject a pair the exact test could accept.
    #[inline]
    pub fn overlaps(&self, other: &Aabb) -> bool {
        self.min.x <= other.max.x && other.min.x <= self.max.x && self.min.y <= other.max.y && other.min.y <= self.max.y
    }

    /// [`Aabb::overlaps`] with its four comparisons all made and combined with `&`
    /// instead of `&&`: for the broad phase's tree queries and kept pairs, whose boxes
    /// overlap or not about half the time. Short-circuited there, each comparison was a
    /// branch the processor could not predict, and the test was a third of the tree
    /// query's samples on the 1000-polygon rain (broad phase 0.112 → 0.107 ms a step
    /// there, 0.178 → 0.168 ms on the 5050-box pyramid: medians of 8 and 4 alternating
    /// runs). The same answer: a NaN fails a comparison either way. Elsewhere the first
    /// comparison mostly decides; used everywhere, it left the narrow phase slower
    /// (0.225 → 0.240 ms on the rain).
    #[inline]
    pub fn overlaps_unbranched(&self, other: &Aabb) -> bool {
        (self.min.x <= other.max.x)
            & (other.min.x <= self.max.x)
            & (self.min.y <= other.max.y)
            & (other.min.y <= self.max.y)
    }

    /// The box grown by `margin` on every side.
    pub fn inflated(&self, margin: f32) -> Aabb {
        Aabb {
            min: self.min - Vec2::splat(margin),
            max: self.max + Vec2::splat(margin),
        }
    }

    /// The smallest box holding both.
    pub fn union(&self, other: &Aabb) -> Aabb {
        Aabb {
            min: self.min.min(other.min),
            max: self.max.max(other.max),
        }
    }

    /// Centre point.
    pub fn center(&self) -> Vec2 {
        0.5 * (self.min + self.max)
    }

    /// Half the size on each axis.
    pub fn half_extents(&self) -> Vec2 {
        0.5 * (self.max - self.min)
    }
}

impl Aabb {
    /// True when `point` is inside or on the box.
    pub fn contains(&self, point: Vec2) -> bool {
        point.x >= self.min.x && point.x <= self.max.x && point.y >= self.min.y && point.y <= self.max.y
    }

    /// The four corners, counter-clockwise from the lower-left one.
    pub fn outline(&self) -> Vec<Vec2> {
        vec![
            self.min,
            Vec2::new(self.max.x, self.min.y),
            self.max,
            Vec2::new(self.min.x, self.max.y),
        ]
    }

    /// Area (m²); 0 for an empty (inverted) box.
    pub fn area(&self) -> f32 {
        let size = (self.max - self.min).max(Vec2::ZERO);
        size.x * size.y
    }
}
