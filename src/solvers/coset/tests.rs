//! The coset solver against a breadth-first search over cubies, which shares none of its code
//! path (no coordinates, no tables, no bitmap).

use std::collections::HashMap;

use super::*;
use crate::cube::{Move, Rng, parse_moves};

use crate::testing::coset_solver as solver;

/// Every position within `depth` moves of `p`, with its distance from `p`.
fn bfs(p: &Cube, depth: u8) -> HashMap<Cube, u8> {
    let mut dist = HashMap::from([(*p, 0u8)]);
    let mut layer = vec![*p];
    for d in 1..=depth {
        let mut next = Vec::new();
        for c in &layer {
            for m in Move::all() {
                let y = c.apply(m);
                if let std::collections::hash_map::Entry::Vacant(e) = dist.entry(y) {
                    e.insert(d);
                    next.push(y);
                }
            }
        }
        layer = next;
    }
    dist
}

fn in_h(c: &Cube) -> bool {
    coord::flip(&c.eo()) == 0
        && coord::twist(&c.co()) == 0
        && coord::slice_sorted(&c.ep()) < N_SLICE_PERM as u16
}

/// The shared solver's tables with other switches: the short-loop cut, H's inverses and
/// conjugates, and (batch, writes) sizes.
fn variant(cut: bool, symmetries: bool, (batch, writes): (usize, usize)) -> CosetSolver {
    CosetSolver {
        cut,
        symmetries,
        batch,
        writes,
        tp: solver().tp.clone(),
        masks: solver().masks.clone(),
        moves: solver().moves,
    }
}

fn options(max_depth: u8, search_depth: u8) -> CosetOptions {
    CosetOptions {
        max_depth,
        search_depth,
        progress: ProgressMode::Hidden,
        samples: Vec::new(),
        settle_below: 0,
    }
}

/// The counts by distance of the coset's positions equal the number of elements of H at each
/// distance from the representative found by the search over cubies, for H itself and for a
/// coset three moves away; and every element in the bitmap is one the search found.
#[test]
fn distances_match_a_search_over_cubies() {
    // The walk's queues of nodes with no slack: as built, and expanded as soon as they hold
    // two nodes (so that nearly every expansion is one of a full queue, in the middle of the
    // walk, not the final one at the end of a part); and the seeds' writes, as built and
    // written every three seeds (so that most are written by a full buffer mid-walk).
    let small = variant(true, true, (2, 3));
    for (s, scramble) in [solver(), &small]
        .into_iter()
        .flat_map(|s| ["", "R F U'", "L' B2 D F"].map(|x| (s, x)))
    {
        let p = Cube::from_moves(&parse_moves(scramble).unwrap());
        let depth = 5;
        let dist = bfs(&p, depth);
        let mut want = vec![0u64; depth as usize + 1];
        for (c, &d) in &dist {
            if in_h(c) {
                want[d as usize] += 1;
            }
        }
        let mut opts = options(depth, depth);
        // Samples: some found (elements of the bitmap), the random ones mostly not.
        opts.samples = sample_elements(20, 9);
        let mut found = Vec::new();
        s.run(&p, &opts)
            .1
            .for_each(s.moves(), true, |c, e8, e4| found.push((c, e8, e4)));
        opts.samples
            .extend(found.iter().step_by(found.len() / 10 + 1));
        let (report, map) = s.run(&p, &opts);
        for (x, d) in &report.samples {
            // The sampled position's distance: that of g from p, where x = g⁻¹·p.
            let g = p.compose(&x.inverse());
            assert_eq!(*d, dist.get(&g).copied(), "{scramble:?}");
            assert_eq!(coset_of(x), coset_of(&p));
        }
        assert!(report.samples.iter().any(|(_, d)| d.is_some()));
        assert_eq!(report.exact_counts(), want, "coset of {scramble:?}");
        assert_eq!(report.coset, coset_of(&p));
        let mut seen = 0;
        map.for_each(s.moves(), true, |c, e8, e4| {
            let g = index::element(c, e8, e4);
            assert!(
                dist.contains_key(&g),
                "{scramble:?}: {g:?} is not within {depth}"
            );
            seen += 1;
        });
        assert_eq!(seen, report.found());
        // The coset's positions: x = g⁻¹·p is solved by the moves that take p to g.
        let g = dist.keys().find(|c| in_h(c) && **c != p).unwrap();
        let x = g.inverse().compose(&p);
        assert_eq!(coset_of(&x), coset_of(&p));
    }
}

/// With the search stopped early, the depths up to it stay exact, the deeper ones are upper
/// bounds: each element is found no earlier than its distance.
#[test]
fn a_bounded_run_keeps_its_exact_depths_and_never_finds_early() {
    let s = solver();
    for (scramble, search) in [("F R' U", 3), ("", 0)] {
        let p = Cube::from_moves(&parse_moves(scramble).unwrap());
        let (exact, _) = s.run(&p, &options(7, 7));
        let (bounded, _) = s.run(&p, &options(7, search));
        let n = search as usize + 1;
        assert_eq!(bounded.exact_counts(), exact.exact_counts()[..n]);
        for (b, e) in bounded.rows.iter().zip(&exact.rows) {
            assert!(b.total <= e.total, "depth {}", b.depth);
        }
        assert!(bounded.rows[n..].iter().all(|r| r.seeds == 0 && !r.exact));
        // Short of the seeds, the prepass alone misses elements.
        assert!(bounded.found() < exact.found(), "{scramble:?}");
    }
}

/// Coset numbers name cosets: a representative is a valid position of its coset, and every
/// position of a coset has the coset's number.
#[test]
fn coset_numbers_round_trip() {
    let mut rng = Rng::new(3);
    for _ in 0..200 {
        let n = rng.below(COSETS);
        let r = representative(n).unwrap();
        r.validate().unwrap();
        assert_eq!(coset_of(&r), n);
        let x = Cube::random(&mut rng);
        let n = coset_of(&x);
        assert!(n < COSETS);
        // Left-multiplying by an element of H keeps the coset.
        let h = Cube::from_moves(&parse_moves("U R2 D' F2 L2 U2 B2").unwrap());
        assert_eq!(coset_of(&h.compose(&x)), n);
    }
    assert_eq!(coset_of(&Cube::SOLVED), 0);
    assert!(representative(COSETS).is_none());
}

/// The short-loop cut of the phase-1 walk loses nothing: the same counts without it, through
/// depth 8, on H and on two other cosets.
#[test]
fn the_short_loop_cut_loses_no_element() {
    // Without H's inverses and conjugates too: every sequence walked.
    let uncut = variant(false, false, (seeds::BATCH, super::writes::SEED_WRITES));
    for scramble in ["", "R F U'", "B' L2 U F' R"] {
        let p = Cube::from_moves(&parse_moves(scramble).unwrap());
        let (with, _) = solver().run(&p, &options(8, 8));
        let (without, _) = uncut.run(&p, &options(8, 8));
        assert_eq!(with.exact_counts(), without.exact_counts(), "{scramble:?}");
        let seeds = |r: &CosetReport| r.rows.iter().map(|r| r.seeds).sum::<u64>();
        assert!(
            seeds(&with) < seeds(&without),
            "the cut cuts nothing on {scramble:?}"
        );
    }
}

/// H's run with its symmetries (seeds that begin with R, each with its conjugates; each
/// depth closed under inversion) finds the same elements at every depth as the run that walks
/// every seed, with fewer seeds; both agree with the search over cubies in
/// `distances_match_a_search_over_cubies`.
#[test]
fn the_symmetries_of_h_lose_no_element() {
    let whole = variant(true, false, (seeds::BATCH, super::writes::SEED_WRITES));
    let elements = |map: &Bitmap| {
        let mut v = Vec::new();
        map.for_each(solver().moves, true, |c, e8, e4| v.push((c, e8, e4)));
        v
    };
    for depth in [7, 8] {
        let (with, with_map) = solver().run(&Cube::SOLVED, &options(depth, depth));
        let (without, without_map) = whole.run(&Cube::SOLVED, &options(depth, depth));
        assert_eq!(with.exact_counts(), without.exact_counts());
        assert_eq!(elements(&with_map), elements(&without_map));
        let seeds = |r: &CosetReport| r.rows.last().unwrap().seeds;
        assert!(seeds(&with) * 2 < seeds(&without), "{} seeds", seeds(&with));
    }
    // Another coset is walked whole whatever the switch says.
    let p = Cube::from_moves(&parse_moves("R F U'").unwrap());
    let (a, _) = solver().run(&p, &options(7, 7));
    let (b, _) = whole.run(&p, &options(7, 7));
    let rows = |r: &CosetReport| {
        r.rows
            .iter()
            .map(|r| (r.found, r.seeds))
            .collect::<Vec<_>>()
    };
    assert_eq!(rows(&a), rows(&b));
}

/// A node's masks (the entry position's, mapped through the node's symmetry) are exactly the
/// sets of moves whose child's residue is one less and the same, and its entry's residue is
/// its own, looked up child by child in the two-phase solver's phase-1 table.
#[test]
fn masks_are_the_moves_one_closer_and_as_far() {
    let s = solver();
    let (tp, mv) = (&s.tp, crate::coord::MoveTables::get());
    let mut rng = Rng::new(17);
    for _ in 0..2000 {
        let x = Cube::random(&mut rng);
        let (flip, twist, slice) = (
            coord::flip(&x.eo()) as usize,
            coord::twist(&x.co()) as usize,
            coord::slice_sorted(&x.ep()) as usize,
        );
        let own = tp.phase1_residue(tp.phase1_index(flip, twist, slice));
        let comb = (slice / N_SLICE_PERM) as u16;
        let (i, sym) = s.masks.index(flip as u16, twist as u16, comb);
        assert_eq!(s.masks.residue(i), own, "{x:?}");
        let closer = (own + 2) % 3;
        let (mut want, mut same) = (0u32, 0u32);
        for m in 0..18 {
            let j = tp.phase1_index(
                mv.flip[flip * 18 + m] as usize,
                mv.twist[twist * 18 + m] as usize,
                mv.slice_sorted[slice * 18 + m] as usize,
            );
            if tp.phase1_residue(j) == closer {
                want |= 1 << m;
            }
            if tp.phase1_residue(j) == own {
                same |= 1 << m;
            }
        }
        assert_eq!(s.masks.moves(i, sym), (want, same), "{x:?}");
    }
}

/// A run stopped before it begins reports no depth and says it was interrupted; one left to
/// run is not.
#[test]
fn a_stopped_run_keeps_only_finished_depths() {
    let s = solver();
    let stop = std::sync::atomic::AtomicBool::new(true);
    let (r, map) = s.run_until(&Cube::SOLVED, &options(4, 4), &stop);
    assert!(r.interrupted && r.rows.is_empty() && map.total() == 0);
    assert_eq!(r.to_json()["interrupted"], true);
    let (r, _) = s.run(&Cube::SOLVED, &options(2, 2));
    assert!(!r.interrupted && r.rows.len() == 3);
}

/// The prepass adds exactly one move of H to each element, checked against cubies, for a set
/// with a dense page (gathered by its targets), sparse pages next to it (scattered into some of
/// the same targets) and sparse pages elsewhere.
#[test]
fn the_prepass_adds_one_move_of_h_to_dense_and_sparse_pages() {
    use std::collections::HashSet;
    let t = Moves::get();
    let mut rng = Rng::new(52);
    let c0 = 1234;
    let mut pages = vec![c0; 7000];
    for &m in &coord::P2_MOVES {
        let next = t.mv.corners[c0 * coord::N_MOVES + m] as usize;
        pages.extend([next; 30]);
    }
    pages.extend((0..300).map(|_| rng.below(index::PAGES as u64) as usize));
    let mut set = HashSet::new();
    let mut map = Bitmap::new();
    for c in pages {
        let e8 = rng.below(index::WORDS as u64) as usize;
        let bit = rng.below(index::BITS as u64) as usize;
        let e4 = index::e4_at(t.parity8[c] ^ t.parity8[e8], bit);
        map.set(c, e8, 1 << index::half()[e4].1);
        set.insert(index::element(c, e8, e4));
    }
    map.recount();
    assert!(map.counts_of(c0) > 5000, "a dense page");
    check_prepass(map, &set);
}

/// The prepass of a nearly full page (gathered only where its own word is not full) next to a
/// dense one, against the cubies.
#[test]
fn the_prepass_of_a_nearly_full_page_misses_no_element() {
    use std::collections::HashSet;
    let t = Moves::get();
    let mut rng = Rng::new(53);
    let (c0, mut set, mut map) = (4321, HashSet::new(), Bitmap::new());
    let c1 = t.mv.corners[c0 * coord::N_MOVES + coord::P2_MOVES[3]] as usize;
    for e8 in 0..index::WORDS {
        // Every word of c0 full but one in 40 (a random bit missing), and c1 sparser.
        let gap = match rng.below(40) {
            0 => 1 << rng.below(index::BITS as u64),
            _ => 0,
        };
        for (c, bits) in [(c0, index::WORD_MASK & !gap), (c1, 0x111 << (e8 % 3))] {
            map.set(c, e8, bits);
            let p = t.parity8[c] ^ t.parity8[e8];
            for bit in (0..index::BITS).filter(|b| bits >> b & 1 == 1) {
                set.insert(index::element(c, e8, index::e4_at(p, bit)));
            }
        }
    }
    map.recount();
    assert!(map.counts_of(c0) > index::ELEMENTS as u32 / index::PAGES as u32 / 1000 * 997);
    check_prepass(map, &set);
}

/// The prepass of `map`, whose elements are `set`, against the cubies: each element and its
/// images under the ten moves of H.
fn check_prepass(map: Bitmap, set: &std::collections::HashSet<crate::cube::Cube>) {
    use std::collections::HashSet;
    let t = Moves::get();
    let mut want = set.clone();
    for g in set {
        want.extend(
            coord::P2_MOVES
                .iter()
                .map(|&m| g.apply(Move::from_index(m))),
        );
    }
    let mut next = super::prepass::prepass(map, t);
    let mut got = HashSet::new();
    next.for_each(t, true, |c, e8, e4| {
        got.insert(index::element(c, e8, e4));
    });
    assert_eq!(got.len(), want.len());
    assert!(got == want, "the prepass's set differs");
    assert_eq!(next.total(), want.len() as u64);
    assert_eq!(next.recount(), want.len() as u64);
}

/// The masks' index conjugates flip and slice by the twist's symmetry exactly: for every UD
/// symmetry, flip and slice combination, the small tables give the flip and slice of the
/// conjugated position (the flip's linear part and its pattern by slice are not assumed).
#[test]
fn the_masks_index_conjugates_flip_and_slice_exactly() {
    use crate::coord::symmetry::{SymCube, symmetries};
    use crate::coord::{N_FLIP, N_SLICE, N_SLICE_PERM, N_TWIST};
    let index = super::masks::SymIndex::new();
    let syms = symmetries();
    // One twist for each symmetry that takes some twist to its representative.
    let mut twist_of = [None; 16];
    for t in 0..N_TWIST {
        let (i, s) = index.index(0, t as u16, 0);
        twist_of[s as usize].get_or_insert((t, i as usize / (N_SLICE * N_FLIP)));
    }
    let mut seen = 0;
    for (s, &found) in twist_of.iter().enumerate() {
        let Some((t, _)) = found else { continue };
        seen += 1;
        let conj_twist = coord::twist(&syms.conj_cube(&coord::twist_cube(t), s).co()) as usize;
        for comb in 0..N_SLICE {
            for flip in 0..N_FLIP {
                let c = SymCube {
                    ep: coord::slice_sorted_edges(comb * N_SLICE_PERM),
                    eo: coord::flip_cube(flip).eo(),
                    ..SymCube::IDENTITY
                };
                let y = syms.conj(&c, s);
                let want = (
                    coord::flip(&y.eo) as usize,
                    conj_twist,
                    coord::slice_sorted(&y.ep) as usize / N_SLICE_PERM,
                );
                let (i, _) = index.index(flip as u16, t as u16, comb as u16);
                assert_eq!(
                    index.position(i as usize),
                    want,
                    "s {s} flip {flip} comb {comb}"
                );
            }
        }
    }
    assert!(seen > 8, "only {seen} symmetries met");
}

/// Past the search, a depth is exact only when the depth before it is and it leaves nothing
/// unset: the one way a prepass depth can be read as distances.
#[test]
fn a_prepass_depth_is_exact_only_when_it_leaves_nothing() {
    assert!(row_is_exact(18, 18, true, 5));
    assert!(row_is_exact(3, 18, true, 5));
    assert!(row_is_exact(19, 18, true, ELEMENTS));
    assert!(!row_is_exact(19, 18, true, ELEMENTS - 1));
    assert!(!row_is_exact(20, 18, false, ELEMENTS));
    assert!(!row_is_exact(20, 18, false, ELEMENTS - 1));
}

/// Settling: the unset elements at their distances make every depth exact, and the depth
/// after the search keeps its prepass elements. Checked against the run searched through that
/// depth: the elements it finds there that the prepass missed are the ones settled there.
#[test]
fn settling_the_unset_elements_gives_the_exact_run() {
    let s = solver();
    let p = Cube::from_moves(&parse_moves("F R' U").unwrap());
    // Searched through 6, and through 5 with a prepass at 6 (796 of the 846 elements at 6).
    let (exact, _) = s.run(&p, &options(6, 6));
    let (bounded, _) = s.run(&p, &options(6, 5));
    assert!(!bounded.rows[6].exact && bounded.rows[6].found < exact.rows[6].found);
    let missed = exact.rows[6].total - bounded.rows[6].total;
    let rest = ELEMENTS - exact.found();
    let report = settle::settled(&bounded, &[0, 0, 0, 0, 0, 0, missed, rest]).unwrap();
    let found: Vec<u64> = report.rows.iter().map(|r| r.found).collect();
    let mut want: Vec<u64> = exact.rows.iter().map(|r| r.found).collect();
    want.push(rest);
    assert_eq!(found, want);
    assert!(report.complete() && report.rows.iter().all(|r| r.exact));
    assert_eq!(report.exact_counts().len(), 8);
    assert_eq!(report.settled, ELEMENTS - bounded.found());
    assert_eq!(report.to_json()["settled"], ELEMENTS - bounded.found());
    // A settled element within the exact depths, or the wrong number of them: refused.
    assert!(settle::settled(&bounded, &[0, 0, 0, 0, 0, 1, missed - 1, rest]).is_err());
    assert!(settle::settled(&bounded, &[0, 0, 0, 0, 0, 0, missed, rest + 1]).is_err());
    // Two prepass depths: an element first found at the second may be nearer.
    let (two, _) = s.run(&p, &options(7, 5));
    assert!(settle::check_settleable(&two).is_err());
    assert!(settle::settled(&two, &[0, 0, 0, 0, 0, 0, 0, 0, ELEMENTS - two.found()]).is_err());
}

/// Handing over: the run stops at the first prepass that leaves at most `settle_below`
/// elements, marks that depth bounded, and matches the run that stops its search just before.
/// One element fewer allowed, it walks that depth too and hands over at the next.
#[test]
fn a_run_hands_over_at_the_first_prepass_that_leaves_few_enough() {
    let s = solver();
    let rows = |r: &CosetReport| -> Vec<(u64, u64, u64, bool)> {
        (r.rows.iter())
            .map(|r| (r.found, r.total, r.seeds, r.exact))
            .collect()
    };
    for scramble in ["F R' U", ""] {
        let p = Cube::from_moves(&parse_moves(scramble).unwrap());
        let (at6, _) = s.run(&p, &options(6, 5));
        let (at7, _) = s.run(&p, &options(7, 6));
        let left = ELEMENTS - at6.found();
        let hand_over = |below| {
            let opts = CosetOptions {
                settle_below: below,
                ..options(30, 30)
            };
            s.run(&p, &opts).0
        };
        let r = hand_over(left);
        assert_eq!(rows(&r), rows(&at6), "{scramble:?}");
        assert!(!r.rows[6].exact && settle::check_settleable(&r).is_ok());
        let r = hand_over(left - 1);
        assert_eq!(rows(&r), rows(&at7), "{scramble:?}");
        assert!(r.rows[6].exact && !r.rows[7].exact);
    }
}

/// A report with these rows, `(found, total, exact)` by depth from 0 (the rest from a run of H
/// to depth 0): the settling tests need runs that leave only a few elements.
fn report_of(rows: &[(u64, u64, bool)]) -> CosetReport {
    let (report, _) = solver().run(&Cube::SOLVED, &options(0, 0));
    let rows = (rows.iter().enumerate())
        .map(|(d, &(found, total, exact))| DepthRow {
            depth: d as u8,
            found,
            total,
            seeds: 0,
            exact,
            prepass_seconds: 0.0,
            search_seconds: 0.0,
        })
        .collect();
    CosetReport { rows, ..report }
}

/// `settle` asks for each unset position's distance with the first depth it can be at, once
/// for conjugates (R and F), and counts the answers; an answer within the exact depths is
/// refused.
#[test]
fn settle_asks_each_unset_position_from_the_first_depth_past_the_exact_ones() {
    let report = report_of(&[(1, 1, true), (ELEMENTS - 4, ELEMENTS - 3, false)]);
    let unset: Vec<Cube> = ["R", "F", "R F"]
        .iter()
        .map(|m| Cube::from_moves(&parse_moves(m).unwrap()))
        .collect();
    let (mut lowers, mut ticks) = (Vec::new(), 0);
    let settled = settle::settle(
        &report,
        &unset,
        |x, lower| {
            lowers.push(lower);
            Ok(if *x == unset[2] { 2 } else { 1 })
        },
        || ticks += 1,
    )
    .unwrap();
    assert_eq!((lowers, ticks), (vec![1, 1], 3));
    let found: Vec<u64> = settled.rows.iter().map(|r| r.found).collect();
    assert_eq!(found, vec![1, ELEMENTS - 2, 1]);
    assert!(settle::settle(&report, &unset, |_, _| Ok(0), || {}).is_err());
}

/// Positions past the exact depths settled by the optimal search started there: each gets its
/// breadth-first distance, and the report counts it at that depth.
#[test]
fn unset_positions_are_settled_at_their_breadth_first_distances() {
    let layers = crate::testing::positions_within_6(11, crate::cube::Metric::Htm);
    let unset: Vec<Cube> = [3, 4, 4, 5, 5].iter().map(|&d| layers[d][7 * d]).collect();
    let n = ELEMENTS - 5;
    let report = report_of(&[(1, 1, true), (1, 2, true), (1, 3, true), (n - 3, n, false)]);
    let h = crate::testing::korf6();
    let base = crate::search::SearchOptions::default();
    let stop = AtomicBool::new(false);
    let settled = settle::settle(
        &report,
        &unset,
        |x, lower| {
            assert_eq!(lower, 3);
            settle::distance_by_search(h, &base, x, lower, &stop)
        },
        || {},
    )
    .unwrap();
    let found: Vec<u64> = settled.rows.iter().map(|r| r.found).collect();
    assert_eq!(found, vec![1, 1, 1, n - 2, 2, 2]);
    assert!(settled.complete() && settled.rows.iter().all(|r| r.exact));
}

/// A part's expected cost is its time at the depth before; a part the depth before did not
/// walk counts as their mean; before any depth was timed every part counts 1.
#[test]
fn a_part_is_weighted_by_its_time_at_the_depth_before() {
    let s = solver();
    let p = Cube::SOLVED.apply_seq(&parse_moves("R F U'").unwrap());
    let root = Phase1Node::root(&s.tp, &s.masks, &p);
    let map = Bitmap::new();
    let walker = || {
        Walker::new(
            (s.moves, &s.masks),
            &map,
            (s.cut, s.batch),
            SeedWrites::new(s.writes),
        )
    };
    let work = walker().frontier(root, 9, 9 - SPLIT_AFTER);
    assert!(work.len() > 10);
    let mut costs = parts::PartCosts::default();
    assert_eq!(costs.weights(&work), vec![1; work.len()]);
    // Timed at one depth: the last part of the list left out, as a node not reached there.
    let times: Vec<f64> = (0..work.len()).map(|i| (i + 1) as f64 * 1e-3).collect();
    let n = work.len() - 1;
    costs.record(&work[..n], &times[..n]);
    let w = costs.weights(&work);
    assert_eq!(
        w[..n],
        (1..=n as u64).map(|i| i * 1000).collect::<Vec<_>>()[..]
    );
    let mean = (1..=n as u64).map(|i| i * 1000).sum::<u64>() / n as u64;
    assert_eq!(w[n], mean);
}

/// A run to God's number without a search depth is the proof (search to 15); shallower runs
/// search every depth.
#[test]
fn a_run_to_20_searches_to_the_proof_depth_only() {
    assert_eq!(super::default_search_depth(20), super::PROOF_SEARCH_DEPTH);
    assert_eq!(super::default_search_depth(19), 19);
    assert_eq!(super::default_search_depth(12), 12);
}

/// The end of a proof shows elements within 20 by solutions checked on positions of the coset
/// itself: every sampled element is closed, and each closed element's position is in the
/// coset.
#[test]
fn a_proof_closes_its_last_elements_with_checked_solutions() {
    let s = solver();
    let p = Cube::SOLVED.apply_seq(&parse_moves("R U F' L2 D B R' F").unwrap());
    let elements = super::sample_elements(6, 9);
    let shown = s.within_gods_number(&p, elements.clone());
    assert_eq!(shown, elements, "every position is within 20");
    for &(c, e8, e4) in &shown {
        let position = index::element(c, e8, e4).inverse().compose(&p);
        assert_eq!(super::coset_of(&position), super::coset_of(&p));
    }
}

/// A run in the memory of an earlier run's bitmap (`run_in`) counts as a run in new memory:
/// a random coset's run after H's (whose set through 9 fills every page).
#[test]
fn a_run_in_an_old_bitmap_counts_as_in_a_new_one() {
    let s = solver();
    let p = Cube::SOLVED.apply_seq(&parse_moves("F U2 R' D B2 L").unwrap());
    let (fresh, _) = s.run(&p, &options(11, 11));
    let (h, full) = s.run(&Cube::SOLVED, &options(9, 9));
    assert!(h.found() > 20_000_000, "a set that fills every page");
    let (again, _) = s.run_in(&p, &options(11, 11), &AtomicBool::new(false), full);
    let totals = |r: &CosetReport| r.rows.iter().map(|r| r.total).collect::<Vec<_>>();
    assert_eq!(totals(&again), totals(&fresh));
    assert!(fresh.found() > 0);
}
