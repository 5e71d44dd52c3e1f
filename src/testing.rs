//! Shared test fixtures: tables built in-process once per test binary.

use crate::pdb::checkpoint::Checkpoint;
use crate::pdb::{Method, NibbleTable, Pattern, generate};
use crate::progress::{Progress, ProgressMode};
use crate::search::Heuristic;
use std::path::PathBuf;
use std::sync::OnceLock;

/// An empty directory unique to this test process and `name` (emptied if a run before left it).
pub fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("optcube-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Builds one table with BFS on 2 threads, silently.
pub fn build(p: Pattern, method: Method, threads: usize) -> NibbleTable {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap();
    let progress = Progress::new(ProgressMode::Hidden, p.name(), p.entries(), "entries");
    pool.install(|| generate(p, method, &progress, &mut Checkpoint::none()))
}

/// The `korf6` set (corners, edges6a, edges6b) as a heuristic with the corner successor table,
/// built once.
pub fn korf6() -> &'static Heuristic {
    static H: OnceLock<Heuristic> = OnceLock::new();
    H.get_or_init(|| {
        let mut h = Heuristic::new(
            [Pattern::CORNERS, Pattern::EDGES6A, Pattern::EDGES6B]
                .into_iter()
                .map(|p| (p, build(p, Method::Bfs, 2)))
                .collect(),
        );
        h.derive_corner_successors(ProgressMode::Hidden, None)
            .expect("memory");
        h
    })
}

/// The `korf6` set's quarter-turn twins (corners-qtm, edges6a-qtm, edges6b-qtm) as a
/// heuristic, built once.
pub fn korf6_qtm() -> &'static Heuristic {
    static H: OnceLock<Heuristic> = OnceLock::new();
    H.get_or_init(|| {
        Heuristic::new(
            [
                Pattern::CORNERS_QTM,
                Pattern::EDGES6A_QTM,
                Pattern::EDGES6B_QTM,
            ]
            .into_iter()
            .map(|p| (p, build(p, Method::Bfs, 2)))
            .collect(),
        )
    })
}

/// The corner table and `edges5a` in the slice-turn or axial metric (`metric` moves two
/// faces) as a heuristic, built once each: about 5 s, small enough for the tests' searches
/// to depth 6.
pub fn corners_edges5_in(metric: crate::cube::Metric) -> &'static Heuristic {
    use crate::cube::Metric;
    static H: [OnceLock<Heuristic>; 2] = [OnceLock::new(), OnceLock::new()];
    let (slot, tables) = match metric {
        Metric::Stm => (&H[0], [Pattern::CORNERS_STM, Pattern::EDGES5A_STM]),
        Metric::Atm => (&H[1], [Pattern::CORNERS_ATM, Pattern::EDGES5A_ATM]),
        m => panic!("{m} reads half-turn tables"),
    };
    slot.get_or_init(|| {
        Heuristic::new(
            (tables.into_iter())
                .map(|p| (p, build(p, Method::Bfs, 2)))
                .collect(),
        )
    })
}

/// The `korf6` tables (copies) with the turned lookups of the edge tables
/// ([`Heuristic::set_symmetric`]), without the corner successor table.
pub fn korf6_sym() -> &'static Heuristic {
    static H: OnceLock<Heuristic> = OnceLock::new();
    H.get_or_init(|| {
        let mut h = Heuristic::new(
            korf6()
                .tables()
                .iter()
                .map(|(p, t)| (*p, t.clone()))
                .collect(),
        );
        h.set_symmetric(true);
        h
    })
}

/// A table of the `korf6` fixture, or of `korf6-qtm` for a quarter-turn pattern.
pub fn korf6_table(p: Pattern) -> &'static NibbleTable {
    let h = if p.metric() == crate::cube::Metric::Qtm {
        korf6_qtm()
    } else {
        korf6()
    };
    &h.tables()
        .iter()
        .find(|(q, _)| *q == p)
        .expect("in korf6 or korf6-qtm")
        .1
}

/// The `phase1` table (three slice axes) with the `korf6` corner table, built once.
pub fn phase1() -> &'static Heuristic {
    static H: OnceLock<Heuristic> = OnceLock::new();
    H.get_or_init(|| {
        let corners = korf6_table(Pattern::CORNERS);
        let mut h = Heuristic::new(vec![
            (Pattern::PHASE1, build(Pattern::PHASE1, Method::Bfs, 2)),
            (Pattern::CORNERS, corners.clone()),
        ]);
        // The corner lookup comes after the phase-1 ones here: its successor word is
        // prefetched in its own round.
        h.derive_corner_successors(ProgressMode::Hidden, None)
            .expect("memory");
        h
    })
}

/// The `sym48e0` coset table, built once (2 threads, a few seconds).
pub fn sym48e0_table() -> &'static NibbleTable {
    static T: OnceLock<NibbleTable> = OnceLock::new();
    T.get_or_init(|| build(Pattern::SYM48E0, Method::Bfs, 2))
}

/// The `sym48e0` table alone as a heuristic, in the 2-bit form its file holds (the form the
/// solver reads).
pub fn sym48e0() -> &'static Heuristic {
    static H: OnceLock<Heuristic> = OnceLock::new();
    H.get_or_init(|| {
        let t = sym48e0_table();
        let format = Pattern::SYM48E0.file_format(&t.histogram());
        let crate::pdb::Format::Lines { base } = format else {
            panic!("sym48e0 is stored in lines")
        };
        let lines = NibbleTable::in_huge_pages(&t.to_lines(base), t.entries(), format)
            .expect("memory for sym48e0");
        Heuristic::new(vec![(Pattern::SYM48E0, lines)])
    })
}

/// `sym48e0` (2-bit lines) with its fallbacks, copies of the `korf6` tables (corners, edges6a,
/// edges6b): the form of a coset set as `solve` loads it.
pub fn sym48e0_fallbacks() -> &'static Heuristic {
    static H: OnceLock<Heuristic> = OnceLock::new();
    H.get_or_init(|| sym48e0_with(crate::pdb::set::FALLBACKS.map(|p| (p, korf6_table(p).clone()))))
}

/// `sym48e0` with the small sets' fallbacks ([`crate::pdb::set::SMALL_FALLBACKS`]: two 5-edge
/// tables and the symmetry-reduced corner table, built here in a few seconds): the `sym48` set as
/// `solve` loads it.
pub fn sym48e0_small_fallbacks() -> &'static Heuristic {
    static H: OnceLock<Heuristic> = OnceLock::new();
    H.get_or_init(|| {
        sym48e0_with(crate::pdb::set::SMALL_FALLBACKS.map(|p| (p, build(p, Method::Bfs, 2))))
    })
}

/// `sym48e0` (2-bit lines) first, then `fallbacks`.
fn sym48e0_with(fallbacks: [(Pattern, NibbleTable); 3]) -> Heuristic {
    let (pattern, lines) = &sym48e0().tables()[0];
    let mut tables = vec![(*pattern, lines.clone())];
    tables.extend(fallbacks);
    Heuristic::new(tables)
}

/// Positions within 6 moves of `metric` (its unit moves) of solved, with their distances,
/// layer by layer: all to depth 5 (621,649 in HTM, 105,046 in QTM), then a twentieth (chosen
/// with `seed`) of the moves out of depth 5 that lead to no position seen before (positions
/// at 6 moves or fewer, each standing at 6).
pub fn positions_within_6(seed: u64, metric: crate::cube::Metric) -> Vec<Vec<crate::cube::Cube>> {
    positions_within(seed, metric, 6)
}

/// [`positions_within_6`] to `depth`: every position at each distance below it, a twentieth
/// of those at `depth`, by a breadth-first search over the metric's moves as cubes
/// ([`crate::cube::Metric::generators`]).
pub fn positions_within(
    seed: u64,
    metric: crate::cube::Metric,
    depth: usize,
) -> Vec<Vec<crate::cube::Cube>> {
    use crate::cube::{Cube, Rng};
    use std::collections::HashSet;
    let mut seen: HashSet<Cube> = HashSet::from([Cube::SOLVED]);
    let mut layers = vec![vec![Cube::SOLVED]];
    let mut rng = Rng::new(seed);
    for d in 1..=depth {
        let mut next = Vec::new();
        for c in &layers[d - 1] {
            for g in metric.generators() {
                let n = c.compose(g);
                if d == depth {
                    if rng.below(20) == 0 && !seen.contains(&n) {
                        next.push(n);
                    }
                } else if seen.insert(n) {
                    next.push(n);
                }
            }
        }
        layers.push(next);
    }
    layers
}

/// The exact `<R,U>` table ([`crate::pdb::ru`]), built once (about a second).
pub fn ru_table() -> &'static crate::pdb::ru::RuTable {
    static T: OnceLock<crate::pdb::ru::RuTable> = OnceLock::new();
    T.get_or_init(|| crate::pdb::ru::RuTable::build(None))
}

/// The two-phase solver's tables, built once for every test module that needs them.
pub fn twophase() -> &'static std::sync::Arc<crate::solvers::twophase::TwoPhase> {
    static T: OnceLock<std::sync::Arc<crate::solvers::twophase::TwoPhase>> = OnceLock::new();
    T.get_or_init(|| std::sync::Arc::new(crate::solvers::twophase::TwoPhase::new()))
}

/// The coset solver on [`twophase`], its phase-1 masks computed once (about 24 s on 2 threads).
pub fn coset_solver() -> &'static crate::solvers::coset::CosetSolver {
    static S: OnceLock<crate::solvers::coset::CosetSolver> = OnceLock::new();
    S.get_or_init(|| {
        crate::solvers::coset::CosetSolver::with(twophase().clone(), None, ProgressMode::Hidden)
            .expect("memory for the phase-1 masks")
    })
}
