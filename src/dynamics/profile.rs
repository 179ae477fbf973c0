//! What one step cost and did, as plain data (rapier's per-stage counters). Times come
//! from `std::time::Instant` and are for display only: nothing in the simulation reads
//! them, so results never depend on the machine's speed.

use super::body::BodyHandle;
use super::race::RaceReport;
use crate::narrow::Work;
use std::time::Duration;

/// Time per stage and counts, summed over the substeps of one step.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct StepProfile {
    /// Substeps run.
    pub substeps: u32,
    /// Finding candidate pairs (bounding boxes and the broad phase).
    pub broad: Duration,
    /// Narrow phase on every candidate pair (in race mode, the other two algorithms'
    /// queries too: compare algorithms with [`StepReport::race`]).
    pub narrow: Duration,
    /// Contact resolution (impulses or projection).
    pub resolution: Duration,
    /// Integration of velocities and positions, and the finiteness check.
    pub integration: Duration,
    /// The whole step.
    pub total: Duration,
    /// Candidate pairs the broad phase handed to the narrow phase.
    pub candidate_pairs: u32,
    /// Bounding-box tests the broad phase made (its Nv), summed over substeps.
    pub broad_tests: u64,
    /// Pairs the narrow phase found intersecting.
    pub contacts: u32,
    /// Candidate pairs whose contact was reused, not tested: their bodies had not moved
    /// against each other (`contacts.rs`).
    pub reused_pairs: u32,
    /// Candidate pairs not tested because they are certainly still farther apart than
    /// their margin (`contacts/apart.rs`).
    pub known_apart_pairs: u32,
    /// Contact points of those pairs.
    pub contact_points: u32,
    /// Narrow-phase work summed over every candidate pair (Nv, Np, axes, GJK and EPA
    /// iterations): the cost model T = Nv·Cv + Np·Cp.
    pub work: Work,
    /// Pseudo-continuous detection: sweeping fast bodies (part of the step's total).
    pub continuous: Duration,
    /// Fast bodies whose motion was subdivided (swept), summed over substeps. Zero in a
    /// scene where nothing moves faster than the settings' fraction of its size.
    pub continuous_bodies: u32,
    /// Of those, the ones that hit something and were rolled back to the time of impact.
    pub continuous_rollbacks: u32,
    /// Narrow-phase or distance queries the sweeps made (intermediate poses × targets,
    /// bisection steps, advancement iterations): the price of the sweeps.
    pub continuous_queries: u32,
    /// Bodies asleep at the end of the step.
    pub sleeping_bodies: u32,
    /// Islands (bodies joined by contacts) that fell asleep during the step.
    pub islands_put_to_sleep: u32,
}

/// A body taken out of the world during a step.
#[derive(Clone, Debug, PartialEq)]
pub struct RemovedBody {
    /// Its handle (now stale).
    pub handle: BodyHandle,
    /// Its name, if it had one.
    pub name: Option<String>,
    /// Why, in words ("velocity is not finite").
    pub reason: String,
}

/// What [`crate::dynamics::World::step`] returns.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct StepReport {
    /// Bodies removed because their state stopped being finite, or because they left
    /// the scene (the kill distance); the rest kept stepping.
    pub removed: Vec<RemovedBody>,
    /// Time and counts of the step.
    pub profile: StepProfile,
    /// With [`WorldSettings::race`](super::WorldSettings::race) on: the three narrow
    /// phases compared on this step's pairs. `None` when racing is off.
    pub race: Option<RaceReport>,
}
