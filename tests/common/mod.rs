//! Helpers shared by the end-to-end test binaries: run the `optcube` binary, read its output,
//! a scratch directory per test process, and the `korf6` tables built once by the CLI.
#![allow(dead_code)] // each test binary uses its own subset

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

/// Runs the `optcube` binary of this build with `args`.
pub fn optcube(args: &[&str]) -> Output {
    optcube_in(Path::new("."), args)
}

/// Runs the `optcube` binary with `args` in directory `cwd`.
pub fn optcube_in(cwd: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_optcube"))
        .args(args)
        .current_dir(cwd)
        .output()
        .expect("run optcube")
}

pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

const PREFIX: &str = "optcube-e2e-";

/// This test process's scratch directory, `$TMPDIR/optcube-e2e-PID`. The directories of
/// earlier runs whose process is gone are removed first, so test runs do not pile up tables.
pub fn scratch() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let tmp = std::env::temp_dir();
        for e in std::fs::read_dir(&tmp).into_iter().flatten().flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            if let Some(pid) = name.strip_prefix(PREFIX)
                && !Path::new("/proc").join(pid).exists()
            {
                let _ = std::fs::remove_dir_all(e.path());
            }
        }
        let dir = tmp.join(format!("{PREFIX}{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        dir
    })
}

/// A fresh, empty directory `name` inside [`scratch`].
pub fn test_dir(name: &str) -> PathBuf {
    let d = scratch().join(name);
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// The korf6 tables, built once per test process by `optcube pdb build`.
pub fn korf6_dir() -> &'static str {
    static DIR: OnceLock<String> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = scratch().join("korf6").to_str().unwrap().to_string();
        let o = optcube(&[
            "pdb",
            "build",
            "--set",
            "korf6",
            "--dir",
            &dir,
            "--threads",
            "2",
        ]);
        assert!(o.status.success(), "build failed: {}", stderr(&o));
        dir
    })
}
