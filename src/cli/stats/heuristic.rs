//! `optcube stats heuristic` (being written).

use crate::cli::Failure;

#[derive(clap::Args)]
pub struct Args {}

pub fn run(_args: Args) -> Result<i32, Failure> {
    Err(Failure(
        "optcube stats heuristic: not implemented yet".into(),
    ))
}
