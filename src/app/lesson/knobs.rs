//! The lesson's knobs: every field of the narrow phase's configuration, each change
//! recomputing the trace (the player keeps its place).

use super::LessonMode;
use crate::narrow::{NarrowConfig, TouchingPolicy};
use crate::scene::lesson_def::ITERATION_CAP_RANGE;

/// Every field of [`NarrowConfig`]; a change recomputes the trace (the player keeps its
/// place).
pub fn knobs_ui(ui: &mut egui::Ui, mode: &mut LessonMode) {
    let mut c: NarrowConfig = *mode.lesson.config();
    let NarrowConfig {
        touch_tolerance,
        touching,
        gjk_max_iterations,
        gjk_epsilon,
        epa_max_iterations,
        epa_epsilon,
        gjk_initial_direction,
        cull_by_bounds,
        edge_tree,
    } = &mut c;
    let sci = |x: f64, _| format!("{x:.1e}");
    egui::Grid::new("knobs").num_columns(2).show(ui, |ui| {
        ui.label("Touching counts as");
        ui.horizontal(|ui| {
            ui.radio_value(touching, TouchingPolicy::Separated, "separated");
            ui.radio_value(touching, TouchingPolicy::Intersecting, "intersecting");
        });
        ui.end_row();
        ui.label("Touch tolerance (× scale)");
        ui.add(
            egui::DragValue::new(touch_tolerance)
                .speed(1e-7)
                .range(0.0..=1e-2)
                .custom_formatter(sci),
        );
        ui.end_row();
        let cap = *ITERATION_CAP_RANGE.start()..=64u32.min(*ITERATION_CAP_RANGE.end());
        ui.label("GJK iteration cap");
        ui.add(egui::Slider::new(gjk_max_iterations, cap.clone()));
        ui.end_row();
        ui.label("GJK epsilon (× scale)");
        ui.add(
            egui::DragValue::new(gjk_epsilon)
                .speed(1e-7)
                .range(1e-9..=0.5)
                .custom_formatter(sci),
        );
        ui.end_row();
        ui.label("EPA iteration cap");
        ui.add(egui::Slider::new(epa_max_iterations, cap));
        ui.end_row();
        ui.label("EPA epsilon (× scale)");
        ui.add(
            egui::DragValue::new(epa_epsilon)
                .speed(1e-7)
                .range(1e-9..=0.5)
                .custom_formatter(sci),
        );
        ui.end_row();
        ui.label("GJK's first direction");
        ui.horizontal(|ui| {
            let mut custom = gjk_initial_direction.is_some();
            ui.checkbox(&mut custom, "fixed");
            match (custom, *gjk_initial_direction) {
                (false, _) => {
                    *gjk_initial_direction = None;
                    ui.label("centre to centre");
                }
                (true, dir) => {
                    let d = dir.unwrap_or(crate::math::Vec2::X);
                    let mut degrees = d.y.atan2(d.x).to_degrees();
                    ui.add(
                        egui::DragValue::new(&mut degrees)
                            .speed(1.0)
                            .range(-180.0..=180.0)
                            .suffix("°"),
                    );
                    let r = degrees.to_radians();
                    *gjk_initial_direction = Some(crate::math::Vec2::new(r.cos(), r.sin()));
                }
            }
        });
        ui.end_row();
        ui.label("Skip pieces whose boxes are apart");
        ui.checkbox(cull_by_bounds, "");
        ui.end_row();
        ui.label("Bounding-volume trees");
        ui.horizontal(|ui| {
            use crate::narrow::EdgeTreePolicy;
            ui.radio_value(edge_tree, EdgeTreePolicy::default(), "auto")
                .on_hover_text("large polygons only: the same answer, less work");
            ui.radio_value(edge_tree, EdgeTreePolicy::Always, "always");
            ui.radio_value(edge_tree, EdgeTreePolicy::Never, "never");
        });
        ui.end_row();
    });
    if ui.button("Back to the lesson's knobs").clicked() {
        c = mode.lesson.def().knobs.apply(NarrowConfig::default());
    }
    mode.set_config(c);
}
