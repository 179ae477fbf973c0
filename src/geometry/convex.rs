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
}

impl ConvexPolygon {
    /// Builds from vertices that the caller guarantees are counter-clockwise, convex,
    /// and free of duplicate or collinear neighbours (the decomposition's output).
    pub(crate) fn from_ccw_convex(vertices: Vec<Vec2>) -> Self {
        let normals = edge_normals(&vertices);
        let centroid = super::mass::polygon_centroid(&vertices);
        let diagonals = vec![false; vertices.len()];
        ConvexPolygon {
            vertices,
            normals,
            centroid,
            diagonals,
        }
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
        }
    }
}

/// Outward unit normals of the edges of a counter-clockwise polygon. A two-vertex
/// "polygon" (a segment) gets its two opposite normals.
pub(crate) fn edge_normals(vertices: &[Vec2]) -> Vec<Vec2> {
    let n = vertices.len();
    (0..n)
        .map(|i| right_perp(vertices[(i + 1) % n] - vertices[i]).normalize_or_zero())
        .collect()
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
}

impl ConvexView<'_> {
    /// Index of the vertex farthest along `local_direction` (the support mapping, without
    /// the radius). Ties go to the lowest index, so the answer is deterministic.
    /// O(n): a linear scan is faster than hill climbing for the sizes pieces have.
    #[inline]
    pub fn support_index(&self, local_direction: Vec2) -> usize {
        let mut best = 0;
        let mut best_dot = f32::NEG_INFINITY;
        for (i, v) in self.vertices.iter().enumerate() {
            let d = v.dot(local_direction);
            if d > best_dot {
                best_dot = d;
                best = i;
            }
        }
        best
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
