//! Bounding volumes (Zakharov and Sadykov 2003) of every visible body, each labelled with its tightness
//! ρ = τ/d (Hausdorff distance over diameter: 0 is a perfect fit).
//!
//! ρ is measured by the debug cache (a grid estimate, too slow to redo for every body
//! every frame) and only read here; circles and OBBs turn with their body, so their
//! outlines are cached in the body's frame and posed; AABBs and 8-DOPs are rebuilt from
//! the posed shape, which is cheap.

use super::super::super::state::AppState;
use super::{label_px, palette};
use crate::app::draw::colors::with_alpha;
use crate::app::draw::outline;
use crate::bounds::{BoundKind, BoundingVolume};
use crate::math::Vec2;
use macroquad::prelude::{measure_text, Color};

/// The outline colour of each kind.
pub fn kind_color(kind: BoundKind) -> Color {
    match kind {
        BoundKind::Aabb => Color::new(0.45, 0.95, 0.55, 1.0),
        BoundKind::Circle => Color::new(0.95, 0.65, 0.35, 1.0),
        BoundKind::Obb => Color::new(0.55, 0.75, 1.0, 1.0),
        BoundKind::Kdop8 => Color::new(0.95, 0.5, 0.85, 1.0),
    }
}

/// Bodies smaller than this on screen (px) get no ρ label: it would cover them.
const MIN_LABEL_BODY_PX: f32 = 28.0;

/// Labels drawn at most (text is the slowest thing on this layer).
const MAX_LABELS: usize = 200;

/// Draws the volumes of `kind` with their ρ.
pub fn draw_bounds(state: &AppState, kind: BoundKind) {
    let cam = &state.camera;
    let view = cam.visible_world();
    let color = kind_color(kind);
    let mut labels = 0;
    let mut scratch: Vec<Vec2> = Vec::new();
    for (handle, body) in state.world.bodies().iter() {
        if !body.aabb().overlaps(&view) {
            continue;
        }
        let pose = body.pose();
        let entry = state.debug_cache.rho.get(&(handle, kind));
        scratch.clear();
        match entry.and_then(|e| e.local_outline.as_ref()) {
            Some(local) => scratch.extend(local.iter().map(|p| pose.apply_point(*p))),
            None => scratch.extend(BoundingVolume::of_shape(body.shape(), &pose, kind).outline()),
        }
        if scratch.len() < 2 {
            continue;
        }
        outline(cam, &scratch, 1.5, with_alpha(color, 0.9));
        let Some(entry) = entry else { continue };
        let size_px = cam.length_to_screen(body.aabb().half_extents().max_element() * 2.0);
        if size_px < MIN_LABEL_BODY_PX || labels >= MAX_LABELS {
            continue;
        }
        labels += 1;
        // Above the volume's top, centred.
        let (lo, hi) = scratch.iter().fold(
            (Vec2::splat(f32::INFINITY), Vec2::splat(f32::NEG_INFINITY)),
            |(lo, hi), p| (lo.min(*p), hi.max(*p)),
        );
        let top = cam.world_to_screen(Vec2::new((lo.x + hi.x) * 0.5, hi.y));
        // The default font has no Greek: "rho".
        let text = format!("rho {:.3}", entry.rho);
        let w = measure_text(&text, None, super::LABEL_FONT, 1.0).width;
        label_px(Vec2::new(top.x - w * 0.5, top.y - 6.0), &text, color);
    }
    let (lo, _) = state.viewport_px;
    let (x, y) = (lo.x + 12.0, state.viewport_px.1.y - 14.0);
    label_px(
        Vec2::new(x, y),
        &format!(
            "{} bounds, rho = Hausdorff distance / diameter (0: an exact fit); {} bodies measured",
            kind.name(),
            state.debug_cache.rho.len()
        ),
        with_alpha(palette::TEXT, 0.9),
    );
}
