//! The GJK → EPA hand-off: GJK (`gjk.rs`) on one pair of convex pieces, and EPA
//! (`epa.rs`) from GJK's final simplex when the cores touch or overlap, with the radii of
//! rounded pieces (circles) added. Its own file so that GJK, EPA and the simplex
//! (`simplex.rs`) form a chain, not a cycle: this file uses both, EPA uses GJK (to start
//! from scratch when handed no simplex), and both use the simplex.
//!
//! # In A's frame
//!
//! GJK and EPA run with A at the identity and B placed by B's pose relative to A
//! (`xf_ab`), as Box2D v3's `b2ShapeDistance` takes its `b2DistanceInput` (B's transform
//! relative to A) and parry's `contact_support_map_support_map` takes `pos12`. In the world
//! frame every support point would be rounded to an ulp of the pair's distance from the
//! origin, and GJK's and EPA's tolerances (relative to the coordinates' magnitude, see
//! [`GjkInput::scale`]) would grow with it: at 600 m from the origin GJK's progress
//! tolerance alone was 0.6 mm, and a 0.58 mm overlap came out as a distance. In A's frame
//! the magnitudes are the pair's own. Only the normal is turned back into the world, and
//! the trace, which the lessons show in the world frame, is turned back step by step
//! after the fact (so nothing is paid when no trace is asked for).

use super::contact::Work;
use super::epa::epa_scaled;
use super::gjk::{gjk_scaled, GjkInput};
use super::query::{PieceQuery, Recorder};
use super::trace::{SupportPoint, Trace, TraceStep};
use super::{NarrowConfig, PairPenetration};
use crate::math::{Pose, Vec2};

/// GJK and EPA on the pieces of `q` in A's frame: the normal (from A towards B) is in
/// A's frame too. The trace, if any, is left in A's frame.
// Inlined: the fast polygon path calls it for every GJK box pair of a pile, where the
// call itself showed in callgrind (+0.04% of a pyramid_20 GjkEpa run).
#[inline]
pub(crate) fn penetration_in_a(q: &PieceQuery, rec: &mut Recorder) -> PairPenetration {
    let input = GjkInput {
        a: q.a,
        pose_a: Pose::IDENTITY,
        b: q.b,
        pose_b: q.xf_ab,
    };
    // A configured first search direction is given in the world frame.
    let local_config;
    let config = match q.config.gjk_initial_direction {
        Some(world_direction) => {
            local_config = NarrowConfig {
                gjk_initial_direction: Some(q.pose_a.apply_inv_vector(world_direction)),
                ..*q.config
            };
            &local_config
        }
        None => q.config,
    };
    penetration_local(&input, config, rec.work, rec.trace)
}

/// GJK, then EPA when the cores overlap, on the pieces of `q`: computed in A's frame
/// ([`penetration_in_a`]), answered (normal and trace) in the world frame.
pub(crate) fn penetration_gjk_epa(q: &PieceQuery, rec: &mut Recorder) -> PairPenetration {
    let first_step = rec.trace.as_ref().map_or(0, |t| t.steps.len());
    let pen = penetration_in_a(q, rec);
    if let Some(trace) = rec.trace.as_deref_mut() {
        steps_to_world(trace, first_step, &q.pose_a);
    }
    PairPenetration {
        normal: q.pose_a.apply_vector(pen.normal),
        depth: pen.depth,
    }
}

/// A support point recorded in A's frame, in the world (`pose_a` places A there). The
/// point of A − B is recomputed from the two world points so that the lesson's picture
/// (a − b) holds exactly.
fn support_to_world(s: &SupportPoint, pose_a: &Pose) -> SupportPoint {
    let (a, b) = (pose_a.apply_point(s.a), pose_a.apply_point(s.b));
    SupportPoint {
        point: a - b,
        a,
        b,
        ..*s
    }
}

fn supports_to_world(points: &mut [SupportPoint], pose_a: &Pose) {
    for s in points {
        *s = support_to_world(s, pose_a);
    }
}

/// Turns the GJK and EPA steps recorded from `first` on from A's frame into the world.
fn steps_to_world(trace: &mut Trace, first: usize, pose_a: &Pose) {
    let rotate = |v: &mut Vec2| *v = pose_a.apply_vector(*v);
    for step in trace.steps.iter_mut().skip(first) {
        match step {
            TraceStep::Gjk(g) => {
                supports_to_world(&mut g.simplex, pose_a);
                supports_to_world(&mut g.simplex_after, pose_a);
                g.support = support_to_world(&g.support, pose_a);
                rotate(&mut g.closest);
                rotate(&mut g.direction);
            }
            TraceStep::GjkEnd(g) => {
                supports_to_world(&mut g.simplex, pose_a);
                g.point_a = pose_a.apply_point(g.point_a);
                g.point_b = pose_a.apply_point(g.point_b);
            }
            TraceStep::EpaStart(e) => {
                supports_to_world(&mut e.simplex, pose_a);
                supports_to_world(&mut e.polytope, pose_a);
            }
            TraceStep::Epa(e) => {
                supports_to_world(&mut e.polytope, pose_a);
                e.support = support_to_world(&e.support, pose_a);
                rotate(&mut e.normal);
            }
            TraceStep::EpaEnd(e) => {
                supports_to_world(&mut e.polytope, pose_a);
                rotate(&mut e.normal);
            }
            _ => {}
        }
    }
}

/// GJK (and EPA when the cores overlap) on one pair of convex pieces, radii included.
///
/// The shapes are the cores inflated by `a.radius` and `b.radius`:
/// - cores apart (GJK distance d > 0): the inflated shapes' signed gap is d − rA − rB
///   along the closest-point direction, so `depth = rA + rB − d` (negative: separated by
///   that much) and the normal is GJK's `normal`, (point_b − point_a)/d computed from the
///   closest edge of A − B when there is one (see [`GjkOutput::normal`]);
/// - cores touching or overlapping: EPA gives the cores' depth and normal, and the radii
///   add to the depth along the same normal. A circle's core is one point; EPA still
///   works on point-vs-polygon (A − B is then the polygon shifted), and point-vs-point
///   (concentric circles) stops `Degenerate` with a fixed normal.
///
/// Returns depth > 0 for penetration, ≤ 0 when separated.
pub(crate) fn penetration_local(
    input: &GjkInput,
    config: &NarrowConfig,
    work: &mut Work,
    trace: &mut Option<&mut Trace>,
) -> PairPenetration {
    let radii = input.a.radius + input.b.radius;
    // EPA's tolerances are relative to the same scale as GJK's: computed once.
    let (out, scale) = gjk_scaled(input, config, work, trace);
    if out.distance > 0.0 && out.normal != Vec2::ZERO {
        return PairPenetration {
            normal: out.normal,
            depth: radii - out.distance,
        };
    }
    // Cores touching or overlapping (or a distance too small to give a direction): EPA.
    let pen = epa_scaled(input, &out.simplex, config, scale, work, trace);
    PairPenetration {
        normal: pen.normal,
        depth: pen.depth + radii,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::ConvexView;
    use crate::narrow::gjk::gjk;

    //   +---+        the unit square, centred on its local origin
    //   | o |
    //   +---+
    const SQUARE: [Vec2; 4] = [
        Vec2::new(-0.5, -0.5),
        Vec2::new(0.5, -0.5),
        Vec2::new(0.5, 0.5),
        Vec2::new(-0.5, 0.5),
    ];
    const SQUARE_NORMALS: [Vec2; 4] = [Vec2::NEG_Y, Vec2::X, Vec2::Y, Vec2::NEG_X];
    const SQUARE_VIEW: ConvexView<'static> = ConvexView {
        vertices: &SQUARE,
        normals: &SQUARE_NORMALS,
        radius: 0.0,
    };
    /// A circle of radius 0.25: its core is one point.
    const CIRCLE_VIEW: ConvexView<'static> = ConvexView {
        vertices: &[Vec2::ZERO],
        normals: &[],
        radius: 0.25,
    };

    fn input<'a>(a: ConvexView<'a>, pa: Vec2, b: ConvexView<'a>, pb: Vec2) -> GjkInput<'a> {
        GjkInput {
            a,
            pose_a: Pose::new(pa, 0.0),
            b,
            pose_b: Pose::new(pb, 0.0),
        }
    }

    /// The hand-off on `input` with the default configuration.
    fn penetration(input: &GjkInput, work: &mut Work) -> PairPenetration {
        penetration_local(input, &NarrowConfig::default(), work, &mut None)
    }

    #[test]
    fn circle_radius_adds_to_depth_and_gap() {
        let (square, circle) = (SQUARE_VIEW, CIRCLE_VIEW);
        let mut work = Work::default();
        // Centre 0.6 right of the square's centre: core gap 0.1, so depth 0.25 − 0.1.
        let pen = penetration(&input(square, Vec2::ZERO, circle, Vec2::new(0.6, 0.0)), &mut work);
        assert!((pen.depth - 0.15).abs() < 1e-6, "{pen:?}");
        assert!((pen.normal - Vec2::X).length() < 1e-6);
        // Centre inside the square, 0.1 from the top edge: depth 0.1 + 0.25.
        let pen = penetration(&input(square, Vec2::ZERO, circle, Vec2::new(0.05, 0.4)), &mut work);
        assert!((pen.depth - 0.35).abs() < 1e-5, "{pen:?}");
        assert!((pen.normal - Vec2::Y).length() < 1e-5);
        // Far apart: negative depth = −gap.
        let pen = penetration(&input(circle, Vec2::ZERO, circle, Vec2::new(0.0, 2.0)), &mut work);
        assert!((pen.depth + 1.5).abs() < 1e-6 && (pen.normal - Vec2::Y).length() < 1e-6);
        // Concentric circles: no direction is preferred, but the answer is finite.
        let pen = penetration(&input(circle, Vec2::ONE, circle, Vec2::ONE), &mut work);
        assert!((pen.depth - 0.5).abs() < 1e-6);
        assert!((pen.normal.length() - 1.0).abs() < 1e-6);
        assert!(work.support_calls > 0 && work.gjk_iterations > 0);
    }

    #[test]
    fn circle_touching_an_edge_has_the_edge_normal() {
        let (square, circle) = (SQUARE_VIEW, CIRCLE_VIEW);
        // Circle centre exactly on the left edge: core depth 0, total depth = radius.
        let pen = penetration(
            &input(square, Vec2::ZERO, circle, Vec2::new(-0.5, 0.1)),
            &mut Work::default(),
        );
        assert!((pen.depth - 0.25).abs() < 1e-6, "{pen:?}");
        assert!((pen.normal - Vec2::NEG_X).length() < 1e-6, "{pen:?}");
    }

    #[test]
    fn empty_view_does_not_panic() {
        let empty = ConvexView {
            vertices: &[],
            normals: &[],
            radius: 0.0,
        };
        let square = SQUARE_VIEW;
        let out = gjk(
            &input(empty, Vec2::new(3.0, 0.0), square, Vec2::ZERO),
            &NarrowConfig::default(),
            &mut Work::default(),
            &mut None,
        );
        assert!((out.distance - 2.5).abs() < 1e-6);
    }
}
