//! `optcube facelets`: scramble → facelet string, and `--check` of a facelet string.

use super::{Failure, scramble_position};
use optcube::cube::Cube;

#[derive(clap::Args)]
pub struct FaceletsArgs {
    /// The scramble (e.g. "R U2 F'"); quote it so the shell passes it as one argument.
    #[arg(conflicts_with = "check")]
    scramble: Option<String>,
    /// Check a facelet string: exit 0 if it is a valid position, 2 with the reason if not.
    #[arg(long, value_name = "STR")]
    check: Option<String>,
}

pub fn run(args: FaceletsArgs) -> Result<i32, Failure> {
    if let Some(s) = args.check {
        Cube::from_facelets(&s).map_err(|e| Failure(format!("invalid position: {e}")))?;
        println!("valid");
        return Ok(0);
    }
    let scramble = args.scramble.unwrap_or_default();
    println!("{}", scramble_position(&scramble)?.to_facelets());
    Ok(0)
}
