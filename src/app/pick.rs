//! Which body is under the cursor.

use crate::dynamics::{BodyHandle, World};
use crate::geometry::Shape;
use crate::math::Vec2;

/// True when `local_point` (shape frame, m) lies in `shape` or within `tolerance_m` of it.
/// Segments have no area, so they are picked within the tolerance only.
pub fn shape_contains(shape: &Shape, local_point: Vec2, tolerance_m: f32) -> bool {
    match shape {
        Shape::Circle(c) => local_point.length() <= c.radius() + tolerance_m,
        Shape::Segment(s) => distance_to_segment(local_point, s.a(), s.b()) <= tolerance_m,
        Shape::Polygon(_) => (0..shape.piece_count()).any(|i| {
            let piece = shape.piece(i);
            piece
                .vertices
                .iter()
                .zip(piece.normals)
                .all(|(v, n)| n.dot(local_point - *v) <= tolerance_m)
        }),
    }
}

/// Distance (m) from `p` to the segment `a`–`b`.
pub fn distance_to_segment(p: Vec2, a: Vec2, b: Vec2) -> f32 {
    let ab = b - a;
    let t = if ab.length_squared() > 0.0 {
        ((p - a).dot(ab) / ab.length_squared()).clamp(0.0, 1.0)
    } else {
        0.0
    };
    (a + ab * t - p).length()
}

/// The body under `world_point`, within `tolerance_m` (a few pixels at the current zoom).
/// Of several, the one drawn last (on top) wins, and a dynamic body beats a static one
/// (the ground usually lies under everything the user wants to grab).
pub fn body_at(world: &World, world_point: Vec2, tolerance_m: f32) -> Option<BodyHandle> {
    let mut best: Option<(BodyHandle, bool)> = None;
    for (handle, body) in world.bodies().iter() {
        let local = body.pose().apply_inv_point(world_point);
        if shape_contains(body.shape(), local, tolerance_m) {
            let dynamic = body.is_dynamic();
            if best.is_none_or(|(_, best_dynamic)| dynamic || !best_dynamic) {
                best = Some((handle, dynamic));
            }
        }
    }
    best.map(|(h, _)| h)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::Polygon;

    #[test]
    fn the_notch_of_an_l_is_not_inside_it() {
        // ┌┐
        // │└─┐   the L: (0,0)-(2,0)-(2,1)-(1,1)-(1,2)-(0,2); (1.5, 1.5) is in the notch.
        // └──┘
        let l = Polygon::new(&[
            Vec2::new(0.0, 0.0),
            Vec2::new(2.0, 0.0),
            Vec2::new(2.0, 1.0),
            Vec2::new(1.0, 1.0),
            Vec2::new(1.0, 2.0),
            Vec2::new(0.0, 2.0),
        ])
        .unwrap();
        let shape = Shape::Polygon(l);
        assert!(shape_contains(&shape, Vec2::new(0.5, 1.5), 0.0));
        assert!(shape_contains(&shape, Vec2::new(1.5, 0.5), 0.0));
        assert!(!shape_contains(&shape, Vec2::new(1.5, 1.5), 0.0));
        assert!(
            shape_contains(&shape, Vec2::new(1.5, 1.05), 0.1),
            "within the tolerance"
        );
    }

    #[test]
    fn segment_distance() {
        let (a, b) = (Vec2::new(0.0, 0.0), Vec2::new(2.0, 0.0));
        assert_eq!(distance_to_segment(Vec2::new(1.0, 0.5), a, b), 0.5);
        assert_eq!(distance_to_segment(Vec2::new(3.0, 0.0), a, b), 1.0);
    }
}
