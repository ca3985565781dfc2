//! Where each square, point or hexagon of a ruleset's board sits on screen, which one a world
//! position falls on, and where the pieces in hand stand. Pure geometry from `Board` (width, height;
//! squares, points or hexes) and the [`View`] (flipped or not); the board is centred on the origin,
//! so turning it half round negates every position on it. Its size follows the [`Screen`]: the
//! board fills the space beside the panel at any window size ([`board_span`]), and everything on it
//! is laid out anew at that size (not a scaled picture), so it stays sharp.
//!
//! Hexes form an N × M rhombus of pointy-top hexagons, each rank shifted half a cell right of the one
//! below: cell (f, r) is centred at ((f + r/2)·w, r·(√3/2)·w), `w` the distance between neighbouring
//! centres, so the six cells at (f±1, r), (f, r±1), (f+1, r−1), (f−1, r+1) are the ones touching it.
//!
//! A board whose grid has squares that are not cells (`Board::holes`: a triangle of hexes cut from
//! the rhombus) is laid out on the box of its cells alone: centred on them, and as large as they
//! allow.

use arbiter::model::{Board, Side};
use bevy::math::Vec2;
use bevy::prelude::{Camera2d, Query, Res, ResMut, Resource, Transform, With};

/// How the board is shown: `flipped` turns it half round, so the second player sits at the bottom;
/// `quarter` a quarter round more, anticlockwise (on a board of squares or points, where players sit
/// by quarter turns: the player at the first's left comes to the bottom); `sixths` one or two sixths
/// of a round more, anticlockwise (on a board of hexes, where players sit by sixth turns round a
/// star).
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct View {
    pub flipped: bool,
    pub quarter: bool,
    pub sixths: u8,
}

impl View {
    /// The view with the player of `seat` (its place round the board, a quarter turn each) at the
    /// bottom.
    pub fn seat(seat: u8) -> View {
        View {
            flipped: seat % 4 >= 2,
            quarter: seat % 2 == 1,
            sixths: 0,
        }
    }

    /// The view with the player of `seat` at the bottom where players sit by sixth turns round a
    /// board of hexes.
    pub fn sixth_seat(seat: u8) -> View {
        // The view turns a sixth clockwise per seat (the same as the rest of a round anticlockwise):
        // a half turn, then sixths, for those past the third.
        let k = (6 - seat % 6) % 6;
        View {
            flipped: k >= 3,
            quarter: false,
            sixths: k % 3,
        }
    }
}

/// The width of the panel at the window's left, in logical pixels: the board is laid out in the
/// room beside it, and the camera shifts the board right by half of it.
pub const PANEL_WIDTH: f32 = 320.0;

/// The board's size on screen at the default window size ([`DEFAULT_SCREEN`]), in world units
/// (logical pixels), not counting the coordinate labels: the larger side of its bounding box.
pub const BOARD_SPAN: f32 = 640.0;

/// The default window (and screenshot) size in logical pixels.
pub const DEFAULT_SCREEN: (u32, u32) = (1280, 800);

/// The size of what the board is drawn in (the window, or the screenshot's image), in logical
/// pixels. The board is re-laid out whenever it changes.
#[derive(Resource, Clone, Copy, Debug, PartialEq)]
pub struct Screen(pub Vec2);

impl Default for Screen {
    fn default() -> Screen {
        Screen(Vec2::new(DEFAULT_SCREEN.0 as f32, DEFAULT_SCREEN.1 as f32))
    }
}

/// The whole window's (or picture's) size, before room is kept right of the board for a window
/// beside it ([`Beside`]); [`Screen`] is what is left for the panel and the board.
#[derive(Resource, Clone, Copy, Debug, PartialEq)]
pub struct Whole(pub Vec2);

/// Width kept free at the window's right for a window beside the board (the Simulate window), so
/// it never covers the board; 0 when there is none.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq)]
pub struct Beside(pub f32);

/// Height kept free at the window's bottom for the status pane when what it says outgrows the
/// room under the coordinate names: the board shrinks and rises rather than lie under the pane.
/// It holds the most the pane has asked for since the session (`since`: its generation and what
/// was opened) began, so stepping through a scenario does not make the board jump back and forth;
/// 0 while everything fits.
#[derive(Resource, Clone, Debug, Default, PartialEq)]
pub struct Below {
    pub extra: f32,
    pub since: (u64, String),
}

impl Below {
    /// The height kept in a window `height` high: never so much that the board would drop below
    /// its smallest span.
    pub fn kept(&self, height: f32) -> f32 {
        self.extra.min(Below::most(height))
    }

    /// The most room that can be kept in a window `height` high.
    pub fn most(height: f32) -> f32 {
        (height - MIN_SPAN * 1.5).max(0.0)
    }
}

/// The camera's offset from the board's centre, in logical pixels: the board is centred in the
/// room between the panel and what is kept beside it, [`BOARD_LIFT`] above the middle of what is
/// left above the room kept below it.
pub fn camera_offset(beside: f32, below: f32) -> Vec2 {
    Vec2::new((beside - PANEL_WIDTH) / 2.0, -BOARD_LIFT - below / 2.0)
}

/// Keeps [`Screen`] the whole size less the room kept [`Beside`] the board and [`Below`] it, and
/// the cameras looking at the board's centre in what is left; written only on a change (the
/// board redraws on one). Without [`Whole`] (a bare app), the screen is left as inserted.
pub fn fit_screen(
    whole: Option<Res<Whole>>,
    (beside, below): (Res<Beside>, Res<Below>),
    mut screen: ResMut<Screen>,
    mut cameras: Query<&mut Transform, With<Camera2d>>,
) {
    let Some(whole) = whole else { return };
    // Never narrower than the panel and a small board.
    let room = beside.0.min((whole.0.x - PANEL_WIDTH - MIN_SPAN * 1.5).max(0.0));
    let under = below.kept(whole.0.y);
    let size = Vec2::new(whole.0.x - room, whole.0.y - under);
    if screen.0 != size {
        screen.0 = size;
    }
    let at = camera_offset(room, under);
    for mut t in &mut cameras {
        if t.translation.truncate() != at {
            t.translation.x = at.x;
            t.translation.y = at.y;
        }
    }
}

/// How far above the middle of the window the board's centre stands, in logical pixels: the room
/// under the file names where the status pane sits ([`crate::panel::status_pane`]). The camera
/// looks this far below the board's centre.
pub const BOARD_LIFT: f32 = 20.0;

/// The board's span for a screen of `size`: two thirds of the width beside the panel (room for the
/// coordinate names and the hands) and four fifths of the height (room for the names below), the
/// smaller; [`BOARD_SPAN`] at the default size, and never below a small minimum.
pub fn board_span(size: Vec2) -> f32 {
    let beside = (size.x - PANEL_WIDTH).max(0.0);
    (beside * 2.0 / 3.0).min(size.y * 0.8).max(MIN_SPAN)
}

/// The smallest board span, for windows too small to hold a board beside the panel.
const MIN_SPAN: f32 = 120.0;

/// The largest distance between the centres of two pieces in hand.
const HAND_PITCH: f32 = 64.0;

/// √3 / 2: the height of a rank of hexes, in cells.
const ROW: f32 = 0.866_025_4;

/// Geometry of one board, centred on the origin.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Layout {
    pub width: usize,
    pub height: usize,
    pub points: bool,
    /// Hexagonal cells in a rhombus (see the module's documentation).
    pub hexes: bool,
    /// Distance between neighbouring squares' centres.
    pub cell: f32,
    /// Turned half round: the last rank at the bottom, the last file at the left.
    pub flipped: bool,
    /// Turned a quarter round more, anticlockwise (never for hexes): see [`View`].
    pub quarter: bool,
    /// Turned this many sixths of a round more, anticlockwise (hexes only): see [`View`].
    pub sixths: u8,
    /// The centre of the cells' box, in cells from the grid's centre (unflipped): zero for a whole
    /// rectangle or rhombus.
    pub centre: Vec2,
    /// Half the size of the drawn board in cells (see [`Layout::half_extent`]).
    pub extent: Vec2,
}

impl Layout {
    /// The board as the first player sees it (not flipped), at the default size ([`BOARD_SPAN`]):
    /// where the grid has holes, the box of its cells fills the span and is centred.
    pub fn new(board: &Board) -> Layout {
        let whole = Layout::of(board.width, board.height, board.points, board.hexes);
        if board.holes.is_empty() {
            return whole;
        }
        let unit = Layout { cell: 1.0, ..whole };
        let centres: Vec<Vec2> = (0..board.squares())
            .filter(|&sq| board.has(sq))
            .map(|sq| unit.lattice(board.file(sq) as f32, board.rank(sq) as f32))
            .collect();
        if centres.is_empty() {
            return whole;
        }
        let min = centres.iter().fold(Vec2::splat(f32::INFINITY), |a, c| a.min(*c));
        let max = centres.iter().fold(Vec2::splat(f32::NEG_INFINITY), |a, c| a.max(*c));
        // Beyond the outer centres: half a hexagon's width and its circumradius, half a square, or
        // nothing for points (their outer lines are the edge).
        let margin = if board.hexes {
            Vec2::new(0.5, 1.0 / 3f32.sqrt())
        } else if board.points {
            Vec2::ZERO
        } else {
            Vec2::splat(0.5)
        };
        let extent = (max - min) / 2.0 + margin;
        let across = if board.points { extent * 2.0 + Vec2::ONE } else { extent * 2.0 };
        Layout {
            cell: BOARD_SPAN / across.x.max(across.y),
            centre: (min + max) / 2.0,
            extent,
            ..whole
        }
    }

    /// The board as the first player sees it, laid out for a screen of `screen`'s size.
    pub fn fit(board: &Board, screen: Screen) -> Layout {
        let layout = Layout::new(board);
        Layout {
            cell: layout.cell * board_span(screen.0) / BOARD_SPAN,
            ..layout
        }
    }

    /// A board `width` × `height` of squares, points or hexes, not flipped, scaled to [`BOARD_SPAN`]:
    /// its larger side counted in squares or points (points keep half a cell of board round the outer
    /// lines), or, for hexes, the larger side of the rhombus's bounding box.
    pub fn of(width: usize, height: usize, points: bool, hexes: bool) -> Layout {
        let (w, h) = (width as f32, height as f32);
        let extent = if hexes {
            // The centres' box, plus half a hexagon's width across and its circumradius up and down.
            Vec2::new((w - 1.0 + (h - 1.0) / 2.0 + 1.0) / 2.0, ((h - 1.0) * ROW + 2.0 / 3f32.sqrt()) / 2.0)
        } else {
            let k = if points { 1.0 } else { 0.0 };
            Vec2::new((w - k) / 2.0, (h - k) / 2.0)
        };
        let across = if hexes {
            2.0 * extent.x.max(extent.y)
        } else {
            width.max(height) as f32
        };
        Layout {
            width,
            height,
            points,
            hexes,
            cell: BOARD_SPAN / across,
            flipped: false,
            quarter: false,
            sixths: 0,
            centre: Vec2::ZERO,
            extent,
        }
    }

    /// The same board shown as `view` says.
    pub fn with_view(self, view: View) -> Layout {
        Layout {
            flipped: view.flipped,
            quarter: view.quarter && !self.hexes,
            sixths: if self.hexes { view.sixths % 3 } else { 0 },
            ..self
        }
    }

    /// Unturned position → on-screen position: half round where flipped, then a quarter round
    /// anticlockwise where `quarter`.
    fn orient(&self, p: Vec2) -> Vec2 {
        let p = if self.flipped { -p } else { p };
        let p = self.turn_sixths(p, self.sixths as f32);
        if self.quarter { Vec2::new(-p.y, p.x) } else { p }
    }

    /// On-screen position → unturned position: [`Layout::orient`] undone.
    fn unorient(&self, p: Vec2) -> Vec2 {
        let p = if self.quarter { Vec2::new(p.y, -p.x) } else { p };
        let p = self.turn_sixths(p, -(self.sixths as f32));
        if self.flipped { -p } else { p }
    }

    /// `p` turned `k` sixths of a round anticlockwise (the hex lattice onto itself).
    fn turn_sixths(&self, p: Vec2, k: f32) -> Vec2 {
        if k == 0.0 {
            return p;
        }
        let (sin, cos) = (k * std::f32::consts::FRAC_PI_3).sin_cos();
        Vec2::new(p.x * cos - p.y * sin, p.x * sin + p.y * cos)
    }

    /// Whether the coordinate names can be written along the edges: not on a board turned by
    /// sixths, whose rows run aslant across the screen.
    pub fn labelled(&self) -> bool {
        self.sixths == 0
    }

    /// The unflipped centre of file `f`, rank `r` (either may lie off the board), in cells.
    fn lattice(&self, f: f32, r: f32) -> Vec2 {
        let (w, h) = (self.width as f32 - 1.0, self.height as f32 - 1.0);
        let grid = if self.hexes {
            Vec2::new(f + r / 2.0 - (w + h / 2.0) / 2.0, (r - h / 2.0) * ROW)
        } else {
            Vec2::new(f - w / 2.0, r - h / 2.0)
        };
        grid - self.centre
    }

    /// The on-screen centre of file `f`, rank `r`, which may lie off the board (an edge's outside).
    pub fn at(&self, f: i32, r: i32) -> Vec2 {
        self.orient(self.lattice(f as f32, r as f32) * self.cell)
    }

    /// The centre of square `sq` (index = rank * width + file; rank 0 at the bottom unless flipped).
    pub fn center(&self, sq: usize) -> Vec2 {
        self.at((sq % self.width) as i32, (sq / self.width) as i32)
    }

    /// The square, point or hexagon under `p`, if any. Hexes are hit exactly: the point belongs to
    /// the hexagon whose centre is nearest (cube-coordinate rounding).
    pub fn square_at(&self, p: Vec2) -> Option<usize> {
        let origin = self.lattice(0.0, 0.0);
        let q = self.unorient(p) / self.cell - origin;
        let (f, r) = if self.hexes {
            let r = q.y / ROW;
            let f = q.x - r / 2.0;
            hex_round(f, r)
        } else {
            (q.x.round(), q.y.round())
        };
        (f >= 0.0 && r >= 0.0 && (f as usize) < self.width && (r as usize) < self.height).then(|| r as usize * self.width + f as usize)
    }

    /// The corners of the cell `sq` (a hexagon, pointy top; a square), counter-clockwise.
    pub fn corners(&self, sq: usize) -> Vec<Vec2> {
        let c = self.center(sq);
        if self.hexes {
            let radius = self.cell / 3f32.sqrt();
            (0..6)
                .map(|i| {
                    let a = std::f32::consts::FRAC_PI_2 + i as f32 * std::f32::consts::FRAC_PI_3;
                    c + Vec2::new(a.cos(), a.sin()) * radius
                })
                .collect()
        } else {
            let h = self.cell / 2.0;
            [(-h, -h), (h, -h), (h, h), (-h, h)]
                .into_iter()
                .map(|(x, y)| c + Vec2::new(x, y))
                .collect()
        }
    }

    /// The side of cell `sq` shared with the cell `(dx, dy)` away (which may lie off the board): its
    /// two ends.
    pub fn edge_towards(&self, sq: usize, dx: i32, dy: i32) -> (Vec2, Vec2) {
        let (f, r) = ((sq % self.width) as i32, (sq / self.width) as i32);
        let mid = (self.center(sq) + self.at(f + dx, r + dy)) / 2.0;
        let corners = self.corners(sq);
        let n = corners.len();
        (0..n)
            .map(|i| (corners[i], corners[(i + 1) % n]))
            .min_by(|a, b| {
                let da = ((a.0 + a.1) / 2.0).distance(mid);
                let db = ((b.0 + b.1) / 2.0).distance(mid);
                da.total_cmp(&db)
            })
            .expect("a cell has corners")
    }

    /// Half the drawn extent: the outer edge of the squares or hexagons, or the outer lines through
    /// the points. The same either way round.
    pub fn half_extent(&self) -> Vec2 {
        let e = self.extent * self.cell;
        if self.sixths != 0 {
            // The box of the turned box (a star turns onto itself: as large as it was).
            let (sin, cos) = (self.sixths as f32 * std::f32::consts::FRAC_PI_3).sin_cos();
            let turned = Vec2::new(e.x * cos.abs() + e.y * sin.abs(), e.x * sin.abs() + e.y * cos.abs());
            return turned.min(Vec2::splat(e.x.max(e.y)));
        }
        if self.quarter { Vec2::new(e.y, e.x) } else { e }
    }

    /// How far the coordinate names stand from the centres of the outer row and column.
    fn label_margin(&self) -> f32 {
        if self.hexes {
            self.cell * 1.1
        } else if self.points {
            self.cell * 0.95
        } else {
            self.cell * 0.8
        }
    }

    /// Where the name of file `f` is written: under its column (hexes: under its cell of the row
    /// shown at the bottom), below the board on screen.
    pub fn file_label(&self, f: usize) -> Vec2 {
        if self.quarter {
            // Turned a quarter, the files run up the screen: their names go outside whichever
            // outer rank the turn has put on the left.
            let off = self.label_margin() / self.cell;
            let (first, last) = (-off, self.height as f32 - 1.0 + off);
            let at = |r: f32| self.orient(self.lattice(f as f32, r) * self.cell);
            let (a, b) = (at(first), at(last));
            return if a.x < b.x { a } else { b };
        }
        if self.hexes {
            let bottom = if self.flipped { self.height - 1 } else { 0 };
            return self.at(f as i32, bottom as i32) - Vec2::new(0.0, self.label_margin());
        }
        Vec2::new(self.center(f).x, -self.half_extent().y - self.label_gap())
    }

    /// How far the coordinate names of squares or points stand outside the board's edge.
    fn label_gap(&self) -> f32 {
        let inside = if self.points { 0.0 } else { self.cell / 2.0 };
        self.label_margin() - inside
    }

    /// Where the name of rank `r` is written: beside its row (hexes: beside the row's cell shown
    /// leftmost), left of the board on screen.
    pub fn rank_label(&self, r: usize) -> Vec2 {
        if self.quarter {
            // The ranks run across the screen: their names go under whichever outer file is at the
            // bottom.
            let off = self.label_margin() / self.cell;
            let (first, last) = (-off, self.width as f32 - 1.0 + off);
            let at = |f: f32| self.orient(self.lattice(f, r as f32) * self.cell);
            let (a, b) = (at(first), at(last));
            return if a.y < b.y { a } else { b };
        }
        if self.hexes {
            let left = if self.flipped { self.width - 1 } else { 0 };
            return self.at(left as i32, r as i32) - Vec2::new(self.label_margin(), 0.0);
        }
        Vec2::new(-self.half_extent().x - self.label_gap(), self.center(r * self.width).y)
    }

    /// The distance between the centres of two pieces in hand.
    pub fn hand_pitch(&self) -> f32 {
        self.cell.min(HAND_PITCH)
    }

    /// Where the `i`-th kind of `side`'s hand stands: right of the board, the hand of the player shown
    /// at the bottom counting up from the bottom edge, the other counting down from the top edge.
    /// With more than two players, the third's and fourth's hands stand left of the board (past
    /// the rank names), the third's at the bottom; the fifth's and sixth's further left.
    pub fn hand_slot(&self, side: Side, i: usize) -> Vec2 {
        let half = self.half_extent();
        let pitch = self.hand_pitch();
        let column = side.index() / 2;
        let side = Side((side.index() % 2) as u8);
        let x = match column {
            0 => half.x + pitch * 0.8,
            c => -(half.x + pitch * 1.6 + (c - 1) as f32 * pitch * 2.2),
        };
        let offset = (i as f32 + 0.5) * pitch;
        let bottom = (side == Side::FIRST) != self.flipped;
        if bottom {
            Vec2::new(x, -half.y + offset)
        } else {
            Vec2::new(x, half.y - offset)
        }
    }

    /// The hand slot under `p` when each of `sides` hands has `slots` of them: the side and the
    /// slot's index.
    pub fn hand_at(&self, p: Vec2, sides: usize, slots: usize) -> Option<(Side, usize)> {
        let reach = self.hand_pitch() / 2.0;
        (0..sides)
            .map(|s| Side(s as u8))
            .flat_map(|side| (0..slots).map(move |i| (side, i)))
            .find(|&(side, i)| self.hand_slot(side, i).distance(p) < reach)
    }
}

/// The hexagon containing the fractional axial coordinates (f, r): round the cube coordinates
/// (f, r, −f−r) and fix the one that moved most, so that they still sum to zero.
fn hex_round(f: f32, r: f32) -> (f32, f32) {
    let s = -f - r;
    let (mut rf, mut rr, rs) = (f.round(), r.round(), s.round());
    let (df, dr, ds) = ((rf - f).abs(), (rr - r).abs(), (rs - s).abs());
    if df > dr && df > ds {
        rf = -rr - rs;
    } else if dr > ds {
        rr = -rf - rs;
    }
    (rf, rr)
}

#[cfg(test)]
mod tests {
    use super::*;
    use arbiter::model::HEX_NEIGHBOURS;

    fn layout(width: usize, height: usize, points: bool, flipped: bool) -> Layout {
        Layout::of(width, height, points, false).with_view(View {
            flipped,
            quarter: false,
            sixths: 0,
        })
    }

    fn hexes(width: usize, height: usize, flipped: bool) -> Layout {
        Layout::of(width, height, false, true).with_view(View {
            flipped,
            quarter: false,
            sixths: 0,
        })
    }

    #[test]
    fn the_board_fills_the_space_beside_the_panel_at_any_size() {
        let opened = crate::session::source::open(Some("chess")).expect("the bundled chess rules");
        let chess = opened.engine.rules().board.clone();
        let board = |w: f32, h: f32| Layout::fit(&chess, Screen(Vec2::new(w, h)));
        assert_eq!(board_span(Screen::default().0), BOARD_SPAN, "the default size is unchanged");
        for (w, h) in [(900.0, 560.0), (1280.0, 800.0), (1600.0, 1000.0), (2560.0, 1440.0), (700.0, 900.0)] {
            let l = board(w, h);
            let half = l.half_extent();
            // The board and its names (left of and below it) inside the screen beside the panel,
            // centred in it; the world's origin is that space's centre.
            let (left, bottom) = (l.rank_label(0).x - l.cell * 0.3, l.file_label(0).y - l.cell * 0.3);
            assert!(left > -(w - PANEL_WIDTH) / 2.0, "{w}×{h}: rank names inside ({left})");
            assert!(bottom > -h / 2.0, "{w}×{h}: file names inside ({bottom})");
            assert!(half.y < h / 2.0 && half.x < (w - PANEL_WIDTH) / 2.0);
            // And it grows to use the room: at least two thirds of the tighter dimension.
            assert!(
                2.0 * half.x >= ((w - PANEL_WIDTH) * 0.6).min(h * 0.75),
                "{w}×{h}: the board uses the room"
            );
        }
        assert!(
            board_span(Vec2::new(1600.0, 1000.0)) > BOARD_SPAN,
            "a larger window, a larger board"
        );
        assert!(board_span(Vec2::new(100.0, 50.0)) > 0.0, "a tiny window still has a board");
    }

    #[test]
    fn every_square_maps_to_its_centre_and_back_either_way_round() {
        for (w, h, points) in [(8, 8, false), (9, 10, true), (19, 19, true), (5, 3, false)] {
            for flipped in [false, true] {
                let l = layout(w, h, points, flipped);
                for sq in 0..w * h {
                    assert_eq!(l.square_at(l.center(sq)), Some(sq), "{w}x{h} flipped={flipped} square {sq}");
                    // A click near the edge of the square still hits it.
                    let near = l.center(sq) + Vec2::new(0.45, -0.45) * l.cell;
                    assert_eq!(l.square_at(near), Some(sq), "{w}x{h} flipped={flipped} near square {sq}");
                }
                let below_first = l.center(0) - Vec2::splat(l.cell) * if flipped { -1.0 } else { 1.0 };
                assert_eq!(l.square_at(below_first), None);
            }
        }
    }

    #[test]
    fn every_hexagon_maps_to_its_centre_and_back_either_way_round_and_is_hit_exactly() {
        for (w, h) in [(11, 11), (5, 3)] {
            for flipped in [false, true] {
                let l = hexes(w, h, flipped);
                let radius = l.cell / 3f32.sqrt();
                for sq in 0..w * h {
                    let c = l.center(sq);
                    assert_eq!(l.square_at(c), Some(sq), "{w}x{h} flipped={flipped} cell {sq}");
                    // Just inside each corner and each side's middle: this hexagon.
                    for (i, corner) in l.corners(sq).into_iter().enumerate() {
                        assert!((corner.distance(c) - radius).abs() < 1e-3);
                        assert_eq!(l.square_at(c + (corner - c) * 0.97), Some(sq), "{w}x{h} cell {sq} corner {i}");
                    }
                    for &(dx, dy) in &HEX_NEIGHBOURS {
                        let (a, b) = l.edge_towards(sq, dx, dy);
                        let mid = (a + b) / 2.0;
                        assert!((mid.distance(c) - l.cell / 2.0).abs() < 1e-3, "an edge's middle is half a cell out");
                        assert_eq!(l.square_at(c + (mid - c) * 0.97), Some(sq), "{w}x{h} cell {sq} side ({dx},{dy})");
                        // Just past the side: the neighbour there, or nothing off the board.
                        let past = l.square_at(c + (mid - c) * 1.03);
                        let (f, r) = ((sq % w) as i32 + dx, (sq / w) as i32 + dy);
                        let there = (f >= 0 && r >= 0 && f < w as i32 && r < h as i32).then(|| r as usize * w + f as usize);
                        assert_eq!(past, there, "{w}x{h} flipped={flipped} past cell {sq} side ({dx},{dy})");
                    }
                }
            }
        }
    }

    #[test]
    fn the_six_hex_neighbours_are_the_touching_hexagons_at_one_cell() {
        let opened = crate::session::source::open(Some("hex")).expect("the bundled hex rules");
        let board = opened.engine.rules().board.clone();
        assert!(board.hexes && board.width == 11 && board.height == 11);
        for flipped in [false, true] {
            let l = Layout::new(&board).with_view(View {
                flipped,
                quarter: false,
                sixths: 0,
            });
            let n = board.squares();
            for sq in 0..n {
                let c = l.center(sq);
                let mut near: Vec<usize> = (0..n)
                    .filter(|&o| o != sq && (l.center(o).distance(c) - l.cell).abs() < 1e-3)
                    .collect();
                let mut expected: Vec<usize> = board.neighbours(sq).collect();
                near.sort_unstable();
                expected.sort_unstable();
                assert_eq!(near, expected, "cell {sq}: the cells one cell away are its neighbours");
                // Nothing else is as close, and each neighbour shares a side with it.
                assert!((0..n).filter(|&o| o != sq).all(|o| l.center(o).distance(c) > l.cell - 1e-3));
                for &(dx, dy) in &HEX_NEIGHBOURS {
                    let Some(o) = board.offset(sq, dx, dy) else { continue };
                    let (a, b) = l.edge_towards(sq, dx, dy);
                    let theirs = l.edge_towards(o, -dx, -dy);
                    let same = (a.distance(theirs.0) < 1e-3 && b.distance(theirs.1) < 1e-3)
                        || (a.distance(theirs.1) < 1e-3 && b.distance(theirs.0) < 1e-3);
                    assert!(same, "cell {sq} and its neighbour {o} share a side");
                }
            }
        }
        // (1, 1) is not a neighbour: it is √3 cells away.
        let l = Layout::new(&board);
        let d = l.at(1, 1).distance(l.at(0, 0));
        assert!((d - 3f32.sqrt() * l.cell).abs() < 1e-3);
    }

    #[test]
    fn a_hex_rhombus_fits_the_span_and_leans_right() {
        let l = hexes(11, 11, false);
        let half = l.half_extent();
        assert!((half.x * 2.0 - BOARD_SPAN).abs() < 1e-3, "16 hexagons across fill the span");
        assert!(half.y < half.x);
        // Squares and points keep their scale: the span over the larger count of squares or points.
        assert_eq!(layout(9, 10, true, false).cell, 64.0);
        assert_eq!(layout(8, 8, false, false).cell, 80.0);
        for sq in 0..121 {
            for c in l.corners(sq) {
                assert!(c.x.abs() <= half.x + 1e-3 && c.y.abs() <= half.y + 1e-3, "cell {sq} inside the box");
            }
        }
        // Rank 11 starts five and a half cells right of rank 1... by half a cell a rank.
        assert!((l.at(0, 10).x - l.at(0, 0).x - 5.0 * l.cell).abs() < 1e-3);
        // Left of a11's row start, at a1's height above: nothing (the rhombus is not a rectangle).
        assert_eq!(l.square_at(Vec2::new(l.at(0, 0).x, l.at(0, 10).y)), None);
        let flipped = hexes(11, 11, true);
        assert_eq!(flipped.center(0), -l.center(0), "flipped: a half turn");
        assert!(
            flipped.file_label(0).y < flipped.center(120).y,
            "file names below the row shown at the bottom"
        );
        assert!(
            flipped.rank_label(0).x < flipped.center(10).x,
            "rank names left of the row's leftmost cell"
        );
        assert!(l.rank_label(10).x > l.rank_label(0).x, "rank names follow the lean of the rows");
    }

    #[test]
    fn hands_stand_right_of_the_board_the_bottom_players_below() {
        for flipped in [false, true] {
            let l = layout(8, 8, false, flipped);
            let half = l.half_extent();
            let (bottom, top) = if flipped {
                (Side::SECOND, Side::FIRST)
            } else {
                (Side::FIRST, Side::SECOND)
            };
            for i in 0..5 {
                let (b, t) = (l.hand_slot(bottom, i), l.hand_slot(top, i));
                assert!(b.x > half.x && t.x > half.x, "right of the board");
                assert!(b.y < 0.0 && t.y > 0.0, "slot {i}: the bottom player's hand below");
                assert_eq!(l.hand_at(b, 2, 5), Some((bottom, i)));
                assert_eq!(l.hand_at(t, 2, 5), Some((top, i)));
                assert_eq!(l.square_at(b), None, "a hand is not on the board");
            }
            assert_eq!(l.hand_at(Vec2::ZERO, 2, 5), None);
        }
    }

    #[test]
    fn each_seat_of_four_comes_to_the_bottom_and_clicks_find_the_squares_turned() {
        let base = Layout::of(11, 11, false, false);
        for seat in 0..4u8 {
            let l = base.with_view(View::seat(seat));
            for sq in 0..121 {
                assert_eq!(l.square_at(l.center(sq)), Some(sq), "seat {seat}, square {sq}");
            }
            // The middle of each edge: the first player's (e1's row, rank 1), then the one at its
            // left (file a), the far one (rank 11), the one at its right (file k).
            let edge = [5usize, 5 * 11, 10 * 11 + 5, 5 * 11 + 10][seat as usize];
            let lowest = (0..121).map(|sq| l.center(sq).y).fold(f32::INFINITY, f32::min);
            assert_eq!(l.center(edge).y, lowest, "seat {seat}: its edge at the bottom");
            // The names stay outside the board, left and below.
            let h = l.half_extent();
            let outside = |p: Vec2| p.x < -h.x || p.y < -h.y;
            assert!(outside(l.file_label(0)) && outside(l.rank_label(0)), "seat {seat}");
            if l.quarter {
                assert!(
                    l.file_label(3).x < -h.x && l.rank_label(3).y < -h.y,
                    "seat {seat}: files named on the left"
                );
            }
        }
    }

    #[test]
    fn each_seat_of_six_round_a_star_comes_to_the_bottom_and_clicks_find_the_cells_turned() {
        let path = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../rulesets/chinese-checkers.rules"));
        let checked = arbiter::check::check_file(path, &[("players".into(), "6".into())]);
        let rules = checked.rules.expect("the bundled Chinese checkers");
        let board = &rules.board;
        let cells: Vec<usize> = (0..board.squares()).filter(|&sq| board.has(sq)).collect();
        // The first player's point: its lowest cell.
        let first = Layout::new(board);
        let tip = *cells
            .iter()
            .min_by(|&&a, &&b| first.center(a).y.total_cmp(&first.center(b).y))
            .expect("cells");
        let span = first.half_extent();
        for seat in 0..6u8 {
            let l = first.with_view(View::sixth_seat(seat));
            for &sq in &cells {
                assert_eq!(l.square_at(l.center(sq)), Some(sq), "seat {seat}, cell {sq}");
                for corner in l.corners(sq) {
                    assert_eq!(
                        l.square_at(l.center(sq) + (corner - l.center(sq)) * 0.95),
                        Some(sq),
                        "seat {seat}, cell {sq}"
                    );
                }
            }
            // The seat's own point (the first's turned by its seat) is the lowest cell on screen.
            let theirs = board.seat_square(rules.seating, seat, tip).expect("the star turns onto itself");
            let lowest = cells.iter().map(|&sq| l.center(sq).y).fold(f32::INFINITY, f32::min);
            assert!((l.center(theirs).y - lowest).abs() < 1e-3, "seat {seat}: its point at the bottom");
            // The star fills the same box whichever way it turns, and the names are not written.
            let h = l.half_extent();
            assert!(
                cells.iter().all(|&sq| l.center(sq).abs().cmple(h).all()),
                "seat {seat}: inside {h:?}"
            );
            assert!(
                (h - span).abs().max_element() < span.max_element() * 0.2,
                "seat {seat}: {h:?} vs {span:?}"
            );
            assert_eq!(l.labelled(), seat % 3 == 0);
        }
    }

    #[test]
    fn among_four_the_third_and_fourth_hands_stand_left_of_the_board() {
        let l = layout(11, 11, false, false);
        let half = l.half_extent();
        let pitch = l.hand_pitch();
        let (third, fourth) = (Side(2), Side(3));
        for i in 0..3 {
            let (b, t) = (l.hand_slot(third, i), l.hand_slot(fourth, i));
            // Past the rank names (half a cell left of the board) with the whole piece.
            assert!(b.x + pitch * 0.5 < -half.x - pitch * 0.5 && t.x == b.x, "left of the board: {b:?}");
            assert!(b.y < 0.0 && t.y > 0.0, "the third's below, the fourth's above");
            assert_eq!(l.hand_at(b, 4, 3), Some((third, i)));
            assert_eq!(l.hand_at(t, 4, 3), Some((fourth, i)));
            // Two players' hands never reach there.
            assert_eq!(l.hand_at(b, 2, 3), None);
        }
    }

    #[test]
    fn flipping_puts_the_last_rank_at_the_bottom_and_the_last_file_at_the_left() {
        let (plain, flipped) = (layout(8, 8, false, false), layout(8, 8, false, true));
        let (a1, h1, a8) = (0, 7, 56);
        assert!(plain.center(a1).y < 0.0 && plain.center(a1).x < 0.0);
        assert_eq!(flipped.center(a1), -plain.center(a1));
        assert!(flipped.center(a8).y < 0.0, "rank 8 at the bottom");
        assert!(flipped.center(h1).x < 0.0, "file h at the left");
        // The square shown bottom-left is a1 plain and h8 flipped.
        let bottom_left = plain.center(a1);
        assert_eq!(plain.square_at(bottom_left), Some(a1));
        assert_eq!(flipped.square_at(bottom_left), Some(63));
    }

    #[test]
    fn coordinate_names_stay_below_and_left_of_the_board_and_follow_their_column_and_row() {
        for flipped in [false, true] {
            let l = layout(9, 10, true, flipped);
            let half = l.half_extent();
            for f in 0..9 {
                let at = l.file_label(f);
                assert!(at.y < -half.y, "file names below the board");
                assert_eq!(at.x, l.center(f).x, "file {f} under its column");
            }
            for r in 0..10 {
                let at = l.rank_label(r);
                assert!(at.x < -half.x, "rank names left of the board");
                assert_eq!(at.y, l.center(r * 9).y, "rank {r} beside its row");
            }
            let first_file_left = l.file_label(0).x < l.file_label(8).x;
            let first_rank_low = l.rank_label(0).y < l.rank_label(9).y;
            assert_eq!(first_file_left, !flipped);
            assert_eq!(first_rank_low, !flipped);
        }
    }
}
