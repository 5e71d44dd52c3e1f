//! Kociemba's two-phase solver: near-optimal solutions in milliseconds.
//!
//! Phase 1 brings the position into the subgroup G1 = <U, D, R2, L2, F2, B2>, where corners and
//! edges are not twisted or flipped and the four UD-slice edges are in the slice; phase 2 solves
//! it with G1 moves only. Each phase is an IDA* search on small coordinates (`coord`) with
//! symmetry-reduced pruning tables (`symmetry`, `prune`); `search` explains how phase 1 keeps
//! going to shorten the total.
//!
//! Everything is built in memory by [`TwoPhase::new`] (move tables, the 48 symmetries, the
//! 64,430 flip-slice and 2,768 corner classes, three pruning tables). The pruning tables'
//! raw bytes are available through [`TwoPhase::pruning_tables`] for storage elsewhere.

mod coord;
mod prune;
mod search;
mod symmetry;

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize};
use std::time::{Duration, Instant};

use crate::cube::{Cube, Move};

use coord::MoveTables;
use prune::{Mod3Table, Phase1Space, Phase2Space};
use search::{Direction, Shared};
use symmetry::SymTables;

/// The solver: owns every table it needs. Build once, solve many positions; `Sync`, so one
/// instance can serve many threads.
pub struct TwoPhase {
    mv: MoveTables,
    sym: SymTables,
    /// Distance mod 3 to G1, by flip-slice class × twist.
    phase1: Mod3Table,
    /// Distance mod 3 to solved in G1, by corner class × UD-edge permutation.
    phase2: Mod3Table,
    /// Exact phase-2 distance of corner permutation × slice permutation.
    corner_slice: Vec<u8>,
}

/// The outcome of one solve, with the search figures.
#[derive(Clone, Debug)]
pub struct TwoPhaseResult {
    /// The shortest solution found, if any.
    pub solution: Option<Vec<Move>>,
    /// Search nodes visited, both phases, all threads.
    pub nodes: u64,
}

impl Default for TwoPhase {
    fn default() -> Self {
        Self::new()
    }
}

impl TwoPhase {
    /// Builds all tables (a few seconds, using the rayon thread pool).
    pub fn new() -> Self {
        let (mv, sym) = rayon::join(MoveTables::new, SymTables::new);
        let mut tp = TwoPhase {
            mv,
            sym,
            phase1: Mod3Table::default(),
            phase2: Mod3Table::default(),
            corner_slice: Vec::new(),
        };
        // The builders read the move and symmetry tables through `tp`.
        let (phase1, (phase2, corner_slice)) = rayon::join(
            || prune::build(&Phase1Space(&tp)),
            || {
                (
                    prune::build(&Phase2Space(&tp)),
                    prune::build_corner_slice(&tp),
                )
            },
        );
        tp.phase1 = phase1;
        tp.phase2 = phase2;
        tp.corner_slice = corner_slice;
        tp
    }

    /// Solves `cube`: returns the first solution found with at most `max_length` moves. Until
    /// one is found the search keeps improving on longer ones; if `timeout` expires first (or
    /// the search runs out of ways to improve), the best solution found so far is returned even
    /// if it is longer than `max_length`. `None` only if nothing was found in time or the position
    /// is not a valid cube. Uses up to six threads (one per search direction).
    pub fn solve(&self, cube: &Cube, max_length: usize, timeout: Duration) -> Option<Vec<Move>> {
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
        self.solve_with(cube, max_length, timeout, threads).solution
    }

    /// [`solve`](Self::solve) with a thread count (1..=6 are useful) and the node count.
    pub fn solve_with(
        &self,
        cube: &Cube,
        max_length: usize,
        timeout: Duration,
        threads: usize,
    ) -> TwoPhaseResult {
        self.solve_directions(cube, max_length, timeout, threads, &[0, 1, 2, 3, 4, 5])
    }

    /// Searches the given directions (0..3: the three axes, 3..6: the same for the inverse).
    fn solve_directions(
        &self,
        cube: &Cube,
        max_length: usize,
        timeout: Duration,
        threads: usize,
        directions: &[usize],
    ) -> TwoPhaseResult {
        let start = Instant::now();
        if cube.validate().is_err() {
            return TwoPhaseResult {
                solution: None,
                nodes: 0,
            };
        }
        if cube.is_solved() {
            return TwoPhaseResult {
                solution: Some(Vec::new()),
                nodes: 0,
            };
        }
        let mut dirs: Vec<Direction> = Vec::with_capacity(directions.len());
        for &d in directions {
            let dir = Direction::new(self, cube, d);
            // A symmetric position looks the same from several directions: search it once.
            if !dirs.iter().any(|e| e.same_position(&dir)) {
                dirs.push(dir);
            }
        }
        let shared = Shared {
            best_len: AtomicUsize::new(usize::MAX),
            best: Mutex::new(None),
            stop: AtomicBool::new(false),
            nodes: AtomicU64::new(0),
            deadline: start + timeout,
            max_length,
        };
        let threads = threads.clamp(1, dirs.len());
        // Worker w takes directions w, w + threads, ...
        let share =
            |w: usize| -> Vec<&Direction> { dirs.iter().skip(w).step_by(threads).collect() };
        if threads == 1 {
            search::run_worker(self, &shared, &share(0));
        } else {
            std::thread::scope(|scope| {
                for w in 0..threads {
                    let mine = share(w);
                    let shared = &shared;
                    scope.spawn(move || search::run_worker(self, shared, &mine));
                }
            });
        }
        TwoPhaseResult {
            solution: shared.best.into_inner().expect("workers finished"),
            nodes: shared.nodes.into_inner(),
        }
    }

    /// The pruning tables' raw bytes with their names: the two 2-bit tables (four entries per
    /// byte, entry `i` in bits `2*(i%4)`, value = distance mod 3) and the byte table of exact
    /// corner × slice distances.
    pub fn pruning_tables(&self) -> Vec<(&'static str, &[u8])> {
        vec![
            ("twophase-phase1", self.phase1.bytes()),
            ("twophase-phase2", self.phase2.bytes()),
            ("twophase-corner-slice", &self.corner_slice),
        ]
    }

    /// Entries per exact distance of the two 2-bit tables (phase 1, phase 2), counted while
    /// building.
    pub fn pruning_histograms(&self) -> [(&'static str, &[u64]); 2] {
        [
            ("twophase-phase1", self.phase1.histogram()),
            ("twophase-phase2", self.phase2.histogram()),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cube::{Rng, SUPERFLIP, parse_moves};
    use std::sync::OnceLock;

    /// One solver for all tests in this module: the tables take seconds to build.
    pub(super) fn solver() -> &'static TwoPhase {
        static TP: OnceLock<TwoPhase> = OnceLock::new();
        TP.get_or_init(TwoPhase::new)
    }

    const LONG: Duration = Duration::from_secs(60);

    fn check(cube: &Cube, sol: &[Move]) {
        assert!(cube.apply_seq(sol).is_solved(), "not a solution");
    }

    #[test]
    fn table_maxima_are_12_and_18() {
        let tp = solver();
        let [(_, h1), (_, h2)] = tp.pruning_histograms();
        assert_eq!(h1.len() - 1, 12, "phase 1: {h1:?}");
        assert_eq!(h2.len() - 1, 18, "phase 2: {h2:?}");
        // Every entry was reached.
        assert_eq!(h1.iter().sum::<u64>(), 64_430 * 2_187);
        assert_eq!(h2.iter().sum::<u64>(), 2_768 * 40_320);
        let cs_max = *tp.corner_slice.iter().max().unwrap();
        assert!(tp.corner_slice.iter().all(|&d| d != u8::MAX));
        assert!((10..=18).contains(&cs_max), "{cs_max}");
    }

    #[test]
    fn solves_200_random_positions_in_20_moves() {
        let tp = solver();
        let mut rng = Rng::new(2024);
        for _ in 0..200 {
            let c = Cube::random(&mut rng);
            let sol = tp.solve(&c, 20, LONG).expect("a solution");
            check(&c, &sol);
            assert!(sol.len() <= 20, "{} moves", sol.len());
        }
    }

    #[test]
    fn superflip_and_trivial_positions() {
        let tp = solver();
        let sf = Cube::from_moves(&parse_moves(SUPERFLIP).unwrap());
        let sol = tp.solve(&sf, 20, LONG).unwrap();
        check(&sf, &sol);
        assert_eq!(sol.len(), 20, "superflip is 20 moves optimal");
        assert_eq!(tp.solve(&Cube::SOLVED, 20, LONG), Some(vec![]));
        for m in Move::all() {
            let c = Cube::SOLVED.apply(m);
            assert_eq!(tp.solve(&c, 1, LONG), Some(vec![m.inverse()]), "{m}");
        }
        // A twisted corner is not a position.
        let mut co = [0; 8];
        co[0] = 1;
        let bad = Cube::from_parts(Cube::SOLVED.cp(), co, Cube::SOLVED.ep(), [0; 12]);
        assert_eq!(tp.solve(&bad, 20, LONG), None);
    }

    /// Each direction alone must map its solutions back to the original position.
    #[test]
    fn every_direction_gives_valid_solutions() {
        let tp = solver();
        let mut rng = Rng::new(6);
        for d in 0..6 {
            for _ in 0..5 {
                let c = Cube::random(&mut rng);
                let r = tp.solve_directions(&c, 22, LONG, 1, &[d]);
                let sol = r.solution.expect("a solution");
                check(&c, &sol);
                assert!(sol.len() <= 22);
                assert!(r.nodes > 0);
            }
        }
    }

    /// Short scrambles: the solver should find solutions no longer than the scramble when asked.
    #[test]
    fn short_scrambles_are_undone_at_least_as_short() {
        let tp = solver();
        let mut rng = Rng::new(9);
        for len in 2..=8 {
            let seq: Vec<Move> = (0..len)
                .map(|_| Move::from_index(rng.below(18) as usize))
                .collect();
            let c = Cube::from_moves(&seq);
            let sol = tp.solve(&c, len, LONG).unwrap();
            check(&c, &sol);
            assert!(sol.len() <= len, "{} > {len}", sol.len());
        }
    }

    #[test]
    fn first_solutions_average_at_most_21_moves() {
        let tp = solver();
        let mut rng = Rng::new(77);
        let n = 100;
        let total: usize = (0..n)
            .map(|_| {
                let c = Cube::random(&mut rng);
                let sol = tp.solve_with(&c, 99, LONG, 1).solution.unwrap();
                check(&c, &sol);
                sol.len()
            })
            .sum();
        let avg = total as f64 / n as f64;
        assert!(avg <= 21.0, "average {avg}");
    }

    /// Timing report (not a pass/fail test): table build time, then 1000 random positions
    /// solved to at most 20 moves on one thread, then the same positions to their first
    /// solution. Run with
    /// `cargo test --lib solvers::twophase::tests::benchmark -- --ignored --nocapture`;
    /// `TWOPHASE_BENCH_N=300` changes the number of positions, `TP_TABLES_ONLY=1` times each
    /// table build alone instead of solving.
    #[test]
    #[ignore]
    fn benchmark() {
        let t = Instant::now();
        let tp = TwoPhase::new();
        println!("tables built in {:.2} s", t.elapsed().as_secs_f64());
        if std::env::var_os("TP_TABLES_ONLY").is_some() {
            let t = Instant::now();
            let _ = (MoveTables::new(), SymTables::new());
            println!(
                "  move and symmetry tables alone: {:.2} s",
                t.elapsed().as_secs_f64()
            );
            let t = Instant::now();
            prune::build(&Phase1Space(&tp));
            println!("  phase-1 table alone: {:.2} s", t.elapsed().as_secs_f64());
            let t = Instant::now();
            prune::build(&Phase2Space(&tp));
            println!("  phase-2 table alone: {:.2} s", t.elapsed().as_secs_f64());
            return;
        }
        for (name, h) in tp.pruning_histograms() {
            println!("{name}: {h:?}");
        }
        let mut rng = Rng::new(1);
        let n = std::env::var("TWOPHASE_BENCH_N").map_or(1000, |v| v.parse().unwrap());
        let cubes: Vec<Cube> = (0..n).map(|_| Cube::random(&mut rng)).collect();
        for (label, max_length) in [("<= 20 moves", 20), ("first solution", 99)] {
            let mut times = Vec::new();
            let mut lengths = [0usize; 32];
            let mut nodes = 0;
            for c in &cubes {
                let t = Instant::now();
                let r = tp.solve_with(c, max_length, LONG, 1);
                times.push(t.elapsed().as_secs_f64() * 1e3);
                let sol = r.solution.unwrap();
                check(c, &sol);
                lengths[sol.len()] += 1;
                nodes += r.nodes;
            }
            times.sort_by(f64::total_cmp);
            let pct = |p: f64| times[((times.len() - 1) as f64 * p).round() as usize];
            let avg_len = lengths
                .iter()
                .enumerate()
                .map(|(l, n)| l * n)
                .sum::<usize>() as f64
                / cubes.len() as f64;
            println!(
                "{label}: median {:.3} ms, p90 {:.3} ms, p99 {:.3} ms, max {:.3} ms, mean {:.3} ms, \
                 {} nodes/position, average length {avg_len:.2}",
                pct(0.5),
                pct(0.9),
                pct(0.99),
                times[times.len() - 1],
                times.iter().sum::<f64>() / times.len() as f64,
                nodes / cubes.len() as u64,
            );
            let dist: Vec<String> = (0..32)
                .filter(|&l| lengths[l] > 0)
                .map(|l| format!("{l}: {}", lengths[l]))
                .collect();
            println!("  lengths {}", dist.join(", "));
        }
    }
}
