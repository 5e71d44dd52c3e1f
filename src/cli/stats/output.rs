//! What the `stats` commands share when they write results: the command line that made a file,
//! the process's peak memory, and writing a CSV with its Markdown note (atomically).

use crate::cli::Failure;
use std::path::Path;

/// The command line of this process, as typed (arguments with spaces quoted).
pub fn command_line() -> String {
    let mut args = std::env::args();
    let prog = args
        .next()
        .and_then(|p| {
            Path::new(&p)
                .file_name()
                .map(|f| f.to_string_lossy().into_owned())
        })
        .unwrap_or_else(|| "optcube".into());
    std::iter::once(prog)
        .chain(args.map(|a| {
            if a.contains(char::is_whitespace) || a.is_empty() {
                format!("'{a}'")
            } else {
                a
            }
        }))
        .collect::<Vec<_>>()
        .join(" ")
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
