//! Eight bodies in the lanes of SIMD registers: what the wide passes (`solver_wide.rs`,
//! `xpbd_wide.rs`) gather from the body states before solving eight constraints at once,
//! and scatter back after.
//!
//! A body's first eight numbers (`body_state.rs`, laid out in declaration order) are
//! (vx, vy, ω, dpx, dpy, cos, sin, dθ): gathering eight bodies is one 8×8 transpose of
//! those rows (gathered field by field, each lane a scalar load and an insert, it took
//! more instructions). A pass scatters back only what it changes, the velocities or the
//! deltas: every number moved whole, never computed, so what is scattered is bit for bit
//! what the pass left in the lane.
//!
//! Why eight lanes where the build has AVX (four until 2026-11-28, and still on plain
//! x86-64, see [`LANES`]): with 256-bit registers eight constraints cost what four did,
//! and the passes are half of a step; Box2D v3 solves eight wide on AVX2 for the same
//! reason. On the step bench (native build, rapier2d built alike) the position-based
//! solver's resolution on the 5050-box pyramid went from 6.7–7.0 to 5.4–5.5 ms a step.

use super::body_state::BodyState;

/// Lanes per bundle: eight where the build has 256-bit registers (AVX) …
#[cfg(target_feature = "avx")]
pub(super) const LANES: usize = 8;
/// … four on plain x86-64 (SSE2) and elsewhere: there an eight-lane number is two
/// four-lane ones and its transposes are scalar, and on the 5050-box pyramid the step
/// took 8% more instructions than with four lanes.
#[cfg(not(target_feature = "avx"))]
pub(super) const LANES: usize = 4;

/// One number per lane; as a mask, all bits set in the lanes where it holds.
#[cfg(target_feature = "avx")]
pub(super) type Lf = wide::f32x8;
#[cfg(not(target_feature = "avx"))]
pub(super) type Lf = wide::f32x4;

/// One field of the lanes' items, one lane each (a bundle's points, as its lanes).
#[inline]
pub(super) fn field<T>(items: &[&T; LANES], get: fn(&T) -> f32) -> Lf {
    Lf::new(std::array::from_fn(|k| get(items[k])))
}

/// Rows of eight numbers, one row per lane, turned into eight numbers of one lane per
/// row: `out[i]`'s lane `k` is `rows[k][i]` (an 8×8 transpose; two 4×4 ones on four
/// lanes).
#[inline]
pub(super) fn transpose_rows(rows: [[f32; 8]; LANES]) -> [Lf; 8] {
    #[cfg(target_feature = "avx")]
    {
        Lf::transpose(rows.map(Lf::new))
    }
    #[cfg(not(target_feature = "avx"))]
    {
        let [a0, a1, a2, a3] = Lf::transpose(rows.map(|r| Lf::new([r[0], r[1], r[2], r[3]])));
        let [b0, b1, b2, b3] = Lf::transpose(rows.map(|r| Lf::new([r[4], r[5], r[6], r[7]])));
        [a0, a1, a2, a3, b0, b1, b2, b3]
    }
}

/// A mask from a flag per lane.
#[inline]
pub(super) fn mask(flags: [bool; LANES]) -> Lf {
    Lf::new(flags.map(|f| if f { f32::from_bits(u32::MAX) } else { 0.0 }))
}

/// The slots of a bundle's bodies on one side, with the end of the range they are
/// in (one past the largest): a pass then checks that the body states reach that far
/// once per bundle side, not once per body (eight compares and branches a bundle on the
/// way in, and as many on the way out, in every pass).
#[derive(Clone, Copy, Debug)]
pub(super) struct Slots {
    slot: [u32; LANES],
    end: usize,
}

impl Default for Slots {
    /// Slot 0 in every lane (its `end` is 1: a check still guards it).
    fn default() -> Slots {
        Slots::new([0; LANES])
    }
}

impl Slots {
    /// The slots, one per lane.
    pub fn new(slot: [u32; LANES]) -> Slots {
        // As usize: the largest slot plus one cannot wrap.
        let end = slot.iter().max().map_or(0, |&s| s as usize + 1);
        Slots { slot, end }
    }

    /// The slot of lane `k`.
    #[cfg(test)]
    pub fn get(&self, k: usize) -> u32 {
        self.slot[k]
    }

    /// `states`, having checked that every slot is within it (panics otherwise, as
    /// indexing would).
    #[inline]
    fn checked<T>(&self, states: T) -> T
    where
        T: AsRef<[BodyState]>,
    {
        assert!(
            self.end <= states.as_ref().len(),
            "a bundle's body slot is out of range"
        );
        states
    }

    /// The four bodies, one per lane.
    #[inline]
    fn bodies<'a>(&self, states: &'a [BodyState]) -> [&'a BodyState; LANES] {
        let states = self.checked(states);
        // SAFETY: `checked` made sure every slot is within `states`.
        self.slot.map(|slot| unsafe { states.get_unchecked(slot as usize) })
    }
}

/// Four bodies' velocities and step deltas, one lane per body.
#[derive(Clone, Copy, Debug)]
pub(super) struct BodyLanes {
    pub vx: Lf,
    pub vy: Lf,
    pub w: Lf,
    pub dpx: Lf,
    pub dpy: Lf,
    pub cos: Lf,
    pub sin: Lf,
    pub dtheta: Lf,
}

impl BodyLanes {
    /// The bodies of `slots`, one per lane.
    #[inline]
    pub fn gather(states: &[BodyState], slots: &Slots) -> BodyLanes {
        let [vx, vy, w, dpx, dpy, cos, sin, dtheta] = transpose_rows(
            slots
                .bodies(states)
                .map(|s| [s.v.x, s.v.y, s.w, s.dp.x, s.dp.y, s.dq.cos, s.dq.sin, s.dtheta]),
        );
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
    pub fn scatter_velocity(&self, states: &mut [BodyState], slots: &Slots, movable: &[bool; LANES], lanes: usize) {
        let (vx, vy, w) = (self.vx.to_array(), self.vy.to_array(), self.w.to_array());
        let states = slots.checked(states);
        for k in 0..lanes {
            if movable[k] {
                // SAFETY: `checked` made sure every slot is within `states`.
                let s = unsafe { states.get_unchecked_mut(slots.slot[k] as usize) };
                (s.v.x, s.v.y, s.w) = (vx[k], vy[k], w[k]);
            }
        }
    }

    /// Writes the deltas of the first `lanes` lanes whose body is `movable`, lane by
    /// lane as the velocities.
    #[inline]
    pub fn scatter_pose(&self, states: &mut [BodyState], slots: &Slots, movable: &[bool; LANES], lanes: usize) {
        let (dpx, dpy) = (self.dpx.to_array(), self.dpy.to_array());
        let (cos, sin, dtheta) = (self.cos.to_array(), self.sin.to_array(), self.dtheta.to_array());
        let states = slots.checked(states);
        for k in 0..lanes {
            if movable[k] {
                // SAFETY: `checked` made sure every slot is within `states`.
                let s = unsafe { states.get_unchecked_mut(slots.slot[k] as usize) };
                (s.dp.x, s.dp.y, s.dq.cos, s.dq.sin, s.dtheta) = (dpx[k], dpy[k], cos[k], sin[k], dtheta[k]);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Slots from the first [`LANES`] of eight.
    fn slots(eight: &[u32; 8]) -> Slots {
        Slots::new(std::array::from_fn(|k| eight[k]))
    }

    #[test]
    #[should_panic(expected = "out of range")]
    fn a_slot_beyond_the_states_panics_instead_of_reading_past_them() {
        let states = vec![BodyState::default(); 3];
        BodyLanes::gather(&states, &slots(&[0, 1, 3, 2, 0, 1, 2, 0]));
    }

    #[test]
    #[should_panic(expected = "out of range")]
    fn the_largest_slot_does_not_wrap_the_range_check() {
        let states = vec![BodyState::default(); 3];
        BodyLanes::gather(&states, &slots(&[0, u32::MAX, 1, 2, 0, 0, 0, 0]));
    }

    #[test]
    fn gathered_lanes_are_the_slots_bodies() {
        let states: Vec<BodyState> = (0..5)
            .map(|i| BodyState {
                w: i as f32,
                ..BodyState::default()
            })
            .collect();
        let lanes = BodyLanes::gather(&states, &slots(&[4, 0, 2, 2, 1, 3, 0, 4]));
        assert_eq!(
            lanes.w.to_array()[..],
            [4.0, 0.0, 2.0, 2.0, 1.0, 3.0, 0.0, 4.0][..LANES]
        );
    }
}
