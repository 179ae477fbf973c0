//! Mass properties. HELPER: complete.

use crate::math::{cross, Vec2};

/// Area, centroid and rotational inertia of a shape at unit density.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MassProperties {
    /// Area (m²).
    pub area: f32,
    /// Centroid, local frame.
    pub centroid: Vec2,
    /// Polar moment of area about the centroid (m⁴); times density gives inertia.
    pub inertia: f32,
}

/// Area centroid of a simple polygon.
pub(crate) fn polygon_centroid(vertices: &[Vec2]) -> Vec2 {
    let n = vertices.len();
    let mut area2 = 0.0;
    let mut c = Vec2::ZERO;
    for i in 0..n {
        let a = vertices[i];
        let b = vertices[(i + 1) % n];
        let w = cross(a, b);
        area2 += w;
        c += (a + b) * w;
    }
    if area2.abs() > 0.0 {
        c / (3.0 * area2)
    } else {
        vertices.iter().copied().sum::<Vec2>() / n.max(1) as f32
    }
}
