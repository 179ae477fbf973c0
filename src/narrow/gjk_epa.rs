//! The GJK → EPA hand-off: GJK (`gjk.rs`) on one pair of convex pieces, and EPA
//! (`epa.rs`) from GJK's final simplex when the cores touch or overlap, with the radii of
//! rounded pieces (circles) added. Its own file so that GJK, EPA and the simplex
//! (`simplex.rs`) form a chain, not a cycle: this file uses both, EPA uses GJK (to start
//! from scratch when handed no simplex), and both use the simplex.

use super::contact::Work;
use super::epa::epa;
use super::gjk::{gjk, GjkInput};
use super::query::{PieceQuery, Recorder};
use super::trace::Trace;
use super::{NarrowConfig, PairPenetration};
use crate::math::{Pose, Vec2};

/// GJK and EPA on the pieces of `q` in A's frame: the normal (from A towards B) is in
/// A's frame too (the fast polygon path, `polygon_polygon.rs`).
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

/// GJK, then EPA when the cores overlap, on the pieces of `q`, in the world frame.
pub(crate) fn penetration_gjk_epa(q: &PieceQuery, rec: &mut Recorder) -> PairPenetration {
    let input = GjkInput {
        a: q.a,
        pose_a: q.pose_a,
        b: q.b,
        pose_b: q.pose_b,
    };
    penetration_local(&input, q.config, rec.work, rec.trace)
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
    let out = gjk(input, config, work, trace);
    if out.distance > 0.0 && out.normal != Vec2::ZERO {
        return PairPenetration {
            normal: out.normal,
            depth: radii - out.distance,
        };
    }
    // Cores touching or overlapping (or a distance too small to give a direction): EPA.
    let pen = epa(input, &out.simplex, config, work, trace);
    PairPenetration {
        normal: pen.normal,
        depth: pen.depth + radii,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::ConvexView;

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
