//! The optional `lesson` block of a scene file: what turns an ordinary scene into a
//! lesson (title, the paragraph the student reads first, the algorithm to start with,
//! which two bodies are studied, named presets and the narrow-phase knobs).
//!
//! Same compatibility rules as the rest of the format ([`super::def`]): version 1 still,
//! every field but `number` and `title` has a default, unknown fields are errors. A
//! scene without the block is an ordinary scene; a scene with it still loads and
//! simulates in the sandbox like any other.
//!
//! ```ron
//! lesson: (
//!     number: 6,
//!     title: "GJK: do they overlap?",
//!     intro: "GJK asks whether the origin lies in A − B …",
//!     algorithm: GjkEpa,
//!     pair: (0, 1),
//!     presets: [
//!         (name: "apart", caption: "Moved apart: GJK says no.",
//!          bodies: [(body: 1, position: (3.0, 0.0))]),
//!     ],
//!     knobs: (gjk_max_iterations: 8),
//! ),
//! ```

use crate::math::Point;
use crate::narrow::{Algorithm, NarrowConfig, TouchingPolicy};
use serde::{Deserialize, Serialize};

/// Allowed values of the iteration-cap knobs: GJK and EPA need a handful of iterations
/// on lesson shapes; 1 shows a cap being hit, more than 1000 only hides a cycle longer.
pub const ITERATION_CAP_RANGE: std::ops::RangeInclusive<u32> = 1..=1000;

/// What a lesson's trace records: the narrow phase on a pair of bodies, or another
/// stage of the pipeline on the scene's bodies.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Topic {
    /// The narrow phase on `pair` (SAT, GJK, EPA, clipping): lessons 1–10.
    #[default]
    Narrow,
    /// The bounding volumes of the first body, with their tightness (Zakharov and
    /// Sadykov 2003).
    BoundingVolumes,
    /// Sweep and prune over the scene's bodies as they move (Chulanov 2016).
    SweepAndPrune,
    /// The uniform grid of the spatial hash over the scene's bodies.
    SpatialHash,
    /// A static tree over the first body's edges (`geometry::EdgeTree`), descended
    /// against the second body; the cost model T = Nv·Cv + Np·Cp per node volume
    /// (Liu, Jiang and Shi 2018; Gottschalk, Lin and Manocha 1996).
    Trees,
    /// The dynamic AABB tree: insertions with the perimeter cost, rotations, a query.
    DynamicTree,
    /// Pseudo-continuous detection of a fast body against a thin wall: motion
    /// interpolation with bisection (Ren and Xie 2011) and conservative advancement.
    Continuous,
    /// Contact resolution three ways (literal projection, position-based, impulses) on a
    /// small stack, world step by world step.
    Resolution,
}

impl Topic {
    /// True for the narrow-phase lessons.
    pub fn is_narrow(&self) -> bool {
        *self == Topic::Narrow
    }
}

/// A lesson: what the lesson player shows for this scene.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LessonDef {
    /// Place in the lesson list, from 1. Required.
    pub number: u32,
    /// Title shown in the menu and above the views. Required, not empty.
    pub title: String,
    /// The paragraph the student reads before the first step. Default: empty.
    #[serde(default)]
    pub intro: String,
    /// What the lesson's trace is a trace of. Default `Narrow`: the narrow phase on the
    /// two bodies of `pair` (lessons 1–10); the other topics replay another part of the
    /// pipeline on the scene's bodies and ignore `algorithm`, `compare_with`, `pair` and
    /// `knobs`.
    #[serde(default, skip_serializing_if = "Topic::is_narrow")]
    pub topic: Topic,
    /// The algorithm the player starts with. Default `NonConvexSat`.
    #[serde(default)]
    pub algorithm: Algorithm,
    /// Other algorithms the lesson compares with (shown side by side or on demand).
    /// Default: none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub compare_with: Vec<Algorithm>,
    /// The two bodies studied, A then B (indices into `bodies`, distinct). Default (0, 1).
    #[serde(default = "default_pair")]
    pub pair: (usize, usize),
    /// Named alternative poses or vertex sets of the same lesson. Default: none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub presets: Vec<PresetDef>,
    /// Narrow-phase knobs; those left out keep the core's defaults.
    #[serde(default, skip_serializing_if = "KnobsDef::is_default")]
    pub knobs: KnobsDef,
}

impl LessonDef {
    /// A lesson numbered `number` titled `title`, every other field at its default.
    pub fn new(number: u32, title: impl Into<String>) -> Self {
        LessonDef {
            number,
            title: title.into(),
            intro: String::new(),
            topic: Topic::default(),
            algorithm: Algorithm::default(),
            compare_with: Vec::new(),
            pair: default_pair(),
            presets: Vec::new(),
            knobs: KnobsDef::default(),
        }
    }

    /// The starting algorithm followed by the compared ones, without repeats.
    pub fn algorithms(&self) -> Vec<Algorithm> {
        let mut all = vec![self.algorithm];
        for a in &self.compare_with {
            if !all.contains(a) {
                all.push(*a);
            }
        }
        all
    }

    /// The same lesson over a scene whose bodies were renumbered: `new_index(i)` is the
    /// new index of old body `i`, `None` when it is gone. `None` when a body the lesson
    /// names (its pair or a preset's) is gone: the lesson cannot be kept then.
    pub fn renumbered(&self, new_index: impl Fn(usize) -> Option<usize>) -> Option<LessonDef> {
        let mut lesson = self.clone();
        if self.topic.is_narrow() {
            lesson.pair = (new_index(self.pair.0)?, new_index(self.pair.1)?);
        }
        for preset in &mut lesson.presets {
            for over in &mut preset.bodies {
                over.body = new_index(over.body)?;
            }
        }
        Some(lesson)
    }
}

/// A named variant of a lesson: some bodies posed differently, or with other vertices.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PresetDef {
    /// Short name for the preset menu ("false positive"). Required, not empty.
    pub name: String,
    /// One or two sentences on what this preset shows. Default: empty.
    #[serde(default)]
    pub caption: String,
    /// The overrides, per body. Default: none (the scene as written).
    #[serde(default)]
    pub bodies: Vec<BodyOverrideDef>,
    /// The node volume of the edge tree a `Trees` lesson descends (other topics ignore
    /// it). Default: none (boxes).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tree_volume: Option<crate::bounds::BoundKind>,
}

/// What a preset changes on one body; the fields left out keep the scene's values.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BodyOverrideDef {
    /// Index of the body in `bodies`. Required.
    pub body: usize,
    /// New position of the body's origin (m, world frame).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub position: Option<Point>,
    /// New angle (radians, counter-clockwise).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub angle: Option<f32>,
    /// New vertices (local frame) for a polygon body; must make a valid polygon.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub points: Option<Vec<Point>>,
}

/// The narrow-phase knobs a lesson may set; each maps to a field of [`NarrowConfig`]
/// and, left out, keeps that field's default.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct KnobsDef {
    /// [`NarrowConfig::touch_tolerance`]: finite, ≥ 0 (a fraction of the scale).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub touch_tolerance: Option<f32>,
    /// [`NarrowConfig::touching`]: `Separated` or `Intersecting`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub touching: Option<TouchingPolicy>,
    /// [`NarrowConfig::gjk_epsilon`]: finite, > 0.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gjk_epsilon: Option<f32>,
    /// [`NarrowConfig::gjk_max_iterations`]: in [`ITERATION_CAP_RANGE`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gjk_max_iterations: Option<u32>,
    /// [`NarrowConfig::epa_epsilon`]: finite, > 0.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub epa_epsilon: Option<f32>,
    /// [`NarrowConfig::epa_max_iterations`]: in [`ITERATION_CAP_RANGE`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub epa_max_iterations: Option<u32>,
    /// [`NarrowConfig::gjk_initial_direction`]: finite and not zero (world frame).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gjk_initial_direction: Option<Point>,
    /// [`NarrowConfig::cull_by_bounds`]: `false` runs the exact test on every piece
    /// pair, even when their bounding boxes are apart.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cull_by_bounds: Option<bool>,
}

impl KnobsDef {
    /// True when no knob is set.
    pub fn is_default(&self) -> bool {
        *self == KnobsDef::default()
    }

    /// The narrow-phase configuration: `base` with every knob that is set applied.
    pub fn apply(&self, base: NarrowConfig) -> NarrowConfig {
        NarrowConfig {
            touch_tolerance: self.touch_tolerance.unwrap_or(base.touch_tolerance),
            touching: self.touching.unwrap_or(base.touching),
            gjk_max_iterations: self.gjk_max_iterations.unwrap_or(base.gjk_max_iterations),
            gjk_epsilon: self.gjk_epsilon.unwrap_or(base.gjk_epsilon),
            epa_max_iterations: self.epa_max_iterations.unwrap_or(base.epa_max_iterations),
            epa_epsilon: self.epa_epsilon.unwrap_or(base.epa_epsilon),
            gjk_initial_direction: self
                .gjk_initial_direction
                .map(Into::into)
                .or(base.gjk_initial_direction),
            cull_by_bounds: self.cull_by_bounds.unwrap_or(base.cull_by_bounds),
            edge_tree: base.edge_tree,
        }
    }
}

fn default_pair() -> (usize, usize) {
    (0, 1)
}
