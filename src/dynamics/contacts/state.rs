//! The contacts in a scene's state block (`dynamics::Snapshot`).

use super::{ContactId, ContactManifold, ContactSet, PairAnswer, PairContact, PointBuffer, PointContact, RelativePose};
use crate::dynamics::body::{BodyHandle, BodySet};
use crate::dynamics::snapshot::{PairReuseSnapshot, PairSnapshot, PointSnapshot};
use crate::math::Vec2;

/// Saving and restoring the contacts a step hands the next (a scene's `state` block,
/// `world/resume.rs`): exactly the fields the next detection reads from the previous
/// step's points. The rest (world anchors, the narrow phase's answer) is made again.
impl ContactSet {
    /// The contacts as a snapshot's pairs; `index_of_slot[slot]` is the body's index in
    /// the snapshot's bodies.
    pub fn to_state(&self, index_of_slot: &[usize]) -> Vec<PairSnapshot> {
        let point = |p: &PointContact| PointSnapshot {
            id: p.id.0,
            normal: p.normal,
            local_a: p.local_a,
            local_b: p.local_b,
            separation: p.separation,
            relative_angle: p.relative_angle,
            normal_impulse: p.normal_impulse,
            tangent_impulse: p.tangent_impulse,
            stick_a: p.stick_a,
            stick_b: p.stick_b,
            slipped: p.slipped,
            normal_in_a: Some(p.normal_in_a),
        };
        self.pairs
            .iter()
            .map(|pair| PairSnapshot {
                bodies: (index_of_slot[pair.slot_a as usize], index_of_slot[pair.slot_b as usize]),
                points: self.points_of(pair).iter().map(point).collect(),
                reuse: pair.reusable.then_some(PairReuseSnapshot {
                    touching: pair.touching,
                    translation: pair.detected_at.translation,
                    angle: pair.detected_at.angle,
                    margin: pair.detected_margin,
                }),
            })
            .collect()
    }

    /// Replaces the contacts with a state block's; `handle_of_index[i]` is the handle
    /// the file's body `i` was given. Pairs naming a body that is not there are skipped.
    pub fn restore(&mut self, bodies: &BodySet, saved: &[PairSnapshot], handle_of_index: &[BodyHandle]) {
        self.clear();
        for pair in saved {
            let (Some(&handle_a), Some(&handle_b)) =
                (handle_of_index.get(pair.bodies.0), handle_of_index.get(pair.bodies.1))
            else {
                continue;
            };
            let (Some(a), Some(b)) = (bodies.get(handle_a), bodies.get(handle_b)) else {
                continue;
            };
            let (friction, restitution) = crate::dynamics::solver::mix_friction_restitution(
                a.friction(),
                b.friction(),
                a.restitution(),
                b.restitution(),
            );
            let touching = pair.reuse.is_some_and(|r| r.touching);
            let mut restored = PairContact {
                slot_a: handle_a.index,
                slot_b: handle_b.index,
                handle_a,
                handle_b,
                friction,
                restitution,
                touching,
                answer: self.answers.len() as u32,
                first: self.points.len() as u32,
                count: 0,
                reusable: pair.reuse.is_some(),
                detected_at: pair.reuse.map_or(RelativePose::default(), |r| RelativePose {
                    translation: r.translation,
                    angle: r.angle,
                }),
                detected_margin: pair.reuse.map_or(0.0, |r| r.margin),
            };
            let mut gathered = PointBuffer::after(&mut self.points);
            for p in &pair.points {
                gathered.push(PointContact {
                    id: ContactId(p.id),
                    normal: p.normal,
                    local_a: p.local_a,
                    local_b: p.local_b,
                    separation: p.separation,
                    relative_angle: p.relative_angle,
                    normal_impulse: p.normal_impulse,
                    tangent_impulse: p.tangent_impulse,
                    stick_a: p.stick_a,
                    stick_b: p.stick_b,
                    slipped: p.slipped,
                    normal_in_a: p.normal_in_a.unwrap_or_else(|| a.rotation().apply_inv(p.normal)),
                    ..PointContact::default()
                });
            }
            restored.count = gathered.as_slice().len() as u8;
            self.pairs.push(restored);
            if touching {
                self.answers.push(PairAnswer {
                    manifold: ContactManifold {
                        body_a: handle_a,
                        body_b: handle_b,
                        normal: Vec2::ZERO,
                        depth: 0.0,
                        mtv: Vec2::ZERO,
                        points: Default::default(),
                    },
                    drawn_at: a.pose(),
                    pose_a: a.pose(),
                    stale: true,
                });
            }
        }
    }
}
