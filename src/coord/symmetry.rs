//! The 48 symmetries of the cube as cubie transformations, and the one symmetric-coordinate
//! layer: the classes of a coordinate under a group of symmetries (the 16 that keep the UD
//! axis, or all 48), with representatives, stabilizers and the symmetry that takes each value
//! to its representative ([`SymClasses`]). The class tables that several users share — the
//! flip × slice classes of Kociemba's phase 1 (the phase-1 pattern databases and the two-phase
//! solver) and the twist conjugation table — are built once per process ([`flipslice_classes`],
//! [`twist_conj`]).
//!
//! A symmetry `S` acts on a position `c` by conjugation, `S c S⁻¹`: the same position seen
//! after turning (or mirroring) the whole cube. Conjugation maps move sequences to move sequences
//! of the same length, so two conjugate positions are equally far from solved and from G1; a
//! pruning table needs only one entry per class of conjugate positions.
//!
//! The symmetries are the products `S_URF3^a · S_F2^b · S_U4^c · S_LR2^d` (a < 3, b < 2, c < 4,
//! d < 2) with index `16a + 8b + 2c + d`, so indices 0..16 are exactly those that keep the U and D
//! faces on the UD axis and map G1 to itself.
//!
//! Mirror images turn clockwise twists into counter-clockwise ones, so they cannot be written
//! with the cube model's twists 0..3. [`SymCube`] uses Kociemba's extension: twist `r + 3` means
//! "twist `r`, mirrored". The cube model's `compose` never sees these values; conjugating an
//! ordinary position by a mirror symmetry gives an ordinary position again.

use crate::cube::{Cube, Move};

use crate::coord::{
    self, N_FLIP, N_MOVES, N_PERM8, N_SLICE, N_SLICE_PERM, N_SLICE_SORTED, N_TWIST,
};
use std::sync::OnceLock;

/// Number of symmetries that keep the UD axis.
pub const N_SYM_UD: usize = 16;
/// Index of `S_URF3`, the 120° turn about the URF–DBL diagonal (used to change axis).
pub const S_URF3: usize = 16;

/// A cube state that may be mirrored: corner twists in 0..6 (3..6 = mirrored).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SymCube {
    pub cp: [u8; 8],
    pub co: [u8; 8],
    pub ep: [u8; 12],
    pub eo: [u8; 12],
}

impl SymCube {
    pub const IDENTITY: SymCube = SymCube {
        cp: [0, 1, 2, 3, 4, 5, 6, 7],
        co: [0; 8],
        ep: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11],
        eo: [0; 12],
    };

    pub fn from_cube(c: &Cube) -> SymCube {
        SymCube {
            cp: c.cp(),
            co: c.co(),
            ep: c.ep(),
            eo: c.eo(),
        }
    }

    /// The ordinary cube, if this state is not mirrored.
    pub fn to_cube(self) -> Option<Cube> {
        (self.co.iter().all(|&o| o < 3))
            .then(|| Cube::from_parts(self.cp, self.co, self.ep, self.eo))
    }

    /// `self * b`, the same replaced-by product as `Cube::compose`, with mirrored twists.
    pub fn mul(&self, b: &SymCube) -> SymCube {
        let mut r = SymCube::IDENTITY;
        for i in 0..8 {
            let src = b.cp[i] as usize;
            r.cp[i] = self.cp[src];
            let (oa, ob) = (self.co[src], b.co[i]);
            // A mirrored piece reverses the sense of any twist applied after it, and two
            // mirrorings cancel.
            let twist = (if oa >= 3 {
                oa % 3 + 3 - ob % 3
            } else {
                oa + ob % 3
            }) % 3;
            let mirrored = (oa >= 3) != (ob >= 3);
            r.co[i] = twist + if mirrored { 3 } else { 0 };
        }
        for i in 0..12 {
            let src = b.ep[i] as usize;
            r.ep[i] = self.ep[src];
            r.eo[i] = (self.eo[src] + b.eo[i]) % 2;
        }
        r
    }
}

/// The turns by 120° and 240° about the URF–DBL diagonal, each with its inverse, as ordinary
/// cubes (rotations need no mirrored twists): they carry the UD axis to the others.
pub fn diagonal_turns() -> [(Cube, Cube); 2] {
    let once = BASIC_URF3.to_cube().expect("a rotation");
    let twice = once.compose(&once);
    // The turn has order 3: its inverse is the turn twice.
    [(once, twice), (twice, once)]
}

// The four basic symmetries in Kociemba's numbering (replaced-by convention).
const BASIC_URF3: SymCube = SymCube {
    cp: [0, 4, 5, 1, 3, 7, 6, 2],
    co: [1, 2, 1, 2, 2, 1, 2, 1],
    ep: [1, 8, 5, 9, 3, 11, 7, 10, 0, 4, 6, 2],
    eo: [1, 0, 1, 0, 1, 0, 1, 0, 1, 1, 1, 1],
};
const BASIC_F2: SymCube = SymCube {
    cp: [5, 4, 7, 6, 1, 0, 3, 2],
    co: [0; 8],
    ep: [6, 5, 4, 7, 2, 1, 0, 3, 9, 8, 11, 10],
    eo: [0; 12],
};
const BASIC_U4: SymCube = SymCube {
    cp: [3, 0, 1, 2, 7, 4, 5, 6],
    co: [0; 8],
    ep: [3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10],
    eo: [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1],
};
const BASIC_LR2: SymCube = SymCube {
    cp: [1, 0, 3, 2, 5, 4, 7, 6],
    co: [3; 8],
    ep: [2, 1, 0, 3, 6, 5, 4, 7, 9, 8, 11, 10],
    eo: [0; 12],
};

/// The 48 symmetries with their inverses and their action on moves.
pub struct Symmetries {
    pub cubes: [SymCube; 48],
    /// `inv[s]`: the index of `S_s⁻¹`.
    pub inv: [u8; 48],
    /// `move_conj[s][m]`: the move `S_s M_m S_s⁻¹`.
    pub move_conj: [[u8; N_MOVES]; 48],
}

impl Symmetries {
    pub(crate) fn new() -> Symmetries {
        let mut cubes = [SymCube::IDENTITY; 48];
        let mut c = SymCube::IDENTITY;
        let mut idx = 0;
        // Each basic symmetry is applied as many times as its order, so `c` returns to its
        // previous value after each inner loop and `cubes[16a+8b+2c+d]` is the product above.
        for _ in 0..3 {
            for _ in 0..2 {
                for _ in 0..4 {
                    for _ in 0..2 {
                        cubes[idx] = c;
                        idx += 1;
                        c = c.mul(&BASIC_LR2);
                    }
                    c = c.mul(&BASIC_U4);
                }
                c = c.mul(&BASIC_F2);
            }
            c = c.mul(&BASIC_URF3);
        }
        let mut inv = [0u8; 48];
        for i in 0..48 {
            inv[i] = (0..48)
                .find(|&j| cubes[i].mul(&cubes[j]) == SymCube::IDENTITY)
                .expect("every symmetry has an inverse") as u8;
        }
        let mut move_conj = [[0u8; N_MOVES]; 48];
        for s in 0..48 {
            for m in Move::all() {
                let conj = cubes[s]
                    .mul(&SymCube::from_cube(m.cube()))
                    .mul(&cubes[inv[s] as usize]);
                move_conj[s][m.index()] = Move::all()
                    .position(|n| SymCube::from_cube(n.cube()) == conj)
                    .expect("a conjugated move is a move")
                    as u8;
            }
        }
        Symmetries {
            cubes,
            inv,
            move_conj,
        }
    }

    /// `S_s c S_s⁻¹`.
    #[inline]
    pub fn conj(&self, c: &SymCube, s: usize) -> SymCube {
        self.cubes[s].mul(c).mul(&self.cubes[self.inv[s] as usize])
    }

    /// `S_s c S_s⁻¹` for an ordinary cube (always ordinary again).
    pub fn conj_cube(&self, c: &Cube, s: usize) -> Cube {
        self.conj(&SymCube::from_cube(c), s)
            .to_cube()
            .expect("conjugation preserves handedness")
    }
}

/// A coordinate reduced by a group of symmetries (the first 16, which keep the UD axis, or all
/// 48): every value `x` belongs to a class whose representative is `rep[class_of[x]]`, reached
/// as the coordinate of `S_t c S_t⁻¹` with `t = sym_of[x]` for any position `c` with coordinate
/// `x`.
///
/// Invariants: representatives are the smallest members of their classes, class 0 holds value
/// 0, and for every class `|class| · |stabilizer| = group order` (orbit–stabilizer).
pub struct SymClasses {
    pub class_of: Vec<u32>,
    pub sym_of: Vec<u8>,
    pub rep: Vec<u32>,
    /// Bit `s` set when `S_s` maps the representative to itself.
    pub stabilizer: Vec<u64>,
}

impl SymClasses {
    /// Calls `f(s)` for every symmetry `S_s` but the identity that maps class `cls`'s
    /// representative to itself (none for most classes): the symmetries by which a
    /// symmetry-reduced layout finds an entry's twins.
    #[inline(always)]
    pub fn for_each_other_stabilizer(&self, cls: usize, mut f: impl FnMut(usize)) {
        // Bit 0 (the identity) is always set.
        let mut stab = self.stabilizer[cls] & !1;
        while stab != 0 {
            f(stab.trailing_zeros() as usize);
            stab &= stab - 1;
        }
    }

    /// Enumerates the classes under the first `group` symmetries (16 or 48) of a coordinate
    /// with `n` values, given a position for each value and the coordinate of a (conjugated)
    /// position. The coordinate must be well defined on conjugates: the coordinate of
    /// `S c S⁻¹` may depend only on the coordinate of `c`. Values are visited in increasing
    /// order, so each representative is the smallest member of its class.
    pub fn build(
        syms: &Symmetries,
        group: usize,
        n: usize,
        cube: impl Fn(usize) -> SymCube,
        coord: impl Fn(&SymCube) -> usize,
    ) -> SymClasses {
        assert!(
            group == N_SYM_UD || group == 48,
            "a group of 16 or 48 symmetries"
        );
        const UNSET: u32 = u32::MAX;
        let mut class_of = vec![UNSET; n];
        let mut sym_of = vec![0u8; n];
        let (mut rep, mut stabilizer) = (Vec::new(), Vec::new());
        for x in 0..n {
            if class_of[x] != UNSET {
                continue;
            }
            let cls = rep.len() as u32;
            let c = cube(x);
            let mut stab = 0u64;
            for s in 0..group {
                let y = coord(&syms.conj(&c, s));
                if y == x {
                    stab |= 1 << s;
                }
                if class_of[y] == UNSET {
                    // y is the coordinate of S_s c S_s⁻¹, so S_s⁻¹ takes it back to x.
                    class_of[y] = cls;
                    sym_of[y] = syms.inv[s];
                }
            }
            rep.push(x as u32);
            stabilizer.push(stab);
        }
        SymClasses {
            class_of,
            sym_of,
            rep,
            stabilizer,
        }
    }

    /// `class << bits | sym` of every value (`sym < 2^bits`): class and symmetry in one word,
    /// so that a search reads both with one memory access.
    pub fn packed(&self, bits: u32) -> Vec<u32> {
        (self.class_of.iter().zip(&self.sym_of))
            .map(|(&cls, &s)| cls << bits | s as u32)
            .collect()
    }

    /// Number of classes.
    pub fn len(&self) -> usize {
        self.rep.len()
    }

    /// True for a coordinate with no values.
    pub fn is_empty(&self) -> bool {
        self.rep.is_empty()
    }
}

/// The 48 symmetries, built once per process.
pub fn symmetries() -> &'static Symmetries {
    static SYMS: OnceLock<Symmetries> = OnceLock::new();
    SYMS.get_or_init(Symmetries::new)
}

/// `twist_conj()[t * 16 + s]`: the twist of `S_s c S_s⁻¹` for a position `c` with twist `t`
/// (`s` one of the 16 UD symmetries), built once per process.
pub fn twist_conj() -> &'static [u16] {
    static TABLE: OnceLock<Vec<u16>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let syms = symmetries();
        let mut t = Vec::with_capacity(N_TWIST * N_SYM_UD);
        for x in 0..N_TWIST {
            let c = coord::twist_cube(x);
            for s in 0..N_SYM_UD {
                t.push(coord::twist(&syms.conj_cube(&c, s).co()));
            }
        }
        t
    })
}

/// Classes under the 16 UD symmetries of `slice · 2048 + flip`, where `slice` is the
/// combination of the UD-slice edges' places (`sorted = false`, 495 values: Kociemba's
/// 64,430 flip-slice classes) or those places with the slice edges' order (`sorted = true`,
/// 11,880 values). Built once per process (the sorted classes take a few seconds).
pub fn flipslice_classes(sorted: bool) -> &'static SymClasses {
    static PLAIN: OnceLock<SymClasses> = OnceLock::new();
    static SORTED: OnceLock<SymClasses> = OnceLock::new();
    let (cell, slices, per) = if sorted {
        (&SORTED, N_SLICE_SORTED, 1)
    } else {
        (&PLAIN, N_SLICE, N_SLICE_PERM)
    };
    // A slice value v stands for the slice_sorted value v · per (order 0 when not tracked).
    cell.get_or_init(|| {
        SymClasses::build(
            symmetries(),
            N_SYM_UD,
            slices * N_FLIP,
            |x| SymCube {
                ep: coord::slice_sorted_edges((x / N_FLIP) * per),
                eo: coord::flip_cube(x % N_FLIP).eo(),
                ..SymCube::IDENTITY
            },
            |c| (coord::slice_sorted(&c.ep) as usize / per) * N_FLIP + coord::flip(&c.eo) as usize,
        )
    })
}

/// Everything the two-phase pruning tables need from symmetry.
pub struct SymTables {
    pub syms: &'static Symmetries,
    /// Classes of `flipslice = slice_combination * 2048 + flip` ([`flipslice_classes`]).
    pub flipslice: &'static SymClasses,
    /// Classes of the corner permutation.
    pub corners: SymClasses,
    /// `twist_conj[t * 16 + s]`: twist of `S_s c S_s⁻¹` for `c` with twist `t` ([`twist_conj`]).
    pub twist_conj: &'static [u16],
    /// `ud_edges_conj[u * 16 + s]`: UD-edge coordinate of `S_s c S_s⁻¹` (c in G1).
    pub ud_edges_conj: Vec<u16>,
}

impl SymTables {
    pub(crate) fn new() -> SymTables {
        let syms = symmetries();
        let corners = SymClasses::build(
            syms,
            N_SYM_UD,
            N_PERM8,
            |x| SymCube {
                cp: coord::corners_perm(x),
                ..SymCube::IDENTITY
            },
            |c| coord::corners(&c.cp) as usize,
        );
        let mut ud_edges_conj = Vec::with_capacity(N_PERM8 * N_SYM_UD);
        for u in 0..N_PERM8 {
            let c = SymCube {
                ep: coord::ud_edges_perm(u),
                ..SymCube::IDENTITY
            };
            for s in 0..N_SYM_UD {
                ud_edges_conj.push(coord::ud_edges(&syms.conj(&c, s).ep));
            }
        }
        SymTables {
            syms,
            flipslice: flipslice_classes(false),
            corners,
            twist_conj: twist_conj(),
            ud_edges_conj,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cube::Rng;

    #[test]
    fn the_48_symmetries_form_a_group() {
        let s = Symmetries::new();
        let index = |c: &SymCube| s.cubes.iter().position(|x| x == c);
        for i in 0..48 {
            assert_eq!(index(&s.cubes[i]), Some(i), "symmetries are distinct");
            assert_eq!(
                s.cubes[i].mul(&s.cubes[s.inv[i] as usize]),
                SymCube::IDENTITY
            );
            assert_eq!(
                s.cubes[s.inv[i] as usize].mul(&s.cubes[i]),
                SymCube::IDENTITY
            );
            for j in 0..48 {
                assert!(
                    index(&s.cubes[i].mul(&s.cubes[j])).is_some(),
                    "closure {i} {j}"
                );
            }
        }
        // Associativity of the extended product, on a sample of triples.
        for (i, j, k) in [(1, 17, 33), (47, 5, 22), (3, 3, 40)] {
            let (a, b, c) = (&s.cubes[i], &s.cubes[j], &s.cubes[k]);
            assert_eq!(a.mul(b).mul(c), a.mul(&b.mul(c)));
        }
    }

    #[test]
    fn basic_symmetries_have_their_orders() {
        let pow = |c: &SymCube, n: usize| (0..n).fold(SymCube::IDENTITY, |acc, _| acc.mul(c));
        for (c, order) in [
            (BASIC_URF3, 3),
            (BASIC_F2, 2),
            (BASIC_U4, 4),
            (BASIC_LR2, 2),
        ] {
            for k in 1..order {
                assert_ne!(pow(&c, k), SymCube::IDENTITY);
            }
            assert_eq!(pow(&c, order), SymCube::IDENTITY);
        }
    }

    #[test]
    fn conjugating_a_move_gives_a_move() {
        let s = Symmetries::new();
        for sym in 0..48 {
            let mut image = s.move_conj[sym];
            // A bijection on moves that keeps half turns half turns.
            for m in 0..18 {
                assert_eq!(image[m] % 3 == 1, m % 3 == 1);
            }
            image.sort();
            assert_eq!(image.to_vec(), (0..18).collect::<Vec<u8>>());
        }
        // The first 16 keep the UD axis: U and D turns stay U or D turns.
        for sym in 0..48 {
            let keeps_ud = [0, 2, 9, 11]
                .iter()
                .all(|&m| matches!(s.move_conj[sym][m] / 3, 0 | 3));
            assert_eq!(keeps_ud, sym < N_SYM_UD, "symmetry {sym}");
        }
        // S_U4 turns the cube about U: conjugating R gives a quarter turn of another side face.
        assert_eq!(s.move_conj[2][0], 0);
        assert!([2, 5].contains(&(s.move_conj[2][3] / 3)));
    }

    #[test]
    fn conjugation_commutes_with_applying_moves() {
        let s = Symmetries::new();
        let mut rng = Rng::new(5);
        let c = Cube::random(&mut rng);
        for sym in 0..48 {
            for m in Move::all() {
                let lhs = s.conj_cube(&c.apply(m), sym);
                let n = Move::from_index(s.move_conj[sym][m.index()] as usize);
                assert_eq!(lhs, s.conj_cube(&c, sym).apply(n));
            }
        }
    }

    #[test]
    fn class_counts_match_kociemba() {
        let t = SymTables::new();
        assert_eq!(t.flipslice.rep.len(), 64_430);
        assert_eq!(t.corners.rep.len(), 2_768);
        assert_eq!(t.flipslice.rep[0], 0);
        assert_eq!(t.corners.rep[0], 0);
        // Every value maps onto its class representative with the recorded symmetry.
        for x in (0..coord::N_PERM8).step_by(7) {
            let c = SymCube {
                cp: coord::corners_perm(x),
                ..SymCube::IDENTITY
            };
            let s = t.corners.sym_of[x] as usize;
            let rep = t.corners.rep[t.corners.class_of[x] as usize] as usize;
            assert_eq!(coord::corners(&t.syms.conj(&c, s).cp) as usize, rep);
        }
        // Class sizes times stabilizer sizes equal the group order (orbit-stabilizer).
        let mut size = vec![0usize; t.corners.rep.len()];
        for &c in &t.corners.class_of {
            size[c as usize] += 1;
        }
        for (cls, &n) in size.iter().enumerate() {
            assert_eq!(
                n * t.corners.stabilizer[cls].count_ones() as usize,
                N_SYM_UD
            );
        }
    }

    /// The shared phase-1 classes are Kociemba's, and built once.
    #[test]
    fn shared_flipslice_classes() {
        assert_eq!(flipslice_classes(false).len(), 64_430);
        assert!(std::ptr::eq(
            flipslice_classes(false),
            SymTables::new().flipslice
        ));
    }
}
