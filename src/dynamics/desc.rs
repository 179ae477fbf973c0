//! What a body is before it is in a world: the engine's own body definition.
//!
//! A [`BodyDesc`] is what [`World::insert`](super::World::insert) and
//! [`World::replace`](super::World::replace) take: how the body moves, its shape (built
//! and validated, with the description it was built from), its pose and velocities and
//! its material. Its shape has already passed every check, so inserting cannot fail;
//! the errors belong to building ([`BodyDesc::new`] gives the geometry's
//! [`ShapeError`], which says which vertex or which two edges). Scene files reach the
//! engine through their own conversion, which adds the file's place to the error
//! (`crate::scene`'s `BodyDef::to_desc`); the engine knows nothing of files.

use crate::geometry::{Shape, ShapeDesc, ShapeError};
use crate::math::Vec2;
use std::sync::Arc;

/// How a body moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum BodyKind {
    /// Never moves (ground, walls); infinite mass.
    Static,
    /// Moved by forces and contacts. The default.
    #[default]
    Dynamic,
    /// Moved only by its own velocity; pushes dynamic bodies, is not pushed.
    Kinematic,
}

/// A body ready to be inserted into a world (see the module docs).
///
/// The pose and velocities are the body's *origin*'s (the local origin of its shape),
/// as a scene file gives them; the world turns them into its centre of mass's.
#[derive(Clone, Debug, PartialEq)]
pub struct BodyDesc {
    /// A name for messages and the user interface.
    pub name: Option<String>,
    /// Static, dynamic or kinematic.
    pub kind: BodyKind,
    /// Where the body's local origin sits in the world (m).
    pub position: Vec2,
    /// Rotation of the local frame (rad, counter-clockwise).
    pub angle: f32,
    /// Velocity of the local origin (m/s, world frame).
    pub linear_velocity: Vec2,
    /// Angular velocity (rad/s, counter-clockwise).
    pub angular_velocity: f32,
    /// Areal density (kg/m²). A density that leaves the mass zero or not finite makes
    /// the body behave as kinematic (it cannot be accelerated by an impulse).
    pub density: f32,
    /// Coulomb friction coefficient.
    pub friction: f32,
    /// Restitution in [0, 1].
    pub restitution: f32,
    /// The built shape; private to the engine so it always is the one `shape_desc`
    /// builds.
    pub(super) shape: Arc<Shape>,
    /// What `shape` was built from, kept so the body is saved as it was given.
    pub(super) shape_desc: ShapeDesc,
}

impl BodyDesc {
    /// A dynamic body of shape `shape` at the origin, at rest, with density 1 kg/m²,
    /// friction 0.6 and restitution 0 (the scene format's defaults). Builds the shape;
    /// the error is the geometry's.
    pub fn new(shape: ShapeDesc) -> Result<BodyDesc, ShapeError> {
        let built = shape.build()?;
        Ok(BodyDesc::from_built(shape, built))
    }

    /// As [`BodyDesc::new`] for a shape already built from `shape_desc` (a scene's
    /// shapes are built when it is loaded; building them again would double the cost of
    /// opening a big scene). The caller vouches that `shape` is `shape_desc.build()`.
    pub(crate) fn from_built(shape_desc: ShapeDesc, shape: Shape) -> BodyDesc {
        BodyDesc::from_shared(shape_desc, Arc::new(shape))
    }

    /// As [`BodyDesc::from_built`] for a shape shared with other bodies.
    pub(crate) fn from_shared(shape_desc: ShapeDesc, shape: Arc<Shape>) -> BodyDesc {
        BodyDesc {
            name: None,
            kind: BodyKind::default(),
            position: Vec2::ZERO,
            angle: 0.0,
            linear_velocity: Vec2::ZERO,
            angular_velocity: 0.0,
            density: 1.0,
            friction: 0.6,
            restitution: 0.0,
            shape,
            shape_desc,
        }
    }

    /// The built shape, in the body's local frame.
    pub fn shape(&self) -> &Shape {
        &self.shape
    }

    /// The description the shape was built from.
    pub fn shape_desc(&self) -> &ShapeDesc {
        &self.shape_desc
    }
}
