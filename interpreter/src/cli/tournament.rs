//! `arbiter tournament`: a knockout between entrants played by the players given. The bracket — the
//! card draw, the matches, extra games and lots — is the library's ([`arbiter::sim::knockout`]);
//! this file reads the arguments, plays each game the bracket asks for with
//! [`sim::play_game`], shows progress and renders the bracket.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use arbiter::game::{Position, Status, ordinal};
use arbiter::model::Side;
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
/// its parties (a side each, or teams of partners) and each entrant's player.
struct Setting {
    game: String,
    sides: Vec<String>,
    /// The parties an entrant plays, each its sides, in turn order from the party that moves
    /// first at the start (seat 1's, the red-card holder's, in game 1).
    parties: Vec<Vec<usize>>,
    /// Whether each party is a team of partners rather than one side.
    teams: bool,
    players: Vec<PlayerSpec>,
    max_plies: usize,
    start: String,
}

impl Setting {
    fn player(&self, e: Entrant) -> PlayerSpec {
        self.players[(e.0 as usize - 1) % self.players.len()]
    }

    /// Who plays each side of a game (by the ruleset's order of sides).
    fn seats(&self, f: &Fixture) -> Vec<Entrant> {
        let mut seats = vec![Entrant(0); self.sides.len()];
        for (party, e) in self.parties.iter().zip(&f.order) {
            for &side in party {
                seats[side] = *e;
            }
        }
        seats
    }

    /// A party's name: its side's, or its sides' (`red and yellow`).
    fn party(&self, p: usize) -> String {
        self.parties[p]
            .iter()
            .map(|&s| self.sides[s].as_str())
            .collect::<Vec<_>>()
            .join(" and ")
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
    // An entrant plays a party: a side, or a team of partners (each side of it, with one
    // player). The parties in turn order from the one that moves first at the start.
    let first = pos.side_to_move();
    let n = r.players.len();
    let mut parties: Vec<Vec<usize>> = Vec::new();
    for side in (0..n).map(|i| Side(((first.index() + i) % n) as u8)) {
        if !parties.iter().any(|p| p.contains(&side.index())) {
            parties.push(r.team_of(side).iter().map(|s| s.index()).collect());
        }
    }
    let rules = rules.at_tables_of(parties.len() as u32).map_err(Failure::input)?;
    rules.check_entrants(args.entrants).map_err(|m| {
        Failure::input(format!(
            "{m}; {} seats {} entrants a table{}",
            r.name,
            parties.len(),
            if r.teams.is_empty() {
                String::new()
            } else {
                " (a team each)".to_string()
            }
        ))
    })?;
    let setting = Setting {
        game: r.name.clone(),
        sides: r.players.iter().map(|p| p.name.clone()).collect(),
        parties,
        teams: !r.teams.is_empty(),
        players,
        max_plies: args.max_plies,
        start: pos.fen(),
    };

    let stop = Arc::new(AtomicBool::new(false));
    stop_on_ctrl_c(stop.clone());
    // The bar counts games against the most the tournament can still take, which shrinks to the
    // number played as matches end early.
    let most = u64::from(rules.most_games());
    let matches = u64::from(rules.matches(args.entrants));
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
                        "round {}, match {}, game {}: {}",
                        f.round,
                        f.match_number,
                        f.game,
                        f.order.iter().map(Entrant::to_string).collect::<Vec<_>>().join(" vs ")
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
        return Err(Failure::reported(INTERRUPTED));
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
    let mut players: Vec<_> = (0..seats.len())
        .map(|side| s.player(seats[side]).build(sim::player_seed(f.seed, 0, side)))
        .collect();
    let (summary, _) = sim::play_game(start, &mut players, s.max_plies, false, false, sim::chance_seed(f.seed, 0), stop)?;
    // By the fixture's order, which is the parties'.
    let decision = match &summary.end {
        Some(End { places: Some(places), .. }) => {
            let places: Vec<u8> = s.parties.iter().map(|p| places[p[0]]).collect();
            // One party first and the rest level behind it is a win (a team's, say).
            match (places.iter().filter(|&&p| p == 1).count(), places.iter().position(|&p| p == 1)) {
                (1, Some(w)) if places.iter().all(|&p| p <= 2) => Decision::Won(w),
                _ => Decision::Places(places),
            }
        }
        Some(End {
            status: Status::Win,
            winner: Some(w),
            ..
        }) => match s.parties.iter().position(|p| p.contains(&w.index())) {
            Some(p) => Decision::Won(p),
            None => Decision::Draw,
        },
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

/// `1-0`, `0-1` or `1/2-1/2` by the ruleset's order of sides between two; among more parties
/// (or teams) the winner (`green wins`, `red and yellow win`), the places, or `draw`.
fn result_text(s: &Setting, g: &PlayedGame) -> String {
    let winner = g.winner().and_then(|w| g.fixture.order.iter().position(|&e| e == w));
    if s.parties.len() == 2 && !s.teams {
        return match winner {
            None => "1/2-1/2",
            Some(p) if s.parties[p][0] == 0 => "1-0",
            Some(_) => "0-1",
        }
        .to_string();
    }
    let places = g.places();
    match (&g.result.decision, winner) {
        (Decision::Places(_), _) => {
            let mut by: Vec<usize> = (0..places.len()).collect();
            by.sort_by_key(|&p| places[p]);
            by.iter()
                .map(|&p| format!("{} {}", s.party(p), ordinal(places[p])))
                .collect::<Vec<_>>()
                .join(", ")
        }
        (_, Some(p)) => format!("{} {}", s.party(p), if s.parties[p].len() > 1 { "win" } else { "wins" }),
        _ => "draw".to_string(),
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
                                "first": name(g.fixture.first()),
                                "order": g.fixture.order.iter().map(|e| name(*e)).collect::<Vec<_>>(),
                                "result": result_text(s, g),
                                "winner": g.winner().map(name),
                                "reason": g.result.reason,
                                "plies": g.result.plies,
                                "seed": g.fixture.seed,
                            })
                        })
                        .collect();
                    let seats: Vec<String> = m.seats.iter().map(|e| name(*e)).collect();
                    let mut v = json!({
                        "seats": seats,
                        "cards": {"number": m.number, "seats": seats},
                        "games": games,
                        "points": m.half_points.iter().map(|&h| f64::from(h) / 2.0).collect::<Vec<_>>(),
                        "winner": m.winner.map(name),
                        "decided_by": m.decided_by.map(|d| d.as_str()),
                        "level": m.level.iter().map(|e| name(*e)).collect::<Vec<_>>(),
                    });
                    // Between two, the red- and black-card holders by name, as the seed has them.
                    if let [red, black] = m.seats[..] {
                        v["a"] = json!(name(red));
                        v["b"] = json!(name(black));
                        v["cards"]["red"] = json!(name(red));
                        v["cards"]["black"] = json!(name(black));
                    }
                    v
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
        "parties": (0..s.parties.len()).map(|p| s.party(p)).collect::<Vec<_>>(),
        "seats": b.rules.seats,
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
    let k = b.rules.seats as usize;
    let extra = match b.rules.extra_games {
        0 => "a level match is decided by lot".to_string(),
        1 => "a level match plays 1 extra game, then is decided by lot".to_string(),
        n => format!("a level match plays up to {n} extra games (the first decisive one wins), then is decided by lot"),
    };
    let scoring = if k == 2 {
        "(win 1, draw ½)".to_string()
    } else {
        format!(
            "(each game a win 1, a draw ½ against each other entrant at the table; tables of {k}: {})",
            (0..k).map(|p| s.party(p)).collect::<Vec<_>>().join(", ")
        )
    };
    say(&format!(
        "{} knockout: {} entrants, seed {}; matches of {} game{} won on points {scoring}, {extra}; games cut at {} plies (a draw){}",
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
        let tables = r.draw.len() / k;
        say(&format!(
            "round {}: {} players, {} match{}{}",
            r.number,
            r.draw.len(),
            tables,
            if tables == 1 { "" } else { "es" },
            match r.byes.len() {
                0 => String::new(),
                1 => ", 1 bye".to_string(),
                n => format!(", {n} byes"),
            }
        ));
        say(&format!(
            "  cards: {}",
            r.draw.iter().map(|(e, c)| format!("{e} {c}")).collect::<Vec<_>>().join(", ")
        ));
        for m in &r.matches {
            match m.seats[..] {
                [red, black] => say(&format!(
                    "  match {n}: {} holds red {n}, {} black {n}",
                    s.label(red),
                    s.label(black),
                    n = m.number
                )),
                _ => say(&format!(
                    "  match {}: {}",
                    m.number,
                    m.seats
                        .iter()
                        .enumerate()
                        .map(|(i, e)| format!("{} holds {}/{}", s.label(*e), m.number, i + 1))
                        .collect::<Vec<_>>()
                        .join(", ")
                )),
            }
            for g in &m.games {
                let seats = s.seats(&g.fixture);
                // Between two single sides the result names no winner; otherwise it does.
                let won = match g.winner() {
                    Some(w) if k == 2 && !s.teams => format!(", {w} wins"),
                    _ => String::new(),
                };
                let who = (0..k)
                    .map(|p| format!("{} {}", s.party(p), seats[s.parties[p][0]]))
                    .collect::<Vec<_>>();
                say(&format!(
                    "    game {}{}: {}: {}{won} ({}, {} plies)",
                    g.fixture.game,
                    if g.fixture.game > b.rules.games_per_match { " (extra)" } else { "" },
                    in_side_order(s, who),
                    result_text(s, g),
                    g.result.reason,
                    g.result.plies
                ));
            }
            // The winner's points first, then the others' by seat.
            let pts: Vec<String> = m.half_points.iter().map(|&h| points(h)).collect();
            // Each seat's entrant and points: `E3 2½, E7 1`.
            let standing = || {
                m.seats
                    .iter()
                    .zip(&pts)
                    .map(|(e, p)| format!("{e} {p}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            match (m.winner, m.decided_by) {
                // At tables of more, say who was level and at what (the extra games count for
                // them alone: the others at the table only make the game up).
                (Some(w), Some(by)) if k > 2 && by != knockout::DecidedBy::Games => {
                    let regular: u32 = m
                        .games
                        .iter()
                        .filter(|g| g.fixture.game <= b.rules.games_per_match)
                        .map(|g| g.half_points(w))
                        .sum();
                    let others: Vec<String> = m.level.iter().filter(|&&e| e != w).map(Entrant::to_string).collect();
                    say(&format!(
                        "    winner: {w} {}, level with {} at {} after {} game{}; points {}",
                        if by == knockout::DecidedBy::Lot {
                            "by lot"
                        } else {
                            "in the extra games"
                        },
                        others.join(" and "),
                        points(regular),
                        b.rules.games_per_match,
                        if b.rules.games_per_match == 1 { "" } else { "s" },
                        standing()
                    ))
                }
                (Some(w), Some(by)) => {
                    let at = m.seats.iter().position(|&e| e == w).unwrap_or(0);
                    let score = std::iter::once(pts[at].clone())
                        .chain((0..k).filter(|&i| i != at).map(|i| pts[i].clone()))
                        .collect::<Vec<_>>()
                        .join("–");
                    say(&format!(
                        "    winner: {w}{}",
                        match by {
                            knockout::DecidedBy::Games => format!(", {score}"),
                            knockout::DecidedBy::ExtraGames => format!(", {score} after extra games"),
                            knockout::DecidedBy::Lot => format!(" by lot, level {score} after every game"),
                        }
                    ))
                }
                _ => say(&format!("    unfinished: stopped at {}", standing())),
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

/// The parties' `who` (by turn order from the first) put back in the ruleset's order of sides.
fn in_side_order(s: &Setting, who: Vec<String>) -> String {
    let mut by: Vec<(usize, String)> = s.parties.iter().map(|p| p[0]).zip(who).collect();
    by.sort();
    by.into_iter().map(|(_, w)| w).collect::<Vec<_>>().join(", ")
}
