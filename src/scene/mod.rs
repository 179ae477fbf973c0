//! Scene files: the RON format users load, edit and share, and the validated scenes
//! built from them.
//!
//! ```
//! let text = r#"(
//!     version: 1,
//!     bodies: [
//!         (shape: Circle(radius: 0.5), position: (0.0, 3.0)),
//!     ],
//! )"#;
//! let scene = collision_lab::scene::parse(text, "example.ron").expect("a valid scene");
//! assert_eq!(scene.len(), 1);
//! assert_eq!(scene.def().bodies[0].friction, 0.6); // the documented default
//! ```
//!
//! - [`def`]: the serde types, the format's contract, with every default;
//! - [`parse`] / [`load`](fn@load): text or file to a [`Scene`], or one [`SceneError`] that says
//!   file, line, column, body and what is wrong;
//! - [`save`](fn@save): pretty RON written atomically; load → save → load gives the same scene,
//!   bit for bit;
//! - `build`: the checks beyond syntax and the shapes they produce; `locate`: where a
//!   value sits in the text;
//! - `convert`, `world`: file ↔ engine. The engine ([`crate::dynamics`]) never reads a
//!   file type; this module turns a [`BodyDef`] into the engine's
//!   [`BodyDesc`](crate::dynamics::BodyDesc) ([`BodyDef::to_desc`], with the
//!   [`SceneError`] a file's body would get) and a body back into a [`BodyDef`]
//!   ([`Body::to_def`](crate::dynamics::Body::to_def)), [`SettingsDef`] into
//!   [`WorldSettings`](crate::dynamics::WorldSettings) and back, a `state` block into a
//!   [`Snapshot`](crate::dynamics::Snapshot) and back, and builds a scene's world
//!   ([`World::from_scene`](crate::dynamics::World::from_scene),
//!   [`World::to_scene_def`](crate::dynamics::World::to_scene_def)).
//!
//! ```
//! use collision_lab::dynamics::World;
//! use collision_lab::scene::{parse, BodyDef, ShapeDef};
//! let scene = parse("(version: 1, bodies: [(shape: Circle(radius: 0.5))])", "one.ron").expect("valid");
//! let mut world = World::from_scene(&scene);
//! let mut def = BodyDef::new(ShapeDef::Circle { radius: 0.25 });
//! def.position = collision_lab::math::Point(2.0, 0.0);
//! world.insert(def.to_desc().expect("a valid body"));
//! assert_eq!(world.to_scene_def().bodies[1], def); // saved as given
//! ```

// A `SceneError` is large (about 150 bytes: the file name, position, body and problem
// with its values) and is returned by value. Loading and saving are cold paths that
// run once per file, so the size costs nothing, while boxing would make every caller
// dereference to match on the problem.
#![allow(clippy::result_large_err)]

mod build;
mod convert;
pub mod def;
mod error;
pub mod lesson_def;
mod load;
mod locate;
mod ranges;
mod save;
pub mod state_def;
mod world;

pub use def::{
    BodyDef, BodyKind, ContinuousDef, ResolutionDef, SceneDef, SettingsDef, ShapeDef, DEFAULT_KILL_DISTANCE_M,
    FORMAT_VERSION, KILL_DISTANCE_RANGE_M,
};
pub use error::{BodyRef, SceneError, SceneProblem, TextPosition};
pub use lesson_def::{BodyOverrideDef, KnobsDef, LessonDef, PresetDef, Topic};
pub use load::{load, parse};
pub use save::{save, to_ron_string, write_atomically};
pub use state_def::{BodyStateDef, PairReuseDef, PairStateDef, PointStateDef, StateDef, MAX_POINTS_PER_PAIR};

use crate::geometry::Shape;
use crate::math::Pose;

/// Files larger than this (64 MiB) are refused unread: a hand-made scene is kilobytes,
/// and the limit keeps a wrong path (a disk image, `/dev/zero`) from eating the memory.
pub const MAX_FILE_BYTES: u64 = 64 * 1024 * 1024;

/// A validated scene: its definition and the shape built for each body.
///
/// Only [`parse`], [`load`](fn@load) and [`Scene::from_def`] make one, so every value in it has
/// passed the checks (finite numbers, valid shapes, known version). A scene read from
/// text has also passed the format's ranges (density, friction, gravity, sizes,
/// coordinates and speeds: see the constants in [`def`]); one made by
/// [`Scene::from_def`] may hold any finite value the library can carry.
#[derive(Clone, Debug, PartialEq)]
pub struct Scene {
    def: SceneDef,
    shapes: Vec<Shape>,
}

impl Scene {
    /// Validates `def` and builds its shapes. Errors name the body but have no line
    /// (there is no text); their source name is `(scene)`.
    pub fn from_def(def: SceneDef) -> Result<Scene, SceneError> {
        let fail = |body: Option<usize>, problem| SceneError {
            source_name: "(scene)".to_string(),
            position: None,
            body: body.map(|index| BodyRef {
                index,
                name: def.bodies.get(index).and_then(|b| b.name.clone()),
            }),
            problem,
        };
        if let Some(problem) = load::version_problem(def.version) {
            return Err(fail(None, problem));
        }
        let shapes = build::build_shapes(&def).map_err(|e| fail(e.body, e.problem))?;
        Ok(Scene { def, shapes })
    }

    /// The definition, as read.
    pub fn def(&self) -> &SceneDef {
        &self.def
    }

    /// The definition, giving up the built shapes.
    pub fn into_def(self) -> SceneDef {
        self.def
    }

    /// Body `i`'s shape, in its local frame; one per body, in file order.
    pub fn shapes(&self) -> &[Shape] {
        &self.shapes
    }

    /// Number of bodies.
    pub fn len(&self) -> usize {
        self.shapes.len()
    }

    /// True when the scene has no bodies.
    pub fn is_empty(&self) -> bool {
        self.shapes.is_empty()
    }

    /// Body `i`'s initial pose; `None` past the last body.
    pub fn pose(&self, i: usize) -> Option<Pose> {
        self.def.bodies.get(i).map(BodyDef::pose)
    }
}
