//! The crate's modules form layers: each uses only those below it, so none of them can be
//! understood (or changed) only together with another. From the bottom: `bits`, `model` (with its
//! `setup`), `clock`, `syntax`, `diag`, `compile`, `game`, `notation`, `check`, then what drives
//! them. This test reads the sources and refuses a cycle among the top-level modules, naming it.
//! (Files of one module may still use each other: `game/position.rs` and `game/turn.rs` are one
//! type's code.)

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Every `.rs` file under `dir`.
fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("the source directory reads") {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The top-level module a source file belongs to (`game` for `src/game/turn.rs`).
fn module_of(src: &Path, file: &Path) -> String {
    let rel = file.strip_prefix(src).expect("under src");
    let first = rel
        .components()
        .next()
        .expect("a file name")
        .as_os_str()
        .to_string_lossy()
        .to_string();
    first.trim_end_matches(".rs").to_string()
}

/// The top-level modules a file's code names through `crate::` (its tests and comments left out).
fn uses(text: &str) -> BTreeSet<String> {
    let code = text.split("#[cfg(test)]").next().unwrap_or("");
    let mut found = BTreeSet::new();
    for line in code.lines() {
        let line = line.split("//").next().unwrap_or("");
        let mut rest = line;
        while let Some(i) = rest.find("crate::") {
            rest = &rest[i + "crate::".len()..];
            let name: String = rest.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
            if !name.is_empty() {
                found.insert(name);
            }
        }
    }
    found
}

/// A cycle through `from` in `graph`, if there is one.
fn cycle_through(graph: &BTreeMap<String, BTreeSet<String>>, from: &str) -> Option<Vec<String>> {
    fn walk(graph: &BTreeMap<String, BTreeSet<String>>, at: &str, goal: &str, path: &mut Vec<String>, seen: &mut BTreeSet<String>) -> bool {
        for next in graph.get(at).into_iter().flatten() {
            if next == goal {
                return true;
            }
            if seen.insert(next.clone()) {
                path.push(next.clone());
                if walk(graph, next, goal, path, seen) {
                    return true;
                }
                path.pop();
            }
        }
        false
    }
    let mut path = vec![from.to_string()];
    walk(graph, from, from, &mut path, &mut BTreeSet::new()).then(|| {
        path.push(from.to_string());
        path
    })
}

#[test]
fn the_top_level_modules_form_layers_without_a_cycle() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&src, &mut files);
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for file in &files {
        let module = module_of(&src, file);
        if module == "main" || module == "lib" {
            continue;
        }
        let text = std::fs::read_to_string(file).expect("a source file reads");
        let deps = graph.entry(module.clone()).or_default();
        deps.extend(uses(&text).into_iter().filter(|m| *m != module));
    }
    assert!(graph.len() > 10, "the sources were found: {graph:?}");
    // The edges this layering exists for: positions are read in two steps, text below the engine's
    // checks, and the engine never reaches up into a notation.
    assert!(graph["notation"].contains("game"), "notation reads moves against positions");
    assert!(
        !graph["game"].contains("notation"),
        "the engine names no notation: {:?}",
        graph["game"]
    );
    assert!(
        !graph["compile"].contains("check"),
        "compiling needs no checker: {:?}",
        graph["compile"]
    );
    for module in graph.keys() {
        if let Some(cycle) = cycle_through(&graph, module) {
            panic!("the modules use each other in a circle: {}", cycle.join(" → "));
        }
    }
}

#[test]
fn a_circle_is_found_and_named() {
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    graph.entry("game".into()).or_default().insert("notation".into());
    graph.entry("notation".into()).or_default().insert("model".into());
    assert_eq!(cycle_through(&graph, "game"), None);
    graph.entry("model".into()).or_default().insert("game".into());
    assert_eq!(
        cycle_through(&graph, "game"),
        Some(vec!["game".into(), "notation".into(), "model".into(), "game".into()])
    );
    assert_eq!(
        uses("use crate::game::Position; // crate::notation\n#[cfg(test)]\nuse crate::check;"),
        BTreeSet::from(["game".to_string()])
    );
}
