//! Coordinate moves: from-square, to-square and a lowercase promotion letter (`e2e4`, `e7e8q`,
//! `h3e3`); castling as the royal's own move (`e1g1`); a drop as the kind's letter, `@` and the
//! square (`P@e4`); a continuing move as its start and every landing square (`c3e5g7`); a placed
//! piece as its square (`D4`), and where pieces fall, the file alone is read too (`d`); `pass`,
//! `swap`; the roll that starts a turn in a game of chance as `roll:` and the number (`roll:5`), as
//! FEN writes a position that has rolled; a piece borne off past its track's end as its square and
//! `off` (`c2off`).
//!
//! These are the engine's own names for moves: explanations and rulings quote them, and
//! [`crate::notation::uci`] reads and writes them for the engine protocols and the command line.

use super::{Move, MoveKind, Position};
use crate::model::Primitive;

/// The coordinate text of a move: its first part, then each later part of the turn, as
/// Fairy-Stockfish writes them: a piece placed or removed as `,` + the moved piece's landing square
/// + the square (`e2e4,e4d5`), a piece dropped onto the square the move left as its lowercase
/// letter (`b1c3h`; castling with the drop on the partner's square as partner square, castler's
/// square and letter, `h1e1h`).
pub fn to_text(pos: &Position, m: Move) -> String {
    let first = first_text(pos, m.first_part());
    if m.route >> 32 == 0 || pos.rules().turn.is_empty() {
        return first;
    }
    let rules = pos.rules();
    let b = &rules.board;
    let mut s = first;
    for i in 0..super::MAX_PARTS {
        let Some((part, kind, sq)) = pos.part_of(m, i) else { continue };
        match (&rules.turn[part].action, kind) {
            (crate::model::PartAction::Gate { .. }, Some(k)) => {
                let letter = rules.kind(k).letter.to_ascii_lowercase();
                if sq == m.from as usize {
                    s.push(letter);
                } else if matches!(m.kind, MoveKind::Castle(_)) {
                    s = format!("{}{}{letter}", b.name(sq), b.name(m.from as usize));
                } else {
                    s.push(letter);
                    s.push_str(&b.name(sq));
                }
            }
            _ => {
                s.push(',');
                s.push_str(&b.name(m.to as usize));
                s.push_str(&b.name(sq));
            }
        }
    }
    s
}

/// The coordinate text of a turn's first part (a move of one piece, a drop, a pass...).
pub fn first_text(pos: &Position, m: Move) -> String {
    let b = &pos.rules().board;
    match m.kind {
        MoveKind::Pass => return "pass".into(),
        MoveKind::Swap => return "swap".into(),
        MoveKind::Roll(i) => {
            return match (&pos.rules().roll, pos.roll_results().get(i as usize)) {
                (Some(r), Some(&(v, _))) => format!("roll:{}", r.show(v)),
                _ => format!("roll:{}", m.to),
            };
        }
        // Where the dice are used one by one, a piece may be borne off by either of two: the
        // text names the die (`g1off:6`).
        MoveKind::BearOff(_) => {
            return match pos.rules().roll.as_ref().and_then(|r| r.apart) {
                Some(_) => format!("{}off:{}", b.name(m.from as usize), m.to),
                None => format!("{}off", b.name(m.from as usize)),
            };
        }
        MoveKind::Drop(_) => {
            // Just the square where only one kind ever enters the board (tapatan's men), else
            // `X@e4`.
            if entering_kinds(pos.rules()) == 1 && m.promo == 0 {
                return b.name(m.to as usize);
            }
            return drop_text(pos, m);
        }
        MoveKind::Place(_) => {
            // Just the square when only one kind can be placed (go: `D4`), else `X@D4`.
            let rules = pos.rules();
            let placeable: Vec<usize> = (0..rules.kinds.len())
                .filter(|&k| rules.kinds[k].forms.iter().any(|f| f.primitive == Primitive::Place))
                .collect();
            let sq = b.name(m.to as usize);
            return match (placeable.as_slice(), pos.form_of_place(m)) {
                ([_], _) | (_, None) => sq,
                (_, Some(k)) => format!("{}@{sq}", rules.fen_text(k, crate::model::Side::FIRST)),
            };
        }
        _ => {}
    }
    let mut s = b.name(m.from as usize);
    for sq in pos.landings(m) {
        s.push_str(&b.name(sq));
    }
    if let Some(k) = m.promotion()
        && !forced_promotion(pos, m)
    {
        let kind = pos.rules().kind(k);
        // A promoted kind written `+P` is promoted to with `+`.
        s.push(if kind.plus { '+' } else { kind.letter.to_ascii_lowercase() });
    }
    s
}

/// How many kinds enter the board by a placement or a drop.
fn entering_kinds(rules: &crate::model::Rules) -> usize {
    let entering = rules
        .kinds
        .iter()
        .filter(|k| k.forms.iter().any(|f| matches!(f.primitive, Primitive::Place | Primitive::Drop)));
    // A drop that may go down either side up always names the side.
    if rules.kinds.iter().any(|k| k.forms.iter().any(|f| f.either_side)) {
        return usize::MAX;
    }
    entering.count()
}

/// A drop written with its kind's letter: `P@e4` (`+P@e4` for one put down promoted side up).
fn drop_text(pos: &Position, m: Move) -> String {
    let rules = pos.rules();
    let letter = match m.promotion() {
        Some(k) => rules.fen_text(k, crate::model::Side::FIRST),
        None => pos
            .form_of_place(m)
            .map_or("?".into(), |k| rules.fen_text(k, crate::model::Side::FIRST)),
    };
    format!("{letter}@{}", rules.board.name(m.to as usize))
}

/// Does the moving piece's promotion offer one choice only (then the text leaves the letter out:
/// a crowned draughts man is `g7f8`; `g7f8k` is read too)?
fn forced_promotion(pos: &Position, m: Move) -> bool {
    let rules = pos.rules();
    let kind = pos.piece_at(m.from as usize).map(|p| p.0);
    kind.and_then(|k| rules.kind(k).promotion.as_ref())
        .is_some_and(|p| p.choices.len() == 1 && !p.optional)
}

/// A move as written, before it is matched against the position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveText {
    pub from: usize,
    pub to: usize,
    pub promo: Option<char>,
}

/// Reads `e2e4` / `e7e8q` / `a10a9` against the board's coordinate names.
pub fn parse_text(pos: &Position, text: &str) -> Option<MoveText> {
    let b = &pos.rules().board;
    // Split into file letters, rank digits, file letters, rank digits, optional letter.
    let bytes: Vec<char> = text.trim().chars().collect();
    let mut i = 0;
    let mut take = |pred: fn(char) -> bool| {
        let start = i;
        while i < bytes.len() && pred(bytes[i]) {
            i += 1;
        }
        bytes[start..i].iter().collect::<String>()
    };
    let f1 = take(|c| c.is_ascii_alphabetic());
    let r1 = take(|c| c.is_ascii_digit());
    let f2 = take(|c| c.is_ascii_alphabetic());
    let r2 = take(|c| c.is_ascii_digit());
    let mut rest = take(|c| c.is_ascii_alphabetic());
    // A promotion to a kind lettered `+P` is written with `+` (`c2c3+`).
    if rest.is_empty() && bytes.get(i) == Some(&'+') {
        rest.push('+');
        i += 1;
    }
    if i != bytes.len() || rest.chars().count() > 1 {
        return None;
    }
    let from = b.parse_square(&format!("{f1}{r1}"))?;
    let to = b.parse_square(&format!("{f2}{r2}"))?;
    Some(MoveText {
        from,
        to,
        promo: rest.chars().next(),
    })
}

/// The legal move a text names, if any.
pub fn find(pos: &Position, text: &str) -> Option<Move> {
    let want = text.trim();
    // A drop may carry a check or mate sign, as SAN writes it (`N@f3+`).
    let want = if want.contains('@') {
        want.trim_end_matches(['+', '#'])
    } else {
        want
    };
    let legal = pos.legal_moves();
    // A roll's dice in any order (`roll:3-5` for `roll:5-3`).
    if let (Some(n), Some(r)) = (want.strip_prefix("roll:"), &pos.rules().roll)
        && let Some(v) = r.read(n)
    {
        return legal
            .iter()
            .find(|m| matches!(m.kind, MoveKind::Roll(i) if pos.roll_results().get(i as usize).is_some_and(|x| x.0 == v)))
            .copied();
    }
    let mut named = legal.iter().filter(|m| to_text(pos, **m).eq_ignore_ascii_case(want));
    if let Some(m) = named.next() {
        // Two moves written alike (clauses giving moves between the same squares that do
        // different things) name neither.
        return named.next().is_none().then_some(*m);
    }
    // A drop written with its letter where the square alone would do (`M@b2` for `b2`).
    if want.contains('@')
        && let Some(m) = legal
            .iter()
            .find(|m| matches!(m.kind, MoveKind::Drop(_)) && m.route >> 32 == 0 && drop_text(pos, **m).eq_ignore_ascii_case(want))
    {
        return Some(*m);
    }
    // A forced promotion may still be written with its letter.
    if let Some(m) = legal.iter().find(|m| {
        m.promotion().is_some_and(|k| {
            forced_promotion(pos, **m) && format!("{}{}", to_text(pos, **m), pos.rules().kind(k).letter).eq_ignore_ascii_case(want)
        })
    }) {
        return Some(*m);
    }
    // A file alone, where pieces fall: the one placement in that file.
    let b = &pos.rules().board;
    let file = b.file_names.iter().position(|f| f.eq_ignore_ascii_case(want))?;
    let falling = |m: &Move| {
        matches!(m.kind, MoveKind::Place(_) | MoveKind::Drop(_)) && (m.to as usize) < b.squares() && b.file(m.to as usize) == file
    };
    let mut hits = legal.iter().filter(|m| falling(m));
    let first = hits.next()?;
    let falls = pos.rules().kinds.iter().any(|k| k.forms.iter().any(|f| f.falling.is_some()));
    (falls && hits.next().is_none()).then_some(*first)
}
