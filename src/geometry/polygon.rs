//! Simple polygons, convex or not: validation, normalisation and cached geometry.

use super::convex::{edge_normals, ConvexPolygon, ConvexView};
use super::edge_tree::EdgeTree;
use crate::bounds::Aabb;
use crate::math::{cross, Vec2};

/// A simple polygon (convex or not) in its local frame, validated and normalised:
/// counter-clockwise, no duplicate or collinear vertices, at least three vertices,
/// non-zero area, no self-intersection. Convexity and a convex decomposition are
/// computed once, here, and cached, with two bounding-volume trees (Liu et al. 2018): one over
/// the edges, one over the convex pieces (see [`EdgeTree`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Polygon {
    vertices: Vec<Vec2>,
    normals: Vec<Vec2>,
    convex: bool,
    pieces: Vec<ConvexPolygon>,
    local_aabb: Aabb,
    /// Boxed: the trees would otherwise make every `Shape` as large as a polygon with
    /// them inline.
    trees: Box<PolygonTrees>,
}

/// The two bounding-volume trees of a polygon.
#[derive(Clone, Debug, PartialEq)]
struct PolygonTrees {
    edges: EdgeTree,
    pieces: EdgeTree,
}

/// Why a list of points is not a usable polygon. Vertex and edge indices refer to the
/// points as the user gave them (edge `i` joins point `i` to point `i + 1`, wrapping).
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum PolygonError {
    /// Fewer than three distinct vertices.
    #[error("a polygon needs at least 3 distinct vertices, found {distinct}")]
    TooFewVertices {
        /// Distinct vertices found.
        distinct: usize,
    },
    /// A coordinate is NaN or infinite.
    #[error("vertex {index} is not finite: ({x}, {y})")]
    NonFinite {
        /// The offending point's index.
        index: usize,
        /// Its x coordinate.
        x: f32,
        /// Its y coordinate.
        y: f32,
    },
    /// All vertices on one line (or the area is below rounding).
    #[error("the polygon has zero area (all vertices are collinear)")]
    ZeroArea,
    /// Two edges cross or overlap.
    #[error(
        "the polygon intersects itself: edge {edge_a} ({a0:?} to {a1:?}) crosses or touches edge {edge_b} ({b0:?} to {b1:?})"
    )]
    SelfIntersecting {
        /// First edge (point `edge_a` to the next point).
        edge_a: usize,
        /// Second edge.
        edge_b: usize,
        /// Start of edge a.
        a0: (f32, f32),
        /// End of edge a.
        a1: (f32, f32),
        /// Start of edge b.
        b0: (f32, f32),
        /// End of edge b.
        b1: (f32, f32),
    },
}

impl Polygon {
    /// Validates and normalises `points` (local frame, either orientation).
    ///
    /// Steps: reject non-finite coordinates; drop repeated consecutive points; require
    /// three distinct vertices; reject self-intersection (naming the two edges that
    /// cross); drop collinear vertices; reject zero area; make the order
    /// counter-clockwise; detect convexity; decompose into convex pieces.
    pub fn new(points: &[Vec2]) -> Result<Polygon, PolygonError> {
        let vertices = super::decompose::validate_and_normalise(points)?;
        Ok(Self::from_valid_ccw(vertices))
    }

    /// Builds from vertices already validated, counter-clockwise and without collinear
    /// neighbours.
    pub(crate) fn from_valid_ccw(vertices: Vec<Vec2>) -> Polygon {
        let normals = edge_normals(&vertices);
        let convex = is_convex_ccw(&vertices);
        let pieces = if convex {
            vec![ConvexPolygon::from_ccw_convex(vertices.clone())]
        } else {
            let mut pieces: Vec<ConvexPolygon> = super::decompose::convex_decomposition(&vertices)
                .into_iter()
                .map(ConvexPolygon::from_ccw_convex)
                .collect();
            ConvexPolygon::mark_diagonals(&mut pieces);
            pieces
        };
        let local_aabb = Aabb::from_points(&vertices);
        // Both trees are cheap next to the decomposition (O(n log n) against ear
        // clipping's O(n²)), so every polygon has them and the narrow phase decides per
        // query whether descending them pays (`NarrowConfig::edge_tree`).
        let edge_tree = EdgeTree::over_edges(&vertices);
        let piece_tree = EdgeTree::over_boxes(pieces.iter().map(|p| Aabb::from_points(p.vertices())).collect());
        Polygon {
            vertices,
            normals,
            convex,
            pieces,
            local_aabb,
            trees: Box::new(PolygonTrees {
                edges: edge_tree,
                pieces: piece_tree,
            }),
        }
    }

    /// The same polygon with the nodes of both trees bounded by volumes of `kind`
    /// (boxes by default): every query gives the same answer, only its work differs
    /// (`bench --big-curve` compares them).
    pub fn with_tree_volume(mut self, kind: crate::bounds::BoundKind) -> Polygon {
        let piece_boxes = self.pieces.iter().map(|p| Aabb::from_points(p.vertices())).collect();
        self.trees = Box::new(PolygonTrees {
            edges: EdgeTree::over_edges_with(&self.vertices, kind),
            pieces: EdgeTree::over_boxes_with(piece_boxes, kind),
        });
        self
    }

    /// Counter-clockwise vertices, local frame.
    pub fn vertices(&self) -> &[Vec2] {
        &self.vertices
    }

    /// Outward unit normal of edge `i` (vertex `i` to vertex `i + 1`), local frame.
    pub fn normals(&self) -> &[Vec2] {
        &self.normals
    }

    /// True when the polygon is convex (computed once at construction).
    pub fn is_convex(&self) -> bool {
        self.convex
    }

    /// The cached convex decomposition; a single piece when the polygon is convex.
    pub fn pieces(&self) -> &[ConvexPolygon] {
        &self.pieces
    }

    /// Local-frame axis-aligned bounding box.
    pub fn local_aabb(&self) -> Aabb {
        self.local_aabb
    }

    /// The bounding-volume tree over the edges (edge i: vertex i to vertex i + 1).
    pub fn edge_tree(&self) -> &EdgeTree {
        &self.trees.edges
    }

    /// The bounding-volume tree over the convex pieces (item i: [`Polygon::pieces`]\[i\]).
    pub fn piece_tree(&self) -> &EdgeTree {
        &self.trees.pieces
    }

    /// The whole polygon as a view (only convex queries are exact on it; the
    /// non-convex SAT of Fayzrakhmanov et al. (2015) reads it as is).
    pub fn view(&self) -> ConvexView<'_> {
        ConvexView {
            vertices: &self.vertices,
            normals: &self.normals,
            radius: 0.0,
        }
    }
}

/// Convexity test for a counter-clockwise polygon without collinear neighbours: every
/// turn is to the left.
pub(crate) fn is_convex_ccw(vertices: &[Vec2]) -> bool {
    let n = vertices.len();
    (0..n).all(|i| {
        let a = vertices[i];
        let b = vertices[(i + 1) % n];
        let c = vertices[(i + 2) % n];
        cross(b - a, c - b) > 0.0
    })
}
