//! "Stir when asleep": the sandbox keeps a resting scene alive.
//!
//! A scene that comes to rest falls asleep (that is the engine's job, and headless runs
//! and tests rely on it), and then nothing is tested: the per-algorithm plot and the race
//! chart go flat, and switching the narrow phase shows nothing. So the app — not the
//! scene file, not the engine — watches for "every dynamic body asleep"; once that has
//! lasted [`STIR_AFTER_S`] of running time, it wakes a few bodies with an upward and
//! sideways kick. The kicks come from a seeded generator, so a session replays the same
//! stirs. Paused time does not count: a paused scene is still on purpose.

use crate::dynamics::BodyHandle;
use crate::geometry::families::SplitMix64;
use crate::math::Vec2;

/// How long every body must have been asleep before the stir (s of running time).
pub const STIR_AFTER_S: f64 = 3.0;
/// How many bodies each stir kicks (fewer when the scene has fewer).
pub const STIR_BODIES: usize = 4;
/// Sideways kick (m/s), uniform in ±this.
pub const KICK_SIDEWAYS_M_PER_S: f32 = 3.0;
/// Upward kick (m/s), uniform in this range: enough to lift a body out of a pile of
/// metre-sized shapes (v²/2g ≈ 0.8–3.3 m at 9.8 m/s²) without throwing it out of the box.
pub const KICK_UP_M_PER_S: (f32, f32) = (4.0, 8.0);
/// Spin (rad/s), uniform in ±this.
pub const KICK_SPIN_RAD_PER_S: f32 = 3.0;
/// Seed of the kicks' generator.
const SEED: u64 = 0x5717_0001;

/// The stir's timer and generator.
#[derive(Clone, Debug)]
pub struct Stir {
    /// Stir when asleep (Simulation panel). On by default.
    pub enabled: bool,
    /// How long every body has been asleep (s of running time); `None` while something
    /// is awake.
    asleep_for_s: Option<f64>,
    rng: SplitMix64,
}

impl Default for Stir {
    fn default() -> Self {
        Stir {
            enabled: true,
            asleep_for_s: None,
            rng: SplitMix64::new(SEED),
        }
    }
}

/// One body's kick.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Kick {
    /// The body.
    pub body: BodyHandle,
    /// Its new velocity (m/s).
    pub linear_velocity: Vec2,
    /// Its new angular velocity (rad/s).
    pub angular_velocity: f32,
}

impl Stir {
    /// A frame of `running_s` seconds of running time (0 while paused) has passed, and
    /// every body is asleep (`all_asleep`) or not. True when it is time to stir; the
    /// timer then starts over.
    pub fn update(&mut self, all_asleep: bool, running_s: f64) -> bool {
        if !all_asleep || !self.enabled {
            self.asleep_for_s = None;
            return false;
        }
        let t = self.asleep_for_s.unwrap_or(0.0) + running_s.max(0.0);
        if t >= STIR_AFTER_S {
            self.asleep_for_s = None;
            return true;
        }
        self.asleep_for_s = Some(t);
        false
    }

    /// Seconds left before the stir while it is armed (everything asleep, stirring on).
    pub fn countdown_s(&self) -> Option<f64> {
        self.asleep_for_s.map(|t| (STIR_AFTER_S - t).max(0.0))
    }

    /// "all asleep — stirring in 2 s", while armed.
    pub fn countdown_text(&self) -> Option<String> {
        self.countdown_s()
            .map(|s| format!("all asleep — stirring in {:.0} s", s.ceil()))
    }

    /// The kicks for a stir of `candidates` (the dynamic bodies): up to [`STIR_BODIES`]
    /// different ones, each thrown up and sideways and spun.
    pub fn kicks(&mut self, candidates: &[BodyHandle]) -> Vec<Kick> {
        let mut pool = candidates.to_vec();
        let mut kicks = Vec::new();
        while kicks.len() < STIR_BODIES && !pool.is_empty() {
            let i = (self.rng.next_u64() % pool.len() as u64) as usize;
            let body = pool.swap_remove(i);
            kicks.push(Kick {
                body,
                linear_velocity: Vec2::new(
                    self.rng.range_f32(-KICK_SIDEWAYS_M_PER_S, KICK_SIDEWAYS_M_PER_S),
                    self.rng.range_f32(KICK_UP_M_PER_S.0, KICK_UP_M_PER_S.1),
                ),
                angular_velocity: self.rng.range_f32(-KICK_SPIN_RAD_PER_S, KICK_SPIN_RAD_PER_S),
            });
        }
        kicks
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stirs_after_three_seconds_of_everything_asleep() {
        let mut stir = Stir::default();
        assert_eq!(stir.countdown_s(), None);
        assert!(!stir.update(true, 1.0));
        assert_eq!(stir.countdown_text().as_deref(), Some("all asleep — stirring in 2 s"));
        assert!(!stir.update(true, 1.5));
        assert!((stir.countdown_s().unwrap() - 0.5).abs() < 1e-12);
        assert!(stir.update(true, 0.6), "3.1 s asleep");
        assert_eq!(stir.countdown_s(), None, "the timer starts over");
    }

    #[test]
    fn a_body_waking_paused_time_and_the_switch_hold_it_back() {
        let mut stir = Stir::default();
        stir.update(true, 2.5);
        assert!(!stir.update(false, 0.1), "something woke");
        assert_eq!(stir.countdown_s(), None);
        stir.update(true, 2.9);
        for _ in 0..100 {
            assert!(!stir.update(true, 0.0), "paused frames do not count");
        }
        stir.enabled = false;
        assert!(!stir.update(true, 10.0));
        assert_eq!(stir.countdown_s(), None, "off: never armed");
    }

    #[test]
    fn kicks_are_distinct_upward_and_the_same_every_session() {
        let bodies: Vec<BodyHandle> = (0..10).map(|index| BodyHandle { index, generation: 0 }).collect();
        let first = Stir::default().kicks(&bodies);
        assert_eq!(first, Stir::default().kicks(&bodies), "deterministic");
        assert_eq!(first.len(), STIR_BODIES);
        let mut seen: Vec<u32> = first.iter().map(|k| k.body.index).collect();
        seen.sort_unstable();
        seen.dedup();
        assert_eq!(seen.len(), STIR_BODIES, "distinct bodies");
        for k in &first {
            assert!(k.linear_velocity.y >= KICK_UP_M_PER_S.0, "{k:?}");
            assert!(k.linear_velocity.x.abs() <= KICK_SIDEWAYS_M_PER_S, "{k:?}");
        }
        assert_eq!(Stir::default().kicks(&bodies[..2]).len(), 2);
        assert!(Stir::default().kicks(&[]).is_empty());
    }
}
