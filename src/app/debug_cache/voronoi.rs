//! The polygon–circle pairs whose Voronoi regions the debug layer shades (Ren and Xie's
//! circle test), each with the region of the polygon's outline that holds the circle's
//! centre, read from the narrow phase's trace.

use super::*;

/// A polygon and a circle near it, with the Voronoi region of the polygon's outline
/// that holds the circle's centre (from the narrow phase's trace).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct VoronoiPair {
    /// The polygon.
    pub polygon: BodyHandle,
    /// The circle.
    pub circle: BodyHandle,
    /// The region (vertex and edge indices of the whole outline).
    pub region: VoronoiRegion,
    /// Circle centre, world frame.
    pub center: Vec2,
    /// Closest point of the outline to the centre, world frame.
    pub closest: Vec2,
    /// Circle radius (m).
    pub radius: f32,
    /// Signed distance from the centre to the outline (negative inside).
    pub distance: f32,
    /// This is the focus pair.
    pub in_focus: bool,
}

/// Polygon–circle pairs shown at most (each shades a polygon's regions).
pub const MAX_VORONOI_PAIRS: usize = 24;

/// The Voronoi region of the whole outline of `polygon` holding `circle`'s centre, by
/// Fayzrakhmanov et al.'s (2015) narrow phase (which tests circles against whole outlines, exact for
/// non-convex ones too) with a trace.
pub fn voronoi_pair(world: &World, polygon: BodyHandle, circle: BodyHandle) -> Option<VoronoiPair> {
    let p = world.body(polygon)?;
    let c = world.body(circle)?;
    let Shape::Circle(disc) = c.shape() else { return None };
    if !matches!(p.shape(), Shape::Polygon(_)) {
        return None;
    }
    let mut trace = Trace::new();
    collide(
        p.shape(),
        &p.pose(),
        c.shape(),
        &c.pose(),
        Algorithm::NonConvexSat,
        &world.settings().narrow_config,
        Some(&mut trace),
    );
    trace.steps.iter().find_map(|s| match s {
        TraceStep::Voronoi(v) => Some(VoronoiPair {
            polygon,
            circle,
            region: v.region,
            center: v.center,
            closest: v.closest,
            radius: disc.radius(),
            distance: v.distance,
            in_focus: false,
        }),
        _ => None,
    })
}

/// The Voronoi region of the focus pair, when it is a polygon and a circle (either way
/// round).
pub fn focus_voronoi_pair(world: &World, focus: PairChoice) -> Option<VoronoiPair> {
    [(focus.a, focus.b), (focus.b, focus.a)]
        .into_iter()
        .find_map(|(p, c)| voronoi_pair(world, p, c))
        .map(|v| VoronoiPair { in_focus: true, ..v })
}

/// Every polygon–circle pair whose boxes, the circle's grown by its diameter, overlap
/// within `view`: the focus pair first, then the closest, at most [`MAX_VORONOI_PAIRS`].
pub fn voronoi_pairs(world: &World, view: &Aabb, focus: Option<PairChoice>) -> Vec<VoronoiPair> {
    let visible = |b: &Body| b.aabb().overlaps(view);
    let circles: Vec<(BodyHandle, Aabb)> = world
        .bodies()
        .iter()
        .filter(|(_, b)| matches!(b.shape(), Shape::Circle(_)) && visible(b))
        .map(|(h, b)| (h, b.aabb()))
        .collect();
    let polygons: Vec<(BodyHandle, Aabb)> = world
        .bodies()
        .iter()
        .filter(|(_, b)| matches!(b.shape(), Shape::Polygon(_)) && visible(b))
        .map(|(h, b)| (h, b.aabb()))
        .collect();
    let mut near: Vec<(f32, BodyHandle, BodyHandle)> = Vec::new();
    for (hc, bc) in &circles {
        let grown = bc.inflated(bc.max.x - bc.min.x);
        for (hp, bp) in &polygons {
            if grown.overlaps(bp) {
                near.push((aabb_gap(bc, bp), *hp, *hc));
            }
        }
    }
    near.sort_by(|x, y| x.0.total_cmp(&y.0));
    let focus_pair = focus.and_then(|f| focus_voronoi_pair(world, f));
    let mut out: Vec<VoronoiPair> = focus_pair.into_iter().collect();
    for (_, hp, hc) in near {
        if out.len() >= MAX_VORONOI_PAIRS {
            break;
        }
        if out.iter().any(|v| v.polygon == hp && v.circle == hc) {
            continue;
        }
        out.extend(voronoi_pair(world, hp, hc));
    }
    out
}
