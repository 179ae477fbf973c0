//! GJK's working simplex and its solver: the point of a point, segment or triangle of
//! support points closest to the origin, by the Voronoi regions of the simplex
//! (Ericson, *Real-Time Collision Detection*, 9.5; the same sub-problem as Box2D's
//! `b2SolveSimplex2/3`), with the barycentric weights that give the witness points on
//! A and B. Kept apart from the GJK loop in `gjk.rs`, which only asks it to add a point,
//! solve (without changing the simplex, so that a step can be taken back), keep or drop
//! the step, and report; [`Simplex`], GJK's final simplex that EPA starts from, lives here
//! too, so that `gjk.rs` and `epa.rs` both depend on this file and not on each other.

use super::trace::SupportPoint;
use crate::math::{cross, Vec2};

/// A support point that stands for "no point" in fixed arrays.
pub(super) const EMPTY_SUPPORT: SupportPoint = SupportPoint {
    point: Vec2::ZERO,
    a: Vec2::ZERO,
    b: Vec2::ZERO,
    index_a: 0,
    index_b: 0,
};

/// Up to three support points.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Simplex {
    /// Vertices; the used ones come first, the rest are `None`.
    pub points: [Option<SupportPoint>; 3],
}

impl Simplex {
    /// A simplex of the first (up to three) `points`.
    pub fn from_points(points: &[SupportPoint]) -> Simplex {
        let mut simplex = Simplex::default();
        for (slot, p) in simplex.points.iter_mut().zip(points) {
            *slot = Some(*p);
        }
        simplex
    }

    /// Number of vertices (0 to 3).
    pub fn len(&self) -> usize {
        self.iter().count()
    }

    /// True when the simplex has no vertex.
    pub fn is_empty(&self) -> bool {
        self.points[0].is_none()
    }

    /// The vertices in order.
    pub fn iter(&self) -> impl Iterator<Item = &SupportPoint> + '_ {
        self.points.iter().map_while(Option::as_ref)
    }

    /// The vertices as a vector (for traces and lessons).
    pub fn to_vec(&self) -> Vec<SupportPoint> {
        self.iter().copied().collect()
    }
}

/// GJK's working simplex: fixed arrays, no allocation. `weights` are the barycentric
/// coordinates of the point closest to the origin (they sum to 1, all positive).
#[derive(Clone, Copy, Debug)]
pub(super) struct WorkingSimplex {
    pub(super) vertices: [SupportPoint; 3],
    pub(super) weights: [f32; 3],
    pub(super) len: usize,
}

impl WorkingSimplex {
    /// No vertex: a place for GJK to leave its final simplex in (`gjk::gjk_until`).
    pub(super) const EMPTY: WorkingSimplex = WorkingSimplex {
        vertices: [EMPTY_SUPPORT; 3],
        weights: [0.0; 3],
        len: 0,
    };

    /// Starts over from the one point `w`. Only the first slot is written: the others are
    /// past `len` and never read.
    #[inline]
    pub(super) fn start(&mut self, w: SupportPoint) {
        self.vertices[0] = w;
        self.weights[0] = 1.0;
        self.len = 1;
    }

    pub(super) fn as_slice(&self) -> &[SupportPoint] {
        &self.vertices[..self.len]
    }

    /// Σ λᵢ wᵢ: the simplex point closest to the origin.
    pub(super) fn closest(&self) -> Vec2 {
        (0..self.len).fold(Vec2::ZERO, |s, i| s + self.vertices[i].point * self.weights[i])
    }

    /// Σ λᵢ aᵢ and Σ λᵢ bᵢ: the matching points on A and on B (world frame). Their
    /// difference is `closest()`.
    pub(super) fn witness_points(&self) -> (Vec2, Vec2) {
        (0..self.len).fold((Vec2::ZERO, Vec2::ZERO), |(pa, pb), i| {
            let w = &self.vertices[i];
            (pa + w.a * self.weights[i], pb + w.b * self.weights[i])
        })
    }

    /// True when a support point from the same pair of vertices is already in the simplex.
    pub(super) fn contains(&self, w: &SupportPoint) -> bool {
        self.as_slice()
            .iter()
            .any(|v| v.index_a == w.index_a && v.index_b == w.index_b)
    }

    /// Adds `w` after the vertices (a full simplex is left as it is). Until the solve is
    /// applied ([`WorkingSimplex::apply`]), [`WorkingSimplex::pop`] takes it out again and
    /// leaves the simplex exactly as before: the other vertices and weights are not touched.
    #[inline]
    pub(super) fn push(&mut self, w: SupportPoint) {
        if self.len < 3 {
            self.vertices[self.len] = w;
            self.len += 1;
        }
    }

    /// Takes out the vertex [`WorkingSimplex::push`] added last.
    #[inline]
    pub(super) fn pop(&mut self) {
        self.len = self.len.saturating_sub(1);
    }

    pub(super) fn to_simplex(self) -> Simplex {
        Simplex::from_points(self.as_slice())
    }

    /// The point of the simplex closest to the origin, as the vertices it needs with their
    /// weights, found without changing the simplex: GJK looks
    /// at the new closest point ([`WorkingSimplex::closest_of`]) before it decides to keep
    /// the step ([`WorkingSimplex::apply`]) or go back ([`WorkingSimplex::pop`]), and so
    /// needs no copy of the simplex to go back to (a 144-byte copy on every step).
    #[inline]
    pub(super) fn solved(&self) -> Solved {
        match self.len {
            2 => self.solve_segment(0, 1),
            3 => self.solve_triangle(),
            1 => Solved::Vertex(0),
            _ => Solved::Nothing,
        }
    }

    /// Σ λᵢ wᵢ over what `solved` keeps: the same sum, in the same order, as
    /// [`WorkingSimplex::closest`] after [`WorkingSimplex::apply`], so the same bits.
    // Always inlined: as a call from GJK's loop (after every solve) it was a third of its
    // own instructions.
    #[inline(always)]
    pub(super) fn closest_of(&self, solved: &Solved) -> Vec2 {
        let point = |i: usize| self.vertices[i].point;
        match *solved {
            Solved::Nothing => Vec2::ZERO,
            Solved::Vertex(i) => Vec2::ZERO + point(i) * 1.0,
            Solved::Edge((i, weight_i), (j, weight_j)) => Vec2::ZERO + point(i) * weight_i + point(j) * weight_j,
            Solved::Inside([w0, w1, w2]) => Vec2::ZERO + point(0) * w0 + point(1) * w1 + point(2) * w2,
        }
    }

    /// Keeps what `solved` (from [`WorkingSimplex::solved`] on this simplex) keeps, with
    /// its weights, in place: the kept indices increase, so a vertex is read before its
    /// slot can be written (a copy of the old vertices was 120 bytes on every solve).
    #[inline]
    pub(super) fn apply(&mut self, solved: &Solved) {
        match *solved {
            Solved::Nothing => self.len = 0,
            Solved::Vertex(i) => {
                if i != 0 {
                    self.vertices[0] = self.vertices[i];
                }
                self.weights[0] = 1.0;
                self.len = 1;
            }
            Solved::Edge((i, weight_i), (j, weight_j)) => {
                debug_assert!(i < j);
                if i != 0 {
                    self.vertices[0] = self.vertices[i];
                }
                if j != 1 {
                    self.vertices[1] = self.vertices[j];
                }
                self.weights[0] = weight_i;
                self.weights[1] = weight_j;
                self.len = 2;
            }
            Solved::Inside(weights) => {
                self.weights = weights;
                self.len = 3;
            }
        }
    }

    /// Segment [wi, wj], Ericson 5.1.2 with unnormalised barycentric coordinates:
    /// with e = wj − wi the closest point is wi + t·e, t = −wi·e / e·e. The weight of wi is
    /// u = wj·e (= e·e·(1 − t)), the weight of wj is v = −wi·e (= e·e·t); both are
    /// positive exactly in the edge's Voronoi region, and dividing by u + v (a sum of
    /// positives) cannot cancel.
    #[inline]
    fn solve_segment(&self, i: usize, j: usize) -> Solved {
        let w0 = self.vertices[i].point;
        let w1 = self.vertices[j].point;
        let e = w1 - w0;
        let u = w1.dot(e);
        let v = -w0.dot(e);
        if v <= 0.0 {
            Solved::Vertex(i)
        } else if u <= 0.0 {
            Solved::Vertex(j)
        } else {
            let inv = 1.0 / (u + v);
            Solved::Edge((i, u * inv), (j, v * inv))
        }
    }

    /// Triangle [w0, w1, w2]: the Voronoi region of the triangle holding the origin
    /// (Ericson 5.1.5, in 2D with signed areas).
    ///
    /// ```text
    /// for each edge (i, j): u_ij = wj·(wj − wi) (weight of wi), v_ij = −wi·(wj − wi) (of wj)
    /// area weights: a0 = s·cross(w1, w2), a1 = s·cross(w2, w0), a2 = s·cross(w0, w1),
    ///               s = sign of the triangle's area (so the winding does not matter)
    /// vertex i  if the origin is behind both edges leaving i (v_i* <= 0 for both)
    /// edge ij   if u_ij > 0, v_ij > 0 and the opposite area weight <= 0
    /// inside    otherwise: λ = (a0, a1, a2) / (a0 + a1 + a2)
    /// ```
    /// A flat triangle gives zero area weights, so it always lands in a vertex or edge
    /// region; a final guard handles a sum that rounding left non-positive.
    // Always inlined into GJK's loop, its one caller: as a call (24,960 of the 46,080
    // solves of `examples/gjk_workload.rs`) the workload took 259.1 M instructions against
    // 258.9 M inlined, the same answers (checksum).
    #[inline(always)]
    fn solve_triangle(&self) -> Solved {
        let [w0, w1, w2] = [self.vertices[0].point, self.vertices[1].point, self.vertices[2].point];
        let edge = |p: Vec2, q: Vec2| {
            let e = q - p;
            (q.dot(e), -p.dot(e))
        };
        let (u01, v01) = edge(w0, w1);
        let (u12, v12) = edge(w1, w2);
        let (u02, v02) = edge(w0, w2);
        let area = cross(w1 - w0, w2 - w0);
        let s = if area > 0.0 {
            1.0
        } else if area < 0.0 {
            -1.0
        } else {
            0.0
        };
        let a0 = s * cross(w1, w2);
        let a1 = s * cross(w2, w0);
        let a2 = s * cross(w0, w1);

        if v01 <= 0.0 && v02 <= 0.0 {
            Solved::Vertex(0)
        } else if u01 <= 0.0 && v12 <= 0.0 {
            Solved::Vertex(1)
        } else if u02 <= 0.0 && u12 <= 0.0 {
            Solved::Vertex(2)
        } else if u01 > 0.0 && v01 > 0.0 && a2 <= 0.0 {
            let inv = 1.0 / (u01 + v01);
            Solved::Edge((0, u01 * inv), (1, v01 * inv))
        } else if u12 > 0.0 && v12 > 0.0 && a0 <= 0.0 {
            let inv = 1.0 / (u12 + v12);
            Solved::Edge((1, u12 * inv), (2, v12 * inv))
        } else if u02 > 0.0 && v02 > 0.0 && a1 <= 0.0 {
            let inv = 1.0 / (u02 + v02);
            Solved::Edge((0, u02 * inv), (2, v02 * inv))
        } else {
            let sum = a0 + a1 + a2;
            if sum > 0.0 && a0 >= 0.0 && a1 >= 0.0 && a2 >= 0.0 {
                let inv = 1.0 / sum;
                Solved::Inside([a0 * inv, a1 * inv, a2 * inv])
            } else {
                // Only reachable through NaN or rounding on a sliver: fall back to the best
                // of the three edges, each solved on its own.
                let mut best: Option<(f32, Solved)> = None;
                for (i, j) in [(0, 1), (1, 2), (0, 2)] {
                    let edge = self.solve_segment(i, j);
                    let d = self.closest_of(&edge).length_squared();
                    if best.as_ref().is_none_or(|(bd, _)| d < *bd) {
                        best = Some((d, edge));
                    }
                }
                best.map_or(Solved::Nothing, |(_, edge)| edge)
            }
        }
    }
}

/// What a solve of a [`WorkingSimplex`] keeps: which of its vertices (by index, in
/// increasing order), each with its barycentric weight.
#[derive(Clone, Copy, Debug)]
pub(super) enum Solved {
    /// No vertex (the solve of an empty simplex).
    Nothing,
    /// One vertex, weight 1.
    Vertex(usize),
    /// Two vertices: the closest point lies on the edge between them.
    Edge((usize, f32), (usize, f32)),
    /// All three vertices of a triangle holding the origin.
    Inside([f32; 3]),
}

impl Solved {
    /// Number of vertices kept.
    #[inline]
    pub(super) fn len(&self) -> usize {
        match self {
            Solved::Nothing => 0,
            Solved::Vertex(_) => 1,
            Solved::Edge(..) => 2,
            Solved::Inside(_) => 3,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A simplex of the one point `w`.
    fn single(w: SupportPoint) -> WorkingSimplex {
        let mut s = WorkingSimplex::EMPTY;
        s.start(w);
        s
    }

    /// Solves `s` and keeps what the solve keeps.
    fn solve(s: &mut WorkingSimplex) {
        let solved = s.solved();
        s.apply(&solved);
    }

    #[test]
    fn segment_solver_picks_the_right_region() {
        let sp = |x: f32, y: f32, i: usize| SupportPoint {
            point: Vec2::new(x, y),
            a: Vec2::new(x, y),
            b: Vec2::ZERO,
            index_a: i,
            index_b: 0,
        };
        // Origin projects inside the segment from (-1, 1) to (1, 1): closest (0, 1).
        let mut s = single(sp(-1.0, 1.0, 0));
        s.push(sp(1.0, 1.0, 1));
        solve(&mut s);
        assert_eq!(s.len, 2);
        assert!((s.closest() - Vec2::new(0.0, 1.0)).length() < 1e-6);
        // Origin beyond the w1 end: only w1 is kept.
        let mut s = single(sp(-2.0, 1.0, 0));
        s.push(sp(-1.0, 1.0, 1));
        solve(&mut s);
        assert_eq!(s.len, 1);
        assert_eq!(s.vertices[0].index_a, 1);
    }

    #[test]
    fn triangle_solver_detects_the_inside() {
        let sp = |x: f32, y: f32, i: usize| SupportPoint {
            point: Vec2::new(x, y),
            a: Vec2::new(x, y),
            b: Vec2::ZERO,
            index_a: i,
            index_b: 0,
        };
        // Clockwise on purpose: the solver must not care about winding.
        let mut s = single(sp(0.0, 1.0, 0));
        s.push(sp(1.0, -1.0, 1));
        s.push(sp(-1.0, -1.0, 2));
        solve(&mut s);
        assert_eq!(s.len, 3);
        assert!(s.closest().length() < 1e-6);
        // Collinear points: never "inside", never NaN.
        let mut s = single(sp(-1.0, 1.0, 0));
        s.push(sp(1.0, 1.0, 1));
        s.push(sp(0.0, 1.0, 2));
        solve(&mut s);
        assert!(s.len < 3);
        assert!((s.closest() - Vec2::new(0.0, 1.0)).length() < 1e-6);
    }
}
