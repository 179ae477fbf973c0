//! What a run carries from one step to the next beyond the bodies' poses and
//! velocities, as plain data: taken with [`World::snapshot`](super::World::snapshot)
//! and put back with [`World::restore`](super::World::restore), so that a saved run
//! continues exactly (the same [`state hash`](super::World::state_hash)) as if it had
//! never stopped.
//!
//! The engine's own types, not serde: a scene file stores a snapshot in its `state`
//! block through its own definition types and converts. Why each part is needed for the
//! same bits (`world/resume.rs`):
//! - **time and step count**, which the run reports;
//! - per body, the **exact state** the world integrates (centre of mass, angle, the
//!   centre's velocity, spin: a body's saved origin is rebuilt from the centre with a
//!   rounding) and its **sleep** state;
//! - the **slot table**: each body's slot and generation, and the free slots in the
//!   order they were freed, so handles and the reuse of slots continue;
//! - the **scene box** the kill distance is measured from;
//! - the **contacts** of the last step with the resolution and narrow phase they were
//!   made with: per point its feature id, anchors, separation, accumulated impulses (the
//!   warm start) and static friction's stick points.

use super::settings::Resolution;
use crate::bounds::Aabb;
use crate::math::Vec2;
use crate::narrow::Algorithm;

/// The state of a world between two steps (see the module docs).
#[derive(Clone, Debug, PartialEq)]
pub struct Snapshot {
    /// Simulated time (s).
    pub time: f64,
    /// Steps taken.
    pub steps: u64,
    /// The resolution the contacts were made with. Restored under other settings, the
    /// contacts are forgotten at the next step (their impulses mean nothing to another
    /// solver); everything else is kept.
    pub resolution: Resolution,
    /// The narrow phase the contacts were made with (see `resolution`).
    pub narrow_phase: Algorithm,
    /// The box around every body the world was given; `None`: the box of the bodies as
    /// built.
    pub scene_box: Option<Aabb>,
    /// One entry per body, in the world's slot order.
    pub bodies: Vec<BodySnapshot>,
    /// Slots left free by removed bodies, `(slot, generation)`, in the order they were
    /// freed (a new body takes the last).
    pub free_slots: Vec<(u32, u32)>,
    /// The contacts of the last step, sorted by their bodies.
    pub contacts: Vec<PairSnapshot>,
}

/// One body's state.
#[derive(Clone, Debug, PartialEq)]
pub struct BodySnapshot {
    /// The body's slot in the world (handles name it).
    pub slot: u32,
    /// How many times the slot was reused (handles name it too).
    pub generation: u32,
    /// Centre of mass (m, world frame).
    pub center: Vec2,
    /// Angle (rad).
    pub angle: f32,
    /// Velocity of the centre of mass (m/s, world frame).
    pub velocity: Vec2,
    /// Angular velocity (rad/s).
    pub spin: f32,
    /// Asleep.
    pub asleep: bool,
    /// How long the body has been slow enough to sleep (s).
    pub rest_time: f32,
    /// Where its centre of mass was and its angle when it last began to keep still (m,
    /// rad; `sleep.rs`).
    pub rest_anchor: (Vec2, f32),
    /// The island it fell asleep with (its smallest slot).
    pub island: Option<u32>,
}

/// The contact of one pair of bodies.
#[derive(Clone, Debug, PartialEq)]
pub struct PairSnapshot {
    /// The two bodies, A then B, as indices into [`Snapshot::bodies`].
    pub bodies: (usize, usize),
    /// Its points, 1 to [`MAX_POINTS_PER_PAIR`].
    pub points: Vec<PointSnapshot>,
    /// What decides whether the next step reuses the contact instead of testing the
    /// pair again (`contacts.rs`); `None`: it tests it.
    pub reuse: Option<PairReuseSnapshot>,
}

/// When the narrow phase last ran on a pair: what it said and where the bodies were.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PairReuseSnapshot {
    /// The pair overlapped.
    pub touching: bool,
    /// B's centre of mass seen from A's (A's axes, m).
    pub translation: Vec2,
    /// B's angle less A's (rad).
    pub angle: f32,
    /// The pair's speculative margin (m).
    pub margin: f32,
}

/// Most points one pair of bodies holds (the solvers' limit).
pub const MAX_POINTS_PER_PAIR: usize = super::contacts::MAX_POINTS;

/// One contact point as the next step's warm start reads it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PointSnapshot {
    /// The touching features (the narrow phase's packed feature id).
    pub id: u64,
    /// Unit normal from A towards B (world frame).
    pub normal: Vec2,
    /// The point from A's centre of mass, in A's own frame (m).
    pub local_a: Vec2,
    /// The point from B's centre of mass, in B's own frame (m).
    pub local_b: Vec2,
    /// Separation (m; negative: overlap).
    pub separation: f32,
    /// Angle of B less angle of A when the point was found (rad).
    pub relative_angle: f32,
    /// Accumulated normal impulse (N·s).
    pub normal_impulse: f32,
    /// Accumulated friction impulse (N·s).
    pub tangent_impulse: f32,
    /// Static friction's stick point on A, in A's own frame (m).
    pub stick_a: Vec2,
    /// The same on B, in B's own frame (m).
    pub stick_b: Vec2,
    /// Static friction could not hold the point.
    pub slipped: bool,
    /// The normal in A's own frame (a reused point's normal turns with A); `None`: taken
    /// from `normal` and A's angle.
    pub normal_in_a: Option<Vec2>,
}
