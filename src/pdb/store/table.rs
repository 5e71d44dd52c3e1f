//! The one table type: 4 bits per entry, two entries a byte (entry `2k` in the low nibble);
//! or, for tables the search reads but nothing writes any more, 2 bits an entry in 64-byte lines
//! ([`Format::Lines`]).
//!
//! A [`NibbleTable`] lives in heap memory while it is built (every byte an `AtomicU8`, so
//! generator threads can fill it concurrently without data races) and is read either from that
//! memory or from a memory-mapped file; lookups go through one raw pointer either way.
//! Value [`UNKNOWN`] (15) marks entries not yet reached during generation; a finished table
//! holds only distances below 15.

use std::sync::atomic::{AtomicU8, Ordering::Relaxed};

/// Nibble value of an entry not reached yet.
pub const UNKNOWN: u8 = 0x0f;

enum Storage {
    Heap(Box<[AtomicU8]>),
    /// Anonymous memory in huge pages, written through atomics while the table is built.
    HugeHeap(memmap2::MmapMut),
    /// Kept only to keep the mapping alive; reads go through `NibbleTable::ptr`.
    Mapped(#[allow(dead_code)] memmap2::Mmap),
}

/// How a table's payload holds its entries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// 4 bits an entry, the exact value (every table while it is built).
    Nibbles,
    /// 2 bits an entry in 64-byte lines of 252 entries (63 bytes), the line's last byte its
    /// least value: an entry `k` in 1..=3 reads `base + k` (3: at least `base + 3`), an entry 0
    /// ("at most `base`") reads the line's least value, from the same cache line. Every read is
    /// at most the exact value, so a lower bound stays a lower bound.
    Lines { base: u8 },
}

/// Entries of a [`Format::Lines`] line (the 64th byte holds the line's least value).
pub const LINE_ENTRIES: u64 = 252;

impl Format {
    /// Payload bytes of `entries` entries.
    pub const fn payload_bytes(self, entries: u64) -> u64 {
        match self {
            Format::Nibbles => entries.div_ceil(2),
            Format::Lines { .. } => entries.div_ceil(LINE_ENTRIES) * 64,
        }
    }

    /// The base of [`Format::Lines`] for a table with this histogram (entries per exact
    /// value): the base whose two losses are least, weighed 10 to 1. The entries at or below
    /// the base read their line's least value, and those above `base + 3` read `base + 3`;
    /// the base minimizes the larger of ten times the first count and the second.
    ///
    /// Why the weight: the search feels a loss on the small values more than one on the
    /// largest, which only nodes near the root read (and structured positions, whose values
    /// are small, feel it most), but a top code that stands for a third of the table costs
    /// more. Measured (one thread, nodes to the end; `results/ladder.md`):
    /// - `sym48e0` (bound 15 of the first 17-mover of `optimal-17.txt`): base 7 (0.4 % of the
    ///   entries at or below it, 7.4 % above 10) 21.8 M nodes, base 8 (4.7 %, none above 11)
    ///   28.1 M, base 6 115.6 M, base 9 236.6 M; the exact nibbles 19.1 M. Base 7.
    /// - `sym48e1` (the first five 17-movers): base 7 (0.2 %, 17.2 % above 10) 4.43 G nodes,
    ///   base 8 (2.6 %, 0.02 % above 11) 4.20 G, but no faster (paired wall 0.99), and twice
    ///   the nodes on a structured position (coset 2). Base 7.
    /// - `sym48e2` (the same positions): base 7 (0.1 %, 32.4 % above 10) 2.99 G nodes, base 8
    ///   (1.4 %, 0.2 % above 11) 2.38 G, paired wall 0.83 on two of them. Base 8.
    ///
    /// So the weight lies between 6.6 (`e1`) and 24 (`e2`); `e3` and `e4` (0.7 % and 0.4 % at
    /// or below 8, 1.5 % and 6.6 % above 11; 7.5 % and 4.1 % at or below 9) keep base 8.
    pub fn line_base(histogram: &[u64]) -> u8 {
        let mut at_most = 0u64;
        let mut best = (u64::MAX, 0);
        for (base, &n) in histogram.iter().enumerate() {
            at_most += n;
            let above: u64 = histogram.iter().skip(base + 4).sum();
            let loss = (10 * at_most).max(above);
            if loss < best.0 {
                best = (loss, base);
            }
        }
        best.1 as u8
    }
}

/// A table of `entries` 4-bit values (or 2-bit ones, [`Format::Lines`]).
pub struct NibbleTable {
    storage: Storage,
    /// Start of the payload bytes, valid for `format.payload_bytes(entries)` bytes while
    /// `storage` lives.
    ptr: *const u8,
    entries: u64,
    format: Format,
    /// The exact histogram, for a [`Format::Lines`] table built in place whose builder knows
    /// it ([`NibbleTable::with_histogram`]); `None`: count the entries.
    histogram: Option<Vec<u64>>,
}

// SAFETY: the pointer targets memory owned by `storage`, which is Send + Sync; all shared
// mutation goes through `AtomicU8`.
unsafe impl Send for NibbleTable {}
unsafe impl Sync for NibbleTable {}

/// A copy in memory of its own, the format and a recorded histogram kept: a nibble table on
/// the heap, a 2-bit one in huge pages (as a loaded one). For fixtures and tests, which read
/// one built table in several heuristics; panics where memory fails, as `Vec`'s clone does.
impl Clone for NibbleTable {
    fn clone(&self) -> NibbleTable {
        let copy = match self.format {
            Format::Nibbles => NibbleTable::from_bytes(self.bytes().to_vec(), self.entries),
            Format::Lines { .. } => {
                NibbleTable::in_huge_pages(self.bytes(), self.entries, self.format)
                    .expect("memory for a copy of a table")
            }
        };
        NibbleTable {
            histogram: self.histogram.clone(),
            ..copy
        }
    }
}

/// Bytes needed for `entries` nibbles.
pub const fn bytes_for(entries: u64) -> usize {
    entries.div_ceil(2) as usize
}

impl NibbleTable {
    /// A heap table with every entry [`UNKNOWN`].
    pub fn new_unknown(entries: u64) -> NibbleTable {
        let bytes: Box<[AtomicU8]> = (0..bytes_for(entries))
            .map(|_| AtomicU8::new(0xff))
            .collect();
        Self::from_heap(bytes, entries)
    }

    /// [`NibbleTable::new_unknown`] in huge pages ([`huge_page_memory`]): for a builder that
    /// writes entries at random all over a table of gigabytes, where 4 KB pages would make
    /// most writes a TLB miss.
    pub fn new_unknown_in_huge_pages(entries: u64) -> std::io::Result<NibbleTable> {
        let mut map = huge_page_memory(bytes_for(entries))?;
        map.fill(0xff);
        Ok(Self::written_in_place(map, entries, Format::Nibbles))
    }

    /// A [`Format::Lines`] table with `base` in huge pages ([`huge_page_memory`]) whose every
    /// entry reads `top` (`base < top ≤ base + 3`), to be lowered in place
    /// ([`NibbleTable::lower`]) by a builder whose values never exceed `top`: the 2-bit form
    /// without the nibble table it is usually made from ([`NibbleTable::to_lines`]), so a
    /// table of 30 G entries is built in 7.5 GB instead of 15. Lowering every entry to `v`
    /// gives the bytes `to_lines(base)` gives for a nibble table holding `min(v, top)`.
    pub fn new_lines_in_huge_pages(
        entries: u64,
        base: u8,
        top: u8,
    ) -> std::io::Result<NibbleTable> {
        assert!(
            base < top && top <= base + 3,
            "top {top} is not one of base {base}'s codes"
        );
        let format = Format::Lines { base };
        let mut map = huge_page_memory(format.payload_bytes(entries) as usize)?;
        let code = top - base;
        let all = code | code << 2 | code << 4 | code << 6;
        // In parallel: the first touch of each page is most of the cost (16 s for 7.5 GB
        // on one thread).
        use rayon::prelude::*;
        map.par_chunks_mut(64 << 12).for_each(|chunk| {
            for line in chunk.chunks_exact_mut(64) {
                line[..63].fill(all);
                line[63] = top;
            }
        });
        // The last line's entries past the end read code 0, as `to_lines` leaves them.
        let tail = entries % LINE_ENTRIES;
        if tail != 0 {
            let last = map.len() - 64;
            for j in tail..LINE_ENTRIES {
                map[last + (j >> 2) as usize] &= !(3 << ((j & 3) * 2));
            }
        }
        Ok(Self::written_in_place(map, entries, format))
    }

    /// A table over the huge-page memory `map` that builders write in place (through atomics).
    fn written_in_place(map: memmap2::MmapMut, entries: u64, format: Format) -> NibbleTable {
        let ptr = map.as_ptr();
        NibbleTable {
            storage: Storage::HugeHeap(map),
            ptr,
            entries,
            format,
            histogram: None,
        }
    }

    /// A table in huge pages, written in place like [`NibbleTable::new_lines_in_huge_pages`]'s,
    /// whose payload `fill` writes first: a build's checkpoint read back to be lowered further
    /// ([`crate::pdb::checkpoint`]).
    pub fn writable_in_huge_pages(
        entries: u64,
        format: Format,
        fill: impl FnOnce(&mut [u8]) -> std::io::Result<()>,
    ) -> std::io::Result<NibbleTable> {
        let map = filled_huge_map(format.payload_bytes(entries) as usize, fill)?;
        Ok(Self::written_in_place(map, entries, format))
    }

    /// The table with its exact histogram recorded ([`NibbleTable::histogram`] returns it):
    /// for a [`Format::Lines`] table, whose entries at most `base` read only their line's
    /// least value, by a builder that counted them.
    pub fn with_histogram(mut self, histogram: Vec<u64>) -> NibbleTable {
        assert_eq!(
            histogram.iter().sum::<u64>(),
            self.entries,
            "a histogram of every entry"
        );
        self.histogram = Some(histogram);
        self
    }

    /// A heap table holding `bytes` (length must be `bytes_for(entries)`).
    pub fn from_bytes(bytes: Vec<u8>, entries: u64) -> NibbleTable {
        assert_eq!(bytes.len(), bytes_for(entries));
        let atomics: Box<[AtomicU8]> = bytes.into_iter().map(AtomicU8::new).collect();
        Self::from_heap(atomics, entries)
    }

    fn from_heap(bytes: Box<[AtomicU8]>, entries: u64) -> NibbleTable {
        let ptr = bytes.as_ptr() as *const u8;
        NibbleTable {
            storage: Storage::Heap(bytes),
            ptr,
            entries,
            format: Format::Nibbles,
            histogram: None,
        }
    }

    /// A read-only table over a mapped file; the payload starts `offset` bytes in.
    pub fn from_mmap(
        map: memmap2::Mmap,
        offset: usize,
        entries: u64,
        format: Format,
    ) -> NibbleTable {
        assert!(map.len() as u64 >= offset as u64 + format.payload_bytes(entries));
        // SAFETY: offset is within the mapping (checked above).
        let ptr = unsafe { map.as_ptr().add(offset) };
        NibbleTable {
            storage: Storage::Mapped(map),
            ptr,
            entries,
            format,
            histogram: None,
        }
    }

    /// The payload's format.
    pub fn format(&self) -> Format {
        self.format
    }

    /// The [`Format::Lines`] payload of this (nibble, finished) table with `base`.
    pub fn to_lines(&self, base: u8) -> Vec<u8> {
        assert_eq!(self.format, Format::Nibbles);
        let n = self.entries;
        let mut out = vec![0u8; Format::Lines { base }.payload_bytes(n) as usize];
        for (line, bytes) in out.chunks_exact_mut(64).enumerate() {
            let lo = line as u64 * LINE_ENTRIES;
            let entries = lo..(lo + LINE_ENTRIES).min(n);
            bytes[63] = entries.clone().map(|i| self.get(i)).min().unwrap_or(0);
            for i in entries {
                let (v, j) = (self.get(i), i - lo);
                let k = if v <= base { 0 } else { (v - base).min(3) };
                bytes[(j >> 2) as usize] |= k << ((j & 3) * 2);
            }
        }
        out
    }

    /// Number of entries.
    pub fn entries(&self) -> u64 {
        self.entries
    }

    /// A read-only copy of `bytes` in anonymous memory advised to use huge pages: the search
    /// looks entries up at random, and 2 MB pages spare most of its TLB misses.
    pub fn in_huge_pages(
        bytes: &[u8],
        entries: u64,
        format: Format,
    ) -> std::io::Result<NibbleTable> {
        assert_eq!(bytes.len() as u64, format.payload_bytes(entries));
        Self::filled_in_huge_pages(entries, format, |payload| {
            payload.copy_from_slice(bytes);
            Ok(())
        })
    }

    /// A read-only table in huge-page memory (see [`NibbleTable::in_huge_pages`]) whose
    /// `bytes_for(entries)` payload bytes `fill` writes, e.g. straight from a file, so that no
    /// second copy of the table is ever resident.
    pub fn filled_in_huge_pages(
        entries: u64,
        format: Format,
        fill: impl FnOnce(&mut [u8]) -> std::io::Result<()>,
    ) -> std::io::Result<NibbleTable> {
        let map = filled_huge_map(format.payload_bytes(entries) as usize, fill)?;
        Ok(Self::from_mmap(map.make_read_only()?, 0, entries, format))
    }

    /// Entry `i` of a finished (read-only) table. The search's lookup.
    #[inline(always)]
    pub fn get(&self, i: u64) -> u8 {
        debug_assert!(i < self.entries);
        // SAFETY: i < entries, so the bytes read are inside the payload (whole lines). Finished tables are not written any more, so a plain read
        // does not race.
        match self.format {
            Format::Nibbles => {
                let byte = unsafe { *self.ptr.add((i >> 1) as usize) };
                (byte >> ((i & 1) * 4)) & 0x0f
            }
            Format::Lines { base } => {
                let line = i / LINE_ENTRIES;
                let j = i - line * LINE_ENTRIES;
                let bytes = unsafe { self.ptr.add(line as usize * 64) };
                let k = (unsafe { *bytes.add((j >> 2) as usize) } >> ((j & 3) * 2)) & 3;
                if k != 0 {
                    base + k
                } else {
                    unsafe { *bytes.add(63) }
                }
            }
        }
    }

    /// Asks the CPU to start loading the cache line holding entry `i`.
    #[inline(always)]
    pub fn prefetch(&self, i: u64) {
        let byte = match self.format {
            Format::Nibbles => i >> 1,
            Format::Lines { .. } => i / LINE_ENTRIES * 64,
        };
        prefetch(self.ptr.wrapping_add(byte as usize));
    }

    fn atomics(&self) -> &[AtomicU8] {
        match &self.storage {
            Storage::Heap(b) => b,
            // SAFETY: AtomicU8 has the layout of u8; the mapping lives as long as self, and
            // every access to it while it may be shared goes through these atomics.
            Storage::HugeHeap(m) => unsafe {
                std::slice::from_raw_parts(
                    m.as_ptr() as *const AtomicU8,
                    self.format.payload_bytes(self.entries) as usize,
                )
            },
            Storage::Mapped(_) => panic!("a mapped table is read-only"),
        }
    }

    /// Entry `i` while the table may be written by other threads.
    #[inline(always)]
    pub fn load(&self, i: u64) -> u8 {
        let byte = self.atomics()[(i >> 1) as usize].load(Relaxed);
        (byte >> ((i & 1) * 4)) & 0x0f
    }

    /// Sets entry `i` to `v` if it is still [`UNKNOWN`]; returns whether this call set it.
    /// Safe against concurrent writers of the other nibble of the same byte.
    #[inline(always)]
    pub fn set_if_unknown(&self, i: u64, v: u8) -> bool {
        let shift = (i & 1) * 4;
        let cell = &self.atomics()[(i >> 1) as usize];
        cell.fetch_update(Relaxed, Relaxed, |b| {
            ((b >> shift) & 0x0f == UNKNOWN).then_some((b & !(0x0f << shift)) | (v << shift))
        })
        .is_ok()
    }

    /// Lowers entry `i` to `v` if it holds more ([`UNKNOWN`] included). Safe against
    /// concurrent writers; the result does not depend on their order. In a
    /// [`Format::Lines`] table ([`NibbleTable::new_lines_in_huge_pages`]) the entry's code
    /// goes down to `v`'s (0 for at most `base`) and the line's least value to `v`: both are
    /// minima, so the bytes are those of `to_lines` of the nibbles' minima.
    #[inline(always)]
    pub fn lower(&self, i: u64, v: u8) {
        if let Format::Lines { base } = self.format {
            let line = i / LINE_ENTRIES;
            let j = i - line * LINE_ENTRIES;
            let at = line as usize * 64;
            let code = if v <= base { 0 } else { (v - base).min(3) };
            let shift = (j & 3) * 2;
            let cells = self.atomics();
            let cell = &cells[at + (j >> 2) as usize];
            if (cell.load(Relaxed) >> shift) & 3 > code {
                let _ = cell.fetch_update(Relaxed, Relaxed, |b| {
                    ((b >> shift) & 3 > code).then_some((b & !(3 << shift)) | (code << shift))
                });
            }
            let least = &cells[at + 63];
            if least.load(Relaxed) > v {
                least.fetch_min(v, Relaxed);
            }
            return;
        }
        let shift = (i & 1) * 4;
        let cell = &self.atomics()[(i >> 1) as usize];
        // Most marks of a builder find a value already as low: a plain load settles them.
        if (cell.load(Relaxed) >> shift) & 0x0f <= v {
            return;
        }
        let _ = cell.fetch_update(Relaxed, Relaxed, |b| {
            ((b >> shift) & 0x0f > v).then_some((b & !(0x0f << shift)) | (v << shift))
        });
    }

    /// Sets every [`UNKNOWN`] entry to `v`, in parallel. Only while nobody else writes.
    pub fn fill_unknown(&self, v: u8) {
        use rayon::prelude::*;
        assert_eq!(self.format, Format::Nibbles, "only nibbles are unknown");
        self.atomics().par_chunks(1 << 16).for_each(|cells| {
            for c in cells {
                let b = c.load(Relaxed);
                let lo = if b & 0x0f == UNKNOWN { v } else { b & 0x0f };
                let hi = if b >> 4 == UNKNOWN { v } else { b >> 4 };
                c.store(lo | hi << 4, Relaxed);
            }
        });
    }

    /// Appends `i - lo` for every entry `i` in `lo..hi` whose value is `v` (the generator's
    /// scan for the entries of one block at one depth, or unknown).
    #[inline]
    pub(crate) fn find(&self, lo: u64, hi: u64, v: u8, out: &mut Vec<u32>) {
        let mut i = lo;
        if i & 1 == 1 && i < hi {
            if self.load(i) == v {
                out.push(0);
            }
            i += 1;
        }
        let pairs_end = hi & !1;
        if i < pairs_end {
            let both = v | (v << 4);
            let cells = &self.atomics()[(i >> 1) as usize..(pairs_end >> 1) as usize];
            let mut x = (i - lo) as u32;
            for c in cells {
                let diff = c.load(Relaxed) ^ both;
                // Most bytes hold neither value: one test skips them.
                if diff & 0x0f != 0 && diff & 0xf0 != 0 {
                    x += 2;
                    continue;
                }
                if diff & 0x0f == 0 {
                    out.push(x);
                }
                if diff & 0xf0 == 0 {
                    out.push(x + 1);
                }
                x += 2;
            }
            i = pairs_end;
        }
        if i < hi && self.load(i) == v {
            out.push((i - lo) as u32);
        }
    }

    /// The payload bytes (two entries a byte, or [`Format::Lines`]). Only for a table nobody
    /// is writing.
    pub fn bytes(&self) -> &[u8] {
        let len = self.format.payload_bytes(self.entries) as usize;
        // SAFETY: ptr is valid for the payload's bytes while self lives; callers use this
        // only on finished tables, so no atomic writes happen concurrently.
        unsafe { std::slice::from_raw_parts(self.ptr, len) }
    }

    /// How many entries read each value 0..15 (index 15 counts [`UNKNOWN`]); for
    /// [`Format::Lines`] the values as read, not the exact ones.
    pub fn value_counts(&self) -> [u64; 16] {
        use rayon::prelude::*;
        let add = |mut a: [u64; 16], b: [u64; 16]| {
            for k in 0..16 {
                a[k] += b[k];
            }
            a
        };
        if self.format != Format::Nibbles {
            // Entry by entry (a 2-bit entry may read its line's minimum), in parallel chunks.
            const CHUNK: u64 = 1 << 22;
            return (0..self.entries.div_ceil(CHUNK))
                .into_par_iter()
                .map(|c| {
                    let mut counts = [0u64; 16];
                    for i in c * CHUNK..((c + 1) * CHUNK).min(self.entries) {
                        counts[self.get(i) as usize] += 1;
                    }
                    counts
                })
                .reduce(|| [0u64; 16], add);
        }
        let bytes = self.bytes();
        let full = (self.entries / 2) as usize;
        let mut counts = bytes[..full]
            .par_chunks(1 << 20)
            .map(|chunk| {
                let mut c = [0u64; 16];
                for &b in chunk {
                    c[(b & 0x0f) as usize] += 1;
                    c[(b >> 4) as usize] += 1;
                }
                c
            })
            .reduce(|| [0u64; 16], add);
        if self.entries % 2 == 1 {
            counts[(bytes[full] & 0x0f) as usize] += 1;
        }
        counts
    }

    /// How many entries of a [`Format::Lines`] table hold each 2-bit code (0: at most the
    /// base; `k`: base + `k`), the past-the-end ones of the last line left out.
    pub fn line_code_counts(&self) -> [u64; 4] {
        use rayon::prelude::*;
        assert!(matches!(self.format, Format::Lines { .. }));
        let n = self.entries;
        self.bytes()
            .par_chunks(64 << 12)
            .enumerate()
            .map(|(c, chunk)| {
                let mut counts = [0u64; 4];
                for (l, line) in chunk.chunks_exact(64).enumerate() {
                    let lo = ((c << 12) + l) as u64 * LINE_ENTRIES;
                    let len = (n - lo).min(LINE_ENTRIES);
                    for j in 0..len {
                        counts[(line[(j >> 2) as usize] >> ((j & 3) * 2)) as usize & 3] += 1;
                    }
                }
                counts
            })
            .reduce(|| [0; 4], |a, b| std::array::from_fn(|k| a[k] + b[k]))
    }

    /// Entries per distance, up to the largest distance present (the table's histogram): the
    /// one recorded by [`NibbleTable::with_histogram`] if any, else counted.
    pub fn histogram(&self) -> Vec<u64> {
        if let Some(h) = &self.histogram {
            return h.clone();
        }
        let counts = self.value_counts();
        let max = (0..15).rev().find(|&d| counts[d] > 0).unwrap_or(0);
        counts[..=max].to_vec()
    }
}

/// Entries of a one-byte-an-entry table at each value (distance), up to the largest present:
/// the histogram of the byte tables of the two-phase and Thistlethwaite solvers.
pub fn byte_histogram(table: &[u8]) -> Vec<u64> {
    let mut h = vec![0u64; 256];
    for &d in table {
        h[d as usize] += 1;
    }
    let len = h.iter().rposition(|&n| n > 0).map_or(0, |d| d + 1);
    h.truncate(len);
    h
}

/// Mean distance of a histogram.
pub fn histogram_mean(h: &[u64]) -> f64 {
    let total: u64 = h.iter().sum();
    let weighted: u64 = h.iter().enumerate().map(|(d, &n)| d as u64 * n).sum();
    if total == 0 {
        0.0
    } else {
        weighted as f64 / total as f64
    }
}

/// `len` bytes (at least one) of zeroed anonymous memory advised to use huge pages, for the
/// tables the search reads at random: 2 MB pages spare most of its TLB misses (about a fifth of
/// the search time with `sym48e4`); 1 GB pages gained nothing more, so the crate does not ask
/// for them (`results/memory-choices.md`).
/// [`huge_page_memory`] of `len` bytes, which `fill` writes.
fn filled_huge_map(
    len: usize,
    fill: impl FnOnce(&mut [u8]) -> std::io::Result<()>,
) -> std::io::Result<memmap2::MmapMut> {
    let mut map = huge_page_memory(len)?;
    fill(&mut map[..len])?;
    Ok(map)
}

/// `len` bytes of read-only [`huge_page_memory`] that `fill` writes: for byte tables read at
/// random (the goal tables). A heap buffer gets no huge pages where the kernel gives them only
/// on advice, and then nearly every lookup of a large table also misses the TLB.
pub fn bytes_in_huge_pages(
    len: usize,
    fill: impl FnOnce(&mut [u8]) -> std::io::Result<()>,
) -> std::io::Result<memmap2::Mmap> {
    filled_huge_map(len, fill)?.make_read_only()
}

/// A copy of `bytes` in [`bytes_in_huge_pages`].
pub fn copy_to_huge_pages(bytes: &[u8]) -> std::io::Result<memmap2::Mmap> {
    bytes_in_huge_pages(bytes.len(), |m| {
        m.copy_from_slice(bytes);
        Ok(())
    })
}

pub(crate) fn huge_page_memory(len: usize) -> std::io::Result<memmap2::MmapMut> {
    let map = memmap2::MmapOptions::new().len(len.max(1)).map_anon()?;
    #[cfg(target_os = "linux")]
    let _ = map.advise(memmap2::Advice::HugePage); // only advice; fine if refused
    Ok(map)
}

/// Asks the CPU to start loading the cache line at `p` (a hint: never faults, any address).
/// Into every cache level: a hint for the outer levels only (T2) read no faster, and a
/// non-temporal one (NTA) slower (`results/memory-choices.md`).
#[inline(always)]
pub(crate) fn prefetch<T>(p: *const T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: prefetch never faults, whatever the address.
    unsafe {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        _mm_prefetch(p as *const i8, _MM_HINT_T0);
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = p;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nibbles_are_independent() {
        let t = NibbleTable::new_unknown(5);
        assert!(t.set_if_unknown(1, 3));
        assert!(!t.set_if_unknown(1, 4));
        assert!(t.set_if_unknown(4, 7));
        assert_eq!((t.load(0), t.load(1), t.load(4)), (UNKNOWN, 3, 7));
        assert_eq!((t.get(0), t.get(1), t.get(4)), (UNKNOWN, 3, 7));
        let c = t.value_counts();
        assert_eq!((c[3], c[7], c[15]), (1, 1, 3));
        assert_eq!(t.bytes().len(), 3);
    }

    /// Lowering a lines table in place gives the bytes of the lines made from a nibble table
    /// lowered the same way, whatever the order of the marks; the code counts follow.
    #[test]
    fn lines_lowered_in_place_equal_lines_made_from_nibbles() {
        let mut rng = crate::cube::Rng::new(71);
        for entries in [1u64, 252, 1000, 2520] {
            let (base, top) = (9, 12);
            let lines = NibbleTable::new_lines_in_huge_pages(entries, base, top).unwrap();
            let nibbles = NibbleTable::new_unknown(entries);
            for _ in 0..entries * 2 {
                let (i, v) = (rng.below(entries), rng.below(top as u64 + 1) as u8);
                lines.lower(i, v);
                nibbles.lower(i, v);
            }
            nibbles.fill_unknown(top);
            assert!(
                lines.bytes() == &nibbles.to_lines(base)[..],
                "{entries} entries"
            );
            let h = nibbles.histogram();
            let low: u64 = h.iter().take(base as usize + 1).sum();
            let at = |v: usize| h.get(v).copied().unwrap_or(0);
            assert_eq!(lines.line_code_counts(), [low, at(10), at(11), at(12)]);
        }
    }

    /// A huge-page table starts unknown; `lower` only ever lowers an entry, leaving its
    /// neighbour in the byte alone, and `fill_unknown` sets only the entries never lowered.
    #[test]
    fn lowering_and_filling() {
        let t = NibbleTable::new_unknown_in_huge_pages(5).unwrap();
        assert!((0..5).all(|i| t.load(i) == UNKNOWN));
        t.lower(1, 9);
        t.lower(1, 11);
        t.lower(2, 4);
        t.lower(2, 2);
        assert_eq!(
            (t.load(0), t.load(1), t.load(2), t.load(3)),
            (UNKNOWN, 9, 2, UNKNOWN)
        );
        t.fill_unknown(12);
        assert_eq!(
            (0..5).map(|i| t.get(i)).collect::<Vec<_>>(),
            [12, 9, 2, 12, 12]
        );
    }

    /// The 2-bit lines read every entry at most at its value: exactly in base+1..base+2, base+3
    /// for anything above, the line's least value for anything at most the base.
    #[test]
    fn lines_read_lower_bounds() {
        let n = 1000u64;
        let mut bytes = vec![0u8; bytes_for(n)];
        let value = |i: u64| ((i * 7919 + i / 300) % 13) as u8;
        for i in 0..n {
            bytes[(i / 2) as usize] |= value(i) << ((i & 1) * 4);
        }
        let t = NibbleTable::from_bytes(bytes, n);
        let base = Format::line_base(&t.histogram());
        let format = Format::Lines { base };
        let lines = NibbleTable::in_huge_pages(&t.to_lines(base), n, format).unwrap();
        assert_eq!(lines.format(), format);
        for i in 0..n {
            let (v, r) = (value(i), lines.get(i));
            let line = i / LINE_ENTRIES * LINE_ENTRIES;
            let line_min = (line..(line + LINE_ENTRIES).min(n))
                .map(value)
                .min()
                .unwrap();
            let want = match v {
                v if v <= base => line_min,
                v => v.min(base + 3),
            };
            assert_eq!(r, want, "entry {i} value {v} base {base}");
        }
        // Base 2: 16 entries at or below it (10 × 16 = 160), 102 above 5: loss 160. Base 3: 56
        // (560) and 2: loss 560. Base 1: 6 (60) and 3,102 above 4.
        assert_eq!(Format::line_base(&[1, 5, 10, 40, 300, 3000, 100, 2]), 2);
        // 30,000 entries at 4 make base 4 cost 300,560; base 2 still loses least (160).
        assert_eq!(Format::line_base(&[1, 5, 10, 40, 30000, 3000, 100, 2]), 2);
        // A top code for many entries: 3,000 above 5 at base 2 (loss 3,000), 56 at or below
        // 3 (560) and nothing above 6 at base 3.
        assert_eq!(Format::line_base(&[1, 5, 10, 40, 300, 300, 3000, 0]), 3);
    }

    /// The histograms of the coset tables (`results/ladder.md`, `results/build-sym48.md`) pick
    /// the bases measured best ([`Format::line_base`]'s docs): 7 for `sym48e0` and `e1`, 8 for
    /// `e2` to `e4`.
    #[test]
    fn coset_tables_get_the_measured_bases() {
        let e0 = [
            1, 1, 4, 34, 331, 3612, 41605, 474128, 4953846, 34776317, 68566704, 8749194, 1673,
        ];
        let e1 = [
            1, 1, 4, 34, 332, 3657, 42743, 497918, 5505943, 46169905, 142367544, 40502455, 44363,
        ];
        let e2 = [
            1, 1, 4, 34, 332, 3701, 43299, 510986, 5872509, 56213794, 255317288, 151315987, 991864,
        ];
        let e3 = [
            1, 1, 4, 34, 332, 3728, 43647, 519568, 6121536, 64086959, 395598078, 460036427,
            14129285,
        ];
        let e4 = [
            1, 1, 4, 34, 332, 3728, 43797, 523694, 6271156, 69670222, 539602979, 1141151586,
            123807821, 3845,
        ];
        let bases = [&e0[..], &e1, &e2, &e3, &e4].map(Format::line_base);
        assert_eq!(bases, [7, 7, 8, 8, 8]);
    }

    /// The parallel count of a 2-bit table (chunks of 2^22 entries) equals the count of its
    /// entries read one by one, across chunk ends and a partial last chunk.
    #[test]
    fn line_value_counts_are_the_values_read() {
        let n = (2u64 << 22) + 1001;
        let mut bytes = vec![0u8; bytes_for(n)];
        for i in 0..n {
            let v = ((i * 2_654_435_761) >> 7) % 12;
            bytes[(i / 2) as usize] |= (v as u8) << ((i & 1) * 4);
        }
        let t = NibbleTable::from_bytes(bytes, n);
        let format = Format::Lines { base: 8 };
        let lines = NibbleTable::in_huge_pages(&t.to_lines(8), n, format).unwrap();
        let mut want = [0u64; 16];
        for i in 0..n {
            want[lines.get(i) as usize] += 1;
        }
        assert_eq!(lines.value_counts(), want);
        assert_eq!(want.iter().sum::<u64>(), n);
    }

    #[test]
    fn histogram_and_mean() {
        let t = NibbleTable::from_bytes(vec![0x10, 0x21], 4);
        assert_eq!(t.histogram(), vec![1, 2, 1]);
        assert_eq!(histogram_mean(&t.histogram()), 1.0);
    }
}
