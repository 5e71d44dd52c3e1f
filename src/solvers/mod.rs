//! The solvers built on the cube model: the optimal solver (Korf's IDA* with pattern databases),
//! Kociemba's two-phase solver and Thistlethwaite's four-phase solver.

use crate::cube::{Cube, Move};

pub mod optimal;
pub mod outcome;
pub mod thistlethwaite;
pub mod twophase;

/// Does `moves` bring `cube` to solved? Every solver's answer passes through this check before
/// anyone sees it.
pub fn solves(cube: &Cube, moves: &[Move]) -> bool {
    cube.apply_seq(moves).is_solved()
}
