//! End-to-end tests of `optcube solve`: JSON and text output, the search's switches (successors,
//! symmetric units, split depth), the default set, the other solvers, `--all` and move sets. The
//! `korf6` set is built once per test process by the CLI into a temporary directory.

mod common;

use common::{ball, korf6_dir, optcube, optcube_json, stderr, stdout, test_dir};
use optcube::cube::{Cube, parse_moves};

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

/// `--known-lower-bound N` starts the proof at N, after one cheap iteration that orders its
/// units: the same optimal length, fewer nodes, the premise in the JSON and in the text; a
/// false bound is caught when that iteration solves the position; refused for the other solvers.
#[test]
fn a_known_lower_bound_skips_the_iterations_below_it() {
    let run = |extra: &[&str]| {
        let scramble = "R U2 F' L D B' R2 U F' D2 L' B";
        let args = [
            "solve",
            scramble,
            "--set",
            "korf6",
            "--pdb-dir",
            korf6_dir(),
        ];
        let (v, _) = optcube_json(&[&args[..], &["--json", "--no-upper-bound"], extra].concat());
        v
    };
    let plain = run(&[]);
    let len = plain["length"].as_u64().unwrap();
    assert!(plain["iterations"].as_array().unwrap().len() >= 3);
    let n = len.to_string();
    let told = run(&["--known-lower-bound", &n]);
    assert_eq!(
        (told["length"].as_u64(), &told["optimal"]),
        (Some(len), &true.into())
    );
    assert_eq!(told["known_lower_bound"].as_u64(), Some(len));
    let bounds: Vec<u64> = (told["iterations"].as_array().unwrap().iter())
        .map(|i| i["bound"].as_u64().unwrap())
        .collect();
    // The iteration three below it (or the heuristic's first) orders its units.
    let own = plain["iterations"][0]["bound"].as_u64().unwrap();
    assert_eq!(bounds, vec![len.saturating_sub(3).max(own), len]);
    assert!(told["nodes"].as_u64() < plain["nodes"].as_u64());
    assert!(told.get("known_lower_bound_refuted").is_none());
    // A false bound is refuted by that iteration's solution, and said.
    let wrong = run(&["--known-lower-bound", &(len + 3).to_string()]);
    assert_eq!(
        (wrong["length"].as_u64(), &wrong["optimal"]),
        (Some(len), &true.into())
    );
    assert_eq!(wrong["known_lower_bound_refuted"], true);
    // The text: a bound that holds (R U is 2 moves), and one that the ordering iteration refutes.
    for (k, said) in [
        ("2", "optimal given the known lower bound 2"),
        ("5", "(2 moves, optimal; the known lower bound 5 was false)"),
    ] {
        let o = optcube(&[
            "solve",
            "R U",
            "--known-lower-bound",
            k,
            "--pdb-dir",
            korf6_dir(),
            "--set",
            "korf6",
        ]);
        assert!(stdout(&o).contains(said), "{}", stdout(&o));
    }
    let o = optcube(&[
        "solve",
        "R U",
        "--known-lower-bound",
        "2",
        "--solver",
        "twophase",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--known-lower-bound"), "{}", stderr(&o));
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
    assert!(stderr(&o).contains("--unique needs every optimal solution: give --all or --count"));
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
