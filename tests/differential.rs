//! Differential test of `rulesets/chess.rules` against the independent `shakmaty` crate.
//!
//! Seeded random games from the start position and the perft positions visit thousands of
//! positions; at each one both engines must agree on the legal moves (as UCI text), check,
//! checkmate, stalemate, insufficient material (as far as the rule book's list goes), the FEN and
//! repetition counts. Perft divide at depth 2 is compared on a sample of the visited positions.
//! Fixed lines test the repetition and move-counter end rules, including checkmate taking
//! precedence over the seventy-five-move rule. Every failure names the FEN and the moves that led
//! to it.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use arbiter::game::{Engine, Game, Position as ArbiterPosition, Status};
use arbiter::model::Side;
use arbiter::notation::uci;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use shakmaty::fen::Fen;
use shakmaty::zobrist::Zobrist64;
use shakmaty::{Bitboard, Board, CastlingMode, Chess, Color, EnPassantMode, Move, Position};

/// Plies per random game at most.
const MAX_PLIES: usize = 120;
/// Random games per start position.
const GAMES_PER_START: u64 = 30;
/// Positions the random games must visit in total.
const MIN_POSITIONS: usize = 5_000;
/// Visited positions whose perft divide is compared.
const PERFT_SAMPLES: usize = 200;

use crate::common;

use common::root;

fn chess() -> Engine {
    common::bundled("chess")
}

/// Positions known to trip move generators (the "TalkChess perft tests" by Martin Sedlak): en
/// passant that would expose the king or that gives check, castling that gives check or is
/// prevented, promotion out of or into check, stalemate and checkmate in one.
const TRICKY: [&str; 14] = [
    "3k4/3p4/8/K1P4r/8/8/8/8 b - - 0 1",
    "8/8/4k3/8/2p5/8/B2P2K1/8 w - - 0 1",
    "8/8/1k6/2b5/2pP4/8/5K2/8 b - d3 0 1",
    "5k2/8/8/8/8/8/8/4K2R w K - 0 1",
    "3k4/8/8/8/8/8/8/R3K3 w Q - 0 1",
    "r3k2r/1b4bq/8/8/8/8/7B/R3K2R w KQkq - 0 1",
    "r3k2r/8/3Q4/8/8/5q2/8/R3K2R b KQkq - 0 1",
    "2K2r2/4P3/8/8/8/8/8/3k4 w - - 0 1",
    "8/8/1P2K3/8/2n5/1q6/8/5k2 b - - 0 1",
    "4k3/1P6/8/8/8/8/K7/8 w - - 0 1",
    "8/P1k5/K7/8/8/8/8/8 w - - 0 1",
    "K1k5/8/P7/8/8/8/8/8 w - - 0 1",
    "8/k1P5/8/1K6/8/8/8/8 w - - 0 1",
    "8/8/2k5/5q2/5n2/8/5K2/8 b - - 0 1",
];

/// The start position and the perft positions of `tests/perft/chess.txt`, then [`TRICKY`].
fn start_fens() -> Vec<String> {
    let data = std::fs::read_to_string(root().join("tests/perft/chess.txt")).expect("perft data file");
    let fens: Vec<String> = data
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| l.split(';').next().expect("a FEN first").trim().to_string())
        .collect();
    assert!(
        fens.len() >= 7,
        "expected the start position and six perft positions, found {}",
        fens.len()
    );
    fens.into_iter().chain(TRICKY.iter().map(|f| f.to_string())).collect()
}

fn shakmaty_from_fen(fen: &str, context: &str) -> Chess {
    let parsed = Fen::from_ascii(fen.as_bytes()).unwrap_or_else(|e| panic!("shakmaty cannot read {fen}: {e} ({context})"));
    parsed
        .into_position(CastlingMode::Standard)
        .unwrap_or_else(|e| panic!("shakmaty rejects {fen}: {e} ({context})"))
}

fn shakmaty_fen(pos: &Chess) -> String {
    Fen::from_position(pos, EnPassantMode::Always).to_string()
}

fn fields(fen: &str, n: usize) -> Vec<&str> {
    fen.split_whitespace().take(n).collect()
}

fn uci_of(m: &Move) -> String {
    m.to_uci(CastlingMode::Standard).to_string()
}

/// Where a position came from, for failure messages.
#[derive(Clone, Debug)]
struct Line {
    start: String,
    moves: Vec<String>,
}

impl Line {
    fn describe(&self, fen: &str) -> String {
        format!("position {fen}, reached from {} by moves [{}]", self.start, self.moves.join(" "))
    }
}

/// What the random games covered.
#[derive(Debug, Default)]
struct Coverage {
    positions: usize,
    en_passant: usize,
    castling: usize,
    promotion: usize,
    checkmate: usize,
    stalemate: usize,
    insufficient: usize,
    repetitions: usize,
}

/// Material that the rule book lists as insufficient (FIDE 5.2.2 of the seed edition): K v K,
/// K+B v K, K+N v K, K+B v K+B with both bishops on squares of one colour.
fn listed_insufficient(board: &Board) -> bool {
    let extras = |c: Color| board.by_color(c) & !board.kings();
    let (w, b) = (extras(Color::White), extras(Color::Black));
    let minor = |bb: Bitboard| bb.count() == 1 && (bb & (board.bishops() | board.knights())).any();
    let bishop = |bb: Bitboard| bb.count() == 1 && (bb & board.bishops()).any();
    match (w.count(), b.count()) {
        (0, 0) => true,
        (1, 0) => minor(w),
        (0, 1) => minor(b),
        (1, 1) => {
            let bishops = board.bishops();
            bishop(w) && bishop(b) && ((bishops & Bitboard::DARK_SQUARES).is_empty() || (bishops & Bitboard::LIGHT_SQUARES).is_empty())
        }
        _ => false,
    }
}

/// Compares one position of a game with shakmaty's; returns shakmaty's legal moves by UCI text.
fn compare(
    engine: &Engine,
    game: &Game,
    sh: &Chess,
    seen: &HashMap<Zobrist64, usize>,
    line: &Line,
    cov: &mut Coverage,
) -> BTreeMap<String, Move> {
    let pos = game.current();
    let fen = pos.fen();
    let here = line.describe(&fen);

    // The same position on both sides: all six FEN fields, en-passant square after every double step.
    assert_eq!(
        fen,
        shakmaty_fen(sh),
        "arbiter's FEN differs from shakmaty's after the same moves; {here}"
    );

    // Legal moves.
    let legal = pos.legal_moves();
    let ours: Vec<String> = legal.iter().map(|m| uci::to_text(pos, *m)).collect();
    let our_set: BTreeSet<String> = ours.iter().cloned().collect();
    assert_eq!(our_set.len(), ours.len(), "arbiter generates a move twice: {ours:?}; {here}");
    let theirs: BTreeMap<String, Move> = sh.legal_moves().iter().map(|m| (uci_of(m), *m)).collect();
    let their_set: BTreeSet<String> = theirs.keys().cloned().collect();
    assert_eq!(
        our_set,
        their_set,
        "legal moves differ: arbiter only {:?}, shakmaty only {:?}; {here}",
        our_set.difference(&their_set).collect::<Vec<_>>(),
        their_set.difference(&our_set).collect::<Vec<_>>()
    );

    // Check, checkmate, stalemate.
    assert_eq!(
        pos.in_check(),
        sh.is_check(),
        "in check: arbiter {}, shakmaty {}; {here}",
        pos.in_check(),
        sh.is_check()
    );
    let outcome = game.outcome();
    let reason = outcome.reason.as_deref();
    assert_eq!(
        reason == Some("checkmate"),
        sh.is_checkmate(),
        "checkmate: arbiter says {outcome:?}; {here}"
    );
    assert_eq!(
        reason == Some("stalemate"),
        sh.is_stalemate(),
        "stalemate: arbiter says {outcome:?}; {here}"
    );
    if sh.is_checkmate() {
        assert_eq!(outcome.status, Status::Win, "{here}");
        assert_eq!(outcome.winner, Some(pos.side_to_move().other()), "the mated side must lose; {here}");
    }
    if sh.is_stalemate() {
        assert_eq!(outcome.status, Status::Draw, "{here}");
    }

    // Insufficient material: arbiter's list is narrower than shakmaty's rule.
    let insufficient = reason == Some("insufficient-material");
    if insufficient {
        assert!(
            sh.is_insufficient_material(),
            "arbiter calls material insufficient, shakmaty does not; {here}"
        );
    }
    if sh.is_insufficient_material() && listed_insufficient(sh.board()) && !legal.is_empty() {
        assert_eq!(
            reason,
            Some("insufficient-material"),
            "listed insufficient material not drawn: {outcome:?}; {here}"
        );
    }

    // Repetition: how often this position has occurred, by shakmaty's hash (which includes castling
    // rights and a legal en-passant square only).
    let occurrences = seen.get(&sh.zobrist_hash(EnPassantMode::Legal)).copied().unwrap_or(0);
    assert_eq!(game.occurrences(), occurrences, "occurrences of the position differ; {here}");

    // FEN round trip: arbiter reads its own FEN back, and shakmaty reads it to the same position.
    let again = engine
        .from_fen(&fen)
        .unwrap_or_else(|e| panic!("arbiter cannot read its own FEN: {e}; {here}"));
    assert_eq!(again.fen(), fen, "arbiter's FEN does not survive a round trip; {here}");
    let read = shakmaty_from_fen(&fen, &here);
    assert_eq!(
        fields(&shakmaty_fen(&read), 4),
        fields(&fen, 4),
        "shakmaty reads arbiter's FEN differently; {here}"
    );

    cov.positions += 1;
    cov.en_passant += usize::from(theirs.values().any(|m| m.is_en_passant()));
    cov.castling += usize::from(theirs.values().any(|m| m.is_castle()));
    cov.promotion += usize::from(theirs.values().any(|m| m.is_promotion()));
    cov.checkmate += usize::from(sh.is_checkmate());
    cov.stalemate += usize::from(sh.is_stalemate());
    cov.insufficient += usize::from(insufficient);
    cov.repetitions += usize::from(occurrences > 1);
    theirs
}

/// Picks a move: uniformly from arbiter's legal moves, or in a biased game, with some
/// probability, among the captures, promotions and castlings (and sometimes a move that ends
/// the game), so that games reach endgames and special moves.
fn pick(rng: &mut ChaCha8Rng, pos: &ArbiterPosition, theirs: &BTreeMap<String, Move>, biased: bool) -> usize {
    let legal = pos.legal_moves();
    if biased {
        if rng.gen_bool(0.5) {
            let ending: Vec<usize> = (0..legal.len())
                .filter(|&i| {
                    let mut after = pos.clone();
                    after.play_unchecked(legal[i]);
                    after.legal_moves().is_empty()
                })
                .collect();
            if !ending.is_empty() {
                return ending[rng.gen_range(0..ending.len())];
            }
        }
        let special: Vec<usize> = (0..legal.len())
            .filter(|&i| {
                let m = theirs[&uci::to_text(pos, legal[i])];
                m.is_capture() || m.is_promotion() || m.is_castle()
            })
            .collect();
        if !special.is_empty() && rng.gen_bool(0.7) {
            return special[rng.gen_range(0..special.len())];
        }
    }
    rng.gen_range(0..legal.len())
}

/// A position visited by the random games, for the perft comparison.
struct Visited {
    fen: String,
    line: Line,
}

fn random_games(engine: &Engine, cov: &mut Coverage) -> Vec<Visited> {
    let mut visited = Vec::new();
    for (si, start) in start_fens().iter().enumerate() {
        for g in 0..GAMES_PER_START {
            let seed = si as u64 * 1_000 + g;
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let biased = g % 2 == 1;
            let pos = engine
                .from_fen(start)
                .unwrap_or_else(|e| panic!("arbiter cannot read {start}: {e}"));
            let mut game = Game::new(engine.clone(), pos);
            let mut sh = shakmaty_from_fen(start, "a start position");
            let mut seen: HashMap<Zobrist64, usize> = HashMap::new();
            let mut line = Line {
                start: start.clone(),
                moves: Vec::new(),
            };
            loop {
                *seen.entry(sh.zobrist_hash(EnPassantMode::Legal)).or_default() += 1;
                let theirs = compare(engine, &game, &sh, &seen, &line, cov);
                visited.push(Visited {
                    fen: game.current().fen(),
                    line: line.clone(),
                });
                if game.ply() >= MAX_PLIES || game.outcome().status != Status::Ongoing {
                    break;
                }
                let pos = game.current();
                let m = pos.legal_moves()[pick(&mut rng, pos, &theirs, biased)];
                let text = uci::to_text(pos, m);
                sh.play_unchecked(theirs[&text]);
                game.play(m);
                line.moves.push(text);
            }
        }
    }
    visited
}

/// Arbiter's and shakmaty's depth-2 perft per first move.
fn compare_perft_divide(engine: &Engine, v: &Visited) {
    let here = v.line.describe(&v.fen);
    let pos = engine.from_fen(&v.fen).unwrap_or_else(|e| panic!("{e}; {here}"));
    let ours: BTreeMap<String, u64> = pos.perft_divide(2).into_iter().map(|(m, n)| (uci::to_text(&pos, m), n)).collect();
    let sh = shakmaty_from_fen(&v.fen, &here);
    let theirs: BTreeMap<String, u64> = sh
        .legal_moves()
        .iter()
        .map(|m| {
            let mut child = sh.clone();
            child.play_unchecked(*m);
            (uci_of(m), child.legal_moves().len() as u64)
        })
        .collect();
    let wrong: Vec<String> = ours
        .keys()
        .chain(theirs.keys())
        .collect::<BTreeSet<_>>()
        .into_iter()
        .filter(|k| ours.get(*k) != theirs.get(*k))
        .map(|k| format!("{k}: arbiter {:?}, shakmaty {:?}", ours.get(k), theirs.get(k)))
        .collect();
    assert!(wrong.is_empty(), "perft divide 2 differs: {wrong:?}; {here}");
}

#[test]
fn random_games_agree_with_shakmaty() {
    let engine = chess();
    let mut cov = Coverage::default();
    let visited = random_games(&engine, &mut cov);
    assert!(cov.positions >= MIN_POSITIONS, "only {} positions visited: {cov:?}", cov.positions);
    assert!(cov.en_passant > 0, "no position with an en-passant capture: {cov:?}");
    assert!(cov.castling > 0, "no position with a castling move: {cov:?}");
    assert!(cov.promotion > 0, "no position with a promotion: {cov:?}");
    assert!(cov.checkmate > 0, "no checkmate reached: {cov:?}");
    assert!(cov.stalemate > 0, "no stalemate reached: {cov:?}");
    assert!(cov.insufficient > 0, "no insufficient-material draw reached: {cov:?}");

    let step = visited.len() / PERFT_SAMPLES;
    let mut sampled = 0;
    for v in visited.iter().step_by(step).take(PERFT_SAMPLES) {
        compare_perft_divide(&engine, v);
        sampled += 1;
    }
    assert_eq!(sampled, PERFT_SAMPLES);
    println!("{cov:?}");
}

/// Plays UCI moves, asserting each is legal.
fn play(game: &mut Game, moves: &[&str]) {
    for text in moves {
        let pos = game.current();
        let m = uci::find(pos, text).unwrap_or_else(|| panic!("{text} is not legal in {}", pos.fen()));
        game.play(m);
    }
}

fn claimable(game: &Game) -> Vec<String> {
    game.outcome().claimable.into_iter().map(|(reason, _)| reason).collect()
}

#[test]
fn repetition_threefold_is_claimable_and_fivefold_draws() {
    let engine = chess();
    let mut game = Game::new(engine.clone(), engine.start());
    let cycle = ["g1f3", "g8f6", "f3g1", "f6g8"];
    let expect = [(2, false), (3, true), (4, true)];
    for (occurrences, threefold) in expect {
        play(&mut game, &cycle);
        let out = game.outcome();
        assert_eq!(game.occurrences(), occurrences, "after {} plies", game.ply());
        assert_eq!(out.status, Status::Ongoing, "after {} plies: {out:?}", game.ply());
        assert_eq!(
            claimable(&game).contains(&"threefold-repetition".to_string()),
            threefold,
            "threefold claimable after {} plies: {out:?}",
            game.ply()
        );
    }
    play(&mut game, &cycle);
    let out = game.outcome();
    assert_eq!(game.occurrences(), 5);
    assert_eq!(out.status, Status::Draw, "{out:?}");
    assert_eq!(out.reason.as_deref(), Some("fivefold-repetition"), "{out:?}");
}

#[test]
fn repetition_counts_en_passant_only_when_capturable() {
    let engine = chess();
    // After 1. e4 the FEN names e3, but no black pawn can capture: the position after 3. Ng1 is the
    // same one, so 5. Ng1 makes it threefold.
    let mut game = Game::new(engine.clone(), engine.start());
    play(&mut game, &["e2e4"]);
    assert!(game.current().fen().contains(" e3 "), "{}", game.current().fen());
    play(&mut game, &["g8f6", "g1f3", "f6g8", "f3g1"]);
    assert_eq!(game.occurrences(), 2, "{}", game.current().fen());
    play(&mut game, &["g8f6", "g1f3", "f6g8", "f3g1"]);
    assert_eq!(game.occurrences(), 3, "{}", game.current().fen());
    assert!(
        claimable(&game).contains(&"threefold-repetition".to_string()),
        "{:?}",
        game.outcome()
    );

    // After 2... d5 white may take en passant on d6; the same pieces later without that right
    // are a different position (FIDE 9.2.3).
    let mut game = Game::new(engine.clone(), engine.start());
    play(&mut game, &["e2e4", "g8f6", "e4e5", "d7d5"]);
    assert!(
        uci::find(game.current(), "e5d6").is_some(),
        "en passant is legal in {}",
        game.current().fen()
    );
    let cycle = ["g1f3", "f6g8", "f3g1", "g8f6"];
    for occurrences in [1, 2, 3] {
        play(&mut game, &cycle);
        assert_eq!(game.occurrences(), occurrences, "{}", game.current().fen());
        // At the second occurrence the third is about to appear: the position after Nf3 (which
        // has no en-passant right, whatever came before it) has occurred twice, so white may
        // claim by declaring Nf3 (FIDE 9.2.1.1).
        assert_eq!(
            claimable(&game).contains(&"threefold-repetition".to_string()),
            occurrences >= 2,
            "{} after {} plies: {:?}",
            game.current().fen(),
            game.ply(),
            game.outcome()
        );
        assert_eq!(
            claim_moves(&game, "threefold-repetition"),
            if occurrences == 2 { vec!["g1f3".to_string()] } else { Vec::new() },
            "{}",
            game.current().fen()
        );
    }
}

/// The moves that would produce the claimable draw `reason` (as coordinates).
fn claim_moves(game: &Game, reason: &str) -> Vec<String> {
    let out = game.outcome();
    let pos = game.current();
    out.claim_moves
        .iter()
        .filter(|(r, _)| r == reason)
        .flat_map(|(_, ms)| ms.iter().map(|m| uci::to_text(pos, *m)))
        .collect()
}

#[test]
fn a_repetition_about_to_appear_may_be_claimed_with_the_move() {
    let engine = chess();
    let mut game = Game::new(engine.clone(), engine.start());
    play(&mut game, &["g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1"]);
    // Ng8 would make the position after it occur a third time.
    assert_eq!(game.occurrences(), 2);
    assert_eq!(claim_moves(&game, "threefold-repetition"), vec!["f6g8"]);
    assert!(claimable(&game).contains(&"threefold-repetition".to_string()));
    let said = game.outcome().message(game.current());
    assert!(said.contains("black may claim a draw: by declaring Ng8"), "{said}");
    game.claim("threefold-repetition").expect("claimable by declaring Ng8");
    assert_eq!(game.outcome().status, Status::Draw);
}

/// White: Kg6, Rb1, Pa2; black: Kh8. Rb8 mates, Rb2 is quiet, a3 resets the clock.
fn clock_position(engine: &Engine, halfmove: u32) -> Game {
    let fen = format!("7k/8/6K1/8/8/8/P7/1R6 w - - {halfmove} 90");
    let pos = engine.from_fen(&fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    Game::new(engine.clone(), pos)
}

#[test]
fn fifty_move_rule_is_claimable_after_a_hundred_plies() {
    let engine = chess();
    // One ply short: the draw is about to appear, by any move that neither captures nor moves
    // a pawn (FIDE 9.3.1), and by no other.
    let game = clock_position(&engine, 99);
    assert!(claimable(&game).contains(&"fifty-move-rule".to_string()), "{:?}", game.outcome());
    let by = claim_moves(&game, "fifty-move-rule");
    assert!(by.contains(&"b1b2".to_string()) && by.contains(&"g6f6".to_string()), "{by:?}");
    assert!(!by.iter().any(|m| m.starts_with("a2")), "a pawn move resets the count: {by:?}");
    let earlier = clock_position(&engine, 98);
    assert!(claimable(&earlier).is_empty(), "{:?}", earlier.outcome());

    let mut quiet = game.clone();
    play(&mut quiet, &["b1b2"]);
    let out = quiet.outcome();
    assert_eq!(quiet.current().halfmove_clock(), 100, "{}", quiet.current().fen());
    assert_eq!(out.status, Status::Ongoing, "{out:?}");
    assert!(claimable(&quiet).contains(&"fifty-move-rule".to_string()), "{out:?}");

    let mut pawn = game.clone();
    play(&mut pawn, &["a2a3"]);
    assert_eq!(pawn.current().halfmove_clock(), 0, "{}", pawn.current().fen());
    assert!(claimable(&pawn).is_empty(), "{:?}", pawn.outcome());
}

#[test]
fn seventy_five_move_rule_draws_unless_the_last_move_mates() {
    let engine = chess();
    let game = clock_position(&engine, 149);
    assert_eq!(game.outcome().status, Status::Ongoing, "{:?}", game.outcome());
    assert!(claimable(&game).contains(&"fifty-move-rule".to_string()), "{:?}", game.outcome());

    let mut quiet = game.clone();
    play(&mut quiet, &["b1b2"]);
    let out = quiet.outcome();
    assert_eq!(quiet.current().halfmove_clock(), 150, "{}", quiet.current().fen());
    assert_eq!(out.status, Status::Draw, "{out:?}");
    assert_eq!(out.reason.as_deref(), Some("seventy-five-move-rule"), "{out:?}");

    // Checkmate takes precedence (FIDE 9.6.2).
    let mut mate = game.clone();
    play(&mut mate, &["b1b8"]);
    let out = mate.outcome();
    let fen = mate.current().fen();
    assert_eq!(mate.current().halfmove_clock(), 150, "{fen}");
    assert!(shakmaty_from_fen(&fen, "after Rb8").is_checkmate(), "shakmaty: {fen} is checkmate");
    assert_eq!(out.reason.as_deref(), Some("checkmate"), "{fen}: {out:?}");
    assert_eq!((out.status, out.winner), (Status::Win, Some(Side::FIRST)), "{fen}: {out:?}");

    let mut pawn = game.clone();
    play(&mut pawn, &["a2a3"]);
    assert_eq!(pawn.outcome().status, Status::Ongoing, "{:?}", pawn.outcome());
}
