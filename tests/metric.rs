//! End-to-end tests of `--metric`: the quarter-turn metric on the command line (lengths,
//! JSON, every optimal mode, the refusals), the half-turn metric's output unchanged but for
//! the JSON's `metric`.

mod common;

use common::{korf6_dir, optcube, optcube_json, stderr, stdout};
use optcube::cube::{Cube, Metric, parse_moves};

fn solve_json(extra: &[&str]) -> serde_json::Value {
    let args = [
        &[
            "solve",
            "--set",
            "korf6",
            "--pdb-dir",
            korf6_dir(),
            "--json",
        ][..],
        extra,
    ]
    .concat();
    optcube_json(&args).0
}

#[test]
fn qtm_lengths_count_half_turns_twice() {
    let scramble = "R U2 F' L D";
    let v = solve_json(&[scramble, "--metric", "qtm"]);
    assert_eq!(v["metric"], "qtm");
    assert_eq!(v["length"], 6, "{v}");
    assert_eq!(v["optimal"], true);
    let s = parse_moves(v["solution"].as_str().unwrap()).unwrap();
    assert_eq!(Metric::Qtm.length(&s), 6);
    let cube = Cube::from_moves(&parse_moves(scramble).unwrap());
    assert!(cube.apply_seq(&s).is_solved());
    // The same position in the half-turn metric: 5 moves, and JSON says so.
    let v = solve_json(&[scramble]);
    assert_eq!(
        (v["metric"].as_str(), v["length"].as_u64()),
        (Some("htm"), Some(5))
    );
    // Text output names the unit.
    let o = optcube(&[
        "solve",
        scramble,
        "--metric",
        "qtm",
        "--set",
        "korf6",
        "--pdb-dir",
        korf6_dir(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("(6 quarter turns, optimal)"),
        "{}",
        stdout(&o)
    );
}

/// Every optimal mode takes the metric: --all and --count (each solution once, written with
/// X2), --solutions, --moveset (searched, not read from the half-turn exact table), and a
/// depth limit in quarter turns (exit 3 below the distance).
#[test]
fn qtm_in_every_optimal_mode() {
    let v = solve_json(&["F2 B2", "--metric", "qtm", "--all"]);
    assert_eq!(v["optimal_solutions"], 1, "{v}");
    assert_eq!(v["solutions"][0], "F2 B2");
    let v = solve_json(&["R U R' U'", "--metric", "qtm", "--count"]);
    assert_eq!(v["length"], 4);
    assert!(v["optimal_solutions"].as_u64().unwrap() >= 1);
    let v = solve_json(&["R U R' U'", "--metric", "qtm", "--solutions", "2"]);
    let listed = v["solutions"].as_array().unwrap();
    assert!((1..=2).contains(&listed.len()), "{v}");
    let v = solve_json(&["R2 U R2", "--metric", "qtm", "--moveset", "R U"]);
    assert_eq!(
        (v["length"].as_u64(), v["set"].as_str()),
        (Some(5), Some("korf6")),
        "{v}"
    );
    let o = optcube(&[
        "solve",
        "R2 U R2",
        "--metric",
        "qtm",
        "--set",
        "korf6",
        "--pdb-dir",
        korf6_dir(),
        "--max-depth",
        "4",
    ]);
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("no solution of <= 4 quarter turns"),
        "{}",
        stdout(&o)
    );
}

/// The two-phase solver bounds its search in quarter turns: the length it reports and the
/// one `--max-length` limits are the solution's quarter turns, and the solution is checked.
#[test]
fn the_twophase_solver_counts_quarter_turns() {
    // A position of 6 quarter turns (each half turn counts 2) in 4 face turns.
    let scramble = "R2 U F' L2";
    let cube = Cube::from_moves(&parse_moves(scramble).unwrap());
    let (v, _) = optcube_json(&[
        "solve",
        scramble,
        "--solver",
        "twophase",
        "--metric",
        "qtm",
        "--max-length",
        "6",
        "--timeout",
        "30",
        "--pdb-dir",
        korf6_dir(),
        "--json",
    ]);
    assert_eq!(v["metric"], "qtm");
    let sol = parse_moves(v["solution"].as_str().unwrap()).unwrap();
    assert!(cube.apply_seq(&sol).is_solved());
    let qtm = Metric::Qtm.length(&sol);
    assert_eq!(v["length"], qtm as u64);
    // The scramble's inverse has 6: the search finds one within --max-length, of the parity
    // every quarter-turn solution of the position has (even corner permutation).
    assert!(qtm <= 6 && qtm.is_multiple_of(2), "{v}");
}

#[test]
fn solvers_that_count_half_turns_refuse_qtm() {
    let o = optcube(&[
        "solve",
        "R U",
        "--solver",
        "thistlethwaite",
        "--metric",
        "qtm",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("counts half turns only"),
        "{}",
        stderr(&o)
    );
    // The slice-turn and axial metrics: the optimal solver's distance to solved; the other
    // solvers and goals are refused with the reason, and a table without a twin there too.
    let o = optcube(&["solve", "R U", "--metric", "stm", "--solver", "twophase"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("the two-phase solver counts face turns (htm or qtm), not stm"),
        "{}",
        stderr(&o)
    );
    let o = optcube(&["solve", "R U", "--metric", "atm", "--goal", "cross"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("goals, masks and targets counts face turns"),
        "{}",
        stderr(&o)
    );
    let o = optcube(&["pdb", "build", "--set", "edges7a", "--metric", "atm"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("edges7a") && stderr(&o).contains("atm"),
        "{}",
        stderr(&o)
    );
    let o = optcube(&["solve", "R U", "--metric", "xtm"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("unknown metric \"xtm\": one of htm, qtm, stm, atm"),
        "{}",
        stderr(&o)
    );
    let o = optcube(&[
        "solve",
        "R U",
        "--metric",
        "qtm",
        "--predict",
        "--pdb-dir",
        korf6_dir(),
    ]);
    assert_eq!(o.status.code(), Some(2));
}

/// Quarter-turn tables: `pdb build --metric qtm` builds the set's twins, whose headers and
/// `pdb info` say qtm; a quarter-turn solve reads them (and gives the length the half-turn
/// tables give it: both are admissible); a quarter-turn table named for a half-turn search
/// is refused (exit 2) with its half-turn twin's build command; a twin named by its own
/// name is built without `--metric`.
#[test]
fn quarter_turn_tables_are_built_read_and_refused_where_wrong() {
    let dir = common::test_dir("qtm-tables");
    let d = dir.to_str().unwrap();
    let o = optcube(&[
        "pdb",
        "build",
        "--set",
        "korf6",
        "--metric",
        "qtm",
        "--dir",
        d,
        "--threads",
        "2",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    for name in ["corners-qtm", "edges6a-qtm", "edges6b-qtm"] {
        assert!(dir.join(format!("{name}.pdb")).exists(), "{name}");
    }
    assert!(!dir.join("corners.pdb").exists());
    let o = optcube(&["pdb", "info", "--dir", d, "--json"]);
    let infos: Vec<serde_json::Value> = stdout(&o)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(infos.len(), 3);
    assert!(
        infos
            .iter()
            .all(|v| v["metric"] == "qtm" && v["valid"] == true)
    );
    for scramble in ["R U2 F' L D B'", "U F R2 D' L B2 R'"] {
        let (v, err) = optcube_json(&[
            "solve",
            scramble,
            "--metric",
            "qtm",
            "--set",
            "korf6",
            "--pdb-dir",
            d,
            "--json",
        ]);
        assert!(err.contains("corners-qtm"), "{err}");
        let with_htm_tables = solve_json(&[scramble, "--metric", "qtm"]);
        assert_eq!(v["length"], with_htm_tables["length"], "{scramble}");
        assert_eq!(v["optimal"], true);
        let s = parse_moves(v["solution"].as_str().unwrap()).unwrap();
        let cube = Cube::from_moves(&parse_moves(scramble).unwrap());
        assert!(cube.apply_seq(&s).is_solved());
    }
    // A twin named by its own name is built as it is, without --metric.
    let named = common::test_dir("qtm-named");
    let n = named.to_str().unwrap();
    let o = optcube(&[
        "pdb",
        "build",
        "--set",
        "edges6a-qtm",
        "--dir",
        n,
        "--threads",
        "2",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let a = std::fs::read(named.join("edges6a-qtm.pdb")).unwrap();
    assert_eq!(a, std::fs::read(dir.join("edges6a-qtm.pdb")).unwrap());
    let o = optcube(&["solve", "R U", "--set", "corners-qtm", "--pdb-dir", d]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("corners-qtm holds qtm distances")
            && stderr(&o).contains("optcube pdb build --set corners"),
        "{}",
        stderr(&o)
    );
}
