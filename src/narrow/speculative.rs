//! Speculative contact points: where two shapes that do *not* overlap yet are close
//! enough to touch before the next detection.
//!
//! The world runs the narrow phase once per step and reuses its points for every
//! substep (Box2D v3's soft step; Müller et al. 2020's substepping). A pair that is
//! apart at the start of the step but will touch during it must already have points,
//! or it passes the step without any constraint and is found half a body deep at the
//! next one. So for a pair the chosen algorithm reports as separated, this module finds
//! the points where it *would* touch, with their (positive) separation: the solver then
//! lets the bodies approach by exactly that much and no further (the speculative rule,
//! Catto, "Speculative contacts", 2013; Box2D v3 `b2_speculativeDistance`).
//!
//! How: every pair of convex pieces whose boxes come within `margin` of each other is
//! tested with the convex SAT (circles by Voronoi regions); the largest separating gap of
//! the pair, when at most `margin`, gives a normal, and clipping the incident edge
//! against the reference edge gives up to two points with their separations. Of all
//! piece pairs the two closest are kept, so a U resting on both legs keeps a point under
//! each. The SAT gap is a lower bound of the true distance (equal when a vertex faces an
//! edge, smaller at corner-to-corner), so the solver may stop a body a hair early but
//! never lets it through.
//!
//! This is the same for every algorithm: the algorithm the user picked decides whether
//! and how deep the bodies overlap; speculation only keeps pairs that are about to touch
//! from being missed between detections.

use super::clip::contact_points_within;
use super::contact::{ContactPoint, Work};
use super::polygon_polygon;
use super::query::{penetration_with_circle, PieceQuery, Recorder, ShapeQuery};
use super::sat::penetration_sat;
use super::{NarrowConfig, PairPenetration};
use crate::bounds::Aabb;
use crate::geometry::{ConvexView, Shape};
use crate::math::{Pose, Vec2};

/// Most points a speculative answer holds: two piece pairs, two points each.
pub const MAX_SPECULATIVE_POINTS: usize = 4;

/// Points where two separated shapes would touch, each with its own normal.
///
/// Two answers are equal when their points are: the proof of a gap
/// ([`SpeculativePoints::proven_gap`]) records how one path found the answer, not the
/// answer.
#[derive(Clone, Copy, Debug, Default)]
pub struct SpeculativePoints {
    points: [(Vec2, ContactPoint); MAX_SPECULATIVE_POINTS],
    len: u8,
    /// When the pair is farther apart than the margin and the test that found it so
    /// stopped on an edge normal of A or B (or its opposite): the gap along it (m).
    proven_gap: Option<f32>,
}

impl PartialEq for SpeculativePoints {
    fn eq(&self, other: &Self) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl SpeculativePoints {
    /// The points with their unit normals (world frame, from A towards B); each point's
    /// `depth` is minus its separation (negative: apart).
    pub fn as_slice(&self) -> &[(Vec2, ContactPoint)] {
        &self.points[..self.len as usize]
    }

    /// True when no piece pair is within the margin.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The gap (m) along the axis that proved the pair farther apart than the margin,
    /// when the fused two-polygon test did (`polygon_polygon::detect_polygon_polygon_sat`).
    /// The axis is an edge normal of A or of B, or its opposite, and the separating axis
    /// tests of every algorithm try it and stop on any gap above the margin: while the
    /// bodies have not moved against each other by `gap − margin`, the pair still has no
    /// points (`dynamics::contacts::apart`). `None` for every other answer.
    pub fn proven_gap(&self) -> Option<f32> {
        self.proven_gap
    }

    /// Records the gap that proved the pair apart (see [`Self::proven_gap`]).
    pub(super) fn prove_apart(&mut self, gap: f32) {
        self.proven_gap = Some(gap);
    }

    pub(super) fn push(&mut self, normal: Vec2, p: ContactPoint) {
        if (self.len as usize) < MAX_SPECULATIVE_POINTS {
            self.points[self.len as usize] = (normal, p);
            self.len += 1;
        }
    }
}

/// The gap along the best separating axis of two convex pieces (negative when they
/// overlap), with the axis as a normal from A towards B.
fn piece_gap(q: &PieceQuery, margin: f32, work: &mut Work) -> PairPenetration {
    let mut no_trace = None;
    match penetration_with_circle(q, &mut no_trace) {
        Some(pen) => pen,
        // SAT stops at the first axis whose gap exceeds the margin: that pair is too far
        // apart to matter this step.
        None => penetration_sat(
            q,
            margin,
            &mut Recorder {
                work,
                trace: &mut no_trace,
            },
        ),
    }
}

/// Speculative points of `a` and `b` (posed by `pose_a`, `pose_b`): the points of the
/// (up to) two closest convex piece pairs whose separation is at most `margin` (m).
/// Empty when every piece pair is farther apart than that.
pub fn speculative_points(
    a: &Shape,
    pose_a: &Pose,
    b: &Shape,
    pose_b: &Pose,
    margin: f32,
    work: &mut Work,
) -> SpeculativePoints {
    if margin.is_nan() || margin < 0.0 {
        return SpeculativePoints::default();
    }
    if a.piece_count() == 1 && b.piece_count() == 1 {
        let (va, vb) = (a.piece(0), b.piece(0));
        if polygon_polygon::fits(&va, &vb) {
            // Two convex polygons: the same test in A's frame (`polygon_polygon.rs`).
            return polygon_polygon::speculative_polygon_polygon(&va, pose_a, &vb, pose_b, margin, work);
        }
    }
    speculative_pieces(a, pose_a, b, pose_b, margin, work)
}

/// The world's detection of one pair: [`collide`](super::collide)'s contact (no trace)
/// and, when it finds the pair apart, [`speculative_points`] within `margin` (empty when
/// it overlaps). Two single-piece convex polygons under SatDecomposed, and two convex
/// polygons under NonConvexSat, get both from one SAT
/// (`polygon_polygon::detect_polygon_polygon_sat`: SatDecomposed's answers bit for bit,
/// NonConvexSat's up to rounding — on convex polygons Fayzrakhmanov et al.'s SAT is the
/// classic one, see `polygon_polygon::SatRule::NonConvexSat`); every other pair the two
/// calls. A traced query (the lessons) always runs `collide`, the literal algorithm. The
/// contact carries its own counters; speculation's go to `work`, as
/// [`speculative_points`]'s do.
///
/// Race mode (`dynamics/race.rs`) times each algorithm through `collide` itself, so its
/// NonConvexSat column is the paper's whole-outline loop, as `collision-lab bench`
/// measures it, not this fused path.
#[allow(clippy::too_many_arguments)] // the two calls' inputs, nothing more
pub fn collide_and_speculate(
    a: &Shape,
    pose_a: &Pose,
    b: &Shape,
    pose_b: &Pose,
    algorithm: super::Algorithm,
    config: &NarrowConfig,
    margin: f32,
    work: &mut Work,
) -> (super::Contact, SpeculativePoints) {
    collide_and_speculate_known(a, pose_a, b, pose_b, algorithm, config, margin, None, work)
}

/// What the caller already knows of a pair's two shapes at their poses, so the narrow
/// phase does not work it out again: the world has every body's box from the broad
/// phase and every shape's size from when the body was made. They must be what the
/// narrow phase would compute — `Aabb::from_points_posed` of the polygon's vertices,
/// [`Shape::size`] — so the answers are the same, bit for bit.
#[derive(Clone, Copy, Debug)]
pub(crate) struct KnownPair {
    /// World boxes of A and B (no margin).
    pub boxes: (Aabb, Aabb),
    /// [`Shape::size`] of A and B (m).
    pub sizes: (f32, f32),
}

/// `narrow::query_scale` from the two shapes' sizes (m), the same expression.
#[inline]
fn query_scale_of_sizes((size_a, size_b): (f32, f32), pose_a: &Pose, pose_b: &Pose) -> f32 {
    size_a.max(size_b)
        + pose_a
            .translation
            .abs()
            .max_element()
            .max(pose_b.translation.abs().max_element())
}

/// [`collide_and_speculate`] with what the caller knows of the pair (`known`).
#[allow(clippy::too_many_arguments)] // the two calls' inputs, nothing more
pub(crate) fn collide_and_speculate_known(
    a: &Shape,
    pose_a: &Pose,
    b: &Shape,
    pose_b: &Pose,
    algorithm: super::Algorithm,
    config: &NarrowConfig,
    margin: f32,
    known: Option<&KnownPair>,
    work: &mut Work,
) -> (super::Contact, SpeculativePoints) {
    let rule = match (algorithm, a, b) {
        (super::Algorithm::SatDecomposed, _, _) if a.piece_count() == 1 && b.piece_count() == 1 => {
            Some(polygon_polygon::SatRule::Decomposed)
        }
        (super::Algorithm::NonConvexSat, Shape::Polygon(pa), Shape::Polygon(pb))
            if pa.is_convex() && pb.is_convex() =>
        {
            Some(polygon_polygon::SatRule::NonConvexSat {
                centroid_a: pa.pieces()[0].centroid(),
                centroid_b: pb.pieces()[0].centroid(),
            })
        }
        _ => None,
    };
    if let Some(rule) = rule {
        let (va, vb) = (a.piece(0), b.piece(0));
        let scale = match known {
            Some(k) => query_scale_of_sizes(k.sizes, pose_a, pose_b),
            None => super::query_scale(a, pose_a, b, pose_b),
        };
        if polygon_polygon::fits(&va, &vb) && margin >= config.separating_gap(scale).max(0.0) && margin.is_finite() {
            return polygon_polygon::detect_polygon_polygon_sat(
                (&va, pose_a),
                (&vb, pose_b),
                (scale, config, rule),
                (margin, known.map(|k| k.boxes)),
                centred_box(a).zip(centred_box(b)).map(|(half_a, _)| half_a),
                work,
            );
        }
    }
    let contact = super::collide(a, pose_a, b, pose_b, algorithm, config, None);
    let speculative = if contact.intersect {
        SpeculativePoints::default()
    } else {
        speculative_points(a, pose_a, b, pose_b, margin, work)
    };
    (contact, speculative)
}

/// A single-piece polygon's [`crate::geometry::ConvexPolygon::centred_box`].
#[inline]
fn centred_box(shape: &Shape) -> Option<Vec2> {
    match shape {
        Shape::Polygon(p) if p.pieces().len() == 1 => p.pieces()[0].centred_box(),
        _ => None,
    }
}

/// [`speculative_points`] over every piece pair (the general path).
pub(super) fn speculative_pieces(
    a: &Shape,
    pose_a: &Pose,
    b: &Shape,
    pose_b: &Pose,
    margin: f32,
    work: &mut Work,
) -> SpeculativePoints {
    let mut out = SpeculativePoints::default();
    // The margin is SAT's stop here, so the configuration and the scale go unread.
    let config = NarrowConfig::default();
    let q = ShapeQuery::new(a, pose_a, b, pose_b, 0.0, &config);
    // The two best piece pairs so far: (gap, piece a, piece b, normal).
    let mut best: [Option<(f32, usize, usize, Vec2)>; 2] = [None, None];
    let (na, nb) = (a.piece_count(), b.piece_count());
    let box_of = |view: &ConvexView, pose: &Pose| {
        Aabb::from_points_posed(view.vertices, pose).inflated(view.radius + 0.5 * margin)
    };
    for i in 0..na {
        let va = a.piece(i);
        let box_a = box_of(&va, pose_a);
        for j in 0..nb {
            let vb = b.piece(j);
            work.bv_tests += 1;
            if !box_a.overlaps(&box_of(&vb, pose_b)) {
                continue;
            }
            work.piece_pairs_tested += 1;
            let pen = piece_gap(&q.piece(i, j), margin, work);
            let gap = -pen.depth;
            if gap.is_nan() || gap > margin {
                continue;
            }
            let entry = Some((gap, i, j, pen.normal));
            if best[0].is_none_or(|b0| gap < b0.0) {
                best[1] = best[0];
                best[0] = entry;
            } else if best[1].is_none_or(|b1| gap < b1.0) {
                best[1] = entry;
            }
        }
    }
    for (gap, i, j, normal) in best.into_iter().flatten() {
        let points = contact_points_within(&q.piece(i, j), normal, -gap, margin, &mut None);
        for p in points.as_slice() {
            if -p.depth <= margin {
                out.push(normal, *p);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::{Circle, Polygon};

    use super::super::test_rect as rect;

    //      +---+        box B 3 cm above
    //      +---+
    //  +-----------+    ground A
    //  +-----------+
    #[test]
    fn box_above_ground_gets_two_points_with_the_gap() {
        let ground = rect(4.0, 1.0);
        let bx = rect(1.0, 1.0);
        let pose_b = Pose::new(Vec2::new(0.0, 1.03), 0.0);
        let pts = speculative_points(&ground, &Pose::IDENTITY, &bx, &pose_b, 0.05, &mut Work::default());
        assert_eq!(pts.as_slice().len(), 2);
        for (n, p) in pts.as_slice() {
            assert!((*n - Vec2::Y).length() < 1e-6);
            assert!((p.depth + 0.03).abs() < 1e-5, "{}", p.depth);
        }
        let far = speculative_points(&ground, &Pose::IDENTITY, &bx, &pose_b, 0.02, &mut Work::default());
        assert!(far.is_empty(), "3 cm apart is beyond a 2 cm margin");
    }

    #[test]
    fn circle_above_box_gets_one_point() {
        let ground = rect(4.0, 1.0);
        let ball = Shape::Circle(Circle::new(0.5).unwrap());
        let pose_b = Pose::new(Vec2::new(0.3, 1.01), 0.0);
        let pts = speculative_points(&ground, &Pose::IDENTITY, &ball, &pose_b, 0.05, &mut Work::default());
        assert_eq!(pts.as_slice().len(), 1);
        let (n, p) = pts.as_slice()[0];
        assert!((n - Vec2::Y).length() < 1e-5);
        assert!((p.depth + 0.01).abs() < 1e-5);
    }

    // A U above the ground: one point per leg, from two piece pairs.
    #[test]
    fn u_above_ground_keeps_both_legs() {
        let ground = rect(6.0, 1.0);
        let u = Shape::Polygon(
            Polygon::new(&[
                Vec2::new(-1.0, 0.0),
                Vec2::new(-0.6, 0.0),
                Vec2::new(-0.6, 1.0),
                Vec2::new(0.6, 1.0),
                Vec2::new(0.6, 0.0),
                Vec2::new(1.0, 0.0),
                Vec2::new(1.0, 1.5),
                Vec2::new(-1.0, 1.5),
            ])
            .unwrap(),
        );
        let pose_u = Pose::new(Vec2::new(0.0, 0.51), 0.0);
        let pts = speculative_points(&ground, &Pose::IDENTITY, &u, &pose_u, 0.05, &mut Work::default());
        let xs: Vec<f32> = pts.as_slice().iter().map(|(_, p)| p.point.x).collect();
        assert!(xs.iter().any(|&x| x < -0.5) && xs.iter().any(|&x| x > 0.5), "{xs:?}");
    }
}
