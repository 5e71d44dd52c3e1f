//! `optcube pdb build | verify | info | pack | unpack`.

use super::{Failure, TableDir};
use optcube::pdb::file::{self, table_path};
use optcube::pdb::set;
use optcube::pdb::{Method, Pattern};
use optcube::progress::ProgressMode;

#[derive(clap::Subcommand)]
pub enum PdbCmd {
    /// Build the tables of a set that are missing or invalid (valid files are kept; a replaced
    /// file is said), and replace any invalid two-phase or Thistlethwaite table file there.
    Build {
        // The list is generated from the registries: `optcube::pdb::set::set_names`.
        #[arg(long, value_delimiter = ',', num_args = 1.., help = format!(
            "Set or table names: {} [default: the set `solve` would use: the fastest present, \
             else the fastest whose build fits in memory]",
            set::set_names()
        ))]
        set: Vec<String>,
        #[command(flatten)]
        common: TableDir,
        /// Generator.
        #[arg(long, value_enum, default_value = "bfs")]
        method: Generator,
        /// Rebuild even if a valid file exists.
        #[arg(long)]
        force: bool,
        /// The metric of the distances: qtm builds the sets' quarter-turn twins (`NAME-qtm`,
        /// where the registry has one: the Korf tables, the fallbacks, `sym48e0`, `sym48e6`,
        /// `sym48e7`, `sym48e8`), which `solve --metric qtm` reads. A twin named by its own
        /// name (`--set sym48e8-qtm`) is built in either case.
        #[arg(long, value_name = "METRIC", default_value = "htm", value_parser = super::parse_metric)]
        metric: optcube::cube::Metric,
        /// Seconds between checkpoints of a long build (the coset tables from sym48e5 up):
        /// the table so far is saved to NAME.pdb.partial, and a build interrupted after one
        /// resumes from it when run again. 0: no checkpoints.
        #[arg(long, value_name = "SECS", default_value_t = optcube::pdb::checkpoint::DEFAULT_EVERY.as_secs())]
        checkpoint_every: u64,
    },
    /// Print the set `solve` uses without --set in this directory (the fastest whose tables
    /// are there, else the fastest whose build fits in the memory available); why on stderr.
    Choose {
        #[command(flatten)]
        common: TableDir,
    },
    /// List the table sets, each with its table files (`NAME: TABLE TABLE …`, or one JSON
    /// object a set); with --tables NAMES, only the tables that set or table names resolve to,
    /// one a line (for scripts: the one list of sets is the program's).
    Sets {
        /// Set or table names, separated by commas: print the tables they stand for.
        #[arg(long, value_name = "NAMES")]
        tables: Option<String>,
        /// One JSON object a set: name, tables, rank when chosen by default, what it holds.
        #[arg(long, conflicts_with = "tables")]
        json: bool,
    },
    /// Check every table file in the directory (header, size, checksum).
    Verify {
        #[command(flatten)]
        common: TableDir,
    },
    /// Describe the table files in the directory.
    Info {
        #[command(flatten)]
        common: TableDir,
        /// One JSON object per table file, one line each.
        #[arg(long)]
        json: bool,
    },
    /// Write zstd-compressed copies (NAME.pdb.zst) of the table files.
    Pack {
        #[command(flatten)]
        common: TableDir,
        /// zstd level (1-22).
        #[arg(long, default_value_t = 9)]
        level: i32,
    },
    /// Restore NAME.pdb files from their NAME.pdb.zst copies.
    Unpack {
        #[command(flatten)]
        common: TableDir,
    },
}

/// The table generator as a command-line value; the library's [`Method`] knows nothing of clap.
#[derive(Clone, Copy, Debug, clap::ValueEnum)]
pub enum Generator {
    /// Breadth-first search by depth (forward, then backward).
    Bfs,
    /// Iterative-deepening depth-first search from solved.
    Iddfs,
}

impl From<Generator> for Method {
    fn from(g: Generator) -> Method {
        match g {
            Generator::Bfs => Method::Bfs,
            Generator::Iddfs => Method::Iddfs,
        }
    }
}

/// Lists on stderr the temporary files an interrupted write left in `dir` (the next build of
/// the same table removes them).
fn report_stale(dir: &std::path::Path) {
    for t in optcube::sys::files::stale_temporaries(dir) {
        let mb = std::fs::metadata(&t).map_or(0, |m| m.len() >> 20);
        eprintln!(
            "stale temporary file {} ({mb} MB): left by an interrupted write (no \
             process holds its lock); delete it (the next `optcube pdb build` of that table does)",
            t.display()
        );
    }
    // Checkpoints of interrupted builds ([`optcube::pdb::checkpoint`]).
    let partial = std::fs::read_dir(dir).into_iter().flatten().flatten();
    for p in partial
        .map(|e| e.path())
        .filter(|p| p.to_str().is_some_and(|s| s.ends_with(".pdb.partial")))
    {
        let mb = std::fs::metadata(&p).map_or(0, |m| m.len() >> 20);
        eprintln!(
            "checkpoint {} ({mb} MB): an interrupted build's; `optcube pdb build` of that table \
             resumes from it",
            p.display()
        );
    }
}

pub fn run(cmd: PdbCmd) -> Result<i32, Failure> {
    match cmd {
        PdbCmd::Build {
            set,
            common,
            method,
            force,
            metric,
            checkpoint_every,
        } => {
            let dir = common.dir();
            let set = if set.is_empty() {
                vec![super::chosen_set(&dir).set.to_string()]
            } else {
                set
            };
            // A table named by its own name is built as it is (`sym48e8-qtm`): building reads
            // no distance, so no metric can be wrong for it; `--metric qtm` maps the rest.
            let named = set::resolve_names(&set)?;
            let patterns = match metric {
                optcube::cube::Metric::Htm => named,
                m => set::in_metric(&named, m)?,
            };
            common.pooled(|| {
                let reports = set::build_missing(
                    &dir,
                    &patterns,
                    method.into(),
                    force,
                    ProgressMode::auto(),
                    (checkpoint_every > 0)
                        .then(|| std::time::Duration::from_secs(checkpoint_every)),
                )?;
                for r in &reports {
                    if r.seconds.is_none() {
                        eprintln!("{}: valid table already in {}", r.pattern, r.path.display());
                    }
                    if let Some(why) = &r.replaced {
                        eprintln!("{}: replaced the invalid file ({why})", r.pattern);
                    }
                }
                // The solvers' tables in the directory are covered too.
                for (name, why) in
                    optcube::solvers::repair_solver_tables(&dir, ProgressMode::auto())?
                {
                    eprintln!("{name}: replaced the invalid file ({why})");
                }
                Ok(0)
            })
        }
        PdbCmd::Sets { tables, json } => {
            if let Some(names) = tables {
                for p in set::resolve_names(&[names])? {
                    println!("{}", p.name());
                }
                return Ok(0);
            }
            for s in set::SETS {
                let tables: Vec<&str> = s.tables.iter().map(|p| p.name()).collect();
                if json {
                    println!("{}", set_json(&s, None));
                } else {
                    println!("{}: {}", s.name, tables.join(" "));
                }
            }
            Ok(0)
        }
        PdbCmd::Choose { common } => {
            println!("{}", super::chosen_set(&common.dir()).set);
            Ok(0)
        }
        PdbCmd::Verify { common } => {
            let dir = common.dir();
            let reports = common.pooled(|| Ok(optcube::solvers::inspect(&dir)))?;
            if reports.is_empty() {
                report_stale(&dir);
                return Err(Failure(format!("no table files in {}", dir.display())));
            }
            for r in &reports {
                match (&r.info, &r.error) {
                    (Some(info), None) => println!(
                        "ok    {} ({} entries, checksum {})",
                        r.kind.name, info.entries, info.checksum
                    ),
                    (_, e) => println!("BAD   {}: {}", r.kind.name, e.as_deref().unwrap_or("")),
                }
            }
            report_stale(&dir);
            let bad = reports.iter().any(|r| r.error.is_some());
            Ok(if bad { super::EXIT_BAD_INPUT } else { 0 })
        }
        PdbCmd::Info { common, json } => {
            let dir = common.dir();
            let reports = common.pooled(|| Ok(optcube::solvers::inspect(&dir)))?;
            if reports.is_empty() && !json {
                println!("no table files in {}", dir.display());
            }
            for r in &reports {
                if json {
                    println!("{}", r.to_json());
                    continue;
                }
                let k = &r.kind;
                println!("{} ({})", k.name, r.path.display());
                println!("  pieces:    {}", k.pieces);
                println!("  entries:   {}", k.entries);
                println!("  metric:    {}", k.metric);
                if let Some(i) = &r.info {
                    println!("  bytes:     {}", i.payload_bytes);
                    match i.line_base {
                        None => println!("  format:    {} bits an entry", i.bits_per_entry),
                        Some(b) => println!(
                            "  format:    2 bits an entry in 64-byte lines, base {b}: values \
                             {}..{} read exactly, more reads {}, at most {b} reads the line's \
                             least",
                            b + 1,
                            b + 3,
                            b + 3
                        ),
                    }
                    println!("  histogram: {:?}", i.histogram);
                    println!("  mean:      {:.4}", i.mean);
                    println!(
                        "  checksum:  {} (xxh3-64), generator {}",
                        i.checksum, i.generator
                    );
                }
                match &r.error {
                    None => println!("  status:    valid"),
                    Some(e) => println!("  status:    INVALID: {e}"),
                }
            }
            report_stale(&dir);
            let bad = reports.iter().any(|r| r.error.is_some());
            Ok(if bad { super::EXIT_BAD_INPUT } else { 0 })
        }
        PdbCmd::Pack { common, level } => {
            let dir = common.dir();
            common.pooled(|| {
                for p in Pattern::ALL {
                    let path = table_path(&dir, p.name());
                    if path.exists() {
                        file::load(&path, p)?; // never pack a damaged table
                        let out = file::pack(&path, level)?;
                        let (a, b) = (
                            std::fs::metadata(&path)?.len(),
                            std::fs::metadata(&out)?.len(),
                        );
                        eprintln!(
                            "{}: {} -> {} bytes ({:.1}%)",
                            out.display(),
                            a,
                            b,
                            100.0 * b as f64 / a as f64
                        );
                    }
                }
                Ok(0)
            })
        }
        PdbCmd::Unpack { common } => {
            let dir = common.dir();
            for p in Pattern::ALL {
                let path = table_path(&dir, p.name());
                let packed = file::packed_path(&path);
                if packed.exists() {
                    file::unpack(&packed, &path)?;
                    file::load(&path, p)?;
                    eprintln!("{}: restored and verified", path.display());
                }
            }
            Ok(0)
        }
    }
}

/// A table set as `pdb sets --json` and `optcube serve` describe it: name, tables, rank when
/// chosen by default, the seconds a first build takes, what it holds, the memory its tables
/// hold and a build needs at its peak; with `dir`, whether its tables are there.
pub fn set_json(
    s: &optcube::pdb::set::SetSpec,
    dir: Option<&std::path::Path>,
) -> serde_json::Value {
    let tables: Vec<&str> = s.tables.iter().map(|p| p.name()).collect();
    let mut v = serde_json::json!({
        "name": s.name,
        "tables": tables,
        "solve_rank": s.solve_rank,
        "first_build_seconds": s.first_build_secs,
        "help": s.help,
        "memory_bytes": set::resident_bytes(s.name),
        "build_memory_bytes": set::build_memory(s.name),
    });
    if let Some(d) = dir {
        v["present"] = serde_json::json!(set::is_present(d, s.name));
    }
    v
}
