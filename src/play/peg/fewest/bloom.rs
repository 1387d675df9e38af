//! A Bloom filter of a level's positions, for the meet by children of the search on disk
//! ([`super::outcore`]): the children of the level before the middle are many times the
//! middle level, and few of them are on some play when the problem is hard (none when it has
//! no play), so each is first asked of this filter and only those it may hold are sorted and
//! joined with the level. A filter never drops a position the level holds (no false
//! negative), so the join's answer is exact; it only decides how many candidates reach it.
//!
//! Blocked: a position's bits all lie in one 512-bit block (one cache line), so a look-up
//! costs one memory access.

use super::Stop;
use super::packed::LevelFile;
use std::sync::atomic::{AtomicU64, Ordering};

/// Bits per position: about 1 to 2 % false positives with [`PROBES`] bits set.
const BITS_PER_KEY: u64 = 10;
const PROBES: u32 = 6;
const BLOCK_WORDS: usize = 8;

pub(super) struct Bloom {
    words: Vec<AtomicU64>,
    blocks: u64,
}

fn mix(k: u64) -> u64 {
    // splitmix64's finaliser: every bit of k moves every bit of the hash.
    let mut z = k.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl Bloom {
    /// The bytes a filter of `len` positions takes.
    pub(super) fn bytes_for(len: u64) -> usize {
        Self::blocks_for(len) as usize * BLOCK_WORDS * 8
    }

    fn blocks_for(len: u64) -> u64 {
        (len * BITS_PER_KEY)
            .div_ceil(64 * BLOCK_WORDS as u64)
            .max(1)
    }

    /// Every position of `level`, read once.
    pub(super) fn of(level: &LevelFile, stopped: &dyn Fn() -> bool) -> Result<Bloom, Stop> {
        let blocks = Self::blocks_for(level.len);
        let words = (0..blocks as usize * BLOCK_WORDS)
            .map(|_| AtomicU64::new(0))
            .collect();
        let b = Bloom { words, blocks };
        level.stream(0, level.len)?.each_block(1 << 16, |block| {
            if stopped() {
                return Err(Stop::Interrupted);
            }
            for &k in block {
                b.insert(k);
            }
            Ok(())
        })?;
        Ok(b)
    }

    /// The first word of the block of a key whose hash is h.
    fn block(&self, h: u64) -> usize {
        ((u128::from(h) * u128::from(self.blocks)) >> 64) as usize * BLOCK_WORDS
    }

    /// The block of k, and the hash whose bits pick k's bits in it.
    fn place(&self, k: u64) -> (usize, u64) {
        let h = mix(k);
        (self.block(h), mix(h))
    }

    fn insert(&self, k: u64) {
        let (at, mut g) = self.place(k);
        for _ in 0..PROBES {
            let bit = (g & 511) as usize;
            self.words[at + bit / 64].fetch_or(1 << (bit % 64), Ordering::Relaxed);
            g >>= 9;
        }
    }

    /// False only when k is not among the positions.
    pub(super) fn may_hold(&self, k: u64) -> bool {
        let (at, mut g) = self.place(k);
        (0..PROBES).all(|_| {
            let bit = (g & 511) as usize;
            g >>= 9;
            self.words[at + bit / 64].load(Ordering::Relaxed) & (1 << (bit % 64)) != 0
        })
    }

    /// Asks the memory for k's block ahead of [`Bloom::may_hold`].
    pub(super) fn prefetch(&self, k: u64) {
        // The block alone: the bits' hash is made by the look-up itself.
        super::levels::prefetch(&self.words[self.block(mix(k))]);
    }
}
