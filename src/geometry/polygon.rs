//! Simple polygons, convex or not: validation, normalisation and cached geometry.

use super::convex::{edge_normals, ConvexPolygon, ConvexView};
use super::edge_tree::EdgeTree;
use super::support_ring::{SupportRing, SUPPORT_RING_MIN_VERTICES};
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
    /// Extreme vertices in fixed directions, for polygons of at least
    /// [`super::support_ring::SUPPORT_RING_MIN_VERTICES`] vertices (NonConvexSat's
    /// pruning of axes).
    ring: Option<SupportRing>,
}

/// The stages of building a [`Polygon`], in order, as [`Polygon::new_observed`] reports
/// them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BuildStage {
    /// Validation and normalisation (`validate.rs`): repeats, the simple-polygon sweep,
    /// collinear vertices, orientation.
    Validation,
    /// Triangulation (`decompose.rs`).
    Triangulation,
    /// Hertel–Mehlhorn merging of the triangles into convex pieces.
    Merging,
    /// The pieces as [`ConvexPolygon`]s: normals, centroids, diagonal marks; the outline's
    /// normals and convexity.
    Pieces,
    /// The bounding box and the two bounding-volume trees.
    Trees,
}

impl BuildStage {
    /// Every stage, in order.
    pub const ALL: [BuildStage; 5] = [
        BuildStage::Validation,
        BuildStage::Triangulation,
        BuildStage::Merging,
        BuildStage::Pieces,
        BuildStage::Trees,
    ];

    /// Short name for tables.
    pub fn name(self) -> &'static str {
        match self {
            BuildStage::Validation => "validation",
            BuildStage::Triangulation => "triangulation",
            BuildStage::Merging => "merging",
            BuildStage::Pieces => "pieces",
            BuildStage::Trees => "trees",
        }
    }
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
        Self::new_observed(points, |_| {})
    }

    /// [`Polygon::new`], calling `stage_done` as each [`BuildStage`] finishes (in the
    /// order of the enum; a convex polygon reports the two decomposition stages too, at
    /// once). The library reads no clock: `collision-lab bench --big-load` passes a
    /// callback that does, to see where a big polygon's load time goes.
    pub fn new_observed(points: &[Vec2], mut stage_done: impl FnMut(BuildStage)) -> Result<Polygon, PolygonError> {
        let vertices = super::decompose::validate_and_normalise(points)?;
        stage_done(BuildStage::Validation);
        Ok(Self::from_valid_ccw_observed(vertices, stage_done))
    }

    /// Builds from vertices already validated, counter-clockwise and without collinear
    /// neighbours.
    fn from_valid_ccw_observed(vertices: Vec<Vec2>, mut stage_done: impl FnMut(BuildStage)) -> Polygon {
        let normals = edge_normals(&vertices);
        let convex = is_convex_ccw(&vertices);
        let pieces = if convex {
            stage_done(BuildStage::Triangulation);
            stage_done(BuildStage::Merging);
            vec![ConvexPolygon::from_ccw_convex(vertices.clone())]
        } else {
            let triangles = super::decompose::triangulate(&vertices);
            stage_done(BuildStage::Triangulation);
            let rings = super::decompose::hertel_mehlhorn(&vertices, &triangles);
            stage_done(BuildStage::Merging);
            let mut pieces: Vec<ConvexPolygon> = rings.into_iter().map(ConvexPolygon::from_ccw_convex).collect();
            ConvexPolygon::mark_diagonals(&mut pieces);
            pieces
        };
        stage_done(BuildStage::Pieces);
        let local_aabb = Aabb::from_points(&vertices);
        // Both trees are O(n log n), like the decomposition, so every polygon has them
        // and the narrow phase decides per query whether descending them pays
        // (`NarrowConfig::edge_tree`).
        let edge_tree = EdgeTree::over_edges(&vertices);
        let piece_tree = EdgeTree::over_boxes(pieces.iter().map(|p| Aabb::from_points(p.vertices())).collect());
        let ring = (vertices.len() >= SUPPORT_RING_MIN_VERTICES).then(|| SupportRing::new(&vertices));
        stage_done(BuildStage::Trees);
        Polygon {
            vertices,
            normals,
            convex,
            pieces,
            local_aabb,
            trees: Box::new(PolygonTrees {
                edges: edge_tree,
                pieces: piece_tree,
                ring,
            }),
        }
    }

    /// The same polygon with the nodes of both trees bounded by volumes of `kind`
    /// (boxes by default): every query gives the same answer, only its work differs
    /// (`bench --big-curve` compares them).
    pub fn with_tree_volume(mut self, kind: crate::bounds::BoundKind) -> Polygon {
        let piece_boxes = self.pieces.iter().map(|p| Aabb::from_points(p.vertices())).collect();
        let ring = self.trees.ring.take();
        self.trees = Box::new(PolygonTrees {
            edges: EdgeTree::over_edges_with(&self.vertices, kind),
            pieces: EdgeTree::over_boxes_with(piece_boxes, kind),
            ring,
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

    /// The ring of extreme vertices NonConvexSat bounds its axes with (`None` below
    /// [`super::support_ring::SUPPORT_RING_MIN_VERTICES`] vertices).
    pub fn support_ring(&self) -> Option<&SupportRing> {
        self.trees.ring.as_ref()
    }

    /// The whole polygon as a view (only convex queries are exact on it; the
    /// non-convex SAT of Fayzrakhmanov et al. (2015) reads it as is).
    pub fn view(&self) -> ConvexView<'_> {
        ConvexView {
            vertices: &self.vertices,
            normals: &self.normals,
            radius: 0.0,
            summary: None,
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
