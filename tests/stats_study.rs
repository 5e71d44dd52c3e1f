//! End-to-end tests of the length study (`optcube stats lengths`, `optcube stats summarize`):
//! resuming after a kill and a half-written line, shards merged equal to one run, Ctrl-C, and
//! the refusals (bad `--shard`, a file of another study, a position found twice). The `korf6`
//! tables are built once by the CLI into a temporary directory; the positions are short random
//! scrambles (`--moves`), solved in milliseconds.

mod common;

use common::{korf6_dir, optcube_in, stderr, stdout, test_dir};
use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// `stats lengths --set korf6 --threads 1` of `count` positions of `seed` (`moves`-move
/// scrambles, or random positions), plus `extra`.
fn lengths_args<'a>(
    moves: Option<&'a str>,
    count: &'a str,
    seed: &'a str,
    extra: &[&'a str],
) -> Vec<&'a str> {
    let mut v = vec!["stats", "lengths"];
    if let Some(m) = moves {
        v.extend(["--moves", m]);
    }
    v.extend([
        "--count",
        count,
        "--seed",
        seed,
        "--set",
        "korf6",
        "--threads",
        "1",
    ]);
    v.extend_from_slice(extra);
    v
}

/// The test study plus `extra`: 12 random 12-move scrambles of seed 11, about 1 s of search in
/// all with korf6 (long enough to be killed in the middle).
fn study_args<'a>(extra: &[&'a str]) -> Vec<&'a str> {
    lengths_args(Some("12"), "12", "11", extra)
}

/// `optcube stats summarize --out-dir OUT_DIR --name s FILES...` in `dir`.
fn summarize(dir: &Path, out_dir: &str, files: &[&str]) -> Output {
    let mut a = vec!["stats", "summarize", "--out-dir", out_dir, "--name", "s"];
    a.extend_from_slice(files);
    optcube_in(dir, &a)
}

/// The JSON lines of a study file, each checked to be one complete JSON object.
fn lines(path: &Path) -> Vec<serde_json::Value> {
    let text = std::fs::read_to_string(path).unwrap();
    assert!(
        text.is_empty() || text.ends_with('\n'),
        "{}: last line incomplete",
        path.display()
    );
    text.lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{l}: {e}")))
        .collect()
}

/// index → (input, length) of a study file; panics on a repeated index.
fn by_index(path: &Path) -> BTreeMap<u64, (String, u64)> {
    let mut m = BTreeMap::new();
    for v in lines(path) {
        let i = v["index"].as_u64().unwrap();
        let entry = (
            v["input"].as_str().unwrap().to_string(),
            v["length"].as_u64().unwrap(),
        );
        assert!(m.insert(i, entry).is_none(), "index {i} twice in {path:?}");
    }
    m
}

/// Another study than the reference's (2 random 3-move scrambles of the same seed), solved
/// into `dir/other.jsonl`.
fn other_study(dir: &Path) -> PathBuf {
    let other = dir.join("other.jsonl");
    let o = optcube_in(
        dir,
        &lengths_args(
            Some("3"),
            "2",
            "11",
            &["--pdb-dir", korf6_dir(), "--out", other.to_str().unwrap()],
        ),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    other
}

/// The study solved in one uninterrupted run.
fn reference() -> &'static Path {
    static REF: OnceLock<PathBuf> = OnceLock::new();
    REF.get_or_init(|| {
        let dir = test_dir("reference");
        let out = dir.join("ref.jsonl");
        let o = optcube_in(
            &dir,
            &study_args(&["--pdb-dir", korf6_dir(), "--out", out.to_str().unwrap()]),
        );
        assert!(o.status.success(), "{}", stderr(&o));
        assert!(
            stdout(&o).starts_with("12 positions finished; none missing"),
            "{}",
            stdout(&o)
        );
        let m = by_index(&out);
        assert_eq!(
            m.keys().copied().collect::<Vec<_>>(),
            (0..12).collect::<Vec<_>>()
        );
        for v in lines(&out) {
            let len = v["length"].as_u64().unwrap();
            assert!(
                (1..=12).contains(&len),
                "a 12-move scramble solved in {len}"
            );
            assert_eq!(v["optimal"], true);
            assert_eq!(v["moves"], 12);
            assert_eq!(v["seed"], 11);
            assert_eq!(v["count"], 12);
            assert_eq!(v["set"], "korf6");
        }
        out
    })
}

#[test]
fn resume_after_kill_and_half_line_equals_uninterrupted_run() {
    let want = by_index(reference());
    let dir = test_dir("resume");
    let out = dir.join("study.jsonl");
    let args = study_args(&["--pdb-dir", korf6_dir(), "--out", out.to_str().unwrap()]);
    let mut child = Command::new(env!("CARGO_BIN_EXE_optcube"))
        .args(&args)
        .current_dir(&dir)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let start = Instant::now();
    while std::fs::read_to_string(&out).map_or(0, |t| t.lines().count()) < 2 {
        assert!(
            start.elapsed() < Duration::from_secs(120),
            "no lines appear"
        );
        std::thread::sleep(Duration::from_millis(2));
    }
    child.kill().unwrap(); // SIGKILL
    let status = child.wait().unwrap();
    let mut text = std::fs::read_to_string(&out).unwrap();
    let kept = text.lines().count();
    if status.success() || kept == 12 {
        // The run finished before the kill: keep the first 4 lines as if it had been killed.
        eprintln!("note: the run finished before SIGKILL; cutting its file to 4 lines");
        text = text.lines().take(4).map(|l| format!("{l}\n")).collect();
    } else {
        eprintln!("killed after {kept} finished lines");
    }
    text.push_str("{\"index\":"); // a line cut in the middle of writing
    std::fs::write(&out, &text).unwrap();

    let o = optcube_in(&dir, &args);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains("half-written"), "{}", stderr(&o));
    assert!(stderr(&o).contains("resuming"), "{}", stderr(&o));
    assert!(
        stdout(&o).starts_with("12 positions finished; none missing"),
        "{}",
        stdout(&o)
    );
    // Every index once, nothing lost, the same positions and lengths as the reference.
    assert_eq!(by_index(&out), want);
    // A third run has nothing to do and leaves the file as it is.
    let before = std::fs::read(&out).unwrap();
    let o = optcube_in(&dir, &args);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(std::fs::read(&out).unwrap(), before);
}

#[test]
fn shards_summarize_to_the_unsharded_summary() {
    let dir = test_dir("shards");
    let mut files = Vec::new();
    for k in 0..3 {
        let shard = format!("{k}/3");
        // Default output file, relative to the working directory.
        let o = optcube_in(
            &dir,
            &study_args(&["--pdb-dir", korf6_dir(), "--shard", &shard]),
        );
        assert!(o.status.success(), "{}", stderr(&o));
        assert!(
            stdout(&o).starts_with(&format!(
                "4 positions finished of shard {shard}; none missing"
            )),
            "{}",
            stdout(&o)
        );
        let f = dir.join(format!("results/lengths-seed11-moves12-shard{k}of3.jsonl"));
        let m = by_index(&f);
        assert!(m.keys().all(|i| i % 3 == k), "{m:?}");
        assert_eq!(m.len(), 4);
        files.push(f.to_str().unwrap().to_string());
    }
    let shards: Vec<&str> = files.iter().map(String::as_str).collect();
    let merged = summarize(&dir, "merged", &shards);
    assert!(merged.status.success(), "{}", stderr(&merged));
    let single = summarize(&dir, "single", &[reference().to_str().unwrap()]);
    assert!(single.status.success(), "{}", stderr(&single));
    let csv = |d: &str| std::fs::read_to_string(dir.join(d).join("s-lengths.csv")).unwrap();
    assert_eq!(csv("merged"), csv("single"));
    // The CSV is the reference's length distribution.
    let mut counts = BTreeMap::<u64, u64>::new();
    for (_, len) in by_index(reference()).values() {
        *counts.entry(*len).or_default() += 1;
    }
    let mut want = String::from("length,count,fraction\n");
    for (l, n) in &counts {
        want += &format!("{l},{n},{:.6}\n", *n as f64 / 12.0);
    }
    assert_eq!(csv("merged"), want);
    let md = std::fs::read_to_string(dir.join("merged/s.md")).unwrap();
    assert!(md.contains("optcube stats summarize"), "{md}");
    assert!(md.contains("12 finished of 12; none missing"), "{md}");
    assert!(md.contains("| all | 12 | 1.0000 |"), "{md}");
    assert!(md.contains("| `korf6` | 1 | false | 12 |"), "{md}");
    // Scrambles of a few moves are not random positions: no comparison with the published
    // distribution of random positions.
    assert!(!md.contains("Against the published distribution"), "{md}");
    // The table on stdout has the same rows (from the same summary code); the md's cost
    // table (rows of a set, "| `korf6` |") is not on stdout.
    let table_rows = |s: &str| -> Vec<String> {
        s.lines()
            .filter(|l| {
                l.starts_with("| ") && !l.starts_with("| `") && !l.starts_with("| table set")
            })
            .map(|l| l.split(" | ").take(3).collect::<Vec<_>>().join(" | "))
            .collect()
    };
    assert_eq!(table_rows(&stdout(&merged)), table_rows(&md));
    assert_eq!(table_rows(&stdout(&merged)), table_rows(&stdout(&single)));

    // Two shards of three: the third shard's positions are reported missing.
    let part = summarize(&dir, "part", &shards[..2]);
    assert!(part.status.success(), "{}", stderr(&part));
    assert!(
        stdout(&part).starts_with("8 positions finished; 4 missing (indices 2, 5, 8, 11)"),
        "{}",
        stdout(&part)
    );
}

#[test]
fn ctrl_c_stops_the_search_without_writing_a_line() {
    stop_signal_ends_cleanly(libc::SIGINT, "ctrl-c");
}

/// SIGTERM (how a batch scheduler ends a job at its time limit) stops a study the same way.
#[test]
fn sigterm_stops_the_search_without_writing_a_line() {
    stop_signal_ends_cleanly(libc::SIGTERM, "sigterm");
}

fn stop_signal_ends_cleanly(signal: i32, name: &str) {
    let dir = test_dir(name);
    let out = dir.join("random.jsonl");
    // Random positions: korf6 needs far longer than this test for one of them.
    let args = lengths_args(
        None,
        "3",
        "5",
        &["--pdb-dir", korf6_dir(), "--out", out.to_str().unwrap()],
    );
    let (status, out_text, err) = common::signal_after(
        &dir,
        &args,
        "solving 3 positions",
        Duration::from_millis(300),
        signal,
    );
    assert_eq!(status.code(), Some(130), "{err}");
    assert!(err.contains("interrupted"), "{err}");
    assert!(
        out_text.starts_with("0 positions finished; 3 missing"),
        "{}",
        out_text
    );
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "");
}

#[test]
fn bad_shard_is_refused() {
    let dir = test_dir("bad-shard");
    for (shard, why) in [
        ("3/2", "K must be below N"),
        ("x/2", "\"x\" is not a whole number"),
        ("1/0", "N must be at least 1"),
        ("2", "not K/N"),
    ] {
        let o = optcube_in(&dir, &study_args(&["--shard", shard]));
        assert_eq!(o.status.code(), Some(2), "{shard}: {}", stderr(&o));
        assert!(stderr(&o).contains("--shard"), "{shard}: {}", stderr(&o));
        assert!(stderr(&o).contains(why), "{shard}: {}", stderr(&o));
    }
    assert!(
        std::fs::read_dir(&dir).unwrap().next().is_none(),
        "nothing written"
    );
}

#[test]
fn other_studies_and_repeated_positions_are_refused() {
    let dir = test_dir("foreign");
    let reference = reference().to_str().unwrap();
    let theirs = dir.join("theirs.jsonl");
    std::fs::copy(reference, &theirs).unwrap();
    let theirs = theirs.to_str().unwrap();
    // Another seed into a file of seed 11: refused before any table is needed.
    let args = lengths_args(
        Some("12"),
        "12",
        "12",
        &["--out", theirs, "--pdb-dir", "/nonexistent"],
    );
    let o = optcube_in(&dir, &args);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let e = stderr(&o);
    assert!(e.contains(&format!("{theirs}:1:")), "{e}");
    assert!(e.contains("another study"), "{e}");
    // Another shard's file is refused too.
    let o = optcube_in(
        &dir,
        &study_args(&[
            "--out",
            theirs,
            "--pdb-dir",
            "/nonexistent",
            "--shard",
            "0/2",
        ]),
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("not in shard 0/2"), "{}", stderr(&o));
    assert_eq!(
        std::fs::read_to_string(theirs).unwrap(),
        std::fs::read_to_string(reference).unwrap()
    );

    // summarize: the same positions twice.
    let o = summarize(&dir, "o", &[reference, theirs]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains(&format!(
            "{theirs}:1: position 0 appears twice (first at {reference}:1)"
        )),
        "{}",
        stderr(&o)
    );
    // summarize: a study of 3-move scrambles beside the 12-move one.
    let other = other_study(&dir);
    let o = summarize(&dir, "o", &[reference, other.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("another study"), "{}", stderr(&o));
    assert!(stderr(&o).contains("3-move scrambles"), "{}", stderr(&o));
    // A damaged solution in the middle of a file is named by line.
    let damaged = dir.join("damaged.jsonl");
    let text = std::fs::read_to_string(reference).unwrap();
    let mut ls: Vec<String> = text.lines().map(String::from).collect();
    let mut v: serde_json::Value = serde_json::from_str(&ls[4]).unwrap();
    v["solution"] = "U".into();
    ls[4] = v.to_string();
    let mut f = std::fs::File::create(&damaged).unwrap();
    for l in &ls {
        writeln!(f, "{l}").unwrap();
    }
    drop(f);
    let o = summarize(&dir, "o", &[damaged.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("damaged.jsonl:5: invalid record"),
        "{}",
        stderr(&o)
    );
    assert!(!dir.join("o").exists(), "nothing written on refusal");
}

/// A study goes on with another table set: the resumed run keeps the finished positions,
/// solves the rest with the new set (recorded per line), the lengths equal the reference's,
/// and summarize reports the cost of each set.
#[test]
fn a_study_goes_on_with_another_table_set() {
    let dir = test_dir("other-set");
    let file = dir.join("mixed.jsonl");
    let text = std::fs::read_to_string(reference()).unwrap();
    let first: String = text.lines().take(5).map(|l| format!("{l}\n")).collect();
    std::fs::write(&file, first).unwrap();
    let f = file.to_str().unwrap();
    let args: Vec<&str> = study_args(&["--pdb-dir", korf6_dir(), "--out", f])
        .into_iter()
        .map(|a| if a == "korf6" { "corners,edges6a" } else { a })
        .collect();
    let o = optcube_in(&dir, &args);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("5 positions already finished"),
        "{}",
        stderr(&o)
    );
    assert_eq!(by_index(&file), by_index(reference()));
    let sets: Vec<String> = lines(&file)
        .iter()
        .map(|v| v["set"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(sets[..5], ["korf6"; 5]);
    assert_eq!(sets[5..], ["corners,edges6a"; 7]);
    let o = summarize(&dir, "o", &[f]);
    assert!(o.status.success(), "{}", stderr(&o));
    let md = std::fs::read_to_string(dir.join("o/s.md")).unwrap();
    assert!(md.contains("table set `corners,edges6a`/`korf6`"), "{md}");
    assert!(md.contains("| `korf6` | 1 | false | 5 |"), "{md}");
    assert!(md.contains("| `corners,edges6a` | 1 | false | 7 |"), "{md}");
}

/// `summarize --against`: a second run of the same positions is set beside the first. Equal
/// lengths give a report saying so; a longer solution of one position (valid, not optimal) is
/// refused naming the position, and so is a run of another study; nothing is written then.
#[test]
fn summarize_against_another_run() {
    let dir = test_dir("against");
    let reference = reference().to_str().unwrap();
    let text = std::fs::read_to_string(reference).unwrap();
    let again = dir.join("again.jsonl");
    std::fs::write(&again, &text).unwrap();
    let again = again.to_str().unwrap();
    let against = |out: &str, other: &str| {
        optcube_in(
            &dir,
            &[
                "stats",
                "summarize",
                "--out-dir",
                out,
                "--name",
                "s",
                reference,
                "--against",
                other,
            ],
        )
    };
    let o = against("same", again);
    assert!(o.status.success(), "{}", stderr(&o));
    let md = std::fs::read_to_string(dir.join("same/s.md")).unwrap();
    assert!(
        md.contains(&format!("## Against `{again}` (table set `korf6`)")),
        "{md}"
    );
    assert!(
        md.contains("**Their optimal lengths agree on all 12.**"),
        "{md}"
    );
    assert!(md.contains("median 1.00"), "{md}");

    let mut ls: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let length = ls[3]["length"].as_u64().unwrap();
    ls[3]["solution"] = format!("{} U U'", ls[3]["solution"].as_str().unwrap()).into();
    ls[3]["length"] = (length + 2).into();
    let longer = dir.join("longer.jsonl");
    let body: String = ls.iter().map(|v| format!("{v}\n")).collect();
    std::fs::write(&longer, body).unwrap();
    let o = against("differ", longer.to_str().unwrap());
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let e = stderr(&o);
    assert!(e.contains("differ from --against"), "{e}");
    assert!(
        e.contains(&format!(
            "position 3: {length} moves here, {} there",
            length + 2
        )),
        "{e}"
    );
    assert!(!dir.join("differ").exists(), "nothing written on refusal");

    let other = other_study(&dir);
    let o = against("foreign", other.to_str().unwrap());
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("another study"), "{}", stderr(&o));
    assert!(!dir.join("foreign").exists(), "nothing written on refusal");
}

/// `stats lengths --count-solutions`: each line's `optimal_solutions` is the number of
/// canonical optimal sequences a brute-force enumeration finds for its position; `summarize`
/// reports their distribution (table, CSV, chart).
#[test]
fn solution_counts_are_recorded_and_summarized() {
    use optcube::cube::Cube;
    use optcube::search::brute::Ball;
    let dir = test_dir("count-solutions");
    let file = dir.join("counted.jsonl");
    let f = file.to_str().unwrap();
    let args = lengths_args(
        Some("9"),
        "8",
        "5",
        &["--pdb-dir", korf6_dir(), "--out", f, "--count-solutions"],
    );
    let o = optcube_in(&dir, &args);
    assert!(o.status.success(), "{}", stderr(&o));
    let ball = Ball::new(5);
    let records = lines(&file);
    assert_eq!(records.len(), 8);
    // (Short scrambles mostly have one optimal solution: the library's test covers many.)
    for r in &records {
        let cube = Cube::from_facelets(r["input"].as_str().unwrap()).unwrap();
        let len = r["length"].as_u64().unwrap() as u8;
        let want = ball.all_solutions(&cube, len).len() as u64;
        assert_eq!(r["optimal_solutions"].as_u64(), Some(want), "{r}");
    }
    let o = summarize(&dir, "o", &[f]);
    assert!(o.status.success(), "{}", stderr(&o));
    let md = std::fs::read_to_string(dir.join("o/s.md")).unwrap();
    assert!(md.contains("## Number of optimal solutions"), "{md}");
    assert!(md.contains("counted for 8 of the 8 positions"), "{md}");
    let csv = std::fs::read_to_string(dir.join("o/s-solutions.csv")).unwrap();
    assert!(csv.starts_with("optimal solutions,"), "{csv}");
    let svg = std::fs::read_to_string(dir.join("o/s-solutions.svg")).unwrap();
    assert!(svg.contains("<svg"));
    assert!(stdout(&o).contains("optimal solutions per position:"));
}
