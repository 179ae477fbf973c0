//! Debug drawing toggles, grouped by what they explain, each with a line of hover text,
//! and a readout of the pair in focus.

use super::super::draw::debug::metres;
use super::super::flags::DebugFlags;
use super::super::state::AppState;
use super::super::tools::body_label;
use super::{Request, UiRequests};
use crate::app::debug_cache::FocusPair;
use crate::bounds::BoundKind;

/// Debug drawing toggles (no state of its own).
#[derive(Default)]
pub struct DebugPanel {}

/// One line about the focus pair: who, the answer, the work.
pub fn focus_readout(state: &AppState, focus: &FocusPair) -> String {
    let c = &focus.contact;
    let answer = if c.intersect {
        format!("intersect, depth {}", metres(c.depth))
    } else {
        "apart".to_string()
    };
    let (nv, np) = focus.work();
    let axes = if focus.axes.is_empty() {
        String::new()
    } else if focus.axes_algorithm == focus.algorithm {
        format!(", {} axes", focus.axes.len())
    } else {
        format!(", {} axes (by {})", focus.axes.len(), focus.axes_algorithm.name())
    };
    format!(
        "{} × {}: {answer}{axes}, Nv {nv}, Np {np}",
        body_label(state, focus.choice.a),
        body_label(state, focus.choice.b)
    )
}

impl DebugPanel {
    /// Draws the panel: the toggles edit a copy of the flags, sent as a request when
    /// one changed.
    pub fn ui(&mut self, ui: &mut egui::Ui, state: &AppState, requests: &mut UiRequests) {
        let mut flags = state.debug.clone();
        self.toggles(ui, &mut flags);
        requests.if_changed(&state.debug, flags, Request::Debug);
        ui.separator();
        focus_section(ui, state);
    }

    /// The toggles, grouped by what they explain.
    fn toggles(&self, ui: &mut egui::Ui, flags: &mut DebugFlags) {
        let DebugFlags {
            axes,
            contacts,
            mtv,
            voronoi,
            bounds,
            pieces,
            broad,
            velocities,
            centers,
            dim_sleeping,
            minkowski,
        } = flags;

        ui.label(egui::RichText::new("The pair in focus").strong())
            .on_hover_text("The selected body with the hovered one (or its nearest neighbour); with nothing selected, the hovered body and its nearest; else the deepest contact.");
        ui.checkbox(axes, "separating axes")
            .on_hover_text("Every axis the SAT tests, drawn across the view with both shapes' projection intervals; the minimum-overlap axis bright, a separating axis green.");
        ui.checkbox(voronoi, "Voronoi regions")
            .on_hover_text("When the focus pair is a polygon and a circle: the polygon's edge strips and vertex wedges, the region holding the circle's centre (from the narrow phase's trace) lit.");
        ui.checkbox(minkowski, "Minkowski difference A − B")
            .on_hover_text("A − B of the focus pair in an inset with its own scale (drag its title to move it): the shapes overlap exactly when it holds the origin; with GJK's simplex and EPA's polytope.");

        ui.label(egui::RichText::new("Contacts").strong());
        ui.checkbox(contacts, "contact points and normals")
            .on_hover_text("Each contact point, with the normal from A towards B.");
        ui.checkbox(mtv, "MTV arrows")
            .on_hover_text("The minimum translation vector that moves A out of B, from A's centre of mass, at true length (tiny ones drawn longer and labelled).");

        ui.label(egui::RichText::new("Bodies").strong());
        egui::ComboBox::from_label("bounds")
            .selected_text(bounds.map_or("off", BoundKind::name))
            .show_ui(ui, |ui| {
                ui.selectable_value(bounds, None, "off");
                for kind in BoundKind::ALL {
                    ui.selectable_value(bounds, Some(kind), kind.name());
                }
            })
            .response
            .on_hover_text(
                "Each body's bounding volume, labelled with its tightness ρ = Hausdorff distance / diameter.",
            );
        ui.checkbox(pieces, "convex pieces").on_hover_text(
            "The convex pieces a non-convex polygon is decomposed into (what SatDecomposed and GjkEpa test).",
        );
        ui.checkbox(velocities, "velocities")
            .on_hover_text("Linear velocity arrows: where each centre of mass will be in 0.25 s.");
        ui.checkbox(centers, "centres of mass")
            .on_hover_text("Each body's centre of mass.");
        ui.checkbox(dim_sleeping, "dim sleeping bodies")
            .on_hover_text("Bodies at rest that the solver skips are drawn darker.");

        ui.label(egui::RichText::new("Broad phase").strong());
        ui.checkbox(broad, "structure")
            .on_hover_text("Sweep and prune: sorted x intervals; spatial hash: occupied cells; tree: node boxes by depth; brute force: every box.");
    }
}

/// The pair in focus: who, the answer, whether the exact answer agrees, why this pair.
fn focus_section(ui: &mut egui::Ui, state: &AppState) {
    match state.debug_cache.focus.as_ref() {
        Some(focus) => {
            ui.label(focus_readout(state, focus));
            match (focus.verdict.describe(), &focus.exact) {
                (Some(words), _) => {
                    ui.colored_label(egui::Color32::from_rgb(255, 110, 110), words)
                            .on_hover_text("The chosen algorithm's answer compared with the exact one (overlap area and true penetration for polygons, closed form for circles); gaps and depths under 1e-5 of the scene's size count as touching.");
                }
                (None, Some(_)) => {
                    ui.weak("agrees with the exact answer");
                }
                (None, None) => {
                    ui.weak("no exact answer for a segment");
                }
            }
            ui.weak(format!(
                "{} · {}",
                focus.choice.reason.describe(),
                focus.algorithm.name()
            ));
        }
        None => {
            ui.weak("no pair in focus: hover or select a body");
        }
    }
}
