//! The broad phase's structure, whichever is running: sweep and prune's sorted
//! intervals (bars along the top of the view for x, the axis it sweeps, and along the
//! left for the boxes' y extents), the spatial hash's occupied cells, the dynamic tree's
//! node boxes coloured by depth, or brute force's boxes.

use super::super::super::state::AppState;
use super::{label_px, palette};
use crate::app::draw::colors::with_alpha;
use crate::bounds::Aabb;
use crate::broad::BroadPhaseKind;
use crate::math::Vec2;
use macroquad::prelude::{draw_rectangle, draw_rectangle_lines, Color};

/// Rows of interval bars at most; further intervals share the last row.
pub const MAX_LANES: usize = 28;

/// Packs intervals, given in increasing order of their start, into rows in which none
/// overlaps the next (first fit): the row index of each. `gap` is the space kept between
/// bars of a row.
pub fn pack_lanes(intervals: impl IntoIterator<Item = (f32, f32)>, gap: f32, max_lanes: usize) -> Vec<usize> {
    let mut ends: Vec<f32> = Vec::new();
    intervals
        .into_iter()
        .map(|(lo, hi)| match ends.iter().position(|&e| e + gap <= lo) {
            Some(i) => {
                ends[i] = hi;
                i
            }
            None if ends.len() < max_lanes.max(1) => {
                ends.push(hi);
                ends.len() - 1
            }
            None => {
                let last = ends.len() - 1;
                ends[last] = ends[last].max(hi);
                last
            }
        })
        .collect()
}

/// A colour that walks round the hue circle with `i` (tree depth, lane).
pub fn hue(i: u32, alpha: f32) -> Color {
    let h = (i as f32 * 0.13).fract() * 6.0;
    let x = 1.0 - ((h % 2.0) - 1.0).abs();
    let (r, g, b) = match h as u32 {
        0 => (1.0, x, 0.0),
        1 => (x, 1.0, 0.0),
        2 => (0.0, 1.0, x),
        3 => (0.0, x, 1.0),
        4 => (x, 0.0, 1.0),
        _ => (1.0, 0.0, x),
    };
    Color::new(0.35 + 0.65 * r, 0.35 + 0.65 * g, 0.35 + 0.65 * b, alpha)
}

fn box_outline(state: &AppState, b: &Aabb, width: f32, color: Color) {
    let lo = state.camera.world_to_screen(Vec2::new(b.min.x, b.max.y));
    let hi = state.camera.world_to_screen(Vec2::new(b.max.x, b.min.y));
    draw_rectangle_lines(lo.x, lo.y, hi.x - lo.x, hi.y - lo.y, width, color);
}

fn box_fill(state: &AppState, b: &Aabb, color: Color) {
    let lo = state.camera.world_to_screen(Vec2::new(b.min.x, b.max.y));
    let hi = state.camera.world_to_screen(Vec2::new(b.max.x, b.min.y));
    draw_rectangle(lo.x, lo.y, hi.x - lo.x, hi.y - lo.y, color);
}

/// Draws the running broad phase's structure.
pub fn draw_broad_phase(state: &AppState) {
    let broad = state.world.broad_phase();
    let view = state.camera.visible_world();
    let kind = broad.kind();
    let (lo, hi) = state.viewport_px;
    let legend = |text: String| label_px(Vec2::new(lo.x + 12.0, hi.y - 34.0), &text, palette::TEXT);
    match kind {
        BroadPhaseKind::SweepAndPrune => {
            for (_, body) in state.world.bodies().iter() {
                let b = body.aabb();
                if b.overlaps(&view) {
                    box_outline(state, &b, 1.0, Color::new(0.6, 0.65, 0.75, 0.35));
                }
            }
            draw_sap(state);
            legend(format!(
                "sweep and prune: {} x intervals in sweep order (top); the boxes' y extents (left) are not swept",
                broad.sweep_and_prune().intervals().len()
            ));
        }
        BroadPhaseKind::SpatialHash => {
            let grid = broad.spatial_hash();
            let size = grid.cell_size();
            for cell in grid.cells() {
                let b = cell.aabb(size);
                if !b.overlaps(&view) {
                    continue;
                }
                let a = (0.06 + 0.07 * cell.count as f32).min(0.4);
                box_fill(state, &b, Color::new(0.3, 0.8, 1.0, a));
                box_outline(state, &b, 1.0, Color::new(0.3, 0.8, 1.0, 0.45));
            }
            // The grid's own list of boxes too big for it, by slot: the world hands the
            // broad phase one box per body in iteration order.
            let bodies: Vec<_> = state.world.bodies().iter().map(|(_, b)| b.aabb()).collect();
            for &slot in grid.oversized() {
                if let Some(b) = bodies.get(slot as usize).filter(|b| b.overlaps(&view)) {
                    box_outline(state, b, 1.5, Color::new(1.0, 0.45, 0.35, 0.8));
                }
            }
            legend(format!(
                "spatial hash: {} occupied cells of {:.2} m (brighter: more boxes); red: boxes too big for the grid, tested apart",
                grid.cells().len(),
                size
            ));
        }
        BroadPhaseKind::DynamicAabbTree => {
            let nodes = broad.aabb_tree().tree().node_views();
            let height = broad.aabb_tree().tree().height();
            for n in nodes.iter().rev() {
                if !n.aabb.overlaps(&view) {
                    continue;
                }
                let leaf = n.leaf_data.is_some();
                let width = if leaf { 1.0 } else { 1.0 + 2.0 / (1.0 + n.depth as f32) };
                box_outline(state, &n.aabb, width, hue(n.depth, if leaf { 0.45 } else { 0.8 }));
            }
            legend(format!(
                "dynamic AABB tree: {} nodes, height {height}; colour by depth, leaves (fattened boxes) thin",
                nodes.len()
            ));
        }
        BroadPhaseKind::BruteForce => {
            for (_, body) in state.world.bodies().iter() {
                let b = body.aabb();
                if b.overlaps(&view) {
                    box_outline(state, &b, 1.0, Color::new(0.6, 0.65, 0.75, 0.6));
                }
            }
            let n = state.world.bodies().len() as u64;
            legend(format!(
                "brute force: every pair of boxes, {} tests",
                n * n.saturating_sub(1) / 2
            ));
        }
    }
}

/// Sweep and prune's intervals as bars: x along the top of the view in sweep order,
/// y along the left.
fn draw_sap(state: &AppState) {
    let cam = &state.camera;
    let (lo, hi) = state.viewport_px;
    const LANE_PX: f32 = 4.0;
    const LANE_GAP_PX: f32 = 1.0;
    // x: the sweep's own intervals in its sorted order, stacked downwards from the
    // view's top.
    let xs: Vec<(f32, f32)> = state
        .world
        .broad_phase()
        .sweep_and_prune()
        .intervals()
        .iter()
        .filter(|i| i.usable)
        .map(|i| {
            (
                cam.world_to_screen(Vec2::new(i.min_x, 0.0)).x,
                cam.world_to_screen(Vec2::new(i.max_x, 0.0)).x,
            )
        })
        .collect();
    let lanes = pack_lanes(xs.iter().copied(), 2.0, MAX_LANES);
    // Along the top of the view (under the axes layer's two header lines): the sky is
    // where a falling scene has room, the floor is where it piles up.
    let top = lo.y + 64.0;
    let used = lanes.iter().copied().max().map_or(0, |m| m + 1);
    draw_rectangle(
        lo.x,
        top - 3.0,
        hi.x - lo.x,
        used as f32 * (LANE_PX + LANE_GAP_PX) + 6.0,
        with_alpha(palette::LABEL_BG, 0.6),
    );
    for (i, (&(a, b), &lane)) in xs.iter().zip(&lanes).enumerate() {
        if b < lo.x || a > hi.x {
            continue;
        }
        let y = top + lane as f32 * (LANE_PX + LANE_GAP_PX);
        draw_rectangle(a, y, (b - a).max(1.0), LANE_PX, hue(i as u32, 0.85));
    }
    // y: the boxes' extents, sorted by min y, stacked rightwards from the left edge.
    let mut ys: Vec<(f32, f32)> = state
        .world
        .bodies()
        .iter()
        .map(|(_, body)| {
            let b = body.aabb();
            (
                cam.world_to_screen(Vec2::new(0.0, b.max.y)).y,
                cam.world_to_screen(Vec2::new(0.0, b.min.y)).y,
            )
        })
        .collect();
    ys.sort_by(|p, q| p.0.total_cmp(&q.0));
    let lanes = pack_lanes(ys.iter().copied(), 2.0, MAX_LANES);
    let left = lo.x + 6.0;
    for (i, (&(a, b), &lane)) in ys.iter().zip(&lanes).enumerate() {
        if b < lo.y || a > hi.y {
            continue;
        }
        let x = left + lane as f32 * (LANE_PX + LANE_GAP_PX);
        draw_rectangle(x, a, LANE_PX, (b - a).max(1.0), hue(i as u32, 0.55));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lanes_never_hold_overlapping_bars() {
        let iv = [(0.0, 4.0), (1.0, 2.0), (3.0, 5.0), (4.5, 6.0), (7.0, 8.0)];
        let lanes = pack_lanes(iv, 0.0, 10);
        assert_eq!(lanes, vec![0, 1, 1, 0, 0]);
        for i in 0..iv.len() {
            for j in i + 1..iv.len() {
                if lanes[i] == lanes[j] {
                    assert!(iv[i].1 <= iv[j].0 || iv[j].1 <= iv[i].0, "{i} {j}");
                }
            }
        }
    }

    #[test]
    fn past_the_last_lane_bars_share_it() {
        let lanes = pack_lanes([(0.0, 1.0), (0.0, 1.0), (0.0, 1.0)], 0.0, 2);
        assert_eq!(lanes, vec![0, 1, 1]);
    }
}
