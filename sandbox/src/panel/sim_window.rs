//! The Simulate window: the run's settings (games, seed, each side's player, the ply limit, the
//! start), Run and Stop, a progress bar while it runs, and the results — outcome shares as bars
//! with their 95% Wilson intervals as error bars, a histogram of game lengths, the first player's
//! score with its interval, mean branching, and the command line that repeats the run. Plots are
//! egui_plot's. Like the side panel it only reads state and sends messages ([`SimRequest`]).

use arbiter::model::Side;
use arbiter::sim::{Budget, Interval, MAX_GAMES, MAX_ITERATIONS, MAX_PLIES, PHASES, PlayerSpec};
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use egui_plot::{Bar, BarChart, Line, Plot};

use crate::players::simulate::{SimRequest, SimResult, Simulation};
use crate::session::Session;

/// The outcome bars' colours: the first side's wins, the second side's, draws, games without a
/// result, games cut at the ply limit; the histogram's; the intervals'.
pub const FIRST_WINS: egui::Color32 = egui::Color32::from_rgb(86, 156, 230);
pub const SECOND_WINS: egui::Color32 = egui::Color32::from_rgb(232, 116, 72);
pub const DRAWS: egui::Color32 = egui::Color32::from_rgb(150, 150, 160);
pub const NO_RESULT: egui::Color32 = egui::Color32::from_rgb(170, 110, 200);
pub const UNFINISHED: egui::Color32 = egui::Color32::from_rgb(214, 190, 64);
pub const LENGTHS: egui::Color32 = egui::Color32::from_rgb(72, 190, 160);
const WHISKERS: egui::Color32 = egui::Color32::from_rgb(240, 240, 240);

/// How wide the window is; it stands at the window's right edge, beside the board, which moves left
/// to make room ([`crate::board::layout::Beside`]).
pub const WINDOW_WIDTH: f32 = 430.0;

/// The room kept beside the board while the window is open: its width and egui's frame and margins.
pub const ROOM: f32 = WINDOW_WIDTH + 40.0;

/// The player choices the panels offer: random, or MCTS with an iteration or a time budget.
pub fn player_picker(ui: &mut egui::Ui, id: impl std::hash::Hash + std::fmt::Debug, player: &mut PlayerSpec) {
    ui.horizontal(|ui| {
        let kind = |p: &PlayerSpec| match p {
            PlayerSpec::Random => 0,
            PlayerSpec::Mcts(Budget::Iterations(_)) => 1,
            PlayerSpec::Mcts(Budget::Time(_)) => 2,
        };
        let mut k = kind(player);
        egui::ComboBox::from_id_salt(id)
            .width(120.0)
            .selected_text(["random", "mcts (iterations)", "mcts (time)"][k])
            .show_ui(ui, |ui| {
                ui.selectable_value(&mut k, 0, "random");
                ui.selectable_value(&mut k, 1, "mcts (iterations)");
                ui.selectable_value(&mut k, 2, "mcts (time)");
            });
        if k != kind(player) {
            *player = match k {
                0 => PlayerSpec::Random,
                1 => PlayerSpec::Mcts(Budget::Iterations(1000)),
                _ => PlayerSpec::Mcts(Budget::Time(std::time::Duration::from_millis(500))),
            };
        }
        match player {
            PlayerSpec::Random => {}
            PlayerSpec::Mcts(Budget::Iterations(n)) => {
                ui.add(egui::DragValue::new(n).range(1..=MAX_ITERATIONS).speed(10));
                for preset in [200, 1000, 5000] {
                    if ui.small_button(preset.to_string()).clicked() {
                        *n = preset;
                    }
                }
            }
            PlayerSpec::Mcts(Budget::Time(d)) => {
                let mut ms = d.as_millis() as u64;
                let max = arbiter::sim::MAX_THINK.as_millis() as u64;
                if ui.add(egui::DragValue::new(&mut ms).range(1..=max).suffix(" ms")).changed() {
                    *d = std::time::Duration::from_millis(ms);
                }
            }
        }
    });
}

fn window(
    mut contexts: EguiContexts,
    mut sim: ResMut<Simulation>,
    session: Res<Session>,
    mut requests: MessageWriter<SimRequest>,
    mut beside: ResMut<crate::board::layout::Beside>,
) -> Result {
    // Written only on a change: the board is laid out anew on one.
    let room = if sim.open { ROOM } else { 0.0 };
    if beside.0 != room {
        beside.0 = room;
    }
    if !sim.open {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?.clone();
    let mut open = true;
    let sim = &mut *sim;
    egui::Window::new("Simulate")
        .open(&mut open)
        .anchor(egui::Align2::RIGHT_TOP, egui::vec2(-12.0, 12.0))
        .default_width(WINDOW_WIDTH)
        .resizable(false)
        .show(&ctx, |ui| {
            settings(ui, sim, &session);
            ui.separator();
            match &sim.running {
                Some(r) => {
                    let done = r.done.load(std::sync::atomic::Ordering::Relaxed);
                    ui.add(egui::ProgressBar::new(r.fraction()).show_percentage().text(format!(
                        "{done} of {} games, {:.1} s",
                        r.games,
                        r.started.elapsed().as_secs_f32()
                    )));
                    if ui.button("Stop").clicked() {
                        requests.write(SimRequest::Stop);
                    }
                    ctx.request_repaint();
                }
                None => {
                    if ui.button("Run").clicked() {
                        requests.write(SimRequest::Run);
                    }
                }
            }
            if let Some(e) = &sim.error {
                ui.colored_label(egui::Color32::from_rgb(235, 95, 80), e);
            }
            if let Some(r) = &sim.result {
                ui.separator();
                results(ui, r);
            }
        });
    if !open {
        sim.open = false;
    }
    Ok(())
}

/// The run's settings (not editable while it runs).
fn settings(ui: &mut egui::Ui, sim: &mut Simulation, session: &Session) {
    let rules = session.engine.rules();
    let running = sim.running.is_some();
    let s = &mut sim.settings;
    ui.add_enabled_ui(!running, |ui| {
        egui::Grid::new("sim-settings").num_columns(2).show(ui, |ui| {
            ui.label("Games");
            ui.add(egui::DragValue::new(&mut s.games).range(1..=MAX_GAMES).speed(10));
            ui.end_row();
            ui.label("Seed");
            ui.add(egui::DragValue::new(&mut s.seed));
            ui.end_row();
            for side in [Side::FIRST, Side::SECOND] {
                ui.label(&rules.players[side.index()].name);
                player_picker(ui, ("sim-player", side.index()), &mut s.players[side.index()]);
                ui.end_row();
            }
            ui.label("Max plies");
            ui.add(egui::DragValue::new(&mut s.max_plies).range(1..=MAX_PLIES).speed(10));
            ui.end_row();
        });
        ui.checkbox(
            &mut s.from_current,
            "Start from the position on the board (else the ruleset's start)",
        );
    });
}

/// A share with its interval, in words: `58.0% (53.6–62.3)`.
fn share(i: Interval) -> String {
    format!("{:.1}% ({:.1}–{:.1})", 100.0 * i.mean, 100.0 * i.low, 100.0 * i.high)
}

/// The outcome bars with their intervals, the length histogram, the score, branching, the command.
fn results(ui: &mut egui::Ui, r: &SimResult) {
    let t = &r.tally;
    let n = t.games;
    if r.partial {
        ui.colored_label(
            egui::Color32::from_rgb(240, 170, 70),
            format!("Stopped: {n} of {} games played ({:.1} s)", r.games, r.took.as_secs_f32()),
        );
    } else {
        ui.label(format!("{n} games in {:.1} s", r.took.as_secs_f32()));
    }
    let mut outcomes: Vec<(String, u64, egui::Color32)> = r
        .sides
        .iter()
        .enumerate()
        .map(|(i, side)| {
            let colour = match i {
                0 => FIRST_WINS,
                1 => SECOND_WINS,
                _ => egui::Color32::from_rgb(120 + 40 * (i as u8 % 3), 110, 170 - 30 * (i as u8 % 3)),
            };
            (format!("{side} wins"), t.won(i), colour)
        })
        .collect();
    outcomes.push(("draws".to_string(), t.draws, DRAWS));
    if t.no_result > 0 {
        outcomes.push(("no result".to_string(), t.no_result, NO_RESULT));
    }
    outcomes.push(("unfinished".to_string(), t.unfinished, UNFINISHED));
    let intervals: Vec<Interval> = outcomes.iter().map(|(_, k, _)| Interval::wilson(*k as f64, n)).collect();
    let names: Vec<String> = outcomes.iter().map(|(name, ..)| name.clone()).collect();
    let bars: Vec<Bar> = outcomes
        .iter()
        .zip(&intervals)
        .enumerate()
        .map(|(x, ((name, _, colour), i))| {
            Bar::new(x as f64, i.mean)
                .width(0.6)
                .name(name)
                .fill(*colour)
                .stroke(egui::Stroke::new(1.0, *colour))
        })
        .collect();
    ui.label("Outcomes (share of games, 95% Wilson intervals)");
    Plot::new("sim-outcomes")
        .height(150.0)
        .allow_zoom(false)
        .allow_drag(false)
        .allow_scroll(false)
        .allow_boxed_zoom(false)
        .show_x(false)
        .include_y(0.0)
        .include_y(1.0)
        .include_x(-0.5)
        .include_x(outcomes.len() as f64 - 0.5)
        .x_axis_formatter(move |mark, _| {
            let x = mark.value.round();
            if (mark.value - x).abs() < 1e-6 && x >= 0.0 {
                names.get(x as usize).cloned().unwrap_or_default()
            } else {
                String::new()
            }
        })
        .show(ui, |plot| {
            plot.bar_chart(BarChart::new("outcomes", bars));
            for (x, i) in intervals.iter().enumerate() {
                let x = x as f64;
                let whisker = |points: Vec<[f64; 2]>| Line::new("95% interval", points).color(WHISKERS).width(1.5);
                plot.line(whisker(vec![[x, i.low], [x, i.high]]));
                plot.line(whisker(vec![[x - 0.12, i.low], [x + 0.12, i.low]]));
                plot.line(whisker(vec![[x - 0.12, i.high], [x + 0.12, i.high]]));
            }
        });
    for ((name, k, colour), i) in outcomes.iter().zip(&intervals) {
        ui.colored_label(*colour, format!("{name}: {k} — {}", share(*i)));
    }
    let first = r.first;
    // Among teams, the first player's team scores (its partners' wins are its own).
    let team: Vec<&str> = match r.teams.get(first.index()) {
        Some(&t) => (0..r.sides.len())
            .filter(|&s| r.teams.get(s) == Some(&t))
            .map(|s| r.sides[s].as_str())
            .collect(),
        None => vec![r.sides[first.index()].as_str()],
    };
    ui.label(format!(
        "{} ({}) scores {} over {} finished games",
        team.join(" and "),
        if team.len() > 1 { "the first player's team" } else { "moves first" },
        share(t.score(first, r.sides.len(), &r.teams)),
        t.finished()
    ));
    let reasons: Vec<String> = t.reasons.iter().map(|(why, k)| format!("{why} {k}")).collect();
    ui.label(format!("Ends: {}", reasons.join(", ")));
    ui.label(format!(
        "Length: mean {:.1}, median {}, 10%–90% {}–{} plies",
        t.mean_length(),
        t.length_quantile(0.5),
        t.length_quantile(0.1),
        t.length_quantile(0.9)
    ));
    let bins: Vec<Bar> = t
        .histogram(20)
        .into_iter()
        .map(|(from, to, games)| {
            Bar::new((from + to) as f64 / 2.0, games as f64)
                .width((to - from + 1) as f64 * 0.9)
                .name(format!("{from}–{to} plies"))
                .fill(LENGTHS)
                .stroke(egui::Stroke::new(1.0, LENGTHS))
        })
        .collect();
    Plot::new("sim-lengths")
        .height(120.0)
        .allow_zoom(false)
        .allow_drag(false)
        .allow_scroll(false)
        .allow_boxed_zoom(false)
        .include_y(0.0)
        .x_axis_label("plies")
        .y_axis_label("games")
        .show(ui, |plot| plot.bar_chart(BarChart::new("lengths", bins)));
    let (per, all) = t.branching();
    let phases: Vec<String> = PHASES.iter().zip(per).map(|(p, b)| format!("{p} {b:.1}")).collect();
    let over = if t.branching_games == t.games {
        String::new()
    } else {
        format!("; counted in {} of the games", t.branching_games)
    };
    ui.label(format!("Moves to choose from: {all:.1} a ply ({}{over})", phases.join(", ")));
    ui.label("Repeat from the command line:");
    if !r.reproducible {
        ui.small("A player thinks for a time, not a number of iterations: the command plays games like these, not the same ones.");
    }
    ui.horizontal(|ui| {
        ui.add(egui::Label::new(egui::RichText::new(&r.command).monospace()).wrap());
    });
    if ui.small_button("Copy command").clicked() {
        ui.ctx().copy_text(r.command.clone());
    }
}

/// The Simulate window, drawn while it is open.
pub fn plugin(app: &mut App) {
    app.add_systems(EguiPrimaryContextPass, window);
}
