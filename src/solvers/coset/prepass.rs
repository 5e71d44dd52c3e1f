//! The prepass: a set of elements of H extended by every move of H, `next = cur ∪ cur·m` for
//! the ten moves m, in place, in about one bitmap's memory.
//!
//! Each target page `c` is computed by one thread from the *old* contents of its own page and
//! its ten neighbour pages `c · m`, word by word ([`gather`]): a U or D turn's word is or-ed in
//! as it is, a half turn's is rearranged ([`Moves::rearrange`]). The new page goes to a slot of
//! its own, and a page's old slot is given back once the eleven targets that read it (itself
//! and its ten neighbours: the moves of H are closed under inversion) are done, counted down in
//! `uses`. Reading old pages only keeps the depths apart: an element gets one move per
//! prepass, never two.
//!
//! So the memory is one bitmap and the old pages still to be read. Targets are taken in an
//! [`order`] that finishes a page's neighbours soon after the page: at most 4849 old pages are
//! held at once (of 40320) in that order on one thread, 293 MB, against every page in the
//! order of their ranks. Threads take the order's pages in chunks from one cursor, so the
//! window grows only by the chunks under way.
//!
//! A gather reads every word of a neighbour, set or not, so a *sparse* neighbour (fewer than
//! [`SPARSE`] bits, as are all pages up to about depth 15) is left out of it: when its old page
//! is given back, its set words are or-ed into its ten targets' new pages first (the word
//! moved by the inverse move), which are then counted again.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU32, AtomicUsize, Ordering::*};

use super::bitmap::{Bitmap, FULL, NONE, PAGE_BYTES, Page};
use super::index::{COPIED, MAPPED, Moves, PAGES, WORD_MASK, WORDS};
use crate::coord::{N_MOVES, N_P2_MOVES, P2_MOVES};

/// Pages with fewer set bits than this are spread by the prepass from the page itself to its
/// ten targets; denser pages are gathered by each target. A sparse page's words cost one
/// scan and a write per set word and move, instead of a read per target word and move.
const SPARSE: u32 = (WORDS / 8) as u32;

/// Target pages a thread takes from the order at once.
const CHUNK: usize = 8;

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

/// Page `c`'s neighbour under phase-2 move `k`.
#[inline(always)]
fn neighbour(t: &Moves, c: usize, k: usize) -> usize {
    t.mv.corners[c * N_MOVES + P2_MOVES[k]] as usize
}

/// The order in which the prepass takes its target pages: each next page is one with the most
/// neighbours already taken (the earliest such, from page 0), so that the pages taken finish
/// their neighbourhoods soon (see the module docs). Built once, in milliseconds.
pub fn order(t: &Moves) -> &'static [u16] {
    static ORDER: OnceLock<Vec<u16>> = OnceLock::new();
    ORDER.get_or_init(|| {
        let mut taken = vec![false; PAGES];
        let mut near = vec![0u8; PAGES];
        let mut order = Vec::with_capacity(PAGES);
        // (neighbours taken, first reached, page); stale entries are skipped.
        let mut heap = BinaryHeap::from([(0u8, Reverse(0usize), 0usize)]);
        let mut reached = 0;
        while let Some((n, _, c)) = heap.pop() {
            if taken[c] || n != near[c] {
                continue;
            }
            taken[c] = true;
            order.push(c as u16);
            for k in 0..N_P2_MOVES {
                let d = neighbour(t, c, k);
                if !taken[d] {
                    near[d] += 1;
                    reached += 1;
                    heap.push((near[d], Reverse(reached), d));
                }
            }
        }
        assert_eq!(
            order.len(),
            PAGES,
            "the moves of H reach every corner permutation"
        );
        order
    })
}

/// Is a page with `count` set bits sparse (see the module docs)?
#[inline(always)]
fn sparse(count: u32) -> bool {
    (1..SPARSE).contains(&count)
}

/// The set extended by every move of H (module docs).
pub fn prepass(mut map: Bitmap, t: &Moves) -> Bitmap {
    let counts = map.counts().to_vec();
    let new: Vec<AtomicU32> = (0..PAGES).map(|_| AtomicU32::new(NONE)).collect();
    let new_counts: Vec<AtomicU32> = (0..PAGES).map(|_| AtomicU32::new(0)).collect();
    let again: Vec<AtomicBool> = (0..PAGES).map(|_| AtomicBool::new(false)).collect();
    let uses: Vec<AtomicU8> = (0..PAGES)
        .map(|c| {
            AtomicU8::new(if map.slot_of(c) == NONE {
                0
            } else {
                1 + N_P2_MOVES as u8
            })
        })
        .collect();
    let (order, cursor) = (order(t), AtomicUsize::new(0));
    {
        let map = &map;
        rayon::broadcast(|_| {
            loop {
                let at = cursor.fetch_add(CHUNK, Relaxed);
                if at >= PAGES {
                    break;
                }
                for &c in &order[at..(at + CHUNK).min(PAGES)] {
                    let c = c as usize;
                    let (slot, count, sparse_source) = target(map, t, &counts, c);
                    new_counts[c].store(count, Relaxed);
                    again[c].store(sparse_source, Relaxed);
                    new[c].store(slot, Release);
                    for d in std::iter::once(c).chain((0..N_P2_MOVES).map(|k| neighbour(t, c, k))) {
                        if uses[d].load(Relaxed) != 0 && uses[d].fetch_sub(1, AcqRel) == 1 {
                            if sparse(counts[d]) {
                                scatter(map, t, d, &new);
                            }
                            map.give_back(map.slot_of(d));
                        }
                    }
                }
            }
        });
    }
    let new: Vec<u32> = new.into_iter().map(AtomicU32::into_inner).collect();
    let counts = new
        .iter()
        .zip(new_counts.into_iter().zip(again))
        .map(|(&s, (n, again))| match again.into_inner() {
            true => map.slot_page(s).popcount(),
            false => n.into_inner(),
        })
        .collect();
    map.set_pages(new.into_iter(), counts);
    map
}

/// Target page `c` of the prepass, written into a new slot from its own old page and its
/// dense old neighbours: its slot ([`NONE`] if empty), its count (without the sparse
/// neighbours), and whether a sparse neighbour will scatter into it.
fn target(map: &Bitmap, t: &Moves, counts: &[u32], c: usize) -> (u32, u32, bool) {
    if counts[c] == FULL {
        let s = map.take_slot(false);
        // SAFETY: the slot is this thread's until published.
        unsafe { std::ptr::write_bytes(map.slot_ptr(s), 0xff, PAGE_BYTES - 8) };
        unsafe { std::ptr::write_bytes(map.slot_ptr(s).add(PAGE_BYTES - 8), 0, 8) };
        return (s, FULL, false);
    }
    // The dense non-empty neighbours, each with the mask of its word index: an empty or
    // sparse neighbour reads word 0 of the zero page, so the loop below has no branch.
    let mut sources = [(Page::zero(), 0u16); N_P2_MOVES];
    let (mut dense, mut sparse_source) = (false, false);
    for (k, source) in sources.iter_mut().enumerate() {
        let from = neighbour(t, c, k);
        match counts[from] {
            0 => {}
            n if sparse(n) => sparse_source = true,
            _ => {
                *source = (map.page(from), u16::MAX);
                dense = true;
            }
        }
    }
    if !dense && !sparse_source && counts[c] == 0 {
        return (NONE, 0, false);
    }
    let s = map.take_slot(false);
    let (own, dst) = (map.page(c), map.slot_ptr(s));
    if !dense {
        // SAFETY: a new slot (this thread's) and an old page no one writes.
        unsafe { std::ptr::copy_nonoverlapping(own.ptr(), dst, PAGE_BYTES) };
        return (s, counts[c], sparse_source);
    }
    (s, gather(t, c, &sources, own, dst), sparse_source)
}

/// Writes target page `c` of a prepass into `dst`: each word is its own word in `own` or-ed
/// with its ten neighbours' words, `sources[k]` being page `c · m_k` with the mask of its word
/// index (0 for a neighbour left out). Returns the set bits written.
///
/// This loop is the prepass's time: it has no branch that depends on the data, since a
/// mispredicted branch per neighbour cost more than the loads it saved. Two words (three
/// bytes) are stored at once, as four bytes whose last the next store overwrites.
#[inline(never)]
fn gather(
    t: &Moves,
    c: usize,
    sources: &[(Page, u16); N_P2_MOVES],
    own: Page,
    dst: *mut u8,
) -> u32 {
    let parity_c = t.parity8[c];
    let mut count = 0;
    let rows = t.mv.ud_edges.chunks_exact(2 * N_P2_MOVES);
    for (pair, (rows, parities)) in rows.zip(t.parity8.chunks_exact(2)).enumerate() {
        let (even, odd) = rows.split_at(N_P2_MOVES);
        let (even, odd) = (even.try_into().expect("ten"), odd.try_into().expect("ten"));
        let e8 = 2 * pair;
        let two = gather_word(t, sources, own.word(e8), even, parity_c ^ parities[0]) as u32
            | (gather_word(t, sources, own.word(e8 + 1), odd, parity_c ^ parities[1]) as u32) << 12;
        // SAFETY: bytes 3·pair .. 3·pair + 4 lie within the slot (PAGE_BYTES has 8 spare).
        unsafe { dst.add(3 * pair).cast::<u32>().write_unaligned(two) };
        count += two.count_ones();
    }
    count
}

/// One word of [`gather`]: `own` or-ed with the ten neighbours' words at `row` (the word's
/// row of the U/D edge move table), for a target word of slice parity `p`.
#[inline(always)]
fn gather_word(
    t: &Moves,
    sources: &[(Page, u16); N_P2_MOVES],
    own: u16,
    row: &[u16; N_P2_MOVES],
    p: u8,
) -> u16 {
    let read = |k: usize| {
        let (src, mask) = sources[k];
        src.word((row[k] & mask) as usize)
    };
    let mut w = own;
    for k in COPIED {
        w |= read(k);
    }
    let by_move = &t.by_parity[p as usize];
    for (j, k) in MAPPED.into_iter().enumerate() {
        let s = read(k) as usize;
        w |= by_move[j][0][s & 63] | by_move[j][1][s >> 6 & 63];
    }
    w
}

/// The prepass of a sparse page `s`, when its old page is about to be given back: each of its
/// words is moved by the inverse of each move of H to its target, in the new pages (all
/// written: every target of `s` is done), and or-ed in there.
fn scatter(map: &Bitmap, t: &Moves, s: usize, new: &[AtomicU32]) {
    let src = map.page(s);
    let targets: [(u32, u8); N_P2_MOVES] = std::array::from_fn(|k| {
        let c = neighbour(t, s, INVERSE[k]);
        (new[c].load(Acquire), t.parity8[c])
    });
    // Eight words (12 bytes) at a time, skipping those that are all zero.
    for block in 0..WORDS / 8 {
        // SAFETY: the 16 bytes from 12·block lie within the page's PAGE_BYTES.
        let bytes = unsafe { src.ptr().add(12 * block).cast::<u128>().read_unaligned() };
        if bytes & ((1 << 96) - 1) == 0 {
            continue;
        }
        for e8s in 8 * block..8 * block + 8 {
            let w = src.word(e8s);
            if w == 0 {
                continue;
            }
            let row = &t.mv.ud_edges[e8s * N_P2_MOVES..][..N_P2_MOVES];
            for (k, &(slot, parity_c)) in targets.iter().enumerate() {
                let e8 = row[INVERSE[k]] as usize;
                let bits = if t.keeps_slice(k) {
                    w
                } else {
                    t.rearrange(k, parity_c ^ t.parity8[e8], w)
                };
                debug_assert!(slot != NONE && bits & !WORD_MASK == 0);
                map.set_in(slot, e8, bits);
            }
        }
    }
}
