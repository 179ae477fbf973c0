//! Brute force (Chulanov 2016): test every pair of boxes. N(N−1)/2 tests whatever the scene;
//! the oracle every other broad phase is checked against, and the baseline of the plots.

use super::pairs::{finish_pairs, is_candidate, is_usable, push_pair};
use super::{BroadPhaseKind, BroadPhaseStats, Proxy};

/// The every-pair broad phase. Keeps no state.
#[derive(Clone, Debug, Default)]
pub struct BruteForce;

impl BruteForce {
    /// Tests every pair of usable proxies; `out` gets the overlapping pairs, sorted.
    pub fn update(&mut self, proxies: &[Proxy], out: &mut Vec<(u32, u32)>) -> BroadPhaseStats {
        out.clear();
        let mut bv_tests = 0u64;
        for (i, a) in proxies.iter().enumerate() {
            if !is_usable(&a.aabb) {
                continue;
            }
            for b in &proxies[i + 1..] {
                if !is_usable(&b.aabb) {
                    continue;
                }
                // Static–static pairs are counted too: brute force does not know in
                // advance and the flag check is part of its cost.
                bv_tests += 1;
                if is_candidate(a, b) {
                    push_pair(out, a.id, b.id);
                }
            }
        }
        finish_pairs(out);
        BroadPhaseStats {
            kind: BroadPhaseKind::BruteForce,
            proxies: proxies.len(),
            bv_tests,
            pairs: out.len(),
            ..BroadPhaseStats::default()
        }
    }
}
