//! Kociemba's two-phase solver: near-optimal solutions in milliseconds.
//!
//! Phase 1 brings the position into the subgroup G1 = <U, D, R2, L2, F2, B2>, where corners and
//! edges are not twisted or flipped and the four UD-slice edges are in the slice; phase 2 solves
//! it with G1 moves only. Each phase is an IDA* search on small coordinates ([`crate::coord`]) with
//! symmetry-reduced pruning tables ([`crate::coord::symmetry`], `prune`); `search` explains how phase 1 keeps
//! going to shorten the total.
//!
//! [`TwoPhase::new`] builds everything in memory (move tables, the 48 symmetries, the 64,430
//! flip-slice and 2,768 corner classes, three pruning tables). [`TwoPhase::open`] builds the
//! cheap move and symmetry tables the same way but keeps the three pruning tables (the slow part)
//! as table files in a directory, in the crate's one table format ([`crate::pdb::file`]):
//! `twophase-phase1.pdb`, `twophase-phase2.pdb` and `twophase-corner-slice.pdb`. A missing file
//! is built and written; an existing one is loaded and checked, and a damaged one is an error.

mod prune;
mod search;

use prune::QtmPhase2;
pub(crate) use prune::{closer_residue, step_distance};

use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize};
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

use crate::cube::{Cube, Metric, Move};
use crate::pdb::file::{self, Packing, TableError, TableKind};
use crate::progress::{Progress, ProgressMode};

use crate::coord::symmetry::SymTables;
use crate::coord::{MoveTables, N_PERM8, N_SLICE_PERM, N_TWIST};
use crate::pdb::cells::Mod3Table;
use crate::pdb::phase1::Phase1Space;
use search::{Direction, Shared};

/// The solver: owns every table it needs. Build once, solve many positions; `Sync`, so one
/// instance can serve many threads.
pub struct TwoPhase {
    mv: &'static MoveTables,
    sym: SymTables,
    /// The phase-1 classes' index arithmetic, shared with the `phase1` pattern database.
    phase1_space: &'static Phase1Space,
    /// Distance mod 3 to G1, by flip-slice class × twist.
    phase1: Mod3Table,
    /// Distance mod 3 to solved in G1, by corner class × UD-edge permutation.
    phase2: Mod3Table,
    /// Exact phase-2 distance of corner permutation × slice permutation.
    corner_slice: Vec<u8>,
    /// Phase 2's quarter-turn bounds, built (in a fraction of a second) on the first search in
    /// QTM.
    qtm: OnceLock<QtmPhase2>,
}

/// The outcome of one solve, with the search figures.
#[derive(Clone, Debug)]
pub struct TwoPhaseResult {
    /// The shortest solution found, if any.
    pub solution: Option<Vec<Move>>,
    /// Search nodes visited, both phases, all threads.
    pub nodes: u64,
}

/// Names of the three pruning tables, which are also their file names (`NAME.pdb`): phase 1
/// (2 bits per entry), phase 2 (2 bits) and corner × slice permutation (a byte per entry).
pub const TABLE_NAMES: [&str; 3] = [
    "twophase-phase1",
    "twophase-phase2",
    "twophase-corner-slice",
];

/// Version of the pruning tables' contents in table files. Bump it whenever a coordinate, the
/// numbering of the symmetry classes or a table's layout changes, so that files written before
/// are refused as stale instead of being read as wrong distances.
pub const TABLE_VERSION: u32 = 1;

/// The generator recorded in the table files' headers.
const GENERATOR: &str = "twophase breadth-first search";

impl Default for TwoPhase {
    fn default() -> Self {
        Self::new()
    }
}

impl TwoPhase {
    /// Builds all tables in memory (several seconds, using the rayon thread pool).
    pub fn new() -> Self {
        let mut tp = Self::without_pruning();
        tp.build_pruning([true; 3]);
        tp
    }

    /// Opens the solver with its pruning tables kept in `dir` (created if needed): each table
    /// whose file exists is loaded and checked, each missing one is built and written
    /// atomically. A file that cannot be used (damaged, truncated, stale, another table's) is
    /// an error naming it and the command that rebuilds it; it is never overwritten. The move
    /// and symmetry tables are always built in memory (well under a second). A build (about
    /// 9 s on 2 cores) is announced and summed up on stderr unless `progress` is hidden.
    pub fn open(dir: &Path, progress: ProgressMode) -> Result<TwoPhase, TableError> {
        let mut tp = Self::without_pruning();
        let kinds = tp.table_kinds();
        let loaded = file::open_or_build(
            dir,
            &kinds,
            |path, kind| {
                let (bytes, info) = file::load_vec_complete(path, kind)?;
                Ok(Some((bytes, info.histogram)))
            },
            |missing| {
                let which: [bool; 3] = std::array::from_fn(|i| missing.contains(&i));
                let built = missing.len() as u64;
                let p = Progress::new(progress, "twophase", built, "tables");
                p.println(&format!(
                    "twophase: building {built} pruning table(s) for the two-phase solver in {}",
                    dir.display()
                ));
                tp.build_pruning(which);
                tp.save_tables(dir, which)?;
                let secs = p.elapsed();
                p.finish(&format!("{built} table(s) built and saved in {secs:.1} s"));
                // The built tables are kept in `tp` itself.
                Ok::<_, TableError>(vec![None; missing.len()])
            },
        )?;
        for (i, table) in loaded.into_iter().enumerate() {
            let Some((bytes, histogram)) = table else {
                continue;
            };
            let entries = kinds[i].entries as usize;
            match i {
                0 => tp.phase1 = Mod3Table::from_bytes(bytes, entries, histogram),
                1 => tp.phase2 = Mod3Table::from_bytes(bytes, entries, histogram),
                _ => tp.corner_slice = bytes,
            }
        }
        Ok(tp)
    }

    /// Writes the three pruning tables to `dir` (created if needed) as the files
    /// [`open`](Self::open) reads, replacing any there (atomically).
    pub fn save(&self, dir: &Path) -> Result<(), TableError> {
        self.save_tables(dir, [true; 3])
    }

    /// What each pruning table's file must hold, in [`TABLE_NAMES`] order.
    pub fn table_kinds(&self) -> [TableKind; 3] {
        let entries = [
            self.phase1_space.classes() as usize * N_TWIST,
            self.sym.corners.len() * N_PERM8,
            N_PERM8 * N_SLICE_PERM,
        ];
        let pieces = [
            "flip-slice class x corner twist (distance mod 3)",
            "corner permutation class x UD-edge permutation (distance mod 3)",
            "corner permutation x UD-slice permutation (exact distance)",
        ];
        let bits = [2, 2, 8];
        std::array::from_fn(|i| TableKind {
            name: TABLE_NAMES[i].into(),
            version: TABLE_VERSION,
            pieces: pieces[i].into(),
            entries: entries[i] as u64,
            packing: Packing::Bits(bits[i]),
            rebuild: "optcube solve --solver twophase --pdb-dir {dir} R".into(),
            metric: Metric::Htm,
        })
    }

    /// What each pruning table's file must hold ([`TwoPhase::table_kinds`]), without a solver.
    pub fn kinds() -> [TableKind; 3] {
        Self::without_pruning().table_kinds()
    }

    /// The solver with move and symmetry tables but empty pruning tables.
    fn without_pruning() -> Self {
        let (mv, (sym, phase1_space)) = rayon::join(MoveTables::get, || {
            rayon::join(SymTables::new, || Phase1Space::get(false))
        });
        TwoPhase {
            mv,
            sym,
            phase1_space,
            phase1: Mod3Table::default(),
            phase2: Mod3Table::default(),
            corner_slice: Vec::new(),
            qtm: OnceLock::new(),
        }
    }

    /// Builds the pruning tables marked in `which` (in [`TABLE_NAMES`] order), in parallel.
    fn build_pruning(&mut self, which: [bool; 3]) {
        // The builders read the move and symmetry tables through `tp`.
        let tp = &*self;
        let (phase1, (phase2, corner_slice)) = rayon::join(
            || which[0].then(prune::build_phase1),
            || {
                (
                    which[1].then(|| prune::build_phase2(tp)),
                    which[2].then(|| prune::build_corner_slice(tp)),
                )
            },
        );
        if let Some(t) = phase1 {
            self.phase1 = t;
        }
        if let Some(t) = phase2 {
            self.phase2 = t;
        }
        if let Some(t) = corner_slice {
            self.corner_slice = t;
        }
    }

    /// The phase-1 table's residue (distance mod 3) at `index` ([`TwoPhase::phase1_index`]),
    /// for the coset solver's enumeration, which walks the same table.
    #[inline(always)]
    pub(crate) fn phase1_residue(&self, index: usize) -> u8 {
        self.phase1.get(index)
    }

    /// [`TwoPhase::phase1_index`] and the UD symmetry `s` with which the table's position at that
    /// index is `S_s · x · S_s⁻¹` (`Phase1Space::index_and_sym`).
    #[inline(always)]
    pub(crate) fn phase1_index_sym(
        &self,
        flip: usize,
        twist: usize,
        slice_sorted: usize,
    ) -> (u32, u8) {
        let (i, s) = self
            .phase1_space
            .index_and_sym(flip, twist, slice_sorted / N_SLICE_PERM);
        (i as u32, s)
    }

    /// Phase 2's quarter-turn bounds, built on first use.
    fn qtm_phase2(&self) -> &QtmPhase2 {
        self.qtm.get_or_init(|| QtmPhase2::build(self))
    }

    /// Writes the pruning tables marked in `which` to `dir`.
    fn save_tables(&self, dir: &Path, which: [bool; 3]) -> Result<(), TableError> {
        std::fs::create_dir_all(dir).map_err(|source| TableError::Io {
            path: dir.to_path_buf(),
            source,
        })?;
        for (i, kind) in self.table_kinds().iter().enumerate() {
            if !which[i] {
                continue;
            }
            let (bytes, histogram) = match i {
                0 => (self.phase1.bytes(), self.phase1.histogram().to_vec()),
                1 => (self.phase2.bytes(), self.phase2.histogram().to_vec()),
                _ => (
                    &self.corner_slice[..],
                    crate::pdb::table::byte_histogram(&self.corner_slice),
                ),
            };
            file::save_payload(
                &file::table_path(dir, TABLE_NAMES[i]),
                kind,
                bytes,
                histogram,
                GENERATOR,
            )?;
        }
        Ok(())
    }

    /// Solves `cube`: returns the first solution found with at most `max_length` moves. Until
    /// one is found the search keeps improving on longer ones; if `timeout` expires first (or
    /// the search runs out of ways to improve), the best solution found so far is returned even
    /// if it is longer than `max_length`. `None` only if nothing was found in time or the position
    /// is not a valid cube. Uses up to six threads (one per search direction).
    pub fn solve(&self, cube: &Cube, max_length: usize, timeout: Duration) -> Option<Vec<Move>> {
        let threads = crate::sys::cores();
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
        self.solve_in(Metric::Htm, cube, max_length, timeout, threads)
    }

    /// [`solve_with`](Self::solve_with) with lengths in `metric`: the first solution found that
    /// costs at most `max_length` in it, else the cheapest found in time. In QTM the searches
    /// are bounded by quarter turns (phase 2's half turns cost 2) and pruned by the half-turn
    /// tables, lower bounds in either metric, and in phase 2 also by two exact quarter-turn
    /// tables (`prune::QtmPhase2`, built on the first such search).
    pub fn solve_in(
        &self,
        metric: Metric,
        cube: &Cube,
        max_length: usize,
        timeout: Duration,
        threads: usize,
    ) -> TwoPhaseResult {
        let all = [0, 1, 2, 3, 4, 5];
        self.solve_directions(metric, cube, max_length, timeout, threads, &all)
    }

    /// Searches the given directions (0..3: the three axes, 3..6: the same for the inverse).
    fn solve_directions(
        &self,
        metric: Metric,
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
            metric,
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
    /// building (or read from their files).
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

    /// One solver for all tests (shared with the coset tests): the tables take seconds to build.
    pub(super) fn solver() -> &'static TwoPhase {
        crate::testing::twophase()
    }

    const LONG: Duration = Duration::from_secs(60);

    fn check(cube: &Cube, sol: &[Move]) {
        assert!(cube.apply_seq(sol).is_solved(), "not a solution");
    }

    /// The `phase1` pattern database (block BFS over symmetry classes, exact distances) agrees
    /// with the two-phase solver's own phase-1 distances (mod-3 table, separate generator).
    #[test]
    fn phase1_pattern_database_matches_phase1_distances() {
        use crate::pdb::{Method, Pattern};
        let tp = solver();
        let table = crate::testing::build(Pattern::PHASE1, Method::Bfs, 2);
        let mut rng = crate::cube::Rng::new(4);
        let mut seen = [false; 13];
        for k in 0..3000 {
            // Random positions sit at 9-11 moves from G1; short walks cover the rest.
            let c = if k % 2 == 0 {
                Cube::random(&mut rng)
            } else {
                let n = rng.below(9) as usize;
                let seq: Vec<Move> = (0..n)
                    .map(|_| Move::from_index(rng.below(18) as usize))
                    .collect();
                Cube::from_moves(&seq)
            };
            let want = tp.phase1_distance(
                crate::coord::flip(&c.eo()) as usize,
                crate::coord::twist(&c.co()) as usize,
                crate::coord::slice_sorted(&c.ep()) as usize,
            );
            assert_eq!(table.get(Pattern::PHASE1.index(&c)), want, "{c:?}");
            seen[want as usize] = true;
        }
        assert!(seen[..=10].iter().all(|&s| s), "{seen:?}");
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
                let r = tp.solve_directions(Metric::Htm, &c, 22, LONG, 1, &[d]);
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

    fn same_tables(a: &TwoPhase, b: &TwoPhase) {
        for ((name, x), (_, y)) in a.pruning_tables().into_iter().zip(b.pruning_tables()) {
            assert!(x == y, "{name} differs");
        }
        assert_eq!(a.pruning_histograms(), b.pruning_histograms());
    }

    /// The tables of `solver()` saved, then `open`: a missing table is built and written (the
    /// cheap corner × slice one here; building all three from nothing is the same code, timed
    /// by `open_timing`), existing ones load as the same tables and give the same solutions,
    /// and a damaged or truncated file is refused with its name, never overwritten.
    #[test]
    fn open_loads_saved_tables_builds_missing_and_refuses_damage() {
        let tp = solver();
        let dir = crate::testing::temp_dir("twophase-open");
        tp.save(&dir).unwrap();
        let kinds = tp.table_kinds();
        for (i, kind) in kinds.iter().enumerate() {
            let info =
                file::read_info(&file::table_path(&dir, TABLE_NAMES[i]), kind.clone()).unwrap();
            assert_eq!(info.entries, kind.entries);
            assert_eq!(info.histogram.iter().sum::<u64>(), kind.entries);
        }
        assert_eq!(kinds[0].entries, 64_430 * 2_187);
        assert_eq!(kinds[1].entries, 2_768 * 40_320);

        let cs = file::table_path(&dir, TABLE_NAMES[2]);
        std::fs::remove_file(&cs).unwrap();
        let rebuilt = TwoPhase::open(&dir, ProgressMode::Hidden).unwrap();
        assert!(cs.exists());
        same_tables(&rebuilt, tp);
        drop(rebuilt);

        let loaded = TwoPhase::open(&dir, ProgressMode::Hidden).unwrap();
        same_tables(&loaded, tp);
        let mut rng = Rng::new(404);
        for _ in 0..10 {
            let c = Cube::random(&mut rng);
            let a = loaded.solve_with(&c, 99, LONG, 1).solution.unwrap();
            check(&c, &a);
            assert_eq!(Some(a), tp.solve_with(&c, 99, LONG, 1).solution);
        }
        drop(loaded);

        // One payload byte flipped in the phase-2 table.
        let p2 = file::table_path(&dir, TABLE_NAMES[1]);
        let mut bytes = std::fs::read(&p2).unwrap();
        bytes[file::HEADER_LEN + 123_456] ^= 0x10;
        std::fs::write(&p2, &bytes).unwrap();
        let e = TwoPhase::open(&dir, ProgressMode::Hidden)
            .err()
            .expect("refused");
        assert!(matches!(e, TableError::Checksum { .. }), "{e}");
        let msg = e.to_string();
        assert!(msg.contains("twophase-phase2.pdb"), "{msg}");
        assert!(msg.contains("--solver twophase"), "{msg}");
        assert!(std::fs::read(&p2).unwrap() == bytes, "left as it was");
        bytes[file::HEADER_LEN + 123_456] ^= 0x10;
        std::fs::write(&p2, &bytes).unwrap();

        // Truncated corner × slice table.
        let full = std::fs::read(&cs).unwrap();
        std::fs::write(&cs, &full[..full.len() - 1]).unwrap();
        let e = TwoPhase::open(&dir, ProgressMode::Hidden)
            .err()
            .expect("refused");
        assert!(matches!(e, TableError::Size { .. }), "{e}");
        assert!(e.to_string().contains("twophase-corner-slice.pdb"));

        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// In QTM the solutions solve, cost at most the limit when one is reported within it, and
    /// have the parity of the corner permutation; a short position's quarter-turn solution is
    /// found at its length.
    #[test]
    fn quarter_turn_solutions() {
        let tp = solver();
        let mut rng = Rng::new(11);
        for _ in 0..3 {
            let c = Cube::random(&mut rng);
            let r = tp.solve_in(Metric::Qtm, &c, 26, LONG, 2);
            let sol = r.solution.expect("a solution");
            check(&c, &sol);
            let q = Metric::Qtm.length(&sol);
            assert!(q <= 26, "{q}");
            assert_eq!(q % 2, c.corner_parity() as usize);
        }
        // 7 quarter turns: R' U2 F L2 D' costs 1 + 2 + 1 + 2 + 1.
        let c = Cube::from_moves(&parse_moves("R' U2 F L2 D'").unwrap());
        let sol = tp.solve_in(Metric::Qtm, &c, 7, LONG, 1).solution.unwrap();
        check(&c, &sol);
        assert!(Metric::Qtm.length(&sol) <= 7);
    }
}
