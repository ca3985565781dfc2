//! Opening what the command line names: a ruleset (a `.rules` path or a bundled name), a RON
//! scenario, or a game record (`.pgn`, `.wxf`, `.sgf`). Everything is read, checked and replayed
//! through the interpreter's API (`check_file`, `scenario::Runner`, `notation::record`). A record's
//! ruleset is the bundled one a tag names (`[Variant "…"]`, refused where none is so named; a WXF
//! file's `GAME`); for a PGN without one, the bundled `chess` where it reads the whole record (the
//! PGN standard's reading of a PGN without a Variant: the one game named here, by the format's
//! definition); else the one of the right kind (its notation for WXF, placed pieces for SGF) that
//! reads the most of the record's moves.

use std::path::{Path, PathBuf};

use arbiter::check::check_file;
use arbiter::diag::{self, Diagnostics, Severity};
use arbiter::game::{Engine, Status};
use arbiter::model::{Notation, Primitive};
use arbiter::notation::record::{self, Format, GameRecord};
use arbiter::scenario::{self, Frame, Runner, Step};

/// The scenario opened when the command line names nothing.
pub const DEFAULT_SCENARIO: &str = "scenarios/chess/checkmate-fools-mate.ron";

/// What was opened: an engine, a title, and a timeline of positions (one entry for a bare ruleset).
pub struct Opened {
    pub engine: Engine,
    pub title: String,
    /// Position 0 is the start; each further entry is the position after one scenario step or one
    /// ply of a record.
    pub timeline: Vec<Frame>,
    /// What was opened, as given to [`open`]; [`reopen`] opens it again.
    pub origin: String,
    /// The `.rules` file in use.
    pub rules_path: PathBuf,
    /// The parameter overrides in force: a scenario's `params`, a record's board size and komi.
    pub params: Vec<(String, String)>,
    /// A record move the rules refuse, as a sentence: the timeline ends before it. Only [`reopen`]
    /// returns a record cut short; [`open`] reports it as an error.
    pub stopped: Option<String>,
    /// A record's variations, as branches off the timeline's steps.
    pub variations: crate::session::tree::Tree,
    /// What a record carries beside its moves (tags, comments, annotation glyphs).
    pub record: Option<crate::session::records::RecordNotes>,
    /// What was skipped of a record's variations (moves not legal where they stand).
    pub skipped: Vec<String>,
    /// The moves that lead to the timeline's first frame (a scenario that starts from a game
    /// record), so its game has a history: ply, passes, repetitions, the last move.
    pub prelude: Option<Prelude>,
}

/// A start and the moves played from it, in coordinates, before the timeline's first frame.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Prelude {
    pub fen: String,
    pub moves: Vec<String>,
}

/// Why something could not be opened: errors in the ruleset (rendered one per line), or anything else.
enum Failure {
    Rules(PathBuf, Vec<String>),
    Other(String),
}

impl From<String> for Failure {
    fn from(s: String) -> Failure {
        Failure::Other(s)
    }
}

impl Failure {
    /// What the command line says: the ruleset's errors as `arbiter check` renders them (file,
    /// line and column, the source line with its caret, the help), every one; or the one sentence.
    fn sentence(self) -> String {
        match self {
            Failure::Rules(path, errors) => format!("cannot open {}:\n{}", path.display(), errors.join("\n")),
            Failure::Other(s) => s,
        }
    }
    /// The lines a rule designer reads in the panel.
    fn lines(self) -> Vec<String> {
        match self {
            Failure::Rules(_, lines) => lines,
            Failure::Other(s) => vec![s],
        }
    }
}

/// The workspace folder that holds `rulesets/` and `scenarios/` (beside the sandbox crate).
fn workspace_dirs() -> Vec<PathBuf> {
    let mut dirs = Vec::new();
    if let Ok(d) = std::env::var("ARBITER_ROOT") {
        dirs.push(PathBuf::from(d));
    }
    dirs.push(PathBuf::from("."));
    dirs.push(Path::new(env!("CARGO_MANIFEST_DIR")).join(".."));
    dirs
}

/// Where bundled rulesets are looked up, first match winning.
pub fn ruleset_dirs() -> Vec<PathBuf> {
    let mut dirs = Vec::new();
    if let Ok(d) = std::env::var("ARBITER_RULESETS") {
        dirs.push(PathBuf::from(d));
    }
    dirs.extend(workspace_dirs().into_iter().map(|d| d.join("rulesets")));
    dirs
}

/// The bundled rulesets: every `.rules` file of the ruleset folders, one per file name, sorted.
fn bundled() -> Vec<PathBuf> {
    let mut found: Vec<PathBuf> = Vec::new();
    for d in ruleset_dirs() {
        let Ok(entries) = std::fs::read_dir(&d) else { continue };
        let mut files: Vec<PathBuf> = entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "rules"))
            .collect();
        files.sort();
        for f in files {
            if !found.iter().any(|g| g.file_name() == f.file_name()) {
                found.push(f);
            }
        }
    }
    found
}

/// Finds a file by path, or by a path relative to the workspace.
fn find_file(name: &str) -> Option<PathBuf> {
    let p = Path::new(name);
    if p.is_file() {
        return Some(p.to_path_buf());
    }
    workspace_dirs().into_iter().map(|d| d.join(name)).find(|p| p.is_file())
}

/// Opens `arg` (`None`: the bundled scenario).
///
/// # Errors
/// A sentence naming what could not be read or checked, and where.
pub fn open(arg: Option<&str>) -> Result<Opened, String> {
    open_with_params(arg, &[])
}

/// Opens `arg` as [`open`] does, a ruleset with the parameter overrides `params` (as `arbiter
/// --param NAME=VALUE` takes them; the checker refuses a name the ruleset does not declare or a
/// value out of its range).
///
/// # Errors
/// As [`open`]; and parameters given for a scenario or a game record, which set their own.
pub fn open_with_params(arg: Option<&str>, params: &[(String, String)]) -> Result<Opened, String> {
    let arg = arg.unwrap_or(DEFAULT_SCENARIO);
    if !params.is_empty() && (arg.ends_with(".ron") || Format::from_path(Path::new(arg)).is_some()) {
        return Err(format!(
            "--param goes with a ruleset; `{arg}` sets its own parameters (a scenario's `params`, a record's board size)"
        ));
    }
    let opened = open_with(arg, None, params).map_err(Failure::sentence)?;
    match &opened.stopped {
        Some(s) => Err(s.clone()),
        None => Ok(opened),
    }
}

/// Opens `origin` again with the ruleset file `rules_path` (a reload after the file changed): the
/// same ruleset, even for a record whose ruleset [`open`] chose; a bare ruleset with the same
/// `params` (a scenario or a record brings its own).
///
/// # Errors
/// The ruleset's errors rendered as `arbiter check` renders them ([`check_rules`]), or one
/// line saying what else could not be read.
pub fn reopen(origin: &str, rules_path: &Path, params: &[(String, String)]) -> Result<Opened, Vec<String>> {
    open_with(origin, Some(rules_path), params).map_err(Failure::lines)
}

/// Checks a ruleset file with parameter overrides and compiles it.
///
/// # Errors
/// Every error, one each, as `arbiter check` renders it (`diag::render`, no colour): `error[code]:
/// message`, `--> file:line:col`, the source line with a caret under the span, and the help
/// ("did you mean ..."), several lines.
pub fn check_rules(path: &Path, params: &[(String, String)]) -> Result<Engine, Vec<String>> {
    let checked = check_file(path, params);
    match checked.engine {
        Some(engine) => Ok(engine),
        None => {
            let lines: Vec<String> = checked
                .diagnostics
                .sorted()
                .into_iter()
                .filter(|d| d.severity == Severity::Error)
                .map(|d| {
                    let mut one = Diagnostics::default();
                    one.push(d.clone());
                    diag::render(&checked.sources, &one, false).trim_end().to_string()
                })
                .collect();
            if lines.is_empty() {
                Err(vec![format!("{}: the ruleset could not be checked", path.display())])
            } else {
                Err(lines)
            }
        }
    }
}

fn open_with(arg: &str, rules: Option<&Path>, params: &[(String, String)]) -> Result<Opened, Failure> {
    if arg.ends_with(".ron") {
        let path = find_file(arg).ok_or_else(|| format!("no scenario file `{arg}`"))?;
        return open_scenario(arg, &path, rules);
    }
    if let Some(format) = Format::from_path(Path::new(arg)) {
        let path = find_file(arg).ok_or_else(|| format!("no game record `{arg}`"))?;
        return open_record(arg, &path, format, rules);
    }
    let path = match (rules, find_file(arg)) {
        (Some(r), _) => r.to_path_buf(),
        (None, Some(p)) => p,
        (None, None) => {
            let file = format!("{}.rules", arg.trim_end_matches(".rules"));
            ruleset_dirs()
                .into_iter()
                .map(|d| d.join(&file))
                .find(|p| p.is_file())
                .ok_or_else(|| format!("no ruleset `{arg}`: not a file, and not a bundled name"))?
        }
    };
    let engine = check_rules(&path, params).map_err(|e| Failure::Rules(path.clone(), e))?;
    let start = engine.start();
    Ok(Opened {
        title: engine.rules().name.clone(),
        timeline: vec![frame(0, start.fen(), Vec::new(), None)],
        engine,
        origin: arg.to_string(),
        rules_path: path,
        params: params.to_vec(),
        stopped: None,
        variations: Default::default(),
        record: None,
        skipped: Vec::new(),
        prelude: None,
    })
}

/// A frame with no annotations.
fn frame(step: usize, fen: String, played: Vec<String>, caption: Option<String>) -> Frame {
    Frame {
        step,
        fen,
        played,
        caption,
        highlight: Vec::new(),
        arrows: Vec::new(),
        dead: Vec::new(),
        expectations: Vec::new(),
    }
}

fn open_scenario(origin: &str, path: &Path, rules: Option<&Path>) -> Result<Opened, Failure> {
    let mut sc = scenario::load(path).map_err(|e| e.to_string())?;
    let params: Vec<(String, String)> = sc.params.iter().map(|(k, v)| (k.clone(), v.0.clone())).collect();
    let here = path.parent().unwrap_or(Path::new(""));
    let file = format!("{}.rules", sc.ruleset.trim_end_matches(".rules"));
    let rules_path = match rules {
        Some(r) => r.to_path_buf(),
        None => std::iter::once(here.join(&sc.ruleset))
            .chain(ruleset_dirs().into_iter().map(|d| d.join(&file)))
            .chain(here.ancestors().map(|a| a.join("rulesets").join(&file)))
            .find(|p| p.is_file())
            .ok_or_else(|| format!("ruleset `{}` not found for {}", sc.ruleset, path.display()))?,
    };
    // Checked first, so errors in the ruleset come back one per line.
    let engine = check_rules(&rules_path, &params).map_err(|e| Failure::Rules(rules_path.clone(), e))?;
    // A first step that does nothing yields a frame for the start position.
    sc.steps.insert(0, Step::default());
    let report = Runner::new(ruleset_dirs()).run(&sc, path);
    if let scenario::Verdict::Error(e) = &report.verdict {
        return Err(e.to_string().into());
    }
    let timeline: Vec<Frame> = report.frames.into_iter().enumerate().map(|(i, f)| Frame { step: i, ..f }).collect();
    if timeline.is_empty() {
        return Err(format!("{}: the scenario produced no positions", path.display()).into());
    }
    // A start from a game record: the record's moves lead to the first frame (the runner played
    // them before the first step).
    let prelude = scenario::start_position(&engine, &sc.start, here)
        .ok()
        .filter(|(_, moves)| !moves.is_empty())
        .map(|(pos, moves)| Prelude { fen: pos.fen(), moves });
    Ok(Opened {
        engine,
        title: sc.title,
        timeline,
        origin: origin.to_string(),
        rules_path,
        params,
        stopped: None,
        variations: Default::default(),
        record: None,
        skipped: Vec::new(),
        prelude,
    })
}

/// A ruleset a record might be played under.
struct Candidate {
    path: PathBuf,
    engine: Engine,
    params: Vec<(String, String)>,
}

/// Compiles `path` with those of `wanted` parameters it declares.
fn candidate(path: &Path, wanted: &[(String, String)]) -> Result<Candidate, Failure> {
    let declared = check_rules(path, &[]).map_err(|e| Failure::Rules(path.to_path_buf(), e))?;
    let params: Vec<(String, String)> = wanted
        .iter()
        .filter(|(k, _)| declared.rules().params.iter().any(|(d, _)| d == k))
        .cloned()
        .collect();
    let engine = if params.is_empty() {
        declared
    } else {
        check_rules(path, &params).map_err(|e| Failure::Rules(path.to_path_buf(), e))?
    };
    Ok(Candidate {
        path: path.to_path_buf(),
        engine,
        params,
    })
}

/// The bundled ruleset a record was written for (see the module documentation).
fn choose(rec: &GameRecord, file: &Path) -> Result<Candidate, Failure> {
    // A ruleset that declares a parameter the record sets (go's size, komi, handicap) refuses a
    // value out of its range: kept to say so where no other ruleset replays the record.
    let mut refused: Vec<String> = Vec::new();
    let mut candidates: Vec<Candidate> = bundled()
        .iter()
        .filter_map(|p| match candidate(p, &rec.params()) {
            Ok(c) => Some(c),
            Err(Failure::Rules(path, errors)) => {
                let name = path.file_stem().and_then(|s| s.to_str()).unwrap_or("?").to_string();
                let first = errors
                    .first()
                    .and_then(|e| e.lines().next())
                    .unwrap_or("")
                    .trim_start_matches("error");
                refused.push(format!("{name}: {}", first.split_once(": ").map_or(first, |(_, m)| m)));
                None
            }
            Err(Failure::Other(_)) => None,
        })
        .filter(|c| {
            let rules = c.engine.rules();
            let places = rules.kinds.iter().any(|k| k.forms.iter().any(|f| f.primitive == Primitive::Place));
            match rec.format {
                Format::Sgf => places,
                Format::Wxf => rules.notation == Notation::Wxf,
                Format::Pgn => true,
            }
        })
        .collect();
    // Rulesets with a notation of their own first: coordinates read too many texts.
    candidates.sort_by_key(|c| c.engine.rules().notation == Notation::Coordinates);
    let position = |candidates: &[Candidate], v: &str| {
        candidates.iter().position(|c| {
            let stem = c.path.file_stem().and_then(|s| s.to_str()).unwrap_or("");
            stem.eq_ignore_ascii_case(v.trim()) || c.engine.rules().name.eq_ignore_ascii_case(v.trim())
        })
    };
    // A record's `Variant` names its rules (one naming no bundled ruleset is refused), or its
    // `Game`. A PGN without either is read as chess where chess reads all of it (the PGN
    // standard's reading: antichess replays most chess games too, and came first); otherwise,
    // as for other records, under the ruleset that reads the most of it (WXF movetext in PGN).
    let variant = rec.tag("Variant").filter(|v| !v.trim().is_empty());
    if let Some(v) = variant {
        return match position(&candidates, v) {
            Some(i) => Ok(candidates.swap_remove(i)),
            None => Err(Failure::Other(format!(
                "{}: the record's Variant `{}` names no bundled ruleset{}",
                file.display(),
                v.trim(),
                match rec.format {
                    Format::Sgf => " whose pieces are placed",
                    Format::Wxf => " written in WXF",
                    Format::Pgn => "",
                }
            ))),
        };
    }
    if let Some(i) = rec.tag("Game").and_then(|g| position(&candidates, g)) {
        return Ok(candidates.swap_remove(i));
    }
    if rec.format == Format::Pgn
        && let Some(i) = position(&candidates, "chess")
        && rec.replay(&candidates[i].engine).is_ok_and(|r| r.stopped.is_none())
    {
        return Ok(candidates.swap_remove(i));
    }
    let mut best: Option<(usize, Candidate)> = None;
    for c in candidates {
        let read = match rec.replay(&c.engine) {
            Ok(r) if r.stopped.is_none() => usize::MAX,
            Ok(r) => r.game.ply() + 1,
            Err(_) => 0,
        };
        if best.as_ref().is_none_or(|(b, _)| read > *b) {
            best = Some((read, c));
        }
    }
    // Nothing replays even the start, and a ruleset refused the record's parameters: that is why.
    if best.as_ref().is_none_or(|(read, _)| *read == 0) && !refused.is_empty() {
        return Err(Failure::Other(format!("{}: {}", file.display(), refused.join("; "))));
    }
    best.map(|(_, c)| c).ok_or_else(|| {
        let what = match rec.format {
            Format::Sgf => "a ruleset whose pieces are placed",
            Format::Wxf => "a ruleset written in WXF",
            Format::Pgn => "a ruleset",
        };
        Failure::Other(format!("{}: no bundled ruleset to replay it under ({what})", file.display()))
    })
}

fn open_record(origin: &str, path: &Path, format: Format, rules: Option<&Path>) -> Result<Opened, Failure> {
    let text = arbiter::input::read_text(path, arbiter::input::RECORD_LIMIT).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let rec = record::read(&text, format).map_err(|e| format!("{}: {e}", path.display()))?;
    let chosen = match rules {
        Some(r) => candidate(r, &rec.params())?,
        None => choose(&rec, path)?,
    };
    let replayed = rec.replay(&chosen.engine).map_err(|e| format!("{}: {e}", path.display()))?;
    let game = &replayed.game;
    let mut timeline: Vec<Frame> = game
        .positions()
        .iter()
        .enumerate()
        .map(|(ply, pos)| {
            let played = ply.checked_sub(1).map(|i| vec![rec.moves[i].clone()]).unwrap_or_default();
            frame(ply, pos.fen(), played, None)
        })
        .collect();
    let outcome = game.outcome();
    if let (Some(stated), Some(last)) = (&rec.result, timeline.last_mut())
        && replayed.stopped.is_none()
    {
        let said = if outcome.status == Status::Ongoing {
            "the game goes on".to_string()
        } else {
            outcome.message(game.current())
        };
        last.caption = Some(format!("The record gives {stated}; under the rules: {said}."));
    }
    let name = path.file_stem().and_then(|s| s.to_str()).unwrap_or("record").to_string();
    // The players' names as tags (a WXF file's `RED`), else PGN's `White` and `Black`.
    let players = &chosen.engine.rules().players;
    let (first, second) = (
        rec.tag(&players[0].name).or(rec.tag("White")),
        rec.tag(&players[1].name).or(rec.tag("Black")),
    );
    let title = match (first, second) {
        (Some(w), Some(b)) if w != "?" && b != "?" => format!("{w} – {b} ({name})"),
        _ => rec
            .tag("Event")
            .or(rec.tag("GN"))
            .filter(|e| *e != "?")
            .unwrap_or(&name)
            .to_string(),
    };
    Ok(Opened {
        title,
        timeline,
        origin: origin.to_string(),
        rules_path: chosen.path,
        params: chosen.params,
        stopped: replayed.stopped.map(|s| format!("{}: {s}", path.display())),
        variations: crate::session::records::tree_of(&replayed.game, &replayed.variations),
        record: Some(crate::session::records::RecordNotes::new(
            rec.format,
            rec.tags.clone(),
            &replayed.commentary,
        )),
        skipped: replayed.skipped,
        engine: chosen.engine,
        prelude: None,
    })
}
