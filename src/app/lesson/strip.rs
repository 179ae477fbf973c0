//! The projection strip: one row per SAT axis tested so far, with A's and B's shadows on
//! that axis, the gap or the overlap between them, and the running minimum overlap
//! (the row holding it is starred). Drawn with macroquad under the two views.

use super::paint::label_px;
use super::paint::{draw_line, draw_rectangle, draw_rectangle_lines};
use super::{colors, Rect};
use crate::lesson::{fmt_num, SatRow, StepState};
use crate::math::Vec2;
use crate::narrow::trace::{AxisSource, Owner};
use macroquad::prelude::Color;

/// Height of the heading (px).
pub const HEADER_PX: f32 = 28.0;
/// Height of a row (px).
pub const ROW_PX: f32 = 24.0;
/// Least width of the left column (the axis' name); wider when a name needs it.
const NAME_PX: f32 = 170.0;
/// Width of the right column (the numbers).
const NUMBERS_PX: f32 = 300.0;

/// The strip's heading: the longest of its wordings that fits `max_px` by `width_px`
/// (a heading cut off mid-word says less than a shorter one).
pub fn strip_header(max_px: f32, width_px: impl Fn(&str) -> f32) -> &'static str {
    const WORDINGS: [&str; 4] = [
        "Projection strip: one row per axis tested — A's shadow, B's shadow, the overlap (red) or the gap (green)",
        "Projection strip: A's and B's shadows per axis, overlap (red) or gap (green)",
        "Projection strip: shadows per axis, overlap red, gap green",
        "Projection strip",
    ];
    WORDINGS
        .into_iter()
        .find(|w| width_px(w) <= max_px)
        .unwrap_or(WORDINGS[WORDINGS.len() - 1])
}

/// The name of an axis as the strip writes it.
pub fn axis_name(row: &SatRow) -> String {
    let n = row.axis.index + 1;
    let piece = if row.pieces != (0, 0) {
        format!(" [{},{}]", row.pieces.0, row.pieces.1)
    } else {
        String::new()
    };
    match row.axis.source {
        AxisSource::Edge { owner, edge, .. } => {
            let o = if owner == Owner::A { "A" } else { "B" };
            format!("{n}. normal of {o}'s edge {edge}{piece}")
        }
        AxisSource::CircleToVertex { vertex } => format!("{n}. centre to vertex {vertex}{piece}"),
        AxisSource::CenterToCenter => format!("{n}. centre to centre"),
    }
}

/// The numbers of a row: the overlap or the gap, the running minimum, Fayzrakhmanov et al.'s (2015) edge test.
pub fn row_numbers(row: &SatRow) -> String {
    let mut text = if row.axis.gap > 0.0 {
        format!("gap {}: separated!", fmt_num(row.axis.gap))
    } else {
        format!("overlap {}", fmt_num(row.overlap()))
    };
    if row.axis.gap <= 0.0 {
        if let Some(m) = row.running_min {
            text.push_str(&format!("   min so far {}", fmt_num(m)));
        }
    }
    if let Some(e) = row.edge_test {
        text.push_str(if e.straddles {
            "   edge reaches B"
        } else {
            "   edge misses B"
        });
    }
    text
}

/// Draws the strip in `rect` at step `s`: the rows that fit, ending with the newest.
pub fn draw(rect: Rect, s: &StepState) {
    super::scissor(None);
    draw_rectangle(rect.min.x, rect.min.y, rect.size().x, rect.size().y, colors::VIEW_BG);
    draw_rectangle_lines(
        rect.min.x,
        rect.min.y,
        rect.size().x,
        rect.size().y,
        1.5,
        colors::VIEW_FRAME,
    );
    super::scissor(Some(rect));
    let measure = |t: &str| super::paint::measure(&super::paint::ascii(t), 18.0).0;
    super::paint::text(
        strip_header(rect.size().x - 20.0, measure),
        rect.min.x + 10.0,
        rect.min.y + 20.0,
        18.0,
        colors::TEXT_DIM,
    );
    let fit = (((rect.size().y - HEADER_PX) / ROW_PX).floor() as usize).max(1);
    let rows = &s.sat_rows;
    let first = rows.len().saturating_sub(fit);
    let shown = &rows[first..];
    if shown.is_empty() {
        label_px(
            Vec2::new(rect.min.x + 12.0, rect.min.y + HEADER_PX + 18.0),
            "(no axis tested yet: press next)",
            colors::TEXT_DIM,
        );
    }
    // The bars start after the longest name shown, so their baselines never run
    // through a name.
    let name_px = shown
        .iter()
        .map(|r| super::paint::measure(&super::paint::ascii(&axis_name(r)), 17.0).0 + 20.0)
        .fold(NAME_PX, f32::max);
    // One scale for every row, so lengths compare; each row centred on its shadows.
    let bar_lo = rect.min.x + name_px;
    let bar_hi = (rect.max.x - NUMBERS_PX).max(bar_lo + 40.0);
    let span = shown
        .iter()
        .map(|r| r.axis.interval_a.1.max(r.axis.interval_b.1) - r.axis.interval_a.0.min(r.axis.interval_b.0))
        .fold(1e-6f32, f32::max);
    let scale = (bar_hi - bar_lo) * 0.92 / span;
    let current = s.sat_rows.last().map(|r| r.step);
    for (k, row) in shown.iter().enumerate() {
        let y = rect.min.y + HEADER_PX + k as f32 * ROW_PX;
        let is_current = Some(row.step) == current && s.current_axis.is_some();
        if is_current {
            draw_rectangle(
                rect.min.x + 2.0,
                y,
                rect.size().x - 4.0,
                ROW_PX - 2.0,
                Color::new(0.2, 0.22, 0.28, 1.0),
            );
        }
        let name_color = if is_current { colors::TEXT } else { colors::TEXT_DIM };
        super::paint::text(&axis_name(row), rect.min.x + 10.0, y + 17.0, 17.0, name_color);
        let (ia, ib) = (row.axis.interval_a, row.axis.interval_b);
        let mid = 0.5 * (ia.0.min(ib.0) + ia.1.max(ib.1));
        let x = |t: f32| 0.5 * (bar_lo + bar_hi) + (t - mid) * scale;
        draw_line(
            bar_lo,
            y + ROW_PX * 0.5,
            bar_hi,
            y + ROW_PX * 0.5,
            1.0,
            colors::VIEW_FRAME,
        );
        let (g0, g1, c) = if row.axis.gap > 0.0 {
            let (g0, g1) = if ia.1 <= ib.0 { (ia.1, ib.0) } else { (ib.1, ia.0) };
            (g0, g1, Color::new(0.35, 0.9, 0.45, 1.0))
        } else {
            (ia.0.max(ib.0), ia.1.min(ib.1), colors::HIGHLIGHT)
        };
        draw_rectangle(
            x(g0).min(x(g1)),
            y + 2.0,
            (x(g1) - x(g0)).abs().max(1.5),
            ROW_PX - 6.0,
            colors::alpha(c, 0.35),
        );
        draw_line(x(ia.0), y + 7.0, x(ia.1), y + 7.0, 6.0, colors::A);
        draw_line(x(ib.0), y + 15.0, x(ib.1), y + 15.0, 6.0, colors::B);
        let numbers = row_numbers(row);
        let nx = bar_hi + 12.0;
        super::paint::text(
            &numbers,
            nx,
            y + 17.0,
            17.0,
            if row.axis.gap > 0.0 { c } else { name_color },
        );
        if row.is_minimum {
            super::paint::text("★", bar_hi - 4.0, y + 18.0, 20.0, colors::SIMPLEX);
            draw_rectangle_lines(
                bar_lo - 4.0,
                y + 1.0,
                bar_hi - bar_lo + 8.0,
                ROW_PX - 4.0,
                1.5,
                colors::alpha(colors::SIMPLEX, 0.8),
            );
        }
    }
    super::scissor(None);
}

#[cfg(test)]
mod tests {
    use super::super::tests::open;
    use super::*;

    #[test]
    fn the_strip_names_every_axis_and_keeps_the_running_minimum() {
        let mut m = open("02_sat_mtv.ron");
        m.player.last();
        let s = m.player.state();
        assert!(!s.sat_rows.is_empty());
        for row in &s.sat_rows {
            assert!(axis_name(row).contains(&format!("{}.", row.axis.index + 1)));
            let numbers = row_numbers(row);
            assert!(numbers.contains("overlap") || numbers.contains("gap"), "{numbers}");
        }
        assert_eq!(s.sat_rows.iter().filter(|r| r.is_minimum).count(), 1);
    }

    #[test]
    fn the_heading_is_the_longest_wording_that_fits() {
        let mono = |t: &str| 9.0 * t.chars().count() as f32;
        assert!(strip_header(2000.0, mono).ends_with("(green)"));
        let mid = strip_header(700.0, mono);
        assert!(mono(mid) <= 700.0 && mid.ends_with("(green)"), "{mid}");
        assert_eq!(strip_header(10.0, mono), "Projection strip");
    }
}
