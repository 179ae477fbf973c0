//! Per-lane minima and maxima that keep the scalar comparison's rule, ties and signed
//! zeros included, so the SAT's vector scans give the scalar scans' answers to the bit.

use crate::math::Vec2;
use wide::{f32x4, f32x8};

/// Per lane `if d < lowest { d } else { lowest }`, ties and all: SSE's MINPS is exactly
/// that (its first operand when less, else its second); other targets' minimum
/// instructions break ties between zeros their own way, so they compare lane by lane.
#[inline]
pub(crate) fn lane_lower(d: f32x4, lowest: f32x4) -> f32x4 {
    #[cfg(target_feature = "sse")]
    {
        d.fast_min(lowest)
    }
    #[cfg(not(target_feature = "sse"))]
    {
        let (d, l) = (d.to_array(), lowest.to_array());
        f32x4::from(std::array::from_fn::<f32, 4, _>(
            |i| if d[i] < l[i] { d[i] } else { l[i] },
        ))
    }
}

/// [`lane_lower`] on eight lanes (AVX's VMINPS has MINPS's rule).
#[inline]
pub(crate) fn lane_lower_eight(d: f32x8, lowest: f32x8) -> f32x8 {
    #[cfg(target_feature = "sse")]
    {
        d.fast_min(lowest)
    }
    #[cfg(not(target_feature = "sse"))]
    {
        let (d, l) = (d.to_array(), lowest.to_array());
        f32x8::from(std::array::from_fn::<f32, 8, _>(
            |i| if d[i] < l[i] { d[i] } else { l[i] },
        ))
    }
}

/// Per lane `if d > highest { d } else { highest }` (SSE's MAXPS; see [`lane_lower`]).
#[inline]
pub(crate) fn lane_higher(d: f32x4, highest: f32x4) -> f32x4 {
    #[cfg(target_feature = "sse")]
    {
        d.fast_max(highest)
    }
    #[cfg(not(target_feature = "sse"))]
    {
        let (d, h) = (d.to_array(), highest.to_array());
        f32x4::from(std::array::from_fn::<f32, 4, _>(
            |i| if d[i] > h[i] { d[i] } else { h[i] },
        ))
    }
}

/// The four lanes of `sat::project_interval` over the first `4·⌊n/4⌋` vertices: lane k's
/// least and greatest of `x·ax + y·ay` (rounded as `Vec2::dot` rounds it) over
/// vertices k, k + 4, k + 8, …, kept by the comparisons' rule (`if d < lo { d }`).
#[cfg(not(target_arch = "x86_64"))]
#[inline]
pub(super) fn project_lanes(vertices: &[Vec2], axis: Vec2) -> ([f32; 4], [f32; 4]) {
    let mut lo4 = [f32::INFINITY; 4];
    let mut hi4 = [f32::NEG_INFINITY; 4];
    for c in vertices.chunks_exact(4) {
        for k in 0..4 {
            let d = c[k].x * axis.x + c[k].y * axis.y;
            lo4[k] = if d < lo4[k] { d } else { lo4[k] };
            hi4[k] = if d > hi4[k] { d } else { hi4[k] };
        }
    }
    (lo4, hi4)
}

/// [`project_lanes`] in SSE2 (part of every x86-64), for the same numbers to the bit:
/// two loads and two shuffles make four vertices' x and y lanes, and `minps`/`maxps` are
/// the comparisons' rule (the first operand when less, else the second). Written as the
/// plain four-array loop, the native AVX-512 build packed both arrays into one register
/// with masked inserts and extracts on the loop's critical path, and NonConvexSat
/// without its tree (the paper's method as written, nearly all its time in this loop)
/// took 3.2x the plain x86-64 build's time on 256-vertex stars (`collision-lab bench`:
/// 354 µs against 110 µs a query).
#[cfg(target_arch = "x86_64")]
#[inline]
pub(super) fn project_lanes(vertices: &[Vec2], axis: Vec2) -> ([f32; 4], [f32; 4]) {
    use std::arch::x86_64::*;
    let (mut lo4, mut hi4) = ([0.0f32; 4], [0.0f32; 4]);
    // SAFETY: SSE2 is in x86-64's baseline. `Vec2` is `#[repr(C)]` (x, y), so the
    // vertices are 2n contiguous f32; chunk k reads floats 8k..8k + 8, within the slice
    // for k < n / 4. The stores write four lanes into four-element arrays.
    unsafe {
        let floats = vertices.as_ptr() as *const f32;
        let (ax, ay) = (_mm_set1_ps(axis.x), _mm_set1_ps(axis.y));
        let mut lo = _mm_set1_ps(f32::INFINITY);
        let mut hi = _mm_set1_ps(f32::NEG_INFINITY);
        for k in 0..vertices.len() / 4 {
            let v01 = _mm_loadu_ps(floats.add(8 * k));
            let v23 = _mm_loadu_ps(floats.add(8 * k + 4));
            // x0 x1 x2 x3 and y0 y1 y2 y3.
            let xs = _mm_shuffle_ps::<0b10_00_10_00>(v01, v23);
            let ys = _mm_shuffle_ps::<0b11_01_11_01>(v01, v23);
            let d = _mm_add_ps(_mm_mul_ps(xs, ax), _mm_mul_ps(ys, ay));
            lo = _mm_min_ps(d, lo);
            hi = _mm_max_ps(d, hi);
        }
        _mm_storeu_ps(lo4.as_mut_ptr(), lo);
        _mm_storeu_ps(hi4.as_mut_ptr(), hi);
    }
    (lo4, hi4)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::families::SplitMix64;

    /// The lanes are the one-at-a-time loop's, to the bit (signed zeros included, as
    /// bits compare), for every count of vertices.
    #[test]
    fn project_lanes_match_the_four_array_loop() {
        let mut rng = SplitMix64::new(11);
        for n in 0..40 {
            for _ in 0..50 {
                let vertices: Vec<Vec2> = (0..n)
                    .map(|_| Vec2::new(rng.range_f32(-3.0, 3.0), rng.range_f32(-3.0, 3.0)))
                    .collect();
                let angle = rng.range_f32(-4.0, 4.0);
                let axis = Vec2::new(angle.cos(), angle.sin());
                let mut want = ([f32::INFINITY; 4], [f32::NEG_INFINITY; 4]);
                for c in vertices.chunks_exact(4) {
                    for (k, v) in c.iter().enumerate() {
                        let d = v.x * axis.x + v.y * axis.y;
                        want.0[k] = if d < want.0[k] { d } else { want.0[k] };
                        want.1[k] = if d > want.1[k] { d } else { want.1[k] };
                    }
                }
                let got = project_lanes(&vertices, axis);
                let bits = |l: [f32; 4]| l.map(f32::to_bits);
                assert_eq!((bits(got.0), bits(got.1)), (bits(want.0), bits(want.1)), "{n} vertices");
            }
        }
    }
}
