//! # The sandbox window
//!
//! macroquad draws the world, egui (through egui-macroquad) draws the overlay. The
//! loop of one frame:
//!
//! ```text
//! input   = gather()                 // macroquad → FrameInput (plain data)
//! camera, keys, tools react to input // state changes, undoable edits
//! state.advance(frame time)          // fixed steps from the accumulator clock
//! overlay = panels.ui(state)         // egui: settings, plots, inspector, files
//! draw world, debug layers, previews // reads state only
//! draw overlay; screenshot if asked; next frame
//! ```
//!
//! `AppState` (state.rs) owns the world and every choice around it; each panel is one
//! file under `panels/`; `draw/` only reads. Nothing here is imported by the core.

pub mod camera;
pub mod counts;
pub mod debug_cache;
pub mod draw;
pub mod files;
pub mod flags;
pub mod frame_stats;
pub mod gl_info;
pub mod history;
pub mod input;
pub mod inset;
pub mod labels;
pub mod lesson;
pub mod options;
pub mod panels;
pub mod pick;
pub mod screenshot;
pub mod shapes;
pub mod state;
pub mod stir;
pub mod tools;
pub mod undo;

use crate::math::Vec2;
use input::{FrameInput, Key};
use macroquad::prelude as mq;
use state::AppState;
use std::path::PathBuf;

use frame_stats::{FrameStats, STATS_WARMUP_FRAMES};
pub use options::{AppOptions, Mode, RenderOptions, DEFAULT_WINDOW_SIZE};
use std::time::Instant;

/// The scene `collision-lab` opens with no argument: built into the binary, so the
/// sandbox opens the same way from any directory.
pub const DEFAULT_SCENE_RON: &str = include_str!("../../scenes/default.ron");
/// Where the built-in default scene would be, relative to the repository (shown as its
/// name, and used as the directory of Save As).
pub const DEFAULT_SCENE_NAME: &str = "scenes/default.ron";

/// Opens the window and runs until it closes (or the render is written). Returns the
/// process's outcome: `Err` with a message if a render could not be written.
pub fn run(options: AppOptions) -> Result<(), String> {
    if cfg!(target_os = "linux")
        && std::env::var_os("DISPLAY").is_none_or(|d| d.is_empty())
        && std::env::var_os("WAYLAND_DISPLAY").is_none_or(|d| d.is_empty())
    {
        return Err(
            "no display to open the sandbox window on (DISPLAY is not set). On a machine \
without a screen use `xvfb-run collision-lab …`, or the headless commands `contacts` and `run` \
(see `collision-lab --help`)"
                .to_string(),
        );
    }
    let samples = gl_info::window_sample_count(
        std::env::var("COLLISION_LAB_MSAA").ok().as_deref(),
        gl_info::gpu_likely(),
    );
    let conf = mq::Conf {
        window_title: "Collision Lab".to_string(),
        window_width: options.window_size.0,
        window_height: options.window_size.1,
        high_dpi: true,
        window_resizable: true,
        // Multisampling smooths edges; software GL (no GPU, e.g. under Xvfb) pays for it
        // per pixel, so it is off where no GPU is found (`gl_info`).
        sample_count: samples,
        ..Default::default()
    };
    let outcome = std::sync::Arc::new(std::sync::Mutex::new(Ok(())));
    let outcome_in_loop = outcome.clone();
    // The window system refusing us (a display that cannot be opened, no OpenGL) is a
    // panic inside miniquad; turn it into an error the command line can print.
    let opened = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        macroquad::Window::from_config(conf, async move {
            let result = window_loop(options, samples).await;
            *outcome_in_loop.lock().unwrap_or_else(|e| e.into_inner()) = result;
        });
    }));
    if let Err(panic) = opened {
        let why = panic
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| panic.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "unknown reason".to_string());
        return Err(format!("the sandbox window could not open: {why}"));
    }
    let result = outcome.lock().unwrap_or_else(|e| e.into_inner()).clone();
    result
}

/// The window's frame loop: input → simulate → overlay → draw → finish, each a
/// function below. What a frame hands the next lives in [`Frames`].
async fn window_loop(options: AppOptions, samples: i32) -> Result<(), String> {
    let (mut state, mut panels, render) = open_window(&options)?;
    let mut frames = Frames::new();
    loop {
        if render.is_none() && frames.wants_to_close(&options, &mut panels, &state) {
            if options.frame_stats {
                let mut line = frames.recorder.summary().to_json();
                // Which GL drew the frames, and with how many samples per pixel.
                line.pop();
                line += &format!(
                    ",\"msaa\":{samples},\"renderer\":{}}}",
                    serde_json::Value::from(frames.renderer.as_deref().unwrap_or("unknown"))
                );
                // In a lesson, predict mode's score too (scripts and the window tests).
                let board = (state.lesson.as_ref().map(|m| &m.predict.board))
                    .or(state.topic.as_ref().map(|m| &m.predict.board));
                if let Some(b) = board {
                    line.pop();
                    line += &format!(
                        ",\"predictions\":{{\"asked\":{},\"hits\":{},\"skipped\":{}}}}}",
                        b.asked(),
                        b.hits(),
                        b.skipped
                    );
                }
                println!("{line}");
            }
            return Ok(());
        }
        let screen = Vec2::new(mq::screen_width(), mq::screen_height());
        // A resized window keeps the world point at its centre where it is.
        state.camera.screen_size_px = screen;
        let mut intents = handle_input(&mut state, &mut panels, &render, &mut frames);
        let (simulated_s, simulation_ms) = simulate(&mut state, &render, frames.frame);
        let ui_start = Instant::now();
        overlay(&mut state, &mut panels, &render, &mut frames, &mut intents, screen);
        let ui_ms = ui_start.elapsed().as_secs_f64() * 1e3;
        let (drawing_ms, overlay_paint_ms) = draw_frame(&mut state, &render, screen);
        let times = history::FrameTimes {
            simulation_ms,
            ui_ms: ui_ms + overlay_paint_ms,
            drawing_ms,
            present_ms: frames.present_ms,
            frame_ms: f64::from(mq::get_frame_time()) * 1e3,
        };
        // The next frame's steps get what the drawing leaves of the target frame time.
        state
            .clock
            .fit_step_budget((times.ui_ms + times.drawing_ms + times.present_ms) / 1e3);
        if let Some(done) = finish_frame(&mut state, &render, &mut frames, &intents, times, simulated_s) {
            return done;
        }
        let present_start = Instant::now();
        mq::next_frame().await;
        frames.present_ms = present_start.elapsed().as_secs_f64() * 1e3;
        if frames.frame == 2 && frames.renderer.is_none() {
            frames.renderer = gl_info::renderer_name();
            let advice = frames.renderer.as_deref().and_then(|r| gl_info::advice(r, samples));
            // An error from opening the scene stays in the status bar: it matters more.
            if let (Some(text), false) = (advice, state.status.as_ref().is_some_and(|s| s.is_error)) {
                state.set_status(text);
            }
        }
    }
}

/// What one frame hands the next.
struct Frames {
    /// Frames drawn so far.
    frame: u32,
    /// When the loop began (wall clock).
    started: Instant,
    /// The cursor at the previous frame (px): drags move by the difference.
    last_mouse_px: Vec2,
    /// Whether egui wanted the pointer and the keyboard in the previous frame's layout.
    ui_wants: (bool, bool),
    /// The frame at which the view is fitted to the space the panels leave: the first,
    /// and again once the sandbox's panels have slid in after leaving a lesson.
    fit_at_frame: u32,
    /// Render --stats: frame times summed after the first few (shader compilation, the
    /// first egui layout) settle.
    stats: FrameStats,
    /// Open --frame-stats: every frame after the first (whose time counts from the
    /// window's creation, not from a frame before it).
    recorder: frame_stats::FrameRecorder,
    /// How long the previous frame's present (GL draw calls and swap) took (ms).
    present_ms: f64,
    /// The GL renderer's name, read once the first frames are presented.
    renderer: Option<String>,
}

impl Frames {
    fn new() -> Frames {
        Frames {
            frame: 0,
            started: Instant::now(),
            last_mouse_px: Vec2::from(mq::mouse_position()),
            ui_wants: (false, false),
            fit_at_frame: 0,
            stats: FrameStats::default(),
            recorder: frame_stats::FrameRecorder::default(),
            present_ms: 0.0,
            renderer: None,
        }
    }

    /// The time given by `--exit-after` is up, or the user closed the window and either
    /// has nothing to lose or confirmed losing it.
    fn wants_to_close(&self, options: &AppOptions, panels: &mut panels::Panels, state: &AppState) -> bool {
        let time_is_up = options
            .exit_after_s
            .is_some_and(|limit| self.started.elapsed().as_secs_f64() >= limit);
        time_is_up || ((mq::is_quit_requested() || panels.files.quit_confirmed) && panels.files.quit_requested(state))
    }
}

/// What the input phase asks of the rest of the frame.
struct FrameIntents {
    /// P was pressed (or the overlay asked): save a screenshot at the end of the frame.
    screenshot: bool,
    /// The frame began in lesson mode.
    in_lesson: bool,
    /// Tab toggles the side panels this frame: egui must drop its keyboard focus.
    tab_toggles_panels: bool,
}

/// The state, the panels and the render options of a new window on `options`' scene.
fn open_window(options: &AppOptions) -> Result<(AppState, panels::Panels, Option<RenderOptions>), String> {
    let screen = Vec2::new(mq::screen_width(), mq::screen_height());
    let mut state = AppState::new(&options.scene, options.path.clone(), screen);
    let resumed = files::resume_note(&state.world);
    if !resumed.is_empty() {
        state.set_status(format!("opened {}{resumed}", state.scene_name()));
    }
    if let Some(error) = &options.startup_error {
        // The same message File > Open gives for a bad file, and what was opened instead.
        state.set_error(format!("not opened: {error} (showing the default scene)"));
    }
    if let Some(speed) = input::egui_line_scroll_speed() {
        egui_macroquad::cfg(|ctx| ctx.options_mut(|o| o.line_scroll_speed = speed));
    }
    let render = match &options.mode {
        Mode::Render(r) => {
            state.debug = r.debug.clone();
            if let Some(mode) = state.lesson.as_mut() {
                r.lesson.apply(mode)?;
            }
            if let Some(mode) = state.topic.as_mut() {
                r.lesson.apply_topic(mode)?;
            }
            Some(r.clone())
        }
        Mode::Interactive => None,
    };
    if render.is_none() {
        // Closing the window with unsaved edits asks first (see FilesPanel::quit_requested).
        mq::prevent_quit();
    }
    Ok((state, panels::Panels::default(), render))
}

/// Input: reads this frame's mouse, keys and dropped files and applies them to the
/// world, the camera, the tools or the lesson (nothing when rendering). Reads egui's
/// wishes of the previous frame; writes the state and `frames.last_mouse_px`.
fn handle_input(
    state: &mut AppState,
    panels: &mut panels::Panels,
    render: &Option<RenderOptions>,
    frames: &mut Frames,
) -> FrameIntents {
    // egui's wishes are those of the previous frame's layout, as egui expects.
    let mut input: FrameInput = input::gather(frames.ui_wants.0, frames.ui_wants.1);
    // egui's answer is a frame old: a cursor that moved onto a panel and scrolled in
    // the same frame would zoom the world. The free viewport of this frame's layout
    // settles it for the side panels (floating windows still rely on egui).
    let (view_lo, view_hi) = state.viewport_px;
    let m = input.mouse_px;
    if show_ui_in(render) && !(m.x >= view_lo.x && m.y >= view_lo.y && m.x < view_hi.x && m.y < view_hi.y) {
        input.ui_wants_pointer = true;
    }
    input.dropped_files = mq::get_dropped_files().into_iter().filter_map(|f| f.path).collect();
    if panels.modal_open() {
        input.withhold_for_modal();
    }
    let in_lesson = state.in_lesson();
    // Tab hides the side panels (input::global_keys); egui would also take it to move
    // its keyboard focus, and a focused button then keeps every later key.
    let tab_toggles_panels = render.is_none() && !in_lesson && !input.ui_wants_keyboard && input.key(Key::Tab);
    let mut screenshot = false;
    if render.is_none() {
        if state.topic.is_some() {
            lesson::topic_mode::handle_app(state, &input, frames.last_mouse_px);
        } else if in_lesson {
            lesson::input::handle_app(state, &input, frames.last_mouse_px);
        } else {
            input::camera_input(state, &input, frames.last_mouse_px);
            input::global_keys(state, &input);
            tools::handle_input(state, &input);
        }
        panels.files.handle_input(state, &input);
        screenshot = !input.ui_wants_keyboard && input.key(Key::P);
    }
    frames.last_mouse_px = input.mouse_px;
    FrameIntents {
        screenshot,
        in_lesson,
        tab_toggles_panels,
    }
}

/// Simulation: the steps the clock owes (within its budget), a render's fixed steps,
/// or, in lesson mode, the player's recorded steps. Returns the simulated seconds and
/// the wall time it took (ms).
fn simulate(state: &mut AppState, render: &Option<RenderOptions>, frame: u32) -> (f64, f64) {
    let start = Instant::now();
    let mut simulated_s = 0.0;
    match render {
        // Lesson mode: time is frozen; only the player moves, through recorded steps.
        _ if state.topic.is_some() => lesson::topic_mode::advance(state, render.is_none()),
        _ if state.lesson.is_some() => lesson::advance_player(state, render.is_none()),
        Some(r) => {
            if frame > 0 {
                for _ in 0..r.steps_per_frame {
                    state.step_once();
                }
            }
        }
        None => {
            let dt = state.clock.dt_seconds();
            simulated_s = f64::from(state.advance(f64::from(mq::get_frame_time()))) * dt;
        }
    }
    (simulated_s, start.elapsed().as_secs_f64() * 1e3)
}

/// Overlay: lays out the egui panels (which read the state and return their requests),
/// records what egui wants of the next frame's input, and fits the view once the
/// panels' sizes are known.
fn overlay(
    state: &mut AppState,
    panels: &mut panels::Panels,
    render: &Option<RenderOptions>,
    frames: &mut Frames,
    intents: &mut FrameIntents,
    screen: Vec2,
) {
    if !show_ui_in(render) {
        state.viewport_px = (Vec2::ZERO, screen);
        if frames.frame == 0 {
            // The window has its real size now.
            state.fit_view();
        }
        return;
    }
    let (click_s, double_click_s) = input::egui_click_timing(f64::from(mq::get_frame_time()));
    egui_macroquad::cfg(|ctx| {
        ctx.options_mut(|o| {
            o.input_options.max_click_duration = click_s;
            o.input_options.max_double_click_delay = double_click_s;
        });
    });
    let mut ui_wants = frames.ui_wants;
    egui_macroquad::ui(|ctx| {
        input::unstick_egui_modifiers(ctx);
        let requests = panels.ui(ctx, state);
        requests.apply(state, panels);
        intents.screenshot |= requests.screenshot;
        if intents.tab_toggles_panels {
            ctx.memory_mut(|m| {
                if let Some(id) = m.focused() {
                    m.surrender_focus(id);
                }
            });
        }
        ui_wants = (
            ctx.wants_pointer_input() || ctx.is_pointer_over_area(),
            ctx.wants_keyboard_input(),
        );
    });
    frames.ui_wants = ui_wants;
    if frames.frame == frames.fit_at_frame {
        // The panels' sizes are known now: fit the scene in the space they leave.
        state.fit_view();
    }
    if intents.in_lesson && !state.in_lesson() {
        // egui's slide-in takes about 0.1 s.
        frames.fit_at_frame = frames.frame + 12;
    }
}

/// Drawing: the world (or the lesson's views), then the overlay. The debug cache is
/// refreshed first: drawing itself only reads. Returns the world's drawing time and the
/// overlay's painting time (ms; the latter counts as UI).
fn draw_frame(state: &mut AppState, render: &Option<RenderOptions>, screen: Vec2) -> (f64, f64) {
    let start = Instant::now();
    state.update_debug_cache();
    mq::clear_background(draw::colors::BACKGROUND);
    let viewport = state.viewport_px;
    if let Some(mode) = state.lesson.as_mut() {
        mode.fit_if_needed(screen, viewport);
        // "Export SVG", or a render that writes one: record this frame's views.
        let record = mode.export_svg || render.as_ref().is_some_and(|r| r.svg_out.is_some());
        if record {
            lesson::svg::start(screen);
        }
        lesson::draw(mode);
        if record {
            mode.last_svg = lesson::svg::finish();
        }
    } else if let Some(mode) = state.topic.as_mut() {
        mode.fit_if_needed(screen, viewport);
        let record = mode.export_svg || render.as_ref().is_some_and(|r| r.svg_out.is_some());
        if record {
            lesson::svg::start(screen);
        }
        lesson::topic_view::draw(mode);
        if record {
            mode.last_svg = lesson::svg::finish();
        }
    } else {
        draw::world::draw_grid(state);
        draw::world::draw_bodies(state);
        draw::debug::draw_debug(state);
        draw::palette::draw_tool_preview(state);
    }
    let drawing_ms = start.elapsed().as_secs_f64() * 1e3;
    let mut paint_ms = 0.0;
    if show_ui_in(render) {
        let paint_start = Instant::now();
        egui_macroquad::draw();
        paint_ms = paint_start.elapsed().as_secs_f64() * 1e3;
    }
    (drawing_ms, paint_ms)
}

/// The frame's bookkeeping: frame statistics, the render's picture (and the end of a
/// render: `Some` is the loop's result), a requested screenshot, the timing history.
fn finish_frame(
    state: &mut AppState,
    render: &Option<RenderOptions>,
    frames: &mut Frames,
    intents: &FrameIntents,
    times: history::FrameTimes,
    simulated_s: f64,
) -> Option<Result<(), String>> {
    if frames.frame > 0 {
        frames.recorder.record(f64::from(mq::get_frame_time()), simulated_s);
    }
    if let Some(r) = render {
        if frames.frame >= STATS_WARMUP_FRAMES {
            frames.stats.add(&times);
        }
        if frames.frame >= r.frames {
            if r.stats {
                println!("{}", frames.stats.summary(state.world.bodies().len()));
            }
            let last_svg = (state.lesson.as_ref().and_then(|m| m.last_svg.as_ref()))
                .or(state.topic.as_ref().and_then(|m| m.last_svg.as_ref()));
            if let (Some(path), Some(svg)) = (&r.svg_out, last_svg) {
                if let Err(e) = crate::scene::write_atomically(path, svg.as_bytes()) {
                    return Some(Err(format!("cannot write {}: {e}", path.display())));
                }
            }
            let question = (state.lesson.as_ref().map(|m| m.next_question_json()))
                .or(state.topic.as_ref().map(|m| m.next_question_json()));
            if let (Some(path), Some(question)) = (&r.predict_out, question) {
                if let Err(e) = std::fs::write(path, question.to_string() + "\n") {
                    return Some(Err(format!("cannot write {}: {e}", path.display())));
                }
            }
            if let Some(path) = &r.labels_out {
                let json = lesson::labels_json(&lesson::paint::last_frame_labels()).to_string();
                if let Err(e) = std::fs::write(path, json + "\n") {
                    return Some(Err(format!("cannot write {}: {e}", path.display())));
                }
            }
            return Some(save_screenshot(&r.out).map(|_| ()));
        }
    } else if let Some(svg) = (state.lesson.as_mut().filter(|m| m.export_svg).and_then(|m| {
        m.export_svg = false;
        m.last_svg.take()
    }))
    .or_else(|| {
        state.topic.as_mut().filter(|m| m.export_svg).and_then(|m| {
            m.export_svg = false;
            m.last_svg.take()
        })
    }) {
        let dir = screenshot::screenshot_dir();
        let path = screenshot::next_path(&dir, "svg");
        let written =
            std::fs::create_dir_all(&dir).and_then(|()| crate::scene::write_atomically(&path, svg.as_bytes()));
        match written {
            Ok(()) => state.set_status(format!("lesson step saved as SVG: {}", path.display())),
            Err(e) => state.set_error(format!("SVG not saved to {}: {e}", path.display())),
        }
    } else if intents.screenshot {
        match save_screenshot(&screenshot::next_screenshot_path(&screenshot::screenshot_dir())) {
            Ok(path) => state.set_status(format!("screenshot saved: {}", path.display())),
            Err(e) => state.set_error(e),
        }
    }
    state.history.push_frame(frames.started.elapsed().as_secs_f64(), times);
    frames.frame += 1;
    None
}

/// Whether this run draws the overlay (always, but for a render without `--ui`).
fn show_ui_in(render: &Option<RenderOptions>) -> bool {
    render.as_ref().is_none_or(|r| r.with_ui)
}

/// Writes what the window shows now to `path`.
fn save_screenshot(path: &std::path::Path) -> Result<PathBuf, String> {
    let image = mq::get_screen_data();
    screenshot::write_png_bottom_up(path, u32::from(image.width), u32::from(image.height), &image.bytes)?;
    Ok(path.to_path_buf())
}
