//! The lesson panel of a topic lesson (lessons 11 on): title and introduction, the
//! preset, the player, the step's card and pseudocode (the narrow lessons' widgets),
//! predict mode, the topic's table, lesson 12's cost model (its counts from the trace,
//! its times measured on this machine), the quiz.

use super::panel::{card_ui, pseudocode_ui, PANEL_WIDTH};
use super::topic_mode::TopicMode;
use super::{colors, quiz_view};
use crate::app::panels::{Request, UiRequests};
use crate::lesson::Granularity;
use egui::RichText;

/// The panel on the right, in place of the sandbox's.
pub fn show(ctx: &egui::Context, mode: &mut TopicMode, requests: &mut UiRequests) {
    let mut exit = false;
    let mut status: Option<Result<String, String>> = None;
    egui::SidePanel::right("lesson")
        .resizable(true)
        .default_width(PANEL_WIDTH)
        .show(ctx, |ui| {
            ui.with_layout(egui::Layout::bottom_up(egui::Align::Min), |ui| {
                ui.add_space(4.0);
                ui.weak(
                    "Right drag pans a view, the wheel zooms it. Keys: Right arrow: next, Left arrow: previous, \
                     Home, End, Space: play, K: predict mode, F: fit.",
                );
                ui.separator();
                ui.with_layout(egui::Layout::top_down(egui::Align::Min), |ui| {
                    egui::ScrollArea::vertical().show(ui, |ui| {
                        exit = super::panel::lesson_header(
                            ui,
                            mode.lesson.number(),
                            mode.lesson.title(),
                            mode.lesson.intro(),
                        );
                        ui.separator();
                        if let Some(s) = preset_ui(ui, mode) {
                            status = Some(s);
                        }
                        ui.separator();
                        if let Some(s) = player_ui(ui, mode) {
                            status = Some(Ok(s));
                        }
                        ui.separator();
                        // Lesson 12's comparison steps are about the times: the cost
                        // model goes first there, in sight, and after the table elsewhere.
                        let step = mode.player.trace().steps.get(mode.player.cursor()).cloned();
                        let costs_first = step.as_ref().is_some_and(|s| s.iteration >= 2);
                        if costs_first {
                            cost_ui(ui, mode);
                        }
                        if let Some(step) = step {
                            card_ui(ui, &step.card);
                            ui.add_space(4.0);
                            pseudocode_ui(ui, &step.card);
                        }
                        table_ui(ui, mode);
                        if !costs_first {
                            cost_ui(ui, mode);
                        }
                        ui.separator();
                        let at_end = mode.player.cursor() + 1 >= mode.player.len();
                        let questions = mode.player.trace().quiz.clone();
                        quiz_view::questions_ui(ui, &questions, &mut mode.quiz, at_end);
                        ui.add_space(6.0);
                    });
                });
            });
        });
    if let Some(status) = status {
        requests.push(Request::Status(status));
    }
    if exit {
        requests.push(Request::ExitLesson);
    }
}

fn preset_ui(ui: &mut egui::Ui, mode: &mut TopicMode) -> Option<Result<String, String>> {
    if mode.lesson.presets().is_empty() {
        return None;
    }
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
    if let Some(p) = current.and_then(|i| mode.lesson.presets().get(i)) {
        ui.label(RichText::new(&p.caption).italics());
    }
    (chosen != current).then(|| mode.set_preset(chosen).map(|()| format!("preset: {}", name(chosen))))
}

fn player_ui(ui: &mut egui::Ui, mode: &mut TopicMode) -> Option<String> {
    let by_iteration = mode.player.granularity() == Granularity::Iteration;
    let p = &mut mode.player;
    let forward = super::panel::player_buttons(ui, p, by_iteration);
    ui.label(format!("Step {} of {}", p.cursor() + 1, p.len()));
    super::panel::player_pace(ui, p);
    let mut said = forward.then(|| mode.forward(by_iteration)).flatten();
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
            .on_hover_text("Before each step with a question, click your answer; it is scored against the trace.")
            .changed()
        {
            said = Some(mode.toggle_predict());
        }
        if mode.predict.on || mode.predict.board.asked() > 0 {
            ui.weak(mode.score_text());
        }
    });
    if let (Some(step), Some(prompt)) = (mode.predict.pending, mode.prompt()) {
        let amber = colors::egui(colors::PREDICT);
        let view = match mode.player.trace().steps[step].target.as_ref().map(|t| t.pane) {
            Some(crate::lesson::topic::Pane::Diagram) => "the diagram",
            _ => "the world view",
        };
        egui::Frame::group(ui.style())
            .stroke(egui::Stroke::new(2.0, amber))
            .show(ui, |ui| {
                ui.set_width(ui.available_width());
                ui.label(
                    RichText::new(format!("Predict step {}", step + 1))
                        .strong()
                        .color(amber),
                );
                ui.label(prompt);
                ui.weak(format!(
                    "Click in {view} (outlined). Next reveals it unscored; Esc closes the question."
                ));
            });
    }
    said
}

/// The topic's table (ρ per volume and shape, …).
fn table_ui(ui: &mut egui::Ui, mode: &TopicMode) {
    let Some(table) = &mode.player.trace().table else {
        return;
    };
    ui.add_space(4.0);
    egui::CollapsingHeader::new(&table.title)
        .default_open(true)
        .show(ui, |ui| {
            egui::Grid::new("topic_table").striped(true).show(ui, |ui| {
                for h in &table.header {
                    ui.strong(h);
                }
                ui.end_row();
                for row in &table.rows {
                    for cell in row {
                        ui.monospace(cell);
                    }
                    ui.end_row();
                }
            });
        });
}

/// Lesson 12: T = Nv·Cv + Np·Cp per node volume, from the trace's counts and the times
/// measured when the lesson opened, with a bar per volume and what they say.
fn cost_ui(ui: &mut egui::Ui, mode: &mut TopicMode) {
    let Some(counts) = mode.player.trace().cost.clone() else {
        return;
    };
    let rows: Vec<CostRow> = counts
        .rows
        .iter()
        .filter_map(|r| {
            let m = mode.costs.iter().find(|m| m.kind == r.kind)?;
            Some(CostRow {
                name: r.kind.name(),
                nv: r.nv,
                np: r.np,
                cv: m.cv_ns,
                cp: m.cp_ns,
                t_us: (f64::from(r.nv) * m.cv_ns + f64::from(r.np) * m.cp_ns) / 1000.0,
            })
        })
        .collect();
    ui.add_space(4.0);
    egui::CollapsingHeader::new("T = Nv·Cv + Np·Cp, measured on this machine")
        .default_open(true)
        .show(ui, |ui| {
            if rows.is_empty() {
                ui.weak("Not measured.");
                return;
            }
            let max_t = rows.iter().map(|r| r.t_us).fold(1e-9, f64::max);
            egui::Grid::new("cost_model").striped(true).show(ui, |ui| {
                for h in ["volume", "Nv", "Cv (ns)", "Np", "Cp (ns)", "T (µs)", ""] {
                    ui.strong(h);
                }
                ui.end_row();
                for r in &rows {
                    let name = if r.name == counts.shown.name() {
                        RichText::new(r.name).strong()
                    } else {
                        RichText::new(r.name)
                    };
                    ui.label(name);
                    ui.monospace(r.nv.to_string());
                    ui.monospace(format!("{:.1}", r.cv));
                    ui.monospace(r.np.to_string());
                    ui.monospace(format!("{:.1}", r.cp));
                    ui.monospace(format!("{:.2}", r.t_us));
                    ui.add(egui::ProgressBar::new((r.t_us / max_t) as f32).desired_width(70.0));
                    ui.end_row();
                }
            });
            ui.label(cost_verdict(&rows));
            ui.horizontal(|ui| {
                ui.weak("Cv, Cp: the descent's own two tests, timed when the lesson opened.");
                if ui.small_button("Time again").clicked() {
                    mode.costs = mode.lesson.measure_costs();
                }
            });
        });
}

/// One node volume's row of the cost model.
struct CostRow {
    name: &'static str,
    nv: u32,
    np: u32,
    cv: f64,
    cp: f64,
    t_us: f64,
}

/// What the measured rows say: which volumes test the fewest nodes, which is fastest,
/// and the OBB against the AABB (the OBB-tree's claim). Differences under 10% are called
/// even: the times are a few milliseconds' sample on a machine that may be busy.
fn cost_verdict(rows: &[CostRow]) -> String {
    let Some(fastest) = rows.iter().min_by(|a, b| a.t_us.total_cmp(&b.t_us)) else {
        return String::new();
    };
    let min_nv = rows.iter().map(|r| r.nv).min().unwrap_or(0);
    let fewest: Vec<&str> = rows.iter().filter(|r| r.nv == min_nv).map(|r| r.name).collect();
    let fewest_names = match &fewest[..] {
        [one] => format!("{one} tests"),
        [rest @ .., last] => format!("{} and {last} test", rest.join(", ")),
        [] => String::new(),
    };
    let mut text = if fewest.contains(&fastest.name) {
        format!(
            "{fewest_names} the fewest nodes (Nv = {min_nv}); {} is fastest (T = {:.2} µs, Cv = {:.1} ns).",
            fastest.name, fastest.t_us, fastest.cv
        )
    } else {
        format!(
            "{fewest_names} the fewest nodes (Nv = {min_nv}), yet {} is fastest (T = {:.2} µs): Nv = {} at Cv = {:.1} ns a test.",
            fastest.name, fastest.t_us, fastest.nv, fastest.cv
        )
    };
    let find = |n: &str| rows.iter().find(|r| r.name == n);
    if let (Some(obb), Some(aabb)) = (find("OBB"), find("AABB")) {
        let more = |n: u32, m: u32, what: &str| match n.cmp(&m) {
            std::cmp::Ordering::Less => format!("{} fewer {what}", m - n),
            std::cmp::Ordering::Equal => format!("as many {what}"),
            std::cmp::Ordering::Greater => format!("{} more {what}", n - m),
        };
        let ratio = obb.t_us / aabb.t_us.max(1e-9);
        let verdict = if ratio < 0.9 {
            "the tighter volume pays"
        } else if ratio > 1.1 {
            "the tighter volume does not pay"
        } else {
            "about even"
        };
        text += &format!(
            " OBB against AABB: {}, {}; Cv {:.1} against {:.1} ns; T {:.2} against {:.2} µs: {verdict}.",
            more(obb.nv, aabb.nv, "node tests"),
            more(obb.np, aabb.np, "edge tests"),
            obb.cv,
            aabb.cv,
            obb.t_us,
            aabb.t_us
        );
    }
    text
}
