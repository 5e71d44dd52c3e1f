//! End-to-end tests of the table files and of interrupts: `pdb info`, damaged tables and
//! checkpoints, stale temporaries, Ctrl-C during a search or a build, the `sym48` set, and the
//! registry's lists in the help and the docs.

mod common;

use common::{ball, korf6_dir, optcube, optcube_json, stderr, stdout, test_dir};
use optcube::cube::{Cube, parse_moves};
use std::path::Path;

#[test]
fn pdb_info_json_and_damaged_file() {
    let dir = Path::new(korf6_dir());
    let o = optcube(&["pdb", "info", "--json", "--dir", dir.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let rows: Vec<serde_json::Value> = stdout(&o)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let corners = rows
        .iter()
        .find(|r| r["name"] == "corners")
        .expect("corners listed");
    assert_eq!(corners["entries"], 88_179_840u64);
    assert_eq!(corners["valid"], true);
    let h: Vec<u64> = corners["histogram"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap())
        .collect();
    assert_eq!(
        h,
        [
            1, 18, 243, 2874, 28000, 205416, 1168516, 5402628, 20776176, 45391616, 15139616, 64736
        ]
    );

    // A damaged copy in another directory is refused by verify.
    let bad = test_dir("damaged-verify");
    let mut bytes = std::fs::read(dir.join("corners.pdb")).unwrap();
    bytes[4096 + 1000] ^= 0xff;
    std::fs::write(bad.join("corners.pdb"), &bytes).unwrap();
    let o = optcube(&["pdb", "verify", "--dir", bad.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stdout(&o).contains("checksum"), "{}", stdout(&o));
}

/// A table file that cannot be used — one byte flipped, truncated, another table's under its
/// name, junk — stops `solve` with exit 2 and a message naming the file, what is wrong and the
/// command that rebuilds it; the file is left as it was (never rebuilt behind the user's
/// back). `pdb build` replaces it and says so.
#[test]
fn damaged_tables_are_reported_never_rebuilt() {
    let good = Path::new(korf6_dir());
    let corners = std::fs::read(good.join("corners.pdb")).unwrap();
    let mut flipped = corners.clone();
    flipped[4096 + 1000] ^= 0xff;
    let truncated = corners[..corners.len() - 100].to_vec();
    let other = std::fs::read(good.join("edges6a.pdb")).unwrap();
    for (case, bytes, what) in [
        ("flipped", &flipped, "checksum"),
        ("truncated", &truncated, "size"),
        ("renamed", &other, "corners"),
    ] {
        let dir = test_dir(&format!("damaged-{case}"));
        std::fs::write(dir.join("corners.pdb"), bytes).unwrap();
        let d = dir.to_str().unwrap();
        let o = optcube(&[
            "solve",
            "R U F",
            "--set",
            "korf6",
            "--pdb-dir",
            d,
            "--no-upper-bound",
        ]);
        let e = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{case}: {e}");
        assert!(e.contains("corners.pdb") && e.contains(what), "{case}: {e}");
        assert!(e.contains("optcube pdb build --set corners"), "{case}: {e}");
        assert_eq!(
            &std::fs::read(dir.join("corners.pdb")).unwrap(),
            bytes,
            "{case}"
        );
        // Nothing else was built.
        assert!(!dir.join("edges6a.pdb").exists(), "{case}");
    }
    // A junk coset table makes the default set stop at it, not rebuild it.
    let dir = test_dir("damaged-default");
    std::fs::write(dir.join("sym48e0.pdb"), b"not a table").unwrap();
    let d = dir.to_str().unwrap();
    let o = optcube(&["solve", "R U F", "--pdb-dir", d, "--no-upper-bound"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("sym48e0.pdb"), "{}", stderr(&o));
    assert_eq!(
        std::fs::read(dir.join("sym48e0.pdb")).unwrap(),
        b"not a table"
    );
    // `pdb build` replaces a damaged file and says why.
    let dir = test_dir("damaged-build");
    std::fs::write(dir.join("edges6a.pdb"), &flipped[..5000]).unwrap();
    let d = dir.to_str().unwrap();
    let o = optcube(&["pdb", "build", "--set", "edges6a", "--dir", d]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("replaced the invalid file"),
        "{}",
        stderr(&o)
    );
    assert_eq!(std::fs::read(dir.join("edges6a.pdb")).unwrap(), other);
}

/// A damaged checkpoint of an interrupted build is refused with exit 2, naming the file, and
/// is neither used nor removed; `pdb verify` lists it. (A good one resumes: the library test
/// `a_resumed_build_gives_the_same_table`.)
#[test]
fn a_damaged_checkpoint_is_refused() {
    let dir = test_dir("damaged-checkpoint");
    let d = dir.to_str().unwrap();
    let partial = dir.join("sym48e5.pdb.partial");
    std::fs::write(&partial, b"half a checkpoint").unwrap();
    let o = optcube(&["pdb", "build", "--set", "sym48e5", "--dir", d]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("sym48e5.pdb.partial") && stderr(&o).contains("delete it"),
        "{}",
        stderr(&o)
    );
    assert!(
        !stderr(&o).contains("coset classes"),
        "built: {}",
        stderr(&o)
    );
    assert_eq!(std::fs::read(&partial).unwrap(), b"half a checkpoint");
    let o = optcube(&["pdb", "verify", "--dir", d]);
    assert!(stderr(&o).contains("sym48e5.pdb.partial"), "{}", stderr(&o));
}

/// The leftovers of an interrupted write are listed by `pdb verify`, and the next build of
/// the same table removes them; a directory that cannot be written is refused before any
/// table is built.
#[test]
fn stale_temporaries_and_unwritable_directories() {
    let dir = test_dir("stale");
    let d = dir.to_str().unwrap();
    let o = optcube(&["pdb", "build", "--set", "edges6a", "--dir", d]);
    assert!(o.status.success(), "{}", stderr(&o));
    // Process ids are below 2^22 on Linux: this one is never running.
    let stale = dir.join("edges6a.pdb.tmp-4194999");
    std::fs::write(&stale, b"half a table").unwrap();
    let o = optcube(&["pdb", "verify", "--dir", d]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("edges6a.pdb.tmp-4194999"),
        "{}",
        stderr(&o)
    );
    let o = optcube(&["pdb", "build", "--set", "edges6a", "--force", "--dir", d]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(!stale.exists(), "the stale temporary was removed");
    // /proc exists and takes no files, not even from root.
    let o = optcube(&["pdb", "build", "--set", "edges6a", "--dir", "/proc"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("cannot write tables into /proc"),
        "{}",
        stderr(&o)
    );
    assert!(
        !stderr(&o).contains("entries"),
        "built before failing: {}",
        stderr(&o)
    );
}

/// Runs `optcube args` and sends SIGINT as soon as a line contains `mark`.
fn interrupt_after(args: &[&str], mark: &str) -> (std::process::ExitStatus, String, String) {
    common::signal_after(
        Path::new("."),
        args,
        mark,
        std::time::Duration::ZERO,
        libc::SIGINT,
    )
}

/// Ctrl-C during a proof ends it cleanly: exit 130 and the bound proved so far.
#[test]
fn ctrl_c_during_the_search_reports_the_proved_bound() {
    // 16 moves optimal: korf6 needs minutes for it.
    let scramble = "R U2 F' L D B' R2 U F' D2 L' B U R' F2 D";
    let (status, out, err) = interrupt_after(
        &[
            "solve",
            scramble,
            "--pdb-dir",
            korf6_dir(),
            "--set",
            "korf6",
        ],
        "upper bound:",
    );
    assert_eq!(status.code(), Some(130), "{out}{err}");
    assert!(
        out.contains("interrupted: no solution of fewer than"),
        "{out}"
    );
}

/// Before the search begins, Ctrl-C ends the program at once, also while a table is being
/// built: the table in progress is never saved.
#[test]
fn ctrl_c_during_a_table_build_ends_the_program() {
    use std::os::unix::process::ExitStatusExt;
    let dir = common::test_dir("ctrl-c-build");
    let (status, out, err) = interrupt_after(
        &[
            "solve",
            "R U F",
            "--pdb-dir",
            dir.to_str().unwrap(),
            "--set",
            "korf6",
            "--no-upper-bound",
        ],
        // The corner table is built first; edges6a is being built when this line comes.
        "saved to",
    );
    assert_eq!(status.signal(), Some(libc::SIGINT), "{out}{err}");
    assert!(dir.join("corners.pdb").exists());
    assert!(!dir.join("edges6a.pdb").exists(), "{err}");
    assert!(!out.contains("solution"), "{out}");
}

/// The coset set: `pdb build --set sym48` writes sym48e0 and its fallbacks (info lists them), `solve`
/// and `stats lengths` without `--set` take it as the fastest set present and say so, and its
/// answers are optimal (checked against brute-force distances).
#[test]
fn sym48_set_builds_and_is_chosen_when_present() {
    let dir = test_dir("sym48");
    let d = dir.to_str().unwrap();
    let o = optcube(&[
        "pdb",
        "build",
        "--set",
        "sym48",
        "--dir",
        d,
        "--threads",
        "2",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let o = optcube(&["pdb", "info", "--json", "--dir", d]);
    let rows: Vec<serde_json::Value> = stdout(&o)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    // The coset table and its fallbacks, each a valid file.
    let mut names: Vec<&str> = rows.iter().map(|r| r["name"].as_str().unwrap()).collect();
    names.sort_unstable();
    // (The small sets' fallbacks: sized to their coset table.)
    assert_eq!(names, ["corners48", "edges5a", "edges5b", "sym48e0"]);
    assert!(rows.iter().all(|r| r["valid"] == true), "{rows:?}");
    let row = rows.iter().find(|r| r["name"] == "sym48e0").unwrap();
    assert_eq!(row["entries"], 117_567_450u64);
    assert_eq!(row["valid"], true);
    assert_eq!(row["bits_per_entry"], 2, "{row}");
    let scramble = "R U2 F' L D B' R2 U";
    let cube = Cube::from_moves(&parse_moves(scramble).unwrap());
    for extra in [None, Some("--switch-sides")] {
        let mut args = vec![
            "solve",
            scramble,
            "--pdb-dir",
            d,
            "--json",
            "--no-upper-bound",
        ];
        args.extend(extra);
        let (r, err) = optcube_json(&args);
        assert!(err.contains("set: sym48 ("), "{err}");
        assert_eq!(r["optimal"], true);
        assert_eq!(
            Some(r["length"].as_u64().unwrap() as u8),
            ball().distance(&cube),
            "{extra:?}"
        );
        let solution = parse_moves(r["solution"].as_str().unwrap()).unwrap();
        assert!(cube.apply_seq(&solution).is_solved(), "{extra:?}");
    }
    let study = dir.join("study.jsonl");
    let o = optcube(&[
        "stats",
        "lengths",
        "--moves",
        "7",
        "--count",
        "3",
        "--seed",
        "5",
        "--pdb-dir",
        d,
        "--threads",
        "1",
        "--out",
        study.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains("set: sym48 ("), "{}", stderr(&o));
    let text = std::fs::read_to_string(&study).unwrap();
    assert_eq!(text.lines().count(), 3, "{text}");
    for line in text.lines() {
        let r: serde_json::Value = serde_json::from_str(line).unwrap();
        assert_eq!(r["set"], "sym48", "{line}");
        let cube = Cube::from_facelets(r["input"].as_str().unwrap()).unwrap();
        assert_eq!(
            Some(r["length"].as_u64().unwrap() as u8),
            ball().distance(&cube),
            "{line}"
        );
    }
}

/// `sym48e4` is read off a BFS over 16-symmetry classes and `sym48e6` marked from a BFS over
/// all-edges cosets: asking for either by IDDFS is refused with an error naming the table and
/// the way out, before any memory is taken or file written.
#[test]
fn coset_variants_refuse_iddfs() {
    for name in ["sym48e4", "sym48e6"] {
        let dir = test_dir(&format!("{name}-iddfs"));
        let d = dir.to_str().unwrap();
        let o = optcube(&[
            "pdb", "build", "--set", name, "--method", "iddfs", "--dir", d,
        ]);
        assert!(!o.status.success());
        let err = stderr(&o);
        assert!(err.contains(name) && err.contains("--method bfs"), "{err}");
        assert!(!dir.join(format!("{name}.pdb")).exists());
    }
}

/// Every table the program can write is named where a newcomer looks: each pattern in `pdb
/// build --help`, in `pdb/README.md` and in `docs/tables.md`; each other solver's table file
/// in `pdb/README.md`; every set name in `solve --help`.
#[test]
fn every_table_is_in_the_help_and_the_docs() {
    use optcube::pdb::Pattern;
    use optcube::solvers::{thistlethwaite, twophase};
    let help = stdout(&optcube(&["pdb", "build", "--help"]));
    let solve_help = stdout(&optcube(&["solve", "--help"]));
    let readme = std::fs::read_to_string("pdb/README.md").unwrap();
    let tables = std::fs::read_to_string("docs/tables.md").unwrap();
    // Words of the help: names end at a comma, space or bracket.
    let words = |text: &str| -> Vec<String> {
        text.split(|c: char| !(c.is_alphanumeric() || c == '-' || c == '_'))
            .map(str::to_string)
            .collect()
    };
    let (help_words, solve_words) = (words(&help), words(&solve_help));
    for p in Pattern::ALL {
        let name = p.name();
        assert!(
            help_words.iter().any(|w| w == name),
            "pdb build --help lacks {name}"
        );
        assert!(
            readme.contains(&format!("`{name}.pdb`")),
            "pdb/README.md lacks {name}"
        );
        assert!(
            tables.contains(&format!("`{name}`")),
            "docs/tables.md lacks {name}"
        );
    }
    for set in optcube::pdb::set::SETS.map(|s| s.name) {
        assert!(
            solve_words.iter().any(|w| w == set),
            "solve --help lacks the set {set}"
        );
        assert!(
            tables.contains(&format!("`{set}`")),
            "docs/tables.md lacks the set {set}"
        );
    }
    let others = (twophase::TABLE_NAMES.iter())
        .chain(thistlethwaite::PHASE_NAMES.iter())
        .chain([&optcube::pdb::ru::TABLE_NAME]);
    for name in others {
        assert!(
            readme.contains(&format!("`{name}.pdb`")),
            "pdb/README.md lacks {name}"
        );
    }
}

/// `pdb sets` lists every set of the registry with its tables, and `--tables` resolves names
/// as `--set` does (scripts read it instead of copying the list); an unknown name is exit 2.
#[test]
fn pdb_sets_lists_the_registry() {
    let o = optcube(&["pdb", "sets"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    for s in optcube::pdb::set::SETS {
        let tables: Vec<&str> = s.tables.iter().map(|p| p.name()).collect();
        assert!(
            out.contains(&format!("{}: {}\n", s.name, tables.join(" "))),
            "{out}"
        );
    }
    let o = optcube(&["pdb", "sets", "--tables", "sym48e8,edges7a"]);
    assert_eq!(
        stdout(&o),
        "sym48e8\ncorners\nedges6a\nedges6b\nedges7a\n",
        "{}",
        stderr(&o)
    );
    let o = optcube(&["pdb", "sets", "--tables", "korf7"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("unknown table set \"korf7\""),
        "{}",
        stderr(&o)
    );
    let o = optcube(&["pdb", "sets", "--json"]);
    let lines: Vec<serde_json::Value> = (stdout(&o).lines())
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), optcube::pdb::set::SETS.len());
    assert!(
        lines
            .iter()
            .any(|v| v["name"] == "huge" && v["tables"][0] == "phase1sorted")
    );
}
