//! Contact points by clipping the incident edge against the reference edge.
//!
//! The classic two-point manifold (Catto, "Contact Manifolds", GDC 2007; the same scheme
//! as dyn4j's and Box2D's polygon manifolds): of the two shapes, the *reference* edge is
//! the one whose normal is most parallel to the contact normal; the *incident* edge is
//! the other shape's edge most anti-parallel to it. The incident edge is clipped to the
//! slab between the reference edge's two side planes, and the clipped points that lie
//! below the reference face are the contact points. A stack of boxes needs both points:
//! one point per pair would let every box rock on its corner.
//!
//! Candidates are the two edges beside each shape's support vertex along the normal, so
//! the same code serves convex pieces, segments and whole non-convex outlines (for those
//! the support vertex is on the convex hull, which is what Fayzrakhmanov et al.'s (2015) whole-polygon
//! answer refers to).

use super::contact::{ContactId, ContactPoint, ContactPoints};
use super::query::PieceQuery;
use super::trace::{record, ClipStep, Owner, Trace, TraceStep};
use crate::geometry::ConvexView;
use crate::math::Vec2;

/// Of the (up to) two edges beside the support vertex along `local_direction`, the one
/// whose outward normal is most aligned with it: (edge index, alignment).
pub(crate) fn best_edge(view: &ConvexView, local_direction: Vec2) -> (usize, f32) {
    let n = view.vertices.len();
    let i = view.support_index(local_direction);
    let prev = (i + n - 1) % n;
    let d_next = view.normals[i].dot(local_direction);
    let d_prev = view.normals[prev].dot(local_direction);
    // Ties go to the edge leaving the support vertex, so the choice is deterministic.
    if d_prev > d_next {
        (prev, d_prev)
    } else {
        (i, d_next)
    }
}

/// Contact points of two shapes that penetrate by `depth` along `world_normal` (unit,
/// from A towards B). Circles (one vertex and a radius) give their deepest point;
/// polygons and segments are clipped.
pub(crate) fn contact_points(
    q: &PieceQuery,
    world_normal: Vec2,
    depth: f32,
    trace: &mut Option<&mut Trace>,
) -> ContactPoints {
    contact_points_within(q, world_normal, depth, 0.0, trace)
}

/// [`contact_points`], also keeping clipped points up to `max_separation` (m) above the
/// reference face: the speculative points of shapes still apart (`speculative.rs`;
/// `depth` is then minus the gap). With 0 it is the penetrating case.
pub(crate) fn contact_points_within(
    q: &PieceQuery,
    world_normal: Vec2,
    depth: f32,
    max_separation: f32,
    trace: &mut Option<&mut Trace>,
) -> ContactPoints {
    let (a, pose_a, b, pose_b, pieces) = (&q.a, &q.pose_a, &q.b, &q.pose_b, q.pieces);
    let id = ContactId::new(pieces.0, pieces.1, false, 0, 0);
    if b.radius > 0.0 || b.normals.is_empty() {
        // B's deepest point into A is its support point along −normal; the contact point
        // sits halfway to A's surface.
        let local = pose_b.apply_inv_vector(-world_normal);
        let deepest = pose_b.apply_point(b.vertices[b.support_index(local)]) - world_normal * b.radius;
        let mut points = ContactPoints::EMPTY;
        points.push(ContactPoint {
            point: deepest + world_normal * (0.5 * depth),
            depth,
            id,
        });
        return points;
    }
    if a.radius > 0.0 || a.normals.is_empty() {
        let local = pose_a.apply_inv_vector(world_normal);
        let deepest = pose_a.apply_point(a.vertices[a.support_index(local)]) + world_normal * a.radius;
        let mut points = ContactPoints::EMPTY;
        points.push(ContactPoint {
            point: deepest - world_normal * (0.5 * depth),
            depth,
            id,
        });
        return points;
    }

    // Everything below happens in A's frame (B placed by `xf_ab`), as on the fast polygon
    // path (`polygon_polygon.rs`) and in Box2D v3's `b2ClipPolygons`: A's vertices are
    // read as stored, and the side planes come from a reference edge whose ends are
    // rounded to ulps of the pair's own size, not of its distance from the world origin.
    // In the world frame the ends of a 0.15 mm reference edge 5 m from the origin are
    // rounded to ulps of 5 m (4.8e-7 m), which turns the side planes by up to ~3e-3 rad:
    // a point clipped 0.2 m above the face moved by up to 0.45 mm (the regression test
    // in `polygon_polygon/tests.rs`); in A's frame the two paths agree to rounding.
    let xf_ab = &q.xf_ab;
    let local_normal = pose_a.apply_inv_vector(world_normal);
    let (edge_a, align_a) = best_edge(a, local_normal);
    let (edge_b, align_b) = best_edge(b, xf_ab.apply_inv_vector(-local_normal));
    // Prefer A as the reference unless B's edge is clearly better aligned; the small
    // bias stops the reference from flipping between frames when both are nearly equal
    // (the "feature flip-flop" that makes stacks jitter).
    let reference_on_b = align_b > align_a + 1e-3;
    let vertex_in_a = |on_b: bool, k: usize| {
        if on_b {
            xf_ab.apply_point(b.vertices[k])
        } else {
            a.vertices[k]
        }
    };
    let (ref_view, ref_edge, inc_view, inc_edge) = if reference_on_b {
        (b, edge_b, a, edge_a)
    } else {
        (a, edge_a, b, edge_b)
    };
    let rn = ref_view.vertices.len();
    let r0 = vertex_in_a(reference_on_b, ref_edge);
    let r1 = vertex_in_a(reference_on_b, (ref_edge + 1) % rn);
    let ref_normal = if reference_on_b {
        xf_ab.apply_vector(b.normals[ref_edge])
    } else {
        a.normals[ref_edge]
    };
    let inn = inc_view.vertices.len();
    let inc_ids = [inc_edge, (inc_edge + 1) % inn];
    let i0 = vertex_in_a(!reference_on_b, inc_ids[0]);
    let i1 = vertex_in_a(!reference_on_b, inc_ids[1]);
    let edges = ClipEdges {
        reference: (r0, r1),
        reference_normal: ref_normal,
        incident: [(i0, inc_ids[0]), (i1, inc_ids[1])],
        ids: (pieces.0, pieces.1, reference_on_b, ref_edge),
    };
    let (points_in_a, clipped, count) = clip_incident(&edges, depth, max_separation);
    let mut points = ContactPoints::EMPTY;
    for p in points_in_a.as_slice() {
        points.push(ContactPoint {
            point: pose_a.apply_point(p.point),
            ..*p
        });
    }
    record(trace, || {
        let world = |p: Vec2| pose_a.apply_point(p);
        TraceStep::Clip(ClipStep {
            reference: if reference_on_b { Owner::B } else { Owner::A },
            reference_edge: (world(r0), world(r1)),
            incident_edge: (world(i0), world(i1)),
            clipped: clipped.iter().take(count).map(|c| world(c.0)).collect(),
            kept: points.as_slice().iter().map(|c| (c.point, c.depth)).collect(),
        })
    });
    points
}

/// The reference and incident edges of a clip, all in one frame (A's local frame, on
/// both [`contact_points_within`] and the fast polygon path, `polygon_polygon.rs`).
pub(crate) struct ClipEdges {
    /// The reference edge's ends, counter-clockwise on its shape.
    pub reference: (Vec2, Vec2),
    /// The reference edge's outward unit normal.
    pub reference_normal: Vec2,
    /// The incident edge's ends, each with its vertex index on the incident shape.
    pub incident: [(Vec2, usize); 2],
    /// Piece of A, piece of B, whether the reference edge is on B, its index: the
    /// contact ids' fixed part.
    pub ids: (usize, usize, bool, usize),
}

/// Clips the incident segment to the slab between the reference edge's side planes and
/// keeps the clipped points below the reference face (or up to `max_separation` above
/// it); with none kept, the incident edge's deeper end. Returns the points (in the
/// edges' frame) and the clipped segment (for the trace).
pub(crate) fn clip_incident(
    edges: &ClipEdges,
    depth: f32,
    max_separation: f32,
) -> (ContactPoints, [(Vec2, usize); 2], usize) {
    let (r0, r1) = edges.reference;
    let ref_normal = edges.reference_normal;
    let (piece_a, piece_b, reference_on_b, ref_edge) = edges.ids;
    let [(i0, id0), (i1, id1)] = edges.incident;
    let mut points = ContactPoints::EMPTY;

    // Clip the incident segment to the slab lo <= p·t <= hi between the side planes.
    let tangent = (r1 - r0).normalize_or_zero();
    let (lo, hi) = (r0.dot(tangent), r1.dot(tangent));
    let mut clipped = edges.incident;
    let mut count = 2;
    for (plane, sign) in [(lo, 1.0f32), (hi, -1.0f32)] {
        if count < 2 {
            break;
        }
        let d0 = sign * (clipped[0].0.dot(tangent) - plane);
        let d1 = sign * (clipped[1].0.dot(tangent) - plane);
        if d0 < 0.0 && d1 < 0.0 {
            count = 0;
        } else if d0 < 0.0 || d1 < 0.0 {
            // One end is outside: move it to where the segment crosses the plane.
            let t = d0 / (d0 - d1);
            let p = clipped[0].0 + (clipped[1].0 - clipped[0].0) * t;
            if d0 < 0.0 {
                clipped[0].0 = p;
            } else {
                clipped[1].0 = p;
            }
        }
    }

    let face = r0.dot(ref_normal);
    // Points a hair above the face still count: the depth itself was computed with the
    // same rounding, and dropping both points of a resting contact would be worse.
    let slop = 1e-4 * depth.abs().max((r1 - r0).length() * 1e-3) + max_separation.max(0.0);
    for &(p, vertex) in clipped.iter().take(count) {
        let separation = p.dot(ref_normal) - face;
        if separation <= slop {
            let point_depth = -separation;
            points.push(ContactPoint {
                point: p + ref_normal * (0.5 * point_depth),
                depth: point_depth,
                id: ContactId::new(piece_a, piece_b, reference_on_b, ref_edge, vertex),
            });
        }
    }
    if points.is_empty() {
        // Clipping found nothing below the face (a grazing or non-convex configuration):
        // fall back to the incident shape's deepest vertex.
        let (p, vertex) = if (i0 - r0).dot(ref_normal) < (i1 - r0).dot(ref_normal) {
            (i0, id0)
        } else {
            (i1, id1)
        };
        points.push(ContactPoint {
            point: p + ref_normal * (0.5 * depth),
            depth,
            id: ContactId::new(piece_a, piece_b, reference_on_b, ref_edge, vertex),
        });
    }
    (points, clipped, count)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::Pose;

    use super::super::test_rect as rect;

    //      +---+        box B (1x1) resting 0.1 deep on
    //  +---|---|---+    ground A (4x1)
    //  |   +---+   |
    //  +-----------+
    #[test]
    fn box_on_ground_gets_two_points_at_its_corners() {
        let ground = rect(4.0, 1.0);
        let bx = rect(1.0, 1.0);
        let config = crate::narrow::NarrowConfig::default();
        let pose_b = Pose::new(Vec2::new(0.0, 0.9), 0.0);
        let pts = contact_points(
            &PieceQuery::new(ground.piece(0), &Pose::IDENTITY, bx.piece(0), &pose_b, 1.0, &config),
            Vec2::Y,
            0.1,
            &mut None,
        );
        assert_eq!(pts.len(), 2);
        for p in pts.as_slice() {
            assert!((p.depth - 0.1).abs() < 1e-5);
            assert!((p.point.y - 0.45).abs() < 1e-5);
            assert!((p.point.x.abs() - 0.5).abs() < 1e-5);
        }
        assert_ne!(pts.as_slice()[0].id, pts.as_slice()[1].id);
    }

    #[test]
    fn tilted_box_corner_gives_one_point() {
        let ground = rect(4.0, 1.0);
        let bx = rect(1.0, 1.0);
        let config = crate::narrow::NarrowConfig::default();
        let half_diag = 0.5 * 2f32.sqrt();
        let pose_b = Pose::new(Vec2::new(0.0, 0.5 + half_diag - 0.05), std::f32::consts::FRAC_PI_4);
        let pts = contact_points(
            &PieceQuery::new(ground.piece(0), &Pose::IDENTITY, bx.piece(0), &pose_b, 1.0, &config),
            Vec2::Y,
            0.05,
            &mut None,
        );
        assert_eq!(pts.len(), 1);
        assert!(pts.as_slice()[0].point.x.abs() < 1e-4);
    }
}
