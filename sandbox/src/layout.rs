//! Where each square or point of a ruleset's board sits on screen, and which one a world position
//! falls on. Pure geometry from `Board` (width, height, squares or points) and the [`View`] (flipped
//! or not); the board is centred on the origin, so turning it half round negates every position.

use arbiter::model::Board;
use bevy::math::Vec2;
use bevy::prelude::Resource;

/// How the board is shown: `flipped` turns it half round, so the second player sits at the bottom.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct View {
    pub flipped: bool,
}

/// The board's size on screen, in world units, not counting the coordinate labels.
pub const BOARD_SPAN: f32 = 640.0;

/// Geometry of one board, centred on the origin.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Layout {
    pub width: usize,
    pub height: usize,
    pub points: bool,
    /// Distance between neighbouring squares' centres.
    pub cell: f32,
    /// Turned half round: the last rank at the bottom, the last file at the left.
    pub flipped: bool,
}

impl Layout {
    /// The board as the first player sees it (not flipped).
    pub fn new(board: &Board) -> Layout {
        let across = board.width.max(board.height) as f32;
        Layout {
            width: board.width,
            height: board.height,
            points: board.points,
            cell: BOARD_SPAN / across,
            flipped: false,
        }
    }

    /// The same board shown as `view` says.
    pub fn with_view(self, view: View) -> Layout {
        Layout {
            flipped: view.flipped,
            ..self
        }
    }

    /// Unflipped position → on-screen position (and back: a half turn is its own inverse).
    fn orient(&self, p: Vec2) -> Vec2 {
        if self.flipped { -p } else { p }
    }

    /// The centre of square `sq` (index = rank * width + file; rank 0 at the bottom unless flipped).
    pub fn center(&self, sq: usize) -> Vec2 {
        let f = (sq % self.width) as f32;
        let r = (sq / self.width) as f32;
        self.orient(Vec2::new(
            (f - (self.width as f32 - 1.0) / 2.0) * self.cell,
            (r - (self.height as f32 - 1.0) / 2.0) * self.cell,
        ))
    }

    /// The square or point under `p`, if any.
    pub fn square_at(&self, p: Vec2) -> Option<usize> {
        let p = self.orient(p);
        let f = (p.x / self.cell + (self.width as f32 - 1.0) / 2.0).round();
        let r = (p.y / self.cell + (self.height as f32 - 1.0) / 2.0).round();
        (f >= 0.0 && r >= 0.0 && (f as usize) < self.width && (r as usize) < self.height).then(|| r as usize * self.width + f as usize)
    }

    /// Half the drawn extent: the outer edge of the squares, or the outer lines through the points.
    /// The same either way round.
    pub fn half_extent(&self) -> Vec2 {
        let k = if self.points { 1.0 } else { 0.0 };
        Vec2::new(
            (self.width as f32 - k) * self.cell / 2.0,
            (self.height as f32 - k) * self.cell / 2.0,
        )
    }

    /// How far the coordinate names stand from the centres of the outer row and column.
    fn label_margin(&self) -> f32 {
        if self.points { self.cell * 0.95 } else { self.cell * 0.8 }
    }

    /// Where the name of file `f` is written: under its column, below the board on screen.
    pub fn file_label(&self, f: usize) -> Vec2 {
        Vec2::new(
            self.center(f).x,
            -(self.height as f32 - 1.0) / 2.0 * self.cell - self.label_margin(),
        )
    }

    /// Where the name of rank `r` is written: beside its row, left of the board on screen.
    pub fn rank_label(&self, r: usize) -> Vec2 {
        Vec2::new(
            -(self.width as f32 - 1.0) / 2.0 * self.cell - self.label_margin(),
            self.center(r * self.width).y,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn layout(width: usize, height: usize, points: bool, flipped: bool) -> Layout {
        Layout {
            width,
            height,
            points,
            cell: BOARD_SPAN / width.max(height) as f32,
            flipped: false,
        }
        .with_view(View { flipped })
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
