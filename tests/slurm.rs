//! A length study through a real Slurm: `scripts/slurm-study-check.sh` starts a one-node
//! cluster on this machine (`scripts/slurm-localhost.sh`), submits the study as an array job of
//! two tasks (`scripts/slurm-lengths.sh`), merges the shards with `stats summarize` and checks
//! them against the same study run on one machine: every position there, the same optimal
//! lengths. Needs Slurm and MUNGE installed (Debian: `apt-get install slurmctld slurmd
//! slurm-client munge`, which `.ci/run` does where it can) and the rights to start slurmd
//! (root); elsewhere it says why it is skipped and passes.

mod common;

use common::{korf6_dir, scratch};
use std::path::Path;
use std::process::Command;

/// The tools the one-node cluster needs, those missing from `PATH`.
fn missing_tools() -> Vec<&'static str> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    [
        "slurmctld",
        "slurmd",
        "sbatch",
        "sinfo",
        "munged",
        "mungekey",
    ]
    .into_iter()
    .filter(|t| !std::env::split_paths(&path).any(|d| d.join(t).is_file()))
    .collect()
}

/// Runs `scripts/slurm-study-check.sh ARGS --pdb-dir TABLES --work WORK`; requires success and
/// returns its standard output.
fn study_check(args: &[&str], tables: &Path, work: &Path) -> String {
    let o = Command::new("scripts/slurm-study-check.sh")
        .args(args)
        .arg("--pdb-dir")
        .arg(tables)
        .arg("--work")
        .arg(work)
        .env("OPTCUBE", env!("CARGO_BIN_EXE_optcube"))
        .output()
        .unwrap();
    let (out, err) = (
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr),
    );
    assert!(o.status.success(), "{out}\n{err}");
    out.into_owned()
}

#[test]
fn a_study_through_slurm_equals_the_one_machine_run() {
    let missing = missing_tools();
    if !missing.is_empty() {
        eprintln!(
            "skipped: Slurm is not installed here (missing {}); on Debian, as root: \
             apt-get install slurmctld slurmd slurm-client munge",
            missing.join(", ")
        );
        return;
    }
    // SAFETY: geteuid has no preconditions.
    if unsafe { libc::geteuid() } != 0 {
        eprintln!("skipped: starting slurmd needs root");
        return;
    }
    let work = scratch().join("slurm");
    let args = [
        "--count", "16", "--moves", "10", "--set", "korf6", "--tasks", "2",
    ];
    let out = study_check(&args, Path::new(korf6_dir()), &work);
    assert!(
        out.contains("passed: 16 positions, 2 shards merged"),
        "{out}"
    );
    // Each task ran as its own Slurm array task and wrote its own shard.
    for k in 0..2 {
        let shard = work.join(format!("shards/lengths-seed1-moves10-shard{k}of2.jsonl"));
        let text = std::fs::read_to_string(&shard).unwrap();
        assert_eq!(text.lines().count(), 8, "{}", shard.display());
    }
    let report = std::fs::read_to_string(work.join("cluster.md")).unwrap();
    assert!(report.contains("agree on all 16"), "{report}");

    // A coset study through the same scripts: four random cosets to depth 5 in two tasks,
    // every coset's counts equal to the one-machine run's (the check script compares them).
    let tables = scratch().join("slurm-coset-tables");
    let o = Command::new(env!("CARGO_BIN_EXE_optcube"))
        .args(["coset", "--max-depth", "0", "--pdb-dir"])
        .arg(&tables)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let work = scratch().join("slurm-cosets");
    let out = study_check(&["--cosets", "--tasks", "2"], &tables, &work);
    assert!(out.contains("passed: 4 cosets, 2 shards merged"), "{out}");
    let report = std::fs::read_to_string(work.join("cluster.md")).unwrap();
    assert!(report.contains("4 finished of 4"), "{report}");
}
