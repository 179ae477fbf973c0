//! Drawing: reads the [`AppState`](super::state::AppState), never changes it.
//!
//! Everything is drawn in screen space through [`Camera`] (the
//! one place that flips y), so line widths stay in pixels at every zoom.

pub mod debug;
pub mod palette;
pub mod world;

use super::camera::Camera;
use crate::math::Vec2;
use macroquad::prelude::{draw_line, draw_triangle, Color};

/// A world-space line of `width_px` pixels.
pub fn line(camera: &Camera, a_world: Vec2, b_world: Vec2, width_px: f32, color: Color) {
    let a = camera.world_to_screen(a_world);
    let b = camera.world_to_screen(b_world);
    draw_line(a.x, a.y, b.x, b.y, width_px, color);
}

/// A closed world-space polyline.
pub fn outline(camera: &Camera, points_world: &[Vec2], width_px: f32, color: Color) {
    for (i, &a) in points_world.iter().enumerate() {
        let b = points_world[(i + 1) % points_world.len()];
        line(camera, a, b, width_px, color);
    }
}

/// A filled convex polygon (a triangle fan), world space.
pub fn fill_convex(camera: &Camera, points_world: &[Vec2], color: Color) {
    if points_world.len() < 3 {
        return;
    }
    let p0 = camera.world_to_screen(points_world[0]);
    for w in points_world[1..].windows(2) {
        let p1 = camera.world_to_screen(w[0]);
        let p2 = camera.world_to_screen(w[1]);
        draw_triangle(
            macroquad::math::vec2(p0.x, p0.y),
            macroquad::math::vec2(p1.x, p1.y),
            macroquad::math::vec2(p2.x, p2.y),
            color,
        );
    }
}

/// An arrow from `from_world` along `vector_world`, with a head of up to 10 px.
pub fn arrow(camera: &Camera, from_world: Vec2, vector_world: Vec2, width_px: f32, color: Color) {
    let a = camera.world_to_screen(from_world);
    let b = camera.world_to_screen(from_world + vector_world);
    arrow_px(a, b, width_px, 10.0, color);
}

/// A screen-space arrow from `a` to `b` (px), its head 30% of the length, at most
/// `max_head_px`.
pub fn arrow_px(a: Vec2, b: Vec2, width_px: f32, max_head_px: f32, color: Color) {
    draw_line(a.x, a.y, b.x, b.y, width_px, color);
    let d = b - a;
    let len = d.length();
    if len < 1.0 {
        return;
    }
    let dir = d / len;
    let head = (len * 0.3).min(max_head_px);
    let side = Vec2::new(-dir.y, dir.x) * head * 0.5;
    let base = b - dir * head;
    draw_triangle(
        macroquad::math::vec2(b.x, b.y),
        macroquad::math::vec2(base.x + side.x, base.y + side.y),
        macroquad::math::vec2(base.x - side.x, base.y - side.y),
        color,
    );
}

/// Colours of the sandbox, in one place.
pub mod colors {
    use macroquad::prelude::Color;

    /// Window background.
    pub const BACKGROUND: Color = Color::new(0.11, 0.12, 0.14, 1.0);
    /// Grid lines (1 m).
    pub const GRID: Color = Color::new(0.16, 0.17, 0.20, 1.0);
    /// The axes of the world frame.
    pub const AXES: Color = Color::new(0.22, 0.24, 0.28, 1.0);
    /// Static bodies.
    pub const STATIC: Color = Color::new(0.45, 0.47, 0.50, 1.0);
    /// Kinematic bodies.
    pub const KINEMATIC: Color = Color::new(0.35, 0.55, 0.85, 1.0);
    /// Outlines.
    pub const OUTLINE: Color = Color::new(0.92, 0.93, 0.95, 0.9);
    /// The selected body's outline.
    pub const SELECTED: Color = Color::new(1.0, 0.85, 0.2, 1.0);
    /// The hovered body's outline.
    pub const HOVERED: Color = Color::new(0.6, 0.9, 1.0, 1.0);
    /// Contact points.
    pub const CONTACT: Color = Color::new(1.0, 0.3, 0.25, 1.0);
    /// Contact normals.
    pub const NORMAL: Color = Color::new(1.0, 0.75, 0.2, 1.0);
    /// Errors (crossing edges, refused shapes).
    pub const ERROR: Color = Color::new(1.0, 0.2, 0.2, 1.0);

    /// A body's fill, picked from a palette by its slot so neighbours differ.
    pub fn body_fill(index: u32) -> Color {
        const PALETTE: [Color; 8] = [
            Color::new(0.90, 0.49, 0.36, 1.0),
            Color::new(0.36, 0.72, 0.62, 1.0),
            Color::new(0.93, 0.74, 0.33, 1.0),
            Color::new(0.55, 0.57, 0.89, 1.0),
            Color::new(0.82, 0.45, 0.68, 1.0),
            Color::new(0.47, 0.76, 0.39, 1.0),
            Color::new(0.40, 0.66, 0.90, 1.0),
            Color::new(0.85, 0.60, 0.45, 1.0),
        ];
        PALETTE[index as usize % PALETTE.len()]
    }

    /// `c` with alpha `a`.
    pub fn with_alpha(c: Color, a: f32) -> Color {
        Color::new(c.r, c.g, c.b, a)
    }
}
