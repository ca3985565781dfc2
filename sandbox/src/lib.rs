//! The Arbiter sandbox: a Bevy window onto the interpreter. It draws any ruleset's board from the
//! ruleset alone, replays scenarios and game records, lets a person play moves that the interpreter
//! judges, edit positions, mark dead chains, and reload the rules while the game stays on screen.
//! Invariant: the sandbox changes a position only through the interpreter's API (`Game`,
//! `Engine::from_fen`), as actions it logs; it never names a particular game.
//!
//! Rooms by feature around the [`Session`](session::Session), each a folder of `plugin(app)`s,
//! listed from the core out; a room's code names only its own room and those before it (the
//! sandbox's `tests/rooms.rs` checks it):
//! - [`session`]: the game and its timeline, tree, actions, turns entered part by part, the files it
//!   opens and saves (rulesets, scenarios, records), the trainer's marks as data. No window needed.
//! - [`timeline`]: steps and jumps through timeline and tree, the move list, autoplay.
//! - [`players`]: the computer, the clocks, simulations.
//! - [`board`]: the board drawn (layout, figures, marks, the area count) and the mouse.
//! - [`panel`]: the egui panel, the Simulate window, the keyboard and its chords.
//! - [`window`]: when the window draws, the ruleset watcher, screenshots, `--trace`.
//!
//! Here: [`logic`] (the rooms that need no window) and [`plugin`] (all of them), the camera and the
//! embedded fonts.

pub mod board;
pub mod panel;
pub mod players;
pub mod session;
pub mod timeline;
pub mod window;

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

/// The font with the CJK glyphs some rulesets use (a small subset; licence in `assets/`), for the
/// board's pieces and the egui panel alike.
pub const GLYPH_FONT: &[u8] = include_bytes!("../assets/xiangqi-glyphs.ttf");

/// The symbols egui's own fonts lack in their proportional family — marks (`✘`), geometric shapes
/// (`●`, a stone's glyph), draughts men, arrows — a subset of DejaVu Sans (licence in `assets/`).
pub const SYMBOL_FONT: &[u8] = include_bytes!("../assets/symbol-glyphs.ttf");

/// Glyphs from the emoji blocks a ruleset may give its pieces, drawn in one colour (a colour emoji
/// font would not render): a subset of Symbola (licence in `assets/`).
pub const EMOJI_FONT: &[u8] = include_bytes!("../assets/emoji-glyphs.ttf");

/// The embedded fonts, in the order they are tried for a character egui's or Bevy's own font lacks.
pub const EMBEDDED_FONTS: [(&str, &[u8]); 3] = [("glyphs", GLYPH_FONT), ("symbols", SYMBOL_FONT), ("emoji", EMOJI_FONT)];

/// Does the font `data` map `c` to a glyph? Read from its character map, as egui does (egui's own
/// `has_glyph` mistakes glyphs of the font that holds its replacement character for missing ones).
pub fn font_covers(data: &[u8], c: char) -> bool {
    skrifa::FontRef::from_index(data, 0).is_ok_and(|font| skrifa::MetadataProvider::charmap(&font).map(c).is_some())
}

/// The fonts the panel adds to egui's own, each as the last fallback of both families, in order.
pub fn panel_fonts() -> Vec<egui::epaint::text::FontInsert> {
    EMBEDDED_FONTS
        .into_iter()
        .map(|(name, data)| {
            let families = [egui::FontFamily::Proportional, egui::FontFamily::Monospace]
                .into_iter()
                .map(|family| egui::epaint::text::InsertFontFamily {
                    family,
                    priority: egui::epaint::text::FontPriority::Lowest,
                })
                .collect();
            egui::epaint::text::FontInsert::new(name, egui::FontData::from_static(data), families)
        })
        .collect()
}

/// The camera, shifted so the board sits right of the panel.
pub fn spawn_camera(mut commands: Commands) {
    commands.spawn((
        Camera2d,
        Transform::from_translation(crate::board::layout::camera_offset(0.0, 0.0).extend(0.0)),
    ));
}

/// Adds [`panel_fonts`] to egui once, so piece glyphs, names and marks in the panel show (egui's
/// own fonts have no CJK, and their proportional family lacks `✘` and `●`).
fn install_fonts(mut contexts: EguiContexts, mut done: Local<bool>) -> Result {
    if *done {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    for font in panel_fonts() {
        ctx.add_font(font);
    }
    *done = true;
    Ok(())
}

/// The logic, with no window: the session room and the rooms that act on it by themselves
/// (autoplay, the computer's turn, simulations).
pub fn logic(app: &mut App) {
    app.add_plugins((session::plugin, timeline::plugin, players::plugin));
}

/// Everything but the window, the camera and input: logic, drawing and the panel.
pub fn plugin(app: &mut App) {
    app.add_plugins(bevy_egui::EguiPlugin::default());
    app.add_plugins((
        logic,
        board::marks::plugin,
        board::plugin,
        panel::plugin,
        panel::sim_window::plugin,
        panel::keys::plugin,
        window::redraw::plugin,
        panel::chords::plugin,
        players::clocks::plugin,
    ));
    app.add_systems(EguiPrimaryContextPass, install_fonts);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The non-ASCII characters inside string literals of the sandbox's sources (what the panel
    /// and the board may write), read naively: a quote opens or closes a literal, `\"` does not.
    fn literal_chars() -> Vec<(char, String)> {
        let mut files = Vec::new();
        let mut dirs = vec![std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src")];
        while let Some(dir) = dirs.pop() {
            for entry in std::fs::read_dir(&dir).expect("the sandbox's sources") {
                let path = entry.expect("a directory entry").path();
                if path.is_dir() {
                    dirs.push(path);
                } else {
                    files.push(path);
                }
            }
        }
        assert!(files.len() > 30, "every room's files: {files:?}");
        let mut found = Vec::new();
        for path in files {
            let text = std::fs::read_to_string(&path).expect("a source file");
            for line in text.lines().filter(|l| !l.trim_start().starts_with("//")) {
                // Character literals of a quote or a backslash are not quotes.
                let line = line.replace("'\"'", "").replace("'\\\\'", "").replace("'\\\"'", "");
                let (mut inside, mut escaped) = (false, false);
                for c in line.chars() {
                    if escaped {
                        escaped = false;
                        continue;
                    }
                    match c {
                        '\\' if inside => escaped = true,
                        '"' => inside = !inside,
                        c if inside && !c.is_ascii() => found.push((c, path.display().to_string())),
                        _ => {}
                    }
                }
            }
        }
        found
    }

    #[test]
    fn every_glyph_the_panel_writes_is_in_its_fonts() {
        // egui's fonts with ours appended, as `install_fonts` leaves them; a character shows when a
        // font of the family has it in its character map (the same test egui's fallback makes).
        let mut fonts = egui::FontDefinitions::default();
        for insert in panel_fonts() {
            fonts.font_data.insert(insert.name.clone(), std::sync::Arc::new(insert.data));
            for family in insert.families {
                fonts.families.entry(family.family).or_default().push(insert.name.clone());
            }
        }
        let covers = |family: &egui::FontFamily, c: char| {
            fonts.families[family].iter().any(|name| {
                let data = &fonts.font_data[name];
                let font = skrifa::FontRef::from_index(&data.font, data.index).expect("a font egui reads");
                skrifa::MetadataProvider::charmap(&font).map(c).is_some()
            })
        };
        let mut wanted = literal_chars();
        // Every bundled ruleset's piece glyphs: the editor's palette and the hands name them.
        let rulesets = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../rulesets");
        for entry in std::fs::read_dir(&rulesets).expect("the bundled rulesets") {
            let path = entry.expect("a directory entry").path();
            if path.extension().is_none_or(|e| e != "rules") {
                continue;
            }
            let opened = crate::session::source::open(path.to_str()).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            for kind in &opened.engine.rules().kinds {
                for glyph in &kind.glyphs {
                    wanted.extend(glyph.chars().map(|c| (c, path.display().to_string())));
                }
            }
        }
        assert!(wanted.iter().any(|(c, _)| *c == '✘'), "the scan sees the panel's marks");
        assert!(wanted.iter().any(|(c, _)| *c == '●'), "the scan sees the rulesets' glyphs");
        for family in [egui::FontFamily::Proportional, egui::FontFamily::Monospace] {
            let missing: Vec<&(char, String)> = wanted.iter().filter(|(c, _)| !c.is_whitespace() && !covers(&family, *c)).collect();
            assert!(missing.is_empty(), "{family:?} lacks {missing:?}");
        }
    }
}
