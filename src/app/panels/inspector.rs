//! The selected body: inspect and edit it (kind, density, friction, restitution,
//! velocity, angle, position); delete, duplicate.
//!
//! Every widget edits a copy of the body's definition; a change rebuilds the body in
//! place ([`World::replace`](crate::dynamics::World::replace): the handle stays, so the
//! selection does). Undo: one entry per widget interaction, not per frame — a slider
//! dragged for two seconds changes the body 120 times and records once
//! ([`EditCoalescer`]).

use super::super::state::AppState;
use super::super::tools::body_label;
use super::super::undo::Restore;
use super::{Request, UiRequests};
use crate::dynamics::BodyHandle;
use crate::geometry::Shape;
use crate::scene::{BodyDef, BodyKind};

/// Coalesces a widget's changes into one undo entry per interaction.
///
/// The first change of a widget records the world as it was (the widget changed a
/// copy; the world is untouched yet), and the entry stays open while the widget is
/// dragged or has the keyboard. The frame it is neither, the entry closes; the next
/// change opens a new one.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct EditCoalescer {
    open: Option<(egui::Id, BodyHandle)>,
}

impl EditCoalescer {
    /// Call once per frame per widget, after it ran: `changed`, its value changed this
    /// frame; `active`, it is being dragged or has focus. Records "`label`" when an
    /// interaction starts changing things. Returns `changed`.
    #[allow(clippy::too_many_arguments)]
    pub fn track(
        &mut self,
        state: &AppState,
        requests: &mut UiRequests,
        widget: egui::Id,
        body: BodyHandle,
        changed: bool,
        active: bool,
        label: &str,
    ) -> bool {
        let key = Some((widget, body));
        if changed && self.open != key {
            // Undoing a position or a velocity puts it back; undoing a property keeps the
            // motion the simulation has made since.
            let restore = if matches!(label, "position" | "angle" | "velocity" | "angular velocity") {
                Restore::Everything
            } else {
                Restore::KeepMotion
            };
            requests.push(Request::BeginBodyEdit {
                label: format!("{label} of {}", body_label(state, body)),
                body,
                restore,
            });
            self.open = key;
        } else if !changed && !active && self.open == key {
            self.open = None;
        }
        changed
    }

    /// [`EditCoalescer::track`] for an egui widget's response.
    pub fn track_response(
        &mut self,
        state: &AppState,
        requests: &mut UiRequests,
        body: BodyHandle,
        label: &str,
        r: &egui::Response,
    ) -> bool {
        let active = r.dragged() || r.has_focus();
        self.track(state, requests, r.id, body, r.changed(), active, label)
    }
}

/// The inspector's own state: the edit being coalesced.
#[derive(Default)]
pub struct InspectorPanel {
    /// One undo entry per interaction.
    pub coalescer: EditCoalescer,
}

impl InspectorPanel {
    /// Draws the panel. The widgets edit a copy of the body's definition; a change is a
    /// request to rebuild the body (after the undo entry the coalescer asks for).
    pub fn ui(&mut self, ui: &mut egui::Ui, state: &AppState, requests: &mut UiRequests) {
        let Self { coalescer } = self;
        let Some(handle) = state.selection.filter(|h| state.world.bodies().contains(*h)) else {
            ui.weak("Click a body to inspect it.");
            ui.weak("Drag it to move it (while paused: exactly); wheel or Q/E turns it.");
            return;
        };
        let Some(body) = state.world.body(handle) else {
            return;
        };
        let def = body.to_def();
        let mut new = def.clone();
        let summary = shape_summary(body.shape());
        let (mass, inertia, sleeping) = (body.mass(), body.inertia(), body.is_sleeping());

        egui::Grid::new("inspector")
            .num_columns(2)
            .striped(true)
            .show(ui, |ui| {
                ui.label("body");
                ui.label(format!("#{}", handle.index))
                    .on_hover_text(format!("slot {}, generation {}", handle.index, handle.generation));
                ui.end_row();

                ui.label("name");
                let mut name = new.name.clone().unwrap_or_default();
                let r = ui.add(
                    egui::TextEdit::singleline(&mut name)
                        .desired_width(140.0)
                        .hint_text("unnamed"),
                );
                if r.changed() {
                    new.name = (!name.trim().is_empty()).then(|| name.clone());
                }
                coalescer.track_response(state, requests, handle, "rename", &r);
                ui.end_row();

                ui.label("kind");
                let combo = egui::ComboBox::from_id_salt("inspector kind")
                    .selected_text(format!("{:?}", new.kind))
                    .show_ui(ui, |ui| {
                        for kind in [BodyKind::Static, BodyKind::Dynamic, BodyKind::Kinematic] {
                            ui.selectable_value(&mut new.kind, kind, format!("{kind:?}"));
                        }
                    });
                let changed = new.kind != def.kind;
                coalescer.track(state, requests, combo.response.id, handle, changed, false, "kind");
                ui.end_row();

                ui.label("shape");
                ui.label(&summary.0);
                ui.end_row();

                ui.label("convex");
                ui.label(&summary.1);
                ui.end_row();

                if def.kind == BodyKind::Dynamic {
                    ui.label("mass");
                    ui.label(format!("{mass:.3} kg"));
                    ui.end_row();
                    ui.label("inertia");
                    ui.label(format!("{inertia:.3} kg·m²"));
                } else {
                    ui.label("mass");
                    ui.label("infinite (not dynamic)");
                }
                ui.end_row();
            });
        egui::Grid::new("inspector material").num_columns(2).show(ui, |ui| {
            ui.label("density");
            let r = ui.add(
                egui::DragValue::new(&mut new.density)
                    .speed(0.02)
                    .range(0.01..=1000.0)
                    .suffix(" kg/m²"),
            );
            coalescer.track_response(state, requests, handle, "density", &r);
            ui.end_row();

            ui.label("friction");
            let r = ui.add(egui::Slider::new(&mut new.friction, 0.0..=2.0));
            coalescer.track_response(state, requests, handle, "friction", &r);
            ui.end_row();

            ui.label("restitution");
            let r = ui.add(egui::Slider::new(&mut new.restitution, 0.0..=1.0));
            coalescer.track_response(state, requests, handle, "restitution", &r);
            ui.end_row();

            ui.label("position");
            ui.horizontal(|ui| {
                let r = ui.add(
                    egui::DragValue::new(&mut new.position.0)
                        .speed(0.02)
                        .fixed_decimals(3)
                        .prefix("x ")
                        .suffix(" m"),
                );
                coalescer.track_response(state, requests, handle, "position", &r);
                let r = ui.add(
                    egui::DragValue::new(&mut new.position.1)
                        .speed(0.02)
                        .fixed_decimals(3)
                        .prefix("y ")
                        .suffix(" m"),
                );
                coalescer.track_response(state, requests, handle, "position", &r);
            });
            ui.end_row();

            ui.label("angle");
            let mut degrees = wrap_degrees(def.angle.to_degrees());
            let r = ui.add(
                egui::DragValue::new(&mut degrees)
                    .speed(1.0)
                    .fixed_decimals(1)
                    .suffix("°"),
            );
            // Only a change converts back: degrees → radians is not bit-exact.
            if r.changed() {
                new.angle = degrees.to_radians();
            }
            coalescer.track_response(state, requests, handle, "angle", &r);
            ui.end_row();

            ui.label("velocity");
            ui.horizontal(|ui| {
                let r = ui.add(
                    egui::DragValue::new(&mut new.linear_velocity.0)
                        .speed(0.05)
                        .fixed_decimals(2)
                        .prefix("x ")
                        .suffix(" m/s"),
                );
                coalescer.track_response(state, requests, handle, "velocity", &r);
                let r = ui.add(
                    egui::DragValue::new(&mut new.linear_velocity.1)
                        .speed(0.05)
                        .fixed_decimals(2)
                        .prefix("y ")
                        .suffix(" m/s"),
                );
                coalescer.track_response(state, requests, handle, "velocity", &r);
            })
            .response
            .on_hover_text("velocity of the body's origin");
            ui.end_row();

            ui.label("spin");
            let mut deg_per_s = def.angular_velocity.to_degrees();
            let r = ui.add(
                egui::DragValue::new(&mut deg_per_s)
                    .speed(1.0)
                    .fixed_decimals(1)
                    .suffix("°/s"),
            );
            if r.changed() {
                new.angular_velocity = deg_per_s.to_radians();
            }
            coalescer.track_response(state, requests, handle, "angular velocity", &r);
            ui.end_row();
        });
        if sleeping {
            ui.weak("asleep (it wakes when touched or edited)");
        }

        if new != def {
            requests.push(Request::RebuildBody(handle, new));
        }

        ui.horizontal(|ui| {
            if ui.button("🗑 Delete").on_hover_text("Delete").clicked() {
                requests.push(Request::DeleteBody(handle));
            }
            if ui.button("⎘ Duplicate").on_hover_text("Ctrl+D").clicked() {
                requests.push(Request::DuplicateBody(handle));
            }
        });
    }
}

/// What the shape is and whether it is convex: ("polygon, 10 vertices", "no: 4 convex
/// pieces"), ("circle, r 0.500 m", "yes").
pub fn shape_summary(shape: &Shape) -> (String, String) {
    match shape {
        Shape::Circle(c) => (format!("circle, r {:.3} m", c.radius()), "yes".to_string()),
        Shape::Segment(s) => (format!("segment, {:.3} m", (s.b() - s.a()).length()), "yes".to_string()),
        Shape::Polygon(p) => {
            let pieces = p.pieces().len();
            (
                format!("polygon, {} vertices", p.vertices().len()),
                if p.is_convex() {
                    "yes".to_string()
                } else {
                    format!("no: {pieces} convex pieces")
                },
            )
        }
    }
}

/// The definition the inspector would write for `handle` after `change`, for tests and
/// scripted edits: what one widget interaction does.
pub fn edited_def(state: &AppState, handle: BodyHandle, change: impl FnOnce(&mut BodyDef)) -> Option<BodyDef> {
    let mut def = state.world.body(handle)?.to_def();
    change(&mut def);
    Some(def)
}

/// An angle in degrees as the inspector shows it, in (−180°, 180°]: a body that has
/// turned three times reads 90°, not 1170°. Setting it back gives the same pose.
pub fn wrap_degrees(degrees: f32) -> f32 {
    let d = degrees.rem_euclid(360.0);
    if d > 180.0 {
        d - 360.0
    } else {
        d
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::panels::Panels;
    use crate::app::tools::test_support::{named, state};

    /// One frame of a widget as the panel runs it: track, then the rebuild when it
    /// changed, then the requests applied after the layout.
    fn frame(
        s: &mut AppState,
        panels: &mut Panels,
        c: &mut EditCoalescer,
        (widget, b, label): (egui::Id, BodyHandle, &str),
        change: Option<&dyn Fn(&mut BodyDef)>,
        active: bool,
    ) {
        let mut requests = UiRequests::default();
        let def = change.and_then(|change| edited_def(s, b, change));
        c.track(s, &mut requests, widget, b, def.is_some(), active, label);
        if let Some(def) = def {
            requests.push(Request::RebuildBody(b, def));
        }
        requests.apply(s, panels);
    }

    #[test]
    fn a_slider_dragged_for_a_second_is_one_undo_entry() {
        let mut s = state();
        let mut panels = Panels::default();
        let b = named(&s, "box 1");
        let friction0 = s.world.body(b).unwrap().friction();
        let slider = (egui::Id::new("friction slider"), b, "friction");
        let mut c = EditCoalescer::default();
        for frame_index in 0..60 {
            let to = 0.01 * frame_index as f32;
            frame(
                &mut s,
                &mut panels,
                &mut c,
                slider,
                Some(&move |d: &mut BodyDef| d.friction = to),
                true,
            );
        }
        // Released: a frame with no change and no drag closes the entry.
        frame(&mut s, &mut panels, &mut c, slider, None, false);
        assert!((s.world.body(b).unwrap().friction() - 0.59).abs() < 1e-6);
        assert_eq!(s.undo.undo_label(), Some("friction of 'box 1'"));
        s.undo();
        assert_eq!(s.world.body(b).unwrap().friction(), friction0);
        assert!(s.undo.undo_label().is_none(), "one entry for the whole drag");
    }

    #[test]
    fn a_second_interaction_is_a_second_entry_and_other_widgets_their_own() {
        let mut s = state();
        let mut panels = Panels::default();
        let b = named(&s, "box 1");
        let (density, kind) = (egui::Id::new("density"), egui::Id::new("kind"));
        let mut c = EditCoalescer::default();
        let mut apply = |s: &mut AppState, c: &mut EditCoalescer, id, change: &dyn Fn(&mut BodyDef), label| {
            frame(s, &mut panels, c, (id, b, label), Some(change), true);
            frame(s, &mut panels, c, (id, b, label), None, false);
        };
        let mass = s.world.body(b).unwrap().mass();
        apply(&mut s, &mut c, density, &|d| d.density = 2.0, "density");
        apply(&mut s, &mut c, density, &|d| d.density = 5.0, "density");
        apply(&mut s, &mut c, kind, &|d| d.kind = BodyKind::Kinematic, "kind");
        assert_eq!(s.world.body(b).unwrap().kind(), BodyKind::Kinematic);
        s.undo();
        assert!(s.world.body(b).unwrap().is_dynamic());
        assert!((s.world.body(b).unwrap().mass() - 5.0 * mass).abs() < 1e-5);
        s.undo();
        assert!((s.world.body(b).unwrap().mass() - 2.0 * mass).abs() < 1e-5);
        s.undo();
        assert!((s.world.body(b).unwrap().mass() - mass).abs() < 1e-6);
    }

    #[test]
    fn the_summary_says_what_the_shape_is() {
        let s = state();
        let star = s.world.body(named(&s, "star 1")).unwrap();
        let (what, convex) = shape_summary(star.shape());
        assert_eq!(what, "polygon, 10 vertices");
        assert!(convex.starts_with("no: "), "{convex}");
        let ball = s.world.body(named(&s, "ball 1")).unwrap();
        assert_eq!(
            shape_summary(ball.shape()),
            ("circle, r 0.500 m".to_string(), "yes".to_string())
        );
    }

    #[test]
    fn every_panel_draws_with_and_without_a_selection_and_changes_nothing() {
        // egui without a window: one frame of each panel, to catch panics and borrow
        // mistakes in the layout code. A frame with no input asks for nothing.
        let mut s = state();
        let mut inspector = InspectorPanel::default();
        let mut palette = super::super::palette::PalettePanel::default();
        let mut simulation = super::super::simulation::SimulationPanel::default();
        let mut debug = super::super::debug::DebugPanel::default();
        let ctx = egui::Context::default();
        for selection in [None, Some(named(&s, "star 1"))] {
            s.selection = selection;
            let mut requests = UiRequests::default();
            let _ = ctx.run(egui::RawInput::default(), |ctx| {
                egui::CentralPanel::default().show(ctx, |ui| {
                    palette.ui(ui, &s, &mut requests);
                    simulation.ui(ui, &s, &mut requests);
                    debug.ui(ui, &s, &mut requests);
                    inspector.ui(ui, &s, &mut requests);
                });
            });
            assert_eq!(requests, UiRequests::default(), "drawing is not editing");
        }
    }

    #[test]
    fn angles_read_within_a_half_turn_either_way() {
        assert_eq!(wrap_degrees(1170.0), 90.0);
        assert_eq!(wrap_degrees(180.0), 180.0);
        assert_eq!(wrap_degrees(-180.0), 180.0);
        assert_eq!(wrap_degrees(-190.0), 170.0);
        assert_eq!(wrap_degrees(270.0), -90.0);
        assert_eq!(wrap_degrees(0.0), 0.0);
    }
}
