//! Pruning tables: lower bounds on the distance to G1 (phase 1) and to solved within G1 (phase 2).
//!
//! - Phase 1: flip-slice class (64,430) × twist (2,187), 140,908,410 entries.
//! - Phase 2: corner-permutation class (2,768) × UD-edge permutation (40,320), 111,605,760
//!   entries.
//! - Phase 2, second bound: corner permutation (40,320) × slice permutation (24) = 967,680
//!   entries. This one is small, so it keeps exact distances in a byte each.
//!
//! The two large tables store the distance mod 3 in 2 bits (value 3 = not yet reached, only
//! while building). That is enough to recover exact distances: the distances of a position and
//! of its neighbour differ by at most 1, and of `d-1`, `d`, `d+1` exactly one has a given residue.
//! So the search tracks the exact distance of the node it stands on ([`step_distance`]), and the
//! distance of a root is found by walking down the table to the goal ([`phase1_distance`],
//! [`phase2_distance`]).
//!
//! An entry is indexed by `class * inner_size + inner`, where the class is the symmetry class of
//! one coordinate and `inner` the other coordinate conjugated by the symmetry that takes the
//! position to its class representative. When a representative is fixed by some symmetries,
//! several `inner` values describe the same position class; the builder fills them together.
//!
//! Building is breadth-first by layer, in parallel over classes. Early layers expand the frontier
//! forward; once the frontier is larger than what is left, it is cheaper to look backward, from
//! each empty entry for a neighbour on the frontier. Either way the neighbours of one class under
//! one move lie in one class block, so memory access stays local.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use rayon::prelude::*;

use super::TwoPhase;
use crate::coord::symmetry::N_SYM_UD;
use crate::coord::{N_MOVES, N_P2_MOVES, N_PERM8, N_SLICE_PERM, N_TWIST, P2_MOVES};
use crate::pdb::phase1::Phase1Space;

/// Switch to backward search once the empty entries are fewer than this many times the
/// frontier.
const BACKWARD_RATIO: u64 = 4;
/// The marker of an unreached entry while a table is built.
const EMPTY: u8 = 3;

/// A table of distances mod 3, four entries per byte (entry `i` in bits `2*(i%4)..`).
#[derive(Default)]
pub struct Mod3Table {
    bytes: Vec<u8>,
    /// `histogram[d]`: number of entries at distance `d`.
    histogram: Vec<u64>,
}

impl Mod3Table {
    /// Distance mod 3 of entry `i`.
    #[inline(always)]
    pub fn get(&self, i: usize) -> u8 {
        (self.bytes[i >> 2] >> ((i & 3) * 2)) & 3
    }
    /// Hints that entry `i` will be read soon.
    #[inline(always)]
    pub fn prefetch(&self, i: usize) {
        #[cfg(target_arch = "x86_64")]
        if let Some(b) = self.bytes.get(i >> 2) {
            // SAFETY: SSE is part of the x86_64 baseline, and a prefetch of a valid address has
            // no effect other than on the cache.
            unsafe {
                std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(
                    (b as *const u8).cast::<i8>(),
                );
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = i;
    }
    /// The packed table.
    pub fn bytes(&self) -> &[u8] {
        &self.bytes
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
        Mod3Table { bytes, histogram }
    }
}

/// The one value of `dist - 1`, `dist`, `dist + 1` that is `mod3` modulo 3: the exact distance
/// of a neighbour of a position at distance `dist`. (For `dist = 0` and residue 2 there is no
/// such neighbour; the result then wraps to 255, which every search bound rejects.)
#[inline(always)]
pub fn step_distance(dist: u8, mod3: u8) -> u8 {
    // dist + 2 ≡ dist - 1 (mod 3) and cannot underflow.
    let low = dist + 2;
    (low + (mod3 + 3 - low % 3) % 3).wrapping_sub(3)
}

/// A table's index space: `classes × inner_size` entries under `moves` moves.
pub trait SymSpace: Sync {
    fn classes(&self) -> usize;
    fn inner_size(&self) -> usize;
    fn moves(&self) -> usize;
    /// Class reached by move `k` from the representative of `cls`, and the symmetry that takes
    /// the reached position to that class's representative.
    fn class_step(&self, cls: usize, k: usize) -> (usize, usize);
    fn inner_move(&self, inner: usize, k: usize) -> usize;
    fn inner_conj(&self, inner: usize, s: usize) -> usize;
    /// Symmetries fixing the class representative (bit set).
    fn stabilizer(&self, cls: usize) -> u64;
}

/// Packed 2-bit cells that several threads may fill at once, 32 per word (entry `i` in bits
/// `2*(i%32)` of word `i/32`, which is the byte layout of [`Mod3Table`] on little-endian words).
struct Cells(Vec<AtomicU64>);

const LOW_BITS: u64 = 0x5555_5555_5555_5555;

impl Cells {
    #[inline(always)]
    fn get(&self, i: usize) -> u8 {
        ((self.0[i >> 5].load(Relaxed) >> ((i & 31) * 2)) & 3) as u8
    }
    /// Sets an entry known to be empty or already equal to `v`; returns whether it was empty.
    /// Clearing bits is enough because empty is `0b11`, and concurrent writers in one layer all
    /// write the same value.
    #[inline(always)]
    fn set(&self, i: usize, v: u8) -> bool {
        let shift = (i & 31) * 2;
        let prev = self.0[i >> 5].fetch_and(!(((EMPTY ^ v) as u64) << shift), Relaxed);
        (prev >> shift) & 3 == EMPTY as u64
    }
    /// Bit `2k` set iff entry `k` of word `w` holds `v`: lets a scan skip 32 entries at once.
    #[inline(always)]
    fn matches(&self, w: usize, v: u8) -> u64 {
        let x = self.0[w].load(Relaxed) ^ (v as u64 * LOW_BITS);
        !(x | (x >> 1)) & LOW_BITS
    }
}

/// Marks `(cls, inner)` and the entries equivalent to it under the class's stabilizer.
#[inline]
fn set_class_entry<S: SymSpace>(space: &S, cells: &Cells, cls: usize, inner: usize, v: u8) -> u64 {
    let base = cls * space.inner_size();
    let stab = space.stabilizer(cls);
    if stab == 1 {
        return cells.set(base + inner, v) as u64;
    }
    let mut n = 0;
    for s in 0..N_SYM_UD {
        if stab >> s & 1 == 1 {
            let j = base + space.inner_conj(inner, s);
            if cells.get(j) == EMPTY {
                n += cells.set(j, v) as u64;
            }
        }
    }
    n
}

/// Words of cells per parallel work item.
const CHUNK_WORDS: usize = 1 << 11;

/// Breadth-first search from entry 0 (the goal, class 0 with inner value 0).
pub fn build<S: SymSpace>(space: &S) -> Mod3Table {
    let (inner_size, moves) = (space.inner_size(), space.moves());
    let n = space.classes() * inner_size;
    let words = n.div_ceil(32);
    let cells = Cells((0..words).map(|_| AtomicU64::new(u64::MAX)).collect());
    let mut histogram = vec![set_class_entry(space, &cells, 0, 0, 0)];
    let mut filled = histogram[0];
    while filled < n as u64 {
        let depth = histogram.len() - 1;
        let (cur, next) = ((depth % 3) as u8, ((depth + 1) % 3) as u8);
        // Forward costs `moves` probes per frontier entry; backward costs a few probes per
        // empty entry (most find a frontier neighbour early), all `moves` for the rest.
        let backward = n as u64 - filled < BACKWARD_RATIO * histogram[depth];
        let added: u64 = (0..words.div_ceil(CHUNK_WORDS))
            .into_par_iter()
            .map(|chunk| {
                let mut steps = [(0usize, 0usize); N_MOVES];
                let mut steps_of = usize::MAX;
                let mut added = 0;
                let first = chunk * CHUNK_WORDS;
                for w in first..(first + CHUNK_WORDS).min(words) {
                    let mut hits = cells.matches(w, if backward { EMPTY } else { cur });
                    while hits != 0 {
                        let i = w * 32 + hits.trailing_zeros() as usize / 2;
                        hits &= hits - 1;
                        if i >= n {
                            break; // padding in the last word
                        }
                        let (cls, inner) = (i / inner_size, i % inner_size);
                        if cls != steps_of {
                            // All entries of a class share the class part of each neighbour.
                            for (k, st) in steps[..moves].iter_mut().enumerate() {
                                *st = space.class_step(cls, k);
                            }
                            steps_of = cls;
                        }
                        let neighbour = |k: usize| {
                            let (c2, s2) = steps[k];
                            (c2, space.inner_conj(space.inner_move(inner, k), s2))
                        };
                        if backward {
                            // The entry may have been filled as an equivalent of another one.
                            if cells.get(i) != EMPTY {
                                continue;
                            }
                            let found = (0..moves).any(|k| {
                                let (c2, i2) = neighbour(k);
                                cells.get(c2 * inner_size + i2) == cur
                            });
                            if found {
                                added += set_class_entry(space, &cells, cls, inner, next);
                            }
                        } else {
                            // Entries at depth - 3, - 6, ... also read `cur`; their neighbours
                            // are all filled already, so expanding them again only costs time.
                            for k in 0..moves {
                                let (c2, i2) = neighbour(k);
                                if cells.get(c2 * inner_size + i2) == EMPTY {
                                    added += set_class_entry(space, &cells, c2, i2, next);
                                }
                            }
                        }
                    }
                }
                added
            })
            .sum();
        if added == 0 {
            break; // unreachable entries (none for the tables here); they stay EMPTY
        }
        histogram.push(added);
        filled += added;
    }
    let bytes = cells
        .0
        .into_iter()
        .flat_map(|w| w.into_inner().to_le_bytes())
        .take(n.div_ceil(4))
        .collect();
    Mod3Table { bytes, histogram }
}

/// Phase 1: flip-slice classes × twist, 18 moves.
pub struct FlipSliceTwist<'a>(pub &'a TwoPhase);

impl SymSpace for FlipSliceTwist<'_> {
    fn classes(&self) -> usize {
        self.0.sym.flipslice.rep.len()
    }
    fn inner_size(&self) -> usize {
        N_TWIST
    }
    fn moves(&self) -> usize {
        N_MOVES
    }
    fn class_step(&self, cls: usize, k: usize) -> (usize, usize) {
        Phase1Space::get(false).class_step(cls, k)
    }
    #[inline(always)]
    fn inner_move(&self, twist: usize, k: usize) -> usize {
        self.0.mv.twist[twist * N_MOVES + k] as usize
    }
    #[inline(always)]
    fn inner_conj(&self, twist: usize, s: usize) -> usize {
        self.0.sym.twist_conj[twist * N_SYM_UD + s] as usize
    }
    fn stabilizer(&self, cls: usize) -> u64 {
        self.0.sym.flipslice.stabilizer[cls]
    }
}

/// Phase 2: corner-permutation classes × UD-edge permutation, the 10 phase-2 moves.
pub struct Phase2Space<'a>(pub &'a TwoPhase);

impl SymSpace for Phase2Space<'_> {
    fn classes(&self) -> usize {
        self.0.sym.corners.rep.len()
    }
    fn inner_size(&self) -> usize {
        N_PERM8
    }
    fn moves(&self) -> usize {
        N_P2_MOVES
    }
    fn class_step(&self, cls: usize, k: usize) -> (usize, usize) {
        let cs = &self.0.sym.corners;
        let c2 = self.0.mv.corners[cs.rep[cls] as usize * N_MOVES + P2_MOVES[k]] as usize;
        (cs.class_of[c2] as usize, cs.sym_of[c2] as usize)
    }
    #[inline(always)]
    fn inner_move(&self, ud: usize, k: usize) -> usize {
        self.0.mv.ud_edges[ud * N_P2_MOVES + k] as usize
    }
    #[inline(always)]
    fn inner_conj(&self, ud: usize, s: usize) -> usize {
        self.0.sym.ud_edges_conj[ud * N_SYM_UD + s] as usize
    }
    fn stabilizer(&self, cls: usize) -> u64 {
        self.0.sym.corners.stabilizer[cls]
    }
}

/// Exact distances of corner permutation × slice permutation under the phase-2 moves,
/// indexed `corners * 24 + slice`.
pub fn build_corner_slice(tp: &TwoPhase) -> Vec<u8> {
    crate::pdb::generate::byte_bfs(
        N_PERM8 * N_SLICE_PERM,
        0usize,
        |&i| i,
        |&i, out| {
            let (c, s) = (i / N_SLICE_PERM, i % N_SLICE_PERM);
            out.extend(P2_MOVES.iter().map(|&m| {
                let c2 = tp.mv.corners[c * N_MOVES + m] as usize;
                let s2 = tp.mv.slice_sorted[s * N_MOVES + m] as usize;
                c2 * N_SLICE_PERM + s2
            }));
        },
    )
    .into_vec()
}

impl TwoPhase {
    /// Phase-1 table index of a position with these coordinates.
    #[inline(always)]
    pub(super) fn phase1_index(&self, flip: usize, twist: usize, slice_sorted: usize) -> usize {
        self.phase1_space
            .index_of_coordinates(flip, twist, slice_sorted / N_SLICE_PERM) as usize
    }

    /// Phase-2 table index of a G1 position with these coordinates.
    #[inline(always)]
    pub(super) fn phase2_index(&self, corners: usize, ud_edges: usize) -> usize {
        let cs = &self.sym.corners;
        let (cls, s) = (cs.class_of[corners] as usize, cs.sym_of[corners] as usize);
        cls * N_PERM8 + self.sym.ud_edges_conj[ud_edges * N_SYM_UD + s] as usize
    }

    /// Exact number of moves from these coordinates to G1.
    pub(super) fn phase1_distance(&self, mut flip: usize, mut twist: usize, mut ss: usize) -> u8 {
        let mv = &self.mv;
        let mut dist = 0;
        let mut cur = self.phase1.get(self.phase1_index(flip, twist, ss));
        while flip != 0 || twist != 0 || ss / N_SLICE_PERM != 0 {
            // Some move leads one step closer: the neighbour whose residue is one less.
            let want = (cur + 2) % 3;
            let m = (0..N_MOVES)
                .find(|&m| {
                    let (f, t, s) = (
                        mv.flip[flip * N_MOVES + m] as usize,
                        mv.twist[twist * N_MOVES + m] as usize,
                        mv.slice_sorted[ss * N_MOVES + m] as usize,
                    );
                    self.phase1.get(self.phase1_index(f, t, s)) == want
                })
                .expect("a position off G1 has a neighbour closer to G1");
            flip = mv.flip[flip * N_MOVES + m] as usize;
            twist = mv.twist[twist * N_MOVES + m] as usize;
            ss = mv.slice_sorted[ss * N_MOVES + m] as usize;
            cur = want;
            dist += 1;
        }
        dist
    }

    /// Exact number of phase-2 moves that solve corners and UD edges (ignoring the slice).
    pub(super) fn phase2_distance(&self, mut corners: usize, mut ud: usize) -> u8 {
        let mv = &self.mv;
        let mut dist = 0;
        let mut cur = self.phase2.get(self.phase2_index(corners, ud));
        while corners != 0 || ud != 0 {
            let want = (cur + 2) % 3;
            let k = (0..N_P2_MOVES)
                .find(|&k| {
                    let c = mv.corners[corners * N_MOVES + P2_MOVES[k]] as usize;
                    let u = mv.ud_edges[ud * N_P2_MOVES + k] as usize;
                    self.phase2.get(self.phase2_index(c, u)) == want
                })
                .expect("an unsolved G1 position has a neighbour closer to solved");
            corners = mv.corners[corners * N_MOVES + P2_MOVES[k]] as usize;
            ud = mv.ud_edges[ud * N_P2_MOVES + k] as usize;
            cur = want;
            dist += 1;
        }
        dist
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn step_distance_picks_the_neighbouring_value() {
        assert_eq!(step_distance(0, 2), u8::MAX);
        for dist in 0u8..25 {
            for mod3 in 0..3 {
                if dist == 0 && mod3 == 2 {
                    continue;
                }
                let d = step_distance(dist, mod3);
                assert_eq!(d % 3, mod3);
                assert!(d + 1 >= dist && d <= dist + 1, "{dist} {mod3} -> {d}");
            }
        }
    }

    /// Distance to a goal by iterative deepening over move tables alone (no pruning table), or
    /// `None` if more than `limit`.
    fn brute_force(
        start: [usize; 3],
        moves: &[usize],
        step: &dyn Fn([usize; 3], usize) -> [usize; 3],
        goal: &dyn Fn([usize; 3]) -> bool,
        limit: usize,
    ) -> Option<usize> {
        fn dfs(
            x: [usize; 3],
            depth: usize,
            moves: &[usize],
            step: &dyn Fn([usize; 3], usize) -> [usize; 3],
            goal: &dyn Fn([usize; 3]) -> bool,
        ) -> bool {
            if depth == 0 {
                return goal(x);
            }
            moves
                .iter()
                .any(|&m| dfs(step(x, m), depth - 1, moves, step, goal))
        }
        (0..=limit).find(|&d| dfs(start, d, moves, step, goal))
    }

    #[test]
    fn table_distances_match_brute_force() {
        use crate::coord;
        use crate::cube::{Cube, Move, Rng};
        let tp = crate::solvers::twophase::tests::solver();
        let mv = &tp.mv;
        let mut rng = Rng::new(31);
        let all: Vec<usize> = (0..N_MOVES).collect();
        let ks: Vec<usize> = (0..N_P2_MOVES).collect();
        for n in 0..24 {
            // Phase 1: up to 5 random moves, so brute force up to depth 5 settles it.
            let seq: Vec<Move> = (0..n % 6)
                .map(|_| Move::from_index(rng.below(18) as usize))
                .collect();
            let c = Cube::from_moves(&seq);
            let x = [
                coord::flip(&c.eo()) as usize,
                coord::twist(&c.co()) as usize,
                coord::slice_sorted(&c.ep()) as usize,
            ];
            let step = |x: [usize; 3], m: usize| {
                [
                    mv.flip[x[0] * N_MOVES + m] as usize,
                    mv.twist[x[1] * N_MOVES + m] as usize,
                    mv.slice_sorted[x[2] * N_MOVES + m] as usize,
                ]
            };
            let goal = |x: [usize; 3]| x[0] == 0 && x[1] == 0 && x[2] < N_SLICE_PERM;
            let truth = brute_force(x, &all, &step, &goal, 5).expect("at most 5 moves");
            assert_eq!(
                tp.phase1_distance(x[0], x[1], x[2]) as usize,
                truth,
                "{seq:?}"
            );
            // Every UD symmetry gives the same distance.
            for s in 0..N_SYM_UD {
                let d = tp.sym.syms.conj_cube(&c, s);
                let y = (
                    coord::flip(&d.eo()),
                    coord::twist(&d.co()),
                    coord::slice_sorted(&d.ep()),
                );
                assert_eq!(
                    tp.phase1_distance(y.0 as usize, y.1 as usize, y.2 as usize) as usize,
                    truth
                );
            }

            // Phase 2: up to 6 random G1 moves.
            let seq: Vec<usize> = (0..n % 7)
                .map(|_| rng.below(N_P2_MOVES as u64) as usize)
                .collect();
            let c = Cube::from_moves(
                &seq.iter()
                    .map(|&k| Move::from_index(P2_MOVES[k]))
                    .collect::<Vec<_>>(),
            );
            let x = [
                coord::corners(&c.cp()) as usize,
                coord::ud_edges(&c.ep()) as usize,
                0,
            ];
            let step = |x: [usize; 3], k: usize| {
                [
                    mv.corners[x[0] * N_MOVES + P2_MOVES[k]] as usize,
                    mv.ud_edges[x[1] * N_P2_MOVES + k] as usize,
                    0,
                ]
            };
            let goal = |x: [usize; 3]| x[0] == 0 && x[1] == 0;
            let truth = brute_force(x, &ks, &step, &goal, 6).expect("at most 6 moves");
            assert_eq!(tp.phase2_distance(x[0], x[1]) as usize, truth, "{seq:?}");
        }
    }
}
