//! The manual's examples (rulesets/README.md) are what the language reads: every block marked
//! `rules` is a whole ruleset that checks without an error or a warning, and every block marked
//! `rules-items` reads without a diagnostic (a line `…` stands for clauses left out). A manual
//! whose examples the grammar refuses fails here.

use arbiter::check::check_source;
use arbiter::diag::{Diagnostics, Sources, render};
use arbiter::syntax::parse_file;

use crate::common;

/// The fenced blocks of the manual with the given info string: (first line number, text).
fn blocks(manual: &str, tag: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut open: Option<(usize, String)> = None;
    for (i, line) in manual.lines().enumerate() {
        match &mut open {
            None if line.strip_prefix("```") == Some(tag) => open = Some((i + 2, String::new())),
            None => {}
            Some(_) if line.starts_with("```") => out.extend(open.take()),
            Some((_, text)) => {
                if line.trim() != "…" {
                    text.push_str(line);
                }
                text.push('\n');
            }
        }
    }
    out
}

fn manual() -> String {
    std::fs::read_to_string(common::root().join("rulesets/README.md")).expect("the manual exists")
}

#[test]
fn every_whole_ruleset_in_the_manual_checks_clean() {
    let manual = manual();
    let found = blocks(&manual, "rules");
    assert!(found.len() >= 5, "the manual's whole rulesets were not found: {}", found.len());
    for (line, text) in found {
        let c = check_source(&format!("README.md:{line}"), &text, None, &[]);
        assert!(
            c.diagnostics.items.is_empty(),
            "the example at rulesets/README.md line {line} does not check clean:\n{}",
            render(&c.sources, &c.diagnostics, false)
        );
    }
}

#[test]
fn every_fragment_in_the_manual_reads() {
    let manual = manual();
    let found = blocks(&manual, "rules-items");
    assert!(found.len() >= 10, "the manual's fragments were not found: {}", found.len());
    for (line, text) in found {
        let mut sources = Sources::default();
        let file = sources.add(format!("README.md:{line}"), text.clone());
        let mut diags = Diagnostics::default();
        parse_file(&text, file, &mut diags);
        assert!(
            diags.items.is_empty(),
            "the example at rulesets/README.md line {line} does not read:\n{}",
            render(&sources, &diags, false)
        );
    }
}

/// Every fenced block of the manual is marked, so none escapes the two tests above unnoticed.
#[test]
fn every_block_of_the_manual_says_what_it_is() {
    let manual = manual();
    let mut inside = false;
    for (i, line) in manual.lines().enumerate() {
        if let Some(tag) = line.strip_prefix("```") {
            if !inside {
                assert!(
                    ["rules", "rules-items", "sh"].contains(&tag),
                    "rulesets/README.md line {}: a block marked `{tag}`: mark it `rules`, `rules-items` or `sh`",
                    i + 1
                );
            }
            inside = !inside;
        }
    }
}
