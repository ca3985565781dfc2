//! Piece kinds: letters, royalty, movement clauses, promotion and castling.

use super::{Cx, board, cite};
use crate::diag::{Diagnostic, Span, codes};
use crate::model::*;
use crate::syntax::ast;

/// The pieces' names, before anything that names them is resolved (a count of a kind captured,
/// read before the pieces' clauses, which compare counts).
pub(super) fn declare(cx: &mut Cx, items: &[ast::Item]) {
    let decls = items
        .iter()
        .filter_map(|i| if let ast::Item::Piece(p) = i { Some(p) } else { None });
    for (i, p) in decls.take(MAX_KINDS).enumerate() {
        cx.kinds.insert(p.name.name.clone(), KindId(i as u8));
        cx.kind_names.push(p.name.name.clone());
    }
}

pub(super) fn resolve_pieces(cx: &mut Cx, items: &[ast::Item]) -> Vec<Kind> {
    let decls: Vec<&ast::PieceDecl> = items
        .iter()
        .filter_map(|i| if let ast::Item::Piece(p) = i { Some(p) } else { None })
        .collect();
    if decls.len() > MAX_KINDS {
        cx.error(
            codes::BOUND,
            decls[MAX_KINDS].name.span,
            format!("a ruleset may declare at most {MAX_KINDS} kinds of piece"),
        );
    }
    let mut letters: Vec<(String, Span)> = Vec::new();
    for p in decls.iter().take(MAX_KINDS) {
        // One letter, or `+` and a letter: a promoted kind written after the kind it promotes from.
        let body = p.letter.value.strip_prefix('+').unwrap_or(&p.letter.value);
        let mut chars = body.chars();
        match (chars.next(), chars.next()) {
            (Some(c), None) if c.is_ascii_alphabetic() || (c == '*' && p.neutral.is_some() && body.len() == p.letter.value.len()) => {
                let written = format!(
                    "{}{}",
                    if body.len() < p.letter.value.len() { "+" } else { "" },
                    c.to_ascii_uppercase()
                );
                if let Some((_, first)) = letters.iter().find(|(l, _)| *l == written) {
                    let d = Diagnostic::error(codes::DUPLICATE, p.letter.span, format!("two pieces have the letter `{written}`"))
                        .label("used again here")
                        .with(*first, "first used here");
                    cx.diags.push(d);
                }
                letters.push((written, p.letter.span));
            }
            _ => {
                cx.error(
                    codes::TYPE,
                    p.letter.span,
                    if p.neutral.is_some() {
                        "a neutral piece's letter must be one ASCII letter or `*` (its FEN letter, the same for everyone)"
                    } else {
                        "a piece's letter must be one ASCII letter (its FEN letter), or `+` and a letter for a promoted kind"
                    },
                )
                .label = "not one letter".into();
            }
        }
    }
    let mut kinds = Vec::new();
    for p in decls.iter().take(MAX_KINDS) {
        kinds.push(piece(cx, p));
    }
    // A continuing move keeps its route in the move: each leg names one of at most 8 jump
    // directions (and, for jumps over a distance, how far beyond it lands).
    let mut jump_dirs: Vec<(i32, i32)> = Vec::new();
    for k in &kinds {
        for f in &k.forms {
            if let Primitive::Jump { dirs, .. } = &f.primitive {
                for d in dirs {
                    for side in [1, -1] {
                        let o = (d.0, d.1 * side);
                        if !jump_dirs.contains(&o) {
                            jump_dirs.push(o);
                        }
                    }
                }
            }
        }
    }
    if jump_dirs.len() > 8
        && let Some(span) = decls
            .iter()
            .find(|p| p.forms.iter().any(|f| matches!(f.primitive, ast::Primitive::Jump { .. })))
            .map(|p| p.name.span)
    {
        cx.error(
            codes::BOUND,
            span,
            format!("jumps may go in at most 8 directions in all, and these go in {}", jump_dirs.len()),
        )
        .help
        .push("a continuing move keeps its route in the move: up to 15 legs, fewer with more directions and jumps over a distance".into());
    }
    kinds
}

fn piece(cx: &mut Cx, p: &ast::PieceDecl) -> Kind {
    let plus = p.letter.value.starts_with('+');
    let letter = p
        .letter
        .value
        .trim_start_matches('+')
        .chars()
        .next()
        .unwrap_or('?')
        .to_ascii_uppercase();
    let glyphs = match p.glyphs.as_slice() {
        [] if plus => [format!("+{letter}"), format!("+{}", letter.to_ascii_lowercase())],
        [] => [letter.to_string(), letter.to_ascii_lowercase().to_string()],
        [a] => [a.value.clone(), a.value.clone()],
        [a, b, ..] => [a.value.clone(), b.value.clone()],
    };
    if p.forms.len() + p.castles.len() > MAX_FORMS_PER_KIND {
        cx.error(
            codes::BOUND,
            p.name.span,
            format!("a piece may have at most {MAX_FORMS_PER_KIND} movement clauses"),
        );
    }
    if p.promotions.is_empty() {
        // The other side of a two-sided piece is what it promotes to.
        for f in &p.forms {
            for m in &f.modifiers {
                if let ast::Modifier::EitherSide(at) = m {
                    cx.error(
                        codes::CONTRADICTION,
                        *at,
                        format!(
                            "`either side up` puts the piece down as what it promotes to, and `{}` never promotes",
                            p.name.name
                        ),
                    )
                    .help
                    .push("give it its other side: `promotes on ZONE to KIND`".into());
                }
            }
        }
    }
    if let Some(span) = p.neutral {
        // A neutral piece belongs to no one: nobody moves it by its clauses, and it is nobody's royal.
        let first = p
            .forms
            .first()
            .map(|f| f.span)
            .or(p.promotions.first().map(|pr| pr.span))
            .or(p.castles.first().map(|c| c.span));
        if let Some(at) = first {
            let d = Diagnostic::error(
                codes::CONTRADICTION,
                at,
                format!(
                    "`{}` is neutral: it belongs to no player, so no player moves it by a clause of its own",
                    p.name.name
                ),
            )
            .label("a clause of a neutral piece")
            .with(span, "neutral")
            .help("a later part of a turn puts it on the board: `turn { move  then place ... on empty, moving it }`");
            cx.diags.push(d);
        }
        if p.royal {
            cx.error(
                codes::CONTRADICTION,
                span,
                "a neutral piece belongs to no player, so it cannot be royal",
            )
            .label = "neutral and royal".into();
        }
    } else if p.forms.is_empty() && p.castles.is_empty() {
        cx.diags.push(
            Diagnostic::warning(codes::REDUNDANT, p.name.span, format!("piece `{}` has no way to move", p.name.name)).label("never moves"),
        );
    }
    let spanned: Vec<(Span, Form)> = p.forms.iter().filter_map(|f| form(cx, f).map(|x| (f.span, x))).collect();
    redundant_clauses(cx, &spanned);
    let forms: Vec<Form> = spanned.into_iter().map(|(_, f)| f).collect();
    if p.promotions.len() > 1 {
        cx.error(codes::DUPLICATE, p.promotions[1].span, "a piece has at most one promotion rule");
    }
    let promotion = p.promotions.first().and_then(|pr| {
        let zone = board::zone_by_side(cx, &pr.zone)?;
        let mut choices = Vec::new();
        for k in &pr.kinds {
            if k.name == p.name.name {
                // "Promote to itself" would be a promotion that may be declined, which `optionally`
                // says (and FEN then knows a piece may stand in the zone unpromoted).
                let d = Diagnostic::error(codes::CONTRADICTION, k.span, format!("`{}` cannot promote to its own kind", k.name))
                    .label("its own kind")
                    .help(if pr.optional.is_some() {
                        "remove it: `optionally` already lets the piece stay as it is".to_string()
                    } else {
                        format!("remove it and add `, optionally` to let the {} stay as it is", k.name)
                    });
                cx.diags.push(d);
                continue;
            }
            if let Some(id) = cx.kind(k) {
                if choices.contains(&id) {
                    cx.diags.push(Diagnostic::warning(
                        codes::REDUNDANT,
                        k.span,
                        format!("`{}` is listed twice", k.name),
                    ));
                } else {
                    choices.push(id);
                }
            }
        }
        let forced = match &pr.forced {
            Some(z) => {
                if pr.optional.is_none() {
                    cx.diags.push(
                        Diagnostic::warning(
                            codes::REDUNDANT,
                            z.span,
                            "`must on` narrows an optional promotion, and this one is not optional",
                        )
                        .label("every promotion here is forced already")
                        .help("add `, optionally` before it"),
                    );
                }
                board::zone_by_side(cx, z)
            }
            None => None,
        };
        if let (Some(a), Some(e)) = (pr.at_once, pr.ends_move) {
            let d = Diagnostic::error(
                codes::CONTRADICTION,
                a,
                "a promotion cannot both end a continuing capture and let it go on as the new kind",
            )
            .label("goes on")
            .with(e, "ends");
            cx.diags.push(d);
        }
        Some(Promotion {
            zone,
            choices,
            ends_move: pr.ends_move.is_some(),
            at_once: pr.at_once.is_some(),
            optional: pr.optional.is_some(),
            forced,
            leaving: pr.leaving.is_some(),
            cite: cite(&pr.cite),
        })
    });
    if let Some(span) = p.promotions.first().and_then(|pr| pr.ends_move)
        && !forms.iter().any(|f| f.continuing)
    {
        cx.diags.push(
            Diagnostic::warning(
                codes::REDUNDANT,
                span,
                format!(
                    "`ending the move` stops a continuing jump, and `{}` has no `continuing` clause",
                    p.name.name
                ),
            )
            .label("no effect"),
        );
    }
    let castles = p.castles.iter().filter_map(|c| castle(cx, p, c)).collect();
    let surround = p.surround.as_ref().map(|sr| {
        let mut against: Option<BySide<SquareSet>> = None;
        for z in &sr.against {
            if let Some(zs) = board::zone_by_side(cx, z) {
                match &mut against {
                    Some(a) => {
                        a.0[0].union(&zs.0[0]);
                        a.0[1].union(&zs.0[1]);
                    }
                    None => against = Some(zs),
                }
            }
        }
        Surround {
            dirs: board::dirs(cx, &sr.dirs),
            against,
            edge: sr.edge,
            cite: cite(&sr.cite),
        }
    });
    Kind {
        name: p.name.name.clone(),
        letter,
        plus,
        royal: p.royal,
        neutral: p.neutral.is_some(),
        unlettered: p.unlettered,
        glyphs,
        written: match &p.written {
            Some(w) if w.value.chars().count() == 1 && w.value.chars().all(|c| c.is_ascii_alphabetic()) => {
                w.value.chars().next().unwrap_or(letter).to_ascii_uppercase()
            }
            Some(w) => {
                cx.error(codes::TYPE, w.span, "`written` takes one ASCII letter").label = "not one letter".into();
                letter
            }
            None => letter,
        },
        forms,
        promotion,
        castles,
        surround,
    }
}

fn form(cx: &mut Cx, f: &ast::MoveForm) -> Option<Form> {
    let side = cx.board.as_ref().map_or(MAX_BOARD_SIDE, |b| b.width.max(b.height)) as i64;
    let primitive = match &f.primitive {
        ast::Primitive::Step { dirs, distance } => {
            let d = board::dirs(cx, dirs);
            let n = match distance {
                None => 1,
                Some((n, span)) if *n >= 1 && *n < side => *n as u32,
                Some((_, span)) => {
                    let shown = cx.src.shown(*span);
                    cx.error(
                        codes::BOUND,
                        *span,
                        format!("a step's distance must be between 1 and {}, not {shown}", side - 1),
                    )
                    .label = "out of range".into();
                    return None;
                }
            };
            Primitive::Step { dirs: d, distance: n }
        }
        ast::Primitive::Slide { dirs, max } => {
            let d = board::dirs(cx, dirs);
            let m = match max {
                None => None,
                Some(c) => Some(cx.count(c, "a slide's length", 1, side)? as u32),
            };
            Primitive::Slide { dirs: d, max: m }
        }
        ast::Primitive::Leap { offset, block } => {
            let (a, b, span) = *offset;
            if (a, b) == (0, 0) || a.unsigned_abs() as i64 >= side || b.unsigned_abs() as i64 >= side {
                let shown = cx.src.shown(span);
                cx.error(
                    codes::BOUND,
                    span,
                    format!("the leap {shown} does not fit the board: it must be non-zero, each part shorter than {side}"),
                )
                .label = "out of range".into();
                return None;
            }
            let mut points = Vec::new();
            for (c, d, bspan) in block {
                let inside = (c.signum() == a.signum() || *c == 0)
                    && (d.signum() == b.signum() || *d == 0)
                    && c.unsigned_abs() <= a.unsigned_abs()
                    && d.unsigned_abs() <= b.unsigned_abs();
                if !inside || (*c, *d) == (0, 0) || (*c, *d) == (a, b) {
                    let (point, target) = (cx.src.shown(*bspan), cx.src.shown(span));
                    cx.error(
                        codes::CONTRADICTION,
                        *bspan,
                        format!("the block point {point} must lie strictly between the start and the leap's target {target}"),
                    )
                    .label = "not between".into();
                    return None;
                }
                if points.contains(&(*c, *d)) {
                    let point = cx.src.shown(*bspan);
                    cx.diags.push(Diagnostic::warning(
                        codes::REDUNDANT,
                        *bspan,
                        format!("the block point {point} is given twice"),
                    ));
                }
                points.push((*c, *d));
            }
            let block = points;
            Primitive::Leap {
                offsets: leap_offsets(a, b, block),
            }
        }
        ast::Primitive::Place => Primitive::Place,
        ast::Primitive::Fly => Primitive::Fly,
        ast::Primitive::Drop => Primitive::Drop,
        ast::Primitive::Run { track } => Primitive::Run {
            track: super::chance::track_for_roll(cx, track, f.span)?,
        },
        ast::Primitive::Jump { dirs, over, far } => Primitive::Jump {
            far: far.is_some(),
            dirs: board::dirs(cx, dirs),
            over: match over.map(|o| o.0) {
                Some(ast::JumpOver::Enemy) => Over::Enemy,
                Some(ast::JumpOver::Own) => Over::Own,
                _ => Over::Any,
            },
        },
        ast::Primitive::Hop { dirs, screens } => {
            let d = board::dirs(cx, dirs);
            let n = cx.count(screens, "the number of screens", 1, crate::model::MAX_SCREENS)?;
            Primitive::Hop {
                dirs: d,
                screens: n as u32,
            }
        }
    };
    let mut target: Option<(Target, Span)> = None;
    let mut from = None;
    let mut within = None;
    let mut unmoved = false;
    let mut marks = None;
    let mut capturing = None;
    let mut continuing = None;
    let mut falling: Option<((i32, i32), Span)> = None;
    let mut enclose: Option<(Enclose, Vec<(i32, i32)>, Span)> = None;
    let mut only_if: Option<(Enclose, Span)> = None;
    let mut drop = DropRules::default();
    let mut drop_only: Vec<Span> = Vec::new();
    let mut screen_not = Vec::new();
    let mut target_not = Vec::new();
    let mut during = None;
    let mut counted = None;
    let mut over_own = None;
    let mut at_once = None;
    let mut never_back = None;
    let mut at_will = None;
    let mut next_to_own = None;
    let mut either_side = None;
    let mut enclose_exact = None;
    let mut enclose_against = None;
    let mut against_span = None;
    let mut neighbours = None;
    let mut clone = None;
    let mut when = None;
    let mut by_roll = None;
    let mut bear_off = None;
    let mut bear_home = None;
    let mut overshoot = None;
    let mut at_start = false;
    let mut on_roll: Option<Vec<u32>> = None;
    for m in &f.modifiers {
        let (t, span) = match m {
            ast::Modifier::BearingOff(zone, s) => {
                bear_off = Some(*s);
                if let Some(z) = zone {
                    bear_home = board::zone_by_side(cx, z);
                }
                (None, *s)
            }
            ast::Modifier::Overshooting(s) => {
                overshoot = Some(*s);
                (None, *s)
            }
            ast::Modifier::AtStart(track, s) => {
                if by_roll.is_some() {
                    cx.error(
                        codes::DUPLICATE,
                        *s,
                        "a drop enters along one track, by the roll or at its start: not both",
                    )
                    .label = "second way in".into();
                }
                by_roll = super::chance::track_for_roll(cx, track, *s);
                at_start = true;
                drop_only.push(*s);
                (None, *s)
            }
            ast::Modifier::OnRoll(numbers, s) => {
                if on_roll.is_some() {
                    cx.error(codes::DUPLICATE, *s, "`on a roll of` is given twice").label = "again".into();
                }
                let mut v: Vec<u32> = numbers.iter().map(|&(n, _)| n.clamp(0, u32::MAX as i64) as u32).collect();
                v.sort_unstable();
                v.dedup();
                on_roll = Some(v);
                (None, *s)
            }
            ast::Modifier::ByRoll(track, s) => {
                if at_start {
                    cx.error(
                        codes::DUPLICATE,
                        *s,
                        "a drop enters along one track, by the roll or at its start: not both",
                    )
                    .label = "second way in".into();
                }
                by_roll = super::chance::track_for_roll(cx, track, *s);
                drop_only.push(*s);
                (None, *s)
            }
            ast::Modifier::ToEmpty(s) => (Some(Target::Empty), *s),
            ast::Modifier::ToEmptyOrEnemy(s) => (Some(Target::Any), *s),
            ast::Modifier::ToEnemy(s) => (Some(Target::Enemy), *s),
            ast::Modifier::ToEnPassant(s) => (Some(Target::EnPassant), *s),
            ast::Modifier::From(z) => {
                if from.is_some() {
                    cx.error(codes::DUPLICATE, z.span, "`from` is given twice");
                }
                from = board::zone_by_side(cx, z);
                (None, z.span)
            }
            ast::Modifier::Within(z) => {
                if within.is_some() {
                    cx.error(codes::DUPLICATE, z.span, "`within` is given twice");
                }
                within = board::zone_by_side(cx, z);
                (None, z.span)
            }
            ast::Modifier::Unmoved(_) => {
                unmoved = true;
                (None, Span::default())
            }
            ast::Modifier::MarksEnPassant(s) => {
                marks = Some(*s);
                (None, *s)
            }
            ast::Modifier::Capturing(s) => {
                capturing = Some(*s);
                (None, *s)
            }
            ast::Modifier::Continuing(s) => {
                continuing = Some(*s);
                (None, *s)
            }
            ast::Modifier::Falling(ds, s) => {
                let d = board::dirs(cx, ds);
                match d.as_slice() {
                    [(dx, dy)] if dx.abs() > 1 || dy.abs() > 1 => {
                        let d = Diagnostic::error(
                            codes::CONTRADICTION,
                            *s,
                            format!("a piece falls one square at a time, but ({dx},{dy}) is more than one square away"),
                        )
                        .label("not one square")
                        .help("fall towards a neighbouring square: `falling south`, or a `direction` such as (0,-1)");
                        cx.diags.push(d);
                    }
                    [one] => falling = Some((*one, *s)),
                    [] => {}
                    _ => {
                        let d = Diagnostic::error(
                            codes::CONTRADICTION,
                            *s,
                            format!("a piece falls along one direction, but these name {}", d.len()),
                        )
                        .label(format!("{} directions", d.len()))
                        .help("name one: `falling south`");
                        cx.diags.push(d);
                    }
                }
                (None, *s)
            }
            ast::Modifier::Enclosing { flip, exact, dirs, span } => {
                if let Some((_, _, first)) = &enclose {
                    let d = Diagnostic::error(codes::DUPLICATE, *span, "a clause encloses along one set of directions")
                        .label("second")
                        .with(*first, "first");
                    cx.diags.push(d);
                }
                let d = board::dirs(cx, dirs);
                enclose = Some((if *flip { Enclose::Flip } else { Enclose::Capture }, d, *span));
                if let Some((n, nspan)) = exact {
                    if *n < 1 || *n >= side {
                        cx.error(codes::BOUND, *nspan, format!("an enclosed run is 1 to {} pieces long", side - 1))
                            .label = "out of range".into();
                    } else {
                        enclose_exact = Some(*n as u32);
                    }
                }
                (None, *span)
            }
            ast::Modifier::EncloseAgainst(z) => {
                enclose_against = board::zone_by_side(cx, z);
                against_span = Some(z.span);
                (None, z.span)
            }
            ast::Modifier::OnlyIf { flips, span } => {
                only_if = Some((if *flips { Enclose::Flip } else { Enclose::Capture }, *span));
                (None, *span)
            }
            ast::Modifier::NoFileWith(k, s) => {
                drop.no_file_with = cx.kind(k);
                drop_only.push(*s);
                (None, *s)
            }
            ast::Modifier::NotGivingMate(s) => {
                drop.not_giving_mate = true;
                drop_only.push(*s);
                (None, *s)
            }
            ast::Modifier::KindsNot { screens, kinds, span } => {
                let ids: Vec<KindId> = kinds.iter().filter_map(|k| cx.kind(k)).collect();
                if *screens {
                    screen_not = ids;
                } else {
                    target_not = ids;
                }
                (None, *span)
            }
            ast::Modifier::NotStuck(s) => {
                drop.not_stuck = true;
                drop_only.push(*s);
                (None, *s)
            }
            ast::Modifier::EitherSide(s) => {
                either_side = Some(*s);
                drop_only.push(*s);
                (None, *s)
            }
            ast::Modifier::NextToOwn(s) => {
                next_to_own = Some(*s);
                (None, *s)
            }
            ast::Modifier::Neighbours { flip, span } => {
                neighbours = Some((if *flip { Enclose::Flip } else { Enclose::Capture }, *span));
                (None, *span)
            }
            ast::Modifier::LeavingCopy(s) => {
                clone = Some(*s);
                (None, *s)
            }
            ast::Modifier::When(c, s) => {
                match c.as_ref() {
                    ast::Condition::Compare { .. } => {
                        // In a clause, the player moving is the one the comparison reads as `mover`.
                        let tallies = cx.tallies_for_forms.clone();
                        when = super::counts::compare(cx, c, &tallies).map(|c| match c {
                            Condition::Compare { count, whose, op, value } => Box::new(Condition::Compare {
                                count,
                                whose: if whose == Whom::Mover { Whom::ToMove } else { whose },
                                op,
                                value,
                            }),
                            other => Box::new(other),
                        })
                    }
                    _ => {
                        cx.error(
                            codes::CONTRADICTION,
                            *s,
                            "`when` takes a count's comparison, like `when pieces of mover is 3`",
                        )
                        .label = "not a comparison".into();
                    }
                }
                (None, *s)
            }
            ast::Modifier::CapturingAtOnce(s) => {
                capturing = Some(*s);
                at_once = Some(*s);
                (None, *s)
            }
            ast::Modifier::AgainAtWill(s) => {
                at_will = Some(*s);
                (None, *s)
            }
            ast::Modifier::NeverBack(s) => {
                never_back = Some(*s);
                (None, *s)
            }
            ast::Modifier::Counted(s) => {
                counted = Some(*s);
                (None, *s)
            }
            ast::Modifier::OverOwn(s) => {
                over_own = Some(*s);
                (None, *s)
            }
            ast::Modifier::During(names, s) => {
                during = Some(cx.phase_mask(names).0);
                (None, *s)
            }
        };
        if let Some(t) = t {
            if let Some((_, first)) = target {
                let d = Diagnostic::error(codes::CONTRADICTION, span, "a move form has one target, but two are given")
                    .label("second target")
                    .with(first, "first target");
                cx.diags.push(d);
            }
            target = Some((t, span));
        }
    }
    let placing = matches!(primitive, Primitive::Place | Primitive::Drop);
    let dropping = primitive == Primitive::Drop;
    let jumping = matches!(primitive, Primitive::Jump { .. });
    let far_jump = matches!(primitive, Primitive::Jump { far: true, .. });
    if placing || jumping {
        let what = if dropping {
            "a dropped piece"
        } else if jumping {
            "a jump"
        } else {
            "a placed piece"
        };
        // A drop along a track may enter as a moving piece lands: `to empty or enemy`.
        let hitting = dropping && by_roll.is_some() && target.is_some_and(|(t, _)| t == Target::Any);
        if let Some((t, span)) = target
            && t != Target::Empty
            && !hitting
        {
            let help = if dropping && t == Target::Any {
                " (only a drop along a track, by the roll or at its start, may enter `to empty or enemy`)"
            } else {
                ""
            };
            cx.error(codes::CONTRADICTION, span, format!("{what} can only land on an empty square{help}"))
                .label = "not empty".into();
        }
    }
    if placing && (from.is_some() || unmoved || marks.is_some()) {
        let whence = if dropping { "the hand" } else { "the supply" };
        cx.error(
            codes::CONTRADICTION,
            f.span,
            format!("this piece comes from {whence}: `from`, `unmoved` and `marks` do not apply"),
        )
        .label = "placement".into();
    }
    if let Some(span) = capturing
        && !jumping
    {
        let help = if placing {
            "a placed piece passes over nothing; to take the pieces it encloses between two of yours write `capturing enclosed along DIRS`"
        } else {
            "a move already takes an enemy on the square it lands on; for pieces enclosed between two of yours write `capturing enclosed along DIRS`"
        };
        let d = Diagnostic::error(
            codes::CONTRADICTION,
            span,
            "`capturing` removes the piece a jump passes over, and this clause does not jump",
        )
        .label("not a jump")
        .help(help);
        cx.diags.push(d);
    }
    if let (
        Some(span),
        ast::Primitive::Jump {
            over: Some((ast::JumpOver::Own, over)),
            ..
        },
    ) = (capturing, &f.primitive)
    {
        let d = Diagnostic::error(
            codes::CONTRADICTION,
            span,
            "this jump passes over own pieces only, so `capturing` would remove the mover's own piece",
        )
        .label("captures an own piece")
        .with(*over, "over own pieces")
        .help("capture what is jumped with `over enemy, capturing`, or leave `capturing` out");
        cx.diags.push(d);
    }
    if let Some(span) = continuing
        && (!jumping || capturing.is_none())
    {
        cx.error(
            codes::CONTRADICTION,
            span,
            "only a capturing jump can continue: `jump DIRS over enemy, capturing, continuing`",
        )
        .label = "nothing to continue".into();
    }
    if let Some((_, span)) = falling
        && !placing
    {
        cx.error(codes::CONTRADICTION, span, "only a placed or dropped piece can fall")
            .label = "this piece moves".into();
    }
    if let Some((what, span)) = only_if
        && enclose.as_ref().is_none_or(|e| e.0 != what)
    {
        let (verb, modifier) = match what {
            Enclose::Flip => ("flips", "flipping enclosed along DIRS"),
            Enclose::Capture => ("captures", "capturing enclosed along DIRS"),
        };
        cx.error(
            codes::CONTRADICTION,
            span,
            format!("`only if it {verb}` needs the clause to say what it {verb}: add `{modifier}`"),
        )
        .label = "no such effect".into();
    }
    if let Some(span) = bear_off
        && !matches!(primitive, Primitive::Run { .. })
    {
        cx.error(
            codes::CONTRADICTION,
            span,
            "`bearing off` takes a piece past the end of its track, and this clause does not move along one",
        )
        .label = "no track".into();
    }
    if let Some(span) = overshoot
        && bear_off.is_none()
    {
        cx.error(
            codes::CONTRADICTION,
            span,
            "`overshooting from the rearmost` says which numbers bear a piece off, and this clause does not bear off",
        )
        .label = "no `bearing off`".into();
    }
    if !dropping {
        for span in &drop_only {
            cx.error(
                codes::CONTRADICTION,
                *span,
                "this restriction is about drops, and this clause is not a `drop`",
            )
            .label = "not a drop".into();
        }
    }
    if let Some(span) = at_will
        && (!jumping || capturing.is_some() || continuing.is_some() || far_jump)
    {
        cx.error(
            codes::CONTRADICTION,
            span,
            "only a jump over an adjacent piece that captures nothing can go on at will: `jump DIRS over any, again at will`",
        )
        .label = "cannot chain this way".into();
    }
    if let Some(span) = never_back
        && continuing.is_none()
    {
        cx.error(
            codes::CONTRADICTION,
            span,
            "`never turning back` is about the legs of a continuing jump, and this clause does not continue",
        )
        .label = "one leg only".into();
    }
    if let Some(span) = against_span
        && enclose.is_none()
    {
        cx.error(
            codes::CONTRADICTION,
            span,
            "`or against ZONE` closes an enclosed run, and this clause encloses nothing: add `capturing enclosed along DIRS`",
        )
        .label = "no enclosure".into();
    }
    if let Some(span) = next_to_own
        && !placing
    {
        cx.error(
            codes::CONTRADICTION,
            span,
            "`next to own` is said of a placement or a drop, and this piece moves",
        )
        .label = "not a placement".into();
    }
    if let Some(span) = clone
        && (placing || jumping)
    {
        cx.error(
            codes::CONTRADICTION,
            span,
            "`leaving a copy` is said of a piece that moves (it stays and a copy lands), and this clause does not move a piece",
        )
        .label = "nothing to copy".into();
    }
    let plain_slide = matches!(primitive, Primitive::Slide { max: None, .. });
    for (span, what) in [(counted, "`as many squares as pieces on its line`"), (over_own, "`over own`")] {
        if let Some(span) = span
            && !plain_slide
        {
            cx.error(
                codes::CONTRADICTION,
                span,
                format!("{what} is said of a slide without `up to`, and this clause is not one"),
            )
            .label = "not a slide".into();
        }
    }
    if let (Some(span), None) = (over_own, counted) {
        cx.error(
            codes::CONTRADICTION,
            span,
            "`over own` lets a slide pass its own pieces, which only a slide of a set length can do: add `as many squares as pieces on its line`",
        )
        .label = "a free slide stops at the first piece".into();
    }
    let target = if dropping && by_roll.is_some() && target.is_some_and(|(t, _)| t == Target::Any) {
        Target::Any
    } else if placing || jumping {
        Target::Empty
    } else {
        target.map_or(Target::Any, |t| t.0)
    };
    if let Some(span) = marks {
        let ok = matches!(&primitive, Primitive::Step { distance, .. } if *distance >= 2) || matches!(&primitive, Primitive::Slide { .. });
        if !ok {
            cx.error(
                codes::CONTRADICTION,
                span,
                "only a move that passes over squares can mark them for en passant",
            )
            .help
            .push("use it on a `step DIRECTION 2` or a slide".into());
        }
    }
    if target == Target::EnPassant && !matches!(primitive, Primitive::Step { distance: 1, .. } | Primitive::Leap { .. }) {
        cx.error(
            codes::CONTRADICTION,
            f.span,
            "an en-passant capture must be a single step or a leap",
        )
        .label = "not a single step".into();
    }
    Some(Form {
        primitive,
        target,
        from,
        within,
        unmoved,
        marks_en_passant: marks.is_some(),
        capturing: capturing.is_some(),
        continuing: continuing.is_some(),
        capture_at_once: at_once.is_some(),
        no_reverse: never_back.is_some(),
        chain: at_will.is_some(),
        falling: falling.map(|f| f.0),
        enclose: enclose.map(|(e, d, _)| (e, d)),
        only_if: only_if.map(|o| o.0),
        drop,
        counted: counted.is_some(),
        over_own: over_own.is_some(),
        enclose_exact,
        enclose_against,
        next_to_own: next_to_own.is_some(),
        neighbours: neighbours.map(|n| n.0),
        clone: clone.is_some(),
        either_side: either_side.is_some(),
        when,
        during,
        screen_not,
        target_not,
        by_roll,
        bear_off: bear_off.is_some(),
        bear_home,
        overshoot: overshoot.is_some(),
        at_start,
        on_roll,
        cite: cite(&f.cite),
        text: super::as_written(cx.src.slice(f.span)),
    })
}

/// The eight (or four) orientations of a leap, each with its block point turned the same way.
/// A clause every move of which an earlier clause of the same piece gives already, with the same
/// effects and under the same conditions, adds nothing (the engine gives each move once): said,
/// since it is most often a line written twice or a slip in a direction.
fn redundant_clauses(cx: &mut Cx, forms: &[(Span, Form)]) {
    let span = cx.board_span();
    for (i, (at, f)) in forms.iter().enumerate() {
        let Some(mine) = f.offsets(span) else { continue };
        if mine.is_empty() {
            continue;
        }
        let covered_by = forms[..i].iter().find(|(_, g)| {
            g.same_effects(f)
                && (g.target == f.target || g.target == Target::Any)
                && (&g.from, &g.within, g.unmoved, &g.when, g.during) == (&f.from, &f.within, f.unmoved, &f.when, f.during)
                // (A move along a track lands wherever the roll takes it: it covers no clause.)
                && !matches!(g.primitive, Primitive::Run { .. })
                && g.offsets(span).is_none_or(|theirs| mine.iter().all(|o| theirs.contains(o)))
        });
        let alike = forms[..i].iter().find(|(_, g)| {
            !g.same_effects(f)
                && g.may_overlap(f, span)
                && (&g.from, &g.within, g.unmoved, &g.when, g.during) == (&f.from, &f.within, f.unmoved, &f.when, f.during)
        });
        if let Some((earlier, _)) = alike {
            let d = Diagnostic::warning(
                codes::REDUNDANT,
                *at,
                "this clause and an earlier one give moves between the same squares that do different things: both are written alike, and neither can be named",
            )
            .label("written like the other's moves")
            .with(*earlier, "gives moves between the same squares")
            .help("make them meet nowhere (other directions, distances or targets), or make the difference a part of the turn");
            cx.diags.push(d);
        }
        if let Some((earlier, _)) = covered_by {
            let d = Diagnostic::warning(
                codes::REDUNDANT,
                *at,
                "every move this clause gives, an earlier clause gives already",
            )
            .label("adds no move")
            .with(*earlier, "gives them all")
            .help("remove it, or change its directions, distance or target");
            cx.diags.push(d);
        }
    }
}

fn leap_offsets(a: i32, b: i32, block: Vec<(i32, i32)>) -> Vec<((i32, i32), Vec<(i32, i32)>)> {
    let mut v: Vec<((i32, i32), Vec<(i32, i32)>)> = Vec::new();
    let swapped: Vec<(i32, i32)> = block.iter().map(|&(c, d)| (d, c)).collect();
    for (x, y, bl) in [(a, b, &block), (b, a, &swapped)] {
        for sx in [1, -1] {
            for sy in [1, -1] {
                let o = (x * sx, y * sy);
                let blk: Vec<(i32, i32)> = bl.iter().map(|(c, d)| (c * sx, d * sy)).collect();
                if !v.iter().any(|(e, _)| *e == o) {
                    v.push((o, blk));
                }
            }
        }
    }
    v
}

fn castle(cx: &mut Cx, p: &ast::PieceDecl, c: &ast::Castle) -> Option<Castle> {
    let partner = cx.kind(&c.partner)?;
    if c.partner.name == p.name.name {
        cx.error(codes::CONTRADICTION, c.partner.span, "a piece cannot castle with its own kind");
    }
    let side = cx.board.as_ref().map_or(MAX_BOARD_SIDE, |b| b.width) as i64;
    let (n, span) = c.distance;
    // The piece crosses at least one square (where its partner lands) and stops short of its
    // partner, which stands at the latest on the last file.
    if n < 2 || n > side - 2 {
        let shown = cx.src.shown(span);
        // A board under 4 files wide leaves no distance at all: say so, not "between 2 and 2".
        let message = if side < 4 {
            format!("no castling distance fits a board {side} files wide: castling needs at least 4 files")
        } else {
            format!("castling distance must be between 2 and {}, not {shown}", side - 2)
        };
        let d = Diagnostic::error(codes::BOUND, span, message)
            .label("out of range")
            .help("the piece must cross the square its partner lands on, and stop short of the partner");
        cx.diags.push(d);
        return None;
    }
    let mut out = Castle {
        partner,
        distance: n as u32,
        cite: cite(&c.cite),
        unmoved: None,
        partner_unmoved: None,
        empty_between: None,
        not_in_check: None,
        path_safe: None,
    };
    for cond in &c.conditions {
        let slot = match cond.kind {
            ast::CastleCondKind::Unmoved => &mut out.unmoved,
            ast::CastleCondKind::PartnerUnmoved => &mut out.partner_unmoved,
            ast::CastleCondKind::EmptyBetween => &mut out.empty_between,
            ast::CastleCondKind::NotInCheck => &mut out.not_in_check,
            ast::CastleCondKind::PathSafe => &mut out.path_safe,
        };
        if slot.is_some() {
            cx.diags
                .push(Diagnostic::warning(codes::REDUNDANT, cond.span, "this condition is stated twice"));
        }
        *slot = Some(cite(&cond.cite).or_else(|| cite(&c.cite)));
    }
    if out.unmoved.is_none() || out.partner_unmoved.is_none() {
        // Points at `castle with Rook moving 2`, not at the whole block.
        let header = Span {
            end: c.distance.1.end,
            ..c.span
        };
        cx.diags.push(
            Diagnostic::warning(
                codes::REDUNDANT,
                header,
                "castling without `unmoved` and `partner unmoved` can be repeated forever",
            )
            .label("castling declared here")
            .help("FEN records castling rights only for unmoved pieces; add both conditions"),
        );
    }
    Some(out)
}
