//! Cell stores: the arrays of distances that the breadth-first search ([`crate::pdb::bfs`]) fills.
//!
//! The search is generic over how an entry is stored; [`Cells`] is what it needs of a store:
//! read an entry, set it if it is still unknown (several threads write at once), list the
//! entries of a range that hold a value, prefetch. Three stores implement it:
//! - [`NibbleTable`] ([`crate::pdb::table`]): 4 bits an entry, exact distances 0..15, the pattern
//!   databases;
//! - [`Mod3Cells`]: 2 bits an entry, the distance mod 3 (value 3 = unknown), the two-phase
//!   solver's two large pruning tables; finished, it becomes a read-only [`Mod3Table`];
//! - [`ByteCells`]: a byte an entry, exact distances, [`UNREACHED`] = unknown: small exact
//!   tables (two-phase corner × slice, Thistlethwaite's phases).
//!
//! Invariant of every store: an entry goes from unknown to a value once and never changes
//! again, and all writers of one BFS layer write the same value; the stores rely on it to make
//! concurrent writes cheap.

use std::sync::atomic::{AtomicU8, AtomicU64, Ordering::Relaxed};

use crate::pdb::table::{NibbleTable, UNKNOWN, copy_to_huge_pages, prefetch};

/// A store of distances that several threads may fill at once.
pub trait Cells: Sync {
    /// Stored value of an entry not reached yet.
    const UNKNOWN: u8;
    /// The stored value of distance `d`, or `None` if the store cannot hold it.
    fn value(d: usize) -> Option<u8>;
    /// Entry `i` while other threads may write the store.
    fn load(&self, i: u64) -> u8;
    /// Sets entry `i` to `v` if it is still unknown; returns whether this call set it. The
    /// entry must be unknown or already `v` (the BFS's invariant).
    fn set_if_unknown(&self, i: u64, v: u8) -> bool;
    /// Appends `i - lo` for every entry `i` in `lo..hi` whose value is `v`.
    fn find(&self, lo: u64, hi: u64, v: u8, out: &mut Vec<u32>);
    /// Asks the CPU to start loading entry `i`.
    fn prefetch(&self, i: u64);
}

impl Cells for NibbleTable {
    const UNKNOWN: u8 = UNKNOWN;
    #[inline(always)]
    fn value(d: usize) -> Option<u8> {
        (d < UNKNOWN as usize).then_some(d as u8)
    }
    #[inline(always)]
    fn load(&self, i: u64) -> u8 {
        NibbleTable::load(self, i)
    }
    #[inline(always)]
    fn set_if_unknown(&self, i: u64, v: u8) -> bool {
        NibbleTable::set_if_unknown(self, i, v)
    }
    #[inline]
    fn find(&self, lo: u64, hi: u64, v: u8, out: &mut Vec<u32>) {
        NibbleTable::find(self, lo, hi, v, out)
    }
    #[inline(always)]
    fn prefetch(&self, i: u64) {
        NibbleTable::prefetch(self, i)
    }
}

/// The marker of an unreached entry in a 2-bit store.
const EMPTY: u8 = 3;
/// Bit 0 of every 2-bit cell of a word.
const LOW_BITS: u64 = 0x5555_5555_5555_5555;

/// Distances mod 3 being built, 2 bits an entry, 32 per word (entry `i` in bits `2*(i%32)` of
/// word `i/32`, which is the byte layout of [`Mod3Table`] on little-endian words).
pub struct Mod3Cells(Vec<AtomicU64>);

impl Mod3Cells {
    /// `entries` unknown entries.
    pub fn new(entries: u64) -> Mod3Cells {
        Mod3Cells(
            (0..entries.div_ceil(32))
                .map(|_| AtomicU64::new(u64::MAX))
                .collect(),
        )
    }

    /// Bit `2k` set iff entry `k` of word `w` holds `v`: lets a scan skip 32 entries at once.
    #[inline(always)]
    fn matches(&self, w: usize, v: u8) -> u64 {
        let x = self.0[w].load(Relaxed) ^ (v as u64 * LOW_BITS);
        !(x | (x >> 1)) & LOW_BITS
    }

    /// The finished table of `entries` entries, with its histogram (entries per exact
    /// distance, as the BFS counted them). Entries never reached stay 3.
    pub fn into_table(self, entries: u64, histogram: Vec<u64>) -> Mod3Table {
        let bytes: Vec<u8> = (self.0.into_iter())
            .flat_map(|w| w.into_inner().to_le_bytes())
            .take(entries.div_ceil(4) as usize)
            .collect();
        Mod3Table::from_bytes(bytes, entries as usize, histogram)
    }
}

impl Cells for Mod3Cells {
    const UNKNOWN: u8 = EMPTY;
    #[inline(always)]
    fn value(d: usize) -> Option<u8> {
        Some((d % 3) as u8)
    }
    #[inline(always)]
    fn load(&self, i: u64) -> u8 {
        ((self.0[(i >> 5) as usize].load(Relaxed) >> ((i & 31) * 2)) & 3) as u8
    }
    /// Clearing bits is enough because unknown is `0b11` and the entry is unknown or `v`.
    #[inline(always)]
    fn set_if_unknown(&self, i: u64, v: u8) -> bool {
        let shift = (i & 31) * 2;
        let prev = self.0[(i >> 5) as usize].fetch_and(!(((EMPTY ^ v) as u64) << shift), Relaxed);
        let prev = ((prev >> shift) & 3) as u8;
        debug_assert!(prev == EMPTY || prev == v, "entry {i}: {prev}, then {v}");
        prev == EMPTY
    }
    #[inline]
    fn find(&self, lo: u64, hi: u64, v: u8, out: &mut Vec<u32>) {
        if lo >= hi {
            return;
        }
        let (first, last) = (lo / 32, (hi - 1) / 32);
        for w in first..=last {
            let mut hits = self.matches(w as usize, v);
            if w == first {
                hits &= u64::MAX << (2 * (lo % 32));
            }
            let end = hi - w * 32;
            if w == last && end < 32 {
                hits &= (1u64 << (2 * end)) - 1;
            }
            while hits != 0 {
                let i = w * 32 + hits.trailing_zeros() as u64 / 2;
                hits &= hits - 1;
                out.push((i - lo) as u32);
            }
        }
    }
    #[inline(always)]
    fn prefetch(&self, i: u64) {
        if let Some(w) = self.0.get((i >> 5) as usize) {
            prefetch(w);
        }
    }
}

/// A finished table of distances mod 3, four entries per byte (entry `i` in bits
/// `2*(i%4)..`), with the entries per exact distance counted when it was built.
///
/// The bytes live in huge-page memory ([`copy_to_huge_pages`]): the phase-1 table (35 MB) is
/// read at random by every node of the two-phase and coset searches, and in 4 KB pages nearly
/// every read would also miss the TLB.
#[derive(Default)]
pub struct Mod3Table {
    bytes: Option<memmap2::Mmap>,
    /// `histogram[d]`: number of entries at distance `d`.
    histogram: Vec<u64>,
}

impl Mod3Table {
    /// Distance mod 3 of entry `i`.
    #[inline(always)]
    pub fn get(&self, i: usize) -> u8 {
        (self.bytes()[i >> 2] >> ((i & 3) * 2)) & 3
    }
    /// Hints that entry `i` will be read soon.
    #[inline(always)]
    pub fn prefetch(&self, i: usize) {
        if let Some(b) = self.bytes().get(i >> 2) {
            prefetch(b);
        }
    }
    /// The packed table (empty before one is built or read).
    #[inline(always)]
    pub fn bytes(&self) -> &[u8] {
        self.bytes.as_deref().unwrap_or(&[])
    }
    /// Entries per exact distance, counted while building.
    pub fn histogram(&self) -> &[u64] {
        &self.histogram
    }
    /// A table read back from its packed bytes (see [`bytes`](Self::bytes)) and the histogram
    /// recorded when it was built. Panics unless `bytes` holds exactly `entries` entries.
    pub fn from_bytes(bytes: Vec<u8>, entries: usize, histogram: Vec<u64>) -> Mod3Table {
        assert_eq!(
            bytes.len(),
            entries.div_ceil(4),
            "2-bit table of {entries} entries"
        );
        // (An empty table keeps no mapping: a mapping is at least one byte long.)
        let bytes = (!bytes.is_empty())
            .then(|| copy_to_huge_pages(&bytes).expect("anonymous memory for a 2-bit table"));
        Mod3Table { bytes, histogram }
    }
}

/// Value of a byte entry never reached.
pub const UNREACHED: u8 = u8::MAX;

/// Exact distances being built, a byte an entry; unknown is [`UNREACHED`].
pub struct ByteCells(Box<[AtomicU8]>);

impl ByteCells {
    /// `entries` unknown entries.
    pub fn new(entries: usize) -> ByteCells {
        ByteCells((0..entries).map(|_| AtomicU8::new(UNREACHED)).collect())
    }

    /// The finished table; entries never reached stay [`UNREACHED`].
    pub fn into_bytes(self) -> Box<[u8]> {
        self.0.into_iter().map(AtomicU8::into_inner).collect()
    }
}

impl Cells for ByteCells {
    const UNKNOWN: u8 = UNREACHED;
    #[inline(always)]
    fn value(d: usize) -> Option<u8> {
        (d < UNREACHED as usize).then_some(d as u8)
    }
    #[inline(always)]
    fn load(&self, i: u64) -> u8 {
        self.0[i as usize].load(Relaxed)
    }
    #[inline(always)]
    fn set_if_unknown(&self, i: u64, v: u8) -> bool {
        self.0[i as usize]
            .compare_exchange(UNREACHED, v, Relaxed, Relaxed)
            .is_ok()
    }
    #[inline]
    fn find(&self, lo: u64, hi: u64, v: u8, out: &mut Vec<u32>) {
        let cells = &self.0[lo as usize..hi as usize];
        out.extend(
            (cells.iter().enumerate())
                .filter(|(_, c)| c.load(Relaxed) == v)
                .map(|(x, _)| x as u32),
        );
    }
    #[inline(always)]
    fn prefetch(&self, i: u64) {
        if let Some(c) = self.0.get(i as usize) {
            prefetch(c);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `find` of every store lists exactly the entries of any range holding a value (the
    /// nibble table's odd and even halves of a byte included).
    fn check_find<C: Cells>(cells: &C, values: &[u8]) {
        for (i, &v) in values.iter().enumerate() {
            if v != C::UNKNOWN {
                assert!(cells.set_if_unknown(i as u64, v));
                assert!(!cells.set_if_unknown(i as u64, v));
            }
        }
        for lo in 0..values.len() {
            for hi in lo..=values.len() {
                for v in [0, 1, 2, 3, C::UNKNOWN] {
                    let mut out = Vec::new();
                    cells.find(lo as u64, hi as u64, v, &mut out);
                    let want: Vec<u32> = (lo..hi)
                        .filter(|&i| values[i] == v)
                        .map(|i| (i - lo) as u32)
                        .collect();
                    assert_eq!(out, want, "{lo}..{hi} value {v}");
                }
            }
        }
        for (i, &v) in values.iter().enumerate() {
            assert_eq!(cells.load(i as u64), v);
        }
    }

    #[test]
    fn stores_find_their_entries() {
        let values: Vec<u8> = (0..75u32).map(|i| (i * 7 % 5) as u8).collect();
        let mod3: Vec<u8> = values.iter().map(|&v| v.min(3)).collect();
        check_find(&Mod3Cells::new(mod3.len() as u64), &mod3);
        let bytes: Vec<u8> = values
            .iter()
            .map(|&v| if v == 4 { 255 } else { v })
            .collect();
        check_find(&ByteCells::new(bytes.len()), &bytes);
        let nibbles: Vec<u8> = values
            .iter()
            .map(|&v| if v == 4 { 15 } else { v })
            .collect();
        check_find(&NibbleTable::new_unknown(nibbles.len() as u64), &nibbles);
    }

    #[test]
    fn mod3_table_keeps_the_packed_layout() {
        let cells = Mod3Cells::new(6);
        for (i, v) in [0u8, 1, 2, 0, 1].into_iter().enumerate() {
            cells.set_if_unknown(i as u64, v);
        }
        let t = cells.into_table(6, vec![2, 2, 1]);
        // Entry 5 was never reached: 3, like the padding.
        assert_eq!(t.bytes(), &[0b00_10_01_00, 0b11_11_11_01]);
        assert_eq!(
            (0..6).map(|i| t.get(i)).collect::<Vec<_>>(),
            [0, 1, 2, 0, 1, 3]
        );
        assert_eq!(t.histogram(), &[2, 2, 1]);
    }
}
