//! Rotations of solutions: the search of a position that commutes with every move (the
//! superflip) keeps one rotation of each cyclic solution.
//!
//! If `P` commutes with every face turn and `m₁ m₂ … mₙ` solves it, so does `m₂ … mₙ m₁`:
//! `P m₁ … mₙ = 1` gives `m₂ … mₙ = m₁⁻¹ P⁻¹`, and `m₂ … mₙ m₁ = m₁⁻¹ P⁻¹ m₁ = P⁻¹`. In the
//! cube group only the identity and the superflip are such positions (they form its centre).
//!
//! A *syllable* is a maximal run of moves on one axis: one move, or two on opposite faces
//! (`U D2`). Symmetries, the canonical reordering of opposite faces and rotation at a
//! syllable boundary map syllables onto syllables of the same *kind*, ranked here as
//!
//! | rank | kind |
//! |---:|---|
//! | 0 | one half turn |
//! | 1 | one quarter turn |
//! | 2 | two quarter turns |
//! | 3 | a quarter and a half turn |
//! | 4 | two half turns |
//!
//! (one-move kinds below two-move ones, so that a syllable's rank only grows as it is
//! extended; the rarest kind highest, so that the least restricted trees are the smallest).
//!
//! The search keeps only sequences whose first syllable has the highest rank of all their
//! syllables. Why it stays complete: take a shortest solution and read it as a cycle. Its
//! last and first syllables share no face (the two moves would merge into a shorter
//! solution), so the cycle's syllables are the sequence's, except that two single moves on
//! opposite faces at the two ends form one syllable. Cut the cycle before a syllable of the
//! highest rank and write each syllable in the canonical order: the result is a canonical
//! solution of the same length (a rotation, up to commuting opposite faces) whose first
//! syllable has the highest rank. The set of such sequences is closed under the 48
//! symmetries (they keep every syllable's kind), so the one-unit-per-orbit reduction of the
//! `ida` module still finds one of them. The shortest length is then found, and every
//! iteration below it was complete for all solutions.
//!
//! On the superflip this keeps about a sixth of the tree: the many sequences that begin with
//! a lone quarter turn may hold no two-move syllable at all.
//!
//! The restriction is a bit set of the moves that may follow a move, for each rank of the
//! first syllable ([`SyllableCap`]): a move on another axis starts a one-move syllable, a move
//! on the same axis completes a two-move one, and either is allowed when its rank is within
//! the cap. Sequences that break it are cut where the offending syllable is made.

use crate::cube::{Cube, Move};

/// The highest rank; a cap that allows every syllable.
pub(super) const NO_CAP: u8 = 4;

/// The rank of the syllable made of `a` alone, or of `a` and `b` (on the opposite face).
fn rank(a: Move, b: Option<Move>) -> u8 {
    let half = |m: Move| m.quarter_turns() == 2;
    match b {
        None => u8::from(!half(a)),
        Some(b) => match (half(a), half(b)) {
            (false, false) => 2,
            (true, true) => 4,
            _ => 3,
        },
    }
}

fn same_axis(a: Move, b: Move) -> bool {
    a.face_index() % 3 == b.face_index() % 3
}

/// The moves that may follow a move when the first syllable's rank is the cap:
/// `SyllableCap::MASKS[cap][move]`.
pub(super) struct SyllableCap;

impl SyllableCap {
    pub(super) const MASKS: [[u32; 18]; 5] = {
        let mut t = [[0u32; 18]; 5];
        let mut cap = 0;
        while cap < 5 {
            let mut prev = 0;
            while prev < 18 {
                let mut m = 0;
                while m < 18 {
                    let (pa, ma) = (prev / 3 % 3, m / 3 % 3);
                    let (ph, mh) = (prev % 3 == 1, m % 3 == 1);
                    // The rank of the syllable `m` starts or completes (as `rank`, in a const fn).
                    let r = if pa != ma {
                        if mh { 0 } else { 1 }
                    } else {
                        match (ph, mh) {
                            (false, false) => 2,
                            (true, true) => 4,
                            _ => 3,
                        }
                    };
                    if r <= cap {
                        t[cap][prev] |= 1 << m;
                    }
                    m += 1;
                }
                prev += 1;
            }
            cap += 1;
        }
        t
    };
}

/// Whether `p` commutes with every face turn (and is not solved): the superflip.
pub(super) fn is_central(p: &Cube) -> bool {
    !p.is_solved() && Move::all().all(|m| p.compose(m.cube()) == m.cube().compose(p))
}

/// The cap for a work unit's subtree with the moves `moves` from the root: `Some(rank of the
/// first syllable)` when the unit keeps to it, [`NO_CAP`] when its first syllable may still
/// grow (a unit of one move), `None` when a later syllable outranks the first (the unit is
/// dropped).
pub(super) fn unit_cap(moves: &[Move]) -> Option<u8> {
    let mut syllables = Vec::new();
    let mut i = 0;
    while i < moves.len() {
        let pair = moves.get(i + 1).filter(|&&b| same_axis(moves[i], b));
        syllables.push(rank(moves[i], pair.copied()));
        i += 1 + usize::from(pair.is_some());
    }
    let Some(&first) = syllables.first() else {
        return Some(NO_CAP);
    };
    if moves.len() == 1 {
        return Some(NO_CAP);
    }
    syllables[1..].iter().all(|&r| r <= first).then_some(first)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cube::parse_moves;

    #[test]
    fn the_superflip_is_the_only_central_position_among_these() {
        let superflip = Cube::from_moves(
            &parse_moves("U R2 F B R B2 R U2 L B2 R U' D' R2 F R' L B2 U2 F2").unwrap(),
        );
        assert!(is_central(&superflip));
        assert!(!is_central(&Cube::SOLVED));
        for s in ["U", "R2 L2", "U D'", "R2 L2 U2 D2 F2 B2"] {
            assert!(
                !is_central(&Cube::from_moves(&parse_moves(s).unwrap())),
                "{s}"
            );
        }
    }

    #[test]
    fn masks_agree_with_ranks() {
        for cap in 0..=NO_CAP {
            for prev in Move::all() {
                for m in Move::all() {
                    let r = if same_axis(prev, m) {
                        rank(prev, Some(m))
                    } else {
                        rank(m, None)
                    };
                    let allowed = SyllableCap::MASKS[cap as usize][prev.index()] >> m.index() & 1;
                    assert_eq!(allowed == 1, r <= cap, "cap {cap}, {prev} then {m}");
                }
            }
        }
        // Every move is allowed under the highest cap.
        assert!(
            SyllableCap::MASKS[NO_CAP as usize]
                .iter()
                .all(|&m| m == (1 << 18) - 1)
        );
    }

    #[test]
    fn units_keep_to_their_first_syllable() {
        let cap = |s: &str| unit_cap(&parse_moves(s).unwrap());
        assert_eq!(cap("U"), Some(NO_CAP));
        assert_eq!(cap("U R F L"), Some(1));
        assert_eq!(cap("U R2 F L"), Some(1));
        assert_eq!(cap("U2 R F L"), None);
        assert_eq!(cap("U D2 R L"), Some(3));
        assert_eq!(cap("U D R L2"), None);
        assert_eq!(cap("U2 D2 R L2"), Some(4));
        assert_eq!(cap("U R L F"), None);
    }

    /// The completeness argument of the module docs, checked on random canonical sequences:
    /// the rotation cut before a syllable of the highest rank (syllables in canonical order)
    /// is a conjugate of the sequence by one of its prefixes, and the search keeps it: its
    /// first four moves make a unit that is not dropped, and every later move passes the
    /// unit's mask.
    #[test]
    fn a_rotation_of_every_sequence_is_searched() {
        use crate::cube::{Rng, allowed_after, random_scramble};
        let mut rng = Rng::new(41);
        let mut tested = 0;
        for n in (2..=20).cycle().take(4000) {
            let seq = random_scramble(&mut rng, n);
            // Syllables of the cycle: the sequence's, the two ends joined when on one axis.
            let mut syl: Vec<Vec<Move>> = Vec::new();
            for &m in &seq {
                match syl.last_mut() {
                    Some(s) if same_axis(s[0], m) => s.push(m),
                    _ => syl.push(vec![m]),
                }
            }
            if syl.len() > 1 && same_axis(syl[0][0], seq[n - 1]) {
                let last = syl.pop().unwrap();
                syl[0].extend(last);
            }
            // A shortest solution never has a face twice in a syllable.
            if syl
                .iter()
                .any(|s| s.len() > 2 || (s.len() == 2 && s[0].face() == s[1].face()))
            {
                continue;
            }
            if syl.len() < 2 {
                continue;
            }
            for s in syl.iter_mut() {
                s.sort_by_key(|m| m.face_index());
            }
            let ranks: Vec<u8> = syl.iter().map(|s| rank(s[0], s.get(1).copied())).collect();
            let top = *ranks.iter().max().unwrap();
            let cut = ranks.iter().position(|&r| r == top).unwrap();
            let rot: Vec<Move> = syl[cut..]
                .iter()
                .chain(&syl[..cut])
                .flatten()
                .copied()
                .collect();
            assert_eq!(rot.len(), n);
            // A conjugate of the sequence by one of its prefixes: a rotation.
            let p = Cube::from_moves(&seq);
            let r = Cube::from_moves(&rot);
            assert!(
                (0..n).any(|j| {
                    let k = Cube::from_moves(&seq[..j]);
                    k.inverse().compose(&p).compose(&k) == r
                }),
                "{seq:?}"
            );
            // Canonical, and kept by the search (units at depth 4, or the bound less one).
            assert!(
                rot.windows(2).all(|w| allowed_after(Some(w[0]), w[1])),
                "{rot:?}"
            );
            let d = 4.min(n - 1);
            let cap = unit_cap(&rot[..d]).unwrap_or_else(|| panic!("unit dropped: {rot:?}"));
            for w in rot[d - 1..].windows(2) {
                let mask = SyllableCap::MASKS[cap as usize][w[0].index()];
                assert!(
                    mask >> w[1].index() & 1 == 1,
                    "{rot:?} cut at {} {}",
                    w[0],
                    w[1]
                );
            }
            tested += 1;
        }
        assert!(tested > 2000, "{tested}");
    }
}
