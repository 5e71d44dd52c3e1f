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
//! [`order`] that finishes a page's neighbours soon after the page: at most 4293 old pages are
//! held at once (of 40320) in that order on one thread, 260 MB. Threads take the order's pages
//! in chunks from one cursor, so the window grows only by the chunks under way.
//!
//! A gather reads every word of a neighbour, set or not, so a *sparse* neighbour (fewer than
//! [`SPARSE`] bits, as are all pages up to about depth 15) is left out of it: when its old page
//! is given back, its set words are or-ed into its ten targets' new pages first (the word
//! moved by the inverse move), one target at a time under the target's lock, counting the
//! bits it adds.
//!
//! A page nearly full (at depth 19 on) is gathered only where its own word is not full: the
//! last prepass of a proof is then little more than a copy.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU32, AtomicUsize, Ordering::*};

use super::bitmap::{Bitmap, FULL, NONE, PAGE_BYTES, Page, or_word};
use super::index::{COPIED, MAPPED, Moves, PAGES, SAME_PARITY, WORD_MASK, WORDS};
use super::simd;
use crate::coord::{N_MOVES, N_P2_MOVES, P2_MOVES};

/// Pages with fewer set bits than this are spread by the prepass from the page itself to its
/// ten targets; denser pages are gathered by each target. A sparse page's words cost one
/// scan and a write per set word and move, instead of a read per target word and move.
const SPARSE: u32 = (WORDS / 8) as u32;

/// Pages with at least this many set bits are gathered word by word only where their own
/// word is not full: nearly all are, and the branch is then nearly always guessed right. (At
/// 95 % the branch missed often enough that the last prepass of a proof took 4.8 s against
/// 3.3 s with the vector gather below 99.5 %.)
const NEARLY_FULL: u32 = FULL / 1000 * 995;

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

/// The order in which the prepass takes its target pages, so that few old pages are held at
/// once. An old page is held from the start until its eleven readers (itself and its ten
/// neighbours) are done, so the pages held beyond one bitmap are those done whose
/// neighbourhood is not. Each next page is one that lets the most held pages go (whose last
/// reader it is), then the one with the most neighbours done, then the earliest reached:
/// at most 4293 pages are held at once on one thread (260 MB), against 4941 when choosing by
/// neighbours done alone and 28,801 in the order of the ranks. Built once, in milliseconds.
pub fn order(t: &Moves) -> &'static [u16] {
    static ORDER: OnceLock<Vec<u16>> = OnceLock::new();
    ORDER.get_or_init(|| {
        let readers = |c: usize| -> [usize; 1 + N_P2_MOVES] {
            std::array::from_fn(|k| if k == 0 { c } else { neighbour(t, c, k - 1) })
        };
        // Per page: readers not yet done, held pages it would let go, neighbours done.
        let mut left = vec![1 + N_P2_MOVES as u8; PAGES];
        let (mut frees, mut near) = (vec![0u8; PAGES], vec![0u8; PAGES]);
        let mut taken = vec![false; PAGES];
        let mut order = Vec::with_capacity(PAGES);
        // ((frees, neighbours done), first reached, page); stale entries are skipped.
        let mut heap = BinaryHeap::from([((0u8, 0u8), Reverse(0usize), 0usize)]);
        let mut reached = 0;
        while let Some(((f, n), _, c)) = heap.pop() {
            if taken[c] || (f, n) != (frees[c], near[c]) {
                continue;
            }
            taken[c] = true;
            order.push(c as u16);
            let mut changed = Vec::new();
            for d in readers(c) {
                left[d] -= 1;
                if d != c && !taken[d] {
                    near[d] += 1;
                    changed.push(d);
                }
                if left[d] == 1 {
                    // Its last reader lets it go.
                    for e in readers(d).into_iter().filter(|&e| !taken[e]) {
                        frees[e] += 1;
                        changed.push(e);
                    }
                }
            }
            for e in changed {
                reached += 1;
                heap.push(((frees[e], near[e]), Reverse(reached), e));
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
    let locks: Vec<AtomicBool> = (0..PAGES).map(|_| AtomicBool::new(false)).collect();
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
            let mut words = Vec::with_capacity(WORDS);
            loop {
                let at = cursor.fetch_add(CHUNK, Relaxed);
                if at >= PAGES {
                    break;
                }
                for &c in &order[at..(at + CHUNK).min(PAGES)] {
                    let c = c as usize;
                    let (slot, count) = target(map, t, &counts, c);
                    new_counts[c].store(count, Relaxed);
                    new[c].store(slot, Release);
                    for d in std::iter::once(c).chain((0..N_P2_MOVES).map(|k| neighbour(t, c, k))) {
                        if uses[d].load(Relaxed) != 0 && uses[d].fetch_sub(1, AcqRel) == 1 {
                            if sparse(counts[d]) {
                                let to = Targets {
                                    new: &new,
                                    counts: &new_counts,
                                    locks: &locks,
                                };
                                scatter(map, t, d, &to, &mut words);
                            }
                            map.give_back(map.slot_of(d));
                        }
                    }
                }
            }
        });
    }
    let counts = new_counts.into_iter().map(AtomicU32::into_inner).collect();
    map.set_pages(new.into_iter().map(AtomicU32::into_inner), counts);
    map
}

/// Target page `c` of the prepass, written into a new slot from its own old page and its
/// dense old neighbours: its slot ([`NONE`] if empty) and its count (without the sparse
/// neighbours, which add theirs as they scatter into it).
fn target(map: &Bitmap, t: &Moves, counts: &[u32], c: usize) -> (u32, u32) {
    if counts[c] == FULL {
        let s = map.take_slot(false);
        // SAFETY: the slot is this thread's until published.
        unsafe { std::ptr::write_bytes(map.slot_ptr(s), 0xff, PAGE_BYTES - 8) };
        unsafe { std::ptr::write_bytes(map.slot_ptr(s).add(PAGE_BYTES - 8), 0, 8) };
        return (s, FULL);
    }
    // The dense non-empty neighbours: an empty or sparse one reads as the zero page, so the
    // loop below has no branch (and no mask: the zero page is a whole page).
    let mut sources = [Page::zero(); N_P2_MOVES];
    let (mut dense, mut sparse_source) = (false, false);
    for (k, source) in sources.iter_mut().enumerate() {
        let from = neighbour(t, c, k);
        match counts[from] {
            0 => {}
            n if sparse(n) => sparse_source = true,
            _ => {
                *source = map.page(from);
                dense = true;
            }
        }
    }
    if !dense && !sparse_source && counts[c] == 0 {
        return (NONE, 0);
    }
    let s = map.take_slot(false);
    let (own, dst) = (map.page(c), map.slot_ptr(s));
    if !dense {
        // SAFETY: a new slot (this thread's) and an old page no one writes.
        unsafe { std::ptr::copy_nonoverlapping(own.ptr(), dst, PAGE_BYTES) };
        return (s, counts[c]);
    }
    let count = if counts[c] >= NEARLY_FULL {
        gather::<true>(t, c, &sources, own, dst)
    } else if simd::available() {
        // SAFETY: the CPU has the features; `dst` is this thread's new slot, the pages read
        // are old ones no one writes.
        unsafe { simd::gather(t, c, &sources, own, dst) }
    } else {
        gather::<false>(t, c, &sources, own, dst)
    };
    (s, count)
}

/// Writes target page `c` of a prepass into `dst`: each word is its own word in `own` or-ed
/// with its ten neighbours' words, `sources[k]` being page `c · m_k` (the zero page for a
/// neighbour left out). Returns the set bits written.
///
/// This loop is the prepass's time: it has no branch that depends on the data, since a
/// mispredicted branch per neighbour cost more than the loads it saved. It walks the target
/// words by places ([`super::index::place`]), two at a time (three bytes, stored as four whose
/// last the next store overwrites): the even place's word has parity 0, the odd one's 1, and
/// each neighbour's place is even or odd by its move alone ([`SAME_PARITY`]), so a neighbour
/// word is one table load, one load and a fixed shift.
#[inline(never)]
fn gather<const SKIP: bool>(
    t: &Moves,
    c: usize,
    sources: &[Page; N_P2_MOVES],
    own: Page,
    dst: *mut u8,
) -> u32 {
    let parity_c = t.parity8[c] as usize;
    let mut count = 0;
    for (pair, rows) in t.word_at.chunks_exact(2 * N_P2_MOVES).enumerate() {
        let (even, odd) = rows.split_at(N_P2_MOVES);
        let (even, odd) = (even.try_into().expect("ten"), odd.try_into().expect("ten"));
        // SAFETY: bytes 3·pair .. 3·pair + 4 lie within the page (PAGE_BYTES has 8 spare).
        let own = unsafe { own.ptr().add(3 * pair).cast::<u32>().read_unaligned() };
        let two = gather_word::<0, SKIP>(t, sources, own, even, parity_c)
            | gather_word::<1, SKIP>(t, sources, own >> 12, odd, parity_c ^ 1) << 12;
        // SAFETY: as above, within the slot.
        unsafe { dst.add(3 * pair).cast::<u32>().write_unaligned(two) };
        count += two.count_ones();
    }
    count
}

/// One word of [`gather`], at a place whose last bit is `ODD`: `own` (in its low 12 bits)
/// or-ed with the ten neighbours' words at bytes `row` (the place's row of
/// [`Moves::word_at`]), for a target word of slice parity `p`.
#[inline(always)]
fn gather_word<const ODD: usize, const SKIP: bool>(
    t: &Moves,
    sources: &[Page; N_P2_MOVES],
    own: u32,
    row: &[u16; N_P2_MOVES],
    p: usize,
) -> u32 {
    // The neighbour's word, with stray high bits when it lies at an even place: they are
    // masked below (the half turns' tables take six bits at a time).
    let read = |k: usize| {
        let src = sources[k];
        // SAFETY: the two bytes from a word's byte lie within the page's PAGE_BYTES.
        let two = unsafe {
            src.ptr()
                .add(row[k] as usize)
                .cast::<u16>()
                .read_unaligned()
        };
        match (ODD == 1) == SAME_PARITY[k] {
            true => two as u32 >> 4,
            false => two as u32,
        }
    };
    if SKIP && own & WORD_MASK as u32 == WORD_MASK as u32 {
        return WORD_MASK as u32;
    }
    let mut w = own;
    for k in COPIED {
        w |= read(k);
    }
    let by_move = &t.by_parity[p];
    for (j, k) in MAPPED.into_iter().enumerate() {
        let s = read(k) as usize;
        w |= (by_move[j][0][s & 63] | by_move[j][1][s >> 6 & 63]) as u32;
    }
    w & WORD_MASK as u32
}

/// The new pages a sparse page scatters into, with their counts and a lock each.
struct Targets<'a> {
    /// Each page's new slot.
    new: &'a [AtomicU32],
    /// Each new page's set bits.
    counts: &'a [AtomicU32],
    /// Held while a sparse page scatters into the new page, so that the words are or-ed with
    /// plain loads and stores.
    locks: &'a [AtomicBool],
}

/// The prepass of a sparse page `s`, when its old page is about to be given back: each of its
/// set words (gathered into `words` first) is moved by the inverse of each move of H to its
/// target, in the new pages (all written: every target of `s` is done), and or-ed in there,
/// the new bits counted.
fn scatter(map: &Bitmap, t: &Moves, s: usize, to: &Targets, words: &mut Vec<(u16, u16)>) {
    let src = map.page(s);
    words.clear();
    // Eight words (12 bytes) at a time, skipping those that are all zero.
    for block in 0..WORDS / 8 {
        // SAFETY: the 16 bytes from 12·block lie within the page's PAGE_BYTES.
        let bytes = unsafe { src.ptr().add(12 * block).cast::<u128>().read_unaligned() };
        if bytes & ((1 << 96) - 1) != 0 {
            let set = (8 * block..8 * block + 8).map(|at| (at as u16, src.at(at)));
            words.extend(set.filter(|&(_, w)| w != 0));
        }
    }
    for k in 0..N_P2_MOVES {
        let back = INVERSE[k];
        let c = neighbour(t, s, back);
        let (slot, parity_c) = (to.new[c].load(Acquire), t.parity8[c]);
        debug_assert!(slot != NONE);
        let dst = map.slot_ptr(slot);
        while to.locks[c]
            .compare_exchange_weak(false, true, Acquire, Relaxed)
            .is_err()
        {
            std::hint::spin_loop();
        }
        let mut added = 0;
        for &(at, w) in words.iter() {
            let at = at as usize;
            let odd = at & 1 ^ !SAME_PARITY[back] as usize;
            let bits = match t.keeps_slice(k) {
                true => w,
                false => t.rearrange(k, parity_c ^ odd as u8, w),
            };
            debug_assert!(bits & !WORD_MASK == 0);
            // SAFETY: the word's two bytes lie within the slot; the lock makes this thread the
            // only one writing the page, and no thread reads a new page during the prepass.
            added += unsafe {
                or_word(
                    dst.add(t.word_at[at * N_P2_MOVES + back] as usize),
                    bits << (odd * 4),
                )
            };
        }
        to.locks[c].store(false, Release);
        to.counts[c].fetch_add(added, Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The vector gather writes the scalar gather's words and count, on a dense page with
    /// dense, empty and sparse (left out) neighbours, where the CPU has it.
    #[test]
    fn the_vector_gather_is_the_scalar_one() {
        if !simd::available() {
            eprintln!("no AVX-512 here: the scalar gather alone runs");
            return;
        }
        let t = Moves::get();
        let map = Bitmap::new();
        let mut rng = crate::cube::Rng::new(5);
        for c in [777, 31000] {
            let mut sources = [Page::zero(); N_P2_MOVES];
            for (k, source) in sources.iter_mut().enumerate().skip(2) {
                let d = neighbour(t, c, k);
                for e8 in 0..WORDS {
                    map.set(d, e8, rng.below(1 << 12) as u16 & WORD_MASK);
                }
                *source = map.page(d);
            }
            for e8 in (0..WORDS).step_by(3) {
                map.set(c, e8, rng.below(1 << 12) as u16 & WORD_MASK);
            }
            let (scalar, vector) = (map.take_slot(false), map.take_slot(false));
            let n = gather::<false>(t, c, &sources, map.page(c), map.slot_ptr(scalar));
            // SAFETY: the CPU has the features; the slots are new.
            let m = unsafe { simd::gather(t, c, &sources, map.page(c), map.slot_ptr(vector)) };
            let (a, b) = (map.slot_page(scalar), map.slot_page(vector));
            for at in 0..WORDS {
                assert_eq!(a.at(at), b.at(at), "page {c}, place {at}");
            }
            assert_eq!((n, m), (a.popcount(), a.popcount()));
        }
    }
}
