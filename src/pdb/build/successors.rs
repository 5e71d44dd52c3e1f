//! The corner successor table: for every corner position, the corner-table values of its 18
//! children, in one 32-bit word.
//!
//! The search reads the corner table for every child it generates, about 13 random reads of
//! the 44 MB table per expanded node, more than half of all its memory reads. This table is
//! derived from the corner table in memory and answers all 18
//! children of a node with one read: word `i` (the corner table's index, `corners * 2187 +
//! twist`) holds, for each move `m`, the child's value minus the node's own value plus one, a
//! digit 0, 1 or 2, as the base-3 number `Σ digit_m · 3^m` (3^18 < 2^29). A move changes a
//! corner-table value by at most one (each value is a distance in the corner group, where a
//! move is one step), so the digits always fit; the derivation checks it.
//!
//! The values read this way are exactly the corner table's, so the search prunes exactly the
//! same nodes with or without this table; only the node's own value must be known, which the
//! search carries from parent to child. Size: 8!·3^7 words, 352.7 MB.
//!
//! Deriving it takes about 5 s on one core, most of a short solve's start, so a solver that
//! opens its tables from a directory keeps it there ([`crate::pdb::derived`], named after the
//! corner table's checksum) and later processes read it back in a fraction of a second.

use crate::coord::{MoveTables, N_MOVES, N_PERM8, N_TWIST};
use crate::pdb::derived::{Derived, Origin, open_or_derive};
use crate::pdb::file::TableError;
use crate::pdb::huge::{FrozenArray, HugeArray};
use crate::pdb::table::prefetch;
use crate::pdb::{NibbleTable, Pattern};
use crate::progress::Progress;
use rayon::prelude::*;
use std::path::Path;

/// Words in the table: one per corner position.
pub const ENTRIES: usize = N_PERM8 * N_TWIST;

/// Bytes of the table in memory.
pub const BYTES: u64 = ENTRIES as u64 * 4;

/// `3^m` for each move `m`.
const POW3: [u32; N_MOVES] = {
    let mut p = [1; N_MOVES];
    let mut m = 1;
    while m < N_MOVES {
        p[m] = p[m - 1] * 3;
        m += 1;
    }
    p
};

/// Nine base-3 digits (a number below 3^9) spread to two bits each: the decoding of one half
/// of a word, by one lookup in this 77 KB table instead of nine divisions.
const HALF: u32 = 19683;
static SPREAD: [u32; HALF as usize] = {
    let mut t = [0; HALF as usize];
    let mut x = 0;
    while x < HALF as usize {
        let (mut rest, mut spread, mut k) = (x as u32, 0, 0);
        while k < 9 {
            spread |= (rest % 3) << (2 * k);
            rest /= 3;
            k += 1;
        }
        t[x] = spread;
        x += 1;
    }
    t
};

/// The derived table, in read-only huge-page memory (the search reads it at random).
pub struct CornerSuccessors {
    words: FrozenArray<u32>,
}

/// The table as a derived file: bump the version when the words' meaning changes (the move
/// order, the digits' encoding).
const DERIVED: Derived = Derived {
    name: "corner-successors",
    version: 1,
    len: ENTRIES,
    // A short solve with the smallest set that holds the corner table derives it.
    rebuild: "optcube solve \"R U\" --set korf6 --pdb-dir {dir}",
};

impl CornerSuccessors {
    /// The table of `corners`, read from `dir` where an earlier process kept it, or else
    /// derived ([`Self::derive`]) and kept there; without `dir`, derived.
    ///
    /// # Errors
    /// A kept file that is damaged (refused, naming it), or no memory for the table.
    pub fn open_or_derive(
        dir: Option<&Path>,
        corners: &NibbleTable,
        progress: &Progress,
    ) -> Result<(Self, Origin), TableError> {
        let (words, origin) = open_or_derive(dir, &DERIVED, corners.bytes(), || {
            Ok(Self::derive(corners, progress)?.words)
        })?;
        Ok((CornerSuccessors { words }, origin))
    }

    /// Derives the table from a finished corner table (on the current rayon pool), reporting
    /// the corner permutations done to `progress`.
    ///
    /// # Panics
    /// If `corners` is not a finished corner table: a child whose value differs from its
    /// parent's by more than one, or an entry still unknown.
    pub fn derive(corners: &NibbleTable, progress: &Progress) -> std::io::Result<Self> {
        assert_eq!(corners.entries(), Pattern::CORNERS.entries());
        let mt = MoveTables::get();
        // The twist move table by move, so that the inner loop walks it in order.
        let twist_by_move: Vec<Vec<u16>> = (0..N_MOVES)
            .map(|m| (0..N_TWIST).map(|t| mt.twist[t * N_MOVES + m]).collect())
            .collect();
        let mut words = HugeArray::<u32>::zeroed(ENTRIES)?;
        words
            .par_chunks_mut(N_TWIST)
            .enumerate()
            .for_each(|(perm, row)| {
                // All positions with corner permutation `perm`: the children by move `m` have
                // permutation `mt.corners[perm][m]` and twist `twist_by_move[m][twist]`.
                let own: Vec<u8> = (0..N_TWIST)
                    .map(|t| corners.get((perm * N_TWIST + t) as u64))
                    .collect();
                row.fill(0);
                for (m, twists) in twist_by_move.iter().enumerate() {
                    let child = (mt.corners[perm * N_MOVES + m] as usize * N_TWIST) as u64;
                    for ((word, &h), &t) in row.iter_mut().zip(&own).zip(twists) {
                        let digit = (corners.get(child + t as u64) + 1).wrapping_sub(h);
                        assert!(digit < 3 && h < 15, "not a finished corner table");
                        *word += digit as u32 * POW3[m];
                    }
                }
                progress.add(1, "");
            });
        Ok(CornerSuccessors {
            words: words.freeze()?,
        })
    }

    /// Asks the CPU to start loading word `i`.
    #[inline(always)]
    pub fn prefetch(&self, i: u64) {
        prefetch(self.words.as_ptr().wrapping_add(i as usize));
    }

    /// Writes the corner-table value of the child by each move `m` into `values[m]`, for the
    /// corner position `i` (corner-table index) whose own value is `h`.
    #[inline(always)]
    pub fn children(&self, i: u64, h: u8, values: &mut [u8]) {
        debug_assert!(i < ENTRIES as u64);
        // SAFETY: i < ENTRIES (a corner-table index), the words in the array.
        let word = unsafe { *self.words.get_unchecked(i as usize) };
        let digits =
            SPREAD[(word % HALF) as usize] as u64 | (SPREAD[(word / HALF) as usize] as u64) << 18;
        for (m, v) in values[..N_MOVES].iter_mut().enumerate() {
            // h + digit - 1 >= 0: the digit is 0 only for a parent value above 0.
            *v = (h + (digits >> (2 * m) & 3) as u8).wrapping_sub(1);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::coord;
    use crate::cube::{Cube, Move, Rng};
    use crate::progress::ProgressMode;
    use crate::testing::korf6_table;

    fn derived() -> &'static CornerSuccessors {
        static S: std::sync::OnceLock<CornerSuccessors> = std::sync::OnceLock::new();
        S.get_or_init(|| {
            let p = Progress::new(ProgressMode::Hidden, "successors", N_PERM8 as u64, "");
            CornerSuccessors::derive(korf6_table(Pattern::CORNERS), &p).unwrap()
        })
    }

    /// Every child's value read from the successor word is the corner table's value of the
    /// child cube, for random positions and for positions near solved (small values, where
    /// a digit 0 would underflow if it were wrong).
    #[test]
    fn children_values_are_the_corner_table_values() {
        let table = korf6_table(Pattern::CORNERS);
        let s = derived();
        let mut rng = Rng::new(5);
        let near: Vec<Cube> = Move::all().map(|m| Cube::SOLVED.apply(m)).collect();
        let positions = (0..5000)
            .map(|_| Cube::random(&mut rng))
            .chain(near)
            .chain([Cube::SOLVED]);
        for p in positions {
            let i = coord::corners(&p.cp()) as u64 * N_TWIST as u64 + coord::twist(&p.co()) as u64;
            let h = table.get(i);
            let mut values = [0u8; N_MOVES];
            s.children(i, h, &mut values);
            for m in Move::all() {
                let child = p.compose(m.cube());
                let j = coord::corners(&child.cp()) as u64 * N_TWIST as u64
                    + coord::twist(&child.co()) as u64;
                assert_eq!(values[m.index()], table.get(j), "{m:?}");
            }
        }
    }

    /// A table that is not a finished corner table (a value jumping by two) is refused.
    #[test]
    #[should_panic(expected = "not a finished corner table")]
    fn a_damaged_corner_table_is_refused() {
        let table = korf6_table(Pattern::CORNERS);
        let mut bytes = table.bytes().to_vec();
        bytes[0] = bytes[0] & 0xf0 | 9; // solved becomes 9; its children stay at 1
        let bad = NibbleTable::from_bytes(bytes, table.entries());
        let p = Progress::new(ProgressMode::Hidden, "successors", N_PERM8 as u64, "");
        let _ = CornerSuccessors::derive(&bad, &p);
    }
}
