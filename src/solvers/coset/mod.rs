//! The coset solver: the distance of every position of a coset of H = <U, D, R2, L2, F2, B2>
//! at once, the method of the proof that God's number is 20 (Rokicki, Kociemba, Davidson and
//! Dethridge, 2010; cube20.org).
//!
//! A coset is the set of positions with the same phase-1 coordinates (twist, flip, places of the
//! slice edges) as its representative `p`: `{h·p : h ∈ H}`, 19,508,428,800 positions. The
//! position `x = g⁻¹·p` (g in H) is solved by `w` exactly when `p·w = g`, so the distance of `x`
//! is the distance from `p` to `g`, and the coset's distances are those from `p` to every
//! element of H. The solver finds them depth by depth in a bitmap over H ([`bitmap`]):
//! - `B_d`, the elements within `d` moves of `p`, is `B_{d-1}` extended by one move of H (the
//!   *prepass*), plus every element reached by a sequence of exactly `d` moves that ends with a
//!   quarter turn of R, L, F or B (the *seeds*, found by a phase-1 search, [`seeds`]);
//! - this misses nothing: an optimal sequence to `g` is a sequence `s` ending outside H's moves
//!   (or empty) followed by moves of H, and `s` is a seed at its own length;
//! - the elements first found at depth `d` are the coset's positions at distance exactly `d`.
//!
//! **H itself** (`p` the identity) needs far fewer seeds: its `B_d` is closed under
//! inversion (a sequence to `g`, read backwards and inverted, goes to `g⁻¹` in as many moves)
//! and under conjugation by the 16 symmetries that keep the UD axis (which map moves of H to
//! moves of H). So the seeds need only begin with R; each seed comes with its 15 conjugates,
//! and each depth's set is closed under inversion ([`Bitmap::close_under`]):
//! - if an optimal sequence to `g` begins with a move `m` of H, the one to `g⁻¹` ends with
//!   `m⁻¹`, so the prepass finds `g⁻¹` and the inversion `g`;
//! - else it begins with a quarter turn of R, L, F or B, and a symmetry `S` turns that into R.
//!   The conjugate sequence to `S g S⁻¹` is as long, and its canonical form still begins with
//!   R: only an L turn could go before R, and L is after R in the canonical order. So it is a
//!   seed (or, if the canonical form ends with a move of H, the prepass finds it), and its
//!   conjugate by `S⁻¹` is `g` (the prepass keeps a set closed under conjugation: it is the
//!   set before, closed, times the moves of H, a set closed under conjugation too);
//! - the inverses keep the set closed under conjugation, since inversion commutes with it.
//!
//! At depth 13 that leaves 24,543,224 of H's 2,370,051,712 seeds (`results/coset.md`).
//!
//! With `search_depth < max_depth` (the "prove a bound" mode), seeds stop at `search_depth`
//! while prepasses go on: elements first found at a deeper `d` are then only known to be at
//! most `d` moves (and more than `search_depth`) away. The run stops at `max_depth` or when
//! every element is found.
//!
//! **Handing over** (`settle_below`, the CLI's default run): once a prepass right after the
//! exact depths leaves only a few elements, walking that depth would cost far more than
//! solving them one by one, so the run ends there, that depth bounded, and the caller settles
//! the rest ([`settle`]). H's prepass at 17 leaves 36 of its elements (all at 18), a random
//! coset's at 19 none or a few: the run then walks through 16 or 18, not through 17 or 19.
//!
//! Coset numbers: `(slice · 2048 + flip) · 2187 + twist`, from Kociemba's coordinates
//! (`coord`), 0..2,217,093,120; 0 is H itself.

pub mod bitmap;
pub mod index;
pub mod masks;
pub mod parts;
pub mod prepass;
pub mod seeds;
pub mod settle;
pub mod simd;
pub mod writes;

use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use rayon::prelude::*;

use crate::coord::{self, N_FLIP, N_SLICE, N_SLICE_PERM, N_TWIST};
use crate::cube::{Cube, Face, Move};
use crate::pdb::file::TableError;
use crate::progress::{Progress, ProgressMode};
use crate::solvers::twophase::TwoPhase;
pub use bitmap::Bitmap;
pub use index::{ELEMENTS, Moves};
use masks::DownMasks;
use parts::PartCosts;
use seeds::{Phase1Node, Walker};
use writes::SeedWrites;

/// Number of cosets of H.
pub const COSETS: u64 = (N_SLICE * N_FLIP * N_TWIST) as u64;
/// Memory a run to the deep depths holds: a full bitmap (2.44 GB), the prepass's old pages
/// still to be read (at most about 11 % more), the phase-1 masks (681 MB) and the two-phase
/// tables. (Deriving the masks the first time holds 1.13 GB more for a while, before the
/// bitmap fills.)
pub const FULL_RUN_BYTES: u64 = (index::PAGES * bitmap::PAGE_BYTES) as u64 / 8 * 9 + 800_000_000;

/// The last searched depth of the fastest proof that a coset is within 20 moves; the
/// prepasses find the rest. Measured on a random coset (`results/coset.md`, 2026-12-06): a
/// search to 14 leaves 1,563 positions unset after depth 20 (each then needs the optimal
/// solver), one to 16 costs a search about eight times as long as to 15 to save a 3 s prepass.
pub const PROOF_SEARCH_DEPTH: u8 = 15;

/// The search depth of a run to `max_depth` that names none: `max_depth` itself (every depth
/// exact), but for a run to God's number, which asks only whether every position is within
/// it, the proof's [`PROOF_SEARCH_DEPTH`] (depths after it are bounds).
pub fn default_search_depth(max_depth: u8) -> u8 {
    match max_depth >= crate::cube::Metric::Htm.diameter() {
        true => PROOF_SEARCH_DEPTH.min(max_depth),
        false => max_depth,
    }
}
/// Depths of the phase-1 walk done before it is split into parallel work.
const SPLIT_AFTER: u8 = 3;

/// What one run computes.
#[derive(Clone, Debug)]
pub struct CosetOptions {
    /// Last depth (the run stops earlier when every element is found).
    pub max_depth: u8,
    /// Last depth of the phase-1 search; the depths up to it are exact.
    pub search_depth: u8,
    pub progress: ProgressMode,
    /// Elements of H (page, word, slice permutation) whose depth the report gives, for
    /// checking by another solver ([`sample_elements`]).
    pub samples: Vec<(usize, usize, usize)>,
    /// Hand over to the optimal solver (0: never): once a prepass past the exact depths leaves
    /// at most this many elements unset, that prepass's depth is the run's last, marked
    /// bounded, and the caller settles what is left (`settle`). One more depth of walk costs
    /// far more than a few thousand solves: on H, some 4 hours at 17 against 70 s for the 36
    /// its prepass at 17 leaves.
    pub settle_below: u64,
}

/// Elements a run to God's number wants by the depth after its search before it stops
/// searching that depth, besides a third of those the prepass found (`hcoset -F`'s rule,
/// cube20src, for the same 19.5 billion elements).
const ENOUGH_ELEMENTS: u64 = 167_000_000;

/// At most this many elements left after a proof's last prepass are shown within 20 one by
/// one (a few milliseconds each); a run leaving more reports them unset.
const CLOSE_LIMIT: u64 = 100_000;

/// Is the run a proof that the coset is within God's number, searching less deep than that
/// and finishing with prepasses (so the depth after the search is searched in part, and what
/// the last prepass leaves is closed one by one)?
fn proves(opts: &CosetOptions) -> bool {
    opts.max_depth >= crate::cube::Metric::Htm.diameter() && opts.search_depth + 1 < opts.max_depth
}

/// The default [`CosetOptions::settle_below`] of a run asked for every distance.
pub const SETTLE_BELOW: u64 = 10_000;
/// The last depth of a run when none is given: past God's number, so a run asked for every
/// distance ends when every element is found (or handed over).
pub const MAX_DEPTH: u8 = 30;

/// Is a depth's count exact? Every depth the phase-1 search reached is. A depth past it is
/// exact when the depth before it is and it leaves nothing unset: its new elements are within
/// `depth` moves (the prepass extends a sequence of `depth - 1` by one move) and not within
/// `depth - 1` (the exact set before holds all of those), and no element at `depth` is missing,
/// since none is missing at all. So a search through 18 and one prepass that finds every
/// element gives every distance (issue 52).
fn row_is_exact(depth: u8, search_depth: u8, before_exact: bool, total: u64) -> bool {
    depth <= search_depth || (before_exact && total == ELEMENTS)
}

/// One depth of a run.
#[derive(Clone, Debug, PartialEq)]
pub struct DepthRow {
    pub depth: u8,
    /// Elements first found at this depth: at distance exactly `depth` when `exact`, else
    /// at most `depth` (and more than the search depth). `exact` holds through the search
    /// depth, and at the depth after it when that depth leaves nothing unset (see `row_is_exact`).
    pub found: u64,
    /// Elements found at this depth or before.
    pub total: u64,
    /// Phase-1 solutions of exactly this length ending outside H's moves (seeds); for H
    /// itself only those beginning with R (module docs).
    pub seeds: u64,
    pub exact: bool,
    pub prepass_seconds: f64,
    pub search_seconds: f64,
}

/// The outcome of a run.
#[derive(Clone, Debug)]
pub struct CosetReport {
    pub coset: u64,
    pub representative: Cube,
    pub rows: Vec<DepthRow>,
    pub seconds: f64,
    /// Largest memory the coset's bitmaps held at once, in bytes: the bitmaps only, not the
    /// phase-1 tables and masks, which the process's peak (`peak_memory_bytes` in
    /// [`CosetReport::to_json`]) counts too.
    pub peak_bitmap_bytes: u64,
    /// The run was stopped before its last depth ([`CosetSolver::run_until`]).
    pub interrupted: bool,
    /// The sampled positions of the coset (`g⁻¹·p`), each with the depth at which it was
    /// found (`None`: not by the last depth).
    pub samples: Vec<(Cube, Option<u8>)>,
    /// Elements the run left unset and the optimal solver then solved one by one
    /// ([`settle`]); counted in the rows at their distances.
    pub settled: u64,
    /// Elements a proof's prepasses left unset after depth 20 and a two-phase solution of at
    /// most 20 moves then showed within it, one by one ([`CosetSolver::close`]); counted in
    /// the last row (a bound).
    pub closed: u64,
}

impl CosetReport {
    /// Elements found.
    pub fn found(&self) -> u64 {
        self.rows.last().map_or(0, |r| r.total)
    }

    /// Was every element found?
    pub fn complete(&self) -> bool {
        self.found() == ELEMENTS
    }

    /// Counts by exact distance, from 0 through the last exact depth.
    pub fn exact_counts(&self) -> Vec<u64> {
        self.rows
            .iter()
            .take_while(|r| r.exact)
            .map(|r| r.found)
            .collect()
    }
}

impl CosetReport {
    /// The report as one JSON object: `coset`, `representative` (facelets), `elements`,
    /// `depth_counts` (exact, from depth 0), `bounded_counts` (elements first shown within each
    /// deeper depth), `found`, `unset`, `complete`, `seconds`, `peak_bitmap_bytes` (the bitmaps
    /// alone), `peak_memory_bytes` (the whole process's peak so far, tables included; null
    /// where it cannot be read), `settled` (elements solved one by one), `closed` (elements a
    /// proof showed within 20 one by one) and the per-depth `timeline`.
    pub fn to_json(&self) -> serde_json::Value {
        let exact = self.exact_counts();
        let bounded: Vec<_> = self.rows[exact.len()..]
            .iter()
            .map(|r| serde_json::json!({"depth": r.depth, "found": r.found}))
            .collect();
        let timeline: Vec<_> = self
            .rows
            .iter()
            .map(|r| {
                serde_json::json!({
                    "depth": r.depth, "found": r.found, "total": r.total, "seeds": r.seeds,
                    "exact": r.exact, "prepass_seconds": r.prepass_seconds,
                    "search_seconds": r.search_seconds,
                })
            })
            .collect();
        serde_json::json!({
            "coset": self.coset,
            "representative": self.representative.to_facelets(),
            "elements": ELEMENTS,
            "depth_counts": exact,
            "bounded_counts": bounded,
            "found": self.found(),
            "unset": ELEMENTS - self.found(),
            "complete": self.complete(),
            "seconds": self.seconds,
            "peak_bitmap_bytes": self.peak_bitmap_bytes,
            "peak_memory_bytes": crate::sys::peak_memory_bytes(),
            "interrupted": self.interrupted,
            "settled": self.settled,
            "closed": self.closed,
            "timeline": timeline,
        })
    }
}

/// `n` elements of H drawn uniformly with the generator seeded by `seed`.
pub fn sample_elements(n: usize, seed: u64) -> Vec<(usize, usize, usize)> {
    let t = Moves::get();
    let mut rng = crate::cube::Rng::new(seed);
    (0..n)
        .map(|_| {
            let c = rng.below(index::PAGES as u64) as usize;
            let e8 = rng.below(index::WORDS as u64) as usize;
            let bit = rng.below(index::BITS as u64) as usize;
            (c, e8, index::e4_at(t.parity8[c] ^ t.parity8[e8], bit))
        })
        .collect()
}

/// The coset number of a position (see the module docs).
pub fn coset_of(p: &Cube) -> u64 {
    let slice = coord::slice_sorted(&p.ep()) as u64 / N_SLICE_PERM as u64;
    (slice * N_FLIP as u64 + coord::flip(&p.eo()) as u64) * N_TWIST as u64
        + coord::twist(&p.co()) as u64
}

/// A representative of coset `n`: its twist, flip and slice places, corners and the other
/// edges in order (two corners swapped when the edges' parity asks for it). `None` when `n` is
/// not below [`COSETS`].
pub fn representative(n: u64) -> Option<Cube> {
    if n >= COSETS {
        return None;
    }
    let twist = (n % N_TWIST as u64) as usize;
    let flip = (n / N_TWIST as u64 % N_FLIP as u64) as usize;
    let slice = (n / (N_TWIST * N_FLIP) as u64) as usize;
    let ep = coord::slice_sorted_edges(slice * N_SLICE_PERM);
    let mut cp = Cube::SOLVED.cp();
    if crate::cube::parity(&ep) == 1 {
        cp.swap(0, 1);
    }
    let cube = Cube::from_parts(
        cp,
        coord::twist_cube(twist).co(),
        ep,
        coord::flip_cube(flip).eo(),
    );
    debug_assert_eq!(coset_of(&cube), n);
    Some(cube)
}

/// The coset solver: the phase-1 table (the two-phase solver's) and the bitmap's move tables.
pub struct CosetSolver {
    tp: Arc<TwoPhase>,
    masks: Arc<DownMasks>,
    moves: &'static Moves,
    /// The phase-1 walk's short-loop cut ([`seeds`]); off only to check it.
    cut: bool,
    /// The walk's batch of nodes with no slack ([`seeds::BATCH`]); smaller only to check it.
    batch: usize,
    /// Seeds a thread holds before it writes them ([`writes::SEED_WRITES`]); fewer only to
    /// check it.
    writes: usize,
    /// H itself is closed under inversion and symmetry and walks fewer seeds (module docs);
    /// off only to check it.
    symmetries: bool,
}

impl CosetSolver {
    /// Opens the solver with the two-phase tables kept in `dir` (built there on first use),
    /// and the phase-1 masks kept there too ([`DownMasks::open_or_build`]).
    pub fn open(dir: &Path, progress: ProgressMode) -> Result<CosetSolver, TableError> {
        Self::with(
            Arc::new(TwoPhase::open(dir, progress)?),
            Some(dir),
            progress,
        )
    }

    /// The solver on a two-phase solver's tables, with their phase-1 masks ([`masks`]): read
    /// from `dir` where an earlier process kept them, or computed (about 45 s on 2 threads,
    /// reported to `progress`) and kept there; without `dir`, computed.
    pub fn with(
        tp: Arc<TwoPhase>,
        dir: Option<&Path>,
        progress: ProgressMode,
    ) -> Result<CosetSolver, TableError> {
        Ok(CosetSolver {
            masks: Arc::new(DownMasks::open_or_build(dir, &tp, progress)?),
            tp,
            moves: Moves::get(),
            cut: true,
            batch: seeds::BATCH,
            writes: writes::SEED_WRITES,
            symmetries: true,
        })
    }

    /// The bitmap's move tables.
    pub fn moves(&self) -> &'static Moves {
        self.moves
    }

    /// Runs the coset of `p` (on the current rayon pool); returns the report and the final
    /// bitmap (the elements found).
    pub fn run(&self, p: &Cube, opts: &CosetOptions) -> (CosetReport, Bitmap) {
        self.run_until(p, opts, &AtomicBool::new(false))
    }

    /// [`CosetSolver::run`], stopped early when `stop` is set: the depth under way is dropped
    /// (its phase-1 search looks at `stop` before each part of the walk, a prepass only ends
    /// by itself), and the report, marked `interrupted`, holds the depths finished before it
    /// (the bitmap returned then holds part of the depth under way as well).
    pub fn run_until(
        &self,
        p: &Cube,
        opts: &CosetOptions,
        stop: &AtomicBool,
    ) -> (CosetReport, Bitmap) {
        self.run_in(p, opts, stop, Bitmap::new())
    }

    /// [`CosetSolver::run_until`] in the memory of `map`, a bitmap of an earlier run (whatever
    /// it holds): a run of many cosets touches no new memory after the first, so the kernel
    /// zeroes none (2–12 s of system time a coset here).
    pub fn run_in(
        &self,
        p: &Cube,
        opts: &CosetOptions,
        stop: &AtomicBool,
        map: Bitmap,
    ) -> (CosetReport, Bitmap) {
        let start = Instant::now();
        let mut interrupted = false;
        let root = Phase1Node::root(&self.tp, &self.masks, p);
        let invert = self.symmetries && *p == Cube::SOLVED;
        // `cur`: the set within the depth before.
        let mut cur = map.cleared();
        let mut rows: Vec<DepthRow> = Vec::new();
        let mut peak = 0;
        let mut sample_depths = vec![None; opts.samples.len()];
        let mut part_costs = PartCosts::default();
        for depth in 0..=opts.max_depth {
            if stop.load(Relaxed) {
                interrupted = true;
                break;
            }
            let t0 = Instant::now();
            let mut next = if cur.total() == 0 {
                cur
            } else {
                prepass::prepass(cur, self.moves)
            };
            peak = peak.max(next.bytes());
            let t1 = Instant::now();
            let (before, before_exact) = rows.last().map_or((0, true), |r| (r.total, r.exact));
            // A prepass at most elevenfolds a set (itself and ten moves), and H's inverses at
            // most double it, so the bitmap is counted only when few enough could be left,
            // and the inverses are added only when they could leave few enough.
            let hand_over = opts.settle_below > 0
                && !rows.is_empty()
                && before_exact
                && depth > root.distance()
                && ELEMENTS.saturating_sub(before.saturating_mul(22)) <= opts.settle_below
                && {
                    let count = next.recount();
                    if invert
                        && ELEMENTS.saturating_sub(count.saturating_mul(2)) <= opts.settle_below
                    {
                        // What a prepass-only depth would hold: its inverses too (added
                        // again after the seeds if it is walked after all).
                        next.close_under(self.moves, index::Relabel::inverse());
                        ELEMENTS - next.recount() <= opts.settle_below
                    } else {
                        ELEMENTS - count <= opts.settle_below
                    }
                };
            // A run to God's number that stops its search early searches the next depth in
            // part, as `hcoset -F` does: until its set would hold 167 million elements plus a
            // third of the prepass's, which leaves few unset after 20 (its elements are bounds
            // either way, so any part of the walk is sound). Seeds are counted, not new
            // elements, so twice as many: measured on the two slowest of ten random cosets,
            // 33.1 and 40.9 s with once as many (1,084 and 265 left to close one by one, 11
            // and 6 s), 32.1 and 36.9 s with twice (104 and 16), 35.0 and 38.1 s with three
            // times.
            let partial = depth == opts.search_depth + 1 && proves(opts);
            let searched =
                !hand_over && (depth <= opts.search_depth || partial) && depth >= root.distance();
            let budget = match partial {
                true => (ENOUGH_ELEMENTS + next.total() / 3).saturating_sub(next.total()) * 2,
                false => u64::MAX,
            };
            let seeds = if searched && budget > 0 {
                self.seed(
                    &root,
                    (depth, budget),
                    &next,
                    invert,
                    (opts.progress, &mut part_costs),
                    stop,
                )
            } else {
                0
            };
            if stop.load(Relaxed) {
                // This depth is not whole (the bitmap returned holds part of it).
                (interrupted, cur) = (true, next);
                break;
            }
            if invert && !hand_over {
                // The seeds came with their conjugates, and the prepass keeps a set closed
                // under conjugation; inversion adds the rest.
                next.close_under(self.moves, index::Relabel::inverse());
            }
            let total = next.recount();
            peak = peak.max(next.bytes());
            for (d, &(c, e8, e4)) in sample_depths.iter_mut().zip(&opts.samples) {
                if d.is_none() && next.contains(c, e8, e4) {
                    *d = Some(depth);
                }
            }
            let last_searched = if hand_over {
                depth - 1
            } else {
                opts.search_depth
            };
            rows.push(DepthRow {
                depth,
                found: total - before,
                total,
                seeds,
                exact: row_is_exact(depth, last_searched, before_exact, total),
                prepass_seconds: (t1 - t0).as_secs_f64(),
                search_seconds: t1.elapsed().as_secs_f64(),
            });
            cur = next;
            if total == ELEMENTS || hand_over {
                break;
            }
        }
        let closed = match !interrupted && proves(opts) {
            true => self.close(p, &mut cur, &mut rows),
            false => 0,
        };
        let report = CosetReport {
            coset: coset_of(p),
            representative: *p,
            rows,
            seconds: start.elapsed().as_secs_f64(),
            peak_bitmap_bytes: peak,
            interrupted,
            settled: 0,
            closed,
            samples: opts
                .samples
                .iter()
                .zip(sample_depths)
                .map(|(&(c, e8, e4), d)| (index::element(c, e8, e4).inverse().compose(p), d))
                .collect(),
        };
        (report, cur)
    }

    /// Sets the bits of every seed of exactly `depth` moves (with `invert`, only those that
    /// begin with R: module docs); returns how many seeds there were. Parts of the
    /// walk not yet begun when `stop` is set, or once `budget` seeds are found, are skipped. Progress goes to `mode`, weighted
    /// by `costs` (the parts' times at the depth before, updated with this depth's).
    fn seed(
        &self,
        root: &Phase1Node,
        (depth, budget): (u8, u64),
        map: &Bitmap,
        invert: bool,
        (mode, costs): (ProgressMode, &mut PartCosts),
        stop: &AtomicBool,
    ) -> u64 {
        let (first, images) = if invert {
            (
                1 << Move::new(Face::R, 1).index(),
                index::Relabel::conjugations(),
            )
        } else {
            (u32::MAX, &[][..])
        };
        let walker = |writes| {
            Walker::new(
                (self.moves, &self.masks),
                map,
                (self.cut, self.batch),
                writes,
            )
            .first_moves(first, images)
        };
        if depth <= 2 * SPLIT_AFTER {
            let mut w = walker(SeedWrites::new(self.writes));
            w.walk(*root, depth);
            let (seeds, mut writes) = w.finish();
            writes.flush(map);
            return seeds;
        }
        let work = walker(SeedWrites::new(self.writes)).frontier(*root, depth, depth - SPLIT_AFTER);
        let weights = costs.weights(&work);
        let label = format!("depth {depth}");
        let total = weights.iter().sum();
        let progress = Progress::weighted(mode, &label, work.len() as u64, "parts", total);
        // Each part takes a buffer of seed writes from the pool and gives it back unwritten
        // (about one buffer a thread); all are written once every part is walked.
        let pool = Mutex::new(Vec::new());
        let found = AtomicU64::new(0);
        let walked: Vec<(u64, f64)> = work
            .par_iter()
            .zip(&weights)
            .map(|(&(node, togo), &weight)| {
                if stop.load(Relaxed) || found.load(Relaxed) >= budget {
                    return (0, 0.0);
                }
                let start = Instant::now();
                let held = pool.lock().unwrap().pop();
                let mut w = walker(held.unwrap_or_else(|| SeedWrites::new(self.writes)));
                w.walk(node, togo);
                let (seeds, writes) = w.finish();
                found.fetch_add(seeds, Relaxed);
                pool.lock().unwrap().push(writes);
                progress.add_weighted(1, weight, "");
                (seeds, start.elapsed().as_secs_f64())
            })
            .collect();
        let seeds = walked.iter().map(|&(s, _)| s).sum();
        let times: Vec<f64> = walked.iter().map(|&(_, t)| t).collect();
        costs.record(&work, &times);
        let mut pool = pool.into_inner().unwrap();
        pool.par_iter_mut().for_each(|w| w.flush(map));
        let secs = progress.elapsed();
        progress.finish(&format!("{seeds} seeds in {secs:.1} s"));
        seeds
    }

    /// The end of a proof: each element the last prepass (at God's number) left unset, at
    /// most [`CLOSE_LIMIT`] of them, is shown within 20 moves by a two-phase solution, checked
    /// on its position, and set in `map` and counted in the last row; returns how many.
    /// Those the two-phase solver cannot bring within 20 in a minute stay unset (none should:
    /// every position is within 20).
    fn close(&self, p: &Cube, map: &mut Bitmap, rows: &mut [DepthRow]) -> u64 {
        let gods_number = crate::cube::Metric::Htm.diameter();
        let Some(last) = rows.last_mut() else {
            return 0;
        };
        let unset = ELEMENTS - last.total;
        if last.depth != gods_number || unset == 0 || unset > CLOSE_LIMIT {
            return 0;
        }
        let mut left = Vec::new();
        map.for_each(self.moves, false, |c, e8, e4| left.push((c, e8, e4)));
        for (c, e8, e4) in self.within_gods_number(p, left) {
            map.set(c, e8, 1 << index::half()[e4].1);
        }
        let closed = map.recount() - last.total;
        (last.found, last.total) = (last.found + closed, last.total + closed);
        closed
    }

    /// The elements (page, word, slice permutation) among `elements` whose positions of the
    /// coset of `p` a two-phase solution of at most 20 moves solves, checked on the position.
    pub fn within_gods_number(
        &self,
        p: &Cube,
        elements: Vec<(usize, usize, usize)>,
    ) -> Vec<(usize, usize, usize)> {
        let most = crate::cube::Metric::Htm.diameter() as usize;
        elements
            .into_par_iter()
            .filter(|&(c, e8, e4)| {
                let position = index::element(c, e8, e4).inverse().compose(p);
                let limit = std::time::Duration::from_secs(60);
                let found = self.tp.solve_with(&position, most, limit, 1);
                found
                    .solution
                    .is_some_and(|s| s.len() <= most && position.apply_seq(&s) == Cube::SOLVED)
            })
            .collect()
    }

    /// The coset's positions (`g⁻¹·p`) of the elements `g` the bitmap lacks, in page order.
    pub fn for_each_missing(&self, p: &Cube, map: &Bitmap, mut f: impl FnMut(Cube)) {
        map.for_each(self.moves, false, |c, e8, e4| {
            f(index::element(c, e8, e4).inverse().compose(p))
        });
    }
}

#[cfg(test)]
mod tests;
