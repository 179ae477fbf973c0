//! The bodies, the ground grid and the contacts.

use super::super::state::AppState;
use super::{arrow, colors, fill_convex, line, outline};
use crate::dynamics::Body;
use crate::dynamics::BodyHandle;
use crate::geometry::Shape;
use crate::math::Vec2;
use macroquad::prelude::{draw_line, draw_poly, draw_poly_lines, draw_rectangle, draw_text, Color};

/// Bodies smaller than this on screen (px across) are drawn without an outline: at that
/// size the outline's quads would cover the fill, and a 1000-body pile spends most of
/// its triangles on them. The selected and hovered bodies keep theirs.
pub const MIN_OUTLINE_BODY_PX: f32 = 8.0;

/// Sides of the polygon a circle of `radius_px` is drawn as: enough that the eye sees a
/// circle, few enough that a pile of small balls stays cheap (each side is a triangle
/// of the fill and two of the outline).
pub fn circle_sides(radius_px: f32) -> u8 {
    (radius_px * 0.9).clamp(8.0, 48.0) as u8
}

/// A 1 m grid (coarser when zoomed out so lines stay at least 12 px apart) and the axes.
pub fn draw_grid(state: &AppState) {
    let cam = &state.camera;
    let view = cam.visible_world();
    let mut spacing = 1.0f32;
    while cam.length_to_screen(spacing) < 12.0 {
        spacing *= 10.0;
    }
    while cam.length_to_screen(spacing) > 400.0 {
        spacing /= 10.0;
    }
    let x0 = (view.min.x / spacing).floor() as i64;
    let x1 = (view.max.x / spacing).ceil() as i64;
    let y0 = (view.min.y / spacing).floor() as i64;
    let y1 = (view.max.y / spacing).ceil() as i64;
    if (x1 - x0) > 1000 || (y1 - y0) > 1000 {
        return;
    }
    for i in x0..=x1 {
        let x = i as f32 * spacing;
        let c = if i == 0 { colors::AXES } else { colors::GRID };
        line(cam, Vec2::new(x, view.min.y), Vec2::new(x, view.max.y), 1.0, c);
    }
    for j in y0..=y1 {
        let y = j as f32 * spacing;
        let c = if j == 0 { colors::AXES } else { colors::GRID };
        line(cam, Vec2::new(view.min.x, y), Vec2::new(view.max.x, y), 1.0, c);
    }
}

/// The fill colour of a body, dimmed when it sleeps.
pub fn body_color(state: &AppState, handle: BodyHandle, body: &Body) -> Color {
    let base = match body.kind() {
        crate::scene::BodyKind::Static => colors::STATIC,
        crate::scene::BodyKind::Kinematic => colors::KINEMATIC,
        crate::scene::BodyKind::Dynamic => colors::body_fill(handle.index),
    };
    if state.debug.dim_sleeping && body.is_sleeping() {
        Color::new(base.r * 0.55, base.g * 0.55, base.b * 0.55, 1.0)
    } else {
        base
    }
}

/// Every body: filled pieces, the outline, a radius line on circles to show rotation.
pub fn draw_bodies(state: &AppState) {
    let cam = &state.camera;
    let view = cam.visible_world();
    let mut scratch: Vec<Vec2> = Vec::new();
    for (handle, body) in state.world.bodies().iter() {
        let aabb = body.aabb();
        if !aabb.overlaps(&view) {
            continue;
        }
        let fill = body_color(state, handle, body);
        let outline_color = if state.selection == Some(handle) {
            colors::SELECTED
        } else if state.hovered == Some(handle) {
            colors::HOVERED
        } else {
            colors::OUTLINE
        };
        let outline_px = if state.selection == Some(handle) { 2.5 } else { 1.2 };
        let marked = state.selection == Some(handle) || state.hovered == Some(handle);
        let size_px = cam.length_to_screen((aabb.max - aabb.min).max_element());
        let outlined = marked || size_px >= MIN_OUTLINE_BODY_PX;
        let pose = body.pose();
        match body.shape() {
            Shape::Circle(c) => {
                let center = cam.world_to_screen(pose.translation);
                let r = cam.length_to_screen(c.radius());
                let sides = circle_sides(r);
                draw_poly(center.x, center.y, sides, r, 0.0, fill);
                if outlined {
                    draw_poly_lines(center.x, center.y, sides, r, 0.0, outline_px, outline_color);
                    let rim = cam.world_to_screen(pose.apply_point(Vec2::new(c.radius(), 0.0)));
                    draw_line(center.x, center.y, rim.x, rim.y, outline_px, outline_color);
                }
            }
            Shape::Segment(s) => {
                line(cam, pose.apply_point(s.a()), pose.apply_point(s.b()), 3.0, fill);
                line(
                    cam,
                    pose.apply_point(s.a()),
                    pose.apply_point(s.b()),
                    1.0,
                    outline_color,
                );
            }
            Shape::Polygon(p) => {
                for i in 0..body.shape().piece_count() {
                    scratch.clear();
                    scratch.extend(body.shape().piece(i).vertices.iter().map(|&v| pose.apply_point(v)));
                    fill_convex(cam, &scratch, fill);
                }
                if outlined {
                    scratch.clear();
                    scratch.extend(p.vertices().iter().map(|&v| pose.apply_point(v)));
                    outline(cam, &scratch, outline_px, outline_color);
                }
            }
        }
    }
}

/// Contacts whose smaller body reaches less than this from its centre on screen (px)
/// are not drawn: a point and a normal would cover the body. Opened whole, the 5050-box
/// pyramid's boxes are about 7 px across; its 20,000 points and normals turned the
/// picture orange and took 170 ms a frame to rasterise in software GL.
const MIN_CONTACT_BODY_REACH_PX: f32 = 4.0;

/// Contact points and normals of the current contacts. A normal is 18 px long, or
/// shorter when the bodies are smaller than that on screen (a pile of small bodies would
/// otherwise vanish under its normals); points are small squares (two triangles, where a
/// round dot costs twenty — there can be thousands). Contacts of bodies too small on
/// screen are left out, and a line at the bottom of the view says how many.
pub fn draw_contacts(state: &AppState) {
    let cam = &state.camera;
    let view = cam.visible_world();
    let mut hidden = 0usize;
    for m in state.world.contacts() {
        let size_px = [m.body_a, m.body_b]
            .iter()
            .filter_map(|h| state.world.body(*h))
            .map(|b| cam.length_to_screen(b.outer_reach()))
            .fold(f32::INFINITY, f32::min);
        if size_px < MIN_CONTACT_BODY_REACH_PX {
            hidden += m.points.as_slice().iter().filter(|p| view.contains(p.point)).count();
            continue;
        }
        let normal_px = size_px.clamp(6.0, 18.0);
        let half = if size_px < 10.0 { 1.5 } else { 2.5 };
        for p in m.points.as_slice() {
            if !view.contains(p.point) {
                continue;
            }
            let s = cam.world_to_screen(p.point);
            arrow(
                cam,
                p.point,
                m.normal * cam.length_to_world(normal_px),
                1.5,
                colors::NORMAL,
            );
            draw_rectangle(s.x - half, s.y - half, 2.0 * half, 2.0 * half, colors::CONTACT);
        }
    }
    if hidden > 0 {
        let (lo, hi) = state.viewport_px;
        draw_text(
            format!("{hidden} contact points not drawn at this zoom: zoom in to see them"),
            lo.x + 10.0,
            hi.y - 12.0,
            18.0,
            colors::CONTACT,
        );
    }
}
