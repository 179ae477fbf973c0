//! GJK (Gilbert–Johnson–Keerthi): distance between two convex shapes, or "they overlap".
//!
//! Sources: E. G. Gilbert, D. W. Johnson, S. S. Keerthi, "A fast procedure for computing
//! the distance between complex objects in three-dimensional space", IEEE J. Robotics and
//! Automation, 1988; C. Ericson, *Real-Time Collision Detection*, ch. 9 (GJK) and 5.1
//! (closest point on a segment / triangle by Voronoi regions); E. Catto, Box2D's
//! `b2ShapeDistance` (barycentric sub-solvers, duplicate-support termination).
//!
//! GJK never looks at A − B (the configuration-space obstacle; Chulanov 2016) as a whole; it
//! asks A and B for support points and keeps a simplex (point, segment, triangle) of
//! support points of A − B. The distance between A and B is the distance from the origin
//! to A − B, and the shapes overlap exactly when A − B holds the origin.
//!
//! ```text
//! w = support(d0); simplex = [w]
//! loop:
//!     v = point of the simplex closest to the origin      (Voronoi regions, barycentric)
//!     drop the simplex vertices v does not need
//!     if the simplex is a triangle (v = 0) or |v| ≈ 0:   ContainsOrigin
//!     w = support(-v)                                     (farthest point of A − B along -v)
//!     if w is already in the simplex:                     RepeatedSupport
//!     if |v| - (w · v)/|v| <= epsilon × scale:            NoProgress
//!     if the iteration cap is reached:                    IterationCap
//!     simplex += w
//! ```
//!
//! Every point here is in the world frame; the support mapping maps the world direction
//! into each shape's local frame and the vertex back out.

mod record;
mod stop;

use super::contact::Work;
use super::simplex::{Simplex, WorkingSimplex};
use super::trace::{GjkTermination, SupportPoint, Trace};
use super::NarrowConfig;
use crate::geometry::{ConvexView, VertexSummary};
use crate::math::{cross, right_perp, Pose, Vec2};
use record::{GjkRecorder, GjkStepAt, Traced, Untraced};
pub(super) use stop::GjkStop;

/// Two convex cores with their poses (radii are ignored by GJK itself).
#[derive(Clone, Copy, Debug)]
pub struct GjkInput<'a> {
    /// Shape A, local frame.
    pub a: ConvexView<'a>,
    /// Places A in the world.
    pub pose_a: Pose,
    /// Shape B, local frame.
    pub b: ConvexView<'a>,
    /// Places B in the world.
    pub pose_b: Pose,
}

/// Vertex `i` of a view, or the local origin for an (invalid) empty view, so that no input
/// can make the support mapping index out of bounds.
#[inline]
fn local_vertex(view: &ConvexView, i: usize) -> Vec2 {
    view.vertices.get(i).copied().unwrap_or(Vec2::ZERO)
}

/// What GJK needs of a view before its first support point (`VertexSummary`: the largest
/// squared distance of a vertex from the local origin and the vertices' sum), with
/// the two things GJK derives from it. A decomposition's pieces carry it from when they
/// were built (`ConvexView::summary`); other views compute it here.
#[derive(Clone, Copy, Debug)]
struct ViewSummary(VertexSummary);

impl ViewSummary {
    #[inline]
    fn of(view: &ConvexView) -> ViewSummary {
        ViewSummary(view.summary())
    }

    /// Largest distance of a vertex from the local origin (metres). One square root for
    /// the largest squared length: sqrt is correctly rounded and monotone, so this is the
    /// largest of the rounded lengths to the bit.
    #[inline]
    fn extent(&self) -> f32 {
        self.0.extent_sq.sqrt()
    }

    /// Average of the vertices, world frame (`pose`'s origin for an empty view).
    #[inline]
    fn world_mean(&self, pose: &Pose) -> Vec2 {
        if self.0.count == 0 {
            return pose.translation;
        }
        pose.apply_point(self.0.sum / self.0.count as f32)
    }
}

/// The scale of a pair of views at their poses (see [`GjkInput::scale`]).
#[inline]
fn scale_of(a: &ViewSummary, pose_a: &Pose, b: &ViewSummary, pose_b: &Pose) -> f32 {
    let scale_a = a.extent() + pose_a.translation.length();
    let scale_b = b.extent() + pose_b.translation.length();
    let scale = scale_a.max(scale_b);
    if scale.is_finite() && scale > 0.0 {
        scale
    } else {
        // Both cores are the world origin (or the input is not finite): fall back to 1 m
        // so the tolerances stay meaningful and positive.
        1.0
    }
}

impl GjkInput<'_> {
    /// The length GJK's and EPA's tolerances are relative to (metres): the largest world
    /// coordinate magnitude either core can reach, bounded by its local extent plus the
    /// distance of its pose from the world origin. f32 rounds every support point to
    /// about `f32::EPSILON × scale`, so a tolerance below that can never be met and one
    /// given in absolute metres would be too tight for large coordinates and too loose
    /// for tiny shapes.
    pub fn scale(&self) -> f32 {
        let (a, b) = (ViewSummary::of(&self.a), ViewSummary::of(&self.b));
        scale_of(&a, &self.pose_a, &b, &self.pose_b)
    }

    /// The scale ([`GjkInput::scale`]) and GJK's first support point: `start`'s when
    /// given, else the support along the first search direction
    /// ([`GjkInput::initial_direction`]).
    #[inline(always)]
    fn prepare(&self, config: &NarrowConfig, start: Option<GjkStart>, work: &mut Work) -> (f32, SupportPoint) {
        let (a, b) = (ViewSummary::of(&self.a), ViewSummary::of(&self.b));
        let scale = scale_of(&a, &self.pose_a, &b, &self.pose_b);
        // A configured first direction (a lesson's) wins over the caller's start.
        let first = match start.filter(|_| config.gjk_initial_direction.is_none()) {
            Some(start) => self.support_at(start.index_a, start.index_b, work),
            None => self.support(self.initial_direction(&a, &b, config), work),
        };
        (scale, first)
    }

    /// The support point made of vertex `index_a` of A and `index_b` of B, which the
    /// caller found to be extreme along some direction. Counts two support calls.
    fn support_at(&self, index_a: usize, index_b: usize, work: &mut Work) -> SupportPoint {
        work.support_calls += 2;
        let a = self.pose_a.apply_point(local_vertex(&self.a, index_a));
        let b = self.pose_b.apply_point(local_vertex(&self.b, index_b));
        SupportPoint {
            point: a - b,
            a,
            b,
            index_a,
            index_b,
        }
    }

    /// The support point of A − B along `world_direction`: the vertex of A farthest along
    /// it minus the vertex of B farthest along its opposite. Counts two support calls.
    pub fn support(&self, world_direction: Vec2, work: &mut Work) -> SupportPoint {
        self.support_from(world_direction, None, work)
    }

    /// [`GjkInput::support`] found by hill climbing from the vertices of `near` (a support
    /// point for a nearby direction) on views large enough for the climb to pay
    /// (`ConvexView::support_index_near`); the same point up to exact ties.
    // Always inlined, as `support_from`: as a call from GJK's and EPA's loops it took
    // 288.1 M instructions on `examples/gjk_workload.rs` against 286.5 M inlined, the
    // same answers (checksum).
    #[inline(always)]
    pub fn support_near(&self, world_direction: Vec2, near: &SupportPoint, work: &mut Work) -> SupportPoint {
        self.support_from(world_direction, Some((near.index_a, near.index_b)), work)
    }

    // Always inlined: GJK's loop asks for a support point three or four times per piece
    // pair, and as a call (six saved registers, spilled direction and pose) it took
    // 289.9 M instructions on `examples/gjk_workload.rs` against 288.1 M inlined, the
    // same answers (checksum).
    #[inline(always)]
    fn support_from(&self, world_direction: Vec2, near: Option<(usize, usize)>, work: &mut Work) -> SupportPoint {
        // The narrow phase runs GJK and EPA in A's frame (`gjk_epa.rs`), A at the identity:
        // its turns are then skipped. Turning by the identity is exact (x·1 − y·0 = x), so
        // the answer is the same to the bit, up to the sign of a zero.
        let a_at_origin = self.pose_a == Pose::IDENTITY;
        let direction_in_a = if a_at_origin {
            world_direction
        } else {
            self.pose_a.apply_inv_vector(world_direction)
        };
        let direction_in_b = self.pose_b.apply_inv_vector(-world_direction);
        let (index_a, index_b) = match near {
            Some((near_a, near_b)) => {
                let (index_a, dots_a) = support_index_near(&self.a, direction_in_a, near_a);
                let (index_b, dots_b) = support_index_near(&self.b, direction_in_b, near_b);
                work.vertices_scanned += dots_a + dots_b;
                (index_a, index_b)
            }
            None => {
                work.vertices_scanned += (self.a.vertices.len() + self.b.vertices.len()) as u32;
                (
                    self.a.support_index(direction_in_a),
                    self.b.support_index(direction_in_b),
                )
            }
        };
        work.support_calls += 2;
        let a = if a_at_origin {
            local_vertex(&self.a, index_a)
        } else {
            self.pose_a.apply_point(local_vertex(&self.a, index_a))
        };
        let b = self.pose_b.apply_point(local_vertex(&self.b, index_b));
        SupportPoint {
            point: a - b,
            a,
            b,
            index_a,
            index_b,
        }
    }

    /// GJK's first search direction, world frame: the configured one, else from A's vertex
    /// mean towards B's (the support of A − B along it lies on the side of A − B that faces
    /// the origin, so the first simplex starts close), else +x when that is degenerate.
    fn initial_direction(&self, a: &ViewSummary, b: &ViewSummary, config: &NarrowConfig) -> Vec2 {
        let configured = config.gjk_initial_direction.and_then(Vec2::try_normalize);
        configured
            .or_else(|| (b.world_mean(&self.pose_b) - a.world_mean(&self.pose_a)).try_normalize())
            .unwrap_or(Vec2::X)
    }
}

/// Views below this many vertices take [`ConvexView::support_index_near`] inlined into
/// GJK's and EPA's loops; larger ones through a call ([`support_index_near_large`]).
const SUPPORT_INLINE_MAX_VERTICES: usize = 7;

/// [`ConvexView::support_index_near`] (the same function, so the same vertex), inlined
/// only for small views: the four-lane scan and the climb of large views, inlined, put
/// their loop set-up (counts, pointers, lanes) at the top of GJK's loop, paid on every
/// call while most decomposition pieces have fewer than eight vertices.
#[inline(always)]
fn support_index_near(view: &ConvexView, local_direction: Vec2, start: usize) -> (usize, u32) {
    if view.vertices.len() <= SUPPORT_INLINE_MAX_VERTICES {
        view.support_index_near(local_direction, start)
    } else {
        support_index_near_large(view, local_direction, start)
    }
}

/// [`support_index_near`] on views of more than [`SUPPORT_INLINE_MAX_VERTICES`] vertices.
#[inline(never)]
fn support_index_near_large(view: &ConvexView, local_direction: Vec2, start: usize) -> (usize, u32) {
    view.support_index_near(local_direction, start)
}

/// A first support point for GJK that the caller found already: `index_a` is the vertex
/// of A farthest along some direction, `index_b` the vertex of B farthest against it. The piece loop of a
/// decomposed pair scans both pieces along the axis between their boxes before GJK
/// (`compound.rs`, `box_axis_gap`), and those extremes are exactly this support point:
/// GJK then starts there instead of scanning both pieces again (van den Bergen's
/// "Collision Detection in Interactive 3D Environments", 4.3.4, starts GJK from any
/// point of A − B; a nearer one only saves iterations).
#[derive(Clone, Copy, Debug)]
pub(crate) struct GjkStart {
    pub(crate) index_a: usize,
    pub(crate) index_b: usize,
}

/// GJK's answer.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GjkOutput {
    /// Distance between the cores (0 when they touch or overlap).
    pub distance: f32,
    /// Closest point on A's core, world frame. When the cores overlap, a point common to
    /// both (within rounding).
    pub point_a: Vec2,
    /// Closest point on B's core, world frame.
    pub point_b: Vec2,
    /// Unit direction from A's closest point towards B's, world frame (zero when the
    /// cores touch or overlap). When the closest feature of A − B is an edge (a two-point
    /// simplex) this is that edge's normal, not `point_b − point_a` normalised: the closest
    /// points carry an error of about an ulp of the scale, which turns into a direction
    /// error of ulp·scale/distance — large for small distances or large coordinates —
    /// while the edge's direction is known to ulp·scale/edge length.
    pub normal: Vec2,
    /// The final simplex.
    pub simplex: Simplex,
    /// Why it stopped.
    pub termination: GjkTermination,
    /// Iterations run (support queries after the first).
    pub iterations: u32,
}

/// |v| at or below this many ulps of the scale means the origin lies on the simplex.
/// Coordinates of support points are rounded to about one ulp of the scale; the closest
/// point of a segment through the origin comes out a few ulps off, and asking for less
/// would send exactly touching shapes on to the progress test (they would then report a
/// distance of a few ulps, which is also acceptable, but less honest).
const CONTAINS_ORIGIN_ULPS: f32 = 4.0;

/// Runs GJK on the cores of `input` (radii ignored): distance, closest points and the final
/// simplex, all world frame.
///
/// # Termination rules
///
/// Exact arithmetic GJK converges in finitely many steps on polygons; f32 GJK does not
/// have to, so each stop is explicit:
///
/// - **ContainsOrigin** — the solved simplex is a triangle holding the origin, or its
///   closest point is within a few ulps of the scale of the origin (the origin lies on an
///   edge or vertex of the simplex: touching, or the first support point was the origin).
///   Distance 0; EPA takes over. Without the "few ulps" part a segment through the origin
///   would report a rounding residue as a distance and search along a direction that is
///   pure noise.
/// - **RepeatedSupport** — the new support point comes from the same vertex pair as a
///   simplex vertex. In exact arithmetic that means the closest point is final; in f32,
///   near touching contact, the closest point can wobble by an ulp and the search
///   direction flip between two neighbours forever. This rule (Box2D's) stops that cycle.
/// - **NoProgress** — with v the current closest point and w the new support point along
///   −v, every point x of A − B satisfies x·v ≥ w·v, so the distance lies in
///   [w·v/|v|, |v|]. When that bracket is narrower than `config.gjk_epsilon × scale` the
///   answer is as good as f32 can make it. The tolerance is relative to the scale (the
///   shapes' extents plus their distance from the world origin) because the support points
///   themselves carry an error of about an ulp of that scale: an absolute epsilon would
///   never be met at 10⁴ m (cycling to the cap) and would accept a 100 % error on 1 mm
///   shapes. The same rule also stops GJK if a step fails to bring the closest point
///   nearer (possible only through rounding); the previous simplex is then kept.
/// - **IterationCap** — `config.gjk_max_iterations`; a last guard against cycles the
///   rules above miss (and NaN input). The best simplex so far is returned.
///
/// The result is deterministic: no randomness, fixed tie-breaking (lowest vertex index).
pub fn gjk(input: &GjkInput, config: &NarrowConfig, work: &mut Work, trace: &mut Option<&mut Trace>) -> GjkOutput {
    let mut simplex = WorkingSimplex::EMPTY;
    let stop = gjk_until(input, config, None, &mut simplex, work, trace, |_, _| false);
    stop.output(&simplex)
}

/// [`gjk`], for the GJK → EPA hand-off (`gjk_epa.rs`): the final simplex is left in
/// `simplex`, and what ended the run, with the scale its tolerances were relative to
/// ([`GjkInput::scale`], which EPA uses too), is returned. The closest points on A and B
/// are not computed (the hand-off never reads them; [`GjkStop::output`] gives them).
///
/// `apart_enough(lower, upper)` may stop GJK before it converges, with the distance
/// bracketed in [lower, upper] (see NoProgress in [`gjk`]'s termination rules): when it
/// says yes, GJK stops with NoProgress and its distance is `lower` (a lower bound, not the
/// distance). For callers that only need to know the cores are apart, or by how much at
/// least (`gjk_epa.rs`); never with a trace, whose steps the lessons show to the end.
///
/// `start`, when given, is GJK's first support point ([`GjkStart`]) in place of the one
/// along the first search direction.
pub(super) fn gjk_until(
    input: &GjkInput,
    config: &NarrowConfig,
    start: Option<GjkStart>,
    simplex: &mut WorkingSimplex,
    work: &mut Work,
    trace: &mut Option<&mut Trace>,
    apart_enough: impl Fn(f32, f32) -> bool,
) -> GjkStop {
    // One loop, two builds of it: with no trace every record compiles away.
    match trace.as_deref_mut() {
        Some(trace) => gjk_run(input, config, start, simplex, work, &mut Traced(trace), apart_enough),
        None => gjk_run(input, config, start, simplex, work, &mut Untraced, apart_enough),
    }
}

/// GJK's loop (see [`gjk`] for the rules), telling `recorder` about each step.
fn gjk_run<R: GjkRecorder>(
    input: &GjkInput,
    config: &NarrowConfig,
    start: Option<GjkStart>,
    simplex: &mut WorkingSimplex,
    work: &mut Work,
    recorder: &mut R,
    apart_enough: impl Fn(f32, f32) -> bool,
) -> GjkStop {
    let mut apart_lower_bound = None;
    let (scale, first) = input.prepare(config, start, work);
    let contains_tol = CONTAINS_ORIGIN_ULPS * f32::EPSILON * scale;
    let progress_tol = config.gjk_epsilon * scale;

    simplex.start(first);
    // The solved simplex's point nearest the origin, carried from the step that solved it.
    let mut closest = simplex.closest();
    let mut iterations: u32 = 0;

    let termination = loop {
        let dist_sq = closest.length_squared();
        if simplex.len == 3 || dist_sq <= contains_tol * contains_tol {
            break GjkTermination::ContainsOrigin;
        }
        if iterations >= config.gjk_max_iterations {
            break GjkTermination::IterationCap;
        }
        // |v|, also the length of the search direction (`search_direction`).
        let distance = dist_sq.sqrt();
        let direction = search_direction(simplex, closest, distance);
        // The newest simplex vertex was the support for the previous direction: the climb
        // starts there (on large views; small ones scan).
        let support = input.support_near(direction, &simplex.vertices[simplex.len - 1], work);
        iterations += 1;
        let before = recorder.before(simplex);
        let step = GjkStepAt {
            iteration: iterations - 1,
            closest,
            direction,
            support,
        };

        if simplex.contains(&support) {
            recorder.step(before, &step, simplex);
            break GjkTermination::RepeatedSupport;
        }
        // |v|² plus the rounding of recomputing it from another simplex (a few ulps).
        let not_worse_sq = dist_sq * (1.0 + 8.0 * f32::EPSILON);
        // Every point x of A − B has x·d ≤ w·d along the searched direction d, so the
        // distance is at least −w·d/|d| (d is −v, or v's accurate version on an edge).
        let lower_bound = -support.point.dot(direction) / direction.length();
        if apart_enough(lower_bound, distance) {
            apart_lower_bound = Some(lower_bound);
            recorder.step(before, &step, simplex);
            break GjkTermination::NoProgress;
        }

        // The step is tried in place: `pop` takes the new point out again and gives back
        // the simplex as it was, as long as the solve is not applied.
        simplex.push(support);
        let solved = simplex.solved();
        let new_closest = simplex.closest_of(&solved);
        let new_dist_sq = new_closest.length_squared();
        if distance - lower_bound <= progress_tol {
            // The distance is final, but the direction of v is only accurate to about
            // sqrt(2 · progress_tol / |v|) (the bound is quadratic in the angle): if v sits
            // on a vertex next to the true closest edge, keeping the new point gives that
            // edge, whose normal is exact. Keep it only when it does not make v worse.
            if solved.len() < 3 && new_dist_sq <= not_worse_sq {
                simplex.apply(&solved);
                closest = new_closest;
            } else {
                simplex.pop();
            }
            recorder.step(before, &step, simplex);
            break GjkTermination::NoProgress;
        }
        if solved.len() < 3 && (new_dist_sq.is_nan() || new_dist_sq >= dist_sq) {
            // The step did not bring v closer. In exact arithmetic that cannot happen; in
            // f32 it does when the new edge is almost perpendicular to v (its closest point
            // is a hair inside it and improves |v| by less than rounding). The distance is
            // then final. Keep the new simplex when it is no worse within rounding: it holds
            // the closest edge, whose normal is the accurate one. Otherwise (or on NaN) go
            // back to the old simplex.
            if new_dist_sq.is_nan() || new_dist_sq > not_worse_sq {
                simplex.pop();
            } else {
                simplex.apply(&solved);
                closest = new_closest;
            }
            recorder.step(before, &step, simplex);
            break GjkTermination::NoProgress;
        }
        simplex.apply(&solved);
        closest = new_closest;
        recorder.step(before, &step, simplex);
    };
    work.gjk_iterations += iterations;

    let stop = GjkStop {
        termination,
        iterations,
        closest,
        apart_lower_bound,
        scale,
    };
    recorder.end(&stop, simplex);
    stop
}

/// Where GJK searches next: towards the origin from the simplex point `closest` nearest
/// to it. For a one-point simplex that is −closest. For a segment it is the segment's
/// perpendicular on the origin's side (Box2D's `b2ComputeSimplexSearchDirection`), scaled
/// to |closest| (`closest_length`, which the caller has at hand) so that traces read as before: `closest` is a barycentric combination of
/// the two ends and carries an error of about an ulp of their size, so when the segment
/// passes close to the origin its direction is noise (2e-3 rad for a 1 m segment 3e-5 m
/// from the origin), and a noisy direction can pick the wrong one of two nearly tied
/// support vertices, repeat a simplex vertex and stop with a distance for shapes that
/// overlap (`tests/gjk_epa.rs`, `gjk_search_direction_is_the_segment_normal`). The
/// perpendicular comes from the segment's direction, accurate to an ulp of its length;
/// its side from the sign of cross(e, −w0), exact up to the same rounding.
fn search_direction(simplex: &WorkingSimplex, closest: Vec2, closest_length: f32) -> Vec2 {
    if simplex.len == 2 {
        let w0 = simplex.vertices[0].point;
        let e = simplex.vertices[1].point - w0;
        let side = cross(e, -w0);
        if let Some(perp) = right_perp(e).try_normalize() {
            if side != 0.0 {
                // right_perp turns e clockwise: the origin is on that side when the
                // cross product is negative.
                let towards_origin = if side < 0.0 { perp } else { -perp };
                return towards_origin * closest_length;
            }
        }
    }
    -closest
}

/// The unit normal from A towards B for separated cores: the closest point of A − B is
/// `closest` = point_a − point_b, so the normal is −closest/|closest|; on an edge of A − B
/// the edge's own normal (turned to face the origin) is the accurate version of the same
/// direction. Zero when no direction can be formed.
fn separation_normal(simplex: &WorkingSimplex, closest: Vec2) -> Vec2 {
    if simplex.len == 2 {
        let edge = simplex.vertices[1].point - simplex.vertices[0].point;
        if let Some(n) = right_perp(edge).try_normalize() {
            return if n.dot(closest) > 0.0 { -n } else { n };
        }
    }
    (-closest).try_normalize().unwrap_or(Vec2::ZERO)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The one-pass summary gives the scale and the vertex mean of the two passes it
    /// replaced, to the bit, also for an empty view and a view with a NaN vertex.
    #[test]
    fn view_summary_matches_the_two_passes() {
        let views: [&[Vec2]; 4] = [
            &[Vec2::new(0.3, -1.7), Vec2::new(2.5, 0.25), Vec2::new(-0.1, 0.9)],
            &[],
            &[Vec2::new(1.0, 2.0), Vec2::new(f32::NAN, 0.0), Vec2::new(-3.0, 0.5)],
            &[
                Vec2::new(1e4, 1e4 + 0.5),
                Vec2::new(1e4 + 0.25, 1e4),
                Vec2::new(1e4, 1e4 - 0.125),
            ],
        ];
        let pose = Pose::new(Vec2::new(-3.5, 7.25), 0.6);
        for vertices in views {
            let view = ConvexView {
                vertices,
                normals: &[],
                radius: 0.0,
                summary: None,
            };
            let summary = ViewSummary::of(&view);
            let extent = vertices.iter().fold(0.0f32, |m, v| m.max(v.length_squared())).sqrt();
            assert_eq!(summary.extent().to_bits(), extent.to_bits(), "{vertices:?}");
            let mean = if vertices.is_empty() {
                pose.translation
            } else {
                pose.apply_point(vertices.iter().fold(Vec2::ZERO, |s, v| s + *v) / vertices.len() as f32)
            };
            let got = summary.world_mean(&pose);
            let same = |x: f32, y: f32| x.to_bits() == y.to_bits() || (x.is_nan() && y.is_nan());
            assert!(same(got.x, mean.x) && same(got.y, mean.y), "{got:?} {mean:?}");
        }
    }
}
