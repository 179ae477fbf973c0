//! Candidate pairs for the narrow phase: which bodies might touch.
//!
//! For now the brute force of seed 001 (every pair of world bounding boxes). It sits
//! behind [`candidate_pairs_brute_force`]'s small signature — boxes in, index pairs out —
//! so the broad-phase module (sweep-and-prune, spatial hashing, …) can replace it without
//! the world changing.

use crate::bounds::Aabb;

/// One body as the broad phase sees it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Proxy {
    /// The body's slot index in the [`super::BodySet`].
    pub slot: u32,
    /// World-frame bounding box (m).
    pub aabb: Aabb,
    /// True when contacts can move the body (dynamic). A pair where neither body moves
    /// (static–static, static–kinematic, kinematic–kinematic) is never a candidate: no
    /// impulse could change anything.
    pub moves: bool,
}

/// Every pair `(i, j)`, `i < j` in `proxies` order, whose boxes overlap and where at
/// least one body moves; appended to `out` in lexicographic order (so stepping is
/// deterministic). Returns the number of box tests done.
///
/// O(n²) box tests: fine for the hundreds of bodies of a lesson scene.
pub fn candidate_pairs_brute_force(proxies: &[Proxy], out: &mut Vec<(u32, u32)>) -> u32 {
    let mut tests = 0u32;
    for (i, a) in proxies.iter().enumerate() {
        for b in &proxies[i + 1..] {
            if !(a.moves || b.moves) {
                continue;
            }
            tests += 1;
            if a.aabb.overlaps(&b.aabb) {
                out.push((a.slot, b.slot));
            }
        }
    }
    tests
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::Vec2;

    #[test]
    fn resting_pairs_need_a_moving_body() {
        let unit = |x: f32| Aabb::new(Vec2::new(x, 0.0), Vec2::new(x + 1.0, 1.0));
        let proxies = [
            Proxy {
                slot: 0,
                aabb: unit(0.0),
                moves: false,
            },
            Proxy {
                slot: 1,
                aabb: unit(0.5),
                moves: false,
            },
            Proxy {
                slot: 2,
                aabb: unit(0.9),
                moves: true,
            },
            Proxy {
                slot: 5,
                aabb: unit(5.0),
                moves: true,
            },
        ];
        let mut out = Vec::new();
        candidate_pairs_brute_force(&proxies, &mut out);
        assert_eq!(out, vec![(0, 2), (1, 2)]);
    }
}
