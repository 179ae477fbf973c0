//! The focus pair itself: its two bodies marked A and B, and its Minkowski difference
//! A − B (Chulanov's (2016) configuration-space obstacle) with the origin marked — the shapes
//! overlap exactly when A − B holds the origin, and the depth is the origin's distance
//! to its boundary.
//!
//! A − B lives in a space of translations, not in the scene: it is drawn in an inset
//! of its own (`app/inset.rs`), a framed box in a corner of the world view with its own
//! scale, its origin and axes marked, movable by dragging its title.

use super::super::super::state::AppState;
use super::{label_px, label_world, metres, palette, LABEL_FONT};
use crate::app::draw::colors::with_alpha;
use crate::app::draw::{arrow_px, outline};
use crate::app::inset::{InsetScale, TITLE_PX};
use crate::math::Vec2;
use crate::narrow::trace::TraceStep;
use macroquad::prelude::{
    draw_circle, draw_circle_lines, draw_line, draw_rectangle, draw_rectangle_lines, draw_triangle, measure_text, Color,
};

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

/// The flag for a wrong answer: what the exact oracle says instead, in red under the
/// pair's letters ("false positive: exact says 3.0 mm apart").
pub fn draw_verdict(state: &AppState) {
    let Some(focus) = state.debug_cache.focus.as_ref() else {
        return;
    };
    let Some(words) = focus.verdict.describe() else {
        return;
    };
    let (Some(a), Some(b)) = (state.world.body(focus.choice.a), state.world.body(focus.choice.b)) else {
        return;
    };
    let text = format!("{words} ({})", focus.algorithm.name());
    // Near the pair, off both letters (label_world centres them on the centres of mass).
    let cam = &state.camera;
    let letter = |p: Vec2| crate::app::labels::Rect::around(cam.world_to_screen(p), 12.0);
    let (com_a, com_b) = (a.center_of_mass(), b.center_of_mass());
    let size = measure_text(&text, None, LABEL_FONT, 1.0);
    let mid = cam.world_to_screen((com_a + com_b) * 0.5);
    let request = crate::app::labels::LabelRequest {
        anchor: mid,
        preferred: Some(mid + Vec2::new(-0.5 * size.width - 3.0, 22.0)),
        size: Vec2::new(size.width + 6.0, size.height + 5.0),
    };
    let (lo, hi) = state.viewport_px;
    let bounds = crate::app::labels::Rect { min: lo, max: hi };
    let placed = crate::app::labels::place_labels(&[request], &[letter(com_a), letter(com_b)], bounds)[0];
    label_px(
        Vec2::new(placed.rect.min.x + 3.0, placed.rect.min.y + size.offset_y + 2.0),
        &text,
        WRONG,
    );
}

/// The colour of a wrong answer's flag.
const WRONG: Color = Color::new(1.0, 0.35, 0.35, 1.0);

/// Where the focus pair is on the screen (between its centres of mass): the inset
/// keeps away from it.
pub fn focus_on_screen(state: &AppState) -> Option<Vec2> {
    let focus = state.debug_cache.focus.as_ref()?;
    let a = state.world.body(focus.choice.a)?.center_of_mass();
    let b = state.world.body(focus.choice.b)?.center_of_mass();
    Some(state.camera.world_to_screen((a + b) * 0.5))
}

/// A length of 1, 2 or 5 times a power of ten (m) close to `target` (m), for the
/// inset's scale bar.
fn nice_length(target: f32) -> f32 {
    if !(target.is_finite() && target > 0.0) {
        return 1.0;
    }
    let p = 10f32.powf(target.log10().floor());
    [1.0, 2.0, 5.0, 10.0]
        .into_iter()
        .map(|k| k * p)
        .min_by(|x, y| (x - target).abs().total_cmp(&(y - target).abs()))
        .unwrap_or(p)
}

/// Draws A − B of the focus pair in its inset: the pieces' differences, GJK's simplex
/// or EPA's polytope from the trace, the origin with its axes, the MTV or the gap, a
/// scale bar.
pub fn draw_minkowski(state: &AppState) {
    let Some(focus) = state.debug_cache.focus.as_ref() else {
        return;
    };
    if focus.minkowski.is_empty() {
        return;
    }
    let frame = state.minkowski_inset.rect(state.viewport_px, focus_on_screen(state));
    let extent = focus
        .minkowski
        .iter()
        .flat_map(|(h, r)| h.iter().map(move |p| (*p, *r)))
        .fold(
            (Vec2::splat(f32::INFINITY), Vec2::splat(f32::NEG_INFINITY)),
            |(lo, hi), (p, r)| (lo.min(p - Vec2::splat(r)), hi.max(p + Vec2::splat(r))),
        );
    let scale = InsetScale::fit(frame, extent);
    let size = frame.max - frame.min;
    // The frame, opaque: what is under it is the scene, not part of A − B.
    draw_rectangle(
        frame.min.x,
        frame.min.y,
        size.x,
        size.y,
        Color::new(0.07, 0.08, 0.10, 0.94),
    );
    draw_rectangle(
        frame.min.x,
        frame.min.y,
        size.x,
        TITLE_PX,
        Color::new(0.18, 0.16, 0.26, 1.0),
    );
    let dragging = state.minkowski_inset.grab_px.is_some();
    draw_rectangle_lines(
        frame.min.x,
        frame.min.y,
        size.x,
        size.y,
        if dragging { 2.5 } else { 1.5 },
        Color::new(0.8, 0.6, 1.0, 0.9),
    );
    macroquad::prelude::draw_text(
        "A-B (Minkowski difference)  drag here",
        frame.min.x + 6.0,
        frame.min.y + 16.0,
        f32::from(LABEL_FONT),
        palette::TEXT,
    );
    // The axes of the space of translations, through its origin.
    let o = scale.to_px(Vec2::ZERO);
    let axis = Color::new(0.35, 0.37, 0.42, 1.0);
    let (top, bottom) = (frame.min.y + TITLE_PX, frame.max.y);
    if o.y > top && o.y < bottom {
        draw_line(frame.min.x, o.y, frame.max.x, o.y, 1.0, axis);
    }
    draw_line(o.x, top, o.x, bottom, 1.0, axis);
    let fill = Color::new(0.75, 0.55, 1.0, if focus.minkowski.len() > 4 { 0.10 } else { 0.22 });
    let edge = Color::new(0.8, 0.6, 1.0, if focus.minkowski.len() > 4 { 0.5 } else { 0.9 });
    let mut px: Vec<Vec2> = Vec::new();
    for (hull, radius) in &focus.minkowski {
        px.clear();
        px.extend(hull.iter().map(|p| scale.to_px(*p)));
        if px.len() >= 3 {
            for w in px[1..].windows(2) {
                draw_triangle(
                    macroquad::math::vec2(px[0].x, px[0].y),
                    macroquad::math::vec2(w[0].x, w[0].y),
                    macroquad::math::vec2(w[1].x, w[1].y),
                    fill,
                );
            }
        }
        if *radius > 0.0 {
            // A circle's difference is its core's, grown by the radius: the core thin,
            // the rounded outline (edges moved out, arcs at the corners) bold.
            polyline_px(&px, 1.0, with_alpha(edge, 0.45));
            polyline_px(
                &rounded_outline(hull, *radius)
                    .iter()
                    .map(|p| scale.to_px(*p))
                    .collect::<Vec<_>>(),
                1.5,
                edge,
            );
        } else {
            polyline_px(&px, 1.5, edge);
        }
    }
    // What the algorithm saw of it: GJK's last simplex, EPA's last polytope.
    for s in &focus.trace.steps {
        match s {
            TraceStep::GjkEnd(g) if g.simplex.len() >= 2 => {
                let pts: Vec<Vec2> = g.simplex.iter().map(|p| scale.to_px(p.point)).collect();
                polyline_px(&pts, 1.5, with_alpha(palette::SEPARATING, 0.9));
            }
            TraceStep::EpaEnd(e) if e.polytope.len() >= 2 => {
                let pts: Vec<Vec2> = e.polytope.iter().map(|p| scale.to_px(p.point)).collect();
                polyline_px(&pts, 1.0, with_alpha(palette::SHAPE_B, 0.9));
            }
            _ => {}
        }
    }
    // The origin.
    let k = 7.0;
    draw_line(o.x - k, o.y, o.x + k, o.y, 2.0, palette::TEXT);
    draw_line(o.x, o.y - k, o.x, o.y + k, 2.0, palette::TEXT);
    draw_circle_lines(o.x, o.y, 4.0, 1.5, palette::TEXT);
    let c = &focus.contact;
    let answer = if c.intersect {
        // Moving A by the MTV moves A − B by it too: the origin leaves at normal · depth.
        let tip = scale.to_px(c.normal * c.depth);
        arrow_px(o, tip, 2.0, 9.0, palette::MTV);
        draw_circle(tip.x, tip.y, 2.5, palette::MTV);
        (format!("O inside: overlap, depth {}", metres(c.depth)), palette::MTV)
    } else {
        let gap = focus.trace.steps.iter().find_map(|s| match s {
            TraceStep::GjkEnd(g) if g.distance > 0.0 => Some((g.point_a - g.point_b, g.distance)),
            _ => None,
        });
        match gap {
            Some((closest, d)) => {
                let q = scale.to_px(closest);
                draw_line(o.x, o.y, q.x, q.y, 1.5, palette::SEPARATING);
                (format!("O outside: apart by {}", metres(d)), palette::SEPARATING)
            }
            None => ("O outside A-B: apart".to_string(), palette::SEPARATING),
        }
    };
    label_px(Vec2::new(frame.min.x + 8.0, frame.max.y - 8.0), &answer.0, answer.1);
    // Its own scale: a bar of a round length in the top right of the drawing area.
    let bar_m = nice_length(60.0 / scale.pixels_per_metre);
    let bar_px = bar_m * scale.pixels_per_metre;
    let text = metres(bar_m);
    let w = measure_text(&text, None, LABEL_FONT, 1.0).width;
    let right = frame.max.x - 10.0;
    let y = frame.min.y + TITLE_PX + 12.0;
    draw_line(right - bar_px, y, right, y, 2.0, palette::TEXT);
    draw_line(right - bar_px, y - 4.0, right - bar_px, y + 4.0, 1.5, palette::TEXT);
    draw_line(right, y - 4.0, right, y + 4.0, 1.5, palette::TEXT);
    macroquad::prelude::draw_text(
        &text,
        right - bar_px * 0.5 - w * 0.5,
        y + 16.0,
        f32::from(LABEL_FONT),
        palette::TEXT,
    );
}

/// The outline of a counter-clockwise convex `hull` grown by `radius` (world frame):
/// each edge moved out by the radius, joined by arcs about the corners. A single point
/// (two circles) gives a circle.
fn rounded_outline(hull: &[Vec2], radius: f32) -> Vec<Vec2> {
    const ARC_STEP_RAD: f32 = 0.2;
    let n = hull.len();
    let outward = |i: usize| {
        let e = hull[(i + 1) % n] - hull[i];
        Vec2::new(e.y, -e.x).normalize_or_zero()
    };
    if n < 2 {
        let c = hull.first().copied().unwrap_or(Vec2::ZERO);
        let steps = (std::f32::consts::TAU / ARC_STEP_RAD).ceil() as usize;
        return (0..steps)
            .map(|k| c + Vec2::from_angle(k as f32 * ARC_STEP_RAD) * radius)
            .collect();
    }
    let mut out = Vec::new();
    for (i, &corner) in hull.iter().enumerate() {
        // The arc about corner i, from the previous edge's normal to the next one's,
        // turning counter-clockwise.
        let (from, to) = (outward((i + n - 1) % n), outward(i));
        let a0 = from.y.atan2(from.x);
        let mut sweep = to.y.atan2(to.x) - a0;
        if sweep < 0.0 {
            sweep += std::f32::consts::TAU;
        }
        let steps = ((sweep / ARC_STEP_RAD).ceil() as usize).max(1);
        for k in 0..=steps {
            out.push(corner + Vec2::from_angle(a0 + sweep * k as f32 / steps as f32) * radius);
        }
    }
    out
}

/// A closed screen-space polyline.
fn polyline_px(points: &[Vec2], width: f32, color: Color) {
    if points.len() < 2 {
        return;
    }
    for (i, a) in points.iter().enumerate() {
        let b = points[(i + 1) % points.len()];
        draw_line(a.x, a.y, b.x, b.y, width, color);
    }
}

#[cfg(test)]
mod tests {
    use super::{nice_length, rounded_outline};
    use crate::math::Vec2;

    #[test]
    fn a_rounded_square_stays_at_the_radius_from_its_core() {
        let square = [Vec2::ZERO, Vec2::X, Vec2::ONE, Vec2::Y];
        let outline = rounded_outline(&square, 0.25);
        for p in &outline {
            // Distance from the unit square: 0.25 everywhere on the outline.
            let d = (p.clamp(Vec2::ZERO, Vec2::ONE) - *p).length();
            assert!((d - 0.25).abs() < 1e-4, "{p}: {d}");
        }
        assert!(outline.len() >= 8);
        assert_eq!(rounded_outline(&[Vec2::ONE], 1.0).len(), 32);
    }

    #[test]
    fn scale_bars_are_round_lengths() {
        let near = |x: f32, y: f32| (x - y).abs() <= 1e-6 * y;
        assert!(near(nice_length(1.0), 1.0));
        assert!(near(nice_length(0.0031), 0.002));
        assert!(near(nice_length(4.0), 5.0));
        assert_eq!(nice_length(f32::NAN), 1.0);
    }
}
