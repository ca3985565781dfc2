//! End rules: how the game ends, in the order they are tried.

use super::{Cx, board, cite};
use crate::diag::{Diagnostic, codes};
use crate::model::*;
use crate::syntax::ast;

pub(super) fn resolve_ends(
    cx: &mut Cx,
    items: &[ast::Item],
    kinds: &[Kind],
    has_check: bool,
    has_pass: bool,
    has_chase: bool,
    tallies: &[Tally],
    points: &mut Vec<PointsTable>,
) -> Vec<EndRule> {
    let mut out = Vec::new();
    // By name, so many end rules cost no more than their number.
    let mut seen: std::collections::HashMap<String, crate::diag::Span> = std::collections::HashMap::new();
    for it in items {
        let ast::Item::End(rules) = it else { continue };
        for r in rules {
            if let Some(first) = seen.get(&r.label.name) {
                let d = Diagnostic::error(
                    codes::DUPLICATE,
                    r.label.span,
                    format!("end rule `{}` is defined twice", r.label.name),
                )
                .label("defined again here")
                .with(*first, "first defined here");
                cx.diags.push(d);
                continue;
            }
            seen.insert(r.label.name.clone(), r.label.span);
            let mut conditions = Vec::new();
            let mut ok = true;
            for c in &r.conditions {
                let resolved = match c {
                    ast::Condition::Compare { .. } => super::counts::compare(cx, c, tallies),
                    _ => condition(cx, c, kinds, has_check, has_pass),
                };
                match resolved {
                    Some(c) => conditions.push(c),
                    None => ok = false,
                }
            }
            let verdict = match r.verdict.0 {
                ast::Verdict::ToMoveLoses => Verdict::ToMoveLoses,
                ast::Verdict::ToMoveWins => Verdict::ToMoveWins,
                ast::Verdict::MoverLoses => Verdict::MoverLoses,
                ast::Verdict::MoverWins => Verdict::MoverWins,
                ast::Verdict::MoverFinishes => Verdict::MoverFinishes,
                ast::Verdict::MostPieces => Verdict::MostPieces,
                ast::Verdict::CheckerLoses => Verdict::CheckerLoses,
                ast::Verdict::ChaserLoses => Verdict::ChaserLoses,
                ast::Verdict::ClaimableDraw => Verdict::ClaimableDraw,
                ast::Verdict::Draw => Verdict::Draw,
                ast::Verdict::NoResult => Verdict::NoResult,
                ast::Verdict::Player(wins) => {
                    let Some(id) = &r.player else { continue };
                    match cx.player_names.iter().position(|n| *n == id.name) {
                        Some(i) => Verdict::Player { side: Side(i as u8), wins },
                        None => {
                            let names = cx.player_names.clone();
                            cx.unknown(&id.name, id.span, "player", names.iter().map(String::as_str));
                            continue;
                        }
                    }
                }
                ast::Verdict::Points => {
                    let Some(pv) = &r.points else { continue };
                    match points_table(cx, pv, kinds) {
                        Some(t) => {
                            points.push(t);
                            Verdict::Points(points.len() - 1)
                        }
                        None => continue,
                    }
                }
                ast::Verdict::ScoreByArea => {
                    let komi = match &r.komi {
                        None => 0.0,
                        Some(id) if cx.komi_override.as_ref().is_some_and(|(p, _)| *p == id.name) => {
                            cx.used.insert(format!("param {}", id.name));
                            cx.komi_override.as_ref().map_or(0.0, |(_, v)| *v)
                        }
                        Some(id) => {
                            cx.used.insert(format!("param {}", id.name));
                            match cx.params.get(&id.name).cloned() {
                                Some((super::Value::Number(n, _), _)) => n,
                                Some((super::Value::Word(w), _)) => {
                                    cx.error(
                                        codes::TYPE,
                                        id.span,
                                        format!("komi must be a number, but parameter `{}` is `{w}`", id.name),
                                    );
                                    0.0
                                }
                                None => {
                                    cx.unknown_param(id);
                                    0.0
                                }
                            }
                        }
                    };
                    Verdict::ScoreByArea { komi }
                }
            };
            let has_rep = conditions.iter().any(|c| matches!(c, Condition::Repetition(_)));
            let checking = r.conditions.iter().find_map(|c| match c {
                ast::Condition::CheckingThroughout(span) => Some(*span),
                _ => None,
            });
            if let Some(span) = checking.filter(|_| !has_rep && conditions.iter().any(|c| matches!(c, Condition::CheckingThroughout))) {
                cx.error(
                    codes::CONTRADICTION,
                    span,
                    "`one side checking throughout` needs a `repetition` condition to define the cycle",
                )
                .label = "no `repetition` in this rule".into();
                ok = false;
            }
            let chasing = r.conditions.iter().find_map(|c| match c {
                ast::Condition::ChasingThroughout(span) => Some(*span),
                _ => None,
            });
            if let Some(span) = chasing.filter(|_| !has_rep && conditions.iter().any(|c| matches!(c, Condition::ChasingThroughout))) {
                cx.error(
                    codes::CONTRADICTION,
                    span,
                    "`one side chasing throughout` needs a `repetition` condition to define the cycle",
                )
                .label = "no `repetition` in this rule".into();
                ok = false;
            }
            if let Some(span) = chasing.filter(|_| !has_chase) {
                cx.error(
                    codes::MISSING,
                    span,
                    "`one side chasing throughout` needs a `chase { ... }` block saying what a chase is",
                )
                .label = "no `chase` block in the ruleset".into();
                ok = false;
            }
            if verdict == Verdict::ChaserLoses && !conditions.iter().any(|c| matches!(c, Condition::ChasingThroughout)) {
                cx.error(
                    codes::CONTRADICTION,
                    r.verdict.1,
                    "`chasing side loses` needs the condition `one side chasing throughout`",
                )
                .label = "no chasing side defined".into();
                ok = false;
            }
            if verdict == Verdict::CheckerLoses && !conditions.iter().any(|c| matches!(c, Condition::CheckingThroughout)) {
                cx.error(
                    codes::CONTRADICTION,
                    r.verdict.1,
                    "`checking side loses` needs the condition `one side checking throughout`",
                )
                .label = "no checking side defined".into();
                ok = false;
            }
            if verdict == Verdict::ClaimableDraw && conditions.iter().any(|c| matches!(c, Condition::NoLegalMove)) {
                cx.error(
                    codes::CONTRADICTION,
                    r.verdict.1,
                    "a position without legal moves ends the game; it cannot be merely claimable",
                );
                ok = false;
            }
            if ok {
                out.push(EndRule {
                    reason: r.label.name.clone(),
                    conditions,
                    verdict,
                    cite: cite(&r.cite),
                });
            }
        }
    }
    out
}

/// `highest points wins, points KIND N, ..., plus N to PLAYER, a tie to PLAYER`.
fn points_table(cx: &mut Cx, pv: &ast::PointsVerdict, kinds: &[Kind]) -> Option<PointsTable> {
    let mut values = vec![0.0; kinds.len()];
    let mut ok = true;
    for (k, n, span) in &pv.values {
        if !n.is_finite() || n.abs() > 1e6 {
            cx.error(codes::BOUND, *span, "a kind's points must be a number between -1000000 and 1000000")
                .label = "out of range".into();
            ok = false;
            continue;
        }
        match cx.kind(k) {
            Some(id) => values[id.0 as usize] = *n,
            None => ok = false,
        }
    }
    let side = |cx: &mut Cx, id: &ast::Ident| -> Option<Side> {
        match cx.player_names.iter().position(|n| *n == id.name) {
            Some(i) => Some(Side(i as u8)),
            None => {
                let names = cx.player_names.clone();
                cx.unknown(&id.name, id.span, "player", names.iter().map(String::as_str));
                None
            }
        }
    };
    let bonus = match &pv.bonus {
        Some((n, id)) => Some((side(cx, id)?, if n.is_finite() { *n } else { 0.0 })),
        None => None,
    };
    let tie = match &pv.tie {
        Some(id) => Some(side(cx, id)?),
        None => None,
    };
    ok.then_some(PointsTable { values, bonus, tie })
}

pub(super) fn condition(cx: &mut Cx, c: &ast::Condition, kinds: &[Kind], has_check: bool, has_pass: bool) -> Option<Condition> {
    Some(match c {
        ast::Condition::NoLegalMove(_) => Condition::NoLegalMove,
        ast::Condition::InCheck(span) => {
            if !kinds.iter().any(|k| k.royal) {
                cx.error(
                    codes::CONTRADICTION,
                    *span,
                    "`in check` needs a royal piece, and no piece is `royal`",
                );
                return None;
            }
            if !has_check {
                cx.diags.push(
                    Diagnostic::warning(
                        codes::REDUNDANT,
                        *span,
                        "`in check` without `forbid royal attacked`: royals may be left attacked",
                    )
                    .label("here"),
                );
            }
            Condition::InCheck
        }
        ast::Condition::Repetition(n, _) => Condition::Repetition(cx.count(n, "a repetition count", 2, 100)? as u32),
        ast::Condition::Counter {
            moves,
            turns,
            resetting_kind,
            ..
        } => {
            // A move is one of each player's turns (two plies); a turn is one ply.
            let plies = if *turns {
                cx.count(moves, "a turn count", 1, 20_000)?
            } else {
                2 * cx.count(moves, "a move count", 1, 10_000)?
            };
            let k = match resetting_kind {
                Some(id) => Some(cx.kind(id)?),
                None => None,
            };
            Condition::Counter {
                plies: plies as u32,
                resetting_kind: k,
            }
        }
        ast::Condition::Material(pats, _) => {
            let mut out = Vec::new();
            for m in pats {
                let mut resolve = |v: &[(char, crate::diag::Span)]| -> Option<Vec<KindId>> {
                    let mut ids = Vec::new();
                    for (ch, span) in v {
                        match kinds.iter().position(|k| k.letter == *ch) {
                            Some(i) => ids.push(KindId(i as u8)),
                            None => {
                                let letters: Vec<String> = kinds.iter().map(|k| k.letter.to_string()).collect();
                                cx.unknown(&ch.to_string(), *span, "piece letter", letters.iter().map(|s| s.as_str()));
                                return None;
                            }
                        }
                    }
                    ids.sort();
                    Some(ids)
                };
                let a = resolve(&m.first)?;
                let b = resolve(&m.second)?;
                let same = match &m.same_colour {
                    Some(s) => Some(resolve(std::slice::from_ref(s))?[0]),
                    None => None,
                };
                if same.is_some() && cx.board.as_ref().is_some_and(|b| b.dark_parity.is_none()) {
                    cx.error(
                        codes::CONTRADICTION,
                        m.span,
                        "square colours are used, but the board is not `checkered`",
                    );
                }
                out.push(MaterialPattern { a, b, same_colour: same });
            }
            Condition::Material(out)
        }
        ast::Condition::NoneOf(ids, _) => {
            let mut v = Vec::new();
            for id in ids {
                v.push(cx.kind(id)?);
            }
            Condition::NoneOf(v)
        }
        ast::Condition::Passes(n, span) => {
            if !has_pass {
                cx.error(
                    codes::CONTRADICTION,
                    *span,
                    "this rule counts passes, but the ruleset does not `allow pass`",
                )
                .label = "passes never happen".into();
                return None;
            }
            Condition::Passes(cx.count(n, "a number of passes", 1, 10)? as u32)
        }
        ast::Condition::InARow { exact, n, dirs, span } => {
            let d = board::dirs(cx, dirs);
            let (w, h) = cx.board.as_ref().map_or((MAX_BOARD_SIDE, MAX_BOARD_SIDE), |b| (b.width, b.height));
            let n = cx.count(n, "the length of a row", 2, MAX_BOARD_SIDE as i64)? as u32;
            // The longest straight line along any of the directions on this board.
            let longest = d
                .iter()
                .map(|&(dx, dy)| {
                    let along = |step: i32, size: usize| {
                        if step == 0 {
                            usize::MAX
                        } else {
                            (size - 1) / step.unsigned_abs() as usize + 1
                        }
                    };
                    along(dx, w).min(along(dy, h))
                })
                .max()
                .unwrap_or(0);
            if !d.is_empty() && n as usize > longest {
                cx.error(
                    codes::CONTRADICTION,
                    *span,
                    format!(
                        "{n} in a row cannot happen: the longest line along these directions on {} {w} × {h} board is {longest}",
                        super::article(w)
                    ),
                )
                .label = "longer than the board".into();
                return None;
            }
            Condition::InARow { n, exact: *exact, dirs: d }
        }
        ast::Condition::Captured(k, _) => Condition::Captured(match k {
            Some(id) => Some(cx.kind(id)?),
            None => None,
        }),
        ast::Condition::NoneLeft(k, _) => Condition::NoneLeft(match k {
            Some(id) => Some(cx.kind(id)?),
            None => None,
        }),
        ast::Condition::Connects(need, zones, span) => {
            let resolved: Vec<Option<BySide<SquareSet>>> = zones.iter().map(|z| board::zone_by_side(cx, z)).collect();
            let mut ok = resolved.iter().all(Option::is_some);
            for (z, e) in resolved.iter().zip(zones) {
                let Some(z) = z else { continue };
                let empty: Vec<usize> = (0..2).filter(|&i| z.0[i].is_empty()).collect();
                if empty.is_empty() {
                    continue;
                }
                ok = false;
                let whose = match empty.as_slice() {
                    [i] => cx
                        .player_names
                        .get(*i)
                        .map_or_else(|| "one player".to_string(), |n| format!("`{n}`")),
                    _ => "either player".to_string(),
                };
                cx.error(
                    codes::CONTRADICTION,
                    e.span,
                    format!("a connection needs every zone to have squares for each player, and this one has none for {whose}"),
                )
                .label = "an empty zone".into();
            }
            let need = match need {
                Some(n) => {
                    let n = cx.count(n, "the number of zones to touch", 1, zones.len() as i64);
                    ok &= n.is_some();
                    n.unwrap_or(0) as usize
                }
                None => zones.len(),
            };
            if need < 2 && ok {
                cx.error(
                    codes::CONTRADICTION,
                    *span,
                    "a connection joins at least two zones: a chain touching one zone is no connection",
                )
                .label = "one zone".into();
                ok = false;
            }
            if !ok {
                return None;
            }
            Condition::Connects {
                zones: resolved.into_iter().flatten().collect(),
                need,
            }
        }
        ast::Condition::NeitherCanMove(_) => Condition::NeitherCanMove,
        ast::Condition::CannotWin(whose, _) => Condition::CannotWin(match whose {
            ast::Whose::Neither => Contender::Either,
            ast::Whose::Mover => Contender::Mover,
            ast::Whose::ToMove => Contender::ToMove,
        }),
        ast::Condition::KindIn(k, z, _) => {
            let kind = cx.kind(k);
            let zone = board::zone_by_side(cx, z);
            Condition::KindIn(kind?, zone?)
        }
        ast::Condition::FlagFallen(_) => Condition::FlagFallen,
        ast::Condition::CheckingThroughout(span) => {
            if !has_check {
                cx.error(
                    codes::CONTRADICTION,
                    *span,
                    "`checking` needs royal pieces that may not be left attacked",
                );
                return None;
            }
            Condition::CheckingThroughout
        }
        ast::Condition::ChasingThroughout(_) => Condition::ChasingThroughout,
        ast::Condition::Compare { .. } => unreachable!("comparisons are resolved by `counts::compare`"),
        ast::Condition::Ring(whose, _) => Condition::Ring(super::counts::whom(cx, whose)?),
        ast::Condition::During(names, _) => match cx.phase_mask(names) {
            (mask, true) => Condition::During(mask),
            (_, false) => return None,
        },
        ast::Condition::RoyalsFacing(dirs, span) => {
            if !kinds.iter().any(|k| k.royal) {
                cx.error(
                    codes::CONTRADICTION,
                    *span,
                    "`royals facing` needs royal pieces, and no piece is `royal`",
                )
                .label = "never holds".into();
                return None;
            }
            Condition::RoyalsFacing(board::dirs(cx, dirs))
        }
        ast::Condition::AllConnected { whose, dirs, .. } => {
            let d = if dirs.is_empty() {
                let hexes = cx.board.as_ref().is_some_and(|b| b.hexes);
                super::board::builtin_direction("adjacent", hexes).unwrap_or_default()
            } else {
                board::dirs(cx, dirs)
            };
            Condition::AllConnected {
                whose: super::counts::whom(cx, whose)?,
                dirs: d,
            }
        }
    })
}
