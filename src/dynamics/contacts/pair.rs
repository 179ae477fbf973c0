//! One candidate pair's contact: the narrow phase's points, the kept points, or the
//! whole contact reused (see the parent module's docs).

use super::{
    ApartPair, ContactId, ContactManifold, DetectInput, OnPair, PairContact, PointBuffer, PointContact, Previous,
    RelativePose, KEEP_DRIFT, KEEP_NORMAL_COS, KEEP_TURN_RAD,
};
use crate::dynamics::body::{Body, BodySet};
use crate::math::{Pose, Rot, Vec2};
use crate::narrow::{collide, collide_and_speculate_known, KnownPair, Work};

/// The two bodies of a pair at the start of the step, as its points are made in.
struct PairFrame {
    center_a: Vec2,
    center_b: Vec2,
    rot_a: Rot,
    rot_b: Rot,
    relative_angle: f32,
    warm_starting: bool,
}

impl PairFrame {
    fn of(a: &Body, b: &Body, warm_starting: bool) -> PairFrame {
        PairFrame {
            center_a: a.center_of_mass(),
            center_b: b.center_of_mass(),
            rot_a: a.rotation(),
            rot_b: b.rotation(),
            relative_angle: b.angle() - a.angle(),
            warm_starting,
        }
    }

    /// A world normal with its turn into A's frame.
    #[inline]
    fn normal_from_world(&self, world: Vec2) -> PairNormal {
        PairNormal {
            world,
            in_a: self.rot_a.apply_inv(world),
        }
    }

    /// A reused point's normal: its normal in A's frame turned with A, and back.
    #[inline]
    fn normal_turned_with_a(&self, in_a_then: Vec2) -> PairNormal {
        self.normal_from_world(self.rot_a.apply(in_a_then))
    }

    /// A point at `point` (world frame) with its `normal` and `separation`, carrying
    /// over the impulses and stick points of `same`, last step's point of the same
    /// features, if any.
    fn make(
        &self,
        id: ContactId,
        normal: PairNormal,
        point: Vec2,
        separation: f32,
        same: Option<&PointContact>,
    ) -> PointContact {
        let PairNormal {
            world: normal,
            in_a: normal_in_a,
        } = normal;
        let PairFrame {
            center_a,
            center_b,
            rot_a,
            rot_b,
            ..
        } = *self;
        let (anchor_a, anchor_b) = (point - center_a, point - center_b);
        let (local_a, local_b) = (rot_a.apply_inv(anchor_a), rot_b.apply_inv(anchor_b));
        let mut made = PointContact {
            id,
            normal,
            anchor_a,
            anchor_b,
            local_a,
            local_b,
            normal_in_a,
            separation,
            relative_angle: self.relative_angle,
            normal_impulse: 0.0,
            tangent_impulse: 0.0,
            stick_a: local_a,
            stick_b: local_b,
            stick_anchor_a: anchor_a,
            stick_anchor_b: anchor_b,
            stick_gap: Vec2::ZERO,
            slipped: false,
        };
        if let Some(q) = same {
            if self.warm_starting {
                (made.normal_impulse, made.tangent_impulse) = (q.normal_impulse, q.tangent_impulse);
            }
            let (stick_anchor_a, stick_anchor_b) = (rot_a.apply(q.stick_a), rot_b.apply(q.stick_b));
            let gap = (center_b + stick_anchor_b) - (center_a + stick_anchor_a);
            let along = gap - gap.dot(normal) * normal;
            // Carried over unless it slipped or the points have slid apart.
            if !q.slipped && along.length_squared() < KEEP_DRIFT * KEEP_DRIFT {
                (made.stick_a, made.stick_b) = (q.stick_a, q.stick_b);
                (made.stick_anchor_a, made.stick_anchor_b) = (stick_anchor_a, stick_anchor_b);
                made.stick_gap = gap;
            }
        }
        made
    }

    /// Last step's point `q`, moved with the bodies: its anchors give the new separation
    /// along its normal, and it is anchored again midway between them. `normal` is the
    /// normal to keep (a kept point's, fixed; a reused point's, turned with A).
    fn carry(&self, q: &PointContact, normal: PairNormal) -> PointContact {
        let (r_a, r_b) = (self.rot_a.apply(q.local_a), self.rot_b.apply(q.local_b));
        let d = (self.center_b + r_b) - (self.center_a + r_a);
        let separation = q.separation + d.dot(normal.world);
        let mid = self.center_a + r_a + 0.5 * d;
        let mut carried = self.make(q.id, normal, mid, separation, Some(q));
        carried.relative_angle = q.relative_angle;
        carried
    }
}

/// A point's unit normal from A towards B, in the world frame and in A's own frame
/// (`PointContact::normal`, `normal_in_a`).
#[derive(Clone, Copy)]
struct PairNormal {
    world: Vec2,
    in_a: Vec2,
}

/// The last [`PairNormal`] turned for a pair, by the bits of the vector it was made from:
/// a pair's points mostly share one normal (both corners of a box on a box), and the
/// turns were a tenth of the detection's own instructions on the 5050-box pyramid. Only
/// a bit-for-bit equal source is taken from here, so every point gets exactly the normal
/// it would get on its own.
#[derive(Default)]
struct LastNormal(Option<([u32; 2], PairNormal)>);

impl LastNormal {
    /// The normal made from `source` by `turn`, turned again only when `source` is not
    /// the last one's.
    #[inline]
    fn of(&mut self, source: Vec2, turn: impl FnOnce(Vec2) -> PairNormal) -> PairNormal {
        let key = [source.x.to_bits(), source.y.to_bits()];
        match self.0 {
            Some((last, normal)) if last == key => normal,
            _ => {
                let normal = turn(source);
                self.0 = Some((key, normal));
                normal
            }
        }
    }
}

/// A touching pair's answer from the narrow phase, as the sandbox shows it.
///
/// Why not inside [`PairContact`]: only the touching pairs have one (about a third of
/// the 5050-box pyramid's candidates), and inline it was more than half of every pair's
/// bytes, written for each pair the detection makes and copied for each it reuses.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct PairAnswer {
    /// Its normal, depth, MTV and points (world frame, as A stood at `drawn_at`: the
    /// step that detected it) …
    pub manifold: ContactManifold,
    pub drawn_at: Pose,
    /// … A's pose at the start of this step: a reused pair's answer is moved with A
    /// from `drawn_at` to here when it is shown (`ContactSet::manifolds`), not at every
    /// reuse, which cost 1.3% of a step of the rain of 1000 polygons …
    pub pose_a: Pose,
    /// … and whether `manifold` is missing (restored from a file, which keeps only what
    /// the solvers need): the next reuse asks the narrow phase for it, for display.
    pub stale: bool,
}

impl PairAnswer {
    /// The answer as shown now: moved with A to its pose at the start of this step.
    pub(super) fn shown(&self) -> ContactManifold {
        if self.drawn_at == self.pose_a {
            self.manifold
        } else {
            moved_answer(&self.manifold, &self.drawn_at, &self.pose_a)
        }
    }
}

/// What [`detect_pair`] did with a candidate pair.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Detected {
    /// A slot is empty: nothing.
    Nothing,
    /// The pair's contact was reused (see the module docs); the narrow phase did not run.
    Reused,
    /// The pair is still apart by more than its margin (`apart.rs`); the narrow phase
    /// did not run.
    KnownApart,
    /// The narrow phase ran on the pair.
    Tested,
}

/// The narrow phase on one candidate pair and its points (new, speculative and kept),
/// written behind the pairs and points before it: its points into `gathered`, and its
/// contact pushed onto `pairs` (and its answer onto `answers`, when it touches) when it
/// has at least one point. Built in place: returned
/// by value with the narrow phase's answer, a pair was copied twice more (2% of a step
/// of the 5050-box pyramid went to copying). `on_pair` sees the narrow phase's answer
/// when it ran (race mode). `previous.pairs[prev_index]` is this pair's previous
/// contact if it has one; `was_apart`, the pair as last found apart, if it was.
///
/// Inlined into its one caller (`detect_run`) by demand, not left to the compiler: a
/// change elsewhere (the sleep test's rest anchor, which the detection never reads)
/// once made it stop inlining it, and the rain's narrow phase took 7% longer.
#[allow(clippy::too_many_arguments)] // one pair's inputs and the three outputs it writes
#[inline(always)]
pub(super) fn detect_pair(
    bodies: &BodySet,
    (ia, ib): (u32, u32),
    input: &DetectInput,
    (previous_contacts, prev_index, was_apart): (&Previous, usize, Option<&ApartPair>),
    mut gathered: PointBuffer,
    (pairs, answers, apart): (&mut Vec<PairContact>, &mut Vec<PairAnswer>, &mut Vec<ApartPair>),
    on_pair: Option<&mut OnPair>,
    work: &mut Work,
) -> Detected {
    let (Some((handle_a, a)), Some((handle_b, b))) = (
        bodies.slot_with_handle(ia as usize),
        bodies.slot_with_handle(ib as usize),
    ) else {
        return Detected::Nothing;
    };
    let margin =
        input.margins.get(ia as usize).copied().unwrap_or(0.0) + input.margins.get(ib as usize).copied().unwrap_or(0.0);
    let relative = RelativePose::of(a, b);
    if let Some(was) = was_apart.filter(|p| (p.handle_a, p.handle_b) == (handle_a, handle_b)) {
        if was.still_apart(&relative, a, b, margin) {
            apart.push(*was);
            return Detected::KnownApart;
        }
    }
    let previous_pair = previous_contacts
        .pairs
        .get(prev_index)
        .filter(|p| (p.slot_a, p.slot_b) == (ia, ib) && p.handle_a == handle_a && p.handle_b == handle_b);
    let previous: Option<&[PointContact]> = previous_pair.map(|p| &previous_contacts.points[p.range()]);
    // B's pose only when the narrow phase runs: a reused pair does not need it.
    let pose_a = a.pose();
    let frame = PairFrame::of(a, b, input.warm_starting);
    if let (Some(old), Some(old_points), true) = (previous_pair, previous, previous_contacts.reuse) {
        // The shapes are looked at only when the move is between the two tolerances.
        let moved = relative.moved_from(&old.detected_at, b.outer_reach());
        let unmoved = moved < input.reuse_distance
            || (moved < input.convex_reuse.most_m
                && is_flat_convex(a.shape())
                && is_flat_convex(b.shape())
                && moved < input.convex_reuse.distance(a.outer_reach(), b.outer_reach()));
        if old.reusable && unmoved && (old.touching || margin <= old.detected_margin) {
            let mut last = LastNormal::default();
            for q in old_points {
                let normal = last.of(q.normal_in_a, |n| frame.normal_turned_with_a(n));
                gathered.push(frame.carry(q, normal));
            }
            let (first, count) = gathered.range();
            if count > 0 {
                // A pair found apart has no answer to show (`ContactSet::manifolds` lists
                // the touching ones), and it stays apart while it is reused.
                let answer = answers.len() as u32;
                if old.touching {
                    let (manifold, drawn_at) = match previous_contacts.answers.get(old.answer as usize) {
                        Some(then) if !then.stale => (then.manifold, then.drawn_at),
                        // Only for display: the points are carried over all the same.
                        _ => {
                            let pose_b = b.pose();
                            let contact = collide(
                                a.shape(),
                                &pose_a,
                                b.shape(),
                                &pose_b,
                                input.algorithm,
                                input.config,
                                None,
                            );
                            (ContactManifold::of(handle_a, handle_b, &contact), pose_a)
                        }
                    };
                    answers.push(PairAnswer {
                        manifold,
                        drawn_at,
                        pose_a,
                        stale: false,
                    });
                }
                pairs.push(PairContact {
                    answer,
                    first,
                    count,
                    ..*old
                });
            }
            return Detected::Reused;
        }
    }
    // The contact and, for a pair found apart, its speculative points (one SAT for both
    // where that gives the same answers, `narrow::collide_and_speculate`).
    let pose_b = b.pose();
    let known = match (input.boxes.get(ia as usize), input.boxes.get(ib as usize)) {
        (Some(&box_a), Some(&box_b)) => Some(KnownPair {
            boxes: (box_a, box_b),
            sizes: (a.shape_size(), b.shape_size()),
        }),
        _ => None,
    };
    // Read in place: taken apart into two bindings, the answer was copied (a memcpy per
    // tested pair).
    let detected = collide_and_speculate_known(
        a.shape(),
        &pose_a,
        b.shape(),
        &pose_b,
        input.algorithm,
        input.config,
        margin,
        known.as_ref(),
        work,
    );
    let (contact, speculative) = (&detected.0, &detected.1);
    work.add(&contact.work);
    if let Some(on_pair) = on_pair {
        on_pair((ia as usize, ib as usize), contact);
    }

    let (friction, restitution) =
        crate::dynamics::solver::mix_friction_restitution(a.friction(), b.friction(), a.restitution(), b.restitution());
    let same_point = |id: ContactId| previous.and_then(|p| p.iter().find(|q| q.id == id));
    if contact.intersect {
        let normal = frame.normal_from_world(contact.normal);
        for p in contact.points.as_slice() {
            gathered.push(frame.make(p.id, normal, p.point, -p.depth, same_point(p.id)));
        }
    } else {
        let mut last = LastNormal::default();
        for (normal, p) in speculative.as_slice() {
            let normal = last.of(*normal, |n| frame.normal_from_world(n));
            gathered.push(frame.make(p.id, normal, p.point, -p.depth, same_point(p.id)));
        }
    }
    // Kept points (see the module docs).
    if let (Some(prev), true) = (previous, contact.intersect) {
        let mut last = LastNormal::default();
        for q in prev {
            // Not only the pair's new normal against the old: a non-convex pair
            // touches on features with different normals at once, and the
            // narrow phase reports one of them per step. A triangle resting in a
            // U (bottom, normal up; leaning on a leg, normal 60° off) got the
            // leg in one step of three; compared with that normal alone, the
            // bottom point was dropped, and the triangle fell freely for a step —
            // 0.15 m/s kicks, and the default scene never fell asleep.
            let same_normal = q.normal.dot(contact.normal) >= KEEP_NORMAL_COS;
            let little_turn = (frame.relative_angle - q.relative_angle).abs() <= KEEP_TURN_RAD;
            if !same_normal && !little_turn {
                continue;
            }
            let r_a = frame.rot_a.apply(q.local_a);
            // Only points away from the new ones are kept: an old point where a
            // new one is (the reference edge changed sides, say, and with it the
            // id) would count twice — harmless for impulses, which share the
            // load, but a position solver would push twice.
            if gathered
                .as_slice()
                .iter()
                .any(|p| (p.anchor_a - r_a).length_squared() < KEEP_DRIFT * KEEP_DRIFT)
            {
                continue;
            }
            let mut kept = frame.carry(q, last.of(q.normal, |n| frame.normal_from_world(n)));
            let d = (frame.center_b + frame.rot_b.apply(q.local_b)) - (frame.center_a + r_a);
            let drift = (d - d.dot(q.normal) * q.normal).length();
            if kept.separation < input.slop && drift < KEEP_DRIFT {
                if !input.warm_starting {
                    (kept.normal_impulse, kept.tangent_impulse) = (0.0, 0.0);
                }
                gathered.push(kept);
            }
        }
    }
    let (first, count) = gathered.range();
    if let (0, Some(gap)) = (count, speculative.proven_gap()) {
        apart.push(ApartPair {
            slot_a: ia,
            slot_b: ib,
            handle_a,
            handle_b,
            detected_at: relative,
            gap,
        });
    }
    if count > 0 {
        let answer = answers.len() as u32;
        if contact.intersect {
            answers.push(PairAnswer {
                manifold: ContactManifold::of(handle_a, handle_b, contact),
                drawn_at: pose_a,
                pose_a,
                stale: false,
            });
        }
        pairs.push(PairContact {
            slot_a: ia,
            slot_b: ib,
            handle_a,
            handle_b,
            friction,
            restitution,
            touching: contact.intersect,
            answer,
            first,
            count,
            reusable: true,
            detected_at: relative,
            detected_margin: margin,
        });
    }
    Detected::Tested
}

/// A reused pair's answer, moved with A from `then` to `now` (B has not moved against A).
fn moved_answer(answer: &ContactManifold, then: &Pose, now: &Pose) -> ContactManifold {
    let point = |p: Vec2| now.apply_point(then.apply_inv_point(p));
    let vector = |v: Vec2| now.apply_vector(then.apply_inv_vector(v));
    let mut points = crate::narrow::ContactPoints::default();
    for p in answer.points.as_slice() {
        points.push(crate::narrow::ContactPoint {
            point: point(p.point),
            ..*p
        });
    }
    ContactManifold {
        normal: vector(answer.normal),
        mtv: vector(answer.mtv),
        points,
        ..*answer
    }
}

/// Whether the shape is convex and flat-sided (a convex polygon, a segment): see
/// `contacts/reuse.rs`, `CONVEX_REUSE_SLOP_FRACTION`.
#[inline]
fn is_flat_convex(shape: &crate::geometry::Shape) -> bool {
    match shape {
        crate::geometry::Shape::Polygon(p) => p.is_convex(),
        crate::geometry::Shape::Segment(_) => true,
        crate::geometry::Shape::Circle(_) => false,
    }
}
