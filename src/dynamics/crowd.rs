//! Crowds: many bodies created inside each other (a scene that drops 500 boxes at one
//! point, a paste gone wrong) must separate calmly, at a bounded speed and in bounded
//! memory, instead of exploding.
//!
//! Two things go wrong without care, and each has its guard here.
//!
//! - **Push-out speed adds up along a chain.** Both solvers capped the speed at which one
//!   overlapping pair is pushed apart (`max_push_speed`, Box2D's `contactPushMaxVelocity`).
//!   But with k bodies on top of each other, every pair asks to separate at that speed,
//!   and the only way to give k bodies pairwise separation speeds of v is to spread their
//!   velocities over about k·v: 500 boxes at one point were flung 150 m. So overlap a
//!   pair starts a step with is shed apart from the solvers, by moving each body by the
//!   mean of what its pairs ask, capped, with no velocity ([`shed_old_overlap`]). A
//!   resting stack, whose overlaps stay within the slop, never gets here.
//! - **Pairs grow as the square of the crowd.** 5000 bodies at one point make 12.5
//!   million candidate pairs; storing a contact for each took 16 GB and 23 s per step. A
//!   body does not need every one of them to be pushed out: [`thin_crowded_pairs`] keeps
//!   at most [`MAX_CROWDED_PAIRS`] *crowded* pairs per body (two movable bodies of a like
//!   size whose boxes overlap), in the broad phase's sorted order, so the same scene always
//!   keeps the same pairs. As the crowd spreads, its pairs stop being crowded and are all
//!   kept again. Pairs with a static or sleeping body, and pairs of bodies merely side by
//!   side (a stack, a pile, a tray of balls), are never dropped.

use super::body_state::BodyStates;
use super::constraint::{ConstraintPoint, Constraints};
use crate::broad::Proxy;
use crate::math::Vec2;

/// Most crowded pairs kept per body in one step (see the module docs): far more than a
/// body in an ordinary heap has, and enough for a crowd to push a body out on every
/// side.
pub const MAX_CROWDED_PAIRS: u32 = 32;

/// Two boxes count towards a crowd when they overlap and are of a like size: the
/// smaller's area at least this fraction of the larger's. A body in an ordinary heap has
/// at most about ten such neighbours (tumbled unit boxes, boxes grown by the speculative
/// margin), far below [`MAX_CROWDED_PAIRS`]; only bodies created inside each other have
/// more. A small body inside a big one's box (a ball in a bin) is not alike in size and is
/// never dropped, however many share the bin.
const CROWDED_SIZE_RATIO: f32 = 0.25;

/// A point overlaps deeply, and its overlap is shed apart from the solvers, when it is
/// more than this many slops inside at the start of the step, and more than the push-out
/// cap moves in one step: what the solvers would shed within the step anyway (the
/// overlaps of a heavy stack at a long step, say) stays theirs.
const DEEP_OVERLAP_SLOPS: f32 = 2.0;

/// True when the pair counts towards a crowd (see [`CROWDED_SIZE_RATIO`]); the broad
/// phase has already found the boxes overlapping.
fn crowded(a: &Proxy, b: &Proxy) -> bool {
    if a.is_static || b.is_static {
        return false;
    }
    let area = |p: &Proxy| {
        let size = (p.aabb.max - p.aabb.min).max(Vec2::ZERO);
        size.x * size.y
    };
    let (area_a, area_b) = (area(a), area(b));
    area_a.min(area_b) >= CROWDED_SIZE_RATIO * area_a.max(area_b)
}

/// Drops from `pairs` (sorted, as the broad phase returns them) every crowded pair of a
/// body that already has [`MAX_CROWDED_PAIRS`] crowded pairs kept. `proxies[i].id` are
/// slots; `scratch` is reused. Returns how many pairs were dropped.
pub(crate) fn thin_crowded_pairs(
    pairs: &mut Vec<(u32, u32)>,
    proxies: &[Proxy],
    scratch: &mut Vec<(u32, u32)>,
) -> usize {
    // Per slot: its proxy's index (proxies are listed by slot, but removed bodies leave
    // gaps) and its crowded pairs kept so far.
    let slots = proxies.iter().map(|p| p.id as usize + 1).max().unwrap_or(0);
    scratch.clear();
    scratch.resize(slots, (0, 0));
    for (i, p) in proxies.iter().enumerate() {
        scratch[p.id as usize].0 = i as u32;
    }
    let is_crowded = |slots: &[(u32, u32)], a: u32, b: u32| {
        let (pa, pb) = (slots[a as usize].0, slots[b as usize].0);
        crowded(&proxies[pa as usize], &proxies[pb as usize])
    };
    // Ordinary scenes have no crowded pair: leave their pairs untouched.
    if !pairs.iter().any(|&(a, b)| is_crowded(scratch, a, b)) {
        return 0;
    }
    let before = pairs.len();
    pairs.retain(|&(a, b)| {
        if !is_crowded(scratch, a, b) {
            return true;
        }
        let (ca, cb) = (scratch[a as usize].1, scratch[b as usize].1);
        if ca >= MAX_CROWDED_PAIRS || cb >= MAX_CROWDED_PAIRS {
            return false;
        }
        scratch[a as usize].1 += 1;
        scratch[b as usize].1 += 1;
        true
    });
    before - pairs.len()
}

/// Sheds part of the overlap the pairs started the step with, before the substeps, by
/// moving bodies without giving them velocity, and sets each point's tolerated overlap
/// (what is left of it) for the solvers.
///
/// Jacobi, not Gauss–Seidel: every body takes the mean of what its deep pairs ask of it
/// (each pair split by the two inverse masses), capped at `max_shift_m` (the push-out
/// speed times the step). A body pushed from many sides moves by at most the cap, so a
/// crowd spreads at the push-out speed however many bodies it holds; a chain of
/// Gauss–Seidel corrections, each capped alone, added up to 150 m/s. Moved this way the
/// bodies gain no velocity: nothing is flung, and a crowd settles as it spreads.
///
/// The solvers then hold each deep point at its tolerated overlap instead of the slop:
/// overlap the bodies make during the step (a box landing) is undone at once, overlap
/// they started in is shed here, a little each step.
pub(crate) fn shed_old_overlap(
    constraints: &mut Constraints,
    states: &mut BodyStates,
    tuning: &CrowdTuning,
    scratch: &mut CrowdScratch,
) {
    let CrowdTuning { slop, max_shift_m, .. } = *tuning;
    let CrowdScratch {
        shifts, speed_limits, ..
    } = scratch;
    speed_limits.clear();
    // start_overlap is measured beyond the slop.
    let deep_m = ((DEEP_OVERLAP_SLOPS - 1.0) * slop).max(max_shift_m);
    let deepest = |points: &[ConstraintPoint]| {
        points
            .iter()
            .filter(|p| p.start_overlap > deep_m)
            .max_by(|p, q| p.start_overlap.total_cmp(&q.start_overlap))
            .copied()
    };
    if !constraints.points.iter().any(|p| p.start_overlap > deep_m) {
        return; // the common case: nothing started deep
    }
    // Pairs of two movable bodies vote; each body takes the mean of its votes.
    shifts.clear();
    shifts.resize(states.states.len(), (Vec2::ZERO, 0));
    for (c, points) in constraints.iter() {
        let Some(p) = deepest(points) else { continue };
        let (ia, ib) = (c.a as usize, c.b as usize);
        let (a, b) = (&states.states[ia], &states.states[ib]);
        if !(a.moves_by_forces && b.moves_by_forces) {
            continue;
        }
        let push = p.normal * p.start_overlap / (a.inv_mass + b.inv_mass);
        shifts[ia].0 -= push * a.inv_mass;
        shifts[ia].1 += 1;
        shifts[ib].0 += push * b.inv_mass;
        shifts[ib].1 += 1;
    }
    speed_limits.resize(states.states.len(), f32::INFINITY);
    for ((state, &(sum, count)), limit) in states.states.iter_mut().zip(shifts.iter()).zip(speed_limits.iter_mut()) {
        if count == 0 {
            continue;
        }
        let shift = (sum / count as f32).clamp_length_max(max_shift_m);
        if shift.is_finite() {
            state.dp += shift;
        }
        *limit = tuning.speed_limit(state.v);
    }
    // A static (or kinematic) body does not vote: it holds. Averaged with a crowd
    // above, the ground's push was one vote in many and the bottom boxes were pressed
    // through it. So each body in a deep pair with one is moved out of it after the
    // votes, to no more than the overlap it started with less the cap.
    for (c, points) in constraints.iter() {
        let Some(p) = deepest(points) else { continue };
        let (ia, ib) = (c.a as usize, c.b as usize);
        let (mut a, mut b) = (states.states[ia], states.states[ib]);
        let (moving, sign) = match (a.moves_by_forces, b.moves_by_forces) {
            (true, false) => (ia, -1.0),
            (false, true) => (ib, 1.0),
            _ => continue,
        };
        let target = (p.start_overlap - max_shift_m).max(0.0);
        let overlap = -p.current_separation(&a, &b) - slop;
        if overlap > target && overlap.is_finite() {
            speed_limits[moving] = tuning.speed_limit(states.states[moving].v);
            let fix = sign * (overlap - target) * p.normal;
            if moving == ia {
                a.dp += fix;
                states.states[ia] = a;
            } else {
                b.dp += fix;
                states.states[ib] = b;
            }
        }
    }
    for (c, points) in constraints.iter_mut() {
        let (a, b) = (states.states[c.a as usize], states.states[c.b as usize]);
        for p in points.iter_mut() {
            // Deep before the shift or after it: a point the votes pushed deeper (a
            // body moved out of one neighbour into another) is shed next step too.
            // Undone by the solvers instead, it became velocity, and a crowd of 5000
            // churned at 20 m/s.
            let overlap = -p.current_separation(&a, &b) - slop;
            if p.start_overlap > deep_m || overlap > deep_m {
                p.start_overlap = overlap.max(0.0);
                p.deep = true;
            }
        }
    }
}

/// The step's constants of the crowd guards.
#[derive(Clone, Copy, Debug)]
pub(crate) struct CrowdTuning {
    /// The solvers' resting overlap (m).
    pub slop: f32,
    /// How far a body may be moved out of old overlap in one step (m): the push-out
    /// speed times the step.
    pub max_shift_m: f32,
    /// The push-out speed (m/s).
    pub max_push_speed: f32,
    /// What gravity adds to a velocity in one step (m/s).
    pub gravity_dv: Vec2,
}

impl CrowdTuning {
    /// The fastest a body in deep overlap may leave the step (m/s), from its velocity at
    /// the start: as fast as gravity alone would make it, or the push-out speed,
    /// whichever is larger. (Its speed plus gravity's |g|·dt let a crowd accelerate at g
    /// in any direction, and bodies left it sideways at 13 m/s.) The solvers still see deep overlap through its neighbours' new overlap
    /// (a crowd falling onto the ground, each body pressing into the next), and in a
    /// crowd of 500 their corrections added up along chains to a 30 m/s fountain. PhysX
    /// bounds the same thing per body (its maximum depenetration velocity).
    fn speed_limit(&self, v: Vec2) -> f32 {
        (v + self.gravity_dv).length().max(self.max_push_speed)
    }
}

/// Per-slot scratch of the crowd guards, reused from step to step.
#[derive(Clone, Debug, Default)]
pub(crate) struct CrowdScratch {
    /// Pairs thinning: each slot's proxy and crowded pairs kept.
    pub pairs: Vec<(u32, u32)>,
    /// Old-overlap shedding: each slot's summed votes and their count.
    shifts: Vec<(Vec2, u32)>,
    /// Each slot's speed limit for this step (infinite outside a deep overlap).
    speed_limits: Vec<f32>,
}

/// Caps the speed of every body that was in deep overlap at the start of the step (see
/// [`CrowdTuning::speed_limit`]); call after the solvers. Outside deep overlap nothing
/// changes.
pub(crate) fn cap_crowd_speeds(states: &mut BodyStates, scratch: &CrowdScratch) {
    for (state, &limit) in states.states.iter_mut().zip(&scratch.speed_limits) {
        if limit.is_finite() && state.moves_by_forces {
            state.v = state.v.clamp_length_max(limit);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bounds::Aabb;
    use crate::broad::overlapping_pairs;

    fn proxy(id: u32, centre: (f32, f32), half: (f32, f32)) -> Proxy {
        let (c, h) = (Vec2::new(centre.0, centre.1), Vec2::new(half.0, half.1));
        Proxy::new(id, Aabb::new(c - h, c + h), false)
    }

    fn thinned(proxies: &[Proxy]) -> (Vec<(u32, u32)>, usize) {
        let mut pairs = overlapping_pairs(proxies);
        let dropped = thin_crowded_pairs(&mut pairs, proxies, &mut Vec::new());
        (pairs, dropped)
    }

    #[test]
    fn a_heap_of_tumbled_boxes_keeps_every_pair() {
        // Boxes tumbled 45° (boxes 1.41 wide), packed a unit apart, grown by a margin.
        let proxies: Vec<Proxy> = (0..400)
            .map(|i| proxy(i, ((i % 20) as f32, (i / 20) as f32), (0.76, 0.76)))
            .collect();
        let (pairs, dropped) = thinned(&proxies);
        assert_eq!(dropped, 0);
        // Eight neighbours each (diagonals too), fewer at the edges.
        assert!(
            pairs.len() > 400 * 3,
            "the heap's boxes overlap their neighbours: {}",
            pairs.len()
        );
    }

    #[test]
    fn small_bodies_in_a_big_bodys_box_keep_every_pair() {
        let mut proxies = vec![proxy(0, (0.0, 2.0), (4.0, 2.0))];
        proxies.extend((1..=100).map(|i| proxy(i, (-3.5 + 0.07 * i as f32, 1.0), (0.25, 0.25))));
        let (pairs, dropped) = thinned(&proxies);
        assert_eq!(dropped, 0);
        assert_eq!(pairs.iter().filter(|p| p.0 == 0).count(), 100);
    }

    #[test]
    fn a_crowd_keeps_a_bounded_number_of_pairs_per_body_in_sorted_order() {
        let proxies: Vec<Proxy> = (0..300).map(|i| proxy(i, (0.0, 0.0), (0.5, 0.5))).collect();
        let (pairs, dropped) = thinned(&proxies);
        assert_eq!(pairs.len() + dropped, 300 * 299 / 2);
        let mut per_body = vec![0u32; 300];
        for &(a, b) in &pairs {
            per_body[a as usize] += 1;
            per_body[b as usize] += 1;
        }
        assert!(per_body.iter().all(|&n| n <= MAX_CROWDED_PAIRS), "{per_body:?}");
        assert!(
            per_body.iter().all(|&n| n > 0),
            "every body still has pairs to push it out"
        );
        // Deterministic: the first kept pair is the first pair found.
        assert_eq!(pairs[0], (0, 1));
    }

    #[test]
    fn pairs_with_static_bodies_are_never_dropped() {
        let mut proxies: Vec<Proxy> = (0..100).map(|i| proxy(i, (0.0, 0.0), (0.5, 0.5))).collect();
        proxies.push(Proxy::new(
            100,
            Aabb::new(Vec2::new(-0.5, -0.5), Vec2::new(0.5, 0.5)),
            true,
        ));
        let (pairs, _) = thinned(&proxies);
        assert_eq!(pairs.iter().filter(|p| p.1 == 100).count(), 100);
    }
}
