//! End-to-end tests of the traps of the second probe (issue 104) outside goals, move sets and
//! cosets: a known lower bound the search cannot check, output paths that are not regular
//! files, and the small ones of the text and JSON. Each fails if its trap reopens. Small tables
//! only (`korf6`, built by the CLI once per test process).

mod common;

use common::{korf6_dir, optcube, optcube_json, stderr, stdout, test_dir};
use std::os::unix::fs::{FileTypeExt, OpenOptionsExt};
use std::path::Path;

const SIX: &str = "R U F' L2 D B";

/// Trap 1: a known lower bound above the depth limit (or the metric's diameter) is refused
/// before any table is read, in the text, JSON, `--all` and QTM alike. On 2988f2d each printed
/// "no solution of <= 20 moves exists (lower bound 25)", exit 3: a false proof.
#[test]
fn a_known_lower_bound_the_search_cannot_check_is_refused() {
    let cases: [&[&str]; 5] = [
        &["--known-lower-bound", "25"],
        &["--known-lower-bound", "21", "--json"],
        &["--known-lower-bound", "21", "--all"],
        &["--known-lower-bound", "15", "--max-depth", "12"],
        &["--known-lower-bound", "27", "--metric", "qtm"],
    ];
    for extra in cases {
        let args = [
            &["solve", SIX, "--set", "korf6", "--pdb-dir", korf6_dir()][..],
            extra,
        ]
        .concat();
        let o = optcube(&args);
        assert_eq!(o.status.code(), Some(2), "{extra:?}: {}", stdout(&o));
        let err = stderr(&o);
        assert!(err.contains("--known-lower-bound"), "{extra:?}: {err}");
        assert!(
            !stdout(&o).contains("lower bound"),
            "{extra:?}: {}",
            stdout(&o)
        );
    }
    // Within the limit it is used, and the true answer comes out (here it holds: 6).
    let (v, _) = optcube_json(&[
        "solve",
        SIX,
        "--set",
        "korf6",
        "--pdb-dir",
        korf6_dir(),
        "--json",
        "--known-lower-bound",
        "6",
        "--no-upper-bound",
    ]);
    assert_eq!(
        (v["length"].as_u64(), v["optimal"].as_bool()),
        (Some(6), Some(true))
    );
}

/// Makes a character device like /dev/null (1, 3) at `path` where this process may (root, as
/// in CI); else a link to /dev/null stands in for it. Returns whether a device was made.
fn null_device(path: &Path) -> bool {
    let c = std::ffi::CString::new(path.as_os_str().as_encoded_bytes()).unwrap();
    // SAFETY: a valid C string; mknod has no other preconditions.
    let made = unsafe { libc::mknod(c.as_ptr(), libc::S_IFCHR | 0o666, libc::makedev(1, 3)) } == 0;
    if !made {
        std::os::unix::fs::symlink("/dev/null", path).unwrap();
    }
    made
}

/// Trap 2: `show --svg` and `stats distances --out` given a device, a FIFO or a symbolic link
/// write through it and leave it as it was; a missing directory is refused, not created. On
/// 2988f2d each was replaced by a regular file (as root, /dev/null itself).
#[test]
fn output_paths_that_are_devices_fifos_or_links_are_left_as_they_were() {
    let dir = test_dir("special-outputs");
    let null = dir.join("null");
    let made = null_device(&null);
    let fifo = dir.join("fifo");
    let c = std::ffi::CString::new(fifo.as_os_str().as_encoded_bytes()).unwrap();
    // SAFETY: a valid C string.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
    let file = dir.join("drawing.svg");
    std::fs::write(&file, "old").unwrap();
    let link = dir.join("link.svg");
    std::os::unix::fs::symlink("drawing.svg", &link).unwrap();
    // The FIFO's reader, opened first (read-write, so that neither open blocks) and read
    // once the writer is gone: what the pipe holds then is what went through it.
    let mut reader = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(&fifo)
        .unwrap();
    for path in [&null, &fifo, &link] {
        let o = optcube(&["show", "R U", "--svg", path.to_str().unwrap()]);
        assert!(o.status.success(), "{}: {}", path.display(), stderr(&o));
    }
    let mut through = Vec::new();
    let _ = std::io::Read::read_to_end(&mut reader, &mut through);
    assert!(
        String::from_utf8_lossy(&through).contains("<svg"),
        "nothing came through the FIFO"
    );
    let ty = |p: &Path| std::fs::symlink_metadata(p).unwrap().file_type();
    assert!(if made {
        ty(&null).is_char_device()
    } else {
        ty(&null).is_symlink()
    });
    assert!(ty(&fifo).is_fifo() && ty(&link).is_symlink());
    assert!(std::fs::read_to_string(&file).unwrap().contains("<svg"));
    // stats distances --out through a link: the CSV lands at the target, the link stays.
    let csv = dir.join("d.csv");
    let out = dir.join("d-link.csv");
    std::os::unix::fs::symlink(&csv, &out).unwrap();
    let o = optcube(&[
        "stats",
        "distances",
        "--max-depth",
        "2",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(ty(&out).is_symlink());
    assert!(std::fs::read_to_string(&csv).unwrap().contains("2,243"));
    // A directory that does not exist is refused before the work, and not made.
    let missing = dir.join("no").join("such.csv");
    for args in [
        vec![
            "stats",
            "distances",
            "--max-depth",
            "2",
            "--out",
            missing.to_str().unwrap(),
        ],
        vec!["show", "R", "--svg", missing.to_str().unwrap()],
    ] {
        let o = optcube(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(stderr(&o).contains("does not exist"), "{}", stderr(&o));
    }
    assert!(!dir.join("no").exists());
}

/// The small ones: a count of one is singular ("1 move"), and a search too short to time has
/// no rate (`nodes_per_second` null, not a billion).
#[test]
fn one_is_singular_and_no_rate_is_made_up() {
    let o = optcube(&[
        "solve",
        "R",
        "--set",
        "korf6",
        "--pdb-dir",
        korf6_dir(),
        "--no-upper-bound",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("(1 move, optimal)"), "{}", stdout(&o));
    let solved = "UUUUUUUUURRRRRRRRRFFFFFFFFFDDDDDDDDDLLLLLLLLLBBBBBBBBB";
    let (v, _) = optcube_json(&[
        "solve",
        "--facelets",
        solved,
        "--set",
        "korf6",
        "--pdb-dir",
        korf6_dir(),
        "--json",
    ]);
    assert_eq!(v["length"].as_u64(), Some(0));
    assert!(v["nodes_per_second"].is_null(), "{v}");
}
