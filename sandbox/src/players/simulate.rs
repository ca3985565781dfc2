//! Simulation runs from the sandbox: N games between two of the library's players, played by
//! `arbiter::sim::run` on a background thread (the window keeps drawing), with a progress count and
//! a stop flag the panel reads and raises. The result keeps the command line that repeats the run
//! exactly (`arbiter simulate ...`): a run's games depend only on the ruleset, its parameters, the
//! start, the players, the seed and the ply limit — never on the number of threads.
//!
//! Needs no window: [`SimRequest`] messages start and stop a run, [`collect`] picks up the result;
//! the tests drive it in a bare `App`. The window that shows it is `sim_window.rs`.

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use arbiter::model::Side;
use arbiter::sim::{self, Config, DEFAULT_MAX_PLIES, MAX_GAMES, MAX_PLIES, Outcome, PlayerSpec, Shard, Tally};
use bevy::prelude::*;

use crate::session::Session;

/// What to run.
#[derive(Clone, Debug, PartialEq)]
pub struct SimSettings {
    pub games: u64,
    pub seed: u64,
    /// The first and second side's players (the ruleset's order).
    pub players: [PlayerSpec; 2],
    pub max_plies: usize,
    /// Start every game from the position on the board rather than the ruleset's start.
    pub from_current: bool,
}

impl Default for SimSettings {
    fn default() -> SimSettings {
        SimSettings {
            games: 200,
            seed: 1,
            players: [PlayerSpec::Random; 2],
            max_plies: DEFAULT_MAX_PLIES,
            from_current: false,
        }
    }
}

/// Start or stop a run.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub enum SimRequest {
    Run,
    Stop,
}

/// A run under way.
pub struct Running {
    pub games: u64,
    /// Games finished so far (written by the progress callback).
    pub done: Arc<AtomicU64>,
    pub stop: Arc<AtomicBool>,
    pub started: Instant,
    pub command: String,
    pub sides: Vec<String>,
    pub first: Side,
    /// Each side's team, where the ruleset has teams.
    pub teams: Vec<u8>,
    reproducible: bool,
    handle: JoinHandle<Outcome>,
}

impl Running {
    /// The share of the games finished, 0 to 1.
    pub fn fraction(&self) -> f32 {
        (self.done.load(Ordering::Relaxed) as f64 / self.games.max(1) as f64) as f32
    }
}

/// A finished (or stopped) run.
#[derive(Clone, Debug)]
pub struct SimResult {
    pub tally: Tally,
    /// Stopped before every game was played: the tally holds the finished games.
    pub partial: bool,
    pub games: u64,
    /// The command line that plays the same games.
    pub command: String,
    /// The ruleset's side names, and the side that moves first in the run's start.
    pub sides: Vec<String>,
    pub first: Side,
    /// Each side's team, where the ruleset has teams.
    pub teams: Vec<u8>,
    pub took: Duration,
    /// Do the command's games repeat these exactly (no player thinks for a time)?
    pub reproducible: bool,
}

/// The Simulate window's state.
#[derive(Resource, Default)]
pub struct Simulation {
    pub open: bool,
    pub settings: SimSettings,
    pub running: Option<Running>,
    pub result: Option<SimResult>,
    /// Why the last run could not start.
    pub error: Option<String>,
}

/// How a ruleset is named on the command line: its bundled name when the file is the bundled one
/// of that name (`arbiter` finds it by name), else its path.
pub fn ruleset_argument(path: &Path) -> String {
    let bundled = path.file_stem().and_then(|s| s.to_str()).filter(|stem| {
        let here = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../rulesets")
            .join(format!("{stem}.rules"));
        matches!((here.canonicalize(), path.canonicalize()), (Ok(a), Ok(b)) if a == b)
    });
    match bundled {
        Some(stem) => stem.to_string(),
        None => path.display().to_string(),
    }
}

/// A word for a POSIX shell: as is when it holds only safe characters, else in single quotes.
pub fn shell_word(s: &str) -> String {
    let safe = |c: char| c.is_ascii_alphanumeric() || "-_./:=,+@%".contains(c);
    if !s.is_empty() && s.chars().all(safe) {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', r"'\''"))
    }
}

/// The `arbiter simulate` command line that plays the games `settings` asks for in `session`:
/// the ruleset, its parameters, and `--fen` when the run starts elsewhere than the ruleset's start.
pub fn command_line(session: &Session, settings: &SimSettings) -> String {
    let ruleset = session
        .rules_path
        .as_deref()
        .map_or_else(|| session.engine.rules().name.clone(), ruleset_argument);
    let [p1, p2] = settings.players;
    let mut cmd = format!(
        "arbiter simulate {} --games {} --seed {} --players {p1},{p2} --max-plies {}",
        shell_word(&ruleset),
        settings.games,
        settings.seed,
        settings.max_plies
    );
    for (name, value) in &session.params {
        cmd.push_str(&format!(" --param {}", shell_word(&format!("{name}={value}"))));
    }
    let start = start_of(session, settings).fen();
    if start != session.engine.start().fen() {
        cmd.push_str(&format!(" --fen {}", shell_word(&start)));
    }
    cmd
}

/// Where the run's games start.
fn start_of(session: &Session, settings: &SimSettings) -> arbiter::game::Position {
    if settings.from_current {
        session.game.current().clone()
    } else {
        session.engine.start()
    }
}

impl Simulation {
    /// Starts a run of `self.settings` on a thread of its own (one core is left to the window).
    ///
    /// # Errors
    /// A run is under way, or the settings are out of range.
    pub fn start(&mut self, session: &Session) -> Result<(), String> {
        if self.running.is_some() {
            return Err("a run is under way: stop it first".to_string());
        }
        let s = self.settings.clone();
        if s.games == 0 || s.games > MAX_GAMES {
            return Err(format!("{} games: give from 1 to {MAX_GAMES}", s.games));
        }
        if s.max_plies == 0 || s.max_plies > MAX_PLIES {
            return Err(format!("at most {} plies: give from 1 to {MAX_PLIES}", s.max_plies));
        }
        let start = start_of(session, &s);
        let rules = session.engine.rules();
        let cfg = Config {
            games: s.games,
            seed: s.seed,
            // With more than two sides, the second choice plays every side after the first.
            players: (0..rules.players.len()).map(|i| s.players[i.min(1)]).collect(),
            max_plies: s.max_plies,
            threads: std::thread::available_parallelism().map_or(1, |n| n.get().saturating_sub(1).max(1)),
            shard: Shard::WHOLE,
            keep_moves: false,
            branching_every: sim::BRANCHING_EVERY,
        };
        let done = Arc::new(AtomicU64::new(0));
        let stop = Arc::new(AtomicBool::new(false));
        let (d, st) = (done.clone(), stop.clone());
        let first = start.side_to_move();
        let handle = std::thread::Builder::new()
            .name("simulate".into())
            .spawn(move || sim::run(&start, &cfg, &st, &|n| d.store(n, Ordering::Relaxed)))
            .map_err(|e| format!("could not start the simulation's thread: {e}"))?;
        self.running = Some(Running {
            games: s.games,
            done,
            stop,
            started: Instant::now(),
            command: command_line(session, &s),
            sides: rules.players.iter().map(|p| p.name.clone()).collect(),
            first,
            teams: rules.teams.clone(),
            reproducible: s.players.iter().all(PlayerSpec::reproducible),
            handle,
        });
        self.error = None;
        Ok(())
    }

    /// Asks the run under way to stop; the games finished so far make its (partial) result.
    pub fn stop(&self) {
        if let Some(r) = &self.running {
            r.stop.store(true, Ordering::Relaxed);
        }
    }

    /// Takes the result once the run's thread has ended.
    pub fn collect(&mut self) {
        if !self.running.as_ref().is_some_and(|r| r.handle.is_finished()) {
            return;
        }
        let Some(r) = self.running.take() else { return };
        let took = r.started.elapsed();
        match r.handle.join() {
            Ok(out) => {
                self.result = Some(SimResult {
                    tally: out.tally,
                    partial: out.partial,
                    games: r.games,
                    command: r.command,
                    sides: r.sides,
                    first: r.first,
                    teams: r.teams,
                    took,
                    reproducible: r.reproducible,
                });
            }
            Err(_) => self.error = Some("the simulation stopped on an internal error".to_string()),
        }
    }
}

fn handle_requests(mut requests: MessageReader<SimRequest>, mut sim: ResMut<Simulation>, session: Res<Session>) {
    for r in requests.read() {
        match r {
            SimRequest::Run => {
                if let Err(e) = sim.start(&session) {
                    sim.error = Some(e);
                }
            }
            SimRequest::Stop => sim.stop(),
        }
    }
}

/// Picks up a finished run; touches the resource mutably only then.
pub fn collect(mut sim: ResMut<Simulation>) {
    if sim.running.as_ref().is_some_and(|r| r.handle.is_finished()) {
        sim.collect();
    }
}

/// The simulation's state, its messages and the systems that start, stop and collect runs.
pub fn plugin(app: &mut App) {
    app.add_message::<SimRequest>()
        .init_resource::<Simulation>()
        .add_systems(Update, (handle_requests, collect).chain());
}
