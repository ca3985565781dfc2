//! The game with its variations as a record: exported as PGN (moves in the ruleset's notation: SAN,
//! WXF, coordinates) or, for games that capture chains, SGF; and a record's variations brought into
//! the variation tree when it is opened, so what was exported opens again as it was.
//!
//! The record's main line is the timeline's game: its frames followed move by move from the start
//! (or from the last frame that set up a position rather than playing to it). Each branch of the
//! [`Tree`] hangs off the timeline step it left, which is a ply of that game. The interpreter writes
//! and reads the records ([`arbiter::notation::pgn::write_tree`], [`arbiter::notation::sgf::write_tree`],
//! [`arbiter::notation::variation`]); nothing here knows a game.

use std::path::{Path, PathBuf};

use arbiter::game::{Engine, Game};
use arbiter::notation::annotation::{Annotation, Commentary, nag_glyph};
use arbiter::notation::variation::Branch;
use arbiter::notation::{find, pgn, record, sgf, written};

use crate::session::Session;
use crate::session::tree::{NodeId, Tree};

/// The formats the sandbox exports.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RecordFormat {
    Pgn,
    Sgf,
}

impl RecordFormat {
    /// The format the game's records are kept in, as its ruleset says (`records pgn`, or by
    /// default PGN for SAN or WXF notation and SGF for games that capture chains): the first the
    /// ruleset names; `None` for a game with no record format (draughts, hex, othello… — their
    /// games are kept as scenarios).
    pub fn of(engine: &Engine) -> Option<RecordFormat> {
        engine.rules().record_formats().first().map(|f| match f {
            arbiter::model::RecordFormat::Pgn => RecordFormat::Pgn,
            arbiter::model::RecordFormat::Sgf => RecordFormat::Sgf,
        })
    }

    pub fn extension(self) -> &'static str {
        match self {
            RecordFormat::Pgn => "pgn",
            RecordFormat::Sgf => "sgf",
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            RecordFormat::Pgn => "PGN",
            RecordFormat::Sgf => "SGF",
        }
    }
}

/// What an opened record carries beside its moves, kept so that an export writes it back: its
/// tags (PGN's tag pairs, SGF's game information, a WXF file's header lines, in the record's own
/// names), the comment before its first move, and each main-line move's annotation by timeline
/// step (index 0, the start, has none). The variations' annotations are on the tree's nodes.
#[derive(Clone, Debug, PartialEq)]
pub struct RecordNotes {
    /// The format whose names the tags are in (a WXF file's: PGN's, as xiangqi exports PGN).
    pub format: RecordFormat,
    pub tags: Vec<(String, String)>,
    pub comment: Option<String>,
    pub by_step: Vec<Annotation>,
}

impl RecordNotes {
    /// The notes of a record read as `format`, its main line's commentary given by ply.
    pub fn new(format: record::Format, tags: Vec<(String, String)>, commentary: &Commentary) -> RecordNotes {
        let mut by_step = vec![Annotation::default()];
        by_step.extend(commentary.annotations.iter().cloned());
        RecordNotes {
            format: match format {
                record::Format::Sgf => RecordFormat::Sgf,
                record::Format::Pgn | record::Format::Wxf => RecordFormat::Pgn,
            },
            tags,
            comment: commentary.comment.clone(),
            by_step,
        }
    }

    /// The annotation of the move that led to timeline step `step`, if it says anything.
    pub fn at(&self, step: usize) -> Option<&Annotation> {
        self.by_step.get(step).filter(|a| !a.is_empty())
    }

    /// Is there anything to show: the game's comment, or a comment or glyph on a move?
    pub fn any(&self) -> bool {
        self.comment.is_some() || self.by_step.iter().any(|a| !a.is_empty())
    }
}

/// A move's annotation glyphs as a reader sees them after the move: `!`, `?!` for the move
/// judgements, `$n` for the others.
pub fn glyphs(a: &Annotation) -> String {
    let mut out = String::new();
    for &n in &a.nags {
        match nag_glyph(n) {
            Some(g) => out.push_str(g),
            None => out.push_str(&format!(" ${n}")),
        }
    }
    out
}

/// The timeline's game and, for each step, its ply in that game (`None` for steps before the last
/// frame that set up a position: they are not in the record).
fn main_line(session: &Session) -> Result<(Game, Vec<Option<usize>>), String> {
    let first = session.timeline.first().ok_or("the timeline is empty")?;
    let start = session.engine.from_fen(&first.fen).map_err(|e| format!("step 0: {e}"))?;
    let mut game = Game::new(session.engine.clone(), start);
    let mut plies = vec![Some(0)];
    for (k, f) in session.timeline.iter().enumerate().skip(1) {
        let (before, start_fen) = (game.ply(), game.positions()[0].fen());
        crate::session::actions::follow(&session.engine, &mut game, f).map_err(|e| format!("step {k}: {e}"))?;
        let reset = game.ply() != before + f.played.len() || game.positions()[0].fen() != start_fen;
        if reset {
            plies.iter_mut().for_each(|p| *p = None);
        }
        plies.push(Some(game.ply()));
    }
    Ok((game, plies))
}

/// The branches of the tree from `id` on: the line through first children, and the other
/// children as branches of that line.
fn branch_from(tree: &Tree, id: NodeId, at: usize) -> Branch {
    let mut b = Branch {
        at,
        comment: tree.node(id).and_then(|n| n.line_comment.clone()),
        ..Branch::default()
    };
    let mut cur = Some(id);
    while let Some(n) = cur.and_then(|c| tree.node(c).map(|node| (c, node))) {
        let (c, node) = n;
        b.moves.push(node.coords.clone());
        b.annotations.push(node.annotation.clone());
        let children = tree.children(node.anchor, Some(c));
        for &other in children.iter().skip(1) {
            b.branches.push(branch_from(tree, other, b.moves.len()));
        }
        cur = children.first().copied();
    }
    b
}

/// The tree's branches as the record's variations, each at the ply of the step it left; and how
/// many branches left steps that are not in the record.
fn variations(session: &Session, plies: &[Option<usize>]) -> (Vec<Branch>, usize) {
    let mut out = Vec::new();
    let mut left_out = 0;
    for (step, ply) in plies.iter().enumerate() {
        for root in session.variations.roots(step) {
            match ply {
                Some(p) => out.push(branch_from(&session.variations, root, *p)),
                None => left_out += 1,
            }
        }
    }
    (out, left_out)
}

/// Today's date as PGN writes it (`2026.12.01`), from the system clock (UTC).
fn today() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let (y, m, d) = civil_from_days((secs / 86_400) as i64);
    format!("{y:04}.{m:02}.{d:02}")
}

/// The proleptic Gregorian date of a day counted from 1970-01-01 (Howard Hinnant's algorithm).
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

/// The session's game and variations as record text, with notes on what was left out.
pub fn record_text(session: &Session) -> Result<(String, RecordFormat, Vec<String>), String> {
    let (game, plies) = main_line(session)?;
    let (branches, left_out) = variations(session, &plies);
    let format = RecordFormat::of(&session.engine).ok_or_else(|| no_format(session))?;
    // What an opened record carried: its main line's annotations at the plies of their steps, and
    // its tags where it was read in the format written.
    let kept = session.record.as_ref();
    let mut commentary = Commentary {
        comment: kept.and_then(|r| r.comment.clone()),
        annotations: Vec::new(),
    };
    for (step, ply) in plies.iter().enumerate() {
        if let (Some(p), Some(a)) = (ply, kept.and_then(|r| r.at(step)))
            && *p >= 1
        {
            if commentary.annotations.len() < *p {
                commentary.annotations.resize(*p, Annotation::default());
            }
            commentary.annotations[p - 1] = a.clone();
        }
    }
    let own_tags = kept.filter(|r| r.format == format).map(|r| r.tags.clone());
    let (text, mut notes) = match format {
        RecordFormat::Sgf => sgf::write_tree(&game, &own_tags.unwrap_or_default(), &commentary, &branches),
        RecordFormat::Pgn => {
            let rules_name = session
                .rules_path
                .as_deref()
                .and_then(Path::file_stem)
                .and_then(|s| s.to_str())
                .unwrap_or("?")
                .to_string();
            let players = &session.engine.rules().players;
            let made = vec![
                ("Event".to_string(), session.title.clone()),
                ("Site".to_string(), "Arbiter sandbox".to_string()),
                ("Date".to_string(), today()),
                ("White".to_string(), players[0].name.clone()),
                ("Black".to_string(), players[1].name.clone()),
                ("Variant".to_string(), rules_name),
            ];
            // An opened record's own tags, in its order; the ruleset's name where it had none.
            let tags = match own_tags {
                Some(mut own) => {
                    if !own.iter().any(|(k, _)| k == "Variant") {
                        own.extend(made.into_iter().filter(|(k, _)| k == "Variant"));
                    }
                    own
                }
                None => made,
            };
            pgn::write_tree(&game, &tags, &commentary, &branches)
        }
    };
    if left_out > 0 {
        notes.push(format!(
            "{left_out} variation(s) before the last set-up position are not in the record"
        ));
    }
    Ok((text, format, notes))
}

/// Why a game cannot be exported: its ruleset names no record format.
pub fn no_format(session: &Session) -> String {
    format!(
        "{} has no game record format (its ruleset names none: `records pgn` or `records sgf` in its game block); save it as a scenario instead",
        session.engine.rules().name
    )
}

/// `<save_dir>/<title>-<n>.<pgn|sgf>` with the first `n` not taken (`.ron` for a game with no record
/// format: the export is refused anyway).
pub fn default_export_path(session: &Session) -> PathBuf {
    let dir = crate::session::editor::save_dir();
    let base = crate::session::editor::slug(&session.title);
    let ext = RecordFormat::of(&session.engine).map_or("ron", RecordFormat::extension);
    (1..)
        .map(|n| dir.join(format!("{base}-{n}.{ext}")))
        .find(|p| !p.exists())
        .expect("some numbered name is free")
}

/// Writes the game with its variations to `path` (never over an existing file); says what it wrote.
///
/// # Errors
/// The file exists or cannot be written, or the timeline cannot be replayed.
pub fn export(session: &Session, path: &Path) -> Result<String, String> {
    let (text, format, notes) = record_text(session)?;
    reads_back(session, &text, format)?;
    crate::session::editor::write_new(path, &text)?;
    let branches = session.variations.nodes.iter().filter(|n| !n.deleted).count();
    let mut said = format!(
        "exported the game as {} to {} ({} move(s) by hand in variations)",
        format.name(),
        path.display(),
        branches
    );
    for n in notes {
        said.push_str("; ");
        said.push_str(&n);
    }
    Ok(said)
}

/// Does `text` read back as the game it was written from, with every variation? The ruleset's
/// notation may write two turns alike (two clauses that give moves between the same squares with
/// different effects, a step and a copy left behind, are both written `d1c1`, and then neither
/// reads), and a record that opens as another game, or not at all, is better not written.
///
/// # Errors
/// What would go wrong on reading it: the first move that would not read, or the first that would
/// read as another.
pub fn reads_back(session: &Session, text: &str, format: RecordFormat) -> Result<(), String> {
    let refuse = |why: String| {
        Err(format!(
            "not exported: the record would not read back as this game ({why}); the ruleset's notation writes some of its turns alike"
        ))
    };
    let (game, _) = main_line(session)?;
    let read = match format {
        RecordFormat::Pgn => record::read(text, record::Format::Pgn),
        RecordFormat::Sgf => record::read(text, record::Format::Sgf),
    };
    let replayed = match read.and_then(|rec| rec.replay(&session.engine)) {
        Ok(r) => r,
        Err(e) => return refuse(e.to_string()),
    };
    if let Some(stop) = replayed.stopped {
        return refuse(stop.to_string());
    }
    if let Some(i) = (0..game.moves().len()).find(|&i| replayed.game.moves().get(i) != game.moves().get(i)) {
        return refuse(format!("move {} reads as another", i + 1));
    }
    if let Some(skipped) = replayed.skipped.first() {
        return refuse(format!("in a variation, {skipped}"));
    }
    Ok(())
}

/// A record's variations (in coordinates, as [`arbiter::notation::record::Replayed`] gives them) as
/// a tree whose branches leave the steps of `game`'s plies; `game` is left as it was.
pub fn tree_of(game: &Game, branches: &[Branch]) -> Tree {
    let mut tree = Tree::default();
    let mut g = Game::new(game.engine().clone(), game.positions()[0].clone());
    let main = game.moves().to_vec();
    let mut played = 0;
    let mut sorted: Vec<&Branch> = branches.iter().collect();
    sorted.sort_by_key(|b| b.at);
    for b in sorted {
        if b.at > main.len() {
            continue;
        }
        while played < b.at {
            g.play(main[played]);
            played += 1;
        }
        add_line(&mut tree, &mut g, b.at, None, b);
    }
    tree
}

/// Adds branch `b` after `parent` (or as a root at `anchor`) with its nested branches; `g` stands
/// at the branch's start and is left there.
fn add_line(tree: &mut Tree, g: &mut Game, anchor: usize, parent: Option<NodeId>, b: &Branch) {
    let mut ids: Vec<Option<NodeId>> = vec![parent];
    let mut played = 0;
    for (i, text) in b.moves.iter().enumerate() {
        let Some(m) = find(g.current(), text) else { break };
        let id = tree.add(anchor, *ids.last().expect("never empty"), text, &written(g.current(), m));
        if let Some(a) = b.annotations.get(i) {
            tree.nodes[id.0].annotation = a.clone();
        }
        if i == 0 && b.comment.is_some() {
            tree.nodes[id.0].line_comment = b.comment.clone();
        }
        g.play(m);
        played += 1;
        ids.push(Some(id));
    }
    // A nested branch at `at` replaces move `at`: it follows the node before it.
    for nested in &b.branches {
        if nested.at > played {
            continue;
        }
        for _ in nested.at..played {
            g.undo();
        }
        add_line(tree, g, anchor, ids[nested.at], nested);
        for m in &b.moves[nested.at..played] {
            let mv = find(g.current(), m).expect("played before");
            g.play(mv);
        }
    }
    for _ in 0..played {
        g.undo();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn days_become_dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(20_788), (2026, 12, 1));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
    }
}
