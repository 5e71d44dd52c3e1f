//! The coset bitmap: one bit per element of H ([`super::index`] says where), and the prepass
//! that extends a set of elements by every move of H.
//!
//! The pages lie in one anonymous mapping advised to use huge pages: a seed's bit lands on a
//! random word of 3.25 GB, and in 4 KB pages nearly every write would also miss the TLB. The
//! kernel gives memory on first touch, so a run that stops at a small depth touches little; a
//! full bitmap is 40320 pages of 80,640 bytes (3.25 GB).
//!
//! The prepass reads one bitmap and writes a new one: `next = cur ∪ cur·m` for the ten moves m
//! of H. Each target page is computed by one thread from its own page in `cur` and its ten
//! neighbour pages (`target · m`), word by word; a word of a U or D turn's neighbour is copied,
//! a half turn's is rearranged ([`Moves::rearrange`]). Reading `cur` while writing `next` keeps
//! the depths apart: an element gets one move per prepass, never two.
//!
//! Invariants: bits 12..16 of every word of a live page are 0; a page that is not live reads as
//! empty, whatever its memory holds (a prepass writes into the memory of an earlier depth's
//! bitmap), and is zeroed when it becomes live; `Bitmap::counts` holds each page's number of
//! set bits as of the last [`Bitmap::recount`] or prepass.

use std::sync::OnceLock;
use std::sync::atomic::{AtomicU16, Ordering::Relaxed};

use rayon::prelude::*;

use super::index::{BITS, Moves, PAGES, WORD_MASK, WORDS, e4_at, half};
use crate::coord::{N_MOVES, N_P2_MOVES, P2_MOVES};
use crate::pdb::table::huge_page_memory;

/// The page every page that is not live reads as.
static ZERO: [AtomicU16; WORDS] = [const { AtomicU16::new(0) }; WORDS];

/// Bits in a full page.
const FULL: u32 = (WORDS * BITS) as u32;

/// A set of elements of H.
pub struct Bitmap {
    /// Kept only to keep the memory alive; reads and writes go through `ptr`.
    _map: memmap2::MmapMut,
    /// `PAGES * WORDS` words, page `c` at `c * WORDS`.
    ptr: *const AtomicU16,
    /// The pages that hold elements of this set (see the module's invariants).
    live: Vec<OnceLock<()>>,
    /// The memory is as the kernel gave it (all zero), never written by a prepass.
    fresh: bool,
    /// Set bits per page (see the module's invariants).
    counts: Vec<u32>,
}

// SAFETY: `ptr` points into the mapping owned by `_map`, which is only ever accessed through
// atomics.
unsafe impl Send for Bitmap {}
unsafe impl Sync for Bitmap {}

impl Default for Bitmap {
    fn default() -> Self {
        Self::new()
    }
}

/// Sets `bit` in `word`, safe from several threads at once. The locked write is skipped when
/// the bit is already there, which deep seeds mostly find.
#[inline(always)]
pub fn set_bit(word: &AtomicU16, bit: u16) {
    if word.load(Relaxed) & bit == 0 {
        word.fetch_or(bit, Relaxed);
    }
}

impl Bitmap {
    /// The empty set (address space only: the kernel gives memory as pages are written).
    pub fn new() -> Bitmap {
        let mut map =
            huge_page_memory(PAGES * WORDS * 2).expect("anonymous memory for a coset bitmap");
        let ptr = map.as_mut_ptr().cast();
        Bitmap {
            _map: map,
            ptr,
            live: (0..PAGES).map(|_| OnceLock::new()).collect(),
            fresh: true,
            counts: vec![0; PAGES],
        }
    }

    /// Page `c`'s memory, whether live or not.
    #[inline(always)]
    fn memory(&self, c: usize) -> &[AtomicU16] {
        debug_assert!(c < PAGES);
        // SAFETY: the mapping holds PAGES * WORDS words (u16 and AtomicU16 share their layout)
        // for as long as self lives, and is only accessed through atomics.
        unsafe { std::slice::from_raw_parts(self.ptr.add(c * WORDS), WORDS) }
    }

    #[inline(always)]
    fn page(&self, c: usize) -> &[AtomicU16] {
        match self.live[c].get() {
            Some(()) => self.memory(c),
            None => &ZERO[..],
        }
    }

    /// The word of page `c` (made live if need be) that holds the elements with U/D edges `e8`.
    #[inline(always)]
    pub fn word(&self, c: usize, e8: usize) -> &AtomicU16 {
        let page = self.memory(c);
        self.live[c].get_or_init(|| {
            if !self.fresh {
                for w in page {
                    w.store(0, Relaxed);
                }
            }
        });
        &page[e8]
    }

    /// Is the element in the set?
    pub fn contains(&self, c: usize, e8: usize, e4: usize) -> bool {
        self.page(c)[e8].load(Relaxed) >> half()[e4].1 & 1 == 1
    }

    /// Counts the set bits of every page again (after bits were set); returns the total.
    pub fn recount(&mut self) -> u64 {
        let pages = &*self;
        self.counts = (0..PAGES)
            .into_par_iter()
            .map(|c| {
                pages
                    .page(c)
                    .iter()
                    .map(|w| w.load(Relaxed).count_ones())
                    .sum()
            })
            .collect();
        self.total()
    }

    /// Elements in the set (as of the last count).
    pub fn total(&self) -> u64 {
        self.counts.iter().map(|&n| n as u64).sum()
    }

    /// Memory held by allocated pages, in bytes.
    pub fn bytes(&self) -> u64 {
        let pages = self.live.iter().filter(|p| p.get().is_some()).count();
        (pages * WORDS * 2) as u64
    }

    /// The set extended by every move of H: `self ∪ {g·m}` (see the module docs), written into
    /// the memory of `spare` (whatever it holds; reusing it saves the kernel's zeroing).
    pub fn prepass(&self, t: &Moves, spare: Bitmap) -> Bitmap {
        let pages: Vec<(bool, u32)> = (0..PAGES)
            .into_par_iter()
            .map(|c| self.prepass_page(t, c, spare.memory(c)))
            .collect();
        let live = (pages.iter())
            .map(|&(live, _)| {
                let page = OnceLock::new();
                if live {
                    let _ = page.set(());
                }
                page
            })
            .collect();
        Bitmap {
            live,
            fresh: false,
            counts: pages.iter().map(|&(_, n)| n).collect(),
            ..spare
        }
    }

    /// One target page of the prepass, written into `page`: whether it is live, and its count.
    fn prepass_page(&self, t: &Moves, c: usize, page: &[AtomicU16]) -> (bool, u32) {
        if self.counts[c] == FULL {
            for w in page.iter() {
                w.store(WORD_MASK, Relaxed);
            }
            return (true, FULL);
        }
        // The non-empty neighbours, the U/D turns' apart from the half turns'.
        let mut copied: [(&[AtomicU16], usize); N_P2_MOVES] = [(&ZERO[..], 0); N_P2_MOVES];
        let mut mapped = copied;
        let (mut n_copied, mut n_mapped) = (0, 0);
        for k in 0..N_P2_MOVES {
            let from = t.mv.corners[c * N_MOVES + P2_MOVES[k]] as usize;
            if self.counts[from] == 0 {
                continue;
            }
            if t.keeps_slice(k) {
                copied[n_copied] = (self.page(from), k);
                n_copied += 1;
            } else {
                mapped[n_mapped] = (self.page(from), k);
                n_mapped += 1;
            }
        }
        if n_copied + n_mapped == 0 && self.counts[c] == 0 {
            return (false, 0);
        }
        let (copied, mapped) = (&copied[..n_copied], &mapped[..n_mapped]);
        let own = self.page(c);
        let parity_c = t.parity8[c];
        let mut count = 0;
        for (e8, row) in t.mv.ud_edges.chunks_exact(N_P2_MOVES).enumerate() {
            let mut w = own[e8].load(Relaxed);
            if w == WORD_MASK {
                // Deep in a run most words are full already.
                page[e8].store(w, Relaxed);
                count += BITS as u32;
                continue;
            }
            for &(src, k) in copied {
                w |= src[row[k] as usize].load(Relaxed);
            }
            let p = parity_c ^ t.parity8[e8];
            for &(src, k) in mapped {
                let s = src[row[k] as usize].load(Relaxed);
                if s != 0 {
                    w |= t.rearrange(k, p, s);
                }
            }
            page[e8].store(w, Relaxed);
            count += w.count_ones();
        }
        (true, count)
    }

    /// Calls `f(c, e8, e4)` for every element in the set (`present`), or for every element not
    /// in it, page by page.
    pub fn for_each(&self, t: &Moves, present: bool, mut f: impl FnMut(usize, usize, usize)) {
        let e4s: [[usize; BITS]; 2] =
            std::array::from_fn(|p| std::array::from_fn(|bit| e4_at(p as u8, bit)));
        let (flip, skip) = if present { (0, 0) } else { (WORD_MASK, FULL) };
        for c in (0..PAGES).filter(|&c| self.counts[c] != skip) {
            for (e8, w) in self.page(c).iter().enumerate() {
                let mut bits = (w.load(Relaxed) ^ flip) & WORD_MASK;
                let p = (t.parity8[c] ^ t.parity8[e8]) as usize;
                while bits != 0 {
                    let bit = bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    f(c, e8, e4s[p][bit]);
                }
            }
        }
    }
}
