//! Stage 4, run: chases, for the end condition `one side chasing throughout` — which enemy pieces
//! a move chases under the ruleset's `chase` block ([`ChaseRule`]), and which side chased the same
//! piece with every move of a repetition's cycle.
//!
//! Invariant: nothing here runs while moves are generated or played. A chase is worked out only
//! once a repetition has been found, by replaying the cycle's moves from the position the cycle
//! returns to, so perft and random games pay nothing for it.

use super::{Move, MoveKind, Position};
use crate::model::*;

/// Who chased with every move of a repetition's cycle, and what.
#[derive(Clone, Debug, PartialEq)]
pub struct Chase {
    /// The side that chased.
    pub chaser: Side,
    /// Where the pieces it chased throughout stand at the end of the cycle (usually one).
    pub victims: Vec<usize>,
    /// Whether some of the chaser's moves gave check rather than chased (one check, one chase:
    /// the ruleset's `checks count`).
    pub with_checks: bool,
}

impl Position {
    /// The enemy pieces (their squares after the move) that `m`, a legal move here, chases under
    /// the ruleset's `chase` block; none when the ruleset has no such block.
    ///
    /// A piece is chased when, after the move, one of the mover's pieces could capture it and
    /// could not before (the same piece, followed from where it moved), it is not royal (that
    /// would be check), the block does not exempt it or its attacker, it is not merely offered an
    /// exchange, and no piece of its side could take back on its square after the capture — unless
    /// the block says the attack counts even on a protected piece.
    pub fn chased_by(&self, m: Move) -> Vec<usize> {
        let rules = self.rules().clone();
        let Some(rule) = rules.chase.as_ref() else {
            return Vec::new();
        };
        let us = self.side_to_move();
        let them = us.other();
        let enemy_at = |pos: &Position, sq: usize| pos.piece_at(sq).filter(|(_, s)| *s == them).map(|(k, _)| k);
        let captures = |pos: &Position| -> Vec<Move> {
            pos.legal_moves()
                .into_iter()
                .filter(|c| matches!(c.kind, MoveKind::Form(_)) && enemy_at(pos, c.to as usize).is_some())
                .collect()
        };
        let before: Vec<(u16, u16)> = captures(self).iter().map(|c| (c.from, c.to)).collect();
        let mut after = self.clone();
        after.play_unchecked(m);
        // Where the moved piece came from: an attack it had from there is not new.
        let moved = matches!(m.kind, MoveKind::Form(_) | MoveKind::Castle(_)).then_some((m.to, m.from));
        let ours = after.turned(us);
        let replies = after.legal_moves();
        let mut chased: Vec<usize> = Vec::new();
        for c in captures(&ours) {
            let (a, v) = (c.from as usize, c.to as usize);
            if chased.contains(&v) {
                continue;
            }
            let was = match moved {
                Some((to, from)) if to == c.from => from,
                _ => c.from,
            };
            if before.contains(&(was, c.to)) {
                continue;
            }
            let (Some(kv), Some((ka, _))) = (enemy_at(&ours, v), ours.piece_at(a)) else {
                continue;
            };
            if rules.kind(kv).royal
                || rule.never_by.contains(&ka)
                || rule
                    .never
                    .iter()
                    .any(|(k, zone)| *k == kv && zone.as_ref().is_none_or(|z| z[them].contains(v)))
            {
                continue;
            }
            // An exchange offered: the piece attacked could take the attacker back.
            if rule.exchanges_allowed && ka == kv && replies.iter().any(|r| r.from as usize == v && r.to as usize == a) {
                continue;
            }
            let even = rule.even_protected.iter().any(|(vs, atts)| vs.contains(&kv) && atts.contains(&ka));
            if even || !protected_after(&ours, c) {
                chased.push(v);
            }
        }
        chased
    }
}

/// Could the side whose piece `c` captures take back on its square (legally) afterwards?
fn protected_after(pos: &Position, c: Move) -> bool {
    let mut x = pos.clone();
    x.play_unchecked(c);
    x.legal_moves().iter().any(|r| r.to == c.to && r.kind != MoveKind::Pass)
}

/// What one side did in a cycle: the pieces it chased with every move so far (`None` before its
/// first chase), whether every move chased (or checked, where checks count), and what it did.
#[derive(Clone, Default)]
struct Record {
    tracked: Option<Vec<usize>>,
    broken: bool,
    moved: bool,
    chased: bool,
    checked: bool,
}

/// The one side that chased the same piece with every one of its moves in the cycle `moves`,
/// played from `start` (the position the cycle returns to), while the other side did not; `None`
/// when neither or both did, or the ruleset has no `chase` block.
pub(crate) fn chaser_in_cycle(start: &Position, moves: &[Move]) -> Option<Chase> {
    let rule = start.rules().chase.clone()?;
    let mut pos = start.clone();
    let mut record = [Record::default(), Record::default()];
    for &m in moves {
        let mover = pos.side_to_move();
        let victims = if record[mover.index()].broken {
            Vec::new()
        } else {
            pos.chased_by(m)
        };
        pos.play_unchecked(m);
        // The other side's chase follows its victims as they move.
        if let Some(t) = record[mover.other().index()].tracked.as_mut() {
            for sq in t.iter_mut() {
                if *sq == m.from as usize {
                    *sq = m.to as usize;
                }
            }
        }
        let r = &mut record[mover.index()];
        r.moved = true;
        if r.broken {
            continue;
        }
        let kept: Vec<usize> = match &r.tracked {
            None => victims,
            Some(t) => t.iter().copied().filter(|sq| victims.contains(sq)).collect(),
        };
        if !kept.is_empty() {
            r.tracked = Some(kept);
            r.chased = true;
        } else if rule.checks_count && pos.in_check() {
            r.checked = true;
        } else {
            r.broken = true;
        }
    }
    let throughout = |r: &Record| r.moved && r.chased && !r.broken && r.tracked.as_ref().is_some_and(|t| !t.is_empty());
    let chaser = match [throughout(&record[0]), throughout(&record[1])] {
        [true, false] => Side::FIRST,
        [false, true] => Side::SECOND,
        _ => return None,
    };
    let r = &record[chaser.index()];
    Some(Chase {
        chaser,
        victims: r.tracked.clone().unwrap_or_default(),
        with_checks: r.checked,
    })
}
