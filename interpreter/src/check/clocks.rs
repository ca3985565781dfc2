//! The `clock` section: named time controls, checked into [`TimeControl`]s. Bounded, so that no
//! control can ask the clock arithmetic for more than it can count: at most
//! [`MAX_STAGES`](crate::clock::MAX_STAGES) stages, times up to 1000 hours, up to 10,000 moves a
//! stage and 100 byo-yomi periods.

use crate::clock::{MAX_PERIODS, MAX_STAGES, MAX_TIME_MS, Stage, TimeControl, stage_moves_error};
use crate::diag::{Diagnostic, codes};
use crate::syntax::ast;

use super::Cx;

/// Milliseconds of a written duration, or an error at it.
fn ms(cx: &mut Cx, d: &ast::Duration, what: &str) -> Option<u64> {
    let ms = (d.seconds * 1000.0).round();
    if !(ms.is_finite() && ms >= 0.0 && ms <= MAX_TIME_MS as f64) {
        cx.diags
            .push(Diagnostic::error(codes::BOUND, d.span, format!("{what} must be between 0 and 1000 h")).label("out of range"));
        return None;
    }
    Some(ms as u64)
}

fn control(cx: &mut Cx, c: &ast::ClockControl) -> Option<TimeControl> {
    if c.stages.len() > MAX_STAGES {
        cx.diags.push(
            Diagnostic::error(codes::BOUND, c.span, format!("a time control has at most {MAX_STAGES} stages")).label("too many stages"),
        );
        return None;
    }
    let increment = match &c.increment {
        Some(d) => ms(cx, d, "an increment")?,
        None => 0,
    };
    let delay = match &c.delay {
        Some(d) => ms(cx, d, "a delay")?,
        None => 0,
    };
    let mut stages = Vec::new();
    let mut byoyomi = None;
    let last = c.stages.len() - 1;
    for (i, st) in c.stages.iter().enumerate() {
        match st {
            ast::ClockStage::Time { moves, time, repeat, span } => {
                if byoyomi.is_some() {
                    cx.diags.push(
                        Diagnostic::error(codes::CONTRADICTION, *span, "byo-yomi periods must be the last stage")
                            .label("after the periods"),
                    );
                    return None;
                }
                let time_ms = ms(cx, time, "a stage's time")?;
                let moves = match moves {
                    Some((n, s)) => {
                        if let Some(e) = stage_moves_error((*n).into()) {
                            cx.diags.push(Diagnostic::error(codes::BOUND, *s, e).label("out of range"));
                            return None;
                        }
                        Some(*n as u32)
                    }
                    None => None,
                };
                let later_time = c.stages[i + 1..].iter().any(|s| matches!(s, ast::ClockStage::Time { .. }));
                if moves.is_none() && later_time {
                    cx.diags.push(
                        Diagnostic::error(
                            codes::CONTRADICTION,
                            *span,
                            "a stage without a number of moves lasts the rest of the game: nothing can follow it but byo-yomi",
                        )
                        .label("the rest of the game")
                        .help("write `N moves in ...` for a stage that ends"),
                    );
                    return None;
                }
                if *repeat && (moves.is_none() || later_time) {
                    cx.diags.push(
                        Diagnostic::error(
                            codes::CONTRADICTION,
                            *span,
                            "only the last stage, one of a number of moves, can repeat",
                        )
                        .label("repeats"),
                    );
                    return None;
                }
                stages.push(Stage {
                    moves,
                    time_ms,
                    increment_ms: increment,
                    delay_ms: delay,
                    repeat: *repeat,
                });
            }
            ast::ClockStage::Periods { count, each, span } => {
                if i != last || i == 0 {
                    let msg = if i == 0 {
                        "byo-yomi periods follow a main time"
                    } else {
                        "byo-yomi periods must be the last stage"
                    };
                    cx.diags.push(Diagnostic::error(codes::CONTRADICTION, *span, msg).label("here"));
                    return None;
                }
                if !(1..=i64::from(MAX_PERIODS)).contains(&count.0) {
                    cx.diags.push(
                        Diagnostic::error(
                            codes::BOUND,
                            count.1,
                            format!("byo-yomi has 1 to {MAX_PERIODS} periods, not {}", count.0),
                        )
                        .label("out of range"),
                    );
                    return None;
                }
                let each_ms = ms(cx, each, "a period")?;
                if each_ms == 0 {
                    cx.diags
                        .push(Diagnostic::error(codes::BOUND, each.span, "a period must last some time").label("zero"));
                    return None;
                }
                byoyomi = Some((count.0 as u32, each_ms));
            }
        }
    }
    if stages.last().is_some_and(|s| s.moves.is_some() && !s.repeat) {
        let span = c
            .stages
            .iter()
            .rev()
            .find(|s| matches!(s, ast::ClockStage::Time { .. }))
            .map_or(c.span, |s| s.span());
        cx.diags.push(
            Diagnostic::error(
                codes::CONTRADICTION,
                span,
                "the last stage ends after its moves, and nothing says how the game goes on",
            )
            .label("ends here")
            .help("add `repeatedly`, or a stage for the rest of the game (`then 30 min`)"),
        );
        return None;
    }
    Some(TimeControl {
        name: c.name.name.clone(),
        stages,
        byoyomi,
        cite: c.cite.as_ref().map(|k| k.text.clone()),
    })
}

/// Every control of every `clock` section, in order; `override` replaces an earlier one of the
/// same name, and a name used twice otherwise is an error.
pub(super) fn resolve(cx: &mut Cx, items: &[ast::Item]) -> Vec<TimeControl> {
    let mut out: Vec<(TimeControl, ast::Ident)> = Vec::new();
    for item in items {
        let ast::Item::Clock(controls) = item else { continue };
        for c in controls {
            let Some(tc) = control(cx, c) else { continue };
            match out.iter().position(|(t, _)| t.name == tc.name) {
                Some(i) if c.overrides => out[i] = (tc, c.name.clone()),
                Some(i) => {
                    let first = out[i].1.span;
                    cx.diags.push(
                        Diagnostic::error(
                            codes::DUPLICATE,
                            c.name.span,
                            format!("time control `{}` is defined twice", c.name.name),
                        )
                        .label("again here")
                        .with(first, "first here")
                        .help("write `override` before the name to replace the first"),
                    );
                }
                None => {
                    if c.overrides {
                        cx.diags.push(Diagnostic::warning(
                            codes::REDUNDANT,
                            c.name.span,
                            format!("`override` but no time control `{}` to replace", c.name.name),
                        ));
                    }
                    out.push((tc, c.name.clone()));
                }
            }
        }
    }
    out.into_iter().map(|(t, _)| t).collect()
}
