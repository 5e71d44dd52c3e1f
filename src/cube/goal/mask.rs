//! Facelet masks: the goal a mask describes ([`Goal::from_mask`]) and the mask that defines a
//! goal ([`Goal::mask`]), each the other's inverse for every goal a mask can say
//! (`tests/goal_masks.rs`). Apart from `goal.rs` because they are a subject of their own: the
//! reading of stickers, colours and digits, none of which the goal's labels need.

use super::{Axis, Goal, GoalError};
use crate::cube::facelets::{CORNER_FACELETS, EDGE_FACELETS, SOLVED_FACELETS, facelet_name};

impl Goal {
    /// The goal a facelet mask describes: 54 characters in the facelet order, `x` (or `X`, `.`,
    /// `-`) for a free sticker, a face letter for a sticker that must show its solved colour
    /// (the solved cube's letter there; a centre may be either). A piece with every sticker
    /// marked must be home (so must a corner with two marked); a piece with none is free; a
    /// piece with only its reference sticker marked (a corner's U/D sticker; an edge's U/D
    /// sticker, or F/B in the E slice) is one of the pieces of that colour, oriented, and then
    /// every other piece of that colour must be marked too, so the class fills its own slots.
    ///
    /// A digit `1`–`9` on a piece's reference sticker alone names a class by label instead of
    /// colour: the slot holds, oriented, one of the pieces (of its kind) whose home carries the
    /// same digit. Colours cannot say orientation goals: `eo`'s edges may sit in any slot, so
    /// no colour is right for a slot's reference sticker (an E-slice edge in UF shows F there),
    /// and the colour classes would keep U edges in U and D edges in D, another goal with
    /// tables of 53 M entries. With digits, `eo`'s mask (a `1` on every edge's reference
    /// sticker) is `eo`, and every mask [`Goal::mask`] prints parses back to its goal.
    pub fn from_mask(mask: &str) -> Result<Goal, GoalError> {
        let chars: Vec<char> = mask.trim().chars().collect();
        if chars.len() != 54 {
            return Err(GoalError::MaskLength(chars.len()));
        }
        let solved = SOLVED_FACELETS.as_bytes();
        // What each sticker asks: 0 nothing, a face letter its colour, a digit its class.
        let mut marked = [0u8; 54];
        for (i, &ch) in chars.iter().enumerate() {
            if matches!(ch, 'x' | 'X' | '.' | '-') {
                continue;
            }
            if matches!(ch, '1'..='9') {
                if i % 9 == 4 {
                    return Err(GoalError::MaskDigit {
                        pos: i + 1,
                        name: facelet_name(i),
                        ch,
                        place: "on a centre".into(),
                    });
                }
                marked[i] = ch as u8;
                continue;
            }
            if !"URFDLB".contains(ch) {
                return Err(GoalError::MaskLetter {
                    pos: i + 1,
                    name: facelet_name(i),
                    ch,
                });
            }
            if ch != solved[i] as char {
                return Err(GoalError::MaskColour {
                    pos: i + 1,
                    name: facelet_name(i),
                    ch,
                    want: solved[i] as char,
                });
            }
            if i % 9 != 4 {
                marked[i] = ch as u8;
            }
        }
        if marked.iter().all(|&m| m == 0) {
            return Err(GoalError::MaskEmpty);
        }
        let mut g = Goal {
            name: "mask".into(),
            corner_class: [0; 8],
            edge_class: [0; 12],
            corner_oriented: [false; 8],
            edge_oriented: [false; 12],
            requires: None,
            axis: Axis::FB,
            squares: false,
        };
        let corners: Vec<&[usize]> = CORNER_FACELETS.iter().map(|f| &f[..]).collect();
        let edges: Vec<&[usize]> = EDGE_FACELETS.iter().map(|f| &f[..]).collect();
        read_kind(
            &marked,
            &corners,
            "corner",
            &crate::cube::CORNER_NAMES,
            &mut g.corner_class,
            &mut g.corner_oriented,
        )?;
        read_kind(
            &marked,
            &edges,
            "edge",
            &crate::cube::EDGE_NAMES,
            &mut g.edge_class,
            &mut g.edge_oriented,
        )?;
        Ok(g)
    }

    /// The mask that defines the goal ([`Goal::from_mask`] reads it back to this goal, and
    /// the stickers it names are those a person checks by eye): every sticker of a home piece
    /// in its colour; for a class, the reference sticker of each of its slots, in its solved
    /// colour when the class is every piece of that colour not home (the colour then says
    /// it), else in the class's digit (`eo`: a `1` on every edge; `dr`: `1` on the corners,
    /// `1` on the U and D layers' edges, `2` on the E slice's; digits are counted per kind);
    /// `x` elsewhere. `None` when no mask says the goal: a goal about another axis than F/B
    /// (`eo-ud`: a mask's reference stickers are those of F/B), `htr` (no sticker says its
    /// corner coset), and a class whose orientation does not count (no named goal has one).
    pub fn mask(&self) -> Option<String> {
        if self.axis != Axis::FB || self.squares {
            return None;
        }
        let mut m = *b"xxxxUxxxxxxxxRxxxxxxxxFxxxxxxxxDxxxxxxxxLxxxxxxxxBxxxx";
        let solved = SOLVED_FACELETS.as_bytes();
        let corners: Vec<&[usize]> = CORNER_FACELETS.iter().map(|f| &f[..]).collect();
        let edges: Vec<&[usize]> = EDGE_FACELETS.iter().map(|f| &f[..]).collect();
        for (facelets, classes, oriented) in [
            (&corners, &self.corner_class[..], &self.corner_oriented[..]),
            (&edges, &self.edge_class[..], &self.edge_oriented[..]),
        ] {
            let n = classes.len();
            let members = |c: u8| (0..n).filter(move |&q| classes[q] == c);
            let home = |q: usize| oriented[q] && members(classes[q]).count() == 1;
            let colour = |q: usize| solved[facelets[q][0]];
            // Each class's label, by class, digits from 1 in order of first slot.
            let mut labels: Vec<(u8, u8)> = Vec::new();
            for p in (0..n).filter(|&p| classes[p] != 0) {
                if !oriented[p] {
                    return None;
                }
                if home(p) {
                    for &f in facelets[p] {
                        m[f] = solved[f];
                    }
                    continue;
                }
                let c = classes[p];
                let label = match labels.iter().find(|l| l.0 == c) {
                    Some(&(_, l)) => l,
                    None => {
                        let said_by_colour = (0..n).all(|q| {
                            let same = colour(q) == colour(p);
                            if classes[q] == c {
                                same
                            } else {
                                !same || home(q)
                            }
                        });
                        let digits = labels.iter().filter(|l| l.1.is_ascii_digit()).count();
                        let l = if said_by_colour {
                            colour(p)
                        } else {
                            b'1' + digits as u8
                        };
                        labels.push((c, l));
                        l
                    }
                };
                m[facelets[p][0]] = label;
            }
        }
        Some(String::from_utf8(m.to_vec()).expect("ASCII"))
    }
}

/// Reads one kind's slots of a mask into classes (see [`Goal::from_mask`]): home pieces, then
/// the classes named by a digit, then those named by a colour, whose check that every other
/// piece of the colour is home or in a class needs the others known.
fn read_kind(
    marked: &[u8; 54],
    facelets: &[&[usize]],
    kind: &'static str,
    names: &[&'static str],
    class: &mut [u8],
    oriented: &mut [bool],
) -> Result<(), GoalError> {
    let solved = SOLVED_FACELETS.as_bytes();
    let n = facelets.len();
    let mut next = 1u8;
    // Slots with only their reference sticker marked, by that sticker's colour or digit.
    let mut partial: Vec<(u8, usize)> = Vec::new();
    let mut labelled: Vec<(u8, usize)> = Vec::new();
    for s in 0..n {
        let f = facelets[s];
        let count = f.iter().filter(|&&i| marked[i] != 0).count();
        if count == 0 {
            continue;
        }
        if let Some(&i) = f.iter().find(|&&i| marked[i].is_ascii_digit()) {
            if i != f[0] || count != 1 {
                let place = if i != f[0] {
                    format!(
                        "on a sticker of the {kind} at {} other than its reference sticker",
                        names[s]
                    )
                } else {
                    format!("and the {kind} at {} has another sticker marked", names[s])
                };
                return Err(GoalError::MaskDigit {
                    pos: i + 1,
                    name: facelet_name(i),
                    ch: marked[i] as char,
                    place,
                });
            }
            labelled.push((marked[i], s));
            continue;
        }
        // Two stickers of a corner name the piece and its twist: home, as three do.
        if count == f.len() || (kind == "corner" && count == 2) {
            class[s] = next;
            oriented[s] = true;
            next += 1;
        } else if marked[f[0]] != 0 {
            partial.push((solved[f[0]], s));
        } else {
            let i = *f.iter().find(|&&i| marked[i] != 0).expect("one is marked");
            return Err(GoalError::MaskPartial {
                pos: i + 1,
                name: facelet_name(i),
                kind,
                slot: names[s],
            });
        }
    }
    for digit in (labelled.iter().map(|p| p.0)).collect::<std::collections::BTreeSet<_>>() {
        for &(_, s) in labelled.iter().filter(|p| p.0 == digit) {
            class[s] = next;
            oriented[s] = true;
        }
        next += 1;
    }
    for colour in partial
        .iter()
        .map(|p| p.0)
        .collect::<std::collections::BTreeSet<_>>()
    {
        let slots: Vec<usize> = (partial.iter())
            .filter(|p| p.0 == colour)
            .map(|p| p.1)
            .collect();
        // Every piece whose reference sticker has this colour must be home or in the class.
        let free = (0..n)
            .find(|&p| solved[facelets[p][0]] == colour && class[p] == 0 && !slots.contains(&p));
        if let Some(other) = free {
            let i = facelets[slots[0]][0];
            return Err(GoalError::MaskAmbiguous {
                pos: i + 1,
                name: facelet_name(i),
                colour: colour as char,
                kind,
                slot: names[slots[0]],
                other: names[other],
            });
        }
        for &s in &slots {
            class[s] = next;
            oriented[s] = true;
        }
        next += 1;
    }
    Ok(())
}
