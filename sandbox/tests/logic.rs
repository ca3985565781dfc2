//! The sandbox's logic in a bare `App` (MinimalPlugins, no window, no renderer): scenario and record
//! replay, autoplay, clicks and rulings, promotion choices, take-back, seeded random moves, the
//! referee's editor, saving scenarios, dead marking, draw claims, and reloading the rules; hex boards,
//! drops from the hand, continuing captures and their route choices, and placement games.

use std::path::{Path, PathBuf};
use std::time::Duration;

use arbiter::game::{Engine, Game, Ruling, Status};
use arbiter::model::{KindId, Side};
use arbiter::notation::{pgn, san, sgf, uci, wxf};
use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use sandbox::board::input::{ClickTarget, click_at};
use sandbox::board::layout::Layout;
use sandbox::session::{Action, Clicked, ClickedAway, ClickedHand, Edit, Mode, Replay, Tools};
use sandbox::timeline::replay::Autoplay;

use crate::common;
use common::*;

fn engine(ruleset: &str, params: &[(String, String)]) -> Engine {
    let checked = arbiter::check::check_file(&root().join(format!("rulesets/{ruleset}.rules")), params);
    Engine::new(checked.rules.expect("a bundled ruleset is valid"))
}

#[test]
fn a_scenario_builds_a_timeline_with_the_start_and_one_position_per_step() {
    let app = app("scenarios/chess/checkmate-fools-mate.ron");
    let s = session(&app);
    assert_eq!(s.title, "Fool's mate: checkmate in two moves");
    assert_eq!(s.timeline.len(), 4, "the start and three steps");
    assert_eq!(s.step, 0);
    assert_eq!(s.game.current().fen(), s.engine.start().fen());
    assert_eq!(s.timeline[2].arrows.len(), 1, "step 2 draws the checking arrow");
    assert!(s.rules_path.as_ref().is_some_and(|p| p.ends_with("chess.rules")));
}

#[test]
fn stepping_forward_and_back_changes_the_position() {
    let mut app = app("scenarios/chess/checkmate-fools-mate.ron");
    let start = fen(&app);
    send(&mut app, Replay::Forward);
    let s = session(&app);
    assert_eq!(s.step, 1);
    assert_ne!(s.game.current().fen(), start);
    assert_eq!(
        s.frame().and_then(|f| f.caption.clone()).as_deref(),
        Some("White weakens the diagonal from h4 to e1 with f3 and g4.")
    );
    send(&mut app, Replay::Last);
    let s = session(&app);
    assert_eq!(s.step, 3);
    assert_eq!(s.game.outcome().status.as_str(), "win");
    assert!(s.game.current().in_check());
    assert_eq!(s.game.ply(), 4, "the frames follow by moves, so the game keeps its history");
    send(&mut app, Replay::Back);
    send(&mut app, Replay::Back);
    assert_eq!(session(&app).step, 1);
    send(&mut app, Replay::First);
    assert_eq!(fen(&app), start);
    assert!(session(&app).log.iter().all(|l| l.ok && matches!(l.action, Action::GoTo(_))));
}

#[test]
fn the_frames_of_a_scenario_carry_each_expectation_with_pass_or_fail() {
    let app = app("scenarios/chess/checkmate-fools-mate.ron");
    let all: Vec<_> = session(&app).timeline.iter().flat_map(|f| f.expectations.clone()).collect();
    assert!(!all.is_empty());
    assert!(all.iter().all(|e| e.passed && e.instead.is_none()), "{all:?}");
    assert!(all.iter().any(|e| e.text.contains("checkmate")), "{all:?}");

    let broken = file("tests/scenarios-broken/wrong-expectation.ron");
    let frames = &session(&broken).timeline;
    assert_eq!(frames.len(), 3, "the start, step 1, and step 2 where the runner stops");
    let step2: Vec<(bool, &str)> = frames[2].expectations.iter().map(|e| (e.passed, e.text.as_str())).collect();
    assert_eq!(step2.len(), 2, "{step2:?}");
    assert!(step2[0].0, "InCheck(true) holds: {step2:?}");
    assert!(!step2[1].0 && step2[1].1.contains("winner white"), "{step2:?}");
    assert!(frames[2].expectations[1].instead.as_deref().is_some_and(|i| i.contains("black")));
}

#[test]
fn a_pgn_record_becomes_one_frame_per_ply_ending_where_the_interpreter_replays_it() {
    let app = file("tests/pgn/opera-game.pgn");
    let s = session(&app);
    let rec = pgn::parse(&std::fs::read_to_string(root().join("tests/pgn/opera-game.pgn")).expect("the file")).expect("parses");
    assert_eq!(s.timeline.len(), rec.moves.len() + 1);
    assert_eq!(s.timeline[3].played, ["Nf3"], "played in the record's own notation");
    // The interpreter's replay, move by move in SAN.
    let chess = engine("chess", &[]);
    let mut game = Game::new(chess.clone(), chess.start());
    for m in &rec.moves {
        game.play(san::find(game.current(), m).unwrap_or_else(|| panic!("{m}")));
    }
    let last = s.timeline.last().expect("frames");
    assert_eq!(last.fen, game.current().fen());
    assert_eq!(last.fen, "1n1Rkb1r/p4ppp/4q3/4p1B1/4P3/8/PPP2PPP/2K5 b k - 1 17");
    assert!(
        last.caption.as_deref().is_some_and(|c| c.contains("1-0") && c.contains("black")),
        "{:?}",
        last.caption
    );
    assert!(s.title.contains("Morphy"), "{}", s.title);
}

/// The line of the WXF test record, replayed by the interpreter's WXF reader.
fn xiangqi_line() -> (Vec<String>, String) {
    let text = std::fs::read_to_string(root().join("tests/wxf/central-cannon-screen-horses.pgn")).expect("the file");
    let rec = pgn::parse(&text).expect("parses");
    let xq = engine("xiangqi", &[]);
    let mut game = Game::new(xq.clone(), xq.start());
    for m in &rec.moves {
        game.play(wxf::find(game.current(), m).unwrap_or_else(|| panic!("{m}")));
    }
    (rec.moves, game.current().fen())
}

#[test]
fn a_record_with_wxf_movetext_opens_under_the_ruleset_that_writes_wxf() {
    let (moves, last_fen) = xiangqi_line();
    // As PGN with WXF movetext and no tag naming the game: chosen by which ruleset reads the moves.
    let app = file("tests/wxf/central-cannon-screen-horses.pgn");
    let s = session(&app);
    assert_eq!(s.engine.rules().name, "Xiangqi");
    assert_eq!(s.timeline.len(), moves.len() + 1);
    assert_eq!(s.timeline.last().expect("frames").fen, last_fen);
    // As a WXF file: header lines, then the movetext between START{ and }END.
    let dir = temp_dir("wxf");
    let path = dir.join("game.wxf");
    let mut text = String::from("FORMAT\tWXF\nGAME\tChinese Chess\nRED\tRed player\nBLACK\tBlack player\nRESULT\t*\nSTART{\n");
    for (i, pair) in moves.chunks(2).enumerate() {
        text.push_str(&format!("{:3}. {}\n", i + 1, pair.join("  ")));
    }
    text.push_str("}END\n");
    std::fs::write(&path, text).expect("written");
    let file = self::app(path.to_str().expect("UTF-8"));
    let s = session(&file);
    assert_eq!(s.timeline.len(), moves.len() + 1);
    assert_eq!(s.timeline.last().expect("frames").fen, last_fen);
    assert_eq!(s.timeline[1].played, [moves[0].clone()]);
    assert!(s.title.contains("Red player"), "{}", s.title);
    // A tag naming a bundled ruleset decides, even where another ruleset would read the moves too.
    let tagged = dir.join("tagged.pgn");
    std::fs::write(&tagged, "[Variant \"Xiangqi\"]\n*\n").expect("written");
    let untagged = dir.join("untagged.pgn");
    std::fs::write(&untagged, "[Event \"?\"]\n*\n").expect("written");
    let name = |p: &Path| {
        sandbox::session::source::open(p.to_str())
            .expect("opens")
            .engine
            .rules()
            .name
            .clone()
    };
    assert_eq!(name(&tagged), "Xiangqi");
    assert_ne!(name(&untagged), "Xiangqi");
}

#[test]
fn an_sgf_record_sets_the_board_size_and_komi_and_replays_to_its_count() {
    let path = root().join("scenarios/go/records/teaching-9x9.sgf");
    let mut app = app(path.to_str().expect("UTF-8"));
    let s = session(&app);
    let rec = sgf::parse(&std::fs::read_to_string(&path).expect("the file")).expect("parses");
    assert_eq!(s.engine.rules().board.width, 9);
    assert!(s.params.contains(&("size".to_string(), "9".to_string())), "{:?}", s.params);
    assert!(s.params.contains(&("komi".to_string(), "6.5".to_string())), "{:?}", s.params);
    assert_eq!(s.timeline.len(), rec.moves.len() + 1);
    let params = s.params.clone();
    let go = engine("go", &params);
    let mut game = Game::new(go.clone(), go.position(&rec.setup(go.rules()).expect("fits")).expect("valid"));
    for m in rec.gtp_moves().expect("alternating") {
        game.play(uci::find(game.current(), &m).unwrap_or_else(|| panic!("{m}")));
    }
    assert_eq!(s.timeline.last().expect("frames").fen, game.current().fen());
    send(&mut app, Replay::Last);
    let s = session(&app);
    let o = s.game.outcome();
    assert_eq!(
        o.result_text(s.engine.rules()).as_deref(),
        Some("B+2.5"),
        "two passes end the game, counted"
    );
}

#[test]
fn a_scenario_that_starts_from_an_sgf_record_keeps_the_records_history_in_its_frames() {
    let rec_path = root().join("scenarios/go/records/teaching-9x9.sgf");
    let rec = sgf::parse(&std::fs::read_to_string(&rec_path).expect("the file")).expect("parses");
    let plies = rec.gtp_moves().expect("alternating").len();
    let mut app = file("scenarios/go/sgf-record.ron");
    let over = |app: &App| session(app).game.outcome().status != Status::Ongoing;
    let ply = |app: &App| sandbox::timeline::movelist::ply_number(&session(app).game);
    // The start: the record played out, its two passes ending the game.
    assert_eq!(session(&app).step, 0);
    assert_eq!(session(&app).game.ply(), plies, "the record's moves are the game's history");
    assert_eq!(ply(&app), plies as u64);
    assert!(over(&app), "two passes ended the game: {:?}", session(&app).game.outcome());
    assert_eq!(session(&app).last_move_text().as_deref(), Some("pass"));
    send(&mut app, Replay::Forward);
    assert!(over(&app) && ply(&app) == plies as u64, "step 1: still over");
    // Step 2 takes the last pass back: the game goes on, one ply fewer.
    send(&mut app, Replay::Forward);
    assert_eq!(session(&app).step, 2);
    assert!(!over(&app), "the game reopened");
    assert_eq!(ply(&app), plies as u64 - 1);
    // And back to the start, by a jump.
    send(&mut app, Replay::First);
    assert!(over(&app) && ply(&app) == plies as u64, "over again at the start");
    // A handicap record: its stones are the start, white moves first.
    let app = file("scenarios/go/handicap-sgf-record.ron");
    assert!(over(&app), "{:?}", session(&app).game.outcome());
    assert_eq!(
        session(&app).game.outcome().result_text(session(&app).engine.rules()).as_deref(),
        Some("B+14")
    );
}

#[test]
fn a_scenario_set_up_from_the_middle_of_a_game_counts_plies_from_the_fens_move_number() {
    let dir = temp_dir("fen-start");
    let path = dir.join("endgame.ron");
    std::fs::write(
        &path,
        r#"(
    title: "A rook endgame at move 30",
    ruleset: "chess",
    start: Fen("4k3/8/8/8/8/8/8/4K2R w K - 0 30"),
    steps: [(caption: "Castles.", do: Line(["e1g1"]))],
)"#,
    )
    .expect("written");
    let mut app = app(path.to_str().expect("UTF-8"));
    assert_eq!(
        sandbox::timeline::movelist::ply_number(&session(&app).game),
        58,
        "29 moves of each side came before"
    );
    send(&mut app, Replay::Forward);
    assert_eq!(sandbox::timeline::movelist::ply_number(&session(&app).game), 59);
    assert_eq!(
        sandbox::timeline::movelist::ply_number(&Game::new(engine("chess", &[]), engine("chess", &[]).start())),
        0
    );
}

#[test]
fn a_bad_record_is_one_sentence_naming_the_file_and_place() {
    let dir = temp_dir("bad-records");
    let sgf = dir.join("broken.sgf");
    std::fs::write(&sgf, "(;GM[1]SZ[9]\n;B[ee];W[zz])").expect("written");
    let err = sandbox::session::source::open(sgf.to_str()).err().expect("an error");
    assert!(err.contains("broken.sgf") && err.contains("line 2"), "{err}");
    let pgn = dir.join("illegal.pgn");
    std::fs::write(&pgn, "[Event \"?\"]\n1. e4 e5 2. Ke3 *").expect("written");
    let err = sandbox::session::source::open(pgn.to_str()).err().expect("an error");
    assert!(
        err.contains("illegal.pgn") && err.contains("move 3") && err.contains("Ke3"),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1, "{err}");
}

#[test]
fn autoplay_steps_with_time_and_stops_at_the_end() {
    let mut app = app("scenarios/chess/checkmate-fools-mate.ron");
    app.insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_millis(100)));
    {
        let mut auto = app.world_mut().resource_mut::<Autoplay>();
        auto.playing = true;
        auto.speed = 5.0; // one step every 0.2 s
    }
    let mut steps = Vec::new();
    for _ in 0..12 {
        app.update();
        steps.push(session(&app).step);
    }
    assert!(steps.windows(2).all(|w| w[0] <= w[1]), "{steps:?}");
    assert!(steps[3] >= 1 && steps[3] < 3, "steps are paced by time: {steps:?}");
    assert_eq!(*steps.last().expect("steps"), 3, "{steps:?}");
    assert!(!app.world().resource::<Autoplay>().playing, "stopped at the last step");
    // Once stopped, more time changes nothing.
    app.update();
    assert_eq!(session(&app).step, 3);
}

#[test]
fn a_click_on_the_move_list_jumps_to_that_ply_with_the_line_behind_it() {
    let mut app = file("tests/pgn/opera-game.pgn");
    send(&mut app, Replay::To(10));
    let s = session(&app);
    assert_eq!(s.step, 10);
    assert_eq!(s.game.current().fen(), s.timeline[10].fen);
    assert_eq!(s.game.ply(), 10, "the record's moves up to the ply");
    assert!(s.last_move().is_some());
    send(&mut app, Replay::To(2));
    assert_eq!(session(&app).game.ply(), 2);
    send(&mut app, Replay::To(1000));
    assert_eq!(session(&app).step, session(&app).timeline.len() - 1, "clamped to the last ply");
}

#[test]
fn a_click_on_a_piece_of_the_side_to_move_selects_it_and_lists_its_targets() {
    let mut app = app("chess");
    let e2 = square(&app, "e2");
    send(&mut app, Clicked(e2));
    let s = session(&app);
    assert_eq!(s.selected, Some(e2));
    let mut targets = s.targets.clone();
    targets.sort();
    assert_eq!(targets, vec![square(&app, "e3"), square(&app, "e4")]);
}

#[test]
fn a_click_on_a_target_plays_the_move_through_the_game() {
    let mut app = app("chess");
    let (e2, e4) = (square(&app, "e2"), square(&app, "e4"));
    send(&mut app, Clicked(e2));
    send(&mut app, Clicked(e4));
    let s = session(&app);
    assert_eq!(s.game.ply(), 1);
    assert_eq!(s.selected, None);
    assert!(s.game.current().piece_at(e4).is_some());
    assert!(s.game.current().piece_at(e2).is_none());
    assert_eq!(s.last_move_text().as_deref(), Some("e2e4"));
    assert!(s.frame().is_none(), "off the script: no caption or marks from the timeline");
    let logged = s.log.last().expect("logged");
    assert_eq!(
        (logged.action.clone(), logged.ok, logged.said.as_str()),
        (Action::Play("e2e4".into()), true, "e4")
    );
}

#[test]
fn an_illegal_click_records_the_interpreters_ruling_and_clause() {
    let mut app = app("scenarios/chess/castling-in-check.ron");
    // Walk to the first step whose position has the king in check and castling on the board.
    let len = session(&app).timeline.len();
    let mut found = false;
    for i in 0..len {
        send(&mut app, Replay::To(i));
        if session(&app).game.current().in_check() {
            found = true;
            break;
        }
    }
    assert!(found, "the scenario reaches a position in check");
    let ply = session(&app).game.ply();
    let (e1, g1) = (square(&app, "e1"), square(&app, "g1"));
    send(&mut app, Clicked(e1));
    send(&mut app, Clicked(g1));
    let s = session(&app);
    let r = s.refusal.as_ref().expect("a ruling is recorded");
    assert_eq!(r.text, "e1g1");
    assert_eq!(r.code, "castling-in-check");
    assert_eq!(r.clause.as_deref(), Some("FIDE 3.8.2.2"));
    assert!(r.message.contains("knight on d3"), "{}", r.message);
    assert_eq!(s.game.ply(), ply, "nothing was played");
}

#[test]
fn a_click_on_an_empty_square_of_a_moving_game_with_a_piece_selected_explains_why_not() {
    let mut app = app("chess");
    let (e2, e5) = (square(&app, "e2"), square(&app, "e5"));
    send(&mut app, Clicked(e2));
    send(&mut app, Clicked(e5));
    let s = session(&app);
    let r = s.refusal.as_ref().expect("a ruling is recorded");
    assert_eq!(r.text, "e2e5");
    assert_eq!(s.game.ply(), 0);
}

#[test]
fn a_click_on_an_empty_point_of_a_placement_game_places_a_piece() {
    let mut app = app("go");
    let p = 3 * session(&app).engine.rules().board.width + 3;
    send(&mut app, Clicked(p));
    let s = session(&app);
    assert_eq!(s.game.ply(), 1);
    assert!(s.game.current().piece_at(p).is_some());
    send(&mut app, Clicked(p));
    assert!(session(&app).refusal.is_some(), "an occupied point is refused with a ruling");
}

#[test]
fn a_promotion_click_asks_for_the_kind_and_plays_the_one_chosen() {
    let mut app = app("scenarios/chess/promotion-to-each-kind.ron");
    let (a7, a8) = (square(&app, "a7"), square(&app, "a8"));
    send(&mut app, Clicked(a7));
    send(&mut app, Clicked(a8));
    let s = session(&app);
    assert_eq!(s.game.ply(), 0, "nothing is played before the choice");
    let choice = s.choice.clone().expect("a choice is offered");
    let kinds: Vec<&str> = choice.options.iter().map(|(_, k)| k.as_str()).collect();
    assert_eq!(kinds.len(), 4, "{kinds:?}");
    for k in ["Queen", "Rook", "Bishop", "Knight"] {
        assert!(kinds.contains(&k), "{kinds:?}");
    }
    let knight = choice.options.iter().find(|(_, k)| k == "Knight").expect("a knight").0.clone();
    act(&mut app, Action::Play(knight));
    let s = session(&app);
    assert_eq!(s.game.ply(), 1);
    assert!(s.choice.is_none());
    let (kind, side) = s.game.current().piece_at(a8).expect("a piece on a8");
    assert_eq!((s.engine.rules().kind(kind).name.as_str(), side), ("Knight", Side::FIRST));
}

#[test]
fn a_click_that_cancels_a_promotion_choice_is_not_judged_as_a_move() {
    let mut app = app("scenarios/chess/promotion-to-each-kind.ron");
    let (a7, a8) = (square(&app, "a7"), square(&app, "a8"));
    send(&mut app, Clicked(a7));
    send(&mut app, Clicked(a8));
    assert!(session(&app).choice.is_some());
    // An empty square no move of the selected piece reaches: a7-a5 would be refused.
    let away = (0..session(&app).engine.rules().board.squares())
        .find(|&sq| sq != a7 && session(&app).game.current().piece_at(sq).is_none() && !session(&app).targets.contains(&sq))
        .expect("an empty square");
    send(&mut app, Clicked(away));
    let s = session(&app);
    assert!(s.choice.is_none(), "the choice is cancelled");
    assert!(s.refusal.is_none(), "and the click is not judged: {:?}", s.refusal);
    assert_eq!(
        (s.game.ply(), s.selected),
        (0, Some(a7)),
        "nothing played, the piece still selected"
    );
    // The same target again asks again.
    send(&mut app, Clicked(a8));
    assert!(session(&app).choice.is_some());
}

#[test]
fn take_back_restores_the_previous_position() {
    let mut app = app("chess");
    let start = fen(&app);
    act(&mut app, Action::Play("e2e4".into()));
    let after_e4 = fen(&app);
    act(&mut app, Action::Play("e7e5".into()));
    act(&mut app, Action::TakeBack);
    assert_eq!(fen(&app), after_e4);
    act(&mut app, Action::TakeBack);
    assert_eq!(fen(&app), start);
    assert_eq!(session(&app).game.ply(), 0);
    act(&mut app, Action::TakeBack);
    let last = session(&app).log.last().expect("logged").clone();
    assert!(!last.ok && last.said.contains("nothing to take back"), "{last:?}");
    // Taking back along a record's timeline goes one ply back and stays on the script.
    let mut app = file("tests/pgn/opera-game.pgn");
    send(&mut app, Replay::To(5));
    act(&mut app, Action::TakeBack);
    let s = session(&app);
    assert_eq!((s.step, s.off_script), (4, 0));
    assert_eq!(s.game.current().fen(), s.timeline[4].fen);
}

#[test]
fn a_random_move_with_a_fixed_seed_is_legal_and_reproducible() {
    let picks: Vec<String> = (0..2)
        .map(|_| {
            let mut app = app("chess");
            act(&mut app, Action::Random { seed: 42 });
            act(&mut app, Action::Random { seed: 43 });
            let s = session(&app);
            assert_eq!(s.game.ply(), 2);
            s.game
                .moves()
                .iter()
                .zip(s.game.positions())
                .map(|(m, p)| uci::to_text(p, *m))
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect();
    assert_eq!(picks[0], picks[1]);
    let chess = engine("chess", &[]);
    let first = picks[0].split(' ').next().expect("a move");
    assert!(uci::find(&chess.start(), first).is_some(), "{first} is legal at the start");
    let mut other = app("chess");
    let differs = (0..8u64).any(|seed| {
        act(&mut other, Action::Random { seed });
        let m = session(&other).last_move_text();
        act(&mut other, Action::TakeBack);
        m.as_deref() != Some(first)
    });
    assert!(differs, "the seed chooses the move");
}

#[test]
fn the_editor_places_and_removes_pieces_and_gives_the_move_through_fen() {
    let mut app = app("chess");
    let e4 = square(&app, "e4");
    let b4 = square(&app, "b4");
    let a1 = square(&app, "a1");
    let rules = session(&app).engine.rules().clone();
    let kind = |name: &str| arbiter::model::KindId(rules.kinds.iter().position(|k| k.name == name).expect("a chess kind") as u8);
    let put = |app: &mut App, square: usize, name: &str| {
        act(
            app,
            Action::Edit(Edit::Put {
                square,
                kind: kind(name),
                side: Side::FIRST,
            }),
        )
    };
    // A tenth piece on the full board is more than the setup and promotions allow: refused, with
    // the interpreter's reason, and the position stays.
    put(&mut app, e4, "Queen");
    assert_eq!(fen(&app), session(&app).engine.start().fen());
    let why = session(&app).edit_error.clone().expect("refused");
    assert!(why.contains("white has 1 Queen more than the setup"), "{why}");
    // On a board of two kings it may stand, but not where it attacks the king of the side not to move.
    act(&mut app, Action::Edit(Edit::Fen("4k3/8/8/8/8/8/8/4K3 w - - 0 1".into())));
    put(&mut app, e4, "Queen");
    let why = session(&app).edit_error.clone().expect("refused");
    assert!(why.contains("black's King on e8 is attacked by the Queen on e4"), "{why}");
    put(&mut app, b4, "Queen");
    assert_eq!(fen(&app), "4k3/8/8/8/1Q6/8/8/4K3 w - - 0 1");
    assert!(session(&app).edit_error.is_none());
    // A pawn can never stand on its own first rank.
    put(&mut app, a1, "Pawn");
    assert_eq!(fen(&app), "4k3/8/8/8/1Q6/8/8/4K3 w - - 0 1");
    let why = session(&app).edit_error.clone().expect("refused");
    assert!(why.contains("no white Pawn can ever stand on a1"), "{why}");
    // By a click in edit mode, with the eraser armed.
    app.world_mut().resource_mut::<Tools>().mode = Mode::Edit;
    app.world_mut().resource_mut::<Tools>().brush = Some(sandbox::session::Brush::Erase);
    send(&mut app, Clicked(b4));
    assert_eq!(fen(&app), "4k3/8/8/8/8/8/8/4K3 w - - 0 1");
    act(&mut app, Action::Edit(Edit::SideToMove(Side::SECOND)));
    assert_eq!(fen(&app), "4k3/8/8/8/8/8/8/4K3 b - - 0 1");
    assert_eq!(session(&app).game.current().side_to_move(), Side::SECOND);
    // Taking the white king away is refused with the interpreter's reason; the position stays.
    let before = fen(&app);
    let e1 = square(&app, "e1");
    send(&mut app, Clicked(e1));
    let s = session(&app);
    assert_eq!(s.game.current().fen(), before);
    let why = s.edit_error.clone().expect("refused");
    let fen_error = s.engine.from_fen("4k3/8/8/8/8/8/8/8 b - - 0 1").expect_err("no king");
    assert!(why.contains(&fen_error.to_string()), "{why} / {fen_error}");
    assert!(!s.log.last().expect("logged").ok);
    act(&mut app, Action::Edit(Edit::Fen("8/8/8/8/8/8/8/K6k w - - 0 1".into())));
    assert_eq!(fen(&app), "8/8/8/8/8/8/8/K6k w - - 0 1");
    assert!(session(&app).edit_error.is_none());
}

#[test]
fn save_as_scenario_writes_a_file_the_scenario_runner_passes_and_never_overwrites() {
    let mut app = app("chess");
    for m in ["e2e4", "e7e5", "g1f3"] {
        act(&mut app, Action::Play(m.into()));
    }
    let dir = temp_dir("save");
    let path = dir.join("saved").join("opening.ron");
    let saved = sandbox::session::editor::save_scenario(session(&app), &Default::default(), &path).expect("saved");
    assert_eq!(saved, path);
    let text = std::fs::read_to_string(&path).expect("written");
    assert!(text.contains("Line([\"e2e4\", \"e7e5\", \"g1f3\"])"), "{text}");
    let report = arbiter::scenario::Runner::new(sandbox::session::source::ruleset_dirs()).run_file(&path);
    assert!(report.passed(), "{:?}\n{text}", report.verdict);
    let again = sandbox::session::editor::save_scenario(session(&app), &Default::default(), &path).expect_err("the file exists");
    assert!(again.contains("already exists"), "{again}");
    assert_eq!(std::fs::read_to_string(&path).expect("still there"), text);
    // An edited position with dead chains marked: the count is part of the scenario.
    let mut go = file("scenarios/go/dead-stones.ron");
    send(&mut go, Replay::To(1));
    let a3 = square(&go, "A3");
    act(&mut go, Action::MarkDead(a3));
    let path = dir.join("dead.ron");
    sandbox::session::editor::save_scenario(session(&go), &Default::default(), &path).expect("saved");
    let report = arbiter::scenario::Runner::new(sandbox::session::source::ruleset_dirs()).run_file(&path);
    assert!(
        report.passed(),
        "{:?}\n{}",
        report.verdict,
        std::fs::read_to_string(&path).unwrap_or_default()
    );
}

#[test]
fn marking_a_chain_dead_changes_the_count() {
    let mut app = file("scenarios/go/dead-stones.ron");
    send(&mut app, Replay::To(1));
    let score = |app: &App| session(app).game.outcome().score.expect("counted after two passes").points;
    assert_eq!(score(&app), [10.0, 15.0]);
    app.world_mut().resource_mut::<Tools>().mode = Mode::MarkDead;
    let a3 = square(&app, "A3");
    send(&mut app, Clicked(a3));
    assert_eq!(session(&app).game.dead(), [a3]);
    assert_eq!(score(&app), [13.0, 12.0]);
    assert_eq!(session(&app).game.outcome().winner, Some(Side::FIRST));
    send(&mut app, Clicked(a3));
    assert!(session(&app).game.dead().is_empty(), "a second click marks it alive again");
    assert_eq!(score(&app), [10.0, 15.0]);
    let e3 = square(&app, "E3");
    send(&mut app, Clicked(e3));
    assert!(!session(&app).log.last().expect("logged").ok, "an empty point has no chain");
}

#[test]
fn a_claimable_draw_is_claimed_through_the_game() {
    let mut app = app("chess");
    for m in ["g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1", "f6g8"] {
        act(&mut app, Action::Play(m.into()));
    }
    let o = session(&app).game.outcome();
    assert_eq!(
        o.claimable.iter().map(|c| c.0.as_str()).collect::<Vec<_>>(),
        ["threefold-repetition"]
    );
    act(&mut app, Action::ClaimDraw("threefold-repetition".into()));
    let o = session(&app).game.outcome();
    assert_eq!((o.status, o.reason.as_deref()), (Status::Draw, Some("threefold-repetition")));
    act(&mut app, Action::Play("e2e4".into()));
    assert_eq!(session(&app).game.ply(), 8, "no move after the game is drawn");
    assert_eq!(session(&app).refusal.as_ref().map(|r| r.code.as_str()), Some("game-over"));
}

/// A copy of the bundled chess rules in a temporary folder, with `edit` applied.
fn chess_copy(dir: &Path, edit: impl Fn(&str) -> String) -> PathBuf {
    let text = std::fs::read_to_string(root().join("rulesets/chess.rules")).expect("chess.rules");
    let path = dir.join("chess.rules");
    std::fs::write(&path, edit(&text)).expect("written");
    path
}

#[test]
fn a_reload_with_errors_keeps_the_rules_and_lists_the_errors_with_line_and_column() {
    let dir = temp_dir("reload-errors");
    let path = chess_copy(&dir, |t| t.to_string());
    let mut app = app(path.to_str().expect("UTF-8"));
    act(&mut app, Action::Play("e2e4".into()));
    chess_copy(&dir, |t| t.replace("Rook, Bishop, Knight", "Rook, Bishop, Knigt"));
    let origin = session(&app).origin.clone();
    let result = sandbox::session::source::reopen(&origin, &path, &[]);
    let errors = result.as_ref().err().cloned().expect("errors");
    assert!(
        errors
            .iter()
            .any(|e| e.contains("chess.rules:") && e.contains("error[E0101]") && e.contains("Knigt")),
        "{errors:?}"
    );
    // Rendered as `arbiter check` renders it: `--> file:line:col`, then the line and a caret.
    let line_col = errors[0].lines().find_map(|l| l.trim().strip_prefix("--> ")).expect("a place");
    assert!(
        errors[0].contains("Rook, Bishop, Knigt") && errors[0].contains('^'),
        "{}",
        errors[0]
    );
    let mut parts = line_col.rsplit(':');
    assert!(parts.next().and_then(|c| c.parse::<usize>().ok()).is_some(), "a column: {line_col}");
    assert!(parts.next().and_then(|l| l.parse::<usize>().ok()).is_some(), "a line: {line_col}");
    let generation = session(&app).generation;
    assert!(!session_mut(&mut app).reload_rules(result));
    let s = session(&app);
    assert_eq!(s.generation, generation, "the engine stays");
    assert_eq!(s.rule_errors, errors);
    assert_eq!(s.game.ply(), 1, "the game stays");
    assert!(!s.log.last().expect("logged").ok);
}

#[test]
fn a_reload_replays_the_line_under_the_new_rules_and_flags_the_first_illegal_move() {
    let dir = temp_dir("reload-ok");
    let path = chess_copy(&dir, |t| t.to_string());
    let mut app = app(path.to_str().expect("UTF-8"));
    for m in ["e2e4", "e7e5", "g1f3", "b8c6"] {
        act(&mut app, Action::Play(m.into()));
    }
    // The knight loses its leap: it may only step forward to an empty square.
    let original = std::fs::read_to_string(&path).expect("the copy");
    let knight_line = original
        .lines()
        .find(|l| l.starts_with("piece Knight"))
        .expect("the knight")
        .to_string();
    chess_copy(&dir, |t| {
        t.replace(&knight_line, "piece Knight \"N\" { step forward to empty [3.6] }")
    });
    let generation = session(&app).generation;
    act(&mut app, Action::Reload);
    let s = session(&app);
    assert!(s.rule_errors.is_empty(), "{:?}", s.rule_errors);
    assert_eq!(s.generation, generation + 1);
    let broken = s.broken.clone().expect("a move became illegal");
    assert_eq!((broken.ply, broken.text.as_str()), (3, "Nf3"));
    assert!(
        broken.sentence().starts_with("ply 3 Nf3 is illegal under the new rules"),
        "{}",
        broken.sentence()
    );
    assert_eq!(s.game.ply(), 2, "the line stops before the refused move");
    assert!(s.engine.start().legal_moves().len() < 20, "the new rules are in use");
    // Reloading the original rules replays the whole line again.
    std::fs::write(&path, original).expect("restored");
    act(&mut app, Action::Reload);
    let s = session(&app);
    assert!(s.broken.is_none());
    assert_eq!(s.game.ply(), 2, "the line in use when the rules changed was two moves long");
}

#[test]
fn the_layout_maps_every_square_to_its_centre_and_back() {
    for what in ["chess", "xiangqi", "go"] {
        let opened = sandbox::session::source::open(Some(what)).expect("bundled");
        let layout = Layout::new(&opened.engine.rules().board);
        for sq in 0..layout.width * layout.height {
            assert_eq!(layout.square_at(layout.center(sq)), Some(sq), "{what} square {sq}");
        }
        assert_eq!(layout.square_at(layout.center(0) - Vec2::splat(layout.cell)), None);
    }
}

#[test]
fn a_missing_file_is_an_error_not_a_panic() {
    let err = sandbox::session::source::open(Some("no-such-game")).err().expect("an error");
    assert!(err.contains("no-such-game"), "{err}");
    let err = sandbox::session::source::open(Some("no-such-record.pgn")).err().expect("an error");
    assert!(err.contains("no-such-record.pgn"), "{err}");
}

/// A session on a bundled ruleset, with the position set from `fen` through the editor.
fn app_at(ruleset: &str, fen_text: &str) -> App {
    let mut app = app(ruleset);
    act(&mut app, Action::Edit(Edit::Fen(fen_text.into())));
    assert_eq!(fen(&app), fen_text, "the position is set");
    app
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

fn held(app: &App, side: Side, k: KindId) -> u32 {
    session(app)
        .game
        .current()
        .hand(side)
        .iter()
        .find(|(h, _)| *h == k)
        .map_or(0, |&(_, n)| n)
}

#[test]
fn a_hex_board_opens_and_a_click_on_a_cell_places_a_stone_there() {
    let mut app = app("hex");
    let board = session(&app).engine.rules().board.clone();
    assert!(board.hexes && board.width == 11);
    // The click goes through the hex geometry: the centre of f6, and a point near its edge.
    let layout = Layout::new(&board);
    let f6 = square(&app, "f6");
    let near_edge = layout.center(f6) + Vec2::new(0.0, layout.cell * 0.55);
    assert_eq!(layout.square_at(near_edge), Some(f6), "just inside f6's top corner");
    send(&mut app, Clicked(layout.square_at(layout.center(f6)).expect("a cell")));
    let s = session(&app);
    assert_eq!(s.game.ply(), 1);
    assert_eq!(s.game.current().piece_at(f6).map(|p| p.1), Some(Side::FIRST));
    assert_eq!(s.last_move_text().as_deref(), Some("f6"));
    assert_eq!(s.last_move(), Some((f6, f6)));
    // An occupied cell is refused with the interpreter's ruling; the game stays.
    send(&mut app, Clicked(f6));
    let s = session(&app);
    assert_eq!(s.game.ply(), 1);
    let r = s.refusal.as_ref().expect("a ruling");
    assert_eq!(r.text, "f6");
    assert!(!r.code.is_empty() && !r.message.is_empty(), "{r:?}");
    // Blue answers next to it: a neighbour by the board's own rule.
    let g5 = square(&app, "g5");
    assert!(board.neighbours(f6).any(|n| n == g5));
    send(&mut app, Clicked(g5));
    assert_eq!(session(&app).game.current().piece_at(g5).map(|p| p.1), Some(Side::SECOND));
}

const CRAZYHOUSE_HAND: &str = "rnbqkb1r/pppppppp/5n2/8/8/5N2/PPPPPPPP/RNBQKB1R[Pn] w KQkq - 0 5";

#[test]
fn a_piece_in_hand_is_selected_and_dropped_and_the_hand_count_falls() {
    let mut app = app_at("crazyhouse", CRAZYHOUSE_HAND);
    let pawn = kind(&app, "Pawn");
    assert_eq!(held(&app, Side::FIRST, pawn), 1);
    assert_eq!(
        session(&app).hand_kinds().len(),
        5,
        "queen, rook, bishop, knight and pawn may be dropped"
    );
    send(
        &mut app,
        ClickedHand {
            side: Side::FIRST,
            kind: pawn,
        },
    );
    let s = session(&app);
    assert_eq!(s.selected_hand, Some(pawn));
    let (e4, e2, g1, e7) = (square(&app, "e4"), square(&app, "e2"), square(&app, "g1"), square(&app, "e7"));
    assert!(s.targets.contains(&e4), "an empty square of ranks 2..7");
    assert!(!s.targets.contains(&e2) && !s.targets.contains(&g1) && !s.targets.contains(&e7));
    let expected: Vec<usize> = {
        let pos = s.game.current();
        let mut v: Vec<usize> = pos
            .legal_moves()
            .into_iter()
            .filter(|m| uci::to_text(pos, *m).starts_with("P@"))
            .map(|m| m.to as usize)
            .collect();
        v.sort_unstable();
        v
    };
    assert_eq!(s.targets, expected, "the targets are the legal pawn drops");
    send(&mut app, Clicked(e4));
    let s = session(&app);
    assert_eq!(s.game.ply(), 1);
    assert_eq!(s.last_move_text().as_deref(), Some("P@e4"));
    assert_eq!(s.game.current().piece_at(e4), Some((pawn, Side::FIRST)));
    assert_eq!(held(&app, Side::FIRST, pawn), 0, "the hand count falls");
    assert!(
        fen(&app).starts_with("rnbqkb1r/pppppppp/5n2/8/4P3/5N2/PPPPPPPP/RNBQKB1R[n] b"),
        "{}",
        fen(&app)
    );
    assert_eq!(session(&app).selected_hand, None);
    let logged = session(&app).log.last().expect("logged").clone();
    assert_eq!((logged.action, logged.ok), (Action::Play("P@e4".into()), true));
    // Black's knight in hand cannot be taken by white, and black's hand is black's to use.
    let knight = kind(&app, "Knight");
    send(
        &mut app,
        ClickedHand {
            side: Side::FIRST,
            kind: knight,
        },
    );
    assert_eq!(session(&app).selected_hand, None, "white holds no knight");
    send(
        &mut app,
        ClickedHand {
            side: Side::SECOND,
            kind: knight,
        },
    );
    assert_eq!(session(&app).selected_hand, Some(knight));
    // Where the mouse lands: the hand slots right of the board, the board, or neither.
    let layout = Layout::new(&session(&app).engine.rules().board);
    let kinds = session(&app).hand_kinds();
    let slot = kinds.iter().position(|k| *k == knight).expect("a knight slot");
    let hit = |at: Vec2| click_at(&layout, session(&app), at);
    assert_eq!(
        hit(layout.hand_slot(Side::SECOND, slot)),
        ClickTarget::Hand(ClickedHand {
            side: Side::SECOND,
            kind: knight
        })
    );
    assert_eq!(hit(layout.center(e4)), ClickTarget::Square(e4));
    assert_eq!(hit(Vec2::new(-layout.half_extent().x - 3.0 * layout.cell, 0.0)), ClickTarget::Away);
    // A click beside the board lets it go.
    send(&mut app, ClickedAway);
    let s = session(&app);
    assert_eq!((s.selected_hand, s.targets.len()), (None, 0));
    assert_eq!(s.game.ply(), 1);
}

#[test]
fn a_drop_on_a_square_it_may_not_go_is_refused_with_a_ruling() {
    let mut app = app_at("crazyhouse", CRAZYHOUSE_HAND);
    let pawn = kind(&app, "Pawn");
    let (g1, e2) = (square(&app, "g1"), square(&app, "e2"));
    send(
        &mut app,
        ClickedHand {
            side: Side::FIRST,
            kind: pawn,
        },
    );
    send(&mut app, Clicked(g1));
    let s = session(&app);
    assert_eq!(s.game.ply(), 0, "nothing was dropped");
    assert_eq!(held(&app, Side::FIRST, pawn), 1);
    let r = s.refusal.clone().expect("a ruling");
    assert_eq!(r.text, "P@g1");
    let Ruling::Illegal(expected) = s.game.current().explain("P@g1") else {
        panic!("P@g1 is illegal")
    };
    assert_eq!((r.code.as_str(), r.message.as_str()), (expected.code, expected.message.as_str()));
    assert!(r.clause.is_some(), "{r:?}");
    assert_eq!((s.selected_hand, s.targets.len()), (None, 0), "the selection is dropped");
    // On an own piece: that piece is selected instead, nothing refused.
    send(
        &mut app,
        ClickedHand {
            side: Side::FIRST,
            kind: pawn,
        },
    );
    send(&mut app, Clicked(e2));
    let s = session(&app);
    assert_eq!((s.selected, s.selected_hand), (Some(e2), None));
    assert!(s.refusal.is_none());
}

/// Black's man on c3, white men on d4 and f6: one capture, over both, to g7.
const DRAUGHTS_DOUBLE: &str = "7k/8/5m2/8/3m4/2M5/8/8 b - - 0 1";
/// Black's man on c1, white men on b2, d2, b4, d4: two captures to c5, by a3 or by e3.
const DRAUGHTS_TWO_ROUTES: &str = "7k/8/8/8/1m1m4/8/1m1m4/2M5 b - - 0 1";

#[test]
fn a_continuing_capture_is_one_move_played_by_clicking_the_piece_and_its_last_square() {
    let mut app = app_at("draughts", DRAUGHTS_DOUBLE);
    let (c3, e5, g7, d4, f6) = (
        square(&app, "c3"),
        square(&app, "e5"),
        square(&app, "g7"),
        square(&app, "d4"),
        square(&app, "f6"),
    );
    send(&mut app, Clicked(c3));
    assert_eq!(session(&app).targets, vec![g7], "the final square only");
    send(&mut app, Clicked(g7));
    let s = session(&app);
    assert_eq!(s.game.ply(), 1);
    assert_eq!(s.last_move_text().as_deref(), Some("c3e5g7"));
    let pos = s.game.current();
    assert!(
        pos.piece_at(d4).is_none() && pos.piece_at(f6).is_none(),
        "both men jumped are taken"
    );
    assert_eq!(pos.piece_at(g7).map(|p| p.1), Some(Side::FIRST));
    let path = s.last_path().expect("a path");
    assert_eq!(path.squares, vec![c3, e5, g7]);
    assert_eq!(path.jumped, vec![d4, f6]);
    // White's king must answer by jumping the man: one leg, one square jumped.
    let (h8, f6_) = (square(&app, "h8"), f6);
    act(&mut app, Action::Play("h8f6".into()));
    let path = session(&app).last_path().expect("a jump");
    assert_eq!((path.squares, path.jumped), (vec![h8, f6_], vec![g7]));
    // A plain step has no path to draw (its squares are highlighted as any last move).
    let mut step = app_at("draughts", "7k/8/8/8/8/2M5/8/8 b - - 0 1");
    act(&mut step, Action::Play("c3d4".into()));
    assert_eq!(session(&step).game.ply(), 1);
    assert!(session(&step).last_path().is_none());
    assert_eq!(session(&step).last_move(), Some((c3, d4)));
}

#[test]
fn two_routes_to_the_same_square_ask_which_and_play_the_one_chosen() {
    let mut app = app_at("draughts", DRAUGHTS_TWO_ROUTES);
    let (c1, c5) = (square(&app, "c1"), square(&app, "c5"));
    send(&mut app, Clicked(c1));
    assert_eq!(session(&app).targets, vec![c5]);
    send(&mut app, Clicked(c5));
    let s = session(&app);
    assert_eq!(s.game.ply(), 0, "nothing is played before the choice");
    let choice = s.choice.clone().expect("a choice");
    assert_eq!((choice.from, choice.to), (c1, c5));
    let mut labels: Vec<&str> = choice.options.iter().map(|(_, l)| l.as_str()).collect();
    labels.sort_unstable();
    assert_eq!(labels, ["c1-a3-c5", "c1-e3-c5"]);
    let by_e3 = choice.options.iter().find(|(_, l)| l == "c1-e3-c5").expect("by e3").0.clone();
    assert_eq!(by_e3, "c1e3c5");
    act(&mut app, Action::Play(by_e3));
    let s = session(&app);
    assert_eq!(s.game.ply(), 1);
    assert!(s.choice.is_none());
    let pos = s.game.current();
    let taken = |name: &str| pos.piece_at(square(&app, name)).is_none();
    assert!(taken("d2") && taken("d4"), "the men on the route taken");
    assert!(!taken("b2") && !taken("b4"), "the others stay");
    // A click beside the board cancels a pending choice.
    let mut again = app_at("draughts", DRAUGHTS_TWO_ROUTES);
    send(&mut again, Clicked(c1));
    send(&mut again, Clicked(c5));
    assert!(session(&again).choice.is_some());
    send(&mut again, ClickedAway);
    assert!(session(&again).choice.is_none() && session(&again).selected.is_none());
}

#[test]
fn placement_games_play_by_clicking_a_cell_and_a_falling_disc_by_clicking_its_column() {
    // Connect Four: a click high in column d drops the disc to d1.
    let mut app = self::app("connect-four");
    let (d1, d6, d2) = (square(&app, "d1"), square(&app, "d6"), square(&app, "d2"));
    send(&mut app, Clicked(d6));
    let s = session(&app);
    assert_eq!(s.game.ply(), 1);
    assert!(s.game.current().piece_at(d1).is_some() && s.game.current().piece_at(d6).is_none());
    send(&mut app, Clicked(d1));
    assert_eq!(
        session(&app).game.current().piece_at(d2).map(|p| p.1),
        Some(Side::SECOND),
        "the next disc lands on it"
    );
    // Othello: a legal cell flips, an illegal one is refused with a ruling.
    let mut app = self::app("othello");
    let (d3, a1, d4) = (square(&app, "d3"), square(&app, "a1"), square(&app, "d4"));
    send(&mut app, Clicked(a1));
    assert_eq!(session(&app).game.ply(), 0);
    assert_eq!(session(&app).refusal.as_ref().map(|r| r.text.as_str()), Some("a1"));
    send(&mut app, Clicked(d3));
    let s = session(&app);
    assert_eq!(s.game.ply(), 1);
    assert_eq!(s.game.current().piece_at(d4).map(|p| p.1), Some(Side::FIRST), "d4 turned over");
    // Tic-tac-toe: three in a row, then the game is over and a click says so.
    let mut app = self::app("tic-tac-toe");
    for name in ["a1", "a2", "b1", "b2", "c1"] {
        let sq = square(&app, name);
        send(&mut app, Clicked(sq));
    }
    assert_eq!(session(&app).game.outcome().status, Status::Win);
    let c3 = square(&app, "c3");
    send(&mut app, Clicked(c3));
    assert_eq!(session(&app).game.ply(), 5);
    assert_eq!(session(&app).refusal.as_ref().map(|r| r.code.as_str()), Some("game-over"));
}

#[test]
fn the_editor_keeps_the_hands_when_it_changes_a_square() {
    let mut app = app_at("crazyhouse", CRAZYHOUSE_HAND);
    let e4 = square(&app, "e4");
    let queen = kind(&app, "Queen");
    act(
        &mut app,
        Action::Edit(Edit::Put {
            square: e4,
            kind: queen,
            side: Side::FIRST,
        }),
    );
    assert_eq!(fen(&app), "rnbqkb1r/pppppppp/5n2/8/4Q3/5N2/PPPPPPPP/RNBQKB1R[Pn] w KQkq - 0 5");
}

/// A click on a stone of one's own in go (stones stay where they are placed) selects nothing and
/// says why; a chess piece with no move is selected, and the note says it has none.
#[test]
fn a_click_that_can_do_nothing_says_why() {
    let mut app = app("go");
    let (d4, q16) = (square(&app, "D4"), square(&app, "Q16"));
    send(&mut app, Clicked(d4));
    send(&mut app, Clicked(q16));
    send(&mut app, Clicked(d4));
    let s = session(&app);
    assert_eq!(s.game.ply(), 2);
    assert_eq!(s.selected, None, "a stone is not picked up");
    let note = s.note.clone().unwrap_or_default();
    assert!(note.starts_with("D4 is taken") && note.contains("click an empty point"), "{note}");
    let mut app = self::app("chess");
    let a1 = square(&app, "a1");
    send(&mut app, Clicked(a1));
    let s = session(&app);
    assert_eq!(s.selected, Some(a1));
    assert_eq!(s.note.as_deref(), Some("the Rook on a1 has no legal move here"));
}

/// A refused move reads as the move list writes moves: where the ruleset names pieces by letter
/// (SAN, WXF), the piece's letter (as the notation writes it: xiangqi's horse is `H`), its square
/// and the target, `x` onto an enemy piece; a pawn by its squares alone; in a ruleset written in
/// coordinates, the coordinates.
#[test]
fn a_refused_move_is_written_as_the_ruleset_writes_moves() {
    let refused = |what: &str, moves: &[&str], from: &str, to: &str| {
        let mut app = self::app(what);
        for m in moves {
            act(&mut app, Action::Play(m.to_string()));
        }
        let (a, b) = (square(&app, from), square(&app, to));
        send(&mut app, Clicked(a));
        send(&mut app, Clicked(b));
        let r = session(&app)
            .refusal
            .clone()
            .unwrap_or_else(|| panic!("{what}: {from}{to} refused"));
        assert_eq!(r.text, format!("{from}{to}"), "the move as asked for");
        r.written
    };
    assert_eq!(refused("chess", &[], "g1", "g4"), "Ng1–g4");
    assert_eq!(refused("chess", &[], "e2", "e5"), "e2–e5");
    assert_eq!(refused("chess", &["e2e4", "d7d5"], "d1", "d5"), "Qd1xd5");
    assert_eq!(refused("xiangqi", &[], "b1", "b5"), "Hb1–b5");
    assert_eq!(refused("draughts", &[], "c3", "c5"), "c3c5");
}
