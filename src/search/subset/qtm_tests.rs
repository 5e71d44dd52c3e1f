//! The move-subset search in the quarter-turn metric with sets that lack some of a face's turns
//! (`R' U'`: one way only; `R2 U'`), checked against what shares none of its code: the
//! enumeration of every sequence of the set's own turns by cost. In QTM a half turn `X2` costs
//! 2; a set without `R2` must still be solved with its own turns (`R' R'`), never with `R2` or
//! with a merged `R` (issue 104, trap 3: `solve "R'" --moveset "R' U'" --metric qtm` printed
//! `R`).

use super::*;
use crate::cube::{Rng, parse_moves};
use std::collections::BTreeSet;

/// Every sequence of `set`'s turns that solves `cube` at the least cost in `metric` (at most
/// `most`), with that cost: a plain enumeration by cost, no canonical rule, no table.
fn brute(
    set: &MoveSet,
    cube: &Cube,
    metric: Metric,
    most: usize,
) -> Option<(usize, Vec<Vec<Move>>)> {
    fn go(
        turns: &[Move],
        metric: Metric,
        c: &Cube,
        left: usize,
        path: &mut Vec<Move>,
        out: &mut Vec<Vec<Move>>,
    ) {
        if left == 0 {
            if c.is_solved() {
                out.push(path.clone());
            }
            return;
        }
        for &m in turns {
            let cost = metric.cost(m) as usize;
            if cost <= left {
                path.push(m);
                go(turns, metric, &c.apply(m), left - cost, path, out);
                path.pop();
            }
        }
    }
    let turns: Vec<Move> = set.moves().collect();
    (0..=most).find_map(|d| {
        let mut out = Vec::new();
        go(&turns, metric, cube, d, &mut Vec::new(), &mut out);
        (!out.is_empty()).then_some((d, out))
    })
}

/// What a sequence does, axis run by axis run: each maximal run of turns on one axis as its
/// axis and the net quarter turns of its lower and upper face. Two sequences that regroup into
/// the same syllables have the same signature; the search lists one sequence per signature.
fn signature(seq: &[Move]) -> Vec<(usize, u8, u8)> {
    let mut out: Vec<(usize, u8, u8)> = Vec::new();
    for m in seq {
        let (face, q) = (m.face_index(), m.quarter_turns());
        let axis = face % 3;
        if out.last().is_none_or(|r| r.0 != axis) {
            out.push((axis, 0, 0));
        }
        let run = out.last_mut().expect("pushed");
        if face < 3 {
            run.1 = (run.1 + q) % 4;
        } else {
            run.2 = (run.2 + q) % 4;
        }
    }
    out
}

/// The positions of the issue (`R'`, `R2`, `R' U'` with `R' U'`; `F'`, `F2` with `F' U'`) and
/// random ones of each set, in both metrics: the search's one solution and its `--all` list
/// keep to the set, solve the position, cost the least cost of the enumeration, and the list
/// holds one sequence for each signature the enumeration's optimal sequences have.
#[test]
fn one_way_sets_are_solved_with_their_own_turns() {
    let h = crate::testing::korf6();
    let stop = AtomicBool::new(false);
    let mut rng = Rng::new(104);
    let known = [
        ("R' U'", "R'", 3),
        ("R' U'", "R2", 2),
        ("R' U'", "R' U'", 6),
        ("F' U'", "F'", 3),
        ("F' U'", "F2", 2),
        ("R2 U'", "R2 U'", 5),
        ("R' U2 F", "R' U2 F'", 6),
    ];
    let mut cases: Vec<(&str, Cube, Option<usize>)> = (known.iter())
        .map(|&(set, p, qtm)| (set, Cube::from_moves(&parse_moves(p).unwrap()), Some(qtm)))
        .collect();
    for set in ["R' U'", "R2 U'", "R' U2 F"] {
        let turns: Vec<Move> = MoveSet::parse(set).unwrap().moves().collect();
        for k in 0..4 {
            let seq: Vec<Move> = (0..2 + k)
                .map(|_| turns[rng.below(turns.len() as u64) as usize])
                .collect();
            // The walk's inverse: the walk itself solves it, so it costs at most 10.
            cases.push((set, Cube::from_moves(&seq).inverse(), None));
        }
    }
    for (text, cube, qtm) in cases {
        let set = MoveSet::parse(text).unwrap();
        for metric in [Metric::Htm, Metric::Qtm] {
            let (d, all) = brute(&set, &cube, metric, 10).expect("within 10");
            if metric == Metric::Qtm
                && let Some(q) = qtm
            {
                assert_eq!(d, q, "{text}: the issue's length");
            }
            let want: BTreeSet<_> = all.iter().map(|s| signature(s)).collect();
            let opts = |solutions| SearchOptions {
                metric,
                solutions,
                ..SearchOptions::default()
            };
            let one = solve_in(h, &cube, &set, &opts(1), &stop);
            let listed = solve_in(h, &cube, &set, &opts(crate::search::ALL_SOLUTIONS), &stop);
            for s in one.solutions.iter().chain(&listed.solutions) {
                let shown = format_moves(s);
                assert!(
                    s.iter().all(|m| set.contains(*m)),
                    "{text} {metric}: {shown} leaves the set"
                );
                assert!(cube.apply_seq(s).is_solved(), "{text} {metric}: {shown}");
                assert_eq!(metric.length(s), d, "{text} {metric}: {shown}");
            }
            assert!(one.optimal && one.solutions.len() == 1, "{text} {metric}");
            let got: Vec<_> = listed.solutions.iter().map(|s| signature(s)).collect();
            assert_eq!(
                got.len(),
                want.len(),
                "{text} {metric}: one sequence per signature"
            );
            assert_eq!(
                got.into_iter().collect::<BTreeSet<_>>(),
                want,
                "{text} {metric}"
            );
        }
    }
}

/// The syllables' shown turns are the set's own words in both metrics, and cost what those
/// words cost: `R' R' R'` costs 3 in QTM and is not written `R`.
#[test]
fn syllables_show_the_sets_own_turns() {
    for text in ["R' U'", "R2 U'", "R' U2 F", "U D R L F2 B2", "R U"] {
        let set = MoveSet::parse(text).unwrap();
        for metric in [Metric::Htm, Metric::Qtm] {
            for s in set.syllables(metric) {
                let shown = format_moves(&s.moves);
                assert!(
                    s.moves.iter().all(|m| set.contains(*m)),
                    "{text} {metric}: {shown}"
                );
                assert_eq!(
                    Cube::from_moves(&s.moves),
                    s.cube,
                    "{text} {metric}: {shown}"
                );
                assert_eq!(
                    metric.length(&s.moves),
                    s.cost as usize,
                    "{text} {metric}: {shown}"
                );
            }
        }
    }
}
