//! A lesson's two shapes, their poses, its preset and knobs, and the queries the player
//! needs: a traced run of an algorithm, the exact answer, and A − B with its sources.

use crate::geometry::{Polygon, Shape, ShapeError};
use crate::math::{Pose, Vec2};
use crate::narrow::exact::{exact_penetration, polygons_overlap, ExactPenetration};
use crate::narrow::trace::{Owner, SupportPoint};
use crate::narrow::{collide, minkowski_difference_hull_sourced, Algorithm, Contact, NarrowConfig, Trace};
use crate::scene::{LessonDef, PresetDef, Scene, SceneDef, ShapeDef};

/// Why a scene cannot be opened as a lesson.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LessonError {
    /// The scene has no `lesson` block.
    #[error("this scene is not a lesson (it has no `lesson` block)")]
    NotALesson,
    /// The lesson's topic is not the one asked for (a narrow-phase lesson opened as a
    /// topic lesson, or the other way round).
    #[error("this lesson's topic is {0:?}")]
    WrongTopic(crate::scene::Topic),
}

/// Why an edit during a lesson was refused; the lesson is left as it was.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum EditError {
    /// The body is a circle or a segment: it has no polygon vertices to drag.
    #[error("body {0:?} is not a polygon; only polygon vertices can be dragged")]
    NotAPolygon(Owner),
    /// There is no vertex with that index.
    #[error("body {owner:?} has no vertex {index} (it has {count})")]
    NoSuchVertex {
        /// Which body.
        owner: Owner,
        /// The index asked for.
        index: usize,
        /// How many vertices it has.
        count: usize,
    },
    /// The edit would make an invalid shape (a polygon crossing itself, zero area, a
    /// non-finite coordinate): the validation error says which edges cross.
    #[error(transparent)]
    Shape(#[from] ShapeError),
    /// There is no preset with that index.
    #[error("there is no preset {0}")]
    NoSuchPreset(usize),
    /// A pose with a NaN or infinite number.
    #[error("the pose must be finite")]
    NonFinitePose,
}

/// One of the two bodies of a lesson.
#[derive(Clone, Debug, PartialEq)]
struct LessonBody {
    /// Index of the body in the scene.
    index: usize,
    /// Its shape as written (with edits applied), local frame.
    shape_def: ShapeDef,
    /// The built shape.
    shape: Shape,
    /// Where its origin is (m, world frame).
    position: Vec2,
    /// Its angle (radians), kept as given so that saving writes it back bit for bit.
    angle: f32,
}

impl LessonBody {
    fn pose(&self) -> Pose {
        Pose::new(self.position, self.angle)
    }
}

/// The exact answer for a polygon pair, next to the algorithm's (the lesson 4 panel).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ExactAnswer {
    /// Whether the interiors overlap (positive intersection area).
    pub intersect: bool,
    /// The true minimum translation, when they overlap.
    pub penetration: Option<ExactPenetration>,
}

/// The Minkowski difference of one convex piece of A and one of B, each vertex with the
/// vertices it came from (world frame).
#[derive(Clone, Debug, PartialEq)]
pub struct MinkowskiPiece {
    /// Piece of A.
    pub piece_a: usize,
    /// Piece of B.
    pub piece_b: usize,
    /// Counter-clockwise hull of A_i − B_j; `index_a`/`index_b` are vertex indices within
    /// the pieces, `a` and `b` the world points.
    pub vertices: Vec<SupportPoint>,
    /// The radius that rounds it (a circle's radius), 0 for polygons.
    pub radius: f32,
}

/// A − B for the Minkowski view: the union of the pieces' differences (one piece for two
/// convex shapes).
#[derive(Clone, Debug, PartialEq)]
pub struct MinkowskiView {
    /// One entry per pair of convex pieces.
    pub pieces: Vec<MinkowskiPiece>,
}

/// A lesson: the two bodies of a scene's lesson block, posed, with the knobs.
#[derive(Clone, Debug, PartialEq)]
pub struct Lesson {
    def: LessonDef,
    scene: SceneDef,
    bodies: [LessonBody; 2],
    /// The two bodies as the scene writes them (what presets start from).
    written: [LessonBody; 2],
    preset: Option<usize>,
    config: NarrowConfig,
}

impl Lesson {
    /// Opens the lesson of `scene` (validated by the loader: the pair and the presets name
    /// existing bodies, preset vertices make valid polygons).
    pub fn from_scene(scene: &Scene) -> Result<Lesson, LessonError> {
        let def = scene.def().lesson.clone().ok_or(LessonError::NotALesson)?;
        if !def.topic.is_narrow() {
            // Lessons 11 on: their own traces, `super::topic::TopicLesson`.
            return Err(LessonError::WrongTopic(def.topic));
        }
        let body = |index: usize| LessonBody {
            index,
            shape_def: scene.def().bodies[index].shape.clone(),
            shape: scene.shapes()[index].clone(),
            position: scene.def().bodies[index].position.into(),
            angle: scene.def().bodies[index].angle,
        };
        let bodies = [body(def.pair.0), body(def.pair.1)];
        let config = def.knobs.apply(NarrowConfig::default());
        Ok(Lesson {
            def,
            scene: scene.def().clone(),
            written: bodies.clone(),
            bodies,
            preset: None,
            config,
        })
    }

    /// The lesson block.
    pub fn def(&self) -> &LessonDef {
        &self.def
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

    /// The algorithm the lesson starts with.
    pub fn algorithm(&self) -> Algorithm {
        self.def.algorithm
    }

    /// The starting algorithm and the ones it compares with.
    pub fn algorithms(&self) -> Vec<Algorithm> {
        self.def.algorithms()
    }

    /// The presets.
    pub fn presets(&self) -> &[PresetDef] {
        &self.def.presets
    }

    /// The active preset (`None`: the scene as written).
    pub fn preset(&self) -> Option<usize> {
        self.preset
    }

    /// Index of the scene body playing `owner`.
    pub fn body_index(&self, owner: Owner) -> usize {
        self.body(owner).index
    }

    /// Shape of A or B, local frame.
    pub fn shape(&self, owner: Owner) -> &Shape {
        &self.body(owner).shape
    }

    /// Pose of A or B.
    pub fn pose(&self, owner: Owner) -> Pose {
        self.body(owner).pose()
    }

    /// The vertices of A or B in the world frame, counter-clockwise (as the trace's
    /// vertex and edge indices count them); a circle gives its centre.
    pub fn world_vertices(&self, owner: Owner) -> Vec<Vec2> {
        let b = self.body(owner);
        let pose = b.pose();
        b.shape.whole().vertices.iter().map(|v| pose.apply_point(*v)).collect()
    }

    /// The narrow-phase configuration the knobs give.
    pub fn config(&self) -> &NarrowConfig {
        &self.config
    }

    /// Turns the knobs (epsilon, iteration caps, initial direction, touching policy).
    pub fn set_config(&mut self, config: NarrowConfig) {
        self.config = config;
    }

    fn body(&self, owner: Owner) -> &LessonBody {
        match owner {
            Owner::A => &self.bodies[0],
            Owner::B => &self.bodies[1],
        }
    }

    fn body_mut(&mut self, owner: Owner) -> &mut LessonBody {
        match owner {
            Owner::A => &mut self.bodies[0],
            Owner::B => &mut self.bodies[1],
        }
    }

    /// Runs `algorithm` once on A and B with a trace: the answer and every step.
    pub fn trace(&self, algorithm: Algorithm) -> (Contact, Trace) {
        let mut trace = Trace::new();
        let [a, b] = &self.bodies;
        let contact = collide(
            &a.shape,
            &a.pose(),
            &b.shape,
            &b.pose(),
            algorithm,
            &self.config,
            Some(&mut trace),
        );
        (contact, trace)
    }

    /// The exact answer (polygons and segments only; `None` with a circle).
    pub fn exact(&self) -> Option<ExactAnswer> {
        let [a, b] = &self.bodies;
        if matches!(a.shape, Shape::Circle(_)) || matches!(b.shape, Shape::Circle(_)) {
            return None;
        }
        let (pose_a, pose_b) = (a.pose(), b.pose());
        let penetration = exact_penetration(&a.shape, &pose_a, &b.shape, &pose_b);
        let intersect = matches!((&a.shape, &b.shape), (Shape::Polygon(_), Shape::Polygon(_)))
            && polygons_overlap(&a.shape, &pose_a, &b.shape, &pose_b);
        Some(ExactAnswer {
            intersect: intersect || penetration.is_some(),
            penetration,
        })
    }

    /// A − B piece by piece, every vertex with its source pair.
    pub fn minkowski(&self) -> MinkowskiView {
        let [a, b] = &self.bodies;
        let (pose_a, pose_b) = (a.pose(), b.pose());
        let mut pieces = Vec::new();
        for i in 0..a.shape.piece_count() {
            for j in 0..b.shape.piece_count() {
                let (va, vb) = (a.shape.piece(i), b.shape.piece(j));
                pieces.push(MinkowskiPiece {
                    piece_a: i,
                    piece_b: j,
                    vertices: minkowski_difference_hull_sourced(va, &pose_a, vb, &pose_b),
                    radius: va.radius + vb.radius,
                });
            }
        }
        MinkowskiView { pieces }
    }

    /// Moves A or B: its origin to `position` (m, world frame), turned by `angle`
    /// (radians, counter-clockwise).
    pub fn set_pose(&mut self, owner: Owner, position: Vec2, angle: f32) -> Result<(), EditError> {
        if !position.is_finite() || !angle.is_finite() {
            return Err(EditError::NonFinitePose);
        }
        let body = self.body_mut(owner);
        body.position = position;
        body.angle = angle;
        Ok(())
    }

    /// Moves vertex `index` (counter-clockwise numbering, as [`Lesson::world_vertices`])
    /// of polygon A or B to `world_point`. When the polygon would cross itself (or lose
    /// its area) the validation error comes back and the lesson is unchanged. The
    /// polygon is renormalised (counter-clockwise, collinear vertices dropped), so
    /// indices can change after a drag that turns it inside out.
    pub fn drag_vertex(&mut self, owner: Owner, index: usize, world_point: Vec2) -> Result<(), EditError> {
        let body = self.body(owner);
        let Shape::Polygon(polygon) = &body.shape else {
            return Err(EditError::NotAPolygon(owner));
        };
        let mut points = polygon.vertices().to_vec();
        let count = points.len();
        let slot = points
            .get_mut(index)
            .ok_or(EditError::NoSuchVertex { owner, index, count })?;
        *slot = body.pose().apply_inv_point(world_point);
        self.set_polygon(owner, &points)
    }

    /// Replaces polygon A or B by `local_points`, validated as a scene file's polygon.
    pub fn set_polygon(&mut self, owner: Owner, local_points: &[Vec2]) -> Result<(), EditError> {
        if !matches!(self.body(owner).shape, Shape::Polygon(_)) {
            return Err(EditError::NotAPolygon(owner));
        }
        let polygon = Polygon::new(local_points).map_err(ShapeError::from)?;
        let body = self.body_mut(owner);
        body.shape = Shape::Polygon(polygon);
        body.shape_def = ShapeDef::Polygon {
            points: local_points.iter().map(|&p| p.into()).collect(),
        };
        Ok(())
    }

    /// Applies preset `preset` (`None`: back to the scene as written). Knobs are kept.
    /// Presets were validated with the scene, so only an unknown index fails.
    pub fn set_preset(&mut self, preset: Option<usize>) -> Result<(), EditError> {
        let overrides = match preset {
            None => Vec::new(),
            Some(p) => self
                .def
                .presets
                .get(p)
                .ok_or(EditError::NoSuchPreset(p))?
                .bodies
                .clone(),
        };
        let mut next = self.clone();
        next.bodies = self.written.clone();
        for owner in [Owner::A, Owner::B] {
            let index = next.body(owner).index;
            let written = &self.scene.bodies[index];
            let (mut translation, mut angle) = (Vec2::from(written.position), written.angle);
            for o in overrides.iter().filter(|o| o.body == index) {
                translation = o.position.map_or(translation, Vec2::from);
                angle = o.angle.unwrap_or(angle);
                if let Some(points) = &o.points {
                    let local: Vec<Vec2> = points.iter().map(|&q| q.into()).collect();
                    next.set_polygon(owner, &local)?;
                }
            }
            let body = next.body_mut(owner);
            body.position = translation;
            body.angle = angle;
        }
        next.preset = preset;
        *self = next;
        Ok(())
    }

    /// The scene with the lesson's current poses and vertices written into its two
    /// bodies, ready to save (the lesson block is kept).
    pub fn to_scene_def(&self) -> SceneDef {
        let mut def = self.scene.clone();
        for b in &self.bodies {
            let body = &mut def.bodies[b.index];
            body.shape = b.shape_def.clone();
            body.position = b.position.into();
            body.angle = b.angle;
        }
        def
    }
}
