//! File ↔ engine: the scene's definition types to the engine's own, and back.
//!
//! The engine ([`crate::dynamics`], [`crate::geometry`]) knows nothing of files: it
//! takes [`BodyDesc`]s and [`WorldSettings`] and hands back its state as a
//! [`Snapshot`]. This module is the one place that translates:
//!
//! | file (serde)                | engine (plain)            |
//! |-----------------------------|---------------------------|
//! | [`ShapeDef`]                | [`ShapeDesc`]             |
//! | [`BodyDef`]                 | [`BodyDesc`], [`Body`]    |
//! | [`SettingsDef`] + `gravity` | [`WorldSettings`] + rate  |
//! | [`ResolutionDef`]           | [`Resolution`]            |
//! | [`ContinuousDef`]           | [`ContinuousMode`]        |
//! | [`StateDef`] and its parts  | [`Snapshot`] and its parts |
//!
//! Every conversion copies numbers as they are (a [`crate::math::Point`] and a [`Vec2`] hold the
//! same two f32), so load → world → save writes the same bits, and a saved run resumes
//! bit for bit.
//!
//! Conversions that name an engine type ([`Body::to_def`],
//! [`WorldSettings::from_scene_settings`]) are inherent methods written here: the
//! engine's own files never mention the scene module, and callers keep the names they
//! know. (Should `dynamics` become a crate of its own, these become an extension trait
//! with the same names.)

use super::def::{BodyDef, ContinuousDef, ResolutionDef, SettingsDef, ShapeDef};
use super::error::{BodyRef, SceneError};
use super::state_def::{BodyStateDef, PairReuseDef, PairStateDef, PointStateDef, StateDef, MAX_POINTS_PER_PAIR};
use crate::bounds::Aabb;
use crate::dynamics::{
    Body, BodyDesc, BodySnapshot, ContinuousMode, PairReuseSnapshot, PairSnapshot, PointSnapshot, Resolution, Snapshot,
    WorldSettings,
};
use crate::geometry::{Shape, ShapeDesc};
use crate::math::Vec2;
use std::sync::Arc;

// The format's limit on points per pair is the engine's: a saved pair holds what a pair
// holds. Should the engine's change, the format must decide (and say so in its docs).
const _: () = assert!(MAX_POINTS_PER_PAIR == crate::dynamics::MAX_POINTS_PER_PAIR);

impl From<&ShapeDef> for ShapeDesc {
    fn from(def: &ShapeDef) -> ShapeDesc {
        match def {
            ShapeDef::Circle { radius } => ShapeDesc::Circle { radius: *radius },
            ShapeDef::Polygon { points } => ShapeDesc::Polygon {
                points: points.iter().map(|&p| p.into()).collect(),
            },
            ShapeDef::Segment { a, b } => ShapeDesc::Segment {
                a: (*a).into(),
                b: (*b).into(),
            },
        }
    }
}

impl From<&ShapeDesc> for ShapeDef {
    fn from(desc: &ShapeDesc) -> ShapeDef {
        match desc {
            ShapeDesc::Circle { radius } => ShapeDef::Circle { radius: *radius },
            ShapeDesc::Polygon { points } => ShapeDef::Polygon {
                points: points.iter().map(|&p| p.into()).collect(),
            },
            ShapeDesc::Segment { a, b } => ShapeDef::Segment {
                a: (*a).into(),
                b: (*b).into(),
            },
        }
    }
}

impl BodyDef {
    /// The engine's description of this body, checked as a scene file's body is
    /// checked (finite numbers, density, friction and restitution, a shape that builds)
    /// but without the format's ranges, as [`super::Scene::from_def`] does. The error
    /// names the body as body 0 of the source `(scene)` — the body alone is a one-body
    /// scene — and says what is wrong and where in the body (`shape.points[3]`, which
    /// two edges cross).
    // A `SceneError` is large (see the module docs of `scene`); converting is a cold
    // path run once per body, so it is returned by value as the rest of `scene` does.
    #[allow(clippy::result_large_err)]
    pub fn to_desc(&self) -> Result<BodyDesc, SceneError> {
        let shape = super::build::build_body(self).map_err(|(_, problem)| SceneError {
            source_name: "(scene)".to_string(),
            position: None,
            body: Some(BodyRef {
                index: 0,
                name: self.name.clone(),
            }),
            problem,
        })?;
        Ok(self.desc_with(shape))
    }

    /// The engine's description of this body with `shape`, already built from it.
    pub(super) fn desc_with(&self, shape: impl Into<Arc<Shape>>) -> BodyDesc {
        // Destructured so that a new field of the format cannot be forgotten here.
        let BodyDef {
            name,
            kind,
            shape: shape_def,
            position,
            angle,
            linear_velocity,
            angular_velocity,
            density,
            friction,
            restitution,
        } = self;
        let mut desc = BodyDesc::from_shared(ShapeDesc::from(shape_def), shape.into());
        desc.name = name.clone();
        desc.kind = *kind;
        desc.position = (*position).into();
        desc.angle = *angle;
        desc.linear_velocity = (*linear_velocity).into();
        desc.angular_velocity = *angular_velocity;
        desc.density = *density;
        desc.friction = *friction;
        desc.restitution = *restitution;
        desc
    }
}

impl Body {
    /// The definition of this body in its current state (pose and velocities of the
    /// origin), ready to be saved in a scene file; its shape is written as it was given.
    pub fn to_def(&self) -> BodyDef {
        BodyDef {
            name: self.name().map(str::to_string),
            kind: self.kind(),
            shape: ShapeDef::from(self.shape_desc()),
            position: self.pose().translation.into(),
            angle: self.angle(),
            linear_velocity: self.origin_velocity().into(),
            angular_velocity: self.angular_velocity(),
            density: self.density(),
            friction: self.friction(),
            restitution: self.restitution(),
        }
    }
}

impl From<ResolutionDef> for Resolution {
    fn from(def: ResolutionDef) -> Resolution {
        match def {
            ResolutionDef::Impulses => Resolution::Impulses,
            ResolutionDef::Projection => Resolution::Projection,
            ResolutionDef::LiteralProjection => Resolution::LiteralProjection,
        }
    }
}

impl From<Resolution> for ResolutionDef {
    fn from(resolution: Resolution) -> ResolutionDef {
        match resolution {
            Resolution::Impulses => ResolutionDef::Impulses,
            Resolution::Projection => ResolutionDef::Projection,
            Resolution::LiteralProjection => ResolutionDef::LiteralProjection,
        }
    }
}

impl From<ContinuousDef> for ContinuousMode {
    fn from(def: ContinuousDef) -> ContinuousMode {
        match def {
            ContinuousDef::Off => ContinuousMode::Off,
            ContinuousDef::Interpolation => ContinuousMode::Interpolation,
            ContinuousDef::ConservativeAdvancement => ContinuousMode::ConservativeAdvancement,
        }
    }
}

impl From<ContinuousMode> for ContinuousDef {
    fn from(mode: ContinuousMode) -> ContinuousDef {
        match mode {
            ContinuousMode::Off => ContinuousDef::Off,
            ContinuousMode::Interpolation => ContinuousDef::Interpolation,
            ContinuousMode::ConservativeAdvancement => ContinuousDef::ConservativeAdvancement,
        }
    }
}

impl WorldSettings {
    /// The settings a scene's `settings` and `gravity` ask for; everything a file does
    /// not store stays at its default.
    ///
    /// The scene's `rate` is not a world setting: it is the caller's clock (a step of
    /// `1 / rate` seconds is what the caller passes to [`crate::dynamics::World::step`]).
    pub fn from_scene_settings(def: &SettingsDef, gravity: Vec2) -> WorldSettings {
        // Destructured so that a new scene setting cannot be forgotten here.
        let &SettingsDef {
            narrow_phase,
            broad_phase,
            resolution,
            rate: _,
            substeps,
            velocity_iterations,
            projection_iterations,
            sleeping,
            continuous,
            kill_distance,
        } = def;
        WorldSettings {
            gravity,
            narrow_phase,
            broad_phase,
            resolution: resolution.into(),
            substeps,
            velocity_iterations,
            projection_iterations,
            sleeping,
            continuous: continuous.into(),
            kill_distance,
            ..WorldSettings::default()
        }
    }

    /// The scene settings that rebuild these world settings, taking from `scene` the
    /// setting the world does not hold (the rate).
    pub fn to_scene_settings(&self, scene: &SettingsDef) -> SettingsDef {
        SettingsDef {
            narrow_phase: self.narrow_phase,
            broad_phase: self.broad_phase,
            resolution: self.resolution.into(),
            substeps: self.substeps,
            velocity_iterations: self.velocity_iterations,
            projection_iterations: self.projection_iterations,
            sleeping: self.sleeping,
            continuous: self.continuous.into(),
            kill_distance: self.kill_distance,
            ..*scene
        }
    }
}

impl From<&StateDef> for Snapshot {
    fn from(state: &StateDef) -> Snapshot {
        Snapshot {
            time: state.time,
            steps: state.steps,
            resolution: state.resolution.into(),
            narrow_phase: state.narrow_phase,
            scene_box: state.scene_box.map(|(min, max)| Aabb {
                min: min.into(),
                max: max.into(),
            }),
            bodies: state.bodies.iter().map(BodySnapshot::from).collect(),
            free_slots: state.free_slots.clone(),
            contacts: state.contacts.iter().map(PairSnapshot::from).collect(),
        }
    }
}

impl From<&Snapshot> for StateDef {
    fn from(snapshot: &Snapshot) -> StateDef {
        StateDef {
            time: snapshot.time,
            steps: snapshot.steps,
            resolution: snapshot.resolution.into(),
            narrow_phase: snapshot.narrow_phase,
            scene_box: snapshot.scene_box.map(|b| (b.min.into(), b.max.into())),
            bodies: snapshot.bodies.iter().map(BodyStateDef::from).collect(),
            free_slots: snapshot.free_slots.clone(),
            contacts: snapshot.contacts.iter().map(PairStateDef::from).collect(),
        }
    }
}

impl From<&BodyStateDef> for BodySnapshot {
    fn from(def: &BodyStateDef) -> BodySnapshot {
        BodySnapshot {
            slot: def.slot,
            generation: def.generation,
            center: def.center.into(),
            angle: def.angle,
            velocity: def.velocity.into(),
            spin: def.spin,
            asleep: def.asleep,
            rest_time: def.rest_time,
            rest_anchor: def
                .rest_from
                .map_or((def.center.into(), def.angle), |(center, angle)| (center.into(), angle)),
            island: def.island,
        }
    }
}

impl From<&BodySnapshot> for BodyStateDef {
    fn from(body: &BodySnapshot) -> BodyStateDef {
        BodyStateDef {
            slot: body.slot,
            generation: body.generation,
            center: body.center.into(),
            angle: body.angle,
            velocity: body.velocity.into(),
            spin: body.spin,
            asleep: body.asleep,
            rest_time: body.rest_time,
            rest_from: (body.rest_anchor != (body.center, body.angle))
                .then(|| (body.rest_anchor.0.into(), body.rest_anchor.1)),
            island: body.island,
        }
    }
}

impl From<&PairStateDef> for PairSnapshot {
    fn from(def: &PairStateDef) -> PairSnapshot {
        PairSnapshot {
            bodies: def.bodies,
            points: def.points.iter().map(PointSnapshot::from).collect(),
            reuse: def.reuse.map(|r| PairReuseSnapshot {
                touching: r.touching,
                translation: r.translation.into(),
                angle: r.angle,
                margin: r.margin,
            }),
        }
    }
}

impl From<&PairSnapshot> for PairStateDef {
    fn from(pair: &PairSnapshot) -> PairStateDef {
        PairStateDef {
            bodies: pair.bodies,
            points: pair.points.iter().map(PointStateDef::from).collect(),
            reuse: pair.reuse.map(|r| PairReuseDef {
                touching: r.touching,
                translation: r.translation.into(),
                angle: r.angle,
                margin: r.margin,
            }),
        }
    }
}

impl From<&PointStateDef> for PointSnapshot {
    fn from(def: &PointStateDef) -> PointSnapshot {
        PointSnapshot {
            id: def.id,
            normal: def.normal.into(),
            local_a: def.local_a.into(),
            local_b: def.local_b.into(),
            separation: def.separation,
            relative_angle: def.relative_angle,
            normal_impulse: def.normal_impulse,
            tangent_impulse: def.tangent_impulse,
            stick_a: def.stick_a.into(),
            stick_b: def.stick_b.into(),
            slipped: def.slipped,
            normal_in_a: def.normal_in_a.map(Into::into),
        }
    }
}

impl From<&PointSnapshot> for PointStateDef {
    fn from(point: &PointSnapshot) -> PointStateDef {
        PointStateDef {
            id: point.id,
            normal: point.normal.into(),
            local_a: point.local_a.into(),
            local_b: point.local_b.into(),
            separation: point.separation,
            relative_angle: point.relative_angle,
            normal_impulse: point.normal_impulse,
            tangent_impulse: point.tangent_impulse,
            stick_a: point.stick_a.into(),
            stick_b: point.stick_b.into(),
            slipped: point.slipped,
            normal_in_a: point.normal_in_a.map(Into::into),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dynamics::World;
    use crate::scene::def::{DEFAULT_GRAVITY, DEFAULT_KILL_DISTANCE_M, DEFAULT_RATE_HZ};
    use crate::scene::{parse, to_ron_string, SceneDef};

    #[test]
    fn a_polygon_is_saved_as_written_not_as_normalised() {
        // Clockwise, with a repeated point and a collinear one: the built polygon is a
        // counter-clockwise square of four vertices; the file keeps all six as written.
        let text = "(version: 1, bodies: [(shape: Polygon(points: \
                    [(0, 0), (0, 1), (0, 1), (1, 1), (1, 0.5), (1, 0)]))])";
        let scene = parse(text, "cw.ron").unwrap();
        let saved = World::from_scene(&scene).to_scene_def();
        assert_eq!(saved.bodies, scene.def().bodies);
        assert_eq!(to_ron_string(&saved).unwrap(), to_ron_string(scene.def()).unwrap());
    }

    #[test]
    fn the_engine_s_defaults_are_the_format_s() {
        assert_eq!(
            WorldSettings::from_scene_settings(&SettingsDef::default(), DEFAULT_GRAVITY.into()),
            WorldSettings::default()
        );
        assert_eq!(WorldSettings::default().kill_distance, DEFAULT_KILL_DISTANCE_M);
        assert_eq!(World::default().rate(), DEFAULT_RATE_HZ);
        let shape = ShapeDef::Circle { radius: 0.5 };
        assert_eq!(
            BodyDef::new(shape.clone()).to_desc(),
            Ok(BodyDesc::new(ShapeDesc::from(&shape)).unwrap())
        );
        assert_eq!(
            World::default().to_scene_def(),
            SceneDef::default(),
            "an empty world saves as the empty scene"
        );
    }

    #[test]
    fn enum_twins_keep_their_names_both_ways() {
        for resolution in Resolution::ALL {
            let def = ResolutionDef::from(resolution);
            assert_eq!(def.name(), resolution.name());
            assert_eq!(Resolution::from(def), resolution);
        }
        for def in [
            ContinuousDef::Off,
            ContinuousDef::Interpolation,
            ContinuousDef::ConservativeAdvancement,
        ] {
            assert_eq!(ContinuousDef::from(ContinuousMode::from(def)), def);
        }
    }

    #[test]
    fn a_bad_body_says_what_and_where_as_a_one_body_scene() {
        // A bow tie: edge 0 crosses edge 2.
        let mut def = BodyDef::new(ShapeDef::Polygon {
            points: [(0.0, 0.0), (1.0, 1.0), (1.0, 0.0), (0.0, 1.0)]
                .map(|(x, y)| crate::math::Point(x, y))
                .to_vec(),
        });
        def.name = Some("tie".to_string());
        let error = def.to_desc().unwrap_err();
        let message = error.to_string();
        assert!(
            message.starts_with("(scene): body 0 (\"tie\"): the polygon intersects itself: edge 0"),
            "{message}"
        );
        def.shape = ShapeDef::Circle { radius: 1.0 };
        def.angle = f32::NAN;
        assert_eq!(
            def.to_desc().unwrap_err().to_string(),
            "(scene): body 0 (\"tie\"): angle must be finite, got NaN"
        );
    }
}
