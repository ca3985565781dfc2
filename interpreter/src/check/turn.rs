//! The `turn` item: the later parts of every turn (place a piece, remove an enemy piece, drop a
//! piece from the hand onto a square the move left), each with its condition and options.

use super::{Cx, board, cite};
use crate::diag::{Diagnostic, Span, codes};
use crate::game::MAX_PARTS;
use crate::model::*;
use crate::syntax::ast;

/// The later parts of the turn, from the last `turn` item (an extending ruleset's replaces its
/// base's).
pub(super) fn resolve_turn(cx: &mut Cx, items: &[ast::Item], kinds: &[Kind]) -> Vec<Part> {
    let decls: Vec<&ast::TurnDecl> = items
        .iter()
        .filter_map(|i| if let ast::Item::Turn(t) = i { Some(t) } else { None })
        .collect();
    if let [.., first, second] = decls.as_slice() {
        cx.diags.push(
            Diagnostic::warning(codes::REDUNDANT, second.span, "a second `turn` replaces the first")
                .label("this one counts")
                .with(first.span, "replaced"),
        );
    }
    let Some(decl) = decls.last() else {
        return Vec::new();
    };
    if decl.parts.len() > MAX_PARTS {
        cx.error(
            codes::BOUND,
            decl.parts[MAX_PARTS].span,
            format!(
                "a turn has at most {MAX_PARTS} parts after its move, and this one has {}",
                decl.parts.len()
            ),
        )
        .label = "one part too many".into();
        return Vec::new();
    }
    if decl.parts.is_empty() {
        cx.diags.push(
            Diagnostic::warning(
                codes::REDUNDANT,
                decl.span,
                "this turn is only a move, as every turn is without a `turn` item",
            )
            .label("no later part")
            .help("add a part: `then place KIND on empty`, `then remove enemy`, `then drop KIND on the square it left`"),
        );
    }
    decl.parts.iter().filter_map(|p| part(cx, p, kinds)).collect()
}

fn part(cx: &mut Cx, p: &ast::TurnPart, kinds: &[Kind]) -> Option<Part> {
    let action = match &p.action {
        ast::PartAction::Place(k, _) => PartAction::Place {
            kind: cx.kind(k)?,
            moving: false,
        },
        ast::PartAction::Remove(_) => PartAction::Remove { row_safe: None },
        ast::PartAction::Gate(ks, _) => {
            let ids: Vec<KindId> = ks.iter().filter_map(|k| cx.kind(k)).collect();
            if ids.len() != ks.len() {
                return None;
            }
            for (k, id) in ks.iter().zip(&ids) {
                if kinds[id.0 as usize].neutral {
                    cx.error(
                        codes::CONTRADICTION,
                        k.span,
                        format!("`{}` is neutral, and a hand holds only a player's own pieces", k.name),
                    )
                    .label = "neutral".into();
                }
            }
            PartAction::Gate {
                kinds: ids,
                unmoved: false,
            }
        }
    };
    let mut action = action;
    let mut within = None;
    let mut along = None;
    let not_for = |cx: &mut Cx, span: Span, what: &str, needs: &str| {
        cx.error(codes::CONTRADICTION, span, format!("{what} is for {needs}, and this part is not"))
            .label = "does not apply".into();
    };
    for o in &p.options {
        match o {
            ast::PartOption::Moving(span) => match &mut action {
                PartAction::Place { kind, moving } if kinds[kind.0 as usize].neutral => *moving = true,
                PartAction::Place { kind, .. } => {
                    let name = kinds[kind.0 as usize].name.clone();
                    cx.error(
                        codes::CONTRADICTION,
                        *span,
                        format!("`moving it` moves the one {name} on the board, and `{name}` is not neutral: each player may have many"),
                    )
                    .help
                    .push(format!("declare it `piece {name} \"*\" neutral {{ }}`, or leave `moving it` out"));
                }
                _ => not_for(cx, *span, "`moving it`", "a placed piece (`then place KIND on empty, moving it`)"),
            },
            ast::PartOption::Within(z) => within = board::zone_by_side(cx, z),
            ast::PartOption::Unmoved(span) => match &mut action {
                PartAction::Gate { unmoved, .. } => *unmoved = true,
                _ => not_for(cx, *span, "`if it had not moved`", "a drop on the square the move left"),
            },
            ast::PartOption::RowSafe { n, dirs, span } => {
                let side = cx.board.as_ref().map_or(MAX_BOARD_SIDE, |b| b.width.max(b.height)) as i64;
                let n = cx.count(n, "a row's length", 2, side);
                let d = board::dirs(cx, dirs);
                match &mut action {
                    PartAction::Remove { row_safe } => *row_safe = n.map(|n| (n as u32, d)),
                    _ => not_for(cx, *span, "`not in a row … unless all are`", "a removal (`then remove enemy`)"),
                }
            }
            ast::PartOption::Along(dirs, span) => {
                let d = board::dirs(cx, dirs);
                match action {
                    PartAction::Place { .. } => along = Some(d),
                    _ => not_for(cx, *span, "`along DIRS from where it landed`", "a placed piece"),
                }
            }
        }
    }
    let condition = match &p.condition {
        None => None,
        Some(ast::PartCondition::Captured(_)) => Some(PartCondition::Captured),
        Some(ast::PartCondition::MadeRow { n, dirs, .. }) => {
            let side = cx.board.as_ref().map_or(MAX_BOARD_SIDE, |b| b.width.max(b.height)) as i64;
            let n = cx.count(n, "a row's length", 2, side)? as u32;
            Some(PartCondition::MadeRow {
                n,
                dirs: board::dirs(cx, dirs),
            })
        }
    };
    // A part whose squares are none for a player can never be chosen.
    if let Some(z) = &within
        && let Some(empty) = z.0.iter().position(|s| s.is_empty())
    {
        let who = cx.player_names.get(empty).cloned().unwrap_or_else(|| "a player".into());
        let span = p
            .options
            .iter()
            .find_map(|o| if let ast::PartOption::Within(z) = o { Some(z.span) } else { None })
            .unwrap_or(p.span);
        cx.error(
            codes::CONTRADICTION,
            span,
            format!("this part can never be chosen: its zone has no square for {who}"),
        )
        .label = "an empty zone".into();
    }
    // A drop from the hand that every turn must make leaves no turn once the hand is empty.
    if p.optional.is_none()
        && let PartAction::Gate { kinds: gated, .. } = &action
    {
        let names: Vec<String> = gated.iter().map(|k| format!("`{}`", kinds[k.0 as usize].name)).collect();
        cx.diags.push(
            Diagnostic::warning(
                codes::REDUNDANT,
                p.span,
                format!(
                    "every turn must make this drop: once the mover's hand holds no {}, or the square left may not take one, no turn can be completed",
                    names.join(" or ")
                ),
            )
            .label("compulsory")
            .help("gating is the mover's choice in the games that have it: write `then may drop …`"),
        );
    }
    Some(Part {
        action,
        optional: p.optional.is_some(),
        condition,
        within,
        along,
        cite: cite(&p.cite),
        text: super::as_written(cx.src.slice(p.span)),
    })
}
