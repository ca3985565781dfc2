//! The computer as an opponent: one of the library's players (`random`, `mcts:N`, `mcts:Nms`)
//! plays the sides the person gives it. It thinks on a background thread, so the window keeps
//! drawing, and its move is applied as [`Action::Play`] — the same door as a person's move, so the
//! rulings, the move list, the outcome and the log follow.
//!
//! Invariants: the player sees the whole game, not only the current position — the thread replays
//! the game's moves from its start into a [`Walk`], so repetition rules count the earlier
//! positions. An answer is applied only if nothing changed the game since it was asked for: every
//! logged action (a move by hand, a take-back, a step along the timeline, an edit, a reload) and
//! every change of the computer's settings bumps [`Computer::generation`], and an answer carries
//! the generation it was asked at. A stale search is dropped, and dropping it raises its stop
//! flag ([`Player::choose_unless`]): the thread stops within a few iterations instead of spending
//! its whole budget on an answer nobody will read.
//! It never moves during autoplay, in the editor, or at a scripted frame of a scenario or record
//! (only once a change by hand left the script, when the timeline is a single position, or when
//! asked with [`Computer::move_now`]).

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{self, Receiver, TryRecvError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use arbiter::game::{Engine, Game, Move, Position, Status};
use arbiter::model::Side;
use arbiter::notation::uci;
use arbiter::sim::{PlayerSpec, Progress, Walk, player_seed};
use bevy::prelude::*;

use crate::session::{Action, Mode, Session, Tools};
use crate::timeline::replay::Autoplay;

/// Which sides the computer plays: a bit per side, so that among more than two players it may
/// play any of them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Seats(pub u8);

impl Seats {
    pub const NONE: Seats = Seats(0);
    pub const FIRST: Seats = Seats(1);
    pub const SECOND: Seats = Seats(2);
    /// Every side, however many play.
    pub const ALL: Seats = Seats(u8::MAX);

    pub fn plays(self, side: Side) -> bool {
        self.0 >> side.index() & 1 == 1
    }

    /// These seats with `side` played by the computer (`on`) or by a person.
    pub fn with(self, side: Side, on: bool) -> Seats {
        let bit = 1 << side.index();
        Seats(if on { self.0 | bit } else { self.0 & !bit })
    }
}

/// A search under way: the generation it was asked at, who it moves for, since when.
pub struct Thinking {
    pub generation: u64,
    pub side: Side,
    pub started: Instant,
    /// In a mutex only because a resource must be `Sync`; only the frame loop reads it.
    answer: Mutex<Receiver<Result<Answer, String>>>,
    /// Raised when the search is dropped (stale, or the app closing): the thread stops early.
    stop: Arc<AtomicBool>,
    /// What the search has done so far: its iterations and the root's most visited moves.
    pub progress: Arc<Progress>,
}

/// The moves the computer is weighing while it thinks, drawn as arrows on the board: each root
/// move's squares and its share of the visits so far, most visited first (at most [`THOUGHTS`]).
/// Empty when it is not thinking. Written only on a change (the board redraws on one).
#[derive(Resource, Clone, Debug, Default, PartialEq)]
pub struct Thoughts(pub Vec<(usize, usize, f32)>);

/// How many of the computer's candidate moves are drawn.
pub const THOUGHTS: usize = 3;

/// Keeps [`Thoughts`] the search's most visited moves, read from its progress.
pub fn watch_thinking(computer: Res<Computer>, mut thoughts: ResMut<Thoughts>) {
    let now = match &computer.thinking {
        Some(t) => {
            let visits = t.progress.visits();
            let total: u64 = visits.iter().map(|v| v.1).sum::<u64>().max(1);
            visits
                .iter()
                .take(THOUGHTS)
                .filter(|(_, n)| *n > 0)
                .map(|(m, n)| (m.from as usize, m.to as usize, *n as f32 / total as f32))
                .collect()
        }
        None => Vec::new(),
    };
    if thoughts.0 != now {
        thoughts.0 = now;
    }
}

impl Drop for Thinking {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

/// A move chosen, in coordinates, with what it cost.
struct Answer {
    text: String,
    iterations: u64,
    took: Duration,
}

/// The computer's settings and its search under way.
#[derive(Resource)]
pub struct Computer {
    pub seats: Seats,
    pub player: PlayerSpec,
    /// Each move's player is seeded from this, the ply and the side ([`player_seed`]): the same
    /// game, seed and player give the same move (with an iteration budget).
    pub seed: u64,
    /// Move once now for the side to move, whoever plays it and even at a scripted frame (the
    /// panel's "Move now").
    pub move_now: bool,
    /// Bumped whenever the game or the settings change; answers from an older one are dropped.
    pub generation: u64,
    /// What the generation was last bumped for: the session's engine generation and log length,
    /// and the settings.
    seen: (u64, usize, Seats, PlayerSpec, u64),
    /// The generation whose search failed (not asked again until something changes).
    failed: Option<u64>,
    pub thinking: Option<Thinking>,
    /// What the computer last did, or why it could not, for the panel.
    pub said: Option<String>,
    /// Stale answers dropped so far.
    pub dropped: u64,
    /// Search threads still running, stale ones included (a dropped search stops within a few
    /// iterations).
    pub running: Arc<AtomicUsize>,
}

impl Default for Computer {
    fn default() -> Computer {
        Computer {
            seats: Seats::NONE,
            player: PlayerSpec::Mcts(arbiter::sim::Budget::Iterations(1000)),
            seed: 1,
            move_now: false,
            generation: 0,
            seen: (0, 0, Seats::NONE, PlayerSpec::Random, 0),
            failed: None,
            thinking: None,
            said: None,
            dropped: 0,
            running: Arc::new(AtomicUsize::new(0)),
        }
    }
}

/// The game as a [`Walk`]: its start (read back from its FEN, so it carries a fresh repetition
/// record) with every move played again, so end rules that count repetitions see the whole game.
/// Falls back to the current position alone if the replay does not arrive there.
pub fn walk_of(engine: &Engine, start: &Position, moves: &[Move], current: &Position) -> Walk {
    let fresh = engine.from_fen(&start.fen()).unwrap_or_else(|_| start.clone());
    let mut walk = Walk::new(fresh);
    for &m in moves {
        if walk.end().is_some() || !walk.legal().contains(&m) {
            return Walk::new(current.clone());
        }
        walk.play(m);
    }
    if walk.position().fen() == current.fen() {
        walk
    } else {
        Walk::new(current.clone())
    }
}

/// [`walk_of`] for a whole game.
pub fn walk_of_game(game: &Game) -> Walk {
    walk_of(game.engine(), &game.positions()[0], game.moves(), game.current())
}

impl Computer {
    /// Is it the computer's move in `session` now?
    pub fn to_move(&self, session: &Session, tools: &Tools, auto: &Autoplay) -> bool {
        let live = session.timeline.len() <= 1 || session.off_script > 0;
        let ours = self.seats.plays(session.game.current().side_to_move());
        // The outcome last: it is the one test that costs more than a field read.
        (ours && live || self.move_now)
            && !auto.playing
            && tools.mode == Mode::Play
            && session.choice.is_none()
            && session.pending.is_none()
            && session.game.outcome().status == Status::Ongoing
    }

    /// Starts a search for the side to move on a thread of its own.
    fn ask(&mut self, session: &Session) {
        let game = &session.game;
        let side = game.current().side_to_move();
        let player = self.player;
        let seed = player_seed(self.seed, game.ply() as u64, side.index());
        let engine = game.engine().clone();
        let start = game.positions()[0].clone();
        let moves = game.moves().to_vec();
        let current = game.current().clone();
        let (tx, rx) = mpsc::channel();
        let stop = Arc::new(AtomicBool::new(false));
        let stopped = stop.clone();
        let running = self.running.clone();
        let progress = Arc::new(Progress::default());
        let watched = progress.clone();
        running.fetch_add(1, Ordering::SeqCst);
        let started = Instant::now();
        let spawned = std::thread::Builder::new().name("computer".into()).spawn(move || {
            let walk = walk_of(&engine, &start, &moves, &current);
            let answer = if let Some(end) = walk.end() {
                Err(format!(
                    "the game is over as the rules judge it ({}): no move to make",
                    end.reason(walk.rules())
                ))
            } else {
                let mut p = player.build(seed);
                // Thinking in the open: the board shows the moves it weighs as it goes.
                let m = p.think(&walk, &stopped, &watched);
                if stopped.load(Ordering::Relaxed) {
                    // Dropped: nobody reads this.
                    Err("the search was stopped".to_string())
                } else {
                    Ok(Answer {
                        text: uci::to_text(walk.position(), m),
                        iterations: p.last_iterations(),
                        took: started.elapsed(),
                    })
                }
            };
            // The receiver is gone when the sandbox closed or dropped the search.
            let _ = tx.send(answer);
            running.fetch_sub(1, Ordering::SeqCst);
        });
        match spawned {
            Ok(_) => {
                self.thinking = Some(Thinking {
                    generation: self.generation,
                    side,
                    started,
                    answer: Mutex::new(rx),
                    stop,
                    progress,
                });
            }
            Err(e) => {
                self.running.fetch_sub(1, Ordering::SeqCst);
                self.failed = Some(self.generation);
                self.said = Some(format!("could not start the computer's thread: {e}"));
            }
        }
    }
}

/// Each frame: notices changes (a new generation drops the search under way), applies an answer
/// that arrived for the current generation, and starts a search when it is the computer's move.
/// Touches the session mutably only to play the answer, so the board is not redrawn otherwise.
pub fn play_turn(mut computer: ResMut<Computer>, mut session: ResMut<Session>, tools: Res<Tools>, auto: Res<Autoplay>) {
    let c = computer.bypass_change_detection();
    let key = |s: &Session, c: &Computer| (s.generation, s.log.len(), c.seats, c.player, c.seed);
    if key(&session, c) != c.seen {
        c.seen = key(&session, c);
        c.generation += 1;
    }
    if c.thinking.as_ref().is_some_and(|t| t.generation != c.generation) {
        c.thinking = None;
        c.dropped += 1;
    }
    if let Some(t) = &c.thinking {
        let received = match t.answer.lock() {
            Ok(rx) => rx.try_recv(),
            Err(_) => Err(TryRecvError::Disconnected),
        };
        let side = t.side;
        match received {
            Err(TryRecvError::Empty) => return,
            Ok(Ok(a)) => {
                c.thinking = None;
                let who = session.engine.rules().players[side.index()].name.clone();
                let played = session.apply(Action::Play(a.text.clone()));
                // Its own move is a change like any other: a new generation.
                c.seen = key(&session, c);
                c.generation += 1;
                match played {
                    Ok(()) => {
                        let written = session.log.last().map(|l| l.said.clone()).unwrap_or(a.text);
                        let cost = if a.iterations > 0 {
                            format!(", {} iterations", a.iterations)
                        } else {
                            String::new()
                        };
                        c.said = Some(format!(
                            "{} ({who}) played {written} in {:.2} s{cost}",
                            c.player,
                            a.took.as_secs_f64()
                        ));
                    }
                    Err(e) => {
                        // Not asked again (it would give the same answer) until something changes.
                        c.failed = Some(c.generation);
                        c.said = Some(format!("the computer's move was refused: {e}"));
                    }
                }
            }
            Ok(Err(e)) => {
                c.thinking = None;
                c.failed = Some(c.generation);
                c.said = Some(e);
            }
            Err(TryRecvError::Disconnected) => {
                c.thinking = None;
                c.failed = Some(c.generation);
                c.said = Some("the computer's search stopped without a move".to_string());
            }
        }
    }
    if c.thinking.is_none() && c.failed != Some(c.generation) && c.to_move(&session, &tools, &auto) {
        c.move_now = false;
        c.ask(&session);
    }
}

/// The computer's settings and its turn (run after the session's own systems).
pub fn plugin(app: &mut App) {
    app.init_resource::<Computer>().init_resource::<Thoughts>().add_systems(
        Update,
        (play_turn, watch_thinking)
            .chain()
            .after(crate::session::Handled)
            .after(crate::timeline::replay::autoplay),
    );
}
