//! The colours of the lesson views, in one place: A and B keep theirs in every view and
//! in the text.

use macroquad::prelude::Color;

/// Shape A (orange).
pub const A: Color = Color::new(0.96, 0.58, 0.24, 1.0);
/// Shape B (teal).
pub const B: Color = Color::new(0.22, 0.76, 0.72, 1.0);
/// A − B.
pub const MINKOWSKI: Color = Color::new(0.66, 0.58, 0.96, 1.0);
/// The GJK simplex.
pub const SIMPLEX: Color = Color::new(1.0, 0.86, 0.30, 1.0);
/// The search direction and the current axis.
pub const DIRECTION: Color = Color::new(0.55, 0.82, 1.0, 1.0);
/// The EPA polytope's closest edge, the MTV.
pub const HIGHLIGHT: Color = Color::new(1.0, 0.32, 0.42, 1.0);
/// Contact points.
pub const CONTACT: Color = Color::new(1.0, 0.25, 0.25, 1.0);
/// Labels.
pub const TEXT: Color = Color::new(0.92, 0.93, 0.95, 1.0);
/// Faint labels.
pub const TEXT_DIM: Color = Color::new(0.62, 0.64, 0.68, 1.0);
/// A view's background.
pub const VIEW_BG: Color = Color::new(0.085, 0.09, 0.105, 1.0);
/// A view's frame.
pub const VIEW_FRAME: Color = Color::new(0.25, 0.27, 0.31, 1.0);
/// Predict mode: the view waiting for a click.
pub const PREDICT: Color = Color::new(1.0, 0.72, 0.25, 1.0);
/// Predict mode: the answer, and a click within the tolerance.
pub const PREDICT_HIT: Color = Color::new(0.40, 0.90, 0.45, 1.0);
/// Predict mode: a click outside the tolerance.
pub const PREDICT_MISS: Color = Color::new(1.0, 0.45, 0.35, 1.0);

/// The colour of `owner`.
pub fn of(owner: crate::narrow::trace::Owner) -> Color {
    match owner {
        crate::narrow::trace::Owner::A => A,
        crate::narrow::trace::Owner::B => B,
    }
}

/// `c` with alpha `a`.
pub fn alpha(c: Color, a: f32) -> Color {
    Color::new(c.r, c.g, c.b, a)
}

/// `c` as an egui colour.
pub fn egui(c: Color) -> egui::Color32 {
    egui::Color32::from_rgb((c.r * 255.0) as u8, (c.g * 255.0) as u8, (c.b * 255.0) as u8)
}
