//! `arbiter compare A B`: loads both rulesets (rendering the diagnostics of a bad one), refuses
//! two boards that differ, runs `arbiter::compare` and renders what it found for a rule designer —
//! perft table, first difference, scenarios — or as one JSON object.

use std::path::{Path, PathBuf};

use arbiter::check::check_file;
use arbiter::compare::{self, Bounds, FirstLine, Pair, PerftComparison, PerftDepth, ScenarioComparison, Search};
use arbiter::diag;
use arbiter::game::{Engine, Game};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use arbiter::compare::SimRow;
use arbiter::game::Position;
use arbiter::scenario;
use arbiter::sim::{self, Config, PlayerSpec, Shard, Tally};
use serde_json::json;

use crate::{Failure, INTERRUPTED, bundled_dirs, locate, parse_params, ruleset_dirs, say, start, stop_on_ctrl_c};

/// Perft depths past this would run for hours on two rulesets; refuse rather than hang.
const MAX_DEPTH: u32 = 8;
/// Without `--depth`: count up to this depth...
const DEFAULT_DEPTH: u32 = 5;
/// ...unless the next depth would count about this many leaves (chess stops after depth 5, go on
/// 19 × 19 after depth 2).
const PERFT_BUDGET: u64 = 20_000_000;
/// Bounds on the search for a differing line past which it would hold too much memory.
const MAX_PLIES: u32 = 200;
const MAX_POSITIONS: usize = 5_000_000;
/// Without `--positions`: this many positions, or [`MOVES_BUDGET`] divided by the number of moves
/// at the start where that is fewer (go on 19 × 19: 22 099).
const DEFAULT_POSITIONS: usize = 200_000;
const MOVES_BUDGET: usize = 8_000_000;

/// What `arbiter compare` was asked.
pub struct Request {
    pub a: String,
    pub b: String,
    pub fen: Option<String>,
    pub params: Vec<String>,
    pub depth: Option<u32>,
    pub stop_at_end: bool,
    pub plies: u32,
    pub positions: Option<usize>,
    pub scenarios: Option<PathBuf>,
    pub simulation: Option<Simulation>,
    pub json: bool,
}

/// `--games N --seed S [--players P1,P2,...] [--max-plies M] [--threads T]`.
pub struct Simulation {
    pub games: u64,
    pub seed: u64,
    pub players: String,
    pub max_plies: usize,
    pub threads: Option<usize>,
}

/// Both simulations and their statistics side by side.
struct SimReport {
    /// One per side, in turn order.
    players: Vec<String>,
    games: u64,
    seed: u64,
    tallies: Pair<Tally>,
    rows: Vec<SimRow>,
}

/// Reads the simulation's options, refusing bad ones before anything runs (the players, one per
/// side, are read once the rulesets say how many sides there are: [`sim_players`]).
fn sim_config(s: &Simulation) -> Result<Config, Failure> {
    if s.games == 0 || s.games > sim::MAX_GAMES {
        return Err(Failure::input(format!(
            "--games {}: give from 1 to {} games",
            s.games,
            sim::MAX_GAMES
        )));
    }
    if s.max_plies == 0 || s.max_plies > sim::MAX_PLIES {
        return Err(Failure::input(format!(
            "--max-plies {}: give from 1 to {}",
            s.max_plies,
            sim::MAX_PLIES
        )));
    }
    let threads = match s.threads {
        Some(0) => return Err(Failure::input("--threads 0: at least one thread")),
        Some(t) if t > 256 => return Err(Failure::input(format!("--threads {t}: at most 256"))),
        Some(t) => t,
        None => std::thread::available_parallelism().map_or(1, |n| n.get()),
    };
    // Read here for two sides too, so that a player that is no player is refused before anything
    // is loaded; read again for the sides the rulesets have.
    PlayerSpec::parse_sides(&s.players, s.players.split(',').count().max(2)).map_err(|e| Failure::input(format!("--players {e}")))?;
    Ok(Config {
        games: s.games,
        seed: s.seed,
        players: Vec::new(),
        max_plies: s.max_plies,
        threads,
        shard: Shard::WHOLE,
        keep_moves: false,
        branching_every: sim::BRANCHING_EVERY,
    })
}

/// Plays the same games (seed, players, count) from each start. Ctrl-C stops both: exit 130.
fn simulate(cfg: &Config, sa: &Position, sb: &Position, sides: &[String]) -> Result<SimReport, Failure> {
    let stop = Arc::new(AtomicBool::new(false));
    stop_on_ctrl_c(stop.clone());
    let a = sim::run(sa, cfg, &stop, &|_| {});
    let b = sim::run(sb, cfg, &stop, &|_| {});
    if a.partial || b.partial {
        return Err(Failure {
            message: format!(
                "interrupted: the simulation stopped after {} games on A and {} on B",
                a.tally.games, b.tally.games
            ),
            json: None,
            code: INTERRUPTED,
            reported: false,
        });
    }
    let first = Pair {
        a: sa.side_to_move(),
        b: sb.side_to_move(),
    };
    // Each ruleset's first player is scored with its own team, where the ruleset has teams.
    let teams = Pair {
        a: &sa.rules().teams[..],
        b: &sb.rules().teams[..],
    };
    let rows = compare::compare_simulations(&a.tally, &b.tally, first, sides, teams);
    Ok(SimReport {
        players: cfg.players.iter().map(|p| p.to_string()).collect(),
        games: cfg.games,
        seed: cfg.seed,
        tallies: Pair { a: a.tally, b: b.tally },
        rows,
    })
}

/// A ruleset loaded for comparison.
struct Side {
    path: PathBuf,
    engine: Engine,
    /// The files read: the ruleset, then each file it extends.
    files: Vec<String>,
}

/// Checks a ruleset; on errors renders its diagnostics (as every subcommand that runs a ruleset
/// does) and returns the message to fail with.
fn load(ruleset: &str, params: &[(String, String)], which: &str) -> Result<Side, Failure> {
    let path = locate(ruleset)?;
    let checked = check_file(&path, params);
    let files = checked.sources.names().map(str::to_string).collect();
    match checked.engine {
        Some(engine) => Ok(Side { path, engine, files }),
        None => {
            err!("{}", diag::render(&checked.sources, &checked.diagnostics, false));
            Err(Failure::input(format!(
                "{which}: {} has errors; run `arbiter check {ruleset}`",
                path.display()
            )))
        }
    }
}

/// Where bundled scenario folders are looked up.
fn scenario_dirs() -> Vec<PathBuf> {
    bundled_dirs("ARBITER_SCENARIOS", "scenarios")
}

/// The bundled scenario folder of A's game: named after A's file, or after the first file it
/// extends that has one (a variant of chess finds `scenarios/chess/`).
fn game_folder(a: &Side) -> Option<PathBuf> {
    let dirs = scenario_dirs();
    a.files.iter().find_map(|f| {
        let stem = Path::new(f).file_stem()?.to_string_lossy().into_owned();
        dirs.iter().map(|d| d.join(&stem)).find(|d| d.is_dir())
    })
}

pub fn run(req: Request) -> Result<(), Failure> {
    let depth = match req.depth {
        Some(d) if d > MAX_DEPTH => {
            return Err(Failure::input(format!("--depth {d} is past the limit of {MAX_DEPTH}")));
        }
        Some(d) => PerftDepth::Exactly(d),
        None => PerftDepth::UpTo {
            depth: DEFAULT_DEPTH,
            nodes: PERFT_BUDGET,
        },
    };
    if req.plies > MAX_PLIES {
        return Err(Failure::input(format!("--plies {} is past the limit of {MAX_PLIES}", req.plies)));
    }
    if let Some(n) = req.positions
        && n > MAX_POSITIONS
    {
        return Err(Failure::input(format!("--positions {n} is past the limit of {MAX_POSITIONS}")));
    }
    if let Some(dir) = &req.scenarios
        && !dir.exists()
    {
        return Err(Failure::input(format!("--scenarios {}: no such file or folder", dir.display())));
    }
    let sim_cfg = req.simulation.as_ref().map(sim_config).transpose()?;
    let params = parse_params(&req.params)?;
    // Both are checked before either failure is reported, so one run shows every problem.
    let (a, b) = (load(&req.a, &params, "A"), load(&req.b, &params, "B"));
    let (a, b) = match (a, b) {
        (Ok(a), Ok(b)) => (a, b),
        (Err(fa), Err(fb)) => return Err(Failure::input(format!("{}\n{}", fa.message, fb.message))),
        (Err(f), _) | (_, Err(f)) => return Err(f),
    };
    let (ra, rb) = (a.engine.rules(), b.engine.rules());
    compare::same_board(ra, rb)
        .map_err(|e| Failure::input(format!("cannot compare {} and {}: {e}", a.path.display(), b.path.display())))?;
    let fen = req.fen.as_deref();
    let at = |side: &Side, which: &str| {
        start(&side.engine, fen).map_err(|f| Failure::input(format!("{which} ({}): {}", side.path.display(), f.message)))
    };
    let (sa, sb) = (at(&a, "A")?, at(&b, "B")?);

    let perft = compare::compare_perft(&sa, &sb, depth, req.stop_at_end);
    let bounds = Bounds {
        plies: req.plies,
        // The search costs about a move generation per move at each position: keep the default
        // to a few seconds on a large board.
        positions: req
            .positions
            .unwrap_or_else(|| DEFAULT_POSITIONS.min(MOVES_BUDGET / sa.legal_moves().len().max(1))),
    };
    let search = compare::first_line(
        Game::new(a.engine.clone(), sa.clone()),
        Game::new(b.engine.clone(), sb.clone()),
        bounds,
    );
    let folder = req.scenarios.clone().or_else(|| game_folder(&a));
    let scenarios = match &folder {
        Some(dir) => {
            let files = scenario::collect(std::slice::from_ref(dir)).map_err(|e| Failure::input(e.to_string()))?;
            Some(compare::compare_scenarios(&files, &a.path, &b.path, &params, ruleset_dirs()))
        }
        None => None,
    };
    let sides: Vec<String> = ra.players.iter().map(|p| p.name.clone()).collect();
    let simulation = match (sim_cfg, &req.simulation) {
        (Some(mut cfg), Some(s)) => {
            if ra.players.len() != rb.players.len() {
                return Err(Failure::input(format!(
                    "cannot simulate {} and {} side by side: A has {} players, B {}",
                    a.path.display(),
                    b.path.display(),
                    ra.players.len(),
                    rb.players.len()
                )));
            }
            cfg.players = PlayerSpec::parse_sides(&s.players, sides.len()).map_err(|e| Failure::input(format!("--players {e}")))?;
            Some(simulate(&cfg, &sa, &sb, &sides)?)
        }
        _ => None,
    };
    let starts = Pair { a: sa.fen(), b: sb.fen() };
    let names = Pair {
        a: ra.name.clone(),
        b: rb.name.clone(),
    };
    let report = Report {
        paths: Pair {
            a: a.path.display().to_string(),
            b: b.path.display().to_string(),
        },
        names,
        starts,
        perft,
        search,
        folder,
        scenarios,
        simulation,
    };
    if req.json {
        say(&report.json().to_string());
    } else {
        for line in report.human() {
            say(&line);
        }
    }
    // The comparison is reported whole (with `--json`, one object that lists them); a scenario
    // that could not run is still an error.
    match report.scenarios.as_ref().map_or(0, |c| c.broken.len()) {
        0 => Ok(()),
        n => {
            errln!(
                "error: {n} scenario{} could run on neither ruleset (listed in the report)",
                if n == 1 { "" } else { "s" }
            );
            Err(Failure::reported(1))
        }
    }
}

/// Everything found, ready to render.
struct Report {
    paths: Pair<String>,
    names: Pair<String>,
    starts: Pair<String>,
    perft: PerftComparison,
    search: Search,
    folder: Option<PathBuf>,
    scenarios: Option<ScenarioComparison>,
    simulation: Option<SimReport>,
}

impl Report {
    fn json(&self) -> serde_json::Value {
        let s = &self.search;
        json!({
            "a": {"ruleset": self.paths.a, "name": self.names.a},
            "b": {"ruleset": self.paths.b, "name": self.names.b},
            "start": {"a": self.starts.a, "b": self.starts.b, "same": self.starts.a == self.starts.b},
            "perft": self.perft.rows,
            "perft_first_difference": if self.starts.a != self.starts.b { Some(0) } else { self.perft.first_difference },
            "perft_skipped": self.perft.skipped.map(|(depth, estimate)| json!({"depth": depth, "estimate": estimate})),
            "root_moves": self.perft.root_moves,
            "first_line": s.line,
            "search": {
                "positions": s.positions, "complete_to": s.complete_to, "exhausted": s.exhausted,
                "max_plies": s.bounds.plies, "max_positions": s.bounds.positions,
            },
            "scenarios": self.scenarios.as_ref().map(|c| json!({
                "folder": self.folder.as_ref().map(|f| f.display().to_string()),
                "run": c.changed.len() + c.unchanged.len() + c.broken.len(),
                "changed": c.changed,
                "unchanged": c.unchanged,
                "could_not_run": c.broken,
            })),
            "simulation": self.simulation.as_ref().map(|r| json!({
                "games": r.games, "seed": r.seed, "players": r.players,
                "test": "two-proportion z-test (pooled) on each outcome's share of games; z-test on the difference of means for the first player's score and the length; significant when |z| > 1.96",
                "rows": r.rows,
                "tally": {"a": r.tallies.a, "b": r.tallies.b},
            })),
        })
    }

    fn human(&self) -> Vec<String> {
        let mut out = vec![
            format!("A: {} ({})", self.paths.a, self.names.a),
            format!("B: {} ({})", self.paths.b, self.names.b),
            String::new(),
        ];
        self.perft_section(&mut out);
        out.push(String::new());
        self.line_section(&mut out);
        out.push(String::new());
        self.scenario_section(&mut out);
        out.push(String::new());
        self.simulation_section(&mut out);
        out
    }

    fn simulation_section(&self, out: &mut Vec<String>) {
        let Some(r) = &self.simulation else {
            out.push("Simulation: not asked (--games N --seed S).".to_string());
            return;
        };
        let players = match r.players.as_slice() {
            [a, b] => format!("{a} (first side) and {b}"),
            all => format!("{} (in turn order)", all.join(", ")),
        };
        out.push(format!("Simulation: {} games on each, seed {}, players {players}", r.games, r.seed));
        out.push(format!("  {:<24} {:>9} {:>9} {:>9} {:>7}", "", "A", "B", "B - A", "z"));
        for row in &r.rows {
            let z = row.z.map_or("-".to_string(), |z| format!("{z:.2}"));
            out.push(format!(
                "  {:<24} {:>9.3} {:>9.3} {:>+9.3} {:>7}{}",
                row.what,
                row.a,
                row.b,
                row.difference,
                z,
                if row.significant { "  significant" } else { "" }
            ));
        }
        let draw = match r.players.len() {
            2 => "½".to_string(),
            n => format!("1/{n}"),
        };
        out.push(format!(
            "  Shares are of all games; the score (win 1, draw {draw}) of finished ones. Significant: |z| > 1.96 (95%, two-sided),"
        ));
        out.push(
            "  by a pooled two-proportion z-test for shares and a z-test on the difference of means for score and length; each row alone."
                .to_string(),
        );
    }

    fn perft_section(&self, out: &mut Vec<String>) {
        let p = &self.perft;
        if self.starts.a == self.starts.b {
            out.push(format!("Perft from the same start: {}", self.starts.a));
        } else {
            out.push("Perft: the start positions differ (the first difference, at depth 0):".to_string());
            out.push(format!("  A: {}", self.starts.a));
            out.push(format!("  B: {}", self.starts.b));
        }
        let width = p.rows.iter().map(|r| r.a.max(r.b).to_string().len()).max().unwrap_or(1).max(5);
        out.push(format!("  depth  {:>width$}  {:>width$}  B - A", "A", "B"));
        for r in &p.rows {
            let diff = r.b as i128 - r.a as i128;
            let mark = if p.first_difference == Some(r.depth) {
                "   <- first difference"
            } else {
                ""
            };
            let d = if diff == 0 { String::new() } else { format!("{diff:+}") };
            out.push(format!("  {:>5}  {:>width$}  {:>width$}  {d}{mark}", r.depth, r.a, r.b));
        }
        if let Some((depth, estimate)) = p.skipped {
            out.push(format!(
                "  (depth {depth} not counted: about {estimate} leaves; ask for it with --depth {depth})"
            ));
        }
        match (&p.first_difference, &p.root_moves) {
            (Some(d), Some(rm)) => {
                out.push(format!("First moves whose subtrees differ at depth {d}:"));
                for c in &rm.differ {
                    out.push(format!(
                        "  {:<8} A {:>10}  B {:>10}  {:+}",
                        c.mv,
                        c.a,
                        c.b,
                        c.b as i128 - c.a as i128
                    ));
                }
                if !rm.only_a.is_empty() {
                    out.push(format!("  only in A: {}", counts(&rm.only_a)));
                }
                if !rm.only_b.is_empty() {
                    out.push(format!("  only in B: {}", counts(&rm.only_b)));
                }
            }
            _ => out.push(format!(
                "No difference in perft up to depth {}.",
                p.rows.last().map_or(0, |r| r.depth)
            )),
        }
    }

    fn line_section(&self, out: &mut Vec<String>) {
        let s = &self.search;
        let Some(l) = &s.line else {
            if self.starts.a != self.starts.b {
                out.push("(The start positions differ, as said above; the moves from them are compared below.)".to_string());
            }
            if s.exhausted {
                out.push(format!(
                    "First difference: none. Every line was followed to its end or to a position already seen ({} positions, at most {} plies): the legal moves and the way the game ends are the same everywhere.",
                    s.positions, s.complete_to
                ));
            } else {
                out.push(format!(
                    "First difference: none within {} pl{} / {} positions (every line that long was examined; the search stops at --plies {} and --positions {}).",
                    s.complete_to,
                    if s.complete_to == 1 { "y" } else { "ies" },
                    s.positions,
                    s.bounds.plies,
                    s.bounds.positions
                ));
            }
            return;
        };
        line_text(l, out);
        out.push(format!(
            "  (a shortest line: no line of fewer plies differs; {} positions examined)",
            s.positions
        ));
    }

    fn scenario_section(&self, out: &mut Vec<String>) {
        let (Some(c), Some(folder)) = (&self.scenarios, &self.folder) else {
            out.push("Scenarios: none run (no bundled folder for A's game; give --scenarios DIR).".to_string());
            return;
        };
        let n = c.changed.len() + c.unchanged.len() + c.broken.len();
        if n == 0 {
            out.push(format!("Scenarios: none in {} (no *.ron file).", folder.display()));
            return;
        }
        out.push(format!(
            "Scenarios of {} run on A and on B: {} of {n} change",
            folder.display(),
            c.changed.len()
        ));
        for ch in &c.changed {
            out.push(format!("  {}: {}", ch.path.display(), ch.title.as_deref().unwrap_or("")));
            out.push(format!("    A: {} — {}", ch.a.status, ch.a.detail));
            out.push(format!("    B: {} — {}", ch.b.status, ch.b.detail));
        }
        if !c.unchanged.is_empty() {
            out.push(format!("  {} unchanged", c.unchanged.len()));
        }
        if !c.broken.is_empty() {
            out.push(format!("  {} could run on neither ruleset:", c.broken.len()));
            for b in &c.broken {
                out.push(format!("    {}", b.error));
            }
        }
    }
}

fn counts(list: &[compare::RootCount]) -> String {
    list.iter()
        .map(|c| format!("{} ({})", c.mv, c.nodes))
        .collect::<Vec<_>>()
        .join(", ")
}

/// At most this many moves are listed in a line of text (JSON lists them all).
const SHOWN: usize = 12;

fn listed(moves: &[String]) -> String {
    if moves.is_empty() {
        return "none".to_string();
    }
    let mut s = moves.iter().take(SHOWN).cloned().collect::<Vec<_>>().join(" ");
    if moves.len() > SHOWN {
        s.push_str(&format!(" … ({} in all)", moves.len()));
    }
    s
}

fn line_text(l: &FirstLine, out: &mut Vec<String>) {
    let plies = l.moves.len();
    if plies == 0 {
        out.push("First difference: at the start.".to_string());
    } else {
        out.push(format!(
            "First difference: after {plies} pl{} — {}",
            if plies == 1 { "y" } else { "ies" },
            l.moves.join(" ")
        ));
    }
    if l.fen.a == l.fen.b {
        out.push(format!("  position: {}", l.fen.a));
    } else {
        out.push(format!("  position in A: {}", l.fen.a));
        out.push(format!("  position in B: {}", l.fen.b));
    }
    if let Some(e) = &l.ends {
        let words = |s: &compare::Standing| match (&s.reason, s.status) {
            (_, "ongoing") if s.claimable.is_empty() => "the game goes on".to_string(),
            (_, "ongoing") => format!("the game goes on; a draw may be claimed ({})", s.claimable.join(", ")),
            (reason, status) => format!(
                "the game ends: {status}{}{}{} — {}",
                s.winner.as_ref().map(|w| format!(" for {w}")).unwrap_or_default(),
                reason.as_ref().map(|r| format!(" by {r}")).unwrap_or_default(),
                s.clause.as_ref().map(|c| format!(" ({c})")).unwrap_or_default(),
                s.message
            ),
        };
        out.push(format!("  A: {}", words(&e.a)));
        out.push(format!("  B: {}", words(&e.b)));
    }
    out.push(format!("  lost (legal in A, not in B): {}", listed(&l.lost)));
    out.push(format!("  gained (legal in B, not in A): {}", listed(&l.gained)));
    // When the game ends in one, every move has the same reason there: say it once (above).
    if l.ends.is_some() {
        return;
    }
    for c in &l.rulings {
        let said = |j: &compare::Judgement| {
            let clause = j.clause.as_ref().map(|c| format!("{c}: ")).unwrap_or_default();
            match j.code {
                None => format!("allows it — {clause}{}", j.message),
                Some(code) => format!("refuses it ({code}) — {clause}{}", j.message),
            }
        };
        out.push(format!("  {} ({}):", c.mv, c.change));
        out.push(format!("    A {}", said(&c.a)));
        out.push(format!("    B {}", said(&c.b)));
    }
}
