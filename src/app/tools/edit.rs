//! Edits of one body: delete, duplicate, and changing its definition (what the
//! inspector does). Each is undoable; the inspector coalesces a slider's many changes
//! into one entry itself and calls [`rebuild_body`] without recording.

use super::super::state::AppState;
use super::super::undo::{BodyChange, Restore};
use super::body_label;
use crate::dynamics::BodyHandle;
use crate::math::Vec2;
use crate::scene::BodyDef;

/// How far a duplicate lands from the original, in multiples of the original's size
/// (right and up), so the copy is visibly a copy and can be grabbed.
pub const DUPLICATE_OFFSET: f32 = 0.6;

/// Deletes a body (Delete key, inspector button); undoable.
pub fn delete_body(state: &mut AppState, handle: BodyHandle) {
    if !state.world.bodies().contains(handle) {
        return;
    }
    let label = format!("delete {}", body_label(state, handle));
    state.edit(label.clone(), |w| w.remove(handle));
    if state.selection == Some(handle) {
        state.selection = None;
    }
    if state.tools.grab.as_ref().is_some_and(|g| g.body == handle) {
        state.tools.grab = None;
    }
    state.set_status(format!("{label} (Ctrl+Z to undo)"));
}

/// Duplicates a body (Ctrl+D, inspector button): same definition and velocity, offset
/// up and right by part of its size; the copy is selected. Undoable.
pub fn duplicate_body(state: &mut AppState, handle: BodyHandle) -> Option<BodyHandle> {
    let body = state.world.body(handle)?;
    let mut def = body.to_def();
    let size = body.aabb().max - body.aabb().min;
    let offset = Vec2::splat(DUPLICATE_OFFSET * size.x.max(size.y).max(0.1));
    def.position = (Vec2::from(def.position) + offset).into();
    def.name = def.name.map(|n| format!("{n} copy"));
    let label = format!("duplicate {}", body_label(state, handle));
    match state.edit(label.clone(), |w| {
        def.to_desc().map(|desc| w.insert(desc)).map_err(|e| e.to_string())
    }) {
        Ok(copy) => {
            state.selection = Some(copy);
            state.set_status(format!("{label} (Ctrl+Z to undo)"));
            Some(copy)
        }
        Err(e) => {
            // The definition came from a live body, so this is not expected; say so
            // rather than leave a silent empty undo entry.
            state.set_error(format!("cannot duplicate: {e}"));
            None
        }
    }
}

/// Rebuilds a body from `def` in place (kind, density, material, pose, velocity), with
/// no undo entry of its own — the caller has recorded one. Errors come back as a
/// message for the status bar; the body is then unchanged.
pub fn rebuild_body(state: &mut AppState, handle: BodyHandle, def: &BodyDef) -> Result<(), String> {
    let desc = def.to_desc().map_err(|e| e.to_string())?;
    if state.world.replace(handle, desc) {
        state.dirty = true;
        Ok(())
    } else {
        Err("the body no longer exists".to_string())
    }
}

/// One undoable change of what a body is (kind, density, material): records "`label`", applies `change` to
/// the body's current definition and rebuilds it. A refused definition records nothing.
pub fn edit_body(
    state: &mut AppState,
    handle: BodyHandle,
    label: &str,
    change: impl FnOnce(&mut BodyDef),
) -> Result<(), String> {
    let before = state
        .world
        .body(handle)
        .ok_or_else(|| "the body no longer exists".to_string())?
        .to_def();
    let mut def = before.clone();
    change(&mut def);
    rebuild_body(state, handle, &def)?;
    // A change of what the body is, not where: undo keeps the motion it has made since.
    let change = BodyChange {
        body: handle,
        before: Some(before),
        restore: Restore::KeepMotion,
    };
    state
        .undo
        .record(format!("{label} of {}", body_label(state, handle)), vec![change]);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::handle_input;
    use super::super::test_support::*;
    use super::*;
    use crate::app::input::{FrameInput, Key};
    use crate::scene::BodyKind;

    #[test]
    fn delete_and_duplicate_by_key_are_undoable() {
        let mut s = state();
        let n = s.world.bodies().len();
        let star = named(&s, "star 1");
        s.selection = Some(star);
        let ctrl_d = FrameInput {
            keys: vec![Key::D],
            ctrl: true,
            ..FrameInput::default()
        };
        handle_input(&mut s, &ctrl_d);
        assert_eq!(s.world.bodies().len(), n + 1);
        let copy = s.selection.unwrap();
        assert_ne!(copy, star);
        assert_eq!(s.world.body(copy).unwrap().name(), Some("star 1 copy"));
        assert_eq!(s.world.body(copy).unwrap().shape(), s.world.body(star).unwrap().shape());
        handle_input(&mut s, &key(Key::Delete));
        assert_eq!(s.world.bodies().len(), n);
        assert_eq!(s.selection, None);
        assert_eq!(s.undo.undo_label(), Some("delete 'star 1 copy'"));
        s.undo();
        assert_eq!(s.world.bodies().len(), n + 1);
        s.undo();
        assert_eq!(s.world.bodies().len(), n);
        s.redo();
        assert_eq!(s.world.bodies().len(), n + 1);
    }

    #[test]
    fn density_and_kind_edits_rebuild_the_body_and_are_undoable() {
        let mut s = state();
        let b = named(&s, "box 1");
        let mass = s.world.body(b).unwrap().mass();
        edit_body(&mut s, b, "density", |d| d.density = 4.0).unwrap();
        assert!((s.world.body(b).unwrap().mass() - 4.0 * mass).abs() < 1e-5);
        assert_eq!(s.undo.undo_label(), Some("density of 'box 1'"));
        edit_body(&mut s, b, "kind", |d| d.kind = BodyKind::Static).unwrap();
        assert!(!s.world.body(b).unwrap().is_dynamic());
        // A refused value changes nothing and records nothing.
        assert!(edit_body(&mut s, b, "friction", |d| d.friction = -1.0).is_err());
        assert_eq!(s.undo.undo_label(), Some("kind of 'box 1'"));
        s.undo();
        assert!(s.world.body(b).unwrap().is_dynamic());
        s.undo();
        assert!((s.world.body(b).unwrap().mass() - mass).abs() < 1e-6);
    }
}
