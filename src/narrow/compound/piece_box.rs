//! A convex piece's box in another frame ([`piece_aabb`]): the piece loop and the
//! combine step box every piece of B in A's frame, and a traced piece loop boxes both
//! shapes' pieces in the world.

use crate::bounds::Aabb;
use crate::geometry::ConvexView;
use crate::math::{Pose, Vec2};

/// World box of a convex piece, radius included: `Aabb::from_points_posed(vertices,
/// pose).inflated(radius)` to the bit, in about half its instructions. Two things differ
/// in how it is computed, neither in what:
/// - the translation is added to the least and greatest turned coordinates once, not to
///   every vertex: rounding to nearest is monotone, so min_i fl(r_i + t) = fl(min_i r_i
///   + t) (and the same for max);
/// - the least and greatest are kept by comparisons (`minps`/`maxps` on two vertices at
///   a time, [`turned_extremes_sse2`]) rather than by `f32::min`/`max`, whose NaN rule
///   costs more instructions. A NaN coordinate fails every comparison and is skipped,
///   as `f32::min` skips it.
///
/// (Only the sign of a zero corner can differ, which no box test sees.) The single-convex
/// path builds two of these for every pair it is asked about, most of which this box
/// test ends: in callgrind on two overlapping octagons (`examples/gjk_workload.rs convex
/// 8`) the two boxes were 430 of a query's 5000 instructions.
#[inline]
pub(super) fn piece_aabb(view: &ConvexView, pose: &Pose) -> Aabb {
    #[cfg(target_arch = "x86_64")]
    let (lo, hi) = turned_extremes_sse2(view.vertices, pose.rotation.cos, pose.rotation.sin);
    #[cfg(not(target_arch = "x86_64"))]
    let (lo, hi) = turned_extremes(view.vertices, pose.rotation.cos, pose.rotation.sin);
    let t = pose.translation;
    Aabb {
        min: lo + t,
        max: hi + t,
    }
    .inflated(view.radius)
}

/// The least and greatest coordinates of `vertices` turned by (cos c, sin s), one vertex
/// at a time (`Rot::apply`, the same products in the same order); ±∞ for no vertex.
#[cfg_attr(target_arch = "x86_64", allow(dead_code))]
#[inline]
fn turned_extremes(vertices: &[Vec2], c: f32, s: f32) -> (Vec2, Vec2) {
    let (mut lo_x, mut lo_y) = (f32::INFINITY, f32::INFINITY);
    let (mut hi_x, mut hi_y) = (f32::NEG_INFINITY, f32::NEG_INFINITY);
    for v in vertices {
        let (x, y) = (c * v.x - s * v.y, s * v.x + c * v.y);
        lo_x = if x < lo_x { x } else { lo_x };
        lo_y = if y < lo_y { y } else { lo_y };
        hi_x = if x > hi_x { x } else { hi_x };
        hi_y = if y > hi_y { y } else { hi_y };
    }
    (Vec2::new(lo_x, lo_y), Vec2::new(hi_x, hi_y))
}

/// [`turned_extremes`] two vertices at a time (SSE2, part of every x86-64): the same
/// numbers, up to the sign of a zero. Each vertex (x, y) sits in two lanes with its
/// swap (y, x) beside it, so one product by (c, c) and one by (−s, s) give
/// (c·x − s·y, c·y + s·x): the same roundings as `Rot::apply` (a − b is a + (−b) in
/// IEEE 754, and a sum does not depend on its order). `minps`/`maxps` keep the old
/// value on NaN, as the comparisons do; the even and odd vertices' lanes are merged at
/// the end, which only the sign of a tied zero can tell. The combine step boxes every
/// piece of B (`collide_pieces`), and the one-at-a-time loop was 7% of GjkEpa's
/// instructions on the overlapping pairs of `examples/gjk_workload.rs`.
#[cfg(target_arch = "x86_64")]
#[inline]
fn turned_extremes_sse2(vertices: &[Vec2], c: f32, s: f32) -> (Vec2, Vec2) {
    use std::arch::x86_64::*;
    let n = vertices.len();
    let (mut lo, mut hi) = ([0.0f32; 4], [0.0f32; 4]);
    // SAFETY: SSE2 is in x86-64's baseline. `Vec2` is `#[repr(C)]` (x, y), so the
    // vertices are 2n contiguous f32: pair k reads floats 4k..4k + 4 (k < n / 2). The
    // stores write four lanes into four-element arrays.
    unsafe {
        let floats = vertices.as_ptr() as *const f32;
        let cc = _mm_set1_ps(c);
        let ss = _mm_setr_ps(-s, s, -s, s);
        let turn = |v: __m128| {
            let swapped = _mm_shuffle_ps::<0b10_11_00_01>(v, v);
            _mm_add_ps(_mm_mul_ps(v, cc), _mm_mul_ps(swapped, ss))
        };
        let mut least = _mm_set1_ps(f32::INFINITY);
        let mut most = _mm_set1_ps(f32::NEG_INFINITY);
        for k in 0..n / 2 {
            let r = turn(_mm_loadu_ps(floats.add(4 * k)));
            least = _mm_min_ps(r, least);
            most = _mm_max_ps(r, most);
        }
        if n % 2 == 1 {
            // An odd count's last vertex, in both halves.
            let last = vertices[n - 1];
            let r = turn(_mm_setr_ps(last.x, last.y, last.x, last.y));
            least = _mm_min_ps(r, least);
            most = _mm_max_ps(r, most);
        }
        // Lanes 2, 3 (odd vertices) onto lanes 0, 1.
        least = _mm_min_ps(_mm_movehl_ps(least, least), least);
        most = _mm_max_ps(_mm_movehl_ps(most, most), most);
        _mm_storeu_ps(lo.as_mut_ptr(), least);
        _mm_storeu_ps(hi.as_mut_ptr(), most);
    }
    (Vec2::new(lo[0], lo[1]), Vec2::new(hi[0], hi[1]))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::families::SplitMix64;

    /// The two-at-a-time turn gives the one-at-a-time loop's numbers for every count of
    /// vertices (an odd one's last vertex goes in alone), skips a NaN coordinate as the
    /// loop does, and gives ±∞ for no vertex; the loop's box holds every turned vertex.
    #[test]
    fn turned_extremes_two_at_a_time_match_the_plain_loop() {
        let mut rng = SplitMix64::new(7);
        for n in 0..12 {
            for _ in 0..200 {
                let angle = rng.range_f32(-4.0, 4.0);
                let (c, s) = (angle.cos(), angle.sin());
                let mut vertices: Vec<Vec2> = (0..n)
                    .map(|_| Vec2::new(rng.range_f32(-50.0, 50.0), rng.range_f32(-50.0, 50.0)))
                    .collect();
                if n > 2 && rng.range_f32(0.0, 1.0) < 0.2 {
                    vertices[n / 2].x = f32::NAN;
                }
                let plain = turned_extremes(&vertices, c, s);
                #[cfg(target_arch = "x86_64")]
                assert_eq!(turned_extremes_sse2(&vertices, c, s), plain, "{n} vertices");
                for v in vertices.iter().filter(|v| !v.is_nan()) {
                    let turned = Vec2::new(c * v.x - s * v.y, s * v.x + c * v.y);
                    assert!(plain.0.cmple(turned).all() && turned.cmple(plain.1).all());
                }
            }
        }
        let none = (Vec2::splat(f32::INFINITY), Vec2::splat(f32::NEG_INFINITY));
        assert_eq!(turned_extremes(&[], 1.0, 0.0), none);
        #[cfg(target_arch = "x86_64")]
        assert_eq!(turned_extremes_sse2(&[], 1.0, 0.0), none);
    }
}
