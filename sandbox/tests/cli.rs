//! The binary's command line without a display: one sentence, the `--screenshot` form, a non-zero exit;
//! `--window`, `--flip` and `--simulate` in the usage; a bad number of games to simulate; a bad size.

use std::process::Command;

#[test]
fn without_a_display_and_without_screenshot_it_says_how_to_render_offscreen() {
    let out = Command::new(env!("CARGO_BIN_EXE_sandbox"))
        .arg("chess")
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .env("RUST_BACKTRACE", "1")
        .output()
        .expect("the sandbox binary runs");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("no display") && err.contains("sandbox chess --screenshot OUT.png"),
        "{err}"
    );
    assert_eq!(err.trim().lines().count(), 1, "one sentence: {err}");
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn an_unknown_ruleset_is_reported_without_a_panic() {
    let out = Command::new(env!("CARGO_BIN_EXE_sandbox"))
        .args(["no-such-game", "--screenshot", "unused.png"])
        .output()
        .expect("the sandbox binary runs");
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("no ruleset `no-such-game`") && !err.contains("panicked"), "{err}");
}

fn run(args: &[&str]) -> (Option<i32>, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_sandbox"))
        .args(args)
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .output()
        .expect("the sandbox binary runs");
    (out.status.code(), String::from_utf8_lossy(&out.stderr).into_owned())
}

#[test]
fn a_windowed_screenshot_without_a_display_says_to_use_xvfb_or_drop_the_flag() {
    let (code, err) = run(&["chess", "--screenshot", "unused.png", "--window"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("--window needs a display") && err.contains("xvfb-run"), "{err}");
    assert_eq!(err.trim().lines().count(), 1, "one sentence: {err}");
}

#[test]
fn window_goes_only_with_screenshot_and_help_lists_the_options() {
    let (code, err) = run(&["chess", "--window"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("--window goes with --screenshot"), "{err}");
    let (code, help) = run(&["--help"]);
    assert_eq!(code, Some(2));
    for option in ["--flip", "--screenshot", "--window", "--ply", "--simulate"] {
        assert!(help.contains(option), "--help names {option}: {help}");
    }
}

#[test]
fn a_bad_number_of_games_to_simulate_is_refused_with_the_range() {
    for (arg, said) in [("0", "give from 1 to"), ("many", "not a number of games")] {
        let (code, err) = run(&["chess", "--screenshot", "unused.png", "--simulate", arg]);
        assert_eq!(code, Some(2), "--simulate {arg}");
        assert!(
            err.contains(&format!("--simulate `{arg}`")) || err.contains(&format!("--simulate {arg}")),
            "{err}"
        );
        assert!(err.contains(said) && !err.contains("panicked"), "{err}");
    }
    let (code, err) = run(&["chess", "--simulate"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("--simulate needs a number of games"), "{err}");
}

#[test]
fn a_bad_size_is_refused_with_the_form_it_takes() {
    for arg in ["10x10", "900", "wide", "900x", "x560", "99999x560"] {
        let (code, err) = run(&["chess", "--screenshot", "unused.png", "--size", arg]);
        assert_eq!(code, Some(2), "--size {arg}");
        assert!(err.contains(&format!("--size `{arg}`")) && err.contains("WIDTHxHEIGHT"), "{err}");
        assert!(!err.contains("panicked"), "{err}");
    }
    let (code, err) = run(&["chess", "--size"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("--size needs WIDTHxHEIGHT"), "{err}");
}
