//! Xiangqi, rule by rule: each test sets up a position that isolates one movement or end rule of
//! the Chinese Xiangqi Association's rules (as rulesets/RULES.md states them) and checks what `rulesets/xiangqi.rules` makes of it.

use std::collections::BTreeSet;

use arbiter::game::{Engine, Game, Position, Ruling, Status};
use arbiter::model::Side;
use arbiter::notation::uci;

use crate::common;

fn engine(params: &[(&str, &str)]) -> Engine {
    common::engine("rulesets/xiangqi.rules", params)
}

use common::{xiangqi_fen as fen, xiangqi_pos as pos};

/// Where the piece on `from` may legally go.
fn targets(p: &Position, from: &str) -> BTreeSet<String> {
    p.legal_moves()
        .into_iter()
        .map(|m| uci::to_text(p, m))
        .filter(|m| m.starts_with(from) && !m[from.len()..].starts_with(|c: char| c.is_ascii_digit()))
        .map(|m| m[from.len()..].to_string())
        .collect()
}

fn set(v: &[&str]) -> BTreeSet<String> {
    v.iter().map(|s| s.to_string()).collect()
}

const KINGS: [(&str, &str); 2] = [("K", "d1"), ("k", "f10")];

fn with_kings<'a>(extra: &[(&'a str, &'a str)]) -> Vec<(&'a str, &'a str)> {
    let mut v: Vec<(&str, &str)> = KINGS.to_vec();
    v.extend_from_slice(extra);
    v
}

#[test]
fn the_horse_is_blocked_by_its_leg() {
    let free = pos(&with_kings(&[("N", "e5")]), "w");
    assert_eq!(targets(&free, "e5"), set(&["c4", "c6", "d3", "d7", "f3", "f7", "g4", "g6"]));
    // A piece on e6 (either side's) blocks the two leaps that start northward.
    let blocked = pos(&with_kings(&[("N", "e5"), ("p", "e6")]), "w");
    assert_eq!(targets(&blocked, "e5"), set(&["c4", "c6", "d3", "f3", "g4", "g6"]));
    let blocked_west = pos(&with_kings(&[("N", "e5"), ("C", "d5")]), "w");
    assert_eq!(targets(&blocked_west, "e5"), set(&["d3", "d7", "f3", "f7", "g4", "g6"]));
}

#[test]
fn the_elephant_is_blocked_by_its_eye_and_stays_home() {
    let p = pos(&with_kings(&[("B", "e3")]), "w");
    assert_eq!(targets(&p, "e3"), set(&["c1", "c5", "g1", "g5"]));
    let eye = pos(&with_kings(&[("B", "e3"), ("n", "d4")]), "w");
    assert_eq!(targets(&eye, "e3"), set(&["c1", "g1", "g5"]));
    // From the river bank it may not cross: c5 → a7 / e7 are on black's side.
    let bank = pos(&with_kings(&[("B", "c5")]), "w");
    assert_eq!(targets(&bank, "c5"), set(&["a3", "e3"]));
    // Black's elephant is mirrored: it stays on ranks 6-10.
    let black = pos(&with_kings(&[("b", "c6")]), "b");
    assert_eq!(targets(&black, "c6"), set(&["a8", "e8"]));
}

#[test]
fn advisors_and_generals_stay_in_the_palace() {
    let p = pos(&[("K", "e1"), ("k", "f10"), ("A", "e2")], "w");
    assert_eq!(targets(&p, "e2"), set(&["d1", "d3", "f1", "f3"]));
    let corner = pos(&[("K", "e1"), ("k", "f10"), ("A", "d1")], "w");
    assert_eq!(targets(&corner, "d1"), set(&["e2"]));
    let g = pos(&[("K", "d1"), ("k", "f10")], "w");
    assert_eq!(targets(&g, "d1"), set(&["d2", "e1"]));
}

#[test]
fn the_cannon_needs_exactly_one_screen_to_capture() {
    // No screen: it slides, but cannot take the chariot on e8.
    let zero = pos(&[("K", "d1"), ("k", "f10"), ("C", "e3"), ("r", "e8")], "w");
    let t = targets(&zero, "e3");
    assert!(t.contains("e7") && !t.contains("e8"), "{t:?}");
    // One screen (either side's): it takes the chariot, and cannot move past the screen.
    let one = pos(&[("K", "d1"), ("k", "f10"), ("C", "e3"), ("p", "e5"), ("r", "e8")], "w");
    let t = targets(&one, "e3");
    assert!(
        t.contains("e8") && t.contains("e4") && !t.contains("e6") && !t.contains("e5"),
        "{t:?}"
    );
    // Two screens: no capture.
    let two = pos(
        &[("K", "d1"), ("k", "f10"), ("C", "e3"), ("p", "e5"), ("P", "e6"), ("r", "e8")],
        "w",
    );
    assert!(!targets(&two, "e3").contains("e8"));
    // With two screens before the general, neither may leave the file: one screen would be a check.
    let pinned = pos(&[("K", "e1"), ("k", "f10"), ("N", "e4"), ("P", "e5"), ("c", "e7")], "w");
    assert!(targets(&pinned, "e4").is_empty(), "the horse may not leave the file");
    assert_eq!(targets(&pinned, "e5"), set(&["e6"]), "the soldier stays a screen");
    // With one screen the general is in check, and moving the screen away answers it.
    let check = pos(&[("K", "e1"), ("k", "f10"), ("N", "e4"), ("c", "e7")], "w");
    assert!(check.in_check());
    assert!(targets(&check, "e4").contains("c5"));
}

#[test]
fn soldiers_move_sideways_only_after_the_river_and_never_back() {
    let home = pos(&with_kings(&[("P", "e4")]), "w");
    assert_eq!(targets(&home, "e4"), set(&["e5"]));
    let crossed = pos(&with_kings(&[("P", "e6")]), "w");
    assert_eq!(targets(&crossed, "e6"), set(&["d6", "e7", "f6"]));
    let black_home = pos(&with_kings(&[("p", "c7")]), "b");
    assert_eq!(targets(&black_home, "c7"), set(&["c6"]));
    let black_crossed = pos(&with_kings(&[("p", "c5")]), "b");
    assert_eq!(targets(&black_crossed, "c5"), set(&["b5", "c4", "d5"]));
    let last = pos(&with_kings(&[("P", "a10")]), "w");
    assert_eq!(targets(&last, "a10"), set(&["b10"]), "at the far edge only sideways remains");
}

#[test]
fn the_chariot_slides_until_a_piece() {
    let p = pos(&with_kings(&[("R", "a1"), ("n", "a4"), ("N", "c1")]), "w");
    assert_eq!(targets(&p, "a1"), set(&["a2", "a3", "a4", "b1"]));
}

#[test]
fn generals_may_not_face_each_other() {
    // The horse on e5 is the only piece between the generals: it may not leave the file.
    let p = pos(&[("K", "e1"), ("k", "e10"), ("N", "e5")], "w");
    assert!(targets(&p, "e5").is_empty());
    match p.explain("e5d7") {
        Ruling::Illegal(i) => {
            assert_eq!(i.code, "royals-facing");
            assert_eq!(i.clause.as_deref(), Some("CXA 2.2"));
            assert!(i.message.contains("e1") && i.message.contains("e10"), "{}", i.message);
        }
        other => panic!("e5d7 should be illegal, got {other:?}"),
    }
    // A general may not step onto the open file of the other.
    let g = pos(&[("K", "d1"), ("k", "e10")], "w");
    assert_eq!(targets(&g, "d1"), set(&["d2"]));
}

fn play(g: &mut Game, moves: &[&str]) {
    for m in moves {
        let mv = uci::find(g.current(), m).unwrap_or_else(|| panic!("{m} is not legal in {}", g.current().fen()));
        g.play(mv);
    }
}

#[test]
fn checkmate_loses() {
    let e = engine(&[]);
    // The chariot on a9 holds rank 9, the red general holds the f-file, the other chariot checks.
    let start = e
        .from_fen(&fen(&[("K", "f1"), ("k", "e10"), ("R", "a9"), ("R", "b1")], "w"))
        .expect("fen");
    let mut g = Game::new(e, start);
    play(&mut g, &["b1b10"]);
    let o = g.outcome();
    assert_eq!(
        (o.status, o.winner, o.reason.as_deref(), o.result()),
        (Status::Win, Some(Side::FIRST), Some("checkmate"), Some("1-0"))
    );
}

#[test]
fn stalemate_loses_for_the_side_that_cannot_move() {
    let e = engine(&[]);
    // Black general on d10, not in check; d9 is covered by the chariot, e10 would face the red general.
    let start = e.from_fen(&fen(&[("K", "e1"), ("k", "d10"), ("R", "a2")], "w")).expect("fen");
    let mut g = Game::new(e, start);
    play(&mut g, &["a2a9"]);
    assert!(!g.current().in_check());
    let o = g.outcome();
    assert_eq!(
        (o.status, o.winner, o.reason.as_deref()),
        (Status::Win, Some(Side::FIRST), Some("stalemate"))
    );
    assert_eq!(o.clause.as_deref(), Some("CXA 3.2"));
}

#[test]
fn perpetual_check_loses_on_the_third_occurrence() {
    let e = engine(&[]);
    let start = e
        .from_fen(&fen(&[("K", "f1"), ("k", "e10"), ("R", "a8"), ("p", "a5")], "w"))
        .expect("fen");
    let mut g = Game::new(e, start);
    // Red checks with every move; black can only step aside.
    play(&mut g, &["a8e8", "e10d10", "e8d8", "d10e10", "d8e8", "e10d10", "e8d8", "d10e10"]);
    assert_eq!(g.outcome().status, Status::Ongoing, "two occurrences are not enough");
    play(&mut g, &["d8e8", "e10d10"]);
    let o = g.outcome();
    assert_eq!(
        (o.status, o.winner, o.reason.as_deref()),
        (Status::Win, Some(Side::SECOND), Some("perpetual-check"))
    );
}

#[test]
fn a_repetition_without_perpetual_check_is_a_draw() {
    let e = engine(&[]);
    let start = e
        .from_fen(&fen(&[("K", "e1"), ("k", "f10"), ("R", "a1"), ("r", "i10")], "w"))
        .expect("fen");
    let mut g = Game::new(e, start);
    play(&mut g, &["a1a2", "i10i9", "a2a1", "i9i10", "a1a2", "i10i9", "a2a1"]);
    assert_eq!(g.outcome().status, Status::Ongoing);
    play(&mut g, &["i9i10"]);
    let o = g.outcome();
    assert_eq!(
        (o.status, o.reason.as_deref(), o.result()),
        (Status::Draw, Some("repetition"), Some("1/2-1/2"))
    );
}

#[test]
fn sixty_rounds_without_capture_draw_and_the_limit_is_a_parameter() {
    let pieces = [("K", "e1"), ("k", "f10"), ("R", "a1"), ("r", "i10")];
    let e = engine(&[]);
    let f = fen(&pieces, "w").replace(" 0 1", " 119 60");
    let mut g = Game::new(e.clone(), e.from_fen(&f).expect("fen"));
    play(&mut g, &["a1a3"]);
    let o = g.outcome();
    assert_eq!((o.status, o.reason.as_deref()), (Status::Draw, Some("move-limit")));
    // With the limit lowered to 2 rounds, four quiet plies are enough.
    let e2 = engine(&[("natural_limit", "2")]);
    let mut g2 = Game::new(e2.clone(), e2.from_fen(&fen(&pieces, "w")).expect("fen"));
    play(&mut g2, &["a1a2", "i10i9", "a2a3"]);
    assert_eq!(g2.outcome().status, Status::Ongoing);
    play(&mut g2, &["i9i8"]);
    assert_eq!(g2.outcome().reason.as_deref(), Some("move-limit"));
}

#[test]
fn no_attacking_pieces_left_is_a_draw() {
    let e = engine(&[]);
    // The red chariot takes the last attacking piece and is taken back: only defenders remain.
    let start = e
        .from_fen(&fen(
            &[("K", "e1"), ("k", "f10"), ("R", "a1"), ("n", "a9"), ("a", "e9"), ("B", "c1")],
            "w",
        ))
        .expect("fen");
    let mut g = Game::new(e, start);
    play(&mut g, &["a1a9"]);
    assert_eq!(g.outcome().status, Status::Ongoing, "the chariot is still there");
    let e = engine(&[]);
    let bare = e
        .from_fen(&fen(&[("K", "e1"), ("k", "f10"), ("A", "e2"), ("b", "c10")], "w"))
        .expect("fen");
    let o = Game::new(e, bare).outcome();
    assert_eq!((o.status, o.reason.as_deref()), (Status::Draw, Some("insufficient-material")));
}
