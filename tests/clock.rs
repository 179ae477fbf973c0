//! The fixed-step clock, driven by synthetic frame times.

use collision_lab::dynamics::{
    FixedClock, DEFAULT_MAX_FRAME_SECONDS, DEFAULT_STEP_BUDGET_SECONDS, MIN_STEP_BUDGET_SECONDS, TARGET_FRAME_SECONDS,
};

/// Runs `frames` frames of `frame_seconds` and returns the steps taken.
fn run(clock: &mut FixedClock, frame_seconds: f64, frames: usize) -> u64 {
    (0..frames).map(|_| clock.advance(frame_seconds) as u64).sum()
}

#[test]
fn one_second_of_60hz_frames_gives_60_steps() {
    let mut clock = FixedClock::new(60.0);
    let mut per_frame = Vec::new();
    for _ in 0..60 {
        per_frame.push(clock.advance(1.0 / 60.0));
    }
    assert!(per_frame.iter().all(|&s| s == 1), "{per_frame:?}");
    assert_eq!(clock.steps_taken(), 60);
    assert!((clock.simulated_time() - 1.0).abs() < 1e-9);
}

#[test]
fn frames_at_144hz_average_60_steps_per_second() {
    let mut clock = FixedClock::new(60.0);
    let steps = run(&mut clock, 1.0 / 144.0, 144 * 10);
    assert!((599..=600).contains(&steps), "{steps} steps in 10 s");
    // Each frame takes 0 or 1 step, never 2.
    let mut clock = FixedClock::new(60.0);
    assert!((0..1000).all(|_| clock.advance(1.0 / 144.0) <= 1));
}

#[test]
fn uneven_frames_keep_the_average() {
    let mut clock = FixedClock::new(60.0);
    let frames = [0.010, 0.025, 0.016, 0.031, 0.002, 0.016];
    let total: f64 = frames.iter().sum::<f64>() * 100.0;
    let steps: u64 = (0..100).flat_map(|_| frames).map(|f| clock.advance(f) as u64).sum();
    assert_eq!(steps, (total * 60.0 + 1e-6).floor() as u64);
}

#[test]
fn a_long_frame_is_clamped() {
    let mut clock = FixedClock::new(60.0);
    let steps = clock.advance(2.0);
    assert_eq!(steps, (DEFAULT_MAX_FRAME_SECONDS * 60.0).round() as u32);
    assert_eq!(steps, 15);
    // The rest of the hitch is forgotten, not paid back later.
    assert_eq!(clock.advance(1.0 / 60.0), 1);
}

#[test]
fn steps_per_frame_are_capped() {
    let mut clock = FixedClock::new(240.0);
    clock.set_time_scale(4.0);
    clock.set_max_steps_per_frame(32);
    assert_eq!(clock.advance(0.25), 32); // 0.25 s · 4 · 240 Hz = 240 owed
    assert!(clock.alpha() < 1.0);
    assert_eq!(clock.advance(1.0 / 240.0), 4);
}

#[test]
fn paused_gives_no_steps_and_does_not_accumulate() {
    let mut clock = FixedClock::new(60.0);
    clock.pause();
    assert!(clock.is_paused());
    assert_eq!(run(&mut clock, 1.0 / 60.0, 120), 0);
    clock.resume();
    assert_eq!(clock.advance(1.0 / 60.0), 1, "no burst after resuming");
    clock.toggle_pause();
    assert!(clock.is_paused());
    assert_eq!(clock.advance(0.1), 0);
    clock.toggle_pause();
    assert!(!clock.is_paused());
}

#[test]
fn single_step_gives_exactly_one_then_zero() {
    let mut clock = FixedClock::new(60.0);
    clock.pause();
    clock.request_single_step();
    clock.request_single_step(); // asking twice is still one step
    assert_eq!(clock.advance(1.0 / 60.0), 1);
    assert_eq!(clock.advance(1.0 / 60.0), 0);
    assert_eq!(clock.advance(1.0), 0);
    assert!((clock.simulated_time() - 1.0 / 60.0).abs() < 1e-12);

    // Requested while running: pauses, then one step.
    let mut running = FixedClock::new(60.0);
    running.request_single_step();
    assert!(running.is_paused());
    assert_eq!(running.advance(0.001), 1);
    assert_eq!(run(&mut running, 1.0 / 60.0, 10), 0);
}

#[test]
fn a_bad_frame_time_does_not_consume_a_single_step() {
    let mut clock = FixedClock::new(60.0);
    clock.request_single_step();
    assert_eq!(clock.advance(f64::NAN), 0);
    assert!(clock.single_step_pending());
    assert_eq!(clock.advance(0.0), 1);
}

#[test]
fn half_time_scale_halves_the_steps() {
    let mut clock = FixedClock::new(60.0);
    assert_eq!(clock.set_time_scale(0.5), 0.5);
    assert_eq!(run(&mut clock, 1.0 / 60.0, 120), 60);
    // Clamped to 0.1–4; NaN ignored.
    assert_eq!(clock.set_time_scale(100.0), 4.0);
    assert_eq!(clock.set_time_scale(0.0), 0.1);
    assert_eq!(clock.set_time_scale(f64::NAN), 0.1);
    assert_eq!(clock.time_scale(), 0.1);
}

#[test]
fn alpha_stays_in_unit_interval() {
    let mut clock = FixedClock::new(60.0);
    let mut t = 0.0f64;
    for i in 0..2000 {
        let frame = 0.001 + 0.03 * ((i * 7919) % 101) as f64 / 101.0;
        clock.advance(frame);
        t += frame;
        let alpha = clock.alpha();
        assert!((0.0..1.0).contains(&alpha), "alpha {alpha} at frame {i}");
    }
    // The accumulator holds what was not stepped: simulated + alpha·dt = wall time
    // (no frame here was clamped).
    let owed = t - clock.simulated_time();
    assert!((owed - clock.alpha() * clock.dt_seconds()).abs() < 1e-9, "{owed}");
}

#[test]
fn changing_the_rate_mid_run() {
    let mut clock = FixedClock::new(60.0);
    assert_eq!(run(&mut clock, 1.0 / 60.0, 30), 30);
    clock.advance(0.5 / 60.0); // half a step owed
    let alpha = clock.alpha();
    assert_eq!(clock.set_rate(120.0), 120.0);
    assert!((clock.alpha() - alpha).abs() < 1e-12, "alpha does not jump");
    assert_eq!(clock.dt_seconds(), 1.0 / 120.0);
    let before = clock.simulated_time();
    let steps = run(&mut clock, 1.0 / 60.0, 60);
    assert!((119..=121).contains(&steps), "{steps}");
    assert!((clock.simulated_time() - before - steps as f64 / 120.0).abs() < 1e-9);
    // Out of range and invalid rates.
    assert_eq!(clock.set_rate(1e9), 1000.0);
    assert_eq!(clock.set_rate(f64::NAN), 1000.0);
    assert_eq!(clock.set_rate(0.0), 1.0);
    assert_eq!(FixedClock::new(f64::INFINITY).rate_hz(), 60.0);
    assert_eq!(FixedClock::default().rate_hz(), 60.0);
}

#[test]
fn nan_and_negative_frames_are_ignored() {
    let mut clock = FixedClock::new(60.0);
    clock.advance(0.5 / 60.0);
    let before = clock.clone();
    for bad in [f64::NAN, -1.0, -0.0001, f64::INFINITY, f64::NEG_INFINITY] {
        assert_eq!(clock.advance(bad), 0);
    }
    assert_eq!(clock, before);
    assert_eq!(clock.advance(0.5 / 60.0), 1);
}

#[test]
fn hours_of_frames_stay_exact() {
    // 3 hours of 60 Hz frames: f64 accumulation loses no step.
    let mut clock = FixedClock::new(60.0);
    let frames = 3 * 3600 * 60;
    assert_eq!(run(&mut clock, 1.0 / 60.0, frames), frames as u64);
    assert!((clock.simulated_time() - 3.0 * 3600.0).abs() < 1e-6);
}

/// What the window does with the clock each frame: runs the owed steps while the budget
/// lasts, each step taking `step_seconds` of (synthetic) wall time, and drops the rest.
fn frame_with_budget(clock: &mut FixedClock, frame_seconds: f64, step_seconds: f64) -> u32 {
    let owed = clock.advance(frame_seconds);
    let mut run = 0;
    while run < owed && clock.within_budget(run, run as f64 * step_seconds) {
        run += 1;
    }
    clock.drop_steps(owed, run);
    run
}

#[test]
fn step_budget_keeps_slow_scenes_from_freezing_the_window() {
    // A scene whose step takes 60 ms: a frame that owes 15 steps (the 0.25 s clamp) would
    // take 0.9 s. The 40 ms budget runs one step per frame instead, and drops the rest.
    let mut clock = FixedClock::new(60.0);
    let mut frame_seconds = 0.25;
    for _ in 0..40 {
        let run = frame_with_budget(&mut clock, frame_seconds, 0.060);
        assert_eq!(run, 1, "one step per frame while a step is over budget");
        frame_seconds = 0.060 + 0.010; // the frame now lasts one step plus drawing
    }
    assert_eq!(clock.steps_taken(), 40, "dropped steps are not counted");
    assert!((clock.simulated_time() - 40.0 / 60.0).abs() < 1e-9);
    // 1/60 s simulated per 70 ms frame: 0.24x real time.
    let ratio = clock.real_time_ratio();
    assert!((ratio - (1.0 / 60.0) / 0.070).abs() < 0.02, "{ratio}");
    assert!(clock.is_slow_motion());
}

#[test]
fn fast_scenes_keep_real_time_within_the_budget() {
    let mut clock = FixedClock::new(60.0);
    for _ in 0..120 {
        // 60 FPS frames, 1 ms steps: every owed step runs.
        frame_with_budget(&mut clock, 1.0 / 60.0, 0.001);
    }
    assert!(
        (clock.real_time_ratio() - 1.0).abs() < 0.02,
        "{}",
        clock.real_time_ratio()
    );
    assert!(!clock.is_slow_motion());
    // A 0.2 s hitch owes 12 steps; 5 ms steps fit 8 of them in the 40 ms budget.
    assert_eq!(frame_with_budget(&mut clock, 0.2, 0.005), 8);
    clock.set_step_budget_seconds(1.0);
    assert_eq!(frame_with_budget(&mut clock, 0.2, 0.005), 12);
}

/// A window whose drawing takes `draw_seconds` and whose steps take `step_seconds`: the
/// frame times it would see when it fits the budget every frame, as the app does.
fn frames_fitting_the_budget(draw_seconds: f64, step_seconds: f64, frames: usize) -> Vec<f64> {
    let mut clock = FixedClock::new(60.0);
    let mut frame_seconds = 1.0 / 60.0;
    let mut out = Vec::new();
    for _ in 0..frames {
        let run = frame_with_budget(&mut clock, frame_seconds, step_seconds);
        frame_seconds = run as f64 * step_seconds + draw_seconds;
        out.push(frame_seconds);
        clock.fit_step_budget(draw_seconds);
    }
    out
}

#[test]
fn the_step_budget_shrinks_by_the_drawing_time() {
    // The 5050-box pyramid on software GL, roughly: 60 ms to draw, 16 ms a step. With a
    // fixed 40 ms budget two steps ran and frames took 92 ms; fitted, the steps get
    // what the drawing leaves of the 75 ms target (one step), and frames take 76 ms.
    let frames = frames_fitting_the_budget(0.060, 0.016, 60);
    let last = *frames.last().expect("frames");
    assert!((last - 0.076).abs() < 1e-9, "{last}");
    // A light view keeps the whole 40 ms for the steps.
    let mut clock = FixedClock::new(60.0);
    clock.fit_step_budget(0.010);
    assert!((clock.step_budget_seconds() - 0.040).abs() < 1e-12);
    // Drawing that alone overruns the target still leaves the minimum budget, and at
    // least one step always runs.
    clock.fit_step_budget(0.2);
    assert!(clock.step_budget_seconds() >= MIN_STEP_BUDGET_SECONDS - 1e-12);
    assert_eq!(frame_with_budget(&mut clock, 0.25, 0.05), 1);
    // One slow frame (a file dialog) does not starve the next frames: the rest of the
    // frame is a running mean.
    let mut clock = FixedClock::new(60.0);
    for _ in 0..30 {
        clock.fit_step_budget(0.010);
    }
    clock.fit_step_budget(1.0);
    clock.fit_step_budget(0.010);
    assert!(clock.step_budget_seconds() > MIN_STEP_BUDGET_SECONDS);
    for _ in 0..30 {
        clock.fit_step_budget(0.010);
    }
    assert!((clock.step_budget_seconds() - 0.040).abs() < 1e-6);
    // Bad times change nothing; setting a budget is a ceiling the fit keeps under.
    let before = clock.step_budget_seconds();
    clock.fit_step_budget(f64::NAN);
    clock.fit_step_budget(-1.0);
    assert_eq!(clock.step_budget_seconds(), before);
    clock.set_step_budget_seconds(0.020);
    clock.fit_step_budget(0.0);
    assert!((clock.step_budget_seconds() - 0.020).abs() < 1e-12);
    const { assert!(TARGET_FRAME_SECONDS < 0.1) };
}

#[test]
fn pausing_is_not_slow_motion_and_resuming_measures_afresh() {
    let mut clock = FixedClock::new(60.0);
    for _ in 0..60 {
        frame_with_budget(&mut clock, 1.0 / 60.0, 0.1);
    }
    // Frames of 1/60 s with 100 ms steps: still one step per frame, real time kept.
    assert!(!clock.is_slow_motion());
    clock.pause();
    for _ in 0..60 {
        assert_eq!(frame_with_budget(&mut clock, 1.0 / 60.0, 0.1), 0);
    }
    assert!(!clock.is_slow_motion(), "paused is not slow motion");
    clock.resume();
    for _ in 0..60 {
        frame_with_budget(&mut clock, 1.0 / 60.0, 0.001);
    }
    assert!((clock.real_time_ratio() - 1.0).abs() < 0.02);
}

/// Regression: the budget was checked against the time already spent, so the last step
/// of a frame could end far past it (three 20 ms steps in a 40 ms budget when two took
/// 39.9 ms). A step now runs only if it is expected to end within the budget.
#[test]
fn regression_the_last_step_of_a_frame_overran_the_budget() {
    let clock = FixedClock::new(60.0);
    let budget = DEFAULT_STEP_BUDGET_SECONDS;
    let step = budget / 2.0 - 1e-4; // two fit, just
    assert!(clock.within_budget(0, 0.0), "the first step always runs");
    assert!(clock.within_budget(1, step), "a second step ends within the budget");
    assert!(!clock.within_budget(2, 2.0 * step), "a third would end at 1.5 budgets");
    // A step longer than the budget still runs once per frame.
    assert!(clock.within_budget(0, 0.0));
    assert!(!clock.within_budget(1, 2.0 * budget));
}
