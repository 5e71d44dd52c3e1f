//! A goal as solutions are checked against it: a [`Goal`] held in one whole-cube orientation,
//! or in any of the 24 (`--any-orientation`, colour neutrality). A position meets the goal
//! held in orientation `S` when `S⁻¹ P S` meets it ([`conjugate`]).

use super::symmetry::{Symmetries, symmetries};
use crate::cube::{Axis, Cube, Face, Goal, Move};
use std::sync::OnceLock;

/// A goal as a solution is checked against it: the goal, and whether any whole-cube
/// orientation of it counts.
#[derive(Clone, Debug, PartialEq)]
pub struct GoalCheck {
    pub goal: Goal,
    pub any_orientation: bool,
}

impl GoalCheck {
    /// The symmetries (indices of [`crate::coord::symmetry::Symmetries`]) whose conjugates are
    /// tried: the 24 rotations (the even indices: no mirror factor) in any orientation, else
    /// the one that holds the goal's axis as F/B ([`axis_frame`]; the identity for F/B).
    pub fn frames(&self) -> Vec<usize> {
        if self.any_orientation {
            (0..48).step_by(2).collect()
        } else {
            vec![axis_frame(self.goal.axis())]
        }
    }

    /// Does `cube` meet the goal (in some orientation, when any counts)?
    pub fn holds(&self, cube: &Cube) -> bool {
        let syms = symmetries();
        self.frames()
            .into_iter()
            .any(|s| self.goal.holds(&conjugate(syms, cube, s)))
    }

    /// Checks that the position meets the precondition of the goal (`ll` needs `f2l`), in the
    /// same orientation terms; the error says what is missing.
    pub fn precondition(&self, cube: &Cube) -> Result<(), String> {
        match self.goal.requires() {
            Some(pre) => {
                let check = GoalCheck {
                    goal: pre.clone(),
                    any_orientation: self.any_orientation,
                };
                if check.holds(cube) {
                    Ok(())
                } else {
                    Err(format!(
                        "goal {} starts from a position that meets {}, and this one does not",
                        self.goal.name(),
                        pre.name()
                    ))
                }
            }
            None => Ok(()),
        }
    }
}

/// The rotation `s` for which `S_s⁻¹ P S_s` has its edges oriented in Kociemba's sense (about
/// F/B) exactly when `P`'s are oriented about `axis`: the one whose conjugate of a quarter
/// turn flips edges for that axis's faces and for no other (found once among the 24, by that
/// property, rather than written down as an index).
pub fn axis_frame(axis: Axis) -> usize {
    static FRAMES: OnceLock<[usize; 3]> = OnceLock::new();
    let frames = FRAMES.get_or_init(|| {
        let syms = symmetries();
        let flips = |f: Face, s: usize| {
            let c = conjugate(syms, Move::new(f, 1).cube(), s);
            (0..12).any(|i| c.edge_ori(i) != 0)
        };
        let find = |face: Face| {
            (0..48)
                .step_by(2)
                .find(|&s| {
                    [Face::U, Face::R, Face::F]
                        .iter()
                        .all(|&f| flips(f, s) == (f == face))
                })
                .expect("a rotation takes every axis onto F/B")
        };
        [0, find(Face::U), find(Face::R)]
    });
    frames[axis as usize]
}

/// `S_s⁻¹ c S_s` (the identity needs no work).
#[inline]
pub fn conjugate(syms: &Symmetries, c: &Cube, s: usize) -> Cube {
    if s == 0 {
        *c
    } else {
        syms.conj_cube(c, syms.inv[s] as usize)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cube::{Move, Rng};

    /// `eo-ud` holds on every position the moves that keep U/D edge orientation make (R, L, F,
    /// B and the U/D half turns), and fails after one more U quarter turn; `eo-rl` the same
    /// with U, D, F, B, R2, L2 and an R. (A check by the groups, not by the frames: the
    /// moves are applied to the raw cube.)
    #[test]
    fn eo_about_each_axis_is_kept_by_its_group() {
        let mut rng = Rng::new(77);
        let turns = |quarter: [Face; 4], half: [Face; 2]| -> Vec<Move> {
            let q = quarter.map(|f| Move::new(f, 1));
            q.into_iter().chain(half.map(|f| Move::new(f, 2))).collect()
        };
        use Face::{B, D, F, L, R, U};
        for (name, group, breaker) in [
            ("eo-ud", turns([R, L, F, B], [U, D]), Move::new(U, 1)),
            ("eo-rl", turns([U, D, F, B], [R, L]), Move::new(R, 1)),
        ] {
            let check = GoalCheck {
                goal: Goal::named(name).unwrap(),
                any_orientation: false,
            };
            let eo = GoalCheck {
                goal: Goal::named("eo").unwrap(),
                any_orientation: false,
            };
            let mut fb_oriented = 0;
            for _ in 0..200 {
                let seq: Vec<Move> = (0..20).map(|_| group[rng.below(6) as usize]).collect();
                let c = Cube::SOLVED.apply_seq(&seq);
                assert!(check.holds(&c), "{name} after {seq:?}");
                assert!(
                    !check.holds(&c.apply(breaker)),
                    "{name} after {seq:?} {breaker}"
                );
                fb_oriented += eo.holds(&c) as u32;
            }
            // The axes differ: most of these positions are not oriented about F/B.
            assert!(
                fb_oriented < 50,
                "{name}: {fb_oriented} of 200 also F/B-oriented"
            );
        }
    }
}
