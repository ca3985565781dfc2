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
