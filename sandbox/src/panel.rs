//! The egui side panel: what the interpreter says about the position (side to move, check, the
//! outcome), the scenario's title and caption, step buttons, and the ruling on a refused move.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use crate::session::{Replay, Session};

/// The panel's width in logical pixels; the camera shifts the board right by half of it.
pub const PANEL_WIDTH: f32 = 320.0;

fn side_panel(mut contexts: EguiContexts, session: Res<Session>, mut replay: MessageWriter<Replay>) -> Result {
    let ctx = contexts.ctx_mut()?;
    let mut root = egui::Ui::new(
        ctx.clone(),
        "root".into(),
        egui::UiBuilder::new()
            .layer_id(egui::LayerId::background())
            .max_rect(ctx.viewport_rect()),
    );
    let pos = session.game.current();
    let rules = pos.rules();
    let outcome = session.game.outcome();
    egui::Panel::left("arbiter")
        .exact_size(PANEL_WIDTH)
        .resizable(false)
        .show(&mut root, |ui| {
            ui.heading(&session.title);
            ui.label(format!("Rules: {}", rules.name));
            ui.separator();
            let stm = &rules.players[pos.side_to_move().index()].name;
            ui.label(format!("To move: {stm}"));
            if pos.in_check() {
                ui.colored_label(egui::Color32::from_rgb(220, 80, 60), "In check");
            }
            ui.label(outcome.message(pos));
            ui.separator();
            if session.timeline.len() > 1 {
                ui.label(format!("Step {} of {}", session.step, session.timeline.len() - 1));
                ui.horizontal(|ui| {
                    for (label, r) in [
                        ("⏮ First", Replay::First),
                        ("◀ Back", Replay::Back),
                        ("Forward ▶", Replay::Forward),
                        ("Last ⏭", Replay::Last),
                    ] {
                        if ui.button(label).clicked() {
                            replay.write(r);
                        }
                    }
                });
                match session.frame() {
                    Some(frame) => {
                        if !frame.played.is_empty() {
                            ui.label(format!("Played: {}", frame.played.join(" ")));
                        }
                        if let Some(c) = &frame.caption {
                            ui.label(egui::RichText::new(c).italics());
                        }
                    }
                    None => {
                        ui.label(format!("{} move(s) played by hand since step {}", session.off_script, session.step));
                    }
                }
                ui.separator();
            }
            if let Some(m) = session.last_move_text().filter(|_| session.off_script > 0) {
                ui.label(format!("Last move: {m}"));
                if ui.button("Take back all").clicked() {
                    replay.write(Replay::To(session.step));
                }
            }
            if let Some(r) = &session.refusal {
                ui.colored_label(egui::Color32::from_rgb(230, 110, 90), format!("{}: illegal ({})", r.text, r.code));
                ui.label(&r.message);
                if let Some(c) = &r.clause {
                    ui.label(format!("Clause: {c}"));
                }
            }
            if let Some(n) = &session.note {
                ui.label(n);
            }
            ui.separator();
            ui.small("Click a piece of the side to move, then a target. Promotion plays the first choice.");
        });
    Ok(())
}

/// The side panel, drawn every frame into the primary egui context.
pub fn plugin(app: &mut App) {
    app.add_systems(EguiPrimaryContextPass, side_panel);
}
