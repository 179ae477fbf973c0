//! Dynamics: how simulated time advances.
//!
//! For now this module holds only the fixed-step clock ([`FixedClock`]): the app tells
//! it how much wall time a frame took, and it answers how many fixed steps of `dt` the
//! world should take now, plus the interpolation fraction for drawing between the last
//! two states. The clock never reads a clock itself, so it is tested with synthetic time.

mod clock;

pub use clock::{FixedClock, DEFAULT_MAX_FRAME_SECONDS, DEFAULT_MAX_STEPS_PER_FRAME, DEFAULT_RATE_HZ};
