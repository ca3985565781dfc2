//! `count` items: numbers each player has, kept in the position and changed by what the player
//! does (checks given, pieces captured, turns made); and what a comparison of a count with a number
//! can ever see.

use super::{Cx, cite};
use crate::diag::{Diagnostic, Span, codes};
use crate::model::*;
use crate::syntax::ast;

/// The declared counts, in order (an index into the list is a count's id).
pub(super) fn resolve_counts(cx: &mut Cx, items: &[ast::Item], has_check: bool) -> Vec<Tally> {
    let mut out: Vec<Tally> = Vec::new();
    let mut spans: Vec<Span> = Vec::new();
    for it in items {
        let ast::Item::Count(c) = it else { continue };
        if let Some(i) = out.iter().position(|t| t.name == c.name.name) {
            let d = Diagnostic::error(codes::DUPLICATE, c.name.span, format!("count `{}` is defined twice", c.name.name))
                .label("defined again here")
                .with(spans[i], "first defined here");
            cx.diags.push(d);
            continue;
        }
        if out.len() == MAX_TALLIES {
            cx.error(
                codes::BOUND,
                c.name.span,
                format!("a ruleset may declare at most {MAX_TALLIES} counts"),
            )
            .label = "one too many".into();
            continue;
        }
        let Some(start) = cx.count(&c.start, "a count's start", TALLY_MIN, TALLY_MAX) else {
            continue;
        };
        let mut changes = Vec::new();
        for (amount, event, span) in &c.changes {
            if amount.unsigned_abs() > TALLY_MAX as u64 || *amount == 0 {
                cx.error(codes::BOUND, *span, format!("a count changes by 1 to {TALLY_MAX} at a time"))
                    .label = "out of range".into();
                continue;
            }
            let event = match event {
                ast::CountEvent::CheckGiven => {
                    if !has_check {
                        cx.error(
                            codes::CONTRADICTION,
                            *span,
                            "this count is never changed: nothing is ever in check in this ruleset",
                        )
                        .help
                        .push("checks need a `royal` piece and `forbid royal attacked`".into());
                        continue;
                    }
                    TallyEvent::CheckGiven
                }
                ast::CountEvent::Capture => TallyEvent::Captured(None),
                ast::CountEvent::KindCaptured(k) => match cx.kind(k) {
                    Some(id) => TallyEvent::Captured(Some(id)),
                    None => continue,
                },
                ast::CountEvent::Turn => TallyEvent::Turn,
                ast::CountEvent::BorneOff => TallyEvent::BorneOff,
            };
            changes.push((*amount, event));
        }
        if c.changes.is_empty() {
            cx.diags.push(
                Diagnostic::warning(
                    codes::REDUNDANT,
                    c.name.span,
                    format!("count `{}` never changes: it stays {start}", c.name.name),
                )
                .label("never changed")
                .help("say what changes it: `, plus 1 for each capture` (or `check given`, `KIND captured`, `turn`; `less` counts down)"),
            );
        }
        spans.push(c.name.span);
        out.push(Tally {
            name: c.name.name.clone(),
            start,
            changes,
            cite: cite(&c.cite),
        });
    }
    out
}

/// Whose count or pieces a condition reads; an unknown player's name is reported.
pub(super) fn whom(cx: &mut Cx, w: &ast::Whom) -> Option<Whom> {
    Some(match w {
        ast::Whom::Mover => Whom::Mover,
        ast::Whom::ToMove => Whom::ToMove,
        ast::Whom::Player(id) => match cx.player_names.iter().position(|n| *n == id.name) {
            Some(i) => Whom::Player(Side(i as u8)),
            None => {
                let names = cx.player_names.clone();
                cx.unknown(&id.name, id.span, "player", names.iter().map(String::as_str));
                return None;
            }
        },
    })
}

/// The values a count can ever take: from its start, only up where every change adds, only down
/// where every change takes away.
pub(super) fn range(t: &Tally) -> (i64, i64) {
    let up = t.changes.iter().any(|c| c.0 > 0);
    let down = t.changes.iter().any(|c| c.0 < 0);
    (if down { TALLY_MIN } else { t.start }, if up { TALLY_MAX } else { t.start })
}

/// `COUNT [in ZONE] of WHOSE OP N`, resolved; a comparison no value in the count's range meets is
/// reported (it could never end the game).
pub(super) fn compare(cx: &mut Cx, c: &ast::Condition, tallies: &[Tally]) -> Option<Condition> {
    let ast::Condition::Compare {
        what,
        zone,
        whose,
        op,
        value,
        span,
    } = c
    else {
        return None;
    };
    let op = match op {
        ast::CmpOp::Eq => Cmp::Eq,
        ast::CmpOp::Ne => Cmp::Ne,
        ast::CmpOp::Ge => Cmp::Ge,
        ast::CmpOp::Le => Cmp::Le,
        ast::CmpOp::Gt => Cmp::Gt,
        ast::CmpOp::Lt => Cmp::Lt,
    };
    let value = cx.count(value, "a count's value", TALLY_MIN, TALLY_MAX)?;
    let whose = whom(cx, whose)?;
    let zone = match zone {
        Some(z) => Some(super::board::zone_by_side(cx, z)?),
        None => None,
    };
    // A player never has more pieces on the board than it has cells (in the zone, if one is named).
    let most_pieces = match (&zone, &cx.board) {
        (Some(z), _) => z[Side::FIRST].iter().count().max(z[Side::SECOND].iter().count()) as i64,
        (None, Some(b)) => (0..b.squares()).filter(|&q| b.has(q)).count() as i64,
        (None, None) => TALLY_MAX,
    };
    let pieces_never = |cx: &mut Cx, what: &str| {
        if !(0..=most_pieces).any(|v| op.holds(v, value)) {
            cx.diags.push(
                Diagnostic::warning(
                    codes::REDUNDANT,
                    *span,
                    format!("this can never hold: {what} on the board are between 0 and {most_pieces}"),
                )
                .label("never reached"),
            );
        }
    };
    let count = match what {
        None => {
            pieces_never(cx, "a player's pieces");
            CountOf::Pieces { kind: None, zone }
        }
        Some(id) => match tallies.iter().position(|t| t.name == id.name) {
            Some(i) => {
                cx.used.insert(format!("count {}", id.name));
                if zone.is_some() {
                    cx.error(
                        codes::CONTRADICTION,
                        id.span,
                        format!("`{}` is a count, not pieces on the board: `in ZONE` does not apply", id.name),
                    )
                    .label = "a declared count".into();
                    return None;
                }
                let (lo, hi) = range(&tallies[i]);
                if !(lo..=hi).any(|v| op.holds(v, value)) && !matches!(op, Cmp::Ne) {
                    cx.diags.push(
                        Diagnostic::warning(
                            codes::REDUNDANT,
                            *span,
                            if lo == hi {
                                format!("this can never hold: `{}` never changes from {}", id.name, tallies[i].start)
                            } else {
                                format!(
                                    "this can never hold: `{}` starts at {} and only ever {}",
                                    id.name,
                                    tallies[i].start,
                                    if hi > tallies[i].start { "grows" } else { "shrinks" }
                                )
                            },
                        )
                        .label("never reached"),
                    );
                }
                CountOf::Declared(i)
            }
            None if cx.kinds.contains_key(&id.name) => {
                pieces_never(cx, &format!("a player's {} pieces", id.name));
                CountOf::Pieces {
                    kind: Some(cx.kind(id)?),
                    zone,
                }
            }
            None => {
                let mut names: Vec<String> = tallies.iter().map(|t| t.name.clone()).collect();
                names.extend(cx.kind_names.iter().cloned());
                names.push("pieces".into());
                cx.unknown(&id.name, id.span, "count or piece", names.iter().map(String::as_str));
                return None;
            }
        },
    };
    Some(Condition::Compare { count, whose, op, value })
}
