//! Rigid-body dynamics: bodies, the world and its fixed-step pipeline.
//!
//! ```
//! use collision_lab::dynamics::World;
//! use collision_lab::scene::parse;
//! let scene = parse(r#"(
//!     version: 1,
//!     bodies: [
//!         (name: "ground", kind: Static, shape: Polygon(points: [(-5, -1), (5, -1), (5, 0), (-5, 0)])),
//!         (shape: Circle(radius: 0.5), position: (0.0, 2.0)),
//!     ],
//! )"#, "example.ron").expect("a valid scene");
//! let mut world = World::from_scene(&scene);
//! for _ in 0..120 {
//!     world.step(1.0 / 60.0);
//! }
//! let ball = world.bodies().iter().nth(1).expect("the ball").1;
//! assert!((ball.pose().translation.y - 0.5).abs() < 0.02); // resting on the ground
//! ```
//!
//! - `body.rs`: [`Body`] (runtime state, built from a scene's [`crate::scene::BodyDef`];
//!   the centre of mass is what moves, the shape's origin follows), [`BodySet`] and its
//!   generational [`BodyHandle`]s;
//! - `settings.rs`: [`WorldSettings`], every knob with its default, and [`Resolution`];
//! - `world.rs`: [`World`] and [`World::step`]: candidate pairs (by the broad phase
//!   the settings choose, [`crate::broad`]) → narrow phase →
//!   resolution → integration, per substep;
//! - `contacts.rs`: the contacts found once per step (with speculative points for pairs
//!   about to touch), kept across steps with their impulses;
//! - `body_state.rs`, `constraint.rs`: the dense body states and contact constraints the
//!   solvers work on;
//! - `solver.rs`: sequential impulses with friction, restitution, warm starting and soft
//!   contacts (Catto 2005, Box2D v3) — [`Resolution::Impulses`];
//! - `xpbd.rs`: position-based contact resolution (Müller et al. 2020) —
//!   [`Resolution::Projection`];
//! - `projection.rs`: the papers' literal projection, (1 + e)·λ —
//!   [`Resolution::LiteralProjection`];
//! - `integrate.rs`: semi-implicit Euler and its known error;
//! - `continuous.rs`: pseudo-continuous detection (Ren and Xie 2011): fast bodies are swept by
//!   intermediate poses or by conservative advancement and rolled back to the moment of
//!   contact, so they do not tunnel ([`ContinuousMode`]);
//! - `sleep.rs`: islands of bodies joined by contacts (union–find); an island whose
//!   bodies have all been slow for a while sleeps, and wakes when touched, moved or
//!   left without support;
//! - `profile.rs`: per-step times and counts ([`StepProfile`]) and the [`StepReport`];
//! - `race.rs`: race mode, the three narrow phases side by side on the same pairs
//!   ([`RaceReport`]);
//! - `clock.rs`: the app's fixed-step clock ([`FixedClock`]): given how much wall time a
//!   frame took, how many fixed steps to take now, and the fraction to interpolate
//!   drawing by. It never reads a clock itself, so it is tested with synthetic time.

mod body;
mod body_state;
mod clock;
mod constraint;
mod contacts;
mod continuous;
mod crowd;
mod integrate;
mod manifold;
mod profile;
mod projection;
mod race;
mod settings;
mod sleep;
mod solver;
mod world;
mod xpbd;

pub use body::{Body, BodyHandle, BodySet};
pub use clock::{
    FixedClock, DEFAULT_MAX_FRAME_SECONDS, DEFAULT_MAX_STEPS_PER_FRAME, DEFAULT_RATE_HZ, DEFAULT_STEP_BUDGET_SECONDS,
};
pub use continuous::MAX_ADVANCEMENT_ITERATIONS;
pub use crowd::MAX_CROWDED_PAIRS;
pub use manifold::ContactManifold;
pub use profile::{RemovedBody, StepProfile, StepReport};
pub use race::{
    Disagreement, DisagreementKind, RaceAlgorithmStats, RaceAnswer, RaceReport, DEPTH_RELATIVE_LIMIT,
    NORMAL_ANGLE_LIMIT_DEG,
};
pub use settings::{ContinuousMode, Resolution, WorldSettings};
pub use solver::mix_friction_restitution;
pub use world::{Resume, World};
