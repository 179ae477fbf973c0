//! The Minkowski view: A − B, the set of every a − b. The shapes overlap exactly when it
//! holds the origin, which is what GJK asks without building it; here it is built (from
//! the lesson's vertex pairs) so the student can see the question.
//!
//! Drawn: the hull of each piece pair's difference, the origin, GJK's simplex (filled)
//! with the Voronoi regions of its features shaded (the region holding the origin decides
//! which corners are kept), the search direction as an arrow from the origin, the new
//! support point w, EPA's polytope with its closest edge, and the answer. Hovering a
//! vertex shows the pair (a_i, b_j) it is the difference of.

use super::paint::{
    arrow, begin_view, convex_contains, dashed, dot, draw_circle_lines, draw_line, end_view, fill_convex, label,
    label_px, line, origin_mark, outline, ring, vertex_name, view_polygon, voronoi_regions, Region,
};
use super::{colors, LessonMode};
use crate::lesson::{fmt_num, GjkView, StepState};
use crate::math::Vec2;
use crate::narrow::trace::{Owner, SupportPoint};
use macroquad::prelude::Color;

/// Draws the Minkowski view at step `s`.
pub fn draw(mode: &LessonMode, s: &StepState) {
    let cam = &mode.minkowski_camera;
    let rect = mode.layout.minkowski;
    begin_view(rect, cam, "Minkowski difference A − B");
    let current_pair = s.piece_pair;
    for (k, piece) in mode.minkowski.pieces.iter().enumerate() {
        let points: Vec<Vec2> = piece.vertices.iter().map(|v| v.point).collect();
        let active = current_pair.is_none_or(|(a, b)| (a, b) == (piece.piece_a, piece.piece_b));
        let alpha = if active { 0.20 } else { 0.07 };
        fill_convex(cam, &points, colors::alpha(colors::MINKOWSKI, alpha));
        outline(
            cam,
            &points,
            if active { 2.0 } else { 1.0 },
            colors::alpha(colors::MINKOWSKI, 0.9),
        );
        if piece.radius > 0.0 {
            // Rounded by a circle's radius: every edge moves out by it, every vertex
            // grows a disc.
            for (i, &p) in points.iter().enumerate() {
                let q = points[(i + 1) % points.len()];
                if points.len() >= 2 {
                    let n = crate::math::right_perp(q - p).normalize_or_zero() * piece.radius;
                    line(cam, p + n, q + n, 2.0, colors::alpha(colors::MINKOWSKI, 0.9));
                }
            }
            for p in &points {
                let c = cam.world_to_screen(*p);
                draw_circle_lines(
                    c.x,
                    c.y,
                    cam.length_to_screen(piece.radius),
                    1.0,
                    colors::alpha(colors::MINKOWSKI, 0.6),
                );
            }
        }
        for (i, v) in piece.vertices.iter().enumerate() {
            let hovered = mode.hovered_minkowski.is_some_and(|h| h.piece == k && h.vertex == i);
            dot(cam, v.point, if hovered { 6.0 } else { 3.0 }, colors::MINKOWSKI);
        }
    }
    if let Some(axis) = &s.current_axis {
        draw_sat_band(mode, axis);
    }
    // EPA starts from GJK's last simplex and replaces it.
    if let (Some(g), None) = (&s.gjk, &s.epa) {
        draw_gjk(mode, g);
    }
    if let Some(e) = &s.epa {
        let poly: Vec<Vec2> = e.polytope.iter().map(|v| v.point).collect();
        fill_convex(cam, &poly, colors::alpha(EPA, 0.22));
        outline(cam, &poly, 2.0, EPA);
        for v in &poly {
            dot(cam, *v, 4.0, EPA);
        }
        if let (Some(i), Some(n), Some(d), false) = (e.closest_edge, e.normal, e.distance, poly.is_empty()) {
            let (p, q) = (poly[i % poly.len()], poly[(i + 1) % poly.len()]);
            line(cam, p, q, 5.0, colors::HIGHLIGHT);
            arrow(cam, Vec2::ZERO, n * d, 2.5, colors::HIGHLIGHT);
            // Once EPA has answered, the answer's own label says it.
            if e.end.is_none() {
                label(
                    cam,
                    n * d,
                    Vec2::new(8.0, 18.0),
                    &format!("closest edge, {} from O", fmt_num(d)),
                    colors::HIGHLIGHT,
                );
            }
        }
        if let (Some(sp), None) = (e.support, &e.end) {
            dot(cam, sp.point, 7.0, colors::TEXT);
            label(cam, sp.point, Vec2::new(9.0, -8.0), &pair_name("w", &sp), colors::TEXT);
        }
    }
    if let Some(r) = &s.result {
        if r.intersect && r.depth > 0.0 {
            // The nearest point of the boundary: moving A by the MTV brings it to O.
            let p = r.normal * r.depth;
            arrow(cam, Vec2::ZERO, p, 3.0, colors::HIGHLIGHT);
            dot(cam, p, 5.0, colors::HIGHLIGHT);
            label(
                cam,
                p,
                Vec2::new(8.0, -10.0),
                &format!("depth {}", fmt_num(r.depth)),
                colors::HIGHLIGHT,
            );
        }
    }
    draw_origin(mode);
    if let Some(h) = mode.hovered_minkowski {
        if let Some(sp) = mode
            .minkowski
            .pieces
            .get(h.piece)
            .and_then(|p| p.vertices.get(h.vertex))
        {
            ring(cam, sp.point, 10.0, 2.5, colors::TEXT);
            label(
                cam,
                sp.point,
                Vec2::new(12.0, -12.0),
                &format!(
                    "{} - {}",
                    vertex_name(Owner::A, sp.index_a),
                    vertex_name(Owner::B, sp.index_b)
                ),
                colors::TEXT,
            );
        }
    }
    super::predict::draw(mode, crate::lesson::PredictView::Minkowski);
    end_view(rect);
}

/// The EPA polytope's colour (the GJK simplex it grew from is yellow).
const EPA: Color = Color::new(1.0, 0.62, 0.35, 1.0);

/// SAT seen in A − B: the shadow of A − B on the axis is [minA − maxB, maxA − minB], a
/// band across the view; the axis separates exactly when the origin lies outside it.
fn draw_sat_band(mode: &LessonMode, axis: &crate::narrow::trace::SatAxisStep) {
    let cam = &mode.minkowski_camera;
    let rect = mode.layout.minkowski;
    let Some(d) = axis.axis.try_normalize() else {
        return;
    };
    let lo = axis.interval_a.0 - axis.interval_b.1;
    let hi = axis.interval_a.1 - axis.interval_b.0;
    let across = Vec2::new(-d.y, d.x);
    let reach = cam.length_to_world(rect.size().length());
    let centre = cam.screen_to_world((rect.min + rect.max) * 0.5);
    let along = across * centre.dot(across);
    let band = [
        d * lo + along - across * reach,
        d * hi + along - across * reach,
        d * hi + along + across * reach,
        d * lo + along + across * reach,
    ];
    let inside = lo <= 0.0 && hi >= 0.0;
    let c = if inside {
        colors::HIGHLIGHT
    } else {
        Color::new(0.35, 0.9, 0.45, 1.0)
    };
    fill_convex(cam, &band, colors::alpha(c, 0.08));
    for t in [lo, hi] {
        dashed(
            cam,
            d * t + along - across * reach,
            d * t + along + across * reach,
            1.5,
            6.0,
            colors::alpha(c, 0.8),
        );
    }
    arrow(cam, Vec2::ZERO, d * cam.length_to_world(50.0), 2.0, colors::DIRECTION);
    let text = if inside {
        "O is in the shadow of A - B on this axis: no gap"
    } else {
        "O is outside the shadow of A - B: a gap"
    };
    label_px(Vec2::new(rect.min.x + 10.0, rect.max.y - 12.0), text, c);
}

fn pair_name(name: &str, sp: &SupportPoint) -> String {
    format!(
        "{name} = {} − {}",
        vertex_name(Owner::A, sp.index_a),
        vertex_name(Owner::B, sp.index_b)
    )
}

fn draw_origin(mode: &LessonMode) {
    let cam = &mode.minkowski_camera;
    let o = cam.world_to_screen(Vec2::ZERO);
    let c = Color::new(1.0, 1.0, 1.0, 1.0);
    draw_line(o.x - 9.0, o.y, o.x + 9.0, o.y, 2.0, c);
    draw_line(o.x, o.y - 9.0, o.x, o.y + 9.0, 2.0, c);
    // No label may cover the origin: it is what GJK's question is about.
    origin_mark(o, 10.0);
    label(cam, Vec2::ZERO, Vec2::new(-22.0, 22.0), "O", c);
}

/// GJK at the current step: the Voronoi regions of the simplex the new support point
/// made (before it was reduced), the reduced simplex, the search direction, w.
fn draw_gjk(mode: &LessonMode, g: &GjkView) {
    let cam = &mode.minkowski_camera;
    let rect = mode.layout.minkowski;
    // The candidate simplex: the previous one plus w, as the reduction saw it.
    let mut candidate: Vec<Vec2> = g.previous.iter().map(|v| v.point).collect();
    if let (Some(w), None) = (g.support, &g.end) {
        if !candidate.iter().any(|p| (*p - w.point).length() < 1e-6) {
            candidate.push(w.point);
        }
    }
    if g.end.is_none() && !candidate.is_empty() {
        let view = view_polygon(cam, rect);
        let regions = voronoi_regions(&candidate, &view);
        for (kind, poly) in &regions {
            if *kind == Region::Inside {
                continue;
            }
            let has_origin = convex_contains(poly, Vec2::ZERO);
            let tint = match kind {
                Region::Vertex(_) => colors::DIRECTION,
                _ => Color::new(0.55, 0.95, 0.6, 1.0),
            };
            fill_convex(cam, poly, colors::alpha(tint, if has_origin { 0.20 } else { 0.06 }));
            outline(cam, poly, 1.0, colors::alpha(tint, if has_origin { 0.7 } else { 0.2 }));
        }
        if let Some((kind, _)) = regions.iter().find(|(_, p)| convex_contains(p, Vec2::ZERO)) {
            let text = match kind {
                Region::Vertex(_) => "O is in a corner's region (shaded): keep that corner",
                Region::Edge(_) => "O is in an edge's region (shaded): keep that edge",
                Region::Inside => "O is inside the simplex: A and B overlap",
            };
            label_px(Vec2::new(rect.min.x + 10.0, rect.max.y - 12.0), text, colors::TEXT);
        }
    }
    // The simplex now.
    let simplex: Vec<Vec2> = g.simplex.iter().map(|v| v.point).collect();
    match simplex.len() {
        0 => {}
        1 => {}
        2 => line(cam, simplex[0], simplex[1], 4.0, colors::SIMPLEX),
        _ => {
            fill_convex(cam, &simplex, colors::alpha(colors::SIMPLEX, 0.35));
            outline(cam, &simplex, 2.5, colors::SIMPLEX);
        }
    }
    let w_point = g.support.filter(|_| g.end.is_none()).map(|w| w.point);
    for sp in &g.simplex {
        dot(cam, sp.point, 6.0, colors::SIMPLEX);
        if w_point == Some(sp.point) {
            continue;
        }
        label(
            cam,
            sp.point,
            Vec2::new(9.0, 16.0),
            &format!(
                "{} − {}",
                vertex_name(Owner::A, sp.index_a),
                vertex_name(Owner::B, sp.index_b)
            ),
            colors::SIMPLEX,
        );
    }
    if g.end.is_none() {
        if let Some(v) = g.closest {
            if v.length() > 1e-6 {
                dashed(cam, Vec2::ZERO, v, 1.5, 4.0, colors::TEXT_DIM);
                dot(cam, v, 4.0, colors::TEXT_DIM);
                label(cam, v, Vec2::new(-14.0, -10.0), "v", colors::TEXT_DIM);
            }
        }
        if let Some(d) = g.direction.and_then(Vec2::try_normalize) {
            let len = cam.length_to_world(rect.size().min_element() * 0.22);
            arrow(cam, Vec2::ZERO, d * len, 3.0, colors::DIRECTION);
            // Beside the arrow's middle (w usually sits near its tip).
            let beside = Vec2::new(d.y, d.x) * 14.0;
            label(
                cam,
                d * len * 0.5,
                beside + Vec2::new(0.0, 5.0),
                "d = -v",
                colors::DIRECTION,
            );
        }
        if let Some(w) = g.support {
            dot(cam, w.point, 8.0, colors::TEXT);
            label(cam, w.point, Vec2::new(10.0, -10.0), &pair_name("w", &w), colors::TEXT);
        }
    } else if let Some(end) = &g.end {
        if end.distance > 0.0 {
            // The closest point of A − B to the origin.
            let p = end.point_a - end.point_b;
            dashed(cam, Vec2::ZERO, p, 2.0, 5.0, colors::SIMPLEX);
            label(
                cam,
                p * 0.5,
                Vec2::new(8.0, -8.0),
                &format!("distance {}", fmt_num(end.distance)),
                colors::SIMPLEX,
            );
        }
    }
}
