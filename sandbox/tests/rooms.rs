//! The sandbox's rooms and the one way their arrows run (ARCHITECTURE.md draws them): a room's
//! code names only its own room and the rooms below it. The check reads the sources, so a `use`
//! that points up fails here with the file, the line and the room it reached.

use std::path::{Path, PathBuf};

/// The rooms, bottom first. `app` is the crate's root (`lib.rs`, `main.rs`): the wiring.
const ROOMS: [&str; 7] = ["session", "timeline", "players", "board", "panel", "window", "app"];

fn room_of(file: &Path, src: &Path) -> &'static str {
    let rel = file.strip_prefix(src).expect("under src");
    let first = rel.components().next().and_then(|c| c.as_os_str().to_str()).unwrap_or("");
    ROOMS.iter().find(|r| **r == first).copied().unwrap_or("app")
}

fn rank(room: &str) -> usize {
    ROOMS.iter().position(|r| *r == room).expect("a room")
}

fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("readable") {
        let path = entry.expect("an entry").path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// Each `crate::<room>` a line of code names (comments aside), with its column.
fn rooms_named(line: &str) -> Vec<(usize, &'static str)> {
    let code = line.split("//").next().unwrap_or("");
    let mut out = Vec::new();
    for (at, _) in code.match_indices("crate::") {
        let rest = &code[at + "crate::".len()..];
        let word: String = rest.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
        if let Some(room) = ROOMS.iter().find(|r| **r == word && **r != "app") {
            out.push((at + 1, *room));
        }
    }
    out
}

/// Every arrow that points up: `file:line:col: room -> higher room`.
fn upward_arrows(src: &Path) -> Vec<String> {
    let mut files = Vec::new();
    sources(src, &mut files);
    files.sort();
    let mut wrong = Vec::new();
    for file in &files {
        let here = room_of(file, src);
        let text = std::fs::read_to_string(file).expect("readable");
        for (n, line) in text.lines().enumerate() {
            for (col, there) in rooms_named(line) {
                if rank(there) > rank(here) {
                    wrong.push(format!(
                        "{}:{}:{col}: the {here} room names the {there} room above it",
                        file.display(),
                        n + 1
                    ));
                }
            }
        }
    }
    wrong
}

#[test]
fn every_arrow_between_rooms_points_down() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let wrong = upward_arrows(&src);
    assert!(wrong.is_empty(), "arrows pointing up:\n{}", wrong.join("\n"));
}

#[test]
fn the_check_sees_an_arrow_pointing_up_and_ignores_comments() {
    let dir = std::env::temp_dir().join(format!("arbiter-rooms-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("session")).unwrap();
    std::fs::create_dir_all(dir.join("board")).unwrap();
    std::fs::write(
        dir.join("session/mod.rs"),
        "// crate::board is only mentioned\nuse crate::board::layout::Layout;\n",
    )
    .unwrap();
    std::fs::write(dir.join("board/mod.rs"), "use crate::session::Session;\n").unwrap();
    let wrong = upward_arrows(&dir);
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(wrong.len(), 1, "{wrong:?}");
    assert!(
        wrong[0].ends_with("session/mod.rs:2:5: the session room names the board room above it"),
        "{}",
        wrong[0]
    );
}
