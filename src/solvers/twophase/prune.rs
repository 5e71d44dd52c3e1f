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
//! All three are built by the crate's one breadth-first search ([`crate::pdb::bfs`]) over a
//! block layout: phase 1 over the `phase1` pattern's own layout ([`Phase1Space`]), phase 2 over
//! corner classes × UD edges (`Phase2Layout`), the third over corner × slice permutations
//! (`CornerSliceLayout`); the mod-3 and byte stores are [`crate::pdb::cells`]'s.

use super::TwoPhase;
use crate::coord::symmetry::N_SYM_UD;
use crate::coord::{N_MOVES, N_P2_MOVES, N_PERM8, N_SLICE_PERM, N_TWIST, P2_MOVES};
use crate::cube::{Metric, Move};
use crate::pdb::bfs::bfs;
use crate::pdb::cells::{ByteCells, Mod3Cells, Mod3Table};
use crate::pdb::layout::Layout;
use crate::pdb::phase1::Phase1Space;

/// The one value of `dist - 1`, `dist`, `dist + 1` that is `mod3` modulo 3: the exact distance
/// of a neighbour of a position at distance `dist`. (For `dist = 0` and residue 2 there is no
/// such neighbour; the result then wraps to 255, which every search bound rejects.)
#[inline(always)]
pub fn step_distance(dist: u8, mod3: u8) -> u8 {
    // dist + 2 ≡ dist - 1 (mod 3) and cannot underflow.
    let low = dist + 2;
    (low + (mod3 + 3 - low % 3) % 3).wrapping_sub(3)
}

/// The residue of a neighbour one move closer than a position of residue `mod3`: one less,
/// modulo 3. Of a position's neighbours (each within one move of it), exactly those closer have
/// it, which is how a table of residues is walked down to the goal.
#[inline(always)]
pub fn closer_residue(mod3: u8) -> u8 {
    (mod3 + 2) % 3
}

/// Builds the phase-1 table: the flip-slice classes × twist, which is the layout of the
/// `phase1` pattern database ([`Phase1Space`]), with the distances mod 3.
pub fn build_phase1() -> Mod3Table {
    let layout = Phase1Space::get(false);
    let entries = layout.blocks() * N_TWIST as u64;
    let cells = Mod3Cells::new(entries);
    let histogram = bfs(layout, &cells, 0, "twophase-phase1", None);
    cells.into_table(entries, histogram)
}

/// Builds the phase-2 table: corner-permutation classes × UD-edge permutation under the 10
/// phase-2 moves, with the distances mod 3.
pub fn build_phase2(tp: &TwoPhase) -> Mod3Table {
    let layout = Phase2Layout(tp);
    let entries = layout.blocks() * N_PERM8 as u64;
    let cells = Mod3Cells::new(entries);
    let histogram = bfs(&layout, &cells, 0, "twophase-phase2", None);
    cells.into_table(entries, histogram)
}

/// Exact distances of corner permutation × slice permutation under the phase-2 moves,
/// indexed `corners * 24 + slice`.
pub fn build_corner_slice(tp: &TwoPhase) -> Vec<u8> {
    let cells = ByteCells::new(N_PERM8 * N_SLICE_PERM);
    bfs(
        &CornerSliceLayout(tp),
        &cells,
        0,
        "twophase-corner-slice",
        None,
    );
    cells.into_bytes().into_vec()
}

/// Phase 2's index space: a block per corner-permutation class (its representative's
/// permutation), `inner` the UD-edge permutation conjugated by the symmetry that takes the
/// position to the representative. A representative fixed by some symmetries has twins.
struct Phase2Layout<'a>(&'a TwoPhase);

impl Layout for Phase2Layout<'_> {
    // Blocks stand for symmetry classes (or may: not searched in metrics of two-face moves).
    const COMPOSABLE: bool = false;
    const INNER: u32 = N_PERM8 as u32;
    /// The representative's corner permutation.
    type Pos = u32;
    /// The move (index into the phase-2 moves) and the symmetry to the reached class.
    type Map = (u8, u8);

    fn blocks(&self) -> u64 {
        self.0.sym.corners.len() as u64
    }

    fn moves(&self) -> usize {
        N_P2_MOVES
    }

    #[inline]
    fn positions(&self, b: u64) -> u32 {
        self.0.sym.corners.rep[b as usize]
    }

    #[inline]
    fn image(&self, rep: &u32, k: usize) -> (u64, (u8, u8)) {
        let cs = &self.0.sym.corners;
        let c2 = self.0.mv.corners[*rep as usize * N_MOVES + P2_MOVES[k]] as usize;
        (cs.class_of[c2] as u64, (k as u8, cs.sym_of[c2]))
    }

    #[inline(always)]
    fn apply(&self, (k, s): (u8, u8), ud: u32) -> u32 {
        let moved = self.0.mv.ud_edges[ud as usize * N_P2_MOVES + k as usize] as usize;
        self.0.sym.ud_edges_conj[moved * N_SYM_UD + s as usize] as u32
    }

    #[inline]
    fn for_each_twin(&self, b: u64, x: u32, mut f: impl FnMut(u32)) {
        (self.0.sym.corners).for_each_other_stabilizer(b as usize, |s| {
            f(self.0.sym.ud_edges_conj[x as usize * N_SYM_UD + s] as u32)
        });
    }
}

/// Corner permutation × slice permutation: a block per corner permutation, `inner` the order
/// of the four slice edges (inside G1 they stay in the slice).
struct CornerSliceLayout<'a>(&'a TwoPhase);

impl Layout for CornerSliceLayout<'_> {
    // Blocks stand for symmetry classes (or may: not searched in metrics of two-face moves).
    const COMPOSABLE: bool = false;
    const INNER: u32 = N_SLICE_PERM as u32;
    /// The corner permutation.
    type Pos = u32;
    /// The move (index into the phase-2 moves).
    type Map = u8;

    fn blocks(&self) -> u64 {
        N_PERM8 as u64
    }

    fn moves(&self) -> usize {
        N_P2_MOVES
    }

    #[inline]
    fn positions(&self, b: u64) -> u32 {
        b as u32
    }

    #[inline]
    fn image(&self, c: &u32, k: usize) -> (u64, u8) {
        let c2 = self.0.mv.corners[*c as usize * N_MOVES + P2_MOVES[k]];
        (c2 as u64, k as u8)
    }

    #[inline(always)]
    fn apply(&self, k: u8, slice: u32) -> u32 {
        self.0.mv.slice_sorted[slice as usize * N_MOVES + P2_MOVES[k as usize]] as u32
    }
}

/// Exact quarter-turn phase-2 distances of two small coordinate pairs, the bounds phase 2
/// prunes with in QTM ([`TwoPhase::qtm_phase2`]). The half-turn tables are lower bounds in QTM
/// too, but weak ones there: six of phase 2's ten moves are half turns, which cost 2.
pub(super) struct QtmPhase2 {
    /// Corner permutation × slice permutation, indexed `corners * 24 + slice`.
    pub corner_slice: Vec<u8>,
    /// UD-edge permutation × slice permutation, indexed `ud_edges * 24 + slice`.
    pub edge_slice: Vec<u8>,
}

impl QtmPhase2 {
    pub(super) fn build(tp: &TwoPhase) -> QtmPhase2 {
        let mv = tp.mv;
        let slice = |s: usize, k: usize| mv.slice_sorted[s * N_MOVES + P2_MOVES[k]] as usize;
        let (corner_slice, edge_slice) = rayon::join(
            || {
                weighted_distances(N_PERM8 * N_SLICE_PERM, |x, k| {
                    let (c, s) = (x / N_SLICE_PERM, x % N_SLICE_PERM);
                    mv.corners[c * N_MOVES + P2_MOVES[k]] as usize * N_SLICE_PERM + slice(s, k)
                })
            },
            || {
                weighted_distances(N_PERM8 * N_SLICE_PERM, |x, k| {
                    let (e, s) = (x / N_SLICE_PERM, x % N_SLICE_PERM);
                    mv.ud_edges[e * N_P2_MOVES + k] as usize * N_SLICE_PERM + slice(s, k)
                })
            },
        );
        QtmPhase2 {
            corner_slice,
            edge_slice,
        }
    }
}

/// Quarter-turn distances from state 0 of a space of `n` states under phase 2's moves
/// (`step(x, k)`: the state move `P2_MOVES[k]` takes `x` to), where a quarter turn costs 1 and a
/// half turn 2. The crate's breadth-first search counts unit moves only, so this small space
/// (under a million states) is settled level by level instead: every state of distance `d` is
/// final when level `d` is scanned, since moves cost at least 1.
fn weighted_distances(n: usize, step: impl Fn(usize, usize) -> usize) -> Vec<u8> {
    let cost: [u8; N_P2_MOVES] =
        std::array::from_fn(|k| Metric::Qtm.cost(Move::from_index(P2_MOVES[k])));
    let mut dist = vec![u8::MAX; n];
    dist[0] = 0;
    // The largest distance given so far: the levels to scan.
    let mut top = 0u8;
    for d in 0.. {
        if d > top {
            break;
        }
        for x in 0..n {
            if dist[x] != d {
                continue;
            }
            for (k, &c) in cost.iter().enumerate() {
                let y = step(x, k);
                if d + c < dist[y] {
                    dist[y] = d + c;
                    top = top.max(d + c);
                }
            }
        }
    }
    dist
}

impl TwoPhase {
    /// Phase-1 table index of a position with these coordinates.
    #[inline(always)]
    pub(crate) fn phase1_index(&self, flip: usize, twist: usize, slice_sorted: usize) -> usize {
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
    pub(crate) fn phase1_distance(&self, mut flip: usize, mut twist: usize, mut ss: usize) -> u8 {
        let mv = &self.mv;
        let mut dist = 0;
        let mut cur = self.phase1.get(self.phase1_index(flip, twist, ss));
        while flip != 0 || twist != 0 || ss / N_SLICE_PERM != 0 {
            // Some move leads one step closer: the neighbour whose residue is one less.
            let want = closer_residue(cur);
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
            let want = closer_residue(cur);
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

    /// The quarter-turn phase-2 bounds against an enumeration of every sequence of phase-2
    /// moves up to 8 quarter turns, applied to cubies (not the move tables): each state the
    /// enumeration reaches has its least cost in the table, and the table has no other state
    /// that close.
    #[test]
    fn quarter_turn_phase2_bounds_match_an_enumeration() {
        use crate::coord;
        use crate::cube::Cube;
        use std::collections::HashMap;
        const DEPTH: u8 = 8;
        let tp = TwoPhase::without_pruning();
        let q = QtmPhase2::build(&tp);
        let mut least: [HashMap<usize, u8>; 2] = Default::default();
        fn walk(c: &Cube, cost: u8, least: &mut [HashMap<usize, u8>; 2]) {
            let (ep, slice) = (c.ep(), coord::slice_sorted(&c.ep()) as usize);
            let keys = [
                coord::corners(&c.cp()) as usize * N_SLICE_PERM + slice,
                coord::ud_edges(&ep) as usize * N_SLICE_PERM + slice,
            ];
            for (map, key) in least.iter_mut().zip(keys) {
                let e = map.entry(key).or_insert(cost);
                *e = (*e).min(cost);
            }
            for &m in &P2_MOVES {
                let m = Move::from_index(m);
                let c2 = cost + Metric::Qtm.cost(m);
                if c2 <= DEPTH {
                    walk(&c.apply(m), c2, least);
                }
            }
        }
        walk(&Cube::SOLVED, 0, &mut least);
        for (table, map) in [&q.corner_slice, &q.edge_slice].into_iter().zip(&least) {
            for (&key, &cost) in map {
                assert_eq!(table[key], cost, "state {key}");
            }
            let close = table.iter().filter(|&&d| d <= DEPTH).count();
            assert_eq!(close, map.len());
            assert!(
                table.iter().all(|&d| d != u8::MAX),
                "every state is reached"
            );
        }
    }

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
