//! What the live plots show: one sample per simulation step, kept for the last
//! [`HISTORY_SECONDS`] of simulated time, and the frame-time split.

use crate::dynamics::{DisagreementKind, StepReport};
use crate::narrow::Algorithm;
use std::collections::VecDeque;

/// Seconds of samples kept for the plots.
pub const HISTORY_SECONDS: f64 = 10.0;

/// One step's numbers, in milliseconds and counts.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct StepSample {
    /// Simulated time at the end of the step (s).
    pub time_s: f64,
    /// The narrow phase the step used.
    pub algorithm: Option<Algorithm>,
    /// Broad phase (ms).
    pub broad_ms: f64,
    /// Narrow phase (ms).
    pub narrow_ms: f64,
    /// Contact resolution (ms).
    pub resolution_ms: f64,
    /// Integration (ms).
    pub integration_ms: f64,
    /// Pseudo-continuous detection (ms).
    pub continuous_ms: f64,
    /// The whole step (ms).
    pub total_ms: f64,
    /// Narrow-phase Nv: bounding-volume tests ([`crate::narrow::Work::bv_tests`]).
    pub nv: u64,
    /// Narrow-phase Np: primitive tests ([`crate::narrow::Work::primitive_tests`]).
    pub np: u64,
    /// Candidate pairs from the broad phase.
    pub candidate_pairs: u32,
    /// Contacts found.
    pub contacts: u32,
    /// Race mode: narrow time of each algorithm on the same pairs (ms), in
    /// [`Algorithm::ALL`] order.
    pub race_ms: Option<[f64; 3]>,
    /// Race mode: disagreements with the chosen algorithm in this step.
    pub race_disagreements: u32,
    /// Race mode: this step's disagreements by kind, in [`DisagreementKind::ALL`] order.
    pub race_by_kind: [u32; 3],
    /// Race mode: this step's disagreements by the disagreeing algorithm, in
    /// [`Algorithm::ALL`] order.
    pub race_by_other: [u32; 3],
    /// Race mode: this step's pairs each algorithm got wrong by the exact oracle, in
    /// [`Algorithm::ALL`] order.
    pub race_wrong_by_exact: [u32; 3],
    /// Race mode: the pairs the oracle answered this step.
    pub race_exact_checked: u32,
}

impl StepSample {
    /// The sample of a step that ended at `time_s`.
    pub fn from_report(time_s: f64, algorithm: Algorithm, report: &StepReport) -> StepSample {
        let p = &report.profile;
        let ms = |d: std::time::Duration| d.as_secs_f64() * 1e3;
        StepSample {
            time_s,
            algorithm: Some(algorithm),
            broad_ms: ms(p.broad),
            narrow_ms: ms(p.narrow),
            resolution_ms: ms(p.resolution),
            integration_ms: ms(p.integration),
            continuous_ms: ms(p.continuous),
            total_ms: ms(p.total),
            nv: u64::from(p.work.bv_tests),
            np: u64::from(p.work.primitive_tests),
            candidate_pairs: p.candidate_pairs,
            contacts: p.contacts,
            race_ms: report
                .race
                .as_ref()
                .map(|r| r.per_algorithm.each_ref().map(|s| s.time.as_secs_f64() * 1e3)),
            race_disagreements: report.race.as_ref().map_or(0, |r| r.disagreements.len() as u32),
            race_by_kind: report.race.as_ref().map_or([0; 3], |r| {
                DisagreementKind::ALL.map(|k| r.disagreements.iter().filter(|d| d.kind == k).count() as u32)
            }),
            race_by_other: report.race.as_ref().map_or([0; 3], |r| {
                Algorithm::ALL.map(|a| r.disagreements.iter().filter(|d| d.other == a).count() as u32)
            }),
            race_wrong_by_exact: report.race.as_ref().map_or([0; 3], |r| r.wrong_by_exact),
            race_exact_checked: report.race.as_ref().map_or(0, |r| r.exact_checked),
        }
    }
}

/// Where one frame's wall time went (ms).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct FrameTimes {
    /// Simulation steps run this frame.
    pub simulation_ms: f64,
    /// The egui overlay: building it, tessellating and painting it.
    pub ui_ms: f64,
    /// Drawing the world and the debug layers (with refreshing their cache): building
    /// the batches (CPU).
    pub drawing_ms: f64,
    /// The previous frame's hand-over to the GPU (`next_frame`: the batches' draw calls
    /// run, then the buffer swap, which may wait for vsync). On a software renderer this
    /// is where rasterising goes.
    pub present_ms: f64,
    /// The whole frame as the window reports it (includes waiting for vsync).
    pub frame_ms: f64,
}

/// The samples of the last [`HISTORY_SECONDS`], plus running totals.
#[derive(Clone, Debug, Default)]
pub struct History {
    /// Step samples, oldest first.
    pub steps: VecDeque<StepSample>,
    /// Frame-time samples (wall time since start in s, times), oldest first.
    pub frames: VecDeque<(f64, FrameTimes)>,
    /// Race-mode disagreements since the race was turned on (or reset).
    pub race_disagreements_total: u64,
    /// The same, by kind ([`DisagreementKind::ALL`] order).
    pub race_by_kind_total: [u64; 3],
    /// The same, by the disagreeing algorithm ([`Algorithm::ALL`] order).
    pub race_by_other_total: [u64; 3],
    /// Steps raced since the counters were reset.
    pub race_steps_total: u64,
    /// Pairs each algorithm got wrong by the exact oracle ([`Algorithm::ALL`] order),
    /// over the raced steps.
    pub race_wrong_by_exact_total: [u64; 3],
    /// Pairs the oracle answered over the raced steps.
    pub race_exact_checked_total: u64,
}

impl History {
    /// Adds a step sample and drops those older than [`HISTORY_SECONDS`].
    pub fn push_step(&mut self, sample: StepSample) {
        self.race_disagreements_total += u64::from(sample.race_disagreements);
        if sample.race_ms.is_some() {
            self.race_steps_total += 1;
        }
        for (total, n) in self.race_by_kind_total.iter_mut().zip(sample.race_by_kind) {
            *total += u64::from(n);
        }
        for (total, n) in self.race_by_other_total.iter_mut().zip(sample.race_by_other) {
            *total += u64::from(n);
        }
        for (total, n) in self
            .race_wrong_by_exact_total
            .iter_mut()
            .zip(sample.race_wrong_by_exact)
        {
            *total += u64::from(n);
        }
        self.race_exact_checked_total += u64::from(sample.race_exact_checked);
        // Time went backwards (reset, undo): the old curve no longer belongs to this run.
        if self.steps.back().is_some_and(|last| last.time_s > sample.time_s) {
            self.steps.clear();
        }
        self.steps.push_back(sample);
        while self
            .steps
            .front()
            .is_some_and(|s| sample.time_s - s.time_s > HISTORY_SECONDS)
        {
            self.steps.pop_front();
        }
    }

    /// Adds a frame sample taken at wall time `now_s`.
    pub fn push_frame(&mut self, now_s: f64, times: FrameTimes) {
        self.frames.push_back((now_s, times));
        while self.frames.front().is_some_and(|(t, _)| now_s - t > HISTORY_SECONDS) {
            self.frames.pop_front();
        }
    }

    /// Mean frame times over the last second (smooths the readout).
    pub fn recent_frame_mean(&self) -> FrameTimes {
        let Some(&(now, _)) = self.frames.back() else {
            return FrameTimes::default();
        };
        let mut sum = FrameTimes::default();
        let mut n = 0.0;
        for (_, f) in self.frames.iter().rev().take_while(|(t, _)| now - t <= 1.0) {
            sum.simulation_ms += f.simulation_ms;
            sum.ui_ms += f.ui_ms;
            sum.drawing_ms += f.drawing_ms;
            sum.present_ms += f.present_ms;
            sum.frame_ms += f.frame_ms;
            n += 1.0;
        }
        FrameTimes {
            simulation_ms: sum.simulation_ms / n,
            ui_ms: sum.ui_ms / n,
            drawing_ms: sum.drawing_ms / n,
            present_ms: sum.present_ms / n,
            frame_ms: sum.frame_ms / n,
        }
    }

    /// Forgets everything (new scene).
    pub fn clear(&mut self) {
        self.steps.clear();
        self.reset_race_counters();
    }

    /// Zeroes the race's disagreement counters (the plots keep their samples).
    pub fn reset_race_counters(&mut self) {
        self.race_disagreements_total = 0;
        self.race_by_kind_total = [0; 3];
        self.race_by_other_total = [0; 3];
        self.race_steps_total = 0;
        self.race_wrong_by_exact_total = [0; 3];
        self.race_exact_checked_total = 0;
    }

    /// Simulated time of the newest sample (s); the plots' x axis is time before it.
    fn now_s(&self) -> f64 {
        self.steps.back().map_or(0.0, |s| s.time_s)
    }

    /// One series of `(seconds before the newest step, value)` from every step sample.
    pub fn series(&self, value: impl Fn(&StepSample) -> f64) -> Vec<[f64; 2]> {
        let now = self.now_s();
        decimate(
            self.steps.iter().map(|s| [s.time_s - now, value(s)]).collect(),
            MAX_PLOT_POINTS,
        )
    }

    /// Time per phase (ms), one series per phase of [`PHASES`], in that order.
    pub fn phase_series(&self) -> Vec<(&'static str, Vec<[f64; 2]>)> {
        PHASES.iter().map(|&(name, f)| (name, self.series(f))).collect()
    }

    /// Narrow-phase time (ms) split into runs of consecutive steps that used one
    /// algorithm: switching algorithms ends a run, so each algorithm's line shows only
    /// the steps it ran (and never joins across another's).
    pub fn narrow_runs(&self) -> Vec<(Algorithm, Vec<[f64; 2]>)> {
        let now = self.now_s();
        let mut runs: Vec<(Algorithm, Vec<[f64; 2]>)> = Vec::new();
        for s in &self.steps {
            let Some(a) = s.algorithm else { continue };
            let point = [s.time_s - now, s.narrow_ms];
            match runs.last_mut() {
                Some((last, points)) if *last == a => points.push(point),
                _ => runs.push((a, vec![point])),
            }
        }
        for (_, points) in &mut runs {
            *points = decimate(std::mem::take(points), MAX_PLOT_POINTS);
        }
        runs
    }

    /// Race mode: each algorithm's narrow time (ms) on the same pairs, in
    /// [`Algorithm::ALL`] order, over the raced steps only.
    pub fn race_series(&self) -> [Vec<[f64; 2]>; 3] {
        let now = self.now_s();
        std::array::from_fn(|i| {
            decimate(
                self.steps
                    .iter()
                    .filter_map(|s| s.race_ms.map(|r| [s.time_s - now, r[i]]))
                    .collect(),
                MAX_PLOT_POINTS,
            )
        })
    }

    /// Race mode: each algorithm's mean narrow time per step (ms) over the raced steps
    /// of the last `window_s` seconds of simulated time; None when none was raced.
    pub fn race_mean(&self, window_s: f64) -> Option<[f64; 3]> {
        let now = self.now_s();
        let mut sum = [0.0; 3];
        let mut n = 0u32;
        for r in self
            .steps
            .iter()
            .rev()
            .take_while(|s| now - s.time_s <= window_s)
            .filter_map(|s| s.race_ms)
        {
            for (acc, v) in sum.iter_mut().zip(r) {
                *acc += v;
            }
            n += 1;
        }
        (n > 0).then(|| sum.map(|v| v / f64::from(n)))
    }
}

/// How a plot reads one value from a sample.
pub type SampleValue = fn(&StepSample) -> f64;

/// The phases the first plot shows, with how to read each from a sample.
pub const PHASES: [(&str, SampleValue); 6] = [
    ("broad", |s| s.broad_ms),
    ("narrow", |s| s.narrow_ms),
    ("resolution", |s| s.resolution_ms),
    ("integration", |s| s.integration_ms),
    ("continuous", |s| s.continuous_ms),
    ("total", |s| s.total_ms),
];

/// Most points a plotted series keeps: about one per pixel of a side-panel plot. More
/// only costs egui tessellation time (with ten lines of 600 points it was the largest
/// part of a frame's drawing).
pub const MAX_PLOT_POINTS: usize = 320;

/// Thins `points` to at most about `max` by keeping, of each run of consecutive points,
/// the one with the largest value: spikes (the thing a timing plot is for) survive.
pub fn decimate(points: Vec<[f64; 2]>, max: usize) -> Vec<[f64; 2]> {
    if points.len() <= max || max == 0 {
        return points;
    }
    let bucket = points.len().div_ceil(max);
    points
        .chunks(bucket)
        .filter_map(|c| c.iter().copied().max_by(|a, b| a[1].total_cmp(&b[1])))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(t: f64) -> StepSample {
        StepSample {
            time_s: t,
            ..StepSample::default()
        }
    }

    #[test]
    fn keeps_only_the_last_ten_seconds() {
        let mut h = History::default();
        for i in 0..=1200 {
            h.push_step(at(i as f64 / 60.0));
        }
        let span = h.steps.back().unwrap().time_s - h.steps.front().unwrap().time_s;
        assert!(
            span <= HISTORY_SECONDS + 1e-9 && span > HISTORY_SECONDS - 0.05,
            "{span}"
        );
    }

    #[test]
    fn time_going_back_starts_a_new_curve() {
        let mut h = History::default();
        h.push_step(at(1.0));
        h.push_step(at(2.0));
        h.push_step(at(0.1));
        assert_eq!(h.steps.len(), 1);
    }

    #[test]
    fn frame_mean_covers_the_last_second() {
        let mut h = History::default();
        let f = |ms| FrameTimes {
            simulation_ms: ms,
            ..FrameTimes::default()
        };
        h.push_frame(0.0, f(100.0));
        h.push_frame(5.0, f(2.0));
        h.push_frame(5.5, f(4.0));
        assert_eq!(h.recent_frame_mean().simulation_ms, 3.0);
    }

    fn narrow(t: f64, a: Algorithm, ms: f64) -> StepSample {
        StepSample {
            time_s: t,
            algorithm: Some(a),
            narrow_ms: ms,
            ..StepSample::default()
        }
    }

    #[test]
    fn switching_algorithms_splits_the_narrow_line_into_runs() {
        let mut h = History::default();
        // Keys 1, 2, 1: three runs, each only its own steps, x measured back from now.
        h.push_step(narrow(0.1, Algorithm::NonConvexSat, 1.0));
        h.push_step(narrow(0.2, Algorithm::NonConvexSat, 1.0));
        h.push_step(narrow(0.3, Algorithm::GjkEpa, 5.0));
        h.push_step(narrow(0.4, Algorithm::NonConvexSat, 1.5));
        let runs = h.narrow_runs();
        let algs: Vec<Algorithm> = runs.iter().map(|r| r.0).collect();
        assert_eq!(
            algs,
            [Algorithm::NonConvexSat, Algorithm::GjkEpa, Algorithm::NonConvexSat]
        );
        assert_eq!(runs[0].1.len(), 2);
        assert_eq!(runs[1].1, vec![[0.3 - 0.4, 5.0]]);
        assert_eq!(runs[2].1, vec![[0.0, 1.5]]);
    }

    #[test]
    fn race_series_and_means_cover_raced_steps_only() {
        let mut h = History::default();
        h.push_step(narrow(0.5, Algorithm::NonConvexSat, 1.0));
        for (i, t) in [1.0, 1.5, 2.0].into_iter().enumerate() {
            h.push_step(StepSample {
                race_ms: Some([1.0, 2.0 + i as f64, 4.0]),
                race_disagreements: 2,
                race_by_kind: [1, 1, 0],
                race_by_other: [0, 0, 2],
                ..narrow(t, Algorithm::NonConvexSat, 1.0)
            });
        }
        let series = h.race_series();
        assert!(series.iter().all(|s| s.len() == 3));
        assert_eq!(series[1], vec![[-1.0, 2.0], [-0.5, 3.0], [0.0, 4.0]]);
        // The last second holds the steps at 1.0, 1.5 and 2.0.
        assert_eq!(h.race_mean(1.0), Some([1.0, 3.0, 4.0]));
        assert_eq!(h.race_disagreements_total, 6);
        assert_eq!(h.race_by_kind_total, [3, 3, 0]);
        assert_eq!(h.race_by_other_total, [0, 0, 6]);
        assert_eq!(h.race_steps_total, 3);
        h.reset_race_counters();
        assert_eq!(h.race_disagreements_total, 0);
        assert_eq!(h.race_series()[0].len(), 3, "the samples stay");
        let mut quiet = History::default();
        quiet.push_step(narrow(0.1, Algorithm::GjkEpa, 1.0));
        assert_eq!(quiet.race_mean(1.0), None);
    }

    #[test]
    fn phase_series_follow_the_samples() {
        let mut h = History::default();
        h.push_step(StepSample {
            broad_ms: 0.5,
            total_ms: 2.0,
            ..at(1.0)
        });
        let p = h.phase_series();
        assert_eq!(p.len(), 6);
        assert_eq!(p[0], ("broad", vec![[0.0, 0.5]]));
        assert_eq!(p[5].1, vec![[0.0, 2.0]]);
    }

    #[test]
    fn decimation_keeps_the_spikes() {
        let mut points: Vec<[f64; 2]> = (0..10_000).map(|i| [i as f64, 1.0]).collect();
        points[4321][1] = 50.0;
        let thin = decimate(points, MAX_PLOT_POINTS);
        assert!(thin.len() <= MAX_PLOT_POINTS, "{}", thin.len());
        assert!(thin.iter().any(|p| p[1] == 50.0));
    }
}
