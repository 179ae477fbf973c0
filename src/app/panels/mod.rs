//! The egui overlay. One panel per file: a panel is its own state plus a `ui()` that
//! reads and changes the [`AppState`].
//!
//! Layout: a menu bar on top (File, Edit, View), the palette, simulation settings and
//! debug toggles on the left, the inspector and the plots on the right, the status bar
//! at the bottom, help and dialogs as windows. What is left is the world's viewport.

pub mod debug;
pub mod files;
pub mod help;
pub mod inspector;
pub mod palette;
pub mod plots;
pub mod simulation;

use super::state::AppState;
use crate::math::Vec2;

/// What the overlay asks of the window loop this frame (things that need the window).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct UiRequests {
    /// Save a screenshot of this frame.
    pub screenshot: bool,
    /// Switch race mode on or off (its counters start again).
    pub race: Option<bool>,
    /// Start the race counters again.
    pub reset_race_counters: bool,
}

impl UiRequests {
    /// Applies what the panels asked for that changes the state (the screenshot is the
    /// frame's to take, at its end). Called once the layout is done, so every panel
    /// drew the same state this frame.
    pub fn apply(&self, state: &mut AppState) {
        if let Some(race) = self.race {
            state.world.settings_mut().race = race;
            state.history.reset_race_counters();
        }
        if self.reset_race_counters {
            state.history.reset_race_counters();
        }
    }
}

/// The panels' own state (open/closed, scroll, dialogs).
#[derive(Default)]
pub struct Panels {
    /// Scene files.
    pub files: files::FilesPanel,
    /// The shape palette.
    pub palette: palette::PalettePanel,
    /// Simulation settings.
    pub simulation: simulation::SimulationPanel,
    /// Debug drawing toggles.
    pub debug: debug::DebugPanel,
    /// The selected body.
    pub inspector: inspector::InspectorPanel,
    /// Live plots and frame times.
    pub plots: plots::PlotsPanel,
    /// The "Lessons" menu.
    pub lessons: super::lesson::panel::LessonMenu,
}

/// The left part of the status bar: the slow-motion readout, then the last message (or
/// the most useful keys).
fn status_messages(ui: &mut egui::Ui, state: &AppState) {
    if let Some(slow) = state.slow_motion_text() {
        ui.colored_label(egui::Color32::from_rgb(255, 190, 80), slow).on_hover_text(
            "Each frame's steps stop after 40 ms so the window stays responsive; the simulation runs slower than real time. \
(In the one-step-per-frame mode, N, every frame runs exactly one step.)",
        );
        ui.separator();
    }
    match &state.status {
        Some(s) if s.is_error => {
            ui.colored_label(egui::Color32::from_rgb(255, 90, 90), &s.text);
        }
        Some(s) => {
            ui.label(&s.text);
        }
        None => {
            ui.label(
                "H: help · Tab: side panels · Space: pause · left drag: move bodies · right drag: pan · wheel: zoom",
            );
        }
    }
}

impl Panels {
    /// A modal dialog is open: keys and clicks are the dialog's alone.
    pub fn modal_open(&self) -> bool {
        self.files.modal_open()
    }

    /// Builds the whole overlay for one frame and records the free viewport in `state`.
    pub fn ui(&mut self, ctx: &egui::Context, state: &mut AppState) -> UiRequests {
        let mut requests = UiRequests::default();
        let Panels {
            files,
            palette,
            simulation,
            debug,
            inspector,
            plots,
            lessons,
        } = self;
        egui::TopBottomPanel::top("menu").show(ctx, |ui| {
            egui::menu::bar(ui, |ui| {
                files.menu(ui, state, &mut requests);
                lessons.menu(ui, files, state);
                ui.menu_button("Edit", |ui| {
                    let undo = state.undo.undo_label().map(|l| format!("Undo {l}"));
                    if ui
                        .add_enabled(undo.is_some(), egui::Button::new(undo.as_deref().unwrap_or("Undo")))
                        .on_hover_text("Ctrl+Z")
                        .clicked()
                    {
                        state.undo();
                        ui.close_menu();
                    }
                    let redo = state.undo.redo_label().map(|l| format!("Redo {l}"));
                    if ui
                        .add_enabled(redo.is_some(), egui::Button::new(redo.as_deref().unwrap_or("Redo")))
                        .on_hover_text("Ctrl+Shift+Z")
                        .clicked()
                    {
                        state.redo();
                        ui.close_menu();
                    }
                });
                ui.menu_button("View", |ui| {
                    if ui.button("Fit the scene (F)").clicked() {
                        state.fit_view();
                        ui.close_menu();
                    }
                    if ui.button("Screenshot (P)").clicked() {
                        requests.screenshot = true;
                        ui.close_menu();
                    }
                    let panels = if state.hide_side_panels {
                        "Show the side panels (Tab)"
                    } else {
                        "Hide the side panels (Tab)"
                    };
                    if ui.button(panels).clicked() {
                        state.hide_side_panels = !state.hide_side_panels;
                        ui.close_menu();
                    }
                    if ui.button("Help (H)").clicked() {
                        state.show_help = true;
                        ui.close_menu();
                    }
                });
                ui.separator();
                ui.strong(state.scene_name());
                if state.dirty {
                    ui.label("(edited)");
                }
            });
        });
        egui::TopBottomPanel::bottom("status").show(ctx, |ui| {
            ui.horizontal(|ui| {
                let amber = egui::Color32::from_rgb(255, 190, 80);
                if state.lesson.is_none() {
                    // Right to left: the counts stay put at the right end while the
                    // messages on the left come and go.
                    ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                        ui.label(super::counts::WorldCounts::of(&state.world).text())
                            .on_hover_text("bodies (dynamic ones awake) · contact pairs of the last step · islands: dynamic bodies joined by contacts");
                        if let Some(countdown) = state.stir.countdown_text() {
                            ui.separator();
                            ui.colored_label(amber, countdown)
                                .on_hover_text("Simulation → stir when asleep: a few bodies get a kick so the plots move again");
                        }
                        ui.with_layout(egui::Layout::left_to_right(egui::Align::Center), |ui| status_messages(ui, state));
                    });
                } else {
                    status_messages(ui, state);
                }
            });
        });
        // Lesson mode: the lesson panel replaces the sandbox's.
        let sandbox = state.lesson.is_none();
        let side_panels = sandbox && !state.hide_side_panels;
        if !sandbox {
            super::lesson::panel::show(ctx, state);
        }
        egui::SidePanel::left("left")
            .resizable(true)
            .default_width(260.0)
            .show_animated(ctx, side_panels, |ui| {
                egui::ScrollArea::vertical().show(ui, |ui| {
                    egui::CollapsingHeader::new("Palette")
                        .default_open(true)
                        .show(ui, |ui| palette.ui(ui, state));
                    egui::CollapsingHeader::new("Simulation")
                        .default_open(true)
                        .show(ui, |ui| simulation.ui(ui, state));
                    egui::CollapsingHeader::new("Debug drawing")
                        .default_open(true)
                        .show(ui, |ui| debug.ui(ui, state));
                });
            });
        egui::SidePanel::right("right")
            .resizable(true)
            .default_width(320.0)
            .show_animated(ctx, side_panels, |ui| {
                egui::ScrollArea::vertical().show(ui, |ui| {
                    egui::CollapsingHeader::new("Selected body")
                        .default_open(true)
                        .show(ui, |ui| inspector.ui(ui, state));
                    egui::CollapsingHeader::new("Timing")
                        .default_open(true)
                        .show(ui, |ui| plots.ui(ui, state, &mut requests));
                });
            });
        let free = ctx.available_rect();
        state.viewport_px = (Vec2::new(free.min.x, free.min.y), Vec2::new(free.max.x, free.max.y));
        help::show(ctx, &mut state.show_help);
        files.windows(ctx, state);
        requests
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::Vec2;

    fn state() -> AppState {
        let scene = crate::scene::parse(include_str!("../../../scenes/minimal.ron"), "minimal.ron").unwrap();
        AppState::new(&scene, None, Vec2::new(800.0, 600.0))
    }

    /// The race panel asks; the state changes only when the requests are applied, after
    /// the layout: switching race mode on starts its counters again.
    #[test]
    fn race_requests_change_the_state_when_applied() {
        let mut s = state();
        s.history.race_steps_total = 7;
        let requests = UiRequests {
            race: Some(true),
            ..UiRequests::default()
        };
        assert!(!s.world.settings().race, "asking changes nothing by itself");
        requests.apply(&mut s);
        assert!(s.world.settings().race);
        assert_eq!(s.history.race_steps_total, 0);
        s.history.race_steps_total = 3;
        UiRequests {
            reset_race_counters: true,
            ..UiRequests::default()
        }
        .apply(&mut s);
        assert_eq!(s.history.race_steps_total, 0);
        assert!(s.world.settings().race, "a reset keeps race mode on");
        UiRequests::default().apply(&mut s);
        assert!(s.world.settings().race, "no request, no change");
    }
}
