//! The sandbox window under a virtual display (Xvfb): every shipped scene renders and
//! shows its bodies, and a scripted mouse drag (xdotool) moves a body.
//!
//! Needs `xvfb-run`, `Xvfb`, `xdotool` and Mesa's software OpenGL (`.ci/run` installs
//! them). Without them these tests say so and pass on a developer's machine, but fail
//! under CI (`CI` set), so a missing install step cannot hide.
#![cfg(feature = "sandbox")]

use image::RgbaImage;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_collision-lab");

/// True when the display tools are there; otherwise skips (or fails under CI).
fn display_tools_available(needs: &[&str]) -> bool {
    let missing: Vec<&str> = needs
        .iter()
        .copied()
        .filter(|tool| {
            Command::new("sh")
                .args(["-c", &format!("command -v {tool}")])
                .stdout(Stdio::null())
                .status()
                .map_or(true, |s| !s.success())
        })
        .collect();
    if missing.is_empty() {
        return true;
    }
    if std::env::var_os("CI").is_some() {
        panic!("missing {missing:?}: .ci/run should have installed them");
    }
    eprintln!("SKIPPED: missing {missing:?} (install xvfb, xdotool, libgl1-mesa-dri, imagemagick)");
    false
}

fn out_dir(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The window's background colour (draw::colors::BACKGROUND) in 8 bits.
const BACKGROUND: [u8; 3] = [28, 31, 36];

/// Pixel statistics of a picture: the share of pixels that are neither background nor
/// grid, and how many distinct (quantised) colours it has.
fn coverage_and_colours(img: &RgbaImage) -> (f64, usize) {
    let mut covered = 0usize;
    let mut colours = std::collections::HashSet::new();
    for p in img.pixels() {
        let [r, g, b, _] = p.0;
        let d = (r as i32 - BACKGROUND[0] as i32).abs()
            + (g as i32 - BACKGROUND[1] as i32).abs()
            + (b as i32 - BACKGROUND[2] as i32).abs();
        // The grid lines are within ~40 of the background; bodies are far brighter.
        if d > 60 {
            covered += 1;
        }
        colours.insert((r / 16, g / 16, b / 16));
    }
    (covered as f64 / (img.width() * img.height()) as f64, colours.len())
}

fn scenes() -> Vec<PathBuf> {
    let mut all = Vec::new();
    for dir in ["scenes", "scenes/lessons"] {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
        if let Ok(entries) = std::fs::read_dir(&dir) {
            for e in entries.flatten() {
                if e.path().extension().is_some_and(|x| x == "ron") {
                    all.push(e.path());
                }
            }
        }
    }
    all.sort();
    all
}

fn render(scene: &Path, out: &Path, extra: &[&str]) -> RgbaImage {
    render_sized(scene, out, "800x600", extra)
}

/// [`render`] at a window size of `size` (WIDTHxHEIGHT, at most 1280x800).
fn render_sized(scene: &Path, out: &Path, size: &str, extra: &[&str]) -> RgbaImage {
    let output = Command::new("xvfb-run")
        .args(["-a", "-s", "-screen 0 1280x800x24", BIN, "render"])
        .arg(scene)
        .args(["--out"])
        .arg(out)
        .args(["--size", size])
        .args(extra)
        .env("LIBGL_ALWAYS_SOFTWARE", "1")
        .output()
        .expect("xvfb-run runs");
    assert!(
        output.status.success(),
        "render {} failed: {}\n{}",
        scene.display(),
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    image::open(out).expect("the render wrote a PNG").to_rgba8()
}

#[test]
fn every_scene_renders_and_shows_its_bodies() {
    if !display_tools_available(&["xvfb-run", "Xvfb"]) {
        return;
    }
    let dir = out_dir("renders");
    let scenes = scenes();
    assert!(scenes.len() >= 9, "found {} scenes", scenes.len());
    let mut report = Vec::new();
    for scene in &scenes {
        let name = scene.file_stem().unwrap().to_string_lossy().into_owned();
        let out = dir.join(format!("{name}.png"));
        let img = render(scene, &out, &["--frames", "3", "--steps-per-frame", "1"]);
        assert_eq!((img.width(), img.height()), (800, 600), "{name}: window size");
        let (coverage, colours) = coverage_and_colours(&img);
        report.push(format!("{name}: {:.1}% covered, {colours} colours", coverage * 100.0));
        // Every scene is fitted to the view, so its bodies cover a visible share of it
        // (a wide row of small pairs, convex_pairs, covers the least: ~0.7%).
        assert!(
            coverage > 0.003,
            "{name}: only {:.2}% of the picture shows bodies",
            coverage * 100.0
        );
        assert!(
            colours >= 3,
            "{name}: {colours} colours — a blank or one-colour picture"
        );
    }
    eprintln!("{}", report.join("\n"));
}

#[test]
fn render_draws_the_overlay_and_debug_layers_when_asked() {
    if !display_tools_available(&["xvfb-run", "Xvfb"]) {
        return;
    }
    let dir = out_dir("renders");
    let scene = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/default.ron");
    let plain = render(
        &scene,
        &dir.join("plain.png"),
        &["--frames", "1", "--steps-per-frame", "0"],
    );
    let with_ui = render(
        &scene,
        &dir.join("ui.png"),
        &[
            "--frames",
            "1",
            "--steps-per-frame",
            "0",
            "--ui",
            "--debug",
            "aabb,centers",
        ],
    );
    let differing = plain
        .pixels()
        .zip(with_ui.pixels())
        .filter(|(a, b)| a.0[..3] != b.0[..3])
        .count();
    assert!(
        differing > (800 * 600) / 10,
        "the overlay and layers changed only {differing} pixels"
    );
}

#[test]
fn a_lesson_renders_its_views_and_its_last_step_differs_from_its_first() {
    if !display_tools_available(&["xvfb-run", "Xvfb"]) {
        return;
    }
    let dir = out_dir("lessons");
    let scene = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/lessons/06_gjk.ron");
    let args = |step: &'static str| ["--frames", "1", "--steps-per-frame", "0", "--ui", "--lesson-step", step];
    let first = render(&scene, &dir.join("06_first.png"), &args("0"));
    let last = render(&scene, &dir.join("06_last.png"), &args("last"));
    let (coverage, colours) = coverage_and_colours(&last);
    assert!(
        coverage > 0.05 && colours >= 8,
        "{:.1}% covered, {colours} colours",
        coverage * 100.0
    );
    let differing = first
        .pixels()
        .zip(last.pixels())
        .filter(|(a, b)| a.0[..3] != b.0[..3])
        .count();
    // The simplex, the answer's arrows, the card and the pseudocode line all change.
    assert!(
        differing > (800 * 600) / 50,
        "the last step changed only {differing} pixels"
    );
}

/// Item 3 of the sandbox issue, in the real window with the real font: in every lesson,
/// at its first, a middle and its last step, no two labels overlap, none covers the
/// origin marker, every label stays inside its view (so none runs under the panel or the
/// status bar), and the placer found a free place for each. GJK's step 7 is where
/// "closest edge … from O" once sat on the origin and "O" on "v".
#[test]
fn lesson_labels_keep_off_each_other_and_the_origin_in_the_window() {
    if !display_tools_available(&["xvfb-run", "Xvfb"]) {
        return;
    }
    let dir = out_dir("labels");
    let lessons: Vec<PathBuf> = scenes()
        .into_iter()
        .filter(|p| p.parent().is_some_and(|d| d.ends_with("lessons")))
        .collect();
    assert!(lessons.len() >= 10, "{lessons:?}");
    let mut checked = 0;
    for lesson in &lessons {
        let name = lesson.file_stem().unwrap().to_string_lossy().into_owned();
        let steps: &[&str] = if name.starts_with("06") {
            &["0", "7", "last"]
        } else {
            &["0", "3", "last"]
        };
        for (size, step) in steps.iter().map(|s| ("1280x800", *s)).chain([("1024x700", "last")]) {
            let json_path = dir.join(format!("{name}-{step}-{size}.json"));
            let png = dir.join(format!("{name}-{step}-{size}.png"));
            let labels = json_path.to_str().unwrap();
            render_sized(
                lesson,
                &png,
                size,
                &["--frames", "2", "--ui", "--lesson-step", step, "--labels", labels],
            );
            let views: serde_json::Value =
                serde_json::from_str(&std::fs::read_to_string(&json_path).expect("labels written")).expect("json");
            let what = format!("{name} step {step} at {size}");
            for view in views.as_array().expect("views") {
                let rect = |v: &serde_json::Value| -> [f64; 4] {
                    let a = v.as_array().expect("a rect");
                    [0, 1, 2, 3].map(|i| a[i].as_f64().expect("a number"))
                };
                let overlap = |a: [f64; 4], b: [f64; 4]| {
                    a[0] < b[2] - 0.5 && b[0] < a[2] - 0.5 && a[1] < b[3] - 0.5 && b[1] < a[3] - 0.5
                };
                let frame = rect(&view["view"]);
                let labels: Vec<(String, [f64; 4])> = view["labels"]
                    .as_array()
                    .expect("labels")
                    .iter()
                    .map(|l| (l["text"].as_str().unwrap().to_string(), rect(&l["rect"])))
                    .collect();
                assert!(view["overlapping"].as_array().unwrap().is_empty(), "{what}: {view}");
                for (i, (text, r)) in labels.iter().enumerate() {
                    assert!(
                        r[0] >= frame[0] - 0.5
                            && r[1] >= frame[1] - 0.5
                            && r[2] <= frame[2] + 0.5
                            && r[3] <= frame[3] + 0.5,
                        "{what}: {text:?} {r:?} leaves its view {frame:?}"
                    );
                    for (other, q) in &labels[i + 1..] {
                        assert!(!overlap(*r, *q), "{what}: {text:?} {r:?} overlaps {other:?} {q:?}");
                    }
                    if let Some(origin) = view["origin"].as_array().map(|_| rect(&view["origin"])) {
                        if text != "O" {
                            assert!(!overlap(*r, origin), "{what}: {text:?} covers the origin marker");
                        }
                    }
                    checked += 1;
                }
            }
        }
    }
    assert!(checked > 200, "only {checked} labels were checked");
}

/// Predict mode driven by the mouse: in the GJK lesson, K turns it on, → stops before
/// GJK's first iteration and outlines A − B, a click on the support point (where
/// `render --predict` says it is) scores a hit, and a click far from the next one a
/// miss; the window reports both when it closes.
#[test]
fn predict_mode_scores_clicks_on_the_next_support_point() {
    if !display_tools_available(&["xvfb-run", "Xvfb", "xdotool", "import"]) {
        return;
    }
    let dir = out_dir("predict");
    let lesson = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/lessons/06_gjk.ron");
    // Where the answers are, from the same window size.
    let target = |step: &str| -> serde_json::Value {
        let json = dir.join(format!("next-{step}.json"));
        render_sized(
            &lesson,
            &dir.join(format!("step-{step}.png")),
            "1280x800",
            &[
                "--frames",
                "2",
                "--ui",
                "--lesson-step",
                step,
                "--predict",
                json.to_str().unwrap(),
            ],
        );
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap()
    };
    let first = target("1");
    let second = target("2");
    assert_eq!(first["step"], 2, "{first}");
    assert_eq!(first["view"], "minkowski", "{first}");
    assert_eq!(second["step"], 3, "{second}");
    let px = |q: &serde_json::Value| {
        let a = &q["answers_px"][0];
        (a[0].as_f64().unwrap(), a[1].as_f64().unwrap())
    };
    let (hit_x, hit_y) = px(&first);
    let (next_x, next_y) = px(&second);
    // A point of the A − B view (right of centre, below the title) far from the answer.
    let miss = [(700.0, 120.0), (450.0, 700.0), (780.0, 700.0)]
        .into_iter()
        .find(|&(x, y): &(f64, f64)| (x - next_x).hypot(y - next_y) > 4.0 * second["tolerance_px"].as_f64().unwrap())
        .expect("a point far from the answer");

    let display = VirtualDisplay::start();
    let app = sandbox_command(&display, &dir.join("config"))
        .args([
            "open".as_ref(),
            lesson.as_os_str(),
            "--exit-after".as_ref(),
            "20".as_ref(),
            "--frame-stats".as_ref(),
        ])
        .stdout(Stdio::piped())
        .spawn()
        .expect("the sandbox starts");
    std::thread::sleep(Duration::from_secs(5));
    let pause = || std::thread::sleep(Duration::from_millis(700));
    display.xdotool(&["mousemove", "200", "600"]);
    for key in ["k", "Right", "Right"] {
        display.xdotool(&["key", key]);
        pause();
    }
    let asking = display.screenshot(&dir.join("asking.png"));
    // The A − B view is outlined in predict mode's amber while the question is open.
    let amber = asking
        .enumerate_pixels()
        .filter(|(x, y, p)| {
            (416..818).contains(x)
                && (24..776).contains(y)
                && p.0[0] > 230
                && (160..210).contains(&p.0[1])
                && p.0[2] < 100
        })
        .count();
    assert!(amber > 1000, "no amber outline around A − B: {amber} pixels");
    display.xdotool(&["mousemove", &format!("{hit_x:.0}"), &format!("{hit_y:.0}")]);
    pause();
    display.xdotool(&["click", "1"]);
    pause();
    display.screenshot(&dir.join("answered.png"));
    display.xdotool(&["key", "Right"]);
    pause();
    display.xdotool(&["mousemove", &format!("{:.0}", miss.0), &format!("{:.0}", miss.1)]);
    pause();
    display.xdotool(&["click", "1"]);
    pause();
    display.screenshot(&dir.join("missed.png"));
    let output = app.wait_with_output().expect("the sandbox exits");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let stats = frame_stats_of(&stdout);
    assert_eq!(stats["predictions"]["asked"], 2, "{stats}");
    assert_eq!(stats["predictions"]["hits"], 1, "{stats}");
    assert_eq!(stats["predictions"]["skipped"], 0, "{stats}");
}

/// Predict mode in a topic lesson, driven by the mouse: in lesson 11, K turns it on, the
/// third → stops before the AABB's τ is shown and outlines the world view, and a click
/// where `render --predict` puts the point of the box farthest from the shape scores a
/// hit.
#[test]
fn predict_mode_in_the_bounding_volumes_lesson_scores_a_click_on_the_worst_point() {
    predict_topic_by_mouse("11_bounding_volumes", 3, "world");
}

/// The same in lesson 15, the dynamic tree: the sixth → stops before b2's descent goes
/// down a level, and a click inside the child's box it will take scores a hit.
#[test]
fn predict_mode_in_the_dynamic_tree_lesson_scores_a_click_on_the_child_taken() {
    predict_topic_by_mouse("15_dynamic_tree", 6, "world");
}

/// Opens the topic lesson `stem` in the window, turns predict mode on (K), presses →
/// until it stops before step `step` (the first that asks), and clicks where
/// `render --predict` puts its first answer in `view`: one question asked, one hit.
fn predict_topic_by_mouse(stem: &str, step: usize, view: &str) {
    if !display_tools_available(&["xvfb-run", "Xvfb", "xdotool", "import"]) {
        return;
    }
    let dir = out_dir(&format!("predict-topic-{stem}"));
    let lesson = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("scenes/lessons/{stem}.ron"));
    let json = dir.join("next.json");
    let before = (step - 1).to_string();
    render_sized(
        &lesson,
        &dir.join(format!("step-{before}.png")),
        "1280x800",
        &[
            "--frames",
            "2",
            "--ui",
            "--lesson-step",
            &before,
            "--predict",
            json.to_str().unwrap(),
        ],
    );
    let question: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(question["step"], step, "{question}");
    assert_eq!(question["view"], view, "{question}");
    let a = &question["answers_px"][0];
    let (x, y) = (a[0].as_f64().unwrap(), a[1].as_f64().unwrap());

    let display = VirtualDisplay::start();
    let app = sandbox_command(&display, &dir.join("config"))
        .args([
            "open".as_ref(),
            lesson.as_os_str(),
            "--exit-after".as_ref(),
            "15".as_ref(),
            "--frame-stats".as_ref(),
        ])
        .stdout(Stdio::piped())
        .spawn()
        .expect("the sandbox starts");
    std::thread::sleep(Duration::from_secs(5));
    let pause = || std::thread::sleep(Duration::from_millis(700));
    display.xdotool(&["mousemove", "1000", "700"]);
    display.xdotool(&["key", "k"]);
    pause();
    for _ in 0..step {
        display.xdotool(&["key", "Right"]);
        pause();
    }
    display.screenshot(&dir.join("asking.png"));
    display.xdotool(&["mousemove", &format!("{x:.0}"), &format!("{y:.0}")]);
    pause();
    display.xdotool(&["click", "1"]);
    pause();
    display.screenshot(&dir.join("answered.png"));
    let output = app.wait_with_output().expect("the sandbox exits");
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let stats = frame_stats_of(&String::from_utf8_lossy(&output.stdout));
    assert_eq!(stats["predictions"]["asked"], 1, "{stats}");
    assert_eq!(stats["predictions"]["hits"], 1, "{stats}");
}

/// A lesson step exported as SVG for slides: a whole document the size of the views,
/// each view clipped, the shapes as polygons and the titles and labels as text.
#[test]
fn a_lesson_step_exports_as_svg() {
    if !display_tools_available(&["xvfb-run", "Xvfb"]) {
        return;
    }
    let dir = out_dir("svg");
    let lesson = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/lessons/08_epa.ron");
    let svg_path = dir.join("epa.svg");
    render_sized(
        &lesson,
        &dir.join("epa.png"),
        "1280x800",
        &[
            "--frames",
            "2",
            "--ui",
            "--lesson-step",
            "6",
            "--svg",
            svg_path.to_str().unwrap(),
        ],
    );
    let svg = std::fs::read_to_string(&svg_path).expect("the SVG was written");
    assert!(
        svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""),
        "{}",
        &svg[..200.min(svg.len())]
    );
    assert!(svg.trim_end().ends_with("</svg>"));
    assert_eq!(
        svg.matches("<g ").count(),
        svg.matches("</g>").count(),
        "groups balanced"
    );
    assert!(
        svg.matches("clip-path=").count() >= 2,
        "the world and A − B views are clipped"
    );
    assert!(svg.matches("<polygon").count() >= 4, "shapes and A − B as polygons");
    assert!(svg.contains(">World: A and B</text>") && svg.contains(">Minkowski difference A - B</text>"));
    assert!(svg.contains("closest edge"), "the labels are text");
    // The views only, not the panel: narrower than the window.
    let width: f64 = svg
        .split("width=\"")
        .nth(1)
        .unwrap()
        .split('"')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert!(width > 400.0 && width < 1280.0, "{width}");
}

#[test]
fn render_refuses_a_bad_scene_with_its_position() {
    if !display_tools_available(&["xvfb-run"]) {
        return;
    }
    let dir = out_dir("bad");
    let bad = dir.join("bad.ron");
    std::fs::write(&bad, "(version: 1, bodies: [(shape: Circle(radius: -1.0))])").unwrap();
    let output = Command::new(BIN)
        .args(["render"])
        .arg(&bad)
        .args(["--out"])
        .arg(dir.join("never.png"))
        .output()
        .unwrap();
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("bad.ron:1:"), "{stderr}");
    assert!(!dir.join("never.png").exists());
}

/// An Xvfb server on a display of its own, killed when dropped.
struct VirtualDisplay {
    server: Child,
    display: String,
}

impl VirtualDisplay {
    fn start() -> VirtualDisplay {
        // A display number unlikely to be taken, and one per server: the tests of this
        // file run in parallel threads of one process. -nolisten tcp keeps it local.
        static NEXT: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
        let nth = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let number = 300 + (std::process::id() % 100) * 8 + nth % 8;
        let display = format!(":{number}");
        let server = Command::new("Xvfb")
            .args([display.as_str(), "-screen", "0", "1280x800x24", "-nolisten", "tcp"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("Xvfb starts");
        std::thread::sleep(Duration::from_millis(800));
        VirtualDisplay { server, display }
    }

    fn xdotool(&self, args: &[&str]) {
        let status = Command::new("xdotool")
            .args(args)
            .env("DISPLAY", &self.display)
            .status()
            .expect("xdotool runs");
        assert!(status.success(), "xdotool {args:?}");
    }

    fn screenshot(&self, out: &Path) -> RgbaImage {
        let status = Command::new("import")
            .args(["-window", "root"])
            .arg(out)
            .env("DISPLAY", &self.display)
            .status()
            .expect("import runs");
        assert!(status.success());
        image::open(out).unwrap().to_rgba8()
    }
}

impl Drop for VirtualDisplay {
    fn drop(&mut self) {
        let _ = self.server.kill();
        let _ = self.server.wait();
    }
}

/// The centroid (px) of the pixels within 40 of `colour`, and how many there are.
fn centroid_of(img: &RgbaImage, colour: [u8; 3]) -> Option<(f64, f64, usize)> {
    let (mut sx, mut sy, mut n) = (0.0, 0.0, 0usize);
    for (x, y, p) in img.enumerate_pixels() {
        let d: i32 = (0..3).map(|i| (p.0[i] as i32 - colour[i] as i32).abs()).sum();
        if d < 40 {
            sx += x as f64;
            sy += y as f64;
            n += 1;
        }
    }
    (n > 50).then(|| (sx / n as f64, sy / n as f64, n))
}

#[test]
fn a_scripted_drag_moves_a_body() {
    if !display_tools_available(&["Xvfb", "xdotool", "import"]) {
        return;
    }
    let dir = out_dir("drag");
    let display = VirtualDisplay::start();
    let scene = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/drag.ron");
    let mut app = spawn_sandbox(&display, &[scene.as_os_str()], &dir, None);
    // The box is the third body: dynamic, slot 2, drawn in the palette's third colour.
    let box_colour = [237, 189, 84];
    let before = wait_for_colour(&display, &mut app, &dir, box_colour).1;
    let (x0, y0) = (before.0.round() as i32, before.1.round() as i32);
    display.xdotool(&["mousemove", &x0.to_string(), &y0.to_string()]);
    std::thread::sleep(Duration::from_millis(200));
    display.xdotool(&["mousedown", "1"]);
    for i in 1..=20 {
        std::thread::sleep(Duration::from_millis(40));
        display.xdotool(&["mousemove", &(x0 + 10 * i).to_string(), &(y0 - 4 * i).to_string()]);
    }
    std::thread::sleep(Duration::from_millis(600));
    let held = centroid_of(&display.screenshot(&dir.join("held.png")), box_colour).expect("box visible while held");
    display.xdotool(&["mouseup", "1"]);
    let _ = app.kill();
    let _ = app.wait();
    let dx = held.0 - before.0;
    let dy = held.1 - before.1;
    eprintln!("box centroid {before:?} -> {held:?} (cursor moved +200, -80 px)");
    // The spring pulls the grabbed point to the cursor: most of the way after 0.6 s.
    assert!(dx > 120.0, "moved {dx:.0} px right (cursor: 200)");
    assert!(dy < -40.0, "moved {dy:.0} px (cursor: -80, up)");
}

/// How far (px) the picture in `x_range` moved up between `before` and `after`: the
/// shift in 0..=`max_shift` that makes the two columns agree best.
fn upward_shift(
    before: &RgbaImage,
    after: &RgbaImage,
    x_range: (u32, u32),
    y_range: (u32, u32),
    max_shift: u32,
) -> u32 {
    let diff = |shift: u32| -> f64 {
        let (mut sum, mut n) = (0u64, 0u64);
        for y in y_range.0..y_range.1 - max_shift {
            for x in (x_range.0..x_range.1).step_by(2) {
                let a = before.get_pixel(x, y + shift).0;
                let b = after.get_pixel(x, y).0;
                sum += (0..3)
                    .map(|i| (a[i] as i32 - b[i] as i32).unsigned_abs() as u64)
                    .sum::<u64>();
                n += 1;
            }
        }
        sum as f64 / n as f64
    };
    (0..=max_shift)
        .min_by(|&a, &b| diff(a).total_cmp(&diff(b)))
        .unwrap_or(0)
}

/// Regression: one wheel notch over the left panel moved it by 0.44 px (egui-macroquad
/// hands egui X11's notch as 1/90 of a line). It should move it about 50 px.
#[test]
fn one_wheel_notch_scrolls_the_left_panel_about_fifty_px() {
    if !display_tools_available(&["Xvfb", "xdotool", "import"]) {
        return;
    }
    let dir = out_dir("wheel");
    let display = VirtualDisplay::start();
    let mut app = spawn_sandbox(&display, &[], &dir, None);
    let before = wait_until_drawn(&display, &mut app, &dir, 1500);
    display.xdotool(&["mousemove", "130", "400"]);
    std::thread::sleep(Duration::from_millis(300));
    display.xdotool(&["click", "5"]);
    std::thread::sleep(Duration::from_millis(1500));
    let after = display.screenshot(&dir.join("after.png"));
    let _ = app.kill();
    let _ = app.wait();
    let shift = upward_shift(&before, &after, (10, 250), (60, 560), 120);
    eprintln!("one notch scrolled the left panel {shift} px");
    assert!(
        (35..=70).contains(&shift),
        "one notch scrolled {shift} px (see {})",
        dir.display()
    );
}

/// Runs the sandbox with `args` on `display` and waits for it to exit by itself (it is
/// killed after `timeout`): stdout, stderr and whether it exited successfully.
fn run_until_exit(
    display: &VirtualDisplay,
    args: &[&std::ffi::OsStr],
    config: &Path,
    timeout: Duration,
) -> (String, String, bool) {
    let mut app = sandbox_command(display, config)
        .args(args)
        .stdout(Stdio::piped())
        .spawn()
        .expect("the sandbox starts");
    let deadline = Instant::now() + timeout;
    let status = loop {
        if let Some(status) = app.try_wait().unwrap() {
            break status;
        }
        if Instant::now() > deadline {
            let _ = app.kill();
            let _ = app.wait();
            panic!("the sandbox did not exit within {timeout:?}: --exit-after is not honoured");
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    let output = app.wait_with_output().unwrap();
    (
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
        status.success(),
    )
}

/// The `--frame-stats` line of `stdout`, parsed, with its fields checked for sense (no
/// timing thresholds: machines are noisy).
fn frame_stats_of(stdout: &str) -> serde_json::Value {
    let line = stdout
        .lines()
        .find(|l| l.starts_with('{'))
        .unwrap_or_else(|| panic!("no JSON line on stdout: {stdout:?}"));
    let stats: serde_json::Value = serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}"));
    assert!(stats["frames"].as_u64().is_some_and(|n| n > 0), "{line}");
    for key in ["mean_ms", "p95_ms", "max_ms", "sim_ratio"] {
        let v = stats[key].as_f64().unwrap_or_else(|| panic!("{key} missing: {line}"));
        assert!(v.is_finite() && v >= 0.0, "{key}: {line}");
    }
    assert!(stats["msaa"].as_i64().is_some_and(|n| n >= 1), "msaa: {line}");
    assert!(
        stats["renderer"].as_str().is_some_and(|r| !r.is_empty()),
        "renderer: {line}"
    );
    // Without a GPU the window must not ask a software renderer for 4x multisampling
    // (it tripled the frame time), unless the user asked for it.
    if !collision_lab::app::gl_info::gpu_likely() && std::env::var_os("COLLISION_LAB_MSAA").is_none() {
        assert_eq!(stats["msaa"].as_i64(), Some(1), "{line}");
    }
    stats
}

#[test]
fn open_exits_after_the_time_given_and_prints_frame_stats() {
    if !display_tools_available(&["Xvfb"]) {
        return;
    }
    let dir = out_dir("frame_stats");
    let display = VirtualDisplay::start();
    let scene = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/pyramid_20.ron");
    let started = Instant::now();
    let (stdout, stderr, success) = run_until_exit(
        &display,
        &[
            "open".as_ref(),
            scene.as_os_str(),
            "--exit-after".as_ref(),
            "3".as_ref(),
            "--frame-stats".as_ref(),
        ],
        &dir.join("config"),
        Duration::from_secs(60),
    );
    assert!(success, "{stderr}");
    assert!(started.elapsed() >= Duration::from_secs(3), "exited before its time");
    let stats = frame_stats_of(&stdout);
    eprintln!("{stats}");
    assert!(
        stats["sim_ratio"].as_f64().unwrap() > 0.0,
        "the scene never stepped: {stats}"
    );
    assert!(
        stats["max_ms"].as_f64().unwrap() >= stats["p95_ms"].as_f64().unwrap(),
        "{stats}"
    );
}

/// A bad scene named on the command line opens the window on the default scene with
/// the error in the status bar (and on stderr), instead of exiting with nothing shown.
#[test]
fn a_bad_scene_on_the_command_line_opens_the_window_with_the_error() {
    if !display_tools_available(&["Xvfb", "import"]) {
        return;
    }
    let dir = out_dir("bad_open");
    let bad = dir.join("bad.ron");
    std::fs::write(&bad, "(version: 1, bodies: [(shape: Circle(radius: -1.0))])").unwrap();
    let display = VirtualDisplay::start();
    let shot = dir.join("window.png");
    let (stdout, stderr, success) = std::thread::scope(|scope| {
        let run = scope.spawn(|| {
            run_until_exit(
                &display,
                &["open".as_ref(), bad.as_os_str(), "--exit-after".as_ref(), "15".as_ref()],
                &dir.join("config"),
                Duration::from_secs(90),
            )
        });
        // Poll until the window shows the default scene and the error (a busy machine
        // takes a few seconds to open it under software GL).
        let mut last = String::new();
        let mut seen = false;
        for _ in 0..24 {
            std::thread::sleep(Duration::from_millis(500));
            if run.is_finished() {
                break;
            }
            let img = display.screenshot(&shot);
            let (coverage, colours) = coverage_and_colours(&img);
            // The status bar's error red (panels/mod.rs) along the bottom of the window.
            let red = (img.height() - 30..img.height())
                .flat_map(|y| (0..img.width()).map(move |x| (x, y)))
                .filter(|&(x, y)| {
                    let p = img.get_pixel(x, y).0;
                    p[0] > 200 && p[1] < 130 && p[2] < 130
                })
                .count();
            last = format!(
                "{:.1}% covered, {colours} colours, {red} red px in the status bar",
                coverage * 100.0
            );
            if coverage > 0.05 && colours >= 8 && red > 100 {
                seen = true;
                break;
            }
        }
        let (stdout, stderr, success) = run.join().unwrap();
        assert!(
            seen,
            "the window never showed the default scene with the error: {last} (see {}); stderr: {stderr}",
            shot.display()
        );
        (stdout, stderr, success)
    });
    assert!(success, "the window's run should succeed: {stderr}");
    assert!(stderr.contains("bad.ron:1:"), "{stderr}");
    assert!(stderr.contains("default scene"), "{stderr}");
    let _ = stdout;
}

/// The launcher (L, then a left drag) draws its aim line from the press point to the
/// cursor while the button is held, and nothing of it after the release.
#[test]
fn the_launcher_draws_its_aim_while_dragging() {
    if !display_tools_available(&["Xvfb", "xdotool", "import"]) {
        return;
    }
    let dir = out_dir("launcher");
    let display = VirtualDisplay::start();
    let mut app = sandbox_command(&display, &dir.join("config"))
        .args(["open", "--exit-after", "60"])
        .stdout(Stdio::null())
        .spawn()
        .expect("the sandbox starts");
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        std::thread::sleep(Duration::from_millis(500));
        let (coverage, colours) = coverage_and_colours(&display.screenshot(&dir.join("before.png")));
        if coverage > 0.05 && colours >= 8 {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "the window never drew (see {})",
            dir.display()
        );
        assert!(app.try_wait().unwrap().is_none(), "the sandbox exited early");
    }
    // The aim's colour (draw/palette.rs, AIM), 8 bits.
    let aim_colour: [u8; 3] = [255, 115, 77];
    display.xdotool(&["mousemove", "600", "300"]);
    std::thread::sleep(Duration::from_millis(300));
    display.xdotool(&["key", "l"]);
    std::thread::sleep(Duration::from_millis(500));
    display.xdotool(&["mousedown", "1"]);
    for i in 1..=10 {
        std::thread::sleep(Duration::from_millis(50));
        display.xdotool(&["mousemove", &(600 + 20 * i).to_string(), "300"]);
    }
    std::thread::sleep(Duration::from_millis(1000));
    let aiming = display.screenshot(&dir.join("aiming.png"));
    display.xdotool(&["mouseup", "1"]);
    std::thread::sleep(Duration::from_millis(1000));
    let after = display.screenshot(&dir.join("after.png"));
    let _ = app.kill();
    let _ = app.wait();
    // The line runs from (600, 300) to (800, 300), over the empty middle of the box; some
    // bodies are near its colour, so only that strip is counted.
    let on_the_line = |img: &RgbaImage| {
        (610..790)
            .flat_map(|x| (295..306).map(move |y| (x, y)))
            .filter(|&(x, y)| {
                let p = img.get_pixel(x, y).0;
                (0..3).map(|i| (p[i] as i32 - aim_colour[i] as i32).abs()).sum::<i32>() < 40
            })
            .count()
    };
    let (during, after) = (on_the_line(&aiming), on_the_line(&after));
    eprintln!("aim-coloured px on the line: {during} while dragging, {after} after");
    assert!(during > 150, "no aim line while dragging (see {})", dir.display());
    assert!(
        after < during / 4,
        "the aim line stayed after the release (see {})",
        dir.display()
    );
}

/// Starts the sandbox on `display` with `args`, from `cwd` when given, with the user's
/// configuration (recent files) kept in `dir`.
/// The sandbox binary on `display` with software GL and its own config folder (so the
/// recent-files list of the machine is never touched); stderr piped.
fn sandbox_command(display: &VirtualDisplay, config: &Path) -> Command {
    let mut command = Command::new(BIN);
    command
        .env("DISPLAY", &display.display)
        .env("LIBGL_ALWAYS_SOFTWARE", "1")
        .env("XDG_CONFIG_HOME", config)
        .stderr(Stdio::piped());
    command
}

fn spawn_sandbox(display: &VirtualDisplay, args: &[&std::ffi::OsStr], dir: &Path, cwd: Option<&Path>) -> Child {
    let mut command = sandbox_command(display, &dir.join("config"));
    command.args(args).stdout(Stdio::null());
    if let Some(cwd) = cwd {
        command.current_dir(cwd);
    }
    command.spawn().expect("the sandbox starts")
}

/// Waits (30 s at most) until the sandbox's window shows its panels and a scene, then
/// `settle_ms` more; returns a screenshot taken then (saved as `dir/start.png`).
fn wait_until_drawn(display: &VirtualDisplay, app: &mut Child, dir: &Path, settle_ms: u64) -> RgbaImage {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        std::thread::sleep(Duration::from_millis(500));
        let img = display.screenshot(&dir.join("start.png"));
        let (coverage, colours) = coverage_and_colours(&img);
        if coverage > 0.05 && colours >= 8 {
            std::thread::sleep(Duration::from_millis(settle_ms));
            return display.screenshot(&dir.join("start.png"));
        }
        assert!(
            Instant::now() < deadline,
            "the window never drew (see {})",
            dir.display()
        );
        assert!(app.try_wait().unwrap().is_none(), "the sandbox exited early");
    }
}

/// Waits (30 s at most) until a body of `colour` shows; returns the screenshot (saved
/// as `dir/before.png`) and the body's centroid and pixel count.
fn wait_for_colour(
    display: &VirtualDisplay,
    app: &mut Child,
    dir: &Path,
    colour: [u8; 3],
) -> (RgbaImage, (f64, f64, usize)) {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        std::thread::sleep(Duration::from_millis(500));
        let img = display.screenshot(&dir.join("before.png"));
        if let Some(c) = centroid_of(&img, colour) {
            return (img, c);
        }
        assert!(
            Instant::now() < deadline,
            "the body never appeared (see {})",
            dir.display()
        );
        assert!(app.try_wait().unwrap().is_none(), "the sandbox exited early");
    }
}

/// Tab hides both side panels, giving the world view the whole window (at 1280×800 it
/// was about 645 px wide), and brings them back.
#[test]
fn tab_hides_the_side_panels_and_brings_them_back() {
    if !display_tools_available(&["Xvfb", "xdotool", "import"]) {
        return;
    }
    let dir = out_dir("tab");
    let display = VirtualDisplay::start();
    let mut app = spawn_sandbox(&display, &[], &dir, None);
    // The panels' backgrounds are flat grey: count the distinct colours in a strip of
    // each panel (text, tiles, plots) against the world view's grid and bodies.
    let panel_colours = |img: &RgbaImage, x_range: (u32, u32)| {
        let mut seen = std::collections::HashSet::new();
        for y in (60..740).step_by(3) {
            for x in (x_range.0..x_range.1).step_by(3) {
                seen.insert(img.get_pixel(x, y).0);
            }
        }
        seen.len()
    };
    let shown = wait_until_drawn(&display, &mut app, &dir, 1000);
    // Over the world view, so the key goes to the app, not to a panel's widget.
    display.xdotool(&["mousemove", "640", "300"]);
    std::thread::sleep(Duration::from_millis(200));
    display.xdotool(&["key", "Tab"]);
    std::thread::sleep(Duration::from_millis(1200));
    let hidden = display.screenshot(&dir.join("hidden.png"));
    display.xdotool(&["key", "Tab"]);
    std::thread::sleep(Duration::from_millis(1200));
    let back = display.screenshot(&dir.join("back.png"));
    let _ = app.kill();
    let _ = app.wait();
    // Where the left panel's palette and settings were, and the right panel's plots.
    let (left, right) = ((10, 250), (950, 1270));
    let counts = |img: &RgbaImage| (panel_colours(img, left), panel_colours(img, right));
    let (shown_c, hidden_c, back_c) = (counts(&shown), counts(&hidden), counts(&back));
    eprintln!("distinct colours (left, right): shown {shown_c:?}, hidden {hidden_c:?}, back {back_c:?}");
    // The world view's frame differs from the panels: the left panel's strip shows the
    // bodies' box walls now, or the grid.
    let changed = |a: &RgbaImage, b: &RgbaImage, x: (u32, u32)| {
        let (mut n, mut total) = (0, 0);
        for y in (60..740).step_by(4) {
            for xx in (x.0..x.1).step_by(4) {
                total += 1;
                if a.get_pixel(xx, y).0 != b.get_pixel(xx, y).0 {
                    n += 1;
                }
            }
        }
        n as f64 / total as f64
    };
    let left_changed = changed(&shown, &hidden, left);
    let right_changed = changed(&shown, &hidden, right);
    let left_back = changed(&shown, &back, left);
    eprintln!("share of pixels changed by Tab: left {left_changed:.2}, right {right_changed:.2}; after the second Tab, left {left_back:.2}");
    assert!(left_changed > 0.3, "the left panel did not go (see {})", dir.display());
    assert!(
        hidden_c.0 * 4 < shown_c.0,
        "the left strip still shows a panel's many colours"
    );
    assert!(
        right_changed > 0.3,
        "the right panel did not go (see {})",
        dir.display()
    );
    // The left panel holds no running plots: it comes back as it was.
    assert!(
        left_back < 0.05,
        "the left panel did not come back (see {})",
        dir.display()
    );
}

/// Share of the pixels in the strip `x_range` (rows 60–740, every fourth pixel) that
/// differ between two screenshots.
fn changed_share(a: &RgbaImage, b: &RgbaImage, x_range: (u32, u32)) -> f64 {
    let (mut n, mut total) = (0, 0);
    for y in (60..740).step_by(4) {
        for x in (x_range.0..x_range.1).step_by(4) {
            total += 1;
            if a.get_pixel(x, y).0 != b.get_pixel(x, y).0 {
                n += 1;
            }
        }
    }
    n as f64 / total as f64
}

/// While a dialog is open (here the file dialog, Ctrl+O), keys go to it only: H and
/// Tab neither open the help nor hide the panels. Once it is cancelled, Tab works again.
#[test]
fn an_open_dialog_takes_the_keys() {
    if !display_tools_available(&["Xvfb", "xdotool", "import"]) {
        return;
    }
    let dir = out_dir("modal");
    let display = VirtualDisplay::start();
    let mut app = spawn_sandbox(&display, &[], &dir, None);
    wait_until_drawn(&display, &mut app, &dir, 1000);
    display.xdotool(&["mousemove", "640", "150"]);
    std::thread::sleep(Duration::from_millis(200));
    // Ctrl held across frames, as a hand does: the app reads modifiers once a frame.
    display.xdotool(&["keydown", "ctrl"]);
    std::thread::sleep(Duration::from_millis(300));
    display.xdotool(&["key", "o"]);
    std::thread::sleep(Duration::from_millis(300));
    display.xdotool(&["keyup", "ctrl"]);
    std::thread::sleep(Duration::from_millis(1500));
    let dialog = display.screenshot(&dir.join("dialog.png"));
    display.xdotool(&["key", "h"]);
    std::thread::sleep(Duration::from_millis(300));
    display.xdotool(&["key", "Tab"]);
    std::thread::sleep(Duration::from_millis(1500));
    let keys_sent = display.screenshot(&dir.join("keys_sent.png"));
    // The dialog's Cancel button, bottom right of the dialog at 1280×800.
    display.xdotool(&["mousemove", "884", "780"]);
    std::thread::sleep(Duration::from_millis(300));
    display.xdotool(&["click", "1"]);
    std::thread::sleep(Duration::from_millis(1000));
    display.xdotool(&["mousemove", "640", "150"]);
    std::thread::sleep(Duration::from_millis(300));
    display.xdotool(&["key", "Tab"]);
    std::thread::sleep(Duration::from_millis(1500));
    let closed = display.screenshot(&dir.join("closed_then_tab.png"));
    let _ = app.kill();
    let _ = app.wait();
    let left = (10, 250);
    // The dialog covers the middle of the window; the left panel stays clear of it.
    let while_open = changed_share(&dialog, &keys_sent, left);
    let after = changed_share(&dialog, &closed, left);
    eprintln!("left panel changed by H and Tab with the dialog open: {while_open:.3}; by Tab after Cancel: {after:.3}");
    assert!(
        while_open < 0.05,
        "a key reached the app behind the dialog (see {})",
        dir.display()
    );
    assert!(
        after > 0.3,
        "after Cancel, Tab did not hide the panels (see {})",
        dir.display()
    );
}

/// Share of the world view's pixels (between the panels, below the menu and above the
/// status bar at 1280×800) that are neither background nor grid.
fn world_view_coverage(img: &RgbaImage) -> f64 {
    let view = image::imageops::crop_imm(img, 262, 30, 668, 740).to_image();
    coverage_and_colours(&view).0
}

/// Regression: a box pushed through the ground fell towards the kill distance, and F
/// fitted the whole drop: the scene became a dot. F now fits the bodies near the scene.
#[test]
fn f_fits_the_scene_not_a_body_falling_far_below_it() {
    if !display_tools_available(&["Xvfb", "xdotool", "import"]) {
        return;
    }
    let dir = out_dir("fit_lost");
    let scene = dir.join("lost.ron");
    let mut text = String::from(
        "(version: 1, settings: (sleeping: false, kill_distance: 1000.0), bodies: [\n  (kind: Static, shape: Polygon(points: [(-10.0, -0.5), (10.0, -0.5), (10.0, 0.5), (-10.0, 0.5)]), position: (0.0, -0.5)),\n",
    );
    for i in 0..12 {
        let x = -7.5 + 1.4 * (i % 6) as f32;
        let y = 0.5 + (i / 6) as f32;
        text += &format!(
            "  (shape: Polygon(points: [(-0.5, -0.5), (0.5, -0.5), (0.5, 0.5), (-0.5, 0.5)]), position: ({x}, {y})),\n"
        );
    }
    // A box stuck in the ground's underside, as a paused drag leaves it: it is pushed out
    // downwards and falls.
    text += "  (shape: Polygon(points: [(-0.5, -0.5), (0.5, -0.5), (0.5, 0.5), (-0.5, 0.5)]), position: (0.0, -1.2)),\n])\n";
    std::fs::write(&scene, text).unwrap();
    let display = VirtualDisplay::start();
    let mut app = spawn_sandbox(&display, &[scene.as_os_str()], &dir, None);
    wait_until_drawn(&display, &mut app, &dir, 0);
    // Let the lost box fall some 60 m (the scene's kill distance is 1 km), then fit.
    std::thread::sleep(Duration::from_millis(3500));
    display.xdotool(&["mousemove", "600", "300"]);
    std::thread::sleep(Duration::from_millis(200));
    display.xdotool(&["key", "f"]);
    std::thread::sleep(Duration::from_millis(1200));
    let fitted = display.screenshot(&dir.join("fitted.png"));
    let _ = app.kill();
    let _ = app.wait();
    let coverage = world_view_coverage(&fitted);
    eprintln!("after F, the scene covers {:.1}% of the world view", coverage * 100.0);
    // Fitted to the drop, the 20 m ground and its boxes cover under 1%; fitted to the
    // scene, over 5%.
    assert!(coverage > 0.04, "the scene is a dot after F (see {})", dir.display());
}

/// Undo reverts the edit, not time: a star placed from the palette is removed by Ctrl+Z
/// two seconds later, while a box gliding at a steady speed keeps the distance it
/// covered meanwhile (undo used to rewind the whole simulation to the edit).
#[test]
fn undo_removes_the_placed_star_and_does_not_rewind_time() {
    if !display_tools_available(&["Xvfb", "xdotool", "import"]) {
        return;
    }
    let dir = out_dir("undo");
    let display = VirtualDisplay::start();
    let scene = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/undo.ron");
    let mut app = spawn_sandbox(&display, &[scene.as_os_str()], &dir, None);
    // The glider is the third body, drawn in the palette's third colour.
    let glider_colour = [237, 189, 84];
    let before = wait_for_colour(&display, &mut app, &dir, glider_colour).0;
    // Star tile in the palette, then a click in the world above the glider's path.
    let (star_x, star_y) = (600u32, 230u32);
    display.xdotool(&["mousemove", "58", "182"]);
    std::thread::sleep(Duration::from_millis(300));
    display.xdotool(&["click", "1"]);
    std::thread::sleep(Duration::from_millis(400));
    display.xdotool(&["mousemove", &star_x.to_string(), &star_y.to_string()]);
    std::thread::sleep(Duration::from_millis(300));
    display.xdotool(&["click", "1"]);
    std::thread::sleep(Duration::from_millis(500));
    // Away from the star, so the cursor's hover does not change its outline.
    display.xdotool(&["mousemove", "640", "700"]);
    std::thread::sleep(Duration::from_millis(300));
    let placed = display.screenshot(&dir.join("placed.png"));
    let glider_placed = centroid_of(&placed, glider_colour).expect("glider visible").0;
    let star_region = |img: &RgbaImage| image::imageops::crop_imm(img, star_x - 30, star_y - 30, 60, 60).to_image();
    let differs = |a: &RgbaImage, b: &RgbaImage| a.pixels().zip(b.pixels()).filter(|(p, q)| p.0 != q.0).count();
    let star_drawn = differs(&star_region(&before), &star_region(&placed));
    assert!(
        star_drawn > 300,
        "no star was placed ({star_drawn} px changed; see {})",
        dir.display()
    );
    std::thread::sleep(Duration::from_millis(2000));
    display.xdotool(&["keydown", "ctrl"]);
    std::thread::sleep(Duration::from_millis(200));
    display.xdotool(&["key", "z"]);
    std::thread::sleep(Duration::from_millis(200));
    display.xdotool(&["keyup", "ctrl"]);
    std::thread::sleep(Duration::from_millis(500));
    let undone = display.screenshot(&dir.join("undone.png"));
    let _ = app.kill();
    let output = app.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!stderr.contains("undo.ron:"), "the scene did not load: {stderr}");
    let glider_undone = centroid_of(&undone, glider_colour).expect("glider visible").0;
    let star_left = differs(&star_region(&before), &star_region(&undone));
    let travelled = glider_undone - glider_placed;
    eprintln!("star: {star_drawn} px drawn, {star_left} px left after undo; glider moved {travelled:.0} px between placing and undoing");
    assert!(
        star_left < star_drawn / 10,
        "the star is still there (see {})",
        dir.display()
    );
    // 1.5 m/s for about 3 s at some 40 px/m: about 180 px. Rewound to the edit, it
    // would be back near where it was when the star was placed.
    assert!(
        travelled > 90.0,
        "the glider was rewound: moved {travelled:.0} px (see {})",
        dir.display()
    );
}

/// A double click in the file dialog opens the file even at about 10 frames a second
/// (the 5050-box pyramid runs behind it): input does not depend on the frame rate.
#[test]
fn a_double_click_in_the_file_dialog_opens_the_file_at_a_low_frame_rate() {
    if !display_tools_available(&["Xvfb", "xdotool", "import"]) {
        return;
    }
    let dir = out_dir("dialog_click");
    let folder = dir.join("scenes");
    std::fs::create_dir_all(&folder).unwrap();
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    std::fs::copy(manifest.join("tests/data/undo.ron"), folder.join("glider.ron")).unwrap();
    // The dialog opens in the current scene's folder.
    std::fs::copy(manifest.join("scenes/pyramid_100.ron"), folder.join("pyramid_100.ron")).unwrap();
    let display = VirtualDisplay::start();
    let scene = folder.join("pyramid_100.ron");
    let mut app = spawn_sandbox(&display, &[scene.as_os_str()], &dir, Some(&folder));
    wait_until_drawn(&display, &mut app, &dir, 1000);
    display.xdotool(&["mousemove", "640", "150"]);
    std::thread::sleep(Duration::from_millis(300));
    display.xdotool(&["keydown", "ctrl"]);
    std::thread::sleep(Duration::from_millis(400));
    display.xdotool(&["key", "o"]);
    std::thread::sleep(Duration::from_millis(400));
    display.xdotool(&["keyup", "ctrl"]);
    std::thread::sleep(Duration::from_millis(2000));
    display.screenshot(&dir.join("dialog.png"));
    // The first entry of the list (glider.ron, before pyramid_100.ron). A double click
    // as a hand makes it, 150 ms apart: the two clicks fall in different frames.
    display.xdotool(&["mousemove", "500", "341"]);
    std::thread::sleep(Duration::from_millis(500));
    display.xdotool(&["click", "--repeat", "2", "--delay", "150", "1"]);
    std::thread::sleep(Duration::from_millis(3000));
    let opened = display.screenshot(&dir.join("opened.png"));
    let _ = app.kill();
    let _ = app.wait();
    let glider = centroid_of(&opened, [237, 189, 84]);
    let coverage = world_view_coverage(&opened);
    eprintln!(
        "after the double click: glider {glider:?}, world view coverage {:.1}%",
        coverage * 100.0
    );
    assert!(glider.is_some(), "the file did not open (see {})", dir.display());
    assert!(coverage < 0.1, "the pyramid is still shown (see {})", dir.display());
}

/// Regression: with GjkEpa chosen, the separating-axes header ("… GjkEpa tests no
/// axes, these are SatDecomposed's") ran on under the right panel and showed a
/// missing-glyph box for its dash. It now wraps inside the world view: no light text
/// pixel in the header's rows reaches the panel's edge.
#[test]
fn the_axes_header_wraps_inside_the_world_view_with_gjk_epa() {
    if !display_tools_available(&["xvfb-run", "Xvfb"]) {
        return;
    }
    let dir = out_dir("axes_header");
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(manifest.join("scenes/default.ron")).unwrap();
    let scene = dir.join("default_gjk.ron");
    std::fs::write(
        &scene,
        text.replace("narrow_phase: SatDecomposed", "narrow_phase: GjkEpa"),
    )
    .unwrap();
    let img = render_sized(
        &scene,
        &dir.join("axes.png"),
        "1280x800",
        &["--frames", "90", "--ui", "--debug", "axes"],
    );
    // The world view spans x 260..932 at 1280x800; the header sits in its top rows.
    let light = |x: u32, y: u32| img.get_pixel(x, y).0[..3].iter().all(|&c| c > 150);
    let rows_with_text: Vec<u32> = (28..110).filter(|&y| (270..900).any(|x| light(x, y))).collect();
    let rightmost = (28..110)
        .flat_map(|y| (262..932).filter(move |&x| light(x, y)))
        .max()
        .unwrap_or(0);
    eprintln!(
        "header: text on {} rows, rightmost light pixel at x = {rightmost}",
        rows_with_text.len()
    );
    assert!(rows_with_text.len() > 20, "no header drawn (see {})", dir.display());
    assert!(
        rightmost < 920,
        "the header runs to the panel's edge (see {})",
        dir.display()
    );
}
