//! Shapes as sets of convex pieces: test every pair of pieces whose bounding boxes
//! overlap, then combine the pair answers into one answer for the two bodies
//! (`combine.rs`, which says why that needs care).
//!
//! The loop keeps its buffers between calls, one set per thread ([`CompoundScratch`]):
//! the world asks this of every non-convex pair every step, and a step allocates nothing
//! in steady state (`tests/allocations.rs`).

use super::combine::CombineScratch;
use super::contact::{Contact, ContactPoint, Work};
use super::gjk::GjkStart;
use super::gjk_epa::{penetration_gjk_epa, penetration_gjk_epa_from, DepthNeed};
use super::minkowski::HullScratch;
use super::polygon_polygon;
use super::query::{penetration_with_circle, PieceQuery, Recorder, ShapeQuery};
use super::sat::{penetration_sat, penetration_sat_climbing};
use super::trace::{Trace, TraceStep};
use super::{contact_from_pair, query_scale, NarrowConfig, PairPenetration};
use crate::bounds::Aabb;
use crate::geometry::Shape;
use crate::math::{Pose, Vec2};

mod piece_box;
use piece_box::piece_aabb;

/// Which exact test runs on each convex piece pair.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum PairTest {
    /// SAT (circles by Voronoi regions).
    Sat,
    /// GJK, then EPA when the cores overlap.
    GjkEpa,
}

/// Whether two shapes' bounding circles are apart by more than `margin` (m), or a pose is
/// not finite: each circle is centred on the shape's local box and passes through its
/// corners. The box test of two convex shapes asked one query at a time (the world's
/// pairs come with their boxes, `speculative.rs`): two world boxes cost a turn of every
/// vertex, a fifth of a query between two overlapping 8-gons, where the circles cost two
/// points turned. Looser than the boxes, it culls only pairs apart by more than the
/// touching tolerance, which every test also calls apart.
fn circles_apart((a, pose_a): (&Shape, &Pose), (b, pose_b): (&Shape, &Pose), margin: f32) -> bool {
    let (box_a, box_b) = (a.local_aabb(), b.local_aabb());
    let between = pose_b.apply_point(box_b.center()) - pose_a.apply_point(box_a.center());
    let reach = 0.5 * ((box_a.max - box_a.min).length() + (box_b.max - box_b.min).length()) + margin;
    // A NaN culls, as the boxes' overlap test did.
    let (apart_sq, reach_sq) = (between.length_squared(), reach * reach);
    apart_sq.is_nan() || reach_sq.is_nan() || apart_sq > reach_sq
}

/// The exact test on one pair of convex pieces. With no trace asked for, two polygon (or
/// segment) pieces take SAT's O(n + m) one-sided form (`sat::penetration_sat_climbing`,
/// the same answer up to rounding); a trace records the general test's every axis with
/// both intervals, as the lessons show them.
fn test_pair(test: PairTest, q: &PieceQuery, need: DepthNeed, rec: &mut Recorder) -> PairPenetration {
    match test {
        PairTest::GjkEpa => penetration_gjk_epa(q, rec, need),
        PairTest::Sat => match penetration_with_circle(q, rec.trace) {
            Some(pen) => pen,
            None if !rec.tracing() && q.a.radius == 0.0 && q.b.radius == 0.0 => {
                penetration_sat_climbing(q, q.config.separating_gap(q.scale), rec.work)
            }
            None => penetration_sat(q, q.config.separating_gap(q.scale), rec),
        },
    }
}

/// SatDecomposed and GjkEpa: every convex piece pair, culled by boxes, then combined.
pub(crate) fn collide_compound(
    (a, pose_a): (&Shape, &Pose),
    (b, pose_b): (&Shape, &Pose),
    test: PairTest,
    config: &NarrowConfig,
    trace: &mut Option<&mut Trace>,
) -> Contact {
    let mut work = Work::default();
    let (na, nb) = (a.piece_count(), b.piece_count());
    if na == 1 && nb == 1 && trace.is_none() {
        // Two convex shapes: the same box test and pair test as the loop below, without
        // its lists (the world asks this of every box pair of a pile, every step). The
        // box test comes before the query is built: neither B's pose relative to A nor
        // the scale is needed for the many pairs of a pile whose boxes are apart.
        let scale = query_scale(a, pose_a, b, pose_b);
        if config.cull_by_bounds {
            work.bv_tests += 1;
            if circles_apart((a, pose_a), (b, pose_b), config.touch_tolerance * scale) {
                return Contact::separated(work);
            }
        }
        let (va, vb) = (a.piece(0), b.piece(0));
        work.piece_pairs_tested += 1;
        work.primitive_tests += 1;
        let pair = PieceQuery::new(va, pose_a, vb, pose_b, scale, config);
        if polygon_polygon::fits(&va, &vb) {
            // Two convex polygons: the same pair test and clip, in A's frame
            // (`polygon_polygon.rs`).
            return polygon_polygon::collide_polygon_polygon(&pair, test, work);
        }
        let pen = test_pair(test, &pair, DepthNeed::Exact, &mut Recorder { work: &mut work, trace });
        return if config.is_penetrating(pen.depth, scale) {
            contact_from_pair(&pair, pen, work, trace)
        } else {
            Contact::separated(work)
        };
    }
    let q = ShapeQuery::new(a, pose_a, b, pose_b, query_scale(a, pose_a, b, pose_b), config);
    SCRATCH.with(|cell| {
        let mut run = |scratch: &mut CompoundScratch| {
            let contact = collide_pieces(&q, test, Recorder { work: &mut work, trace }, scratch);
            scratch.release_if_huge();
            contact
        };
        // A re-entrant call (never the case: nothing here calls back into the narrow
        // phase) would get fresh buffers rather than a panic. They are made only then:
        // making and dropping an empty set of buffers on every query cost ~270
        // instructions (callgrind, `examples/gjk_workload.rs`), 5% of a query between
        // two apart 8-vertex U shapes.
        match cell.try_borrow_mut() {
            Ok(mut scratch) => run(&mut scratch),
            Err(_) => run(&mut CompoundScratch::default()),
        }
    })
}

/// Buffers of the piece-pair loop and the combine step, kept between calls (one set per
/// thread) so that a world's step tests non-convex pairs without allocating.
#[derive(Default)]
pub(super) struct CompoundScratch {
    /// Every piece's world box, for the all-pairs loop's box test under a trace
    /// (empty without one).
    pub(super) boxes_a: Vec<Aabb>,
    pub(super) boxes_b: Vec<Aabb>,
    /// Every piece's box in A's frame (A's pieces at the identity, B's at `xf_ab`): the
    /// piece loop's box test without a trace ([`BoxesInA`]: B's built on first use,
    /// `UNBUILT` until then) and the combine step's box scan, which works in that frame
    /// (`combine.rs`; every box is built before it runs). Not used when the combine
    /// step scans the piece trees instead (`from_trees`).
    pub(super) boxes_in_a: (Vec<Aabb>, Vec<Aabb>),
    /// Whether the candidate pairs came from the piece trees (`piece_tree_candidates`);
    /// the combine step then bounds the untested pairs' distances with the trees too.
    pub(super) from_trees: bool,
    /// Overlapping piece pairs with their own answers.
    pub(super) hits: Vec<(usize, usize, PairPenetration)>,
    /// The other piece pairs tested, with how far apart their test found them at least
    /// (SAT's largest gap, GJK's distance): a lower bound the combine step keys them by.
    pub(super) apart: Vec<(u32, u32, f32)>,
    /// Candidate piece pairs from the piece trees.
    pub(super) found: Vec<(usize, usize)>,
    /// The Minkowski-difference builder's buffers.
    pub(super) hull: HullScratch,
    pub(super) points: Vec<ContactPoint>,
    /// The combine step's buffers (`combine.rs`).
    pub(super) combine: CombineScratch,
}

impl CompoundScratch {
    fn release_if_huge(&mut self) {
        self.combine.release_if_huge();
    }
}

thread_local! {
    static SCRATCH: std::cell::RefCell<CompoundScratch> = std::cell::RefCell::default();
}

/// The pieces' boxes in A's frame as the piece loop builds them without a trace: A's
/// all at once (a polygon's piece tree holds them), B's on first use (placed by
/// `xf_ab`, [`UNBUILT`] until then), and kept for the combine step, which works in the
/// same frame. The loop once compared world boxes, built again in A's frame for the
/// combine step: on `examples/gjk_workload.rs` (callgrind) the two sets of boxes were a
/// tenth of all instructions.
struct BoxesInA<'s, 'q> {
    a: &'s [Aabb],
    b: &'s mut [Aabb],
    shape_b: &'q Shape,
    xf_ab: Pose,
    /// The touching tolerance (m): the test grows B's box by it, as the piece trees'
    /// descent does, so a pair it drops is apart by more than the tolerance, which the
    /// pair test would have called apart too.
    margin: f32,
}

impl BoxesInA<'_, '_> {
    /// Piece i of A's box and piece j of B's, both in A's frame.
    #[inline]
    fn pair(&mut self, i: usize, j: usize) -> (Aabb, Aabb) {
        (self.a[i], built_box(self.b, j, self.shape_b, &self.xf_ab))
    }

    #[inline]
    fn overlap(&mut self, i: usize, j: usize) -> bool {
        let (box_a, box_b) = self.pair(i, j);
        box_a.overlaps(&box_b.inflated(self.margin))
    }
}

/// The piece-pair loop of [`collide_compound`] for shapes with several pieces.
fn collide_pieces(q: &ShapeQuery, test: PairTest, mut rec: Recorder, scratch: &mut CompoundScratch) -> Contact {
    let (a, pose_a, b, pose_b, config) = (q.a, &q.pose_a, q.b, &q.pose_b, q.config);
    let (na, nb) = (a.piece_count(), b.piece_count());
    let tracing = rec.tracing();
    scratch.hits.clear();
    scratch.apart.clear();
    // The combine step scans the untested pairs through the trees only for many
    // pieces; below that, every piece's box is cheaper to build and scan.
    let rings_from_trees = na + nb >= RING_TREE_MIN_PIECES && uses_piece_trees(q, tracing);
    scratch.from_trees = rings_from_trees;
    scratch.boxes_a.clear();
    scratch.boxes_b.clear();
    // A trace shows the world boxes' tests, pair by pair. Without one the boxes are
    // A's frame's ([`BoxesInA`]); with many pieces the trees replace them (at 10,000
    // vertices building every piece's box alone took ~70 µs a query). B's are built as
    // the candidates need them: a pair whose pieces all stay apart (half the pairs of a
    // pile's contact search) never builds the boxes of B's pieces far from A.
    if tracing {
        scratch.boxes_a.extend((0..na).map(|i| piece_aabb(&a.piece(i), pose_a)));
        scratch.boxes_b.extend((0..nb).map(|j| piece_aabb(&b.piece(j), pose_b)));
    } else if !rings_from_trees {
        start_boxes_in_a(a, nb, &mut scratch.boxes_in_a);
    }
    let mut boxes = (!tracing && !rings_from_trees).then_some(BoxesInA {
        a: &scratch.boxes_in_a.0,
        b: &mut scratch.boxes_in_a.1,
        shape_b: b,
        xf_ab: q.xf_ab,
        margin: config.touch_tolerance * q.scale,
    });
    let from_trees = piece_tree_candidates(q, tracing, rec.work, boxes.as_mut(), &mut scratch.found);
    debug_assert!(from_trees || !rings_from_trees);
    let tree_pairs = scratch.found.len();
    // With several pieces the combine step computes the depth; a convex pair (here only
    // with a trace) answers with its own.
    let depth_need = if na == 1 && nb == 1 {
        DepthNeed::Exact
    } else {
        DepthNeed::LowerBound
    };
    let pair_count = if from_trees { tree_pairs } else { na * nb };
    for k in 0..pair_count {
        let (i, j) = if from_trees { scratch.found[k] } else { (k / nb, k % nb) };
        if config.cull_by_bounds {
            rec.work.bv_tests += 1;
            // The trees' candidates passed this box test when they were found.
            let overlap = from_trees
                || match boxes.as_mut() {
                    Some(boxes) => boxes.overlap(i, j),
                    None => scratch.boxes_a[i].overlaps(&scratch.boxes_b[j]),
                };
            rec.record(|| TraceStep::BoundsTest {
                piece_a: i,
                piece_b: j,
                overlap,
            });
            if !overlap {
                continue;
            }
        }
        rec.work.piece_pairs_tested += 1;
        rec.work.primitive_tests += 1;
        rec.record(|| TraceStep::PiecePair { piece_a: i, piece_b: j });
        let pair = q.piece(i, j);
        // GJK on pieces that turn out apart costs several iterations; a decomposed pair
        // only needs their gap bounded from below (the combine step keys them by it),
        // and one axis, the direction between their boxes' centres (built for the box
        // test), tells many of them apart first.
        // When the axis does not tell them apart, GJK starts from the support point the
        // axis found (its first scan of both pieces would find the same vertices).
        let axis = match (test, boxes.as_mut()) {
            (PairTest::GjkEpa, Some(boxes)) if depth_need == DepthNeed::LowerBound => {
                let (box_a, box_b) = boxes.pair(i, j);
                box_axis_gap(&pair, &box_a, &box_b)
            }
            _ => None,
        };
        let pen = match axis {
            Some(BoxAxis { gap: Some(pen), .. }) if !config.is_penetrating(pen.depth, q.scale) => pen,
            Some(BoxAxis { start, .. }) => penetration_gjk_epa_from(&pair, &mut rec, depth_need, Some(start)),
            None => test_pair(test, &pair, depth_need, &mut rec),
        };
        if config.is_penetrating(pen.depth, q.scale) {
            scratch.hits.push((i, j, pen));
        } else {
            scratch.apart.push((i as u32, j as u32, -pen.depth));
        }
    }
    let work = *rec.work;
    match scratch.hits.as_slice() {
        [] => Contact::separated(work),
        // Two convex bodies: the pair's answer is exact.
        &[(i, j, pen)] if na == 1 && nb == 1 => contact_from_pair(&q.piece(i, j), pen, work, rec.trace),
        _ => {
            if !rings_from_trees {
                // The combine step scans every piece's box, in A's frame.
                if tracing {
                    start_boxes_in_a(a, nb, &mut scratch.boxes_in_a);
                }
                for j in 0..nb {
                    built_box(&mut scratch.boxes_in_a.1, j, b, &q.xf_ab);
                }
            }
            // GJK's depths for several pieces are lower bounds (`DepthNeed::LowerBound`).
            let depths_exact = test == PairTest::Sat || depth_need == DepthNeed::Exact;
            super::combine::combine(q, work, rec.trace, scratch, depths_exact)
        }
    }
}

/// The box-centre axis of a piece pair ([`box_axis_gap`]): the gap along it, if any, and
/// the vertices of A least along it and of B most along it. Those two are the support
/// point of A − B along −u, the direction from A's box towards B's, so GJK starts from
/// them instead of scanning both pieces again ([`GjkStart`]).
struct BoxAxis {
    /// A separated answer when the gap along the axis is positive (see [`box_axis_gap`]).
    gap: Option<PairPenetration>,
    /// GJK's first support point: along −u, the direction from A's box towards B's.
    start: GjkStart,
}

/// A lower bound on the gap between the pieces of `q` (radii included) as a separated
/// answer (depth −gap, normal along the axis, world frame): their gap along the
/// direction from the centre of B's box `box_b` to the centre of A's `box_a` (both in
/// A's frame), less a rounding margin (a relative 1e-5 of the coordinates the products
/// see, far above their few ulps, as the combine step's one-axis bound takes). For a
/// unit u, every point a − b of their difference has u·(a − b) ≥ min u·a − max u·b.
/// `None` when the centres coincide or a piece has no vertex.
fn box_axis_gap(q: &PieceQuery, box_a: &Aabb, box_b: &Aabb) -> Option<BoxAxis> {
    let u = (box_a.center() - box_b.center()).normalize_or_zero();
    if u == Vec2::ZERO || q.a.vertices.is_empty() || q.b.vertices.is_empty() {
        return None;
    }
    // In A's frame: A's vertices as they are, B's by u·(R·v + t) = (Rᵀu)·v + u·t.
    let (rot, t) = (q.xf_ab.rotation, q.xf_ab.translation);
    let u_b = rot.apply_inv(u);
    // Least and greatest by comparisons (a NaN product is skipped, as `f32::min` skips
    // it), first index on ties, as the support mapping breaks them.
    let (least_a, index_a) = extreme(q.a.vertices, |v| -u.dot(v));
    let (most_b, index_b) = extreme(q.b.vertices, |v| u_b.dot(v));
    let least_a = -least_a - q.a.radius;
    let most_b = most_b + u.dot(t) + q.b.radius;
    // A piece's local coordinates are at most as large as its box's corners are far
    // from its shape's position (up to the turn between the frames, well inside the
    // margin).
    let reach = |b: &Aabb, at: Vec2| (b.min - at).abs().max((b.max - at).abs()).max_element();
    let margin = 1e-5 * (reach(box_a, Vec2::ZERO) + reach(box_b, t) + t.abs().max_element());
    let gap = least_a - most_b - margin;
    Some(BoxAxis {
        gap: gap.is_finite().then(|| PairPenetration {
            normal: -q.pose_a.rotation.apply(u),
            depth: -gap,
        }),
        start: GjkStart { index_a, index_b },
    })
}

/// The greatest of `along` over `vertices` and its first index (index 0 when every
/// value is NaN).
#[inline]
fn extreme(vertices: &[Vec2], along: impl Fn(Vec2) -> f32) -> (f32, usize) {
    let mut best = (f32::NEG_INFINITY, 0);
    for (i, v) in vertices.iter().enumerate() {
        let x = along(*v);
        if x > best.0 {
            best = (x, i);
        }
    }
    best
}

/// A piece's world box not built yet (NaN corners: `build_missing` and
/// [`piece_tree_candidates`] build it on first use; no test ever reads one).
const UNBUILT: Aabb = Aabb {
    min: Vec2::NAN,
    max: Vec2::NAN,
};

/// A's pieces' boxes in A's frame (where they are: a polygon's piece tree holds them),
/// and B's `nb` not built yet.
fn start_boxes_in_a(a: &Shape, nb: usize, (boxes_a, boxes_b): &mut (Vec<Aabb>, Vec<Aabb>)) {
    boxes_b.clear();
    boxes_b.resize(nb, UNBUILT);
    boxes_a.clear();
    match a {
        Shape::Polygon(pa) => {
            let tree = pa.piece_tree();
            boxes_a.extend((0..a.piece_count()).map(|i| tree.item_bounds(i)));
        }
        _ => boxes_a.extend((0..a.piece_count()).map(|i| piece_aabb(&a.piece(i), &Pose::IDENTITY))),
    }
}

/// Piece `i`'s box (placed by `pose`) from `boxes`, built there on first use.
#[inline]
fn built_box(boxes: &mut [Aabb], i: usize, shape: &Shape, pose: &Pose) -> Aabb {
    if boxes[i].min.x.is_nan() {
        boxes[i] = piece_aabb(&shape.piece(i), pose);
    }
    boxes[i]
}

/// From this many pieces in the two shapes together, the combine step finds the
/// untested piece pairs near the origin through the piece trees (and bounds each by SAT
/// before building its difference) instead of scanning every piece's world box. Measured
/// with `bench --big-query`: on two 1000-vertex stars (1002 pieces, long wedges whose
/// boxes all overlap near the centre) the world boxes' scan was 2-4x faster; from
/// 2500-vertex polygons on the trees win, up to 1.5x on 10,000-vertex coastlines.
pub const RING_TREE_MIN_PIECES: usize = 2048;

/// Below this many piece pairs (pieces of A × pieces of B) every pair's boxes are tested
/// directly; from it on, under [`super::EdgeTreePolicy::Auto`], the two polygons' piece
/// trees are descended together instead. Measured with `collision-lab bench`: the
/// descent costs a few box tests per level, so it pays once there are a few dozen pairs
/// (the piece tree paid from 16 vertices for the exact overlap test).
pub const PIECE_TREE_MIN_PAIRS: usize = 64;

/// The piece pairs whose boxes overlap, found by descending both polygons' piece
/// trees (Liu et al.'s (2018) bounding-volume hierarchy) instead of testing all
/// `na × nb` pairs — into `found`, returning true — or false when the all-pairs loop
/// should run: a trace is being recorded (lessons show
/// every box test), culling is off, a shape is not a polygon, the policy says never, or
/// there are few pairs.
///
/// The answer is the same either way. The tree compares boxes in A's frame (B's boxes
/// turned into it and boxed again, grown by the touching tolerance), which hold the
/// pieces' own boxes there. Every candidate is then checked with the same box test as
/// the all-pairs loop (`boxes`, [`BoxesInA`]), and the survivors are sorted into that
/// loop's order, so the combine step sees the same hits in the same order. Only the work
/// differs: fewer box tests, and sometimes fewer pair tests. The boxes of B are built
/// only for the candidates, so a query costs nothing per piece of B far from A.
///
/// Without `boxes` (the combine step then reads the trees too, `RING_TREE_MIN_PIECES`),
/// the check is the pieces' world boxes, built for each candidate.
fn piece_tree_candidates(
    q: &ShapeQuery,
    tracing: bool,
    work: &mut Work,
    boxes: Option<&mut BoxesInA>,
    found: &mut Vec<(usize, usize)>,
) -> bool {
    let (a, pose_a, b, pose_b, config) = (q.a, &q.pose_a, q.b, &q.pose_b, q.config);
    found.clear();
    if !uses_piece_trees(q, tracing) {
        return false;
    }
    let (Shape::Polygon(pa), Shape::Polygon(pb)) = (a, b) else {
        return false;
    };
    let margin = config.touch_tolerance * q.scale;
    work.bv_tests += match boxes {
        Some(boxes) => {
            pa.piece_tree()
                .for_each_overlapping_pair(&Pose::IDENTITY, pb.piece_tree(), &q.xf_ab, margin, |i, j| {
                    if boxes.overlap(i, j) {
                        found.push((i, j));
                    }
                })
        }
        None => pa
            .piece_tree()
            .for_each_overlapping_pair(pose_a, pb.piece_tree(), pose_b, margin, |i, j| {
                if piece_aabb(&a.piece(i), pose_a).overlaps(&piece_aabb(&b.piece(j), pose_b)) {
                    found.push((i, j));
                }
            }),
    };
    found.sort_unstable();
    true
}

/// Whether [`piece_tree_candidates`] descends the piece trees for `q` (see there).
fn uses_piece_trees(q: &ShapeQuery, tracing: bool) -> bool {
    let (Shape::Polygon(pa), Shape::Polygon(pb)) = (q.a, q.b) else {
        return false;
    };
    let pairs = pa.pieces().len() * pb.pieces().len();
    let wanted = match q.config.edge_tree {
        super::EdgeTreePolicy::Always => true,
        super::EdgeTreePolicy::Never => false,
        super::EdgeTreePolicy::Auto { .. } => pairs >= PIECE_TREE_MIN_PAIRS,
    };
    wanted && !tracing && q.config.cull_by_bounds
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::narrow::{collide, test_rect, Algorithm};

    /// Two unit squares, B's centre at `x` (m) along the x axis from A's.
    fn squares_at(x: f32, algorithm: Algorithm) -> Contact {
        let (a, b) = (test_rect(1.0, 1.0), test_rect(1.0, 1.0));
        let pose_b = Pose::new(Vec2::new(x, 0.0), 0.3);
        collide(
            &a,
            &Pose::IDENTITY,
            &b,
            &pose_b,
            algorithm,
            &NarrowConfig::default(),
            None,
        )
    }

    #[test]
    fn convex_pairs_apart_beyond_their_bounding_circles_are_culled_before_any_test() {
        for algorithm in [Algorithm::SatDecomposed, Algorithm::GjkEpa] {
            // The circles (radius √2/2 each) are apart: no primitive test.
            let far = squares_at(1.5, algorithm);
            assert!(!far.intersect, "{algorithm:?}");
            assert_eq!((far.work.bv_tests, far.work.primitive_tests), (1, 0), "{algorithm:?}");
            // The circles overlap, the squares do not: the pair test decides.
            let near = squares_at(1.3, algorithm);
            assert!(!near.intersect, "{algorithm:?}");
            assert_eq!(near.work.primitive_tests, 1, "{algorithm:?}");
            // Overlapping squares.
            assert!(squares_at(0.9, algorithm).intersect, "{algorithm:?}");
            // A pose that is not finite is apart, as the boxes' test had it.
            assert!(!squares_at(f32::NAN, algorithm).intersect, "{algorithm:?}");
        }
    }
}
