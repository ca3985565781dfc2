//! `arbiter compare A B`, run as a user runs it, on fixtures in `tests/compare/`: chess without en
//! passant (a move rule), chess where the first check wins (an end rule only), tic-tac-toe where
//! three in a row loses (for the simulation), and a board of another size. Counts and lines are
//! checked against what is known apart from the command: the published perft table and shakmaty
//! for en passant, and a plain search over the library's own legal moves for "shortest".

use std::collections::BTreeSet;

use arbiter::game::{Engine, Game, Status};
use arbiter::notation::uci;
use serde_json::Value;
use shakmaty::{Chess, Position as _};

use crate::common;

use common::{Run, arbiter, arbiter_within, engine};

const NO_EP: &str = "tests/compare/no-en-passant.rules";
const FIRST_CHECK: &str = "tests/compare/first-check.rules";
const MISERE: &str = "tests/compare/misere.rules";

/// Perft of the chess start, depths 1 to 5, and the en-passant captures among the leaves at each
/// (the published table: chessprogramming.org, "Perft Results", initial position).
const PERFT: [u64; 5] = [20, 400, 8902, 197_281, 4_865_609];
const EN_PASSANT_LEAVES: [u64; 5] = [0, 0, 0, 0, 258];

fn json(r: &Run) -> Value {
    assert_eq!(r.code, Some(0), "exit code; stdout:\n{}\nstderr:\n{}", r.stdout, r.stderr);
    serde_json::from_str(r.stdout.trim()).unwrap_or_else(|e| panic!("stdout is not one JSON value ({e}):\n{}", r.stdout))
}

fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .unwrap_or_else(|| panic!("not an array: {v}"))
        .iter()
        .map(|x| x.as_str().expect("a string").to_string())
        .collect()
}

fn fails_cleanly(r: &Run, says: &str) {
    assert_eq!(r.code, Some(1), "exit code; stdout:\n{}\nstderr:\n{}", r.stdout, r.stderr);
    assert!(r.stderr.contains(says), "stderr should say `{says}`:\n{}", r.stderr);
}

/// The en-passant captures among the leaves at `depth` below `pos`, by shakmaty.
fn en_passant_leaves(pos: &Chess, depth: u32) -> u64 {
    let moves = pos.legal_moves();
    if depth == 1 {
        return moves.iter().filter(|m| m.is_en_passant()).count() as u64;
    }
    moves
        .iter()
        .map(|m| {
            let mut next = pos.clone();
            next.play_unchecked(*m);
            en_passant_leaves(&next, depth - 1)
        })
        .sum()
}

/// The legal moves of a game as coordinate texts (none once it is over).
fn playable(g: &Game) -> BTreeSet<String> {
    if g.outcome().status != Status::Ongoing {
        return BTreeSet::new();
    }
    let pos = g.current();
    pos.legal_moves().into_iter().map(|m| uci::to_text(pos, m)).collect()
}

/// Is there a line of at most `plies` moves legal in both after which the legal moves or the way
/// the game stands differ? A plain search of every line, apart from the command's.
fn differs_within(a: &mut Game, b: &mut Game, plies: u32) -> bool {
    let (ma, mb) = (playable(a), playable(b));
    let (oa, ob) = (a.outcome(), b.outcome());
    if ma != mb || oa.status != ob.status || oa.winner != ob.winner {
        return true;
    }
    if plies == 0 {
        return false;
    }
    for text in ma {
        let (x, y) = (
            uci::find(a.current(), &text).expect("legal in A"),
            uci::find(b.current(), &text).expect("legal in B"),
        );
        a.play(x);
        b.play(y);
        let found = differs_within(a, b, plies - 1);
        a.undo();
        b.undo();
        if found {
            return true;
        }
    }
    false
}

fn games(a: &Engine, b: &Engine) -> (Game, Game) {
    (Game::new(a.clone(), a.start()), Game::new(b.clone(), b.start()))
}

/// Plays `line` in a fresh game of `e`.
fn after(e: &Engine, line: &[String]) -> Game {
    let mut g = Game::new(e.clone(), e.start());
    for t in line {
        let m = uci::find(g.current(), t).unwrap_or_else(|| panic!("{t} is legal"));
        g.play(m);
    }
    g
}

// ---------------------------------------------------------------- a move rule: no en passant

#[test]
fn without_en_passant_perft_first_differs_at_depth_5_by_the_en_passant_leaves() {
    let start = Chess::default();
    let published: Vec<u64> = (1..=5).map(|d| en_passant_leaves(&start, d)).collect();
    assert_eq!(published, EN_PASSANT_LEAVES, "shakmaty agrees with the published table");

    let v = json(&arbiter(&["compare", "chess", NO_EP, "--depth", "5", "--json"]));
    let rows = v["perft"].as_array().expect("perft rows");
    assert_eq!(rows.len(), 5);
    for (i, r) in rows.iter().enumerate() {
        assert_eq!(r["depth"], i as u64 + 1);
        assert_eq!(r["a"], PERFT[i], "chess at depth {}", i + 1);
        assert_eq!(r["b"], PERFT[i] - EN_PASSANT_LEAVES[i], "without en passant at depth {}", i + 1);
    }
    assert_eq!(v["perft_first_difference"], 5);

    // Below each first move, the difference is the en-passant leaves shakmaty finds there.
    let root = &v["root_moves"];
    assert_eq!(root["depth"], 5);
    assert!(root["only_a"].as_array().expect("list").is_empty());
    assert!(root["only_b"].as_array().expect("list").is_empty());
    let mut expected = BTreeSet::new();
    for m in start.legal_moves() {
        let mut next = start.clone();
        next.play_unchecked(m);
        let n = en_passant_leaves(&next, 4);
        if n > 0 {
            expected.insert((m.to_uci(shakmaty::CastlingMode::Standard).to_string(), n));
        }
    }
    let found: BTreeSet<(String, u64)> = root["differ"]
        .as_array()
        .expect("list")
        .iter()
        .map(|d| {
            let (a, b) = (d["a"].as_u64().expect("count"), d["b"].as_u64().expect("count"));
            (d["move"].as_str().expect("text").to_string(), a - b)
        })
        .collect();
    assert_eq!(found, expected);
}

#[test]
fn without_en_passant_the_shortest_line_loses_exactly_the_en_passant_capture() {
    let v = json(&arbiter(&["compare", "chess", NO_EP, "--depth", "2", "--json"]));
    let line = &v["first_line"];
    let moves = strings(&line["moves"]);
    assert_eq!(
        moves.len(),
        4,
        "a pawn reaches the fifth rank in two moves, and the other side's steps past it: {moves:?}"
    );

    let (chess, no_ep) = (common::bundled("chess"), engine(NO_EP, &[]));
    // Shortest: no line of three plies or fewer differs.
    let (mut a, mut b) = games(&chess, &no_ep);
    assert!(!differs_within(&mut a, &mut b, 3));
    // Exactly right: the moves lost are chess's moves missing without en passant, and they are
    // the captures onto the square the last double step passed.
    let (ga, gb) = (after(&chess, &moves), after(&no_ep, &moves));
    let (ma, mb) = (playable(&ga), playable(&gb));
    let lost: BTreeSet<String> = ma.difference(&mb).cloned().collect();
    let gained: BTreeSet<String> = mb.difference(&ma).cloned().collect();
    assert_eq!(strings(&line["lost"]).into_iter().collect::<BTreeSet<_>>(), lost);
    assert_eq!(strings(&line["gained"]).into_iter().collect::<BTreeSet<_>>(), gained);
    assert!(gained.is_empty());
    let ep = ga.current().en_passant_squares();
    assert_eq!(ep.len(), 1);
    let passed = chess.rules().board.name(ep[0]);
    assert!(
        !lost.is_empty() && lost.iter().all(|m| m.ends_with(&passed)),
        "{lost:?} all take on {passed}"
    );
    assert!(line["ends"].is_null());

    // The clauses: chess allows it by its en-passant clause; the variant refuses it by the
    // capture clause, which needs an enemy on the square.
    let r = &line["rulings"][0];
    assert_eq!(r["change"], "lost");
    assert_eq!(r["a"]["legal"], true);
    assert_eq!(r["a"]["clause"], "FIDE 3.7.3.1");
    assert_eq!(r["b"]["legal"], false);
    assert_eq!(r["b"]["code"], "needs-enemy-target");
    assert_eq!(r["b"]["clause"], "FIDE 3.7.3");
}

#[test]
fn without_en_passant_the_en_passant_scenarios_change_and_castling_ones_do_not() {
    let v = json(&arbiter(&["compare", "chess", NO_EP, "--depth", "1", "--plies", "0", "--json"]));
    let s = &v["scenarios"];
    assert_eq!(s["folder"], "scenarios/chess", "a variant of chess finds the chess scenarios");
    let changed: Vec<String> = s["changed"]
        .as_array()
        .expect("list")
        .iter()
        .map(|c| c["path"].as_str().expect("path").to_string())
        .collect();
    assert!(
        changed.contains(&"scenarios/chess/en-passant-next-move-only.ron".to_string()),
        "{changed:?}"
    );
    assert!(changed.contains(&"scenarios/chess/kiwipete.ron".to_string()), "{changed:?}");
    let unchanged = strings(&s["unchanged"]);
    assert!(
        unchanged.contains(&"scenarios/chess/castling-through-check.ron".to_string()),
        "{unchanged:?}"
    );
    assert!(!changed.contains(&"scenarios/chess/castling-through-check.ron".to_string()));
    let kiwipete = s["changed"]
        .as_array()
        .expect("list")
        .iter()
        .find(|c| c["path"] == "scenarios/chess/kiwipete.ron")
        .expect("listed");
    assert_eq!(kiwipete["a"]["status"], "pass");
    assert_eq!(kiwipete["b"]["status"], "fail");
}

/// A scenario that runs on neither ruleset (here a file that is not RON) is listed apart with its
/// place, never counted unchanged, and makes the exit non-zero once the whole report is out.
#[test]
fn a_scenario_that_runs_on_neither_ruleset_is_an_error_not_unchanged() {
    let dir = std::env::temp_dir().join(format!("arbiter-compare-broken-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    std::fs::write(dir.join("broken.ron"), "(title: \"half a scenario\",\n  steps: [\n").expect("written");
    std::fs::copy(
        common::root().join("scenarios/chess/castling-through-check.ron"),
        dir.join("castling-through-check.ron"),
    )
    .expect("copied");
    let folder = dir.display().to_string();
    let r = arbiter(&[
        "compare",
        "chess",
        NO_EP,
        "--depth",
        "1",
        "--plies",
        "0",
        "--scenarios",
        &folder,
        "--json",
    ]);
    assert_eq!(r.code, Some(1), "{}", r.stderr);
    assert!(r.stderr.contains("1 scenario could run on neither ruleset"), "{}", r.stderr);
    let v: serde_json::Value = serde_json::from_str(&r.stdout).expect("the report is printed whole");
    let s = &v["scenarios"];
    assert_eq!(s["run"], 2);
    assert_eq!(strings(&s["unchanged"]), vec![format!("{folder}/castling-through-check.ron")]);
    let broken = s["could_not_run"].as_array().expect("list");
    assert_eq!(broken.len(), 1, "{s}");
    assert_eq!(broken[0]["path"], format!("{folder}/broken.ron"));
    let error = broken[0]["error"].as_str().expect("an error");
    assert!(error.starts_with(&format!("{folder}/broken.ron:3:")), "{error}");
    let r = arbiter(&["compare", "chess", NO_EP, "--depth", "1", "--plies", "0", "--scenarios", &folder]);
    assert_eq!(r.code, Some(1));
    assert!(
        r.stdout.contains("  1 unchanged\n  1 could run on neither ruleset:\n"),
        "{}",
        r.stdout
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_human_report_has_its_sections_and_names_both_clauses() {
    let r = arbiter(&["compare", "chess", NO_EP, "--depth", "5"]);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    for part in [
        "Perft from the same start",
        "4865609  4865351  -258   <- first difference",
        "First moves whose subtrees differ at depth 5:",
        "First difference: after 4 plies",
        "lost (legal in A, not in B):",
        "A allows it — FIDE 3.7.3.1",
        "B refuses it (needs-enemy-target) — FIDE 3.7.3:",
        "Scenarios of scenarios/chess run on A and on B:",
        "Simulation: not asked",
    ] {
        assert!(r.stdout.contains(part), "missing `{part}` in:\n{}", r.stdout);
    }
}

#[test]
fn a_substituted_ruleset_keeps_the_scenarios_own_parameters() {
    // The command's `--param size=9` is the default for every scenario; one that sets its own size
    // keeps it, so a 13 × 13 scenario still runs on 13 × 13.
    let mut runner = arbiter::scenario::Runner::new(vec![common::root().join("rulesets")]);
    runner.substitute(common::root().join("rulesets/go.rules"), vec![("size".into(), "9".into())]);
    let report = runner.run_file(&common::root().join("scenarios/go/board-size-13.ron"));
    assert!(report.passed(), "{:?}", report.verdict);
    // One that sets none takes the command's: the 19 × 19 scenario no longer fits.
    let report = runner.run_file(&common::root().join("scenarios/go/board-size-19.ron"));
    assert!(!report.passed(), "{:?}", report.verdict);
}

// ---------------------------------------------------------------- the same rules

#[test]
fn a_ruleset_against_itself_shows_no_difference() {
    let v = json(&arbiter(&["compare", "chess", "rulesets/chess.rules", "--plies", "3", "--json"]));
    assert!(v["first_line"].is_null());
    assert!(v["perft_first_difference"].is_null());
    assert!(v["root_moves"].is_null());
    for r in v["perft"].as_array().expect("rows") {
        assert_eq!(r["a"], r["b"]);
    }
    assert_eq!(v["search"]["complete_to"], 3);
    assert_eq!(v["start"]["same"], true);
    assert!(v["scenarios"]["changed"].as_array().expect("list").is_empty());
    assert_eq!(v["scenarios"]["run"], v["scenarios"]["unchanged"].as_array().expect("list").len());

    let r = arbiter(&["compare", "chess", "chess", "--plies", "3"]);
    assert_eq!(r.code, Some(0));
    assert!(r.stdout.contains("First difference: none within 3 plies"), "{}", r.stdout);

    let r = arbiter(&["compare", "chess", "chess", "--plies", "0", "--scenarios", "tests/compare"]);
    assert!(
        r.stdout.contains("Scenarios: none in tests/compare (no *.ron file)."),
        "{}",
        r.stdout
    );
}

#[test]
fn a_finite_game_against_itself_is_searched_to_its_end() {
    let v = json(&arbiter(&["compare", "tic-tac-toe", "tic-tac-toe", "--json"]));
    assert!(v["first_line"].is_null());
    assert_eq!(v["search"]["exhausted"], true);
    // 5478 positions of tic-tac-toe are reachable, counting the empty grid.
    assert_eq!(v["search"]["positions"], 5478);
}

// ---------------------------------------------------------------- an end rule only

#[test]
fn a_variant_that_ends_sooner_differs_where_the_game_ends() {
    let v = json(&arbiter(&["compare", "chess", FIRST_CHECK, "--depth", "4", "--json"]));
    assert!(v["perft_first_difference"].is_null(), "perft applies no end rule");
    let line = &v["first_line"];
    let moves = strings(&line["moves"]);
    assert_eq!(moves.len(), 3, "the first check comes with white's second move: {moves:?}");
    let (chess, first_check) = (common::bundled("chess"), engine(FIRST_CHECK, &[]));
    let (mut a, mut b) = games(&chess, &first_check);
    assert!(!differs_within(&mut a, &mut b, 2));
    let ends = &line["ends"];
    assert_eq!(ends["a"]["status"], "ongoing");
    assert_eq!(ends["b"]["status"], "win");
    assert_eq!(ends["b"]["winner"], "white");
    assert_eq!(ends["b"]["reason"], "first-check");
    assert_eq!(ends["b"]["clause"], "First-check 1");
    // The game is over in B: every move black has in chess is lost, refused as the game is over.
    let ga = after(&chess, &moves);
    assert!(ga.current().in_check());
    assert_eq!(strings(&line["lost"]).into_iter().collect::<BTreeSet<_>>(), playable(&ga));
    assert!(strings(&line["gained"]).is_empty());
    for r in line["rulings"].as_array().expect("list") {
        assert_eq!(r["b"]["code"], "game-over");
        assert_eq!(r["b"]["clause"], "First-check 1");
    }

    let r = arbiter(&["compare", "chess", FIRST_CHECK, "--depth", "1"]);
    assert!(
        r.stdout.contains("B: the game ends: win for white by first-check (First-check 1)"),
        "{}",
        r.stdout
    );
}

#[test]
fn perft_that_stops_at_the_end_sees_an_end_rule() {
    let v = json(&arbiter(&[
        "compare",
        "chess",
        FIRST_CHECK,
        "--depth",
        "4",
        "--stop-at-end",
        "--plies",
        "0",
        "--json",
    ]));
    assert_eq!(v["perft_first_difference"], 4);
    let last = &v["perft"][3];
    assert_eq!(last["a"], PERFT[3]);
    assert!(last["b"].as_u64() < last["a"].as_u64(), "{last}");
}

// ---------------------------------------------------------------- simulation

#[test]
fn a_simulation_shows_a_reversed_win_rule_as_significant() {
    let v = json(&arbiter_within(
        120,
        &[
            "compare",
            "tic-tac-toe",
            MISERE,
            "--games",
            "400",
            "--seed",
            "7",
            "--plies",
            "0",
            "--json",
        ],
    ));
    let sim = &v["simulation"];
    assert_eq!(sim["games"], 400);
    let row = |what: &str| {
        sim["rows"]
            .as_array()
            .expect("rows")
            .iter()
            .find(|r| r["what"] == what)
            .unwrap_or_else(|| panic!("no row `{what}` in {sim}"))
            .clone()
    };
    let cross = row("cross wins");
    assert_eq!(cross["significant"], true, "{cross}");
    assert!(cross["difference"].as_f64() < Some(0.0));
    assert_eq!(row("first player's score")["significant"], true);
    // The same games are played: the draws (full grids with no line) are the same games.
    assert_eq!(row("draws")["difference"], 0.0);
    assert_eq!(row("draws")["significant"], false);
    assert_eq!(sim["tally"]["a"]["games"], 400);
}

#[test]
fn the_same_simulation_on_the_same_rules_shows_no_difference() {
    let v = json(&arbiter(&[
        "compare",
        "tic-tac-toe",
        "tic-tac-toe",
        "--games",
        "300",
        "--seed",
        "3",
        "--json",
    ]));
    for r in v["simulation"]["rows"].as_array().expect("rows") {
        assert_eq!(r["difference"], 0.0, "{r}");
        assert_eq!(r["significant"], false, "{r}");
    }
}

// ---------------------------------------------------------------- refusals

#[test]
fn different_boards_are_refused() {
    fails_cleanly(
        &arbiter(&["compare", "chess", "tests/compare/mini.rules"]),
        "the boards differ: A has 8 × 8 squares (files a..h, ranks 1..8), B has 5 × 5 squares (files a..e, ranks 1..5)",
    );
    fails_cleanly(&arbiter(&["compare", "chess", "xiangqi"]), "9 × 10 points");
    let r = arbiter(&["compare", "chess", "go", "--json"]);
    assert_eq!(r.code, Some(1));
    let v: Value = serde_json::from_str(r.stdout.trim()).expect("JSON error object");
    assert_eq!(v["error"], "bad-input");
}

#[test]
fn bad_input_gets_a_message_and_exit_1() {
    fails_cleanly(&arbiter(&["compare", "chess", "no-such-ruleset"]), "no ruleset `no-such-ruleset`");
    fails_cleanly(
        &arbiter(&["compare", "chess", NO_EP, "--depth", "9"]),
        "--depth 9 is past the limit of 8",
    );
    fails_cleanly(&arbiter(&["compare", "chess", "chess", "--fen", "not a fen"]), "A (");
    // A position one ruleset reads and the other does not: the en-passant square means nothing
    // without en passant.
    fails_cleanly(
        &arbiter(&[
            "compare",
            "chess",
            NO_EP,
            "--fen",
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
        ]),
        "B (tests/compare/no-en-passant.rules): --fen",
    );
    fails_cleanly(
        &arbiter(&["compare", "chess", "chess", "--scenarios", "tests/compare/no-such-folder"]),
        "--scenarios tests/compare/no-such-folder: no such file or folder",
    );
    fails_cleanly(&arbiter(&["compare", "chess", "chess", "--games", "0", "--seed", "1"]), "--games 0");
    fails_cleanly(
        &arbiter(&["compare", "chess", "chess", "--games", "5", "--seed", "1", "--players", "perfect"]),
        "--players",
    );
    fails_cleanly(&arbiter(&["compare", "chess", "chess", "--positions", "99999999"]), "--positions");
}

#[test]
fn a_bad_ruleset_shows_its_diagnostics() {
    let r = arbiter(&["compare", "tests/diagnostics/allow-swap.rules", "chess"]);
    fails_cleanly(&r, "A: tests/diagnostics/allow-swap.rules has errors");
    assert!(r.stderr.contains("error[E0101]: unknown parameter `swp`"), "{}", r.stderr);
}

/// Simulated side by side, a game of four players reports each side's wins, one player for every
/// side by default; a player list of the wrong length is refused before anything runs.
#[test]
fn four_players_simulated_side_by_side_are_counted_per_side() {
    let r = common::arbiter(&[
        "compare",
        "rulesets/ludo.rules",
        "rulesets/ludo.rules",
        "--games",
        "12",
        "--seed",
        "3",
        "--max-plies",
        "3000",
        "--json",
    ]);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    let v: serde_json::Value = serde_json::from_str(&r.stdout).expect("JSON");
    let sim = &v["simulation"];
    assert_eq!(sim["players"].as_array().map(|p| p.len()), Some(4), "{sim}");
    let rows: Vec<&str> = sim["rows"]
        .as_array()
        .expect("rows")
        .iter()
        .filter_map(|r| r["what"].as_str())
        .collect();
    for side in ["red wins", "blue wins", "green wins", "yellow wins"] {
        assert!(rows.contains(&side), "{rows:?}");
    }
    let bad = common::arbiter(&[
        "compare",
        "rulesets/ludo.rules",
        "rulesets/ludo.rules",
        "--games",
        "4",
        "--seed",
        "3",
        "--players",
        "random,random",
    ]);
    assert_eq!(bad.code, Some(1), "{}", bad.stderr);
    assert!(bad.stderr.contains("4 separated by commas"), "{}", bad.stderr);
}
