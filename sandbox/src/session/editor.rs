//! The referee's editor: positions changed square by square, and the game saved as a RON scenario
//! (with a trainer's caption and marks; titled after its file, in the user's data folder unless
//! another path is given).
//! An edit is written as FEN here and read back by `Session::apply` through `Engine::from_fen`, so an
//! edited position is one the interpreter accepts (royals present, rights consistent, ...); a saved
//! scenario is run through the interpreter's scenario runner before it is reported saved. Nothing
//! here knows a game: letters, players and squares come from the ruleset.

use std::path::{Path, PathBuf};

use arbiter::game::{Position, Status};
use arbiter::model::{KindId, Side, Verdict};
use arbiter::notation::{fen, uci};
use arbiter::scenario::Runner;

use crate::session::Session;
use crate::session::marks::Marks;
use crate::session::source;

/// The FEN of `pos` with `square` holding `piece` (or emptied; a neutral kind is no one's, whatever
/// the side); the other fields stay as they are, and so do the hands (`[Pn]` after the placement),
/// the other pieces' promoted marks and the neutral pieces.
pub fn fen_with(pos: &Position, square: usize, piece: Option<(KindId, Side)>) -> String {
    let rules = pos.rules();
    let text = |kind: KindId, side: Side| {
        if rules.kind(kind).neutral {
            rules.kind(kind).letter.to_string()
        } else {
            rules.fen_text(kind, side)
        }
    };
    let mut placement = fen::placement_texts(rules, |sq| {
        if sq == square {
            return piece.map(|(k, s)| text(k, s));
        }
        match pos.piece_at(sq) {
            Some((k, s)) if pos.is_promoted(sq) => Some(format!("{}~", text(k, s))),
            Some((k, s)) => Some(text(k, s)),
            None => pos.neutral_at(sq).map(|k| text(k, Side::FIRST)),
        }
    });
    let fen = pos.fen();
    let first = fen.split_whitespace().next().unwrap_or("");
    if let Some(hand) = first.find('[').map(|i| &first[i..]) {
        placement.push_str(hand);
    }
    replace_field(&fen, 0, &placement)
}

/// The FEN of `pos` with `side` to move.
/// The position with every piece taken off but the royal ones (a position without its kings is
/// no position the rules accept), nothing in hand, no castling or en-passant right, the same side
/// to move: "Clear board".
pub fn cleared_fen(pos: &Position) -> String {
    let rules = pos.rules();
    let mut setup = pos.setup();
    for piece in setup.board.iter_mut() {
        if !piece.is_some_and(|(k, _)| rules.kind(k).royal) {
            *piece = None;
        }
    }
    setup.promoted.retain(|&sq| setup.board[sq].is_some());
    setup.neutral.clear();
    setup.hands.clear();
    setup.castling.clear();
    setup.ep = None;
    setup.halfmove = 0;
    arbiter::notation::fen::write(rules, &setup)
}

pub fn fen_to_move(pos: &Position, side: Side) -> String {
    replace_field(&pos.fen(), 1, &pos.rules().players[side.index()].fen)
}

fn replace_field(fen: &str, index: usize, value: &str) -> String {
    let mut fields: Vec<&str> = fen.split_whitespace().collect();
    while fields.len() <= index {
        fields.push("-");
    }
    fields[index] = value;
    fields.join(" ")
}

/// A file name made of the title's letters and digits.
pub(crate) fn slug(title: &str) -> String {
    let mut s = String::new();
    for c in title.chars() {
        if c.is_alphanumeric() {
            s.extend(c.to_lowercase());
        } else if !s.ends_with('-') && !s.is_empty() {
            s.push('-');
        }
    }
    let s = s.trim_end_matches('-').chars().take(40).collect::<String>();
    if s.is_empty() { "position".to_string() } else { s }
}

/// Where saved scenarios go by default: `$XDG_DATA_HOME/arbiter/scenarios`, else
/// `$HOME/.local/share/arbiter/scenarios` (the user's data folder, whatever the current
/// directory); `scenarios/saved` under the current directory only when neither is set.
pub fn save_dir_from(xdg_data_home: Option<&std::ffi::OsStr>, home: Option<&std::ffi::OsStr>) -> PathBuf {
    let absolute = |v: Option<&std::ffi::OsStr>| v.map(PathBuf::from).filter(|p| p.is_absolute());
    match (absolute(xdg_data_home), absolute(home)) {
        (Some(data), _) => data.join("arbiter").join("scenarios"),
        (None, Some(home)) => home.join(".local").join("share").join("arbiter").join("scenarios"),
        (None, None) => Path::new("scenarios").join("saved"),
    }
}

/// [`save_dir_from`] this process's environment.
pub fn save_dir() -> PathBuf {
    save_dir_from(std::env::var_os("XDG_DATA_HOME").as_deref(), std::env::var_os("HOME").as_deref())
}

/// `<save_dir>/<title>-<n>.ron` with the first `n` not taken.
pub fn default_save_path(session: &Session) -> PathBuf {
    let dir = save_dir();
    let base = slug(&session.title);
    (1..)
        .map(|n| dir.join(format!("{base}-{n}.ron")))
        .find(|p| !p.exists())
        .expect("some numbered name is free")
}

/// How a scenario names the ruleset in use: its bundled name when the bundled file is this one,
/// else its full path.
fn ruleset_ref(rules: &Path) -> String {
    let stem = rules.file_stem().and_then(|s| s.to_str()).unwrap_or("").to_string();
    let canon = rules.canonicalize().ok();
    let bundled = source::ruleset_dirs()
        .into_iter()
        .map(|d| d.join(format!("{stem}.rules")))
        .find(|p| p.is_file())
        .and_then(|p| p.canonicalize().ok());
    match (bundled, canon) {
        (Some(b), Some(c)) if b == c => stem,
        (_, Some(c)) => c.display().to_string(),
        _ => rules.display().to_string(),
    }
}

/// A RON string.
fn quote(s: &str) -> String {
    format!("{s:?}")
}

/// A parameter value: bare if it is a number, quoted otherwise.
fn param_value(v: &str) -> String {
    if v.parse::<f64>().is_ok() { v.to_string() } else { quote(v) }
}

fn status_name(s: Status) -> &'static str {
    match s {
        Status::Ongoing => "Ongoing",
        Status::Win => "Win",
        Status::Draw => "Draw",
        Status::NoResult => "NoResult",
    }
}

/// A saved scenario's title: its file's name in words (`queen-sacrifice.ron` → "queen sacrifice"),
/// so it is not taken for the scenario it was opened from.
pub fn title_of(path: &Path) -> String {
    let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or("").replace(['-', '_'], " ");
    let stem = stem.trim();
    if stem.is_empty() {
        "saved position".to_string()
    } else {
        stem.to_string()
    }
}

/// The session's game as a RON scenario titled `title`: the ruleset and parameters in use, the game's start as
/// `Fen`, one step playing its moves (in coordinates) and stating the position, side to move, check
/// and outcome it reaches — with the trainer's caption, marked squares and arrows from `marks`, if
/// any —; one more marking dead chains and stating the count, if any are marked.
pub fn scenario_text(session: &Session, marks: &Marks, title: &str) -> String {
    let game = &session.game;
    let pos = game.current();
    let rules = pos.rules();
    let start = &game.positions()[0];
    let moves: Vec<String> = game
        .moves()
        .iter()
        .zip(game.positions())
        .map(|(m, p)| quote(&uci::to_text(p, *m)))
        .collect();
    let mut out = String::from("// Saved from the Arbiter sandbox: the game's start, the moves played, and how they left the game.\n(\n");
    out.push_str(&format!("    title: {},\n", quote(title)));
    let ruleset = session.rules_path.as_deref().map_or_else(|| rules.name.to_lowercase(), ruleset_ref);
    out.push_str(&format!("    ruleset: {},\n", quote(&ruleset)));
    if !session.params.is_empty() {
        let params: Vec<String> = session
            .params
            .iter()
            .map(|(k, v)| format!("{}: {}", quote(k), param_value(v)))
            .collect();
        out.push_str(&format!("    params: {{{}}},\n", params.join(", ")));
    }
    out.push_str(&format!("    start: Fen({}),\n", quote(&start.fen())));
    out.push_str("    steps: [\n        (\n");
    let caption = match marks.caption.trim() {
        "" if moves.is_empty() => "The position as saved.",
        "" => "The moves played in the sandbox.",
        own => own,
    };
    out.push_str(&format!("            caption: {},\n", quote(caption)));
    if !moves.is_empty() {
        out.push_str(&format!("            do: Line([{}]),\n", moves.join(", ")));
    }
    let squares = rules.board.squares();
    let marked: Vec<String> = marks
        .squares
        .iter()
        .filter(|&&sq| sq < squares)
        .map(|&sq| quote(&rules.board.name(sq)))
        .collect();
    if !marked.is_empty() {
        out.push_str(&format!("            highlight: [{}],\n", marked.join(", ")));
    }
    let arrows: Vec<String> = marks
        .arrows
        .iter()
        .filter(|&&(a, b)| a < squares && b < squares)
        .map(|&(a, b)| format!("({}, {})", quote(&rules.board.name(a)), quote(&rules.board.name(b))))
        .collect();
    if !arrows.is_empty() {
        out.push_str(&format!("            arrows: [{}],\n", arrows.join(", ")));
    }
    let mut expect = vec![
        format!("Fen({})", quote(&pos.fen())),
        format!("ToMove({})", quote(&rules.players[pos.side_to_move().index()].name)),
        format!("InCheck({})", pos.in_check()),
    ];
    // The runner's game has no dead marks and no claims at this step.
    let mut plain = game.clone();
    plain.set_dead(Vec::new());
    if game.claimed().is_none() {
        expect.push(format!("Outcome(status: {})", status_name(plain.outcome().status)));
    }
    out.push_str(&format!("            expect: [{}],\n        ),\n", expect.join(", ")));
    let komi = rules.end_rules.iter().find_map(|r| match r.verdict {
        Verdict::ScoreByArea { komi } => Some(komi),
        _ => None,
    });
    if let (Some(komi), false) = (komi, game.dead().is_empty()) {
        let dead: Vec<String> = game.dead().iter().map(|&sq| quote(&rules.board.name(sq))).collect();
        let score = game.outcome().score.unwrap_or_else(|| game.area_score(komi));
        out.push_str(&format!(
            "        (\n            caption: \"The chains marked dead, and the count.\",\n            do: Dead([{}]),\n            expect: [Score(black: {:?}, white: {:?})],\n        ),\n",
            dead.join(", "),
            score.points[0],
            score.points[1]
        ));
    }
    out.push_str("    ],\n)\n");
    out
}

/// Writes `text` to a new file at `path`, creating its folder; never over an existing file.
///
/// # Errors
/// The file exists (nothing is overwritten) or cannot be written, as a sentence naming it.
pub fn write_new(path: &Path, text: &str) -> Result<(), String> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    }
    let file = arbiter::input::create_new(path).map_err(|why| {
        if path.symlink_metadata().is_ok() {
            format!("{} already exists; nothing was overwritten (choose another name)", path.display())
        } else {
            format!("cannot write {}: {why}", path.display())
        }
    })?;
    // A write cut short (a full disk) leaves no part of a scenario behind to stand in the way.
    arbiter::input::write_new(file, path, text).map_err(|why| format!("cannot write {}: {why}", path.display()))
}

/// Writes [`scenario_text`] (with the trainer's `marks` and caption) to `path` (never over an existing file) and runs it through the
/// interpreter's scenario runner.
///
/// # Errors
/// The file exists or cannot be written, or the written scenario does not pass (a sentence saying why).
pub fn save_scenario(session: &Session, marks: &Marks, path: &Path) -> Result<PathBuf, String> {
    write_new(path, &scenario_text(session, marks, &title_of(path)))?;
    let report = Runner::new(source::ruleset_dirs()).run_file(path);
    if report.passed() {
        Ok(path.to_path_buf())
    } else {
        Err(format!("{} was written but does not pass: {:?}", path.display(), report.verdict))
    }
}
