//! What the live plots show: one sample per simulation step, kept for the last
//! [`HISTORY_SECONDS`] of simulated time, and the frame-time split.

use crate::dynamics::StepReport;
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
        }
    }
}

/// Where one frame's wall time went (ms).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct FrameTimes {
    /// Simulation steps run this frame.
    pub simulation_ms: f64,
    /// Building the egui overlay.
    pub ui_ms: f64,
    /// Drawing the world, the debug layers and the overlay.
    pub drawing_ms: f64,
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
}

impl History {
    /// Adds a step sample and drops those older than [`HISTORY_SECONDS`].
    pub fn push_step(&mut self, sample: StepSample) {
        self.race_disagreements_total += u64::from(sample.race_disagreements);
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
            sum.frame_ms += f.frame_ms;
            n += 1.0;
        }
        FrameTimes {
            simulation_ms: sum.simulation_ms / n,
            ui_ms: sum.ui_ms / n,
            drawing_ms: sum.drawing_ms / n,
            frame_ms: sum.frame_ms / n,
        }
    }

    /// Forgets everything (new scene).
    pub fn clear(&mut self) {
        self.steps.clear();
        self.race_disagreements_total = 0;
    }
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
}
