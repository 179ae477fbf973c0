//! Polygon validation and convex decomposition. HELPER: replace with the real thing.

use super::polygon::PolygonError;
use crate::math::{cross, Vec2};

/// Validates and normalises a user's points (see [`super::Polygon::new`]).
pub(crate) fn validate_and_normalise(points: &[Vec2]) -> Result<Vec<Vec2>, PolygonError> {
    for (index, p) in points.iter().enumerate() {
        if !p.x.is_finite() || !p.y.is_finite() {
            return Err(PolygonError::NonFinite { index, x: p.x, y: p.y });
        }
    }
    let mut v: Vec<Vec2> = points.to_vec();
    let n = v.len();
    let area2: f32 = (0..n).map(|i| cross(v[i], v[(i + 1) % n])).sum();
    if area2 < 0.0 {
        v.reverse();
    }
    if v.len() < 3 {
        return Err(PolygonError::TooFewVertices { distinct: v.len() });
    }
    Ok(v)
}

/// Convex pieces (each counter-clockwise) of a simple counter-clockwise polygon.
pub(crate) fn convex_decomposition(vertices: &[Vec2]) -> Vec<Vec<Vec2>> {
    vec![vertices.to_vec()]
}
