//! Small drawing helpers shared by the lesson views: a framed view with its grid, dots,
//! labels, dashed and clipped lines. Screen space through a [`Camera`], y-up world.
//!
//! Labels are not drawn where they are asked for: a view collects them (with the marks
//! they must not cover: dots, rings, the origin, the title) between [`begin_view`] and
//! [`end_view`], which places them all at once ([`crate::app::labels`]) and draws them
//! with leader lines where one was moved far. [`record_labels`] runs a view without a
//! window (every draw call skipped, text measured by estimate) and returns where its
//! labels went, for the tests.

use super::colors;
use super::svg;
use super::Rect;
use crate::app::camera::Camera;
use crate::app::labels::{self, LabelRequest};
use crate::math::Vec2;
use macroquad::prelude::{self as mq, Color};
use std::cell::{Cell, RefCell};

pub use super::regions::{clip_half_plane, convex_contains, voronoi_regions, Region};

/// Size of the labels (px).
pub const LABEL_PX: f32 = 18.0;

/// A label waiting for its view to end.
struct Pending {
    anchor: Vec2,
    preferred_baseline: Vec2,
    text: String,
    color: Color,
}

/// The labels a view placed, as [`record_labels`] returns them.
#[derive(Clone, Debug, PartialEq)]
pub struct PlacedLabels {
    /// The view's rectangle.
    pub view: Rect,
    /// Each label's text and box.
    pub labels: Vec<(String, labels::Rect)>,
    /// The origin marker's box, in the view that has one.
    pub origin: Option<labels::Rect>,
    /// Labels for which no free place was found.
    pub overlapping: Vec<String>,
}

thread_local! {
    /// The view being drawn: labels are kept inside it.
    static VIEW: Cell<Option<Rect>> = const { Cell::new(None) };
    /// Recording: draw nothing, measure by estimate, keep the placements.
    static RECORDING: Cell<bool> = const { Cell::new(false) };
    /// The view's labels so far.
    static PENDING: RefCell<Vec<Pending>> = const { RefCell::new(Vec::new()) };
    /// The marks labels must not cover.
    static OBSTACLES: RefCell<Vec<labels::Rect>> = const { RefCell::new(Vec::new()) };
    /// The origin marker of the view being drawn.
    static ORIGIN: Cell<Option<labels::Rect>> = const { Cell::new(None) };
    /// What recording collected.
    static RECORDED: RefCell<Vec<PlacedLabels>> = const { RefCell::new(Vec::new()) };
    /// The labels the window placed in the frame being drawn (measured with the real
    /// font), for `render --labels`.
    static LIVE: RefCell<Vec<PlacedLabels>> = const { RefCell::new(Vec::new()) };
}

/// Starts a frame of the lesson views: forgets the last frame's placed labels.
pub fn begin_frame() {
    LIVE.with(|l| l.borrow_mut().clear());
}

/// The labels placed in the last frame the window drew, per view, with the real font's
/// sizes: what `render --labels` writes and the window tests check.
pub fn last_frame_labels() -> Vec<PlacedLabels> {
    LIVE.with(|l| l.borrow().clone())
}

/// False while [`record_labels`] runs (nothing reaches the screen).
pub fn live() -> bool {
    !RECORDING.with(Cell::get)
}

/// Runs `draw` without a window and returns the labels of every view it drew.
pub fn record_labels(draw: impl FnOnce()) -> Vec<PlacedLabels> {
    RECORDING.with(|r| r.set(true));
    RECORDED.with(|r| r.borrow_mut().clear());
    draw();
    RECORDING.with(|r| r.set(false));
    RECORDED.with(|r| std::mem::take(&mut *r.borrow_mut()))
}

/// A text's width, height and the baseline's depth below its top (px): macroquad's
/// font in the window, an estimate while recording.
pub fn measure(text: &str, font_px: f32) -> (f32, f32, f32) {
    if live() {
        let m = mq::measure_text(text, None, font_px as u16, 1.0);
        (m.width, m.height, m.offset_y)
    } else {
        let s = labels::estimate_text_size(text, font_px);
        (s.x, s.y, 0.8 * font_px)
    }
}

/// Keeps labels off a mark: a square of half-side `half_px` about `center_px`.
pub fn obstacle(center_px: Vec2, half_px: f32) {
    OBSTACLES.with(|o| o.borrow_mut().push(labels::Rect::around(center_px, half_px)));
}

/// The origin marker at `center_px`: an obstacle the tests check by name.
pub fn origin_mark(center_px: Vec2, half_px: f32) {
    obstacle(center_px, half_px);
    ORIGIN.with(|o| o.set(Some(labels::Rect::around(center_px, half_px))));
}

// Drawing that a recording skips. The views draw only through these.

/// A world-space line.
pub fn line(camera: &Camera, a_world: Vec2, b_world: Vec2, width_px: f32, color: Color) {
    if live() {
        crate::app::draw::line(camera, a_world, b_world, width_px, color);
        svg::line(
            camera.world_to_screen(a_world),
            camera.world_to_screen(b_world),
            width_px,
            color,
        );
    }
}

/// A closed world-space polyline.
pub fn outline(camera: &Camera, points_world: &[Vec2], width_px: f32, color: Color) {
    if live() {
        crate::app::draw::outline(camera, points_world, width_px, color);
        if svg::recording() {
            let points: Vec<Vec2> = points_world.iter().map(|&p| camera.world_to_screen(p)).collect();
            svg::outline(&points, width_px, color);
        }
    }
}

/// A filled convex polygon, world space.
pub fn fill_convex(camera: &Camera, points_world: &[Vec2], color: Color) {
    if live() {
        crate::app::draw::fill_convex(camera, points_world, color);
        if svg::recording() {
            let points: Vec<Vec2> = points_world.iter().map(|&p| camera.world_to_screen(p)).collect();
            svg::polygon(&points, color);
        }
    }
}

/// An arrow from `from_world` along `vector_world`.
pub fn arrow(camera: &Camera, from_world: Vec2, vector_world: Vec2, width_px: f32, color: Color) {
    if live() {
        crate::app::draw::arrow(camera, from_world, vector_world, width_px, color);
        if svg::recording() {
            // The same geometry as `draw::arrow_px`: a head 30% of the length, at most 10 px.
            let (a, b) = (
                camera.world_to_screen(from_world),
                camera.world_to_screen(from_world + vector_world),
            );
            svg::line(a, b, width_px, color);
            let length = (b - a).length();
            if length >= 1.0 {
                let dir = (b - a) / length;
                let head = (length * 0.3).min(10.0);
                let side = Vec2::new(-dir.y, dir.x) * head * 0.5;
                let base = b - dir * head;
                svg::polygon(&[b, base + side, base - side], color);
            }
        }
    }
}

/// A filled circle (px).
pub fn draw_circle(x: f32, y: f32, r: f32, color: Color) {
    if live() {
        mq::draw_circle(x, y, r, color);
        svg::circle(Vec2::new(x, y), r, None, color);
    }
}

/// A circle's outline (px).
pub fn draw_circle_lines(x: f32, y: f32, r: f32, width: f32, color: Color) {
    if live() {
        mq::draw_circle_lines(x, y, r, width, color);
        svg::circle(Vec2::new(x, y), r, Some(width), color);
    }
}

/// A line (px).
pub fn draw_line(x0: f32, y0: f32, x1: f32, y1: f32, width: f32, color: Color) {
    if live() {
        mq::draw_line(x0, y0, x1, y1, width, color);
        svg::line(Vec2::new(x0, y0), Vec2::new(x1, y1), width, color);
    }
}

/// A filled rectangle (px).
pub fn draw_rectangle(x: f32, y: f32, w: f32, h: f32, color: Color) {
    if live() {
        mq::draw_rectangle(x, y, w, h, color);
        svg::rect(Vec2::new(x, y), Vec2::new(w, h), None, color);
    }
}

/// A rectangle's outline (px).
pub fn draw_rectangle_lines(x: f32, y: f32, w: f32, h: f32, width: f32, color: Color) {
    if live() {
        mq::draw_rectangle_lines(x, y, w, h, width, color);
        svg::rect(Vec2::new(x, y), Vec2::new(w, h), Some(width), color);
    }
}

/// `text` in the characters macroquad's built-in font has (ASCII): the narration's true
/// minus and dashes become hyphens, the star an asterisk.
pub fn ascii(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '−' | '–' | '—' => out.push('-'),
            '★' => out.push('*'),
            '·' => out.push('.'),
            '°' => out.push('d'),
            // The bounding-volume lessons' symbols, spelt out.
            'τ' => out.push_str("tau"),
            'ρ' => out.push_str("rho"),
            '²' => out.push_str("^2"),
            c if c.is_ascii() => out.push(c),
            _ => out.push('?'),
        }
    }
    out
}

/// Draws `text` (made ASCII) at a screen point.
pub fn text(text: &str, x: f32, y: f32, size: f32, color: Color) {
    if live() {
        let shown = ascii(text);
        mq::draw_text(&shown, x, y, size, color);
        if svg::recording() {
            svg::text(&shown, Vec2::new(x, y), size, measure(&shown, size).0, color);
        }
    }
}

/// Height of a view's title (px): labels keep below it.
const TITLE_PX: f32 = 22.0;

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
    text(
        title,
        rect.min.x + 10.0,
        rect.min.y + TITLE_PX,
        TITLE_PX,
        colors::TEXT_DIM,
    );
    VIEW.with(|v| v.set(Some(rect)));
    PENDING.with(|p| p.borrow_mut().clear());
    OBSTACLES.with(|o| o.borrow_mut().clear());
    ORIGIN.with(|o| o.set(None));
    // The title is a mark too.
    let (w, _, _) = measure(&ascii(title), TITLE_PX);
    OBSTACLES.with(|o| {
        o.borrow_mut().push(labels::Rect::at(
            rect.min + Vec2::new(6.0, 2.0),
            Vec2::new(w + 10.0, TITLE_PX + 6.0),
        ))
    });
}

/// Ends a view: places and draws its labels, lifts the clip and draws the frame.
pub fn end_view(rect: Rect) {
    let pending = PENDING.with(|p| std::mem::take(&mut *p.borrow_mut()));
    let obstacles = OBSTACLES.with(|o| std::mem::take(&mut *o.borrow_mut()));
    let boxes: Vec<(f32, f32, f32)> = pending.iter().map(|l| measure(&l.text, LABEL_PX)).collect();
    let requests: Vec<LabelRequest> = pending
        .iter()
        .zip(&boxes)
        .map(|(l, &(w, h, offset_y))| LabelRequest {
            anchor: l.anchor,
            preferred: Some(l.preferred_baseline - Vec2::new(2.0, offset_y + 2.0)),
            size: Vec2::new(w + 4.0, h + 4.0),
        })
        .collect();
    let bounds = labels::Rect {
        min: rect.min + Vec2::splat(2.0),
        max: rect.max - Vec2::splat(2.0),
    };
    let placed = labels::place_labels(&requests, &obstacles, bounds);
    for ((l, p), &(_, _, offset_y)) in pending.iter().zip(&placed).zip(&boxes) {
        if let Some((a, b)) = p.leader {
            draw_line(a.x, a.y, b.x, b.y, 1.0, colors::alpha(l.color, 0.6));
        }
        let size = p.rect.size();
        draw_rectangle(
            p.rect.min.x,
            p.rect.min.y,
            size.x,
            size.y,
            Color::new(0.05, 0.05, 0.06, 0.72),
        );
        if live() {
            mq::draw_text(
                &l.text,
                p.rect.min.x + 2.0,
                p.rect.min.y + offset_y + 2.0,
                LABEL_PX,
                l.color,
            );
            svg::text(
                &l.text,
                Vec2::new(p.rect.min.x + 2.0, p.rect.min.y + offset_y + 2.0),
                LABEL_PX,
                size.x - 4.0,
                l.color,
            );
        }
    }
    {
        let origin = ORIGIN.with(Cell::get);
        let target = if live() { &LIVE } else { &RECORDED };
        target.with(|r| {
            r.borrow_mut().push(PlacedLabels {
                view: rect,
                labels: pending
                    .iter()
                    .zip(&placed)
                    .map(|(l, p)| (l.text.clone(), p.rect))
                    .collect(),
                origin,
                overlapping: pending
                    .iter()
                    .zip(&placed)
                    .filter(|(_, p)| p.overlapping)
                    .map(|(l, _)| l.text.clone())
                    .collect(),
            })
        });
    }
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
/// Labels keep off it.
pub fn dot(camera: &Camera, p_world: Vec2, radius_px: f32, color: Color) {
    let p = camera.world_to_screen(p_world);
    draw_circle(p.x, p.y, radius_px + 1.5, Color::new(0.05, 0.05, 0.06, 0.9));
    draw_circle(p.x, p.y, radius_px, color);
    obstacle(p, radius_px + 1.5);
}

/// A ring of `radius_px` at a world point. Labels keep off it.
pub fn ring(camera: &Camera, p_world: Vec2, radius_px: f32, width_px: f32, color: Color) {
    let p = camera.world_to_screen(p_world);
    draw_circle_lines(p.x, p.y, radius_px, width_px, color);
    obstacle(p, radius_px + width_px * 0.5);
}

/// A label next to a world point, offset by `offset_px` (screen, y-down) where there is
/// room, on a dark backing so it stays readable over shapes and lines.
pub fn label(camera: &Camera, p_world: Vec2, offset_px: Vec2, text: &str, color: Color) {
    let anchor = camera.world_to_screen(p_world);
    queue_label(anchor, anchor + offset_px, text, color);
}

/// A label at a screen point (its baseline's left end). Inside a view it is placed
/// with the others; outside one it is drawn at once.
pub fn label_px(p: Vec2, text: &str, color: Color) {
    if VIEW.with(Cell::get).is_some() {
        queue_label(p, p, text, color);
        return;
    }
    let text = ascii(text);
    let (w, h, offset_y) = measure(&text, LABEL_PX);
    draw_rectangle(
        p.x - 2.0,
        p.y - offset_y - 2.0,
        w + 4.0,
        h + 4.0,
        Color::new(0.05, 0.05, 0.06, 0.65),
    );
    if live() {
        mq::draw_text(&text, p.x, p.y, LABEL_PX, color);
        svg::text(&text, p, LABEL_PX, w, color);
    }
}

/// From one line of a wrapped label to the next (px).
const LINE_PX: f32 = LABEL_PX + 6.0;

/// Queues a label for [`end_view`]: it names `anchor` and would like its baseline's
/// left end at `preferred_baseline`. A label wider than the view is wrapped at spaces
/// into lines queued one under the other (above, when it sits in the view's lower
/// half), each placed like any label.
fn queue_label(anchor: Vec2, preferred_baseline: Vec2, text: &str, color: Color) {
    let text = ascii(text);
    let view = VIEW.with(Cell::get);
    let max_px = view.map_or(f32::INFINITY, |r| r.size().x - 24.0);
    let lines = crate::app::draw::debug::wrap_to_width(&text, max_px, |t| measure(t, LABEL_PX).0);
    let upward = view.is_some_and(|r| preferred_baseline.y > (r.min.y + r.max.y) * 0.5);
    let n = lines.len();
    PENDING.with(|p| {
        let mut p = p.borrow_mut();
        for (i, line) in lines.into_iter().enumerate() {
            let shift = if upward {
                -((n - 1 - i) as f32) * LINE_PX
            } else {
                i as f32 * LINE_PX
            };
            p.push(Pending {
                anchor: anchor + Vec2::new(0.0, shift),
                preferred_baseline: preferred_baseline + Vec2::new(0.0, shift),
                text: line,
                color,
            });
        }
    });
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

/// Name of vertex `i` of `owner` as the labels and the narration write it: a0, b3.
pub fn vertex_name(owner: crate::narrow::trace::Owner, i: usize) -> String {
    match owner {
        crate::narrow::trace::Owner::A => format!("a{i}"),
        crate::narrow::trace::Owner::B => format!("b{i}"),
    }
}
