//! The app around the board, in a bare `App` (no window, no renderer): the window draws only while
//! something moves on its own.

use std::path::PathBuf;

use bevy::prelude::*;
use bevy::window::RequestRedraw;
use sandbox::players::computer::{Computer, Seats};
use sandbox::players::simulate::{SimRequest, Simulation};
use sandbox::session::Session;
use sandbox::timeline::replay::Autoplay;

use crate::common;
use common::*;

/// [`common::app`] with the redraw plugin, noting whether each update asked for another frame.
fn watched_app(what: &str) -> App {
    let mut app = common::app(what);
    app.add_plugins(sandbox::window::redraw::plugin)
        .init_resource::<Asked>()
        .add_systems(Last, note_requests);
    app.update();
    app
}

/// Whether the last update asked for another frame.
#[derive(Resource, Default)]
struct Asked(bool);

fn note_requests(mut requests: MessageReader<RequestRedraw>, mut asked: ResMut<Asked>) {
    asked.0 = requests.read().count() > 0;
}

/// Did the last update ask for another frame?
fn asked_to_redraw(app: &App) -> bool {
    app.world().resource::<Asked>().0
}

#[test]
fn an_idle_window_asks_for_no_frames_but_autoplay_the_computer_and_a_simulation_do() {
    let record = root().join("tests/pgn/opera-game.pgn");
    let mut app = watched_app(record.to_str().expect("a UTF-8 path"));
    for _ in 0..3 {
        app.update();
        assert!(!asked_to_redraw(&app), "nothing under way: no frame asked for");
    }

    app.world_mut().resource_mut::<Autoplay>().playing = true;
    app.update();
    assert!(asked_to_redraw(&app), "autoplay steps on its own: every frame is asked for");
    app.world_mut().resource_mut::<Autoplay>().playing = false;
    app.update();
    assert!(!asked_to_redraw(&app), "paused: idle again");

    let mut chess = app_at_start();
    chess.world_mut().resource_mut::<Computer>().seats = Seats::FIRST;
    chess.update();
    assert!(asked_to_redraw(&chess), "the computer is to move or thinking: frames keep coming");
    chess.world_mut().resource_mut::<Computer>().seats = Seats::NONE;
    // The dropped search ends; then the window is idle.
    for _ in 0..3 {
        chess.update();
    }
    assert!(chess.world().resource::<Computer>().thinking.is_none());
    assert!(!asked_to_redraw(&chess), "no one thinking: idle");

    {
        let mut sim = chess.world_mut().resource_mut::<Simulation>();
        sim.settings.games = 2;
    }
    chess.world_mut().write_message(SimRequest::Run);
    chess.update();
    if chess.world().resource::<Simulation>().running.is_some() {
        chess.update();
        assert!(asked_to_redraw(&chess), "a simulation runs: its progress is drawn");
    }
    assert!(
        chess.world().resource::<Simulation>().running.is_some() || chess.world().resource::<Simulation>().result.is_some(),
        "the run started"
    );
    assert_eq!(session(&chess).game.ply(), 0);
}

fn app_at_start() -> App {
    watched_app("chess")
}

#[test]
fn a_modifiers_event_that_repeats_the_last_one_is_dropped_so_egui_can_sleep() {
    use bevy_egui::{EguiInput, egui};
    let mut app = App::new();
    app.add_plugins(MinimalPlugins)
        .add_systems(Update, sandbox::window::redraw::quiet_modifiers);
    let none = egui::Event::ModifiersChanged(egui::Modifiers::NONE);
    let ctrl = egui::Event::ModifiersChanged(egui::Modifiers::CTRL);
    let context = app.world_mut().spawn(EguiInput::default()).id();
    let mut frame = |events: Vec<egui::Event>| {
        app.world_mut().get_mut::<EguiInput>(context).expect("the input").0.events = events;
        app.update();
        app.world().get::<EguiInput>(context).expect("the input").0.events.clone()
    };
    assert_eq!(frame(vec![none.clone()]), vec![none.clone()], "the first report is news");
    assert_eq!(frame(vec![none.clone()]), vec![], "the same again is not: no event, no repaint");
    let key = egui::Event::Text("x".into());
    assert_eq!(frame(vec![key.clone(), none.clone()]), vec![key], "other events stay");
    assert_eq!(frame(vec![ctrl.clone()]), vec![ctrl.clone()], "Ctrl pressed is news");
    assert_eq!(frame(vec![ctrl.clone()]), vec![]);
    assert_eq!(frame(vec![none.clone()]), vec![none], "and its release");
}

#[test]
fn a_saved_scenario_is_titled_after_its_file_and_the_save_is_logged_with_where_it_went() {
    use sandbox::session::{Action, Apply};
    let mut app = watched_app("chess");
    app.world_mut().write_message(Apply(Action::Play("e2e4".into())));
    app.update();
    let path = temp_dir("save").join("king-pawn-opening.ron");
    app.world_mut().write_message(Apply(Action::Save(path.clone(), Default::default())));
    app.update();
    let text = std::fs::read_to_string(&path).expect("written");
    assert!(text.contains("title: \"king pawn opening\""), "a title of its own: {text}");
    assert!(
        !text.contains(&session(&app).title),
        "not the opened one's ({}): {text}",
        session(&app).title
    );
    let entry = session(&app).log.last().expect("logged");
    assert!(entry.ok && entry.said.contains(&path.display().to_string()), "{:?}", entry.said);
    assert_eq!(session(&app).game.ply(), 1, "a save leaves the game as it was");

    app.world_mut().write_message(Apply(Action::Save(path.clone(), Default::default())));
    app.update();
    let entry = session(&app).log.last().expect("logged");
    assert!(!entry.ok && entry.said.contains("already exists"), "{:?}", entry.said);
}

#[test]
fn scenarios_are_saved_in_the_users_data_folder_by_default() {
    use sandbox::session::editor::save_dir_from;
    use std::ffi::OsStr;
    assert_eq!(
        save_dir_from(Some(OsStr::new("/data")), Some(OsStr::new("/home/ann"))),
        PathBuf::from("/data/arbiter/scenarios")
    );
    assert_eq!(
        save_dir_from(None, Some(OsStr::new("/home/ann"))),
        PathBuf::from("/home/ann/.local/share/arbiter/scenarios")
    );
    assert_eq!(
        save_dir_from(Some(OsStr::new("relative")), Some(OsStr::new("/home/ann"))),
        PathBuf::from("/home/ann/.local/share/arbiter/scenarios"),
        "a relative XDG_DATA_HOME is ignored, as the XDG spec says"
    );
    let home = std::env::var_os("HOME").filter(|h| PathBuf::from(h).is_absolute());
    if let Some(home) = home {
        let default = sandbox::session::editor::default_save_path(session(&watched_app("chess")));
        assert!(
            default.starts_with(&home) || std::env::var_os("XDG_DATA_HOME").is_some(),
            "{default:?}"
        );
        assert!(default.is_absolute(), "not under the current directory: {default:?}");
    }
}

#[test]
fn reload_errors_are_rendered_as_the_command_line_renders_them() {
    let dir = temp_dir("typo");
    let file = dir.join("typo.rules");
    let good = std::fs::read_to_string(root().join("rulesets/tic-tac-toe.rules")).expect("the bundled rules");
    std::fs::write(&file, good.replace("along orthogonal | diagonal", "along orthogonl | diagonal")).expect("written");
    let errors = match sandbox::session::source::reopen("tic-tac-toe", &file, &[]) {
        Err(e) => e,
        Ok(_) => panic!("the typo is an error"),
    };
    assert_eq!(errors.len(), 1, "{errors:?}");
    let e = &errors[0];
    assert!(e.starts_with("error[E0101]: unknown direction `orthogonl`"), "{e}");
    assert!(e.contains("typo.rules:20:36"), "where: {e}");
    assert!(e.contains("along orthogonl | diagonal"), "the source line: {e}");
    assert!(e.contains("^^^^^^^^^"), "a caret under the name: {e}");
    assert!(e.contains("did you mean `orthogonal`?"), "the help: {e}");
}

#[test]
fn the_panels_buttons_stay_put_when_check_a_ruling_or_an_outcome_appears() {
    use sandbox::session::{Action, Tools};
    let opened = || sandbox::session::source::open(Some("chess")).expect("chess");
    let mut tools = Tools::default();
    let quiet = Session::new(opened());
    let before = panel_texts(&quiet, &mut tools);

    let mut check = Session::new(opened());
    for m in ["e2e4", "f7f6", "d1h5"] {
        check.apply(Action::Play(m.into())).expect("legal");
    }
    assert!(check.game.current().in_check());
    // A refused move: its ruling is shown too.
    let g8 = check.engine.rules().board.square(6, 7);
    let e5 = check.engine.rules().board.square(4, 4);
    check.click(g8);
    check.click(e5);
    assert!(check.refusal.is_some(), "a ruling to show");
    let during = panel_texts(&check, &mut tools);
    assert!(during.iter().any(|(t, _)| t.starts_with("In check")), "the check is shown");

    let mut mate = Session::new(opened());
    for m in ["f2f3", "e7e5", "g2g4", "d8h4"] {
        mate.apply(Action::Play(m.into())).expect("legal");
    }
    let after = panel_texts(&mate, &mut tools);
    for label in [
        "Take back",
        "Random move",
        "Copy FEN",
        "Save as scenario",
        "Move now",
        "Flip board",
        "Edit",
    ] {
        assert_eq!(at(&before, label), at(&during, label), "`{label}` with a check and a ruling shown");
        assert_eq!(at(&before, label), at(&after, label), "`{label}` with the outcome shown");
    }
    // A draw that may be claimed: its sentence once (the outcome's message and the claim line both
    // had it), and the buttons above it where they were.
    let mut repeated = Session::new(opened());
    for m in ["g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1", "f6g8"] {
        repeated.apply(Action::Play(m.into())).expect("legal");
    }
    assert!(!repeated.game.outcome().claimable.is_empty(), "a draw to claim");
    let claim = panel_texts(&repeated, &mut tools);
    let sentences = claim.iter().filter(|(t, _)| t.contains("may claim")).count();
    assert_eq!(sentences, 1, "{claim:?}");
    for label in ["Take back", "Random move", "Copy FEN", "Save as scenario"] {
        assert_eq!(at(&before, label), at(&claim, label), "`{label}` with a claim shown");
    }
}

/// In a window as low as 560 pixels, what the interpreter says is in sight without scrolling: the
/// ruling on a refused move in the bar over the board, and the side to move, the check and a
/// scenario step's expectations under the board — beside the panel, inside the window (they sat
/// under every control, below the fold).
#[test]
fn in_a_low_window_the_ruling_and_the_status_are_in_sight_beside_the_panel() {
    use sandbox::session::{Action, Tools};
    let mut tools = Tools::default();
    let mut check = Session::new(sandbox::session::source::open(Some("chess")).expect("chess"));
    for m in ["e2e4", "f7f6", "d1h5"] {
        check.apply(Action::Play(m.into())).expect("legal");
    }
    let board = check.engine.rules().board.clone();
    check.click(board.square(6, 7));
    check.click(board.square(4, 4));
    assert!(check.refusal.is_some(), "a ruling to show");
    let mut panel = Panel::new(560.0);
    let texts = panel.settle(&check, &mut tools);
    let in_sight = |t: &(String, bevy_egui::egui::Pos2)| {
        t.1.x > sandbox::board::layout::PANEL_WIDTH && t.1.x < WINDOW_WIDTH && t.1.y >= 0.0 && t.1.y < 560.0 - 10.0
    };
    for wanted in ["illegal", "To move: black", "In check"] {
        let found = texts
            .iter()
            .find(|t| t.0.contains(wanted))
            .unwrap_or_else(|| panic!("`{wanted}`: {texts:?}"));
        assert!(in_sight(found), "`{wanted}` beside the panel, in the window: {found:?}");
    }
    // The status is under the board's file names, not over the board.
    let layout = sandbox::board::layout::Layout::fit(&board, sandbox::board::layout::Screen(Vec2::new(WINDOW_WIDTH, 560.0)));
    let names = 560.0 / 2.0 - sandbox::board::layout::BOARD_LIFT - layout.file_label(0).y;
    let status = texts.iter().find(|t| t.0.contains("To move: black")).expect("the status");
    assert!(status.1.y > names, "under the names ({names}): {status:?}");
    // A scenario step's caption and expectations: under the board too.
    let path = root().join("scenarios/draughts/kings-move-backwards.ron");
    let mut scenario = Session::new(sandbox::session::source::open(path.to_str()).expect("the scenario"));
    scenario.apply(Action::GoTo(1)).expect("step 1");
    let texts = Panel::new(560.0).settle(&scenario, &mut tools);
    let expectation = texts
        .iter()
        .find(|t| t.0.starts_with("✔ the piece on d4"))
        .unwrap_or_else(|| panic!("{texts:?}"));
    assert!(in_sight(expectation), "an expectation in sight: {expectation:?}");
}

#[test]
fn a_game_of_chance_offers_a_button_per_number_while_the_player_is_still_to_roll() {
    use sandbox::session::Action;
    let mut race = Session::new(sandbox::session::source::open(Some("dice-race")).expect("the dice race"));
    let shown = |s: &Session| -> Vec<(String, bool)> { sandbox::panel::special_moves(s).into_iter().map(|m| (m.text, m.legal)).collect() };
    let rolls = |legal: bool| -> Vec<(String, bool)> { (1..=4).map(|n| (format!("roll:{n}"), legal)).collect() };
    // Still to roll: each number may be set (a teacher's roll); the pass is not legal yet.
    let mut expected = rolls(true);
    expected.push(("pass".into(), false));
    assert_eq!(shown(&race), expected);
    race.apply(Action::Play("roll:2".into())).expect("a roll of 2");
    // Rolled: the numbers are greyed, and a runner enters on b1 (so no pass either).
    let mut expected = rolls(false);
    expected.push(("pass".into(), false));
    assert_eq!(shown(&race), expected);
    race.apply(Action::Play("b1".into())).expect("entering on b1");
    let b1 = race.game.current().rules().board.parse_square("b1").expect("b1");
    assert_eq!(race.last_move(), Some((b1, b1)), "a drop is shown on its square");
    // A random move at a roll rolls, as likely as the die makes each number; the board still
    // shows the last move of a runner.
    race.apply(Action::Random { seed: 3 }).expect("a random roll");
    assert!(race.game.current().rolled().is_some(), "black has rolled");
    assert_eq!(race.last_move(), Some((b1, b1)), "a roll has no squares");
    let mut tools = sandbox::session::Tools::default();
    at(&panel_texts(&race, &mut tools), "Roll 1");
    // The Royal Game of Ur bears pieces off: a button for each piece that may go, greyed otherwise.
    let mut ur = Session::new(sandbox::session::source::open(Some("ur")).expect("ur"));
    let off = |s: &Session| -> Vec<(String, bool)> {
        sandbox::panel::special_moves(s)
            .into_iter()
            .filter(|m| m.label.starts_with("Bear off"))
            .map(|m| (m.label, m.legal))
            .collect()
    };
    assert_eq!(off(&ur), vec![("Bear off".to_string(), false)]);
    ur.apply(Action::Edit(sandbox::session::Edit::Fen("8/8/7P[p] w - - 6+6 0 40".into())))
        .expect("a position near the end");
    ur.apply(Action::Play("roll:2".into())).expect("a throw of 2");
    assert_eq!(off(&ur), vec![("Bear off h1".to_string(), true)]);
    ur.apply(Action::Play("h1off".into())).expect("bearing off");
    assert_eq!(ur.game.outcome().status, arbiter::game::Status::Win, "seven home wins");
}

#[test]
fn backgammon_shows_the_dice_still_to_use_and_a_button_per_throw() {
    use sandbox::session::Action;
    let mut bg = Session::new(sandbox::session::source::open(Some("backgammon")).expect("backgammon"));
    let moves = sandbox::panel::special_moves(&bg);
    let rolls: Vec<&str> = moves
        .iter()
        .filter(|m| m.text.starts_with("roll:"))
        .map(|m| m.text.as_str())
        .collect();
    assert_eq!(rolls.len(), 21, "{rolls:?}");
    assert!(rolls.contains(&"roll:6-5") && rolls.contains(&"roll:4-4"), "{rolls:?}");
    assert_eq!(
        sandbox::panel::dice_shown(&bg).as_deref(),
        Some("Roll: white to roll (2 dice of 6 used one by one, doubles twice)")
    );
    bg.apply(Action::Play("roll:6-5".into())).expect("a throw of 6-5");
    assert_eq!(sandbox::panel::dice_shown(&bg).as_deref(), Some("Dice: white has 6-5 to use"));
    bg.apply(Action::Play("l2f2".into())).expect("the 6");
    assert_eq!(sandbox::panel::dice_shown(&bg).as_deref(), Some("Dice: white has 5 to use"));
    let mut tools = sandbox::session::Tools::default();
    at(&panel_texts(&bg, &mut tools), "Dice: white has 5 to use");
    bg.apply(Action::Play("f2a2".into())).expect("the 5");
    assert_eq!(
        sandbox::panel::dice_shown(&bg).as_deref(),
        Some("Roll: black to roll (2 dice of 6 used one by one, doubles twice)")
    );
    // Bearing off by either of two dice: a button for each, naming its die.
    bg.apply(Action::Edit(sandbox::session::Edit::Fen(
        "11c/11(2C)[] w - - 13+14 roll:6-5 0 40".into(),
    )))
    .expect("a position near the end");
    let off: Vec<(String, bool)> = sandbox::panel::special_moves(&bg)
        .into_iter()
        .filter(|m| m.label.starts_with("Bear off"))
        .map(|m| (m.label, m.legal))
        .collect();
    assert_eq!(
        off,
        vec![("Bear off l1 by 6".to_string(), true), ("Bear off l1 by 5".to_string(), true)]
    );
    bg.apply(Action::Play("l1off:5".into())).expect("bearing off by the 5");
    bg.apply(Action::Play("l1off:6".into())).expect("and by the 6");
    assert_eq!(bg.game.outcome().status, arbiter::game::Status::Win, "fifteen off wins");
}

#[test]
fn a_pass_button_is_offered_wherever_the_ruleset_allows_a_pass_and_greyed_when_not_legal() {
    use sandbox::session::Action;
    let go = Session::new(sandbox::session::source::open(Some("go")).expect("go"));
    let moves = sandbox::panel::special_moves(&go);
    assert_eq!(moves.len(), 1, "{moves:?}");
    assert!(moves[0].text == "pass" && moves[0].legal, "{moves:?}");
    let chess = Session::new(sandbox::session::source::open(Some("chess")).expect("chess"));
    assert!(sandbox::panel::special_moves(&chess).is_empty(), "chess has no pass");
    // Two passes end a go game by hand; then the button is greyed, not gone.
    let mut go = go;
    go.apply(Action::Play("pass".into())).expect("a pass is legal");
    go.apply(Action::Play("pass".into())).expect("a pass is legal");
    assert_ne!(go.game.outcome().status, arbiter::game::Status::Ongoing, "two passes end the game");
    let moves = sandbox::panel::special_moves(&go);
    assert!(moves.len() == 1 && !moves[0].legal, "{moves:?}");
    let mut tools = sandbox::session::Tools::default();
    at(&panel_texts(&go, &mut tools), "Pass");
}

#[test]
fn copy_fen_hands_the_fen_to_egui_as_a_clipboard_command() {
    use bevy_egui::egui;
    let session = Session::new(sandbox::session::source::open(Some("chess")).expect("chess"));
    let mut tools = sandbox::session::Tools::default();
    let ctx = egui::Context::default();
    let mut out = ctx.run_ui(egui::RawInput::default(), |ui| {
        sandbox::panel::copy_fen(ui.ctx(), &session, &mut tools);
    });
    out.textures_delta.clear();
    let fen = session.game.current().fen();
    assert!(
        out.platform_output.commands.contains(&egui::OutputCommand::CopyText(fen.clone())),
        "{:?}",
        out.platform_output.commands
    );
    assert_eq!(tools.copied, Some(fen));
    // bevy_egui turns that command into a system clipboard call (and Ctrl+V into a paste) only
    // with its `manage_clipboard` feature, which is what defines this type: without the feature
    // this test does not build.
    let clipboard: Option<bevy_egui::EguiClipboard> = None;
    assert!(clipboard.is_none());
}

#[test]
fn the_panel_gives_a_scenario_from_an_sgf_record_the_records_ply_and_outcome() {
    let path = root().join("scenarios/go/sgf-record.ron");
    let session = Session::new(sandbox::session::source::open(path.to_str()).expect("the scenario"));
    let mut tools = sandbox::session::Tools::default();
    let texts = panel_texts(&session, &mut tools);
    let plies = session.game.ply();
    assert!(plies > 20, "the record's moves: {plies}");
    assert!(
        texts.iter().any(|(t, _)| t.contains(&format!("Ply: {plies}"))),
        "{:?}",
        texts.iter().map(|t| &t.0).collect::<Vec<_>>()
    );
    let all: Vec<&String> = texts.iter().map(|t| &t.0).collect();
    assert!(all.iter().any(|t| t.contains("black wins (score)")), "the outcome: {all:?}");
    assert!(
        all.iter().any(|t| t.starts_with("Score:") && t.ends_with("black by 2.5")),
        "the final count, not an estimate: {all:?}"
    );
}

/// Every button drawn as an icon alone (transport ⏮ ⏪ ▶ ⏩ ⏭, and any other glyph without words)
/// explains itself when the pointer rests on it: a tooltip appears with words in it.
#[test]
fn every_icon_button_has_a_tooltip() {
    use bevy_egui::egui;
    use sandbox::session::Tools;
    let session =
        Session::new(sandbox::session::source::open(Some(&format!("{}/tests/pgn/opera-game.pgn", root().display()))).expect("opens"));
    let mut tools = Tools::default();
    let mut panel = Panel::new(2000.0);
    let texts = panel.settle(&session, &mut tools);
    let icons: Vec<(String, egui::Pos2)> = texts
        .iter()
        .filter(|(t, _)| {
            let t = t.trim();
            !t.is_empty() && t.chars().count() <= 2 && t.chars().all(|c| !c.is_ascii() && !c.is_alphabetic())
        })
        .cloned()
        .collect();
    for transport in ["⏮", "⏪", "▶", "⏩", "⏭"] {
        assert!(icons.iter().any(|(t, _)| t == transport), "{transport} is drawn: {icons:?}");
    }
    for (icon, pos) in &icons {
        // Rest the pointer on the glyph's middle for a second of frames (egui waits before a tooltip).
        let spot = *pos + egui::vec2(5.0, 7.0);
        let mut shown = Vec::new();
        panel.events.push(egui::Event::PointerMoved(spot));
        for _ in 0..90 {
            shown = panel.frame(&session, &mut tools);
        }
        let new: Vec<&String> = shown
            .iter()
            .map(|(t, _)| t)
            .filter(|t| t.split_whitespace().count() >= 2 && !texts.iter().any(|(old, _)| old == *t))
            .collect();
        assert!(!new.is_empty(), "no tooltip on `{icon}`");
        panel.events.push(egui::Event::PointerGone);
        panel.frame(&session, &mut tools);
    }
}

/// A reload's errors open a pane over the board titled with the file's path, each error whole in a
/// monospace font and unwrapped — its lines are the lines `arbiter check` prints, so the caret
/// stays under the mistake — however narrow the panel.
#[test]
fn rule_errors_open_a_pane_with_the_path_and_lines_that_never_wrap() {
    use bevy_egui::egui;
    let dir = temp_dir("pane");
    let file = dir.join("typo.rules");
    let good = std::fs::read_to_string(root().join("rulesets/tic-tac-toe.rules")).expect("the bundled rules");
    std::fs::write(&file, &good).expect("written");
    let mut app = app(file.to_str().expect("UTF-8"));
    std::fs::write(&file, good.replace("along orthogonal | diagonal", "along orthogonl | diagonal")).expect("written");
    let reopened = sandbox::session::source::reopen("tic-tac-toe", &file, &[]);
    app.world_mut().resource_mut::<Session>().reload_rules(reopened);
    let session = session(&app);
    assert_eq!(session.rule_errors.len(), 1);
    let error = session.rule_errors[0].clone();
    let ctx = egui::Context::default();
    let mut galleys = Vec::new();
    for frame in 0..3 {
        let input = egui::RawInput {
            time: Some(frame as f64),
            screen_rect: Some(egui::Rect::from_min_size(egui::Pos2::ZERO, egui::vec2(900.0, 560.0))),
            ..Default::default()
        };
        let mut out = ctx.run_ui(input, |ui| sandbox::panel::rule_errors_pane(ui.ctx(), session, 580.0));
        out.textures_delta.clear();
        galleys = out
            .shapes
            .into_iter()
            .filter_map(|c| match c.shape {
                egui::Shape::Text(t) => Some((t.galley.text().to_string(), t.galley.rows.len())),
                _ => None,
            })
            .collect();
    }
    let title = galleys.iter().find(|(t, _)| t.starts_with("Rule errors: ")).expect("a titled pane");
    assert!(title.0.ends_with("typo.rules"), "{}", title.0);
    let shown = galleys.iter().find(|(t, _)| *t == error).expect("the error, whole");
    assert_eq!(shown.1, error.lines().count(), "one row a line: nothing wrapped\n{error}");
}
