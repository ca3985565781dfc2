//! How long the language server takes from an edit to its diagnostics: checking the whole text
//! and turning every problem into the protocol's shape, for each bundled ruleset (the budget is
//! 50 ms), and for a file of 30,000 declarations. `cargo bench -p arbiter --bench lsp`; after
//! criterion's report, each ruleset's mean is printed beside the budget.

use std::path::Path;
use std::time::Duration;

use criterion::{BenchmarkId, Criterion};

const BUDGET_MS: f64 = 50.0;

fn rulesets() -> Vec<(String, String, String)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../rulesets");
    let mut out: Vec<(String, String, String)> = std::fs::read_dir(&dir)
        .expect("rulesets/")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "rules"))
        .map(|p| {
            let name = p.file_stem().expect("a name").to_string_lossy().to_string();
            let text = std::fs::read_to_string(&p).expect("a ruleset reads");
            (name, format!("file://{}", p.display()), text)
        })
        .collect();
    out.sort();
    out
}

/// Chess with 30,000 more zone declarations, each used nowhere: 30,000 warnings to check, place
/// and publish.
fn large() -> (String, String) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../rulesets");
    let mut text = std::fs::read_to_string(dir.join("chess.rules")).expect("chess.rules");
    for i in 0..30_000 {
        text.push_str(&format!("zone area_{i} = rank {}\n", i % 8 + 1));
    }
    (format!("file://{}", dir.join("large.rules").display()), text)
}

fn edits(c: &mut Criterion) {
    let mut g = c.benchmark_group("lsp-diagnostics");
    g.sample_size(20)
        .measurement_time(Duration::from_secs(2))
        .warm_up_time(Duration::from_millis(500));
    for (name, uri, text) in rulesets() {
        g.bench_function(BenchmarkId::from_parameter(&name), |b| {
            b.iter(|| arbiter::lsp::diagnostics_after_edit(&uri, &text))
        });
    }
    g.finish();
    let (uri, text) = large();
    let mut g = c.benchmark_group("lsp-diagnostics-large");
    g.sample_size(10)
        .measurement_time(Duration::from_secs(5))
        .warm_up_time(Duration::from_millis(500));
    g.bench_function(BenchmarkId::from_parameter("30000-zones"), |b| {
        b.iter(|| arbiter::lsp::diagnostics_after_edit(&uri, &text))
    });
    g.finish();
}

/// criterion's mean for one benchmark, in milliseconds.
fn mean_ms(group: &str, id: &str) -> Option<f64> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../target/criterion")
        .join(group)
        .join(id)
        .join("new/estimates.json");
    let v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(path).ok()?).ok()?;
    Some(v["mean"]["point_estimate"].as_f64()? / 1e6)
}

fn main() {
    let mut c = Criterion::default().configure_from_args();
    edits(&mut c);
    c.final_summary();
    println!("\nfrom an edit to its diagnostics (budget {BUDGET_MS} ms):");
    let mut worst: f64 = 0.0;
    for (name, _, _) in rulesets() {
        if let Some(ms) = mean_ms("lsp-diagnostics", &name) {
            worst = worst.max(ms);
            println!("  {name:<20} {ms:>8.2} ms");
        }
    }
    println!(
        "  slowest bundled ruleset: {worst:.2} ms, {}",
        if worst <= BUDGET_MS {
            "within the budget"
        } else {
            "OVER the budget"
        }
    );
    if let Some(ms) = mean_ms("lsp-diagnostics-large", "30000-zones") {
        println!("  30,000 declarations:     {ms:>8.2} ms");
    }
}
