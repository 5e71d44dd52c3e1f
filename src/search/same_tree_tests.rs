//! The search's optimizations checked against the plain search: each one (move order, lanes and
//! threads, skipped and split lookups, half-turn cuts, inverse-first probes, corner successors,
//! both compiled loops) finds the same lengths and, where it promises to, prunes exactly the
//! same nodes, iteration by iteration. The `korf6` tables are built in-process.

use super::options::Optimizations;
use super::tests::{complete_iterations, h, solve_checked};
use super::{Heuristic, SearchOptions};
use crate::cube::{Cube, Move, Rng, parse_moves};
use crate::pdb::Pattern;
use crate::testing::phase1;

/// Ordering the work units by the previous iteration's nodes changes only which subtree the
/// last iteration meets its solution in: the lengths and every complete iteration's nodes are
/// those of the heuristic order, on 1 and 2 threads, plain and dual.
#[test]
fn node_order_keeps_lengths_and_trees() {
    let mut rng = Rng::new(1913);
    for len in [9, 10, 11, 12] {
        let moves: Vec<Move> = (0..len)
            .map(|_| Move::from_index(rng.below(18) as usize))
            .collect();
        let c = Cube::from_moves(&moves);
        for (threads, dual) in [(1, false), (2, true)] {
            let by_h = SearchOptions {
                threads,
                dual,
                node_order: false,
                ..SearchOptions::default()
            };
            let by_nodes = SearchOptions {
                node_order: true,
                ..by_h.clone()
            };
            let (len_h, it_h) = complete_iterations(h(), &c, &by_h);
            let (len_n, it_n) = complete_iterations(h(), &c, &by_nodes);
            assert_eq!(len_n, len_h, "{moves:?} threads {threads}");
            assert_eq!(it_n, it_h, "{moves:?} threads {threads}");
        }
    }
}

/// Interleaving lanes and threads changes the order in which subtrees are visited, not the
/// tree: every complete iteration generates exactly the same nodes.
#[test]
fn lanes_and_threads_search_the_same_tree() {
    let c = Cube::from_moves(&parse_moves("R U2 F' L D B' R2 U F' D2").unwrap());
    let run = |threads, lanes, dual| {
        let opts = SearchOptions {
            threads,
            lanes,
            dual,
            ..SearchOptions::default()
        };
        complete_iterations(h(), &c, &opts).1
    };
    for dual in [false, true] {
        let reference = run(1, 1, dual);
        assert!(reference.len() >= 2, "{reference:?}");
        for (threads, lanes) in [(1, 4), (1, 7), (2, 1), (2, 4)] {
            assert_eq!(
                run(threads, lanes, dual),
                reference,
                "{threads} {lanes} {dual}"
            );
        }
    }
}

/// Complete iterations with `opts(true)` and with `opts(false)` generate the same nodes (and
/// at least two iterations complete); `what` names the case in a failure.
fn assert_same_trees(
    heuristic: &Heuristic,
    c: &Cube,
    what: &str,
    opts: impl Fn(bool) -> SearchOptions,
) {
    let (with, without) = (
        complete_iterations(heuristic, c, &opts(true)),
        complete_iterations(heuristic, c, &opts(false)),
    );
    assert!(with.1.len() >= 2, "{with:?}");
    assert_eq!(with, without, "{what}");
}

/// Skipping the lookups that cannot prune must not change what is pruned: complete iterations
/// generate the same nodes with and without it, plain and dual.
#[test]
fn skipped_lookups_prune_nothing() {
    for scramble in ["R U2 F' L D B' R2 U F' D2", "B2 R' B R' B U R2 B R F B2"] {
        let c = Cube::from_moves(&parse_moves(scramble).unwrap());
        for dual in [false, true] {
            assert_same_trees(
                h(),
                &c,
                &format!("{scramble} dual {dual}"),
                |skip_lookups| SearchOptions {
                    dual,
                    optimizations: Optimizations {
                        skip_lookups,
                        ..Optimizations::ALL
                    },
                    ..SearchOptions::default()
                },
            );
        }
    }
}

/// Reading a dual lookup in two rounds (the inverse only for the children the position's
/// entry did not prune) must not change what is pruned: complete iterations generate the same
/// nodes with and without it, for the coset table `sym48e0` and for `korf6` read both ways.
#[test]
fn split_dual_lookups_prune_the_same_nodes() {
    for (heuristic, scramble) in [
        (
            crate::testing::sym48e0(),
            "R U2 F' L D B' R2 U F' D2 L' B U' R2 F",
        ),
        (h(), "B2 R' B R' B U R2 B R F B2"),
    ] {
        let c = Cube::from_moves(&parse_moves(scramble).unwrap());
        assert_same_trees(heuristic, &c, scramble, |split_dual| SearchOptions {
            dual: true,
            optimizations: Optimizations {
                split_dual,
                ..Optimizations::ALL
            },
            ..SearchOptions::default()
        });
    }
}

/// [`assert_same_trees`] for an option of the coset table `sym48e0` read both ways, on a
/// 15-move scramble, for each value of a second option (`other` names it in a failure):
/// `opts(other_value, tested_value)`.
fn assert_same_coset_trees(other: &str, opts: impl Fn(bool, bool) -> SearchOptions) {
    let scramble = "R U2 F' L D B' R2 U F' D2 L' B U' R2 F";
    let c = Cube::from_moves(&parse_moves(scramble).unwrap());
    for value in [true, false] {
        let what = format!("{scramble} {other} {value}");
        assert_same_trees(crate::testing::sym48e0(), &c, &what, |tested| {
            opts(value, tested)
        });
    }
}

/// Cutting the half-turn children by the node's own inverse value prunes exactly what their
/// inverse entries would: complete iterations generate the same nodes with and without the
/// cuts, for the coset table `sym48e0` read in one round and in two.
#[test]
fn half_turn_cuts_prune_the_same_nodes() {
    assert_same_coset_trees("split", |split_dual, half_turn_cuts| SearchOptions {
        dual: true,
        optimizations: Optimizations {
            split_dual,
            half_turn_cuts,
            ..Optimizations::ALL
        },
        ..SearchOptions::default()
    });
}

/// Reading a split coset lookup's inverse entries first (and sharing one inverse index
/// between the two quarter turns of a face) prunes the same nodes as reading the position's
/// first: complete iterations generate the same nodes either way, with and without the
/// half-turn cuts.
#[test]
fn inverse_first_prunes_the_same_nodes() {
    assert_same_coset_trees("half-turn cuts", |half_turn_cuts, inverse_first| {
        SearchOptions {
            dual: true,
            optimizations: Optimizations {
                half_turn_cuts,
                inverse_first,
                ..Optimizations::ALL
            },
            ..SearchOptions::default()
        }
    });
}

/// Reading the corner values of all children from the corner successor table prunes exactly
/// what reading the corner table child by child prunes: complete iterations generate the same
/// nodes, with the corner lookup first (`korf6`) and after three others (`phase1`).
#[test]
fn corner_successors_prune_the_same_nodes() {
    for (heuristic, scramble) in [
        (h(), "R U2 F' L D B' R2 U F' D2"),
        (phase1(), "B2 R' B R' B U R2 B R F B2"),
    ] {
        let c = Cube::from_moves(&parse_moves(scramble).unwrap());
        assert!(heuristic.corner_successors().is_some());
        for dual in [false, true] {
            let what = format!("{scramble} dual {dual}");
            assert_same_trees(heuristic, &c, &what, |corner_successors| SearchOptions {
                dual,
                corner_successors,
                ..SearchOptions::default()
            });
        }
    }
}

/// The search loop compiled for x86-64-v3 and the baseline one search the same trees: same
/// node counts in every iteration, same solution. (On a CPU without x86-64-v3 both runs take
/// the baseline loop and the test checks nothing more than determinism.)
#[test]
fn both_compiled_search_loops_agree() {
    for scramble in ["R U2 F' L D B' R2 U F' D2", "B2 R' B R' B U R2 B R F B2"] {
        let c = Cube::from_moves(&parse_moves(scramble).unwrap());
        for (dual, lanes) in [(false, 4), (true, 1)] {
            let run = |x86_64_v3| {
                let opts = SearchOptions {
                    dual,
                    lanes,
                    optimizations: Optimizations {
                        x86_64_v3,
                        ..Optimizations::ALL
                    },
                    ..SearchOptions::default()
                };
                solve_checked(h(), &c, &opts)
            };
            assert_eq!(run(false), run(true), "{scramble} dual {dual}");
        }
    }
}

/// The search reads the corner table at the corner coordinates of the position (kept by move
/// tables), while the table is indexed by the inverse cube: both give the same entry value,
/// because the corner table is self-dual; so do the dual lookups the search skips.
#[test]
fn corner_coordinates_read_the_same_entries() {
    use crate::coord::{self, MoveTables, N_MOVES};
    use crate::testing::korf6_table;
    let table = korf6_table(Pattern::CORNERS);
    let mt = MoveTables::get();
    let mut rng = Rng::new(31);
    for _ in 0..3000 {
        let p = Cube::random(&mut rng);
        let q = p.inverse();
        let (cp, tw) = (coord::corners(&p.cp()), coord::twist(&p.co()));
        let by_coordinates = cp as u64 * 2187 + tw as u64;
        assert_eq!(by_coordinates, Pattern::CORNERS.index_of_inverse(&p));
        assert_eq!(
            table.get(by_coordinates),
            table.get(Pattern::CORNERS.index(&p))
        );
        assert!(Pattern::CORNERS.is_self_dual());
        assert_eq!(
            table.get(Pattern::CORNERS.index_of_inverse(&q)),
            table.get(Pattern::CORNERS.index_of_inverse(&p))
        );
        // The move tables follow the position: coordinates of p·m.
        for m in Move::all() {
            let pm = p.apply(m);
            assert_eq!(
                mt.corners[cp as usize * N_MOVES + m.index()],
                coord::corners(&pm.cp())
            );
            assert_eq!(
                mt.twist[tw as usize * N_MOVES + m.index()],
                coord::twist(&pm.co())
            );
        }
    }
}
