//! Voronoi regions of a polygon's features, clipped to a lesson view: the half-plane
//! clip (`geometry::clip_half_plane`) and the convex point test they need.
//! World frame; no drawing.

pub use crate::geometry::clip_half_plane;
use crate::math::Vec2;

/// A feature of a convex polygon (or a point, a segment) whose Voronoi region is meant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Region {
    /// Nearest to vertex `i`.
    Vertex(usize),
    /// Nearest to the inside of edge `i` (vertex `i` to `i + 1`).
    Edge(usize),
    /// Inside the polygon.
    Inside,
}

/// The Voronoi regions of the features of `vertices` (a point, a segment, or a convex
/// polygon either way round), each clipped to `view` (a convex polygon, world frame).
pub fn voronoi_regions(vertices: &[Vec2], view: &[Vec2]) -> Vec<(Region, Vec<Vec2>)> {
    let mut v = vertices.to_vec();
    if v.len() >= 3 {
        let area2: f32 = (0..v.len())
            .map(|i| crate::math::cross(v[i], v[(i + 1) % v.len()]))
            .sum();
        if area2 < 0.0 {
            v.reverse();
        }
    }
    let clip = |poly: Vec<Vec2>, normal: Vec2, at: Vec2| {
        if poly.is_empty() {
            poly
        } else {
            clip_half_plane(&poly, normal, normal.dot(at))
        }
    };
    let n = v.len();
    let mut out = Vec::new();
    match n {
        0 => {}
        1 => out.push((Region::Vertex(0), view.to_vec())),
        2 => {
            let (p, q) = (v[0], v[1]);
            let e = q - p;
            out.push((Region::Vertex(0), clip(view.to_vec(), e, p)));
            out.push((Region::Vertex(1), clip(view.to_vec(), -e, q)));
            out.push((Region::Edge(0), clip(clip(view.to_vec(), -e, p), e, q)));
        }
        _ => {
            for i in 0..n {
                let (prev, p, next) = (v[(i + n - 1) % n], v[i], v[(i + 1) % n]);
                // Beyond both edges' ends at p.
                let r = clip(clip(view.to_vec(), prev - p, p), next - p, p);
                out.push((Region::Vertex(i), r));
            }
            for i in 0..n {
                let (p, q) = (v[i], v[(i + 1) % n]);
                let e = q - p;
                let outward = crate::math::right_perp(e);
                let r = clip(clip(clip(view.to_vec(), -outward, p), -e, p), e, q);
                out.push((Region::Edge(i), r));
            }
            out.push((Region::Inside, v.clone()));
        }
    }
    out.retain(|(_, r)| r.len() >= 3);
    out
}

/// True when `p` lies in convex polygon `poly` (either orientation, edges included).
pub fn convex_contains(poly: &[Vec2], p: Vec2) -> bool {
    if poly.len() < 3 {
        return false;
    }
    let mut sign = 0.0f32;
    for (i, &a) in poly.iter().enumerate() {
        let b = poly[(i + 1) % poly.len()];
        let c = crate::math::cross(b - a, p - a);
        if c.abs() <= 1e-9 {
            continue;
        }
        if sign == 0.0 {
            sign = c.signum();
        } else if c.signum() != sign {
            return false;
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_voronoi_regions_of_a_segment_and_a_triangle_cover_the_view() {
        let view = [
            Vec2::splat(-10.0),
            Vec2::new(10.0, -10.0),
            Vec2::splat(10.0),
            Vec2::new(-10.0, 10.0),
        ];
        let seg = voronoi_regions(&[Vec2::ZERO, Vec2::X], &view);
        assert_eq!(seg.len(), 3);
        let holding = |regions: &[(Region, Vec<Vec2>)], p: Vec2| {
            regions
                .iter()
                .filter(|(_, r)| convex_contains(r, p))
                .map(|(k, _)| *k)
                .collect::<Vec<_>>()
        };
        assert_eq!(holding(&seg, Vec2::new(-1.0, 3.0)), vec![Region::Vertex(0)]);
        assert_eq!(holding(&seg, Vec2::new(0.5, -3.0)), vec![Region::Edge(0)]);
        //   2
        //   |\     a clockwise triangle is handled too
        //   0--1
        let tri = voronoi_regions(&[Vec2::ZERO, Vec2::Y, Vec2::X], &view);
        assert_eq!(tri.len(), 7);
        assert_eq!(holding(&tri, Vec2::new(0.2, 0.2)), vec![Region::Inside]);
        assert_eq!(holding(&tri, Vec2::new(-1.0, -1.0)).len(), 1);
        assert!(matches!(holding(&tri, Vec2::new(0.5, -2.0))[0], Region::Edge(_)));
    }
}
