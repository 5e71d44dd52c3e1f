//! `optcube stats plot FILE.csv --out FILE.svg [--title T] [--log]`: a grouped bar chart of a
//! CSV distribution ([`optcube::stats::plot`]).

use crate::cli::Failure;
use optcube::stats::plot::{read_csv, svg};
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct PlotArgs {
    /// CSV with a header row: x labels in the first column, numeric series in the others.
    file: PathBuf,
    /// SVG output [default: FILE with the extension .svg].
    #[arg(long, value_name = "FILE.svg")]
    out: Option<PathBuf>,
    /// Chart title [default: the CSV's file name].
    #[arg(long, value_name = "TEXT")]
    title: Option<String>,
    /// Logarithmic y axis (values <= 0 are not drawn).
    #[arg(long)]
    log: bool,
}

pub fn run(args: PlotArgs) -> Result<i32, Failure> {
    let data = read_csv(&args.file)?;
    let title = args.title.clone().unwrap_or_else(|| {
        args.file
            .file_name()
            .map_or(String::new(), |f| f.to_string_lossy().into_owned())
    });
    let out = args
        .out
        .clone()
        .unwrap_or_else(|| args.file.with_extension("svg"));
    optcube::sys::files::write_output(&out, svg(&data, &title, args.log).as_bytes())
        .map_err(Failure)?;
    eprintln!("wrote {}", out.display());
    Ok(0)
}
