//! `arbiter tournament`, run as a user runs it: the knockout's shape for 13 entrants (the seed's
//! example), that a seed replays the same tournament, that bad input is refused with a message,
//! that Ctrl-C prints the partial bracket, and tables of more than two (four sides, two teams).

use serde_json::Value;

use crate::common;

use common::{Run, arbiter, arbiter_within};

const THIRTEEN: [&str; 11] = [
    "tournament",
    "xiangqi",
    "--entrants",
    "13",
    "--players",
    "random",
    "--seed",
    "7",
    "--max-plies",
    "150",
    "--json",
];

fn json(r: &Run) -> Value {
    assert_eq!(r.code, Some(0), "stdout:\n{}\nstderr:\n{}", r.stdout, r.stderr);
    serde_json::from_str(r.stdout.trim()).unwrap_or_else(|e| panic!("stdout is not one JSON value ({e}):\n{}", r.stdout))
}

fn text(v: &Value) -> &str {
    v.as_str().unwrap_or_else(|| panic!("{v} is not a string"))
}

fn names(v: &Value) -> Vec<String> {
    v.as_array()
        .unwrap_or_else(|| panic!("{v} is not an array"))
        .iter()
        .map(|e| text(e).to_string())
        .collect()
}

fn sorted(mut v: Vec<String>) -> Vec<String> {
    v.sort();
    v
}

#[test]
fn thirteen_entrants_play_the_seed_s_knockout() {
    let v = json(&arbiter_within(300, &THIRTEEN));
    let rounds = v["rounds"].as_array().expect("`rounds` is an array");
    let shape: Vec<(usize, usize, usize)> = rounds
        .iter()
        .map(|r| {
            (
                r["draw"].as_array().map_or(0, Vec::len),
                r["matches"].as_array().map_or(0, Vec::len),
                r["byes"].as_array().map_or(0, Vec::len),
            )
        })
        .collect();
    assert_eq!(shape, [(13, 6, 1), (7, 3, 1), (4, 2, 0), (2, 1, 0)]);
    assert_eq!(v["partial"], Value::Bool(false));
    let sides = names(&v["sides"]);
    assert_eq!(sides, ["red", "black"]);

    let mut players: Vec<String> = sorted((1..=13).map(|i| format!("E{i}")).collect());
    let entrants: Vec<String> = v["entrants"]
        .as_array()
        .expect("entrants")
        .iter()
        .map(|e| text(&e["name"]).to_string())
        .collect();
    assert_eq!(sorted(entrants), players);
    let champion = text(&v["champion"]).to_string();
    for r in rounds {
        // Every player of the round appears exactly once: in one match or as the bye.
        let drawn: Vec<String> = r["draw"]
            .as_array()
            .expect("draw")
            .iter()
            .map(|d| text(&d["entrant"]).to_string())
            .collect();
        assert_eq!(sorted(drawn), players, "the draw of round {}", r["round"]);
        let matches = r["matches"].as_array().expect("matches");
        let mut seen = names(&r["byes"]);
        let mut next = names(&r["byes"]);
        for m in matches {
            let (a, b) = (text(&m["a"]).to_string(), text(&m["b"]).to_string());
            // a holds the red card of the match's number, b the black one.
            let n = &m["cards"]["number"];
            let card_of = |e: &str| {
                r["draw"]
                    .as_array()
                    .expect("draw")
                    .iter()
                    .find(|d| d["entrant"] == e)
                    .map(|d| text(&d["card"]).to_string())
            };
            assert_eq!(card_of(&a), Some(format!("red {n}")));
            assert_eq!(card_of(&b), Some(format!("black {n}")));
            let winner = text(&m["winner"]).to_string();
            assert!(winner == a || winner == b, "{m}");
            if a == champion || b == champion {
                assert_eq!(winner, champion, "the champion lost a match: {m}");
            }
            let games = m["games"].as_array().expect("games");
            assert!(!games.is_empty());
            // The red-card holder plays red, the side that moves first, in game 1.
            assert_eq!(games[0]["sides"]["red"], m["a"]);
            assert_eq!(games[0]["first"], m["a"]);
            // Points are the games' results: a win 1, a draw ½.
            let mut points = [0.0, 0.0];
            for (i, g) in games.iter().enumerate() {
                assert_eq!(g["game"].as_u64(), Some(i as u64 + 1));
                match g["winner"].as_str() {
                    Some(w) if w == a => points[0] += 1.0,
                    Some(w) => {
                        assert_eq!(w, b);
                        points[1] += 1.0;
                    }
                    None => {
                        points[0] += 0.5;
                        points[1] += 0.5;
                    }
                }
                let result = text(&g["result"]);
                let red_won = g["winner"].as_str().is_some_and(|w| g["sides"]["red"] == w);
                let expected = match g["winner"].as_str() {
                    None => "1/2-1/2",
                    Some(_) if red_won => "1-0",
                    Some(_) => "0-1",
                };
                assert_eq!(result, expected, "{g}");
                assert!(g["plies"].as_u64().is_some_and(|p| p <= 150), "{g}");
            }
            assert_eq!(m["points"], serde_json::json!(points), "{m}");
            let by = text(&m["decided_by"]);
            match by {
                "games" => assert!(games.len() <= 3 && points[0] != points[1], "{m}"),
                "extra-games" => assert!(games.len() > 3 && games.last().is_some_and(|g| g["winner"] == m["winner"]), "{m}"),
                "lot" => assert!(games.len() == 5 && points[0] == points[1], "{m}"),
                other => panic!("decided_by {other}"),
            }
            seen.extend([a, b]);
            next.push(winner);
        }
        assert_eq!(sorted(seen), players, "round {}", r["round"]);
        players = sorted(next);
    }
    assert_eq!(players, [champion]);
}

#[test]
fn the_human_report_shows_every_round_match_game_and_lot_of_the_json() {
    let v = json(&arbiter_within(300, &THIRTEEN));
    let human = arbiter_within(300, &THIRTEEN[..10]);
    assert_eq!(human.code, Some(0), "{}", human.stderr);
    let lines: Vec<&str> = human.stdout.lines().collect();
    let count = |prefix: &str| lines.iter().filter(|l| l.trim_start().starts_with(prefix)).count();
    let rounds = v["rounds"].as_array().expect("rounds");
    let matches: Vec<&Value> = rounds.iter().flat_map(|r| r["matches"].as_array().expect("matches")).collect();
    let games: usize = matches.iter().map(|m| m["games"].as_array().map_or(0, Vec::len)).sum();
    assert_eq!(count("round "), rounds.len());
    assert_eq!(count("cards: "), rounds.len());
    assert_eq!(count("match "), matches.len());
    assert_eq!(count("game "), games);
    assert_eq!(count("bye: "), 2);
    let lots = matches.iter().filter(|m| m["decided_by"] == "lot").count();
    assert_eq!(lines.iter().filter(|l| l.contains(" by lot, level ")).count(), lots);
    assert_eq!(
        lines.last().copied(),
        Some(format!("champion: {} (random)", text(&v["champion"]))).as_deref()
    );
}

#[test]
fn games_too_short_to_end_leave_every_match_to_extra_games_and_lot() {
    // No xiangqi game ends in 4 plies: every game is cut, a draw, so every match is level.
    let mut args = THIRTEEN;
    args[9] = "4";
    let v = json(&arbiter_within(300, &args));
    let matches: Vec<&Value> = v["rounds"]
        .as_array()
        .expect("rounds")
        .iter()
        .flat_map(|r| r["matches"].as_array().expect("matches"))
        .collect();
    assert_eq!(matches.len(), 12);
    for m in &matches {
        assert_eq!(m["decided_by"], "lot", "{m}");
        assert_eq!(m["points"], serde_json::json!([2.5, 2.5]), "{m}");
        let games = m["games"].as_array().expect("games");
        assert!(games.iter().all(|g| g["reason"] == "max-plies" && g["result"] == "1/2-1/2"), "{m}");
        let extra: Vec<bool> = games.iter().map(|g| g["extra"] == true).collect();
        assert_eq!(extra, [false, false, false, true, true]);
    }
    let human = arbiter_within(300, &args[..10]);
    assert_eq!(
        human
            .stdout
            .lines()
            .filter(|l| l.ends_with(" by lot, level 2½–2½ after every game"))
            .count(),
        12,
        "{}",
        human.stdout
    );
}

#[test]
fn a_seed_replays_the_tournament_and_another_seed_draws_differently() {
    let first = arbiter_within(300, &THIRTEEN);
    let again = arbiter_within(300, &THIRTEEN);
    assert_eq!(first.code, Some(0), "{}", first.stderr);
    assert_eq!(first.stdout, again.stdout);
    let mut other = THIRTEEN;
    other[7] = "8";
    let other = json(&arbiter_within(300, &other));
    assert_ne!(json(&first)["rounds"][0]["draw"], other["rounds"][0]["draw"]);
}

#[test]
fn players_alternate_over_the_entrants_and_the_human_report_shows_the_bracket() {
    let r = arbiter_within(
        300,
        &[
            "tournament",
            "chess",
            "--entrants",
            "3",
            "--players",
            "mcts:2,random",
            "--seed",
            "1",
            "--max-plies",
            "20",
        ],
    );
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert!(r.stdout.contains("entrants: E1 (mcts:2), E2 (random), E3 (mcts:2)"), "{}", r.stdout);
    // Chess names its own sides; the cards are still red and black.
    assert!(r.stdout.contains("game 1: white "), "{}", r.stdout);
    assert!(r.stdout.contains(" holds red 1, "), "{}", r.stdout);
    assert!(r.stdout.contains("  bye: E"), "{}", r.stdout);
    let last = r.stdout.lines().last().unwrap_or_default();
    assert!(last.starts_with("champion: E"), "{}", r.stdout);
}

#[test]
fn bad_input_is_refused_with_a_message() {
    let base = |entrants: &str, players: &str, ruleset: &str| {
        arbiter(&[
            "tournament",
            ruleset,
            "--entrants",
            entrants,
            "--players",
            players,
            "--seed",
            "1",
            "--json",
        ])
    };
    for (r, says) in [
        (
            base("1", "random", "xiangqi"),
            "--entrants 1: a knockout needs from 2 to 1024 entrants",
        ),
        (base("0", "random", "xiangqi"), "--entrants 0"),
        (base("5000", "random", "xiangqi"), "--entrants 5000"),
        (base("4", "random,mcts:fast", "xiangqi"), "player 2"),
        (base("4", "random,", "xiangqi"), "player 2"),
        (base("4", "random", "no-such-game"), "no ruleset `no-such-game`"),
    ] {
        assert_eq!(r.code, Some(1), "stdout:\n{}\nstderr:\n{}", r.stdout, r.stderr);
        assert!(r.stderr.contains(says), "{}", r.stderr);
        let v: Value = serde_json::from_str(r.stdout.trim()).expect("--json reports the error as JSON");
        assert_eq!(v["error"], "bad-input");
    }
}

#[test]
#[cfg(unix)]
fn ctrl_c_prints_the_partial_bracket() {
    use std::process::{Command, Stdio};
    let child = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args([
            "tournament",
            "xiangqi",
            "--entrants",
            "64",
            "--players",
            "mcts:50",
            "--seed",
            "3",
            "--json",
        ])
        .current_dir(common::root())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the arbiter binary runs");
    std::thread::sleep(std::time::Duration::from_millis(1500));
    let sent = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(sent.success());
    let out = child.wait_with_output().expect("wait");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(130), "{stderr}");
    assert!(stderr.contains("interrupted:"), "{stderr}");
    let v: Value = serde_json::from_slice(&out.stdout).expect("the partial bracket is one JSON value");
    assert_eq!(v["partial"], Value::Bool(true));
    assert_eq!(v["champion"], Value::Null);
    let under_way = v["rounds"]
        .as_array()
        .and_then(|r| r.last())
        .and_then(|r| r["matches"].as_array())
        .and_then(|m| m.last());
    assert_eq!(under_way.map(|m| &m["winner"]), Some(&Value::Null), "{v}");
}

/// A game of four sides seats four entrants a table: every round seats each entrant once (or
/// gives a bye), the seats turn game by game, each game scores a win 1 and a draw ½ against each
/// other entrant at the table, and the table's best goes on.
#[test]
fn a_game_of_four_sides_seats_four_entrants_a_table() {
    let v = json(&arbiter_within(
        300,
        &[
            "tournament",
            "ludo",
            "--entrants",
            "7",
            "--players",
            "random",
            "--seed",
            "2",
            "--json",
        ],
    ));
    assert_eq!(v["seats"], 4);
    assert_eq!(names(&v["parties"]), ["red", "blue", "green", "yellow"]);
    let mut players: Vec<String> = sorted((1..=7).map(|i| format!("E{i}")).collect());
    let rounds = v["rounds"].as_array().expect("`rounds` is an array");
    // 7 → 4 (one table, three byes) → 1.
    assert_eq!(rounds.len(), 2);
    for r in rounds {
        let matches = r["matches"].as_array().expect("`matches`");
        let byes = names(&r["byes"]);
        assert_eq!((matches.len(), byes.len()), (players.len() / 4, players.len() % 4));
        let mut seen = byes.clone();
        let mut next = byes;
        for m in matches {
            let seats = names(&m["seats"]);
            assert_eq!(seats.len(), 4);
            seen.extend(seats.clone());
            // Half points recomputed from the games: 2 for each entrant finished ahead of, 1 for
            // each level with (those who lost together are level); an extra game (past the
            // third) counts for the entrants level at the top alone.
            let level = names(&m["level"]);
            let mut half = [0u32; 4];
            for g in m["games"].as_array().expect("`games`") {
                let extra = g["game"].as_u64().unwrap() > 3;
                let order = names(&g["order"]);
                let turn = (g["game"].as_u64().unwrap() as usize - 1) % 4;
                for (s, e) in seats.iter().enumerate() {
                    assert_eq!(&order[(s + turn) % 4], e, "the seats turn: {g}");
                }
                // Each side is played by the entrant the order gives its party.
                for (side, e) in ["red", "blue", "green", "yellow"].iter().zip(&order) {
                    assert_eq!(text(&g["sides"][*side]), e, "{g}");
                }
                for s in (0..4).filter(|&s| !extra || level.contains(&seats[s])) {
                    half[s] += match &g["winner"] {
                        Value::Null => 3,
                        w if text(w) == seats[s] => 6,
                        _ => 2,
                    };
                }
                if let Value::String(w) = &g["winner"] {
                    let side = ["red", "blue", "green", "yellow"][order.iter().position(|e| e == w).unwrap()];
                    assert_eq!(text(&g["result"]), format!("{side} wins"), "{g}");
                }
            }
            let points: Vec<f64> = m["points"].as_array().unwrap().iter().map(|p| p.as_f64().unwrap()).collect();
            assert_eq!(points, half.map(|h| f64::from(h) / 2.0), "{m}");
            let winner = text(&m["winner"]).to_string();
            let best = points.iter().cloned().fold(0.0, f64::max);
            let at = seats.iter().position(|e| *e == winner).expect("the winner sat at the table");
            assert_eq!(points[at], best, "{m}");
            next.push(winner);
        }
        assert_eq!(sorted(seen), players, "round {}", r["round"]);
        players = sorted(next);
    }
    assert_eq!(players, [text(&v["champion"]).to_string()]);
}

/// A game of dice replays from its seed: the rolls come from each game's seed, as the moves do.
#[test]
fn a_knockout_of_a_game_of_dice_replays_from_its_seed() {
    let run = |seed: &str| {
        json(&arbiter_within(
            300,
            &[
                "tournament",
                "ludo",
                "--entrants",
                "4",
                "--players",
                "random",
                "--seed",
                seed,
                "--games-per-match",
                "1",
                "--json",
            ],
        ))
    };
    let a = run("5");
    assert_eq!(run("5"), a);
    let plies = |v: &Value| v["rounds"][0]["matches"][0]["games"][0]["plies"].clone();
    assert!(
        ["6", "7", "8"].iter().any(|s| plies(&run(s)) != plies(&a)),
        "other seeds roll other games"
    );
}

/// A game played on for places scores each place against each other entrant at the table:
/// 1st, 2nd, 3rd and 4th take 3, 2, 1 and 0 points.
#[test]
fn a_game_played_for_places_scores_every_place() {
    let v = json(&arbiter_within(
        300,
        &[
            "tournament",
            "tests/language/ludo-places.rules",
            "--entrants",
            "4",
            "--players",
            "random",
            "--seed",
            "2",
            "--games-per-match",
            "1",
            "--json",
        ],
    ));
    let m = &v["rounds"][0]["matches"][0];
    let g = &m["games"][0];
    let order = names(&g["order"]);
    let result = text(&g["result"]);
    // `yellow 1st, green 2nd, red 3rd, blue 4th`: the sides by place.
    let by_place: Vec<&str> = result.split(", ").collect();
    assert_eq!(by_place.len(), 4, "{result}");
    let seats = names(&m["seats"]);
    let points: Vec<f64> = m["points"].as_array().unwrap().iter().map(|p| p.as_f64().unwrap()).collect();
    for (i, entry) in by_place.iter().enumerate() {
        let (side, place) = entry.rsplit_once(' ').unwrap();
        assert_eq!(place, ["1st", "2nd", "3rd", "4th"][i], "{result}");
        let e = text(&g["sides"][side]);
        assert!(order.contains(&e.to_string()));
        let at = seats.iter().position(|s| s == e).unwrap();
        assert_eq!(points[at], 3.0 - i as f64, "{side} ({e}) placed {place}: {m}");
    }
    assert_eq!(text(&m["winner"]), text(&g["sides"][by_place[0].rsplit_once(' ').unwrap().0]));
}

/// A game of two teams seats two entrants a table, each playing both sides of its team.
#[test]
fn a_game_of_teams_seats_a_team_per_entrant() {
    let v = json(&arbiter_within(
        300,
        &[
            "tournament",
            "four-player-chess",
            "--entrants",
            "3",
            "--players",
            "random",
            "--seed",
            "2",
            "--max-plies",
            "400",
            "--json",
        ],
    ));
    assert_eq!(v["seats"], 2);
    assert_eq!(names(&v["parties"]), ["red and yellow", "blue and green"]);
    let games: Vec<&Value> = v["rounds"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|r| r["matches"].as_array().unwrap())
        .flat_map(|m| m["games"].as_array().unwrap())
        .collect();
    assert!(!games.is_empty());
    for g in games {
        let sides = &g["sides"];
        assert_eq!(sides["red"], sides["yellow"], "{g}");
        assert_eq!(sides["blue"], sides["green"], "{g}");
        assert_ne!(sides["red"], sides["blue"], "{g}");
        assert_eq!(sides["red"], g["first"], "red moves first: {g}");
        let result = text(&g["result"]);
        assert!(["red and yellow win", "blue and green win", "draw"].contains(&result), "{result}");
    }
    // The human report names the teams.
    let r = arbiter_within(
        300,
        &[
            "tournament",
            "four-player-chess",
            "--entrants",
            "2",
            "--players",
            "random",
            "--seed",
            "2",
            "--max-plies",
            "40",
        ],
    );
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert!(r.stdout.contains("game 1: red and yellow E"), "{}", r.stdout);
}

/// Tables of four take three entrants out a match, so a knockout of them needs one more than a
/// multiple of three: other sizes are refused before anything is played, naming the nearest.
#[test]
fn a_size_tables_cannot_bring_down_to_one_is_refused() {
    for (entrants, says) in [("6", "give 4 or 7"), ("3", "give 4)"), ("12", "give 10 or 13")] {
        let r = arbiter(&["tournament", "ludo", "--entrants", entrants, "--players", "random", "--seed", "1"]);
        assert_eq!(r.code, Some(1), "{}", r.stderr);
        assert!(
            r.stderr.contains(says) && r.stderr.contains("Ludo seats 4 entrants a table"),
            "{}",
            r.stderr
        );
        assert!(r.stdout.is_empty(), "{}", r.stdout);
    }
}
