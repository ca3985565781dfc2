//! Reading a ruleset and the files it extends, and merging their items: an item of the extending
//! file replaces the base's item of the same name only when it says `override`.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use crate::diag::{Diagnostic, Diagnostics, FileId, Sources, Span, codes};
use crate::input::{RULES_LIMIT, read_text};
use crate::model::Rules;
use crate::syntax::{ast, parse_file};

/// How deep `extends` chains may go.
const MAX_EXTENDS_DEPTH: usize = 16;

/// The items a ruleset must have: all may be in a base file that could not be read.
const EVERYTHING: [&str; 3] = ["game", "board", "setup"];

/// The result of checking: the sources read, every diagnostic, and the rules if there was no error,
/// with the engine compiled from them (checking compiles it to try the setup: a caller takes it
/// rather than compiling the same tables again).
#[derive(Debug)]
pub struct Checked {
    pub sources: Sources,
    pub diagnostics: Diagnostics,
    pub rules: Option<Rules>,
    pub engine: Option<crate::game::Engine>,
}

/// Reads, parses and checks the ruleset at `path` (and everything it extends).
pub fn check_file(path: &Path, params: &[(String, String)]) -> Checked {
    let mut sources = Sources::default();
    let mut diags = Diagnostics::default();
    let text = match read_text(path, RULES_LIMIT) {
        Ok(t) => t,
        Err(e) => {
            let f = sources.add(path.display().to_string(), "");
            diags.push(Diagnostic::error(
                codes::FILE,
                Span::new(f, 0, 0),
                format!("cannot read {}: {e}", path.display()),
            ));
            return Checked {
                sources,
                diagnostics: diags,
                rules: None,
                engine: None,
            };
        }
    };
    check_text(
        &mut sources,
        &mut diags,
        path.display().to_string(),
        text,
        path.parent().map(Path::to_path_buf),
        params,
        &HashMap::new(),
    )
}

/// Checks a ruleset given as text; `extends` paths resolve against `dir`.
pub fn check_source(name: &str, text: &str, dir: Option<&Path>, params: &[(String, String)]) -> Checked {
    check_source_with(name, text, dir, params, &HashMap::new())
}

/// Checks a ruleset given as text, reading a file it extends from `open` (the unsaved text of a
/// file open in an editor, by absolute path) before the disk.
pub fn check_source_with(
    name: &str,
    text: &str,
    dir: Option<&Path>,
    params: &[(String, String)],
    open: &HashMap<PathBuf, &str>,
) -> Checked {
    let mut sources = Sources::default();
    let mut diags = Diagnostics::default();
    check_text(
        &mut sources,
        &mut diags,
        name.to_string(),
        text.to_string(),
        dir.map(Path::to_path_buf),
        params,
        open,
    )
}

fn check_text(
    sources: &mut Sources,
    diags: &mut Diagnostics,
    name: String,
    text: String,
    dir: Option<PathBuf>,
    params: &[(String, String)],
    open: &HashMap<PathBuf, &str>,
) -> Checked {
    let file = sources.add(name.clone(), text);
    let mut chain = vec![name];
    let mut unreadable = Vec::new();
    let items = load_items(sources, diags, file, dir, &mut chain, &mut unreadable, open);
    // Problems of the ruleset as a whole (a missing `board`) point at the start of the file.
    let whole = Span::new(file, 0, 0);
    let (rules, engine) = super::resolve(&items, params, sources, diags, whole, &unreadable).unzip();
    Checked {
        sources: std::mem::take(sources),
        diagnostics: std::mem::take(diags),
        rules,
        engine,
    }
}

/// Parses `file`, loads its base (if it extends one) and returns the merged items. `unreadable`
/// collects the kinds of item (`game`, `board`, ...) that may be missing only because a line or
/// a file could not be read; their absence is not reported again.
fn load_items(
    sources: &mut Sources,
    diags: &mut Diagnostics,
    file: FileId,
    dir: Option<PathBuf>,
    chain: &mut Vec<String>,
    unreadable: &mut Vec<String>,
    open: &HashMap<PathBuf, &str>,
) -> Vec<ast::Item> {
    let parsed = parse_file(sources.text(file), file, diags);
    unreadable.extend(parsed.unreadable);
    let mut base: Vec<ast::Item> = Vec::new();
    let mut own = Vec::new();
    let mut extended: Option<Span> = None;
    for item in parsed.items {
        match item {
            ast::Item::Extends(path) => {
                // Checked before reading the file, so a second `extends` is reported even when
                // the first could not be read.
                if let Some(first) = extended {
                    diags.push(
                        Diagnostic::error(codes::DUPLICATE, path.span, "a ruleset can extend only one other")
                            .label("second `extends`")
                            .with(first, "first `extends`"),
                    );
                    continue;
                }
                extended = Some(path.span);
                let full = dir.as_deref().unwrap_or(Path::new(".")).join(&path.value);
                let shown = full.display().to_string();
                if chain.contains(&shown) {
                    diags.push(
                        Diagnostic::error(
                            codes::FILE,
                            path.span,
                            format!("extending `{}` closes a cycle: {} -> {shown}", path.value, chain.join(" -> ")),
                        )
                        .label("cycle"),
                    );
                    continue;
                }
                if chain.len() >= MAX_EXTENDS_DEPTH {
                    unreadable.extend(EVERYTHING.map(String::from));
                    diags.push(Diagnostic::error(
                        codes::BOUND,
                        path.span,
                        format!("extends chains may be at most {MAX_EXTENDS_DEPTH} deep"),
                    ));
                    continue;
                }
                let unsaved = open.get(&lexically_normal(&full)).map(|t| t.to_string());
                match unsaved.map_or_else(|| read_text(&full, RULES_LIMIT), Ok) {
                    Ok(text) => {
                        let f = sources.add(shown.clone(), text);
                        chain.push(shown);
                        let dir = full.parent().map(Path::to_path_buf);
                        base = load_items(sources, diags, f, dir, chain, unreadable, open);
                        chain.pop();
                    }
                    Err(e) => {
                        unreadable.extend(EVERYTHING.map(String::from));
                        diags.push(
                            Diagnostic::error(codes::FILE, path.span, format!("cannot read `{}`: {e}", full.display()))
                                .label("extended here"),
                        )
                    }
                }
            }
            other => own.push(other),
        }
    }
    merge(base, own, diags)
}

/// A path with `.` and `dir/..` taken out, without asking the file system (the files an editor
/// has open are named by such paths).
pub fn lexically_normal(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            std::path::Component::CurDir => {}
            std::path::Component::ParentDir if matches!(out.components().next_back(), Some(std::path::Component::Normal(_))) => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

/// How an item's key reads in a message: `piece `Knight``, `board`.
fn shown_key(k: &str) -> String {
    match k.split_once(' ') {
        Some((kind, name)) => format!("{kind} `{name}`"),
        None => format!("`{k}`"),
    }
}

/// The key under which two items clash (same kind and name); `None` for items that accumulate.
fn key(item: &ast::Item) -> Option<String> {
    Some(match item {
        ast::Item::Game(_) => "game".into(),
        ast::Item::Board(_) => "board".into(),
        ast::Item::Setup(_) => "setup".into(),
        ast::Item::Param(p) => format!("param {}", p.name.name),
        ast::Item::Zone(z) => format!("zone {}", z.name.name),
        ast::Item::Direction(d) => format!("direction {}", d.name.name),
        ast::Item::Piece(p) => format!("piece {}", p.name.name),
        ast::Item::Roll(_) => "roll".into(),
        ast::Item::Track(t) => format!("track {}", t.name.name),
        _ => return None,
    })
}

fn overrides(item: &ast::Item) -> Option<(bool, Span)> {
    Some(match item {
        ast::Item::Game(g) => (g.overrides, g.name.span),
        ast::Item::Board(b) => (b.overrides, b.span),
        ast::Item::Setup(s) => (s.overrides, s.fen.span),
        ast::Item::Param(p) => (p.overrides, p.name.span),
        ast::Item::Zone(z) => (z.overrides, z.name.span),
        ast::Item::Direction(d) => (false, d.name.span),
        ast::Item::Piece(p) => (p.overrides, p.name.span),
        ast::Item::Roll(r) => (r.overrides, r.span),
        ast::Item::Track(t) => (t.overrides, t.name.span),
        _ => return None,
    })
}

/// Merges `own` items into the `base` ruleset's. Items are found by key in maps, not by scanning
/// `out`, so merging takes time in proportion to the number of items (a file of 30,000 zones once
/// took minutes here).
fn merge(base: Vec<ast::Item>, own: Vec<ast::Item>, diags: &mut Diagnostics) -> Vec<ast::Item> {
    let base_len = base.len();
    let mut out = base;
    // Where each keyed item and each end rule (by its label; the first of that label) is in `out`.
    let mut keyed: HashMap<String, usize> = HashMap::new();
    let mut ends: HashMap<String, (usize, usize)> = HashMap::new();
    let mut last_end: Option<usize> = None;
    for (i, item) in out.iter().enumerate() {
        if let Some(k) = key(item) {
            keyed.entry(k).or_insert(i);
        }
        if let ast::Item::End(rs) = item {
            last_end = Some(i);
            for (p, r) in rs.iter().enumerate() {
                ends.entry(r.label.name.clone()).or_insert((i, p));
            }
        }
    }
    for item in own {
        // End rules merge rule by rule, keyed by their reason label.
        if let ast::Item::End(rules) = item {
            let mut fresh = Vec::new();
            for r in rules {
                match ends.get(&r.label.name).copied() {
                    Some((i, p)) if r.overrides || i >= base_len => {
                        if !r.overrides {
                            let first = match &out[i] {
                                ast::Item::End(rs) => rs[p].label.span,
                                _ => unreachable!("found in an end block"),
                            };
                            diags.push(
                                Diagnostic::error(
                                    codes::DUPLICATE,
                                    r.label.span,
                                    format!("end rule `{}` is defined twice", r.label.name),
                                )
                                .label("second definition")
                                .with(first, "first defined here"),
                            );
                            continue;
                        }
                        if let ast::Item::End(rs) = &mut out[i] {
                            rs[p] = r;
                        }
                    }
                    Some((i, p)) => {
                        let first = match &out[i] {
                            ast::Item::End(rs) => rs[p].label.span,
                            _ => unreachable!("found in an end block"),
                        };
                        diags.push(
                            Diagnostic::error(
                                codes::DUPLICATE,
                                r.label.span,
                                format!("end rule `{}` is already defined by the base ruleset", r.label.name),
                            )
                            .label("defined again here")
                            .with(first, "first defined here")
                            .help("write `override` before it to replace the base's rule"),
                        );
                    }
                    None => {
                        if r.overrides {
                            diags.push(
                                Diagnostic::warning(
                                    codes::REDUNDANT,
                                    r.label.span,
                                    format!("`override` but no end rule `{}` to replace", r.label.name),
                                )
                                .label("overrides nothing"),
                            );
                        }
                        fresh.push(r);
                    }
                }
            }
            if !fresh.is_empty() {
                let i = match last_end {
                    Some(i) => i,
                    None => {
                        out.push(ast::Item::End(Vec::new()));
                        last_end = Some(out.len() - 1);
                        out.len() - 1
                    }
                };
                if let ast::Item::End(rs) = &mut out[i] {
                    for r in fresh {
                        ends.entry(r.label.name.clone()).or_insert((i, rs.len()));
                        rs.push(r);
                    }
                }
            }
            continue;
        }
        let Some(k) = key(&item) else {
            out.push(item);
            continue;
        };
        let (ovr, span) = overrides(&item).expect("keyed items have spans");
        match keyed.get(&k).copied() {
            Some(pos) if ovr => out[pos] = item,
            Some(pos) => {
                let first = overrides(&out[pos]).map(|(_, s)| s).unwrap_or(span);
                let mut d = Diagnostic::error(codes::DUPLICATE, span, format!("{} is defined twice", shown_key(&k)))
                    .label("defined again here")
                    .with(first, "first defined here");
                if pos < base_len {
                    d = d.help("write `override` before it to replace the base ruleset's definition");
                }
                diags.push(d);
            }
            None => {
                if ovr {
                    diags.push(
                        Diagnostic::warning(codes::REDUNDANT, span, format!("`override` but no {} to replace", shown_key(&k)))
                            .label("overrides nothing"),
                    );
                }
                keyed.insert(k, out.len());
                out.push(item);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The engine a check hands over is the one its rules compile to (its parameters applied),
    /// and there is none where the rules do not check.
    #[test]
    fn a_check_hands_over_the_engine_of_its_rules() {
        let go = Path::new(env!("CARGO_MANIFEST_DIR")).join("../rulesets/go.rules");
        let checked = check_file(&go, &[("size".into(), "9".into())]);
        let engine = checked.engine.expect("go.rules checks");
        assert_eq!(**engine.rules(), checked.rules.expect("go.rules checks"));
        assert_eq!(engine.start().legal_moves().len(), 82, "81 points and the pass");
        let broken = check_source("broken.rules", "game \"x\" { players a \"a\", b \"b\" }", None, &[]);
        assert!(broken.rules.is_none() && broken.engine.is_none());
    }

    #[test]
    fn paths_lose_dots_without_the_file_system() {
        assert_eq!(lexically_normal(Path::new("/a/b/./../c.rules")), PathBuf::from("/a/c.rules"));
        assert_eq!(lexically_normal(Path::new("/a/b/c.rules")), PathBuf::from("/a/b/c.rules"));
        assert_eq!(
            lexically_normal(Path::new("../x.rules")),
            PathBuf::from("../x.rules"),
            "nothing to pop"
        );
    }

    #[test]
    fn an_open_file_is_read_before_the_disk() {
        let open = HashMap::from([(PathBuf::from("/nowhere/base.rules"), "game \"Base\" {\n")]);
        let checked = check_source_with("v.rules", "extends \"../nowhere/base.rules\"\n", Some(Path::new("/x")), &[], &open);
        // The unsaved base was read (it does not exist on disk): its own syntax error is reported,
        // not a file that cannot be read.
        assert!(
            checked.diagnostics.items.iter().all(|d| d.code != codes::FILE),
            "{:?}",
            checked.diagnostics.items
        );
        assert!(
            checked.diagnostics.items.iter().any(|d| d.code == codes::SYNTAX),
            "{:?}",
            checked.diagnostics.items
        );
    }
}
