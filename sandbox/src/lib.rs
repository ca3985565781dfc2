//! The Arbiter sandbox: a Bevy window onto the interpreter. It draws any ruleset's board from the
//! ruleset alone, replays scenarios and game records, lets a person play moves that the interpreter
//! judges, edit positions, mark dead chains, and reload the rules while the game stays on screen.
//! Invariant: the sandbox changes a position only through the interpreter's API (`Game`,
//! `Engine::from_fen`), as actions it logs; it never names a particular game.
//!
//! One plugin per feature, each a `plugin(app)` function: [`session`] (the game, its messages, its
//! actions and autoplay; no window needed), [`board`] (drawing), [`input`] (mouse), [`panel`] (egui),
//! [`reload`] (watching the ruleset file), [`shot`] (screenshots). Beside them: [`source`] (opening
//! rulesets, scenarios and records), [`actions`] (the action model), [`editor`] (positions by hand,
//! saving scenarios), [`replay`] (autoplay), [`recompile`] (the session's side of a reload),
//! [`layout`] (geometry).

pub mod actions;
pub mod board;
pub mod computer;
pub mod editor;
pub mod input;
pub mod layout;
pub mod panel;
pub mod recompile;
pub mod reload;
pub mod replay;
pub mod session;
pub mod shot;
pub mod sim_window;
pub mod simulate;
pub mod source;

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use crate::panel::PANEL_WIDTH;

/// The font with the CJK glyphs some rulesets use (a small subset; licence in `assets/`), for the
/// board's pieces and the egui panel alike.
pub const GLYPH_FONT: &[u8] = include_bytes!("../assets/xiangqi-glyphs.ttf");

/// The camera, shifted so the board sits right of the panel.
pub fn spawn_camera(mut commands: Commands) {
    commands.spawn((Camera2d, Transform::from_xyz(-PANEL_WIDTH / 2.0, 0.0, 0.0)));
}

/// Adds the glyph font to egui once, as the last fallback of both families, so piece glyphs and
/// names in the panel show (egui's own fonts have no CJK).
fn install_fonts(mut contexts: EguiContexts, mut done: Local<bool>) -> Result {
    if *done {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    let families = [egui::FontFamily::Proportional, egui::FontFamily::Monospace]
        .into_iter()
        .map(|family| egui::epaint::text::InsertFontFamily {
            family,
            priority: egui::epaint::text::FontPriority::Lowest,
        })
        .collect();
    ctx.add_font(egui::epaint::text::FontInsert::new(
        "glyphs",
        egui::FontData::from_static(GLYPH_FONT),
        families,
    ));
    *done = true;
    Ok(())
}

/// Everything but the window, the camera and input: logic, drawing and the panel.
pub fn plugin(app: &mut App) {
    app.add_plugins(bevy_egui::EguiPlugin::default());
    app.add_plugins((session::plugin, board::plugin, panel::plugin, sim_window::plugin));
    app.add_systems(EguiPrimaryContextPass, install_fonts);
}
