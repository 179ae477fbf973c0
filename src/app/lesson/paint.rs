//! Small drawing helpers shared by the lesson views: a framed view with its grid, dots,
//! labels, dashed and clipped lines. Screen space through a [`Camera`], y-up world.

use super::colors;
use super::Rect;
use crate::app::camera::Camera;
use crate::app::draw::line;
use crate::math::Vec2;
use macroquad::prelude::{
    draw_circle, draw_circle_lines, draw_line, draw_rectangle, draw_rectangle_lines, draw_text, measure_text, Color,
};

/// Size of the labels (px).
pub const LABEL_PX: f32 = 18.0;

thread_local! {
    /// The view being drawn: labels are kept inside it.
    static VIEW: std::cell::Cell<Option<Rect>> = const { std::cell::Cell::new(None) };
}

/// `text` in the characters macroquad's built-in font has (ASCII): the narration's true
/// minus and dashes become hyphens, the star an asterisk.
pub fn ascii(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            '−' | '–' | '—' => '-',
            '★' => '*',
            '·' => '.',
            '°' => 'd',
            c if c.is_ascii() => c,
            _ => '?',
        })
        .collect()
}

/// Draws `text` (made ASCII) at a screen point.
pub fn text(text: &str, x: f32, y: f32, size: f32, color: Color) {
    draw_text(ascii(text), x, y, size, color);
}

/// The view's background, frame, title and a grid (1 m, or 10× coarser / finer so the
/// lines stay 20..200 px apart), then limits drawing to the view.
pub fn begin_view(rect: Rect, camera: &Camera, title: &str) {
    super::scissor(None);
    draw_rectangle(rect.min.x, rect.min.y, rect.size().x, rect.size().y, colors::VIEW_BG);
    super::scissor(Some(rect));
    let lo = camera.screen_to_world(Vec2::new(rect.min.x, rect.max.y));
    let hi = camera.screen_to_world(Vec2::new(rect.max.x, rect.min.y));
    let mut spacing = 1.0f32;
    while camera.length_to_screen(spacing) < 20.0 {
        spacing *= 10.0;
    }
    while camera.length_to_screen(spacing) > 200.0 {
        spacing /= 10.0;
    }
    let grid = Color::new(0.14, 0.15, 0.17, 1.0);
    let axes = Color::new(0.24, 0.26, 0.30, 1.0);
    let (x0, x1) = ((lo.x / spacing).floor() as i64, (hi.x / spacing).ceil() as i64);
    let (y0, y1) = ((lo.y / spacing).floor() as i64, (hi.y / spacing).ceil() as i64);
    if (x1 - x0) < 400 && (y1 - y0) < 400 {
        for i in x0..=x1 {
            let x = i as f32 * spacing;
            line(
                camera,
                Vec2::new(x, lo.y),
                Vec2::new(x, hi.y),
                1.0,
                if i == 0 { axes } else { grid },
            );
        }
        for j in y0..=y1 {
            let y = j as f32 * spacing;
            line(
                camera,
                Vec2::new(lo.x, y),
                Vec2::new(hi.x, y),
                1.0,
                if j == 0 { axes } else { grid },
            );
        }
    }
    text(title, rect.min.x + 10.0, rect.min.y + 22.0, 22.0, colors::TEXT_DIM);
    VIEW.with(|v| v.set(Some(rect)));
}

/// Ends a view: lifts the clip and draws the frame.
pub fn end_view(rect: Rect) {
    VIEW.with(|v| v.set(None));
    super::scissor(None);
    draw_rectangle_lines(
        rect.min.x,
        rect.min.y,
        rect.size().x,
        rect.size().y,
        1.5,
        colors::VIEW_FRAME,
    );
}

/// A filled dot of `radius_px` at a world point, with a dark rim so it reads on any fill.
pub fn dot(camera: &Camera, p_world: Vec2, radius_px: f32, color: Color) {
    let p = camera.world_to_screen(p_world);
    draw_circle(p.x, p.y, radius_px + 1.5, Color::new(0.05, 0.05, 0.06, 0.9));
    draw_circle(p.x, p.y, radius_px, color);
}

/// A ring of `radius_px` at a world point.
pub fn ring(camera: &Camera, p_world: Vec2, radius_px: f32, width_px: f32, color: Color) {
    let p = camera.world_to_screen(p_world);
    draw_circle_lines(p.x, p.y, radius_px, width_px, color);
}

/// A label next to a world point, offset by `offset_px` (screen, y-down), on a dark
/// backing so it stays readable over shapes and lines.
pub fn label(camera: &Camera, p_world: Vec2, offset_px: Vec2, text: &str, color: Color) {
    let p = camera.world_to_screen(p_world) + offset_px;
    label_px(p, text, color);
}

/// A label at a screen point (its baseline's left end).
pub fn label_px(p: Vec2, text: &str, color: Color) {
    let text = ascii(text);
    let size = measure_text(&text, None, LABEL_PX as u16, 1.0);
    // Inside the view being drawn, when it is there.
    let p = match VIEW.with(std::cell::Cell::get) {
        Some(r) => Vec2::new(
            p.x.min(r.max.x - size.width - 6.0).max(r.min.x + 4.0),
            p.y.min(r.max.y - 6.0).max(r.min.y + size.offset_y + 4.0),
        ),
        None => p,
    };
    draw_rectangle(
        p.x - 2.0,
        p.y - size.offset_y - 2.0,
        size.width + 4.0,
        size.height + 4.0,
        Color::new(0.05, 0.05, 0.06, 0.65),
    );
    draw_text(&text, p.x, p.y, LABEL_PX, color);
}

/// A dashed world-space line (`dash_px` on, `dash_px` off).
pub fn dashed(camera: &Camera, a_world: Vec2, b_world: Vec2, width_px: f32, dash_px: f32, color: Color) {
    let a = camera.world_to_screen(a_world);
    let b = camera.world_to_screen(b_world);
    let len = (b - a).length();
    if len < 1e-3 || !len.is_finite() {
        return;
    }
    let dir = (b - a) / len;
    let n = ((len / (2.0 * dash_px)).ceil() as usize).min(2000);
    for i in 0..n {
        let s = a + dir * (i as f32 * 2.0 * dash_px);
        let e = a + dir * ((i as f32 * 2.0 + 1.0) * dash_px).min(len);
        draw_line(s.x, s.y, e.x, e.y, width_px, color);
    }
}

/// The whole line through `p_world` along `dir_world` across the view (clipped by the
/// view's scissor; drawn long enough to cross it).
pub fn infinite_line(camera: &Camera, rect: Rect, p_world: Vec2, dir_world: Vec2, width_px: f32, color: Color) {
    let Some(d) = dir_world.try_normalize() else {
        return;
    };
    let reach = camera.length_to_world(rect.size().length() * 2.0 + 10.0);
    let centre = camera.screen_to_world((rect.min + rect.max) * 0.5);
    // The point of the line nearest the view's centre, so the segment covers the view.
    let mid = p_world + d * (centre - p_world).dot(d);
    line(camera, mid - d * reach, mid + d * reach, width_px, color);
}

/// The world-space rectangle a view shows, as a counter-clockwise polygon.
pub fn view_polygon(camera: &Camera, rect: Rect) -> Vec<Vec2> {
    let lo = camera.screen_to_world(Vec2::new(rect.min.x, rect.max.y));
    let hi = camera.screen_to_world(Vec2::new(rect.max.x, rect.min.y));
    vec![lo, Vec2::new(hi.x, lo.y), hi, Vec2::new(lo.x, hi.y)]
}

/// Keeps the part of convex `polygon` where `normal · x ≤ offset` (Sutherland–Hodgman
/// against one half-plane).
pub fn clip_half_plane(polygon: &[Vec2], normal: Vec2, offset: f32) -> Vec<Vec2> {
    let mut out = Vec::with_capacity(polygon.len() + 1);
    for (i, &p) in polygon.iter().enumerate() {
        let q = polygon[(i + 1) % polygon.len()];
        let (dp, dq) = (normal.dot(p) - offset, normal.dot(q) - offset);
        if dp <= 0.0 {
            out.push(p);
        }
        if (dp < 0.0 && dq > 0.0) || (dp > 0.0 && dq < 0.0) {
            let t = dp / (dp - dq);
            out.push(p + (q - p) * t);
        }
    }
    out
}

/// A feature of a convex polygon (or a point, a segment) whose Voronoi region is meant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Region {
    /// Nearest to vertex `i`.
    Vertex(usize),
    /// Nearest to the inside of edge `i` (vertex `i` to `i + 1`).
    Edge(usize),
    /// Inside the polygon.
    Inside,
}

/// The Voronoi regions of the features of `vertices` (a point, a segment, or a convex
/// polygon either way round), each clipped to `view` (a convex polygon, world frame).
pub fn voronoi_regions(vertices: &[Vec2], view: &[Vec2]) -> Vec<(Region, Vec<Vec2>)> {
    let mut v = vertices.to_vec();
    if v.len() >= 3 {
        let area2: f32 = (0..v.len())
            .map(|i| crate::math::cross(v[i], v[(i + 1) % v.len()]))
            .sum();
        if area2 < 0.0 {
            v.reverse();
        }
    }
    let clip = |poly: Vec<Vec2>, normal: Vec2, at: Vec2| {
        if poly.is_empty() {
            poly
        } else {
            clip_half_plane(&poly, normal, normal.dot(at))
        }
    };
    let n = v.len();
    let mut out = Vec::new();
    match n {
        0 => {}
        1 => out.push((Region::Vertex(0), view.to_vec())),
        2 => {
            let (p, q) = (v[0], v[1]);
            let e = q - p;
            out.push((Region::Vertex(0), clip(view.to_vec(), e, p)));
            out.push((Region::Vertex(1), clip(view.to_vec(), -e, q)));
            out.push((Region::Edge(0), clip(clip(view.to_vec(), -e, p), e, q)));
        }
        _ => {
            for i in 0..n {
                let (prev, p, next) = (v[(i + n - 1) % n], v[i], v[(i + 1) % n]);
                // Beyond both edges' ends at p.
                let r = clip(clip(view.to_vec(), prev - p, p), next - p, p);
                out.push((Region::Vertex(i), r));
            }
            for i in 0..n {
                let (p, q) = (v[i], v[(i + 1) % n]);
                let e = q - p;
                let outward = crate::math::right_perp(e);
                let r = clip(clip(clip(view.to_vec(), -outward, p), -e, p), e, q);
                out.push((Region::Edge(i), r));
            }
            out.push((Region::Inside, v.clone()));
        }
    }
    out.retain(|(_, r)| r.len() >= 3);
    out
}

/// True when `p` lies in convex polygon `poly` (either orientation, edges included).
pub fn convex_contains(poly: &[Vec2], p: Vec2) -> bool {
    if poly.len() < 3 {
        return false;
    }
    let mut sign = 0.0f32;
    for (i, &a) in poly.iter().enumerate() {
        let b = poly[(i + 1) % poly.len()];
        let c = crate::math::cross(b - a, p - a);
        if c.abs() <= 1e-9 {
            continue;
        }
        if sign == 0.0 {
            sign = c.signum();
        } else if c.signum() != sign {
            return false;
        }
    }
    true
}

/// Name of vertex `i` of `owner` as the labels and the narration write it: a0, b3.
pub fn vertex_name(owner: crate::narrow::trace::Owner, i: usize) -> String {
    match owner {
        crate::narrow::trace::Owner::A => format!("a{i}"),
        crate::narrow::trace::Owner::B => format!("b{i}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_half_plane_cuts_a_square_in_two() {
        //  ┌───┐
        //  │ ░ │  keep x ≤ 0.5 of the unit square: a 0.5 × 1 rectangle
        //  └───┘
        let square = [Vec2::ZERO, Vec2::X, Vec2::ONE, Vec2::Y];
        let left = clip_half_plane(&square, Vec2::X, 0.5);
        assert_eq!(left.len(), 4);
        assert!(left.iter().all(|p| p.x <= 0.5 + 1e-6));
        assert!(clip_half_plane(&square, Vec2::X, -1.0).is_empty());
        assert_eq!(clip_half_plane(&square, Vec2::X, 2.0).len(), 4);
    }

    #[test]
    fn the_voronoi_regions_of_a_segment_and_a_triangle_cover_the_view() {
        let view = [
            Vec2::splat(-10.0),
            Vec2::new(10.0, -10.0),
            Vec2::splat(10.0),
            Vec2::new(-10.0, 10.0),
        ];
        let seg = voronoi_regions(&[Vec2::ZERO, Vec2::X], &view);
        assert_eq!(seg.len(), 3);
        let holding = |regions: &[(Region, Vec<Vec2>)], p: Vec2| {
            regions
                .iter()
                .filter(|(_, r)| convex_contains(r, p))
                .map(|(k, _)| *k)
                .collect::<Vec<_>>()
        };
        assert_eq!(holding(&seg, Vec2::new(-1.0, 3.0)), vec![Region::Vertex(0)]);
        assert_eq!(holding(&seg, Vec2::new(0.5, -3.0)), vec![Region::Edge(0)]);
        //   2
        //   |\     a clockwise triangle is handled too
        //   0--1
        let tri = voronoi_regions(&[Vec2::ZERO, Vec2::Y, Vec2::X], &view);
        assert_eq!(tri.len(), 7);
        assert_eq!(holding(&tri, Vec2::new(0.2, 0.2)), vec![Region::Inside]);
        assert_eq!(holding(&tri, Vec2::new(-1.0, -1.0)).len(), 1);
        assert!(matches!(holding(&tri, Vec2::new(0.5, -2.0))[0], Region::Edge(_)));
    }
}
