//! The `optcube` command-line tool: a thin layer over the library (see `src/cli/`).

mod cli;

fn main() {
    // Die quietly on a closed pipe (`optcube ... | head`) instead of panicking on print.
    // SAFETY: resetting a signal disposition to its default at start-up.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    std::process::exit(cli::run());
}
