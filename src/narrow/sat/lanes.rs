//! Per-lane minima and maxima that keep the scalar comparison's rule, ties and signed
//! zeros included, so the SAT's vector scans give the scalar scans' answers to the bit.

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
pub(super) fn lane_lower_eight(d: f32x8, lowest: f32x8) -> f32x8 {
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
