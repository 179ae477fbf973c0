//! Clipping a convex polygon by a half-plane (one step of Sutherland and Hodgman,
//! "Reentrant polygon clipping", 1974): what the 8-DOP's outline and the lessons'
//! Voronoi regions are cut with.

use crate::math::Vec2;

/// Keeps the part of convex `polygon` where `normal · x ≤ offset` (Sutherland–Hodgman
/// against one half-plane).
pub fn clip_half_plane(polygon: &[Vec2], normal: Vec2, offset: f32) -> Vec<Vec2> {
    let mut out = Vec::with_capacity(polygon.len() + 1);
    for (i, &p) in polygon.iter().enumerate() {
        let q = polygon[(i + 1) % polygon.len()];
        let (dp, dq) = (normal.dot(p) - offset, normal.dot(q) - offset);
        if dp <= 0.0 {
            out.push(p);
        }
        if (dp < 0.0 && dq > 0.0) || (dp > 0.0 && dq < 0.0) {
            let t = dp / (dp - dq);
            out.push(p + (q - p) * t);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_half_plane_cuts_a_square_in_two() {
        //  ┌───┐
        //  │ ░ │  keep x ≤ 0.5 of the unit square: a 0.5 × 1 rectangle
        //  └───┘
        let square = [Vec2::ZERO, Vec2::X, Vec2::ONE, Vec2::Y];
        let left = clip_half_plane(&square, Vec2::X, 0.5);
        assert_eq!(left.len(), 4);
        assert!(left.iter().all(|p| p.x <= 0.5 + 1e-6));
        assert!(clip_half_plane(&square, Vec2::X, -1.0).is_empty());
        assert_eq!(clip_half_plane(&square, Vec2::X, 2.0).len(), 4);
    }
}
