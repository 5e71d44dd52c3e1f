//! Non-recursive IDA* with move ordering, split into subtrees for parallel search.
//!
//! Each iteration searches every canonical move sequence whose cost `g + h` stays within the
//! bound; the next bound is the smallest `g + h` that exceeded it. Nodes are expanded from an
//! explicit stack of frames (no recursion): a frame holds a node's position and inverse and its
//! surviving children sorted by heuristic value, smallest first, so the final iteration tends to
//! meet its solution early. All children of a node are generated together, their first table
//! entries prefetched, then evaluated lazily: lookup by lookup, a child is dropped at the first
//! value that prunes it. A lookup is skipped for all children of a node when the node's own
//! value shows it cannot prune them (a move changes a table value by at most one).
//!
//! Work units: each iteration splits the tree at a shallow depth into subtrees, most promising
//! first, which the threads take from a shared list. Each thread interleaves several depth-first
//! searches ("lanes", [`SearchOptions::lanes`]) and switches lane at every memory round: while the
//! entries one lane prefetched are on their way from memory, the other lanes compute. The
//! corner table is read at the position's corner coordinates, kept by move tables (`Node`),
//! or, when the heuristic has it, the corner successor table answers all children of a node
//! with one read ([`crate::pdb::successors`]);
//! a surviving child's move-table rows are prefetched when its frame is pushed and again when
//! its expansion begins, one lane step before its first lookup reads them. The children's
//! cubes, needed only by the lookups that rank cubes, are composed for the children left after
//! the corner lookup, and each lookup round prunes all children at once
//! (`search::cut::raise_and_cut`).
//!
//! Invariants: a solution found in the iteration with bound `B` has exactly `B` moves, and it is
//! optimal because the previous iteration, with a smaller bound, was searched completely (the
//! heuristic is admissible). A search that is stopped (Ctrl-C, `max_depth`) never claims
//! optimality; it reports the bound it proved instead. The node count is the number of nodes
//! generated (heuristic evaluations), root included.

use super::cut::raise_and_cut;
use super::heuristic::{Heuristic, Lookup};
use crate::coord::{self, MoveTables, N_MOVES};
use crate::cube::{ALLOWED_AFTER, Cube, Move};
use crate::pdb::Pattern;
use crate::pdb::batch::{BATCH, Batch, Members};
use crate::pdb::successors::CornerSuccessors;
use crate::pdb::table::prefetch;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering::Relaxed};
use std::time::Instant;

/// How to run a search.
#[derive(Clone, Debug)]
pub struct SearchOptions {
    /// Worker threads (1 = sequential).
    pub threads: usize,
    /// Give up (without a solution) once the bound would exceed this many moves.
    pub max_depth: u8,
    /// Depth at which the tree is split into work units for the threads.
    pub split_depth: u8,
    /// Also look up the inverse position (dual heuristic); the search then tracks both.
    pub dual: bool,
    /// Depth-first searches interleaved on each thread (1 = one at a time); see the module docs.
    pub lanes: usize,
    /// Skip the lookups that cannot prune any child (see the module docs). It changes only
    /// the move order of the last iteration; off, to measure what it saves.
    pub skip_lookups: bool,
    /// Run the search loop compiled for the baseline CPU even where the x86-64-v3 one could
    /// run (see the private `Worker::run`); to compare and test the two.
    pub baseline_cpu: bool,
    /// Read the corner values of a node's children from the heuristic's corner successor
    /// table when it has one ([`Heuristic::derive_corner_successors`]): one memory read per
    /// node instead of one per child. Same values, same pruning; off, to measure it.
    pub corner_successors: bool,
}

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions {
            threads: 1,
            max_depth: 20,
            split_depth: 3,
            dual: false,
            lanes: 4,
            skip_lookups: true,
            baseline_cpu: false,
            corner_successors: true,
        }
    }
}

/// Figures of one IDA* iteration.
#[derive(Clone, Debug, PartialEq)]
pub struct Iteration {
    pub bound: u8,
    pub nodes: u64,
    pub seconds: f64,
}

/// How a search ended.
#[derive(Clone, Debug)]
pub struct SearchResult {
    /// The solution, if one was found.
    pub solution: Option<Vec<Move>>,
    /// True only when every shorter length was searched completely: the solution is optimal.
    pub optimal: bool,
    /// No solution is shorter than this (proved by complete iterations).
    pub lower_bound: u8,
    /// Nodes generated in all iterations.
    pub nodes: u64,
    pub iterations: Vec<Iteration>,
    pub seconds: f64,
    /// The search was stopped from outside before it finished.
    pub interrupted: bool,
}

/// A node of the search: the position, its inverse, and the corner coordinates of the
/// position.
///
/// The corner table is indexed by the corner coordinates of the *position* (`corners * 2187 +
/// twist`, [`crate::coord`]), kept by two move-table lookups per move instead of ranking the
/// corners of every child. That index is the one the table gives the inverse cube of `p⁻¹`, and
/// a position and its inverse are equally far from solved in the corner group, so the value is
/// the one the inverse cube's own index reads (`corner_coordinates_read_the_same_entries`).
#[derive(Clone, Copy)]
struct Node {
    /// The position; kept only when the search tracks it (`track_p`).
    p: Cube,
    q: Cube,
    corners: [u16; 2],
}

impl Node {
    fn new(p: &Cube, q: &Cube) -> Node {
        Node {
            p: *p,
            q: *q,
            corners: [coord::corners(&p.cp()), coord::twist(&p.co())],
        }
    }

    /// The node after move `m`.
    #[inline(always)]
    fn child(&self, m: usize, track_p: bool, mt: &MoveTables) -> Node {
        Node {
            p: if track_p {
                self.child_p(m)
            } else {
                Cube::SOLVED
            },
            q: self.child_q(m),
            corners: self.child_corners(m, mt),
        }
    }

    /// The corner coordinates after move `m`.
    #[inline(always)]
    fn child_corners(&self, m: usize, mt: &MoveTables) -> [u16; 2] {
        [
            mt.corners[self.corners[0] as usize * N_MOVES + m],
            mt.twist[self.corners[1] as usize * N_MOVES + m],
        ]
    }

    /// The position after move `m`.
    #[inline(always)]
    fn child_p(&self, m: usize) -> Cube {
        self.p.compose(Move::from_index(m).cube())
    }

    /// Starts loading the rows of the corner move tables that the expansion of this node
    /// reads first: the 1.45 MB corner-permutation table does not stay in cache, and a miss
    /// there stalls the expansion. (A row may straddle two cache lines.)
    #[inline(always)]
    fn prefetch_rows(&self, mt: &MoveTables) {
        prefetch_rows_at(self.corners, mt);
    }

    /// [`Node::prefetch_rows`] of the child by move `m`.
    #[inline(always)]
    fn prefetch_child_rows(&self, m: usize, mt: &MoveTables) {
        prefetch_rows_at(self.child_corners(m, mt), mt);
    }

    /// The inverse cube after move `m`.
    #[inline(always)]
    fn child_q(&self, m: usize) -> Cube {
        Move::from_index(m).inverse_cube().compose(&self.q)
    }
}

/// Starts loading the move-table rows of corner coordinates `c` ([`Node::prefetch_rows`]).
#[inline(always)]
fn prefetch_rows_at(c: [u16; 2], mt: &MoveTables) {
    for (table, x) in [(&mt.corners, c[0]), (&mt.twist, c[1])] {
        let row = table.as_ptr().wrapping_add(x as usize * N_MOVES);
        prefetch(row);
        prefetch(row.wrapping_add(N_MOVES - 1));
    }
}

/// The corner table index of corner coordinates.
#[inline(always)]
fn corner_entry(c: [u16; 2]) -> u64 {
    c[0] as u64 * coord::N_TWIST as u64 + c[1] as u64
}

/// Upper bounds of a node's values of the first [`TRACKED`] lookups, a nibble each, 15 for
/// "unknown": the value itself where it was read, the parent's bound plus one where the lookup
/// was skipped (see [`Worker::prepare`]).
#[derive(Clone, Copy)]
struct Bounds(u32);

/// Lookups whose values are kept in [`Bounds`].
const TRACKED: usize = 8;

impl Bounds {
    const UNKNOWN: Bounds = Bounds(u32::MAX);

    /// The bound of lookup `l < TRACKED`.
    #[inline(always)]
    fn get(self, l: usize) -> u8 {
        (self.0 >> (4 * l) & 15) as u8
    }
}

/// A node's frame on the explicit stack.
#[derive(Clone, Copy)]
struct Frame {
    node: Node,
    /// Surviving children: (move index, heuristic value), sorted by value.
    children: [(u8, u8); 18],
    /// Their bounds, in the same order.
    bounds: [Bounds; 18],
    len: u8,
    next: u8,
}

/// The expansion of one node in progress: its children, and how far their evaluation got.
/// Reused from node to node, so an expansion initializes nothing it does not write.
///
/// The child by move `m` ([`Move::index`]) lives in slot `m` of every array; the living
/// children are a bit set. The arrays have a slot for every bit of the set ([`BATCH`]), so
/// that indexing them by a member of the set needs no bounds check.
struct Expansion {
    node: Node,
    /// The node's corner-table value, when the search reads the corner successor table (whose
    /// words are relative to it).
    corner_value: u8,
    /// Depth of the node.
    g: u8,
    /// The children's positions (with `track_p`) and inverse cubes, made only for the children
    /// still alive when the first lookup that ranks cubes comes (`composed`): most children
    /// are pruned by the corner lookup before that.
    cps: Batch,
    cqs: Batch,
    composed: bool,
    turned: Batch,
    /// Corner table index of each child (from the corner coordinates).
    corner_idx: [u64; BATCH],
    idx: [u64; BATCH],
    idx_dual: [u64; BATCH],
    /// Children not pruned yet (bit `k` = slot `k`), and their values so far.
    alive: u32,
    h: [u8; BATCH],
    /// The values read for each child by each tracked lookup (row `TRACKED` is scratch for
    /// the others), and the tracked lookups read (bit set).
    vals: [[u8; BATCH]; TRACKED + 1],
    read: u32,
    /// The node's bounds, and the bounds its children get for the lookups skipped.
    bounds: Bounds,
    skipped: u32,
    /// The next lookup, and whether its entries are prefetched (else none is left).
    lookup: usize,
    pending: bool,
}

/// One depth-first search of a work unit's subtree, in progress. A thread runs several lanes
/// and switches between them at every memory round (see [`Worker::step`]).
struct Lane {
    /// The stack: frames `..depth` are in use. Long enough for the bound: a frame is pushed
    /// for each expanded node of a path, and those are at most `bound` deep.
    frames: Vec<Frame>,
    depth: usize,
    /// Moves from the unit's node to the node being expanded.
    path: Vec<Move>,
    /// The unit being searched (index into the units).
    unit: usize,
    /// Depth of the unit's node.
    g0: u8,
    exp: Box<Expansion>,
    /// An expansion is in progress (`exp.pending` tells whether a lookup is prefetched).
    expanding: bool,
    /// No unit is left for this lane.
    done: bool,
}

impl Lane {
    fn new(bound: u8) -> Lane {
        let empty = Frame {
            node: Node::new(&Cube::SOLVED, &Cube::SOLVED),
            children: [(0, 0); 18],
            bounds: [Bounds::UNKNOWN; 18],
            len: 0,
            next: 0,
        };
        Lane {
            frames: vec![empty; bound as usize + 1],
            depth: 0,
            path: Vec::with_capacity(24),
            unit: 0,
            g0: 0,
            exp: Box::new(Expansion {
                node: Node::new(&Cube::SOLVED, &Cube::SOLVED),
                corner_value: 0,
                g: 0,
                cps: [Cube::SOLVED; BATCH],
                cqs: [Cube::SOLVED; BATCH],
                composed: false,
                turned: [Cube::SOLVED; BATCH],
                corner_idx: [0; BATCH],
                idx: [0; BATCH],
                idx_dual: [0; BATCH],
                alive: 0,
                h: [0; BATCH],
                vals: [[0; BATCH]; TRACKED + 1],
                read: 0,
                bounds: Bounds::UNKNOWN,
                skipped: 0,
                lookup: 0,
                pending: false,
            }),
            expanding: false,
            done: false,
        }
    }
}

/// What a lane's step ended with.
enum Step {
    /// The lane has work in flight.
    Working,
    /// No unit is left, or the search was stopped.
    Done,
    /// A solution: the moves from the root.
    Solved(Vec<Move>),
}

/// Searches work units with a fixed bound on one thread; counts nodes and the smallest f that
/// exceeded the bound.
struct Worker<'a> {
    h: &'a Heuristic,
    mt: &'static MoveTables,
    dual: bool,
    /// The positions are needed (dual, or a table that reads the position).
    track_p: bool,
    bound: u8,
    /// Lookups that may be skipped (bit set): see [`Worker::prepare`].
    skippable: u32,
    /// Lanes per thread ([`SearchOptions::lanes`], at least 1).
    lanes: usize,
    /// Run the baseline-CPU search loop ([`SearchOptions::baseline_cpu`]).
    baseline_cpu: bool,
    /// The corner successor table and the index of the corner lookup it answers, when the
    /// search reads it ([`SearchOptions::corner_successors`]). That lookup is never skipped,
    /// so every node's corner value is known exactly.
    successors: Option<(&'a CornerSuccessors, usize)>,
    nodes: u64,
    min_exceeded: u8,
}

impl<'a> Worker<'a> {
    fn new(h: &'a Heuristic, opts: &SearchOptions, bound: u8) -> Worker<'a> {
        let dual = opts.dual;
        let successors = h
            .corner_successors()
            .filter(|_| opts.corner_successors)
            .and_then(|s| {
                let corner = h.lookups().iter().position(|l| {
                    let (pat, _) = h.table(l);
                    reads_corner_coordinates(pat, l)
                })?;
                (corner < TRACKED).then_some((s, corner))
            });
        // A dual lookup of a table that is not self-dual reads the inverse position, whose
        // value may change by more than one per move: it is never skipped.
        let skippable = h
            .lookups()
            .iter()
            .take(TRACKED)
            .enumerate()
            .filter(|&(i, l)| {
                opts.skip_lookups
                    && (!dual || h.table(l).0.is_self_dual())
                    && successors.is_none_or(|(_, corner)| i != corner)
            })
            .fold(0, |s, (i, _)| s | 1 << i);
        Worker {
            h,
            mt: MoveTables::get(),
            dual,
            track_p: dual || h.reads_position(),
            bound,
            skippable,
            lanes: opts.lanes.max(1),
            baseline_cpu: opts.baseline_cpu,
            successors,
            nodes: 0,
            min_exceeded: u8::MAX,
        }
    }

    /// Searches the units of `work` (taking the next one whenever a lane is free) with
    /// [`SearchOptions::lanes`] interleaved lanes; returns a solution if one is found. Stops
    /// early once either of the stop flags is set.
    ///
    /// The search loop is compiled twice: for the baseline CPU the crate is built for, and for
    /// x86-64-v3 (AVX2, BMI1/2), which this runs when the CPU has it. The second spares about
    /// a tenth of the instructions (three-operand vector instructions, `tzcnt`/`blsr` for the
    /// bit sets, `shrx` for the nibbles) and gives the same results.
    fn run(&mut self, work: &Work) -> Option<Vec<Move>> {
        #[cfg(target_arch = "x86_64")]
        if !self.baseline_cpu && has_x86_64_v3() {
            // SAFETY: the CPU has every feature `run_v3` is compiled for.
            return unsafe { self.run_v3(work) };
        }
        self.run_loop(work)
    }

    /// [`Worker::run`] for x86-64-v3 CPUs.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx,avx2,bmi1,bmi2,lzcnt,popcnt,fma,movbe")]
    unsafe fn run_v3(&mut self, work: &Work) -> Option<Vec<Move>> {
        self.run_loop(work)
    }

    #[inline(always)]
    fn run_loop(&mut self, work: &Work) -> Option<Vec<Move>> {
        let mut lanes: Vec<Lane> = (0..self.lanes).map(|_| Lane::new(self.bound)).collect();
        loop {
            let mut working = false;
            for lane in lanes.iter_mut().filter(|l| !l.done) {
                match self.step(lane, work) {
                    Step::Working => working = true,
                    Step::Done => lane.done = true,
                    Step::Solved(moves) => return Some(moves),
                }
            }
            if !working {
                return None;
            }
        }
    }

    /// One step of a lane: reads the entries prefetched by its previous step and prunes, then
    /// prefetches the next lookup's entries, or, once the node is evaluated, pushes its frame,
    /// picks the next node of the lane's depth-first order and prefetches its move-table rows
    /// (its first lookup comes with the next step). Between two steps of a lane the other
    /// lanes run, which hides the memory latency of the prefetches.
    #[inline(always)]
    fn step(&mut self, lane: &mut Lane, work: &Work) -> Step {
        if lane.expanding {
            if lane.exp.pending {
                self.evaluate(&mut lane.exp);
            }
            if lane.exp.alive != 0 && self.prepare(&mut lane.exp) {
                return Step::Working;
            }
            lane.expanding = false;
            if let Some(m) = push_frame(&lane.exp, &mut lane.frames[lane.depth], self.mt) {
                let mut moves = work.units[lane.unit].moves.clone();
                moves.extend_from_slice(&lane.path);
                moves.push(m);
                return Step::Solved(moves);
            }
            lane.depth += 1;
        }
        if work.stops[0].load(Relaxed) || work.stops[1].load(Relaxed) {
            return Step::Done;
        }
        // The next node to expand in depth-first order.
        loop {
            let depth = lane.depth as u8;
            if depth == 0 {
                // The unit is finished (or none was taken yet): take the next one.
                let i = work.next.fetch_add(1, Relaxed);
                let Some(u) = work.units.get(i) else {
                    return Step::Done;
                };
                lane.unit = i;
                lane.g0 = u.moves.len() as u8;
                lane.path.clear();
                let last = u.moves.last().map_or(6, |m| m.face_index());
                self.begin(
                    &mut lane.exp,
                    &Node::new(&u.p, &u.q),
                    u.moves.len() as u8,
                    last,
                    Bounds::UNKNOWN,
                );
                lane.expanding = true;
                return Step::Working;
            }
            let top = &mut lane.frames[lane.depth - 1];
            if top.next == top.len {
                lane.depth -= 1;
                lane.path.pop();
                continue;
            }
            let (mi, _) = top.children[top.next as usize];
            let bounds = top.bounds[top.next as usize];
            top.next += 1;
            let g = lane.g0 + depth; // depth of the child
            if g >= self.bound {
                // A leaf within the bound that is not solved (h = 0 without being solved, which
                // tables that ignore some pieces allow): its children have f >= bound + 1.
                self.min_exceeded = self.min_exceeded.min(self.bound + 1);
                continue;
            }
            let m = Move::from_index(mi as usize);
            let child = top.node.child(mi as usize, self.track_p, self.mt);
            lane.path.push(m);
            self.begin(&mut lane.exp, &child, g, m.face_index(), bounds);
            lane.expanding = true;
            return Step::Working;
        }
    }

    /// Starts the expansion of `node` at depth `g` (with [`Bounds`] `bounds`) in `e` and
    /// prefetches the node's move-table rows. Its children's entries of the first lookup are
    /// computed and prefetched by the lane's next step, which needs those rows: done here,
    /// the lookup would stall on them (measured: 2–3 % of the search rate). When the first
    /// lookup is the corner successor word, it needs no rows: it is prefetched here and read
    /// by the next step.
    #[inline(always)]
    fn begin(&mut self, e: &mut Expansion, node: &Node, g: u8, last_face: usize, bounds: Bounds) {
        let allowed = ALLOWED_AFTER[last_face];
        self.nodes += allowed.count_ones() as u64;
        e.node = *node;
        e.composed = false;
        e.g = g;
        e.alive = allowed;
        e.h = [0; BATCH];
        e.read = 0;
        e.bounds = bounds;
        e.skipped = 0;
        e.lookup = 0;
        e.pending = false;
        node.prefetch_rows(self.mt);
        if let Some((successors, corner)) = self.successors {
            let i = corner_entry(node.corners);
            // The value is known unless the node is a work unit (not read from a frame).
            e.corner_value = match bounds.get(corner) {
                15 => self.h.table(&self.h.lookups()[corner]).1.get(i),
                v => v,
            };
            if corner == 0 {
                successors.prefetch(i);
                e.pending = true;
            }
        }
    }

    /// Computes the indices of the next lookup for the children still alive and prefetches
    /// their entries; returns false when no lookup is left.
    ///
    /// Lookups that cannot prune are skipped. Every table value is a distance in an
    /// abstraction of the cube where a move is one step, so a child's value is at most its
    /// parent's plus one; when that is still within the children's budget, reading it could
    /// not prune any child. (The skipped value is missing from the children's move-ordering
    /// keys; their bounds become the parent's plus one.)
    #[inline(always)]
    fn prepare(&self, e: &mut Expansion) -> bool {
        let lookups = self.h.lookups();
        let budget = self.bound - e.g - 1;
        while e.lookup < lookups.len() && self.skippable & (1 << e.lookup) != 0 {
            let ub = e.bounds.get(e.lookup);
            if ub == 15 || ub + 1 > budget {
                break;
            }
            e.skipped |= ((ub + 1).min(15) as u32) << (4 * e.lookup);
            e.lookup += 1;
        }
        if e.lookup == lookups.len() {
            return false;
        }
        e.pending = true;
        let l = &lookups[e.lookup];
        let (pat, table) = self.h.table(l);
        if reads_corner_coordinates(pat, l) {
            if let Some((successors, _)) = self.successors {
                successors.prefetch(corner_entry(e.node.corners));
                return true;
            }
            let [c, t] = e.node.corners.map(|x| x as usize * N_MOVES);
            let (crow, trow) = (
                &self.mt.corners[c..][..N_MOVES],
                &self.mt.twist[t..][..N_MOVES],
            );
            // Every move's slot, without branches (the loop over the living children ends
            // with a mispredicted branch): dead slots get entry 0, a line that stays cached.
            for k in 0..N_MOVES {
                let i = corner_entry([crow[k], trow[k]]) * (e.alive >> k & 1) as u64;
                e.corner_idx[k] = i;
                table.prefetch(i);
            }
            return true;
        }
        if !e.composed {
            for k in Members(e.alive) {
                e.cqs[k] = e.node.child_q(k);
                if self.track_p {
                    e.cps[k] = e.node.child_p(k);
                }
            }
            e.composed = true;
        }
        // The cubes the pattern reads, and those of the inverse (dual) position.
        let (own, other) = pat.input_and_other(&e.cps, &e.cqs);
        let idx = &mut e.idx;
        pat.for_each_index(turn(l, own, e.alive, &mut e.turned), e.alive, |k, i| {
            idx[k] = i;
            table.prefetch(i);
        });
        // Self-dual tables read the same entry for the inverse position.
        if self.dual && !pat.is_self_dual() {
            let idx_dual = &mut e.idx_dual;
            pat.for_each_index(turn(l, other, e.alive, &mut e.turned), e.alive, |k, i| {
                idx_dual[k] = i;
                table.prefetch(i);
            });
        }
        true
    }

    /// Reads the entries of lookup `e.lookup` and drops the children it prunes.
    #[inline(always)]
    fn evaluate(&mut self, e: &mut Expansion) {
        let l = &self.h.lookups()[e.lookup];
        let (pat, table) = self.h.table(l);
        let budget = self.bound - e.g - 1;
        // The values of untracked lookups go to the scratch row.
        let vals = &mut e.vals[e.lookup.min(TRACKED)];
        e.read |= (1 << e.lookup) & ((1 << TRACKED) - 1);
        if reads_corner_coordinates(pat, l) {
            // (Self-dual: `prepare` computes no dual indices for it.)
            if let Some((successors, _)) = self.successors {
                // Every move's slot, the dead ones too.
                successors.children(corner_entry(e.node.corners), e.corner_value, vals);
            } else {
                // All slots, as in `prepare` (dead ones read entry 0).
                for k in 0..N_MOVES {
                    vals[k] = table.get(e.corner_idx[k]);
                }
            }
        } else if self.dual && !pat.is_self_dual() {
            for k in Members(e.alive) {
                vals[k] = table.get(e.idx[k]).max(table.get(e.idx_dual[k]));
            }
        } else {
            for k in Members(e.alive) {
                vals[k] = table.get(e.idx[k]);
            }
        }
        // Branch-free: whether a child is pruned is close to a coin toss.
        let (pruned, min_h) = raise_and_cut(&mut e.h, vals, budget, e.alive);
        // (Without a branch: `min_h` is 255 when no child was cut, and the sum saturates.)
        self.min_exceeded = self.min_exceeded.min((e.g + 1).saturating_add(min_h));
        e.alive &= !pruned;
        e.lookup += 1;
        e.pending = false;
    }
}

/// Does the CPU have the x86-64-v3 features [`Worker::run`] can use?
#[cfg(target_arch = "x86_64")]
fn has_x86_64_v3() -> bool {
    std::is_x86_feature_detected!("avx2")
        && std::is_x86_feature_detected!("bmi1")
        && std::is_x86_feature_detected!("bmi2")
        && std::is_x86_feature_detected!("lzcnt")
        && std::is_x86_feature_detected!("popcnt")
        && std::is_x86_feature_detected!("fma")
        && std::is_x86_feature_detected!("movbe")
}

/// Is lookup `l` of pattern `pat` read at the corner coordinates the search keeps ([`Node`])
/// rather than by ranking a cube?
#[inline(always)]
fn reads_corner_coordinates(pat: &Pattern, l: &Lookup) -> bool {
    *pat == Pattern::Corners && l.conj.is_none()
}

/// Writes the frame of the evaluated expansion `e` (its surviving children sorted by value),
/// or returns the move to a solved child.
#[inline(always)]
fn push_frame(e: &Expansion, frame: &mut Frame, mt: &MoveTables) -> Option<Move> {
    frame.node = e.node;
    frame.len = 0;
    frame.next = 0;
    for k in Members(e.alive) {
        let v = e.h[k];
        if v == 0 && e.node.child_q(k).is_solved() {
            return Some(Move::from_index(k));
        }
        // The child may be the next node its lane expands, a few lane steps from now.
        e.node.prefetch_child_rows(k, mt);
        // Insertion keeps the children sorted by value (stable: ties keep move order).
        let mut i = frame.len as usize;
        while i > 0 && frame.children[i - 1].1 > v {
            frame.children[i] = frame.children[i - 1];
            frame.bounds[i] = frame.bounds[i - 1];
            i -= 1;
        }
        frame.children[i] = (k as u8, v);
        frame.bounds[i] =
            Bounds(Members(e.read).fold(e.skipped, |b, l| b | (e.vals[l][k] as u32) << (4 * l)));
        frame.len += 1;
    }
    None
}

/// The cubes lookup `l` indexes for the children in bit set `alive`: `cubes` itself, or the
/// turned cubes written into `buf`.
#[inline(always)]
fn turn<'a>(l: &Lookup, cubes: &'a Batch, alive: u32, buf: &'a mut Batch) -> &'a Batch {
    if l.conj.is_none() {
        return cubes;
    }
    for k in Members(alive) {
        buf[k] = l.cube(&cubes[k]);
    }
    buf
}

/// What a worker searches: the iteration's work units, shared by the threads, which take
/// the next one from `next`; and its stop flags (an outside stop, and a solution found by
/// another thread).
struct Work<'w> {
    units: &'w [Unit],
    next: &'w AtomicUsize,
    stops: [&'w AtomicBool; 2],
}

/// A work unit: a node at the split depth and the moves that lead to it.
struct Unit {
    p: Cube,
    q: Cube,
    moves: Vec<Move>,
    h: u8,
}

/// Collects the nodes at depth `depth` that survive the bound (or returns a solution found on
/// the way), with the nodes generated doing so.
fn split(
    h: &Heuristic,
    dual: bool,
    root: Unit,
    bound: u8,
    depth: u8,
    nodes: &mut u64,
    min_exceeded: &mut u8,
) -> Result<Vec<Unit>, Vec<Move>> {
    let mut units = vec![root];
    for g in 0..depth {
        let mut next = Vec::new();
        for u in &units {
            let last = u.moves.last().map_or(6, |m| m.face_index());
            for m in Move::all() {
                if ALLOWED_AFTER[last] & (1 << m.index()) == 0 {
                    continue;
                }
                *nodes += 1;
                let q = m.inverse_cube().compose(&u.q);
                let p = u.p.compose(m.cube());
                let v = h.value(&p, &q, dual);
                let mut moves = u.moves.clone();
                moves.push(m);
                if g + 1 + v > bound {
                    *min_exceeded = (*min_exceeded).min(g + 1 + v);
                } else if q.is_solved() {
                    return Err(moves);
                } else {
                    next.push(Unit { p, q, moves, h: v });
                }
            }
        }
        units = next;
    }
    // Most promising subtrees first.
    units.sort_by_key(|u| u.h);
    Ok(units)
}

/// Runs one iteration with `bound`; returns (solution, nodes, smallest exceeding f).
///
/// The tree is split at `split_depth` into work units, most promising first; every thread
/// takes units from the shared list as its lanes become free, so no thread idles while units
/// are left. A solution found anywhere stops all threads: every solution of this iteration has
/// `bound` moves and is optimal.
fn iteration(
    h: &Heuristic,
    p: &Cube,
    q: &Cube,
    bound: u8,
    opts: &SearchOptions,
    stop: &AtomicBool,
) -> (Option<Vec<Move>>, u64, u8) {
    let mut nodes = 0;
    let mut min_exceeded = u8::MAX;
    let depth = opts.split_depth.min(bound.saturating_sub(1));
    let root = Unit {
        p: *p,
        q: *q,
        moves: vec![],
        h: 0,
    };
    let units = match split(
        h,
        opts.dual,
        root,
        bound,
        depth,
        &mut nodes,
        &mut min_exceeded,
    ) {
        Ok(u) => u,
        Err(sol) => return (Some(sol), nodes + 1, min_exceeded),
    };
    let next = AtomicUsize::new(0);
    if opts.threads <= 1 {
        let mut w = Worker::new(h, opts, bound);
        let sol = w.run(&Work {
            units: &units,
            next: &next,
            stops: [stop, stop],
        });
        return (sol, nodes + 1 + w.nodes, min_exceeded.min(w.min_exceeded));
    }
    let found: Mutex<Option<Vec<Move>>> = Mutex::new(None);
    let total_nodes = AtomicU64::new(nodes + 1);
    let min_ex = std::sync::atomic::AtomicU8::new(min_exceeded);
    // Either an outside stop or a solution found by a sibling ends the iteration's workers.
    let local_stop = AtomicBool::new(false);
    std::thread::scope(|s| {
        let workers: Vec<_> = (0..opts.threads)
            .map(|_| {
                s.spawn(|| {
                    let mut w = Worker::new(h, opts, bound);
                    let work = Work {
                        units: &units,
                        next: &next,
                        stops: [stop, &local_stop],
                    };
                    if let Some(sol) = w.run(&work) {
                        found.lock().expect("lock").get_or_insert(sol);
                        local_stop.store(true, Relaxed);
                    }
                    total_nodes.fetch_add(w.nodes, Relaxed);
                    min_ex.fetch_min(w.min_exceeded, Relaxed);
                })
            })
            .collect();
        for w in workers {
            w.join().expect("search worker");
        }
    });
    let sol = found.into_inner().expect("lock");
    (sol, total_nodes.into_inner(), min_ex.into_inner())
}

/// Finds an optimal solution of `cube` with IDA*.
pub fn solve(h: &Heuristic, cube: &Cube, opts: &SearchOptions, stop: &AtomicBool) -> SearchResult {
    let start = Instant::now();
    let p = *cube;
    let q = cube.inverse();
    let mut result = SearchResult {
        solution: None,
        optimal: false,
        lower_bound: 0,
        nodes: 1,
        iterations: vec![],
        seconds: 0.0,
        interrupted: false,
    };
    if cube.is_solved() {
        result.solution = Some(vec![]);
        result.optimal = true;
        return result;
    }
    let mut bound = h.value(&p, &q, opts.dual).max(1);
    result.lower_bound = bound;
    loop {
        if bound > opts.max_depth {
            break;
        }
        let t = Instant::now();
        let (sol, nodes, min_exceeded) = iteration(h, &p, &q, bound, opts, stop);
        result.nodes += nodes;
        result.iterations.push(Iteration {
            bound,
            nodes,
            seconds: t.elapsed().as_secs_f64(),
        });
        if let Some(s) = sol {
            debug_assert_eq!(s.len(), bound as usize);
            result.solution = Some(s);
            result.optimal = true;
            result.lower_bound = bound;
            break;
        }
        if stop.load(Relaxed) {
            result.interrupted = true;
            break;
        }
        // Iteration `bound` was complete and found nothing.
        bound = min_exceeded.max(bound + 1);
        result.lower_bound = bound;
    }
    result.seconds = start.elapsed().as_secs_f64();
    result
}
