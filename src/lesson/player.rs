//! The lesson player: a cursor over a recorded trace.
//!
//! The player owns the trace (a narrow phase's [`Trace`], or another topic's
//! [`super::topic::TopicTrace`]: anything that is [`Steps`]) and only moves an index through it, so stepping back
//! shows exactly what stepping forward showed and nothing is ever recomputed. Playing
//! advances by the elapsed time the caller passes in; the player never reads a clock.
//!
//! Steps group into *iterations*, the unit of "next iteration": a SAT axis together with
//! Fayzrakhmanov et al.'s (2015) edge test on it, one GJK loop, one EPA loop, a bounding-box test together
//! with the piece pair it lets through, and every other step on its own.

use super::narration::{narrate, Card};
use super::state::{state_at, StepState};
use crate::narrow::trace::{Trace, TraceStep};

/// The kind of a trace step, without its data (what [`Player::retrace`] matches on).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum StepKind {
    /// [`TraceStep::Begin`]
    Begin,
    /// [`TraceStep::BoundsTest`]
    BoundsTest,
    /// [`TraceStep::PiecePair`]
    PiecePair,
    /// [`TraceStep::SatAxis`]
    SatAxis,
    /// [`TraceStep::EdgeTest`]
    EdgeTest,
    /// [`TraceStep::Voronoi`]
    Voronoi,
    /// [`TraceStep::Gjk`]
    Gjk,
    /// [`TraceStep::GjkEnd`]
    GjkEnd,
    /// [`TraceStep::EpaStart`]
    EpaStart,
    /// [`TraceStep::Epa`]
    Epa,
    /// [`TraceStep::EpaEnd`]
    EpaEnd,
    /// [`TraceStep::Combine`]
    Combine,
    /// [`TraceStep::Clip`]
    Clip,
    /// [`TraceStep::Result`]
    Result,
}

impl StepKind {
    /// The kind of `step`.
    pub fn of(step: &TraceStep) -> StepKind {
        match step {
            TraceStep::Begin { .. } => StepKind::Begin,
            TraceStep::BoundsTest { .. } => StepKind::BoundsTest,
            TraceStep::PiecePair { .. } => StepKind::PiecePair,
            TraceStep::SatAxis(_) => StepKind::SatAxis,
            TraceStep::EdgeTest(_) => StepKind::EdgeTest,
            TraceStep::Voronoi(_) => StepKind::Voronoi,
            TraceStep::Gjk(_) => StepKind::Gjk,
            TraceStep::GjkEnd(_) => StepKind::GjkEnd,
            TraceStep::EpaStart(_) => StepKind::EpaStart,
            TraceStep::Epa(_) => StepKind::Epa,
            TraceStep::EpaEnd(_) => StepKind::EpaEnd,
            TraceStep::Combine(_) => StepKind::Combine,
            TraceStep::Clip(_) => StepKind::Clip,
            TraceStep::Result { .. } => StepKind::Result,
        }
    }

    /// False for the steps that finish the iteration before them (an edge test finishes
    /// its axis, a piece pair finishes its bounding-box test).
    fn starts_iteration(self) -> bool {
        !matches!(self, StepKind::EdgeTest | StepKind::PiecePair)
    }
}

/// Which loop of the algorithm a step belongs to, numbered the way its narration card
/// numbers it (1-based), so that the player's header and the card never disagree.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LoopPosition {
    /// The loop: SAT's axes, GJK's or EPA's iterations.
    pub kind: LoopKind,
    /// 1-based number of this pass through the loop.
    pub number: usize,
    /// Passes through this run of the loop (a piece pair's GJK run counts its own).
    pub count: usize,
}

/// The loops a trace steps through.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LoopKind {
    /// One SAT axis (with its edge test, when there is one).
    Axis,
    /// One GJK iteration.
    Gjk,
    /// One EPA iteration.
    Epa,
}

impl std::fmt::Display for LoopKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            LoopKind::Axis => "axis",
            LoopKind::Gjk => "GJK iteration",
            LoopKind::Epa => "EPA iteration",
        })
    }
}

impl std::fmt::Display for LoopPosition {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} {} of {}", self.kind, self.number, self.count)
    }
}

/// The loop pass step `index` of `steps` belongs to; `None` outside every loop.
pub fn loop_position(steps: &[TraceStep], index: usize) -> Option<LoopPosition> {
    // A run of one loop is the contiguous steps of its kind; GJK and EPA restart their
    // count for every piece pair, so the count is the run's, not the trace's.
    let run_length = |is_kind: fn(&TraceStep) -> bool| {
        let before = steps[..index].iter().rev().take_while(|s| is_kind(s)).count();
        let after = steps[index..].iter().take_while(|s| is_kind(s)).count();
        before + after
    };
    match steps.get(index)? {
        TraceStep::SatAxis(axis) => Some(LoopPosition {
            kind: LoopKind::Axis,
            number: axis.index + 1,
            count: axis.total,
        }),
        // An edge test finishes the axis before it.
        TraceStep::EdgeTest(_) if index > 0 => loop_position(steps, index - 1),
        TraceStep::Gjk(g) => Some(LoopPosition {
            kind: LoopKind::Gjk,
            number: g.iteration as usize + 1,
            count: run_length(|s| matches!(s, TraceStep::Gjk(_))),
        }),
        TraceStep::Epa(e) => Some(LoopPosition {
            kind: LoopKind::Epa,
            number: e.iteration as usize + 1,
            count: run_length(|s| matches!(s, TraceStep::Epa(_))),
        }),
        _ => None,
    }
}

/// What the player needs of a recorded trace: its length, where its iterations start,
/// and a kind per step (what [`Player::retrace`] matches on to keep its place).
pub trait Steps {
    /// Number of steps.
    fn step_count(&self) -> usize;
    /// True when step `index` starts a new iteration (step 0 always does).
    fn starts_iteration(&self, index: usize) -> bool;
    /// The kind of step `index`, as a number: steps of one kind are matched up by their
    /// ordinal when a trace is recomputed.
    fn step_kind(&self, index: usize) -> u32;
}

impl Steps for Trace {
    fn step_count(&self) -> usize {
        self.steps.len()
    }

    fn starts_iteration(&self, index: usize) -> bool {
        self.steps
            .get(index)
            .is_some_and(|s| StepKind::of(s).starts_iteration())
    }

    fn step_kind(&self, index: usize) -> u32 {
        self.steps.get(index).map_or(u32::MAX, |s| StepKind::of(s) as u32)
    }
}

/// What "play" advances by.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Granularity {
    /// One micro-step (one trace step) per tick.
    #[default]
    Step,
    /// One whole iteration per tick.
    Iteration,
}

/// A cursor over a recorded trace, with play at a speed.
#[derive(Clone, Debug, PartialEq)]
pub struct Player<T = Trace> {
    trace: T,
    /// Index of the step shown (steps `0..=cursor` have happened).
    cursor: usize,
    /// First step of every iteration, increasing, starting with 0.
    iteration_starts: Vec<usize>,
    playing: bool,
    /// Ticks per second while playing.
    speed: f32,
    granularity: Granularity,
    /// Seconds played but not yet turned into a tick.
    pending: f32,
}

/// Default playing speed: two ticks a second, slow enough to read the numbers change.
pub const DEFAULT_SPEED: f32 = 2.0;

impl<T: Steps> Player<T> {
    /// A player at the first step of `trace`, paused.
    pub fn new(trace: T) -> Player<T> {
        let iteration_starts = iteration_starts(&trace);
        Player {
            trace,
            cursor: 0,
            iteration_starts,
            playing: false,
            speed: DEFAULT_SPEED,
            granularity: Granularity::Step,
            pending: 0.0,
        }
    }

    /// The recorded trace.
    pub fn trace(&self) -> &T {
        &self.trace
    }

    /// Number of steps.
    pub fn len(&self) -> usize {
        self.trace.step_count()
    }

    /// True for an empty trace (nothing to show).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Index of the step shown.
    pub fn cursor(&self) -> usize {
        self.cursor
    }

    fn last_index(&self) -> usize {
        self.len().saturating_sub(1)
    }

    /// Shows step `index` (clamped to the last step). Returns whether the cursor moved.
    pub fn seek(&mut self, index: usize) -> bool {
        let target = index.min(self.last_index());
        let moved = target != self.cursor;
        self.cursor = target;
        moved
    }

    /// Back to the first step.
    pub fn first(&mut self) -> bool {
        self.seek(0)
    }

    /// To the last step (the answer).
    pub fn last(&mut self) -> bool {
        self.seek(self.last_index())
    }

    /// One step forward; false at the end.
    // Named after the player's button, like `first`, `prev` and `last`; the player is a
    // cursor, not an iterator (it yields nothing and can go back).
    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self) -> bool {
        self.seek(self.cursor + 1)
    }

    /// One step back; false at the start.
    pub fn prev(&mut self) -> bool {
        self.seek(self.cursor.saturating_sub(1))
    }

    /// Number of iterations (groups of steps).
    pub fn iteration_count(&self) -> usize {
        self.iteration_starts.len()
    }

    /// The iteration step `index` belongs to.
    pub fn iteration_of(&self, index: usize) -> usize {
        self.iteration_starts.partition_point(|&s| s <= index).saturating_sub(1)
    }

    /// The steps of iteration `iteration` (empty past the last).
    pub fn iteration_steps(&self, iteration: usize) -> std::ops::Range<usize> {
        let Some(&start) = self.iteration_starts.get(iteration) else {
            return 0..0;
        };
        let end = self.iteration_starts.get(iteration + 1).copied().unwrap_or(self.len());
        start..end
    }

    /// To the last step of the next iteration (the whole iteration has happened); from
    /// the middle of an iteration, to its end first. False at the end.
    pub fn next_iteration(&mut self) -> bool {
        let current = self.iteration_of(self.cursor);
        let end_of_current = self.iteration_steps(current).end.saturating_sub(1);
        if self.cursor < end_of_current {
            return self.seek(end_of_current);
        }
        let next = self.iteration_steps(current + 1);
        if next.is_empty() {
            return false;
        }
        self.seek(next.end - 1)
    }

    /// To the last step of the previous iteration. False at the start.
    pub fn prev_iteration(&mut self) -> bool {
        let current = self.iteration_of(self.cursor);
        if current == 0 {
            return self.first();
        }
        self.seek(self.iteration_steps(current - 1).end - 1)
    }

    /// Starts playing (from the first step when at the end).
    pub fn play(&mut self) {
        if self.cursor >= self.last_index() {
            self.cursor = 0;
        }
        self.playing = true;
        self.pending = 0.0;
    }

    /// Stops playing; the cursor stays.
    pub fn pause(&mut self) {
        self.playing = false;
        self.pending = 0.0;
    }

    /// Whether it is playing.
    pub fn is_playing(&self) -> bool {
        self.playing
    }

    /// Ticks per second while playing (clamped to 0.1 ..= 60; non-finite is ignored).
    pub fn set_speed(&mut self, ticks_per_second: f32) {
        if ticks_per_second.is_finite() {
            self.speed = ticks_per_second.clamp(0.1, 60.0);
        }
    }

    /// Ticks per second.
    pub fn speed(&self) -> f32 {
        self.speed
    }

    /// Whether a tick is a step or an iteration.
    pub fn set_granularity(&mut self, granularity: Granularity) {
        self.granularity = granularity;
    }

    /// What a tick is.
    pub fn granularity(&self) -> Granularity {
        self.granularity
    }

    /// Plays `elapsed_seconds` (the caller's frame time; negative or non-finite counts as
    /// 0). Returns the number of ticks taken; playing stops at the last step.
    pub fn advance(&mut self, elapsed_seconds: f32) -> usize {
        if !self.playing {
            return 0;
        }
        if elapsed_seconds.is_finite() && elapsed_seconds > 0.0 {
            self.pending += elapsed_seconds * self.speed;
        }
        let mut ticks = 0;
        while self.pending >= 1.0 {
            self.pending -= 1.0;
            let moved = match self.granularity {
                Granularity::Step => self.next(),
                Granularity::Iteration => self.next_iteration(),
            };
            if !moved {
                break;
            }
            ticks += 1;
        }
        if self.cursor >= self.last_index() {
            self.pause();
        }
        ticks
    }

    /// Replaces the trace (after an edit recomputed it) and keeps the place where it
    /// can: the step of the same kind with the same ordinal among the steps of that kind
    /// (the third GJK iteration stays the third), otherwise the same index, clamped.
    pub fn retrace(&mut self, trace: T) {
        let target = (self.cursor < self.len()).then(|| {
            let kind = self.trace.step_kind(self.cursor);
            let ordinal = (0..self.cursor).filter(|&i| self.trace.step_kind(i) == kind).count();
            (kind, ordinal)
        });
        let index = target
            .and_then(|(kind, ordinal)| {
                (0..trace.step_count())
                    .filter(|&i| trace.step_kind(i) == kind)
                    .nth(ordinal)
            })
            .unwrap_or(self.cursor);
        self.iteration_starts = iteration_starts(&trace);
        self.trace = trace;
        self.cursor = index.min(self.last_index());
    }
}

impl Player<Trace> {
    /// The step shown.
    pub fn step(&self) -> Option<&TraceStep> {
        self.trace.steps.get(self.cursor)
    }

    /// The views' data at the step shown.
    pub fn state(&self) -> StepState {
        state_at(&self.trace, self.cursor)
    }

    /// The views' data at step `index` (clamped).
    pub fn state_at(&self, index: usize) -> StepState {
        state_at(&self.trace, index)
    }

    /// The loop pass of the step shown, numbered as its card numbers it.
    pub fn loop_position(&self) -> Option<LoopPosition> {
        loop_position(&self.trace.steps, self.cursor)
    }

    /// The narration card of the step shown.
    pub fn card(&self) -> Card {
        narrate(&self.trace, self.cursor)
    }
}

/// First step of every iteration.
fn iteration_starts<T: Steps>(trace: &T) -> Vec<usize> {
    let mut starts: Vec<usize> = (0..trace.step_count())
        .filter(|&i| i == 0 || trace.starts_iteration(i))
        .collect();
    if starts.is_empty() {
        starts.push(0);
    }
    starts
}
