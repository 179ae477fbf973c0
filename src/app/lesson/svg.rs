//! Lesson views as SVG, for slides: while a recording is on, every drawing call of the
//! views (`paint.rs`, which they all go through) also appends its SVG element, in the
//! window's pixel coordinates, each view clipped to its rectangle as on screen.
//!
//! Vector output scales without blur on a projector and its text stays text (editable,
//! searchable). The lesson panel's "Export SVG" and `collision-lab render … --svg
//! OUT.svg` use it.

use super::Rect;
use crate::math::Vec2;
use macroquad::prelude::Color;
use std::cell::RefCell;
use std::fmt::Write;

/// An SVG document being recorded.
#[derive(Debug, Default)]
struct Recording {
    size: Vec2,
    /// The views' union: what the picture shows (the panels are not drawn).
    bounds: Option<Rect>,
    body: String,
    clips: usize,
    open_clip: bool,
}

thread_local! {
    static RECORDING: RefCell<Option<Recording>> = const { RefCell::new(None) };
}

/// Starts recording a picture of `size_px` (the window's logical size).
pub fn start(size_px: Vec2) {
    RECORDING.with(|r| {
        *r.borrow_mut() = Some(Recording {
            size: size_px,
            ..Recording::default()
        })
    });
}

/// Stops recording and returns the SVG document, if one was recording.
pub fn finish() -> Option<String> {
    let rec = RECORDING.with(|r| r.borrow_mut().take())?;
    let frame = rec.bounds.unwrap_or(Rect::new(Vec2::ZERO, rec.size));
    let (min, size) = (frame.min, frame.size());
    let mut out = String::new();
    let _ = write!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w:.0}\" height=\"{h:.0}\" \
         viewBox=\"{x:.2} {y:.2} {w:.2} {h:.2}\" font-family=\"DejaVu Sans Mono, Menlo, Consolas, monospace\">\n\
         <rect x=\"{x:.2}\" y=\"{y:.2}\" width=\"{w:.2}\" height=\"{h:.2}\" fill=\"#15171b\"/>\n",
        x = min.x,
        y = min.y,
        w = size.x,
        h = size.y
    );
    out += &rec.body;
    if rec.open_clip {
        out += "</g>\n";
    }
    out += "</svg>\n";
    Some(out)
}

/// True while a picture is being recorded.
pub fn recording() -> bool {
    RECORDING.with(|r| r.borrow().is_some())
}

fn with(f: impl FnOnce(&mut Recording)) {
    RECORDING.with(|r| {
        if let Some(rec) = r.borrow_mut().as_mut() {
            f(rec);
        }
    });
}

/// `fill="…"` or `stroke="…"` with its opacity.
fn paint(attribute: &str, c: Color) -> String {
    let byte = |x: f32| (x.clamp(0.0, 1.0) * 255.0).round() as u8;
    let mut s = format!("{attribute}=\"#{:02x}{:02x}{:02x}\"", byte(c.r), byte(c.g), byte(c.b));
    if c.a < 1.0 {
        let _ = write!(s, " {attribute}-opacity=\"{:.3}\"", c.a.clamp(0.0, 1.0));
    }
    s
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}

/// Limits what follows to `rect` (a view), until [`end_clip`].
pub fn begin_clip(rect: Rect) {
    with(|rec| {
        if rec.open_clip {
            rec.body += "</g>\n";
        }
        rec.clips += 1;
        let id = rec.clips;
        rec.bounds = Some(
            rec.bounds
                .map_or(rect, |b| Rect::new(b.min.min(rect.min), b.max.max(rect.max))),
        );
        let size = rect.size();
        let _ = writeln!(
            rec.body,
            "<clipPath id=\"view{id}\"><rect x=\"{:.2}\" y=\"{:.2}\" width=\"{:.2}\" height=\"{:.2}\"/></clipPath>\n\
             <g clip-path=\"url(#view{id})\">",
            rect.min.x, rect.min.y, size.x, size.y
        );
        rec.open_clip = true;
    });
}

/// Lifts the clip of [`begin_clip`].
pub fn end_clip() {
    with(|rec| {
        if rec.open_clip {
            rec.body += "</g>\n";
            rec.open_clip = false;
        }
    });
}

/// A line (px).
pub fn line(a: Vec2, b: Vec2, width: f32, color: Color) {
    with(|rec| {
        let _ = writeln!(
            rec.body,
            "<line x1=\"{:.2}\" y1=\"{:.2}\" x2=\"{:.2}\" y2=\"{:.2}\" stroke-width=\"{width:.2}\" stroke-linecap=\"round\" {}/>",
            a.x,
            a.y,
            b.x,
            b.y,
            paint("stroke", color)
        );
    });
}

/// A filled polygon (px).
pub fn polygon(points: &[Vec2], color: Color) {
    if points.len() >= 3 {
        polygon_element(points, &paint("fill", color));
    }
}

/// A closed outline (px).
pub fn outline(points: &[Vec2], width: f32, color: Color) {
    if points.len() >= 2 {
        let style = format!(
            "fill=\"none\" stroke-width=\"{width:.2}\" stroke-linejoin=\"round\" {}",
            paint("stroke", color)
        );
        polygon_element(points, &style);
    }
}

fn polygon_element(points: &[Vec2], style: &str) {
    with(|rec| {
        let _ = writeln!(rec.body, "<polygon points=\"{}\" {style}/>", points_attr(points));
    });
}

fn points_attr(points: &[Vec2]) -> String {
    points
        .iter()
        .map(|p| format!("{:.2},{:.2}", p.x, p.y))
        .collect::<Vec<_>>()
        .join(" ")
}

/// A circle (px): filled, or outlined when `width` is given.
pub fn circle(center: Vec2, r: f32, width: Option<f32>, color: Color) {
    with(|rec| {
        let style = match width {
            Some(w) => format!("fill=\"none\" stroke-width=\"{w:.2}\" {}", paint("stroke", color)),
            None => paint("fill", color),
        };
        let _ = writeln!(
            rec.body,
            "<circle cx=\"{:.2}\" cy=\"{:.2}\" r=\"{r:.2}\" {style}/>",
            center.x, center.y
        );
    });
}

/// A rectangle (px): filled, or outlined when `width` is given.
pub fn rect(min: Vec2, size: Vec2, width: Option<f32>, color: Color) {
    with(|rec| {
        let style = match width {
            Some(w) => format!("fill=\"none\" stroke-width=\"{w:.2}\" {}", paint("stroke", color)),
            None => paint("fill", color),
        };
        let _ = writeln!(
            rec.body,
            "<rect x=\"{:.2}\" y=\"{:.2}\" width=\"{:.2}\" height=\"{:.2}\" {style}/>",
            min.x, min.y, size.x, size.y
        );
    });
}

/// Text with its baseline's left end at `at` (px), stretched or squeezed to `width_px`
/// (what it measured in the window's font, so labels keep their boxes whatever font the
/// SVG viewer has).
pub fn text(text: &str, at: Vec2, size: f32, width_px: f32, color: Color) {
    with(|rec| {
        let length = if width_px > 0.0 {
            format!(" textLength=\"{width_px:.2}\" lengthAdjust=\"spacingAndGlyphs\"")
        } else {
            String::new()
        };
        let _ = writeln!(
            rec.body,
            "<text x=\"{:.2}\" y=\"{:.2}\" font-size=\"{:.1}\"{length} {}>{}</text>",
            at.x,
            at.y,
            size * 0.8,
            paint("fill", color),
            escape(text)
        );
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_recording_is_a_whole_svg_with_clipped_views_and_escaped_text() {
        assert!(finish().is_none(), "nothing recorded");
        line(Vec2::ZERO, Vec2::ONE, 1.0, Color::new(1.0, 0.0, 0.0, 1.0));
        start(Vec2::new(200.0, 100.0));
        assert!(recording());
        begin_clip(Rect::new(Vec2::ZERO, Vec2::new(100.0, 100.0)));
        line(Vec2::ZERO, Vec2::new(50.0, 50.0), 2.0, Color::new(1.0, 0.0, 0.0, 0.5));
        text(
            "A − B < 1 & more",
            Vec2::new(10.0, 20.0),
            16.0,
            120.0,
            Color::new(1.0, 1.0, 1.0, 1.0),
        );
        end_clip();
        circle(Vec2::new(150.0, 50.0), 5.0, Some(1.5), Color::new(0.0, 1.0, 0.0, 1.0));
        let svg = finish().expect("recorded");
        assert!(!recording());
        assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
        assert!(svg.contains("clip-path=\"url(#view1)\""));
        assert!(svg.contains("stroke=\"#ff0000\" stroke-opacity=\"0.500\""));
        assert!(svg.contains("A − B &lt; 1 &amp; more"), "{svg}");
        assert!(svg.contains("textLength=\"120.00\""));
        assert_eq!(svg.matches("<g ").count(), svg.matches("</g>").count());
        assert!(svg.contains("<circle cx=\"150.00\""));
    }
}
