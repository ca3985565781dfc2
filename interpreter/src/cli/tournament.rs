//! `arbiter tournament`: a knockout between entrants played by the players given. The bracket — the
//! card draw, the matches, extra games and lots — is the library's ([`arbiter::sim::knockout`]);
//! this file reads the arguments, plays each game the bracket asks for with
//! [`sim::play_game`], shows progress and renders the bracket.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use arbiter::game::{Position, Status};
use arbiter::sim::knockout::{self, Bracket, Decision, Entrant, Fixture, GameResult, KnockoutRules, MAX_ENTRANTS, PlayedGame};
use arbiter::sim::{self, End, MAX_PLIES, PlayerSpec};
use clap::Args;
use serde_json::{Value, json};

use super::{Common, Failure, INTERRUPTED, Progress, engine, say, start, stop_on_ctrl_c, with_ticker};

#[derive(Args)]
pub struct TournamentArgs {
    /// A bundled ruleset name (`xiangqi`) or a path to a `.rules` file.
    pub ruleset: String,
    /// Start every game from this position instead of the ruleset's setup.
    #[arg(long)]
    pub fen: Option<String>,
    /// Override a ruleset parameter: `--param NAME=VALUE` (repeatable).
    #[arg(long = "param", value_name = "NAME=VALUE")]
    pub params: Vec<String>,
    /// How many entrants (2 to 1024), named E1, E2, …
    #[arg(long)]
    pub entrants: u32,
    /// The entrants' players, in turn: entrant i plays the ((i-1) mod count)-th, so
    /// `mcts:200,random` gives E1 mcts:200, E2 random, E3 mcts:200, …
    #[arg(long)]
    pub players: String,
    /// The tournament's seed: the same seed draws the same cards and plays the same games.
    #[arg(long)]
    pub seed: u64,
    /// Cut a game after this many plies; a cut game is a draw.
    #[arg(long, default_value_t = sim::DEFAULT_MAX_PLIES)]
    pub max_plies: usize,
    /// Games in a match (won on points: a win 1, a draw ½).
    #[arg(long, default_value_t = KnockoutRules::default().games_per_match)]
    pub games_per_match: u32,
    /// Extra games for a match level after its games, the first decisive one winning; then a lot.
    #[arg(long, default_value_t = KnockoutRules::default().extra_games)]
    pub extra_games: u32,
    /// Print one JSON object: the entrants, every round's draw, matches, games and byes, and the
    /// champion.
    #[arg(long)]
    pub json: bool,
}

/// What the bracket's games need from the command line to be shown: the ruleset's side names,
/// which side moves first, and each entrant's player.
struct Setting {
    game: String,
    sides: [String; 2],
    /// The index of the side that moves first at the start (the red-card holder's in game 1).
    first: usize,
    players: Vec<PlayerSpec>,
    max_plies: usize,
    start: String,
}

impl Setting {
    fn player(&self, e: Entrant) -> PlayerSpec {
        self.players[(e.0 as usize - 1) % self.players.len()]
    }

    /// Who plays each side of a game (by the ruleset's order of sides).
    fn seats(&self, f: &Fixture) -> [Entrant; 2] {
        let mut seats = [f.second; 2];
        seats[self.first] = f.first;
        seats
    }

    fn label(&self, e: Entrant) -> String {
        format!("{e} ({})", self.player(e))
    }
}

pub fn run(args: TournamentArgs) -> Result<(), Failure> {
    if !(2..=MAX_ENTRANTS).contains(&args.entrants) {
        return Err(Failure::input(format!(
            "--entrants {}: a knockout needs from 2 to {MAX_ENTRANTS} entrants",
            args.entrants
        )));
    }
    let rules = KnockoutRules::new(args.games_per_match, args.extra_games).map_err(Failure::input)?;
    if args.max_plies == 0 || args.max_plies > MAX_PLIES {
        return Err(Failure::input(format!(
            "--max-plies {}: give from 1 to {MAX_PLIES}",
            args.max_plies
        )));
    }
    let players = args
        .players
        .split(',')
        .enumerate()
        .map(|(i, p)| PlayerSpec::parse(p).map_err(|e| Failure::input(format!("--players `{}`, player {}: {e}", args.players, i + 1))))
        .collect::<Result<Vec<_>, _>>()?;
    let common = Common {
        ruleset: args.ruleset.clone(),
        fen: args.fen.clone(),
        params: args.params.clone(),
    };
    let e = engine(&common)?;
    let pos = start(&e, common.fen.as_deref())?;
    let r = e.rules();
    // A knockout's match is two entrants at one board; a game of more players would leave seats
    // empty (or need tables of several entrants, which the knockout does not draw).
    if r.players.len() != 2 {
        return Err(Failure::input(format!(
            "{} is a game of {} players, and a knockout pairs two entrants a match: play it with `arbiter simulate {} --players P1,P2,...`",
            r.name,
            r.players.len(),
            args.ruleset
        )));
    }
    let setting = Setting {
        game: r.name.clone(),
        sides: [r.players[0].name.clone(), r.players[1].name.clone()],
        first: pos.side_to_move().index(),
        players,
        max_plies: args.max_plies,
        start: pos.fen(),
    };

    let stop = Arc::new(AtomicBool::new(false));
    stop_on_ctrl_c(stop.clone());
    // The bar counts games against the most the tournament can still take, which shrinks to the
    // number played as matches end early.
    let most = u64::from(rules.most_games());
    let matches = u64::from(args.entrants - 1);
    let progress = Progress::new(matches * most, "games");
    let (started, played) = (AtomicU64::new(0), AtomicU64::new(0));
    let at = std::sync::Mutex::new(String::new());
    let bracket = with_ticker(
        &progress,
        || at.lock().map(|a| a.clone()).unwrap_or_default(),
        || {
            knockout::run(args.entrants, rules, args.seed, |f| {
                if f.game == 1 {
                    started.fetch_add(1, Ordering::Relaxed);
                }
                if let Ok(mut a) = at.lock() {
                    *a = format!(
                        "round {}, match {}, game {}: {} vs {}",
                        f.round, f.match_number, f.game, f.first, f.second
                    );
                }
                let result = play(&setting, &pos, f, &stop)?;
                let done = played.fetch_add(1, Ordering::Relaxed) + 1;
                let left = (matches - started.load(Ordering::Relaxed)) * most + (most - u64::from(f.game));
                progress.bar.set_length(done + left);
                progress.bar.set_position(done);
                Some(result)
            })
        },
    );
    progress.bar.finish_and_clear();
    let bracket = bracket.map_err(Failure::input)?;
    if args.json {
        say(&to_json(&setting, &bracket).to_string());
    } else {
        render(&setting, &bracket);
    }
    if bracket.partial {
        // The bracket above is the answer, marked partial; stdout gets nothing more (a JSON reader
        // sees one object), stderr says why it stopped.
        errln!(
            "interrupted: {} games played; the bracket above stops at the match under way",
            played.load(Ordering::Relaxed)
        );
        return Err(Failure {
            message: String::new(),
            json: None,
            code: INTERRUPTED,
            reported: true,
        });
    }
    if !setting.players.iter().all(PlayerSpec::reproducible) {
        errln!(
            "note: a player with a time budget plays differently on another machine or load; use an iteration budget (mcts:N) to repeat a tournament"
        );
    }
    Ok(())
}

/// Plays one game of the bracket; `None` if stopped.
fn play(s: &Setting, start: &Position, f: &Fixture, stop: &AtomicBool) -> Option<GameResult> {
    let seats = s.seats(f);
    let mut players = [0, 1].map(|side| s.player(seats[side]).build(sim::player_seed(f.seed, 0, side)));
    let (summary, _) = sim::play_game(start, &mut players, s.max_plies, false, false, sim::chance_seed(f.seed, 0), stop)?;
    let decision = match summary.end {
        Some(End {
            status: Status::Win,
            winner: Some(w),
            ..
        }) if seats[w.index()] == f.first => Decision::First,
        Some(End {
            status: Status::Win,
            winner: Some(_),
            ..
        }) => Decision::Second,
        _ => Decision::Draw,
    };
    let reason = if summary.end.is_none() {
        "max-plies".to_string()
    } else {
        summary.reason
    };
    Some(GameResult {
        decision,
        reason,
        plies: summary.plies,
    })
}

/// `1-0`, `0-1` or `1/2-1/2`, by the ruleset's order of sides.
fn result_text(s: &Setting, g: &PlayedGame) -> &'static str {
    match g.winner() {
        None => "1/2-1/2",
        Some(w) if s.seats(&g.fixture)[0] == w => "1-0",
        Some(_) => "0-1",
    }
}

/// Half points as points: `2½`, `½`, `3`.
fn points(half: u32) -> String {
    match (half / 2, half % 2) {
        (0, 1) => "½".to_string(),
        (p, 1) => format!("{p}½"),
        (p, _) => p.to_string(),
    }
}

fn to_json(s: &Setting, b: &Bracket) -> Value {
    let name = |e: Entrant| e.to_string();
    let rounds: Vec<Value> = b
        .rounds
        .iter()
        .map(|r| {
            let matches: Vec<Value> = r
                .matches
                .iter()
                .map(|m| {
                    let games: Vec<Value> = m
                        .games
                        .iter()
                        .map(|g| {
                            let seats = s.seats(&g.fixture);
                            let sides: serde_json::Map<String, Value> =
                                s.sides.iter().zip(seats).map(|(side, e)| (side.clone(), json!(name(e)))).collect();
                            json!({
                                "game": g.fixture.game,
                                "extra": g.fixture.game > b.rules.games_per_match,
                                "sides": sides,
                                "first": name(g.fixture.first),
                                "result": result_text(s, g),
                                "winner": g.winner().map(name),
                                "reason": g.result.reason,
                                "plies": g.result.plies,
                                "seed": g.fixture.seed,
                            })
                        })
                        .collect();
                    json!({
                        "a": name(m.red),
                        "b": name(m.black),
                        "cards": {"number": m.number, "red": name(m.red), "black": name(m.black)},
                        "games": games,
                        "points": [m.half_points[0] as f64 / 2.0, m.half_points[1] as f64 / 2.0],
                        "winner": m.winner.map(name),
                        "decided_by": m.decided_by.map(|d| d.as_str()),
                    })
                })
                .collect();
            json!({
                "round": r.number,
                "players": r.draw.len(),
                "draw": r.draw.iter().map(|(e, c)| json!({"entrant": name(*e), "card": c.to_string()})).collect::<Vec<_>>(),
                "matches": matches,
                "byes": r.byes.iter().map(|e| name(*e)).collect::<Vec<_>>(),
            })
        })
        .collect();
    json!({
        "game": s.game,
        "start": s.start,
        "sides": s.sides,
        "seed": b.seed,
        "entrants": (1..=b.entrants).map(|i| json!({"name": name(Entrant(i)), "player": s.player(Entrant(i)).to_string()})).collect::<Vec<_>>(),
        "games_per_match": b.rules.games_per_match,
        "extra_games": b.rules.extra_games,
        "max_plies": s.max_plies,
        "rounds": rounds,
        "champion": b.champion.map(name),
        "partial": b.partial,
    })
}

/// The bracket for people.
fn render(s: &Setting, b: &Bracket) {
    let extra = match b.rules.extra_games {
        0 => "a level match is decided by lot".to_string(),
        1 => "a level match plays 1 extra game, then is decided by lot".to_string(),
        n => format!("a level match plays up to {n} extra games (the first decisive one wins), then is decided by lot"),
    };
    say(&format!(
        "{} knockout: {} entrants, seed {}; matches of {} game{} won on points (win 1, draw ½), {extra}; games cut at {} plies (a draw){}",
        s.game,
        b.entrants,
        b.seed,
        b.rules.games_per_match,
        if b.rules.games_per_match == 1 { "" } else { "s" },
        s.max_plies,
        if b.partial { " — PARTIAL: stopped before the end" } else { "" }
    ));
    say(&format!(
        "entrants: {}",
        (1..=b.entrants).map(|i| s.label(Entrant(i))).collect::<Vec<_>>().join(", ")
    ));
    for r in &b.rounds {
        say("");
        say(&format!(
            "round {}: {} players, {} match{}{}",
            r.number,
            r.draw.len(),
            r.draw.len() / 2,
            if r.draw.len() / 2 == 1 { "" } else { "es" },
            if r.byes.is_empty() { "" } else { ", 1 bye" }
        ));
        say(&format!(
            "  cards: {}",
            r.draw.iter().map(|(e, c)| format!("{e} {c}")).collect::<Vec<_>>().join(", ")
        ));
        for m in &r.matches {
            say(&format!(
                "  match {n}: {} holds red {n}, {} black {n}",
                s.label(m.red),
                s.label(m.black),
                n = m.number
            ));
            for g in &m.games {
                let seats = s.seats(&g.fixture);
                let won = match g.winner() {
                    Some(w) => format!(", {w} wins"),
                    None => String::new(),
                };
                say(&format!(
                    "    game {}{}: {} {}, {} {}: {}{won} ({}, {} plies)",
                    g.fixture.game,
                    if g.fixture.game > b.rules.games_per_match { " (extra)" } else { "" },
                    s.sides[0],
                    seats[0],
                    s.sides[1],
                    seats[1],
                    result_text(s, g),
                    g.result.reason,
                    g.result.plies
                ));
            }
            // The winner's points first.
            let [red, black] = m.half_points.map(points);
            match (m.winner, m.decided_by) {
                (Some(w), Some(by)) => {
                    let (won, lost) = if w == m.red { (red, black) } else { (black, red) };
                    say(&format!(
                        "    winner: {w}{}",
                        match by {
                            knockout::DecidedBy::Games => format!(", {won}–{lost}"),
                            knockout::DecidedBy::ExtraGames => format!(", {won}–{lost} after extra games"),
                            knockout::DecidedBy::Lot => format!(" by lot, level {won}–{lost} after every game"),
                        }
                    ))
                }
                _ => say(&format!("    unfinished: stopped at {} {red}, {} {black}", m.red, m.black)),
            }
        }
        for e in &r.byes {
            say(&format!("  bye: {}", s.label(*e)));
        }
    }
    say("");
    match b.champion {
        Some(c) => say(&format!("champion: {}", s.label(c))),
        None => say("champion: none yet (stopped before the end)"),
    }
}
