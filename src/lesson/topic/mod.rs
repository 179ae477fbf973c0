//! Lessons on the rest of the pipeline: bounding volumes, sweep and prune, the spatial
//! hash, the dynamic tree, continuous detection and resolution. Their traces are not a
//! narrow phase's [`crate::narrow::Trace`] but a [`TopicTrace`]: every step carries its
//! own narration card, the pseudocode line it is on, what the two views draw (as
//! [`Mark`]s, data: the core never draws) and, when the step computes something a
//! student can point at, its predict [`Target`].
//!
//! Each step holds the whole picture of its moment, not a change to the one before, so
//! stepping back is exact and the views need no state of their own. The traces are
//! recorded from the library's own code (`crate::bounds`, `crate::broad`,
//! `crate::dynamics`): a lesson never re-implements what it teaches.
//!
//! | topic | file | what a step is |
//! |---|---|---|
//! | [`Topic::BoundingVolumes`] | `bounding_volumes.rs` | one volume built, its τ found |
//! | [`Topic::Trees`] | `trees.rs` | one level of a static edge tree, one node test of a descent, one node volume's counts |
//! | [`Topic::SweepAndPrune`] | `sweep_and_prune.rs` | one swap of the insertion sort, one comparison of the sweep |
//! | [`Topic::SpatialHash`] | `spatial_hash.rs` | one box into its cells, one cell's pairs |
//! | [`Topic::DynamicTree`] | `dynamic_tree.rs` | one node of an insertion's descent, a rotation, the query |
//! | [`Topic::Continuous`] | `continuous/` | one interpolated pose, one bisection bracket, one advancement |
//! | [`Topic::Resolution`] | `resolution/` | one pass of a solver inside a watched world step (a velocity iteration, a position pass, a literal pair move) |
//!
//! [`TopicLesson`] opens such a lesson from a scene (its `lesson` block names the topic)
//! and applies its presets; [`TopicLesson::trace`] records the trace.

mod bounding_volumes;
mod continuous;
mod dynamic_tree;
mod resolution;
mod spatial_hash;
mod sweep_and_prune;
mod trees;

pub use trees::{CostCount, CostCounts, MeasuredCost};

use super::lesson::LessonError;
use super::narration::Card;
use super::player::Steps;
use super::quiz::QuizQuestion;
use crate::bounds::Aabb;
use crate::geometry::Shape;
use crate::math::{Pose, Vec2};
use crate::scene::{LessonDef, PresetDef, Scene, SceneDef, Topic};

/// A click this close to an answer, as a share of the scene's scale, is a hit (the
/// narrow-phase lessons' share, [`super::predict::TOLERANCE_SHARE`]).
pub use super::predict::TOLERANCE_SHARE;

/// Which of the two views a mark or a question belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Pane {
    /// The world: the bodies where they are (metres, world frame).
    World,
    /// The diagram beside it (its own coordinates: a chart, the sorted list).
    Diagram,
}

/// What a mark stands for; the app picks its colour and width.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Role {
    /// Body `i` of the scene (colours cycle).
    Body(usize),
    /// A bounding volume of this kind.
    Volume(VolumeKind),
    /// The point pair realising the tightness τ.
    Tightness,
    /// The diameter d.
    Diameter,
    /// What the step is about.
    Active,
    /// What it is compared with (a swap's other interval, the interval scanned).
    Partner,
    /// A pair found.
    Pair,
    /// Tested and rejected.
    Rejected,
    /// Background structure (guides, finished parts).
    Muted,
}

/// The bounding volumes lesson 11 compares (the OBB twice: two ways to pick its axes).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum VolumeKind {
    /// Axis-aligned box.
    Aabb,
    /// Minimal enclosing circle.
    Circle,
    /// Oriented box, minimum-area axes (rotating calipers).
    ObbMinArea,
    /// Oriented box, covariance axes (Liu et al. 2018).
    ObbCovariance,
    /// 8-DOP.
    Kdop8,
}

impl VolumeKind {
    /// In the order the lesson builds them.
    pub const ALL: [VolumeKind; 5] = [
        VolumeKind::Aabb,
        VolumeKind::Circle,
        VolumeKind::ObbMinArea,
        VolumeKind::ObbCovariance,
        VolumeKind::Kdop8,
    ];

    /// The name in cards and tables.
    pub fn name(self) -> &'static str {
        match self {
            VolumeKind::Aabb => "AABB",
            VolumeKind::Circle => "circle",
            VolumeKind::ObbMinArea => "OBB (min-area)",
            VolumeKind::ObbCovariance => "OBB (covariance)",
            VolumeKind::Kdop8 => "8-DOP",
        }
    }
}

/// Where a label would like to sit next to its anchor (the app's placer may move it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    /// Right of the anchor.
    Right,
    /// Left of it.
    Left,
    /// Above it.
    Above,
    /// Below it.
    Below,
}

/// One thing to draw, in its pane's coordinates.
#[derive(Clone, Debug, PartialEq)]
pub enum Mark {
    /// A closed outline.
    Outline {
        /// Corners, in order.
        points: Vec<Vec2>,
        /// What it is.
        role: Role,
    },
    /// A translucent fill of a convex polygon.
    Fill {
        /// Corners of a convex polygon.
        points: Vec<Vec2>,
        /// What it is.
        role: Role,
    },
    /// A circle.
    Circle {
        /// Centre.
        center: Vec2,
        /// Radius.
        radius: f32,
        /// What it is.
        role: Role,
        /// Filled (translucent) or only its rim.
        filled: bool,
    },
    /// A segment.
    Segment {
        /// One end.
        from: Vec2,
        /// The other end.
        to: Vec2,
        /// What it is.
        role: Role,
        /// Dashed (a relation, not a thing).
        dashed: bool,
    },
    /// An arrow from `from` along `vector`.
    Arrow {
        /// Tail.
        from: Vec2,
        /// Tail to head.
        vector: Vec2,
        /// What it is.
        role: Role,
    },
    /// A dot at a point.
    Dot {
        /// Where.
        at: Vec2,
        /// What it is.
        role: Role,
    },
    /// A text naming a point.
    Label {
        /// The point it names.
        at: Vec2,
        /// The words.
        text: String,
        /// Its colour's meaning.
        role: Role,
        /// Where it would like to sit.
        side: Side,
    },
}

impl Mark {
    /// A label at `at`.
    pub fn label(at: Vec2, text: impl Into<String>, role: Role, side: Side) -> Mark {
        Mark::Label {
            at,
            text: text.into(),
            role,
            side,
        }
    }

    /// A solid segment.
    pub fn segment(from: Vec2, to: Vec2, role: Role) -> Mark {
        Mark::Segment {
            from,
            to,
            role,
            dashed: false,
        }
    }

    /// The points the mark covers (for bounds).
    fn points(&self) -> Vec<Vec2> {
        match self {
            Mark::Outline { points, .. } | Mark::Fill { points, .. } => points.clone(),
            Mark::Circle { center, radius, .. } => vec![*center - Vec2::splat(*radius), *center + Vec2::splat(*radius)],
            Mark::Segment { from, to, .. } => vec![*from, *to],
            Mark::Arrow { from, vector, .. } => vec![*from, *from + *vector],
            Mark::Dot { at, .. } | Mark::Label { at, .. } => vec![*at],
        }
    }
}

/// What a student predicts before a step is shown: where its key point is.
#[derive(Clone, Debug, PartialEq)]
pub struct Target {
    /// The question.
    pub prompt: String,
    /// The view to click in.
    pub pane: Pane,
    /// The right answers (any one counts), in the pane's coordinates.
    pub answers: Vec<Vec2>,
    /// How close counts as right (pane units): a share of the scene's scale.
    pub tolerance: f32,
}

impl Target {
    /// Scores a click at `click` (pane coordinates) as the answer to step `step`.
    pub fn score(&self, step: usize, click: Vec2) -> super::Attempt {
        let answer = self
            .answers
            .iter()
            .copied()
            .min_by(|p, q| (*p - click).length().total_cmp(&(*q - click).length()))
            .unwrap_or(click);
        let distance = (answer - click).length();
        super::Attempt {
            step,
            click,
            answer,
            distance,
            hit: distance <= self.tolerance,
        }
    }
}

/// One step of a topic's trace: what it says and what the views show.
#[derive(Clone, Debug, PartialEq)]
pub struct TopicStep {
    /// The narration card (title, text with live numbers, pseudocode line).
    pub card: Card,
    /// Steps with the same number form one iteration ("whole iterations" in the player).
    pub iteration: usize,
    /// What the world view draws.
    pub world: Vec<Mark>,
    /// What the diagram draws.
    pub diagram: Vec<Mark>,
    /// The question predict mode asks before this step, if any.
    pub target: Option<Target>,
}

/// A table the panel shows beside the trace (ρ per volume and shape).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Table {
    /// What it lists.
    pub title: String,
    /// Column headings.
    pub header: Vec<String>,
    /// Rows, as many cells as headings.
    pub rows: Vec<Vec<String>>,
}

/// A topic lesson's recorded trace.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TopicTrace {
    /// The world view's title.
    pub world_title: String,
    /// The diagram's title.
    pub diagram_title: String,
    /// Every step.
    pub steps: Vec<TopicStep>,
    /// The end-of-lesson quiz, built from the recorded data.
    pub quiz: Vec<QuizQuestion>,
    /// A table for the panel, if the topic has one.
    pub table: Option<Table>,
    /// Lesson 12: the counts Nv and Np of each node volume's descent. The times that
    /// turn them into T are measured by [`TopicLesson::measure_costs`], outside the
    /// trace, so that the trace stays exact.
    pub cost: Option<CostCounts>,
    /// What the world view must show: every world mark of every step, so that the view
    /// does not move while stepping.
    pub world_bounds: Option<Aabb>,
    /// The same for the diagram.
    pub diagram_bounds: Option<Aabb>,
}

impl TopicTrace {
    /// Fills `world_bounds` and `diagram_bounds` from the marks of every step.
    fn with_bounds(mut self) -> TopicTrace {
        let bounds = |pick: fn(&TopicStep) -> &Vec<Mark>, steps: &[TopicStep]| {
            let points: Vec<Vec2> = steps
                .iter()
                .flat_map(|s| pick(s).iter().flat_map(Mark::points))
                .filter(|p| p.is_finite())
                .collect();
            (!points.is_empty()).then(|| Aabb::from_points(&points))
        };
        self.world_bounds = bounds(|s| &s.world, &self.steps);
        self.diagram_bounds = bounds(|s| &s.diagram, &self.steps);
        self
    }
}

impl Steps for TopicTrace {
    fn step_count(&self) -> usize {
        self.steps.len()
    }

    fn starts_iteration(&self, index: usize) -> bool {
        index == 0
            || match (self.steps.get(index), self.steps.get(index.wrapping_sub(1))) {
                (Some(s), Some(p)) => s.iteration != p.iteration,
                _ => false,
            }
    }

    fn step_kind(&self, index: usize) -> u32 {
        self.steps
            .get(index)
            .map_or(u32::MAX, |s| s.card.pseudocode_line as u32)
    }
}

/// A lesson whose topic is not the narrow phase: the scene's bodies (posed as written or
/// by a preset) and the trace its topic records on them.
#[derive(Clone, Debug, PartialEq)]
pub struct TopicLesson {
    def: LessonDef,
    /// The scene as written.
    written: SceneDef,
    /// The scene with the active preset applied.
    posed: Scene,
    preset: Option<usize>,
}

impl TopicLesson {
    /// Opens the lesson of `scene`; a narrow-phase lesson (or no lesson) is an error.
    pub fn from_scene(scene: &Scene) -> Result<TopicLesson, LessonError> {
        let def = scene.def().lesson.clone().ok_or(LessonError::NotALesson)?;
        if def.topic.is_narrow() {
            return Err(LessonError::WrongTopic(def.topic));
        }
        Ok(TopicLesson {
            def,
            written: scene.def().clone(),
            posed: scene.clone(),
            preset: None,
        })
    }

    /// The lesson block.
    pub fn def(&self) -> &LessonDef {
        &self.def
    }

    /// What it teaches.
    pub fn topic(&self) -> Topic {
        self.def.topic
    }

    /// Number in the lesson list.
    pub fn number(&self) -> u32 {
        self.def.number
    }

    /// Title.
    pub fn title(&self) -> &str {
        &self.def.title
    }

    /// The paragraph the student reads first.
    pub fn intro(&self) -> &str {
        &self.def.intro
    }

    /// The presets.
    pub fn presets(&self) -> &[PresetDef] {
        &self.def.presets
    }

    /// The active preset (`None`: the scene as written).
    pub fn preset(&self) -> Option<usize> {
        self.preset
    }

    /// The scene as the lesson shows it (the preset applied).
    pub fn scene(&self) -> &Scene {
        &self.posed
    }

    /// The scene as written, for saving.
    pub fn written(&self) -> &SceneDef {
        &self.written
    }

    /// Applies preset `preset` (`None`: the scene as written). An unknown index, or a
    /// preset that makes an invalid scene, is refused and the lesson is unchanged.
    pub fn set_preset(&mut self, preset: Option<usize>) -> Result<(), String> {
        let mut def = self.written.clone();
        if let Some(p) = preset {
            let over = self.def.presets.get(p).ok_or(format!("there is no preset {p}"))?;
            apply_preset(&mut def, over);
        }
        self.posed = Scene::from_def(def).map_err(|e| e.to_string())?;
        self.preset = preset;
        Ok(())
    }

    /// The node volume of lesson 12's edge tree: the active preset's, else boxes.
    pub fn tree_volume(&self) -> crate::bounds::BoundKind {
        self.preset
            .and_then(|p| self.def.presets.get(p))
            .and_then(|p| p.tree_volume)
            .unwrap_or(crate::bounds::BoundKind::Aabb)
    }

    /// Lesson 12: Cv and Cp of every node volume, timed now on this machine (a few
    /// milliseconds, `std::time::Instant`; the window's clock is not read). Empty for
    /// every other topic. Never part of the trace: times differ from run to run.
    pub fn measure_costs(&self) -> Vec<MeasuredCost> {
        match self.def.topic {
            Topic::Trees => trees::measure(&self.posed),
            _ => Vec::new(),
        }
    }

    /// Records the topic's trace on the posed scene.
    pub fn trace(&self) -> TopicTrace {
        let trace = match self.def.topic {
            Topic::BoundingVolumes => bounding_volumes::trace(self),
            Topic::SweepAndPrune => sweep_and_prune::trace(&self.posed),
            Topic::SpatialHash => spatial_hash::trace(&self.posed),
            Topic::Trees => trees::trace(&self.posed, self.tree_volume()),
            Topic::DynamicTree => dynamic_tree::trace(&self.posed),
            Topic::Continuous => continuous::trace(&self.posed),
            Topic::Resolution => resolution::trace(&self.posed),
            // A narrow-phase lesson never opens here (`from_scene` refuses it): a
            // one-step trace that says so, rather than a panic.
            Topic::Narrow => placeholder(self.def.topic),
        };
        trace.with_bounds()
    }
}

/// `def` with `preset`'s overrides applied.
fn apply_preset(def: &mut SceneDef, preset: &PresetDef) {
    for o in &preset.bodies {
        if let Some(body) = def.bodies.get_mut(o.body) {
            if let Some(p) = o.position {
                body.position = p;
            }
            if let Some(a) = o.angle {
                body.angle = a;
            }
            if let Some(points) = &o.points {
                body.shape = crate::scene::ShapeDef::Polygon { points: points.clone() };
            }
        }
    }
}

fn placeholder(topic: Topic) -> TopicTrace {
    TopicTrace {
        world_title: "World".to_string(),
        diagram_title: "Diagram".to_string(),
        steps: vec![TopicStep {
            card: Card {
                title: format!("{topic:?}"),
                text: format!("The {topic:?} lesson has nothing to show: its scene has no bodies."),
                listing: super::Listing::DynamicTree,
                pseudocode_line: 0,
            },
            iteration: 0,
            world: Vec::new(),
            diagram: Vec::new(),
            target: None,
        }],
        ..TopicTrace::default()
    }
}

/// The marks of `shape` placed by `pose`: translucent convex pieces and the outline.
pub(crate) fn shape_marks(shape: &Shape, pose: &Pose, role: Role) -> Vec<Mark> {
    match shape {
        Shape::Circle(c) => vec![Mark::Circle {
            center: pose.translation,
            radius: c.radius(),
            role,
            filled: true,
        }],
        Shape::Segment(_) => {
            let v = world_vertices(shape, pose);
            vec![Mark::segment(v[0], v[v.len() - 1], role)]
        }
        Shape::Polygon(_) => {
            let mut marks: Vec<Mark> = (0..shape.piece_count())
                .map(|i| Mark::Fill {
                    points: shape.piece(i).vertices.iter().map(|v| pose.apply_point(*v)).collect(),
                    role,
                })
                .collect();
            marks.push(Mark::Outline {
                points: world_vertices(shape, pose),
                role,
            });
            marks
        }
    }
}

/// The vertices of `shape` placed by `pose` (a circle gives its centre).
pub(crate) fn world_vertices(shape: &Shape, pose: &Pose) -> Vec<Vec2> {
    shape.whole().vertices.iter().map(|v| pose.apply_point(*v)).collect()
}

/// Each body's axis-aligned box at `poses` (one per body), as the broad phases see it.
fn body_boxes(scene: &Scene, poses: &[crate::math::Pose]) -> Vec<crate::bounds::Aabb> {
    use crate::bounds::{Aabb, BoundKind, BoundingVolume};
    scene
        .shapes()
        .iter()
        .zip(poses)
        .map(|(s, p)| match BoundingVolume::of_shape(s, p, BoundKind::Aabb) {
            BoundingVolume::Aabb(b) => b,
            other => Aabb::from_points(&other.outline()),
        })
        .collect()
}

/// The broad-phase proxies of `boxes` (one per body; static bodies marked static).
fn body_proxies(scene: &Scene, boxes: &[crate::bounds::Aabb]) -> Vec<crate::broad::Proxy> {
    boxes
        .iter()
        .enumerate()
        .map(|(i, b)| {
            crate::broad::Proxy::new(
                i as u32,
                *b,
                scene.def().bodies[i].kind == crate::scene::BodyKind::Static,
            )
        })
        .collect()
}
