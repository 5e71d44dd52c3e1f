//! Named sets of tables (`korf`, `korf6`, `huge`, single patterns), building the missing ones and
//! loading a set for the search.
//!
//! A set's name says which tables, not which metric: a search in the quarter-turn metric reads
//! each table's quarter-turn twin where the registry declares one, and the half-turn table
//! itself otherwise ([`in_metric`]).

use crate::cube::Metric;
use crate::pdb::checkpoint::{Checkpoint, DEFAULT_EVERY};
use crate::pdb::family::Pattern;
use crate::pdb::file::{self, TableError, TableInfo, TableKind, table_path};
use crate::pdb::generate::{Method, generate};
use crate::pdb::table::{NibbleTable, bytes_for};
use crate::progress::{Progress, ProgressMode};
use crate::sys::{available_memory, free_disk};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// The default directory for tables: `$OPTCUBE_PDB_DIR`, else `pdb/`.
pub fn default_dir() -> PathBuf {
    std::env::var_os("OPTCUBE_PDB_DIR").map_or_else(|| PathBuf::from("pdb"), PathBuf::from)
}

/// A named table set, declared once: its tables, and where the chooser puts it. The set names,
/// the chooser's preference and the first-use builds are all read from [`SETS`].
#[derive(Clone, Copy, Debug)]
pub struct SetSpec {
    pub name: &'static str,
    /// What the set holds, for `solve --help` ([`describe_sets`]).
    pub help: &'static str,
    /// Its tables in lookup order; a coset set: its coset table, then its fallbacks.
    pub tables: &'static [Pattern],
    /// Rank when `solve` picks among the sets present, fastest first; every set has one, so a
    /// complete set in the directory is always used rather than a first-use build beside it.
    /// As measured on random 17-movers (`results/memory-choices.md`; `docs/tables.md`,
    /// "The `sym48e6` table"). With their fallbacks the coset sets are also faster than `korf`
    /// in and near their subgroup (`results/solve-bench-structured.md`), so a coset set
    /// present always goes first; `sym48e7` and `sym48e8` are faster still, though not by
    /// GB·s, and are only ever there when built by hand.
    pub solve_rank: u8,
    /// For the sets a first use may build: seconds the build takes on the 2-core machine of
    /// `results/build-sym48.md` and `results/fallbacks.md`, fallbacks included. `korf` is never
    /// built for a newcomer: it needs minutes to hours for a random position, where `sym48`
    /// needs a few minutes with 30 MB.
    pub first_build_secs: Option<u64>,
}

/// The tables a large coset set reads besides its coset table, where that table reads about 0
/// (in and near its subgroup): the corner table and two 6-edge tables, 86 MB in all
/// (`search::heuristic` module docs).
pub const FALLBACKS: [Pattern; 3] = [Pattern::CORNERS, Pattern::EDGES6A, Pattern::EDGES6B];

/// The small coset sets' fallbacks, sized to their coset table (30 to 240 MB): two 5-edge
/// tables and a corner table. They see what the coset index leaves out, edge flips and the
/// pieces' order within their slices and tetrads, as H48's edges-only fallback of about 1 MB
/// does (nissy-core `doc/h48.md`); measured against the large fallbacks in
/// `results/ladder.md`. `sym48` and `sym48e1` read the whole corner table reduced by the
/// symmetries ([`Pattern::CORNERS48`], 0.98 MB; 4.0 MB in all): 0.86× and 0.89× the time on
/// the first five 17-movers. From `sym48e2` on the coset table prunes more of what it would
/// prune and its lookup costs more than it saves (0.99× and 1.07×), so `sym48e2` and `e3` read
/// the corner permutation ([`SMALL_FALLBACKS_PERM`], 3.1 MB in all).
pub const SMALL_FALLBACKS: [Pattern; 3] = [Pattern::EDGES5A, Pattern::EDGES5B, Pattern::CORNERS48];

/// `sym48e2`'s and `sym48e3`'s fallbacks: the 5-edge tables and the corner permutation
/// ([`SMALL_FALLBACKS`] says why).
pub const SMALL_FALLBACKS_PERM: [Pattern; 3] =
    [Pattern::EDGES5A, Pattern::EDGES5B, Pattern::CORNERPERM];

/// A coset set's tables: its coset table, then its fallbacks ([`FALLBACKS`],
/// [`SMALL_FALLBACKS`] or [`SMALL_FALLBACKS_PERM`]).
const fn coset_tables(coset: Pattern, fallbacks: [Pattern; 3]) -> [Pattern; 4] {
    [coset, fallbacks[0], fallbacks[1], fallbacks[2]]
}

/// A coset set: `tables` from [`coset_tables`].
const fn coset_set(
    name: &'static str,
    help: &'static str,
    tables: &'static [Pattern; 4],
    solve_rank: u8,
    first_build_secs: Option<u64>,
) -> SetSpec {
    SetSpec {
        name,
        help,
        tables,
        solve_rank,
        first_build_secs,
    }
}

/// Every named set: `korf` (corners, two 7-edge tables, edge permutation), `korf6` (corners and
/// two 6-edge tables), `huge` (phase1sorted and corners), and the ladder of 48-symmetry coset
/// sets: `sym48` (the coset table, always probed on the inverse too), `sym48e1` to `sym48e3`
/// (with the first one to three E-slice edges' flips), `sym48e4` (all four), `sym48e5` to
/// `sym48e8` (and one to four M edges' flips), `sym48e9` (and one S edge's). Each coset table
/// doubles the one before it;
/// the small ones (to `sym48e3`) carry the [`SMALL_FALLBACKS`] or [`SMALL_FALLBACKS_PERM`], the
/// others the [`FALLBACKS`].
pub const SETS: [SetSpec; 13] = [
    SetSpec {
        name: "korf",
        help: "corners, two 7-edge tables, edge permutation: 0.8 GB",
        tables: &[
            Pattern::CORNERS,
            Pattern::EDGES7A,
            Pattern::EDGES7B,
            Pattern::EDGEPERM,
        ],
        solve_rank: 11,
        first_build_secs: None,
    },
    SetSpec {
        name: "korf6",
        help: "corners and two 6-edge tables: 86 MB",
        tables: &[Pattern::CORNERS, Pattern::EDGES6A, Pattern::EDGES6B],
        // The weakest: picked only when nothing better is present.
        solve_rank: 12,
        first_build_secs: None,
    },
    SetSpec {
        name: "huge",
        help: "phase1sorted + corners: 2.3 GB, random positions",
        tables: &[Pattern::PHASE1_SORTED, Pattern::CORNERS],
        // Behind sym48e2 and e3 (13.2 s a 17-mover against 9.2 and 3.8, results/ladder.md).
        solve_rank: 8,
        first_build_secs: Some(80),
    },
    coset_set(
        "sym48",
        "the 48-symmetry coset table: 30 MB, random positions",
        &coset_tables(Pattern::SYM48E0, SMALL_FALLBACKS),
        10,
        Some(10),
    ),
    coset_set(
        "sym48e1",
        "with the first E-slice edge's flip: 59 MB",
        &coset_tables(Pattern::SYM48E1, SMALL_FALLBACKS),
        9,
        None,
    ),
    coset_set(
        "sym48e2",
        "two E-slice edges' flips: 118 MB",
        &coset_tables(Pattern::SYM48E2, SMALL_FALLBACKS_PERM),
        7,
        None,
    ),
    coset_set(
        "sym48e3",
        "three: 235 MB",
        &coset_tables(Pattern::SYM48E3, SMALL_FALLBACKS_PERM),
        6,
        None,
    ),
    coset_set(
        "sym48e4",
        "all four E-slice edges' flips: 478 MB",
        &coset_tables(Pattern::SYM48E4, FALLBACKS),
        5,
        Some(200),
    ),
    coset_set(
        "sym48e5",
        "and one M edge's flip: 0.94 GB",
        &coset_tables(Pattern::SYM48E5, FALLBACKS),
        4,
        None,
    ),
    coset_set(
        "sym48e6",
        "and two M edges' flips: 1.9 GB",
        &coset_tables(Pattern::SYM48E6, FALLBACKS),
        3,
        Some(330),
    ),
    coset_set(
        "sym48e7",
        "three M edges: 3.8 GB, built with 6 GB",
        &coset_tables(Pattern::SYM48E7, FALLBACKS),
        2,
        None,
    ),
    coset_set(
        "sym48e8",
        "all four: 7.5 GB, built with 9 GB",
        &coset_tables(Pattern::SYM48E8, FALLBACKS),
        1,
        None,
    ),
    coset_set(
        "sym48e9",
        "and the first S edge's flip: 15.3 GB, built with 17 GB",
        &coset_tables(Pattern::SYM48E9, FALLBACKS),
        0,
        None,
    ),
];

/// The patterns of a set name ([`SETS`]), or of one pattern's own name.
pub fn resolve_set(name: &str) -> Option<Vec<Pattern>> {
    match SETS.iter().find(|s| s.name == name) {
        Some(s) => Some(s.tables.to_vec()),
        None => Pattern::from_name(name).map(|p| vec![p]),
    }
}

/// The tables of `patterns` for a search in `metric`: a half-turn table's twin in that metric
/// where the registry declares one ([`Pattern::in_metric`]), else the table itself; in order
/// and without repeats.
///
/// Why a half-turn table stays admissible in the quarter-turn metric: every quarter-turn
/// sequence is a half-turn sequence no longer than it, so a half-turn distance never exceeds
/// the quarter-turn distance. The converse fails (`R2` is 1 against 2), so a quarter-turn
/// table named for a half-turn search is refused ([`SetError::Metric`]). In the slice-turn and
/// axial metrics a half-turn table may exceed the distance (`R L'` is one move there, two
/// face turns: [`Metric::bounded_by_htm`]), so each table must have its twin in that metric,
/// or the set is refused.
pub fn in_metric(patterns: &[Pattern], metric: Metric) -> Result<Vec<Pattern>, SetError> {
    let mut out = Vec::new();
    for &p in patterns {
        let q = if p.metric() == metric {
            p
        } else if let (Metric::Htm, Some(q)) = (
            p.metric(),
            (p.in_metric(metric)).or_else(|| metric.bounded_by_htm().then_some(p)),
        ) {
            q
        } else {
            return Err(SetError::Metric {
                table: p,
                metric,
                twin: p.in_metric(metric),
            });
        };
        if !out.contains(&q) {
            out.push(q);
        }
    }
    Ok(out)
}

/// The patterns of set or table names, in order and without repeats; each name may itself be
/// a comma-separated list (`korf,edges6a`). The one place names become tables: the commands
/// pass what the user typed.
pub fn resolve_names<S: AsRef<str>>(names: &[S]) -> Result<Vec<Pattern>, SetError> {
    let mut out = Vec::new();
    for name in names.iter().flat_map(|n| n.as_ref().split(',')) {
        let name = name.trim();
        let patterns = resolve_set(name).ok_or_else(|| SetError::UnknownSet {
            name: name.to_string(),
            known: set_names(),
        })?;
        for p in patterns {
            if !out.contains(&p) {
                out.push(p);
            }
        }
    }
    Ok(out)
}

/// Names accepted by [`resolve_set`], for error messages: the sets, then the patterns.
pub fn set_names() -> String {
    let sets = SETS.map(|s| s.name);
    let patterns = Pattern::ALL.iter().map(|p| p.name());
    let mut v: Vec<&str> = sets.to_vec();
    v.extend(patterns.filter(|n| !sets.contains(n)));
    v.join(", ")
}

/// The sets, each with what it holds, then the tables' names: the `--set` help.
pub fn describe_sets() -> String {
    let sets: Vec<String> = SETS
        .iter()
        .map(|s| format!("{} ({})", s.name, s.help))
        .collect();
    let tables: Vec<&str> = Pattern::ALL.iter().map(|p| p.name()).collect();
    format!(
        "{}; each coset set with its fallbacks (sym48, sym48e1: {}, 4.0 MB; sym48e2, sym48e3: {}, \
         3.1 MB; from sym48e4: {}, 86 MB); or table names separated by commas ({})",
        sets.join(", "),
        SMALL_FALLBACKS.map(|p| p.name()).join(", "),
        SMALL_FALLBACKS_PERM.map(|p| p.name()).join(", "),
        FALLBACKS.map(|p| p.name()).join(", "),
        tables.join(", ")
    )
}

/// The sets `solve` may pick, fastest first ([`SetSpec::solve_rank`]).
fn ranked() -> Vec<&'static SetSpec> {
    let mut ranked: Vec<_> = SETS.iter().collect();
    ranked.sort_by_key(|s| s.solve_rank);
    ranked
}

/// The sets `solve` prefers when none is named, fastest first ([`SetSpec::solve_rank`]).
pub fn solve_preference() -> Vec<&'static str> {
    ranked().into_iter().map(|s| s.name).collect()
}

/// The memory, in bytes, that the tables of `set` hold while it solves: every table's payload,
/// the fallbacks included (`solve` reports the same figure as "in memory").
pub fn resident_bytes(set: &str) -> u64 {
    (resolve_set(set).expect("a known set").iter())
        .map(|&p| TableKind::from(p).payload_bytes())
        .sum()
}

/// Does `set` fit in `available` bytes (unknown: yes)? Its tables, fallbacks included, and,
/// for a build, the builder's peak.
fn fits(set: &str, available: Option<u64>, build: bool) -> bool {
    let need = if build {
        build_memory(set).max(resident_bytes(set))
    } else {
        resident_bytes(set)
    };
    available.is_none_or(|a| need <= a)
}

/// The first set of [`solve_preference`] whose table files are all present in `dir` (not yet
/// checked: loading checks them) and whose tables fit in `available` bytes ([`resident_bytes`];
/// `None`: unknown, any), if any.
pub fn strongest_present(dir: &Path, available: Option<u64>) -> Option<&'static str> {
    (solve_preference().into_iter()).find(|s| is_present(dir, s) && fits(s, available, false))
}

/// Are the table files of the known set `set` in `dir` (not yet checked: loading checks
/// them)? A coset set counts as present with its coset table alone: its fallbacks take seconds
/// to build, and loading builds what is missing.
pub fn is_present(dir: &Path, set: &str) -> bool {
    let patterns = resolve_set(set).expect("a known set");
    let coset = patterns[0].coset_holds_half_turns();
    let needed = if coset { &patterns[..1] } else { &patterns[..] };
    needed
        .iter()
        .all(|p| file::is_present(&table_path(dir, p.name())).unwrap_or(false))
}

/// The sets a first use may build, fastest first, with the seconds each build takes
/// ([`SetSpec::first_build_secs`]).
fn first_build() -> Vec<(&'static str, u64)> {
    (ranked().into_iter())
        .filter_map(|s| Some((s.name, s.first_build_secs?)))
        .collect()
}

/// The memory, in bytes, that building the tables of `set` needs at its peak (one table in
/// memory at a time, plus a margin).
pub fn build_memory(set: &str) -> u64 {
    let patterns = resolve_set(set).expect("a known set");
    patterns.iter().map(|p| p.build_bytes()).max().unwrap_or(0) + (256 << 20)
}

/// The table set used when none is named, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Choice {
    pub set: &'static str,
    /// The set's tables are all in the directory (else the first use builds them).
    pub present: bool,
    /// One sentence: why this set (for stderr and `--json`).
    pub reason: String,
}

/// The set's table names, trimmed (they name studies and output files), and why it was chosen:
/// `asked` (names joined by commas) as given, else [`choose`]'s for `dir` and the memory
/// available now, with its reason.
pub fn asked_or_chosen(asked: Option<&str>, dir: &Path) -> (Vec<String>, Option<String>) {
    let (set, reason) = match asked {
        Some(s) => (s.to_string(), None),
        None => {
            let c = choose(dir, crate::sys::available_memory());
            (c.set.to_string(), Some(c.reason))
        }
    };
    let names = set.split(',').map(|n| n.trim().to_string()).collect();
    (names, reason)
}

/// The set `solve`, `pdb build` and the studies use when none is named: the fastest set whose
/// tables are in `dir` and fit in the memory available now (`available`, bytes; `None` where
/// unknown counts as plenty; a set's whole memory, fallbacks included, [`resident_bytes`]),
/// else the fastest in `dir` at all (tables there are never passed over for a build); with
/// none there, the fastest whose build and tables fit, said with the expected build time.
pub fn choose(dir: &Path, available: Option<u64>) -> Choice {
    let fitting = strongest_present(dir, available);
    if let Some(set) = fitting.or_else(|| strongest_present(dir, None)) {
        return Choice {
            set,
            present: true,
            reason: match (fitting, available) {
                (None, Some(a)) => format!(
                    "the fastest set whose tables are in {}, though its {:.1} GB exceed the \
                     {:.1} GB of memory available",
                    dir.display(),
                    resident_bytes(set) as f64 / 1e9,
                    a as f64 / 1e9
                ),
                _ => format!("the fastest set whose tables are in {}", dir.display()),
            },
        };
    }
    let candidates = first_build();
    let (set, secs) = (candidates.iter().copied())
        .find(|&(s, _)| fits(s, available, true))
        .unwrap_or(candidates[candidates.len() - 1]);
    let gb = |b: u64| b as f64 / 1e9;
    let memory = match available {
        Some(a) => format!("{:.1} GB of memory available", gb(a)),
        None => "the memory available unknown".into(),
    };
    let bytes = resident_bytes(set);
    Choice {
        set,
        present: false,
        reason: format!(
            "no tables in {} yet; the fastest set that can be built here ({memory}, {set} \
             needs {:.1} GB to build): {:.1} GB of files, built once, about {} min on 2 cores",
            dir.display(),
            gb(build_memory(set)),
            gb(bytes),
            secs.div_ceil(60)
        ),
    }
}

/// Errors of set building and loading.
#[derive(Debug, thiserror::Error)]
pub enum SetError {
    #[error("unknown table set {name:?}; known: {known}")]
    UnknownSet { name: String, known: String },
    #[error(transparent)]
    Table(#[from] TableError),
    #[error(
        "{pattern} cannot be built by {method}: it is read off a breadth-first search over 16-symmetry classes (use --method bfs)"
    )]
    Method {
        pattern: Pattern,
        method: &'static str,
    },
    #[error(
        "table {table} holds {} distances, which may exceed those of the {metric} metric: it \
         cannot serve a search in {metric}{}",
        table.metric(),
        twin.map_or(String::new(), |t| format!(
            "; its {metric} twin is {t} (`optcube pdb build --set {t}`)"
        ))
    )]
    Metric {
        table: Pattern,
        metric: Metric,
        twin: Option<Pattern>,
    },
    #[error("not enough memory to build {what}: needs {need_mb} MB, {have_mb} MB available")]
    Memory {
        what: String,
        need_mb: u64,
        have_mb: u64,
    },
    #[error("not enough disk space in {dir}: the tables need {need_mb} MB, {have_mb} MB free")]
    Disk {
        dir: PathBuf,
        need_mb: u64,
        have_mb: u64,
    },
    #[error("cannot write tables into {dir}: {source} (choose another with --pdb-dir)")]
    Unwritable {
        dir: PathBuf,
        source: std::io::Error,
    },
    #[error("cannot create table directory {dir}: {source}")]
    Dir {
        dir: PathBuf,
        source: std::io::Error,
    },
}

/// What happened to one table in [`build_missing`].
#[derive(Debug)]
pub struct BuildReport {
    pub pattern: Pattern,
    pub path: PathBuf,
    /// `None` when a valid file was already there.
    pub seconds: Option<f64>,
    pub info: TableInfo,
    /// Why the file that was there could not be used, when it was replaced.
    pub replaced: Option<String>,
}

/// Builds every table of `patterns` that is missing or invalid in `dir` (valid ones are kept;
/// the reports say which were replaced and why). Checks memory and disk first. Uses the
/// current rayon pool. A long build writes a checkpoint every `every` (`None`: none) and
/// resumes from the one an interrupted build left ([`crate::pdb::checkpoint`]).
pub fn build_missing(
    dir: &Path,
    patterns: &[Pattern],
    method: Method,
    force: bool,
    mode: ProgressMode,
    every: Option<Duration>,
) -> Result<Vec<BuildReport>, SetError> {
    create_dir(dir)?;
    let mut reports = Vec::new();
    // Sorts `patterns` into valid files (reported as kept) and the tables to build, with why
    // each invalid file is replaced.
    let mut sort = |patterns: &[Pattern]| -> Result<_, SetError> {
        let (mut todo, mut invalid) = (Vec::new(), Vec::new());
        for &p in patterns {
            let path = table_path(dir, p.name());
            if force || !file::is_present(&path)? {
                todo.push(p);
                continue;
            }
            match file::load(&path, p) {
                Ok((_, info)) => reports.push(BuildReport {
                    pattern: p,
                    path,
                    seconds: None,
                    info,
                    replaced: None,
                }),
                Err(e) => {
                    invalid.push((p, e.to_string()));
                    todo.push(p);
                }
            }
        }
        Ok((todo, invalid))
    };
    let (mut todo, mut invalid) = sort(patterns)?;
    // One process builds, others wait for the lock and then find the tables there. It is
    // taken only when something is to be built, so a set that is present never waits on
    // another set's build.
    let _lock = (!todo.is_empty()).then(|| {
        let names: Vec<&str> = todo.iter().map(|p| p.name()).collect();
        file::build_lock(dir, &names.join(", "))
    });
    if !todo.is_empty() && !force {
        (todo, invalid) = sort(&todo)?;
    }
    let mut built = build(dir, &todo, method, mode, every)?;
    for r in built.iter_mut() {
        r.replaced = invalid
            .iter()
            .find(|(p, _)| *p == r.pattern)
            .map(|(_, e)| e.clone());
    }
    reports.extend(built);
    Ok(reports)
}

fn create_dir(dir: &Path) -> Result<(), SetError> {
    std::fs::create_dir_all(dir).map_err(|source| SetError::Dir {
        dir: dir.into(),
        source,
    })
}

/// Builds and saves the tables of `todo` in `dir`, one in memory at a time, after checking
/// that the largest fits in memory and all of them on disk. Uses the current rayon pool. A
/// checkpointed build ([`Pattern::checkpointed`]) resumes from the checkpoint in `dir` and
/// writes one every `every`.
fn build(
    dir: &Path,
    todo: &[Pattern],
    method: Method,
    mode: ProgressMode,
    every: Option<Duration>,
) -> Result<Vec<BuildReport>, SetError> {
    if todo.is_empty() {
        return Ok(Vec::new());
    }
    // One table is in memory at a time while building; the disk needs all of them.
    if method == Method::Iddfs
        && let Some(&p) = todo.iter().find(|p| !p.built_over_own_index())
    {
        return Err(SetError::Method {
            pattern: p,
            method: method.name(),
        });
    }
    // Before a build of minutes, not after it.
    crate::sys::files::check_writable(dir).map_err(|source| SetError::Unwritable {
        dir: dir.into(),
        source,
    })?;
    let biggest = todo.iter().max_by_key(|p| p.build_bytes()).copied();
    let total: u64 = todo
        .iter()
        .map(|p| bytes_for(p.entries()) as u64 + 4096)
        .sum();
    // Named by the table that needs the most, which is the one that does not fit.
    if let (Some(have), Some(p)) = (available_memory(), biggest)
        && p.build_bytes() + (64 << 20) > have
    {
        return Err(SetError::Memory {
            what: match todo.len() {
                1 => format!("table {}", p.name()),
                n => format!("table {} (the largest of the {n} to build)", p.name()),
            },
            need_mb: (p.build_bytes() >> 20) + 64,
            have_mb: have >> 20,
        });
    }
    if let Some(have) = free_disk(dir)
        && total > have
    {
        {
            return Err(SetError::Disk {
                dir: dir.into(),
                need_mb: total >> 20,
                have_mb: have >> 20,
            });
        }
    }
    let mut reports = Vec::new();
    for &p in todo {
        let path = table_path(dir, p.name());
        let mut checkpoint = match p.checkpointed() {
            true => Checkpoint::open(&path, p, every)?,
            false => Checkpoint::none(),
        };
        let progress = Progress::new(mode, p.name(), p.build_entries(), "entries");
        let start = Instant::now();
        let table = generate(p, method, &progress, &mut checkpoint);
        let build_secs = start.elapsed().as_secs_f64();
        let info = file::save(&path, p, &table, method.name())?;
        Checkpoint::remove(&path).map_err(|source| TableError::Io {
            path: Checkpoint::path_of(&path),
            source,
        })?;
        progress.finish(&format!(
            "{} entries, max depth {}, mean {:.3}, built in {:.1} s ({}, {} threads), saved to {}",
            p.entries(),
            info.histogram.len() - 1,
            info.mean,
            build_secs,
            method.name(),
            rayon::current_num_threads(),
            path.display()
        ));
        reports.push(BuildReport {
            pattern: p,
            path,
            seconds: Some(build_secs),
            info,
            replaced: None,
        });
    }
    Ok(reports)
}

/// The tables of `patterns` from `dir`, in that order, for the search: each valid file is read
/// into huge-page memory and checked once; a missing one is built (BFS), saved, and then read
/// the same way. An invalid one is an error naming the file, what is wrong and the command
/// that rebuilds it ([`file::open_or_build`]): never replaced behind the caller's back.
pub fn open_or_build(
    dir: &Path,
    patterns: &[Pattern],
    mode: ProgressMode,
) -> Result<Vec<(Pattern, NibbleTable)>, SetError> {
    create_dir(dir)?;
    let kinds: Vec<TableKind> = patterns.iter().map(|&p| p.into()).collect();
    let load = |path: &Path, p: Pattern| file::load_in_memory(path, p).map(|(t, _)| (p, t));
    file::open_or_build(
        dir,
        &kinds,
        |path, kind| {
            let p = patterns.iter().find(|p| p.name() == kind.name);
            load(path, *p.expect("a kind of one of the patterns"))
        },
        |missing| {
            let todo: Vec<Pattern> = missing.iter().map(|&i| patterns[i]).collect();
            let reports = build(dir, &todo, Method::Bfs, mode, Some(DEFAULT_EVERY))?;
            reports
                .iter()
                .map(|r| Ok(load(&r.path, r.pattern)?))
                .collect()
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_strongest_present_set() {
        let dir = std::env::temp_dir().join(format!("optcube-strongest-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        assert_eq!(strongest_present(&dir, None), None);
        // Nothing built: the fastest set whose build fits the memory.
        let gb = 1u64 << 30;
        let c = choose(&dir, Some(24 * gb));
        assert_eq!((c.set, c.present), ("sym48e6", false));
        assert!(
            c.reason.contains("no tables") && c.reason.contains("min"),
            "{}",
            c.reason
        );
        assert_eq!(choose(&dir, None).set, "sym48e6");
        assert_eq!(choose(&dir, Some(5 * gb)).set, "sym48e4");
        assert_eq!(choose(&dir, Some(3 * gb)).set, "huge");
        assert_eq!(choose(&dir, Some(gb)).set, "sym48");
        assert_eq!(
            choose(&dir, Some(1 << 20)).set,
            "sym48",
            "the smallest at worst"
        );
        for (set, _) in first_build() {
            assert!(resolve_set(set).is_some(), "{set}");
        }
        // Any complete set counts, the weakest too: korf6 alone is used, not passed over for
        // a first-use build.
        for t in ["corners", "edges6a", "edges6b"] {
            std::fs::write(table_path(&dir, t), b"x").unwrap();
        }
        assert_eq!(strongest_present(&dir, None), Some("korf6"));
        assert_eq!(
            choose(&dir, Some(24 * gb)),
            Choice {
                set: "korf6",
                present: true,
                reason: format!("the fastest set whose tables are in {}", dir.display()),
            }
        );
        for t in ["corners", "edges6a", "edges6b"] {
            std::fs::remove_file(table_path(&dir, t)).unwrap();
        }
        std::fs::write(table_path(&dir, "sym48e0"), b"x").unwrap();
        assert_eq!(strongest_present(&dir, None), Some("sym48"));
        std::fs::write(table_path(&dir, "phase1sorted"), b"x").unwrap();
        assert_eq!(
            strongest_present(&dir, None),
            Some("sym48"),
            "huge needs corners too"
        );
        std::fs::write(table_path(&dir, "corners"), b"x").unwrap();
        assert_eq!(strongest_present(&dir, None), Some("huge"));
        std::fs::write(table_path(&dir, "sym48e4"), b"x").unwrap();
        assert_eq!(strongest_present(&dir, None), Some("sym48e4"));
        std::fs::write(table_path(&dir, "sym48e6"), b"x").unwrap();
        assert_eq!(strongest_present(&dir, None), Some("sym48e6"));
        // Present tables win over the memory: with none that fits, the fastest present.
        let c = choose(&dir, Some(1 << 20));
        assert_eq!((c.set, c.present), ("sym48e6", true));
        assert!(c.reason.contains("exceed"), "{}", c.reason);
        // The larger coset tables are never built for a first use, but go first when there
        // and they fit: the chooser counts a set's whole memory, fallbacks included.
        assert!(first_build().iter().all(|(s, _)| !s.starts_with("sym48e7")));
        std::fs::write(table_path(&dir, "sym48e7"), b"x").unwrap();
        assert_eq!(strongest_present(&dir, None), Some("sym48e7"));
        let e7 = TableKind::from(Pattern::SYM48E7).payload_bytes();
        assert_eq!(resident_bytes("sym48e7") - e7, 86_667_840, "the fallbacks");
        let c = choose(&dir, Some(3 * gb));
        assert_eq!((c.set, c.present), ("sym48e6", true));
        assert_eq!(choose(&dir, Some(4 * gb)).set, "sym48e7");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// The registry of sets is consistent: names and ranks unique, a coset set's tables its
    /// coset table and the fallbacks, every set known by name and in the list of names.
    #[test]
    fn sets_are_declared_once_and_consistently() {
        let names: Vec<_> = SETS.iter().map(|s| s.name).collect();
        let mut ranks: Vec<_> = SETS.iter().map(|s| s.solve_rank).collect();
        ranks.sort();
        ranks.dedup();
        assert_eq!(ranks.len(), SETS.len(), "every set is ranked, once");
        assert_eq!(solve_preference().len(), SETS.len());
        for s in &SETS {
            assert_eq!(
                names.iter().filter(|&&n| n == s.name).count(),
                1,
                "{}",
                s.name
            );
            assert_eq!(resolve_set(s.name).unwrap(), s.tables.to_vec());
            assert!(set_names().split(", ").any(|n| n == s.name));
            if s.tables[0].coset_holds_half_turns() {
                assert!(
                    s.tables[1..] == FALLBACKS
                        || s.tables[1..] == SMALL_FALLBACKS
                        || s.tables[1..] == SMALL_FALLBACKS_PERM,
                    "{}",
                    s.name
                );
            }
        }
        assert_eq!(solve_preference()[0], "sym48e9");
        assert_eq!(
            first_build().iter().map(|&(s, _)| s).collect::<Vec<_>>(),
            ["sym48e6", "sym48e4", "huge", "sym48"]
        );
    }

    /// A set in the quarter-turn metric reads each table's quarter-turn twin where one is
    /// declared and the half-turn table otherwise; a quarter-turn table is refused for a
    /// half-turn search, with its twin named; every twin has its base's index and size.
    #[test]
    fn sets_in_the_quarter_turn_metric() {
        let e6 = resolve_set("sym48e6").unwrap();
        let names = |v: Vec<Pattern>| v.iter().map(|p| p.name()).collect::<Vec<_>>();
        assert_eq!(
            names(in_metric(&e6, Metric::Qtm).unwrap()),
            ["sym48e6-qtm", "corners-qtm", "edges6a-qtm", "edges6b-qtm"]
        );
        assert_eq!(in_metric(&e6, Metric::Htm).unwrap(), e6);
        let e8 = in_metric(&resolve_set("sym48e8").unwrap(), Metric::Qtm).unwrap();
        assert_eq!(names(e8)[0], "sym48e8-qtm");
        // A coset table without a twin is read as it is (admissible).
        let e4 = in_metric(&resolve_set("sym48e4").unwrap(), Metric::Qtm).unwrap();
        assert_eq!(names(e4)[0], "sym48e4");
        let korf = in_metric(&resolve_set("korf").unwrap(), Metric::Qtm).unwrap();
        assert!(korf.iter().all(|p| p.metric() == Metric::Qtm));
        let e = in_metric(&[Pattern::CORNERS_QTM], Metric::Htm).unwrap_err();
        assert!(matches!(e, SetError::Metric { .. }));
        let text = e.to_string();
        assert!(text.contains("corners-qtm holds qtm distances"), "{text}");
        assert!(text.contains("`optcube pdb build --set corners`"), "{text}");
        for p in Pattern::ALL
            .into_iter()
            .filter(|p| p.metric() == Metric::Qtm)
        {
            let base = p.in_metric(Metric::Htm).expect("a half-turn base");
            assert_eq!(base.in_metric(Metric::Qtm), Some(p));
            assert_eq!(p.name(), format!("{}-qtm", base.name()));
            assert_eq!(
                (p.entries(), p.version(), p.stored_in_lines()),
                (base.entries(), base.version(), base.stored_in_lines())
            );
        }
    }

    #[test]
    fn names_resolve_in_order_without_repeats() {
        let korf = resolve_names(&["korf"]).unwrap();
        assert_eq!(korf, resolve_set("korf").unwrap());
        assert_eq!(
            resolve_names(&["korf6, corners", "edges7a"]).unwrap(),
            vec![
                Pattern::CORNERS,
                Pattern::EDGES6A,
                Pattern::EDGES6B,
                Pattern::EDGES7A
            ]
        );
        let e = resolve_names(&["korf", "korf7"]).unwrap_err().to_string();
        assert!(
            e.starts_with("unknown table set \"korf7\"; known: korf, korf6, huge, sym48"),
            "{e}"
        );
    }
}

/// What `pdb info` says of one table file: its identity, its header (when readable) and
/// whether it passed every check.
#[derive(Clone, Debug)]
pub struct TableReport {
    /// What the file must hold (a pattern's kind, or a solver table's).
    pub kind: TableKind,
    pub path: PathBuf,
    /// The header, if it could be read even when the table is invalid.
    pub info: Option<TableInfo>,
    /// Why the file is invalid (it names the file), or none when it is valid.
    pub error: Option<String>,
}

impl TableReport {
    /// The report as one JSON object (`pdb info --json`'s line).
    pub fn to_json(&self) -> serde_json::Value {
        let info = self.info.as_ref();
        serde_json::json!({
            "name": self.kind.name,
            "file": self.path.display().to_string(),
            "entries": self.kind.entries,
            "metric": self.kind.metric,
            "bytes": info.map(|i| i.payload_bytes),
            "bits_per_entry": info.map(|i| i.bits_per_entry),
            "line_base": info.and_then(|i| i.line_base),
            "pieces": self.kind.pieces,
            "histogram": info.map(|i| i.histogram.clone()),
            "mean": info.map(|i| i.mean),
            "checksum": info.map(|i| i.checksum.clone()),
            "generator": info.map(|i| i.generator.clone()),
            "valid": self.error.is_none(),
            "error": self.error,
        })
    }
}

/// Every pattern-database file present in `dir`, each read and checked (header, size,
/// checksum). The solvers' tables are added by `crate::solvers::inspect`.
pub fn inspect(dir: &Path) -> Vec<TableReport> {
    Pattern::ALL
        .into_iter()
        .filter(|&p| file::is_present(&table_path(dir, p.name())).unwrap_or(false))
        .map(|pattern| {
            let path = table_path(dir, pattern.name());
            let (info, error) = match file::load(&path, pattern) {
                Ok((_, info)) => (Some(info), None),
                Err(e) => (file::read_info(&path, pattern).ok(), Some(e.to_string())),
            };
            TableReport {
                kind: pattern.into(),
                path,
                info,
                error,
            }
        })
        .collect()
}

/// The report of the table file of `kind` in `dir`, read and checked (header, size, checksum),
/// or `None` when there is no such file.
pub fn inspect_kind(dir: &Path, kind: &TableKind) -> Option<TableReport> {
    let path = table_path(dir, &kind.name);
    if !file::is_present(&path).unwrap_or(false) {
        return None;
    }
    let (info, error) = match file::load_vec(&path, kind) {
        Ok((_, info)) => (Some(info), None),
        Err(e) => (
            file::read_info(&path, kind.clone()).ok(),
            Some(e.to_string()),
        ),
    };
    Some(TableReport {
        kind: kind.clone(),
        path,
        info,
        error,
    })
}
