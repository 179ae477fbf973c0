//! The debug layers (see [`DebugFlags`](crate::app::flags::DebugFlags)): separating
//! axes, contacts and MTVs, Voronoi regions, bounding volumes with their tightness,
//! convex pieces, the broad phase's structure, velocities, centres of mass and the
//! Minkowski difference.
//!
//! Each layer reads the world and the [`DebugCache`](crate::app::debug_cache::DebugCache)
//! (the focus pair's trace, measured once per frame by the window loop) and draws; none
//! changes anything. One file per family: `axes.rs` (separating axes), `voronoi.rs`,
//! `bounds.rs`, `broad.rs`, `focus.rs` (the focus pair, its Minkowski difference), and
//! here the small per-body layers.

pub mod axes;
pub mod bounds;
pub mod broad;
pub mod focus;
pub mod voronoi;

use super::super::state::AppState;
use super::{arrow, colors, outline};
use crate::geometry::Shape;
use crate::math::Vec2;
use macroquad::prelude::{
    draw_circle, draw_circle_lines, draw_line, draw_rectangle, draw_text, draw_triangle, measure_text, Color,
};

/// Colours of the debug layers.
pub mod palette {
    use macroquad::prelude::Color;

    /// Shape A of the focus pair, and its projection intervals.
    pub const SHAPE_A: Color = Color::new(1.0, 0.58, 0.18, 1.0);
    /// Shape B of the focus pair, and its projection intervals.
    pub const SHAPE_B: Color = Color::new(0.30, 0.70, 1.0, 1.0);
    /// The minimum-overlap axis.
    pub const MIN_AXIS: Color = Color::new(1.0, 0.92, 0.25, 1.0);
    /// A separating axis (a gap).
    pub const SEPARATING: Color = Color::new(0.30, 0.95, 0.45, 1.0);
    /// Overlap of two intervals.
    pub const OVERLAP: Color = Color::new(1.0, 0.25, 0.35, 1.0);
    /// Minimum translation vectors.
    pub const MTV: Color = Color::new(0.95, 0.35, 0.95, 1.0);
    /// Velocity arrows.
    pub const VELOCITY: Color = Color::new(0.35, 0.95, 0.85, 1.0);
    /// Convex pieces' outlines (dark, over the light fills).
    pub const PIECES: Color = Color::new(0.05, 0.06, 0.10, 0.85);
    /// Labels' text.
    pub const TEXT: Color = Color::new(0.95, 0.96, 0.98, 1.0);
    /// Labels' background.
    pub const LABEL_BG: Color = Color::new(0.06, 0.07, 0.09, 0.78);
}

/// Font size of labels (px).
pub const LABEL_FONT: u16 = 15;

/// Text at `screen` (px, the baseline's left end) on a dark box so it reads over anything.
pub fn label_px(screen: Vec2, text: &str, color: Color) {
    let size = measure_text(text, None, LABEL_FONT, 1.0);
    draw_rectangle(
        screen.x - 3.0,
        screen.y - size.offset_y - 2.0,
        size.width + 6.0,
        size.height + 5.0,
        palette::LABEL_BG,
    );
    draw_text(text, screen.x, screen.y, f32::from(LABEL_FONT), color);
}

/// Text wrapped at spaces into lines no wider than `max_px` by `width_px` (a word
/// wider than that gets a line of its own).
pub fn wrap_to_width(text: &str, max_px: f32, width_px: impl Fn(&str) -> f32) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut current = String::new();
    for word in text.split(' ').filter(|w| !w.is_empty()) {
        let candidate = if current.is_empty() {
            word.to_string()
        } else {
            format!("{current} {word}")
        };
        if !current.is_empty() && width_px(&candidate) > max_px {
            lines.push(std::mem::replace(&mut current, word.to_string()));
        } else {
            current = candidate;
        }
    }
    if !current.is_empty() || lines.is_empty() {
        lines.push(current);
    }
    lines
}

/// Label lines from `(x, y)` (px, the first baseline's left end) down, each wrapped to
/// stay inside the view (a line running under a panel says nothing). Returns the
/// baseline below the last line.
pub fn label_lines_px(state: &AppState, x: f32, mut y: f32, text: &str, color: Color) -> f32 {
    let (_, hi) = state.viewport_px;
    let max_px = (hi.x - x - 12.0).max(40.0);
    for line in wrap_to_width(text, max_px, |t| measure_text(t, None, LABEL_FONT, 1.0).width) {
        label_px(Vec2::new(x, y), &line, color);
        y += LABEL_LINE_PX;
    }
    y
}

/// From one label line's baseline to the next (px).
pub const LABEL_LINE_PX: f32 = 20.0;

/// A label centred on a world point, shifted by `offset_px` on the screen, and kept
/// inside the view (a label half under a panel says nothing).
pub fn label_world(state: &AppState, world: Vec2, offset_px: Vec2, text: &str, color: Color) {
    let size = measure_text(text, None, LABEL_FONT, 1.0);
    let s = state.camera.world_to_screen(world) + offset_px;
    let (lo, hi) = state.viewport_px;
    let x = (s.x - size.width * 0.5).min(hi.x - size.width - 6.0).max(lo.x + 6.0);
    let y = (s.y + size.height * 0.5).min(hi.y - 6.0).max(lo.y + size.height + 6.0);
    label_px(Vec2::new(x, y), text, color);
}

/// A metres value with a precision that suits its size.
pub fn metres(v: f32) -> String {
    let a = v.abs();
    if a == 0.0 {
        "0 m".to_string()
    } else if a < 0.001 {
        format!("{:.2} mm", v * 1000.0)
    } else if a < 0.1 {
        format!("{:.4} m", v)
    } else {
        format!("{:.3} m", v)
    }
}

/// Draws every debug layer that is on, over the bodies and under the overlay. The
/// panel's readout lists the layers' lines of text; here they sit on the picture.
pub fn draw_debug(state: &AppState) {
    let flags = &state.debug;
    if flags.broad {
        broad::draw_broad_phase(state);
    }
    if flags.voronoi {
        voronoi::draw_voronoi(state);
    }
    if let Some(kind) = flags.bounds {
        bounds::draw_bounds(state, kind);
    }
    if flags.pieces {
        draw_pieces(state);
    }
    // A wrong answer is shown whatever the layers: the pair is outlined and lettered,
    // and the verdict sits under its letters.
    let wrong = state.debug_cache.focus.as_ref().is_some_and(|f| f.verdict.is_wrong());
    if flags.axes || flags.minkowski || flags.voronoi || wrong {
        focus::draw_focus_bodies(state);
    }
    if flags.axes {
        axes::draw_axes(state);
    }
    if flags.contacts {
        super::world::draw_contacts(state);
    }
    if flags.mtv {
        draw_mtvs(state);
    }
    if flags.velocities {
        draw_velocities(state);
    }
    if flags.centers {
        draw_centers(state);
    }
    focus::draw_verdict(state);
    // Last: the inset is a box of its own over the scene.
    if flags.minkowski {
        focus::draw_minkowski(state);
    }
}

/// Each convex piece of a decomposed polygon, outlined thin and dark.
pub fn draw_pieces(state: &AppState) {
    let cam = &state.camera;
    let view = cam.visible_world();
    let mut scratch = Vec::new();
    for (_, body) in state.world.bodies().iter() {
        let shape = body.shape();
        if shape.piece_count() < 2 || !body.aabb().overlaps(&view) {
            continue;
        }
        let pose = body.pose();
        for i in 0..shape.piece_count() {
            scratch.clear();
            scratch.extend(shape.piece(i).vertices.iter().map(|&v| pose.apply_point(v)));
            outline(cam, &scratch, 1.2, palette::PIECES);
        }
    }
}

/// Smallest MTV arrow (px): shorter ones are drawn this long and labelled with their
/// true length.
const MIN_MTV_PX: f32 = 16.0;

/// The minimum translation vector of each contact, from body A's centre of mass, at its
/// true length (or at least `MIN_MTV_PX`). The focus pair's is labelled with its
/// magnitude, and so is any drawn longer than it is when its bodies are big enough on
/// screen for a label not to bury them.
pub fn draw_mtvs(state: &AppState) {
    let cam = &state.camera;
    let view = cam.visible_world();
    let manifolds = state.world.contacts();
    let focus = state.debug_cache.focus.as_ref().map(|f| (f.choice.a, f.choice.b));
    for m in manifolds {
        let Some(a) = state.world.body(m.body_a) else { continue };
        let from = a.center_of_mass();
        if !view.contains(from) {
            continue;
        }
        let len = m.mtv.length();
        if len <= 0.0 {
            continue;
        }
        let len_px = cam.length_to_screen(len);
        let drawn = if len_px < MIN_MTV_PX {
            m.mtv / len * cam.length_to_world(MIN_MTV_PX)
        } else {
            m.mtv
        };
        arrow(cam, from, drawn, 2.0, palette::MTV);
        let is_focus = focus == Some((m.body_a, m.body_b));
        let big = cam.length_to_screen(a.outer_reach()) > 40.0;
        if is_focus || (len_px < MIN_MTV_PX && big) {
            let tip = from + drawn;
            let dir = Vec2::new(drawn.x, -drawn.y).normalize_or_zero();
            label_world(state, tip, dir * 30.0, &format!("MTV {}", metres(len)), palette::MTV);
        }
    }
}

/// Seconds of motion a velocity arrow shows: the arrow ends where the body's centre
/// would be after this long.
pub const VELOCITY_ARROW_SECONDS: f32 = 0.25;

/// Each moving body's linear velocity, from its centre of mass.
pub fn draw_velocities(state: &AppState) {
    let cam = &state.camera;
    let view = cam.visible_world();
    for (_, body) in state.world.bodies().iter() {
        let from = body.center_of_mass();
        if !body.is_dynamic() || !view.contains(from) {
            continue;
        }
        let v = body.linear_velocity() * VELOCITY_ARROW_SECONDS;
        if cam.length_to_screen(v.length()) < 3.0 {
            continue;
        }
        arrow(cam, from, v, 1.8, palette::VELOCITY);
    }
}

/// Each body's centre of mass: the usual crossed circle with two opposite quarters
/// filled, 5 px across, smaller on bodies too small on screen to carry it.
pub fn draw_centers(state: &AppState) {
    let cam = &state.camera;
    let view = cam.visible_world();
    for (_, body) in state.world.bodies().iter() {
        let r = (cam.length_to_screen(body.outer_reach()) * 0.3).clamp(1.5, 5.0);
        let c = body.center_of_mass();
        if !view.contains(c) || matches!(body.shape(), Shape::Segment(_)) && !body.is_dynamic() {
            continue;
        }
        let s = cam.world_to_screen(c);
        let p = |x: f32, y: f32| macroquad::math::vec2(s.x + x, s.y + y);
        draw_circle(s.x, s.y, r, colors::with_alpha(palette::TEXT, 0.9));
        // Two opposite quarters dark, each a fan of three triangles.
        for quarter in [0.0f32, std::f32::consts::PI] {
            for k in 0..3 {
                let t0 = quarter + k as f32 * std::f32::consts::FRAC_PI_6;
                let t1 = t0 + std::f32::consts::FRAC_PI_6;
                draw_triangle(
                    p(0.0, 0.0),
                    p(r * t0.cos(), -r * t0.sin()),
                    p(r * t1.cos(), -r * t1.sin()),
                    Color::new(0.08, 0.08, 0.1, 1.0),
                );
            }
        }
        draw_circle_lines(s.x, s.y, r, 1.0, Color::new(0.08, 0.08, 0.1, 1.0));
        draw_line(
            s.x - r * 1.6,
            s.y,
            s.x + r * 1.6,
            s.y,
            1.0,
            Color::new(0.08, 0.08, 0.1, 1.0),
        );
        draw_line(
            s.x,
            s.y - r * 1.6,
            s.x,
            s.y + r * 1.6,
            1.0,
            Color::new(0.08, 0.08, 0.1, 1.0),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::wrap_to_width;

    /// 10 px per character, like a monospace font.
    fn mono(t: &str) -> f32 {
        10.0 * t.chars().count() as f32
    }

    #[test]
    fn long_text_wraps_at_spaces_within_the_width() {
        let lines = wrap_to_width("separating axes: body 3 (A) and body 7 (B), the deepest", 200.0, mono);
        assert!(lines.len() > 1);
        assert!(lines.iter().all(|l| mono(l) <= 200.0), "{lines:?}");
        assert_eq!(
            lines.join(" "),
            "separating axes: body 3 (A) and body 7 (B), the deepest"
        );
    }

    #[test]
    fn a_short_line_and_an_overlong_word_stay_whole() {
        assert_eq!(wrap_to_width("apart", 200.0, mono), ["apart"]);
        assert_eq!(
            wrap_to_width("a bbbbbbbbbbbbbbbbbbbbbbbbb c", 100.0, mono),
            ["a", "bbbbbbbbbbbbbbbbbbbbbbbbb", "c"]
        );
        assert_eq!(wrap_to_width("", 100.0, mono), [""]);
    }
}
