//! Optimal solving within a move set ([`MoveSet`], `solve --moveset` and Python's
//! `Solver.solve_in`): the refusal of positions the set cannot make, the two ways a set is
//! solved, and the check that every solution keeps to the set, written once for both fronts.
//!
//! **Refusal.** A search for what a set cannot reach runs to its depth limit (minutes, hours),
//! so both the solved cube ([`refusal`]) and every other goal ([`goal_refusal`]: `--goal`,
//! `--mask`, Python's `solve_goal`) are first put to the same cheap tests, which are exact
//! where they speak ([`stuck`]): a slot that no turn of the set moves keeps its piece, turned as
//! it is, forever; and if no turn of the set flips an edge (twists a corner), every edge
//! (corner) keeps its orientation wherever it goes. The solved cube is the goal that fixes
//! every piece; a goal fixes some (the cross: four edges) and frees the others, so what it does
//! not fix never refuses. A goal accepted in any orientation is refused only when every
//! orientation is refused.
//!
//! A set that a symmetry maps onto `<R,U>` (two adjacent faces with all their turns,
//! [`subset::exact_table_symmetry`]) walks down the exact `<R,U>` table
//! ([`subset::solve_exact`]); any other set is searched with a solver's tables
//! ([`subset::solve_in`], one thread).

use super::outcome::Outcome;
use crate::coord::goal::{GoalCheck, conjugate};
use crate::coord::symmetry::symmetries;
use crate::cube::{CORNER_NAMES, Cube, EDGE_NAMES, Goal};
use crate::pdb::ru::RuTable;
use crate::search::subset::{self, MoveSet};
use crate::search::{Heuristic, SearchOptions};
use std::sync::atomic::AtomicBool;

/// How a move set's positions are solved.
pub enum Route<'a> {
    /// The exact `<R,U>` table, read on the position conjugated by symmetry `sym` (the one
    /// [`subset::exact_table_symmetry`] gives for the set).
    Exact { table: &'a RuTable, sym: usize },
    /// IDA* restricted to the set, with these tables.
    Search(&'a Heuristic),
}

/// Why `set` cannot solve `cube` (the message both fronts show), or `None` if no cheap exact
/// test shows it ([`stuck`] for the solved cube, then the exact table's group for a set that
/// has one, [`MoveSet::outside_group`]). Cheap: the fronts check every input with it before
/// any table is opened.
pub fn refusal(set: &MoveSet, cube: &Cube) -> Option<String> {
    stuck(set, cube, &Goal::solved(), 0)
        .or_else(|| set.outside_group(cube))
        .map(|why| format!("the move set {set} cannot solve it: {why}"))
}

/// Why `set` cannot take `cube` to `check`'s goal (the message the fronts show), or `None` if
/// no cheap exact test shows it: [`stuck`] in each orientation the goal is accepted in (one, or
/// with `any_orientation` one of each group of [`GoalCheck::frames`]); refused only when every
/// one of them is stuck, the reason given the first's. Cheap (a few conjugations per turn of
/// the set): the fronts check every input before any table is opened, and the goal solver
/// checks each position it is given.
pub fn goal_refusal(set: &MoveSet, check: &GoalCheck, cube: &Cube) -> Option<String> {
    if *set == MoveSet::ALL {
        return None;
    }
    let frames = check.frames();
    let why = stuck(set, cube, &check.goal, frames[0])?;
    if !(frames[1..].iter()).all(|&s| stuck(set, cube, &check.goal, s).is_some()) {
        return None;
    }
    let goal = match check.goal.name() {
        "mask" => "the mask's goal".to_string(),
        name => format!("goal {name}"),
    };
    let every = if frames.len() > 1 {
        "; and likewise in every other orientation"
    } else {
        ""
    };
    Some(format!(
        "the move set {set} cannot reach {goal} from it: {why}{every}"
    ))
}

/// One kind of piece as [`stuck`] reads it.
struct Kind<'a> {
    /// `corner` or `edge`, and the slots' names.
    name: &'static str,
    names: &'static [&'static str],
    /// A slot's piece and orientation in a cube.
    read: fn(&Cube, usize) -> (u8, u8),
    /// The goal's class and whether orientation counts, by piece.
    class: &'a [u8],
    oriented: &'a [bool],
    /// The slot of the position (as given) that each slot of the frame is.
    slot: &'a [u8],
    /// What a wrong orientation is called, and what a turn that makes one does.
    turned: &'static str,
    turns: &'static str,
}

/// Why no sequence of `set`'s turns takes `cube` to where `goal` holds, read in `frame` (a
/// rotation, [`GoalCheck::frames`]: the goal holds on `cube`'s conjugate by it), when one of
/// two exact tests shows it; `None` says only that they pass. The position and the set's turns
/// are both conjugated, so orientations are read about the goal's axis.
///
/// - A slot that none of the turns moves (each leaves it its piece, unturned) keeps its piece
///   and that piece's orientation after any sequence: if they do not meet the goal there (a
///   piece of another class, or turned where orientation counts), nothing mends them. For the
///   solved cube: a slot no turn moves must be solved.
/// - If none of the turns flips an edge (twists a corner), each edge (corner) keeps its
///   orientation wherever the turns take it: one whose orientation counts and is wrong stays
///   wrong. (A piece the turns move may still change orientation otherwise, so nothing finer
///   is claimed.)
///
/// Slots and pieces are named as in `cube`, whatever the frame (frame slot `i` is slot
/// `S.cp[i]` of `cube` for the rotation `S = symmetries().cubes[frame]`).
pub fn stuck(set: &MoveSet, cube: &Cube, goal: &Goal, frame: usize) -> Option<String> {
    let syms = symmetries();
    let p = conjugate(syms, cube, frame);
    let turns: Vec<Cube> = set
        .moves()
        .map(|m| conjugate(syms, m.cube(), frame))
        .collect();
    let rotation = &syms.cubes[frame];
    let solved = goal.is_solved_goal();
    // Orientations are read about the goal's axis: say so when it is not F/B's.
    let about = if frame == 0 {
        ""
    } else {
        " about the goal's axis"
    };
    let kinds = [
        Kind {
            name: "corner",
            names: &CORNER_NAMES,
            read: |c, i| (c.corner_perm(i), c.corner_ori(i)),
            class: goal.corner_classes(),
            oriented: goal.corners_oriented(),
            slot: &rotation.cp,
            turned: "twisted",
            turns: "twists a corner",
        },
        Kind {
            name: "edge",
            names: &EDGE_NAMES,
            read: |c, i| (c.edge_perm(i), c.edge_ori(i)),
            class: goal.edge_classes(),
            oriented: goal.edges_oriented(),
            slot: &rotation.ep,
            turned: "flipped",
            turns: "flips an edge",
        },
    ];
    // The piece of `cube` in frame slot `i`, named, with the slot's name.
    let named = |k: &Kind, i: usize| {
        let at = k.slot[i] as usize;
        (k.names[at], k.names[(k.read)(cube, at).0 as usize])
    };
    for k in &kinds {
        for i in 0..k.names.len() {
            let still = turns.iter().all(|t| (k.read)(t, i) == (i as u8, 0));
            let (piece, ori) = (k.read)(&p, i);
            let class_fits = k.class[piece as usize] == k.class[i];
            let turned = k.oriented[piece as usize] && ori != 0;
            if !still || (class_fits && !turned) {
                continue;
            }
            let (slot, held) = named(k, i);
            let kind = k.name;
            return Some(if solved {
                format!("no turn of the move set moves the {slot} {kind}, which is not solved")
            } else if !class_fits {
                format!(
                    "no turn of the move set moves the {slot} {kind} slot, which holds the \
                     {held} {kind}, not one the goal puts there"
                )
            } else {
                format!(
                    "no turn of the move set moves the {slot} {kind} slot, whose {held} {kind} \
                     is {}{about}, and the goal needs it oriented",
                    k.turned
                )
            });
        }
    }
    for k in kinds.iter().rev() {
        let n = k.names.len();
        if turns.iter().any(|t| (0..n).any(|i| (k.read)(t, i).1 != 0)) {
            continue;
        }
        let wrong = (0..n).find(|&i| {
            let (piece, ori) = (k.read)(&p, i);
            k.oriented[piece as usize] && ori != 0
        });
        if let Some(i) = wrong {
            let (slot, held) = named(k, i);
            return Some(format!(
                "no turn of the move set {}{about}, and the {held} {} (in the {slot} slot) is {}",
                k.turns, k.name, k.turned
            ));
        }
    }
    None
}

/// Solves `cube` (called `input` in the outcome) optimally within `set` by `route`: as many
/// optimal solutions as `opts.solutions` asks for, `stop` ending a search early. An error says
/// why the set cannot solve the position ([`refusal`]), or that a solution left the set (an
/// internal error). The caller checks the solutions on the position, as for every solver.
pub fn solve(
    input: &str,
    cube: &Cube,
    set: &MoveSet,
    route: Route<'_>,
    opts: &SearchOptions,
    stop: &AtomicBool,
) -> Result<Outcome, String> {
    if let Some(why) = refusal(set, cube) {
        return Err(why);
    }
    let result = match route {
        Route::Exact { table, sym } => subset::solve_exact(table, cube, sym, opts)
            .map_err(|e| format!("the move set {set} cannot solve it: {e}"))?,
        Route::Search(h) => subset::solve_in(h, cube, set, opts, stop),
    };
    Outcome::from_search(input, result, None, opts.solutions).in_moveset(set)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cube::{Move, Rng, parse_moves};

    fn cube(moves: &str) -> Cube {
        Cube::from_moves(&parse_moves(moves).unwrap())
    }

    fn check(name: &str, any_orientation: bool) -> GoalCheck {
        GoalCheck {
            goal: Goal::named(name).unwrap(),
            any_orientation,
        }
    }

    /// Positions outside a subset's reach are named by the cheap tests.
    #[test]
    fn unreachable_positions_are_named() {
        let ru = MoveSet::parse("R U").unwrap();
        let why = refusal(&ru, &cube("F")).unwrap();
        assert!(why.contains("not solved") && why.contains("U R"), "{why}");
        let g1 = MoveSet::parse("U D R L F2 B2").unwrap();
        let why = refusal(&g1, &cube("F R F'")).unwrap_or_default();
        assert!(why.contains("flip") || why.contains("twist"), "{why}");
        let half = MoveSet::parse("U2 D2 R2 L2 F2 B2").unwrap();
        assert!(refusal(&half, &cube("R U R' U R U2 R'")).is_some());
        assert_eq!(refusal(&ru, &cube("R U2 R'")), None);
    }

    /// Issue 104, trap 4: a goal the set cannot reach is refused, naming the piece and the
    /// set: after `F` the DF slot holds the FR edge, and neither R nor U moves DF. As a mask,
    /// in QTM terms alike (no metric is read), and in any orientation only when every
    /// orientation is stuck (after `F` the B face's cross still holds; after `F B` with U
    /// alone none can be made).
    #[test]
    fn unreachable_goals_are_refused() {
        let ru = MoveSet::parse("R U").unwrap();
        let why = goal_refusal(&ru, &check("cross", false), &cube("F")).expect("refused");
        assert!(
            why.starts_with("the move set U R cannot reach goal cross"),
            "{why}"
        );
        assert!(
            why.contains("DF edge slot") && why.contains("FR edge"),
            "{why}"
        );
        let cross_mask = Goal::named("cross").unwrap().mask().expect("a mask");
        let mask = GoalCheck {
            goal: Goal::from_mask(&cross_mask).unwrap(),
            any_orientation: false,
        };
        let why = goal_refusal(&ru, &mask, &cube("F")).expect("refused as a mask");
        assert!(
            why.contains("the mask's goal") && why.contains("DF"),
            "{why}"
        );
        // Not refused: DF is home again, or R and U can bring the pieces back.
        assert_eq!(
            goal_refusal(&ru, &check("cross", false), &cube("F F'")),
            None
        );
        assert_eq!(
            goal_refusal(&ru, &check("cross", false), &cube("R U R")),
            None
        );
        // Any orientation: the B cross holds after F; after F B no cross is in U's reach.
        assert_eq!(goal_refusal(&ru, &check("cross", true), &cube("F")), None);
        let u = MoveSet::parse("U").unwrap();
        let why = goal_refusal(&u, &check("cross", true), &cube("F B")).expect("all stuck");
        assert!(why.contains("every other orientation"), "{why}");
        // Orientation: <U,D,R,L,F2,B2> never flips an edge, so `eo` is out of reach after F.
        let g1 = MoveSet::parse("U D R L F2 B2").unwrap();
        let why = goal_refusal(&g1, &check("eo", false), &cube("F")).expect("flipped");
        assert!(
            why.contains("flips an edge") && why.contains("flipped"),
            "{why}"
        );
        // About U/D the same set flips edges (U, D quarter turns): eo-ud is not refused.
        assert_eq!(goal_refusal(&g1, &check("eo-ud", false), &cube("F")), None);
        // The set of every turn is never refused.
        assert_eq!(
            goal_refusal(&MoveSet::ALL, &check("cross", false), &cube("F")),
            None
        );
    }

    /// A position meeting `goal` (read about F/B): each class's pieces shuffled among its
    /// slots, orientations random where they do not count, then the twist and flip sums and
    /// the two parities mended with pieces the goal leaves free to mend them.
    fn meeting(goal: &Goal, rng: &mut Rng) -> Cube {
        fn place<const N: usize>(
            class: &[u8; N],
            oriented: &[bool; N],
            turns: u8,
            rng: &mut Rng,
        ) -> ([u8; N], [u8; N]) {
            let mut perm: [u8; N] = std::array::from_fn(|i| i as u8);
            for c in 0..=*class.iter().max().unwrap() {
                let slots: Vec<usize> = (0..N).filter(|&i| class[i] == c).collect();
                let mut pieces = slots.clone();
                for k in (1..pieces.len()).rev() {
                    pieces.swap(k, rng.below(k as u64 + 1) as usize);
                }
                for (&s, &p) in slots.iter().zip(&pieces) {
                    perm[s] = p as u8;
                }
            }
            let mut ori = [0u8; N];
            for i in 0..N {
                if !oriented[perm[i] as usize] {
                    ori[i] = rng.below(turns as u64) as u8;
                }
            }
            let sum = ori.iter().map(|&o| o as u32).sum::<u32>() % turns as u32;
            if let Some(i) = (0..N).find(|&i| !oriented[perm[i] as usize]) {
                ori[i] = ((ori[i] as u32 + turns as u32 - sum) % turns as u32) as u8;
            }
            (perm, ori)
        }
        let (mut cp, mut co) = place(goal.corner_classes(), goal.corners_oriented(), 3, rng);
        let (mut ep, mut eo) = place(goal.edge_classes(), goal.edges_oriented(), 2, rng);
        if crate::cube::parity(&cp) != crate::cube::parity(&ep) {
            // Swap two slots of one class (their pieces, each with its orientation).
            let pair = |class: &[u8]| {
                (0..class.len())
                    .flat_map(|a| (a + 1..class.len()).map(move |b| (a, b)))
                    .find(|&(a, b)| class[a] == class[b])
            };
            if let Some((a, b)) = pair(goal.corner_classes()) {
                cp.swap(a, b);
                co.swap(a, b);
            } else {
                let (a, b) = pair(goal.edge_classes()).expect("a class of two");
                ep.swap(a, b);
                eo.swap(a, b);
            }
        }
        let c = Cube::from_parts(cp, co, ep, eo);
        assert_eq!(c.validate(), Ok(()), "{}", goal.name());
        assert!(goal.holds(&c), "{}", goal.name());
        c
    }

    /// Never a false refusal: for positions that a word of the set's turns takes to the goal
    /// (`Q · w⁻¹`, `Q` meeting it), random sets of one to three faces' turns, goals that fix
    /// pieces and goals that fix orientations, about each axis and in any orientation, the
    /// refusal stays silent; the tests do speak for some positions off such words.
    #[test]
    fn reachable_goals_are_never_refused() {
        let mut rng = Rng::new(1044);
        let syms = symmetries();
        let mut refused = 0;
        for name in [
            "cross", "xcross", "2x2x2", "f2l", "corners", "eo", "eo-ud", "dr", "oll",
        ] {
            for any in [false, true] {
                let check = check(name, any);
                let frame = check.frames()[0];
                for _ in 0..60 {
                    let mask = (0..1 + rng.below(3)).fold(0u32, |m, _| {
                        m | (1 + rng.below(7) as u32) << (3 * rng.below(6))
                    });
                    let text: Vec<String> = (0..18)
                        .filter(|i| mask >> i & 1 != 0)
                        .map(|i| Move::from_index(i).to_string())
                        .collect();
                    let set = MoveSet::parse(&text.join(" ")).unwrap();
                    let turns: Vec<Move> = set.moves().collect();
                    let w: Vec<Move> = (0..rng.below(9))
                        .map(|_| turns[rng.below(turns.len() as u64) as usize])
                        .collect();
                    // Q meets the goal held in its frame: Q' meets it about F/B.
                    let q = conjugate(
                        syms,
                        &meeting(&check.goal, &mut rng),
                        syms.inv[frame] as usize,
                    );
                    assert!(check.holds(&q), "{name}");
                    let p = q.compose(&Cube::from_moves(&w).inverse());
                    assert!(check.holds(&p.apply_seq(&w)));
                    assert_eq!(goal_refusal(&set, &check, &p), None, "{name} {set} {any}");
                    // One more turn outside the set: sometimes out of reach, never wrongly.
                    let off = p.apply(Move::from_index(rng.below(18) as usize));
                    refused += usize::from(goal_refusal(&set, &check, &off).is_some());
                }
            }
        }
        assert!(refused > 20, "the tests never spoke: {refused}");
    }

    /// The slots that a turn's conjugate moves are the conjugated slots ([`stuck`]'s names):
    /// frame slot `i` is slot `S.cp[i]` (`S.ep[i]`) of the position.
    #[test]
    fn frame_slots_are_named_as_the_position_has_them() {
        let syms = symmetries();
        for s in (0..48).step_by(2) {
            let r = &syms.cubes[s];
            for m in Move::all() {
                let c = conjugate(syms, m.cube(), s);
                for i in 0..8 {
                    let moved =
                        |x: &Cube, i: usize| (x.corner_perm(i), x.corner_ori(i)) != (i as u8, 0);
                    assert_eq!(moved(&c, i), moved(m.cube(), r.cp[i] as usize), "{s} {m}");
                }
                for i in 0..12 {
                    let moved =
                        |x: &Cube, i: usize| (x.edge_perm(i), x.edge_ori(i)) != (i as u8, 0);
                    assert_eq!(moved(&c, i), moved(m.cube(), r.ep[i] as usize), "{s} {m}");
                }
            }
        }
    }

    /// Both routes give checked outcomes of the same optimal length, keep to the set, and
    /// refuse a position the set cannot make with the same message.
    #[test]
    fn both_routes_agree_and_refuse_alike() {
        let set = MoveSet::parse("F L").unwrap();
        let sym = subset::exact_table_symmetry(&set).expect("two adjacent faces");
        let table = crate::testing::ru_table();
        let h = crate::testing::korf6();
        let opts = SearchOptions::default();
        let stop = AtomicBool::new(false);
        let turns: Vec<Move> = set.moves().collect();
        let mut rng = Rng::new(73);
        for _ in 0..5 {
            let scramble: Vec<Move> = (0..9)
                .map(|_| turns[rng.below(turns.len() as u64) as usize])
                .collect();
            let cube = Cube::SOLVED.apply_seq(&scramble);
            let exact = solve("x", &cube, &set, Route::Exact { table, sym }, &opts, &stop).unwrap();
            let search = solve("x", &cube, &set, Route::Search(h), &opts, &stop).unwrap();
            assert!(exact.is_optimal() && search.is_optimal());
            assert!(exact.check(&cube).is_ok() && search.check(&cube).is_ok());
            let len = |o: &Outcome| o.solution.as_ref().map(|s| s.len());
            assert_eq!(len(&exact), len(&search));
            assert!(len(&exact).unwrap() <= 9);
        }
        // The T permutation: an arrangement two faces' turns cannot make.
        let t =
            Cube::SOLVED.apply_seq(&parse_moves("R U R' U' R' F R2 U' R' U' R U R' F'").unwrap());
        let why = refusal(&set, &t).expect("refused");
        assert!(why.starts_with("the move set"), "{why}");
        for route in [Route::Exact { table, sym }, Route::Search(h)] {
            assert_eq!(solve("t", &t, &set, route, &opts, &stop).unwrap_err(), why);
        }
    }
}
