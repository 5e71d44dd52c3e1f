//! The two-phase search: phase-1 IDA* to G1, and from every phase-1 solution a phase-2 IDA* to
//! solved, bounded by the best total found so far.
//!
//! Phase 1 does not stop at its first solution: it keeps enumerating phase-1 solutions of the
//! current length, then of the next length, and every one that allows a shorter total lowers the
//! bound. The search ends when a solution of at most `max_length` moves is found, when phase 1
//! would be as long as the best total, or at the deadline.
//!
//! Invariants:
//! - a phase-1 solution is only handed to phase 2 if it is empty or ends with a quarter turn of
//!   R, L, F or B. Any other last move keeps G1, so the same total would be found with a phase 1
//!   one move shorter;
//! - the exact phase-1 (and phase-2) distance of the current node is carried down the recursion,
//!   so the 2-bit tables give exact distances of the children ([`step_distance`]);
//! - the recursion allocates nothing: moves live in a fixed array and coordinates in arguments.
//!
//! Six directions are searched: the position seen along each of the three axes (conjugated by
//! `S_URF3^r`) and the inverse of each. They may have different phase-1 distances, and whichever
//! finds a short solution first lowers the shared bound for all. Each worker thread interleaves its
//! directions by phase-1 depth, so one thread still looks at the shallow depths of every direction
//! before the deep ones of any.

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering::Relaxed};
use std::time::Instant;

use crate::cube::{ALLOWED_AFTER, Cube, Face, Metric, Move, invert_sequence};

use super::TwoPhase;
use super::prune::{QtmPhase2, step_distance};
use crate::coord::symmetry::S_URF3;
use crate::coord::{self, N_MOVES, N_P2_MOVES, N_SLICE_PERM, P2_MOVE_MASK, P2_MOVES};

/// Longest phase 2 tried for a phase-1 solution, in the metric ([`phase2_cap`]). Longer phase 2s
/// are rarely worth their cost: a slightly longer phase 1 usually leads to a shorter total much
/// sooner.
const PHASE2_CAP: usize = 11;
/// Deepest phase 1 ever searched, in the metric (a solution is always found long before).
const MAX_PHASE1: usize = 30;
/// Every move costs at least 1, so a path never has more moves than its cost.
const MAX_PATH: usize = MAX_PHASE1 + 2 * PHASE2_CAP + 1;
/// "No previous move" for [`ALLOWED_AFTER`].
const NO_FACE: usize = 6;
/// How many nodes between two looks at the clock.
const CLOCK_INTERVAL: u64 = 1 << 12;

/// One of the six ways to look at the position, with its phase-1 start coordinates.
pub(super) struct Direction {
    /// Power of `S_URF3` the position is conjugated by.
    rot: usize,
    /// Whether the conjugated position is inverted.
    inverse: bool,
    cube: Cube,
    flip: usize,
    twist: usize,
    slice_sorted: usize,
    corners: usize,
    dist: u8,
}

impl Direction {
    pub(super) fn new(tp: &TwoPhase, cube: &Cube, index: usize) -> Direction {
        let (rot, inverse) = (index % 3, index >= 3);
        let mut c = tp.sym.syms.conj_cube(cube, S_URF3 * rot);
        if inverse {
            c = c.inverse();
        }
        let (flip, twist, slice_sorted) = (
            coord::flip(&c.eo()) as usize,
            coord::twist(&c.co()) as usize,
            coord::slice_sorted(&c.ep()) as usize,
        );
        Direction {
            rot,
            inverse,
            cube: c,
            flip,
            twist,
            slice_sorted,
            corners: coord::corners(&c.cp()) as usize,
            dist: tp.phase1_distance(flip, twist, slice_sorted),
        }
    }

    /// Do both directions search the same cube?
    pub(super) fn same_position(&self, other: &Direction) -> bool {
        self.cube == other.cube
    }

    /// Turns a solution of `self.cube` into a solution of the original position.
    fn to_original(&self, tp: &TwoPhase, moves: &[Move]) -> Vec<Move> {
        // x = S c S⁻¹ solved by M means c is solved by S⁻¹ M S, move by move; x = (S c S⁻¹)⁻¹
        // solved by M means S c S⁻¹ is solved by M⁻¹.
        let seq = if self.inverse {
            invert_sequence(moves)
        } else {
            moves.to_vec()
        };
        let back = tp.sym.syms.inv[S_URF3 * self.rot] as usize;
        seq.iter()
            .map(|m| Move::from_index(tp.sym.syms.move_conj[back][m.index()] as usize))
            .collect()
    }
}

/// State shared by the worker threads of one solve.
pub(super) struct Shared {
    pub best_len: AtomicUsize,
    pub best: Mutex<Option<Vec<Move>>>,
    pub stop: AtomicBool,
    pub nodes: AtomicU64,
    pub deadline: Instant,
    /// In the metric: the search stops at the first solution of at most this cost.
    pub max_length: usize,
    /// What the lengths (`best_len`, `max_length`) count.
    pub metric: Metric,
}

/// The longest phase 2 tried in `metric`: [`PHASE2_CAP`] moves, in QTM as quarter turns at the
/// rate of phase 2's moves (six of its ten moves are half turns of cost 2).
fn phase2_cap(metric: Metric) -> usize {
    match metric {
        Metric::Htm => PHASE2_CAP,
        Metric::Qtm => PHASE2_CAP * 3 / 2,
        m => unreachable!("no two-phase search in {m} (Metric::searched)"),
    }
}

/// One worker's search state.
struct Searcher<'a> {
    tp: &'a TwoPhase,
    shared: &'a Shared,
    dir: &'a Direction,
    /// Phase-1 moves in `path[..len1]`, then phase-2 moves.
    path: [Move; MAX_PATH],
    len1: usize,
    /// The cost of `path[..len1]` in the metric (`len1` in HTM).
    cost1: usize,
    /// Each move's cost in the metric, by move index.
    cost: [u8; N_MOVES],
    phase2_cap: usize,
    /// Phase 2's quarter-turn bounds, in QTM only.
    qtm: Option<&'a QtmPhase2>,
    nodes: u64,
}

/// Runs the phase-1 deepening over `dirs`, interleaved by depth.
pub(super) fn run_worker(tp: &TwoPhase, shared: &Shared, dirs: &[&Direction]) {
    let Some(first) = dirs.first() else { return };
    let mut s = Searcher {
        tp,
        shared,
        dir: first,
        path: [Move::from_index(0); MAX_PATH],
        len1: 0,
        cost1: 0,
        cost: std::array::from_fn(|m| shared.metric.cost(Move::from_index(m))),
        phase2_cap: phase2_cap(shared.metric),
        qtm: (shared.metric == Metric::Qtm).then(|| tp.qtm_phase2()),
        nodes: 0,
    };
    for togo in 0..=MAX_PHASE1 {
        for &d in dirs {
            if shared.stop.load(Relaxed) || togo >= shared.best_len.load(Relaxed) {
                break;
            }
            if togo >= d.dist as usize {
                s.dir = d;
                s.len1 = 0;
                s.cost1 = 0;
                s.phase1(
                    d.flip,
                    d.twist,
                    d.slice_sorted,
                    d.corners,
                    d.dist,
                    togo,
                    NO_FACE,
                );
            }
        }
        if shared.stop.load(Relaxed) || togo + 1 >= shared.best_len.load(Relaxed) {
            break;
        }
    }
    shared.nodes.fetch_add(s.nodes, Relaxed);
}

/// Is `m` a quarter turn of R, F, L or B (the only moves that can end a phase 1)?
#[inline(always)]
fn leaves_g1(m: Move) -> bool {
    !matches!(m.face(), Face::U | Face::D) && m.quarter_turns() != 2
}

impl Searcher<'_> {
    #[allow(clippy::too_many_arguments)]
    fn phase1(
        &mut self,
        flip: usize,
        twist: usize,
        ss: usize,
        corners: usize,
        dist: u8,
        togo: usize,
        last_face: usize,
    ) {
        self.nodes += 1;
        if self.nodes.is_multiple_of(CLOCK_INTERVAL) && Instant::now() >= self.shared.deadline {
            self.shared.stop.store(true, Relaxed);
        }
        if togo == 0 {
            // The bound below only lets through children with distance < togo, so dist == 0.
            debug_assert_eq!(dist, 0);
            if self.len1 == 0 || leaves_g1(self.path[self.len1 - 1]) {
                self.phase2_start(corners, ss, last_face);
            }
            return;
        }
        let (tp, mv) = (self.tp, &self.tp.mv);
        let allowed = ALLOWED_AFTER[last_face];
        // In G1 with fewer than 5 moves to go, the rest of phase 1 cannot leave G1 and come back,
        // so it could only end with a phase-2 move, which is rejected at the end anyway.
        let allowed = if dist == 0 && togo < 5 {
            allowed & !P2_MOVE_MASK
        } else {
            allowed
        };
        // First compute every child's coordinates and table index and ask for the table bytes,
        // so the cache misses of the 35 MB table overlap instead of coming one by one.
        let mut child = [(0u16, 0u16, 0u16); N_MOVES];
        let mut index = [0usize; N_MOVES];
        for m in 0..N_MOVES {
            if allowed >> m & 1 != 0 {
                let flip2 = mv.flip[flip * N_MOVES + m];
                let twist2 = mv.twist[twist * N_MOVES + m];
                let ss2 = mv.slice_sorted[ss * N_MOVES + m];
                child[m] = (flip2, twist2, ss2);
                index[m] = tp.phase1_index(flip2 as usize, twist2 as usize, ss2 as usize);
                tp.phase1.prefetch(index[m]);
            }
        }
        for m in 0..N_MOVES {
            if allowed >> m & 1 == 0 {
                continue;
            }
            // The table's distance counts face turns: a lower bound in either metric.
            let c = self.cost[m] as usize;
            let dist2 = step_distance(dist, tp.phase1.get(index[m]));
            if dist2 as usize + c > togo {
                continue;
            }
            let (flip2, twist2, ss2) = child[m];
            self.path[self.len1] = Move::from_index(m);
            self.len1 += 1;
            self.cost1 += c;
            let corners2 = mv.corners[corners * N_MOVES + m] as usize;
            self.phase1(
                flip2 as usize,
                twist2 as usize,
                ss2 as usize,
                corners2,
                dist2,
                togo - c,
                m / 3,
            );
            self.len1 -= 1;
            self.cost1 -= c;
            if self.shared.stop.load(Relaxed) {
                return;
            }
        }
    }

    /// Tries to finish the phase-1 solution in `path[..len1]` with a phase 2 that gives a
    /// shorter total than the best so far.
    fn phase2_start(&mut self, corners: usize, slice: usize, last_face: usize) {
        let tp = self.tp;
        let best = self.shared.best_len.load(Relaxed);
        if self.cost1 + 1 > best {
            return;
        }
        let limit = (best - 1 - self.cost1).min(self.phase2_cap);
        // In G1 the slice combination is 0, so slice_sorted is the slice permutation.
        debug_assert!(slice < N_SLICE_PERM);
        let corner_slice = tp.corner_slice[corners * N_SLICE_PERM + slice] as usize;
        if corner_slice > limit {
            return;
        }
        // Phase 1 does not track the UD edges (they are not a coordinate outside G1): read them
        // off the cubies once per phase-1 solution.
        let cube = self.dir.cube.apply_seq(&self.path[..self.len1]);
        let ud = coord::ud_edges(&cube.ep()) as usize;
        let dist = tp.phase2_distance(corners, ud);
        // In QTM every solution's cost has the parity of the corner permutation, and each move
        // keeps that so (a quarter turn is odd, a half turn even): only every other bound can
        // succeed.
        let mut lower = corner_slice.max(dist as usize);
        if let Some(q) = self.qtm {
            lower = lower
                .max(q.corner_slice[corners * N_SLICE_PERM + slice] as usize)
                .max(q.edge_slice[ud * N_SLICE_PERM + slice] as usize);
        }
        let (first, step) = match self.shared.metric.parity(&cube) {
            None => (lower, 1),
            Some(p) => (lower + ((lower ^ p as usize) & 1), 2),
        };
        for togo in (first..=limit).step_by(step) {
            if let Some(len) = self.phase2(corners, ud, slice, dist, togo, self.len1, last_face) {
                self.record(self.cost1 + togo, len);
                return;
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn phase2(
        &mut self,
        corners: usize,
        ud: usize,
        slice: usize,
        dist: u8,
        togo: usize,
        len: usize,
        last_face: usize,
    ) -> Option<usize> {
        self.nodes += 1;
        if togo == 0 {
            // Both bounds were 0: corners, UD edges and slice are solved.
            debug_assert!(corners == 0 && ud == 0 && slice == 0);
            return Some(len);
        }
        let (tp, mv) = (self.tp, &self.tp.mv);
        let allowed = ALLOWED_AFTER[last_face];
        for (k, &m) in P2_MOVES.iter().enumerate() {
            if allowed >> m & 1 == 0 {
                continue;
            }
            // Both tables count face turns: lower bounds in either metric.
            let c = self.cost[m] as usize;
            if c > togo {
                continue;
            }
            let corners2 = mv.corners[corners * N_MOVES + m] as usize;
            let slice2 = mv.slice_sorted[slice * N_MOVES + m] as usize;
            if tp.corner_slice[corners2 * N_SLICE_PERM + slice2] as usize + c > togo {
                continue;
            }
            let ud2 = mv.ud_edges[ud * N_P2_MOVES + k] as usize;
            if let Some(q) = self.qtm {
                let i = corners2 * N_SLICE_PERM + slice2;
                let j = ud2 * N_SLICE_PERM + slice2;
                if q.corner_slice[i].max(q.edge_slice[j]) as usize + c > togo {
                    continue;
                }
            }
            let dist2 = step_distance(dist, tp.phase2.get(tp.phase2_index(corners2, ud2)));
            if dist2 as usize + c > togo {
                continue;
            }
            self.path[len] = Move::from_index(m);
            let found = self.phase2(corners2, ud2, slice2, dist2, togo - c, len + 1, m / 3);
            if found.is_some() {
                return found;
            }
        }
        None
    }

    /// Publishes the solution in `path[..len]`, of cost `cost` in the metric, if it beats the
    /// best so far.
    fn record(&mut self, cost: usize, len: usize) {
        let shared = self.shared;
        let mut best = shared
            .best
            .lock()
            .expect("no worker panics while holding the lock");
        if cost < shared.best_len.load(Relaxed) {
            *best = Some(self.dir.to_original(self.tp, &self.path[..len]));
            shared.best_len.store(cost, Relaxed);
            if cost <= shared.max_length {
                shared.stop.store(true, Relaxed);
            }
        }
    }
}
