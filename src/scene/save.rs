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
///
/// What the replaced file was stays what it was:
/// - a symbolic link is followed and its target replaced, so the link stays a link;
/// - the new file gets the old one's permissions (and, where allowed, its owner), so a
///   0600 file stays 0600;
/// - a file the user cannot write (read-only, or not theirs to write) is refused, even
///   when the directory would allow the rename: a rename only asks the directory;
/// - a directory, a device or a pipe is refused with a message saying so; so is a
///   missing folder.
///
/// The temporary name is short and fixed (`.collision-lab-<pid>-<n>.tmp`), so a legal
/// 250-byte file name saves; temporaries of ours left by a killed process are removed
/// on the next save in that directory.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let given = path;
    let path = &follow_links(given)?;
    let dir = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let old = check_target(path, given, &dir)?;
    remove_stale_temporaries(&dir);
    let (temp_path, mut temp) = create_temp_file(&dir)?;
    let written = temp
        .write_all(bytes)
        .and_then(|()| temp.flush())
        .and_then(|()| match &old {
            Some(metadata) => keep_permissions(&temp, metadata),
            None => Ok(()),
        })
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

/// How many links [`follow_links`] follows before it gives up (Linux's own limit).
const MAX_LINKS: usize = 40;

/// `path` with every symbolic link in its last component followed: the file a save
/// must replace. A link to a missing file gives the missing file (it will be created).
fn follow_links(path: &Path) -> std::io::Result<PathBuf> {
    // A trailing slash names a folder; `Path` would quietly drop it (`adir/` has the file
    // name `adir`) and the rename would fail with "Not a directory".
    if path.as_os_str().to_string_lossy().ends_with(std::path::is_separator) {
        let what = if path.is_dir() {
            "this is a directory"
        } else {
            "the name ends with a slash, which names a folder"
        };
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            format!("{what}; give a file name, such as {}", path.join("final.ron").display()),
        ));
    }
    if path.file_name().is_none() {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            "the path has no file name",
        ));
    }
    let mut path = path.to_path_buf();
    for _ in 0..MAX_LINKS {
        match std::fs::symlink_metadata(&path) {
            Ok(metadata) if metadata.file_type().is_symlink() => {
                let target = std::fs::read_link(&path)?;
                // A relative target is relative to the link's own folder.
                path = match path.parent() {
                    Some(dir) if target.is_relative() => dir.join(target),
                    _ => target,
                };
            }
            _ => return Ok(path),
        }
    }
    Err(std::io::Error::other(format!(
        "more than {MAX_LINKS} symbolic links in a row (a loop?)"
    )))
}

/// Checks that `path` (links followed from `given`) can be replaced and that its folder
/// `dir` exists; returns the old file's metadata, `None` when there is no old file.
/// Messages follow the caller's file name: they say "this", or name the link's target.
fn check_target(path: &Path, given: &Path, dir: &Path) -> std::io::Result<Option<std::fs::Metadata>> {
    use std::io::{Error, ErrorKind};
    let metadata = match std::fs::metadata(path) {
        Ok(metadata) => metadata,
        Err(e) if e.kind() == ErrorKind::NotFound => {
            return match std::fs::metadata(dir) {
                Ok(d) if d.is_dir() => Ok(None),
                Ok(_) => Err(Error::new(
                    ErrorKind::NotFound,
                    format!("{} is not a folder", dir.display()),
                )),
                Err(e) if e.kind() == ErrorKind::NotFound => Err(Error::new(
                    ErrorKind::NotFound,
                    format!("the folder {} does not exist", dir.display()),
                )),
                Err(e) => Err(e),
            };
        }
        Err(e) => return Err(e),
    };
    let subject = if path == given {
        "this".to_string()
    } else {
        format!("the link's target {}", path.display())
    };
    let refuse = |why: &str| Err(Error::new(ErrorKind::PermissionDenied, format!("{subject} {why}")));
    if metadata.is_dir() {
        return refuse("is a directory; give a file name inside it");
    }
    if !metadata.is_file() {
        return refuse("is not a regular file (a device, a pipe or a socket); it was left as it was");
    }
    if metadata.permissions().readonly() {
        return refuse("is read-only; it was left as it was");
    }
    // Opening for writing (without truncating) asks the system whether this user may
    // write the file, which the rename never does. It changes nothing in the file.
    match OpenOptions::new().write(true).open(path) {
        Ok(_) => Ok(Some(metadata)),
        Err(e) if e.kind() == ErrorKind::PermissionDenied => {
            refuse("cannot be written by you (permission denied); it was left as it was")
        }
        Err(e) => Err(e),
    }
}

/// Gives the temporary file the replaced file's permissions and, when the system
/// allows (root, or a group the user is in), its owner and group.
fn keep_permissions(temp: &File, old: &std::fs::Metadata) -> std::io::Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        // Ownership can only be kept by root; for anyone else this fails harmlessly and
        // the new file is theirs, as any file they write.
        let _ = std::os::unix::fs::fchown(temp, Some(old.uid()), Some(old.gid()));
    }
    temp.set_permissions(old.permissions())
}

/// The start and end of our temporary files' names.
const TEMP_PREFIX: &str = ".collision-lab-";
const TEMP_SUFFIX: &str = ".tmp";

/// Creates a new, unique hidden file `.collision-lab-<pid>-<n>.tmp` in `dir`.
/// `create_new` refuses to reuse a name, so two saves (or a stale file from a crash)
/// never collide. The name does not contain the target's: a 250-byte name plus a suffix
/// would pass the 255-byte limit of most file systems.
fn create_temp_file(dir: &Path) -> std::io::Result<(PathBuf, File)> {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let mut last_error = None;
    for _ in 0..16 {
        let n = COUNTER.fetch_add(1, Ordering::Relaxed);
        let temp_path = dir.join(format!("{TEMP_PREFIX}{}-{n}{TEMP_SUFFIX}", std::process::id()));
        match OpenOptions::new().write(true).create_new(true).open(&temp_path) {
            Ok(file) => return Ok((temp_path, file)),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => last_error = Some(e),
            Err(e) => return Err(e),
        }
    }
    Err(last_error.unwrap_or_else(|| std::io::Error::other("no free temporary file name")))
}

/// A temporary file with no live owner is this old before it is removed on systems
/// where a process cannot be looked up (no `/proc`).
const STALE_AGE: std::time::Duration = std::time::Duration::from_secs(3600);

/// Removes our temporary files in `dir` whose process is gone (killed during a save).
/// On Linux a process is looked up in `/proc`; elsewhere a temporary older than
/// [`STALE_AGE`] counts as stale (a save takes milliseconds). Files of a live process,
/// ours included, and anything not named exactly like ours, are left alone. Best
/// effort: a failure here never fails the save.
fn remove_stale_temporaries(dir: &Path) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let proc_dir = Path::new("/proc");
    let can_look_up = proc_dir.join("self").exists();
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(pid) = temp_owner(&name.to_string_lossy()) else {
            continue;
        };
        let Ok(metadata) = entry.metadata() else {
            continue;
        };
        if !metadata.is_file() || pid == std::process::id() {
            continue;
        }
        let stale = if can_look_up {
            !proc_dir.join(pid.to_string()).exists()
        } else {
            metadata
                .modified()
                .ok()
                .and_then(|t| t.elapsed().ok())
                .is_some_and(|age| age > STALE_AGE)
        };
        if stale {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

/// The process id in one of our temporary names, `None` for any other name. Earlier
/// versions named them `.<file name>.tmp-<pid>-<n>`; those are recognised too, so the
/// ones they left behind go as well.
fn temp_owner(name: &str) -> Option<u32> {
    let pid_and_n = match name.strip_prefix(TEMP_PREFIX).and_then(|s| s.strip_suffix(TEMP_SUFFIX)) {
        Some(middle) => middle,
        None if name.starts_with('.') => &name[name.rfind(".tmp-")? + ".tmp-".len()..],
        None => return None,
    };
    let (pid, n) = pid_and_n.split_once('-')?;
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    if !digits(n) || !digits(pid) {
        return None;
    }
    pid.parse().ok()
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_our_temporary_names_have_an_owner() {
        assert_eq!(temp_owner(".collision-lab-123-0.tmp"), Some(123));
        assert_eq!(temp_owner(".scene.ron.tmp-77-4"), Some(77), "the earlier form");
        for other in [
            ".collision-lab-123.tmp",
            ".collision-lab--0.tmp",
            ".collision-lab-12a-0.tmp",
            "collision-lab-123-0.tmp",
            ".collision-lab-123-0.tmp~",
            "scene.ron.tmp-123-0",
            ".scene.ron.tmp-123",
            ".scene.ron.tmp-1-2-3",
        ] {
            assert_eq!(temp_owner(other), None, "{other}");
        }
    }
}
