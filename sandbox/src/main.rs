//! `sandbox [PATH] [--param NAME=VALUE]... [--flip | --seat PLAYER] [--size WxH] [--simulate N] [--ply N] [--play MOVES] [--screenshot OUT.png [--window]]`:
//! opens a ruleset (a `.rules` path or a bundled name, with parameters as `arbiter` takes them), a RON
//! scenario or a game record in a window, or renders one frame and exits — offscreen
//! by default (no display needed), or in a real window with `--window`.

/// `eprintln!` that never panics: where stderr is closed, or a pipe's reader has gone, the message
/// is dropped and the exit code still tells. What a user gave is quoted cut short where it is
/// long (a file's contents given as an argument), as `arbiter` quotes it.
macro_rules! errln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let text = arbiter::diag::shorten_quoted(&format!($($arg)*));
        let _ = writeln!(std::io::stderr(), "{text}");
    }};
}

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use bevy::app::ScheduleRunnerPlugin;
use bevy::prelude::*;
use bevy::window::{ExitCondition, WindowResolution};
use bevy::winit::WinitPlugin;
use sandbox::board::layout::{Screen, View};
use sandbox::players::simulate::{SimRequest, Simulation};
use sandbox::session::Session;
use sandbox::window::shot::{SIZE, ShotRequest};

struct Args {
    path: Option<String>,
    screenshot: Option<PathBuf>,
    window: bool,
    flip: bool,
    /// `--seat PLAYER`: the player shown at the bottom.
    seat: Option<String>,
    ply: Option<usize>,
    /// Moves played by hand after `--ply`, as the panel's moves are.
    play: Vec<String>,
    simulate: Option<u64>,
    size: (u32, u32),
    /// `--param NAME=VALUE` overrides, in order.
    params: Vec<(String, String)>,
    /// `--trace FILE`: the board's state, a line per change.
    trace: Option<PathBuf>,
    help: bool,
}

const USAGE: &str = "usage: sandbox [RULESET.rules | chess | xiangqi | go | SCENARIO.ron | RECORD.pgn/.wxf/.sgf] [--param NAME=VALUE]... [--flip | --seat PLAYER] [--size WxH] [--simulate N] [--ply N] [--play MOVES] [--screenshot OUT.png [--window]] [--trace FILE]";

const HELP: &str = "
  --param NAME=VALUE  override a parameter the ruleset declares, as `arbiter` does (e.g. `go --param
                      size=9`); repeatable; a scenario or a game record sets its own
  --flip              show the board turned half round (the second player at the bottom)
  --seat PLAYER       show the board turned so that PLAYER sits at the bottom (a quarter turn a seat
                      where players sit by quarter turns, a sixth round a star of hexes; half
                      round for the second of two)
  --size WxH          the window's (or the picture's) size in logical pixels; default 1280x800
  --simulate N        open the Simulate window and run N games (random players, seed 1); with
                      --screenshot the picture waits for the results
  --screenshot OUT    render one frame to OUT (PNG) and exit; offscreen, no display needed
  --window            with --screenshot: capture a real window instead (needs a display, e.g. xvfb-run)
  --ply N             show step N of a scenario's or a record's timeline (an error past its end)
  --play MOVES        then play these moves by hand (coordinates or the ruleset's notation, separated
                      by commas or spaces; a turn of several parts as one text, `e2e4,e4d5`), as
                      clicks would: off the timeline they start a variation
  --trace FILE        append a line to FILE each time the board's state changes (step, FEN, the
                      piece selected, a choice waiting, the marks): for scripts driving the window
  -h, --help          print this help and exit
Without --screenshot the sandbox opens a window (needs DISPLAY or WAYLAND_DISPLAY).";

/// The value after an option: the next argument, unless there is none or it is another option
/// (`--seat --screenshot x.png` is a missing name, not a player called `--screenshot`).
fn value(it: &mut impl Iterator<Item = String>, needs: &str) -> Result<String, String> {
    match it.next() {
        Some(v) if v.starts_with("--") => Err(format!("{needs} (found the option `{v}` instead)")),
        Some(v) => Ok(v),
        None => Err(needs.to_string()),
    }
}

fn parse_args(args: impl Iterator<Item = String>) -> Result<Args, String> {
    let mut parsed = Args {
        path: None,
        screenshot: None,
        window: false,
        flip: false,
        seat: None,
        ply: None,
        play: Vec::new(),
        simulate: None,
        size: SIZE,
        params: Vec::new(),
        trace: None,
        help: false,
    };
    let mut it = args;
    while let Some(a) = it.next() {
        match a.as_str() {
            "--screenshot" => parsed.screenshot = Some(value(&mut it, "--screenshot needs a file name")?.into()),
            "--window" => parsed.window = true,
            "--trace" => parsed.trace = Some(value(&mut it, "--trace needs a file name")?.into()),
            "--size" => parsed.size = parse_size(&value(&mut it, "--size needs WIDTHxHEIGHT, e.g. 900x560")?)?,
            "--flip" => parsed.flip = true,
            "--seat" => parsed.seat = Some(value(&mut it, "--seat needs a player's name, e.g. `--seat blue`")?),
            "--ply" => {
                let n = value(&mut it, "--ply needs a number")?;
                parsed.ply = Some(n.parse().map_err(|_| format!("--ply `{n}`: not a number"))?);
            }
            "--play" => {
                let moves = value(&mut it, "--play needs moves, e.g. `e2e4,e7e5`")?;
                parsed.play.extend(
                    moves
                        .split([',', ' '])
                        .filter(|m| !m.trim().is_empty())
                        .map(|m| m.trim().to_string()),
                );
            }
            "--simulate" => {
                let n = value(&mut it, "--simulate needs a number of games")?;
                let games: u64 = n.parse().map_err(|_| format!("--simulate `{n}`: not a number of games"))?;
                if games == 0 || games > arbiter::sim::MAX_GAMES {
                    return Err(format!("--simulate {games}: give from 1 to {} games", arbiter::sim::MAX_GAMES));
                }
                parsed.simulate = Some(games);
            }
            "--param" => {
                let p = value(&mut it, "--param needs NAME=VALUE")?;
                match p.split_once('=') {
                    Some((name, value)) if !name.trim().is_empty() => {
                        parsed.params.push((name.trim().to_string(), value.trim().to_string()))
                    }
                    _ => return Err(format!("--param `{p}`: expected NAME=VALUE")),
                }
            }
            "-h" | "--help" => parsed.help = true,
            s if s.starts_with("--") => return Err(format!("unknown option `{s}`\n{USAGE}")),
            _ if parsed.path.is_some() => return Err(format!("more than one thing to open\n{USAGE}")),
            _ => parsed.path = Some(a),
        }
    }
    if parsed.help {
        return Ok(parsed);
    }
    if let Some(shot) = &parsed.screenshot {
        screenshot_path_ok(shot)?;
    }
    if parsed.window && parsed.screenshot.is_none() {
        return Err(format!(
            "--window goes with --screenshot (without it the sandbox opens a window anyway)\n{USAGE}"
        ));
    }
    Ok(parsed)
}

/// Can a screenshot be saved at `path`, as far as can be told before rendering? A `.png` name (the
/// one format the picture is written in) in a folder that exists, and nothing there but a regular
/// file (which the picture replaces): not a folder, a FIFO (which would wait forever) or a device.
fn screenshot_path_ok(path: &std::path::Path) -> Result<(), String> {
    let shown = path.display();
    if !path.extension().is_some_and(|e| e.eq_ignore_ascii_case("png")) {
        return Err(format!("--screenshot {shown}: the picture is written as PNG; name a .png file"));
    }
    let folder = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(std::path::Path::new("."));
    if !folder.is_dir() {
        return Err(format!("--screenshot {shown}: no folder {}", folder.display()));
    }
    match arbiter::input::what_is_at(path) {
        Some(what) if what != "a file" => Err(format!("--screenshot {shown}: {what} is there, not a file; nothing was written")),
        _ => Ok(()),
    }
}

/// `WIDTHxHEIGHT` in logical pixels, each from 200 to 8192 (the panel alone is 320 wide).
fn parse_size(text: &str) -> Result<(u32, u32), String> {
    let bad = || format!("--size `{text}`: give WIDTHxHEIGHT, each from 200 to 8192, e.g. 900x560");
    let (w, h) = text.split_once(['x', 'X', '×']).ok_or_else(bad)?;
    let (w, h): (u32, u32) = (w.trim().parse().map_err(|_| bad())?, h.trim().parse().map_err(|_| bad())?);
    if !(200..=8192).contains(&w) || !(200..=8192).contains(&h) {
        return Err(bad());
    }
    Ok((w, h))
}

fn has_display() -> bool {
    ["DISPLAY", "WAYLAND_DISPLAY"]
        .iter()
        .any(|v| std::env::var_os(v).is_some_and(|s| !s.is_empty()))
}

/// Renders into an image: no window, no display server.
fn offscreen(app: &mut App, out: PathBuf) {
    app.add_plugins(
        DefaultPlugins
            .set(WindowPlugin {
                primary_window: None,
                exit_condition: ExitCondition::DontExit,
                ..default()
            })
            .disable::<WinitPlugin>(),
    )
    .add_plugins(ScheduleRunnerPlugin::run_loop(Duration::from_secs_f64(1.0 / 60.0)))
    .insert_resource(ShotRequest::offscreen(out))
    .add_plugins(sandbox::window::shot::plugin);
}

/// A real window with mouse input and the hot-reload watcher; with `shot`, its frame is saved and the
/// app exits (at scale factor 1, so the picture is `size` pixels whatever the display's density).
fn windowed(app: &mut App, title: String, shot: Option<PathBuf>, size: (u32, u32)) {
    let mut resolution = WindowResolution::from(size);
    if shot.is_some() {
        resolution = resolution.with_scale_factor_override(1.0);
    }
    app.add_plugins(DefaultPlugins.set(WindowPlugin {
        primary_window: Some(Window {
            title,
            resolution,
            ..default()
        }),
        ..default()
    }))
    .add_systems(Startup, sandbox::spawn_camera)
    .add_plugins((sandbox::board::input::plugin, sandbox::window::reload::window_plugin));
    match shot {
        Some(out) => {
            app.insert_resource(ShotRequest::window(out))
                .add_plugins(sandbox::window::shot::plugin);
        }
        // Drawn only when something changes or moves (a screenshot waits for frames, so not then).
        None => {
            app.insert_resource(sandbox::window::redraw::settings());
        }
    }
}

fn main() -> ExitCode {
    // Arguments that are not UTF-8 (legal file names) are refused by position, not a panic.
    let mut words = Vec::new();
    for (i, a) in std::env::args_os().skip(1).enumerate() {
        match a.into_string() {
            Ok(w) => words.push(w),
            Err(a) => {
                errln!("sandbox: argument {} ({}) is not UTF-8\n{USAGE}", i + 1, a.to_string_lossy());
                return ExitCode::from(2);
            }
        }
    }
    let args = match parse_args(words.into_iter()) {
        Ok(a) => a,
        Err(e) => {
            errln!("{e}");
            return ExitCode::from(2);
        }
    };
    if args.help {
        println!("{USAGE}{HELP}");
        return ExitCode::SUCCESS;
    }
    let path = args.path.as_deref().unwrap_or("[PATH]");
    if args.screenshot.is_none() && !has_display() {
        errln!(
            "sandbox: no display (neither DISPLAY nor WAYLAND_DISPLAY is set); to render one frame without a display run `sandbox {path} --screenshot OUT.png [--ply N]`"
        );
        return ExitCode::from(2);
    }
    if args.window && !has_display() {
        errln!(
            "sandbox: --window needs a display (neither DISPLAY nor WAYLAND_DISPLAY is set); run it under `xvfb-run -a`, or drop --window to render offscreen"
        );
        return ExitCode::from(2);
    }
    // The trace's file first: a path that cannot be a new file is refused before anything opens.
    let trace = match args.trace.clone().map(sandbox::window::trace::Trace::create).transpose() {
        Ok(t) => t,
        Err(e) => {
            errln!("sandbox: {e}");
            return ExitCode::from(2);
        }
    };
    // A run refused before its window opens leaves no trace file behind (to be in the way of
    // the next try): the file made above is removed.
    let refused = |code: u8| {
        if let Some(t) = &trace {
            let _ = std::fs::remove_file(&t.path);
        }
        ExitCode::from(code)
    };
    let opened = match sandbox::session::source::open_with_params(args.path.as_deref(), &args.params) {
        Ok(o) => o,
        Err(e) => {
            errln!("sandbox: {e}");
            return refused(1);
        }
    };
    let mut session = Session::new(opened);
    if let Some(n) = args.ply {
        let last = session.timeline.len() - 1;
        if n > last {
            errln!(
                "sandbox: --ply {n}: {} has {}; give --ply from 0 to {last}",
                session.origin,
                if last == 0 {
                    "only its start (step 0)".to_string()
                } else {
                    format!("steps 0 to {last}")
                }
            );
            return refused(2);
        }
        session.go_to(n);
    }
    // A turn of several parts is written with commas too (`e2e4,e4d5`): the longest run of the
    // texts that names a legal turn is one move.
    let (mut i, mut number) = (0, 1);
    while i < args.play.len() {
        let pos = session.game.current();
        let longest = (1..=(arbiter::game::MAX_PARTS + 1).min(args.play.len() - i))
            .rev()
            .find(|&n| arbiter::notation::find(pos, &args.play[i..i + n].join(",")).is_some())
            .unwrap_or(1);
        let m = args.play[i..i + longest].join(",");
        if let Err(why) = session.apply(sandbox::session::Action::Play(m.clone())) {
            errln!("sandbox: --play: move {number} (`{m}`) is refused: {why}");
            return refused(2);
        }
        i += longest;
        number += 1;
    }
    let mut view = View {
        flipped: args.flip,
        ..View::default()
    };
    if let Some(name) = &args.seat {
        let rules = session.game.current().rules();
        let Some(player) = rules.players.iter().find(|p| &p.name == name) else {
            let names: Vec<&str> = rules.players.iter().map(|p| p.name.as_str()).collect();
            errln!(
                "sandbox: --seat `{name}`: no such player in {} (its players: {})",
                rules.name,
                names.join(", ")
            );
            return refused(2);
        };
        view = match rules.seating {
            arbiter::model::Seating::QuarterTurns if !rules.board.hexes => View::seat(player.seat),
            arbiter::model::Seating::SixthTurns if rules.board.hexes => View::sixth_seat(player.seat),
            _ => View {
                flipped: player.seat % 2 == 1,
                ..View::default()
            },
        };
    }
    let title = format!("Arbiter sandbox: {}", session.title);
    let mut app = App::new();
    match args.screenshot {
        Some(out) if !args.window => offscreen(&mut app, out),
        shot => windowed(&mut app, title, shot, args.size),
    }
    if let Some(t) = trace {
        app.insert_resource(t).add_plugins(sandbox::window::trace::plugin);
    }
    let size = Vec2::new(args.size.0 as f32, args.size.1 as f32);
    app.insert_resource(Screen(size))
        .insert_resource(sandbox::board::layout::Whole(size))
        .insert_resource(session)
        .insert_resource(view)
        .add_plugins(sandbox::plugin);
    if let Some(games) = args.simulate {
        let mut sim = app.world_mut().resource_mut::<Simulation>();
        sim.open = true;
        sim.settings.games = games;
        app.world_mut().write_message(SimRequest::Run);
    }
    match app.run() {
        AppExit::Success => ExitCode::SUCCESS,
        AppExit::Error(_) => ExitCode::from(1),
    }
}
