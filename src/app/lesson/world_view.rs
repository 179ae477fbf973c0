//! The world view of a lesson: A and B as they are posed, and on them what the current
//! step computes — the axis with both shadows, the edge it comes from, the support points
//! on A and on B, the circle's Voronoi region, the clipping lines, the contact points and
//! the minimum translation vector.

use super::paint::{
    arrow, begin_view, dashed, dot, draw_circle, draw_circle_lines, end_view, fill_convex, infinite_line, label, line,
    obstacle, outline, ring, vertex_name, view_polygon, voronoi_regions, Region,
};
use super::{colors, Drag, LessonMode};
use crate::app::camera::Camera;
use crate::geometry::Shape;
use crate::lesson::{fmt_num, StepState};
use crate::math::Vec2;
use crate::narrow::trace::{AxisSource, ClipStep, Owner, SatAxisStep, TraceStep, VoronoiRegion};
use crate::narrow::Algorithm;

/// Draws the world view at step `s`.
pub fn draw(mode: &LessonMode, s: &StepState) {
    let cam = &mode.world_camera;
    let rect = mode.layout.world;
    begin_view(rect, cam, "World: A and B");
    if let Some(v) = &s.voronoi {
        draw_voronoi(mode, v);
    }
    for owner in [Owner::A, Owner::B] {
        draw_shape(mode, owner, s.algorithm);
    }
    if let Some(axis) = &s.current_axis {
        draw_axis(mode, axis, s);
    }
    if let Some(TraceStep::EdgeTest(e)) = mode.player.step() {
        let va = mode.lesson.world_vertices(Owner::A);
        if let (Some(&p), Some(&q)) = (va.get(e.edge), va.get((e.edge + 1) % va.len().max(1))) {
            line(cam, p, q, 5.0, colors::SIMPLEX);
            label(
                cam,
                (p + q) * 0.5,
                Vec2::new(8.0, -8.0),
                "does this edge reach B?",
                colors::SIMPLEX,
            );
        }
    }
    draw_supports(mode, s);
    if let Some(clip) = s.clips.last() {
        draw_clip(cam, rect, clip, s.result.is_none());
    }
    if let Some(r) = &s.result {
        for &p in &r.points {
            dot(cam, p, 6.0, colors::CONTACT);
        }
        if r.intersect && r.depth > 0.0 {
            let from = mode.lesson.pose(Owner::A).translation;
            arrow(cam, from, r.mtv, 3.5, colors::HIGHLIGHT);
            label(
                cam,
                from + r.mtv,
                Vec2::new(8.0, 18.0),
                &format!("MTV: move A by {} m", fmt_num(r.depth)),
                colors::HIGHLIGHT,
            );
        }
    }
    if let Some(h) = mode.hovered_minkowski {
        if let Some(sp) = mode
            .minkowski
            .pieces
            .get(h.piece)
            .and_then(|p| p.vertices.get(h.vertex))
        {
            dashed(cam, sp.b, sp.a, 1.5, 5.0, colors::MINKOWSKI);
            ring(cam, sp.a, 11.0, 3.0, colors::TEXT);
            ring(cam, sp.b, 11.0, 3.0, colors::TEXT);
        }
    }
    draw_handles(mode);
    super::predict::draw(mode, crate::lesson::PredictView::World);
    end_view(rect);
}

fn piece_world(mode: &LessonMode, owner: Owner, piece: usize, algorithm: Option<Algorithm>) -> Vec<Vec2> {
    let shape = mode.lesson.shape(owner);
    let pose = mode.lesson.pose(owner);
    let view = if algorithm == Some(Algorithm::NonConvexSat) || piece >= shape.piece_count() {
        shape.whole()
    } else {
        shape.piece(piece)
    };
    view.vertices.iter().map(|v| pose.apply_point(*v)).collect()
}

fn draw_shape(mode: &LessonMode, owner: Owner, algorithm: Option<Algorithm>) {
    let cam = &mode.world_camera;
    let color = colors::of(owner);
    let shape = mode.lesson.shape(owner);
    let pose = mode.lesson.pose(owner);
    let highlighted =
        mode.hovered_body == Some(owner) || matches!(mode.drag, Some(Drag::Body { owner: o, .. }) if o == owner);
    let fill = colors::alpha(color, if highlighted { 0.42 } else { 0.28 });
    match shape {
        Shape::Circle(c) => {
            let p = cam.world_to_screen(pose.translation);
            let r = cam.length_to_screen(c.radius());
            draw_circle(p.x, p.y, r, fill);
            draw_circle_lines(p.x, p.y, r, 2.5, color);
            line(
                cam,
                pose.translation,
                pose.apply_point(Vec2::new(c.radius(), 0.0)),
                1.5,
                colors::alpha(color, 0.7),
            );
        }
        Shape::Segment(_) => {
            let v = mode.lesson.world_vertices(owner);
            if v.len() == 2 {
                line(cam, v[0], v[1], 5.0, color);
            }
        }
        Shape::Polygon(_) => {
            let pieces = shape.piece_count();
            for i in 0..pieces {
                let piece: Vec<Vec2> = shape.piece(i).vertices.iter().map(|v| pose.apply_point(*v)).collect();
                fill_convex(cam, &piece, fill);
                // The decomposed algorithms work piece by piece: show the cuts.
                if pieces > 1 && algorithm != Some(Algorithm::NonConvexSat) {
                    outline(cam, &piece, 1.0, colors::alpha(color, 0.55));
                }
            }
            outline(cam, &mode.lesson.world_vertices(owner), 2.5, color);
        }
    }
    // Side by side when the two origins coincide.
    let (name, offset) = match owner {
        Owner::A => ("A", Vec2::new(-16.0, 6.0)),
        Owner::B => ("B", Vec2::new(6.0, 6.0)),
    };
    label(cam, pose.translation, offset, name, color);
}

/// The current axis, drawn beside the shapes, with A's and B's shadows on it and the
/// gap or the overlap between them.
fn draw_axis(mode: &LessonMode, axis: &SatAxisStep, s: &StepState) {
    let cam = &mode.world_camera;
    let rect = mode.layout.world;
    let d = axis.axis.try_normalize().unwrap_or(Vec2::X);
    let perp = Vec2::new(-d.y, d.x);
    // The line runs beside both shapes, on the side nearer the view's centre.
    let mut points = mode.lesson.world_vertices(Owner::A);
    points.extend(mode.lesson.world_vertices(Owner::B));
    for owner in [Owner::A, Owner::B] {
        if let Shape::Circle(c) = mode.lesson.shape(owner) {
            let p = mode.lesson.pose(owner).translation;
            points.extend([p + perp * c.radius(), p - perp * c.radius()]);
        }
    }
    let (lo, hi) = points.iter().fold((f32::INFINITY, f32::NEG_INFINITY), |(lo, hi), p| {
        (lo.min(p.dot(perp)), hi.max(p.dot(perp)))
    });
    let gap = cam.length_to_world(34.0);
    let centre = cam.screen_to_world((rect.min + rect.max) * 0.5).dot(perp);
    let below = lo - gap;
    let above = hi + gap;
    let offset = if (below - centre).abs() < (above - centre).abs() {
        below
    } else {
        above
    };
    let at = |t: f32| d * t + perp * offset;
    infinite_line(cam, rect, at(0.0), d, 1.5, colors::alpha(colors::DIRECTION, 0.8));
    // Where each shadow comes from: its extreme points, projected.
    for (owner, interval) in [(Owner::A, axis.interval_a), (Owner::B, axis.interval_b)] {
        let color = colors::of(owner);
        let shift = cam.length_to_world(if owner == Owner::A { 5.0 } else { -5.0 });
        let (p, q) = (at(interval.0) + perp * shift, at(interval.1) + perp * shift);
        line(cam, p, q, 6.0, color);
        for v in extreme_points(mode, owner, d, interval) {
            dashed(cam, v, at(v.dot(d)), 1.0, 4.0, colors::alpha(color, 0.55));
        }
    }
    // The gap (green) or the overlap (red) between them.
    let (g0, g1) = if axis.interval_a.1 <= axis.interval_b.0 || axis.interval_b.1 < axis.interval_a.0 {
        if axis.interval_a.1 <= axis.interval_b.0 {
            (axis.interval_a.1, axis.interval_b.0)
        } else {
            (axis.interval_b.1, axis.interval_a.0)
        }
    } else {
        (
            axis.interval_a.0.max(axis.interval_b.0),
            axis.interval_a.1.min(axis.interval_b.1),
        )
    };
    let separating = axis.gap > 0.0;
    let c = if separating {
        macroquad::prelude::Color::new(0.35, 0.9, 0.45, 1.0)
    } else {
        colors::HIGHLIGHT
    };
    let across = perp * cam.length_to_world(12.0);
    line(cam, at(g0) - across, at(g0) + across, 2.0, c);
    line(cam, at(g1) - across, at(g1) + across, 2.0, c);
    let text = if separating {
        format!("gap {} — a separating axis", fmt_num(axis.gap))
    } else {
        format!("overlap {}", fmt_num(-axis.gap))
    };
    let side = if offset < centre { 26.0 } else { -16.0 };
    label(cam, at((g0 + g1) * 0.5), Vec2::new(-30.0, side), &text, c);
    // The edge the axis is the normal of.
    if let AxisSource::Edge { owner, piece, edge } = axis.source {
        let verts = piece_world(mode, owner, piece, s.algorithm);
        if verts.len() >= 2 {
            let (p, q) = (verts[edge % verts.len()], verts[(edge + 1) % verts.len()]);
            line(cam, p, q, 5.0, colors::DIRECTION);
            let mid = (p + q) * 0.5;
            arrow(cam, mid, d * cam.length_to_world(36.0), 2.0, colors::DIRECTION);
            label(
                cam,
                mid + d * cam.length_to_world(40.0),
                Vec2::new(4.0, 0.0),
                "axis",
                colors::DIRECTION,
            );
        }
    }
}

/// The points of `owner` that project to the ends of `interval` on `d`.
fn extreme_points(mode: &LessonMode, owner: Owner, d: Vec2, interval: (f32, f32)) -> Vec<Vec2> {
    match mode.lesson.shape(owner) {
        Shape::Circle(c) => {
            let p = mode.lesson.pose(owner).translation;
            vec![p - d * c.radius(), p + d * c.radius()]
        }
        _ => {
            let verts = mode.lesson.world_vertices(owner);
            let tol = 1e-4 * (1.0 + interval.1.abs().max(interval.0.abs()));
            verts
                .into_iter()
                .filter(|v| (v.dot(d) - interval.0).abs() <= tol || (v.dot(d) - interval.1).abs() <= tol)
                .collect()
        }
    }
}

/// GJK's and EPA's support points on A and on B, the simplex's sources, and GJK's
/// closest points when the shapes are apart.
fn draw_supports(mode: &LessonMode, s: &StepState) {
    let cam = &mode.world_camera;
    let mut support = None;
    let mut direction = None;
    // The sources of the simplex's (or the polytope's) corners: rings on A and on B.
    let corners = match (&s.epa, &s.gjk) {
        (Some(e), _) => e.polytope.as_slice(),
        (None, Some(g)) => g.simplex.as_slice(),
        _ => &[],
    };
    for sp in corners {
        ring(cam, sp.a, 7.0, 2.0, colors::A);
        ring(cam, sp.b, 7.0, 2.0, colors::B);
    }
    if let Some(g) = &s.gjk {
        if g.end.is_none() {
            support = g.support;
            direction = g.direction;
        }
        if let Some(end) = &g.end {
            if end.distance > 0.0 {
                dashed(cam, end.point_a, end.point_b, 2.0, 5.0, colors::SIMPLEX);
                dot(cam, end.point_a, 5.0, colors::A);
                dot(cam, end.point_b, 5.0, colors::B);
                label(
                    cam,
                    (end.point_a + end.point_b) * 0.5,
                    Vec2::new(8.0, -8.0),
                    &format!("distance {}", fmt_num(end.distance)),
                    colors::SIMPLEX,
                );
            }
        }
    }
    if let Some(e) = &s.epa {
        if e.end.is_none() {
            support = e.support.or(support);
            direction = e.normal.or(direction);
        }
    }
    if let Some(sp) = support {
        dot(cam, sp.a, 7.0, colors::A);
        dot(cam, sp.b, 7.0, colors::B);
        if let Some(d) = direction.and_then(Vec2::try_normalize) {
            let len = cam.length_to_world(40.0);
            arrow(cam, sp.a, d * len, 2.0, colors::A);
            arrow(cam, sp.b, -d * len, 2.0, colors::B);
            label(
                cam,
                sp.a + d * len,
                Vec2::new(4.0, -16.0),
                &format!("{}: farthest along d", vertex_name(Owner::A, sp.index_a)),
                colors::A,
            );
            label(
                cam,
                sp.b - d * len,
                Vec2::new(4.0, 26.0),
                &format!("{}: farthest along -d", vertex_name(Owner::B, sp.index_b)),
                colors::B,
            );
        }
    }
}

/// The circle's Voronoi region on the polygon, shaded, and the centre's nearest point.
fn draw_voronoi(mode: &LessonMode, v: &crate::narrow::trace::VoronoiStep) {
    let cam = &mode.world_camera;
    let polygon_owner = [Owner::A, Owner::B]
        .into_iter()
        .find(|&o| !matches!(mode.lesson.shape(o), Shape::Circle(_)));
    if let Some(owner) = polygon_owner {
        let verts = piece_world(mode, owner, v.piece, Some(Algorithm::SatDecomposed));
        let view = view_polygon(cam, mode.layout.world);
        let found = match v.region {
            VoronoiRegion::Vertex(i) => Region::Vertex(i),
            VoronoiRegion::Edge(i) => Region::Edge(i),
            VoronoiRegion::Inside(_) => Region::Inside,
        };
        for (kind, poly) in voronoi_regions(&verts, &view) {
            let (alpha, edge_alpha) = if kind == found { (0.22, 0.8) } else { (0.0, 0.18) };
            if kind == Region::Inside {
                continue;
            }
            if alpha > 0.0 {
                fill_convex(cam, &poly, colors::alpha(colors::DIRECTION, alpha));
            }
            outline(cam, &poly, 1.0, colors::alpha(colors::DIRECTION, edge_alpha));
        }
    }
    dashed(cam, v.center, v.closest, 2.0, 4.0, colors::TEXT);
    dot(cam, v.closest, 5.0, colors::TEXT);
    let what = match v.region {
        VoronoiRegion::Vertex(i) => format!("centre in the region of vertex {i}"),
        VoronoiRegion::Edge(i) => format!("centre in the region of edge {i}"),
        VoronoiRegion::Inside(i) => format!("centre inside, nearest edge {i}"),
    };
    label(cam, v.closest, Vec2::new(8.0, -10.0), &what, colors::TEXT);
}

/// The reference edge, its side planes (dashed), the incident edge, the points kept;
/// named while the clipping is the news (`with_labels`), unnamed under the answer.
fn draw_clip(cam: &Camera, rect: super::Rect, clip: &ClipStep, with_labels: bool) {
    let (r0, r1) = clip.reference_edge;
    let (i0, i1) = clip.incident_edge;
    let ref_color = colors::of(clip.reference);
    let inc_color = colors::of(match clip.reference {
        Owner::A => Owner::B,
        Owner::B => Owner::A,
    });
    let e = (r1 - r0).try_normalize().unwrap_or(Vec2::X);
    let n = Vec2::new(e.y, -e.x);
    let faint = colors::alpha(colors::TEXT, 0.45);
    for p in [r0, r1] {
        // A side plane: through an end of the reference edge, across it.
        let reach = cam.length_to_world(rect.size().length());
        dashed(cam, p - n * reach, p + n * reach, 1.2, 6.0, faint);
    }
    let reach = cam.length_to_world(rect.size().length());
    dashed(
        cam,
        r0 - e * reach,
        r1 + e * reach,
        1.2,
        3.0,
        colors::alpha(ref_color, 0.6),
    );
    line(cam, r0, r1, 5.0, ref_color);
    line(cam, i0, i1, 3.0, inc_color);
    // The two names on opposite sides of the reference face, so they do not overlap.
    let toward_incident = {
        let s = cam.world_to_screen((i0 + i1) * 0.5) - cam.world_to_screen((r0 + r1) * 0.5);
        let n_px = Vec2::new(n.x, -n.y);
        if s.dot(n_px) >= 0.0 {
            n_px
        } else {
            -n_px
        }
    };
    if with_labels {
        label(
            cam,
            (r0 + r1) * 0.5,
            -toward_incident * 28.0 + Vec2::new(-40.0, 6.0),
            "reference edge",
            ref_color,
        );
        label(
            cam,
            (i0 + i1) * 0.5,
            toward_incident * 28.0 + Vec2::new(-40.0, 6.0),
            "incident edge",
            inc_color,
        );
    }
    for &p in &clip.clipped {
        ring(cam, p, 6.0, 2.0, colors::TEXT);
    }
    for &(p, depth) in &clip.kept {
        dot(cam, p, 6.0, colors::CONTACT);
        if with_labels {
            label(
                cam,
                p,
                Vec2::new(8.0, 16.0),
                &format!("depth {}", fmt_num(depth)),
                colors::CONTACT,
            );
        }
    }
}

/// Grab handles on polygon vertices, named a0, a1, … and b0, b1, …
fn draw_handles(mode: &LessonMode) {
    let cam = &mode.world_camera;
    for owner in [Owner::A, Owner::B] {
        if !matches!(mode.lesson.shape(owner), Shape::Polygon(_)) {
            continue;
        }
        let color = colors::of(owner);
        let verts = mode.lesson.world_vertices(owner);
        let centre = verts.iter().copied().sum::<Vec2>() / verts.len().max(1) as f32;
        for (i, &v) in verts.iter().enumerate() {
            let active = mode.hovered_vertex == Some((owner, i)) || mode.drag == Some(Drag::Vertex { owner, index: i });
            let p = cam.world_to_screen(v);
            draw_circle(p.x, p.y, if active { 7.0 } else { 4.0 }, colors::alpha(color, 0.95));
            draw_circle_lines(p.x, p.y, if active { 9.0 } else { 5.5 }, 1.5, colors::TEXT);
            obstacle(p, if active { 9.0 } else { 6.0 });
            // The name goes outside the shape.
            let out = cam.world_to_screen(v) - cam.world_to_screen(centre);
            let out = out.try_normalize().unwrap_or(Vec2::X) * 14.0;
            label(cam, v, out + Vec2::new(-8.0, 6.0), &vertex_name(owner, i), color);
        }
    }
}
