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
//! a half turn's is rearranged ([`Moves::rearrange`]). That gather reads every word of a
//! neighbour, set or not, so a *sparse* neighbour (fewer than [`SPARSE`] bits, as are all pages
//! up to about depth 15) is left out of it: once every target page is written, each sparse page
//! is scanned once, four words at a time, and its set words are or-ed into its ten targets
//! (the word moved by the inverse move), and those targets are counted again. Reading `cur`
//! while writing `next` keeps the depths apart: an element gets one move per prepass, never two.
//!
//! Invariants: bits 12..16 of every word of a live page are 0; a page that is not live reads as
//! empty, whatever its memory holds (a prepass writes into the memory of an earlier depth's
//! bitmap), and is zeroed when it becomes live; `Bitmap::counts` holds each page's number of
//! set bits as of the last [`Bitmap::recount`] or prepass.

use std::sync::OnceLock;
use std::sync::atomic::{AtomicU16, AtomicU64, Ordering::Relaxed};

use rayon::prelude::*;

use super::index::{BITS, Moves, PAGES, Relabel, WORD_MASK, WORDS, e4_at, half};
use crate::coord::{N_MOVES, N_P2_MOVES, P2_MOVES};
use crate::pdb::huge::HugeArray;

/// The page every page that is not live reads as (aligned as the pages are, see [`words64`]).
#[repr(C, align(8))]
struct Zero([AtomicU16; WORDS]);
static ZERO: Zero = Zero([const { AtomicU16::new(0) }; WORDS]);

/// Bits in a full page.
const FULL: u32 = (WORDS * BITS) as u32;

/// Pages with fewer set bits than this are spread by the prepass from the page itself to its
/// ten targets; denser pages are gathered by each target. A sparse page's words cost one
/// scan and a write per set word and move, instead of a read per target word and move.
const SPARSE: u32 = (WORDS / 8) as u32;

/// `INVERSE[k]`: the phase-2 move undoing phase-2 move `k` (U and U', D and D', half turns
/// themselves).
const INVERSE: [usize; N_P2_MOVES] = {
    let mut inv = [0; N_P2_MOVES];
    let mut k = 0;
    while k < N_P2_MOVES {
        let m = P2_MOVES[k];
        let undo = m - m % 3 + (2 - m % 3);
        let mut j = 0;
        while P2_MOVES[j] != undo {
            j += 1;
        }
        inv[k] = j;
        k += 1;
    }
    inv
};

const _: () = assert!(WORDS.is_multiple_of(4));

/// A page's words four at a time (a page is 80,640 bytes, so every page starts on 8 bytes).
/// Only for pages no thread writes meanwhile: mixed-size atomic accesses must not race.
#[inline(always)]
fn words64(page: &[AtomicU16]) -> &[AtomicU64] {
    debug_assert_eq!(page.as_ptr() as usize % 8, 0);
    // SAFETY: WORDS is a multiple of 4 and the page is 8-byte aligned (see above); the words
    // are only accessed through atomics.
    unsafe { std::slice::from_raw_parts(page.as_ptr().cast(), page.len() / 4) }
}

/// Set bits in a page (bits 12..16 of each word are 0).
fn popcount(page: &[AtomicU16]) -> u32 {
    words64(page)
        .iter()
        .map(|w| w.load(Relaxed).count_ones())
        .sum()
}

/// A set of elements of H.
pub struct Bitmap {
    /// `PAGES * WORDS` words, page `c` at `c * WORDS`.
    words: HugeArray<AtomicU16>,
    /// The pages that hold elements of this set (see the module's invariants).
    live: Vec<OnceLock<()>>,
    /// The memory is as the kernel gave it (all zero), never written by a prepass.
    fresh: bool,
    /// Set bits per page (see the module's invariants).
    counts: Vec<u32>,
}

impl Default for Bitmap {
    fn default() -> Self {
        Self::new()
    }
}

/// Sets the bits `bit` in `word`, safe from several threads at once. The locked write is
/// skipped when they are already there, which deep seeds mostly find.
#[inline(always)]
pub fn set_bit(word: &AtomicU16, bit: u16) {
    if word.load(Relaxed) & bit != bit {
        word.fetch_or(bit, Relaxed);
    }
}

impl Bitmap {
    /// The empty set (address space only: the kernel gives memory as pages are written).
    pub fn new() -> Bitmap {
        Bitmap {
            words: HugeArray::zeroed(PAGES * WORDS).expect("anonymous memory for a coset bitmap"),
            live: (0..PAGES).map(|_| OnceLock::new()).collect(),
            fresh: true,
            counts: vec![0; PAGES],
        }
    }

    /// Page `c`'s memory, whether live or not.
    #[inline(always)]
    fn memory(&self, c: usize) -> &[AtomicU16] {
        &self.words[c * WORDS..][..WORDS]
    }

    #[inline(always)]
    fn page(&self, c: usize) -> &[AtomicU16] {
        match self.live[c].get() {
            Some(()) => self.memory(c),
            None => &ZERO.0[..],
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
            .map(|c| match pages.live[c].get() {
                Some(()) => popcount(pages.memory(c)),
                None => 0,
            })
            .collect();
        self.total()
    }

    /// Is page `c` non-empty and sparse, so that the prepass scatters it (see the module docs)?
    #[inline(always)]
    fn sparse(&self, c: usize) -> bool {
        (1..SPARSE).contains(&self.counts[c])
    }

    /// Set bits of page `c` as of the last count.
    pub fn counts_of(&self, c: usize) -> u32 {
        self.counts[c]
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
        // Dense sources are gathered by each target page; sparse ones then scattered into
        // their targets; the targets of sparse sources are counted again at the end.
        let pages: Vec<(bool, u32, bool)> = (0..PAGES)
            .into_par_iter()
            .map(|c| self.prepass_page(t, c, spare.memory(c)))
            .collect();
        (0..PAGES)
            .into_par_iter()
            .filter(|&s| self.sparse(s))
            .for_each(|s| self.scatter(t, s, &spare));
        let live = (pages.iter())
            .map(|&(live, _, _)| {
                let page = OnceLock::new();
                if live {
                    let _ = page.set(());
                }
                page
            })
            .collect();
        let counts = (0..PAGES)
            .into_par_iter()
            .map(|c| match pages[c] {
                (true, _, true) => popcount(spare.memory(c)),
                (_, n, _) => n,
            })
            .collect();
        Bitmap {
            live,
            fresh: false,
            counts,
            ..spare
        }
    }

    /// One target page of the prepass, written into `page` from its own page and its dense
    /// neighbours: whether it is live, its count (without the sparse neighbours), and whether
    /// a sparse neighbour will scatter into it.
    fn prepass_page(&self, t: &Moves, c: usize, page: &[AtomicU16]) -> (bool, u32, bool) {
        if self.counts[c] == FULL {
            for w in page.iter() {
                w.store(WORD_MASK, Relaxed);
            }
            return (true, FULL, false);
        }
        // The dense non-empty neighbours, the U/D turns' apart from the half turns'.
        let mut copied: [(&[AtomicU16], usize); N_P2_MOVES] = [(&ZERO.0[..], 0); N_P2_MOVES];
        let mut mapped = copied;
        let (mut n_copied, mut n_mapped, mut sparse) = (0, 0, false);
        for k in 0..N_P2_MOVES {
            let from = t.mv.corners[c * N_MOVES + P2_MOVES[k]] as usize;
            match self.counts[from] {
                0 => continue,
                _ if self.sparse(from) => sparse = true,
                _ if t.keeps_slice(k) => {
                    copied[n_copied] = (self.page(from), k);
                    n_copied += 1;
                }
                _ => {
                    mapped[n_mapped] = (self.page(from), k);
                    n_mapped += 1;
                }
            }
        }
        if n_copied + n_mapped == 0 && !sparse && self.counts[c] == 0 {
            return (false, 0, false);
        }
        let (copied, mapped) = (&copied[..n_copied], &mapped[..n_mapped]);
        let own = self.page(c);
        if copied.is_empty() && mapped.is_empty() {
            for (dst, src) in page.iter().zip(own) {
                dst.store(src.load(Relaxed), Relaxed);
            }
            return (true, self.counts[c], sparse);
        }
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
        (true, count, sparse)
    }

    /// The prepass of a sparse page `s`: each of its words is moved by the inverse of each
    /// move of H to its target, in the pages of `next` (which [`Bitmap::prepass_page`] has
    /// made ready), and or-ed in there.
    fn scatter(&self, t: &Moves, s: usize, next: &Bitmap) {
        let src = self.page(s);
        let mut targets: [(&[AtomicU16], usize, u8); N_P2_MOVES] =
            [(&ZERO.0[..], 0, 0); N_P2_MOVES];
        for (k, target) in targets.iter_mut().enumerate() {
            let c = t.mv.corners[s * N_MOVES + P2_MOVES[INVERSE[k]]] as usize;
            *target = (next.memory(c), k, t.parity8[c]);
        }
        for (e8s, chunk) in words64(src).iter().enumerate() {
            let mut four = chunk.load(Relaxed);
            while four != 0 {
                let lane = four.trailing_zeros() as usize / 16;
                let w = (four >> (16 * lane)) as u16;
                four &= !(0xffff << (16 * lane));
                let row = &t.mv.ud_edges[(4 * e8s + lane) * N_P2_MOVES..][..N_P2_MOVES];
                for &(page, k, parity_c) in &targets {
                    let e8 = row[INVERSE[k]] as usize;
                    let bits = if t.keeps_slice(k) {
                        w
                    } else {
                        t.rearrange(k, parity_c ^ t.parity8[e8], w)
                    };
                    set_bit(&page[e8], bits);
                }
            }
        }
    }

    /// Adds the image under `r` of every element in `self` but not in `before` (both
    /// counted), for each page whose count the two differ in; the caller counts again. Used on
    /// H itself, whose set within `d` moves is closed under each [`Relabel`]. A page's new
    /// elements all go to one page of 80 KB, so the writes stay in the cache.
    ///
    /// A page may be read while another thread adds images to it: those are images of new
    /// elements, so new elements too (of the same distance), and adding their images is sound.
    pub fn add_images(&self, before: &Bitmap, t: &Moves, r: &Relabel) {
        (0..PAGES)
            .into_par_iter()
            .filter(|&c| self.counts[c] != before.counts[c])
            .for_each(|c| {
                let (now, was) = (self.page(c), before.page(c));
                let target = r.page[c] as usize;
                for (e8, (w, b)) in now.iter().zip(was).enumerate() {
                    let new = w.load(Relaxed) & !b.load(Relaxed);
                    if new != 0 {
                        let p = t.parity8[c] ^ t.parity8[e8];
                        set_bit(self.word(target, r.word[e8] as usize), r.bits(p, new));
                    }
                }
            });
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
