//! Exact resume: the world's state between two steps as a scene's `state` block, and
//! back (the format is described in [`crate::scene::state_def`]).
//!
//! A saved scene's bodies hold each body's origin, which the world turns into a centre
//! of mass with an f32 rounding; the warm-start impulses, stick points, rest timers and
//! slot table live nowhere in the bodies. Without them a continued run drifts from the
//! direct one in its first step (4 of 5 scenes gave another state hash after 300 + 300
//! steps). With them it is the same run, bit for bit.

use super::World;
use crate::dynamics::body::{Body, BodyHandle, BodySet};
use crate::dynamics::settings::Resolution;
use crate::math::Vec2;
use crate::scene::{BodyDef, BodyStateDef, SceneDef, StateDef};

/// How a world built from a scene used the scene's `state` block.
#[derive(Clone, Debug, PartialEq)]
pub enum Resume {
    /// The scene has no state block: it starts afresh.
    Fresh,
    /// The block was restored: the run continues from step `steps`.
    Exact {
        /// Steps the saved run had taken.
        steps: u64,
    },
    /// The block no longer matches the bodies (the file was edited since it was saved)
    /// and was ignored; the scene starts afresh from what its bodies say.
    Stale {
        /// What did not match, naming the body.
        reason: String,
    },
}

impl World {
    /// The current state as a scene definition with a `state` block: loading it with
    /// [`World::from_scene`] continues this run exactly ([`World::state_hash`] after
    /// `M` more steps equals the uninterrupted run's).
    pub fn to_scene_def_with_state(&self) -> SceneDef {
        let mut def = self.to_scene_def();
        let mut index_of_slot = vec![usize::MAX; self.bodies.slot_count()];
        let bodies = self
            .bodies
            .iter()
            .enumerate()
            .map(|(i, (handle, body))| {
                index_of_slot[handle.index as usize] = i;
                BodyStateDef {
                    slot: handle.index,
                    generation: handle.generation,
                    center: body.center_of_mass().into(),
                    angle: body.angle(),
                    velocity: body.linear_velocity().into(),
                    spin: body.angular_velocity(),
                    asleep: body.is_sleeping(),
                    rest_time: body.slow_time(),
                    island: body.sleep_island(),
                }
            })
            .collect();
        let (resolution, narrow_phase) = self
            .contacts_made_with
            .unwrap_or((self.settings.resolution, self.settings.narrow_phase));
        def.state = Some(StateDef {
            time: self.time_s,
            steps: self.step_count,
            resolution: resolution.to_def(),
            narrow_phase,
            scene_box: self.scene_bounds.map(|b| (b.min.into(), b.max.into())),
            bodies,
            free_slots: self.bodies.free_slots(),
            contacts: self.contacts.to_state(&index_of_slot),
        });
        def
    }

    /// How this world used its scene's state block (see [`Resume`]).
    pub fn resume(&self) -> &Resume {
        &self.resume
    }

    /// Restores `state` over a world just built from the same scene's `defs` (body `i`
    /// in slot `i`). A stale block — another number of bodies, or a body whose pose or
    /// velocity disagrees with its state by more than f32 rounding — leaves the world as
    /// built and says why.
    pub(super) fn restore_state(&mut self, defs: &[BodyDef], state: &StateDef) -> Resume {
        if state.bodies.len() != defs.len() {
            return Resume::Stale {
                reason: format!(
                    "the state holds {} bodies and the scene {}",
                    state.bodies.len(),
                    defs.len()
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
        self.contacts_made_with = Some((Resolution::from_def(state.resolution), state.narrow_phase));
        if let Some((min, max)) = state.scene_box {
            self.scene_bounds = Some(crate::bounds::Aabb {
                min: min.into(),
                max: max.into(),
            });
        }
        self.time_s = state.time;
        self.step_count = state.steps;
        Resume::Exact { steps: state.steps }
    }
}

/// What of `body` (as its file builds it) disagrees with `saved` beyond the rounding of
/// turning an origin into a centre of mass; `None` when they agree.
fn disagreement(body: &Body, saved: &BodyStateDef) -> Option<&'static str> {
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
    let center: Vec2 = saved.center.into();
    let origin = body.pose().translation;
    if !near(center, body.center_of_mass(), origin.length() + reach + center.length()) {
        return Some("position");
    }
    let velocity: Vec2 = saved.velocity.into();
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
