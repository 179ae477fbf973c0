//! Triangulation of a simple polygon in O(n log n): a plane sweep cuts it into monotone
//! pieces, then each piece is triangulated in linear time (M. de Berg, O. Cheong,
//! M. van Kreveld, M. Overmars, "Computational Geometry: Algorithms and Applications",
//! 3rd ed., §3.2 "Partitioning a Polygon into Monotone Pieces" and §3.3 "Triangulating
//! a Monotone Polygon"; the method of Garey, Johnson, Preparata and Tarjan, 1978).
//!
//! # 1. Monotone partition
//!
//! Sweep the vertices top to bottom (`sweep.rs`: ties west to east, an infinitesimally
//! turned line, so horizontal edges need no special case). Each vertex is one of
//!
//! ```text
//!   start   split      end    merge     regular
//!     v      \  /v     \ /    v\  /
//!    / \      \/        v      \/ ...     |v
//!                                          |
//! ```
//!
//! (start/end: both neighbours below/above, interior angle < π; split/merge: the same
//! with a reflex angle; regular: one neighbour above, one below). Split and merge
//! vertices are the only obstacles to monotonicity; each gets a diagonal to the
//! *helper* of the edge directly west of it — the lowest vertex seen so far between
//! that edge and the next one east (split: upwards; merge: the diagonal is added when
//! the next vertex below that sees it is met). The status holds the edges with the
//! polygon's interior to their east, and is searched with exact orientation tests.
//!
//! # 2. Faces
//!
//! The diagonals cut the polygon into faces, traced as in a planar subdivision: around
//! each vertex its edges in counter-clockwise order, and a face leaves a vertex by the
//! edge just clockwise of the one it came in by.
//!
//! # 3. Triangulating a monotone face
//!
//! Merge the face's two chains into sweep order, then one pass with a stack that holds
//! the vertices still waiting for triangles (a reflex chain):
//!
//! ```text
//! push u1, u2
//! for j = 3 .. m-1:
//!     if uj is on the other chain than the stack's top:
//!         fan uj to every stack vertex; stack = [u(j-1), uj]
//!     else:
//!         last = pop
//!         while the triangle (top, last, uj) lies inside (strictly convex at last):
//!             emit it; last = pop
//!         push last, uj
//! fan um to every stack vertex
//! ```
//!
//! "Inside" is strict, so three collinear vertices (a comb's teeth bases, joined by
//! diagonals along the base line) wait on the stack instead of giving a triangle of no
//! area; every triangle emitted has positive area: a fan triangle of no area would need
//! the other chain's edge to run along the stack's reflex chain, which a simple
//! polygon forbids.

use super::predicates::orient;
use super::sweep::{sweep_order, SweepSegment, SweepStatus};
use crate::math::Vec2;

const NONE: u32 = u32::MAX;

/// The kinds of vertex of §3.2.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Start,
    Split,
    End,
    Merge,
    /// On a chain; `west_chain`: the interior lies east (the outline runs down here).
    Regular {
        west_chain: bool,
    },
}

/// Triangulation of a counter-clockwise simple polygon: index triples, each
/// counter-clockwise with positive area, `n - 2` of them. Every vertex is a polygon
/// vertex; triangles meet edge to edge (no vertex inside another triangle's edge).
pub(crate) fn triangulate(vertices: &[Vec2]) -> Vec<[u32; 3]> {
    let n = vertices.len();
    let mut triangles = Vec::with_capacity(n.saturating_sub(2));
    if n < 3 {
        return triangles;
    }
    let order = sweep_order(vertices);
    let mut rank = vec![0u32; n];
    for (k, &i) in order.iter().enumerate() {
        rank[i as usize] = k as u32;
    }
    let diagonals = monotone_diagonals(vertices, &order, &rank);
    let faces = Faces::new(vertices, &diagonals);
    let mut scratch = MonotoneScratch::default();
    faces.for_each(|face| triangulate_monotone(vertices, &rank, face, &mut scratch, &mut triangles));
    triangles
}

/// §3.2: the diagonals that cut the polygon into monotone pieces.
fn monotone_diagonals(vertices: &[Vec2], order: &[u32], rank: &[u32]) -> Vec<[u32; 2]> {
    let n = vertices.len();
    let prev = |i: usize| (i + n - 1) % n;
    let next = |i: usize| (i + 1) % n;
    let kind = |i: usize| {
        let (p, q) = (prev(i), next(i));
        let (p_below, q_below) = (rank[p] > rank[i], rank[q] > rank[i]);
        let convex = orient(vertices[p], vertices[i], vertices[q]) > 0;
        match (p_below, q_below) {
            (true, true) if convex => Kind::Start,
            (true, true) => Kind::Split,
            (false, false) if convex => Kind::End,
            (false, false) => Kind::Merge,
            (p_below, _) => Kind::Regular { west_chain: !p_below },
        }
    };
    // Edge e runs from vertex e to vertex e + 1.
    let edge = |e: u32| SweepSegment::new(vertices[e as usize], vertices[next(e as usize)]);
    let west_of = |p: Vec2| move |s: u32| edge(s).side_of(p) > 0;
    let mut status = SweepStatus::new(n);
    let mut helper = vec![NONE; n];
    let mut is_merge = vec![false; n];
    let mut diagonals: Vec<[u32; 2]> = Vec::new();
    // The diagonal to a merge vertex that helped an edge, when the edge's helper changes
    // or the edge ends (§3.2's "if helper(e) is a merge vertex").
    let connect_if_merge = |diagonals: &mut Vec<[u32; 2]>, is_merge: &[bool], v: u32, h: u32| {
        if h != NONE && is_merge[h as usize] {
            diagonals.push([v, h]);
        }
    };
    for &v in order {
        let i = v as usize;
        let p = vertices[i];
        let into = prev(i) as u32; // the edge that ends at v (from the previous vertex)
        let out = v; // the edge that leaves v
        let kind = kind(i);
        if matches!(kind, Kind::End | Kind::Merge | Kind::Regular { west_chain: true }) {
            connect_if_merge(&mut diagonals, &is_merge, v, helper[into as usize]);
            let removed = status.remove(into, west_of(p));
            debug_assert!(removed.is_some(), "sweep status lost its order at vertex {i}");
        }
        match kind {
            Kind::Start | Kind::Regular { west_chain: true } => {}
            Kind::End => continue,
            Kind::Split => {
                if let Some(j) = status.last_west(west_of(p)) {
                    diagonals.push([v, helper[j as usize]]);
                    helper[j as usize] = v;
                }
            }
            Kind::Merge | Kind::Regular { west_chain: false } => {
                is_merge[i] = kind == Kind::Merge;
                if let Some(j) = status.last_west(west_of(p)) {
                    connect_if_merge(&mut diagonals, &is_merge, v, helper[j as usize]);
                    helper[j as usize] = v;
                }
                continue;
            }
        }
        // Start, split, and a vertex on the west chain: the edge leaving it enters.
        status.insert(out, west_of(p));
        helper[out as usize] = v;
    }
    diagonals
}

/// The polygon cut by diagonals, as a planar subdivision: per vertex its neighbours in
/// counter-clockwise order, starting with the next vertex of the outline and ending
/// with the previous one (the diagonals lie in the interior angle between them).
struct Faces {
    /// CSR: the neighbours of vertex v are `around[start[v]..start[v + 1]]`.
    start: Vec<u32>,
    around: Vec<u32>,
}

impl Faces {
    fn new(vertices: &[Vec2], diagonals: &[[u32; 2]]) -> Faces {
        let n = vertices.len();
        let mut start = vec![0u32; n + 1];
        for v in 0..n {
            start[v + 1] = 2;
        }
        for &[a, b] in diagonals {
            start[a as usize + 1] += 1;
            start[b as usize + 1] += 1;
        }
        for v in 0..n {
            start[v + 1] += start[v];
        }
        let mut around = vec![0u32; start[n] as usize];
        let mut fill: Vec<u32> = start[..n].iter().map(|&s| s + 1).collect();
        for v in 0..n {
            around[start[v] as usize] = ((v + 1) % n) as u32;
            around[start[v + 1] as usize - 1] = ((v + n - 1) % n) as u32;
        }
        for &[a, b] in diagonals {
            around[fill[a as usize] as usize] = b;
            fill[a as usize] += 1;
            around[fill[b as usize] as usize] = a;
            fill[b as usize] += 1;
        }
        // Diagonals counter-clockwise from the outgoing outline edge: angles measured
        // from it, exactly (half plane first, then orientation within it).
        for v in 0..n {
            let (s, e) = (start[v] as usize + 1, start[v + 1] as usize - 1);
            if e - s < 2 {
                continue;
            }
            let o = vertices[v];
            let r = vertices[(v + 1) % n];
            let half = |w: u32| u8::from(orient(o, r, vertices[w as usize]) <= 0);
            around[s..e].sort_unstable_by(|&a, &b| {
                half(a).cmp(&half(b)).then_with(|| {
                    // Same half plane: a comes first when b is counter-clockwise of it.
                    0.cmp(&orient(o, vertices[a as usize], vertices[b as usize]))
                })
            });
        }
        Faces { start, around }
    }

    /// Calls `f` with each face's vertices, counter-clockwise.
    fn for_each(&self, mut f: impl FnMut(&[u32])) {
        let n = self.start.len() - 1;
        let mut used = vec![false; self.around.len()];
        let mut face: Vec<u32> = Vec::new();
        for v in 0..n {
            // Every slot but the last (the edge back along the outline, outside).
            for slot in self.start[v] as usize..self.start[v + 1] as usize - 1 {
                if used[slot] {
                    continue;
                }
                face.clear();
                let (mut from, mut h) = (v as u32, slot);
                while !used[h] {
                    used[h] = true;
                    face.push(from);
                    let to = self.around[h];
                    // Leave `to` by the edge just clockwise of the one back to `from`.
                    let (s, e) = (self.start[to as usize] as usize, self.start[to as usize + 1] as usize);
                    let back = (s..e).find(|&k| self.around[k] == from).unwrap_or(s + 1);
                    h = back.max(s + 1) - 1;
                    from = to;
                }
                f(&face);
            }
        }
    }
}

/// Buffers of [`triangulate_monotone`], reused across faces.
#[derive(Default)]
struct MonotoneScratch {
    /// The face's vertices in sweep order, each with "on the west chain".
    sorted: Vec<(u32, bool)>,
    stack: Vec<(u32, bool)>,
}

/// §3.3: triangulates one monotone face (counter-clockwise vertex indices).
fn triangulate_monotone(
    vertices: &[Vec2],
    rank: &[u32],
    face: &[u32],
    scratch: &mut MonotoneScratch,
    triangles: &mut Vec<[u32; 3]>,
) {
    let m = face.len();
    let emit = |triangles: &mut Vec<[u32; 3]>, a: u32, b: u32, c: u32| match orient(
        vertices[a as usize],
        vertices[b as usize],
        vertices[c as usize],
    ) {
        1 => triangles.push([a, b, c]),
        -1 => triangles.push([a, c, b]),
        _ => debug_assert!(false, "a monotone face gave a triangle of no area"),
    };
    if m < 3 {
        return;
    }
    if m == 3 {
        emit(triangles, face[0], face[1], face[2]);
        return;
    }
    let top = (0..m).min_by_key(|&k| rank[face[k] as usize]).unwrap_or(0);
    let bottom = (0..m).max_by_key(|&k| rank[face[k] as usize]).unwrap_or(0);
    // Counter-clockwise from the top runs down the west chain; on from the bottom, up
    // the east chain. Merge the two (each already in sweep order) into one list.
    let west_len = (bottom + m - top) % m - 1;
    let east_len = m - 2 - west_len;
    let west = |k: usize| face[(top + 1 + k) % m];
    let east = |k: usize| face[(top + m - 1 - k) % m]; // downwards from the top
    let sorted = &mut scratch.sorted;
    sorted.clear();
    sorted.push((face[top], true));
    let (mut i, mut j) = (0, 0);
    while i < west_len || j < east_len {
        let take_west = j >= east_len || (i < west_len && rank[west(i) as usize] < rank[east(j) as usize]);
        if take_west {
            sorted.push((west(i), true));
            i += 1;
        } else {
            sorted.push((east(j), false));
            j += 1;
        }
    }
    sorted.push((face[bottom], false));
    debug_assert!(
        sorted.windows(2).all(|w| rank[w[0].0 as usize] < rank[w[1].0 as usize]),
        "face is not monotone"
    );

    let stack = &mut scratch.stack;
    stack.clear();
    stack.push(sorted[0]);
    stack.push(sorted[1]);
    for &(u, on_west) in &sorted[2..m - 1] {
        let &(top_vertex, top_west) = stack.last().expect("two on the stack");
        if on_west != top_west {
            for w in stack.windows(2) {
                emit(triangles, u, w[0].0, w[1].0);
            }
            stack.clear();
            stack.push((top_vertex, top_west));
            stack.push((u, on_west));
        } else {
            let mut last = stack.pop().expect("two on the stack");
            while let Some(&(s, s_west)) = stack.last() {
                let turn = orient(vertices[s as usize], vertices[last.0 as usize], vertices[u as usize]);
                let inside = if on_west { turn > 0 } else { turn < 0 };
                if !inside {
                    break;
                }
                emit(triangles, s, last.0, u);
                last = (s, s_west);
                stack.pop();
            }
            stack.push(last);
            stack.push((u, on_west));
        }
    }
    let u = sorted[m - 1].0;
    for w in stack.windows(2) {
        emit(triangles, u, w[0].0, w[1].0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::families::Family;
    use proptest::prelude::*;
    use std::collections::HashMap;

    /// Exact check that `triangles` triangulate the counter-clockwise outline: n − 2
    /// triangles, each counter-clockwise with positive area (exact orientation); every
    /// directed triangle edge at most once; every outline edge once; every other
    /// triangle edge matched by its reverse. Then the triangles' boundaries add up to the
    /// outline, so (all being positive) they cover it once: no gap, no overlap, no
    /// vertex inside another triangle's edge.
    fn check_triangulation(vertices: &[Vec2], triangles: &[[u32; 3]]) -> Result<(), String> {
        let n = vertices.len();
        if triangles.len() != n - 2 {
            return Err(format!("{} triangles for {n} vertices", triangles.len()));
        }
        let mut edges: HashMap<(u32, u32), usize> = HashMap::new();
        for (t, tri) in triangles.iter().enumerate() {
            let [a, b, c] = tri.map(|i| vertices[i as usize]);
            if orient(a, b, c) <= 0 {
                return Err(format!("triangle {t} {tri:?} is not counter-clockwise"));
            }
            for k in 0..3 {
                if edges.insert((tri[k], tri[(k + 1) % 3]), t).is_some() {
                    return Err(format!("edge {:?} twice", (tri[k], tri[(k + 1) % 3])));
                }
            }
        }
        for &(a, b) in edges.keys() {
            let outline = (a as usize + 1) % n == b as usize;
            if !outline && !edges.contains_key(&(b, a)) {
                return Err(format!("edge {a}-{b} is neither outline nor shared"));
            }
        }
        if let Some(i) = (0..n).find(|&i| !edges.contains_key(&(i as u32, ((i + 1) % n) as u32))) {
            return Err(format!("outline edge {i} is in no triangle"));
        }
        Ok(())
    }

    fn check(points: &[Vec2]) -> Result<(), TestCaseError> {
        let Ok(vertices) = super::super::validate::validate_and_normalise(points) else {
            return Ok(()); // not a simple polygon: nothing to triangulate
        };
        check_triangulation(&vertices, &triangulate(&vertices)).map_err(TestCaseError::fail)?;
        // The Delaunay flips (`flip.rs`) keep it a triangulation.
        check_triangulation(&vertices, &super::super::decompose::triangulate(&vertices).triangles)
            .map_err(TestCaseError::fail)
    }

    /// A bar chart with bars up and down from y = 0 on integer coordinates: many
    /// vertices on one horizontal line (ties in the sweep order), exactly collinear runs.
    //   ┌┐ ┌─┐
    //  ┌┘└─┘ │
    //  └┐  ┌─┘
    //   └──┘
    fn bars(heights: &[(u8, u8)], transpose: bool) -> Vec<Vec2> {
        let k = heights.len();
        let mut v: Vec<Vec2> = Vec::new();
        for (i, &(_, down)) in heights.iter().enumerate() {
            v.push(Vec2::new(i as f32, -(down as f32) - 1.0));
            v.push(Vec2::new(i as f32 + 1.0, -(down as f32) - 1.0));
        }
        for i in (0..k).rev() {
            let up = heights[i].0 as f32 + 1.0;
            v.push(Vec2::new(i as f32 + 1.0, up));
            v.push(Vec2::new(i as f32, up));
        }
        if transpose {
            v = v.iter().map(|p| Vec2::new(p.y, p.x)).collect();
        }
        v
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(1000))]

        #[test]
        fn bar_charts_triangulate_exactly(
            heights in prop::collection::vec((0u8..4, 0u8..4), 1..24),
            transpose in any::<bool>(),
        ) {
            check(&bars(&heights, transpose))?;
        }

        // Star-shaped around the origin, snapped to a small integer grid: collinear
        // triples and equal coordinates everywhere.
        #[test]
        fn snapped_star_shapes_triangulate_exactly(
            samples in (3usize..40).prop_flat_map(|n| prop::collection::vec((0.0f32..0.9, 0.2f32..1.0), n)),
            grid in 3.0f32..20.0,
        ) {
            let n = samples.len();
            let points: Vec<Vec2> = samples
                .iter()
                .enumerate()
                .map(|(i, &(u, r))| (Vec2::from_angle((i as f32 + u) * std::f32::consts::TAU / n as f32) * r * grid).round())
                .collect();
            check(&points)?;
        }

        #[test]
        fn families_triangulate_exactly(family in 0usize..Family::ALL.len(), n in 8usize..400, seed in 0u64..1000) {
            check(&Family::ALL[family].generate(n, 1.0, seed))?;
        }
    }

    #[test]
    fn families_at_20000_vertices_triangulate_exactly() {
        // Not L and U: at this count their saw-tooth (0.4% of the size) is coarser than
        // the vertex spacing and crosses itself at the corners (`Polygon::new` rejects
        // them, rightly).
        for family in Family::ALL
            .into_iter()
            .filter(|f| !matches!(f, Family::LShape | Family::UShape))
        {
            let vertices = super::super::validate::validate_and_normalise(&family.generate(20_000, 1.0, 3)).unwrap();
            check_triangulation(&vertices, &triangulate(&vertices)).unwrap_or_else(|e| panic!("{family}: {e}"));
            let flipped = super::super::decompose::triangulate(&vertices).triangles;
            check_triangulation(&vertices, &flipped).unwrap_or_else(|e| panic!("{family} flipped: {e}"));
        }
    }
}
