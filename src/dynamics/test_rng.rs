//! A small deterministic generator for the solvers' randomised unit tests (the wide
//! passes against the one-at-a-time ones); the tests need no crate for it.

/// A linear congruential generator (Knuth's MMIX constants).
pub(crate) struct Lcg(pub u64);

impl Lcg {
    /// Uniform in [0, 1), 24 bits.
    pub fn unit(&mut self) -> f32 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 40) as f32 / (1u64 << 24) as f32
    }

    /// Uniform in [lo, hi).
    pub fn range(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * self.unit()
    }

    /// Uniform in 0..n (n > 0).
    pub fn below(&mut self, n: usize) -> usize {
        ((self.unit() * n as f32) as usize).min(n - 1)
    }
}
