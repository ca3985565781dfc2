//! The `arbiter` command line: check a ruleset, count perft, list legal moves, play a line and
//! report the outcome, explain a ruling. Human output by default, `--json` for scripts. Library
//! code never prints; this file renders diagnostics and results and picks exit codes:
//! 0 success, 1 a bad ruleset, position or argument, 2 an illegal move, 130 interrupted (Ctrl-C)
//! after printing what was done. A long run (perft, scenarios) shows its progress on stderr once
//! it has taken a second, when stderr is a terminal.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use arbiter::check::{Checked, check_file, check_source};
use arbiter::diag;
use arbiter::game::{Engine, Game, Move, PERFT_BUDGET, PerftWatch, Position, Ruling};
use arbiter::notation::record::{Format, GameRecord, RecordStart};
use arbiter::notation::{san, uci};
use arbiter::scenario;
use clap::{Args, Parser, Subcommand};
use indicatif::{HumanCount, ProgressBar, ProgressDrawTarget, ProgressStyle};
use serde_json::json;

/// `eprintln!` that never panics: where stderr is closed, or a pipe's reader has gone, the message
/// is dropped and the exit code still tells (`eprintln!` would panic, exit 101).
macro_rules! errln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($arg)*);
    }};
}

/// `eprint!` that never panics, as [`errln!`].
macro_rules! err {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = write!(std::io::stderr(), $($arg)*);
    }};
}

#[path = "cli/compare.rs"]
mod compare;
#[path = "cli/engine.rs"]
mod engine_protocol;
#[path = "cli/simulate.rs"]
mod simulate;
#[path = "cli/tournament.rs"]
mod tournament;

/// `println!` that never panics: where stdout is closed (`arbiter moves go | head -1`) the line is
/// dropped, as [`say`] does.
macro_rules! outln {
    ($($arg:tt)*) => {
        say(&format!($($arg)*))
    };
}

#[derive(Parser)]
#[command(
    name = "arbiter",
    version,
    about = "Check, run and explain board-game rules written in Arbiter's rules language",
    after_help = "Files are read only when they are regular files within a size limit: 4 MiB for a ruleset and \
                  each file it extends, 16 MiB for a game record (--pgn, --sgf) or a scenario."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Args, Clone)]
struct Common {
    /// A bundled ruleset name (`chess`) or a path to a `.rules` file.
    ruleset: String,
    /// Start from this position instead of the ruleset's setup.
    #[arg(long)]
    fen: Option<String>,
    /// Override a ruleset parameter: `--param NAME=VALUE` (repeatable).
    #[arg(long = "param", value_name = "NAME=VALUE")]
    params: Vec<String>,
}

#[derive(Subcommand)]
enum Command {
    /// Report every problem in a ruleset; exit 1 if there is an error.
    Check {
        ruleset: String,
        #[arg(long = "param", value_name = "NAME=VALUE")]
        params: Vec<String>,
        /// Print diagnostics as JSON.
        #[arg(long)]
        json: bool,
    },
    /// A language server for `.rules` files on stdin and stdout (diagnostics as you type, hover,
    /// completion, definitions, references, rename, outline, formatting, quick fixes).
    Lsp,
    /// Lay out `.rules` files as the bundled rulesets are laid out (indentation, spacing, aligned
    /// citations; comments kept); with --check, change nothing and exit 1 if a file would change.
    Fmt {
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Report the files that are not formatted (and the first line that differs) instead of
        /// rewriting them.
        #[arg(long)]
        check: bool,
    },
    /// Count the leaf nodes of the legal move tree; the last line is the count.
    Perft {
        #[command(flatten)]
        common: Common,
        depth: u32,
        /// Print the count below each first move.
        #[arg(long)]
        divide: bool,
        /// Make every position that an automatic end rule ends a leaf with no children (as
        /// Fairy-Stockfish counts). Without it no end rule is applied, which keeps the standard
        /// chess and xiangqi counts. Repetition rules, which need a game's history, are not applied.
        #[arg(long)]
        stop_at_end: bool,
        /// Count even where the estimated work is past the budget of 10^10 leaf nodes (minutes).
        #[arg(long)]
        force: bool,
        /// Count on this many threads (1 to 256), which share out the first moves. The count does
        /// not depend on it; with --divide the lines come in the order the first moves finish.
        #[arg(long, default_value_t = 1)]
        threads: usize,
        /// In a game of chance: count from the position after the side to move rolls N (`5`; dice
        /// used one by one as `5-3`). Without it, the position's first ply is the roll, one child
        /// per result.
        #[arg(long, value_name = "N")]
        roll: Option<String>,
    },
    /// List the legal moves after playing MOVE... (one per line, or `{"moves": [...]}`).
    Moves {
        #[command(flatten)]
        common: Common,
        #[arg(long)]
        json: bool,
        /// Write moves in SAN instead of coordinates.
        #[arg(long)]
        san: bool,
        /// Write moves in the ruleset's own notation (its `notation`: SAN for chess, WXF for xiangqi).
        #[arg(long, conflicts_with = "san")]
        written: bool,
        /// In a game of chance: list the moves after the side to move rolls N (`5`; dice used one
        /// by one as `5-3`). Without it, a side still to roll lists the roll's results, `roll:1`...
        #[arg(long, value_name = "N")]
        roll: Option<String>,
        moves: Vec<String>,
    },
    /// Play MOVE... (coordinates or SAN) and print the position and how the game stands.
    Play {
        #[command(flatten)]
        common: Common,
        #[arg(long)]
        json: bool,
        /// Read the moves from a PGN file (its FEN tag, if any, sets the start); a `.wxf` file is read
        /// as WXF. At most 16 MiB.
        #[arg(long, value_name = "FILE")]
        pgn: Option<PathBuf>,
        /// Read a go record from an SGF file: its main line, setup stones and player to move; its
        /// `SZ` and `KM` become `--param size=N` and `--param komi=K` unless given. At most 16 MiB.
        #[arg(long, value_name = "FILE", conflicts_with_all = ["pgn", "fen"])]
        sgf: Option<PathBuf>,
        /// Mark the chains containing these points dead before counting (go): `--dead D4,E5`.
        #[arg(long, value_delimiter = ',', value_name = "POINTS")]
        dead: Vec<String>,
        /// Play on a clock: a time control the ruleset names (`classical`), or one in PGN's
        /// `TimeControl` syntax (`40/5400:900+30`). A move may then carry the seconds it took,
        /// `e2e4@12.5`; a flag falls when a move takes more than the player has.
        #[arg(long, value_name = "NAME|TIMECONTROL")]
        clock: Option<String>,
        /// Write the game as a record: PGN (moves in the ruleset's notation), WXF (games written in WXF, as xiangqi), SGF (games
        /// that place stones) or the final FEN; with the record's variations, and on a clock the
        /// time control and each move's time left. On standard output unless `--out` is given.
        #[arg(long, value_name = "FORMAT", value_parser = ["pgn", "wxf", "sgf", "fen"])]
        write: Option<String>,
        /// The file `--write` writes (never over an existing one).
        #[arg(long, value_name = "FILE", requires = "write")]
        out: Option<PathBuf>,
        /// Also say, for each player, whether it can still win by some series of legal moves: a
        /// winning line found, "cannot" with its proof, or undecided within the search's bounds.
        #[arg(long)]
        winnable: bool,
        moves: Vec<String>,
    },
    /// Play MOVE... and explain the ruling on the last one: legal or not, why, and the clause.
    Explain {
        #[command(flatten)]
        common: Common,
        #[arg(long)]
        json: bool,
        /// Play on a clock, as `play --clock` does (moves may carry their seconds, `e2e4@12.5`):
        /// a last move that takes more than the player has is ruled as a flag fall.
        #[arg(long, value_name = "NAME|TIMECONTROL")]
        clock: Option<String>,
        #[arg(required = true)]
        moves: Vec<String>,
    },
    /// Play games between players and report the statistics: results with 95% intervals, why games
    /// ended, their length, moves per ply (`simulate merge` joins the reports of shards).
    Simulate(simulate::SimulateArgs),
    /// Speak an engine protocol on standard input and output: UCI (`UCI_Variant` names any bundled
    /// ruleset), UCCI (xiangqi GUIs) or GTP v2 (go programs), playing with a simulation player.
    Engine {
        #[command(flatten)]
        common: Common,
        #[arg(long, value_parser = ["uci", "ucci", "gtp"])]
        protocol: String,
        /// Who chooses the moves: `random`, `mcts:N` or `mcts:Nms`.
        #[arg(long, default_value = "random")]
        player: String,
        /// The seed of the player's random numbers.
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// A knockout between N entrants played by the players given: rounds paired by drawing cards,
    /// byes by lot, best-of-three matches with extra games or a lot for a level one. A game of
    /// more than two sides (or of teams) seats an entrant per side (per team) at each table.
    Tournament(tournament::TournamentArgs),
    /// What changed between two rulesets of the same board: perft side by side, a shortest line
    /// after which the legal moves (or the game's end) differ with the clause on each side, and
    /// the scenarios whose verdicts change. Exit 0 when compared, whether or not they differ; 1
    /// when a scenario could run on neither ruleset (the report lists it).
    Compare {
        /// Ruleset A: a bundled name or a path to a `.rules` file.
        a: String,
        /// Ruleset B, on the same board.
        b: String,
        /// Start both from this position instead of each ruleset's setup.
        #[arg(long)]
        fen: Option<String>,
        /// Override a parameter in both rulesets: `--param NAME=VALUE` (repeatable).
        #[arg(long = "param", value_name = "NAME=VALUE")]
        params: Vec<String>,
        /// Count perft at depths 1..=D (default: up to 5, stopping before a depth that would count
        /// more than 20 million leaves).
        #[arg(long)]
        depth: Option<u32>,
        /// Perft treats a position an end rule ends as a leaf, as `perft --stop-at-end` does.
        #[arg(long)]
        stop_at_end: bool,
        /// The longest line the search for a difference tries.
        #[arg(long, default_value_t = 20)]
        plies: u32,
        /// The most distinct positions the search for a difference examines (default: 200 000, fewer
        /// where there are many moves: 8 million divided by the number of moves at the start).
        #[arg(long)]
        positions: Option<usize>,
        /// Run the scenarios of this folder (default: the bundled folder of A's game, if any).
        #[arg(long, value_name = "DIR")]
        scenarios: Option<PathBuf>,
        /// Also simulate N games on each ruleset (the same seed and players) and compare the
        /// statistics, with a z-test on each difference.
        #[arg(long, requires = "seed")]
        games: Option<u64>,
        /// The simulation's seed: the same seed plays the same games.
        #[arg(long, requires = "games")]
        seed: Option<u64>,
        /// The simulation's players: one for every side, or one per side in turn order separated by commas (`random`, `mcts:N`, `mcts:Nms`).
        #[arg(long, default_value = "random", requires = "games")]
        players: String,
        /// Cut a simulated game after this many plies.
        #[arg(long, default_value_t = arbiter::sim::DEFAULT_MAX_PLIES, requires = "games")]
        max_plies: usize,
        /// Threads to simulate on (default: every core). The results do not depend on it.
        #[arg(long, requires = "games")]
        threads: Option<usize>,
        /// Print one JSON object.
        #[arg(long)]
        json: bool,
    },
    /// Scenarios: scripted positions with expected rulings (RON files, see scenarios/README.md).
    Scenario {
        #[command(subcommand)]
        command: ScenarioCommand,
    },
}

#[derive(Subcommand)]
enum ScenarioCommand {
    /// Run scenario files, or folders of them: one line per scenario, exit 1 if any fails.
    Run {
        /// `.ron` files, or folders searched for them.
        #[arg(required = true)]
        paths: Vec<PathBuf>,
        /// Print one JSON object: counts and a report per scenario.
        #[arg(long)]
        json: bool,
    },
}

/// A failure to report: message for stderr, optional JSON for stdout, exit code.
struct Failure {
    message: String,
    json: Option<serde_json::Value>,
    code: u8,
    /// Everything is already printed (diagnostics); only the exit code remains.
    reported: bool,
}

impl Failure {
    fn input(message: impl Into<String>) -> Failure {
        Failure {
            message: message.into(),
            json: None,
            code: 1,
            reported: false,
        }
    }

    /// A failure already said (diagnostics, a partial report and why): only the exit code remains.
    fn reported(code: u8) -> Failure {
        Failure {
            message: String::new(),
            json: None,
            code,
            reported: true,
        }
    }
}

/// Perft depths past this would run for days; refuse rather than hang.
const MAX_PERFT_DEPTH: u32 = 12;

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        // Help and the version, on standard output.
        Err(e) if !e.use_stderr() => e.exit(),
        // A refused argument is quoted cut short (a file's contents given by mistake).
        Err(e) => {
            errln!("{}", diag::shorten_quoted(e.render().to_string().trim_end()));
            return ExitCode::from(u8::try_from(e.exit_code()).unwrap_or(2));
        }
    };
    let json_mode = match &cli.command {
        Command::Check { json, .. }
        | Command::Moves { json, .. }
        | Command::Play { json, .. }
        | Command::Explain { json, .. }
        | Command::Compare { json, .. } => *json,
        Command::Perft { .. } | Command::Engine { .. } | Command::Fmt { .. } | Command::Lsp => false,
        Command::Simulate(a) => a.json || matches!(a.command, Some(simulate::SimulateCommand::Merge { json: true, .. })),
        Command::Tournament(a) => a.json,
        Command::Scenario {
            command: ScenarioCommand::Run { json, .. },
        } => *json,
    };
    let result = run(cli.command);
    if let Some(e) = OUTPUT_FAILED.get() {
        errln!("error: cannot write the output: {e}");
        return ExitCode::from(1);
    }
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(f) if f.reported => ExitCode::from(f.code),
        Err(f) => {
            let message = diag::shorten_quoted(&f.message);
            if json_mode {
                let v = f.json.unwrap_or_else(|| json!({"error": "bad-input", "message": message}));
                outln!("{v}");
            }
            errln!("error: {message}");
            ExitCode::from(f.code)
        }
    }
}

/// Finds a ruleset: an existing path, or a bundled name under `rulesets/`.
fn locate(ruleset: &str) -> Result<PathBuf, Failure> {
    let p = Path::new(ruleset);
    // Anything at the path but a folder is the ruleset: reading it says what is wrong with a
    // device or a FIFO, rather than looking for a bundled ruleset of that name.
    if p.exists() && !p.is_dir() {
        return Ok(p.to_path_buf());
    }
    let name = ruleset.trim_end_matches(".rules");
    let dirs = bundled_dirs("ARBITER_RULESETS", "rulesets");
    for d in &dirs {
        let f = d.join(format!("{name}.rules"));
        if f.is_file() {
            return Ok(f);
        }
    }
    let mut bundled: Vec<String> = std::fs::read_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("../rulesets"))
        .map(|rd| {
            rd.filter_map(|e| e.ok())
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|x| x == "rules"))
                .filter_map(|p| p.file_stem().map(|s| s.to_string_lossy().into_owned()))
                .collect()
        })
        .unwrap_or_default();
    bundled.sort();
    Err(Failure::input(format!(
        "no ruleset `{ruleset}`: not a file, and not a bundled name{}",
        if bundled.is_empty() {
            String::new()
        } else {
            format!(" (bundled: {})", bundled.join(", "))
        }
    )))
}

fn parse_params(params: &[String]) -> Result<Vec<(String, String)>, Failure> {
    let mut parsed: Vec<(String, String)> = Vec::new();
    for p in params {
        let (k, v) = match p.split_once('=') {
            Some((k, v)) if !k.trim().is_empty() => (k.trim().to_string(), v.trim().to_string()),
            _ => return Err(Failure::input(format!("--param `{p}`: expected NAME=VALUE"))),
        };
        // Given twice, which value was meant? (The last one won unsaid, and a run's description
        // recorded both.)
        if let Some((_, first)) = parsed.iter().find(|(name, _)| *name == k) {
            return Err(Failure::input(format!(
                "--param {k} is given twice ({k}={first} and {k}={v}): give it once"
            )));
        }
        parsed.push((k, v));
    }
    Ok(parsed)
}

fn load(ruleset: &str, params: &[String]) -> Result<(Checked, PathBuf), Failure> {
    let path = locate(ruleset)?;
    let params = parse_params(params)?;
    Ok((check_file(&path, &params), path))
}

/// Loads a ruleset that must be free of errors; prints its diagnostics otherwise.
fn engine(common: &Common) -> Result<Engine, Failure> {
    let (checked, path) = load(&common.ruleset, &common.params)?;
    match checked.engine {
        Some(engine) => Ok(engine),
        None => {
            err!("{}", diag::render(&checked.sources, &checked.diagnostics, false));
            // The command that shows them again, with the parameters given (without them, the
            // ruleset may well check).
            let params: String = common.params.iter().map(|p| format!(" --param {p}")).collect();
            Err(Failure::input(format!(
                "{} has errors; run `arbiter check {}{params}`",
                path.display(),
                common.ruleset
            )))
        }
    }
}

/// The engine protocols (UCI, UCCI, GTP) have no move for chance: a game with a roll is refused.
fn chance_refused(name: &str, e: &Engine) -> Result<(), String> {
    match &e.rules().roll {
        Some(r) => Err(format!(
            "{name} is a game of chance (`roll {}`): UCI, UCCI and GTP have no move for a roll, so no engine protocol plays it; use `arbiter simulate` or the sandbox",
            r.text
        )),
        None => Ok(()),
    }
}

fn start(engine: &Engine, fen: Option<&str>) -> Result<Position, Failure> {
    match fen {
        None => Ok(engine.start()),
        Some(f) => engine.from_fen(f).map_err(|e| Failure::input(format!("--fen \"{f}\": {e}"))),
    }
}

fn run(cmd: Command) -> Result<(), Failure> {
    match cmd {
        Command::Simulate(args) => simulate::run(args),
        Command::Tournament(args) => tournament::run(args),
        Command::Fmt { files, check } => format_files(&files, check),
        Command::Lsp => match arbiter::lsp::run(std::io::stdin().lock(), std::io::stdout()) {
            0 => Ok(()),
            code => Err(Failure::reported(code as u8)),
        },
        Command::Check { ruleset, params, json } => {
            let (checked, path) = load(&ruleset, &params)?;
            let d = &checked.diagnostics;
            if json {
                let items: Vec<_> = d
                    .sorted()
                    .iter()
                    .map(|x| {
                        let (line, col) = checked.sources.line_col(x.span.file, x.span.start);
                        json!({
                            "severity": x.severity.to_string(), "code": x.code, "message": x.message,
                            "file": checked.sources.name(x.span.file), "line": line, "column": col,
                            "label": x.label, "help": x.help,
                        })
                    })
                    .collect();
                outln!("{}", json!({"ok": !d.has_errors(), "diagnostics": items}));
            } else {
                say_raw(&diag::render(&checked.sources, d, false));
                let (e, w) = (d.error_count(), d.warning_count());
                if e == 0 {
                    outln!("{}: ok ({} warning{})", path.display(), w, if w == 1 { "" } else { "s" });
                } else {
                    outln!(
                        "{}: {e} error{}, {w} warning{}",
                        path.display(),
                        if e == 1 { "" } else { "s" },
                        if w == 1 { "" } else { "s" }
                    );
                }
            }
            if d.has_errors() {
                return Err(Failure::reported(1));
            }
            Ok(())
        }
        Command::Perft {
            common,
            depth,
            divide,
            stop_at_end,
            force,
            threads,
            roll,
        } => {
            if !(1..=256).contains(&threads) {
                return Err(Failure::input(format!("--threads {threads}: from 1 to 256")));
            }
            if depth > MAX_PERFT_DEPTH {
                return Err(Failure::input(format!(
                    "perft depth {depth} is past the limit of {MAX_PERFT_DEPTH}"
                )));
            }
            let e = engine(&common)?;
            let mut pos = start(&e, common.fen.as_deref())?;
            if let Some(r) = roll {
                pos = pos.with_roll_text(&r).map_err(|m| Failure::input(format!("--roll {r}: {m}")))?;
            }
            if !force {
                let estimate = pos.perft_estimate(depth, stop_at_end);
                if estimate > PERFT_BUDGET {
                    return Err(Failure::input(format!(
                        "perft {depth}: about {estimate:.1e} leaf nodes by the branching of the first plies, past the budget of {PERFT_BUDGET:.0e} (minutes at this engine's speed; this would take hours or more): give --force to count anyway, and Ctrl-C stops it with the count so far"
                    )));
                }
            }
            perft(&pos, depth, divide, stop_at_end, threads)
        }
        Command::Moves {
            common,
            json,
            san: use_san,
            written,
            roll,
            moves,
        } => {
            let e = engine(&common)?;
            let game = play_line(&e, common.fen.as_deref(), &moves, json)?;
            let rolled = match roll {
                Some(r) => Some(
                    game.current()
                        .with_roll_text(&r)
                        .map_err(|m| Failure::input(format!("--roll {r}: {m}")))?,
                ),
                None => None,
            };
            let pos = rolled.as_ref().unwrap_or(game.current());
            let list: Vec<String> = if game.outcome().status != arbiter::game::Status::Ongoing {
                Vec::new()
            } else {
                pos.legal_moves()
                    .into_iter()
                    .map(|m| {
                        if written {
                            arbiter::notation::written(pos, m)
                        } else if use_san {
                            san::to_san(pos, m)
                        } else {
                            uci::to_text(pos, m)
                        }
                    })
                    .collect()
            };
            if json {
                outln!("{}", json!({"moves": list}));
            } else {
                for m in list {
                    outln!("{m}");
                }
            }
            Ok(())
        }
        Command::Play {
            common,
            json,
            pgn: pgn_file,
            sgf: sgf_file,
            dead,
            clock,
            write,
            out,
            winnable,
            moves,
        } => {
            // A record is read before the ruleset is loaded: an SGF record sets the board size and komi.
            let record = match (&pgn_file, &sgf_file) {
                (Some(path), _) => Some(read_record(path, Format::from_path(path).unwrap_or(Format::Pgn))?),
                (None, Some(path)) => Some(read_record(path, Format::Sgf)?),
                (None, None) => None,
            };
            let mut common = common;
            // The parameters the record sets (SGF's SZ, KM, HA) that no `--param` overrides.
            let mut implied: Vec<(String, String)> = Vec::new();
            if let Some(rec) = &record {
                let given = |name: &str| {
                    common
                        .params
                        .iter()
                        .any(|p| p.split_once('=').is_some_and(|(k, _)| k.trim() == name))
                };
                implied = rec.params().into_iter().filter(|(k, _)| !given(k)).collect();
                common.params.extend(implied.iter().map(|(k, v)| format!("{k}={v}")));
            }
            let e = engine(&common).map_err(|f| match pgn_file.as_ref().or(sgf_file.as_ref()) {
                // A parameter the record set is named as the record's, not as a `--param` the user
                // never gave.
                Some(path) if !implied.is_empty() => {
                    let props: Vec<String> = implied.iter().map(|(k, v)| format!("{}[{v}] ({k})", record_property(k))).collect();
                    Failure::input(format!(
                        "{}: the record's {} does not fit {}: see above (the `--param` named there is the record's)",
                        path.display(),
                        props.join(", "),
                        common.ruleset
                    ))
                }
                _ => f,
            })?;
            if let (Some(rec), Some(path)) = (&record, &pgn_file) {
                variant_matches(rec, &common.ruleset, e.rules()).map_err(|m| Failure::input(format!("{}: {m}", path.display())))?;
            }
            let (fen, moves) = match (&record, pgn_file.as_ref().or(sgf_file.as_ref())) {
                (Some(rec), Some(path)) => {
                    let fen = match rec.start {
                        RecordStart::Setup => common.fen.clone(),
                        _ => Some(
                            rec.start_position(&e)
                                .map_err(|err| Failure::input(format!("{}: {err}", path.display())))?
                                .fen(),
                        ),
                    };
                    (fen, rec.moves.iter().cloned().chain(moves).collect())
                }
                _ => (common.fen.clone(), moves),
            };
            // A record's clock: its control unless `--clock` gives one, and its moves' times.
            if let Some(rec) = &record {
                for n in &rec.notes {
                    errln!("note: {n}");
                }
            }
            let control = match (&clock, record.as_ref().and_then(|r| r.control.clone())) {
                (Some(text), _) => Some(time_control(&e, text)?),
                (None, from_record) => from_record,
            };
            let stamps = record.as_ref().map(|r| r.stamps.clone()).unwrap_or_default();
            if control.is_none() && stamps.iter().any(Option::is_some) {
                errln!("note: the record's move times are not used: it states no time control (give --clock)");
            }
            let (mut game, clocks, after) = play_on_clock(&e, fen.as_deref(), &moves, &stamps, json, control.as_ref())?;
            // A PGN result the rules contradict (1-0 where the final position is black's mate):
            // the rules' ruling stands, and the record's is named.
            if let (Some(rec), Some(_)) = (&record, &pgn_file)
                && let Some(said) = rec.result.as_deref().filter(|r| ["1-0", "0-1", "1/2-1/2"].contains(r))
                && let Some(ruled) = game.outcome().result()
                && said != ruled
                // The result is about the record's own final position: no moves added after it.
                && rec.moves.len() == moves.len()
            {
                errln!(
                    "note: the record's result {said} contradicts its final position ({}: {ruled}); the rules' result is kept",
                    game.outcome().reason.as_deref().unwrap_or("ended by the rules")
                );
            }
            let board = &e.rules().board;
            let mut squares = Vec::new();
            for d in &dead {
                match board.parse_square(d.trim()) {
                    Some(sq) if game.current().piece_at(sq).is_some() => squares.push(sq),
                    Some(_) => return Err(Failure::input(format!("--dead {d}: there is no stone on {d}"))),
                    None => return Err(Failure::input(format!("--dead {d}: not a point of this board"))),
                }
            }
            game.set_dead(squares);
            if let Some(format) = &write {
                let branches = record.as_ref().map(|r| r.variations.clone()).unwrap_or_default();
                // The record's comments and glyphs go with its moves (moves added after them have none).
                let commentary = record.as_ref().map(|r| r.commentary.clone()).unwrap_or_default();
                let timing = clocks.as_ref().map(|c| arbiter::clock::Timing {
                    control: c.control.clone(),
                    after,
                });
                let mut tags = record.as_ref().map(|r| r.tags.clone()).unwrap_or_default();
                // Which rules the game was played under, and why it ended, for other programs.
                arbiter::notation::pgn::add_game_tags(&mut tags, &common.ruleset, game.outcome().reason);
                return write_record(&game, format, &tags, &commentary, &branches, timing.as_ref(), out.as_deref());
            }
            report(&game, clocks.as_ref(), json, winnable);
            Ok(())
        }
        Command::Scenario {
            command: ScenarioCommand::Run { paths, json },
        } => run_scenarios(&paths, json),
        Command::Engine {
            common,
            protocol,
            player,
            seed,
        } => {
            if let Some(f) = &common.fen {
                // The protocol sets the position (UCI's `position fen`, GTP's `loadsgf`): a start
                // given here would be ignored by the first `position` or `clear_board`.
                return Err(Failure::input(format!(
                    "--fen \"{f}\": an engine takes its positions from the protocol (UCI and UCCI `position fen ...`, GTP `loadsgf`); start it without --fen"
                )));
            }
            let e = engine(&common)?;
            chance_refused(&common.ruleset, &e).map_err(Failure::input)?;
            let player = arbiter::sim::PlayerSpec::parse(&player).map_err(|err| Failure::input(format!("--player {err}")))?;
            let protocol = engine_protocol::Protocol::parse(&protocol).expect("clap checks the protocol");
            // A protocol's reply is one line: the first error, with how many more there are.
            let loader = |name: &str, params: &[String]| -> Result<Engine, String> {
                let (checked, _) = load(name, params).map_err(|f| f.message)?;
                if let Some(e) = &checked.engine {
                    chance_refused(name, e)?;
                }
                checked.engine.ok_or_else(|| {
                    let errors: Vec<&diag::Diagnostic> = checked
                        .diagnostics
                        .items
                        .iter()
                        .filter(|d| d.severity == diag::Severity::Error)
                        .collect();
                    match errors.split_first() {
                        Some((d, [])) => format!("{name}: {} ({})", d.message, d.code),
                        Some((d, more)) => format!("{name}: {} ({}), and {} more errors", d.message, d.code, more.len()),
                        None => format!("{name} has errors"),
                    }
                })
            };
            let mut variants: Vec<String> = std::fs::read_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("../rulesets"))
                .map(|rd| {
                    rd.flatten()
                        .filter_map(|f| f.file_name().to_str().and_then(|n| n.strip_suffix(".rules")).map(str::to_string))
                        .collect()
                })
                .unwrap_or_default();
            variants.sort();
            // Offered are the games a protocol can play: not the games of chance.
            variants.retain(|v| {
                load(v, &[])
                    .ok()
                    .and_then(|(c, _)| c.engine)
                    .is_none_or(|e| chance_refused(v, &e).is_ok())
            });
            let name = Path::new(&common.ruleset)
                .file_stem()
                .and_then(|s| s.to_str())
                .unwrap_or(&common.ruleset)
                .to_string();
            let state = engine_protocol::State::new(protocol, &name, common.params.clone(), e, player, seed);
            let stdin = std::io::stdin();
            let mut stdout = std::io::stdout();
            engine_protocol::run(state, &loader, variants, std::io::BufReader::new(stdin), &mut stdout)
                .map_err(|err| Failure::input(format!("engine: {err}")))
        }
        Command::Compare {
            a,
            b,
            fen,
            params,
            depth,
            stop_at_end,
            plies,
            positions,
            scenarios,
            games,
            seed,
            players,
            max_plies,
            threads,
            json,
        } => compare::run(compare::Request {
            a,
            b,
            fen,
            params,
            depth,
            stop_at_end,
            plies,
            positions,
            scenarios,
            simulation: games.zip(seed).map(|(games, seed)| compare::Simulation {
                games,
                seed,
                players,
                max_plies,
                threads,
            }),
            json,
        }),
        Command::Explain {
            common,
            json,
            clock,
            moves,
        } => {
            let e = engine(&common)?;
            let (last, before) = moves.split_last().expect("clap requires one move");
            let control = match &clock {
                Some(text) => Some(time_control(&e, text)?),
                None => None,
            };
            let (game, clocks, _) = play_on_clock(&e, common.fen.as_deref(), before, &[], json, control.as_ref())?;
            let (last, spent) = arbiter::clock::split_timed(last).map_err(|err| Failure::input(format!("move `{last}`: {err}")))?;
            if spent.is_some() && clocks.is_none() {
                return Err(Failure::input(format!(
                    "move `{last}@…`: a move's time needs a clock (`--clock NAME`)"
                )));
            }
            let pos = game.current();
            let rules = pos.rules();
            let over = game.outcome();
            let ruling = if over.status != arbiter::game::Status::Ongoing {
                Ruling::Illegal(arbiter::game::Illegal {
                    code: "game-over",
                    message: format!(
                        "the game is over ({}): {}",
                        over.reason.clone().unwrap_or_default(),
                        over.message(pos)
                    ),
                    clause: over.clause.clone(),
                })
            } else {
                // A race game's move written in points is ruled on as its coordinates.
                let points = (rules.notation == arbiter::model::Notation::Points)
                    .then(|| arbiter::notation::points::to_coordinates(pos, last))
                    .flatten();
                pos.explain(points.as_deref().unwrap_or(last))
            };
            match ruling {
                Ruling::Legal { mv, clause, message } => {
                    let mut after = game.clone();
                    // On a clock the move's time is charged first: past what the player had, the
                    // flag falls and the move is not made.
                    let mut flag = None;
                    let mut clocks_after = clocks.clone();
                    if let Some(c) = clocks_after.as_mut() {
                        let side = pos.side_to_move().index();
                        let had = c.left_ms(side);
                        if after.charge(c, spent.unwrap_or(0)) {
                            flag = Some(format!(
                                "{} took {} s with {} s left{}: the flag falls before the move is made",
                                rules.players[side].name,
                                spent.unwrap_or(0) as f64 / 1000.0,
                                had as f64 / 1000.0,
                                if c.control.byoyomi.is_some() { " (and no period left)" } else { "" }
                            ));
                        }
                    }
                    if flag.is_none() {
                        after.play(mv);
                    }
                    let o = after.outcome();
                    let said = o.message(after.current());
                    if json {
                        let mut v = json!({"move": last, "legal": true, "clause": clause, "message": message,
                               "san": san::to_san(pos, mv), "status": o.status.as_str(), "reason": o.reason,
                               "end_clause": o.clause, "end_message": o.reason.as_ref().map(|_| said.clone())});
                        if let Some(c) = &clocks_after {
                            let names: Vec<String> = rules.players.iter().map(|p| p.name.clone()).collect();
                            let left = c.seconds_left();
                            v["clocks"] = json!({names[0].clone(): left[0], names[1].clone(): left[1]});
                            v["flag_fall"] = json!(flag);
                        }
                        outln!("{v}");
                    } else {
                        outln!("{last}: legal — {message}{}", clause.map(|c| format!(" ({c})")).unwrap_or_default());
                        if let Some(f) = &flag {
                            outln!("on the clock: {f}");
                            if o.reason.is_none() {
                                outln!("the ruleset has no end rule for a flag fall (`flag fallen`): the game goes on");
                            }
                        }
                        if let Some(r) = o.reason {
                            outln!(
                                "it ends the game: {r}{} — {said}",
                                o.clause.map(|c| format!(" ({c})")).unwrap_or_default()
                            );
                        }
                    }
                    let _ = rules;
                    Ok(())
                }
                Ruling::Illegal(i) => {
                    if json {
                        outln!(
                            "{}",
                            json!({"move": last, "legal": false, "reason": i.code, "clause": i.clause, "message": diag::shorten_quoted(&i.message)})
                        );
                    } else {
                        // A move that is not one (a file's contents given by mistake) is quoted cut short.
                        let line = format!("{last}: illegal ({}) — {}", i.code, with_clause(&i.message, &i.clause));
                        outln!("{}", diag::shorten_quoted(&line));
                    }
                    Ok(())
                }
            }
        }
    }
}

/// The exit code of a run stopped by Ctrl-C (128 + SIGINT, as shells report it).
const INTERRUPTED: u8 = 130;

/// Runs that long are shown with a progress bar (when stderr is a terminal).
const QUIET_FOR: Duration = Duration::from_secs(1);

/// Sets `stop` on Ctrl-C, so a long run can stop where it stands and say what it did; a second
/// Ctrl-C ends the process at once. Without this a Ctrl-C would lose every count made so far.
fn stop_on_ctrl_c(stop: Arc<AtomicBool>) {
    // Should installing fail, Ctrl-C still ends the run, as it does any program's.
    let _ = ctrlc::set_handler(move || {
        if stop.swap(true, Ordering::SeqCst) {
            std::process::exit(INTERRUPTED.into());
        }
    });
}

/// A progress bar on stderr that stays hidden until the run has taken [`QUIET_FOR`], and for good
/// when stderr is not a terminal. `message` is called for the bar's text while it shows.
struct Progress {
    bar: ProgressBar,
    began: Instant,
}

impl Progress {
    fn new(len: u64, what: &str) -> Progress {
        let bar = ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::hidden());
        let style = ProgressStyle::with_template(&format!("{{elapsed_precise}} [{{bar:20}}] {{pos}}/{{len}} {what}, {{msg}}"))
            .expect("the template is valid")
            .progress_chars("=> ");
        bar.set_style(style);
        Progress {
            bar,
            began: Instant::now(),
        }
    }

    /// Shows the bar once the run has taken long enough (called from a ticker).
    fn tick(&self, message: String) {
        if self.bar.is_hidden() && self.began.elapsed() >= QUIET_FOR && std::io::stderr().is_terminal() {
            self.bar.set_draw_target(ProgressDrawTarget::stderr());
        }
        self.bar.set_message(message);
    }

    /// Prints a line on stdout without tearing the bar, and flushes it so it is seen at once.
    fn println(&self, line: &str) {
        self.bar.suspend(|| say(line));
    }
}

/// The first failure to write standard output other than a closed pipe (a full disk, say):
/// `main` reports it and exits non-zero, whatever the command did.
static OUTPUT_FAILED: std::sync::OnceLock<String> = std::sync::OnceLock::new();

/// Prints a line on stdout and flushes it: every line a command prints goes through here (or
/// [`say_raw`]). A closed stdout (`| head`) ends the output quietly: the line is dropped. Any
/// other failure is kept for `main` to report.
fn say(line: &str) {
    say_raw(&format!("{line}\n"));
}

/// Prints text as it is (no newline added), as [`say`] does.
fn say_raw(text: &str) {
    let mut out = std::io::stdout().lock();
    if let Err(e) = out.write_all(text.as_bytes()).and_then(|()| out.flush())
        && e.kind() != std::io::ErrorKind::BrokenPipe
    {
        let _ = OUTPUT_FAILED.set(e.to_string());
    }
}

/// Runs `work` while a ticker updates `progress` every [`TICK`] with `message()`. The ticker is
/// told the moment the work ends and stops at once: a command never waits out a tick to exit.
fn with_ticker<T>(progress: &Progress, message: impl Fn() -> String + Sync, work: impl FnOnce() -> T) -> T {
    ticking_every(TICK, progress, message, work)
}

/// [`with_ticker`] with a tick of `every`.
fn ticking_every<T>(every: Duration, progress: &Progress, message: impl Fn() -> String + Sync, work: impl FnOnce() -> T) -> T {
    let (ended, ending) = std::sync::mpsc::channel::<()>();
    let message = &message;
    std::thread::scope(|s| {
        s.spawn(move || {
            loop {
                progress.tick(message());
                if ending.recv_timeout(every) != Err(std::sync::mpsc::RecvTimeoutError::Timeout) {
                    break;
                }
            }
        });
        let out = work();
        drop(ended);
        out
    })
}

/// How often [`with_ticker`] updates a progress line.
const TICK: Duration = Duration::from_millis(100);

/// `arbiter perft`: the count, or with `--divide` one line per first move as each is finished.
/// Ctrl-C prints the partial count and exits with [`INTERRUPTED`].
fn perft(pos: &Position, depth: u32, divide: bool, stop_at_end: bool, threads: usize) -> Result<(), Failure> {
    let watch = &PerftWatch::default();
    stop_on_ctrl_c(watch.stop.clone());
    let roots = match (depth, stop_at_end) {
        (0, _) => 0,
        // A position an end rule ends has no moves to count below.
        (_, true) => pos.perft_stop_at_end(1),
        (_, false) => pos.legal_moves().len() as u64,
    };
    let progress = Progress::new(roots, "first moves");
    let mut total = 0u64;
    let run = with_ticker(
        &progress,
        || {
            let nodes = watch.nodes.load(Ordering::Relaxed);
            let secs = progress.began.elapsed().as_secs_f64().max(1e-3);
            format!("{} nodes, {:.1}M/s", HumanCount(nodes), nodes as f64 / secs / 1e6)
        },
        || {
            pos.perft_divide_threads(depth, stop_at_end, watch, threads, |m, n| {
                total += n;
                progress.bar.inc(1);
                if divide {
                    progress.println(&format!("{}: {n}", uci::to_text(pos, m)));
                }
            })
        },
    );
    progress.bar.finish_and_clear();
    match run {
        Ok(()) => {
            if divide {
                say("");
            }
            say(&if depth == 0 { 1 } else { total }.to_string());
            Ok(())
        }
        Err(stopped) => {
            let nodes = watch.nodes.load(Ordering::Relaxed);
            say(&format!(
                "partial: {nodes} nodes counted before the interrupt, {} of {roots} first moves finished ({total} nodes below them)",
                stopped.finished
            ));
            Err(Failure {
                message: format!(
                    "interrupted: perft {depth} stopped after {} of {roots} first moves",
                    stopped.finished
                ),
                json: None,
                code: INTERRUPTED,
                reported: false,
            })
        }
    }
}

/// Where bundled rulesets are looked up for scenarios (as `locate` does for a RULESET argument).
fn ruleset_dirs() -> Vec<PathBuf> {
    bundled_dirs("ARBITER_RULESETS", "rulesets")
}

/// Where a bundled folder (`rulesets`, `scenarios`) is looked up, in order: the folder `env` names,
/// the working folder's, the workspace's, and beside the binary (up to four folders above it).
fn bundled_dirs(env: &str, folder: &str) -> Vec<PathBuf> {
    let mut dirs = Vec::new();
    if let Ok(d) = std::env::var(env) {
        dirs.push(PathBuf::from(d));
    }
    dirs.push(PathBuf::from(folder));
    dirs.push(Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(folder));
    if let Ok(exe) = std::env::current_exe() {
        for a in exe.ancestors().skip(1).take(4) {
            dirs.push(a.join(folder));
        }
    }
    dirs
}

/// `arbiter scenario run`: one line per scenario as it finishes (or one JSON object at the end),
/// exit 1 on any failure or error. Ctrl-C stops the scenario running, prints the summary of those
/// finished, and exits with [`INTERRUPTED`].
fn run_scenarios(paths: &[PathBuf], json: bool) -> Result<(), Failure> {
    let files = scenario::collect(paths).map_err(|e| Failure::input(e.to_string()))?;
    if files.is_empty() {
        return Err(Failure::input(format!(
            "no scenario files (*.ron) in {}",
            paths.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(", ")
        )));
    }
    let stop = Arc::new(AtomicBool::new(false));
    stop_on_ctrl_c(stop.clone());
    let mut runner = scenario::Runner::new(ruleset_dirs());
    runner.stop_when(stop.clone());
    let progress = Progress::new(files.len() as u64, "scenarios");
    let running = std::sync::Mutex::new(String::new());
    let reports: Vec<scenario::Report> = with_ticker(
        &progress,
        || running.lock().map(|r| r.clone()).unwrap_or_default(),
        || {
            let mut reports = Vec::new();
            for f in &files {
                if let Ok(mut r) = running.lock() {
                    *r = f.display().to_string();
                }
                let report = runner.run_file(f);
                if stop.load(Ordering::SeqCst) && is_interrupted(&report) {
                    break;
                }
                if !json {
                    progress.println(&report_line(&report));
                }
                reports.push(report);
                progress.bar.inc(1);
                if stop.load(Ordering::SeqCst) {
                    break;
                }
            }
            reports
        },
    );
    progress.bar.finish_and_clear();
    let interrupted = reports.len() < files.len();
    let passed = reports.iter().filter(|r| r.passed()).count();
    let errors = reports.iter().filter(|r| matches!(r.verdict, scenario::Verdict::Error(_))).count();
    let failed = reports.len() - passed - errors;
    if json {
        say(&json!({"passed": passed, "failed": failed, "errors": errors, "interrupted": interrupted, "scenarios": reports}).to_string());
    } else {
        say("");
        say(&format!("{passed} passed, {} failed", failed + errors));
    }
    if interrupted {
        return Err(Failure {
            message: format!("interrupted: {} of {} scenarios run", reports.len(), files.len()),
            json: None,
            code: INTERRUPTED,
            reported: false,
        });
    }
    if passed == reports.len() {
        Ok(())
    } else {
        let mut message = format!("{} of {} scenarios did not pass", reports.len() - passed, reports.len());
        for r in &reports {
            if let scenario::Verdict::Error(e) = &r.verdict {
                message.push_str(&format!("\n  {e}"));
            }
        }
        Err(Failure {
            message,
            json: None,
            code: 1,
            reported: json,
        })
    }
}

/// Did the runner stop this scenario part-way (Ctrl-C)?
fn is_interrupted(report: &scenario::Report) -> bool {
    matches!(&report.verdict, scenario::Verdict::Error(e) if e.message.ends_with(scenario::INTERRUPTED))
}

/// A scenario's line: `pass  PATH: TITLE (N steps, M expectations)`, `FAIL  …` or `ERROR …`.
fn report_line(r: &scenario::Report) -> String {
    let path = r.path.display();
    let title = r.title.as_deref().unwrap_or("");
    match &r.verdict {
        scenario::Verdict::Pass { steps, expectations } => format!(
            "pass  {path}: {title} ({steps} step{}, {expectations} expectation{})",
            if *steps == 1 { "" } else { "s" },
            if *expectations == 1 { "" } else { "s" }
        ),
        scenario::Verdict::Fail(f) => format!("FAIL  {path}: {title}: {f}"),
        // The error names the file (with line and column when RON knows them).
        scenario::Verdict::Error(e) => format!("ERROR {e}"),
    }
}

fn with_clause(message: &str, clause: &Option<String>) -> String {
    match clause {
        Some(c) => format!("{c}: {message}"),
        None => message.to_string(),
    }
}

/// Plays a line of moves written in coordinates, SAN or WXF; an illegal one is a failure with code 2.
/// A game record file read in `format`; errors name the file, line and column.
/// The SGF property a record's parameter comes from.
fn record_property(param: &str) -> &'static str {
    match param {
        "size" => "SZ",
        "komi" => "KM",
        "handicap" => "HA",
        _ => "property",
    }
}

/// Was a PGN record written for these rules? Its `Variant` tag, if it has one, must name the
/// ruleset (its file stem or its game's name, in any case, spaces and hyphens aside); PGN's own
/// words for the orthodox game (`Standard`, `From Position`) claim nothing. A record of another
/// game is refused rather than replayed by the wrong rules (and exported under a foreign tag).
fn variant_matches(rec: &GameRecord, ruleset: &str, rules: &arbiter::model::Rules) -> Result<(), String> {
    let norm = |s: &str| {
        s.chars()
            .filter(|c| c.is_alphanumeric())
            .flat_map(char::to_lowercase)
            .collect::<String>()
    };
    let Some((_, tag)) = rec.tags.iter().find(|(n, _)| n.eq_ignore_ascii_case("Variant")) else {
        return Ok(());
    };
    let claim = norm(tag);
    let stem = Path::new(ruleset).file_stem().and_then(|s| s.to_str()).unwrap_or(ruleset);
    if ["", "standard", "fromposition"].contains(&claim.as_str()) || claim == norm(stem) || claim == norm(&rules.name) {
        return Ok(());
    }
    let bundled = bundled_dirs("ARBITER_RULESETS", "rulesets")
        .iter()
        .filter_map(|d| std::fs::read_dir(d).ok())
        .flat_map(|rd| rd.flatten())
        .filter_map(|f| f.file_name().to_str().and_then(|n| n.strip_suffix(".rules")).map(str::to_string))
        .find(|n| norm(n) == claim);
    Err(match bundled {
        Some(other) => format!(
            "the record's Variant tag is \"{tag}\", the bundled ruleset `{other}`, not {stem}: replay it with `arbiter play {other} --pgn ...`"
        ),
        None => format!(
            "the record's Variant tag is \"{tag}\", which is not {stem} ({}): name the ruleset it was played under, or remove the tag if it was played under these rules",
            rules.name
        ),
    })
}

fn read_record(path: &Path, format: Format) -> Result<GameRecord, Failure> {
    let text = arbiter::input::read_text(path, arbiter::input::RECORD_LIMIT)
        .map_err(|err| Failure::input(format!("cannot read {}: {err}", path.display())))?;
    arbiter::notation::record::read(&text, format).map_err(|err| Failure::input(format!("{}: {err}", path.display())))
}

fn play_line(engine: &Engine, fen: Option<&str>, moves: &[String], json: bool) -> Result<Game, Failure> {
    play_on_clock(engine, fen, moves, &[], json, None).map(|(g, _, _)| g)
}

/// The tags an SGF record can carry: those named in SGF's identifiers (an SGF record's own game
/// information); PGN's (`Variant`, `Event`) have no SGF property and are not written.
fn sgf_tags(tags: &[(String, String)]) -> Vec<(String, String)> {
    tags.iter()
        .filter(|(n, _)| !n.is_empty() && n.chars().all(|c| c.is_ascii_uppercase()))
        .cloned()
        .collect()
}

/// `play --write`: the game as a record in `format`, on standard output or in a new file `out`.
fn write_record(
    game: &Game,
    format: &str,
    tags: &[(String, String)],
    commentary: &arbiter::notation::annotation::Commentary,
    branches: &[arbiter::notation::variation::Branch],
    timing: Option<&arbiter::clock::Timing>,
    out: Option<&Path>,
) -> Result<(), Failure> {
    let (text, notes) = match format {
        "fen" => (format!("{}\n", game.current().fen()), Vec::new()),
        "sgf" if !game.current().chain_game() => {
            return Err(Failure::input(
                "--write sgf: SGF records games that place stones and capture chains; use pgn".to_string(),
            ));
        }
        "sgf" => arbiter::notation::sgf::write_timed(game, &sgf_tags(tags), commentary, branches, timing),
        // WXF's movetext is xiangqi's notation: a game written otherwise would be a WXF file no
        // other program reads.
        "wxf" if game.current().rules().notation != arbiter::model::Notation::Wxf => {
            return Err(Failure::input(
                "--write wxf: WXF records games whose ruleset writes its moves in WXF notation (`notation wxf`, as xiangqi's does); use pgn"
                    .to_string(),
            ));
        }
        "wxf" => arbiter::notation::record::write_wxf(game, tags, commentary, branches, timing),
        _ => arbiter::notation::pgn::write_timed(game, tags, commentary, branches, timing),
    };
    for n in notes {
        errln!("note: {n}");
    }
    match out {
        None => {
            say_raw(&text);
            Ok(())
        }
        Some(path) => write_output(new_output_file(path, "--out")?, path, "--out", &text),
    }
}

/// `arbiter fmt`: each file formatted in place (written to a temporary file beside it, then renamed
/// over it, so an interrupted run leaves the old text or the new, never half of one), or with
/// `check` only reported. Every file is tried; the exit is non-zero if any could not be formatted
/// (or, with `check`, is not formatted).
fn format_files(files: &[PathBuf], check: bool) -> Result<(), Failure> {
    let mut failed = 0usize;
    let mut unformatted = 0usize;
    for path in files {
        let shown = path.display();
        let text = match arbiter::input::read_text(path, arbiter::input::RULES_LIMIT) {
            Ok(t) => t,
            Err(e) => {
                errln!("error: cannot read {shown}: {e}");
                failed += 1;
                continue;
            }
        };
        let formatted = match arbiter::syntax::format::format(&text) {
            Ok(f) => keep_layout(&text, f),
            Err(arbiter::syntax::format::FormatError::Syntax(diags)) => {
                let mut sources = diag::Sources::default();
                sources.add(shown.to_string(), text.clone());
                err!("{}", diag::render(&sources, &diags, false));
                errln!("error: {shown} was not formatted: it does not parse");
                failed += 1;
                continue;
            }
            Err(e) => {
                errln!("error: {shown}: {e}");
                failed += 1;
                continue;
            }
        };
        if formatted == text {
            continue;
        }
        if check {
            let line = text
                .lines()
                .zip(formatted.lines())
                .position(|(a, b)| a != b)
                .unwrap_or_else(|| text.lines().count().min(formatted.lines().count()));
            outln!("{shown}: not formatted (from line {})", line + 1);
            unformatted += 1;
            continue;
        }
        if let Err(e) = replace_file(path, &formatted) {
            errln!("error: cannot write {shown}: {e}");
            failed += 1;
            continue;
        }
        outln!("formatted {shown}");
    }
    if failed + unformatted == 0 {
        return Ok(());
    }
    let message = match (failed, unformatted) {
        (0, n) => format!(
            "{n} file{} not formatted (run `arbiter fmt` on {})",
            if n == 1 { "" } else { "s" },
            if n == 1 { "it" } else { "them" }
        ),
        (n, _) => format!("{n} file{} could not be formatted", if n == 1 { "" } else { "s" }),
    };
    Err(Failure {
        message,
        json: None,
        code: 1,
        reported: false,
    })
}

/// `formatted` (LF line endings, no byte-order mark) with the line endings and byte-order mark of
/// `original`: a file written with CRLF stays CRLF, one that began with a BOM keeps it.
fn keep_layout(original: &str, formatted: String) -> String {
    let crlf = original.matches("\r\n").count();
    let lines = original.matches('\n').count();
    let mut out = if crlf > 0 && 2 * crlf >= lines {
        formatted.replace('\n', "\r\n")
    } else {
        formatted
    };
    if original.starts_with('\u{feff}') && !out.starts_with('\u{feff}') {
        out.insert(0, '\u{feff}');
    }
    out
}

/// Writes `text` over `path` through a temporary file in the same folder and a rename, keeping the
/// file's permissions. Through a symbolic link, the file it names is written (the link stays a
/// link); a read-only file is refused, not replaced.
fn replace_file(path: &Path, text: &str) -> std::io::Result<()> {
    use std::io::Write;
    let path = &std::fs::canonicalize(path)?;
    if std::fs::metadata(path)?.permissions().readonly() {
        return Err(std::io::Error::new(
            std::io::ErrorKind::PermissionDenied,
            "the file is read-only; it was left as it was",
        ));
    }
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let name = path.file_name().map(|n| n.to_string_lossy().to_string()).unwrap_or_default();
    let temp = dir.join(format!(".{name}.arbiter-fmt-{}", std::process::id()));
    let result = (|| {
        let mut f = std::fs::OpenOptions::new().write(true).create_new(true).open(&temp)?;
        f.write_all(text.as_bytes())?;
        f.sync_all()?;
        if let Ok(meta) = std::fs::metadata(path) {
            std::fs::set_permissions(&temp, meta.permissions())?;
        }
        std::fs::rename(&temp, path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&temp);
    }
    result
}

/// Opens a file a command writes its output to (`--out`, `--games-out`): a new file only
/// ([`arbiter::input::create_new`]).
fn new_output_file(path: &Path, flag: &str) -> Result<std::fs::File, Failure> {
    arbiter::input::create_new(path).map_err(|why| Failure::input(format!("{flag} {}: {why}", path.display())))
}

/// Writes `text` into `file`, just made at `path` by [`new_output_file`], to the disk; the part
/// written is removed where it cannot be ([`arbiter::input::write_new`]).
fn write_output(file: std::fs::File, path: &Path, flag: &str, text: &str) -> Result<(), Failure> {
    arbiter::input::write_new(file, path, text).map_err(|why| Failure::input(format!("{flag} {}: {why}", path.display())))
}

/// The time control `--clock` names: one of the ruleset's, or a PGN `TimeControl` value.
fn time_control(engine: &Engine, text: &str) -> Result<arbiter::clock::TimeControl, Failure> {
    arbiter::clock::find_control(&engine.rules().clocks, text).map_err(|e| Failure::input(format!("--clock {e}")))
}

/// [`play_line`] on a clock: each move's time (`@seconds`, none counts as 0) is charged to its
/// player before the move is made; a move that takes more than the player has is not made, and the
/// flag falls (the game's end rules with `flag fallen` rule on it).
///
/// `stamps[i]`, a record's time for move `i` (left after it, or spent), counts where the move
/// carries no `@seconds`. Also returns each move's clock after it: the mover's time left and, in
/// byo-yomi, the periods left.
#[allow(clippy::type_complexity)]
fn play_on_clock(
    engine: &Engine,
    fen: Option<&str>,
    moves: &[String],
    stamps: &[Option<arbiter::clock::Stamp>],
    json: bool,
    control: Option<&arbiter::clock::TimeControl>,
) -> Result<(Game, Option<arbiter::clock::Clocks>, Vec<(u64, Option<u32>)>), Failure> {
    let mut after = Vec::new();
    let start = start(engine, fen)?;
    let mut game = Game::new(engine.clone(), start);
    let mut clocks = control.map(arbiter::clock::Clocks::new);
    for (i, text) in moves.iter().enumerate() {
        let (text, spent) = arbiter::clock::split_timed(text).map_err(|e| Failure::input(format!("move {} `{text}`: {e}", i + 1)))?;
        if spent.is_some() && clocks.is_none() {
            return Err(Failure::input(format!(
                "move {} `{text}@…`: a move's time needs a clock (`--clock NAME`)",
                i + 1
            )));
        }
        let pos = game.current().clone();
        let outcome = game.outcome();
        let found: Result<Move, arbiter::game::Illegal> = if outcome.status != arbiter::game::Status::Ongoing {
            Err(arbiter::game::Illegal {
                code: "game-over",
                message: format!("the game is already over ({})", outcome.reason.clone().unwrap_or_default()),
                clause: outcome.clause.clone(),
            })
        } else if let Some(m) = uci::find(&pos, text) {
            Ok(m)
        } else if let Some(m) = san::find(&pos, text) {
            Ok(m)
        } else if let Some(m) = arbiter::notation::wxf::find(&pos, text) {
            Ok(m)
        } else if let Some(m) = (pos.rules().notation == arbiter::model::Notation::Points)
            .then(|| arbiter::notation::points::find(&pos, text))
            .flatten()
        {
            Ok(m)
        } else {
            match pos.explain(text) {
                Ruling::Illegal(i) => Err(i),
                Ruling::Legal { mv, .. } => Ok(mv),
            }
        };
        match found {
            // On a clock, a legal move's time is charged first: past the player's time it is not made.
            Ok(_)
                if clocks.as_mut().is_some_and(|c| {
                    let side = game.current().side_to_move().index();
                    let from_record = stamps.get(i).copied().flatten().map(|st| c.spent_for(side, st));
                    game.charge(c, spent.or(from_record).unwrap_or(0))
                }) =>
            {
                if game.outcome().status == arbiter::game::Status::Ongoing {
                    return Err(Failure::input(format!(
                        "move {} `{text}`: the flag fell, and the ruleset has no end rule for it (`flag fallen`)",
                        i + 1
                    )));
                }
            }
            Ok(m) => {
                if let Some(c) = &clocks {
                    let side = game.current().side_to_move().index();
                    let periods = c.sides[side].in_byoyomi.then_some(c.sides[side].periods_left);
                    after.push((c.left_ms(side), periods));
                }
                game.play(m);
            }
            Err(ill) => {
                let ply = i + 1;
                let _ = json;
                return Err(Failure {
                    message: format!("move {ply} `{text}` is illegal: {}", with_clause(&ill.message, &ill.clause)),
                    json: Some(json!({"error": "illegal-move", "ply": ply, "move": text, "reason": ill.code, "clause": ill.clause})),
                    code: 2,
                    reported: false,
                });
            }
        }
    }
    Ok((game, clocks, after))
}

/// Each player's answer to "can it still win?" in `pos`: (name, `can` / `cannot` / `unknown`, the
/// winning line in the ruleset's notation or the proof, positions searched).
fn winnability(pos: &arbiter::game::Position) -> Vec<(String, &'static str, String, u64)> {
    use arbiter::game::{Bounds, Proof, Winnability};
    let rules = pos.rules();
    [arbiter::model::Side::FIRST, arbiter::model::Side::SECOND]
        .into_iter()
        .map(|s| {
            let a = pos.winnability(s, Bounds::FULL);
            let (answer, how) = match a.verdict {
                Winnability::CanWin(line) => ("can", arbiter::notation::written_line(pos, &line).join(" ")),
                Winnability::CannotWin(Proof::NoWinningRule) => ("cannot", "no end rule can give it the game".to_string()),
                Winnability::CannotWin(Proof::Blocked) => (
                    "cannot",
                    "past pieces that can never move, none of its pieces can attack a square the other royal can reach".to_string(),
                ),
                Winnability::CannotWin(Proof::Exhausted(n)) => ("cannot", format!("none of the {n} positions reachable is a win")),
                Winnability::Unknown => ("unknown", "undecided within the search's bounds".to_string()),
            };
            (rules.players[s.index()].name.clone(), answer, how, a.nodes)
        })
        .collect()
}

fn report(game: &Game, clocks: Option<&arbiter::clock::Clocks>, json: bool, winnable: bool) {
    let pos = game.current();
    let rules = pos.rules();
    let o = game.outcome();
    let side = |s: arbiter::model::Side| rules.players[s.index()].name.clone();
    let names = [rules.players[0].name.clone(), rules.players[1].name.clone()];
    let can_win = if winnable { winnability(pos) } else { Vec::new() };
    if json {
        let mut v = json!({
            "position": pos.fen(),
            "to_move": side(pos.side_to_move()),
            "ply": game.ply(),
            "status": o.status.as_str(),
            "winner": o.winner.map(side),
            "reason": o.reason,
            "clause": o.clause,
            "claimable": o.claimable.iter().map(|c| c.0.clone()).collect::<Vec<_>>(),
            "claim_moves": o.claim_moves.iter().map(|(reason, moves)| {
                (reason.clone(), json!(moves.iter().map(|m| uci::to_text(pos, *m)).collect::<Vec<_>>()))
            }).collect::<serde_json::Map<String, serde_json::Value>>(),
            "result": o.result_text(rules),
            "score": o.score.map(|s| json!({
                rules.players[0].name.clone(): s.points[0],
                rules.players[1].name.clone(): s.points[1],
            })),
            "check": pos.in_check(),
            "message": o.message(pos),
        });
        if let Some(phase) = pos.phase_name() {
            v["phase"] = json!(phase);
        }
        if !rules.counts.is_empty() {
            v["counts"] = rules
                .counts
                .iter()
                .enumerate()
                .map(|(i, c)| {
                    let per_side: serde_json::Map<String, serde_json::Value> = (0..2)
                        .map(|s| (names[s].clone(), json!(pos.tally(arbiter::model::Side(s as u8), i))))
                        .collect();
                    (c.name.clone(), serde_json::Value::Object(per_side))
                })
                .collect::<serde_json::Map<String, serde_json::Value>>()
                .into();
        }
        if let Some(c) = clocks {
            let left = c.seconds_left();
            v["clock"] = json!(c.control.name);
            v["clocks"] = json!({names[0].clone(): left[0], names[1].clone(): left[1]});
            if c.control.byoyomi.is_some() {
                v["periods"] = json!({names[0].clone(): c.sides[0].periods_left, names[1].clone(): c.sides[1].periods_left});
            }
        }
        if winnable {
            v["winnable"] = can_win
                .iter()
                .map(|(name, answer, how, nodes)| {
                    let detail = if *answer == "can" { "line" } else { "why" };
                    (name.clone(), json!({"answer": answer, detail: how, "nodes": nodes}))
                })
                .collect::<serde_json::Map<String, serde_json::Value>>()
                .into();
        }
        outln!("{v}");
        return;
    }
    outln!("position: {}", pos.fen());
    outln!(
        "to move:  {}{}",
        side(pos.side_to_move()),
        if pos.in_check() { " (in check)" } else { "" }
    );
    outln!("ply:      {}", game.ply());
    if let Some(phase) = pos.phase_name() {
        outln!("phase:    {phase}");
    }
    for (i, c) in rules.counts.iter().enumerate() {
        outln!(
            "{:<9} {} {}, {} {}",
            format!("{}:", c.name),
            names[0],
            pos.tally(arbiter::model::Side::FIRST, i),
            names[1],
            pos.tally(arbiter::model::Side::SECOND, i)
        );
    }
    if let Some(c) = clocks {
        let left = c.seconds_left();
        let shown = |i: usize| {
            let s = left[i].round() as u64;
            let periods = match c.control.byoyomi {
                Some(_) => {
                    let n = c.sides[i].periods_left;
                    let periods = format!("{n} period{}", if n == 1 { "" } else { "s" });
                    if c.sides[i].in_byoyomi {
                        format!(" (byo-yomi, {periods} left)")
                    } else {
                        format!(" + {periods}")
                    }
                }
                None => String::new(),
            };
            format!("{} {}:{:02}:{:02}{periods}", names[i], s / 3600, s / 60 % 60, s % 60)
        };
        outln!("clocks:   {}, {} ({})", shown(0), shown(1), c.control.name);
    }
    if let Some(s) = o.score {
        outln!(
            "score:    {} {}, {} {} (komi {} to {})",
            rules.players[0].name,
            s.points[0],
            rules.players[1].name,
            s.points[1],
            s.komi,
            rules.players[1].name
        );
    }
    match o.status_text(rules) {
        None => outln!("status:   ongoing"),
        Some(r) => outln!(
            "status:   {r} ({}{})",
            o.reason.clone().unwrap_or_default(),
            o.clause.clone().map(|c| format!(", {c}")).unwrap_or_default()
        ),
    }
    if o.reason.is_some() {
        outln!("why:      {}", o.message(pos));
    }
    for (reason, clause) in &o.claimable {
        outln!(
            "claimable: {reason}{}{}",
            clause.clone().map(|c| format!(" ({c})")).unwrap_or_default(),
            o.claim_why(pos, reason).map(|m| format!(" — {m}")).unwrap_or_default()
        );
    }
    for (name, answer, how, nodes) in &can_win {
        let said = match *answer {
            "can" if how.is_empty() => "has won".to_string(),
            "can" => format!("can still win: {how}"),
            "cannot" => format!("cannot win: {how}"),
            _ => format!("undecided ({how})"),
        };
        outln!("winnable: {name} {said} ({nodes} positions searched)");
    }
}

#[allow(dead_code)]
fn check_text(name: &str, text: &str) -> Checked {
    check_source(name, text, None, &[])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_ticker_stops_the_moment_the_work_ends() {
        // A tick of an hour: a ticker that slept out its tick after the work would hold the command
        // for an hour. The watchdog's minute is only there to turn that into a failure.
        let (done, finished) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let progress = Progress::new(1, "units");
            let out = ticking_every(Duration::from_secs(3600), &progress, || "working".to_string(), || 42);
            let _ = done.send(out);
        });
        assert_eq!(
            finished.recv_timeout(Duration::from_secs(60)),
            Ok(42),
            "the ticker held the command"
        );
    }
}
