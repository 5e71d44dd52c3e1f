//! The one table type: 4 bits per entry, two entries a byte (entry `2k` in the low nibble).
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
    /// Kept only to keep the mapping alive; reads go through `NibbleTable::ptr`.
    Mapped(#[allow(dead_code)] memmap2::Mmap),
}

/// A table of `entries` 4-bit values.
pub struct NibbleTable {
    storage: Storage,
    /// Start of the payload bytes, valid for `(entries + 1) / 2` bytes while `storage` lives.
    ptr: *const u8,
    entries: u64,
}

// SAFETY: the pointer targets memory owned by `storage`, which is Send + Sync; all shared
// mutation goes through `AtomicU8`.
unsafe impl Send for NibbleTable {}
unsafe impl Sync for NibbleTable {}

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
        }
    }

    /// A read-only table over a mapped file; the payload starts `offset` bytes in.
    pub fn from_mmap(map: memmap2::Mmap, offset: usize, entries: u64) -> NibbleTable {
        assert!(map.len() >= offset + bytes_for(entries));
        // SAFETY: offset is within the mapping (checked above).
        let ptr = unsafe { map.as_ptr().add(offset) };
        NibbleTable {
            storage: Storage::Mapped(map),
            ptr,
            entries,
        }
    }

    /// Number of entries.
    pub fn entries(&self) -> u64 {
        self.entries
    }

    /// A read-only copy of `bytes` in anonymous memory advised to use huge pages: the search
    /// looks entries up at random, and 2 MB pages spare most of its TLB misses.
    pub fn in_huge_pages(bytes: &[u8], entries: u64) -> std::io::Result<NibbleTable> {
        assert_eq!(bytes.len(), bytes_for(entries));
        Self::filled_in_huge_pages(entries, |payload| {
            payload.copy_from_slice(bytes);
            Ok(())
        })
    }

    /// A read-only table in huge-page memory (see [`NibbleTable::in_huge_pages`]) whose
    /// `bytes_for(entries)` payload bytes `fill` writes, e.g. straight from a file, so that no
    /// second copy of the table is ever resident.
    pub fn filled_in_huge_pages(
        entries: u64,
        fill: impl FnOnce(&mut [u8]) -> std::io::Result<()>,
    ) -> std::io::Result<NibbleTable> {
        let len = bytes_for(entries);
        let mut map = huge_page_memory(len)?;
        fill(&mut map[..len])?;
        let map = map.make_read_only()?;
        Ok(Self::from_mmap(map, 0, entries))
    }

    /// Entry `i` of a finished (read-only) table. The search's lookup.
    #[inline(always)]
    pub fn get(&self, i: u64) -> u8 {
        debug_assert!(i < self.entries);
        // SAFETY: i < entries, so the byte is inside the payload. Finished tables are not
        // written any more, so a plain read does not race.
        let byte = unsafe { *self.ptr.add((i >> 1) as usize) };
        (byte >> ((i & 1) * 4)) & 0x0f
    }

    /// Asks the CPU to start loading the cache line holding entry `i`.
    #[inline(always)]
    pub fn prefetch(&self, i: u64) {
        prefetch(self.ptr.wrapping_add((i >> 1) as usize));
    }

    fn atomics(&self) -> &[AtomicU8] {
        match &self.storage {
            Storage::Heap(b) => b,
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

    /// The payload bytes (two entries a byte). Only for a table nobody is writing.
    pub fn bytes(&self) -> &[u8] {
        // SAFETY: ptr is valid for bytes_for(entries) bytes while self lives; callers use this
        // only on finished tables, so no atomic writes happen concurrently.
        unsafe { std::slice::from_raw_parts(self.ptr, bytes_for(self.entries)) }
    }

    /// How many entries have each value 0..15 (index 15 counts [`UNKNOWN`]).
    pub fn value_counts(&self) -> [u64; 16] {
        use rayon::prelude::*;
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
            .reduce(
                || [0u64; 16],
                |mut a, b| {
                    for k in 0..16 {
                        a[k] += b[k];
                    }
                    a
                },
            );
        if self.entries % 2 == 1 {
            counts[(bytes[full] & 0x0f) as usize] += 1;
        }
        counts
    }

    /// Entries per distance, up to the largest distance present (the table's histogram).
    pub fn histogram(&self) -> Vec<u64> {
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
/// tables the search reads at random: 2 MB pages spare most of its TLB misses.
pub(crate) fn huge_page_memory(len: usize) -> std::io::Result<memmap2::MmapMut> {
    let map = memmap2::MmapOptions::new().len(len.max(1)).map_anon()?;
    #[cfg(target_os = "linux")]
    let _ = map.advise(memmap2::Advice::HugePage); // only advice; fine if refused
    Ok(map)
}

/// Asks the CPU to start loading the cache line at `p` (a hint: never faults, any address).
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

    #[test]
    fn histogram_and_mean() {
        let t = NibbleTable::from_bytes(vec![0x10, 0x21], 4);
        assert_eq!(t.histogram(), vec![1, 2, 1]);
        assert_eq!(histogram_mean(&t.histogram()), 1.0);
    }
}
