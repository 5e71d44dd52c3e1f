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
//!
//! The parts: [`super::options`] (what is asked and reported), `node` (node, frame and
//! expansion data), `worker` (one thread's lanes), and this module (the iterations: splitting
//! the tree into work units and running the threads).

use super::heuristic::Heuristic;
use super::options::{Iteration, SearchOptions, SearchResult};
use super::worker::{Unit, Work, Worker};
use crate::cube::{ALLOWED_AFTER, Cube, Move};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering::Relaxed};
use std::time::Instant;

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
