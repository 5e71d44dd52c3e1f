//! Coordinates: numbers that each describe one aspect of a position, with move tables, and the
//! cube symmetries that act on them ([`symmetry`]), and whole positions up to symmetry
//! ([`positions`]).
//!
//! A coordinate is a number that describes one aspect of a position (corner twists, edge flips,
//! where the four UD-slice edges are, ...). A search that keeps coordinates never touches
//! cubies: it updates each coordinate with one lookup per move in a [`MoveTables`] table. The
//! two-phase solver searches on them, the phase-1 pattern databases are indexed by them, and the
//! optimal solver tracks the corner coordinates of the position with them (the corner table's
//! index is `corners * 2187 + twist`).
//!
//! Kociemba's phase 1 (reach the subgroup G1 = <U, D, R2, L2, F2, B2>):
//! - `twist`, 0..3^7: corner twists of positions URF..DBL in base 3 (the last is implied);
//! - `flip`, 0..2^11: edge flips of positions UR..BL in base 2 (the last is implied);
//! - `slice_sorted`, 0..11880: which 4 positions hold the UD-slice edges FR, FL, BL, BR (one of
//!   C(12,4) = 495 combinations) times 24 plus the order of those four edges. Phase 1 only needs
//!   the combination, `slice_sorted / 24`; its order carries over to phase 2.
//!
//! Phase 2 (inside G1, where twist = flip = combination = 0):
//! - `corners`, 0..8!: the corner permutation (Lehmer rank, [`crate::rank`]);
//! - `ud_edges`, 0..8!: the permutation of the eight U- and D-layer edges (only meaningful in G1);
//! - the slice permutation, 0..24, which is `slice_sorted` itself because the combination is 0.
//!
//! Invariant: every coordinate is 0 exactly on the solved cube's value of that aspect, and the
//! combination rank of the slice positions FR, FL, BL, BR is 0, so G1 is "twist = flip =
//! slice_sorted / 24 = 0". The functions work on the plain cubie arrays so that the symmetry module
//! can use them on mirrored cubes too.

pub mod coset;
pub mod goal;
pub mod positions;
pub mod squares;
pub mod symmetry;

use std::sync::OnceLock;

use crate::cube::{Cube, Move};
use crate::rank::{PartialPerm, binomial, permutation, rank_digits, unrank_digits};

const PERM4: PartialPerm = permutation(4);
const PERM8: PartialPerm = permutation(8);

pub const N_TWIST: usize = 2187;
pub const N_FLIP: usize = 2048;
pub const N_SLICE: usize = 495;
pub const N_SLICE_SORTED: usize = 11880;
pub const N_PERM8: usize = 40320;
pub const N_SLICE_PERM: usize = 24;
pub const N_MOVES: usize = 18;
pub const N_P2_MOVES: usize = 10;

/// The moves that keep G1: U, U2, U', R2, F2, D, D2, D', L2, B2 (indices into [`Move`]).
pub const P2_MOVES: [usize; N_P2_MOVES] = [0, 1, 2, 4, 7, 9, 10, 11, 13, 16];
/// [`P2_MOVES`] as a bit set over move indices.
pub const P2_MOVE_MASK: u32 = {
    let mut mask = 0;
    let mut k = 0;
    while k < N_P2_MOVES {
        mask |= 1 << P2_MOVES[k];
        k += 1;
    }
    mask
};

/// Corner twist coordinate, 0..2187.
pub fn twist(co: &[u8; 8]) -> u16 {
    rank_digits(&co[..7], 3) as u16
}

/// Edge flip coordinate, 0..2048.
pub fn flip(eo: &[u8; 12]) -> u16 {
    rank_digits(&eo[..11], 2) as u16
}

/// Rank of the set of positions holding slice edges, 0..495 (0 when they are at FR..BR).
///
/// Colexicographic rank of the positions counted from the end (`q = 11 - p`): the solved set
/// {8, 9, 10, 11} becomes {3, 2, 1, 0}, the smallest combination.
fn slice_comb(ep: &[u8; 12]) -> usize {
    let mut rank = 0;
    let mut k = 0;
    for q in 0..12 {
        if ep[11 - q] >= 8 {
            k += 1;
            rank += binomial(q, k) as usize;
        }
    }
    rank
}

/// Slice combination times 24 plus the order of the slice edges, 0..11880.
pub fn slice_sorted(ep: &[u8; 12]) -> u16 {
    let mut order = [0u8; 4];
    let mut k = 0;
    for &e in ep {
        if e >= 8 {
            order[k] = e - 8;
            k += 1;
        }
    }
    (slice_comb(ep) * N_SLICE_PERM + PERM4.rank(&order) as usize) as u16
}

/// Corner permutation coordinate, 0..40320.
pub fn corners(cp: &[u8; 8]) -> u16 {
    PERM8.rank(cp) as u16
}

/// Permutation of the U and D edges, 0..40320; `ep[..8]` must hold the pieces 0..8 (G1).
pub fn ud_edges(ep: &[u8; 12]) -> u16 {
    PERM8.rank(&ep[..8]) as u16
}

/// A cube with the given twist and everything else solved.
pub fn twist_cube(t: usize) -> Cube {
    let mut co = [0u8; 8];
    unrank_digits(t as u32, 3, &mut co[..7]);
    co[7] = (3 - co[..7].iter().sum::<u8>() % 3) % 3;
    Cube::from_parts(Cube::SOLVED.cp(), co, Cube::SOLVED.ep(), [0; 12])
}

/// A cube with the given flip and everything else solved.
pub fn flip_cube(f: usize) -> Cube {
    let mut eo = [0u8; 12];
    unrank_digits(f as u32, 2, &mut eo[..11]);
    eo[11] = eo[..11].iter().sum::<u8>() % 2;
    Cube::from_parts(Cube::SOLVED.cp(), [0; 8], Cube::SOLVED.ep(), eo)
}

/// The position sets of the slice edges, by combination rank (bit `p` = position `p`).
fn slice_combinations() -> &'static [u16; N_SLICE] {
    static TABLE: OnceLock<[u16; N_SLICE]> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut t = [0u16; N_SLICE];
        for set in (0u16..1 << 12).filter(|m| m.count_ones() == 4) {
            let ep: [u8; 12] = std::array::from_fn(|p| if set >> p & 1 == 1 { 8 } else { 0 });
            t[slice_comb(&ep)] = set;
        }
        t
    })
}

/// An edge permutation with the given `slice_sorted` value; the other edges fill the remaining
/// positions in order.
pub fn slice_sorted_edges(ss: usize) -> [u8; 12] {
    let (comb, perm) = (ss / N_SLICE_PERM, ss % N_SLICE_PERM);
    let positions = slice_combinations()[comb];
    let mut order = [0u8; 4];
    PERM4.unrank(perm as u64, &mut order);
    let mut ep = [0u8; 12];
    let (mut k, mut other) = (0, 0);
    for p in 0..12 {
        if positions >> p & 1 == 1 {
            ep[p] = order[k] + 8;
            k += 1;
        } else {
            ep[p] = other;
            other += 1;
        }
    }
    ep
}

/// A corner permutation with the given coordinate.
pub fn corners_perm(c: usize) -> [u8; 8] {
    let mut cp = [0u8; 8];
    PERM8.unrank(c as u64, &mut cp);
    cp
}

/// A G1 edge permutation with the given `ud_edges` coordinate and the slice edges in place.
pub fn ud_edges_perm(u: usize) -> [u8; 12] {
    let mut ep = Cube::SOLVED.ep();
    PERM8.unrank(u as u64, &mut ep[..8]);
    ep
}

/// Move tables, `table[x * moves + m]` = coordinate after applying move `m` to a position with
/// coordinate `x`. Phase-1 tables cover all 18 moves; `ud_edges` only the 10 phase-2 moves
/// (indexed like [`P2_MOVES`]), since the other moves take edges out of G1.
pub struct MoveTables {
    pub twist: Vec<u16>,
    pub flip: Vec<u16>,
    pub slice_sorted: Vec<u16>,
    pub corners: Vec<u16>,
    pub ud_edges: Vec<u16>,
}

/// Builds a move table by applying every move to one cube per coordinate value.
fn table(
    n: usize,
    moves: &[usize],
    cube: impl Fn(usize) -> Cube,
    coord: impl Fn(&Cube) -> u16,
) -> Vec<u16> {
    let mut t = Vec::with_capacity(n * moves.len());
    for x in 0..n {
        let c = cube(x);
        for &m in moves {
            t.push(coord(&c.apply(Move::from_index(m))));
        }
    }
    t
}

impl MoveTables {
    /// The move tables, built once per process (about 0.1 s) and shared.
    pub fn get() -> &'static MoveTables {
        static TABLES: OnceLock<MoveTables> = OnceLock::new();
        TABLES.get_or_init(MoveTables::new)
    }

    pub(crate) fn new() -> MoveTables {
        let all: Vec<usize> = (0..N_MOVES).collect();
        let solved = Cube::SOLVED;
        MoveTables {
            twist: table(N_TWIST, &all, twist_cube, |c| twist(&c.co())),
            flip: table(N_FLIP, &all, flip_cube, |c| flip(&c.eo())),
            slice_sorted: table(
                N_SLICE_SORTED,
                &all,
                |x| Cube::from_parts(solved.cp(), [0; 8], slice_sorted_edges(x), [0; 12]),
                |c| slice_sorted(&c.ep()),
            ),
            corners: table(
                N_PERM8,
                &all,
                |x| Cube::from_parts(corners_perm(x), [0; 8], solved.ep(), [0; 12]),
                |c| corners(&c.cp()),
            ),
            ud_edges: table(
                N_PERM8,
                &P2_MOVES,
                |x| Cube::from_parts(solved.cp(), [0; 8], ud_edges_perm(x), [0; 12]),
                |c| ud_edges(&c.ep()),
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cube::Rng;

    #[test]
    fn solved_cube_has_all_coordinates_zero() {
        let c = Cube::SOLVED;
        assert_eq!(twist(&c.co()), 0);
        assert_eq!(flip(&c.eo()), 0);
        assert_eq!(slice_sorted(&c.ep()), 0);
        assert_eq!(corners(&c.cp()), 0);
        assert_eq!(ud_edges(&c.ep()), 0);
    }

    #[test]
    fn unranking_inverts_ranking() {
        for t in 0..N_TWIST {
            assert_eq!(twist(&twist_cube(t).co()) as usize, t);
        }
        for f in 0..N_FLIP {
            assert_eq!(flip(&flip_cube(f).eo()) as usize, f);
        }
        let mut seen = std::collections::HashSet::new();
        for ss in 0..N_SLICE_SORTED {
            let ep = slice_sorted_edges(ss);
            assert_eq!(slice_sorted(&ep) as usize, ss);
            assert!(seen.insert(ep));
        }
        for x in (0..N_PERM8).step_by(97) {
            assert_eq!(corners(&corners_perm(x)) as usize, x);
            assert_eq!(ud_edges(&ud_edges_perm(x)) as usize, x);
        }
    }

    /// Following a random scramble through the move tables gives the same coordinates as
    /// computing them from the cubies at the end.
    #[test]
    fn move_tables_track_cubies() {
        let t = MoveTables::new();
        let mut rng = Rng::new(11);
        let mut c = Cube::random(&mut rng);
        let (mut tw, mut fl, mut ss, mut co) = (
            twist(&c.co()) as usize,
            flip(&c.eo()) as usize,
            slice_sorted(&c.ep()) as usize,
            corners(&c.cp()) as usize,
        );
        for _ in 0..500 {
            let m = rng.below(18) as usize;
            c = c.apply(Move::from_index(m));
            tw = t.twist[tw * N_MOVES + m] as usize;
            fl = t.flip[fl * N_MOVES + m] as usize;
            ss = t.slice_sorted[ss * N_MOVES + m] as usize;
            co = t.corners[co * N_MOVES + m] as usize;
            assert_eq!(tw, twist(&c.co()) as usize);
            assert_eq!(fl, flip(&c.eo()) as usize);
            assert_eq!(ss, slice_sorted(&c.ep()) as usize);
            assert_eq!(co, corners(&c.cp()) as usize);
        }
        // Phase 2: stays in G1, so the slice coordinate stays below 24.
        let mut c = Cube::SOLVED;
        let (mut ud, mut ss) = (0usize, 0usize);
        for _ in 0..500 {
            let k = rng.below(N_P2_MOVES as u64) as usize;
            c = c.apply(Move::from_index(P2_MOVES[k]));
            ud = t.ud_edges[ud * N_P2_MOVES + k] as usize;
            ss = t.slice_sorted[ss * N_MOVES + P2_MOVES[k]] as usize;
            assert_eq!(ud, ud_edges(&c.ep()) as usize);
            assert!(ss < N_SLICE_PERM);
            assert_eq!(ss, slice_sorted(&c.ep()) as usize);
            assert_eq!((twist(&c.co()), flip(&c.eo())), (0, 0));
        }
    }
}
