//! Four bodies in the lanes of SIMD registers: what the wide passes (`solver_wide.rs`,
//! `xpbd_wide.rs`) gather from the body states before solving four constraints at once,
//! and scatter back after.
//!
//! A body's first eight numbers (`body_state.rs`, laid out in declaration order) are two
//! groups of four: (vx, vy, ω, dpx) and (dpy, cos, sin, dθ). Gathering four bodies is
//! then two 4×4 transposes of their groups (gathered field by field, each lane a scalar
//! load and an insert, it took more instructions). A pass scatters back only what it
//! changes, the velocities or the deltas: every number moved whole, never computed, so
//! what is scattered is bit for bit what the pass left in the lane.

use super::body_state::BodyState;
use wide::f32x4;

/// Lanes per bundle.
pub(super) const LANES: usize = 4;

/// Four numbers, one per lane; as a mask, all bits set in the lanes where it holds.
pub(super) type F4 = f32x4;

/// A mask from a flag per lane.
#[inline]
pub(super) fn mask(flags: [bool; LANES]) -> F4 {
    F4::new(flags.map(|f| if f { f32::from_bits(u32::MAX) } else { 0.0 }))
}

/// Four bodies' velocities and step deltas, one lane per body.
#[derive(Clone, Copy, Debug)]
pub(super) struct BodyLanes {
    pub vx: F4,
    pub vy: F4,
    pub w: F4,
    pub dpx: F4,
    pub dpy: F4,
    pub cos: F4,
    pub sin: F4,
    pub dtheta: F4,
}

impl BodyLanes {
    /// The bodies of `slots`, one per lane.
    #[inline]
    pub fn gather(states: &[BodyState], slots: &[u32; LANES]) -> BodyLanes {
        let s = slots.map(|slot| &states[slot as usize]);
        let [vx, vy, w, dpx] = F4::transpose(s.map(|s| F4::new([s.v.x, s.v.y, s.w, s.dp.x])));
        let [dpy, cos, sin, dtheta] = F4::transpose(s.map(|s| F4::new([s.dp.y, s.dq.cos, s.dq.sin, s.dtheta])));
        BodyLanes {
            vx,
            vy,
            w,
            dpx,
            dpy,
            cos,
            sin,
            dtheta,
        }
    }

    /// Writes the velocities of the first `lanes` lanes whose body is `movable` (the
    /// others may hold a body that other lanes hold too, or none). Lane by lane: as a
    /// transpose of (vx, vy, ω, dpx) it took more instructions.
    #[inline]
    pub fn scatter_velocity(
        &self,
        states: &mut [BodyState],
        slots: &[u32; LANES],
        movable: &[bool; LANES],
        lanes: usize,
    ) {
        let (vx, vy, w) = (self.vx.to_array(), self.vy.to_array(), self.w.to_array());
        for k in 0..lanes {
            if movable[k] {
                let s = &mut states[slots[k] as usize];
                (s.v.x, s.v.y, s.w) = (vx[k], vy[k], w[k]);
            }
        }
    }

    /// Writes the deltas of the first `lanes` lanes whose body is `movable`: dpx, and
    /// the group (dpy, cos, sin, dθ) whole.
    #[inline]
    pub fn scatter_pose(&self, states: &mut [BodyState], slots: &[u32; LANES], movable: &[bool; LANES], lanes: usize) {
        let dpx = self.dpx.to_array();
        let high = F4::transpose([self.dpy, self.cos, self.sin, self.dtheta]);
        for k in 0..lanes {
            if movable[k] {
                let s = &mut states[slots[k] as usize];
                s.dp.x = dpx[k];
                [s.dp.y, s.dq.cos, s.dq.sin, s.dtheta] = high[k].to_array();
            }
        }
    }
}
