//! The `optcube` command-line tool: a thin layer over the library (see `src/cli/`).

mod cli;

fn main() {
    std::process::exit(cli::run());
}
