//! The coset bitmap: one bit per element of H ([`super::index`] says where), and the prepass
//! that extends a set of elements by every move of H.
//!
//! Pages are allocated on first write, so a run that stops at a small depth touches little
//! memory; a full bitmap is 40320 pages of 80,640 bytes (3.25 GB).
//!
//! The prepass reads one bitmap and writes a new one: `next = cur ∪ cur·m` for the ten moves m
//! of H. Each target page is computed by one thread from its own page in `cur` and its ten
//! neighbour pages (`target · m`), word by word; a word of a U or D turn's neighbour is copied,
//! a half turn's is rearranged ([`Moves::rearrange`]). Reading `cur` while writing `next` keeps
//! the depths apart: an element gets one move per prepass, never two.
//!
//! Invariants: bits 12..16 of every word are 0; `Bitmap::counts` holds each page's number of
//! set bits as of the last [`Bitmap::recount`] or prepass.

use std::sync::OnceLock;
use std::sync::atomic::{AtomicU16, Ordering::Relaxed};

use rayon::prelude::*;

use super::index::{BITS, Moves, PAGES, WORD_MASK, WORDS, e4_at, half};
use crate::coord::{N_MOVES, N_P2_MOVES, P2_MOVES};

type Page = Box<[AtomicU16]>;

/// The page every unallocated page reads as.
static ZERO: [AtomicU16; WORDS] = [const { AtomicU16::new(0) }; WORDS];

/// Bits in a full page.
const FULL: u32 = (WORDS * BITS) as u32;

/// A set of elements of H.
pub struct Bitmap {
    pages: Vec<OnceLock<Page>>,
    /// Set bits per page (see the module's invariants).
    counts: Vec<u32>,
}

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

fn new_page() -> Page {
    (0..WORDS).map(|_| AtomicU16::new(0)).collect()
}

impl Bitmap {
    /// The empty set (no memory beyond the page table).
    pub fn new() -> Bitmap {
        Bitmap {
            pages: (0..PAGES).map(|_| OnceLock::new()).collect(),
            counts: vec![0; PAGES],
        }
    }

    #[inline(always)]
    fn page(&self, c: usize) -> &[AtomicU16] {
        self.pages[c].get().map_or(&ZERO[..], |p| &p[..])
    }

    /// The word of page `c` (allocated if need be) that holds the elements with U/D edges `e8`.
    #[inline(always)]
    pub fn word(&self, c: usize, e8: usize) -> &AtomicU16 {
        &self.pages[c].get_or_init(new_page)[e8]
    }

    /// Is the element in the set?
    pub fn contains(&self, c: usize, e8: usize, e4: usize) -> bool {
        self.page(c)[e8].load(Relaxed) >> half()[e4].1 & 1 == 1
    }

    /// Counts the set bits of every page again (after bits were set); returns the total.
    pub fn recount(&mut self) -> u64 {
        let pages = &self.pages;
        self.counts = (0..PAGES)
            .into_par_iter()
            .map(|c| {
                pages[c]
                    .get()
                    .map_or(0, |p| p.iter().map(|w| w.load(Relaxed).count_ones()).sum())
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
        let pages = self.pages.iter().filter(|p| p.get().is_some()).count();
        (pages * WORDS * 2) as u64
    }

    /// The set extended by every move of H: `self ∪ {g·m}` (see the module docs), written into
    /// the pages of `spare` (whatever they hold; they save allocating and zeroing memory).
    pub fn prepass(&self, t: &Moves, spare: Bitmap) -> Bitmap {
        let spare: Vec<Option<Page>> = spare.pages.into_iter().map(|p| p.into_inner()).collect();
        let pages: Vec<(OnceLock<Page>, u32)> = spare
            .into_par_iter()
            .enumerate()
            .map(|(c, page)| self.prepass_page(t, c, page))
            .collect();
        let (pages, counts) = pages.into_iter().unzip();
        Bitmap { pages, counts }
    }

    /// One target page of the prepass, written into `spare` if there is one, and its count.
    fn prepass_page(&self, t: &Moves, c: usize, spare: Option<Page>) -> (OnceLock<Page>, u32) {
        let out = OnceLock::new();
        if self.counts[c] == FULL {
            let page = spare.unwrap_or_else(new_page);
            for w in page.iter() {
                w.store(WORD_MASK, Relaxed);
            }
            let _ = out.set(page);
            return (out, FULL);
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
            return (out, 0);
        }
        let (copied, mapped) = (&copied[..n_copied], &mapped[..n_mapped]);
        let own = self.page(c);
        let page = spare.unwrap_or_else(new_page);
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
        let _ = out.set(page);
        (out, count)
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
