//! Exact resume: the world's state between two steps as a [`Snapshot`], and back (a
//! scene file stores one in its `state` block).
//!
//! A saved scene's bodies hold each body's origin, which the world turns into a centre
//! of mass with an f32 rounding; the warm-start impulses, stick points, rest timers and
//! slot table live nowhere in the bodies. Without them a continued run drifts from the
//! direct one in its first step (4 of 5 scenes gave another state hash after 300 + 300
//! steps). With them it is the same run, bit for bit.

use super::World;
use crate::dynamics::body::{Body, BodyHandle, BodySet};
use crate::dynamics::snapshot::{BodySnapshot, Snapshot};
use crate::math::Vec2;

/// How a world used the snapshot it was given ([`World::restore`]).
#[derive(Clone, Debug, PartialEq)]
pub enum Resume {
    /// No snapshot was given: the world starts afresh.
    Fresh,
    /// The snapshot was restored: the run continues from step `steps`.
    Exact {
        /// Steps the saved run had taken.
        steps: u64,
    },
    /// The snapshot no longer matches the bodies (their file was edited since it was
    /// saved) and was ignored; the world starts afresh from what its bodies say.
    Stale {
        /// What did not match, naming the body.
        reason: String,
    },
}

impl World {
    /// The state between two steps that [`World::restore`] needs to continue this run
    /// exactly: a world built again from the same bodies and given this snapshot has,
    /// after `M` more steps, the [`World::state_hash`] of the uninterrupted run.
    pub fn snapshot(&self) -> Snapshot {
        let mut index_of_slot = vec![usize::MAX; self.bodies.slot_count()];
        let bodies = self
            .bodies
            .iter()
            .enumerate()
            .map(|(i, (handle, body))| {
                index_of_slot[handle.index as usize] = i;
                BodySnapshot {
                    slot: handle.index,
                    generation: handle.generation,
                    center: body.center_of_mass(),
                    angle: body.angle(),
                    velocity: body.linear_velocity(),
                    spin: body.angular_velocity(),
                    asleep: body.is_sleeping(),
                    rest_time: body.slow_time(),
                    rest_anchor: body.rest_anchor(),
                    island: body.sleep_island(),
                }
            })
            .collect();
        let (resolution, narrow_phase) = self
            .contacts_made_with
            .unwrap_or((self.settings.resolution, self.settings.narrow_phase));
        Snapshot {
            time: self.time_s,
            steps: self.step_count,
            resolution,
            narrow_phase,
            scene_box: self.scene_bounds,
            bodies,
            free_slots: self.bodies.free_slots(),
            contacts: self.contacts.to_state(&index_of_slot),
        }
    }

    /// How this world used the snapshot it was given (see [`Resume`]).
    pub fn resume(&self) -> &Resume {
        &self.resume
    }

    /// Restores `snapshot` over a world just built from the bodies it was taken of, in
    /// the same order (the world's `i`-th body is the snapshot's `i`-th), and records how
    /// in [`World::resume`]. A stale snapshot — another number of bodies, or a body
    /// whose pose or velocity disagrees with its snapshot by more than f32 rounding —
    /// leaves the world as built and says why.
    pub fn restore(&mut self, snapshot: &Snapshot) {
        self.resume = self.restore_snapshot(snapshot);
    }

    fn restore_snapshot(&mut self, state: &Snapshot) -> Resume {
        if state.bodies.len() != self.bodies.len() {
            return Resume::Stale {
                reason: format!(
                    "the state holds {} bodies and the scene {}",
                    state.bodies.len(),
                    self.bodies.len()
                ),
            };
        }
        let built: Vec<(BodyHandle, Body)> = self.bodies.iter().map(|(h, b)| (h, b.clone())).collect();
        for (i, ((_, body), saved)) in built.iter().zip(&state.bodies).enumerate() {
            if let Some(what) = disagreement(body, saved) {
                return Resume::Stale {
                    reason: format!("body {i}'s {what} differs from its state: the bodies were edited after saving"),
                };
            }
        }
        let mut restored = Vec::with_capacity(built.len());
        let mut handle_of_index = Vec::with_capacity(built.len());
        for ((_, mut body), saved) in built.into_iter().zip(&state.bodies) {
            body.restore(saved);
            handle_of_index.push(BodyHandle {
                index: saved.slot,
                generation: saved.generation,
            });
            restored.push((saved.slot, saved.generation, body));
        }
        self.bodies = BodySet::restored(restored, &state.free_slots);
        self.contacts.restore(&self.bodies, &state.contacts, &handle_of_index);
        self.shown.renew();
        // The saved run made its contacts under the scene's settings, as this one will.
        self.contacts.assume_config(self.settings.narrow_config);
        self.contacts_made_with = Some((state.resolution, state.narrow_phase));
        if let Some(scene_box) = state.scene_box {
            self.scene_bounds = Some(scene_box);
        }
        self.time_s = state.time;
        self.step_count = state.steps;
        Resume::Exact { steps: state.steps }
    }
}

/// What of `body` (as its description builds it) disagrees with `saved` beyond the
/// rounding of turning an origin into a centre of mass; `None` when they agree.
fn disagreement(body: &Body, saved: &BodySnapshot) -> Option<&'static str> {
    // Saving writes the angle and spin as they are; a body saved unmoved is written
    // as it was loaded, with the same values.
    if saved.angle != body.angle() {
        return Some("angle");
    }
    if saved.spin != body.angular_velocity() {
        return Some("angular velocity");
    }
    // The origin is the centre less the turned local centre, and back: each way rounds
    // by an ulp of the largest term (a polygon drawn far from its origin has a big one).
    let reach = body.local_center().length();
    let near = |a: Vec2, b: Vec2, scale: f32| (a - b).length() <= 8.0 * f32::EPSILON * scale + f32::MIN_POSITIVE;
    let center = saved.center;
    let origin = body.pose().translation;
    if !near(center, body.center_of_mass(), origin.length() + reach + center.length()) {
        return Some("position");
    }
    let velocity = saved.velocity;
    let spin_reach = body.angular_velocity().abs() * reach;
    if !near(
        velocity,
        body.linear_velocity(),
        body.origin_velocity().length() + spin_reach + velocity.length(),
    ) {
        return Some("velocity");
    }
    None
}
