//! The tools' previews, drawn over the world: the shape being dragged from the palette
//! (a ghost under the cursor), the mouse spring, the polygon being drawn with its
//! crossing edges in red, and the launcher's aim.

use super::super::shapes::ShapeParams;
use super::super::state::AppState;
use super::super::tools::{draw_polygon, launch, Mode};
use super::{colors, fill_convex, line, outline};
use crate::geometry::Polygon;
use crate::math::Vec2;
use macroquad::prelude::{draw_circle, draw_circle_lines, draw_text, Color};

/// The ghost of a shape about to be dropped.
const GHOST_FILL: Color = Color::new(0.6, 0.9, 1.0, 0.18);
/// Its outline.
const GHOST_OUTLINE: Color = Color::new(0.6, 0.9, 1.0, 0.9);
/// The mouse spring.
const SPRING: Color = Color::new(1.0, 0.85, 0.2, 0.9);
/// The launcher's aim line, ball and speed.
const AIM: Color = Color::new(1.0, 0.45, 0.3, 0.95);
/// Edges of the polygon being drawn.
const DRAWN_EDGE: Color = Color::new(0.6, 0.9, 1.0, 1.0);
/// Its rubber band and closing edge, not yet clicked.
const PENDING_EDGE: Color = Color::new(0.6, 0.9, 1.0, 0.45);

/// Draws the tools' previews (a palette shape under the cursor, the mouse spring, a
/// polygon in progress).
pub fn draw_tool_preview(state: &AppState) {
    let tools = &state.tools;
    if let Some(params) = tools.palette_drag {
        if tools.cursor_in_world {
            draw_ghost(state, &params, tools.cursor_world);
        }
    }
    if let Mode::Place(params) = tools.mode {
        if tools.cursor_in_world {
            draw_ghost(state, &params, tools.cursor_world);
        }
    }
    if let Some(grab) = &tools.grab {
        if let Some(anchor) = grab.anchor_world(state) {
            let cam = &state.camera;
            let exact = super::super::tools::drag::is_exact(state, grab.body);
            if !exact {
                line(cam, anchor, grab.target_world, 1.5, SPRING);
                let t = cam.world_to_screen(grab.target_world);
                draw_circle_lines(t.x, t.y, 5.0, 1.5, SPRING);
            }
            let a = cam.world_to_screen(anchor);
            draw_circle(a.x, a.y, 3.5, SPRING);
        }
    }
    if tools.mode == Mode::DrawPolygon {
        draw_polygon_in_progress(state);
    }
    if let Some(aim) = &tools.aim {
        draw_aim(state, aim);
    }
}

/// The launcher's aim: the ball at the press point, the line of the drag with an arrow
/// head, and the speed it would fire at beside the cursor.
fn draw_aim(state: &AppState, aim: &launch::Aim) {
    let cam = &state.camera;
    let from = cam.world_to_screen(aim.from_world);
    let radius_px = cam.pixels_per_metre * launch::PROJECTILE_RADIUS_M;
    draw_circle(from.x, from.y, radius_px.max(3.0), AIM);
    let min_drag_m = cam.length_to_world(launch::MIN_DRAG_PX);
    let Some(velocity) = launch::launch_velocity(aim.from_world, aim.to_world, min_drag_m) else {
        return;
    };
    line(cam, aim.from_world, aim.to_world, 2.0, AIM);
    // The arrow head at the cursor, in screen space (y down).
    let to = cam.world_to_screen(aim.to_world);
    let along = (to - from).normalize_or_zero();
    let across = Vec2::new(-along.y, along.x);
    for side in [-1.0, 1.0] {
        let tip = to - along * 12.0 + across * (6.0 * side);
        macroquad::prelude::draw_line(to.x, to.y, tip.x, tip.y, 2.0, AIM);
    }
    let capped = if velocity.length() >= launch::MAX_SPEED_M_PER_S - 1e-3 {
        " (max)"
    } else {
        ""
    };
    draw_text(
        format!("{:.0} m/s{capped}", velocity.length()),
        to.x + 10.0,
        to.y - 10.0,
        22.0,
        AIM,
    );
}

/// A translucent copy of the shape `params` makes, centred on `at` (world, m).
fn draw_ghost(state: &AppState, params: &ShapeParams, at: Vec2) {
    let cam = &state.camera;
    let points: Vec<Vec2> = params.outline().into_iter().map(|p| p + at).collect();
    if let Ok(polygon) = Polygon::new(&points) {
        for piece in polygon.pieces() {
            fill_convex(cam, piece.vertices(), GHOST_FILL);
        }
    }
    outline(cam, &points, 1.5, GHOST_OUTLINE);
    let c = cam.world_to_screen(at);
    draw_circle(c.x, c.y, 2.5, GHOST_OUTLINE);
}

/// The clicked vertices (numbered), the edges between them, the rubber band to the
/// cursor and the closing edge; red where an edge crosses another.
fn draw_polygon_in_progress(state: &AppState) {
    let cam = &state.camera;
    let mouse_px = cam.world_to_screen(state.tools.cursor_world);
    let preview = draw_polygon::preview(state, mouse_px);
    let n = preview.points.len();
    let clicked = state.tools.polygon.len();
    if n >= 2 {
        // Edges between clicked vertices, then (with the cursor) the rubber band, then
        // the closing edge (only once there is a polygon to close).
        let edge_count = if n >= 3 { n } else { n - 1 };
        for i in 0..edge_count {
            let (a, b) = (preview.points[i], preview.points[(i + 1) % n]);
            let pending = i + 1 >= clicked;
            let color = if preview.crossing.get(i).copied().unwrap_or(false) {
                colors::ERROR
            } else if pending {
                PENDING_EDGE
            } else {
                DRAWN_EDGE
            };
            line(cam, a, b, if pending { 1.5 } else { 2.5 }, color);
        }
    }
    let snap = draw_polygon::snaps_to_first(state, mouse_px);
    for (i, &v) in state.tools.polygon.iter().enumerate() {
        let p = cam.world_to_screen(v);
        if i == 0 && snap {
            draw_circle_lines(p.x, p.y, draw_polygon::CLOSE_RADIUS_PX, 2.0, colors::SELECTED);
        }
        draw_circle(p.x, p.y, 3.5, if i == 0 { colors::SELECTED } else { DRAWN_EDGE });
        draw_text((i + 1).to_string(), p.x + 6.0, p.y - 6.0, 18.0, colors::OUTLINE);
    }
}
