//! Writing SGF: a [`Game`] with its game information, annotations and variations as an `FF[4]`
//! record (the reading half is the parent module). Invariant: what is written reads back through
//! [`super::parse`] to the same main line, variations, comments, assessments and game information;
//! what SGF cannot say (a NAG past `$6`, a tag that is not an SGF identifier) is named in the notes.

use super::point_text;
use crate::clock::Timing;
use crate::game::{Game, MoveKind, Status};
use crate::model::Side;
use crate::notation::annotation::{Annotation, Commentary};
use crate::notation::variation::{self, Branch, Line};

/// An FF[4] record of a game: `SZ`, `KM` (the ruleset's `komi` parameter, if it has one), `AB`/`AW`
/// for the stones of the start position, `PL` if white starts, one node per move (`B[cd]`, a pass as
/// `B[]`) and `RE` once the game is over ([`crate::game::Outcome::result_text`], `Void` for no
/// result). Written for games whose moves are placements and passes; any other move is written as
/// the point it goes to.
pub fn write(game: &Game) -> String {
    write_tree(game, &[], &Commentary::default(), &[]).0
}

/// As [`write`], with game information, annotations and variations.
///
/// `tags` in SGF's identifiers (`PB`, `DT`, [`super::GAME_INFO`], or any other property of capitals) are
/// written on the root node, but not those the writer sets itself from the game (`SZ`, `KM`,
/// `HA`, the setup; `RE` and `RU` when the game gives them); a tag whose name is not an SGF
/// identifier is left out with a note. The game comment of `commentary` is the root's `C`, and
/// each move's comment the `C` of its node; its NAGs become SGF's assessments (`$1`/`$3` → `TE[1]`/
/// `TE[2]`, `$2`/`$4` → `BM[1]`/`BM[2]`, `$5` → `IT[]`, `$6` → `DO[]`), others are left out with a
/// note. Each [`Branch`] (its moves in coordinates) becomes a game tree after the main line's
/// continuation at the move it replaces, nested as given, its comment on a node without a move at
/// its start; a branch at the end of the main line continues it. Also returns notes on branch moves
/// that are not legal where they stand (the branch is cut there).
pub fn write_tree(game: &Game, tags: &[(String, String)], commentary: &Commentary, branches: &[Branch]) -> (String, Vec<String>) {
    write_timed(game, tags, commentary, branches, None)
}

/// Text as an SGF property value: `\` and `]` escaped.
fn escape(text: &str) -> String {
    text.replace('\\', "\\\\").replace(']', "\\]")
}

/// As [`write_tree`], on a clock: `TM` (the first stage's time), `OT` for byo-yomi (`5x30
/// byo-yomi`), and on each main-line move the mover's time left (`BL`/`WL`, seconds) and, in
/// byo-yomi, the periods left (`OB`/`OW`).
pub fn write_timed(
    game: &Game,
    tags: &[(String, String)],
    commentary: &Commentary,
    branches: &[Branch],
    timing: Option<&Timing>,
) -> (String, Vec<String>) {
    let rules = game.engine().rules();
    let b = &rules.board;
    let start = &game.positions()[0];
    let pt = |sq: usize| point_text(b.file(sq), b.height - 1 - b.rank(sq));
    let mut s = String::from("(;FF[4]GM[1]CA[UTF-8]AP[Arbiter:");
    s.push_str(env!("CARGO_PKG_VERSION"));
    s.push(']');
    if b.width == b.height {
        s.push_str(&format!("SZ[{}]", b.width));
    } else {
        s.push_str(&format!("SZ[{}:{}]", b.width, b.height));
    }
    let param = |name: &str| {
        rules
            .params
            .iter()
            .find(|(n, _)| n == name)
            .and_then(|(_, v)| v.trim().parse::<f64>().ok())
    };
    if let Some(n) = param("handicap").filter(|&n| n >= 2.0) {
        s.push_str(&format!("HA[{n}]"));
    }
    // The komi the count uses: in a handicap game the ruleset's compensation may stand in for the
    // `komi` parameter, and other programs should count as this game was counted.
    let counted = rules.area_komi();
    if let Some(k) = param("komi").map(|k| counted.unwrap_or(k)) {
        s.push_str(&format!("KM[{k}]"));
    }
    // RU in SGF's own words, where the rules match one of its rule sets: a count by area is the
    // Chinese rules' (suicide forbidden) or New Zealand's (suicide allowed).
    let mut own = vec![
        "FF", "GM", "CA", "AP", "SZ", "HA", "KM", "AB", "AW", "AE", "PL", "TM", "OT", "C", "B", "W",
    ];
    if counted.is_some() {
        s.push_str(if rules.suicide_forbidden.is_some() {
            "RU[Chinese]"
        } else {
            "RU[NZ]"
        });
        own.push("RU");
    }
    let outcome = game.outcome();
    if outcome.status != Status::Ongoing {
        let re = match outcome.status {
            Status::NoResult => Some("Void".to_string()),
            _ => outcome.result_text(rules),
        };
        if let Some(re) = re {
            s.push_str(&format!("RE[{re}]"));
            own.push("RE");
        }
    }
    let mut notes = Vec::new();
    let mut written: Vec<&str> = Vec::new();
    for (name, value) in tags {
        if !name.chars().all(|c| c.is_ascii_uppercase()) || name.is_empty() {
            notes.push(format!("the tag `{name}` is not an SGF property name (capitals): not written"));
        } else if !own.contains(&name.as_str()) && !written.contains(&name.as_str()) {
            s.push_str(&format!("{name}[{}]", escape(value)));
            written.push(name);
        }
    }
    for (side, prop) in [(Side::FIRST, "AB"), (Side::SECOND, "AW")] {
        let stones: Vec<usize> = (0..b.squares())
            .filter(|&sq| start.piece_at(sq).is_some_and(|(_, s)| s == side))
            .collect();
        if !stones.is_empty() {
            s.push_str(prop);
            for sq in stones {
                s.push_str(&format!("[{}]", pt(sq)));
            }
        }
    }
    if start.side_to_move() == Side::SECOND {
        s.push_str("PL[W]");
    }
    if let Some(t) = timing {
        let secs = |ms: u64| format!("{}", ms as f64 / 1000.0);
        s.push_str(&format!("TM[{}]", secs(t.control.stages.first().map_or(0, |st| st.time_ms))));
        if let Some((n, p)) = t.control.byoyomi {
            s.push_str(&format!("OT[{n}x{} byo-yomi]", secs(p)));
        }
    }
    let mut g = Game::new(game.engine().clone(), start.clone());
    let mut resolved = variation::resolve(&mut g, game.moves(), &commentary.annotations, branches, &mut notes, "");
    resolved.comment = commentary.comment.clone();
    let mut line = variation::normalize(resolved);
    if let Some(c) = line.comment.take() {
        s.push_str(&format!("C[{}]", escape(&c)));
    }
    let after = timing.map(|t| t.after.as_slice()).unwrap_or_default();
    let mut unwritten = 0;
    write_line(&mut g, &line, &pt, after, &mut s, &mut unwritten);
    s.push_str(")\n");
    if unwritten > 0 {
        notes.push(format!(
            "{unwritten} annotation glyph(s) SGF has no property for (only $1 to $6 are written, one of each of TE and BM per move): not written"
        ));
    }
    (s, notes)
}

/// A move's annotation as SGF properties: its assessment (`TE`, `BM`, `IT`, `DO`) and comment
/// (`C`); `unwritten` counts the glyphs SGF cannot say.
fn annotation_text(a: &Annotation, unwritten: &mut usize) -> String {
    let mut out = String::new();
    let mut used: Vec<&str> = Vec::new();
    for &nag in &a.nags {
        let (id, value) = match nag {
            1 => ("TE", "1"),
            3 => ("TE", "2"),
            2 => ("BM", "1"),
            4 => ("BM", "2"),
            5 => ("IT", ""),
            6 => ("DO", ""),
            _ => {
                *unwritten += 1;
                continue;
            }
        };
        if used.contains(&id) {
            *unwritten += 1;
            continue;
        }
        used.push(id);
        out.push_str(&format!("{id}[{value}]"));
    }
    if let Some(c) = &a.comment {
        out.push_str(&format!("C[{}]", escape(c)));
    }
    out
}

/// The nodes of `line` from `g`'s position (left as it was): one per move up to the first move with
/// variations, then the rest of the line and each variation as game trees of their own.
///
/// `after[i]` (the main line's clock after move `i`) is written on move `i`'s node.
fn write_line(
    g: &mut Game,
    line: &Line,
    pt: &dyn Fn(usize) -> String,
    after: &[(u64, Option<u32>)],
    s: &mut String,
    unwritten: &mut usize,
) {
    // The line's own comment, before its first move: a node without a move.
    if let Some(c) = &line.comment {
        s.push_str(&format!(";C[{}]", escape(c)));
    }
    let split = line.branches.first().map_or(line.moves.len(), |(at, _)| *at);
    for (i, &m) in line.moves[..split].iter().enumerate() {
        let who = if g.current().side_to_move() == Side::FIRST { "B" } else { "W" };
        let value = match m.kind {
            MoveKind::Pass => String::new(),
            _ => pt(m.to as usize),
        };
        if !s.ends_with('(') {
            s.push('\n');
        }
        s.push_str(&format!(";{who}[{value}]"));
        if let Some((ms, periods)) = after.get(i) {
            s.push_str(&format!("{who}L[{}]", *ms as f64 / 1000.0));
            if let Some(p) = periods {
                s.push_str(&format!("O{who}[{p}]"));
            }
        }
        if let Some(a) = line.annotations.get(i) {
            s.push_str(&annotation_text(a, unwritten));
        }
        g.play(m);
    }
    if split < line.moves.len() {
        let rest = Line {
            moves: line.moves[split..].to_vec(),
            annotations: line.annotations.get(split..).unwrap_or_default().to_vec(),
            comment: None,
            branches: line
                .branches
                .iter()
                .filter(|(at, _)| *at > split)
                .map(|(at, l)| (at - split, l.clone()))
                .collect(),
        };
        s.push_str("\n(");
        write_line(g, &rest, pt, after.get(split..).unwrap_or_default(), s, unwritten);
        s.push(')');
        for (_, l) in line.branches.iter().filter(|(at, _)| *at == split) {
            s.push_str("\n(");
            write_line(g, l, pt, &[], s, unwritten);
            s.push(')');
        }
    }
    for _ in 0..split {
        g.undo();
    }
}
