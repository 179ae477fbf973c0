//! Screenshots: the window's pixels to a PNG file, written atomically.

use crate::scene::write_atomically;
use std::path::{Path, PathBuf};

/// Encodes `rgba` (`width` × `height`, rows bottom-up as OpenGL reads them) as a PNG
/// and writes it to `path` atomically (a half-written file never replaces a picture).
pub fn write_png_bottom_up(path: &Path, width: u32, height: u32, rgba: &[u8]) -> Result<(), String> {
    let row = width as usize * 4;
    if rgba.len() != row * height as usize {
        return Err(format!(
            "screen data has {} bytes, expected {}×{}×4",
            rgba.len(),
            width,
            height
        ));
    }
    let mut top_down = Vec::with_capacity(rgba.len());
    for y in (0..height as usize).rev() {
        top_down.extend_from_slice(&rgba[y * row..(y + 1) * row]);
    }
    // The window's alpha channel is meaningless (egui and the clear colour leave it
    // anywhere from 0 to 1); a screenshot is opaque.
    for px in top_down.chunks_exact_mut(4) {
        px[3] = 255;
    }
    let mut png = Vec::new();
    image::ImageEncoder::write_image(
        image::codecs::png::PngEncoder::new(&mut png),
        &top_down,
        width,
        height,
        image::ColorType::Rgba8,
    )
    .map_err(|e| format!("cannot encode the PNG: {e}"))?;
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    }
    write_atomically(path, &png).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// Where P saves screenshots: a `collision-lab` folder in the user's pictures folder
/// (XDG `PICTURES`, usually `~/Pictures`), else in the home folder, else in the working
/// directory. Not the working directory first: started from a terminal, that is often a
/// source tree, which screenshots would litter.
pub fn screenshot_dir() -> PathBuf {
    let user = directories::UserDirs::new();
    let base = user
        .as_ref()
        .and_then(|u| u.picture_dir().map(Path::to_path_buf))
        .or_else(|| user.as_ref().map(|u| u.home_dir().to_path_buf()))
        .or_else(|| std::env::current_dir().ok())
        .unwrap_or_else(|| PathBuf::from("."));
    base.join("collision-lab")
}

/// A new screenshot path in `dir`: `collision-lab-<unix seconds>[-n].png`.
pub fn next_screenshot_path(dir: &Path) -> PathBuf {
    next_path(dir, "png")
}

/// A new file name in `dir` with `extension` (`collision-lab-<seconds>[-n].<ext>`),
/// never an existing file's.
pub fn next_path(dir: &Path, extension: &str) -> PathBuf {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let mut path = dir.join(format!("collision-lab-{secs}.{extension}"));
    let mut n = 1;
    while path.exists() {
        path = dir.join(format!("collision-lab-{secs}-{n}.{extension}"));
        n += 1;
    }
    path
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn screenshots_go_to_a_collision_lab_folder_in_the_users_folders() {
        let dir = screenshot_dir();
        assert_eq!(dir.file_name().and_then(|n| n.to_str()), Some("collision-lab"));
        if std::env::var_os("HOME").is_some() {
            assert!(dir.is_absolute(), "{}", dir.display());
        }
    }

    #[test]
    fn rows_are_flipped_and_alpha_is_opaque() {
        let dir = std::env::temp_dir().join(format!("cl-shot-{}", std::process::id()));
        let path = dir.join("a.png");
        // 1×2 image: bottom row red, top row blue (as OpenGL hands it over).
        let rgba = [255, 0, 0, 0, 0, 0, 255, 10];
        write_png_bottom_up(&path, 1, 2, &rgba).unwrap();
        let img = image::open(&path).unwrap().to_rgba8();
        assert_eq!(img.get_pixel(0, 0).0, [0, 0, 255, 255], "top row first");
        assert_eq!(img.get_pixel(0, 1).0, [255, 0, 0, 255]);
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn a_wrong_size_is_an_error() {
        let e = write_png_bottom_up(Path::new("/nonexistent/x.png"), 2, 2, &[0; 4]).unwrap_err();
        assert!(e.contains("expected 2×2×4"), "{e}");
    }
}
