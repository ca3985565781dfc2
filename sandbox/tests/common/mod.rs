//! What the sandbox's bare-`App` tests share: opening something into a `Session` in an `App` with
//! `MinimalPlugins` and the session's systems (and, for the pointer's tests, the board's layout and
//! the pointer's systems), sending messages, reading the session back, temporary folders; and the
//! side panel laid out in a bare egui context, frame after frame, with the texts it draws and where.
//! Each test file (a module of `suite.rs`, reaching this one as `crate::common`) uses some of these.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

use bevy::prelude::*;
use bevy_egui::egui;
use sandbox::board::BoardLayout;
use sandbox::board::input::{Button, Pointer};
use sandbox::board::layout::Layout;
use sandbox::session::{Action, Apply, Session, Tools};

/// The workspace's root.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// `what` (a bundled name or a path) opened, in a bare App with the session's systems.
pub fn app(what: &str) -> App {
    let opened = sandbox::session::source::open(Some(what)).unwrap_or_else(|e| panic!("{what}: {e}"));
    app_with(Session::new(opened))
}

/// A file of the workspace (`rel` from its root) opened as [`app`] opens it.
pub fn file(rel: &str) -> App {
    app(root().join(rel).to_str().expect("a UTF-8 path"))
}

/// `session` in a bare App with the session's systems, after one update.
pub fn app_with(session: Session) -> App {
    let mut app = App::new();
    app.add_plugins(MinimalPlugins).add_plugins(sandbox::logic);
    app.insert_resource(session);
    app.update();
    app
}

/// [`app`] with the trainer's marks and the board's pointer ([`Pointer`] messages become clicks,
/// drags and marks), laid out as the board is drawn.
pub fn pointer_app(what: &str) -> App {
    let opened = sandbox::session::source::open(Some(what)).unwrap_or_else(|e| panic!("{what}: {e}"));
    let session = Session::new(opened);
    let layout = Layout::new(&session.engine.rules().board);
    let mut app = App::new();
    app.add_plugins(MinimalPlugins)
        .add_plugins((sandbox::logic, sandbox::board::marks::plugin, sandbox::board::input::pointer_plugin))
        .insert_resource(session)
        .insert_resource(BoardLayout(layout));
    app.update();
    app
}

pub fn session(app: &App) -> &Session {
    app.world().resource::<Session>()
}

pub fn session_mut(app: &mut App) -> Mut<'_, Session> {
    app.world_mut().resource_mut::<Session>()
}

/// Writes `m` and updates once.
pub fn send<M: Message>(app: &mut App, m: M) {
    app.world_mut().write_message(m);
    app.update();
}

/// Applies `a` through the session's [`Apply`] message.
pub fn act(app: &mut App, a: Action) {
    send(app, Apply(a));
}

/// The current position's FEN.
pub fn fen(app: &App) -> String {
    session(app).game.current().fen()
}

/// The square the ruleset names `name`.
pub fn square(app: &App, name: &str) -> usize {
    session(app)
        .engine
        .rules()
        .board
        .parse_square(name)
        .unwrap_or_else(|| panic!("no square {name}"))
}

/// The button pressed or released over the centre of `name` (needs [`pointer_app`]).
pub fn pointer(app: &mut App, button: Button, pressed: bool, name: &str) {
    let at = app.world().resource::<BoardLayout>().0.center(square(app, name));
    app.world_mut().write_message(Pointer { button, pressed, at });
    app.update();
}

/// A fresh folder `name` for this test file, under the target's temporary folder.
pub fn temp_dir(name: &str) -> PathBuf {
    let d = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("sandbox-{}-{}-{name}", env!("CARGO_CRATE_NAME"), std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("a temporary folder");
    d
}

/// The side panel laid out frame after frame in one egui context (so its scrolling and focus
/// persist), in a window `height` high.
pub struct Panel {
    pub ctx: egui::Context,
    pub height: f32,
    /// The input events of the next frame.
    pub events: Vec<egui::Event>,
    pub auto: sandbox::timeline::replay::Autoplay,
    pub list: sandbox::panel::ListState,
    pub computer: sandbox::players::computer::Computer,
    pub sim: sandbox::players::simulate::Simulation,
    pub clock: sandbox::players::clocks::LiveClock,
    /// The trainer's marks and caption the panel shows.
    pub marks: sandbox::session::marks::Marks,
    /// The clock egui is given: a second a frame, a twentieth while a click is under way.
    pub time: f64,
    pub clicking: bool,
    /// What the panel asked for in the last frame.
    pub asked: sandbox::panel::Requests,
}

/// The window's width the panel is laid out in (its default).
pub const WINDOW_WIDTH: f32 = sandbox::board::layout::DEFAULT_SCREEN.0 as f32;

/// Every text the panel drew, and where.
pub type Texts = Vec<(String, egui::Pos2)>;

impl Panel {
    pub fn new(height: f32) -> Panel {
        Panel {
            ctx: egui::Context::default(),
            height,
            events: Vec::new(),
            auto: Default::default(),
            list: Default::default(),
            computer: Default::default(),
            sim: Default::default(),
            clock: Default::default(),
            marks: Default::default(),
            time: 0.0,
            clicking: false,
            asked: Default::default(),
        }
    }

    /// One frame with the events queued: every text drawn and where.
    pub fn frame(&mut self, session: &Session, tools: &mut Tools) -> Texts {
        let input = egui::RawInput {
            screen_rect: Some(egui::Rect::from_min_size(egui::Pos2::ZERO, egui::vec2(WINDOW_WIDTH, self.height))),
            events: std::mem::take(&mut self.events),
            time: Some(self.time),
            ..Default::default()
        };
        // A second to the next frame (scrolling animations end by then), unless a click is under
        // way (a press held that long is no click).
        self.time += if self.clicking { 0.05 } else { 1.0 };
        let mut view = sandbox::board::layout::View::default();
        let mut asked = Default::default();
        let mut caption = self.marks.caption.clone();
        let mut out = self.ctx.run_ui(input, |ui| {
            // As the window lays it out: the panel at the left, the bar over the board beside it.
            egui::Panel::left("arbiter")
                .exact_size(sandbox::board::layout::PANEL_WIDTH)
                .resizable(false)
                .show(ui, |ui| {
                    asked = sandbox::panel::contents(
                        ui,
                        session,
                        tools,
                        (&mut self.auto, &mut self.list),
                        Some(&mut view),
                        (&mut self.computer, &mut self.sim, &mut self.clock),
                        (&self.marks, &mut caption),
                    );
                });
            let mut bar = sandbox::panel::Requests::default();
            sandbox::panel::ruling_bar(ui.ctx(), session, WINDOW_WIDTH - sandbox::board::layout::PANEL_WIDTH, &mut bar);
            sandbox::panel::rule_errors_pane(ui.ctx(), session, WINDOW_WIDTH - sandbox::board::layout::PANEL_WIDTH);
            sandbox::panel::status_pane(
                ui.ctx(),
                session,
                (tools, &self.computer, &self.list),
                (bevy::math::Vec2::new(WINDOW_WIDTH, self.height), self.height),
                None,
                &mut bar,
            );
            if tools.help {
                sandbox::panel::shortcut_sheet(ui.ctx(), &mut tools.help);
            }
            asked.picks.extend(bar.picks);
            asked.actions.extend(bar.actions);
        });
        self.marks.caption = caption;
        self.asked = asked;
        // No renderer takes the font atlas here.
        out.textures_delta.clear();
        out.shapes
            .into_iter()
            .filter_map(|c| match c.shape {
                egui::Shape::Text(t) => Some((t.galley.text().to_string(), t.pos)),
                _ => None,
            })
            .collect()
    }

    /// A few frames (egui settles sizes and scrolling over more than one); the last one's texts.
    pub fn settle(&mut self, session: &Session, tools: &mut Tools) -> Texts {
        for _ in 0..3 {
            self.frame(session, tools);
        }
        self.frame(session, tools)
    }

    /// The mouse wheel turned far down over the panel.
    pub fn scroll_down(&mut self) {
        self.events.push(egui::Event::PointerMoved(egui::pos2(100.0, self.height / 2.0)));
        self.events.push(egui::Event::MouseWheel {
            unit: egui::MouseWheelUnit::Point,
            delta: egui::vec2(0.0, -10_000.0),
            modifiers: egui::Modifiers::NONE,
            phase: egui::TouchPhase::Move,
        });
    }

    /// A left click at `at` (pressed in one frame, released in the next).
    pub fn click(&mut self, session: &Session, tools: &mut Tools, at: egui::Pos2) {
        let button = |pressed| egui::Event::PointerButton {
            pos: at,
            button: egui::PointerButton::Primary,
            pressed,
            modifiers: egui::Modifiers::NONE,
        };
        self.events.extend([egui::Event::PointerMoved(at), button(true)]);
        self.clicking = true;
        self.frame(session, tools);
        self.events.push(button(false));
        self.frame(session, tools);
        self.clicking = false;
    }
}

/// `session`'s panel laid out once in a fresh context as high as 2000 pixels (nothing scrolls):
/// every text drawn and where.
pub fn panel_texts(session: &Session, tools: &mut Tools) -> Texts {
    panel_texts_with_clock(session, tools, Default::default())
}

/// [`panel_texts`] with these live clocks.
pub fn panel_texts_with_clock(session: &Session, tools: &mut Tools, clock: sandbox::players::clocks::LiveClock) -> Texts {
    let mut panel = Panel::new(2000.0);
    panel.clock = clock;
    // Two passes: egui settles sizes on the first.
    panel.frame(session, tools);
    panel.frame(session, tools)
}

/// Where the panel drew `label`.
pub fn at(texts: &[(String, egui::Pos2)], label: &str) -> egui::Pos2 {
    texts
        .iter()
        .find(|(t, _)| t == label)
        .map(|(_, p)| *p)
        .unwrap_or_else(|| panic!("`{label}` in the panel: {:?}", texts.iter().map(|t| &t.0).collect::<Vec<_>>()))
}
