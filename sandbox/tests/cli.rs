//! The binary's command line without a display: one sentence, the `--screenshot` form, a non-zero exit;
//! `--window`, `--flip` and `--simulate` in the usage, `--help` on stdout with a zero exit; a bad
//! number of games to simulate; `--ply` past the end of the timeline; `--param` as `arbiter` takes it; a bad size.

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

/// A fresh folder of this test run's own, named by `tag`.
fn scratch(tag: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("sandbox-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a folder");
    dir
}

/// Why the sandbox refuses to open the record or scenario at `path` (it must refuse).
fn refused_to_open(path: &std::path::Path) -> String {
    sandbox::session::source::open(Some(path.to_str().expect("UTF-8")))
        .err()
        .expect("refused")
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
    let out = Command::new(env!("CARGO_BIN_EXE_sandbox"))
        .arg("--help")
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .output()
        .expect("the sandbox binary runs");
    assert_eq!(out.status.code(), Some(0), "asking for help is not an error");
    let help = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.stderr.is_empty(),
        "help goes to stdout: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    for option in ["--flip", "--seat", "--screenshot", "--window", "--ply", "--simulate", "--param"] {
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

/// An option whose value is missing takes no other option for it: `--seat --screenshot x.png`
/// says the name is missing, not that there is more than one thing to open.
#[test]
fn an_option_followed_by_another_option_says_its_value_is_missing() {
    for (args, said) in [
        (
            &["four-player-chess", "--seat", "--screenshot", "x.png"][..],
            "--seat needs a player's name",
        ),
        (&["chess", "--ply", "--flip"][..], "--ply needs a number"),
        (&["chess", "--screenshot", "--window"][..], "--screenshot needs a file name"),
    ] {
        let (code, err) = run(args);
        assert_eq!(code, Some(2), "{args:?}");
        assert!(err.contains(said) && err.contains("found the option"), "{args:?}: {err}");
    }
}

/// A long text given where a word was expected (a file's contents pasted as an argument) is
/// quoted cut short in the refusal, as `arbiter` quotes it.
#[test]
fn a_long_bad_argument_is_quoted_cut_short() {
    let long = "x".repeat(100_000);
    for (args, said) in [
        (vec![long.as_str(), "--screenshot", "unused.png"], ""),
        (vec!["chess", "--screenshot", "unused.png", "--ply", &long], "--ply `xxxx"),
        (vec!["chess", "--screenshot", "unused.png", "--size", &long], "--size `xxxx"),
    ] {
        let (code, err) = run(&args);
        assert_ne!(code, Some(0), "{:?}", &args[..2]);
        let cut = err.contains("xxxx…") && err.contains(said);
        assert!(
            err.len() < 2_000 && cut && !err.contains("panicked"),
            "{}",
            &err[..err.len().min(300)]
        );
    }
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

#[test]
fn a_ply_past_the_end_of_the_timeline_is_an_error_that_gives_the_range() {
    let record = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/pgn/opera-game.pgn");
    let (code, err) = run(&[record, "--screenshot", "unused.png", "--ply", "500"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("--ply 500") && err.contains("steps 0 to 33"), "{err}");
    let (code, err) = run(&["chess", "--screenshot", "unused.png", "--ply", "1"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("only its start"), "{err}");
    assert!(!std::path::Path::new("unused.png").exists(), "nothing rendered");
}

#[test]
fn param_overrides_reach_the_checker_and_the_board() {
    let (code, err) = run(&["go", "--param", "size=banana", "--screenshot", "unused.png"]);
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("`size` takes a number"), "the checker judged the override: {err}");
    let (code, err) = run(&["go", "--param", "sise=9", "--screenshot", "unused.png"]);
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("no parameter `sise`"), "{err}");
    // A ruleset with errors: every one, rendered as `arbiter check` renders them.
    let broken = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/diagnostics/bad-item.rules");
    let (code, err) = run(&[broken, "--screenshot", "unused.png"]);
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("bad-item.rules:33:1") && err.contains("E0101"), "{err}");
    assert!(err.contains("^"), "the caret under the source: {err}");
    let (code, err) = run(&["go", "--param", "size", "--screenshot", "unused.png"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("expected NAME=VALUE"), "{err}");
    let record = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/pgn/opera-game.pgn");
    let (code, err) = run(&[record, "--param", "size=9", "--screenshot", "unused.png"]);
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("--param goes with a ruleset"), "{err}");

    // The board drawn has as many lines as the parameter says.
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("cli-param");
    std::fs::create_dir_all(&dir).expect("a folder for the pictures");
    let lines = |extra: &[&str], name: &str| {
        let out = dir.join(name);
        let (code, err) = run(&[&["go", "--screenshot", out.to_str().expect("UTF-8")], extra].concat());
        assert_eq!(code, Some(0), "{err}");
        let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(&out).expect("the picture")));
        let mut reader = decoder.read_info().expect("a PNG");
        let mut buf = vec![0; reader.output_buffer_size().expect("a size")];
        let info = reader.next_frame(&mut buf).expect("a frame");
        let channels = info.line_size / info.width as usize;
        let px = |x: usize, y: usize| &buf[y * info.line_size + x * channels..][..3];
        let all = || (0..info.height as usize).flat_map(|y| (0..info.width as usize).map(move |x| (x, y)));
        // The board: the box around its wood-coloured pixels; its vertical lines: the most runs of
        // dark pixels along one row of it.
        let wood: Vec<(usize, usize)> = all().filter(|&(x, y)| px(x, y)[0] > 180 && px(x, y)[2] < 150).collect();
        assert!(wood.len() > 100_000, "{name}: a board ({} wood pixels)", wood.len());
        let (x0, x1) = (
            wood.iter().map(|p| p.0).min().unwrap_or(0),
            wood.iter().map(|p| p.0).max().unwrap_or(0),
        );
        let (y0, y1) = (
            wood.iter().map(|p| p.1).min().unwrap_or(0),
            wood.iter().map(|p| p.1).max().unwrap_or(0),
        );
        (y0 + 20..y1.saturating_sub(20))
            .step_by(7)
            .map(|y| {
                let dark: Vec<bool> = (x0..=x1).map(|x| px(x, y).iter().all(|&c| c < 90)).collect();
                dark.windows(2).filter(|w| !w[0] && w[1]).count()
            })
            .max()
            .unwrap_or(0)
    };
    assert_eq!(lines(&[], "go19.png"), 19, "the ruleset's own size");
    assert_eq!(lines(&["--param", "size=9"], "go9.png"), 9, "--param size=9");
}

#[test]
fn moves_given_with_play_are_played_by_hand_and_a_refused_one_is_an_error_that_says_why() {
    let (code, err) = run(&["chess", "--play", "e2e4,e7e5,e1e3", "--screenshot", "unused.png"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("--play: move 3 (`e1e3`) is refused"), "{err}");
    let (code, err) = run(&["chess", "--play"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("--play needs moves"), "{err}");
    // A turn of two parts is one move, though its parts are separated by a comma too.
    let (code, err) = run(&["duck-chess", "--play", "e2e4,e4d5 e7e5,e5d4,e1e3", "--screenshot", "unused.png"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("--play: move 3 (`e1e3`) is refused"), "{err}");
    // A move without the part its turn needs is refused with the ruling that says so.
    let (code, err) = run(&["duck-chess", "--play", "e2e4", "--screenshot", "unused.png"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("move 1 (`e2e4`) is refused") && err.contains("turn-incomplete"),
        "{err}"
    );
    assert!(!std::path::Path::new("unused.png").exists(), "nothing rendered");
}

/// `--trace` writes a new file only: one that exists (a FIFO, a directory, an earlier trace) or a
/// folder that does not is refused at once with its name, before anything opens, and never waited
/// on; without a file name, the flag says what it needs.
#[test]
fn a_trace_file_that_cannot_be_new_is_refused_by_name() {
    let dir = scratch("trace");
    let existing = dir.join("old.txt");
    std::fs::write(&existing, "yesterday").expect("written");
    let fifo = dir.join("pipe");
    let made = Command::new("mkfifo").arg(&fifo).status().expect("mkfifo runs");
    assert!(made.success());
    for (path, says) in [
        (existing.clone(), "the file exists; nothing was overwritten"),
        (fifo.clone(), "a FIFO (named pipe) is there; nothing was overwritten"),
        (dir.clone(), "a directory is there; nothing was overwritten"),
        (dir.join("no/such/folder/t.txt"), "there is no folder"),
    ] {
        let shown = path.display().to_string();
        let (code, err) = run(&["chess", "--screenshot", "unused.png", "--trace", &shown]);
        assert_eq!(code, Some(2), "{shown}: {err}");
        assert!(err.contains(&format!("--trace {shown}")) && err.contains(says), "{shown}: {err}");
        assert!(!err.contains("panicked"), "{err}");
    }
    assert_eq!(
        std::fs::read_to_string(&existing).expect("still there"),
        "yesterday",
        "nothing overwritten"
    );
    let (code, err) = run(&["chess", "--trace"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("--trace needs a file name"), "{err}");
    // A run refused after the trace was made (nothing to open, a refused move) leaves no file.
    let fresh = dir.join("fresh.txt");
    let shown = fresh.display().to_string();
    for args in [
        &["no-such-game", "--screenshot", "unused.png", "--trace", &shown][..],
        &["chess", "--screenshot", "unused.png", "--play", "e2e5", "--trace", &shown],
    ] {
        let (code, err) = run(args);
        assert!(code == Some(1) || code == Some(2), "{args:?}: {err}");
        assert!(!fresh.exists(), "{args:?}: the trace file was left");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// An argument that is not UTF-8 (a legal file name) is refused by its place, never a panic.
#[test]
fn an_argument_that_is_not_utf8_is_refused_by_position() {
    use std::os::unix::ffi::OsStrExt;
    let out = Command::new(env!("CARGO_BIN_EXE_sandbox"))
        .args([
            std::ffi::OsStr::new("chess"),
            std::ffi::OsStr::new("--play"),
            std::ffi::OsStr::from_bytes(b"\xff"),
        ])
        .output()
        .expect("the sandbox binary runs");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("argument 3") && err.contains("is not UTF-8"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
}

/// `--screenshot` is checked before anything is rendered: a name that is not `.png` (an existing
/// photo is left as it was), a FIFO (which would wait forever), a folder, a missing folder.
#[test]
fn a_screenshot_path_that_cannot_take_a_png_is_refused_before_rendering() {
    let dir = scratch("shot");
    let photo = dir.join("photo.jpg");
    std::fs::write(&photo, "keep me").expect("written");
    let fifo = dir.join("pipe.png");
    let made = Command::new("mkfifo").arg(&fifo).status().expect("mkfifo runs");
    assert!(made.success());
    let folder = dir.join("folder.png");
    std::fs::create_dir_all(&folder).expect("a folder");
    for (path, says) in [
        (photo.clone(), "the picture is written as PNG; name a .png file"),
        (fifo.clone(), "a FIFO (named pipe) is there, not a file; nothing was written"),
        (folder.clone(), "a directory is there, not a file; nothing was written"),
        (dir.join("no/such/x.png"), "no folder"),
    ] {
        let shown = path.display().to_string();
        let began = std::time::Instant::now();
        let (code, err) = run(&["chess", "--screenshot", &shown]);
        assert_eq!(code, Some(2), "{shown}: {err}");
        assert!(
            err.contains(&format!("--screenshot {shown}")) && err.contains(says),
            "{shown}: {err}"
        );
        assert!(began.elapsed() < std::time::Duration::from_secs(20), "{shown}: not refused at once");
    }
    assert_eq!(std::fs::read_to_string(&photo).expect("still there"), "keep me");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A PGN without a `Variant` tag is standard chess, as the PGN standard reads it (not antichess,
/// which replays most chess games too); a `Variant` naming no bundled ruleset is refused.
#[test]
fn an_untagged_pgn_opens_as_chess_and_an_unknown_variant_is_refused() {
    let dir = scratch("variant");
    let plain = dir.join("plain.pgn");
    std::fs::write(&plain, "[Event \"x\"]\n\n1. e4 e5 2. Nf3 Nc6 *\n").expect("written");
    let opened = sandbox::session::source::open(Some(plain.to_str().expect("UTF-8"))).expect("opens");
    assert_eq!(opened.engine.rules().name, "Chess");
    assert_eq!(opened.timeline.len(), 5);
    let unknown = dir.join("unknown.pgn");
    std::fs::write(&unknown, "[Variant \"nosuch\"]\n\n1. e4 e5 *\n").expect("written");
    let refused = refused_to_open(&unknown);
    assert!(
        refused.contains("the record's Variant `nosuch` names no bundled ruleset"),
        "{refused}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// An SGF that no bundled ruleset replays because its parameters are out of every range that
/// declares them says so, naming the rulesets and their ranges, not another game's board.
#[test]
fn a_record_whose_parameters_no_ruleset_takes_names_their_ranges() {
    let dir = scratch("sgf");
    let big = dir.join("big.sgf");
    std::fs::write(&big, "(;GM[1]SZ[30];B[pd];W[dd])").expect("written");
    let refused = refused_to_open(&big);
    assert!(refused.contains("go: --param size=30: `size` must be in 2..25"), "{refused}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_seat_for_no_player_is_refused_with_the_players_named() {
    let (code, err) = run(&["rulesets/ludo.rules", "--screenshot", "unused.png", "--seat", "purple"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("--seat `purple`") && err.contains("red, blue, green, yellow"), "{err}");
    let (code, err) = run(&["rulesets/ludo.rules", "--seat"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("--seat needs a player's name"), "{err}");
}
