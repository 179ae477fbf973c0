//! The position-based solver's passes (`xpbd.rs`), four constraints at once.
//!
//! Each pass of XPBD (Müller et al. 2020) goes through the constraints one after
//! another, and each constraint is a short chain of dependent operations on its two
//! bodies. The constraints of one colour (`constraint.rs`, `ColourScratch::place`) share
//! no body that can move, so four of them can go through the same chain side by side,
//! one per lane of a SIMD register: what `solver_wide.rs` does for the impulse solver,
//! after Catto's wide contact solver in Box2D v3 ("Solver2D", 2024).
//!
//! ```text
//! build (once a step)   per colour: its constraints of at most two points whose bodies
//!                       either move or are fixed (below), in bundles of four; the rest,
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
use super::xpbd::{hold_constraint, project_constraint, settle_constraint, SubstepStart, VelocityPass};
use wide::f32x4;

/// Lanes per bundle.
const LANES: usize = 4;

/// Four numbers, one per lane; as a mask, all bits set in the lanes where it holds.
type F4 = f32x4;

/// `BodyState::turn_by_correction`'s limit of the fast renormalisation (rad).
const SMALL_RAD: f32 = 0.02;

/// One point of four constraints, each field one lane per constraint: the fields of
/// [`ConstraintPoint`] the passes read, and those they write (written back at the end).
#[derive(Clone, Copy, Debug, Default)]
struct PointLanes {
    /// The lane has this point (a single-point constraint's second point, and unused
    /// lanes, do nothing).
    live: F4,
    normal_x: F4,
    normal_y: F4,
    anchor_a_x: F4,
    anchor_a_y: F4,
    anchor_b_x: F4,
    anchor_b_y: F4,
    base_separation: F4,
    start_overlap: F4,
    deep: F4,
    stick_anchor_a_x: F4,
    stick_anchor_a_y: F4,
    stick_anchor_b_x: F4,
    stick_anchor_b_y: F4,
    stick_gap_x: F4,
    stick_gap_y: F4,
    normal_impulse: F4,
    tangent_impulse: F4,
    velocity_normal_impulse: F4,
    relative_velocity: F4,
    slipped: F4,
}

/// Four constraints of one colour, each with one or two points.
#[derive(Clone, Copy, Debug, Default)]
struct Bundle {
    /// The constraints' indices in [`Constraints::list`] (for the write-back) …
    constraint: [u32; LANES],
    /// … their bodies' slots (an unused lane repeats lane 0's, never scattered) …
    a: [u32; LANES],
    b: [u32; LANES],
    /// … how many lanes are used, and how many points the fullest lane has.
    lanes: u8,
    points: u8,
    /// Whether each lane's body is written back (it can move; else it is fixed).
    movable_a: [bool; LANES],
    movable_b: [bool; LANES],
    inv_mass_a: F4,
    inv_inertia_a: F4,
    inv_mass_b: F4,
    inv_inertia_b: F4,
    /// Masks: gravity applies to the body (`moves_by_forces`).
    forces_a: F4,
    forces_b: F4,
    friction: F4,
    restitution: F4,
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
    /// A colour's bundled constraints by point count while it is built.
    two_points: Vec<u32>,
    one_point: Vec<u32>,
}

/// A mask from a flag per lane.
#[inline]
fn mask(flags: [bool; LANES]) -> F4 {
    F4::new(flags.map(|f| if f { f32::from_bits(u32::MAX) } else { 0.0 }))
}

/// `x.max(0.0)` as Rust compiles it on x86-64 (`maxss` of 0 and x, then NaN to 0):
/// x where x ≥ 0 (so −0 stays −0), else 0.
#[inline]
fn max_zero(x: F4) -> F4 {
    x.simd_ge(F4::ZERO).select(x, F4::ZERO)
}

/// `x.clamp(lo, hi)` as `f32::clamp` computes it: lo if x < lo, then hi if above hi
/// (a NaN stays NaN).
#[inline]
fn clamp(x: F4, lo: F4, hi: F4) -> F4 {
    let x = x.simd_lt(lo).select(lo, x);
    x.simd_gt(hi).select(hi, x)
}

/// `Rot::apply` of the lanes' rotations to (x, y).
#[inline]
fn rotate(cos: F4, sin: F4, x: F4, y: F4) -> (F4, F4) {
    (cos * x - sin * y, sin * x + cos * y)
}

/// Four bodies in lanes: velocities and the step's deltas.
#[derive(Clone, Copy)]
struct BodyLanes {
    vx: F4,
    vy: F4,
    w: F4,
    dpx: F4,
    dpy: F4,
    cos: F4,
    sin: F4,
    dtheta: F4,
}

impl BodyLanes {
    #[inline]
    fn gather(states: &[BodyState], slots: &[u32; LANES]) -> BodyLanes {
        let s = slots.map(|slot| states[slot as usize]);
        let lanes = |f: fn(&BodyState) -> f32| F4::new([f(&s[0]), f(&s[1]), f(&s[2]), f(&s[3])]);
        BodyLanes {
            vx: lanes(|s| s.v.x),
            vy: lanes(|s| s.v.y),
            w: lanes(|s| s.w),
            dpx: lanes(|s| s.dp.x),
            dpy: lanes(|s| s.dp.y),
            cos: lanes(|s| s.dq.cos),
            sin: lanes(|s| s.dq.sin),
            dtheta: lanes(|s| s.dtheta),
        }
    }

    /// Writes the deltas of the first `lanes` lanes whose body can move.
    #[inline]
    fn scatter_pose(&self, states: &mut [BodyState], slots: &[u32; LANES], movable: &[bool; LANES], lanes: usize) {
        let (dpx, dpy) = (self.dpx.to_array(), self.dpy.to_array());
        let (cos, sin, dtheta) = (self.cos.to_array(), self.sin.to_array(), self.dtheta.to_array());
        for k in 0..lanes {
            if movable[k] {
                let s = &mut states[slots[k] as usize];
                s.dp.x = dpx[k];
                s.dp.y = dpy[k];
                s.dq.cos = cos[k];
                s.dq.sin = sin[k];
                s.dtheta = dtheta[k];
            }
        }
    }

    /// Writes the velocities of the first `lanes` lanes whose body can move.
    #[inline]
    fn scatter_velocity(&self, states: &mut [BodyState], slots: &[u32; LANES], movable: &[bool; LANES], lanes: usize) {
        let (vx, vy, w) = (self.vx.to_array(), self.vy.to_array(), self.w.to_array());
        for k in 0..lanes {
            if movable[k] {
                let s = &mut states[slots[k] as usize];
                s.v.x = vx[k];
                s.v.y = vy[k];
                s.w = w[k];
            }
        }
    }

    /// The anchor (x, y) turned with the body (`dq.apply`), and the point it is at
    /// relative to the body's start (`dp + dq.apply`).
    #[inline]
    fn anchor(&self, x: F4, y: F4) -> ((F4, F4), (F4, F4)) {
        let (rx, ry) = rotate(self.cos, self.sin, x, y);
        ((rx, ry), (self.dpx + rx, self.dpy + ry))
    }

    /// `BodyState::turn_by_correction` in the lanes of `apply`: the Newton
    /// renormalisation below [`SMALL_RAD`], the exact one above it and for a NaN.
    #[inline]
    fn turn_by_correction(&mut self, delta_angle: F4, apply: F4) {
        let c = self.cos - delta_angle * self.sin;
        let s = self.sin + delta_angle * self.cos;
        let length_sq = c * c + s * s;
        let small = delta_angle.abs().simd_lt(F4::splat(SMALL_RAD));
        let newton = F4::splat(0.5) * (F4::splat(3.0) - length_sq);
        let exact = F4::ONE / length_sq.sqrt();
        let inv_len = small.select(newton, exact);
        self.cos = apply.select(c * inv_len, self.cos);
        self.sin = apply.select(s * inv_len, self.sin);
        self.dtheta = apply.select(self.dtheta + delta_angle, self.dtheta);
    }
}

/// The lanes' inverse masses.
#[derive(Clone, Copy)]
struct Masses {
    inv_mass_a: F4,
    inv_inertia_a: F4,
    inv_mass_b: F4,
    inv_inertia_b: F4,
}

impl Masses {
    /// `constraint::inverse_effective_mass` along (dx, dy) at the turned anchors.
    #[inline]
    fn inverse_effective_mass(&self, r_a: (F4, F4), r_b: (F4, F4), dx: F4, dy: F4) -> F4 {
        let ra = r_a.0 * dy - r_a.1 * dx;
        let rb = r_b.0 * dy - r_b.1 * dx;
        self.inv_mass_a + self.inv_mass_b + self.inv_inertia_a * ra * ra + self.inv_inertia_b * rb * rb
    }

    /// `xpbd::apply_correction` of (cx, cy) in the lanes of `apply`.
    #[inline]
    fn apply_correction(
        &self,
        a: &mut BodyLanes,
        b: &mut BodyLanes,
        (r_a, r_b): ((F4, F4), (F4, F4)),
        (cx, cy): (F4, F4),
        apply: F4,
    ) {
        a.dpx = apply.select(a.dpx - self.inv_mass_a * cx, a.dpx);
        a.dpy = apply.select(a.dpy - self.inv_mass_a * cy, a.dpy);
        a.turn_by_correction(-self.inv_inertia_a * (r_a.0 * cy - r_a.1 * cx), apply);
        b.dpx = apply.select(b.dpx + self.inv_mass_b * cx, b.dpx);
        b.dpy = apply.select(b.dpy + self.inv_mass_b * cy, b.dpy);
        b.turn_by_correction(self.inv_inertia_b * (r_b.0 * cy - r_b.1 * cx), apply);
    }

    /// `constraint::apply_impulse` of (ix, iy) in the lanes of `apply`.
    #[inline]
    fn apply_impulse(
        &self,
        a: &mut BodyLanes,
        b: &mut BodyLanes,
        (r_a, r_b): ((F4, F4), (F4, F4)),
        (ix, iy): (F4, F4),
        apply: F4,
    ) {
        a.vx = apply.select(a.vx - self.inv_mass_a * ix, a.vx);
        a.vy = apply.select(a.vy - self.inv_mass_a * iy, a.vy);
        a.w = apply.select(a.w - self.inv_inertia_a * (r_a.0 * iy - r_a.1 * ix), a.w);
        b.vx = apply.select(b.vx + self.inv_mass_b * ix, b.vx);
        b.vy = apply.select(b.vy + self.inv_mass_b * iy, b.vy);
        b.w = apply.select(b.w + self.inv_inertia_b * (r_b.0 * iy - r_b.1 * ix), b.w);
    }
}

/// `constraint::relative_velocity` of B's anchor point against A's.
#[inline]
fn relative_velocity(a: &BodyLanes, b: &BodyLanes, r_a: (F4, F4), r_b: (F4, F4)) -> (F4, F4) {
    (
        (b.vx + -b.w * r_b.1) - (a.vx + -a.w * r_a.1),
        (b.vy + b.w * r_b.0) - (a.vy + a.w * r_a.0),
    )
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
            two_points,
            one_point,
        } = self;
        bundles.clear();
        singles.clear();
        runs.clear();
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
                two_points.clear();
                one_point.clear();
                for index in start..end {
                    let c = &constraints.list[index as usize];
                    let bodies_fit = fits(&states[c.a as usize]) && fits(&states[c.b as usize]);
                    match c.count {
                        1 if bodies_fit => one_point.push(index),
                        2 if bodies_fit => two_points.push(index),
                        _ => singles.push(index),
                    }
                }
                for run in [&*two_points, &*one_point] {
                    for four in run.chunks(LANES) {
                        bundles.push(bundle_of(four, constraints, states));
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
    /// first when `start` is given).
    pub fn positions(
        &mut self,
        states: &mut BodyStates,
        constraints: &mut Constraints,
        slop: f32,
        shed_so_far: f32,
        start: Option<SubstepStart>,
    ) {
        self.each(
            states,
            constraints,
            |states, bundle| project_bundle(states, bundle, slop, shed_so_far, start),
            |states, c, points| project_constraint(states, c, points, slop, shed_so_far, start),
        );
    }

    /// `xpbd::solve_static_friction`: one pass of static friction.
    pub fn static_friction(&mut self, states: &mut BodyStates, constraints: &mut Constraints) {
        self.each(states, constraints, hold_bundle, hold_constraint);
    }

    /// `xpbd::solve_velocities`: one velocity pass, with dynamic friction when
    /// `with_friction`.
    pub fn velocities(
        &mut self,
        states: &mut BodyStates,
        constraints: &mut Constraints,
        settings: &VelocityPass,
        with_friction: bool,
    ) {
        self.each(
            states,
            constraints,
            |states, bundle| settle_bundle(states, bundle, settings, with_friction),
            |states, c, points| settle_constraint(states, c, points, settings, with_friction),
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

/// The bundle of up to four constraints `indices` (each of one or two points, its bodies
/// movable or fixed).
fn bundle_of(indices: &[u32], constraints: &Constraints, states: &[BodyState]) -> Bundle {
    let mut bundle = Bundle {
        lanes: indices.len() as u8,
        ..Bundle::default()
    };
    let mut inv_mass_a = [0.0; LANES];
    let mut inv_inertia_a = [0.0; LANES];
    let mut inv_mass_b = [0.0; LANES];
    let mut inv_inertia_b = [0.0; LANES];
    let mut forces_a = [false; LANES];
    let mut forces_b = [false; LANES];
    let mut friction = [0.0; LANES];
    let mut restitution = [0.0; LANES];
    // Per point slot, per lane: the point, if the lane has it.
    let mut point = [[None::<ConstraintPoint>; LANES]; 2];
    let first: &Constraint = &constraints.list[indices[0] as usize];
    for lane in 0..LANES {
        let Some(&index) = indices.get(lane) else {
            // An unused lane: lane 0's bodies, no points, never scattered.
            bundle.a[lane] = first.a;
            bundle.b[lane] = first.b;
            continue;
        };
        let c = &constraints.list[index as usize];
        let (sa, sb) = (&states[c.a as usize], &states[c.b as usize]);
        bundle.constraint[lane] = index;
        bundle.a[lane] = c.a;
        bundle.b[lane] = c.b;
        bundle.movable_a[lane] = is_movable(sa);
        bundle.movable_b[lane] = is_movable(sb);
        inv_mass_a[lane] = sa.inv_mass;
        inv_inertia_a[lane] = sa.inv_inertia;
        inv_mass_b[lane] = sb.inv_mass;
        inv_inertia_b[lane] = sb.inv_inertia;
        forces_a[lane] = sa.moves_by_forces;
        forces_b[lane] = sb.moves_by_forces;
        friction[lane] = c.friction;
        restitution[lane] = c.restitution;
        let points = constraints.points_of(c);
        bundle.points = bundle.points.max(points.len() as u8);
        for (k, slot) in point.iter_mut().enumerate() {
            slot[lane] = points.get(k).copied();
        }
    }
    bundle.inv_mass_a = F4::new(inv_mass_a);
    bundle.inv_inertia_a = F4::new(inv_inertia_a);
    bundle.inv_mass_b = F4::new(inv_mass_b);
    bundle.inv_inertia_b = F4::new(inv_inertia_b);
    bundle.forces_a = mask(forces_a);
    bundle.forces_b = mask(forces_b);
    bundle.friction = F4::new(friction);
    bundle.restitution = F4::new(restitution);
    for (lanes, points) in bundle.point.iter_mut().zip(&point) {
        // A missing point's lanes hold a default point; `live` keeps it from acting.
        let p = points.map(|p| p.unwrap_or_default());
        let f = |get: fn(&ConstraintPoint) -> f32| F4::new(p.map(|p| get(&p)));
        *lanes = PointLanes {
            live: mask(points.map(|p| p.is_some())),
            normal_x: f(|p| p.normal.x),
            normal_y: f(|p| p.normal.y),
            anchor_a_x: f(|p| p.anchor_a.x),
            anchor_a_y: f(|p| p.anchor_a.y),
            anchor_b_x: f(|p| p.anchor_b.x),
            anchor_b_y: f(|p| p.anchor_b.y),
            base_separation: f(|p| p.base_separation),
            start_overlap: f(|p| p.start_overlap),
            deep: mask(p.map(|p| p.deep)),
            stick_anchor_a_x: f(|p| p.stick_anchor_a.x),
            stick_anchor_a_y: f(|p| p.stick_anchor_a.y),
            stick_anchor_b_x: f(|p| p.stick_anchor_b.x),
            stick_anchor_b_y: f(|p| p.stick_anchor_b.y),
            stick_gap_x: f(|p| p.stick_gap.x),
            stick_gap_y: f(|p| p.stick_gap.y),
            normal_impulse: f(|p| p.normal_impulse),
            tangent_impulse: f(|p| p.tangent_impulse),
            velocity_normal_impulse: f(|p| p.velocity_normal_impulse),
            relative_velocity: f(|p| p.relative_velocity),
            slipped: mask(p.map(|p| p.slipped)),
        };
    }
    bundle
}

impl Bundle {
    #[inline]
    fn masses(&self) -> Masses {
        Masses {
            inv_mass_a: self.inv_mass_a,
            inv_inertia_a: self.inv_inertia_a,
            inv_mass_b: self.inv_mass_b,
            inv_inertia_b: self.inv_inertia_b,
        }
    }
}

/// `xpbd::project_constraint`, four constraints at once.
#[inline]
fn project_bundle(
    states: &mut [BodyState],
    bundle: &mut Bundle,
    slop: f32,
    shed_so_far: f32,
    start: Option<SubstepStart>,
) {
    let mut a = BodyLanes::gather(states, &bundle.a);
    let mut b = BodyLanes::gather(states, &bundle.b);
    let m = bundle.masses();
    let count = bundle.points as usize;
    if let Some(start) = start {
        begin_bundle(&a, &b, bundle, start);
    }
    let (slop, shed_so_far) = (F4::splat(slop), F4::splat(shed_so_far));
    for p in &mut bundle.point[..count] {
        let tolerated = p.deep.select(p.start_overlap, max_zero(p.start_overlap - shed_so_far));
        let (r_a, pa) = a.anchor(p.anchor_a_x, p.anchor_a_y);
        let (r_b, pb) = b.anchor(p.anchor_b_x, p.anchor_b_y);
        let (nx, ny) = (p.normal_x, p.normal_y);
        let separation = (pb.0 - pa.0) * nx + (pb.1 - pa.1) * ny + p.base_separation;
        let violation = separation + slop + tolerated;
        let w = m.inverse_effective_mass(r_a, r_b, nx, ny);
        let delta = -violation / w;
        // Skipped: apart or within the slop, no mass to move, or a non-finite
        // correction (never spread to the other body).
        let apply = p.live & violation.simd_lt(F4::ZERO) & w.simd_gt(F4::ZERO) & delta.is_finite();
        if !apply.any() {
            continue;
        }
        p.normal_impulse = apply.select(p.normal_impulse + delta, p.normal_impulse);
        m.apply_correction(&mut a, &mut b, (r_a, r_b), (delta * nx, delta * ny), apply);
    }
    let lanes = bundle.lanes as usize;
    a.scatter_pose(states, &bundle.a, &bundle.movable_a, lanes);
    b.scatter_pose(states, &bundle.b, &bundle.movable_b, lanes);
}

/// `SubstepStart::begin`, four constraints at once: the relative normal velocity before
/// gravity's share of the substep, and the substep's impulses from zero.
#[inline]
fn begin_bundle(a: &BodyLanes, b: &BodyLanes, bundle: &mut Bundle, start: SubstepStart) {
    let (gx, gy) = (F4::splat(start.gravity_dv.x), F4::splat(start.gravity_dv.y));
    let before = |s: &BodyLanes, forces: F4| BodyLanes {
        vx: forces.select(s.vx - gx, s.vx),
        vy: forces.select(s.vy - gy, s.vy),
        ..*s
    };
    let (a, b) = (before(a, bundle.forces_a), before(b, bundle.forces_b));
    let count = bundle.points as usize;
    for p in &mut bundle.point[..count] {
        let (r_a, _) = a.anchor(p.anchor_a_x, p.anchor_a_y);
        let (r_b, _) = b.anchor(p.anchor_b_x, p.anchor_b_y);
        let (vx, vy) = relative_velocity(&a, &b, r_a, r_b);
        p.relative_velocity = vx * p.normal_x + vy * p.normal_y;
        p.normal_impulse = F4::ZERO;
        p.tangent_impulse = F4::ZERO;
        p.velocity_normal_impulse = F4::ZERO;
    }
}

/// `xpbd::hold_constraint`, four constraints at once.
#[inline]
fn hold_bundle(states: &mut [BodyState], bundle: &mut Bundle) {
    let mut a = BodyLanes::gather(states, &bundle.a);
    let mut b = BodyLanes::gather(states, &bundle.b);
    let m = bundle.masses();
    let count = bundle.points as usize;
    let friction = bundle.friction;
    for p in &mut bundle.point[..count] {
        // A point that did not push this substep holds nothing (a NaN impulse goes on
        // to the NaN checks, as in the scalar pass).
        let pushed = p.live & !p.normal_impulse.simd_le(F4::ZERO);
        if !pushed.any() {
            continue;
        }
        let (r_a, _) = a.anchor(p.anchor_a_x, p.anchor_a_y);
        let (r_b, _) = b.anchor(p.anchor_b_x, p.anchor_b_y);
        // `ConstraintPoint::stick_drift`.
        let (_, stick_a) = a.anchor(p.stick_anchor_a_x, p.stick_anchor_a_y);
        let (_, stick_b) = b.anchor(p.stick_anchor_b_x, p.stick_anchor_b_y);
        let moved_b = (stick_b.0 - p.stick_anchor_b_x, stick_b.1 - p.stick_anchor_b_y);
        let moved_a = (stick_a.0 - p.stick_anchor_a_x, stick_a.1 - p.stick_anchor_a_y);
        let drift_x = p.stick_gap_x + moved_b.0 - moved_a.0;
        let drift_y = p.stick_gap_y + moved_b.1 - moved_a.1;
        let (tx, ty) = (p.normal_y, -p.normal_x);
        let along = drift_x * tx + drift_y * ty;
        let w_t = m.inverse_effective_mass(r_a, r_b, tx, ty);
        let cone = friction * p.normal_impulse;
        let active = pushed & along.simd_ne(F4::ZERO) & w_t.simd_gt(F4::ZERO) & !cone.is_nan();
        let wanted = p.tangent_impulse - along / w_t;
        let total = clamp(wanted, -cone, cone);
        // Clamped: it sticks again where it is next step.
        p.slipped = (active & total.simd_ne(wanted)) | p.slipped;
        let apply = active & total.is_finite();
        let delta_t = total - p.tangent_impulse;
        p.tangent_impulse = apply.select(total, p.tangent_impulse);
        m.apply_correction(&mut a, &mut b, (r_a, r_b), (delta_t * tx, delta_t * ty), apply);
    }
    let lanes = bundle.lanes as usize;
    a.scatter_pose(states, &bundle.a, &bundle.movable_a, lanes);
    b.scatter_pose(states, &bundle.b, &bundle.movable_b, lanes);
}

/// `xpbd::settle_constraint`, four constraints at once.
#[inline]
fn settle_bundle(states: &mut [BodyState], bundle: &mut Bundle, settings: &VelocityPass, with_friction: bool) {
    let mut a = BodyLanes::gather(states, &bundle.a);
    let mut b = BodyLanes::gather(states, &bundle.b);
    let m = bundle.masses();
    let count = bundle.points as usize;
    let (friction, restitution) = (bundle.friction, bundle.restitution);
    let threshold = -F4::splat(settings.restitution_threshold);
    let inv_h = F4::splat(settings.inv_h);
    for p in &mut bundle.point[..count] {
        // Pushed this substep: an equality; else touching (only may not approach) or
        // apart (skipped).
        let pushed = p.normal_impulse.simd_gt(F4::ZERO);
        let (r_a, pa) = a.anchor(p.anchor_a_x, p.anchor_a_y);
        let (r_b, pb) = b.anchor(p.anchor_b_x, p.anchor_b_y);
        let (nx, ny) = (p.normal_x, p.normal_y);
        let separation = (pb.0 - pa.0) * nx + (pb.1 - pa.1) * ny + p.base_separation;
        let acts = p.live & (pushed | !separation.simd_gt(F4::ZERO));
        if !acts.any() {
            continue;
        }
        let (vx, vy) = relative_velocity(&a, &b, r_a, r_b);
        let vn = vx * nx + vy * ny;
        let bounce = pushed & p.relative_velocity.simd_lt(threshold);
        let target = bounce.select(-restitution * p.relative_velocity, F4::ZERO);
        let w_n = m.inverse_effective_mass(r_a, r_b, nx, ny);
        let before = p.velocity_normal_impulse;
        let wanted = before + (target - vn) / w_n;
        let total = pushed.select(wanted, max_zero(wanted));
        let apply = acts & w_n.simd_gt(F4::ZERO) & total.is_finite();
        p.velocity_normal_impulse = apply.select(total, before);
        let impulse = total - before;
        m.apply_impulse(&mut a, &mut b, (r_a, r_b), (impulse * nx, impulse * ny), apply);
        if !with_friction {
            continue;
        }
        let (tx, ty) = (ny, -nx);
        let (vx, vy) = relative_velocity(&a, &b, r_a, r_b);
        let vt = vx * tx + vy * ty;
        let w_t = m.inverse_effective_mass(r_a, r_b, tx, ty);
        let cone = friction * (p.normal_impulse * inv_h + max_zero(p.velocity_normal_impulse));
        let limit = max_zero(cone - p.tangent_impulse.abs() * inv_h);
        let impulse = clamp(-vt / w_t, -limit, limit);
        let apply = acts & vt.simd_ne(F4::ZERO) & w_t.simd_gt(F4::ZERO) & impulse.is_finite();
        m.apply_impulse(&mut a, &mut b, (r_a, r_b), (impulse * tx, impulse * ty), apply);
    }
    let lanes = bundle.lanes as usize;
    a.scatter_velocity(states, &bundle.a, &bundle.movable_a, lanes);
    b.scatter_velocity(states, &bundle.b, &bundle.movable_b, lanes);
}

#[cfg(test)]
#[path = "xpbd_wide_tests.rs"]
mod tests;
