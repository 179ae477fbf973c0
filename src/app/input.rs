//! One frame of user input as plain data.
//!
//! [`gather`] reads macroquad once per frame; everything that reacts to input (camera,
//! keys, tools) takes a [`FrameInput`], so it can be tested by feeding made-up frames —
//! no window needed.

use super::state::AppState;
use crate::math::Vec2;

/// A mouse button.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Button {
    /// Left: select, drag bodies, place shapes, click vertices.
    Left,
    /// Right: pan.
    Right,
    /// Middle: pan.
    Middle,
}

/// Keys the sandbox reacts to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Key {
    /// Pause / run.
    Space,
    /// Single step.
    Period,
    /// Reset to the loaded scene.
    R,
    /// Narrow phases 1, 2, 3.
    Digit1,
    /// See [`Key::Digit1`].
    Digit2,
    /// See [`Key::Digit1`].
    Digit3,
    /// Fit the scene.
    F,
    /// Screenshot.
    P,
    /// Help overlay.
    H,
    /// Hide or show the side panels.
    Tab,
    /// Undo (with Ctrl), redo (with Ctrl+Shift).
    Z,
    /// Redo (with Ctrl).
    Y,
    /// Delete the selection.
    Delete,
    /// Duplicate the selection (with Ctrl).
    D,
    /// Save (with Ctrl; with Shift: save as).
    S,
    /// Open (with Ctrl).
    O,
    /// Cancel the current tool action.
    Escape,
    /// Finish a polygon being drawn.
    Enter,
    /// Remove the last vertex of a polygon being drawn.
    Backspace,
    /// One step per frame (slow mode) on or off.
    N,
    /// The launcher tool on or off.
    L,
    /// Rotate the held body (Q counter-clockwise, E clockwise).
    Q,
    /// See [`Key::Q`].
    E,
    /// Lesson player: predict mode on or off.
    K,
    /// Lesson player: next step.
    Right,
    /// Lesson player: previous step.
    Left,
    /// Lesson player: first step.
    Home,
    /// Lesson player: last step.
    End,
}

/// Everything the sandbox reads from the user in one frame.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FrameInput {
    /// Cursor position (logical px, y-down).
    pub mouse_px: Vec2,
    /// Buttons that went down this frame.
    pub pressed: Vec<Button>,
    /// Buttons that went up this frame.
    pub released: Vec<Button>,
    /// Buttons held down.
    pub down: Vec<Button>,
    /// Wheel movement this frame (positive: away from the user; roughly 1 per notch).
    pub wheel: f32,
    /// Keys that went down this frame.
    pub keys: Vec<Key>,
    /// Ctrl (or Cmd) held.
    pub ctrl: bool,
    /// Shift held.
    pub shift: bool,
    /// Alt held.
    pub alt: bool,
    /// The overlay has the pointer (over a panel, or dragging a widget): the world must
    /// not react to clicks and the wheel.
    pub ui_wants_pointer: bool,
    /// The overlay has the keyboard (a text field has focus).
    pub ui_wants_keyboard: bool,
    /// Files dropped onto the window this frame.
    pub dropped_files: Vec<std::path::PathBuf>,
}

impl FrameInput {
    /// A modal dialog is open: nothing of this frame reaches the world, the tools or the
    /// shortcuts (egui still gets every event, and the dialog is the only thing it lets
    /// the user reach). Releases and held buttons stay, so a drag under way ends cleanly.
    pub fn withhold_for_modal(&mut self) {
        self.pressed.clear();
        self.keys.clear();
        self.wheel = 0.0;
        self.dropped_files.clear();
        self.ui_wants_pointer = true;
        self.ui_wants_keyboard = true;
    }

    /// True when `button` went down this frame.
    pub fn pressed(&self, button: Button) -> bool {
        self.pressed.contains(&button)
    }

    /// True when `button` went up this frame.
    pub fn released(&self, button: Button) -> bool {
        self.released.contains(&button)
    }

    /// True while `button` is held.
    pub fn down(&self, button: Button) -> bool {
        self.down.contains(&button)
    }

    /// True when `key` went down this frame.
    pub fn key(&self, key: Key) -> bool {
        self.keys.contains(&key)
    }
}

/// Pan and zoom: right or middle drag pans, the wheel zooms about the cursor. Returns
/// true when the camera used the input. `last_mouse_px` is the cursor of the previous
/// frame.
pub fn camera_input(state: &mut AppState, input: &FrameInput, last_mouse_px: Vec2) -> bool {
    let mut used = false;
    let panning = input.down(Button::Right) || input.down(Button::Middle);
    if panning && !input.pressed(Button::Right) && !input.pressed(Button::Middle) && !state.pan_started_in_ui {
        state.camera.pan_by_screen(input.mouse_px - last_mouse_px);
        used = true;
    }
    if input.pressed(Button::Right) || input.pressed(Button::Middle) {
        state.pan_started_in_ui = input.ui_wants_pointer;
    }
    // The wheel rotates a held body (see tools); otherwise it zooms.
    if input.wheel != 0.0 && !input.ui_wants_pointer && !state.tools.wants_wheel() {
        state.camera.zoom_about(input.mouse_px, 1.1f32.powf(input.wheel));
        used = true;
    }
    used
}

/// The keys that are not a tool's: pause, step, reset, narrow phase, fit, help, undo,
/// one step per frame.
/// The screenshot key (P) and the file keys are handled by the window loop, which owns
/// the screen and the dialogs.
pub fn global_keys(state: &mut AppState, input: &FrameInput) {
    if input.ui_wants_keyboard {
        return;
    }
    for &key in &input.keys {
        match key {
            Key::Space => state.clock.toggle_pause(),
            Key::Period => {
                state.clock.pause();
                state.clock.request_single_step();
            }
            Key::R if !input.ctrl => state.reset(),
            Key::Digit1 => state.set_narrow_phase(crate::narrow::Algorithm::ALL[0]),
            Key::Digit2 => state.set_narrow_phase(crate::narrow::Algorithm::ALL[1]),
            Key::Digit3 => state.set_narrow_phase(crate::narrow::Algorithm::ALL[2]),
            Key::F => state.fit_view(),
            Key::H => state.show_help = !state.show_help,
            Key::Tab => state.hide_side_panels = !state.hide_side_panels,
            Key::N => {
                state.one_step_per_frame = !state.one_step_per_frame;
                state.set_status(if state.one_step_per_frame {
                    "one step per frame: every frame runs exactly one fixed step (N again: real time)"
                } else {
                    "real time: the clock decides the steps again"
                });
            }
            Key::Z if input.ctrl && input.shift => state.redo(),
            Key::Z if input.ctrl => state.undo(),
            Key::Y if input.ctrl => state.redo(),
            _ => {}
        }
    }
}

/// How far one wheel notch scrolls a panel (logical px): about what GTK and browsers
/// scroll, three lines of text.
pub const PANEL_PX_PER_NOTCH: f32 = 50.0;

/// egui-macroquad divides the native wheel delta by this and hands it to egui as lines
/// (egui-macroquad 0.17, `mouse_wheel_event`).
const EGUI_MACROQUAD_WHEEL_DIVISOR: f32 = 90.0;

/// The wheel delta miniquad reports for one notch on this platform: 1.0 on X11 (buttons
/// 4 and 5), 120 (`WHEEL_DELTA`) on Windows; `None` where deltas are pixels already
/// (macOS trackpads, Wayland), whose scaling egui's default suits.
fn miniquad_delta_per_notch() -> Option<f32> {
    if cfg!(target_os = "linux") {
        Some(1.0)
    } else if cfg!(target_os = "windows") {
        Some(120.0)
    } else {
        None
    }
}

/// egui's `line_scroll_speed` (points per line of wheel input) that makes one notch
/// scroll [`PANEL_PX_PER_NOTCH`]. Why it is needed: on X11 a notch reached egui as
/// 1/90 of a line, 0.44 px at egui's default 40 px per line, and twenty notches moved a
/// panel by 8 px. `None`: keep egui's default.
pub fn egui_line_scroll_speed() -> Option<f32> {
    miniquad_delta_per_notch().map(|delta| PANEL_PX_PER_NOTCH * EGUI_MACROQUAD_WHEEL_DIVISOR / delta)
}

/// egui's own click timing (egui 0.31 defaults): a press longer than this is not a click…
const EGUI_MAX_CLICK_S: f64 = 0.8;
/// …and a second click within this of the first is a double click.
const EGUI_MAX_DOUBLE_CLICK_S: f64 = 0.3;
/// Longest frame the click timing makes up for (the simulation clock's clamp).
const MAX_FRAME_S: f64 = 0.25;

/// egui's `(max_click_duration, max_double_click_delay)` for frames of `frame_s`.
///
/// Why: egui-miniquad stamps every event of a frame with the frame's start time, so egui
/// measures the gap between two clicks in whole frames, up to a frame more or less than
/// it was. At 20 FPS a 250 ms double click could measure 300 ms and not count; at 5 FPS
/// most did not. Widening both windows by one frame accepts every real gap egui's
/// defaults accept, whatever the frame rate.
pub fn egui_click_timing(frame_s: f64) -> (f64, f64) {
    let slack = if frame_s.is_finite() {
        frame_s.clamp(0.0, MAX_FRAME_S)
    } else {
        0.0
    };
    (EGUI_MAX_CLICK_S + slack, EGUI_MAX_DOUBLE_CLICK_S + slack)
}

/// Which modifiers are really held: egui's, less any that are up.
///
/// egui-macroquad takes egui's modifiers from each key event, and X11 reports a key's
/// event with the modifier state from before it: releasing Ctrl leaves egui believing
/// Ctrl is held until the next key event. After Ctrl+O the file dialog then took every
/// click in its list for a Ctrl+click (a multi-selection gesture) and selected nothing.
/// Modifiers are only ever cleared here, never set: egui's own presses stand.
pub fn unstuck_modifiers(egui: egui::Modifiers, ctrl: bool, shift: bool, alt: bool, command: bool) -> egui::Modifiers {
    egui::Modifiers {
        alt: egui.alt && alt,
        ctrl: egui.ctrl && ctrl,
        shift: egui.shift && shift,
        mac_cmd: egui.mac_cmd && command,
        command: egui.command && command,
    }
}

/// Clears from egui's input the modifiers macroquad says are up (see
/// [`unstuck_modifiers`]); call at the start of the egui frame.
pub fn unstick_egui_modifiers(ctx: &egui::Context) {
    use macroquad::input::{is_key_down, KeyCode};
    let ctrl = is_key_down(KeyCode::LeftControl) || is_key_down(KeyCode::RightControl);
    let command = ctrl || is_key_down(KeyCode::LeftSuper) || is_key_down(KeyCode::RightSuper);
    let shift = is_key_down(KeyCode::LeftShift) || is_key_down(KeyCode::RightShift);
    let alt = is_key_down(KeyCode::LeftAlt) || is_key_down(KeyCode::RightAlt);
    ctx.input_mut(|i| {
        i.modifiers = unstuck_modifiers(i.modifiers, ctrl, shift, alt, command);
        i.raw.modifiers = i.modifiers;
    });
}

/// Reads this frame's input from macroquad (and whether egui wants it).
pub fn gather(ui_wants_pointer: bool, ui_wants_keyboard: bool) -> FrameInput {
    use macroquad::input as mq;
    use macroquad::input::{KeyCode, MouseButton};
    let (mx, my) = mq::mouse_position();
    let buttons = [
        (MouseButton::Left, Button::Left),
        (MouseButton::Right, Button::Right),
        (MouseButton::Middle, Button::Middle),
    ];
    let keys = [
        (KeyCode::Space, Key::Space),
        (KeyCode::Period, Key::Period),
        (KeyCode::R, Key::R),
        (KeyCode::Key1, Key::Digit1),
        (KeyCode::Key2, Key::Digit2),
        (KeyCode::Key3, Key::Digit3),
        (KeyCode::F, Key::F),
        (KeyCode::P, Key::P),
        (KeyCode::H, Key::H),
        (KeyCode::Tab, Key::Tab),
        (KeyCode::Z, Key::Z),
        (KeyCode::Y, Key::Y),
        (KeyCode::Delete, Key::Delete),
        (KeyCode::D, Key::D),
        (KeyCode::S, Key::S),
        (KeyCode::O, Key::O),
        (KeyCode::Escape, Key::Escape),
        (KeyCode::Enter, Key::Enter),
        (KeyCode::KpEnter, Key::Enter),
        (KeyCode::Backspace, Key::Backspace),
        (KeyCode::N, Key::N),
        (KeyCode::L, Key::L),
        (KeyCode::Q, Key::Q),
        (KeyCode::E, Key::E),
        (KeyCode::K, Key::K),
        (KeyCode::Right, Key::Right),
        (KeyCode::Left, Key::Left),
        (KeyCode::Home, Key::Home),
        (KeyCode::End, Key::End),
    ];
    // A modifier counts as held if it went down this frame too: at a low frame rate a
    // whole chord (Ctrl down, S, Ctrl up) can fall within one frame, and "is it down
    // now" would then miss the Ctrl of Ctrl+S.
    let held = |k: KeyCode| mq::is_key_down(k) || mq::is_key_pressed(k);
    let (_, wheel_y) = mq::mouse_wheel();
    // Wheels report 1 per notch on some platforms and 120 on others; keep the sign and a
    // notch's worth.
    let wheel = if wheel_y == 0.0 {
        0.0
    } else {
        wheel_y.signum() * wheel_y.abs().min(3.0)
    };
    FrameInput {
        mouse_px: Vec2::new(mx, my),
        pressed: buttons
            .iter()
            .filter(|(b, _)| mq::is_mouse_button_pressed(*b))
            .map(|&(_, b)| b)
            .collect(),
        released: buttons
            .iter()
            .filter(|(b, _)| mq::is_mouse_button_released(*b))
            .map(|&(_, b)| b)
            .collect(),
        down: buttons
            .iter()
            .filter(|(b, _)| mq::is_mouse_button_down(*b))
            .map(|&(_, b)| b)
            .collect(),
        wheel,
        keys: keys
            .iter()
            .filter(|(k, _)| mq::is_key_pressed(*k))
            .map(|&(_, k)| k)
            .collect(),
        ctrl: held(KeyCode::LeftControl)
            || held(KeyCode::RightControl)
            || held(KeyCode::LeftSuper)
            || held(KeyCode::RightSuper),
        shift: held(KeyCode::LeftShift) || held(KeyCode::RightShift),
        alt: held(KeyCode::LeftAlt) || held(KeyCode::RightAlt),
        ui_wants_pointer,
        ui_wants_keyboard,
        dropped_files: Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn state() -> AppState {
        let scene = crate::scene::parse(include_str!("../../scenes/minimal.ron"), "minimal.ron").unwrap();
        AppState::new(&scene, None, Vec2::new(800.0, 600.0))
    }

    fn frame(mouse: (f32, f32)) -> FrameInput {
        FrameInput {
            mouse_px: Vec2::new(mouse.0, mouse.1),
            ..FrameInput::default()
        }
    }

    /// One notch, as miniquad reports it and egui-macroquad forwards it, scrolls a
    /// panel by [`PANEL_PX_PER_NOTCH`] (it used to be 0.44 px on X11).
    #[test]
    fn one_wheel_notch_scrolls_a_panel_about_fifty_px() {
        if let (Some(speed), Some(delta)) = (egui_line_scroll_speed(), miniquad_delta_per_notch()) {
            let lines = delta / EGUI_MACROQUAD_WHEEL_DIVISOR;
            assert!((lines * speed - PANEL_PX_PER_NOTCH).abs() < 1e-3);
        }
    }

    /// Two clicks 280 ms apart are a double click at any frame rate: egui sees each event
    /// at the start of the frame after it, and the widened window absorbs that.
    #[test]
    fn a_double_click_counts_at_any_frame_rate() {
        for fps in [60.0, 20.0, 8.0, 4.0] {
            let frame_s = 1.0 / fps;
            let (_, window) = egui_click_timing(frame_s);
            for phase in 0..10 {
                let first = 0.013 + 0.1 * f64::from(phase) * frame_s;
                let seen = |t: f64| (t / frame_s).ceil() * frame_s;
                let gap = seen(first + 0.28) - seen(first);
                assert!(gap < window, "{fps} FPS: measured {gap} s, window {window} s");
            }
        }
        assert_eq!(egui_click_timing(0.0), (EGUI_MAX_CLICK_S, EGUI_MAX_DOUBLE_CLICK_S));
        assert_eq!(egui_click_timing(f64::NAN), (EGUI_MAX_CLICK_S, EGUI_MAX_DOUBLE_CLICK_S));
    }

    /// Tab hides the side panels and shows them again, unless a text field has the keys.
    #[test]
    fn tab_toggles_the_side_panels() {
        let mut s = state();
        let mut f = frame((10.0, 10.0));
        f.keys = vec![Key::Tab];
        global_keys(&mut s, &f);
        assert!(s.hide_side_panels);
        global_keys(&mut s, &f);
        assert!(!s.hide_side_panels);
        f.ui_wants_keyboard = true;
        global_keys(&mut s, &f);
        assert!(!s.hide_side_panels, "typing in a field");
    }

    #[test]
    fn right_drag_pans_the_world_with_the_cursor() {
        let mut s = state();
        let start = Vec2::new(300.0, 300.0);
        let grabbed = s.camera.screen_to_world(start);
        let mut f = frame((300.0, 300.0));
        f.pressed = vec![Button::Right];
        f.down = vec![Button::Right];
        camera_input(&mut s, &f, start);
        let mut last = start;
        for i in 1..=10 {
            let mut f = frame((300.0 + 5.0 * i as f32, 300.0 - 3.0 * i as f32));
            f.down = vec![Button::Right];
            camera_input(&mut s, &f, last);
            last = f.mouse_px;
        }
        let now = s.camera.world_to_screen(grabbed);
        assert!((now - Vec2::new(350.0, 270.0)).length() < 1e-2, "{now}");
    }

    #[test]
    fn a_pan_that_starts_over_a_panel_does_not_move_the_view() {
        let mut s = state();
        let before = s.camera;
        let mut f = frame((10.0, 10.0));
        f.pressed = vec![Button::Middle];
        f.down = vec![Button::Middle];
        f.ui_wants_pointer = true;
        camera_input(&mut s, &f, f.mouse_px);
        let mut g = frame((60.0, 10.0));
        g.down = vec![Button::Middle];
        camera_input(&mut s, &g, f.mouse_px);
        assert_eq!(s.camera, before);
    }

    #[test]
    fn the_wheel_zooms_about_the_cursor_unless_over_a_panel() {
        let mut s = state();
        let cursor = Vec2::new(600.0, 150.0);
        let under = s.camera.screen_to_world(cursor);
        let scale = s.camera.pixels_per_metre;
        let mut f = frame((cursor.x, cursor.y));
        f.wheel = 2.0;
        camera_input(&mut s, &f, cursor);
        assert!((s.camera.pixels_per_metre - scale * 1.21).abs() < 1e-3);
        assert!((s.camera.screen_to_world(cursor) - under).length() < 1e-4);
        let zoomed = s.camera;
        f.ui_wants_pointer = true;
        camera_input(&mut s, &f, cursor);
        assert_eq!(s.camera, zoomed);
    }

    #[test]
    fn keys_pause_step_switch_and_fit() {
        let mut s = state();
        let key = |k: Key| FrameInput {
            keys: vec![k],
            ..FrameInput::default()
        };
        global_keys(&mut s, &key(Key::Space));
        assert!(s.clock.is_paused());
        global_keys(&mut s, &key(Key::Period));
        assert_eq!(s.advance(0.0), 1, "one single step");
        global_keys(&mut s, &key(Key::Digit3));
        assert_eq!(s.world.settings().narrow_phase, crate::narrow::Algorithm::ALL[2]);
        s.camera.pan_by_screen(Vec2::new(5000.0, 0.0));
        global_keys(&mut s, &key(Key::F));
        let v = s.camera.visible_world();
        for (_, b) in s.world.bodies().iter() {
            assert!(v.overlaps(&b.aabb()));
        }
        global_keys(&mut s, &key(Key::H));
        assert!(s.show_help);
        global_keys(&mut s, &key(Key::Space));
        global_keys(&mut s, &key(Key::N));
        assert!(s.one_step_per_frame);
        assert_eq!(s.advance(0.2), 1, "one step per frame, however long the frame");
        assert_eq!(s.advance(0.0), 1, "…or short");
        global_keys(&mut s, &key(Key::N));
        assert_eq!(s.advance(0.2), 12, "real time again");
        global_keys(&mut s, &key(Key::Space));
        let typing = FrameInput {
            keys: vec![Key::Space],
            ui_wants_keyboard: true,
            ..FrameInput::default()
        };
        global_keys(&mut s, &typing);
        assert!(
            s.clock.is_paused(),
            "space typed into a text field does not run the world"
        );
    }

    /// Regression: after Ctrl+O, egui still believed Ctrl was held (X11 reports the
    /// release with the state before it), and the file dialog ignored clicks in its
    /// list. A modifier that is up is cleared; one egui saw pressed and is still down
    /// stays; none is ever invented.
    #[test]
    fn regression_ctrl_stuck_after_ctrl_o_is_cleared() {
        let stuck = egui::Modifiers::COMMAND | egui::Modifiers::CTRL;
        assert_eq!(
            unstuck_modifiers(stuck, false, false, false, false),
            egui::Modifiers::NONE
        );
        assert_eq!(unstuck_modifiers(stuck, true, false, false, true), stuck);
        assert_eq!(
            unstuck_modifiers(egui::Modifiers::NONE, true, true, true, true),
            egui::Modifiers::NONE
        );
        let shift = egui::Modifiers::SHIFT;
        assert_eq!(unstuck_modifiers(shift | stuck, false, true, false, false), shift);
    }
}
