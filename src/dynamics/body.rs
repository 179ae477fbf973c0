//! Rigid bodies: their runtime state, and the set that owns them behind generational
//! handles (the rapier pattern: a handle is an index plus the generation of the slot, so
//! a handle to a removed body never reaches the body that later reuses its slot).
//!
//! # Frames
//!
//! A body's *origin* is the local origin of its shape, the point the scene file places
//! with `position` and `angle`. Its *centre of mass* is the shape's centroid, which need
//! not be the origin (a polygon drawn off-centre, an L). Physics happens at the centre
//! of mass: the state stores the world centre of mass `center_world`, the angle, and the
//! velocity of the centre of mass; the origin's pose is derived from them:
//!
//! ```text
//! origin_world   = center_world − R(angle) · local_center
//! v_origin       = v_center + ω × (origin_world − center_world)
//! ```
//!
//! Integrating the origin instead would make an off-centre body spin around the wrong
//! point under gravity alone (its origin would follow a parabola while the mass wobbles).

use super::desc::{BodyDesc, BodyKind};
use super::snapshot::BodySnapshot;
use crate::bounds::Aabb;
use crate::geometry::{Shape, ShapeDesc};
use crate::math::{is_finite, Pose, Rot, Vec2};
use crate::narrow::sat::{lane_higher, lane_lower};
use std::sync::Arc;
use wide::f32x4;

mod set;
pub use set::BodySet;

/// A body's identity in a [`BodySet`]: slot index and the slot's generation.
///
/// Ordered by index first, so sorting handles gives the set's iteration order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BodyHandle {
    /// Slot index in the set.
    pub index: u32,
    /// How many times the slot has been reused; a stale handle has an older generation.
    pub generation: u32,
}

/// 2D cross product of a scalar angular velocity with a vector: ω × r = (−ω·r.y, ω·r.x).
#[inline]
pub(crate) fn cross_sv(omega: f32, r: Vec2) -> Vec2 {
    Vec2::new(-omega * r.y, omega * r.x)
}

/// A rigid body's runtime state. Built from a [`BodyDesc`] (see
/// [`crate::dynamics::World::insert`]); it keeps what the description said of it (name,
/// kind, shape as given, material), so it can be described again in its current state.
#[derive(Clone, Debug, PartialEq)]
pub struct Body {
    name: Option<String>,
    kind: BodyKind,
    /// Shared by the bodies a scene gives the same shape (`World::from_scene_with`), so
    /// that a pile of equal boxes reads one copy of its vertices.
    shape: Arc<Shape>,
    /// The description the shape was built from, kept so the body can be saved as given.
    shape_desc: ShapeDesc,
    density: f32,
    friction: f32,
    restitution: f32,
    /// Centroid in the body's local frame (m).
    local_center: Vec2,
    mass_kg: f32,
    inv_mass: f32,
    /// Moment of inertia about the centre of mass (kg·m²).
    inertia: f32,
    inv_inertia: f32,
    center_world: Vec2,
    angle_rad: f32,
    rot: Rot,
    /// Velocity of the centre of mass (m/s, world frame).
    linear_velocity: Vec2,
    /// Angular velocity (rad/s, counter-clockwise).
    angular_velocity: f32,
    /// Sweep metrics (`continuous.rs`), fixed by the shape: half the smallest width of
    /// its thinnest convex piece (m; a circle's radius), the farthest its core reaches
    /// from the centre of mass (m), and the radius around the core (m; circles only).
    min_extent_m: f32,
    core_reach_m: f32,
    core_radius_m: f32,
    /// The shape's size ([`Shape::size`], m), which the narrow phase's tolerances scale
    /// with: kept so that the detection does not take a square root per body per pair.
    shape_size_m: f32,
    /// Sleep state (`sleep.rs`): asleep or not, how long the body has been slow (s), and
    /// the island it fell asleep with (the smallest slot index in it), so waking one
    /// member wakes the rest.
    sleeping: bool,
    slow_time_s: f32,
    sleep_island: Option<u32>,
    /// Where the body's centre of mass was and how it was turned when it last began to
    /// keep still (m, rad; `sleep.rs`).
    rest_anchor: (Vec2, f32),
}

impl Body {
    /// Runtime state for `desc`. Mass and inertia are the shape's unit-density
    /// properties times the density; static and kinematic bodies get zero inverse mass
    /// and inertia.
    pub(crate) fn new(desc: BodyDesc) -> Body {
        // Destructured so that a new field of the description cannot be forgotten here.
        let BodyDesc {
            name,
            kind,
            position,
            angle,
            linear_velocity,
            angular_velocity,
            density,
            friction,
            restitution,
            shape,
            shape_desc,
        } = desc;
        let props = shape.mass_properties();
        let mass_kg = props.area * density;
        let inertia = props.inertia * density;
        let dynamic = kind == BodyKind::Dynamic;
        // A zero or non-finite mass (a degenerate shape, an absurd density) cannot be
        // accelerated by an impulse; such a body behaves as if kinematic instead of
        // dividing by zero.
        let inv = |m: f32| {
            if dynamic && m > 0.0 && m.is_finite() {
                1.0 / m
            } else {
                0.0
            }
        };
        let rot = Rot::from_angle(angle);
        let local_center = props.centroid;
        let r_center = rot.apply(local_center);
        // The description gives the origin's velocity; the state keeps the centre's.
        let center_velocity = linear_velocity + cross_sv(angular_velocity, r_center);
        let (min_extent_m, core_reach_m, core_radius_m) = sweep_metrics(&shape, local_center);
        let shape_size_m = shape.size();
        Body {
            name,
            kind,
            shape,
            shape_desc,
            density,
            friction,
            restitution,
            local_center,
            mass_kg: if dynamic { mass_kg } else { 0.0 },
            inv_mass: inv(mass_kg),
            inertia: if dynamic { inertia } else { 0.0 },
            inv_inertia: inv(inertia),
            center_world: position + r_center,
            angle_rad: angle,
            rot,
            linear_velocity: center_velocity,
            angular_velocity,
            min_extent_m,
            core_reach_m,
            core_radius_m,
            shape_size_m,
            sleeping: false,
            slow_time_s: 0.0,
            rest_anchor: (position + r_center, angle),
            sleep_island: None,
        }
    }

    /// The body's name, if it was given one.
    pub fn name(&self) -> Option<&str> {
        self.name.as_deref()
    }

    /// Static, dynamic or kinematic.
    pub fn kind(&self) -> BodyKind {
        self.kind
    }

    /// True for dynamic bodies (the only ones forces and contacts move).
    pub fn is_dynamic(&self) -> bool {
        self.kind == BodyKind::Dynamic
    }

    /// The shape, in the body's local frame.
    pub fn shape(&self) -> &Shape {
        &self.shape
    }

    /// The shape as it was given (before normalising), what saving writes.
    pub fn shape_desc(&self) -> &ShapeDesc {
        &self.shape_desc
    }

    /// Areal density (kg/m²), as given.
    pub fn density(&self) -> f32 {
        self.density
    }

    /// Coulomb friction coefficient.
    pub fn friction(&self) -> f32 {
        self.friction
    }

    /// Restitution in [0, 1].
    pub fn restitution(&self) -> f32 {
        self.restitution
    }

    /// Mass (kg); 0 for static and kinematic bodies.
    pub fn mass(&self) -> f32 {
        self.mass_kg
    }

    /// 1 / mass (1/kg); 0 for static and kinematic bodies.
    pub fn inv_mass(&self) -> f32 {
        self.inv_mass
    }

    /// Moment of inertia about the centre of mass (kg·m²); 0 unless dynamic.
    pub fn inertia(&self) -> f32 {
        self.inertia
    }

    /// 1 / inertia; 0 unless dynamic.
    pub fn inv_inertia(&self) -> f32 {
        self.inv_inertia
    }

    /// Centre of mass in the body's local frame (m).
    pub fn local_center(&self) -> Vec2 {
        self.local_center
    }

    /// Centre of mass, world frame (m).
    pub fn center_of_mass(&self) -> Vec2 {
        self.center_world
    }

    /// Angle of the local frame (radians, counter-clockwise, not wrapped).
    pub fn angle(&self) -> f32 {
        self.angle_rad
    }

    /// Rotation of the local frame.
    pub fn rotation(&self) -> Rot {
        self.rot
    }

    /// The pose of the body's origin (local frame to world): what the narrow phase and
    /// the drawing use.
    pub fn pose(&self) -> Pose {
        Pose {
            translation: self.center_world - self.rot.apply(self.local_center),
            rotation: self.rot,
        }
    }

    /// Velocity of the centre of mass (m/s, world frame).
    pub fn linear_velocity(&self) -> Vec2 {
        self.linear_velocity
    }

    /// Velocity of the body's origin (m/s, world frame).
    pub fn origin_velocity(&self) -> Vec2 {
        self.linear_velocity + cross_sv(self.angular_velocity, -self.rot.apply(self.local_center))
    }

    /// Angular velocity (rad/s, counter-clockwise).
    pub fn angular_velocity(&self) -> f32 {
        self.angular_velocity
    }

    /// Velocity of the material point at `world_point` (m/s): v + ω × (p − c).
    pub fn velocity_at(&self, world_point: Vec2) -> Vec2 {
        self.linear_velocity + cross_sv(self.angular_velocity, world_point - self.center_world)
    }

    /// Kinetic energy ½·m·v² + ½·I·ω² (J); 0 unless dynamic.
    pub fn kinetic_energy(&self) -> f32 {
        0.5 * self.mass_kg * self.linear_velocity.length_squared()
            + 0.5 * self.inertia * self.angular_velocity * self.angular_velocity
    }

    /// Sets the velocity of the centre of mass (m/s). Static bodies ignore it. A
    /// non-finite value is accepted and the body is removed at the next step (see
    /// [`crate::dynamics::StepReport`]).
    ///
    /// A velocity other than zero wakes a sleeping body (and, at the next step, its
    /// island); setting zero leaves it asleep, as it already is still (Box2D v3 does the
    /// same, so code that keeps zeroing a velocity does not keep a pile awake).
    pub fn set_linear_velocity(&mut self, velocity: Vec2) {
        if self.kind != BodyKind::Static {
            self.linear_velocity = velocity;
            if velocity != Vec2::ZERO {
                self.wake_up();
            }
        }
    }

    /// Sets the angular velocity (rad/s). Static bodies ignore it. Wakes the body unless
    /// `omega` is zero (see [`Body::set_linear_velocity`]).
    pub fn set_angular_velocity(&mut self, omega: f32) {
        if self.kind != BodyKind::Static {
            self.angular_velocity = omega;
            if omega != 0.0 {
                self.wake_up();
            }
        }
    }

    /// Places the body's origin at `position` (m) with `angle` (rad). Wakes the body:
    /// whatever it rested on may no longer be under it.
    pub fn set_pose(&mut self, position: Vec2, angle_rad: f32) {
        self.wake_up();
        self.angle_rad = angle_rad;
        self.rot = Rot::from_angle(angle_rad);
        self.center_world = position + self.rot.apply(self.local_center);
    }

    /// True while the body sleeps: it is not integrated, its velocities are zero, and the
    /// narrow phase skips its pairs with static and other sleeping bodies.
    pub fn is_sleeping(&self) -> bool {
        self.sleeping
    }

    /// Wakes the body and restarts its rest timer. The rest of its sleeping island wakes
    /// at the start of the next step ([`crate::dynamics::World::wake`] wakes the island
    /// at once).
    pub fn wake_up(&mut self) {
        self.sleeping = false;
        self.slow_time_s = 0.0;
        self.rest_anchor = (self.center_world, self.angle_rad);
    }

    /// Half the smallest width of the body's thinnest convex piece (m); a circle's
    /// radius. Tunnelling is a matter of moving further than this in one substep.
    pub fn min_extent(&self) -> f32 {
        self.min_extent_m
    }

    /// How far any point of the body's core (its vertices; a circle's centre) lies from
    /// the centre of mass (m): turning by Δθ moves no core point further than this × Δθ.
    pub fn core_reach(&self) -> f32 {
        self.core_reach_m
    }

    /// How far any point of the body lies from its centre of mass (m).
    pub fn outer_reach(&self) -> f32 {
        self.core_reach_m + self.core_radius_m
    }

    /// The shape's size (m; [`Shape::size`], computed once).
    pub(crate) fn shape_size(&self) -> f32 {
        self.shape_size_m
    }

    /// World-frame bounding box of the shape at the current pose.
    pub fn aabb(&self) -> Aabb {
        let pose = self.pose();
        match &*self.shape {
            Shape::Circle(c) => {
                let r = Vec2::splat(c.radius());
                Aabb::new(pose.translation - r, pose.translation + r)
            }
            Shape::Polygon(p) => posed_box(p.vertices(), &pose),
            Shape::Segment(s) => posed_box(&[s.a(), s.b()], &pose),
        }
    }

    /// Which part of the state is not finite, if any (for the removal report).
    pub(crate) fn non_finite_part(&self) -> Option<&'static str> {
        if !is_finite(self.center_world) || !self.angle_rad.is_finite() {
            Some("position")
        } else if !is_finite(self.linear_velocity) || !self.angular_velocity.is_finite() {
            Some("velocity")
        } else {
            None
        }
    }

    /// Moves the centre of mass by `delta` (m) and turns by `delta_angle` (rad).
    #[inline]
    pub(crate) fn translate_rotate(&mut self, delta: Vec2, delta_angle: f32) {
        self.center_world += delta;
        if delta_angle != 0.0 {
            self.angle_rad += delta_angle;
            self.rot = Rot::from_angle(self.angle_rad);
        }
    }

    /// Places the centre of mass at `center` with `angle_rad`, velocities untouched and
    /// without waking (the sweep's roll-back).
    pub(crate) fn place_center(&mut self, center: Vec2, angle_rad: f32) {
        self.center_world = center;
        if angle_rad != self.angle_rad {
            self.angle_rad = angle_rad;
            self.rot = Rot::from_angle(angle_rad);
        }
    }

    /// Puts the body to sleep as a member of `island`: velocities zeroed, timer kept.
    pub(crate) fn fall_asleep(&mut self, island: u32) {
        self.sleeping = true;
        self.sleep_island = Some(island);
        self.linear_velocity = Vec2::ZERO;
        self.angular_velocity = 0.0;
    }

    /// The island the body fell asleep with, if it has not been reconciled since.
    pub(crate) fn sleep_island(&self) -> Option<u32> {
        self.sleep_island
    }

    /// Forgets the island (the body is awake and its island has been woken).
    pub(crate) fn clear_sleep_island(&mut self) {
        self.sleep_island = None;
    }

    /// Seconds the body has been slow enough to sleep.
    pub(crate) fn slow_time(&self) -> f32 {
        self.slow_time_s
    }

    /// Sets the rest timer (s).
    pub(crate) fn set_slow_time(&mut self, seconds: f32) {
        self.slow_time_s = seconds;
    }

    /// Where the body's centre of mass was and its angle when it last began to keep still
    /// (m, rad; `sleep.rs`).
    pub(crate) fn rest_anchor(&self) -> (Vec2, f32) {
        self.rest_anchor
    }

    /// Whether the body's centre is within `distance` (m) of its rest anchor and its angle
    /// within `turn` (rad); if not, the anchor moves to where it is now.
    pub(crate) fn keeps_still_within(&mut self, distance: f32, turn: f32) -> bool {
        let (center, angle) = self.rest_anchor;
        let still = (self.center_world - center).length() < distance && (self.angle_rad - angle).abs() < turn;
        if !still {
            self.rest_anchor = (self.center_world, self.angle_rad);
        }
        still
    }

    /// The state a saved run carried (`world/resume.rs`): centre of mass, angle,
    /// velocities and sleep, exactly as they were.
    pub(crate) fn restore(&mut self, state: &BodySnapshot) {
        self.center_world = state.center;
        self.angle_rad = state.angle;
        self.rot = Rot::from_angle(state.angle);
        self.linear_velocity = state.velocity;
        self.angular_velocity = state.spin;
        self.sleeping = state.asleep;
        self.slow_time_s = state.rest_time;
        self.rest_anchor = state.rest_anchor;
        self.sleep_island = state.island;
    }

    /// Sets both velocities without the static check (the solver only writes to bodies
    /// it may move).
    #[inline]
    pub(crate) fn set_velocities_unchecked(&mut self, v: Vec2, omega: f32) {
        self.linear_velocity = v;
        self.angular_velocity = omega;
    }
}

/// The sweep metrics of a shape whose centre of mass is `local_center`: (half the
/// smallest width over its convex pieces, core reach, core radius), all in metres.
///
/// The smallest width of a convex piece is attained across one of its edges (rotating
/// calipers), so the minimum over edge normals of the projected width is exact for each
/// piece. A non-convex polygon takes its thinnest piece: the comb's tooth, not the comb,
/// is what can slip through a wall. A segment has no thickness; it gets a floor of
/// [`MIN_SWEEP_EXTENT`] so its sweeps stay finite (capped by the settings anyway).
fn sweep_metrics(shape: &Shape, local_center: Vec2) -> (f32, f32, f32) {
    let reach = |points: &[Vec2]| points.iter().fold(0.0f32, |m, p| m.max((*p - local_center).length()));
    match shape {
        Shape::Circle(c) => (c.radius(), local_center.length(), c.radius()),
        Shape::Segment(s) => (MIN_SWEEP_EXTENT, reach(&[s.a(), s.b()]), 0.0),
        Shape::Polygon(p) => {
            let mut thinnest = f32::INFINITY;
            for piece in p.pieces() {
                for n in piece.normals() {
                    let (lo, hi) = piece.view().project(*n);
                    thinnest = thinnest.min(0.5 * (hi - lo));
                }
            }
            let extent = if thinnest.is_finite() {
                thinnest
            } else {
                MIN_SWEEP_EXTENT
            };
            (extent.max(MIN_SWEEP_EXTENT), reach(p.vertices()), 0.0)
        }
    }
}

/// Smallest extent a body is given for sweeping (m): a millimetre. Zero-thickness
/// segments would otherwise ask for infinitely many intermediate poses.
const MIN_SWEEP_EXTENT: f32 = 1e-3;

/// `Aabb::from_points_posed`: the same corners, compared plainly instead of with
/// `f32::min` and `max`, whose NaN handling cost two more instructions per coordinate,
/// about a third of the box (every body, every step). The answers are the same: a NaN
/// point is passed over by both (`NaN < x` is false), and equal coordinates differ at
/// most in the sign of a zero, which no box test can tell apart.
///
/// Two points at a time, x and y of both in the four lanes of a SIMD register: each lane
/// makes `Pose::apply_point`'s products and sums in its order (`c·x − s·y` as
/// `c·x + (−s)·y`, the same number: negation is exact), so the corners are the same to
/// the bit; one point at a time left half of each register idle.
#[inline]
fn posed_box(local_points: &[Vec2], pose: &Pose) -> Aabb {
    let (c, s, t) = (pose.rotation.cos, pose.rotation.sin, pose.translation);
    let (along_x, along_y) = (f32x4::from([c, s, c, s]), f32x4::from([-s, c, -s, c]));
    let shift = f32x4::from([t.x, t.y, t.x, t.y]);
    let (mut lo, mut hi) = (f32x4::splat(f32::INFINITY), f32x4::splat(f32::NEG_INFINITY));
    let pairs = local_points.chunks_exact(2);
    let odd = pairs.remainder().first().map(|&p| pose.apply_point(p));
    for p in pairs {
        let (xs, ys) = (
            f32x4::from([p[0].x, p[0].x, p[1].x, p[1].x]),
            f32x4::from([p[0].y, p[0].y, p[1].y, p[1].y]),
        );
        let w = (along_x * xs + along_y * ys) + shift;
        (lo, hi) = (lane_lower(w, lo), lane_higher(w, hi));
    }
    if let Some(w) = odd {
        let w = f32x4::from([w.x, w.y, w.x, w.y]);
        (lo, hi) = (lane_lower(w, lo), lane_higher(w, hi));
    }
    let (lo, hi) = (lo.to_array(), hi.to_array());
    let lower = |a: f32, b: f32| if b < a { b } else { a };
    let higher = |a: f32, b: f32| if b > a { b } else { a };
    Aabb {
        min: Vec2::new(lower(lo[0], lo[2]), lower(lo[1], lo[3])),
        max: Vec2::new(higher(hi[0], hi[2]), higher(hi[1], hi[3])),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ball() -> Body {
        Body::new(BodyDesc::new(ShapeDesc::Circle { radius: 1.0 }).unwrap())
    }

    #[test]
    fn stale_handles_miss_the_reused_slot() {
        let mut set = BodySet::new();
        let a = set.insert(ball());
        assert!(set.remove(a).is_some());
        let b = set.insert(ball());
        assert_eq!(a.index, b.index);
        assert_ne!(a.generation, b.generation);
        assert!(set.get(a).is_none() && set.get(b).is_some());
        assert!(set.remove(a).is_none());
        assert_eq!(set.len(), 1);
    }

    #[test]
    fn off_centre_shape_keeps_its_origin_pose_and_velocity() {
        // A unit square drawn from (1, 0) to (2, 1): its centroid is (1.5, 0.5) local.
        let pts = [(1.0, 0.0), (2.0, 0.0), (2.0, 1.0), (1.0, 1.0)];
        let mut desc = BodyDesc::new(ShapeDesc::Polygon {
            points: pts.iter().map(|&(x, y)| Vec2::new(x, y)).collect(),
        })
        .unwrap();
        desc.position = Vec2::new(3.0, 4.0);
        desc.angle = 0.5;
        desc.linear_velocity = Vec2::new(1.0, -2.0);
        desc.angular_velocity = 0.7;
        let body = Body::new(desc);
        assert!((body.local_center() - Vec2::new(1.5, 0.5)).length() < 1e-6);
        assert!((body.mass() - 1.0).abs() < 1e-6);
        assert!((body.pose().translation - Vec2::new(3.0, 4.0)).length() < 1e-5);
        assert!((body.origin_velocity() - Vec2::new(1.0, -2.0)).length() < 1e-5);
    }
}
