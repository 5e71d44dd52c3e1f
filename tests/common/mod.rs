//! Helpers shared by the end-to-end test binaries: run the `optcube` binary, read its output,
//! a scratch directory per test process, and the `korf6` tables built once by the CLI.
#![allow(dead_code)] // each test binary uses its own subset

pub mod goals;
pub mod http;

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

/// Runs `optcube args` in `cwd`, waits (at most 300 s) for a line containing `mark` on stdout
/// or stderr, waits `delay` more, then sends `signal`; returns the exit status and both
/// outputs.
pub fn signal_after(
    cwd: &Path,
    args: &[&str],
    mark: &str,
    delay: std::time::Duration,
    signal: i32,
) -> (std::process::ExitStatus, String, String) {
    use std::io::BufRead;
    use std::os::unix::process::CommandExt;
    use std::process::Stdio;
    let mut command = Command::new(env!("CARGO_BIN_EXE_optcube"));
    command
        .args(args)
        .current_dir(cwd)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    // A shell without job control starts background commands with SIGINT ignored, and the
    // child would inherit that: the signal's default action is what these tests exercise.
    // SAFETY: signal() is async-signal-safe, so it may run between fork and exec.
    unsafe {
        command.pre_exec(move || {
            libc::signal(signal, libc::SIG_DFL);
            Ok(())
        });
    }
    let mut child = command.spawn().expect("run optcube");
    let (tx, rx) = std::sync::mpsc::channel();
    let readers: Vec<_> = [
        Box::new(child.stdout.take().unwrap()) as Box<dyn std::io::Read + Send>,
        Box::new(child.stderr.take().unwrap()),
    ]
    .into_iter()
    .map(|r| {
        let (tx, mark) = (tx.clone(), mark.to_string());
        std::thread::spawn(move || {
            let mut all = String::new();
            for line in std::io::BufReader::new(r).lines() {
                let line = line.unwrap();
                if line.contains(&mark) {
                    let _ = tx.send(());
                }
                all += &line;
                all += "\n";
            }
            all
        })
    })
    .collect();
    rx.recv_timeout(std::time::Duration::from_secs(300))
        .unwrap_or_else(|_| panic!("no line with {mark:?}"));
    std::thread::sleep(delay);
    // SAFETY: sending a signal to our own child process.
    assert_eq!(unsafe { libc::kill(child.id() as i32, signal) }, 0);
    let status = child.wait().unwrap();
    let mut outs = readers.into_iter().map(|r| r.join().unwrap());
    (status, outs.next().unwrap(), outs.next().unwrap())
}

/// Runs `optcube args`, asserts that it succeeded (showing the arguments and stderr if not),
/// and parses its stdout as one JSON value; returns the value and stderr.
pub fn optcube_json(args: &[&str]) -> (serde_json::Value, String) {
    let o = optcube(args);
    assert!(o.status.success(), "{args:?}: {}", stderr(&o));
    let text = stdout(&o);
    let v = serde_json::from_str(text.trim()).unwrap_or_else(|e| panic!("{args:?}: {e}: {text}"));
    (v, stderr(&o))
}

pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

const PREFIX: &str = "optcube-e2e-";

/// Removes this process's scratch directory; registered with `atexit`, so it runs when the
/// test harness exits after the last test.
extern "C" fn remove_scratch() {
    let dir = std::env::temp_dir().join(format!("{PREFIX}{}", std::process::id()));
    let _ = std::fs::remove_dir_all(dir);
}

/// This test process's scratch directory, `$TMPDIR/optcube-e2e-PID`, removed when the process
/// exits. The directories of earlier runs whose process is gone (killed before its exit) are
/// removed first, so test runs do not pile up tables.
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
        // SAFETY: registers a plain function without arguments to run at exit.
        assert_eq!(unsafe { libc::atexit(remove_scratch) }, 0);
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

/// Every position within five moves with its brute-force distance (no table code), built once
/// per test process.
pub fn ball() -> &'static optcube::search::brute::Ball {
    static B: OnceLock<optcube::search::brute::Ball> = OnceLock::new();
    B.get_or_init(|| optcube::search::brute::Ball::new(5))
}
