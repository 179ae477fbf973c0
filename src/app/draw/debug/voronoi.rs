//! Voronoi regions of a polygon near a circle (Ren and Xie 2011).
//!
//! Outside a convex polygon the plane splits into one region per feature: a strip
//! straight out from each edge (points whose nearest feature is that edge's interior)
//! and a wedge at each vertex between its two edge normals (points nearest that vertex).
//! Which region holds the circle's centre decides the test: an edge region means the
//! edge normal, a vertex region the centre-to-vertex line. The narrow phase records the
//! region it found in its trace; this layer shades every region, clipped to a radius
//! around the polygon so they do not flood the view, and lights up that one.
//!
//! ```text
//!        vertex │ edge 2  │ vertex
//!        wedge  │ strip   │ wedge
//!       ────────┼─────────┼────────
//!       edge 3  │ polygon │ edge 1
//!       ────────┼─────────┼────────
//! ```
//!
//! At a reflex vertex of a non-convex outline the two normals cross: it has no wedge
//! (nothing outside is nearest to it), and neighbouring strips overlap.

use super::super::super::state::AppState;
use super::{label_world, palette};
use crate::app::debug_cache::VoronoiPair;
use crate::app::draw::colors::with_alpha;
use crate::app::draw::{fill_convex, line, outline};
use crate::dynamics::BodyHandle;
use crate::math::{cross, Vec2};
use crate::narrow::trace::VoronoiRegion;
use macroquad::prelude::{draw_circle, Color};

/// One region, clipped, as a convex polygon (world frame, counter-clockwise).
#[derive(Clone, Debug, PartialEq)]
pub struct RegionShape {
    /// Which feature's region.
    pub region: VoronoiRegion,
    /// Its clipped outline.
    pub points: Vec<Vec2>,
}

/// Outward unit normal of the edge from `a` to `b` of a counter-clockwise polygon.
fn edge_normal(a: Vec2, b: Vec2) -> Vec2 {
    let e = b - a;
    Vec2::new(e.y, -e.x).normalize_or_zero()
}

/// Largest angle (rad) of one arc step of a wedge.
const ARC_STEP: f32 = std::f32::consts::PI / 16.0;

/// The outside Voronoi regions of the counter-clockwise polygon `vertices` (world
/// frame): a strip per edge and a wedge per convex vertex, each reaching `reach` metres
/// out. Edge `i` runs from vertex `i` to `i + 1`, as in the narrow phase's trace.
pub fn voronoi_regions(vertices: &[Vec2], reach: f32) -> Vec<RegionShape> {
    let n = vertices.len();
    if n < 3 {
        return Vec::new();
    }
    let normals: Vec<Vec2> = (0..n)
        .map(|i| edge_normal(vertices[i], vertices[(i + 1) % n]))
        .collect();
    let mut out = Vec::with_capacity(2 * n);
    for i in 0..n {
        let (a, b) = (vertices[i], vertices[(i + 1) % n]);
        let nn = normals[i] * reach;
        out.push(RegionShape {
            region: VoronoiRegion::Edge(i),
            points: vec![a, a + nn, b + nn, b],
        });
    }
    for i in 0..n {
        let before = normals[(i + n - 1) % n];
        let after = normals[i];
        let turn = cross(before, after).atan2(before.dot(after));
        if turn <= 1e-6 {
            // A reflex (or straight) vertex: no outside point is nearest to it.
            continue;
        }
        let v = vertices[i];
        let steps = (turn / ARC_STEP).ceil().max(1.0) as usize;
        let start = before.y.atan2(before.x);
        let mut points = vec![v];
        for k in 0..=steps {
            let t = start + turn * k as f32 / steps as f32;
            points.push(v + Vec2::new(t.cos(), t.sin()) * reach);
        }
        out.push(RegionShape {
            region: VoronoiRegion::Vertex(i),
            points,
        });
    }
    out
}

/// The region of the convex counter-clockwise polygon `vertices` that holds `p`: the
/// reference the drawing is checked against (the narrow phase's own answer comes from
/// its trace).
pub fn region_of(vertices: &[Vec2], p: Vec2) -> VoronoiRegion {
    let n = vertices.len();
    let mut nearest_inside = (f32::NEG_INFINITY, 0);
    let mut outside = false;
    for i in 0..n {
        let (a, b) = (vertices[i], vertices[(i + 1) % n]);
        let d = edge_normal(a, b).dot(p - a);
        if d > 0.0 {
            outside = true;
        }
        if d > nearest_inside.0 {
            nearest_inside = (d, i);
        }
    }
    if !outside {
        return VoronoiRegion::Inside(nearest_inside.1);
    }
    for i in 0..n {
        let (a, b) = (vertices[i], vertices[(i + 1) % n]);
        let e = b - a;
        let t = (p - a).dot(e);
        if edge_normal(a, b).dot(p - a) > 0.0 && t >= 0.0 && t <= e.length_squared() {
            return VoronoiRegion::Edge(i);
        }
    }
    // Not beside any edge: nearest to a vertex.
    let (i, _) = vertices
        .iter()
        .enumerate()
        .map(|(i, v)| (i, (p - *v).length_squared()))
        .fold((0, f32::INFINITY), |best, x| if x.1 < best.1 { x } else { best });
    VoronoiRegion::Vertex(i)
}

/// How far a polygon's regions reach for the circles near it: past the farthest
/// centre by the circle's diameter, and at least three radii.
fn reach_for(pairs: &[&VoronoiPair]) -> f32 {
    pairs
        .iter()
        .map(|v| (v.distance.max(0.0) + 2.0 * v.radius).max(3.0 * v.radius))
        .fold(0.0, f32::max)
}

/// A region's name for its label.
pub fn describe_region(region: VoronoiRegion) -> String {
    match region {
        VoronoiRegion::Vertex(i) => format!("vertex {i} region: centre-to-vertex test"),
        VoronoiRegion::Edge(i) => format!("edge {i} region: edge normal"),
        VoronoiRegion::Inside(i) => format!("centre inside, nearest edge {i}"),
    }
}

/// Shades the regions of every polygon near a circle and lights up each circle's.
pub fn draw_voronoi(state: &AppState) {
    let cam = &state.camera;
    let pairs = &state.debug_cache.voronoi;
    let mut polygons: Vec<BodyHandle> = pairs.iter().map(|v| v.polygon).collect();
    polygons.dedup();
    polygons.sort_by_key(|h| (h.index, h.generation));
    polygons.dedup();
    let edge_fill = Color::new(0.25, 0.75, 0.85, 0.10);
    let vertex_fill = Color::new(0.75, 0.45, 0.95, 0.12);
    let hot = Color::new(1.0, 0.85, 0.3, 1.0);
    for handle in polygons {
        let Some(body) = state.world.body(handle) else { continue };
        let pose = body.pose();
        let world: Vec<Vec2> = body
            .shape()
            .whole()
            .vertices
            .iter()
            .map(|v| pose.apply_point(*v))
            .collect();
        let mine: Vec<&VoronoiPair> = pairs.iter().filter(|v| v.polygon == handle).collect();
        let regions = voronoi_regions(&world, reach_for(&mine));
        for r in &regions {
            let fill = match r.region {
                VoronoiRegion::Vertex(_) => vertex_fill,
                _ => edge_fill,
            };
            fill_convex(cam, &r.points, fill);
            outline(cam, &r.points, 1.0, with_alpha(fill, 0.35));
        }
        for v in &mine {
            match v.region {
                VoronoiRegion::Inside(i) => {
                    // Inside, the whole outline is lit and its nearest edge most.
                    outline(cam, &world, 3.0, with_alpha(hot, 0.4));
                    let (a, b) = (world[i], world[(i + 1) % world.len()]);
                    line(cam, a, b, 4.0, hot);
                }
                region => {
                    if let Some(r) = regions.iter().find(|r| r.region == region) {
                        fill_convex(cam, &r.points, with_alpha(hot, if v.in_focus { 0.38 } else { 0.25 }));
                        outline(cam, &r.points, 2.0, with_alpha(hot, 0.9));
                    }
                }
            }
            // The centre, the closest point, and the line between them.
            line(cam, v.center, v.closest, 1.5, hot);
            let c = cam.world_to_screen(v.center);
            draw_circle(c.x, c.y, 3.5, hot);
            let q = cam.world_to_screen(v.closest);
            draw_circle(q.x, q.y, 3.5, palette::TEXT);
            if v.in_focus || pairs.len() <= 6 {
                let up = Vec2::new(0.0, -cam.length_to_screen(v.radius) - 14.0);
                label_world(state, v.center, up, &describe_region(v.region), hot);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The square [0,2]², counter-clockwise from the origin: edge 0 is the bottom,
    /// edge 1 the right side, vertex 2 the top-right corner.
    fn square() -> Vec<Vec2> {
        vec![
            Vec2::new(0.0, 0.0),
            Vec2::new(2.0, 0.0),
            Vec2::new(2.0, 2.0),
            Vec2::new(0.0, 2.0),
        ]
    }

    fn contains_convex(points: &[Vec2], p: Vec2) -> bool {
        (0..points.len()).all(|i| cross(points[(i + 1) % points.len()] - points[i], p - points[i]) >= -1e-5)
    }

    #[test]
    fn a_square_has_four_strips_and_four_wedges() {
        let regions = voronoi_regions(&square(), 1.0);
        assert_eq!(regions.len(), 8);
        assert_eq!(
            regions
                .iter()
                .filter(|r| matches!(r.region, VoronoiRegion::Vertex(_)))
                .count(),
            4
        );
    }

    #[test]
    fn each_test_point_lies_in_the_region_that_holds_it() {
        let sq = square();
        let regions = voronoi_regions(&sq, 3.0);
        for (p, expected) in [
            (Vec2::new(1.0, -0.5), VoronoiRegion::Edge(0)),
            (Vec2::new(2.5, 1.0), VoronoiRegion::Edge(1)),
            (Vec2::new(2.5, 2.5), VoronoiRegion::Vertex(2)),
            (Vec2::new(-0.5, -0.1), VoronoiRegion::Vertex(0)),
            (Vec2::new(-1.0, 1.9), VoronoiRegion::Edge(3)),
            (Vec2::new(1.0, 1.8), VoronoiRegion::Inside(2)),
        ] {
            assert_eq!(region_of(&sq, p), expected, "{p}");
            let holding: Vec<VoronoiRegion> = regions
                .iter()
                .filter(|r| contains_convex(&r.points, p))
                .map(|r| r.region)
                .collect();
            match expected {
                VoronoiRegion::Inside(_) => assert!(holding.is_empty(), "{p}: {holding:?}"),
                _ => assert_eq!(holding, vec![expected], "{p}"),
            }
        }
    }

    #[test]
    fn the_drawn_wedges_are_convex_and_counter_clockwise() {
        for r in voronoi_regions(&square(), 1.0) {
            let p = &r.points;
            for i in 0..p.len() {
                let (a, b, c) = (p[i], p[(i + 1) % p.len()], p[(i + 2) % p.len()]);
                assert!(cross(b - a, c - b) >= -1e-5, "{:?}", r.region);
            }
        }
    }

    #[test]
    fn a_reflex_vertex_has_no_wedge() {
        // An L: vertex 3 at (1,1) is reflex.
        let l = [
            Vec2::new(0.0, 0.0),
            Vec2::new(2.0, 0.0),
            Vec2::new(2.0, 1.0),
            Vec2::new(1.0, 1.0),
            Vec2::new(1.0, 2.0),
            Vec2::new(0.0, 2.0),
        ];
        let regions = voronoi_regions(&l, 1.0);
        assert!(!regions.iter().any(|r| r.region == VoronoiRegion::Vertex(3)));
        assert_eq!(regions.len(), 6 + 5);
    }
}
