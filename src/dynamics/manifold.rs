//! The narrow phase's answer for one pair of bodies, as the resolution stage and the
//! sandbox's contact overlay read it.

use super::body::BodyHandle;
use crate::math::Vec2;
use crate::narrow::ContactPoints;

/// An intersecting pair found in the last substep (world frame).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ContactManifold {
    /// First body (the lower slot index).
    pub body_a: BodyHandle,
    /// Second body.
    pub body_b: BodyHandle,
    /// Unit normal from A towards B.
    pub normal: Vec2,
    /// Penetration depth along the normal (m).
    pub depth: f32,
    /// Translation that moves A out of B (m), `−normal·depth`.
    pub mtv: Vec2,
    /// Up to two contact points (midway between the surfaces) with feature ids.
    pub points: ContactPoints,
}

impl ContactManifold {
    /// The narrow phase's `contact` between the bodies `body_a` and `body_b`.
    pub fn of(body_a: BodyHandle, body_b: BodyHandle, contact: &crate::narrow::Contact) -> ContactManifold {
        ContactManifold {
            body_a,
            body_b,
            normal: contact.normal,
            depth: contact.depth,
            mtv: contact.mtv,
            points: contact.points,
        }
    }

    /// The two bodies' slots (what the sleep islands join).
    pub(crate) fn slots(&self) -> (u32, u32) {
        (self.body_a.index, self.body_b.index)
    }
}
