//! Runs the built binary with `--screenshot` and checks the pictures: the disc of each piece on its
//! square in its side's colour (flipped too), board lines, the river and palaces of xiangqi, go's star
//! points and stones, the panel's text. Offscreen always (no display needed; needs Vulkan's loader and
//! Mesa's software driver: Debian `libvulkan1 mesa-vulkan-drivers`), and in a real window under
//! `xvfb-run` when it is on PATH; in CI (`CI` set) a missing `xvfb-run` fails instead of skipping.
//! The pictures stay in `target/tmp/sandbox-shots/` until the next run.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

/// Colours the sandbox draws with (sRGB bytes of `board.rs`'s constants).
const BACKGROUND: [u8; 3] = [41, 43, 48];
const WHITE_PIECE: [u8; 3] = [245, 242, 235];
const BLACK_PIECE: [u8; 3] = [31, 31, 33];
const RED_PIECE: [u8; 3] = [204, 41, 36];
const INK: [u8; 3] = [26, 20, 15];

/// The board's square on screen: 640 pixels, centred 160 pixels right of the middle (the panel's half).
const BOARD: (usize, usize, usize, usize) = (480, 1120, 80, 720);
const CENTRE: (f32, f32) = (800.0, 400.0);

struct Shot {
    name: String,
    width: usize,
    height: usize,
    rgb: Vec<[u8; 3]>,
}

impl Shot {
    fn read(name: &str, path: &Path) -> Shot {
        let file = std::fs::File::open(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let mut reader = png::Decoder::new(std::io::BufReader::new(file)).read_info().expect("a PNG");
        let mut buf = vec![0; reader.output_buffer_size().expect("a size")];
        let info = reader.next_frame(&mut buf).expect("a frame");
        let channels = info.color_type.samples();
        assert_eq!(info.bit_depth, png::BitDepth::Eight);
        let rgb = buf[..info.buffer_size()].chunks(channels).map(|p| [p[0], p[1], p[2]]).collect();
        Shot {
            name: name.to_string(),
            width: info.width as usize,
            height: info.height as usize,
            rgb,
        }
    }

    /// Pixels of the rectangle `x0..x1` × `y0..y1` (pixels, y down).
    fn pixels(&self, (x0, x1, y0, y1): (usize, usize, usize, usize)) -> Vec<[u8; 3]> {
        (y0..y1).flat_map(|y| (x0..x1).map(move |x| self.rgb[y * self.width + x])).collect()
    }

    /// Pixels of `colour` (each channel within 8) in the rectangle.
    fn count(&self, area: (usize, usize, usize, usize), colour: [u8; 3]) -> usize {
        self.pixels(area).iter().filter(|p| near(**p, colour, 8)).count()
    }

    /// Pixels of ink in the rectangle: board lines and drawings, fully covered or mostly (a low red
    /// channel: only the ink, black pieces and the background outside the board have one).
    fn ink(&self, area: (usize, usize, usize, usize)) -> usize {
        self.pixels(area)
            .iter()
            .filter(|p| p[0] < 140 && !near(**p, BLACK_PIECE, 8))
            .count()
    }

    /// The discs of `colour` on a `width` × `height` board, as on-screen (column, row) pairs counted
    /// from the bottom-left. A disc is recognised by a 3 × 3 patch of its colour left of its centre,
    /// between the glyph and the rim.
    fn discs(&self, width: usize, height: usize, colour: [u8; 3]) -> Vec<(usize, usize)> {
        let cell = 640.0 / width.max(height) as f32;
        let mut found = Vec::new();
        for row in 0..height {
            for col in 0..width {
                let x = col as f32 - (width as f32 - 1.0) / 2.0 - 0.33;
                let y = row as f32 - (height as f32 - 1.0) / 2.0;
                if self.count(self.around(cell, (x, y), 1), colour) == 9 {
                    found.push((col, row));
                }
            }
        }
        found
    }

    /// The square of `r` pixels each way around a board position given in cells from the centre (y up).
    fn around(&self, cell: f32, (dx, dy): (f32, f32), r: usize) -> (usize, usize, usize, usize) {
        let x = (CENTRE.0 + dx * cell).round() as usize;
        let y = (CENTRE.1 - dy * cell).round() as usize;
        (x - r, x + r + 1, y - r, y + r + 1)
    }

    /// Checks shared by every picture: the size, a board that is not background, the panel's text.
    fn check_frame(&self) {
        let what = &self.name;
        assert_eq!((self.width, self.height), (1280, 800), "{what}: picture size");
        let board = self.pixels(BOARD);
        let background = board.iter().filter(|p| near(**p, BACKGROUND, 6)).count();
        assert!(
            background < board.len() / 5,
            "{what}: the board area is mostly background ({background} of {})",
            board.len()
        );
        let panel = self.pixels((12, 300, 16, 240));
        assert!(
            distinct(&panel) >= 4,
            "{what}: the panel shows no text ({} colours)",
            distinct(&panel)
        );
    }
}

fn near(p: [u8; 3], c: [u8; 3], tolerance: u8) -> bool {
    p.iter().zip(c).all(|(a, b)| a.abs_diff(b) <= tolerance)
}

fn distinct(px: &[[u8; 3]]) -> usize {
    px.iter().collect::<HashSet<_>>().len()
}

#[derive(Clone, Copy, PartialEq)]
enum Target {
    /// `--screenshot`: rendered into an image, no display.
    Offscreen,
    /// `--screenshot --window` under `xvfb-run -a`: a real window on a virtual X server.
    Xvfb,
}

/// Where the pictures go: kept after the run (overwritten by the next) for a person to look at.
fn shots_dir() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join("sandbox-shots");
        std::fs::create_dir_all(&d).expect("a folder for the pictures");
        d
    })
}

/// Runs the sandbox on `what` with `extra` arguments and reads the picture it saves.
fn shoot(what: &str, extra: &[&str], target: Target) -> Shot {
    let name = format!(
        "{}{}{}",
        what.rsplit('/').next().unwrap_or(what),
        extra.join(""),
        if target == Target::Xvfb { "-xvfb" } else { "" }
    );
    let out = shots_dir().join(format!("{}.png", name.replace(['.', ' '], "_")));
    let sandbox = env!("CARGO_BIN_EXE_sandbox");
    let mut cmd = match target {
        Target::Offscreen => {
            let mut c = Command::new(sandbox);
            c.env_remove("DISPLAY");
            c
        }
        Target::Xvfb => {
            let mut c = Command::new("xvfb-run");
            c.args(["-a", "-s", "-screen 0 1280x1024x24", sandbox]);
            c.arg("--window");
            c
        }
    };
    let output = cmd
        .arg(what)
        .arg("--screenshot")
        .arg(&out)
        .args(extra)
        .env("XDG_RUNTIME_DIR", std::env::temp_dir())
        .env_remove("WAYLAND_DISPLAY")
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("the sandbox binary runs");
    assert!(
        output.status.success(),
        "{name}: sandbox --screenshot exited with {}\n{}",
        output.status,
        String::from_utf8_lossy(&output.stderr)
    );
    Shot::read(&name, &out)
}

/// Shoots several pictures at once (each run is mostly waiting for the software renderer).
fn shoot_all(list: &[(&str, &[&str])], target: Target) -> Vec<Shot> {
    std::thread::scope(|s| {
        let runs: Vec<_> = list
            .iter()
            .map(|&(what, extra)| s.spawn(move || shoot(what, extra, target)))
            .collect();
        runs.into_iter().map(|r| r.join().expect("a shot")).collect()
    })
}

/// Every (column, row) of the rows `rows` of a board `width` wide.
fn rows(width: usize, rows: &[usize]) -> Vec<(usize, usize)> {
    rows.iter().flat_map(|&r| (0..width).map(move |c| (c, r))).collect()
}

/// Chess from the start: white discs on the two bottom rows and black on the two top rows, or the
/// other way round when flipped; nothing between.
fn check_chess(shot: &Shot, flipped: bool) {
    shot.check_frame();
    let what = &shot.name;
    let (near, far) = (rows(8, &[0, 1]), rows(8, &[6, 7]));
    let (white, black) = if flipped { (far, near) } else { (near, far) };
    assert_eq!(shot.discs(8, 8, WHITE_PIECE), white, "{what}: white discs (flipped: {flipped})");
    assert_eq!(shot.discs(8, 8, BLACK_PIECE), black, "{what}: black discs (flipped: {flipped})");
}

/// Xiangqi from the start: red below, black above; lines broken by the river; palace diagonals.
fn check_xiangqi(shot: &Shot) {
    shot.check_frame();
    let what = &shot.name;
    let red = shot.discs(9, 10, RED_PIECE);
    let black = shot.discs(9, 10, BLACK_PIECE);
    let setup = |back: usize, cannons: usize, soldiers: usize| {
        let mut v: Vec<(usize, usize)> = (0..9).map(|c| (c, back)).collect();
        v.extend([(1, cannons), (7, cannons)]);
        v.extend((0..9).step_by(2).map(|c| (c, soldiers)));
        v.sort_by_key(|&(c, r)| (r, c));
        v
    };
    assert_eq!(red, setup(0, 2, 3), "{what}: red discs");
    assert_eq!(black, setup(9, 7, 6), "{what}: black discs");
    let cell = 64.0; // 640 / 10 ranks
    // Positions in cells from the board's centre (files -4..4, ranks -4.5..4.5).
    let ink_at = |x: f32, y: f32| shot.ink(shot.around(cell, (x, y), 3));
    assert!(ink_at(-1.0, -2.0) > 4, "{what}: file d between ranks 3 and 4");
    assert_eq!(ink_at(-1.0, 0.0), 0, "{what}: the river interrupts the inner files");
    assert!(ink_at(-4.0, 0.0) > 4, "{what}: the outer files cross the river");
    assert!(ink_at(-0.5, -4.0) > 4, "{what}: the palace diagonal between d1 and e2");
    assert_eq!(ink_at(-2.5, -4.0), 0, "{what}: no diagonal outside the palace");
    assert!(ink_at(0.5, 4.0) > 4, "{what}: the other palace's diagonal between e9 and f10");
}

/// Go, 19 × 19, empty: lines everywhere and a dot on each of the nine star points only.
fn check_go_start(shot: &Shot) {
    shot.check_frame();
    let what = &shot.name;
    let cell = 640.0 / 19.0;
    let full_dot = |x: f32, y: f32| shot.count(shot.around(cell, (x, y), 1), INK) == 9;
    for x in [-6.0, 0.0, 6.0] {
        for y in [-6.0, 0.0, 6.0] {
            assert!(full_dot(x, y), "{what}: a star point at {x},{y} cells from the centre");
        }
    }
    assert!(!full_dot(-5.0, -5.0) && !full_dot(3.0, 1.0), "{what}: dots only on star points");
    let lines = shot.ink(BOARD);
    assert!(lines > 38 * 500, "{what}: 38 lines of 606 pixels: {lines} ink pixels");
}

/// Go, 9 × 9, after a recorded game: the record's stones of both colours and the lines between them.
fn check_go_game(shot: &Shot) {
    shot.check_frame();
    let what = &shot.name;
    let white = shot.discs(9, 9, WHITE_PIECE);
    let black = shot.discs(9, 9, BLACK_PIECE);
    // The position after `records/teaching-9x9.sgf`: black D1 (column 3, row 0), white E1.
    assert!(black.contains(&(3, 0)) && white.contains(&(4, 0)), "{what}: black D1, white E1");
    assert!(
        white.len() >= 8 && black.len() >= 8,
        "{what}: stones: {} white, {} black",
        white.len(),
        black.len()
    );
    assert!(shot.ink(BOARD) > 2000, "{what}: board lines between the stones");
}

fn chess() -> &'static Shot {
    static CHESS: OnceLock<Shot> = OnceLock::new();
    CHESS.get_or_init(|| shoot("chess", &[], Target::Offscreen))
}

const GO_GAME: &str = "../scenarios/go/sgf-record.ron";

#[test]
fn offscreen_pictures_of_chess_xiangqi_and_a_go_game_show_their_boards_and_pieces() {
    let shots = std::thread::scope(|s| {
        let others = s.spawn(|| shoot_all(&[("xiangqi", &[]), (GO_GAME, &["--ply", "1"])], Target::Offscreen));
        check_chess(chess(), false);
        others.join().expect("the other shots")
    });
    check_xiangqi(&shots[0]);
    check_go_game(&shots[1]);
}

#[test]
fn a_flipped_chess_picture_has_white_at_the_top_and_the_rank_names_turned() {
    let flipped = shoot("chess", &["--flip"], Target::Offscreen);
    check_chess(&flipped, true);
    let plain = chess();
    // The rank names stand left of the board; flipped, "1" is at the top where "8" was.
    let name = |shot: &Shot, rank_y: f32| shot.pixels(shot.around(80.0, (-4.3, rank_y), 12));
    let differ = |a: Vec<[u8; 3]>, b: Vec<[u8; 3]>| a.iter().zip(&b).filter(|(p, q)| !near(**p, **q, 24)).count();
    let (one, eight) = (-3.5, 3.5);
    assert_eq!(differ(name(&flipped, eight), name(plain, one)), 0, "flipped, the top name is 1");
    assert_eq!(differ(name(&flipped, one), name(plain, eight)), 0, "flipped, the bottom name is 8");
    assert!(differ(name(plain, one), name(plain, eight)) > 20, "1 and 8 look different");
}

fn in_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "0" && v != "false")
}

fn xvfb_run_exists() -> bool {
    std::env::var_os("PATH").is_some_and(|paths| std::env::split_paths(&paths).any(|d| d.join("xvfb-run").is_file()))
}

#[test]
fn windowed_pictures_under_xvfb_show_the_same_boards() {
    if !xvfb_run_exists() {
        assert!(
            !in_ci(),
            "CI is set but xvfb-run is not on PATH: install xvfb and xauth (.ci/run does)"
        );
        eprintln!("xvfb-run is not on PATH: the windowed screenshots were not taken");
        return;
    }
    let shots = shoot_all(&[("chess", &[]), ("xiangqi", &[]), ("go", &[])], Target::Xvfb);
    check_chess(&shots[0], false);
    check_xiangqi(&shots[1]);
    check_go_start(&shots[2]);
}
