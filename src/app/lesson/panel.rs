//! The lesson panel (egui): the lesson's title and introduction, the algorithm and the
//! preset, the player's controls, the narration card with its live numbers, the
//! pseudocode with the current line highlighted, the answer, and the knobs.
//!
//! Also the "Lessons" menu of the menu bar, which opens any lesson of `scenes/lessons/`.

use super::{colors, LessonMode};
use crate::app::files;
use crate::app::panels::{Request, UiRequests};
use crate::app::state::AppState;
use crate::lesson::{fmt_num, Card, Granularity, Player, Steps};
use egui::text::LayoutJob;
use egui::{Color32, FontId, RichText, TextFormat};
use std::path::{Path, PathBuf};

/// Width of the lesson panel (px).
pub const PANEL_WIDTH: f32 = 460.0;

/// The "Lessons" menu: every `scenes/lessons/*.ron`, by number and title.
pub struct LessonMenu {
    entries: Vec<(PathBuf, String)>,
}

impl Default for LessonMenu {
    fn default() -> Self {
        LessonMenu {
            entries: lesson_entries(&files::example_scenes()),
        }
    }
}

/// The lessons among `paths` (those under a `lessons` folder), each with "6. Title" (or
/// the file name when it does not load).
pub fn lesson_entries(paths: &[PathBuf]) -> Vec<(PathBuf, String)> {
    paths
        .iter()
        .filter(|p| p.parent().and_then(Path::file_name).is_some_and(|n| n == "lessons"))
        .map(|p| {
            let name = crate::scene::load(p)
                .ok()
                .and_then(|s| s.def().lesson.as_ref().map(|l| format!("{}. {}", l.number, l.title)))
                .unwrap_or_else(|| {
                    p.file_stem()
                        .map(|s| s.to_string_lossy().into_owned())
                        .unwrap_or_default()
                });
            (p.clone(), name)
        })
        .collect()
}

impl LessonMenu {
    /// The menu in the menu bar; picking a lesson opens it like File > Open (asking
    /// first about unsaved edits).
    pub fn menu(&mut self, ui: &mut egui::Ui, state: &AppState, requests: &mut UiRequests) {
        ui.menu_button("Lessons", |ui| {
            if self.entries.is_empty() {
                ui.label("(no scenes/lessons/ folder found)");
            }
            let mut chosen = None;
            for (path, name) in &self.entries {
                if ui.button(name).on_hover_text(path.display().to_string()).clicked() {
                    chosen = Some(path.clone());
                }
            }
            if let Some(path) = chosen {
                requests.push(Request::Open(path));
                ui.close_menu();
            }
            if state.in_lesson() {
                ui.separator();
                if ui.button("Exit lesson (back to the sandbox)").clicked() {
                    requests.push(Request::ExitLesson);
                    ui.close_menu();
                }
            }
        });
    }
}

/// Leaves lesson mode: the sandbox takes over with the lesson's shapes as edited.
pub fn exit_lesson(state: &mut AppState) {
    if state.topic.take().is_some() {
        state.fit_view();
        state.set_status("left the lesson: the sandbox runs (Space pauses)");
        return;
    }
    let Some(mode) = state.lesson.take() else {
        return;
    };
    if mode.edited {
        match crate::scene::Scene::from_def(mode.scene_to_save()) {
            Ok(scene) => state.world = crate::dynamics::World::from_scene(&scene),
            Err(e) => state.set_error(format!("the edited shapes could not be kept: {e}")),
        }
    }
    state.fit_view();
    state.set_status("left the lesson: the sandbox runs (Space pauses)");
}

/// The lesson panel on the right, in place of the sandbox's panels. It plays the
/// lesson (its own state); leaving it, messages and "edited" are requests.
pub fn show(ctx: &egui::Context, mode: &mut LessonMode, requests: &mut UiRequests) {
    let mut exit = false;
    let mut status = None;
    egui::SidePanel::right("lesson")
        .resizable(true)
        .default_width(PANEL_WIDTH)
        .show(ctx, |ui| {
            // The hint is a footer outside the scroll area: at the end of the scrolled
            // content it was cut by the panel's lower edge, above the status bar.
            ui.with_layout(egui::Layout::bottom_up(egui::Align::Min), |ui| {
                ui.add_space(4.0);
                ui.weak(
                    "Drag a shape to move it, a vertex handle to reshape it; wheel while dragging or Q/E to \
                 turn; right drag pans, wheel zooms a view; hover a dot of A − B to see its pair. Keys: \
                 Right arrow: next, Left arrow: previous, Home, End, Space: play, K: predict mode.",
                );
                ui.separator();
                ui.with_layout(egui::Layout::top_down(egui::Align::Min), |ui| {
                    egui::ScrollArea::vertical().show(ui, |ui| {
                        exit = lesson_header(ui, mode.lesson.number(), mode.lesson.title(), mode.lesson.intro());
                        ui.separator();
                        status = setup_ui(ui, mode);
                        ui.separator();
                        if let Some(text) = player_ui(ui, mode) {
                            status = Some(Ok(text));
                        }
                        ui.separator();
                        let card = mode.player.card();
                        card_ui(ui, &card);
                        ui.add_space(4.0);
                        pseudocode_ui(ui, &card);
                        answer_ui(ui, mode);
                        ui.separator();
                        super::quiz_view::quiz_ui(ui, mode);
                        ui.separator();
                        egui::CollapsingHeader::new("Knobs (recompute the trace)")
                            .default_open(false)
                            .show(ui, |ui| super::knobs::knobs_ui(ui, mode));
                        ui.add_space(6.0);
                    });
                });
            });
        });
    if let Some(status) = status {
        requests.push(Request::Status(status));
    }
    if mode.edited {
        requests.push(Request::MarkEdited);
    }
    if exit {
        requests.push(Request::ExitLesson);
    }
}

/// What the status bar says in a lesson when nothing else has been said.
pub const LESSON_HINT: &str =
    "Lesson: Next (Right arrow) steps through the algorithm · drag shapes and vertices · right drag: pan · wheel: zoom";

/// Algorithm and preset.
fn setup_ui(ui: &mut egui::Ui, mode: &mut LessonMode) -> Option<Result<String, String>> {
    let mut status = None;
    let algorithms = mode.lesson.algorithms();
    ui.horizontal_wrapped(|ui| {
        ui.label("Algorithm:");
        for a in algorithms {
            if ui.selectable_label(mode.algorithm == a, a.name()).clicked() {
                mode.set_algorithm(a);
                status = Some(Ok(format!("algorithm: {}", a.name())));
            }
        }
    });
    if !mode.lesson.presets().is_empty() {
        let current = mode.lesson.preset();
        let names: Vec<String> = mode.lesson.presets().iter().map(|p| p.name.clone()).collect();
        let name = |p: Option<usize>| {
            p.and_then(|i| names.get(i))
                .map_or_else(|| "as written".to_string(), Clone::clone)
        };
        let mut chosen = current;
        ui.horizontal(|ui| {
            ui.label("Preset:");
            egui::ComboBox::from_id_salt("preset")
                .selected_text(name(current))
                .show_ui(ui, |ui| {
                    ui.selectable_value(&mut chosen, None, "as written");
                    for (i, n) in names.iter().enumerate() {
                        ui.selectable_value(&mut chosen, Some(i), n);
                    }
                });
        });
        if chosen != current {
            status = Some(mode.set_preset(chosen).map(|()| format!("preset: {}", name(chosen))));
        }
        if let Some(p) = current.and_then(|i| mode.lesson.presets().get(i)) {
            ui.label(RichText::new(&p.caption).italics());
        }
    }
    status
}

/// First, previous, next, last, play with a speed, the scrub slider, the granularity.
fn player_ui(ui: &mut egui::Ui, mode: &mut LessonMode) -> Option<String> {
    let mut said = None;
    let by_iteration = mode.player.granularity() == Granularity::Iteration;
    let p = &mut mode.player;
    // Next goes through the lesson mode: in predict mode it asks before it shows.
    let forward = player_buttons(ui, p, by_iteration);
    ui.horizontal(|ui| {
        // The loop is numbered as the card numbers it (both 1-based): the player's own
        // groups of steps start with the set-up, so their count would run one ahead.
        let step = format!("Step {} of {}", p.cursor() + 1, p.len());
        match p.loop_position() {
            Some(pass) => ui.label(format!("{step} · {pass}")),
            None => ui.label(step),
        };
    });
    player_pace(ui, p);
    if forward {
        said = mode.forward(by_iteration);
    }
    predict_ui(ui, mode).or(said)
}

/// Predict mode's switch, its score, and the open question.
fn predict_ui(ui: &mut egui::Ui, mode: &mut LessonMode) -> Option<String> {
    let mut said = None;
    ui.horizontal(|ui| {
        if ui
            .button("Export SVG")
            .on_hover_text("This step's views as a vector picture, for slides (saved next to the screenshots)")
            .clicked()
        {
            mode.export_svg = true;
        }
        let mut on = mode.predict.on;
        if ui
            .checkbox(&mut on, "Predict (K)")
            .on_hover_text(
                "Before each step that computes a point, click where you think it will be; the click is scored against the algorithm's own answer, then the step is shown.",
            )
            .changed()
        {
            said = Some(mode.toggle_predict());
        }
        if mode.predict.on || mode.predict.board.asked() > 0 {
            ui.weak(mode.predict.score_text());
        }
    });
    if let Some(q) = &mode.predict.pending {
        let amber = colors::egui(colors::PREDICT);
        egui::Frame::group(ui.style())
            .stroke(egui::Stroke::new(2.0, amber))
            .show(ui, |ui| {
                ui.set_width(ui.available_width());
                ui.label(
                    RichText::new(format!("Predict step {}", q.step + 1))
                        .strong()
                        .color(amber),
                );
                ui.label(q.prompt);
                let view = match q.view {
                    crate::lesson::PredictView::World => "the world view",
                    crate::lesson::PredictView::Minkowski => "the A − B view",
                };
                ui.weak(format!(
                    "Click in {view} (outlined). Next reveals it unscored; Esc closes the question."
                ));
            });
    }
    said
}

/// The narration card: title and text, the names of A and B in their colours.
pub(super) fn card_ui(ui: &mut egui::Ui, card: &Card) {
    egui::Frame::group(ui.style())
        .fill(Color32::from_rgb(32, 36, 44))
        .show(ui, |ui| {
            ui.set_width(ui.available_width());
            ui.label(RichText::new(&card.title).strong().size(17.0).color(Color32::WHITE));
            ui.add_space(2.0);
            ui.label(coloured(ui, &card.text));
        });
}

/// The listing with the current line marked.
pub(super) fn pseudocode_ui(ui: &mut egui::Ui, card: &Card) {
    ui.label(RichText::new(format!("Pseudocode: {}", card.listing.name())).strong());
    egui::Frame::group(ui.style())
        .fill(Color32::from_rgb(22, 24, 28))
        .show(ui, |ui| {
            ui.set_width(ui.available_width());
            for (i, text) in card.listing.lines().iter().enumerate() {
                let current = i == card.pseudocode_line;
                // Fayzrakhmanov et al.'s (2015) listing numbers its own steps.
                let numbered = text.trim_start().starts_with(|c: char| c.is_ascii_digit());
                let number = if numbered {
                    String::new()
                } else {
                    format!("{:>2}  ", i + 1)
                };
                let line = format!("{}{number}{text}", if current { "▶ " } else { "  " });
                let rich = RichText::new(line).monospace().size(11.5);
                if current {
                    ui.label(
                        rich.background_color(Color32::from_rgb(90, 74, 20))
                            .color(Color32::WHITE)
                            .strong(),
                    );
                } else {
                    ui.label(rich.color(Color32::from_gray(170)));
                }
            }
        });
}

/// The algorithm's answer (once reached) and the exact one, for the lessons that compare.
fn answer_ui(ui: &mut egui::Ui, mode: &LessonMode) {
    let s = mode.player.state();
    if let Some(r) = &s.result {
        ui.add_space(4.0);
        let text = if r.intersect {
            format!(
                "{}: they intersect, depth {} along ({}, {}), {} contact point{}",
                mode.algorithm.name(),
                fmt_num(r.depth),
                fmt_num(r.normal.x),
                fmt_num(r.normal.y),
                r.points.len(),
                if r.points.len() == 1 { "" } else { "s" }
            )
        } else {
            format!("{}: no intersection", mode.algorithm.name())
        };
        ui.label(RichText::new(text).strong());
        if let Some(exact) = &mode.exact {
            let truth = match (exact.intersect, &exact.penetration) {
                (true, Some(p)) => format!("Exact answer: they intersect, true depth {}", fmt_num(p.depth)),
                (true, None) => "Exact answer: they intersect".to_string(),
                (false, _) => "Exact answer: they do not intersect".to_string(),
            };
            let agrees = exact.intersect == r.intersect;
            let color = if agrees {
                Color32::from_rgb(120, 220, 130)
            } else {
                Color32::from_rgb(255, 110, 110)
            };
            ui.colored_label(
                color,
                format!(
                    "{truth}{}",
                    if agrees {
                        ""
                    } else {
                        " — the algorithm is wrong here!"
                    }
                ),
            );
        }
    }
}

/// `text` with the shapes' names in their colours: "A" and a0, a1 … orange, "B" and
/// b0, b1 … teal (the colours of the views).
pub fn coloured(ui: &egui::Ui, text: &str) -> LayoutJob {
    let mut job = LayoutJob::default();
    let font = FontId::proportional(ui.style().text_styles[&egui::TextStyle::Body].size);
    let plain = TextFormat {
        font_id: font.clone(),
        color: ui.visuals().text_color(),
        ..Default::default()
    };
    for (word, owner) in words(text) {
        let format = match owner {
            Some(o) => TextFormat {
                font_id: font.clone(),
                color: colors::egui(colors::of(o)),
                ..Default::default()
            },
            None => plain.clone(),
        };
        job.append(word, 0.0, format);
    }
    job.wrap.max_width = ui.available_width();
    job
}

/// Splits `text` into runs, marking the words that name A or B or one of their vertices.
pub fn words(text: &str) -> Vec<(&str, Option<crate::narrow::trace::Owner>)> {
    use crate::narrow::trace::Owner;
    let mut out = Vec::new();
    let mut start = 0;
    let mut in_word = false;
    let classify = |w: &str| -> Option<Owner> {
        let mut chars = w.chars();
        let first = chars.next()?;
        let rest = chars.as_str();
        let digits = !rest.is_empty() && rest.chars().all(|c| c.is_ascii_digit());
        match first {
            'A' if rest.is_empty() || digits => Some(Owner::A),
            'B' if rest.is_empty() || digits => Some(Owner::B),
            'a' if digits => Some(Owner::A),
            'b' if digits => Some(Owner::B),
            _ => None,
        }
    };
    for (i, ch) in text.char_indices() {
        let is_word = ch.is_alphanumeric() || ch == '_';
        if is_word != in_word && i > start {
            let w = &text[start..i];
            out.push((w, if in_word { classify(w) } else { None }));
            start = i;
        }
        in_word = is_word;
    }
    if start < text.len() {
        let w = &text[start..];
        out.push((w, if in_word { classify(w) } else { None }));
    }
    // "A circle has no edges": at the start of a sentence, "A" before a noun is the
    // article, not the shape.
    const VERBS: [&str; 12] = [
        "is", "and", "or", "has", "lies", "minus", "moves", "overlaps", "touches", "projects", "gives", "sits",
    ];
    for i in 0..out.len() {
        let sentence_start = i == 0 || out[i - 1].0.trim_end().ends_with(['.', '!', '?', '"']);
        let next_word = out.get(i + 2).filter(|_| out.get(i + 1).is_some_and(|s| s.0 == " "));
        if out[i].0 == "A"
            && sentence_start
            && next_word.is_some_and(|w| w.0.starts_with(|c: char| c.is_lowercase()) && !VERBS.contains(&w.0))
        {
            out[i].1 = None;
        }
    }
    out
}

/// A lesson's heading with its Exit button, its title and its collapsible introduction,
/// for a lesson of any kind. Returns whether Exit was clicked.
pub(super) fn lesson_header(ui: &mut egui::Ui, number: impl std::fmt::Display, title: &str, intro: &str) -> bool {
    let mut exit = false;
    ui.horizontal(|ui| {
        ui.heading(format!("Lesson {number}"));
        ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
            exit = ui.button("Exit lesson").clicked();
        });
    });
    ui.label(RichText::new(title).strong().size(16.0));
    egui::CollapsingHeader::new("Introduction")
        .default_open(true)
        .show(ui, |ui| {
            egui::ScrollArea::vertical()
                .id_salt("intro")
                .max_height(150.0)
                .show(ui, |ui| {
                    ui.label(coloured(ui, intro));
                });
        });
    exit
}

/// The player's buttons (first, previous, next, last, play) and its scrub slider, for a
/// lesson of any kind. Returns whether Next was clicked: the lesson mode moves forward
/// itself (in predict mode it asks before it shows).
pub(super) fn player_buttons<T: Steps>(ui: &mut egui::Ui, p: &mut Player<T>, by_iteration: bool) -> bool {
    let last = p.len().saturating_sub(1);
    let mut forward = false;
    ui.horizontal(|ui| {
        if ui.button("⏮ First").on_hover_text("Home").clicked() {
            p.pause();
            p.first();
        }
        if ui
            .add_enabled(p.cursor() > 0, egui::Button::new("◀ Prev"))
            .on_hover_text("Left arrow")
            .clicked()
        {
            p.pause();
            if by_iteration {
                p.prev_iteration();
            } else {
                p.prev();
            }
        }
        let next = egui::Button::new(RichText::new("Next ▶").strong()).fill(Color32::from_rgb(40, 80, 120));
        if ui
            .add_enabled(p.cursor() < last, next)
            .on_hover_text("Right arrow")
            .clicked()
        {
            p.pause();
            forward = true;
        }
        if ui.button("Last ⏭").on_hover_text("End").clicked() {
            p.pause();
            p.last();
        }
        let play = if p.is_playing() { "⏸ Pause" } else { "▶ Play" };
        if ui.button(play).on_hover_text("Space").clicked() {
            if p.is_playing() {
                p.pause();
            } else {
                p.play();
            }
        }
    });
    let mut index = p.cursor();
    let slider = egui::Slider::new(&mut index, 0..=last).text("step").show_value(false);
    if ui.add_enabled(last > 0, slider).changed() {
        p.pause();
        p.seek(index);
    }
    forward
}

/// The player's granularity (micro-steps or whole iterations) and its playing speed.
pub(super) fn player_pace<T: Steps>(ui: &mut egui::Ui, p: &mut Player<T>) {
    ui.horizontal(|ui| {
        let mut g = p.granularity();
        ui.radio_value(&mut g, Granularity::Step, "micro-steps");
        ui.radio_value(&mut g, Granularity::Iteration, "whole iterations");
        p.set_granularity(g);
        let mut speed = p.speed();
        if ui
            .add(
                egui::Slider::new(&mut speed, 0.25..=10.0)
                    .logarithmic(true)
                    .text("per s"),
            )
            .changed()
        {
            p.set_speed(speed);
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::narrow::trace::Owner;

    #[test]
    fn the_names_of_a_and_b_and_their_vertices_are_found() {
        let w = words("Support of A − B: a2 − b0 (Bounds, Ab, a, B7).");
        let marked: Vec<(&str, Owner)> = w.iter().filter_map(|(s, o)| o.map(|o| (*s, o))).collect();
        assert_eq!(
            marked,
            vec![
                ("A", Owner::A),
                ("B", Owner::B),
                ("a2", Owner::A),
                ("b0", Owner::B),
                ("B7", Owner::B)
            ]
        );
        let a_s: Vec<Option<Owner>> = words("A circle has no edges. A is cut.")
            .into_iter()
            .filter(|(s, _)| *s == "A")
            .map(|(_, o)| o)
            .collect();
        assert_eq!(a_s, vec![None, Some(Owner::A)], "the article, then the shape");
        let joined: String = w.iter().map(|(s, _)| *s).collect();
        assert_eq!(joined, "Support of A − B: a2 − b0 (Bounds, Ab, a, B7).");
    }

    #[test]
    fn the_lessons_menu_lists_every_lesson_by_title() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/lessons");
        let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir).unwrap().flatten().map(|e| e.path()).collect();
        paths.sort();
        paths.push(Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/pool.ron"));
        let entries = lesson_entries(&paths);
        assert_eq!(entries.len(), paths.len() - 1, "every lesson, not the pool");
        assert!(entries.iter().any(|(_, n)| n.starts_with("6. GJK")), "{entries:?}");
        assert!(
            entries.iter().any(|(_, n)| n.starts_with("11. Bounding volumes")),
            "{entries:?}"
        );
    }

    #[test]
    fn exiting_a_lesson_keeps_its_edited_shapes_in_the_sandbox() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/lessons/06_gjk.ron");
        let scene = crate::scene::load(&path).unwrap();
        let mut state = AppState::new(&scene, Some(path), crate::math::Vec2::new(1400.0, 900.0));
        let mode = state.lesson.as_mut().unwrap();
        mode.lesson
            .set_pose(Owner::B, crate::math::Vec2::new(3.0, 0.0), 0.0)
            .unwrap();
        mode.edited = true;
        exit_lesson(&mut state);
        assert!(state.lesson.is_none());
        let b = state.world.bodies().iter().nth(1).unwrap().1.pose().translation;
        assert!((b - crate::math::Vec2::new(3.0, 0.0)).length() < 1e-6);
    }
}
