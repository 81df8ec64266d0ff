//! The generator's randomness: ChaCha8 (portable: one seed, one stream, on every machine), with
//! the few draws the generator needs written out here so that they do not depend on how a rand
//! release samples a range.

use rand::rngs::ChaCha8Rng;
use rand::{Rng, SeedableRng};

/// A seeded source of draws.
pub(crate) struct Dice {
    rng: ChaCha8Rng,
}

impl Dice {
    pub(crate) fn new(seed: u64) -> Dice {
        Dice { rng: ChaCha8Rng::seed_from_u64(seed) }
    }

    /// The generator itself, for rand_regex.
    pub(crate) fn rng(&mut self) -> &mut ChaCha8Rng {
        &mut self.rng
    }

    pub(crate) fn u64(&mut self) -> u64 {
        self.rng.next_u64()
    }

    /// A uniform draw from `0..n` (`n > 0`; 0 when `n == 0`), without modulo bias.
    pub(crate) fn below(&mut self, n: u64) -> u64 {
        if n == 0 {
            return 0;
        }
        // Lemire's multiply-and-reject.
        let threshold = n.wrapping_neg() % n;
        loop {
            let wide = u128::from(self.u64()) * u128::from(n);
            if (wide as u64) >= threshold {
                return (wide >> 64) as u64;
            }
        }
    }

    /// A uniform index into a slice of `len` items (`len > 0`).
    pub(crate) fn index(&mut self, len: usize) -> usize {
        self.below(len as u64) as usize
    }

    /// A uniform draw from `lo..=hi` (`lo <= hi`).
    pub(crate) fn range_i128(&mut self, lo: i128, hi: i128) -> i128 {
        if hi <= lo {
            return lo;
        }
        let span = (hi - lo) as u128;
        if span < u128::from(u64::MAX) {
            return lo + i128::from(self.below(span as u64 + 1));
        }
        // Wider than 64 bits: reject draws past the span.
        let bits = 128 - span.leading_zeros();
        loop {
            let draw = ((u128::from(self.u64()) << 64) | u128::from(self.u64())) >> (128 - bits);
            if draw <= span {
                return lo + draw as i128;
            }
        }
    }

    /// A uniform draw from `lo..=hi` (`lo <= hi`).
    pub(crate) fn range(&mut self, lo: u64, hi: u64) -> u64 {
        match hi.checked_sub(lo) {
            None | Some(0) => lo,
            Some(u64::MAX) => self.u64(),
            Some(span) => lo + self.below(span + 1),
        }
    }

    /// True `num` times in `den`.
    pub(crate) fn chance(&mut self, num: u64, den: u64) -> bool {
        self.below(den) < num
    }

    /// A uniform double in `[0, 1)`.
    pub(crate) fn unit(&mut self) -> f64 {
        (self.u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// One of `items`, uniformly.
    pub(crate) fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.index(items.len())]
    }
}

/// The seed of attempt `n` from `seed`: a splitmix64 step, so that nearby seeds and attempts
/// give unrelated streams.
pub(crate) fn derive(seed: u64, n: u64) -> u64 {
    let mut z = seed.wrapping_add(n.wrapping_add(1).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}
