//! Move notation (Singmaster, half-turn metric): parsing, formatting, inverting sequences.
//!
//! Accepted: face letters `U R F D L B`, each followed by nothing, `2`, `'`, `’` or `2'`/`2’`
//! (treated as `2`); tokens separated by white space or written together (`RU2F'`). Anything
//! else is an error naming the offending token, its 1-based token number and its character
//! column. Output is always `X`, `X2`, `X'` separated by single spaces.

use super::moves::{Face, Move};

/// A scramble or solution that could not be parsed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("bad move token {token:?} (move {index}, character {column}): {reason}")]
pub struct ParseError {
    /// The offending text.
    pub token: String,
    /// 1-based number of the move being read.
    pub index: usize,
    /// 1-based character column where the token starts.
    pub column: usize,
    /// What is wrong with it.
    pub reason: &'static str,
}

fn is_prime(c: char) -> bool {
    c == '\'' || c == '’'
}

/// Parses a move sequence.
pub fn parse_moves(s: &str) -> Result<Vec<Move>, ParseError> {
    let chars: Vec<char> = s.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        if chars[i].is_whitespace() {
            i += 1;
            continue;
        }
        let start = i;
        let err = |end: usize, reason| {
            // The token runs to the next white space or face letter.
            let mut end = end.max(start + 1);
            while end < chars.len()
                && !chars[end].is_whitespace()
                && Face::from_letter(chars[end]).is_none()
            {
                end += 1;
            }
            ParseError {
                token: chars[start..end].iter().collect(),
                index: out.len() + 1,
                column: start + 1,
                reason,
            }
        };
        let Some(face) = Face::from_letter(chars[i]) else {
            return Err(err(i + 1, "expected a face letter U, R, F, D, L or B"));
        };
        i += 1;
        let mut turns = 1;
        if i < chars.len() && chars[i] == '2' {
            turns = 2;
            i += 1;
            if i < chars.len() && is_prime(chars[i]) {
                i += 1; // "2'" is a half turn too
            }
        } else if i < chars.len() && is_prime(chars[i]) {
            turns = 3;
            i += 1;
        }
        if i < chars.len() && !chars[i].is_whitespace() && Face::from_letter(chars[i]).is_none() {
            return Err(err(
                i + 1,
                "a move is a face letter followed by nothing, 2 or '",
            ));
        }
        out.push(Move::new(face, turns));
    }
    Ok(out)
}

/// Formats a move sequence as `X X2 X'` separated by single spaces (empty for no moves).
pub fn format_moves(seq: &[Move]) -> String {
    let mut s = String::with_capacity(seq.len() * 3);
    for (k, m) in seq.iter().enumerate() {
        if k > 0 {
            s.push(' ');
        }
        s.push_str(&m.to_string());
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_all_forms() {
        let a = parse_moves("R U2 F'").unwrap();
        assert_eq!(format_moves(&a), "R U2 F'");
        assert_eq!(parse_moves("RU2F'").unwrap(), a);
        assert_eq!(parse_moves("R U2’ F’").unwrap(), a);
        assert_eq!(parse_moves("  R\tU2'\nF' ").unwrap(), a);
        assert_eq!(parse_moves("").unwrap(), vec![]);
    }

    #[test]
    fn errors_name_token_and_position() {
        let e = parse_moves("R U3 F").unwrap_err();
        assert_eq!((e.token.as_str(), e.index, e.column), ("U3", 2, 3));
        let e = parse_moves("R x F").unwrap_err();
        assert_eq!((e.token.as_str(), e.index, e.column), ("x", 2, 3));
        let e = parse_moves("RUF'' D").unwrap_err();
        assert_eq!((e.token.as_str(), e.index), ("F''", 3));
        let e = parse_moves("r").unwrap_err();
        assert_eq!(e.token, "r");
        assert!(e.to_string().contains("\"r\""));
    }

    #[test]
    fn every_move_round_trips() {
        for m in Move::all() {
            assert_eq!(parse_moves(&m.to_string()).unwrap(), vec![m]);
        }
    }
}
