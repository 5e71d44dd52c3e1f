//! `optcube stats summarize` (being written).

use crate::cli::Failure;

#[derive(clap::Args)]
pub struct Args {}

pub fn run(_args: Args) -> Result<i32, Failure> {
    Err(Failure(
        "optcube stats summarize: not implemented yet".into(),
    ))
}
