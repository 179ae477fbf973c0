//! Live plots: time per phase, narrow-phase time per algorithm, the race of the three
//! narrow phases, Nv and Np; and the frame-time readout.
//!
//! The series come from [`History`]'s pure functions
//! (tested without a window); here they are only laid out. Every plot has a fixed
//! height and the panel's width, so a plot never grows the scroll area it sits in.

use super::super::history::{History, HISTORY_SECONDS, PHASES};
use super::super::state::{all_asleep, AppState};
use super::{Request, UiRequests};
use crate::dynamics::DisagreementKind;
use crate::narrow::Algorithm;
use egui::Color32;
use egui_plot::{Bar, BarChart, Line, Plot, PlotPoints};

/// Height of each plot (px).
pub const PLOT_HEIGHT: f32 = 120.0;

/// The colour of each algorithm, the same in every plot.
pub fn algorithm_color(a: Algorithm) -> Color32 {
    match a {
        Algorithm::NonConvexSat => Color32::from_rgb(240, 150, 60),
        Algorithm::SatDecomposed => Color32::from_rgb(90, 180, 255),
        Algorithm::GjkEpa => Color32::from_rgb(120, 220, 120),
    }
}

/// The colour of each phase.
fn phase_color(i: usize) -> Color32 {
    const C: [Color32; 6] = [
        Color32::from_rgb(120, 200, 255),
        Color32::from_rgb(255, 170, 60),
        Color32::from_rgb(230, 100, 200),
        Color32::from_rgb(130, 220, 130),
        Color32::from_rgb(220, 220, 90),
        Color32::from_rgb(235, 235, 240),
    ];
    C[i % C.len()]
}

/// Lowest top of a plot in milliseconds (see [`time_plot`]).
const MS_FLOOR: f64 = 0.01;

/// The live plots (no state of their own).
#[derive(Default)]
pub struct PlotsPanel {}

/// A row of coloured names: the plots' key (egui_plot's own legend would cover a
/// plot this small).
fn key(ui: &mut egui::Ui, entries: &[(&str, Color32)]) {
    ui.horizontal_wrapped(|ui| {
        ui.spacing_mut().item_spacing.x = 10.0;
        for (name, color) in entries {
            ui.colored_label(*color, *name);
        }
    });
}

/// A plot of the panel's width and [`PLOT_HEIGHT`] over the last [`HISTORY_SECONDS`],
/// not draggable (the panel scrolls instead).
/// A y-axis tick: as many decimals as the spacing of the ticks needs, so a plot of
/// 0.004 ms reads "0.002, 0.004", not "0.0, 0.0" (egui_plot's default rounds them away).
pub fn tick_label(value: f64, step: f64) -> String {
    if value == 0.0 {
        return "0".to_string();
    }
    let decimals = if step > 0.0 && step < 1.0 {
        ((-step.log10()).ceil() as usize).min(6)
    } else {
        0
    };
    format!("{value:.decimals$}")
}

/// A 1, 2 or 5 × 10ⁿ step near `rough` (positive).
pub fn nice_step(rough: f64) -> f64 {
    if !(rough.is_finite() && rough > 0.0) {
        return 1.0;
    }
    let power = 10f64.powf(rough.log10().floor());
    let m = rough / power;
    let nice = if m <= 1.0 {
        1.0
    } else if m <= 2.0 {
        2.0
    } else if m <= 5.0 {
        5.0
    } else {
        10.0
    };
    nice * power
}

/// Grid steps for a y axis about three labels tall. egui_plot's default steps by
/// powers of ten: a 120 px plot of 0–6 ms then has its 1 ms lines 13 px apart, too close
/// to label, and its 10 ms lines off the plot, so only "0" was written.
fn y_steps(input: egui_plot::GridInput) -> [f64; 3] {
    let large = nice_step((input.bounds.1 - input.bounds.0).abs() / 3.0);
    [large / 10.0, large / 2.0, large]
}

/// The lowest top a plot's y range gets (`y_floor`): a flat line at zero (everything
/// asleep) then still has ticks above it instead of a lone "0".
fn time_plot(id: &str, width: f32, unit: &str, y_floor: f64) -> Plot<'static> {
    let unit = unit.to_string();
    Plot::new(id.to_string())
        .height(PLOT_HEIGHT)
        .width(width)
        .allow_drag(false)
        .allow_zoom(false)
        .allow_scroll(false)
        .allow_boxed_zoom(false)
        .allow_double_click_reset(false)
        .include_x(-HISTORY_SECONDS)
        .include_x(0.0)
        .include_y(0.0)
        .include_y(y_floor)
        .y_axis_min_width(36.0)
        .y_grid_spacer(egui_plot::uniform_grid_spacer(y_steps))
        .y_axis_formatter(|mark, _| tick_label(mark.value, mark.step_size))
        .label_formatter(move |name, p| format!("{name}\n{:.1} s ago: {:.3} {unit}", -p.x, p.y))
}

impl PlotsPanel {
    /// Draws the panel; what it asks to change goes into `requests`.
    pub fn ui(&mut self, ui: &mut egui::Ui, state: &AppState, requests: &mut UiRequests) {
        let width = ui.available_width().max(120.0);
        frame_readout(ui, &state.history);
        ui.separator();
        if let Some(countdown) = state.stir.countdown_text() {
            ui.colored_label(
                Color32::from_rgb(240, 200, 90),
                format!("{countdown}: nothing is tested, so the plots are flat until then."),
            );
        } else if all_asleep(&state.world) {
            // The plots below go flat when the scene sleeps: say why, and how to wake it.
            ui.colored_label(
                Color32::from_rgb(240, 200, 90),
                "all asleep: nothing is tested, so the plots are flat. Press 1, 2 or 3, or drag a body, to wake the scene.",
            );
        }

        ui.label("time per phase (ms per step, last 10 s)");
        let names: Vec<(&str, Color32)> = PHASES.iter().enumerate().map(|(i, p)| (p.0, phase_color(i))).collect();
        key(ui, &names);
        time_plot("phases", width, "ms", MS_FLOOR).show(ui, |p| {
            for (i, (name, points)) in state.history.phase_series().into_iter().enumerate() {
                let mut line = Line::new(PlotPoints::from(points)).name(name).color(phase_color(i));
                if i == PHASES.len() - 1 {
                    line = line.width(2.0);
                }
                p.line(line);
            }
        });

        ui.label("narrow phase per algorithm (ms per step; keys 1 / 2 / 3)");
        key(ui, &Algorithm::ALL.map(|a| (a.name(), algorithm_color(a))));
        time_plot("narrow", width, "ms", MS_FLOOR).show(ui, |p| {
            // Runs of one algorithm share its name, so the legend lists it once.
            for (a, points) in state.history.narrow_runs() {
                p.line(
                    Line::new(PlotPoints::from(points))
                        .color(algorithm_color(a))
                        .width(1.5)
                        .name(a.name()),
                );
            }
        });

        race_section(ui, state, width, requests);

        ui.label("narrow-phase work per step");
        key(
            ui,
            &[
                ("Nv: volume tests", Color32::from_rgb(120, 200, 255)),
                ("Np: primitive tests", Color32::from_rgb(255, 150, 90)),
            ],
        );
        time_plot("work", width, "", 1.0).show(ui, |p| {
            p.line(
                Line::new(PlotPoints::from(state.history.series(|s| s.nv as f64)))
                    .name("Nv")
                    .color(Color32::from_rgb(120, 200, 255)),
            );
            p.line(
                Line::new(PlotPoints::from(state.history.series(|s| s.np as f64)))
                    .name("Np")
                    .color(Color32::from_rgb(255, 150, 90)),
            );
        });
    }
}

/// Simulation / UI / drawing / whole frame, mean over the last second, and FPS.
fn frame_readout(ui: &mut egui::Ui, history: &History) {
    let f = history.recent_frame_mean();
    let fps = if f.frame_ms > 0.0 { 1000.0 / f.frame_ms } else { 0.0 };
    ui.horizontal(|ui| {
        ui.strong(format!("{fps:.0} FPS"));
        ui.label(format!("frame {:.1} ms", f.frame_ms));
    })
    .response
    .on_hover_text("Means over the last second of wall time. Drawing builds the batches; present is the previous frame's GL draw calls and buffer swap (waiting for vsync, or rasterising on a software renderer).");
    egui::Grid::new("frame_split").num_columns(4).show(ui, |ui| {
        for (name, ms) in [
            ("simulation", f.simulation_ms),
            ("UI", f.ui_ms),
            ("drawing", f.drawing_ms),
            ("present", f.present_ms),
        ] {
            ui.label(name);
            ui.monospace(format!("{ms:6.2} ms"));
            let share = if f.frame_ms > 0.0 {
                (ms / f.frame_ms) as f32
            } else {
                0.0
            };
            ui.add(egui::ProgressBar::new(share.clamp(0.0, 1.0)).desired_width(80.0));
            ui.end_row();
        }
    });
}

/// Race mode: the three algorithms on the same pairs, and how often they disagree.
fn race_section(ui: &mut egui::Ui, state: &AppState, width: f32, requests: &mut UiRequests) {
    let racing = state.world.settings().race;
    ui.horizontal(|ui| {
        ui.label("race: the three narrow phases on the same pairs");
        let mut race = racing;
        if ui
            .checkbox(&mut race, "on")
            .on_hover_text(
                "Every step also runs the other two algorithms on the same candidate pairs and compares their answers.",
            )
            .changed()
        {
            requests.push(Request::Race(race));
        }
    });
    if !racing && state.history.race_steps_total == 0 {
        return;
    }
    ui.weak(
        "Fayzrakhmanov et al.'s (2015) comparison, live: time per step on the same pairs, mean over the last second",
    );
    let mean = state.history.race_mean(1.0);
    let plot = Plot::new("race_bars")
        .height(PLOT_HEIGHT * 0.75)
        .width(width)
        .allow_drag(false)
        .allow_zoom(false)
        .allow_scroll(false)
        .allow_boxed_zoom(false)
        .include_y(0.0)
        .include_y(MS_FLOOR)
        .show_x(false)
        .y_axis_min_width(36.0)
        .y_grid_spacer(egui_plot::uniform_grid_spacer(y_steps))
        .y_axis_formatter(|mark, _| tick_label(mark.value, mark.step_size))
        .x_axis_formatter(|mark, _| {
            Algorithm::ALL
                .get(mark.value.round() as usize)
                .filter(|_| (mark.value - mark.value.round()).abs() < 1e-6)
                .map_or(String::new(), |a| a.name().to_string())
        });
    plot.show(ui, |p| {
        if let Some(m) = mean {
            let bars = Algorithm::ALL
                .iter()
                .enumerate()
                .map(|(i, a)| {
                    Bar::new(i as f64, m[i])
                        .name(format!("{}: {:.3} ms", a.name(), m[i]))
                        .fill(algorithm_color(*a))
                        .width(0.6)
                })
                .collect();
            p.bar_chart(BarChart::new(bars));
        }
    });
    if let Some(m) = mean {
        let fastest = m.iter().copied().fold(f64::INFINITY, f64::min).max(1e-9);
        ui.horizontal_wrapped(|ui| {
            for (i, a) in Algorithm::ALL.iter().enumerate() {
                ui.colored_label(
                    algorithm_color(*a),
                    format!("{} {:.3} ms ({:.1}×)", a.name(), m[i], m[i] / fastest),
                );
            }
        });
    }
    let (total, steps) = (state.history.race_disagreements_total, state.history.race_steps_total);
    ui.horizontal(|ui| {
        ui.strong(format!("{total} disagreements")).on_hover_text(
            "Pairs on which another algorithm's answer differs from the chosen one's, summed over the raced steps.",
        );
        ui.label(format!("in {steps} steps"));
        if ui.small_button("reset").clicked() {
            requests.push(Request::ResetRaceCounters);
        }
    });
    let h = &state.history;
    ui.label(
        DisagreementKind::ALL
            .iter()
            .zip(h.race_by_kind_total)
            .map(|(k, n)| format!("{}: {n}", k.name()))
            .collect::<Vec<_>>()
            .join(" · "),
    );
    ui.label(
        Algorithm::ALL
            .iter()
            .zip(h.race_by_other_total)
            .filter(|(a, _)| **a != state.world.settings().narrow_phase)
            .map(|(a, n)| format!("{} disagrees {n}×", a.name()))
            .collect::<Vec<_>>()
            .join(" · "),
    );
    // Who is right: each algorithm against the exact oracle, not against the chosen one.
    ui.strong(format!(
        "wrong by the exact answer, of {} pairs checked:",
        h.race_exact_checked_total
    ))
    .on_hover_text(
        "Each algorithm's answer on every raced pair compared with the exact one (overlap area and true \
         penetration for polygons, closed form for circles): a false positive, a false negative, or an MTV \
         more than 1% off. Gaps and depths under 1e-5 of the scene's size count as touching.",
    );
    ui.horizontal_wrapped(|ui| {
        for (a, n) in Algorithm::ALL.iter().zip(h.race_wrong_by_exact_total) {
            let color = if n == 0 {
                algorithm_color(*a)
            } else {
                egui::Color32::from_rgb(255, 110, 110)
            };
            ui.colored_label(color, format!("{} {n}", a.name()));
        }
    });
}

#[cfg(test)]
mod tests {
    use super::{all_asleep, nice_step, tick_label};

    #[test]
    fn all_asleep_once_the_default_scene_rests_and_never_for_an_empty_world() {
        assert!(!all_asleep(&crate::dynamics::World::default()));
        let scene = crate::scene::parse(include_str!("../../../scenes/default.ron"), "default.ron").unwrap();
        let mut world = crate::dynamics::World::from_scene(&scene);
        assert!(!all_asleep(&world));
        for _ in 0..1200 {
            world.step(1.0 / 60.0);
        }
        assert!(all_asleep(&world), "the default scene did not fall asleep in 20 s");
    }

    #[test]
    fn steps_are_one_two_or_five_times_a_power_of_ten() {
        assert_eq!(nice_step(2.0), 2.0);
        assert_eq!(nice_step(2.2), 5.0);
        assert!((nice_step(0.0033) - 0.005).abs() < 1e-12);
        assert_eq!(nice_step(700.0), 1000.0);
        assert_eq!(nice_step(0.0), 1.0);
    }

    #[test]
    fn ticks_keep_the_decimals_their_spacing_needs() {
        assert_eq!(tick_label(0.0, 0.002), "0");
        assert_eq!(tick_label(0.004, 0.002), "0.004");
        assert_eq!(tick_label(0.1, 0.05), "0.10");
        assert_eq!(tick_label(500.0, 250.0), "500");
        assert_eq!(tick_label(2.0, 0.0), "2");
    }
}
