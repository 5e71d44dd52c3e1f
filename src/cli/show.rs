//! `optcube show POSITION [--goal NAME | --mask STR] [--svg FILE]`: the position as a net
//! (`optcube::cube::net`), with the stickers a goal or mask leaves free drawn gray.

use super::Failure;
use optcube::cube::{Goal, net, parse_position};
use std::io::IsTerminal;
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct ShowArgs {
    /// The position: a scramble or a facelet string [default: solved].
    position: Option<String>,
    /// Gray the stickers this goal leaves free (`optcube goals`).
    #[arg(long, value_name = "NAME", conflicts_with = "mask")]
    goal: Option<String>,
    /// Gray the stickers this mask leaves free (x).
    #[arg(long, value_name = "STR")]
    mask: Option<String>,
    /// Also write the net as an SVG picture.
    #[arg(long, value_name = "FILE")]
    svg: Option<PathBuf>,
}

pub fn run(args: ShowArgs) -> Result<i32, Failure> {
    let cube = match args.position.as_deref() {
        Some(p) => parse_position(p).map_err(|e| Failure(format!("invalid position: {e}")))?,
        None => optcube::cube::Cube::SOLVED,
    };
    let free = free_stickers(args.goal.as_deref(), args.mask.as_deref())?;
    let facelets = cube.to_facelets();
    print!(
        "{}",
        net::text(&facelets, &free, std::io::stdout().is_terminal())
    );
    if let Some(path) = &args.svg {
        optcube::sys::files::write_output(path, net::svg(&facelets, &free).as_bytes())
            .map_err(Failure)?;
        eprintln!("wrote {}", path.display());
    }
    Ok(0)
}

/// The stickers a goal (`--goal NAME`) or a mask leaves free, drawn gray: none without either.
/// `optcube serve` draws with the same rule.
pub(super) fn free_stickers(goal: Option<&str>, mask: Option<&str>) -> Result<[bool; 54], Failure> {
    let goal = match (goal, mask) {
        (Some(n), _) => Some(Goal::named(n.trim()).map_err(|e| Failure(e.to_string()))?),
        (_, Some(m)) => Some(Goal::from_mask(m).map_err(|e| Failure(format!("bad --mask: {e}")))?),
        _ => None,
    };
    let mut free = [false; 54];
    if let Some(g) = &goal {
        let mask = g.mask().ok_or_else(|| {
            let why = if g.squares() {
                "its corners must form one of the permutations the half turns make, which no \
                 sticker says"
            } else {
                "it is about another axis than F/B, and a mask's stickers are read about F/B \
                 (its pieces are those of the goal it rotates)"
            };
            Failure(format!(
                "goal {} has no mask to draw: {why}; see docs/goals.md",
                g.name()
            ))
        })?;
        for (i, b) in mask.bytes().enumerate() {
            free[i] = b == b'x';
        }
    }
    Ok(free)
}
