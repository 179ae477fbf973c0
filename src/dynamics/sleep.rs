//! Sleeping: resting islands stop costing anything until something disturbs them.
//!
//! An *island* is a set of dynamic bodies joined by contacts (E. Catto, Box2D's
//! `b2Island`; rapier's `IslandManager`). Static bodies do not join islands: a floor
//! under two separate piles would otherwise make them one island, and one pile moving
//! would keep the other awake. Islands are rebuilt after every step with union–find over
//! the last substep's contacts (R. E. Tarjan, "Efficiency of a good but not linear set
//! union algorithm", JACM 1975; path halving, union towards the smaller slot index).
//!
//! ```text
//! for each awake dynamic body:
//!     slow  = |v| < sleep_linear_speed and |ω| < sleep_angular_speed
//!     still = |c − c₀| < sleep_linear_speed·time_to_sleep
//!             and |θ − θ₀| < sleep_angular_speed·time_to_sleep   (else c₀, θ₀ = c, θ)
//!     slow_time = slow or still ? slow_time + dt : 0
//! islands = union–find over contacts between two awake dynamic bodies
//! for each island: if min slow_time ≥ time_to_sleep:
//!     every body: asleep, v = 0, ω = 0, island id = smallest slot index
//! ```
//!
//! **Keeping still.** A body also rests while it stays within what the sleep speeds would
//! let it move in `time_to_sleep` (2.5 cm and 0.025 rad at the defaults) of where it began
//! to keep still (its rest anchor c₀, θ₀), however fast the solver moves it meanwhile.
//! That is the speed test measured over the rest window instead of at its last instant:
//! it lets sleep nothing the speed test would not (a body creeping at 4.9 cm/s sleeps by
//! either), except a body that jiggles in place. The position-based solver makes those:
//! in a heap of polygons it turns a body one way in a step's first substeps and back in
//! the last, and the last substep's velocity is what the body keeps, so about 180 of the
//! 1,000 polygons of `rain_1000.ron` ended every step above the sleep speeds while their
//! centres moved 0.1 mm (median) to 1 mm in 2.5 s, and the heap never slept (4 of 1,000
//! asleep after 30 s; now all of them at 6.0 s, and at 6.0 s under impulses, which took
//! 20–30 s). Havok's deactivator, as 3ds Max's reactor documents it ("Add Deactivator",
//! 3ds Max 2009 manual), has a long-window distance test for the same reason: a body
//! vibrating a few millimetres in place is not moving anywhere. What it does not cure: a
//! body wedged between two neighbours that turns to and fro by more than 0.025 rad keeps
//! its island awake until it settles (the rain stirred eleven times, as the sandbox stirs
//! a sleeping scene, slept again within 1.0–2.4 s nine times, after 7 s and 44 s the
//! other two).
//!
//! A sleeping body is not integrated, and the broad phase treats it as static, so pairs
//! of two sleeping bodies, or of a sleeping and a static one, never reach the narrow
//! phase. It wakes — with its whole island, found by the stored island id — when:
//! - an awake dynamic body touches it (a contact found by the narrow phase), or a
//!   moving kinematic body's box overlaps its box;
//! - its velocity or pose is set through the API ([`super::Body::set_pose`], …,
//!   [`super::Body::wake_up`], [`super::World::wake`]);
//! - a body near it is removed (it may have rested on it);
//! - sleeping is switched off.
//!
//! A woken island has no contacts among its own bodies until the next substep's
//! narrow phase (sleeping pairs were skipped): for that one substep its bodies feel
//! gravity unopposed, a drop of g·h²/2 ≈ 0.1 mm at 240 Hz, which the next substep's
//! contacts take back.
//!
//! Determinism: everything runs in slot order and island ids are slot indices, so the
//! same run sleeps and wakes the same bodies at the same steps; the state hash includes
//! the sleep flag.

use super::body::BodySet;
use super::desc::BodyKind;
use super::settings::WorldSettings;
use crate::bounds::Aabb;

/// Union–find and per-island scratch, reused between steps. Never saved.
#[derive(Clone, Debug, Default)]
pub(crate) struct SleepScratch {
    parent: Vec<u32>,
    /// Smallest rest time in each root's island (s).
    island_slow_time: Vec<f32>,
    /// Island ids to wake.
    islands_to_wake: Vec<u32>,
}

impl SleepScratch {
    /// Root of `i`'s set, halving the path as it goes.
    fn find(&mut self, mut i: u32) -> u32 {
        while self.parent[i as usize] != i {
            let grandparent = self.parent[self.parent[i as usize] as usize];
            self.parent[i as usize] = grandparent;
            i = grandparent;
        }
        i
    }

    /// Joins the sets of `a` and `b`; the smaller root index becomes the root, so the
    /// island id does not depend on the order contacts are visited in.
    fn union(&mut self, a: u32, b: u32) {
        let (ra, rb) = (self.find(a), self.find(b));
        if ra != rb {
            let (keep, child) = if ra < rb { (ra, rb) } else { (rb, ra) };
            self.parent[child as usize] = keep;
        }
    }
}

/// Updates rest timers after a step of `dt` seconds and puts every island whose bodies
/// have all rested long enough to sleep. Returns the number of islands put to sleep.
pub(crate) fn update_sleep(
    bodies: &mut BodySet,
    touching: impl IntoIterator<Item = (u32, u32)>,
    settings: &WorldSettings,
    dt: f32,
    scratch: &mut SleepScratch,
) -> u32 {
    let n = bodies.slot_count();
    for slot in 0..n {
        let Some(body) = bodies.slot_mut(slot) else { continue };
        if !body.is_dynamic() || body.is_sleeping() {
            continue;
        }
        let slow = body.linear_velocity().length() < settings.sleep_linear_speed
            && body.angular_velocity().abs() < settings.sleep_angular_speed;
        // Asked at every step, slow or not: the anchor follows a body that moves.
        let still = body.keeps_still_within(
            settings.sleep_linear_speed * settings.time_to_sleep,
            settings.sleep_angular_speed * settings.time_to_sleep,
        );
        let t = if slow || still { body.slow_time() + dt } else { 0.0 };
        body.set_slow_time(t);
    }
    scratch.parent.clear();
    scratch.parent.extend(0..n as u32);
    for (a, b) in touching {
        let (Some(body_a), Some(body_b)) = (bodies.slot(a as usize), bodies.slot(b as usize)) else {
            continue;
        };
        let awake_dynamic = |k: BodyKind, asleep: bool| k == BodyKind::Dynamic && !asleep;
        let a_joins = awake_dynamic(body_a.kind(), body_a.is_sleeping());
        let b_joins = awake_dynamic(body_b.kind(), body_b.is_sleeping());
        if a_joins && b_joins {
            scratch.union(a, b);
        }
        // A moving kinematic body does not join islands (it would join every pile it
        // ever touched), but what it touches must not sleep while it pushes.
        let pushes = |k: &super::Body| k.kind() == BodyKind::Kinematic && is_moving(k);
        let restless = [(b, b_joins && pushes(body_a)), (a, a_joins && pushes(body_b))];
        for (slot, yes) in restless {
            if let (true, Some(o)) = (yes, bodies.slot_mut(slot as usize)) {
                o.set_slow_time(0.0);
            }
        }
    }
    scratch.island_slow_time.clear();
    scratch.island_slow_time.resize(n, f32::INFINITY);
    for slot in 0..n {
        let Some(body) = bodies.slot(slot) else { continue };
        if body.is_dynamic() && !body.is_sleeping() {
            let root = scratch.find(slot as u32) as usize;
            scratch.island_slow_time[root] = scratch.island_slow_time[root].min(body.slow_time());
        }
    }
    let mut islands = 0;
    for slot in 0..n {
        if !bodies.slot(slot).is_some_and(|b| b.is_dynamic() && !b.is_sleeping()) {
            continue;
        }
        let root = scratch.find(slot as u32);
        if scratch.island_slow_time[root as usize] < settings.time_to_sleep {
            continue;
        }
        if root as usize == slot {
            islands += 1;
        }
        if let Some(body) = bodies.slot_mut(slot) {
            body.fall_asleep(root);
        }
    }
    islands
}

fn is_moving(body: &super::Body) -> bool {
    body.linear_velocity() != crate::math::Vec2::ZERO || body.angular_velocity() != 0.0
}

/// Wakes the rest of every island one of whose members is awake (woken through the API
/// or by a touch), then forgets the island ids of awake bodies. Returns how many
/// bodies it woke.
pub(crate) fn wake_islands(bodies: &mut BodySet, scratch: &mut SleepScratch) -> u32 {
    scratch.islands_to_wake.clear();
    for (_, body) in bodies.iter() {
        if let (false, Some(island)) = (body.is_sleeping(), body.sleep_island()) {
            scratch.islands_to_wake.push(island);
        }
    }
    scratch.islands_to_wake.sort_unstable();
    scratch.islands_to_wake.dedup();
    let mut woken = 0;
    for body in bodies.iter_mut() {
        if let Some(island) = body.sleep_island() {
            if body.is_sleeping() && scratch.islands_to_wake.binary_search(&island).is_ok() {
                body.wake_up();
                woken += 1;
            }
            if !body.is_sleeping() {
                body.clear_sleep_island();
            }
        }
    }
    woken
}

/// Wakes every sleeping body touched by an awake dynamic body in `manifolds`, and every
/// sleeping body whose box a moving kinematic body's box overlaps (kinematic bodies are
/// static to the broad phase, so they never form pairs with sleeping ones). Their
/// islands follow through [`wake_islands`]. Returns true when anything woke.
pub(crate) fn wake_touched(
    bodies: &mut BodySet,
    touching: impl IntoIterator<Item = (u32, u32)>,
    scratch: &mut SleepScratch,
) -> bool {
    let mut woke = false;
    for (a, b) in touching {
        let (a, b) = (a as usize, b as usize);
        let (Some(body_a), Some(body_b)) = (bodies.slot(a), bodies.slot(b)) else {
            continue;
        };
        let mover = |body: &super::Body| !body.is_sleeping() && body.kind() != BodyKind::Static;
        let wake = [
            (a, body_a.is_sleeping() && mover(body_b)),
            (b, body_b.is_sleeping() && mover(body_a)),
        ];
        for (slot, yes) in wake {
            if yes {
                if let Some(body) = bodies.slot_mut(slot) {
                    body.wake_up();
                    woke = true;
                }
            }
        }
    }
    let kinematic_boxes: Vec<Aabb> = bodies
        .iter()
        .filter(|(_, b)| b.kind() == BodyKind::Kinematic && is_moving(b))
        .map(|(_, b)| b.aabb())
        .collect();
    if !kinematic_boxes.is_empty() {
        for body in bodies.iter_mut() {
            if body.is_sleeping() && kinematic_boxes.iter().any(|k| k.overlaps(&body.aabb())) {
                body.wake_up();
                woke = true;
            }
        }
    }
    if woke {
        wake_islands(bodies, scratch);
    }
    woke
}

/// Wakes the sleeping bodies whose boxes come within `margin` metres of `region` (a
/// removed body's box): they may have rested on it.
pub(crate) fn wake_near(bodies: &mut BodySet, region: &Aabb, margin: f32, scratch: &mut SleepScratch) {
    let region = region.inflated(margin);
    let mut woke = false;
    for body in bodies.iter_mut() {
        if body.is_sleeping() && body.aabb().overlaps(&region) {
            body.wake_up();
            woke = true;
        }
    }
    if woke {
        wake_islands(bodies, scratch);
    }
}

/// Wakes every body (sleeping switched off).
pub(crate) fn wake_all(bodies: &mut BodySet) {
    for body in bodies.iter_mut() {
        if body.is_sleeping() || body.sleep_island().is_some() {
            body.wake_up();
            body.clear_sleep_island();
        }
    }
}

/// Number of sleeping bodies.
pub(crate) fn sleeping_count(bodies: &BodySet) -> u32 {
    bodies.iter().filter(|(_, b)| b.is_sleeping()).count() as u32
}

#[cfg(test)]
mod tests {
    use super::super::Body;
    use super::*;
    use crate::dynamics::desc::BodyDesc;
    use crate::geometry::ShapeDesc;
    use crate::math::Vec2;

    /// Steps one lone 0.5 m ball's sleep for `seconds` at 60 Hz; before each update it is
    /// given 1 m/s and 2 rad/s (far above the sleep speeds) and moved by `step_move(k)`
    /// (m, rad). Whether it ended asleep.
    fn lone_ball_sleeps(seconds: f32, step_move: impl Fn(usize) -> (Vec2, f32)) -> bool {
        let settings = WorldSettings::default();
        let mut bodies = BodySet::new();
        let h = bodies.insert(Body::new(BodyDesc::new(ShapeDesc::Circle { radius: 0.5 }).unwrap()));
        let mut scratch = SleepScratch::default();
        let dt = 1.0 / 60.0;
        for k in 0..(seconds / dt) as usize {
            let b = bodies.get_mut(h).unwrap();
            if b.is_sleeping() {
                break;
            }
            let (delta, turn) = step_move(k);
            b.translate_rotate(delta, turn);
            b.set_velocities_unchecked(Vec2::new(1.0, 0.0), 2.0);
            update_sleep(&mut bodies, std::iter::empty(), &settings, dt, &mut scratch);
        }
        bodies.get(h).unwrap().is_sleeping()
    }

    #[test]
    fn a_body_that_keeps_still_sleeps_whatever_its_velocity() {
        let settings = WorldSettings::default();
        // What the sleep speeds allow over the rest window: 2.5 cm and 0.025 rad.
        let reach = settings.sleep_linear_speed * settings.time_to_sleep;
        let turn = settings.sleep_angular_speed * settings.time_to_sleep;
        // Jiggled in place: back and forth by 0.4 of each, every step.
        let jiggle = |k: usize| {
            let sign = if k % 2 == 0 { 1.0 } else { -1.0 };
            (Vec2::new(0.4 * reach * sign, 0.0), 0.4 * turn * sign)
        };
        assert!(lone_ball_sleeps(1.0, jiggle), "a body jiggled in place sleeps");
        // Creeping by 0.3 of the reach a step leaves it every fourth step.
        assert!(!lone_ball_sleeps(5.0, |_| (Vec2::new(0.3 * reach, 0.0), 0.0)));
        // Turning in place by 0.3 of the turn a step.
        assert!(!lone_ball_sleeps(5.0, |_| (Vec2::ZERO, 0.3 * turn)));
        // Drifting by a sixtieth of the reach a step (1.5 cm/s, below the sleep speed,
        // though its velocity says otherwise) stays within it for a second: it sleeps.
        assert!(lone_ball_sleeps(1.0, |_| (Vec2::new(reach / 60.0, 0.0), 0.0)));
    }
}
