//! The corner part of the 48-symmetry coset coordinate, the ground of a coset table in the
//! style of Tronto's H48 (nissy-core `doc/h48.md`). The target subgroup — every corner in its
//! own tetrad ({URF, ULB, DLF, DRB} and {UFL, UBR, DFR, DBL}) and oriented, every edge in its own
//! slice — is invariant under all 48 cube symmetries and holds every half turn. A position's
//! corner coset is which 4 of the 8 places hold the first tetrad (C(8,4) = 70) times its twist
//! (3^7): 153,090 values, in 3,393 classes under the 48 symmetries.
//!
//! Invariants: [`corner_coset`] depends only on which tetrad each place's piece belongs to and on
//! the orientations, so moves act on it ([`CornerCoset::moves`]) and every half turn fixes the
//! solved value; it is well defined on conjugates (the value of `S c S⁻¹` depends only on the
//! value of `c`), so its classes under the symmetries are classes of positions.

use super::symmetry::{SymClasses, SymCube, symmetries};
use super::{N_MOVES, N_TWIST, twist, twist_cube};
use crate::cube::{Cube, Move};
use std::sync::OnceLock;

/// Places of the 4-subsets of the 8 corner places.
pub const N_TETRAD: usize = 70;
/// Values of the corner coset coordinate.
pub const N_CORNER_COSET: usize = N_TETRAD * N_TWIST;
/// Classes of the corner coset coordinate under the 48 symmetries.
pub const N_CORNER_COSET_CLASSES: usize = 3_393;

/// The 70 masks of 4 corner places, in increasing order.
fn masks() -> &'static [u8; N_TETRAD] {
    static MASKS: OnceLock<[u8; N_TETRAD]> = OnceLock::new();
    MASKS.get_or_init(|| {
        let mut it = (0u16..256).filter(|m| m.count_ones() == 4).map(|m| m as u8);
        std::array::from_fn(|_| it.next().expect("70 masks"))
    })
}

/// Is this corner piece (Kociemba's numbering: URF 0, UFL 1, ULB 2, UBR 3, DFR 4, DLF 5,
/// DBL 6, DRB 7) in the first tetrad {URF, ULB, DLF, DRB}?
#[inline]
fn in_first_tetrad(piece: u8) -> bool {
    matches!(piece, 0 | 2 | 5 | 7)
}

/// The corner coset coordinate of a corner permutation and orientation (twists 0..3; mirrored
/// twists of a [`SymCube`] count by their twist modulo 3).
pub fn corner_coset(cp: &[u8; 8], co: &[u8; 8]) -> usize {
    let mask = (0..8).fold(0u8, |m, p| m | (in_first_tetrad(cp[p]) as u8) << p);
    let co = co.map(|o| o % 3);
    masks().binary_search(&mask).expect("4 places") * N_TWIST + twist(&co) as usize
}

/// A position with corner coset `x` (edges solved): the first tetrad's pieces in order on
/// the mask's places, the other tetrad's on the rest.
pub fn corner_coset_cube(x: usize) -> Cube {
    let mask = masks()[x / N_TWIST];
    let (mut a, mut b) = ([0u8, 2, 5, 7].into_iter(), [1u8, 3, 4, 6].into_iter());
    let cp = std::array::from_fn(|p| {
        if mask >> p & 1 == 1 {
            a.next().unwrap()
        } else {
            b.next().unwrap()
        }
    });
    let s = Cube::SOLVED;
    Cube::from_parts(cp, twist_cube(x % N_TWIST).co(), s.ep(), s.eo())
}

/// The coordinate's value on the target subgroup (solved).
pub fn solved_corner_coset() -> usize {
    corner_coset(&Cube::SOLVED.cp(), &Cube::SOLVED.co())
}

/// The move table and the symmetry classes of the corner coset coordinate.
pub struct CornerCoset {
    /// `moves[x * 18 + m]`: the value after move `m`.
    pub moves: Vec<u32>,
    /// Classes under all 48 symmetries (class, symmetry to the representative, stabilizers).
    pub classes: SymClasses,
}

impl CornerCoset {
    /// Built once per process (well under a second) and shared.
    pub fn get() -> &'static CornerCoset {
        static TABLES: OnceLock<CornerCoset> = OnceLock::new();
        TABLES.get_or_init(|| {
            let mut moves = Vec::with_capacity(N_CORNER_COSET * N_MOVES);
            for x in 0..N_CORNER_COSET {
                let c = corner_coset_cube(x);
                for m in Move::all() {
                    let d = c.apply(m);
                    moves.push(corner_coset(&d.cp(), &d.co()) as u32);
                }
            }
            let classes = SymClasses::build(
                symmetries(),
                48,
                N_CORNER_COSET,
                |x| SymCube::from_cube(&corner_coset_cube(x)),
                |c| corner_coset(&c.cp, &c.co),
            );
            CornerCoset { moves, classes }
        })
    }

    /// The value after move `m`.
    #[inline]
    pub fn apply(&self, x: usize, m: Move) -> usize {
        self.moves[x * N_MOVES + m.index()] as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cube::Rng;

    #[test]
    fn moves_act_on_the_coordinate() {
        let t = CornerCoset::get();
        let mut rng = Rng::new(19);
        for _ in 0..500 {
            let c = Cube::random(&mut rng);
            let x = corner_coset(&c.cp(), &c.co());
            for m in Move::all() {
                let d = c.apply(m);
                assert_eq!(t.apply(x, m), corner_coset(&d.cp(), &d.co()), "{m}");
            }
        }
        // The cube built for a value has that value.
        for x in (0..N_CORNER_COSET).step_by(97) {
            let c = corner_coset_cube(x);
            assert_eq!(corner_coset(&c.cp(), &c.co()), x);
        }
    }

    #[test]
    fn half_turns_fix_the_subgroup_and_quarter_turns_leave_it() {
        let t = CornerCoset::get();
        let solved = solved_corner_coset();
        for m in Move::all() {
            assert_eq!(t.apply(solved, m) == solved, m.quarter_turns() == 2, "{m}");
        }
    }

    /// 3,393 classes under the 48 symmetries (Tronto, nissy-core `doc/h48.md`); each class's
    /// size times its stabilizer's is 48; the coordinate is well defined on conjugates.
    #[test]
    fn classes_under_48_symmetries() {
        let syms = symmetries();
        let value = |c: &SymCube| corner_coset(&c.cp, &c.co);
        let mut rng = Rng::new(48);
        for _ in 0..300 {
            let c = SymCube::from_cube(&Cube::random(&mut rng));
            let x = value(&c);
            let built = SymCube::from_cube(&corner_coset_cube(x));
            for s in 0..48 {
                assert_eq!(value(&syms.conj(&c, s)), value(&syms.conj(&built, s)));
            }
        }
        let classes = &CornerCoset::get().classes;
        assert_eq!(classes.len(), N_CORNER_COSET_CLASSES);
        let mut size = vec![0usize; classes.len()];
        for &c in &classes.class_of {
            size[c as usize] += 1;
        }
        for (cls, &n) in size.iter().enumerate() {
            assert_eq!(n * classes.stabilizer[cls].count_ones() as usize, 48);
        }
        // The solved value is alone in its class, fixed by every symmetry.
        let solved = solved_corner_coset();
        let cls = classes.class_of[solved] as usize;
        assert_eq!(size[cls], 1);
        assert_eq!(classes.stabilizer[cls].count_ones(), 48);
    }
}
