//! Annotations: what a game record says about its moves besides the moves themselves — numeric
//! annotation glyphs (NAGs: PGN's `$1` and `!`, SGF's `TE`, `BM`, `IT`, `DO`) and comments.
//!
//! They are kept so a record read and written again says what it said: a reader puts each one
//! with the move it follows ([`Annotation`]), a comment before a line's first move with the line
//! ([`crate::notation::variation::Branch::comment`], [`Commentary::comment`] for the main line),
//! and the writers put them back in their own format. Nothing here depends on a game: a comment is
//! text, a NAG a number from PGN's table.

/// What a record says about one move: its annotation glyphs and its comment.
///
/// Several comments after one move are joined into one, with a single space between them (as
/// python-chess does), so a move has at most one comment.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Annotation {
    /// Numeric annotation glyphs in the order read, each once: `1` good move (`!`), `2` mistake
    /// (`?`), `3` brilliant (`!!`), `4` blunder (`??`), `5` interesting (`!?`), `6` dubious (`?!`),
    /// and PGN's other codes up to 255.
    pub nags: Vec<u8>,
    /// The comment after the move, if any; never empty.
    pub comment: Option<String>,
}

impl Annotation {
    /// Neither a glyph nor a comment.
    pub fn is_empty(&self) -> bool {
        self.nags.is_empty() && self.comment.is_none()
    }

    /// Adds a comment: joined to one already there with a single space; an empty text adds nothing.
    pub fn add_comment(&mut self, text: &str) {
        join_comment(&mut self.comment, text);
    }

    /// Adds a glyph unless the move has it already (a set, as other readers keep it).
    pub fn add_nag(&mut self, nag: u8) {
        if !self.nags.contains(&nag) {
            self.nags.push(nag);
        }
    }
}

/// The main line's annotations and the game comment: what [`Annotation`]s are to a variation's
/// moves, for the record's own line.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Commentary {
    /// The comment before the first move (PGN's text before `1.`, SGF's root `C[]`).
    pub comment: Option<String>,
    /// One per main-line move, in order; may be shorter than the moves (the rest have none; readers
    /// leave out the empty ones at the end).
    pub annotations: Vec<Annotation>,
}

impl Commentary {
    /// No game comment and no annotated move.
    pub fn is_empty(&self) -> bool {
        self.comment.is_none() && self.annotations.iter().all(Annotation::is_empty)
    }
}

/// `annotations` without the empty ones at its end: the form readers and [`crate::notation::variation`]
/// give, so a line without annotations has none and two readings of one line compare equal.
pub(crate) fn trimmed(mut annotations: Vec<Annotation>) -> Vec<Annotation> {
    while annotations.last().is_some_and(Annotation::is_empty) {
        annotations.pop();
    }
    annotations
}

/// Joins `text` (trimmed; nothing if empty) to the comment in `slot` with a single space.
pub(crate) fn join_comment(slot: &mut Option<String>, text: &str) {
    let text = text.trim();
    if text.is_empty() {
        return;
    }
    match slot {
        Some(c) => {
            c.push(' ');
            c.push_str(text);
        }
        None => *slot = Some(text.to_string()),
    }
}

/// The six move-assessment glyphs as PGN writes them after a move, by NAG (`$1` … `$6`).
const GLYPHS: [(&str, u8); 6] = [("!", 1), ("?", 2), ("!!", 3), ("??", 4), ("!?", 5), ("?!", 6)];

/// The NAG a suffix glyph stands for (`!?` → 5), `None` for any other run of `!` and `?`.
///
/// # Examples
/// ```
/// use arbiter::notation::annotation::glyph_nag;
/// assert_eq!((glyph_nag("!"), glyph_nag("??"), glyph_nag("?!")), (Some(1), Some(4), Some(6)));
/// assert_eq!(glyph_nag("!!?"), None);
/// ```
pub fn glyph_nag(glyph: &str) -> Option<u8> {
    GLYPHS.iter().find(|(g, _)| *g == glyph).map(|(_, n)| *n)
}

/// The suffix glyph of a NAG from 1 to 6 (`5` → `!?`).
pub fn nag_glyph(nag: u8) -> Option<&'static str> {
    GLYPHS.iter().find(|(_, n)| *n == nag).map(|(g, _)| *g)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comments_join_with_one_space_and_glyphs_are_kept_once() {
        let mut a = Annotation::default();
        assert!(a.is_empty());
        a.add_comment("  ");
        assert_eq!(a.comment, None, "an empty comment adds nothing");
        a.add_comment(" good ");
        a.add_comment("move");
        assert_eq!(a.comment.as_deref(), Some("good move"));
        a.add_nag(1);
        a.add_nag(14);
        a.add_nag(1);
        assert_eq!(a.nags, [1, 14]);
        for n in 1..=6 {
            assert_eq!(nag_glyph(n).and_then(glyph_nag), Some(n));
        }
        assert_eq!(nag_glyph(7), None);
    }
}
