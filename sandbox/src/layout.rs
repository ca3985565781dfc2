//! Where each square or point of a ruleset's board sits on screen, and which one a world position
//! falls on. Pure geometry from `Board` (width, height, squares or points).

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
}

impl Layout {
    pub fn new(board: &Board) -> Layout {
        // Points boards have (n - 1) cells between their outer lines; keep half a cell of margin.
        let across = board.width.max(board.height) as f32;
        Layout {
            width: board.width,
            height: board.height,
            points: board.points,
            cell: BOARD_SPAN / across,
        }
    }

    /// The centre of square `sq` (index = rank * width + file; rank 0 at the bottom).
    pub fn center(&self, sq: usize) -> Vec2 {
        let f = (sq % self.width) as f32;
        let r = (sq / self.width) as f32;
        Vec2::new(
            (f - (self.width as f32 - 1.0) / 2.0) * self.cell,
            (r - (self.height as f32 - 1.0) / 2.0) * self.cell,
        )
    }

    /// The square or point under `p`, if any.
    pub fn square_at(&self, p: Vec2) -> Option<usize> {
        let f = (p.x / self.cell + (self.width as f32 - 1.0) / 2.0).round();
        let r = (p.y / self.cell + (self.height as f32 - 1.0) / 2.0).round();
        (f >= 0.0 && r >= 0.0 && (f as usize) < self.width && (r as usize) < self.height).then(|| r as usize * self.width + f as usize)
    }

    /// Half the drawn extent: the outer edge of the squares, or the outer lines through the points.
    pub fn half_extent(&self) -> Vec2 {
        let k = if self.points { 1.0 } else { 0.0 };
        Vec2::new(
            (self.width as f32 - k) * self.cell / 2.0,
            (self.height as f32 - k) * self.cell / 2.0,
        )
    }
}
