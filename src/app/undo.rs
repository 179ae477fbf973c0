//! Undo and redo for every edit of the world.
//!
//! An entry is a whole scene definition (the world as it was before the edit). Scenes
//! are small (a 1000-body scene is ~200 kB of definitions), edits are rare next to
//! frames, and a snapshot restores *everything* an edit can touch — a cheaper diff per
//! kind of edit would have to be right for each kind. The stack is capped.

use crate::scene::SceneDef;

/// Snapshots kept before the oldest is dropped.
pub const UNDO_DEPTH: usize = 200;

/// One undoable edit: the state before it and what it was (shown as "Undo: …").
#[derive(Clone, Debug)]
pub struct UndoEntry {
    /// What the edit did, for the menu and the status line ("move body 3").
    pub label: String,
    /// The world before the edit.
    pub before: SceneDef,
}

/// Two stacks of snapshots: `undo` (most recent last) and `redo`.
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

    /// Records `before` as the state to return to when the edit `label` is undone.
    /// A new edit forgets what could be redone.
    pub fn record(&mut self, label: impl Into<String>, before: SceneDef) {
        self.undo.push(UndoEntry {
            label: label.into(),
            before,
        });
        if self.undo.len() > UNDO_DEPTH {
            self.undo.remove(0);
        }
        self.redo.clear();
    }

    /// Undoes the last edit: given the current state, returns the state to restore and
    /// the edit's label; the current state becomes redoable.
    pub fn undo(&mut self, current: SceneDef) -> Option<(SceneDef, String)> {
        let entry = self.undo.pop()?;
        self.redo.push(UndoEntry {
            label: entry.label.clone(),
            before: current,
        });
        Some((entry.before, entry.label))
    }

    /// Redoes the last undone edit (see [`UndoStack::undo`]).
    pub fn redo(&mut self, current: SceneDef) -> Option<(SceneDef, String)> {
        let entry = self.redo.pop()?;
        self.undo.push(UndoEntry {
            label: entry.label.clone(),
            before: current,
        });
        Some((entry.before, entry.label))
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

#[cfg(test)]
mod tests {
    use super::*;

    fn scene(gravity_y: f32) -> SceneDef {
        SceneDef {
            gravity: crate::math::Point(0.0, gravity_y),
            ..SceneDef::default()
        }
    }

    #[test]
    fn undo_then_redo_returns_to_each_state() {
        let mut stack = UndoStack::new();
        // States: 1 -> (edit a) -> 2 -> (edit b) -> 3.
        stack.record("a", scene(1.0));
        stack.record("b", scene(2.0));
        let (s, label) = stack.undo(scene(3.0)).unwrap();
        assert_eq!((s.gravity.1, label.as_str()), (2.0, "b"));
        let (s, label) = stack.undo(s).unwrap();
        assert_eq!((s.gravity.1, label.as_str()), (1.0, "a"));
        assert!(stack.undo(s.clone()).is_none());
        let (s, _) = stack.redo(s).unwrap();
        assert_eq!(s.gravity.1, 2.0);
        let (s, _) = stack.redo(s).unwrap();
        assert_eq!(s.gravity.1, 3.0);
        assert!(stack.redo(s).is_none());
    }

    #[test]
    fn a_new_edit_forgets_the_redo_branch() {
        let mut stack = UndoStack::new();
        stack.record("a", scene(1.0));
        let (s, _) = stack.undo(scene(2.0)).unwrap();
        assert_eq!(stack.redo_label(), Some("a"));
        stack.record("c", s);
        assert_eq!(stack.redo_label(), None);
        assert_eq!(stack.undo_label(), Some("c"));
    }

    #[test]
    fn the_history_is_capped() {
        let mut stack = UndoStack::new();
        for i in 0..UNDO_DEPTH + 10 {
            stack.record(format!("{i}"), scene(i as f32));
        }
        let mut n = 0;
        let mut current = scene(-1.0);
        while let Some((s, _)) = stack.undo(current.clone()) {
            current = s;
            n += 1;
        }
        assert_eq!(n, UNDO_DEPTH);
        assert_eq!(current.gravity.1, 10.0, "the oldest 10 were dropped");
    }
}
