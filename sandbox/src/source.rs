//! Opening what the command line names: a ruleset (a `.rules` path or a bundled name) or a RON
//! scenario. Everything is read and checked through the interpreter's API; nothing here knows a game.

use std::path::{Path, PathBuf};

use arbiter::check::check_file;
use arbiter::diag::Severity;
use arbiter::game::Engine;
use arbiter::scenario::{self, Frame, Runner, Step};

/// The scenario opened when the command line names nothing.
pub const DEFAULT_SCENARIO: &str = "scenarios/chess/checkmate-fools-mate.ron";

/// What was opened: an engine, a title, and a timeline of positions (one entry for a bare ruleset).
pub struct Opened {
    pub engine: Engine,
    pub title: String,
    /// Position 0 is the start; each further entry is the position after one scenario step.
    pub timeline: Vec<Frame>,
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

fn ruleset_dirs() -> Vec<PathBuf> {
    let mut dirs = Vec::new();
    if let Ok(d) = std::env::var("ARBITER_RULESETS") {
        dirs.push(PathBuf::from(d));
    }
    dirs.extend(workspace_dirs().into_iter().map(|d| d.join("rulesets")));
    dirs
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
/// A sentence naming what could not be read or checked.
pub fn open(arg: Option<&str>) -> Result<Opened, String> {
    let arg = arg.unwrap_or(DEFAULT_SCENARIO);
    if arg.ends_with(".ron") {
        let path = find_file(arg).ok_or_else(|| format!("no scenario file `{arg}`"))?;
        return open_scenario(&path);
    }
    let path = match find_file(arg) {
        Some(p) => p,
        None => {
            let file = format!("{}.rules", arg.trim_end_matches(".rules"));
            ruleset_dirs()
                .into_iter()
                .map(|d| d.join(&file))
                .find(|p| p.is_file())
                .ok_or_else(|| format!("no ruleset `{arg}`: not a file, and not a bundled name"))?
        }
    };
    let engine = engine_for(&path, &[])?;
    let start = engine.start();
    let title = engine.rules().name.clone();
    let timeline = vec![Frame {
        step: 0,
        fen: start.fen(),
        played: Vec::new(),
        caption: None,
        highlight: Vec::new(),
        arrows: Vec::new(),
    }];
    Ok(Opened { engine, title, timeline })
}

fn engine_for(path: &Path, params: &[(String, String)]) -> Result<Engine, String> {
    let checked = check_file(path, params);
    match checked.rules {
        Some(rules) => Ok(Engine::new(rules)),
        None => {
            let first = checked.diagnostics.sorted().into_iter().find(|d| d.severity == Severity::Error);
            Err(format!(
                "{} has errors{}; run `arbiter check`",
                path.display(),
                first.map(|d| format!(" ({})", d.message)).unwrap_or_default()
            ))
        }
    }
}

fn open_scenario(path: &Path) -> Result<Opened, String> {
    let mut sc = scenario::load(path).map_err(|e| e.to_string())?;
    // A first step that does nothing yields a frame for the start position.
    sc.steps.insert(0, Step::default());
    let report = Runner::new(ruleset_dirs()).run(&sc, path);
    if let scenario::Verdict::Error(e) = &report.verdict {
        return Err(e.to_string());
    }
    let here = path.parent().unwrap_or(Path::new(""));
    let file = format!("{}.rules", sc.ruleset.trim_end_matches(".rules"));
    let rules_path = std::iter::once(here.join(&sc.ruleset))
        .chain(ruleset_dirs().into_iter().map(|d| d.join(&file)))
        .chain(here.ancestors().map(|a| a.join("rulesets").join(&file)))
        .find(|p| p.is_file())
        .ok_or_else(|| format!("ruleset `{}` not found for {}", sc.ruleset, path.display()))?;
    let params: Vec<(String, String)> = sc.params.iter().map(|(k, v)| (k.clone(), v.0.clone())).collect();
    let engine = engine_for(&rules_path, &params)?;
    let timeline = report
        .frames
        .into_iter()
        .enumerate()
        .map(|(i, f)| Frame { step: i, ..f })
        .collect::<Vec<_>>();
    if timeline.is_empty() {
        return Err(format!("{}: the scenario produced no positions", path.display()));
    }
    Ok(Opened {
        engine,
        title: sc.title,
        timeline,
    })
}
