//! The help overlay (H): every key and mouse action.

/// Every key and mouse action, grouped, as (keys, what they do).
pub const HELP: &[(&str, &[(&str, &str)])] = &[
    (
        "Simulation",
        &[
            ("Space", "pause / run"),
            (".", "one step (pauses)"),
            ("R", "reset to the loaded scene (undoable)"),
            ("1 / 2 / 3", "narrow phase: NonConvexSat / SatDecomposed / GjkEpa"),
            ("N", "one step per frame (slow mode) / real time"),
        ],
    ),
    (
        "View",
        &[
            ("F", "fit the scene in the view"),
            ("wheel", "zoom about the cursor"),
            ("right or middle drag", "pan"),
            ("P", "screenshot (PNG under the pictures folder, in collision-lab/)"),
            ("Tab", "hide / show the side panels"),
            ("H", "this help"),
        ],
    ),
    (
        "Bodies",
        &[
            ("left click", "select"),
            ("left drag", "move a body; release while moving to throw it"),
            ("Q / E, or wheel while holding", "rotate the held body"),
            ("Delete", "delete the selection"),
            ("Ctrl+D", "duplicate the selection"),
            ("drag from the palette", "place a new shape"),
            (
                "L, then left drag",
                "launch: aim from the press point, release to fire a fast ball",
            ),
            (
                "Enter / Backspace",
                "finish a polygon being drawn / remove its last vertex",
            ),
            ("Escape", "cancel the current action, clear the selection"),
        ],
    ),
    (
        "Edit and files",
        &[
            ("Ctrl+Z", "undo"),
            ("Ctrl+Shift+Z (or Ctrl+Y)", "redo"),
            ("Ctrl+S", "save"),
            ("Ctrl+Shift+S", "save as"),
            ("Ctrl+O", "open"),
            ("drop a .ron file on the window", "open it"),
        ],
    ),
    (
        "Lessons",
        &[
            ("Right / Left arrow", "next / previous step"),
            ("Home / End", "first step / the answer"),
            ("Space", "play / pause"),
            (
                "K",
                "predict mode: click where the next point will be before it is shown",
            ),
            ("Escape", "close the open question"),
        ],
    ),
];

/// Shows the help window while `show` is set; its × clears it.
pub fn show(ctx: &egui::Context, show: &mut bool) {
    let mut open = *show;
    egui::Window::new("Help — keys and mouse")
        .open(&mut open)
        .collapsible(false)
        .resizable(false)
        .anchor(egui::Align2::CENTER_CENTER, egui::Vec2::ZERO)
        .show(ctx, |ui| {
            // One grid for every group, so the columns line up down the window.
            egui::Grid::new("help_keys")
                .num_columns(2)
                .spacing([24.0, 3.0])
                .show(ui, |ui| {
                    for (group, rows) in HELP {
                        ui.label(egui::RichText::new(*group).strong());
                        ui.end_row();
                        for (keys, action) in *rows {
                            ui.monospace(*keys);
                            ui.label(*action);
                            ui.end_row();
                        }
                    }
                });
            ui.add_space(6.0);
            ui.weak("H or the × closes this window.");
        });
    *show = open;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_key_the_sandbox_knows_is_listed() {
        let keys: Vec<&str> = HELP.iter().flat_map(|(_, rows)| rows.iter().map(|r| r.0)).collect();
        for k in [
            "Space",
            ".",
            "R",
            "1 / 2 / 3",
            "F",
            "P",
            "H",
            "Ctrl+Z",
            "Ctrl+S",
            "Ctrl+Shift+S",
            "Ctrl+O",
            "Delete",
            "Ctrl+D",
            "Escape",
            "N",
        ] {
            assert!(keys.contains(&k), "{k}");
        }
        assert!(keys.iter().any(|k| k.contains("Ctrl+Shift+Z")));
        assert!(keys.iter().any(|k| k.contains("Q / E")));
        assert!(keys.iter().any(|k| k.contains("Enter")));
        assert!(keys.iter().any(|k| k.contains(".ron")));
        assert!(keys.iter().any(|k| k.starts_with("L,")));
    }
}
