//! Circles: circle against circle, and circle against polygon or segment by Voronoi
//! regions (Ren and Xie 2011).
//!
//! Ren and Xie's (2011) rule: if the circle's centre lies in a vertex's Voronoi region, the test is
//! the centre-to-vertex distance; otherwise the edge normals decide (SAT). Finding the
//! closest boundary feature to the centre gives that region directly — the closest
//! feature is a vertex exactly when the centre is in that vertex's region — and it stays
//! exact for non-convex polygons, where "the region" is the region of the closest
//! feature of the whole outline.

use super::query::PieceQuery;
use super::trace::{record, Trace, TraceStep, VoronoiRegion, VoronoiStep};
use super::PairPenetration;
use crate::geometry::ConvexView;
use crate::math::{cross, Vec2};

/// Circle A against circle B (each centred at its pose's origin, radii `q.a.radius` and
/// `q.b.radius`). The world offset of the centres is exact for centres near each other
/// (Sterbenz: the difference of two floats within a factor of two is exact), so it needs
/// no trip into A's frame.
pub(crate) fn penetration_circle_circle(q: &PieceQuery) -> PairPenetration {
    let (radius_a, radius_b) = (q.a.radius, q.b.radius);
    let d = q.pose_b.translation - q.pose_a.translation;
    let distance = d.length();
    // Coincident centres have no preferred direction; +y is an arbitrary but
    // deterministic choice (it pushes A down, out of B).
    let normal = if distance > 0.0 { d / distance } else { Vec2::Y };
    PairPenetration {
        normal,
        depth: radius_a + radius_b - distance,
    }
}

/// The closest boundary feature of an outline to a point, and which side it is on.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct ClosestFeature {
    /// Region of the closest feature (vertex or edge), or `Inside`.
    pub region: VoronoiRegion,
    /// Closest boundary point, outline's local frame.
    pub local_closest: Vec2,
    /// Outward direction at that feature pointing towards the point (unit, local frame):
    /// from the boundary to the point when outside, the edge's outward normal when on an
    /// edge, and pointing out of the outline when the point is inside.
    pub local_normal: Vec2,
    /// Signed distance from the point to the outline (negative inside).
    pub distance: f32,
}

/// Closest feature of `outline` (a polygon, convex or not, or a two-vertex segment) to
/// `local_point`. O(n).
pub(crate) fn closest_feature(outline: &ConvexView, local_point: Vec2) -> ClosestFeature {
    let v = outline.vertices;
    let n = v.len();
    // A segment has two "edges" (there and back); testing one is enough.
    let edge_count = if n == 2 { 1 } else { n };
    let mut best_d2 = f32::INFINITY;
    let mut best_point = v[0];
    let mut best_region = VoronoiRegion::Vertex(0);
    for i in 0..edge_count {
        let p0 = v[i];
        let p1 = v[(i + 1) % n];
        let e = p1 - p0;
        let len2 = e.length_squared();
        let t = if len2 > 0.0 {
            ((local_point - p0).dot(e) / len2).clamp(0.0, 1.0)
        } else {
            0.0
        };
        let q = p0 + e * t;
        let d2 = (local_point - q).length_squared();
        if d2 < best_d2 {
            best_d2 = d2;
            best_point = q;
            best_region = if t <= 0.0 {
                VoronoiRegion::Vertex(i)
            } else if t >= 1.0 {
                VoronoiRegion::Vertex((i + 1) % n)
            } else {
                VoronoiRegion::Edge(i)
            };
        }
    }
    let distance = best_d2.sqrt();
    let inside = n >= 3 && contains_point(v, local_point);
    let towards_point = local_point - best_point;
    let local_normal = match best_region {
        // Inside the edge's region the edge normal is exact and better conditioned than
        // the difference of two nearly equal points.
        VoronoiRegion::Edge(i) => {
            let outward = outline.normals[i];
            if n == 2 && towards_point.dot(outward) < 0.0 {
                -outward
            } else {
                outward
            }
        }
        _ if distance > 0.0 => {
            if inside {
                -towards_point / distance
            } else {
                towards_point / distance
            }
        }
        // The point sits exactly on a vertex: use the mean of its two edge normals.
        VoronoiRegion::Vertex(i) if !outline.normals.is_empty() => {
            let prev = (i + outline.normals.len() - 1) % outline.normals.len();
            (outline.normals[i] + outline.normals[prev]).normalize_or(outline.normals[i])
        }
        _ => Vec2::Y,
    };
    let region = if inside {
        match best_region {
            VoronoiRegion::Edge(i) => VoronoiRegion::Inside(i),
            VoronoiRegion::Vertex(i) => VoronoiRegion::Inside(i),
            r => r,
        }
    } else {
        best_region
    };
    ClosestFeature {
        region,
        local_closest: best_point,
        local_normal,
        distance: if inside { -distance } else { distance },
    }
}

/// Even-odd point-in-polygon test (Jordan curve theorem): counts crossings of a ray to +x.
/// Exact for any simple polygon, convex or not; a point on the boundary may land on either
/// side, which only matters at zero depth.
pub(crate) fn contains_point(vertices: &[Vec2], p: Vec2) -> bool {
    let n = vertices.len();
    let mut inside = false;
    let mut j = n - 1;
    for i in 0..n {
        let a = vertices[i];
        let b = vertices[j];
        if (a.y > p.y) != (b.y > p.y) {
            // x of the edge at height p.y, compared without division by the sign of the
            // edge's dy.
            let lhs = cross(b - a, p - a);
            if (b.y > a.y) == (lhs > 0.0) {
                inside = !inside;
            }
        }
        j = i;
    }
    inside
}

/// Polygon or segment A against circle B (radius `q.b.radius`), by the Voronoi region
/// of B's centre in A's frame.
pub(crate) fn penetration_outline_circle(q: &PieceQuery, trace: &mut Option<&mut Trace>) -> PairPenetration {
    let (outline_a, pose_a, pose_b, radius_b, piece) = (&q.a, &q.pose_a, &q.pose_b, q.b.radius, q.pieces.0);
    // B's centre in A's frame: `xf_ab`'s translation (`pose_a⁻¹` applied to B's origin).
    let local_center = q.xf_ab.translation;
    let f = closest_feature(outline_a, local_center);
    record(trace, || {
        TraceStep::Voronoi(VoronoiStep {
            piece,
            center: pose_b.translation,
            region: f.region,
            closest: pose_a.apply_point(f.local_closest),
            distance: f.distance,
        })
    });
    // Normal from A (the outline) towards B (the circle): the outward direction at the
    // closest feature. Depth: the radius minus the signed distance of the centre.
    PairPenetration {
        normal: pose_a.apply_vector(f.local_normal),
        depth: radius_b - f.distance,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::Pose;

    //  3 +-----+
    //    |     |     a 2x2 box around (1, 1)
    //    |  .  |
    //  0 +-----+
    //    0     2
    const BOX: [Vec2; 4] = [
        Vec2::new(0.0, 0.0),
        Vec2::new(2.0, 0.0),
        Vec2::new(2.0, 2.0),
        Vec2::new(0.0, 2.0),
    ];
    const BOX_NORMALS: [Vec2; 4] = [
        Vec2::new(0.0, -1.0),
        Vec2::new(1.0, 0.0),
        Vec2::new(0.0, 1.0),
        Vec2::new(-1.0, 0.0),
    ];

    fn view() -> ConvexView<'static> {
        ConvexView {
            vertices: &BOX,
            normals: &BOX_NORMALS,
            radius: 0.0,
            summary: None,
        }
    }

    #[test]
    fn centre_beyond_a_corner_is_in_the_vertex_region() {
        let f = closest_feature(&view(), Vec2::new(3.0, 3.0));
        assert_eq!(f.region, VoronoiRegion::Vertex(2));
        assert!((f.distance - 2f32.sqrt()).abs() < 1e-6);
    }

    #[test]
    fn centre_beside_an_edge_is_in_the_edge_region() {
        let f = closest_feature(&view(), Vec2::new(3.0, 1.0));
        assert_eq!(f.region, VoronoiRegion::Edge(1));
        assert_eq!(f.local_normal, Vec2::X);
        assert!((f.distance - 1.0).abs() < 1e-6);
    }

    #[test]
    fn centre_inside_reports_the_nearest_edge_and_a_negative_distance() {
        let f = closest_feature(&view(), Vec2::new(1.0, 0.25));
        assert_eq!(f.region, VoronoiRegion::Inside(0));
        assert!((f.distance + 0.25).abs() < 1e-6);
        assert_eq!(f.local_normal, -Vec2::Y);
    }

    #[test]
    fn circle_overlapping_box_edge_has_the_edge_normal() {
        let circle = ConvexView {
            vertices: &[Vec2::ZERO],
            normals: &[],
            radius: 0.5,
            summary: None,
        };
        let config = crate::narrow::NarrowConfig::default();
        let q = PieceQuery::new(
            view(),
            &Pose::IDENTITY,
            circle,
            &Pose::new(Vec2::new(2.3, 1.0), 0.0),
            1.0,
            &config,
        );
        let pen = penetration_outline_circle(&q, &mut None);
        assert_eq!(pen.normal, Vec2::X);
        assert!((pen.depth - 0.2).abs() < 1e-6);
    }

    #[test]
    fn point_in_polygon_handles_a_non_convex_u() {
        // +--+  +--+
        // |  |  |  |
        // |  +--+  |
        // +--------+
        let u = [
            Vec2::new(0.0, 0.0),
            Vec2::new(3.0, 0.0),
            Vec2::new(3.0, 3.0),
            Vec2::new(2.0, 3.0),
            Vec2::new(2.0, 1.0),
            Vec2::new(1.0, 1.0),
            Vec2::new(1.0, 3.0),
            Vec2::new(0.0, 3.0),
        ];
        assert!(contains_point(&u, Vec2::new(0.5, 2.0)));
        assert!(!contains_point(&u, Vec2::new(1.5, 2.0)));
        assert!(contains_point(&u, Vec2::new(1.5, 0.5)));
    }
}
