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
    /// A move chases a piece when it creates a threat to it that was not there before: after the
    /// move one of the mover's pieces could capture it (the same piece could not, from where it
    /// stood, before the move — or could, but only into a recapture), the piece is not royal (that
    /// would be check), the block does not exempt it or its attacker, it is not merely offered an
    /// exchange, and no piece of its side could legally take back on its square after the capture —
    /// unless the block says the attack counts even on a protected piece. Protection is judged by
    /// legality, so a protector pinned to its general, or a capture that gives check, leaves the
    /// piece unprotected.
    pub fn chased_by(&self, m: Move) -> Vec<usize> {
        if self.rules().chase.is_none() {
            return Vec::new();
        }
        let us = self.side_to_move();
        let before = self.threats();
        let mut after = self.clone();
        after.play_unchecked(m);
        // Where the moved piece came from: a threat it made from there is not new.
        let moved = matches!(m.kind, MoveKind::Form(_) | MoveKind::Castle(_)).then_some((m.to as usize, m.from as usize));
        let mut chased: Vec<usize> = Vec::new();
        for (a, v) in after.turned(us).threats() {
            let was = match moved {
                Some((to, from)) if to == a => from,
                _ => a,
            };
            if !before.contains(&(was, v)) && !chased.contains(&v) {
                chased.push(v);
            }
        }
        chased
    }

    /// The threats of the side to move here: (attacker, victim) for each capture of an enemy piece
    /// that the `chase` block counts.
    fn threats(&self) -> Vec<(usize, usize)> {
        let rules = self.rules().clone();
        let Some(rule) = rules.chase.as_ref() else {
            return Vec::new();
        };
        let them = self.side_to_move().other();
        let mut replies: Option<Vec<Move>> = None;
        let mut out = Vec::new();
        for c in self.legal_moves() {
            let (a, v) = (c.from as usize, c.to as usize);
            let (Some((kv, sv)), Some((ka, _))) = (self.piece_at(v), self.piece_at(a)) else {
                continue;
            };
            if sv != them || !matches!(c.kind, MoveKind::Form(_)) || out.contains(&(a, v)) {
                continue;
            }
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
            if rule.exchanges_allowed && ka == kv {
                let replies = replies.get_or_insert_with(|| self.turned(them).legal_moves());
                if replies.iter().any(|r| r.from as usize == v && r.to as usize == a) {
                    continue;
                }
            }
            let even = rule.even_protected.iter().any(|(vs, atts)| vs.contains(&kv) && atts.contains(&ka));
            if even || !protected_after(self, c) {
                out.push((a, v));
            }
        }
        out
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
    /// A move of this side did not give check.
    quiet: bool,
}

/// The one side that chased the same piece with every one of its moves in the cycle `moves`,
/// played from `start` (the position the cycle returns to), while the other side did not; `None`
/// when neither or both did, or the ruleset has no `chase` block. Checks come first: a cycle in
/// which a side gave check with every move is for the rules on checking to judge, never a chase.
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
        let check = pos.in_check();
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
        r.quiet |= !check;
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
        } else if rule.checks_count && check {
            r.checked = true;
        } else {
            r.broken = true;
        }
    }
    if record.iter().any(|r| r.moved && !r.quiet) {
        return None;
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

#[cfg(test)]
mod tests {
    use crate::notation::uci;
    use crate::sim::tests::engine;

    /// The squares `text` (a move in coordinates) chases from `fen`.
    fn chased(fen: &str, text: &str) -> Vec<String> {
        let pos = engine("xiangqi").from_fen(fen).expect("a valid FEN");
        let m = uci::find(&pos, text).expect("a legal move");
        let b = &pos.rules().board;
        pos.chased_by(m).into_iter().map(|sq| b.name(sq)).collect()
    }

    #[test]
    fn debug_horse() {
        for (fen, line) in [
            ("2baka1r1/C4rN2/9/1Rp1p4/9/9/4P4/9/4A4/4KA3 w - - 0 1", "b7b9 f10e9 b9b10 e9f10 b10b9 f10e9 b9b10 e9f10 b10b9"),
            ("5k3/9/9/9/9/9/7r1/9/2nRA3c/4K4 w - - 0 1", "e2f1 h4h2 f1e2 h2h4 e2f1 h4h2 f1e2 h2h4"),
        ] {
            let mut p = engine("xiangqi").from_fen(fen).unwrap();
            for t in line.split(' ') {
                let m = uci::find(&p, t).unwrap();
                let b = p.rules().board.clone();
                eprintln!("{t}: {:?}", p.chased_by(m).iter().map(|s| b.name(*s)).collect::<Vec<_>>());
                p.play_unchecked(m);
            }
            eprintln!("--");
        }
    }
}
