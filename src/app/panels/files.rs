//! Scenes: open (file dialog, dropped file, example scenes, recent files), save, save
//! as, and the question before unsaved edits would be replaced. The rules live in
//! `app/files.rs`; this file is their menu and windows.

use super::super::files::{self, OpenOutcome, Pending, RecentFiles};
use super::super::input::{FrameInput, Key};
use super::super::state::AppState;
use super::{Request, UiRequests};
use egui_file_dialog::{DialogState, FileDialog};
use std::path::{Path, PathBuf};

/// Which question the file dialog is answering.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum DialogPurpose {
    Open,
    SaveAs,
}

/// The file menu's state: the dialog, the recent files, the pending question.
pub struct FilesPanel {
    dialog: FileDialog,
    purpose: DialogPurpose,
    /// Recently opened or saved files.
    pub recent: RecentFiles,
    /// An action waiting for "discard unsaved edits?".
    pub pending: Option<Pending>,
    /// The user confirmed quitting: the window loop may close.
    pub quit_confirmed: bool,
    examples: Vec<PathBuf>,
}

impl Default for FilesPanel {
    fn default() -> Self {
        FilesPanel {
            dialog: new_dialog(),
            purpose: DialogPurpose::Open,
            recent: RecentFiles::load_user(),
            pending: None,
            quit_confirmed: false,
            examples: files::example_scenes(),
        }
    }
}

/// The save-as dialog's name for scene files; the dialog adds " (.ron)".
const SAVE_EXTENSION_NAME: &str = "Scene";

fn new_dialog() -> FileDialog {
    FileDialog::new()
        .title("Scene")
        .add_file_filter_extensions("Scenes (*.ron)", vec!["ron"])
        .default_file_filter("Scenes (*.ron)")
        // The dialog shows a save extension as "{name} (.{extension})" itself.
        .add_save_extension(SAVE_EXTENSION_NAME, "ron")
        .default_save_extension(SAVE_EXTENSION_NAME)
        .default_size([720.0, 480.0])
}

impl FilesPanel {
    /// Opens `path`, or asks first when that would lose edits.
    pub fn open(&mut self, state: &mut AppState, path: &Path) {
        match files::request_open(state, &mut self.recent, path) {
            OpenOutcome::NeedsConfirmation => self.pending = Some(Pending::Open(path.to_path_buf())),
            OpenOutcome::Failed(_) if !path.exists() => self.recent.remove(path),
            OpenOutcome::Failed(_) | OpenOutcome::Opened => {}
        }
    }

    /// Opens the dialog to pick a scene, in the current scene's folder.
    pub fn open_dialog(&mut self, state: &AppState) {
        self.purpose = DialogPurpose::Open;
        if let Some(dir) = scene_folder(state) {
            self.dialog.config_mut().initial_directory = dir;
        }
        self.dialog.pick_file();
    }

    /// Saves to the scene's file, or asks where when it has none.
    pub fn save(&mut self, state: &mut AppState) {
        match state.scene_path.clone() {
            Some(path) => {
                let _ = files::save_to(state, &mut self.recent, &path);
            }
            None => self.save_as_dialog(state),
        }
    }

    /// Opens the dialog to save under a new name.
    pub fn save_as_dialog(&mut self, state: &AppState) {
        self.purpose = DialogPurpose::SaveAs;
        let name = state
            .scene_path
            .as_deref()
            .and_then(Path::file_name)
            .map_or_else(|| "scene.ron".to_string(), |n| n.to_string_lossy().into_owned());
        self.dialog.config_mut().default_file_name = name;
        if let Some(dir) = scene_folder(state) {
            self.dialog.config_mut().initial_directory = dir;
        }
        self.dialog.save_file();
    }

    /// A dialog (the file dialog, or "Unsaved edits") is open: until it closes, keys
    /// and clicks are its alone.
    pub fn modal_open(&self) -> bool {
        self.pending.is_some() || matches!(self.dialog.state(), DialogState::Open)
    }

    /// Ctrl+O, Ctrl+S, Ctrl+Shift+S, and files dropped onto the window.
    pub fn handle_input(&mut self, state: &mut AppState, input: &FrameInput) {
        if let Some(path) = input.dropped_files.first() {
            if path.extension().is_some_and(|x| x == "ron") {
                self.open(state, path);
            } else {
                state.set_error(format!("not opened: {} is not a scene (.ron) file", path.display()));
            }
        }
        if input.ui_wants_keyboard || !input.ctrl {
            return;
        }
        if input.key(Key::O) {
            self.open_dialog(state);
        }
        if input.key(Key::S) {
            if input.shift {
                self.save_as_dialog(state);
            } else {
                self.save(state);
            }
        }
    }

    /// The window asked to close: close at once, or ask about unsaved edits first.
    /// Returns true when the window may close now.
    pub fn quit_requested(&mut self, state: &AppState) -> bool {
        if state.dirty && !self.quit_confirmed {
            self.pending = Some(Pending::Quit);
            false
        } else {
            true
        }
    }

    /// The "File" menu in the menu bar. Opening the dialogs is the panel's own business;
    /// opening and saving scenes are requests.
    pub fn menu(&mut self, ui: &mut egui::Ui, state: &AppState, requests: &mut UiRequests) {
        ui.menu_button("File", |ui| {
            if ui.add(egui::Button::new("Open…").shortcut_text("Ctrl+O")).clicked() {
                self.open_dialog(state);
                ui.close_menu();
            }
            ui.menu_button("Open example", |ui| {
                if self.examples.is_empty() {
                    ui.label("(no scenes/ folder found)");
                }
                let mut in_lessons = false;
                let chosen = path_buttons(ui, &self.examples, Path::file_stem, |ui, path| {
                    let is_lesson = path.parent().and_then(Path::file_name).is_some_and(|n| n == "lessons");
                    if is_lesson && !in_lessons {
                        ui.separator();
                        ui.label("Lessons");
                        in_lessons = true;
                    }
                });
                if let Some(path) = chosen {
                    requests.push(Request::Open(path));
                    ui.close_menu();
                }
            });
            ui.menu_button("Open recent", |ui| {
                if self.recent.paths.is_empty() {
                    ui.label("(none yet)");
                }
                let chosen = path_buttons(ui, &self.recent.paths, Path::file_name, |_, _| {});
                if let Some(path) = chosen {
                    requests.push(Request::Open(path));
                    ui.close_menu();
                }
            });
            ui.separator();
            if ui.add(egui::Button::new("Save").shortcut_text("Ctrl+S")).clicked() {
                requests.push(Request::Save);
                ui.close_menu();
            }
            if ui
                .add(egui::Button::new("Save as…").shortcut_text("Ctrl+Shift+S"))
                .clicked()
            {
                self.save_as_dialog(state);
                ui.close_menu();
            }
        });
    }

    /// The file dialog and the confirmation, as windows over everything; what the user
    /// picks or answers becomes a request.
    pub fn windows(&mut self, ctx: &egui::Context, requests: &mut UiRequests) {
        self.dialog.update(ctx);
        if let Some(path) = self.dialog.take_picked() {
            match self.purpose {
                DialogPurpose::Open => requests.push(Request::Open(path)),
                DialogPurpose::SaveAs => {
                    let path = if path.extension().is_none() {
                        path.with_extension("ron")
                    } else {
                        path
                    };
                    requests.push(Request::SaveTo(path));
                }
            }
        }
        let Some(pending) = self.pending.clone() else {
            return;
        };
        let question = match &pending {
            Pending::Open(path) => format!(
                "The scene has unsaved edits. Open {} and discard them?",
                path.file_name().map(|n| n.to_string_lossy()).unwrap_or_default()
            ),
            Pending::Quit => "The scene has unsaved edits. Quit and discard them?".to_string(),
        };
        // A modal: egui blocks every other panel behind a backdrop (the window loop keeps
        // the world and the shortcuts away, see `modal_open`). Escape cancels; a click
        // beside it does nothing, so a stray click cannot answer the question.
        egui::Modal::new(egui::Id::new("unsaved edits")).show(ctx, |ui| {
            ui.heading("Unsaved edits");
            ui.label(question);
            ui.horizontal(|ui| {
                if ui.button("Save first").clicked() {
                    requests.push(Request::SaveThen(pending.clone()));
                    self.pending = None;
                }
                if ui.button("Discard edits").clicked() {
                    requests.push(Request::Discard(pending.clone()));
                    self.pending = None;
                }
                if ui.button("Cancel").clicked() {
                    self.pending = None;
                }
            });
        });
        if ctx.input(|i| i.key_pressed(egui::Key::Escape)) {
            self.pending = None;
        }
    }

    /// Goes on with what waited for "Unsaved edits" (the edits are saved or discarded).
    pub fn resolve(&mut self, state: &mut AppState, pending: &Pending) {
        match pending {
            Pending::Open(path) => {
                files::open_now(state, &mut self.recent, path);
            }
            Pending::Quit => self.quit_confirmed = true,
        }
    }
}

/// One button per path, labelled by `label_of` (file name or stem), the full path on
/// hover; `before` runs ahead of each button (for headings). Returns the clicked path.
fn path_buttons(
    ui: &mut egui::Ui,
    paths: &[PathBuf],
    label_of: fn(&Path) -> Option<&std::ffi::OsStr>,
    mut before: impl FnMut(&mut egui::Ui, &Path),
) -> Option<PathBuf> {
    let mut chosen = None;
    for path in paths {
        before(ui, path);
        let name = label_of(path)
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        if ui.button(name).on_hover_text(path.display().to_string()).clicked() {
            chosen = Some(path.clone());
        }
    }
    chosen
}

/// The folder of the current scene's file, absolute: a scene opened by a relative name
/// (`collision-lab glider.ron`) has the empty path as its parent, and the dialog showed
/// "No such file or directory" instead of the folder.
fn scene_folder(state: &AppState) -> Option<PathBuf> {
    let path = state.scene_path.as_deref()?;
    let absolute = std::path::absolute(path).ok()?;
    absolute.parent().map(Path::to_path_buf)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::Vec2;

    fn panel() -> FilesPanel {
        FilesPanel {
            recent: RecentFiles::default(),
            ..FilesPanel::default()
        }
    }

    fn state() -> AppState {
        let scene = crate::scene::parse(include_str!("../../../scenes/minimal.ron"), "minimal.ron").unwrap();
        AppState::new(&scene, None, Vec2::new(800.0, 600.0))
    }

    fn dropped(path: &Path) -> FrameInput {
        FrameInput {
            dropped_files: vec![path.to_path_buf()],
            ..FrameInput::default()
        }
    }

    #[test]
    fn a_dropped_scene_opens() {
        let pool = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/pool.ron");
        let (mut p, mut s) = (panel(), state());
        p.handle_input(&mut s, &dropped(&pool));
        assert_eq!(s.scene_path.as_deref(), Some(pool.as_path()));
        assert_eq!(p.recent.paths.len(), 1);
    }

    #[test]
    fn a_dropped_scene_over_edits_asks_first() {
        let pool = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/pool.ron");
        let (mut p, mut s) = (panel(), state());
        s.dirty = true;
        p.handle_input(&mut s, &dropped(&pool));
        assert_eq!(p.pending, Some(Pending::Open(pool.clone())));
        assert_eq!(s.scene_path, None, "not replaced yet");
        let pending = p.pending.take().unwrap();
        p.resolve(&mut s, &pending);
        assert_eq!(s.scene_path.as_deref(), Some(pool.as_path()));
    }

    #[test]
    fn a_dropped_file_that_is_not_a_scene_is_refused() {
        let (mut p, mut s) = (panel(), state());
        let before = s.world.state_hash();
        p.handle_input(&mut s, &dropped(Path::new("/tmp/picture.png")));
        assert!(s
            .status
            .as_ref()
            .is_some_and(|st| st.is_error && st.text.contains("picture.png")));
        assert_eq!(s.world.state_hash(), before);
    }

    #[test]
    fn quitting_with_edits_asks_and_then_closes() {
        let (mut p, mut s) = (panel(), state());
        assert!(p.quit_requested(&s), "nothing to lose");
        s.dirty = true;
        assert!(!p.quit_requested(&s));
        assert_eq!(p.pending, Some(Pending::Quit));
        p.resolve(&mut s, &Pending::Quit);
        assert!(p.quit_requested(&s));
    }

    /// While "Unsaved edits" is open, H, F, Space, Ctrl+O and a click in the world do
    /// nothing: the frame is withheld from everything but the dialog.
    #[test]
    fn an_open_dialog_takes_the_keys_and_clicks() {
        use crate::app::input::{self, Button};
        let (mut p, mut s) = (panel(), state());
        s.dirty = true;
        assert!(!p.quit_requested(&s));
        assert!(p.modal_open());
        let (help, paused, camera) = (s.show_help, s.clock.is_paused(), s.camera);
        let mut frame = FrameInput {
            mouse_px: Vec2::new(400.0, 300.0),
            pressed: vec![Button::Left],
            down: vec![Button::Left],
            keys: vec![Key::H, Key::F, Key::Space, Key::O],
            ctrl: true,
            wheel: 3.0,
            ..FrameInput::default()
        };
        frame.withhold_for_modal();
        input::camera_input(&mut s, &frame, frame.mouse_px);
        input::global_keys(&mut s, &frame);
        crate::app::tools::handle_input(&mut s, &frame);
        p.handle_input(&mut s, &frame);
        assert_eq!(s.show_help, help);
        assert_eq!(s.clock.is_paused(), paused);
        assert_eq!(s.camera, camera);
        assert_eq!(s.selection, None, "the click picked nothing");
        assert!(!matches!(p.dialog.state(), DialogState::Open), "Ctrl+O opened nothing");
        assert_eq!(p.pending, Some(Pending::Quit), "the question is still there");
    }
}
