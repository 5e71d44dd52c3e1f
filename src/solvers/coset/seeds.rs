//! The phase-1 enumeration: every canonical sequence of exactly `d` moves that takes the coset's
//! representative into H and ends with a quarter turn of R, L, F or B, each giving one element
//! of H at `d` moves from the representative.
//!
//! Sequences that end with a move of H need no search: the prepass of the bitmap adds them
//! ([`super::bitmap`]). The search is Kociemba's phase 1 with its exact distances, read from
//! the entries of [`DownMasks`] (derived from the two-phase solver's phase-1 table), so it
//! only walks nodes from which H is reachable in the moves left.
//!
//! Two more cuts, both exact:
//! - the last move comes from outside H: a node with one move to go must be exactly one move
//!   from H, and only the quarter turns of R, L, F and B are tried from it;
//! - short loops (Rokicki's `hcoset` makes the same cut): below a node reached by a move, with
//!   `rest` moves to go and at phase-1 distance `nd < rest`, nothing is walked when
//!   `rest + nd < 5` ([`SHORT_LOOP`]). Such a tail leaves H's neighbourhood and comes back
//!   within four moves, which it can only do with a move of H that commutes past the end
//!   (`U R2 L` is `U L` then `R2`), so its element is a shorter seed's and the prepass adds it.
//!   The tests check that the counts with and without the cut are the same.
//!
//! A node with no slack (its distance to H equals the moves it has left) walks only the moves
//! one closer, and a node with one move of slack only the moves closer or as far, read from its
//! masks; other nodes look every child's entry up.
//!
//! **Nodes with no slack are walked in batches.** They are most of a deep walk's nodes (about
//! nine in ten at depth 15), and below one of them the walk is a thin chain: about 1.1 children
//! a node, each of which needs its own masks, a read from a 681 MB table that the one before
//! it decides. Walked one by one, the chain waits on memory at every step. So such a node is not
//! walked when it is reached but queued with the others at its moves to go
//! ([`Walker::drain`]): a queue of [`BATCH`] nodes first asks for every node's entry (its
//! index was computed when it was queued), then expands the nodes, whose children join the next
//! queue down. The reads of a whole batch overlap. The seeds are the same; only their order
//! changes, and the bitmap does not depend on it.
//!
//! Each node carries its phase-1 coordinates (flip, twist and slice combination, moved by
//! tables of 73, 78 and 18 KB that stay in L2) and its cubies, moved by byte shuffles, which are
//! ranked only at a seed ([`Moves::element_of`]). A seed's bit is held in the walk's
//! [`SeedWrites`], which writes its bits page by page when it is full and when the depth's walk
//! ends ([`super::writes`]).

use super::bitmap::Bitmap;
use super::index::{Moves, Relabel};
use super::masks::DownMasks;
use super::writes::SeedWrites;
use crate::coord::{self, N_MOVES, N_SLICE_PERM, P2_MOVE_MASK};
use crate::cube::{ALLOWED_AFTER, Cube, Move};
use crate::solvers::twophase::{TwoPhase, step_distance};

/// The short-loop cut's bound: below a node with `rest` moves left and phase-1 distance
/// `nd < rest`, nothing is walked when `rest + nd` is less (see the module docs).
pub const SHORT_LOOP: u8 = 5;

/// The moves that may end a seed: quarter turns of R, L, F, B.
pub const LAST_MOVES: u32 = ((1 << N_MOVES) - 1) & !P2_MOVE_MASK;
/// "No previous move" for [`ALLOWED_AFTER`].
const NO_FACE: u8 = 6;
/// Nodes with no slack expanded together (module docs): enough that a batch's mask reads
/// overlap, few enough that they stay in the cache until they are read (32 and 64 took the
/// same time at depth 15, 256 longer).
pub const BATCH: usize = 64;

/// A node of the enumeration.
#[derive(Clone, Copy, Debug)]
pub struct Phase1Node {
    /// The position's corners and edges, for its element at a seed.
    cube: Cube,
    flip: u16,
    twist: u16,
    /// The slice edges' combination, 0..495.
    comb: u16,
    /// Exact phase-1 distance.
    dist: u8,
    last_face: u8,
    /// Entry index and symmetry ([`DownMasks::index`]), set where the walk may read the
    /// node's masks.
    index: u32,
    sym: u8,
}

impl Phase1Node {
    /// The root: the representative itself.
    pub fn root(tp: &TwoPhase, masks: &DownMasks, p: &Cube) -> Phase1Node {
        let (flip, twist, slice) = (
            coord::flip(&p.eo()),
            coord::twist(&p.co()),
            coord::slice_sorted(&p.ep()),
        );
        let comb = slice / N_SLICE_PERM as u16;
        let (index, sym) = masks.index(flip, twist, comb);
        Phase1Node {
            cube: *p,
            index,
            sym,
            flip,
            twist,
            comb,
            dist: tp.phase1_distance(flip as usize, twist as usize, slice as usize),
            last_face: NO_FACE,
        }
    }

    /// Phase-1 distance of the node.
    pub fn distance(&self) -> u8 {
        self.dist
    }

    /// The node's position (the representative moved by the node's sequence).
    pub fn cube(&self) -> &Cube {
        &self.cube
    }

    /// The node's element of H as (page, word, bit); only at distance 0.
    #[inline(always)]
    pub fn element(&self, t: &Moves) -> (usize, usize, u16) {
        debug_assert_eq!(self.dist, 0);
        t.element_of(self.cube.corner_bytes(), self.cube.edge_bytes())
    }
}

/// One thread's walk: where seeds go, and what it counted.
pub struct Walker<'a> {
    t: &'a Moves,
    masks: &'a DownMasks,
    map: &'a Bitmap,
    /// Seeds reached (phase-1 solutions).
    pub seeds: u64,
    /// Seeds' bits not yet written.
    writes: SeedWrites,
    /// Nodes at this many moves to go are collected in `frontier` instead of walked further.
    split: u8,
    pub frontier: Vec<(Phase1Node, u8)>,
    /// Nodes with no slack waiting to be expanded, by their moves to go ([`Walker::drain`]).
    pending: Vec<Vec<Phase1Node>>,
    /// Apply the short-loop cut (off only to check it).
    cut: bool,
    /// A queue is expanded when it holds this many nodes ([`BATCH`]; fewer only to check it).
    batch: usize,
    /// The moves allowed after each face ([`ALLOWED_AFTER`]), the root's (`NO_FACE`) limited
    /// by [`Walker::first_moves`].
    after: [u32; 7],
    /// Maps whose images of each seed are seeds too ([`Walker::first_moves`]).
    images: &'a [Relabel],
}

impl<'a> Walker<'a> {
    pub fn new(
        (t, masks): (&'a Moves, &'a DownMasks),
        map: &'a Bitmap,
        (cut, batch): (bool, usize),
        writes: SeedWrites,
    ) -> Walker<'a> {
        Walker {
            masks,
            cut,
            batch: batch.max(1),
            t,
            map,
            seeds: 0,
            writes,
            split: u8::MAX,
            frontier: Vec::new(),
            pending: Vec::new(),
            after: ALLOWED_AFTER,
            images: &[],
        }
    }

    /// Walks only the sequences whose first move is in `moves` (a bit per move), and sets the
    /// images of each seed under `images` too: H itself walks only sequences that begin with
    /// R and sets each seed's conjugates ([`super`]'s module docs).
    pub fn first_moves(mut self, moves: u32, images: &'a [Relabel]) -> Walker<'a> {
        self.after[NO_FACE as usize] &= moves;
        self.images = images;
        self
    }

    /// Collects the nodes that have `split` moves to go in a walk of `togo` moves from `n`.
    pub fn frontier(mut self, n: Phase1Node, togo: u8, split: u8) -> Vec<(Phase1Node, u8)> {
        self.split = split;
        self.walk(n, togo);
        debug_assert!(self.pending.iter().all(Vec::is_empty));
        self.writes.flush(self.map);
        self.frontier
    }

    /// Walks every seed sequence of `togo` moves from `n` and sets the seeds' bits (all written
    /// once [`Walker::finish`] has run).
    pub fn walk(&mut self, n: Phase1Node, togo: u8) {
        if togo == 0 {
            self.seed(&n);
            return;
        }
        if togo == self.split {
            self.frontier.push((n, togo));
            return;
        }
        let mv = self.t.mv;
        let rest = togo - 1;
        let allowed = self.after[n.last_face as usize];
        if rest == 0 {
            self.last_move(&n);
            return;
        }
        if n.dist == togo && self.split == u8::MAX {
            // No slack: queued (not while collecting a frontier, which must see every node
            // above its split).
            self.queue_no_slack(n, togo);
            return;
        }
        if togo - n.dist <= 1 {
            // No slack: only the moves one closer, whose children have no slack either. One
            // move of slack: only the moves closer or as far. Both read from the node's masks,
            // and the children's masks are asked for before any is walked.
            let (down, same) = self.masks.moves(n.index, n.sym);
            let mut moves = (if n.dist == togo { down } else { down | same }) & allowed;
            let mut kids = [n; N_MOVES];
            let mut count = 0;
            while moves != 0 {
                let m = moves.trailing_zeros() as usize;
                moves &= moves - 1;
                let dist = n.dist - (down >> m & 1) as u8;
                if self.cut && dist < rest && rest + dist < SHORT_LOOP {
                    continue;
                }
                let mut child = self.child(&n, m, dist);
                if rest >= 2 && (dist < rest || self.split != u8::MAX) {
                    // (A child with no slack is asked for when it is queued.)
                    self.index(&mut child);
                }
                kids[count] = child;
                count += 1;
            }
            for &child in &kids[..count] {
                self.walk(child, rest);
            }
            return;
        }
        // The children's lookups go in two rounds so that the cache misses overlap: each
        // child's entry is asked for, then read.
        let mut index = [(0u32, 0u8); N_MOVES];
        let mut bits = allowed;
        while bits != 0 {
            let m = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            index[m] = self.masks.index(
                mv.flip[n.flip as usize * N_MOVES + m],
                mv.twist[n.twist as usize * N_MOVES + m],
                self.t.comb[n.comb as usize * N_MOVES + m],
            );
            self.masks.prefetch(index[m].0);
        }
        let (mut kids, mut count) = ([n; N_MOVES], 0);
        let mut bits = allowed;
        while bits != 0 {
            let m = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            let dist = step_distance(n.dist, self.masks.residue(index[m].0));
            if dist > rest || (self.cut && dist < rest && rest + dist < SHORT_LOOP) {
                continue;
            }
            let mut child = self.child(&n, m, dist);
            (child.index, child.sym) = index[m];
            kids[count] = child;
            count += 1;
        }
        for &child in &kids[..count] {
            self.walk(child, rest);
        }
    }

    /// The seeds one move below `n`, which has one move to go: a child is a seed exactly when
    /// it is in H, which its coordinates say without the table ([`Moves::into_h`]).
    #[inline(always)]
    fn last_move(&mut self, n: &Phase1Node) {
        let mut bits =
            self.after[n.last_face as usize] & LAST_MOVES & self.t.into_h(n.flip, n.twist, n.comb);
        while bits != 0 {
            let m = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            let child = self.child(n, m, 0);
            self.seed(&child);
        }
    }

    /// Queues a node with no slack and at least two moves to go ([`Walker::push`]), and
    /// expands its queue once it holds [`BATCH`] nodes.
    #[inline(always)]
    fn queue_no_slack(&mut self, n: Phase1Node, togo: u8) {
        let t = togo as usize;
        if self.pending.len() <= t {
            self.pending.resize_with(t + 1, Vec::new);
        }
        self.push(n, togo);
        if self.pending[t].len() >= self.batch {
            self.drain(togo);
        }
    }

    /// Puts a node with no slack on the queue of its moves to go (which exists), asking for
    /// its flip-slice class now: the queue computes its index later.
    #[inline(always)]
    fn push(&mut self, n: Phase1Node, togo: u8) {
        debug_assert!(n.dist == togo && togo >= 2);
        let mut n = n;
        // Its entry is asked for with its queue's others ([`Walker::drain`]).
        (n.index, n.sym) = self.masks.index(n.flip, n.twist, n.comb);
        self.pending[togo as usize].push(n);
    }

    /// Expands the queue of nodes with no slack and `togo` moves to go: first every node's table
    /// index, asking for its masks; then each node's moves one closer (the only ones that can
    /// reach a seed in time), whose children have no slack either and join the queue below, or
    /// are seeds' parents at the last move. The queue below is expanded in turn when it is full.
    fn drain(&mut self, togo: u8) {
        let t = togo as usize;
        let mut batch = std::mem::take(&mut self.pending[t]);
        for n in &batch {
            self.masks.prefetch(n.index);
        }
        let rest = togo - 1;
        for n in &batch {
            let (down, _) = self.masks.moves(n.index, n.sym);
            let mut moves = down & self.after[n.last_face as usize];
            while moves != 0 {
                let m = moves.trailing_zeros() as usize;
                moves &= moves - 1;
                let child = self.child(n, m, rest);
                if rest == 1 {
                    self.last_move(&child);
                } else {
                    self.push(child, rest);
                }
            }
        }
        batch.clear();
        // Nothing joins this queue while it is expanded (children have one move less), so
        // its buffer goes back for reuse.
        self.pending[t] = batch;
        if rest >= 2 && self.pending[rest as usize].len() >= self.batch {
            self.drain(rest);
        }
    }

    /// Expands every queued node, deepest queue first (each feeds the one below).
    fn drain_all(&mut self) {
        for t in (2..self.pending.len()).rev() {
            if !self.pending[t].is_empty() {
                self.drain(t as u8);
            }
        }
    }

    /// Sets a node's entry index and asks for its entry.
    #[inline(always)]
    fn index(&self, n: &mut Phase1Node) {
        (n.index, n.sym) = self.masks.index(n.flip, n.twist, n.comb);
        self.masks.prefetch(n.index);
    }

    /// The node after move `m`, at phase-1 distance `dist`.
    #[inline(always)]
    fn child(&self, n: &Phase1Node, m: usize, dist: u8) -> Phase1Node {
        let (mv, t) = (self.t.mv, self.t);
        Phase1Node {
            cube: n.cube.apply(Move::from_index(m)),
            flip: mv.flip[n.flip as usize * N_MOVES + m],
            twist: mv.twist[n.twist as usize * N_MOVES + m],
            comb: t.comb[n.comb as usize * N_MOVES + m],
            dist,
            last_face: (m / 3) as u8,
            index: 0,
            sym: 0,
        }
    }

    /// Holds a seed's bit, to be written with the others ([`SeedWrites`]).
    #[inline(always)]
    fn seed(&mut self, n: &Phase1Node) {
        let (c, e8, bit) = n.element(self.t);
        self.seeds += 1;
        self.writes.push(self.map, c, e8, bit);
        if !self.images.is_empty() {
            let p = self.t.parity8[c] ^ self.t.parity8[e8];
            for r in self.images {
                let (c, e8) = (r.page[c] as usize, r.word[e8] as usize);
                self.writes.push(self.map, c, e8, r.bits(p, bit));
            }
        }
    }

    /// Walks the queued nodes; returns the seeds' bits still held, which the caller writes
    /// ([`SeedWrites::flush`]) before the depth's bitmap is read.
    pub fn finish(mut self) -> (u64, SeedWrites) {
        self.drain_all();
        (self.seeds, self.writes)
    }
}
