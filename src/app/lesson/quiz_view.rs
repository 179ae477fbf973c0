//! The end-of-lesson quiz in the lesson panel: the questions `lesson::quiz` builds from
//! the trace, a choice per question, then "Check answers" with a sentence on why.

use super::{LessonMode, QuizState};
use crate::lesson::QuizQuestion;
use egui::{Color32, RichText};

/// The end-of-lesson quiz (`lesson::quiz`): open at the last step; pick, then check.
pub fn quiz_ui(ui: &mut egui::Ui, mode: &mut LessonMode) {
    let questions = crate::lesson::quiz(mode.player.trace());
    let at_end = mode.player.cursor() + 1 >= mode.player.len();
    questions_ui(ui, &questions, &mut mode.quiz, at_end);
}

/// `questions`, answered in `quiz`; open once the player is `at_end`.
pub fn questions_ui(ui: &mut egui::Ui, questions: &[QuizQuestion], quiz: &mut QuizState, at_end: bool) {
    if questions.is_empty() {
        return;
    }
    egui::CollapsingHeader::new(format!("Quiz ({} questions)", questions.len()))
        .default_open(true)
        .show(ui, |ui| {
            if !at_end {
                ui.weak("Step to the answer (End) to take the quiz on what this trace did.");
                return;
            }
            quiz.picked.resize(questions.len(), None);
            for (k, q) in questions.iter().enumerate() {
                ui.label(RichText::new(format!("{}. {}", k + 1, q.prompt)).strong());
                ui.horizontal_wrapped(|ui| {
                    for (c, choice) in q.choices.iter().enumerate() {
                        let mut text = RichText::new(choice);
                        if quiz.checked && c == q.answer {
                            text = text.color(Color32::from_rgb(110, 220, 120));
                        }
                        if ui.radio(quiz.picked[k] == Some(c), text).clicked() && !quiz.checked {
                            quiz.picked[k] = Some(c);
                        }
                    }
                });
                if quiz.checked {
                    let right = quiz.picked[k] == Some(q.answer);
                    let (mark, colour) = if right {
                        ("right", Color32::from_rgb(110, 220, 120))
                    } else {
                        ("not quite", Color32::from_rgb(255, 130, 110))
                    };
                    ui.colored_label(colour, format!("{mark}: {}", q.why));
                }
                ui.add_space(4.0);
            }
            ui.horizontal(|ui| {
                if quiz.checked {
                    let right = questions
                        .iter()
                        .zip(&quiz.picked)
                        .filter(|(q, p)| **p == Some(q.answer))
                        .count();
                    ui.strong(format!("{right} of {} right", questions.len()));
                    if ui.button("Try again").clicked() {
                        *quiz = super::QuizState::default();
                    }
                } else {
                    let all = quiz.picked.iter().all(Option::is_some);
                    if ui.add_enabled(all, egui::Button::new("Check answers")).clicked() {
                        quiz.checked = true;
                    }
                }
            });
        });
}
