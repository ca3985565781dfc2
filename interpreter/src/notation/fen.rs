//! FEN: `pieces side castling en-passant halfmove fullmove`, with the ruleset's letters and board
//! size. Castling rights are `K`/`Q` (partner towards the higher / lower file) or the partner's
//! file letter (Shredder-FEN); `-` for none. Where captures go to hand, the pieces in hand follow
//! the board in brackets (`…/RNBQKB1R[Pn]`: a first player's pawn, a second player's knight) and a
//! promoted piece carries `~` after its letter (`Q~`), as lichess and Fairy-Stockfish write them.
//! In a game with a roll, a side that has rolled carries the number in a field `roll:5` after the
//! en-passant field and the counts' (none: still to roll); where the dice are used one by one,
//! the dice it has still to use (`roll:5-3`, then `roll:3`). Where pieces stack, a square holding
//! several is written as the count and the letter in parentheses (`(5C)`).

//!
//! This module is the first of the two steps every position takes (see [`crate::model::setup`]): text ⇄
//! [`Setup`]. It knows the ruleset's letters and board, never the engine.

use thiserror::Error;

use crate::model::*;
pub use crate::model::{CastlingRight, Setup, Wing};

/// Why a FEN was rejected.
#[derive(Debug, Error, Clone, PartialEq)]
pub enum FenError {
    #[error("FEN is empty")]
    Empty,
    #[error("the board field has {found} ranks; this board has {expected}")]
    RankCount { found: usize, expected: usize },
    #[error("rank {rank} (field 1, the {nth} rank from the top) has {found} squares; this board has {expected} files")]
    RankWidth {
        /// The rank's name on this board (`8` for the first rank written in chess).
        rank: String,
        /// Its place in the field, counted from the top (`1st`).
        nth: String,
        found: usize,
        expected: usize,
    },
    #[error("`{letter}` in the board field is not a piece of this ruleset (its letters: {known})")]
    UnknownPiece { letter: char, known: String },
    #[error("side to move `{found}` (field 2): expected {expected}")]
    Side { found: String, expected: String },
    #[error("castling field (field 3): {0}")]
    Castling(String),
    #[error("en-passant field (field 4): {0}")]
    EnPassant(String),
    #[error("{field} (field {index}) must be a whole number, not `{found}`")]
    Number { field: &'static str, index: usize, found: String },
    #[error("{field} (field {index}) `{found}` is too large: at most {max}")]
    TooLarge {
        field: &'static str,
        index: usize,
        found: String,
        max: u64,
    },
    #[error("{field} (field {index}) `{found}` is written with a leading zero")]
    LeadingZero { field: &'static str, index: usize, found: String },
    #[error("too many fields: {0}")]
    TooManyFields(usize),
    #[error("illegal position: {0}")]
    Illegal(String),
    /// The text reads, but the rules refuse the position it describes.
    #[error("{}", position_message(.0))]
    Position(#[from] crate::game::PositionError),
    #[error("pieces in hand (field 1, in brackets): {0}")]
    Hand(String),
    #[error("count field (after the en-passant field): {0}")]
    Count(String),
    #[error("roll field (after the en-passant field): {0}")]
    Roll(String),
}

/// A whole number, maybe negative.
fn is_int(s: &str) -> bool {
    let d = s.strip_prefix('-').unwrap_or(s);
    !d.is_empty() && d.bytes().all(|c| c.is_ascii_digit())
}

/// The largest halfmove clock a FEN may give: the engine's move counters hold 16 bits (and stop
/// there in play, which is far past any end rule's count).
pub const MAX_HALFMOVE: u16 = u16::MAX;
/// The largest move number a FEN may give. The engine counts in 64 bits, so a game that starts
/// here never wraps, and every number it writes (at most 2^63 − 1 more moves on) reads back.
pub const MAX_FULLMOVE: u64 = u64::MAX >> 1;

/// `1st`, `2nd`, `3rd`, `4th`, … `11th`, `21st`.
fn ordinal(n: usize) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

/// Reads a FEN against a ruleset. Missing trailing fields take their defaults (`w - - 0 1`).
///
/// # Errors
/// Which field is wrong, and what was expected.
pub fn parse_setup(rules: &Rules, text: &str) -> Result<Setup, FenError> {
    read_setup(rules, text, true)
}

/// A ruleset's own setup: with more than two players it may hold the pieces of every side
/// declared, and those of the sides not in play are left off the board (see `play ... when`).
pub fn parse_ruleset_setup(rules: &Rules, text: &str) -> Result<Setup, FenError> {
    read_setup(rules, text, false)
}

fn read_setup(rules: &Rules, text: &str, strict: bool) -> Result<Setup, FenError> {
    let b = &rules.board;
    let fields: Vec<&str> = text.split_whitespace().collect();
    if fields.is_empty() {
        return Err(FenError::Empty);
    }
    // The counts' fields (`3+3`, one per declared count, first player's value first) follow the
    // en-passant field, as Fairy-Stockfish writes three-check's checks left; they may be left out.
    let is_count = |f: &str| f.split_once('+').is_some_and(|(a, b)| is_int(a) && is_int(b));
    let mut tally_fields: Vec<&str> = Vec::new();
    let mut fields = fields;
    if !rules.counts.is_empty() {
        while fields.len() > 4 && tally_fields.len() < rules.counts.len() && is_count(fields[4]) {
            tally_fields.push(fields.remove(4));
        }
    }
    // The roll's field (`roll:5`) follows them.
    let mut roll = None;
    if let Some(i) = fields.iter().skip(4).position(|f| f.starts_with("roll:")).map(|i| i + 4) {
        let f = fields.remove(i);
        if let Some(again) = fields.iter().skip(4).find(|f| f.starts_with("roll:")) {
            return Err(FenError::Roll(format!("`{f}` and `{again}`: one roll a position")));
        }
        let Some(r) = &rules.roll else {
            return Err(FenError::Roll(format!("`{f}`, but nothing is rolled in this game")));
        };
        match r.read_left(&f["roll:".len()..]) {
            Some(v) => roll = Some(v),
            None if r.apart.is_some() => {
                return Err(FenError::Roll(format!(
                    "`{f}`: the dice still to use, each 1 to {}, highest or lowest first (`roll:5-3`, `roll:3`)",
                    r.apart.map_or(0, |a| a.faces)
                )));
            }
            None => {
                return Err(FenError::Roll(format!("`{f}`: the roll shows one of {}", r.shown_results())));
            }
        }
    }
    // The places of sides out of the game (`places:r1,g4`), among more than two players.
    let mut places = Vec::new();
    if let Some(i) = fields.iter().skip(4).position(|f| f.starts_with("places:")).map(|i| i + 4) {
        let f = fields.remove(i);
        for item in f["places:".len()..].split(',') {
            let mut chars = item.chars();
            let letter = chars.next();
            let side = letter.and_then(|c| rules.players.iter().position(|p| p.fen.starts_with(c) && p.fen.len() == 1));
            let place = chars.as_str().parse::<u8>().ok();
            match (side, place) {
                (Some(s), Some(p)) if rules.players.len() > 2 => places.push((Side(s as u8), p)),
                _ => {
                    return Err(FenError::Illegal(format!(
                        "`{f}`: each side out of the game as its letter and its place (`places:r1,g4`), among more than two players"
                    )));
                }
            }
        }
    }
    if fields.len() > 6 {
        return Err(FenError::TooManyFields(
            fields.len() + tally_fields.len() + roll.is_some() as usize + !places.is_empty() as usize,
        ));
    }
    let mut tallies = Setup::empty(rules).tallies;
    for (i, f) in tally_fields.iter().enumerate() {
        let (a, b) = f.split_once('+').expect("a count field has a `+`");
        for (side, text) in [a, b].into_iter().enumerate() {
            match text.parse::<i64>() {
                Ok(v) if (TALLY_MIN..=TALLY_MAX).contains(&v) => tallies[side][i] = v,
                _ => {
                    return Err(FenError::Count(format!(
                        "`{f}`: `{}` must be between {TALLY_MIN} and {TALLY_MAX}",
                        rules.counts[i].name
                    )));
                }
            }
        }
    }
    let (placement, hand_text) = match fields[0].split_once('[') {
        Some((p, rest)) => match rest.strip_suffix(']') {
            Some(h) => (p, Some(h)),
            None => return Err(FenError::Hand("`[` without a closing `]`".into())),
        },
        None => (fields[0], None),
    };
    let mut hands = Vec::new();
    if let Some(h) = hand_text {
        if !rules.keeps_hands() {
            return Err(FenError::Hand(
                "this ruleset has no hands (its captures do not go to hand, and nothing is dropped)".into(),
            ));
        }
        let mut count = 0usize;
        // How many of each piece (by side, then kind) the hand holds so far.
        let mut per_piece = vec![0usize; rules.kinds.len() * rules.players.len()];
        let mut chars = h.chars().filter(|c| *c != '-');
        while let Some(c) = chars.next() {
            if let Some(d) = c.to_digit(10) {
                count = (count * 10 + d as usize).min(1000);
                continue;
            }
            // A promoted kind with a letter of its own is `+P` in the hand as on the board.
            let (text, found) = if rules.sided_fen() {
                // With more than two players, as on the board: the side's letter, the kind's.
                let next = chars.next();
                let text = format!("{c}{}", next.map(String::from).unwrap_or_default());
                let side = rules.players.iter().position(|p| p.fen.starts_with(c)).map(|i| Side(i as u8));
                let absent = rules.absent.iter().any(|l| l.starts_with(c));
                let kind = next.and_then(|l| rules.kinds.iter().position(|k| k.letter == l && !k.plus && !k.neutral));
                match (side, kind) {
                    (Some(s), Some(k)) => (text, Some((KindId(k as u8), s))),
                    // A side that does not play this time: its pieces in hand are left off.
                    (None, Some(_)) if absent && !strict => {
                        count = 0;
                        continue;
                    }
                    _ => {
                        let sides: Vec<&str> = rules.players.iter().map(|p| p.fen.as_str()).collect();
                        let kinds: String = rules.kinds.iter().filter(|k| !k.neutral).map(|k| k.letter).collect();
                        return Err(FenError::Hand(format!(
                            "`{text}`: a piece in hand is written as its side's letter ({}) and its kind's ({kinds})",
                            sides.join(" ")
                        )));
                    }
                }
            } else if c == '+' {
                let next = chars.next();
                let text = format!("+{}", next.map(String::from).unwrap_or_default());
                (text, next.and_then(|l| rules.kind_by_plus_letter(l)))
            } else {
                (c.to_string(), rules.kind_by_letter(c))
            };
            if found.is_some_and(|(k, _)| rules.kind(k).royal) {
                return Err(FenError::Hand(format!("`{text}`: a royal piece is never in hand")));
            }
            let Some((k, side)) = found else {
                let known: Vec<String> = (0..rules.kinds.len())
                    .map(|i| KindId(i as u8))
                    .filter(|&k| !rules.kind(k).neutral)
                    .map(|k| rules.fen_text(k, Side::FIRST))
                    .collect();
                return Err(FenError::Hand(format!(
                    "`{text}` is not a piece of this ruleset (its letters: {})",
                    known.join(" ")
                )));
            };
            // A hand holds up to 255 of each piece (as a position keeps it), so a capture into a
            // hand of 255 pieces of several kinds still writes a FEN that reads back.
            let held = &mut per_piece[side.index() * rules.kinds.len() + k.0 as usize];
            *held += count.max(1);
            if *held > 255 {
                return Err(FenError::Hand(format!("`{text}`: more than 255 of one piece in a hand")));
            }
            for _ in 0..count.max(1) {
                hands.push((k, side));
            }
            count = 0;
        }
        if count > 0 {
            return Err(FenError::Hand(format!(
                "`{h}`: a count comes before the piece it counts (`2P`), not after"
            )));
        }
    }
    let mut promoted = Vec::new();
    let mut neutral = Vec::new();
    let ranks: Vec<&str> = placement.split('/').collect();
    if ranks.len() != b.height {
        return Err(FenError::RankCount {
            found: ranks.len(),
            expected: b.height,
        });
    }
    let mut board = vec![None; b.squares()];
    let mut stacks = Vec::new();
    for (i, row) in ranks.iter().enumerate() {
        let rank = b.height - 1 - i;
        // How messages name this rank: by the board's name for it, and its place in the field.
        let rank_name = &b.rank_names[rank];
        let mut file = 0usize;
        let mut chars = row.chars().peekable();
        let mut after_piece = false;
        while let Some(c) = chars.next() {
            if c == '(' {
                // A stack: `(5C)`, five of that piece on one square.
                let inner: String = chars.by_ref().take_while(|&c| c != ')').collect();
                let digits: String = inner.chars().take_while(char::is_ascii_digit).collect();
                let letter = inner[digits.len()..].to_string();
                if rules.race.stack.is_none() {
                    return Err(FenError::Illegal(format!(
                        "`({inner})` on rank {rank_name} (field 1) is a stack, and this ruleset's pieces do not stack"
                    )));
                }
                let n = digits.parse::<u32>().ok().filter(|n| (1..=255).contains(n));
                let mut l = letter.chars();
                let piece = match (l.next(), l.next()) {
                    (Some(c), None) => rules.kind_by_letter(c),
                    _ => None,
                };
                let (Some(n), Some((k, side))) = (n, piece) else {
                    return Err(FenError::Illegal(format!(
                        "`({inner})` on rank {rank_name} (field 1): a stack is written as its count (1 to 255) and one piece's letter, `(5C)`"
                    )));
                };
                after_piece = false;
                if file < b.width {
                    let sq = b.square(file, rank);
                    board[sq] = Some((k, side));
                    if n > 1 {
                        stacks.push((sq, n));
                    }
                }
                file += 1;
                if file > b.width {
                    break;
                }
                continue;
            }
            if c == '~' {
                if file == 0 || file > b.width || !after_piece {
                    return Err(FenError::Illegal(format!("`~` on rank {rank_name} (field 1) follows no piece")));
                }
                after_piece = false;
                if rules.hand.as_ref().is_none_or(|h| !h.demote) {
                    return Err(FenError::Illegal(
                        "`~` marks a promoted piece, which this ruleset does not track (no `captures go to hand, unpromoted`)".into(),
                    ));
                }
                promoted.push(b.square(file - 1, rank));
                continue;
            }
            if c == '+' {
                let next = chars.next();
                let Some((k, s)) = next.and_then(|l| rules.kind_by_plus_letter(l)) else {
                    let known: Vec<String> = rules.kinds.iter().filter(|k| k.plus).map(|k| format!("+{}", k.letter)).collect();
                    return Err(FenError::Illegal(format!(
                        "`+{}` on rank {rank_name} (field 1) is not a promoted piece of this ruleset{}",
                        next.map(String::from).unwrap_or_default(),
                        if known.is_empty() {
                            String::new()
                        } else {
                            format!(" (its promoted kinds: {})", known.join(", "))
                        }
                    )));
                };
                if file < b.width {
                    board[b.square(file, rank)] = Some((k, s));
                    // The `+` says it promoted: where captures return pieces unpromoted it goes
                    // back as what it promoted from, as Fairy-Stockfish reads `+P` (no `~` needed).
                    if rules.hand.as_ref().is_some_and(|h| h.demote) {
                        promoted.push(b.square(file, rank));
                    }
                }
                after_piece = true;
                file += 1;
                if file > b.width {
                    break;
                }
                continue;
            }
            if rules.sided_fen() && c.is_ascii_lowercase() {
                // With more than two players a piece is its side's letter and its kind's: `rM`.
                let next = chars.next();
                let side = rules.players.iter().position(|p| p.fen.starts_with(c)).map(|i| Side(i as u8));
                let absent = rules.absent.iter().any(|l| l.starts_with(c));
                let kind = next.and_then(|l| rules.kinds.iter().position(|k| k.letter == l && !k.plus && !k.neutral));
                let piece = match (side, kind) {
                    (Some(s), Some(k)) => Some((KindId(k as u8), s)),
                    // A side that does not play this time: its pieces stay off the board.
                    (None, Some(_)) if absent && !strict => None,
                    _ => {
                        let sides: Vec<&str> = rules.players.iter().map(|p| p.fen.as_str()).collect();
                        let kinds: String = rules.kinds.iter().filter(|k| !k.neutral).map(|k| k.letter).collect();
                        return Err(FenError::Illegal(format!(
                            "`{c}{}` on rank {rank_name} (field 1): a piece is written as its side's letter ({}) and its kind's ({kinds})",
                            next.map(String::from).unwrap_or_default(),
                            sides.join(" ")
                        )));
                    }
                };
                if file < b.width {
                    board[b.square(file, rank)] = piece;
                }
                after_piece = piece.is_some();
                file += 1;
                if file > b.width {
                    break;
                }
                continue;
            }
            if let Some(k) = rules.neutral_by_letter(c) {
                after_piece = false;
                if file < b.width {
                    neutral.push((b.square(file, rank), k));
                }
                file += 1;
                if file > b.width {
                    break;
                }
                continue;
            }
            after_piece = false;
            if let Some(d) = c.to_digit(10) {
                if d == 0 {
                    return Err(FenError::Illegal(format!(
                        "a count of empty squares on rank {rank_name} (field 1) starts with `0`"
                    )));
                }
                let mut n = d as usize;
                while let Some(d2) = chars.peek().and_then(|c| c.to_digit(10)) {
                    n = n * 10 + d2 as usize;
                    chars.next();
                    if n > 1000 {
                        break;
                    }
                }
                file += n;
            } else {
                let Some((k, s)) = rules.kind_by_letter(c) else {
                    let known: String = rules.kinds.iter().map(|k| k.letter).collect();
                    return Err(FenError::UnknownPiece { letter: c, known });
                };
                if file < b.width {
                    board[b.square(file, rank)] = Some((k, s));
                }
                after_piece = true;
                file += 1;
            }
            if file > b.width {
                break;
            }
        }
        if file != b.width {
            return Err(FenError::RankWidth {
                rank: rank_name.clone(),
                nth: ordinal(i + 1),
                found: file,
                expected: b.width,
            });
        }
    }
    let side_field = fields.get(1).copied().unwrap_or(&rules.players[0].fen);
    let stm = match rules.players.iter().position(|p| p.fen == side_field) {
        Some(i) => Side(i as u8),
        None => {
            let letters: Vec<String> = rules.players.iter().map(|p| format!("`{}`", p.fen)).collect();
            let (last, rest) = letters.split_last().expect("a game has players");
            return Err(FenError::Side {
                found: side_field.to_string(),
                expected: format!("{} or {last}", rest.join(", ")),
            });
        }
    };
    let castling = castling_rights(rules, fields.get(2).copied().unwrap_or("-"))?;
    let ep = match fields.get(3).copied().unwrap_or("-") {
        "-" => None,
        s => match b.parse_square(s) {
            Some(sq) => Some(sq),
            None => return Err(FenError::EnPassant(format!("`{s}` is not a square of this board"))),
        },
    };
    // Digits only, no leading zero, and no more than the engine keeps (quoted as written otherwise).
    let num = |i: usize, field: &'static str, default: u64, max: u64| -> Result<u64, FenError> {
        let Some(s) = fields.get(i) else { return Ok(default) };
        let found = s.to_string();
        let index = i + 1;
        if !s.bytes().all(|c| c.is_ascii_digit()) {
            return Err(FenError::Number { field, index, found });
        }
        if s.len() > 1 && s.starts_with('0') {
            return Err(FenError::LeadingZero { field, index, found });
        }
        match s.parse::<u64>() {
            Ok(n) if n <= max => Ok(n),
            _ => Err(FenError::TooLarge { field, index, found, max }),
        }
    };
    let halfmove = num(4, "the halfmove clock", 0, MAX_HALFMOVE as u64)? as u32;
    let fullmove = num(5, "the move number", 1, MAX_FULLMOVE)?;
    if fullmove == 0 {
        return Err(FenError::Illegal("the move number (field 6) is 0: the first move is move 1".into()));
    }
    Ok(Setup {
        board,
        stm,
        castling,
        ep,
        halfmove,
        fullmove,
        hands,
        promoted,
        neutral,
        tallies,
        roll,
        stacks,
        places,
    })
}

/// How a position the rules refuse is worded where it came from a FEN: by the field that says it.
fn position_message(e: &crate::game::PositionError) -> String {
    use crate::game::PositionError as P;
    match e {
        P::Illegal(why) => format!("illegal position: {why}"),
        P::Castling(why) => format!("castling field (field 3): {why}"),
        P::EnPassant(why) => format!("en-passant field (field 4): {why}"),
    }
}

/// The castling field: `-`, or letters each naming a right once — `K`/`Q` (upper case for the first
/// player) or a file of this board (the partner's, Shredder-FEN; or where pieces are dropped onto the
/// square a first move leaves, the piece's).
fn castling_rights(rules: &Rules, field: &str) -> Result<Vec<CastlingRight>, FenError> {
    if field == "-" {
        return Ok(Vec::new());
    }
    let b = &rules.board;
    let mut rights: Vec<CastlingRight> = Vec::new();
    if rules.players.len() > 2 {
        return castling_rights_of_many(rules, field);
    }
    for ch in field.chars() {
        let side = if ch.is_uppercase() { Side::FIRST } else { Side::SECOND };
        let wing = match ch.to_ascii_uppercase() {
            'K' => Wing::King,
            'Q' => Wing::Queen,
            _ => match b
                .file_names
                .iter()
                .position(|f| f.chars().count() == 1 && f.eq_ignore_ascii_case(&ch.to_string()))
            {
                Some(file) if ch.is_alphabetic() => Wing::File(file),
                _ => {
                    return Err(FenError::Castling(format!(
                        "`{ch}` is neither `K`, `Q` nor a file of this board (`-` for no rights)"
                    )));
                }
            },
        };
        let right = CastlingRight { side, wing };
        if rights.contains(&right) {
            return Err(FenError::Castling(format!("`{field}`: `{ch}` is given twice")));
        }
        rights.push(right);
    }
    Ok(rights)
}

/// The castling field among more than two players: each right as its side's letter and `K` (the
/// king's wing, to the side's right hand) or `Q`: `rKrQbK`.
fn castling_rights_of_many(rules: &Rules, field: &str) -> Result<Vec<CastlingRight>, FenError> {
    let mut rights: Vec<CastlingRight> = Vec::new();
    let chars: Vec<char> = field.chars().collect();
    for pair in chars.chunks(2) {
        let text: String = pair.iter().collect();
        let side = rules.players.iter().position(|p| p.fen.starts_with(pair[0]));
        let wing = match pair.get(1) {
            Some('K') => Some(Wing::King),
            Some('Q') => Some(Wing::Queen),
            _ => None,
        };
        let (Some(side), Some(wing)) = (side, wing) else {
            let letters: Vec<&str> = rules.players.iter().map(|p| p.fen.as_str()).collect();
            return Err(FenError::Castling(format!(
                "`{field}`: `{text}` is not a right: each is a player's letter ({}) and `K` or `Q` (`-` for no rights)",
                letters.join(", ")
            )));
        };
        let right = CastlingRight {
            side: Side(side as u8),
            wing,
        };
        if rights.contains(&right) {
            return Err(FenError::Castling(format!("`{field}`: `{text}` is given twice")));
        }
        rights.push(right);
    }
    Ok(rights)
}

/// The piece-placement field of a FEN for the pieces `piece_at` reports, rank by rank from the top.
pub fn placement(rules: &Rules, piece_at: impl Fn(usize) -> Option<(KindId, Side)>) -> String {
    placement_marked(rules, piece_at, |_| false)
}

/// The placement field with `~` after each promoted piece.
pub fn placement_marked(rules: &Rules, piece_at: impl Fn(usize) -> Option<(KindId, Side)>, promoted: impl Fn(usize) -> bool) -> String {
    placement_texts(rules, |sq| {
        piece_at(sq).map(|(k, s)| {
            let mut t = rules.fen_text(k, s);
            // A `+` letter already says the piece promoted.
            if promoted(sq) && !rules.kind(k).plus {
                t.push('~');
            }
            t
        })
    })
}

/// The placement field from what stands on each square as FEN writes it (`None`: empty).
pub fn placement_texts(rules: &Rules, text_at: impl Fn(usize) -> Option<String>) -> String {
    let b = &rules.board;
    let mut out = String::new();
    for rank in (0..b.height).rev() {
        let mut empty = 0;
        for file in 0..b.width {
            let sq = b.square(file, rank);
            match text_at(sq) {
                None => empty += 1,
                Some(text) => {
                    if empty > 0 {
                        out.push_str(&empty.to_string());
                        empty = 0;
                    }
                    out.push_str(&text);
                }
            }
        }
        if empty > 0 {
            out.push_str(&empty.to_string());
        }
        if rank > 0 {
            out.push('/');
        }
    }
    out
}

/// Writes a setup as FEN, every field (the counts' fields after the en-passant one, as
/// Fairy-Stockfish writes three-check's). What it writes, [`parse_setup`] reads back as the same
/// setup.
pub fn write(rules: &Rules, s: &Setup) -> String {
    let mut out = placement_texts(rules, |sq| match s.board.get(sq).copied().flatten() {
        Some((k, side)) => {
            let mut t = rules.fen_text(k, side);
            // A `+` letter already says the piece promoted.
            if s.promoted.contains(&sq) && !rules.kind(k).plus {
                t.push('~');
            }
            if let Some((_, n)) = s.stacks.iter().find(|(q, _)| *q == sq) {
                t = format!("({n}{t})");
            }
            Some(t)
        }
        None => s
            .neutral
            .iter()
            .find(|(n, _)| *n == sq)
            .map(|(_, k)| rules.kind(*k).letter.to_string()),
    });
    if rules.keeps_hands() {
        out.push('[');
        for &(k, side) in &s.hands {
            out.push_str(&rules.fen_text(k, side));
        }
        out.push(']');
    }
    out.push(' ');
    out.push_str(&rules.players[s.stm.index()].fen);
    out.push(' ');
    if s.castling.is_empty() {
        out.push('-');
    }
    for right in &s.castling {
        out.push_str(&right.text(rules));
    }
    out.push(' ');
    match s.ep {
        Some(sq) => out.push_str(&rules.board.name(sq)),
        None => out.push('-'),
    }
    for i in 0..rules.counts.len() {
        out.push_str(&format!(" {}+{}", s.tallies[0][i], s.tallies[1][i]));
    }
    if let (Some(v), Some(r)) = (s.roll, &rules.roll) {
        out.push_str(&format!(" roll:{}", r.show(v)));
    }
    if !s.places.is_empty() {
        let each: Vec<String> = s
            .places
            .iter()
            .map(|(side, p)| format!("{}{p}", rules.players[side.index()].fen))
            .collect();
        out.push_str(&format!(" places:{}", each.join(",")));
    }
    out.push_str(&format!(" {} {}", s.halfmove, s.fullmove));
    out
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;
    use crate::game::Engine;

    fn chess() -> Engine {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../rulesets/chess.rules");
        Engine::new(crate::check::check_file(&path, &[]).rules.expect("chess.rules is valid"))
    }

    fn refusal(fen: &str) -> String {
        chess().from_fen(fen).map(|p| p.fen()).expect_err("the FEN is refused").to_string()
    }

    #[test]
    fn counters_never_wrap_and_are_quoted_as_written() {
        let e = chess();
        // The largest move number goes on counting: one move later it is one more, not 0.
        let mut pos = e.from_fen("4k3/8/8/8/8/8/8/4K3 b - - 0 4294967295").expect("valid");
        let m = pos.legal_moves()[0];
        pos.play_unchecked(m);
        assert_eq!(pos.fullmove(), 4_294_967_296);
        assert!(pos.fen().ends_with(" 4294967296"), "{}", pos.fen());
        // What it writes, it reads (the fuzzer found a move number one past a 32-bit limit that
        // was written but refused).
        assert_eq!(e.from_fen(&pos.fen()).expect("reads back").fen(), pos.fen());
        // Past what the engine keeps: refused as too large, quoting the text.
        let big = refusal("4k3/8/8/8/8/8/8/4K3 w - - 0 99999999999999999999");
        assert!(big.contains("`99999999999999999999` is too large"), "{big}");
        assert!(!big.contains("whole number"), "{big}");
        let clock = refusal("4k3/8/8/8/8/8/8/4K3 w - - 70000 1");
        assert!(
            clock.contains("the halfmove clock (field 5) `70000` is too large: at most 65535"),
            "{clock}"
        );
        // The largest clock is kept as it is.
        let kept = e.from_fen("4k3/8/8/8/8/8/8/4K3 w - - 65535 1").expect("valid");
        assert_eq!(kept.halfmove_clock(), 65535);
        // Leading zeros and signs are not FEN numbers.
        assert!(refusal("4k3/8/8/8/8/8/8/4K3 w - - 08 1").contains("`08` is written with a leading zero"));
        assert!(refusal("4k3/8/8/8/8/8/8/4K3 w - - 0 +5").contains("must be a whole number, not `+5`"));
    }

    #[test]
    fn a_bad_rank_is_named_as_the_board_names_it() {
        // The first rank written is chess's rank 8.
        let first = refusal("rnbqkbn/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        assert!(
            first.starts_with("rank 8 (field 1, the 1st rank from the top) has 7 squares"),
            "{first}"
        );
        let second = refusal("rnbqkbnr/ppppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        assert!(
            second.starts_with("rank 7 (field 1, the 2nd rank from the top) has 9 squares"),
            "{second}"
        );
    }

    #[test]
    fn castling_letters_are_rights_read_from_the_text_alone() {
        let e = chess();
        let rules = e.rules();
        let rights = |field: &str| parse_setup(rules, &format!("r3k2r/8/8/8/8/8/8/R3K2R w {field} - 0 1")).map(|s| s.castling);
        let right = |side, wing| CastlingRight { side, wing };
        assert_eq!(
            rights("KQkq"),
            Ok(vec![
                right(Side::FIRST, Wing::King),
                right(Side::FIRST, Wing::Queen),
                right(Side::SECOND, Wing::King),
                right(Side::SECOND, Wing::Queen)
            ])
        );
        // Shredder-FEN: the partners' files.
        assert_eq!(
            rights("Ha"),
            Ok(vec![right(Side::FIRST, Wing::File(7)), right(Side::SECOND, Wing::File(0))])
        );
        assert_eq!(rights("-"), Ok(vec![]));
        // What the text gets wrong is refused by the text, before any board is looked at.
        let twice = rights("KQkqK").expect_err("a right given twice");
        assert_eq!(twice.to_string(), "castling field (field 3): `KQkqK`: `K` is given twice");
        let stranger = rights("Kx").expect_err("not a right");
        assert!(
            stranger.to_string().contains("`x` is neither `K`, `Q` nor a file of this board"),
            "{stranger}"
        );
        // A right the board cannot give is the rules' refusal, named by the FEN's field.
        let nothing = e.from_fen("4k3/8/8/8/8/8/8/4K3 w K - 0 1").expect_err("no rook");
        assert!(
            matches!(nothing, FenError::Position(crate::game::PositionError::Castling(_))),
            "{nothing:?}"
        );
        assert!(
            nothing
                .to_string()
                .starts_with("castling field (field 3): `K` but the white has no unmoved piece"),
            "{nothing}"
        );
    }

    #[test]
    fn what_is_written_reads_back_as_the_same_setup() {
        let e = chess();
        let rules = e.rules();
        for fen in [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/8/8/3pP3/8/8/8/R3K2R w Kq d6 0 27",
            "4k3/8/8/8/8/8/8/4K3 b - - 65535 9",
        ] {
            let setup = parse_setup(rules, fen).expect("valid");
            assert_eq!(write(rules, &setup), fen);
            assert_eq!(parse_setup(rules, &write(rules, &setup)), Ok(setup));
        }
        // Missing trailing fields are the empty setup's.
        let short = parse_setup(rules, "4k3/8/8/8/8/8/8/4K3").expect("valid");
        let empty = Setup::empty(rules);
        assert_eq!(
            (short.stm, short.halfmove, short.fullmove, short.tallies),
            (empty.stm, empty.halfmove, empty.fullmove, empty.tallies)
        );
    }
}
