//! Runs the built binary with `--screenshot` (offscreen render, no display needed; needs Vulkan's
//! loader and Mesa's software driver: Debian `libvulkan1 mesa-vulkan-drivers`) and checks the PNG
//! shows a board, pieces and the panel rather than a blank frame.

use std::collections::HashSet;
use std::path::Path;
use std::process::Command;

struct Shot {
    width: usize,
    height: usize,
    rgb: Vec<[u8; 3]>,
}

impl Shot {
    fn read(path: &Path) -> Shot {
        let file = std::fs::File::open(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let mut reader = png::Decoder::new(std::io::BufReader::new(file)).read_info().expect("a PNG");
        let mut buf = vec![0; reader.output_buffer_size().expect("a size")];
        let info = reader.next_frame(&mut buf).expect("a frame");
        let channels = info.color_type.samples();
        assert_eq!(info.bit_depth, png::BitDepth::Eight);
        let rgb = buf[..info.buffer_size()].chunks(channels).map(|p| [p[0], p[1], p[2]]).collect();
        Shot {
            width: info.width as usize,
            height: info.height as usize,
            rgb,
        }
    }

    /// Pixels of a rectangle given as fractions of the image.
    fn region(&self, x0: f32, x1: f32, y0: f32, y1: f32) -> Vec<[u8; 3]> {
        let (w, h) = (self.width as f32, self.height as f32);
        let mut v = Vec::new();
        for y in (y0 * h) as usize..(y1 * h) as usize {
            for x in (x0 * w) as usize..(x1 * w) as usize {
                v.push(self.rgb[y * self.width + x]);
            }
        }
        v
    }
}

fn distinct(px: &[[u8; 3]]) -> usize {
    px.iter().collect::<HashSet<_>>().len()
}

fn shoot(what: &str, dir: &Path, extra: &[&str]) -> Shot {
    let out = dir.join(format!("{}.png", what.replace(['/', '.'], "_")));
    let status = Command::new(env!("CARGO_BIN_EXE_sandbox"))
        .arg(what)
        .arg("--screenshot")
        .arg(&out)
        .args(extra)
        .env("XDG_RUNTIME_DIR", std::env::temp_dir())
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .status()
        .expect("the sandbox binary runs");
    assert!(status.success(), "{what}: sandbox --screenshot exited with {status}");
    Shot::read(&out)
}

fn temp_dir(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("arbiter-sandbox-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&d).expect("a temp dir");
    d
}

/// The board occupies the middle-right of the frame; the panel the left quarter.
fn check_frame(what: &str, shot: &Shot) {
    assert_eq!((shot.width, shot.height), (1280, 800));
    let board = shot.region(0.35, 0.9, 0.15, 0.85);
    let background = [41u8, 43, 48]; // BACKGROUND, sRGB 0.16/0.17/0.19
    let non_background = board
        .iter()
        .filter(|p| p.iter().zip(background).any(|(a, b)| a.abs_diff(b) > 6))
        .count();
    assert!(
        non_background > board.len() / 2,
        "{what}: the board area is mostly background ({non_background} of {})",
        board.len()
    );
    assert!(
        distinct(&board) >= 6,
        "{what}: the board area has only {} colours",
        distinct(&board)
    );
    let panel = shot.region(0.01, 0.24, 0.02, 0.3);
    assert!(
        distinct(&panel) >= 4,
        "{what}: the panel shows no text ({} colours)",
        distinct(&panel)
    );
}

#[test]
fn screenshots_of_chess_xiangqi_and_go_show_board_pieces_and_panel() {
    let dir = temp_dir("shots");
    for what in ["chess", "xiangqi", "go"] {
        let shot = shoot(what, &dir, &[]);
        check_frame(what, &shot);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn pieces_are_drawn_in_both_sides_colours() {
    let dir = temp_dir("pieces");
    let shot = shoot("chess", &dir, &[]);
    let board = shot.region(0.35, 0.9, 0.1, 0.9);
    let light = board.iter().filter(|p| p.iter().all(|&c| c > 225)).count();
    let dark = board.iter().filter(|p| p.iter().all(|&c| c < 40)).count();
    assert!(light > 2000, "white discs: {light} near-white pixels");
    assert!(dark > 2000, "black discs: {dark} near-black pixels");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_scenario_step_can_be_shot() {
    let dir = temp_dir("ply");
    let shot = shoot("../scenarios/chess/checkmate-fools-mate.ron", &dir, &["--ply", "2"]);
    check_frame("fool's mate step 2", &shot);
    let _ = std::fs::remove_dir_all(&dir);
}
