//! The 18 face turns of the half-turn metric, their cubie-level effect, and the canonical
//! successor rule used by every search.
//!
//! A [`Move`] is a number 0..18: `face * 3 + power`, faces in the order U R F D L B, power 0 =
//! quarter turn clockwise (`X`), 1 = half turn (`X2`), 2 = counter-clockwise (`X'`). The cubie
//! effect of every move is in one table, [`MOVE_CUBES`], computed at compile time from the six
//! basic quarter turns.

use super::cubie::{Cube, compose_const};

/// The six faces, in Kociemba's order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Face {
    U = 0,
    R = 1,
    F = 2,
    D = 3,
    L = 4,
    B = 5,
}

impl Face {
    pub const ALL: [Face; 6] = [Face::U, Face::R, Face::F, Face::D, Face::L, Face::B];

    /// The face's letter.
    pub fn letter(self) -> char {
        b"URFDLB"[self as usize] as char
    }
    /// The face for a letter of `URFDLB`.
    pub fn from_letter(c: char) -> Option<Face> {
        "URFDLB".find(c).map(|i| Face::ALL[i])
    }
    /// The opposite face (U↔D, R↔L, F↔B).
    pub fn opposite(self) -> Face {
        Face::ALL[(self as usize + 3) % 6]
    }
}

/// One of the 18 face turns.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move(u8);

impl Move {
    /// Number of moves in the half-turn metric.
    pub const COUNT: usize = 18;

    /// All 18 moves in index order.
    pub fn all() -> impl Iterator<Item = Move> + Clone {
        (0..18).map(Move)
    }
    /// Builds a move from its index 0..18.
    #[inline(always)]
    pub const fn from_index(i: usize) -> Move {
        assert!(i < 18);
        Move(i as u8)
    }
    /// Builds a move from a face and a power (1 = `X`, 2 = `X2`, 3 = `X'`).
    pub const fn new(face: Face, quarter_turns: u8) -> Move {
        assert!(quarter_turns >= 1 && quarter_turns <= 3);
        Move(face as u8 * 3 + quarter_turns - 1)
    }
    /// Index 0..18.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
    /// The face this move turns.
    #[inline(always)]
    pub fn face(self) -> Face {
        Face::ALL[(self.0 / 3) as usize]
    }
    /// Face index 0..6.
    #[inline(always)]
    pub const fn face_index(self) -> usize {
        (self.0 / 3) as usize
    }
    /// Clockwise quarter turns, 1..=3.
    #[inline(always)]
    pub const fn quarter_turns(self) -> u8 {
        self.0 % 3 + 1
    }
    /// The inverse move (`R` ↔ `R'`, `R2` ↔ `R2`).
    #[inline(always)]
    pub const fn inverse(self) -> Move {
        Move(self.0 - self.0 % 3 + (2 - self.0 % 3))
    }
    /// The cubie-level effect of the move.
    #[inline(always)]
    pub fn cube(self) -> &'static Cube {
        &MOVE_CUBES[self.0 as usize]
    }
    /// The cubie-level effect of the inverse move, `self.inverse().cube()`.
    #[inline(always)]
    pub fn inverse_cube(self) -> &'static Cube {
        &INVERSE_MOVE_CUBES[self.0 as usize]
    }
}

impl std::fmt::Display for Move {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let suffix = ["", "2", "'"][(self.0 % 3) as usize];
        write!(f, "{}{}", self.face().letter(), suffix)
    }
}

// Kociemba's basic quarter turns in the replaced-by convention.
const BASIC: [Cube; 6] = [
    // U
    Cube::from_parts(
        [3, 0, 1, 2, 4, 5, 6, 7],
        [0; 8],
        [3, 0, 1, 2, 4, 5, 6, 7, 8, 9, 10, 11],
        [0; 12],
    ),
    // R
    Cube::from_parts(
        [4, 1, 2, 0, 7, 5, 6, 3],
        [2, 0, 0, 1, 1, 0, 0, 2],
        [8, 1, 2, 3, 11, 5, 6, 7, 4, 9, 10, 0],
        [0; 12],
    ),
    // F
    Cube::from_parts(
        [1, 5, 2, 3, 0, 4, 6, 7],
        [1, 2, 0, 0, 2, 1, 0, 0],
        [0, 9, 2, 3, 4, 8, 6, 7, 1, 5, 10, 11],
        [0, 1, 0, 0, 0, 1, 0, 0, 1, 1, 0, 0],
    ),
    // D
    Cube::from_parts(
        [0, 1, 2, 3, 5, 6, 7, 4],
        [0; 8],
        [0, 1, 2, 3, 5, 6, 7, 4, 8, 9, 10, 11],
        [0; 12],
    ),
    // L
    Cube::from_parts(
        [0, 2, 6, 3, 4, 1, 5, 7],
        [0, 1, 2, 0, 0, 2, 1, 0],
        [0, 1, 10, 3, 4, 5, 9, 7, 8, 2, 6, 11],
        [0; 12],
    ),
    // B
    Cube::from_parts(
        [0, 1, 3, 7, 4, 5, 2, 6],
        [0, 0, 1, 2, 0, 0, 2, 1],
        [0, 1, 2, 11, 4, 5, 6, 10, 8, 9, 3, 7],
        [0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 1, 1],
    ),
];

const fn build_move_cubes() -> [Cube; 18] {
    let mut t = [Cube::SOLVED; 18];
    let mut f = 0;
    while f < 6 {
        let q = BASIC[f];
        let h = compose_const(&q, &q);
        t[f * 3] = q;
        t[f * 3 + 1] = h;
        t[f * 3 + 2] = compose_const(&h, &q);
        f += 1;
    }
    t
}

/// The cubie effect of each of the 18 moves, by [`Move::index`]. The one move table.
pub static MOVE_CUBES: [Cube; 18] = build_move_cubes();

/// The same table by the index of the inverse move: `INVERSE_MOVE_CUBES[m]` is
/// `MOVE_CUBES[m.inverse()]`, what a search that tracks inverse cubes applies (no arithmetic on
/// the move index in its inner loop).
static INVERSE_MOVE_CUBES: [Cube; 18] = {
    let mut t = [Cube::SOLVED; 18];
    let mut m = 0;
    while m < 18 {
        t[m] = MOVE_CUBES[Move(m as u8).inverse().0 as usize];
        m += 1;
    }
    t
};

/// Bit set of moves allowed after a move on face `prev_face` (index 6 = no previous move).
///
/// Canonical rule (Korf 1997): never the same face twice in a row, and of two opposite faces
/// in a row only the order with the smaller face index first (U before D, R before L, F before
/// B). Every position reachable in n moves is reachable by a canonical sequence of n moves.
pub const ALLOWED_AFTER: [u32; 7] = build_allowed();

const fn build_allowed() -> [u32; 7] {
    let mut t = [0u32; 7];
    let mut prev = 0;
    while prev < 7 {
        let mut m = 0;
        while m < 18 {
            let f = m / 3;
            let ok = prev == 6 || !(f == prev || (f + 3 == prev));
            if ok {
                t[prev] |= 1 << m;
            }
            m += 1;
        }
        prev += 1;
    }
    t
}

/// May `next` follow `prev` in a canonical sequence?
#[inline(always)]
pub fn allowed_after(prev: Option<Move>, next: Move) -> bool {
    let p = prev.map_or(6, |m| m.face_index());
    ALLOWED_AFTER[p] & (1 << next.index()) != 0
}

impl Cube {
    /// The position after applying `m` to `self`.
    #[inline(always)]
    pub fn apply(&self, m: Move) -> Cube {
        self.compose(m.cube())
    }
    /// The position after applying every move of `seq` in order.
    pub fn apply_seq(&self, seq: &[Move]) -> Cube {
        seq.iter().fold(*self, |c, &m| c.apply(m))
    }
    /// The position a scramble creates from solved.
    pub fn from_moves(seq: &[Move]) -> Cube {
        Cube::SOLVED.apply_seq(seq)
    }
}

/// The inverse of a move sequence (reversed, each move inverted).
pub fn invert_sequence(seq: &[Move]) -> Vec<Move> {
    seq.iter().rev().map(|m| m.inverse()).collect()
}

// ---- merging moves ---------------------------------------------------------------------

/// Where `m` would merge into the simplified sequence `seq`: the last move if it turns the same
/// face, or the one before it if the last move turns the opposite face (opposite faces commute).
#[inline]
pub fn merge_target(seq: &[Move], m: Move) -> Option<usize> {
    let n = seq.len();
    let f = m.face();
    if n >= 1 && seq[n - 1].face() == f {
        Some(n - 1)
    } else if n >= 2 && seq[n - 1].face() == f.opposite() && seq[n - 2].face() == f {
        Some(n - 2)
    } else {
        None
    }
}

/// Appends `m` to `seq`, merging it with a move on the same face (`R R → R2`, `R R' → nothing`,
/// `R L R → R2 L`). If `seq` has no mergeable pair, neither has the result, so pushing moves one
/// by one simplifies a whole sequence (cancellations cascade: `R U U' R'` → nothing).
pub fn push_merged(seq: &mut Vec<Move>, m: Move) {
    match merge_target(seq, m) {
        None => seq.push(m),
        Some(i) => match (seq[i].quarter_turns() + m.quarter_turns()) % 4 {
            0 => {
                seq.remove(i);
            }
            q => seq[i] = Move::new(m.face(), q),
        },
    }
}

/// `seq` with adjacent moves on one face merged (see [`push_merged`]); same effect on the cube.
pub fn merge_moves(seq: &[Move]) -> Vec<Move> {
    let mut out = Vec::with_capacity(seq.len());
    for &m in seq {
        push_merged(&mut out, m);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cube::{Rng, format_moves, parse_moves};

    #[test]
    fn move_then_inverse_is_identity() {
        for m in Move::all() {
            assert!(Cube::SOLVED.apply(m).apply(m.inverse()).is_solved(), "{m}");
            assert_eq!(m.inverse().inverse(), m);
        }
    }

    #[test]
    fn move_orders() {
        for m in Move::all() {
            let order = if m.quarter_turns() == 2 { 2 } else { 4 };
            let mut c = Cube::SOLVED;
            for k in 1..=order {
                c = c.apply(m);
                assert_eq!(c.is_solved(), k == order, "{m} after {k}");
            }
        }
    }

    #[test]
    fn every_move_is_valid() {
        for m in Move::all() {
            assert_eq!(m.cube().validate(), Ok(()), "{m}");
        }
    }

    #[test]
    fn opposite_faces_commute() {
        for a in Move::all() {
            for b in Move::all() {
                if a.face().opposite() == b.face() {
                    let x = Cube::SOLVED.apply(a).apply(b);
                    let y = Cube::SOLVED.apply(b).apply(a);
                    assert_eq!(x, y);
                }
            }
        }
    }

    /// Counts canonical sequences by length and checks them against Korf 1997, Table 1.
    #[test]
    fn canonical_sequence_counts() {
        fn count(prev: Option<Move>, depth: usize, out: &mut [u64]) {
            out[depth] += 1;
            if depth + 1 == out.len() {
                return;
            }
            for m in Move::all() {
                if allowed_after(prev, m) {
                    count(Some(m), depth + 1, out);
                }
            }
        }
        let mut out = [0u64; 7];
        count(None, 0, &mut out);
        assert_eq!(out, [1, 18, 243, 3240, 43254, 577368, 7706988]);
    }

    #[test]
    fn superflip_flips_every_edge_in_place() {
        let seq: Vec<Move> = crate::cube::parse_moves(crate::cube::SUPERFLIP).unwrap();
        let c = Cube::from_moves(&seq);
        assert_eq!(c.cp(), Cube::SOLVED.cp());
        assert_eq!(c.co(), [0; 8]);
        assert_eq!(c.ep(), Cube::SOLVED.ep());
        assert_eq!(c.eo(), [1; 12]);
    }

    #[test]
    fn merging_cases() {
        let merged = |s: &str| format_moves(&merge_moves(&parse_moves(s).unwrap()));
        assert_eq!(merged("R R"), "R2");
        assert_eq!(merged("R R'"), "");
        assert_eq!(merged("R2 R"), "R'");
        assert_eq!(merged("R U U' R'"), "");
        assert_eq!(merged("R L R"), "R2 L");
        assert_eq!(merged("R L R'"), "L");
        assert_eq!(merged("U R L R' L' U"), "U2");
        assert_eq!(merged("R U R'"), "R U R'");
        assert_eq!(merged("R U D R"), "R U D R");
    }

    /// Merging never changes the position and leaves no pair it could merge.
    #[test]
    fn merging_random_sequences() {
        let mut rng = Rng::new(9);
        for _ in 0..2000 {
            // Three faces, two of them opposite, so that merges and cascades are frequent.
            let faces = [Face::R, Face::L, Face::U];
            let seq: Vec<Move> = (0..rng.below(14))
                .map(|_| Move::new(faces[rng.below(3) as usize], rng.below(3) as u8 + 1))
                .collect();
            let out = merge_moves(&seq);
            assert_eq!(Cube::from_moves(&out), Cube::from_moves(&seq));
            for i in 0..out.len() {
                assert!(
                    merge_target(&out[..i], out[i]).is_none(),
                    "{}",
                    format_moves(&out)
                );
            }
        }
    }
}
