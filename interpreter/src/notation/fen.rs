//! FEN: `pieces side castling en-passant halfmove fullmove`, with the ruleset's letters and board
//! size. Castling rights are `K`/`Q` (partner towards the higher / lower file) or the partner's
//! file letter (Shredder-FEN); `-` for none. Where captures go to hand, the pieces in hand follow
//! the board in brackets (`…/RNBQKB1R[Pn]`: a first player's pawn, a second player's knight) and a
//! promoted piece carries `~` after its letter (`Q~`), as lichess and Fairy-Stockfish write them.

use std::sync::Arc;

use thiserror::Error;

use crate::compile::Tables;
use crate::game::Position;
use crate::game::bits::Bits;
use crate::game::position::Pos;
use crate::model::*;

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
    #[error("pieces in hand (field 1, in brackets): {0}")]
    Hand(String),
    #[error("count field (after the en-passant field): {0}")]
    Count(String),
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

/// A position as written, before the engine has accepted it.
#[derive(Clone, Debug, PartialEq)]
pub struct Setup {
    pub board: Vec<Option<(KindId, Side)>>,
    pub stm: Side,
    pub castling: String,
    pub ep: Option<usize>,
    pub halfmove: u32,
    pub fullmove: u64,
    /// Pieces in hand, one entry per piece.
    pub hands: Vec<(KindId, Side)>,
    /// Squares of promoted pieces (`~`).
    pub promoted: Vec<usize>,
    /// Neutral pieces (see [`Kind::neutral`]) and their squares.
    pub neutral: Vec<(usize, KindId)>,
    /// The declared counts' values, per side (the start values where the FEN gives none).
    pub tallies: [[i64; MAX_TALLIES]; 2],
}

/// Reads a FEN against a ruleset. Missing trailing fields take their defaults (`w - - 0 1`).
///
/// # Errors
/// Which field is wrong, and what was expected.
pub fn parse_setup(rules: &Rules, text: &str) -> Result<Setup, FenError> {
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
    if fields.len() > 6 {
        return Err(FenError::TooManyFields(fields.len() + tally_fields.len()));
    }
    let mut tallies = [[0i64; MAX_TALLIES]; 2];
    for (i, t) in rules.counts.iter().enumerate() {
        tallies[0][i] = t.start;
        tallies[1][i] = t.start;
    }
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
        let mut chars = h.chars().filter(|c| *c != '-');
        while let Some(c) = chars.next() {
            if let Some(d) = c.to_digit(10) {
                count = (count * 10 + d as usize).min(1000);
                continue;
            }
            // A promoted kind with a letter of its own is `+P` in the hand as on the board.
            let (text, found) = if c == '+' {
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
            for _ in 0..count.max(1) {
                hands.push((k, side));
            }
            if hands.len() > 255 {
                return Err(FenError::Hand("more than 255 pieces in hand".into()));
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
    for (i, row) in ranks.iter().enumerate() {
        let rank = b.height - 1 - i;
        // How messages name this rank: by the board's name for it, and its place in the field.
        let rank_name = &b.rank_names[rank];
        let mut file = 0usize;
        let mut chars = row.chars().peekable();
        let mut after_piece = false;
        while let Some(c) = chars.next() {
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
            return Err(FenError::Side {
                found: side_field.to_string(),
                expected: format!("`{}` or `{}`", rules.players[0].fen, rules.players[1].fen),
            });
        }
    };
    let castling = fields.get(2).copied().unwrap_or("-").to_string();
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
    })
}

/// Turns a setup into an engine position, checking what the engine relies on.
pub fn build<B: Bits>(rules: &Rules, t: Arc<Tables<B>>, s: &Setup) -> Result<Pos<B>, FenError> {
    let b = &rules.board;
    let mut p = Pos::empty(t.clone());
    for (sq, c) in s.board.iter().enumerate() {
        if let Some((k, side)) = c {
            if !b.has(sq) {
                return Err(FenError::Illegal(format!(
                    "{} is not a cell of this board, and the {} {} stands there",
                    b.name(sq),
                    rules.players[side.index()].name,
                    rules.kind(*k).name.to_lowercase()
                )));
            }
            p.put(sq, *k, *side);
        }
    }
    for &(k, side) in &s.hands {
        let c = p.hands[side.index()][k.0 as usize];
        p.set_hand(side, k, c.saturating_add(1));
    }
    for &sq in &s.promoted {
        p.promoted |= B::bit(sq);
    }
    for &(sq, k) in &s.neutral {
        p.put_neutral(sq, k);
    }
    for side in [Side::FIRST, Side::SECOND] {
        for i in 0..rules.counts.len() {
            p.set_tally(side, i, s.tallies[side.index()][i]);
        }
    }

    p.stm = s.stm;
    if s.stm == Side::SECOND {
        p.hash ^= t.z_side;
    }
    p.fullmove = s.fullmove;
    for c in p.counters.iter_mut() {
        // `parse_setup` refused a clock past what a counter holds; one set by hand saturates.
        *c = s.halfmove.min(MAX_HALFMOVE as u32) as u16;
    }
    // Pieces standing in their own promotion zone should have promoted.
    for (sq, c) in s.board.iter().enumerate() {
        if let Some((k, side)) = c
            && let Some(pr) = &rules.kind(*k).promotion
            && pr.zone[*side].contains(sq)
            && (!pr.optional || pr.forced.as_ref().is_some_and(|z| z[*side].contains(sq)))
            // A piece dropped there arrives unpromoted, where the rules let it be dropped.
            && !rules.kind(*k).forms.iter().any(|f| {
                f.primitive == Primitive::Drop
                    && f.within.as_ref().is_none_or(|z| z[*side].contains(sq))
                    && (!f.drop.not_stuck
                        || crate::compile::could_move_from(rules, rules.kind(*k), sq, if *side == Side::FIRST { 1 } else { -1 }))
            })
        {
            return Err(FenError::Illegal(format!(
                "the {} {} on {} stands where it must already have promoted",
                rules.players[side.index()].name,
                rules.kind(*k).name.to_lowercase(),
                b.name(sq)
            )));
        }
    }
    // Pieces that fall rest on something: the square below them (along the fall) is taken or off the board.
    for (sq, c) in s.board.iter().enumerate() {
        if let Some((k, side)) = c
            && let Some(d) = rules.kind(*k).forms.iter().find_map(|f| f.falling)
            && let Some(below) = b.offset(sq, d.0, d.1)
            && s.board[below].is_none()
        {
            return Err(FenError::Illegal(format!(
                "the {} {} on {} floats: {} below it is empty, and pieces of this kind fall",
                rules.players[side.index()].name,
                rules.kind(*k).name.to_lowercase(),
                b.name(sq),
                b.name(below)
            )));
        }
    }
    // Castling rights → unmoved pieces.
    let gate_zone = rules.gate_zone();
    if s.castling != "-" {
        for (i, ch) in s.castling.char_indices() {
            if s.castling[..i].contains(ch) {
                return Err(FenError::Castling(format!("`{}`: `{ch}` is given twice", s.castling)));
            }
            let side = if ch.is_ascii_uppercase() { Side::FIRST } else { Side::SECOND };
            let castles = &t.castles[side.index()];
            // A file letter names a piece that may still open its square to a drop (as
            // Fairy-Stockfish writes S-chess's gating rights), where castling does not claim it.
            let gate = |p: &mut Pos<B>| -> bool {
                let Some(z) = gate_zone else { return false };
                let Some(file) = b.file_names.iter().position(|f| f.eq_ignore_ascii_case(&ch.to_string())) else {
                    return false;
                };
                let own = p.side_bb[side.index()];
                let on_file: Vec<usize> = z[side].iter().filter(|&sq| b.file(sq) == file && own.has(sq)).collect();
                match on_file.as_slice() {
                    [sq] => {
                        p.virgin |= B::bit(*sq);
                        true
                    }
                    _ => false,
                }
            };
            // Where pieces may be dropped on the square a first move leaves, file letters are those
            // rights and castling is K and Q only, as Fairy-Stockfish reads S-chess's FEN.
            if gate_zone.is_some() && !matches!(ch.to_ascii_uppercase(), 'K' | 'Q') {
                if gate(&mut p) {
                    continue;
                }
                return Err(FenError::Castling(format!(
                    "`{ch}`: no piece of the {} stands on that file where a piece may be dropped after its first move",
                    rules.players[side.index()].name
                )));
            }
            if castles.is_empty() {
                return Err(FenError::Castling(format!("`{ch}`: this ruleset has no castling")));
            }
            let mut done = false;
            for c in castles {
                for castler in p.pieces(side, c.kind).iter() {
                    let up = ch.to_ascii_uppercase();
                    let candidates: Vec<(usize, usize)> = c
                        .dirs
                        .iter()
                        .enumerate()
                        .flat_map(|(i, &d)| (t.ray(d as usize, castler) & p.pieces(side, c.partner)).iter().map(move |r| (i, r)))
                        .collect();
                    let pick = match up {
                        'K' => candidates.iter().filter(|(i, _)| *i == 0).map(|x| x.1).max_by_key(|r| b.file(*r)),
                        'Q' => candidates.iter().filter(|(i, _)| *i == 1).map(|x| x.1).min_by_key(|r| b.file(*r)),
                        f => candidates
                            .iter()
                            .map(|x| x.1)
                            .find(|r| b.file_names[b.file(*r)].eq_ignore_ascii_case(&f.to_string())),
                    };
                    if let Some(r) = pick {
                        p.virgin |= B::bit(castler) | B::bit(r);
                        done = true;
                    }
                }
            }
            if !done {
                return Err(FenError::Castling(format!(
                    "`{ch}` but the {} has no unmoved piece to castle with on that side",
                    rules.players[side.index()].name
                )));
            }
        }
    }
    // Pieces with `unmoved` forms count as unmoved on their setup squares.
    if let Ok(start) = parse_setup_board(rules) {
        for (sq, c) in s.board.iter().enumerate() {
            if let Some((k, _)) = c
                && rules.kind(*k).forms.iter().any(|f| f.unmoved)
                && start.get(sq) == Some(c)
            {
                p.virgin |= B::bit(sq);
            }
        }
    }
    // En passant: the mark belongs to the piece one step beyond it, which just made it.
    if let Some(ep) = s.ep {
        let mover = s.stm.other();
        let flip = if mover == Side::FIRST { 1 } else { -1 };
        // Boards of hexes turn half round for the second player (a mirror would break their geometry).
        let fx = if b.hexes { flip } else { 1 };
        let mut victim = None;
        for k in &rules.kinds {
            for f in k.forms.iter().filter(|f| f.marks_en_passant) {
                if let Primitive::Step { dirs, .. } | Primitive::Slide { dirs, .. } = &f.primitive {
                    for d in dirs {
                        if let Some(v) = b.offset(ep, d.0 * fx, d.1 * flip)
                            && let Some((vk, vs)) = s.board[v]
                            && vs == mover
                            && rules.kind(vk).forms.iter().any(|g| g.marks_en_passant)
                        {
                            victim = Some(v);
                        }
                    }
                }
            }
        }
        match victim {
            Some(v) if s.board[ep].is_none() => {
                p.ep = B::bit(ep);
                p.ep_victim = v as u16;
            }
            _ => {
                return Err(FenError::EnPassant(format!(
                    "no piece of the {} can just have passed {}",
                    rules.players[mover.index()].name,
                    b.name(ep)
                )));
            }
        }
    }
    // Royals never leave the board where they may not be attacked, unless a capture next to them
    // explodes (then the game has just ended).
    if t.royal_safety && t.explosion.is_none() {
        for side in [Side::FIRST, Side::SECOND] {
            if p.royals(side).is_empty() {
                return Err(FenError::Illegal(format!(
                    "the {} has no royal piece",
                    rules.players[side.index()].name
                )));
            }
        }
    }
    if let Some(why) = crate::game::validity::impossible(rules, &p) {
        return Err(FenError::Illegal(why));
    }
    if t.chains {
        p.rebuild_chains();
        // A chain without liberties cannot stand on the board.
        for sq in 0..b.squares() {
            if s.board[sq].is_some() && p.chain_at(sq).iter().all(|&c| b_neighbours_full(&p, c)) {
                return Err(FenError::Illegal(format!("the chain at {} has no liberties", b.name(sq))));
            }
        }
    }
    // The phase: the first whose end does not hold yet (phases only ever move on).
    p.advance_phase();
    p.push_history();
    Ok(p)
}

fn parse_setup_board(rules: &Rules) -> Result<Vec<Option<(KindId, Side)>>, FenError> {
    // The setup of the rules themselves; avoid recursion by not validating further.
    let fields: Vec<&str> = rules.setup.split_whitespace().collect();
    let first = fields.first().copied().unwrap_or("");
    let s = parse_setup(rules, first)?;
    Ok(s.board)
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

/// The placement field of a position: its pieces (promoted ones marked) and its neutral pieces.
pub fn placement_of(pos: &Position) -> String {
    let rules = pos.rules();
    placement_texts(rules, |sq| match pos.piece_at(sq) {
        Some((k, s)) => {
            let mut t = rules.fen_text(k, s);
            if pos.is_promoted(sq) && !rules.kind(k).plus {
                t.push('~');
            }
            Some(t)
        }
        None => pos.neutral_at(sq).map(|k| rules.kind(k).letter.to_string()),
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

/// Writes a position as FEN.
pub fn write(pos: &Position) -> String {
    let rules = pos.rules();
    let mut out = placement_of(pos);
    if rules.keeps_hands() {
        out.push('[');
        for side in [Side::FIRST, Side::SECOND] {
            for (k, n) in pos.hand(side) {
                for _ in 0..n {
                    out.push_str(&rules.fen_text(k, side));
                }
            }
        }
        out.push(']');
    }
    out.push(' ');
    out.push_str(&rules.players[pos.side_to_move().index()].fen);
    out.push(' ');
    out.push_str(&castling_field(pos));
    out.push(' ');
    match pos.en_passant_squares().first() {
        Some(&sq) => out.push_str(&rules.board.name(sq)),
        None => out.push('-'),
    }
    for i in 0..rules.counts.len() {
        out.push_str(&format!(" {}+{}", pos.tally(Side::FIRST, i), pos.tally(Side::SECOND, i)));
    }
    out.push_str(&format!(" {} {}", pos.halfmove_clock(), pos.fullmove()));
    out
}

fn castling_field(pos: &Position) -> String {
    let rules = pos.rules();
    let b = &rules.board;
    let virgin = pos.virgin_squares();
    let mut letters = [String::new(), String::new()];
    // The unmoved pieces the castling letters already stand for: castlers and their partners.
    let mut covered: Vec<usize> = Vec::new();
    for side in [Side::FIRST, Side::SECOND] {
        for (ki, k) in rules.kinds.iter().enumerate() {
            for c in &k.castles {
                let kid = KindId(ki as u8);
                for &castler in &virgin {
                    if pos.piece_at(castler) != Some((kid, side)) {
                        continue;
                    }
                    let rank = b.rank(castler);
                    let partners: Vec<usize> = virgin
                        .iter()
                        .copied()
                        .filter(|&r| b.rank(r) == rank && pos.piece_at(r) == Some((c.partner, side)))
                        .collect();
                    for (letter, right) in [('K', true), ('Q', false)] {
                        let that_way = partners.iter().copied().filter(|&r| (b.file(r) > b.file(castler)) == right);
                        let outermost = if right {
                            that_way.max_by_key(|&r| b.file(r))
                        } else {
                            that_way.min_by_key(|&r| b.file(r))
                        };
                        if let Some(r) = outermost {
                            letters[side.index()].push(if side == Side::FIRST { letter } else { letter.to_ascii_lowercase() });
                            covered.extend([castler, r]);
                        }
                    }
                }
            }
        }
    }
    // Pieces that may still open their square to a drop, by file, where castling does not already
    // say so and the player has something in hand (as Fairy-Stockfish writes S-chess's gating).
    if let Some(z) = rules.gate_zone() {
        for side in [Side::FIRST, Side::SECOND] {
            if pos.hand(side).is_empty() {
                continue;
            }
            let mut squares: Vec<usize> = virgin
                .iter()
                .copied()
                .filter(|&sq| z[side].contains(sq) && pos.piece_at(sq).is_some_and(|(_, s)| s == side) && !covered.contains(&sq))
                .collect();
            squares.sort_by_key(|&sq| b.file(sq));
            for sq in squares {
                let f = &b.file_names[b.file(sq)];
                letters[side.index()].push_str(&if side == Side::FIRST { f.to_uppercase() } else { f.to_lowercase() });
            }
        }
    }
    let s = letters.concat();
    if s.is_empty() { "-".into() } else { s }
}

/// Is every orthogonal neighbour of `sq` occupied?
fn b_neighbours_full<B: Bits>(p: &Pos<B>, sq: usize) -> bool {
    p.t.neighbours[sq]
        .iter()
        .all(|&m| m as usize >= p.cells.len() || p.cells[m as usize] != 0)
}

#[cfg(test)]
mod tests {
    use std::path::Path;

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
}
