//! Search tests against brute-force distances, with the `korf6` tables built in-process.

use super::brute::Ball;
use super::{Heuristic, SearchOptions, solve};
use crate::cube::{Cube, Move, Rng, parse_moves};
use crate::pdb::Pattern;
use crate::testing::{korf6, korf6_sym, phase1};
use std::sync::OnceLock;
use std::sync::atomic::AtomicBool;

fn ball5() -> &'static Ball {
    static B: OnceLock<Ball> = OnceLock::new();
    B.get_or_init(|| Ball::new(5))
}

pub(super) fn h() -> &'static Heuristic {
    korf6()
}

static NO_STOP: AtomicBool = AtomicBool::new(false);

/// The heuristic never overestimates: every position within 5 moves, plain and dual, with and
/// without the turned lookups; the turned lookups raise the value of some positions.
#[test]
fn heuristic_is_admissible_up_to_depth_5() {
    let ball = ball5();
    assert_eq!(ball.counts(), vec![1, 18, 243, 3240, 43239, 574908]);
    assert!(korf6_sym().is_symmetric() && !h().is_symmetric());
    let mut raised = 0;
    for (c, d) in ball.iter() {
        let q = c.inverse();
        assert!(h().value(c, &q, false) <= d, "{c:?} at {d}");
        assert!(h().value(c, &q, true) <= d, "{c:?} at {d} (dual)");
        let sym = korf6_sym().value(c, &q, false);
        assert!(sym <= d, "{c:?} at {d} (turned lookups)");
        assert!(
            korf6_sym().value(c, &q, true) <= d,
            "{c:?} at {d} (turned, dual)"
        );
        assert!(sym >= h().value(c, &q, false));
        raised += usize::from(sym > h().value(c, &q, false));
    }
    assert!(raised > 1000, "turned lookups raised only {raised} values");
}

/// The phase-1 heuristic (a table read from the position, looked up on three axes) never
/// overestimates either, plain and dual, and beats the corner table alone on some positions.
#[test]
fn phase1_heuristic_is_admissible_up_to_depth_5() {
    let h = phase1();
    assert!(h.reads_position() && h.lookups().len() == 4);
    let corners = crate::testing::korf6_table(crate::pdb::Pattern::CORNERS);
    let mut raised = 0;
    for (c, d) in ball5().iter() {
        let q = c.inverse();
        let v = h.value(c, &q, false);
        assert!(v <= d, "{c:?} at {d}");
        assert!(h.value(c, &q, true) <= d, "{c:?} at {d} (dual)");
        raised += usize::from(v > corners.get(crate::pdb::Pattern::CORNERS.index(c)));
    }
    assert!(raised > 10_000, "phase1 raised only {raised} values");
}

/// The coset table `sym48e0` never overestimates, plain and dual, within 5 moves; and IDA*
/// with it alone finds optimal solutions on 1 and 2 threads.
#[test]
fn sym48e0_is_admissible_and_optimal() {
    let h = crate::testing::sym48e0();
    for (c, d) in ball5().iter() {
        let q = c.inverse();
        assert!(h.value(c, &q, true) <= d, "{c:?} at {d}");
    }
    let ball = ball5();
    let mut rng = Rng::new(480);
    for k in 0..16 {
        let c = random_walk(&mut rng, 4 + k % 7);
        let d = ball.distance(&c).expect("within 10");
        for (threads, dual, switch_sides) in [
            (1, false, false),
            (2, true, false),
            (1, true, false),
            (1, true, true),
            (2, true, true),
        ] {
            let opts = SearchOptions {
                threads,
                dual,
                switch_sides,
                ..SearchOptions::default()
            };
            let (s, _) = solve_checked(h, &c, &opts);
            assert_eq!(
                s.len() as u8,
                d,
                "threads {threads} dual {dual} {switch_sides}"
            );
        }
    }
}

/// Extending each node on the side that reads more (the position or its inverse) finds
/// solutions of the same lengths as `korf`, each checked on the position, and searches a
/// different tree than always extending the position (so the switching did happen).
#[test]
fn switching_sides_keeps_lengths() {
    let h = crate::testing::sym48e0();
    let mut rng = Rng::new(4848);
    let mut differ = 0;
    for k in 0..12 {
        let c = random_walk(&mut rng, 8 + k % 6);
        let base = SearchOptions {
            dual: true,
            ..SearchOptions::default()
        };
        let (want, _) = solve_checked(crate::testing::korf6(), &c, &base);
        let (plain, plain_iters) = complete_iterations(h, &c, &base);
        let switching = SearchOptions {
            switch_sides: true,
            ..base
        };
        let (len, iters) = complete_iterations(h, &c, &switching);
        assert_eq!((plain, len), (want.len(), want.len()), "{c:?}");
        differ += (iters != plain_iters) as usize;
    }
    assert!(differ > 0, "the switching never changed the search");
}

/// ... and on random walks, compared with their brute-force distance.
#[test]
fn heuristic_is_admissible_on_random_walks() {
    let ball = ball5();
    let mut rng = Rng::new(21);
    for _ in 0..300 {
        let n = 6 + rng.below(4) as usize;
        let seq: Vec<Move> = (0..n)
            .map(|_| Move::from_index(rng.below(18) as usize))
            .collect();
        let c = Cube::from_moves(&seq);
        let d = ball.distance(&c).expect("within 10");
        assert!(h().value(&c, &c.inverse(), true) <= d);
    }
}

fn random_walk(rng: &mut Rng, n: usize) -> Cube {
    let seq: Vec<Move> = (0..n)
        .map(|_| Move::from_index(rng.below(18) as usize))
        .collect();
    Cube::from_moves(&seq)
}

/// IDA* lengths equal the brute-force distance (optimal) for positions up to 10 moves, with 1
/// and 2 threads, plain, dual and with turned lookups; every solution solves its position.
#[test]
fn solutions_are_optimal_up_to_10_moves() {
    let ball = ball5();
    let mut rng = Rng::new(77);
    for k in 0..24 {
        let c = random_walk(&mut rng, 4 + k % 7);
        let d = ball.distance(&c).expect("within 10");
        for (threads, dual, sym, lanes) in [
            (1, false, false, 1),
            (1, false, false, 4),
            (2, false, false, 3),
            (2, true, false, 4),
            (2, false, true, 2),
            (1, true, true, 4),
        ] {
            let opts = SearchOptions {
                threads,
                dual,
                lanes,
                ..SearchOptions::default()
            };
            let heuristic = if sym { korf6_sym() } else { h() };
            let r = solve(heuristic, &c, &opts, &NO_STOP);
            let s = r.solution.expect("solved");
            assert_eq!(
                s.len() as u8,
                d,
                "threads {threads} dual {dual} sym {sym} lanes {lanes}"
            );
            assert!(r.optimal);
            assert!(c.apply_seq(&s).is_solved());
            assert_eq!(
                r.iterations.last().map(|i| i.bound),
                Some(d).filter(|&d| d > 0)
            );
        }
    }
}

/// IDA* with the phase-1 heuristic is optimal too (the search then tracks the position itself).
#[test]
fn phase1_solutions_are_optimal_up_to_10_moves() {
    let ball = ball5();
    let mut rng = Rng::new(78);
    for k in 0..16 {
        let c = random_walk(&mut rng, 4 + k % 7);
        let d = ball.distance(&c).expect("within 10");
        for (threads, dual) in [(1, false), (2, true)] {
            let opts = SearchOptions {
                threads,
                dual,
                ..SearchOptions::default()
            };
            let r = solve(phase1(), &c, &opts, &NO_STOP);
            let s = r.solution.expect("solved");
            assert_eq!(s.len() as u8, d, "threads {threads} dual {dual}");
            assert!(r.optimal && c.apply_seq(&s).is_solved());
        }
    }
}

/// Solves `c` with `heuristic` and `opts`, checks that the answer is optimal and solves `c`;
/// returns the solution and each iteration's bound and node count.
pub(super) fn solve_checked(
    heuristic: &Heuristic,
    c: &Cube,
    opts: &SearchOptions,
) -> (Vec<Move>, Vec<(u8, u64)>) {
    let r = solve(heuristic, c, opts, &NO_STOP);
    let solution = r.solution.expect("a solution");
    assert!(r.optimal && c.apply_seq(&solution).is_solved());
    let iterations = r.iterations.iter().map(|i| (i.bound, i.nodes)).collect();
    (solution, iterations)
}

/// [`solve_checked`]'s solution length and its iterations but the last, which stopped at its
/// solution: those were searched completely, so they depend only on the tree searched.
pub(super) fn complete_iterations(
    heuristic: &Heuristic,
    c: &Cube,
    opts: &SearchOptions,
) -> (usize, Vec<(u8, u64)>) {
    let (solution, mut iterations) = solve_checked(heuristic, c, opts);
    iterations.pop();
    (solution.len(), iterations)
}

#[test]
fn solved_position_gives_empty_solution() {
    let r = solve(h(), &Cube::SOLVED, &SearchOptions::default(), &NO_STOP);
    assert_eq!(r.solution, Some(vec![]));
    assert!(r.optimal);
}

/// With a depth limit below the optimum, no solution and no optimality claim; the proven lower
/// bound is reported.
#[test]
fn max_depth_reports_lower_bound() {
    let c = Cube::from_moves(&parse_moves("R U F D L B R2 U2").unwrap());
    let d = ball5().distance(&c).unwrap();
    let opts = SearchOptions {
        max_depth: d - 2,
        ..SearchOptions::default()
    };
    let r = solve(h(), &c, &opts, &NO_STOP);
    assert!(r.solution.is_none());
    assert!(!r.optimal);
    // Iterations up to the limit found nothing; the bound proved may skip past the limit.
    assert!(
        r.lower_bound > d - 2 && r.lower_bound <= d,
        "{} vs {d}",
        r.lower_bound
    );
}

/// A stop request ends the search without a claim.
#[test]
fn stop_flag_interrupts() {
    let stop = AtomicBool::new(true);
    let c = Cube::from_moves(&parse_moves("R U F D L B R2 U2 F' L'").unwrap());
    let r = solve(
        h(),
        &c,
        &SearchOptions {
            threads: 2,
            ..SearchOptions::default()
        },
        &stop,
    );
    assert!(r.interrupted);
    assert!(!r.optimal);
    assert!(r.solution.is_none());
}

/// Positions fixed by some of the 48 symmetries (classic patterns and products of two of
/// them, which keep the symmetries they share): one work unit per set of conjugate units
/// gives the same optimal lengths as the whole tree, on 1 and 2 threads, plain and dual,
/// with fewer nodes in the complete iterations of some; a random position is fixed by none.
#[test]
fn symmetric_positions_search_one_unit_per_orbit() {
    use super::ida::stabilizer;
    let superflip = Cube::from_moves(&parse_moves(crate::cube::SUPERFLIP).unwrap());
    assert_eq!(stabilizer(&superflip).len(), 47);
    let mut rng = Rng::new(17);
    assert!(stabilizer(&Cube::random(&mut rng)).is_empty());
    let patterns = [
        "F2 B2 R2 L2 U2 D2",
        "U D' R L' F B' U D'",
        "F2 B2 U D' R2 L2 U D'",
        "U2 R2 L2 U2 R2 L2",
        "U F B' L2 U2 L2 F' B U2 L2 U",
        "F2 B2 R2 L2 U2 D2 U D' R L' F B' U D'",
        "U2 R2 L2 U2 R2 L2 F2 B2 U D' R2 L2 U D'",
    ];
    let mut fewer = 0;
    for s in patterns {
        let c = Cube::from_moves(&parse_moves(s).unwrap());
        assert!(!stabilizer(&c).is_empty(), "{s} is not symmetric");
        for (threads, dual) in [(1, false), (2, true)] {
            let whole = SearchOptions {
                threads,
                dual,
                symmetric_units: false,
                ..SearchOptions::default()
            };
            let one = SearchOptions {
                symmetric_units: true,
                ..whole.clone()
            };
            let (len_whole, it_whole) = complete_iterations(h(), &c, &whole);
            let (len_one, it_one) = complete_iterations(h(), &c, &one);
            assert_eq!(len_one, len_whole, "{s} threads {threads}");
            let nodes = |it: &[(u8, u64)]| it.iter().map(|x| x.1).sum::<u64>();
            assert!(nodes(&it_one) <= nodes(&it_whole), "{s}");
            fewer += usize::from(nodes(&it_one) < nodes(&it_whole));
        }
    }
    assert!(fewer >= 4, "the filter cut nodes on only {fewer} runs");
}

/// A coset set's fallbacks (`sym48e0` with corners, edges6a, edges6b, and with the small sets'
/// edges5a, edges5b, corners48) never overestimate: every position within 6 moves, read on
/// the position and its inverse; and they raise the value of positions in the coset subgroup,
/// where the coset table reads 0.
#[test]
fn fallbacks_are_admissible_up_to_depth_6() {
    fallbacks_admissible(crate::testing::sym48e0_fallbacks());
    fallbacks_admissible(crate::testing::sym48e0_small_fallbacks());
}

fn fallbacks_admissible(h: &Heuristic) {
    assert_eq!(
        h.tables()[0].0,
        Pattern::SYM48E0,
        "the coset table is read first"
    );
    assert!(h.lookups()[1..].iter().all(|l| l.fallback));
    let coset = crate::testing::sym48e0();
    let mut layers: Vec<Vec<Cube>> = Vec::new();
    let mut seen = std::collections::HashSet::from([Cube::SOLVED]);
    layers.push(vec![Cube::SOLVED]);
    for d in 1..=6u8 {
        let mut next = Vec::new();
        for c in &layers[d as usize - 1] {
            for m in Move::all() {
                let n = c.apply(m);
                // The last layer is not kept: each new position is checked and dropped.
                let new = if d < 6 {
                    seen.insert(n)
                } else {
                    !seen.contains(&n)
                };
                if !new {
                    continue;
                }
                let q = n.inverse();
                assert!(h.value(&n, &q, true) <= d, "{n:?} at {d}");
                assert!(h.value(&q, &n, true) <= d, "inverse of {n:?} at {d}");
                if d < 6 {
                    next.push(n);
                }
            }
        }
        if d < 6 {
            layers.push(next);
        }
    }
    // In the subgroup (half turns only) the coset table reads 0, the fallbacks more.
    let mut rng = Rng::new(38);
    for _ in 0..20 {
        let c = Cube::random_half_turn(&mut rng);
        if c.is_solved() {
            continue;
        }
        let q = c.inverse();
        assert_eq!(coset.value(&c, &q, true), 0);
        assert!(h.value(&c, &q, true) >= 3, "{c:?}");
    }
}

/// Positions of the coset subgroup within 10 moves (elements of the half-turn group, and
/// patterns): the coset set with its fallbacks finds the lengths of `korf6` (itself checked
/// against brute force elsewhere), and the fallbacks are read: without them (a slack no child
/// has) the same searches generate many times the nodes; with the small sets' fallbacks
/// too (fewer times: they are weaker).
#[test]
fn fallbacks_serve_the_coset_subgroup() {
    fallbacks_serve(crate::testing::sym48e0_fallbacks(), 5);
    fallbacks_serve(crate::testing::sym48e0_small_fallbacks(), 2);
}

fn fallbacks_serve(h: &Heuristic, factor: u64) {
    let ball = ball5();
    let mut rng = Rng::new(3838);
    let mut positions: Vec<Cube> = (0..10).map(|_| Cube::random_half_turn(&mut rng)).collect();
    positions.push(Cube::from_moves(&parse_moves("U2 D2 F2 B2 L2 R2").unwrap()));
    positions.push(Cube::from_moves(
        &parse_moves("F2 B2 U D' R2 L2 U D'").unwrap(),
    ));
    let with = SearchOptions {
        threads: 2,
        dual: true,
        ..SearchOptions::default()
    };
    let without = SearchOptions {
        fallback_slack: 255,
        ..with.clone()
    };
    let (mut nodes_with, mut nodes_without) = (0, 0);
    let mut checked = 0;
    for c in positions {
        let Some(d) = ball.distance(&c) else {
            continue; // beyond 10 moves
        };
        checked += 1;
        let (s, it) = solve_checked(h, &c, &with);
        assert_eq!(s.len() as u8, d, "{c:?}");
        let (k, _) = solve_checked(korf6(), &c, &with);
        assert_eq!(k.len(), s.len(), "{c:?}");
        let (s2, it2) = solve_checked(h, &c, &without);
        assert_eq!(s2.len(), s.len());
        nodes_with += it.iter().map(|i| i.1).sum::<u64>();
        nodes_without += it2.iter().map(|i| i.1).sum::<u64>();
    }
    assert!(checked >= 6, "only {checked} positions within 10 moves");
    assert!(
        nodes_with * factor < nodes_without,
        "fallbacks read: {nodes_with} nodes, not read: {nodes_without}"
    );
}

/// Collecting solutions ([`SearchOptions::solutions`]): with all asked for, the list is exactly
/// the brute-force enumeration of the canonical optimal sequences, on 1 and 2 threads, with the
/// `korf6` set (plain and dual) and a coset set with its fallbacks, on random positions and on
/// symmetric ones (whose units the default search would fold); with `N` asked for, the same
/// `min(N, all)` solutions on 1 and 2 threads, all of them optimal.
#[test]
fn all_optimal_solutions_match_brute_force() {
    use super::ALL_SOLUTIONS;
    let ball = ball5();
    let mut rng = Rng::new(41);
    let mut positions: Vec<Cube> = (0..10).map(|k| random_walk(&mut rng, 3 + k % 5)).collect();
    for s in [
        "F2 B2 R2 L2 U2 D2",
        "U D' R L' F B' U D'",
        "R2 L2 U2 D2",
        "U2 R2 L2 U2 R2 L2",
    ] {
        positions.push(Cube::from_moves(&parse_moves(s).unwrap()));
    }
    let mut several = 0;
    for c in &positions {
        let d = ball.distance(c).expect("within 10");
        let want = ball.all_solutions(c, d);
        several += usize::from(want.len() > 1);
        for (heuristic, dual) in [
            (h(), false),
            (h(), true),
            (crate::testing::sym48e0_fallbacks(), true),
        ] {
            let mut firsts = Vec::new();
            for threads in [1, 2] {
                let ask = |solutions| SearchOptions {
                    threads,
                    dual,
                    solutions,
                    ..SearchOptions::default()
                };
                let r = solve(heuristic, c, &ask(ALL_SOLUTIONS), &NO_STOP);
                assert!(r.optimal);
                assert_eq!(r.solutions, want, "{c:?} threads {threads} dual {dual}");
                assert_eq!(r.solution.as_ref(), want.first());
                let r = solve(heuristic, c, &ask(3), &NO_STOP);
                assert_eq!(r.solutions.len(), want.len().min(3));
                assert!(r.solutions.iter().all(|s| want.contains(s)));
                assert!(r.solutions.is_sorted());
                firsts.push(r.solutions);
            }
            assert_eq!(
                firsts[0], firsts[1],
                "{c:?} dual {dual}: 1 and 2 threads differ"
            );
        }
    }
    assert!(
        several >= 4,
        "only {several} positions had more than one optimal solution"
    );
}

/// Classes of optimal solutions under the position's symmetries (and symmetry × inversion):
/// the checkerboard's six solutions (the orders of its three axes) are one class; a position
/// with no symmetry keeps every solution; each class's orbit lies in the list, so an
/// incomplete list is refused.
#[test]
fn optimal_solutions_up_to_symmetry() {
    use super::{ALL_SOLUTIONS, symmetry_classes};
    let all = |c: &Cube| {
        let opts = SearchOptions {
            solutions: ALL_SOLUTIONS,
            ..SearchOptions::default()
        };
        solve(h(), c, &opts, &NO_STOP).solutions
    };
    let checkerboard = Cube::from_moves(&parse_moves("U2 D2 F2 B2 L2 R2").unwrap());
    let list = all(&checkerboard);
    assert_eq!(list.len(), 6);
    assert_eq!(symmetry_classes(&checkerboard, &list).unwrap().len(), 1);
    assert!(symmetry_classes(&checkerboard, &list[..5]).is_err());
    // Six spots: symmetric, several classes, fewer than solutions.
    let spots = Cube::from_moves(&parse_moves("U D' R L' F B' U D'").unwrap());
    let list = all(&spots);
    let classes = symmetry_classes(&spots, &list).unwrap();
    assert!(classes.len() < list.len() && classes.iter().all(|c| list.contains(c)));
    // No symmetry: every solution is its own class.
    let mut rng = Rng::new(5);
    let mut plain = 0;
    for _ in 0..6 {
        let c = random_walk(&mut rng, 7);
        if !super::ida::stabilizer(&c).is_empty() || c == c.inverse() {
            continue;
        }
        let list = all(&c);
        assert_eq!(symmetry_classes(&c, &list).unwrap(), list);
        plain += 1;
    }
    assert!(plain > 0);
}
