//! The world's tuning, in one struct whose defaults explain themselves (the rapier
//! `IntegrationParameters` pattern). Runtime only, not serde: a scene file stores what
//! it needs in its own definition types, with their own twins of [`Resolution`] and
//! [`ContinuousMode`] so the format never changes by accident when the engine does; the
//! scene module converts between the two.

use crate::broad::BroadPhaseKind;
use crate::math::Vec2;
use crate::narrow::{Algorithm, NarrowConfig};

/// How contacts are resolved once the narrow phase has found them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Resolution {
    /// Sequential impulses with friction, restitution, warm starting and soft position
    /// correction (`solver.rs`). Stacks.
    Impulses,
    /// Position-based contact resolution after Müller et al., "Detailed Rigid Body
    /// Simulation with Extended Position Based Dynamics" (2020): per substep, bodies
    /// are moved apart with generalised inverse masses (rotation included), static
    /// friction holds positions, and a velocity pass applies dynamic friction and
    /// restitution (`xpbd.rs`). Stacks; the default.
    #[default]
    Projection,
    /// The papers' literal method: every substep, move the first body of each
    /// overlapping pair out along the whole MTV and cancel the approaching normal
    /// velocity with (1 + restitution)·λ (`projection.rs`). No friction, no memory:
    /// does not stack — kept so the comparison can be shown.
    LiteralProjection,
}

impl Resolution {
    /// All, in menu order.
    pub const ALL: [Resolution; 3] = [
        Resolution::Impulses,
        Resolution::Projection,
        Resolution::LiteralProjection,
    ];

    /// The name used in scene files, on the command line and in menus.
    pub fn name(self) -> &'static str {
        match self {
            Resolution::Impulses => "Impulses",
            Resolution::Projection => "Projection",
            Resolution::LiteralProjection => "LiteralProjection",
        }
    }
}

/// Everything that tunes [`crate::dynamics::World::step`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WorldSettings {
    /// Acceleration of gravity (m/s², world frame). Default (0, −9.81): y is up.
    pub gravity: Vec2,
    /// Narrow-phase algorithm used on every candidate pair. Default
    /// [`Algorithm::NonConvexSat`], the scene format's default.
    pub narrow_phase: Algorithm,
    /// Narrow-phase tolerances. Default [`NarrowConfig::default`].
    pub narrow_config: NarrowConfig,
    /// How contacts are resolved. Default [`Resolution::Impulses`].
    pub resolution: Resolution,
    /// Each step is cut into this many substeps, each running the whole pipeline
    /// (pairs, narrow phase, resolution, integration). Default 4: a 60 Hz step becomes
    /// 240 Hz, which is what lets a tall stack stand (errors shrink with the square of
    /// the substep). 0 is read as 1.
    pub substeps: u32,
    /// Sequential-impulse passes over all contacts per substep (with position bias),
    /// under [`Resolution::Impulses`]. Default 1, Box2D v3's soft step (Catto,
    /// "Solver2D", 2024) and rapier's default: with 4 substeps, soft contacts and warm
    /// starting, one pass holds the 20-layer pyramid (tests/dynamics.rs) and the
    /// 5050-box one (it stands for 20 s with sleeping off, its top box 1.26 m below
    /// where it started, as with 2 passes). More converge stacks further at linear cost.
    pub velocity_iterations: u32,
    /// Position passes per substep under [`Resolution::Projection`] (`xpbd.rs`), the
    /// last holding static friction; one velocity pass follows them. Default 2: with
    /// one, the 20-layer pyramid's top box still drifts 10 cm after its first second
    /// (tests/dynamics.rs allows 0.1 m), and the 60-row pyramid collapses.
    pub projection_iterations: u32,
    /// Passes without position bias after the positions are updated (Box2D v3's
    /// "relax"): they take back the velocity the push-out added, so resolving overlap
    /// does not make bodies jump. Default 1 (Box2D v3's and rapier's).
    pub relax_iterations: u32,
    /// Stiffness of the soft contact (Hz): how fast overlap is pushed out. Default 30 Hz
    /// (Box2D v3's `contactHertz`); capped at a quarter of the substep rate, above which
    /// the spring would be too stiff for the time step to follow.
    pub contact_hertz: f32,
    /// Damping ratio of the soft contact. Default 10: strongly over-damped, so pushing
    /// out never overshoots into a bounce (Box2D v3's `contactDampingRatio`).
    pub contact_damping_ratio: f32,
    /// The push-out speed never exceeds this (m/s). Default 3 m/s: a deep overlap (a
    /// body dropped inside another) separates over several steps instead of exploding.
    pub max_push_speed: f32,
    /// Restitution only applies when bodies approach faster than this (m/s). Default
    /// 1 m/s: below it a resting body would keep bouncing on gravity's own velocity.
    pub restitution_threshold: f32,
    /// A dynamic body whose centre of mass gets farther than this (m) outside the box of
    /// everything the world was given (its scene, plus bodies inserted since) is lost:
    /// it is removed and reported. Default 100 m. 0 or infinity: never.
    pub kill_distance: f32,
    /// Overlap allowed at rest (m). Default 0.005 m (Box2D's `linearSlop`). The narrow
    /// phase only reports overlapping shapes, so resting bodies must stay a little inside
    /// each other for their contact (and its warm-start impulses) to persist; with 0 a
    /// resting box would lose and find its contact every other substep.
    pub slop: f32,
    /// Start each substep's solver from the matched impulses of the previous one.
    /// Default true; turning it off shows why stacks need it.
    pub warm_starting: bool,
    /// Which broad phase finds the candidate pairs. All four give the same pairs, so
    /// switching changes only the time it takes. Default sweep-and-prune.
    pub broad_phase: BroadPhaseKind,

    // --- Pseudo-continuous detection (Ren and Xie 2011; `continuous.rs`) ---
    /// How fast bodies are kept from passing through thin ones. Default
    /// [`ContinuousMode::Interpolation`], Ren and Xie's (2011) own method: it needs nothing but the
    /// narrow phase the user picked, so it works for every shape and every algorithm,
    /// and a slow scene never pays for it.
    pub continuous: ContinuousMode,
    /// A dynamic body is "fast" when a point of it can move more than this fraction of
    /// its smallest extent (a circle's radius, a box's half thickness) in one substep;
    /// only fast bodies are swept. It is also the spacing of the intermediate poses, in
    /// the same unit. Default 0.5: consecutive poses overlap by at least half the body,
    /// so a wall of zero thickness across the path cannot fall between two of them.
    pub continuous_fraction: f32,
    /// At most this many intermediate poses per body and substep (interpolation). Default
    /// 128: a 5 cm ball at 200 m/s needs 34 at 240 Hz. Past the cap the poses spread out
    /// and thin walls can be missed again.
    pub continuous_max_poses: u32,

    // --- Sleeping (`sleep.rs`) ---
    /// Let resting islands fall asleep (not integrated, not tested against each other or
    /// the static world). Default true.
    pub sleeping: bool,
    /// A body is sleepy while its centre of mass moves slower than this (m/s). Default
    /// 0.05 m/s (Box2D v3's `sleepThreshold`).
    pub sleep_linear_speed: f32,
    /// … and it turns slower than this (rad/s). Default 0.05 rad/s (about 3°/s).
    pub sleep_angular_speed: f32,
    /// An island sleeps once every body in it has been sleepy this long (s). Default 0.5 s
    /// (Box2D's `b2_timeToSleep`): long enough that the top of a bounce (speed zero for an
    /// instant) never counts as rest.
    pub time_to_sleep: f32,

    /// Race mode: every substep also runs the two other narrow phases on the same
    /// candidate pairs and reports their times, work and disagreements with the chosen
    /// one in [`StepReport::race`](super::StepReport::race). The simulation still uses
    /// only the chosen algorithm, so racing never changes it; it only costs time.
    /// Default off.
    pub race: bool,
}

/// How pseudo-continuous detection finds the moment a fast body first touches another
/// (see `continuous.rs` for how each avoids tunnelling and where each can still fail).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum ContinuousMode {
    /// Discrete only: a body jumps from pose to pose and can pass through anything
    /// thinner than its motion in one substep.
    Off,
    /// Ren and Xie (2011): intermediate poses along the motion, spaced by
    /// [`WorldSettings::continuous_fraction`] of the body's extent, tested with the
    /// narrow phase; the first pose that hits is rolled back by bisection to the moment
    /// of contact.
    #[default]
    Interpolation,
    /// Time of impact by conservative advancement (Mirtich 1996): step forward by
    /// distance / (bound on the approach speed), with GJK distances between convex pieces,
    /// until the gap closes.
    ConservativeAdvancement,
}

impl Default for WorldSettings {
    fn default() -> Self {
        WorldSettings {
            gravity: Vec2::new(0.0, -9.81),
            narrow_phase: Algorithm::NonConvexSat,
            narrow_config: NarrowConfig::default(),
            resolution: Resolution::Projection,
            substeps: 4,
            velocity_iterations: 1,
            projection_iterations: 2,
            relax_iterations: 1,
            contact_hertz: 30.0,
            contact_damping_ratio: 10.0,
            max_push_speed: 3.0,
            restitution_threshold: 1.0,
            slop: 0.005,
            // The scene format's default too (a test in `scene` holds the two together).
            kill_distance: 100.0,
            warm_starting: true,
            broad_phase: BroadPhaseKind::default(),
            continuous: ContinuousMode::default(),
            continuous_fraction: 0.5,
            continuous_max_poses: 128,
            sleeping: true,
            sleep_linear_speed: 0.05,
            sleep_angular_speed: 0.05,
            time_to_sleep: 0.5,
            race: false,
        }
    }
}
