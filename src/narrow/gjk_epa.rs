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
use super::gjk::{gjk_until, GjkInput, GjkStart};
use super::query::{PieceQuery, Recorder};
use super::simplex::WorkingSimplex;
use super::trace::{SupportPoint, Trace, TraceStep};
use super::{NarrowConfig, PairPenetration};
use crate::math::{right_perp, Pose, Vec2};

/// GJK and EPA on the pieces of `q` in A's frame: the normal (from A towards B) is in
/// A's frame too. The trace, if any, is left in A's frame. For a caller that only asks
/// whether the pieces penetrate (the two convex polygons of `polygon_polygon.rs`): on
/// apart pieces the depth is only bounded, −(a lower bound on the gap), and GJK stops as
/// soon as that bound shows them apart.
// Inlined: the fast polygon path calls it for every GJK box pair of a pile, where the
// call itself showed in callgrind (+0.04% of a pyramid_20 GjkEpa run).
#[inline]
pub(crate) fn penetration_in_a(q: &PieceQuery, rec: &mut Recorder) -> PairPenetration {
    penetration_in_a_with(q, rec, 0.0, DepthNeed::Exact, None)
}

/// What a caller needs of the depth of two pieces whose cores overlap.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum DepthNeed {
    /// The depth and normal, by EPA.
    Exact,
    /// Only that the pieces penetrate, with a lower bound on the depth: the piece loop of
    /// a decomposed pair, whose combine step computes the bodies' depth from the pieces'
    /// Minkowski differences and reads a pair's own depth only as a lower bound on it
    /// (`combine.rs`: the first ring of boxes it scans reaches twice the deepest pair's
    /// depth). GJK's final triangle lies inside A − B and holds the origin, so the
    /// origin's distance to the triangle's nearest side is such a bound, at no cost;
    /// EPA runs only when that bound is too small to call the pair penetrating.
    LowerBound,
}

/// How close GJK's lower bound on the distance of two apart pieces must come to its upper
/// bound before the piece loop of a decomposed pair may take it as the pair's gap. The
/// combine step keys an apart pair by its gap (a lower bound is all it needs:
/// SatDecomposed gives it SAT's largest gap) and builds the pair's difference only if
/// the search comes that near, so a looser bound saves GJK iterations but builds more
/// differences. Measured on `examples/gjk_workload` (callgrind, all families at 8, 32
/// and 128 vertices), against running GJK to the end: 0 (stop as soon as apart) saved
/// 9 % of GJK and EPA's instructions but cost the combine step 2.5 % more (0.2 % of the
/// total saved); 0.5 saved 5.6 % of GJK and EPA's and 0.8 % of the total; 0.9 saved
/// 0.3 % of the total. The answers were the same to the bit.
///
/// Measured again once the combine step took its shortcuts (`combine/shortcut.rs`),
/// which skip most searches: 0 now beats 0.5, 181.9 M against 182.9 M instructions on the
/// same workload, and 3.5% less on two apart 8-vertex U shapes (`GJK_WORKLOAD_DISTANCES=0.01`),
/// where no pair overlaps and no gap is used. Same answers (checksum).
const PIECE_GAP_RATIO: f32 = 0.0;

/// [`penetration_in_a`] for a caller that keys apart pairs by their gap: GJK may stop on
/// apart cores once its lower bound on the distance is at least `gap_ratio` times its
/// upper bound (0: as soon as the cores are proven apart by more than the touching
/// tolerance; above 1: never early).
#[inline]
fn penetration_in_a_with(
    q: &PieceQuery,
    rec: &mut Recorder,
    gap_ratio: f32,
    need: DepthNeed,
    start: Option<GjkStart>,
) -> PairPenetration {
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
    // Stopping early changes what the trace would show: only without one. The reported
    // depth, radii − lower, is then at least the true signed depth (every point of A − B
    // lies within −lower of the origin along GJK's direction), so a pair this calls
    // apart is apart.
    let (radii, scale, tracing) = (input.a.radius + input.b.radius, q.scale, rec.tracing());
    let apart_enough = |lower: f32, upper: f32| {
        !tracing && lower > 0.0 && lower >= gap_ratio * upper && !q.config.is_penetrating(radii - lower, scale)
    };
    // The bound is taken only without a trace: the lessons show EPA's steps.
    let lower_bound_enough =
        |depth: f32| need == DepthNeed::LowerBound && !tracing && q.config.is_penetrating(depth, scale);
    penetration_local_until(
        &input,
        config,
        start,
        apart_enough,
        lower_bound_enough,
        rec.work,
        rec.trace,
    )
}

/// GJK, then EPA when the cores overlap, on the pieces of `q`: computed in A's frame
/// ([`penetration_in_a`]), answered (normal and trace) in the world frame.
/// With [`DepthNeed::LowerBound`], an overlapping pair's depth may be only a lower bound
/// (and its normal the outward normal of the side of GJK's triangle that gives it).
pub(crate) fn penetration_gjk_epa(q: &PieceQuery, rec: &mut Recorder, need: DepthNeed) -> PairPenetration {
    penetration_gjk_epa_from(q, rec, need, None)
}

/// [`penetration_gjk_epa`] with GJK started from a support point the caller found in A's
/// frame ([`GjkStart`]; the piece loop's box axis).
pub(crate) fn penetration_gjk_epa_from(
    q: &PieceQuery,
    rec: &mut Recorder,
    need: DepthNeed,
    start: Option<GjkStart>,
) -> PairPenetration {
    let first_step = rec.trace.as_ref().map_or(0, |t| t.steps.len());
    let pen = penetration_in_a_with(q, rec, PIECE_GAP_RATIO, need, start);
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
#[cfg(test)]
pub(crate) fn penetration_local(
    input: &GjkInput,
    config: &NarrowConfig,
    work: &mut Work,
    trace: &mut Option<&mut Trace>,
) -> PairPenetration {
    penetration_local_until(input, config, None, |_, _| false, |_| false, work, trace)
}

/// `penetration_local`, where GJK may stop on apart cores when `apart_enough(lower,
/// upper)` says so (see `gjk_until`); the depth is then radii − lower. On overlapping
/// cores EPA is skipped when `lower_bound_enough(bound)` accepts the lower bound on the
/// depth that GJK's final triangle gives ([`DepthNeed::LowerBound`]).
#[inline]
fn penetration_local_until(
    input: &GjkInput,
    config: &NarrowConfig,
    start: Option<GjkStart>,
    apart_enough: impl Fn(f32, f32) -> bool,
    lower_bound_enough: impl Fn(f32) -> bool,
    work: &mut Work,
    trace: &mut Option<&mut Trace>,
) -> PairPenetration {
    let radii = input.a.radius + input.b.radius;
    // EPA's tolerances are relative to the same scale as GJK's: computed once.
    let mut simplex = WorkingSimplex::EMPTY;
    let stop = gjk_until(input, config, start, &mut simplex, work, trace, apart_enough);
    let (distance, scale) = (stop.distance(), stop.scale);
    if distance > 0.0 {
        let normal = stop.normal(&simplex);
        if normal != Vec2::ZERO {
            return PairPenetration {
                normal,
                depth: radii - distance,
            };
        }
    }
    if let Some(bound) = triangle_depth_bound(simplex.as_slice()) {
        // EPA's depth is at least the bound (its polytope grows from the triangle), so
        // above EPA's touching tolerance EPA would not have called the cores touching
        // either: the pair's verdict is the same. Twice the tolerance keeps it the same
        // through the rounding of the two.
        if bound.depth > 2.0 * config.touch_tolerance * scale && lower_bound_enough(bound.depth + radii) {
            return PairPenetration {
                normal: bound.normal,
                depth: bound.depth + radii,
            };
        }
    }
    // Cores touching or overlapping (or a distance too small to give a direction): EPA.
    let pen = epa_scaled(input, &simplex.to_simplex(), config, scale, work, trace);
    PairPenetration {
        normal: pen.normal,
        depth: pen.depth + radii,
    }
}

/// A lower bound on the depth of A − B from GJK's final simplex when it is a triangle
/// holding the origin: the triangle lies inside A − B (its corners are points of A − B,
/// which is convex), so every way out of A − B from the origin crosses a side of the
/// triangle first, and the depth is at least the distance to the nearest side's line.
/// The normal is that side's outward one. `None` for a point or a segment (touching) or
/// a side of zero length.
fn triangle_depth_bound(simplex: &[SupportPoint]) -> Option<PairPenetration> {
    let [p0, p1, p2] = simplex else {
        return None;
    };
    let (p0, p1, p2) = (p0.point, p1.point, p2.point);
    let mut best: Option<PairPenetration> = None;
    for (p, q) in [(p0, p1), (p1, p2), (p2, p0)] {
        let normal = right_perp(q - p).try_normalize()?;
        // The origin is inside: the side's line passes it at |n · p|, on the side −n
        // points to when n · p > 0.
        let along = normal.dot(p);
        let (normal, depth) = if along < 0.0 {
            (-normal, -along)
        } else {
            (normal, along)
        };
        if best.is_none_or(|b| depth < b.depth) {
            best = Some(PairPenetration { normal, depth });
        }
    }
    best
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
        summary: None,
    };
    /// A circle of radius 0.25: its core is one point.
    const CIRCLE_VIEW: ConvexView<'static> = ConvexView {
        vertices: &[Vec2::ZERO],
        normals: &[],
        radius: 0.25,
        summary: None,
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

    /// A regular `n`-gon of circumradius `r`, turned by `phase`, as a convex polygon.
    fn ngon(n: usize, r: f32, phase: f32) -> crate::geometry::ConvexPolygon {
        let vertices = (0..n)
            .map(|k| Vec2::from_angle(phase + std::f32::consts::TAU * k as f32 / n as f32) * r)
            .collect();
        crate::geometry::ConvexPolygon::from_ccw_convex(vertices)
    }

    /// The early stop on apart pieces (`penetration_in_a_with`) against GJK run to the
    /// end, on pairs of polygons from overlapping to well apart: overlapping pairs get the
    /// same answer to the bit; apart ones stay apart, with a gap that is a lower bound of
    /// the true one and, at ratio ½, at least half of it; and the stop does happen.
    #[test]
    fn early_stop_on_apart_pieces_keeps_the_answer_and_bounds_the_gap() {
        let config = NarrowConfig::default();
        let mut stopped_early = 0;
        let mut apart = 0;
        for (k, &(n, m)) in [(3, 4), (5, 8), (8, 8), (4, 16), (12, 3)].iter().enumerate() {
            let (a, b) = (ngon(n, 0.5, 0.1 * k as f32), ngon(m, 0.4, 0.3));
            for step in 0..24 {
                let angle = 0.7 * step as f32 + 0.05 * k as f32;
                let reach = 0.3 + 0.05 * step as f32;
                let pose_a = Pose::new(Vec2::new(3.0, -2.0), 0.4 * k as f32);
                let pose_b = Pose::new(pose_a.translation + Vec2::from_angle(angle) * reach, -angle);
                let q = PieceQuery::new(a.view(), &pose_a, b.view(), &pose_b, 4.0, &config);
                let run = |ratio: f32| {
                    let mut work = Work::default();
                    let pen = penetration_in_a_with(
                        &q,
                        &mut Recorder {
                            work: &mut work,
                            trace: &mut None,
                        },
                        ratio,
                        DepthNeed::Exact,
                        None,
                    );
                    (pen, work.gjk_iterations)
                };
                let (full, full_iterations) = run(2.0);
                for ratio in [0.0, PIECE_GAP_RATIO] {
                    let (early, iterations) = run(ratio);
                    if config.is_penetrating(full.depth, q.scale) {
                        assert_eq!(early, full, "n {n} m {m} step {step}");
                        continue;
                    }
                    apart += 1;
                    assert!(!config.is_penetrating(early.depth, q.scale), "{early:?} {full:?}");
                    // depth = −gap: a lower bound on the gap is an upper bound on the depth.
                    assert!(early.depth >= full.depth, "{early:?} {full:?}");
                    if ratio > 0.0 {
                        assert!(-early.depth >= ratio * -full.depth * (1.0 - 1e-5), "{early:?} {full:?}");
                    }
                    if iterations < full_iterations {
                        stopped_early += 1;
                    }
                }
            }
        }
        assert!(
            apart > 20 && stopped_early > 10,
            "apart {apart}, stopped early {stopped_early}"
        );
    }

    /// The lower bound of [`DepthNeed::LowerBound`] against EPA's depth on overlapping
    /// polygon pairs: the same verdict on every pair, a depth never above EPA's, and EPA
    /// skipped on most deep pairs.
    #[test]
    fn depth_lower_bound_keeps_the_verdict_and_stays_below_epa() {
        let config = NarrowConfig::default();
        let (mut skipped, mut penetrating) = (0, 0);
        for (k, &(n, m)) in [(3, 4), (5, 8), (8, 8), (4, 16), (12, 3)].iter().enumerate() {
            let (a, b) = (ngon(n, 0.5, 0.1 * k as f32), ngon(m, 0.4, 0.3));
            for step in 0..24 {
                let angle = 0.7 * step as f32 + 0.05 * k as f32;
                let reach = 0.02 + 0.04 * step as f32;
                let pose_a = Pose::new(Vec2::new(-5.0, 2.0), 0.4 * k as f32);
                let pose_b = Pose::new(pose_a.translation + Vec2::from_angle(angle) * reach, -angle);
                let q = PieceQuery::new(a.view(), &pose_a, b.view(), &pose_b, 4.0, &config);
                let run = |need: DepthNeed| {
                    let mut work = Work::default();
                    let rec = &mut Recorder {
                        work: &mut work,
                        trace: &mut None,
                    };
                    (penetration_gjk_epa(&q, rec, need), work.epa_iterations)
                };
                let ((exact, _), (bound, epa_iterations)) = (run(DepthNeed::Exact), run(DepthNeed::LowerBound));
                let verdict = config.is_penetrating(exact.depth, q.scale);
                assert_eq!(
                    config.is_penetrating(bound.depth, q.scale),
                    verdict,
                    "{exact:?} {bound:?}"
                );
                assert!(
                    bound.depth <= exact.depth + 1e-5 * exact.depth.abs() + 1e-6,
                    "{exact:?} {bound:?}"
                );
                assert!((bound.normal.length() - 1.0).abs() < 1e-5, "{bound:?}");
                if verdict {
                    penetrating += 1;
                    if epa_iterations == 0 {
                        skipped += 1;
                    }
                } else {
                    assert_eq!(bound, exact);
                }
            }
        }
        assert!(
            penetrating > 30 && skipped * 2 > penetrating,
            "{skipped} of {penetrating}"
        );
    }

    /// With a trace, GJK runs to the end (the lessons show every step).
    #[test]
    fn early_stop_never_with_a_trace() {
        let config = NarrowConfig::default();
        let (a, b) = (ngon(8, 0.5, 0.0), ngon(8, 0.5, 0.2));
        let (pose_a, pose_b) = (Pose::new(Vec2::ZERO, 0.0), Pose::new(Vec2::new(1.3, 0.4), 0.5));
        let q = PieceQuery::new(a.view(), &pose_a, b.view(), &pose_b, 2.0, &config);
        let mut untraced = Work::default();
        let quick = penetration_in_a(
            &q,
            &mut Recorder {
                work: &mut untraced,
                trace: &mut None,
            },
        );
        let mut traced = Work::default();
        let mut trace = Trace::default();
        let full = penetration_in_a(
            &q,
            &mut Recorder {
                work: &mut traced,
                trace: &mut Some(&mut trace),
            },
        );
        let gjk_direct = gjk(
            &GjkInput {
                a: q.a,
                pose_a: Pose::IDENTITY,
                b: q.b,
                pose_b: q.xf_ab,
            },
            &config,
            &mut Work::default(),
            &mut None,
        );
        assert_eq!(full.depth, -gjk_direct.distance);
        assert!(quick.depth >= full.depth && quick.depth < 0.0);
        assert!(
            untraced.gjk_iterations < traced.gjk_iterations,
            "{untraced:?} {traced:?}"
        );
    }

    #[test]
    fn empty_view_does_not_panic() {
        let empty = ConvexView {
            vertices: &[],
            normals: &[],
            radius: 0.0,
            summary: None,
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
