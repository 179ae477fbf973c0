//! The separating axis test on whole, possibly non-convex polygons, without convex
//! decomposition: Fayzrakhmanov, Murzakaev, Shvetsov, Mekhonoshin and Khabibulin,
//! "Collision detection algorithms for flat two-dimensional objects of arbitrary
//! shape" (2015), Fayzrakhmanov et al. below.
//!
//! The paper's steps, for polygons PA and PB (what each line of code below implements is
//! marked with its step number):
//!
//! ```text
//! 1  E[i] = p[i+1] − p[i] for both polygons          (edges, wrapping around)
//! 2  m = edges of PA + edges of PB; k = 1
//! 3  axis A = normalise(−E[k].y, E[k].x)
//! 4  project both polygons on A: [minA, maxA], [minB, maxB]
//! 5  I = minB − maxA if minA < minB else minA − maxB  (gap)
//! 6  I > 0: the axis separates them — no collision, stop
//! 7  if E[k] is PA's and PA is non-convex: project the edge itself (one value e);
//!    if PB lies wholly on one side of e, the edge does not touch PB: next edge.
//!    If that holds for every edge of PA, the polygons do not intersect: stop.
//! 8  if the overlap −I beats the best so far: D = −I, V = A
//! 9  after all m axes the separating translation is V·D
//! 10 C = centre(PA) − centre(PB); if C·V < 0 flip V
//! 11 move PA by V
//! ```
//!
//! It is a heuristic. Plain SAT is exact only for convex shapes: two non-convex polygons
//! can overlap on every edge axis without touching (a false positive), and the least
//! overlap among edge axes can be far from the true penetration depth, and step 10's
//! centre-to-centre sign can point the wrong way. We implement it faithfully and measure
//! those disagreements (tests/nonconvex_rates.rs); lessons show them.
//!
//! Touching counts as not intersecting: step 6 stops on a gap above minus the touching
//! tolerance, and step 7 treats B resting exactly on the edge's line as one side.
//!
//! Step 4 is the hot loop — every axis projects every vertex, O(n·m) in all — so a
//! polygon with many vertices projects through its edge tree instead (Liu et al.'s (2018)
//! bounding-volume hierarchy; `NarrowConfig::edge_tree`), with the same result bit for
//! bit and O((n + m) log n) work on typical outlines.
//!
//! Circles have no edges; with a circle involved the whole-outline Voronoi test of
//! `circle.rs` (Ren and Xie 2011) answers instead.

use super::contact::{Contact, Work};
use super::query::{penetration_with_circle, PieceQuery, Recorder, ShapeQuery};
use super::sat::{interval_gap, project_interval};
use super::trace::{record, AxisSource, EdgeTestStep, Owner, SatAxisStep, Trace, TraceStep};
use super::EdgeTreePolicy;
use super::{contact_from_pair, NarrowConfig, PairPenetration};
use crate::bounds::Aabb;
use crate::geometry::{mass::polygon_centroid, ConvexView, EdgeTree, Shape};
use crate::math::{Pose, Vec2};

mod pruned;
pub use pruned::PRUNE_MIN_VERTICES;
use pruned::{ring_of, sat_whole_outlines_pruned, Outlines};

/// Fayzrakhmanov et al.'s (2015) algorithm (circles by Voronoi regions). See the module docs.
pub(crate) fn collide_nonconvex_sat(q: &ShapeQuery, trace: &mut Option<&mut Trace>) -> Contact {
    let (a, pose_a, b, pose_b, scale, config) = (q.a, &q.pose_a, q.b, &q.pose_b, q.scale, q.config);
    let mut work = Work {
        primitive_tests: 1,
        ..Work::default()
    };
    let whole = q.whole();
    let (va, vb) = (whole.a, whole.b);
    let pen = match penetration_with_circle(&whole, trace) {
        Some(pen) => Some(pen),
        None => {
            let a_nonconvex = matches!(a, Shape::Polygon(p) if !p.is_convex());
            let trees = (edge_tree_of(a, config), edge_tree_of(b, config));
            let pruned = trace.is_none()
                && match config.edge_tree {
                    EdgeTreePolicy::Never => false,
                    EdgeTreePolicy::Always => true,
                    EdgeTreePolicy::Auto { .. } => va.vertices.len() + vb.vertices.len() >= PRUNE_MIN_VERTICES,
                };
            if pruned {
                let outlines = Outlines {
                    a: &va,
                    pose_a,
                    ring_a: ring_of(a),
                    tree_a: trees.0,
                    a_nonconvex,
                    b: &vb,
                    pose_b,
                    ring_b: ring_of(b),
                    tree_b: trees.1,
                    box_b: match b {
                        Shape::Polygon(p) => p.local_aabb(),
                        _ => Aabb::from_points(vb.vertices),
                    },
                    xf_ab: q.xf_ab,
                    scale,
                    straddle: straddle_tolerance(q),
                    config,
                };
                sat_whole_outlines_pruned(&outlines, &mut work)
            } else {
                let straddle = straddle_tolerance(q);
                sat_whole_outlines(
                    &whole,
                    (a_nonconvex, straddle),
                    trees,
                    &mut Recorder { work: &mut work, trace },
                )
            }
        }
    };
    match pen {
        Some(pen) if config.is_penetrating(pen.depth, scale) => contact_from_pair(&whole, pen, work, trace),
        _ => Contact::separated(work),
    }
}

/// Step 7's tolerance (m): B straddles the line of an edge of A when it reaches beyond
/// it by more than this on both sides. The test compares B's projection, computed in A's
/// frame, with the edge, so its rounding is relative to the pair's own extent in A's
/// frame (the larger size plus B's offset from A), not to the world coordinates that
/// step 6's touching tolerance carries: with the latter, two identical non-convex bodies
/// at the same pose 7 km out had no edge of A straddling B (a 2.3 mm notch within a
/// 6.8 mm tolerance) and came out apart (`tests/precision.rs`).
fn straddle_tolerance(q: &ShapeQuery) -> f32 {
    q.config.touch_tolerance * (q.a.size().max(q.b.size()) + q.xf_ab.translation.abs().max_element())
}

/// The edge tree NonConvexSat projects through, if the policy wants it for this shape.
fn edge_tree_of<'s>(shape: &'s Shape, config: &NarrowConfig) -> Option<&'s EdgeTree> {
    match shape {
        Shape::Polygon(p) if config.edge_tree.uses_tree(p.vertices().len()) => Some(p.edge_tree()),
        _ => None,
    }
}

/// Step 4's projection of one outline: through its edge tree when there is one (the
/// same interval, bit for bit, visiting O(log n) nodes on typical outlines — Liu et al.'s (2018)
/// hierarchy, see `geometry::edge_tree`), else over every vertex.
#[inline]
fn project_outline(vertices: &[Vec2], tree: Option<&EdgeTree>, axis: Vec2, work: &mut Work) -> (f32, f32) {
    match tree {
        Some(tree) => {
            let (interval, cost) = tree.project(vertices, axis);
            work.bv_tests += cost.nodes;
            work.vertices_scanned += cost.vertices;
            interval
        }
        None => {
            work.vertices_scanned += vertices.len() as u32;
            project_interval(vertices, axis)
        }
    }
}

/// Centre of an outline for step 10: the area centroid of a polygon, the midpoint of a
/// segment. The paper says only "centre"; the centroid is the natural choice for a body
/// and does not depend on how densely the outline is sampled, unlike the vertex mean.
fn outline_center(view: &ConvexView) -> Vec2 {
    if view.vertices.len() >= 3 {
        polygon_centroid(view.vertices)
    } else {
        view.vertices.iter().copied().sum::<Vec2>() / view.vertices.len() as f32
    }
}

/// Steps 1–10 on two outlines. `None` when an axis separates them or step 7 finds that
/// no edge of non-convex A touches B.
fn sat_whole_outlines(
    q: &PieceQuery,
    (a_nonconvex, touch): (bool, f32),
    (tree_a, tree_b): (Option<&EdgeTree>, Option<&EdgeTree>),
    rec: &mut Recorder,
) -> Option<PairPenetration> {
    let (a, pose_a, b, pose_b, scale, config) = (&q.a, &q.pose_a, &q.b, &q.pose_b, q.scale, q.config);
    // Everything in A's frame; B is projected by turning each axis into B's frame (Liu
    // et al.'s (2018) reuse of the relative transform, computed once per pair).
    let xf_ab = q.xf_ab;
    let (work, trace) = (&mut *rec.work, &mut *rec.trace);
    let (na, nb) = (a.vertices.len(), b.vertices.len());
    // A segment is a polygon of two vertices whose two edges are the same line; one of
    // them is enough (the other gives the same axis).
    let edges_a = if na == 2 { 1 } else { na };
    let edges_b = if nb == 2 { 1 } else { nb };
    let m = edges_a + edges_b; // step 2
    let mut best_overlap = f32::INFINITY; // D
    let mut best_axis = Vec2::ZERO; // V, A's frame
    let mut a_edges_touching = 0;
    for k in 0..m {
        // Step 1: the edge, in A's frame.
        let (owner, edge, local_edge, local_start) = if k < edges_a {
            let p0 = a.vertices[k];
            (Owner::A, k, a.vertices[(k + 1) % na] - p0, p0)
        } else {
            let j = k - edges_a;
            let p0 = xf_ab.apply_point(b.vertices[j]);
            (Owner::B, j, xf_ab.apply_point(b.vertices[(j + 1) % nb]) - p0, p0)
        };
        // Step 3.
        let local_axis = Vec2::new(-local_edge.y, local_edge.x).normalize_or_zero();
        if local_axis == Vec2::ZERO {
            continue;
        }
        // Step 4.
        let ia = project_outline(a.vertices, tree_a, local_axis, work);
        let ib = project_outline(b.vertices, tree_b, xf_ab.apply_inv_vector(local_axis), work);
        let offset_b = xf_ab.translation.dot(local_axis);
        let ib = (ib.0 + offset_b, ib.1 + offset_b);
        // Step 5 (the paper's two cases are the larger of the two one-sided gaps).
        let gap = interval_gap(ia, ib);
        work.axes_tested += 1;
        let world = |v: f32, world_axis: Vec2| v + pose_a.translation.dot(world_axis);
        let trace_axis = |trace: &mut Option<&mut Trace>, new_minimum: bool| {
            record(trace, || {
                let world_axis = pose_a.apply_vector(local_axis);
                TraceStep::SatAxis(SatAxisStep {
                    index: k,
                    total: m,
                    source: AxisSource::Edge { owner, piece: 0, edge },
                    axis: world_axis,
                    interval_a: (world(ia.0, world_axis), world(ia.1, world_axis)),
                    interval_b: (world(ib.0, world_axis), world(ib.1, world_axis)),
                    gap,
                    new_minimum,
                })
            })
        };
        // Step 6 (touching counts as separated).
        if !config.is_penetrating(-gap, scale) {
            trace_axis(trace, false);
            return None;
        }
        // Step 7.
        if owner == Owner::A && a_nonconvex {
            let edge_value = local_start.dot(local_axis);
            let straddles = ib.0 < edge_value - touch && ib.1 > edge_value + touch;
            work.edge_tests += 1;
            let new_minimum = straddles && -gap < best_overlap;
            trace_axis(trace, new_minimum);
            record(trace, || {
                let world_axis = pose_a.apply_vector(local_axis);
                TraceStep::EdgeTest(EdgeTestStep {
                    edge,
                    axis: world_axis,
                    edge_value: world(edge_value, world_axis),
                    interval_b: (world(ib.0, world_axis), world(ib.1, world_axis)),
                    straddles,
                })
            });
            if !straddles {
                if k + 1 == edges_a && a_edges_touching == 0 {
                    return None;
                }
                continue;
            }
            a_edges_touching += 1;
            // Step 8 for an edge that touches B.
            if new_minimum {
                best_overlap = -gap;
                best_axis = local_axis;
            }
            continue;
        }
        // Step 8.
        let new_minimum = -gap < best_overlap;
        if new_minimum {
            best_overlap = -gap;
            best_axis = local_axis;
        }
        trace_axis(trace, new_minimum);
    }
    if a_nonconvex && a_edges_touching == 0 {
        return None;
    }
    if !best_overlap.is_finite() {
        return None;
    }
    // Steps 9 and 10.
    Some(finish(a, pose_a, b, pose_b, best_axis, best_overlap))
}

/// Steps 9 and 10: V·D moves A out of B, and V must point from B's centre to A's.
fn finish(
    a: &ConvexView,
    pose_a: &Pose,
    b: &ConvexView,
    pose_b: &Pose,
    best_axis: Vec2,
    best_overlap: f32,
) -> PairPenetration {
    let mut v = pose_a.apply_vector(best_axis);
    let c = pose_a.apply_point(outline_center(a)) - pose_b.apply_point(outline_center(b));
    if c.dot(v) < 0.0 {
        v = -v;
    }
    // The MTV is V·D, so the normal from A towards B is −V.
    PairPenetration {
        normal: -v,
        depth: best_overlap,
    }
}
