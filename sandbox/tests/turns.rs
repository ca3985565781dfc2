//! Turns of several parts entered part by part in a bare `App`: a move that begins several turns
//! plays nothing and leaves a pending turn whose next part's choices are the targets (the squares
//! for a neutral piece or a hole, the hand's kinds for a drop on the square the move left, leaving
//! an optional part out); the last choice plays the whole turn through `Action::Play`; Esc, a
//! right-click or a click on no choice cancels it. Also: what the panel says about it, the counts
//! and the phase in the panel, one row per turn in the move list, `--play` with a turn's comma, and
//! clicks on squares a board leaves out.

use arbiter::model::{KindId, Side};
use bevy::prelude::*;
use sandbox::board::input::{Button, ClickTarget, click_at};
use sandbox::session::{Action, Clicked, ClickedAway, ClickedHand, Edit, Pick, Tools};

use crate::common;
use common::*;

fn app_at(ruleset: &str, fen_text: &str) -> App {
    let mut app = app(ruleset);
    act(&mut app, Action::Edit(Edit::Fen(fen_text.into())));
    assert_eq!(fen(&app), fen_text, "the position is set");
    app
}

fn click(app: &mut App, name: &str) {
    let sq = square(app, name);
    send(app, Clicked(sq));
}

fn kind(app: &App, name: &str) -> KindId {
    let rules = session(app).engine.rules().clone();
    KindId(
        rules
            .kinds
            .iter()
            .position(|k| k.name == name)
            .unwrap_or_else(|| panic!("no kind {name}")) as u8,
    )
}

fn names(app: &App, squares: &[usize]) -> Vec<String> {
    let board = &session(app).engine.rules().board;
    squares.iter().map(|&sq| board.name(sq)).collect()
}

/// What stands on `name`: a piece's kind name, or a neutral piece's.
fn on(app: &App, name: &str) -> Option<String> {
    let s = session(app);
    let pos = s.game.current();
    let sq = square(app, name);
    let rules = s.engine.rules();
    pos.piece_at(sq)
        .map(|(k, _)| rules.kind(k).name.clone())
        .or_else(|| pos.neutral_at(sq).map(|k| rules.kind(k).name.clone()))
}

fn last_played(app: &App) -> Option<String> {
    session(app).log.iter().rev().find_map(|l| match &l.action {
        Action::Play(t) if l.ok => Some(t.clone()),
        _ => None,
    })
}

#[test]
fn a_move_then_the_neutral_piece_two_clicks_then_a_third_and_the_whole_turn_is_one_action() {
    let mut app = app("duck-chess");
    click(&mut app, "e2");
    assert_eq!(names(&app, &session(&app).targets), ["e3", "e4"]);
    click(&mut app, "e4");
    let s = session(&app);
    assert_eq!(s.game.ply(), 0, "nothing is played before the turn is whole");
    assert!(s.pending.is_some() && s.choice.is_none() && s.selected.is_none());
    // The neutral piece goes to any empty square of the position the move leaves: e2 too, not e4.
    let targets = names(&app, &s.targets);
    assert_eq!(targets.len(), 32, "{targets:?}");
    assert!(targets.contains(&"e2".to_string()) && !targets.contains(&"e4".to_string()));
    // The board shows the move made: the pawn on e4, e2 empty, both marked.
    let shown = s.shown_position();
    assert!(shown.piece_at(square(&app, "e4")).is_some() && shown.piece_at(square(&app, "e2")).is_none());
    assert!(
        s.game.current().piece_at(square(&app, "e2")).is_some(),
        "the game itself is untouched"
    );
    assert_eq!(names(&app, &s.pending_squares()), ["e2", "e4"]);
    let words = s.pending_words().expect("words for the panel");
    assert_eq!(words.so_far, "e2e4");
    assert!(
        words.next.starts_with("then place Duck on empty, moving it") && words.next.ends_with("[Duck 2]"),
        "{words:?}"
    );
    assert!(!words.next.contains("  "), "one line: {:?}", words.next);
    click(&mut app, "d5");
    let s = session(&app);
    assert!(s.pending.is_none() && s.targets.is_empty());
    assert_eq!(s.game.ply(), 1);
    assert_eq!(last_played(&app).as_deref(), Some("e2e4,e4d5"), "one action, the whole turn");
    assert_eq!(s.log.iter().filter(|l| matches!(l.action, Action::Play(_))).count(), 1);
    assert_eq!(on(&app, "d5").as_deref(), Some("Duck"));
    assert_eq!(names(&app, &s.last_parts()), ["d5"], "the part is marked with the last move");
    // Black's turn: the duck must move, so d5 is no choice; e4 (a pawn) is none either, and a
    // click there cancels the turn, the pawn that moved selected again.
    click(&mut app, "e7");
    click(&mut app, "e5");
    let targets = names(&app, &session(&app).targets);
    assert!(
        !targets.contains(&"d5".to_string()) && !targets.contains(&"e5".to_string()),
        "{targets:?}"
    );
    click(&mut app, "e4");
    let s = session(&app);
    assert!(s.pending.is_none() && s.refusal.is_none(), "cancelled, nothing judged");
    assert_eq!((s.game.ply(), s.selected), (1, Some(square(&app, "e7"))));
    assert_eq!(names(&app, &s.targets), ["e5", "e6"]);
}

#[test]
fn a_step_then_a_hole_and_squares_that_may_never_be_removed_are_no_choice() {
    let mut app = app("isolation");
    click(&mut app, "c1");
    click(&mut app, "c2");
    let s = session(&app);
    assert!(s.pending.is_some());
    let targets = names(&app, &s.targets);
    // Every empty square but the start squares (c1, left empty by the step; d8 is taken anyway).
    assert_eq!(targets.len(), 6 * 8 - 2 - 1, "{targets:?}");
    assert!(!targets.contains(&"c1".to_string()) && !targets.contains(&"d8".to_string()));
    click(&mut app, "a3");
    assert_eq!(last_played(&app).as_deref(), Some("c1c2,c2a3"));
    assert_eq!(on(&app, "a3").as_deref(), Some("Hole"));
    // A hole is no one's, and no target later.
    assert!(session(&app).game.current().piece_at(square(&app, "a3")).is_none());
    click(&mut app, "d8");
    click(&mut app, "d7");
    assert!(!names(&app, &session(&app).targets).contains(&"a3".to_string()));
}

#[test]
fn a_knight_move_then_a_hawk_an_elephant_or_nothing_on_the_square_it_left() {
    // The hawk: the square, then the kind in the hand.
    let mut app = app("seirawan");
    click(&mut app, "b1");
    click(&mut app, "c3");
    let s = session(&app);
    assert_eq!(s.game.ply(), 0);
    assert_eq!(names(&app, &s.targets), ["b1"], "the square the knight left");
    let labels: Vec<String> = s.shown_options().into_iter().map(|o| o.label).collect();
    assert_eq!(labels, ["Hawk on b1", "Elephant on b1", "none"]);
    assert!(
        s.pending_words()
            .is_some_and(|w| w.so_far == "b1c3" && w.next.contains("may drop Hawk or Elephant"))
    );
    click(&mut app, "b1");
    assert!(session(&app).pending.is_some(), "two kinds on one square: the kind is asked for");
    assert_eq!(session(&app).pending.as_ref().and_then(|p| p.square), Some(square(&app, "b1")));
    let hawk = kind(&app, "Hawk");
    send(
        &mut app,
        ClickedHand {
            side: Side::FIRST,
            kind: hawk,
        },
    );
    assert_eq!(last_played(&app).as_deref(), Some("b1c3h"));
    assert_eq!(on(&app, "b1").as_deref(), Some("Hawk"));
    assert_eq!(on(&app, "c3").as_deref(), Some("Knight"));
    assert!(!session(&app).game.current().hand(Side::FIRST).iter().any(|&(k, _)| k == hawk));

    // The elephant: the kind in the hand alone (one square offers it).
    let mut app = self::app("seirawan");
    click(&mut app, "g1");
    click(&mut app, "f3");
    let elephant = kind(&app, "Elephant");
    send(
        &mut app,
        ClickedHand {
            side: Side::FIRST,
            kind: elephant,
        },
    );
    assert_eq!(last_played(&app).as_deref(), Some("g1f3e"));
    assert_eq!(on(&app, "g1").as_deref(), Some("Elephant"));

    // Outside a turn, a click on the hand selects nothing and says how the kind enters the board.
    let mut app = self::app("seirawan");
    send(
        &mut app,
        ClickedHand {
            side: Side::FIRST,
            kind: hawk,
        },
    );
    let s = session(&app);
    assert_eq!((s.selected_hand, s.targets.len()), (None, 0));
    assert!(
        s.note
            .as_deref()
            .is_some_and(|n| n.starts_with("a hawk enters the board as a part of a turn")),
        "{:?}",
        s.note
    );

    // Nothing: the panel's button for leaving the part out.
    let mut app = self::app("seirawan");
    click(&mut app, "b1");
    click(&mut app, "c3");
    let none = session(&app)
        .shown_options()
        .into_iter()
        .find(|o| o.square.is_none())
        .expect("none offered");
    assert_eq!(none.slot, 0);
    send(&mut app, Pick::Part(none.slot));
    assert_eq!(last_played(&app).as_deref(), Some("b1c3"));
    assert_eq!(on(&app, "b1"), None);
    assert_eq!(session(&app).game.current().hand(Side::FIRST).len(), 2, "both still in hand");
    // The move list: one entry per turn, the drop written after the move where SAN leaves it out.
    let mut gated = self::app("seirawan");
    act(&mut gated, Action::Play("b1c3h".into()));
    act(&mut gated, Action::Play("g8f6".into()));
    let s = session(&gated);
    let rows = sandbox::timeline::movelist::rows(s, &sandbox::timeline::movelist::MainLine::of(&s.engine, &s.timeline));
    let texts: Vec<String> = rows.iter().map(|r| r.text()).collect();
    // Played from a bare ruleset: the main line, numbered per move pair.
    assert_eq!(texts, ["1. Nc3/H Nf6"], "{texts:?}");
    assert_eq!(rows[0].depth, 0, "on the main line, not a variation of the start");
    assert_eq!(sandbox::timeline::movelist::last_move_written(s).as_deref(), Some("Nf6"));
}

#[test]
fn castling_then_a_drop_on_the_rooks_square() {
    let mut app = app_at("seirawan", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQK2R[HEhe] w KQBCDkqbcdfg - 0 1");
    click(&mut app, "e1");
    click(&mut app, "g1");
    let s = session(&app);
    assert_eq!(s.game.ply(), 0);
    assert_eq!(names(&app, &s.targets), ["e1", "h1"], "the king's square and the rook's");
    let labels: Vec<String> = s.shown_options().into_iter().map(|o| o.label).collect();
    assert_eq!(labels, ["Hawk on e1", "Elephant on e1", "Hawk on h1", "Elephant on h1", "none"]);
    // The board shows the castled position: the rook already on f1.
    assert_eq!(
        s.shown_position()
            .piece_at(square(&app, "f1"))
            .map(|(k, _)| s.engine.rules().kind(k).name.clone())
            .as_deref(),
        Some("Rook")
    );
    click(&mut app, "h1");
    assert_eq!(names(&app, &session(&app).targets), ["h1"]);
    let labels: Vec<String> = session(&app).shown_options().into_iter().map(|o| o.label).collect();
    assert_eq!(labels, ["Hawk on h1", "Elephant on h1", "none"]);
    let elephant = kind(&app, "Elephant");
    send(
        &mut app,
        ClickedHand {
            side: Side::FIRST,
            kind: elephant,
        },
    );
    assert_eq!(last_played(&app).as_deref(), Some("h1e1e"));
    for (sq, what) in [("g1", "King"), ("f1", "Rook"), ("h1", "Elephant")] {
        assert_eq!(on(&app, sq).as_deref(), Some(what), "{sq}");
    }
    assert_eq!(on(&app, "e1"), None);
    // The hand first: the hawk may go on either square, so both stay targets until one is clicked.
    let mut app = app_at("seirawan", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQK2R[HEhe] w KQBCDkqbcdfg - 0 1");
    click(&mut app, "e1");
    click(&mut app, "g1");
    let hawk = kind(&app, "Hawk");
    send(
        &mut app,
        ClickedHand {
            side: Side::FIRST,
            kind: hawk,
        },
    );
    assert_eq!(names(&app, &session(&app).targets), ["e1", "h1"]);
    click(&mut app, "e1");
    assert_eq!(last_played(&app).as_deref(), Some("e1g1h"));
    assert_eq!(on(&app, "e1").as_deref(), Some("Hawk"));
}

#[test]
fn esc_a_right_click_or_a_click_beside_the_board_cancels_a_pending_turn() {
    // Esc, through the keyboard's reader.
    let mut app = app("duck-chess");
    app.init_resource::<ButtonInput<KeyCode>>()
        .add_plugins(sandbox::panel::keys::plugin);
    click(&mut app, "g1");
    click(&mut app, "f3");
    assert!(session(&app).pending.is_some());
    app.world_mut().resource_mut::<ButtonInput<KeyCode>>().press(KeyCode::Escape);
    app.update();
    let s = session(&app);
    assert!(s.pending.is_none() && s.targets.is_empty() && s.selected.is_none());
    assert_eq!(s.game.ply(), 0);
    assert!(
        s.log.iter().all(|l| !matches!(l.action, Action::Play(_))),
        "nothing played, nothing refused"
    );
    // A click beside the board.
    click(&mut app, "g1");
    click(&mut app, "f3");
    send(&mut app, ClickedAway);
    assert!(session(&app).pending.is_none());
    // A right-click on the board: it cancels, and marks nothing.
    let mut app = pointer_app("duck-chess");
    for (name, pressed) in [("g1", true), ("g1", false), ("f3", true), ("f3", false)] {
        pointer(&mut app, Button::Left, pressed, name);
    }
    assert!(
        session(&app).pending.is_some(),
        "a click and a drag-free second click begin the turn"
    );
    pointer(&mut app, Button::Right, true, "d5");
    pointer(&mut app, Button::Right, false, "d5");
    assert!(session(&app).pending.is_none());
    assert!(!app.world().resource::<sandbox::session::marks::Marks>().any(), "no mark made");
    // The turn can be entered again and played by pointer.
    for (name, pressed) in [("g1", true), ("f3", false), ("c6", true), ("c6", false)] {
        pointer(&mut app, Button::Left, pressed, name);
    }
    assert_eq!(
        last_played(&app).as_deref(),
        Some("g1f3,f3c6"),
        "a drag, then a click on the duck's square"
    );
}

#[test]
fn a_promotion_that_begins_several_turns_asks_the_kind_then_the_next_part() {
    let mut app = app_at("duck-chess", "4k3/P7/8/8/8/8/8/4K3 w - - 0 1");
    click(&mut app, "a7");
    click(&mut app, "a8");
    let choice = session(&app).choice.clone().expect("the kinds");
    assert_eq!(choice.options.len(), 4);
    let knight = choice.options.iter().find(|(_, k)| k == "Knight").expect("a knight").0.clone();
    assert_eq!(knight, "a7a8n");
    send(&mut app, Pick::First(knight));
    let s = session(&app);
    assert!(s.choice.is_none() && s.pending.is_some() && s.game.ply() == 0);
    assert_eq!(s.pending_words().map(|w| w.so_far).as_deref(), Some("a7a8n"));
    click(&mut app, "c7");
    assert_eq!(last_played(&app).as_deref(), Some("a7a8n,a8c7"));
    assert_eq!(on(&app, "a8").as_deref(), Some("Knight"));
}

#[test]
fn the_panel_says_the_turn_so_far_the_part_to_choose_and_offers_what_a_square_does_not_tell_apart() {
    let mut app = app("seirawan");
    click(&mut app, "b1");
    click(&mut app, "c3");
    let mut tools = Tools::default();
    let mut panel = Panel::new(2000.0);
    let texts = panel.settle(session(&app), &mut tools);
    let said: Vec<&str> = texts.iter().map(|t| t.0.as_str()).collect();
    assert!(said.contains(&"Turn so far: b1c3"), "{said:?}");
    assert!(
        said.iter().any(|t| t.starts_with("Next: then may drop Hawk or Elephant")),
        "{said:?}"
    );
    // Each choice a button: a click on one is a pick, played by the session.
    let none = at(&texts, "none (leave it out)");
    panel.click(session(&app), &mut tools, none + egui_offset());
    assert_eq!(std::mem::take(&mut panel.asked.picks), vec![Pick::Part(0)]);
    let hawk = at(&texts, "Hawk on b1");
    panel.click(session(&app), &mut tools, hawk + egui_offset());
    let picks = std::mem::take(&mut panel.asked.picks);
    assert_eq!(picks.len(), 1);
    send(&mut app, picks[0].clone());
    assert_eq!(last_played(&app).as_deref(), Some("b1c3h"));
    // Thirty-two squares for the duck: no button for each, the board's targets alone.
    let mut duck = self::app("duck-chess");
    click(&mut duck, "e2");
    click(&mut duck, "e4");
    let texts = panel_texts(session(&duck), &mut tools);
    assert!(texts.iter().any(|t| t.0 == "Turn so far: e2e4"));
    assert!(!texts.iter().any(|t| t.0 == "d5"), "no button per square");
}

/// A text's position is its galley's top left; a click a few pixels in lands on it.
fn egui_offset() -> bevy_egui::egui::Vec2 {
    bevy_egui::egui::vec2(4.0, 4.0)
}

#[test]
fn the_counts_and_the_phase_are_lines_of_the_panel_that_are_always_there() {
    let mut app = app("three-check");
    let mut tools = Tools::default();
    let said = |app: &App, tools: &mut Tools| panel_texts(session(app), tools).into_iter().map(|t| t.0).collect::<Vec<_>>();
    assert!(said(&app, &mut tools).contains(&"checks-left: white 3, black 3".to_string()));
    for m in ["e2e4", "e7e5", "f1c4", "b8c6", "c4f7"] {
        act(&mut app, Action::Play(m.into()));
    }
    assert!(session(&app).game.current().in_check());
    assert!(said(&app, &mut tools).contains(&"checks-left: white 2, black 3".to_string()));
    let mut tapatan = self::app("tapatan");
    assert!(said(&tapatan, &mut tools).contains(&"Phase: placing".to_string()));
    for m in ["a1", "b1", "c3", "a3", "c2", "b3"] {
        act(&mut tapatan, Action::Play(m.into()));
    }
    assert!(said(&tapatan, &mut tools).contains(&"Phase: moving".to_string()));
    // Chess has neither.
    let chess = self::app("chess");
    let lines = said(&chess, &mut tools);
    assert!(
        !lines.iter().any(|l| l.starts_with("Phase:") || l.contains("checks-left")),
        "{lines:?}"
    );
}

#[test]
fn tapatan_drops_from_the_hand_then_moves_along_the_lines() {
    let mut app = app("tapatan");
    let man = kind(&app, "Man");
    send(
        &mut app,
        ClickedHand {
            side: Side::FIRST,
            kind: man,
        },
    );
    assert_eq!(session(&app).targets.len(), 9, "every point");
    click(&mut app, "b2");
    assert_eq!(last_played(&app).as_deref(), Some("b2"));
    for m in ["a1", "c1", "a3", "b3", "c3"] {
        act(&mut app, Action::Play(m.into()));
    }
    assert_eq!(session(&app).game.current().phase_name(), Some("moving"));
    assert!(session(&app).hand_kinds().contains(&man), "the hands' slots stay");
    // White to move: c1 steps along a line to an empty point (b2 is taken, diagonally).
    click(&mut app, "c1");
    assert_eq!(names(&app, &session(&app).targets), ["b1", "c2"]);
}

#[test]
fn squares_a_board_leaves_out_are_not_clickable() {
    let app = pointer_app("y");
    let s = session(&app);
    let board = &s.engine.rules().board;
    let hole = (0..board.squares())
        .find(|&sq| !board.has(sq))
        .expect("Y's grid has squares off the triangle");
    let layout = app.world().resource::<sandbox::board::BoardLayout>().0;
    assert_eq!(click_at(&layout, s, layout.center(hole)), ClickTarget::Away);
    let cell = (0..board.squares()).find(|&sq| board.has(sq)).expect("a cell");
    assert_eq!(click_at(&layout, s, layout.center(cell)), ClickTarget::Square(cell));
    // Even a click message naming one does nothing.
    let mut app = app;
    let before = session(&app).log.len();
    send(&mut app, Clicked(hole));
    assert_eq!(session(&app).log.len(), before);
    assert!(session(&app).refusal.is_none());
    send(&mut app, Clicked(cell));
    assert_eq!(session(&app).game.ply(), 1, "a stone placed on a cell");
}

/// A ruleset of the tests' own: stones placed on a 4 × 4 board, and a placement that makes a row
/// of three removes an enemy stone.
const ROWS_REMOVE: &str = r#"
game "Rows remove" {
  players white "w", black "b"
}

board 4 x 4 squares {
  files a..d
  ranks 1..4
}

piece Man "M" glyph "●" "○" {
  place on empty
}

turn {
  move
  then if it made 3 in a row along orthogonal: remove enemy
}

end {
  no-move: no legal move -> side to move loses
}

setup empty
"#;

#[test]
fn a_placement_that_makes_a_row_then_the_enemy_piece_to_remove() {
    let dir = temp_dir("rows-remove");
    let path = dir.join("rows-remove.rules");
    std::fs::write(&path, ROWS_REMOVE).expect("the ruleset is written");
    let mut app = app(path.to_str().expect("a UTF-8 path"));
    for m in ["a1", "a4", "b1", "b4"] {
        act(&mut app, Action::Play(m.into()));
    }
    // c1 makes a row: the part applies, and its choices are the enemy's stones.
    click(&mut app, "c1");
    let s = session(&app);
    assert_eq!(s.game.ply(), 4);
    assert_eq!(names(&app, &s.targets), ["a4", "b4"]);
    assert!(
        s.pending_words()
            .is_some_and(|w| w.so_far == "c1" && w.next.starts_with("then if it made 3 in a row"))
    );
    click(&mut app, "b4");
    assert_eq!(last_played(&app).as_deref(), Some("c1,c1b4"));
    assert_eq!(on(&app, "b4"), None);
    // d4 makes none: the part does not apply, and the placement is played at once.
    click(&mut app, "d4");
    assert_eq!(last_played(&app).as_deref(), Some("d4"));
    assert!(session(&app).pending.is_none());
}

#[test]
fn the_editor_keeps_neutral_pieces_and_puts_them_as_no_ones() {
    let mut app = app("duck-chess");
    act(&mut app, Action::Play("e2e4,e4d5".into()));
    let (g1, a5) = (square(&app, "g1"), square(&app, "a5"));
    act(&mut app, Action::Edit(Edit::Clear(g1)));
    assert!(session(&app).edit_error.is_none(), "{:?}", session(&app).edit_error);
    assert_eq!(on(&app, "d5").as_deref(), Some("Duck"), "an edit elsewhere keeps the duck");
    assert_eq!(on(&app, "g1"), None);
    // Put from the start position, where no duck stands yet: no one's, whatever side the brush says.
    let mut app = self::app("duck-chess");
    let duck = kind(&app, "Duck");
    act(
        &mut app,
        Action::Edit(Edit::Put {
            square: a5,
            kind: duck,
            side: Side::SECOND,
        }),
    );
    let s = session(&app);
    assert!(s.edit_error.is_none(), "{:?}", s.edit_error);
    assert_eq!(s.game.current().neutral_at(a5), Some(duck));
    assert!(s.game.current().piece_at(a5).is_none());
    assert!(fen(&app).starts_with("rnbqkbnr/pppppppp/8/*7/8/8/"), "{}", fen(&app));
    assert_eq!(s.log.last().map(|l| l.said.as_str()), Some("put a duck on a5"));
}

#[test]
fn the_editors_palette_offers_a_neutral_kind_once_as_no_ones() {
    let app = app("duck-chess");
    let mut tools = Tools {
        mode: sandbox::session::Mode::Edit,
        ..Tools::default()
    };
    let texts = panel_texts(session(&app), &mut tools);
    let said: Vec<&str> = texts.iter().map(|t| t.0.as_str()).collect();
    assert!(said.contains(&"Neutral:"), "{said:?}");
    assert_eq!(said.iter().filter(|t| **t == "🦆 Duck").count(), 1, "{said:?}");
    assert_eq!(
        said.iter().filter(|t| t.ends_with(" Pawn")).count(),
        2,
        "one pawn per player: {said:?}"
    );
}

#[test]
fn the_panels_buttons_stay_put_while_a_turn_is_entered() {
    let quiet = app("seirawan");
    let mut tools = Tools::default();
    let before = panel_texts(session(&quiet), &mut tools);
    let mut pending = app("seirawan");
    click(&mut pending, "e2");
    click(&mut pending, "e4");
    // A pawn leaves a square off the first rank, where nothing is dropped: e2e4 is one turn,
    // played at once.
    assert_eq!(session(&pending).game.ply(), 1);
    click(&mut pending, "b8");
    click(&mut pending, "c6");
    assert!(session(&pending).pending.is_some());
    let during = panel_texts(session(&pending), &mut tools);
    assert!(during.iter().any(|(t, _)| t == "Turn so far: b8c6"));
    for label in [
        "Take back",
        "Random move",
        "Copy FEN",
        "Save as scenario",
        "Move now",
        "Flip board",
        "Edit",
    ] {
        assert_eq!(at(&before, label), at(&during, label), "`{label}` with a pending turn shown");
    }
}

#[test]
fn turns_played_by_hand_are_kept_whole_in_the_tree_undone_and_played_again() {
    use sandbox::session::Replay;
    let mut app = app("duck-chess");
    act(&mut app, Action::Play("e2e4,e4d5".into()));
    act(&mut app, Action::Play("e7e5,e5d4".into()));
    let node = session(&app).node.expect("a variation by hand");
    act(&mut app, Action::TakeBack);
    assert_eq!(session(&app).game.ply(), 1);
    assert_eq!(on(&app, "d5").as_deref(), Some("Duck"), "the duck back where the first turn put it");
    send(&mut app, Replay::First);
    assert_eq!(session(&app).game.ply(), 0);
    assert_eq!(on(&app, "d5"), None, "no duck at the start");
    send(&mut app, Replay::Node(node));
    assert_eq!(session(&app).game.ply(), 2);
    assert_eq!(on(&app, "d4").as_deref(), Some("Duck"));
    assert_eq!(on(&app, "e5").as_deref(), Some("Pawn"));
}

#[test]
fn a_piece_dragged_from_the_hand_onto_one_of_the_squares_a_part_offers_is_dropped_there() {
    let mut app = pointer_app("seirawan");
    act(
        &mut app,
        Action::Edit(Edit::Fen(
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQK2R[HEhe] w KQBCDkqbcdfg - 0 1".into(),
        )),
    );
    for (name, pressed) in [("e1", true), ("e1", false), ("g1", true), ("g1", false)] {
        pointer(&mut app, Button::Left, pressed, name);
    }
    assert_eq!(names(&app, &session(&app).targets), ["e1", "h1"]);
    // The hawk's slot in white's hand, right of the board.
    let hawk = kind(&app, "Hawk");
    let slot = session(&app)
        .hand_kinds()
        .iter()
        .position(|&k| k == hawk)
        .expect("a slot for the hawk");
    let at = app.world().resource::<sandbox::board::BoardLayout>().0.hand_slot(Side::FIRST, slot);
    app.world_mut().write_message(sandbox::board::input::Pointer {
        button: Button::Left,
        pressed: true,
        at,
    });
    app.update();
    assert_eq!(
        session(&app).pending.as_ref().and_then(|p| p.kind),
        Some(hawk),
        "the hawk chosen, two squares to go"
    );
    pointer(&mut app, Button::Left, false, "h1");
    assert_eq!(last_played(&app).as_deref(), Some("h1e1h"));
    assert_eq!(on(&app, "h1").as_deref(), Some("Hawk"));
}
