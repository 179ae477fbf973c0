//! The four-wide passes against the scalar ones (`xpbd.rs`), bit for bit.

use super::*;
use crate::dynamics::test_rng::Lcg;
use crate::dynamics::xpbd::{pull_back_old_drift, solve_positions, solve_velocities, PositionPass, SubstepStart};
use crate::math::{Rot, Vec2};

/// Slots of the fixed bodies (static, at their start pose) and of the kinematic one.
const FIXED: u32 = 4;
const KINEMATIC: u32 = 4;

/// Random bodies — four fixed, one kinematic (its constraints stay single), the rest
/// dynamic, a few of them without rotation — and constraints of one to four points
/// between them, coloured greedily as `ColourScratch::place` does, with one hub body
/// in enough constraints to fill every colour (so the last colour holds constraints that
/// share it). Separations from apart to 0.4 m deep, so that some corrections turn a body
/// past the fast renormalisation's limit; some points have not pushed, some are deep,
/// some slipped, and some pairs have infinite friction.
fn random_problem(seed: u64) -> (BodyStates, Constraints) {
    let mut rng = Lcg(seed);
    let bodies = 40;
    let states = (0..bodies as u32)
        .map(|i| {
            if i < FIXED {
                return BodyState::default();
            }
            let angle = rng.range(-0.05, 0.05);
            let moved = BodyState {
                v: Vec2::new(rng.range(-2.0, 2.0), rng.range(-2.0, 2.0)),
                w: rng.range(-3.0, 3.0),
                dp: Vec2::new(rng.range(-0.01, 0.01), rng.range(-0.01, 0.01)),
                dq: Rot::from_angle(angle),
                dtheta: angle,
                moves: true,
                ..BodyState::default()
            };
            if i == KINEMATIC {
                return moved;
            }
            let turns = rng.unit() < 0.9;
            BodyState {
                inv_mass: rng.range(0.1, 2.0),
                inv_inertia: if turns { rng.range(0.1, 5.0) } else { 0.0 },
                moves_by_forces: true,
                ..moved
            }
        })
        .collect::<Vec<_>>();
    let hub = 5u32;
    let mut pairs: Vec<(u32, u32, u32)> = Vec::new();
    for k in 0..300 {
        let a = if k < 80 { hub } else { rng.below(bodies) as u32 };
        let mut b = rng.below(bodies) as u32;
        if b == a {
            b = (a + 1) % bodies as u32;
        }
        pairs.push((a, b, 1 + rng.below(4) as u32));
    }
    let movable = |slot: u32| is_movable(&states[slot as usize]);
    let mut used = vec![0u64; bodies];
    let mut coloured: Vec<(u32, usize)> = Vec::new();
    for (index, &(a, b, _)) in pairs.iter().enumerate() {
        let taken = [a, b]
            .iter()
            .filter(|&&s| movable(s))
            .fold(0u64, |t, &s| t | used[s as usize]);
        let colour = (!taken).trailing_zeros().min(COLOURS - 1);
        for s in [a, b] {
            if movable(s) {
                used[s as usize] |= 1 << colour;
            }
        }
        coloured.push((colour, index));
    }
    coloured.sort_by_key(|&(colour, index)| (colour, index));
    assert!(coloured.iter().filter(|c| c.0 == COLOURS - 1).count() > 2);
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
            friction: if rng.unit() < 0.05 {
                f32::INFINITY
            } else {
                rng.range(0.0, 1.0)
            },
            restitution: rng.range(0.0, 0.8),
            first: constraints.points.len() as u32,
            count,
        });
        for _ in 0..count {
            let angle = rng.range(0.0, std::f32::consts::TAU);
            let anchor_a = Vec2::new(rng.range(-0.5, 0.5), rng.range(-0.5, 0.5));
            let anchor_b = Vec2::new(rng.range(-0.5, 0.5), rng.range(-0.5, 0.5));
            let nudge = |rng: &mut Lcg| Vec2::new(rng.range(-0.01, 0.01), rng.range(-0.01, 0.01));
            constraints.points.push(ConstraintPoint {
                normal: Vec2::new(angle.cos(), angle.sin()),
                anchor_a,
                anchor_b,
                base_separation: if rng.unit() < 0.1 {
                    rng.range(-0.4, -0.1)
                } else {
                    rng.range(-0.03, 0.02)
                },
                normal_impulse: rng.range(-0.1, 0.5),
                tangent_impulse: rng.range(-0.2, 0.2),
                start_overlap: rng.range(0.0, 0.02),
                deep: rng.unit() < 0.2,
                slipped: rng.unit() < 0.1,
                relative_velocity: rng.range(-3.0, 1.0),
                stick_anchor_a: anchor_a + nudge(&mut rng),
                stick_anchor_b: anchor_b + nudge(&mut rng),
                stick_gap: nudge(&mut rng),
                ..ConstraintPoint::default()
            });
        }
    }
    constraints.colour_starts = colour_starts;
    (BodyStates { states }, constraints)
}

/// Every field the passes write, as bits (so that even a zero's sign must agree).
fn bits(states: &BodyStates, constraints: &Constraints) -> Vec<u32> {
    let mut out = Vec::new();
    for s in &states.states {
        out.extend([s.v.x, s.v.y, s.w, s.dp.x, s.dp.y, s.dq.cos, s.dq.sin, s.dtheta].map(f32::to_bits));
    }
    for p in &constraints.points {
        let values = [
            p.normal_impulse,
            p.tangent_impulse,
            p.velocity_normal_impulse,
            p.relative_velocity,
        ];
        out.extend(values.map(f32::to_bits));
        out.push(u32::from(p.slipped));
    }
    out
}

/// A 240 Hz substep's velocity pass.
const VELOCITY_PASS: VelocityPass = VelocityPass {
    restitution_threshold: 1.0,
    inv_h: 240.0,
    up: Vec2::new(0.0, 1.0),
    lower_scale: crate::dynamics::xpbd::LOWER_SCALE,
};
const SLOP: f32 = 0.005;
const MAX_PUSH_M: f32 = 3.0 / 240.0;

fn start() -> SubstepStart {
    SubstepStart {
        gravity_dv: Vec2::new(0.0, -9.81 / 240.0),
    }
}

/// A substep's first position pass (it starts the substep), shedding up to `shed` (m).
fn first_pass(shed: f32) -> PositionPass {
    PositionPass {
        slop: SLOP,
        shed_so_far: shed,
        start: Some(start()),
        hold: false,
    }
}

/// A substep's last position pass (it holds by static friction).
fn last_pass(shed: f32) -> PositionPass {
    PositionPass {
        start: None,
        hold: true,
        ..first_pass(shed)
    }
}

/// What `xpbd::solve_step` does between its predictions, one constraint at a time.
fn scalar_substeps(states: &mut BodyStates, constraints: &mut Constraints) {
    pull_back_old_drift(states, constraints, SLOP);
    for substep in 0..3 {
        let shed = MAX_PUSH_M * (substep + 1) as f32;
        solve_positions(states, constraints, &first_pass(shed));
        solve_positions(states, constraints, &last_pass(shed));
        solve_velocities(states, constraints, &VELOCITY_PASS);
    }
}

/// The same, four at a time.
fn wide_substeps(states: &mut BodyStates, constraints: &mut Constraints, wide: &mut WideXpbd) {
    for p in constraints.points.iter_mut() {
        p.tangent_impulse = 0.0;
    }
    wide.build(constraints, states);
    wide.static_friction(states, constraints, SLOP);
    for substep in 0..3 {
        let shed = MAX_PUSH_M * (substep + 1) as f32;
        wide.positions(states, constraints, &first_pass(shed));
        wide.positions(states, constraints, &last_pass(shed));
        wide.velocities(states, constraints, &VELOCITY_PASS);
    }
    wide.write_back(constraints);
}

/// The four-wide passes give what one constraint after another in colour order gives,
/// bit for bit: the substep's start, position passes, the last one with static
/// friction, the pull-back of old drift, the velocity pass, over several substeps.
#[test]
fn wide_passes_equal_one_at_a_time() {
    for seed in 1..=20 {
        let (states, constraints) = random_problem(seed);
        let (mut scalar_states, mut scalar) = (states.clone(), constraints.clone());
        let (mut wide_states, mut wide) = (states, constraints);
        let mut contacts = WideXpbd::default();
        scalar_substeps(&mut scalar_states, &mut scalar);
        wide_substeps(&mut wide_states, &mut wide, &mut contacts);
        assert!(contacts.bundles.len() > 10 && !contacts.singles.is_empty());
        // The kinematic body's constraints stay single; the fixed bodies' are bundled.
        let in_bundles = |slot: u32| {
            contacts
                .bundles
                .iter()
                .any(|b| (0..b.lanes as usize).any(|k| b.a.get(k) == slot || b.b.get(k) == slot))
        };
        assert!(!in_bundles(KINEMATIC) && (0..FIXED).any(in_bundles));
        let (expected, got) = (bits(&scalar_states, &scalar), bits(&wide_states, &wide));
        let differ = expected.iter().zip(&got).filter(|(x, y)| x != y).count();
        assert_eq!(differ, 0, "seed {seed}: {differ} values differ");
    }
}

/// The test above can fail: bundles that hold a body shared with another lane (here:
/// the whole problem solved as one colour) change the answer.
#[test]
fn sharing_bodies_across_lanes_would_change_the_answer() {
    let (states, constraints) = random_problem(7);
    let (mut scalar_states, mut scalar) = (states.clone(), constraints.clone());
    let (mut wide_states, mut wide) = (states, constraints);
    let total = wide.list.len() as u32;
    wide.colour_starts = vec![0, total];
    scalar_substeps(&mut scalar_states, &mut scalar);
    wide_substeps(&mut wide_states, &mut wide, &mut WideXpbd::default());
    assert_ne!(bits(&scalar_states, &scalar), bits(&wide_states, &wide));
}

/// Single corrections of the random problems turn bodies both below and past the fast
/// renormalisation's limit of `BodyState::turn_by_correction` (so the test above checks
/// both paths).
#[test]
fn random_corrections_take_both_renormalisations() {
    let (states, constraints) = random_problem(3);
    let (mut small, mut large) = (0, 0);
    for (c, points) in constraints.iter().filter(|(c, _)| c.count == 1) {
        let (mut turned, mut points) = (states.states.clone(), points.to_vec());
        let pass = PositionPass {
            start: None,
            ..first_pass(MAX_PUSH_M)
        };
        crate::dynamics::xpbd::project_constraint(&mut turned, c, &mut points, &pass);
        for slot in [c.a, c.b] {
            let turn = (turned[slot as usize].dtheta - states.states[slot as usize].dtheta).abs();
            if turn >= SMALL_RAD {
                large += 1;
            } else if turn > 0.0 {
                small += 1;
            }
        }
    }
    assert!(small > 10 && large > 2, "{small} small turns, {large} large");
}
