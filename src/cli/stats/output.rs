//! What the `stats` commands share when they write results: the command line that made a file,
//! the process's peak memory, what a study misses, and writing a CSV with its Markdown note
//! (atomically).

use crate::cli::Failure;
use std::path::Path;

/// The command line that is running, with the program called `optcube` and arguments quoted
/// where a shell would need it (so the line can be pasted back).
pub fn command_line() -> String {
    let mut words = vec!["optcube".to_string()];
    for a in std::env::args().skip(1) {
        let plain = !a.is_empty()
            && a.chars()
                .all(|c| c.is_ascii_alphanumeric() || "-_./=,:+@%".contains(c));
        words.push(if plain {
            a
        } else {
            format!("'{}'", a.replace('\'', r"'\''"))
        });
    }
    words.join(" ")
}

/// The indices a study still misses, as a report says them: "none missing", or the count and
/// the first ten.
pub fn missing_text(missing: &[u64]) -> String {
    const SHOWN: usize = 10;
    match missing.len() {
        0 => "none missing".into(),
        n => {
            let list: Vec<String> = missing.iter().take(SHOWN).map(u64::to_string).collect();
            let more = if n > SHOWN { ", …" } else { "" };
            format!("{n} missing (indices {}{more})", list.join(", "))
        }
    }
}

pub use optcube::sys::peak_memory_bytes;

/// Checks, before the work, that `path` and the Markdown note beside it can be written
/// ([`optcube::sys::files::check_output`]): a count that takes hours must not be lost to a bad
/// path. The results directory `results/` of the default paths is made when missing (said on
/// stderr); any other missing directory is refused.
pub fn check_outputs(path: &Path) -> Result<(), Failure> {
    if path.parent() == Some(Path::new("results")) && !Path::new("results").exists() {
        std::fs::create_dir("results")
            .map_err(|e| Failure(format!("cannot create the directory results: {e}")))?;
        eprintln!("created the directory results/");
    }
    for p in [path, &path.with_extension("md")] {
        optcube::sys::files::check_output(p).map_err(Failure)?;
    }
    Ok(())
}

/// Writes `csv` to `path` and `md` beside it (`.md`), each replaced atomically (a device, a
/// FIFO or a link's target written through); names both on stderr.
pub fn write_outputs(path: &Path, csv: &str, md: &str) -> Result<(), Failure> {
    check_outputs(path)?;
    let md_path = path.with_extension("md");
    for (p, text) in [(path, csv), (md_path.as_path(), md)] {
        optcube::sys::files::write_output(p, text.as_bytes()).map_err(Failure)?;
        eprintln!("wrote {}", p.display());
    }
    Ok(())
}
