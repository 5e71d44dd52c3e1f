//! End-to-end tests of what `optcube` reads: facelets, scrambles (random and by subgroup), files
//! of positions, and the traps of the position argument.

mod common;

use common::{korf6_dir, optcube, optcube_json, stderr, stdout};
use optcube::cube::{Cube, parse_moves};

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
