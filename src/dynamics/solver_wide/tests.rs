//! The four-wide passes against the one-at-a-time ones (`solver.rs`).

use super::*;
use crate::dynamics::solver::{solve, warm_start, Softness};
use crate::dynamics::test_rng::Lcg;
use crate::math::{cross, Rot, Vec2};

/// Random bodies (the first four static) and constraints between them, coloured
/// greedily as `ColourScratch::place` does, one hub body in enough constraints to
/// fill every colour (so the last colour holds constraints that share it), and
/// constraints of one to four points.
fn random_problem(seed: u64) -> (BodyStates, Constraints) {
    let mut rng = Lcg(seed);
    let bodies = 40;
    let states = (0..bodies)
        .map(|i| {
            let moves = i >= 4;
            BodyState {
                v: Vec2::new(rng.range(-2.0, 2.0), rng.range(-2.0, 2.0)),
                w: rng.range(-3.0, 3.0),
                dp: Vec2::new(rng.range(-0.01, 0.01), rng.range(-0.01, 0.01)),
                dq: Rot::from_angle(rng.range(-0.02, 0.02)),
                inv_mass: if moves { rng.range(0.1, 2.0) } else { 0.0 },
                inv_inertia: if moves { rng.range(0.1, 5.0) } else { 0.0 },
                moves_by_forces: moves,
                moves,
                ..BodyState::default()
            }
        })
        .collect::<Vec<_>>();
    let hub = 5u32;
    let mut pairs: Vec<(u32, u32, u32)> = Vec::new();
    for k in 0..260 {
        let a = if k < 80 { hub } else { rng.below(bodies) as u32 };
        let mut b = rng.below(bodies) as u32;
        if b == a {
            b = (a + 1) % bodies as u32;
        }
        let count = 1 + rng.below(4) as u32;
        pairs.push((a, b, count));
    }
    // Greedy colouring, last colour shared.
    let movable = |slot: u32| states[slot as usize].inv_mass > 0.0;
    let mut used = vec![0u64; bodies];
    let mut coloured: Vec<(u32, usize)> = Vec::new();
    for (index, &(a, b, _)) in pairs.iter().enumerate() {
        let mut taken = 0u64;
        for s in [a, b] {
            if movable(s) {
                taken |= used[s as usize];
            }
        }
        let colour = (!taken).trailing_zeros().min(COLOURS - 1);
        for s in [a, b] {
            if movable(s) {
                used[s as usize] |= 1 << colour;
            }
        }
        coloured.push((colour, index));
    }
    coloured.sort_by_key(|&(colour, index)| (colour, index));
    assert!(
        coloured.iter().filter(|c| c.0 == COLOURS - 1).count() > 2,
        "the last colour is shared"
    );
    let mut constraints = Constraints::default();
    let mut colour_starts = vec![0u32; COLOURS as usize + 1];
    for (position, &(colour, index)) in coloured.iter().enumerate() {
        let (a, b, count) = pairs[index];
        for later in &mut colour_starts[colour as usize + 1..] {
            *later = position as u32 + 1;
        }
        constraints.list.push(Constraint {
            a,
            b,
            pair: index as u32,
            friction: rng.range(0.0, 1.0),
            restitution: 0.0,
            first: constraints.points.len() as u32,
            count,
        });
        let (sa, sb) = (states[a as usize], states[b as usize]);
        for _ in 0..count {
            let angle = rng.range(0.0, std::f32::consts::TAU);
            let normal = Vec2::new(angle.cos(), angle.sin());
            let tangent = Vec2::new(normal.y, -normal.x);
            let anchor_a = Vec2::new(rng.range(-0.5, 0.5), rng.range(-0.5, 0.5));
            let anchor_b = Vec2::new(rng.range(-0.5, 0.5), rng.range(-0.5, 0.5));
            let mass = |dir: Vec2| {
                let (ca, cb) = (cross(anchor_a, dir), cross(anchor_b, dir));
                1.0 / (sa.inv_mass + sb.inv_mass + sa.inv_inertia * ca * ca + sb.inv_inertia * cb * cb)
            };
            constraints.points.push(ConstraintPoint {
                normal,
                anchor_a,
                anchor_b,
                base_separation: rng.range(-0.03, 0.02),
                normal_mass: mass(normal),
                tangent_mass: mass(tangent),
                cross_na: cross(anchor_a, normal),
                cross_nb: cross(anchor_b, normal),
                cross_ta: cross(anchor_a, tangent),
                cross_tb: cross(anchor_b, tangent),
                normal_impulse: rng.range(0.0, 0.5),
                tangent_impulse: rng.range(-0.2, 0.2),
                start_overlap: rng.range(0.0, 0.02),
                deep: rng.unit() < 0.2,
                ..ConstraintPoint::default()
            });
        }
    }
    constraints.colour_starts = colour_starts;
    (BodyStates { states }, constraints)
}

/// Every velocity and impulse, as numbers that compare equal when the floats are
/// equal (a zero may differ in sign: SIMD and scalar minimum and maximum are free
/// to pick either zero, and a signed zero changes no later sum).
fn values(states: &BodyStates, constraints: &Constraints) -> Vec<f32> {
    let mut out = Vec::new();
    for s in &states.states {
        out.extend([s.v.x, s.v.y, s.w]);
    }
    for p in &constraints.points {
        out.extend([p.normal_impulse, p.tangent_impulse, p.max_normal_impulse]);
    }
    assert!(out.iter().all(|x| x.is_finite()));
    out
}

/// A 240 Hz substep's tuning with the default contact spring.
fn tuning() -> StepTuning {
    StepTuning {
        softness: Softness::new(30.0, 10.0, 1.0 / 240.0),
        inv_h: 240.0,
        slop: 0.005,
        max_push_speed: 3.0,
    }
}

/// The four-wide passes give what one constraint after another in colour order
/// gives, number for number: warm start, biased and relax passes, over several substeps.
#[test]
fn wide_passes_equal_one_at_a_time() {
    let tuning = tuning();
    for seed in 1..=20 {
        let (states, constraints) = random_problem(seed);
        let (mut scalar_states, mut scalar) = (states.clone(), constraints.clone());
        let (mut wide_states, mut wide) = (states, constraints);
        let mut contacts = WideContacts::default();
        contacts.build(&wide, &wide_states);
        assert!(contacts.bundles.len() > 10 && !contacts.singles.is_empty());
        for _ in 0..3 {
            warm_start(&mut scalar_states, &scalar);
            contacts.warm_start(&mut wide_states, &wide);
            for use_bias in [true, true, false] {
                solve(&mut scalar_states, &mut scalar, &tuning, use_bias);
                contacts.solve(&mut wide_states, &mut wide, &tuning, use_bias);
            }
        }
        contacts.write_back(&mut wide);
        assert_eq!(
            values(&scalar_states, &scalar),
            values(&wide_states, &wide),
            "seed {seed}"
        );
    }
}

/// The test above can fail: a bundle that scattered a body it shares with another
/// lane (here: solving the shared last colour four at a time) changes the answer.
#[test]
fn sharing_bodies_across_lanes_would_change_the_answer() {
    let tuning = tuning();
    let (states, constraints) = random_problem(7);
    let (mut scalar_states, mut scalar) = (states.clone(), constraints.clone());
    let (mut wide_states, mut wide) = (states, constraints);
    // Pretend the whole problem is one colour.
    let total = wide.list.len() as u32;
    wide.colour_starts = vec![0, total];
    let mut contacts = WideContacts::default();
    contacts.build(&wide, &wide_states);
    solve(&mut scalar_states, &mut scalar, &tuning, true);
    contacts.solve(&mut wide_states, &mut wide, &tuning, true);
    contacts.write_back(&mut wide);
    assert_ne!(values(&scalar_states, &scalar), values(&wide_states, &wide));
}
