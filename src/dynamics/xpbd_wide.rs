//! The position-based solver's passes (`xpbd.rs`), eight constraints at once.
//!
//! Each pass of XPBD (Müller et al. 2020) goes through the constraints one after
//! another, and each constraint is a short chain of dependent operations on its two
//! bodies. The constraints of one colour (`constraint.rs`, `ColourScratch::place`) share
//! no body that can move, so eight of them can go through the same chain side by side,
//! one per lane of a SIMD register: what `solver_wide.rs` does for the impulse solver,
//! after Catto's wide contact solver in Box2D v3 ("Solver2D", 2024).
//!
//! ```text
//! build (once a step)   per colour: its constraints of at most two points whose bodies
//!                       either move or are fixed (below), in bundles of eight (those
//!                       touching at the start of the step apart from the others); the rest,
//!                       and the whole last colour (whose constraints may share bodies),
//!                       stay one at a time (`xpbd::project_constraint` and its siblings)
//! each pass             per colour: per bundle, gather the eight bodies into lanes, run
//!                       the scalar pass's arithmetic on every lane with its branches as
//!                       masks, scatter the bodies that can move; then the colour's
//!                       single constraints
//! write back            the points' impulses and flags into the constraints (after every
//!                       pass when an observer watches, else once at the end)
//! ```
//!
//! **Idle bundles.** Nearly half of the constraints of a resting pile are speculative
//! pairs (`contacts.rs`'s margin: neighbours close but not touching), which push
//! nothing. Bundled apart from the touching ones (the order within a colour does not
//! change the answer), whole bundles of them are skipped by the pull-back of old drift
//! before the substeps (no point pushed) without gathering their bodies, and the last
//! position pass of a substep skips their static friction (all eight lanes unpushed).
//!
//! **The same answer, bit for bit.** Every lane computes the expressions of the scalar
//! pass in the same order and association (Rust does not contract a·b + c into a fused
//! multiply-add, and the SIMD square root and division are correctly rounded, as the
//! scalar ones are). A branch that skips work becomes a mask, and a masked lane keeps its
//! old value by a select, never by adding zero (−0 + 0 is +0: adding a zero would change
//! a sign bit the scalar pass leaves alone). Maxima with zero are written as selects
//! that give what the scalar `x.max(0.0)` gives on x86-64, NaN to zero and −0 kept, and
//! clamps as the two comparisons `f32::clamp` makes. A unit test compares the two on
//! random constraints, bit for bit; the world's state hashes did not change.
//!
//! **Which bodies may share lanes.** A body that can move (`inv_mass` or `inv_inertia`
//! above zero) is in at most one constraint of a colour, so it is in one lane and
//! scattered back. A body that cannot move may be in several lanes, so it is never
//! scattered; that is only exact when the passes leave it unchanged, which the scalar
//! passes do for a *fixed* body: not moving, at the start pose (dp = +0, dq = identity,
//! dθ = +0) and with no −0 in its velocity (then v − 0·P is v, and a turn by ±0 from the
//! identity is the identity). A kinematic body is not fixed — the scalar passes
//! renormalise its rotation at every correction — so its constraints stay single, in
//! their order.

use super::body_state::{BodyState, BodyStates};
use super::constraint::{Constraint, ConstraintPoint, Constraints, COLOURS};
use super::lanes::{field, mask, transpose_rows, Lf, Slots, LANES};
use super::xpbd::{hold_constraint, project_constraint, settle_constraint, PositionPass, VelocityPass};
use passes::{hold_bundle, project_bundle, settle_bundle};

mod passes;

/// `BodyState::turn_by_correction`'s limit of the fast renormalisation (rad).
const SMALL_RAD: f32 = 0.02;

/// One point of eight constraints, each field one lane per constraint: the fields of
/// [`ConstraintPoint`] the passes read, and those they write (written back at the end).
#[derive(Clone, Copy, Debug, Default)]
struct PointLanes {
    /// The lane has this point (a single-point constraint's second point, and unused
    /// lanes, do nothing).
    live: Lf,
    normal_x: Lf,
    normal_y: Lf,
    anchor_a_x: Lf,
    anchor_a_y: Lf,
    anchor_b_x: Lf,
    anchor_b_y: Lf,
    base_separation: Lf,
    start_overlap: Lf,
    deep: Lf,
    stick_anchor_a_x: Lf,
    stick_anchor_a_y: Lf,
    stick_anchor_b_x: Lf,
    stick_anchor_b_y: Lf,
    stick_gap_x: Lf,
    stick_gap_y: Lf,
    normal_impulse: Lf,
    tangent_impulse: Lf,
    velocity_normal_impulse: Lf,
    relative_velocity: Lf,
    slipped: Lf,
}

/// Eight constraints of one colour, each with one or two points.
#[derive(Clone, Copy, Debug, Default)]
struct Bundle {
    /// The constraints' indices in [`Constraints::list`] (for the write-back) …
    constraint: [u32; LANES],
    /// … their bodies' slots (an unused lane repeats lane 0's, never scattered) …
    a: Slots,
    b: Slots,
    /// … how many lanes are used, and how many points the fullest lane has.
    lanes: u8,
    points: u8,
    /// Whether each lane's body is written back (it can move; else it is fixed).
    movable_a: [bool; LANES],
    movable_b: [bool; LANES],
    inv_mass_a: Lf,
    inv_inertia_a: Lf,
    inv_mass_b: Lf,
    inv_inertia_b: Lf,
    /// Masks: gravity applies to the body (`moves_by_forces`).
    forces_a: Lf,
    forces_b: Lf,
    friction: Lf,
    restitution: Lf,
    point: [PointLanes; 2],
}

/// One colour's work: its bundles and its constraints solved one at a time.
#[derive(Clone, Copy, Debug, Default)]
struct ColourRun {
    bundles: (u32, u32),
    singles: (u32, u32),
}

/// The bundles of one step (scratch, reused between steps).
#[derive(Clone, Debug, Default)]
pub(crate) struct WideXpbd {
    bundles: Vec<Bundle>,
    /// Indices into [`Constraints::list`] of the constraints solved one at a time.
    singles: Vec<u32>,
    runs: Vec<ColourRun>,
    /// A colour's bundled constraints while it is built, by point count (two, one) and
    /// whether they touch at the start of the step (touching, apart): see `build`.
    kinds: [Vec<u32>; 4],
}

/// Whether the passes may hold the body in a lane it shares with other lanes without
/// writing it back: they leave it bit for bit as it is (see the module docs).
fn is_fixed(s: &BodyState) -> bool {
    let no_negative_zero = |x: f32| x.is_finite() && x.to_bits() != (-0.0f32).to_bits();
    !s.moves
        && s.inv_mass == 0.0
        && s.inv_inertia == 0.0
        && s.dp.x.to_bits() == 0
        && s.dp.y.to_bits() == 0
        && s.dq.cos == 1.0
        && s.dq.sin.to_bits() == 0
        && s.dtheta.to_bits() == 0
        && no_negative_zero(s.v.x)
        && no_negative_zero(s.v.y)
        && no_negative_zero(s.w)
}

/// Whether the body can move (the colouring's test: such a body is in one constraint of
/// a colour).
fn is_movable(s: &BodyState) -> bool {
    s.inv_mass > 0.0 || s.inv_inertia > 0.0
}

impl WideXpbd {
    /// Bundles the step's constraints (in colour order, `constraints.colour_starts`) with
    /// their points and the bodies' masses from `states`.
    pub fn build(&mut self, constraints: &Constraints, states: &BodyStates) {
        let WideXpbd {
            bundles,
            singles,
            runs,
            kinds,
        } = self;
        bundles.clear();
        singles.clear();
        runs.clear();
        // Room for the most the constraints can need (each colour may leave a part-full
        // bundle of each kind): the counts move from step to step, and a step of a
        // settled world allocates nothing (tests/allocations.rs) once the constraints
        // have stopped growing.
        let most = constraints.list.len();
        bundles.reserve(most / LANES + 2 * COLOURS as usize);
        singles.reserve(most);
        runs.reserve(COLOURS as usize);
        for kind in kinds.iter_mut() {
            kind.reserve(most);
        }
        let states = &states.states[..];
        let starts = &constraints.colour_starts;
        let coloured = starts.last().is_some_and(|&end| end as usize == constraints.list.len());
        if !coloured {
            // Constraints built without a colouring: all one at a time, in order.
            singles.extend(0..constraints.list.len() as u32);
            runs.push(ColourRun {
                bundles: (0, 0),
                singles: (0, singles.len() as u32),
            });
            return;
        }
        let fits = |s: &BodyState| is_movable(s) || is_fixed(s);
        for colour in 0..starts.len() - 1 {
            let (start, end) = (starts[colour], starts[colour + 1]);
            if start == end {
                continue;
            }
            let (bundles_from, singles_from) = (bundles.len() as u32, singles.len() as u32);
            if colour + 1 == COLOURS as usize {
                // The last colour may share bodies: one at a time.
                singles.extend(start..end);
            } else {
                for kind in kinds.iter_mut() {
                    kind.clear();
                }
                for index in start..end {
                    let c = &constraints.list[index as usize];
                    let bodies_fit = fits(&states[c.a as usize]) && fits(&states[c.b as usize]);
                    let apart = constraints.points_of(c).iter().all(|p| p.start_separation() > 0.0);
                    match c.count {
                        1 | 2 if bodies_fit => kinds[2 * (2 - c.count as usize) + apart as usize].push(index),
                        _ => singles.push(index),
                    }
                }
                for run in kinds.iter() {
                    for eight in run.chunks(LANES) {
                        bundles.push(bundle_of(eight, constraints, states));
                    }
                }
            }
            runs.push(ColourRun {
                bundles: (bundles_from, bundles.len() as u32),
                singles: (singles_from, singles.len() as u32),
            });
        }
    }

    /// Every bundle and single constraint, colour by colour: `bundle` for the bundles,
    /// `single` for the rest.
    #[inline]
    fn each(
        &mut self,
        states: &mut BodyStates,
        constraints: &mut Constraints,
        mut bundle: impl FnMut(&mut [BodyState], &mut Bundle),
        mut single: impl FnMut(&mut [BodyState], &Constraint, &mut [ConstraintPoint]),
    ) {
        let states = &mut states.states[..];
        for run in &self.runs {
            for b in &mut self.bundles[run.bundles.0 as usize..run.bundles.1 as usize] {
                bundle(states, b);
            }
            for &index in &self.singles[run.singles.0 as usize..run.singles.1 as usize] {
                let c = constraints.list[index as usize];
                let points = &mut constraints.points[c.first as usize..(c.first + c.count) as usize];
                single(states, &c, points);
            }
        }
    }

    /// `xpbd::solve_positions`: one pass of position projection (starting the substep
    /// first, and holding by static friction after, as `pass` says).
    pub fn positions(&mut self, states: &mut BodyStates, constraints: &mut Constraints, pass: &PositionPass) {
        self.each(
            states,
            constraints,
            |states, bundle| project_bundle(states, bundle, pass),
            |states, c, points| project_constraint(states, c, points, pass),
        );
    }

    /// `xpbd::solve_static_friction`: one pass of static friction (`slip_drift`, m: see
    /// `xpbd::hold_constraint`).
    pub fn static_friction(&mut self, states: &mut BodyStates, constraints: &mut Constraints, slip_drift: f32) {
        self.each(
            states,
            constraints,
            |states, bundle| hold_bundle(states, bundle, slip_drift),
            |states, c, points| hold_constraint(states, c, points, slip_drift),
        );
    }

    /// `xpbd::solve_velocities`: the substep's velocity pass, after its position passes.
    pub fn velocities(&mut self, states: &mut BodyStates, constraints: &mut Constraints, settings: &VelocityPass) {
        self.each(
            states,
            constraints,
            |states, bundle| settle_bundle(states, bundle, settings),
            |states, c, points| settle_constraint(states, c, points, settings),
        );
    }

    /// Writes the bundles' impulses and flags back into their constraints' points (the
    /// single constraints were solved in place).
    pub fn write_back(&self, constraints: &mut Constraints) {
        for bundle in &self.bundles {
            for lane in 0..bundle.lanes as usize {
                let c = constraints.list[bundle.constraint[lane] as usize];
                let points = &mut constraints.points[c.first as usize..(c.first + c.count) as usize];
                for (p, lanes) in points.iter_mut().zip(&bundle.point) {
                    p.normal_impulse = lanes.normal_impulse.as_array()[lane];
                    p.tangent_impulse = lanes.tangent_impulse.as_array()[lane];
                    p.velocity_normal_impulse = lanes.velocity_normal_impulse.as_array()[lane];
                    p.relative_velocity = lanes.relative_velocity.as_array()[lane];
                    p.slipped = lanes.slipped.as_array()[lane].to_bits() != 0;
                }
            }
        }
    }
}

/// The bundle of up to eight constraints `indices` (each of one or two points, its bodies
/// movable or fixed): a missing point's lanes are zero and not `live`, an unused lane
/// holds lane 0's bodies.
///
/// Each field's eight lanes are made at once from references to the lanes' points, as
/// `solver_wide.rs` builds its bundles: written lane by lane into a default bundle (a
/// store per lane and field, the bundle zeroed first and copied out after) this took
/// 4.5 M instructions a step on the 5050-box pyramid, as much as a position pass.
fn bundle_of(indices: &[u32], constraints: &Constraints, states: &[BodyState]) -> Bundle {
    let zero = ConstraintPoint::default();
    let first: &Constraint = &constraints.list[indices[0] as usize];
    let mut constraint = [0; LANES];
    let (mut slots_a, mut slots_b) = ([first.a; LANES], [first.b; LANES]);
    let (mut movable_a, mut movable_b) = ([false; LANES], [false; LANES]);
    let (mut forces_a, mut forces_b) = ([false; LANES], [false; LANES]);
    let mut masses = [[0.0; LANES]; 4]; // inv_mass_a, inv_inertia_a, inv_mass_b, inv_inertia_b
    let (mut friction, mut restitution) = ([0.0; LANES], [0.0; LANES]);
    let mut point: [[&ConstraintPoint; LANES]; 2] = [[&zero; LANES]; 2];
    let mut live = [[false; LANES]; 2];
    let mut most_points = 0;
    for (lane, &index) in indices.iter().enumerate().take(LANES) {
        let c = &constraints.list[index as usize];
        let (sa, sb) = (&states[c.a as usize], &states[c.b as usize]);
        constraint[lane] = index;
        slots_a[lane] = c.a;
        slots_b[lane] = c.b;
        movable_a[lane] = is_movable(sa);
        movable_b[lane] = is_movable(sb);
        forces_a[lane] = sa.moves_by_forces;
        forces_b[lane] = sb.moves_by_forces;
        masses[0][lane] = sa.inv_mass;
        masses[1][lane] = sa.inv_inertia;
        masses[2][lane] = sb.inv_mass;
        masses[3][lane] = sb.inv_inertia;
        friction[lane] = c.friction;
        restitution[lane] = c.restitution;
        let points = constraints.points_of(c);
        most_points = most_points.max(points.len());
        for (k, p) in points.iter().enumerate().take(2) {
            point[k][lane] = p;
            live[k][lane] = true;
        }
    }
    let lanes_of = |points: &[&ConstraintPoint; LANES], live: [bool; LANES]| {
        // Rows 0 and 1 of each point whole (`ConstraintPoint::rows`), the rest by field.
        let [normal_x, normal_y, anchor_a_x, anchor_a_y, anchor_b_x, anchor_b_y, base_separation, start_overlap] =
            transpose_rows(points.map(|p| p.rows()[0]));
        let [normal_impulse, tangent_impulse, velocity_normal_impulse, relative_velocity, stick_anchor_a_x, stick_anchor_a_y, stick_anchor_b_x, stick_anchor_b_y] =
            transpose_rows(points.map(|p| p.rows()[1]));
        PointLanes {
            live: mask(live),
            normal_x,
            normal_y,
            anchor_a_x,
            anchor_a_y,
            anchor_b_x,
            anchor_b_y,
            base_separation,
            start_overlap,
            deep: mask(points.map(|p| p.deep)),
            stick_anchor_a_x,
            stick_anchor_a_y,
            stick_anchor_b_x,
            stick_anchor_b_y,
            stick_gap_x: field(points, |p| p.stick_gap.x),
            stick_gap_y: field(points, |p| p.stick_gap.y),
            normal_impulse,
            tangent_impulse,
            velocity_normal_impulse,
            relative_velocity,
            slipped: mask(points.map(|p| p.slipped)),
        }
    };
    Bundle {
        constraint,
        a: Slots::new(slots_a),
        b: Slots::new(slots_b),
        lanes: indices.len() as u8,
        points: most_points as u8,
        movable_a,
        movable_b,
        inv_mass_a: Lf::new(masses[0]),
        inv_inertia_a: Lf::new(masses[1]),
        inv_mass_b: Lf::new(masses[2]),
        inv_inertia_b: Lf::new(masses[3]),
        forces_a: mask(forces_a),
        forces_b: mask(forces_b),
        friction: Lf::new(friction),
        restitution: Lf::new(restitution),
        point: [lanes_of(&point[0], live[0]), lanes_of(&point[1], live[1])],
    }
}

#[cfg(test)]
mod tests;
