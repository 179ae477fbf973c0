//! Convex polygons and the borrowed view every convex query works on.

use crate::math::{right_perp, Vec2};

/// A convex polygon: counter-clockwise vertices in a local frame, with the outward unit
/// normal of each edge `i` (from vertex `i` to vertex `i + 1`).
///
/// Pieces of a convex decomposition are `ConvexPolygon`s; so is a convex [`super::Polygon`]'s
/// single piece.
#[derive(Clone, Debug, PartialEq)]
pub struct ConvexPolygon {
    vertices: Vec<Vec2>,
    normals: Vec<Vec2>,
    centroid: Vec2,
    /// Per edge: true when it is a diagonal of the decomposition (another piece has it
    /// reversed) rather than a stretch of the polygon's outline.
    diagonals: Vec<bool>,
    /// Half extents (m) when the polygon is a rectangle centred on its origin with
    /// axis-aligned edges, vertices exactly (±hx, ±hy): the
    /// narrow phase then tests a pair of them with closed-form projections
    /// (`narrow/polygon_polygon/rectangles.rs`).
    centred_box: Option<Vec2>,
    /// The vertices' extent and sum, which GJK reads before its first support point:
    /// computed once here instead of on every pair query ([`VertexSummary`]).
    summary: VertexSummary,
}

impl ConvexPolygon {
    /// Builds from vertices that the caller guarantees are counter-clockwise, convex,
    /// and free of duplicate or collinear neighbours (the decomposition's output).
    pub(crate) fn from_ccw_convex(vertices: Vec<Vec2>) -> Self {
        let normals = edge_normals(&vertices);
        let centroid = super::mass::polygon_centroid(&vertices);
        let diagonals = vec![false; vertices.len()];
        let centred_box = centred_box_half_extents(&vertices);
        let summary = VertexSummary::of(&vertices);
        ConvexPolygon {
            vertices,
            normals,
            centroid,
            diagonals,
            centred_box,
            summary,
        }
    }

    /// Half extents (m) when this is a rectangle centred on the local origin with
    /// axis-aligned edges (exactly: vertices (±hx, ±hy)), found once
    /// when the polygon is built. Every box of a pile is one.
    pub fn centred_box(&self) -> Option<Vec2> {
        self.centred_box
    }

    /// Marks the edges of `pieces` (one decomposition) that are diagonals: those whose
    /// reverse is an edge of another piece. The decomposition cuts along diagonals
    /// between the outline's vertices, so both sides carry the same end points, bit for
    /// bit.
    pub(crate) fn mark_diagonals(pieces: &mut [ConvexPolygon]) {
        fn edges(piece: &ConvexPolygon) -> impl Iterator<Item = (Vec2, Vec2)> + '_ {
            let n = piece.vertices.len();
            (0..n).map(move |k| (piece.vertices[k], piece.vertices[(k + 1) % n]))
        }
        let key = |p: Vec2, q: Vec2| [p.x.to_bits(), p.y.to_bits(), q.x.to_bits(), q.y.to_bits()];
        let all: std::collections::HashSet<[u32; 4]> = pieces
            .iter()
            .flat_map(|piece| edges(piece).map(|(p, q)| key(p, q)))
            .collect();
        for piece in pieces.iter_mut() {
            let marks: Vec<bool> = edges(piece).map(|(p, q)| all.contains(&key(q, p))).collect();
            piece.diagonals = marks;
        }
    }

    /// Per edge (vertex `i` to `i + 1`): true when it is a diagonal of the polygon's
    /// decomposition, inside the polygon, rather than part of its outline.
    pub fn diagonals(&self) -> &[bool] {
        &self.diagonals
    }

    /// Counter-clockwise vertices, local frame.
    pub fn vertices(&self) -> &[Vec2] {
        &self.vertices
    }

    /// Outward unit normal of edge `i` (vertex `i` to vertex `i + 1`), local frame.
    pub fn normals(&self) -> &[Vec2] {
        &self.normals
    }

    /// Area centroid, local frame.
    pub fn centroid(&self) -> Vec2 {
        self.centroid
    }

    /// The borrowed view the narrow phase works on.
    pub fn view(&self) -> ConvexView<'_> {
        ConvexView {
            vertices: &self.vertices,
            normals: &self.normals,
            radius: 0.0,
            summary: Some(&self.summary),
        }
    }
}

/// What GJK needs of a view before its first support point, in one pass over its
/// vertices: the largest squared distance of a vertex from the local origin (for the
/// tolerances' scale) and the vertices' sum (for the first search direction). Neither
/// depends on the pose, so a piece computes it once when it is built
/// ([`ConvexPolygon`]) and its view carries it: in callgrind on the benchmark's
/// families (`examples/gjk_workload.rs`) the two passes per pair query were about 260
/// instructions of GJK's 2,150. The same values to the bit either way: the sum is
/// taken in vertex order, and a comparison keeps the larger squared length as
/// `f32::max` did (NaN never replaces the running maximum, which starts at 0).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct VertexSummary {
    /// max |v|² over the vertices (0 for none), local frame.
    pub extent_sq: f32,
    /// Σ v over the vertices, local frame.
    pub sum: Vec2,
    /// Vertex count.
    pub count: usize,
}

impl VertexSummary {
    /// The summary of `vertices` (see the type's docs).
    #[inline]
    pub fn of(vertices: &[Vec2]) -> VertexSummary {
        let mut extent_sq = 0.0f32;
        let mut sum = Vec2::ZERO;
        for v in vertices {
            let l = v.length_squared();
            if l > extent_sq {
                extent_sq = l;
            }
            sum += *v;
        }
        VertexSummary {
            extent_sq,
            sum,
            count: vertices.len(),
        }
    }
}

/// [`ConvexPolygon::centred_box`] of `vertices`: four vertices whose coordinates are
/// exactly ±hx and ±hy (so they are the four corners). Exact equalities only: the closed
/// forms that rely on them round as the vertex scans do.
fn centred_box_half_extents(vertices: &[Vec2]) -> Option<Vec2> {
    let &[first, ..] = vertices else { return None };
    let half = first.abs();
    let corners = vertices.len() == 4 && vertices.iter().all(|v| v.abs() == half) && half.x > 0.0 && half.y > 0.0;
    corners.then_some(half)
}

/// Outward unit normals of the edges of a counter-clockwise polygon. A two-vertex
/// "polygon" (a segment) gets its two opposite normals.
pub(crate) fn edge_normals(vertices: &[Vec2]) -> Vec<Vec2> {
    let n = vertices.len();
    (0..n)
        .map(|i| right_perp(vertices[(i + 1) % n] - vertices[i]).normalize_or_zero())
        .collect()
}

/// From this many vertices on, [`ConvexView::support_index_near`] climbs from its
/// starting vertex instead of scanning. Measured with `collision-lab bench --families
/// convex`: GJK and EPA on two 8-gons or 32-gons gain nothing from the climb's branches
/// over a scan of independent dots; on 128-gons a scan was most of GJK/EPA's time.
pub const SUPPORT_CLIMB_MIN_VERTICES: usize = 32;

/// From this many vertices on, [`ConvexView::support_index`] scans four at a time
/// ([`support_index_sse2`]); below, one at a time. The four-lane scan pays a fixed cost
/// (broadcasting the direction, storing and merging the four lanes, then the last
/// `n mod 4` vertices one by one) that a one-at-a-time scan of a few vertices does not.
/// Measured with callgrind on `examples/gjk_workload.rs` (the benchmark's families at 8,
/// 32 and 128 vertices, whose pieces are mostly triangles and quads): raising this from
/// 4 to 8 took GjkEpa from 292.0 M to 289.9 M instructions, the same answers (checksum).
pub const SUPPORT_SSE2_MIN_VERTICES: usize = 8;

/// The scan of [`ConvexView::support_index`] over `vertices[from..]`, continuing from
/// `best` (index, dot): the first vertex of largest dot wins; a NaN dot never does.
#[inline]
fn support_index_scan(vertices: &[Vec2], direction: Vec2, from: usize, best: (usize, f32)) -> (usize, f32) {
    let (mut best, mut best_dot) = best;
    for (i, v) in vertices.iter().enumerate().skip(from) {
        let d = v.dot(direction);
        if d > best_dot {
            best_dot = d;
            best = i;
        }
    }
    (best, best_dot)
}

/// [`support_index_scan`] four vertices at a time (SSE2, part of every x86-64), for the
/// same index to the bit. GJK and EPA ask two of these per support point, and on two
/// octagons the one-at-a-time scan was a fifth of a GjkEpa query's instructions
/// (callgrind, `examples/gjk_workload.rs convex 8`); Box2D v3's `b2FindSupport` is the
/// same plain loop, its polygons having at most 8 vertices.
///
/// Lane l keeps the first largest dot among vertices l, l + 4, l + 8, …: each dot is
/// `x·dx + y·dy` rounded as `Vec2::dot` rounds it (two products, one sum), a lane moves
/// on only for a strictly larger dot (`maxps` keeps the old value on ties and NaN, as the
/// strict comparison does), and the lanes are then merged by largest dot, ties to the
/// lowest index, before the last `n mod 4` vertices are scanned one by one. So the
/// answer is the first vertex of largest dot, as the scan's.
#[cfg(target_arch = "x86_64")]
#[inline]
fn support_index_sse2(vertices: &[Vec2], direction: Vec2) -> usize {
    use std::arch::x86_64::*;
    let n = vertices.len();
    let chunks = n / 4;
    let (mut dots, mut indices) = ([0.0f32; 4], [0i32; 4]);
    // SAFETY: SSE2 is in x86-64's baseline, so these instructions exist on every target
    // this compiles for. `Vec2` is `#[repr(C)]` (x, y), so the vertices are 2n
    // contiguous f32; chunk k reads floats 8k..8k + 8, within the slice for k < n / 4.
    // The stores write 4 lanes into 4-element arrays.
    unsafe {
        let floats = vertices.as_ptr() as *const f32;
        let (dx, dy) = (_mm_set1_ps(direction.x), _mm_set1_ps(direction.y));
        let mut best = _mm_set1_ps(f32::NEG_INFINITY);
        let mut best_index = _mm_setr_epi32(0, 1, 2, 3);
        let mut index = best_index;
        let four = _mm_set1_epi32(4);
        for k in 0..chunks {
            let v01 = _mm_loadu_ps(floats.add(8 * k));
            let v23 = _mm_loadu_ps(floats.add(8 * k + 4));
            // x0 x1 x2 x3 and y0 y1 y2 y3.
            let xs = _mm_shuffle_ps::<0b10_00_10_00>(v01, v23);
            let ys = _mm_shuffle_ps::<0b11_01_11_01>(v01, v23);
            let d = _mm_add_ps(_mm_mul_ps(xs, dx), _mm_mul_ps(ys, dy));
            let better = _mm_castps_si128(_mm_cmpgt_ps(d, best));
            best = _mm_max_ps(d, best);
            best_index = _mm_or_si128(_mm_and_si128(better, index), _mm_andnot_si128(better, best_index));
            index = _mm_add_epi32(index, four);
        }
        _mm_storeu_ps(dots.as_mut_ptr(), best);
        _mm_storeu_si128(indices.as_mut_ptr() as *mut __m128i, best_index);
    }
    let mut best = (indices[0] as usize, dots[0]);
    for lane in 1..4 {
        let (i, d) = (indices[lane] as usize, dots[lane]);
        if d > best.1 || (d == best.1 && i < best.0) {
            best = (i, d);
        }
    }
    support_index_scan(vertices, direction, 4 * chunks, best).0
}

/// A convex shape as the narrow phase sees it, in its local frame: a convex polygon, a
/// segment (two vertices, two opposite normals) or a point (one vertex, no normals),
/// inflated by `radius` (a circle is a point with a radius).
#[derive(Clone, Copy, Debug)]
pub struct ConvexView<'a> {
    /// Counter-clockwise vertices (one for a circle, two for a segment), local frame.
    pub vertices: &'a [Vec2],
    /// Outward unit normal of edge `i` (vertex `i` to `i + 1`); empty for a circle.
    pub normals: &'a [Vec2],
    /// Radius added around the vertices (metres); 0 for polygons and segments.
    pub radius: f32,
    /// The vertices' summary when computed ahead (a decomposition's pieces); `None`:
    /// whoever needs it computes it from `vertices` ([`ConvexView::summary`]).
    pub summary: Option<&'a VertexSummary>,
}

impl ConvexView<'_> {
    /// The vertices' [`VertexSummary`]: the one computed ahead, else from the vertices
    /// (the same value).
    #[inline]
    pub fn summary(&self) -> VertexSummary {
        match self.summary {
            Some(summary) => *summary,
            None => VertexSummary::of(self.vertices),
        }
    }

    /// Index of the vertex farthest along `local_direction` (the support mapping, without
    /// the radius). Ties go to the lowest index, so the answer is deterministic.
    /// O(n): a linear scan is faster than hill climbing for the sizes pieces have.
    #[inline]
    pub fn support_index(&self, local_direction: Vec2) -> usize {
        #[cfg(target_arch = "x86_64")]
        if self.vertices.len() >= SUPPORT_SSE2_MIN_VERTICES {
            return support_index_sse2(self.vertices, local_direction);
        }
        support_index_scan(self.vertices, local_direction, 0, (0, f32::NEG_INFINITY)).0
    }

    /// [`ConvexView::support_index`] by hill climbing from vertex `start` (a support
    /// vertex for a nearby direction: GJK's previous support point, an EPA edge's end),
    /// for views of at least `SUPPORT_CLIMB_MIN_VERTICES` vertices; smaller views (and a
    /// `start` out of range) take the scan. Returns the index and the dot products
    /// computed (the work counters' vertices scanned).
    ///
    /// A convex ring's dots along a direction rise to one maximum and fall again, so
    /// climbing forward while the next dot is larger (else backward) ends on it, after
    /// as many steps as the direction has turned past vertices since `start` (Box2D v3's
    /// `b2FindSupport`, distance.c, scans every vertex: its polygons have at most 8). Unlike
    /// the scan, a climb that meets two exactly tied vertices (an edge perpendicular to
    /// the direction) keeps the first it reaches, not the lower index: equally far
    /// along the direction, so GJK's and EPA's answers hold either way.
    #[inline]
    pub fn support_index_near(&self, local_direction: Vec2, start: usize) -> (usize, u32) {
        let n = self.vertices.len();
        if n < SUPPORT_CLIMB_MIN_VERTICES || start >= n {
            return (self.support_index(local_direction), n as u32);
        }
        self.support_index_climb(local_direction, start)
    }

    /// The climb of [`ConvexView::support_index_near`] (`start` < n). Out of line, so that
    /// the scan above inlines into GJK's and EPA's support mapping on small views (the
    /// call and its spills were a fifth of the support point's own instructions on two
    /// octagons).
    #[inline(never)]
    fn support_index_climb(&self, local_direction: Vec2, start: usize) -> (usize, u32) {
        let n = self.vertices.len();
        let (mut at, mut best) = (start, self.vertices[start].dot(local_direction));
        let mut dots = 1;
        let mut moved = false;
        loop {
            let next = if at + 1 == n { 0 } else { at + 1 };
            let d = self.vertices[next].dot(local_direction);
            dots += 1;
            if d > best {
                (at, best, moved) = (next, d, true);
            } else {
                break;
            }
        }
        if !moved {
            loop {
                let prev = if at == 0 { n - 1 } else { at - 1 };
                let d = self.vertices[prev].dot(local_direction);
                dots += 1;
                if d > best {
                    (at, best) = (prev, d);
                } else {
                    break;
                }
            }
        }
        (at, dots)
    }

    /// Projection interval `[min, max]` of the vertices (radius included) on
    /// `local_axis`.
    #[inline]
    pub fn project(&self, local_axis: Vec2) -> (f32, f32) {
        let mut lo = f32::INFINITY;
        let mut hi = f32::NEG_INFINITY;
        for v in self.vertices {
            let d = v.dot(local_axis);
            lo = lo.min(d);
            hi = hi.max(d);
        }
        let r = self.radius * local_axis.length();
        (lo - r, hi + r)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The four-lane support scan gives the one-at-a-time scan's index on every count,
    /// including exact ties (a square's edges along the axes, repeated dots) and NaN.
    #[test]
    fn support_index_matches_the_plain_scan() {
        let mut seed = 0x9e37_79b9_u32;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 17;
            seed ^= seed << 5;
            (seed >> 8) as f32 / (1u32 << 24) as f32 - 0.5
        };
        for n in 1..40usize {
            // A regular n-gon (ties on axis directions) and a random point set.
            let regular: Vec<Vec2> = (0..n)
                .map(|k| Vec2::from_angle(k as f32 * std::f32::consts::TAU / n as f32))
                .collect();
            let random: Vec<Vec2> = (0..n).map(|_| Vec2::new(next(), next())).collect();
            let repeated: Vec<Vec2> = (0..n).map(|k| Vec2::new((k % 3) as f32, 0.0)).collect();
            for vertices in [&regular, &random, &repeated] {
                let view = ConvexView {
                    vertices,
                    normals: &[],
                    radius: 0.0,
                    summary: None,
                };
                let directions = [
                    Vec2::X,
                    Vec2::Y,
                    -Vec2::X,
                    -Vec2::Y,
                    Vec2::new(next(), next()),
                    Vec2::NAN,
                ];
                for d in directions {
                    let plain = support_index_scan(vertices, d, 0, (0, f32::NEG_INFINITY)).0;
                    assert_eq!(view.support_index(d), plain, "{n} vertices along {d}");
                    // The four-lane scan itself on every count, also below
                    // `SUPPORT_SSE2_MIN_VERTICES` where `support_index` no longer takes it.
                    #[cfg(target_arch = "x86_64")]
                    assert_eq!(support_index_sse2(vertices, d), plain, "{n} vertices along {d}");
                }
            }
        }
    }

    /// A piece's view carries the summary of its own vertices, the same to the bit as
    /// one computed on the spot (GJK reads either, `narrow/gjk.rs`).
    #[test]
    fn a_piece_carries_the_summary_of_its_vertices() {
        let vertices = vec![
            Vec2::new(0.3, -1.7),
            Vec2::new(2.5, 0.25),
            Vec2::new(1.0, 2.0),
            Vec2::new(-0.1, 0.9),
        ];
        let piece = ConvexPolygon::from_ccw_convex(vertices.clone());
        let view = piece.view();
        let stored = view.summary.expect("a piece's view carries its summary");
        let computed = VertexSummary::of(&vertices);
        assert_eq!(stored.extent_sq.to_bits(), computed.extent_sq.to_bits());
        assert_eq!(stored.sum.x.to_bits(), computed.sum.x.to_bits());
        assert_eq!(stored.sum.y.to_bits(), computed.sum.y.to_bits());
        assert_eq!(stored.count, 4);
        let unsummarised = ConvexView { summary: None, ..view };
        assert_eq!(unsummarised.summary(), view.summary());
    }
}
