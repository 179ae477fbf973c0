//! Undo and redo for every edit of the world.
//!
//! Undo reverts the edit, not time. An entry holds the bodies the edit touched, each as
//! it was before (`None`: the edit added it); undoing puts exactly those back and leaves
//! every other body where the simulation has taken it since, with the plots running on.
//! Undoing "add star" removes the star; undoing a move puts the moved body back where the
//! gesture picked it up; undoing a density edit restores the density and lets the body
//! keep its motion. Reset is the edit that replaces every body, so its entry lists them
//! all.
//!
//! Handles: a body that undo or redo brings back is inserted again and gets a new
//! handle; every entry of both stacks that named the old handle is rewritten, so a later
//! undo still finds it. The stacks are capped.

use crate::dynamics::{BodyHandle, World};
use crate::scene::BodyDef;

/// Entries kept before the oldest is dropped.
pub const UNDO_DEPTH: usize = 200;

/// What putting a body back restores.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Restore {
    /// The whole definition, pose and velocities included: a move, a body added or
    /// deleted.
    Everything,
    /// Everything but where the body is and how it moves: an edit of a property
    /// (density, kind, friction…), which the simulation has carried on from.
    KeepMotion,
}

/// One body an edit touched.
#[derive(Clone, Debug, PartialEq)]
pub struct BodyChange {
    /// The body (kept current when undo or redo re-inserts it).
    pub body: BodyHandle,
    /// Its definition before the edit; `None` when the edit added it.
    pub before: Option<BodyDef>,
    /// What putting it back restores.
    pub restore: Restore,
}

/// One undoable edit: what it touched and what it was (shown as "Undo: …").
#[derive(Clone, Debug, PartialEq)]
pub struct UndoEntry {
    /// What the edit did, for the menu and the status line ("move body 3").
    pub label: String,
    /// The bodies it touched, in the order it touched them.
    pub changes: Vec<BodyChange>,
}

/// Two stacks of entries: `undo` (most recent last) and `redo`.
#[derive(Clone, Debug, Default)]
pub struct UndoStack {
    undo: Vec<UndoEntry>,
    redo: Vec<UndoEntry>,
}

impl UndoStack {
    /// An empty history.
    pub fn new() -> UndoStack {
        UndoStack::default()
    }

    /// Records the edit `label`, which touched `changes`. A new edit forgets what could be
    /// redone.
    pub fn record(&mut self, label: impl Into<String>, changes: Vec<BodyChange>) {
        self.undo.push(UndoEntry {
            label: label.into(),
            changes,
        });
        if self.undo.len() > UNDO_DEPTH {
            self.undo.remove(0);
        }
        self.redo.clear();
    }

    /// Undoes the last edit in `world`; it becomes redoable. Returns its label.
    pub fn undo(&mut self, world: &mut World) -> Option<String> {
        let entry = self.undo.pop()?;
        let (inverse, moved) = put_back(world, entry);
        // Only older edits can name a body this edit had removed.
        remap(&mut self.undo, &moved);
        let label = inverse.label.clone();
        self.redo.push(inverse);
        Some(label)
    }

    /// Redoes the last undone edit (see [`UndoStack::undo`]).
    pub fn redo(&mut self, world: &mut World) -> Option<String> {
        let entry = self.redo.pop()?;
        let (inverse, moved) = put_back(world, entry);
        // Only the edits made after this one (undone since) can name a body it added.
        remap(&mut self.redo, &moved);
        let label = inverse.label.clone();
        self.undo.push(inverse);
        Some(label)
    }

    /// The label of the edit [`UndoStack::undo`] would undo.
    pub fn undo_label(&self) -> Option<&str> {
        self.undo.last().map(|e| e.label.as_str())
    }

    /// The label of the edit [`UndoStack::redo`] would redo.
    pub fn redo_label(&self) -> Option<&str> {
        self.redo.last().map(|e| e.label.as_str())
    }

    /// Forgets everything (a new scene was loaded).
    pub fn clear(&mut self) {
        self.undo.clear();
        self.redo.clear();
    }
}

/// Rewrites `old` as `new` in `entries` (bodies re-inserted under a new handle). One
/// stack only: after a reset, the old world's handles and the new one's can be equal,
/// and the stack on the other side names the other world's bodies.
fn remap(entries: &mut [UndoEntry], moved: &[(BodyHandle, BodyHandle)]) {
    for change in entries.iter_mut().flat_map(|e| e.changes.iter_mut()) {
        if let Some(&(_, new)) = moved.iter().find(|(old, _)| *old == change.body) {
            change.body = new;
        }
    }
}

/// Puts the bodies of `entry` back as they were before its edit. Returns the entry that
/// undoes this (each body as it is now) and the bodies re-inserted under new handles.
fn put_back(world: &mut World, entry: UndoEntry) -> (UndoEntry, Vec<(BodyHandle, BodyHandle)>) {
    let mut moved = Vec::new();
    let mut inverse = Vec::with_capacity(entry.changes.len());
    // Last touched, first put back: an edit that removed a body and added another under
    // the same slot comes apart in the right order.
    for change in entry.changes.into_iter().rev() {
        let now = world.body(change.body).map(|b| b.to_def());
        let body = match (change.before, &now) {
            // The edit added it: take it away.
            (None, Some(_)) => {
                world.remove(change.body);
                change.body
            }
            // The edit removed it: bring it back, under a new handle.
            (Some(def), None) => match def.to_desc() {
                Ok(desc) => {
                    let handle = world.insert(desc);
                    moved.push((change.body, handle));
                    handle
                }
                // It was a valid body when recorded; if it cannot come back, leave the
                // world as it is rather than lose anything else.
                Err(_) => change.body,
            },
            (Some(mut def), Some(current)) => {
                if change.restore == Restore::KeepMotion {
                    def.position = current.position;
                    def.angle = current.angle;
                    def.linear_velocity = current.linear_velocity;
                    def.angular_velocity = current.angular_velocity;
                }
                // Checked when recorded, so this cannot fail; if it did, the body stays.
                if let Ok(desc) = def.to_desc() {
                    world.replace(change.body, desc);
                }
                change.body
            }
            // Gone since (removed by the simulation): nothing to put back.
            (None, None) => change.body,
        };
        inverse.push(BodyChange {
            body,
            before: now,
            restore: change.restore,
        });
    }
    inverse.reverse();
    (
        UndoEntry {
            label: entry.label,
            changes: inverse,
        },
        moved,
    )
}

/// The bodies an instantaneous edit changed, from the world's definitions before it:
/// added (`None` before), removed, or changed in any field.
pub fn diff(before: &[(BodyHandle, BodyDef)], world: &World) -> Vec<BodyChange> {
    let mut changes: Vec<BodyChange> = before
        .iter()
        .filter(|(h, def)| world.body(*h).is_none_or(|b| b.to_def() != *def))
        .map(|(h, def)| BodyChange {
            body: *h,
            before: Some(def.clone()),
            restore: Restore::Everything,
        })
        .collect();
    changes.extend(
        world
            .bodies()
            .iter()
            .filter(|(h, _)| !before.iter().any(|(b, _)| b == h))
            .map(|(h, _)| BodyChange {
                body: h,
                before: None,
                restore: Restore::Everything,
            }),
    );
    changes
}

/// Every body's handle and definition (what [`diff`] compares with).
pub fn body_defs(world: &World) -> Vec<(BodyHandle, BodyDef)> {
    world.bodies().iter().map(|(h, b)| (h, b.to_def())).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::Vec2;
    use crate::scene::ShapeDef;

    fn world() -> World {
        let scene = crate::scene::parse(include_str!("../../scenes/default.ron"), "default.ron").unwrap();
        World::from_scene(&scene)
    }

    fn ball(x: f32) -> BodyDef {
        BodyDef {
            position: crate::math::Point(x, 8.0),
            ..BodyDef::new(ShapeDef::Circle { radius: 0.3 })
        }
    }

    fn add(stack: &mut UndoStack, w: &mut World, x: f32) -> BodyHandle {
        let before = body_defs(w);
        let h = w.insert(ball(x).to_desc().unwrap());
        stack.record(format!("add ball at {x}"), diff(&before, w));
        h
    }

    fn steps(w: &mut World, n: usize) {
        for _ in 0..n {
            w.step(1.0 / 60.0);
        }
    }

    /// Undoing "add" seconds later removes that body and nothing else moves back: the
    /// others keep their simulated state, and time runs on.
    #[test]
    fn undoing_an_add_removes_that_body_only() {
        let (mut stack, mut w) = (UndoStack::new(), world());
        steps(&mut w, 30);
        let n = w.bodies().len();
        let h = add(&mut stack, &mut w, 0.0);
        steps(&mut w, 60);
        let others: Vec<_> = w
            .bodies()
            .iter()
            .filter(|(b, _)| *b != h)
            .map(|(b, body)| (b, body.to_def()))
            .collect();
        let time = w.time();
        assert_eq!(stack.undo(&mut w).as_deref(), Some("add ball at 0"));
        assert_eq!(w.bodies().len(), n);
        assert!(w.body(h).is_none());
        assert_eq!(w.time(), time, "undo is not a rewind");
        for (b, def) in others {
            assert_eq!(w.body(b).map(|x| x.to_def()), Some(def), "{b:?} kept its state");
        }
        stack.redo(&mut w);
        assert_eq!(w.bodies().len(), n + 1);
    }

    /// Undoing a move puts that body back where it was picked up; the rest stay.
    #[test]
    fn undoing_a_move_puts_back_the_moved_body_only() {
        let (mut stack, mut w) = (UndoStack::new(), world());
        let handles = w.bodies().handles();
        let (moved, other) = (handles[3], handles[4]);
        let picked_up = w.body(moved).unwrap().to_def();
        stack.record(
            "move",
            vec![BodyChange {
                body: moved,
                before: Some(picked_up.clone()),
                restore: Restore::Everything,
            }],
        );
        w.body_mut(moved).unwrap().set_pose(Vec2::new(50.0, 50.0), 1.0);
        steps(&mut w, 20);
        let other_now = w.body(other).unwrap().to_def();
        let found = w.body(moved).unwrap().to_def();
        stack.undo(&mut w);
        let back = w.body(moved).unwrap().to_def();
        assert_eq!((back.position, back.angle), (picked_up.position, picked_up.angle));
        assert_eq!(w.body(other).unwrap().to_def(), other_now);
        stack.redo(&mut w);
        assert_eq!(
            w.body(moved).unwrap().to_def(),
            found,
            "redo puts it where undo found it"
        );
    }

    /// A property edit is undone without teleporting the body back.
    #[test]
    fn undoing_a_property_keeps_the_motion() {
        let (mut stack, mut w) = (UndoStack::new(), world());
        let h = add(&mut stack, &mut w, 0.0);
        let before = w.body(h).unwrap().to_def();
        stack.record(
            "density",
            vec![BodyChange {
                body: h,
                before: Some(before.clone()),
                restore: Restore::KeepMotion,
            }],
        );
        let mut denser = before.clone();
        denser.density = 5.0;
        assert!(w.replace(h, denser.to_desc().unwrap()));
        steps(&mut w, 30);
        let falling = w.body(h).unwrap().to_def();
        stack.undo(&mut w);
        let now = w.body(h).unwrap().to_def();
        assert_eq!(now.density, before.density);
        assert_eq!(now.position, falling.position);
    }

    /// Undo of a delete re-inserts the body under a new handle; an older entry that
    /// names it (its move) still finds it.
    #[test]
    fn a_body_brought_back_keeps_its_history() {
        let (mut stack, mut w) = (UndoStack::new(), world());
        let h = add(&mut stack, &mut w, 2.0);
        let before = body_defs(&w);
        w.remove(h);
        stack.record("delete", diff(&before, &w));
        stack.undo(&mut w);
        assert_eq!(stack.undo_label(), Some("add ball at 2"));
        let n = w.bodies().len();
        stack.undo(&mut w);
        assert_eq!(w.bodies().len(), n - 1, "the re-inserted ball is the one removed");
    }

    #[test]
    fn a_new_edit_forgets_the_redo_branch() {
        let (mut stack, mut w) = (UndoStack::new(), world());
        add(&mut stack, &mut w, 0.0);
        stack.undo(&mut w);
        assert_eq!(stack.redo_label(), Some("add ball at 0"));
        add(&mut stack, &mut w, 1.0);
        assert_eq!(stack.redo_label(), None);
        assert_eq!(stack.undo_label(), Some("add ball at 1"));
    }

    #[test]
    fn the_history_is_capped() {
        let mut stack = UndoStack::new();
        for i in 0..UNDO_DEPTH + 10 {
            stack.record(format!("{i}"), Vec::new());
        }
        let mut w = world();
        let mut labels = Vec::new();
        while let Some(label) = stack.undo(&mut w) {
            labels.push(label);
        }
        assert_eq!(labels.len(), UNDO_DEPTH);
        assert_eq!(
            labels.last().map(String::as_str),
            Some("10"),
            "the oldest 10 were dropped"
        );
    }
}
