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

/// Peak resident memory of this process so far (VmHWM from /proc/self/status), in bytes.
pub fn peak_memory_bytes() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = s.lines().find(|l| l.starts_with("VmHWM:"))?;
    Some(line.split_whitespace().nth(1)?.parse::<u64>().ok()? * 1024)
}

/// Writes `csv` to `path` and `md` beside it (`.md`), each replaced atomically; names both on
/// stderr.
pub fn write_outputs(path: &Path, csv: &str, md: &str) -> Result<(), Failure> {
    let md_path = path.with_extension("md");
    for (p, text) in [(path, csv), (md_path.as_path(), md)] {
        optcube::sys::files::write_atomic(p, text.as_bytes())
            .map_err(|e| Failure(format!("cannot write {}: {e}", p.display())))?;
        eprintln!("wrote {}", p.display());
    }
    Ok(())
}
