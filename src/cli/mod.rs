//! Command-line interface. Parses arguments with clap and calls the library;
//! no engine logic lives here. Every error goes to stderr and gives exit status 2.

use clap::{Parser, Subcommand};
use optcube::cube::{Cube, Rng, parse_moves};
use std::path::PathBuf;

mod coset;
mod coset_study;
mod facelets;
mod pdb;
mod serve;
mod show;
mod solve;
mod stats;

/// Exit status for bad input or bad files.
pub const EXIT_BAD_INPUT: i32 = 2;
/// No solution within the limit asked: the optimal solver's `--max-depth` (every shorter length
/// searched, none solves) or the two-phase solver's `--max-length` within `--timeout`. The
/// output says what was proved or found; success (0) would read as "solved".
pub const EXIT_NOT_FOUND: i32 = 3;
/// A search stopped by Ctrl-C (128 + SIGINT), after printing the bound it proved.
pub const EXIT_INTERRUPTED: i32 = 130;

#[derive(Parser)]
#[command(
    name = "optcube",
    version,
    about = "Provably optimal Rubik's cube solver (half-turn, quarter-turn, slice-turn and axial metrics) with pattern databases"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// The distance of every position of a coset of H = <U, D, R2, L2, F2, B2> (19,508,428,800
    /// positions): counts by depth, the method of the God's-number proof.
    Coset(coset::CosetArgs),
    /// Print the facelet string of a scramble, or check a facelet string.
    Facelets(facelets::FaceletsArgs),
    /// Solve positions (optimal by default), building missing tables first.
    Solve(solve::SolveArgs),
    /// Build, check and describe pattern databases.
    #[command(subcommand)]
    Pdb(pdb::PdbCmd),
    /// Research statistics: heuristic and length distributions, distance counts, plots.
    #[command(subcommand)]
    Stats(stats::StatsCmd),
    /// A local web page for people: paint a cube by its colours, see it drawn, solve it with
    /// each iteration shown live (`--port`, default 8080; the address is printed).
    Serve(serve::ServeArgs),
    /// Draw a position as the unfolded cube (colours on a terminal, letters otherwise, --svg
    /// for a picture), gray where a goal or mask leaves stickers free.
    Show(show::ShowArgs),
    /// List the named goals of `solve --goal` and `stats distances --goal`: name, pieces key,
    /// mask and description (`--json`: one object a line), for scripts and stubs to read.
    Goals {
        #[arg(long)]
        json: bool,
    },
    /// Print uniformly random positions as facelet strings, one a line.
    Scramble {
        /// How many positions.
        #[arg(long, value_name = "N")]
        random: u64,
        /// Seed for reproducible output (default: from the clock, printed on stderr).
        #[arg(long, value_name = "S")]
        seed: Option<u64>,
        /// Output form: facelet strings, or move sequences that create the positions from
        /// solved (the inverse of a two-phase solution, at most 20 moves).
        #[arg(long, value_enum, default_value = "facelets")]
        format: ScrambleFormat,
        /// Draw from a subgroup instead of the whole cube: `coset` (corners in their tetrads
        /// and twisted right, edges in their slices, any flips: where the 48-symmetry coset
        /// tables read 0), `half-turns` (`<U2,D2,F2,B2,L2,R2>`, a 60-move random walk).
        #[arg(long, value_enum)]
        subgroup: Option<Subgroup>,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum Subgroup {
    Coset,
    HalfTurns,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum ScrambleFormat {
    Facelets,
    Moves,
}

/// A failure that ends the command with exit status 2 and a message on stderr.
#[derive(Debug)]
pub struct Failure(pub String);

impl<E: std::fmt::Display> From<E> for Failure {
    fn from(e: E) -> Self {
        Failure(e.to_string())
    }
}

/// Runs the command line; returns the process exit status.
pub fn run() -> i32 {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() { EXIT_BAD_INPUT } else { 0 };
        }
    };
    let result = match cli.command {
        Command::Coset(args) => coset::run(args),
        Command::Facelets(args) => facelets::run(args),
        Command::Show(args) => show::run(args),
        Command::Serve(args) => serve::run(args),
        Command::Goals { json } => {
            for n in optcube::cube::NAMED_GOALS {
                if json {
                    println!("{}", optcube::cube::goal_listing(n));
                } else {
                    let g = optcube::cube::Goal::named(n.name).expect("a named goal");
                    println!("{:<8} {:<25} {}", n.name, g.key(), n.about);
                }
            }
            Ok(0)
        }
        Command::Scramble {
            random,
            seed,
            format,
            subgroup,
        } => scramble(random, seed, format, subgroup),
        Command::Pdb(cmd) => pdb::run(cmd),
        Command::Solve(args) => solve::run(args),
        Command::Stats(cmd) => stats::run(cmd),
    };
    match result {
        Ok(code) => code,
        Err(Failure(msg)) => {
            eprintln!("optcube: error: {msg}");
            EXIT_BAD_INPUT
        }
    }
}

fn scramble(
    n: u64,
    seed: Option<u64>,
    format: ScrambleFormat,
    subgroup: Option<Subgroup>,
) -> Result<i32, Failure> {
    let seed = seed.unwrap_or_else(|| {
        let s = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64)
            .unwrap_or(0);
        eprintln!("optcube: seed {s}");
        s
    });
    let mut rng = Rng::new(seed);
    let twophase =
        (format == ScrambleFormat::Moves).then(optcube::solvers::twophase::TwoPhase::new);
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    for _ in 0..n {
        use std::io::Write;
        let cube = match subgroup {
            None => Cube::random(&mut rng),
            Some(Subgroup::Coset) => Cube::random_in_coset_subgroup(&mut rng),
            Some(Subgroup::HalfTurns) => Cube::random_half_turn(&mut rng),
        };
        match &twophase {
            None => writeln!(out, "{}", cube.to_facelets())?,
            Some(tp) => {
                // One thread: the first solution found is then the same on every run, so
                // the seed fixes the moves too (several threads race to different ones).
                let solution = tp
                    .solve_with(&cube, 20, std::time::Duration::from_secs(60), 1)
                    .solution
                    .ok_or_else(|| Failure("internal error: no two-phase solution found".into()))?;
                let moves = optcube::cube::invert_sequence(&solution);
                // The scramble must recreate the position exactly.
                if Cube::from_moves(&moves) != cube {
                    return Err(Failure(
                        "internal error: scramble does not recreate the position".into(),
                    ));
                }
                writeln!(out, "{}", optcube::cube::format_moves(&moves))?;
            }
        }
    }
    Ok(0)
}

/// Parses `--metric`: any metric's name ([`optcube::cube::Metric::parse`]); what a metric
/// cannot do yet is refused where it is asked ([`optcube::cube::Metric::face_turns_only`]).
pub fn parse_metric(s: &str) -> Result<optcube::cube::Metric, String> {
    optcube::cube::Metric::parse(s)
}

/// Parses a scramble argument into a position, for the commands that take one.
pub fn scramble_position(s: &str) -> Result<Cube, Failure> {
    Ok(Cube::from_moves(&parse_moves(s)?))
}

/// Where the tables are and how many threads may use them: one argument group, flattened into
/// every command that reads or writes tables (the `pdb` commands, and through [`TableArgs`] the
/// search commands). `--dir` is the `pdb` commands' spelling of `--pdb-dir`.
#[derive(clap::Args)]
pub struct TableDir {
    /// Table directory [default: $OPTCUBE_PDB_DIR or pdb/].
    #[arg(long = "pdb-dir", visible_alias = "dir", value_name = "DIR")]
    pub pdb_dir: Option<PathBuf>,
    /// Threads [default: all cores; at most 4 a core, or 64].
    #[arg(long, value_parser = parse_threads)]
    pub threads: Option<usize>,
}

/// The value parser of every `--threads`: a whole number from 1 to
/// [`optcube::sys::max_threads`].
pub fn parse_threads(s: &str) -> Result<usize, String> {
    let n: usize = s
        .trim()
        .parse()
        .map_err(|_| format!("{s:?} is not a whole number of threads"))?;
    optcube::sys::check_threads(n)
}

impl TableDir {
    /// The table directory.
    pub fn dir(&self) -> PathBuf {
        self.pdb_dir
            .clone()
            .unwrap_or_else(optcube::pdb::set::default_dir)
    }

    /// The thread count: `--threads` (checked by [`parse_threads`]), else all cores
    /// ([`optcube::sys::threads`], the rule every request follows).
    pub fn thread_count(&self) -> usize {
        optcube::sys::threads(self.threads).expect("--threads was checked when it was parsed")
    }

    /// Runs `f` on a rayon pool of `--threads` workers.
    pub fn pooled<T: Send>(
        &self,
        f: impl FnOnce() -> Result<T, Failure> + Send,
    ) -> Result<T, Failure> {
        with_threads(self.threads, f)
    }
}

/// The tables a search command reads (a set; missing tables are built first), where they are,
/// and its thread count: flattened into `solve`, `stats lengths` and `stats heuristic`.
#[derive(clap::Args)]
pub struct TableArgs {
    // The list is generated from the registries: `optcube::pdb::set::describe_sets`.
    #[arg(long, help = format!(
        "Table set: {} [default: the fastest set whose tables are in the table directory; with \
         none there, the fastest whose build fits in the memory available (`optcube pdb choose`)]",
        optcube::pdb::set::describe_sets()
    ))]
    pub set: Option<String>,
    #[command(flatten)]
    pub place: TableDir,
}

impl TableArgs {
    /// The set's names, trimmed (they name studies and output files): `--set` as given, else
    /// the set [`optcube::pdb::set::choose`] picks for the table directory and this machine's
    /// memory, which is said on stderr with the reason.
    pub fn names(&self) -> Vec<String> {
        self.choice().0
    }

    /// [`TableArgs::names`], and the reason of the choice when the set was not named.
    pub fn choice(&self) -> (Vec<String>, Option<String>) {
        let asked = self.set.as_deref();
        let (names, reason) = optcube::pdb::set::asked_or_chosen(asked, &self.place.dir());
        say_chosen(&names.join(","), reason.as_deref());
        (names, reason)
    }

    /// The patterns of `names` (from [`TableArgs::names`]).
    pub fn patterns(names: &[String]) -> Result<Vec<optcube::pdb::Pattern>, Failure> {
        Ok(optcube::pdb::set::resolve_names(names)?)
    }
}

/// Says on stderr which set was chosen for the user and why (nothing for a set they named).
pub fn say_chosen(set: &str, reason: Option<&str>) {
    if let Some(r) = reason {
        eprintln!("set: {set} ({r}; --set to choose another)");
    }
}

/// The set used when none is named ([`optcube::pdb::set::choose`]), said once on stderr with
/// its reason.
pub fn chosen_set(dir: &std::path::Path) -> optcube::pdb::set::Choice {
    let c = optcube::pdb::set::choose(dir, optcube::sys::available_memory());
    say_chosen(c.set, Some(&c.reason));
    c
}

/// Runs `f` on a rayon pool of `threads` workers (default: all cores).
fn with_threads<T>(
    threads: Option<usize>,
    f: impl FnOnce() -> Result<T, Failure> + Send,
) -> Result<T, Failure>
where
    T: Send,
{
    let n = threads.unwrap_or_else(optcube::sys::cores);
    let pool = optcube::sys::thread_pool(n).map_err(|e| Failure(format!("--threads: {e}")))?;
    pool.install(f)
}
