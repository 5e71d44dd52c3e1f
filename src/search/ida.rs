//! Non-recursive IDA* with move ordering, split into subtrees for parallel search.
//!
//! Each iteration searches every canonical move sequence whose cost `g + h` stays within the
//! bound; the next bound is the smallest `g + h` that exceeded it. Nodes are expanded from an
//! explicit stack of frames (no recursion): a frame holds a node's position and inverse and its
//! surviving children sorted by heuristic value, smallest first, so the final iteration tends to
//! meet its solution early. All children of a node are generated together, their first table
//! entries prefetched, then evaluated lazily: lookup by lookup, a child is dropped at the first
//! value that prunes it.
//!
//! Invariants: a solution found in the iteration with bound `B` has exactly `B` moves, and it is
//! optimal because the previous iteration, with a smaller bound, was searched completely (the
//! heuristic is admissible). A search that is stopped (Ctrl-C, `max_depth`) never claims
//! optimality; it reports the bound it proved instead. The node count is the number of nodes
//! generated (heuristic evaluations), root included.

use super::heuristic::{Heuristic, Lookup};
use crate::cube::{ALLOWED_AFTER, Cube, Move};
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
}

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions {
            threads: 1,
            max_depth: 20,
            split_depth: 3,
            dual: false,
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

/// A node's frame on the explicit stack.
#[derive(Clone, Copy)]
struct Frame {
    p: Cube,
    q: Cube,
    /// Surviving children: (move index, heuristic value), sorted by value.
    children: [(u8, u8); 18],
    len: u8,
    next: u8,
}

/// Searches one subtree with a fixed bound; reusable buffers live here.
struct Worker<'a> {
    h: &'a Heuristic,
    dual: bool,
    /// The positions are needed (dual, or a table that reads the position).
    track_p: bool,
    bound: u8,
    nodes: u64,
    min_exceeded: u8,
    stack: Vec<Frame>,
}

impl<'a> Worker<'a> {
    fn new(h: &'a Heuristic, dual: bool, bound: u8) -> Worker<'a> {
        Worker {
            h,
            dual,
            track_p: dual || h.reads_position(),
            bound,
            nodes: 0,
            min_exceeded: u8::MAX,
            stack: Vec::with_capacity(24),
        }
    }

    /// Generates and evaluates the children of node (p, q) at depth g. Returns the frame, or
    /// the solving move if a child is solved.
    ///
    /// Evaluation goes table by table across all children: the indices of the children still
    /// alive are computed and their entries prefetched, then read, so the cache misses of one
    /// table overlap; a child is dropped at the first table that prunes it, and later tables
    /// are not consulted for it.
    #[inline]
    fn expand(&mut self, p: &Cube, q: &Cube, g: u8, last_face: usize) -> Result<Frame, Move> {
        let (dual, track_p) = (self.dual, self.track_p);
        let allowed = ALLOWED_AFTER[last_face];
        let mut moves = [0u8; 18];
        let mut cps = [Cube::SOLVED; 18];
        let mut cqs = [Cube::SOLVED; 18];
        let mut n = 0;
        for m in Move::all() {
            if allowed & (1 << m.index()) != 0 {
                moves[n] = m.index() as u8;
                cqs[n] = m.inverse().cube().compose(q);
                if track_p {
                    cps[n] = p.compose(m.cube());
                }
                n += 1;
            }
        }
        self.nodes += n as u64;
        let budget = self.bound - g - 1;
        // Children still alive, as indices into the arrays above, and their values so far.
        let mut alive = [0u8; 18];
        let mut h = [0u8; 18];
        for (k, a) in alive.iter_mut().enumerate().take(n) {
            *a = k as u8;
        }
        let mut n_alive = n;
        let mut idx = [0u64; 18];
        let mut idx_dual = [0u64; 18];
        let mut turned = [Cube::SOLVED; 18];
        for l in self.h.lookups() {
            let (pat, table) = self.h.table(l);
            let which = &alive[..n_alive];
            // The cubes the pattern reads, and those of the inverse (dual) position.
            let (own, other) = if pat.reads_position() {
                (&cps, &cqs)
            } else {
                (&cqs, &cps)
            };
            pat.for_each_index(turn(l, own, which, &mut turned), which, |k, i| {
                idx[k] = i;
                table.prefetch(i);
            });
            if dual {
                pat.for_each_index(turn(l, other, which, &mut turned), which, |k, i| {
                    idx_dual[k] = i;
                    table.prefetch(i);
                });
            }
            let mut kept = 0;
            for j in 0..n_alive {
                let k = alive[j] as usize;
                let mut v = table.get(idx[k]);
                if dual {
                    v = v.max(table.get(idx_dual[k]));
                }
                h[k] = h[k].max(v);
                if h[k] > budget {
                    self.min_exceeded = self.min_exceeded.min(g + 1 + h[k]);
                } else {
                    alive[kept] = k as u8;
                    kept += 1;
                }
            }
            n_alive = kept;
        }
        let mut frame = Frame {
            p: *p,
            q: *q,
            children: [(0, 0); 18],
            len: 0,
            next: 0,
        };
        for &k in &alive[..n_alive] {
            let k = k as usize;
            let v = h[k];
            if v == 0 && cqs[k].is_solved() {
                return Err(Move::from_index(moves[k] as usize));
            }
            // Insertion keeps the children sorted by value (stable: ties keep move order).
            let mut i = frame.len as usize;
            while i > 0 && frame.children[i - 1].1 > v {
                frame.children[i] = frame.children[i - 1];
                i -= 1;
            }
            frame.children[i] = (moves[k], v);
            frame.len += 1;
        }
        Ok(frame)
    }

    /// Depth-first search of the subtree below (p, q) at depth `g0`; returns the moves from
    /// that node to solved if a solution within the bound exists there.
    fn search(
        &mut self,
        p: &Cube,
        q: &Cube,
        g0: u8,
        last_face: usize,
        stop: &AtomicBool,
    ) -> Option<Vec<Move>> {
        if g0 == self.bound {
            return None;
        }
        let mut path: Vec<Move> = Vec::with_capacity(24);
        self.stack.clear();
        match self.expand(p, q, g0, last_face) {
            Ok(f) => self.stack.push(f),
            Err(m) => return Some(vec![m]),
        }
        loop {
            let depth = self.stack.len() as u8;
            let Some(top) = self.stack.last_mut() else {
                break;
            };
            if top.next == top.len {
                self.stack.pop();
                path.pop();
                continue;
            }
            let (mi, _) = top.children[top.next as usize];
            top.next += 1;
            let g = g0 + depth; // depth of the child
            if g >= self.bound {
                // A leaf within the bound that is not solved (h = 0 without being solved, which
                // tables that ignore some pieces allow): its children have f >= bound + 1.
                self.min_exceeded = self.min_exceeded.min(self.bound + 1);
                continue;
            }
            if stop.load(Relaxed) {
                return None;
            }
            let m = Move::from_index(mi as usize);
            let (tp, tq) = (top.p, top.q);
            let cq = m.inverse().cube().compose(&tq);
            let cp = if self.track_p {
                tp.compose(m.cube())
            } else {
                Cube::SOLVED
            };
            match self.expand(&cp, &cq, g, m.face_index()) {
                Ok(f) => {
                    path.push(m);
                    self.stack.push(f);
                }
                Err(last) => {
                    path.push(m);
                    path.push(last);
                    return Some(path);
                }
            }
        }
        None
    }
}

/// The cubes lookup `l` indexes for children `which`: `cubes` itself, or the turned cubes
/// written into `buf`.
#[inline(always)]
fn turn<'a>(
    l: &Lookup,
    cubes: &'a [Cube; 18],
    which: &[u8],
    buf: &'a mut [Cube; 18],
) -> &'a [Cube; 18] {
    if l.conj.is_none() {
        return cubes;
    }
    for &k in which {
        buf[k as usize] = l.cube(&cubes[k as usize]);
    }
    buf
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
                let q = m.inverse().cube().compose(&u.q);
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
    if opts.threads <= 1 || depth == 0 {
        let mut w = Worker::new(h, opts.dual, bound);
        let sol = w.search(p, q, 0, 6, stop);
        return (sol, w.nodes + 1, w.min_exceeded);
    }
    let units = match split(
        h,
        opts.dual,
        Unit {
            p: *p,
            q: *q,
            moves: vec![],
            h: 0,
        },
        bound,
        depth,
        &mut nodes,
        &mut min_exceeded,
    ) {
        Ok(u) => u,
        Err(sol) => return (Some(sol), nodes + 1, min_exceeded),
    };
    let next = AtomicUsize::new(0);
    let found: Mutex<Option<Vec<Move>>> = Mutex::new(None);
    let found_flag = AtomicBool::new(false);
    let total_nodes = AtomicU64::new(nodes + 1);
    let min_ex = std::sync::atomic::AtomicU8::new(min_exceeded);
    // Either an outside stop or a solution found by a sibling ends the iteration's workers.
    let local_stop = AtomicBool::new(false);
    std::thread::scope(|s| {
        for _ in 0..opts.threads {
            s.spawn(|| {
                let mut w = Worker::new(h, opts.dual, bound);
                loop {
                    if stop.load(Relaxed) {
                        local_stop.store(true, Relaxed);
                    }
                    if local_stop.load(Relaxed) {
                        break;
                    }
                    let i = next.fetch_add(1, Relaxed);
                    let Some(u) = units.get(i) else { break };
                    let last = u.moves.last().map_or(6, |m| m.face_index());
                    if let Some(rest) = w.search(&u.p, &u.q, u.moves.len() as u8, last, &local_stop)
                    {
                        let mut sol = u.moves.clone();
                        sol.extend(rest);
                        let mut f = found.lock().expect("lock");
                        if f.is_none() {
                            *f = Some(sol);
                        }
                        found_flag.store(true, Relaxed);
                        local_stop.store(true, Relaxed);
                        break;
                    }
                }
                total_nodes.fetch_add(w.nodes, Relaxed);
                min_ex.fetch_min(w.min_exceeded, Relaxed);
            });
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
