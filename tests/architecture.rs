//! The library's layering, read from its source: every module refers only to modules at or below
//! its own layer, the files inside each folder refer to each other without circles, and no two
//! types in the crate share a name.
//!
//! Layers, bottom first: `sys` and `progress` (the operating system, progress reporting) →
//! `cube` → `rank` → `coord` → `pdb` → `search` → `solvers` → `stats`. The binary (`src/main.rs`,
//! `src/cli/`) sits on top and may use everything; `src/testing.rs` is a test-only helper.
//! References are `crate::NAME` paths in code (comments and `#[cfg(test)] mod tests` blocks
//! are skipped: a test may reach up to build what it checks against).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

const LAYERS: &[(&str, u8)] = &[
    ("sys", 0),
    ("progress", 0),
    ("cube", 1),
    ("rank", 2),
    ("coord", 3),
    ("pdb", 4),
    ("search", 5),
    ("solvers", 6),
    ("stats", 7),
];

fn layer(module: &str) -> Option<u8> {
    LAYERS.iter().find(|(m, _)| *m == module).map(|&(_, l)| l)
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The file's code lines (1-based line numbers), without comments and without the trailing
/// `#[cfg(test)] mod tests { … }` block.
fn code_lines(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let lines: Vec<&str> = text.lines().collect();
    for (i, line) in lines.iter().enumerate() {
        let t = line.trim_start();
        if t.starts_with("#[cfg(test)]")
            && lines
                .get(i + 1)
                .is_some_and(|n| n.trim_start().starts_with("mod tests"))
            && !line.starts_with(' ')
        {
            break;
        }
        if t.starts_with("//") {
            continue;
        }
        let code = match t.find("//") {
            Some(p) => &t[..p],
            None => t,
        };
        out.push((i + 1, code.to_string()));
    }
    out
}

/// Top-level names a line refers to with `crate::NAME`, including `crate::{A, B::c}` groups.
fn crate_refs(code: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = code;
    while let Some(p) = rest.find("crate::") {
        let before = &rest[..p];
        rest = &rest[p + "crate::".len()..];
        // `optcube::crate::` does not occur; skip `$crate::` of macros and `pub(crate)`.
        if before.ends_with('$') {
            continue;
        }
        if let Some(group) = rest.strip_prefix('{') {
            let end = group.find('}').unwrap_or(group.len());
            for item in group[..end].split(',') {
                let name: String = item
                    .trim()
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                if !name.is_empty() {
                    out.push(name);
                }
            }
        } else {
            let name: String = rest
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            out.push(name);
        }
    }
    out
}

struct Source {
    /// Path below `src/`, e.g. `pdb/phase1.rs`.
    rel: String,
    text: String,
}

fn library_sources() -> Vec<Source> {
    sources(false)
}

/// The files below `src/`; the binary's (`main.rs`, `cli/`) only `with_binary`.
fn sources(with_binary: bool) -> Vec<Source> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    files.sort();
    files
        .into_iter()
        .map(|p| Source {
            rel: p
                .strip_prefix(&src)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/"),
            text: std::fs::read_to_string(&p).unwrap(),
        })
        .filter(|s| with_binary || (!s.rel.starts_with("cli/") && s.rel != "main.rs"))
        .collect()
}

/// The top-level module a file belongs to (`None` for lib.rs and the test helper).
fn top_module(rel: &str) -> Option<String> {
    let first = rel.split('/').next().unwrap().trim_end_matches(".rs");
    (first != "lib" && first != "testing").then(|| first.to_string())
}

/// Every `crate::NAME` reference that points to a layer above the referring file's, as
/// `file:line: reference`.
fn upward_references(sources: &[Source]) -> Vec<String> {
    let mut bad = Vec::new();
    for s in sources {
        let Some(top) = top_module(&s.rel) else {
            continue;
        };
        let own = layer(&top).unwrap_or_else(|| {
            panic!(
                "src/{}: module `{top}` has no layer in tests/architecture.rs",
                s.rel
            )
        });
        for (n, code) in code_lines(&s.text) {
            for name in crate_refs(&code) {
                if name == "testing" {
                    continue;
                }
                if let Some(l) = layer(&name)
                    && l > own
                {
                    bad.push(format!(
                        "src/{}:{n}: `{top}` (layer {own}) refers to `crate::{name}` (layer {l})",
                        s.rel
                    ));
                }
            }
        }
    }
    bad
}

/// For each folder at any depth (`pdb/store`, `cli/stats`), the references between the files
/// and subfolders directly in it, and a circle among them if there is one. A file refers to a
/// sibling `x` as `super::x`, `crate::FOLDER::x`, or, where the parent module re-exports its
/// children's modules (`pdb` re-exports `store::file` as `pdb::file`), `crate::PARENT::x`.
fn folder_circles(sources: &[Source]) -> Vec<String> {
    let split = |rel: &str| -> (String, String) {
        let rel = rel.trim_end_matches(".rs");
        match rel.rsplit_once('/') {
            Some((folder, name)) => (folder.to_string(), name.to_string()),
            None => (String::new(), rel.to_string()),
        }
    };
    let mut folders: BTreeMap<String, BTreeMap<String, BTreeSet<String>>> = BTreeMap::new();
    for s in sources {
        let (folder, file) = split(&s.rel);
        if folder.is_empty() || file == "mod" {
            continue;
        }
        // The names directly in the folder: its files and its subfolders.
        let siblings: BTreeSet<String> = sources
            .iter()
            .filter_map(|o| {
                let rest = o.rel.strip_prefix(&folder)?.strip_prefix('/')?;
                let first = rest.split('/').next()?.trim_end_matches(".rs");
                (first != "mod").then(|| first.to_string())
            })
            .collect();
        let path = folder.replace('/', "::");
        let mut prefixes = vec!["super::".to_string(), format!("crate::{path}::")];
        if let Some((parent, _)) = path.rsplit_once("::") {
            prefixes.push(format!("crate::{parent}::"));
        }
        let edges = folders
            .entry(folder.clone())
            .or_default()
            .entry(file.clone())
            .or_default();
        for (_, code) in code_lines(&s.text) {
            for prefix in &prefixes {
                let mut rest = code.as_str();
                while let Some(p) = rest.find(prefix.as_str()) {
                    rest = &rest[p + prefix.len()..];
                    if prefix == "super::" && rest.starts_with("super::") {
                        // `super::super::x` is the parent folder's, not a sibling.
                        rest = rest.trim_start_matches("super::");
                        continue;
                    }
                    let names: Vec<String> = if let Some(g) = rest.strip_prefix('{') {
                        let end = g.find('}').unwrap_or(g.len());
                        g[..end]
                            .split(',')
                            .map(|i| {
                                i.trim()
                                    .chars()
                                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                                    .collect()
                            })
                            .collect()
                    } else {
                        vec![
                            rest.chars()
                                .take_while(|c| c.is_alphanumeric() || *c == '_')
                                .collect(),
                        ]
                    };
                    for n in names {
                        if n != file && siblings.contains(&n) {
                            edges.insert(n);
                        }
                    }
                }
            }
        }
    }
    let mut circles = Vec::new();
    for (folder, graph) in &folders {
        // Depth-first search for a back edge.
        fn visit(
            n: &str,
            g: &BTreeMap<String, BTreeSet<String>>,
            state: &mut BTreeMap<String, u8>,
            path: &mut Vec<String>,
        ) -> Option<Vec<String>> {
            match state.get(n) {
                Some(2) => return None,
                Some(1) => {
                    let start = path.iter().position(|p| p == n).unwrap();
                    let mut c = path[start..].to_vec();
                    c.push(n.to_string());
                    return Some(c);
                }
                _ => {}
            }
            state.insert(n.to_string(), 1);
            path.push(n.to_string());
            for m in g.get(n).into_iter().flatten() {
                if let Some(c) = visit(m, g, state, path) {
                    return Some(c);
                }
            }
            path.pop();
            state.insert(n.to_string(), 2);
            None
        }
        let mut state = BTreeMap::new();
        for n in graph.keys() {
            if let Some(c) = visit(n, graph, &mut state, &mut Vec::new()) {
                circles.push(format!("src/{folder}/: {}", c.join(" -> ")));
                break;
            }
        }
    }
    circles
}

/// Type names (`struct`, `enum`, `trait`, `union`, top-level `type`) declared more than once in
/// the whole crate, binary included, with where.
fn repeated_type_names() -> Vec<String> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    files.sort();
    let mut seen: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for p in files {
        let text = std::fs::read_to_string(&p).unwrap();
        let rel = p.strip_prefix(&src).unwrap().display().to_string();
        for (n, code) in code_lines(&text) {
            let mut words = code.split_whitespace().peekable();
            if words.peek().is_some_and(|w| w.starts_with("pub")) {
                words.next();
            }
            let Some(kind) = words.next() else { continue };
            // Associated types inside an impl or trait are indented: only top-level aliases count.
            let associated =
                kind == "type" && text.lines().nth(n - 1).is_some_and(|l| l.starts_with(' '));
            if !matches!(kind, "struct" | "enum" | "trait" | "union" | "type") || associated {
                continue;
            }
            let name: String = words
                .next()
                .unwrap_or("")
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            if !name.is_empty() {
                seen.entry(name).or_default().push(format!("src/{rel}:{n}"));
            }
        }
    }
    seen.into_iter()
        .filter(|(_, places)| places.len() > 1)
        .map(|(name, places)| format!("`{name}` at {}", places.join(", ")))
        .collect()
}

#[test]
fn no_module_refers_to_a_layer_above_it() {
    let bad = upward_references(&library_sources());
    assert!(bad.is_empty(), "upward references:\n{}", bad.join("\n"));
}

#[test]
fn files_in_a_folder_form_no_circle() {
    let circles = folder_circles(&sources(true));
    assert!(circles.is_empty(), "circles:\n{}", circles.join("\n"));
}

#[test]
fn no_two_types_share_a_name() {
    let repeated = repeated_type_names();
    assert!(
        repeated.is_empty(),
        "type names declared twice:\n{}",
        repeated.join("\n")
    );
}

/// The most code lines a file may hold: lines that are neither blank nor comments, a file's
/// trailing `#[cfg(test)] mod tests { … }` block not counted (a test file of its own is).
const MAX_CODE_LINES: usize = 600;

fn counted_lines(text: &str) -> usize {
    code_lines(text)
        .iter()
        .filter(|(_, c)| !c.trim().is_empty())
        .count()
}

/// The Rust files of the library, the binary, the tests, the benchmarks and the Python module
/// that hold more than [`MAX_CODE_LINES`] code lines, with their count.
fn long_files() -> Vec<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for dir in ["src", "tests", "benches", "python/src"] {
        rust_files(&root.join(dir), &mut files);
    }
    files.sort();
    files
        .into_iter()
        .filter_map(|p| {
            let n = counted_lines(&std::fs::read_to_string(&p).unwrap());
            (n > MAX_CODE_LINES).then(|| {
                let rel = p.strip_prefix(root).unwrap().display();
                format!("{rel}: {n} code lines")
            })
        })
        .collect()
}

/// No file is over 600 code lines: split a long one by subject.
#[test]
fn no_file_is_over_600_code_lines() {
    let long = long_files();
    assert!(long.is_empty(), "split these:\n{}", long.join("\n"));
}

/// The checks themselves can fail: an upward reference, a circle and a repeated name made up
/// here are each found.
#[test]
fn the_checks_find_what_they_look_for() {
    let up = vec![Source {
        rel: "cube/bad.rs".into(),
        text: "use crate::stats::distances;\nuse crate::{rank::x, sys};\n".into(),
    }];
    let found = upward_references(&up);
    assert_eq!(found.len(), 2, "{found:?}");
    assert!(found[0].starts_with("src/cube/bad.rs:1:"));

    let circle = vec![
        Source {
            rel: "pdb/a.rs".into(),
            text: "use super::b::X;\n".into(),
        },
        Source {
            rel: "pdb/b.rs".into(),
            text: "use crate::pdb::{a::Y};\n".into(),
        },
    ];
    assert_eq!(folder_circles(&circle).len(), 1);
    // In a nested folder, one side through the parent's re-export (`crate::pdb::a`).
    let nested = |second: &str| {
        vec![
            Source {
                rel: "pdb/store/a.rs".into(),
                text: "use super::b::X;\n".into(),
            },
            Source {
                rel: "pdb/store/b.rs".into(),
                text: second.into(),
            },
        ]
    };
    assert_eq!(folder_circles(&nested("use crate::pdb::a::Y;\n")).len(), 1);
    // `super::super::a` is the parent folder's `a`, not the sibling.
    assert!(folder_circles(&nested("use super::super::a::Y;\n")).is_empty());

    let in_tests = vec![Source {
        rel: "cube/ok.rs".into(),
        text: "// crate::stats\n#[cfg(test)]\nmod tests {\n    use crate::stats::x;\n}\n".into(),
    }];
    assert!(upward_references(&in_tests).is_empty());

    let text = "//! doc\nfn a() {}\n\n    // note\nfn b() {} // why\n#[cfg(test)]\nmod tests {\n    fn c() {}\n}\n";
    assert_eq!(counted_lines(text), 2);
}

/// The repository paths a document names in backticks (`results/…`, `src/…`, `docs/…`,
/// `scripts/…`, `benches/…`, `python/…`, `tests/…`) that do not exist. Paths with a wildcard
/// or a placeholder (`*`, `…`, capitals such as `SET`) name a family of files and are skipped.
fn missing_paths(text: &str) -> Vec<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut out = Vec::new();
    for (k, part) in text.split('`').enumerate() {
        if k % 2 == 0 || part.contains(char::is_whitespace) {
            continue;
        }
        let path = part.trim_end_matches([',', '.', ':', ';', ')']);
        let known = [
            "results/", "src/", "docs/", "scripts/", "benches/", "python/", "tests/",
        ];
        if !known.iter().any(|p| path.starts_with(p))
            || path.contains(['*', '…', '{', '<'])
            || (path.chars().any(|c| c.is_ascii_uppercase()) && !path.contains("README"))
        {
            continue;
        }
        if !root.join(path).exists() {
            out.push(path.to_string());
        }
    }
    out
}

/// The README is the front door: at most 12 KB, and every repository path it or a file of
/// `docs/` names exists; no link leaves the repository for a path outside it.
#[test]
fn documents_name_files_that_exist() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    assert!(
        readme.len() <= 12 * 1024,
        "README.md is {} bytes",
        readme.len()
    );
    let mut docs = vec![("README.md".to_string(), readme)];
    for e in std::fs::read_dir(root.join("docs")).unwrap() {
        let p = e.unwrap().path();
        // Pictures (the page's screenshot) are not documents.
        if p.extension().is_none_or(|x| x != "md") {
            continue;
        }
        docs.push((
            p.display().to_string(),
            std::fs::read_to_string(&p).unwrap(),
        ));
    }
    let mut bad = Vec::new();
    for (name, text) in &docs {
        bad.extend(
            missing_paths(text)
                .into_iter()
                .map(|p| format!("{name}: {p}")),
        );
        if text.contains("../") {
            bad.push(format!("{name}: a path outside the repository (../)"));
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
    assert_eq!(
        missing_paths("`results/no-such-file.md` and `src/lib.rs`"),
        ["results/no-such-file.md"]
    );
}
