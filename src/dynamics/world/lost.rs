//! Lost and broken bodies: the box around everything the world was given, the bodies
//! that left it by more than the kill distance, and those whose state stopped being
//! finite. Both kinds are removed and reported in the step's [`StepReport`], so the
//! rest keeps stepping.
//!
//! [`StepReport`]: crate::dynamics::StepReport

use super::World;
use crate::bounds::Aabb;
use crate::dynamics::body::{Body, BodyHandle};
use crate::dynamics::profile::RemovedBody;

impl World {
    /// Grows the scene's box by `aabb` (a body the world was given).
    pub(super) fn include_in_scene(&mut self, aabb: Aabb) {
        self.scene_bounds = Some(self.scene_bounds.map_or(aabb, |b| b.union(&aabb)));
    }

    /// The box around every body the world was given: what
    /// [`WorldSettings::kill_distance`](crate::dynamics::WorldSettings::kill_distance)
    /// is measured from. `None` for a world that was never given a body.
    pub fn scene_bounds(&self) -> Option<Aabb> {
        self.scene_bounds
    }

    /// Removes the dynamic bodies that have gone farther than the kill distance outside
    /// the scene's box, and lists them in `removed`. A body pushed through the ground
    /// falls for ever otherwise, and the view fitted to all bodies shrinks the scene to
    /// a dot under a kilometres-long drop.
    pub(super) fn remove_lost(&mut self, removed: &mut Vec<RemovedBody>) {
        let kill = self.settings.kill_distance;
        let Some(bounds) = self.scene_bounds.filter(|_| kill.is_finite() && kill > 0.0) else {
            return;
        };
        let keep = bounds.inflated(kill);
        let lost = |b: &Body| b.is_dynamic() && !b.is_sleeping() && !keep.contains(b.center_of_mass());
        if !self.bodies.iter().any(|(_, b)| lost(b)) {
            return; // the common case, without collecting anything
        }
        let gone: Vec<BodyHandle> = self.bodies.iter().filter(|(_, b)| lost(b)).map(|(h, _)| h).collect();
        for handle in gone {
            if let Some(body) = self.remove(handle) {
                removed.push(RemovedBody {
                    handle,
                    name: body.name().map(str::to_string),
                    reason: format!("left the scene: more than {kill} m outside it"),
                });
            }
        }
    }

    /// Removes every body whose position or velocity is not finite, so a NaN never
    /// reaches another body through a contact.
    pub(super) fn remove_non_finite(&mut self, removed: &mut Vec<RemovedBody>) {
        let bad: Vec<(BodyHandle, &'static str)> = self
            .bodies
            .iter()
            .filter_map(|(h, b)| b.non_finite_part().map(|part| (h, part)))
            .collect();
        for (handle, part) in bad {
            if let Some(body) = self.remove(handle) {
                removed.push(RemovedBody {
                    handle,
                    name: body.name().map(str::to_string),
                    reason: format!("{part} is not finite"),
                });
            }
        }
    }
}
