//! End-to-end tests of the traps a careful user found by probing the binary: each fails if its
//! trap reopens. Small tables only (`korf6`, `corners`), built by the CLI in a scratch
//! directory.

mod common;

use common::{korf6_dir, optcube, scratch, stderr, stdout, test_dir};
use optcube::cube::{Cube, parse_moves};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// A copy of the `korf6` tables in a fresh directory `name` (no two-phase tables).
fn korf6_copy(name: &str) -> PathBuf {
    let dir = test_dir(name);
    for t in ["corners", "edges6a", "edges6b"] {
        let f = format!("{t}.pdb");
        std::fs::copy(Path::new(korf6_dir()).join(&f), dir.join(&f)).unwrap();
    }
    dir
}

/// Runs the binary with `before_exec` run in the child first (limits, a user id).
fn optcube_with(
    args: &[&str],
    before_exec: impl FnMut() -> std::io::Result<()> + Send + Sync + 'static,
) -> Output {
    use std::os::unix::process::CommandExt;
    let mut c = Command::new(binary_for_anyone());
    c.args(args);
    // SAFETY: the closures given here call only async-signal-safe functions (setrlimit,
    // signal, setgid, setuid).
    unsafe { c.pre_exec(before_exec) };
    c.output().expect("run optcube")
}

/// The binary copied into the scratch directory, which every user may read and run: a child
/// that drops root's rights must still reach it.
fn binary_for_anyone() -> PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let path = scratch().join("optcube-bin");
    if !path.exists() {
        let tmp = scratch().join(format!("optcube-bin.{:?}", std::thread::current().id()));
        std::fs::copy(env!("CARGO_BIN_EXE_optcube"), &tmp).unwrap();
        std::fs::set_permissions(&tmp, std::fs::Permissions::from_mode(0o755)).unwrap();
        std::fs::rename(&tmp, &path).unwrap();
    }
    path
}

fn is_root() -> bool {
    // SAFETY: geteuid has no preconditions.
    unsafe { libc::geteuid() == 0 }
}

/// Trap 1: a complete set in the directory is used, whichever it is; `korf6` is not passed
/// over for a six-minute first build of the default.
#[test]
fn choose_uses_any_complete_set_present() {
    let o = optcube(&["pdb", "choose", "--dir", korf6_dir()]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o).trim(), "korf6", "{}", stderr(&o));
    assert!(stderr(&o).contains("tables are in"), "{}", stderr(&o));
    // And `solve` without --set uses it (no build: nothing new in the directory but the
    // corner successor table it keeps there, which another test may have written first).
    let tables = || {
        (std::fs::read_dir(korf6_dir()).unwrap())
            .filter(|f| {
                let name = f.as_ref().unwrap().file_name();
                !name.to_string_lossy().starts_with("corner-successors-")
            })
            .count()
    };
    let before = tables();
    let o = optcube(&[
        "solve",
        "R U F",
        "--pdb-dir",
        korf6_dir(),
        "--no-upper-bound",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("3 moves, optimal"), "{}", stdout(&o));
    assert_eq!(tables(), before);
}

/// Trap 2: `--seed` fixes the moves of `--format moves` too, and they make the positions of
/// `--format facelets` with the same seed.
#[test]
fn seeded_move_scrambles_are_reproducible() {
    let args = [
        "scramble", "--random", "6", "--seed", "2026", "--format", "moves",
    ];
    let runs: Vec<String> = (0..4).map(|_| stdout(&optcube(&args))).collect();
    assert!(runs.iter().all(|r| r == &runs[0]), "{runs:#?}");
    let facelets = stdout(&optcube(&["scramble", "--random", "6", "--seed", "2026"]));
    let moves: Vec<&str> = runs[0].lines().collect();
    assert_eq!(moves.len(), 6);
    for (m, f) in moves.iter().zip(facelets.lines()) {
        assert_eq!(Cube::from_moves(&parse_moves(m).unwrap()).to_facelets(), f);
    }
}

/// Run in a child before it starts: files of at most 1 MB (a write beyond fails, `SIGXFSZ`
/// ignored), which stands for a disk that fills up midway.
fn small_files() -> std::io::Result<()> {
    let limit = libc::rlimit {
        rlim_cur: 1 << 20,
        rlim_max: 1 << 20,
    };
    // SAFETY: plain system calls on this child's own limits and signals.
    unsafe {
        libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
        if libc::setrlimit(libc::RLIMIT_FSIZE, &limit) != 0 {
            return Err(std::io::Error::last_os_error());
        }
    }
    Ok(())
}

/// Solves `R U F` with the `korf6` tables copied into `name` (made read-only when `read_only`),
/// `before_exec` run in the child, and checks what every such solve must give: success, the
/// optimal answer, and the upper bound skipped, said once. Returns the directory and stderr.
fn solve_without_bound_tables(
    name: &str,
    read_only: bool,
    before_exec: impl FnMut() -> std::io::Result<()> + Send + Sync + 'static,
) -> (PathBuf, String) {
    use std::os::unix::fs::PermissionsExt;
    let dir = korf6_copy(name);
    let mode = |m| std::fs::Permissions::from_mode(m);
    if read_only {
        std::fs::set_permissions(&dir, mode(0o555)).unwrap();
    }
    let d = dir.to_str().unwrap();
    let args = [
        "solve",
        "R U F",
        "--set",
        "korf6",
        "--pdb-dir",
        d,
        "--no-successors",
    ];
    let o = optcube_with(&args, before_exec);
    std::fs::set_permissions(&dir, mode(0o755)).unwrap();
    let e = stderr(&o);
    assert!(o.status.success(), "{name}: {e}");
    assert!(stdout(&o).contains("3 moves, optimal"), "{}", stdout(&o));
    assert_eq!(e.matches("no two-phase upper bound").count(), 1, "{e}");
    (dir, e)
}

/// Trap 3: the two-phase tables serve only the optional upper bound. A read-only directory
/// that holds the set, or one where their files cannot be written, gives the optimal solve
/// without the bound, said once; nothing is built in vain where nothing can be written.
#[test]
fn the_upper_bound_never_stops_a_solve() {
    // Read-only: for root too, by running as nobody.
    let (_, e) = solve_without_bound_tables("bound-read-only", true, || {
        if is_root() {
            // SAFETY: plain system calls on this child's own ids.
            unsafe {
                if libc::setgid(65534) != 0 || libc::setuid(65534) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
            }
        }
        Ok(())
    });
    assert!(e.contains("cannot be written"), "{e}");
    assert!(!e.contains("twophase: building"), "built in vain: {e}");
    // Writes that fail midway (a file-size limit stands for a full disk): the same.
    let (full, _) = solve_without_bound_tables("bound-full", false, small_files);
    let names: Vec<String> = std::fs::read_dir(&full)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("twophase"))
        .collect();
    assert!(names.is_empty(), "half-written files left: {names:?}");
}

/// Trap 4: no solution within the limit is exit 3 for both solvers, distinct from success.
#[test]
fn no_solution_within_the_limit_is_exit_3() {
    let d = korf6_dir();
    let o = optcube(&[
        "solve",
        "R U F",
        "--set",
        "korf6",
        "--pdb-dir",
        d,
        "--max-depth",
        "2",
    ]);
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("no solution of <= 2 moves"),
        "{}",
        stdout(&o)
    );
    let json = [
        "solve",
        "R U F",
        "--set",
        "korf6",
        "--pdb-dir",
        d,
        "--max-depth",
        "2",
        "--json",
    ];
    let o = optcube(&json);
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert!(v["solution"].is_null() && v["lower_bound"] == 3, "{v}");
    // Within the limit: 0.
    let o = optcube(&[
        "solve",
        "R U F",
        "--set",
        "korf6",
        "--pdb-dir",
        d,
        "--max-depth",
        "3",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let tp = test_dir("twophase-limit");
    let tp = tp.to_str().unwrap();
    let scramble = "R U F D L B R2 U2";
    let o = optcube(&[
        "solve",
        scramble,
        "--solver",
        "twophase",
        "--pdb-dir",
        tp,
        "--max-length",
        "3",
        "--timeout",
        "0.5",
    ]);
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    let o = optcube(&["solve", scramble, "--solver", "twophase", "--pdb-dir", tp]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}

/// Trap 5 and 11: a `--file` with no positions, or with a line that is not UTF-8, is refused
/// (exit 2) before any table is loaded or built, naming the file and the line.
#[test]
fn empty_and_undecodable_files_are_refused() {
    let dir = test_dir("files");
    let tables = dir.join("tables");
    let t = tables.to_str().unwrap();
    for (name, text) in [
        ("empty.txt", &b""[..]),
        ("comments.txt", &b"# nothing here\n\n   # nor here\n"[..]),
    ] {
        let f = dir.join(name);
        std::fs::write(&f, text).unwrap();
        let o = optcube(&["solve", "--file", f.to_str().unwrap(), "--pdb-dir", t]);
        assert_eq!(o.status.code(), Some(2), "{name}: {}", stderr(&o));
        assert!(stderr(&o).contains("holds no positions"), "{}", stderr(&o));
        assert!(stderr(&o).contains(name), "{}", stderr(&o));
        assert!(!tables.exists(), "{name}: tables touched");
    }
    let f = dir.join("latin1.txt");
    std::fs::write(&f, b"R U\n# caf\xe9\nF \xff D\n").unwrap();
    let o = optcube(&["solve", "--file", f.to_str().unwrap(), "--pdb-dir", t]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let e = stderr(&o);
    assert!(
        e.contains("latin1.txt:2: not UTF-8") && e.contains("latin1.txt:3: not UTF-8"),
        "{e}"
    );
    assert!(!e.contains(":1:"), "{e}");
}

/// Trap 9: concurrent first uses build each table once: one process builds, the others wait
/// for it (saying so) and load its files.
#[test]
fn concurrent_first_uses_build_once() {
    let dir = test_dir("concurrent");
    let d = dir.to_str().unwrap().to_string();
    let runs: Vec<_> = (0..3)
        .map(|_| {
            let d = d.clone();
            std::thread::spawn(move || {
                optcube(&[
                    "solve",
                    "R U F",
                    "--set",
                    "corners",
                    "--pdb-dir",
                    &d,
                    "--no-upper-bound",
                    "--no-successors",
                    "--threads",
                    "1",
                ])
            })
        })
        .collect();
    let outs: Vec<Output> = runs.into_iter().map(|r| r.join().unwrap()).collect();
    for o in &outs {
        assert!(o.status.success(), "{}", stderr(o));
        assert!(stdout(o).contains("3 moves, optimal"), "{}", stdout(o));
    }
    let builders = outs
        .iter()
        .filter(|o| stderr(o).contains("saved to"))
        .count();
    assert_eq!(
        builders,
        1,
        "{:#?}",
        outs.iter().map(stderr).collect::<Vec<_>>()
    );
    // Those that came while it built said whom they waited for (its own words, unless they
    // looked in the instant between its lock and its writing them).
    for o in outs.iter().filter(|o| stderr(o).contains("waiting for")) {
        let e = stderr(o);
        assert!(
            e.contains("(building corners since") || e.contains("waiting for another process"),
            "{e}"
        );
    }
}

/// Trap 10: a temporary file is a live writer's while its lock is held, whatever process id
/// its name carries (pid namespaces repeat them): a build beside it leaves it alone; once
/// the lock is gone it is stale, listed and removed.
#[test]
fn a_live_writers_temporary_file_is_kept() {
    let dir = test_dir("live-temporary");
    let d = dir.to_str().unwrap();
    // Process ids are below 2^22 on Linux: by its name, this writer is gone.
    let tmp = dir.join("edges6a.pdb.tmp-4194999");
    std::fs::write(&tmp, b"being written").unwrap();
    let writer = std::fs::File::open(&tmp).unwrap();
    writer.lock().unwrap();
    let o = optcube(&["pdb", "build", "--set", "edges6a", "--dir", d]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(tmp.exists(), "a live writer's temporary was removed");
    let o = optcube(&["pdb", "verify", "--dir", d]);
    assert!(
        !stderr(&o).contains("tmp-4194999"),
        "listed as stale: {}",
        stderr(&o)
    );
    drop(writer);
    let o = optcube(&["pdb", "verify", "--dir", d]);
    assert!(stderr(&o).contains("tmp-4194999"), "{}", stderr(&o));
    let o = optcube(&["pdb", "build", "--set", "edges6a", "--dir", d, "--force"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(!tmp.exists(), "the stale temporary was kept");
}

/// The corner successor table is derived once and kept beside the tables it comes from: a
/// second solve reads it back and searches the same nodes; a damaged copy stops the solve
/// with exit 2, naming the file (never used, never replaced) and the command that derives it
/// again once it is deleted.
#[test]
fn the_kept_successor_table_is_read_back_and_checked() {
    let dir = korf6_copy("successors-kept");
    let d = dir.to_str().unwrap();
    let args = [
        "solve",
        "R U F D2 L' B U2",
        "--set",
        "korf6",
        "--pdb-dir",
        d,
        "--no-upper-bound",
        "--json",
        "--threads",
        "1",
    ];
    let json = |o: &Output| -> serde_json::Value {
        assert!(o.status.success(), "{}", stderr(o));
        serde_json::from_str(stdout(o).trim()).unwrap()
    };
    let first = optcube(&args);
    let (a, e) = (json(&first), stderr(&first));
    assert!(e.contains("derived and kept"), "{e}");
    let kept: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|f| f.unwrap().path())
        .filter(|p| {
            let name = p.file_name().unwrap().to_string_lossy();
            name.starts_with("corner-successors-") && name.ends_with(".pdb")
        })
        .collect();
    assert_eq!(kept.len(), 1, "{kept:?}");
    let second = optcube(&args);
    let (b, e) = (json(&second), stderr(&second));
    assert!(e.contains("corner successor table read"), "{e}");
    assert_eq!((&a["solution"], &a["nodes"]), (&b["solution"], &b["nodes"]));
    assert!(a["nodes"].as_u64().unwrap() > 0);

    let mut bytes = std::fs::read(&kept[0]).unwrap();
    bytes[4096 + 12345] ^= 0x10;
    std::fs::write(&kept[0], &bytes).unwrap();
    let o = optcube(&args);
    let e = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{e}");
    let name = kept[0].file_name().unwrap().to_string_lossy().into_owned();
    assert!(e.contains(&name) && e.contains("checksum"), "{e}");
    assert_eq!(
        std::fs::read(&kept[0]).unwrap(),
        bytes,
        "the damaged file was replaced"
    );
    // The error's advice is a command, and it works: once the file is deleted, it derives
    // and keeps the table again.
    let advice =
        format!("delete it and rebuild with `optcube solve \"R U\" --set korf6 --pdb-dir {d}`");
    assert!(e.contains(&advice), "{e}");
    std::fs::remove_file(&kept[0]).unwrap();
    let o = optcube(&["solve", "R U", "--set", "korf6", "--pdb-dir", d]);
    assert!(o.status.success() && kept[0].exists(), "{}", stderr(&o));
    assert_eq!(json(&optcube(&args))["nodes"], a["nodes"]);

    // Where it cannot be written (a file-size limit stands for a full disk), the solve derives
    // the table all the same, says it was not kept, and leaves no half-written file.
    let full = korf6_copy("successors-full");
    let f = full.to_str().unwrap();
    let args: Vec<&str> = (args.iter()).map(|&a| if a == d { f } else { a }).collect();
    let o = optcube_with(&args, small_files);
    let (c, e) = (json(&o), stderr(&o));
    assert!(
        e.contains("corner successor table derived (not kept"),
        "{e}"
    );
    assert_eq!((&a["solution"], &a["nodes"]), (&c["solution"], &c["nodes"]));
    let left: Vec<String> = std::fs::read_dir(&full)
        .unwrap()
        .map(|f| f.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("corner-successors"))
        .collect();
    assert!(left.is_empty(), "half-written files left: {left:?}");
}
