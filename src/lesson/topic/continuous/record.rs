//! The recorder lesson 16 passes to the world's own sweep
//! ([`ContinuousScratch::sweep_recorded`](crate::dynamics::ContinuousScratch)): what the
//! sweep tested, in order, as data the lesson steps read.

use crate::dynamics::ContinuousRecorder;
use crate::math::{Pose, Vec2};

/// What the sweep told the recorder, in order.
#[derive(Clone, Debug)]
pub(super) enum Event {
    Body {
        slot: usize,
        start: Pose,
        end: Pose,
        bound_m: f32,
    },
    Pose {
        tau: f32,
        pose: Pose,
        hit: bool,
    },
    Bracket {
        t0: f32,
        t1: f32,
        mid: f32,
        hit: bool,
    },
    Advanced {
        tau: f32,
        gap_m: f32,
        normal: Vec2,
        points: (Vec2, Vec2),
        step: f32,
    },
    Impact {
        tau: f32,
        nudge: Vec2,
    },
}

#[derive(Default)]
pub(super) struct Record(pub Vec<Event>);

impl ContinuousRecorder for Record {
    fn sweep_body(&mut self, slot: usize, start: &Pose, end: &Pose, bound_m: f32) {
        self.0.push(Event::Body {
            slot,
            start: *start,
            end: *end,
            bound_m,
        });
    }
    fn pose_sampled(&mut self, tau: f32, pose: &Pose, hit: bool) {
        self.0.push(Event::Pose { tau, pose: *pose, hit });
    }
    fn bracket(&mut self, t0: f32, t1: f32, mid: f32, hit: bool) {
        self.0.push(Event::Bracket { t0, t1, mid, hit });
    }
    fn advanced(&mut self, _target: usize, tau: f32, gap_m: f32, normal: Vec2, points: (Vec2, Vec2), step: f32) {
        self.0.push(Event::Advanced {
            tau,
            gap_m,
            normal,
            points,
            step,
        });
    }
    fn impact(&mut self, _slot: usize, tau: f32, nudge: Vec2) {
        self.0.push(Event::Impact { tau, nudge });
    }
}

/// The pose of the body's origin at τ, linear in position and angle between `start`
/// and `end` as the integrator moved it (for drawing a τ the recorder named).
pub(super) fn lerp_pose(start: &Pose, end: &Pose, tau: f32) -> Pose {
    let a0 = start.rotation.angle();
    let mut da = end.rotation.angle() - a0;
    // The step turned the body by less than half a turn: take the short way round.
    if da > std::f32::consts::PI {
        da -= std::f32::consts::TAU;
    } else if da < -std::f32::consts::PI {
        da += std::f32::consts::TAU;
    }
    Pose::new(
        start.translation + (end.translation - start.translation) * tau,
        a0 + da * tau,
    )
}
