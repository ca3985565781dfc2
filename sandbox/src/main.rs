//! `sandbox [PATH] [--screenshot OUT.png [--ply N]]`: opens a ruleset (a `.rules` path or a bundled
//! name) or a RON scenario in a window, or renders one frame offscreen and exits.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use bevy::app::ScheduleRunnerPlugin;
use bevy::prelude::*;
use bevy::window::ExitCondition;
use bevy::winit::WinitPlugin;
use sandbox::session::Session;
use sandbox::shot::{SIZE, ShotRequest};

struct Args {
    path: Option<String>,
    screenshot: Option<PathBuf>,
    ply: Option<usize>,
}

const USAGE: &str = "usage: sandbox [RULESET.rules | chess | xiangqi | go | SCENARIO.ron] [--screenshot OUT.png [--ply N]]";

fn parse_args() -> Result<Args, String> {
    let mut args = Args {
        path: None,
        screenshot: None,
        ply: None,
    };
    let mut it = std::env::args().skip(1);
    while let Some(a) = it.next() {
        match a.as_str() {
            "--screenshot" => args.screenshot = Some(it.next().ok_or("--screenshot needs a file name")?.into()),
            "--ply" => {
                let n = it.next().ok_or("--ply needs a number")?;
                args.ply = Some(n.parse().map_err(|_| format!("--ply `{n}`: not a number"))?);
            }
            "-h" | "--help" => return Err(USAGE.to_string()),
            s if s.starts_with("--") => return Err(format!("unknown option `{s}`\n{USAGE}")),
            _ if args.path.is_some() => return Err(format!("more than one thing to open\n{USAGE}")),
            _ => args.path = Some(a),
        }
    }
    Ok(args)
}

fn has_display() -> bool {
    ["DISPLAY", "WAYLAND_DISPLAY"]
        .iter()
        .any(|v| std::env::var_os(v).is_some_and(|s| !s.is_empty()))
}

fn main() -> ExitCode {
    let args = match parse_args() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    if args.screenshot.is_none() && !has_display() {
        eprintln!(
            "sandbox: no display (neither DISPLAY nor WAYLAND_DISPLAY is set); to render one frame without a display run `sandbox {} --screenshot OUT.png [--ply N]`",
            args.path.as_deref().unwrap_or("[PATH]")
        );
        return ExitCode::from(2);
    }
    let opened = match sandbox::source::open(args.path.as_deref()) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("sandbox: {e}");
            return ExitCode::from(1);
        }
    };
    let mut session = Session::new(opened);
    if let Some(n) = args.ply {
        session.go_to(n);
    }
    let title = format!("Arbiter sandbox: {}", session.title);
    let mut app = App::new();
    match args.screenshot {
        Some(out) => {
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
            .insert_resource(ShotRequest::new(out))
            .add_plugins(sandbox::shot::plugin);
        }
        None => {
            app.add_plugins(DefaultPlugins.set(WindowPlugin {
                primary_window: Some(Window {
                    title,
                    resolution: SIZE.into(),
                    ..default()
                }),
                ..default()
            }))
            .add_systems(Startup, sandbox::spawn_camera)
            .add_plugins(sandbox::input::plugin);
        }
    }
    app.insert_resource(session).add_plugins(sandbox::plugin);
    match app.run() {
        AppExit::Success => ExitCode::SUCCESS,
        AppExit::Error(_) => ExitCode::from(1),
    }
}
