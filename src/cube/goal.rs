//! Goals other than solved: what a position must look like at the end of a search.
//!
//! A [`Goal`] says, for each of the 20 pieces, one of:
//! - **home**: in its own slot, oriented (a class of its own);
//! - **in a class**: pieces of one class are interchangeable; together they fill their own
//!   home slots, in any order, and, when the class is *oriented*, each with orientation 0 in
//!   Kociemba's sense (a corner's U/D sticker on the U or D face; an edge oriented as F and B
//!   quarter turns flip it). The E-slice edges anywhere in the E slice are such a class;
//!   every edge oriented (`eo`) is one class of all twelve;
//! - **free**: anywhere, any orientation (class 0).
//!
//! One goal asks one thing more: `htr` (Thistlethwaite's `G3`, the positions the half turns
//! reach) also needs the corner permutation to lie in the 96-element group the half turns
//! generate ([`super::squares`]), which no labelling says ([`Goal::squares`]).
//!
//! Invariant: a class's slots are exactly its members' home slots, so the goal is one state
//! of the pieces' *labels* ([`Goal::holds`] compares the class of each slot's piece with the
//! class of the slot's home piece), and for `htr` one coset of the corners' group. Every goal the crate names, and every facelet mask it
//! accepts, is of this form; a mask that is not (a sticker that could belong to several
//! pieces whose homes the mask leaves free) is refused by [`Goal::from_mask`] with the facelet
//! that makes it ambiguous.
//!
//! The named goals ([`NAMED`]) are data, one line each, and documented in `docs/goals.md`.

use super::Cube;

mod mask;

/// A goal: classes of pieces (module docs).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Goal {
    name: String,
    /// Class of each corner piece, by piece (0: free).
    corner_class: [u8; 8],
    /// Class of each edge piece, by piece (0: free; edge classes are numbered apart from the
    /// corner classes).
    edge_class: [u8; 12],
    /// Whether each corner's orientation counts (the same for all members of a class).
    corner_oriented: [bool; 8],
    edge_oriented: [bool; 12],
    /// A goal the position must meet before it is asked for this one (`ll` needs `f2l`).
    requires: Option<&'static str>,
    /// The axis "oriented" refers to: the classes are those of the goal held so that this
    /// axis's faces take the F/B faces' part (`eo-ud`: the U and D quarter turns flip edges).
    axis: Axis,
    /// The corner permutation must lie in the squares group (`htr`; [`super::squares`]).
    squares: bool,
}

/// The axis a goal's orientations refer to ([`Goal::axis`]): Kociemba's F/B (F and B quarter
/// turns flip edges), or U/D, or R/L. A goal about U/D or R/L is the F/B goal held in a
/// whole-cube orientation that takes that axis onto F/B (`coord::goal::GoalCheck::frames`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Axis {
    #[default]
    FB,
    UD,
    RL,
}

/// One named goal, declared as data: the pieces that must be home, the oriented classes, and
/// the goal the input must already meet.
pub struct NamedGoal {
    pub name: &'static str,
    pub about: &'static str,
    home_corners: &'static [u8],
    home_edges: &'static [u8],
    /// Oriented classes of corners, then of edges (piece indices).
    corner_classes: &'static [&'static [u8]],
    edge_classes: &'static [&'static [u8]],
    requires: Option<&'static str>,
    axis: Axis,
    squares: bool,
}

const ID_EDGES: [u8; 12] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11];
const ALL_CORNERS: &[u8] = &[0, 1, 2, 3, 4, 5, 6, 7];
const ALL_EDGES: &[u8] = &[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11];
const D_CORNERS: &[u8] = &[4, 5, 6, 7];
const F2L_EDGES: &[u8] = &[4, 5, 6, 7, 8, 9, 10, 11];

const fn named(
    name: &'static str,
    about: &'static str,
    home_corners: &'static [u8],
    home_edges: &'static [u8],
) -> NamedGoal {
    NamedGoal {
        name,
        about,
        home_corners,
        home_edges,
        corner_classes: &[],
        edge_classes: &[],
        requires: None,
        axis: Axis::FB,
        squares: false,
    }
}

/// Every named goal. Pieces by index: corners URF UFL ULB UBR DFR DLF DBL DRB (0–7), edges UR
/// UF UL UB DR DF DL DB FR FL BL BR (0–11).
pub const NAMED: &[NamedGoal] = &[
    named("cross", "the four D edges home", &[], &[4, 5, 6, 7]),
    named(
        "xcross",
        "the cross and the front-right pair (corner DFR, edge FR) home",
        &[4],
        &[4, 5, 6, 7, 8],
    ),
    named(
        "2x2x2",
        "the block at DLB home: corner DBL, edges DL, DB, BL",
        &[6],
        &[6, 7, 10],
    ),
    named(
        "2x2x3",
        "the 2x2x2 block extended to the front: corners DBL, DLF; edges DL, DB, BL, DF, FL",
        &[5, 6],
        &[5, 6, 7, 9, 10],
    ),
    named(
        "f2l-1",
        "the first two layers but the front-right pair: the cross and the pairs at DLF/FL, DBL/BL, DRB/BR",
        &[5, 6, 7],
        &[4, 5, 6, 7, 9, 10, 11],
    ),
    named(
        "f2l",
        "the first two layers: D corners and edges, E-slice edges home",
        D_CORNERS,
        F2L_EDGES,
    ),
    named("corners", "every corner home, edges free", ALL_CORNERS, &[]),
    named("edges", "every edge home, corners free", &[], ALL_EDGES),
    NamedGoal {
        corner_classes: &[],
        edge_classes: &[ALL_EDGES],
        ..named(
            "eo",
            "every edge oriented in Kociemba's sense (F and B quarter turns flip), anywhere",
            &[],
            &[],
        )
    },
    NamedGoal {
        edge_classes: &[ALL_EDGES],
        axis: Axis::UD,
        ..named(
            "eo-ud",
            "every edge oriented about the U/D axis (U and D quarter turns flip), anywhere",
            &[],
            &[],
        )
    },
    NamedGoal {
        edge_classes: &[ALL_EDGES],
        axis: Axis::RL,
        ..named(
            "eo-rl",
            "every edge oriented about the R/L axis (R and L quarter turns flip), anywhere",
            &[],
            &[],
        )
    },
    NamedGoal {
        corner_classes: &[ALL_CORNERS],
        edge_classes: &[&[8, 9, 10, 11], &[0, 1, 2, 3, 4, 5, 6, 7]],
        ..named(
            "dr",
            "domino reduction, Kociemba's phase-1 goal: corners and edges oriented, the E-slice edges in the E slice",
            &[],
            &[],
        )
    },
    NamedGoal {
        corner_classes: &[&[0, 2, 5, 7], &[1, 3, 4, 6]],
        edge_classes: &[&[1, 3, 5, 7], &[0, 2, 4, 6], &[8, 9, 10, 11]],
        squares: true,
        ..named(
            "htr",
            "half-turn reduction, Thistlethwaite's G3: the position is reachable by half turns alone (corners and edges oriented, each edge in its slice, each corner in its tetrad, the corner permutation one of the 96 the half turns make)",
            &[],
            &[],
        )
    },
    NamedGoal {
        corner_classes: &[&[0, 1, 2, 3]],
        edge_classes: &[&[0, 1, 2, 3]],
        requires: Some("f2l"),
        ..named(
            "oll",
            "the first two layers kept, the last layer oriented (U stickers up)",
            D_CORNERS,
            F2L_EDGES,
        )
    },
    NamedGoal {
        requires: Some("f2l"),
        ..named(
            "ll",
            "from a position with the first two layers solved: the whole cube solved",
            ALL_CORNERS,
            ALL_EDGES,
        )
    },
    NamedGoal {
        requires: Some("oll"),
        ..named(
            "pll",
            "from a position with the first two layers solved and the last oriented: solved",
            ALL_CORNERS,
            ALL_EDGES,
        )
    },
];

/// Why a goal could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GoalError {
    #[error("unknown goal {0:?}; the goals are: {names}", names = Goal::names().join(", "))]
    Unknown(String),
    #[error(
        "the mask has {0} characters; it needs exactly 54 (a facelet string with x for a free sticker)"
    )]
    MaskLength(usize),
    #[error(
        "mask facelet {name} (character {pos}) is {ch:?}; write a face letter U R F D L B, a digit 1-9 (a class of pieces, on their reference stickers), or x for a free sticker"
    )]
    MaskLetter { pos: usize, name: String, ch: char },
    #[error(
        "mask facelet {name} (character {pos}) is the digit {ch}, {place}: a digit names a class of pieces and goes on a piece's reference sticker (a corner's U/D sticker; an edge's U/D sticker, or F/B in the E slice), its other stickers x"
    )]
    MaskDigit {
        pos: usize,
        name: String,
        ch: char,
        place: String,
    },
    #[error(
        "mask facelet {name} (character {pos}) is {ch}, but the solved cube shows {want} there: a mask marks the stickers that must show their solved colour, x the free ones"
    )]
    MaskColour {
        pos: usize,
        name: String,
        ch: char,
        want: char,
    },
    #[error(
        "mask facelet {name} (character {pos}) marks one sticker of the {kind} at {slot} that is not its U/D (or, in the E slice, F/B) sticker: any of several pieces could show it there; mark the whole piece, or only its reference sticker"
    )]
    MaskPartial {
        pos: usize,
        name: String,
        kind: &'static str,
        slot: &'static str,
    },
    #[error(
        "mask facelet {name} (character {pos}) asks for any {colour}-coloured {kind} oriented at {slot}, but the mask leaves {other}'s home free, so which pieces go where is ambiguous: mark the {colour} sticker of every {kind} of that colour, or whole pieces"
    )]
    MaskAmbiguous {
        pos: usize,
        name: String,
        colour: char,
        kind: &'static str,
        slot: &'static str,
        other: &'static str,
    },
    #[error("the mask leaves every sticker free: every position meets it")]
    MaskEmpty,
}

impl Goal {
    /// The solved cube: every piece home.
    pub fn solved() -> Goal {
        Goal::from_named(&named("solved", "", ALL_CORNERS, ALL_EDGES))
    }

    fn from_named(n: &NamedGoal) -> Goal {
        let mut g = Goal {
            name: n.name.to_string(),
            corner_class: [0; 8],
            edge_class: [0; 12],
            corner_oriented: [false; 8],
            edge_oriented: [false; 12],
            requires: n.requires,
            axis: n.axis,
            squares: n.squares,
        };
        classes(
            n.home_corners,
            n.corner_classes,
            &mut g.corner_class,
            &mut g.corner_oriented,
        );
        classes(
            n.home_edges,
            n.edge_classes,
            &mut g.edge_class,
            &mut g.edge_oriented,
        );
        g
    }

    /// The goal of that name ([`NAMED`]), the one place a name is resolved (the CLI's
    /// `--goal`, `show --goal`, `stats --goal`, Python's `goal=`): in any case and with spaces
    /// around it, as `--metric QTM` is read, so that `--goal CROSS` is not refused where
    /// `--metric QTM` is taken. The goal keeps its declared name.
    pub fn named(name: &str) -> Result<Goal, GoalError> {
        let wanted = name.trim();
        NAMED
            .iter()
            .find(|n| n.name.eq_ignore_ascii_case(wanted))
            .map(Goal::from_named)
            .ok_or_else(|| GoalError::Unknown(name.to_string()))
    }

    /// The names of [`NAMED`], in order.
    pub fn names() -> Vec<&'static str> {
        NAMED.iter().map(|n| n.name).collect()
    }

    /// Its name (`mask` for a mask).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The named goals with the same pieces as this one (key and axis), preconditions aside:
    /// what `solve --mask` says it built, so that a mask's goal is never mistaken.
    pub fn alike(&self) -> Vec<&'static str> {
        (NAMED.iter())
            .filter(|n| {
                let g = Goal::from_named(n);
                g.axis == self.axis && g.key() == self.key()
            })
            .map(|n| n.name)
            .collect()
    }

    /// The goal the input must already meet, if any (`ll` and `oll`: `f2l`; `pll`: `oll`).
    pub fn requires(&self) -> Option<Goal> {
        self.requires
            .map(|n| Goal::named(n).expect("a named goal requires a named goal"))
    }

    /// The axis its orientations refer to. [`Goal::holds`] reads them about F/B: a goal about
    /// another axis is checked on the position held in the orientation of
    /// `coord::goal::GoalCheck::frames`.
    pub fn axis(&self) -> Axis {
        self.axis
    }

    /// Must the corner permutation lie in the squares group (`htr`)? Then the corner classes
    /// are the two tetrads, and the condition is finer than they say.
    pub fn squares(&self) -> bool {
        self.squares
    }

    /// Does `cube` meet the goal, its orientations read about the F/B axis?
    #[inline]
    pub fn holds(&self, cube: &Cube) -> bool {
        (0..8).all(|i| {
            let p = cube.corner_perm(i) as usize;
            self.corner_class[p] == self.corner_class[i]
                && !(self.corner_oriented[p] && cube.corner_ori(i) != 0)
        }) && (0..12).all(|i| {
            let p = cube.edge_perm(i) as usize;
            self.edge_class[p] == self.edge_class[i]
                && !(self.edge_oriented[p] && cube.edge_ori(i) != 0)
        }) && (!self.squares || super::squares::in_corner_group(&cube.cp()))
    }

    /// Is every piece home (the goal is the solved cube)?
    pub fn is_solved_goal(&self) -> bool {
        *self
            == Goal {
                name: self.name.clone(),
                requires: self.requires,
                axis: self.axis,
                squares: self.squares,
                ..Goal::solved()
            }
    }

    /// Class of each corner piece (0 free), by piece.
    pub fn corner_classes(&self) -> &[u8; 8] {
        &self.corner_class
    }

    /// Class of each edge piece (0 free), by piece.
    pub fn edge_classes(&self) -> &[u8; 12] {
        &self.edge_class
    }

    /// Whether each corner's orientation counts, by piece.
    pub fn corners_oriented(&self) -> &[bool; 8] {
        &self.corner_oriented
    }

    /// Whether each edge's orientation counts, by piece.
    pub fn edges_oriented(&self) -> &[bool; 12] {
        &self.edge_oriented
    }

    /// Generators of the goal's positions taken as a group of arrangements of pieces (any
    /// permutation and orientations, not only the cube's): a swap of each two consecutive
    /// members of a class (free pieces are one class), and a twist or flip of each piece whose
    /// orientation does not count. The positions that meet the goal are exactly the products
    /// of these (within a class any order is a product of swaps, and only the orientations that
    /// count are held at 0), so two sets of positions described this way are equal when each
    /// generator of one lies in the other and they are as large. With [`Goal::squares`] the
    /// corners' generators are the half turns' corner permutations instead of the swaps.
    pub fn generators(&self) -> Vec<Cube> {
        fn swaps<const N: usize>(class: &[u8; N]) -> Vec<[u8; N]> {
            let mut out = Vec::new();
            for p in 0..N {
                // The next member of p's class after p, if any.
                if let Some(q) = (p + 1..N).find(|&q| class[q] == class[p]) {
                    let mut perm: [u8; N] = std::array::from_fn(|i| i as u8);
                    perm.swap(p, q);
                    out.push(perm);
                }
            }
            out
        }
        let (cp, co, ep, eo) = ([0u8, 1, 2, 3, 4, 5, 6, 7], [0u8; 8], ID_EDGES, [0u8; 12]);
        let mut out = Vec::new();
        let corner_perms = if self.squares {
            super::squares::half_turn_corners()
        } else {
            swaps(&self.corner_class)
        };
        for perm in corner_perms {
            out.push(Cube::from_parts(perm, co, ep, eo));
        }
        for perm in swaps(&self.edge_class) {
            out.push(Cube::from_parts(cp, co, perm, eo));
        }
        for p in (0..8).filter(|&p| !self.corner_oriented[p]) {
            let mut twist = co;
            twist[p] = 1;
            out.push(Cube::from_parts(cp, twist, ep, eo));
        }
        for p in (0..12).filter(|&p| !self.edge_oriented[p]) {
            let mut flip = eo;
            flip[p] = 1;
            out.push(Cube::from_parts(cp, co, ep, flip));
        }
        out
    }

    /// The goal with only the classes `keep_corner(class)` / `keep_edge(class)` kept, the others
    /// freed: a relaxation (every position meeting `self` meets it), named `name`. The squares
    /// condition stays only while every corner class does (it is about all eight).
    pub fn relaxed(
        &self,
        name: String,
        keep_corner: impl Fn(u8) -> bool,
        keep_edge: impl Fn(u8) -> bool,
    ) -> Goal {
        let mut g = self.clone();
        g.name = name;
        g.squares &= (0..8).all(|p| keep_corner(g.corner_class[p]));
        for p in 0..8 {
            if !keep_corner(g.corner_class[p]) {
                g.corner_class[p] = 0;
                g.corner_oriented[p] = false;
            }
        }
        for p in 0..12 {
            if !keep_edge(g.edge_class[p]) {
                g.edge_class[p] = 0;
                g.edge_oriented[p] = false;
            }
        }
        g
    }

    /// A name for the goal's pieces, the same for equal goals whatever they are called: `c`
    /// then a letter a corner, `e` then a letter an edge, `x` free, `h` home, else the class
    /// (`a`, `b`, ... by first appearance; upper case when oriented), and `-g3` after it when
    /// the corners must lie in the squares group. Table files of a goal are named by it.
    pub fn key(&self) -> String {
        let mut out = String::from("c");
        let letter = |classes: &[u8], oriented: &[bool], out: &mut String| {
            let mut seen: Vec<u8> = Vec::new();
            for (p, &c) in classes.iter().enumerate() {
                let size = classes.iter().filter(|&&d| d == c).count();
                let ch = if c == 0 {
                    'x'
                } else if size == 1 && oriented[p] {
                    'h'
                } else {
                    let k = seen.iter().position(|&d| d == c).unwrap_or_else(|| {
                        seen.push(c);
                        seen.len() - 1
                    });
                    let l = (b'a' + k as u8) as char;
                    if oriented[p] {
                        l.to_ascii_uppercase()
                    } else {
                        l
                    }
                };
                out.push(ch);
            }
        };
        letter(&self.corner_class, &self.corner_oriented, &mut out);
        out.push('e');
        letter(&self.edge_class, &self.edge_oriented, &mut out);
        if self.squares {
            out.push_str("-g3");
        }
        out
    }
}

/// One kind's classes of a named goal: each home piece a class of its own, then each listed
/// class, all oriented.
fn classes(home: &[u8], listed: &[&[u8]], class: &mut [u8], oriented: &mut [bool]) {
    let singles = home.iter().map(std::slice::from_ref);
    for (k, members) in singles.chain(listed.iter().copied()).enumerate() {
        for &p in members {
            class[p as usize] = k as u8 + 1;
            oriented[p as usize] = true;
        }
    }
}

/// The named goal as `optcube goals --json` and Python's `goals()` list it.
pub fn listing(n: &NamedGoal) -> serde_json::Value {
    let g = Goal::named(n.name).expect("a named goal");
    serde_json::json!({"name": n.name, "key": g.key(), "mask": g.mask(), "about": n.about,
        "requires": g.requires().map(|r| r.name().to_string())})
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cube::parse_moves;

    fn after(s: &str) -> Cube {
        Cube::from_moves(&parse_moves(s).unwrap())
    }

    #[test]
    fn named_goals_hold_where_they_should() {
        for n in NAMED {
            let g = Goal::named(n.name).unwrap();
            assert!(g.holds(&Cube::SOLVED), "{}", n.name);
            assert!(!g.holds(&after("R U F' L2 D B")), "{}", n.name);
        }
        let cross = Goal::named("cross").unwrap();
        assert!(cross.holds(&after("U R U' R'")));
        assert!(!cross.holds(&after("F")));
        let eo = Goal::named("eo").unwrap();
        assert!(eo.holds(&after("R U L2 D' F2 B2 R'")));
        assert!(!eo.holds(&after("F")));
        let dr = Goal::named("dr").unwrap();
        assert!(dr.holds(&after("U R2 D' L2 F2 B2")));
        assert!(!dr.holds(&after("R")));
        let htr = Goal::named("htr").unwrap();
        assert!(htr.holds(&after("U2 R2 F2 D2 L2 B2 R2 U2")));
        assert!(!htr.holds(&after("U")));
        // Every label of htr right (tetrads, slices, orientations) but the corners in another
        // coset: URF and ULB swapped (an odd corner permutation; no half turn makes one), with
        // FR and FL swapped to keep the cube's parity.
        let mut ep = ID_EDGES;
        ep.swap(8, 9);
        let other = Cube::from_parts([2, 1, 0, 3, 4, 5, 6, 7], [0; 8], ep, [0; 12]);
        assert!(other.validate().is_ok());
        assert!(dr.holds(&other) && !htr.holds(&other));
        assert!(htr.relaxed("all".into(), |_| true, |_| true).squares());
        // Freeing one tetrad frees the corner group's condition too.
        let one_tetrad = htr.relaxed("one tetrad".into(), |c| c == 1, |_| true);
        assert!(!one_tetrad.squares() && one_tetrad.holds(&other));
        let oll = Goal::named("oll").unwrap();
        // Sune orients the last layer's corners but for one... the T permutation keeps all
        // oriented.
        assert!(oll.holds(&after("R U R' U' R' F R2 U' R' U' R U R' F'")));
        assert!(!oll.holds(&after("R U R' U R U2 R'")));
    }

    #[test]
    fn keys_and_masks_name_the_pieces() {
        assert_eq!(
            Goal::named("cross").unwrap().key(),
            "cxxxxxxxxexxxxhhhhxxxx"
        );
        assert_eq!(Goal::named("eo").unwrap().key(), "cxxxxxxxxeAAAAAAAAAAAA");
        assert_eq!(Goal::named("oll").unwrap().key(), "cAAAAhhhheAAAAhhhhhhhh");
        for n in NAMED
            .iter()
            .filter(|n| !["eo-ud", "eo-rl", "htr"].contains(&n.name))
        {
            let g = Goal::named(n.name).unwrap();
            let back = Goal::from_mask(&g.mask().unwrap()).unwrap();
            assert_eq!(back.key(), g.key(), "{}", n.name);
        }
        // Orientation goals are said by digits: no colour is right for a slot any edge may fill.
        let faces = |f: [&str; 6]| f.concat();
        assert_eq!(
            Goal::named("eo").unwrap().mask().unwrap(),
            faces([
                "x1x1U1x1x",
                "xxxxRxxxx",
                "xxx1F1xxx",
                "x1x1D1x1x",
                "xxxxLxxxx",
                "xxx1B1xxx"
            ])
        );
        assert_eq!(
            Goal::named("dr").unwrap().mask().unwrap(),
            faces([
                "1111U1111",
                "xxxxRxxxx",
                "xxx2F2xxx",
                "1111D1111",
                "xxxxLxxxx",
                "xxx2B2xxx"
            ])
        );
        // oll's classes are every U corner and every U edge: its colour says them.
        assert_eq!(
            Goal::named("oll").unwrap().mask().unwrap(),
            faces([
                "UUUUUUUUU",
                "xxxRRRRRR",
                "xxxFFFFFF",
                "DDDDDDDDD",
                "xxxLLLLLL",
                "xxxBBBBBB"
            ])
        );
        assert!(Goal::solved().is_solved_goal());
        assert!(Goal::named("pll").unwrap().is_solved_goal());
        assert!(!Goal::named("f2l").unwrap().is_solved_goal());
    }

    #[test]
    fn bad_masks_name_their_facelet() {
        let cross = Goal::named("cross").unwrap().mask().unwrap();
        assert_eq!(Goal::from_mask("xx").unwrap_err(), GoalError::MaskLength(2));
        let mut m = cross.clone().into_bytes();
        m[0] = b'Q';
        assert!(matches!(
            Goal::from_mask(std::str::from_utf8(&m).unwrap()),
            Err(GoalError::MaskLetter { pos: 1, .. })
        ));
        m[0] = b'R';
        assert!(matches!(
            Goal::from_mask(std::str::from_utf8(&m).unwrap()),
            Err(GoalError::MaskColour {
                pos: 1,
                want: 'U',
                ..
            })
        ));
        // One U corner's U sticker alone: which U corner is meant?
        let mut m = *b"xxxxUxxxUxxxxRxxxxxxxxFxxxxxxxxDxxxxxxxxLxxxxxxxxBxxxx";
        assert!(matches!(
            Goal::from_mask(std::str::from_utf8(&m).unwrap()),
            Err(GoalError::MaskAmbiguous { pos: 9, .. })
        ));
        // The F sticker of UF alone.
        m[8] = b'x';
        m[19] = b'F';
        assert!(matches!(
            Goal::from_mask(std::str::from_utf8(&m).unwrap()),
            Err(GoalError::MaskPartial { pos: 20, .. })
        ));
        assert_eq!(
            Goal::from_mask("xxxxUxxxxxxxxRxxxxxxxxFxxxxxxxxDxxxxxxxxLxxxxxxxxBxxxx").unwrap_err(),
            GoalError::MaskEmpty
        );
        // A digit on a centre, on an edge's non-reference sticker, or beside a letter.
        let mut m = *b"xxxxUxxxxxxxxRxxxxxxxxFxxxxxxxxDxxxxxxxxLxxxxxxxxBxxxx";
        m[4] = b'1';
        let digit = |m: &[u8]| match Goal::from_mask(std::str::from_utf8(m).unwrap()) {
            Err(GoalError::MaskDigit { pos, .. }) => pos,
            other => panic!("{other:?}"),
        };
        assert_eq!(digit(&m), 5);
        m[4] = b'U';
        m[19] = b'1';
        assert_eq!(digit(&m), 20);
        m[7] = b'1';
        m[19] = b'F';
        assert_eq!(digit(&m), 8);
    }
}
