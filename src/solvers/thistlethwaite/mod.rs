//! Thistlethwaite's four-phase solver, with an exact distance table for every phase.
//!
//! The solver walks a position down the chain of subgroups
//!
//! ```text
//! G0 = <U, D, L, R, F, B>  ⊃  G1 = <U, D, L, R, F2, B2>  ⊃  G2 = <U, D, L2, R2, F2, B2>
//!    ⊃  G3 = <U2, D2, L2, R2, F2, B2>  ⊃  G4 = {solved}
//! ```
//!
//! Phase `k` (0-based) takes a position `p` of `G_k` into `G_{k+1}` using only the generators of
//! `G_k`. Whether `p·s` lies in `G_{k+1}` depends only on the right coset `G_{k+1}·p` (in this
//! crate `p·m` is "apply `m` to `p`", and `h·p` relabels `p`'s pieces by `h`). So each phase has
//! a *coordinate*: a number that is unchanged by `p ↦ h·p` for every `h` in `G_{k+1}` (it only
//! sees which *class* of piece sits where, never which piece of a class `G_{k+1}` can exchange)
//! and that tells different cosets apart. The phase table, indexed by that coordinate, holds the
//! exact number of `G_k` moves to reach `G_{k+1}`; it is built by breadth-first search from the
//! solved cube with `G_k`'s generators (the generator sets are closed under inverses, so distance
//! from solved and distance to solved agree).
//!
//! | phase | coordinate                                            | entries     | max |
//! |-------|-------------------------------------------------------|------------:|----:|
//! | 1     | edge flips (Kociemba's: only F, B quarter turns flip) |       2,048 |   7 |
//! | 2     | corner twists × positions of the 4 E-slice edges      | 2,187 × 495 |  10 |
//! | 3     | corner coset of the squares group × M-slice edges     |    420 × 70 |  13 |
//! | 4     | corner and edge permutation inside `G3`               |  96 × 6,912 |  15 |
//!
//! Phase 3's corner part: the corner permutations the half turns generate form a group `H` of
//! 96 elements. Phase 3 must bring the corner permutation into `H`, so its corner coordinate is
//! the coset `H·π` of the corner permutation `π`: 8!/96 = 420 of them, which are the 70 ways to
//! split the corners into the two tetrads times 6 classes of tetrad parity and relative twist
//! (the packing Jaap Scherphuis's program computes by hand). Here the coset of each of the 8!
//! permutations is found once by enumerating `H·π`, so the coordinate is right by construction.
//!
//! Phase 4 indexes `G3` itself: the index of the corner permutation in `H` (96) times the three
//! slices' edge permutations (4!·4!·4!), halved because every half turn is an even permutation of
//! the edges (two 2-cycles), so the last slice's parity is fixed by the other two.
//!
//! Invariants: every table entry is a distance, `0..=15`; each table has exactly one entry at
//! distance 0 (the coset of the solved cube) and no unreached entry — the tests check both, and
//! that the sizes and maxima equal the published 2,048/7, 1,082,565/10, 29,400/13, 663,552/15.
//! A solution is the concatenation of the four optimal phase solutions, merged where adjacent
//! moves turn the same face ([`crate::cube::push_merged`]); it never exceeds 7 + 10 + 13 + 15 = 45 moves.
//!
//! The parts: `coordinates` (the phase coordinates and the group-`H` corner cosets), `tables`
//! (building the phase tables by breadth-first search, and their files), and this module (the
//! solver: checking tables, solving phase by phase).

mod coordinates;
mod tables;
#[cfg(test)]
mod tests;

pub use tables::table_kind;

use crate::cube::{Cube, CubeError, Move, merge_target, push_merged};
use crate::pdb::cells::UNREACHED;
use coordinates::*;
use tables::build_table;

/// Number of phases.
pub const PHASES: usize = 4;

/// Entries in each phase table: the number of cosets `[G_k : G_{k+1}]`.
pub const PHASE_SIZES: [usize; PHASES] = [
    EO_SIZE,
    CO_SIZE * E_SLICE_SIZE,
    CORNER_COSETS * M_SLICE_SIZE,
    SQUARES_CORNERS * SQUARES_EDGES,
];

/// Longest optimal phase solutions, as published (Thistlethwaite; Scherphuis). The tests check
/// that the built tables reach exactly these maxima.
pub const PHASE_MAX_DISTANCES: [u8; PHASES] = [7, 10, 13, 15];

/// Short names for the phase tables, for table files and reports.
pub const PHASE_NAMES: [&str; PHASES] = [
    "thistlethwaite-1-eo",
    "thistlethwaite-2-co-eslice",
    "thistlethwaite-3-tetrads-mslice",
    "thistlethwaite-4-squares",
];

/// What each phase table indexes, for table file headers.
const PHASE_PIECES: [&str; PHASES] = [
    "edge flips",
    "corner twists x E-slice edge positions",
    "corner cosets of the squares group x M-slice edge positions",
    "corner and edge permutation inside G3",
];

/// Version of the phase tables' contents in table files. Bump it whenever a coordinate changes,
/// so that files written before are refused as stale instead of being read as wrong distances.
pub const TABLE_VERSION: u32 = 1;

/// Thistlethwaite's solver: the four phase tables, in memory.
pub struct Thistlethwaite {
    corners: &'static SquaresCorners,
    tables: [Box<[u8]>; PHASES],
}

/// A Thistlethwaite solution.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ThistleSolution {
    /// The whole solution, with moves on the same face merged across phase boundaries.
    pub moves: Vec<Move>,
    /// Length of each phase's optimal solution, before merging.
    pub phase_lengths: [usize; PHASES],
    /// The four phase solutions before merging, concatenated (see [`ThistleSolution::phase`]).
    pub unmerged: Vec<Move>,
}

impl ThistleSolution {
    /// The moves of phase `k` (0-based), before merging.
    pub fn phase(&self, k: usize) -> &[Move] {
        let start: usize = self.phase_lengths[..k].iter().sum();
        &self.unmerged[start..start + self.phase_lengths[k]]
    }
}

/// Why tables handed to [`Thistlethwaite::from_tables`] were refused (`phase` is 0-based, the
/// messages count from 1).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PhaseTableError {
    #[error("phase {} table has {found} entries, expected {expected}", .phase + 1)]
    Size {
        phase: usize,
        found: usize,
        expected: usize,
    },
    #[error("phase {} table entry {index} is {value}, not a distance", .phase + 1)]
    Entry {
        phase: usize,
        index: usize,
        value: u8,
    },
}

impl Default for Thistlethwaite {
    fn default() -> Self {
        Thistlethwaite::new()
    }
}

impl Thistlethwaite {
    /// Builds the four phase tables by breadth-first search (1–2 s; see the `timing` test).
    pub fn new() -> Thistlethwaite {
        let corners = SquaresCorners::get();
        // Phase 2's search is the longest (about 3/4 of the work): give it a thread of its own.
        let (t1, (t0, (t2, t3))) = rayon::join(
            || build_table(corners, 1),
            || {
                (
                    build_table(corners, 0),
                    rayon::join(|| build_table(corners, 2), || build_table(corners, 3)),
                )
            },
        );
        Thistlethwaite {
            corners,
            tables: [t0, t1, t2, t3],
        }
    }

    /// A solver over tables built earlier (e.g. read from a table file). Checks their sizes and
    /// that every entry is within the phase's maximum distance; it does not re-check the
    /// distances themselves (that is a table build).
    pub fn from_tables(tables: [Box<[u8]>; PHASES]) -> Result<Thistlethwaite, PhaseTableError> {
        for (phase, t) in tables.iter().enumerate() {
            if t.len() != PHASE_SIZES[phase] {
                return Err(PhaseTableError::Size {
                    phase,
                    found: t.len(),
                    expected: PHASE_SIZES[phase],
                });
            }
            if let Some(index) = t.iter().position(|&d| d > PHASE_MAX_DISTANCES[phase]) {
                return Err(PhaseTableError::Entry {
                    phase,
                    index,
                    value: t[index],
                });
            }
        }
        Ok(Thistlethwaite {
            corners: SquaresCorners::get(),
            tables,
        })
    }

    /// Phase `phase`'s distance table (one byte per coordinate value, [`PHASE_SIZES`] entries).
    pub fn table(&self, phase: usize) -> &[u8] {
        &self.tables[phase]
    }

    /// Entries of phase `phase`'s table at each distance.
    pub fn histogram(&self, phase: usize) -> Vec<u64> {
        crate::pdb::table::byte_histogram(self.table(phase))
    }

    /// Phase `phase`'s coordinate of `cube`, which must lie in `G_phase`.
    #[inline]
    pub fn coordinate(&self, phase: usize, cube: &Cube) -> usize {
        coordinate(self.corners, phase, cube)
    }

    /// Number of `G_phase` moves from `cube` (in `G_phase`) into `G_{phase+1}`.
    #[inline]
    pub fn distance(&self, phase: usize, cube: &Cube) -> u8 {
        self.tables[phase][self.coordinate(phase, cube)]
    }

    /// Solves a valid position; panics on an invalid one (see [`Thistlethwaite::try_solve`]).
    pub fn solve(&self, cube: &Cube) -> ThistleSolution {
        self.try_solve(cube)
            .unwrap_or_else(|e| panic!("Thistlethwaite::solve: not a reachable position: {e}"))
    }

    /// Solves `cube`, or says why it is not a reachable position.
    pub fn try_solve(&self, cube: &Cube) -> Result<ThistleSolution, CubeError> {
        cube.validate()?;
        let mut unmerged = Vec::with_capacity(48);
        let mut moves = Vec::with_capacity(48);
        let mut phase_lengths = [0; PHASES];
        let mut c = *cube;
        for (phase, len) in phase_lengths.iter_mut().enumerate() {
            let before = unmerged.len();
            self.solve_phase(phase, &mut c, &mut unmerged, &mut moves);
            *len = unmerged.len() - before;
        }
        debug_assert!(c.is_solved());
        Ok(ThistleSolution {
            moves,
            phase_lengths,
            unmerged,
        })
    }

    /// Walks phase `phase`'s table from `cube` (in `G_phase`) down to distance 0, applying each
    /// move to `cube` and recording it in `unmerged` and, merged, in `merged`. Every step takes a
    /// move that lowers the exact distance by one, so the phase solution is optimal. Among those
    /// moves it prefers, at no cost to optimality, one that merges with the previous phase's last
    /// move, and for the phase's last move one that leaves less work for the next phases.
    fn solve_phase(
        &self,
        phase: usize,
        cube: &mut Cube,
        unmerged: &mut Vec<Move>,
        merged: &mut Vec<Move>,
    ) {
        let table = &self.tables[phase];
        let mut d = table[self.coordinate(phase, cube)];
        assert_ne!(
            d,
            UNREACHED,
            "phase {} coordinate not in the table",
            phase + 1
        );
        while d > 0 {
            // (estimated moves still to come, move, position after it); lowest estimate wins,
            // the first in move order among equals.
            let mut best: Option<(i32, Move, Cube)> = None;
            for m in phase_moves(phase) {
                let next = cube.apply(m);
                if table[self.coordinate(phase, &next)] != d - 1 {
                    continue;
                }
                let later = if d == 1 {
                    self.later_distance(phase + 1, &next)
                } else {
                    0
                };
                let saved = merge_target(merged, m).is_some() as i32;
                let estimate = later as i32 - saved;
                if best.is_none_or(|(b, _, _)| estimate < b) {
                    best = Some((estimate, m, next));
                }
            }
            let (_, m, next) = best.expect("an exact distance table always has a move one closer");
            *cube = next;
            unmerged.push(m);
            push_merged(merged, m);
            d -= 1;
        }
    }

    /// Distance in the first phase from `from` on that still has work to do on `cube` (which is
    /// in `G_from`), or 0 if `cube` is solved: a cheap estimate of the moves left after a phase.
    fn later_distance(&self, from: usize, cube: &Cube) -> u8 {
        (from..PHASES)
            .map(|k| self.distance(k, cube))
            .find(|&d| d > 0)
            .unwrap_or(0)
    }
}
