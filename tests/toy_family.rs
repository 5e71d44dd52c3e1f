//! A table family declared outside the library's registry, in this file alone: the four
//! U-layer corners URF UFL ULB UBR, their places and twists (8·7·6·5·3^4 = 136,080 entries).
//! The library builds, saves, loads and searches with it through its [`Family`] declaration
//! only: nothing else in the program names a family.

use optcube::cube::{Cube, Move, Rng};
use optcube::pdb::family::{Builder, Family, Index, Store, Turned};
use optcube::pdb::{Pattern, generate, set};
use optcube::progress::ProgressMode;
use optcube::rank::{PartialPerm, rank_digits, unrank_digits};
use optcube::search::{Heuristic, SearchOptions, solve};
use std::sync::atomic::AtomicBool;

const PICK4: PartialPerm = PartialPerm::new(8, 4);
const ENTRIES: u64 = 8 * 7 * 6 * 5 * 81;

/// Index of the inverse cube `q`: slot `i` holds where corner `i` is and its twist.
fn index(q: &Cube) -> u64 {
    let b = q.corner_bytes();
    let twists = [b[0] >> 4, b[1] >> 4, b[2] >> 4, b[3] >> 4];
    PICK4.rank_nibbles::<0>(b) * 81 + rank_digits(&twists, 3) as u64
}

fn unrank(i: u64) -> Cube {
    let (mut cp, mut co) = ([0u8; 8], [0u8; 8]);
    PICK4.unrank(i / 81, &mut cp[..4]);
    unrank_digits((i % 81) as u32, 3, &mut co[..4]);
    Cube::from_parts(cp, co, [0; 12], [0; 12])
}

const TOY: Family = Family {
    name: "ucorners",
    pieces: "URF UFL ULB UBR (positions and twists)",
    entries: ENTRIES,
    version: 1,
    index: Index::OfInverse {
        index,
        unrank,
        batch: None,
    },
    self_dual: false,
    turned: Turned::Never,
    store: Store::Nibbles,
    builder: Builder::Own {
        build: |progress, _checkpoint| generate::iddfs(Pattern(&TOY), progress),
        entries: ENTRIES,
        bytes: 1 << 20,
    },
    metric: optcube::cube::Metric::Htm,
};

fn toy() -> Pattern {
    Pattern(&TOY)
}

#[test]
fn a_family_outside_the_registry_is_built_saved_loaded_and_searched_with() {
    let dir = std::env::temp_dir().join(format!("optcube-toy-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    assert!(Pattern::from_name("ucorners").is_none() && set::resolve_set("ucorners").is_none());

    // Built on first use (IDDFS over the index), saved, and read back from the file.
    let built = set::open_or_build(&dir, &[toy()], ProgressMode::Hidden).expect("built");
    let table = &built[0].1;
    assert_eq!(built[0].0, toy());
    assert!(dir.join("ucorners.pdb").exists());
    let h = table.histogram();
    assert_eq!(h.iter().sum::<u64>(), ENTRIES);
    // Solved, then the 15 turns that move a U corner (every turn but the D turns).
    assert_eq!(&h[..2], &[1, 15]);
    let again = set::open_or_build(&dir, &[toy()], ProgressMode::Hidden).expect("loaded");
    assert!(
        again[0].1.bytes() == table.bytes(),
        "the file reads back otherwise"
    );

    // The values are distances: a neighbour differs by at most one, and every entry but
    // solved has a neighbour one closer.
    let mut rng = Rng::new(4);
    for _ in 0..5000 {
        let i = rng.below(ENTRIES);
        let v = table.get(i);
        let nb: Vec<u8> = toy().neighbours(i).map(|j| table.get(j)).collect();
        assert!(nb.iter().all(|&w| w + 1 >= v && w <= v + 1), "entry {i}");
        assert!(v == 0 || nb.iter().any(|&w| w + 1 == v), "entry {i}");
    }

    // IDA* with the corners and the toy table finds optimal solutions: as long as those the
    // corner table alone finds, and each solves its position.
    let tables = set::open_or_build(&dir, &[Pattern::CORNERS, toy()], ProgressMode::Hidden)
        .expect("corners built");
    let corners_only = Heuristic::new(vec![(tables[0].0, tables[0].1.clone())]);
    let both = Heuristic::new(tables);
    let stop = AtomicBool::new(false);
    let opts = SearchOptions::default();
    for n in [6, 7, 8, 9] {
        let seq: Vec<Move> = (0..n)
            .map(|_| Move::from_index(rng.below(18) as usize))
            .collect();
        let c = Cube::from_moves(&seq);
        let a = solve(&both, &c, &opts, &stop);
        let b = solve(&corners_only, &c, &opts, &stop);
        let sol = a.solution.expect("solved");
        assert!(a.optimal && b.optimal);
        assert_eq!(Some(sol.len()), b.solution.map(|s| s.len()), "{seq:?}");
        let end = sol.iter().fold(c, |x, &m| x.apply(m));
        assert!(end.is_solved(), "{seq:?}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
