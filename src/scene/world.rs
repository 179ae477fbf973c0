//! A scene's world, and a world's scene: [`World::from_scene`] and
//! [`World::to_scene_def`] with their variants, written on the scene side so that the
//! engine never reads a file type (see `convert.rs` for why they are methods of
//! [`World`]).

use super::def::{SceneDef, SettingsDef, ShapeDef, FORMAT_VERSION};
use super::state_def::StateDef;
use super::Scene;
use crate::dynamics::{Snapshot, World, WorldSettings};
use crate::geometry::Shape;
use crate::math::Point;
use std::collections::HashMap;
use std::sync::Arc;

/// The scene's built shapes, one per body, bodies of bit-for-bit equal shape
/// definitions given the same one.
///
/// Why: a step reads every colliding pair's vertices and normals, and a shape of its
/// own per body puts them in thousands of small allocations. On the 5050-box pyramid
/// the first read of a pair's convex piece was the narrow phase's most expensive
/// instruction (a cache miss: 5% of the step's samples under `perf` with projection);
/// one shared box keeps those reads in a few cache lines. A shape never changes after
/// it is built, so sharing it changes no answer.
fn shared_shapes(scene: &Scene) -> impl Iterator<Item = Arc<Shape>> + '_ {
    let mut built: HashMap<Vec<u32>, Arc<Shape>> = HashMap::new();
    scene.def().bodies.iter().zip(scene.shapes()).map(move |(def, shape)| {
        built
            .entry(shape_bits(&def.shape))
            .or_insert_with(|| Arc::new(shape.clone()))
            .clone()
    })
}

/// A shape definition as bits: equal bits, equal built shape.
fn shape_bits(shape: &ShapeDef) -> Vec<u32> {
    let point = |p: &Point| [p.0.to_bits(), p.1.to_bits()];
    match shape {
        ShapeDef::Circle { radius } => vec![0, radius.to_bits()],
        ShapeDef::Polygon { points } => std::iter::once(1).chain(points.iter().flat_map(point)).collect(),
        ShapeDef::Segment { a, b } => [[2].as_slice(), &point(a), &point(b)].concat(),
    }
}

impl World {
    /// The world a scene describes: its bodies in file order (body `i` gets slot `i`),
    /// its gravity and settings ([`WorldSettings::from_scene_settings`]) and its rate
    /// ([`World::rate`]); every setting a file does not store at its default.
    pub fn from_scene(scene: &Scene) -> World {
        let def = scene.def();
        let settings = WorldSettings::from_scene_settings(&def.settings, def.gravity.into());
        World::from_scene_with(scene, settings)
    }

    /// The scene's bodies under `settings` (the scene's own gravity and settings are
    /// ignored: `settings` wins; its rate, which is not a world setting, is kept for
    /// [`World::to_scene_def`]).
    ///
    /// A scene with a `state` block continues the run that saved it, exactly (see
    /// [`World::to_scene_def_with_state`]; [`World::resume`] says whether it did).
    pub fn from_scene_with(scene: &Scene, settings: WorldSettings) -> World {
        let mut world = World::new(settings);
        world.set_rate(scene.def().settings.rate);
        // The scene built its shapes when it was loaded; they are not built again, and
        // bodies of equal shapes share one (see `shared_shapes`).
        for (def, shape) in scene.def().bodies.iter().zip(shared_shapes(scene)) {
            world.insert(def.desc_with(shape));
        }
        if let Some(state) = &scene.def().state {
            world.restore(&Snapshot::from(state));
        }
        world
    }

    /// The current state as a scene definition (bodies in slot order, with their
    /// current poses and velocities), ready to save. Loading it with
    /// [`World::from_scene`] starts afresh from those poses (no warm start, rest timers
    /// at zero, centres of mass rebuilt from the origins);
    /// [`World::to_scene_def_with_state`] continues exactly.
    pub fn to_scene_def(&self) -> SceneDef {
        let rate = SettingsDef {
            rate: self.rate(),
            ..SettingsDef::default()
        };
        SceneDef {
            version: FORMAT_VERSION,
            gravity: self.settings().gravity.into(),
            settings: self.settings().to_scene_settings(&rate),
            bodies: self.bodies().iter().map(|(_, b)| b.to_def()).collect(),
            lesson: None,
            state: None,
        }
    }

    /// The current state as a scene definition with a `state` block (the world's
    /// [`World::snapshot`]): loading it with [`World::from_scene`] continues this run
    /// exactly ([`World::state_hash`] after `M` more steps equals the uninterrupted
    /// run's).
    pub fn to_scene_def_with_state(&self) -> SceneDef {
        SceneDef {
            state: Some(StateDef::from(&self.snapshot())),
            ..self.to_scene_def()
        }
    }
}
