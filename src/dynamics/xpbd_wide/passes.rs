//! The position-based passes on one bundle of eight constraints (`xpbd_wide.rs`): the
//! scalar passes' arithmetic (`xpbd.rs`) lane by lane, in the same order and
//! association, with each branch a mask and each skipped update the old value (a
//! select, or the subtraction of +0, which leaves a number as it is).

use super::super::body_state::BodyState;
use super::super::lanes::{BodyLanes, Lf};
use super::super::xpbd::{PositionPass, SubstepStart, VelocityPass, STACKED_COS};
use super::{Bundle, PointLanes, SMALL_RAD};

/// `x.max(0.0)` as Rust compiles it on x86-64 (`maxss` of 0 and x, then NaN to 0):
/// x where x ≥ 0 (so −0 stays −0), else 0. Elsewhere a −0 may come out +0; none reaches
/// the passes' maxima (their arguments are sums that start from +0 or differences of
/// unequal numbers), and the world's hashes are what say so.
#[inline]
fn max_zero(x: Lf) -> Lf {
    x.simd_ge(Lf::ZERO).select(x, Lf::ZERO)
}

/// `x.clamp(lo, hi)` as `f32::clamp` computes it: lo if x < lo, then hi if above hi
/// (a NaN stays NaN).
#[inline]
fn clamp(x: Lf, lo: Lf, hi: Lf) -> Lf {
    let x = x.simd_lt(lo).select(lo, x);
    x.simd_gt(hi).select(hi, x)
}

/// `x − y` in the lanes of `apply`, x in the others, without a select: a lane that
/// applies nothing subtracts +0, which leaves every number as it is (−0 − +0 is −0;
/// adding a zero would not: −0 + +0 is +0).
#[inline]
fn minus_where(x: Lf, y: Lf, apply: Lf) -> Lf {
    x - (apply & y)
}

/// `x + y` in the lanes of `apply`, x in the others, as x − (−y): IEEE 754 defines
/// x − z as x + (−z), so it is the same number, and a lane that applies nothing
/// subtracts +0 ([`minus_where`]). (Only a NaN y would come out otherwise, its sign
/// flipped; the passes apply finite corrections.)
#[inline]
fn plus_where(x: Lf, y: Lf, apply: Lf) -> Lf {
    x - (apply & -y)
}

/// `Rot::apply` of the lanes' rotations to (x, y).
#[inline]
fn rotate(cos: Lf, sin: Lf, x: Lf, y: Lf) -> (Lf, Lf) {
    (cos * x - sin * y, sin * x + cos * y)
}

/// The position-based passes' arithmetic on eight bodies.
impl BodyLanes {
    /// The anchor (x, y) turned with the body (`dq.apply`), and the point it is at
    /// relative to the body's start (`dp + dq.apply`).
    #[inline]
    fn anchor(&self, x: Lf, y: Lf) -> ((Lf, Lf), (Lf, Lf)) {
        let (rx, ry) = rotate(self.cos, self.sin, x, y);
        ((rx, ry), (self.dpx + rx, self.dpy + ry))
    }

    /// `BodyState::turn_by_correction` in the lanes of `apply`: the Newton
    /// renormalisation below [`SMALL_RAD`], the exact one above it and for a NaN.
    #[inline]
    fn turn_by_correction(&mut self, delta_angle: Lf, apply: Lf) {
        let c = self.cos - delta_angle * self.sin;
        let s = self.sin + delta_angle * self.cos;
        let length_sq = c * c + s * s;
        let small = delta_angle.abs().simd_lt(Lf::splat(SMALL_RAD));
        let newton = Lf::splat(0.5) * (Lf::splat(3.0) - length_sq);
        // The square root and the division only when a lane that turns needs them
        // (they are long in latency, and almost every correction is small).
        let inv_len = if (small | !apply).all() {
            newton
        } else {
            small.select(newton, Lf::ONE / length_sq.sqrt())
        };
        self.cos = apply.select(c * inv_len, self.cos);
        self.sin = apply.select(s * inv_len, self.sin);
        self.dtheta = plus_where(self.dtheta, delta_angle, apply);
    }
}

/// The lanes' inverse masses.
#[derive(Clone, Copy)]
struct Masses {
    inv_mass_a: Lf,
    inv_inertia_a: Lf,
    inv_mass_b: Lf,
    inv_inertia_b: Lf,
}

impl Masses {
    /// `constraint::inverse_effective_mass` along (dx, dy) at the turned anchors.
    #[inline]
    fn inverse_effective_mass(&self, r_a: (Lf, Lf), r_b: (Lf, Lf), dx: Lf, dy: Lf) -> Lf {
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
        (r_a, r_b): ((Lf, Lf), (Lf, Lf)),
        (cx, cy): (Lf, Lf),
        apply: Lf,
    ) {
        a.dpx = minus_where(a.dpx, self.inv_mass_a * cx, apply);
        a.dpy = minus_where(a.dpy, self.inv_mass_a * cy, apply);
        a.turn_by_correction(-self.inv_inertia_a * (r_a.0 * cy - r_a.1 * cx), apply);
        b.dpx = plus_where(b.dpx, self.inv_mass_b * cx, apply);
        b.dpy = plus_where(b.dpy, self.inv_mass_b * cy, apply);
        b.turn_by_correction(self.inv_inertia_b * (r_b.0 * cy - r_b.1 * cx), apply);
    }

    /// `constraint::apply_impulse` of (ix, iy) in the lanes of `apply`.
    #[inline]
    fn apply_impulse(
        &self,
        a: &mut BodyLanes,
        b: &mut BodyLanes,
        (r_a, r_b): ((Lf, Lf), (Lf, Lf)),
        (ix, iy): (Lf, Lf),
        apply: Lf,
    ) {
        a.vx = minus_where(a.vx, self.inv_mass_a * ix, apply);
        a.vy = minus_where(a.vy, self.inv_mass_a * iy, apply);
        a.w = minus_where(a.w, self.inv_inertia_a * (r_a.0 * iy - r_a.1 * ix), apply);
        b.vx = plus_where(b.vx, self.inv_mass_b * ix, apply);
        b.vy = plus_where(b.vy, self.inv_mass_b * iy, apply);
        b.w = plus_where(b.w, self.inv_inertia_b * (r_b.0 * iy - r_b.1 * ix), apply);
    }
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

/// `constraint::relative_velocity` of B's anchor point against A's.
#[inline]
fn relative_velocity(a: &BodyLanes, b: &BodyLanes, r_a: (Lf, Lf), r_b: (Lf, Lf)) -> (Lf, Lf) {
    (
        (b.vx + -b.w * r_b.1) - (a.vx + -a.w * r_a.1),
        (b.vy + b.w * r_b.0) - (a.vy + a.w * r_a.0),
    )
}

/// `xpbd::project_constraint`, eight constraints at once (held by static friction after,
/// when `pass.hold`: the bodies gathered and scattered once for both).
#[inline]
pub(super) fn project_bundle(states: &mut [BodyState], bundle: &mut Bundle, pass: &PositionPass) {
    let mut a = BodyLanes::gather(states, &bundle.a);
    let mut b = BodyLanes::gather(states, &bundle.b);
    let projected = project_lanes(&mut a, &mut b, bundle, pass.slop, pass.shed_so_far, pass.start);
    let held = pass.hold && hold_lanes(&mut a, &mut b, bundle, pass.slop);
    if projected || held {
        scatter_pose(states, bundle, &a, &b);
    }
    // Else no lane corrected anything (a bundle of pairs apart or resting within the
    // slop, most of a resting pile's in some passes): the lanes hold what was gathered,
    // bit for bit, so scattering them would change nothing. Skipping it took 5% off the
    // position passes of the 5050-box pyramid.
}

/// Writes the poses of the bundle's bodies that can move back from the lanes.
#[inline]
fn scatter_pose(states: &mut [BodyState], bundle: &Bundle, a: &BodyLanes, b: &BodyLanes) {
    let lanes = bundle.lanes as usize;
    a.scatter_pose(states, &bundle.a, &bundle.movable_a, lanes);
    b.scatter_pose(states, &bundle.b, &bundle.movable_b, lanes);
}

/// The arithmetic of [`project_bundle`] on gathered bodies; whether any lane moved.
#[inline]
fn project_lanes(
    a: &mut BodyLanes,
    b: &mut BodyLanes,
    bundle: &mut Bundle,
    slop: f32,
    shed_so_far: f32,
    start: Option<SubstepStart>,
) -> bool {
    let m = bundle.masses();
    let count = bundle.points as usize;
    if let Some(start) = start {
        begin_bundle(a, b, bundle, start);
    }
    let (slop, shed_so_far) = (Lf::splat(slop), Lf::splat(shed_so_far));
    let mut moved = false;
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
        let apply = p.live & violation.simd_lt(Lf::ZERO) & w.simd_gt(Lf::ZERO) & delta.is_finite();
        if !apply.any() {
            continue;
        }
        moved = true;
        p.normal_impulse = plus_where(p.normal_impulse, delta, apply);
        m.apply_correction(a, b, (r_a, r_b), (delta * nx, delta * ny), apply);
    }
    moved
}

/// `SubstepStart::begin`, eight constraints at once: the relative normal velocity before
/// gravity's share of the substep, and the substep's impulses from zero.
#[inline]
fn begin_bundle(a: &BodyLanes, b: &BodyLanes, bundle: &mut Bundle, start: SubstepStart) {
    let (gx, gy) = (Lf::splat(start.gravity_dv.x), Lf::splat(start.gravity_dv.y));
    let before = |s: &BodyLanes, forces: Lf| BodyLanes {
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
        p.normal_impulse = Lf::ZERO;
        p.tangent_impulse = Lf::ZERO;
        p.velocity_normal_impulse = Lf::ZERO;
    }
}

/// `xpbd::hold_constraint`, eight constraints at once.
#[inline]
pub(super) fn hold_bundle(states: &mut [BodyState], bundle: &mut Bundle, slip_drift: f32) {
    let count = bundle.points as usize;
    // Nothing pushed this substep (speculative pairs, bundled apart for this): nothing
    // to hold, and gathering and scattering the bodies would write back what they read.
    let pushed = |p: &PointLanes| (p.live & !p.normal_impulse.simd_le(Lf::ZERO)).any();
    if !bundle.point[..count].iter().any(pushed) {
        return;
    }
    let mut a = BodyLanes::gather(states, &bundle.a);
    let mut b = BodyLanes::gather(states, &bundle.b);
    if hold_lanes(&mut a, &mut b, bundle, slip_drift) {
        scatter_pose(states, bundle, &a, &b);
    }
    // Else the lanes hold what was gathered: scattering it would change nothing.
}

/// The arithmetic of [`hold_bundle`] on gathered bodies; whether any lane moved.
#[inline]
fn hold_lanes(a: &mut BodyLanes, b: &mut BodyLanes, bundle: &mut Bundle, slip_drift: f32) -> bool {
    let count = bundle.points as usize;
    let m = bundle.masses();
    let friction = bundle.friction;
    let slip_drift = Lf::splat(slip_drift);
    let mut moved = false;
    for p in &mut bundle.point[..count] {
        // A point that did not push this substep holds nothing (a NaN impulse goes on
        // to the NaN checks, as in the scalar pass).
        let pushed = p.live & !p.normal_impulse.simd_le(Lf::ZERO);
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
        let active = pushed & along.simd_ne(Lf::ZERO) & w_t.simd_gt(Lf::ZERO) & !cone.is_nan();
        let wanted = p.tangent_impulse - along / w_t;
        let total = clamp(wanted, -cone, cone);
        // Clamped with a drift beyond `slip_drift`: it sticks again where it is next step.
        p.slipped = (active & total.simd_ne(wanted) & along.abs().simd_gt(slip_drift)) | p.slipped;
        let apply = active & total.is_finite();
        moved |= apply.any();
        let delta_t = total - p.tangent_impulse;
        p.tangent_impulse = apply.select(total, p.tangent_impulse);
        m.apply_correction(a, b, (r_a, r_b), (delta_t * tx, delta_t * ty), apply);
    }
    moved
}

/// What a point's velocity pass reads of the positions, which the pass does not change
/// (it moves velocities only).
#[derive(Clone, Copy, Debug, Default)]
struct SettleLanes {
    /// The anchors turned with the bodies (m).
    r_a: (Lf, Lf),
    r_b: (Lf, Lf),
    /// Masks: the point acts (pushed, or touching), and it was pushed this substep.
    acts: Lf,
    pushed: Lf,
    /// The normal velocity it is driven to (m/s), and the inverse effective mass along
    /// the tangent (the normal's is taken with the impulse, from the masses the impulse
    /// moves: [`normal_masses`]).
    target: Lf,
    w_t: Lf,
}

/// `SettleLanes` of one point, from the bodies' poses now.
#[inline]
fn settle_geometry(
    a: &BodyLanes,
    b: &BodyLanes,
    m: &Masses,
    p: &PointLanes,
    restitution: Lf,
    threshold: Lf,
) -> SettleLanes {
    // Pushed this substep: an equality; else touching (only may not approach) or
    // apart (skipped).
    let pushed = p.normal_impulse.simd_gt(Lf::ZERO);
    let (r_a, pa) = a.anchor(p.anchor_a_x, p.anchor_a_y);
    let (r_b, pb) = b.anchor(p.anchor_b_x, p.anchor_b_y);
    let (nx, ny) = (p.normal_x, p.normal_y);
    let separation = (pb.0 - pa.0) * nx + (pb.1 - pa.1) * ny + p.base_separation;
    let acts = p.live & (pushed | !separation.simd_gt(Lf::ZERO));
    if !acts.any() {
        return SettleLanes {
            acts,
            ..SettleLanes::default()
        };
    }
    let bounce = pushed & p.relative_velocity.simd_lt(threshold);
    SettleLanes {
        r_a,
        r_b,
        acts,
        pushed,
        target: bounce.select(-restitution * p.relative_velocity, Lf::ZERO),
        w_t: m.inverse_effective_mass(r_a, r_b, ny, -nx),
    }
}

/// The masses a point's normal impulse moves: `xpbd::VelocityPass::normal_scales`, where
/// the target is zero, on each lane.
#[inline]
fn normal_masses(m: &Masses, p: &PointLanes, target: Lf, settings: &VelocityPass) -> Masses {
    let (ux, uy) = (Lf::splat(settings.up.x), Lf::splat(settings.up.y));
    let along = p.normal_x * ux + p.normal_y * uy;
    let resting = target.simd_eq(Lf::ZERO)
        & p.relative_velocity
            .abs()
            .simd_le(Lf::splat(settings.restitution_threshold));
    let stacked = Lf::splat(STACKED_COS);
    let (k, one) = (Lf::splat(settings.lower_scale), Lf::ONE);
    let k_a = (resting & along.simd_gt(stacked)).select(k, one);
    let k_b = (resting & along.simd_lt(-stacked)).select(k, one);
    Masses {
        inv_mass_a: m.inv_mass_a * k_a,
        inv_inertia_a: m.inv_inertia_a * k_a,
        inv_mass_b: m.inv_mass_b * k_b,
        inv_inertia_b: m.inv_inertia_b * k_b,
    }
}

/// `xpbd::settle_constraint`, eight constraints at once.
#[inline]
pub(super) fn settle_bundle(states: &mut [BodyState], bundle: &mut Bundle, settings: &VelocityPass) {
    let count = bundle.points as usize;
    let mut a = BodyLanes::gather(states, &bundle.a);
    let mut b = BodyLanes::gather(states, &bundle.b);
    let m = bundle.masses();
    let (friction, restitution) = (bundle.friction, bundle.restitution);
    let threshold = -Lf::splat(settings.restitution_threshold);
    let inv_h = Lf::splat(settings.inv_h);
    let mut geometry = [SettleLanes::default(); 2];
    let mut moved = false;
    for (p, g) in bundle.point[..count].iter().zip(&mut geometry) {
        *g = settle_geometry(&a, &b, &m, p, restitution, threshold);
        moved |= g.acts.any();
    }
    if !moved {
        return; // no point acts: the lanes hold what was gathered
    }
    // The normal part on every point, then friction on every point (`settle_constraint`).
    for (p, g) in bundle.point[..count].iter_mut().zip(&geometry) {
        let acts = g.acts;
        if !acts.any() {
            continue;
        }
        let (r_a, r_b) = (g.r_a, g.r_b);
        let (nx, ny) = (p.normal_x, p.normal_y);
        let (vx, vy) = relative_velocity(&a, &b, r_a, r_b);
        let vn = vx * nx + vy * ny;
        let m_n = normal_masses(&m, p, g.target, settings);
        let w_n = m_n.inverse_effective_mass(r_a, r_b, nx, ny);
        let before = p.velocity_normal_impulse;
        let wanted = before + (g.target - vn) / w_n;
        let total = g.pushed.select(wanted, max_zero(wanted));
        let apply = acts & w_n.simd_gt(Lf::ZERO) & total.is_finite();
        p.velocity_normal_impulse = apply.select(total, before);
        let impulse = total - before;
        m_n.apply_impulse(&mut a, &mut b, (r_a, r_b), (impulse * nx, impulse * ny), apply);
    }
    for (p, g) in bundle.point[..count].iter_mut().zip(&geometry) {
        let acts = g.acts;
        if !acts.any() {
            continue;
        }
        let (r_a, r_b) = (g.r_a, g.r_b);
        let (nx, ny) = (p.normal_x, p.normal_y);
        let (tx, ty) = (ny, -nx);
        let (vx, vy) = relative_velocity(&a, &b, r_a, r_b);
        let vt = vx * tx + vy * ty;
        let w_t = g.w_t;
        let cone = friction * (p.normal_impulse * inv_h + max_zero(p.velocity_normal_impulse));
        let limit = max_zero(cone - p.tangent_impulse.abs() * inv_h);
        let impulse = clamp(-vt / w_t, -limit, limit);
        let apply = acts & vt.simd_ne(Lf::ZERO) & w_t.simd_gt(Lf::ZERO) & impulse.is_finite();
        m.apply_impulse(&mut a, &mut b, (r_a, r_b), (impulse * tx, impulse * ty), apply);
    }
    let lanes = bundle.lanes as usize;
    a.scatter_velocity(states, &bundle.a, &bundle.movable_a, lanes);
    b.scatter_velocity(states, &bundle.b, &bundle.movable_b, lanes);
}
