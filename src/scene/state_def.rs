//! The optional `state` block of a scene file: what the simulation carries from one step
//! to the next beyond the bodies' poses and velocities, so that a saved run continues
//! exactly as if it had never stopped.
//!
//! `collision-lab run N --save-final s.ron` writes it; `collision-lab run s.ron` (or
//! opening `s.ron` in the sandbox) then goes on from step N with the same bits as a run
//! of N + M steps — the same [`state hash`](crate::dynamics::World::state_hash). Without
//! the block a saved file still loads and simulates, but it starts afresh: the solvers'
//! warm start is cold, rest timers restart, and the bodies' centres of mass are rebuilt
//! from their origins, which rounds in f32.
//!
//! What it holds, and why each is needed for the same bits:
//! - **time and step count**, which the run reports;
//! - per body, the **exact state** the world integrates: centre of mass, angle, velocity
//!   of the centre of mass and spin (a body's `position` is its origin, rebuilt from the
//!   centre with a rounding), and its **sleep** state (asleep, how long it has been slow,
//!   where it began to keep still, its island);
//! - the **slot table**: which slot and generation each body had, and the free slots
//!   (a world that removed bodies keeps holes, and new bodies fill them in order);
//! - the **scene box** the kill distance is measured from (it was the box around the
//!   bodies as first loaded, not as saved);
//! - the **contacts** of the last step with the resolution and narrow phase they were
//!   made with: per point its feature id, anchors, separation, accumulated impulses (the
//!   warm start) and static friction's stick points.
//!
//! In the engine this is a [`Snapshot`](crate::dynamics::Snapshot) (taken with
//! [`World::snapshot`](crate::dynamics::World::snapshot), restored with
//! [`World::restore`](crate::dynamics::World::restore)); these types are its file form,
//! converted field for field (`convert.rs`).
//!
//! It is machine state, written with every float in its shortest exact form. Edit the
//! bodies and the block becomes stale: a body whose `position`, `angle` or velocities no
//! longer agree with its state (to within f32 rounding), or a different number of
//! bodies, makes the loader ignore the whole block and say so — the scene then starts
//! afresh from what the bodies say. Delete the block to start afresh on purpose.
//!
//! ```ron
//! state: (
//!     time: 2.0, steps: 120, resolution: Projection, narrow_phase: SatDecomposed,
//!     scene_box: ((-12.0, -1.0), (12.0, 16.0)),
//!     bodies: [
//!         (slot: 0, generation: 0, center: (0.0, -0.5), angle: 0.0, velocity: (0.0, 0.0), spin: 0.0),
//!         (slot: 1, generation: 0, center: (0.1, 0.49), angle: 0.01, velocity: (0.0, -0.02), spin: 0.0,
//!          rest_time: 0.4),
//!     ],
//!     contacts: [
//!         (bodies: (0, 1), points: [(id: 281474976776192, normal: (0.0, 1.0), …)]),
//!     ],
//! ),
//! ```

use super::def::ResolutionDef;
use crate::math::Point;
use crate::narrow::Algorithm;
use serde::{Deserialize, Serialize};

/// Most points one pair of bodies holds (the solvers' limit).
pub const MAX_POINTS_PER_PAIR: usize = 4;

/// The simulation state carried between steps (see the module docs).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StateDef {
    /// Simulated time (s), at least 0.
    pub time: f64,
    /// Steps taken.
    pub steps: u64,
    /// The resolution and narrow phase the contacts were made with. Loaded under other
    /// settings, the contacts are forgotten (their impulses mean nothing to another
    /// solver) and everything else is kept.
    pub resolution: ResolutionDef,
    /// The narrow phase the contacts were made with (see `resolution`).
    pub narrow_phase: Algorithm,
    /// The box around every body the world was first given, `(min, max)` in metres: the
    /// kill distance is measured from it. Default: none (the box of the bodies as
    /// loaded).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scene_box: Option<(Point, Point)>,
    /// One entry per body of the file, in the same order.
    pub bodies: Vec<BodyStateDef>,
    /// Slots left free by removed bodies, `(slot, generation)`, in the order they were
    /// freed (a new body takes the last). Default: none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub free_slots: Vec<(u32, u32)>,
    /// The contacts of the last step, sorted by their bodies. Default: none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub contacts: Vec<PairStateDef>,
}

/// One body's state (see the module docs). Slots increase with the body's index.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BodyStateDef {
    /// The body's slot in the world (handles name it).
    pub slot: u32,
    /// How many times the slot was reused (handles name it too).
    pub generation: u32,
    /// Centre of mass (m, world frame).
    pub center: Point,
    /// Angle (rad), as the body's `angle`.
    pub angle: f32,
    /// Velocity of the centre of mass (m/s, world frame).
    pub velocity: Point,
    /// Angular velocity (rad/s), as the body's `angular_velocity`.
    pub spin: f32,
    /// Asleep. Default false.
    #[serde(default, skip_serializing_if = "is_false")]
    pub asleep: bool,
    /// How long the body has been slow enough to sleep (s). Default 0.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub rest_time: f32,
    /// Where its centre of mass was and its angle when it last began to keep still (m,
    /// rad). Default: `center` and `angle`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rest_from: Option<(Point, f32)>,
    /// The island it fell asleep with (its smallest slot). Default: none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub island: Option<u32>,
}

/// The contact of one pair of bodies.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PairStateDef {
    /// The two bodies, A then B (indices into the file's `bodies`).
    pub bodies: (usize, usize),
    /// Its points, 1 to [`MAX_POINTS_PER_PAIR`].
    pub points: Vec<PointStateDef>,
    /// When the narrow phase last ran on the pair: whether the next step may reuse its
    /// contact instead of testing the pair again. Optional: without it, the next step
    /// tests the pair.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reuse: Option<PairReuseDef>,
}

/// What the narrow phase said when it last ran on a pair, and where the bodies were.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PairReuseDef {
    /// The pair overlapped.
    pub touching: bool,
    /// B's centre of mass seen from A's, in A's axes (m).
    pub translation: Point,
    /// B's angle less A's (rad).
    pub angle: f32,
    /// The pair's speculative margin (m).
    pub margin: f32,
}

/// One contact point as the next step's warm start reads it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PointStateDef {
    /// The touching features (the narrow phase's packed feature id).
    pub id: u64,
    /// Unit normal from A towards B (world frame).
    pub normal: Point,
    /// The point from A's centre of mass, in A's own frame (m).
    pub local_a: Point,
    /// The point from B's centre of mass, in B's own frame (m).
    pub local_b: Point,
    /// Separation (m; negative: overlap).
    pub separation: f32,
    /// Angle of B less angle of A when the point was found (rad).
    pub relative_angle: f32,
    /// Accumulated normal impulse (N·s).
    pub normal_impulse: f32,
    /// Accumulated friction impulse (N·s).
    pub tangent_impulse: f32,
    /// Static friction's stick point on A, in A's own frame (m).
    pub stick_a: Point,
    /// The same on B, in B's own frame (m).
    pub stick_b: Point,
    /// Static friction could not hold the point. Default false.
    #[serde(default, skip_serializing_if = "is_false")]
    pub slipped: bool,
    /// The normal in A's own frame. Optional: without it, taken from `normal` and A's
    /// angle.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub normal_in_a: Option<Point>,
}

fn is_false(b: &bool) -> bool {
    !*b
}

fn is_zero(x: &f32) -> bool {
    *x == 0.0 && x.is_sign_positive()
}
