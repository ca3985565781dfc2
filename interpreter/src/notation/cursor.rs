//! Reading a record character by character while knowing the line and column, so the record
//! readers (PGN, SGF) can say where a text stops making sense. Each reader adds its own methods
//! (comments, property values) in its own module.

/// Characters with their 1-based line and column.
pub(crate) struct Cursor {
    chars: Vec<char>,
    i: usize,
    pub line: usize,
    pub column: usize,
}

impl Cursor {
    /// A cursor at the start of `text` (a leading byte-order mark is skipped).
    pub fn new(text: &str) -> Cursor {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        Cursor {
            chars: text.chars().collect(),
            i: 0,
            line: 1,
            column: 1,
        }
    }
    pub fn peek(&self) -> Option<char> {
        self.chars.get(self.i).copied()
    }
    /// The next character, moving past it.
    pub fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.i += 1;
        if c == '\n' {
            self.line += 1;
            self.column = 1;
        } else {
            self.column += 1;
        }
        Some(c)
    }
    /// The characters from here while `keep` holds.
    pub fn take_while(&mut self, keep: impl Fn(char) -> bool) -> String {
        let mut s = String::new();
        while let Some(c) = self.peek().filter(|c| keep(*c)) {
            s.push(c);
            self.bump();
        }
        s
    }
    pub fn skip_space(&mut self) {
        while self.peek().is_some_and(char::is_whitespace) {
            self.bump();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Cursor;

    #[test]
    fn lines_and_columns_follow_the_characters_read() {
        let mut c = Cursor::new("\u{feff}ab\n  é");
        assert_eq!(c.take_while(char::is_alphabetic), "ab");
        assert_eq!((c.line, c.column), (1, 3));
        c.skip_space();
        assert_eq!((c.line, c.column, c.peek()), (2, 3, Some('é')));
        assert_eq!(c.bump(), Some('é'));
        assert_eq!((c.bump(), c.column), (None, 4));
    }
}
