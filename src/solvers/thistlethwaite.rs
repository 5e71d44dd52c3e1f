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
//! moves turn the same face ([`push_merged`]); it never exceeds 7 + 10 + 13 + 15 = 45 moves.

use std::path::{Path, PathBuf};

use rayon::prelude::*;

use crate::cube::{Cube, CubeError, Face, Move};
use crate::pdb::file::{self, TableError as FileError, TableKind};
use crate::pdb::generate::UNREACHED;
use crate::rank::{PartialPerm, binomial, permutation, rank_digits};

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

const EO_SIZE: usize = 1 << 11;
const CO_SIZE: usize = 2187; // 3^7
const E_SLICE_SIZE: usize = binomial(12, 4) as usize; // 495
const CORNER_COSETS: usize = 420; // 8! / 96
const M_SLICE_SIZE: usize = binomial(8, 4) as usize; // 70
const SQUARES_CORNERS: usize = 96;
const SQUARES_EDGES: usize = 24 * 24 * 12;

const CORNER_PERMS: usize = 40320; // 8!
const CORNER_PERM: PartialPerm = permutation(8);
const SLICE_PERM: PartialPerm = permutation(4);

// ---- phase generators ----------------------------------------------------------------------

/// Bit set of the moves (by [`Move::index`]) that generate `G_k`, for `k` in `0..4`: every half
/// turn, plus quarter turns of the faces listed.
const PHASE_MOVE_MASKS: [u32; PHASES] = [
    generators(&[Face::U, Face::R, Face::F, Face::D, Face::L, Face::B]),
    generators(&[Face::U, Face::D, Face::L, Face::R]),
    generators(&[Face::U, Face::D]),
    generators(&[]),
];

const fn generators(quarter_faces: &[Face]) -> u32 {
    let mut mask = 0u32;
    let mut f = 0;
    while f < 6 {
        mask |= 1 << (f * 3 + 1); // X2
        f += 1;
    }
    let mut i = 0;
    while i < quarter_faces.len() {
        let f = quarter_faces[i] as u32;
        mask |= (1 << (f * 3)) | (1 << (f * 3 + 2)); // X and X'
        i += 1;
    }
    mask
}

/// The moves phase `phase` may use: the generators of `G_phase`, in index order.
pub fn phase_moves(phase: usize) -> impl Iterator<Item = Move> + Clone {
    let mut bits = PHASE_MOVE_MASKS[phase];
    std::iter::from_fn(move || {
        (bits != 0).then(|| {
            let i = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            Move::from_index(i)
        })
    })
}

// ---- edge slices ---------------------------------------------------------------------------

const M: u8 = 0; // between L and R: UF UB DF DB
const S: u8 = 1; // between F and B: UR UL DR DL
const E: u8 = 2; // between U and D: FR FL BL BR

/// The slice of each edge position (and of each edge piece at home there), in the order
/// UR UF UL UB DR DF DL DB FR FL BL BR. Half turns keep every edge in its slice.
const EDGE_SLICE: [u8; 12] = [S, M, S, M, S, M, S, M, E, E, E, E];
/// Each edge's place (0..4) in its slice, in position order.
const EDGE_SLOT: [u8; 12] = [0, 0, 1, 1, 2, 2, 3, 3, 0, 1, 2, 3];

/// `C(n, k)` for `n < 12`, `k <= 4`, for ranking 4-element subsets.
const BINOM: [[u16; 5]; 12] = {
    let mut t = [[0u16; 5]; 12];
    let mut n = 0;
    while n < 12 {
        let mut k = 0;
        while k < 5 {
            t[n][k] = binomial(n, k) as u16;
            k += 1;
        }
        n += 1;
    }
    t
};

/// Rank (combinatorial number system) of a 4-element set of positions given as a bit set:
/// dense in `0..C(n, 4)` when the positions are below `n`.
#[inline(always)]
fn rank_4_subset(mut set: u16) -> usize {
    debug_assert_eq!(set.count_ones(), 4);
    let mut r = 0;
    let mut k = 1;
    while set != 0 {
        r += BINOM[set.trailing_zeros() as usize][k] as usize;
        k += 1;
        set &= set - 1;
    }
    r
}

// ---- the squares group's corners -------------------------------------------------------------

/// The corner permutations of `G3` and the cosets of all corner permutations modulo them.
struct SquaresCorners {
    /// For each corner-permutation rank, the coset `H·π` it lies in (`0..420`).
    coset: Box<[u16]>,
    /// For each corner-permutation rank, its index in `H` (`0..96`), or [`UNREACHED`].
    index: Box<[u8]>,
}

impl SquaresCorners {
    fn new() -> SquaresCorners {
        // H: closure of the identity under the six half turns' corner permutations.
        let half_turns: Vec<[u8; 8]> = phase_moves(3).map(|m| m.cube().cp()).collect();
        let mut group: Vec<[u8; 8]> = vec![Cube::SOLVED.cp()];
        let mut index = vec![UNREACHED; CORNER_PERMS].into_boxed_slice();
        index[CORNER_PERM.rank(&group[0]) as usize] = 0;
        let mut next = 0;
        while next < group.len() {
            let p = group[next];
            next += 1;
            for g in &half_turns {
                let q: [u8; 8] = std::array::from_fn(|i| p[g[i] as usize]);
                let r = CORNER_PERM.rank(&q) as usize;
                if index[r] == UNREACHED {
                    index[r] = group.len() as u8;
                    group.push(q);
                }
            }
        }
        assert_eq!(
            group.len(),
            SQUARES_CORNERS,
            "half turns generate 96 corner permutations"
        );

        // Cosets H·π: relabel π's pieces by every h in H (`(h·π)[i] = h[π[i]]`).
        let mut coset = vec![u16::MAX; CORNER_PERMS].into_boxed_slice();
        let mut count = 0u16;
        let mut pi = [0u8; 8];
        for r in 0..CORNER_PERMS {
            if coset[r] != u16::MAX {
                continue;
            }
            CORNER_PERM.unrank(r as u64, &mut pi);
            for h in &group {
                let q: [u8; 8] = std::array::from_fn(|i| h[pi[i] as usize]);
                coset[CORNER_PERM.rank(&q) as usize] = count;
            }
            count += 1;
        }
        assert_eq!(count as usize, CORNER_COSETS, "8!/96 cosets");
        SquaresCorners { coset, index }
    }
}

// ---- the solver ----------------------------------------------------------------------------

/// Thistlethwaite's solver: the four phase tables, in memory.
pub struct Thistlethwaite {
    corners: SquaresCorners,
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
        let corners = SquaresCorners::new();
        // Phase 2's search is the longest (about 3/4 of the work): give it a thread of its own.
        let (t1, (t0, (t2, t3))) = rayon::join(
            || build_table(&corners, 1),
            || {
                (
                    build_table(&corners, 0),
                    rayon::join(|| build_table(&corners, 2), || build_table(&corners, 3)),
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
            corners: SquaresCorners::new(),
            tables,
        })
    }

    /// Opens the solver with its four phase tables kept in `dir` (created if needed) as table
    /// files `NAME.pdb`, names from [`PHASE_NAMES`]: each existing file is loaded and checked,
    /// each missing one is built and written atomically. A file that cannot be used (damaged,
    /// truncated, stale, another table's, or holding entries that are not distances) is an error
    /// naming it and the command that rebuilds it; it is never overwritten.
    pub fn open(dir: &Path) -> Result<Thistlethwaite, FileError> {
        let mut tables: [Option<Box<[u8]>>; PHASES] = Default::default();
        for (phase, slot) in tables.iter_mut().enumerate() {
            let path = Self::table_path(dir, phase);
            if file::is_present(&path)? {
                let (bytes, _) = file::load_vec(&path, &table_kind(phase))?;
                *slot = Some(bytes.into_boxed_slice());
            }
        }
        let missing: Vec<usize> = (0..PHASES).filter(|&k| tables[k].is_none()).collect();
        if !missing.is_empty() {
            let corners = SquaresCorners::new();
            let built: Vec<(usize, Box<[u8]>)> = missing
                .par_iter()
                .map(|&k| (k, build_table(&corners, k)))
                .collect();
            for (k, table) in built {
                tables[k] = Some(table);
            }
        }
        let tables = tables.map(|t| t.expect("loaded or built"));
        let solver = Thistlethwaite::from_tables(tables).map_err(|e| {
            let phase = match e {
                PhaseTableError::Size { phase, .. } | PhaseTableError::Entry { phase, .. } => phase,
            };
            FileError::Header {
                path: Self::table_path(dir, phase),
                what: e.to_string(),
                hint: rebuild_hint(dir),
            }
        })?;
        solver.save_phases(dir, &missing)?;
        Ok(solver)
    }

    /// Writes the four phase tables to `dir` (created if needed) as the files
    /// [`open`](Self::open) reads, replacing any there (atomically).
    pub fn save(&self, dir: &Path) -> Result<(), FileError> {
        self.save_phases(dir, &[0, 1, 2, 3])
    }

    /// The file of phase `phase`'s table (0-based) inside `dir`.
    pub fn table_path(dir: &Path, phase: usize) -> PathBuf {
        dir.join(format!("{}.pdb", PHASE_NAMES[phase]))
    }

    fn save_phases(&self, dir: &Path, phases: &[usize]) -> Result<(), FileError> {
        if phases.is_empty() {
            return Ok(());
        }
        std::fs::create_dir_all(dir).map_err(|source| FileError::Io {
            path: dir.to_path_buf(),
            source,
        })?;
        for &k in phases {
            file::save_payload(
                &Self::table_path(dir, k),
                &table_kind(k),
                self.table(k),
                self.histogram(k),
                "thistlethwaite breadth-first search",
            )?;
        }
        Ok(())
    }

    /// Phase `phase`'s distance table (one byte per coordinate value, [`PHASE_SIZES`] entries).
    pub fn table(&self, phase: usize) -> &[u8] {
        &self.tables[phase]
    }

    /// Entries of phase `phase`'s table at each distance.
    pub fn histogram(&self, phase: usize) -> Vec<u64> {
        let mut h = Vec::new();
        for &d in self.table(phase) {
            if h.len() <= d as usize {
                h.resize(d as usize + 1, 0);
            }
            h[d as usize] += 1;
        }
        h
    }

    /// Phase `phase`'s coordinate of `cube`, which must lie in `G_phase`.
    #[inline]
    pub fn coordinate(&self, phase: usize, cube: &Cube) -> usize {
        coordinate(&self.corners, phase, cube)
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

/// What phase `phase`'s table file must hold.
pub fn table_kind(phase: usize) -> TableKind {
    TableKind {
        name: PHASE_NAMES[phase].into(),
        version: TABLE_VERSION,
        pieces: PHASE_PIECES[phase].into(),
        entries: PHASE_SIZES[phase] as u64,
        bits_per_entry: 8,
        rebuild: REBUILD.into(),
    }
}

/// The command that rebuilds missing table files (`{dir}`: their directory).
const REBUILD: &str = "optcube solve --solver thistlethwaite --pdb-dir {dir} R";

fn rebuild_hint(dir: &Path) -> String {
    format!(
        "delete it and rebuild with `{}`",
        REBUILD.replace("{dir}", &dir.display().to_string())
    )
}

/// Breadth-first search over the cosets of `G_{phase+1}` in `G_phase`: one representative cube
/// per newly reached coordinate, expanded with `G_phase`'s generators.
fn build_table(corners: &SquaresCorners, phase: usize) -> Box<[u8]> {
    crate::pdb::generate::byte_bfs(
        PHASE_SIZES[phase],
        Cube::SOLVED,
        |c| coordinate(corners, phase, c),
        |c, out| out.extend(phase_moves(phase).map(|m| c.apply(m))),
    )
}

/// The coordinate of `cube` (in `G_phase`) modulo `G_{phase+1}`.
#[inline]
fn coordinate(corners: &SquaresCorners, phase: usize, c: &Cube) -> usize {
    match phase {
        // The 12th flip is fixed by the other eleven (flip sum is even).
        0 => rank_digits(&c.eo()[..11], 2) as usize,
        // Likewise the 8th twist. Which E-slice edge sits where is phase 4's business.
        1 => {
            let co = rank_digits(&c.co()[..7], 3) as usize;
            co * E_SLICE_SIZE + rank_4_subset(slice_positions(c, E))
        }
        // In G2 the E-slice edges are home, so the M-slice edges are in positions 0..8.
        2 => {
            let coset = corners.coset[CORNER_PERM.rank(&c.cp()) as usize] as usize;
            coset * M_SLICE_SIZE + rank_4_subset(slice_positions(c, M))
        }
        3 => {
            let ci = corners.index[CORNER_PERM.rank(&c.cp()) as usize];
            debug_assert_ne!(ci, UNREACHED, "phase 4 needs a position of G3");
            ci as usize * SQUARES_EDGES + squares_edge_index(c)
        }
        _ => unreachable!("phases are 0..4"),
    }
}

/// Bit set of the positions holding edges of slice `slice`.
#[inline(always)]
fn slice_positions(c: &Cube, slice: u8) -> u16 {
    let mut set = 0u16;
    for i in 0..12 {
        if EDGE_SLICE[c.edge_perm(i) as usize] == slice {
            set |= 1 << i;
        }
    }
    set
}

/// Index in `0..6912` of a `G3` edge permutation: each slice's permutation of its own four
/// edges, ranked; the E slice's rank is halved because its parity is fixed by the other two
/// (a Lehmer rank's last digit is 0 or 1 and alone decides the parity between `2j` and `2j+1`).
#[inline]
fn squares_edge_index(c: &Cube) -> usize {
    let mut slots = [[0u8; 4]; 3];
    for i in 0..12 {
        let piece = c.edge_perm(i) as usize;
        debug_assert_eq!(
            EDGE_SLICE[piece], EDGE_SLICE[i],
            "phase 4 needs a position of G3"
        );
        slots[EDGE_SLICE[i] as usize][EDGE_SLOT[i] as usize] = EDGE_SLOT[piece];
    }
    let [m, s, e] = slots.map(|p| SLICE_PERM.rank(&p) as usize);
    (m * 24 + s) * 12 + e / 2
}

// ---- merging moves -------------------------------------------------------------------------

/// Where `m` would merge into the simplified sequence `seq`: the last move if it turns the same
/// face, or the one before it if the last move turns the opposite face (opposite faces commute).
#[inline]
fn merge_target(seq: &[Move], m: Move) -> Option<usize> {
    let n = seq.len();
    let f = m.face();
    if n >= 1 && seq[n - 1].face() == f {
        Some(n - 1)
    } else if n >= 2 && seq[n - 1].face() == f.opposite() && seq[n - 2].face() == f {
        Some(n - 2)
    } else {
        None
    }
}

/// Appends `m` to `seq`, merging it with a move on the same face (`R R → R2`, `R R' → nothing`,
/// `R L R → R2 L`). If `seq` has no mergeable pair, neither has the result, so pushing moves one
/// by one simplifies a whole sequence (cancellations cascade: `R U U' R'` → nothing).
pub fn push_merged(seq: &mut Vec<Move>, m: Move) {
    match merge_target(seq, m) {
        None => seq.push(m),
        Some(i) => match (seq[i].quarter_turns() + m.quarter_turns()) % 4 {
            0 => {
                seq.remove(i);
            }
            q => seq[i] = Move::new(m.face(), q),
        },
    }
}

/// `seq` with adjacent moves on one face merged (see [`push_merged`]); same effect on the cube.
pub fn merge_moves(seq: &[Move]) -> Vec<Move> {
    let mut out = Vec::with_capacity(seq.len());
    for &m in seq {
        push_merged(&mut out, m);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cube::{Rng, format_moves, parse_moves};
    use std::collections::HashSet;
    use std::sync::OnceLock;

    /// Published sizes and maximum distances of the four phases (Thistlethwaite; Scherphuis).
    const PUBLISHED: [(usize, usize); PHASES] =
        [(2_048, 7), (1_082_565, 10), (29_400, 13), (663_552, 15)];

    fn solver() -> &'static Thistlethwaite {
        static S: OnceLock<Thistlethwaite> = OnceLock::new();
        S.get_or_init(Thistlethwaite::new)
    }

    /// The corner permutations of G3, found by walking cubes with half turns (independently of
    /// `SquaresCorners`, which works on bare permutations).
    fn squares_corner_perms() -> &'static HashSet<[u8; 8]> {
        static H: OnceLock<HashSet<[u8; 8]>> = OnceLock::new();
        H.get_or_init(|| {
            let mut seen = HashSet::from([Cube::SOLVED.cp()]);
            let mut todo = vec![Cube::SOLVED];
            while let Some(c) = todo.pop() {
                for m in Move::all().filter(|m| m.quarter_turns() == 2) {
                    let n = c.apply(m);
                    if seen.insert(n.cp()) {
                        todo.push(n);
                    }
                }
            }
            seen
        })
    }

    /// Membership in `G_k`, `k` in `0..=4`, from the groups' descriptions, not the coordinates.
    fn in_group(k: usize, c: &Cube) -> bool {
        let g1 = c.eo() == [0; 12];
        let g2 = g1 && c.co() == [0; 8] && (8..12).all(|i| c.edge_perm(i) >= 8);
        let g3 = g2
            && (0..12).all(|i| EDGE_SLICE[c.edge_perm(i) as usize] == EDGE_SLICE[i])
            && squares_corner_perms().contains(&c.cp());
        match k {
            0 => c.validate().is_ok(),
            1 => g1,
            2 => g2,
            3 => g3,
            4 => c.is_solved(),
            _ => unreachable!(),
        }
    }

    /// A random element of `G_k` (`k` in `0..4`): a uniform position for `G0`, otherwise a long
    /// random walk with `G_k`'s generators.
    fn random_in(k: usize, rng: &mut Rng) -> Cube {
        if k == 0 {
            return Cube::random(rng);
        }
        let gens: Vec<Move> = phase_moves(k).collect();
        (0..60).fold(Cube::SOLVED, |c, _| {
            c.apply(gens[rng.below(gens.len() as u64) as usize])
        })
    }

    #[test]
    fn generators_keep_their_group_and_others_leave_it() {
        let counts: Vec<usize> = (0..PHASES).map(|k| phase_moves(k).count()).collect();
        assert_eq!(counts, [18, 14, 10, 6]);
        let mut rng = Rng::new(11);
        for k in 1..PHASES {
            let c = random_in(k, &mut rng);
            assert!(in_group(k, &c));
            for m in Move::all() {
                let allowed = PHASE_MOVE_MASKS[k] & (1 << m.index()) != 0;
                assert!(in_group(k, &c.apply(m)) || !allowed, "G{k} generator {m}");
                assert!(
                    !in_group(k, &Cube::SOLVED.apply(m)) || allowed,
                    "{m} in G{k}"
                );
            }
        }
    }

    #[test]
    fn squares_corners_form_96_elements_and_420_cosets() {
        let sq = SquaresCorners::new();
        let members: HashSet<[u8; 8]> = (0..CORNER_PERMS)
            .filter(|&r| sq.index[r] != UNREACHED)
            .map(|r| {
                let mut p = [0u8; 8];
                CORNER_PERM.unrank(r as u64, &mut p);
                p
            })
            .collect();
        assert_eq!(&members, squares_corner_perms());
        let mut per_coset = vec![0u32; CORNER_COSETS];
        for &c in sq.coset.iter() {
            per_coset[c as usize] += 1;
        }
        assert!(per_coset.iter().all(|&n| n == 96), "{per_coset:?}");
    }

    #[test]
    fn table_sizes_and_depths_match_published() {
        let t = solver();
        for (phase, &(size, max)) in PUBLISHED.iter().enumerate() {
            let h = t.histogram(phase);
            assert_eq!(t.table(phase).len(), size, "phase {}", phase + 1);
            assert_eq!(PHASE_SIZES[phase], size);
            assert_eq!(PHASE_MAX_DISTANCES[phase] as usize, max);
            // Every entry reached, so the table has exactly `size` classes at distances 0..=max.
            assert_eq!(h.len(), max + 1, "phase {} histogram {h:?}", phase + 1);
            assert_eq!(h.iter().sum::<u64>(), size as u64);
            assert_eq!(h[0], 1, "only the solved coset is at distance 0");
        }
    }

    #[test]
    fn from_tables_round_trips_and_rejects_bad_tables() {
        let t = solver();
        let copy: [Box<[u8]>; PHASES] = std::array::from_fn(|k| t.table(k).into());
        let u = Thistlethwaite::from_tables(copy.clone()).unwrap();
        let c = Cube::random(&mut Rng::new(5));
        assert_eq!(u.solve(&c), t.solve(&c));
        let mut short = copy.clone();
        short[2] = short[2][1..].into();
        assert!(matches!(
            Thistlethwaite::from_tables(short),
            Err(PhaseTableError::Size { phase: 2, .. })
        ));
        let mut bad = copy;
        bad[1][7] = PHASE_MAX_DISTANCES[1] + 1;
        assert!(matches!(
            Thistlethwaite::from_tables(bad),
            Err(PhaseTableError::Entry {
                phase: 1,
                index: 7,
                ..
            })
        ));
    }

    /// An empty directory unique to this test process and `name`.
    fn temp_dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!(
            "optcube-thistlethwaite-{}-{name}",
            std::process::id()
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    /// `open` in an empty directory builds and writes the four files; opening again loads them
    /// (the same tables as `new`, the same solutions), rebuilds only a missing one, and refuses
    /// a damaged file without touching it.
    #[test]
    fn open_builds_then_loads_table_files() {
        let dir = temp_dir("open");
        let built = Thistlethwaite::open(&dir).unwrap();
        for k in 0..PHASES {
            let path = Thistlethwaite::table_path(&dir, k);
            let info = file::read_info(&path, table_kind(k)).unwrap();
            assert_eq!(info.entries, PHASE_SIZES[k] as u64);
            assert_eq!(info.bits_per_entry, 8);
            assert_eq!(info.histogram, solver().histogram(k));
            assert!(built.table(k) == solver().table(k), "phase {}", k + 1);
        }
        let loaded = Thistlethwaite::open(&dir).unwrap();
        let mut rng = Rng::new(17);
        for _ in 0..20 {
            let c = Cube::random(&mut rng);
            assert_eq!(loaded.solve(&c), solver().solve(&c));
        }
        for k in 0..PHASES {
            assert!(loaded.table(k) == solver().table(k), "phase {}", k + 1);
        }

        // A missing file is rebuilt, the others are left alone.
        let p3 = Thistlethwaite::table_path(&dir, 3);
        let before = std::fs::metadata(Thistlethwaite::table_path(&dir, 1))
            .unwrap()
            .modified()
            .unwrap();
        std::fs::remove_file(&p3).unwrap();
        let again = Thistlethwaite::open(&dir).unwrap();
        assert!(again.table(3) == solver().table(3));
        assert!(p3.exists());
        let after = std::fs::metadata(Thistlethwaite::table_path(&dir, 1))
            .unwrap()
            .modified()
            .unwrap();
        assert_eq!(before, after);

        // One payload byte flipped: refused, naming the file, and left as it is.
        let p1 = Thistlethwaite::table_path(&dir, 1);
        let mut bytes = std::fs::read(&p1).unwrap();
        bytes[file::HEADER_LEN + 1000] ^= 0x04;
        std::fs::write(&p1, &bytes).unwrap();
        let e = Thistlethwaite::open(&dir).err().expect("refused");
        assert!(matches!(e, FileError::Checksum { .. }), "{e}");
        let msg = e.to_string();
        assert!(msg.contains("thistlethwaite-2-co-eslice.pdb"), "{msg}");
        assert!(msg.contains("--solver thistlethwaite"), "{msg}");
        assert_eq!(std::fs::read(&p1).unwrap(), bytes);

        // Truncated.
        bytes.truncate(bytes.len() - 10);
        std::fs::write(&p1, &bytes).unwrap();
        let e = Thistlethwaite::open(&dir).err().expect("refused");
        assert!(matches!(e, FileError::Size { .. }), "{e}");

        // A well-formed file whose entries are not distances (written by a broken build).
        let mut bad: Box<[u8]> = solver().table(1).into();
        bad[7] = PHASE_MAX_DISTANCES[1] + 1;
        file::save_payload(&p1, &table_kind(1), &bad, solver().histogram(1), "test").unwrap();
        let e = Thistlethwaite::open(&dir).err().expect("refused");
        assert!(matches!(e, FileError::Header { .. }), "{e}");
        assert!(e.to_string().contains("thistlethwaite-2-co-eslice.pdb"));

        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// The coordinate must not change when the pieces are relabelled by an element of the next
    /// group (`p ↦ h·p`): that is what makes the table a function of the coset.
    #[test]
    fn coordinates_are_constant_on_cosets() {
        let t = solver();
        let mut rng = Rng::new(21);
        for phase in 0..3 {
            let mut distinct = HashSet::new();
            for _ in 0..200 {
                let p = random_in(phase, &mut rng);
                let h = random_in(phase + 1, &mut rng);
                let k = t.coordinate(phase, &p);
                assert!(k < PHASE_SIZES[phase]);
                assert_eq!(
                    t.coordinate(phase, &h.compose(&p)),
                    k,
                    "phase {}",
                    phase + 1
                );
                distinct.insert(k);
            }
            assert!(
                distinct.len() > 100,
                "coordinate {} barely varies",
                phase + 1
            );
        }
        // Phase 4's "next group" is trivial: there the index must be injective, which the full
        // table (663,552 distinct indices reached from |G3| = 663,552 positions) shows.
    }

    #[test]
    fn distance_zero_exactly_on_the_next_group() {
        let t = solver();
        let mut rng = Rng::new(33);
        for phase in 0..PHASES {
            for _ in 0..300 {
                let p = random_in(phase, &mut rng);
                assert_eq!(t.distance(phase, &p) == 0, in_group(phase + 1, &p));
                if phase + 1 < PHASES {
                    assert_eq!(t.distance(phase, &random_in(phase + 1, &mut rng)), 0);
                }
            }
        }
    }

    /// One move changes an exact distance by at most one.
    #[test]
    fn distances_are_consistent_along_moves() {
        let t = solver();
        let mut rng = Rng::new(44);
        for phase in 0..PHASES {
            for _ in 0..200 {
                let p = random_in(phase, &mut rng);
                let d = t.distance(phase, &p) as i32;
                let mut closer = false;
                for m in phase_moves(phase) {
                    let dm = t.distance(phase, &p.apply(m)) as i32;
                    assert!((dm - d).abs() <= 1, "phase {} {d} -> {dm}", phase + 1);
                    closer |= dm == d - 1;
                }
                assert!(closer || d == 0);
            }
        }
    }

    #[test]
    fn solves_200_random_positions() {
        let t = solver();
        let mut rng = Rng::new(2024);
        let mut longest = 0;
        for _ in 0..200 {
            let cube = Cube::random(&mut rng);
            let sol = t.solve(&cube);
            let mut c = cube;
            for phase in 0..PHASES {
                let moves = sol.phase(phase);
                assert!(moves.len() <= PUBLISHED[phase].1);
                for &m in moves {
                    assert!(
                        PHASE_MOVE_MASKS[phase] & (1 << m.index()) != 0,
                        "{m} in phase"
                    );
                }
                c = c.apply_seq(moves);
                assert!(
                    in_group(phase + 1, &c),
                    "phase {} ends outside G{}",
                    phase + 1,
                    phase + 1
                );
            }
            assert!(
                cube.apply_seq(&sol.moves).is_solved(),
                "{}",
                format_moves(&sol.moves)
            );
            assert_eq!(sol.moves, merge_moves(&sol.unmerged));
            assert!(sol.moves.len() <= sol.unmerged.len() && sol.moves.len() <= 45);
            longest = longest.max(sol.moves.len());
        }
        assert!(
            longest > 20,
            "random positions need more than 20 Thistlethwaite moves"
        );
    }

    #[test]
    fn solved_and_near_solved_positions() {
        let t = solver();
        let s = t.solve(&Cube::SOLVED);
        assert!(s.moves.is_empty() && s.phase_lengths == [0; 4]);
        // One quarter turn of F: phase 1 undoes it in one move and nothing is left.
        let f = parse_moves("F").unwrap();
        let s = t.solve(&Cube::from_moves(&f));
        assert_eq!(format_moves(&s.moves), "F'");
        assert_eq!(s.phase_lengths, [1, 0, 0, 0]);
        let bad = Cube::from_parts([1, 0, 2, 3, 4, 5, 6, 7], [0; 8], Cube::SOLVED.ep(), [0; 12]);
        assert_eq!(t.try_solve(&bad), Err(CubeError::Parity));
    }

    #[test]
    fn merging_cases() {
        let merged = |s: &str| format_moves(&merge_moves(&parse_moves(s).unwrap()));
        assert_eq!(merged("R R"), "R2");
        assert_eq!(merged("R R'"), "");
        assert_eq!(merged("R2 R"), "R'");
        assert_eq!(merged("R U U' R'"), "");
        assert_eq!(merged("R L R"), "R2 L");
        assert_eq!(merged("R L R'"), "L");
        assert_eq!(merged("U R L R' L' U"), "U2");
        assert_eq!(merged("R U R'"), "R U R'");
        assert_eq!(merged("R U D R"), "R U D R");
    }

    /// Merging never changes the position and leaves no pair it could merge.
    #[test]
    fn merging_random_sequences() {
        let mut rng = Rng::new(9);
        for _ in 0..2000 {
            // Three faces, two of them opposite, so that merges and cascades are frequent.
            let faces = [Face::R, Face::L, Face::U];
            let seq: Vec<Move> = (0..rng.below(14))
                .map(|_| Move::new(faces[rng.below(3) as usize], rng.below(3) as u8 + 1))
                .collect();
            let out = merge_moves(&seq);
            assert_eq!(Cube::from_moves(&out), Cube::from_moves(&seq));
            for i in 0..out.len() {
                assert!(
                    merge_target(&out[..i], out[i]).is_none(),
                    "{}",
                    format_moves(&out)
                );
            }
        }
    }

    /// Timings for the report: `cargo test --lib solvers::thistlethwaite -- --ignored --nocapture`.
    #[test]
    #[ignore]
    fn timing() {
        let start = std::time::Instant::now();
        let t = Thistlethwaite::new();
        let build = start.elapsed();
        let mut rng = Rng::new(1);
        let cubes: Vec<Cube> = (0..200).map(|_| Cube::random(&mut rng)).collect();
        let start = std::time::Instant::now();
        let mut worst = std::time::Duration::ZERO;
        let (mut longest, mut total) = (0, 0);
        for c in &cubes {
            let s0 = std::time::Instant::now();
            let sol = t.solve(c);
            worst = worst.max(s0.elapsed());
            longest = longest.max(sol.moves.len());
            total += sol.moves.len();
        }
        let solve = start.elapsed();
        println!(
            "tables built in {build:.2?} (rayon, {} threads)",
            rayon::current_num_threads()
        );
        let corners = SquaresCorners::new();
        for k in 0..PHASES {
            let s0 = std::time::Instant::now();
            let table = build_table(&corners, k);
            println!(
                "phase {} alone: {:.2?} for {} entries",
                k + 1,
                s0.elapsed(),
                table.len()
            );
        }
        for k in 0..PHASES {
            println!("phase {}: {:?}", k + 1, t.histogram(k));
        }
        println!(
            "200 solves in {solve:.2?} ({:.1?} each, worst {worst:.1?}); mean length {:.2}, max {longest}",
            solve / 200,
            total as f64 / 200.0
        );
    }
}
