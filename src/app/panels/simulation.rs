//! Simulation settings: the narrow phase, broad phase, resolution, pseudo-continuous
//! detection, sleeping, and the clock — all live.

use super::super::state::AppState;
use super::{Request, UiRequests};
use crate::broad::BroadPhaseKind;
use crate::dynamics::{ContinuousMode, Resolution};
use crate::narrow::Algorithm;

/// Room right of a slider for its value box and label (px).
const SLIDER_LABEL_ROOM_PX: f32 = 160.0;

/// The simulation panel (no state of its own yet: everything it shows is the world's
/// or the clock's).
#[derive(Default)]
pub struct SimulationPanel {}

impl SimulationPanel {
    /// Draws the panel. The widgets edit copies (of the settings, the clock's rate and
    /// scale, the flags); what changed is sent as requests.
    pub fn ui(&mut self, ui: &mut egui::Ui, state: &AppState, requests: &mut UiRequests) {
        // A combo box like the other choices: three buttons in a row did not fit the
        // panel at 1280 px and wrapped. The collapsing header already says "Simulation".
        let old = *state.world.settings();
        let mut algorithm = old.narrow_phase;
        egui::ComboBox::from_label("narrow phase")
            .selected_text(algorithm.name())
            .show_ui(ui, |ui| {
                for (i, a) in Algorithm::ALL.into_iter().enumerate() {
                    ui.selectable_value(&mut algorithm, a, format!("{}  (key {})", a.name(), i + 1));
                }
            })
            .response
            .on_hover_text("keys 1, 2, 3 switch it live");
        requests.if_changed(&old.narrow_phase, algorithm, Request::NarrowPhase);
        // Sliders narrow enough that the longest label ("kill distance (m)") still
        // clears the scroll bar egui floats over the panel's right edge: at the panel's
        // default width it used to run under it ("gravity y (m/s²)" was cut at 1280 px).
        ui.spacing_mut().slider_width = (ui.available_width() - SLIDER_LABEL_ROOM_PX).clamp(60.0, 200.0);
        ui.horizontal(|ui| {
            let paused = state.clock.is_paused();
            if ui.button(if paused { "▶ Run" } else { "⏸ Pause" }).clicked() {
                requests.push(Request::TogglePause);
            }
            if ui.button("Step").clicked() {
                requests.push(Request::SingleStep);
            }
            if ui.button("Reset").clicked() {
                requests.push(Request::Reset);
            }
        });
        let mut settings = old;
        egui::ComboBox::from_label("broad phase")
            .selected_text(format!("{:?}", settings.broad_phase))
            .show_ui(ui, |ui| {
                for kind in [
                    BroadPhaseKind::SweepAndPrune,
                    BroadPhaseKind::BruteForce,
                    BroadPhaseKind::SpatialHash,
                    BroadPhaseKind::DynamicAabbTree,
                ] {
                    ui.selectable_value(&mut settings.broad_phase, kind, format!("{kind:?}"));
                }
            });
        egui::ComboBox::from_label("resolution")
            .selected_text(settings.resolution.name())
            .show_ui(ui, |ui| {
                for resolution in Resolution::ALL {
                    ui.selectable_value(&mut settings.resolution, resolution, resolution.name());
                }
            });
        egui::ComboBox::from_label("continuous")
            .selected_text(format!("{:?}", settings.continuous))
            .show_ui(ui, |ui| {
                for mode in [
                    ContinuousMode::Off,
                    ContinuousMode::Interpolation,
                    ContinuousMode::ConservativeAdvancement,
                ] {
                    ui.selectable_value(&mut settings.continuous, mode, format!("{mode:?}"));
                }
            });
        ui.checkbox(&mut settings.sleeping, "sleeping");
        let mut stir = state.stir.enabled;
        ui.checkbox(&mut stir, "stir when asleep").on_hover_text(format!(
            "When every body has slept for {:.0} s, give a few of them a kick so the plots and the race move again",
            super::super::stir::STIR_AFTER_S
        ));
        requests.if_changed(&state.stir.enabled, stir, Request::Stir);
        let mut one_step = state.one_step_per_frame;
        ui.checkbox(&mut one_step, "one step per frame (N)")
            .on_hover_text("Slow mode: exactly one fixed step each frame, to watch fast events step by step");
        requests.if_changed(&state.one_step_per_frame, one_step, Request::OneStepPerFrame);
        let mut race = old.race;
        ui.checkbox(&mut race, "race the three narrow phases");
        requests.if_changed(&old.race, race, Request::Race);
        ui.add(egui::Slider::new(&mut settings.substeps, 1..=16).text("substeps"));
        ui.add(egui::Slider::new(&mut settings.gravity.y, -30.0..=0.0).text("gravity y (m/s²)"));
        // Bodies this far outside the scene are removed and reported in the status bar.
        ui.add(
            egui::Slider::new(&mut settings.kill_distance, 1.0..=10_000.0)
                .logarithmic(true)
                .text("kill distance (m)"),
        )
        .on_hover_text("A body this far outside the scene is lost: removed, and named in the status bar");
        requests.if_changed(&old, settings, Request::Settings);
        let mut scale = state.clock.time_scale();
        if ui
            .add(
                egui::Slider::new(&mut scale, 0.05..=4.0)
                    .logarithmic(true)
                    .text("time scale"),
            )
            .changed()
        {
            requests.push(Request::TimeScale(scale));
        }
        let mut rate = state.clock.rate_hz();
        if ui
            .add(
                egui::Slider::new(&mut rate, 10.0..=480.0)
                    .logarithmic(true)
                    .text("rate (Hz)"),
            )
            .changed()
        {
            requests.push(Request::Rate(rate));
        }
    }
}
