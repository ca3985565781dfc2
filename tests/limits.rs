//! Unbounded input meets bounded work: generated rulesets far larger than any real one are checked
//! in time that grows with their size, and a line full of errors prints a bounded report.
//!
//! The time bounds are generous on purpose (a debug build on a slow machine): each case took
//! minutes, or printed hundreds of megabytes, before its fix, and takes well under a second now.
//! Measured on this project's 2-core machine with `/usr/bin/time arbiter check FILE` (release /
//! debug binary): 30,000 chained zones 0.19 s / 0.47 s (81 s release before); 4,000 unknown zone
//! names among 4,000 zones 0.11 s / 0.13 s (12.7 s release before); one line of 5,000 unknown
//! names prints 13.6 KB in 0.01 s / 0.04 s.

use std::time::{Duration, Instant};

use arbiter::check::{Checked, check_source};
use arbiter::diag::{MAX_SHOWN, render};

use crate::common;

/// A bound no linear check comes near, even unoptimised; a quadratic one passes it by far.
const GENEROUS: Duration = Duration::from_secs(20);

/// Tic-tac-toe, a complete small ruleset to add generated items to.
fn base() -> String {
    std::fs::read_to_string(common::root().join("rulesets/tic-tac-toe.rules")).expect("the bundled ruleset")
}

/// Checks `text` and says how long it took.
fn timed_check(text: &str) -> (Checked, Duration) {
    let start = Instant::now();
    let checked = check_source("generated.rules", text, None, &[]);
    (checked, start.elapsed())
}

#[test]
fn thirty_thousand_chained_zones_check_in_linear_time() {
    let mut text = base();
    text.push_str("zone z_0 = a1\n");
    for i in 1..30_000 {
        text.push_str(&format!("zone z_{i} = z_{}\n", i - 1));
    }
    text.push_str("zone last = z_29999 + b2\n");
    let (checked, took) = timed_check(&text);
    assert!(took < GENEROUS, "30,000 chained zones took {took:?}");
    assert!(!checked.diagnostics.has_errors(), "{:?}", checked.diagnostics.items.first());
}

#[test]
fn thousands_of_unknown_names_among_thousands_of_zones_check_in_linear_time() {
    let mut text = base();
    for i in 0..5_000 {
        text.push_str(&format!("zone q_{i} = rank 2\n"));
    }
    for i in 0..5_000 {
        text.push_str(&format!("zone r_{i} = nope_{i}\n"));
    }
    let (checked, took) = timed_check(&text);
    assert!(took < GENEROUS, "5,000 unknown names took {took:?}");
    assert_eq!(checked.diagnostics.error_count(), 5_000);
}

#[test]
fn a_very_long_unknown_name_gets_no_suggestion_and_costs_little() {
    // The edit distance of two 40,000-character names would take 1.6 billion steps and 12 GB.
    let long = "n".repeat(40_000);
    let text = format!("{}zone {long}_a = a1\nzone other = {long}_b + {long}_a\n", base());
    let (checked, took) = timed_check(&text);
    assert!(took < GENEROUS, "took {took:?}");
    let unknown = checked
        .diagnostics
        .items
        .iter()
        .find(|d| d.message.starts_with("unknown zone"))
        .expect("the misspelt name is reported");
    assert!(!unknown.help.iter().any(|h| h.starts_with("did you mean")), "{:?}", unknown.help);
}

#[test]
fn one_line_with_five_thousand_errors_prints_a_bounded_report() {
    let refs: Vec<String> = (0..5_000).map(|i| format!("n_{i}")).collect();
    let text = format!("{}zone wide = {}\n", base(), refs.join(" + "));
    assert!(text.len() > 30_000);
    let (checked, took) = timed_check(&text);
    assert!(took < GENEROUS, "took {took:?}");
    assert_eq!(checked.diagnostics.error_count(), 5_000);
    let shown = render(&checked.sources, &checked.diagnostics, false);
    // The zone is never used, too: one warning first, then the errors.
    let (errors, warnings) = (shown.matches("error[E0101]").count(), shown.matches("warning[W0001]").count());
    assert_eq!((errors, warnings), (MAX_SHOWN - 1, 1), "{}", &shown[..2_000.min(shown.len())]);
    assert!(
        shown.contains("note: 4951 more not shown (4951 errors, 0 warnings)"),
        "{}",
        &shown[shown.len().saturating_sub(500)..]
    );
    // Fifty diagnostics of a few short lines each, the long line cut to a window.
    assert!(shown.len() < 50_000, "{} bytes", shown.len());
    assert!(shown.lines().all(|l| l.chars().count() < 200), "a line is not cut");
}

/// `check --json` gives each diagnostic's line and column: finding them must not scan the file
/// from its start for each of 200,000 errors on one line of 1.7 MB (44 s in a debug build before, when each was found by scanning from the file's start).
#[test]
fn lines_and_columns_of_two_hundred_thousand_errors_on_one_line_are_found_quickly() {
    let refs: Vec<String> = (0..200_000).map(|i| format!("n_{i}")).collect();
    let text = format!("{}zone wide = {}\n", base(), refs.join(" + "));
    let (checked, _) = timed_check(&text);
    let start = Instant::now();
    // Every one, as `check --json` does.
    let all: Vec<(usize, usize)> = checked
        .diagnostics
        .sorted()
        .iter()
        .map(|d| checked.sources.line_col(d.span.file, d.span.start))
        .collect();
    let took = start.elapsed();
    let last = *all.last().expect("diagnostics");
    assert!(took < GENEROUS, "took {took:?}");
    let line = text.lines().count();
    let col = text.lines().last().and_then(|l| l.find("n_199999")).expect("the last name") + 1;
    assert_eq!(last, (line, col));
}

/// The grammar has no nesting (blocks are one level deep, zone expressions are flat), so brackets
/// nested 100,000 deep are garbage lines to skip, not a recursion to overflow the stack.
#[test]
fn a_hundred_thousand_nested_brackets_are_a_syntax_error_not_a_crash() {
    for (open, close) in [("{", "}"), ("(", ")"), ("[", "]")] {
        let nested = format!("{}{}", open.repeat(100_000), close.repeat(100_000));
        for text in [
            format!("{}{nested}\n", base()),
            format!("{}piece Deep \"D\" {{ leap {nested} }}\n", base()),
            format!("{}zone deep = {nested}\n", base()),
        ] {
            let (checked, took) = timed_check(&text);
            assert!(took < GENEROUS, "took {took:?}");
            assert!(checked.diagnostics.has_errors(), "{open}: no error");
            let shown = render(&checked.sources, &checked.diagnostics, false);
            assert!(shown.contains("error[E0001]"), "{open}: {}", &shown[..shown.len().min(2_000)]);
            assert!(shown.len() < 50_000, "{open}: {} bytes", shown.len());
        }
    }
}
