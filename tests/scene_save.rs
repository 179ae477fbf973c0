//! Saving replaces a file the way a careful editor does: atomically, keeping what the
//! file was (its permissions, the link that led to it), refusing what the user may not
//! write, and cleaning up after itself. Regression tests are named after the fault.

use collision_lab::scene::{self, SceneDef};
use std::path::{Path, PathBuf};

mod common;
use common::TempDir;

const SCENE: &str = "(version: 1, bodies: [(shape: Circle(radius: 0.5), position: (0.3, 0.7))])";

fn def() -> SceneDef {
    scene::parse(SCENE, "s.ron").expect("loads").into_def()
}

#[cfg(unix)]
fn mode(path: &Path) -> u32 {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).expect("metadata").permissions().mode() & 0o7777
}

#[cfg(unix)]
fn set_mode(path: &Path, mode: u32) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).expect("chmod");
}

/// A 0600 file became 0644 (the temporary file's default mode).
#[cfg(unix)]
#[test]
fn regression_a_0600_file_became_0644() {
    let dir = TempDir::new("mode");
    let path = dir.path().join("private.ron");
    std::fs::write(&path, "old").expect("write");
    set_mode(&path, 0o600);
    scene::save(&path, &def()).expect("saves");
    assert_eq!(mode(&path), 0o600);
    set_mode(&path, 0o640);
    scene::save(&path, &def()).expect("saves");
    assert_eq!(mode(&path), 0o640);
    assert_eq!(scene::load(&path).expect("reloads").def(), &def());
}

/// Saving through a symbolic link replaced the link with a regular file.
#[cfg(unix)]
#[test]
fn regression_saving_through_a_symlink_replaced_the_link() {
    let dir = TempDir::new("link");
    std::fs::create_dir(dir.path().join("real")).expect("mkdir");
    let target = dir.path().join("real/scene.ron");
    std::fs::write(&target, "old").expect("write");
    set_mode(&target, 0o600);
    // A relative link, and a link to that link.
    let link = dir.path().join("link.ron");
    std::os::unix::fs::symlink("real/scene.ron", &link).expect("symlink");
    let link2 = dir.path().join("link2.ron");
    std::os::unix::fs::symlink(&link, &link2).expect("symlink");
    scene::save(&link2, &def()).expect("saves");
    assert!(std::fs::symlink_metadata(&link).expect("link").file_type().is_symlink());
    assert!(std::fs::symlink_metadata(&link2)
        .expect("link")
        .file_type()
        .is_symlink());
    assert_eq!(scene::load(&target).expect("target written").def(), &def());
    assert_eq!(mode(&target), 0o600);
    assert_eq!(dir.entries(), ["link.ron", "link2.ron", "real"]);

    // A read-only target is refused, and the message names it.
    set_mode(&target, 0o400);
    let e = scene::save(&link, &def()).expect_err("read-only target");
    assert!(e.to_string().contains("cannot save: the link's target "), "{e}");
    assert!(
        e.to_string()
            .ends_with("real/scene.ron is read-only; it was left as it was"),
        "{e}"
    );
    set_mode(&target, 0o600);

    // A dangling link creates its target.
    let dangling = dir.path().join("new.ron");
    std::os::unix::fs::symlink("real/new.ron", &dangling).expect("symlink");
    scene::save(&dangling, &def()).expect("saves");
    assert!(dir.path().join("real/new.ron").is_file());

    // A loop is an error, not a hang.
    let a = dir.path().join("a.ron");
    let b = dir.path().join("b.ron");
    std::os::unix::fs::symlink(&b, &a).expect("symlink");
    std::os::unix::fs::symlink(&a, &b).expect("symlink");
    let e = scene::save(&a, &def()).expect_err("a loop");
    assert!(e.to_string().contains("symbolic links"), "{e}");
}

/// A save into a world-writable directory replaced a read-only file owned by someone
/// else: the rename only asks the directory.
#[cfg(unix)]
#[test]
fn regression_a_read_only_file_in_a_world_writable_dir_was_replaced() {
    let dir = TempDir::new("read-only-file");
    set_mode(dir.path(), 0o777);
    let path = dir.path().join("theirs.ron");
    std::fs::write(&path, "precious").expect("write");
    set_mode(&path, 0o444);
    let e = scene::save(&path, &def()).expect_err("read-only");
    assert!(
        e.to_string()
            .ends_with("theirs.ron: cannot save: this is read-only; it was left as it was"),
        "{e}"
    );
    assert_eq!(std::fs::read_to_string(&path).expect("kept"), "precious");
    assert_eq!(dir.entries(), ["theirs.ron"]);
}

/// A legal 250-byte file name failed with "File name too long": the temporary name was
/// the file's name plus a suffix.
#[test]
fn regression_a_250_byte_file_name_did_not_save() {
    let dir = TempDir::new("long");
    let name = format!("{}.ron", "n".repeat(246));
    assert_eq!(name.len(), 250);
    let path = dir.path().join(&name);
    scene::save(&path, &def()).expect("saves");
    scene::save(&path, &def()).expect("saves over itself");
    assert_eq!(dir.entries(), [name]);
}

/// Hidden temporary files were left by saves killed part-way; the next save removes
/// those of processes that are gone (and leaves anything else alone).
#[cfg(target_os = "linux")]
#[test]
fn regression_killed_saves_left_temporary_files() {
    let dir = TempDir::new("stale");
    // A process id that is not running: a child that has exited and been reaped.
    let mut child = std::process::Command::new("true").spawn().expect("spawn true");
    let gone = child.id();
    child.wait().expect("wait");
    let stale = [
        format!(".collision-lab-{gone}-0.tmp"),
        format!(".collision-lab-{gone}-7.tmp"),
        format!(".scene.ron.tmp-{gone}-3"),
    ];
    let kept = [
        format!(".collision-lab-{}-9.tmp", std::process::id()),
        ".collision-lab-notes.tmp".to_string(),
        "mine.tmp".to_string(),
    ];
    for name in stale.iter().chain(&kept) {
        std::fs::write(dir.path().join(name), "partial").expect("write");
    }
    scene::save(dir.path().join("scene.ron"), &def()).expect("saves");
    let mut expected: Vec<String> = kept.to_vec();
    expected.push("scene.ron".to_string());
    expected.sort();
    assert_eq!(dir.entries(), expected);
}

/// `--save-final adir/` said "Not a directory (os error 20)".
#[test]
fn regression_a_directory_or_missing_folder_gave_an_os_error() {
    let dir = TempDir::new("dirs");
    let adir = dir.path().join("adir");
    std::fs::create_dir(&adir).expect("mkdir");
    let with_slash = PathBuf::from(format!("{}/", adir.display()));
    let e = scene::save(&with_slash, &def()).expect_err("a directory");
    assert!(
        e.to_string()
            .contains("adir/: cannot save: this is a directory; give a file name, such as"),
        "{e}"
    );
    let e = scene::save(&adir, &def()).expect_err("a directory");
    assert!(e.to_string().contains("adir: cannot save: this is a directory"), "{e}");
    let e = scene::save(dir.path().join("nofolder/"), &def()).expect_err("a folder name");
    assert!(
        e.to_string()
            .contains("nofolder/: cannot save: the name ends with a slash"),
        "{e}"
    );
    let e = scene::save(dir.path().join("missing/s.ron"), &def()).expect_err("no folder");
    assert!(e.to_string().contains("the folder "), "{e}");
    assert!(e.to_string().contains("missing does not exist"), "{e}");
    assert_eq!(dir.entries(), ["adir"]);
    assert!(std::fs::read_dir(&adir).expect("adir").next().is_none());
}

#[cfg(unix)]
#[test]
fn devices_are_not_replaced() {
    use std::os::unix::fs::FileTypeExt;
    let e = scene::save("/dev/null", &def()).expect_err("a device");
    assert!(e.to_string().contains("not a regular file"), "{e}");
    assert!(std::fs::symlink_metadata("/dev/null")
        .expect("still there")
        .file_type()
        .is_char_device());
}
