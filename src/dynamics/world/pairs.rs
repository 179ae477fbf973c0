//! The step's candidate pairs: how far each body may move in the step (its margin), and
//! the world boxes grown by it handed to the chosen broad phase.

use super::*;

impl World {
    /// How far each body may move during a step of `dt`, plus half the speculative
    /// distance: the margin its box grows by in the broad phase, and its share of a
    /// pair's speculative margin. A bound on the motion (|v|·dt + |ω|·reach·dt, plus
    /// |g|·dt² for gravity's part) makes every contact the step can make known at its
    /// start, however fast the body (Catto, "Speculative contacts", 2013): a falling box
    /// lands on the ground instead of sinking into it for a step.
    ///
    /// With continuous detection switched off the margin is the speculative distance
    /// alone: the world is then as discrete as the setting says, and a fast body can
    /// tunnel — which is what that setting is there to show.
    pub(super) fn compute_margins(&mut self, dt: f32) {
        let speculate_motion = self.settings.continuous != ContinuousMode::Off;
        let half_speculative = 0.5 * SPECULATIVE_SLOPS * self.settings.slop.max(0.0);
        let gravity_reach = self.settings.gravity.length() * dt * dt;
        let margins = &mut self.scratch.margins;
        margins.clear();
        margins.resize(self.bodies.slot_count(), 0.0);
        for (slot, margin) in margins.iter_mut().enumerate() {
            let Some(body) = self.bodies.slot(slot) else { continue };
            let motion = if !speculate_motion || body.is_sleeping() || body.kind() == BodyKind::Static {
                0.0
            } else {
                let own = (body.linear_velocity().length() + body.angular_velocity().abs() * body.outer_reach()) * dt;
                own + if body.is_dynamic() { gravity_reach } else { 0.0 }
            };
            // A body moving at absurd speed would grow its box over the whole world:
            // cap the margin (the continuous sweep still catches what it misses).
            *margin = half_speculative + motion.min(MAX_MARGIN_M);
            if !margin.is_finite() {
                *margin = half_speculative;
            }
        }
    }

    /// World boxes of every live body, then the candidate pairs. The one place a broad
    /// phase plugs in.
    /// Returns the number of box tests the broad phase made.
    ///
    /// With `grown`, every box is grown by its body's margin (`compute_margins`), so the
    /// pairs include every pair that can touch during the step. The tight boxes are kept
    /// per slot for the narrow phase (`Scratch::boxes`).
    pub(super) fn find_candidate_pairs(&mut self, grown: bool) -> u64 {
        let Scratch {
            broad,
            proxies,
            pairs,
            margins,
            boxes,
            crowd,
            pair_counts,
            ..
        } = &mut self.scratch;
        proxies.clear();
        pairs.clear();
        boxes.clear();
        // An empty slot's box is never read (it has no pairs).
        boxes.resize(
            self.bodies.slot_count(),
            Aabb::new(crate::math::Vec2::ZERO, crate::math::Vec2::ZERO),
        );
        // A pair is a candidate only when a body in it can move: bodies that cannot be
        // pushed (static, kinematic) are "static" to the broad phase.
        proxies.extend(
            self.bodies
                .iter()
                // A sleeping body is static too: its pairs with static and sleeping
                // bodies are skipped (`sleep.rs`).
                .map(|(h, b)| {
                    let margin = if grown {
                        margins.get(h.index as usize).copied().unwrap_or(0.0)
                    } else {
                        0.0
                    };
                    let aabb = b.aabb();
                    if let Some(slot) = boxes.get_mut(h.index as usize) {
                        *slot = aabb;
                    }
                    Proxy::new(h.index, aabb.inflated(margin), !b.is_dynamic() || b.is_sleeping())
                }),
        );
        if broad.kind() != self.settings.broad_phase {
            broad.set_kind(self.settings.broad_phase);
        }
        let tests = broad.update(proxies, pairs).bv_tests;
        // Bodies created inside each other would make pairs as the square of the crowd.
        // Only a body in more pairs with movable bodies than it may keep crowded ones
        // can lose one, so when none is, the thinning is skipped: it would keep every
        // pair, after reading both proxies of each (a pile's like-sized boxes all count
        // as crowded: 2.5% of a step of the 5050-box pyramid). The pairs are the same
        // either way.
        if any_in_more_movable_pairs_than(pairs, proxies, MAX_CROWDED_PAIRS, self.bodies.slot_count(), pair_counts) {
            thin_crowded_pairs(pairs, proxies, &mut crowd.pairs);
        }
        tests
    }
}

/// Whether a movable body is in more than `most` of `pairs` (slot pairs, slots below
/// `slots`) whose other body is movable too: the pairs that can be crowded
/// (`crowd.rs`; a proxy marked static — static, kinematic or asleep — never is).
/// `counts` is scratch, one counter per slot.
fn any_in_more_movable_pairs_than(
    pairs: &[(u32, u32)],
    proxies: &[Proxy],
    most: u32,
    slots: usize,
    counts: &mut Vec<u32>,
) -> bool {
    /// The count of a slot whose pairs never count (no proxy, or a static one).
    const NEVER: u32 = u32::MAX;
    counts.clear();
    counts.resize(slots, NEVER);
    for p in proxies.iter().filter(|p| !p.is_static) {
        if let Some(count) = counts.get_mut(p.id as usize) {
            *count = 0;
        }
    }
    for &(a, b) in pairs {
        let (ca, cb) = (counts[a as usize], counts[b as usize]);
        if ca == NEVER || cb == NEVER {
            continue;
        }
        if ca >= most || cb >= most {
            return true;
        }
        (counts[a as usize], counts[b as usize]) = (ca + 1, cb + 1);
    }
    false
}
