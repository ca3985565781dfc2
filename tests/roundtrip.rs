//! What Arbiter writes it reads back: along random games of every bundled ruleset, every variant
//! and every ruleset of tests/language, each position's FEN reads back to the same FEN and the same
//! legal moves, and every legal move's text — in coordinates and in the ruleset's notation (SAN,
//! WXF), turns of several parts included — reads back to the same move.

use std::path::Path;

use arbiter::game::Engine;
use arbiter::notation::{self, uci};
use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::{RngCore, SeedableRng};

use crate::common;

fn rulesets() -> Vec<String> {
    let mut out = Vec::new();
    for dir in ["rulesets", "tests/variants", "tests/language"] {
        for e in std::fs::read_dir(common::root().join(dir)).expect("the folder exists").flatten() {
            let name = e.file_name().to_string_lossy().to_string();
            if name.ends_with(".rules") {
                out.push(format!("{dir}/{name}"));
            }
        }
    }
    out.sort();
    out
}

fn texts(pos: &arbiter::game::Position) -> Vec<String> {
    let mut v: Vec<String> = pos.legal_moves().into_iter().map(|m| uci::to_text(pos, m)).collect();
    v.sort();
    v
}

#[test]
fn every_position_played_reads_back_from_its_fen() {
    let mut rng = ChaCha8Rng::seed_from_u64(4);
    let mut positions = 0;
    for rel in rulesets() {
        let e: Engine = common::engine(&rel, &[]);
        let (games, plies) = if e.rules().board.squares() > 100 { (2, 40) } else { (6, 120) };
        for _ in 0..games {
            let mut pos = e.start();
            for _ in 0..plies {
                let fen = pos.fen();
                let back = e.from_fen(&fen).unwrap_or_else(|err| {
                    panic!(
                        "{}: the position played is refused as FEN `{fen}`: {err}",
                        Path::new(&rel).display()
                    )
                });
                assert_eq!(back.fen(), fen, "{rel}: the FEN read back is written differently");
                let moves = texts(&pos);
                // A move refused only because it repeats an earlier position of the game played is
                // legal from the FEN, which records no history (as FEN never does).
                let mut from_fen = texts(&back);
                from_fen.retain(|t| {
                    moves.contains(t) || !matches!(pos.explain(t), arbiter::game::Ruling::Illegal(ref i) if i.code == "repetition")
                });
                assert_eq!(from_fen, moves, "{rel}: the FEN read back has other moves: `{fen}`");
                positions += 1;
                if moves.is_empty() {
                    break;
                }
                let m = pos.legal_moves()[(rng.next_u32() as usize) % moves.len()];
                pos.play_unchecked(m);
            }
        }
    }
    assert!(positions > 1000, "only {positions} positions were tried");
}

#[test]
fn every_move_written_reads_back_as_the_same_move() {
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let mut moves_read = 0;
    for rel in rulesets() {
        let e: Engine = common::engine(&rel, &[]);
        let (games, plies) = if e.rules().board.squares() > 100 { (1, 30) } else { (3, 80) };
        for _ in 0..games {
            let mut pos = e.start();
            for _ in 0..plies {
                let legal = pos.legal_moves();
                if legal.is_empty() {
                    break;
                }
                // Every move where there are few; a sample of 48 where there are thousands (amazons).
                let sample: Vec<_> = if legal.len() <= 96 {
                    legal.clone()
                } else {
                    (0..48).map(|_| legal[(rng.next_u32() as usize) % legal.len()]).collect()
                };
                for &m in &sample {
                    let coords = uci::to_text(&pos, m);
                    assert_eq!(
                        uci::find(&pos, &coords),
                        Some(m),
                        "{rel}: `{coords}` reads back as another move at `{}`",
                        pos.fen()
                    );
                    let text = notation::written(&pos, m);
                    assert_eq!(
                        notation::find(&pos, &text),
                        Some(m),
                        "{rel}: `{text}` ({coords}) reads back as another move, or none, at `{}`",
                        pos.fen()
                    );
                    moves_read += 1;
                }
                pos.play_unchecked(legal[(rng.next_u32() as usize) % legal.len()]);
            }
        }
    }
    assert!(moves_read > 10_000, "only {moves_read} moves were read back");
}

/// The variant whose pawn may promote or stay: a pawn that stays on the far ranks is written and read.
#[test]
fn an_optional_promotion_declined_reads_back() {
    let e = common::engine("tests/variants/optional-promotion.rules", &[]);
    let mut pos = e.from_fen("k7/8/1P6/8/8/8/8/7K w - - 0 1").expect("valid");
    let m = uci::find(&pos, "b6b7").expect("the pawn may stay a pawn on the far ranks");
    pos.play_unchecked(m);
    let fen = pos.fen();
    assert_eq!(e.from_fen(&fen).expect("reads back").fen(), fen);
}
