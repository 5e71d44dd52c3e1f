//! Helpers shared by the end-to-end test binaries: run the `optcube` binary, read its output.

use std::process::{Command, Output};

/// Runs the `optcube` binary of this build with `args`.
pub fn optcube(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_optcube"))
        .args(args)
        .output()
        .expect("run optcube")
}

pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}
