//! The interpreter's integration tests, one binary with a module a file (each file says what it
//! tests): the library's inlined code they call is compiled and linked once rather than once a
//! file, and their tests share one pool of threads. Run one file's with its module's name, as
//! `cargo test --test suite go::`. Apart from it: `memory.rs` (counts with an allocator of its
//! own), `diagnostics.rs` (runs from the workspace root) and `fuzz.rs` (run alone for long runs).

mod common;

mod chance;
mod chase;
mod cli;
mod clocks;
mod compare;
mod differential;
mod engines;
mod games;
mod go;
mod language;
mod limits;
mod lsp;
mod manual;
mod oracles;
mod perft;
mod pgn;
mod positions;
mod records;
mod referee;
mod roundtrip;
mod scenarios;
mod simulate;
mod slurm;
mod tournament;
mod unwinnable;
mod variants;
mod wxf;
mod xiangqi;

/// Every file of `tests/` runs: as a module of this binary, or as a binary of its own named in the
/// interpreter's manifest — a file in neither would be compiled and run by nothing.
#[test]
fn every_test_file_is_a_module_here_or_a_binary_of_its_own() {
    let dir = common::root().join("tests");
    let read = |p: &std::path::Path| std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
    let suite = read(&dir.join("suite.rs"));
    let manifest = read(&common::root().join("interpreter/Cargo.toml"));
    let mut files: Vec<String> = std::fs::read_dir(&dir)
        .expect("tests/ is a folder")
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter_map(|n| Some(n.strip_suffix(".rs")?.to_string()))
        .filter(|n| n != "suite")
        .collect();
    files.sort();
    assert!(files.len() > 20, "{files:?}");
    for name in files {
        let module = suite.lines().any(|l| l == format!("mod {name};"));
        let binary = manifest.contains(&format!("path = \"../tests/{name}.rs\""));
        assert!(
            module != binary,
            "tests/{name}.rs must be a module of tests/suite.rs or a [[test]] of interpreter/Cargo.toml, not {}",
            if module { "both" } else { "neither" }
        );
    }
}
