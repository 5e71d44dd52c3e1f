//! Kociemba's 54-character facelet strings: to and from the cubie model, with validation.
//!
//! Faces in the order U, R, F, D, L, B; each face's 9 stickers row by row as seen looking at the
//! face (U with the B edge on top; R, F, L, B with the U edge on top; D with the F edge on top).
//! Each character names the face whose centre has that colour. Every way a string can fail to be
//! a reachable position has its own [`FaceletError`] variant.

use super::cubie::{CORNER_NAMES, Cube, CubeError, EDGE_NAMES};

/// The solved facelet string.
pub const SOLVED_FACELETS: &str = "UUUUUUUUURRRRRRRRRFFFFFFFFFDDDDDDDDDLLLLLLLLLBBBBBBBBB";

const FACES: [u8; 6] = *b"URFDLB";

/// Facelet indices of each corner position, clockwise starting with the U/D sticker.
pub(crate) const CORNER_FACELETS: [[usize; 3]; 8] = [
    [8, 9, 20],   // URF: U9 R1 F3
    [6, 18, 38],  // UFL: U7 F1 L3
    [0, 36, 47],  // ULB: U1 L1 B3
    [2, 45, 11],  // UBR: U3 B1 R3
    [29, 26, 15], // DFR: D3 F9 R7
    [27, 44, 24], // DLF: D1 L9 F7
    [33, 53, 42], // DBL: D7 B9 L7
    [35, 17, 51], // DRB: D9 R9 B7
];
/// Facelet indices of each edge position, the reference sticker first.
pub(crate) const EDGE_FACELETS: [[usize; 2]; 12] = [
    [5, 10],  // UR
    [7, 19],  // UF
    [3, 37],  // UL
    [1, 46],  // UB
    [32, 16], // DR
    [28, 25], // DF
    [30, 43], // DL
    [34, 52], // DB
    [23, 12], // FR
    [21, 41], // FL
    [50, 39], // BL
    [48, 14], // BR
];
/// Colours (face letters) of each corner piece, in the same order as its position's facelets.
const CORNER_COLORS: [[u8; 3]; 8] = [
    *b"URF", *b"UFL", *b"ULB", *b"UBR", *b"DFR", *b"DLF", *b"DBL", *b"DRB",
];
const EDGE_COLORS: [[u8; 2]; 12] = [
    *b"UR", *b"UF", *b"UL", *b"UB", *b"DR", *b"DF", *b"DL", *b"DB", *b"FR", *b"FL", *b"BL", *b"BR",
];

/// Why a facelet string is not a valid position.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FaceletError {
    #[error("facelet string has {0} characters; it needs exactly 54")]
    Length(usize),
    #[error("facelet {pos} ({name}) is {ch:?}; only the face letters U R F D L B are allowed")]
    UnknownLetter { pos: usize, name: String, ch: char },
    #[error("colour {face} appears {count} times; each colour must appear exactly 9 times")]
    ColorCount { face: char, count: usize },
    #[error("centre of face {face} is {found}; centres never move (facelet {pos} must be {face})")]
    CentreMoved { face: char, found: char, pos: usize },
    #[error("the corner at {position} has stickers {stickers}, which is not a real corner")]
    NoSuchCorner {
        position: &'static str,
        stickers: String,
    },
    #[error("the edge at {position} has stickers {stickers}, which is not a real edge")]
    NoSuchEdge {
        position: &'static str,
        stickers: String,
    },
    #[error("corner {piece} appears twice (at {first} and {second})")]
    DuplicateCorner {
        piece: &'static str,
        first: &'static str,
        second: &'static str,
    },
    #[error("edge {piece} appears twice (at {first} and {second})")]
    DuplicateEdge {
        piece: &'static str,
        first: &'static str,
        second: &'static str,
    },
    #[error("a corner is twisted: the corner twists sum to {0} mod 3, not 0")]
    TwistedCorner(u8),
    #[error("an edge is flipped: the edge flips sum to 1 mod 2, not 0")]
    FlippedEdge,
    #[error(
        "parity mismatch: the corner permutation is {corner} but the edge permutation is {edge} (two pieces are swapped)"
    )]
    Parity {
        corner: &'static str,
        edge: &'static str,
    },
}

/// Human name of facelet `i`, such as `R1` or `U9`.
pub fn facelet_name(i: usize) -> String {
    format!("{}{}", FACES[i / 9] as char, i % 9 + 1)
}

impl Cube {
    /// The facelet string of this position.
    pub fn to_facelets(&self) -> String {
        let mut f = *b"UUUUUUUUURRRRRRRRRFFFFFFFFFDDDDDDDDDLLLLLLLLLBBBBBBBBB";
        for i in 0..8 {
            let (j, o) = (self.corner_perm(i) as usize, self.corner_ori(i) as usize);
            for n in 0..3 {
                f[CORNER_FACELETS[i][(n + o) % 3]] = CORNER_COLORS[j][n];
            }
        }
        for i in 0..12 {
            let (j, o) = (self.edge_perm(i) as usize, self.edge_ori(i) as usize);
            for n in 0..2 {
                f[EDGE_FACELETS[i][(n + o) % 2]] = EDGE_COLORS[j][n];
            }
        }
        String::from_utf8(f.to_vec()).expect("ASCII")
    }

    /// Parses and validates a facelet string.
    pub fn from_facelets(s: &str) -> Result<Cube, FaceletError> {
        let chars: Vec<char> = s.trim().chars().collect();
        if chars.len() != 54 {
            return Err(FaceletError::Length(chars.len()));
        }
        let mut f = [0u8; 54];
        for (i, &c) in chars.iter().enumerate() {
            if !c.is_ascii() || !FACES.contains(&(c as u8)) {
                return Err(FaceletError::UnknownLetter {
                    pos: i + 1,
                    name: facelet_name(i),
                    ch: c,
                });
            }
            f[i] = c as u8;
        }
        for &face in &FACES {
            let count = f.iter().filter(|&&c| c == face).count();
            if count != 9 {
                return Err(FaceletError::ColorCount {
                    face: face as char,
                    count,
                });
            }
        }
        for (k, &face) in FACES.iter().enumerate() {
            let centre = f[9 * k + 4];
            if centre != face {
                return Err(FaceletError::CentreMoved {
                    face: face as char,
                    found: centre as char,
                    pos: 9 * k + 5,
                });
            }
        }

        let mut cp = [0u8; 8];
        let mut co = [0u8; 8];
        let mut corner_at = [None::<usize>; 8];
        for i in 0..8 {
            let st = CORNER_FACELETS[i].map(|p| f[p]);
            let stickers: String = st.iter().map(|&c| c as char).collect();
            let bad = || FaceletError::NoSuchCorner {
                position: CORNER_NAMES[i],
                stickers: stickers.clone(),
            };
            let ud: Vec<usize> = (0..3).filter(|&o| st[o] == b'U' || st[o] == b'D').collect();
            if ud.len() != 1 {
                return Err(bad());
            }
            let o = ud[0];
            let rotated = [st[o], st[(o + 1) % 3], st[(o + 2) % 3]];
            let j = CORNER_COLORS
                .iter()
                .position(|c| *c == rotated)
                .ok_or_else(bad)?;
            if let Some(first) = corner_at[j] {
                return Err(FaceletError::DuplicateCorner {
                    piece: CORNER_NAMES[j],
                    first: CORNER_NAMES[first],
                    second: CORNER_NAMES[i],
                });
            }
            corner_at[j] = Some(i);
            cp[i] = j as u8;
            co[i] = o as u8;
        }

        let mut ep = [0u8; 12];
        let mut eo = [0u8; 12];
        let mut edge_at = [None::<usize>; 12];
        for i in 0..12 {
            let st = EDGE_FACELETS[i].map(|p| f[p]);
            let found = EDGE_COLORS.iter().enumerate().find_map(|(j, c)| {
                if *c == st {
                    Some((j, 0))
                } else if *c == [st[1], st[0]] {
                    Some((j, 1))
                } else {
                    None
                }
            });
            let Some((j, o)) = found else {
                return Err(FaceletError::NoSuchEdge {
                    position: EDGE_NAMES[i],
                    stickers: st.iter().map(|&c| c as char).collect(),
                });
            };
            if let Some(first) = edge_at[j] {
                return Err(FaceletError::DuplicateEdge {
                    piece: EDGE_NAMES[j],
                    first: EDGE_NAMES[first],
                    second: EDGE_NAMES[i],
                });
            }
            edge_at[j] = Some(i);
            ep[i] = j as u8;
            eo[i] = o;
        }

        let cube = Cube::from_parts(cp, co, ep, eo);
        match cube.validate() {
            Ok(()) => Ok(cube),
            Err(CubeError::Twist) => Err(FaceletError::TwistedCorner(cube.corner_twist_sum())),
            Err(CubeError::Flip) => Err(FaceletError::FlippedEdge),
            Err(CubeError::Parity) => {
                let name = |p| if p == 0 { "even" } else { "odd" };
                Err(FaceletError::Parity {
                    corner: name(cube.corner_parity()),
                    edge: name(cube.edge_parity()),
                })
            }
            // Unreachable: duplicates and unknown pieces were rejected above.
            Err(e) => unreachable!("{e}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cube::{Move, parse_moves};

    fn swap(s: &str, a: usize, b: usize) -> String {
        let mut v: Vec<char> = s.chars().collect();
        v.swap(a, b);
        v.into_iter().collect()
    }

    #[test]
    fn solved_round_trips() {
        assert_eq!(Cube::SOLVED.to_facelets(), SOLVED_FACELETS);
        assert_eq!(Cube::from_facelets(SOLVED_FACELETS), Ok(Cube::SOLVED));
    }

    /// Facelet strings of the six quarter turns as Kociemba's reference implementation prints
    /// them (R is quoted in the foundation issue; the others follow the same convention).
    #[test]
    fn single_moves_match_kociemba() {
        let expect = [
            (
                "U",
                "UUUUUUUUUBBBRRRRRRRRRFFFFFFDDDDDDDDDFFFLLLLLLLLLBBBBBB",
            ),
            (
                "R",
                "UUFUUFUUFRRRRRRRRRFFDFFDFFDDDBDDBDDBLLLLLLLLLUBBUBBUBB",
            ),
            (
                "F",
                "UUUUUULLLURRURRURRFFFFFFFFFRRRDDDDDDLLDLLDLLDBBBBBBBBB",
            ),
            (
                "D",
                "UUUUUUUUURRRRRRFFFFFFFFFLLLDDDDDDDDDLLLLLLBBBBBBBBBRRR",
            ),
            (
                "L",
                "BUUBUUBUURRRRRRRRRUFFUFFUFFFDDFDDFDDLLLLLLLLLBBDBBDBBD",
            ),
            (
                "B",
                "RRRUUUUUURRDRRDRRDFFFFFFFFFDDDDDDLLLULLULLULLBBBBBBBBB",
            ),
        ];
        for (m, s) in expect {
            let c = Cube::from_moves(&parse_moves(m).unwrap());
            assert_eq!(c.to_facelets(), s, "{m}");
            assert_eq!(Cube::from_facelets(s), Ok(c), "{m}");
        }
    }

    #[test]
    fn every_move_round_trips_through_facelets() {
        for m in Move::all() {
            let c = Cube::SOLVED.apply(m);
            assert_eq!(Cube::from_facelets(&c.to_facelets()), Ok(c), "{m}");
        }
        let c = Cube::from_moves(&parse_moves(crate::cube::SUPERFLIP).unwrap());
        assert_eq!(Cube::from_facelets(&c.to_facelets()), Ok(c));
    }

    #[test]
    fn each_defect_has_its_own_error() {
        use FaceletError::*;
        let s = SOLVED_FACELETS;
        assert!(matches!(Cube::from_facelets(&s[1..]), Err(Length(53))));
        let x = s.replacen('U', "X", 1);
        assert!(matches!(
            Cube::from_facelets(&x),
            Err(UnknownLetter { pos: 1, .. })
        ));
        let x = s.replacen('U', "R", 1);
        assert!(matches!(
            Cube::from_facelets(&x),
            Err(ColorCount {
                face: 'U',
                count: 8
            })
        ));
        // Swap the U and R centres: counts stay right, centres do not.
        let x = swap(s, 4, 13);
        assert!(matches!(
            Cube::from_facelets(&x),
            Err(CentreMoved { face: 'U', .. })
        ));
        // Swap two stickers of the URF corner across faces: U9 with F3 gives F,R,U — a mirror
        // image that no corner has.
        let x = swap(s, 8, 20);
        assert!(matches!(
            Cube::from_facelets(&x),
            Err(NoSuchCorner {
                position: "URF",
                ..
            })
        ));
        // An edge with two U stickers: swap UR's R sticker with a U sticker of UF's neighbour.
        let x = swap(s, 10, 1); // R2 <-> U2: UR becomes UU, UB becomes RB
        assert!(matches!(
            Cube::from_facelets(&x),
            Err(NoSuchEdge { position: "UR", .. })
        ));
        // Twist one corner in place.
        let x = {
            let mut v: Vec<char> = s.chars().collect();
            let (a, b, c) = (v[8], v[9], v[20]);
            (v[8], v[9], v[20]) = (c, a, b);
            v.into_iter().collect::<String>()
        };
        assert!(matches!(Cube::from_facelets(&x), Err(TwistedCorner(_))));
        // Flip one edge in place.
        let x = swap(s, 5, 10);
        assert!(matches!(Cube::from_facelets(&x), Err(FlippedEdge)));
        // Swap two edges (UF and UR): a single transposition.
        let mut v: Vec<char> = s.chars().collect();
        v.swap(5, 7);
        v.swap(10, 19);
        let x: String = v.into_iter().collect();
        assert!(matches!(Cube::from_facelets(&x), Err(Parity { .. })));
    }

    #[test]
    fn duplicate_edge_with_balanced_counts() {
        // UR holds a second UF (one R sticker fewer, one F more) and DF holds a second DR
        // (one F fewer, one R more): colour counts balance, so the duplicate check is reached.
        let c = Cube::from_parts(
            Cube::SOLVED.cp(),
            [0; 8],
            [1, 1, 2, 3, 4, 4, 6, 7, 8, 9, 10, 11],
            [0; 12],
        );
        let err = Cube::from_facelets(&c.to_facelets()).unwrap_err();
        assert_eq!(
            err,
            FaceletError::DuplicateEdge {
                piece: "UF",
                first: "UR",
                second: "UF"
            }
        );
        assert!(err.to_string().contains("UF appears twice"));
    }

    #[test]
    fn duplicate_corner_with_balanced_counts() {
        // URF:=UFL (−R +L) and DLF:=DFR (−L +R): colours balance, two duplicates.
        let c = Cube::from_parts([1, 1, 2, 3, 4, 4, 6, 7], [0; 8], Cube::SOLVED.ep(), [0; 12]);
        let err = Cube::from_facelets(&c.to_facelets()).unwrap_err();
        assert_eq!(
            err,
            FaceletError::DuplicateCorner {
                piece: "UFL",
                first: "URF",
                second: "UFL"
            }
        );
    }
}
