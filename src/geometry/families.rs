//! Families of test shapes: stars, combs, gears, L and U shapes, spirals, random simple
//! polygons, coastlines and convex polygons, each at a requested vertex count.
//!
//! Fayzrakhmanov et al. (2015) measure their non-convex SAT "on sets of non-convex objects"; Liu et al. (2018)
//! measure on meshes of growing size. These generators give both: every family takes a
//! target vertex count `n` and a size in metres and returns counter-clockwise vertices
//! that [`crate::geometry::Polygon::new`] accepts, centred on the origin and fitting in a
//! square of side `size`. The count is reached exactly where the family allows it and
//! approximately otherwise (a comb grows four vertices per tooth); [`Family::generate`]
//! documents each one.
//!
//! Deterministic: the random families take a `u64` seed and use [`SplitMix64`] (Steele,
//! Lea and Flood, "Fast splittable pseudorandom number generators", OOPSLA 2014), so the
//! same seed gives the same polygon on every machine and in the sandbox's palette.
//!
//! Straight outlines (L, U) cannot carry many vertices as they are — `Polygon::new`
//! drops collinear vertices — so their edges are sampled with a small alternating
//! offset (0.4% of the size), a saw-tooth you can barely see that keeps every vertex.

use crate::math::Vec2;
use std::f32::consts::{PI, TAU};

/// SplitMix64: a tiny, fast, seedable generator, good enough for shapes and poses (not
/// for cryptography).
#[derive(Clone, Debug)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    /// A generator started from `seed`.
    pub fn new(seed: u64) -> Self {
        SplitMix64 { state: seed }
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in [0, 1) with 24 random bits (every f32 step in the range).
    pub fn next_f32(&mut self) -> f32 {
        (self.next_u64() >> 40) as f32 / (1u64 << 24) as f32
    }

    /// Uniform in [lo, hi).
    pub fn range_f32(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * self.next_f32()
    }
}

/// A family of shapes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Family {
    /// Star with n/2 tips (inner radius half the outer).
    Star,
    /// Comb: a spine with (n − 4)/4 teeth on one side.
    Comb,
    /// Gear with n/4 trapezoidal teeth (500 teeth at 2000 vertices).
    Gear,
    /// L shape (two arms of width 0.3·size), outline sampled with a fine saw-tooth.
    LShape,
    /// U shape (arms and base of width 0.25·size), outline sampled the same way.
    UShape,
    /// A thick spiral strip of up to two turns.
    Spiral,
    /// Random simple polygon: star-shaped, jittered angles, random radii (seeded).
    Random,
    /// Coastline: a star-shaped outline whose radius is fractal noise (seeded).
    Coastline,
    /// Convex control: a regular n-gon.
    Convex,
}

impl Family {
    /// The non-convex families of the paper's comparison, in table order.
    pub const NON_CONVEX: [Family; 7] = [
        Family::Star,
        Family::Comb,
        Family::Gear,
        Family::LShape,
        Family::UShape,
        Family::Spiral,
        Family::Random,
    ];

    /// Every family, in table order.
    pub const ALL: [Family; 9] = [
        Family::Star,
        Family::Comb,
        Family::Gear,
        Family::LShape,
        Family::UShape,
        Family::Spiral,
        Family::Random,
        Family::Coastline,
        Family::Convex,
    ];

    /// The name used on the command line and in tables.
    pub fn name(self) -> &'static str {
        match self {
            Family::Star => "star",
            Family::Comb => "comb",
            Family::Gear => "gear",
            Family::LShape => "l",
            Family::UShape => "u",
            Family::Spiral => "spiral",
            Family::Random => "random",
            Family::Coastline => "coastline",
            Family::Convex => "convex",
        }
    }

    /// True for the convex control family.
    pub fn is_convex(self) -> bool {
        self == Family::Convex
    }

    /// Counter-clockwise vertices of this family with about `n` vertices (at least 8 is
    /// sensible; fewer is clamped to the family's minimum), fitting a square of side
    /// `size` metres centred on the origin. `seed` matters only for the random families
    /// (Random, Coastline).
    pub fn generate(self, n: usize, size: f32, seed: u64) -> Vec<Vec2> {
        let r = 0.5 * size;
        match self {
            Family::Star => star(n.max(6) / 2, r, 0.5 * r),
            Family::Comb => comb(n.saturating_sub(4).max(4) / 4, size),
            Family::Gear => gear((n / 4).max(3), r),
            // Corners at 99% of the size, so the saw-tooth stays inside the square.
            Family::LShape => saw_outline(&l_corners(0.99 * size), n.max(6), 0.004 * size),
            Family::UShape => saw_outline(&u_corners(0.99 * size), n.max(8), 0.004 * size),
            Family::Spiral => spiral(n.max(6) / 2, r),
            Family::Random => random_star_shaped(n.max(3), r, seed),
            Family::Coastline => coastline(n.max(8), r, seed),
            Family::Convex => regular(n.max(3), r),
        }
    }
}

impl std::fmt::Display for Family {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Family {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        Family::ALL
            .into_iter()
            .find(|f| f.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| {
                let names: Vec<&str> = Family::ALL.iter().map(|f| f.name()).collect();
                format!("unknown shape family '{s}' (expected one of {})", names.join(", "))
            })
    }
}

/// Star with `tips` tips, radii `outer` and `inner`.
pub fn star(tips: usize, outer: f32, inner: f32) -> Vec<Vec2> {
    let tips = tips.max(3);
    (0..2 * tips)
        .map(|i| {
            let radius = if i % 2 == 0 { outer } else { inner };
            Vec2::from_angle(i as f32 * PI / tips as f32) * radius
        })
        .collect()
}

/// Regular polygon with `n` vertices on a circle of `radius`.
pub fn regular(n: usize, radius: f32) -> Vec<Vec2> {
    (0..n.max(3))
        .map(|i| Vec2::from_angle(i as f32 * TAU / n.max(3) as f32) * radius)
        .collect()
}

/// Comb in a `size` square: a spine 0.25·size high along the bottom and `teeth` teeth
/// (0.75·size high, half a pitch wide) strictly inside its ends, so no vertex is
/// collinear with its neighbours: 4 + 4·teeth vertices.
///
/// ```text
///  ┌┐ ┌┐ ┌┐
///  ││ ││ ││
/// ┌┘└─┘└─┘└┐
/// └────────┘
/// ```
pub fn comb(teeth: usize, size: f32) -> Vec<Vec2> {
    let teeth = teeth.max(1);
    let h = 0.5 * size;
    let base = -h + 0.25 * size;
    let pitch = size / teeth as f32;
    let mut out = vec![Vec2::new(-h, -h), Vec2::new(h, -h), Vec2::new(h, base)];
    for k in (0..teeth).rev() {
        // Tooth k spans the middle half of its pitch.
        let x0 = -h + (k as f32 + 0.25) * pitch;
        let x1 = -h + (k as f32 + 0.75) * pitch;
        out.extend([
            Vec2::new(x1, base),
            Vec2::new(x1, h),
            Vec2::new(x0, h),
            Vec2::new(x0, base),
        ]);
    }
    out.push(Vec2::new(-h, base));
    out
}

/// Gear with `teeth` trapezoidal teeth between radii 0.8·`radius` and `radius`: 4
/// vertices per tooth.
pub fn gear(teeth: usize, radius: f32) -> Vec<Vec2> {
    let root = 0.8 * radius;
    let pitch = TAU / teeth as f32;
    (0..teeth)
        .flat_map(|k| {
            let a = k as f32 * pitch;
            [
                Vec2::from_angle(a) * root,
                Vec2::from_angle(a + 0.15 * pitch) * radius,
                Vec2::from_angle(a + 0.45 * pitch) * radius,
                Vec2::from_angle(a + 0.6 * pitch) * root,
            ]
        })
        .collect()
}

/// Corners of an L in a `size` square (arms 0.3·size wide), counter-clockwise.
fn l_corners(size: f32) -> Vec<Vec2> {
    let (h, w) = (0.5 * size, 0.3 * size);
    vec![
        Vec2::new(-h, -h),
        Vec2::new(h, -h),
        Vec2::new(h, -h + w),
        Vec2::new(-h + w, -h + w),
        Vec2::new(-h + w, h),
        Vec2::new(-h, h),
    ]
}

/// Corners of a U in a `size` square (arms and base 0.25·size wide), counter-clockwise.
fn u_corners(size: f32) -> Vec<Vec2> {
    let (h, w) = (0.5 * size, 0.25 * size);
    vec![
        Vec2::new(-h, -h),
        Vec2::new(h, -h),
        Vec2::new(h, h),
        Vec2::new(h - w, h),
        Vec2::new(h - w, -h + w),
        Vec2::new(-h + w, -h + w),
        Vec2::new(-h + w, h),
        Vec2::new(-h, h),
    ]
}

/// About `n` vertices along the outline through `corners` (counter-clockwise): the
/// corners themselves, and between them points spread in proportion to edge length,
/// pushed alternately `amplitude` out and in along the edge normal so that none is
/// collinear with its neighbours (see the module docs).
fn saw_outline(corners: &[Vec2], n: usize, amplitude: f32) -> Vec<Vec2> {
    let k = corners.len();
    let lengths: Vec<f32> = (0..k).map(|i| (corners[(i + 1) % k] - corners[i]).length()).collect();
    let perimeter: f32 = lengths.iter().sum();
    let extra = n.saturating_sub(k);
    let mut out = Vec::with_capacity(n);
    let mut given = 0;
    for i in 0..k {
        let (p, q) = (corners[i], corners[(i + 1) % k]);
        out.push(p);
        // Points inside edge i: its share of the extra vertices (the last edge takes the
        // rounding remainder, so the total is exactly n).
        let inner = if i + 1 == k {
            extra - given
        } else {
            ((extra as f32 * lengths[i] / perimeter).round() as usize).min(extra - given)
        };
        given += inner;
        let outward = crate::math::right_perp(q - p).normalize_or_zero();
        for j in 1..=inner {
            let t = j as f32 / (inner + 1) as f32;
            let sign = if j % 2 == 1 { 1.0 } else { -1.0 };
            out.push(p + (q - p) * t + outward * (sign * amplitude));
        }
    }
    out
}

/// A strip of width w along the spiral r(θ) = r0 + b·θ: `k` samples along the outer
/// edge and `k` back along the inner edge (2k vertices). The sample spacing is at most
/// 30° so the chords stay well inside the gap between turns (chord sag ≤ 3.4% of r,
/// gap ≥ 12% of the size); the strip turns up to two full turns.
pub fn spiral(k: usize, radius: f32) -> Vec<Vec2> {
    let k = k.max(3);
    let step_max = TAU / 12.0;
    let sweep = ((k - 1) as f32 * step_max).min(2.0 * TAU);
    // Outer edge at the end: r0 + b·sweep + w/2 = radius, with w = π·b (half the pitch).
    let turns_pitch = |b: f32| TAU * b;
    let b = radius / (sweep + 0.5 * PI + 2.0 * PI);
    let w = 0.5 * turns_pitch(b);
    let r0 = 2.0 * PI * b;
    let at = |theta: f32, offset: f32| Vec2::from_angle(theta) * (r0 + b * theta + offset);
    let thetas: Vec<f32> = (0..k).map(|i| sweep * i as f32 / (k - 1) as f32).collect();
    let mut out: Vec<Vec2> = thetas.iter().map(|&t| at(t, -0.5 * w)).collect();
    out.extend(thetas.iter().rev().map(|&t| at(t, 0.5 * w)));
    // Inner edge forwards, outer edge back: clockwise; reverse to counter-clockwise.
    out.reverse();
    out
}

/// Random simple polygon with `n` vertices: angles evenly spaced with jitter, radii
/// uniform in [0.35, 1]·`radius`. Star-shaped about the origin, hence simple.
pub fn random_star_shaped(n: usize, radius: f32, seed: u64) -> Vec<Vec2> {
    let mut rng = SplitMix64::new(seed ^ 0x5eed_0001);
    (0..n)
        .map(|i| {
            let angle = (i as f32 + 0.8 * rng.next_f32()) * TAU / n as f32;
            Vec2::from_angle(angle) * (radius * rng.range_f32(0.35, 1.0))
        })
        .collect()
}

/// Coastline: star-shaped outline whose radius is a sum of six octaves of random-phase
/// sines (frequencies 3·2^k, amplitudes halving), plus a per-vertex jitter of 1%, so it
/// is rough at every scale like a real coast. Radius stays in [0.4, 1]·`radius`.
pub fn coastline(n: usize, radius: f32, seed: u64) -> Vec<Vec2> {
    let mut rng = SplitMix64::new(seed ^ 0xc0a5_7000);
    let octaves: Vec<(f32, f32, f32)> = (0..6)
        .map(|k| {
            let freq = (3 << k) as f32;
            let amp = 0.14 * 0.6f32.powi(k);
            (freq, amp, rng.range_f32(0.0, TAU))
        })
        .collect();
    (0..n)
        .map(|i| {
            let theta = i as f32 * TAU / n as f32;
            let noise: f32 = octaves.iter().map(|&(f, a, p)| a * (f * theta + p).sin()).sum();
            let r = (0.7 + noise + 0.01 * rng.range_f32(-1.0, 1.0)).clamp(0.4, 1.0);
            Vec2::from_angle(theta) * (radius * r)
        })
        .collect()
}
