//! A goal as solutions are checked against it: a [`Goal`] held in one whole-cube orientation,
//! or in any of the 24 (`--any-orientation`, colour neutrality). A position meets the goal
//! held in orientation `S` when `S⁻¹ P S` meets it ([`conjugate`]).

use super::symmetry::{Symmetries, symmetries};
use crate::cube::{Cube, Goal};

/// A goal as a solution is checked against it: the goal, and whether any whole-cube
/// orientation of it counts.
#[derive(Clone, Debug, PartialEq)]
pub struct GoalCheck {
    pub goal: Goal,
    pub any_orientation: bool,
}

impl GoalCheck {
    /// The symmetries (indices of [`crate::coord::symmetry::Symmetries`]) whose conjugates are
    /// tried: the identity, or the 24 rotations (the even indices: no mirror factor).
    pub fn frames(&self) -> Vec<usize> {
        if self.any_orientation {
            (0..48).step_by(2).collect()
        } else {
            vec![0]
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

/// `S_s⁻¹ c S_s` (the identity needs no work).
#[inline]
pub fn conjugate(syms: &Symmetries, c: &Cube, s: usize) -> Cube {
    if s == 0 {
        *c
    } else {
        syms.conj_cube(c, syms.inv[s] as usize)
    }
}
