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
        self.chased_among(m, None)
    }

    /// [`Position::chased_by`], looking only at the pieces on `only` when it is given (the pieces a
    /// side has chased so far in a cycle: no other can keep its chase going).
    fn chased_among(&self, m: Move, only: Option<&[usize]>) -> Vec<usize> {
        if self.rules().chase.is_none() || only.is_some_and(|o| o.is_empty()) {
            return Vec::new();
        }
        let us = self.side_to_move();
        let mut after = self.clone();
        after.play_unchecked(m);
        let ours = after.turned(us);
        let mut replies = None;
        let mut threats: Vec<(usize, usize)> = Vec::new();
        for c in ours.legal_moves() {
            let v = c.to as usize;
            if only.is_some_and(|o| !o.contains(&v)) || threats.contains(&(c.from as usize, v)) {
                continue;
            }
            if ours.threat(c, &mut replies) {
                threats.push((c.from as usize, v));
            }
        }
        if threats.is_empty() {
            return Vec::new();
        }
        // Where the moved piece came from: a threat it made from there is not new.
        let moved = matches!(m.kind, MoveKind::Form(_) | MoveKind::Castle(_)).then_some((m.to as usize, m.from as usize));
        let before = self.legal_moves();
        let mut replies_before = None;
        let mut chased = Vec::new();
        for (a, v) in threats {
            let was = match moved {
                Some((to, from)) if to == a => from,
                _ => a,
            };
            let old = before.iter().find(|c| c.from as usize == was && c.to as usize == v);
            if !chased.contains(&v) && old.is_none_or(|&c| !self.threat(c, &mut replies_before)) {
                chased.push(v);
            }
        }
        chased
    }

    /// Is the legal move `c` of the side to move a capture of an enemy piece that the `chase`
    /// block counts as a threat? `replies` caches the other side's moves here (asked for only when
    /// an exchange is to be told).
    fn threat(&self, c: Move, replies: &mut Option<Vec<Move>>) -> bool {
        let rules = self.rules();
        let Some(rule) = rules.chase.as_ref() else {
            return false;
        };
        let them = self.side_to_move().other();
        let (a, v) = (c.from as usize, c.to as usize);
        let (Some((kv, sv)), Some((ka, _))) = (self.piece_at(v), self.piece_at(a)) else {
            return false;
        };
        if sv != them
            || !matches!(c.kind, MoveKind::Form(_))
            || rules.kind(kv).royal
            || rule.never_by.contains(&ka)
            || rule
                .never
                .iter()
                .any(|(k, zone)| *k == kv && zone.as_ref().is_none_or(|z| z[them].contains(v)))
        {
            return false;
        }
        // An exchange offered: the piece attacked could take the attacker back.
        if rule.exchanges_allowed && ka == kv {
            let replies = replies.get_or_insert_with(|| self.turned(them).legal_moves());
            if replies.iter().any(|r| r.from as usize == v && r.to as usize == a) {
                return false;
            }
        }
        rule.even_protected.iter().any(|(vs, atts)| vs.contains(&kv) && atts.contains(&ka)) || !protected_after(self, c)
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
        let r = &record[mover.index()];
        let victims = if r.broken {
            Vec::new()
        } else {
            pos.chased_among(m, r.tracked.as_deref())
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
            // Neither side can be the chaser any more: the rest of the cycle cannot change that.
            if record.iter().all(|r| r.broken) {
                return None;
            }
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
    use super::chaser_in_cycle;
    use crate::game::Move;
    use crate::notation::uci;
    use crate::sim::tests::engine;

    /// The squares `text` (a move in coordinates) chases from `fen`, under xiangqi's `chase` block.
    fn chased(fen: &str, text: &str) -> Vec<String> {
        let pos = engine("xiangqi").from_fen(fen).expect("a valid FEN");
        let m = uci::find(&pos, text).expect("a legal move");
        let b = &pos.rules().board;
        pos.chased_by(m).into_iter().map(|sq| b.name(sq)).collect()
    }

    #[test]
    fn a_new_attack_on_an_unprotected_piece_is_a_chase_and_on_a_protected_one_is_not() {
        assert_eq!(chased("3k5/9/9/9/1R7/c8/9/9/9/4K4 w - - 0 1", "b6b5"), ["a5"]);
        // The chariot on a10 would take back on a5.
        assert!(chased("r2k5/9/9/9/1R7/c8/9/9/9/4K4 w - - 0 1", "b6b5").is_empty());
    }

    #[test]
    fn keeping_an_attack_is_no_chase() {
        // The chariot on f4 attacked the horse on d4 already; stepping along the line keeps it.
        assert!(chased("9/4k4/9/9/9/9/3n1R3/9/9/3K5 w - - 0 1", "f4h4").is_empty());
    }

    #[test]
    fn a_weaker_attacker_chases_even_a_protected_chariot() {
        // `even protected Chariot by Horse, Cannon`: the chariot on a10 protects a7, no matter.
        assert_eq!(chased("r4k3/9/9/r8/1N7/9/9/9/9/4K4 w - - 0 1", "b6c8"), ["a7"]);
    }

    #[test]
    fn a_soldier_at_home_is_never_chased_and_one_across_the_river_is() {
        // Black's soldier on a7 has not crossed; on a4 it has.
        assert!(chased("3k5/9/9/p8/9/9/9/9/9/1R2K4 w - - 0 1", "b1a1").is_empty());
        assert_eq!(chased("3k5/9/9/9/9/9/p8/9/9/1R2K4 w - - 0 1", "b1a1"), ["a4"]);
    }

    #[test]
    fn attacks_by_a_general_or_a_soldier_are_never_chases() {
        assert!(chased("3k5/9/9/9/9/9/9/9/3c5/4K4 w - - 0 1", "e1e2").is_empty());
        assert!(chased("3k5/9/9/4c4/3P5/9/9/9/9/5K3 w - - 0 1", "d6e6").is_empty());
    }

    #[test]
    fn an_offered_exchange_is_no_chase_unless_the_piece_cannot_take_back() {
        // Chariot against chariot: black's could take red's back.
        assert!(chased("3k5/9/9/9/1R7/r8/9/9/9/4K4 w - - 0 1", "b6b5").is_empty());
        // Black's chariot on d7 is pinned by red's on d3 (its general on d10 would be attacked):
        // it cannot take back, so it is chased.
        assert_eq!(chased("3k5/9/9/3r5/9/9/9/3R5/R8/5K3 w - - 0 1", "a2a7"), ["d7"]);
    }

    #[test]
    fn a_ruleset_without_a_chase_block_has_no_chases() {
        let pos = engine("chess").start();
        let m = uci::find(&pos, "e2e4").expect("a legal move");
        assert!(pos.chased_by(m).is_empty());
    }

    /// The cycle `texts` played from `fen`: (start, moves).
    fn cycle(fen: &str, texts: &[&str]) -> (crate::game::Position, Vec<Move>) {
        let start = engine("xiangqi").from_fen(fen).expect("a valid FEN");
        let mut pos = start.clone();
        let mut moves = Vec::new();
        for t in texts {
            let m = uci::find(&pos, t).expect("a legal move");
            pos.play_unchecked(m);
            moves.push(m);
        }
        (start, moves)
    }

    #[test]
    fn the_chaser_is_the_side_that_chased_the_same_piece_with_every_move() {
        let (start, moves) = cycle("3k5/9/9/9/9/n8/8R/9/9/4K4 w - - 0 1", &["i4i5", "a5c4", "i5i4", "c4a5"]);
        let chase = chaser_in_cycle(&start, &moves).expect("red chases the horse");
        assert_eq!(chase.chaser, crate::model::Side::FIRST);
        assert_eq!(chase.victims, [start.rules().board.parse_square("a5").expect("a square")]);
        assert!(!chase.with_checks);
    }

    #[test]
    fn a_cycle_where_a_side_checks_with_every_move_is_no_chase() {
        // Both sides check with every move (and black's chariot also attacks red's on d1): the
        // check rules judge this cycle, not the chase.
        let (start, moves) = cycle("9/4c4/3k5/3r5/9/9/4C4/9/4K4/3R5 w - - 0 1", &["e4d4", "d7e7", "d4e4", "e7d7"]);
        assert_eq!(chaser_in_cycle(&start, &moves), None);
    }
}
