//! The impulse solver's passes, eight constraints at once.
//!
//! Sequential impulses (`solver.rs`) solve one constraint after another, and each
//! constraint is a short chain of dependent multiply-adds on its two bodies. The
//! constraints of one colour (`constraint.rs`, `ColourScratch::place`) share no body that
//! can move, so any eight of them can go through the same chain side by side, one per
//! lane of a SIMD register: Catto's wide contact solver in Box2D v3 (`contact_solver.c`,
//! "Solver2D", 2024), written here for eight `f32` lanes with the `wide` crate (`lanes.rs`).
//!
//! ```text
//! build (once a step)   per colour: its constraints of at most two points, in bundles
//!                       of eight (bodies, masses, points as lanes); the rest, and the
//!                       whole last colour (whose constraints may share bodies), stay
//!                       one at a time
//! each pass             per colour: per bundle, gather the eight bodies' velocities
//!                       and deltas into lanes (`lanes.rs`), run the chain, scatter the
//!                       velocities; then the colour's single constraints
//! write back            the accumulated impulses into the constraints
//! ```
//!
//! **The same answer.** Every lane computes exactly the expressions of
//! `solver::solve_constraint`, in the same order and association, and a colour's
//! constraints touch disjoint movable bodies, so solving them side by side gives what
//! solving them one after another in colour order gives, number for number (a zero may
//! come out with the other sign: SIMD and scalar minimum and maximum may pick either;
//! a test compares the two on random constraints, and the world's state hashes did not
//! change). Unused lanes and a single-point constraint's second point are
//! inert: zero masses and Jacobians, so their impulses stay zero.
//!
//! Bodies that cannot move (static ones, and kinematic ones, whose velocity no impulse
//! changes) may appear in several lanes of a bundle; their velocities are gathered but
//! never scattered.

use super::body_state::{BodyState, BodyStates};
use super::constraint::{Constraint, ConstraintPoint, Constraints, COLOURS};
use super::lanes::{field, mask, transpose_rows, BodyLanes, Lf, Slots, LANES};
use super::solver::{solve_constraint, warm_start_constraint, StepTuning};

/// One point of eight constraints, each field one lane per constraint (the fields of
/// [`ConstraintPoint`] the passes read and write).
#[derive(Clone, Copy, Debug, Default)]
struct PointLanes {
    normal_x: Lf,
    normal_y: Lf,
    anchor_a_x: Lf,
    anchor_a_y: Lf,
    anchor_b_x: Lf,
    anchor_b_y: Lf,
    base_separation: Lf,
    /// The old overlap the solver tolerates this step: `start_overlap` when `deep`.
    tolerated: Lf,
    normal_mass: Lf,
    tangent_mass: Lf,
    cross_na: Lf,
    cross_nb: Lf,
    cross_ta: Lf,
    cross_tb: Lf,
    normal_impulse: Lf,
    tangent_impulse: Lf,
    max_normal_impulse: Lf,
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
    masses: Masses,
    /// Whether each lane's body may be written back (it can move).
    movable_a: [bool; LANES],
    movable_b: [bool; LANES],
    friction: Lf,
    point: [PointLanes; 2],
}

/// The bodies' inverse masses and inertias, one lane per constraint.
#[derive(Clone, Copy, Debug, Default)]
struct Masses {
    inv_mass_a: Lf,
    inv_inertia_a: Lf,
    inv_mass_b: Lf,
    inv_inertia_b: Lf,
}

/// One colour's work: its bundles and its constraints solved one at a time.
#[derive(Clone, Copy, Debug, Default)]
struct ColourRun {
    bundles: (u32, u32),
    singles: (u32, u32),
}

/// The bundles of one step (scratch, reused between steps).
#[derive(Clone, Debug, Default)]
pub(crate) struct WideContacts {
    bundles: Vec<Bundle>,
    /// Indices into [`Constraints::list`] of the constraints solved one at a time.
    singles: Vec<u32>,
    runs: Vec<ColourRun>,
    /// A colour's constraints by point count while it is bundled.
    two_points: Vec<u32>,
    one_point: Vec<u32>,
}

/// The relative speed along (dx, dy) of B's anchor point against A's, from the angular
/// Jacobians (`constraint::relative_speed`, lane by lane, same association).
#[inline]
fn relative_speed(a: &BodyLanes, b: &BodyLanes, dx: Lf, dy: Lf, cross_a: Lf, cross_b: Lf) -> Lf {
    (b.vx - a.vx) * dx + (b.vy - a.vy) * dy + b.w * cross_b - a.w * cross_a
}

/// An impulse of `magnitude` along (dx, dy): −impulse to A, +impulse to B
/// (`constraint::apply_impulse_along`, lane by lane).
#[inline]
#[allow(clippy::too_many_arguments)] // the lanes of one Jacobian, as the scalar function takes them
fn apply_impulse_along(
    m: &Masses,
    a: &mut BodyLanes,
    b: &mut BodyLanes,
    dx: Lf,
    dy: Lf,
    cross_a: Lf,
    cross_b: Lf,
    magnitude: Lf,
) {
    let (ix, iy) = (magnitude * dx, magnitude * dy);
    a.vx -= m.inv_mass_a * ix;
    a.vy -= m.inv_mass_a * iy;
    a.w -= m.inv_inertia_a * cross_a * magnitude;
    b.vx += m.inv_mass_b * ix;
    b.vy += m.inv_mass_b * iy;
    b.w += m.inv_inertia_b * cross_b * magnitude;
}

impl WideContacts {
    /// Bundles the step's constraints (in colour order, `constraints.colour_starts`) with
    /// the bodies' masses from `states`.
    pub fn build(&mut self, constraints: &Constraints, states: &BodyStates) {
        let WideContacts {
            bundles,
            singles,
            runs,
            two_points,
            one_point,
        } = self;
        bundles.clear();
        singles.clear();
        runs.clear();
        let starts = &constraints.colour_starts;
        for colour in 0..starts.len().saturating_sub(1) {
            let (start, end) = (starts[colour], starts[colour + 1]);
            if start == end {
                continue;
            }
            let (bundles_from, singles_from) = (bundles.len() as u32, singles.len() as u32);
            if colour + 1 == COLOURS as usize {
                // The last colour may share bodies: one at a time.
                singles.extend(start..end);
            } else {
                two_points.clear();
                one_point.clear();
                for index in start..end {
                    match constraints.list[index as usize].count {
                        1 => one_point.push(index),
                        2 => two_points.push(index),
                        _ => singles.push(index),
                    }
                }
                for run in [&*two_points, &*one_point] {
                    for eight in run.chunks(LANES) {
                        bundles.push(bundle_of(eight, constraints, &states.states));
                    }
                }
            }
            runs.push(ColourRun {
                bundles: (bundles_from, bundles.len() as u32),
                singles: (singles_from, singles.len() as u32),
            });
        }
    }

    /// Applies the accumulated impulses of every constraint.
    pub fn warm_start(&mut self, states: &mut BodyStates, constraints: &Constraints) {
        let states = &mut states.states[..];
        for run in &self.runs {
            for bundle in &self.bundles[run.bundles.0 as usize..run.bundles.1 as usize] {
                warm_start_bundle(states, bundle);
            }
            for &index in &self.singles[run.singles.0 as usize..run.singles.1 as usize] {
                let c = &constraints.list[index as usize];
                warm_start_constraint(states, c, constraints.points_of(c));
            }
        }
    }

    /// One pass over every constraint: normal impulses (with the soft position bias when
    /// `use_bias`), then friction.
    pub fn solve(&mut self, states: &mut BodyStates, constraints: &mut Constraints, t: &StepTuning, use_bias: bool) {
        let states = &mut states.states[..];
        for run in &self.runs {
            for bundle in &mut self.bundles[run.bundles.0 as usize..run.bundles.1 as usize] {
                solve_bundle(states, bundle, t, use_bias);
            }
            for &index in &self.singles[run.singles.0 as usize..run.singles.1 as usize] {
                let c = constraints.list[index as usize];
                let points = &mut constraints.points[c.first as usize..(c.first + c.count) as usize];
                solve_constraint(states, &c, points, t, use_bias);
            }
        }
    }

    /// Writes the bundles' impulses back into their constraints' points (the single
    /// constraints were solved in place).
    pub fn write_back(&self, constraints: &mut Constraints) {
        for bundle in &self.bundles {
            for lane in 0..bundle.lanes as usize {
                let c = constraints.list[bundle.constraint[lane] as usize];
                let points = &mut constraints.points[c.first as usize..(c.first + c.count) as usize];
                for (p, lanes) in points.iter_mut().zip(&bundle.point) {
                    p.normal_impulse = lanes.normal_impulse.as_array()[lane];
                    p.tangent_impulse = lanes.tangent_impulse.as_array()[lane];
                    p.max_normal_impulse = lanes.max_normal_impulse.as_array()[lane];
                }
            }
        }
    }
}

/// A lane's point that never pushes: any unit normal, zero masses and Jacobians, so its
/// impulses stay zero (an unused lane's, a one-point constraint's second point).
const INERT_POINT: ConstraintPoint = ConstraintPoint {
    normal: crate::math::Vec2::X,
    anchor_a: crate::math::Vec2::ZERO,
    anchor_b: crate::math::Vec2::ZERO,
    base_separation: 1.0,
    normal_mass: 0.0,
    tangent_mass: 0.0,
    cross_na: 0.0,
    cross_nb: 0.0,
    cross_ta: 0.0,
    cross_tb: 0.0,
    normal_impulse: 0.0,
    tangent_impulse: 0.0,
    start_overlap: 0.0,
    deep: false,
    slipped: false,
    max_normal_impulse: 0.0,
    relative_velocity: 0.0,
    velocity_normal_impulse: 0.0,
    stick_anchor_a: crate::math::Vec2::ZERO,
    stick_anchor_b: crate::math::Vec2::ZERO,
    stick_gap: crate::math::Vec2::ZERO,
};

/// The bundle of up to eight constraints `indices` (each of one or two points).
///
/// The lanes are read through references to the constraints' points: with the points
/// copied into a local array first (and that array copied again per field by
/// `array::map`), building the bundles cost a third of what solving them did on the
/// 5050-box pyramid, most of it in `memcpy`.
fn bundle_of(indices: &[u32], constraints: &Constraints, states: &[BodyState]) -> Bundle {
    let mut bundle = Bundle {
        lanes: indices.len() as u8,
        ..Bundle::default()
    };
    // Per field, per lane: what the lanes are made from.
    let mut inv_mass_a = [0.0; LANES];
    let mut inv_inertia_a = [0.0; LANES];
    let mut inv_mass_b = [0.0; LANES];
    let mut inv_inertia_b = [0.0; LANES];
    let mut friction = [0.0; LANES];
    let mut point: [[&ConstraintPoint; LANES]; 2] = [[&INERT_POINT; LANES]; 2];
    let first: &Constraint = &constraints.list[indices[0] as usize];
    let (mut slots_a, mut slots_b) = ([0; LANES], [0; LANES]);
    for lane in 0..LANES {
        let Some(&index) = indices.get(lane) else {
            // An unused lane: lane 0's bodies, inert points, never scattered.
            slots_a[lane] = first.a;
            slots_b[lane] = first.b;
            continue;
        };
        let c = &constraints.list[index as usize];
        let (sa, sb) = (&states[c.a as usize], &states[c.b as usize]);
        bundle.constraint[lane] = index;
        slots_a[lane] = c.a;
        slots_b[lane] = c.b;
        bundle.movable_a[lane] = sa.inv_mass > 0.0 || sa.inv_inertia > 0.0;
        bundle.movable_b[lane] = sb.inv_mass > 0.0 || sb.inv_inertia > 0.0;
        inv_mass_a[lane] = sa.inv_mass;
        inv_inertia_a[lane] = sa.inv_inertia;
        inv_mass_b[lane] = sb.inv_mass;
        inv_inertia_b[lane] = sb.inv_inertia;
        friction[lane] = c.friction;
        let points = constraints.points_of(c);
        bundle.points = bundle.points.max(points.len() as u8);
        for (k, slot) in point.iter_mut().enumerate() {
            if let Some(p) = points.get(k) {
                slot[lane] = p;
            }
        }
    }
    (bundle.a, bundle.b) = (Slots::new(slots_a), Slots::new(slots_b));
    bundle.masses = Masses {
        inv_mass_a: Lf::new(inv_mass_a),
        inv_inertia_a: Lf::new(inv_inertia_a),
        inv_mass_b: Lf::new(inv_mass_b),
        inv_inertia_b: Lf::new(inv_inertia_b),
    };
    bundle.friction = Lf::new(friction);
    for (lanes, points) in bundle.point.iter_mut().zip(&point) {
        // Rows 0 and 2 of each point whole (`ConstraintPoint::rows`), the rest by field.
        let [normal_x, normal_y, anchor_a_x, anchor_a_y, anchor_b_x, anchor_b_y, base_separation, start_overlap] =
            transpose_rows(points.map(|p| p.rows()[0]));
        let [normal_mass, tangent_mass, cross_na, cross_nb, cross_ta, cross_tb, max_normal_impulse, _] =
            transpose_rows(points.map(|p| p.rows()[2]));
        *lanes = PointLanes {
            normal_x,
            normal_y,
            anchor_a_x,
            anchor_a_y,
            anchor_b_x,
            anchor_b_y,
            base_separation,
            // `if p.deep { p.start_overlap } else { 0.0 }`: the mask keeps the number's
            // bits or makes +0.
            tolerated: mask(points.map(|p| p.deep)) & start_overlap,
            normal_mass,
            tangent_mass,
            cross_na,
            cross_nb,
            cross_ta,
            cross_tb,
            normal_impulse: field(points, |p| p.normal_impulse),
            tangent_impulse: field(points, |p| p.tangent_impulse),
            max_normal_impulse,
        };
    }
    bundle
}

/// `solver::warm_start_constraint`, eight constraints at once.
#[inline]
fn warm_start_bundle(states: &mut [BodyState], bundle: &Bundle) {
    let mut a = BodyLanes::gather(states, &bundle.a);
    let mut b = BodyLanes::gather(states, &bundle.b);
    let m = &bundle.masses;
    for p in &bundle.point[..bundle.points as usize] {
        let (nx, ny) = (p.normal_x, p.normal_y);
        apply_impulse_along(m, &mut a, &mut b, nx, ny, p.cross_na, p.cross_nb, p.normal_impulse);
        apply_impulse_along(m, &mut a, &mut b, ny, -nx, p.cross_ta, p.cross_tb, p.tangent_impulse);
    }
    let lanes = bundle.lanes as usize;
    a.scatter_velocity(states, &bundle.a, &bundle.movable_a, lanes);
    b.scatter_velocity(states, &bundle.b, &bundle.movable_b, lanes);
}

/// `solver::solve_constraint`, eight constraints at once: the same expressions lane by
/// lane, the branches as selects.
#[inline]
fn solve_bundle(states: &mut [BodyState], bundle: &mut Bundle, t: &StepTuning, use_bias: bool) {
    let mut a = BodyLanes::gather(states, &bundle.a);
    let mut b = BodyLanes::gather(states, &bundle.b);
    let zero = Lf::splat(0.0);
    let one = Lf::splat(1.0);
    let inv_h = Lf::splat(t.inv_h);
    let slop = Lf::splat(t.slop);
    let (bias_rate, soft_mass, soft_impulse) = (
        Lf::splat(t.softness.bias_rate),
        Lf::splat(t.softness.mass_scale),
        Lf::splat(t.softness.impulse_scale),
    );
    let max_push = Lf::splat(-t.max_push_speed);
    let count = bundle.points as usize;
    let (m, friction) = (bundle.masses, bundle.friction);
    let points = &mut bundle.point[..count];
    // The separations now, from the deltas (`ConstraintPoint::current_separation`), all
    // before the first impulse: they read the bodies' deltas and turns, which no impulse
    // changes, so the chain of impulses below keeps only the velocities in registers
    // (with the deltas live through it, the loop spilled to the stack).
    let mut separations = [zero; 2];
    for (p, separation) in points.iter().zip(&mut separations) {
        let pax = a.dpx + (a.cos * p.anchor_a_x - a.sin * p.anchor_a_y);
        let pay = a.dpy + (a.sin * p.anchor_a_x + a.cos * p.anchor_a_y);
        let pbx = b.dpx + (b.cos * p.anchor_b_x - b.sin * p.anchor_b_y);
        let pby = b.dpy + (b.sin * p.anchor_b_x + b.cos * p.anchor_b_y);
        *separation = (pbx - pax) * p.normal_x + (pby - pay) * p.normal_y + p.base_separation;
    }
    for (p, &separation) in points.iter_mut().zip(&separations) {
        let s = separation + slop + p.tolerated;
        // Apart or within the slop: approach by s; else the soft bias (or none).
        let apart = s.simd_gt(zero);
        let (bias, mass_scale, impulse_scale) = if use_bias {
            (
                apart.select(s * inv_h, (bias_rate * s).max(max_push)),
                apart.select(one, soft_mass),
                apart.select(zero, soft_impulse),
            )
        } else {
            (apart.select(s * inv_h, zero), one, zero)
        };
        let vn = relative_speed(&a, &b, p.normal_x, p.normal_y, p.cross_na, p.cross_nb);
        let impulse = -p.normal_mass * mass_scale * (vn + bias) - impulse_scale * p.normal_impulse;
        let total = (p.normal_impulse + impulse).max(zero);
        // Never spread a non-finite value: such a lane keeps its impulse, applies none.
        let finite = total.is_finite();
        let applied = finite.select(total - p.normal_impulse, zero);
        p.normal_impulse = finite.select(total, p.normal_impulse);
        p.max_normal_impulse = p.max_normal_impulse.max(applied);
        apply_impulse_along(
            &m, &mut a, &mut b, p.normal_x, p.normal_y, p.cross_na, p.cross_nb, applied,
        );
    }
    for p in points.iter_mut() {
        let (tx, ty) = (p.normal_y, -p.normal_x);
        let vt = relative_speed(&a, &b, tx, ty, p.cross_ta, p.cross_tb);
        let limit = friction * p.normal_impulse;
        let total = (p.tangent_impulse - p.tangent_mass * vt).max(-limit).min(limit);
        let finite = total.is_finite();
        let applied = finite.select(total - p.tangent_impulse, zero);
        p.tangent_impulse = finite.select(total, p.tangent_impulse);
        apply_impulse_along(&m, &mut a, &mut b, tx, ty, p.cross_ta, p.cross_tb, applied);
    }
    let lanes = bundle.lanes as usize;
    a.scatter_velocity(states, &bundle.a, &bundle.movable_a, lanes);
    b.scatter_velocity(states, &bundle.b, &bundle.movable_b, lanes);
}

#[cfg(test)]
mod tests;
