//! Tests of Thistlethwaite's solver: group membership, coset counts, the published table
//! sizes and depths, table files, and solving.

use super::coordinates::*;
use super::tables::*;
use super::*;
use crate::coord::squares::CORNER_PERMS;
use crate::cube::{Rng, format_moves, merge_moves, parse_moves};
use crate::pdb::file::{self, TableError as FileError};
use std::collections::HashSet;
use std::sync::OnceLock;

/// Published sizes and maximum distances of the four phases (Thistlethwaite; Scherphuis).
const PUBLISHED: [(usize, usize); PHASES] =
    [(2_048, 7), (1_082_565, 10), (29_400, 13), (663_552, 15)];

fn solver() -> &'static Thistlethwaite {
    static S: OnceLock<Thistlethwaite> = OnceLock::new();
    S.get_or_init(Thistlethwaite::new)
}

/// The corner permutations of G3, found by walking cubes with half turns (independently of
/// `SquaresCorners`, which works on bare permutations).
fn squares_corner_perms() -> &'static HashSet<[u8; 8]> {
    static H: OnceLock<HashSet<[u8; 8]>> = OnceLock::new();
    H.get_or_init(|| {
        let mut seen = HashSet::from([Cube::SOLVED.cp()]);
        let mut todo = vec![Cube::SOLVED];
        while let Some(c) = todo.pop() {
            for m in Move::all().filter(|m| m.quarter_turns() == 2) {
                let n = c.apply(m);
                if seen.insert(n.cp()) {
                    todo.push(n);
                }
            }
        }
        seen
    })
}

/// Membership in `G_k`, `k` in `0..=4`, from the groups' descriptions, not the coordinates.
fn in_group(k: usize, c: &Cube) -> bool {
    let g1 = c.eo() == [0; 12];
    let g2 = g1 && c.co() == [0; 8] && (8..12).all(|i| c.edge_perm(i) >= 8);
    let g3 = g2
        && (0..12).all(|i| EDGE_SLICE[c.edge_perm(i) as usize] == EDGE_SLICE[i])
        && squares_corner_perms().contains(&c.cp());
    match k {
        0 => c.validate().is_ok(),
        1 => g1,
        2 => g2,
        3 => g3,
        4 => c.is_solved(),
        _ => unreachable!(),
    }
}

/// A random element of `G_k` (`k` in `0..4`): a uniform position for `G0`, otherwise a long
/// random walk with `G_k`'s generators.
fn random_in(k: usize, rng: &mut Rng) -> Cube {
    if k == 0 {
        return Cube::random(rng);
    }
    let gens: Vec<Move> = phase_moves(k).collect();
    (0..60).fold(Cube::SOLVED, |c, _| {
        c.apply(gens[rng.below(gens.len() as u64) as usize])
    })
}

#[test]
fn generators_keep_their_group_and_others_leave_it() {
    let counts: Vec<usize> = (0..PHASES).map(|k| phase_moves(k).count()).collect();
    assert_eq!(counts, [18, 14, 10, 6]);
    let mut rng = Rng::new(11);
    for k in 1..PHASES {
        let c = random_in(k, &mut rng);
        assert!(in_group(k, &c));
        for m in Move::all() {
            let allowed = PHASE_MOVE_MASKS[k] & (1 << m.index()) != 0;
            assert!(in_group(k, &c.apply(m)) || !allowed, "G{k} generator {m}");
            assert!(
                !in_group(k, &Cube::SOLVED.apply(m)) || allowed,
                "{m} in G{k}"
            );
        }
    }
}

#[test]
fn squares_corners_form_96_elements_and_420_cosets() {
    let sq = SquaresCorners::get();
    let members: HashSet<[u8; 8]> = (0..CORNER_PERMS)
        .filter(|&r| sq.index[r] != OUTSIDE)
        .map(|r| {
            let mut p = [0u8; 8];
            CORNER_PERM.unrank(r as u64, &mut p);
            p
        })
        .collect();
    assert_eq!(&members, squares_corner_perms());
    let mut per_coset = vec![0u32; CORNER_COSETS];
    for &c in sq.coset.iter() {
        per_coset[c as usize] += 1;
    }
    assert!(per_coset.iter().all(|&n| n == 96), "{per_coset:?}");
}

#[test]
fn table_sizes_and_depths_match_published() {
    let t = solver();
    for (phase, &(size, max)) in PUBLISHED.iter().enumerate() {
        let h = t.histogram(phase);
        assert_eq!(t.table(phase).len(), size, "phase {}", phase + 1);
        assert_eq!(PHASE_SIZES[phase], size);
        assert_eq!(PHASE_MAX_DISTANCES[phase] as usize, max);
        // Every entry reached, so the table has exactly `size` classes at distances 0..=max.
        assert_eq!(h.len(), max + 1, "phase {} histogram {h:?}", phase + 1);
        assert_eq!(h.iter().sum::<u64>(), size as u64);
        assert_eq!(h[0], 1, "only the solved coset is at distance 0");
    }
}

#[test]
fn from_tables_round_trips_and_rejects_bad_tables() {
    let t = solver();
    let copy: [Box<[u8]>; PHASES] = std::array::from_fn(|k| t.table(k).into());
    let u = Thistlethwaite::from_tables(copy.clone()).unwrap();
    let c = Cube::random(&mut Rng::new(5));
    assert_eq!(u.solve(&c), t.solve(&c));
    let mut short = copy.clone();
    short[2] = short[2][1..].into();
    assert!(matches!(
        Thistlethwaite::from_tables(short),
        Err(PhaseTableError::Size { phase: 2, .. })
    ));
    let mut bad = copy;
    bad[1][7] = PHASE_MAX_DISTANCES[1] + 1;
    assert!(matches!(
        Thistlethwaite::from_tables(bad),
        Err(PhaseTableError::Entry {
            phase: 1,
            index: 7,
            ..
        })
    ));
}

/// `open` in an empty directory builds and writes the four files; opening again loads them
/// (the same tables as `new`, the same solutions), rebuilds only a missing one, and refuses
/// a damaged file without touching it.
#[test]
fn open_builds_then_loads_table_files() {
    let dir = crate::testing::temp_dir("thistlethwaite-open");
    let built = Thistlethwaite::open(&dir).unwrap();
    for k in 0..PHASES {
        let path = file::table_path(&dir, PHASE_NAMES[k]);
        let info = file::read_info(&path, table_kind(k)).unwrap();
        assert_eq!(info.entries, PHASE_SIZES[k] as u64);
        assert_eq!(info.bits_per_entry, 8);
        assert_eq!(info.histogram, solver().histogram(k));
        assert!(built.table(k) == solver().table(k), "phase {}", k + 1);
    }
    let loaded = Thistlethwaite::open(&dir).unwrap();
    let mut rng = Rng::new(17);
    for _ in 0..20 {
        let c = Cube::random(&mut rng);
        assert_eq!(loaded.solve(&c), solver().solve(&c));
    }
    for k in 0..PHASES {
        assert!(loaded.table(k) == solver().table(k), "phase {}", k + 1);
    }

    // A missing file is rebuilt, the others are left alone.
    let p3 = file::table_path(&dir, PHASE_NAMES[3]);
    let before = std::fs::metadata(file::table_path(&dir, PHASE_NAMES[1]))
        .unwrap()
        .modified()
        .unwrap();
    std::fs::remove_file(&p3).unwrap();
    let again = Thistlethwaite::open(&dir).unwrap();
    assert!(again.table(3) == solver().table(3));
    assert!(p3.exists());
    let after = std::fs::metadata(file::table_path(&dir, PHASE_NAMES[1]))
        .unwrap()
        .modified()
        .unwrap();
    assert_eq!(before, after);

    // One payload byte flipped: refused, naming the file, and left as it is.
    let p1 = file::table_path(&dir, PHASE_NAMES[1]);
    let mut bytes = std::fs::read(&p1).unwrap();
    bytes[file::HEADER_LEN + 1000] ^= 0x04;
    std::fs::write(&p1, &bytes).unwrap();
    let e = Thistlethwaite::open(&dir).err().expect("refused");
    assert!(matches!(e, FileError::Checksum { .. }), "{e}");
    let msg = e.to_string();
    assert!(msg.contains("thistlethwaite-2-co-eslice.pdb"), "{msg}");
    assert!(msg.contains("--solver thistlethwaite"), "{msg}");
    assert_eq!(std::fs::read(&p1).unwrap(), bytes);

    // Truncated.
    bytes.truncate(bytes.len() - 10);
    std::fs::write(&p1, &bytes).unwrap();
    let e = Thistlethwaite::open(&dir).err().expect("refused");
    assert!(matches!(e, FileError::Size { .. }), "{e}");

    // A well-formed file whose entries are not distances (written by a broken build).
    let mut bad: Box<[u8]> = solver().table(1).into();
    bad[7] = PHASE_MAX_DISTANCES[1] + 1;
    file::save_payload(&p1, &table_kind(1), &bad, solver().histogram(1), "test").unwrap();
    let e = Thistlethwaite::open(&dir).err().expect("refused");
    assert!(matches!(e, FileError::Header { .. }), "{e}");
    assert!(e.to_string().contains("thistlethwaite-2-co-eslice.pdb"));

    std::fs::remove_dir_all(&dir).unwrap();
}

/// The coordinate must not change when the pieces are relabelled by an element of the next
/// group (`p ↦ h·p`): that is what makes the table a function of the coset.
#[test]
fn coordinates_are_constant_on_cosets() {
    let t = solver();
    let mut rng = Rng::new(21);
    for phase in 0..3 {
        let mut distinct = HashSet::new();
        for _ in 0..200 {
            let p = random_in(phase, &mut rng);
            let h = random_in(phase + 1, &mut rng);
            let k = t.coordinate(phase, &p);
            assert!(k < PHASE_SIZES[phase]);
            assert_eq!(
                t.coordinate(phase, &h.compose(&p)),
                k,
                "phase {}",
                phase + 1
            );
            distinct.insert(k);
        }
        assert!(
            distinct.len() > 100,
            "coordinate {} barely varies",
            phase + 1
        );
    }
    // Phase 4's "next group" is trivial: there the index must be injective, which the full
    // table (663,552 distinct indices reached from |G3| = 663,552 positions) shows.
}

#[test]
fn distance_zero_exactly_on_the_next_group() {
    let t = solver();
    let mut rng = Rng::new(33);
    for phase in 0..PHASES {
        for _ in 0..300 {
            let p = random_in(phase, &mut rng);
            assert_eq!(t.distance(phase, &p) == 0, in_group(phase + 1, &p));
            if phase + 1 < PHASES {
                assert_eq!(t.distance(phase, &random_in(phase + 1, &mut rng)), 0);
            }
        }
    }
}

/// One move changes an exact distance by at most one.
#[test]
fn distances_are_consistent_along_moves() {
    let t = solver();
    let mut rng = Rng::new(44);
    for phase in 0..PHASES {
        for _ in 0..200 {
            let p = random_in(phase, &mut rng);
            let d = t.distance(phase, &p) as i32;
            let mut closer = false;
            for m in phase_moves(phase) {
                let dm = t.distance(phase, &p.apply(m)) as i32;
                assert!((dm - d).abs() <= 1, "phase {} {d} -> {dm}", phase + 1);
                closer |= dm == d - 1;
            }
            assert!(closer || d == 0);
        }
    }
}

#[test]
fn solves_200_random_positions() {
    let t = solver();
    let mut rng = Rng::new(2024);
    let mut longest = 0;
    for _ in 0..200 {
        let cube = Cube::random(&mut rng);
        let sol = t.solve(&cube);
        let mut c = cube;
        for phase in 0..PHASES {
            let moves = sol.phase(phase);
            assert!(moves.len() <= PUBLISHED[phase].1);
            for &m in moves {
                assert!(
                    PHASE_MOVE_MASKS[phase] & (1 << m.index()) != 0,
                    "{m} in phase"
                );
            }
            c = c.apply_seq(moves);
            assert!(
                in_group(phase + 1, &c),
                "phase {} ends outside G{}",
                phase + 1,
                phase + 1
            );
        }
        assert!(
            cube.apply_seq(&sol.moves).is_solved(),
            "{}",
            format_moves(&sol.moves)
        );
        assert_eq!(sol.moves, merge_moves(&sol.unmerged));
        assert!(sol.moves.len() <= sol.unmerged.len() && sol.moves.len() <= 45);
        longest = longest.max(sol.moves.len());
    }
    assert!(
        longest > 20,
        "random positions need more than 20 Thistlethwaite moves"
    );
}

#[test]
fn solved_and_near_solved_positions() {
    let t = solver();
    let s = t.solve(&Cube::SOLVED);
    assert!(s.moves.is_empty() && s.phase_lengths == [0; 4]);
    // One quarter turn of F: phase 1 undoes it in one move and nothing is left.
    let f = parse_moves("F").unwrap();
    let s = t.solve(&Cube::from_moves(&f));
    assert_eq!(format_moves(&s.moves), "F'");
    assert_eq!(s.phase_lengths, [1, 0, 0, 0]);
    let bad = Cube::from_parts([1, 0, 2, 3, 4, 5, 6, 7], [0; 8], Cube::SOLVED.ep(), [0; 12]);
    assert_eq!(t.try_solve(&bad), Err(CubeError::Parity));
}
