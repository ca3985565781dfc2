//! What the grammar accepts at a place in a ruleset: the language server's completion asks it.
//!
//! The text before the cursor is read with the rule the place calls for (a top-level item, or a
//! clause of the block the cursor is in: a piece's movement, an end rule, a castling condition…),
//! and pest's list of the rules it tried where the text ran out is turned into words (`slide`,
//! `->`) and kinds of value (a name, a number, a piece letter). Nothing here is written per game or
//! per keyword: a new keyword in the grammar is offered without a change here.

use std::collections::HashMap;
use std::sync::OnceLock;

use pest::Parser;

use super::parse::{Rule, RulesParser, TOP_KEYWORDS};

/// One thing the grammar accepts next.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Expect {
    /// A keyword or a mark of punctuation, spelt out (`slide`, `->`).
    Word(&'static str),
    /// A name the rules define (a kind, zone, direction, parameter, player…).
    Name,
    /// A number (a parameter's name is read as one too: the grammar offers `Name` beside it then).
    Number,
    /// An uppercase piece letter.
    Letter,
    /// A square (`e4`).
    Square,
    /// A quoted string.
    Text,
    /// A citation in square brackets.
    Cite,
    /// An offset `(1,2)`.
    Offset,
}

/// What may be written at byte `offset` of `text` (the word the cursor is in is left out: what
/// may stand in its place). `None` when the text before it does not read as the start of an item
/// or clause (the grammar cannot say; a caller falls back on what it knows).
pub fn expected_at(text: &str, offset: usize) -> Option<Vec<Expect>> {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let word_start = text[..offset]
        .char_indices()
        .rev()
        .take_while(|(_, c)| c.is_ascii_alphanumeric() || *c == '_' || *c == '-')
        .last()
        .map_or(offset, |(i, _)| i);
    let place = place_of(text, word_start)?;
    let mut found: Vec<Expect> = Vec::new();
    for (entry, from) in place.tries {
        let prefix = &text[from..word_start];
        if let Some(rules) = positives_at_end(entry, prefix) {
            for r in rules {
                for e in expand(r) {
                    if !found.contains(&e) {
                        found.push(e);
                    }
                }
            }
            break;
        }
    }
    (!found.is_empty()).then_some(found)
}

/// The readings to try for a place: (entry rule, where its text starts), in order; the first that
/// reads up to the cursor answers.
struct Place {
    tries: Vec<(Rule, usize)>,
}

fn place_of(text: &str, at: usize) -> Option<Place> {
    // Open braces (their offsets), and where the current top-level item starts.
    let mut braces: Vec<usize> = Vec::new();
    let mut item_start: Option<usize> = None;
    let mut line_start = 0;
    for line in text[..at].split_inclusive('\n') {
        let trimmed = line.trim_start();
        if braces.is_empty() && starts_item(trimmed) {
            item_start = Some(line_start + line.len() - trimmed.len());
        }
        let (mut in_string, mut in_cite) = (false, false);
        for (i, c) in line.char_indices() {
            if line_start + i >= at {
                break;
            }
            match c {
                '"' if !in_cite => in_string = !in_string,
                '[' if !in_string => in_cite = true,
                ']' if !in_string => in_cite = false,
                '#' if !in_string && !in_cite => break,
                '{' if !in_string && !in_cite => braces.push(line_start + i),
                '}' if !in_string && !in_cite => {
                    braces.pop();
                }
                _ => {}
            }
        }
        line_start += line.len();
    }
    let this_line = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let before = &text[this_line..at];
    let Some(&brace) = braces.last() else {
        // At the top level: a new item on a line of its own, else the item this line belongs to.
        let from = if before.trim().is_empty() || starts_item(before.trim_start()) {
            this_line + before.len() - before.trim_start().len()
        } else {
            item_start?
        };
        return Some(Place {
            tries: vec![(Rule::item_only, from)],
        });
    };
    // Inside a block: which one its header says.
    let header_line = text[..brace].rfind('\n').map_or(0, |i| i + 1);
    let header = text[header_line..brace].trim_start();
    let header = header.strip_prefix("override").map_or(header, str::trim_start);
    let first = header
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .next()
        .unwrap_or("");
    let entry = match first {
        "piece" => Rule::piece_clause_only,
        "castle" => Rule::castle_clause_only,
        "end" => Rule::end_clause_only,
        "chase" => Rule::chase_clause_only,
        "clock" => Rule::clock_clause_only,
        "board" => Rule::board_clause_only,
        "game" => Rule::game_clause_only,
        "turn" if text[brace + 1..this_line.max(brace + 1)].lines().all(is_blank) => Rule::turn_first,
        "turn" => Rule::turn_clause_only,
        // A zone's list of squares, or a block the header does not name: the whole item.
        _ => {
            return Some(Place {
                tries: vec![(Rule::item_only, item_start?)],
            });
        }
    };
    // The clause starts on this line (after the block's `{` when that is on it), or on a line
    // above when this one continues it: each start is tried, nearest first.
    let mut starts = vec![if brace >= this_line {
        let after = &text[brace + 1..at];
        brace + 1 + after.len() - after.trim_start().len()
    } else {
        this_line + before.len() - before.trim_start().len()
    }];
    let mut line = this_line;
    while line > brace + 1 && starts.len() < 8 {
        let above = text[..line - 1].rfind('\n').map_or(0, |i| i + 1).max(brace + 1);
        let content = &text[above..line - 1];
        if !is_blank(content) {
            starts.push(above + content.len() - content.trim_start().len());
        }
        line = above;
    }
    Some(Place {
        tries: starts.into_iter().map(|s| (entry, s)).collect(),
    })
}

fn starts_item(line: &str) -> bool {
    let word = line
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '-'))
        .next()
        .unwrap_or("");
    TOP_KEYWORDS.contains(&word)
}

fn is_blank(line: &str) -> bool {
    let t = line.trim();
    t.is_empty() || t.starts_with('#')
}

/// The rules pest tried where `prefix`, read as `entry`, ran out; `None` if the reading stopped
/// earlier (the text before the cursor does not read as this).
fn positives_at_end(entry: Rule, prefix: &str) -> Option<Vec<Rule>> {
    let fail = |text: &str| match RulesParser::parse(entry, text) {
        Ok(_) => Ok(()),
        Err(e) => {
            let pos = match e.location {
                pest::error::InputLocation::Pos(p) => p,
                pest::error::InputLocation::Span((s, _)) => s,
            };
            match e.variant {
                pest::error::ErrorVariant::ParsingError { positives, .. } => Err((pos, positives)),
                pest::error::ErrorVariant::CustomError { .. } => Err((pos, Vec::new())),
            }
        }
    };
    let end = prefix.len();
    match fail(prefix) {
        Err((pos, rules)) if pos == end => Some(rules),
        Err(_) => None,
        // Whole already (a clause may end here): a character no rule reads shows what may follow.
        Ok(()) => match fail(&format!("{prefix}\u{7}")) {
            Err((pos, rules)) if pos == end => Some(rules),
            _ => None,
        },
    }
}

/// A rule as what may be written: a kind of value, or the words and values that may start it,
/// worked out from the grammar's text (pest names only the outermost rule that failed).
fn expand(rule: Rule) -> Vec<Expect> {
    let mut out = Vec::new();
    let mut seen = Vec::new();
    expand_name(&format!("{rule:?}"), &mut seen, &mut out);
    out
}

fn expand_name(name: &str, seen: &mut Vec<String>, out: &mut Vec<Expect>) {
    if seen.iter().any(|s| s == name) || seen.len() > 64 {
        return;
    }
    seen.push(name.to_string());
    let value: Option<&[Expect]> = match name {
        "ident" | "zone_ref" => Some(&[Expect::Name]),
        "count" | "count_atom" => Some(&[Expect::Number, Expect::Name]),
        "int" | "number" | "sint" | "param_value" => Some(&[Expect::Number]),
        "letter" => Some(&[Expect::Letter]),
        "square" => Some(&[Expect::Square]),
        "string" | "string_body" => Some(&[Expect::Text]),
        "cite" | "cite_text" => Some(&[Expect::Cite]),
        "offset" => Some(&[Expect::Offset]),
        "EOI" | "bad_clause" | "bad_item" | "coord_name" | "WHITESPACE" | "COMMENT" => Some(&[]),
        _ => None,
    };
    if let Some(v) = value {
        for e in v {
            if !out.contains(e) {
                out.push(e.clone());
            }
        }
        return;
    }
    let Some(body) = grammar().get(name) else { return };
    let mut tokens = tokens(body);
    for first in first_of_alternatives(&mut tokens).0 {
        match first {
            First::Literal(word) => {
                // A literal that is no word to type (`"\u{FEFF}"`) is left out.
                if !word.is_empty() && !word.contains('\\') && !out.contains(&Expect::Word(word)) {
                    out.push(Expect::Word(word));
                }
            }
            First::Rule(r) => expand_name(r, seen, out),
        }
    }
}

/// The grammar's rules: name → body (the text between the braces), read once.
fn grammar() -> &'static HashMap<&'static str, &'static str> {
    static RULES: OnceLock<HashMap<&'static str, &'static str>> = OnceLock::new();
    RULES.get_or_init(|| {
        let text: &'static str = include_str!("grammar.pest");
        let mut rules = HashMap::new();
        let mut i = 0;
        while i < text.len() {
            let line_end = text[i..].find('\n').map_or(text.len(), |e| i + e);
            let line = &text[i..line_end];
            if line.trim_start().starts_with("//") || !line.contains('=') {
                i = line_end + 1;
                continue;
            }
            let (name, rest) = line.split_once('=').expect("checked above");
            let name = name.trim();
            let Some(open) = rest.find('{') else {
                i = line_end + 1;
                continue;
            };
            if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
                i = line_end + 1;
                continue;
            }
            // The body runs to the matching brace (braces inside quotes do not count).
            let body_start = i + line.find('=').expect("checked above") + 1 + open + 1;
            let (mut depth, mut j, mut quoted) = (1, body_start, false);
            let chars: Vec<(usize, char)> = text[body_start..].char_indices().collect();
            let mut k = 0;
            while k < chars.len() && depth > 0 {
                let (off, c) = chars[k];
                j = body_start + off;
                match c {
                    '\\' if quoted => k += 1,
                    '"' => quoted = !quoted,
                    '{' if !quoted => depth += 1,
                    '}' if !quoted => depth -= 1,
                    _ => {}
                }
                k += 1;
            }
            rules.insert(name, &text[body_start..j]);
            i = text[j..].find('\n').map_or(text.len(), |e| j + e + 1);
        }
        rules
    })
}

/// What may start a piece of grammar: a literal (`"slide"`), or a rule by name.
#[derive(Clone, Copy, Debug, PartialEq)]
enum First {
    Literal(&'static str),
    Rule(&'static str),
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Token {
    Name(&'static str),
    Literal(&'static str),
    Mark(char),
}

fn tokens(body: &'static str) -> std::iter::Peekable<std::vec::IntoIter<Token>> {
    let mut out = Vec::new();
    let mut chars = body.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        match c {
            '"' => {
                let mut end = body.len();
                let mut escaped = false;
                for (j, d) in chars.by_ref() {
                    if escaped {
                        escaped = false;
                    } else if d == '\\' {
                        escaped = true;
                    } else if d == '"' {
                        end = j;
                        break;
                    }
                }
                out.push(Token::Literal(&body[i + 1..end]));
            }
            c if c.is_ascii_alphanumeric() || c == '_' => {
                let mut end = i + c.len_utf8();
                while let Some(&(j, d)) = chars.peek() {
                    if d.is_ascii_alphanumeric() || d == '_' {
                        end = j + d.len_utf8();
                        chars.next();
                    } else {
                        break;
                    }
                }
                out.push(Token::Name(&body[i..end]));
            }
            c if c.is_whitespace() => {}
            c => out.push(Token::Mark(c)),
        }
    }
    out.into_iter().peekable()
}

type Tokens = std::iter::Peekable<std::vec::IntoIter<Token>>;

/// `a | b | …`: what may start any alternative, and whether one may be empty.
fn first_of_alternatives(t: &mut Tokens) -> (Vec<First>, bool) {
    let (mut firsts, mut empty) = first_of_sequence(t);
    while t.peek() == Some(&Token::Mark('|')) {
        t.next();
        let (f, e) = first_of_sequence(t);
        firsts.extend(f);
        empty |= e;
    }
    (firsts, empty)
}

/// `a ~ b ~ …`: what may start it (b's start counts while everything before may be empty).
fn first_of_sequence(t: &mut Tokens) -> (Vec<First>, bool) {
    let mut firsts = Vec::new();
    let mut empty_so_far = true;
    loop {
        let (f, e) = first_of_term(t);
        if empty_so_far {
            firsts.extend(f);
            empty_so_far = e;
        }
        if t.peek() == Some(&Token::Mark('~')) {
            t.next();
        } else {
            return (firsts, empty_so_far);
        }
    }
}

/// One term with its marks: `!x` and `&x` read nothing, `x?` and `x*` may be empty.
fn first_of_term(t: &mut Tokens) -> (Vec<First>, bool) {
    let mut lookahead = false;
    while let Some(Token::Mark('!' | '&')) = t.peek() {
        t.next();
        lookahead = true;
    }
    let (firsts, mut empty) = match t.next() {
        Some(Token::Literal(l)) => (vec![First::Literal(l)], l.is_empty()),
        Some(Token::Name(n)) => match n {
            "SOI" | "EOI" | "NEWLINE" | "ANY" | "PUSH" | "POP" | "PEEK" => (Vec::new(), n == "SOI"),
            n if n.chars().all(|c| c.is_ascii_uppercase() || c == '_') => (Vec::new(), false),
            n => (vec![First::Rule(n)], false),
        },
        Some(Token::Mark('(')) => {
            let inner = first_of_alternatives(t);
            if t.peek() == Some(&Token::Mark(')')) {
                t.next();
            }
            inner
        }
        _ => (Vec::new(), true),
    };
    while let Some(Token::Mark(m @ ('?' | '*' | '+'))) = t.peek().copied() {
        t.next();
        if m != '+' {
            empty = true;
        }
    }
    if lookahead { (Vec::new(), true) } else { (firsts, empty) }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at_bar(text_with_bar: &str) -> Vec<Expect> {
        let at = text_with_bar.find('|').expect("a | marks the cursor");
        let text = text_with_bar.replacen('|', "", 1);
        expected_at(&text, at).unwrap_or_default()
    }

    fn words(found: &[Expect]) -> Vec<&'static str> {
        found
            .iter()
            .filter_map(|e| match e {
                Expect::Word(w) => Some(*w),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn a_piece_block_offers_movements_and_not_verdicts() {
        let found = at_bar("piece Rook \"R\" {\n  sl|\n}\n");
        let w = words(&found);
        for expected in ["slide", "step", "leap", "promotes", "castle"] {
            assert!(w.contains(&expected), "{expected} in {w:?}");
        }
        for not in ["wins", "draw", "files", "piece"] {
            assert!(!w.contains(&not), "{not} not in {w:?}");
        }
    }

    #[test]
    fn after_a_movement_word_a_name_is_expected() {
        assert_eq!(at_bar("piece Rook \"R\" {\n  slide |\n}\n"), vec![Expect::Name]);
    }

    #[test]
    fn a_finished_movement_may_take_modifiers_or_a_citation() {
        let found = at_bar("piece Pawn \"P\" {\n  step forward |\n}\n");
        assert!(found.contains(&Expect::Cite), "{found:?}");
        let w = words(&found);
        assert!(w.contains(&"from") || w.contains(&"if"), "a modifier in {w:?}");
    }

    #[test]
    fn an_end_rule_expects_conditions_then_arrow_then_verdicts() {
        let w = words(&at_bar("end {\n  mate: |\n}\n"));
        assert!(w.contains(&"no") && w.contains(&"repetition"), "{w:?}");
        assert!(!w.contains(&"slide"), "{w:?}");
        let w = words(&at_bar("end {\n  mate: no legal move |\n}\n"));
        assert!(w.contains(&",") && w.contains(&"->"), "{w:?}");
        let w = words(&at_bar("end {\n  mate: no legal move, in check -> |\n}\n"));
        assert!(w.contains(&"draw") && w.contains(&"side"), "{w:?}");
    }

    #[test]
    fn the_top_level_offers_items_and_an_item_header_its_parts() {
        let w = words(&at_bar("game \"X\" {\n}\n\n|"));
        for expected in ["piece", "zone", "end", "board", "game", "setup"] {
            assert!(w.contains(&expected), "{expected} in {w:?}");
        }
        assert_eq!(at_bar("piece |"), vec![Expect::Name]);
        assert_eq!(at_bar("piece King |"), vec![Expect::Text]);
        let w = words(&at_bar("board 8 x 8 |"));
        assert!(w.contains(&"squares"), "{w:?}");
    }

    #[test]
    fn blocks_of_every_kind_are_told_apart() {
        let w = words(&at_bar("board 8 x 8 squares {\n  |\n}\n"));
        assert!(w.contains(&"files") && w.contains(&"ranks") && !w.contains(&"slide"), "{w:?}");
        let w = words(&at_bar("game \"X\" {\n  |\n}\n"));
        assert!(
            w.contains(&"cite") && w.contains(&"players") && w.contains(&"notation") && w.contains(&"records"),
            "{w:?}"
        );
        // After a format, another may follow a comma.
        let w = words(&at_bar("game \"X\" {\n  records pgn |\n}\n"));
        assert!(w.contains(&","), "{w:?}");
        let w = words(&at_bar("turn {\n  |\n}\n"));
        assert_eq!(w, vec!["move"]);
        let w = words(&at_bar("turn {\n  move\n  |\n}\n"));
        assert_eq!(w, vec!["then"]);
        let w = words(&at_bar("piece King \"K\" {\n  castle with Rook moving 2 {\n    |\n  }\n}\n"));
        assert!(w.contains(&"unmoved") && !w.contains(&"slide"), "{w:?}");
    }

    #[test]
    fn a_clause_continued_on_the_next_line_is_read_from_its_start() {
        let w = words(&at_bar("end {\n  mate: no legal move,\n    in check |\n}\n"));
        assert!(w.contains(&"->"), "{w:?}");
    }

    #[test]
    fn an_unreadable_line_gives_no_answer_rather_than_a_wrong_one() {
        assert_eq!(expected_at("piece Rook \"R\" {\n  zorp zorp \n}\n", 27), None);
    }
}
