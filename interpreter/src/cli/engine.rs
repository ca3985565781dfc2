//! `arbiter engine`: Arbiter as an engine that GUIs, tournament managers and other programs drive
//! over standard input and output — UCI (chess-like games, `UCI_Variant` naming any bundled
//! ruleset), UCCI (xiangqi GUIs: ranks counted from 0) and GTP v2 (go programs and GUIs). It plays
//! with one of the simulation's players (`random`, `mcts:N`, `mcts:Nms`) and rules with the
//! interpreter: a move it is given that is not legal is answered with the ruling, never a crash.
//!
//! The protocols share one [`State`]: the engine (ruleset) in use, the game, the player. Moves go
//! out and come in as each protocol writes them ([`State::move_text`], [`State::find_move`]).

use std::io::{BufRead, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use arbiter::game::{Engine, Game, Move, MoveKind, Position, Ruling, Status};
use arbiter::model::Side;
use arbiter::notation::uci;
use arbiter::sim::{Budget, PlayerSpec, Progress, Walk};

/// The protocols spoken.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Protocol {
    Uci,
    Ucci,
    Gtp,
}

impl Protocol {
    pub fn parse(text: &str) -> Option<Protocol> {
        match text {
            "uci" => Some(Protocol::Uci),
            "ucci" => Some(Protocol::Ucci),
            "gtp" => Some(Protocol::Gtp),
            _ => None,
        }
    }
}

/// Loads a ruleset by name with parameters (`size=9`), as the command line does.
pub type Loader = dyn Fn(&str, &[String]) -> Result<Engine, String>;

/// What the engine knows between commands.
pub struct State {
    pub protocol: Protocol,
    pub ruleset: String,
    pub params: Vec<String>,
    pub engine: Engine,
    pub game: Game,
    pub player: PlayerSpec,
    pub seed: u64,
    /// Moves chosen so far (each search draws from its own seed).
    searches: u64,
    /// GTP: the plies of passes Arbiter played for a side so that the other could move out of
    /// turn (`play white D4` with black to move, as a controller sets up stones); `undo` takes
    /// such a pass back with the move it made room for.
    implied_passes: Vec<usize>,
    /// The parameters given at start-up: what `UCI_Variant` keeps of them, and GTP's
    /// `clear_board` its handicap from.
    base_params: Vec<String>,
}

/// What a GTP command that may fail halfway puts back: the ruleset, its engine and the game.
struct Saved {
    ruleset: String,
    params: Vec<String>,
    engine: Engine,
    game: Game,
    implied_passes: Vec<usize>,
}

impl State {
    pub fn new(protocol: Protocol, ruleset: &str, params: Vec<String>, engine: Engine, player: PlayerSpec, seed: u64) -> State {
        let game = Game::new(engine.clone(), engine.start());
        State {
            protocol,
            ruleset: ruleset.to_string(),
            base_params: params.clone(),
            params,
            engine,
            game,
            player,
            seed,
            searches: 0,
            implied_passes: Vec::new(),
        }
    }

    fn save(&self) -> Saved {
        Saved {
            ruleset: self.ruleset.clone(),
            params: self.params.clone(),
            engine: self.engine.clone(),
            game: self.game.clone(),
            implied_passes: self.implied_passes.clone(),
        }
    }

    fn restore(&mut self, saved: Saved) {
        self.ruleset = saved.ruleset;
        self.params = saved.params;
        self.engine = saved.engine;
        self.game = saved.game;
        self.implied_passes = saved.implied_passes;
    }

    /// `params` with `name`'s value as at start-up (or none, where none was given then).
    fn with_base(&self, params: &[String], name: &str) -> Vec<String> {
        let key = format!("{name}=");
        let mut kept: Vec<String> = params.iter().filter(|p| !p.starts_with(&key)).cloned().collect();
        kept.extend(self.base_params.iter().filter(|p| p.starts_with(&key)).cloned());
        kept
    }

    /// GTP's `play`/`genmove` name the colour: when it is not the side to move, the side to move
    /// passes first (where its rules allow a pass), as GTP controllers expect of go engines.
    /// `Err` with GTP's words where it cannot.
    fn turn_to(&mut self, colour: &str) -> Result<(), String> {
        if gtp_colour(colour).is_none() {
            return Err("invalid color".into());
        }
        if self.game.outcome().status != Status::Ongoing {
            return Err(format!(
                "illegal move: the game is over: {}",
                self.game.outcome().message(self.game.current())
            ));
        }
        if colour_matches(self, colour) {
            return Ok(());
        }
        let pos = self.game.current();
        let to_move = &self.engine.rules().players[pos.side_to_move().index()].name;
        let pass = pos.legal_moves().into_iter().find(|m| m.kind == arbiter::game::MoveKind::Pass);
        match pass {
            Some(p) if self.game.outcome().status == Status::Ongoing => {
                self.implied_passes.push(self.game.ply());
                self.game.play(p);
                Ok(())
            }
            _ => Err(format!("illegal move: it is {to_move}'s turn, and {to_move} cannot pass")),
        }
    }

    /// A new game (a new position, a record loaded, another ruleset).
    fn set_game(&mut self, game: Game) {
        self.game = game;
        self.implied_passes.clear();
    }

    /// Takes back a pass [`State::turn_to`] played, if it was the last move.
    fn untake_implied_pass(&mut self) {
        if self.implied_passes.last().is_some_and(|&ply| ply + 1 == self.game.ply()) {
            self.implied_passes.pop();
            self.game.undo();
        }
    }

    /// GTP's `undo`: the last move, with the pass played to make room for it.
    fn undo(&mut self) -> bool {
        if self.game.undo().is_none() {
            return false;
        }
        self.untake_implied_pass();
        true
    }

    /// A move as the protocol writes it: UCI coordinates (`e2e4`, `e7e8q`, `P@e4`); UCCI's, with
    /// ranks counted from 0 (`h2e2`); GTP's vertex (`D4`, `pass`).
    pub fn move_text(&self, pos: &Position, m: Move) -> String {
        let text = uci::to_text(pos, m);
        match self.protocol {
            Protocol::Ucci => {
                let b = &pos.rules().board;
                if matches!(m.kind, MoveKind::Form(_)) {
                    let sq = |s: u16| format!("{}{}", (b'a' + b.file(s as usize) as u8) as char, b.rank(s as usize));
                    format!("{}{}", sq(m.from), sq(m.to))
                } else {
                    text
                }
            }
            _ => text,
        }
    }

    /// The legal move `text` names in the protocol's writing (case-insensitive for GTP).
    pub fn find_move(&self, text: &str) -> Option<Move> {
        let pos = self.game.current();
        let wanted = text.trim();
        pos.legal_moves().into_iter().find(|&m| {
            let t = self.move_text(pos, m);
            t == wanted || (self.protocol == Protocol::Gtp && t.eq_ignore_ascii_case(wanted))
        })
    }

    /// Why `text` is not a legal move here, in words with the clause.
    pub fn refusal(&self, text: &str) -> String {
        if self.game.outcome().status != Status::Ongoing {
            return format!("the game is over: {}", self.game.outcome().message(self.game.current()));
        }
        // The interpreter's ruling reads coordinates: UCCI's ranks are shifted back first.
        let coords = match self.protocol {
            Protocol::Ucci => ucci_to_coordinates(text),
            _ => text.to_string(),
        };
        let said = match self.game.current().explain(&coords) {
            Ruling::Illegal(i) => match i.clause {
                Some(c) => format!("{} ({}, {c})", i.message, i.code),
                None => format!("{} ({})", i.message, i.code),
            },
            Ruling::Legal { .. } => return format!("`{text}` is not written as this protocol writes moves"),
        };
        // The ruling names squares as the interpreter does; UCCI counts ranks from 0. The move
        // it quotes is given back as the player wrote it (`a9`, not a move, was quoted as `a8`).
        match self.protocol {
            Protocol::Ucci => {
                let board = &self.game.current().rules().board;
                let parts: Vec<String> = said.split(&format!("`{coords}`")).map(|p| ranks_from_zero(p, board)).collect();
                parts.join(&format!("`{text}`"))
            }
            _ => said,
        }
    }

    /// A new game of `ruleset` with `params` (the current one if `ruleset` is `None`).
    pub fn reload(&mut self, loader: &Loader, ruleset: Option<&str>, params: Vec<String>) -> Result<(), String> {
        let name = ruleset.unwrap_or(&self.ruleset).to_string();
        let engine = loader(&name, &params)?;
        self.ruleset = name;
        self.params = params;
        self.set_game(Game::new(engine.clone(), engine.start()));
        self.engine = engine;
        Ok(())
    }

    /// UCI's `UCI_Variant`: a new game of `ruleset`, with the parameters given at start-up that
    /// it declares (`size=9` is go's, not chess's).
    pub fn switch(&mut self, loader: &Loader, ruleset: &str) -> Result<(), String> {
        if self.reload(loader, Some(ruleset), self.base_params.clone()).is_ok() {
            return Ok(());
        }
        let declared: Vec<String> = loader(ruleset, &[])?.rules().params.iter().map(|(p, _)| format!("{p}=")).collect();
        let kept = self
            .base_params
            .iter()
            .filter(|p| declared.iter().any(|d| p.starts_with(d.as_str())))
            .cloned()
            .collect();
        self.reload(loader, Some(ruleset), kept)
    }

    /// A player's search for the current position, on a thread of its own; its move comes back
    /// through the handle (`None` when there is nothing to choose). Raising `stop` has it answer
    /// with its best move so far; `progress` shows its work as it goes.
    fn search(&mut self, budget: Option<Budget>, stop: Arc<AtomicBool>, progress: Arc<Progress>) -> JoinHandle<Option<(Move, u64)>> {
        let spec = match (self.player, budget) {
            (PlayerSpec::Mcts(_), Some(b)) => PlayerSpec::Mcts(b),
            (p, _) => p,
        };
        self.searches += 1;
        let seed = self.seed.wrapping_mul(0x9E37_79B9_7F4A_7C15).wrapping_add(self.searches);
        let walk = walk_of(&self.game);
        std::thread::spawn(move || {
            if walk.legal().is_empty() || walk.end().is_some() {
                return None;
            }
            let mut player = spec.build(seed);
            let chosen = player.think(&walk, &stop, &progress);
            Some((chosen, player.last_iterations()))
        })
    }
}

/// The game as a [`Walk`] from its start, so repetition rules count its earlier positions.
fn walk_of(game: &Game) -> Walk {
    let mut walk = Walk::new(game.positions()[0].clone());
    for &m in game.moves() {
        if walk.end().is_some() || !walk.legal().contains(&m) {
            return Walk::new(game.current().clone());
        }
        walk.play(m);
    }
    walk
}

/// `text` with every word that names a square of `board` (`h3`) named as UCCI does (`h2`).
fn ranks_from_zero(text: &str, board: &arbiter::model::Board) -> String {
    let mut out = String::with_capacity(text.len());
    let mut word = String::new();
    let flush = |word: &mut String, out: &mut String| {
        match board.parse_square(word) {
            Some(sq) if board.has(sq) => out.push_str(&format!("{}{}", &word[..1], board.rank(sq))),
            _ => out.push_str(word),
        }
        word.clear();
    };
    for c in text.chars() {
        if c.is_ascii_alphanumeric() {
            word.push(c);
        } else {
            flush(&mut word, &mut out);
            out.push(c);
        }
    }
    flush(&mut word, &mut out);
    out
}

/// `h2e2` (UCCI, ranks from 0) as `h3e3` (ranks from 1); anything else as it is.
fn ucci_to_coordinates(text: &str) -> String {
    let b = text.as_bytes();
    if b.len() == 4 && b[1].is_ascii_digit() && b[3].is_ascii_digit() {
        format!("{}{}{}{}", b[0] as char, b[1] - b'0' + 1, b[2] as char, b[3] - b'0' + 1)
    } else {
        text.to_string()
    }
}

/// Runs the protocol on `input` and `output` until `quit` or the end of input.
pub fn run(
    mut state: State,
    loader: &Loader,
    variants: Vec<String>,
    input: impl BufRead + Send,
    output: &mut (impl Write + Send),
) -> std::io::Result<()> {
    match state.protocol {
        Protocol::Gtp => gtp(&mut state, loader, input, output),
        Protocol::Uci | Protocol::Ucci => uci_loop(&mut state, loader, &variants, input, output),
    }
}

/// The thinking time for a UCI `go`: `movetime`, or a share of the clock (a 30th of what is left
/// plus half the increment), or `nodes` as iterations; `infinite` thinks until `stop`.
fn uci_budget(words: &[&str], white_to_move: bool) -> Option<Budget> {
    let value = |key: &str| {
        words
            .iter()
            .position(|w| *w == key)
            .and_then(|i| words.get(i + 1))
            .and_then(|v| v.parse::<u64>().ok())
    };
    // Every budget is within the player's limits: `MAX_THINK`, `MAX_ITERATIONS`.
    let time = |ms: u64| Budget::Time(Duration::from_millis(ms).min(arbiter::sim::MAX_THINK));
    let iterations = |n: u64| Budget::Iterations(n.clamp(1, u64::from(arbiter::sim::MAX_ITERATIONS)) as u32);
    if words.contains(&"infinite") {
        return Some(Budget::Time(arbiter::sim::MAX_THINK));
    }
    if let Some(ms) = value("movetime") {
        return Some(time(ms.max(1)));
    }
    if let Some(n) = value("nodes") {
        return Some(iterations(n));
    }
    if let Some(d) = value("depth") {
        return Some(iterations(d.saturating_mul(200)));
    }
    let (left, inc) = if white_to_move { ("wtime", "winc") } else { ("btime", "binc") };
    let left = value(left).or_else(|| value("time"))?;
    let ms = left / 30 + value(inc).or_else(|| value("increment")).unwrap_or(0) / 2;
    Some(time(ms.clamp(10, left.max(10))))
}

/// The longest line a protocol reads (1 MiB): a longer one is skipped, and answered as an error.
pub const MAX_LINE: usize = 1 << 20;

/// How many commands, and how many bytes of them, may wait behind a search under way (beyond
/// them, one is dropped and said so).
const MAX_PENDING: usize = 1024;
const MAX_PENDING_BYTES: usize = 8 << 20;

/// The commands answered while a search runs (`stop`, `isready`, `quit`): at once when they
/// arrive, and a `stop` queued for a `go` that waited (see `stop`) once that search begins.
fn taken_during_search(line: &str) -> bool {
    matches!(line.split_whitespace().next(), Some("stop" | "isready" | "quit"))
}

/// One line of protocol input.
#[derive(Debug, PartialEq)]
pub enum Line {
    Text(String),
    /// Longer than [`MAX_LINE`]: skipped to its end without being kept.
    TooLong,
    /// Not UTF-8: no command of any protocol.
    NotUtf8,
}

/// Writes `info string TEXT`, what the GUI sent quoted cut short where it is long (a line of up
/// to [`MAX_LINE`] bytes is read).
fn info(out: &mut impl Write, text: &str) -> std::io::Result<()> {
    writeln!(out, "info string {}", crate::diag::shorten_quoted(text))
}

/// Reads one line of at most [`MAX_LINE`] bytes (`None` at the end of input), holding no more
/// than that however long the line is.
pub fn read_line(input: &mut impl BufRead) -> std::io::Result<Option<Line>> {
    let mut buf = Vec::new();
    let mut too_long = false;
    let mut any = false;
    loop {
        let chunk = input.fill_buf()?;
        if chunk.is_empty() {
            break;
        }
        any = true;
        let (take, done) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (i + 1, true),
            None => (chunk.len(), false),
        };
        if !too_long {
            if buf.len() + take > MAX_LINE + 1 {
                too_long = true;
                buf = Vec::new();
            } else {
                buf.extend_from_slice(&chunk[..take]);
            }
        }
        input.consume(take);
        if done {
            break;
        }
    }
    if !any {
        return Ok(None);
    }
    if too_long {
        return Ok(Some(Line::TooLong));
    }
    while buf.last().is_some_and(|b| *b == b'\n' || *b == b'\r') {
        buf.pop();
    }
    Ok(Some(String::from_utf8(buf).map_or(Line::NotUtf8, Line::Text)))
}

/// Ends the process when the protocol's output cannot be written (the GUI closed its end): the
/// reader thread may be waiting on input that never comes, so returning would not end it.
fn exit_on_write_failure(e: &std::io::Error) -> ! {
    if e.kind() != std::io::ErrorKind::BrokenPipe {
        errln!("error: engine: cannot write the output: {e}");
        std::process::exit(1);
    }
    std::process::exit(0);
}

fn uci_loop(
    state: &mut State,
    loader: &Loader,
    variants: &[String],
    mut input: impl BufRead + Send,
    out: &mut (impl Write + Send),
) -> std::io::Result<()> {
    // Bounded: a reader far ahead of the engine waits instead of filling memory.
    let (tx, rx) = std::sync::mpsc::sync_channel::<Line>(64);
    // Input on a thread of its own, so `stop` and `isready` are read while a search runs.
    std::thread::scope(|scope| -> std::io::Result<()> {
        scope.spawn(move || {
            while let Ok(Some(line)) = read_line(&mut input) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let served = serve_uci(state, loader, variants, &rx, out);
        if let Err(e) = &served {
            exit_on_write_failure(e);
        }
        served
    })
}

/// The UCI/UCCI command loop over the lines `rx` brings; returns at the end of input.
fn serve_uci(
    state: &mut State,
    loader: &Loader,
    variants: &[String],
    rx: &std::sync::mpsc::Receiver<Line>,
    out: &mut impl Write,
) -> std::io::Result<()> {
    let mut thinking: Option<Thinking> = None;
    // Commands that arrived while a search was under way, to be taken in order once it answers
    // (`stop`, `isready` and `quit` at their turn while it runs), and their bytes.
    let mut pending: std::collections::VecDeque<String> = std::collections::VecDeque::new();
    let mut pending_bytes = 0usize;
    let mut ended = false;
    let ucci = state.protocol == Protocol::Ucci;
    loop {
        // A finished search answers at once, even with no command waiting — but `go infinite`
        // answers only when stopped, as UCI asks; one under way shows its work every second.
        if let Some(t) = &thinking
            && t.handle.is_finished()
            && !t.infinite
        {
            let t = thinking.take().expect("present");
            answer(state, out, t)?;
        } else if let Some(t) = &mut thinking
            && t.shown.elapsed() >= INFO_EVERY
            && !t.handle.is_finished()
        {
            t.shown = Instant::now();
            writeln!(out, "{}", t.info(state))?;
            out.flush()?;
        }
        let queued = match pending.front() {
            Some(l) if thinking.is_none() || taken_during_search(l) => pending.pop_front(),
            _ => None,
        };
        if let Some(l) = &queued {
            pending_bytes -= l.len();
        }
        let from_queue = queued.is_some();
        let line = match queued {
            Some(l) => l,
            None if ended => {
                // The end of input: the search under way stops and answers (one that begins
                // from the queue, at once), and the commands behind it are still taken.
                if let Some(t) = thinking.take() {
                    t.stop.store(true, Ordering::Relaxed);
                    answer(state, out, t)?;
                }
                if pending.is_empty() {
                    return Ok(());
                }
                continue;
            }
            None => match rx.recv_timeout(Duration::from_millis(5)) {
                Ok(Line::Text(l)) => l,
                Ok(Line::TooLong) => {
                    writeln!(out, "info string a line longer than {MAX_LINE} bytes was skipped")?;
                    out.flush()?;
                    continue;
                }
                Ok(Line::NotUtf8) => {
                    writeln!(out, "info string unknown command (the line is not UTF-8)")?;
                    out.flush()?;
                    continue;
                }
                Err(std::sync::mpsc::RecvTimeoutError::Timeout) => continue,
                Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => {
                    // The end of input stops a search; the commands behind it are still taken.
                    if let Some(t) = &thinking {
                        t.stop.store(true, Ordering::Relaxed);
                    }
                    ended = true;
                    continue;
                }
            },
        };
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some(&command) = words.first() else { continue };
        // Commands are taken in order: anything but `stop`, `isready` and `quit` waits for the
        // search under way to give its move first (a GUI waits for `bestmove` anyway), while
        // those three are answered at once (UCI asks it of `isready`).
        if thinking.is_some() && !from_queue && !taken_during_search(&line) {
            if pending.len() < MAX_PENDING && pending_bytes + line.len() <= MAX_PENDING_BYTES {
                pending_bytes += line.len();
                pending.push_back(line.clone());
            } else {
                info(out, &format!("too many commands wait for the search: `{command}` was dropped"))?;
                out.flush()?;
            }
            continue;
        }
        match command {
            "uci" | "ucci" => {
                writeln!(out, "id name Arbiter {} ({})", env!("CARGO_PKG_VERSION"), state.ruleset)?;
                writeln!(out, "id author the Arbiter authors")?;
                if !ucci {
                    let vars = variants.iter().map(|v| format!(" var {v}")).collect::<String>();
                    writeln!(out, "option name UCI_Variant type combo default {}{vars}", state.ruleset)?;
                }
                writeln!(out, "option name Player type string default {}", state.player)?;
                writeln!(out, "{}", if ucci { "ucciok" } else { "uciok" })?;
            }
            "isready" => writeln!(out, "readyok")?,
            "ucinewgame" => {
                state.set_game(Game::new(state.engine.clone(), state.engine.start()));
            }
            "setoption" => match option(&words) {
                None => writeln!(out, "info string setoption: expected `setoption name NAME [value VALUE]`")?,
                // Option names are not case-sensitive (UCI).
                Some((name, value)) => match name.to_ascii_lowercase().as_str() {
                    "uci_variant" if !variants.contains(&value) => {
                        info(out, &format!("unknown variant `{value}`; the variants are {}", variants.join(", ")))?;
                    }
                    "uci_variant" => {
                        if let Err(e) = state.switch(loader, &value) {
                            info(out, &e.replace('\n', " "))?;
                        }
                    }
                    "player" => match PlayerSpec::parse(&value) {
                        Ok(p) => state.player = p,
                        Err(e) => info(out, &e.to_string())?,
                    },
                    _ => info(out, &format!("unknown option `{name}`"))?,
                },
            },
            "position" => position(state, &words, out)?,
            "go" => {
                let white = state.game.current().side_to_move().index() == 0;
                let stop = Arc::new(AtomicBool::new(false));
                let budget = uci_budget(&words, white);
                let pos = state.game.current().clone();
                writeln!(out, "info string {} thinks", state.player)?;
                let progress = Arc::new(Progress::default());
                // After the end of input a search answers at once: nothing could stop it.
                stop.store(ended, Ordering::Relaxed);
                let handle = state.search(budget, stop.clone(), progress.clone());
                thinking = Some(Thinking {
                    handle,
                    infinite: words.contains(&"infinite") && !ended,
                    stop,
                    pos,
                    progress,
                    began: Instant::now(),
                    shown: Instant::now(),
                });
            }
            // Stops the search under way, and one a `go` waiting behind it would begin: a stop
            // sent after that `go` is meant for it too, and nothing else would end it.
            "stop" => {
                if let Some(t) = thinking.take() {
                    t.stop.store(true, Ordering::Relaxed);
                    answer(state, out, t)?;
                    if !from_queue && pending.iter().any(|l| l.split_whitespace().next() == Some("go")) {
                        pending_bytes += line.len();
                        pending.push_back(line.clone());
                    }
                }
            }
            "quit" => {
                if let Some(t) = &thinking {
                    t.stop.store(true, Ordering::Relaxed);
                }
                // The reader thread ends with the process.
                out.flush()?;
                std::process::exit(0);
            }
            "d" => writeln!(out, "info string {}", state.game.current().fen())?,
            other => info(out, &format!("unknown command `{other}`"))?,
        }
        out.flush()?;
    }
}

/// `setoption name NAME [value VALUE]`: the name (the words between `name` and `value`) and the
/// value (the words after it, empty without); `None` without a name.
fn option(words: &[&str]) -> Option<(String, String)> {
    let name_at = words.iter().position(|w| *w == "name")? + 1;
    let value_at = words[name_at..].iter().position(|w| *w == "value").map(|i| name_at + i);
    let name = words[name_at..value_at.unwrap_or(words.len())].join(" ");
    let value = value_at.map(|i| words[i + 1..].join(" ")).unwrap_or_default();
    (!name.is_empty()).then_some((name, value))
}

/// How often a search under way says what it has done.
const INFO_EVERY: Duration = Duration::from_secs(1);

/// A UCI/UCCI search under way.
struct Thinking {
    handle: JoinHandle<Option<(Move, u64)>>,
    /// `go infinite`: the move is given only when `stop` (or the end of input) asks for it.
    infinite: bool,
    stop: Arc<AtomicBool>,
    /// The position searched.
    pos: Position,
    progress: Arc<Progress>,
    began: Instant,
    /// When the last `info` line was written.
    shown: Instant,
}

impl Thinking {
    /// `info` for the work so far: iterations as nodes, the time, the rate, and the move the search
    /// would play now.
    fn info(&self, state: &State) -> String {
        let ms = self.began.elapsed().as_millis().max(1) as u64;
        let nodes = self.progress.iterations();
        let mut line = format!("info depth 1 nodes {nodes} time {ms} nps {}", nodes * 1000 / ms);
        if let Some(m) = self.progress.best() {
            line += &format!(" pv {}", state.move_text(&self.pos, m));
        }
        line
    }
}

/// Writes `bestmove` for a finished search (`(none)` when there was nothing to play).
fn answer(state: &State, out: &mut impl Write, t: Thinking) -> std::io::Result<()> {
    let began = t.began;
    match t.handle.join().ok().flatten() {
        Some((m, nodes)) => {
            let pv = state.move_text(&t.pos, m);
            let ms = began.elapsed().as_millis().max(1) as u64;
            writeln!(out, "info depth 1 nodes {nodes} time {ms} nps {} pv {pv}", nodes * 1000 / ms)?;
            writeln!(out, "bestmove {pv}")?;
        }
        None => writeln!(out, "bestmove (none)")?,
    }
    out.flush()
}

/// `position startpos|fen FEN [moves M...]`: the game from there; an illegal move stops the line
/// with an `info string` saying why (the moves before it stay played).
fn position(state: &mut State, words: &[&str], out: &mut impl Write) -> std::io::Result<()> {
    let moves_at = words.iter().position(|w| *w == "moves");
    let head = &words[1..moves_at.unwrap_or(words.len())];
    let start = match head.first() {
        Some(&"startpos") => Ok(state.engine.start()),
        Some(&"fen") => {
            let mut fields: Vec<&str> = head[1..].to_vec();
            // UCCI GUIs may write red to move as `r`.
            if state.protocol == Protocol::Ucci && fields.get(1) == Some(&"r") {
                fields[1] = "w";
            }
            state.engine.from_fen(&fields.join(" ")).map_err(|e| e.to_string())
        }
        _ => Err("expected `startpos` or `fen`".to_string()),
    };
    match start {
        Ok(p) => state.set_game(Game::new(state.engine.clone(), p)),
        Err(e) => return info(out, &format!("position: {e}")),
    }
    for (i, text) in words[moves_at.map_or(words.len(), |m| m + 1)..].iter().enumerate() {
        match state.find_move(text) {
            Some(m) if state.game.outcome().status == Status::Ongoing => state.game.play(m),
            _ => {
                return info(out, &format!("move {} `{text}` is illegal: {}", i + 1, state.refusal(text)));
            }
        }
    }
    Ok(())
}

/// GTP v2: `=` answers, `?` errors, an empty line after each; ids echoed.
fn gtp(state: &mut State, loader: &Loader, mut input: impl BufRead, out: &mut impl Write) -> std::io::Result<()> {
    const COMMANDS: [&str; 21] = [
        "protocol_version",
        "name",
        "version",
        "known_command",
        "list_commands",
        "quit",
        "boardsize",
        "clear_board",
        "komi",
        "play",
        "genmove",
        "undo",
        "showboard",
        "final_score",
        "final_status_list",
        "loadsgf",
        "set_free_handicap",
        "fixed_handicap",
        "arbiter-explain",
        "arbiter-fen",
        "arbiter-dead",
    ];
    while let Some(line) = read_line(&mut input)? {
        let line = match line {
            Line::Text(l) => l,
            Line::TooLong => {
                write_reply(out, None, Err(format!("line too long (the limit is {MAX_LINE} bytes)")))?;
                continue;
            }
            Line::NotUtf8 => {
                write_reply(out, None, Err("unknown command".into()))?;
                continue;
            }
        };
        // GTP's preprocessing: control characters other than tabs dropped, tabs as spaces, a
        // comment cut off; an empty line is no command.
        let line: String = line
            .split('#')
            .next()
            .unwrap_or("")
            .chars()
            .filter(|c| !c.is_control() || *c == '\t')
            .map(|c| if c == '\t' { ' ' } else { c })
            .collect();
        let mut words: Vec<&str> = line.split_whitespace().collect();
        if words.is_empty() {
            continue;
        }
        // An id is digits, echoed as written.
        let id = words[0].bytes().all(|b| b.is_ascii_digit()).then(|| words[0].to_string());
        if id.is_some() {
            words.remove(0);
        }
        let Some(&command) = words.first() else {
            write_reply(out, id.as_deref(), Err("syntax error: an id with no command".into()))?;
            continue;
        };
        let args = &words[1..];
        let reply: Result<String, String> = match command {
            "protocol_version" => Ok("2".into()),
            "name" => Ok("Arbiter".into()),
            "version" => Ok(env!("CARGO_PKG_VERSION").into()),
            "known_command" => Ok(COMMANDS.contains(&args.first().copied().unwrap_or("")).to_string()),
            "list_commands" => Ok(COMMANDS.join("\n")),
            "quit" => {
                write_reply(out, id.as_deref(), Ok(String::new()))?;
                return Ok(());
            }
            // A new size clears the board (and any handicap a handicap command set).
            "boardsize" => match args.first().map(|n| (n, n.parse::<usize>())) {
                Some((_, Ok(n))) => {
                    let mut params: Vec<String> = state.params.iter().filter(|p| !p.starts_with("size=")).cloned().collect();
                    params.push(format!("size={n}"));
                    let params = state.with_base(&params, "handicap");
                    state
                        .reload(loader, None, params)
                        .map(|()| String::new())
                        .map_err(|_| "unacceptable size".to_string())
                }
                Some((n, Err(_))) if !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) => Err("unacceptable size".into()),
                _ => Err("boardsize not an integer".into()),
            },
            // An empty board: without the stones of any handicap command.
            "clear_board" => {
                let params = state.with_base(&state.params, "handicap");
                if params == state.params {
                    state.set_game(Game::new(state.engine.clone(), state.engine.start()));
                    Ok(String::new())
                } else {
                    state.reload(loader, None, params).map(|()| String::new())
                }
            }
            "komi" => match args.first().and_then(|k| k.parse::<f64>().ok()).filter(|k| k.is_finite()) {
                // (No ruleset gives a komi of a million points: the ruleset's bounds say less.)
                Some(k) if k.abs() >= 1e6 => Err(format!("komi {k:e} is out of the ruleset's range")),
                Some(k) => set_komi(state, loader, k),
                None => Err("komi not a float".into()),
            },
            "play" => match args {
                [colour, vertex] => state.turn_to(colour).and_then(|()| match state.find_move(vertex) {
                    Some(m) if state.game.outcome().status == Status::Ongoing => {
                        state.game.play(m);
                        Ok(String::new())
                    }
                    _ => {
                        let refusal = format!("illegal move: {}", state.refusal(vertex));
                        state.untake_implied_pass();
                        Err(refusal)
                    }
                }),
                _ => Err("syntax error: play COLOR VERTEX".into()),
            },
            // Once the game is over there is nothing to play: a pass, and nothing changes.
            "genmove" if args.len() == 1 && gtp_colour(args[0]).is_some() && state.game.outcome().status != Status::Ongoing => {
                Ok("pass".into())
            }
            "genmove" => match args.first() {
                Some(colour) => state.turn_to(colour).map(|()| {
                    let handle = state.search(None, Arc::new(AtomicBool::new(false)), Arc::default());
                    let pos = state.game.current().clone();
                    match handle.join().ok().flatten() {
                        Some((m, _)) => {
                            state.game.play(m);
                            state.move_text(&pos, m)
                        }
                        None => {
                            state.untake_implied_pass();
                            "resign".into()
                        }
                    }
                }),
                None => Err("syntax error: genmove COLOR".into()),
            },
            "undo" => state.undo().then(String::new).ok_or_else(|| "cannot undo".to_string()),
            "showboard" => Ok(format!("\n{}", board_text(state.game.current()))),
            // The ruleset's own count: its komi, or in a handicap game what it gives instead. A
            // game that does not count by area (chess, Othello, four sides) has no such score.
            "final_score" => match state.engine.rules().area_komi() {
                None => Err(format!("{} does not count by area", state.engine.rules().name)),
                Some(komi) => {
                    let s = state.game.area_score(komi);
                    let margin = s.points[0] - s.points[1] - s.komi;
                    Ok(if margin > 0.0 {
                        format!("B+{margin:.1}")
                    } else if margin < 0.0 {
                        format!("W+{:.1}", -margin)
                    } else {
                        "0".into()
                    })
                }
            },
            // The stones marked dead (`arbiter-dead`), or every other stone: no seki is told apart
            // (counted by area, a seki's stones count as living stones do), so none is listed as one.
            "final_status_list" => {
                let b = &state.engine.rules().board;
                let (dead, pos) = (state.game.dead(), state.game.current());
                let listed: Result<Vec<usize>, String> = match args.first().copied() {
                    Some("dead") => Ok(dead.to_vec()),
                    Some("alive") => Ok((0..b.squares())
                        .filter(|&sq| pos.piece_at(sq).is_some() && !dead.contains(&sq))
                        .collect()),
                    Some("seki") => Ok(Vec::new()),
                    _ => Err("syntax error: final_status_list alive|seki|dead".into()),
                };
                listed.map(|sqs| sqs.iter().map(|&sq| b.name(sq)).collect::<Vec<_>>().join(" "))
            }
            // Marks the chains on these points dead for `final_score` (as a referee agrees them).
            "arbiter-dead" => {
                let b = &state.engine.rules().board;
                let mut squares = Vec::new();
                let mut bad = None;
                for v in args {
                    match b.parse_square(v).or_else(|| b.parse_square(&v.to_ascii_uppercase())) {
                        Some(sq) if state.game.current().piece_at(sq).is_some() => squares.extend(state.game.current().chain_at(sq)),
                        _ => bad = Some(format!("no stone on `{v}`")),
                    }
                }
                match bad {
                    Some(e) => Err(e),
                    None => {
                        squares.sort_unstable();
                        squares.dedup();
                        state.game.set_dead(squares);
                        Ok(String::new())
                    }
                }
            }
            "loadsgf" => match args {
                [file] => load_sgf(state, loader, file, None),
                [file, n] => match n.parse::<usize>() {
                    Ok(n) => load_sgf(state, loader, file, Some(n)),
                    Err(_) => Err("syntax error: loadsgf FILE [MOVE-NUMBER]".into()),
                },
                _ => Err("syntax error: loadsgf FILE [MOVE-NUMBER]".into()),
            },
            "arbiter-explain" => match args.first() {
                Some(vertex) => Ok(match state.find_move(vertex) {
                    Some(_) => format!("{vertex} is legal"),
                    None => state.refusal(vertex),
                }),
                None => Err("syntax error: arbiter-explain VERTEX".into()),
            },
            "arbiter-fen" => Ok(state.game.current().fen()),
            "fixed_handicap" => fixed_handicap(state, loader, args),
            "set_free_handicap" => set_free_handicap(state, loader, args),
            other => Err(format!("unknown command `{other}`")),
        };
        write_reply(out, id.as_deref(), reply)?;
    }
    Ok(())
}

fn write_reply(out: &mut impl Write, id: Option<&str>, reply: Result<String, String>) -> std::io::Result<()> {
    let id = id.unwrap_or_default();
    match reply {
        Ok(text) => write!(out, "={id}{}{text}\n\n", if text.is_empty() { "" } else { " " })?,
        // What the controller sent is quoted cut short where it is long.
        Err(text) => write!(out, "?{id} {}\n\n", crate::diag::shorten_quoted(&text))?,
    }
    out.flush()
}

/// GTP's colour (`b`, `black`, `w`, `white`, in any case): the first player (black) or the second.
fn gtp_colour(colour: &str) -> Option<usize> {
    match colour.to_ascii_lowercase().as_str() {
        "b" | "black" => Some(0),
        "w" | "white" => Some(1),
        _ => None,
    }
}

/// GTP's colour is the side to move.
fn colour_matches(state: &State, colour: &str) -> bool {
    gtp_colour(colour) == Some(state.game.current().side_to_move().index())
}

/// Is the game still at an empty board (no stone, no move played)? GTP's handicap commands need it.
fn board_empty(state: &State) -> bool {
    let pos = state.game.current();
    state.game.ply() == 0 && (0..pos.rules().board.squares()).all(|sq| pos.piece_at(sq).is_none())
}

/// GTP's `fixed_handicap N`: the ruleset's own handicap (its `handicap` parameter: the stones on
/// its handicap points, and what white receives for them), on an empty board; the vertices.
fn fixed_handicap(state: &mut State, loader: &Loader, args: &[&str]) -> Result<String, String> {
    let n = match args {
        [n] => n.parse::<u32>().map_err(|_| "syntax error: fixed_handicap NUMBER".to_string())?,
        _ => return Err("syntax error: fixed_handicap NUMBER".into()),
    };
    if !board_empty(state) {
        return Err("board not empty".into());
    }
    if n < 2 || !state.engine.rules().params.iter().any(|(p, _)| p == "handicap") {
        return Err("invalid number of stones".into());
    }
    let mut params: Vec<String> = state.params.iter().filter(|p| !p.starts_with("handicap=")).cloned().collect();
    params.push(format!("handicap={n}"));
    let before = state.params.clone();
    // A number the ruleset refuses (more stones than its handicap points) leaves the game as it was.
    if state.reload(loader, None, params).is_err() {
        state.reload(loader, None, before)?;
        return Err("invalid number of stones".into());
    }
    let pos = state.game.current();
    let b = &pos.rules().board;
    let stones: Vec<String> = (0..b.squares())
        .filter(|&sq| pos.piece_at(sq).is_some())
        .map(|sq| b.name(sq))
        .collect();
    if stones.len() != n as usize {
        state.reload(loader, None, before)?;
        return Err("invalid number of stones".into());
    }
    Ok(stones.join(" "))
}

/// GTP's `set_free_handicap V...`: black's stones where the controller says, on an empty board,
/// white to move; white receives what the ruleset gives for that many handicap stones.
fn set_free_handicap(state: &mut State, loader: &Loader, args: &[&str]) -> Result<String, String> {
    if !board_empty(state) {
        return Err("board not empty".into());
    }
    let b = state.engine.rules().board.clone();
    let mut squares = Vec::new();
    for v in args {
        let sq = b
            .parse_square(v)
            .or_else(|| b.parse_square(&v.to_ascii_uppercase()))
            .filter(|&sq| b.has(sq))
            .ok_or_else(|| "bad vertex list".to_string())?;
        if squares.contains(&sq) {
            return Err("bad vertex list".into());
        }
        squares.push(sq);
    }
    if squares.len() < 2 || squares.len() >= b.squares() {
        return Err("bad vertex list".into());
    }
    let before = state.params.clone();
    let mut params: Vec<String> = before.iter().filter(|p| !p.starts_with("handicap=")).cloned().collect();
    if state.engine.rules().params.iter().any(|(p, _)| p == "handicap") {
        params.push(format!("handicap={}", squares.len()));
    }
    // The ruleset's compensation for that many stones, where it takes that many (more stones than
    // its handicap points: with none); the stones themselves stand where the controller put them.
    if state.reload(loader, None, params).is_err() {
        let mut plain: Vec<String> = before.iter().filter(|p| !p.starts_with("handicap=")).cloned().collect();
        plain.push("handicap=0".into());
        state
            .reload(loader, None, plain)
            .or_else(|_| state.reload(loader, None, before.clone()))?;
    }
    // The ruleset's start: its placing kind, and everything but the board and the side to move.
    let start = state.engine.start();
    let stone = start
        .legal_moves()
        .into_iter()
        .find_map(|m| start.form_of_place(m))
        .ok_or_else(|| "this game places no stones".to_string())?;
    let mut setup = start.setup();
    setup
        .board
        .iter_mut()
        .enumerate()
        .for_each(|(sq, c)| *c = squares.contains(&sq).then_some((stone, Side::FIRST)));
    setup.stm = Side::SECOND;
    let pos = state.engine.position(&setup).map_err(|e| e.to_string())?;
    state.set_game(Game::new(state.engine.clone(), pos));
    Ok(String::new())
}

/// `loadsgf FILE [N]`: the record's game, up to move `N` (all of it by default). A record that
/// cannot be loaded leaves the game as it was.
fn load_sgf(state: &mut State, loader: &Loader, file: &str, upto: Option<usize>) -> Result<String, String> {
    let saved = state.save();
    let loaded = load_sgf_into(state, loader, file, upto);
    if loaded.is_err() {
        state.restore(saved);
    }
    loaded
}

fn load_sgf_into(state: &mut State, loader: &Loader, file: &str, upto: Option<usize>) -> Result<String, String> {
    let text = arbiter::input::read_text(std::path::Path::new(file), arbiter::input::RECORD_LIMIT)
        .map_err(|e| format!("cannot load file: {e}"))?;
    let rec =
        arbiter::notation::record::read(&text, arbiter::notation::record::Format::Sgf).map_err(|e| format!("cannot load file: {e}"))?;
    let mut params: Vec<String> = state
        .params
        .iter()
        .filter(|p| !rec.params().iter().any(|(k, _)| p.starts_with(&format!("{k}="))))
        .cloned()
        .collect();
    params.extend(rec.params().into_iter().map(|(k, v)| format!("{k}={v}")));
    state.reload(loader, None, params)?;
    let start = rec.start_position(&state.engine).map_err(|e| e.to_string())?;
    state.set_game(Game::new(state.engine.clone(), start));
    let moves = &rec.moves[..upto.map_or(rec.moves.len(), |n| n.saturating_sub(1).min(rec.moves.len()))];
    arbiter::notation::record::play_line(&mut state.game, moves).map_err(|s| format!("cannot load file: {s}"))?;
    let side = state.game.current().side_to_move().index();
    Ok(if side == 0 { "black".into() } else { "white".into() })
}

/// GTP's `komi`: the ruleset's `komi` parameter set to `k`, the game kept — its start (set-up
/// or handicap stones as they stand), its moves, the passes played for it and the stones marked
/// dead. A komi the ruleset refuses leaves everything as it was.
fn set_komi(state: &mut State, loader: &Loader, k: f64) -> Result<String, String> {
    if !state.engine.rules().params.iter().any(|(p, _)| p == "komi") {
        return Err(format!("{} has no komi", state.ruleset));
    }
    let saved = state.save();
    let mut params: Vec<String> = state.params.iter().filter(|p| !p.starts_with("komi=")).cloned().collect();
    params.push(format!("komi={k}"));
    let rebuilt = state.reload(loader, None, params).and_then(|()| {
        let start = state
            .engine
            .position(&saved.game.positions()[0].setup())
            .map_err(|e| e.to_string())?;
        let mut game = Game::new(state.engine.clone(), start);
        for &m in saved.game.moves() {
            if game.outcome().status != Status::Ongoing || !game.current().legal_moves().contains(&m) {
                return Err("the game does not replay under that komi".to_string());
            }
            game.play(m);
        }
        game.set_dead(saved.game.dead().to_vec());
        Ok(game)
    });
    match rebuilt {
        Ok(game) => {
            let passes = saved.implied_passes.clone();
            state.game = game;
            state.implied_passes = passes;
            Ok(String::new())
        }
        Err(e) => {
            state.restore(saved);
            Err(e)
        }
    }
}

/// The board as rows of letters (`.` for empty), top row first, with the side to move.
fn board_text(pos: &Position) -> String {
    let b = &pos.rules().board;
    let mut s = String::new();
    for rank in (0..b.height).rev() {
        for file in 0..b.width {
            let sq = b.square(file, rank);
            let c = match pos.piece_at(sq) {
                Some((k, side)) => {
                    let l = pos.rules().kind(k).letter;
                    if side.index() == 0 {
                        l.to_ascii_uppercase()
                    } else {
                        l.to_ascii_lowercase()
                    }
                }
                None => '.',
            };
            s.push(c);
            s.push(' ');
        }
        s.push('\n');
    }
    s.push_str(&format!("{} to move", pos.rules().players[pos.side_to_move().index()].name));
    s
}
