//! `optcube coset` end to end: the JSON report, one coset named two ways, and bad input. The
//! counts themselves are checked in the library against a search over cubies
//! (`solvers::coset::tests`).

mod common;
use common::*;
use optcube::cube::{Cube, parse_moves};
use optcube::solvers::coset::{ELEMENTS, coset_of};
use std::sync::OnceLock;

/// One table directory for the file's tests (the two-phase tables are built there once).
fn dir() -> &'static str {
    static DIR: OnceLock<String> = OnceLock::new();
    DIR.get_or_init(|| test_dir("coset").to_str().unwrap().to_string())
}

fn counts(v: &serde_json::Value) -> Vec<u64> {
    v["depth_counts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n.as_u64().unwrap())
        .collect()
}

/// H by depth 5: one position at 0, the rest adding up to what was found; a coset named by a
/// position and by its number has the same counts, though the two representatives differ.
#[test]
fn a_coset_named_by_position_or_number_has_the_same_counts() {
    let (h, _) = optcube_json(&["coset", "--max-depth", "5", "--json", "--pdb-dir", dir()]);
    assert_eq!(h["coset"], 0);
    assert_eq!(h["elements"].as_u64(), Some(ELEMENTS));
    let c = counts(&h);
    assert_eq!(c.len(), 6);
    assert_eq!(c[0], 1);
    assert_eq!(c.iter().sum::<u64>(), h["found"].as_u64().unwrap());
    assert_eq!(h["complete"], false);
    assert_eq!(
        h["unset"].as_u64().unwrap(),
        ELEMENTS - h["found"].as_u64().unwrap()
    );
    assert_eq!(h["timeline"].as_array().unwrap().len(), 6);

    let scramble = "R F U' L2";
    let n = coset_of(&Cube::from_moves(&parse_moves(scramble).unwrap()));
    let args = ["--max-depth", "6", "--json", "--pdb-dir", dir()];
    let (by_position, _) = optcube_json(&[&["coset", scramble][..], &args].concat());
    let number = n.to_string();
    let (by_number, _) = optcube_json(&[&["coset", "--index", &number][..], &args].concat());
    assert_eq!(by_position["coset"].as_u64(), Some(n));
    assert_eq!(by_number["coset"].as_u64(), Some(n));
    assert_ne!(by_position["representative"], by_number["representative"]);
    assert_eq!(counts(&by_position), counts(&by_number));
    assert!(counts(&by_position)[4] > 0);

    // A bounded run marks its deeper depths as bounds.
    let (b, _) = optcube_json(&[
        "coset",
        scramble,
        "--search-depth",
        "4",
        "--max-depth",
        "6",
        "--json",
        "--pdb-dir",
        dir(),
    ]);
    assert_eq!(counts(&b), counts(&by_position)[..5]);
    assert_eq!(b["bounded_counts"].as_array().unwrap().len(), 2);
}

/// Every bad argument is refused with exit 2 and a message naming it.
#[test]
fn bad_coset_arguments_are_refused() {
    let unset = scratch().join("coset-unset.txt");
    let unset = unset.to_str().unwrap();
    for (args, says) in [
        (vec!["--index", "2217093120"], "out of range"),
        (vec!["R X"], "invalid position"),
        (
            vec!["--search-depth", "5", "--max-depth", "3"],
            "beyond --max-depth",
        ),
        (vec!["--index", "5", "R"], "cannot be used with"),
        (vec!["--max-depth", "2", "--unset", unset], "unset"),
    ] {
        let o = optcube(&[&["coset", "--pdb-dir", dir()][..], &args].concat());
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(stderr(&o).contains(says), "{args:?}: {}", stderr(&o));
    }
    assert!(!std::path::Path::new(unset).exists());
}
