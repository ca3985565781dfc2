//! Perft counts from data files: `tests/perft/<ruleset>.txt`, one position per line with
//! `; depth count` pairs. Every count is checked; a wrong one names the position and depth.

mod common;

use common::root;

fn run(ruleset: &str) {
    let engine = common::bundled(ruleset);
    let data = std::fs::read_to_string(root().join(format!("tests/perft/{ruleset}.txt"))).expect("perft data file");
    let mut checked_counts = 0;
    for line in data.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')) {
        let mut parts = line.split(';').map(str::trim);
        let fen = parts.next().expect("a FEN first");
        let pos = engine.from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        for p in parts {
            let (d, n) = p.split_once(' ').expect("`depth count`");
            let (d, n): (u32, u64) = (d.parse().expect("depth"), n.trim().parse().expect("count"));
            assert_eq!(pos.perft(d), n, "perft({d}) of {fen}");
            checked_counts += 1;
        }
    }
    assert!(checked_counts > 0, "no perft data for {ruleset}");
}

#[test]
fn chess_perft_matches_published_counts() {
    run("chess");
}

#[test]
fn xiangqi_perft_matches_published_counts() {
    run("xiangqi");
}
