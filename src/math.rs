//! Small linear-algebra helpers on top of glam's `Vec2`.
//!
//! Conventions used everywhere in Collision Lab: f32, metres, radians, y-up,
//! counter-clockwise polygons. A [`Pose`] maps a body's local frame into the world
//! frame: `world = rotation * local + translation`.

pub use glam::Vec2;
use serde::{Deserialize, Serialize};

/// A rotation stored as its cosine and sine, so applying it needs no trigonometry.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rot {
    /// cos(angle)
    pub cos: f32,
    /// sin(angle)
    pub sin: f32,
}

impl Default for Rot {
    /// The identity rotation.
    fn default() -> Self {
        Rot::IDENTITY
    }
}

impl Rot {
    /// The identity rotation.
    pub const IDENTITY: Rot = Rot { cos: 1.0, sin: 0.0 };

    /// Rotation by `angle_rad` radians, counter-clockwise.
    pub fn from_angle(angle_rad: f32) -> Self {
        let (sin, cos) = angle_rad.sin_cos();
        Rot { cos, sin }
    }

    /// The angle in radians, in (-pi, pi].
    pub fn angle(self) -> f32 {
        self.sin.atan2(self.cos)
    }

    /// Rotates `v` by this rotation.
    #[inline]
    pub fn apply(self, v: Vec2) -> Vec2 {
        Vec2::new(self.cos * v.x - self.sin * v.y, self.sin * v.x + self.cos * v.y)
    }

    /// Rotates `v` by the inverse of this rotation.
    #[inline]
    pub fn apply_inv(self, v: Vec2) -> Vec2 {
        Vec2::new(self.cos * v.x + self.sin * v.y, -self.sin * v.x + self.cos * v.y)
    }

    /// `self * other`: first `other`, then `self`.
    #[inline]
    pub fn compose(self, other: Rot) -> Rot {
        Rot {
            cos: self.cos * other.cos - self.sin * other.sin,
            sin: self.sin * other.cos + self.cos * other.sin,
        }
    }

    /// `self^-1 * other`.
    #[inline]
    pub fn inv_mul(self, other: Rot) -> Rot {
        Rot {
            cos: self.cos * other.cos + self.sin * other.sin,
            sin: self.cos * other.sin - self.sin * other.cos,
        }
    }
}

/// A rigid transform (rotation, then translation) from a local frame to a parent frame.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pose {
    /// Where the local origin lands, in the parent frame (metres).
    pub translation: Vec2,
    /// Orientation of the local axes in the parent frame.
    pub rotation: Rot,
}

impl Default for Pose {
    fn default() -> Self {
        Pose::IDENTITY
    }
}

impl Pose {
    /// The identity transform.
    pub const IDENTITY: Pose = Pose {
        translation: Vec2::ZERO,
        rotation: Rot::IDENTITY,
    };

    /// A pose from a position (metres) and an angle (radians, counter-clockwise).
    pub fn new(position: Vec2, angle_rad: f32) -> Self {
        Pose {
            translation: position,
            rotation: Rot::from_angle(angle_rad),
        }
    }

    /// The rotation angle in radians.
    pub fn angle(&self) -> f32 {
        self.rotation.angle()
    }

    /// Local point to parent frame.
    #[inline]
    pub fn apply_point(&self, local_point: Vec2) -> Vec2 {
        self.rotation.apply(local_point) + self.translation
    }

    /// Parent-frame point to local frame.
    #[inline]
    pub fn apply_inv_point(&self, point: Vec2) -> Vec2 {
        self.rotation.apply_inv(point - self.translation)
    }

    /// Local direction to parent frame (no translation).
    #[inline]
    pub fn apply_vector(&self, local_vector: Vec2) -> Vec2 {
        self.rotation.apply(local_vector)
    }

    /// Parent-frame direction to local frame (no translation).
    #[inline]
    pub fn apply_inv_vector(&self, vector: Vec2) -> Vec2 {
        self.rotation.apply_inv(vector)
    }

    /// `self * other`: the pose, in `self`'s parent frame, of a frame given in `self`'s
    /// local frame.
    pub fn compose(&self, other: &Pose) -> Pose {
        Pose {
            translation: self.apply_point(other.translation),
            rotation: self.rotation.compose(other.rotation),
        }
    }

    /// `self^-1 * other`: `other` expressed in `self`'s local frame. With
    /// `xf_ab = pose_a.inv_mul(&pose_b)`, `xf_ab.apply_point(local_b)` is that point in A's frame.
    pub fn inv_mul(&self, other: &Pose) -> Pose {
        Pose {
            translation: self.apply_inv_point(other.translation),
            rotation: self.rotation.inv_mul(other.rotation),
        }
    }
}

/// 2D cross product (z of the 3D cross): positive when `b` is counter-clockwise from `a`.
#[inline]
pub fn cross(a: Vec2, b: Vec2) -> f32 {
    a.x * b.y - a.y * b.x
}

/// Outward normal direction (not normalised) of an edge `e` of a counter-clockwise polygon:
/// the edge direction turned clockwise by 90 degrees.
#[inline]
pub fn right_perp(e: Vec2) -> Vec2 {
    Vec2::new(e.y, -e.x)
}

/// True when every component is finite.
#[inline]
pub fn is_finite(v: Vec2) -> bool {
    v.x.is_finite() && v.y.is_finite()
}

/// A 2D point or vector as it is written in scene files: `(x, y)`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize, Default)]
pub struct Point(pub f32, pub f32);

impl From<Point> for Vec2 {
    fn from(p: Point) -> Vec2 {
        Vec2::new(p.0, p.1)
    }
}

impl From<Vec2> for Point {
    fn from(v: Vec2) -> Point {
        Point(v.x, v.y)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pose_round_trips_points() {
        let pose = Pose::new(Vec2::new(1.0, 2.0), 0.7);
        let p = Vec2::new(-3.0, 0.5);
        let back = pose.apply_inv_point(pose.apply_point(p));
        assert!((back - p).length() < 1e-5);
    }

    #[test]
    fn inv_mul_expresses_b_in_a() {
        let pose_a = Pose::new(Vec2::new(1.0, 2.0), 0.3);
        let pose_b = Pose::new(Vec2::new(-2.0, 0.5), -1.1);
        let xf_ab = pose_a.inv_mul(&pose_b);
        let local_b = Vec2::new(0.4, -0.9);
        let via_world = pose_a.apply_inv_point(pose_b.apply_point(local_b));
        assert!((xf_ab.apply_point(local_b) - via_world).length() < 1e-5);
    }
}
