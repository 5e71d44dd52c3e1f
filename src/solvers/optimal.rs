//! The optimal solver (Korf 1997): IDA* with the maximum of pattern-database heuristics.
//!
//! Owns the loaded tables; every solution it returns has been applied to the position and
//! checked, and `optimal` is set only from a completed IDA* proof ([`crate::search::ida`]).

use crate::cube::{Cube, Metric};
use crate::pdb::set::{SetError, open_or_build};
use crate::pdb::{NibbleTable, Pattern};
use crate::progress::ProgressMode;
use crate::search::witness::Witness;
use crate::search::{Heuristic, IterationEvent, SearchOptions, SearchResult, solve_witnessed};
use crate::solvers::twophase::TwoPhase;
use crate::sys::available_memory;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

/// What the optimal solver is asked for, in one place: which tables, which lookups and how to
/// search. The command line builds one and hands it to [`OptimalSolver::configured`]; the
/// tables and the heuristic's own switches are here, everything the search reads is the
/// [`SearchOptions`] it holds (one copy: nothing is mirrored).
#[derive(Clone, Debug)]
pub struct OptimalConfig {
    /// The pattern databases, in lookup order.
    pub patterns: Vec<Pattern>,
    /// Also look up the partial edge tables on the position turned about the URF–DBL diagonal.
    pub sym: bool,
    /// Derive the corner successor table ([`OptimalSolver::derive_corner_successors`]).
    pub successors: bool,
    /// How to search: metric, threads, depth limit, dual lookups, work units, solutions.
    pub search: SearchOptions,
}

impl OptimalConfig {
    /// The library's defaults for a solver of `patterns`: the search's own defaults
    /// ([`SearchOptions::default`]: the half-turn metric, one thread, depth 20, symmetric
    /// units, node order, units of depth 4, fallbacks read at any slack, one solution), no
    /// dual lookups beyond what the set asks, no symmetric edge lookups, and the corner
    /// successor table derived. The command line, the studies and Python start from here and
    /// change what they are asked.
    pub fn for_tables(patterns: Vec<Pattern>) -> OptimalConfig {
        OptimalConfig {
            patterns,
            sym: false,
            successors: true,
            search: SearchOptions::default(),
        }
    }

    /// The search options this configuration asks for. A set with a coset table
    /// ([`Pattern::coset_holds_half_turns`]) always probes the inverse position too: that is
    /// how the table is meant to be read, and its half turns make the inverse probe cheap.
    pub fn search_options(&self) -> SearchOptions {
        let coset = self.patterns.iter().any(|p| p.coset_holds_half_turns());
        SearchOptions {
            dual: self.search.dual || coset,
            ..self.search.clone()
        }
    }
}

/// The optimal solver with its tables.
pub struct OptimalSolver {
    heuristic: Heuristic,
    /// Where the tables were read from: where the corner successor table is kept too.
    dir: Option<PathBuf>,
}

impl OptimalSolver {
    /// Uses tables already in memory.
    pub fn from_tables(tables: Vec<(Pattern, NibbleTable)>) -> OptimalSolver {
        OptimalSolver {
            heuristic: Heuristic::new(tables),
            dir: None,
        }
    }

    /// Loads the tables of `patterns` from `dir`, each file checked once, building the missing
    /// or invalid ones (progress on stderr per `mode`; the current rayon pool builds).
    pub fn open(
        dir: &Path,
        patterns: &[Pattern],
        mode: ProgressMode,
    ) -> Result<OptimalSolver, SetError> {
        Ok(OptimalSolver {
            dir: Some(dir.to_path_buf()),
            ..Self::from_tables(open_or_build(dir, patterns, mode)?)
        })
    }

    /// Opens the tables of `config` from `dir` (building what is missing, see [`Self::open`])
    /// and sets the heuristic up as `config` asks (symmetric lookups, corner successors). The
    /// tables are those of the search's metric ([`crate::pdb::set::in_metric`]: in the
    /// quarter-turn metric, the quarter-turn twins).
    pub fn configured(
        dir: &Path,
        config: &OptimalConfig,
        mode: ProgressMode,
    ) -> Result<OptimalSolver, SetError> {
        let patterns = crate::pdb::set::in_metric(&config.patterns, config.search.metric)?;
        let mut solver = Self::open(dir, &patterns, mode)?;
        solver.set_symmetric(config.sym);
        if config.successors {
            solver.derive_corner_successors(mode)?;
        }
        Ok(solver)
    }

    /// Derives the corner successor table from the corner table, which makes the search
    /// about 14 % faster (paired runs, `korf` set) for 353 MB of memory and 5 s, or reads it
    /// from the tables' directory, where the first derivation keeps it
    /// ([`crate::pdb::successors`]).
    /// Nothing to do for a set without the corner table. When memory is short the solver
    /// goes on without it, saying so on stderr (unless `mode` is hidden).
    pub fn derive_corner_successors(&mut self, mode: ProgressMode) -> Result<(), SetError> {
        let need = crate::pdb::successors::BYTES;
        // Keep a margin for the search itself and the rest of the machine.
        if let Some(have) = available_memory()
            && need + need / 4 > have
        {
            if mode != ProgressMode::Hidden {
                eprintln!(
                    "successors: not derived, {} MB available: the search reads the corner \
                     table child by child (slower, same results)",
                    have >> 20
                );
            }
            return Ok(());
        }
        Ok(self
            .heuristic
            .derive_corner_successors(mode, self.dir.as_deref())?)
    }

    /// Adds (or removes) the lookups of the partial edge tables on the position turned about
    /// the URF–DBL diagonal ([`Heuristic::set_symmetric`]).
    pub fn set_symmetric(&mut self, on: bool) {
        self.heuristic.set_symmetric(on);
    }

    /// The heuristic (tables in lookup order).
    pub fn heuristic(&self) -> &Heuristic {
        &self.heuristic
    }

    /// Solves `cube`. The returned solution, if any, is checked to solve the cube.
    pub fn solve(&self, cube: &Cube, opts: &SearchOptions, stop: &AtomicBool) -> SearchResult {
        self.solve_observed(cube, opts, stop, &mut |_| {})
    }

    /// [`OptimalSolver::solve`], telling `observe` when each iteration begins and ends.
    pub fn solve_observed(
        &self,
        cube: &Cube,
        opts: &SearchOptions,
        stop: &AtomicBool,
        observe: &mut dyn FnMut(IterationEvent),
    ) -> SearchResult {
        self.solve_witnessed(cube, opts, stop, observe, &mut |_, _| None)
    }

    /// [`OptimalSolver::solve_observed`], asking `witness` before each iteration for a
    /// solution of the bound's length ([`crate::search::witness`]): the command line's is the
    /// two-phase solver ([`twophase_witness`]).
    pub fn solve_witnessed(
        &self,
        cube: &Cube,
        opts: &SearchOptions,
        stop: &AtomicBool,
        observe: &mut dyn FnMut(IterationEvent),
        witness: &mut Witness,
    ) -> SearchResult {
        let r = solve_witnessed(&self.heuristic, cube, opts, stop, observe, witness);
        if let Some(s) = &r.solution {
            assert!(
                super::solves(cube, s),
                "internal error: IDA* returned a sequence that does not solve the position"
            );
        }
        r
    }

    /// One position's proof as every front runs it (`solve`, `serve`, `stats lengths`,
    /// Python): the search, asking the two-phase solver, when given, for a witness before each
    /// iteration ([`twophase_witness`]; `known`: a solution at hand, such as the upper bound
    /// found before the proof).
    pub fn prove(
        &self,
        twophase: Option<&TwoPhaseWitness>,
        cube: &Cube,
        opts: &SearchOptions,
        known: Option<Vec<crate::cube::Move>>,
        stop: &AtomicBool,
        observe: &mut dyn FnMut(IterationEvent),
    ) -> SearchResult {
        match twophase {
            Some(tp) => {
                let mut w = twophase_witness(tp, opts.metric, cube, known, opts.threads);
                self.solve_witnessed(cube, opts, stop, observe, &mut w)
            }
            None => self.solve_observed(cube, opts, stop, observe),
        }
    }
}

/// The two-phase solver the optimal search asks for upper bounds and witnesses, opened by
/// [`open_twophase_for_bounds`]. In HTM it is loaded at once: every solve asks it for an upper
/// bound. In QTM a witness is asked for only after an iteration of 30 s or more
/// (the metric declaration's `witness_after`), which random positions never reach. There its
/// tables (about 64 MB) are checked when it is opened, then loaded again at the first witness,
/// and they stay out of memory in the searches that never ask. (Should they have gone from the
/// directory meanwhile, that load builds them again, silently, as opening does.)
pub struct TwoPhaseWitness {
    dir: PathBuf,
    solver: std::sync::OnceLock<Option<TwoPhase>>,
}

impl TwoPhaseWitness {
    /// The solver, loaded on first use; `None` if its tables could not be loaded again (said on
    /// stderr once; the search then goes on without witnesses).
    pub fn solver(&self) -> Option<&TwoPhase> {
        self.solver
            .get_or_init(|| match TwoPhase::open(&self.dir, ProgressMode::Hidden) {
                Ok(tp) => Some(tp),
                Err(e) => {
                    eprintln!("no two-phase witnesses: {e}");
                    None
                }
            })
            .as_ref()
    }

    /// Whether its tables are in memory now.
    pub fn is_loaded(&self) -> bool {
        matches!(self.solver.get(), Some(Some(_)))
    }
}

/// A witness for the search of `cube` in `metric` made of the two-phase solver: a solution
/// already at hand (`known`, e.g. the upper bound found before the proof) when its length in
/// the metric is the bound's, else a two-phase search for a solution of at most the bound's
/// length within the budget, on `threads` threads. The search checks what it returns
/// ([`crate::search::witness::proves`]).
pub fn twophase_witness<'a>(
    tp: &'a TwoPhaseWitness,
    metric: Metric,
    cube: &'a Cube,
    known: Option<Vec<crate::cube::Move>>,
    threads: usize,
) -> impl FnMut(u8, std::time::Duration) -> Option<Vec<crate::cube::Move>> + 'a {
    move |bound, budget| {
        let bound = bound as usize;
        if let Some(s) = known.as_ref().filter(|s| metric.length(s) == bound) {
            return Some(s.clone());
        }
        if budget.is_zero() {
            return None;
        }
        let s = (tp.solver()?)
            .solve_in(metric, cube, bound, budget, threads)
            .solution?;
        (metric.length(&s) == bound).then_some(s)
    }
}

/// A two-phase solution of `cube` found within a second on `threads` threads, checked, with
/// the seconds it took: the upper bound printed before a proof, and the witness at hand for
/// the bound of its length (which also refutes a known lower bound above it at once). `None`
/// where the metric asks for none ([`upper_bound_before_proof`]) or none was found.
pub fn upper_bound(
    tp: &TwoPhaseWitness,
    metric: Metric,
    cube: &Cube,
    threads: usize,
) -> Option<(Vec<crate::cube::Move>, f64)> {
    if !upper_bound_before_proof(metric) {
        return None;
    }
    let t = std::time::Instant::now();
    let s = (tp.solver()?)
        .solve_in(
            metric,
            cube,
            metric.diameter() as usize,
            std::time::Duration::from_secs(1),
            threads,
        )
        .solution?;
    super::solves(cube, &s).then(|| (s, t.elapsed().as_secs_f64()))
}

/// Whether a solve in `metric` asks the two-phase solver for an upper bound before its proof:
/// in HTM only. In QTM that solver finds 2–4 quarter turns more than the optimum on random
/// positions, so a bound there costs time for nothing (`results/solve-qtm.md`); the solver
/// serves only the witnesses, asked after a long iteration
/// (the metric declaration's `witness_after`), and its tables wait until then.
pub fn upper_bound_before_proof(metric: Metric) -> bool {
    metric.declaration().upper_bound_first
}

/// The two-phase solver for upper bounds and witnesses in `metric`, opened from `dir`:
/// `Ok(Ok(tp))`, or `Ok(Err(why))` where its tables can be neither loaded nor written. They
/// serve only the bound and the witnesses, so a table directory that is read-only or full must
/// not stop a solve whose own tables are there: the caller says `why` and solves without them.
/// Missing tables are built and saved only where the directory takes new files and has room for
/// them (checked first, so nothing is built in vain); a write that fails all the same is a skip
/// too. A damaged or stale file is still an error: it is never used, and the message says how to
/// rebuild it. In QTM the tables are checked and then let go until the first witness
/// ([`TwoPhaseWitness`]). The command line's `solve` and `stats lengths` and Python's `Solver`
/// all open it here.
pub fn open_twophase_for_bounds(
    dir: &Path,
    metric: Metric,
    progress: ProgressMode,
) -> Result<Result<TwoPhaseWitness, String>, crate::pdb::file::TableError> {
    use crate::pdb::file::{TableError, is_present, table_path};
    // The search over syllables of the metrics with moves of two faces asks for no witness
    // (`search::subset`), so the tables would be loaded for nothing.
    if !metric.bounded_by_htm() {
        return Ok(Err(format!(
            "the {metric} search does not use it (it searches whole axis moves)"
        )));
    }
    let all_present = (crate::solvers::twophase::TABLE_NAMES.iter())
        .all(|n| is_present(&table_path(dir, n)).unwrap_or(false));
    if !all_present {
        if let Err(e) = crate::sys::files::check_writable(dir) {
            return Ok(Err(format!(
                "its tables are not in {} and cannot be written there ({e})",
                dir.display()
            )));
        }
        let need: u64 = TwoPhase::kinds().iter().map(|k| k.payload_bytes()).sum();
        if let Some(free) = crate::sys::free_disk(dir).filter(|&f| f < need + (16 << 20)) {
            return Ok(Err(format!(
                "its tables need {} MB in {}, {} MB are free",
                need >> 20,
                dir.display(),
                free >> 20
            )));
        }
    }
    match TwoPhase::open(dir, progress) {
        Ok(tp) => {
            let solver = std::sync::OnceLock::new();
            if upper_bound_before_proof(metric) {
                let _ = solver.set(Some(tp));
            }
            Ok(Ok(TwoPhaseWitness {
                dir: dir.to_path_buf(),
                solver,
            }))
        }
        Err(e @ TableError::Io { .. }) => Ok(Err(e.to_string())),
        Err(e) => Err(e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The solver's defaults are the search's: a configuration made by `for_tables` asks the
    /// search for exactly its default options (a coset set adds only the inverse probes).
    #[test]
    fn the_defaults_have_one_home() {
        let korf = OptimalConfig::for_tables(crate::pdb::set::resolve_set("korf").unwrap());
        let default = format!("{:?}", SearchOptions::default());
        assert_eq!(format!("{:?}", korf.search_options()), default);
        let coset = OptimalConfig::for_tables(crate::pdb::set::resolve_set("sym48").unwrap());
        let opts = coset.search_options();
        assert!(opts.dual);
        let undual = SearchOptions {
            dual: false,
            ..opts
        };
        assert_eq!(format!("{undual:?}"), default);
    }

    /// The witnesses' two-phase solver is in memory from the start in HTM (its upper bound is
    /// asked before every proof), and in QTM only once a witness with a budget is asked: its
    /// tables are checked when opened (a damaged one is an error either way) and loaded then.
    #[test]
    fn quarter_turn_witnesses_load_their_tables_at_first_use() {
        let dir = crate::testing::temp_dir("witness-lazy");
        crate::testing::twophase().save(&dir).unwrap();
        let htm = open_twophase_for_bounds(&dir, Metric::Htm, ProgressMode::Hidden)
            .unwrap()
            .unwrap();
        assert!(htm.is_loaded());
        let qtm = open_twophase_for_bounds(&dir, Metric::Qtm, ProgressMode::Hidden)
            .unwrap()
            .unwrap();
        assert!(!qtm.is_loaded());
        let cube = Cube::SOLVED.apply_seq(&crate::cube::parse_moves("R U F").unwrap());
        let mut w = twophase_witness(&qtm, Metric::Qtm, &cube, None, 1);
        // No budget: nothing is loaded.
        assert_eq!(w(3, std::time::Duration::ZERO), None);
        assert!(!qtm.is_loaded());
        let s = w(3, std::time::Duration::from_secs(5)).expect("a 3q witness");
        assert!(crate::solvers::solves(&cube, &s) && Metric::Qtm.length(&s) == 3);
        assert!(qtm.is_loaded());
        // A table damaged between the open and the first witness is refused then: no witness,
        // nothing loaded, and the search goes on without.
        let late = open_twophase_for_bounds(&dir, Metric::Qtm, ProgressMode::Hidden)
            .unwrap()
            .unwrap();
        damage(&dir);
        let mut w = twophase_witness(&late, Metric::Qtm, &cube, None, 1);
        assert_eq!(w(3, std::time::Duration::from_secs(5)), None);
        assert!(!late.is_loaded());
        // A damaged table is refused when the solver is opened, in either metric.
        for metric in [Metric::Htm, Metric::Qtm] {
            assert!(open_twophase_for_bounds(&dir, metric, ProgressMode::Hidden).is_err());
        }
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// Flips the last byte of the two-phase phase-2 table in `dir`.
    fn damage(dir: &Path) {
        let path = crate::pdb::file::table_path(dir, crate::solvers::twophase::TABLE_NAMES[1]);
        let mut bytes = std::fs::read(&path).unwrap();
        let last = bytes.len() - 1;
        bytes[last] ^= 0x55;
        std::fs::write(&path, bytes).unwrap();
    }
}
