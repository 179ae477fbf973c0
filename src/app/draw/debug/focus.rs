//! The focus pair itself: its two bodies marked A and B, and its Minkowski difference
//! A − B (Chulanov's (2016) configuration-space obstacle) with the origin marked — the shapes
//! overlap exactly when A − B holds the origin, and the depth is the origin's distance
//! to its boundary.
//!
//! A − B lives in a space of translations, not in the scene: it is drawn about the
//! world origin when that is in view, otherwise about a marked origin in the view's
//! lower-left corner.

use super::super::super::state::AppState;
use super::{label_world, metres, palette};
use crate::app::draw::colors::with_alpha;
use crate::app::draw::{arrow, fill_convex, line, outline};
use crate::math::Vec2;
use crate::narrow::trace::TraceStep;
use macroquad::prelude::{draw_circle_lines, Color};

/// Outlines the focus pair's bodies in A's and B's colours, with their letters.
pub fn draw_focus_bodies(state: &AppState) {
    let Some(focus) = state.debug_cache.focus.as_ref() else {
        return;
    };
    let cam = &state.camera;
    for (handle, color, name) in [
        (focus.choice.a, palette::SHAPE_A, "A"),
        (focus.choice.b, palette::SHAPE_B, "B"),
    ] {
        let Some(body) = state.world.body(handle) else { continue };
        let pose = body.pose();
        let whole = body.shape().whole();
        if whole.vertices.len() == 1 {
            let c = cam.world_to_screen(pose.translation);
            draw_circle_lines(c.x, c.y, cam.length_to_screen(whole.radius) + 2.0, 2.5, color);
        } else {
            let pts: Vec<Vec2> = whole.vertices.iter().map(|v| pose.apply_point(*v)).collect();
            outline(cam, &pts, 2.5, color);
        }
        label_world(state, body.center_of_mass(), Vec2::ZERO, name, color);
    }
}

/// Where A − B's origin is drawn (world frame): the world origin when it is in view,
/// otherwise a point that puts `extent` (the difference's box, about its origin) in the
/// view's lower-left corner.
fn minkowski_anchor(state: &AppState, extent: (Vec2, Vec2)) -> Vec2 {
    let cam = &state.camera;
    let (lo_px, hi_px) = state.viewport_px;
    let margin = 40.0;
    let o = cam.world_to_screen(Vec2::ZERO);
    if o.x > lo_px.x + margin && o.x < hi_px.x - margin && o.y > lo_px.y + margin && o.y < hi_px.y - margin {
        return Vec2::ZERO;
    }
    let corner = cam.screen_to_world(Vec2::new(lo_px.x + margin + 30.0, hi_px.y - margin - 60.0));
    corner - extent.0
}

/// Draws A − B of the focus pair about its origin, GJK's simplex or EPA's polytope from
/// the trace, and the depth or distance.
pub fn draw_minkowski(state: &AppState) {
    let Some(focus) = state.debug_cache.focus.as_ref() else {
        return;
    };
    if focus.minkowski.is_empty() {
        return;
    }
    let cam = &state.camera;
    let extent = focus
        .minkowski
        .iter()
        .flat_map(|(h, r)| h.iter().map(move |p| (*p, *r)))
        .fold(
            (Vec2::splat(f32::INFINITY), Vec2::splat(f32::NEG_INFINITY)),
            |(lo, hi), (p, r)| (lo.min(p - Vec2::splat(r)), hi.max(p + Vec2::splat(r))),
        );
    let origin = minkowski_anchor(state, extent);
    let fill = Color::new(0.75, 0.55, 1.0, if focus.minkowski.len() > 4 { 0.07 } else { 0.16 });
    let edge = Color::new(0.8, 0.6, 1.0, if focus.minkowski.len() > 4 { 0.45 } else { 0.9 });
    let mut moved: Vec<Vec2> = Vec::new();
    for (hull, radius) in &focus.minkowski {
        moved.clear();
        moved.extend(hull.iter().map(|p| *p + origin));
        if moved.len() >= 3 {
            fill_convex(cam, &moved, fill);
        }
        if moved.len() >= 2 {
            outline(cam, &moved, 1.5, edge);
        }
        if *radius > 0.0 {
            // A circle's difference is its core's, grown by the radius: round corners.
            for p in &moved {
                let s = cam.world_to_screen(*p);
                draw_circle_lines(s.x, s.y, cam.length_to_screen(*radius), 1.5, with_alpha(edge, 0.7));
            }
        }
    }
    // What the algorithm saw of it: GJK's last simplex, EPA's last polytope.
    let mut simplex: Option<Vec<Vec2>> = None;
    let mut polytope: Option<Vec<Vec2>> = None;
    for s in &focus.trace.steps {
        match s {
            TraceStep::GjkEnd(g) => simplex = Some(g.simplex.iter().map(|p| p.point).collect()),
            TraceStep::EpaEnd(e) => polytope = Some(e.polytope.iter().map(|p| p.point).collect()),
            _ => {}
        }
    }
    if let Some(p) = polytope {
        let p: Vec<Vec2> = p.iter().map(|q| *q + origin).collect();
        outline(cam, &p, 1.0, with_alpha(palette::SHAPE_B, 0.9));
    }
    if let Some(s) = simplex {
        let s: Vec<Vec2> = s.iter().map(|q| *q + origin).collect();
        if s.len() >= 2 {
            outline(cam, &s, 1.5, with_alpha(palette::SEPARATING, 0.9));
        }
    }
    // The origin, and how far it is from the boundary.
    let o = cam.world_to_screen(origin);
    let k = 7.0;
    let white = palette::TEXT;
    macroquad::prelude::draw_line(o.x - k, o.y, o.x + k, o.y, 2.0, white);
    macroquad::prelude::draw_line(o.x, o.y - k, o.x, o.y + k, 2.0, white);
    draw_circle_lines(o.x, o.y, 4.0, 1.5, white);
    let c = &focus.contact;
    if c.intersect {
        // Moving A by the MTV moves A − B by it too: the origin leaves at normal · depth.
        arrow(cam, origin, c.normal * c.depth, 2.0, palette::MTV);
        label_world(
            state,
            origin,
            Vec2::new(0.0, 22.0),
            &format!("O inside A-B: overlap, depth {}", metres(c.depth)),
            palette::MTV,
        );
    } else {
        let gap = focus.trace.steps.iter().find_map(|s| match s {
            TraceStep::GjkEnd(g) if g.distance > 0.0 => Some((g.point_a - g.point_b, g.distance)),
            _ => None,
        });
        if let Some((closest, d)) = gap {
            line(cam, origin, origin + closest, 1.5, palette::SEPARATING);
            label_world(
                state,
                origin,
                Vec2::new(0.0, 22.0),
                &format!("O outside A-B: apart by {}", metres(d)),
                palette::SEPARATING,
            );
        } else {
            label_world(
                state,
                origin,
                Vec2::new(0.0, 22.0),
                "O outside A-B: apart",
                palette::SEPARATING,
            );
        }
    }
    let top = Vec2::new((extent.0.x + extent.1.x) * 0.5, extent.1.y) + origin;
    label_world(state, top, Vec2::new(0.0, -14.0), "A-B (Minkowski difference)", edge);
}
