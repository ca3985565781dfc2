//! The `chase` block: what the end condition `one side chasing throughout` counts as a chase,
//! resolved to kinds and zones. Reports every problem and never panics.

use super::{Cx, board, cite};
use crate::diag::{Diagnostic, codes};
use crate::model::*;
use crate::syntax::ast;

/// The ruleset's `chase` block, if it has one (a later block replaces an earlier one, so that a
/// ruleset extending another can restate it). `has_check`: royals may not be left attacked.
pub(super) fn resolve_chase(cx: &mut Cx, items: &[ast::Item], has_check: bool) -> Option<ChaseRule> {
    let mut out = None;
    for it in items {
        let ast::Item::Chase(decl) = it else { continue };
        let mut rule = ChaseRule {
            never: Vec::new(),
            never_by: Vec::new(),
            even_protected: Vec::new(),
            exchanges_allowed: false,
            checks_count: false,
            cite: cite(&decl.cite),
        };
        let kinds = |cx: &mut Cx, ids: &[ast::Ident]| -> Vec<KindId> { ids.iter().filter_map(|id| cx.kind(id)).collect() };
        for c in &decl.clauses {
            match c {
                ast::ChaseClause::Never(ids, zone, _) => {
                    let ks = kinds(cx, ids);
                    let z = zone.as_ref().and_then(|z| board::zone_by_side(cx, z));
                    rule.never.extend(ks.into_iter().map(|k| (k, z.clone())));
                }
                ast::ChaseClause::NeverBy(ids, _) => rule.never_by.extend(kinds(cx, ids)),
                ast::ChaseClause::EvenProtected(victims, attackers, _) => {
                    let v = kinds(cx, victims);
                    let a = kinds(cx, attackers);
                    rule.even_protected.push((v, a));
                }
                ast::ChaseClause::NotAnExchange(_) => rule.exchanges_allowed = true,
                ast::ChaseClause::ChecksCount(span) => {
                    if !has_check {
                        cx.error(
                            codes::CONTRADICTION,
                            *span,
                            "`checks count` needs royal pieces that may not be left attacked",
                        )
                        .label = "no check can happen".into();
                    }
                    rule.checks_count = true;
                }
            }
        }
        out = Some((rule, decl.span));
    }
    let (rule, span) = out?;
    // A block no end rule asks about is said so, like an unused zone.
    let asked = items.iter().any(|it| {
        matches!(it, ast::Item::End(rules) if rules.iter().any(|r| r.conditions.iter().any(|c| matches!(c, ast::Condition::ChasingThroughout(_)))))
    });
    if !asked {
        cx.diags.push(
            Diagnostic::warning(
                codes::UNUSED,
                span,
                "`chase` is defined, but no end rule asks for `one side chasing throughout`",
            )
            .label("never used"),
        );
    }
    Some(rule)
}
