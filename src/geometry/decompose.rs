//! Convex decomposition of a simple polygon: ear-clipping triangulation, then
//! Hertel–Mehlhorn merging. (Validation lives in `validate.rs`; it is re-exported here
//! because [`super::Polygon::new`] reaches both through this module.)
//!
//! # Pipeline
//!
//! 1. **Ear clipping** (D. Eberly, "Triangulation by Ear Clipping", Geometric Tools,
//!    2002; G. H. Meisters, "Polygons have ears", 1975). A vertex `v` with neighbours
//!    `p`, `q` is an *ear* when it is strictly convex and the closed triangle `p v q`
//!    holds no other vertex; cutting it off leaves a smaller simple polygon. Only
//!    vertices that are not strictly convex (reflex or straight) need testing: if any
//!    vertex lies in the triangle, one of those does (Eberly §2). Interior angles only
//!    shrink as ears are cut, so a vertex never becomes reflex again: the set of
//!    "blockers" only loses members, and we keep it in a uniform grid so an ear test
//!    looks at the few blockers near the triangle instead of all of them.
//! 2. **Hertel–Mehlhorn** (S. Hertel, K. Mehlhorn, "Fast triangulation of simple
//!    polygons", FCT 1983). Walk the diagonals of the triangulation; remove one when the
//!    two pieces it separates stay convex at both of its end points. What remains is a
//!    partition in which every diagonal is essential at a reflex end point; a reflex
//!    vertex has at most two essential diagonals, hence at most `2r + 1` pieces (`r`
//!    reflex vertices) and at most 4 × the optimum.
//!
//! Pieces are stored in a half-edge structure, so removing a diagonal and looking up
//! the neighbours of its end points is O(1).
//!
//! # Degenerate input
//!
//! All orientation tests are exact ([`super::predicates::orient`]), so collinear
//! configurations (grids, combs) are decided consistently. Straight vertices (exactly
//! 180°) are never ears, but they block ears whose triangle touches them, so the
//! triangulation stays conforming (no T-junctions; the HM bound needs that). If the ear
//! queue runs dry the remaining vertices are all re-examined; if none is an ear (only
//! possible on input that is not simple) a strictly convex vertex is cut anyway, so the
//! loop always ends after `n - 3` cuts.

use super::predicates::orient;
use crate::math::Vec2;
use std::collections::{HashMap, VecDeque};

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
    let triangles = triangulate(vertices);
    hertel_mehlhorn(vertices, &triangles)
}

/// Ear-clipping triangulation of a counter-clockwise simple polygon: index triples,
/// each counter-clockwise with positive area.
pub(crate) fn triangulate(vertices: &[Vec2]) -> Vec<[u32; 3]> {
    let n = vertices.len();
    let mut triangles = Vec::with_capacity(n.saturating_sub(2));
    if n < 3 {
        return triangles;
    }
    let mut prev: Vec<u32> = (0..n).map(|i| ((i + n - 1) % n) as u32).collect();
    let mut next: Vec<u32> = (0..n).map(|i| ((i + 1) % n) as u32).collect();
    let mut alive = vec![true; n];
    let turn = |p: u32, v: usize, q: u32| orient(vertices[p as usize], vertices[v], vertices[q as usize]);
    // Blockers: not strictly convex. Never grows (angles only shrink).
    let mut blocker: Vec<bool> = (0..n).map(|i| turn(prev[i], i, next[i]) <= 0).collect();
    let grid = BlockerGrid::new(vertices, &blocker);
    // The blocker that last stopped each vertex from being an ear. A big convex vertex
    // (the base corner of a comb) is re-tested after every cut next to it; its old
    // witness often still blocks, which answers in O(1) instead of a scan of the grid.
    // Known weak spot: an ear triangle with a huge box and many blockers near (but
    // outside) it still scans them all; a 2500-tooth comb takes ~0.3 s (release).
    let mut witness: Vec<u32> = vec![NONE; n];

    let is_ear =
        |v: usize, prev: &[u32], next: &[u32], alive: &[bool], blocker: &[bool], witness: &mut [u32]| -> bool {
            let (p, q) = (prev[v] as usize, next[v] as usize);
            if orient(vertices[p], vertices[v], vertices[q]) <= 0 {
                return false;
            }
            let (a, b, c) = (vertices[p], vertices[v], vertices[q]);
            let blocks = |w: usize| {
                w != p
                    && w != v
                    && w != q
                    && alive[w]
                    && blocker[w]
                    && orient(a, b, vertices[w]) >= 0
                    && orient(b, c, vertices[w]) >= 0
                    && orient(c, a, vertices[w]) >= 0
            };
            let cached = witness[v];
            if cached != NONE && blocks(cached as usize) {
                return false;
            }
            let lo = a.min(b).min(c);
            let hi = a.max(b).max(c);
            let mut found = NONE;
            grid.any_in_box(lo, hi, |w| {
                let hit = blocks(w);
                if hit {
                    found = w as u32;
                }
                hit
            });
            witness[v] = found;
            found == NONE
        };

    let mut remaining = n;
    // Some alive vertex, to walk the ring from.
    let mut start = 0usize;
    // FIFO candidates, each at most once in the queue: every vertex, then the two
    // neighbours of each cut. FIFO rather than LIFO so that a vertex whose ear test is
    // expensive and keeps failing (a comb's base corner, whose triangle spans the whole
    // comb) is re-tested once per sweep round, not after every single cut next to it.
    let mut candidates: VecDeque<u32> = (0..n as u32).collect();
    let mut queued = vec![true; n];
    while remaining > 3 {
        let ear = match candidates.pop_front() {
            Some(v) => {
                let v = v as usize;
                queued[v] = false;
                if !alive[v] || !is_ear(v, &prev, &next, &alive, &blocker, &mut witness) {
                    continue;
                }
                v
            }
            None => {
                // Queue dry: look at every remaining vertex once more.
                let mut found = None;
                let mut first_convex = None;
                let mut v = start;
                for _ in 0..remaining {
                    if is_ear(v, &prev, &next, &alive, &blocker, &mut witness) {
                        found = Some(v);
                        break;
                    }
                    if first_convex.is_none() && turn(prev[v], v, next[v]) > 0 {
                        first_convex = Some(v);
                    }
                    v = next[v] as usize;
                }
                // Fallback for input that is not simple: cut a convex vertex anyway.
                found.or(first_convex).unwrap_or(start)
            }
        };
        let (p, q) = (prev[ear], next[ear]);
        if turn(p, ear, q) > 0 {
            triangles.push([p, ear as u32, q]);
        }
        next[p as usize] = q;
        prev[q as usize] = p;
        alive[ear] = false;
        remaining -= 1;
        start = p as usize;
        for w in [p, q] {
            let w = w as usize;
            if blocker[w] && turn(prev[w], w, next[w]) > 0 {
                blocker[w] = false;
            }
            if !queued[w] {
                queued[w] = true;
                candidates.push_back(w as u32);
            }
        }
    }
    let v = start;
    let (p, q) = (prev[v], next[v]);
    if turn(p, v, q) > 0 {
        triangles.push([p, v as u32, q]);
    }
    triangles
}

/// Uniform grid over the polygon's box holding the initial blockers (reflex and
/// straight vertices), CSR layout. Cell size: about one blocker per cell.
struct BlockerGrid {
    origin: Vec2,
    inv_cell: f32,
    nx: usize,
    ny: usize,
    cell_start: Vec<u32>,
    items: Vec<u32>,
}

impl BlockerGrid {
    fn new(vertices: &[Vec2], blocker: &[bool]) -> Self {
        let mut lo = Vec2::splat(f32::INFINITY);
        let mut hi = Vec2::splat(f32::NEG_INFINITY);
        for &v in vertices {
            lo = lo.min(v);
            hi = hi.max(v);
        }
        let count = blocker.iter().filter(|&&b| b).count().max(1);
        let size = (hi - lo).max(Vec2::splat(f32::MIN_POSITIVE));
        let cell = (size.x * size.y / count as f32).sqrt().max(size.x.max(size.y) / 1024.0);
        let inv_cell = if cell > 0.0 && cell.is_finite() {
            1.0 / cell
        } else {
            0.0
        };
        let nx = ((size.x * inv_cell) as usize + 1).clamp(1, 1024);
        let ny = ((size.y * inv_cell) as usize + 1).clamp(1, 1024);
        let mut grid = BlockerGrid {
            origin: lo,
            inv_cell,
            nx,
            ny,
            cell_start: vec![0; nx * ny + 1],
            items: Vec::new(),
        };
        let cells: Vec<(usize, u32)> = (0..vertices.len())
            .filter(|&i| blocker[i])
            .map(|i| {
                let (cx, cy) = grid.cell_of(vertices[i]);
                (cy * nx + cx, i as u32)
            })
            .collect();
        for &(c, _) in &cells {
            grid.cell_start[c + 1] += 1;
        }
        for c in 0..nx * ny {
            grid.cell_start[c + 1] += grid.cell_start[c];
        }
        let mut fill = grid.cell_start.clone();
        grid.items = vec![0; cells.len()];
        for &(c, i) in &cells {
            grid.items[fill[c] as usize] = i;
            fill[c] += 1;
        }
        grid
    }

    /// Cell of a point; monotone in each coordinate, so a point inside a box falls in
    /// a cell between the cells of the box's corners.
    fn cell_of(&self, p: Vec2) -> (usize, usize) {
        let f = (p - self.origin) * self.inv_cell;
        let cx = (f.x.max(0.0) as usize).min(self.nx - 1);
        let cy = (f.y.max(0.0) as usize).min(self.ny - 1);
        (cx, cy)
    }

    fn any_in_box(&self, lo: Vec2, hi: Vec2, mut test: impl FnMut(usize) -> bool) -> bool {
        let (x0, y0) = self.cell_of(lo);
        let (x1, y1) = self.cell_of(hi);
        for cy in y0..=y1 {
            for cx in x0..=x1 {
                let c = cy * self.nx + cx;
                let (s, e) = (self.cell_start[c] as usize, self.cell_start[c + 1] as usize);
                if self.items[s..e].iter().any(|&w| test(w as usize)) {
                    return true;
                }
            }
        }
        false
    }
}

const NONE: u32 = u32::MAX;

/// Hertel–Mehlhorn: merge triangles across diagonals while both end points stay convex.
pub(crate) fn hertel_mehlhorn(vertices: &[Vec2], triangles: &[[u32; 3]]) -> Vec<Vec<Vec2>> {
    // Half-edge h = 3t + k runs from triangles[t][k] to triangles[t][(k + 1) % 3].
    let m = triangles.len() * 3;
    let origin: Vec<u32> = triangles.iter().flat_map(|t| t.iter().copied()).collect();
    let dest: Vec<u32> = triangles.iter().flat_map(|t| [t[1], t[2], t[0]]).collect();
    let mut next: Vec<u32> = (0..m as u32).map(|h| h - h % 3 + (h + 1) % 3).collect();
    let mut prev: Vec<u32> = (0..m as u32).map(|h| h - h % 3 + (h + 2) % 3).collect();
    let mut alive = vec![true; m];
    let mut by_ends: HashMap<(u32, u32), u32> = HashMap::with_capacity(m);
    for h in 0..m {
        by_ends.insert((origin[h], dest[h]), h as u32);
    }
    let p = |i: u32| vertices[i as usize];
    for h in 0..m {
        let Some(&t) = by_ends.get(&(dest[h], origin[h])) else {
            continue; // a polygon edge
        };
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
        let tris = triangulate(&comb);
        assert_eq!(tris.len(), comb.len() - 2);
    }
}
