//! The library's players in the sandbox, in a bare `App` (no window, no renderer): the computer
//! answers a move on its background thread, drops an answer made stale by a take-back, sees the
//! game's earlier positions, and stops a dropped search; Simulate runs the games asked for, writes the command line that
//! repeats them, and a Stop leaves a partial tally; nothing touches the session (so the board is
//! not redrawn) while the computer waits or thinks.

use std::time::{Duration, Instant};

use arbiter::game::{Game, Status};
use arbiter::model::Side;
use arbiter::notation::uci;
use arbiter::sim::{Budget, PlayerSpec};
use bevy::prelude::*;
use sandbox::players::computer::{Computer, Seats, walk_of_game};
use sandbox::players::simulate::{SimRequest, SimSettings, Simulation, command_line};
use sandbox::session::{Action, Session};

use crate::common;
use common::*;

/// Runs the app's update until `done` holds, failing the test after `limit`.
fn update_until(app: &mut App, limit: Duration, what: &str, done: impl Fn(&App) -> bool) {
    let began = Instant::now();
    while !done(app) {
        assert!(began.elapsed() < limit, "{what}: not within {limit:?}");
        std::thread::sleep(Duration::from_millis(5));
        app.update();
    }
}

fn set_computer(app: &mut App, seats: Seats, player: PlayerSpec) {
    let mut c = app.world_mut().resource_mut::<Computer>();
    c.seats = seats;
    c.player = player;
    c.seed = 7;
    app.update();
}

const MCTS_50: PlayerSpec = PlayerSpec::Mcts(Budget::Iterations(50));

#[test]
fn the_computer_answers_a_move_with_a_legal_move_of_its_own() {
    let mut app = app("chess");
    set_computer(&mut app, Seats::SECOND, MCTS_50);
    assert_eq!(session(&app).game.ply(), 0, "the first side is a person's: the computer waits");
    act(&mut app, Action::Play("e2e4".into()));
    let after_e4 = session(&app).game.current().clone();
    update_until(&mut app, Duration::from_secs(30), "the computer's answer", |a| {
        session(a).game.ply() == 2
    });
    let s = session(&app);
    let last = s.log.last().expect("the answer is logged");
    assert!(last.ok, "the answer was played: {last:?}");
    let Action::Play(text) = &last.action else {
        panic!("the answer goes through Action::Play: {last:?}")
    };
    assert!(uci::find(&after_e4, text).is_some(), "{text} is legal after e2e4");
    assert_eq!(after_e4.side_to_move(), Side::SECOND);
    let c = app.world().resource::<Computer>();
    assert!(c.thinking.is_none());
    assert!(c.said.as_deref().is_some_and(|t| t.contains("mcts:50")), "{:?}", c.said);
    // The first side is to move again: the computer leaves it to the person.
    for _ in 0..20 {
        app.update();
    }
    assert_eq!(session(&app).game.ply(), 2);
}

#[test]
fn the_computer_plays_both_sides_until_the_game_ends() {
    let mut app = app("tic-tac-toe");
    set_computer(&mut app, Seats::ALL, PlayerSpec::Random);
    update_until(&mut app, Duration::from_secs(30), "a whole game", |a| {
        session(a).game.outcome().status != Status::Ongoing
    });
    let plies = session(&app).game.ply();
    assert!(
        (5..=9).contains(&plies),
        "a game of noughts and crosses lasts 5 to 9 plies: {plies}"
    );
    for _ in 0..20 {
        app.update();
    }
    assert_eq!(session(&app).game.ply(), plies, "no move after the end");
    assert!(app.world().resource::<Computer>().thinking.is_none());
}

#[test]
fn an_answer_made_stale_by_a_take_back_is_dropped() {
    let mut app = app("chess");
    set_computer(&mut app, Seats::SECOND, MCTS_50);
    act(&mut app, Action::Play("e2e4".into()));
    assert!(
        app.world().resource::<Computer>().thinking.is_some(),
        "the computer started thinking in the update that played e2e4"
    );
    let logged = session(&app).log.len();
    act(&mut app, Action::TakeBack);
    let c = app.world().resource::<Computer>();
    assert!(c.thinking.is_none(), "the take-back dropped the search");
    assert_eq!(c.dropped, 1);
    // Give the dropped search time to finish: its answer (a move for the second side) must not
    // be tried on the position after the take-back.
    let began = Instant::now();
    while began.elapsed() < Duration::from_millis(1500) {
        std::thread::sleep(Duration::from_millis(10));
        app.update();
    }
    let s = session(&app);
    assert_eq!(s.game.ply(), 0);
    assert_eq!(s.log.len(), logged + 1, "only the take-back was logged: {:?}", &s.log[logged..]);
    assert!(app.world().resource::<Computer>().thinking.is_none(), "the person is to move");
}

/// A dropped search stops: a take-back in the middle of a one-minute search ends its thread
/// within seconds, rather than leaving it to spend its whole budget.
#[test]
fn a_dropped_search_stops_its_thread() {
    let mut app = app("chess");
    set_computer(&mut app, Seats::SECOND, PlayerSpec::Mcts(Budget::Time(Duration::from_secs(60))));
    act(&mut app, Action::Play("e2e4".into()));
    let running = app.world().resource::<Computer>().running.clone();
    assert_eq!(running.load(std::sync::atomic::Ordering::SeqCst), 1, "one search under way");
    std::thread::sleep(Duration::from_millis(200));
    act(&mut app, Action::TakeBack);
    assert!(
        app.world().resource::<Computer>().thinking.is_none(),
        "the take-back dropped the search"
    );
    update_until(&mut app, Duration::from_secs(10), "the dropped search's thread ends", |_| {
        running.load(std::sync::atomic::Ordering::SeqCst) == 0
    });
}

#[test]
fn the_computer_does_not_move_at_a_scripted_frame_until_asked() {
    let mut app = app("scenarios/chess/checkmate-fools-mate.ron");
    set_computer(&mut app, Seats::ALL, PlayerSpec::Random);
    for _ in 0..20 {
        app.update();
    }
    assert_eq!(session(&app).game.ply(), 0, "the scenario's start is a scripted frame");
    app.world_mut().resource_mut::<Computer>().move_now = true;
    update_until(&mut app, Duration::from_secs(30), "the move asked for", |a| {
        session(a).off_script > 0
    });
    // Off the script now: the computer plays on for both sides.
    update_until(&mut app, Duration::from_secs(30), "the next move", |a| session(a).game.ply() >= 3);
}

#[test]
fn the_computers_game_replays_the_earlier_positions_for_repetition_rules() {
    let opened = sandbox::session::source::open(Some("chess")).expect("chess");
    let engine = opened.engine;
    let mut game = Game::new(engine.clone(), engine.start());
    // The start comes back every four plies; the fifth time (ply 16) is the automatic draw.
    let shuffle = ["g1f3", "g8f6", "f3g1", "f6g8"];
    for m in shuffle.iter().cycle().take(15) {
        game.play(uci::find(game.current(), m).expect("legal"));
    }
    let mut walk = walk_of_game(&game);
    assert_eq!(walk.plies(), 15);
    assert_eq!(walk.position().fen(), game.current().fen());
    walk.play(uci::find(walk.position(), "f6g8").expect("legal"));
    let end = walk.end().expect("the fifth repetition ends the game");
    assert_eq!(end.reason(walk.rules()), "fivefold-repetition");
    // The current position alone knows nothing of the earlier ones.
    let mut alone = arbiter::sim::Walk::new(game.current().clone());
    alone.play(uci::find(alone.position(), "f6g8").expect("legal"));
    assert!(alone.end().is_none());
}

fn run_until_done(app: &mut App, limit: Duration) {
    update_until(app, limit, "the simulation", |a| {
        a.world().resource::<Simulation>().running.is_none()
    });
}

#[test]
fn a_simulation_plays_the_games_asked_for_and_writes_the_command_that_repeats_them() {
    let mut app = app("tic-tac-toe");
    let settings = SimSettings {
        games: 40,
        seed: 9,
        players: [PlayerSpec::Random, MCTS_50],
        max_plies: 30,
        from_current: false,
    };
    app.world_mut().resource_mut::<Simulation>().settings = settings.clone();
    app.world_mut().write_message(SimRequest::Run);
    app.update();
    assert!(app.world().resource::<Simulation>().running.is_some());
    run_until_done(&mut app, Duration::from_secs(60));
    let sim = app.world().resource::<Simulation>();
    let r = sim.result.as_ref().expect("a result");
    assert!(!r.partial);
    assert_eq!(r.tally.games, 40);
    assert_eq!(
        r.tally.wins[0] + r.tally.wins[1] + r.tally.draws + r.tally.no_result + r.tally.unfinished,
        40
    );
    assert_eq!(r.tally.unfinished, 0, "noughts and crosses ends within 9 plies");
    assert!(r.reproducible, "iteration budgets repeat exactly");
    assert_eq!(
        r.command,
        "arbiter simulate tic-tac-toe --games 40 --seed 9 --players random,mcts:50 --max-plies 30"
    );
    // The same games as the library plays for that command.
    let e = session(&app).engine.clone();
    let cfg = arbiter::sim::Config {
        games: 40,
        seed: 9,
        players: settings.players.to_vec(),
        max_plies: 30,
        threads: 1,
        shard: arbiter::sim::Shard::WHOLE,
        keep_moves: false,
        branching_every: arbiter::sim::BRANCHING_EVERY,
    };
    let direct = arbiter::sim::run(&e.start(), &cfg, &std::sync::atomic::AtomicBool::new(false), &|_| {});
    assert_eq!(r.tally, direct.tally);
}

#[test]
fn the_command_line_carries_the_parameters_and_a_start_of_its_own() {
    let mut app = app("chess");
    act(&mut app, Action::Play("e2e4".into()));
    let mut settings = SimSettings {
        games: 5,
        seed: 3,
        players: [PlayerSpec::Mcts(Budget::Time(Duration::from_millis(250))), PlayerSpec::Random],
        max_plies: 200,
        from_current: false,
    };
    assert_eq!(
        command_line(session(&app), &settings),
        "arbiter simulate chess --games 5 --seed 3 --players mcts:250ms,random --max-plies 200"
    );
    settings.from_current = true;
    assert_eq!(
        command_line(session(&app), &settings),
        "arbiter simulate chess --games 5 --seed 3 --players mcts:250ms,random --max-plies 200 \
         --fen 'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1'"
    );
    // A ruleset opened with parameters (a go record's board size) names them.
    let go = self::app("scenarios/go/records/teaching-9x9.sgf");
    let s = session(&go);
    assert!(!s.params.is_empty(), "the record sets parameters: {:?}", s.params);
    let line = command_line(s, &SimSettings::default());
    for (k, v) in &s.params {
        assert!(line.contains(&format!(" --param {k}={v}")), "{line}");
    }
    assert!(
        line.starts_with("arbiter simulate go --games 200 --seed 1 --players random,random --max-plies 1000"),
        "{line}"
    );
}

#[test]
fn stop_leaves_a_partial_tally_of_the_games_finished() {
    let mut app = app("chess");
    app.world_mut().resource_mut::<Simulation>().settings = SimSettings {
        games: 1_000_000,
        seed: 1,
        players: [PlayerSpec::Random; 2],
        max_plies: 1000,
        from_current: false,
    };
    app.world_mut().write_message(SimRequest::Run);
    app.update();
    update_until(&mut app, Duration::from_secs(60), "a few games", |a| {
        a.world()
            .resource::<Simulation>()
            .running
            .as_ref()
            .is_some_and(|r| r.fraction() > 0.0)
    });
    app.world_mut().write_message(SimRequest::Stop);
    app.update();
    run_until_done(&mut app, Duration::from_secs(60));
    let sim = app.world().resource::<Simulation>();
    let r = sim.result.as_ref().expect("a partial result");
    assert!(r.partial);
    assert!(r.tally.games > 0 && r.tally.games < 1_000_000, "{} games", r.tally.games);
    assert_eq!(r.games, 1_000_000);
}

/// Frames in which the session changed (the board redraws on those only).
#[derive(Resource, Default)]
struct Redraws(u32);

fn count_redraws(mut r: ResMut<Redraws>) {
    r.0 += 1;
}

#[test]
fn the_session_is_untouched_while_the_computer_waits_or_thinks() {
    let mut app = app("chess");
    app.init_resource::<Redraws>()
        .add_systems(PostUpdate, count_redraws.run_if(resource_changed::<Session>));
    set_computer(&mut app, Seats::SECOND, PlayerSpec::Mcts(Budget::Time(Duration::from_millis(400))));
    app.update();
    app.world_mut().resource_mut::<Redraws>().0 = 0;
    for _ in 0..10 {
        app.update();
    }
    assert_eq!(app.world().resource::<Redraws>().0, 0, "waiting for the person's move");
    act(&mut app, Action::Play("d2d4".into()));
    app.world_mut().resource_mut::<Redraws>().0 = 0;
    let began = app
        .world()
        .resource::<Computer>()
        .thinking
        .as_ref()
        .expect("the search began in the update that played d2d4")
        .started;
    let mut frames = 0;
    while app.world().resource::<Computer>().thinking.is_some() {
        assert_eq!(app.world().resource::<Redraws>().0, 0, "thinking");
        assert!(began.elapsed() < Duration::from_secs(30), "a 400 ms search ends");
        std::thread::sleep(Duration::from_millis(5));
        app.update();
        frames += 1;
    }
    let c = app.world().resource::<Computer>();
    assert!(
        began.elapsed() >= Duration::from_millis(400) && frames > 10,
        "the frames went on ({frames}) while the search took its time budget: {:?}, {:?}",
        began.elapsed(),
        c.said
    );
    assert_eq!(session(&app).game.ply(), 2);
    assert_eq!(app.world().resource::<Redraws>().0, 1, "the answer changed the session once");
}

/// While the computer thinks, the moves it weighs are there to draw: the root's most visited moves
/// (at most three, each from and to a square of a legal move, shares of the visits adding up to at
/// most one, the most visited first); once it has moved, none.
#[test]
fn the_moves_the_computer_weighs_are_shown_while_it_thinks_and_gone_when_it_has_moved() {
    use sandbox::players::computer::{THOUGHTS, Thoughts};
    let mut app = app("chess");
    let start = session(&app).game.current().clone();
    // A time budget: the search runs for three seconds whatever the machine, so it is seen thinking.
    set_computer(&mut app, Seats::FIRST, PlayerSpec::Mcts(Budget::Time(Duration::from_secs(3))));
    update_until(&mut app, Duration::from_secs(60), "candidate moves while thinking", |a| {
        !a.world().resource::<Thoughts>().0.is_empty()
    });
    assert_eq!(session(&app).game.ply(), 0, "still thinking");
    let thoughts = app.world().resource::<Thoughts>().0.clone();
    assert!(thoughts.len() <= THOUGHTS, "{thoughts:?}");
    let legal = start.legal_moves();
    for &(from, to, _) in &thoughts {
        assert!(
            legal.iter().any(|m| m.from as usize == from && m.to as usize == to),
            "{from}->{to} is a legal move"
        );
    }
    assert!(thoughts.windows(2).all(|w| w[0].2 >= w[1].2), "most visited first: {thoughts:?}");
    assert!(thoughts.iter().map(|t| t.2).sum::<f32>() <= 1.0 + 1e-4);
    update_until(&mut app, Duration::from_secs(120), "the computer's move", |a| {
        session(a).game.ply() > 0
    });
    set_computer(&mut app, Seats::NONE, MCTS_50);
    app.update();
    assert!(app.world().resource::<Thoughts>().0.is_empty(), "not thinking: nothing drawn");
}
