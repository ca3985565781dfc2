//! The sandbox's integration tests, one binary with a module a file (each file says what it
//! tests): Bevy and the library are linked into it once rather than once a file. Run one file's
//! with its module's name, as `cargo test -p sandbox --test suite logic::`.

mod common;

mod cli;
mod clocks;
mod editor;
mod export;
mod logic;
mod nav;
mod players;
mod pointer;
mod reload;
mod rooms;
mod screenshot;
mod shell;
mod turns;
mod window;

/// Every file of `tests/` runs as a module of this binary: with the manifest's `autotests` off, a
/// file left out of it would be compiled and run by nothing.
#[test]
fn every_test_file_is_a_module_here() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let suite = std::fs::read_to_string(dir.join("suite.rs")).expect("tests/suite.rs reads");
    let mut seen = 0;
    for entry in std::fs::read_dir(&dir).expect("tests/ is a folder") {
        let name = entry.expect("an entry").file_name().into_string().expect("a UTF-8 name");
        let Some(name) = name.strip_suffix(".rs").filter(|n| *n != "suite") else {
            continue;
        };
        assert!(
            suite.lines().any(|l| l == format!("mod {name};")),
            "tests/{name}.rs is not a module of tests/suite.rs: nothing runs it"
        );
        seen += 1;
    }
    assert!(seen > 10, "{seen} test files");
}
