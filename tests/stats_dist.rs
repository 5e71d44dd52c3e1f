//! End-to-end tests of `optcube stats distances | heuristic | plot` and `solve --predict`.

mod common;

use common::{optcube, optcube_json, scratch, stderr, stdout};
use std::sync::OnceLock;

/// The edges6a table (the smallest), built once by the CLI into the scratch directory.
fn pdb_dir() -> &'static str {
    static DIR: OnceLock<String> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = scratch().join("edges6a-pdb");
        let d = dir.to_str().unwrap();
        let o = optcube(&[
            "pdb",
            "build",
            "--set",
            "edges6a",
            "--dir",
            d,
            "--threads",
            "2",
        ]);
        assert!(o.status.success(), "build failed: {}", stderr(&o));
        d.to_string()
    })
}

/// Depths 0..=5 match the published counts (Rokicki et al., cube20.org) over classes under the
/// 48 symmetries and inversion (the default), over classes under the 48 symmetries (whose
/// counts are Bryan's) and over whole positions; the note names the command and the peak
/// memory; the CSV plots.
#[test]
fn distances_to_depth_5_match_published() {
    let positions = ["1", "18", "243", "3240", "43239", "574908"];
    let bryan = ["1", "2", "9", "75", "934", "12077"];
    for reduce in ["sym-inv", "sym", "none"] {
        let csv = scratch().join(format!("distances-{reduce}.csv"));
        let o = optcube(&[
            "stats",
            "distances",
            "--max-depth",
            "5",
            "--reduce",
            reduce,
            "--out",
            csv.to_str().unwrap(),
            "--threads",
            "2",
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
        let text = std::fs::read_to_string(&csv).unwrap();
        let rows: Vec<Vec<&str>> = text.lines().map(|l| l.split(',').collect()).collect();
        assert_eq!(rows[0], ["depth", "count", "classes"]);
        assert_eq!(rows.len(), 7, "{text}");
        for d in 0..6 {
            assert_eq!(rows[d + 1][0], d.to_string());
            assert_eq!(rows[d + 1][1], positions[d], "{reduce}: {text}");
            match reduce {
                "sym" => assert_eq!(rows[d + 1][2], bryan[d], "{text}"),
                "none" => assert_eq!(rows[d + 1][2], positions[d], "{text}"),
                _ => {
                    let classes: u64 = rows[d + 1][2].parse().unwrap();
                    let sym: u64 = bryan[d].parse().unwrap();
                    assert!(classes <= sym && 2 * classes >= sym, "{text}");
                }
            }
        }
        let md = std::fs::read_to_string(csv.with_extension("md")).unwrap();
        assert!(md.contains("stats distances --max-depth 5"), "{md}");
        assert!(md.contains("peak resident memory"), "{md}");
        assert!(!md.contains("NO"), "{md}");
        assert!(stderr(&o).contains("depth  5"), "{}", stderr(&o));
    }

    let csv = scratch().join("distances-sym.csv");
    let svg = scratch().join("distances.svg");
    let o = optcube(&[
        "stats",
        "plot",
        csv.to_str().unwrap(),
        "--out",
        svg.to_str().unwrap(),
        "--title",
        "Distances",
        "--log",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let s = std::fs::read_to_string(&svg).unwrap();
    // Two series (positions, classes) of six depths.
    assert_eq!(s.matches(r#"class="bar""#).count(), 12);
    assert!(s.contains("Distances"));
}

/// A depth whose search cannot fit in memory is refused before any work, with the estimate;
/// so is one past the published counts the class estimate needs, and one past 20.
#[test]
fn distances_refuses_what_does_not_fit() {
    for (depth, reduce) in [("10", "sym-inv"), ("9", "none")] {
        let o = optcube(&[
            "stats",
            "distances",
            "--max-depth",
            depth,
            "--reduce",
            reduce,
            "--out",
            "/nonexistent/x.csv",
        ]);
        assert_eq!(o.status.code(), Some(2));
        let e = stderr(&o);
        assert!(e.contains("MB") && e.contains("MemAvailable"), "{e}");
        // A class search is told that the last layer can go through disk.
        assert_eq!(e.contains("--spill"), reduce != "none", "{e}");
    }
    let o = optcube(&[
        "stats",
        "distances",
        "--max-depth",
        "5",
        "--reduce",
        "none",
        "--spill",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--reduce sym"), "{}", stderr(&o));
    let o = optcube(&["stats", "distances", "--max-depth", "12"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("no published count"), "{}", stderr(&o));
    let o = optcube(&["stats", "distances", "--max-depth", "21"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("20"), "{}", stderr(&o));
}

/// A count to a lesser depth than the one in `--out` is refused (the committed
/// `results/distances.csv` holds depth 10) unless `--force` is given; the file is unchanged.
#[test]
fn distances_never_replace_a_deeper_count() {
    let csv = scratch().join("deeper.csv");
    let deeper = "depth,count,classes\n0,1,1\n1,18,2\n2,243,8\n3,3240,48\n";
    std::fs::write(&csv, deeper).unwrap();
    let out = csv.to_str().unwrap();
    let o = optcube(&["stats", "distances", "--max-depth", "2", "--out", out]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("holds counts to depth 3") && stderr(&o).contains("--force"),
        "{}",
        stderr(&o)
    );
    assert_eq!(std::fs::read_to_string(&csv).unwrap(), deeper);
    let o = optcube(&[
        "stats",
        "distances",
        "--max-depth",
        "2",
        "--out",
        out,
        "--force",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = std::fs::read_to_string(&csv).unwrap();
    assert!(text.lines().last().unwrap().starts_with("2,"), "{text}");
}

/// The last layer counted through disk in many chunk files gives the published counts; the
/// note says how, and the chunk directory is gone afterwards.
#[test]
fn distances_through_disk_match_published() {
    let dir = scratch().join("spill");
    // An output's directory is never made for the user (issue 104): it is there first.
    std::fs::create_dir_all(&dir).unwrap();
    let csv = dir.join("d.csv");
    let o = optcube(&[
        "stats",
        "distances",
        "--max-depth",
        "6",
        "--spill",
        "--chunk-parents",
        "300",
        "--out",
        csv.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = std::fs::read_to_string(&csv).unwrap();
    let last = text.lines().last().unwrap();
    assert_eq!(last, "6,7618438,80178");
    let md = std::fs::read_to_string(dir.join("d.md")).unwrap();
    assert!(
        md.contains("through disk") && md.contains("21 chunk files"),
        "{md}"
    );
    assert!(stderr(&o).contains("chunk 21/21"), "{}", stderr(&o));
    assert!(!dir.join("d.spill").exists());
}

#[test]
fn plot_rejects_a_bad_csv() {
    let csv = scratch().join("bad.csv");
    std::fs::write(&csv, "depth,count\n0,1\n1,x8\n").unwrap();
    let o = optcube(&["stats", "plot", csv.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    let e = stderr(&o);
    assert!(
        e.contains("bad.csv:3") && e.contains("column 2") && e.contains("x8"),
        "{e}"
    );
    let o = optcube(&["stats", "plot", "/nonexistent/none.csv"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("/nonexistent/none.csv"));
}

/// With one table the maximum is that table; the means are printed; same seed, same CSV.
#[test]
fn heuristic_distribution_of_one_table() {
    let out = scratch().join("h.csv");
    let run = || {
        optcube(&[
            "stats",
            "heuristic",
            "--samples",
            "3000",
            "--seed",
            "4",
            "--set",
            "edges6a",
            "--pdb-dir",
            pdb_dir(),
            "--dual",
            "--out",
            out.to_str().unwrap(),
        ])
    };
    let o = run();
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("mean"));
    let csv = std::fs::read_to_string(&out).unwrap();
    let mut lines = csv.lines();
    assert_eq!(lines.next(), Some("value,edges6a,max,max_dual"));
    let (mut total, mut dual_total) = (0u64, 0u64);
    for l in lines {
        let v: Vec<u64> = l.split(',').map(|x| x.parse().unwrap()).collect();
        assert_eq!(v[1], v[2], "{l}");
        total += v[1];
        dual_total += v[3];
    }
    assert_eq!((total, dual_total), (3000, 3000));
    assert!(run().status.success());
    assert_eq!(std::fs::read_to_string(&out).unwrap(), csv);
    let md = std::fs::read_to_string(out.with_extension("md")).unwrap();
    assert!(md.contains("--samples 3000 --seed 4"), "{md}");
}

/// `solve --predict`: every iteration has a prediction and a ratio, in text and JSON.
#[test]
fn solve_predict_reports_every_iteration() {
    let scramble = "R U F' L2 D B'";
    let base = [
        "solve",
        scramble,
        "--set",
        "edges6a",
        "--pdb-dir",
        pdb_dir(),
        "--no-upper-bound",
        "--threads",
        "1",
        "--predict",
    ];
    let o = optcube(&base);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(text.contains("measured/predicted"), "{text}");
    assert!(text.contains("stopped at the solution"), "{text}");
    let mut json_args = base.to_vec();
    json_args.push("--json");
    let (v, _) = optcube_json(&json_args);
    let its = v["iterations"].as_array().unwrap();
    assert!(!its.is_empty());
    for it in its {
        let p = it["predicted_nodes"].as_f64().unwrap();
        let n = it["nodes"].as_f64().unwrap();
        assert!(p >= 1.0);
        assert!((it["ratio"].as_f64().unwrap() - n / p).abs() < 1e-6 * (n / p));
    }
    let o = optcube(&["solve", scramble, "--solver", "twophase", "--predict"]);
    assert_eq!(o.status.code(), Some(2));
}

/// The slice-turn metric through the command line: the published counts (Rokicki,
/// forum.cubeman.org) through depth 5, said to match in the note; the axial metric (no
/// published counts) gives 45 positions at one move and says there is nothing to compare.
#[test]
fn slice_and_axial_distances_through_the_cli() {
    let csv = scratch().join("distances-stm.csv");
    let o = optcube(&[
        "stats",
        "distances",
        "--metric",
        "stm",
        "--max-depth",
        "5",
        "--out",
        csv.to_str().unwrap(),
        "--threads",
        "2",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = std::fs::read_to_string(&csv).unwrap();
    let counts: Vec<&str> = text
        .lines()
        .skip(1)
        .map(|l| l.split(',').nth(1).unwrap())
        .collect();
    assert_eq!(
        counts,
        ["1", "27", "501", "9175", "164900", "2912447"],
        "{text}"
    );
    let md = std::fs::read_to_string(csv.with_extension("md")).unwrap();
    assert!(
        md.contains("(STM)") && md.contains("forum.cubeman.org"),
        "{md}"
    );
    assert!(
        !md.contains("NO") && md.contains("| 5 | 2912447 | 2912447 |"),
        "{md}"
    );

    let csv = scratch().join("distances-atm.csv");
    let o = optcube(&[
        "stats",
        "distances",
        "--metric",
        "atm",
        "--max-depth",
        "2",
        "--out",
        csv.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = std::fs::read_to_string(&csv).unwrap();
    assert!(text.contains("\n1,45,"), "{text}");
    let md = std::fs::read_to_string(csv.with_extension("md")).unwrap();
    assert!(md.contains("none known to us"), "{md}");
}
