//! Running a scenario: load its ruleset (compiled once per ruleset and parameters), set up the
//! start, check every step's names against the board before anything is played, then play the
//! script step by step and test each expectation. The result is a [`Report`] value — pass, the
//! first failure (step, caption, expectation, what happened instead), or an error in the scenario
//! itself — and one [`Frame`] per step for a viewer to show. Nothing here prints or panics.

use std::collections::{BTreeSet, HashMap, HashSet};
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::Serialize;

use super::{Action, Expect, ExpectedStatus, Scenario, ScenarioError, Start, Step, load};
use crate::game::{Engine, Game, Move, PERFT_BUDGET, PerftWatch, Position, Ruling, Status};
use crate::model::Side;
use crate::notation::uci;

/// The deepest perft a scenario may ask for (deeper would run for hours).
pub const MAX_PERFT_DEPTH: u32 = 8;

/// The most moves one `Random` step may play. A game keeps a position per move (some kilobytes
/// on a large go board), and a scenario is a short script: more would only be a mistake.
pub const MAX_RANDOM_PLIES: u32 = 1_000;

/// The most moves all the `Random` steps of a scenario may play together.
pub const MAX_SCENARIO_RANDOM_PLIES: u64 = 4_000;

/// The legal move a text names: coordinates first (`e2e4`, `h3e3`), then the ruleset's own notation.
///
/// # Examples
/// ```
/// # let checked = arbiter::check::check_file(std::path::Path::new("../rulesets/chess.rules"), &[]);
/// # let engine = arbiter::game::Engine::new(checked.rules.expect("chess.rules is valid"));
/// use arbiter::scenario::find_move;
/// let start = engine.start();
/// assert_eq!(find_move(&start, "g1f3"), find_move(&start, "Nf3"));
/// assert_eq!(find_move(&start, "e2e5"), None);
/// ```
pub fn find_move(pos: &Position, text: &str) -> Option<Move> {
    crate::notation::find(pos, text)
}

/// One legal move of `pos` drawn uniformly by `rng`, from the legal moves sorted by their coordinates
/// (so a seed picks the same move whatever order the generator lists them in); `None` if there is none.
/// [`Action::Random`] draws its moves this way.
///
/// # Examples
/// ```
/// # let checked = arbiter::check::check_file(std::path::Path::new("../rulesets/chess.rules"), &[]);
/// # let engine = arbiter::game::Engine::new(checked.rules.expect("chess.rules is valid"));
/// use rand::SeedableRng;
/// let start = engine.start();
/// let a = arbiter::scenario::pick_random(&start, &mut rand_chacha::ChaCha8Rng::seed_from_u64(7));
/// let b = arbiter::scenario::pick_random(&start, &mut rand_chacha::ChaCha8Rng::seed_from_u64(7));
/// assert!(a.is_some() && a == b);
/// ```
pub fn pick_random(pos: &Position, rng: &mut impl Rng) -> Option<Move> {
    // A roll comes up as likely as the roll makes it (not uniformly over its numbers).
    if let Some(roll) = pos.draw_roll(rng) {
        return Some(roll);
    }
    let mut moves: Vec<(String, Move)> = pos.legal_moves().into_iter().map(|m| (uci::to_text(pos, m), m)).collect();
    if moves.is_empty() {
        return None;
    }
    moves.sort_by(|a, b| a.0.cmp(&b.0));
    Some(moves[rng.gen_range(0..moves.len())].1)
}

/// The scenario files under `paths`: a file as given, a folder searched recursively for `*.ron`
/// (sorted, so runs are in a stable order). A folder reached twice — through a symlink back to
/// itself or to a folder already searched — is searched once, so a symlink loop ends.
///
/// # Errors
/// A path that does not exist or a folder that cannot be read.
pub fn collect(paths: &[PathBuf]) -> Result<Vec<PathBuf>, ScenarioError> {
    let mut out = Vec::new();
    let mut seen = HashSet::new();
    for p in paths {
        if p.is_dir() {
            walk(p, &mut out, &mut seen)?;
        } else if p.exists() {
            // A file, or something that is not one (a FIFO): reading it says which.
            out.push(p.clone());
        } else {
            return Err(ScenarioError::new(p, "no such file or folder"));
        }
    }
    Ok(out)
}

/// Adds the `*.ron` files under `dir` to `out`; `seen` holds the real paths of the folders
/// already searched.
fn walk(dir: &Path, out: &mut Vec<PathBuf>, seen: &mut HashSet<PathBuf>) -> Result<(), ScenarioError> {
    let real = std::fs::canonicalize(dir).map_err(|e| ScenarioError::new(dir, format!("cannot read the folder: {e}")))?;
    if !seen.insert(real) {
        return Ok(());
    }
    let entries = std::fs::read_dir(dir).map_err(|e| ScenarioError::new(dir, format!("cannot read the folder: {e}")))?;
    let mut paths: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    paths.sort();
    for p in paths {
        if p.is_dir() {
            walk(&p, out, seen)?;
        } else if p.extension().is_some_and(|x| x == "ron") {
            out.push(p);
        }
    }
    Ok(())
}

/// How one scenario went.
#[derive(Clone, Debug, Serialize)]
pub struct Report {
    pub path: PathBuf,
    /// The scenario's title (none if the file could not be read).
    pub title: Option<String>,
    /// The rule-book clause the scenario states it checks.
    pub rule: Option<String>,
    #[serde(flatten)]
    pub verdict: Verdict,
    /// The position and annotations after each step played, for a viewer.
    #[serde(skip)]
    pub frames: Vec<Frame>,
}

impl Report {
    pub fn passed(&self) -> bool {
        matches!(self.verdict, Verdict::Pass { .. })
    }
}

/// Pass, fail, or a scenario that could not run.
#[derive(Clone, Debug, Serialize)]
#[serde(tag = "status", rename_all = "lowercase")]
pub enum Verdict {
    Pass {
        steps: usize,
        expectations: usize,
    },
    /// An action or expectation did not hold.
    Fail(Failure),
    /// The file is malformed, or names a ruleset, square, side or start that does not exist.
    Error(ScenarioError),
}

/// The first step that did not go as the scenario says.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Failure {
    /// 1-based.
    pub step: usize,
    pub caption: Option<String>,
    /// What the scenario expected, in words.
    pub expectation: String,
    /// What happened instead.
    pub actual: String,
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "step {}", self.step)?;
        if let Some(c) = &self.caption {
            write!(f, " (\"{c}\")")?;
        }
        write!(f, ": expected {}; instead: {}", self.expectation, self.actual)
    }
}

/// The position after one step and what to point at, with squares as board indices.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Frame {
    /// 1-based step number.
    pub step: usize,
    pub fen: String,
    /// The moves the step played, in coordinates.
    pub played: Vec<String>,
    pub caption: Option<String>,
    pub highlight: Vec<usize>,
    pub arrows: Vec<(usize, usize)>,
    /// The squares marked dead after the step (chains removed before counting), as the game holds them.
    pub dead: Vec<usize>,
    /// The step's expectations in order, each with whether it held. A failed action is listed too,
    /// as the expectation that it could be done. Empty when none were tested.
    pub expectations: Vec<Checked>,
}

/// One expectation of a step as the runner tested it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Checked {
    /// The expectation in words: `outcome win (reason checkmate)`.
    pub text: String,
    pub passed: bool,
    /// What held instead, when it failed.
    pub instead: Option<String>,
}

/// Runs scenarios, compiling each ruleset (with its parameters) once.
#[derive(Default)]
pub struct Runner {
    dirs: Vec<PathBuf>,
    engines: HashMap<(PathBuf, Vec<(String, String)>), Engine>,
    /// Once set, the scenario running stops before its next step (or inside a perft).
    stop: Arc<AtomicBool>,
    /// A ruleset file run in place of the one each scenario names, with parameters the
    /// scenario's own override (see [`Runner::substitute`]).
    instead: Option<(PathBuf, Vec<(String, String)>)>,
}

/// The message of the error a scenario stopped by [`Runner::stop_when`] ends with, after the step.
pub const INTERRUPTED: &str = "interrupted before the scenario ended";

impl Runner {
    /// A runner that looks up bundled ruleset names (`chess`) in `ruleset_dirs` first, then in a
    /// `rulesets/` folder beside the scenario file or any folder above it.
    pub fn new(ruleset_dirs: Vec<PathBuf>) -> Runner {
        Runner {
            dirs: ruleset_dirs,
            engines: HashMap::new(),
            stop: Arc::default(),
            instead: None,
        }
    }

    /// Runs every scenario from now on against the ruleset at `ruleset` instead of the one it
    /// names, with `params` set; a parameter the scenario sets itself keeps the scenario's value
    /// (a go scenario's board size). This is how two rulesets are tried on the same scripts
    /// (`arbiter compare`).
    ///
    /// # Examples
    /// ```
    /// use std::path::{Path, PathBuf};
    /// let mut runner = arbiter::scenario::Runner::new(vec![PathBuf::from("../rulesets")]);
    /// let scenario = Path::new("../scenarios/chess/perft-start-position.ron");
    /// assert!(runner.run_file(scenario).passed());
    /// runner.substitute(PathBuf::from("../rulesets/xiangqi.rules"), Vec::new());
    /// assert!(!runner.run_file(scenario).passed());
    /// ```
    pub fn substitute(&mut self, ruleset: PathBuf, params: Vec<(String, String)>) {
        self.instead = Some((ruleset, params));
    }

    /// Stops the scenario running once `stop` is set (by a Ctrl-C handler, say): it ends with an
    /// error whose message ends with [`INTERRUPTED`], naming the step it stopped at.
    pub fn stop_when(&mut self, stop: Arc<AtomicBool>) {
        self.stop = stop;
    }

    /// Reads and runs one file.
    pub fn run_file(&mut self, path: &Path) -> Report {
        match load(path) {
            Ok(s) => self.run(&s, path),
            Err(e) => Report {
                path: path.to_path_buf(),
                title: None,
                rule: None,
                verdict: Verdict::Error(e),
                frames: Vec::new(),
            },
        }
    }

    /// Runs a scenario read from `path` (which locates a relative ruleset and names the file in errors).
    pub fn run(&mut self, scenario: &Scenario, path: &Path) -> Report {
        let mut frames = Vec::new();
        let verdict = match self.play(scenario, path, &mut frames) {
            Ok(Ok(expectations)) => Verdict::Pass {
                steps: scenario.steps.len(),
                expectations,
            },
            Ok(Err(f)) => Verdict::Fail(f),
            Err(e) => Verdict::Error(e),
        };
        Report {
            path: path.to_path_buf(),
            title: Some(scenario.title.clone()),
            rule: scenario.rule.clone(),
            verdict,
            frames,
        }
    }

    fn engine(&mut self, scenario: &Scenario, path: &Path) -> Result<Engine, ScenarioError> {
        let own: Vec<(String, String)> = scenario.params.iter().map(|(k, v)| (k.clone(), v.0.clone())).collect();
        let (file, params) = match &self.instead {
            Some((file, base)) => {
                let mut params: Vec<(String, String)> = base.iter().filter(|(k, _)| !scenario.params.contains_key(k)).cloned().collect();
                params.extend(own);
                (file.clone(), params)
            }
            None => {
                let file = self.locate(&scenario.ruleset, path).ok_or_else(|| {
                    ScenarioError::new(
                        path,
                        format!(
                            "ruleset `{}`: not a file beside the scenario, and not a bundled name",
                            scenario.ruleset
                        ),
                    )
                })?;
                (file, own)
            }
        };
        let key = (file.clone(), params);
        if let Some(e) = self.engines.get(&key) {
            return Ok(e.clone());
        }
        let checked = crate::check::check_file(&file, &key.1);
        let Some(engine) = checked.engine else {
            let errors: Vec<String> = checked
                .diagnostics
                .sorted()
                .iter()
                .filter(|d| d.severity == crate::diag::Severity::Error)
                .map(|d| {
                    let (line, col) = checked.sources.line_col(d.span.file, d.span.start);
                    format!("{}:{line}:{col}: {}", checked.sources.name(d.span.file), d.message)
                })
                .collect();
            return Err(ScenarioError::new(
                path,
                format!("ruleset {} has errors: {}", file.display(), errors.join("; ")),
            ));
        };
        self.engines.insert(key, engine.clone());
        Ok(engine)
    }

    fn locate(&self, name: &str, scenario: &Path) -> Option<PathBuf> {
        let here = scenario.parent().unwrap_or(Path::new(""));
        let beside = here.join(name);
        if beside.is_file() {
            return Some(beside);
        }
        let file = format!("{}.rules", name.trim_end_matches(".rules"));
        self.dirs
            .iter()
            .map(|d| d.join(&file))
            .chain(here.ancestors().map(|a| a.join("rulesets").join(&file)))
            .find(|p| p.is_file())
    }

    /// Plays the script. Outer error: the scenario cannot run; inner: the first failure.
    fn play(&mut self, scenario: &Scenario, path: &Path, frames: &mut Vec<Frame>) -> Result<Result<usize, Failure>, ScenarioError> {
        let engine = self.engine(scenario, path)?;
        let dir = path.parent().unwrap_or(Path::new(""));
        let (start, record) = start_position(&engine, &scenario.start, dir).map_err(|m| ScenarioError::new(path, format!("start: {m}")))?;
        let rules = engine.rules().clone();
        let mut annotations = Vec::new();
        let mut random_plies = 0u64;
        for (i, step) in scenario.steps.iter().enumerate() {
            let refuse = |m: String| ScenarioError::new(path, format!("{}: {m}", step_name(i + 1, step)));
            annotations.push(validate(&rules, step).map_err(refuse)?);
            if let Some(Action::Random { plies, .. }) = &step.action {
                random_plies += u64::from(*plies);
                if random_plies > MAX_SCENARIO_RANDOM_PLIES {
                    return Err(refuse(format!(
                        "Random: the Random steps up to this one play {random_plies} moves, past the limit of {MAX_SCENARIO_RANDOM_PLIES} a scenario"
                    )));
                }
            }
        }
        let mut timer = match &scenario.clock {
            Some(name) => Some(Timer {
                clocks: crate::clock::Clocks::new(
                    &crate::clock::find_control(&rules.clocks, name).map_err(|e| ScenarioError::new(path, format!("clock: {e}")))?,
                ),
                before: Vec::new(),
            }),
            None => None,
        };
        let mut game = Game::new(engine, start);
        for (i, m) in record.iter().enumerate() {
            play_text(&mut game, &mut None, m)
                .map_err(|e| ScenarioError::new(path, format!("start: move {} of the record (`{m}`): {e}", i + 1)))?;
        }
        let mut checked = 0;
        for (i, (step, (highlight, arrows))) in scenario.steps.iter().zip(annotations).enumerate() {
            let fail = |expectation: String, actual: String| Failure {
                step: i + 1,
                caption: step.caption.clone(),
                expectation,
                actual,
            };
            let interrupted = || ScenarioError::new(path, format!("{}: {INTERRUPTED}", step_name(i + 1, step)));
            if self.stop.load(Ordering::Relaxed) {
                return Err(interrupted());
            }
            let before = game.ply();
            let played = act(&mut game, &mut timer, step.action.as_ref());
            let moves: Vec<String> = game.moves()[before.min(game.ply())..]
                .iter()
                .zip(&game.positions()[before.min(game.ply())..])
                .map(|(m, p)| uci::to_text(p, *m))
                .collect();
            let mut frame = Frame {
                step: i + 1,
                fen: game.current().fen(),
                played: moves,
                caption: step.caption.clone(),
                highlight,
                arrows,
                dead: game.dead().to_vec(),
                expectations: Vec::new(),
            };
            if let Err((expectation, actual)) = played {
                frame.expectations.push(Checked {
                    text: expectation.clone(),
                    passed: false,
                    instead: Some(actual.clone()),
                });
                frames.push(frame);
                return Ok(Err(fail(expectation, actual)));
            }
            // Every expectation of the step is tested, so a viewer can show each; the first that
            // failed is the report's failure.
            let mut first_failure = None;
            for e in &step.expect {
                let result = expect(&game, timer.as_ref(), e, &self.stop);
                if self.stop.load(Ordering::Relaxed) {
                    return Err(interrupted());
                }
                frame.expectations.push(Checked {
                    text: e.to_string(),
                    passed: result.is_ok(),
                    instead: result.as_ref().err().cloned(),
                });
                match result {
                    Ok(()) => checked += 1,
                    Err(actual) => {
                        first_failure.get_or_insert_with(|| fail(e.to_string(), actual));
                    }
                }
            }
            frames.push(frame);
            if let Some(f) = first_failure {
                return Ok(Err(f));
            }
        }
        Ok(Ok(checked))
    }
}

/// `step 3 ("caption")`.
fn step_name(n: usize, step: &Step) -> String {
    match &step.caption {
        Some(c) => format!("step {n} (\"{c}\")"),
        None => format!("step {n}"),
    }
}

/// The start position of `start` and the moves of a game record to play from it (none but for an
/// SGF start), or why there is none; `dir` is the scenario's folder, where a record's path starts.
///
/// # Errors
/// A record that cannot be read, a FEN or board the rules refuse, in a sentence.
pub fn start_position(engine: &Engine, start: &Start, dir: &Path) -> Result<(Position, Vec<String>), String> {
    let rules = engine.rules();
    let fen = match start {
        Start::Setup => return Ok((engine.start(), Vec::new())),
        Start::Fen(f) => f.clone(),
        Start::Sgf(file) => {
            let full = dir.join(file);
            let text =
                crate::input::read_text(&full, crate::input::RECORD_LIMIT).map_err(|e| format!("cannot read {}: {e}", full.display()))?;
            let game = crate::notation::sgf::parse(&text).map_err(|e| format!("{}: {e}", full.display()))?;
            let setup = game.setup(rules).map_err(|e| format!("{}: {e}", full.display()))?;
            let moves = game.gtp_moves().map_err(|e| format!("{}: {e}", full.display()))?;
            let pos = engine.position(&setup).map_err(|e| format!("{}: {e}", full.display()))?;
            return Ok((pos, moves));
        }
        Start::Board { rows, to_move, castling } => {
            let b = &rules.board;
            if rows.len() != b.height {
                return Err(format!("the board has {} rows; {} has {} ranks", rows.len(), rules.name, b.height));
            }
            let mut ranks = Vec::new();
            for (i, row) in rows.iter().enumerate() {
                let cells: Vec<char> = row.chars().filter(|c| !c.is_whitespace()).collect();
                if cells.len() != b.width {
                    return Err(format!(
                        "row {} (`{row}`) has {} squares; {} has {} files",
                        i + 1,
                        cells.len(),
                        rules.name,
                        b.width
                    ));
                }
                let mut rank = String::new();
                let mut empty = 0;
                for c in cells {
                    if c == '.' {
                        empty += 1;
                        continue;
                    }
                    if empty > 0 {
                        rank.push_str(&empty.to_string());
                        empty = 0;
                    }
                    rank.push(c);
                }
                if empty > 0 {
                    rank.push_str(&empty.to_string());
                }
                ranks.push(rank);
            }
            let side = rules
                .players
                .iter()
                .find(|p| p.name.eq_ignore_ascii_case(to_move) || p.fen == *to_move)
                .ok_or_else(|| {
                    let names: Vec<&str> = rules.players.iter().map(|p| p.name.as_str()).collect();
                    format!("to_move `{to_move}` is not a player (the players: {})", names.join(", "))
                })?;
            format!("{} {} {} - 0 1", ranks.join("/"), side.fen, castling.as_deref().unwrap_or("-"))
        }
    };
    engine
        .from_fen(&fen)
        .map(|p| (p, Vec::new()))
        .map_err(|e| format!("\"{fen}\": {e}"))
}

type Annotations = (Vec<usize>, Vec<(usize, usize)>);

/// Checks a step's square and player names against the board before play; returns its
/// annotations as board indices.
fn validate(rules: &crate::model::Rules, step: &Step) -> Result<Annotations, String> {
    let (board, players, counts, phases) = (&rules.board, &rules.players, &rules.counts, &rules.phases);
    let square = |what: &str, s: &str| {
        board.parse_square(s).ok_or_else(|| {
            format!(
                "{what}: no square `{s}` on this board (files {}–{}, ranks {}–{})",
                board.file_names[0],
                board.file_names[board.width - 1],
                board.rank_names[0],
                board.rank_names[board.height - 1]
            )
        })
    };
    let player = |what: &str, s: &str| {
        if players.iter().any(|p| p.name == s) {
            Ok(())
        } else {
            let names: Vec<&str> = players.iter().map(|p| p.name.as_str()).collect();
            Err(format!("{what}: `{s}` is not a player (the players: {})", names.join(", ")))
        }
    };
    let highlight = step
        .highlight
        .iter()
        .map(|s| square("highlight", s))
        .collect::<Result<Vec<_>, _>>()?;
    let arrows = step
        .arrows
        .iter()
        .map(|(a, b)| Ok((square("arrow", a)?, square("arrow", b)?)))
        .collect::<Result<Vec<_>, String>>()?;
    match &step.action {
        Some(Action::Dead(points)) => {
            for p in points {
                square("Dead", p)?;
            }
        }
        Some(Action::Random { plies, .. }) if *plies > MAX_RANDOM_PLIES => {
            return Err(format!("Random: {plies} moves is past the limit of {MAX_RANDOM_PLIES} a step"));
        }
        _ => {}
    }
    for e in &step.expect {
        match e {
            Expect::MovesFrom { from, to } => {
                square("MovesFrom", from)?;
                for t in to {
                    square("MovesFrom", t)?;
                }
            }
            Expect::ToMove(s) => player("ToMove", s)?,
            Expect::Winnable { side, .. } => player("Winnable side", side)?,
            Expect::Count { name, of, .. } => {
                player("Count of", of)?;
                if !counts.iter().any(|c| c.name == *name) {
                    let names: Vec<&str> = counts.iter().map(|c| c.name.as_str()).collect();
                    return Err(if names.is_empty() {
                        format!("Count: `{name}` is not a count (the ruleset declares none)")
                    } else {
                        format!("Count: `{name}` is not a count (the ruleset's counts: {})", names.join(", "))
                    });
                }
            }
            Expect::Phase(name) if !phases.iter().any(|p| p.name == *name) => {
                let names: Vec<&str> = phases.iter().map(|p| p.name.as_str()).collect();
                return Err(if names.is_empty() {
                    format!("Phase: `{name}` is not a phase (the ruleset has no phases)")
                } else {
                    format!("Phase: `{name}` is not a phase (the ruleset's phases: {})", names.join(", "))
                });
            }
            Expect::Outcome { winner: Some(w), .. } => player("Outcome winner", w)?,
            Expect::Perft { depth, .. } if *depth > MAX_PERFT_DEPTH => {
                return Err(format!("Perft: depth {depth} is past the limit of {MAX_PERFT_DEPTH}"));
            }
            _ => {}
        }
    }
    Ok((highlight, arrows))
}

/// Why a move cannot be played now: the game is over, or the ruling on it.
fn refusal(game: &Game, text: &str) -> String {
    let o = game.outcome();
    if o.status != Status::Ongoing {
        return format!("the game is over ({})", o.message(game.current()));
    }
    match game.current().explain(text) {
        Ruling::Illegal(i) => format!(
            "illegal ({}{}): {}",
            i.code,
            i.clause.map(|c| format!(", {c}")).unwrap_or_default(),
            i.message
        ),
        Ruling::Legal { message, .. } => format!("no legal move is written `{text}` ({message})"),
    }
}

/// The game's clocks, with what they read before each move they charged (by ply), so that a
/// take-back sets them back.
struct Timer {
    clocks: crate::clock::Clocks,
    before: Vec<(usize, crate::clock::Clocks)>,
}

/// Plays one move if the game goes on and the text names a legal move. On a clock the move's time
/// (`e2e4@12.5`; none is 0) is charged first: past what the player has, the flag falls instead.
fn play_text(game: &mut Game, timer: &mut Option<Timer>, text: &str) -> Result<(), String> {
    let (text, spent) = crate::clock::split_timed(text)?;
    if spent.is_some() && timer.is_none() {
        return Err(format!("`{text}@…` gives a move's time, but the scenario has no `clock`"));
    }
    let found = (game.outcome().status == Status::Ongoing)
        .then(|| find_move(game.current(), text))
        .flatten();
    match found {
        // On a clock, a legal move's time is charged first: past the player's time it is not made.
        Some(_)
            if timer.as_mut().is_some_and(|t| {
                t.before.push((game.ply(), t.clocks.clone()));
                game.charge(&mut t.clocks, spent.unwrap_or(0))
            }) =>
        {
            Ok(())
        }
        Some(m) => {
            game.play(m);
            Ok(())
        }
        None => Err(refusal(game, text)),
    }
}

/// Does a step's action. Error: (what was expected, what happened).
fn act(game: &mut Game, timer: &mut Option<Timer>, action: Option<&Action>) -> Result<(), (String, String)> {
    match action {
        None => Ok(()),
        Some(Action::Play(text)) => play_text(game, timer, text).map_err(|a| (format!("`{text}` is playable"), a)),
        Some(Action::Line(moves)) => {
            for (i, text) in moves.iter().enumerate() {
                play_text(game, timer, text).map_err(|a| (format!("`{text}` (move {} of the line) is playable", i + 1), a))?;
            }
            Ok(())
        }
        Some(Action::Random { plies, seed }) => {
            let mut rng = ChaCha8Rng::seed_from_u64(*seed);
            for _ in 0..*plies {
                if game.outcome().status != Status::Ongoing {
                    break;
                }
                let Some(pick) = pick_random(game.current(), &mut rng) else {
                    break;
                };
                game.play(pick);
            }
            Ok(())
        }
        Some(Action::Dead(points)) => {
            let pos = game.current();
            let b = &pos.rules().board;
            let mut squares = Vec::new();
            for p in points {
                // The names were checked before play.
                let Some(sq) = b.parse_square(p) else {
                    return Err((format!("a point {p}"), format!("no point {p} on this board")));
                };
                if pos.piece_at(sq).is_none() {
                    return Err((format!("a stone on {p} to mark dead"), format!("{p} is empty")));
                }
                squares.push(sq);
            }
            game.set_dead(squares);
            Ok(())
        }
        Some(Action::TakeBack(n)) => {
            let had = game.ply();
            for _ in 0..*n {
                if game.undo().is_none() {
                    return Err((format!("{n} moves to take back"), format!("only {had} moves were played")));
                }
            }
            if let Some(t) = timer.as_mut() {
                while let Some((p, c)) = t.before.last()
                    && *p >= game.ply()
                {
                    t.clocks = c.clone();
                    t.before.pop();
                }
            }
            Ok(())
        }
    }
}

/// The legal moves while the game goes on (none once it has ended).
fn playable(game: &Game) -> Vec<Move> {
    if game.outcome().status == Status::Ongoing {
        game.current().legal_moves()
    } else {
        Vec::new()
    }
}

fn list<T: AsRef<str>>(items: impl IntoIterator<Item = T>) -> String {
    let v: Vec<String> = items.into_iter().map(|s| s.as_ref().to_string()).collect();
    format!("[{}]", v.join(", "))
}

fn missing_mentions(message: &str, mentions: &[String]) -> Vec<String> {
    mentions.iter().filter(|m| !message.contains(m.as_str())).cloned().collect()
}

/// Tests one expectation; the error is what holds instead.
fn expect(game: &Game, timer: Option<&Timer>, e: &Expect, stop: &Arc<AtomicBool>) -> Result<(), String> {
    let pos = game.current();
    let rules = pos.rules();
    let side = |s: crate::model::Side| rules.players[s.index()].name.clone();
    match e {
        Expect::Legal(text) => {
            let ongoing = game.outcome().status == Status::Ongoing;
            match find_move(pos, text) {
                Some(_) if ongoing => Ok(()),
                _ => Err(refusal(game, text)),
            }
        }
        Expect::Illegal {
            mv,
            reason,
            clause,
            mentions,
        } => {
            let o = game.outcome();
            let (code, cl, message) = if o.status != Status::Ongoing {
                ("game-over".to_string(), o.clause.clone(), o.message(pos))
            } else if let Some(m) = find_move(pos, mv) {
                return Err(format!("legal ({} is {})", mv, uci::to_text(pos, m)));
            } else {
                match pos.explain(mv) {
                    Ruling::Illegal(i) => (i.code.to_string(), i.clause, i.message),
                    Ruling::Legal { message, .. } => return Err(format!("legal ({message})")),
                }
            };
            let missing = missing_mentions(&message, mentions);
            if code == *reason && (clause.is_none() || *clause == cl) && missing.is_empty() {
                Ok(())
            } else {
                let mut s = format!("illegal ({code}{}): {message}", cl.map(|c| format!(", {c}")).unwrap_or_default());
                if !missing.is_empty() {
                    s.push_str(&format!(" — which does not mention {}", missing.join(", ")));
                }
                Err(s)
            }
        }
        Expect::InCheck(want) => {
            let is = pos.in_check();
            if is == *want {
                Ok(())
            } else if is {
                Err(format!("in check: {}", game.outcome().message(pos)))
            } else {
                Err(format!("{} is not in check", side(pos.side_to_move())))
            }
        }
        Expect::Count { name, of, value } => {
            let i = rules
                .counts
                .iter()
                .position(|c| c.name == *name)
                .ok_or_else(|| format!("no count `{name}`"))?;
            let s = rules
                .players
                .iter()
                .position(|p| p.name == *of)
                .ok_or_else(|| format!("no player `{of}`"))?;
            let have = pos.tally(crate::model::Side(s as u8), i);
            if have == *value {
                Ok(())
            } else {
                Err(format!("{of}'s {name} is {have}"))
            }
        }
        Expect::Phase(name) => match pos.phase_name() {
            Some(now) if now == name => Ok(()),
            Some(now) => Err(format!("phase {now}")),
            None => Err("no phase (the ruleset has none)".to_string()),
        },
        Expect::ToMove(name) => {
            let now = side(pos.side_to_move());
            if now == *name { Ok(()) } else { Err(format!("{now} to move")) }
        }
        Expect::Moves(texts) => {
            let legal = playable(game);
            let mut want = BTreeSet::new();
            let mut unknown = Vec::new();
            for t in texts {
                match find_move(pos, t) {
                    Some(m) if legal.contains(&m) => {
                        want.insert(uci::to_text(pos, m));
                    }
                    _ => unknown.push(t.clone()),
                }
            }
            let have: BTreeSet<String> = legal.iter().map(|m| uci::to_text(pos, *m)).collect();
            if unknown.is_empty() && want == have {
                return Ok(());
            }
            let mut parts = vec![format!("{} legal moves {}", have.len(), list(&have))];
            if !unknown.is_empty() {
                parts.push(format!("not legal: {}", list(&unknown)));
            }
            let missing: Vec<&String> = want.difference(&have).collect();
            if !missing.is_empty() {
                parts.push(format!("missing: {}", list(missing)));
            }
            let extra: Vec<&String> = have.difference(&want).collect();
            if !extra.is_empty() {
                parts.push(format!("not expected: {}", list(extra)));
            }
            Err(parts.join("; "))
        }
        Expect::MoveCount(n) => {
            let have = playable(game).len();
            if have == *n { Ok(()) } else { Err(format!("{have} legal moves")) }
        }
        Expect::MovesFrom { from, to } => {
            let b = &rules.board;
            let sq = b.parse_square(from).ok_or_else(|| format!("no square {from}"))?;
            let have: BTreeSet<String> = playable(game)
                .iter()
                .filter(|m| m.from as usize == sq)
                .map(|m| b.name(m.to as usize))
                .collect();
            let want: BTreeSet<String> = to.iter().cloned().collect();
            if have == want {
                Ok(())
            } else {
                let what = match pos.piece_at(sq) {
                    Some((k, s)) => format!("{}'s {} on {from}", side(s), rules.kind(k).name.to_lowercase()),
                    None => format!("no piece on {from}, so"),
                };
                Err(format!("{what} may go to {}", list(&have)))
            }
        }
        Expect::Perft { depth, nodes } => {
            let estimate = pos.perft_estimate(*depth, false);
            if estimate > PERFT_BUDGET {
                return Err(format!(
                    "perft({depth}) is about {estimate:.1e} leaf nodes by the branching of the first plies, past a scenario's budget of {PERFT_BUDGET:.0e}: count it with `arbiter perft --force` instead"
                ));
            }
            // Counted in pieces that look at `stop` between them; stopped, the caller says so.
            let watch = PerftWatch::stopped_by(stop.clone());
            let mut n = if *depth == 0 { 1 } else { 0 };
            let _ = pos.perft_divide_watched(*depth, false, &watch, |_, k| n += k);
            if n == *nodes {
                Ok(())
            } else {
                Err(format!("perft({depth}) = {n}"))
            }
        }
        Expect::Outcome {
            status,
            winner,
            reason,
            clause,
            mentions,
        } => {
            let o = game.outcome();
            let st = match o.status {
                Status::Ongoing => ExpectedStatus::Ongoing,
                Status::Win => ExpectedStatus::Win,
                Status::Draw => ExpectedStatus::Draw,
                Status::NoResult => ExpectedStatus::NoResult,
            };
            let message = o.message(pos);
            let w = o.winner.map(side);
            let missing = missing_mentions(&message, mentions);
            let ok = st == *status
                && (winner.is_none() || *winner == w)
                && (reason.is_none() || *reason == o.reason)
                && (clause.is_none() || *clause == o.clause)
                && missing.is_empty();
            if ok {
                return Ok(());
            }
            let details: Vec<String> = [
                w.map(|w| format!("winner {w}")),
                o.reason.as_ref().map(|r| format!("reason {r}")),
                o.clause.as_ref().map(|c| format!("clause {c}")),
            ]
            .into_iter()
            .flatten()
            .collect();
            let mut s = format!("outcome {}", o.status.as_str());
            if !details.is_empty() {
                s.push_str(&format!(" ({})", details.join(", ")));
            }
            s.push_str(&format!(": {message}"));
            if !missing.is_empty() {
                s.push_str(&format!(" — which does not mention {}", missing.join(", ")));
            }
            Err(s)
        }
        Expect::Result(r) => {
            let have = game.outcome().result_text(rules).unwrap_or_else(|| "*".to_string());
            if have == *r { Ok(()) } else { Err(format!("result {have}")) }
        }
        Expect::Clocks { first, second } => {
            let Some(t) = timer else {
                return Err("no clock (the scenario has no `clock`)".to_string());
            };
            let [a, b] = t.clocks.seconds_left();
            if (a - first).abs() < 1e-9 && (b - second).abs() < 1e-9 {
                Ok(())
            } else {
                Err(format!(
                    "clocks at {a} s ({}) and {b} s ({})",
                    side(Side::FIRST),
                    side(Side::SECOND)
                ))
            }
        }
        Expect::Score { black, white } => {
            let Some(komi) = rules.area_komi() else {
                return Err(format!("{} does not count by area", rules.name));
            };
            let score = game.outcome().score.unwrap_or_else(|| game.area_score(komi));
            let [b, w] = score.points;
            if (b - black).abs() < 1e-9 && (w - white).abs() < 1e-9 {
                Ok(())
            } else {
                Err(format!("score {} {b}, {} {w} (before komi)", side(Side::FIRST), side(Side::SECOND)))
            }
        }
        Expect::Claimable(want) => {
            let o = game.outcome();
            let have: BTreeSet<&str> = o.claimable.iter().map(|c| c.0.as_str()).collect();
            let want_set: BTreeSet<&str> = want.iter().map(String::as_str).collect();
            if have == want_set {
                Ok(())
            } else if have.is_empty() {
                Err(format!("no claimable draw ({})", o.message(pos)))
            } else {
                Err(format!("claimable {}", list(&have)))
            }
        }
        Expect::Winnable { side: name, can } => {
            let Some(s) = rules.players.iter().position(|p| p.name == *name) else {
                return Err(format!("no player is named `{name}`"));
            };
            let s = crate::model::Side(s as u8);
            let answer = pos.winnability(s, crate::game::Bounds::FULL);
            match (&answer.verdict, can) {
                (crate::game::Winnability::CanWin(line), true) => {
                    let mut g = game.clone();
                    for &m in line {
                        if g.outcome().status != Status::Ongoing || !g.current().legal_moves().contains(&m) {
                            return Err(format!("the winning line found breaks off before {}", uci::to_text(g.current(), m)));
                        }
                        g.play(m);
                    }
                    let o = g.outcome();
                    if o.status == Status::Win && o.winner == Some(s) {
                        Ok(())
                    } else {
                        Err(format!("the line found ends in {}", o.message(g.current())))
                    }
                }
                (crate::game::Winnability::CannotWin(_), false) => Ok(()),
                (crate::game::Winnability::CanWin(line), false) => {
                    let texts: Vec<String> = crate::notation::written_line(pos, line);
                    Err(format!("{name} can win: {}", texts.join(" ")))
                }
                (crate::game::Winnability::CannotWin(how), true) => Err(format!("{name} cannot win ({how:?})")),
                (crate::game::Winnability::Unknown, _) => Err(format!("undecided within the search's bounds ({} positions)", answer.nodes)),
            }
        }
        Expect::Fen(f) => {
            let have = pos.fen();
            let norm = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
            if norm(&have) == norm(f) {
                Ok(())
            } else {
                Err(format!("FEN {have}"))
            }
        }
    }
}
