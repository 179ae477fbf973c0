//! Opening and saving scenes from the sandbox: the rules, without the window.
//!
//! - A file that does not load leaves the current scene untouched and says why, with
//!   file, line and column (the scene module's errors carry them).
//! - Unsaved edits are never replaced silently: opening, resetting to another file or
//!   quitting with edits first asks ([`Pending`]).
//! - Saves are atomic (the scene module writes a temporary file and renames it).
//! - Recently opened or saved files are remembered across runs in
//!   `$XDG_CONFIG_HOME/collision-lab/recent.ron` (or `~/.config/…`).

use super::state::AppState;
use crate::dynamics::Resume;
use crate::scene::{self, SceneDef};
use std::path::{Path, PathBuf};

/// How many recent files are remembered.
pub const RECENT_MAX: usize = 10;

/// An action waiting for the user's answer to "discard unsaved edits?".
#[derive(Clone, Debug, PartialEq)]
pub enum Pending {
    /// Open this file.
    Open(PathBuf),
    /// Close the window.
    Quit,
}

/// The outcome of asking to open a file.
#[derive(Clone, Debug, PartialEq)]
pub enum OpenOutcome {
    /// Loaded; the scene was replaced.
    Opened,
    /// The file did not load; the message (with its position) is in the status bar and
    /// the scene is unchanged.
    Failed(String),
    /// There are unsaved edits: the caller must ask, then call [`open_now`].
    NeedsConfirmation,
}

/// Opens `path` unless that would lose unsaved edits (then asks for confirmation).
pub fn request_open(state: &mut AppState, recent: &mut RecentFiles, path: &Path) -> OpenOutcome {
    if state.dirty {
        return OpenOutcome::NeedsConfirmation;
    }
    open_now(state, recent, path)
}

/// Opens `path`, replacing the scene (edits or not). On failure the scene is untouched.
pub fn open_now(state: &mut AppState, recent: &mut RecentFiles, path: &Path) -> OpenOutcome {
    match scene::load(path) {
        Ok(loaded) => {
            state.replace_scene(&loaded, Some(path.to_path_buf()));
            state.set_status(format!(
                "opened {} ({} bodies){}",
                path.display(),
                state.world.bodies().len(),
                resume_note(&state.world)
            ));
            recent.add(path);
            OpenOutcome::Opened
        }
        Err(e) => {
            let message = format!("not opened: {e}");
            state.set_error(message.clone());
            OpenOutcome::Failed(message)
        }
    }
}

/// What the window opens on when started from the command line.
#[derive(Clone, Debug)]
pub struct StartupScene {
    /// The scene to show.
    pub scene: scene::Scene,
    /// Its file (None: the built-in default scene).
    pub path: Option<PathBuf>,
    /// Why the named file was not opened (with file, line and column), when it was not:
    /// the window then shows the default scene and this message in the status bar.
    pub error: Option<String>,
}

/// The scene for `collision-lab [open] [SCENE]`: the named file when it loads, else the
/// built-in default scene and the load error. Someone who opens a bad file from a file
/// manager has no terminal: a window saying what is wrong tells them, an exit does not.
/// (`contacts`, `run` and `render` are for scripts and keep failing with the message.)
pub fn startup_scene(path: Option<&Path>) -> Result<StartupScene, Box<scene::SceneError>> {
    let error = match path {
        Some(p) => match scene::load(p) {
            Ok(loaded) => {
                return Ok(StartupScene {
                    scene: loaded,
                    path: Some(p.to_path_buf()),
                    error: None,
                })
            }
            Err(e) => Some(e.to_string()),
        },
        None => None,
    };
    // The built-in scene is checked by the tests; an error here is the build's, not the
    // user's, and is returned rather than hidden (boxed: a scene error is large).
    let scene = scene::parse(super::DEFAULT_SCENE_RON, super::DEFAULT_SCENE_NAME).map_err(Box::new)?;
    Ok(StartupScene {
        scene,
        path: None,
        error,
    })
}

/// What the status bar adds on opening a scene with a saved run state (`state` block):
/// that the run goes on from where it was saved, or why the block was ignored.
pub fn resume_note(world: &crate::dynamics::World) -> String {
    match world.resume() {
        Resume::Fresh => String::new(),
        Resume::Exact { steps } => format!(
            "; continuing its saved run from step {steps} (t = {:.2} s)",
            world.time()
        ),
        Resume::Stale { reason } => format!("; its saved run state was ignored ({reason})"),
    }
}

/// The scene as it would be saved now: the bodies and settings of the world, and what
/// the world does not hold (a lesson block, say) from the loaded file.
pub fn scene_to_save(state: &AppState) -> SceneDef {
    // In lesson mode the lesson holds the shapes (as edited) and its block.
    if let Some(lesson) = &state.lesson {
        return lesson.scene_to_save();
    }
    // A file that carried a run's state keeps carrying it: the state now, so the saved
    // file continues from here exactly (`dynamics::world::resume`).
    let mut def = if state.loaded.state.is_some() {
        state.world.to_scene_def_with_state()
    } else {
        state.world.to_scene_def()
    };
    // Outside lesson mode (a lesson scene after "Exit lesson"), the loaded file's lesson
    // block is kept, its body numbers following the bodies (the world lists them in
    // slot order, as `to_scene_def` writes them); if a body it studies was deleted it is
    // left out, as `run --save-final` does.
    if let Some(lesson) = &state.loaded.lesson {
        let saved_order: Vec<_> = state.world.bodies().iter().map(|(h, _)| h).collect();
        let new_index = |i: usize| {
            let handle = state.loaded_handles.get(i)?;
            saved_order.iter().position(|h| h == handle)
        };
        def.lesson = lesson.renumbered(new_index);
    }
    def
}

/// Saves the world to `path` atomically; on success it becomes the scene's path and
/// the reference for Reset and for "unsaved edits".
pub fn save_to(state: &mut AppState, recent: &mut RecentFiles, path: &Path) -> Result<(), String> {
    let def = scene_to_save(state);
    match scene::save(path, &def) {
        Ok(()) => {
            state.loaded_handles = state.world.bodies().iter().map(|(h, _)| h).collect();
            state.loaded = def;
            state.scene_path = Some(path.to_path_buf());
            state.dirty = false;
            if let Some(lesson) = state.lesson.as_mut() {
                lesson.edited = false;
            }
            state.set_status(format!("saved {}", path.display()));
            recent.add(path);
            Ok(())
        }
        Err(e) => {
            let message = format!("not saved: {e}");
            state.set_error(message.clone());
            Err(message)
        }
    }
}

/// Recently opened or saved scene files, most recent first.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RecentFiles {
    /// The paths, most recent first, no duplicates.
    pub paths: Vec<PathBuf>,
    /// Where the list is kept (None: not persisted, as in tests).
    pub store: Option<PathBuf>,
}

impl RecentFiles {
    /// The list kept in the user's configuration directory (empty if there is none or
    /// it does not parse: a lost recent list is not worth an error).
    pub fn load_user() -> RecentFiles {
        let store = config_dir().map(|d| d.join("collision-lab").join("recent.ron"));
        let paths = store
            .as_ref()
            .and_then(|p| std::fs::read_to_string(p).ok())
            .and_then(|text| ron::from_str::<Vec<PathBuf>>(&text).ok())
            .unwrap_or_default();
        RecentFiles { paths, store }
    }

    /// Puts `path` first (made absolute so the list works from any directory), drops
    /// its older entry and the overflow, and writes the list.
    pub fn add(&mut self, path: &Path) {
        let path = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
        self.paths.retain(|p| *p != path);
        self.paths.insert(0, path);
        self.paths.truncate(RECENT_MAX);
        self.persist();
    }

    /// Forgets a path that no longer opens.
    pub fn remove(&mut self, path: &Path) {
        self.paths.retain(|p| p != path);
        self.persist();
    }

    fn persist(&self) {
        let Some(store) = &self.store else { return };
        if let Some(dir) = store.parent() {
            let _ = std::fs::create_dir_all(dir);
        }
        if let Ok(text) = ron::ser::to_string_pretty(&self.paths, ron::ser::PrettyConfig::default()) {
            // Best effort: failing to remember recent files must not disturb the user.
            let _ = scene::write_atomically(store, text.as_bytes());
        }
    }
}

fn config_dir() -> Option<PathBuf> {
    std::env::var_os("XDG_CONFIG_HOME")
        .map(PathBuf::from)
        .filter(|p| p.is_absolute())
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".config")))
}

/// The shipped scenes, found next to the working directory or the executable
/// (`target/release/collision-lab` → `scenes/`), with `lessons/` after the others.
pub fn example_scenes() -> Vec<PathBuf> {
    let mut roots: Vec<PathBuf> = vec![PathBuf::from("scenes")];
    if let Ok(exe) = std::env::current_exe() {
        if let Some(repo) = exe.parent().and_then(Path::parent).and_then(Path::parent) {
            roots.push(repo.join("scenes"));
        }
    }
    for root in roots {
        if root.is_dir() {
            let mut found = ron_files(&root);
            found.extend(ron_files(&root.join("lessons")));
            return found;
        }
    }
    Vec::new()
}

fn ron_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "ron"))
                .collect()
        })
        .unwrap_or_default();
    files.sort();
    files
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::Vec2;

    fn temp_dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("cl-files-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn state() -> AppState {
        let scene = scene::parse(include_str!("../../scenes/minimal.ron"), "minimal.ron").unwrap();
        AppState::new(&scene, None, Vec2::new(800.0, 600.0))
    }

    #[test]
    fn a_bad_file_leaves_the_scene_untouched_and_says_where() {
        let dir = temp_dir("bad");
        let bad = dir.join("bad.ron");
        std::fs::write(
            &bad,
            "(\n  version: 1,\n  bodies: [ (shape: Circle(raduis: 1.0)) ],\n)\n",
        )
        .unwrap();
        let mut s = state();
        let before = s.world.state_hash();
        let mut recent = RecentFiles::default();
        let outcome = request_open(&mut s, &mut recent, &bad);
        let OpenOutcome::Failed(message) = outcome else {
            panic!("{outcome:?}")
        };
        assert!(message.contains("bad.ron:3:"), "{message}");
        assert!(message.contains("raduis"), "{message}");
        assert_eq!(s.world.state_hash(), before);
        assert!(s.status.as_ref().unwrap().is_error);
        assert!(recent.paths.is_empty());
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn a_bad_scene_on_the_command_line_opens_the_default_scene_with_the_error() {
        let dir = temp_dir("startup");
        let bad = dir.join("bad.ron");
        std::fs::write(
            &bad,
            "(\n  version: 1,\n  bodies: [ (shape: Circle(radius: -1.0)) ],\n)\n",
        )
        .unwrap();
        let opened = startup_scene(Some(&bad)).unwrap();
        assert_eq!(opened.path, None, "Save must not overwrite the bad file");
        let error = opened.error.expect("the error is kept for the status bar");
        assert!(error.contains("bad.ron:3:"), "{error}");
        let default = scene::parse(crate::app::DEFAULT_SCENE_RON, "d.ron").unwrap();
        assert_eq!(opened.scene.def().bodies.len(), default.def().bodies.len());

        let missing = startup_scene(Some(&dir.join("nowhere.ron"))).unwrap();
        assert!(missing.error.is_some_and(|e| e.contains("nowhere.ron")));

        let good = dir.join("good.ron");
        std::fs::write(&good, include_str!("../../scenes/minimal.ron")).unwrap();
        let opened = startup_scene(Some(&good)).unwrap();
        assert_eq!((opened.path.as_deref(), opened.error), (Some(good.as_path()), None));

        let none = startup_scene(None).unwrap();
        assert_eq!((none.path, none.error), (None, None));
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn unsaved_edits_are_not_replaced_without_asking() {
        let dir = temp_dir("ask");
        let other = dir.join("pool.ron");
        std::fs::write(&other, include_str!("../../scenes/pool.ron")).unwrap();
        let mut s = state();
        let h = s.world.bodies().handles()[0];
        s.edit("move", |w| w.body_mut(h).unwrap().set_pose(Vec2::new(5.0, 5.0), 0.0));
        let mut recent = RecentFiles::default();
        assert_eq!(
            request_open(&mut s, &mut recent, &other),
            OpenOutcome::NeedsConfirmation
        );
        assert!(s.dirty, "still the edited scene");
        assert_eq!(open_now(&mut s, &mut recent, &other), OpenOutcome::Opened);
        assert!(!s.dirty);
        assert_eq!(s.scene_path.as_deref(), Some(other.as_path()));
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn save_then_open_gives_the_same_world() {
        let dir = temp_dir("save");
        let path = dir.join("saved.ron");
        let mut s = state();
        s.advance(0.1);
        let mut recent = RecentFiles::default();
        save_to(&mut s, &mut recent, &path).unwrap();
        assert!(!s.dirty);
        let saved_def = s.world.to_scene_def();
        let mut t = state();
        assert_eq!(open_now(&mut t, &mut recent, &path), OpenOutcome::Opened);
        assert_eq!(t.world.to_scene_def().bodies, saved_def.bodies);
        assert_eq!(recent.paths.len(), 1, "the same file once");
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn saving_in_lesson_mode_keeps_the_lesson_block_and_the_edits() {
        let dir = temp_dir("lesson");
        let path = dir.join("gjk.ron");
        let lesson_path = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/lessons/06_gjk.ron");
        let scene = scene::load(&lesson_path).unwrap();
        let mut s = AppState::new(&scene, Some(lesson_path), Vec2::new(1400.0, 900.0));
        let mode = s.lesson.as_mut().unwrap();
        mode.lesson
            .set_pose(crate::narrow::trace::Owner::B, Vec2::new(2.5, -0.5), 0.25)
            .unwrap();
        mode.edited = true;
        s.dirty = true;
        let mut recent = RecentFiles::default();
        save_to(&mut s, &mut recent, &path).unwrap();
        assert!(!s.dirty && !s.lesson.as_ref().unwrap().edited);
        let back = scene::load(&path).unwrap();
        assert_eq!(back.def().lesson, scene.def().lesson, "the lesson block is kept");
        assert_eq!(back.def().bodies[1].position, Vec2::new(2.5, -0.5).into());
        let mut t = state();
        assert_eq!(open_now(&mut t, &mut recent, &path), OpenOutcome::Opened);
        assert!(t.lesson.is_some(), "the saved lesson opens as a lesson");
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn a_failed_save_keeps_the_edits_marked_unsaved() {
        let mut s = state();
        s.dirty = true;
        let mut recent = RecentFiles::default();
        let e = save_to(&mut s, &mut recent, Path::new("/nonexistent-dir/x/y.ron")).unwrap_err();
        assert!(e.contains("not saved"), "{e}");
        assert!(s.dirty);
    }

    #[test]
    fn the_recent_list_is_most_recent_first_capped_and_persisted() {
        let dir = temp_dir("recent");
        let store = dir.join("recent.ron");
        let mut recent = RecentFiles {
            paths: Vec::new(),
            store: Some(store.clone()),
        };
        for i in 0..RECENT_MAX + 3 {
            recent.add(&dir.join(format!("{i}.ron")));
        }
        recent.add(&dir.join("4.ron"));
        assert_eq!(recent.paths.len(), RECENT_MAX);
        assert_eq!(recent.paths[0], dir.join("4.ron"));
        let text = std::fs::read_to_string(&store).unwrap();
        let back: Vec<PathBuf> = ron::from_str(&text).unwrap();
        assert_eq!(back, recent.paths);
        std::fs::remove_dir_all(dir).unwrap();
    }

    /// Regression: saving a lesson scene from the sandbox (after "Exit lesson") dropped
    /// its lesson block. It is kept, with its body numbers following the bodies: a body
    /// added first and then deleted does not shift them.
    #[test]
    fn regression_an_app_save_dropped_the_lesson_block() {
        let text = include_str!("../../scenes/lessons/01_projections.ron");
        let scene = scene::parse(text, "01_projections.ron").unwrap();
        let mut s = AppState::new(&scene, None, Vec2::new(800.0, 600.0));
        s.lesson = None; // "Exit lesson": the sandbox on the lesson's bodies
        let extra = s.world.insert(scene.def().bodies[0].to_desc().unwrap());
        s.world.remove(extra);
        let dir = temp_dir("lesson-after-exit");
        let path = dir.join("saved.ron");
        let mut recent = RecentFiles::default();
        save_to(&mut s, &mut recent, &path).unwrap();
        let saved = scene::load(&path).unwrap();
        let lesson = saved.def().lesson.as_ref().expect("the lesson block is kept");
        assert_eq!(lesson, scene.def().lesson.as_ref().unwrap());
        assert_eq!(saved.def().bodies.len(), 2);
        // Saved again, from the saved state: still there.
        save_to(&mut s, &mut recent, &path).unwrap();
        assert!(scene::load(&path).unwrap().def().lesson.is_some());
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_saved_run_opens_where_it_stopped_and_saves_its_state_again() {
        let dir = temp_dir("resume");
        let path = dir.join("run.ron");
        let scene = scene::parse(include_str!("../../scenes/default.ron"), "default.ron").unwrap();
        let mut world = crate::dynamics::World::from_scene(&scene);
        for _ in 0..90 {
            world.step(1.0 / 60.0);
        }
        scene::save(&path, &world.to_scene_def_with_state()).unwrap();
        let mut s = state();
        let mut recent = RecentFiles::default();
        assert_eq!(open_now(&mut s, &mut recent, &path), OpenOutcome::Opened);
        assert_eq!(s.world.state_hash(), world.state_hash(), "the run as it was");
        let status = s.status.as_ref().unwrap().text.clone();
        assert!(status.contains("continuing its saved run from step 90"), "{status}");
        // Saved again from the sandbox, the file still continues exactly.
        s.world.step(1.0 / 60.0);
        world.step(1.0 / 60.0);
        save_to(&mut s, &mut recent, &path).unwrap();
        let reopened = crate::dynamics::World::from_scene(&scene::load(&path).unwrap());
        assert_eq!(reopened.resume(), &Resume::Exact { steps: 91 });
        assert_eq!(reopened.state_hash(), world.state_hash());
        // A file without the block is saved without one.
        let plain = dir.join("plain.ron");
        let mut s = state();
        save_to(&mut s, &mut recent, &plain).unwrap();
        assert!(scene::load(&plain).unwrap().def().state.is_none());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
