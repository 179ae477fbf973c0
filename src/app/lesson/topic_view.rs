//! The two views of a topic lesson (lessons 11 on): the world and the topic's diagram,
//! each drawing the marks the shown step carries (`lesson::topic::Mark`) through the
//! lesson views' painter (so labels are placed off each other and SVG export works),
//! plus predict mode's outline, scale bar and scored click.

use super::paint::{
    arrow, begin_view, dashed, dot, draw_circle, draw_circle_lines, draw_rectangle_lines, end_view, fill_convex, label,
    line, measure, outline, ring, LABEL_PX,
};
use super::topic_mode::TopicMode;
use super::{colors, scissor};
use crate::app::camera::Camera;
use crate::lesson::topic::{Mark, Pane, Role, Side, VolumeKind};
use crate::math::Vec2;
use macroquad::prelude::Color;

/// Colours of the scene's bodies, in order (then again).
const BODY_COLORS: [Color; 6] = [
    colors::A,
    colors::B,
    Color::new(0.66, 0.58, 0.96, 1.0),
    Color::new(0.55, 0.85, 0.40, 1.0),
    Color::new(0.95, 0.50, 0.75, 1.0),
    Color::new(0.90, 0.82, 0.35, 1.0),
];

/// The colour of a role.
pub fn color(role: Role) -> Color {
    match role {
        Role::Body(i) => BODY_COLORS[i % BODY_COLORS.len()],
        Role::Volume(kind) => match kind {
            VolumeKind::Aabb => colors::DIRECTION,
            VolumeKind::Circle => colors::MINKOWSKI,
            VolumeKind::ObbMinArea => Color::new(0.45, 0.90, 0.50, 1.0),
            VolumeKind::ObbCovariance => colors::SIMPLEX,
            VolumeKind::Kdop8 => Color::new(1.0, 0.52, 0.80, 1.0),
        },
        Role::Tightness => colors::HIGHLIGHT,
        Role::Diameter => colors::TEXT,
        Role::Active => colors::PREDICT,
        Role::Partner => colors::DIRECTION,
        Role::Pair => colors::PREDICT_HIT,
        Role::Rejected => colors::PREDICT_MISS,
        Role::Muted => colors::alpha(colors::TEXT_DIM, 0.45),
    }
}

fn width(role: Role) -> f32 {
    match role {
        Role::Muted => 1.2,
        Role::Active | Role::Tightness | Role::Pair => 3.5,
        _ => 2.5,
    }
}

/// Draws both views at the step shown.
pub fn draw(mode: &TopicMode) {
    super::paint::begin_frame();
    let trace = mode.player.trace();
    let step = trace.steps.get(mode.player.cursor());
    for (pane, title) in [(Pane::World, &trace.world_title), (Pane::Diagram, &trace.diagram_title)] {
        let (camera, rect) = mode.view_of(pane);
        begin_view(rect, camera, title);
        if let Some(step) = step {
            let marks = match pane {
                Pane::World => &step.world,
                Pane::Diagram => &step.diagram,
            };
            for m in marks {
                draw_mark(camera, m);
            }
        }
        draw_predict(mode, pane);
        end_view(rect);
    }
    scissor(None);
}

/// One mark.
pub fn draw_mark(cam: &Camera, m: &Mark) {
    match m {
        Mark::Outline { points, role } => outline(cam, points, width(*role), color(*role)),
        Mark::Fill { points, role } => fill_convex(cam, points, colors::alpha(color(*role), 0.28)),
        Mark::Circle {
            center,
            radius,
            role,
            filled,
        } => {
            let p = cam.world_to_screen(*center);
            let r = cam.length_to_screen(*radius);
            if *filled {
                draw_circle(p.x, p.y, r, colors::alpha(color(*role), 0.28));
            }
            draw_circle_lines(p.x, p.y, r, width(*role), color(*role));
        }
        Mark::Segment {
            from,
            to,
            role,
            dashed: true,
        } => dashed(cam, *from, *to, width(*role), 5.0, color(*role)),
        Mark::Segment { from, to, role, .. } => line(cam, *from, *to, width(*role), color(*role)),
        Mark::Arrow { from, vector, role } => arrow(cam, *from, *vector, width(*role), color(*role)),
        Mark::Dot { at, role } => dot(cam, *at, 5.0, color(*role)),
        Mark::Label { at, text, role, side } => {
            let (w, _, _) = measure(&super::paint::ascii(text), LABEL_PX);
            let offset = match side {
                Side::Right => Vec2::new(10.0, 6.0),
                Side::Left => Vec2::new(-10.0 - w, 6.0),
                Side::Above => Vec2::new(-0.5 * w, -12.0),
                Side::Below => Vec2::new(-0.5 * w, 24.0),
            };
            let c = if *role == Role::Muted {
                colors::TEXT_DIM
            } else {
                color(*role)
            };
            label(cam, *at, offset, text, c);
        }
    }
}

/// Predict mode in `pane`: the outline and the tolerance's scale bar while its question
/// is open; on a predicted step, the click and the answer.
fn draw_predict(mode: &TopicMode, pane: Pane) {
    let (camera, rect) = mode.view_of(pane);
    let steps = &mode.player.trace().steps;
    if let Some(t) = mode
        .predict
        .pending
        .and_then(|s| steps.get(s))
        .and_then(|s| s.target.as_ref())
        .filter(|t| t.pane == pane)
    {
        let inset = 3.0;
        draw_rectangle_lines(
            rect.min.x + inset,
            rect.min.y + inset,
            rect.size().x - 2.0 * inset,
            rect.size().y - 2.0 * inset,
            4.0,
            colors::PREDICT,
        );
        let r_px = camera.length_to_screen(t.tolerance);
        let right = Vec2::new(rect.max.x - 16.0, rect.min.y + 34.0);
        let (a, b) = (
            camera.screen_to_world(right - Vec2::new(r_px, 0.0)),
            camera.screen_to_world(right),
        );
        line(camera, a, b, 3.0, colors::PREDICT);
        label(
            camera,
            a,
            Vec2::new(0.0, 18.0),
            "click within this of the answer",
            colors::PREDICT,
        );
    }
    let cursor = mode.player.cursor();
    let Some(attempt) = mode.predict.board.attempt_for(cursor) else {
        return;
    };
    if steps
        .get(attempt.step)
        .and_then(|s| s.target.as_ref())
        .is_none_or(|t| t.pane != pane)
    {
        return;
    }
    let colour = if attempt.hit {
        colors::PREDICT_HIT
    } else {
        colors::PREDICT_MISS
    };
    line(camera, attempt.click, attempt.answer, 1.5, Color { a: 0.7, ..colour });
    ring(camera, attempt.answer, 9.0, 2.5, colors::PREDICT_HIT);
    dot(camera, attempt.click, 4.0, colour);
    let words = if attempt.hit { "your click: right" } else { "your click" };
    label(camera, attempt.click, Vec2::new(8.0, 14.0), words, colour);
}
