//! The intersecting pairs as [`World::contacts`] shows them, made when first asked.
//!
//! The step reads none of them: the solvers read the contact set's points, and the sleep
//! islands its touching pairs' slots. Made at every detection, the whole list was copied
//! out of the contact set once a step for nobody in a headless run (1.4% of a step of the
//! rain of 1000 polygons on the clock: about 100 bytes a pair, 5800 pairs on the
//! 5050-box pyramid); now the sandbox pays for it once a frame, when it draws them.

use super::World;
use crate::dynamics::body::BodyHandle;
use crate::dynamics::manifold::ContactManifold;
use std::cell::{OnceCell, RefCell};

/// The last detection's intersecting pairs, for display and tests.
#[derive(Clone, Debug, Default)]
pub(super) struct ShownContacts {
    /// The literal projection's pairs: its detection makes them, and it resolves them.
    pub literal: Vec<ContactManifold>,
    /// Whether the last detection was the literal projection's.
    pub literal_current: bool,
    /// The contact set's pairs, made when first asked after a detection.
    made: OnceCell<Vec<ContactManifold>>,
    /// The list made before, kept for its room: a sandbox that asks once a frame
    /// allocates nothing once the pairs have stopped growing.
    spare: RefCell<Vec<ContactManifold>>,
}

impl ShownContacts {
    /// A detection of the contact set: the list is made afresh when next asked.
    pub fn renew(&mut self) {
        self.literal_current = false;
        self.forget_made();
    }

    /// A detection of the literal projection, into [`ShownContacts::literal`].
    pub fn renew_literal(&mut self) {
        self.literal.clear();
        self.literal_current = true;
        self.forget_made();
    }

    /// A body is gone or replaced: its pairs leave the lists.
    pub fn forget_body(&mut self, handle: BodyHandle) {
        self.literal.retain(|m| m.body_a != handle && m.body_b != handle);
        // The contact set has forgotten its pairs: the list is made again from it.
        self.forget_made();
    }

    fn forget_made(&mut self) {
        if let Some(list) = self.made.take() {
            *self.spare.get_mut() = list;
        }
    }
}

impl World {
    /// The intersecting pairs found by the last detection (at the start of the last step,
    /// or of its last substep under [`Resolution::LiteralProjection`]).
    ///
    /// [`Resolution::LiteralProjection`]: crate::dynamics::Resolution::LiteralProjection
    pub fn contacts(&self) -> &[ContactManifold] {
        let shown = &self.shown;
        if shown.literal_current {
            return &shown.literal;
        }
        shown.made.get_or_init(|| {
            let mut list = std::mem::take(&mut *shown.spare.borrow_mut());
            self.contacts.manifolds(&mut list);
            list
        })
    }
}

#[cfg(test)]
mod tests {
    use crate::dynamics::{Resolution, World};
    use crate::scene::parse;

    /// A box resting on a static ground, the box first (so it is each pair's body A).
    const BOX_ON_GROUND: &str = r#"(
        version: 1,
        gravity: (0.0, -9.81),
        settings: (sleeping: false),
        bodies: [
            (shape: Polygon(points: [(-0.5, -0.5), (0.5, -0.5), (0.5, 0.5), (-0.5, 0.5)]), position: (0.0, 0.499)),
            (kind: Static, shape: Polygon(points: [(-5.0, -0.5), (5.0, -0.5), (5.0, 0.5), (-5.0, 0.5)]), position: (0.0, -0.5)),
        ],
    )"#;

    #[test]
    fn the_shown_contacts_are_made_when_asked_and_lose_a_removed_body() {
        for resolution in [Resolution::Impulses, Resolution::Projection] {
            let mut world = World::from_scene(&parse(BOX_ON_GROUND, "box.ron").unwrap());
            world.settings_mut().resolution = resolution;
            assert!(world.contacts().is_empty(), "{resolution:?}: no detection yet");
            for _ in 0..30 {
                world.step(1.0 / 60.0);
            }
            let handles = world.bodies().handles();
            let shown = world.contacts();
            assert_eq!(shown.len(), 1, "{resolution:?}");
            let m = shown[0];
            assert_eq!((m.body_a, m.body_b), (handles[0], handles[1]), "{resolution:?}");
            assert!((m.normal.length() - 1.0).abs() < 1e-5, "{resolution:?}: {:?}", m.normal);
            // The box's bottom corners, on the ground's top face.
            assert_eq!(m.points.len(), 2, "{resolution:?}");
            for p in m.points.as_slice() {
                assert!(
                    p.point.y.abs() < 0.01 && p.point.x.abs() < 0.51,
                    "{resolution:?}: {:?}",
                    p.point
                );
            }
            // Asked again: the same list.
            assert_eq!(world.contacts(), shown.to_vec().as_slice());
            world.remove(handles[0]);
            assert!(
                world.contacts().is_empty(),
                "{resolution:?}: the removed box's pair is gone"
            );
        }
    }
}
