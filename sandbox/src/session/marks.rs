//! The trainer's marks on the position — squares and arrows, and the caption to save with them:
//! plain data, saved in scenarios ([`crate::session::scenario`]); the board room draws them and its
//! pointer puts them there.

use bevy::prelude::*;

/// The trainer's marks on the current position, and the caption to save with them.
#[derive(Resource, Clone, Debug, Default, PartialEq, Eq)]
pub struct Marks {
    /// Marked squares, in the order marked.
    pub squares: Vec<usize>,
    /// Arrows, from and to, in the order drawn.
    pub arrows: Vec<(usize, usize)>,
    /// The caption for the saved scenario's last step (empty: the editor's own).
    pub caption: String,
}

impl Marks {
    /// Marks `sq`, or unmarks it if it was marked.
    pub fn toggle_square(&mut self, sq: usize) {
        match self.squares.iter().position(|&s| s == sq) {
            Some(i) => {
                self.squares.remove(i);
            }
            None => self.squares.push(sq),
        }
    }

    /// Draws the arrow `from` → `to`, or removes it if it was drawn.
    pub fn toggle_arrow(&mut self, from: usize, to: usize) {
        match self.arrows.iter().position(|&a| a == (from, to)) {
            Some(i) => {
                self.arrows.remove(i);
            }
            None => self.arrows.push((from, to)),
        }
    }

    /// Are there squares or arrows on the board?
    pub fn any(&self) -> bool {
        !self.squares.is_empty() || !self.arrows.is_empty()
    }

    /// Clears the squares and arrows (the caption stays).
    pub fn clear(&mut self) {
        self.squares.clear();
        self.arrows.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_mark_or_arrow_on_the_same_place_removes_it() {
        let mut m = Marks::default();
        m.toggle_square(3);
        m.toggle_arrow(1, 2);
        m.toggle_arrow(2, 1);
        assert_eq!((m.squares.clone(), m.arrows.clone()), (vec![3], vec![(1, 2), (2, 1)]));
        m.toggle_square(3);
        m.toggle_arrow(1, 2);
        assert_eq!((m.squares.clone(), m.arrows.clone()), (vec![], vec![(2, 1)]));
        m.caption = "kept".into();
        m.clear();
        assert!(!m.any() && m.caption == "kept");
    }
}
