//! The cube model: cubies, moves, notation, facelet strings and random positions.
//!
//! Everything above this module (ranking, tables, search, solvers) works on [`Cube`] values and
//! [`Move`]s; nothing else knows how a position is stored.

mod cubie;
mod facelets;
mod goal;
mod metric;
mod moves;
pub mod net;
mod notation;
pub mod packed;
mod random;
pub mod squares;

pub use cubie::{CORNER_NAMES, Cube, CubeError, EDGE_NAMES, parity};
pub use facelets::{FaceletError, SOLVED_FACELETS, facelet_name};
pub use goal::{Axis, Goal, GoalError, NAMED as NAMED_GOALS, NamedGoal, listing as goal_listing};
pub use metric::{AxisMove, Metric};
pub use moves::{
    ALLOWED_AFTER, Face, MOVE_CUBES, Move, allowed_after, invert_sequence, merge_moves,
    merge_target, push_merged,
};
pub use notation::{ParseError, format_moves, parse_moves};
pub use random::{Rng, random_scramble};

/// The superflip: every edge flipped in place, 20 moves optimal (Reid 1995; cube20.org).
pub const SUPERFLIP: &str = "U R2 F B R B2 R U2 L B2 R U' D' R2 F R' L B2 U2 F2";

/// A position read from user input: a scramble or a facelet string.
#[derive(Debug, thiserror::Error)]
pub enum InputError {
    #[error(transparent)]
    Moves(#[from] ParseError),
    #[error(transparent)]
    Facelets(#[from] FaceletError),
    /// Nothing but white space: refused rather than read as the solved cube, which no one
    /// means by it (the CLI and Python say the same words).
    #[error("the scramble is empty: pass its moves (\"R U2 F'\") or a 54-letter facelet string")]
    Empty,
}

/// Whether [`parse_position`] reads `s` as facelets: 40 characters or more, with no space,
/// prime or `2` (no scramble looks like that: its moves are separated by spaces).
pub fn looks_like_facelets(s: &str) -> bool {
    let t = s.trim();
    t.chars().count() >= 40 && !t.contains(char::is_whitespace) && !t.contains(['\'', '’', '2'])
}

/// Reads one position: a 54-character string of face letters is taken as facelets, anything
/// else as a scramble. An empty or all-blank text is [`InputError::Empty`].
pub fn parse_position(s: &str) -> Result<Cube, InputError> {
    let t = s.trim();
    if t.is_empty() {
        Err(InputError::Empty)
    } else if looks_like_facelets(t) {
        Ok(Cube::from_facelets(t)?)
    } else {
        Ok(Cube::from_moves(&parse_moves(t)?))
    }
}
