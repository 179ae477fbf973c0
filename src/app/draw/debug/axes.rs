//! Separating axes of the focus pair (Fayzrakhmanov et al.'s (2015) steps 3–8, SAT over pieces).
//!
//! Every axis is a line of the plane, drawn across the view, and every point of the line
//! stands for one projection value: the point at value `s` projects to `s`. So a
//! shape's projection interval is a bar on that line, exactly where the shape's shadow
//! falls. The lines are pushed sideways out of the pair (all tangent to one circle
//! around both shapes) so the bars sit beside the shapes instead of over them:
//!
//! ```text
//!            ╲ axis k           point at value s:  C⊥ + s·n + R·n⊥
//!   ██A██     ╲ ▬▬▬ A's bar      C⊥ = C − (C·n)·n  (the pair's centre, across n)
//!   ██B██      ╲  ▬▬▬ B's bar    n⊥ = n turned a quarter (the shift, R = reach + margin)
//! ```
//!
//! The minimum-overlap axis is bright and labelled with its overlap; an axis with a gap
//! (it proves separation) is green; with many axes (gears) the rest fade.

use super::super::super::state::AppState;
use super::{label_lines_px, label_world, metres, palette};
use crate::app::debug_cache::{AxisRole, FocusPair};
use crate::app::draw::colors::with_alpha;
use crate::app::tools::body_label;
use crate::math::Vec2;
use crate::narrow::trace::{AxisSource, Owner};
use crate::narrow::Algorithm;
use macroquad::prelude::Color;

/// Axes drawn at most (the minimum and the separating ones always are).
pub const MAX_AXES_DRAWN: usize = 96;

/// Where an axis line lies: origin (the point at projection value 0) and direction,
/// world frame. `center` is the pair's centre, `shift` how far the line is pushed
/// sideways (m).
pub fn axis_line(center: Vec2, axis: Vec2, shift: f32) -> (Vec2, Vec2) {
    let across = Vec2::new(-axis.y, axis.x);
    (center - axis * center.dot(axis) + across * shift, axis)
}

/// The point of an axis line at projection value `s`.
pub fn at_value(line: (Vec2, Vec2), s: f32) -> Vec2 {
    line.0 + line.1 * s
}

/// A short name for an axis's source ("edge 3 of A").
pub fn describe_source(source: AxisSource) -> String {
    match source {
        AxisSource::Edge { owner, piece, edge } => {
            let who = match owner {
                Owner::A => "A",
                Owner::B => "B",
            };
            if piece == 0 {
                format!("edge {edge} of {who}")
            } else {
                format!("edge {edge} of {who}'s piece {piece}")
            }
        }
        AxisSource::CircleToVertex { vertex } => format!("circle to vertex {vertex}"),
        AxisSource::CenterToCenter => "centre to centre".to_string(),
    }
}

/// Draws the focus pair's axes with both projection intervals.
pub fn draw_axes(state: &AppState) {
    let Some(focus) = state.debug_cache.focus.as_ref() else {
        return;
    };
    let (Some(a), Some(b)) = (state.world.body(focus.choice.a), state.world.body(focus.choice.b)) else {
        return;
    };
    let cam = &state.camera;
    let center = (a.center_of_mass() + b.center_of_mass()) * 0.5;
    let reach = [a, b]
        .iter()
        .map(|body| (body.center_of_mass() - center).length() + body.outer_reach())
        .fold(0.0f32, f32::max);
    let shift = reach + cam.length_to_world(28.0);
    let view = cam.visible_world();
    let span = (view.max - view.min).length();

    let count = focus.axes.len();
    let many = count > 12;
    let order = drawing_order(focus);
    let px = |p: f32| cam.length_to_world(p);
    for &i in &order {
        let step = &focus.axes[i];
        let role = focus.roles[i];
        let line = axis_line(center, step.axis, shift);
        let mid = 0.5 * (step.interval_a.0.min(step.interval_b.0) + step.interval_a.1.max(step.interval_b.1));
        let (line_color, line_px, bar_px, alpha) = match role {
            AxisRole::Minimum => (palette::MIN_AXIS, 2.0, 6.0, 1.0),
            AxisRole::Separating => (palette::SEPARATING, 2.0, 6.0, 1.0),
            AxisRole::Other if many => (Color::new(0.7, 0.72, 0.78, 1.0), 1.0, 3.0, 0.28),
            AxisRole::Other => (Color::new(0.7, 0.72, 0.78, 1.0), 1.0, 4.0, 0.55),
        };
        // The axis across the whole view.
        let s0 = at_value(line, mid - span);
        let s1 = at_value(line, mid + span);
        super::super::line(cam, s0, s1, line_px, with_alpha(line_color, 0.5 * alpha));
        // The two intervals, A on one side of the line and B on the other.
        let across = Vec2::new(-step.axis.y, step.axis.x);
        let off = px(bar_px * 0.5 + 1.0);
        let bar = |lo: f32, hi: f32, side: f32, color: Color| {
            let o = across * side * off;
            super::super::line(cam, at_value(line, lo) + o, at_value(line, hi) + o, bar_px, color);
            // End ticks, so touching intervals read as two.
            for v in [lo, hi] {
                let p = at_value(line, v) + o;
                super::super::line(cam, p - across * px(bar_px), p + across * px(bar_px), 1.0, color);
            }
        };
        bar(
            step.interval_a.0,
            step.interval_a.1,
            1.0,
            with_alpha(palette::SHAPE_A, alpha),
        );
        bar(
            step.interval_b.0,
            step.interval_b.1,
            -1.0,
            with_alpha(palette::SHAPE_B, alpha),
        );
        // The overlap, or the gap, between them.
        let lo = step.interval_a.0.max(step.interval_b.0);
        let hi = step.interval_a.1.min(step.interval_b.1);
        if step.gap <= 0.0 {
            let w = bar_px * 2.0 + 4.0;
            super::super::line(
                cam,
                at_value(line, lo),
                at_value(line, hi),
                w,
                with_alpha(palette::OVERLAP, 0.35 * alpha),
            );
        } else {
            super::super::line(
                cam,
                at_value(line, hi),
                at_value(line, lo),
                bar_px * 2.0 + 4.0,
                with_alpha(palette::SEPARATING, 0.35 * alpha),
            );
        }
        match role {
            AxisRole::Minimum => {
                let p = at_value(line, 0.5 * (lo + hi)) + across * px(26.0);
                label_world(
                    state,
                    p,
                    Vec2::ZERO,
                    &format!("min overlap {} · {}", metres(-step.gap), describe_source(step.source)),
                    palette::MIN_AXIS,
                );
            }
            AxisRole::Separating => {
                let p = at_value(line, 0.5 * (lo + hi)) + across * px(26.0);
                label_world(
                    state,
                    p,
                    Vec2::ZERO,
                    &if focus.contact.intersect {
                        // Decomposed algorithms: this piece pair is apart, others meet.
                        format!("gap {} · these pieces apart", metres(step.gap))
                    } else {
                        format!("gap {} · separating", metres(step.gap))
                    },
                    palette::SEPARATING,
                );
            }
            AxisRole::Other => {}
        }
    }
    draw_axes_header(state, focus, order.len());
}

/// Axes in drawing order: the faint ones first, the minimum and separating ones last
/// (on top), at most [`MAX_AXES_DRAWN`].
fn drawing_order(focus: &FocusPair) -> Vec<usize> {
    let mut special: Vec<usize> = (0..focus.axes.len())
        .filter(|&i| focus.roles[i] != AxisRole::Other)
        .collect();
    // The minimum last, on top of everything.
    special.sort_by_key(|&i| focus.roles[i] == AxisRole::Minimum);
    let room = MAX_AXES_DRAWN.saturating_sub(special.len());
    let mut order: Vec<usize> = (0..focus.axes.len())
        .filter(|&i| focus.roles[i] == AxisRole::Other)
        .take(room)
        .collect();
    order.extend(special);
    order
}

/// The legend in the view's top-left corner: which pair, which algorithm's axes.
fn draw_axes_header(state: &AppState, focus: &FocusPair, drawn: usize) {
    let (lo, _) = state.viewport_px;
    let mut y = lo.y + 22.0;
    let mut line = |text: &str, color: Color| {
        y = label_lines_px(state, lo.x + 12.0, y, text, color);
    };
    let total = focus.axes.len();
    let axes_note = if focus.axes_algorithm != focus.algorithm {
        format!(
            // The window's font has no dash glyph: plain punctuation only.
            "; {} tests no axes, these are {}'s",
            focus.algorithm.name(),
            focus.axes_algorithm.name()
        )
    } else {
        String::new()
    };
    line(
        &format!(
            "separating axes: {} (A) × {} (B), {}{}",
            body_label(state, focus.choice.a),
            body_label(state, focus.choice.b),
            focus.choice.reason.describe(),
            axes_note
        ),
        palette::TEXT,
    );
    if total == 0 {
        let is_circle = |h| {
            state
                .world
                .body(h)
                .is_some_and(|b| matches!(b.shape(), crate::geometry::Shape::Circle(_)))
        };
        let culled = focus
            .trace
            .steps
            .iter()
            .any(|s| matches!(s, crate::narrow::trace::TraceStep::BoundsTest { overlap: false, .. }));
        let why = if focus.voronoi().is_some() {
            "no edge axes: a circle meets a polygon by Voronoi regions (voronoi layer)"
        } else if is_circle(focus.choice.a) && is_circle(focus.choice.b) {
            "no axes: two circles meet along the line between their centres"
        } else if culled {
            "no axes: the pieces' bounding boxes are apart, so no piece pair reached SAT"
        } else {
            "no axes were tested for this pair"
        };
        line(why, with_alpha(palette::TEXT, 0.8));
        return;
    }
    line(
        &format!(
            "{} axes{} · bars: A's and B's projections · red: overlap · {}",
            total,
            if drawn < total {
                format!(" ({drawn} drawn)")
            } else {
                String::new()
            },
            if focus.contact.intersect {
                format!("intersect, depth {}", metres(focus.contact.depth))
            } else {
                "apart".to_string()
            }
        ),
        with_alpha(palette::TEXT, 0.85),
    );
    if focus.algorithm == Algorithm::NonConvexSat
        && !focus.contact.intersect
        && !focus.roles.contains(&AxisRole::Separating)
    {
        line(
            "no axis separates, yet no edge of A touches B: Fayzrakhmanov et al.'s (2015) step 7 says apart",
            palette::SEPARATING,
        );
    }
}

/// The axis a step would be drawn on, for tests: its origin and the value of a point.
#[cfg(test)]
fn value_of(line: (Vec2, Vec2), p: Vec2) -> f32 {
    p.dot(line.1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_point_of_the_axis_line_projects_to_its_value() {
        let axis = Vec2::new(0.6, 0.8);
        let line = axis_line(Vec2::new(3.0, -2.0), axis, 1.5);
        for s in [-2.0, 0.0, 0.7, 10.0] {
            assert!((value_of(line, at_value(line, s)) - s).abs() < 1e-5);
        }
        // The line is pushed 1.5 m sideways from the centre.
        let c = Vec2::new(3.0, -2.0);
        let foot = at_value(line, c.dot(axis));
        assert!(((foot - c).length() - 1.5).abs() < 1e-5);
    }

    #[test]
    fn sources_read_as_words() {
        assert_eq!(
            describe_source(AxisSource::Edge {
                owner: Owner::B,
                piece: 0,
                edge: 2
            }),
            "edge 2 of B"
        );
    }
}
