//! The sandbox in a real window on a virtual X server (Xvfb), driven by real pointer events from
//! `xdotool` — the cursor jumps and clicks at once, as quick hands and remote desktops do — and
//! followed through `--trace` (a line per change of what the board shows). Proves what a bare
//! `App` cannot: that a click on the panel is the panel's (a promotion picked with the mouse is
//! played, not cancelled as a click beside the board), and that the trainer's marks survive clicks
//! on the panel. Needs `Xvfb` and `xdotool` (Debian's `xvfb`, `xdotool`; `scripts/setup` installs
//! them) and Mesa's software Vulkan; skipped where they are missing, except in CI (`CI` set).

use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use bevy::prelude::*;
use sandbox::board::input::Button;
use sandbox::board::layout::PANEL_WIDTH;
use sandbox::board::layout::{Layout, Screen};

use crate::common;
use common::*;

/// The window's size (logical pixels; Xvfb's scale is 1).
const SIZE: (u32, u32) = (1000, 700);

/// An X server of its own and the sandbox in a window on it.
struct Desk {
    xvfb: Child,
    app: Child,
    display: String,
    window: String,
    trace: PathBuf,
}

impl Drop for Desk {
    fn drop(&mut self) {
        let _ = self.app.kill();
        let _ = self.app.wait();
        let _ = self.xvfb.kill();
        let _ = self.xvfb.wait();
    }
}

fn have(tool: &str) -> bool {
    Command::new("sh")
        .args(["-c", &format!("command -v {tool}")])
        .output()
        .is_ok_and(|o| o.status.success())
}

/// Whether the tools are here; in CI their absence fails the test.
fn tools_present() -> bool {
    let present = have("Xvfb") && have("xdotool");
    assert!(
        present || std::env::var_os("CI").is_none(),
        "CI needs Xvfb and xdotool for the windowed pointer tests (scripts/setup installs them)"
    );
    present
}

impl Desk {
    /// The sandbox on `args` in a window, its first frame drawn.
    fn open(name: &str, args: &[&str]) -> Desk {
        let dir = temp_dir(name);
        let mut xvfb = Command::new("Xvfb")
            .args(["-displayfd", "1", "-screen", "0", "1280x1024x24", "-nolisten", "tcp"])
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("Xvfb starts");
        let mut number = String::new();
        BufReader::new(xvfb.stdout.take().expect("piped"))
            .read_line(&mut number)
            .expect("Xvfb says its display");
        let display = format!(":{}", number.trim());
        let trace = dir.join("trace.txt");
        let app = Command::new(env!("CARGO_BIN_EXE_sandbox"))
            .args(args)
            .args(["--size", &format!("{}x{}", SIZE.0, SIZE.1), "--trace"])
            .arg(&trace)
            .env("DISPLAY", &display)
            .env_remove("WAYLAND_DISPLAY")
            .env("XDG_RUNTIME_DIR", std::env::temp_dir())
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("the sandbox starts");
        let mut desk = Desk {
            xvfb,
            app,
            display,
            window: String::new(),
            trace,
        };
        let found = desk.xdotool(&["search", "--sync", "--onlyvisible", "--name", "Arbiter sandbox"]);
        desk.window = found.lines().next().unwrap_or("").to_string();
        assert!(!desk.window.is_empty(), "the sandbox's window appears");
        desk.wait_for("the first frame", |_| true);
        desk
    }

    fn xdotool(&self, args: &[&str]) -> String {
        let out = Command::new("xdotool")
            .args(args)
            .env("DISPLAY", &self.display)
            .output()
            .expect("xdotool runs");
        assert!(out.status.success(), "xdotool {args:?}: {}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8_lossy(&out.stdout).to_string()
    }

    /// A jump of the cursor to `at` (window pixels) and a click of `button` there, at once.
    fn click(&self, at: Vec2, button: Button) {
        let b = if button == Button::Left { "1" } else { "3" };
        let (x, y) = (format!("{}", at.x.round()), format!("{}", at.y.round()));
        self.xdotool(&["mousemove", "--window", &self.window, &x, &y, "click", b]);
    }

    /// A drag with `button` from `a` to `b` (window pixels).
    fn drag(&self, a: Vec2, b: Vec2, button: Button) {
        let n = if button == Button::Left { "1" } else { "3" };
        let p = |v: Vec2| (format!("{}", v.x.round()), format!("{}", v.y.round()));
        let ((ax, ay), (bx, by)) = (p(a), p(b));
        self.xdotool(&["mousemove", "--window", &self.window, &ax, &ay, "mousedown", n]);
        self.xdotool(&["mousemove", "--window", &self.window, &bx, &by, "mouseup", n]);
    }

    /// The trace's last line once `ok` holds for it (within a minute: a software renderer on two
    /// busy cores is slow to draw its first frames).
    fn wait_for(&mut self, what: &str, ok: impl Fn(&str) -> bool) -> String {
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let text = std::fs::read_to_string(&self.trace).unwrap_or_default();
            if let Some(last) = text.lines().last()
                && ok(last)
            {
                return last.to_string();
            }
            if let Ok(Some(status)) = self.app.try_wait() {
                panic!("the sandbox exited ({status}) before {what}; its trace:\n{text}");
            }
            assert!(Instant::now() < deadline, "no {what} within a minute; the trace:\n{text}");
            std::thread::sleep(Duration::from_millis(100));
        }
    }
}

/// Where square `name` of `what`'s board is in the window (unflipped), as the board lays itself out
/// for the window's size: the world's origin sits half a panel right of the window's middle.
fn square_at(what: &str, name: &str) -> Vec2 {
    let app = app(what);
    let sq = square(&app, name);
    let board = &session(&app).engine.rules().board;
    let layout = Layout::fit(board, Screen(Vec2::new(SIZE.0 as f32, SIZE.1 as f32)));
    let world = layout.center(sq);
    Vec2::new(
        world.x + PANEL_WIDTH / 2.0 + SIZE.0 as f32 / 2.0,
        SIZE.1 as f32 / 2.0 - sandbox::board::layout::BOARD_LIFT - world.y,
    )
}

fn field<'a>(line: &'a str, name: &str) -> &'a str {
    line.split(' ')
        .find_map(|f| f.strip_prefix(name).and_then(|r| r.strip_prefix('=')))
        .unwrap_or_else(|| panic!("`{name}` in {line}"))
}

fn scenario() -> String {
    root().join("scenarios/chess/promotion-to-each-kind.ron").display().to_string()
}

/// a7 takes b8 with the mouse; the panel offers the four kinds; a click on Knight plays axb8=N.
#[test]
fn a_promotion_is_picked_with_the_mouse_in_a_real_window() {
    if !tools_present() {
        return;
    }
    let what = scenario();
    let mut desk = Desk::open("promotion", &[&what, "--ply", "0"]);
    let (a7, b8) = (square_at(&what, "a7"), square_at(&what, "b8"));
    desk.click(a7, Button::Left);
    desk.wait_for("a7 selected", |l| field(l, "selected") == "a7");
    desk.click(b8, Button::Left);
    let offered = desk.wait_for("the promotion's choice", |l| field(l, "choice") != "-");
    assert_eq!(field(&offered, "choice"), "Queen|Rook|Bishop|Knight", "{offered}");

    // Where the panel draws the Knight button for this state: laid out apart, as the window does.
    let mut state = pointer_app(&what);
    sandbox_clicks(&mut state, &["a7", "b8"]);
    assert!(
        session(&state).choice.is_some(),
        "the same choice apart: {:?} {:?}",
        session(&state).selected,
        session(&state).log
    );
    let mut panel = Panel::new(SIZE.1 as f32);
    let mut tools = sandbox::session::Tools::default();
    let texts = panel.settle(session(&state), &mut tools);
    let knight = at(&texts, "Knight");
    desk.click(Vec2::new(knight.x + 12.0, knight.y + 7.0), Button::Left);
    let played = desk.wait_for("the promotion played", |l| field(l, "ply") == "1");
    assert!(
        field(&played, "fen").starts_with("1N2k3/8/8/8/8/8/8/4K3_b"),
        "a knight on b8: {played}"
    );
    assert_eq!(field(&played, "choice"), "-");
}

/// Marks drawn with the right button stay through clicks on the panel (here: its caption box), and
/// go with a left click on the board.
#[test]
fn marks_survive_clicks_on_the_panel_in_a_real_window() {
    if !tools_present() {
        return;
    }
    let mut desk = Desk::open("marks", &["chess"]);
    let (e4, g1, f3) = (square_at("chess", "e4"), square_at("chess", "g1"), square_at("chess", "f3"));
    desk.click(e4, Button::Right);
    desk.wait_for("a marked square", |l| field(l, "squares") == "1");
    desk.drag(g1, f3, Button::Right);
    desk.wait_for("an arrow", |l| field(l, "arrows") == "1");
    // Clicks down the panel's edge (inside it, beside its controls, so they change nothing
    // else): the marks stay.
    for y in [40.0, 200.0, 400.0, 600.0] {
        desk.click(Vec2::new(PANEL_WIDTH - 4.0, y), Button::Left);
    }
    // One more mark after them: once it is in, the panel's clicks (earlier events) have been
    // handled, and the first marks must still be there.
    desk.click(square_at("chess", "d5"), Button::Right);
    let after = desk.wait_for("a second marked square", |l| field(l, "squares") != "1");
    assert_eq!(
        (field(&after, "squares"), field(&after, "arrows")),
        ("2", "1"),
        "the marks stayed through the panel's clicks: {after}"
    );
    // A left click on the board is what clears them.
    desk.click(square_at("chess", "a5"), Button::Left);
    desk.wait_for("the marks cleared by a click on the board", |l| {
        field(l, "squares") == "0" && field(l, "arrows") == "0"
    });
}

/// Plays board clicks on squares `names` in a bare App, as the window's clicks would.
fn sandbox_clicks(app: &mut App, names: &[&str]) {
    for name in names {
        pointer(app, Button::Left, true, name);
        pointer(app, Button::Left, false, name);
    }
}

/// A ruleset saved while the window sleeps is reloaded at once: the watcher's thread wakes the
/// window (it no longer redraws every second to look, and its own wake-up is half a minute away).
#[test]
fn a_saved_ruleset_wakes_an_idle_window() {
    if !tools_present() {
        return;
    }
    let dir = temp_dir("wake");
    let path = dir.join("chess.rules");
    let text = std::fs::read_to_string(root().join("rulesets/chess.rules")).expect("chess.rules");
    std::fs::write(&path, &text).expect("written");
    let mut desk = Desk::open("wake-window", &[path.to_str().expect("UTF-8")]);
    // Idle for a while: nothing happens, nothing is drawn.
    std::thread::sleep(Duration::from_secs(3));
    let saved = Instant::now();
    std::fs::write(&path, format!("{text}\n# saved again\n")).expect("written");
    desk.wait_for("the reload", |l| field(l, "rules") == "1");
    assert!(
        saved.elapsed() < Duration::from_secs(15),
        "reloaded {:?} after the save: the watcher woke the window, not its half-minute safety net",
        saved.elapsed()
    );
}
