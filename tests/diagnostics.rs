//! Golden diagnostics: every `tests/diagnostics/NAME.rules` is checked and its rendered diagnostics
//! are compared with `NAME.out` next to it. `UPDATE_GOLDEN=1 cargo test --test diagnostics` rewrites
//! the `.out` files instead of comparing them.
//!
//! Each case states what it tests next to the source, in comments:
//! - `# expect: E0101` on a line of its own: the output names that code somewhere;
//! - `... # expect: E0101` after a clause: a diagnostic with that code points at that line.
//!
//! Files named `base-*.rules` are only ever reached through `extends` and have no `.out` of their own.
//! Paths are rendered relative to the workspace root, so the files are the same on every machine.

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use arbiter::check::check_file;
use arbiter::diag::render;

const DIR: &str = "tests/diagnostics";

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the interpreter crate sits in the workspace")
        .to_path_buf()
}

/// The cases: `.rules` files of the folder, except bases, sorted by name.
fn cases() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(DIR)
        .expect("tests/diagnostics exists")
        .filter_map(|e| e.ok())
        .filter_map(|e| e.file_name().to_str().map(str::to_owned))
        .filter_map(|n| n.strip_suffix(".rules").map(str::to_owned))
        .filter(|n| !n.starts_with("base-"))
        .collect();
    names.sort();
    names
}

/// Checks one case and renders its diagnostics as `arbiter check` prints them (without colour).
fn rendered(name: &str) -> Result<String, String> {
    let path = format!("{DIR}/{name}.rules");
    let checked = std::panic::catch_unwind(|| check_file(Path::new(&path), &[])).map_err(|e| {
        let msg = e
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()));
        format!("the checker panicked: {}", msg.unwrap_or_default())
    })?;
    let text = render(&checked.sources, &checked.diagnostics, false);
    // `extends` joins paths with the platform's separator; show them the same everywhere.
    Ok(if cfg!(windows) { text.replace('\\', "/") } else { text })
}

/// One `# expect:` annotation: the codes it names, and the line it is anchored to (when it
/// follows a clause rather than standing on a line of its own).
struct Expectation {
    line: usize,
    anchored: bool,
    codes: Vec<String>,
}

fn expectations(source: &str) -> Vec<Expectation> {
    let mut out = Vec::new();
    for (i, line) in source.lines().enumerate() {
        let Some(at) = line.find("# expect:") else {
            continue;
        };
        let codes = line[at + "# expect:".len()..]
            .split(|c: char| !c.is_ascii_alphanumeric())
            .filter(|w| w.len() == 5 && (w.starts_with('E') || w.starts_with('W')) && w[1..].chars().all(|c| c.is_ascii_digit()))
            .map(str::to_owned)
            .collect();
        out.push(Expectation {
            line: i + 1,
            anchored: !line[..at].trim().is_empty(),
            codes,
        });
    }
    out
}

/// `(code, file, line)` of every diagnostic in rendered output: `error[E0101]: ...` followed by
/// `--> file:line:col`.
fn reported(output: &str) -> Vec<(String, String, usize)> {
    let mut out = Vec::new();
    let mut code = None;
    for line in output.lines() {
        let t = line.trim_start();
        if let Some(rest) = t.strip_prefix("error[").or_else(|| t.strip_prefix("warning[")) {
            code = rest.split(']').next().map(str::to_owned);
        } else if let (Some(loc), Some(c)) = (t.strip_prefix("--> "), code.take()) {
            let mut parts = loc.rsplitn(3, ':');
            let (_col, line, file) = (parts.next(), parts.next(), parts.next());
            out.push((
                c,
                file.unwrap_or_default().to_owned(),
                line.and_then(|l| l.parse().ok()).unwrap_or(0),
            ));
        }
    }
    out
}

/// Problems with the annotations of one case.
fn check_annotations(name: &str, source: &str, output: &str) -> Vec<String> {
    let file = format!("{DIR}/{name}.rules");
    let found = reported(output);
    let exps = expectations(source);
    let mut problems = Vec::new();
    if exps.iter().all(|e| e.codes.is_empty()) {
        problems.push(format!("{file}: no `# expect: CODE` annotation says what this case tests"));
    }
    for e in &exps {
        for code in &e.codes {
            let ok = if e.anchored {
                found.iter().any(|(c, f, l)| c == code && *f == file && *l == e.line)
            } else {
                found.iter().any(|(c, _, _)| c == code)
            };
            if !ok {
                problems.push(if e.anchored {
                    format!(
                        "{file}:{}: expected a diagnostic {code} on this line, but none is reported there",
                        e.line
                    )
                } else {
                    format!("{file}:{}: expected a diagnostic {code}, but the output has none", e.line)
                });
            }
        }
    }
    problems
}

/// A line diff of `expected` and `actual` (`-` only in the expected file, `+` only in the output).
fn diff(expected: &str, actual: &str) -> String {
    let a: Vec<&str> = expected.lines().collect();
    let b: Vec<&str> = actual.lines().collect();
    // Longest common subsequence table, from the ends.
    let mut lcs = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for i in (0..a.len()).rev() {
        for j in (0..b.len()).rev() {
            lcs[i][j] = if a[i] == b[j] {
                lcs[i + 1][j + 1] + 1
            } else {
                lcs[i + 1][j].max(lcs[i][j + 1])
            };
        }
    }
    let mut out = String::new();
    let (mut i, mut j) = (0, 0);
    while i < a.len() || j < b.len() {
        if i < a.len() && j < b.len() && a[i] == b[j] {
            let _ = writeln!(out, "  {}", a[i]);
            i += 1;
            j += 1;
        } else if i < a.len() && (j == b.len() || lcs[i + 1][j] >= lcs[i][j + 1]) {
            let _ = writeln!(out, "- {}", a[i]);
            i += 1;
        } else {
            let _ = writeln!(out, "+ {}", b[j]);
            j += 1;
        }
    }
    if expected.ends_with('\n') != actual.ends_with('\n') {
        out.push_str("(the files differ in their final newline)\n");
    }
    out
}

#[test]
fn rendered_diagnostics_match_the_golden_files() {
    // Every path is given and rendered relative to the workspace root.
    std::env::set_current_dir(workspace_root()).expect("the workspace root is a directory");
    let update = std::env::var("UPDATE_GOLDEN").is_ok_and(|v| v == "1");
    let names = cases();
    assert!(names.len() >= 20, "expected the golden cases in {DIR}, found {}", names.len());

    let mut mismatches = Vec::new();
    let mut annotation_problems = Vec::new();
    for name in &names {
        let out_path = format!("{DIR}/{name}.out");
        let actual = match rendered(name) {
            Ok(t) => t,
            Err(e) => {
                mismatches.push(format!("{DIR}/{name}.rules: {e}"));
                continue;
            }
        };
        let source = std::fs::read_to_string(format!("{DIR}/{name}.rules")).expect("the case was just listed");
        annotation_problems.extend(check_annotations(name, &source, &actual));
        if update {
            std::fs::write(&out_path, &actual).unwrap_or_else(|e| panic!("cannot write {out_path}: {e}"));
            continue;
        }
        match std::fs::read_to_string(&out_path) {
            Ok(expected) if expected == actual => {}
            Ok(expected) => mismatches.push(format!("{out_path} does not match the output:\n{}", diff(&expected, &actual))),
            Err(_) => mismatches.push(format!("{out_path} is missing; the output is:\n{actual}")),
        }
    }

    // Golden files whose case is gone.
    let known: BTreeSet<&str> = names.iter().map(String::as_str).collect();
    for e in std::fs::read_dir(DIR).expect("tests/diagnostics exists").filter_map(|e| e.ok()) {
        let file = e.file_name().to_string_lossy().into_owned();
        if let Some(stem) = file.strip_suffix(".out")
            && !known.contains(stem)
        {
            mismatches.push(format!("{DIR}/{file} has no `{stem}.rules`; delete it"));
        }
    }

    let mut report = String::new();
    if !mismatches.is_empty() {
        let _ = writeln!(
            report,
            "{} golden file(s) differ (`-` expected, `+` actual; rerun with UPDATE_GOLDEN=1 to accept the output):\n",
            mismatches.len()
        );
        for m in &mismatches {
            let _ = writeln!(report, "{m}");
        }
    }
    if !annotation_problems.is_empty() {
        let _ = writeln!(report, "{} annotation(s) not met:", annotation_problems.len());
        for p in &annotation_problems {
            let _ = writeln!(report, "  {p}");
        }
    }
    assert!(report.is_empty(), "{report}");
}

#[test]
fn annotations_are_read_with_their_lines() {
    let src = "# expect: E0302\npiece King \"K\" { step any }  # expect: E0101, W0001\n";
    let e = expectations(src);
    assert_eq!(
        (e[0].line, e[0].anchored, e[0].codes.clone()),
        (1, false, vec!["E0302".to_string()])
    );
    assert_eq!(
        (e[1].line, e[1].anchored, e[1].codes.clone()),
        (2, true, vec!["E0101".to_string(), "W0001".to_string()])
    );
    let out = "error[E0101]: unknown piece `Knigt`\n  --> tests/diagnostics/x.rules:2:50\n   |\n";
    assert_eq!(
        reported(out),
        vec![("E0101".to_string(), "tests/diagnostics/x.rules".to_string(), 2)]
    );
}
