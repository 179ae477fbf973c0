//! Writing scenes: pretty RON, replaced atomically so a crash never loses the old file.

use super::build::build_shapes;
use super::def::SceneDef;
use super::error::{BodyRef, SceneError, SceneProblem};
use super::load::version_problem;
use super::ranges::check_ranges;
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// The first line of every saved file.
const HEADER: &str = "// Collision Lab scene. Format: see the README, section \"Scene files\".\n";

/// `def` as the text [`save`] writes: a header comment, then pretty-printed RON with a
/// body's fields one per line and short lists (points) on one line. Floats are written
/// in their shortest form that reads back to the same bits.
pub fn to_ron_string(def: &SceneDef) -> Result<String, SceneError> {
    let config = ron::ser::PrettyConfig::new()
        .indentor("    ".to_string())
        // Depth 3 is a body's fields, one per line; anything deeper (a shape, a polygon's
        // point list) stays on one line, so a 24-vertex gear is one line instead of 26.
        .depth_limit(3);
    let body = ron::ser::to_string_pretty(def, config).map_err(|e| SceneError {
        source_name: "(scene)".to_string(),
        position: None,
        body: None,
        problem: SceneProblem::Syntax {
            message: format!("cannot write the scene as RON: {e}"),
        },
    })?;
    Ok(format!("{HEADER}{body}\n"))
}

/// Writes `def` to `path`, atomically: the old file, if any, stays whole until the new
/// one is completely on disk.
///
/// A scene that [`super::parse`] would refuse (a NaN, a self-intersecting polygon, a
/// body beyond the format's coordinates) is not written: the error names the body,
/// without a line (there is no text yet).
pub fn save(path: impl AsRef<Path>, def: &SceneDef) -> Result<(), SceneError> {
    let path = path.as_ref();
    let fail = |body: Option<usize>, problem| SceneError {
        source_name: path.display().to_string(),
        position: None,
        body: body.map(|index| BodyRef {
            index,
            name: def.bodies.get(index).and_then(|b| b.name.clone()),
        }),
        problem,
    };
    if let Some(problem) = version_problem(def.version) {
        return Err(fail(None, problem));
    }
    build_shapes(def)
        .and_then(|_| check_ranges(def))
        .map_err(|e| fail(e.body, e.problem))?;
    let text = to_ron_string(def).map_err(|e| fail(None, e.problem))?;
    write_atomically(path, text.as_bytes()).map_err(|e| {
        fail(
            None,
            SceneProblem::Io {
                message: format!("cannot save: {e}"),
            },
        )
    })
}

/// Replaces the file at `path` with `bytes` so that readers (and a crash) see either the
/// old contents or the new, never a mix or an empty file.
///
/// How: write a temporary file in the same directory (a rename is only atomic within
/// one file system), flush and fsync it, rename it over `path`, then fsync the directory
/// so the rename itself is durable. On any failure the temporary file is removed and
/// `path` is untouched.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let file_name = path
        .file_name()
        .ok_or_else(|| std::io::Error::new(std::io::ErrorKind::InvalidInput, "the path has no file name"))?;
    let dir = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let (temp_path, mut temp) = create_temp_file(&dir, &file_name.to_string_lossy())?;
    let written = temp
        .write_all(bytes)
        .and_then(|()| temp.flush())
        .and_then(|()| temp.sync_all())
        .and_then(|()| {
            drop(temp);
            std::fs::rename(&temp_path, path)
        });
    if let Err(e) = written {
        // Best effort: the error that matters is the write's, not the cleanup's.
        let _ = std::fs::remove_file(&temp_path);
        return Err(e);
    }
    sync_dir(&dir);
    Ok(())
}

/// Creates a new, unique hidden file `.name.tmp-<pid>-<n>` in `dir`. `create_new`
/// refuses to reuse a name, so two saves (or a stale file from a crash) never collide.
fn create_temp_file(dir: &Path, name: &str) -> std::io::Result<(PathBuf, File)> {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let mut last_error = None;
    for _ in 0..16 {
        let n = COUNTER.fetch_add(1, Ordering::Relaxed);
        let temp_path = dir.join(format!(".{name}.tmp-{}-{n}", std::process::id()));
        match OpenOptions::new().write(true).create_new(true).open(&temp_path) {
            Ok(file) => return Ok((temp_path, file)),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => last_error = Some(e),
            Err(e) => return Err(e),
        }
    }
    Err(last_error.unwrap_or_else(|| std::io::Error::other("no free temporary file name")))
}

/// Makes a rename in `dir` durable. Only Unix can open a directory for this; elsewhere
/// the rename is still atomic, just not yet guaranteed on disk after a power cut.
fn sync_dir(dir: &Path) {
    #[cfg(unix)]
    if let Ok(d) = File::open(dir) {
        // A failure here cannot undo the save, which has already replaced the file.
        let _ = d.sync_all();
    }
    #[cfg(not(unix))]
    let _ = dir;
}
