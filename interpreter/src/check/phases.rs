//! `phase` items: the stages a game passes through in order (placing, then moving), each ended by
//! a condition checked after every turn; movement clauses marked `during PHASE` apply only then.

use super::{Cx, cite};
use crate::diag::{Diagnostic, Span, codes};
use crate::model::*;
use crate::syntax::ast;

fn decls(items: &[ast::Item]) -> Vec<&ast::PhaseDecl> {
    items
        .iter()
        .filter_map(|i| if let ast::Item::Phase(p) = i { Some(p) } else { None })
        .collect()
}

/// Records the phases' names (before the pieces, whose clauses name them), reporting duplicates
/// and the bound.
pub(super) fn declare(cx: &mut Cx, items: &[ast::Item]) {
    let mut spans: Vec<Span> = Vec::new();
    for p in decls(items) {
        if let Some(i) = cx.phases.iter().position(|n| *n == p.name.name) {
            let d = Diagnostic::error(codes::DUPLICATE, p.name.span, format!("phase `{}` is defined twice", p.name.name))
                .label("defined again here")
                .with(spans[i], "first defined here");
            cx.diags.push(d);
            continue;
        }
        if cx.phases.len() == MAX_PHASES {
            cx.error(
                codes::BOUND,
                p.name.span,
                format!("a ruleset may declare at most {MAX_PHASES} phases"),
            )
            .label = "one too many".into();
            continue;
        }
        cx.phases.push(p.name.name.clone());
        spans.push(p.name.span);
    }
}

/// The phases, with what ends each. Every phase but the last must end; the last must not (the
/// game stays in it); a phase in which no clause applies is reported.
impl Cx<'_> {
    /// The phases `names` name, a bit each (marking them used), and whether all are known (each
    /// unknown one is reported).
    pub(super) fn phase_mask(&mut self, names: &[ast::Ident]) -> (u32, bool) {
        let mut mask = 0u32;
        let mut known_all = true;
        for n in names {
            match self.phases.iter().position(|p| *p == n.name) {
                Some(i) => {
                    mask |= 1 << i;
                    self.used.insert(format!("phase {}", n.name));
                }
                None => {
                    let known = self.phases.clone();
                    self.unknown(&n.name, n.span, "phase", known.iter().map(String::as_str));
                    known_all = false;
                }
            }
        }
        (mask, known_all)
    }
}

pub(super) fn resolve(cx: &mut Cx, items: &[ast::Item], kinds: &[Kind], has_check: bool, has_pass: bool, counts: &[Tally]) -> Vec<Phase> {
    let decls: Vec<&ast::PhaseDecl> = decls(items).into_iter().take(MAX_PHASES).collect();
    let mut out = Vec::new();
    let mut seen: Vec<&str> = Vec::new();
    for (i, p) in decls.iter().enumerate() {
        if seen.contains(&p.name.name.as_str()) {
            continue;
        }
        seen.push(&p.name.name);
        let last = i + 1 == decls.len();
        let until = match &p.until {
            None if !last => {
                let next = &decls[i + 1].name.name;
                cx.error(
                    codes::CONTRADICTION,
                    p.name.span,
                    format!("phase `{}` never ends, so phase `{next}` after it never comes", p.name.name),
                )
                .help
                .push("say what ends it: `until each hand is empty`, or `until` and conditions as in an end rule".into());
                None
            }
            None => None,
            Some(end) => {
                if last {
                    let span = match end {
                        ast::PhaseEnd::HandsEmpty(s) => *s,
                        ast::PhaseEnd::Conditions(_) => p.span,
                    };
                    cx.diags.push(
                        Diagnostic::warning(
                            codes::REDUNDANT,
                            span,
                            format!(
                                "`{}` is the last phase: the game stays in it, so what ends it changes nothing",
                                p.name.name
                            ),
                        )
                        .label("no phase comes after"),
                    );
                }
                match end {
                    ast::PhaseEnd::HandsEmpty(at) => {
                        // Hands empty only by drops (a drop clause, or a turn's drop on the square
                        // a move left).
                        let drops = kinds.iter().any(|k| k.forms.iter().any(|f| matches!(f.primitive, Primitive::Drop)))
                            || items.iter().any(|i| matches!(i, ast::Item::Turn(t) if t.parts.iter().any(|p| matches!(p.action, ast::PartAction::Gate(..)))));
                        if !drops && !last {
                            cx.diags.push(
                                Diagnostic::warning(
                                    codes::REDUNDANT,
                                    *at,
                                    format!(
                                        "nothing in this ruleset is dropped, so the hands never change: phase `{}` is over before it starts if they are empty, and never ends if not",
                                        p.name.name
                                    ),
                                )
                                .label("hands never emptied")
                                .help("give the pieces in hand a `drop` clause (`drop, during PHASE`)"),
                            );
                        }
                        Some(PhaseEnd::HandsEmpty)
                    }
                    ast::PhaseEnd::Conditions(cs) => {
                        let mut out = Vec::new();
                        for c in cs {
                            let r = match c {
                                ast::Condition::Compare { .. } => super::counts::compare(cx, c, counts),
                                _ => super::ends::condition(cx, c, kinds, has_check, has_pass),
                            };
                            out.extend(r);
                        }
                        // A FEN has no phase field: reading one, the phase is worked out from
                        // what ends each phase, which must then be seen in the position.
                        if !last
                            && let Some(what) = out.iter().find_map(|c| match c {
                                Condition::Captured(_) => Some("what the last move captured"),
                                Condition::Passes(_) => Some("the passes just played"),
                                Condition::Repetition(_) => Some("positions before this one"),
                                _ => None,
                            })
                        {
                            cx.diags.push(
                                Diagnostic::warning(
                                    codes::REDUNDANT,
                                    p.span,
                                    format!(
                                        "phase `{}` ends on {what}, which a FEN does not carry: a position read from FEN is put back in this phase",
                                        p.name.name
                                    ),
                                )
                                .label("not seen in the position")
                                .help("end the phase on something the position shows: hands, counts or pieces (`until captures of mover >= 1` with `count captures = 0, plus 1 for each capture`)"),
                            );
                        }
                        Some(PhaseEnd::Conditions(out))
                    }
                }
            }
        };
        // Which clauses apply in this phase: those marked for it, and those unmarked.
        let applies = kinds
            .iter()
            .any(|k| !k.castles.is_empty() || k.forms.iter().any(|f| f.during.is_none_or(|m| m >> i & 1 == 1)));
        if !applies {
            cx.diags.push(
                Diagnostic::warning(
                    codes::REDUNDANT,
                    p.name.span,
                    format!("no clause applies during phase `{}`", p.name.name),
                )
                .label("no moves in this phase")
                .help(format!("mark the clauses that apply then with `during {}`", p.name.name)),
            );
        }
        out.push(Phase {
            name: p.name.name.clone(),
            until,
            cite: cite(&p.cite),
        });
    }
    out
}
