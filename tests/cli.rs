//! End-to-end tests of the `optcube` binary: facelets, scrambles, table files, solving (with the
//! `korf6` set built once by the CLI into a temporary directory), JSON output and exit codes.

mod common;

use common::{korf6_dir, optcube, optcube_json, stderr, stdout, test_dir};
use optcube::cube::{Cube, parse_moves};
use optcube::search::brute::Ball;
use std::path::Path;
use std::sync::OnceLock;

fn ball() -> &'static Ball {
    static B: OnceLock<Ball> = OnceLock::new();
    B.get_or_init(|| Ball::new(5))
}

#[test]
fn facelets_of_r_match_kociemba() {
    let o = optcube(&["facelets", "R"]);
    assert!(o.status.success());
    assert_eq!(
        stdout(&o).trim(),
        "UUFUUFUUFRRRRRRRRRFFDFFDFFDDDBDDBDDBLLLLLLLLLUBBUBBUBB"
    );
}

#[test]
fn facelets_check_accepts_and_rejects() {
    let ok = optcube(&[
        "facelets",
        "--check",
        "UUUUUUUUURRRRRRRRRFFFFFFFFFDDDDDDDDDLLLLLLLLLBBBBBBBBB",
    ]);
    assert_eq!(ok.status.code(), Some(0));
    let bad = optcube(&[
        "facelets",
        "--check",
        "UUUUUUUUURRRRRRRRRFFFFFFFFFDDDDDDDDDLLLLLLLLLBBBBBBBBU",
    ]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(stderr(&bad).contains("colour"), "{}", stderr(&bad));
}

#[test]
fn bad_scramble_names_the_token() {
    let o = optcube(&["facelets", "R U3 F"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("\"U3\""), "{}", stderr(&o));
    let o = optcube(&["solve", "R Q", "--pdb-dir", "/nonexistent"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("\"Q\""), "{}", stderr(&o));
}

#[test]
fn random_scrambles_are_reproducible_and_valid() {
    let a = optcube(&["scramble", "--random", "5", "--seed", "42"]);
    let b = optcube(&["scramble", "--random", "5", "--seed", "42"]);
    assert!(a.status.success());
    assert_eq!(stdout(&a), stdout(&b));
    let lines: Vec<String> = stdout(&a).lines().map(String::from).collect();
    assert_eq!(lines.len(), 5);
    for l in &lines {
        assert!(Cube::from_facelets(l).is_ok(), "{l}");
    }
    let c = optcube(&["scramble", "--random", "5", "--seed", "43"]);
    assert_ne!(stdout(&a), stdout(&c));
}

/// `scramble --subgroup`: coset-subgroup elements have every corner in its tetrad and
/// twisted right and every edge in its slice; half-turn elements also have no edge flipped;
/// both are valid, reproducible from the seed, and not all alike; a bad subgroup is refused.
#[test]
fn subgroup_scrambles_stay_in_their_subgroup() {
    let tetrad = |p: u8| matches!(p, 0 | 2 | 5 | 7);
    let slice = |p: u8| if p >= 8 { 0 } else { 2 - (p & 1) };
    for (name, flips) in [("coset", true), ("half-turns", false)] {
        let args = [
            "scramble",
            "--random",
            "20",
            "--seed",
            "9",
            "--subgroup",
            name,
        ];
        let a = optcube(&args);
        assert!(a.status.success(), "{}", stderr(&a));
        assert_eq!(stdout(&a), stdout(&optcube(&args)));
        let cubes: Vec<Cube> = stdout(&a)
            .lines()
            .map(|l| Cube::from_facelets(l).unwrap())
            .collect();
        assert_eq!(cubes.len(), 20);
        let mut flipped = 0;
        for c in &cubes {
            for i in 0..8 {
                assert!(tetrad(c.corner_perm(i)) == tetrad(i as u8) && c.corner_ori(i) == 0);
            }
            for i in 0..12 {
                assert_eq!(slice(c.edge_perm(i)), slice(i as u8));
                flipped += c.edge_ori(i) as usize;
            }
        }
        assert_eq!(flipped > 0, flips, "{name}");
        let distinct: std::collections::HashSet<_> = cubes.iter().collect();
        assert!(distinct.len() > 15, "{name}: {} distinct", distinct.len());
    }
    let o = optcube(&["scramble", "--random", "1", "--subgroup", "corners"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("corners"), "{}", stderr(&o));
}

/// Positions of known optimal length (brute force, up to 10 moves) are solved by the CLI with
/// the korf6 tables: length, validity and the JSON fields; 1 and 2 threads, `--sym` and the
/// phase-1 table (built into the same directory on first use) agree.
#[test]
fn solve_json_batch_is_optimal() {
    let scrambles = [
        "R U2 F' L",
        "R U F D L B R2 U2",
        "F2 R' D B2 L U' R F2 D'",
        "U R2 F B R B2 R U2 L B2",
        "R2 L2 U2 D2 F2 B2",
    ];
    let file = common::scratch().join("batch.txt");
    let mut text = String::from("# test batch\n\n");
    for s in &scrambles {
        text += s;
        text += "\n";
    }
    std::fs::write(&file, &text).unwrap();
    let dir = korf6_dir();
    let mut lengths = Vec::new();
    for (threads, sym, set) in [
        ("1", false, "korf6"),
        ("2", false, "korf6"),
        ("2", true, "korf6"),
        ("2", false, "phase1,corners"),
    ] {
        let mut args = vec![
            "solve",
            "--file",
            file.to_str().unwrap(),
            "--json",
            "--set",
            set,
            "--pdb-dir",
            dir,
            "--threads",
            threads,
        ];
        if sym {
            args.push("--sym");
        }
        let o = optcube(&args);
        assert!(o.status.success(), "{}", stderr(&o));
        let out = stdout(&o);
        let rows: Vec<serde_json::Value> = out
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(rows.len(), scrambles.len());
        let mut ls = Vec::new();
        for (row, s) in rows.iter().zip(scrambles) {
            let cube = Cube::from_moves(&parse_moves(s).unwrap());
            assert_eq!(row["input"], s);
            let sol = parse_moves(row["solution"].as_str().unwrap()).unwrap();
            assert!(cube.apply_seq(&sol).is_solved(), "{s}");
            let expected = ball().distance(&cube).unwrap() as u64;
            assert_eq!(row["length"].as_u64(), Some(expected), "{s}");
            assert_eq!(row["optimal"], true);
            assert!(row["nodes"].as_u64().unwrap() > 0);
            assert!(row["seconds"].as_f64().unwrap() >= 0.0);
            ls.push(expected);
        }
        lengths.push(ls);
    }
    assert_eq!(lengths[0], lengths[1]);
    assert_eq!(lengths[0], lengths[2]);
    assert_eq!(lengths[0], lengths[3]);
    assert_eq!(lengths[0][4], 6, "the checkerboard needs 6 moves");
}

#[test]
fn solved_input_gives_empty_solution() {
    let dir = korf6_dir();
    let (v, _) = optcube_json(&[
        "solve",
        "--facelets",
        "UUUUUUUUURRRRRRRRRFFFFFFFFFDDDDDDDDDLLLLLLLLLBBBBBBBBB",
        "--json",
        "--set",
        "korf6",
        "--pdb-dir",
        dir,
    ]);
    assert_eq!(v["solution"], "");
    assert_eq!(v["length"], 0);
    assert_eq!(v["optimal"], true);
}

#[test]
fn text_output_and_max_depth() {
    let dir = korf6_dir();
    let o = optcube(&[
        "solve",
        "R U F D L B",
        "--set",
        "korf6",
        "--pdb-dir",
        dir,
        "-v",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("(6 moves, optimal)"), "{out}");
    assert!(out.contains("bound  6:"), "{out}");
    let o = optcube(&[
        "solve",
        "R U F D L B",
        "--set",
        "korf6",
        "--pdb-dir",
        dir,
        "--max-depth",
        "4",
    ]);
    // No solution within the limit: its own exit status (3), not success.
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("no solution of <= 4 moves"),
        "{}",
        stdout(&o)
    );
}

/// The solver derives the corner successor table unless told not to; either way it proves the
/// same length and searches the same complete iterations (the last one may stop elsewhere).
#[test]
fn no_successors_searches_the_same_tree() {
    let dir = korf6_dir();
    let run = |extra: &[&str]| {
        let mut args = vec![
            "solve",
            "R U2 F' L D B' R2 U F' D2",
            "--set",
            "korf6",
            "--pdb-dir",
            dir,
            "-v",
            // A witness ends a proof early or not by the clock (`search::witness`): without
            // it, both runs have the same complete iterations.
            "--no-upper-bound",
        ];
        args.extend_from_slice(extra);
        let o = optcube(&args);
        assert!(o.status.success(), "{}", stderr(&o));
        let out = stdout(&o);
        let solution = out.lines().find(|l| l.starts_with("solution:")).unwrap();
        let length = solution.split('(').nth(1).unwrap().to_string();
        let mut bounds: Vec<String> = out
            .lines()
            .filter(|l| l.trim_start().starts_with("bound"))
            // bound, nodes; not the seconds
            .map(|l| l.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
            .collect();
        bounds.pop();
        // `tables: NAMES, N bytes in memory`
        let err = stderr(&o);
        let tables = err.lines().find(|l| l.starts_with("tables: ")).unwrap();
        let bytes: u64 = tables
            .rsplit(", ")
            .next()
            .unwrap()
            .split(' ')
            .next()
            .unwrap()
            .parse()
            .unwrap();
        (
            (
                // derived, or read where an earlier solve kept it
                err.contains("corner successor table derived")
                    || err.contains("corner successor table read"),
                length,
                bounds,
            ),
            bytes,
        )
    };
    let ((derived, length, bounds), with) = run(&[]);
    assert!(derived);
    assert!(
        length.contains("optimal") && bounds.len() >= 2,
        "{length} {bounds:?}"
    );
    let (plain, without) = run(&["--no-successors"]);
    assert_eq!(plain, (false, length, bounds));
    // The successor table counts among the tables in memory.
    assert_eq!(with - without, optcube::pdb::successors::BYTES);
    assert!(without > 0);
}

/// `--no-symmetric-units` searches every work unit of a symmetric position: the same length,
/// more nodes ("four spots" is fixed by several symmetries).
#[test]
fn symmetric_units_can_be_turned_off() {
    let run = |extra: &[&str]| {
        let mut args = vec![
            "solve",
            "F2 B2 U D' R2 L2 U D'",
            "--set",
            "korf6",
            "--pdb-dir",
            korf6_dir(),
            "--json",
            "--no-upper-bound",
        ];
        args.extend_from_slice(extra);
        let (v, _) = optcube_json(&args);
        assert_eq!(v["optimal"], true);
        (v["length"].as_u64().unwrap(), v["nodes"].as_u64().unwrap())
    };
    let (len_one, nodes_one) = run(&[]);
    let (len_all, nodes_all) = run(&["--no-symmetric-units"]);
    assert_eq!(len_one, len_all);
    assert!(nodes_one < nodes_all, "{nodes_one} against {nodes_all}");
}

/// `--split-depth` moves the work units' roots: the same optimal length, and every complete
/// iteration generates the same nodes (the split's and the units' together); a depth beyond
/// 6 is refused, naming the value.
#[test]
fn split_depth_changes_only_the_units() {
    let run = |depth: &str| {
        let (v, _) = optcube_json(&[
            "solve",
            "R U2 F' L D B' R2 U F' D2 L' B",
            "--set",
            "korf6",
            "--pdb-dir",
            korf6_dir(),
            "--json",
            "--no-upper-bound",
            "--split-depth",
            depth,
        ]);
        assert_eq!(v["optimal"], true);
        let mut iterations: Vec<u64> = (v["iterations"].as_array().unwrap().iter())
            .map(|i| i["nodes"].as_u64().unwrap())
            .collect();
        iterations.pop(); // the last one ends at its first solution
        (v["length"].as_u64().unwrap(), iterations)
    };
    let (len, complete) = run("4");
    assert!(complete.len() >= 3, "{complete:?}");
    for depth in ["0", "2", "5"] {
        assert_eq!(run(depth), (len, complete.clone()), "split depth {depth}");
    }
    let o = optcube(&["solve", "R U", "--split-depth", "7"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("'7'"), "{}", stderr(&o));
}

#[test]
fn bad_file_lines_are_named() {
    let file = common::scratch().join("bad.txt");
    std::fs::write(&file, "R U\nR X2\n").unwrap();
    let o = optcube(&[
        "solve",
        "--file",
        file.to_str().unwrap(),
        "--pdb-dir",
        "/nonexistent",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains(":2:") && stderr(&o).contains("\"X2\""),
        "{}",
        stderr(&o)
    );
}

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

/// Without `--set` the choice and its reason are said: in an empty directory, the fastest set
/// whose build fits in memory, with the expected build time; `--json` names the set used.
#[test]
fn the_default_set_is_said() {
    let empty = test_dir("choose");
    let o = optcube(&["pdb", "choose", "--dir", empty.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let set = stdout(&o).trim().to_string();
    assert!(
        ["sym48e6", "sym48e4", "huge", "sym48"].contains(&set.as_str()),
        "{set}"
    );
    let e = stderr(&o);
    assert!(
        e.contains("no tables") && e.contains("min on 2 cores") && e.contains(&set),
        "{e}"
    );
    // Nothing was built by choosing.
    assert_eq!(std::fs::read_dir(&empty).unwrap().count(), 0);
    let (v, _) = optcube_json(&[
        "solve",
        "R U",
        "--set",
        "korf6",
        "--pdb-dir",
        korf6_dir(),
        "--json",
        "--no-upper-bound",
    ]);
    assert_eq!(v["set"], "korf6");
    assert!(v.get("set_reason").is_none(), "{v}");
}

/// What a position argument can be: a facelet string is read as facelets (and said so), an
/// empty scramble or none at all is an error, and so is an absurd thread count.
#[test]
fn position_argument_traps() {
    let scramble = "R U F' D2 L";
    let facelets = stdout(&optcube(&["facelets", scramble])).trim().to_string();
    assert_eq!(facelets.len(), 54);
    let d = korf6_dir();
    let (by_moves, _) = optcube_json(&[
        "solve",
        scramble,
        "--set",
        "korf6",
        "--pdb-dir",
        d,
        "--json",
    ]);
    let (by_facelets, err) = optcube_json(&[
        "solve",
        &facelets,
        "--set",
        "korf6",
        "--pdb-dir",
        d,
        "--json",
    ]);
    assert!(err.contains("facelet string"), "{err}");
    assert_eq!(by_facelets["length"], 5);
    assert_eq!(by_moves["length"], 5);
    let sol = parse_moves(by_facelets["solution"].as_str().unwrap()).unwrap();
    let cube = Cube::from_moves(&parse_moves(scramble).unwrap());
    assert!(cube.apply_seq(&sol).is_solved());
    for args in [vec!["solve"], vec!["solve", ""], vec!["solve", "  "]] {
        let o = optcube(&[&args[..], &["--pdb-dir", d]].concat());
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(stderr(&o).contains("facelet"), "{args:?}: {}", stderr(&o));
    }
    let o = optcube(&["solve", "R U", "--threads", "100000", "--pdb-dir", d]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("more than this machine can use"),
        "{}",
        stderr(&o)
    );
    let o = optcube(&["solve", "R U", "--threads", "0", "--pdb-dir", d]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn other_solvers_give_valid_solutions() {
    // Their tables go to the test's table directory (built there on first use).
    let dir = korf6_dir();
    for solver in ["thistlethwaite", "twophase"] {
        let (v, _) = optcube_json(&[
            "solve",
            "--solver",
            solver,
            "--json",
            "--pdb-dir",
            dir,
            "F2 R' D B2 L U' R F2 D' U R2 F B R B2",
        ]);
        let sol = parse_moves(v["solution"].as_str().unwrap()).unwrap();
        let cube = Cube::from_moves(&parse_moves("F2 R' D B2 L U' R F2 D' U R2 F B R B2").unwrap());
        assert!(cube.apply_seq(&sol).is_solved(), "{solver}");
        assert_eq!(v["optimal"], false);
        if solver == "twophase" {
            assert!(sol.len() <= 20);
        }
    }
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

/// `--all`, `--solutions N` and `--count`: the list is every canonical optimal sequence (the
/// brute-force enumeration), each checked here on the position, the same on 1 and 2 threads;
/// `--count` gives its number without the list; `--solutions 2` two of them; text output lists
/// them; another solver refuses the flags.
#[test]
fn all_optimal_solutions_on_the_command_line() {
    let dir = korf6_dir();
    // Symmetric and random: 6, 8 and 7 moves.
    for s in [
        "F2 B2 R2 L2 U2 D2",
        "U D' R L' F B' U D'",
        "R U2 F' L D' B2 R'",
    ] {
        let cube = Cube::from_moves(&parse_moves(s).unwrap());
        let d = ball().distance(&cube).unwrap();
        let want: Vec<String> = (ball().all_solutions(&cube, d).iter())
            .map(|m| optcube::cube::format_moves(m))
            .collect();
        let run = |extra: &[&str]| {
            let mut args = vec!["solve", s, "--set", "korf6", "--pdb-dir", dir, "--json"];
            args.extend_from_slice(extra);
            optcube_json(&args).0
        };
        let mut lists = Vec::new();
        for threads in ["1", "2"] {
            let v = run(&["--all", "--threads", threads]);
            let got: Vec<String> = (v["solutions"].as_array().unwrap().iter())
                .map(|x| x.as_str().unwrap().to_string())
                .collect();
            for m in &got {
                assert!(
                    cube.apply_seq(&parse_moves(m).unwrap()).is_solved(),
                    "{s}: {m}"
                );
            }
            assert_eq!(got, want, "{s} threads {threads}");
            assert_eq!(v["optimal_solutions"].as_u64(), Some(want.len() as u64));
            assert_eq!(v["solution"].as_str(), Some(want[0].as_str()));
            lists.push(got);
        }
        let v = run(&["--count"]);
        assert_eq!(
            v["optimal_solutions"].as_u64(),
            Some(want.len() as u64),
            "{s}"
        );
        assert!(v.get("solutions").is_none(), "--count lists no solutions");
        let two = run(&["--solutions", "2"]);
        let two = two["solutions"].as_array().unwrap();
        assert_eq!(two.len(), want.len().min(2));
        assert!(
            two.iter()
                .all(|m| want.iter().any(|w| w == m.as_str().unwrap()))
        );
    }
    let o = optcube(&[
        "solve",
        "F2 B2 R2 L2 U2 D2",
        "--all",
        "--set",
        "korf6",
        "--pdb-dir",
        dir,
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("optimal solutions: 6 (all)"), "{out}");
    assert!(out.contains("\n  F2 B2 R2 L2 U2 D2\n"), "{out}");
    // Up to symmetry: the checkerboard's six solutions are one class.
    let (v, _) = optcube_json(&[
        "solve",
        "F2 B2 R2 L2 U2 D2",
        "--all",
        "--unique",
        "symmetry",
        "--set",
        "korf6",
        "--pdb-dir",
        dir,
        "--json",
    ]);
    assert_eq!(v["optimal_solutions"].as_u64(), Some(6));
    assert_eq!(v["symmetry_classes"].as_u64(), Some(1));
    assert_eq!(v["solutions"].as_array().unwrap().len(), 1);
    let o = optcube(&["solve", "R U", "--unique", "symmetry", "--pdb-dir", dir]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--unique needs --all or --count"));
    let o = optcube(&["solve", "R U", "--solver", "twophase", "--count"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--count applies to the optimal solver only"));
}

/// `--moveset` with a set that is searched (not two adjacent faces): optimal within the
/// subset (`<R,U,F>` turns only, never shorter than the 18-turn distance), `moveset` in the
/// JSON as read; `--all` lists the same first solution; a position the subset cannot reach is
/// refused naming why, a bad token is named, and the flag does not go with `--unique`.
#[test]
fn moveset_solves_within_the_subset() {
    let dir = korf6_dir();
    let scramble = "R U F R' U' F' R U";
    let cube = Cube::from_moves(&parse_moves(scramble).unwrap());
    let args = [
        "solve",
        scramble,
        "--moveset",
        "R U F R' U'",
        "--set",
        "korf6",
        "--pdb-dir",
        dir,
        "--json",
    ];
    let (v, _) = optcube_json(&args);
    assert_eq!(v["moveset"], "U R F"); // faces in the order U R F D L B
    assert_eq!(v["set"], "korf6");
    let s = parse_moves(v["solution"].as_str().unwrap()).unwrap();
    assert!(cube.apply_seq(&s).is_solved());
    assert!(
        s.iter()
            .all(|m| "RUF".contains(m.to_string().chars().next().unwrap()))
    );
    assert!(s.len() as u8 >= ball().distance(&cube).unwrap() && v["optimal"] == true);
    let (all, _) = optcube_json(&[&args[..], &["--all"]].concat());
    let list = all["solutions"].as_array().unwrap();
    assert_eq!(all["optimal_solutions"].as_u64(), Some(list.len() as u64));
    assert!(list.iter().any(|x| *x == v["solution"]));
    let o = optcube(&[
        "solve",
        "R U D",
        "--moveset",
        "R U F",
        "--set",
        "korf6",
        "--pdb-dir",
        dir,
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("the move set U R F cannot solve it"),
        "{}",
        stderr(&o)
    );
    let o = optcube(&["solve", "R U", "--moveset", "R Q", "--pdb-dir", dir]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("\"Q\""), "{}", stderr(&o));
    let o = optcube(&[
        "solve",
        "R U",
        "--moveset",
        "R U F",
        "--all",
        "--unique",
        "symmetry",
        "--pdb-dir",
        dir,
    ]);
    assert_eq!(o.status.code(), Some(2));
}

/// Two adjacent faces read the exact `<R,U>` table, built on first use in the table directory
/// (and no other table): `(R2 U2)^3` has its two solutions, `<U,F>` goes through a symmetry
/// with only U and F turns, and a corner arrangement two faces cannot make is refused before
/// any table is built; `pdb verify` checks the file.
#[test]
fn two_adjacent_faces_use_the_exact_table() {
    let dir = test_dir("moveset-exact");
    let d = dir.to_str().unwrap();
    // T permutation: two corners swapped, which <R,U> cannot do.
    let o = optcube(&[
        "solve",
        "R U R' U' R' F R2 U' R' U' R U R' F'",
        "--moveset",
        "R U",
        "--pdb-dir",
        d,
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("arrangement"), "{}", stderr(&o));
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0, "nothing built");
    let (v, _) = optcube_json(&[
        "solve",
        "R2 U2 R2 U2 R2 U2",
        "--moveset",
        "R U",
        "--all",
        "--pdb-dir",
        d,
        "--json",
    ]);
    assert_eq!(v["set"], "moveset-ru");
    assert_eq!(v["optimal_solutions"], 2);
    // Sorted in move-index order: U turns before R turns.
    assert_eq!(v["solutions"][0], "U2 R2 U2 R2 U2 R2");
    assert_eq!(v["solutions"][1], "R2 U2 R2 U2 R2 U2");
    // Besides the build lock, the one table.
    let names: Vec<String> = (std::fs::read_dir(&dir).unwrap())
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n != optcube::sys::files::BUILD_LOCK)
        .collect();
    assert_eq!(names, ["moveset-ru.pdb"]);
    let scramble = "U F U' F' U F2 U2 F' U F U2 F2 U'";
    let (v, _) = optcube_json(&[
        "solve",
        scramble,
        "--moveset",
        "U F",
        "--pdb-dir",
        d,
        "--json",
    ]);
    let s = parse_moves(v["solution"].as_str().unwrap()).unwrap();
    let cube = Cube::from_moves(&parse_moves(scramble).unwrap());
    assert!(cube.apply_seq(&s).is_solved() && s.len() <= 13);
    assert!(
        s.iter()
            .all(|m| "UF".contains(m.to_string().chars().next().unwrap()))
    );
    let o = optcube(&["pdb", "verify", "--dir", d]);
    assert!(
        o.status.success() && stdout(&o).contains("moveset-ru"),
        "{}",
        stdout(&o)
    );
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
