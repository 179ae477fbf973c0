//! The scene file's data model: the only serde types of a scene.
//!
//! These structs are the public contract of the RON format. Everything the simulation
//! needs at run time (shapes with cached geometry, poses) is built from them by
//! [`super::Scene::from_def`]; nothing built is ever saved.
//!
//! Compatibility rules, so that files written today keep loading:
//! - every field except a body's `shape` (and the file's `version`) has a default, so a
//!   field added by a later version is optional in files written before it;
//! - unknown fields are errors (`deny_unknown_fields`), so a typo never passes silently;
//! - `version` changes only when an old reader would misread a new file.

use super::lesson_def::LessonDef;
use super::state_def::StateDef;
use crate::broad::BroadPhaseKind;
pub use crate::dynamics::BodyKind;
use crate::math::Point;
use crate::narrow::Algorithm;
use serde::{Deserialize, Serialize, Serializer};

/// The scene format version this build reads and writes.
pub const FORMAT_VERSION: u32 = 1;

/// Gravity when a file does not say: 9.81 m/s² downwards (y is up).
pub const DEFAULT_GRAVITY: Point = Point(0.0, -9.81);
/// Density when a body does not say (kg/m², areal density in 2D).
pub const DEFAULT_DENSITY: f32 = 1.0;
/// Coulomb friction coefficient when a body does not say.
pub const DEFAULT_FRICTION: f32 = 0.6;
/// Restitution (bounciness, 0 = no bounce, 1 = elastic) when a body does not say.
pub const DEFAULT_RESTITUTION: f32 = 0.0;

/// A whole scene file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SceneDef {
    /// Format version; must be [`FORMAT_VERSION`]. Required, so that a file always says
    /// which rules it follows.
    pub version: u32,
    /// Acceleration of gravity (m/s², world frame), at most [`MAX_GRAVITY`] long.
    /// Default (0, −9.81).
    #[serde(default = "default_gravity")]
    pub gravity: Point,
    /// Simulation and detection settings. Default: all settings at their defaults.
    #[serde(default)]
    pub settings: SettingsDef,
    /// The bodies, in file order; a body's index in this list is its identity on the
    /// command line and in error messages. Default: none.
    #[serde(default)]
    pub bodies: Vec<BodyDef>,
    /// Makes the scene a lesson (see [`super::lesson_def`]). Default: none, an ordinary
    /// scene. Written `lesson: (…)` or `lesson: Some((…))`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lesson: Option<LessonDef>,
    /// What the simulation carries between steps, so a saved run continues exactly
    /// (see [`super::state_def`]). Default: none, the scene starts afresh. Written last.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub state: Option<StateDef>,
}

impl Default for SceneDef {
    fn default() -> Self {
        SceneDef {
            version: FORMAT_VERSION,
            gravity: DEFAULT_GRAVITY,
            settings: SettingsDef::default(),
            bodies: Vec::new(),
            lesson: None,
            state: None,
        }
    }
}

/// Simulation rate when a file does not say (Hz): one step is 1/60 s.
pub const DEFAULT_RATE_HZ: f32 = 60.0;
/// Substeps per step when a file does not say.
pub const DEFAULT_SUBSTEPS: u32 = 4;
/// Impulse-solver passes per substep when a file does not say.
pub const DEFAULT_VELOCITY_ITERATIONS: u32 = 1;
/// Position-based passes per substep when a file does not say.
pub const DEFAULT_PROJECTION_ITERATIONS: u32 = 2;
/// Allowed simulation rates (Hz). Below 1 Hz a step is longer than a second and nothing
/// resembling a contact survives it; above 1000 Hz the step is finer than anything the
/// sandbox can show and only burns time.
pub const RATE_RANGE_HZ: std::ops::RangeInclusive<f32> = 1.0..=1000.0;

/// Default of `settings.kill_distance` (m): far enough that a thrown body flies a while
/// in view, near enough that one pushed through the ground does not fall for ever.
pub const DEFAULT_KILL_DISTANCE_M: f32 = 100.0;

/// Accepted `settings.kill_distance` (m): at least 1 m (closer, bodies bouncing at the
/// scene's edge would vanish), at most 2e5 m (beyond that a body would already have
/// left the ±1e5 m the format accepts for positions, and could not be saved).
pub const KILL_DISTANCE_RANGE_M: std::ops::RangeInclusive<f32> = 1.0..=2e5;
/// Allowed substeps per step: at 64 a 60 Hz step is already below 0.3 ms.
pub const SUBSTEPS_RANGE: std::ops::RangeInclusive<u32> = 1..=64;
/// Allowed solver passes per substep (`velocity_iterations`, `projection_iterations`):
/// past 100 a stack converges no further.
pub const VELOCITY_ITERATIONS_RANGE: std::ops::RangeInclusive<u32> = 1..=100;

/// Allowed areal density (kg/m²). 1e-3 is a sheet of foam, 1e6 some 40 m of osmium;
/// between them lie nine orders of magnitude, already more mass ratio than an f32 solver
/// resolves (a light body's impulse is lost in the rounding of a heavy one's). Outside
/// it the mass and inertia products overflow or underflow: a density of 1e36 made a box
/// fall through the ground, and 1e-45 (a subnormal) gave an infinite inverse mass.
pub const DENSITY_RANGE: std::ops::RangeInclusive<f32> = 1.0e-3..=1.0e6;
/// Allowed Coulomb friction coefficient. Measured pairs stay below about 2 (rubber on
/// dry concrete is near 1); at 10 a contact already never slides, and products of
/// friction and impulse stay far from overflow (2e19 once made the solver panic).
pub const FRICTION_RANGE: std::ops::RangeInclusive<f32> = 0.0..=10.0;
/// Allowed restitution: 0 (no bounce) to 1 (elastic); above 1 a contact creates energy.
pub const RESTITUTION_RANGE: std::ops::RangeInclusive<f32> = 0.0..=1.0;
/// Largest gravity (m/s², length of the vector): about 100 g. At the default 60 Hz a
/// body then falls 0.28 m in one step, still a fraction of a box; at (0, −1e6) it fell
/// 280 m per step and nothing could hold it.
pub const MAX_GRAVITY: f32 = 1.0e3;
/// Largest coordinate of a body's position (m, each axis). An f32 resolves 1e5 m to
/// 8 mm, about the solver's 5 mm contact slop; farther out a resting contact cannot be
/// represented and bodies jitter through each other.
pub const MAX_COORDINATE: f32 = 1.0e5;
/// Largest coordinate of a shape's points in its body's frame (m, each axis): a shape
/// is described around its body's origin. A vertex 1e6 m from it loses 6 cm to the
/// centre-of-mass transform on every save, and the shape's size is bounded with it.
pub const MAX_LOCAL_COORDINATE: f32 = 1.0e4;
/// Smallest shape (m): a circle's radius, a polygon's or segment's longest side of its
/// bounding box. Below a millimetre a shape is smaller than the 5 mm contact slop and
/// its inertia (∝ size⁴) underflows towards the subnormals.
pub const MIN_SHAPE_SIZE: f32 = 1.0e-3;
/// Largest speed of a body's origin (m/s, each axis): ten times a rifle bullet, 167 m per
/// step at 60 Hz. Faster, a body leaves the allowed coordinates within a second.
pub const MAX_SPEED: f32 = 1.0e4;
/// Largest angular velocity (rad/s): about 1600 turns per second.
pub const MAX_ANGULAR_SPEED: f32 = 1.0e4;

/// Settings that apply to the whole scene: how it is simulated and which algorithms
/// detect and resolve its contacts.
///
/// Every field has a default, so files written before a field existed keep loading.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SettingsDef {
    /// The narrow-phase algorithm: `NonConvexSat`, `SatDecomposed` or `GjkEpa`.
    /// Default `NonConvexSat`.
    #[serde(default)]
    pub narrow_phase: Algorithm,
    /// The broad phase: `DynamicAabbTree`, `SweepAndPrune`, `BruteForce` or
    /// `SpatialHash`. All four find the same pairs; only the time differs. Default
    /// `DynamicAabbTree`.
    #[serde(default)]
    pub broad_phase: BroadPhaseKind,
    /// How contacts are resolved. Default `Projection`.
    #[serde(default)]
    pub resolution: ResolutionDef,
    /// Steps per second of simulated time (Hz): a step is 1/rate seconds. Must be
    /// finite and in [`RATE_RANGE_HZ`]. Default 60.
    #[serde(default = "default_rate_hz")]
    pub rate: f32,
    /// Each step is cut into this many substeps. In [`SUBSTEPS_RANGE`]. Default 4.
    #[serde(default = "default_substeps")]
    pub substeps: u32,
    /// Impulse-solver passes per substep (`WorldSettings::velocity_iterations`). In
    /// [`VELOCITY_ITERATIONS_RANGE`]. Default 1.
    #[serde(default = "default_velocity_iterations")]
    pub velocity_iterations: u32,
    /// Position-based (`Projection`) passes per substep
    /// (`WorldSettings::projection_iterations`). In [`VELOCITY_ITERATIONS_RANGE`].
    /// Default 2.
    #[serde(default = "default_projection_iterations")]
    pub projection_iterations: u32,
    /// Whether bodies at rest may fall asleep (and stop costing time). Default `true`.
    #[serde(default = "default_sleeping")]
    pub sleeping: bool,
    /// How fast bodies are kept from passing through thin ones between steps. Default
    /// `Interpolation`.
    #[serde(default)]
    pub continuous: ContinuousDef,
    /// A dynamic body this far (m) outside the box around the scene's bodies is lost:
    /// removed and reported. In [`KILL_DISTANCE_RANGE_M`]. Default 100 m.
    #[serde(default = "default_kill_distance_m")]
    pub kill_distance: f32,
}

impl Default for SettingsDef {
    fn default() -> Self {
        SettingsDef {
            narrow_phase: Algorithm::default(),
            broad_phase: BroadPhaseKind::default(),
            resolution: ResolutionDef::default(),
            rate: DEFAULT_RATE_HZ,
            substeps: DEFAULT_SUBSTEPS,
            velocity_iterations: DEFAULT_VELOCITY_ITERATIONS,
            projection_iterations: DEFAULT_PROJECTION_ITERATIONS,
            sleeping: true,
            continuous: ContinuousDef::default(),
            kill_distance: DEFAULT_KILL_DISTANCE_M,
        }
    }
}

/// How contacts are resolved, as a file names it (the runtime twin is
/// [`crate::dynamics::Resolution`]; the file format keeps its own type so that it never
/// changes by accident when the solver does; `From` converts both ways).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub enum ResolutionDef {
    /// Sequential impulses with friction and restitution; stacks.
    Impulses,
    /// Position-based contact resolution (Müller et al., 2020): bodies are moved apart,
    /// with rotation, friction and restitution; stacks. The default: moving bodies
    /// apart along the contact normal is the resolution the product is built around.
    #[default]
    Projection,
    /// The papers' literal projection: move the first body out along the whole MTV and
    /// cancel the approach with (1 + e)·λ; no friction. Kept for comparison: it does not
    /// hold a stack.
    LiteralProjection,
}

impl ResolutionDef {
    /// All, in menu order.
    pub const ALL: [ResolutionDef; 3] = [
        ResolutionDef::Impulses,
        ResolutionDef::Projection,
        ResolutionDef::LiteralProjection,
    ];

    /// The name used in scene files and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            ResolutionDef::Impulses => "Impulses",
            ResolutionDef::Projection => "Projection",
            ResolutionDef::LiteralProjection => "LiteralProjection",
        }
    }
}

impl std::fmt::Display for ResolutionDef {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for ResolutionDef {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        ResolutionDef::ALL
            .into_iter()
            .find(|r| r.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| format!("unknown resolution '{s}' (expected Impulses, Projection or LiteralProjection)"))
    }
}

/// Pseudo-continuous detection (Ren and Xie 2011): what keeps a fast body from passing through
/// a thin one between two steps (the runtime twin is [`crate::dynamics::ContinuousMode`];
/// `From` converts both ways).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub enum ContinuousDef {
    /// Only the poses at the end of each substep are tested.
    Off,
    /// Intermediate poses are interpolated between steps for fast bodies, and the step
    /// is rolled back to the first pose that touches. The default.
    #[default]
    Interpolation,
    /// Fast bodies advance by steps no longer than the distance that separates them, so
    /// they stop at the moment of contact.
    ConservativeAdvancement,
}

/// How a body moves, as a file writes it: `Static`, `Dynamic` (the default) or
/// `Kinematic`. The type is the engine's [`BodyKind`]; this is its serde twin, a
/// "remote" definition serde checks against it variant by variant, so a variant added
/// to the engine does not compile until the format decides how to write it.
#[derive(Serialize, Deserialize)]
#[serde(remote = "BodyKind", rename = "BodyKind")]
enum BodyKindDef {
    Static,
    Dynamic,
    Kinematic,
}

/// One body: a shape placed in the world, with how it moves and its material.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BodyDef {
    /// A name for messages and the user interface. Default: none. Written as a plain
    /// string (`name: "ground"`); `Some("ground")` is accepted too.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        serialize_with = "serialize_optional_name"
    )]
    pub name: Option<String>,
    /// Static, Dynamic or Kinematic. Default `Dynamic`.
    #[serde(default, with = "BodyKindDef")]
    pub kind: BodyKind,
    /// The shape, in the body's local frame. Required.
    pub shape: ShapeDef,
    /// Where the body's local origin sits in the world (m), within ±[`MAX_COORDINATE`].
    /// Default (0, 0).
    #[serde(default)]
    pub position: Point,
    /// Rotation of the local frame (radians, counter-clockwise). Default 0.
    #[serde(default)]
    pub angle: f32,
    /// Initial velocity of the local origin (m/s, world frame), within ±[`MAX_SPEED`].
    /// Default (0, 0).
    #[serde(default)]
    pub linear_velocity: Point,
    /// Initial angular velocity (rad/s, counter-clockwise), within
    /// ±[`MAX_ANGULAR_SPEED`]. Default 0.
    #[serde(default)]
    pub angular_velocity: f32,
    /// Areal density (kg/m²), in [`DENSITY_RANGE`]. Default 1.0.
    #[serde(default = "default_density")]
    pub density: f32,
    /// Coulomb friction coefficient, in [`FRICTION_RANGE`]. Default 0.6.
    #[serde(default = "default_friction")]
    pub friction: f32,
    /// Restitution, in [`RESTITUTION_RANGE`]. Default 0.0.
    #[serde(default = "default_restitution")]
    pub restitution: f32,
}

impl BodyDef {
    /// A body with `shape` and every other field at its documented default.
    pub fn new(shape: ShapeDef) -> Self {
        BodyDef {
            name: None,
            kind: BodyKind::default(),
            shape,
            position: Point::default(),
            angle: 0.0,
            linear_velocity: Point::default(),
            angular_velocity: 0.0,
            density: DEFAULT_DENSITY,
            friction: DEFAULT_FRICTION,
            restitution: DEFAULT_RESTITUTION,
        }
    }

    /// The body's initial pose (local frame to world).
    pub fn pose(&self) -> crate::math::Pose {
        crate::math::Pose::new(self.position.into(), self.angle)
    }
}

/// A shape as written in a file; all points in the body's local frame (m).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum ShapeDef {
    /// A circle centred on the body's origin.
    Circle {
        /// Radius (m), from [`MIN_SHAPE_SIZE`] to [`MAX_LOCAL_COORDINATE`].
        radius: f32,
    },
    /// A simple polygon, convex or not, in either orientation (it is made
    /// counter-clockwise when built); it must not cross itself.
    Polygon {
        /// The vertices, at least three distinct ones.
        points: Vec<Point>,
    },
    /// A line segment between two distinct points, with no thickness.
    Segment {
        /// First end point.
        a: Point,
        /// Second end point.
        b: Point,
    },
}

fn default_gravity() -> Point {
    DEFAULT_GRAVITY
}

fn default_kill_distance_m() -> f32 {
    DEFAULT_KILL_DISTANCE_M
}

fn default_rate_hz() -> f32 {
    DEFAULT_RATE_HZ
}

fn default_substeps() -> u32 {
    DEFAULT_SUBSTEPS
}

fn default_velocity_iterations() -> u32 {
    DEFAULT_VELOCITY_ITERATIONS
}

fn default_projection_iterations() -> u32 {
    DEFAULT_PROJECTION_ITERATIONS
}

fn default_sleeping() -> bool {
    true
}

fn default_density() -> f32 {
    DEFAULT_DENSITY
}

fn default_friction() -> f32 {
    DEFAULT_FRICTION
}

fn default_restitution() -> f32 {
    DEFAULT_RESTITUTION
}

/// Writes `Some(name)` as the bare string, the form people type. Only called for `Some`
/// (the field is skipped when `None`). Reading needs no helper: the loader enables RON's
/// `implicit_some` extension, which accepts both `"ground"` and `Some("ground")`.
fn serialize_optional_name<S: Serializer>(name: &Option<String>, s: S) -> Result<S::Ok, S::Error> {
    match name {
        Some(name) => s.serialize_str(name),
        None => s.serialize_none(),
    }
}
