//! `optcube solve`: one position (scramble or `--facelets`) or a batch (`--file`), text or JSON
//! Lines out, with search figures and a batch summary. Each solver turns a position into an
//! [`outcome::Outcome`]; one loop checks, records and prints them.

pub(super) mod goal;
mod model;
pub(super) mod outcome;

use super::{Failure, TableArgs};
use model::Model;
use optcube::cube::{
    Cube, Metric, Move, format_moves, looks_like_facelets, parse_moves, parse_position,
};
use optcube::pdb::ru::RuTable;
use optcube::progress::ProgressMode;
use optcube::search::subset::MoveSet;
use optcube::search::{IterationEvent, SearchOptions};
use optcube::solvers::optimal::{OptimalConfig, OptimalSolver, TwoPhaseWitness, upper_bound};
use optcube::solvers::outcome::Outcome;
use optcube::solvers::request::{Front, Refusal, Solutions, SolveJob, Tuning};
pub use optcube::solvers::request::{SetLabel, SolverKind};
use optcube::solvers::twophase::TwoPhase;
use optcube::stats::BatchSummary;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;

#[derive(clap::Args)]
pub struct SolveArgs {
    /// The scramble, e.g. "R U2 F'" (quote it).
    #[arg(conflicts_with_all = ["facelets", "file"])]
    pub(super) scramble: Option<String>,
    /// The position as a 54-character facelet string.
    #[arg(long, value_name = "STR", conflicts_with = "file")]
    pub(super) facelets: Option<String>,
    /// Solve every position of a file: one scramble or facelet string a line; `#` comments and
    /// blank lines are skipped.
    #[arg(long, value_name = "PATH")]
    pub(super) file: Option<PathBuf>,
    /// One JSON object per position, one line each.
    #[arg(long)]
    pub(super) json: bool,
    /// Which solver.
    #[arg(long, value_enum, default_value = "optimal")]
    pub(super) solver: SolverKind,
    /// Also look up the inverse position in every table (dual heuristic).
    #[arg(long)]
    pub(super) dual: bool,
    /// Also look up each partial edge table (edges7a/b, edges6a/b) on the position turned by
    /// 120° and 240° about the URF–DBL diagonal: more lookups per node, far fewer nodes.
    #[arg(long)]
    pub(super) sym: bool,
    /// Stop once no solution of at most N moves (in the metric) exists, reporting the proven
    /// lower bound [default: God's number of the metric, 20 or 26].
    #[arg(long, value_name = "N")]
    pub(super) max_depth: Option<u8>,
    /// The metric lengths are counted in: htm (every face turn 1) or qtm (quarter turns 1, half
    /// turns 2; the optimal solver reads the set's quarter-turn tables, NAME-qtm, built on first
    /// use, and its half-turn tables where it has none; the two-phase solver bounds its searches
    /// in quarter turns; not the Thistlethwaite solver).
    #[arg(long, value_name = "METRIC", default_value = "htm", value_parser = super::parse_metric)]
    pub(super) metric: Metric,
    /// Two-phase solver: stop at the first solution of at most L (in the metric) [default: the
    /// metric's diameter, 20 or 26].
    #[arg(long, value_name = "L")]
    pub(super) max_length: Option<usize>,
    /// Two-phase solver: time limit per position in seconds (the best solution so far is kept).
    #[arg(long, value_name = "T", default_value_t = 10.0)]
    pub(super) timeout: f64,
    /// Optimal solver: skip the quick two-phase upper bound printed before the proof, and the
    /// two-phase witnesses between iterations (a solution of the proven lower bound's length
    /// ends the proof without its last iteration; `docs/search.md`). The same lengths.
    #[arg(long)]
    pub(super) no_upper_bound: bool,
    /// Optimal solver: do not derive the corner successor table from the corner table (353 MB
    /// of memory, a few seconds at start): less memory, a slower search, the same results.
    #[arg(long)]
    pub(super) no_successors: bool,
    /// Optimal solver with the sym48 set: extend each node on the side (position or inverse)
    /// that reads the larger value, NISS-style. The same results; measured to save no nodes,
    /// so off by default.
    #[arg(long)]
    pub(super) switch_sides: bool,
    /// Optimal solver: search every work unit even when the position's own symmetries make
    /// some of them conjugates of others (by default one of each such set is searched, and on
    /// the superflip one rotation of each solution: the same results, fewer nodes on
    /// symmetric positions).
    #[arg(long)]
    pub(super) no_symmetric_units: bool,
    /// Optimal solver: search each iteration's work units in the order of their heuristic
    /// values only (by default, units that took the most nodes in the previous iteration go
    /// first: the same results, the last iteration usually ends sooner).
    #[arg(long)]
    pub(super) no_node_order: bool,
    /// Optimal solver: split each iteration's tree into work units at this depth (0–6). The
    /// same results; deeper units are ordered more finely by the previous iteration's node
    /// counts, so the last iteration tends to end sooner, but each costs bookkeeping.
    #[arg(long, value_name = "D", default_value_t = SearchOptions::default().split_depth,
          value_parser = clap::value_parser!(u8).range(0..=6))]
    pub(super) split_depth: u8,
    /// Optimal solver with a coset set (`sym48*`): read the fallback tables (the set's other
    /// tables: corners, edges6a, edges6b; to sym48e3 edges5a, edges5b and corners48 or cornerperm) for a node
    /// only when its coset value is at least N below its budget. The same
    /// results; 0 reads them for every node the coset table leaves, a large N never.
    #[arg(long, value_name = "N", default_value_t = SearchOptions::default().fallback_slack)]
    pub(super) fallback_slack: u8,
    /// Optimal solver: a lower bound known by other means; the iterations below N are not run.
    /// Trusted, not checked: the answer is optimal only if no solution is shorter than N, e.g.
    /// for the positions `coset --unset` writes (each farther than the run's last exact depth,
    /// which the run says). JSON: `known_lower_bound`.
    #[arg(long, value_name = "N")]
    pub(super) known_lower_bound: Option<u8>,
    /// Optimal solver: every optimal solution, not only the first (the last iteration is
    /// searched to its end). Canonical sequences: no face twice in a row, and two turns of
    /// opposite faces in one order only (`U D`, never `D U`), so no solution is listed twice;
    /// sorted, the same list on any number of threads.
    #[arg(long, conflicts_with_all = ["solutions", "count"])]
    pub(super) all: bool,
    /// Optimal solver: the first N optimal solutions in the search's order of work units (the
    /// same N on any number of threads), sorted; fewer when fewer exist.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub(super) solutions: Option<u64>,
    /// Optimal solver: only the number of optimal solutions (as --all, without the list).
    #[arg(long, conflicts_with = "solutions")]
    pub(super) count: bool,
    /// With --all or --count: also group the optimal solutions into classes under the
    /// position's own symmetries (S P S⁻¹ = P maps a solution M to S M S⁻¹; S P S⁻¹ = P⁻¹ to
    /// S M⁻¹ S⁻¹) and list the least of each class (JSON: `symmetry_classes`).
    #[arg(long, value_enum, value_name = "WHAT")]
    pub(super) unique: Option<Unique>,
    /// Optimal solver: solve with these turns only, optimally among the sequences they make:
    /// faces ("R U": each with its three turns) and single turns ("U D R L F2 B2"). Two
    /// adjacent faces ("R U", "U F", ...) read the exact <R,U> table (73 MB, built in seconds
    /// on first use); other sets are searched with the table set. A position
    /// they cannot reach is refused where an exact test shows it; otherwise the search stops
    /// at --max-depth. Works with --all, --solutions and --count.
    #[arg(long, value_name = "TURNS", conflicts_with_all = ["unique", "predict"])]
    pub(super) moveset: Option<String>,
    /// Solve toward a named goal instead of solved (`optcube goals` lists them): cross,
    /// 2x2x2, eo, dr, oll, ... Works with --all, --solutions, --count, --moveset, --metric,
    /// --file and --json (which names the goal); searched on every thread with the goal's exact
    /// tables, built on first use in the table directory.
    #[arg(long, value_name = "NAME", conflicts_with_all = ["mask", "unique", "predict"])]
    pub(super) goal: Option<String>,
    /// Solve toward a facelet mask: 54 letters in the facelet order, x for a free sticker, a
    /// face letter for a sticker that must show its solved colour (as --goal), a digit 1–9 on
    /// pieces' key stickers for a class of pieces, oriented (`docs/goals.md`; the masks
    /// `optcube goals` prints).
    #[arg(long, value_name = "STR", conflicts_with_all = ["unique", "predict"])]
    pub(super) mask: Option<String>,
    /// With --goal or --mask: accept the goal in any of the 24 whole-cube orientations
    /// (colour neutrality: the cross on any face).
    #[arg(long)]
    pub(super) any_orientation: bool,
    /// Solve toward this position (a scramble or facelets) instead of solved: the shortest
    /// sequences that take each input to it.
    #[arg(long, value_name = "POS", conflicts_with_all = ["goal", "mask"])]
    pub(super) target: Option<String>,
    /// Per-iteration node counts.
    #[arg(short, long)]
    pub(super) verbose: bool,
    /// Optimal solver: per iteration, the node count predicted by Korf, Reid & Edelkamp (2001)
    /// next to the measured one (text, and fields in --json).
    #[arg(long)]
    pub(super) predict: bool,
    /// With --predict: random positions sampled for the heuristic distribution (a single table
    /// without --dual uses its exact histogram instead).
    #[arg(long, value_name = "N", default_value_t = 100_000)]
    pub(super) predict_samples: u64,
    #[command(flatten)]
    pub(super) tables: TableArgs,
}

impl SolveArgs {
    /// The request these arguments make: every rule and default is the job's.
    pub(super) fn job(&self) -> SolveJob {
        let solutions = match self.solutions {
            _ if self.all => Solutions::All,
            _ if self.count => Solutions::Count,
            Some(n) => Solutions::First(n),
            None => Solutions::One,
        };
        SolveJob {
            solver: self.solver,
            metric: self.metric,
            max_depth: self.max_depth,
            known_lower_bound: self.known_lower_bound,
            solutions,
            unique: self.unique.is_some(),
            moveset: self.moveset.clone(),
            goal: self.goal.clone(),
            mask: self.mask.clone(),
            any_orientation: self.any_orientation,
            target: self.target.clone(),
            predict: self.predict,
            // The two-phase solver's limit: the optimal solver takes none here.
            timeout: (self.solver == SolverKind::Twophase).then_some(self.timeout),
            max_length: self.max_length,
            threads: self.tables.place.threads,
            set: self.tables.set.clone(),
            tuning: Tuning {
                dual: self.dual,
                sym: self.sym,
                successors: !self.no_successors,
                switch_sides: self.switch_sides,
                symmetric_units: !self.no_symmetric_units,
                node_order: !self.no_node_order,
                split_depth: self.split_depth,
                fallback_slack: self.fallback_slack,
            },
        }
    }

    /// `--max-depth`, or the metric's diameter.
    fn max_depth(&self) -> u8 {
        self.job().max_depth()
    }
}

/// What `--unique` identifies solutions by.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Unique {
    /// The position's own symmetries, and symmetry times inversion.
    Symmetry,
}

/// Set by Ctrl-C once the optimal search has begun: searches stop cleanly and report what they
/// proved.
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// Positions to solve, (input text, position), and where each came from.
type Inputs = (Vec<(String, Cube)>, Vec<String>);

/// Reads the positions to solve: (input text, position), and where each came from for
/// messages about it (`FILE:LINE` for `--file`, else the input text), so that a line refused
/// later (a goal's precondition) is named as a bad line of the file is.
fn positions(args: &SolveArgs) -> Result<Inputs, Failure> {
    let one = |text: &str, c: Cube| (vec![(text.to_string(), c)], vec![text.to_string()]);
    if let Some(f) = &args.facelets {
        let c = Cube::from_facelets(f).map_err(|e| Failure(format!("invalid position: {e}")))?;
        return Ok(one(f.trim(), c));
    }
    if let Some(path) = &args.file {
        // Read as bytes and decoded line by line, so that text which is not UTF-8 is named by
        // its line like any other bad line.
        let bytes = std::fs::read(path)
            .map_err(|e| Failure(format!("cannot read {}: {e}", path.display())))?;
        let (mut out, mut places) = (Vec::new(), Vec::new());
        let mut errors = Vec::new();
        for (n, line) in bytes.split(|&b| b == b'\n').enumerate() {
            let at = format!("{}:{}", path.display(), n + 1);
            let Ok(line) = std::str::from_utf8(line) else {
                errors.push(format!("{at}: not UTF-8 text"));
                continue;
            };
            let t = line.split('#').next().unwrap_or("").trim();
            if t.is_empty() {
                continue;
            }
            match parse_position(t) {
                Ok(c) => {
                    out.push((t.to_string(), c));
                    places.push(at);
                }
                Err(e) => errors.push(format!("{at}: {e}")),
            }
        }
        if !errors.is_empty() {
            return Err(Failure(errors.join("\n")));
        }
        // Said before any table is loaded: an empty batch is almost always the wrong file.
        if out.is_empty() {
            return Err(Failure(format!(
                "{} holds no positions (only blank lines and # comments): one scramble or \
                 facelet string a line",
                path.display()
            )));
        }
        return Ok((out, places));
    }
    let Some(s) = args.scramble.as_deref() else {
        return Err(Failure(
            "no position given: pass a scramble (\"R U2 F'\"), --facelets STR or --file PATH"
                .into(),
        ));
    };
    if s.trim().is_empty() {
        return Err(Failure(optcube::cube::InputError::Empty.to_string()));
    }
    // A facelet string given as the scramble is read as facelets, as in `--file` (read as
    // moves it would be a different position); said once on stderr.
    if looks_like_facelets(s) {
        let c = Cube::from_facelets(s.trim())
            .map_err(|e| Failure(format!("invalid position (read as facelets): {e}")))?;
        eprintln!("reading the argument as a facelet string (as --facelets would)");
        return Ok(one(s.trim(), c));
    }
    let c = Cube::from_moves(&parse_moves(s)?);
    Ok(one(s.trim(), c))
}

/// A request's arguments, checked before any table is opened: the goal asked for (with the
/// flag text that named it) and the positions.
pub(super) struct CheckedRequest {
    pub goal: Option<(optcube::coord::goal::GoalCheck, String)>,
    pub inputs: Vec<(String, Cube)>,
}

/// Every check of `solve`'s arguments that needs no table: the job's
/// ([`SolveJob::check`]), the positions, and each against the goal and the move set
/// ([`optcube::solvers::request::Admitted::admit`]). `optcube serve` checks its requests with
/// the same function.
pub(super) fn check(args: &SolveArgs) -> Result<CheckedRequest, Failure> {
    let admitted = args.job().check().map_err(refused)?;
    if let (Some(_), Some(g)) = (&args.mask, &admitted.goal) {
        goal::say_mask(&g.check.goal);
    }
    let (mut inputs, places) = positions(args)?;
    admitted.admit(&mut inputs, &places).map_err(refused)?;
    let goal = admitted.goal.map(|g| (g.check, g.origin));
    Ok(CheckedRequest { goal, inputs })
}

/// A refusal of the request layer in the command line's words.
pub(super) fn refused(r: Refusal) -> Failure {
    Failure(r.message(Front::Cli))
}

pub fn run(args: SolveArgs) -> Result<i32, Failure> {
    let CheckedRequest { goal, inputs } = check(&args)?;
    if let Some((check, origin)) = goal {
        return args
            .tables
            .place
            .pooled(|| goal::run(&args, &inputs, check, &origin));
    }
    match args.solver {
        SolverKind::Optimal => args.tables.place.pooled(|| run_optimal(&args, &inputs)),
        SolverKind::Thistlethwaite => run_thistlethwaite(&args, &inputs),
        SolverKind::Twophase => run_twophase(&args, &inputs),
    }
}

fn run_optimal(args: &SolveArgs, inputs: &[(String, Cube)]) -> Result<i32, Failure> {
    if let Some(text) = &args.moveset {
        let set = MoveSet::parse(text).map_err(Failure)?;
        return run_moveset(args, inputs, &set);
    }
    let dir = args.tables.place.dir();
    let (config, set) = optimal_config(args)?;
    let opts = config.search_options();
    // Refused before any table is read: a bound the search cannot check proves nothing.
    if let (Some(k), Some(why)) = (args.known_lower_bound, opts.known_bound_problem()) {
        return Err(Failure(format!("--known-lower-bound {k}: {why}")));
    }
    let (uppers, twophase) = upper_bounds(args, &dir, inputs, opts.threads)?;
    let solver = OptimalSolver::configured(&dir, &config, ProgressMode::auto())?;
    let h = solver.heuristic();
    let names: Vec<String> = h.tables().iter().map(|(p, _)| p.to_string()).collect();
    eprintln!(
        "tables: {}{}, {} bytes in memory",
        names.join(" "),
        if h.corner_successors().is_some() {
            " + corner successors"
        } else {
            ""
        },
        h.table_bytes()
    );
    let model = args
        .predict
        .then(|| Model::new(&solver, args, opts.dual))
        .transpose()?;
    // Only now does Ctrl-C stop cleanly: before, while the upper bounds are found and the
    // tables loaded or built, it ends the program at once as usual (a table being written
    // leaves at most a stray temporary file).
    let _ = ctrlc::set_handler(|| {
        INTERRUPTED.store(true, std::sync::atomic::Ordering::Relaxed);
    });
    let mut uppers = uppers.into_iter();
    let live = ProgressMode::auto() == ProgressMode::Bar && inputs.len() == 1;
    solve_each(args, inputs, model.as_ref(), Some(&set), |input, cube| {
        let upper = uppers.next().flatten();
        if let (Some((s, secs)), false) = (&upper, args.json) {
            println!("position: {input}");
            println!(
                "upper bound: {} {}, {} (two-phase, {:.3} s)",
                args.metric.length(s),
                args.metric.unit_for(args.metric.length(s)),
                format_moves(s),
                secs
            );
            use std::io::Write;
            let _ = std::io::stdout().flush();
        }
        let start = std::time::Instant::now();
        // On a terminal, each iteration is shown as it runs: a proof can take minutes.
        let mut show = |p: IterationEvent| match p {
            _ if !live => {}
            IterationEvent::Started { bound } => eprint!("  bound {bound:>2}: searching… "),
            IterationEvent::Finished(it) => eprintln!(
                "{} nodes in {:.2} s ({:.1} s in all)",
                short_count(it.nodes),
                it.seconds,
                start.elapsed().as_secs_f64()
            ),
            IterationEvent::Witness {
                bound,
                seconds,
                found,
            } => eprintln!(
                "  bound {bound:>2}: two-phase {} in {seconds:.2} s",
                if found {
                    "found a solution of this length: optimal"
                } else {
                    "found none of this length"
                }
            ),
        };
        let upper = upper.map(|(s, t)| (args.metric.length(&s), t, s));
        prove(
            &solver,
            twophase.as_ref(),
            args,
            &opts,
            input,
            cube,
            upper,
            &INTERRUPTED,
            &mut show,
        )
    })
}

/// One position's optimal proof with a loaded solver, shared by `solve` and `serve`: the
/// two-phase solver (when given) is asked for a witness before each iteration, every
/// iteration's event goes to `events`, and `stop` ends the search with what it proved.
/// `upper`: the two-phase solution found before, as (length, seconds, moves).
#[allow(clippy::too_many_arguments)]
pub(super) fn prove(
    solver: &OptimalSolver,
    twophase: Option<&TwoPhaseWitness>,
    args: &SolveArgs,
    opts: &SearchOptions,
    input: &str,
    cube: &Cube,
    upper: Option<(usize, f64, Vec<Move>)>,
    stop: &AtomicBool,
    events: &mut dyn FnMut(IterationEvent),
) -> Result<Outcome, Failure> {
    // Before each iteration the two-phase solver may end the proof with a solution of the
    // bound's length (`search::witness`); none without it (`--no-upper-bound`).
    let known = upper.as_ref().map(|(_, _, s)| s.clone());
    let r = solver.prove(twophase, cube, opts, known, stop, events);
    let upper = upper.map(|(n, t, _)| (n, t));
    let mut outcome = Outcome::from_search(input, r, upper, opts.solutions);
    if let (Some(Unique::Symmetry), Some(c)) = (args.unique, outcome.collected_mut()) {
        c.to_classes(cube)
            .map_err(|e| Failure(format!("internal error: {input}: {e}")))?;
    }
    Ok(outcome)
}

/// The optimal solver's configuration from the arguments ([`SolveJob::optimal_config`]), and
/// the table set's label (the set chosen and why, said once on stderr when it was chosen for
/// the user).
pub(super) fn optimal_config(args: &SolveArgs) -> Result<(OptimalConfig, SetLabel), Failure> {
    let place = &args.tables.place;
    let (config, set) = args
        .job()
        .optimal_config(&place.dir(), place.thread_count())?;
    super::say_chosen(&set.name, set.reason.as_deref());
    Ok((config, set))
}

/// `solve --moveset` (positions the set cannot reach were refused by [`check`]):
/// two adjacent faces read the exact `<R,U>` table, other sets are searched with the table set
/// (`search::subset`). No two-phase bound: it would use every turn.
fn run_moveset(args: &SolveArgs, inputs: &[(String, Cube)], set: &MoveSet) -> Result<i32, Failure> {
    use optcube::solvers::moveset::{self, Route};
    // The positions the set cannot reach were refused by `check`.
    let dir = args.tables.place.dir();
    let opts = &args.job().subset_options();
    let _ = ctrlc::set_handler(|| {
        INTERRUPTED.store(true, std::sync::atomic::Ordering::Relaxed);
    });
    // Every solution is checked on its position by `solve_each`, and on the set by `moveset`.
    let solve = |input: &str, cube: &Cube, route: Route<'_>| {
        moveset::solve(input, cube, set, route, opts, &INTERRUPTED)
            .map_err(|e| Failure(format!("{input}: {e}")))
    };
    // The exact table holds half-turn distances: another metric searches.
    let exact = (args.metric == Metric::Htm)
        .then(|| optcube::search::subset::exact_table_symmetry(set))
        .flatten();
    if let Some(sym) = exact {
        let table = RuTable::open(&dir, ProgressMode::auto())?;
        eprintln!(
            "tables: {} (exact distances of <R,U>{}), {} bytes in memory",
            optcube::pdb::ru::TABLE_NAME,
            if sym == 0 {
                ""
            } else {
                ", read through a symmetry"
            },
            table.bytes()
        );
        let label = SetLabel {
            name: optcube::pdb::ru::TABLE_NAME.into(),
            reason: Some(format!("exact table of <{set}>")),
        };
        return solve_each(args, inputs, None, Some(&label), |input, cube| {
            solve(input, cube, Route::Exact { table: &table, sym })
        });
    }
    let (config, label) = optimal_config(args)?;
    let solver = OptimalSolver::configured(&dir, &config, ProgressMode::auto())?;
    let h = solver.heuristic();
    eprintln!(
        "tables: {}, {} bytes in memory",
        (h.tables().iter())
            .map(|(p, _)| p.to_string())
            .collect::<Vec<_>>()
            .join(" "),
        h.table_bytes()
    );
    solve_each(args, inputs, None, Some(&label), |input, cube| {
        solve(input, cube, Route::Search(h))
    })
}

/// A node count for a person: exact below a million, else in M or G.
fn short_count(n: u64) -> String {
    match n {
        n if n < 1_000_000 => n.to_string(),
        n if n < 1_000_000_000 => format!("{:.1} M", n as f64 / 1e6),
        n => format!("{:.2} G", n as f64 / 1e9),
    }
}

/// A checked two-phase solution and the seconds it took.
type UpperBound = Option<(Vec<Move>, f64)>;

/// A two-phase solution of each input (checked), with its time: an upper bound in milliseconds,
/// printed before the proof; none with `--no-upper-bound`. All are found before the optimal
/// solver's tables are loaded. The two-phase solver is returned too: the proof asks it for
/// witnesses (`search::witness`), and in HTM its tables (about 64 MB) stay in memory for that
/// (in QTM they are loaded at the first witness, [`TwoPhaseWitness`]).
fn upper_bounds(
    args: &SolveArgs,
    dir: &std::path::Path,
    inputs: &[(String, Cube)],
    threads: usize,
) -> Result<(Vec<UpperBound>, Option<TwoPhaseWitness>), Failure> {
    let none = || Ok((vec![None; inputs.len()], None));
    if args.no_upper_bound {
        return none();
    }
    let Some(tp) = open_twophase_for_bounds(dir, args.metric)? else {
        return none();
    };
    // In QTM it serves only the witnesses (`upper_bound_before_proof`).
    let bounds = (inputs.iter())
        .map(|(_, cube)| upper_bound(&tp, args.metric, cube, threads))
        .collect();
    Ok((bounds, Some(tp)))
}

/// The two-phase solver for the upper bounds and witnesses, or `None` (said once on stderr)
/// where its tables can be neither loaded nor written ([`optcube::solvers::optimal::open_twophase_for_bounds`]).
pub(crate) fn open_twophase_for_bounds(
    dir: &std::path::Path,
    metric: Metric,
) -> Result<Option<TwoPhaseWitness>, Failure> {
    match optcube::solvers::optimal::open_twophase_for_bounds(dir, metric, ProgressMode::auto())? {
        Ok(tp) => Ok(Some(tp)),
        Err(why) => {
            eprintln!("no two-phase upper bound: {why}; solving without it");
            Ok(None)
        }
    }
}

fn run_thistlethwaite(args: &SolveArgs, inputs: &[(String, Cube)]) -> Result<i32, Failure> {
    use optcube::solvers::thistlethwaite::Thistlethwaite;
    let dir = args.tables.place.dir();
    let start = std::time::Instant::now();
    let solver = Thistlethwaite::open(&dir)?;
    if !args.json {
        eprintln!(
            "thistlethwaite: tables ready in {:.2} s ({})",
            start.elapsed().as_secs_f64(),
            dir.display()
        );
    }
    solve_each(args, inputs, None, None, |input, cube| {
        let t = std::time::Instant::now();
        let s = solver.try_solve(cube)?;
        Ok(Outcome::from_thistlethwaite(
            input,
            s,
            t.elapsed().as_secs_f64(),
        ))
    })
}

fn run_twophase(args: &SolveArgs, inputs: &[(String, Cube)]) -> Result<i32, Failure> {
    let dir = args.tables.place.dir();
    let start = std::time::Instant::now();
    let solver = TwoPhase::open(&dir, ProgressMode::auto())?;
    eprintln!(
        "twophase: tables ready in {:.2} s ({})",
        start.elapsed().as_secs_f64(),
        dir.display()
    );
    let timeout = std::time::Duration::from_secs_f64(args.timeout);
    solve_each(args, inputs, None, None, |input, cube| {
        Ok(twophase_one(args, &solver, input, cube, timeout))
    })
}

/// One position's two-phase solve within `timeout` (`--timeout`, which [`check`] checked;
/// `serve` bounds it further), shared by `solve` and `serve`.
pub(super) fn twophase_one(
    args: &SolveArgs,
    solver: &TwoPhase,
    input: &str,
    cube: &Cube,
    timeout: std::time::Duration,
) -> Outcome {
    let threads = args.tables.place.thread_count();
    let max_length = (args.max_length).unwrap_or(args.metric.diameter() as usize);
    let t = std::time::Instant::now();
    let r = solver.solve_in(args.metric, cube, max_length, timeout, threads);
    let secs = t.elapsed().as_secs_f64();
    Outcome::from_twophase(input, r, args.metric, max_length, secs)
}

/// The one loop over the inputs for every solver: solve, check the solution on the position,
/// record it in the batch summary, print it; stop after an interrupted search. Returns the
/// exit status (the largest any outcome asked for).
fn solve_each(
    args: &SolveArgs,
    inputs: &[(String, Cube)],
    model: Option<&Model>,
    set: Option<&SetLabel>,
    mut solve_one: impl FnMut(&str, &Cube) -> Result<Outcome, Failure>,
) -> Result<i32, Failure> {
    let mut summary = BatchSummary::new();
    let mut status = 0;
    for (input, cube) in inputs {
        let outcome = solve_one(input, cube)?;
        outcome.check(cube).map_err(Failure)?;
        summary.record(outcome.length(), outcome.nodes, outcome.seconds);
        outcome::print(&outcome, args, model, set);
        status = status.max(outcome::status(&outcome));
        if outcome.interrupted() {
            break;
        }
    }
    if inputs.len() > 1 {
        // On stderr with --json, so that stdout stays JSON Lines.
        let text = summary.report();
        if args.json {
            eprint!("{text}")
        } else {
            print!("{text}")
        }
    }
    Ok(status)
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Cmd {
        #[command(flatten)]
        args: SolveArgs,
    }

    /// In HTM a solve loads the two-phase solver for its upper bound; in QTM it asks for no
    /// upper bound and leaves the tables unloaded until a witness needs them
    /// (`TwoPhaseWitness`). A first version asked for the solver before it looked at the metric
    /// and so loaded them in QTM too; this fails on that.
    #[test]
    fn quarter_turn_solves_leave_the_two_phase_tables_unloaded() {
        let dir = std::env::temp_dir().join(format!("optcube-upper-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        TwoPhase::new().save(&dir).unwrap();
        let cube = Cube::SOLVED.apply_seq(&optcube::cube::parse_moves("R U F").unwrap());
        for (metric, loaded) in [("htm", true), ("qtm", false)] {
            let cmd = Cmd::parse_from(["solve", "--metric", metric, "R U F"]);
            let inputs = [("R U F".to_string(), cube)];
            let (bounds, tp) = upper_bounds(&cmd.args, &dir, &inputs, 1).unwrap();
            assert_eq!(tp.expect("opened").is_loaded(), loaded, "{metric}");
            assert_eq!(bounds[0].is_some(), loaded, "{metric}: an upper bound");
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}
