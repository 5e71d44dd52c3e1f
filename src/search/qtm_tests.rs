//! The quarter-turn metric's search checked against what shares none of its code: a plain
//! breadth-first search over whole positions with the 12 quarter turns (a hash map, checked in
//! turn against the published counts), and, for every optimal solution, the enumeration of all
//! quarter-turn sequences of the optimal length.

use super::{ALL_SOLUTIONS, SearchOptions, solve};
use crate::cube::{Cube, Metric, Move, Rng, format_moves, merge_moves};
use std::collections::{BTreeSet, HashMap};
use std::sync::OnceLock;
use std::sync::atomic::AtomicBool;

/// Positions at exact distance 0..=7 in the quarter-turn metric (OEIS A080602; exact counts
/// through 18q by Rokicki).
const PUBLISHED_QTM: [u64; 8] = [1, 12, 114, 1068, 10011, 93840, 878880, 8221632];

/// Depth of the brute-force ball: 983,926 positions.
const RADIUS: u8 = 6;

fn quarter_turns() -> Vec<Move> {
    Move::all().filter(|m| m.quarter_turns() != 2).collect()
}

/// Every position within [`RADIUS`] quarter turns of solved with its distance, by a plain
/// breadth-first search.
fn ball() -> &'static HashMap<Cube, u8> {
    static B: OnceLock<HashMap<Cube, u8>> = OnceLock::new();
    B.get_or_init(|| {
        let turns = quarter_turns();
        let mut dist = HashMap::from([(Cube::SOLVED, 0u8)]);
        let mut layer = vec![Cube::SOLVED];
        for d in 1..=RADIUS {
            let mut next = Vec::new();
            for c in &layer {
                for m in &turns {
                    let n = c.apply(*m);
                    dist.entry(n).or_insert_with(|| {
                        next.push(n);
                        d
                    });
                }
            }
            layer = next;
        }
        dist
    })
}

fn qtm(solutions: usize) -> SearchOptions {
    SearchOptions {
        metric: Metric::Qtm,
        max_depth: 26,
        solutions,
        ..SearchOptions::default()
    }
}

#[test]
fn the_brute_force_ball_has_the_published_counts() {
    let mut counts = vec![0u64; RADIUS as usize + 1];
    for &d in ball().values() {
        counts[d as usize] += 1;
    }
    assert_eq!(counts, PUBLISHED_QTM[..=RADIUS as usize]);
}

/// Random positions of the ball, at every distance: the search's length is the exact one, its
/// solution is written with `X2` for half turns and solves the position.
#[test]
fn qtm_lengths_are_the_brute_force_distances() {
    let h = crate::testing::korf6();
    let stop = AtomicBool::new(false);
    let mut by_depth: Vec<Vec<Cube>> = vec![Vec::new(); RADIUS as usize + 1];
    for (c, &d) in ball() {
        if by_depth[d as usize].len() < 12 {
            by_depth[d as usize].push(*c);
        }
    }
    for (d, cubes) in by_depth.iter().enumerate() {
        for c in cubes {
            let r = solve(h, c, &qtm(1), &stop);
            let s = r.solution.expect("solved");
            assert!(r.optimal && r.metric == Metric::Qtm);
            assert_eq!(Metric::Qtm.length(&s), d, "{}", format_moves(&s));
            assert_eq!(r.lower_bound as usize, d);
            assert!(c.apply_seq(&s).is_solved());
            assert_eq!(merge_moves(&s), s, "written merged: {}", format_moves(&s));
        }
    }
    // The iterations are observed as in the half-turn search; their bounds keep one parity.
    let c = by_depth[6][0];
    let mut events = Vec::new();
    let r = super::solve_observed(h, &c, &qtm(1), &stop, &mut |e| events.push(e));
    let bounds: Vec<u8> = r.iterations.iter().map(|i| i.bound).collect();
    assert!(
        bounds
            .windows(2)
            .all(|w| w[1] > w[0] && (w[1] - w[0]) % 2 == 0),
        "{bounds:?}"
    );
    assert_eq!(bounds.last(), Some(&6));
    assert_eq!(events.len(), 2 * bounds.len());
    assert_eq!(
        events[0],
        super::IterationEvent::Started { bound: bounds[0] }
    );
    // Beyond the ball: lengths have the corner parity and reach the walk's length at most.
    let mut rng = Rng::new(11);
    let turns = quarter_turns();
    for _ in 0..6 {
        let walk: Vec<Move> = (0..9).map(|_| turns[rng.below(12) as usize]).collect();
        let c = Cube::from_moves(&walk);
        let r = solve(h, &c, &qtm(1), &stop);
        let len = Metric::Qtm.length(&r.solution.expect("solved"));
        assert!(len <= 9 && len % 2 == 1, "{len}");
    }
}

/// The canonical form of a quarter-turn sequence as the search writes it: each axis's run of
/// turns as the lower face's rotation then the opposite face's, merged (`U U` → `U2`).
fn canonical(seq: &[Move]) -> Vec<Move> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < seq.len() {
        let axis = seq[i].face_index() % 3;
        let mut j = i;
        while j < seq.len() && seq[j].face_index() % 3 == axis {
            j += 1;
        }
        let mut run = seq[i..j].to_vec();
        run.sort_by_key(|m| m.face_index());
        out.extend(merge_moves(&run));
        i = j;
    }
    out
}

/// Every quarter-turn sequence of length `n` that solves `c`, in canonical form, once each.
fn all_solutions_by_enumeration(c: &Cube, n: usize) -> BTreeSet<String> {
    let turns = quarter_turns();
    let mut out = BTreeSet::new();
    let mut seq = vec![0usize; n];
    loop {
        let moves: Vec<Move> = seq.iter().map(|&k| turns[k]).collect();
        if c.apply_seq(&moves).is_solved() {
            out.insert(format_moves(&canonical(&moves)));
        }
        // The next sequence, as an odometer over the 12 turns.
        let Some(k) = (0..n).rev().find(|&k| seq[k] < 11) else {
            return out;
        };
        seq[k] += 1;
        seq[k + 1..].iter_mut().for_each(|x| *x = 0);
    }
}

/// `--all` in the quarter-turn metric lists exactly the optimal solutions that brute-force
/// enumeration finds, each once.
#[test]
fn qtm_all_solutions_equal_the_enumeration() {
    let h = crate::testing::korf6();
    let stop = AtomicBool::new(false);
    let cases = [
        "R U2",
        "U D",
        "R U F'",
        "F2 B2",
        "R U R' U'",
        "U2 D2 R",
        "R L' U D'",
    ];
    let mut rng = Rng::new(3);
    let mut cubes: Vec<Cube> = cases
        .iter()
        .map(|s| Cube::from_moves(&crate::cube::parse_moves(s).unwrap()))
        .collect();
    let ball: Vec<(&Cube, &u8)> = ball().iter().filter(|(_, d)| **d == 5).take(400).collect();
    for _ in 0..3 {
        cubes.push(*ball[rng.below(ball.len() as u64) as usize].0);
    }
    for c in cubes {
        let r = solve(h, &c, &qtm(ALL_SOLUTIONS), &stop);
        let n = Metric::Qtm.length(r.solution.as_ref().expect("solved"));
        assert!(n <= 5, "{n}");
        let listed: Vec<String> = r.solutions.iter().map(|s| format_moves(s)).collect();
        let unique: BTreeSet<String> = listed.iter().cloned().collect();
        assert_eq!(unique.len(), listed.len(), "listed twice: {listed:?}");
        assert_eq!(unique, all_solutions_by_enumeration(&c, n));
    }
}
