//! WXF notation, the World Xiangqi Federation's way of writing moves: `C2.5`, `H8+7`, `R1-2`, `+C.5`.
//!
//! A move is written as its piece, the file it stands on, a direction and a destination. Everything
//! comes from the ruleset, nothing from a particular game: the piece is its kind's
//! [`written`](crate::model::Kind::written) letter, the board gives the files and ranks, and the mover's
//! own view gives the numbers and directions. The first player moves towards higher ranks and the
//! second towards lower ones; each numbers the files `1..=width` from its own right, so the first
//! player's file 1 is the highest file index (`i` on a xiangqi board) and the second player's is
//! index 0 (`a`).
//!
//! - Direction: `+` forward, `-` backward, `.` sideways (along the rank).
//! - Destination: for a move along its file, the number of ranks moved (`R2+6`); for any other move
//!   (sideways, or one that changes file, like a horse's, elephant's or advisor's) the destination's
//!   file number (`C2.5`, `H8+7`).
//! - Tandem pieces: when two pieces of the same kind and side stand on the origin file, a marker
//!   takes the place of the file number and is written before the letter: `+` for the front piece
//!   (the one nearer the opponent), `-` for the rear one: `+C.5`, `-R+1`.
//! - Three to five pieces of a kind on one file (only soldiers, in xiangqi) follow the WXF's table
//!   for tandem pawns ("Official xiangqi piece names and notation", wxf.org), markers again first. Three: front `+P`, middle `P3` (its plain file number),
//!   rear `-P`. Four: `++`, `+P`, `-P`, `--` from front to rear, the doubled marker standing for
//!   letter and file both. Five: `++`, `+P`, `P3`, `-P`, `--`. When another file also holds two or
//!   more of the kind, the file number replaces the letter: `+3.4`, `-7.6`; the middle piece keeps
//!   its plain `P3` (the WXF's `33` would read as a move number in PGN movetext; it is accepted).
//!
//! The WXF's own table writes a marker after the letter (`C+.5`, `R--1`, `3+.4`); Arbiter writes it
//! first, and [`find`] reads both orders. A move WXF cannot name uniquely — six or more pieces on one
//! file, a ruleset whose pieces make two moves share a text, a placement or a pass — is written in coordinates
//! ([`uci::to_text`]) and read back in coordinates. Invariant: [`to_wxf`] writes only a text [`find`]
//! reads back to the same move, and nothing here panics on any text.

use crate::game::{Move, MoveKind, Position};
use crate::model::{Board, Side};
use crate::notation::uci;

/// The WXF text of a legal move in `pos`.
///
/// A move that is not legal in `pos`, or one the notation cannot name uniquely (see the module
/// documentation), is written in coordinates ([`uci::to_text`]) instead.
///
/// # Examples
/// ```
/// # let checked = arbiter::check::check_file(std::path::Path::new("../rulesets/xiangqi.rules"), &[]);
/// # let engine = arbiter::game::Engine::new(checked.rules.expect("xiangqi.rules is valid"));
/// use arbiter::notation::{uci, wxf};
/// let start = engine.start();
/// let m = uci::find(&start, "h3e3").expect("a legal move");
/// assert_eq!(wxf::to_wxf(&start, m), "C2.5");
/// ```
pub fn to_wxf(pos: &Position, m: Move) -> String {
    let entries = entries(pos);
    entries
        .iter()
        .find(|e| e.mv == m)
        .and_then(|e| written(&entries, e))
        .unwrap_or_else(|| uci::to_text(pos, m))
}

/// The legal move a WXF text names, if exactly one does.
///
/// Accepted beyond what [`to_wxf`] writes: surrounding whitespace; lowercase letters; the FEN letter
/// as well as the written one (`N` for `H`, `B` for `E` in xiangqi); `=` for `.`; a tandem marker
/// after the letter, the WXF's own order (`C+.5`, `3+.4`); `33` for the middle of three or five
/// tandem pieces; the plain file number for a tandem piece (`C2.5`, as older records write it)
/// where only one of the pieces on that file can make the move. A move [`to_wxf`] writes in
/// coordinates is read in coordinates.
///
/// # Examples
/// ```
/// # let checked = arbiter::check::check_file(std::path::Path::new("../rulesets/xiangqi.rules"), &[]);
/// # let engine = arbiter::game::Engine::new(checked.rules.expect("xiangqi.rules is valid"));
/// use arbiter::notation::{uci, wxf};
/// let start = engine.start();
/// let m = wxf::find(&start, "h2+3").expect("a legal move");
/// assert_eq!(uci::to_text(&start, m), "h1g3");
/// assert_eq!(wxf::find(&start, "N2+3"), Some(m));
/// assert_eq!(wxf::find(&start, "H2+4"), None);
/// ```
pub fn find(pos: &Position, text: &str) -> Option<Move> {
    let want = text.trim();
    if want.is_empty() {
        return None;
    }
    let entries = entries(pos);
    if let Some(m) = read(&entries, want) {
        return Some(m);
    }
    entries
        .iter()
        .find(|e| written(&entries, e).is_none() && uci::to_text(pos, e.mv).eq_ignore_ascii_case(want))
        .map(|e| e.mv)
}

/// A legal move and, where WXF can name it, the parts of its text.
struct Entry {
    mv: Move,
    parts: Option<Parts>,
}

/// The canonical text of `e`, if [`read`] gives this move back for it.
fn written(entries: &[Entry], e: &Entry) -> Option<String> {
    e.parts.as_ref()?.canonical().filter(|t| read(entries, t) == Some(e.mv))
}

/// A text cut into its parts, before it is matched against the moves: `+C` `.` `5` (and `=Q`).
struct Text {
    /// Everything before the direction, uppercased: `C2`, `+C`, `++`.
    origin: String,
    /// `+`, `-` or `.` (`=` is read as `.`).
    dir: char,
    dest: usize,
    /// The promotion letter after `=`, uppercased.
    promo: Option<char>,
}

impl Text {
    fn parse(text: &str) -> Option<Text> {
        let up = text.trim().to_ascii_uppercase();
        let (rest, promo) = match up.rsplit_once('=') {
            Some((rest, p)) if p.len() == 1 && p.chars().all(|c| c.is_ascii_alphabetic()) => (rest, p.chars().next()),
            _ => (up.as_str(), None),
        };
        let digits = rest.len() - rest.trim_end_matches(|c: char| c.is_ascii_digit()).len();
        let (head, dest) = rest.split_at(rest.len() - digits);
        if dest.is_empty() || dest.starts_with('0') || dest.len() > 3 {
            return None;
        }
        let dir = head.chars().last()?;
        let origin = &head[..head.len() - dir.len_utf8()];
        let dir = match dir {
            '+' | '-' | '.' => dir,
            '=' => '.',
            _ => return None,
        };
        if origin.is_empty() {
            return None;
        }
        Some(Text {
            origin: origin.to_string(),
            dir,
            dest: dest.parse().ok()?,
            promo,
        })
    }
}

/// The one move whose best-lenience reading of `text` it is.
fn read(entries: &[Entry], text: &str) -> Option<Move> {
    let t = Text::parse(text)?;
    let mut best: Option<u8> = None;
    let mut hits: Vec<Move> = Vec::new();
    for e in entries {
        let Some(l) = e.parts.as_ref().and_then(|p| p.lenience(&t)) else {
            continue;
        };
        match best {
            Some(b) if l > b => {}
            Some(b) if l == b => hits.push(e.mv),
            _ => {
                best = Some(l);
                hits = vec![e.mv];
            }
        }
    }
    match hits.as_slice() {
        [m] => Some(*m),
        _ => None,
    }
}

/// How the side to move sees the board.
struct View<'a> {
    board: &'a Board,
    side: Side,
}

impl View<'_> {
    /// The file's number, counted 1.. from the mover's right.
    fn number(&self, file: usize) -> usize {
        if self.side == Side::FIRST {
            self.board.width - file
        } else {
            file + 1
        }
    }
    /// How far up the board a square is, counted from the mover's own edge.
    fn ahead(&self, sq: usize) -> usize {
        let r = self.board.rank(sq);
        if self.side == Side::FIRST { r } else { self.board.height - 1 - r }
    }
}

/// How a move's text picks out the piece that moves (everything before the direction).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Origin {
    /// Letter and file number: `C2` (alone on its file, or the middle one of three or five).
    Plain { middle: bool },
    /// One marker: `+C` (or `+3` when another file also holds tandem pieces of the kind).
    Marker { mark: char, by_file: bool },
    /// A doubled marker standing for letter and file: `++`, `--` (foremost, rearmost of four or five).
    Double { mark: char },
    /// Six or more on one file: WXF has no name for the piece.
    Unnamed,
}

/// The marker of the piece with `behind` pieces in front of it among `n` on one file: `None` for
/// the middle piece (written with its file number), `Some((mark, 1 or 2))` otherwise; `None` outside
/// the WXF's table (six or more).
fn tandem_mark(n: usize, behind: usize) -> Option<Option<(char, usize)>> {
    let marks: &[Option<(char, usize)>] = match n {
        1 => &[None],
        2 => &[Some(('+', 1)), Some(('-', 1))],
        3 => &[Some(('+', 1)), None, Some(('-', 1))],
        4 => &[Some(('+', 2)), Some(('+', 1)), Some(('-', 1)), Some(('-', 2))],
        5 => &[Some(('+', 2)), Some(('+', 1)), None, Some(('-', 1)), Some(('-', 2))],
        _ => return None,
    };
    marks.get(behind).copied()
}

/// What a move's WXF text is made of.
struct Parts {
    /// The written letter and the FEN letter, uppercase.
    letter: char,
    fen: char,
    /// The origin file's number.
    file: usize,
    origin: Origin,
    dir: char,
    dest: usize,
    /// The promotion's written and FEN letters, uppercase.
    promo: Option<(char, char)>,
}

impl Parts {
    /// The text [`to_wxf`] writes, if WXF names the piece.
    fn canonical(&self) -> Option<String> {
        let (l, f) = (self.letter, self.file);
        let origin = match self.origin {
            Origin::Plain { .. } => format!("{l}{f}"),
            Origin::Marker { mark, by_file: false } => format!("{mark}{l}"),
            Origin::Marker { mark, by_file: true } => format!("{mark}{f}"),
            Origin::Double { mark } => format!("{mark}{mark}"),
            Origin::Unnamed => return None,
        };
        let promo = self.promo.map(|(p, _)| format!("={p}")).unwrap_or_default();
        Some(format!("{origin}{}{}{promo}", self.dir, self.dest))
    }

    /// How leniently `t` names this move (0 as written, higher loses to lower), if it does.
    fn lenience(&self, t: &Text) -> Option<u8> {
        if t.dir != self.dir || t.dest != self.dest {
            return None;
        }
        let promo = match (self.promo, t.promo) {
            (None, None) => 0,
            (Some((w, _)), Some(p)) if p == w => 0,
            (Some((_, f)), Some(p)) if p == f => 1,
            _ => return None,
        };
        let mut best: Option<u8> = None;
        for (letter, by_letter) in [(self.letter, 0), (self.fen, 1)] {
            for (origin, by_origin) in self.origins(letter) {
                if origin == t.origin {
                    let l = by_letter + by_origin;
                    best = Some(best.map_or(l, |b| b.min(l)));
                }
            }
        }
        best.map(|b| b + promo)
    }

    /// Every way the origin may be written with this letter, with its lenience.
    fn origins(&self, l: char) -> Vec<(String, u8)> {
        let f = self.file;
        let plain = format!("{l}{f}");
        match self.origin {
            Origin::Plain { middle: false } => vec![(plain, 0)],
            Origin::Plain { middle: true } => vec![(plain, 0), (format!("{f}{f}"), 0)],
            Origin::Marker { mark, by_file: false } => vec![(format!("{mark}{l}"), 0), (format!("{l}{mark}"), 0), (plain, 2)],
            Origin::Marker { mark, by_file: true } => vec![
                (format!("{mark}{f}"), 0),
                (format!("{f}{mark}"), 0),
                (format!("{mark}{l}"), 2),
                (format!("{l}{mark}"), 2),
                (plain, 2),
            ],
            Origin::Double { mark } => vec![(format!("{mark}{mark}"), 0), (plain, 2)],
            Origin::Unnamed => vec![(plain, 2)],
        }
    }
}

/// Every legal move of `pos` with the parts of its text.
fn entries(pos: &Position) -> Vec<Entry> {
    let rules = pos.rules();
    let board = &rules.board;
    let view = View {
        board,
        side: pos.side_to_move(),
    };
    // columns[kind][file]: how far ahead each of the mover's pieces of that kind on that file stands.
    let mut columns: Vec<Vec<Vec<usize>>> = vec![vec![Vec::new(); board.width]; rules.kinds.len()];
    for sq in 0..board.squares() {
        if let Some((k, s)) = pos.piece_at(sq)
            && s == view.side
            && let Some(col) = columns.get_mut(k.0 as usize).and_then(|c| c.get_mut(board.file(sq)))
        {
            col.push(view.ahead(sq));
        }
    }
    pos.legal_moves()
        .into_iter()
        .map(|mv| Entry {
            mv,
            parts: parts(pos, &view, &columns, mv),
        })
        .collect()
}

/// The parts of a move's text; `None` for a move that does not take a piece from one square to another.
fn parts(pos: &Position, view: &View, columns: &[Vec<Vec<usize>>], mv: Move) -> Option<Parts> {
    let rules = pos.rules();
    let board = view.board;
    let (from, to) = (mv.from as usize, mv.to as usize);
    // A piece that moves from one square to another; placements and passes have no WXF.
    if !matches!(mv.kind, MoveKind::Form(_) | MoveKind::Castle(_)) || from >= board.squares() || to >= board.squares() {
        return None;
    }
    let (kind, _) = pos.piece_at(from)?;
    let k = rules.kind(kind);
    let (file_from, file_to) = (board.file(from), board.file(to));
    let (ahead_from, ahead_to) = (view.ahead(from), view.ahead(to));
    let dir = match ahead_to.cmp(&ahead_from) {
        std::cmp::Ordering::Greater => '+',
        std::cmp::Ordering::Less => '-',
        std::cmp::Ordering::Equal => '.',
    };
    let dest = if file_from != file_to {
        view.number(file_to)
    } else if ahead_from != ahead_to {
        ahead_from.abs_diff(ahead_to)
    } else {
        return None;
    };
    let kind_columns = columns.get(kind.0 as usize)?;
    let column = kind_columns.get(file_from)?;
    let behind = column.iter().filter(|&&a| a > ahead_from).count();
    let others_tandem = kind_columns.iter().enumerate().any(|(f, c)| f != file_from && c.len() >= 2);
    let origin = match tandem_mark(column.len(), behind) {
        None => Origin::Unnamed,
        Some(None) => Origin::Plain { middle: column.len() > 1 },
        Some(Some((mark, 1))) => Origin::Marker {
            mark,
            by_file: others_tandem,
        },
        Some(Some((mark, _))) => Origin::Double { mark },
    };
    Some(Parts {
        letter: k.written.to_ascii_uppercase(),
        fen: k.letter.to_ascii_uppercase(),
        file: view.number(file_from),
        origin,
        dir,
        dest,
        promo: mv.promotion().map(|p| {
            let pk = rules.kind(p);
            (pk.written.to_ascii_uppercase(), pk.letter.to_ascii_uppercase())
        }),
    })
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    use super::*;
    use crate::game::Engine;

    fn xiangqi() -> Engine {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../rulesets/xiangqi.rules");
        let checked = crate::check::check_file(&path, &[]);
        Engine::new(checked.rules.expect("xiangqi.rules is valid"))
    }

    fn at(fen: &str) -> Position {
        xiangqi().from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
    }

    /// The coordinates of the move `find` reads from `text`.
    fn reads(pos: &Position, text: &str) -> Option<String> {
        find(pos, text).map(|m| uci::to_text(pos, m))
    }

    /// The WXF of the move written `coords`.
    fn wxf_of(pos: &Position, coords: &str) -> String {
        let m = uci::find(pos, coords).unwrap_or_else(|| panic!("{coords} is not legal in {}", pos.fen()));
        to_wxf(pos, m)
    }

    #[test]
    fn start_position_from_both_sides() {
        let red = xiangqi().start();
        assert_eq!(wxf_of(&red, "h3e3"), "C2.5");
        assert_eq!(wxf_of(&red, "b3e3"), "C8.5");
        assert_eq!(wxf_of(&red, "h1g3"), "H2+3");
        assert_eq!(wxf_of(&red, "i1i2"), "R1+1");
        assert_eq!(wxf_of(&red, "g1e3"), "E3+5");
        assert_eq!(wxf_of(&red, "f1e2"), "A4+5");
        assert_eq!(wxf_of(&red, "e1e2"), "K5+1");
        assert_eq!(wxf_of(&red, "c4c5"), "P7+1");
        assert_eq!(wxf_of(&red, "h3h10"), "C2+7");
        let black = at("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1");
        // Black counts files from its own right, which is file a.
        assert_eq!(wxf_of(&black, "h10g8"), "H8+7");
        assert_eq!(wxf_of(&black, "b10c8"), "H2+3");
        assert_eq!(wxf_of(&black, "h8e8"), "C8.5");
        assert_eq!(wxf_of(&black, "i10i9"), "R9+1");
        assert_eq!(wxf_of(&black, "c10e8"), "E3+5");
        assert_eq!(wxf_of(&black, "c7c6"), "P3+1");
        assert_eq!(wxf_of(&black, "b8b1"), "C2+7");
        assert_eq!(reads(&black, "H8+7").as_deref(), Some("h10g8"));
    }

    #[test]
    fn lenient_reading_and_rejection() {
        let red = xiangqi().start();
        for text in ["C2.5", "c2.5", "C2=5", " C2.5\t", "c2=5"] {
            assert_eq!(reads(&red, text).as_deref(), Some("h3e3"), "{text}");
        }
        for text in ["H2+3", "N2+3", "n2+3", "h2+3"] {
            assert_eq!(reads(&red, text).as_deref(), Some("h1g3"), "{text}");
        }
        assert_eq!(reads(&red, "B3+5").as_deref(), Some("g1e3"));
        for text in [
            "", "C", "C2", "C2.", "C2.0", "C2.10", "C2+8", "H2+4", "H2.3", "X2.5", "C2..5", "C2.5x", "+C.5", "h3e3", "C2.5=Q",
        ] {
            assert_eq!(find(&red, text), None, "{text:?}");
        }
    }

    #[test]
    fn tandem_front_and_rear() {
        // Red cannons on e3 and e5, red chariots on a1 and a6.
        let pos = at("3k5/9/9/9/R8/4C4/9/4C4/9/R3K4 w - - 0 1");
        assert_eq!(wxf_of(&pos, "e5d5"), "+C.6");
        assert_eq!(wxf_of(&pos, "e3f3"), "-C.4");
        assert_eq!(wxf_of(&pos, "e3e4"), "-C+1");
        assert_eq!(wxf_of(&pos, "a6a10"), "+R+4");
        assert_eq!(wxf_of(&pos, "a1a3"), "-R+2");
        assert_eq!(wxf_of(&pos, "a6a2"), "+R-4");
        // The WXF's own order, and the plain file number where only one cannon can do it.
        assert_eq!(reads(&pos, "C+.6").as_deref(), Some("e5d5"));
        assert_eq!(reads(&pos, "C-+1").as_deref(), Some("e3e4"));
        assert_eq!(reads(&pos, "C5+1").as_deref(), None, "both cannons can step forward");
        assert_eq!(reads(&pos, "C5+2").as_deref(), Some("e5e7"));
    }

    #[test]
    fn three_and_five_on_a_file_follow_the_wxf_table() {
        // Red soldiers on g6, g7, g8 (red's file 3; g8 is the front one), sideways to file 4 (f).
        let three = at("3k5/9/6P2/6P2/6P2/9/9/9/9/4K4 w - - 0 1");
        assert_eq!(wxf_of(&three, "g8f8"), "+P.4");
        assert_eq!(wxf_of(&three, "g8g9"), "+P+1");
        assert_eq!(wxf_of(&three, "g7f7"), "P3.4");
        assert_eq!(wxf_of(&three, "g6f6"), "-P.4");
        assert_eq!(reads(&three, "P+.4").as_deref(), Some("g8f8"));
        assert_eq!(reads(&three, "33.4").as_deref(), Some("g7f7"));
        let five = at("3k2P2/6P2/6P2/6P2/6P2/9/9/9/9/4K4 w - - 0 1");
        let texts: Vec<String> = ["g10f10", "g9f9", "g8f8", "g7f7", "g6f6"]
            .iter()
            .map(|c| wxf_of(&five, c))
            .collect();
        assert_eq!(texts, ["++.4", "+P.4", "P3.4", "-P.4", "--.4"]);
    }

    /// A made-up game: its odd piece reaches the next file forward two ways, and its pawns step
    /// sideways anywhere, so six of them on one file can all move.
    const ODD: &str = r#"
game "Odd" {
  players white "w", black "b"
  notation wxf
}
board 5 x 8 squares {
  files a..e
  ranks 1..8
}
piece King "K" royal { step orthogonal }
piece Odd "O" written "D" {
  leap (1,1)
  leap (1,2)
}
piece Pawn "P" {
  step forward
  step sideways
}
forbid royal attacked
end {
  checkmate: no legal move, in check -> side to move loses
  stalemate: no legal move -> draw
}
setup "k4/2P2/2P2/2P2/2P2/2P2/2P2/1O2K w - - 0 1"
"#;

    #[test]
    fn moves_wxf_cannot_name_are_written_in_coordinates() {
        let checked = crate::check::check_source("odd.rules", ODD, None, &[]);
        let engine = Engine::new(checked.rules.expect("odd.rules is valid"));
        let p = engine.from_fen("k4/2P2/2P2/2P2/2P2/2P2/2P2/1O2K w - - 0 1").expect("a valid FEN");
        // b1a2 and b1a3 both go forward to file 5: `D4+5` would name two moves.
        assert_eq!(wxf_of(&p, "b1a2"), "b1a2");
        assert_eq!(wxf_of(&p, "b1a3"), "b1a3");
        assert_eq!(find(&p, "D4+5"), None);
        assert_eq!(reads(&p, "b1a3").as_deref(), Some("b1a3"));
        assert_eq!(wxf_of(&p, "b1d2"), "D4+2");
        assert_eq!(reads(&p, "O4+2").as_deref(), Some("b1d2"));
        // Six pawns on one file are past the WXF's table.
        assert_eq!(wxf_of(&p, "c4b4"), "c4b4");
        assert_eq!(reads(&p, "c4b4").as_deref(), Some("c4b4"));
        assert_eq!(find(&p, "P3.4"), None);
        // A move WXF can name is not read from coordinates.
        assert_eq!(find(&p, "b1d2"), None);
        for m in p.legal_moves() {
            assert_eq!(find(&p, &to_wxf(&p, m)), Some(m), "{}", uci::to_text(&p, m));
        }
    }

    #[test]
    fn random_games_round_trip_and_never_share_a_text() {
        let engine = xiangqi();
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let mut positions = 0;
        for _ in 0..12 {
            let mut pos = engine.start();
            for _ in 0..60 {
                let legal = pos.legal_moves();
                if legal.is_empty() {
                    break;
                }
                let mut seen = std::collections::HashSet::new();
                for &m in &legal {
                    let text = to_wxf(&pos, m);
                    assert_eq!(find(&pos, &text), Some(m), "{text} in {}", pos.fen());
                    assert!(seen.insert(text.clone()), "{text} twice in {}", pos.fen());
                }
                positions += 1;
                pos.play_unchecked(legal[rng.gen_range(0..legal.len())]);
            }
        }
        assert!(positions > 300, "{positions}");
    }
}
