//! The bodies, the ground grid and the contacts.

use super::super::state::AppState;
use super::{arrow, colors, fill_convex, line, outline};
use crate::dynamics::Body;
use crate::dynamics::BodyHandle;
use crate::geometry::Shape;
use crate::math::Vec2;
use macroquad::prelude::{draw_circle, draw_circle_lines, draw_line, Color};

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
        let pose = body.pose();
        match body.shape() {
            Shape::Circle(c) => {
                let center = cam.world_to_screen(pose.translation);
                let r = cam.length_to_screen(c.radius());
                draw_circle(center.x, center.y, r, fill);
                draw_circle_lines(center.x, center.y, r, outline_px, outline_color);
                let rim = cam.world_to_screen(pose.apply_point(Vec2::new(c.radius(), 0.0)));
                draw_line(center.x, center.y, rim.x, rim.y, outline_px, outline_color);
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
                scratch.clear();
                scratch.extend(p.vertices().iter().map(|&v| pose.apply_point(v)));
                outline(cam, &scratch, outline_px, outline_color);
            }
        }
    }
}

/// Contact points and normals of the current contacts.
pub fn draw_contacts(state: &AppState) {
    let cam = &state.camera;
    let normal_len = cam.length_to_world(18.0);
    for m in state.world.contacts() {
        for p in m.points.as_slice() {
            let s = cam.world_to_screen(p.point);
            draw_circle(s.x, s.y, 3.0, colors::CONTACT);
            arrow(cam, p.point, m.normal * normal_len, 1.5, colors::NORMAL);
        }
    }
}
