//! "Can this side still win?" ([`Position::winnability`]) against positions labelled by an
//! independent source: `tests/positions/unwinnable.txt`, each line `LABEL | FEN`, where the label
//! says which players could still checkmate by some series of legal moves (`WB` both, `W-` only
//! white, `-B` only black, `--` neither: a dead position). The search may leave a side undecided
//! but never contradicts a label, and every winning line it reports is replayed to a win.

use crate::common;

use arbiter::game::{Bounds, Game, Position, Status, Winnability};
use arbiter::model::Side;
use common::root;

/// Plays `line` from `pos` and tells whether the game then stands won by `side`.
fn line_wins(pos: &Position, engine: &arbiter::game::Engine, line: &[arbiter::game::Move], side: Side) -> bool {
    let mut game = Game::new(engine.clone(), pos.clone());
    for &m in line {
        if !game.current().legal_moves().contains(&m) || game.outcome().status != Status::Ongoing {
            eprintln!("stopped before {m:?} at {}: {:?}", game.current().fen(), game.outcome());
            return false;
        }
        game.play(m);
    }
    let o = game.outcome();
    o.status == Status::Win && o.winner == Some(side)
}

#[test]
fn the_search_never_contradicts_the_labels_and_decides_most() {
    let path = std::env::var("UNWINNABLE_CASES").map_or_else(|_| root().join("tests/positions/unwinnable.txt"), Into::into);
    let data = std::fs::read_to_string(&path).expect("the cases file");
    let engine = common::bundled("chess");
    let (mut asked, mut decided, mut dead_found, mut dead_total) = (0, 0, 0, 0);
    let mut nodes = 0u64;
    for line in data.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')) {
        let fields: Vec<&str> = line.split('|').map(str::trim).collect();
        let [label, fen, ..] = fields[..] else {
            panic!("`{line}`: expected LABEL | FEN");
        };
        let fen = if fen.split_whitespace().count() == 4 {
            format!("{fen} 0 1")
        } else {
            fen.to_string()
        };
        let pos = match engine.from_fen(&fen) {
            Ok(p) => p,
            Err(e) if std::env::var("UNWINNABLE_CASES").is_ok() => {
                eprintln!("skipped {fen}: {e}");
                continue;
            }
            Err(e) => panic!("{fen}: {e}"),
        };
        let mut both_cannot = true;
        for (side, letter) in [(Side::FIRST, 'W'), (Side::SECOND, 'B')] {
            let can = label.contains(letter);
            let answer = pos.winnability(side, Bounds::FULL);
            nodes += answer.nodes;
            asked += 1;
            match &answer.verdict {
                Winnability::CannotWin(how) => {
                    assert!(!can, "{fen}: labelled {label}, but the search proves {letter} cannot win ({how:?})");
                    decided += 1;
                }
                Winnability::CanWin(l) => {
                    assert!(can, "{fen}: labelled {label}, but the search found a win for {letter}: {l:?}");
                    assert!(
                        line_wins(&pos, &engine, l, side),
                        "{fen}: the line for {letter} does not end in its win"
                    );
                    decided += 1;
                    both_cannot = false;
                }
                Winnability::Unknown => both_cannot = false,
            }
        }
        // The ruleset as a whole: a dead position is drawn at once, by a pattern or by the search.
        let game = Game::new(engine.clone(), pos.clone());
        let o = game.outcome();
        let drawn_dead = o.status == Status::Draw && matches!(o.reason.as_deref(), Some("insufficient-material" | "dead-position"));
        if std::env::var("UNWINNABLE_CASES").is_ok() {
            let said: Vec<String> = [Side::FIRST, Side::SECOND]
                .iter()
                .map(|&s| format!("{:?}", pos.winnability(s, Bounds::FULL).verdict).chars().take(24).collect())
                .collect();
            eprintln!("{label} {fen}: {said:?} game {:?}", o.reason);
        }
        if label == "--" {
            dead_total += 1;
            dead_found += drawn_dead as u32;
        } else {
            assert!(!drawn_dead, "{fen}: labelled {label}, but the game calls it dead ({:?})", o.reason);
        }
        if both_cannot {
            assert!(
                drawn_dead || o.status != Status::Ongoing,
                "{fen}: both sides proved unable to win, but the game goes on"
            );
        }
    }
    eprintln!("{decided} of {asked} questions decided; {dead_found} of {dead_total} dead positions drawn; {nodes} nodes");
    assert!(asked >= 80, "only {asked} questions read");
    assert!(decided * 2 >= asked, "only {decided} of {asked} questions decided");
}
