//! `open --frame-stats`: how long the window's frames took, as one JSON line; and
//! `render --stats`: where a render's frame time went, phase by phase.
//!
//! The window loop records each frame's wall time and the simulated time its steps
//! covered; on exit the summary is printed for scripts and tests to parse:
//!
//! ```text
//! {"frames":N,"mean_ms":…,"p95_ms":…,"max_ms":…,"sim_ratio":…}
//! ```
//!
//! `sim_ratio` is simulated seconds over real seconds: 1 when the simulation keeps up,
//! less in slow motion (the step budget dropped steps), more with a time scale above 1.
//! Plain data in, a string out: tested without a window.

/// Frame times and simulated time, collected frame by frame.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FrameRecorder {
    /// Wall time of each recorded frame (ms), in order.
    frame_ms: Vec<f64>,
    /// Simulated time the recorded frames' steps covered (s).
    simulated_s: f64,
}

/// The summary printed on exit.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FrameStatsSummary {
    /// Frames recorded.
    pub frames: usize,
    /// Mean frame time (ms).
    pub mean_ms: f64,
    /// 95th percentile of the frame times (ms), nearest rank: 95 % of frames took at
    /// most this long.
    pub p95_ms: f64,
    /// Longest frame (ms).
    pub max_ms: f64,
    /// Simulated seconds per real second over the recorded frames.
    pub sim_ratio: f64,
}

impl FrameRecorder {
    /// Records one frame of `frame_s` seconds of wall time whose steps simulated
    /// `simulated_s` seconds. Non-finite or negative times (a timer hiccup) are skipped,
    /// so the summary stays finite.
    pub fn record(&mut self, frame_s: f64, simulated_s: f64) {
        if !(frame_s.is_finite() && frame_s >= 0.0) {
            return;
        }
        self.frame_ms.push(frame_s * 1e3);
        if simulated_s.is_finite() && simulated_s >= 0.0 {
            self.simulated_s += simulated_s;
        }
    }

    /// How many frames were recorded.
    pub fn frames(&self) -> usize {
        self.frame_ms.len()
    }

    /// The summary of the frames so far (all zeros before the first frame).
    pub fn summary(&self) -> FrameStatsSummary {
        let n = self.frame_ms.len();
        if n == 0 {
            return FrameStatsSummary {
                frames: 0,
                mean_ms: 0.0,
                p95_ms: 0.0,
                max_ms: 0.0,
                sim_ratio: 0.0,
            };
        }
        let total_ms: f64 = self.frame_ms.iter().sum();
        let mut sorted = self.frame_ms.clone();
        sorted.sort_by(f64::total_cmp);
        FrameStatsSummary {
            frames: n,
            mean_ms: total_ms / n as f64,
            p95_ms: percentile_nearest_rank(&sorted, 95.0),
            max_ms: sorted[n - 1],
            sim_ratio: if total_ms > 0.0 {
                self.simulated_s / (total_ms / 1e3)
            } else {
                0.0
            },
        }
    }
}

/// The `p`th percentile of `sorted` (ascending, not empty) by nearest rank: the smallest
/// value with at least p % of the values at or below it.
pub fn percentile_nearest_rank(sorted: &[f64], p: f64) -> f64 {
    let n = sorted.len();
    let rank = ((p / 100.0) * n as f64).ceil() as usize;
    sorted[rank.clamp(1, n) - 1]
}

impl FrameStatsSummary {
    /// The one JSON line `--frame-stats` prints (times to 3 decimals, in ms).
    pub fn to_json(&self) -> String {
        format!(
            "{{\"frames\":{},\"mean_ms\":{:.3},\"p95_ms\":{:.3},\"max_ms\":{:.3},\"sim_ratio\":{:.4}}}",
            self.frames, self.mean_ms, self.p95_ms, self.max_ms, self.sim_ratio
        )
    }
}

/// Frames left out of `render --stats` (the first ones compile shaders and lay out).
pub(super) const STATS_WARMUP_FRAMES: u32 = 5;

/// Sums of frame times for `render --stats`.
#[derive(Default)]
pub(super) struct FrameStats {
    sum: super::history::FrameTimes,
    frames: u32,
}

impl FrameStats {
    pub(super) fn add(&mut self, t: &super::history::FrameTimes) {
        self.sum.simulation_ms += t.simulation_ms;
        self.sum.ui_ms += t.ui_ms;
        self.sum.drawing_ms += t.drawing_ms;
        self.sum.present_ms += t.present_ms;
        self.sum.frame_ms += t.frame_ms;
        self.frames += 1;
    }

    pub(super) fn summary(&self, bodies: usize) -> String {
        let n = f64::from(self.frames.max(1));
        let s = &self.sum;
        format!(
            "{} frames, {bodies} bodies, mean ms per frame: simulation {:.2}, UI {:.2}, drawing {:.2} (building batches), present {:.2} (GL draw calls + swap), whole frame {:.2} ({:.0} FPS)",
            self.frames,
            s.simulation_ms / n,
            s.ui_ms / n,
            s.drawing_ms / n,
            s.present_ms / n,
            s.frame_ms / n,
            1000.0 * n / s.frame_ms.max(1e-9)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mean_p95_max_and_ratio_of_known_frames() {
        let mut r = FrameRecorder::default();
        // 19 frames of 10 ms and one of 50 ms; each frame simulates half its time.
        for _ in 0..19 {
            r.record(0.010, 0.005);
        }
        r.record(0.050, 0.025);
        let s = r.summary();
        assert_eq!(s.frames, 20);
        assert!((s.mean_ms - 12.0).abs() < 1e-9, "{s:?}");
        // 95 % of 20 is 19 frames: the 19th smallest is still 10 ms.
        assert!((s.p95_ms - 10.0).abs() < 1e-9, "{s:?}");
        assert!((s.max_ms - 50.0).abs() < 1e-9, "{s:?}");
        assert!((s.sim_ratio - 0.5).abs() < 1e-9, "{s:?}");
    }

    #[test]
    fn nearest_rank_percentiles() {
        let v: Vec<f64> = (1..=100).map(f64::from).collect();
        assert_eq!(percentile_nearest_rank(&v, 95.0), 95.0);
        assert_eq!(percentile_nearest_rank(&v, 100.0), 100.0);
        assert_eq!(percentile_nearest_rank(&v, 0.0), 1.0);
        assert_eq!(percentile_nearest_rank(&[7.0], 95.0), 7.0);
    }

    #[test]
    fn no_frames_and_bad_times_stay_finite() {
        let mut r = FrameRecorder::default();
        assert_eq!(r.summary().frames, 0);
        r.record(f64::NAN, 1.0);
        r.record(-1.0, 1.0);
        r.record(f64::INFINITY, 1.0);
        assert_eq!(r.frames(), 0);
        r.record(0.0, f64::NAN);
        let s = r.summary();
        assert_eq!(s.frames, 1);
        assert!(s.mean_ms.is_finite() && s.sim_ratio.is_finite());
    }

    #[test]
    fn the_json_line_has_the_five_fields() {
        let mut r = FrameRecorder::default();
        r.record(1.0 / 60.0, 1.0 / 60.0);
        let json = r.summary().to_json();
        assert!(!json.contains('\n'));
        let v: serde_json::Value = serde_json::from_str(&json).unwrap();
        assert_eq!(v["frames"], 1);
        for key in ["mean_ms", "p95_ms", "max_ms", "sim_ratio"] {
            assert!(v[key].as_f64().unwrap().is_finite(), "{key}: {json}");
        }
        assert!((v["sim_ratio"].as_f64().unwrap() - 1.0).abs() < 1e-3);
    }
}
