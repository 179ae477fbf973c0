//! Which OpenGL the window got, and how many samples per pixel to ask for.
//!
//! Multisampling (4× MSAA) smooths the bodies' edges for free on a GPU, but a software
//! renderer (Mesa's llvmpipe under Xvfb or in a VM without a GPU) rasterises every
//! sample on the processor: on a 2-core machine the 5050-box pyramid's frames took
//! 130 ms with 4× MSAA against 41 ms without, all of it in presenting. The sample count
//! is fixed when the window opens, before a GL context exists to ask, so the window
//! guesses from what the machine has: on Linux, no render node under `/dev/dri` and no
//! NVIDIA device means Mesa can only rasterise in software. `COLLISION_LAB_MSAA`
//! overrides the guess either way. Once the context exists, the renderer's name tells
//! whether the guess was wrong (a software renderer with multisampling on), and the
//! status bar says how to turn it off.

/// The samples per pixel to open the window with: `COLLISION_LAB_MSAA` when it is set
/// to a positive number, else 4 when the machine likely has a GPU and 1 when not.
pub fn window_sample_count(env_msaa: Option<&str>, gpu_likely: bool) -> i32 {
    match env_msaa.and_then(|v| v.trim().parse::<i32>().ok()) {
        Some(n) if n >= 1 => n,
        _ if gpu_likely => 4,
        _ => 1,
    }
}

/// Whether the machine likely renders OpenGL on a GPU. On Linux: a DRM render node
/// (`/dev/dri/renderD*`, what Mesa's hardware drivers open) or an NVIDIA device node
/// (the proprietary driver's). Elsewhere there is no cheap check and a GPU is assumed.
pub fn gpu_likely() -> bool {
    if !cfg!(target_os = "linux") {
        return true;
    }
    let has_entry = |dir: &str, prefix: &str| {
        std::fs::read_dir(dir).is_ok_and(|entries| {
            entries
                .flatten()
                .any(|e| e.file_name().to_string_lossy().starts_with(prefix))
        })
    };
    has_entry("/dev/dri", "renderD") || has_entry("/dev", "nvidia")
}

/// Whether an OpenGL renderer name (`GL_RENDERER`) is a software rasteriser: Mesa's
/// llvmpipe, softpipe and swrast, Google's SwiftShader, Windows' GDI and basic
/// renderers.
pub fn is_software_renderer(renderer: &str) -> bool {
    let name = renderer.to_ascii_lowercase();
    [
        "llvmpipe",
        "softpipe",
        "swrast",
        "software rasterizer",
        "swiftshader",
        "gdi generic",
        "microsoft basic render",
    ]
    .iter()
    .any(|s| name.contains(s))
}

/// The status-bar advice for a renderer and sample count, if any: only a software
/// renderer with multisampling on gets one.
pub fn advice(renderer: &str, samples: i32) -> Option<String> {
    (samples > 1 && is_software_renderer(renderer)).then(|| {
        format!(
            "software OpenGL ({renderer}) with {samples}× multisampling: frames are slow; \
             start with COLLISION_LAB_MSAA=1 to turn it off"
        )
    })
}

/// The current context's `GL_RENDERER` string. Call from the window's loop (the GL
/// thread) after the first frame has been presented: some platforms answer only then.
pub fn renderer_name() -> Option<String> {
    const GL_RENDERER: u32 = 0x1F01;
    // SAFETY: called on the thread that owns the current GL context (the window loop);
    // glGetString returns a NUL-terminated static string owned by the driver, or null.
    unsafe {
        let ptr = macroquad::miniquad::gl::glGetString(GL_RENDERER);
        if ptr.is_null() {
            return None;
        }
        let name = std::ffi::CStr::from_ptr(ptr as *const std::ffi::c_char);
        Some(name.to_string_lossy().into_owned())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_variable_wins_over_the_guess() {
        assert_eq!(window_sample_count(Some("1"), true), 1);
        assert_eq!(window_sample_count(Some("8"), false), 8);
        assert_eq!(window_sample_count(Some(" 2 "), false), 2);
    }

    #[test]
    fn without_a_usable_variable_the_guess_decides() {
        for bad in [None, Some(""), Some("zero"), Some("0"), Some("-4")] {
            assert_eq!(window_sample_count(bad, true), 4, "{bad:?}");
            assert_eq!(window_sample_count(bad, false), 1, "{bad:?}");
        }
    }

    #[test]
    fn software_renderers_are_recognised_and_gpus_are_not() {
        for soft in [
            "llvmpipe (LLVM 15.0.6, 256 bits)",
            "softpipe",
            "Mesa X11 swrast",
            "Google SwiftShader",
            "GDI Generic",
            "Microsoft Basic Render Driver",
        ] {
            assert!(is_software_renderer(soft), "{soft}");
        }
        for gpu in [
            "NVIDIA GeForce RTX 3060/PCIe/SSE2",
            "AMD Radeon RX 6700 XT (radeonsi, navi22, LLVM 15.0.6, DRM 3.49)",
            "Mesa Intel(R) UHD Graphics 620 (KBL GT2)",
            "Apple M1",
        ] {
            assert!(!is_software_renderer(gpu), "{gpu}");
        }
    }

    #[test]
    fn advice_only_for_software_with_multisampling() {
        assert!(advice("llvmpipe (LLVM 15.0.6, 256 bits)", 4).is_some_and(|a| a.contains("COLLISION_LAB_MSAA=1")));
        assert_eq!(advice("llvmpipe (LLVM 15.0.6, 256 bits)", 1), None);
        assert_eq!(advice("NVIDIA GeForce RTX 3060/PCIe/SSE2", 4), None);
    }
}
