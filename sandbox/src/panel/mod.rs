//! The egui side panel and the panes over the board. The panel holds the controls: the title and
//! rules (reload), the replay transport with a move list, play tools (take back, seeded random move,
//! pass and swap when they are legal), the clocks, the computer opponent's settings (and the button
//! that opens the Simulate window), the referee's tools (editor, dead marking, copy FEN, a caption
//! and save as scenario) and the action log. What the interpreter says sits where the eye is, over
//! and under the board: the bar over it ([`ruling_bar`]: the promotion or route choice, the turn of
//! several parts being entered — its move so far, the part to choose in the ruleset's words, the
//! choices a square does not tell apart —, the ruling on a refused move, the session's note) and the
//! status under it ([`status_pane`]: side to move, the phase and the ruleset's counts, check, the
//! outcome, claimable draws, the count in games that score by area, the hands, the computer's search
//! under way, the last reload's trouble, the editor's refusal, a save's result, a step's caption and
//! expectations); rule errors after a reload have a pane of their own ([`rule_errors_pane`]).
//!
//! The panel only reads the [`Session`]: every change it asks for is a message ([`Replay`],
//! [`Apply`], [`Pick`]) applied by the session's systems, so the board is redrawn only when the
//! game changes.
//!
//! The buttons shown in the panel depend only on the ruleset, the mode and whether there is a
//! timeline — so a status line appearing never moves a button under the pointer, and a second
//! click on it hits it. A button that does not apply now (take back at the start, pass when not
//! legal) is greyed, not removed. The panel scrolls as a whole in a low window; the log has a
//! region of its own below the controls, so the panel's height does not depend on it either.

pub mod chords;
pub mod keys;
pub mod sim_window;

use arbiter::game::{MoveKind, Status};
use arbiter::model::{KindId, Rules, Seating, Side};
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use crate::board::layout::PANEL_WIDTH;
use crate::board::layout::View;
use crate::board::scoring;
use crate::panel::sim_window::player_picker;
use crate::players::clocks::LiveClock;
use crate::players::computer::{Computer, Seats};
use crate::players::simulate::Simulation;
use crate::session::editor;
use crate::session::marks::Marks;
use crate::session::{Action, Apply, Brush, Edit, Mode, Pick, Replay, Session, Tools};
use crate::timeline::movelist;
use crate::timeline::navigate::Target;
use crate::timeline::replay::{Autoplay, SPEEDS};

const GOOD: egui::Color32 = egui::Color32::from_rgb(100, 200, 120);
const BAD: egui::Color32 = egui::Color32::from_rgb(235, 95, 80);
const WARN: egui::Color32 = egui::Color32::from_rgb(240, 170, 70);

/// How many log entries the panel shows.
const LOG_SHOWN: usize = 8;

/// The move list's height: fixed, so the controls below it stay put.
const MOVE_LIST_HEIGHT: f32 = 150.0;

/// The height of a record's comment box under the move list: three lines.
const COMMENT_HEIGHT: f32 = 54.0;

/// The least height of the region of messages below the controls (it takes the rest of the panel
/// where the window is high enough).
const MESSAGES_MIN_HEIGHT: f32 = 240.0;

/// The move list's cache (the main line's written moves) and the entry it last scrolled to.
#[derive(Default)]
pub struct ListState {
    main: movelist::MainLine,
    followed: Option<Target>,
}

/// What the panel asks the session to do this frame.
#[derive(Default, Debug)]
pub struct Requests {
    pub replay: Vec<Replay>,
    pub actions: Vec<Action>,
    /// Options picked for the turn being entered.
    pub picks: Vec<Pick>,
    /// "Clear marks" was pressed.
    pub clear_marks: bool,
}

/// The view, where the panel lies, the size left for the panel and the board, and the room kept
/// below the board for the status pane: what the panel reads of the window.
type WindowState<'w> = (
    Option<ResMut<'w, View>>,
    Option<ResMut<'w, crate::board::input::PanelArea>>,
    Option<Res<'w, crate::board::layout::Screen>>,
    (
        Option<Res<'w, crate::board::layout::Whole>>,
        Option<ResMut<'w, crate::board::layout::Below>>,
    ),
);

fn side_panel(
    mut contexts: EguiContexts,
    session: Res<Session>,
    mut tools: ResMut<Tools>,
    (mut auto, mut list): (ResMut<Autoplay>, Local<ListState>),
    (mut computer, mut sim, mut marks, mut clock): (ResMut<Computer>, ResMut<Simulation>, ResMut<Marks>, ResMut<LiveClock>),
    (mut replay, mut apply, mut pick): (MessageWriter<Replay>, MessageWriter<Apply>, MessageWriter<Pick>),
    (view, panel_area, screen, (whole, below)): WindowState,
) -> Result {
    let ctx = contexts.ctx_mut()?.clone();
    let mut root = egui::Ui::new(
        ctx.clone(),
        "root".into(),
        egui::UiBuilder::new()
            .layer_id(egui::LayerId::background())
            .max_rect(ctx.viewport_rect()),
    );
    let mut shown_view = view.as_ref().map(|v| **v);
    let mut caption = marks.caption.clone();
    let mut req = Requests::default();
    let shown = egui::Panel::left("arbiter")
        .exact_size(PANEL_WIDTH)
        .resizable(false)
        .show(&mut root, |ui| {
            req = contents(
                ui,
                &session,
                &mut tools,
                (&mut auto, &mut list),
                shown_view.as_mut(),
                (&mut computer, &mut sim, &mut clock),
                (&marks, &mut caption),
            );
        });
    // Where the panel lies (egui's points are the window's logical pixels: no zoom is set).
    let r = shown.response.rect;
    let area = Some(Rect::new(r.min.x, r.min.y, r.max.x, r.max.y));
    if let Some(mut panel) = panel_area
        && panel.0 != area
    {
        panel.0 = area;
    }
    // Written back only on a change: the board redraws when the marks change.
    if caption != marks.caption {
        marks.caption = caption;
    }
    // Written back only on a change: the board redraws when the view changes.
    if let (Some(mut view), Some(shown)) = (view, shown_view)
        && *view != shown
    {
        *view = shown;
    }
    let size = screen.map_or(
        Vec2::new(
            crate::board::layout::DEFAULT_SCREEN.0 as f32,
            crate::board::layout::DEFAULT_SCREEN.1 as f32,
        ),
        |s| s.0,
    );
    let width = size.x - PANEL_WIDTH;
    ruling_bar(&ctx, &session, width, &mut req);
    // The window's height: the board's room and what is kept below it.
    let high = whole.map_or(size.y, |w| w.0.y).max(size.y);
    let mut below = below;
    status_pane(
        &ctx,
        &session,
        (&tools, &computer, &list),
        (size, high),
        below.as_deref_mut(),
        &mut req,
    );
    rule_errors_pane(&ctx, &session, width);
    // Written back only on a change (the sheet's close button).
    let mut help = tools.help;
    if help {
        shortcut_sheet(&ctx, &mut help);
        if help != tools.help {
            tools.help = help;
        }
    }
    if req.clear_marks && marks.any() {
        marks.clear();
    }
    replay.write_batch(req.replay);
    apply.write_batch(req.actions.into_iter().map(Apply));
    pick.write_batch(req.picks);
    Ok(())
}

/// The panel's contents in `ui`: the controls, then the messages, then the log. What the panel
/// asks the session to do is returned.
pub fn contents(
    ui: &mut egui::Ui,
    session: &Session,
    tools: &mut Tools,
    (auto, list): (&mut Autoplay, &mut ListState),
    view: Option<&mut View>,
    (computer, sim, clock): (&mut Computer, &mut Simulation, &mut LiveClock),
    (marks, caption): (&Marks, &mut String),
) -> Requests {
    let mut req = Requests::default();
    list.main.update(session);
    let viewport = ui.available_height();
    egui::ScrollArea::vertical().id_salt("panel").show(ui, |ui| {
        let top = ui.cursor().top();
        header(ui, session, view, &mut tools.help, &mut req);
        // Always shown, so that the first move played by hand (which starts the move list) moves
        // no control below it.
        timeline(ui, session, auto, list, &mut req);
        play(ui, session, tools, &mut req);
        clock_section(ui, session, clock);
        computer_section(ui, session, computer, sim);
        referee(ui, session, tools, &mut req, (marks, caption));
        ui.separator();
        // The lines that come and go scroll in a region of their own, the rest of the panel (at
        // least MESSAGES_MIN_HEIGHT): the panel's height never depends on them, so when the panel
        // is scrolled down (a low window, the editor's palette) a line that goes never pulls the
        // controls under the pointer.
        let controls = ui.cursor().top() - top;
        let height = (viewport - controls - 1.0).max(MESSAGES_MIN_HEIGHT);
        egui::ScrollArea::vertical()
            .id_salt("messages")
            .auto_shrink([false, false])
            .min_scrolled_height(height)
            .max_height(height)
            .show(ui, |ui| {
                if let Some(said) = &computer.said {
                    ui.small(said);
                }
                log(ui, session);
            });
    });
    req
}

/// The status pane's least height, in logical pixels: two lines, where the window leaves less
/// room below the board's names.
const STATUS_MIN_HEIGHT: f32 = 44.0;

/// The room the status pane has in a window of `screen`'s size: beside the panel, from below the
/// board's file names to the window's bottom (at least [`STATUS_MIN_HEIGHT`], at most two fifths
/// of the window). The pane grows upwards past it when it has more to say ([`status_pane`]).
pub fn status_area(session: &Session, screen: Vec2, below: f32) -> egui::Rect {
    let layout = crate::board::layout::Layout::fit(&session.engine.rules().board, crate::board::layout::Screen(screen));
    // The board is centred in the room beside the panel and above what is kept below it (`screen`
    // is that room); world y runs up, the window's down. The names' text is about a third of a
    // cell high (see the board's labels).
    let names_bottom =
        screen.y / 2.0 - crate::board::layout::BOARD_LIFT - (layout.file_label(0).y - layout.cell * 0.25).min(-layout.half_extent().y);
    let whole = screen.y + below;
    let bottom = whole - 4.0;
    let height = (bottom - names_bottom - 4.0).clamp(STATUS_MIN_HEIGHT, (whole * 0.4).max(STATUS_MIN_HEIGHT));
    egui::Rect::from_min_max(
        egui::pos2(PANEL_WIDTH + 12.0, bottom - height),
        egui::pos2((screen.x - 12.0).max(PANEL_WIDTH + 200.0), bottom),
    )
}

/// The status under the board, where the eye is: the side to move, the ply and the last move, the
/// phase and counts, check, the outcome, claimable draws (with their buttons), the area count, the
/// hands, what the computer is doing, the last reload's trouble, the editor's refusal, a copy or a
/// save's result, and a scenario step's expectations (its caption is its line in the move list).
/// Always shown (its first line always says who is to move), in a region of its own that scrolls
/// when the lines outgrow it.
///
/// `screen` is the room left for the panel and the board, `whole` the window's height: the
/// difference is kept below the board for the pane. When what the pane says outgrows its room,
/// it asks for more ([`crate::board::layout::Below`]), up to two fifths of the window.
pub fn status_pane(
    ctx: &egui::Context,
    session: &Session,
    (tools, computer, list): (&Tools, &Computer, &ListState),
    (screen, whole): (Vec2, f32),
    below: Option<&mut crate::board::layout::Below>,
    req: &mut Requests,
) {
    let kept = whole - screen.y;
    let area = status_area(session, screen, kept);
    // Anchored at the window's bottom: two lines at least, as tall as what it says up to the room
    // under the names — or up to two fifths of the window when it has more to say, the board
    // making room above it ([`crate::board::layout::Below`]) — then it scrolls.
    let shown = egui::Area::new(egui::Id::new("status-pane"))
        .anchor(egui::Align2::LEFT_BOTTOM, egui::vec2(area.min.x, area.max.y - whole))
        .constrain(false)
        .order(egui::Order::Middle)
        .show(ctx, |ui| {
            egui::Frame::NONE
                .fill(egui::Color32::from_rgba_unmultiplied(32, 34, 38, 235))
                .inner_margin(egui::Margin::symmetric(6, 3))
                .show(ui, |ui| {
                    ui.set_width(area.width() - 12.0);
                    ui.set_min_height(STATUS_MIN_HEIGHT - 6.0);
                    egui::ScrollArea::vertical()
                        .id_salt("status")
                        .max_height((whole * 0.4).max(area.height()) - 6.0)
                        .auto_shrink([false, true])
                        .show(ui, |ui| {
                            messages(ui, session, req);
                            computer_messages(ui, session, computer);
                            reload_problems(ui, session);
                            referee_messages(ui, session, tools);
                            frame_notes(ui, session, list);
                        })
                        .content_size
                        .y
                })
                .inner
        });
    if let Some(below) = below {
        make_room_below(session, screen.x, whole, shown.inner + 6.0, area.height(), below);
    }
}

/// Keeps room below the board for a status pane that needs `needed` points of height and has
/// `has`: the least room (found by halving) that gives it what it needs, up to two fifths of the
/// window. The room only grows while one session lasts — a step with less to say leaves the
/// board where it is — and starts again at nothing when another ruleset or scenario is opened.
fn make_room_below(session: &Session, width: f32, whole: f32, needed: f32, has: f32, below: &mut crate::board::layout::Below) {
    if below.since.0 != session.generation || below.since.1 != session.origin {
        *below = crate::board::layout::Below {
            extra: 0.0,
            since: (session.generation, session.origin.clone()),
        };
        return;
    }
    let target = needed.min(whole * 0.4);
    if has + 0.5 >= target {
        return;
    }
    let height = |k: f32| status_area(session, Vec2::new(width, whole - k), k).height();
    // The pane's height grows with the room kept (the board shrinks and rises), not always
    // point for point: halve between what is kept and the most that can be.
    let (mut lo, mut hi) = (below.kept(whole), crate::board::layout::Below::most(whole));
    if height(hi) >= target {
        while hi - lo >= 0.5 {
            let mid = (lo + hi) / 2.0;
            if height(mid) >= target { hi = mid } else { lo = mid }
        }
    }
    if hi > below.extra {
        below.extra = hi;
    }
}

/// Title, rules (and reload), the board's orientation.
fn header(ui: &mut egui::Ui, session: &Session, view: Option<&mut View>, help: &mut bool, req: &mut Requests) {
    let rules = session.game.current().rules();
    ui.heading(&session.title);
    ui.horizontal(|ui| {
        ui.label(format!("Rules: {}", rules.name));
        if session.rules_path.is_some() && ui.small_button("Reload").on_hover_text("Read the ruleset file again").clicked() {
            req.actions.push(Action::Reload);
        }
        if ui
            .small_button("?")
            .on_hover_text("The keyboard and mouse shortcuts (? or F1)")
            .clicked()
        {
            *help = !*help;
        }
    });
    let Some(view) = view else { return };
    // Players seated by quarter turns round a board of squares or points, or by sixth turns round
    // a star of hexes: any of them may sit at the bottom. Otherwise the board turns half round.
    let turns = match rules.seating {
        Seating::QuarterTurns if !rules.board.hexes => Some(View::seat as fn(u8) -> View),
        Seating::SixthTurns if rules.board.hexes => Some(View::sixth_seat as fn(u8) -> View),
        _ => None,
    };
    if let Some(seat_view) = turns {
        ui.horizontal_wrapped(|ui| {
            ui.label("At the bottom:");
            for side in rules.sides_in_play() {
                let player = &rules.players[side.index()];
                let seat = seat_view(player.seat);
                if ui
                    .radio(*view == seat, player.name.as_str())
                    .on_hover_text(format!("Turn the board so that {} sits at the bottom", player.name))
                    .clicked()
                {
                    *view = seat;
                }
            }
        });
    } else {
        ui.checkbox(&mut view.flipped, "Flip board")
            .on_hover_text("Turn the board half round");
    }
}

/// The position's messages: side to move, check, outcome, claimable draws (with their buttons),
/// the count, the last move, the hands. (The choice waiting, the ruling on a refused move and
/// the session's note are in the bar over the board, [`ruling_bar`].)
fn messages(ui: &mut egui::Ui, session: &Session, req: &mut Requests) {
    let pos = session.game.current();
    let rules = pos.rules();
    let outcome = session.game.outcome();
    let stm = &rules.players[pos.side_to_move().index()].name;
    // One line: who is to move, the ply, the last move; then the phase and the counts where the
    // ruleset has them, lines that are always there.
    let mut first = vec![format!("To move: {stm}"), format!("Ply: {}", movelist::ply_number(&session.game))];
    if let Some(m) = movelist::last_move_written(session) {
        first.push(format!("Last move: {m}"));
    }
    ui.label(first.join("   ·   "));
    for line in status_lines(pos) {
        ui.label(line);
    }
    if pos.in_check() {
        // The interpreter's sentence, without the claims that follow it (they have lines below).
        let said = outcome.message(pos);
        let check = said
            .split("; ")
            .next()
            .and_then(|s| s.strip_prefix(&format!("{stm} to move, in check: ")))
            .unwrap_or("");
        ui.colored_label(
            BAD,
            if check.is_empty() {
                "In check".to_string()
            } else {
                format!("In check: {check}")
            },
        );
    }
    match outcome.status {
        // The check and the claimable draws have lines of their own.
        Status::Ongoing => {}
        _ => {
            let said = outcome.message(pos);
            ui.colored_label(WARN, format!("{said} ({})", outcome.reason.clone().unwrap_or_default()));
        }
    }
    for (reason, clause) in &outcome.claimable {
        let why = outcome.claim_why(pos, reason).unwrap_or_default();
        ui.label(format!(
            "{stm} may claim a draw ({reason}{}): {why}",
            clause.as_ref().map(|c| format!(", {c}")).unwrap_or_default()
        ));
        if ui.button(format!("Claim draw ({reason})")).clicked() {
            req.actions.push(Action::ClaimDraw(reason.clone()));
        }
    }
    score(ui, session, rules);
    hands(ui, session);
}

/// The phase the game is in and each of the ruleset's counts per player (`Phase: placing`,
/// `checks-left: white 3, black 2`), as far as the ruleset has them.
pub fn status_lines(pos: &arbiter::game::Position) -> Vec<String> {
    let rules = pos.rules();
    let mut lines = Vec::new();
    if let Some(phase) = pos.phase_name() {
        lines.push(format!("Phase: {phase}"));
    }
    for (i, count) in rules.counts.iter().enumerate() {
        let each: Vec<String> = [Side::FIRST, Side::SECOND]
            .into_iter()
            .map(|side| format!("{} {}", rules.players[side.index()].name, pos.tally(side, i)))
            .collect();
        lines.push(format!("{}: {}", count.name, each.join(", ")));
    }
    lines
}

/// The area count, for rulesets that score by area: final once the game is over, else an estimate.
fn score(ui: &mut egui::Ui, session: &Session, rules: &Rules) {
    let Some(line) = scoring::score_line(&session.game) else {
        return;
    };
    ui.label(line);
    let dead = session.game.dead();
    if !dead.is_empty() {
        let names: Vec<String> = dead.iter().map(|&sq| rules.board.name(sq)).collect();
        ui.small(format!("Dead chains at {}", names.join(", ")));
    }
}

/// Errors of the last reload, and the first move the reloaded rules refuse.
fn reload_problems(ui: &mut egui::Ui, session: &Session) {
    if !session.rule_errors.is_empty() {
        ui.colored_label(
            BAD,
            format!(
                "The ruleset has {} error{} (in the pane over the board); the last good rules stay in use.",
                session.rule_errors.len(),
                if session.rule_errors.len() == 1 { "" } else { "s" }
            ),
        );
    }
    if let Some(b) = &session.broken {
        ui.colored_label(WARN, b.sentence());
    }
}

/// The transport, the speed, the move list (with its variations), and promoting or deleting the
/// variation in view.
fn timeline(ui: &mut egui::Ui, session: &Session, auto: &mut Autoplay, list: &mut ListState, req: &mut Requests) {
    ui.separator();
    let last = session.timeline.len() - 1;
    ui.label(format!("Step {} of {last}", session.step));
    ui.horizontal(|ui| {
        for (label, hint, r) in transport(auto.playing) {
            if ui.button(label).on_hover_text(hint).clicked() {
                match r {
                    Some(r) => {
                        auto.playing = false;
                        req.replay.push(r);
                    }
                    None => req.actions.extend(auto.toggle(session)),
                }
            }
        }
    });
    ui.add(egui::Slider::new(&mut auto.speed, SPEEDS).logarithmic(true).text("steps/s"))
        .on_hover_text("Autoplay speed");
    // A fixed height, however many moves: the controls below stay put.
    let rows = movelist::rows(session, &list.main);
    let here = rows.iter().flat_map(|r| &r.entries).find(|e| e.current).map(|e| e.target);
    let follow = here.is_some() && (here != list.followed || auto.playing);
    // The start (no entry of its own in a list numbered per move pair) just reached: the top.
    let top = here.is_none() && list.followed.is_some();
    let shown = movelist::show(ui, &rows, MOVE_LIST_HEIGHT, follow, top);
    list.followed = here;
    // A record's comments: the one on the move in view, under the list, in a box of fixed height
    // shown for every record that has comments or glyphs (so nothing below moves from move to move).
    if movelist::has_commentary(session) {
        egui::Frame::NONE
            .fill(ui.visuals().extreme_bg_color)
            .inner_margin(egui::Margin::symmetric(4, 2))
            .show(ui, |ui| {
                egui::ScrollArea::vertical()
                    .id_salt("comment")
                    .min_scrolled_height(COMMENT_HEIGHT)
                    .max_height(COMMENT_HEIGHT)
                    .auto_shrink([false, false])
                    .show(ui, |ui| match movelist::comment_here(session) {
                        Some(c) => {
                            ui.label(egui::RichText::new(c).italics());
                        }
                        None => {
                            ui.weak("No comment on this move");
                        }
                    });
            });
    }
    if let Some(t) = shown.clicked {
        auto.playing = false;
        req.replay.push(match t {
            Target::Step(i) => Replay::To(i),
            Target::Node(id) => Replay::Node(id),
            Target::Stay => Replay::To(session.step),
        });
    }
    // Always laid out, greyed off a variation, so that nothing below moves when one is entered.
    let node = session.node.filter(|_| !session.edited());
    ui.horizontal(|ui| {
        if ui
            .add_enabled(node.is_some(), egui::Button::new("Promote"))
            .on_hover_text("Make this variation the main line")
            .on_disabled_hover_text("Step into a variation (moves played by hand) to promote it")
            .clicked()
            && let Some(id) = node
        {
            req.actions.push(Action::Promote(id));
        }
        if ui
            .add_enabled(node.is_some(), egui::Button::new("Delete"))
            .on_hover_text("Delete this variation from this move on")
            .on_disabled_hover_text("Step into a variation to delete it")
            .clicked()
            && let Some(id) = node
        {
            req.actions.push(Action::Delete(id));
        }
        if ui
            .add_enabled(!session.deleted.is_empty(), egui::Button::new("Undo delete"))
            .on_hover_text("Bring back the variation deleted last")
            .on_disabled_hover_text("Nothing deleted")
            .clicked()
        {
            req.actions.push(Action::UndoDelete);
        }
    });
}

/// The transport's buttons: glyph, tooltip, and where it goes (`None`: play or pause). The glyphs
/// are ones egui's default fonts have (⏮ ⏪ ▶ ⏸ ⏩ ⏭).
pub fn transport(playing: bool) -> [(&'static str, &'static str, Option<Replay>); 5] {
    [
        ("⏮", "First step (the start)", Some(Replay::First)),
        ("⏪", "One step back", Some(Replay::Back)),
        if playing {
            ("⏸", "Pause", None)
        } else {
            ("▶", "Play the steps one after another", None)
        },
        ("⏩", "One step forward", Some(Replay::Forward)),
        ("⏭", "Last step", Some(Replay::Last)),
    ]
}

/// The step's expectations (or the count of changes by hand since it); its caption is its line in
/// the move list.
fn frame_notes(ui: &mut egui::Ui, session: &Session, list: &ListState) {
    if session.timeline.len() <= 1 {
        return;
    }
    match session.frame() {
        Some(frame) => {
            if let Some((moves, _)) = list.main.steps.get(session.step).filter(|s| !s.0.is_empty()) {
                ui.label(format!("Played: {moves}"));
            }
            // The caption is the step's line in the move list.
            for e in &frame.expectations {
                let (mark, colour) = if e.passed { ("✔", GOOD) } else { ("✘", BAD) };
                let r = ui.colored_label(colour, format!("{mark} {}", e.text));
                if let Some(instead) = &e.instead {
                    r.on_hover_text(format!("instead: {instead}"));
                    ui.small(format!("instead: {instead}"));
                }
            }
        }
        None => {
            ui.label(format!("{} change(s) by hand since step {}", session.off_script, session.step));
        }
    }
}

/// Take back, random move, pass and swap (where the ruleset has them).
fn play(ui: &mut egui::Ui, session: &Session, tools: &mut Tools, req: &mut Requests) {
    ui.separator();
    ui.horizontal(|ui| {
        if ui
            .add_enabled(session.game.ply() > 0, egui::Button::new("Take back"))
            .on_hover_text("Take back the last move")
            .on_disabled_hover_text("No move to take back")
            .clicked()
        {
            req.actions.push(Action::TakeBack);
        }
        if ui
            .button("Random move")
            .on_hover_text("Play a legal move drawn at random with this seed")
            .clicked()
        {
            req.actions.push(Action::Random { seed: tools.seed });
            tools.seed = tools.seed.wrapping_add(1);
        }
        ui.label("seed");
        ui.add(egui::DragValue::new(&mut tools.seed))
            .on_hover_text("The seed of the next random move");
    });
    // Moves that are not from a square to a square: a button wherever the ruleset has them,
    // greyed while not legal (so the row never comes and goes).
    let buttons = special_moves(session);
    if let Some(shown) = dice_shown(session) {
        ui.label(egui::RichText::new(shown).strong());
    }
    if !buttons.is_empty() {
        ui.horizontal_wrapped(|ui| {
            for b in buttons {
                if ui
                    .add_enabled(b.legal, egui::Button::new(&b.label))
                    .on_hover_text(&b.hint)
                    .on_disabled_hover_text(format!("{} (not legal now)", b.hint))
                    .clicked()
                {
                    req.actions.push(Action::Play(b.text.clone()));
                }
            }
        });
    }
}

/// The dice area's line in a game of chance: what the side to move has still to use (the
/// number rolled, or where dice are used one by one, the dice left), or that it is to roll.
pub fn dice_shown(session: &Session) -> Option<String> {
    let pos = session.game.current();
    let rules = pos.rules();
    let roll = rules.roll.as_ref()?;
    let player = &rules.players[pos.side_to_move().index()].name;
    Some(match pos.roll_text() {
        Some(t) if roll.apart.is_some() => format!("Dice: {player} has {t} to use"),
        Some(t) => format!("Roll: {player} rolled {t}"),
        None => format!("Roll: {player} to roll ({})", roll.text),
    })
}

/// A move that is not from a square to a square, offered as a button.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpecialMove {
    /// The move in coordinates, for [`Action::Play`].
    pub text: String,
    pub label: String,
    pub hint: String,
    /// Is it legal in the current position (and the game not over)?
    pub legal: bool,
}

/// The pass and the swap, for each the ruleset allows, with whether it is legal now; in a game
/// of chance, a button per number the roll shows (a set roll, for teaching; "Random move" rolls
/// as the dice would), legal while the side to move is still to roll; where pieces are borne off,
/// a button per piece that may be.
pub fn special_moves(session: &Session) -> Vec<SpecialMove> {
    let pos = session.game.current();
    let rules = pos.rules();
    let ongoing = session.game.outcome().status == Status::Ongoing;
    let legal = if ongoing { pos.legal_moves() } else { Vec::new() };
    let rolls = rules.roll.iter().flat_map(|r| {
        let total = r.total();
        r.results.iter().map(move |&(v, w)| SpecialMove {
            text: format!("roll:{}", r.show(v)),
            label: format!("Roll {}", r.show(v)),
            hint: format!("Set the roll to {} (`roll {}`: {w} in {total})", r.show(v), r.text),
            legal: ongoing && pos.to_roll(),
        })
    });
    let specials = [
        (rules.pass.is_some(), MoveKind::Pass, "pass", "Pass", "Give up the turn"),
        (
            rules.swap.is_some(),
            MoveKind::Swap,
            "swap",
            "Swap",
            "Take over the first player's piece, mirrored (the pie rule)",
        ),
    ]
    .into_iter()
    .filter(|(allowed, ..)| *allowed)
    .map(|(_, kind, text, label, hint)| SpecialMove {
        text: text.into(),
        label: label.into(),
        hint: hint.into(),
        legal: legal.iter().any(|m| m.kind == kind),
    });
    // Pieces borne off past their track's end: a button each while legal, one greyed otherwise.
    let bears_off = rules.kinds.iter().any(|k| k.forms.iter().any(|f| f.bear_off));
    let mut off: Vec<SpecialMove> = legal
        .iter()
        .filter(|m| matches!(m.kind, MoveKind::BearOff(_)))
        .map(|&m| {
            let square = rules.board.name(m.from as usize);
            // Where a die is named (dice used one by one), the button says which.
            let text = arbiter::notation::uci::to_text(pos, m);
            let die = text.split_once(':').map_or(String::new(), |(_, d)| format!(" by {d}"));
            SpecialMove {
                text,
                label: format!("Bear off {square}{die}"),
                hint: format!("Take the piece on {square} off the board, past the end of its track"),
                legal: true,
            }
        })
        .collect();
    if bears_off && off.is_empty() {
        off.push(SpecialMove {
            text: String::new(),
            label: "Bear off".into(),
            hint: "Take a piece off the board past the end of its track".into(),
            legal: false,
        });
    }
    rolls.chain(specials).chain(off).collect()
}

/// Where the bar over the board starts, in the window's logical pixels: right of the panel, at the
/// top, in the margin the board leaves above itself.
pub const BAR_AT: egui::Pos2 = egui::pos2(PANEL_WIDTH + 12.0, 6.0);

/// The bar over the board, where the eye is: the promotion or route choice waiting (its buttons),
/// the turn being entered, the ruling on a refused move, the session's note (why a click did
/// nothing, a frame that could not be loaded). Shown only while there is one; drawn
/// over everything, so that a click on it is never a click on the board. `width` is the room
/// right of the panel.
pub fn ruling_bar(ctx: &egui::Context, session: &Session, width: f32, req: &mut Requests) {
    if session.choice.is_none() && session.pending.is_none() && session.refusal.is_none() && session.note.is_none() {
        return;
    }
    egui::Area::new(egui::Id::new("ruling-bar"))
        .fixed_pos(BAR_AT)
        .constrain(false)
        .order(egui::Order::Foreground)
        .show(ctx, |ui| {
            egui::Frame::popup(ui.style()).show(ui, |ui| {
                ui.set_max_width((width - 40.0).max(200.0));
                choice_and_ruling(ui, session, req);
                if let Some(n) = &session.note {
                    ui.colored_label(WARN, n);
                }
            });
        });
}

/// The shortcut sheet ([`crate::panel::keys::SHEET`]) in a window over the board while `open`; its
/// close button puts `open` down.
pub fn shortcut_sheet(ctx: &egui::Context, open: &mut bool) {
    egui::Window::new("Shortcuts")
        .id(egui::Id::new("shortcuts"))
        .open(open)
        .default_pos(egui::pos2(PANEL_WIDTH + 40.0, 120.0))
        .resizable(false)
        .collapsible(false)
        .show(ctx, |ui| {
            egui::Grid::new("shortcut-grid").num_columns(2).spacing([16.0, 4.0]).show(ui, |ui| {
                for (key, what) in crate::panel::keys::SHEET {
                    ui.label(egui::RichText::new(*key).monospace().strong());
                    ui.label(*what);
                    ui.end_row();
                }
            });
        });
}

/// Where the rule errors' pane opens: over the board, under the bar.
pub const ERRORS_AT: egui::Pos2 = egui::pos2(PANEL_WIDTH + 12.0, 72.0);

/// The errors of the last reload, in a pane over the board titled with the watched file's path:
/// each as `arbiter check` renders it, in a monospace font and never wrapped (the caret stays under
/// the mistake; a long line scrolls sideways), the pane resizable. Shown while there are errors.
pub fn rule_errors_pane(ctx: &egui::Context, session: &Session, width: f32) {
    if session.rule_errors.is_empty() {
        return;
    }
    let path = session
        .rules_path
        .as_ref()
        .map_or_else(|| session.origin.clone(), |p| p.display().to_string());
    egui::Window::new(format!("Rule errors: {path}"))
        .id(egui::Id::new("rule-errors"))
        .default_pos(ERRORS_AT)
        .default_width((width - 40.0).max(300.0))
        .resizable(true)
        .collapsible(true)
        .show(ctx, |ui| {
            ui.colored_label(WARN, "The last good rules stay in use until the file checks again.");
            egui::ScrollArea::both().max_height(360.0).show(ui, |ui| {
                for e in &session.rule_errors {
                    ui.add(egui::Label::new(egui::RichText::new(e).monospace().color(BAD)).extend());
                    ui.add_space(6.0);
                }
            });
        });
}

/// The promotion or route choice waiting for the player, and the ruling on a refused move.
fn choice_and_ruling(ui: &mut egui::Ui, session: &Session, req: &mut Requests) {
    if let Some(c) = &session.choice {
        let board = &session.engine.rules().board;
        ui.colored_label(
            WARN,
            format!(
                "{} to {}: choose (a click on the board cancels)",
                board.name(c.from),
                board.name(c.to)
            ),
        );
        ui.horizontal_wrapped(|ui| {
            for (text, kind) in &c.options {
                if ui.button(kind).clicked() {
                    req.picks.push(Pick::First(text.clone()));
                }
            }
        });
    }
    pending_turn(ui, session, req);
    if let Some(r) = &session.refusal {
        ui.colored_label(BAD, format!("{}: illegal ({})", r.written, r.code));
        ui.label(&r.message);
        if let Some(c) = &r.clause {
            ui.label(format!("Clause: {c}"));
        }
    }
}

/// The most choices of a part offered as buttons: beyond, the board's targets alone (every empty
/// square for a piece placed); the choices a square does not tell apart are buttons whatever their number.
const PART_BUTTONS: usize = 8;

/// The turn being entered, part by part: the turn so far in coordinates, the part to choose now and
/// those after it in the ruleset's words, and its choices as buttons where a click on the board
/// does not tell them apart (the kinds to drop on one square, leaving an optional part out).
fn pending_turn(ui: &mut egui::Ui, session: &Session, req: &mut Requests) {
    let Some(words) = session.pending_words() else { return };
    ui.colored_label(WARN, format!("Turn so far: {}", words.so_far));
    ui.label(format!("Next: {}", words.next));
    for later in &words.later {
        ui.label(format!("Then: {later}"));
    }
    let options = session.shown_options();
    let squares = |o: &crate::session::turns::PartOption| options.iter().filter(|p| p.square.is_some() && p.square == o.square).count();
    let shared = options.iter().any(|o| squares(o) > 1);
    let buttons: Vec<&crate::session::turns::PartOption> = options
        .iter()
        .filter(|o| options.len() <= PART_BUTTONS || shared && squares(o) > 1 || o.square.is_none())
        .collect();
    ui.small("Click a marked square, or choose below; Esc, a right-click or a click elsewhere cancels");
    ui.horizontal_wrapped(|ui| {
        for o in buttons {
            let label = if o.square.is_none() {
                format!("{} (leave it out)", o.label)
            } else {
                o.label.clone()
            };
            if ui.button(label).clicked() {
                req.picks.push(Pick::Part(o.slot));
            }
        }
    });
}

/// The ruleset's time controls: choose one, start or stop the clocks, and both players' time
/// (the side to move's running). Shown only for a ruleset that names controls.
fn clock_section(ui: &mut egui::Ui, session: &Session, live: &mut LiveClock) {
    let controls = &session.engine.rules().clocks;
    if controls.is_empty() {
        return;
    }
    if !controls.iter().any(|c| c.name == live.chosen) {
        live.chosen = controls[0].name.clone();
    }
    ui.separator();
    ui.horizontal(|ui| {
        ui.label("Clock");
        egui::ComboBox::from_id_salt("clock-control")
            .selected_text(live.chosen.clone())
            .show_ui(ui, |ui| {
                for c in controls {
                    let text = match &c.cite {
                        Some(cite) => format!("{} [{cite}]", c.name),
                        None => c.name.clone(),
                    };
                    ui.selectable_value(&mut live.chosen, c.name.clone(), text);
                }
            });
        let (label, tip, request) = if live.running {
            ("Stop", "Stop the clocks", crate::players::clocks::ClockRequest::Stop)
        } else {
            (
                "Start",
                "Start the clocks from this position: the side to move's runs; a move charges its time, and a flag that falls ends the game as the ruleset says",
                crate::players::clocks::ClockRequest::Start(live.chosen.clone()),
            )
        };
        if ui.button(label).on_hover_text(tip).clicked() {
            live.request = Some(request);
        }
    });
    // The times line and the status line are always there, so nothing below moves when the
    // clocks start or stop.
    let fresh;
    let (shown, periods) = match &live.clocks {
        Some(_) => (live.shown, live.periods),
        None => {
            fresh = controls
                .iter()
                .find(|c| c.name == live.chosen)
                .map(arbiter::clock::Clocks::new)
                .map_or([0.0; 2], |c| c.seconds_left());
            (fresh, [None; 2])
        }
    };
    let to_move = session.game.current().side_to_move().index();
    let players = &session.engine.rules().players;
    let text = (0..2)
        .map(|side| {
            let mut t = format!("{} {}", players[side].name, crate::players::clocks::clock_text(shown[side]));
            if let Some(p) = periods[side] {
                t.push_str(&format!(" ({p} period{})", if p == 1 { "" } else { "s" }));
            }
            if live.running && side == to_move {
                t.push_str(" (running)");
            }
            t
        })
        .collect::<Vec<_>>()
        .join("   ");
    ui.label(egui::RichText::new(text).monospace());
    let status = match (&live.stopped, live.running) {
        (_, true) => "running",
        (Some(why), false) => why.as_str(),
        (None, false) => "not started",
    };
    ui.label(egui::RichText::new(status).small());
}

fn computer_section(ui: &mut egui::Ui, session: &Session, computer: &mut Computer, sim: &mut Simulation) {
    ui.separator();
    let rules = session.engine.rules();
    let [a, b] = [&rules.players[0].name, &rules.players[1].name];
    ui.horizontal(|ui| {
        ui.strong("Computer");
        if ui
            .selectable_label(sim.open, "Simulate…")
            .on_hover_text("Play many games between two players and plot the results")
            .clicked()
        {
            sim.open = !sim.open;
        }
    });
    // Written back only on a change: a change of settings drops the search under way.
    let (mut seats, mut player, mut seed) = (computer.seats, computer.player, computer.seed);
    ui.horizontal_wrapped(|ui| {
        ui.label("Plays:");
        ui.radio_value(&mut seats, Seats::NONE, "none");
        if rules.players.len() == 2 {
            ui.radio_value(&mut seats, Seats::FIRST, a.as_str());
            ui.radio_value(&mut seats, Seats::SECOND, b.as_str());
            // Both, as every side: the same seats whatever the mask's spare bits.
            let both = seats.plays(Side::FIRST) && seats.plays(Side::SECOND);
            if ui.radio(both, "both").clicked() {
                seats = Seats::ALL;
            }
        } else {
            // Among more, a box per side: the computer may play any of them.
            for side in rules.sides_in_play() {
                let mut on = seats.plays(side);
                if ui.checkbox(&mut on, rules.players[side.index()].name.as_str()).changed() {
                    seats = seats.with(side, on);
                }
            }
            if ui.button("all").clicked() {
                seats = Seats::ALL;
            }
        }
    });
    player_picker(ui, "computer-player", &mut player);
    let thinking = computer.thinking.as_ref().map(|t| (t.side, t.started.elapsed()));
    ui.horizontal(|ui| {
        ui.label("seed");
        ui.add(egui::DragValue::new(&mut seed));
        let ongoing = session.game.outcome().status == Status::Ongoing;
        if ui
            .add_enabled(thinking.is_none() && ongoing, egui::Button::new("Move now"))
            .on_hover_text("The computer plays one move for the side to move")
            .clicked()
        {
            computer.move_now = true;
        }
    });
    if (seats, player, seed) != (computer.seats, computer.player, computer.seed) {
        computer.seats = seats;
        computer.player = player;
        computer.seed = seed;
    }
}

/// The computer's search under way, and what it last said.
fn computer_messages(ui: &mut egui::Ui, session: &Session, computer: &Computer) {
    let rules = session.engine.rules();
    let thinking = computer.thinking.as_ref().map(|t| (t.side, t.started.elapsed()));
    if let Some((side, elapsed)) = thinking {
        ui.horizontal(|ui| {
            ui.spinner();
            ui.label(format!(
                "{} ({}) thinking… {:.1} s",
                computer.player,
                rules.players[side.index()].name,
                elapsed.as_secs_f32()
            ));
        });
        ui.ctx().request_repaint();
    }
}

/// The pieces in each player's hand (drawn right of the board, where a click selects one to drop).
fn hands(ui: &mut egui::Ui, session: &Session) {
    let kinds = session.hand_kinds();
    if kinds.is_empty() {
        return;
    }
    let pos = session.game.current();
    let rules = pos.rules();
    let each: Vec<String> = rules
        .sides_in_play()
        .map(|side| {
            let held: Vec<String> = pos
                .hand(side)
                .iter()
                .map(|&(k, n)| format!("{} {} ×{n}", rules.kind(k).glyph(side), rules.kind(k).name.to_lowercase()))
                .collect();
            let held = if held.is_empty() { "nothing".to_string() } else { held.join(", ") };
            format!("{}'s hand: {held}", rules.players[side.index()].name)
        })
        .collect();
    // Two hands a line each; more on one line, so that the pane stays short over the board.
    if each.len() > 2 {
        ui.label(each.join(" · "));
    } else {
        for line in each {
            ui.label(line);
        }
    }
    if let Some(k) = session.selected_hand {
        ui.colored_label(
            WARN,
            format!(
                "Dropping a {}: click a marked square (a click elsewhere cancels)",
                rules.kind(k).name.to_lowercase()
            ),
        );
    }
}

/// The mode, the editor, dead marking, copy FEN, save as scenario.
fn referee(ui: &mut egui::Ui, session: &Session, tools: &mut Tools, req: &mut Requests, (marks, caption): (&Marks, &mut String)) {
    ui.separator();
    let pos = session.game.current();
    let rules = pos.rules();
    let mode = tools.mode;
    ui.horizontal(|ui| {
        ui.radio_value(&mut tools.mode, Mode::Play, "Play")
            .on_hover_text("Clicks on the board play moves");
        ui.radio_value(&mut tools.mode, Mode::Edit, "Edit")
            .on_hover_text("Clicks on the board put or remove pieces");
        if pos.chain_game() {
            ui.radio_value(&mut tools.mode, Mode::MarkDead, "Mark dead")
                .on_hover_text("Clicks on the board mark chains dead for the count");
        }
    });
    if tools.mode != mode {
        // A brush left armed would change the position at the first click on coming back.
        tools.brush = None;
    }
    match tools.mode {
        // Depends on the ruleset alone, so its height never changes under the pointer.
        Mode::Play if !rules.turn.is_empty() => ui.small(
            "Click a piece of the side to move, then a target, then each later part of the turn: a marked square (or a piece in the hand); Esc cancels the turn.",
        ),
        Mode::Play => ui.small("Click a piece of the side to move (or one in its hand, right of the board), then a target; in placing games, click a point or cell."),
        Mode::Edit => brush_lines(ui, rules, tools.brush),
        Mode::MarkDead => ui.small("Click a chain to mark it dead, or alive again; the score follows."),
    };
    if tools.mode == Mode::Edit {
        // One row of kinds per player, and one of the neutral kinds (no one's); a click arms a
        // brush, a second click puts it down.
        for side in rules.sides_in_play() {
            let player = &rules.players[side.index()].name;
            ui.horizontal_wrapped(|ui| {
                ui.label(format!("{player}:"));
                for (k, kind) in rules.kinds.iter().enumerate().filter(|(_, kind)| !kind.neutral) {
                    let brush = Brush::Piece(KindId(k as u8), side);
                    let label = format!("{} {}", kind.glyph(side), kind.name);
                    if ui
                        .selectable_label(tools.brush == Some(brush), label)
                        .on_hover_text(format!("{player}'s {}", kind.name.to_lowercase()))
                        .clicked()
                    {
                        tools.arm(brush);
                    }
                }
            });
        }
        if rules.kinds.iter().any(|k| k.neutral) {
            ui.horizontal_wrapped(|ui| {
                ui.label("Neutral:");
                for (k, kind) in rules.kinds.iter().enumerate().filter(|(_, kind)| kind.neutral) {
                    let brush = Brush::Piece(KindId(k as u8), Side::FIRST);
                    let label = format!("{} {}", kind.glyphs[0], kind.name);
                    if ui
                        .selectable_label(tools.brush == Some(brush), label)
                        .on_hover_text(format!("A {} (no one's)", kind.name.to_lowercase()))
                        .clicked()
                    {
                        tools.arm(brush);
                    }
                }
            });
        }
        if ui
            .selectable_label(tools.brush == Some(Brush::Erase), "Erase")
            .on_hover_text("Clicks empty a square")
            .clicked()
        {
            tools.arm(Brush::Erase);
        }
        ui.horizontal(|ui| {
            ui.label("To move:");
            for side in rules.sides_in_play() {
                let on = pos.side_to_move() == side;
                let name = &rules.players[side.index()].name;
                if ui.selectable_label(on, name).on_hover_text(format!("{name} to move")).clicked() && !on {
                    req.actions.push(Action::Edit(Edit::SideToMove(side)));
                }
            }
        });
        fen_fields(ui, session, pos, tools, req);
        // The field follows the position until the user edits it.
        let fen = pos.fen();
        if tools.fen_shown != fen {
            tools.fen_text = fen.clone();
            tools.fen_shown = fen.clone();
        }
        ui.horizontal(|ui| {
            if ui
                .button("Clear board")
                .on_hover_text("Take every piece off but the royal ones (the rules need them)")
                .clicked()
            {
                req.actions.push(Action::Edit(Edit::Fen(editor::cleared_fen(pos))));
            }
            if ui.button("Starting position").on_hover_text("The ruleset's setup").clicked() {
                req.actions.push(Action::Edit(Edit::Fen(session.engine.start().fen())));
            }
        });
        ui.add(egui::TextEdit::singleline(&mut tools.fen_text).desired_width(f32::INFINITY))
            .on_hover_text("Paste a FEN here (Ctrl+V), then Set from FEN: every field of the ruleset's FEN (side to move, castling rights, en passant, counters, hands)");
        // The field checked as it is typed: the rules' word on it, before Set from FEN. One line
        // always (the whole text on hover), so the buttons below never move as it changes.
        let (said, colour) = if tools.fen_text.trim() == fen.as_str() {
            ("the position on the board".to_string(), ui.visuals().weak_text_color())
        } else {
            match session.engine.from_fen(tools.fen_text.trim()) {
                Ok(_) => (
                    "a position the rules accept: Set from FEN puts it on the board".to_string(),
                    ui.visuals().text_color(),
                ),
                Err(e) => (format!("not a position yet: {e}"), BAD),
            }
        };
        ui.add(egui::Label::new(egui::RichText::new(&said).small().color(colour)).truncate())
            .on_hover_text(said);
        // bevy_egui hands a paste to the field as typed text, line breaks and all (text copied
        // from a terminal or a page often ends with one): a FEN is one line.
        if tools.fen_text.contains(['\n', '\r']) {
            tools.fen_text = tools.fen_text.split_whitespace().collect::<Vec<_>>().join(" ");
        }
        ui.horizontal(|ui| {
            if ui
                .button("Set from FEN")
                .on_hover_text("Set up the position the field describes")
                .clicked()
            {
                req.actions.push(Action::Edit(Edit::Fen(tools.fen_text.clone())));
            }
            if ui
                .button("Current FEN")
                .on_hover_text("Fill the field with the position's FEN")
                .clicked()
            {
                tools.fen_text = pos.fen();
            }
            if ui
                .add_enabled(!session.before_edits.is_empty(), egui::Button::new("Undo edit"))
                .on_hover_text("Bring back the position, the moves and the timeline the last edit replaced")
                .clicked()
            {
                req.actions.push(Action::UndoEdit);
            }
        });
    }
    ui.horizontal(|ui| {
        if ui
            .button("Copy FEN")
            .on_hover_text("Put the position's FEN on the clipboard")
            .clicked()
        {
            copy_fen(ui.ctx(), session, tools);
        }
    });
    let hint = editor::default_save_path(session).display().to_string();
    ui.add(
        egui::TextEdit::singleline(&mut tools.save_path)
            .hint_text(hint.clone())
            .desired_width(f32::INFINITY),
    );
    ui.add(
        egui::TextEdit::multiline(caption)
            .hint_text("Caption to save (right-click marks a square, right-drag draws an arrow)")
            .desired_rows(2)
            .desired_width(f32::INFINITY),
    );
    if ui
        .add_enabled(marks.any(), egui::Button::new("Clear marks"))
        .on_hover_text("Take the squares and arrows off the board (a left click on the board does too)")
        .clicked()
    {
        req.clear_marks = true;
    }
    if ui
        .button("Save as scenario")
        .on_hover_text(format!(
            "Write the game as a RON scenario (by default in {})",
            editor::save_dir().display()
        ))
        .clicked()
    {
        let path = std::path::PathBuf::from(if tools.save_path.trim().is_empty() {
            hint.as_str()
        } else {
            tools.save_path.trim()
        });
        let mut marks = marks.clone();
        marks.caption = caption.clone();
        req.actions.push(Action::Save(path, marks));
    }
    // Only the format the game's records are kept in; greyed, with the reason, where it has none.
    let format = crate::session::records::RecordFormat::of(&session.engine);
    let label = format.map_or_else(|| "Export".to_string(), |f| format!("Export as {}", f.name()));
    let button = ui.add_enabled(format.is_some(), egui::Button::new(label));
    let button = match format {
        Some(f) => button.on_hover_text(format!(
            "Write the game with its variations as a {} record (by default in {}; a path ending .{} above is used instead)",
            f.name(),
            editor::save_dir().display(),
            f.extension()
        )),
        None => button.on_disabled_hover_text(crate::session::records::no_format(session)),
    };
    if button.clicked()
        && let Some(format) = format
    {
        let typed = tools.save_path.trim();
        let path = if typed.to_ascii_lowercase().ends_with(&format!(".{}", format.extension())) {
            std::path::PathBuf::from(typed)
        } else {
            crate::session::records::default_export_path(session)
        };
        req.actions.push(Action::Export(path));
    }
}

/// The FEN fields a ruleset with castling or en passant has beyond the board and the side to
/// move, each edited on its own: the castling rights (field 3) and the en-passant square (field 4).
/// Typing puts the whole FEN with the field changed into the FEN field, so the check line under it
/// says at once what the rules make of it; Enter (or leaving the field) sets it when the rules
/// accept it. Shown only where the ruleset castles or marks en passant (their rows do not come and
/// go otherwise).
fn fen_fields(ui: &mut egui::Ui, session: &Session, pos: &arbiter::game::Position, tools: &mut Tools, req: &mut Requests) {
    let rules = pos.rules();
    let castles = rules.kinds.iter().any(|k| !k.castles.is_empty());
    let passes = rules.kinds.iter().any(|k| k.forms.iter().any(|f| f.marks_en_passant));
    let fen = pos.fen();
    let fields: Vec<&str> = fen.split_whitespace().collect();
    if fields.len() < 4 {
        return;
    }
    for (index, shown, label, hint) in [
        (
            2,
            castles,
            "Castling:",
            "The castling rights (FEN field 3): K and Q, or the partners' files; - for none",
        ),
        (
            3,
            passes,
            "En passant:",
            "The square a pawn may take en passant on (FEN field 4); - for none",
        ),
    ] {
        if !shown {
            continue;
        }
        ui.horizontal(|ui| {
            ui.label(label);
            let id = egui::Id::new(("fen-field", index));
            let mut text: String = ui
                .data(|d| d.get_temp::<(String, String)>(id))
                .filter(|(at, _)| *at == fen)
                .map_or_else(|| fields[index].to_string(), |(_, t)| t);
            let r = ui
                .add(egui::TextEdit::singleline(&mut text).desired_width(80.0))
                .on_hover_text(hint);
            let mut composed: Vec<String> = fields.iter().map(|f| f.to_string()).collect();
            composed[index] = if text.trim().is_empty() {
                "-".to_string()
            } else {
                text.trim().to_string()
            };
            let composed = composed.join(" ");
            if r.changed() {
                tools.fen_text = composed.clone();
            }
            let done = r.lost_focus() && text.trim() != fields[index];
            if done && session.engine.from_fen(&composed).is_ok() {
                req.actions.push(Action::Edit(Edit::Fen(composed)));
            }
            ui.data_mut(|d| d.insert_temp(id, (fen.clone(), text)));
        });
    }
}

/// The editor's brush in two lines of one height each, whatever the brush (cut short, whole on
/// hover), so the palette below never moves: what is armed, and how to use it or put it down.
fn brush_lines(ui: &mut egui::Ui, rules: &Rules, brush: Option<Brush>) -> egui::Response {
    let (what, how) = match brush {
        Some(Brush::Piece(k, _)) if rules.kind(k).neutral => (
            format!(
                "Brush: {} {} (no one's)",
                rules.kind(k).glyphs[0],
                rules.kind(k).name.to_lowercase()
            ),
            "Click squares to put it; Esc or right-click puts it down",
        ),
        Some(Brush::Piece(k, side)) => (
            format!(
                "Brush: {} {}'s {}",
                rules.kind(k).glyph(side),
                rules.players[side.index()].name,
                rules.kind(k).name.to_lowercase()
            ),
            "Click squares to put it; Esc or right-click puts it down",
        ),
        Some(Brush::Erase) => (
            "Brush: Erase".to_string(),
            "Click squares to empty them; Esc or right-click puts it down",
        ),
        None => ("No brush".to_string(), "Choose a piece or Erase, then click squares"),
    };
    let colour = if brush.is_some() { WARN } else { ui.visuals().weak_text_color() };
    ui.add(egui::Label::new(egui::RichText::new(what).strong().color(colour)).truncate());
    ui.add(egui::Label::new(egui::RichText::new(how).small()).truncate())
}

/// Puts the position's FEN on the clipboard (through egui's output, which bevy_egui's
/// `manage_clipboard` hands to the system clipboard) and remembers it to show.
pub fn copy_fen(ctx: &egui::Context, session: &Session, tools: &mut Tools) {
    let fen = session.game.current().fen();
    ctx.copy_text(fen.clone());
    tools.copied = Some(fen);
}

/// Why the last edit was refused, the FEN copied, the last save (where the file went, or why not).
fn referee_messages(ui: &mut egui::Ui, session: &Session, tools: &Tools) {
    if let Some(e) = &session.edit_error
        && tools.mode == Mode::Edit
    {
        ui.colored_label(BAD, e);
    }
    if let Some(f) = &tools.copied {
        ui.label(egui::RichText::new(format!("Copied: {f}")).monospace().small());
    }
    if let Some(entry) = session
        .log
        .iter()
        .rev()
        .find(|e| matches!(e.action, Action::Save(..) | Action::Export(_)))
    {
        let colour = if entry.ok { GOOD } else { BAD };
        ui.colored_label(colour, &entry.said);
    }
}

/// The last actions applied, oldest first.
fn log(ui: &mut egui::Ui, session: &Session) {
    ui.separator();
    egui::CollapsingHeader::new(format!("Actions ({})", session.log.len()))
        .default_open(true)
        .show(ui, |ui| {
            for entry in session.log.iter().rev().take(LOG_SHOWN).rev() {
                let (mark, colour) = if entry.ok { ("✔", GOOD) } else { ("✘", BAD) };
                ui.colored_label(colour, format!("{mark} {}: {}", label(&entry.action), entry.said));
            }
        });
}

/// An action in a few words.
fn label(a: &Action) -> String {
    match a {
        Action::Play(t) => format!("play {t}"),
        Action::Random { seed } => format!("random (seed {seed})"),
        Action::TakeBack => "take back".to_string(),
        Action::GoTo(i) => format!("go to {i}"),
        Action::GoToNode(_) => "go to variation".to_string(),
        Action::Promote(_) => "promote".to_string(),
        Action::Delete(_) => "delete variation".to_string(),
        Action::UndoDelete => "undo delete".to_string(),
        Action::Edit(_) => "edit".to_string(),
        Action::UndoEdit => "undo edit".to_string(),
        Action::MarkDead(_) => "mark".to_string(),
        Action::ClaimDraw(_) => "claim".to_string(),
        Action::Reload => "reload".to_string(),
        Action::Save(..) => "save".to_string(),
        Action::Export(_) => "export".to_string(),
    }
}

/// The side panel, drawn every frame into the primary egui context.
pub fn plugin(app: &mut App) {
    app.add_systems(EguiPrimaryContextPass, side_panel);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::layout::Below;

    fn session(what: &str) -> Session {
        Session::new(crate::session::source::open(Some(what)).unwrap_or_else(|e| panic!("{what}: {e}")))
    }

    /// The pane's height with `kept` points kept below the board of a 1280 × 800 window.
    fn given(s: &Session, kept: f32) -> f32 {
        status_area(s, Vec2::new(1280.0, 800.0 - kept), kept).height()
    }

    #[test]
    fn a_status_pane_that_says_more_than_fits_gets_room_under_the_board_which_keeps_it() {
        let s = session("four-player-chess");
        let mut below = Below::default();
        // The first frame of a session starts it with nothing kept.
        make_room_below(&s, 1280.0, 800.0, 150.0, given(&s, 0.0), &mut below);
        assert_eq!(below.extra, 0.0);
        let room = given(&s, 0.0);
        assert!(room < 150.0, "the 14-rank board leaves {room} under its names");
        // Eight lines: the board rises and shrinks until the pane has them, and no further.
        make_room_below(&s, 1280.0, 800.0, 150.0, room, &mut below);
        let has = given(&s, below.extra);
        assert!((150.0..151.0).contains(&has), "{} kept gives {has}", below.extra);
        // A step with less to say leaves the board where it is.
        let kept = below.extra;
        make_room_below(&s, 1280.0, 800.0, 40.0, has, &mut below);
        assert_eq!(below.extra, kept);
        // The pane never takes more than two fifths of the window; past that it scrolls.
        make_room_below(&s, 1280.0, 800.0, 5000.0, has, &mut below);
        assert!((320.0..321.0).contains(&given(&s, below.extra)), "{}", below.extra);
        assert!(below.extra <= Below::most(800.0));
        // Another ruleset opened: nothing kept until its pane asks.
        let chess = session("chess");
        make_room_below(&chess, 1280.0, 800.0, 40.0, given(&chess, 0.0), &mut below);
        assert_eq!(below.extra, 0.0);
        make_room_below(&chess, 1280.0, 800.0, 40.0, given(&chess, 0.0), &mut below);
        assert_eq!(below.extra, 0.0, "a pane that fits asks for nothing");
    }
}
