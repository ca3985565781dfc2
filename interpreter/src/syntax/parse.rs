//! Walks pest's parse tree into the syntax tree. One function per construct; every problem goes to
//! the diagnostics sink.

use pest::Parser;
use pest::iterators::Pair;

use super::ast::*;
use crate::diag::{Diagnostic, Diagnostics, FileId, Span, codes, suggest};

#[derive(pest_derive::Parser)]
#[grammar = "syntax/grammar.pest"]
pub(super) struct RulesParser;

type P<'a> = Pair<'a, Rule>;

struct Cx<'d> {
    file: FileId,
    src: &'d str,
    diags: &'d mut Diagnostics,
    /// Keywords of items that could not be read (see [`RulesFile::unreadable`]).
    unreadable: Vec<String>,
    /// The current item's block has swallowed the next item (a `}` is missing): the lines after
    /// it are not reported one by one.
    unclosed: bool,
}

impl Cx<'_> {
    /// The span of a node, up to its last token. A rule that ends in an absent optional part
    /// (`cite?`) also covers the whitespace and comments pest skipped looking for it; that tail is
    /// left out, so a caret never runs on into a comment or the next line.
    fn span(&self, p: &P) -> Span {
        Span::new(self.file, p.as_span().start(), self.end(p))
    }
    fn end(&self, p: &P) -> usize {
        let end = p.as_span().end();
        match p.clone().into_inner().last() {
            Some(last) => {
                let inner = self.end(&last);
                if is_trivia(&self.src[inner..end]) { inner } else { end }
            }
            None => end,
        }
    }
    fn ident(&self, p: P) -> Ident {
        Ident {
            name: p.as_str().to_string(),
            span: self.span(&p),
        }
    }
    fn string(&self, p: P) -> StringLit {
        let span = self.span(&p);
        let body = p.into_inner().next().map_or("", |b| b.as_str());
        StringLit {
            value: body.to_string(),
            span,
        }
    }
    fn cite(&self, p: P) -> Cite {
        let span = self.span(&p);
        Cite {
            text: p.into_inner().next().map_or("", |b| b.as_str()).trim().to_string(),
            span,
        }
    }
    fn count(&self, p: P) -> Count {
        let inner = p.into_inner().next().expect("grammar: count has one child");
        self.count_of(inner)
    }
    fn count_of(&self, inner: P) -> Count {
        match inner.as_rule() {
            Rule::int => Count::Int(inner.as_str().parse().unwrap_or(i64::MAX), self.span(&inner)),
            Rule::count_expr => {
                let span = self.span(&inner);
                let sum = inner
                    .into_inner()
                    .find(|c| c.as_rule() == Rule::count_sum)
                    .expect("grammar: a sum in parentheses");
                let mut terms = Vec::new();
                let mut plus = true;
                for t in sum.into_inner() {
                    match t.as_rule() {
                        Rule::count_add => plus = t.as_str() == "+",
                        Rule::count_product => {
                            let factors = t
                                .into_inner()
                                .filter(|f| f.as_rule() == Rule::count_atom)
                                .map(|f| self.count_of(f.into_inner().next().expect("grammar: an atom has one child")))
                                .collect();
                            terms.push((plus, factors));
                            plus = true;
                        }
                        _ => {}
                    }
                }
                Count::Expr(terms, span)
            }
            _ => Count::Param(self.ident(inner)),
        }
    }

    /// Reports a line the grammar could not read, re-reading it alone with `entry` to say what was expected.
    fn bad(&mut self, p: &P, entry: Rule, what: &str) {
        // Re-read from the start of the line: the unreadable part often follows a clause the
        // grammar accepted a prefix of (`slide orthogonal` + `to nowhere`).
        let end = p.as_span().end();
        let line_start = self.src[..p.as_span().start()].rfind('\n').map_or(0, |i| i + 1);
        let lead = self.src[line_start..end].len() - self.src[line_start..end].trim_start().len();
        let base = line_start + lead;
        let text = &self.src[base..end];
        // Where the re-read stopped, and the grammar rules it expected there.
        let attempt = |text: &str| -> (usize, Vec<Rule>) {
            match RulesParser::parse(entry, text) {
                Ok(_) => (0, Vec::new()),
                Err(e) => {
                    let pos = match e.location {
                        pest::error::InputLocation::Pos(p) => p,
                        pest::error::InputLocation::Span((s, _)) => s,
                    };
                    let positives = match e.variant {
                        pest::error::ErrorVariant::ParsingError { positives, .. } => positives,
                        pest::error::ErrorVariant::CustomError { .. } => Vec::new(),
                    };
                    (pos, positives)
                }
            }
        };
        if entry == Rule::item_only {
            if let Some(k) = item_keyword(p.as_str()) {
                self.unreadable.push(k.to_string());
            }
        } else if self.unclosed {
            return;
        }
        let own_start = p.as_span().start();
        let (mut pos, mut positives) = attempt(text);
        let (mut base, mut text) = (base, text);
        if base + pos < own_start {
            // The line holds more than this clause (an item header): read what follows the block's
            // `{` (a clause the grammar accepted a prefix of), else the clause alone.
            let brace = self.src[base..own_start].rfind('{').map(|i| base + i + 1);
            let after_brace = brace.map(|b| (b, attempt(&self.src[b..end])));
            match after_brace {
                Some((b, (p2, r2))) if b + p2 >= own_start => {
                    let lead = self.src[b..end].len() - self.src[b..end].trim_start().len();
                    (base, text, pos, positives) = (b + lead, &self.src[b + lead..end], p2.saturating_sub(lead), r2);
                }
                _ => {
                    base = own_start;
                    text = &self.src[own_start..end];
                    (pos, positives) = attempt(text);
                }
            }
        }
        let pos = pos.min(text.len());
        let mut expected: Vec<String> = Vec::new();
        for d in positives.iter().filter_map(|r| describe(*r)) {
            if !expected.contains(&d) {
                expected.push(d);
            }
        }
        // The word at the error (at least one character, which may take several bytes).
        let rest = &text[pos..];
        let word = match rest.find(char::is_whitespace) {
            Some(0) => rest.chars().next().map_or(0, char::len_utf8),
            Some(e) => e,
            None => rest.len(),
        };
        let end = pos + word;
        let span = Span::new(self.file, base + pos, base + end);
        let raw = &text[pos..end];
        let found = raw.trim();
        let (message, label) = match raw.chars().next() {
            None => (format!("this {what} ends too early"), "the line stops here"),
            Some(c) if c.is_ascii_whitespace() => (format!("this {what} ends too early"), "the line stops here"),
            // A space the grammar does not know (U+3000, a no-break space): name it.
            Some(c) if found.is_empty() => (
                format!("cannot read this {what}: unexpected character U+{:04X}", c as u32),
                "not expected here",
            ),
            Some(_) => (format!("cannot read this {what}: unexpected `{found}`"), "not expected here"),
        };
        let mut d = match construct(entry, text, pos, &positives) {
            // A whole condition, verdict, movement or modifier is unknown: list what exists.
            Some(c) => {
                let written = &text[c.range.0..c.range.1];
                let at = Span::new(self.file, base + c.range.0, base + c.range.1);
                let mut d = if written.is_empty() {
                    Diagnostic::error(codes::SYNTAX, span, message).label(label)
                } else if c.whole {
                    Diagnostic::error(
                        codes::SYNTAX,
                        at,
                        format!("cannot read this {what}: `{written}` is not a {}", c.noun),
                    )
                    .label(format!("not a {}", c.noun))
                } else {
                    Diagnostic::error(codes::SYNTAX, at, format!("cannot read this {what}: unexpected `{written}`"))
                        .label(format!("not a {}", c.noun))
                };
                // A misspelt first word: `captued King`, `capturin`. Not for the shortest words
                // (`win in a row` is no misspelt `in`).
                let first = written.split_whitespace().next().unwrap_or("");
                let shortest = if c.whole { 4 } else { 3 };
                if !c.words.contains(&first)
                    && let Some(s) = suggest(first, c.words.iter().copied().filter(|w| w.len() >= shortest))
                {
                    d = d.help(format!("did you mean `{s}`?"));
                }
                d.help(format!("expected a {}: {}", c.noun, c.list))
            }
            None => {
                if entry == Rule::end_clause_only && positives.contains(&Rule::arrow) && !strip_comment(text).contains("->") {
                    // A condition was read and the line has no `->`: the rest cannot be another condition.
                    expected = vec![describe(Rule::comma), describe(Rule::arrow)].into_iter().flatten().collect();
                }
                let mut d = Diagnostic::error(codes::SYNTAX, span, message).label(label);
                if !expected.is_empty() {
                    d = d.help(format!("expected {}", one_of(&expected)));
                }
                d
            }
        };
        if entry != Rule::item_only && pos == 0 && TOP_KEYWORDS.contains(&found) {
            d = d.help("this line starts a new item: is the `}` that closes the block above missing?");
            self.unclosed = true;
            if let Some(k) = item_keyword(text) {
                self.unreadable.push(k.to_string());
            }
        }
        self.diags.push(d);
    }
}

/// The words that start a top-level item (the language server offers them at the top of a file).
pub const TOP_KEYWORDS: &[&str] = &[
    "extends",
    "game",
    "param",
    "board",
    "zone",
    "direction",
    "piece",
    "forbid",
    "allow",
    "after",
    "captures",
    "must",
    "chase",
    "turn",
    "count",
    "phase",
    "end",
    "clock",
    "setup",
    "override",
    "roll",
    "track",
    "another",
    "pieces",
];

/// What may stand where a clause failed, when that is a whole construct of the language (an end
/// rule's condition or verdict, a piece's movement or modifier): pest's list of keywords there says
/// little, the forms themselves say what exists.
struct Construct {
    /// `condition`, `verdict`, `movement`, `modifier`.
    noun: &'static str,
    /// The forms, as the manual writes them.
    list: &'static str,
    /// The words that start one (for "did you mean").
    words: &'static [&'static str],
    /// What was written in its place (byte range in the clause's text).
    range: (usize, usize),
    /// Whether `range` is the whole construct (a condition up to its `,` or `->`), reported as a
    /// whole, rather than one word.
    whole: bool,
}

const CONDITIONS: &str = "no legal move (or turn), in check, repetition N, N moves without capture [or KIND move], \
N passes in a row, [exactly] N in a row along DIRS, only PATTERN, none of KINDS, one side checking throughout, \
one side chasing throughout, captured [KIND], no pieces left, no KIND left, connects [N of] ZONE, ... and ZONE, \
all pieces of WHOSE connected [along DIRS], WHOSE surrounds a cell, royals facing along DIRS, during PHASE, \
COUNT [in ZONE] of WHOSE is|is not|>=|<=|>|< N, neither side can win, mover cannot win, side to move cannot win, \
neither side can move, KIND in ZONE";
const CONDITION_WORDS: &[&str] = &[
    "no",
    "in",
    "repetition",
    "only",
    "none",
    "one",
    "captured",
    "connects",
    "neither",
    "mover",
    "exactly",
    "all",
    "royals",
    "during",
    "pieces",
    "side",
];
const VERDICTS: &str = "side to move loses, side to move wins, mover wins, mover loses, PLAYER wins, PLAYER loses, \
checking side loses, chasing side loses, draw, claimable draw, score by area [with PARAM], no result, most pieces wins, \
highest points wins, points KIND N, ... [, plus N to PLAYER] [, a tie to PLAYER]";
const VERDICT_WORDS: &[&str] = &[
    "side",
    "mover",
    "checking",
    "chasing",
    "draw",
    "claimable",
    "score",
    "no",
    "most",
    "highest",
];
const MOVEMENTS: &str = "step DIRS [N], slide DIRS [up to N], leap (A,B) [blocked at (C,D)], hop DIRS over N, \
jump DIRS [over enemy|own|any] [at any distance], fly, place on empty, drop; or promotes on ZONE to KINDS [at once], \
castle with KIND moving N { ... }, captured only when surrounded along DIRS [, or against ZONE|the edge]";
const MOVEMENT_WORDS: &[&str] = &[
    "step", "slide", "leap", "hop", "jump", "fly", "place", "drop", "promotes", "castle", "captured",
];
const MODIFIERS: &str = "to empty, to enemy, to en-passant, from ZONE, within ZONE, unmoved, marks en-passant, \
capturing, capturing at once, continuing, never turning back, falling DIR, flipping enclosed along DIRS, \
capturing enclosed [exactly N] along DIRS, or against ZONE, flipping neighbours, capturing neighbours, only if it flips, \
only if it captures, as many squares as pieces on its line, over own, next to own, leaving a copy, either side up, \
during PHASE, when COUNT of WHOSE is N, not on a file with own KIND, not giving checkmate, not where it cannot move";
const MODIFIER_WORDS: &[&str] = &[
    "to",
    "from",
    "within",
    "unmoved",
    "marks",
    "capturing",
    "continuing",
    "never",
    "falling",
    "flipping",
    "or",
    "only",
    "as",
    "over",
    "next",
    "leaving",
    "either",
    "during",
    "when",
    "not",
];

/// The rules whose being expected means the re-read stopped inside or at the start of a condition
/// (not at an argument: a name, a number, a zone, a piece letter).
fn in_condition(r: Rule) -> bool {
    matches!(
        r,
        Rule::kw_no
            | Rule::kw_legal
            | Rule::kw_move
            | Rule::kw_in
            | Rule::kw_check
            | Rule::kw_repetition
            | Rule::kw_moves
            | Rule::kw_without
            | Rule::kw_capture
            | Rule::kw_passes
            | Rule::kw_a
            | Rule::kw_row
            | Rule::kw_along
            | Rule::kw_exactly
            | Rule::kw_only
            | Rule::kw_none
            | Rule::kw_of
            | Rule::kw_one
            | Rule::kw_side
            | Rule::kw_checking
            | Rule::kw_chasing
            | Rule::kw_throughout
            | Rule::kw_captured
            | Rule::kw_pieces
            | Rule::kw_left
            | Rule::kw_connects
            | Rule::kw_neither
            | Rule::kw_can
            | Rule::kw_win
            | Rule::kw_cannot
            | Rule::condition
            | Rule::cond_no_legal_move
            | Rule::cond_in_check
            | Rule::cond_repetition
            | Rule::cond_passes
            | Rule::cond_counter
            | Rule::cond_in_a_row
            | Rule::cond_material
            | Rule::cond_none_of
            | Rule::cond_checking
            | Rule::cond_chasing
            | Rule::cond_captured
            | Rule::cond_no_left
            | Rule::cond_connects
            | Rule::cond_neither
            | Rule::cond_neither_win
            | Rule::cond_cannot_win
            | Rule::cond_kind_in
            | Rule::cond_all_connected
            | Rule::cond_ring
            | Rule::cond_royals_facing
            | Rule::cond_during
    )
}

/// The same for a verdict.
fn in_verdict(r: Rule) -> bool {
    matches!(
        r,
        Rule::kw_side
            | Rule::kw_to
            | Rule::kw_move
            | Rule::kw_loses
            | Rule::kw_wins
            | Rule::kw_finishes
            | Rule::kw_mover
            | Rule::kw_most
            | Rule::kw_pieces
            | Rule::kw_checking
            | Rule::kw_chasing
            | Rule::kw_claimable
            | Rule::kw_draw
            | Rule::kw_score
            | Rule::kw_by
            | Rule::kw_area
            | Rule::kw_with
            | Rule::kw_no
            | Rule::kw_result
            | Rule::verdict
            | Rule::v_to_move_loses
            | Rule::v_to_move_wins
            | Rule::v_mover_loses
            | Rule::v_mover_wins
            | Rule::v_mover_finishes
            | Rule::v_checker_loses
            | Rule::v_chaser_loses
            | Rule::v_claimable_draw
            | Rule::v_draw
            | Rule::v_score
            | Rule::v_no_result
            | Rule::v_most_pieces
    )
}

/// A piece clause's first word: a primitive, `promotes` or `castle`.
fn starts_movement(r: Rule) -> bool {
    matches!(
        r,
        Rule::move_form
            | Rule::primitive
            | Rule::promote_decl
            | Rule::castle_decl
            | Rule::step
            | Rule::slide
            | Rule::leap
            | Rule::hop
            | Rule::place
            | Rule::drop
            | Rule::jump
            | Rule::run
    )
}

/// A modifier's first word. (`to` alone is not enough: `slide DIRS up to N` expects it too.)
fn starts_modifier(r: Rule) -> bool {
    matches!(
        r,
        Rule::modifier
            | Rule::from_zone
            | Rule::within_zone
            | Rule::if_unmoved
            | Rule::marks_en_passant
            | Rule::enclosing
            | Rule::capturing
            | Rule::continuing
            | Rule::falling
            | Rule::kw_from
            | Rule::kw_within
            | Rule::kw_unmoved
            | Rule::kw_marks
            | Rule::kw_capturing
            | Rule::kw_continuing
            | Rule::kw_falling
            | Rule::kw_flipping
    )
}

/// The text before a comment (`#` cannot occur in an end rule or a movement clause otherwise).
fn strip_comment(text: &str) -> &str {
    text.find('#').map_or(text, |i| &text[..i])
}

/// `start..end` of `text` without the whitespace at either end.
fn trimmed(text: &str, start: usize, end: usize) -> (usize, usize) {
    let part = &text[start..end];
    let s = start + (part.len() - part.trim_start().len());
    (s, s.max(start + part.trim_end().len()))
}

/// Whether the re-read of a clause (`text`, stopped at `pos` expecting `positives`) failed at a
/// whole construct, and which.
fn construct(entry: Rule, text: &str, pos: usize, positives: &[Rule]) -> Option<Construct> {
    let text = strip_comment(text);
    let pos = pos.min(text.len());
    // The word at `pos`.
    let word = |pos: usize| {
        let rest = &text[pos..];
        (pos, pos + rest.find(|c: char| c.is_whitespace() || c == ',').unwrap_or(rest.len()))
    };
    match entry {
        Rule::end_clause_only => {
            let colon = text.find(':')?;
            if pos <= colon {
                return None;
            }
            let arrow = text[colon..].find("->").map(|i| colon + i);
            match arrow {
                Some(a) if pos >= a + 2 => {
                    if !positives.iter().any(|r| in_verdict(*r)) {
                        return None;
                    }
                    let start = a + 2;
                    let end = text[start..].find('[').map_or(text.len(), |i| start + i);
                    Some(Construct {
                        noun: "verdict",
                        list: VERDICTS,
                        words: VERDICT_WORDS,
                        range: trimmed(text, start, end),
                        whole: true,
                    })
                }
                _ => {
                    if !positives.iter().any(|r| in_condition(*r)) {
                        return None;
                    }
                    if arrow.is_none() && positives.contains(&Rule::arrow) {
                        // A condition was read and no `->` follows: the arrow is what is missing.
                        return None;
                    }
                    // The condition: from the `:` or `,` before it to the `,` or `->` after it.
                    let start = text[..pos].rfind(',').filter(|&i| i > colon).map_or(colon + 1, |i| i + 1);
                    let end = [
                        text[pos..].find(',').map(|i| pos + i),
                        arrow,
                        text[pos..].find('[').map(|i| pos + i),
                    ]
                    .into_iter()
                    .flatten()
                    .min()
                    .unwrap_or(text.len())
                    .max(pos);
                    Some(Construct {
                        noun: "condition",
                        list: CONDITIONS,
                        words: CONDITION_WORDS,
                        range: trimmed(text, start, end),
                        whole: true,
                    })
                }
            }
        }
        Rule::piece_clause_only if pos == 0 && positives.iter().any(|r| starts_movement(*r)) => Some(Construct {
            noun: "movement",
            list: MOVEMENTS,
            words: MOVEMENT_WORDS,
            range: word(pos),
            whole: false,
        }),
        Rule::piece_clause_only if positives.iter().any(|r| starts_modifier(*r)) => Some(Construct {
            noun: "modifier",
            list: MODIFIERS,
            words: MODIFIER_WORDS,
            range: word(pos),
            whole: false,
        }),
        _ => None,
    }
}

/// The keyword of the item a line starts (`board` for `override board ...`), if it starts one.
fn item_keyword(line: &str) -> Option<&str> {
    let mut words = line
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '-'))
        .filter(|w| !w.is_empty());
    let first = words.next()?;
    let k = if first == "override" { words.next()? } else { first };
    TOP_KEYWORDS.contains(&k).then_some(k)
}

/// Whether `s` is only whitespace and comments.
fn is_trivia(s: &str) -> bool {
    let mut rest = s.trim_start();
    while let Some(comment) = rest.strip_prefix('#') {
        rest = comment.find('\n').map_or("", |i| &comment[i..]).trim_start();
    }
    rest.is_empty()
}

fn one_of(v: &[String]) -> String {
    match v.len() {
        1 => v[0].clone(),
        2 => format!("{} or {}", v[0], v[1]),
        _ => format!("one of {}, or {}", v[..v.len() - 1].join(", "), v[v.len() - 1]),
    }
}

/// How a grammar rule is named in "expected ..." messages.
fn describe(r: Rule) -> Option<String> {
    let s = match r {
        Rule::ident | Rule::zone_ref => "a name",
        Rule::int => "a whole number",
        Rule::number | Rule::param_value => "a number",
        Rule::sint => "a whole number",
        Rule::string => "a quoted string",
        Rule::cite => "a citation like `[3.1]`",
        Rule::count => "a number or a parameter name",
        Rule::coord_name => "a coordinate name",
        Rule::square => "a square like `e4`",
        Rule::letter => "an uppercase piece letter",
        Rule::offset => "an offset like `(1,2)`",
        Rule::EOI => "the end of the line",
        Rule::zone_expr | Rule::zone_term => "a zone",
        Rule::condition => "a condition",
        Rule::modifier => "a modifier",
        Rule::move_form => "a movement (`step`, `slide`, `leap`, `hop`, `jump`, `place` or `drop`)",
        Rule::promote_decl => "`promotes`",
        Rule::castle_decl => "`castle`",
        Rule::castle_cond => "a castling condition",
        Rule::end_rule => "an end rule (`name: conditions -> verdict`)",
        Rule::files_decl => "`files`",
        Rule::ranks_decl => "`ranks`",
        Rule::checkered_decl => "`checkered`",
        Rule::draw_decl => "`draw`",
        Rule::cells_decl => "`cells`",
        Rule::cite_decl => "`cite`",
        Rule::players_decl => "`players`",
        Rule::notation_decl => "`notation`",
        Rule::records_decl => "`records`",
        Rule::lbrace => "`{`",
        Rule::rbrace => "`}`",
        Rule::lparen => "`(`",
        Rule::rparen => "`)`",
        Rule::comma => "`,`",
        Rule::colon => "`:`",
        Rule::equals => "`=`",
        Rule::arrow => "`->`",
        Rule::bar => "`|`",
        Rule::dots => "`..`",
        Rule::zone_op => "`+` or `-`",
        Rule::override_kw => "`override`",
        Rule::extends_decl => "`extends`",
        Rule::game_decl => "`game`",
        Rule::param_decl => "`param`",
        Rule::board_decl => "`board`",
        Rule::zone_decl => "`zone`",
        Rule::direction_decl => "`direction`",
        Rule::piece_decl => "`piece`",
        Rule::forbid_decl => "`forbid`",
        Rule::allow_decl => "`allow`",
        Rule::after_decl => "`after`",
        Rule::hand_decl => "`captures go to hand`",
        Rule::must_decl => "`must capture`",
        Rule::explode_decl => "`captures explode`",
        Rule::chase_decl => "`chase`",
        Rule::turn_decl => "`turn`",
        Rule::count_decl => "`count`",
        Rule::roll_decl => "`roll`",
        Rule::track_decl => "`track`",
        Rule::again_decl => "`another turn after`",
        Rule::race_decl => "`pieces stack`, `must enter from hand first` or `must use the most dice`",
        Rule::phase_decl => "`phase`",
        Rule::count_change => "a change (`plus 1 for each capture`, `less 1 for each check given`)",
        Rule::cmp_op => "a comparison (`is`, `is not`, `>=`, `<=`, `>`, `<`)",
        Rule::whose => "whose count (`mover`, `side to move`, or a player)",
        Rule::turn_first => "`move` (the turn's first part)",
        Rule::turn_part => "a later part of the turn (`then place ...`, `then remove enemy`, `then drop ... on the square it left`)",
        Rule::part_if => "`if it made N in a row along DIRS:` or `if it captured:`",
        Rule::end_decl => "`end`",
        Rule::clock_decl => "`clock`",
        Rule::setup_decl => "`setup`",
        r => {
            let name = format!("{r:?}");
            if let Some(k) = name.strip_prefix("kw_") {
                return Some(format!("`{}`", k.replace('_', "-")));
            }
            return match r {
                Rule::verdict => Some("a verdict (`draw`, `side to move loses`, ...)".into()),
                Rule::primitive => Some("`step`, `slide`, `leap`, `hop`, `jump`, `place` or `drop`".into()),
                _ => None,
            };
        }
    };
    Some(s.to_string())
}

/// Parses one file. Never fails: problems go to `diags` and the readable part is returned.
pub fn parse_file(text: &str, file: FileId, diags: &mut Diagnostics) -> RulesFile {
    let mut cx = Cx {
        file,
        src: text,
        diags,
        unreadable: Vec::new(),
        unclosed: false,
    };
    let mut out = RulesFile::default();
    let top = match RulesParser::parse(Rule::file, text) {
        Ok(mut pairs) => pairs.next().expect("grammar: file rule yields one pair"),
        Err(e) => {
            // `bad_item` accepts any line, so this only happens on input such as a lone `}`.
            let pos = match e.location {
                pest::error::InputLocation::Pos(p) => p,
                pest::error::InputLocation::Span((s, _)) => s,
            };
            cx.diags.push(
                Diagnostic::error(
                    codes::SYNTAX,
                    Span::new(file, pos, (pos + 1).min(text.len())),
                    "cannot read this ruleset",
                )
                .label("unexpected here"),
            );
            return out;
        }
    };
    for p in top.into_inner() {
        cx.unclosed = false;
        if let Some(item) = item(&mut cx, p) {
            out.items.push(item);
        }
    }
    out.unreadable = cx.unreadable;
    out
}

fn item(cx: &mut Cx, p: P) -> Option<Item> {
    Some(match p.as_rule() {
        Rule::extends_decl => Item::Extends(cx.string(p.into_inner().nth(1)?)),
        Rule::game_decl => Item::Game(game(cx, p)),
        Rule::param_decl => Item::Param(param(cx, p)),
        Rule::board_decl => Item::Board(board(cx, p)),
        Rule::zone_decl => Item::Zone(zone_decl(cx, p)),
        Rule::direction_decl => Item::Direction(direction_decl(cx, p)),
        Rule::piece_decl => Item::Piece(piece(cx, p)),
        Rule::forbid_decl => Item::Forbid(forbid(cx, p)),
        Rule::allow_decl => Item::Allow(allow(cx, p)),
        Rule::after_decl => {
            let span = cx.span(&p);
            let cite = p.into_inner().find(|c| c.as_rule() == Rule::cite).map(|c| cx.cite(c));
            Item::After(span, cite)
        }
        Rule::hand_decl => {
            let span = cx.span(&p);
            let mut unpromoted = false;
            let mut back = false;
            let mut cite = None;
            for c in p.into_inner() {
                match c.as_rule() {
                    Rule::kw_unpromoted => unpromoted = true,
                    Rule::kw_back => back = true,
                    Rule::cite => cite = Some(cx.cite(c)),
                    _ => {}
                }
            }
            Item::Hand(HandDecl {
                unpromoted,
                back,
                cite,
                span,
            })
        }
        Rule::explode_decl => {
            let span = cx.span(&p);
            let mut sparing = Vec::new();
            let mut cite = None;
            for c in p.into_inner() {
                match c.as_rule() {
                    Rule::kind_list => sparing = kind_list(cx, c),
                    Rule::cite => cite = Some(cx.cite(c)),
                    _ => {}
                }
            }
            Item::Explode(ExplodeDecl { sparing, cite, span })
        }
        Rule::must_decl => {
            let span = cx.span(&p);
            let mut most = false;
            let mut cite = None;
            for c in p.into_inner() {
                match c.as_rule() {
                    Rule::kw_most => most = true,
                    Rule::cite => cite = Some(cx.cite(c)),
                    _ => {}
                }
            }
            Item::Must(MustDecl { most, cite, span })
        }
        Rule::chase_decl => Item::Chase(chase(cx, p)),
        Rule::roll_decl => Item::Roll(roll_decl(cx, p)),
        Rule::race_decl => {
            let span = cx.span(&p);
            let mut rule = RaceRule::EnterFirst { when_can: false };
            let mut cite = None;
            for c in p.into_inner() {
                match c.as_rule() {
                    Rule::stack_rule => {
                        let block = c
                            .into_inner()
                            .find(|k| k.as_rule() == Rule::int)
                            .map(|k| (k.as_str().parse().unwrap_or(i64::MAX), cx.span(&k)));
                        rule = RaceRule::Stack { block };
                    }
                    Rule::enter_first => {
                        rule = RaceRule::EnterFirst {
                            when_can: c.into_inner().any(|k| k.as_rule() == Rule::enter_can),
                        }
                    }
                    Rule::start_first => {
                        if let Some(t) = c.into_inner().find(|k| k.as_rule() == Rule::ident) {
                            rule = RaceRule::StartFirst {
                                track: (t.as_str().to_string(), cx.span(&t)),
                            };
                        }
                    }
                    Rule::most_dice => {
                        rule = RaceRule::MostDice {
                            higher: c.into_inner().any(|k| k.as_rule() == Rule::kw_higher),
                        }
                    }
                    Rule::cite => cite = Some(cx.cite(c)),
                    _ => {}
                }
            }
            Item::Race(RaceDecl { rule, cite, span })
        }
        Rule::again_decl => {
            let span = cx.span(&p);
            let mut after = AgainAfter::Rolling(Vec::new());
            let mut cite = None;
            for c in p.into_inner() {
                match c.as_rule() {
                    Rule::again_landing => {
                        if let Some(z) = c.into_inner().find(|k| k.as_rule() == Rule::zone_expr) {
                            after = AgainAfter::Landing(zone_expr(cx, z));
                        }
                    }
                    Rule::again_rolling => {
                        let numbers = c
                            .into_inner()
                            .filter(|k| k.as_rule() == Rule::int)
                            .map(|k| (k.as_str().parse().unwrap_or(i64::MAX), cx.span(&k)))
                            .collect();
                        after = AgainAfter::Rolling(numbers);
                    }
                    Rule::cite => cite = Some(cx.cite(c)),
                    _ => {}
                }
            }
            Item::Again(AgainDecl { after, cite, span })
        }
        Rule::track_decl => Item::Track(track_decl(cx, p)),
        Rule::turn_decl => Item::Turn(turn(cx, p)),
        Rule::count_decl => Item::Count(count_decl(cx, p)),
        Rule::phase_decl => {
            let span = cx.span(&p);
            let mut name = None;
            let mut until = None;
            let mut cite = None;
            for c in p.into_inner() {
                match c.as_rule() {
                    Rule::ident => name = Some(cx.ident(c)),
                    Rule::phase_end => {
                        let mut conds = Vec::new();
                        for x in c.into_inner() {
                            if x.as_rule() == Rule::hands_empty {
                                until = Some(PhaseEnd::HandsEmpty(cx.span(&x)));
                            } else if let Some(cond) = condition(cx, x) {
                                conds.push(cond);
                            }
                        }
                        if until.is_none() {
                            until = Some(PhaseEnd::Conditions(conds));
                        }
                    }
                    Rule::cite => cite = Some(cx.cite(c)),
                    _ => {}
                }
            }
            Item::Phase(PhaseDecl {
                name: name.expect("grammar: a phase has a name"),
                until,
                cite,
                span,
            })
        }
        Rule::end_decl => Item::End(end(cx, p)),
        Rule::clock_decl => Item::Clock(clock(cx, p)),
        Rule::setup_decl => {
            let mut overrides = false;
            let mut fen = None;
            let mut empty = false;
            let mut handicap = None;
            let span = cx.span(&p);
            for c in p.into_inner() {
                match c.as_rule() {
                    Rule::override_kw => overrides = true,
                    Rule::handicap => handicap = Some(handicap_clause(cx, c)),
                    Rule::string => fen = Some(cx.string(c)),
                    Rule::kw_empty => {
                        empty = true;
                        fen = Some(StringLit {
                            value: String::new(),
                            span,
                        });
                    }
                    _ => {}
                }
            }
            Item::Setup(Setup {
                overrides,
                empty,
                fen: fen?,
                handicap,
            })
        }
        Rule::bad_item => {
            cx.bad(&p, Rule::item_only, "item");
            return None;
        }
        _ => return None, // EOI
    })
}

fn handicap_clause(cx: &mut Cx, p: P) -> Handicap {
    let span = cx.span(&p);
    let mut counts = Vec::new();
    let mut idents = Vec::new();
    let mut cite = None;
    for c in p.into_inner() {
        match c.as_rule() {
            Rule::count => counts.push(cx.count(c)),
            Rule::ident => idents.push(cx.ident(c)),
            Rule::cite => cite = Some(cx.cite(c)),
            _ => {}
        }
    }
    let mut counts = counts.into_iter();
    let mut idents = idents.into_iter();
    let count = counts.next().expect("grammar: a handicap has a count");
    let piece = idents.next().expect("grammar: a handicap names a piece");
    let compensation = match (idents.next(), counts.next(), idents.next()) {
        (Some(side), Some(amount), Some(replaces)) => Some((side, amount, replaces)),
        _ => None,
    };
    Handicap {
        count,
        piece,
        compensation,
        cite,
        span,
    }
}

fn game(cx: &mut Cx, p: P) -> Game {
    let span = cx.span(&p);
    let mut g = Game {
        overrides: false,
        name: StringLit {
            value: String::new(),
            span,
        },
        cite_prefix: None,
        notation: None,
        records: None,
        players: Vec::new(),
        players_cite: None,
        seating: None,
        plays: Vec::new(),
        teams: Vec::new(),
        span,
    };
    for c in p.into_inner() {
        match c.as_rule() {
            Rule::override_kw => g.overrides = true,
            Rule::string => g.name = cx.string(c),
            Rule::cite_decl => g.cite_prefix = c.into_inner().nth(1).map(|s| cx.string(s)),
            Rule::notation_decl => g.notation = c.into_inner().nth(1).map(|s| cx.ident(s)),
            Rule::records_decl => {
                let span = cx.span(&c);
                let r = g.records.get_or_insert_with(|| Records {
                    formats: Vec::new(),
                    cite: None,
                    span,
                });
                for part in c.into_inner() {
                    match part.as_rule() {
                        Rule::ident => r.formats.push(cx.ident(part)),
                        Rule::cite => r.cite = Some(cx.cite(part)),
                        _ => {}
                    }
                }
            }
            Rule::players_decl => {
                for pl in c.into_inner() {
                    match pl.as_rule() {
                        Rule::player => {
                            let mut it = pl.into_inner();
                            let name = cx.ident(it.next().expect("grammar: player starts with a name"));
                            let fen = it.next().map(|s| cx.string(s));
                            g.players.push(Player { name, fen });
                        }
                        Rule::cite => g.players_cite = Some(cx.cite(pl)),
                        Rule::seated => {
                            let span = cx.span(&pl);
                            let how = match pl.into_inner().nth(2).map(|h| h.as_rule()) {
                                Some(Rule::seat_half) => crate::model::Seating::HalfTurn,
                                Some(Rule::seat_quarters) => crate::model::Seating::QuarterTurns,
                                Some(Rule::seat_sixths) => crate::model::Seating::SixthTurns,
                                _ => crate::model::Seating::Mirror,
                            };
                            g.seating = Some((how, span));
                        }
                        _ => {}
                    }
                }
            }
            Rule::play_decl => {
                let span = cx.span(&c);
                let mut idents = Vec::new();
                let mut value = (0, span);
                let mut cite = None;
                for part in c.into_inner() {
                    match part.as_rule() {
                        Rule::ident => idents.push(cx.ident(part)),
                        Rule::int => value = (part.as_str().parse().unwrap_or(u32::MAX), cx.span(&part)),
                        Rule::cite => cite = Some(cx.cite(part)),
                        _ => {}
                    }
                }
                let param = idents.pop().expect("grammar: a play line names a parameter");
                g.plays.push(PlayLine {
                    sides: idents,
                    param,
                    value: value.0,
                    value_span: value.1,
                    cite,
                    span,
                });
            }
            Rule::teams_decl => {
                let span = cx.span(&c);
                let mut teams = Teams {
                    teams: Vec::new(),
                    cite: None,
                    span,
                };
                for part in c.into_inner() {
                    match part.as_rule() {
                        Rule::team => teams.teams.push(part.into_inner().map(|id| cx.ident(id)).collect()),
                        Rule::cite => teams.cite = Some(cx.cite(part)),
                        _ => {}
                    }
                }
                g.teams.push(teams);
            }
            Rule::bad_clause => cx.bad(&c, Rule::game_clause_only, "game clause"),
            _ => {}
        }
    }
    g
}

fn param(cx: &mut Cx, p: P) -> Param {
    let mut overrides = false;
    let mut name = None;
    let mut value = None;
    let mut range = None;
    let mut doc = None;
    for c in p.into_inner() {
        match c.as_rule() {
            Rule::override_kw => overrides = true,
            Rule::ident => name = Some(cx.ident(c)),
            Rule::param_value => {
                let v = c.into_inner().next().expect("grammar: param_value has one child");
                value = Some(match v.as_rule() {
                    Rule::number => ParamValue::Number(v.as_str().parse().unwrap_or(f64::NAN), cx.span(&v)),
                    _ => ParamValue::Word(cx.ident(v)),
                });
            }
            Rule::param_range => {
                let span = cx.span(&c);
                let nums: Vec<f64> = c
                    .into_inner()
                    .filter(|n| n.as_rule() == Rule::number)
                    .map(|n| n.as_str().parse().unwrap_or(f64::NAN))
                    .collect();
                range = Some((nums[0], nums[1], span));
            }
            Rule::string => doc = Some(cx.string(c)),
            _ => {}
        }
    }
    Param {
        overrides,
        name: name.expect("grammar: param has a name"),
        value: value.expect("grammar: param has a value"),
        range,
        doc,
    }
}

fn names(cx: &mut Cx, p: P) -> Names {
    let span = cx.span(&p);
    let inner = p.into_inner().next().expect("grammar: names has a child");
    match inner.as_rule() {
        Rule::name_range => {
            let mut first = String::new();
            let mut last = None;
            let mut skip = None;
            let mut seen_first = false;
            for c in inner.into_inner() {
                match c.as_rule() {
                    Rule::coord_name if !seen_first => {
                        first = c.as_str().to_string();
                        seen_first = true;
                    }
                    Rule::coord_name => skip = Some(c.as_str().to_string()),
                    Rule::count => last = Some(cx.count(c)),
                    _ => {}
                }
            }
            Names::Range { first, last, skip, span }
        }
        _ => {
            let mut v = vec![inner.as_str().to_string()];
            Names::List(std::mem::take(&mut v), span)
        }
    }
}

fn board(cx: &mut Cx, p: P) -> Board {
    let span = cx.span(&p);
    let mut b = Board {
        overrides: false,
        width: Count::Int(0, span),
        height: Count::Int(0, span),
        points: false,
        hexes: false,
        cite: None,
        files: None,
        ranks: None,
        checkered: None,
        drawings: Vec::new(),
        cells: None,
        span,
    };
    let mut counts = 0;
    for c in p.into_inner() {
        match c.as_rule() {
            Rule::override_kw => b.overrides = true,
            Rule::count => {
                if counts == 0 {
                    b.width = cx.count(c)
                } else {
                    b.height = cx.count(c)
                }
                counts += 1;
            }
            Rule::board_kind => {
                let k = c.into_inner().next().map(|k| k.as_rule());
                b.points = k == Some(Rule::kw_points);
                b.hexes = k == Some(Rule::kw_hexes);
            }
            Rule::cite => b.cite = Some(cx.cite(c)),
            Rule::files_decl => b.files = c.into_inner().nth(1).map(|n| names_all(cx, n)),
            Rule::ranks_decl => b.ranks = c.into_inner().nth(1).map(|n| names_all(cx, n)),
            Rule::checkered_decl => {
                let span = cx.span(&c);
                let mut sq = String::new();
                let mut dark = true;
                for k in c.into_inner() {
                    match k.as_rule() {
                        Rule::square => sq = k.as_str().to_string(),
                        Rule::kw_light => dark = false,
                        _ => {}
                    }
                }
                b.checkered = Some((sq, dark, span));
            }
            Rule::draw_decl => {
                let dspan = cx.span(&c);
                for d in c.into_inner() {
                    match d.as_rule() {
                        Rule::draw_river => {
                            let v: Vec<String> = d
                                .into_inner()
                                .filter(|x| x.as_rule() == Rule::coord_name)
                                .map(|x| x.as_str().to_string())
                                .collect();
                            b.drawings.push(Drawing::River {
                                between: (v[0].clone(), v[1].clone()),
                                span: dspan,
                            });
                        }
                        Rule::draw_lines => {
                            let segments = d
                                .into_inner()
                                .filter(|x| x.as_rule() == Rule::segment)
                                .map(|s| {
                                    let v: Vec<String> = s.into_inner().map(|x| x.as_str().to_string()).collect();
                                    (v[0].clone(), v[1].clone())
                                })
                                .collect();
                            b.drawings.push(Drawing::Lines { segments, span: dspan });
                        }
                        Rule::draw_stars => b.drawings.push(Drawing::Stars(dspan)),
                        Rule::draw_marks => {
                            let squares = d
                                .into_inner()
                                .filter(|x| x.as_rule() == Rule::square)
                                .map(|x| x.as_str().to_string())
                                .collect();
                            b.drawings.push(Drawing::Marks { squares, span: dspan });
                        }
                        _ => {}
                    }
                }
            }
            Rule::cells_decl => b.cells = c.into_inner().find(|z| z.as_rule() == Rule::zone_expr).map(|z| zone_expr(cx, z)),
            Rule::bad_clause => cx.bad(&c, Rule::board_clause_only, "board clause"),
            _ => {}
        }
    }
    b
}

/// `names` where the list form is a sequence of coordinate names.
fn names_all(cx: &mut Cx, p: P) -> Names {
    let span = cx.span(&p);
    let children: Vec<P> = p.clone().into_inner().collect();
    if children.len() == 1 && children[0].as_rule() == Rule::name_range {
        return names(cx, p);
    }
    Names::List(children.iter().map(|c| c.as_str().to_string()).collect(), span)
}

fn zone_expr(cx: &mut Cx, p: P) -> ZoneExpr {
    let span = cx.span(&p);
    let mut first = None;
    let mut rest = Vec::new();
    let mut union = true;
    for c in p.into_inner() {
        match c.as_rule() {
            Rule::zone_op => union = c.as_str() == "+",
            Rule::zone_term => {
                let t = zone_term(cx, c);
                if first.is_none() {
                    first = Some(t);
                } else {
                    rest.push((union, t));
                }
            }
            _ => {}
        }
    }
    ZoneExpr {
        first: first.expect("grammar: zone_expr starts with a term"),
        rest,
        span,
    }
}

fn zone_term(cx: &mut Cx, p: P) -> ZoneTerm {
    let inner = p.into_inner().next().expect("grammar: zone_term has a child");
    let span = cx.span(&inner);
    let rule = inner.as_rule();
    let words: Vec<String> = inner
        .clone()
        .into_inner()
        .filter(|c| matches!(c.as_rule(), Rule::square | Rule::coord_name))
        .map(|c| c.as_str().to_string())
        .collect();
    match rule {
        Rule::zone_where => {
            let mut rels = Vec::new();
            for rel in inner.into_inner().filter(|r| r.as_rule() == Rule::lin_rel) {
                let mut lins = Vec::new();
                let mut cmp = LinCmp::Le;
                for c in rel.into_inner() {
                    match c.as_rule() {
                        Rule::lin => {
                            let mut terms = Vec::new();
                            let mut plus = true;
                            for t in c.into_inner() {
                                match t.as_rule() {
                                    Rule::lin_op => plus = t.as_str() == "+",
                                    Rule::lin_term => {
                                        let x = t.into_inner().next().expect("grammar: a term has a child");
                                        let term = match x.as_rule() {
                                            Rule::kw_file => LinTerm::File,
                                            Rule::kw_rank => LinTerm::Rank,
                                            _ => LinTerm::Count(cx.count(x)),
                                        };
                                        terms.push((plus, term));
                                        plus = true;
                                    }
                                    _ => {}
                                }
                            }
                            lins.push(Lin { terms });
                        }
                        Rule::lin_cmp => {
                            cmp = match c.as_str() {
                                "<=" => LinCmp::Le,
                                ">=" => LinCmp::Ge,
                                "<" => LinCmp::Lt,
                                ">" => LinCmp::Gt,
                                _ => LinCmp::Eq,
                            }
                        }
                        _ => {}
                    }
                }
                let right = lins.pop().expect("grammar: two sides");
                let left = lins.pop().expect("grammar: two sides");
                rels.push((left, cmp, right));
            }
            ZoneTerm::Where(rels, span)
        }
        Rule::zone_rect => ZoneTerm::Rect(words[0].clone(), words[1].clone(), span),
        Rule::zone_ranks => ZoneTerm::Ranks(words[0].clone(), words[1].clone(), span),
        Rule::zone_rank => ZoneTerm::Ranks(words[0].clone(), words[0].clone(), span),
        Rule::zone_files => ZoneTerm::Files(words[0].clone(), words[1].clone(), span),
        Rule::zone_file => ZoneTerm::Files(words[0].clone(), words[0].clone(), span),
        Rule::zone_all => ZoneTerm::All(span),
        Rule::zone_square => ZoneTerm::Square(words[0].clone(), span),
        Rule::zone_list => ZoneTerm::List(words, span),
        _ => ZoneTerm::Ref(cx.ident(inner.into_inner().next().expect("grammar: zone_ref holds a name"))),
    }
}

/// `roll ...` (see [`RollDecl`]).
fn roll_decl(cx: &mut Cx, p: P) -> RollDecl {
    let span = cx.span(&p);
    let mut overrides = false;
    let mut what = RollWhat::List(Vec::new());
    let mut cite = None;
    for c in p.into_inner() {
        match c.as_rule() {
            Rule::override_kw => overrides = true,
            Rule::roll_list => {
                let entries = c
                    .into_inner()
                    .filter(|k| k.as_rule() == Rule::int)
                    .map(|k| (k.as_str().parse().unwrap_or(i64::MAX), cx.span(&k)))
                    .collect();
                what = RollWhat::List(entries);
            }
            Rule::roll_dice => {
                let (mut count, mut faces, mut summed, mut apart) = (None, None, None, None);
                for k in c.into_inner() {
                    match k.as_rule() {
                        Rule::count => count = Some(cx.count(k)),
                        Rule::roll_faces => faces = k.into_inner().find(|f| f.as_rule() == Rule::count).map(|f| cx.count(f)),
                        Rule::kw_summed => summed = Some(cx.span(&k)),
                        Rule::roll_apart => {
                            let span = cx.span(&k);
                            apart = Some((span, k.into_inner().any(|d| d.as_rule() == Rule::kw_doubles)));
                        }
                        _ => {}
                    }
                }
                what = RollWhat::Dice {
                    count: count.expect("grammar: a roll's count"),
                    faces,
                    summed,
                    apart,
                };
            }
            Rule::cite => cite = Some(cx.cite(c)),
            _ => {}
        }
    }
    RollDecl {
        overrides,
        what,
        cite,
        span,
    }
}

/// `track NAME = SQUARES [for both]` (see [`TrackDecl`]).
fn track_decl(cx: &mut Cx, p: P) -> TrackDecl {
    let span = cx.span(&p);
    let (mut overrides, mut name, mut squares, mut both, mut cite) = (false, None, Vec::new(), false, None);
    for c in p.into_inner() {
        match c.as_rule() {
            Rule::override_kw => overrides = true,
            Rule::ident => name = Some(cx.ident(c)),
            Rule::square => squares.push((c.as_str().to_string(), cx.span(&c))),
            Rule::zone_both => both = true,
            Rule::cite => cite = Some(cx.cite(c)),
            _ => {}
        }
    }
    TrackDecl {
        overrides,
        name: name.expect("grammar: a track's name"),
        squares,
        both,
        cite,
        span,
    }
}

fn zone_decl(cx: &mut Cx, p: P) -> ZoneDecl {
    let mut overrides = false;
    let mut name = None;
    let mut exprs = Vec::new();
    let mut players = Vec::new();
    let mut cite = None;
    let mut both = false;
    for c in p.into_inner() {
        match c.as_rule() {
            Rule::override_kw => overrides = true,
            Rule::ident => name = Some(cx.ident(c)),
            Rule::zone_both => both = true,
            Rule::zone_expr => exprs.push(zone_expr(cx, c)),
            Rule::zone_for => {
                if let Some(id) = c.into_inner().find(|k| k.as_rule() == Rule::ident) {
                    players.push(cx.ident(id));
                }
            }
            Rule::cite => cite = Some(cx.cite(c)),
            _ => {}
        }
    }
    let mut exprs = exprs.into_iter();
    let expr = exprs.next().expect("grammar: zone has a value");
    let per_player = match (exprs.next(), players.len()) {
        (Some(second), 2) => {
            let mut ps = players.into_iter();
            let (a, b) = (ps.next().expect("two players"), ps.next().expect("two players"));
            Some((a, second, b))
        }
        _ => None,
    };
    ZoneDecl {
        overrides,
        name: name.expect("grammar: zone has a name"),
        expr,
        per_player,
        both,
        cite,
    }
}

fn offset(cx: &Cx, p: P) -> (i32, i32, Span) {
    let span = cx.span(&p);
    let v: Vec<i32> = p
        .into_inner()
        .filter(|n| n.as_rule() == Rule::sint)
        .map(|n| n.as_str().parse().unwrap_or(i32::MAX))
        .collect();
    (v[0], v[1], span)
}

fn direction_decl(cx: &mut Cx, p: P) -> DirectionDecl {
    let span = cx.span(&p);
    let mut name = None;
    let mut offsets = Vec::new();
    let mut names = Vec::new();
    for c in p.into_inner() {
        match c.as_rule() {
            Rule::ident => name = Some(cx.ident(c)),
            Rule::offset => offsets.push(offset(cx, c)),
            Rule::dir_ref => names.extend(c.into_inner().map(|i| cx.ident(i))),
            _ => {}
        }
    }
    DirectionDecl {
        name: name.expect("grammar: direction has a name"),
        offsets,
        names,
        span,
    }
}

fn dirs(cx: &Cx, p: P) -> Vec<Ident> {
    p.into_inner().filter(|i| i.as_rule() == Rule::ident).map(|i| cx.ident(i)).collect()
}

fn piece(cx: &mut Cx, p: P) -> PieceDecl {
    let span = cx.span(&p);
    let mut d = PieceDecl {
        overrides: false,
        name: Ident { name: String::new(), span },
        letter: StringLit {
            value: String::new(),
            span,
        },
        royal: false,
        unlettered: false,
        neutral: None,
        glyphs: Vec::new(),
        written: None,
        cite: None,
        forms: Vec::new(),
        promotions: Vec::new(),
        castles: Vec::new(),
        surround: None,
        span,
    };
    for c in p.into_inner() {
        match c.as_rule() {
            Rule::override_kw => d.overrides = true,
            Rule::ident => d.name = cx.ident(c),
            Rule::string => d.letter = cx.string(c),
            Rule::piece_attr => {
                let a = c.into_inner().next().expect("grammar: piece_attr has a child");
                match a.as_rule() {
                    Rule::kw_royal => d.royal = true,
                    Rule::kw_unlettered => d.unlettered = true,
                    Rule::kw_neutral => d.neutral = Some(cx.span(&a)),
                    Rule::written_attr => d.written = a.into_inner().nth(1).map(|s| cx.string(s)),
                    _ => {
                        d.glyphs = a
                            .into_inner()
                            .filter(|s| s.as_rule() == Rule::string)
                            .map(|s| cx.string(s))
                            .collect()
                    }
                }
            }
            Rule::cite => d.cite = Some(cx.cite(c)),
            Rule::move_form => d.forms.push(move_form(cx, c)),
            Rule::promote_decl => {
                let span = cx.span(&c);
                let mut zone = None;
                let mut kinds = Vec::new();
                let mut cite = None;
                let mut ends_move = None;
                let mut at_once = None;
                let mut optional = None;
                let mut forced = None;
                let mut leaving = None;
                for k in c.into_inner() {
                    match k.as_rule() {
                        Rule::zone_expr => zone = Some(zone_expr(cx, k)),
                        Rule::ident => kinds.push(cx.ident(k)),
                        Rule::ends_move => ends_move = Some(cx.span(&k)),
                        Rule::promo_at_once => at_once = Some(cx.span(&k)),
                        Rule::promo_optional => optional = Some(cx.span(&k)),
                        Rule::promo_leaving => leaving = Some(cx.span(&k)),
                        Rule::promo_forced => {
                            forced = k.into_inner().find(|z| z.as_rule() == Rule::zone_expr).map(|z| zone_expr(cx, z));
                        }
                        Rule::cite => cite = Some(cx.cite(k)),
                        _ => {}
                    }
                }
                d.promotions.push(Promotion {
                    zone: zone.expect("grammar: promotion has a zone"),
                    kinds,
                    ends_move,
                    at_once,
                    optional,
                    forced,
                    leaving,
                    cite,
                    span,
                });
            }
            Rule::castle_decl => d.castles.push(castle(cx, c)),
            Rule::surround_decl => {
                let span = cx.span(&c);
                let mut sur = Surround {
                    dirs: Vec::new(),
                    against: Vec::new(),
                    edge: false,
                    cite: None,
                    span,
                };
                for k in c.into_inner() {
                    match k.as_rule() {
                        Rule::dirs => sur.dirs = dirs(cx, k),
                        Rule::zone_expr => sur.against.push(zone_expr(cx, k)),
                        Rule::surround_edge => sur.edge = true,
                        Rule::cite => sur.cite = Some(cx.cite(k)),
                        _ => {}
                    }
                }
                d.surround = Some(sur);
            }
            Rule::bad_clause => cx.bad(&c, Rule::piece_clause_only, "movement clause"),
            _ => {}
        }
    }
    d
}

fn move_form(cx: &mut Cx, p: P) -> MoveForm {
    let span = cx.span(&p);
    let mut primitive = None;
    let mut modifiers = Vec::new();
    let mut cite = None;
    for c in p.into_inner() {
        let cspan = cx.span(&c);
        match c.as_rule() {
            Rule::step => {
                let mut ds = Vec::new();
                let mut distance = None;
                for k in c.into_inner() {
                    match k.as_rule() {
                        Rule::dirs => ds = dirs(cx, k),
                        Rule::int => distance = Some((k.as_str().parse().unwrap_or(i64::MAX), cx.span(&k))),
                        _ => {}
                    }
                }
                primitive = Some(Primitive::Step { dirs: ds, distance });
            }
            Rule::slide => {
                let mut ds = Vec::new();
                let mut max = None;
                for k in c.into_inner() {
                    match k.as_rule() {
                        Rule::dirs => ds = dirs(cx, k),
                        Rule::count => max = Some(cx.count(k)),
                        _ => {}
                    }
                }
                primitive = Some(Primitive::Slide { dirs: ds, max });
            }
            Rule::leap => {
                let offs: Vec<_> = c
                    .into_inner()
                    .filter(|k| k.as_rule() == Rule::offset)
                    .map(|k| offset(cx, k))
                    .collect();
                primitive = Some(Primitive::Leap {
                    offset: offs[0],
                    block: offs[1..].to_vec(),
                });
            }
            Rule::hop => {
                let mut ds = Vec::new();
                let mut screens = None;
                for k in c.into_inner() {
                    match k.as_rule() {
                        Rule::dirs => ds = dirs(cx, k),
                        Rule::count => screens = Some(cx.count(k)),
                        Rule::kinds_not => {
                            let span = cx.span(&k);
                            let kinds = k.into_inner().filter(|i| i.as_rule() == Rule::ident).map(|i| cx.ident(i)).collect();
                            modifiers.push(Modifier::KindsNot {
                                screens: true,
                                kinds,
                                span,
                            });
                        }
                        _ => {}
                    }
                }
                primitive = Some(Primitive::Hop {
                    dirs: ds,
                    screens: screens.expect("grammar: hop has a count"),
                });
            }
            Rule::place => primitive = Some(Primitive::Place),
            Rule::drop => primitive = Some(Primitive::Drop),
            Rule::fly => primitive = Some(Primitive::Fly),
            Rule::run => {
                let track = c
                    .into_inner()
                    .find(|k| k.as_rule() == Rule::ident)
                    .expect("grammar: a track's name");
                primitive = Some(Primitive::Run { track: cx.ident(track) });
            }
            Rule::bearing_off => {
                let zone = c.into_inner().find(|k| k.as_rule() == Rule::zone_expr).map(|z| zone_expr(cx, z));
                modifiers.push(Modifier::BearingOff(zone, cspan));
            }
            Rule::overshooting => modifiers.push(Modifier::Overshooting(cspan)),
            Rule::at_start => modifiers.push(Modifier::AtStart(track_named(cx, c), cspan)),
            Rule::on_roll => {
                let numbers = c
                    .into_inner()
                    .filter(|k| k.as_rule() == Rule::int)
                    .map(|k| (k.as_str().parse().unwrap_or(i64::MAX), cx.span(&k)))
                    .collect();
                modifiers.push(Modifier::OnRoll(numbers, cspan));
            }
            Rule::by_roll => modifiers.push(Modifier::ByRoll(track_named(cx, c), cspan)),
            Rule::jump => {
                let mut ds = Vec::new();
                let mut over = None;
                let mut far = None;
                for k in c.into_inner() {
                    match k.as_rule() {
                        Rule::dirs => ds = dirs(cx, k),
                        Rule::jump_far => far = Some(cx.span(&k)),
                        Rule::jump_over => {
                            let span = cx.span(&k);
                            let what = match k.into_inner().nth(1).map(|w| w.as_rule()) {
                                Some(Rule::kw_enemy) => JumpOver::Enemy,
                                Some(Rule::kw_own) => JumpOver::Own,
                                _ => JumpOver::Any,
                            };
                            over = Some((what, span));
                        }
                        _ => {}
                    }
                }
                primitive = Some(Primitive::Jump { dirs: ds, over, far });
            }
            Rule::enclosing => {
                let mut flip = false;
                let mut ds = Vec::new();
                let mut exact = None;
                for k in c.into_inner() {
                    match k.as_rule() {
                        Rule::kw_flipping => flip = true,
                        Rule::dirs => ds = dirs(cx, k),
                        Rule::int => exact = Some((k.as_str().parse().unwrap_or(i64::MAX), cx.span(&k))),
                        _ => {}
                    }
                }
                modifiers.push(Modifier::Enclosing {
                    flip,
                    exact,
                    dirs: ds,
                    span: cspan,
                });
            }
            Rule::enclose_against => {
                if let Some(z) = c.into_inner().find(|k| k.as_rule() == Rule::zone_expr) {
                    modifiers.push(Modifier::EncloseAgainst(zone_expr(cx, z)));
                }
            }
            Rule::capturing => modifiers.push(Modifier::Capturing(cspan)),
            Rule::continuing => modifiers.push(Modifier::Continuing(cspan)),
            Rule::falling => {
                let ds = c
                    .into_inner()
                    .find(|k| k.as_rule() == Rule::dirs)
                    .map(|k| dirs(cx, k))
                    .unwrap_or_default();
                modifiers.push(Modifier::Falling(ds, cspan));
            }
            Rule::only_if => {
                let flips = c.into_inner().any(|k| k.as_rule() == Rule::kw_flips);
                modifiers.push(Modifier::OnlyIf { flips, span: cspan });
            }
            Rule::no_file_with => {
                let id = c
                    .into_inner()
                    .find(|k| k.as_rule() == Rule::ident)
                    .expect("grammar: a kind after `own`");
                modifiers.push(Modifier::NoFileWith(cx.ident(id), cspan));
            }
            Rule::not_giving_mate => modifiers.push(Modifier::NotGivingMate(cspan)),
            Rule::not_stuck => modifiers.push(Modifier::NotStuck(cspan)),
            Rule::during => modifiers.push(Modifier::During(dirs(cx, c), cspan)),
            Rule::counted => modifiers.push(Modifier::Counted(cspan)),
            Rule::capturing_at_once => modifiers.push(Modifier::CapturingAtOnce(cspan)),
            Rule::next_to_own => modifiers.push(Modifier::NextToOwn(cspan)),
            Rule::either_side => modifiers.push(Modifier::EitherSide(cspan)),
            Rule::leaving_copy => modifiers.push(Modifier::LeavingCopy(cspan)),
            Rule::neighbours => {
                let flip = c.into_inner().any(|k| k.as_rule() == Rule::kw_flipping);
                modifiers.push(Modifier::Neighbours { flip, span: cspan });
            }
            Rule::when_count => {
                if let Some(cond) = c
                    .into_inner()
                    .find(|k| k.as_rule() == Rule::cond_compare)
                    .and_then(|k| condition(cx, k))
                {
                    modifiers.push(Modifier::When(Box::new(cond), cspan));
                }
            }
            Rule::never_back => modifiers.push(Modifier::NeverBack(cspan)),
            Rule::again_at_will => modifiers.push(Modifier::AgainAtWill(cspan)),
            Rule::over_own => modifiers.push(Modifier::OverOwn(cspan)),
            Rule::to_empty => modifiers.push(if c.into_inner().any(|k| k.as_rule() == Rule::or_enemy) {
                Modifier::ToEmptyOrEnemy(cspan)
            } else {
                Modifier::ToEmpty(cspan)
            }),
            Rule::to_enemy => {
                modifiers.push(Modifier::ToEnemy(cspan));
                if let Some(k) = c.into_inner().find(|k| k.as_rule() == Rule::kinds_not) {
                    let span = cx.span(&k);
                    let kinds = k.into_inner().filter(|i| i.as_rule() == Rule::ident).map(|i| cx.ident(i)).collect();
                    modifiers.push(Modifier::KindsNot {
                        screens: false,
                        kinds,
                        span,
                    });
                }
            }
            Rule::to_en_passant => modifiers.push(Modifier::ToEnPassant(cspan)),
            Rule::if_unmoved => modifiers.push(Modifier::Unmoved(cspan)),
            Rule::marks_en_passant => modifiers.push(Modifier::MarksEnPassant(cspan)),
            Rule::from_zone | Rule::within_zone => {
                let from = c.as_rule() == Rule::from_zone;
                let z = zone_expr(cx, c.into_inner().nth(1).expect("grammar: zone after from/within"));
                modifiers.push(if from { Modifier::From(z) } else { Modifier::Within(z) });
            }
            Rule::cite => cite = Some(cx.cite(c)),
            _ => {}
        }
    }
    MoveForm {
        primitive: primitive.expect("grammar: move form starts with a primitive"),
        modifiers,
        cite,
        span,
    }
}

fn castle(cx: &mut Cx, p: P) -> Castle {
    let span = cx.span(&p);
    let mut partner = None;
    let mut distance = (0, span);
    let mut cite = None;
    let mut conditions = Vec::new();
    for c in p.into_inner() {
        match c.as_rule() {
            Rule::ident => partner = Some(cx.ident(c)),
            Rule::int => distance = (c.as_str().parse().unwrap_or(i64::MAX), cx.span(&c)),
            Rule::cite => cite = Some(cx.cite(c)),
            Rule::castle_cond => {
                let cspan = cx.span(&c);
                let mut kind = CastleCondKind::Unmoved;
                let mut ccite = None;
                for k in c.into_inner() {
                    match k.as_rule() {
                        Rule::cond_unmoved => kind = CastleCondKind::Unmoved,
                        Rule::cond_partner_unmoved => kind = CastleCondKind::PartnerUnmoved,
                        Rule::cond_empty_between => kind = CastleCondKind::EmptyBetween,
                        Rule::cond_not_in_check => kind = CastleCondKind::NotInCheck,
                        Rule::cond_path_safe => kind = CastleCondKind::PathSafe,
                        Rule::cite => ccite = Some(cx.cite(k)),
                        _ => {}
                    }
                }
                conditions.push(CastleCond {
                    kind,
                    cite: ccite,
                    span: cspan,
                });
            }
            Rule::bad_clause => cx.bad(&c, Rule::castle_clause_only, "castling condition"),
            _ => {}
        }
    }
    Castle {
        partner: partner.expect("grammar: castle names a partner"),
        distance,
        cite,
        conditions,
        span,
    }
}

fn forbid(cx: &mut Cx, p: P) -> Forbid {
    let span = cx.span(&p);
    let mut kind = ForbidKind::RoyalAttacked;
    let mut cite = None;
    for c in p.into_inner() {
        match c.as_rule() {
            Rule::forbid_royal_attacked => kind = ForbidKind::RoyalAttacked,
            Rule::forbid_suicide => kind = ForbidKind::Suicide,
            Rule::forbid_repetition => {
                let id = c
                    .into_inner()
                    .find(|k| k.as_rule() == Rule::ident)
                    .expect("grammar: repetition names its kind");
                kind = ForbidKind::Repetition(cx.ident(id));
            }
            Rule::forbid_royals_facing => {
                let d = c
                    .into_inner()
                    .find(|k| k.as_rule() == Rule::dirs)
                    .expect("grammar: facing along dirs");
                kind = ForbidKind::RoyalsFacing(dirs(cx, d));
            }
            Rule::cite => cite = Some(cx.cite(c)),
            _ => {}
        }
    }
    Forbid { kind, cite, span }
}

fn allow(cx: &mut Cx, p: P) -> Allow {
    let span = cx.span(&p);
    let mut what = None;
    let mut cite = None;
    let mut when_stuck = None;
    let mut if_param = None;
    for c in p.into_inner() {
        match c.as_rule() {
            Rule::ident => what = Some(cx.ident(c)),
            Rule::allow_when_stuck => when_stuck = Some(cx.span(&c)),
            Rule::allow_if => if_param = c.into_inner().find(|k| k.as_rule() == Rule::ident).map(|k| cx.ident(k)),
            Rule::cite => cite = Some(cx.cite(c)),
            _ => {}
        }
    }
    Allow {
        what: what.expect("grammar: allow names something"),
        when_stuck,
        if_param,
        cite,
        span,
    }
}

fn clock(cx: &mut Cx, p: P) -> Vec<ClockControl> {
    let mut controls = Vec::new();
    for c in p.into_inner() {
        match c.as_rule() {
            Rule::clock_control => controls.push(clock_control(cx, c)),
            Rule::bad_clause => cx.bad(&c, Rule::clock_clause_only, "time control"),
            _ => {}
        }
    }
    controls
}

fn duration(cx: &Cx, p: P) -> Duration {
    let span = cx.span(&p);
    let mut value = f64::NAN;
    let mut unit = 1.0;
    for c in p.into_inner() {
        match c.as_rule() {
            Rule::number => value = c.as_str().parse().unwrap_or(f64::NAN),
            Rule::time_unit => {
                unit = match c.as_str() {
                    "h" => 3600.0,
                    "min" => 60.0,
                    _ => 1.0,
                }
            }
            _ => {}
        }
    }
    Duration {
        seconds: value * unit,
        span,
    }
}

fn whole(cx: &Cx, p: &P) -> (i64, Span) {
    (p.as_str().parse().unwrap_or(i64::MAX), cx.span(p))
}

fn clock_control(cx: &mut Cx, p: P) -> ClockControl {
    let span = cx.span(&p);
    let mut c = ClockControl {
        overrides: false,
        name: Ident { name: String::new(), span },
        stages: Vec::new(),
        increment: None,
        delay: None,
        cite: None,
        span,
    };
    for part in p.into_inner() {
        match part.as_rule() {
            Rule::override_kw => c.overrides = true,
            Rule::ident => c.name = cx.ident(part),
            Rule::cite => c.cite = Some(cx.cite(part)),
            Rule::clock_increment => {
                if let Some(d) = part.into_inner().find(|x| x.as_rule() == Rule::duration) {
                    c.increment = Some(duration(cx, d));
                }
            }
            Rule::clock_delay => {
                if let Some(d) = part.into_inner().find(|x| x.as_rule() == Rule::duration) {
                    c.delay = Some(duration(cx, d));
                }
            }
            Rule::clock_stage => {
                let stage_span = cx.span(&part);
                let mut moves = None;
                let mut time = None;
                let mut repeat = false;
                let mut periods = None;
                for x in part.into_inner() {
                    match x.as_rule() {
                        Rule::clock_moves => moves = x.into_inner().find(|i| i.as_rule() == Rule::int).map(|i| whole(cx, &i)),
                        Rule::duration => time = Some(duration(cx, x)),
                        Rule::clock_repeat => repeat = true,
                        Rule::clock_periods => {
                            let mut count = None;
                            let mut each = None;
                            for y in x.into_inner() {
                                match y.as_rule() {
                                    Rule::int => count = Some(whole(cx, &y)),
                                    Rule::duration => each = Some(duration(cx, y)),
                                    _ => {}
                                }
                            }
                            if let (Some(count), Some(each)) = (count, each) {
                                periods = Some((count, each));
                            }
                        }
                        _ => {}
                    }
                }
                if let Some((count, each)) = periods {
                    c.stages.push(ClockStage::Periods {
                        count,
                        each,
                        span: stage_span,
                    });
                } else if let Some(time) = time {
                    c.stages.push(ClockStage::Time {
                        moves,
                        time,
                        repeat,
                        span: stage_span,
                    });
                }
            }
            _ => {}
        }
    }
    c
}

fn turn(cx: &mut Cx, p: P) -> TurnDecl {
    let span = cx.span(&p);
    let mut d = TurnDecl {
        cite: None,
        first_cite: None,
        parts: Vec::new(),
        span,
    };
    for c in p.into_inner() {
        match c.as_rule() {
            Rule::cite => d.cite = Some(cx.cite(c)),
            Rule::turn_first => d.first_cite = c.into_inner().find(|x| x.as_rule() == Rule::cite).map(|x| cx.cite(x)),
            Rule::turn_part => d.parts.push(turn_part(cx, c)),
            Rule::bad_clause => cx.bad(&c, Rule::turn_clause_only, "part of a turn"),
            _ => {}
        }
    }
    d
}

fn row_of(cx: &mut Cx, p: P) -> (Count, Vec<Ident>) {
    let mut n = None;
    let mut ds = Vec::new();
    for x in p.into_inner() {
        match x.as_rule() {
            Rule::count => n = Some(cx.count(x)),
            Rule::dirs => ds = dirs(cx, x),
            _ => {}
        }
    }
    (n.expect("grammar: a row has a length"), ds)
}

fn turn_part(cx: &mut Cx, p: P) -> TurnPart {
    let span = cx.span(&p);
    let mut condition = None;
    let mut optional = None;
    let mut action = None;
    let mut options = Vec::new();
    let mut cite = None;
    for c in p.into_inner() {
        let cspan = cx.span(&c);
        match c.as_rule() {
            Rule::part_if => {
                let inner = c
                    .into_inner()
                    .find(|x| matches!(x.as_rule(), Rule::part_made_row | Rule::part_captured));
                condition = inner.map(|x| match x.as_rule() {
                    Rule::part_made_row => {
                        let s = cx.span(&x);
                        let (n, dirs) = row_of(cx, x);
                        PartCondition::MadeRow { n, dirs, span: s }
                    }
                    _ => PartCondition::Captured(cx.span(&x)),
                });
            }
            Rule::part_may => optional = Some(cspan),
            Rule::part_place => {
                let kind = c.into_inner().find(|x| x.as_rule() == Rule::ident).map(|x| cx.ident(x));
                action = kind.map(|k| PartAction::Place(k, cspan));
            }
            Rule::part_remove => action = Some(PartAction::Remove(cspan)),
            Rule::part_gate => {
                let kinds = c.into_inner().filter(|x| x.as_rule() == Rule::ident).map(|x| cx.ident(x)).collect();
                action = Some(PartAction::Gate(kinds, cspan));
            }
            Rule::part_moving => options.push(PartOption::Moving(cspan)),
            Rule::within_zone => {
                if let Some(z) = c.into_inner().find(|x| x.as_rule() == Rule::zone_expr) {
                    options.push(PartOption::Within(zone_expr(cx, z)));
                }
            }
            Rule::part_unmoved => options.push(PartOption::Unmoved(cspan)),
            Rule::part_row_safe => {
                let (n, dirs) = row_of(cx, c);
                options.push(PartOption::RowSafe { n, dirs, span: cspan });
            }
            Rule::part_along => {
                let ds = c
                    .into_inner()
                    .find(|x| x.as_rule() == Rule::dirs)
                    .map(|x| dirs(cx, x))
                    .unwrap_or_default();
                options.push(PartOption::Along(ds, cspan));
            }
            Rule::cite => cite = Some(cx.cite(c)),
            _ => {}
        }
    }
    TurnPart {
        condition,
        optional,
        action: action.unwrap_or(PartAction::Remove(span)),
        options,
        cite,
        span,
    }
}

fn kind_list(cx: &Cx, p: P) -> Vec<Ident> {
    p.into_inner().filter(|k| k.as_rule() == Rule::ident).map(|k| cx.ident(k)).collect()
}

fn chase(cx: &mut Cx, p: P) -> ChaseDecl {
    let span = cx.span(&p);
    let mut out = ChaseDecl {
        clauses: Vec::new(),
        cite: None,
        span,
    };
    for c in p.into_inner() {
        let cspan = cx.span(&c);
        let rule = c.as_rule();
        let mut lists = Vec::new();
        let mut zone = None;
        if matches!(rule, Rule::chase_never | Rule::chase_never_by | Rule::chase_even) {
            for k in c.clone().into_inner() {
                match k.as_rule() {
                    Rule::kind_list => lists.push(kind_list(cx, k)),
                    Rule::zone_expr => zone = Some(zone_expr(cx, k)),
                    _ => {}
                }
            }
        }
        let mut lists = lists.into_iter();
        let mut list = || lists.next().expect("grammar: the clause names its kinds");
        match rule {
            Rule::cite => out.cite = Some(cx.cite(c)),
            Rule::chase_never => out.clauses.push(ChaseClause::Never(list(), zone, cspan)),
            Rule::chase_never_by => out.clauses.push(ChaseClause::NeverBy(list(), cspan)),
            Rule::chase_even => {
                let victims = list();
                out.clauses.push(ChaseClause::EvenProtected(victims, list(), cspan))
            }
            Rule::chase_exchange => out.clauses.push(ChaseClause::NotAnExchange(cspan)),
            Rule::chase_checks => out.clauses.push(ChaseClause::ChecksCount(cspan)),
            Rule::bad_clause => cx.bad(&c, Rule::chase_clause_only, "chase clause"),
            _ => {}
        }
    }
    out
}

fn end(cx: &mut Cx, p: P) -> Vec<EndRule> {
    let mut rules = Vec::new();
    for c in p.into_inner() {
        match c.as_rule() {
            Rule::end_rule => rules.push(end_rule(cx, c)),
            Rule::bad_clause => cx.bad(&c, Rule::end_clause_only, "end rule"),
            _ => {}
        }
    }
    rules
}

fn end_rule(cx: &mut Cx, p: P) -> EndRule {
    let span = cx.span(&p);
    let mut r = EndRule {
        overrides: false,
        label: Ident { name: String::new(), span },
        conditions: Vec::new(),
        verdict: (Verdict::Draw, span),
        komi: None,
        points: None,
        player: None,
        cite: None,
        span,
    };
    for c in p.into_inner() {
        let cspan = cx.span(&c);
        match c.as_rule() {
            _ if condition_rule(c.as_rule()) => {
                if let Some(cond) = condition(cx, c) {
                    r.conditions.push(cond);
                }
            }
            Rule::override_kw => r.overrides = true,
            Rule::ident => r.label = cx.ident(c),
            Rule::v_score => {
                r.verdict = (Verdict::ScoreByArea, cspan);
                r.komi = c.into_inner().find(|k| k.as_rule() == Rule::ident).map(|k| cx.ident(k));
            }
            Rule::v_no_result => r.verdict = (Verdict::NoResult, cspan),
            Rule::v_to_move_loses => r.verdict = (Verdict::ToMoveLoses, cspan),
            Rule::v_to_move_wins => r.verdict = (Verdict::ToMoveWins, cspan),
            Rule::v_mover_loses => r.verdict = (Verdict::MoverLoses, cspan),
            Rule::v_mover_wins => r.verdict = (Verdict::MoverWins, cspan),
            Rule::v_mover_finishes => r.verdict = (Verdict::MoverFinishes, cspan),
            Rule::v_most_pieces => r.verdict = (Verdict::MostPieces, cspan),
            Rule::v_player => {
                let wins = c.clone().into_inner().any(|k| k.as_rule() == Rule::kw_wins);
                r.player = c.into_inner().find(|k| k.as_rule() == Rule::ident).map(|k| cx.ident(k));
                r.verdict = (Verdict::Player(wins), cspan);
            }
            Rule::v_points => {
                let mut values = Vec::new();
                let mut bonus = None;
                let mut tie = None;
                for k in c.into_inner() {
                    match k.as_rule() {
                        Rule::point_value => {
                            let vspan = cx.span(&k);
                            let mut it = k.into_inner();
                            let kind = cx.ident(it.next().expect("grammar: a kind"));
                            let n = it.next().map_or(f64::NAN, |n| n.as_str().parse().unwrap_or(f64::NAN));
                            values.push((kind, n, vspan));
                        }
                        Rule::point_bonus => {
                            let mut n = f64::NAN;
                            let mut who = None;
                            for x in k.into_inner() {
                                match x.as_rule() {
                                    Rule::number => n = x.as_str().parse().unwrap_or(f64::NAN),
                                    Rule::ident => who = Some(cx.ident(x)),
                                    _ => {}
                                }
                            }
                            bonus = who.map(|w| (n, w));
                        }
                        Rule::point_tie => tie = k.into_inner().find(|x| x.as_rule() == Rule::ident).map(|x| cx.ident(x)),
                        _ => {}
                    }
                }
                r.verdict = (Verdict::Points, cspan);
                r.points = Some(PointsVerdict { values, bonus, tie });
            }
            Rule::v_checker_loses => r.verdict = (Verdict::CheckerLoses, cspan),
            Rule::v_chaser_loses => r.verdict = (Verdict::ChaserLoses, cspan),
            Rule::v_claimable_draw => r.verdict = (Verdict::ClaimableDraw, cspan),
            Rule::v_draw => r.verdict = (Verdict::Draw, cspan),
            Rule::cite => r.cite = Some(cx.cite(c)),
            _ => {}
        }
    }
    r
}

/// Whose count or pieces: `mover`, `side to move`, or a player by name.
fn whom(cx: &Cx, c: P) -> Whom {
    let text = c.as_str().split_whitespace().collect::<Vec<_>>().join(" ");
    match text.as_str() {
        "mover" => Whom::Mover,
        "side to move" => Whom::ToMove,
        _ => Whom::Player(cx.ident(c.into_inner().next().expect("grammar: a player's name"))),
    }
}

/// One condition of an end rule (or of a phase's end).
fn condition(cx: &mut Cx, c: P) -> Option<Condition> {
    let cspan = cx.span(&c);
    match c.as_rule() {
        Rule::cond_ring => {
            let whose = c
                .into_inner()
                .find(|k| k.as_rule() == Rule::whose)
                .map(|k| whom(cx, k))
                .unwrap_or(Whom::Mover);
            return Some(Condition::Ring(whose, cspan));
        }
        Rule::cond_during => {
            return Some(Condition::During(dirs(cx, c), cspan));
        }
        Rule::cond_royals_facing => {
            let ds = c
                .into_inner()
                .find(|k| k.as_rule() == Rule::dirs)
                .map(|k| dirs(cx, k))
                .unwrap_or_default();
            return Some(Condition::RoyalsFacing(ds, cspan));
        }
        Rule::cond_all_connected => {
            let mut whose = Whom::Mover;
            let mut ds = Vec::new();
            for k in c.into_inner() {
                match k.as_rule() {
                    Rule::whose => whose = whom(cx, k),
                    Rule::dirs => ds = dirs(cx, k),
                    _ => {}
                }
            }
            return Some(Condition::AllConnected {
                whose,
                dirs: ds,
                span: cspan,
            });
        }
        Rule::cond_no_legal_move => return Some(Condition::NoLegalMove(cspan)),
        Rule::cond_in_check => return Some(Condition::InCheck(cspan)),
        Rule::cond_checking => return Some(Condition::CheckingThroughout(cspan)),
        Rule::cond_chasing => return Some(Condition::ChasingThroughout(cspan)),
        Rule::cond_flag => return Some(Condition::FlagFallen(cspan)),
        Rule::cond_passes => {
            let n = cx.count(c.into_inner().next().expect("grammar: passes count"));
            return Some(Condition::Passes(n, cspan));
        }
        Rule::cond_repetition => {
            let n = cx.count(c.into_inner().nth(1).expect("grammar: repetition count"));
            return Some(Condition::Repetition(n, cspan));
        }
        Rule::cond_counter => {
            let mut moves = None;
            let mut kind = None;
            let mut turns = false;
            for k in c.into_inner() {
                match k.as_rule() {
                    Rule::kw_turns => turns = true,
                    Rule::count => moves = Some(cx.count(k)),
                    Rule::ident => kind = Some(cx.ident(k)),
                    _ => {}
                }
            }
            return Some(Condition::Counter {
                moves: moves.expect("grammar: counter count"),
                turns,
                resetting_kind: kind,
                span: cspan,
            });
        }
        Rule::cond_material => {
            let mut mats = Vec::new();
            for m in c.into_inner().filter(|m| m.as_rule() == Rule::material) {
                let mspan = cx.span(&m);
                let mut first = Vec::new();
                let mut second = Vec::new();
                let mut same = None;
                let mut part = 0;
                for k in m.into_inner() {
                    match k.as_rule() {
                        Rule::letter => {
                            let ch = k.as_str().chars().next().expect("grammar: letter is one char");
                            let s = cx.span(&k);
                            match part {
                                0 => first.push((ch, s)),
                                1 => second.push((ch, s)),
                                _ => same = Some((ch, s)),
                            }
                        }
                        Rule::kw_v | Rule::kw_with => part += 1,
                        _ => {}
                    }
                }
                mats.push(Material {
                    first,
                    second,
                    same_colour: same,
                    span: mspan,
                });
            }
            return Some(Condition::Material(mats, cspan));
        }
        Rule::cond_none_of => {
            let kinds = c.into_inner().filter(|k| k.as_rule() == Rule::ident).map(|k| cx.ident(k)).collect();
            return Some(Condition::NoneOf(kinds, cspan));
        }
        Rule::cond_in_a_row => {
            let mut exact = false;
            let mut n = None;
            let mut ds = Vec::new();
            for k in c.into_inner() {
                match k.as_rule() {
                    Rule::kw_exactly => exact = true,
                    Rule::count => n = Some(cx.count(k)),
                    Rule::dirs => ds = dirs(cx, k),
                    _ => {}
                }
            }
            return Some(Condition::InARow {
                exact,
                n: n.expect("grammar: a count before `in a row`"),
                dirs: ds,
                span: cspan,
            });
        }
        Rule::cond_captured => {
            let kind = c.into_inner().find(|k| k.as_rule() == Rule::ident).map(|k| cx.ident(k));
            return Some(Condition::Captured(kind, cspan));
        }
        Rule::cond_no_left => {
            let kind = c.into_inner().find(|k| k.as_rule() == Rule::ident).map(|k| cx.ident(k));
            return Some(Condition::NoneLeft(kind, cspan));
        }
        Rule::cond_connects => {
            let mut need = None;
            let mut zs = Vec::new();
            for k in c.into_inner() {
                match k.as_rule() {
                    Rule::count => need = Some(cx.count(k)),
                    Rule::zone_expr => zs.push(zone_expr(cx, k)),
                    _ => {}
                }
            }
            return Some(Condition::Connects(need, zs, cspan));
        }
        Rule::cond_neither => return Some(Condition::NeitherCanMove(cspan)),
        Rule::cond_neither_win => return Some(Condition::CannotWin(Whose::Neither, cspan)),
        Rule::cond_cannot_win => {
            let whose = if c.into_inner().any(|k| k.as_rule() == Rule::kw_mover) {
                Whose::Mover
            } else {
                Whose::ToMove
            };
            return Some(Condition::CannotWin(whose, cspan));
        }
        Rule::cond_kind_in => {
            let mut kind = None;
            let mut zone = None;
            for k in c.into_inner() {
                match k.as_rule() {
                    Rule::ident => kind = Some(cx.ident(k)),
                    Rule::zone_expr => zone = Some(zone_expr(cx, k)),
                    _ => {}
                }
            }
            return Some(Condition::KindIn(
                kind.expect("grammar: a kind before `in`"),
                zone.expect("grammar: a zone after `in`"),
                cspan,
            ));
        }
        Rule::cond_compare => return Some(compare(cx, c)),
        _ => {}
    }
    None
}

/// Is this grammar rule one of the end conditions?
fn condition_rule(r: Rule) -> bool {
    matches!(
        r,
        Rule::cond_compare
            | Rule::cond_no_legal_move
            | Rule::cond_in_check
            | Rule::cond_repetition
            | Rule::cond_passes
            | Rule::cond_flag
            | Rule::cond_counter
            | Rule::cond_in_a_row
            | Rule::cond_material
            | Rule::cond_none_of
            | Rule::cond_checking
            | Rule::cond_chasing
            | Rule::cond_captured
            | Rule::cond_no_left
            | Rule::cond_connects
            | Rule::cond_neither
            | Rule::cond_neither_win
            | Rule::cond_cannot_win
            | Rule::cond_kind_in
            | Rule::cond_all_connected
            | Rule::cond_ring
            | Rule::cond_royals_facing
            | Rule::cond_during
    )
}

/// `COUNT [in ZONE] of WHOSE OP N`.
fn compare(cx: &mut Cx, p: P) -> Condition {
    let span = cx.span(&p);
    let mut what = None;
    let mut zone = None;
    let mut whose = Whom::Mover;
    let mut op = CmpOp::Eq;
    let mut value = None;
    for c in p.into_inner() {
        match c.as_rule() {
            Rule::count_term => {
                for t in c.into_inner() {
                    match t.as_rule() {
                        Rule::ident => what = Some(cx.ident(t)),
                        Rule::zone_expr => zone = Some(zone_expr(cx, t)),
                        _ => {}
                    }
                }
            }
            Rule::whose => whose = whom(cx, c),
            Rule::cmp_op => {
                op = match c.as_str().split_whitespace().collect::<Vec<_>>().join(" ").as_str() {
                    "is" => CmpOp::Eq,
                    "is not" => CmpOp::Ne,
                    ">=" => CmpOp::Ge,
                    "<=" => CmpOp::Le,
                    ">" => CmpOp::Gt,
                    _ => CmpOp::Lt,
                }
            }
            Rule::count => value = Some(cx.count(c)),
            _ => {}
        }
    }
    Condition::Compare {
        what,
        zone,
        whose,
        op,
        value: value.expect("grammar: a comparison ends in a number"),
        span,
    }
}

/// `count NAME = START, (plus|less) N for each EVENT ...`.
fn count_decl(cx: &mut Cx, p: P) -> CountDecl {
    let span = cx.span(&p);
    let mut name = None;
    let mut start = None;
    let mut changes = Vec::new();
    let mut cite = None;
    for c in p.into_inner() {
        match c.as_rule() {
            Rule::ident => name = Some(cx.ident(c)),
            Rule::count => start = Some(cx.count(c)),
            Rule::count_change => {
                let cspan = cx.span(&c);
                let mut sign = 1;
                let mut amount = 0;
                let mut event = CountEvent::Turn;
                for x in c.into_inner() {
                    match x.as_rule() {
                        Rule::kw_less => sign = -1,
                        Rule::int => amount = x.as_str().parse::<i64>().unwrap_or(i64::MAX),
                        Rule::ev_check => event = CountEvent::CheckGiven,
                        Rule::ev_capture => event = CountEvent::Capture,
                        Rule::ev_turn => event = CountEvent::Turn,
                        Rule::ev_borne_off => event = CountEvent::BorneOff,
                        Rule::ev_kind_captured => {
                            event = CountEvent::KindCaptured(cx.ident(x.into_inner().next().expect("grammar: a kind")));
                        }
                        _ => {}
                    }
                }
                changes.push((sign * amount.min(i64::MAX / 2), event, cspan));
            }
            Rule::cite => cite = Some(cx.cite(c)),
            _ => {}
        }
    }
    CountDecl {
        name: name.expect("grammar: a count has a name"),
        start: start.expect("grammar: a count starts somewhere"),
        changes,
        cite,
        span,
    }
}

/// The track a clause names (`along lane by roll`, `at the start of lane`).
fn track_named(cx: &Cx, c: Pair<Rule>) -> Ident {
    let track = c
        .into_inner()
        .find(|k| k.as_rule() == Rule::ident)
        .expect("grammar: a track's name");
    cx.ident(track)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(src: &str) -> (RulesFile, Diagnostics) {
        let mut d = Diagnostics::default();
        let f = parse_file(src, FileId(0), &mut d);
        (f, d)
    }

    #[test]
    fn records_reads_its_formats_and_a_second_clause_adds_to_the_first() {
        let src = "game \"G\" {\n  records pgn, sgf [7]\n  records none\n  players a, b\n}\n";
        let (f, d) = parse(src);
        assert!(d.items.is_empty(), "{:?}", d.items);
        let Item::Game(g) = &f.items[0] else {
            panic!("expected a game, got {:?}", f.items)
        };
        let r = g.records.as_ref().expect("the records clause is read");
        let names: Vec<&str> = r.formats.iter().map(|i| i.name.as_str()).collect();
        assert_eq!(names, ["pgn", "sgf", "none"]);
        // Each name's span is the name itself (the checker's carets point there); the clause's
        // span is the first clause, citation included.
        assert!(r.formats.iter().all(|i| src[i.span.start as usize..i.span.end as usize] == i.name));
        assert_eq!(&src[r.span.start as usize..r.span.end as usize], "records pgn, sgf [7]");
        assert_eq!(r.cite.as_ref().map(|c| c.text.as_str()), Some("7"));
        assert_eq!(g.players.len(), 2, "the clause after it is still read");
        // `records` with no format is a syntax error that says what may follow.
        let (_, d) = parse("game \"G\" {\n  players a, b\n  records\n}\n");
        assert_eq!(d.error_count(), 1, "{:?}", d.items);
        assert!(d.items[0].help.iter().any(|h| h.contains("a name")), "{:?}", d.items);
    }

    #[test]
    fn a_captured_that_ends_a_line_takes_no_kind_from_the_next() {
        let (f, d) = parse("phase opening until captured\nphase ending\npiece Man \"M\" { step any }\n");
        assert!(d.items.is_empty(), "{:?}", d.items);
        let phases = f.items.iter().filter(|i| matches!(i, Item::Phase(..))).count();
        assert_eq!(phases, 2, "both phases are read");
        let (_, d) = parse("phase opening until captured Man\nphase ending\n");
        assert!(d.items.is_empty(), "a kind on the same line is still read: {:?}", d.items);
    }

    #[test]
    fn reads_who_cannot_win() {
        let (f, d) = parse(
            "end {\n  dead: neither side can win -> draw [5.2.2]\n  flag: flag fallen, mover cannot win -> draw\n  own: side to move cannot win -> draw\n}\n",
        );
        assert!(d.items.is_empty(), "{d:?}");
        let Item::End(rules) = &f.items[0] else {
            panic!("expected end rules, got {:?}", f.items)
        };
        let whose: Vec<Vec<Whose>> = rules
            .iter()
            .map(|r| {
                r.conditions
                    .iter()
                    .filter_map(|c| match c {
                        Condition::CannotWin(w, _) => Some(*w),
                        _ => None,
                    })
                    .collect()
            })
            .collect();
        assert_eq!(whose, [vec![Whose::Neither], vec![Whose::Mover], vec![Whose::ToMove]]);
        assert!(matches!(rules[1].conditions[0], Condition::FlagFallen(_)));
    }

    #[test]
    fn reads_a_piece_with_forms_and_citations() {
        let (f, d) = parse(
            "piece Pawn \"P\" {\n  step forward to empty [3.7.1]\n  step forward 2, to empty, from rank 2, marks en-passant\n  promotes on rank 8 to Queen, Knight [3.7.3.3]\n}\n",
        );
        assert!(d.items.is_empty(), "{d:?}");
        let Item::Piece(p) = &f.items[0] else {
            panic!("expected a piece, got {:?}", f.items)
        };
        assert_eq!(p.forms.len(), 2);
        assert_eq!(p.forms[0].cite.as_ref().map(|c| c.text.as_str()), Some("3.7.1"));
        assert_eq!(p.forms[1].modifiers.len(), 3);
        assert_eq!(p.promotions[0].kinds.len(), 2);
    }

    #[test]
    fn a_bad_clause_is_reported_and_parsing_goes_on() {
        let (f, d) = parse("piece Rook \"R\" {\n  slide orthogonal to nowhere\n}\npiece Bishop \"B\" { slide diagonal }\n");
        assert_eq!(d.items.len(), 1, "{d:?}");
        assert_eq!(d.items[0].code, codes::SYNTAX);
        assert!(d.items[0].help[0].contains("`empty`"), "{:?}", d.items[0].help);
        assert_eq!(f.items.len(), 2);
    }

    #[test]
    fn punctuation_is_named_in_what_was_expected() {
        let (_, d) = parse("end {\n  stalemate: no legal move => draw\n}\n");
        assert_eq!(d.items.len(), 1, "{d:?}");
        assert_eq!(d.items[0].message, "cannot read this end rule: unexpected `=>`");
        assert_eq!(d.items[0].help, vec!["expected `,` or `->`".to_string()]);
    }

    #[test]
    fn an_unknown_condition_lists_the_conditions_that_exist() {
        let src = "end { win: five in a line -> mover wins }\n";
        let (_, d) = parse(src);
        assert_eq!(d.items.len(), 1, "{d:?}");
        assert_eq!(d.items[0].message, "cannot read this end rule: `five in a line` is not a condition");
        let s = d.items[0].span;
        assert_eq!(&src[s.start as usize..s.end as usize], "five in a line");
        assert!(
            d.items[0].help[0].starts_with("expected a condition: no legal move (or turn), in check,"),
            "{:?}",
            d.items[0].help
        );
        assert!(
            d.items[0].help[0].ends_with("neither side can move, KIND in ZONE"),
            "{:?}",
            d.items[0].help
        );
    }

    #[test]
    fn an_unknown_verdict_lists_the_verdicts_and_suggests_one() {
        let (_, d) = parse("end {\n  full: no legal move -> drawn   [4]\n}\n");
        assert_eq!(d.items.len(), 1, "{d:?}");
        assert_eq!(d.items[0].message, "cannot read this end rule: `drawn` is not a verdict");
        assert_eq!(d.items[0].help[0], "did you mean `draw`?");
        assert!(
            d.items[0].help[1].starts_with("expected a verdict: side to move loses,"),
            "{:?}",
            d.items[0].help
        );
    }

    #[test]
    fn an_incomplete_condition_or_a_missing_arrow_keeps_the_precise_message() {
        let (_, d) = parse("end {\n  a: 5 in a row along -> mover wins\n  b: captured mover wins\n}\n");
        assert_eq!(d.items.len(), 2, "{d:?}");
        assert_eq!(d.items[0].help, vec!["expected a name".to_string()]);
        assert_eq!(d.items[1].help, vec!["expected `,` or `->`".to_string()]);
    }

    #[test]
    fn an_unknown_movement_or_modifier_lists_those_that_exist() {
        let (_, d) = parse("piece Man \"M\" {\n  walk forward\n  step forward, capturin\n}\n");
        assert_eq!(d.items.len(), 2, "{d:?}");
        assert_eq!(d.items[0].label, "not a movement");
        assert!(
            d.items[0].help[0].starts_with("expected a movement: step DIRS [N],"),
            "{:?}",
            d.items[0].help
        );
        assert_eq!(d.items[1].message, "cannot read this movement clause: unexpected `capturin`");
        assert_eq!(d.items[1].help[0], "did you mean `capturing`?");
        assert!(
            d.items[1].help[1].starts_with("expected a modifier: to empty,"),
            "{:?}",
            d.items[1].help
        );
    }

    #[test]
    fn spans_end_at_the_last_token_not_at_a_comment() {
        let src = "end {\n  stalemate: no legal move -> draw   # no citation\n}\n";
        let (f, d) = parse(src);
        assert!(d.items.is_empty(), "{d:?}");
        let Item::End(rules) = &f.items[0] else {
            panic!("expected an end block, got {:?}", f.items)
        };
        let s = rules[0].span;
        assert_eq!(&src[s.start as usize..s.end as usize], "stalemate: no legal move -> draw");
    }

    #[test]
    fn an_open_range_ends_before_the_next_clause() {
        let (f, d) = parse("board 8 x 8 squares {\n  files a..\n  ranks 1..\n  checkered a1 dark\n}\n");
        assert!(d.items.is_empty(), "{d:?}");
        let Item::Board(b) = &f.items[0] else {
            panic!("expected a board, got {:?}", f.items)
        };
        assert!(matches!(&b.files, Some(Names::Range { last: None, .. })), "{:?}", b.files);
        assert!(matches!(&b.ranks, Some(Names::Range { last: None, .. })), "{:?}", b.ranks);
        assert!(b.checkered.is_some());
    }

    #[test]
    fn a_byte_order_mark_is_skipped() {
        let (f, d) = parse("\u{feff}zone z = rank 1\n");
        assert!(d.items.is_empty(), "{d:?}");
        assert_eq!(f.items.len(), 1);
    }

    #[test]
    fn a_missing_brace_is_reported_once_and_the_swallowed_item_noted() {
        let (f, d) = parse("game \"G\" {\n  players a \"a\", b \"b\"\nboard 8 x 8 squares {\n  files a..h\n  ranks 1..8\n}\n");
        assert_eq!(d.items.len(), 1, "{d:?}");
        assert!(d.items[0].help.iter().any(|h| h.contains("`}`")), "{:?}", d.items[0].help);
        assert_eq!(f.unreadable, vec!["board".to_string()]);
    }

    #[test]
    fn an_unreadable_item_is_noted_by_its_keyword() {
        let (f, d) = parse("override board 8 by 8 squares { }\nzone z = rank 1\n");
        assert_eq!(d.items.len(), 1, "{d:?}");
        assert_eq!(f.unreadable, vec!["board".to_string()]);
        assert!(matches!(f.items[0], Item::Zone(_)));
    }

    #[test]
    fn an_error_before_a_wide_character_is_cut_at_a_character_boundary() {
        let (_, d) = parse("piece Rook \"R\" {\n  slide orthogonal\u{3000}x\n}\n");
        assert_eq!(d.items.len(), 1, "{d:?}");
        assert_eq!(d.items[0].message, "cannot read this movement clause: unexpected character U+3000");
    }

    #[test]
    fn a_bad_item_does_not_swallow_the_next() {
        let (f, d) = parse("peice King \"K\" { step any }\nzone z = rank 1\n");
        assert_eq!(d.items.len(), 1);
        assert!(matches!(f.items[0], Item::Zone(_)));
    }
}
