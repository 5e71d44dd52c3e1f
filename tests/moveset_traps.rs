//! End-to-end tests of issue 104's move-set traps: a one-way set in the quarter-turn metric is
//! solved with its own turns (trap 3: `R'` with `R' U'` once stopped with an internal error
//! on `R`), and a goal the set cannot reach is refused at once (trap 4: `F --goal cross
//! --moveset "R U"` once searched for minutes). Small tables only (`korf6`, the cross's).

mod common;

use common::{korf6_dir, optcube, optcube_json, stderr, test_dir};
use optcube::cube::{Cube, Goal, Metric, Move, parse_moves};
use std::time::{Duration, Instant};

/// `solve POSITION --moveset SET --metric qtm --json` with `extra`, on the `korf6` tables.
fn qtm_in(position: &str, set: &str, extra: &[&str]) -> serde_json::Value {
    let args = [
        &[
            "solve",
            position,
            "--moveset",
            set,
            "--metric",
            "qtm",
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

/// Every move of `text` is in `set` (the turns as written).
fn keeps_to(set: &str, text: &str) -> bool {
    let turns = parse_moves(set).unwrap();
    parse_moves(text).unwrap().iter().all(|m| turns.contains(m))
}

/// Trap 3: `R'` is `R' R' R'` (3 quarter turns) and `R2` is `R' R'` (2) with only `R'` and
/// `U'`, as HTM already said; `R' U'` needs 6; `--all` and `--count` list only the set's
/// turns; the cross with `F' U'` in QTM likewise.
#[test]
fn one_way_sets_in_qtm_keep_to_their_turns() {
    for (position, solution, length) in [("R'", "R' R' R'", 3), ("R2", "R' R'", 2)] {
        let v = qtm_in(position, "R' U'", &[]);
        assert_eq!(v["solution"], solution, "{v}");
        assert_eq!(v["length"], length, "{v}");
        assert_eq!(v["optimal"], true, "{v}");
    }
    let cube = Cube::from_moves(&parse_moves("R' U'").unwrap());
    let v = qtm_in("R' U'", "R' U'", &["--all"]);
    assert_eq!(v["length"], 6, "{v}");
    let list = v["solutions"].as_array().expect("a list");
    assert!(!list.is_empty(), "{v}");
    for s in list {
        let text = s.as_str().unwrap();
        assert!(keeps_to("R' U'", text), "{text}");
        let moves: Vec<Move> = parse_moves(text).unwrap();
        assert_eq!(Metric::Qtm.length(&moves), 6, "{text}");
        assert!(cube.apply_seq(&moves).is_solved(), "{text}");
    }
    let v = qtm_in("R' U'", "R' U'", &["--count"]);
    assert_eq!(
        v["optimal_solutions"].as_u64(),
        Some(list.len() as u64),
        "{v}"
    );
    assert!(keeps_to("R' U'", v["solution"].as_str().unwrap()), "{v}");
    let dir = test_dir("moveset-qtm-cross");
    let (v, _) = optcube_json(&[
        "solve",
        "F'",
        "--goal",
        "cross",
        "--moveset",
        "F' U'",
        "--metric",
        "qtm",
        "--all",
        "--pdb-dir",
        dir.to_str().unwrap(),
        "--json",
    ]);
    assert_eq!(v["length"], 3, "{v}");
    let cross = Goal::named("cross").unwrap();
    let start = Cube::from_moves(&parse_moves("F'").unwrap());
    for s in v["solutions"].as_array().unwrap() {
        let text = s.as_str().unwrap();
        assert!(keeps_to("F' U'", text), "{text}");
        assert!(
            cross.holds(&start.apply_seq(&parse_moves(text).unwrap())),
            "{text}"
        );
    }
}

/// Trap 4: a goal whose fixed piece sits where no turn of the set moves it is refused at
/// once with exit 2, naming the slot, the piece and the set, before any table is built (the
/// table directory stays empty): `--goal`, `--mask`, QTM, and `--any-orientation` when every
/// orientation is out of reach. One orientation in reach is not refused (after `F` the B
/// face's cross holds already).
#[test]
fn unreachable_goals_are_refused_at_once() {
    let dir = test_dir("moveset-refuse-goal");
    let d = dir.to_str().unwrap();
    let mask = Goal::named("cross")
        .unwrap()
        .mask()
        .expect("the cross's mask");
    let runs: [&[&str]; 5] = [
        &["F", "--goal", "cross", "--moveset", "R U"],
        &[
            "F",
            "--goal",
            "cross",
            "--moveset",
            "R U",
            "--metric",
            "qtm",
        ],
        &["F", "--mask", &mask, "--moveset", "R U"],
        &["F", "--goal", "cross", "--moveset", "R U", "--all"],
        &[
            "F B",
            "--goal",
            "cross",
            "--moveset",
            "U",
            "--any-orientation",
        ],
    ];
    for extra in runs {
        let args = [&["solve"][..], extra, &["--pdb-dir", d]].concat();
        let t = Instant::now();
        let o = optcube(&args);
        assert!(
            t.elapsed() < Duration::from_secs(20),
            "{args:?}: not at once"
        );
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        let err = stderr(&o);
        assert!(err.contains("cannot reach"), "{args:?}: {err}");
        assert!(
            err.contains("DF edge slot") && err.contains("FR edge"),
            "{err}"
        );
        assert!(
            err.contains("the move set U") && !err.contains("internal"),
            "{err}"
        );
    }
    assert_eq!(
        std::fs::read_dir(&dir).unwrap().count(),
        0,
        "no table built"
    );
    let (v, _) = optcube_json(&[
        "solve",
        "F",
        "--goal",
        "cross",
        "--moveset",
        "R U",
        "--any-orientation",
        "--pdb-dir",
        d,
        "--json",
    ]);
    assert_eq!(v["length"], 0, "{v}");
}
