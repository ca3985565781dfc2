//! SAN (standard algebraic notation) for any ruleset: `Nf3`, `exd5`, `Rad1`, `e8=Q`, `O-O-O`, `Qxf7#`.
//!
//! Everything comes from the ruleset: a piece's letter is its kind's `written` letter (the FEN
//! letter unless the ruleset says otherwise; reading takes either), a kind marked
//! `unlettered` is written without one (and its captures start with the from-file), a castling
//! move is `O-O` when the royal moves towards higher files and `O-O-O` otherwise, squares and
//! files are the board's coordinate names. Disambiguation follows the usual order — file, then
//! rank, then both — among legal moves of the same kind to the same square.
//!
//! Reading is lenient the way real game records need ([`find`]), and matches the text against the
//! spellings of each legal move rather than parsing it into parts first, so a board with unusual
//! coordinate names reads exactly what it writes. Invariant: a text that names no legal move, or
//! names more than one, gives `None`; nothing here panics on any text.

use crate::game::{Move, MoveKind, Position};
use crate::notation::uci;

/// The SAN of a legal move in `pos`, with `+` for check and `#` for checkmate (the opponent is
/// in check and has no legal move).
///
/// A move that is not legal in `pos` is written in coordinates ([`uci::to_text`]) instead, so a
/// caller's mistake shows rather than panics.
///
/// # Examples
/// ```
/// # let checked = arbiter::check::check_file(std::path::Path::new("../rulesets/chess.rules"), &[]);
/// # let engine = arbiter::game::Engine::new(checked.rules.expect("chess.rules is valid"));
/// use arbiter::notation::san;
/// let start = engine.start();
/// let m = san::find(&start, "Nf3").expect("a legal move");
/// assert_eq!(san::to_san(&start, m), "Nf3");
/// ```
pub fn to_san(pos: &Position, m: Move) -> String {
    let legal = pos.legal_moves();
    if !legal.contains(&m) {
        return uci::to_text(pos, m);
    }
    let mut s = spell(pos, m, &legal);
    if let Some(tail) = part_tails(pos, m).first() {
        s.push_str(tail);
    }
    s.push_str(suffix(pos, m));
    s
}

/// How the later parts of a turn are written after its first, as Fairy-Stockfish writes them: a
/// piece placed or removed as `,` and the square (`e4,d5` in duck chess, `Qd2,d3` in amazons);
/// a piece dropped on the square the move left as `/` and its letter (`Nc3/H`), and with the
/// square too when the move is castling (`O-O/He1`, `O-O/Hh1`). The first is the canonical
/// spelling; the others are read too (a lowercase letter, the coordinate form `,e4d5`). Empty
/// for a turn of one part.
fn part_tails(pos: &Position, m: Move) -> Vec<String> {
    if m.route >> 32 == 0 || pos.rules().turn.is_empty() {
        return vec![String::new()];
    }
    let rules = pos.rules();
    let b = &rules.board;
    let mut tails = vec![String::new(), String::new()];
    let mut alt = String::new();
    for i in 0..crate::game::MAX_PARTS {
        let Some((part, kind, sq)) = pos.part_of(m, i) else { continue };
        match (&rules.turn[part].action, kind) {
            (crate::model::PartAction::Gate { .. }, Some(k)) => {
                let letter = rules.kind(k).written;
                let at = if matches!(m.kind, MoveKind::Castle(_)) || sq != m.from as usize {
                    b.name(sq)
                } else {
                    String::new()
                };
                tails[0].push_str(&format!("/{}{at}", letter.to_ascii_uppercase()));
                tails[1].push_str(&format!("/{}{at}", letter.to_ascii_lowercase()));
                alt.push_str(&format!("={}{at}", letter.to_ascii_uppercase()));
            }
            _ => {
                let text = format!(",{}", b.name(sq));
                tails[0].push_str(&text);
                tails[1].push_str(&format!(",{}{}", b.name(m.to as usize), b.name(sq)));
                alt.push_str(&text);
            }
        }
    }
    tails.push(alt);
    tails.dedup();
    tails
}

/// The legal move a SAN text names, if exactly one does.
///
/// Accepted beyond strict SAN: trailing `+`, `#`, `!`, `?` and `e.p.`; `0-0` and `0-0-0`;
/// promotion with or without `=` (`e8Q`, `e8=q`, `e8(Q)`, `e8/Q`); more disambiguation than
/// needed (`Ngf3`, `Ng1f3`, `Ng1-f3`); `:` for `x`; a capture written without `x`; a piece letter
/// in lowercase where that reads as nothing else (`nf3`, but `bxc3` is the b-file's unlettered
/// piece when it can take on c3). An `x` on a move that captures nothing is not accepted.
pub fn find(pos: &Position, text: &str) -> Option<Move> {
    let want = strip_annotations(text);
    if want.is_empty() {
        return None;
    }
    let legal = pos.legal_moves();
    let board = &pos.rules().board;
    let mut hits: Vec<(u8, Move)> = Vec::new();
    for &m in &legal {
        // Cheap filter before spelling a move every way it may be written.
        if matches!(m.kind, MoveKind::Form(_)) && !want.contains(board.name(m.to as usize).as_str()) {
            continue;
        }
        for (spelling, lenience) in spellings(pos, m) {
            if spelling == want {
                hits.push((lenience, m));
            }
        }
    }
    let best = hits.iter().map(|h| h.0).min()?;
    let mut moves: Vec<Move> = hits.into_iter().filter(|h| h.0 == best).map(|h| h.1).collect();
    moves.dedup();
    match moves.as_slice() {
        [m] => Some(*m),
        _ => None,
    }
}

/// `O-O` or `O-O-O` for a castling move: short when the royal moves towards higher files.
fn castle_text(pos: &Position, m: Move) -> &'static str {
    let b = &pos.rules().board;
    if b.file(m.to as usize) > b.file(m.from as usize) {
        "O-O"
    } else {
        "O-O-O"
    }
}

/// Which parts of the from-square a move needs: (file, rank).
fn disambiguation(pos: &Position, m: Move, legal: &[Move], force_file: bool) -> (bool, bool) {
    let b = &pos.rules().board;
    let kind = pos.piece_at(m.from as usize).map(|p| p.0);
    let rivals: Vec<usize> = legal
        .iter()
        .filter(|r| r.to == m.to && r.from != m.from && matches!(r.kind, MoveKind::Form(_)))
        .filter(|r| pos.piece_at(r.from as usize).map(|p| p.0) == kind)
        .map(|r| r.from as usize)
        .collect();
    let from = m.from as usize;
    let same_file = rivals.iter().any(|&r| b.file(r) == b.file(from));
    let same_rank = rivals.iter().any(|&r| b.rank(r) == b.rank(from));
    if force_file {
        (true, same_file)
    } else if rivals.is_empty() {
        (false, false)
    } else if !same_file {
        (true, false)
    } else if !same_rank {
        (false, true)
    } else {
        (true, true)
    }
}

/// The SAN of a legal move without its check suffix.
fn spell(pos: &Position, m: Move, legal: &[Move]) -> String {
    if let MoveKind::Castle(_) = m.kind {
        return castle_text(pos, m).to_string();
    }
    let rules = pos.rules();
    let b = &rules.board;
    let Some((kind, _)) = pos.piece_at(m.from as usize) else {
        return uci::first_text(pos, m.first_part());
    };
    let k = rules.kind(kind);
    let capture = pos.is_capture(m);
    let (file, rank) = disambiguation(pos, m, legal, k.unlettered && capture);
    let from = m.from as usize;
    let mut s = String::new();
    if !k.unlettered {
        s.push(k.written);
    }
    if file {
        s.push_str(&b.file_names[b.file(from)]);
    }
    if rank {
        s.push_str(&b.rank_names[b.rank(from)]);
    }
    if capture {
        s.push('x');
    }
    s.push_str(&b.name(m.to as usize));
    if let Some(p) = m.promotion() {
        s.push('=');
        s.push(rules.kind(p).written);
    }
    s
}

/// `#` if the move mates, `+` if it checks, else nothing.
fn suffix(pos: &Position, m: Move) -> &'static str {
    let mut after = pos.clone();
    after.play_unchecked(m);
    match (after.in_check(), after.legal_moves().is_empty()) {
        (false, _) => "",
        (true, false) => "+",
        (true, true) => "#",
    }
}

/// The text without surrounding space and trailing check marks, annotation glyphs and `e.p.`.
fn strip_annotations(text: &str) -> &str {
    let mut s = text.trim();
    loop {
        let before = s.len();
        s = s.trim_end().trim_end_matches(['+', '#', '!', '?']);
        if s.len() >= 4 && s.is_char_boundary(s.len() - 4) && s[s.len() - 4..].eq_ignore_ascii_case("e.p.") {
            s = &s[..s.len() - 4];
        }
        if s.len() == before {
            return s;
        }
    }
}

/// Every way `find` accepts `m` to be written, each with its lenience (0 = the piece letter as
/// the ruleset writes it; 1 = a lowercased letter, which loses to any reading as a file, or the FEN
/// letter where the written one differs).
fn spellings(pos: &Position, m: Move) -> Vec<(String, u8)> {
    if let MoveKind::Castle(_) = m.kind {
        let short = castle_text(pos, m);
        let mut out = Vec::new();
        for tail in part_tails(pos, m) {
            out.extend([
                (format!("{short}{tail}"), 0),
                (format!("{}{tail}", short.replace('O', "0")), 0),
                (format!("{}{tail}", short.replace('O', "o")), 1),
            ]);
        }
        return out;
    }
    let rules = pos.rules();
    let b = &rules.board;
    let Some((kind, _)) = pos.piece_at(m.from as usize) else {
        // A drop or a placement: its coordinates (`P@c3`), then the later parts (`P@c3,e5`).
        let first = uci::first_text(pos, m.first_part());
        return part_tails(pos, m).into_iter().map(|tail| (format!("{first}{tail}"), 0)).collect();
    };
    let k = rules.kind(kind);
    let capture = pos.is_capture(m);
    let from = m.from as usize;
    let upper = k.written.to_string();
    let lower = k.written.to_lowercase().to_string();
    let fen_upper = k.letter.to_string();
    let fen_lower = k.letter.to_lowercase().to_string();
    let mut letters: Vec<(&str, u8)> = Vec::new();
    if k.unlettered {
        letters.push(("", 0));
    }
    letters.push((&upper, 0));
    if lower != upper {
        letters.push((&lower, 1));
    }
    if fen_upper != upper {
        letters.push((&fen_upper, 1));
        letters.push((&fen_lower, 1));
    }
    let file = &b.file_names[b.file(from)];
    let rank = &b.rank_names[b.rank(from)];
    let both = format!("{file}{rank}");
    let origins: Vec<&str> = if k.unlettered && capture {
        vec![file, &both]
    } else {
        vec!["", file, rank, &both]
    };
    let promos: Vec<String> = match m.promotion() {
        None => vec![String::new()],
        Some(p) => {
            let pk = rules.kind(p);
            let mut v = Vec::new();
            let mut cs = vec![pk.written.to_ascii_uppercase(), pk.written.to_ascii_lowercase()];
            if pk.letter != pk.written {
                cs.extend([pk.letter.to_ascii_uppercase(), pk.letter.to_ascii_lowercase()]);
            }
            for c in cs {
                v.extend([format!("={c}"), c.to_string(), format!("({c})"), format!("/{c}")]);
            }
            v
        }
    };
    let to = b.name(m.to as usize);
    let tails = part_tails(pos, m);
    let mut out = Vec::new();
    for &(letter, lenience) in &letters {
        for &origin in &origins {
            let marks: &[&str] = match (capture, origin == both) {
                (true, _) => &["x", ":", ""],
                (false, true) => &["", "-"],
                (false, false) => &[""],
            };
            for mark in marks {
                for promo in &promos {
                    for tail in &tails {
                        out.push((format!("{letter}{origin}{mark}{to}{promo}{tail}"), lenience));
                    }
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    use super::*;
    use crate::game::Engine;

    fn chess() -> Engine {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../rulesets/chess.rules");
        let checked = crate::check::check_file(&path, &[]);
        Engine::new(checked.rules.expect("chess.rules is valid"))
    }

    fn at(fen: &str) -> Position {
        chess().from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
    }

    /// The SAN of the move `find` reads from `text`.
    fn reads(pos: &Position, text: &str) -> Option<String> {
        find(pos, text).map(|m| to_san(pos, m))
    }

    #[test]
    fn start_position_moves_are_written_like_san() {
        let pos = chess().start();
        let mut all: Vec<String> = pos.legal_moves().into_iter().map(|m| to_san(&pos, m)).collect();
        all.sort();
        let expected = [
            "Na3", "Nc3", "Nf3", "Nh3", "a3", "a4", "b3", "b4", "c3", "c4", "d3", "d4", "e3", "e4", "f3", "f4", "g3", "g4", "h3", "h4",
        ];
        assert_eq!(all, expected);
    }

    #[test]
    fn disambiguates_by_file_then_rank_then_both() {
        let pos = at("4k3/8/8/8/8/Q7/8/Q1Q1K3 w - - 0 1");
        let mut to_b2: Vec<String> = pos
            .legal_moves()
            .into_iter()
            .filter(|m| pos.rules().board.name(m.to as usize) == "b2")
            .map(|m| to_san(&pos, m))
            .collect();
        to_b2.sort();
        assert_eq!(to_b2, ["Q3b2", "Qa1b2", "Qcb2"]);
        let rooks = at("4k3/8/8/R7/8/8/4K3/R6R w - - 0 1");
        assert_eq!(reads(&rooks, "Rad1").as_deref(), Some("Rad1"));
        assert_eq!(reads(&rooks, "Rhd1").as_deref(), Some("Rhd1"));
        assert_eq!(reads(&rooks, "R5a3").as_deref(), Some("R5a3"));
        assert_eq!(reads(&rooks, "R1a3").as_deref(), Some("R1a3"));
        // Too little disambiguation names two moves.
        assert_eq!(find(&rooks, "Rd1"), None);
        assert_eq!(find(&rooks, "Ra3"), None);
    }

    #[test]
    fn castling_captures_en_passant_and_promotion() {
        let castles = at("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
        assert_eq!(reads(&castles, "O-O").as_deref(), Some("O-O"));
        assert_eq!(reads(&castles, "0-0-0").as_deref(), Some("O-O-O"));
        assert_eq!(reads(&castles, "O-O+").as_deref(), Some("O-O"));
        let ep = at("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2");
        assert_eq!(reads(&ep, "exd6").as_deref(), Some("exd6"));
        assert_eq!(reads(&ep, "exd6 e.p.").as_deref(), Some("exd6"));
        assert_eq!(reads(&ep, "exd6e.p.").as_deref(), Some("exd6"));
        assert_eq!(reads(&ep, "ed6").as_deref(), Some("exd6"));
        assert_eq!(find(&ep, "d6"), None);
        let promo = at("1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1");
        assert_eq!(reads(&promo, "a8=Q").as_deref(), Some("a8=Q"));
        assert_eq!(reads(&promo, "a8Q").as_deref(), Some("a8=Q"));
        assert_eq!(reads(&promo, "a8=n").as_deref(), Some("a8=N"));
        assert_eq!(reads(&promo, "axb8=N").as_deref(), Some("axb8=N"));
        assert_eq!(reads(&promo, "axb8Q+").as_deref(), Some("axb8=Q+"));
        // Which promotion is not said.
        assert_eq!(find(&promo, "a8"), None);
    }

    #[test]
    fn check_and_mate_suffixes() {
        let pos = at("r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4");
        assert_eq!(reads(&pos, "Qxf7").as_deref(), Some("Qxf7#"));
        assert_eq!(reads(&pos, "Bxf7").as_deref(), Some("Bxf7+"));
        assert_eq!(reads(&pos, "Qxf7#!!").as_deref(), Some("Qxf7#"));
        assert_eq!(reads(&pos, "Qh5xf7").as_deref(), Some("Qxf7#"));
    }

    #[test]
    fn lenient_reading() {
        let start = chess().start();
        for text in ["Nf3", "Ngf3", "Ng1f3", "Ng1-f3", "nf3", "Nf3!?", " Nf3 ", "Nf3?"] {
            assert_eq!(reads(&start, text).as_deref(), Some("Nf3"), "{text}");
        }
        // An `x` where nothing is taken names no move.
        assert_eq!(find(&start, "Nxf3"), None);
        // A lowercase `b` is the b-file when the b-pawn can take, the bishop otherwise.
        let both = at("4k3/8/8/8/8/2n5/1P6/4B1K1 w - - 0 1");
        assert_eq!(reads(&both, "bxc3").as_deref(), Some("bxc3"));
        assert_eq!(reads(&both, "Bxc3").as_deref(), Some("Bxc3"));
        let bishop_only = at("4k3/8/8/8/8/2n5/8/4B1K1 w - - 0 1");
        assert_eq!(reads(&bishop_only, "bxc3").as_deref(), Some("Bxc3"));
    }

    #[test]
    fn texts_naming_no_legal_move_give_none() {
        let start = chess().start();
        for text in [
            "", "+", "e5", "Ke2", "O-O", "0-0-0", "Qd4", "e4=Q", "x", "e.p.", "Zz9", "é4", "e44", "Nf3Q", "a9", "i3",
        ] {
            assert_eq!(find(&start, text), None, "{text:?}");
        }
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let alphabet: Vec<char> = "abcdefghKQRBNPOo0-x=+#!?12345678. :é".chars().collect();
        for _ in 0..500 {
            let len = rng.gen_range(0..8);
            let text: String = (0..len).map(|_| alphabet[rng.gen_range(0..alphabet.len())]).collect();
            if let Some(m) = find(&start, &text) {
                assert!(start.is_legal(m), "{text:?}");
            }
        }
    }

    fn bundled(name: &str) -> Engine {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("../rulesets/{name}.rules"));
        Engine::new(crate::check::check_file(&path, &[]).rules.expect("a bundled ruleset is valid"))
    }

    #[test]
    fn later_parts_of_a_turn_are_written_as_fairy_stockfish_writes_them() {
        // Seirawan: a piece gated on the square the move left, and castling's two squares.
        let e = bundled("seirawan");
        let start = e.start();
        let m = crate::notation::uci::find(&start, "b1c3h").expect("the knight may gate the hawk");
        assert_eq!(to_san(&start, m), "Nc3/H");
        assert_eq!(reads(&start, "Nc3/H").as_deref(), Some("Nc3/H"));
        assert_eq!(reads(&start, "Nc3/h").as_deref(), Some("Nc3/H"));
        assert_eq!(reads(&start, "Nc3").as_deref(), Some("Nc3"));
        assert_eq!(reads(&start, "Nc3/Q"), None, "no queen in hand");
        let castling = e.from_fen("r3k2r/8/8/8/8/8/8/R3K2R[HEhe] w KQEAHkqeah - 0 1").expect("valid");
        for (coords, san) in [
            ("e1g1h", "O-O/He1"),
            ("h1e1h", "O-O/Hh1"),
            ("e1g1", "O-O"),
            ("e1c1e", "O-O-O/Ee1+"),
            ("a1e1e", "O-O-O/Ea1"),
        ] {
            let m = crate::notation::uci::find(&castling, coords).unwrap_or_else(|| panic!("{coords} is legal"));
            assert_eq!(to_san(&castling, m), san, "{coords}");
            assert_eq!(find(&castling, san), Some(m), "{san}");
        }
        // Duck chess: the move, then the duck's square.
        let e = bundled("duck-chess");
        let start = e.start();
        let m = crate::notation::uci::find(&start, "e2e4,e4d5").expect("legal");
        assert_eq!(to_san(&start, m), "e4,d5");
        assert_eq!(find(&start, "e4,d5"), Some(m));
        assert_eq!(find(&start, "e4,e4d5"), Some(m));
        assert_eq!(find(&start, "e4"), None, "the duck must move too");
        assert_eq!(find(&start, "e4,e4"), None, "the duck cannot stay where the pawn is");
        // A drop, then the duck: the drop's coordinates and the duck's square.
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/language/duck-crazyhouse.rules");
        let e = Engine::new(crate::check::check_file(&path, &[]).rules.expect("valid"));
        let pos = e
            .from_fen("rn2kbnr/pB2p3/3qbp1p/2pp2p1/4PP2/1P3*2/P1PP2PP/RNBQK1NR[P] w KQkq - 1 9")
            .expect("valid");
        let m = crate::notation::uci::find(&pos, "P@c3,c3e5").expect("the pawn may be dropped");
        assert_eq!(to_san(&pos, m), "P@c3,e5");
        assert_eq!(find(&pos, "P@c3,e5"), Some(m));
        assert_eq!(find(&pos, "P@c3"), None, "the duck must move too");
    }
}
