//! The slice-turn and axial metrics' counts, each checked against something that does not
//! share their code path: the published slice-turn counts (Rokicki, forum.cubeman.org), and a
//! brute-force breadth-first search over whole positions whose moves are written out as face
//! turns (`"R L'"`), not made from the declarations' axis moves.

use super::*;
use crate::coord::positions::Conjugator;
use crate::cube::parse_moves;
use crate::stats::predict::tree_sizes;
use std::collections::HashSet;

/// Every move of `metric`, written out: each face turn, and for each axis the pairs of its two
/// faces' turns that the metric counts as one move.
fn written_moves(metric: Metric) -> Vec<Cube> {
    let mut words: Vec<String> = Vec::new();
    let faces = ["U", "R", "F", "D", "L", "B"];
    let turns = ["", "2", "'"];
    for f in faces {
        for t in turns {
            words.push(format!("{f}{t}"));
        }
    }
    for (a, b) in [("U", "D"), ("R", "L"), ("F", "B")] {
        for (i, ti) in turns.iter().enumerate() {
            for (j, tj) in turns.iter().enumerate() {
                // STM: a slice is the two faces turned against each other (`R L'`, `R2 L2`).
                let slice = i + j == 2;
                if metric == Metric::Atm || (metric == Metric::Stm && slice) {
                    words.push(format!("{a}{ti} {b}{tj}"));
                }
            }
        }
    }
    (words.iter())
        .map(|w| Cube::from_moves(&parse_moves(w).unwrap()))
        .collect()
}

/// Positions at each distance 0..=max_depth by a plain hash-set breadth-first search.
fn brute_force(metric: Metric, max_depth: usize) -> Vec<u64> {
    let moves = written_moves(metric);
    let mut seen: HashSet<Cube> = HashSet::from([Cube::SOLVED]);
    let mut layer = vec![Cube::SOLVED];
    let mut out = vec![1];
    for _ in 0..max_depth {
        let mut next = Vec::new();
        for c in &layer {
            for m in &moves {
                let n = c.compose(m);
                if seen.insert(n) {
                    next.push(n);
                }
            }
        }
        out.push(next.len() as u64);
        layer = next;
    }
    out
}

#[test]
fn axis_costs_follow_from_the_declarations() {
    let cost = |m: Metric, i, j| m.axis_cost(i, j);
    assert_eq!((cost(Metric::Htm, 1, 3), cost(Metric::Htm, 2, 0)), (2, 1));
    assert_eq!((cost(Metric::Qtm, 2, 0), cost(Metric::Qtm, 2, 2)), (2, 4));
    assert_eq!((cost(Metric::Qtm, 3, 1), cost(Metric::Qtm, 0, 0)), (2, 0));
    assert_eq!((cost(Metric::Stm, 1, 3), cost(Metric::Stm, 2, 2)), (1, 1));
    assert_eq!((cost(Metric::Stm, 1, 1), cost(Metric::Stm, 3, 2)), (2, 2));
    assert!((1..16).all(|k| cost(Metric::Atm, k / 4, k % 4) == 1));
    let len = |m: Metric, s: &str| m.length(&parse_moves(s).unwrap());
    assert_eq!((len(Metric::Htm, "U D'"), len(Metric::Qtm, "U D2")), (2, 3));
    assert_eq!(
        (len(Metric::Stm, "U D' R"), len(Metric::Stm, "U D R2")),
        (2, 3)
    );
    assert_eq!(
        (len(Metric::Atm, "U D' R L2 U"), len(Metric::Atm, "F")),
        (3, 1)
    );
    let sizes: Vec<usize> = Metric::ALL.map(|m| m.generators().len()).to_vec();
    assert_eq!(sizes, vec![18, 12, 27, 45]);
    for m in Metric::ALL {
        let written: HashSet<Cube> = written_moves(m).into_iter().collect();
        let declared: HashSet<Cube> = m.generators().iter().copied().collect();
        if m != Metric::Qtm {
            assert_eq!(written, declared, "{m}");
        }
        assert_eq!(declared.len(), m.generators().len(), "{m}: distinct moves");
    }
}

/// The class searches need each metric's moves closed under the 48 symmetries and inversion.
#[test]
fn every_metrics_moves_are_closed_under_symmetry_and_inversion() {
    let k = Conjugator::new();
    for m in Metric::ALL {
        let moves: HashSet<Cube> = m.generators().iter().copied().collect();
        for g in m.generators() {
            assert!(moves.contains(&g.inverse()), "{m}");
            for s in 0..48 {
                assert!(moves.contains(&k.conj(g, s)), "{m}, symmetry {s}");
            }
        }
    }
}

/// The canonical sequences' bound is the canonical tree in HTM and bounds every metric's
/// layers.
#[test]
fn sequence_bounds_bound_the_layers() {
    assert_eq!(Metric::Htm.sequence_bounds(8), tree_sizes(8));
    for m in [Metric::Qtm, Metric::Stm] {
        let bound = m.sequence_bounds(6);
        for (d, &p) in m.published()[..7].iter().enumerate() {
            assert!(bound[d] >= p as u128, "{m} {d}: {} < {p}", bound[d]);
        }
    }
    assert_eq!(&Metric::Atm.sequence_bounds(2)[..2], &[1, 45]);
}

/// STM: the whole-position search and both class searches give the published counts through
/// depth 6 (positions up to whole-cube rotation; 50,839,041 at 6), and the brute force agrees
/// through 4.
#[test]
fn stm_counts_match_published_to_depth_6() {
    let published = Metric::Stm.published();
    assert_eq!(counts(4, Metric::Stm), published[..5].to_vec());
    assert_eq!(brute_force(Metric::Stm, 4), published[..5].to_vec());
    for r in [Reduction::Symmetry, Reduction::SymmetryAndInverse] {
        let layers = layer_counts(6, Some(r), Metric::Stm, |_, _| {});
        let positions: Vec<u64> = layers.iter().map(|n| n.positions).collect();
        assert_eq!(positions, published[..7].to_vec(), "{r:?}");
    }
}

/// ATM (no published counts): the brute force, the whole-position search and both class
/// searches agree through depth 4.
#[test]
fn atm_counts_equal_the_brute_force_to_depth_4() {
    let want = brute_force(Metric::Atm, 4);
    assert_eq!(want[..2], [1, 45]);
    assert_eq!(counts(4, Metric::Atm), want);
    for r in [Reduction::Symmetry, Reduction::SymmetryAndInverse] {
        let layers = layer_counts(4, Some(r), Metric::Atm, |_, _| {});
        let positions: Vec<u64> = layers.iter().map(|n| n.positions).collect();
        assert_eq!(positions, want, "{r:?}");
    }
}

/// The brute force at depth 5 (about a minute and a few GB; run by hand for
/// `results/four-metrics.md`): `cargo test --release atm_brute_force_to_depth_5 -- --ignored
/// --nocapture`.
#[test]
#[ignore]
fn atm_brute_force_to_depth_5() {
    let want = brute_force(Metric::Atm, 5);
    println!("ATM brute force: {want:?}");
    let layers = layer_counts(
        5,
        Some(Reduction::SymmetryAndInverse),
        Metric::Atm,
        |_, _| {},
    );
    let positions: Vec<u64> = layers.iter().map(|n| n.positions).collect();
    println!("ATM classes:     {positions:?}");
    assert_eq!(positions, want);
}
