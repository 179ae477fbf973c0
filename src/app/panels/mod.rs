//! The egui overlay. One panel per file: a panel is its own state plus a `ui()` that
//! reads the [`AppState`] and asks for changes as [`Request`]s, carried out by
//! [`UiRequests::apply`] once the whole layout is done (`requests.rs` says why). The
//! lesson panel alone changes something while it is laid out: the lesson player, its
//! own state.
//!
//! Layout: a menu bar on top (File, Lessons, Edit, View), the palette, simulation
//! settings and debug toggles on the left, the inspector and the plots on the right, the
//! status bar at the bottom, help and dialogs as windows. What is left is the world's
//! viewport.

pub mod debug;
pub mod files;
pub mod help;
pub mod inspector;
pub mod palette;
pub mod plots;
mod requests;
pub mod simulation;

pub use requests::{Request, UiRequests};

use super::state::AppState;
use crate::math::Vec2;

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
    if let Some(text) = precision_warning(&state.world) {
        ui.colored_label(egui::Color32::from_rgb(255, 190, 80), text)
            .on_hover_text(format!(
                "The narrow phase's answers are exact for bodies within {:.0e} times their size of the origin \
(1 m shapes within 10 km, 1 mm shapes within 10 m; README, \"Precision range\"). Beyond it, f32 coordinates \
are too coarse for the body: contacts may be missed or invented. Move the scene nearer the origin.",
                crate::narrow::precision::PRECISION_RANGE
            ));
        ui.separator();
    }
    match &state.status {
        Some(s) if s.is_error => {
            ui.colored_label(egui::Color32::from_rgb(255, 90, 90), &s.text);
        }
        Some(s) => {
            ui.label(&s.text);
        }
        None if state.in_lesson() => {
            ui.label(super::lesson::panel::LESSON_HINT);
        }
        None => {
            ui.label(
                "H: help · Tab: side panels · Space: pause · left drag: move bodies · right drag: pan · wheel: zoom",
            );
        }
    }
}

/// The status bar's warning when some body of `world` lies outside the narrow phase's
/// precision range (`narrow::precision`), naming the first one; `None` when all are
/// within it. O(bodies) a frame: a few comparisons each.
pub(super) fn precision_warning(world: &crate::dynamics::World) -> Option<String> {
    let mut beyond = world
        .bodies()
        .iter()
        .filter_map(|(h, b)| crate::narrow::precision::check_range(b.shape(), &b.pose()).map(|r| (h, b, r)));
    let (h, body, range) = beyond.next()?;
    let others = beyond.count();
    let name = body.name().map(|n| format!(" \"{n}\"")).unwrap_or_default();
    let more = if others > 0 {
        format!(" (and {others} more)")
    } else {
        String::new()
    };
    Some(format!(
        "outside the precision range: body {}{name}{more} is {:.0} m from the origin, beyond {:.0} m for its size",
        h.index,
        range.coordinate,
        range.limit()
    ))
}

impl Panels {
    /// A modal dialog is open: keys and clicks are the dialog's alone.
    pub fn modal_open(&self) -> bool {
        self.files.modal_open()
    }

    /// Builds the whole overlay for one frame: every panel reads `state` (the lesson
    /// panel also plays its lesson) and records what it asks for; the caller applies
    /// the requests after the layout ([`UiRequests::apply`]). The free viewport is
    /// one of them.
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
        let view: &AppState = state;
        egui::TopBottomPanel::top("menu").show(ctx, |ui| {
            egui::menu::bar(ui, |ui| {
                files.menu(ui, view, &mut requests);
                lessons.menu(ui, view, &mut requests);
                edit_menu(ui, view, &mut requests);
                view_menu(ui, view, &mut requests);
                ui.separator();
                ui.strong(view.scene_name());
                if view.dirty {
                    ui.label("(edited)");
                }
            });
        });
        egui::TopBottomPanel::bottom("status").show(ctx, |ui| status_bar(ui, view));
        // Lesson mode: the lesson panel replaces the sandbox's.
        if let Some(mode) = state.lesson.as_mut() {
            super::lesson::panel::show(ctx, mode, &mut requests);
        }
        if let Some(mode) = state.topic.as_mut() {
            super::lesson::topic_panel::show(ctx, mode, &mut requests);
        }
        let view: &AppState = state;
        let side_panels = !view.in_lesson() && !view.hide_side_panels;
        egui::SidePanel::left("left")
            .resizable(true)
            .default_width(260.0)
            .show_animated(ctx, side_panels, |ui| {
                egui::ScrollArea::vertical().show(ui, |ui| {
                    egui::CollapsingHeader::new("Palette")
                        .default_open(true)
                        .show(ui, |ui| palette.ui(ui, view, &mut requests));
                    egui::CollapsingHeader::new("Simulation")
                        .default_open(true)
                        .show(ui, |ui| simulation.ui(ui, view, &mut requests));
                    egui::CollapsingHeader::new("Debug drawing")
                        .default_open(true)
                        .show(ui, |ui| debug.ui(ui, view, &mut requests));
                });
            });
        egui::SidePanel::right("right")
            .resizable(true)
            .default_width(320.0)
            .show_animated(ctx, side_panels, |ui| {
                egui::ScrollArea::vertical().show(ui, |ui| {
                    egui::CollapsingHeader::new("Selected body")
                        .default_open(true)
                        .show(ui, |ui| inspector.ui(ui, view, &mut requests));
                    egui::CollapsingHeader::new("Timing")
                        .default_open(true)
                        .show(ui, |ui| plots.ui(ui, view, &mut requests));
                });
            });
        let free = ctx.available_rect();
        requests.push(Request::Viewport(
            Vec2::new(free.min.x, free.min.y),
            Vec2::new(free.max.x, free.max.y),
        ));
        let mut show_help = view.show_help;
        help::show(ctx, &mut show_help);
        requests.if_changed(&view.show_help, show_help, Request::ShowHelp);
        files.windows(ctx, &mut requests);
        requests
    }
}

/// The Edit menu: undo and redo, named by what they undo.
fn edit_menu(ui: &mut egui::Ui, state: &AppState, requests: &mut UiRequests) {
    ui.menu_button("Edit", |ui| {
        let undo = state.undo.undo_label().map(|l| format!("Undo {l}"));
        if ui
            .add_enabled(undo.is_some(), egui::Button::new(undo.as_deref().unwrap_or("Undo")))
            .on_hover_text("Ctrl+Z")
            .clicked()
        {
            requests.push(Request::Undo);
            ui.close_menu();
        }
        let redo = state.undo.redo_label().map(|l| format!("Redo {l}"));
        if ui
            .add_enabled(redo.is_some(), egui::Button::new(redo.as_deref().unwrap_or("Redo")))
            .on_hover_text("Ctrl+Shift+Z")
            .clicked()
        {
            requests.push(Request::Redo);
            ui.close_menu();
        }
    });
}

/// The View menu: fit, screenshot, side panels, help.
fn view_menu(ui: &mut egui::Ui, state: &AppState, requests: &mut UiRequests) {
    ui.menu_button("View", |ui| {
        if ui.button("Fit the scene (F)").clicked() {
            requests.push(Request::FitView);
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
            requests.push(Request::ToggleSidePanels);
            ui.close_menu();
        }
        if ui.button("Help (H)").clicked() {
            requests.push(Request::ShowHelp(true));
            ui.close_menu();
        }
    });
}

/// The status bar: messages on the left; in the sandbox, the world's counts (and the
/// stir countdown) on the right.
fn status_bar(ui: &mut egui::Ui, state: &AppState) {
    ui.horizontal(|ui| {
        let amber = egui::Color32::from_rgb(255, 190, 80);
        if !state.in_lesson() {
            // Right to left: the counts stay put at the right end while the messages on
            // the left come and go.
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
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::Vec2;

    fn state() -> AppState {
        let scene = crate::scene::parse(include_str!("../../../scenes/minimal.ron"), "minimal.ron").unwrap();
        AppState::new(&scene, None, Vec2::new(800.0, 600.0))
    }

    /// A body 20 km out (a 1 m box: twice the range) is named in the status bar; the
    /// minimal scene, near the origin, has no warning.
    #[test]
    fn a_body_beyond_the_precision_range_is_named() {
        assert_eq!(precision_warning(&state().world), None);
        let far =
            include_str!("../../../scenes/minimal.ron").replace("position: (0.0, 3.0)", "position: (20000.0, 3.0)");
        let scene = crate::scene::parse(&far, "far.ron").unwrap();
        let s = AppState::new(&scene, None, Vec2::new(800.0, 600.0));
        let text = precision_warning(&s.world).expect("a warning");
        assert!(text.contains("outside the precision range: body 1"), "{text}");
        assert!(text.contains("20000 m"), "{text}");
    }

    fn apply(s: &mut AppState, requests: Vec<Request>) {
        UiRequests {
            requests,
            ..UiRequests::default()
        }
        .apply(s, &mut Panels::default());
    }

    /// The race panel asks; the state changes only when the requests are applied, after
    /// the layout: switching race mode on starts its counters again.
    #[test]
    fn race_requests_change_the_state_when_applied() {
        let mut s = state();
        s.history.race_steps_total = 7;
        let requests = UiRequests {
            requests: vec![Request::Race(true)],
            ..UiRequests::default()
        };
        assert!(!s.world.settings().race, "asking changes nothing by itself");
        requests.apply(&mut s, &mut Panels::default());
        assert!(s.world.settings().race);
        assert_eq!(s.history.race_steps_total, 0);
        s.history.race_steps_total = 3;
        apply(&mut s, vec![Request::ResetRaceCounters]);
        assert_eq!(s.history.race_steps_total, 0);
        assert!(s.world.settings().race, "a reset keeps race mode on");
        apply(&mut s, vec![]);
        assert!(s.world.settings().race, "no request, no change");
    }

    /// The narrow phase and the other settings changed in one frame: both hold, whatever
    /// the order (the settings request does not carry the narrow phase back).
    #[test]
    fn settings_and_narrow_phase_in_one_frame_both_apply() {
        let mut s = state();
        let mut settings = *s.world.settings();
        settings.substeps = 9;
        let other = crate::narrow::Algorithm::GjkEpa;
        assert_ne!(s.world.settings().narrow_phase, other);
        apply(&mut s, vec![Request::NarrowPhase(other), Request::Settings(settings)]);
        assert_eq!(s.world.settings().narrow_phase, other);
        assert_eq!(s.world.settings().substeps, 9);
    }

    /// A whole overlay frame with no input changes nothing in the state while it is laid
    /// out, and asks only for the viewport.
    #[test]
    fn a_frame_of_the_overlay_only_reports_the_viewport() {
        let mut s = state();
        let mut panels = Panels::default();
        let ctx = egui::Context::default();
        let hash = s.world.state_hash();
        let mut requests = UiRequests::default();
        let _ = ctx.run(egui::RawInput::default(), |ctx| requests = panels.ui(ctx, &mut s));
        assert_eq!(s.world.state_hash(), hash);
        assert!(
            matches!(requests.requests.as_slice(), [Request::Viewport(..)]),
            "{:?}",
            requests.requests
        );
        requests.apply(&mut s, &mut panels);
        assert!(s.viewport_px.1.x > s.viewport_px.0.x);
    }
}
