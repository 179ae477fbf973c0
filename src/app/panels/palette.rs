//! The shape palette: drag a shape onto the world to drop it there (or click it, then
//! click in the world), and the Draw-polygon tool.
//!
//! The drag starts here — egui reports `drag_started()` on an item, and the item's
//! shape goes into [`ToolState::palette_drag`](crate::app::tools::ToolState) — and ends
//! in the world, where the tools see macroquad's release (`tools/place.rs`). Icons are
//! painted by egui from the same generators that make the bodies (`shapes.rs`).

use super::super::shapes::{PaletteShape, ShapeParams, SIDES_RANGE, SIZE_RANGE_M};
use super::super::state::AppState;
use super::super::tools::Mode;
use super::{Request, UiRequests};
use crate::geometry::Polygon;
use crate::math::Vec2;

/// Size of one palette item (icon and name), logical px.
const ITEM_SIZE: egui::Vec2 = egui::vec2(64.0, 58.0);
/// Side of the square the icon is fitted in, px.
const ICON_PX: f32 = 34.0;
/// Items per row.
const COLUMNS: usize = 3;

/// The shape palette: the size and side count of the shapes it makes.
pub struct PalettePanel {
    /// Overall size of the shapes (m).
    pub size_m: f32,
    /// Sides of the regular polygon.
    pub sides: u32,
}

impl Default for PalettePanel {
    fn default() -> Self {
        PalettePanel { size_m: 1.0, sides: 6 }
    }
}

impl PalettePanel {
    /// The parameters the palette gives `shape` now.
    pub fn params(&self, shape: PaletteShape, seed: u64) -> ShapeParams {
        ShapeParams {
            shape,
            size_m: self.size_m,
            sides: self.sides,
            seed,
        }
    }

    /// Draws the panel; the size and sides are its own, the tool is a request.
    pub fn ui(&mut self, ui: &mut egui::Ui, state: &AppState, requests: &mut UiRequests) {
        let mut set_mode = |mode: Mode| requests.push(Request::Mode(mode));
        let Self { size_m, sides } = self;
        ui.horizontal(|ui| {
            if ui
                .selectable_label(state.tools.mode == Mode::Select, "Select")
                .on_hover_text("click a body to inspect it, drag it to move it (Esc)")
                .clicked()
            {
                set_mode(Mode::Select);
            }
            let drawing = state.tools.mode == Mode::DrawPolygon;
            if ui
                .selectable_label(drawing, "✏ Draw polygon")
                .on_hover_text(
                    "click vertices in the world; Enter or the first vertex closes, Backspace undoes one, Esc cancels",
                )
                .clicked()
            {
                set_mode(if drawing { Mode::Select } else { Mode::DrawPolygon });
            }
            let launching = state.tools.mode == Mode::Launch;
            if ui
                .selectable_label(launching, "Launch (L)")
                .on_hover_text(
                    "drag in the world to aim, release to fire a small dense ball: the longer the drag, the faster (Ctrl+Z removes it)",
                )
                .clicked()
            {
                set_mode(if launching { Mode::Select } else { Mode::Launch });
            }
        });
        ui.weak("Drag a shape into the world, or click it and then click in the world.");
        let (size, side_count) = (*size_m, *sides);
        let seed = state.tools.next_seed;
        let mut dragged = None;
        egui::Grid::new("palette items")
            .spacing(egui::vec2(4.0, 4.0))
            .show(ui, |ui| {
                for (i, shape) in PaletteShape::ALL.into_iter().enumerate() {
                    let params = ShapeParams {
                        shape,
                        size_m: size,
                        sides: side_count,
                        seed,
                    };
                    let placing = matches!(state.tools.mode, Mode::Place(p) if p.shape == shape);
                    let dragging = state.tools.palette_drag.is_some_and(|p| p.shape == shape);
                    let response = item(ui, &params, placing || dragging);
                    if response.drag_started() && !state.tools.busy() {
                        dragged = Some(params);
                    } else if response.clicked() {
                        if placing {
                            set_mode(Mode::Select);
                        } else {
                            set_mode(Mode::Place(params));
                        }
                    }
                    if (i + 1) % COLUMNS == 0 {
                        ui.end_row();
                    }
                }
            });
        if let Some(params) = dragged {
            requests.push(Request::PaletteDrag(params));
        }
        if state.tools.palette_drag.is_some() || dragged.is_some() {
            ui.ctx().set_cursor_icon(egui::CursorIcon::Grabbing);
        }
        ui.add(
            egui::Slider::new(size_m, SIZE_RANGE_M)
                .logarithmic(true)
                .text("size (m)"),
        );
        ui.add(egui::Slider::new(sides, SIDES_RANGE).text("n-gon sides"));
    }
}

/// One palette item: the icon over the name; pressed and dragged, it starts a drop.
fn item(ui: &mut egui::Ui, params: &ShapeParams, selected: bool) -> egui::Response {
    let (rect, response) = ui.allocate_exact_size(ITEM_SIZE, egui::Sense::click_and_drag());
    let response = response.on_hover_text(format!(
        "{}: drag into the world, or click then click in the world",
        params.shape.name()
    ));
    if !ui.is_rect_visible(rect) {
        return response;
    }
    let visuals = ui.style().interact_selectable(&response, selected);
    let painter = ui.painter();
    painter.rect(rect, 4.0, visuals.bg_fill, visuals.bg_stroke, egui::StrokeKind::Inside);
    let icon_center = egui::pos2(rect.center().x, rect.top() + 4.0 + 0.5 * ICON_PX);
    paint_icon(painter, params, icon_center, ICON_PX, visuals.fg_stroke.color);
    painter.text(
        egui::pos2(rect.center().x, rect.bottom() - 3.0),
        egui::Align2::CENTER_BOTTOM,
        params.shape.name(),
        egui::FontId::proportional(12.0),
        visuals.text_color(),
    );
    if response.hovered() {
        ui.ctx().set_cursor_icon(egui::CursorIcon::Grab);
    }
    response
}

/// Paints the shape `params` makes, fitted in a square of `side_px` around `center`:
/// filled piece by piece (egui fills convex polygons only), then outlined.
pub fn paint_icon(
    painter: &egui::Painter,
    params: &ShapeParams,
    center: egui::Pos2,
    side_px: f32,
    color: egui::Color32,
) {
    let outline = params.outline();
    let (lo, hi) = outline.iter().fold(
        (Vec2::splat(f32::INFINITY), Vec2::splat(f32::NEG_INFINITY)),
        |(lo, hi), &p| (lo.min(p), hi.max(p)),
    );
    let extent = (hi - lo).max_element();
    if !(extent > 0.0 && extent.is_finite()) {
        return;
    }
    let scale = side_px / extent;
    let mid = (lo + hi) * 0.5;
    // The icon's own little camera: y up in the shape, y down on the screen.
    let to_px = |p: Vec2| egui::pos2(center.x + (p.x - mid.x) * scale, center.y - (p.y - mid.y) * scale);
    let fill = color.gamma_multiply(0.35);
    if let Ok(polygon) = Polygon::new(&outline) {
        for piece in polygon.pieces() {
            let points: Vec<egui::Pos2> = piece.vertices().iter().map(|&p| to_px(p)).collect();
            painter.add(egui::Shape::convex_polygon(points, fill, egui::Stroke::NONE));
        }
    }
    let points: Vec<egui::Pos2> = outline.iter().map(|&p| to_px(p)).collect();
    painter.add(egui::Shape::closed_line(points, egui::Stroke::new(1.5, color)));
}
