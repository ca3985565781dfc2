//! The sandbox's logic in a bare `App` (MinimalPlugins, no window, no renderer): scenario replay,
//! selecting a piece, playing a click, and the ruling on an illegal click.

use bevy::prelude::*;
use sandbox::layout::Layout;
use sandbox::session::{Clicked, Replay, Session};

fn app(what: &str) -> App {
    let mut app = App::new();
    app.add_plugins(MinimalPlugins).add_plugins(sandbox::session::plugin);
    let opened = sandbox::source::open(Some(what)).unwrap_or_else(|e| panic!("{what}: {e}"));
    app.insert_resource(Session::new(opened));
    app.update();
    app
}

fn session(app: &App) -> &Session {
    app.world().resource::<Session>()
}

fn send<M: Message>(app: &mut App, m: M) {
    app.world_mut().write_message(m);
    app.update();
}

fn square(app: &App, name: &str) -> usize {
    session(app)
        .engine
        .rules()
        .board
        .parse_square(name)
        .unwrap_or_else(|| panic!("no square {name}"))
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
}

#[test]
fn stepping_forward_and_back_changes_the_position() {
    let mut app = app("scenarios/chess/checkmate-fools-mate.ron");
    let start = session(&app).game.current().fen();
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
    send(&mut app, Replay::Back);
    send(&mut app, Replay::Back);
    assert_eq!(session(&app).step, 1);
    send(&mut app, Replay::First);
    assert_eq!(session(&app).game.current().fen(), start);
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
    let (e1, g1) = (square(&app, "e1"), square(&app, "g1"));
    send(&mut app, Clicked(e1));
    send(&mut app, Clicked(g1));
    let s = session(&app);
    let r = s.refusal.as_ref().expect("a ruling is recorded");
    assert_eq!(r.text, "e1g1");
    assert_eq!(r.code, "castling-in-check");
    assert_eq!(r.clause.as_deref(), Some("FIDE 3.8.2.2"));
    assert!(r.message.contains("knight on d3"), "{}", r.message);
    assert_eq!(s.game.ply(), 0, "nothing was played");
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
fn the_layout_maps_every_square_to_its_centre_and_back() {
    for what in ["chess", "xiangqi", "go"] {
        let opened = sandbox::source::open(Some(what)).expect("bundled");
        let layout = Layout::new(&opened.engine.rules().board);
        for sq in 0..layout.width * layout.height {
            assert_eq!(layout.square_at(layout.center(sq)), Some(sq), "{what} square {sq}");
        }
        assert_eq!(layout.square_at(layout.center(0) - Vec2::splat(layout.cell)), None);
    }
}

#[test]
fn a_missing_file_is_an_error_not_a_panic() {
    let err = sandbox::source::open(Some("no-such-game")).err().expect("an error");
    assert!(err.contains("no-such-game"), "{err}");
}
