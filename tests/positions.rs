//! Positions no game could reach are refused for any ruleset, naming the rule they break; positions
//! a game could reach are accepted. The cases are data: `tests/positions/impossible.txt`.

use crate::common;

use common::root;

#[test]
fn impossible_positions_are_refused_and_possible_ones_accepted() {
    let data = std::fs::read_to_string(root().join("tests/positions/impossible.txt")).expect("the cases file");
    let mut cases = 0;
    for line in data.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')) {
        let fields: Vec<&str> = line.split('|').map(str::trim).collect();
        let [ruleset, fen, says] = fields[..] else {
            panic!("`{line}`: expected RULESET | FEN | MESSAGE");
        };
        let engine = common::bundled(ruleset);
        match (engine.from_fen(fen), says) {
            (Ok(_), "") => {}
            (Ok(_), _) => panic!("{ruleset} {fen}: accepted, but it should be refused with `{says}`"),
            (Err(e), "") => panic!("{ruleset} {fen}: refused ({e}), but a game can reach it"),
            (Err(e), _) => assert!(e.to_string().contains(says), "{ruleset} {fen}: `{e}` does not say `{says}`"),
        }
        cases += 1;
    }
    assert!(cases >= 20, "only {cases} cases read");
}

/// Every position of a few plies from each bundled setup is accepted: the check never refuses
/// what play reaches.
#[test]
fn positions_reached_by_play_are_accepted() {
    for name in [
        "chess",
        "xiangqi",
        "draughts",
        "breakthrough",
        "crazyhouse",
        "othello",
        "connect-four",
        "antichess",
        "clobber",
        "duck-chess",
        "isolation",
    ] {
        let engine = common::bundled(name);
        let mut frontier = vec![engine.start()];
        for _ in 0..3 {
            let mut next = Vec::new();
            for pos in &frontier {
                for m in pos.legal_moves() {
                    let mut p = pos.clone();
                    p.play_unchecked(m);
                    if let Err(e) = engine.from_fen(&p.fen()) {
                        panic!("{name}: {} was reached by play but refused: {e}", p.fen());
                    }
                    next.push(p);
                }
            }
            // Keep the tree small: every 7th position goes on, and at most about 200 (a turn of
            // several parts has hundreds of choices).
            let step = (next.len() / 200).max(7);
            frontier = next.into_iter().step_by(step).collect();
        }
    }
}
/// A Turkish king that takes a man on its first leg and ends on that man's square: the text names
/// every landing (`d8d5f5f7d7`), and each of the two routes reads back as itself.
#[test]
fn a_capture_ending_where_it_took_a_piece_is_written_by_its_landings() {
    let e = common::bundled("turkish-draughts");
    let p = e
        .from_fen("3K4/mmmmm2M/1m3mm1/m1M1m3/1M4M1/MM1MM3/M1MMMMMM/8 w - - 3 11")
        .expect("a position");
    let texts: Vec<String> = p
        .legal_moves()
        .into_iter()
        .map(|m| arbiter::notation::uci::to_text(&p, m))
        .collect();
    assert_eq!(texts, ["d8d5f5f7d7", "d8d5g5g7d7"]);
    for (m, t) in p.legal_moves().into_iter().zip(&texts) {
        assert_eq!(arbiter::notation::uci::find(&p, t), Some(m), "{t}");
    }
}
