//! Running clocks in a bare `App` on a manual clock (each update is one second): the side to move's
//! time runs down, a move charges its time to its player (the ruleset's stages and byo-yomi), a
//! flag that falls ends the game as the ruleset's `flag fallen` rule says, with its clause, and a
//! change of position other than a move stops the clocks.

use crate::common;

use std::time::Duration;

use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use common::{act, app, send, session};
use sandbox::players::clocks::{ClockRequest, LiveClock};
use sandbox::session::{Action, Replay, Tools};

/// `what` opened with the clocks running on a manual clock, one second per update, under `control`.
fn clocked(what: &str, control: &str) -> App {
    let mut app = app(what);
    app.insert_resource(Tools::default())
        .insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_secs(1)))
        .add_plugins(sandbox::players::clocks::plugin);
    app.update();
    app.world_mut().resource_mut::<LiveClock>().request = Some(ClockRequest::Start(control.to_string()));
    app.update();
    app
}

fn live(app: &App) -> &LiveClock {
    app.world().resource::<LiveClock>()
}

fn wait(app: &mut App, seconds: usize) {
    for _ in 0..seconds {
        app.update();
    }
}

#[test]
fn the_side_to_moves_clock_runs_and_a_move_charges_its_time() {
    // Xiangqi's rapid-30: 30 moves every 5 minutes.
    let mut app = clocked("xiangqi", "rapid-30");
    assert!(live(&app).running);
    wait(&mut app, 20);
    let [red, black] = live(&app).shown;
    assert!((278.0..=281.0).contains(&red), "red's clock runs: {red}");
    assert_eq!(black, 300.0, "black's does not");
    act(&mut app, Action::Play("h3e3".into()));
    wait(&mut app, 10);
    let [red, black] = live(&app).shown;
    assert!((278.0..=281.0).contains(&red), "red's stopped with the move: {red}");
    assert!((288.0..=291.0).contains(&black), "black's runs: {black}");
    assert!(live(&app).running);
}

#[test]
fn a_flag_that_falls_ends_the_game_as_the_ruleset_says() {
    let mut app = clocked("xiangqi", "rapid-30");
    act(&mut app, Action::Play("h3e3".into()));
    wait(&mut app, 305);
    let l = live(&app);
    assert!(!l.running, "the clocks stop at the flag fall");
    let o = session(&app).game.outcome();
    assert_eq!(o.reason.as_deref(), Some("flag-fall"), "{o:?}");
    assert_eq!(o.winner.map(|w| w.index()), Some(0), "red wins on black's time");
    assert!(o.clause.is_some(), "the flag rule's clause: {o:?}");
    assert!(
        l.stopped.as_deref().is_some_and(|s| s.starts_with("black's flag fell")),
        "{:?}",
        l.stopped
    );
    // No move after the flag fall.
    act(&mut app, Action::Play("h10g8".into()));
    assert!(!session(&app).log.last().expect("logged").ok);
}

#[test]
fn byoyomi_periods_show_and_a_step_back_stops_the_clocks() {
    // Go's club control: 60 minutes, then one period of 60 s.
    let mut app = clocked("go", "club");
    wait(&mut app, 3605);
    assert_eq!(live(&app).periods[0], None, "black still has a period: not flagged");
    act(&mut app, Action::Play("D4".into()));
    app.update();
    let l = live(&app);
    assert!(l.running);
    assert_eq!(l.periods[0], Some(1), "black in byo-yomi with the period kept");
    send(&mut app, Replay::Back);
    app.update();
    let l = live(&app);
    assert!(!l.running);
    assert!(
        l.stopped.as_deref().is_some_and(|s| s.contains("other than by a move")),
        "{:?}",
        l.stopped
    );
}

/// The panel shows both clocks and why they stopped, and nothing below them moves when they start.
#[test]
fn the_panel_shows_the_clocks_without_moving_what_follows() {
    let mut app = clocked("xiangqi", "rapid-30");
    wait(&mut app, 3);
    let mut tools = app.world().resource::<Tools>().clone();
    let running = common::panel_texts_with_clock(session(&app), &mut tools, live(&app).clone());
    let idle = common::panel_texts(session(&app), &mut Tools::default());
    assert_eq!(
        common::at(&running, "Computer"),
        common::at(&idle, "Computer"),
        "the computer section stays put"
    );
    assert!(
        running.iter().any(|(t, _)| t.starts_with("red 4:5") && t.ends_with("black 5:00")),
        "{running:?}"
    );
    assert!(
        idle.iter().any(|(t, _)| t == "red 5:00   black 5:00" || t.contains("not started")),
        "{idle:?}"
    );
}

/// Clocks stopped by the end of the game say so only while the game is over: stepped back into a
/// live position, they say when they stopped instead.
#[test]
fn the_game_is_over_goes_when_the_game_is_stepped_back() {
    let mut app = clocked("chess", "blitz");
    for m in ["f2f3", "e7e5", "g2g4", "d8h4"] {
        act(&mut app, Action::Play(m.into()));
        wait(&mut app, 1);
    }
    assert!(!live(&app).running);
    assert_eq!(live(&app).stopped.as_deref(), Some("the game is over"));
    send(&mut app, Replay::Back);
    wait(&mut app, 1);
    assert_eq!(session(&app).game.ply(), 3);
    let said = live(&app).stopped.clone().unwrap_or_default();
    assert!(!said.contains("is over") && said.contains("stopped"), "{said}");
}

/// A running clock does not ask for every frame: the window is told to wake when the clock's text
/// next changes (at most a second away, a tenth under ten seconds), and to sleep again as an idle
/// window does once the clocks stop.
#[test]
fn a_running_clock_wakes_the_window_once_a_second_not_every_frame() {
    use bevy::window::RequestRedraw;
    use bevy::winit::{UpdateMode, WinitSettings};
    let mut app = app("xiangqi");
    app.insert_resource(Tools::default())
        .insert_resource(sandbox::window::redraw::settings())
        .insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_millis(250)))
        .add_message::<RequestRedraw>()
        .add_plugins(sandbox::players::clocks::plugin);
    app.update();
    app.world_mut().resource_mut::<LiveClock>().request = Some(ClockRequest::Start("rapid-30".to_string()));
    app.update();
    app.update();
    assert!(live(&app).running);
    let wait = |app: &App| match app.world().resource::<WinitSettings>().focused_mode {
        UpdateMode::Reactive { wait, .. } => wait,
        UpdateMode::Continuous => Duration::ZERO,
    };
    let asked = app.world().resource::<Messages<RequestRedraw>>().len();
    assert_eq!(asked, 0, "no frame asked for every frame");
    assert!(
        wait(&app) <= Duration::from_millis(1005) && wait(&app) > Duration::ZERO,
        "{:?}",
        wait(&app)
    );
    app.world_mut().resource_mut::<LiveClock>().request = Some(ClockRequest::Stop);
    app.update();
    assert_eq!(wait(&app), sandbox::window::redraw::IDLE_WAIT, "stopped: the idle window's wait");
}
