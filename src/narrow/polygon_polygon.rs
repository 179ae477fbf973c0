//! Two convex polygons with no trace asked for: the fast path of SatDecomposed and GjkEpa
//! (and of the speculative points) for single-piece shapes, which is every box pair of a
//! pile, every step.
//!
//! The general path (`compound.rs` → `sat.rs` or `gjk.rs` → `clip.rs`) works in the world
//! frame: SAT turns each axis into B's frame, GJK turns each search direction into both
//! frames and each support vertex back out, clipping poses every edge end it reads. Here
//! B's vertices are turned into A's local frame once, and everything after that happens in
//! A's frame — the separating axis test (or GJK and EPA), the choice of reference and
//! incident edges, the clip — as in Box2D v3's `b2CollidePolygons` (manifold.c) and
//! parry's `contact_manifold_convex_polygon`. Only the answer is turned back into the
//! world. Working near A's origin also keeps the rounding of the clip independent of how
//! far the pair is from the world origin.
//!
//! The answer means exactly what the general path's means, because it is the same
//! algorithm on the same data:
//! - SAT tries the same axes in the same order (A's edge normals, then B's), each with
//!   both projection intervals, keeps the first axis of largest gap and stops at the first
//!   gap above the touching tolerance (or the speculative margin); the only difference is
//!   where B's projection is rounded (its vertices turned into A's frame, instead of the
//!   axis turned into B's frame and the offset added), which moves a gap by a few ulps.
//! - GjkEpa runs the same `gjk` and `epa` in A's frame (A at the identity, B placed by
//!   B's pose relative to A's); their tolerances are relative to the pair's extent in A's
//!   frame, not to the world coordinates. B's vertices are turned into A's frame only for
//!   the clip.
//! - Contact points come from the same clipping code (`clip::clip_incident`), with the
//!   reference edge chosen by the same rule (`clip::best_edge`, the same 1e-3 bias
//!   towards A), so the contact ids — reference side, reference edge, incident vertex —
//!   are the general path's and warm starting matches points across the two.
//! - The work counters count what was done: one box test, one piece pair, and per axis
//!   the vertices of both shapes (or GJK's and EPA's own counts).
//!
//! `tests/narrow_convex.rs` compares this path with the traced (general) one on random
//! convex pairs, and both with the exact oracle.

use super::clip::{best_edge, clip_incident, ClipEdges};
use super::compound::PairTest;
use super::contact::{Contact, ContactPoints, Work};
use super::gjk_epa::penetration_in_a;
use super::query::{PieceQuery, Recorder};
use super::sat::{centrally_symmetric, edge_separations, interval_gap, project_four};
use super::speculative::SpeculativePoints;
use super::NarrowConfig;
use crate::bounds::Aabb;
use crate::geometry::ConvexView;
use crate::math::{Pose, Rot, Vec2};
use wide::f32x4;

/// B may have at most this many vertices for the fast path: its vertices in A's frame
/// live in a buffer on the stack (the general path takes larger pieces; neither
/// allocates).
pub(crate) const MAX_VERTICES_B: usize = 64;

/// B's vertices go into a buffer of this many when they fit: the buffer is cleared on
/// every call, and clearing 64 vertices costs a box pair about a tenth of its time
/// (measured with `collision-lab bench --families convex --vertices 4`).
const SMALL_VERTICES_B: usize = 16;

/// Calls `f` with a cleared buffer on the stack big enough for B's vertices ([`fits`]
/// must hold).
#[inline]
fn with_buffer_for<R>(b: &ConvexView, f: impl FnOnce(&mut [Vec2]) -> R) -> R {
    if b.vertices.len() <= 4 {
        // Boxes, the commonest pieces: a quarter of the clearing.
        f(&mut [Vec2::ZERO; 4])
    } else if b.vertices.len() <= SMALL_VERTICES_B {
        f(&mut [Vec2::ZERO; SMALL_VERTICES_B])
    } else {
        f(&mut [Vec2::ZERO; MAX_VERTICES_B])
    }
}

/// Whether a pair of pieces can take this path: both polygons or segments (edge normals,
/// no radius) and B small enough.
#[inline]
pub(crate) fn fits(a: &ConvexView, b: &ConvexView) -> bool {
    !a.normals.is_empty()
        && !b.normals.is_empty()
        && a.radius == 0.0
        && b.radius == 0.0
        && b.vertices.len() <= MAX_VERTICES_B
}

/// A and B in A's local frame: A's own view, and B's vertices turned into A's frame. B's
/// normals stay in B's frame and are turned when read (each is read at most twice).
struct PairInA<'a> {
    a: ConvexView<'a>,
    b: ConvexView<'a>,
    /// Turns B's directions into A's frame.
    rot_ab: Rot,
    vertices_b: &'a [Vec2],
}

impl<'a> PairInA<'a> {
    /// `xf_ab` places B in A's frame; `buffer` receives B's vertices there.
    fn new(a: &ConvexView<'a>, b: &ConvexView<'a>, xf_ab: &Pose, buffer: &'a mut [Vec2]) -> Self {
        let vertices_b = &mut buffer[..b.vertices.len()];
        pose_points(xf_ab, b.vertices, vertices_b);
        PairInA {
            a: *a,
            b: *b,
            rot_ab: xf_ab.rotation,
            vertices_b: &*vertices_b,
        }
    }

    /// B's vertices, A's frame.
    #[inline]
    fn vertices_b(&self) -> &[Vec2] {
        self.vertices_b
    }

    /// B's edge normal `j`, A's frame.
    #[inline]
    fn normal_b(&self, j: usize) -> Vec2 {
        self.rot_ab.apply(self.b.normals[j])
    }
}

/// `out[k] = xf.apply_point(points[k])` (as many as `points`), two points at a time: x
/// and y of both in the four lanes of a SIMD register, each lane making `apply_point`'s
/// products and sums in its order (`c·x − s·y` as `c·x + (−s)·y`, the same number:
/// negation is exact), so the points are the same to the bit. Every tested pair turns
/// all of B's vertices; one at a time left half of each register idle.
#[inline]
fn pose_points(xf: &Pose, points: &[Vec2], out: &mut [Vec2]) {
    let (c, s, t) = (xf.rotation.cos, xf.rotation.sin, xf.translation);
    let (along_x, along_y) = (f32x4::from([c, s, c, s]), f32x4::from([-s, c, -s, c]));
    let shift = f32x4::from([t.x, t.y, t.x, t.y]);
    let (ins, mut outs) = (points.chunks_exact(2), out.chunks_exact_mut(2));
    let odd = ins.remainder().first().map(|&p| xf.apply_point(p));
    for (p, o) in ins.zip(outs.by_ref()) {
        let (xs, ys) = (
            f32x4::from([p[0].x, p[0].x, p[1].x, p[1].x]),
            f32x4::from([p[0].y, p[0].y, p[1].y, p[1].y]),
        );
        let w = ((along_x * xs + along_y * ys) + shift).to_array();
        (o[0], o[1]) = (Vec2::new(w[0], w[1]), Vec2::new(w[2], w[3]));
    }
    if let (Some(w), Some(o)) = (odd, outs.into_remainder().first_mut()) {
        *o = w;
    }
}

/// The separating axis test in A's frame, for the general path's answer at a fraction of
/// its cost. Returns the normal from A towards B (A's frame) and the depth (positive:
/// overlap; otherwise minus the gap of the axis that stopped the test, or of the best
/// axis).
///
/// `sat::penetration_sat` projects both shapes on each edge normal of both and keeps the
/// larger of the two gaps (B beyond A on the axis, or A beyond B): it tries every
/// direction of S = {±n_Ai, ±n_Bj}. Box2D's `b2FindMaxSeparation` tries only each edge's
/// own side, E = {n_Ai, −n_Bj} — the edge normals of the Minkowski difference D = A − B —
/// and needs only the other shape's vertices for it: the separation of B from A's edge i
/// is min_j n_Ai·(b_j − a_i), one dot per vertex instead of both intervals. On E and S
/// alike, the best gap is −min_u h_D(u) over the directions tried (h_D: D's support
/// function, u the normal from A towards B). Three cases:
/// - D holds the origin (the best gap on E is ≤ 0): h_D over unit directions is smallest
///   at an edge normal of D (between two edge normals it is a positive cosine arc, whose
///   minimum is at an end), and E holds them all, so E and S give the same gap along the
///   same direction (they differ only in which of several exactly tied directions comes
///   first).
/// - A gap on E above `stop_at`: S holds E, so S has one too, and the general path also
///   stops; the caller drops the answer (separated, or too far for speculation).
/// - 0 < gap ≤ `stop_at` (the bodies are apart by less than the stop: the speculative
///   margin, or the touching tolerance under `TouchingPolicy::Intersecting`): S's extra
///   directions −n_Ai, +n_Bj can find a larger gap than E (two triangles corner to
///   corner). They add nothing when both shapes are centrally symmetric (boxes: every
///   −n_Ai is some n_Ak); otherwise the two-sided test runs as the general path's does.
fn sat_in_a(pair: &PairInA, stop_at: f32, work: &mut Work) -> (Vec2, f32) {
    let (normal, depth) = if small::fits(pair) {
        small::sat_one_sided_small(pair, stop_at, work)
    } else {
        sat_one_sided_in_a(pair, stop_at, work)
    };
    let gap = -depth;
    if gap > 0.0 && gap <= stop_at && !(centrally_symmetric(pair.a.normals) && centrally_symmetric(pair.b.normals)) {
        return sat_two_sided_in_a(pair, stop_at, work);
    }
    (normal, depth)
}

/// Box2D's one-sided SAT over E = {n_Ai, −n_Bj} (see [`sat_in_a`]): A's edges first, then
/// B's, the first largest gap kept, stopping at the first gap above `stop_at`.
fn sat_one_sided_in_a(pair: &PairInA, stop_at: f32, work: &mut Work) -> (Vec2, f32) {
    let (vertices_a, vertices_b) = (pair.a.vertices, pair.vertices_b());
    let mut best_gap = f32::NEG_INFINITY;
    let mut best_normal = Vec2::X;
    let mut stopped = false;
    let a_normals = pair.a.normals;
    edge_separations(
        vertices_a,
        |i| a_normals[i],
        vertices_b,
        work,
        |n, gap| {
            if gap > best_gap {
                (best_gap, best_normal) = (gap, n);
                stopped = gap > stop_at;
            }
            stopped
        },
    );
    if stopped {
        return (best_normal, -best_gap);
    }
    edge_separations(
        vertices_b,
        |j| pair.normal_b(j),
        vertices_a,
        work,
        |n, gap| {
            if gap > best_gap {
                // B's outward normal points from B towards A.
                (best_gap, best_normal) = (gap, -n);
                return gap > stop_at;
            }
            false
        },
    );
    (best_normal, -best_gap)
}

/// SAT in A's frame with both intervals on every axis: the same axes, order, orientation
/// rule and early exit as `sat::penetration_sat`.
fn sat_two_sided_in_a(pair: &PairInA, stop_at: f32, work: &mut Work) -> (Vec2, f32) {
    let (vertices_a, vertices_b) = (pair.a.vertices, pair.vertices_b());
    let scanned = (vertices_a.len() + vertices_b.len()) as u32;
    let mut best_gap = f32::NEG_INFINITY;
    let mut best_axis = Vec2::X;
    let (na, nb) = (pair.a.normals.len(), pair.b.normals.len());
    let axis = |k: usize| {
        if k < na {
            pair.a.normals[k]
        } else {
            pair.normal_b(k - na)
        }
    };
    // Four axes at once (`project_four`: each lane's interval is `project_interval`'s to
    // the bit), then each looked at in order as before. The test mostly stops within the
    // first four axes (two or three on the rain of 1000 polygons), where projecting one
    // axis at a time cost each axis two calls of loop and join.
    for group in (0..na + nb).step_by(4) {
        let last = (na + nb - 1).min(group + 3);
        let axes: [Vec2; 4] = std::array::from_fn(|i| axis((group + i).min(last)));
        let ((lo_a, hi_a), (lo_b, hi_b)) = (project_four(vertices_a, &axes), project_four(vertices_b, &axes));
        for (i, &axis) in axes[..=last - group].iter().enumerate() {
            let (ia, ib) = ((lo_a[i], hi_a[i]), (lo_b[i], hi_b[i]));
            let gap = interval_gap(ia, ib);
            work.axes_tested += 1;
            work.vertices_scanned += scanned;
            if gap > best_gap {
                best_gap = gap;
                // B on the positive side of A along the axis: the normal is +axis.
                best_axis = if ib.1 - ia.0 >= ia.1 - ib.0 { axis } else { -axis };
            }
            if gap > stop_at {
                // A separating axis (beyond the tolerance or the margin): no need to go on.
                return (best_axis, -best_gap);
            }
        }
    }
    (best_axis, -best_gap)
}

/// Contact points in A's frame for a normal (A's frame, from A towards B) and depth:
/// the same choice of edges as `clip::contact_points_within`, on the same clipping code.
fn clip_in_a(pair: &PairInA, normal: Vec2, depth: f32, max_separation: f32) -> ContactPoints {
    let edge_a = best_edge(&pair.a, normal);
    // `best_edge` on B, in A's frame: B's support vertex along −normal (ties to the lowest
    // index), then the better aligned of the two edges beside it.
    let vertices_b = pair.vertices_b();
    let m = vertices_b.len();
    let mut support = 0;
    let mut support_dot = f32::NEG_INFINITY;
    for (j, v) in vertices_b.iter().enumerate() {
        let d = -v.dot(normal);
        if d > support_dot {
            support_dot = d;
            support = j;
        }
    }
    let prev = (support + m - 1) % m;
    let d_next = -pair.normal_b(support).dot(normal);
    let d_prev = -pair.normal_b(prev).dot(normal);
    let edge_b = if d_prev > d_next {
        (prev, d_prev)
    } else {
        (support, d_next)
    };
    clip_edges_in_a(pair, edge_a, edge_b, depth, max_separation)
}

/// The clip of [`clip_in_a`] once each shape's best edge is known (edge index,
/// alignment with the normal, for A; with −normal, for B).
fn clip_edges_in_a(
    pair: &PairInA,
    (edge_a, align_a): (usize, f32),
    (edge_b, align_b): (usize, f32),
    depth: f32,
    max_separation: f32,
) -> ContactPoints {
    let vertices_b = pair.vertices_b();
    let (na, m) = (pair.a.vertices.len(), vertices_b.len());
    // The same bias towards A as `clip.rs` (feature flip-flop).
    let reference_on_b = align_b > align_a + 1e-3;
    let edges = if reference_on_b {
        let incident = [edge_a, (edge_a + 1) % na];
        ClipEdges {
            reference: (vertices_b[edge_b], vertices_b[(edge_b + 1) % m]),
            reference_normal: pair.normal_b(edge_b),
            incident: incident.map(|i| (pair.a.vertices[i], i)),
            ids: (0, 0, true, edge_b),
        }
    } else {
        let incident = [edge_b, (edge_b + 1) % m];
        ClipEdges {
            reference: (pair.a.vertices[edge_a], pair.a.vertices[(edge_a + 1) % na]),
            reference_normal: pair.a.normals[edge_a],
            incident: incident.map(|j| (vertices_b[j], j)),
            ids: (0, 0, false, edge_a),
        }
    };
    clip_incident(&edges, depth, max_separation).0
}

/// Points from A's frame into the world, in place (filled one by one into a new set,
/// they cost every touching box pair a clearing and a bounds check per point more).
fn points_to_world(mut points: ContactPoints, pose_a: &Pose) -> ContactPoints {
    for p in points.as_mut_slice() {
        p.point = pose_a.apply_point(p.point);
    }
    points
}

/// World box of a polygon piece (no radius: `fits` checked that).
#[inline]
fn world_box(view: &ConvexView, pose: &Pose) -> Aabb {
    Aabb::from_points_posed(view.vertices, pose)
}

/// SatDecomposed's or GjkEpa's answer for the two single-piece convex polygons of `q`
/// ([`fits`] must hold), without a trace: the general path's pair test and clip, in A's
/// frame. The caller has done the box test and counted it, the piece pair and the
/// primitive test in `work`.
pub(crate) fn collide_polygon_polygon(q: &PieceQuery, test: PairTest, mut work: Work) -> Contact {
    let (a, pose_a, b, xf_ab, scale, config) = (&q.a, &q.pose_a, &q.b, q.xf_ab, q.scale, q.config);
    with_buffer_for(b, |buffer| {
        let (pair, normal, depth) = match test {
            PairTest::Sat => {
                let pair = PairInA::new(a, b, &xf_ab, buffer);
                let (normal, depth) = sat_in_a(&pair, config.separating_gap(scale), &mut work);
                (pair, normal, depth)
            }
            PairTest::GjkEpa => {
                // B's vertices are not turned in advance: GJK's support mapping turns
                // each direction into B's frame and only the support vertex back, which
                // for GJK's few calls costs less than turning every vertex.
                let pen = penetration_in_a(
                    q,
                    &mut Recorder {
                        work: &mut work,
                        trace: &mut None,
                    },
                );
                let (normal, depth) = (pen.normal, pen.depth);
                if !config.is_penetrating(depth, scale) {
                    return Contact::separated(work);
                }
                // B's vertices in A's frame for the clip only.
                (PairInA::new(a, b, &xf_ab, buffer), normal, depth)
            }
        };
        if !config.is_penetrating(depth, scale) {
            return Contact::separated(work);
        }
        let points = clip_in_a(&pair, normal, depth, 0.0);
        Contact::penetrating(
            pose_a.apply_vector(normal),
            depth,
            points_to_world(points, pose_a),
            work,
        )
    })
}

/// `speculative::speculative_points` for two single-piece convex polygons ([`fits`] must
/// hold; `margin` is finite and not negative): the same box test, SAT with the margin as
/// its stop and clip, in A's frame.
pub(crate) fn speculative_polygon_polygon(
    a: &ConvexView,
    pose_a: &Pose,
    b: &ConvexView,
    pose_b: &Pose,
    margin: f32,
    work: &mut Work,
) -> SpeculativePoints {
    let mut out = SpeculativePoints::default();
    work.bv_tests += 1;
    let half = 0.5 * margin;
    if !world_box(a, pose_a)
        .inflated(half)
        .overlaps(&world_box(b, pose_b).inflated(half))
    {
        return out;
    }
    work.piece_pairs_tested += 1;
    let xf_ab = pose_a.inv_mul(pose_b);
    with_buffer_for(b, |buffer| {
        let pair = PairInA::new(a, b, &xf_ab, buffer);
        let (normal, depth) = sat_in_a(&pair, margin, work);
        let gap = -depth;
        if gap.is_nan() || gap > margin {
            return out;
        }
        let points = clip_in_a(&pair, normal, -gap, margin);
        let world_normal = pose_a.apply_vector(normal);
        for p in points_to_world(points, pose_a).as_slice() {
            if -p.depth <= margin {
                out.push(world_normal, *p);
            }
        }
        out
    })
}

/// Whose answer [`detect_polygon_polygon_sat`] gives for the contact: the SAT is the same,
/// the rules around it are each algorithm's own.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum SatRule {
    /// SatDecomposed's (`compound.rs`): the pieces' world boxes are tested first (when
    /// `config.cull_by_bounds`), and the normal points the way the overlap is least.
    Decomposed,
    /// NonConvexSat's (Fayzrakhmanov et al., 2015; `sat_nonconvex.rs`) on two convex
    /// polygons, whose area centroids (each polygon's own frame) are given: no box test,
    /// and the normal's sense is the paper's step 10 — it points from A's centroid towards
    /// B's side (`C·V ≥ 0` with C = centre(A) − centre(B) and V = −normal).
    ///
    /// Why this is the paper's algorithm and not another: on two convex polygons step 7
    /// never runs (A is convex), so what is left is steps 1–6 and 8 — project both
    /// polygons on every edge normal of both, stop at the first separating axis, keep the
    /// axis of least overlap — which is the classic SAT over the same axes, A's edges
    /// first. The least overlap over those axes is the one [`sat_in_a`] finds (see there:
    /// with the polygons overlapping, D's edge normals hold every least-overlap
    /// direction), and the verdict is the same (a separating axis of two convex polygons
    /// is an edge normal). Steps 9 and 10 then give the normal the sense this rule does.
    /// What differs is rounding only: B's vertices turned into A's frame once instead of
    /// each axis turned into B's frame, the stored unit normals instead of normalised
    /// edge vectors — a few ulps on a gap, and the first of two exactly tied axes (the
    /// paper keeps the first minimum too). `tests/narrow_nonconvex_fast.rs` checks it
    /// against `sat_nonconvex::collide_nonconvex_sat` on random convex pairs.
    NonConvexSat {
        /// A's area centroid, A's frame.
        centroid_a: Vec2,
        /// B's area centroid, B's frame.
        centroid_b: Vec2,
    },
}

/// What the world's detection asks of a pair it tests, for two single-piece convex
/// polygons under SatDecomposed, or two convex polygons under NonConvexSat ([`fits`] must
/// hold; `margin` finite, not negative and at least `config.separating_gap(scale)`;
/// `rectangles` is A's [`crate::geometry::ConvexPolygon::centred_box`] when both A and B
/// are centred boxes, which takes the SAT of `rectangles.rs`, the same answer): the
/// contact `collide` would give and, when that is apart, the points `speculative_points`
/// would give — from one SAT where the two calls ran one each (a falling pile's pairs are
/// mostly near but apart, so most ran both). `boxes`, when given, are the two polygons'
/// world boxes (`world_box`'s answers, which the caller already has).
///
/// Why one SAT can answer both: SAT keeps the largest gap so far and stops at the first
/// above its stop. `collide` stops at the separating gap, speculation at the margin,
/// which is not smaller. Whenever the first run would stop, the second ends on a gap at
/// least as large, so both say apart; whenever it would not, no gap exceeds either stop
/// and both runs are the same run. So the contact is the same, bit for bit (for
/// SatDecomposed; for NonConvexSat up to the rounding [`SatRule::NonConvexSat`] lists),
/// and the speculative points are those of the margin's run, as before. The box tests are
/// the two calls' own: the plain boxes for SatDecomposed's contact (when
/// `config.cull_by_bounds`), the boxes grown by half the margin each for speculation.
pub(crate) fn detect_polygon_polygon_sat(
    (a, pose_a): (&ConvexView, &Pose),
    (b, pose_b): (&ConvexView, &Pose),
    (scale, config, rule): (f32, &NarrowConfig, SatRule),
    (margin, boxes): (f32, Option<(Aabb, Aabb)>),
    rectangles: Option<Vec2>,
    work: &mut Work,
) -> (Contact, SpeculativePoints) {
    let mut contact_work = Work::default();
    // The world passes its bodies' boxes: the same `Aabb::from_points_posed` of the same
    // vertices at the same poses.
    let (box_a, box_b) = boxes.unwrap_or_else(|| (world_box(a, pose_a), world_box(b, pose_b)));
    let boxes_touch = match rule {
        SatRule::Decomposed if config.cull_by_bounds => {
            contact_work.bv_tests += 1;
            box_a.overlaps(&box_b)
        }
        _ => true,
    };
    if boxes_touch {
        if rule == SatRule::Decomposed {
            contact_work.piece_pairs_tested += 1;
        }
        contact_work.primitive_tests += 1;
    }
    let half = 0.5 * margin;
    let near = box_a.inflated(half).overlaps(&box_b.inflated(half));
    if !near {
        // The grown boxes hold the plain ones (the margin is not negative): apart, and
        // by more than the margin, so by more than the separating gap too.
        work.bv_tests += 1;
        return (Contact::separated(contact_work), SpeculativePoints::default());
    }
    let xf_ab = pose_a.inv_mul(pose_b);
    with_buffer_for(b, |buffer| {
        let pair = PairInA::new(a, b, &xf_ab, buffer);
        // The counters of the contact's SAT, as `collide` reports them.
        let (normal, depth) = match rectangles {
            Some(half_a) => rectangles::sat_rectangles_in_a(&pair, half_a, margin, &mut contact_work),
            None => sat_in_a(&pair, margin, &mut contact_work),
        };
        if boxes_touch && config.is_penetrating(depth, scale) {
            let normal = match rule {
                SatRule::Decomposed => normal,
                SatRule::NonConvexSat { centroid_a, centroid_b } => {
                    // Step 10, in the world frame as `sat_nonconvex::finish` does it.
                    let (world_normal, c) = (
                        pose_a.apply_vector(normal),
                        pose_a.apply_point(centroid_a) - pose_b.apply_point(centroid_b),
                    );
                    if c.dot(-world_normal) < 0.0 {
                        -normal
                    } else {
                        normal
                    }
                }
            };
            let points = match rectangles {
                Some(_) => rectangles::clip_rectangles_in_a(&pair, normal, depth, 0.0),
                None => clip_in_a(&pair, normal, depth, 0.0),
            };
            let contact = Contact::penetrating(
                pose_a.apply_vector(normal),
                depth,
                points_to_world(points, pose_a),
                contact_work,
            );
            // Made here, not before the closure: moved in from outside, it was copied
            // out again on return (a memcpy per tested pair).
            return (contact, SpeculativePoints::default());
        }
        // Apart: what speculation's own box test and pair test would have counted.
        work.bv_tests += 1;
        work.piece_pairs_tested += 1;
        let mut speculative = SpeculativePoints::default();
        let gap = -depth;
        if gap > margin {
            // The SAT stopped on this axis: A's edge normal or the opposite of B's
            // (`sat_one_sided_in_a`), or, from the two-sided run, one of their opposites.
            speculative.prove_apart(gap);
        } else if !gap.is_nan() {
            let points = match rectangles {
                Some(_) => rectangles::clip_rectangles_in_a(&pair, normal, -gap, margin),
                None => clip_in_a(&pair, normal, -gap, margin),
            };
            let world_normal = pose_a.apply_vector(normal);
            for p in points_to_world(points, pose_a).as_slice() {
                if -p.depth <= margin {
                    speculative.push(world_normal, *p);
                }
            }
        }
        (Contact::separated(contact_work), speculative)
    })
}

mod rectangles;
mod small;
#[cfg(test)]
mod tests;
