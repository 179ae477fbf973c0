//! Rigid-body dynamics: bodies, the world and its fixed-step pipeline.
//!
//! ```
//! use collision_lab::dynamics::{BodyDesc, BodyKind, World, WorldSettings};
//! use collision_lab::geometry::ShapeDesc;
//! use collision_lab::math::Vec2;
//! let mut world = World::new(WorldSettings::default());
//! let mut ground = BodyDesc::new(ShapeDesc::Polygon {
//!     points: vec![Vec2::new(-5.0, -1.0), Vec2::new(5.0, -1.0), Vec2::new(5.0, 0.0), Vec2::new(-5.0, 0.0)],
//! })
//! .expect("a valid polygon");
//! ground.kind = BodyKind::Static;
//! world.insert(ground);
//! let mut ball = BodyDesc::new(ShapeDesc::Circle { radius: 0.5 }).expect("a valid circle");
//! ball.position = Vec2::new(0.0, 2.0);
//! let ball = world.insert(ball);
//! for _ in 0..120 {
//!     world.step(1.0 / 60.0);
//! }
//! let y = world.body(ball).expect("the ball").pose().translation.y;
//! assert!((y - 0.5).abs() < 0.02); // resting on the ground
//! ```
//!
//! The engine knows nothing of files: it takes [`BodyDesc`]s (a body's kind, its shape
//! built and validated, pose, velocities and material) and [`WorldSettings`], and hands
//! back its state as a [`Snapshot`]. `crate::scene` converts its file types to and from
//! these (a scene's world is `World::from_scene`, defined there).
//!
//! - `desc.rs`: [`BodyDesc`], what a body is before it is in a world, and [`BodyKind`];
//! - `body.rs`: [`Body`] (runtime state, built from a [`BodyDesc`]; the centre of mass
//!   is what moves, the shape's origin follows), [`BodySet`] and its generational
//!   [`BodyHandle`]s;
//! - `settings.rs`: [`WorldSettings`], every knob with its default, and [`Resolution`];
//! - `world.rs`: [`World`] and [`World::step`]: candidate pairs (by the broad phase
//!   the settings choose, [`crate::broad`]) → narrow phase →
//!   resolution → integration, per substep; `world/pairs.rs` grows each body's box by
//!   how far it can move and asks the broad phase, `world/literal.rs` is the papers'
//!   pipeline (detect again every substep), `world/lost.rs` removes lost bodies;
//! - `contacts.rs`: the contacts found once per step (with speculative points for pairs
//!   about to touch), kept across steps with their impulses;
//! - `body_state.rs`, `constraint.rs`: the dense body states and contact constraints the
//!   solvers work on;
//! - `solver.rs`: sequential impulses with friction, restitution, warm starting and soft
//!   contacts (Catto 2005, Box2D v3) — [`Resolution::Impulses`];
//! - `xpbd.rs`: position-based contact resolution (Müller et al. 2020) —
//!   [`Resolution::Projection`];
//! - `xpbd_wide.rs`: its passes four constraints at once, colour by colour, with the
//!   same answer bit for bit (as `solver_wide.rs` does for the impulse solver);
//! - `projection.rs`: the papers' literal projection, (1 + e)·λ —
//!   [`Resolution::LiteralProjection`];
//! - `observe.rs`: [`StepObserver`], called from inside [`World::step_observed`] after
//!   every pass of the solver with a read-only [`PassView`] (poses, contact points,
//!   impulses), for the lessons; [`World::step`] passes [`NoObserver`] and pays nothing;
//! - `integrate.rs`: semi-implicit Euler and its known error;
//! - `continuous.rs`: pseudo-continuous detection (Ren and Xie 2011): fast bodies are swept by
//!   intermediate poses or by conservative advancement and rolled back to the moment of
//!   contact, so they do not tunnel ([`ContinuousMode`]);
//! - `snapshot.rs`, `world/resume.rs`: [`Snapshot`], the state a run carries between
//!   steps beyond poses and velocities, so a saved run continues exactly;
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
mod desc;
mod integrate;
mod lanes;
mod manifold;
mod observe;
mod profile;
mod projection;
mod race;
mod settings;
mod sleep;
mod snapshot;
mod solver;
mod solver_wide;
#[cfg(test)]
mod test_rng;
mod world;
mod xpbd;
mod xpbd_wide;

pub use body::{Body, BodyHandle, BodySet};
pub use clock::{
    FixedClock, DEFAULT_MAX_FRAME_SECONDS, DEFAULT_MAX_STEPS_PER_FRAME, DEFAULT_RATE_HZ, DEFAULT_STEP_BUDGET_SECONDS,
    MIN_STEP_BUDGET_SECONDS, TARGET_FRAME_SECONDS,
};
pub use continuous::MAX_ADVANCEMENT_ITERATIONS;
pub(crate) use continuous::{ContinuousRecorder, ContinuousScratch};
pub use crowd::MAX_CROWDED_PAIRS;
pub use desc::{BodyDesc, BodyKind};
pub use manifold::ContactManifold;
pub use observe::{LiteralMove, NoObserver, PassKind, PassView, PointView, StepObserver};
pub use profile::{RemovedBody, StepProfile, StepReport};
pub use race::{
    Disagreement, DisagreementKind, RaceAlgorithmStats, RaceAnswer, RaceReport, DEPTH_RELATIVE_LIMIT,
    NORMAL_ANGLE_LIMIT_DEG,
};
pub use settings::{ContinuousMode, Resolution, WorldSettings};
pub use snapshot::{BodySnapshot, PairReuseSnapshot, PairSnapshot, PointSnapshot, Snapshot, MAX_POINTS_PER_PAIR};
pub use solver::mix_friction_restitution;
pub use world::{Resume, World};
