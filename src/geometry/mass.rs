//! Mass properties at unit density: area, centroid and polar moment of area.
//!
//! Multiply `area` by a density (kg/m²) for the mass and `inertia` by the same density
//! for the moment of inertia about the centroid (kg·m²).
//!
//! * **Circle** of radius r: A = πr², I = πr⁴/2.
//! * **Polygon**, any simple one (convex or not): a fan of signed triangles from a
//!   reference point `o` near the shape (the first vertex). For the triangle
//!   `o, o + e1, o + e2` with D = e1 × e2: area D/2, centroid o + (e1 + e2)/3, polar
//!   moment about `o` D/12 · (e1·e1 + e1·e2 + e2·e2). Triangles outside the polygon
//!   come with negative D and cancel exactly what they add, so the sum is exact for
//!   non-convex polygons too. The moment is moved to the centroid with the parallel-axis
//!   theorem, I_c = I_o − A |c − o|². Summed in f64 about a point on the shape, so a
//!   polygon far from its local origin does not lose digits (the same reasoning as
//!   Box2D's `b2ComputePolygonMass`, which also shifts to a reference vertex).
//! * **Segment**: zero area would make a massless, unrotatable body, so a segment is a
//!   *thin rod*: its density is read as kg per metre of length. `area` then holds the
//!   length L (m), `centroid` the midpoint, and `inertia` = L³/12 (m³), the rod's
//!   moment about its midpoint per unit linear density.

use super::polygon::Polygon;
use super::shape::{Circle, Segment, Shape};
use crate::math::Vec2;

/// Area, centroid and rotational inertia of a shape at unit density.
///
/// For a [`Segment`] (a thin rod, density in kg/m) `area` holds the length in metres and
/// `inertia` is in m³; see the module documentation.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MassProperties {
    /// Area (m²); a segment's length (m).
    pub area: f32,
    /// Centroid, local frame.
    pub centroid: Vec2,
    /// Polar moment of area about the centroid (m⁴; m³ for a segment); times density
    /// gives the moment of inertia.
    pub inertia: f32,
}

impl MassProperties {
    /// The mass properties of several parts of one body (each in the same local frame):
    /// areas add, the centroid is the area-weighted mean, and each part's moment is moved
    /// to the common centroid (parallel-axis theorem) before adding. Empty input or zero
    /// total area gives all zeros.
    pub fn combined(parts: &[MassProperties]) -> MassProperties {
        let area: f64 = parts.iter().map(|p| p.area as f64).sum();
        if area <= 0.0 {
            return MassProperties {
                area: 0.0,
                centroid: Vec2::ZERO,
                inertia: 0.0,
            };
        }
        let cx = parts.iter().map(|p| p.area as f64 * p.centroid.x as f64).sum::<f64>() / area;
        let cy = parts.iter().map(|p| p.area as f64 * p.centroid.y as f64).sum::<f64>() / area;
        let inertia: f64 = parts
            .iter()
            .map(|p| {
                let dx = p.centroid.x as f64 - cx;
                let dy = p.centroid.y as f64 - cy;
                p.inertia as f64 + p.area as f64 * (dx * dx + dy * dy)
            })
            .sum();
        MassProperties {
            area: area as f32,
            centroid: Vec2::new(cx as f32, cy as f32),
            inertia: inertia as f32,
        }
    }
}

impl Shape {
    /// Area, centroid (local frame) and polar moment about the centroid at unit density.
    /// Segments are thin rods (see [`MassProperties`]).
    pub fn mass_properties(&self) -> MassProperties {
        match self {
            Shape::Circle(c) => circle_mass(c),
            Shape::Polygon(p) => polygon_mass(p),
            Shape::Segment(s) => segment_mass(s),
        }
    }
}

fn circle_mass(circle: &Circle) -> MassProperties {
    let r = circle.radius() as f64;
    let area = std::f64::consts::PI * r * r;
    MassProperties {
        area: area as f32,
        centroid: Vec2::ZERO,
        inertia: (0.5 * area * r * r) as f32,
    }
}

fn segment_mass(segment: &Segment) -> MassProperties {
    let length = (segment.b() - segment.a()).length() as f64;
    MassProperties {
        area: length as f32,
        centroid: 0.5 * (segment.a() + segment.b()),
        inertia: (length * length * length / 12.0) as f32,
    }
}

fn polygon_mass(polygon: &Polygon) -> MassProperties {
    let m = polygon_mass_f64(polygon.vertices());
    MassProperties {
        area: m.area as f32,
        centroid: Vec2::new(m.cx as f32, m.cy as f32),
        inertia: m.inertia as f32,
    }
}

/// f64 results of the triangle fan; centroid in the polygon's frame.
struct PolygonMass {
    area: f64,
    cx: f64,
    cy: f64,
    inertia: f64,
}

/// Triangle fan from the first vertex (see the module documentation). Signed: a
/// clockwise polygon gives negative area and inertia.
fn polygon_mass_f64(vertices: &[Vec2]) -> PolygonMass {
    let n = vertices.len();
    let zero = PolygonMass {
        area: 0.0,
        cx: 0.0,
        cy: 0.0,
        inertia: 0.0,
    };
    if n < 3 {
        return zero;
    }
    let o = vertices[0];
    let (ox, oy) = (o.x as f64, o.y as f64);
    let (mut area, mut sx, mut sy, mut i_o) = (0.0f64, 0.0f64, 0.0f64, 0.0f64);
    for k in 1..n - 1 {
        let (e1x, e1y) = (vertices[k].x as f64 - ox, vertices[k].y as f64 - oy);
        let (e2x, e2y) = (vertices[k + 1].x as f64 - ox, vertices[k + 1].y as f64 - oy);
        let d = e1x * e2y - e1y * e2x;
        area += 0.5 * d;
        sx += 0.5 * d * (e1x + e2x) / 3.0;
        sy += 0.5 * d * (e1y + e2y) / 3.0;
        i_o += d / 12.0 * (e1x * e1x + e1y * e1y + e1x * e2x + e1y * e2y + e2x * e2x + e2y * e2y);
    }
    if area == 0.0 {
        return zero;
    }
    let (cx, cy) = (sx / area, sy / area);
    PolygonMass {
        area,
        cx: ox + cx,
        cy: oy + cy,
        inertia: i_o - area * (cx * cx + cy * cy),
    }
}

/// Area centroid of a simple polygon (either orientation); the vertex mean when the area
/// is zero.
pub(crate) fn polygon_centroid(vertices: &[Vec2]) -> Vec2 {
    let m = polygon_mass_f64(vertices);
    if m.area != 0.0 {
        Vec2::new(m.cx as f32, m.cy as f32)
    } else {
        vertices.iter().copied().sum::<Vec2>() / vertices.len().max(1) as f32
    }
}

/// Signed area of a polygon (positive when counter-clockwise).
#[cfg(test)]
pub(crate) fn polygon_area(vertices: &[Vec2]) -> f32 {
    let n = vertices.len();
    if n < 3 {
        return 0.0;
    }
    let o = vertices[0];
    (1..n - 1)
        .map(|k| 0.5 * crate::math::cross(vertices[k] - o, vertices[k + 1] - o))
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clockwise_fan_is_negative_and_far_polygon_keeps_digits() {
        let sq = [
            Vec2::new(0., 0.),
            Vec2::new(0., 1.),
            Vec2::new(1., 1.),
            Vec2::new(1., 0.),
        ];
        assert!(polygon_mass_f64(&sq).area < 0.0);
        // A unit square 10 km from its origin: inertia 1/6 still to 1e-6.
        let far: Vec<Vec2> = [(0., 0.), (1., 0.), (1., 1.), (0., 1.)]
            .iter()
            .map(|&(x, y)| Vec2::new(1e4 + x, 1e4 + y))
            .collect();
        let m = polygon_mass_f64(&far);
        assert!((m.inertia - 1.0 / 6.0).abs() < 1e-6, "{}", m.inertia);
    }
}
