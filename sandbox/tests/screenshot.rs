//! Runs the built binary with `--screenshot` and checks the pictures: the disc of each piece on its
//! square in its side's colour (flipped too), the board filling a small and a large picture, board
//! lines, the river and palaces of xiangqi, go's star points and stones, go's dead stones faded with
//! each point's owner, hex's rhombus of cells with its stones and coloured edges (flipped too), pieces
//! in hand beside a crazyhouse board, the path and jumped squares of a draughts capture, the panel's
//! text, a variation played by hand drawn as an indented, highlighted branch of the move list with
//! Promote and Delete live, the Simulate window's outcome bars and length histogram after a run, a
//! neutral piece on its disc with its glyph after a turn of two parts, a hole made in the board, a
//! triangle of hexes cut from the rhombus with the edges both players join. Offscreen always (no
//! display needed; needs Vulkan's loader and
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
const BLUE_PIECE: [u8; 3] = [46, 89, 204];
const HEX_CELL: [u8; 3] = [237, 217, 181];
const HAND_TRAY: [u8; 3] = [97, 92, 84];

/// The board's square on screen: 640 pixels, centred 160 pixels right of the middle (the panel's
/// half) and 20 above it (`layout::BOARD_LIFT`: the status pane's room under the names).
const BOARD: (usize, usize, usize, usize) = (480, 1120, 60, 700);
const CENTRE: (f32, f32) = (800.0, 380.0);

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
        self.discs_in(CENTRE, 640.0, width, height, colour)
    }

    /// The figurines of `colour` (filled in it, outlined in the other ink) on a `width` × `height`
    /// board, as (column, row) pairs from the bottom-left: a twentieth of the middle of the cell (two
    /// fifths of it each way) in that colour.
    fn figures(&self, width: usize, height: usize, colour: [u8; 3]) -> Vec<(usize, usize)> {
        self.figures_in(CENTRE, 640.0, width, height, colour)
    }

    /// [`Shot::figures`] for a board `span` pixels across centred at `centre`.
    fn figures_in(&self, centre: (f32, f32), span: f32, width: usize, height: usize, colour: [u8; 3]) -> Vec<(usize, usize)> {
        let cell = span / width.max(height) as f32;
        let r = (cell * 0.2) as usize;
        let mut found = Vec::new();
        for row in 0..height {
            for col in 0..width {
                let x = col as f32 - (width as f32 - 1.0) / 2.0;
                let y = row as f32 - (height as f32 - 1.0) / 2.0;
                let inked = self
                    .pixels(around_at(centre, cell, (x, y), r))
                    .iter()
                    .filter(|p| near(**p, colour, 3))
                    .count();
                if inked * 20 >= (2 * r + 1) * (2 * r + 1) {
                    found.push((col, row));
                }
            }
        }
        found
    }

    /// [`Shot::discs`] for a board `span` pixels across centred at `centre`.
    fn discs_in(&self, centre: (f32, f32), span: f32, width: usize, height: usize, colour: [u8; 3]) -> Vec<(usize, usize)> {
        let cell = span / width.max(height) as f32;
        let mut found = Vec::new();
        for row in 0..height {
            for col in 0..width {
                let x = col as f32 - (width as f32 - 1.0) / 2.0 - 0.33;
                let y = row as f32 - (height as f32 - 1.0) / 2.0;
                if self.count(around_at(centre, cell, (x, y), 1), colour) == 9 {
                    found.push((col, row));
                }
            }
        }
        found
    }

    /// Where a square board stands in a default-size picture: its centre and span. By default
    /// [`CENTRE`] and 640 pixels; where the status pane had more to say than fits under the
    /// names, the board rose and shrank to four fifths of the height left above the room kept
    /// for the pane (`layout::Below`), so its top edge (the first pixel that is not background
    /// down the middle of the board's column) gives both: top = a tenth of the height left, less
    /// the 20-pixel lift.
    fn board(&self) -> ((f32, f32), f32) {
        assert_eq!((self.width, self.height), (1280, 800), "{}: a default-size picture", self.name);
        let x = CENTRE.0 as usize;
        let top = (0..self.height)
            .find(|&y| !near(self.rgb[y * self.width + x], BACKGROUND, 6))
            .unwrap_or(60) as f32;
        let left = (top + sandbox::board::layout::BOARD_LIFT) * 10.0;
        assert!(left <= 800.5, "{}: a board whose top is at {top}", self.name);
        ((CENTRE.0, left / 2.0 - sandbox::board::layout::BOARD_LIFT), left * 0.8)
    }

    /// The square of `r` pixels each way around a board position given in cells from the centre (y up).
    fn around(&self, cell: f32, at: (f32, f32), r: usize) -> (usize, usize, usize, usize) {
        around_at(CENTRE, cell, at, r)
    }

    /// Checks shared by every picture of a rectangular board: the size, the panel's text, a board that
    /// is not background.
    fn check_frame(&self) {
        self.check_panel();
        let what = &self.name;
        let ((x, y), span) = self.board();
        let half = span / 2.0;
        let board = self.pixels(((x - half) as usize, (x + half) as usize, (y - half) as usize, (y + half) as usize));
        let background = board.iter().filter(|p| near(**p, BACKGROUND, 6)).count();
        assert!(
            background < board.len() / 5,
            "{what}: the board area is mostly background ({background} of {})",
            board.len()
        );
    }

    /// The picture's size and the panel's text.
    fn check_panel(&self) {
        let what = &self.name;
        assert_eq!((self.width, self.height), (1280, 800), "{what}: picture size");
        self.check_panel_text();
    }

    /// The panel's text, at any picture size.
    fn check_panel_text(&self) {
        let what = &self.name;
        let panel = self.pixels((12, 300, 16, 240));
        assert!(
            distinct(&panel) >= 4,
            "{what}: the panel shows no text ({} colours)",
            distinct(&panel)
        );
    }
}

/// The square of `r` pixels each way around a position given in cells (y up) from `centre` (pixels).
fn around_at(centre: (f32, f32), cell: f32, (dx, dy): (f32, f32), r: usize) -> (usize, usize, usize, usize) {
    let x = (centre.0 + dx * cell).round() as usize;
    let y = (centre.1 - dy * cell).round() as usize;
    (x - r, x + r + 1, y - r, y + r + 1)
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

/// Chess from the start: white figurines on the two bottom rows and black on the two top rows, or
/// the other way round when flipped; nothing between; no discs (figurines stand on no disc).
fn check_chess(shot: &Shot, flipped: bool) {
    shot.check_frame();
    let what = &shot.name;
    let (near, far) = (rows(8, &[0, 1]), rows(8, &[6, 7]));
    let (white, black) = if flipped { (far, near) } else { (near, far) };
    assert_eq!(shot.figures(8, 8, WHITE_PIECE), white, "{what}: white figures (flipped: {flipped})");
    assert_eq!(shot.figures(8, 8, BLACK_PIECE), black, "{what}: black figures (flipped: {flipped})");
    assert!(shot.discs(8, 8, WHITE_PIECE).is_empty(), "{what}: no white discs");
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
    // The position after `records/teaching-9x9.sgf`: black D1 (column 3, row 0), white E1. The
    // outcome, the count and the step's expectations fill the status pane: the board rose above it.
    let (centre, span) = shot.board();
    assert!(span < 640.0, "{what}: the board made room for the status pane ({span})");
    let white = shot.discs_in(centre, span, 9, 9, WHITE_PIECE);
    let black = shot.discs_in(centre, span, 9, 9, BLACK_PIECE);
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
        let others = s.spawn(|| {
            shoot_all(
                &[
                    ("xiangqi", &[]),
                    (GO_GAME, &["--ply", "1"]),
                    ("../scenarios/go/dead-stones.ron", &["--ply", "2"]),
                ],
                Target::Offscreen,
            )
        });
        check_chess(chess(), false);
        others.join().expect("the other shots")
    });
    check_xiangqi(&shots[0]);
    check_go_game(&shots[1]);
    check_dead_stones(&shots[2]);
}

/// The 5 × 5 game of `dead-stones.ron` at the step that marks the white stone on A3 dead: that stone
/// faded (no longer white), a black owner's square on it, and white's owner squares on the empty E file.
fn check_dead_stones(shot: &Shot) {
    shot.check_frame();
    let what = &shot.name;
    // The step's count and expectations fill the status pane: the board rose above it.
    let (centre, span) = shot.board();
    let cell = span / 5.0;
    // A3 is column 0, row 2: two cells left of the centre.
    let disc = around_at(centre, cell, (-2.0 - 0.33, 0.0), 1);
    assert_eq!(shot.count(disc, WHITE_PIECE), 0, "{what}: the dead white stone is faded");
    assert_eq!(
        shot.count(around_at(centre, cell, (-2.0, 0.0), 3), BLACK_PIECE),
        49,
        "{what}: black owns A3"
    );
    for row in [-2.0, -1.0, 0.0, 1.0, 2.0] {
        let centre = around_at(centre, cell, (2.0, row), 3);
        assert_eq!(shot.count(centre, WHITE_PIECE), 49, "{what}: white owns E{}", row + 3.0);
    }
    // A living stone carries no owner's square: B3's black disc is black right up to its centre.
    assert_eq!(shot.count(around_at(centre, cell, (-1.0, 0.0), 3), BLACK_PIECE), 49);
    // Nor does the living white stone on D3: no black square at its centre.
    assert_eq!(
        shot.count(around_at(centre, cell, (1.0, 0.0), 3), BLACK_PIECE),
        0,
        "{what}: no square on D3"
    );
}

/// A scenario written for a picture: `ruleset` from `start` (a FEN, or the setup when empty), then
/// one step playing `moves`; shown at that step with `--ply 1`.
fn scenario(name: &str, ruleset: &str, start: &str, moves: &[&str]) -> String {
    let start = if start.is_empty() {
        String::new()
    } else {
        format!("    start: Fen({start:?}),\n")
    };
    let line: Vec<String> = moves.iter().map(|m| format!("{m:?}")).collect();
    let text = format!(
        "(\n    title: {name:?},\n    ruleset: {ruleset:?},\n{start}    steps: [(caption: \"The moves.\", do: Line([{}]))],\n)\n",
        line.join(", ")
    );
    let path = shots_dir().join(format!("{name}.ron"));
    std::fs::write(&path, text).expect("the scenario is written");
    path.to_str().expect("a UTF-8 path").to_string()
}

/// The on-screen pixel of hex cell (f, r) on the 11 × 11 board, and the cell's width: the rhombus
/// is 16 cells across the 640-pixel span, centred on the board's centre.
fn hex_centre(f: usize, r: usize, flipped: bool) -> ((f32, f32), f32) {
    let w = 640.0 / 16.0;
    let (dx, dy) = ((f as f32 + r as f32 / 2.0 - 7.5) * w, (r as f32 - 5.0) * 0.866_025_4 * w);
    let (dx, dy) = if flipped { (-dx, -dy) } else { (dx, dy) };
    ((CENTRE.0 + dx, CENTRE.1 - dy), w)
}

/// The 3 × 3 pixels around a screen position.
fn patch((x, y): (f32, f32)) -> (usize, usize, usize, usize) {
    let (x, y) = (x.round() as usize, y.round() as usize);
    (x - 1, x + 2, y - 1, y + 2)
}

/// Hex after a1, k11, f6, e7: red stones on a1 and f6, blue on k11 and e7, every other cell empty;
/// a rhombus, not a rectangle; red bands along ranks 1 and 11, blue along files a and k.
fn check_hex(shot: &Shot, flipped: bool) {
    shot.check_panel();
    let what = &shot.name;
    let stones = [
        ((0, 0), RED_PIECE),
        ((5, 5), RED_PIECE),
        ((10, 10), BLUE_PIECE),
        ((4, 6), BLUE_PIECE),
    ];
    for f in 0..11 {
        for r in 0..11 {
            let (at, _) = hex_centre(f, r, flipped);
            let want = stones.iter().find(|(c, _)| *c == (f, r)).map_or(HEX_CELL, |s| s.1);
            assert_eq!(shot.count(patch(at), want), 9, "{what}: cell ({f}, {r}) (flipped: {flipped})");
        }
    }
    // Outside the rhombus, inside its bounding box: background at two corners.
    let ((a1x, _), _) = hex_centre(0, 0, flipped);
    let ((_, a11y), _) = hex_centre(0, 10, flipped);
    let ((k11x, _), _) = hex_centre(10, 10, flipped);
    let ((_, k1y), _) = hex_centre(10, 0, flipped);
    assert_eq!(
        shot.count(patch((a1x, a11y)), BACKGROUND),
        9,
        "{what}: no cell above a1 at rank 11's height"
    );
    assert_eq!(
        shot.count(patch((k11x, k1y)), BACKGROUND),
        9,
        "{what}: no cell below k11 at rank 1's height"
    );
    // Ink between two neighbours: halfway from c3 to d3.
    let ((cx, cy), _) = hex_centre(2, 2, flipped);
    let ((dx, _), _) = hex_centre(3, 2, flipped);
    let mid = ((cx + dx) / 2.0).round() as usize;
    let strip = shot.pixels((mid - 3, mid + 4, cy as usize - 1, cy as usize + 2));
    assert!(strip.iter().filter(|p| p[0] < 160).count() >= 6, "{what}: a line between c3 and d3");
    // The bands: a bit more than half a cell out from the outer cells, down from rank 1 (red) and
    // left from file a (blue) — the other way round when flipped.
    let s = if flipped { -1.0 } else { 1.0 };
    for i in 1..10 {
        let ((x, y), w) = hex_centre(i, 0, flipped);
        let below = (x - s * 0.3 * w, y + s * 0.52 * w);
        assert!(shot.count(patch(below), RED_PIECE) >= 6, "{what}: red band below {i},0");
        let ((x, y), w) = hex_centre(0, i, flipped);
        let left = (x - s * 0.6 * w, y);
        assert!(shot.count(patch(left), BLUE_PIECE) >= 6, "{what}: blue band left of 0,{i}");
        let ((x, y), w) = hex_centre(10, i, flipped);
        let right = (x + s * 0.6 * w, y);
        assert!(shot.count(patch(right), BLUE_PIECE) >= 6, "{what}: blue band right of 10,{i}");
    }
}

/// Crazyhouse after N@e3 with two white pawns, a black queen and a black bishop in hand: the hands
/// right of the board (white's below, black's above), each slot of a kind in the ruleset's order
/// (queen, rook, bishop, knight, pawn), empty slots showing the tray; the dropped knight on e3.
fn check_crazyhouse(shot: &Shot) {
    shot.check_frame();
    let what = &shot.name;
    // Where the board stands (it rises above a status pane with more to say than fits).
    let (centre, span) = shot.board();
    // The hand's pitch: a cell, at most 64 pixels (`layout::HAND_PITCH`).
    let pitch = (span / 8.0).min(64.0);
    // Slot i: 0.8 pitch right of the board's edge, (i + 0.5) pitches in from the top or bottom edge.
    let slot = |bottom: bool, i: usize| {
        let x = centre.0 + span / 2.0 + 0.8 * pitch;
        let y = if bottom {
            centre.1 + span / 2.0 - (i as f32 + 0.5) * pitch
        } else {
            centre.1 - span / 2.0 + (i as f32 + 0.5) * pitch
        };
        (x, y)
    };
    // A figurine in a slot: a twentieth of the box round its middle in the player's colour.
    let figure = |(x, y): (f32, f32), colour: [u8; 3]| {
        let px = shot.pixels(((x - 10.0) as usize, (x + 11.0) as usize, (y - 10.0) as usize, (y + 11.0) as usize));
        px.iter().filter(|p| near(**p, colour, 3)).count() * 20 >= px.len()
    };
    assert!(figure(slot(true, 4), WHITE_PIECE), "{what}: white's pawns in hand");
    assert!(figure(slot(false, 0), BLACK_PIECE), "{what}: black's queen in hand");
    assert!(figure(slot(false, 2), BLACK_PIECE), "{what}: black's bishop in hand");
    for i in [0, 1, 2, 3] {
        assert_eq!(
            shot.count(patch(slot(true, i)), HAND_TRAY),
            9,
            "{what}: white holds nothing in slot {i}"
        );
    }
    for i in [1, 3, 4] {
        assert_eq!(
            shot.count(patch(slot(false, i)), HAND_TRAY),
            9,
            "{what}: black holds nothing in slot {i}"
        );
    }
    // The count beside white's pawns: light text on the tray.
    let (x, y) = slot(true, 4);
    let count = shot.pixels(((x + 32.0) as usize, (x + 56.0) as usize, (y - 2.0) as usize, (y + 26.0) as usize));
    assert!(
        count.iter().filter(|p| p.iter().all(|&c| c > 170)).count() > 10,
        "{what}: a count beside the pawns"
    );
    assert!(
        shot.figures_in(centre, span, 8, 8, WHITE_PIECE).contains(&(4, 2)),
        "{what}: the knight dropped on e3"
    );
}

/// Draughts after c3e5g7: black's man on g7, the jumped squares d4 and f6 empty but crossed in red,
/// the path drawn in green along the legs; white's king on h8: a disc with a crown on it, and no
/// ring (the mark of the last piece placed).
fn check_draughts(shot: &Shot) {
    shot.check_frame();
    let what = &shot.name;
    let sq = |col: usize, row: usize| (CENTRE.0 + (col as f32 - 3.5) * 80.0, CENTRE.1 - (row as f32 - 3.5) * 80.0);
    let green = |p: &[u8; 3]| p[1] as i32 > p[0] as i32 + 40 && p[1] as i32 > p[2] as i32 + 40;
    let red = |p: &[u8; 3]| p[0] as i32 > p[1] as i32 + 80 && p[0] as i32 > p[2] as i32 + 80;
    let count = |at: (f32, f32), f: &dyn Fn(&[u8; 3]) -> bool| shot.pixels(patch(at)).iter().filter(|p| f(p)).count();
    // A quarter of the way along each leg (c3→e5, e5→g7), and past g7: green only on the legs.
    for ((c0, r0), (c1, r1)) in [((2, 2), (4, 4)), ((4, 4), (6, 6))] {
        let ((x0, y0), (x1, y1)) = (sq(c0, r0), sq(c1, r1));
        let quarter = (x0 + (x1 - x0) * 0.25, y0 + (y1 - y0) * 0.25);
        assert_eq!(count(quarter, &green), 9, "{what}: the leg from ({c0},{r0}) to ({c1},{r1})");
    }
    let (bx, by) = sq(1, 1);
    assert_eq!(count((bx + 40.0, by - 40.0), &green), 0, "{what}: no path before c3");
    // The crosses: on the arm across the path.
    for (c, r) in [(3, 3), (5, 5)] {
        let (x, y) = sq(c, r);
        assert_eq!(count((x - 9.0, y - 9.0), &red), 9, "{what}: a cross on ({c},{r})");
    }
    assert!(shot.discs(8, 8, BLACK_PIECE).contains(&(6, 6)), "{what}: the man on g7");
    assert_eq!(
        count(sq(3, 3), &|p| near(*p, BLACK_PIECE, 8) || near(*p, WHITE_PIECE, 8)),
        0,
        "{what}: d4 is empty"
    );
    let (hx, hy) = sq(7, 7);
    assert_eq!(shot.count(patch((hx - 0.3 * 80.0, hy)), WHITE_PIECE), 9, "{what}: the king's disc");
    let crown = shot.pixels((
        (hx - 10.0) as usize,
        (hx + 11.0) as usize,
        (hy - 10.0) as usize,
        (hy + 11.0) as usize,
    ));
    assert!(crown.iter().filter(|p| near(**p, INK, 30)).count() > 20, "{what}: the king's crown");
    assert_eq!(shot.count(patch((hx - 0.235 * 80.0, hy)), INK), 0, "{what}: no ring on the king");
}

#[test]
fn offscreen_pictures_of_hex_crazyhouse_and_draughts_show_cells_hands_and_jumps() {
    let hex = scenario("hex-stones", "hex", "", &["a1", "k11", "f6", "e7"]);
    let crazyhouse = scenario(
        "crazyhouse-hands",
        "crazyhouse",
        "r1bqkb1r/pppp1ppp/2n2n2/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R[PPNbq] w KQkq - 0 5",
        &["N@e3"],
    );
    let draughts = scenario("draughts-double-jump", "draughts", "7k/8/5m2/8/3m4/2M5/8/8 b - - 0 1", &["c3e5g7"]);
    let ply: &[&str] = &["--ply", "1"];
    let flipped: &[&str] = &["--ply", "1", "--flip"];
    let shots = shoot_all(
        &[(&hex, ply), (&hex, flipped), (&crazyhouse, ply), (&draughts, ply)],
        Target::Offscreen,
    );
    check_hex(&shots[0], false);
    check_hex(&shots[1], true);
    check_crazyhouse(&shots[2]);
    check_draughts(&shots[3]);
}

/// A neutral piece's disc, a hole, the band along an edge both players join (`board.rs`).
const NEUTRAL: [u8; 3] = [250, 204, 56];
const HOLE: [u8; 3] = BACKGROUND;
const SHARED_EDGE: [u8; 3] = [140, 158, 179];
const LIGHT_SQUARE: [u8; 3] = [237, 217, 181];

/// Duck chess after e2e4 with the duck put on d5: the duck on its own disc on d5 with its glyph
/// drawn (ink inside the disc, not an empty disc), the pawn on e4, nothing on e2.
fn check_duck(shot: &Shot) {
    shot.check_frame();
    let what = &shot.name;
    assert_eq!(shot.discs(8, 8, NEUTRAL), [(3, 4)], "{what}: the duck on d5, alone of its colour");
    let mut white = rows(8, &[0, 1]);
    white.retain(|&sq| sq != (4, 1));
    white.insert(8 + 7, (4, 3));
    assert_eq!(shot.figures(8, 8, WHITE_PIECE), white, "{what}: the pawn moved to e4");
    assert_eq!(shot.figures(8, 8, BLACK_PIECE), rows(8, &[6, 7]), "{what}: black untouched");
    // The glyph: dark strokes in the middle of the disc (d5 is 0.5 cell left of the centre, 0.5 up).
    // Within the disc's rim (the disc is 0.42 cells across, the square 0.25 each way).
    let middle = shot.around(80.0, (-0.5, 0.5), 20);
    let strokes = shot.pixels(middle).iter().filter(|p| p.iter().all(|&c| c < 120)).count();
    assert!(
        strokes > 40,
        "{what}: the duck's glyph drawn in ink on its disc ({strokes} dark pixels)"
    );
}

/// Isolation after c1c2 with a hole made on a3: the hole is a square of the background's colour
/// over most of a3; an empty square (e1) is plain board.
fn check_isolation(shot: &Shot) {
    shot.check_panel();
    let what = &shot.name;
    let cell = 80.0;
    // a3: column 0 of 6, row 2 of 8 → (-2.5, -1.5) cells from the centre.
    assert_eq!(
        shot.count(shot.around(cell, (-2.5, -1.5), 30), HOLE),
        61 * 61,
        "{what}: a hole on a3"
    );
    assert_eq!(
        shot.count(shot.around(cell, (1.5, -3.5), 3), LIGHT_SQUARE),
        49,
        "{what}: e1 is board"
    );
    assert_eq!(
        shot.discs_in(CENTRE, 640.0, 6, 8, WHITE_PIECE),
        [(2, 1)],
        "{what}: the white piece on c2"
    );
}

/// The centre of Y's cell (f, r) on the 19-cell triangle, and the cell's width: the triangle's
/// box (19 cells across, 9 √3 + 2/√3 cells high) fills the 640-pixel span, centred.
fn y_centre(f: usize, r: usize) -> ((f32, f32), f32) {
    let w = 640.0 / 19.0;
    let (dx, dy) = ((f as f32 + r as f32 / 2.0 - 9.0) * w, (r as f32 - 9.0) * 0.866_025_4 * w);
    ((CENTRE.0 + dx, CENTRE.1 - dy), w)
}

/// Y after a1, j5, s1, a19: a triangle of cells — each cell of the triangle drawn (with its stone
/// where one was placed), each square of the grid beyond it not drawn (background) — with the
/// band along each side in the colour of an edge both players join.
fn check_y(shot: &Shot) {
    shot.check_panel();
    let what = &shot.name;
    let stones = [
        ((0, 0), WHITE_PIECE),
        ((9, 4), BLACK_PIECE),
        ((18, 0), WHITE_PIECE),
        ((0, 18), BLACK_PIECE),
    ];
    let mut holes = 0;
    for f in 0..19 {
        for r in 0..19 {
            let (at, _) = y_centre(f, r);
            let want = if f + r > 18 {
                // Squares of the grid beyond the triangle, as far as the board's span reaches.
                if !(BOARD.0 as f32..BOARD.1 as f32).contains(&at.0) {
                    continue;
                }
                holes += 1;
                HOLE
            } else {
                stones.iter().find(|(c, _)| *c == (f, r)).map_or(HEX_CELL, |s| s.1)
            };
            assert_eq!(shot.count(patch(at), want), 9, "{what}: cell ({f}, {r})");
        }
    }
    assert!(holes > 50, "{what}: {holes} squares beyond the triangle looked at");
    // The bands: just outside the middle of the bottom row's lower sides, the left column's left
    // sides and the slanting side's outer sides.
    let out = |(f, r): (usize, usize), (dx, dy): (f32, f32)| {
        let ((x, y), w) = y_centre(f, r);
        let len = (dx * dx + dy * dy).sqrt();
        let d = 0.5 * w + 4.0;
        (x + dx / len * d, y - dy / len * d)
    };
    for i in 2..16 {
        for (cell, towards) in [((i, 0), (-0.5, -0.866)), ((0, i), (-1.0, 0.0)), ((18 - i, i), (1.0, 0.0))] {
            assert!(
                shot.count(patch(out(cell, towards)), SHARED_EDGE) >= 6,
                "{what}: a band outside cell {cell:?} towards {towards:?}"
            );
        }
    }
}

#[test]
fn offscreen_pictures_of_a_turn_with_a_neutral_piece_a_hole_and_a_triangle_of_hexes() {
    let duck = scenario("duck-turn", "duck-chess", "", &["e2e4,e4d5"]);
    let isolation = scenario("isolation-hole", "isolation", "", &["c1c2,c2a3"]);
    let ply: &[&str] = &["--ply", "1"];
    let shots = shoot_all(
        &[(&duck, ply), (&isolation, ply), ("y", &["--play", "a1,j5,s1,a19"])],
        Target::Offscreen,
    );
    check_duck(&shots[0]);
    check_isolation(&shots[1]);
    check_y(&shots[2]);
}

/// The coordinate names' colour (`board.rs`'s LABEL).
const LABEL: [u8; 3] = [217, 217, 217];

#[test]
fn the_board_fills_a_small_and_a_large_window_beside_the_panel_with_every_name_in_the_picture() {
    let shots = shoot_all(
        &[("chess", &["--size", "900x560"]), ("chess", &["--size", "1600x1000"])],
        Target::Offscreen,
    );
    for (shot, (w, h)) in shots.iter().zip([(900usize, 560usize), (1600, 1000)]) {
        let what = &shot.name;
        assert_eq!((shot.width, shot.height), (w, h), "{what}: picture size");
        // The board fills the space right of the 320-pixel panel: two thirds of its width or four
        // fifths of the height, whichever is less; centred in that space.
        let span = ((w as f32 - 320.0) * 2.0 / 3.0).min(h as f32 * 0.8);
        let centre = ((w as f32 + 320.0) / 2.0, h as f32 / 2.0 - sandbox::board::layout::BOARD_LIFT);
        assert_eq!(
            shot.figures_in(centre, span, 8, 8, WHITE_PIECE),
            rows(8, &[0, 1]),
            "{what}: white figures"
        );
        assert_eq!(
            shot.figures_in(centre, span, 8, 8, BLACK_PIECE),
            rows(8, &[6, 7]),
            "{what}: black figures"
        );
        // The file names below the board and the rank names left of it are drawn inside the
        // picture, at a size that grows with the board (more label pixels on the larger board).
        let cell = span / 8.0;
        let (left, right) = ((centre.0 - span / 2.0) as usize, (centre.0 + span / 2.0) as usize);
        let below = ((centre.1 + span / 2.0) as usize, ((centre.1 + span / 2.0 + cell) as usize).min(h));
        let files = shot.count((left, right, below.0, below.1), LABEL);
        let beside = (((centre.0 - span / 2.0 - cell) as usize).max(320), left);
        let ranks = shot.count(
            (
                beside.0,
                beside.1,
                (centre.1 - span / 2.0) as usize,
                (centre.1 + span / 2.0) as usize,
            ),
            LABEL,
        );
        assert!(
            files > 8 * 10 && ranks > 8 * 10,
            "{what}: file names ({files} px) and rank names ({ranks} px)"
        );
        shot.check_panel_text();
    }
    let [small, large] = [&shots[0], &shots[1]];
    let ink = |s: &Shot| s.count((320, s.width, 0, s.height), LABEL);
    assert!(ink(large) > ink(small), "the names grow with the board, re-laid out, not clipped");
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

/// The Simulate window's colours (sRGB bytes of `sim_window.rs`'s constants).
const FIRST_WINS: [u8; 3] = [86, 156, 230];
const SECOND_WINS: [u8; 3] = [232, 116, 72];
const DRAWS: [u8; 3] = [150, 150, 160];
const LENGTHS: [u8; 3] = [72, 190, 160];
/// Where the window stands: at the right edge, beside the board (`sim_window::ROOM` wide).
const SIM_WINDOW: (usize, usize, usize, usize) = (810, 1280, 0, 800);

#[test]
fn an_offscreen_picture_of_a_simulation_shows_the_outcome_bars_and_the_length_histogram() {
    let shot = shoot("tic-tac-toe", &["--simulate", "300"], Target::Offscreen);
    shot.check_panel();
    let what = &shot.name;
    // Random noughts and crosses: the first player wins about 58%, the second 29%, 13% drawn
    // (no game is cut), so three bars of different heights and a histogram over 5 to 9 plies.
    let bar = |c| shot.count(SIM_WINDOW, c);
    let (first, second, draws, lengths) = (bar(FIRST_WINS), bar(SECOND_WINS), bar(DRAWS), bar(LENGTHS));
    assert!(first > 1500, "{what}: the first side's bar: {first} pixels");
    assert!(second > 600, "{what}: the second side's bar: {second} pixels");
    assert!(draws > 150, "{what}: the draws' bar: {draws} pixels");
    assert!(first > second && second > draws, "{what}: bars {first} > {second} > {draws} pixels");
    assert!(lengths > 1500, "{what}: the length histogram: {lengths} pixels");
    // The bars stand in the window, not on the board's left: nothing of them left of it.
    assert_eq!(shot.count((0, 320, 0, 800), FIRST_WINS), 0, "{what}: no bar under the side panel");
    // The window stands beside the board at the right edge, the board moved left to make room:
    // every cell of the board between the panel and the window, none under the window.
    let left_edge = 1280 - sandbox::panel::sim_window::ROOM as usize;
    let (bars, _, _, _) = shot.bounds(SIM_WINDOW, FIRST_WINS).expect("the first side's bar");
    assert!(bars > left_edge, "{what}: the window right of {left_edge} (bar at {bars})");
    assert_eq!(
        shot.count((left_edge, 1280, 0, 800), HEX_CELL),
        0,
        "{what}: no cell under the window"
    );
    assert!(
        shot.count((320, left_edge, 0, 800), HEX_CELL) > 9 * 80 * 80,
        "{what}: the nine cells beside it"
    );
}

/// egui's fill of a selected entry (the current move in the list).
const SELECTION: [u8; 3] = [0, 92, 128];
/// The move list's part of the panel (the opera game's three-line title above it), and the row of
/// Promote and Delete under it, in a 1280 × 800 picture.
const MOVE_LIST: (usize, usize, usize, usize) = (0, 320, 177, 326);
const BRANCH_BUTTONS: (usize, usize, usize, usize) = (0, 125, 330, 352);

impl Shot {
    /// The smallest rectangle holding every pixel of `colour` in `area`, if any.
    fn bounds(&self, (x0, x1, y0, y1): (usize, usize, usize, usize), colour: [u8; 3]) -> Option<(usize, usize, usize, usize)> {
        let hits: Vec<(usize, usize)> = (y0..y1)
            .flat_map(|y| (x0..x1).map(move |x| (x, y)))
            .filter(|&(x, y)| near(self.rgb[y * self.width + x], colour, 8))
            .collect();
        let xs = hits.iter().map(|p| p.0);
        let ys = hits.iter().map(|p| p.1);
        Some((xs.clone().min()?, xs.max()?, ys.clone().min()?, ys.max()?))
    }

    /// The lines of bright text in `area`, top to bottom: each line's rows and the leftmost bright
    /// pixel on any of them (the panel's text is light grey on near-black; greyed and weak text is
    /// dimmer).
    fn text_lines(&self, (x0, x1, y0, y1): (usize, usize, usize, usize)) -> Vec<((usize, usize), usize)> {
        let bright = |p: [u8; 3]| p.iter().all(|&c| c > 130);
        let mut lines: Vec<((usize, usize), usize)> = Vec::new();
        for y in y0..y1 {
            let Some(left) = (x0..x1).find(|&x| bright(self.rgb[y * self.width + x])) else {
                continue;
            };
            match lines.last_mut() {
                Some(((_, end), min)) if *end + 1 == y => {
                    *end = y;
                    *min = (*min).min(left);
                }
                _ => lines.push(((y, y), left)),
            }
        }
        lines
    }
}

#[test]
fn a_move_played_by_hand_from_an_earlier_position_is_drawn_as_a_branch_in_the_move_list() {
    let record = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/pgn/opera-game.pgn");
    // At step 2 (after 1. e4 e5) the record goes on 2. Nf3; 2. Nc3 Nc6 played by hand instead start
    // a variation, and the position is its last move.
    let shots = shoot_all(
        &[(record, &["--ply", "2"]), (record, &["--ply", "2", "--play", "b1c3,b8c6"])],
        Target::Offscreen,
    );
    let [plain, branch] = [&shots[0], &shots[1]];
    for shot in [plain, branch] {
        shot.check_frame();
    }
    let what = &branch.name;
    // The current move's highlight: on the main line's first row without the branch (1... e5);
    // with it, two rows lower (the variation's row, after 2. Nf3) and indented.
    let here = plain.bounds(MOVE_LIST, SELECTION).expect("the current move is highlighted");
    let there = branch.bounds(MOVE_LIST, SELECTION).expect("the current move is highlighted");
    assert!(
        there.2 >= here.2 + 2 * 18,
        "{what}: the highlight two rows lower: {here:?} → {there:?}"
    );
    assert!(there.0 >= here.0 + 14, "{what}: and indented: {here:?} → {there:?}");
    // Every line of the main line starts at the same place; the variation's line, further right.
    let starts = |s: &Shot| s.text_lines(MOVE_LIST).iter().map(|l| l.1).collect::<Vec<_>>();
    let main = *starts(plain).iter().min().expect("lines in the list");
    assert!(
        starts(plain).iter().all(|&x| x == main),
        "{}: the main line's rows align: {:?}",
        plain.name,
        starts(plain)
    );
    let indented: Vec<_> = branch.text_lines(MOVE_LIST).into_iter().filter(|l| l.1 >= main + 10).collect();
    assert_eq!(
        indented.len(),
        1,
        "{what}: one indented line, the variation's: {:?}",
        branch.text_lines(MOVE_LIST)
    );
    let (rows, _) = indented[0];
    assert!(
        rows.0 <= there.3 && there.2 <= rows.1,
        "{what}: the highlight is on the variation's line: {rows:?}, {there:?}"
    );
    // Promote and Delete are live in the variation (bright), greyed on the main line (dim).
    let lit = |s: &Shot| s.pixels(BRANCH_BUTTONS).iter().filter(|p| p.iter().all(|&c| c > 130)).count();
    assert_eq!(lit(plain), 0, "{}: Promote and Delete greyed on the main line", plain.name);
    assert!(
        lit(branch) > 100,
        "{what}: Promote and Delete live in the variation: {} bright pixels",
        lit(branch)
    );
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
