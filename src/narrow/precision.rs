//! The narrow phase's stated precision range, and the check that says when a body lies
//! beyond it.
//!
//! Coordinates are f32. Every test works in A's frame with B's pose relative to A
//! (`query.rs`), so the algorithms' own rounding depends on the pair's size and distance
//! from each other, not on where the pair sits. What cannot be helped is the input: a
//! world position x is known to half an ulp of |x|, about 6e-8·|x|, so B's pose relative
//! to A carries that error too, and the touching tolerance
//! ([`NarrowConfig::touch_tolerance`](super::NarrowConfig::touch_tolerance), 8 ulps of the
//! coordinates) grows with |x| for that reason. Relative to a body of size s, that
//! tolerance is about 1e-6·|x|/s. We state the range where it stays at or below 1 % of
//! the body:
//!
//! **|coordinate| ≤ 10⁴ × size**, with size the longest side of the body's local
//! bounding box (a circle's diameter): 1 m shapes anywhere within ±10 km of the origin,
//! 1 mm shapes within ±10 m. Within it all three algorithms give the exact oracle's
//! verdict whenever the bodies overlap or are apart by more than the touching tolerance,
//! and two identical bodies at the same pose intersect at full depth
//! (`tests/precision.rs`). Beyond it the answers degrade gradually (at 10⁶ × size a 1 %
//! overlap is already within the touching tolerance); the CLI and the sandbox say so
//! instead of answering silently.

use crate::geometry::Shape;
use crate::math::Pose;

/// The precision range as a ratio: a body's coordinates may reach this many times its
/// size (see the module docs).
pub const PRECISION_RANGE: f32 = 1e4;

/// The length the precision range is relative to: the longest side of the shape's local
/// bounding box (a circle's diameter, a segment's longer extent), at least 1 µm.
pub fn range_size(shape: &Shape) -> f32 {
    let b = shape.local_aabb();
    (b.max - b.min).max_element().max(1e-6)
}

/// Where a body lies beyond the precision range.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OutOfRange {
    /// The larger of the pose's |x| and |y| (m).
    pub coordinate: f32,
    /// The body's [`range_size`] (m).
    pub size: f32,
}

impl OutOfRange {
    /// The farthest from the origin a body of this size may be (m).
    pub fn limit(&self) -> f32 {
        PRECISION_RANGE * self.size
    }
}

impl std::fmt::Display for OutOfRange {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "at {:.0} m from the origin, a body of {} m is outside the precision range (±{} m for its size: \
             coordinates up to {:.0e} times the size); its contacts may be wrong",
            self.coordinate,
            self.size,
            self.limit(),
            PRECISION_RANGE
        )
    }
}

/// `None` when `shape` at `pose` lies within the precision range, else how far beyond.
/// Non-finite coordinates are beyond it.
pub fn check_range(shape: &Shape, pose: &Pose) -> Option<OutOfRange> {
    let coordinate = pose.translation.abs().max_element();
    let size = range_size(shape);
    if pose.translation.is_finite() && coordinate <= PRECISION_RANGE * size {
        None
    } else {
        Some(OutOfRange { coordinate, size })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::{Circle, Polygon};
    use crate::math::Vec2;

    fn square(side: f32) -> Shape {
        let h = 0.5 * side;
        Shape::Polygon(Polygon::new(&[Vec2::new(-h, -h), Vec2::new(h, -h), Vec2::new(h, h), Vec2::new(-h, h)]).unwrap())
    }

    #[test]
    fn a_metre_reaches_ten_kilometres_and_a_millimetre_ten_metres() {
        let at = |x: f32| Pose::new(Vec2::new(x, -x), 0.3);
        assert_eq!(check_range(&square(1.0), &at(10_000.0)), None);
        assert!(check_range(&square(1.0), &at(10_001.0)).is_some());
        assert_eq!(check_range(&square(1e-3), &at(9.99)), None);
        let beyond = check_range(&square(1e-3), &at(11.0)).unwrap();
        assert!((beyond.limit() - 10.0).abs() < 1e-3, "{beyond:?}");
        assert!(beyond.to_string().contains("outside the precision range"));
        // A circle's size is its diameter.
        let disc = Shape::Circle(Circle::new(0.5).unwrap());
        assert_eq!(check_range(&disc, &at(10_000.0)), None);
        assert!(check_range(&disc, &Pose::new(Vec2::new(f32::NAN, 0.0), 0.0)).is_some());
    }
}
