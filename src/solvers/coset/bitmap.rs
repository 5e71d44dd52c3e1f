//! The coset bitmap: one bit per element of H ([`super::index`] says where), kept as pages of
//! 12-bit words packed end to end.
//!
//! A page (one corner permutation) is 40320 words of 12 bits, [`PAGE_BYTES`] bytes: word `e8`
//! starts at bit `12 · at`, where `at` is its *place* ([`place`]: `e8` or its neighbour rank,
//! so that the place's last bit is the word's parity), so it lies in the two bytes from
//! `at + at / 2`, shifted by 4 when `at` is odd. A full bitmap is 40320 such pages, 2.44 GB
//! (the 16-bit words of before took 3.25 GB, and a prepass needed two bitmaps).
//!
//! Pages live in *slots* of one anonymous mapping advised to use huge pages (a seed's bit lands
//! on a random page, and in 4 KB pages nearly every write would also miss the TLB); each page
//! that holds an element has a slot, the others read as the zero page. The kernel gives memory
//! on first touch, and a slot given back ([`Bitmap::give_back`]) is handed out again before
//! any slot never used: so the memory a run touches is the most slots it ever held at once,
//! which the in-place prepass ([`super::prepass`]) keeps near one bitmap.
//!
//! Invariants: the 8 bytes after a page's words are 0, and so are the words' bits of a page
//! without a slot; a slot handed out for writing single bits is zeroed first (a fresh one is
//! zero already); `Bitmap::counts` holds each page's set bits as of the last
//! [`Bitmap::recount`] or prepass.

use std::sync::atomic::{AtomicU8, AtomicU32, Ordering::Relaxed};
use std::sync::{Mutex, OnceLock};

use rayon::prelude::*;

use super::index::{BITS, Moves, PAGES, Relabel, WORD_MASK, WORDS, byte_of, e4_at, half, place};
use crate::pdb::huge::HugeArray;

/// Bytes of a page's words (12 bits each).
const WORD_BYTES: usize = WORDS * BITS / 8;
/// Bytes of a page's slot: its words and 8 bytes of zeros, which a word read near the end
/// and the prepass's 4-byte stores may touch.
pub const PAGE_BYTES: usize = WORD_BYTES + 8;
/// Slots of a bitmap's mapping (address space: see the module docs for what is touched). A
/// prepass never holds more than every page twice.
const SLOTS: usize = 2 * PAGES;
/// No slot.
pub const NONE: u32 = u32::MAX;

const _: () = assert!(WORD_BYTES.is_multiple_of(8) && WORDS.is_multiple_of(2));

/// The page every page without a slot reads as.
#[repr(C, align(64))]
struct Zero([u8; PAGE_BYTES]);
static ZERO: Zero = Zero([0; PAGE_BYTES]);

/// Bits in a full page.
pub const FULL: u32 = (WORDS * BITS) as u32;

/// A page's memory, read-only while this handle is used: its slot's bytes or the zero page.
#[derive(Clone, Copy)]
pub struct Page(*const u8);

// SAFETY: a `Page` only reads; the bitmap's users keep a page from being written while it is
// read through one (the prepass reads pages no thread writes).
unsafe impl Send for Page {}
// SAFETY: as above.
unsafe impl Sync for Page {}

impl Page {
    /// The zero page.
    pub fn zero() -> Page {
        Page(ZERO.0.as_ptr())
    }

    /// Word `e8` (`e8 < WORDS`).
    #[inline(always)]
    pub fn word(self, e8: usize) -> u16 {
        self.at(place(e8))
    }

    /// The word at place `at` ([`place`]).
    #[inline(always)]
    pub fn at(self, at: usize) -> u16 {
        debug_assert!(at < WORDS);
        // SAFETY: the two bytes from `byte_of(at)` lie within the page's PAGE_BYTES.
        let two = unsafe { self.0.add(byte_of(at)).cast::<u16>().read_unaligned() };
        two >> ((at & 1) * 4) & WORD_MASK
    }

    /// Set bits in the page.
    pub fn popcount(self) -> u32 {
        (0..WORD_BYTES / 8)
            .map(|i| {
                // SAFETY: within the page's words.
                unsafe { self.0.add(8 * i).cast::<u64>().read_unaligned() }.count_ones()
            })
            .sum()
    }

    /// The page's first byte (`PAGE_BYTES` bytes may be read from it).
    pub fn ptr(self) -> *const u8 {
        self.0
    }
}

/// Or-s `bits` (already shifted to the word's bit in its two bytes) into the two bytes at
/// `word` with plain loads and stores; returns the bits that were not set.
///
/// # Safety
/// `word` and the byte after it lie within a slot that only the caller touches.
#[inline(always)]
pub unsafe fn or_word(word: *mut u8, bits: u16) -> u32 {
    let word = word.cast::<u16>();
    // SAFETY: the caller's.
    let old = unsafe { word.read_unaligned() };
    unsafe { word.write_unaligned(old | bits) };
    (bits & !old).count_ones()
}

/// A set of elements of H.
pub struct Bitmap {
    /// `SLOTS` slots of `PAGE_BYTES` bytes.
    mem: HugeArray<AtomicU8>,
    /// Each page's slot, if it has one.
    slot: Vec<OnceLock<u32>>,
    /// Slots given back, to be handed out first (their bytes are stale).
    free: Mutex<Vec<u32>>,
    /// Slots handed out at least once: the slots from here on are untouched (zero).
    used: AtomicU32,
    /// Set bits per page (see the module's invariants).
    counts: Vec<u32>,
}

impl Default for Bitmap {
    fn default() -> Self {
        Self::new()
    }
}

impl Bitmap {
    /// The empty set (address space only: the kernel gives memory as slots are written).
    pub fn new() -> Bitmap {
        Bitmap {
            mem: HugeArray::zeroed(SLOTS * PAGE_BYTES).expect("anonymous memory for a bitmap"),
            slot: (0..PAGES).map(|_| OnceLock::new()).collect(),
            free: Mutex::new(Vec::new()),
            used: AtomicU32::new(0),
            counts: vec![0; PAGES],
        }
    }

    /// The empty set in this bitmap's memory: every slot is given back, to be handed out
    /// before any untouched one (and zeroed where bits are set one by one).
    pub fn cleared(mut self) -> Bitmap {
        let free = self.free.get_mut().expect("the free slots");
        for slot in &mut self.slot {
            free.extend(slot.take());
        }
        self.counts.fill(0);
        self
    }

    /// Slot `s`'s bytes.
    #[inline(always)]
    pub fn slot_ptr(&self, s: u32) -> *mut u8 {
        debug_assert!((s as usize) < SLOTS);
        // The bytes are `AtomicU8`s, so writing them through a shared reference is allowed.
        self.mem[s as usize * PAGE_BYTES..].as_ptr() as *mut u8
    }

    /// A slot to write a page into; its bytes are zeroed when `zeroed` (else they are stale).
    pub fn take_slot(&self, zeroed: bool) -> u32 {
        if let Some(s) = self.free.lock().expect("the free slots").pop() {
            if zeroed {
                // SAFETY: a slot taken is this caller's alone until it is published.
                unsafe { std::ptr::write_bytes(self.slot_ptr(s), 0, PAGE_BYTES) };
            }
            return s;
        }
        let s = self.used.fetch_add(1, Relaxed);
        assert!((s as usize) < SLOTS, "a bitmap ran out of slots");
        s
    }

    /// Hands slot `s` back (its page no longer lives there).
    pub fn give_back(&self, s: u32) {
        self.free.lock().expect("the free slots").push(s);
    }

    /// Page `c`'s slot, or [`NONE`].
    #[inline(always)]
    pub fn slot_of(&self, c: usize) -> u32 {
        self.slot[c].get().copied().unwrap_or(NONE)
    }

    /// Slot `s`'s page, or the zero page for [`NONE`].
    pub fn slot_page(&self, s: u32) -> Page {
        match s {
            NONE => Page::zero(),
            _ => Page(self.slot_ptr(s)),
        }
    }

    /// Page `c`, or the zero page if it has no slot.
    #[inline(always)]
    pub fn page(&self, c: usize) -> Page {
        match self.slot[c].get() {
            Some(&s) => Page(self.slot_ptr(s)),
            None => Page::zero(),
        }
    }

    /// Replaces the pages' slots and counts (the prepass's result).
    pub fn set_pages(&mut self, slots: impl Iterator<Item = u32>, counts: Vec<u32>) {
        self.slot = slots
            .map(|s| {
                let slot = OnceLock::new();
                if s != NONE {
                    let _ = slot.set(s);
                }
                slot
            })
            .collect();
        self.counts = counts;
    }

    /// Sets bits `bits` of word `e8` of page `c` (given a zeroed slot if it has none), safe
    /// from several threads at once. A byte's locked write is skipped when its bits are
    /// already there, which deep seeds mostly find.
    #[inline(always)]
    pub fn set(&self, c: usize, e8: usize, bits: u16) {
        let s = *self.slot[c].get_or_init(|| self.take_slot(true));
        self.set_in(s, e8, bits);
    }

    /// [`Bitmap::set`] in slot `s`.
    #[inline(always)]
    pub fn set_in(&self, s: u32, e8: usize, bits: u16) {
        let at = place(e8);
        self.set_at(s, byte_of(at), at & 1, bits);
    }

    /// Sets bits `bits` of the word at byte `byte` of slot `s`, which starts there at bit 0
    /// (`odd` 0) or 4 (`odd` 1), as [`Bitmap::set`] does.
    #[inline(always)]
    pub fn set_at(&self, s: u32, byte: usize, odd: usize, bits: u16) {
        let at = s as usize * PAGE_BYTES + byte;
        let shifted = (bits as u32) << (odd * 4);
        for (i, byte) in self.mem[at..at + 2].iter().enumerate() {
            let b = (shifted >> (8 * i)) as u8;
            if b != 0 && byte.load(Relaxed) & b != b {
                byte.fetch_or(b, Relaxed);
            }
        }
    }

    /// The address of word `e8` of page `c`, if it has a slot (to prefetch it).
    #[inline(always)]
    pub fn word_ptr(&self, c: usize, e8: usize) -> Option<*const u8> {
        let s = *self.slot[c].get()?;
        Some(self.slot_ptr(s).wrapping_add(byte_of(place(e8))) as *const u8)
    }

    /// Is the element in the set?
    pub fn contains(&self, c: usize, e8: usize, e4: usize) -> bool {
        self.page(c).word(e8) >> half()[e4].1 & 1 == 1
    }

    /// Counts the set bits of every page again (after bits were set); returns the total.
    pub fn recount(&mut self) -> u64 {
        let pages = &*self;
        self.counts = (0..PAGES)
            .into_par_iter()
            .map(|c| pages.page(c).popcount())
            .collect();
        self.total()
    }

    /// Set bits of page `c` as of the last count.
    pub fn counts_of(&self, c: usize) -> u32 {
        self.counts[c]
    }

    /// Set bits per page as of the last count.
    pub fn counts(&self) -> &[u32] {
        &self.counts
    }

    /// Elements in the set (as of the last count).
    pub fn total(&self) -> u64 {
        self.counts.iter().map(|&n| n as u64).sum()
    }

    /// Memory this bitmap has touched, in bytes: every slot it ever handed out.
    pub fn bytes(&self) -> u64 {
        (self.used.load(Relaxed) as usize * PAGE_BYTES) as u64
    }

    /// Adds the image under `r` of every element (the caller counts again). Used on H itself,
    /// whose set within `d` moves is closed under inversion, with `r` the inversion; `r` must
    /// map pages in pairs (`r` twice is the identity on pages) and keep a word's parity (so
    /// its place's last bit), as every [`Relabel`] does.
    ///
    /// An element's image lies in the page paired with its own, so each pair of pages is one
    /// task: both read from a copy of their old words, both written in place with plain
    /// stores; a page's words all go to one page of 60 KB, so the writes stay in the cache.
    pub fn close_under(&mut self, t: &Moves, r: &Relabel) {
        // The byte of the image's word, by the source word's place.
        let to: Vec<u16> = (0..WORDS)
            .map(|at| {
                let image = place(r.word[place(at)] as usize);
                debug_assert_eq!(image & 1, at & 1, "a relabel keeps the parity");
                byte_of(image) as u16
            })
            .collect();
        let pairs: Vec<(usize, usize)> = (0..PAGES)
            .map(|c| (c, r.page[c] as usize))
            .filter(|&(c, c2)| c <= c2 && (self.counts[c] != 0 || self.counts[c2] != 0))
            .collect();
        for &(c, c2) in &pairs {
            assert_eq!(r.page[c2] as usize, c, "the relabel pairs its pages");
            for page in [c, c2] {
                self.slot[page].get_or_init(|| self.take_slot(true));
            }
        }
        let map = &*self;
        pairs.par_iter().for_each_init(
            || vec![0u8; 2 * PAGE_BYTES],
            |old, &(c, c2)| {
                let (a, b) = old.split_at_mut(PAGE_BYTES);
                for (page, copy) in [(c, &mut *a), (c2, &mut *b)] {
                    // SAFETY: this task alone touches pages c and c2.
                    unsafe {
                        std::ptr::copy_nonoverlapping(
                            map.page(page).ptr(),
                            copy.as_mut_ptr(),
                            PAGE_BYTES,
                        )
                    };
                }
                let sources = [(c, &*a, c2), (c2, &*b, c)];
                for &(from, words, into) in &sources[..if c == c2 { 1 } else { 2 }] {
                    let (src, p0, dst) = (Page(words.as_ptr()), t.parity8[from], map.page(into));
                    for (at, &byte) in to.iter().enumerate() {
                        let w = src.at(at);
                        if w == 0 {
                            continue;
                        }
                        let bits = r.bits(p0 ^ (at & 1) as u8, w) << ((at & 1) * 4);
                        // SAFETY: the word's two bytes lie within the page's slot, which only
                        // this task touches.
                        unsafe { or_word((dst.ptr() as *mut u8).add(byte as usize), bits) };
                    }
                }
            },
        );
    }

    /// Calls `f(c, e8, e4)` for every element in the set (`present`), or for every element not
    /// in it, page by page.
    pub fn for_each(&self, t: &Moves, present: bool, mut f: impl FnMut(usize, usize, usize)) {
        let e4s: [[usize; BITS]; 2] =
            std::array::from_fn(|p| std::array::from_fn(|bit| e4_at(p as u8, bit)));
        let (flip, skip) = if present { (0, 0) } else { (WORD_MASK, FULL) };
        for c in (0..PAGES).filter(|&c| self.counts[c] != skip) {
            let page = self.page(c);
            for e8 in 0..WORDS {
                let mut bits = (page.word(e8) ^ flip) & WORD_MASK;
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
