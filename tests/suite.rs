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
