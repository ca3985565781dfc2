//! Stage 2, check: syntax trees (a file and the files it extends) → [`Rules`]. Resolves every name,
//! substitutes parameters, evaluates zones, and reports every problem it finds — unknown names with a
//! suggestion, duplicates, type mismatches, values past the engine's bounds, contradictions, unused
//! definitions — never stopping at the first and never panicking.

mod board;
mod chance;
mod chase;
mod clocks;
mod counts;
mod ends;
mod handicap;
mod load;
mod phases;
mod pieces;
mod records;
mod turn;

use std::collections::HashMap;

use crate::diag::{Diagnostic, Diagnostics, Sources, Span, codes, suggest};
use crate::model::*;
use crate::syntax::ast;

pub use board::builtin_direction;
pub use load::{Checked, check_file, check_source, check_source_with, lexically_normal};

/// A parameter's value after `--param` overrides.
#[derive(Clone, Debug, PartialEq)]
enum Value {
    /// The number, and its text as the user wrote it (messages quote it, not a rounded value).
    Number(f64, String),
    Word(String),
}

/// Castling in the setup: a piece that castles toward a partner standing no further than the
/// castling distance would land on the partner or beyond it, which is no move.
fn castles_in_setup(cx: &mut Cx, items: &[ast::Item], rules: &Rules, setup: &crate::notation::fen::Setup) {
    let b = &rules.board;
    for (ki, kind) in rules.kinds.iter().enumerate() {
        // The castling clauses as the last declaration of the piece wrote them.
        let Some(decl) = items.iter().rev().find_map(|it| match it {
            ast::Item::Piece(p) if p.name.name == kind.name => Some(p),
            _ => None,
        }) else {
            continue;
        };
        for (c, written) in kind.castles.iter().zip(&decl.castles) {
            let mut reported = false;
            for (sq, cell) in setup.board.iter().enumerate() {
                let Some((k, side)) = *cell else { continue };
                if k.0 as usize != ki || reported {
                    continue;
                }
                for dx in [-1i32, 1] {
                    // The first partner along the rank: the pieces between it and the castler
                    // leave before a castling (chess's knight and bishop), the partner never does.
                    let mut gap = 1;
                    let mut at = b.offset(sq, dx, 0);
                    while let Some(s) = at
                        && setup.board[s] != Some((c.partner, side))
                    {
                        gap += 1;
                        at = b.offset(s, dx, 0);
                    }
                    let Some(partner_sq) = at else { continue };
                    if gap > c.distance {
                        continue;
                    }
                    let (piece, partner) = (&kind.name, &rules.kind(c.partner).name);
                    let d = Diagnostic::error(
                        codes::CONTRADICTION,
                        written.distance.1,
                        format!(
                            "castling {} squares would take the {piece} from {} onto or past the {partner} on {}, {gap} square{} away in the setup",
                            c.distance,
                            b.name(sq),
                            b.name(partner_sq),
                            if gap == 1 { "" } else { "s" }
                        ),
                    )
                    .label("too far")
                    .help(format!("the {piece} must stop short of its partner: move it fewer squares than the {partner} is away"));
                    cx.diags.push(d);
                    reported = true;
                    break;
                }
            }
        }
    }
}

/// A parameter's range as written (`1..100`), from the text of `in 1..100`.
fn range_text(written: &str) -> String {
    let t = written.trim();
    t.strip_prefix("in").unwrap_or(t).split_whitespace().collect::<Vec<_>>().join("")
}

/// Everything the resolution passes share: the merged items, the parameters, the diagnostics sink
/// and which definitions were used.
struct Cx<'a> {
    src: &'a Sources,
    diags: &'a mut Diagnostics,
    params: HashMap<String, (Value, Span)>,
    used: std::collections::HashSet<String>,
    board: Option<Board>,
    zones: HashMap<String, (BySide<SquareSet>, Span)>,
    /// The players' names, in turn order (for zones given per player).
    player_names: Vec<String>,
    /// How the players sit, and the seat of each side in play (see [`Board::seat_square`]).
    seating: Seating,
    seats: Vec<u8>,
    /// Where `seated by ...` was written.
    seating_span: Option<Span>,
    /// Zones whose definition has an error (already reported): uses of them are not "unknown".
    broken_zones: std::collections::HashSet<String>,
    directions: HashMap<String, (Vec<(i32, i32)>, Span)>,
    kinds: HashMap<String, KindId>,
    kind_names: Vec<String>,
    /// The phases' names, in order (declared before the pieces that name them).
    phases: Vec<String>,
    /// The declared counts, read before the pieces (a clause's `when` may compare one).
    tallies_for_forms: Vec<Tally>,
    /// A handicap game's compensation: the scoring parameter it replaces, and its value.
    komi_override: Option<(String, f64)>,
    /// What is left of the [`SUGGESTION_BUDGET`].
    suggestions_left: usize,
    /// A `roll` is declared (sound or not: what uses it is then not told it is missing).
    roll_declared: bool,
    /// Where the sound `roll` is written.
    roll_span: Option<Span>,
    /// The sound tracks, in order, with where each is named.
    tracks: Vec<(crate::model::Track, Span)>,
    /// Tracks whose declaration has an error (already reported): uses of them are not "unknown".
    broken_tracks: Vec<String>,
}

/// How many defined names the checker may compare with unknown names in all. Each comparison is
/// cheap, but a file with thousands of unknown names among thousands of defined ones would take
/// quadratic time; past the budget, unknown names get no "did you mean".
const SUGGESTION_BUDGET: usize = 100_000;

/// "unknown zone `x`", with the closest of `candidates` as a hint, or the list of them when it is
/// short. `left` is the [`SUGGESTION_BUDGET`] remaining: comparing costs one per candidate, and an
/// unknown name with more candidates than are left gets no hint (and costs nothing more).
fn unknown_name<'n>(left: &mut usize, name: &str, span: Span, what: &str, candidates: impl IntoIterator<Item = &'n str>) -> Diagnostic {
    let mut d = Diagnostic::error(codes::UNKNOWN_NAME, span, format!("unknown {what} `{name}`")).label(format!("no {what} has this name"));
    let cands: Vec<&str> = candidates.into_iter().take(*left + 1).collect();
    if cands.len() > *left {
        *left = 0;
        return d;
    }
    *left -= cands.len();
    if let Some(s) = suggest(name, cands.iter().copied()) {
        d = d.help(format!("did you mean `{s}`?"));
    } else if !cands.is_empty() && cands.len() <= 12 {
        let mut c = cands.clone();
        c.sort();
        d = d.help(format!("known {what}s: {}", c.join(", ")));
    }
    d
}

impl Cx<'_> {
    /// The longest side of the board (the farthest a slide may go), or a generous bound before
    /// the board is known.
    fn board_span(&self) -> i32 {
        self.board.as_ref().map_or(32, |b| b.width.max(b.height) as i32)
    }

    fn error(&mut self, code: &'static str, span: Span, msg: impl Into<String>) -> &mut Diagnostic {
        self.diags.push(Diagnostic::error(code, span, msg));
        self.diags.items.last_mut().expect("just pushed")
    }

    /// A whole number from a literal or a parameter, within `lo..=hi` (the engine's bound).
    fn count(&mut self, c: &ast::Count, what: &str, lo: i64, hi: i64) -> Option<i64> {
        let (v, span) = match c {
            ast::Count::Int(v, s) => (*v, *s),
            ast::Count::Expr(terms, s) => {
                // Each part within the widest bound a count may have, so the sum cannot overflow.
                let mut total: i64 = 0;
                for (plus, factors) in terms {
                    let mut product: i64 = 1;
                    for f in factors {
                        let v = self.count(f, what, -1_000_000, 1_000_000)?;
                        product = product.saturating_mul(v).clamp(-1_000_000_000_000, 1_000_000_000_000);
                    }
                    total = if *plus {
                        total.saturating_add(product)
                    } else {
                        total.saturating_sub(product)
                    };
                }
                (total, *s)
            }
            ast::Count::Param(id) => {
                self.used.insert(format!("param {}", id.name));
                match self.params.get(&id.name).cloned() {
                    Some((Value::Number(n, _), _)) if n.fract() == 0.0 => (n as i64, id.span),
                    Some((Value::Number(_, text), def)) => {
                        let d = Diagnostic::error(
                            codes::TYPE,
                            id.span,
                            format!("{what} must be a whole number, but parameter `{}` is {text}", id.name),
                        )
                        .label("not a whole number")
                        .with(def, "defined here");
                        self.diags.push(d);
                        return None;
                    }
                    Some((Value::Word(w), def)) => {
                        let d = Diagnostic::error(
                            codes::TYPE,
                            id.span,
                            format!("{what} must be a number, but parameter `{}` is the word `{w}`", id.name),
                        )
                        .label("not a number")
                        .with(def, "defined here");
                        self.diags.push(d);
                        return None;
                    }
                    None => {
                        self.unknown_param(id);
                        return None;
                    }
                }
            }
        };
        if v < lo || v > hi {
            // A literal is shown as written (`99999999999999999999`, not the clamped value).
            let shown = match c {
                ast::Count::Int(..) => self.src.shown(span),
                ast::Count::Expr(..) => format!("{} = {v}", self.src.shown(span)),
                ast::Count::Param(id) => match self.params.get(&id.name) {
                    Some((Value::Number(_, text), _)) => text.clone(),
                    _ => v.to_string(),
                },
            };
            self.error(codes::BOUND, span, format!("{what} must be between {lo} and {hi}, not {shown}"))
                .label = "out of range".into();
            return None;
        }
        Some(v)
    }

    fn unknown<'n>(&mut self, name: &str, span: Span, what: &str, candidates: impl IntoIterator<Item = &'n str>) {
        let d = unknown_name(&mut self.suggestions_left, name, span, what, candidates);
        self.diags.push(d);
    }

    /// Reports `id` as an unknown parameter, suggesting the defined ones.
    fn unknown_param(&mut self, id: &ast::Ident) {
        let d = unknown_name(
            &mut self.suggestions_left,
            &id.name,
            id.span,
            "parameter",
            self.params.keys().map(String::as_str),
        );
        self.diags.push(d);
    }

    /// Reports `id` as an unknown zone, suggesting the defined ones.
    fn unknown_zone(&mut self, id: &ast::Ident) {
        let d = unknown_name(
            &mut self.suggestions_left,
            &id.name,
            id.span,
            "zone",
            self.zones.keys().map(String::as_str),
        );
        self.diags.push(d);
    }

    fn kind(&mut self, id: &ast::Ident) -> Option<KindId> {
        match self.kinds.get(&id.name) {
            Some(k) => {
                self.used.insert(format!("piece {}", id.name));
                Some(*k)
            }
            None => {
                let names = self.kind_names.clone();
                self.unknown(&id.name, id.span, "piece", names.iter().map(|s| s.as_str()));
                None
            }
        }
    }
}

/// "a" or "an" before a number written in digits (`an 8 × 8 board`, `an 11 × 9 board`).
fn article(n: usize) -> &'static str {
    if matches!(n, 8 | 11 | 18) || (80..90).contains(&n) {
        "an"
    } else {
        "a"
    }
}

/// A clause as written, for explanations: its words with one space between them, whatever the
/// layout (a citation aligned at column 66, a clause continued on the next line, a comment
/// inside it), so that formatting a ruleset never changes what it explains. A citation is set
/// off by one space, glued or not (`step any[3.8.1]`): `arbiter fmt` aligns a clause's closing
/// citation, so the text must not tell the two apart. Its inside is kept, and a `#` inside a
/// citation or a string starts no comment.
fn as_written(source: &str) -> String {
    let mut text = String::with_capacity(source.len());
    // Whitespace (or a line's end) since the last character kept.
    let mut gap = false;
    for line in source.lines() {
        let (mut cite, mut string) = (false, false);
        for c in line.chars() {
            match c {
                '#' if !cite && !string => break,
                c if c.is_whitespace() => {
                    gap = true;
                    continue;
                }
                '[' if !cite && !string => {
                    cite = true;
                    gap = true;
                }
                ']' if !string => cite = false,
                '"' if !cite => string = !string,
                _ => {}
            }
            if gap && !text.is_empty() {
                text.push(' ');
            }
            gap = false;
            text.push(c);
        }
        gap = true;
    }
    text
}

fn cite(c: &Option<ast::Cite>) -> Option<String> {
    c.as_ref().map(|c| c.text.clone())
}

/// Resolves merged items into rules. `overrides` are `--param NAME=VALUE` pairs. `unreadable`
/// names the kinds of item that were in a line or file that could not be read: if such an item
/// is missing, that is already reported.
fn resolve(
    items: &[ast::Item],
    overrides: &[(String, String)],
    sources: &Sources,
    diags: &mut Diagnostics,
    whole: Span,
    unreadable: &[String],
) -> Option<(Rules, crate::game::Engine)> {
    let report_missing = |kind: &str| !unreadable.iter().any(|u| u == kind);
    let mut cx = Cx {
        src: sources,
        diags,
        params: HashMap::new(),
        used: Default::default(),
        board: None,
        zones: HashMap::new(),
        player_names: Vec::new(),
        seating: Seating::Mirror,
        seats: vec![0, 1],
        seating_span: None,
        komi_override: None,
        broken_zones: Default::default(),
        directions: HashMap::new(),
        kinds: HashMap::new(),
        kind_names: Vec::new(),
        phases: Vec::new(),
        tallies_for_forms: Vec::new(),
        suggestions_left: SUGGESTION_BUDGET,
        roll_declared: false,
        roll_span: None,
        tracks: Vec::new(),
        broken_tracks: Vec::new(),
    };

    // Parameters, then command-line overrides.
    let mut param_order = Vec::new();
    for it in items {
        if let ast::Item::Param(p) = it {
            let v = match &p.value {
                ast::ParamValue::Number(n, s) => {
                    if let Some((lo, hi, rs)) = p.range
                        && (*n < lo || *n > hi)
                    {
                        let (value, range) = (cx.src.shown(*s), range_text(&cx.src.shown(rs)));
                        let d = Diagnostic::error(
                            codes::CONTRADICTION,
                            *s,
                            format!("the default of `{}` ({value}) is outside its range {range}", p.name.name),
                        )
                        .label("outside the range")
                        .with(rs, "range declared here");
                        cx.diags.push(d);
                    }
                    Value::Number(*n, cx.src.slice(*s).to_string())
                }
                ast::ParamValue::Word(w) => Value::Word(w.name.clone()),
            };
            cx.params.insert(p.name.name.clone(), (v, p.name.span));
            param_order.push(p);
        }
    }
    let mut unknown_override = false;
    for (name, text) in overrides {
        let Some(decl) = param_order.iter().find(|p| &p.name.name == name) else {
            let names: Vec<&str> = param_order.iter().map(|p| p.name.name.as_str()).collect();
            let mut d = Diagnostic::error(
                codes::UNKNOWN_NAME,
                whole,
                format!("--param {name}: this ruleset has no parameter `{name}`"),
            );
            d = match suggest(name, names.iter().copied()) {
                Some(s) => d.help(format!("did you mean `{s}`?")),
                None if names.is_empty() => d.help("this ruleset declares no parameters"),
                None => d.help(format!("its parameters: {}", names.join(", "))),
            };
            cx.diags.push(d);
            unknown_override = true;
            continue;
        };
        let value = match (&decl.value, text.parse::<f64>()) {
            (ast::ParamValue::Number(..), Ok(n)) if n.is_finite() => {
                if let Some((lo, hi, rs)) = decl.range
                    && (n < lo || n > hi)
                {
                    let range = range_text(&cx.src.shown(rs));
                    cx.diags.push(
                        Diagnostic::error(
                            codes::BOUND,
                            decl.name.span,
                            format!("--param {name}={text}: `{name}` must be in {range}"),
                        )
                        .label("declared here"),
                    );
                    continue;
                }
                Value::Number(n, text.clone())
            }
            (ast::ParamValue::Number(..), _) => {
                cx.diags.push(
                    Diagnostic::error(
                        codes::TYPE,
                        decl.name.span,
                        format!("--param {name}={text}: `{name}` takes a number"),
                    )
                    .label("declared here"),
                );
                continue;
            }
            (ast::ParamValue::Word(_), _) => Value::Word(text.clone()),
        };
        cx.params.insert(name.clone(), (value, decl.name.span));
    }
    let _ = unknown_override;

    // Game and players.
    let game = items.iter().find_map(|i| if let ast::Item::Game(g) = i { Some(g) } else { None });
    let mut players = None;
    let mut cite_prefix = None;
    let mut notation = Notation::default();
    let mut name = String::from("unnamed");
    match game {
        None if !report_missing("game") => {}
        None => {
            cx.error(codes::MISSING, whole, "this ruleset has no `game` item")
                .help
                .push("add `game \"Name\" { players white \"w\", black \"b\" }`".into());
        }
        Some(g) => {
            name = g.name.value.clone();
            cite_prefix = g.cite_prefix.as_ref().map(|c| c.value.clone());
            if let Some(n) = &g.notation {
                const NOTATIONS: [(&str, Notation); 4] = [
                    ("coordinates", Notation::Coordinates),
                    ("san", Notation::San),
                    ("wxf", Notation::Wxf),
                    ("points", Notation::Points),
                ];
                match NOTATIONS.iter().find(|(w, _)| *w == n.name) {
                    Some((_, v)) => notation = *v,
                    None => cx.unknown(&n.name, n.span, "notation", NOTATIONS.iter().map(|(w, _)| *w)),
                }
            }
            players = resolve_players(&mut cx, g);
        }
    }

    // Board, directions, zones.
    board::resolve_board(&mut cx, items, report_missing("board").then_some(whole));
    seating_fits_board(&mut cx);
    board::resolve_directions(&mut cx, items);
    board::resolve_zones(&mut cx, items);
    // The roll and the tracks, which clauses move by.
    let roll = chance::resolve_roll(&mut cx, items);
    chance::resolve_tracks(&mut cx, items);
    let again = chance::resolve_again(&mut cx, items, roll.as_ref());

    // Phases' names first: clauses name them; counts too, which a clause's `when` compares.
    phases::declare(&mut cx, items);
    // Whether anything is ever in check: a count of checks given needs it.
    let forbids_attack = items
        .iter()
        .any(|i| matches!(i, ast::Item::Forbid(f) if matches!(f.kind, ast::ForbidKind::RoyalAttacked | ast::ForbidKind::RoyalsFacing(_))));
    pieces::declare(&mut cx, items);
    let counts = counts::resolve_counts(&mut cx, items, forbids_attack);
    cx.tallies_for_forms = counts.clone();
    // Pieces.
    let kinds = pieces::resolve_pieces(&mut cx, items);

    // Legality constraints.
    let mut royal_safety = None;
    let mut royal_safety_span = None;
    let mut royals_facing = None;
    let mut pass = None;
    let mut pass_only_when_stuck = false;
    let mut swap = None;
    let mut hand = None;
    let mut must_capture: Option<MustCapture> = None;
    let mut explosion: Option<Explosion> = None;
    let mut must_span: Option<Span> = None;
    // `allow pass` / `allow swap` as first stated, to report a second one.
    let mut allowed: Vec<(String, Span)> = Vec::new();
    let mut chain_capture = None;
    let mut suicide_forbidden = None;
    let mut repetition_forbidden = None;
    for it in items {
        if let ast::Item::After(span, c) = it {
            chain_capture = Some(cite(c));
            if cx.board.as_ref().is_some_and(|b| b.hexes) {
                cx.error(
                    codes::CONTRADICTION,
                    *span,
                    "chain capture counts four neighbours a point, and a board of hexes has six",
                )
                .label = "not on hexes".into();
            }
            if let Some(k) = kinds
                .iter()
                .find(|k| k.forms.iter().any(|f| f.primitive != Primitive::Place) || !k.castles.is_empty())
            {
                cx.error(
                    codes::CONTRADICTION,
                    *span,
                    format!("chain capture works in games where pieces are only placed, but `{}` moves", k.name),
                )
                .label = "chains of placed pieces only".into();
            }
        }
    }
    for it in items {
        if let ast::Item::Forbid(f) = it {
            match &f.kind {
                ast::ForbidKind::Suicide => {
                    if chain_capture.is_none() {
                        cx.error(
                            codes::CONTRADICTION,
                            f.span,
                            "suicide is about chains, but this ruleset does not capture chains",
                        )
                        .help
                        .push("add `after each move capture chains without liberties`".into());
                    }
                    suicide_forbidden = Some(cite(&f.cite));
                    continue;
                }
                ast::ForbidKind::Repetition(id) => {
                    const RULES: [(&str, RepetitionRule); 3] = [
                        ("ko", RepetitionRule::Ko),
                        ("positional", RepetitionRule::Positional),
                        ("situational", RepetitionRule::Situational),
                    ];
                    match RULES.iter().find(|(w, _)| *w == id.name) {
                        Some((_, r)) => repetition_forbidden = Some((*r, cite(&f.cite))),
                        None => cx.unknown(&id.name, id.span, "repetition rule", RULES.iter().map(|(w, _)| *w)),
                    }
                    continue;
                }
                ast::ForbidKind::RoyalAttacked => {
                    if let Some(first) = royal_safety_span {
                        cx.diags.push(
                            Diagnostic::warning(codes::REDUNDANT, f.span, "this constraint is stated twice")
                                .label("stated again here")
                                .with(first, "first stated here"),
                        );
                    }
                    royal_safety = Some(cite(&f.cite));
                    royal_safety_span = Some(f.span);
                }
                ast::ForbidKind::RoyalsFacing(ds) => {
                    let dirs = board::dirs(&mut cx, ds);
                    royals_facing = Some((dirs, cite(&f.cite)));
                }
            }
            if !kinds.iter().any(|k: &Kind| k.royal) {
                cx.error(
                    codes::CONTRADICTION,
                    f.span,
                    "this constraint is about royal pieces, but no piece is `royal`",
                )
                .help
                .push("mark the piece whose safety matters: `piece King \"K\" royal { ... }`".into());
            }
        }
        if let ast::Item::Allow(a) = it {
            let on = match &a.if_param {
                None => true,
                Some(id) => {
                    cx.used.insert(format!("param {}", id.name));
                    match cx.params.get(&id.name).cloned() {
                        Some((Value::Number(n, _), _)) => n != 0.0,
                        Some((Value::Word(w), def)) => {
                            let d = Diagnostic::error(
                                codes::TYPE,
                                id.span,
                                format!("`if {}` needs a number (0 for off), but the parameter is the word `{w}`", id.name),
                            )
                            .label("not a number")
                            .with(def, "defined here");
                            cx.diags.push(d);
                            false
                        }
                        None => {
                            cx.unknown_param(id);
                            false
                        }
                    }
                }
            };
            if matches!(a.what.name.as_str(), "pass" | "swap") {
                if let Some(first) = allowed.iter().find(|(w, _)| *w == a.what.name).map(|(_, s)| *s) {
                    cx.diags.push(
                        Diagnostic::warning(codes::REDUNDANT, a.span, format!("`allow {}` is stated twice", a.what.name))
                            .label("stated again here")
                            .with(first, "first stated here"),
                    );
                }
                allowed.push((a.what.name.clone(), a.span));
            }
            match a.what.name.as_str() {
                "pass" => {
                    if on {
                        pass = Some(cite(&a.cite));
                        pass_only_when_stuck = a.when_stuck.is_some();
                    }
                }
                "swap" => {
                    if let Some(span) = a.when_stuck {
                        cx.error(
                            codes::CONTRADICTION,
                            span,
                            "`when no other move` is for passes; a swap is the second player's first move",
                        )
                        .label = "not for a swap".into();
                    }
                    if let Some(b) = &cx.board
                        && b.width != b.height
                    {
                        let (w, h) = (b.width, b.height);
                        let mut d = Diagnostic::error(
                            codes::CONTRADICTION,
                            a.what.span,
                            format!(
                                "a swap mirrors the first piece across the long diagonal, and {} {w} × {h} board has none",
                                article(w)
                            ),
                        )
                        .label("needs a square board");
                        if let Some(size) = items.iter().find_map(|i| match i {
                            ast::Item::Board(b) => Some(b.width.span().to(b.height.span())),
                            _ => None,
                        }) {
                            d = d.with(size, "not square");
                        }
                        cx.diags.push(d);
                    }
                    if on {
                        swap = Some(cite(&a.cite));
                    }
                }
                _ => cx.unknown(&a.what.name, a.what.span, "kind of move", ["pass", "swap"]),
            }
        }
        if let ast::Item::Hand(h) = it {
            if hand.is_some() {
                cx.diags.push(Diagnostic::warning(
                    codes::REDUNDANT,
                    h.span,
                    "`captures go to hand` is stated twice",
                ));
            }
            if h.unpromoted {
                if !kinds.iter().any(|k| k.promotion.is_some()) {
                    cx.diags.push(
                        Diagnostic::warning(codes::REDUNDANT, h.span, "`unpromoted` changes nothing: no piece promotes").label("no effect"),
                    );
                }
                // Each promoted kind must come from one kind only, so it knows what it was.
                for (i, k) in kinds.iter().enumerate() {
                    let origins: Vec<&Kind> = kinds
                        .iter()
                        .filter(|o| o.promotion.as_ref().is_some_and(|p| p.choices.contains(&KindId(i as u8))))
                        .collect();
                    if origins.len() > 1 {
                        let names: Vec<String> = origins.iter().map(|o| format!("`{}`", o.name)).collect();
                        let who = match names.as_slice() {
                            [a, b] => format!("both {a} and {b}"),
                            _ => format!("{} and {} all", names[..names.len() - 1].join(", "), names[names.len() - 1]),
                        };
                        let mut d = Diagnostic::error(
                            codes::CONTRADICTION,
                            h.span,
                            format!("`unpromoted` cannot tell what a promoted `{}` was: {who} promote to it", k.name),
                        )
                        .label("ambiguous");
                        // Point at each promotion to that kind.
                        for it in items {
                            if let ast::Item::Piece(p) = it
                                && origins.iter().any(|o| o.name == p.name.name)
                                && let Some(pr) = p.promotions.first()
                            {
                                d = d.with(pr.span, format!("`{}` promotes to `{}`", p.name.name, k.name));
                            }
                        }
                        cx.diags.push(d);
                    }
                }
            }
            hand = Some(Hand {
                demote: h.unpromoted,
                back: h.back,
                cite: cite(&h.cite),
            });
        }
        if let ast::Item::Explode(e) = it {
            if explosion.is_some() {
                cx.diags
                    .push(Diagnostic::warning(codes::REDUNDANT, e.span, "`captures explode` is stated twice"));
            }
            let sparing: Vec<KindId> = e.sparing.iter().filter_map(|k| cx.kind(k)).collect();
            if !kinds
                .iter()
                .any(|k| k.forms.iter().any(|f| f.captures() || f.target == Target::EnPassant))
            {
                cx.error(
                    codes::CONTRADICTION,
                    e.span,
                    "captures explode, but no piece ever lands on a piece it captures",
                )
                .label = "never happens".into();
            }
            explosion = Some(Explosion {
                sparing,
                cite: cite(&e.cite),
            });
        }
        if let ast::Item::Must(m) = it {
            if let Some(first) = must_span {
                cx.diags.push(
                    Diagnostic::warning(codes::REDUNDANT, m.span, "`must capture` is stated twice")
                        .label("stated again here")
                        .with(first, "first stated here"),
                );
            }
            must_span = Some(m.span);
            if !kinds.iter().any(|k| {
                k.forms.iter().any(|f| {
                    f.captures()
                        || f.capturing
                        || f.enclose.as_ref().is_some_and(|e| e.0 == Enclose::Capture)
                        || f.target == Target::EnPassant
                })
            }) {
                cx.error(
                    codes::CONTRADICTION,
                    m.span,
                    "`must capture`, but no clause of any piece can capture",
                )
                .label = "never applies".into();
            }
            must_capture = Some(MustCapture {
                most: m.most,
                cite: cite(&m.cite),
            });
        }
    }

    // A drop takes pieces from the hand; the hand is filled by captures.
    let forms = || {
        items.iter().flat_map(|it| match it {
            ast::Item::Piece(p) => p.forms.iter().map(|f| (p, f)).collect(),
            _ => Vec::new(),
        })
    };
    // Pieces the setup puts in hand (`[MMMmmm]`): a drop may bring those in, even where captures
    // never fill a hand.
    let setup_hand = items
        .iter()
        .rev()
        .find_map(|i| if let ast::Item::Setup(s) = i { Some(s) } else { None })
        .and_then(|s| {
            s.fen
                .value
                .split_whitespace()
                .next()
                .and_then(|b| b.split_once('['))
                .map(|(_, h)| h.trim_end_matches(']').to_string())
        })
        .is_some_and(|h| h.chars().any(|c| c.is_ascii_alphabetic()));
    if hand.is_none() && !setup_hand {
        for (p, f) in forms() {
            if f.primitive == ast::Primitive::Drop {
                let d = Diagnostic::error(
                    codes::CONTRADICTION,
                    f.span,
                    format!("`{}` drops from the hand, but nothing ever goes to a hand", p.name.name),
                )
                .label("the hand is always empty")
                .help(
                    "add `captures go to hand` (captured pieces join the captor's hand), or give the hands pieces in the setup (`[PPpp]`)",
                );
                cx.diags.push(d);
            }
        }
    } else if !kinds.iter().any(|k| k.forms.iter().any(|f| f.primitive == Primitive::Drop))
        && let Some(span) = items
            .iter()
            .find_map(|i| if let ast::Item::Hand(h) = i { Some(h.span) } else { None })
    {
        cx.diags.push(
            Diagnostic::warning(
                codes::UNUSED,
                span,
                "captured pieces go to the hand, but no piece is ever dropped from it",
            )
            .label("never used")
            .help("let pieces come back with a `drop` clause, or leave this out"),
        );
    }
    // `forbid royal attacked` counts an attack where an enemy clause could land on the royal: a
    // piece taken by being jumped over or enclosed was never attacked.
    if let Some(forbid) = royal_safety_span
        && let Some(royal) = kinds.iter().find(|k| k.royal)
    {
        for (_, f) in forms() {
            let jumps_enemies = matches!(&f.primitive, ast::Primitive::Jump { over, .. } if over.is_none_or(|o| o.0 != ast::JumpOver::Own));
            for m in &f.modifiers {
                let (span, how) = match m {
                    ast::Modifier::Capturing(s) if jumps_enemies => (*s, "this jump takes the piece it passes over"),
                    ast::Modifier::Enclosing { flip: false, span, .. } => (*span, "`capturing enclosed` takes pieces it never lands on"),
                    ast::Modifier::CapturingAtOnce(s) if jumps_enemies => (*s, "this jump takes the pieces it passes over"),
                    ast::Modifier::Neighbours { flip: false, span } => (*span, "`capturing neighbours` takes pieces it never lands on"),
                    _ => continue,
                };
                let d = Diagnostic::error(
                    codes::CONTRADICTION,
                    span,
                    format!("`forbid royal attacked` counts only attacks that land on a royal's square, and {how}"),
                )
                .label("can take a royal that was never attacked")
                .with(forbid, "royal safety stated here")
                .help(format!(
                    "to end the game when a royal is taken, leave out `forbid royal attacked` and add the end rule `regicide: captured {} -> mover wins`",
                    royal.name
                ));
                cx.diags.push(d);
            }
        }
    }
    // A piece captured only when surrounded is looked at after a move that captures enclosed
    // pieces: with none, it is never captured that way.
    let encloses = kinds
        .iter()
        .any(|k| k.forms.iter().any(|f| matches!(f.enclose, Some((Enclose::Capture, _)))));
    if !encloses {
        for it in items {
            if let ast::Item::Piece(p) = it
                && let Some(sr) = &p.surround
            {
                cx.diags.push(
                    Diagnostic::warning(
                        codes::REDUNDANT,
                        sr.span,
                        format!(
                            "`{}` is captured only when surrounded, which is looked at after a move that captures enclosed pieces, and no clause does",
                            p.name.name
                        ),
                    )
                    .label("never looked at")
                    .help("give the capturing pieces `capturing enclosed along DIRS`, or leave this out"),
                );
            }
        }
    }
    // A turn's later part that removes an enemy piece could remove the royal, never attacked.
    if let Some(forbid) = royal_safety_span
        && let Some(royal) = kinds.iter().find(|k| k.royal)
    {
        for it in items {
            let ast::Item::Turn(t) = it else { continue };
            for part in &t.parts {
                if let ast::PartAction::Remove(span) = &part.action {
                    let d = Diagnostic::error(
                        codes::CONTRADICTION,
                        *span,
                        "`forbid royal attacked` counts only attacks that land on a royal's square, and this part removes an enemy piece of the mover's choice",
                    )
                    .label("can remove a royal that was never attacked")
                    .with(forbid, "royal safety stated here")
                    .help(format!(
                        "to end the game when a royal is taken, leave out `forbid royal attacked` and add the end rule `regicide: captured {} -> mover wins`",
                        royal.name
                    ));
                    cx.diags.push(d);
                }
            }
        }
    }
    // A slide whose length depends on the whole line has no reversed table of attacks.
    if let Some(forbid) = royal_safety_span {
        for (_, f) in forms() {
            for m in &f.modifiers {
                if let ast::Modifier::Counted(span) = m {
                    let d = Diagnostic::error(
                        codes::CONTRADICTION,
                        *span,
                        "`forbid royal attacked` needs to know every square a piece attacks, and a slide as long as its line's pieces has no such table",
                    )
                    .label("not with royal safety")
                    .with(forbid, "royal safety stated here")
                    .help("end the game when a royal is taken instead: `captured KING -> mover wins`");
                    cx.diags.push(d);
                }
            }
        }
    }
    // Checkmate needs check, and check needs a royal.
    if !kinds.iter().any(|k| k.royal) {
        for (_, f) in forms().filter(|(_, f)| f.primitive == ast::Primitive::Drop) {
            for m in &f.modifiers {
                if let ast::Modifier::NotGivingMate(span) = m {
                    let d = Diagnostic::error(
                        codes::CONTRADICTION,
                        *span,
                        "`not giving checkmate` needs a royal piece: without one nothing is ever in check, so no drop can mate",
                    )
                    .label("never applies")
                    .help("mark the piece whose safety matters `royal`, or leave this restriction out");
                    cx.diags.push(d);
                }
            }
        }
    }
    let has_pass = pass.is_some();
    // The setup's handicap first: its compensation replaces a scoring parameter.
    let handicap = match (
        items
            .iter()
            .rev()
            .find_map(|i| if let ast::Item::Setup(s) = i { Some(s) } else { None })
            .and_then(|s| s.handicap.as_ref()),
        cx.board.clone(),
    ) {
        (Some(h), Some(board)) => {
            let players = cx.player_names.clone();
            let r = handicap::resolve(&mut cx, h, &board, &players);
            cx.komi_override = r.as_ref().and_then(|r| r.replaces.clone());
            r
        }
        _ => None,
    };
    let turn = turn::resolve_turn(&mut cx, items, &kinds);
    never_captures(&mut cx, items, &kinds, &turn, chain_capture.is_some());
    let records = records::resolve(&mut cx, game, notation, chain_capture.is_some());
    let has_check = royal_safety.is_some() || royals_facing.is_some();
    let chase = chase::resolve_chase(&mut cx, items, has_check);
    let phases = phases::resolve(&mut cx, items, &kinds, has_check, has_pass, &counts);
    let mut points = Vec::new();
    let end_rules = ends::resolve_ends(&mut cx, items, &kinds, has_check, has_pass, chase.is_some(), &counts, &mut points);

    // Setup.
    let setups: Vec<&ast::Setup> = items
        .iter()
        .filter_map(|i| if let ast::Item::Setup(s) = i { Some(s) } else { None })
        .collect();
    let setup = match setups.last() {
        Some(s) => Some(s),
        None if !report_missing("setup") => None,
        None => {
            cx.error(codes::MISSING, whole, "this ruleset has no `setup` position")
                .help
                .push("add `setup \"<FEN>\"`".into());
            None
        }
    };

    // Unused definitions. Phases that nothing names (no clause `during` one, no condition reading
    // one) change nothing: worth a word on the first.
    let phase_items: Vec<&ast::PhaseDecl> = items
        .iter()
        .filter_map(|i| if let ast::Item::Phase(p) = i { Some(p) } else { None })
        .collect();
    if let Some(p) = phase_items.first()
        && phase_items.len() > 1
        && !phase_items.iter().any(|p| cx.used.contains(&format!("phase {}", p.name.name)))
    {
        cx.diags.push(
            Diagnostic::warning(
                codes::UNUSED,
                p.name.span,
                "nothing names these phases: every clause applies in each",
            )
            .label("never named")
            .help(format!(
                "mark the clauses that apply only in a phase with `during {0}`, or read it in a condition: `during {0}, ...`",
                p.name.name
            )),
        );
    }
    for it in items {
        match it {
            ast::Item::Zone(z) if !cx.used.contains(&format!("zone {}", z.name.name)) => cx.diags.push(
                Diagnostic::warning(codes::UNUSED, z.name.span, format!("zone `{}` is never used", z.name.name)).label("defined here"),
            ),
            ast::Item::Param(p) if !cx.used.contains(&format!("param {}", p.name.name)) => cx.diags.push(
                Diagnostic::warning(codes::UNUSED, p.name.span, format!("parameter `{}` is never used", p.name.name)).label("defined here"),
            ),
            ast::Item::Direction(d) if !cx.used.contains(&format!("direction {}", d.name.name)) => cx.diags.push(
                Diagnostic::warning(codes::UNUSED, d.name.span, format!("direction `{}` is never used", d.name.name)).label("defined here"),
            ),
            ast::Item::Count(c) if !cx.used.contains(&format!("count {}", c.name.name)) => cx.diags.push(
                Diagnostic::warning(codes::UNUSED, c.name.span, format!("count `{}` is never used", c.name.name))
                    .label("defined here")
                    .help("compare it in an end rule: `NAME of mover is N -> mover wins`"),
            ),
            _ => {}
        }
    }

    chance::unused_tracks(&mut cx);
    chance::roll_used(&mut cx, &kinds, royal_safety_span);
    let race = chance::resolve_race(&mut cx, items, roll.as_ref(), &kinds);

    let board = cx.board.take()?;
    let (players, seating, absent) = players?;
    if cx.diags.has_errors() {
        return None;
    }
    let mut params: Vec<(String, String)> = param_order
        .iter()
        .map(|p| {
            let v = match &cx.params[&p.name.name].0 {
                Value::Number(_, text) => text.clone(),
                Value::Word(w) => w.clone(),
            };
            (p.name.name.clone(), v)
        })
        .collect();
    params.dedup();
    let setup_decl = setup?;
    let setup_text = if setup_decl.empty {
        let rows = vec![board.width.to_string(); board.height].join("/");
        format!("{rows} {} - - 0 1", players[0].fen)
    } else {
        setup_decl.fen.value.clone()
    };
    let mut rules = Rules {
        name,
        players,
        seating,
        absent,
        board,
        kinds,
        royal_safety,
        royals_facing,
        end_rules,
        setup: crate::model::Setup::default(),
        pass,
        pass_only_when_stuck,
        swap,
        hand,
        must_capture,
        explosion,
        points,
        chain_capture,
        suicide_forbidden,
        repetition_forbidden,
        chase,
        turn,
        counts,
        phases,
        params,
        cite_prefix,
        notation,
        records,
        clocks: clocks::resolve(&mut cx, items),
        zones: {
            let mut named: Vec<(String, BySide<SquareSet>)> = cx.zones.iter().map(|(n, (set, _))| (n.clone(), set.clone())).collect();
            named.sort_by(|a, b| a.0.cmp(&b.0));
            named
        },
        roll,
        tracks: cx.tracks.iter().map(|(t, _)| t.clone()).collect(),
        again,
        race,
        teams: Vec::new(),
        teams_cite: None,
    };
    if let Some(g) = game {
        (rules.teams, rules.teams_cite) = resolve_teams(&mut cx, g, &rules.players);
        if cx.diags.has_errors() {
            return None;
        }
    }
    if rules.players.len() > 2 {
        beyond_two_players(
            &mut cx,
            &rules,
            game.map_or(whole, |g| g.players.first().map_or(g.span, |p| p.name.span)),
        );
        if cx.diags.has_errors() {
            return None;
        }
    }
    // The setup line read as FEN: the first of the two steps every position takes (the second,
    // below, once the rest of the rules is known to be sound).
    let setup = crate::notation::fen::parse_ruleset_setup(&rules, &setup_text);
    if let Ok(setup) = &setup {
        rules.setup = setup.clone();
    }
    if let Some(h) = handicap.as_ref().filter(|h| h.stones > 0)
        && let Ok(setup) = &setup
    {
        match with_handicap(&rules, setup, h) {
            Ok(with) => rules.setup = with,
            Err(msg) => {
                cx.diags.push(Diagnostic::error(codes::SETUP, h.span, msg).label("this handicap"));
                return None;
            }
        }
    }
    if setup.is_ok() {
        unused_pieces(&mut cx, items, &rules);
        castles_in_setup(&mut cx, items, &rules, &rules.setup);
    }
    if cx.diags.has_errors() {
        return None;
    }
    // The engine compiled to try the setup is the one the caller runs (see `Checked::engine`).
    let tried = setup.map_err(|e| e.to_string()).and_then(|_| {
        let engine = crate::game::Engine::new(rules.clone());
        engine.position(&rules.setup).map(|_| engine).map_err(|e| e.to_string())
    });
    match tried {
        Ok(engine) => Some((rules, engine)),
        Err(e) => {
            let span = setup_decl.fen.span;
            cx.diags.push(
                Diagnostic::error(codes::SETUP, span, format!("the setup position does not fit these rules: {e}")).label("this position"),
            );
            None
        }
    }
}

/// Pieces never in the setup and never promoted to, placed or dropped: a warning at each.
fn unused_pieces(cx: &mut Cx, items: &[ast::Item], rules: &Rules) {
    for (i, k) in rules.kinds.iter().enumerate() {
        let id = KindId(i as u8);
        let on_board = rules.setup.board.iter().any(|c| c.is_some_and(|(kk, _)| kk == id));
        let promoted = rules
            .kinds
            .iter()
            .any(|o| o.promotion.as_ref().is_some_and(|p| p.choices.contains(&id)))
            || k.forms.iter().any(|f| matches!(f.primitive, Primitive::Place | Primitive::Drop))
            || rules.turn.iter().any(|p| match &p.action {
                PartAction::Place { kind, .. } => *kind == id,
                PartAction::Gate { kinds, .. } => kinds.contains(&id),
                PartAction::Remove { .. } => false,
            });
        if !on_board
            && !promoted
            && let Some(span) = items.iter().find_map(|it| match it {
                ast::Item::Piece(p) if p.name.name == k.name => Some(p.name.span),
                _ => None,
            })
        {
            cx.diags.push(
                Diagnostic::warning(
                    codes::UNUSED,
                    span,
                    format!("piece `{}` is neither in the setup nor a promotion choice", k.name),
                )
                .label("never on the board"),
            );
        }
    }
}

/// The setup with a handicap's stones on their points, the other side to move.
fn with_handicap(rules: &Rules, setup: &crate::model::Setup, h: &handicap::Resolved) -> Result<crate::model::Setup, String> {
    let (w, ht) = (rules.board.width, rules.board.height);
    let mut with = setup.clone();
    for sq in handicap::points(w, ht, h.stones) {
        if with.board[sq].is_some() {
            return Err(format!("handicap point {} is already taken in the setup", rules.board.name(sq)));
        }
        with.board[sq] = Some((h.kind, setup.stm));
    }
    with.stm = setup.stm.other();
    Ok(with)
}

/// Where nothing in the ruleset can ever take a piece, what waits for a capture is dead: a count
/// changed by captures, a part of the turn that follows one.
fn never_captures(cx: &mut Cx, items: &[ast::Item], kinds: &[Kind], turn: &[Part], chains: bool) {
    let captures = chains
        || turn.iter().any(|p| matches!(p.action, PartAction::Remove { .. }))
        || kinds.iter().any(|k| {
            k.forms.iter().any(|f| {
                f.captures()
                    || f.capturing
                    || f.target == Target::EnPassant
                    || matches!(f.enclose, Some((Enclose::Capture, _)))
                    || f.neighbours == Some(Enclose::Capture)
            }) || k.surround.is_some()
        });
    if captures {
        return;
    }
    for it in items {
        match it {
            ast::Item::Count(c) => {
                for (_, event, span) in &c.changes {
                    if matches!(event, ast::CountEvent::Capture | ast::CountEvent::KindCaptured(_)) {
                        cx.diags.push(
                            Diagnostic::warning(codes::REDUNDANT, *span, "this never changes the count: no move in this ruleset captures")
                                .label("never happens")
                                .help("moves that capture land `to enemy` (or anywhere), jump `capturing`, or capture enclosed pieces or neighbours"),
                        );
                    }
                }
            }
            ast::Item::Turn(t) => {
                for p in &t.parts {
                    if let Some(ast::PartCondition::Captured(span)) = &p.condition {
                        cx.diags.push(
                            Diagnostic::warning(
                                codes::REDUNDANT,
                                *span,
                                "this part can never be chosen: no move in this ruleset captures",
                            )
                            .label("never true"),
                        );
                    }
                }
            }
            _ => {}
        }
    }
}

/// What a game of more than two players cannot state yet: each rule the engine plays between two
/// sides only, refused by name at the players (rather than played wrongly).
fn beyond_two_players(cx: &mut Cx, rules: &Rules, span: Span) {
    let mut not_yet: Vec<&str> = Vec::new();
    if rules.royals_facing.is_some() {
        not_yet.push("royals facing");
    }
    if !rules.counts.is_empty() {
        not_yet.push("`count`");
    }
    if rules.chain_capture.is_some() || rules.suicide_forbidden.is_some() {
        not_yet.push("capturing chains");
    }
    if !rules.teams.is_empty() && rules.kinds.iter().flat_map(|k| &k.forms).any(|f| f.capturing && f.continuing) {
        not_yet.push("capturing jumps that go on, among partners");
    }
    if rules.swap.is_some() {
        not_yet.push("`allow swap`");
    }
    if !rules.turn.is_empty() {
        not_yet.push("turns of several parts");
    }
    if !rules.clocks.is_empty() {
        not_yet.push("clocks");
    }
    if rules.explosion.is_some() {
        not_yet.push("`captures explode`");
    }
    if rules.chase.is_some() {
        not_yet.push("`chase`");
    }
    let effects = rules
        .kinds
        .iter()
        .flat_map(|k| &k.forms)
        .any(|f| f.enclose.is_some() || f.neighbours.is_some() || f.enclose_against.is_some())
        || rules.kinds.iter().any(|k| k.surround.is_some());
    if effects {
        not_yet.push("enclosing and surrounding captures");
    }
    let verdicts = rules.end_rules.iter().any(|r| {
        matches!(
            r.verdict,
            Verdict::ScoreByArea { .. } | Verdict::Points(_) | Verdict::MostPieces | Verdict::CheckerLoses | Verdict::ChaserLoses
        ) || r.conditions.iter().any(|c| {
            matches!(
                c,
                Condition::NeitherCanMove
                    | Condition::CannotWin(..)
                    | Condition::Material(..)
                    | Condition::CheckingThroughout
                    | Condition::ChasingThroughout
                    | Condition::FlagFallen
                    | Condition::RoyalsFacing(..)
                    | Condition::Ring(..)
            )
        })
    });
    if verdicts {
        not_yet.push("scores, material and `neither`/`cannot win` end rules");
    }
    if !not_yet.is_empty() {
        let d = Diagnostic::error(
            codes::BOUND,
            span,
            format!(
                "a game of {} players cannot use {} yet: Arbiter plays them between two sides only",
                rules.players.len(),
                not_yet.join(", ")
            ),
        )
        .label(format!("{} players", rules.players.len()))
        .help("play with two players, or leave those rules out");
        cx.diags.push(d);
    }
}

/// `teams red + yellow, blue + green`: two teams of the sides in play, each side in one; a team
/// with a side that does not play this game (`play ... when`) keeps its others. Each side's team.
fn resolve_teams(cx: &mut Cx, g: &ast::Game, players: &[Player]) -> (Vec<u8>, Option<String>) {
    let Some(decl) = g.teams.first() else {
        return (Vec::new(), None);
    };
    for again in &g.teams[1..] {
        let d = Diagnostic::error(codes::DUPLICATE, again.span, "a second `teams` clause")
            .label("teams said again")
            .with(decl.span, "first said here")
            .help("name every team in one `teams` clause: `teams red + yellow, blue + green`");
        cx.diags.push(d);
    }
    let mut team = vec![u8::MAX; players.len()];
    let declared: Vec<&str> = g.players.iter().map(|p| p.name.name.as_str()).collect();
    let mut named: Vec<&str> = Vec::new();
    // Whether every name was read: a side left out is reported only then (not as a follow-on).
    let mut read = true;
    for (ti, members) in decl.teams.iter().enumerate() {
        for id in members {
            if named.contains(&id.name.as_str()) {
                cx.error(codes::DUPLICATE, id.span, format!("`{}` is in a team twice", id.name))
                    .label = "named again".into();
                read = false;
                continue;
            }
            named.push(&id.name);
            if !declared.contains(&id.name.as_str()) {
                cx.unknown(&id.name, id.span, "player", declared.iter().copied());
                read = false;
                continue;
            }
            if let Some(s) = players.iter().position(|p| p.name == id.name) {
                team[s] = ti.min(u8::MAX as usize - 1) as u8;
            }
        }
    }
    if decl.teams.len() != 2 {
        let d = Diagnostic::error(
            codes::BOUND,
            decl.span,
            format!(
                "{} team{}: Arbiter plays teams as two sides, each of partners",
                decl.teams.len(),
                if decl.teams.len() == 1 { "" } else { "s" }
            ),
        )
        .label("not two teams")
        .help("name two teams, each side in one: `teams red + yellow, blue + green`");
        cx.diags.push(d);
    }
    if players.len() <= 2 {
        let d = Diagnostic::error(
            codes::CONTRADICTION,
            decl.span,
            "teams need more than two players: two are already two sides",
        )
        .label("teams of one")
        .help("leave `teams` out, or declare the partners as players");
        cx.diags.push(d);
    }
    if let Some(s) = team.iter().position(|&t| t == u8::MAX)
        && read
    {
        let d = Diagnostic::error(codes::MISSING, decl.span, format!("`{}` is in no team", players[s].name))
            .label("every side in play needs a team")
            .help(format!("add `{}` to one of the teams", players[s].name));
        cx.diags.push(d);
    }
    for ti in 0..decl.teams.len().min(2) {
        if read && !team.contains(&(ti as u8)) {
            let d = Diagnostic::error(codes::CONTRADICTION, decl.span, format!("team {} has nobody in this game", ti + 1))
                .label("a team of sides that do not play")
                .help("with these players, `play ... when` leaves one team empty: the game would have one side");
            cx.diags.push(d);
        }
    }
    (team, cite(&decl.cite))
}

/// A seating turns the board onto itself: quarter turns need a square board of squares or points,
/// sixth turns a board of hexes with a centre cell.
fn seating_fits_board(cx: &mut Cx) {
    let (Some(board), Some(span)) = (cx.board.as_ref(), cx.seating_span) else {
        return;
    };
    let why = match cx.seating {
        Seating::QuarterTurns if board.hexes => Some("a board of hexes does not turn a quarter round onto itself".to_string()),
        Seating::QuarterTurns if board.width != board.height => Some(format!(
            "the board, {} × {}, does not turn a quarter round onto itself",
            board.width, board.height
        )),
        Seating::SixthTurns if !board.hexes => Some("only a board of hexes turns a sixth of a round".to_string()),
        Seating::SixthTurns if board.width != board.height || board.width % 2 == 0 => Some(format!(
            "the board of hexes, {} × {}, has no centre cell to turn about",
            board.width, board.height
        )),
        _ => None,
    };
    if let Some(why) = why {
        let d = Diagnostic::error(codes::CONTRADICTION, span, format!("`seated by {}`: {why}", cx.seating.as_str()))
            .label("this seating")
            .help("quarter turns need an n × n board of squares or points; sixth turns an n × n board of hexes, n odd");
        cx.diags.push(d);
    }
}

/// The players declared, how they sit, and which take part (`play ... when NAME = N`): the sides
/// in play in turn order, each with its seat. Sets `cx.player_names` to the sides in play.
fn resolve_players(cx: &mut Cx, g: &ast::Game) -> Option<(Vec<Player>, Seating, Vec<String>)> {
    let declared = &g.players;
    let seating = g.seating.map_or(Seating::Mirror, |(s, _)| s);
    if declared.len() < 2 || declared.len() > MAX_SIDES {
        let span = declared.first().map_or(g.span, |p| p.name.span);
        cx.error(
            codes::BOUND,
            span,
            format!("Arbiter plays games of 2 to {MAX_SIDES} players; this one has {}", declared.len()),
        )
        .label = "players declared here".into();
        return None;
    }
    let mut ok = true;
    for (i, p) in declared.iter().enumerate() {
        if let Some(q) = declared[..i].iter().find(|q| q.name.name == p.name.name) {
            let d = Diagnostic::error(codes::DUPLICATE, p.name.span, format!("two players are named `{}`", p.name.name))
                .label("named again here")
                .with(q.name.span, "first named here");
            cx.diags.push(d);
            ok = false;
        }
    }
    // The side-to-move field of a FEN: one word, different for each player.
    for f in declared.iter().filter_map(|p| p.fen.as_ref()) {
        if f.value.is_empty() || f.value.contains(char::is_whitespace) {
            cx.error(
                codes::TYPE,
                f.span,
                "a player's FEN letter must be a word without spaces (the side to move in FEN)",
            )
            .label = "not a FEN word".into();
            ok = false;
        }
    }
    const DEFAULT_LETTERS: [&str; 2] = ["w", "b"];
    let all: Vec<Player> = declared
        .iter()
        .enumerate()
        .map(|(i, p)| Player {
            name: p.name.name.clone(),
            fen: p
                .fen
                .as_ref()
                .map_or_else(|| DEFAULT_LETTERS.get(i).copied().unwrap_or("").to_string(), |f| f.value.clone()),
            seat: i as u8,
        })
        .collect();
    for (i, p) in all.iter().enumerate() {
        if p.fen.is_empty() {
            // Only a third player or later can lack one: the first two default to `w` and `b`.
            cx.error(
                codes::MISSING,
                declared[i].name.span,
                format!("player `{}` needs a FEN letter (`{} \"x\"`)", p.name, p.name),
            )
            .label = "no letter given".into();
            ok = false;
        } else if let Some(j) = all[..i].iter().position(|q| q.fen == p.fen) {
            let span = declared[i]
                .fen
                .as_ref()
                .or(declared[j].fen.as_ref())
                .map_or(declared[i].name.span, |f| f.span);
            cx.error(codes::DUPLICATE, span, format!("two players have the FEN letter `{}`", p.fen))
                .label = "a FEN could not say whose move it is".into();
            ok = false;
        }
    }
    if all.len() > 2
        && all
            .iter()
            .any(|p| p.fen.chars().count() != 1 || !p.fen.chars().all(|c| c.is_ascii_lowercase()))
    {
        let i = all
            .iter()
            .position(|p| p.fen.chars().count() != 1 || !p.fen.chars().all(|c| c.is_ascii_lowercase()))
            .unwrap_or(0);
        let span = declared[i].fen.as_ref().map_or(declared[i].name.span, |f| f.span);
        cx.error(
            codes::TYPE,
            span,
            format!(
                "with more than two players each player's FEN letter is one lowercase letter; `{}` is not",
                all[i].fen
            ),
        )
        .help
        .push("a FEN of such a game writes each piece as its side's letter and its kind's (`rP`)".into());
        ok = false;
    }
    if declared.len() > seating.seats() {
        let span = g.seating.map_or(declared[seating.seats()].name.span, |(_, sp)| sp);
        let d = Diagnostic::error(
            codes::CONTRADICTION,
            span,
            format!(
                "{} players, but {} gives only {} seats: player `{}` has no turn of the board to see its zones and directions from",
                declared.len(),
                if g.seating.is_some() {
                    format!("`seated by {}`", seating.as_str())
                } else {
                    "a mirror (the default)".to_string()
                },
                seating.seats(),
                declared[seating.seats()].name.name
            ),
        )
        .label("no seat for every player")
        .help("say how the players sit: `seated by quarter turns` (a square board), `seated by sixth turns` (a hex star)");
        cx.diags.push(d);
        ok = false;
    }
    // Who takes part: the `play` line whose parameter has the value given, else everyone.
    let mut in_play: Vec<usize> = (0..all.len()).collect();
    if !g.plays.is_empty() {
        let mut chosen = None;
        let mut asked: Option<(String, String, Span)> = None;
        for line in &g.plays {
            let value = match cx.params.get(&line.param.name) {
                Some((Value::Number(n, text), span)) => {
                    asked = Some((line.param.name.clone(), text.clone(), *span));
                    *n
                }
                Some(_) => {
                    cx.error(
                        codes::TYPE,
                        line.param.span,
                        format!("`{}` must be a number to choose who plays", line.param.name),
                    )
                    .label = "not a number".into();
                    return None;
                }
                None => {
                    cx.used.insert(format!("param {}", line.param.name));
                    cx.unknown(&line.param.name, line.param.span, "parameter", std::iter::empty::<&str>());
                    return None;
                }
            };
            cx.used.insert(format!("param {}", line.param.name));
            let mut sides = Vec::new();
            for id in &line.sides {
                match all.iter().position(|p| p.name == id.name) {
                    Some(i) if sides.contains(&i) => {
                        cx.error(
                            codes::DUPLICATE,
                            id.span,
                            format!("`{}` is named twice in this `play` line", id.name),
                        )
                        .label = "named again".into();
                        ok = false;
                    }
                    Some(i) => sides.push(i),
                    None => {
                        let names: Vec<String> = all.iter().map(|p| p.name.clone()).collect();
                        cx.unknown(&id.name, id.span, "player", names.iter().map(|s| s.as_str()));
                        ok = false;
                    }
                }
            }
            if line.sides.len() < 2 {
                cx.error(codes::BOUND, line.span, "a `play` line names at least 2 players").label = "too few".into();
                ok = false;
            }
            if value == line.value as f64 && chosen.is_none() {
                chosen = Some(sides);
            }
        }
        match chosen {
            Some(sides) => in_play = sides,
            None => {
                let (name, text, span) = asked.unwrap_or_default();
                let values: Vec<String> = g.plays.iter().map(|l| l.value.to_string()).collect();
                let d = Diagnostic::error(
                    codes::BOUND,
                    span,
                    format!("`{name}` is {text}, and no `play` line says who plays then"),
                )
                .label("declared here")
                .help(format!("`{name}` may be {}", values.join(", ")));
                cx.diags.push(d);
                return None;
            }
        }
    }
    if !ok {
        return None;
    }
    let players: Vec<Player> = in_play.iter().map(|&i| all[i].clone()).collect();
    cx.player_names = players.iter().map(|p| p.name.clone()).collect();
    cx.seating = seating;
    cx.seats = players.iter().map(|p| p.seat).collect();
    cx.seating_span = g.seating.map(|(_, sp)| sp);
    let absent = all
        .iter()
        .enumerate()
        .filter(|(i, _)| !in_play.contains(i))
        .map(|(_, p)| p.fen.clone())
        .collect();
    Some((players, seating, absent))
}

#[cfg(test)]
mod tests {
    use super::as_written;

    #[test]
    fn a_clause_as_written_is_its_words_and_citations_one_space_apart() {
        // Layout, comments and a continued line fold to single spaces.
        assert_eq!(
            as_written("slide   orthogonal  # rooks\n    until blocked\n"),
            "slide orthogonal until blocked"
        );
        // A citation glued on or aligned far off reads the same; its inside is kept.
        assert_eq!(as_written("step any[3.8.1]"), "step any [3.8.1]");
        assert_eq!(as_written("step any                  [3.8.1]"), "step any [3.8.1]");
        assert_eq!(as_written("slide orthogonal[ [1.2]"), "slide orthogonal [ [1.2]");
        // A `#` in a citation or a string starts no comment; a `[` in a string is no citation.
        assert_eq!(as_written("step any [1.1 #a] # gone"), "step any [1.1 #a]");
        assert_eq!(as_written("x \"a#b[c\" y # gone"), "x \"a#b[c\" y");
        assert_eq!(as_written("# only a comment\n\n"), "");
    }
}
