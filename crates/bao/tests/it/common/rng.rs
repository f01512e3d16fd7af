//! xorshift64*: a small deterministic generator, so that a failing game can be named by its seed.

/// The generator.
pub struct Rng(pub u64);

impl Rng {
    /// A generator for game number `seed`.
    pub fn for_game(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    /// A number in `0..n`.
    pub fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 33) as usize % n
    }
}
