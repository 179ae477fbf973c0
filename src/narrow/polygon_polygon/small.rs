//! The one-sided SAT (`sat_one_sided_in_a`) for two polygons of at most eight vertices
//! each, with every separation computed at once and no branch that depends on the data
//! until the answer is read.
//!
//! Why: such pairs are most of a pile of small polygons (the rain of 1000 polygons, three
//! to eight sides each). The general one-sided SAT picks, per side, a scan of four or
//! eight edges at a time or a hill climb over the other's vertices, loops as many times
//! as each polygon has vertices, and checks for a stop after every edge: on the rain its
//! branches, taken one way or the other from pair to pair, cost more than its dots, and
//! the SAT was an eighth of a step under projection.
//!
//! Here both polygons are padded to eight: A's normals and edge starts, and the vertices
//! each side's edges are scanned against, repeat their last entry. A repeated vertex
//! changes no minimum (the scans keep the first of equal dots, as the scalar scan does),
//! and a repeated edge repeats its separation right after the original, where the test
//! keeps the first of equal gaps; the padding lanes are masked out of the answer anyway.
//! Each side is then eight scans of eight lanes, always, and the answer is read from the
//! sixteen gaps with the scalar test's rules:
//!
//! ```text
//! gaps:   A's edges in order, then B's (one-sided: min over the other's vertices of
//!         n·v, less n·(edge start))
//! stop:   the first gap above `stop_at`, if any: the scalar test stops there, and that
//!         gap is the largest it has seen (every earlier one is at most `stop_at`)
//! else:   the first largest gap (NaN gaps are never larger); none: (+x, −∞) as before
//! normal: A's edge normal, or the opposite of B's (from A towards B)
//! ```
//!
//! The dots are the scalar scan's to the bit (`lowest_of_eight`'s products and sum, the
//! same minimum rule), so the gaps are the scan's; where the general path climbed instead
//! (four edges or fewer against six vertices or more), the climb could stop on a vertex
//! whose dot ties the least one up to rounding, so a gap may differ from the climb's in
//! its last bits. The work counters count what the scalar test would: the axes up to the
//! stop, each with the other polygon's real vertex count.

use super::PairInA;
use crate::math::Vec2;
use crate::narrow::contact::Work;
use crate::narrow::sat::lane_lower_eight;
use wide::f32x8;

/// Polygons up to this many vertices take this path.
const MAX: usize = 8;

/// Whether the pair takes this path: both polygons of at most [`MAX`] vertices, one
/// normal per vertex.
#[inline]
pub(super) fn fits(pair: &PairInA) -> bool {
    let (a, b) = (&pair.a, &pair.b);
    (1..=MAX).contains(&a.vertices.len())
        && (1..=MAX).contains(&b.vertices.len())
        && a.normals.len() == a.vertices.len()
        && b.normals.len() == b.vertices.len()
}

/// Lanes of `f(items[k])`, the last item repeated past the end.
#[inline]
fn padded(items: &[Vec2], f: impl Fn(Vec2) -> f32) -> f32x8 {
    let last = items.len() - 1;
    f32x8::from(std::array::from_fn::<f32, MAX, _>(|k| f(items[k.min(last)])))
}

/// The one-sided gaps of `others` from each edge (normal `(nx, ny)`, start
/// `(sx, sy)`, one per lane): min over the others of n·v, less n·start.
#[inline]
fn edge_gaps(nx: f32x8, ny: f32x8, sx: f32x8, sy: f32x8, others: &[Vec2]) -> f32x8 {
    let last = others.len() - 1;
    let mut lowest = f32x8::splat(f32::INFINITY);
    for k in 0..MAX {
        let v = others[k.min(last)];
        let d = nx * f32x8::splat(v.x) + ny * f32x8::splat(v.y);
        lowest = lane_lower_eight(d, lowest);
    }
    lowest - (nx * sx + ny * sy)
}

/// The one-sided SAT's answer (`sat_one_sided_in_a`): the normal from A towards B (A's
/// frame) and the depth. `fits(pair)` must hold.
pub(super) fn sat_one_sided_small(pair: &PairInA, stop_at: f32, work: &mut Work) -> (Vec2, f32) {
    let (va, vb) = (pair.a.vertices, pair.vertices_b());
    let (n, m) = (va.len(), vb.len());
    let (na, nb) = (pair.a.normals, pair.b.normals);
    let gaps_a = edge_gaps(
        padded(na, |v| v.x),
        padded(na, |v| v.y),
        padded(va, |v| v.x),
        padded(va, |v| v.y),
        vb,
    );
    // B's normals turned into A's frame lane by lane as `Rot::apply` turns one.
    let (c, s) = (f32x8::splat(pair.rot_ab.cos), f32x8::splat(pair.rot_ab.sin));
    let (bx, by) = (padded(nb, |v| v.x), padded(nb, |v| v.y));
    let (nbx, nby) = (c * bx - s * by, s * bx + c * by);
    let gaps_b = edge_gaps(nbx, nby, padded(vb, |v| v.x), padded(vb, |v| v.y), va);
    let valid = |count: usize| (1u32 << count) - 1;
    let (stop_a, stop_b) = (
        gaps_a.simd_gt(f32x8::splat(stop_at)).to_bitmask() & valid(n),
        gaps_b.simd_gt(f32x8::splat(stop_at)).to_bitmask() & valid(m),
    );
    let (ga, gb) = (gaps_a.to_array(), gaps_b.to_array());
    let (nbx, nby) = (nbx.to_array(), nby.to_array());
    let normal_b = |j: usize| -Vec2::new(nbx[j], nby[j]);
    let (axes, answer) = if stop_a != 0 {
        let i = stop_a.trailing_zeros() as usize;
        (i + 1, (na[i], ga[i]))
    } else if stop_b != 0 {
        let j = stop_b.trailing_zeros() as usize;
        (n + j + 1, (normal_b(j), gb[j]))
    } else {
        // The first largest gap, NaN never larger (`gap > best` from −∞).
        let largest = |gaps: &[f32; MAX], count: usize| {
            gaps[..count]
                .iter()
                .fold(f32::NEG_INFINITY, |best, &g| if g > best { g } else { best })
        };
        let best = largest(&ga, n).max(largest(&gb, m));
        let answer = if best == f32::NEG_INFINITY {
            (Vec2::X, best)
        } else {
            let first = |gaps: f32x8, count: usize| gaps.simd_eq(f32x8::splat(best)).to_bitmask() & valid(count);
            match (first(gaps_a, n), first(gaps_b, m)) {
                (0, in_b) => {
                    let j = in_b.trailing_zeros() as usize;
                    (normal_b(j), gb[j])
                }
                (in_a, _) => {
                    let i = in_a.trailing_zeros() as usize;
                    (na[i], ga[i])
                }
            }
        };
        (n + m, answer)
    };
    work.axes_tested += axes as u32;
    work.vertices_scanned += (axes.min(n) * m + axes.saturating_sub(n) * n) as u32;
    (answer.0, -answer.1)
}
