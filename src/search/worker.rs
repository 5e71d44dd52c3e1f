//! One search thread: a [`Worker`] runs several depth-first searches ("lanes") of work units
//! with a fixed bound, switching lane at every memory round so that the entries one lane
//! prefetched arrive while the others compute; it counts nodes and the smallest `g + h` that
//! exceeded the bound. Every choice below leaves the set of nodes a complete iteration
//! generates unchanged (it changes only which entries are fetched, or the order); the
//! measurements that decided them are in `results/worker-choices.md`.
//!
//! **Dual lookups in two rounds** ([`super::Optimizations::split_dual`]). A lookup read on the
//! position and on its inverse first fetches one side's entries of all living children; the
//! other side's entries are fetched, in a second memory round, only for the children the
//! first did not prune. Every survivor gets the same value as when both are read at once.
//!
//! **Inverse first** ([`super::Optimizations::inverse_first`]) for a coset table of a subgroup that
//! holds every half turn: the first round reads the inverse's entries, the second the
//! position's. The inverse's entries of a node's children fill about one cache line per face:
//! a half turn's child reads the node's own inverse entry, and the children by `m` and `m⁻¹`
//! read one entry (their inverses differ by the half turn `m²` on the left), so only one
//! index a face is computed. The position's entries are one line a child.
//!
//! **Switching sides** ([`SearchOptions::switch_sides`], off by default). When every lookup is
//! the coset table `sym48e0` read on the position and its inverse, a node may be extended on
//! either side: a move `m` after the position (`P · m`) or, equally, a move `m` after the
//! inverse (`P⁻¹ · m`, i.e. the premove `m⁻¹ · P`). Every solution of a node is found from
//! either side (its last move, taken off the end, is a move of the inverse side). With the
//! option, each child is extended on the side whose value is larger (a tie keeps the side).
//! The solution is the position side's moves followed by the inverse side's, reversed and
//! inverted. Each side keeps its own canonical-sequence rule; the side chosen for a node
//! depends on the node and its path's sides alone, so no node is reached twice by making its
//! two sides' moves in another order. It saves no nodes here, hence off.
//!
//! **Half-turn cuts** ([`super::Optimizations::half_turn_cuts`]). When the first lookup is a coset
//! table of a subgroup that holds every half turn (`sym48e0`, `sym48e4`; `sym48e6`, whose
//! index is a function of the all-edges coset, which holds them too), read on the position
//! and its inverse, a half turn `m` leaves the inverse's entry as it is: `(P · m)⁻¹ = m · P⁻¹`
//! lies in the coset of `P⁻¹`, and the index is the same. So each node keeps its own inverse
//! value (read when it was a child); when that value exceeds the children's budget — the
//! inverse side is tight — the half-turn children are dropped before either round. Their
//! inverse entry is that value, so the same nodes are generated.
//!
//! The loop is bounded by its cache misses (a random prefetch into a large table costs about
//! one line per 13–14 ns here however many are in flight), so what pays is making fewer.

mod lookups;

use super::cut::HALF_TURN_SLOTS as HALF_TURNS;
use super::heuristic::{Heuristic, Lookup};
use super::node::{Bounds, Expansion, Frame, Node, SWITCH, TRACKED, corner_entry, push_frame};
use super::options::SearchOptions;
use super::rotations::{NO_CAP, SyllableCap};
use crate::coord::MoveTables;
use crate::cube::{ALLOWED_AFTER, Cube, Metric, Move};
use crate::pdb::Pattern;
use crate::pdb::batch::BATCH;
use crate::pdb::successors::CornerSuccessors;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering::Relaxed};

/// One depth-first search of a work unit's subtree, in progress. A thread runs several lanes
/// and switches between them at every memory round (see [`Worker::step`]).
pub(super) struct Lane {
    /// The stack: frames `..depth` are in use. Long enough for the bound: a frame is pushed
    /// for each expanded node of a path, and those are at most `bound` deep.
    frames: Vec<Frame>,
    depth: usize,
    /// Moves from the unit's node to the node being expanded, each with the side it was made
    /// on (true: the inverse's, see the module docs).
    path: Vec<(Move, bool)>,
    /// The unit being searched (index into the units).
    unit: usize,
    /// Depth of the unit's node.
    g0: u8,
    /// The unit's [`Unit::cap`].
    cap: usize,
    /// Nodes generated in the unit so far (reported to [`Work::unit_nodes`] when it is done).
    nodes: u64,
    exp: Box<Expansion>,
    /// An expansion is in progress (`exp.pending` tells whether a lookup is prefetched).
    expanding: bool,
    /// No unit is left for this lane.
    done: bool,
}

impl Lane {
    pub(super) fn new(bound: u8) -> Lane {
        let empty = Frame {
            node: Node::new(&Cube::SOLVED, &Cube::SOLVED),
            children: [(0, 0); 18],
            bounds: [Bounds::UNKNOWN; 18],
            inv: [15; 18],
            len: 0,
            next: 0,
            g: 0,
        };
        Lane {
            frames: vec![empty; bound as usize + 1],
            depth: 0,
            path: Vec::with_capacity(24),
            unit: 0,
            g0: 0,
            cap: NO_CAP as usize,
            nodes: 0,
            exp: Box::new(Expansion {
                node: Node::new(&Cube::SOLVED, &Cube::SOLVED),
                corner_value: 0,
                g: 0,
                cps: [Cube::SOLVED; BATCH],
                cqs: [Cube::SOLVED; BATCH],
                made_p: 0,
                made_q: 0,
                turned: [Cube::SOLVED; BATCH],
                corner_idx: [0; BATCH],
                idx: [0; BATCH],
                idx_dual: [0; BATCH],
                alive: 0,
                reading: 0,
                inv: [15; BATCH],
                inv_node: 15,
                h: [0; BATCH],
                switch: 0,
                vals: [[0; BATCH]; TRACKED + 1],
                read: 0,
                bounds: Bounds::UNKNOWN,
                skipped: 0,
                lookup: 0,
                pending: false,
                second_half: false,
            }),
            expanding: false,
            done: false,
        }
    }
}

/// What a lane's step ended with.
pub(super) enum Step {
    /// The lane has work in flight.
    Working,
    /// No unit is left, or the search was stopped.
    Done,
    /// A solution: the moves from the root.
    Solved(Vec<Move>),
}

/// Searches work units with a fixed bound on one thread; counts nodes and the smallest f that
/// exceeded the bound.
pub(super) struct Worker<'a> {
    h: &'a Heuristic,
    dual: bool,
    /// The positions are needed (dual, or a table that reads the position).
    track_p: bool,
    /// The move tables, when a lookup reads the corner coordinates
    /// ([`reads_corner_coordinates`]): the nodes keep them, and their move-table rows are
    /// prefetched. (The coset tables' sets have no such lookup: there the rows would be loads
    /// and prefetches for nothing, and the 2.3 MB of tables are not even built.)
    corner_rows: Option<&'static MoveTables>,
    bound: u8,
    /// The quarter-turn metric: a half turn costs two (see [`Worker::run`]).
    qtm: bool,
    /// Lookups of quarter-turn tables (bit set): a half-turn child's value may exceed its
    /// parent's by two there.
    quarter_tables: u32,
    /// Lookups that may be skipped (bit set): see [`Worker::prepare`].
    skippable: u32,
    /// Lanes per thread ([`SearchOptions::lanes`], at least 1).
    lanes: usize,
    /// Extend each node on the side that reads the larger value (module docs).
    switch_sides: bool,
    /// Run the baseline-CPU search loop ([`super::Optimizations::x86_64_v3`]).
    baseline_cpu: bool,
    /// Read dual lookups in two rounds ([`super::Optimizations::split_dual`]; never with side
    /// switching, which needs both values of every child).
    split_dual: bool,
    /// Cut the half-turn children by the node's own inverse value
    /// ([`super::Optimizations::half_turn_cuts`]): only when the first lookup is a coset table of a
    /// subgroup that holds the half turns, read both ways, and sides are not switched.
    half_turn_cuts: bool,
    /// Read a split coset lookup's inverse entries in the first round
    /// ([`super::Optimizations::inverse_first`]).
    inverse_first: bool,
    /// The corner successor table and the index of the corner lookup it answers, when the
    /// search reads it ([`SearchOptions::corner_successors`]). That lookup is never skipped,
    /// so every node's corner value is known exactly.
    successors: Option<(&'a CornerSuccessors, usize)>,
    /// Fallback lookups are read for a child only when its value so far is at least this much
    /// below the budget ([`SearchOptions::fallback_slack`]).
    fallback_slack: u8,
    /// Fallback lookups read the inverse position too ([`SearchOptions::fallback_dual`]).
    fallback_dual: bool,
    pub(super) nodes: u64,
    pub(super) min_exceeded: u8,
}

impl<'a> Worker<'a> {
    pub(super) fn new(h: &'a Heuristic, opts: &SearchOptions, bound: u8) -> Worker<'a> {
        let dual = opts.dual;
        let optimized = opts.optimizations();
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
                optimized.skip_lookups
                    && !l.fallback
                    && (!dual || h.table(l).0.is_self_dual())
                    && successors.is_none_or(|(_, corner)| i != corner)
            })
            .fold(0, |s, (i, _)| s | 1 << i);
        // Side switching needs a heuristic that reads position and inverse alike: only coset
        // tables read both ways (the corner coordinates belong to the position).
        let switch_sides = opts.switch_sides
            && dual
            && successors.is_none()
            && h.lookups().iter().all(|l| {
                let (pat, _) = h.table(l);
                l.conj.is_none() && pat.coset_holds_half_turns() && pat.reads_position()
            });
        Worker {
            h,
            dual,
            track_p: dual || h.reads_position(),
            corner_rows: (h.lookups().iter())
                .any(|l| reads_corner_coordinates(&h.table(l).0, l))
                .then(MoveTables::get),
            bound,
            qtm: opts.metric == Metric::Qtm,
            quarter_tables: (h.lookups().iter().enumerate())
                .filter(|(i, l)| *i < 32 && h.table(l).0.metric() == Metric::Qtm)
                .fold(0, |s, (i, _)| s | 1 << i),
            skippable,
            lanes: opts.lanes.max(1),
            switch_sides,
            baseline_cpu: !optimized.x86_64_v3,
            split_dual: optimized.split_dual && !switch_sides,
            inverse_first: optimized.inverse_first,
            half_turn_cuts: optimized.half_turn_cuts
                && dual
                && !switch_sides
                && h.lookups()
                    .first()
                    .is_some_and(|l| l.conj.is_none() && h.table(l).0.coset_holds_half_turns()),
            successors,
            fallback_slack: opts.fallback_slack,
            fallback_dual: opts.fallback_dual,
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
    ///
    /// The loop is also compiled once for each metric (`QTM`), so that the half-turn search
    /// carries nothing of the other. In the quarter-turn metric a node's `g` is its path's
    /// cost (kept in its frame), its children share the quarter turns' budget `bound - g - 1`,
    /// and a half-turn child's value is raised to its distance's parity, which makes it exceed
    /// that budget exactly when it exceeds its own, one less ([`raise_and_cut`]). The smallest
    /// `g + h` beyond the bound is then one short for half-turn children; the caller raises it
    /// to the bound's parity, which makes it exact (`docs/search.md`, "Metrics").
    ///
    /// [`raise_and_cut`]: super::cut::raise_and_cut
    pub(super) fn run(&mut self, work: &Work) -> Option<Vec<Move>> {
        #[cfg(target_arch = "x86_64")]
        if !self.baseline_cpu && has_x86_64_v3() {
            // SAFETY: the CPU has every feature `run_v3` is compiled for.
            return unsafe {
                if self.qtm {
                    self.run_v3::<true>(work)
                } else {
                    self.run_v3::<false>(work)
                }
            };
        }
        if self.qtm {
            self.run_loop::<true>(work)
        } else {
            self.run_loop::<false>(work)
        }
    }

    /// [`Worker::run`] for x86-64-v3 CPUs.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx,avx2,bmi1,bmi2,lzcnt,popcnt,fma,movbe")]
    unsafe fn run_v3<const QTM: bool>(&mut self, work: &Work) -> Option<Vec<Move>> {
        self.run_loop::<QTM>(work)
    }

    #[inline(always)]
    fn run_loop<const QTM: bool>(&mut self, work: &Work) -> Option<Vec<Move>> {
        let mut lanes: Vec<Lane> = (0..self.lanes).map(|_| Lane::new(self.bound)).collect();
        loop {
            let mut working = false;
            for lane in lanes.iter_mut().filter(|l| !l.done) {
                match self.step::<QTM>(lane, work) {
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
    fn step<const QTM: bool>(&mut self, lane: &mut Lane, work: &Work) -> Step {
        if lane.expanding {
            if lane.exp.pending {
                self.evaluate::<QTM>(&mut lane.exp);
            }
            if lane.exp.alive != 0 && self.prepare::<QTM>(&mut lane.exp) {
                return Step::Working;
            }
            lane.expanding = false;
            let frame = &mut lane.frames[lane.depth];
            if let Some(m) = push_frame(&lane.exp, frame, self.corner_rows()) {
                lane.path.push((m, lane.exp.node.flipped));
                let moves = solution(&work.units[lane.unit].moves, &lane.path);
                let Some(found) = work.collect else {
                    return Step::Solved(moves);
                };
                // Collecting: the search goes on. The node's other children are at the bound
                // too and cannot be solved (one move reaches solved), so its frame, cut short
                // at the solved child, holds only leaves.
                lane.path.pop();
                found.lock().expect("lock").push((lane.unit, moves));
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
                // The unit is finished (or none was taken yet): report it, take the next one.
                if lane.nodes > 0 {
                    work.unit_nodes[lane.unit].store(lane.nodes, Relaxed);
                    lane.nodes = 0;
                }
                let i = work.next.fetch_add(1, Relaxed);
                let Some(u) = work.units.get(i) else {
                    return Step::Done;
                };
                if work.has_enough_before(i) {
                    return Step::Done;
                }
                lane.unit = i;
                lane.g0 = if QTM {
                    Metric::Qtm.length(&u.moves) as u8
                } else {
                    u.moves.len() as u8
                };
                lane.path.clear();
                let last = u.moves.last().map_or(6, |m| m.face_index());
                let mut allowed = if u.any_first_order && last < 6 {
                    ALL_MOVES & !(0b111 << (3 * last))
                } else {
                    ALLOWED_AFTER[last]
                };
                lane.cap = u.cap as usize;
                if let Some(m) = u.moves.last() {
                    allowed &= SyllableCap::MASKS[lane.cap][m.index()];
                }
                let (p, q) = work.root.after(&u.moves);
                lane.nodes += self.begin(
                    &mut lane.exp,
                    &Node::new(&p, &q),
                    lane.g0,
                    allowed,
                    (Bounds::UNKNOWN, 15),
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
            let (byte, _) = top.children[top.next as usize];
            let mi = byte & !SWITCH;
            let bounds = (top.bounds[top.next as usize], top.inv[top.next as usize]);
            top.next += 1;
            // The child's depth (its path's cost).
            let g = if QTM {
                top.g + 1 + (HALF_TURNS >> mi & 1) as u8
            } else {
                lane.g0 + depth
            };
            if g >= self.bound {
                // A leaf within the bound that is not solved (h = 0 without being solved, which
                // tables that ignore some pieces allow): its children have f >= bound + 1.
                self.min_exceeded = self.min_exceeded.min(self.bound + 1);
                continue;
            }
            let m = Move::from_index(mi as usize);
            let mut child = top
                .node
                .child(mi as usize, self.track_p, self.corner_rows());
            lane.path.push((m, top.node.flipped));
            let mut last = m.face_index();
            if byte & SWITCH != 0 {
                last = child.switch_sides(last);
            }
            let allowed = ALLOWED_AFTER[last] & SyllableCap::MASKS[lane.cap][mi as usize];
            lane.nodes += self.begin(&mut lane.exp, &child, g, allowed, bounds);
            lane.expanding = true;
            return Step::Working;
        }
    }

    /// Starts the expansion of `node` at depth `g` (with [`Bounds`] `bounds` and inverse
    /// value `inv` as its parent read them, children `allowed`: a bit set of moves) in `e`,
    /// counting its children as nodes (returned), and prefetches the node's move-table rows.
    /// Its children's entries of the first lookup are computed and prefetched by the lane's
    /// next step, which needs those rows: done here, the lookup would stall on them
    /// (measured: 2–3 % of the search rate). When the first lookup is the corner successor
    /// word, it needs no rows: it is prefetched here and read by the next step.
    #[inline(always)]
    fn begin(
        &mut self,
        e: &mut Expansion,
        node: &Node,
        g: u8,
        allowed: u32,
        (bounds, inv): (Bounds, u8),
    ) -> u64 {
        let nodes = allowed.count_ones() as u64;
        self.nodes += nodes;
        e.node = *node;
        e.made_p = 0;
        e.made_q = 0;
        e.g = g;
        e.alive = allowed;
        e.h = [0; BATCH];
        e.switch = 0;
        e.read = 0;
        e.bounds = bounds;
        e.inv_node = inv;
        e.skipped = 0;
        e.lookup = 0;
        e.pending = false;
        e.second_half = false;
        if let Some(mt) = self.corner_rows() {
            node.prefetch_rows(mt);
        }
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
        nodes
    }
}

/// The solution of a unit reached by `prefix` (moves on the position) whose search made the
/// moves of `path` (each with its side, true for the inverse's): the position side's moves,
/// then the inverse side's reversed and inverted (see the module docs).
fn solution(prefix: &[Move], path: &[(Move, bool)]) -> Vec<Move> {
    let mut moves = prefix.to_vec();
    moves.extend(path.iter().filter(|(_, inv)| !inv).map(|(m, _)| *m));
    moves.extend(
        path.iter()
            .rev()
            .filter(|(_, inv)| *inv)
            .map(|(m, _)| m.inverse()),
    );
    moves
}

/// All 18 moves as a move set.
const ALL_MOVES: u32 = (1 << 18) - 1;

/// One quarter turn of each face (U R F D L B), whose inverse is the move two slots up.
const CLOCKWISE: u32 = 0b001_001_001_001_001_001;

/// Does the CPU have the x86-64-v3 features [`Worker::run`] can use?
#[cfg(target_arch = "x86_64")]
pub(super) fn has_x86_64_v3() -> bool {
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
pub(super) fn reads_corner_coordinates(pat: &Pattern, l: &Lookup) -> bool {
    (*pat == Pattern::CORNERS || *pat == Pattern::CORNERS_QTM) && l.conj.is_none() && !l.fallback
}

/// What a worker searches: the iteration's work units, shared by the threads, which take
/// the next one from `next`; and its stop flags (an outside stop, and a solution found by
/// another thread).
pub(super) struct Work<'w> {
    /// The iteration's root: a unit's position is [`Root::after`] its moves.
    pub(super) root: Root,
    pub(super) units: &'w [Unit],
    pub(super) next: &'w AtomicUsize,
    pub(super) stops: [&'w AtomicBool; 2],
    /// The nodes each unit took (same index as `units`), written by the lane that searched
    /// it once it is done; 0 for a unit not (completely) searched.
    pub(super) unit_nodes: &'w [AtomicU64],
    /// When the search collects solutions ([`SearchOptions::solutions`] above 1): every
    /// solution found, with its unit's index; the lanes go on after each.
    pub(super) collect: Option<&'w FoundSolutions>,
    /// Collecting: how many solutions are wanted.
    pub(super) wanted: usize,
}

impl Work<'_> {
    /// Collecting, are there already `wanted` solutions in units before unit `i`? Units are
    /// taken in order, so every unit before `i` was taken and will be searched to its end:
    /// the first `wanted` solutions in the units' order are then among theirs, and unit `i`
    /// and the later ones need no search. (So the solutions kept are the same on any number
    /// of threads.)
    fn has_enough_before(&self, i: usize) -> bool {
        self.wanted != super::ALL_SOLUTIONS
            && self.collect.is_some_and(|found| {
                let found = found.lock().expect("lock");
                found.iter().filter(|(u, _)| *u < i).count() >= self.wanted
            })
    }
}

/// The solutions a collecting search found, each with the index of its unit.
pub(super) type FoundSolutions = Mutex<Vec<(usize, Vec<Move>)>>;

/// The root of an iteration's tree: the position and its inverse.
#[derive(Clone, Copy)]
pub(super) struct Root {
    pub(super) p: Cube,
    pub(super) q: Cube,
}

impl Root {
    /// The position after `moves` from the root, and its inverse: `P · m₁ ⋯ mₖ` and
    /// `mₖ⁻¹ ⋯ m₁⁻¹ · Q`.
    pub(super) fn after(&self, moves: &[Move]) -> (Cube, Cube) {
        moves.iter().fold((self.p, self.q), |(p, q), m| {
            (p.compose(m.cube()), m.inverse_cube().compose(&q))
        })
    }
}

/// The moves of a work unit, kept inline: a split is at most [`UnitMoves::MAX`] deep, and
/// tens of thousands of units each holding a heap vector cost a few MB, a tenth of the
/// smallest set's memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct UnitMoves {
    len: u8,
    moves: [Move; UnitMoves::MAX],
}

impl UnitMoves {
    /// The deepest split (`solve --split-depth` stops at 6).
    pub(super) const MAX: usize = 6;

    pub(super) const EMPTY: UnitMoves = UnitMoves {
        len: 0,
        moves: [Move::from_index(0); UnitMoves::MAX],
    };

    /// These moves and `m`.
    #[inline]
    pub(super) fn with(mut self, m: Move) -> UnitMoves {
        assert!((self.len as usize) < Self::MAX, "a split is at most 6 deep");
        self.moves[self.len as usize] = m;
        self.len += 1;
        self
    }

    #[cfg(test)]
    pub(super) fn of(moves: &[Move]) -> UnitMoves {
        moves.iter().fold(Self::EMPTY, |u, &m| u.with(m))
    }
}

impl std::ops::Deref for UnitMoves {
    type Target = [Move];
    #[inline]
    fn deref(&self) -> &[Move] {
        &self.moves[..self.len as usize]
    }
}

/// A work unit: a node at the split depth and the moves that lead to it.
#[derive(Clone, Copy)]
pub(super) struct Unit {
    /// The moves from the root ([`Root::after`] gives the unit's position: units do not keep
    /// it, as there are tens of thousands of them an iteration).
    pub(super) moves: UnitMoves,
    pub(super) h: u8,
    /// The unit's first move may follow its last one on the opposite face in either order
    /// (only the same face is excluded): set on a unit that stands for units dropped as its
    /// symmetric duplicates (see the `ida` module docs).
    pub(super) any_first_order: bool,
    /// The highest syllable rank the unit's subtree may make ([`super::rotations`];
    /// [`super::rotations::NO_CAP`] unless the position commutes with every move).
    pub(super) cap: u8,
}

impl Unit {
    /// The unit of the whole tree: no moves yet.
    pub(super) fn root() -> Unit {
        Unit {
            moves: UnitMoves::EMPTY,
            h: 0,
            any_first_order: false,
            cap: NO_CAP,
        }
    }
}

#[cfg(test)]
mod tests {
    /// Position-side moves first, then the inverse side's reversed and inverted; the result
    /// solves a position made by premoves and moves as the search makes them.
    #[test]
    fn solutions_join_the_two_sides() {
        use crate::cube::{Cube, parse_moves};
        let m = |s: &str| parse_moves(s).unwrap()[0];
        let path = [
            (m("U"), false),
            (m("F"), true),
            (m("L2"), false),
            (m("B'"), true),
        ];
        let got = super::solution(&[m("R")], &path);
        assert_eq!(got, parse_moves("R U L2 B F'").unwrap());
        // A position the search would solve that way: R U L2 on the position side and F B' on
        // the inverse side bring it to solved.
        let p = Cube::from_moves(&got).inverse();
        let mut own = p.apply_seq(&[m("R"), m("U"), m("L2")]);
        for inv in [m("F"), m("B'")] {
            own = inv.inverse_cube().compose(&own);
        }
        assert!(own.is_solved());
    }

    #[test]
    fn half_turn_set() {
        for m in crate::cube::Move::all() {
            assert_eq!(
                super::HALF_TURNS >> m.index() & 1 == 1,
                m.quarter_turns() == 2,
                "{m}"
            );
        }
    }
}
