//! A fixed-step clock: frame time in, a whole number of physics steps out.
//!
//! The world is stepped with a constant `dt` whatever the frame rate, so a scene plays
//! the same on a 60 Hz laptop and a 144 Hz monitor, and a recorded run replays exactly.
//! The technique is the accumulator of Glenn Fiedler's "Fix Your Timestep!" (2004):
//!
//! ```text
//! accumulator += min(frame_seconds, max_frame_seconds) * time_scale
//! while accumulator >= dt { step(dt); accumulator -= dt }
//! alpha = accumulator / dt          // draw lerp(previous_state, current_state, alpha)
//! ```
//!
//! The clock never reads a clock: the caller passes each frame's duration, so tests use
//! synthetic time and the core stays free of the window's timer.
//!
//! Accumulated time is f64. In f32 a running total of seconds has a spacing (ulp) of
//! 61 µs after 10 minutes and 0.24 ms after an hour; every 1/60 s added is rounded by up
//! to half of that, so after minutes the total drifts by milliseconds per simulated
//! second and, after hours, a sizeable fraction of a step per frame. In f64 the spacing
//! after a year is still a few nanoseconds.

/// The step rate a new clock uses when given a rate it cannot use (Hz).
pub const DEFAULT_RATE_HZ: f64 = 60.0;

/// Frames longer than this (seconds of wall time) count as this long. A debugger pause,
/// a window drag or a slow first frame would otherwise make the next frame owe hundreds
/// of steps; if those steps take longer than the frame they repay, the debt grows every
/// frame ("spiral of death"). 0.25 s is 15 steps at 60 Hz: the simulation visibly slows
/// during a hitch instead of freezing the app.
pub const DEFAULT_MAX_FRAME_SECONDS: f64 = 0.25;

/// At most this many steps are run for one frame; the surplus simulated time is dropped.
/// The frame clamp alone is not enough at 4x time scale and a high step rate
/// (0.25 s · 4 · 240 Hz = 240 steps). 64 covers a 0.25 s hitch at 60 Hz and 4x (60 steps).
pub const DEFAULT_MAX_STEPS_PER_FRAME: u32 = 64;

/// Wall time the steps of one frame may take (seconds) before the rest of the frame's
/// steps are dropped. The frame clamp and the step cap bound how much simulated time a
/// frame owes, not how long repaying it takes: with 5000 bodies a step can take 50 ms, and
/// 15 owed steps froze the window for 0.75 s a frame. This is the most a frame's steps
/// may take; the window fits the budget to its drawing time below that
/// ([`FixedClock::fit_step_budget`]). At least one step always runs, so a scene whose
/// single step is slower than the budget still moves, in slow motion.
pub const DEFAULT_STEP_BUDGET_SECONDS: f64 = 0.040;

/// The frame time the window aims for (seconds) when the simulation cannot keep up:
/// the step budget shrinks by what the rest of the frame (drawing, the overlay,
/// presenting) takes, so that a frame stays within it. A quarter below 100 ms, so that
/// a frame's jitter does not take it over.
pub const TARGET_FRAME_SECONDS: f64 = 0.075;

/// The step budget never falls below this (seconds), however long the drawing takes:
/// a scene whose drawing alone fills the frame still gets its step (at least one always
/// runs) and a second one when steps are short.
pub const MIN_STEP_BUDGET_SECONDS: f64 = 0.008;

/// Weight of the newest frame in the running mean of the rest of the frame: about the
/// last five frames count, so one slow frame (a resize, a file dialog) does not starve
/// the simulation, and a heavier view (debug layers turned on) is followed within a
/// tenth of a second.
const REST_OF_FRAME_WEIGHT: f64 = 0.2;

/// The real-time ratio is measured over windows of this much wall time (seconds): long
/// enough to average out a frame's jitter, short enough to follow a scene that speeds up.
const RATIO_WINDOW_SECONDS: f64 = 0.5;

/// Step rates are clamped into this range (Hz): below 1 Hz a step is longer than any
/// frame clamp; above 1000 Hz a frame would need more steps than the cap allows.
const RATE_RANGE_HZ: (f64, f64) = (1.0, 1000.0);

/// Time scales are clamped into this range (slow motion to fast forward).
const TIME_SCALE_RANGE: (f64, f64) = (0.1, 4.0);

/// Rounding slack when deciding whether the accumulator holds a whole step, as a
/// fraction of `dt`. Frame times such as 1/144 s summed 144 times land a few ulps short
/// of 1 s; without the slack the 60th step of that second would be taken a frame late.
/// 1e-9 of a step is far below anything a timer measures.
const STEP_SLACK: f64 = 1e-9;

/// The fixed-step clock (runtime state; nothing here is saved with a scene).
#[derive(Clone, Debug, PartialEq)]
pub struct FixedClock {
    rate_hz: f64,
    dt_seconds: f64,
    /// Simulated seconds owed to the world but not yet stepped, in `[0, dt)`.
    accumulator_seconds: f64,
    paused: bool,
    single_step_pending: bool,
    time_scale: f64,
    max_frame_seconds: f64,
    max_steps_per_frame: u32,
    simulated_seconds: f64,
    steps_taken: u64,
    step_budget_seconds: f64,
    /// The budget the window asked for (`set_step_budget_seconds`): the most the fitted
    /// budget may be.
    max_step_budget_seconds: f64,
    /// Running mean of the wall time the rest of each frame took (seconds; see
    /// [`fit_step_budget`](FixedClock::fit_step_budget)); `None` until told.
    rest_of_frame_seconds: Option<f64>,
    /// Wall and simulated seconds of the current measuring window (running time only).
    window_wall_seconds: f64,
    window_simulated_seconds: f64,
    /// Simulated seconds per wall second over the last whole window (1 until measured).
    real_time_ratio: f64,
}

impl Default for FixedClock {
    fn default() -> Self {
        FixedClock::new(DEFAULT_RATE_HZ)
    }
}

impl FixedClock {
    /// A running clock stepping at `rate_hz` (clamped to 1–1000 Hz; a NaN or infinite
    /// rate gives [`DEFAULT_RATE_HZ`]), time scale 1.
    pub fn new(rate_hz: f64) -> Self {
        let rate_hz = sanitize_rate(rate_hz).unwrap_or(DEFAULT_RATE_HZ);
        FixedClock {
            rate_hz,
            dt_seconds: 1.0 / rate_hz,
            accumulator_seconds: 0.0,
            paused: false,
            single_step_pending: false,
            time_scale: 1.0,
            max_frame_seconds: DEFAULT_MAX_FRAME_SECONDS,
            max_steps_per_frame: DEFAULT_MAX_STEPS_PER_FRAME,
            simulated_seconds: 0.0,
            steps_taken: 0,
            step_budget_seconds: DEFAULT_STEP_BUDGET_SECONDS,
            max_step_budget_seconds: DEFAULT_STEP_BUDGET_SECONDS,
            rest_of_frame_seconds: None,
            window_wall_seconds: 0.0,
            window_simulated_seconds: 0.0,
            real_time_ratio: 1.0,
        }
    }

    /// Tells the clock that a frame of `frame_seconds` wall time has passed and returns
    /// how many steps of [`dt_seconds`](Self::dt_seconds) to run now.
    ///
    /// NaN, infinite and negative frame times are ignored: no steps, no state change (a
    /// pending single step stays pending). While paused, returns 1 if a single step was
    /// requested, else 0, and the accumulator does not fill, so resuming does not burst.
    pub fn advance(&mut self, frame_seconds: f64) -> u32 {
        if !frame_seconds.is_finite() || frame_seconds < 0.0 {
            return 0;
        }
        if self.paused {
            if self.single_step_pending {
                self.single_step_pending = false;
                self.record_steps(1);
                return 1;
            }
            return 0;
        }
        let scaled_seconds = frame_seconds.min(self.max_frame_seconds) * self.time_scale;
        self.accumulator_seconds += scaled_seconds;
        let whole_steps = (self.accumulator_seconds / self.dt_seconds + STEP_SLACK).floor();
        // The slack may take a step a few ulps early; never leave a negative remainder.
        self.accumulator_seconds = (self.accumulator_seconds - whole_steps * self.dt_seconds).max(0.0);
        // `whole_steps` is finite and non-negative here; the cap drops the surplus (see
        // DEFAULT_MAX_STEPS_PER_FRAME), the fractional remainder is kept.
        let steps = whole_steps.min(self.max_steps_per_frame as f64) as u32;
        self.record_steps(steps);
        // The window is closed before this frame is added: the frames in it have had
        // their dropped steps taken back (`drop_steps`) by now.
        if self.window_wall_seconds >= RATIO_WINDOW_SECONDS {
            self.real_time_ratio = self.window_simulated_seconds / self.window_wall_seconds;
            self.window_wall_seconds = 0.0;
            self.window_simulated_seconds = 0.0;
        }
        self.window_wall_seconds += frame_seconds;
        self.window_simulated_seconds += steps as f64 * self.dt_seconds;
        steps
    }

    fn record_steps(&mut self, steps: u32) {
        self.steps_taken += steps as u64;
        self.simulated_seconds += steps as f64 * self.dt_seconds;
    }

    /// Whether the frame may run another of the steps [`advance`](Self::advance) asked
    /// for, after `steps_run` of them took `elapsed_seconds` of wall time: the first step
    /// always runs, the others while one more step, as long as the mean so far, still
    /// ends within the step budget. Checking only the time spent let the last step
    /// overrun: with 20 ms steps a 40 ms budget ran a third step whenever two took
    /// 39.9 ms, and the 5050-box pyramid's frames averaged 118 ms.
    pub fn within_budget(&self, steps_run: u32, elapsed_seconds: f64) -> bool {
        if steps_run == 0 {
            return true;
        }
        let mean_step = elapsed_seconds / steps_run as f64;
        elapsed_seconds + mean_step <= self.step_budget_seconds
    }

    /// The frame ran only `run` of the `owed` steps [`advance`](Self::advance) returned
    /// (the budget ran out): the others are dropped, not carried to the next frame, where
    /// the debt would only grow. Simulated time falls behind real time, and
    /// [`real_time_ratio`](Self::real_time_ratio) says by how much.
    pub fn drop_steps(&mut self, owed: u32, run: u32) {
        let dropped = owed.saturating_sub(run);
        if dropped == 0 {
            return;
        }
        let seconds = dropped as f64 * self.dt_seconds;
        self.steps_taken = self.steps_taken.saturating_sub(dropped as u64);
        self.simulated_seconds = (self.simulated_seconds - seconds).max(0.0);
        self.window_simulated_seconds = (self.window_simulated_seconds - seconds).max(0.0);
    }

    /// Wall time the steps of one frame may take (seconds; see
    /// [`DEFAULT_STEP_BUDGET_SECONDS`]). NaN and negative values are ignored.
    pub fn set_step_budget_seconds(&mut self, budget_seconds: f64) {
        if budget_seconds >= 0.0 {
            self.step_budget_seconds = budget_seconds;
            self.max_step_budget_seconds = budget_seconds;
            self.rest_of_frame_seconds = None;
        }
    }

    /// Tells the clock how long the rest of the last frame took (seconds of wall time:
    /// drawing, the overlay, presenting — everything but the steps), and fits the step
    /// budget to it: [`TARGET_FRAME_SECONDS`] less the running mean of the rest, within
    /// [`MIN_STEP_BUDGET_SECONDS`] and the budget set (40 ms by default).
    ///
    /// With a fixed 40 ms budget the 5050-box pyramid's frames took 116 ms on software
    /// GL: drawing the boxes took most of a frame by itself, and the steps came on top.
    /// NaN, infinite and negative times are ignored.
    pub fn fit_step_budget(&mut self, rest_of_frame_seconds: f64) {
        if !rest_of_frame_seconds.is_finite() || rest_of_frame_seconds < 0.0 {
            return;
        }
        // A frame whose rest alone overran the target says only that: no room. Counted
        // whole, one 1 s hitch (a file dialog) starved the steps of the next ten frames.
        let rest_of_frame_seconds = rest_of_frame_seconds.min(TARGET_FRAME_SECONDS);
        let mean = match self.rest_of_frame_seconds {
            Some(mean) => mean + REST_OF_FRAME_WEIGHT * (rest_of_frame_seconds - mean),
            None => rest_of_frame_seconds,
        };
        self.rest_of_frame_seconds = Some(mean);
        let ceiling = self.max_step_budget_seconds;
        self.step_budget_seconds = (TARGET_FRAME_SECONDS - mean).clamp(MIN_STEP_BUDGET_SECONDS.min(ceiling), ceiling);
    }

    /// The wall time the steps of a frame may take now (seconds).
    pub fn step_budget_seconds(&self) -> f64 {
        self.step_budget_seconds
    }

    /// Simulated seconds per wall second over the last half second of running time: the
    /// time scale when the simulation keeps up, less when the frame clamp, the step cap or
    /// the step budget dropped time ("slow motion"). 1 before anything was measured;
    /// pausing keeps the last value.
    pub fn real_time_ratio(&self) -> f64 {
        self.real_time_ratio
    }

    /// True when simulated time runs noticeably (more than 5 %) slower than the time
    /// scale asks: the simulation cannot keep up with real time.
    pub fn is_slow_motion(&self) -> bool {
        !self.paused && self.real_time_ratio < 0.95 * self.time_scale
    }

    /// Stops advancing simulated time (single steps still run).
    pub fn pause(&mut self) {
        self.paused = true;
    }

    /// Resumes advancing; a single step still pending is dropped (running time takes
    /// over).
    pub fn resume(&mut self) {
        if self.paused {
            // Measure running time afresh: the window before the pause says nothing now.
            self.window_wall_seconds = 0.0;
            self.window_simulated_seconds = 0.0;
        }
        self.paused = false;
        self.single_step_pending = false;
    }

    /// Pauses a running clock, resumes a paused one.
    pub fn toggle_pause(&mut self) {
        if self.paused {
            self.resume();
        } else {
            self.pause();
        }
    }

    /// True while paused.
    pub fn is_paused(&self) -> bool {
        self.paused
    }

    /// Asks for exactly one step at the next [`advance`](Self::advance). The clock is
    /// paused too: "step" in a lab means "show me the next state and wait", as in Box2D's
    /// testbed; a running clock would hide the single step among the regular ones.
    /// Several requests before the next frame still give one step.
    pub fn request_single_step(&mut self) {
        self.paused = true;
        self.single_step_pending = true;
    }

    /// True when a single step will run at the next frame.
    pub fn single_step_pending(&self) -> bool {
        self.single_step_pending
    }

    /// Sets how fast simulated time runs against wall time, clamped to 0.1–4; a NaN is
    /// ignored. Returns the scale now in force.
    pub fn set_time_scale(&mut self, time_scale: f64) -> f64 {
        if !time_scale.is_nan() {
            self.time_scale = time_scale.clamp(TIME_SCALE_RANGE.0, TIME_SCALE_RANGE.1);
        }
        self.time_scale
    }

    /// Simulated seconds per wall second.
    pub fn time_scale(&self) -> f64 {
        self.time_scale
    }

    /// Changes the step rate (clamped to 1–1000 Hz; NaN or infinite is ignored) and
    /// returns the rate now in force. The fraction of a step already accumulated is kept,
    /// so [`alpha`](Self::alpha) does not jump and stays in [0, 1).
    pub fn set_rate(&mut self, rate_hz: f64) -> f64 {
        if let Some(rate_hz) = sanitize_rate(rate_hz) {
            let alpha = self.alpha();
            self.rate_hz = rate_hz;
            self.dt_seconds = 1.0 / rate_hz;
            self.accumulator_seconds = alpha * self.dt_seconds;
        }
        self.rate_hz
    }

    /// Steps per simulated second (Hz).
    pub fn rate_hz(&self) -> f64 {
        self.rate_hz
    }

    /// The fixed step (seconds).
    pub fn dt_seconds(&self) -> f64 {
        self.dt_seconds
    }

    /// The fixed step as the f32 the world integrates with (seconds).
    pub fn dt_seconds_f32(&self) -> f32 {
        self.dt_seconds as f32
    }

    /// Frames longer than this count as this long (seconds; see
    /// [`DEFAULT_MAX_FRAME_SECONDS`]). NaN and negative values are ignored.
    pub fn set_max_frame_seconds(&mut self, max_frame_seconds: f64) {
        if max_frame_seconds >= 0.0 {
            self.max_frame_seconds = max_frame_seconds;
        }
    }

    /// At most this many steps per frame (see [`DEFAULT_MAX_STEPS_PER_FRAME`]); at least 1.
    pub fn set_max_steps_per_frame(&mut self, max_steps: u32) {
        self.max_steps_per_frame = max_steps.max(1);
    }

    /// How far between the last two stepped states the drawn frame is, in [0, 1): draw
    /// `previous.lerp(current, alpha)`.
    pub fn alpha(&self) -> f64 {
        (self.accumulator_seconds / self.dt_seconds).clamp(0.0, 1.0 - f64::EPSILON)
    }

    /// Simulated seconds stepped so far (sum of every step's `dt`).
    pub fn simulated_time(&self) -> f64 {
        self.simulated_seconds
    }

    /// Steps taken so far.
    pub fn steps_taken(&self) -> u64 {
        self.steps_taken
    }

    /// Forgets accumulated and simulated time (for a scene reload); rate, scale and pause
    /// are kept.
    pub fn reset_time(&mut self) {
        self.accumulator_seconds = 0.0;
        self.simulated_seconds = 0.0;
        self.steps_taken = 0;
        self.single_step_pending = false;
        self.window_wall_seconds = 0.0;
        self.window_simulated_seconds = 0.0;
        self.real_time_ratio = self.time_scale;
    }
}

fn sanitize_rate(rate_hz: f64) -> Option<f64> {
    rate_hz
        .is_finite()
        .then(|| rate_hz.clamp(RATE_RANGE_HZ.0, RATE_RANGE_HZ.1))
}
