//! Convex decomposition of a simple polygon: a triangulation, then Hertel–Mehlhorn
//! merging. (Validation lives in `validate.rs`; it is re-exported here because
//! [`super::Polygon::new`] reaches both through this module.)
//!
//! # Pipeline
//!
//! 1. **Triangulation** in O(n log n) (`monotone.rs`: a plane sweep cuts the polygon
//!    into monotone pieces, each triangulated in linear time; de Berg et al.,
//!    "Computational Geometry", ch. 3), then Lawson's flips towards the constrained
//!    Delaunay triangulation (`flip.rs`, at most 16 per vertex), so the diagonals join
//!    near vertices instead of zig-zagging across the polygon. It replaced ear clipping
//!    (Eberly, "Triangulation by Ear Clipping", 2002), which was quadratic on combs and
//!    stars: 2.5 s for a 30,000-vertex comb, half a minute at 100,000.
//! 2. **Hertel–Mehlhorn** (S. Hertel, K. Mehlhorn, "Fast triangulation of simple
//!    polygons", FCT 1983). Walk the diagonals of the triangulation; remove one when the
//!    two pieces it separates stay convex at both of its end points. What remains is a
//!    partition in which every diagonal is essential at a reflex end point; a reflex
//!    vertex has at most two essential diagonals, hence at most `2r + 1` pieces (`r`
//!    reflex vertices) and at most 4 × the optimum. Linear in the triangles.
//!
//! Pieces are stored in a half-edge structure, so removing a diagonal and looking up
//! the neighbours of its end points is O(1).
//!
//! # Degenerate input
//!
//! All orientation tests are exact (`predicates::orient`), so collinear
//! configurations (grids, combs) are decided consistently. The triangulation is
//! conforming (triangles meet edge to edge, never a vertex inside another's edge; the
//! HM bound needs that) and has no triangle of zero area, even where diagonals run
//! along collinear vertices. A piece may come out of the merging with a straight
//! angle (a diagonal continuing an edge); such vertices are dropped from the piece.

use super::flip::NONE;
use super::predicates::orient;
use crate::math::Vec2;

pub(crate) use super::validate::validate_and_normalise;

/// Convex pieces of a validated, counter-clockwise simple polygon. Each piece is
/// counter-clockwise, has no repeated or collinear neighbouring vertices, and every
/// vertex of a piece is a vertex of the polygon. Piece count ≤ 2r + 1 (r = reflex
/// vertices).
#[cfg(test)]
pub(crate) fn convex_decomposition(vertices: &[Vec2]) -> Vec<Vec<Vec2>> {
    if vertices.len() < 3 {
        return Vec::new();
    }
    hertel_mehlhorn(vertices, &triangulate(vertices))
}

/// Triangulation of a counter-clockwise simple polygon: index triples, each
/// counter-clockwise with positive area. O(n log n) (`monotone.rs`), then made fatter
/// by at most a linear number of Delaunay flips (`flip.rs`), which Hertel–Mehlhorn
/// turns into pieces with smaller boxes.
pub(crate) fn triangulate(vertices: &[Vec2]) -> Triangulation {
    let mut triangles = super::monotone::triangulate(vertices);
    let mut twin = super::flip::twins(&triangles);
    super::flip::flip_towards_delaunay(vertices, &mut triangles, &mut twin);
    Triangulation { triangles, twin }
}

/// Triangles (index triples, counter-clockwise) and, per half-edge h = 3t + k (corner k
/// to corner k + 1 of triangle t), the half-edge running the other way (`NONE` on the
/// outline).
pub(crate) struct Triangulation {
    pub triangles: Vec<[u32; 3]>,
    pub twin: Vec<u32>,
}

/// Hertel–Mehlhorn: merge triangles across diagonals while both end points stay convex.
pub(crate) fn hertel_mehlhorn(vertices: &[Vec2], triangulation: &Triangulation) -> Vec<Vec<Vec2>> {
    let Triangulation { triangles, twin } = triangulation;
    // Half-edge h = 3t + k runs from triangles[t][k] to triangles[t][(k + 1) % 3].
    let m = triangles.len() * 3;
    let origin: Vec<u32> = triangles.iter().flat_map(|t| t.iter().copied()).collect();
    let dest: Vec<u32> = triangles.iter().flat_map(|t| [t[1], t[2], t[0]]).collect();
    let mut next: Vec<u32> = (0..m as u32).map(|h| h - h % 3 + (h + 1) % 3).collect();
    let mut prev: Vec<u32> = (0..m as u32).map(|h| h - h % 3 + (h + 2) % 3).collect();
    let mut alive = vec![true; m];
    let p = |i: u32| vertices[i as usize];
    for h in 0..m {
        let t = twin[h];
        if t == NONE {
            continue; // a polygon edge
        }
        let t = t as usize;
        if t < h {
            continue; // each diagonal once
        }
        // h: u→v in face F, t: v→u in face G. After removal, u sits between
        // origin(prev h) and dest(next t); v between origin(prev t) and dest(next h).
        let (u, v) = (origin[h], dest[h]);
        let convex_u = orient(p(origin[prev[h] as usize]), p(u), p(dest[next[t] as usize])) >= 0;
        let convex_v = orient(p(origin[prev[t] as usize]), p(v), p(dest[next[h] as usize])) >= 0;
        if convex_u && convex_v {
            let (ph, nh, pt, nt) = (prev[h], next[h], prev[t], next[t]);
            next[ph as usize] = nt;
            prev[nt as usize] = ph;
            next[pt as usize] = nh;
            prev[nh as usize] = pt;
            alive[h] = false;
            alive[t] = false;
            next[h] = NONE;
            next[t] = NONE;
        }
    }
    let mut visited = vec![false; m];
    let mut pieces = Vec::new();
    for h in 0..m {
        if !alive[h] || visited[h] {
            continue;
        }
        let mut ring: Vec<Vec2> = Vec::new();
        let mut e = h;
        while !visited[e] {
            visited[e] = true;
            ring.push(p(origin[e]));
            e = next[e] as usize;
        }
        let piece = drop_straight_vertices(ring);
        if piece.len() >= 3 {
            pieces.push(piece);
        }
    }
    pieces
}

/// Removes vertices where a merged piece runs exactly straight (HM allows 180° at a
/// merged end point), so neighbouring piece edges are never collinear.
fn drop_straight_vertices(ring: Vec<Vec2>) -> Vec<Vec2> {
    let mut out: Vec<Vec2> = Vec::with_capacity(ring.len());
    for v in ring {
        while out.len() >= 2 && orient(out[out.len() - 2], out[out.len() - 1], v) == 0 {
            out.pop();
        }
        out.push(v);
    }
    loop {
        let k = out.len();
        if k < 3 {
            break;
        }
        if orient(out[k - 2], out[k - 1], out[0]) == 0 {
            out.pop();
        } else if orient(out[k - 1], out[0], out[1]) == 0 {
            out.remove(0);
        } else {
            break;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pts(v: &[(f32, f32)]) -> Vec<Vec2> {
        v.iter().map(|&(x, y)| Vec2::new(x, y)).collect()
    }

    //  3 ┌──┐2  ┌──┐      a U: two reflex vertices (5, 6 sit at the notch floor)
    //    │  └──┘  │
    //  0 └────────┘ 1
    #[test]
    fn u_shape_gives_at_most_three_convex_pieces() {
        let u = pts(&[
            (0., 0.),
            (3., 0.),
            (3., 3.),
            (2., 3.),
            (2., 1.),
            (1., 1.),
            (1., 3.),
            (0., 3.),
        ]);
        let pieces = convex_decomposition(&u);
        assert!(pieces.len() <= 3 && pieces.len() >= 2, "{pieces:?}");
        let area: f32 = pieces.iter().map(|pc| super::super::mass::polygon_area(pc)).sum();
        assert!((area - 7.0).abs() < 1e-5);
    }

    #[test]
    fn comb_with_straight_vertices_triangulates_fully() {
        // Teeth tops and the notch floors are exactly collinear with each other.
        let comb = pts(&[
            (0., 0.),
            (5., 0.),
            (5., 2.),
            (4., 2.),
            (4., 1.),
            (3., 1.),
            (3., 2.),
            (2., 2.),
            (2., 1.),
            (1., 1.),
            (1., 2.),
            (0., 2.),
        ]);
        let tris = triangulate(&comb).triangles;
        assert_eq!(tris.len(), comb.len() - 2);
    }
}
