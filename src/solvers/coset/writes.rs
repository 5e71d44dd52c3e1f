//! The seeds' bit writes, held back and written page by page.
//!
//! A seed sets one bit of a 2.44 GB bitmap at a random place. On a machine whose TLB holds
//! 4 KB entries (a KVM guest backed by 4 KB host pages: `results/coset.md`), each such write
//! costs a page walk as well as a cache miss, and the writes were about a quarter of a deep
//! walk's time (depth 15, with the writes left out: 5.9–6.1 s against 7.3–8.5 s). So a walk puts
//! its seeds in a [`SeedWrites`] buffer instead; a full buffer is sorted by page (corner
//! permutation) and, within a page, by the high byte of the word (an LSD radix sort, three
//! passes of 256 buckets, each a sequential read and 256 write streams), and then written in
//! that order. A flush of `n` seeds touches each 4 KB page of the bitmap about
//! `n / 806,400` times in a row instead of once per seed.
//!
//! The bitmap of a depth does not depend on the order of its writes, and nothing reads it until
//! the depth's walk is over, so a buffer may be written at any time before then: when it is
//! full, and at the end of the depth ([`SeedWrites::flush`]). Invariant: every seed pushed is
//! written by the next flush, exactly once.

use super::bitmap::Bitmap;
use crate::pdb::table::prefetch;

/// Seeds a buffer holds before it is written (8 bytes each, and as much again to sort them):
/// 512 Ki seeds, 8 MB a thread. More seeds a flush means more writes a 4 KB page (0.65 here),
/// which mattered where the bitmap sat in 4 KB pages; in huge pages the smaller buffer costs
/// nothing measurable and keeps a proof's peak below 3.5 GB (`results/coset.md`, 2026-12-06).
pub const SEED_WRITES: usize = 1 << 19;

/// Writes issued ahead of the one being made, so that their cache misses overlap.
const AHEAD: usize = 16;

/// One thread's held-back seeds: `(page << 32) | (word << 16) | bit`.
pub struct SeedWrites {
    keys: Vec<u64>,
    scratch: Vec<u64>,
    /// A flush comes once this many seeds are held.
    cap: usize,
}

impl SeedWrites {
    /// An empty buffer written once it holds `cap` seeds (at least one).
    pub fn new(cap: usize) -> SeedWrites {
        SeedWrites {
            keys: Vec::new(),
            scratch: Vec::new(),
            cap: cap.max(1),
        }
    }

    /// Holds the seed with bit `bit` of word `e8` in page `c`; writes the buffer if it is full.
    #[inline(always)]
    pub fn push(&mut self, map: &Bitmap, c: usize, e8: usize, bit: u16) {
        self.keys
            .push((c as u64) << 32 | (e8 as u64) << 16 | bit as u64);
        if self.keys.len() >= self.cap {
            self.flush(map);
        }
    }

    /// Writes every held seed into `map`, page by page (module docs), and empties the buffer.
    pub fn flush(&mut self, map: &Bitmap) {
        let n = self.keys.len();
        if n == 0 {
            return;
        }
        // High byte of the word, then the page's low and high bytes (pages < 40320 < 2^16):
        // stable passes, so the last one leaves the seeds in page order, words in groups.
        self.scratch.resize(n, 0);
        for shift in [24, 32, 40] {
            radix_pass(&self.keys, &mut self.scratch, shift);
            std::mem::swap(&mut self.keys, &mut self.scratch);
        }
        let at = |k: u64| ((k >> 32) as usize, (k >> 16 & 0xffff) as usize);
        for i in 0..n {
            if let Some(&ahead) = self.keys.get(i + AHEAD) {
                let (c, e8) = at(ahead);
                if let Some(p) = map.word_ptr(c, e8) {
                    prefetch(p);
                }
            }
            let k = self.keys[i];
            let (c, e8) = at(k);
            map.set(c, e8, k as u16);
        }
        self.keys.clear();
    }
}

/// One stable counting pass of an LSD radix sort on the byte of the key at `shift`.
fn radix_pass(from: &[u64], to: &mut [u64], shift: u32) {
    let mut start = [0usize; 256];
    for &k in from {
        start[(k >> shift & 0xff) as usize] += 1;
    }
    let mut sum = 0;
    for s in start.iter_mut() {
        (*s, sum) = (sum, sum + *s);
    }
    for &k in from {
        let b = (k >> shift & 0xff) as usize;
        to[start[b]] = k;
        start[b] += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The passes sort by page, then by the word's high byte, and keep every key.
    #[test]
    fn radix_passes_sort_by_page_then_word_group() {
        let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut keys: Vec<u64> = (0..5000)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                (x % 40320) << 32 | ((x >> 20) % 40320) << 16 | 1 << ((x >> 40) % 12)
            })
            .collect();
        let mut want = keys.clone();
        want.sort_unstable();
        let mut scratch = vec![0; keys.len()];
        for shift in [24, 32, 40] {
            radix_pass(&keys, &mut scratch, shift);
            std::mem::swap(&mut keys, &mut scratch);
        }
        assert!(keys.windows(2).all(|w| w[0] >> 24 <= w[1] >> 24));
        keys.sort_unstable();
        assert_eq!(keys, want);
    }
}
