//! `arbiter simulate`: self-play statistics for a ruleset, and `arbiter simulate merge` for the
//! reports of a run split into shards. The games and their statistics are the library's
//! ([`arbiter::sim`]); this file reads the arguments, shows progress and renders the report.

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

use arbiter::game::{Engine, Game};
use arbiter::model::Side;
use arbiter::notation::{pgn, sgf};
use arbiter::sim::report::{self, Merged, RunInfo, Timing};
use arbiter::sim::{self, Config, MAX_GAMES, MAX_PLIES, PHASES, PlayerSpec, Shard, Tally};
use clap::{Args, Subcommand};
use serde_json::Value;

use super::{Common, Failure, INTERRUPTED, Progress, engine, parse_params, say, start, stop_on_ctrl_c, with_ticker};

#[derive(Args)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub struct SimulateArgs {
    #[command(subcommand)]
    pub command: Option<SimulateCommand>,
    /// A bundled ruleset name (`chess`) or a path to a `.rules` file.
    #[arg(required = true)]
    pub ruleset: Option<String>,
    /// Start every game from this position instead of the ruleset's setup.
    #[arg(long)]
    pub fen: Option<String>,
    /// Override a ruleset parameter: `--param NAME=VALUE` (repeatable).
    #[arg(long = "param", value_name = "NAME=VALUE")]
    pub params: Vec<String>,
    /// Games in the whole run (all shards together).
    #[arg(long, required = true)]
    pub games: Option<u64>,
    /// The run's seed: the same seed plays the same games.
    #[arg(long, required = true)]
    pub seed: Option<u64>,
    /// Each side's player, comma-separated in the ruleset's order: `random`, `mcts:N` (N
    /// iterations a move), `mcts:Nms`. One name plays every side.
    #[arg(long, default_value = "random")]
    pub players: String,
    /// Cut a game after this many plies (counted apart, as unfinished).
    #[arg(long, default_value_t = sim::DEFAULT_MAX_PLIES)]
    pub max_plies: usize,
    /// Threads to play on (default: every core). The results do not depend on it.
    #[arg(long)]
    pub threads: Option<usize>,
    /// Play only the K-th of N disjoint ranges of the run's games (K from 0); merge the shards'
    /// `--json` reports with `arbiter simulate merge`.
    #[arg(long, value_name = "K/N")]
    pub shard: Option<String>,
    /// In games whose random players draw moves without listing them (go), count each ply's
    /// legal moves for the branching figures in one game in N (games 0, N, 2N, …; counting
    /// costs more than playing); 1 counts every game. Other games count every game.
    #[arg(long, value_name = "N", default_value_t = sim::BRANCHING_EVERY)]
    pub branching_every: u64,
    /// Print one JSON object (statistics, the run's description, the raw tally, and timing).
    #[arg(long)]
    pub json: bool,
    /// Write every game to FILE: SGF for games that capture chains (go), PGN otherwise.
    #[arg(long, value_name = "FILE")]
    pub games_out: Option<PathBuf>,
}

#[derive(Subcommand)]
pub enum SimulateCommand {
    /// Merge the `--json` reports of a run's shards into the statistics of the whole run.
    Merge {
        #[arg(required = true)]
        files: Vec<PathBuf>,
        #[arg(long)]
        json: bool,
    },
}

pub fn run(args: SimulateArgs) -> Result<(), Failure> {
    if let Some(SimulateCommand::Merge { files, json }) = args.command {
        return merge(&files, json);
    }
    let ruleset = args.ruleset.clone().ok_or_else(|| Failure::input("simulate needs a RULESET"))?;
    let games = args.games.ok_or_else(|| Failure::input("simulate needs --games N"))?;
    let seed = args.seed.ok_or_else(|| Failure::input("simulate needs --seed S"))?;
    if games == 0 || games > MAX_GAMES {
        return Err(Failure::input(format!("--games {games}: give from 1 to {MAX_GAMES} games")));
    }
    if args.max_plies == 0 || args.max_plies > MAX_PLIES {
        return Err(Failure::input(format!(
            "--max-plies {}: give from 1 to {MAX_PLIES}",
            args.max_plies
        )));
    }
    if args.branching_every == 0 || args.branching_every > MAX_GAMES {
        return Err(Failure::input(format!(
            "--branching-every {}: give from 1 (every game) to {MAX_GAMES}",
            args.branching_every
        )));
    }
    let threads = match args.threads {
        Some(0) => return Err(Failure::input("--threads 0: at least one thread")),
        Some(t) if t > 256 => return Err(Failure::input(format!("--threads {t}: at most 256"))),
        Some(t) => t,
        None => std::thread::available_parallelism().map_or(1, |n| n.get()),
    };
    let shard = match &args.shard {
        Some(s) => Shard::parse(s).map_err(|e| Failure::input(format!("--shard {e}")))?,
        None => Shard::WHOLE,
    };
    let common = Common {
        ruleset,
        fen: args.fen.clone(),
        params: args.params.clone(),
    };
    let e = engine(&common)?;
    let players = PlayerSpec::parse_sides(&args.players, e.rules().players.len()).map_err(|e| Failure::input(format!("--players {e}")))?;
    let pos = start(&e, common.fen.as_deref())?;
    let rules = e.rules().clone();
    let info = RunInfo {
        game: rules.name.clone(),
        params: parse_params(&args.params)?,
        start: pos.fen(),
        sides: rules.players.iter().map(|p| p.name.clone()).collect(),
        teams: rules.teams.clone(),
        first: pos.side_to_move().index(),
        players: players.iter().map(|p| p.to_string()).collect(),
        seed,
        games,
        max_plies: args.max_plies,
        branching_every: args.branching_every,
    };
    let cfg = Config {
        games,
        seed,
        players,
        max_plies: args.max_plies,
        threads,
        shard,
        keep_moves: args.games_out.is_some(),
        branching_every: args.branching_every,
    };
    // Open the output file before hours of play, not after: a new file, as `play --out` takes.
    let games_file = match &args.games_out {
        Some(path) => Some((crate::new_output_file(path, "--games-out")?, path)),
        None => None,
    };
    let stop = Arc::new(AtomicBool::new(false));
    stop_on_ctrl_c(stop.clone());
    let range = shard.range(games);
    let progress = Progress::new(range.end - range.start, "games");
    let done = AtomicU64::new(0);
    let began = Instant::now();
    let (out, seconds) = with_ticker(
        &progress,
        || {
            let n = done.load(Ordering::Relaxed);
            format!("{:.1} games/s", n as f64 / began.elapsed().as_secs_f64().max(1e-3))
        },
        || {
            let out = sim::run(&pos, &cfg, &stop, &|n| {
                done.store(n, Ordering::Relaxed);
                progress.bar.set_position(n);
            });
            // The games' time, not the progress line's.
            (out, began.elapsed().as_secs_f64())
        },
    );
    progress.bar.finish_and_clear();
    let timing = Timing { seconds, threads };
    let shard_out = (shard != Shard::WHOLE).then_some(shard);
    if args.json {
        say(&report::to_json(&info, shard_out, &out.tally, out.partial, Some(timing)).to_string());
    } else {
        render(&info, shard_out, &out.tally, out.partial, Some(timing));
    }
    // The statistics first: games that cannot be written (a full disk) cost their records, never
    // the report of hours of play. The failure is said on stderr and in the exit code (stdout
    // holds the report alone, one JSON object with --json).
    let written = match games_file {
        Some((file, path)) => write_games(&e, &pos, &info, &out.games, &common.ruleset, file, path),
        None => Ok(()),
    };
    if let Err(f) = &written {
        errln!("error: {}; the report above is whole", f.message);
    }
    if out.partial {
        // The report above is the answer, marked partial; stdout gets nothing more (a JSON reader
        // sees one object), stderr says why it stopped.
        errln!(
            "interrupted: {} of {} games played; the statistics are of those",
            out.tally.games,
            range.end - range.start
        );
        return Err(Failure::reported(INTERRUPTED));
    }
    if written.is_err() {
        return Err(Failure::reported(1));
    }
    if !cfg.players.iter().all(PlayerSpec::reproducible) {
        errln!(
            "note: a player with a time budget plays differently on another machine or load; use an iteration budget (mcts:N) to repeat a run"
        );
    }
    Ok(())
}

/// Writes the games as records, one after another in one file.
fn write_games(
    e: &Engine,
    start: &arbiter::game::Position,
    info: &RunInfo,
    games: &[(u64, sim::GameSummary, Vec<arbiter::game::Move>)],
    ruleset: &str,
    file: std::fs::File,
    path: &PathBuf,
) -> Result<(), Failure> {
    let mut text = String::new();
    for (index, summary, moves) in games {
        let mut g = Game::new(e.clone(), start.clone());
        for m in moves {
            g.play(*m);
        }
        if start.chain_game() {
            text.push_str(&sgf::write(&g));
        } else {
            let side = |s: usize| format!("{} ({})", info.players[s], info.sides[s]);
            let mut tags = vec![
                ("Event".to_string(), format!("arbiter simulate, seed {}", info.seed)),
                ("Site".to_string(), "Arbiter".to_string()),
                ("Round".to_string(), (index + 1).to_string()),
                ("White".to_string(), side(0)),
                ("Black".to_string(), side(1)),
            ];
            let termination = if summary.end.is_none() {
                format!("cut at {} plies", info.max_plies)
            } else {
                summary.reason.clone()
            };
            pgn::add_game_tags(&mut tags, ruleset, Some(termination));
            text.push_str(&pgn::write(&g, &tags));
        }
        text.push('\n');
    }
    crate::write_output(file, path, "--games-out", &text)
}

fn merge(files: &[PathBuf], json: bool) -> Result<(), Failure> {
    let mut reports = Vec::new();
    for f in files {
        let text = arbiter::input::read_text(f, arbiter::input::RECORD_LIMIT)
            .map_err(|err| Failure::input(format!("cannot read {}: {err}", f.display())))?;
        let v: Value = serde_json::from_str(&text).map_err(|err| Failure::input(format!("{}: not JSON: {err}", f.display())))?;
        reports.push((f.display().to_string(), v));
    }
    let Merged {
        info,
        tally,
        missing,
        partial,
        count,
    } = report::merge(&reports).map_err(Failure::input)?;
    if json {
        say(&report::to_json(&info, None, &tally, partial, None).to_string());
    } else {
        render(&info, None, &tally, partial, None);
    }
    if !missing.is_empty() {
        errln!(
            "warning: shards {} of {} are missing: the statistics are of the shards given",
            missing.iter().map(u64::to_string).collect::<Vec<_>>().join(", "),
            count.unwrap_or(1)
        );
    }
    Ok(())
}

fn pct(x: f64) -> String {
    format!("{:5.1}%", 100.0 * x)
}

/// The report for people.
fn render(info: &RunInfo, shard: Option<Shard>, t: &Tally, partial: bool, timing: Option<Timing>) {
    let first = Side(info.first as u8);
    let of = match shard {
        Some(s) => format!(" (shard {}/{} of a {}-game run)", s.index, s.count, info.games),
        None => String::new(),
    };
    // Every side and its player: `white random vs black mcts:300`, or for more, all of them.
    let seats: Vec<String> = info.sides.iter().zip(&info.players).map(|(s, p)| format!("{s} {p}")).collect();
    say(&format!(
        "{}: {} games{of}, seed {}, {}, games cut at {} plies{}",
        info.game,
        t.games,
        info.seed,
        seats.join(" vs "),
        info.max_plies,
        if partial {
            " — PARTIAL: stopped before every game was played"
        } else {
            ""
        }
    ));
    if let Some(tm) = timing {
        say(&format!(
            "played in {:.1} s on {} thread{} ({:.1} games/s)",
            tm.seconds,
            tm.threads,
            if tm.threads == 1 { "" } else { "s" },
            t.games as f64 / tm.seconds.max(1e-9)
        ));
    }
    say("");
    say("results                 games   share   95% interval");
    let line = |label: &str, k: u64| {
        let i = sim::Interval::wilson(k as f64, t.games);
        say(&format!(
            "  {label:<20} {k:>6}  {}  [{}, {}]",
            pct(i.mean),
            pct(i.low).trim(),
            pct(i.high).trim()
        ));
    };
    if info.teams.len() == info.sides.len() {
        // Partners win together: a row per team.
        let mut teams: Vec<u8> = info.teams.clone();
        teams.dedup();
        teams.sort();
        teams.dedup();
        for team in teams {
            let members: Vec<usize> = (0..info.sides.len()).filter(|&s| info.teams[s] == team).collect();
            let names: Vec<&str> = members.iter().map(|&s| info.sides[s].as_str()).collect();
            line(&format!("{} win", names.join(" and ")), members.iter().map(|&s| t.won(s)).sum());
        }
    } else {
        for (s, side) in info.sides.iter().enumerate() {
            line(&format!("{side} wins"), t.won(s));
        }
    }
    line("draws", t.draws);
    if t.no_result > 0 {
        line("no result", t.no_result);
    }
    line("unfinished (cut)", t.unfinished);
    if let Some(means) = t.mean_places() {
        let each: Vec<String> = info.sides.iter().zip(&means).map(|(side, m)| format!("{side} {m:.2}")).collect();
        say(&format!(
            "  mean place           {} (over the {} games that gave every place)",
            each.join(", "),
            t.placed
        ));
    }
    let sc = t.score(first, info.sides.len(), &info.teams);
    // Among teams, the first player's team: its partners' wins are its own.
    let first_name = match info.teams.get(first.index()) {
        Some(&team) => format!(
            "'s team ({})",
            (0..info.sides.len())
                .filter(|&s| info.teams.get(s) == Some(&team))
                .map(|s| info.sides[s].as_str())
                .collect::<Vec<_>>()
                .join(" and ")
        ),
        None => format!(" ({})", info.sides[first.index()]),
    };
    say(&format!(
        "first player{first_name} scores {:.3}  [{:.3}, {:.3}] over {} finished games (win 1, draw {})",
        sc.mean,
        sc.low,
        sc.high,
        t.finished(),
        if info.sides.len() == 2 || !info.teams.is_empty() {
            "½".to_string()
        } else {
            format!("1/{}", info.sides.len())
        }
    ));
    say("");
    let mut reasons: Vec<(&String, &u64)> = t.reasons.iter().collect();
    reasons.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
    say(&format!(
        "reasons: {}",
        reasons.iter().map(|(r, n)| format!("{r} {n}")).collect::<Vec<_>>().join(", ")
    ));
    say(&format!(
        "length (plies): mean {:.1}, median {}, 10th percentile {}, 90th percentile {}",
        t.mean_length(),
        t.length_quantile(0.5),
        t.length_quantile(0.1),
        t.length_quantile(0.9)
    ));
    let hist = t.histogram(12);
    let most = hist.iter().map(|b| b.2).max().unwrap_or(1).max(1);
    for (from, to, n) in hist {
        let bar = "#".repeat(((n * 40).div_ceil(most)) as usize);
        say(&format!("  {from:>6}–{to:<6} {n:>6} {bar}"));
    }
    let (per, all) = t.branching();
    let over = if t.branching_games == t.games {
        String::new()
    } else {
        format!(" (counted in {} of the games)", t.branching_games)
    };
    say(&format!(
        "legal moves per ply{over}: mean {all:.1}; {}",
        PHASES
            .iter()
            .zip(per)
            .map(|(p, b)| format!("{p} {b:.1}"))
            .collect::<Vec<_>>()
            .join(", ")
    ));
    say(&format!(
        "captures per game: {:.1}",
        if t.games == 0 { 0.0 } else { t.captures as f64 / t.games as f64 }
    ));
}
