//! Watching a step from inside: the solvers' passes as data, for the lessons.
//!
//! [`World::step_observed`](super::World::step_observed) takes a [`StepObserver`] and
//! calls it at the start of every substep and after every pass of the chosen solver —
//! each velocity and relax iteration of sequential impulses, each position and velocity
//! pass of the position-based solver, each pair the literal projection moves — with a
//! read-only [`PassView`]: every body's pose and velocity after the pass, and every
//! contact point's normal, anchors, accumulated impulse and separation.
//!
//! Why an observer and not a recorded trace: the solvers' loops are the hot path of
//! every step. [`World::step`](super::World::step) passes [`NoObserver`], whose methods
//! are empty, and the solvers call it between passes, never inside one: the step
//! computes the same bits (the determinism hashes) and costs what it cost (callgrind,
//! 20 steps of the 20-row pyramid: 146.59 M instructions before, 145.39 M after, the
//! difference being the compiler's register allocation in `xpbd::solve_step`). The
//! view computes poses and points only when asked. This is rapier's debug-render
//! choice: the engine hands over its state, the caller decides what to keep.

use super::body::BodySet;
use super::body_state::BodyStates;
use super::constraint::Constraints;
use crate::math::{Pose, Rot, Vec2};

/// Which pass of a step has just finished.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PassKind {
    /// Sequential impulses: last step's accumulated impulses applied before the first
    /// iteration (warm start; also reported, with nothing applied, when it is off).
    WarmStart,
    /// Sequential impulses: one velocity iteration, with the soft position bias.
    VelocityIteration,
    /// Both solvers: positions integrated from velocities (x += v·h; for the
    /// position-based solver, the prediction after v += g·h).
    Integrate,
    /// Sequential impulses: one relax iteration (no bias), after the positions moved.
    RelaxIteration,
    /// Sequential impulses: the restitution pass, once after the substeps.
    Restitution,
    /// Position-based: static friction's pull-back of old drift, once before the
    /// substeps.
    PullBack,
    /// Position-based: one position pass (each point projected out to its slop; in a
    /// substep's last, each constraint's points then held by static friction).
    PositionPass,
    /// Position-based: velocities derived from the positions, v = Δx/h.
    DeriveVelocities,
    /// Position-based: the velocity pass, once per substep (restitution or zero normal
    /// speed, then dynamic friction).
    VelocityPass,
    /// Literal projection: one overlapping pair moved apart and its approach cancelled.
    LiteralPair,
}

/// What the literal projection did to one pair ([`PassKind::LiteralPair`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LiteralMove {
    /// Slot of the pair's first body, A.
    pub slot_a: u32,
    /// Slot of the pair's second body, B.
    pub slot_b: u32,
    /// How far A was moved (m, world frame): the whole MTV when A can move.
    pub move_a: Vec2,
    /// How far B was moved: the MTV's opposite when A cannot move, else zero.
    pub move_b: Vec2,
    /// The impulse applied to B, its opposite to A (N·s, world frame; zero when the
    /// pair was not approaching).
    pub impulse: Vec2,
    /// The unit normal from A to B.
    pub normal: Vec2,
}

/// One contact point of the solvers' constraints, as a pass left it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PointView {
    /// Slot of the pair's first body, A.
    pub slot_a: u32,
    /// Slot of the pair's second body, B.
    pub slot_b: u32,
    /// Unit normal from A towards B (world frame).
    pub normal: Vec2,
    /// The point's material anchor on A, where A is now (m, world frame).
    pub anchor_a: Vec2,
    /// The same on B; the anchors coincide when the point just touches.
    pub anchor_b: Vec2,
    /// The accumulated normal impulse: N·s for sequential impulses (warm started from
    /// the last step); for the position-based solver, the positional impulse λ of the
    /// substep so far (kg·m: a body moves by λ times its inverse mass).
    pub normal_impulse: f32,
    /// The accumulated tangent (friction) impulse, in the same units.
    pub tangent_impulse: f32,
    /// Separation along the normal now (m; negative: overlap).
    pub separation: f32,
}

/// A read-only look at the solver's state after one pass. Poses and points are
/// computed when asked for, so an observer that reads nothing costs nothing.
#[derive(Clone, Copy)]
pub struct PassView<'a> {
    /// The pass that has just finished.
    pub kind: PassKind,
    /// The substep it belongs to (0-based; 0 for the passes outside the substeps).
    pub substep: u32,
    /// Its index among the passes of its kind in the substep (the iteration; for
    /// [`PassKind::LiteralPair`], the pair's index in the detection's order).
    pub index: u32,
    /// The bodies as at the start of the step (the solvers work on deltas from them);
    /// under the literal projection, as they are now.
    bodies: &'a BodySet,
    solver: Option<(&'a BodyStates, &'a Constraints)>,
    literal: Option<LiteralMove>,
}

impl<'a> PassView<'a> {
    pub(crate) fn solver(
        kind: PassKind,
        substep: u32,
        index: u32,
        bodies: &'a BodySet,
        states: &'a BodyStates,
        constraints: &'a Constraints,
    ) -> PassView<'a> {
        PassView {
            kind,
            substep,
            index,
            bodies,
            solver: Some((states, constraints)),
            literal: None,
        }
    }

    pub(crate) fn literal(substep: u32, index: u32, bodies: &'a BodySet, moved: LiteralMove) -> PassView<'a> {
        PassView {
            kind: PassKind::LiteralPair,
            substep,
            index,
            bodies,
            solver: None,
            literal: Some(moved),
        }
    }

    /// How many body slots there are (some may be empty).
    pub fn slot_count(&self) -> usize {
        self.bodies.slot_count()
    }

    /// The pose of the body in `slot` after this pass (`None` for an empty slot).
    pub fn pose(&self, slot: usize) -> Option<Pose> {
        let body = self.bodies.slot(slot)?;
        let Some((states, _)) = self.solver else {
            return Some(body.pose());
        };
        let s = states.states.get(slot)?;
        let center = body.center_of_mass() + s.dp;
        let rotation = Rot::from_angle(body.angle() + s.dtheta);
        Some(Pose {
            translation: center - rotation.apply(body.local_center()),
            rotation,
        })
    }

    /// The centre of mass of the body in `slot` after this pass (m).
    pub fn center_of_mass(&self, slot: usize) -> Option<Vec2> {
        let body = self.bodies.slot(slot)?;
        match self.solver {
            Some((states, _)) => Some(body.center_of_mass() + states.states.get(slot)?.dp),
            None => Some(body.center_of_mass()),
        }
    }

    /// The linear and angular velocity of the body in `slot` after this pass.
    pub fn velocity(&self, slot: usize) -> Option<(Vec2, f32)> {
        let body = self.bodies.slot(slot)?;
        match self.solver {
            Some((states, _)) => states.states.get(slot).map(|s| (s.v, s.w)),
            None => Some((body.linear_velocity(), body.angular_velocity())),
        }
    }

    /// Every contact point of the solver's constraints, in the solver's order (empty
    /// under the literal projection, which has no constraints: see
    /// [`PassView::literal_move`]).
    pub fn points(&self) -> impl Iterator<Item = PointView> + 'a {
        let bodies = self.bodies;
        // Anchors are stored from the centres of mass at the start of the step.
        let start = move |slot: u32| bodies.slot(slot as usize).map_or(Vec2::ZERO, |b| b.center_of_mass());
        self.solver.into_iter().flat_map(move |(states, constraints)| {
            constraints.iter().flat_map(move |(c, points)| {
                let (a, b) = (states.states[c.a as usize], states.states[c.b as usize]);
                let (slot_a, slot_b) = (c.a, c.b);
                let (start_a, start_b) = (start(slot_a), start(slot_b));
                points.iter().map(move |p| PointView {
                    slot_a,
                    slot_b,
                    normal: p.normal,
                    anchor_a: start_a + a.dp + a.dq.apply(p.anchor_a),
                    anchor_b: start_b + b.dp + b.dq.apply(p.anchor_b),
                    normal_impulse: p.normal_impulse,
                    tangent_impulse: p.tangent_impulse,
                    separation: p.current_separation(&a, &b),
                })
            })
        })
    }

    /// What the literal projection did to the pair of this pass.
    pub fn literal_move(&self) -> Option<LiteralMove> {
        self.literal
    }
}

/// Called by [`World::step_observed`](super::World::step_observed) from inside the step.
/// Every method does nothing unless overridden.
pub trait StepObserver {
    /// A substep is about to begin (0-based; it restarts when a long `dt` is taken as
    /// several steps).
    #[inline(always)]
    fn substep_begun(&mut self, _substep: u32) {}

    /// A pass of the solver has just finished.
    #[inline(always)]
    fn iteration_done(&mut self, _pass: &PassView<'_>) {}

    /// Whether this observer looks at the passes at all: when it does not, the solvers
    /// need not bring the constraints up to date between passes (the four-wide impulse
    /// solver keeps its impulses in its bundles until the end of the step).
    #[inline(always)]
    fn watches_passes(&self) -> bool {
        true
    }
}

/// The observer of [`World::step`](super::World::step): watches nothing.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoObserver;

impl StepObserver for NoObserver {
    #[inline(always)]
    fn watches_passes(&self) -> bool {
        false
    }
}

/// What the solvers call: the same two events with their internal types. The world's
/// [`Watch`] adds the bodies and hands a [`PassView`] to the observer.
///
/// The solvers take it as `&mut dyn SolverWatch`, not generically: made generic,
/// `xpbd::solve_step` was compiled where the world instantiates it, its passes were no
/// longer inlined into it, and the 20-row pyramid's 20 steps took 0.45% more
/// instructions (callgrind). A dynamic call per pass (a few dozen per step) costs
/// nothing measurable and leaves the solvers' code as it was.
pub(crate) trait SolverWatch {
    fn substep_begun(&mut self, substep: u32);
    fn pass_done(&mut self, kind: PassKind, substep: u32, index: u32, states: &BodyStates, constraints: &Constraints);
    /// Whether `pass_done` looks at the constraints ([`StepObserver::watches_passes`]).
    fn watching(&self) -> bool;
}

/// A [`StepObserver`] with the bodies at the start of the step.
pub(crate) struct Watch<'a, O: StepObserver> {
    pub bodies: &'a BodySet,
    pub observer: &'a mut O,
}

impl<O: StepObserver> SolverWatch for Watch<'_, O> {
    #[inline(always)]
    fn substep_begun(&mut self, substep: u32) {
        self.observer.substep_begun(substep);
    }

    #[inline(always)]
    fn watching(&self) -> bool {
        self.observer.watches_passes()
    }

    #[inline(always)]
    fn pass_done(&mut self, kind: PassKind, substep: u32, index: u32, states: &BodyStates, constraints: &Constraints) {
        self.observer.iteration_done(&PassView::solver(
            kind,
            substep,
            index,
            self.bodies,
            states,
            constraints,
        ));
    }
}
