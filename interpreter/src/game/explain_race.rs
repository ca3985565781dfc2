//! Rulings in race games (see [`super::race`]): a move by one of the dice still to use, entering
//! from hand first, a point that stacks block, bearing off from home and overshooting, and the
//! obligation to use the most dice (and the higher one). Each ruling names the dice.

use super::explain::{Ruling, illegal, piece_name};
use super::{Move, MoveKind, Position};
use crate::model::*;

impl Position {
    /// Rules on a move of a race game (after the roll: the roll itself is ruled on before).
    pub(super) fn explain_race(&self, text: &str) -> Ruling {
        let rules = self.rules();
        let b = &rules.board;
        let us = self.side_to_move();
        let player = &rules.players[us.index()].name;
        let dice = self.dice_left();
        let dice_text = dice.iter().map(u32::to_string).collect::<Vec<_>>().join("-");
        let having = format!("{player} has {dice_text} to use");
        let written = text.trim();
        let legal = self.legal_moves();
        if let Some(m) = super::movetext::find(self, written) {
            let die = self.die_of(m).unwrap_or(0);
            let by = if die > 0 { format!(", by the {die}") } else { String::new() };
            return Ruling::Legal {
                mv: m,
                clause: self.clause_of(m),
                message: format!("{}{by} ({having})", self.describe(m)),
            };
        }
        let race = &rules.race;
        let stack_cite = race.stack.as_ref().and_then(|s| rules.citation(&s.cite));
        // What the text names: a piece borne off (`g1off`, `g1off:6`), a move, or an entry.
        let (from, to, off_die) = if let Some((sq, die)) = written.split_once("off").map(|(a, d)| (a, d.trim_start_matches(':'))) {
            let Some(from) = b.parse_square(sq) else {
                return illegal("bad-notation", format!("`{written}` names no square to bear off from"), None);
            };
            (Some(from), None, die.parse::<u32>().ok())
        } else if let Some(mt) = super::movetext::parse_text(self, written) {
            (Some(mt.from), Some(mt.to), None)
        } else if let Some(sq) = b.parse_square(written.rsplit('@').next().unwrap_or(written)) {
            (None, Some(sq), None)
        } else if written == "pass" {
            let reason = if legal.is_empty() {
                "the game is over".to_string()
            } else {
                format!("{having}, and a move can use them")
            };
            return illegal("pass-not-allowed", format!("{player} cannot pass: {reason}"), None);
        } else {
            return illegal(
                "bad-notation",
                format!("`{written}` is not a move of this game (`a2e1`, `l2`, `g1off`)"),
                None,
            );
        };
        // The clause that moves this piece (or enters one) along a track, and where it is on it.
        let track_of = |k: KindId, drop: bool| -> Option<(&Form, &Track)> {
            rules.kind(k).forms.iter().find_map(|f| match (f.primitive.clone(), f.by_roll) {
                (Primitive::Run { track }, _) if !drop => Some((f, &rules.tracks[track])),
                (_, Some(track)) if drop => Some((f, &rules.tracks[track])),
                _ => None,
            })
        };
        let in_hand: u32 = self.hand(us).iter().map(|(_, n)| n).sum();
        // A move the dice allow that an obligation of waiting pieces rules out: the piece on the
        // start square moves first (`must move from the start of TRACK first`), else a piece
        // enters where one can (`must enter from hand when it can`).
        let obliged = in_hand > 0 && (race.start_first.is_some() || race.enter_when_can.is_some());
        let allowed = obliged
            && self.race_pseudo_moves().into_iter().any(|m| match m.kind {
                MoveKind::Drop(_) => from.is_none() && to == Some(m.to as usize),
                MoveKind::Form(_) => from == Some(m.from as usize) && to == Some(m.to as usize),
                MoveKind::BearOff(_) => from == Some(m.from as usize) && to.is_none(),
                _ => false,
            });
        if allowed {
            if let Some((tr, cite)) = &race.start_first {
                let track = &rules.tracks[*tr];
                let first = track.squares[us].first().copied();
                if let Some(first) = first
                    && from != Some(first)
                    && legal
                        .iter()
                        .any(|m| m.from as usize == first && matches!(m.kind, MoveKind::Form(_)))
                {
                    return illegal(
                        "must-clear-start",
                        format!(
                            "{player} has {in_hand} in hand, and {} stands at the start of `{}` and can move: it moves first ({having})",
                            piece_name(self, first),
                            track.name
                        ),
                        rules.citation(cite),
                    );
                }
            }
            if let Some(cite) = &race.enter_when_can
                && from.is_some()
                && legal.iter().any(|m| matches!(m.kind, MoveKind::Drop(_)))
            {
                return illegal(
                    "must-enter",
                    format!("{player} has {in_hand} in hand and a piece can enter: it must ({having})"),
                    rules.citation(cite),
                );
            }
        }
        let Some(from) = from else {
            // An entry from hand onto `to`.
            let to = to.unwrap_or(0);
            let Some((k, _)) = self.hand(us).first().copied() else {
                return illegal("empty-hand", format!("{player} has no piece in hand to enter"), None);
            };
            let Some((f, track)) = track_of(k, true) else {
                return illegal("no-such-move", format!("no piece of {player}'s enters from hand"), None);
            };
            let path = &track.squares[us];
            let Some(i) = path.iter().position(|&sq| sq == to) else {
                return illegal(
                    "off-track",
                    format!("{} is not on `{}`, where pieces enter", b.name(to), track.name),
                    None,
                );
            };
            if f.at_start {
                if i != 0 {
                    return illegal(
                        "off-track",
                        format!(
                            "a piece enters at the start of `{}`, {}, not on {}",
                            track.name,
                            b.name(path[0]),
                            b.name(to)
                        ),
                        rules.citation(&f.cite),
                    );
                }
                let Some(&die) = dice.iter().find(|d| f.on_roll.as_ref().is_none_or(|n| n.contains(d))) else {
                    let on = f
                        .on_roll
                        .as_ref()
                        .map(|n| n.iter().map(u32::to_string).collect::<Vec<_>>().join(" or "))
                        .unwrap_or_default();
                    return illegal(
                        "not-a-die",
                        format!(
                            "a piece enters at the start of `{}` only on a roll of {on}, and {having}",
                            track.name
                        ),
                        rules.citation(&f.cite),
                    );
                };
                return self.landing_ruling(to, die, &having, stack_cite, legal.is_empty());
            }
            let need = i as u32 + 1;
            if !dice.contains(&need) {
                return illegal(
                    "not-a-die",
                    format!("a piece enters on {} with a {need}, and {having}", b.name(to)),
                    rules.roll.as_ref().and_then(|r| rules.citation(&r.cite)),
                );
            }
            return self.landing_ruling(to, need, &having, stack_cite, legal.is_empty());
        };
        let Some((k, side)) = self.piece_at(from) else {
            return illegal("no-piece", format!("{} is empty", b.name(from)), None);
        };
        if side != us {
            return illegal(
                "not-your-piece",
                format!("{} is {}'s", piece_name(self, from), rules.players[side.index()].name),
                None,
            );
        }
        if in_hand > 0
            && let Some(cite) = &race.enter_first
        {
            return illegal(
                "must-enter-first",
                format!("{player} has {in_hand} in hand, and a piece in hand must enter before any other moves ({having})"),
                rules.citation(cite),
            );
        }
        let Some((f, track)) = track_of(k, false) else {
            return illegal(
                "no-such-move",
                format!("{} does not move along a track", piece_name(self, from)),
                None,
            );
        };
        let path = &track.squares[us];
        let Some(at) = path.iter().position(|&sq| sq == from) else {
            return illegal("off-track", format!("{} is not on `{}`", piece_name(self, from), track.name), None);
        };
        let left_on_track = (path.len() - at) as u32;
        let clause = rules.citation(&f.cite);
        if let Some(to) = to {
            let Some(j) = path.iter().position(|&sq| sq == to).filter(|&j| j > at) else {
                return illegal(
                    "off-track",
                    format!("{} is not ahead of {} on `{}`", b.name(to), piece_name(self, from), track.name),
                    clause,
                );
            };
            let need = (j - at) as u32;
            if let Some(on) = f.on_roll.as_ref().filter(|n| !n.contains(&need)) {
                let on: Vec<String> = on.iter().map(u32::to_string).collect();
                return illegal(
                    "not-a-die",
                    format!(
                        "{} moves only on a roll of {}, and this move is {need}",
                        piece_name(self, from),
                        on.join(" or ")
                    ),
                    clause,
                );
            }
            if !dice.contains(&need) {
                return illegal(
                    "not-a-die",
                    format!(
                        "{} to {} is {need} along `{}`, and {having}",
                        piece_name(self, from),
                        b.name(to),
                        track.name
                    ),
                    clause,
                );
            }
            return self.landing_ruling(to, need, &having, stack_cite, legal.is_empty());
        }
        // Bearing off: legal where the dice allow it (by the die named, if one is: `g1off:6`).
        if let Some(&m) = legal
            .iter()
            .find(|m| matches!(m.kind, MoveKind::BearOff(_)) && m.from as usize == from && off_die.is_none_or(|d| m.to as u32 == d))
        {
            return Ruling::Legal {
                mv: m,
                clause: self.clause_of(m),
                message: format!("{}, by the {} ({having})", self.describe(m), m.to),
            };
        }
        if !f.bear_off {
            return illegal("cannot-bear-off", format!("{} is never borne off", piece_name(self, from)), clause);
        }
        if let Some(home) = &f.bear_home {
            let outside: Vec<String> = (0..b.squares())
                .filter(|&sq| self.piece_at(sq).is_some_and(|p| p.1 == us) && !home[us].contains(sq))
                .map(|sq| b.name(sq))
                .collect();
            if in_hand > 0 || !outside.is_empty() {
                let where_ = if in_hand > 0 {
                    format!("{in_hand} in hand")
                } else {
                    format!("on {}", outside.join(", "))
                };
                return illegal(
                    "not-all-home",
                    format!("{player} bears off only once all its pieces are home, and some stand {where_}"),
                    clause,
                );
            }
        }
        let exact = dice.contains(&left_on_track);
        let bigger: Vec<u32> = dice
            .iter()
            .copied()
            .filter(|&d| d > left_on_track && off_die.is_none_or(|x| x == d))
            .collect();
        if !exact && bigger.is_empty() {
            return illegal(
                "cannot-bear-off",
                format!(
                    "{} is {left_on_track} from off `{}`, and {having}: none takes it off",
                    piece_name(self, from),
                    track.name
                ),
                clause,
            );
        }
        if !exact {
            if !f.overshoot {
                return illegal(
                    "cannot-bear-off",
                    format!("{} is borne off only by a {left_on_track}, and {having}", piece_name(self, from)),
                    clause,
                );
            }
            let behind: Vec<String> = path[..at]
                .iter()
                .filter(|&&sq| self.piece_at(sq).is_some_and(|p| p.1 == us))
                .map(|&sq| b.name(sq))
                .collect();
            if !behind.is_empty() {
                return illegal(
                    "cannot-bear-off",
                    format!(
                        "a {} bears off only the rearmost piece, and {player}'s on {} stands farther back",
                        bigger[0],
                        behind.join(", ")
                    ),
                    clause,
                );
            }
        }
        let need = if exact { left_on_track } else { bigger[0] };
        self.obligation_ruling(
            |m| matches!(m.kind, MoveKind::BearOff(_)) && m.from as usize == from && off_die.is_none_or(|d| m.to as u32 == d),
            need,
            &having,
            legal.is_empty(),
        )
    }

    /// A race game's move in words: which piece of a stack goes, where, and what it hits or joins.
    pub(super) fn describe_race(&self, m: Move) -> String {
        let rules = self.rules();
        let b = &rules.board;
        let us = self.side_to_move();
        let player = &rules.players[us.index()].name;
        let lone = |sq: usize| {
            let n = self.stack_count(sq);
            let p = piece_name(self, sq);
            if n > 1 {
                format!(
                    "one of the {n} {}s on {}",
                    p.trim_start_matches("the ").split(" on ").next().unwrap_or(""),
                    b.name(sq)
                )
            } else {
                p
            }
        };
        let (mut s, to) = match m.kind {
            MoveKind::Pass => return format!("{player} passes: no die can be used"),
            MoveKind::BearOff(_) => return format!("{} is borne off", lone(m.from as usize)),
            MoveKind::Drop(_) => (
                format!("{player} enters a piece from hand on {}", b.name(m.to as usize)),
                m.to as usize,
            ),
            _ => (
                format!("{} moves to {}", lone(m.from as usize), b.name(m.to as usize)),
                m.to as usize,
            ),
        };
        match self.piece_at(to) {
            Some((_, side)) if side != us => {
                let n = self.stack_count(to);
                let them = &rules.players[side.index()].name;
                s.push_str(&if n > 1 {
                    format!(", hitting {them}'s {n} pieces there back to hand")
                } else {
                    format!(", hitting {them}'s piece there back to hand")
                });
            }
            Some(_) => s.push_str(&format!(", joining {} there", self.stack_count(to))),
            None => {}
        }
        s
    }

    /// The ruling on a piece landing on `to` by a die of `need` that the side has: a square that
    /// stacks block, else the obligation to use the most dice.
    fn landing_ruling(&self, to: usize, need: u32, having: &str, stack_cite: Option<String>, over: bool) -> Ruling {
        let rules = self.rules();
        let us = self.side_to_move();
        if let Some((_, side)) = self.piece_at(to) {
            let n = self.stack_count(to);
            let block = rules.race.stack.as_ref().and_then(|s| s.block);
            if side != us
                && let Some(block) = block
                && n >= block
            {
                return illegal(
                    "point-blocked",
                    format!(
                        "{} holds {n} of {}'s pieces: {block} or more block it",
                        rules.board.name(to),
                        rules.players[side.index()].name
                    ),
                    stack_cite,
                );
            }
            if side == us && rules.race.stack.is_none() {
                return illegal(
                    "needs-empty-target",
                    format!("{} is taken by {}", rules.board.name(to), piece_name(self, to)),
                    None,
                );
            }
        }
        self.obligation_ruling(|m| m.to as usize == to && self.die_of(*m) == Some(need), need, having, over)
    }

    /// The ruling on a move the dice allow (found among them by `is`): illegal where the turn
    /// must use more dice, or the higher die.
    fn obligation_ruling(&self, is: impl Fn(&Move) -> bool, need: u32, having: &str, over: bool) -> Ruling {
        let rules = self.rules();
        let pseudo = self.race_pseudo_moves();
        let Some(&m) = pseudo.iter().find(|m| is(m)) else {
            let why = if over {
                "the game is over".to_string()
            } else {
                format!("no clause allows it ({having})")
            };
            return illegal("no-such-move", why, None);
        };
        let cite = rules.race.most_dice.as_ref().and_then(|d| rules.citation(&d.cite));
        let with = self.dice_used_with(m);
        let best = pseudo.iter().map(|&p| self.dice_used_with(p)).max().unwrap_or(0);
        if with < best {
            return illegal(
                "must-use-most-dice",
                format!("after it the turn could use {with} of its dice, and another way uses {best} ({having})"),
                cite,
            );
        }
        let top = pseudo.iter().map(|&p| self.die_of(p).unwrap_or(0)).max().unwrap_or(0);
        illegal(
            "must-use-higher-die",
            format!("only one die can be used this turn, and the higher, {top}, can: the {need} may not be ({having})"),
            cite,
        )
    }
}
