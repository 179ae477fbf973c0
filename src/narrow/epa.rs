//! EPA (expanding polytope algorithm): penetration depth and normal of two overlapping
//! convex shapes, grown from GJK's final simplex.
//!
//! Sources: G. van den Bergen, "Proximity Queries and Penetration Depth Computation on 3D
//! Game Objects", GDC 2001 (and his book *Collision Detection in Interactive 3D
//! Environments*, 2004); Chulanov's (2016) description. In 2D the polytope is a convex polygon
//! inside A − B that holds the origin:
//!
//! ```text
//! polytope = GJK's simplex, grown to a polygon holding the origin     (see `grow`)
//! loop:
//!     e = polytope edge closest to the origin, n its outward unit normal, d = n · e.start
//!     w = support(n)                                   (farthest point of A − B along n)
//!     if w · n − d <= epsilon × scale:  Converged       (e lies on the boundary of A − B)
//!     if w is already a vertex:         RepeatedSupport
//!     if the iteration cap is reached:  IterationCap
//!     insert w between e's end points                  (still convex, still CCW)
//! depth = d, normal = n
//! ```
//!
//! # Normal convention
//!
//! The normal returned goes from A towards B and equals the outward normal n of A − B at
//! the edge closest to the origin. Proof: translating A by t translates A − B by t, so the
//! translation t that moves A out of B must move the origin out of A − B + t, i.e. −t must
//! leave A − B. The shortest such −t is depth·n (n outward at the closest boundary
//! point), so t = −depth·n: A moves against n, which therefore points from A to B.
//!
//! # Touching: why EPA fails there, and what we do
//!
//! When the origin lies on the boundary of A − B (touching shapes) the textbook EPA breaks
//! in several ways, each handled here:
//! 1. GJK stops with a point or a segment (the origin on a vertex or edge of A − B), not
//!    a triangle, so there is no polygon to expand. `grow` asks for support points along
//!    both perpendiculars of the segment; a side where A − B has no extent means the
//!    origin is on its boundary (`Touching`), both sides flat means A − B has no area
//!    here (`Degenerate`: e.g. collinear segments). Both give depth 0.
//! 2. The closest edge passes through the origin, so a normal taken as
//!    closest point / |closest point| (common in implementations) is 0/0 = NaN. We take
//!    every normal from its edge direction on the CCW polytope, which needs no origin.
//! 3. In f32 the origin can end up a hair outside the polytope; a normal derived from the
//!    origin's side would then flip and the MTV would push A *into* B. Edge-derived normals
//!    do not care which side of the edge the origin is on; the depth is clamped at 0.
//! 4. Growing towards a flat side returns a point on the line: a zero-area triangle whose
//!    zero-length edges have no normal. Offsets below the tolerance are never inserted,
//!    and zero-length edges are skipped when searching the closest edge.
//!
//! Depths at or below `config.touch_tolerance × scale` are reported as `Touching` with
//! depth exactly 0, so that exactly touching shapes do not come out "intersecting by an
//! ulp" depending on how the pose rounded.

use super::contact::Work;
use super::gjk::{gjk, GjkInput};
use super::simplex::{Simplex, EMPTY_SUPPORT};
use super::trace::{self, EpaEnd, EpaStartStep, EpaStep, EpaTermination, SupportPoint, Trace, TraceStep};
use super::NarrowConfig;
use crate::math::{cross, right_perp, Vec2};
use std::mem::MaybeUninit;

/// EPA's answer.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EpaOutput {
    /// Penetration normal from A towards B (unit, world frame).
    pub normal: Vec2,
    /// Penetration depth (metres), >= 0.
    pub depth: f32,
    /// Why it stopped.
    pub termination: EpaTermination,
    /// Iterations run.
    pub iterations: u32,
}

/// Polytope vertices kept inline before spilling to the heap: 32 covers the default
/// iteration cap's typical use (polygon pairs converge in well under 20 iterations), so a
/// normal query allocates nothing.
const INLINE_CAPACITY: usize = 32;

/// The polytope: a CCW convex polygon of support points. Inline storage, spilling to a
/// `Vec` only past `INLINE_CAPACITY` vertices.
///
/// The inline slots are left uninitialised until written: filling all 32 (1280 bytes)
/// with a placeholder on every call was a third of EPA's own instructions on two
/// octagons (callgrind), where the polytope never holds more than a handful.
struct Polytope {
    /// The first `len` slots are initialised (an invariant every method keeps); the rest
    /// are not, and are never read.
    inline: [MaybeUninit<SupportPoint>; INLINE_CAPACITY],
    len: usize,
    heap: Vec<SupportPoint>,
}

impl Polytope {
    fn new() -> Self {
        Polytope {
            inline: [const { MaybeUninit::uninit() }; INLINE_CAPACITY],
            len: 0,
            heap: Vec::new(),
        }
    }

    fn spilled(&self) -> bool {
        !self.heap.is_empty()
    }

    fn as_slice(&self) -> &[SupportPoint] {
        if self.spilled() {
            &self.heap
        } else {
            let initialised = &self.inline[..self.len];
            // SAFETY: the first `len` slots are initialised (`insert` writes a slot before
            // counting it and only ever shifts initialised slots), and
            // `MaybeUninit<SupportPoint>` has the layout of `SupportPoint`.
            unsafe { &*(initialised as *const [MaybeUninit<SupportPoint>] as *const [SupportPoint]) }
        }
    }

    fn clear(&mut self) {
        self.len = 0;
        self.heap.clear();
    }

    /// Inserts `w` at `index` (0 ..= len), shifting the later vertices.
    fn insert(&mut self, index: usize, w: SupportPoint) {
        if !self.spilled() && self.len == INLINE_CAPACITY {
            let all = self.as_slice().to_vec();
            self.heap = all;
        }
        if self.spilled() {
            let index = index.min(self.heap.len());
            self.heap.insert(index, w);
        } else {
            let index = index.min(self.len);
            self.inline.copy_within(index..self.len, index + 1);
            self.inline[index] = MaybeUninit::new(w);
            self.len += 1;
        }
    }

    fn push(&mut self, w: SupportPoint) {
        let len = self.as_slice().len();
        self.insert(len, w);
    }

    fn contains(&self, w: &SupportPoint) -> bool {
        self.as_slice()
            .iter()
            .any(|v| v.index_a == w.index_a && v.index_b == w.index_b)
    }
}

/// Outward unit normal of the edge p → q of a CCW polygon, or `None` for a zero-length
/// edge.
#[inline]
fn outward_normal(p: Vec2, q: Vec2) -> Option<Vec2> {
    right_perp(q - p).try_normalize()
}

/// The polytope edge closest to the origin: (index of its first vertex, outward unit
/// normal, signed distance n·p; negative when the origin is outside that edge). Ties go to
/// the lowest index. `None` when no edge has a length.
fn closest_edge(vertices: &[SupportPoint]) -> Option<(usize, Vec2, f32)> {
    let n = vertices.len();
    if n < 2 {
        return None;
    }
    let mut best: Option<(usize, Vec2, f32)> = None;
    for i in 0..n {
        let p = vertices[i].point;
        let q = vertices[(i + 1) % n].point;
        if let Some(normal) = outward_normal(p, q) {
            let distance = normal.dot(p);
            if best.is_none_or(|(_, _, d)| distance < d) {
                best = Some((i, normal, distance));
            }
        }
    }
    best
}

/// How growing GJK's simplex into a polygon ended.
enum Grown {
    /// The polytope is a polygon holding the origin (possibly on its boundary).
    Polygon,
    /// The origin lies on the boundary of A − B, which has this outward normal there.
    Touching(Vec2),
    /// A − B has no area around the origin (a point or a segment); any normal is as good
    /// as this one.
    Degenerate(Vec2),
}

/// Turns GJK's final simplex (which holds the origin, within rounding) into a CCW polygon
/// holding the origin, asking for support points where needed.
///
/// - Triangle: orient it CCW.
/// - Point w0 (the origin is at w0, a point of the boundary of A − B): look for a second
///   point along ±x, then ±y; if none differs from w0, A − B is a single point.
/// - Segment w0 w1 (the origin lies on it): query both perpendiculars n and −n. The
///   origin is on the segment, so a triangle on one side would keep the origin on its
///   boundary; with both sides we get a quadrilateral w0, s₊, w1, s₋ whose diagonal holds
///   the origin. If one side has no extent beyond the segment's line, A − B lies in a
///   half-plane through the origin: touching, with that side's normal. If neither side
///   has, A − B is flat here: degenerate.
///
/// `tol` (metres) is the extent below which a side counts as flat.
fn grow(input: &GjkInput, simplex: &Simplex, tol: f32, work: &mut Work, poly: &mut Polytope) -> Grown {
    let points: SimplexPoints = SimplexPoints::from(simplex);
    match points.len {
        3 => {
            let [w0, w1, w2] = points.items;
            let area = cross(w1.point - w0.point, w2.point - w0.point);
            // A flat triangle (only from rounding) is treated as its longest edge.
            if area.abs() > tol * tol {
                poly.push(w0);
                if area > 0.0 {
                    poly.push(w1);
                    poly.push(w2);
                } else {
                    poly.push(w2);
                    poly.push(w1);
                }
                return Grown::Polygon;
            }
            let pairs = [(w0, w1), (w1, w2), (w0, w2)];
            let mut longest = pairs[0];
            for pair in pairs {
                if (pair.1.point - pair.0.point).length_squared() > (longest.1.point - longest.0.point).length_squared()
                {
                    longest = pair;
                }
            }
            grow_segment(input, longest.0, longest.1, tol, work, poly)
        }
        2 => grow_segment(input, points.items[0], points.items[1], tol, work, poly),
        _ => {
            let w0 = points.items[0];
            for direction in [Vec2::X, Vec2::NEG_X, Vec2::Y, Vec2::NEG_Y] {
                let w1 = input.support(direction, work);
                if (w1.point - w0.point).length() > tol {
                    return grow_segment(input, w0, w1, tol, work, poly);
                }
            }
            poly.push(w0);
            Grown::Degenerate(Vec2::X)
        }
    }
}

/// The segment case of [`grow`].
fn grow_segment(
    input: &GjkInput,
    w0: SupportPoint,
    w1: SupportPoint,
    tol: f32,
    work: &mut Work,
    poly: &mut Polytope,
) -> Grown {
    poly.push(w0);
    poly.push(w1);
    let Some(normal) = outward_normal(w0.point, w1.point) else {
        return Grown::Degenerate(Vec2::X);
    };
    let s_plus = input.support(normal, work);
    let s_minus = input.support(-normal, work);
    let extent_plus = (s_plus.point - w0.point).dot(normal);
    let extent_minus = (w0.point - s_minus.point).dot(normal);
    let flat_plus = extent_plus.is_nan() || extent_plus <= tol;
    let flat_minus = extent_minus.is_nan() || extent_minus <= tol;
    match (flat_plus, flat_minus) {
        (true, true) => Grown::Degenerate(normal),
        (true, false) => {
            poly.push(s_minus);
            Grown::Touching(normal)
        }
        (false, true) => {
            poly.insert(1, s_plus);
            Grown::Touching(-normal)
        }
        (false, false) => {
            // right_perp points to the right of w0 → w1, so CCW order is w0, s₊, w1, s₋.
            poly.clear();
            poly.push(w0);
            poly.push(s_plus);
            poly.push(w1);
            poly.push(s_minus);
            Grown::Polygon
        }
    }
}

/// Up to three simplex points copied into a fixed array.
struct SimplexPoints {
    items: [SupportPoint; 3],
    len: usize,
}

impl From<&Simplex> for SimplexPoints {
    fn from(simplex: &Simplex) -> Self {
        let mut items = [EMPTY_SUPPORT; 3];
        let mut len = 0;
        for (slot, p) in items.iter_mut().zip(simplex.iter()) {
            *slot = *p;
            len += 1;
        }
        SimplexPoints { items, len }
    }
}

/// Runs EPA from GJK's final simplex (`simplex` must hold the origin, as it does when GJK
/// stops with `ContainsOrigin`; an empty simplex runs GJK first). Depth and normal of the
/// cores (radii ignored), normal from A towards B, world frame.
///
/// Termination: `Converged` when the support point along the closest edge's normal lies
/// less than `config.epa_epsilon × scale` beyond it (relative for the same reason as GJK's
/// epsilon: the support points are only known to an ulp of the scale); `RepeatedSupport`
/// when that point is already a vertex (rounding near a flat boundary); `IterationCap`
/// after `config.epa_max_iterations` (the best edge so far is returned); `Touching` and
/// `Degenerate` as explained in the module documentation. Deterministic.
pub fn epa(
    input: &GjkInput,
    simplex: &Simplex,
    config: &NarrowConfig,
    work: &mut Work,
    trace: &mut Option<&mut Trace>,
) -> EpaOutput {
    epa_scaled(input, simplex, config, input.scale(), work, trace)
}

/// [`epa`] with the scale its tolerances are relative to given ([`GjkInput::scale`],
/// which GJK has just computed for the same input: `gjk_epa.rs` passes it on).
pub(super) fn epa_scaled(
    input: &GjkInput,
    simplex: &Simplex,
    config: &NarrowConfig,
    scale: f32,
    work: &mut Work,
    trace: &mut Option<&mut Trace>,
) -> EpaOutput {
    let tol = config.epa_epsilon * scale;
    let touch_tol = config.touch_tolerance * scale;

    let gjk_simplex;
    let simplex = if simplex.is_empty() {
        gjk_simplex = gjk(input, config, work, &mut None).simplex;
        &gjk_simplex
    } else {
        simplex
    };

    let mut poly = Polytope::new();
    let mut iterations: u32 = 0;
    let grown = grow(input, simplex, tol, work, &mut poly);
    trace::record(trace, || {
        TraceStep::EpaStart(EpaStartStep {
            simplex: simplex.to_vec(),
            polytope: poly.as_slice().to_vec(),
            grown: poly.as_slice().len() != simplex.len(),
        })
    });
    let (termination, normal, distance) = match grown {
        Grown::Touching(normal) => (EpaTermination::Touching, normal, 0.0),
        Grown::Degenerate(normal) => (EpaTermination::Degenerate, normal, 0.0),
        Grown::Polygon => loop {
            let Some((edge, normal, distance)) = closest_edge(poly.as_slice()) else {
                break (EpaTermination::Degenerate, Vec2::X, 0.0);
            };
            if iterations >= config.epa_max_iterations {
                break (EpaTermination::IterationCap, normal, distance);
            }
            // The support along the edge's normal lies between the edge's ends on both
            // shapes: the climb (large views only) starts at the first.
            let support = input.support_near(normal, &poly.as_slice()[edge], work);
            iterations += 1;
            let gain = support.point.dot(normal) - distance;
            trace::record(trace, || {
                TraceStep::Epa(EpaStep {
                    iteration: iterations - 1,
                    polytope: poly.as_slice().to_vec(),
                    closest_edge: edge,
                    normal,
                    distance,
                    support,
                    gain,
                })
            });
            // A NaN gain (non-finite input) stops here too.
            if gain.is_nan() || gain <= tol {
                break (EpaTermination::Converged, normal, distance);
            }
            if poly.contains(&support) {
                break (EpaTermination::RepeatedSupport, normal, distance);
            }
            poly.insert(edge + 1, support);
        },
    };
    work.epa_iterations += iterations;

    let mut depth = distance.max(0.0);
    let mut termination = termination;
    if matches!(termination, EpaTermination::Converged | EpaTermination::RepeatedSupport) && depth <= touch_tol {
        termination = EpaTermination::Touching;
        depth = 0.0;
    }
    if !depth.is_finite() {
        depth = 0.0;
    }
    let normal = if normal.is_finite() { normal } else { Vec2::X };
    trace::record(trace, || {
        TraceStep::EpaEnd(EpaEnd {
            reason: termination,
            polytope: poly.as_slice().to_vec(),
            normal,
            depth,
        })
    });
    EpaOutput {
        normal,
        depth,
        termination,
        iterations,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sp(i: usize) -> SupportPoint {
        SupportPoint {
            point: Vec2::new(i as f32, 0.0),
            a: Vec2::ZERO,
            b: Vec2::ZERO,
            index_a: i,
            index_b: 0,
        }
    }

    #[test]
    fn polytope_spills_to_the_heap_in_order() {
        let mut poly = Polytope::new();
        for i in 0..INLINE_CAPACITY + 5 {
            poly.push(sp(2 * i));
        }
        poly.insert(1, sp(1));
        let indices: Vec<usize> = poly.as_slice().iter().map(|w| w.index_a).collect();
        assert_eq!(indices.len(), INLINE_CAPACITY + 6);
        assert_eq!(&indices[..4], &[0, 1, 2, 4]);
        assert_eq!(*indices.last().unwrap(), 2 * (INLINE_CAPACITY + 4));
    }

    /// Slots written, cleared and written again read back as written (the first `len`
    /// inline slots are the initialised ones), before and after a spill.
    #[test]
    fn polytope_reads_back_what_was_written_after_clear() {
        let mut poly = Polytope::new();
        for i in 0..5 {
            poly.push(sp(10 + i));
        }
        poly.clear();
        assert!(poly.as_slice().is_empty());
        poly.push(sp(1));
        poly.push(sp(3));
        poly.insert(1, sp(2));
        poly.insert(0, sp(0));
        let indices: Vec<usize> = poly.as_slice().iter().map(|w| w.index_a).collect();
        assert_eq!(indices, [0, 1, 2, 3]);
        assert!(poly.contains(&sp(2)) && !poly.contains(&sp(10)));
        for i in 4..INLINE_CAPACITY + 2 {
            poly.push(sp(i));
        }
        poly.clear();
        poly.push(sp(7));
        let indices: Vec<usize> = poly.as_slice().iter().map(|w| w.index_a).collect();
        assert_eq!(indices, [7]);
    }

    #[test]
    fn closest_edge_of_a_ccw_square() {
        //  (-1, 2) +-----+ (1, 2)
        //          |  o  |          origin 1 from the bottom edge
        //  (-1,-1) +-----+ (1,-1)
        let pts = [(-1.0, -1.0), (1.0, -1.0), (1.0, 2.0), (-1.0, 2.0)].map(|(x, y)| SupportPoint {
            point: Vec2::new(x, y),
            ..sp(0)
        });
        let (edge, normal, distance) = closest_edge(&pts).unwrap();
        assert_eq!(edge, 0);
        assert_eq!(normal, Vec2::NEG_Y);
        assert_eq!(distance, 1.0);
    }
}
