//! Rulings on turns of several parts: the turn's move is ruled on as any move is; when it is legal,
//! each later part is ruled on in the position the parts before it leave, naming the part of the
//! `turn` that is missing or what forbids the choice written.

use super::explain::{illegal, piece_name};
use super::movetext;
use super::{Move, MoveKind, Position, Ruling};
use crate::model::*;

impl Position {
    /// Rules on a whole turn written in coordinates (`e2e4,e4d5`, `b1c3h`).
    pub(super) fn explain_turn(&self, text: &str) -> Ruling {
        let text = text.trim();
        if let Some(m) = movetext::find(self, text) {
            return Ruling::Legal {
                mv: m,
                clause: self.clause_of(m.first_part()).or_else(|| self.part_clause(m, 0)),
                message: self.describe_turn(m),
            };
        }
        let legal = self.legal_moves();
        let mut firsts: Vec<Move> = legal.iter().map(|m| m.first_part()).collect();
        firsts.dedup();
        // The first part: the text before the first comma, or — for a drop on the square the move
        // left, written as a letter after the move — the longest legal first part it starts with.
        let (head, tail) = match text.split_once(',') {
            Some((h, t)) => (h, Some(t)),
            None => (text, None),
        };
        let by_text = |t: &str| {
            firsts
                .iter()
                .copied()
                .find(|f| movetext::first_text(self, *f).eq_ignore_ascii_case(t))
        };
        let (first, gate_suffix) = match by_text(head) {
            Some(f) => (Some(f), None),
            None => {
                let longest = firsts
                    .iter()
                    .copied()
                    .filter(|f| {
                        let t = movetext::first_text(self, *f);
                        head.len() > t.len() && head.get(..t.len()).is_some_and(|h| h.eq_ignore_ascii_case(&t))
                    })
                    .max_by_key(|f| movetext::first_text(self, *f).len());
                match longest {
                    Some(f) => (Some(f), Some(head[movetext::first_text(self, f).len()..].to_string())),
                    None => (None, None),
                }
            }
        };
        let Some(first) = first else {
            // The move itself is not legal: rule on it as on any move.
            return match self.explain_one(head) {
                Ruling::Legal { mv, .. } => self.incomplete(mv, &legal),
                r => r,
            };
        };
        let turns: Vec<Move> = legal.iter().copied().filter(|m| m.first_part() == first).collect();
        if let Some(suffix) = gate_suffix {
            return self.explain_gate(first, &suffix);
        }
        let Some(tail) = tail else {
            return self.incomplete(first, &legal);
        };
        // Later parts written after commas: each `LANDING` + square.
        let b = &self.rules().board;
        let landing = b.name(first.to as usize);
        let mut so_far = first;
        for (i, piece) in tail.split(',').enumerate() {
            let piece = piece.trim();
            let Some(sq_text) = piece
                .get(..landing.len())
                .filter(|a| a.eq_ignore_ascii_case(&landing))
                .map(|_| &piece[landing.len()..])
            else {
                return illegal(
                    "unreadable-move",
                    format!(
                        "`{piece}` is not a later part of this turn: write the square the piece landed on, {landing}, then the square the part acts on, like {landing}{}",
                        b.name(0)
                    ),
                    None,
                );
            };
            let Some(sq) = b.parse_square(sq_text) else {
                return illegal("unreadable-move", format!("`{sq_text}` is not a square of this board"), None);
            };
            let next: Vec<Move> = turns
                .iter()
                .copied()
                .filter(|m| (0..i).all(|j| m.part(j) == so_far.part(j)) && self.part_of(*m, i).is_some_and(|p| p.2 == sq))
                .collect();
            match next.first() {
                Some(m) => so_far = so_far.with_part(i, m.part(i)),
                None => return self.explain_part(so_far, i, sq),
            }
        }
        // Every part written was allowed, but the turn goes on.
        self.incomplete(so_far, &legal)
    }

    /// The clause of the `i`th later part of `m`, or of the part that would come next.
    fn part_clause(&self, m: Move, i: usize) -> Option<String> {
        let rules = self.rules();
        let part = self.part_of(m, i).map_or(i, |p| p.0);
        rules.turn.get(part).and_then(|p| rules.citation(&p.cite))
    }

    /// "The turn goes on": `so_far` is legal as far as it goes, and the turn needs more.
    fn incomplete(&self, so_far: Move, legal: &[Move]) -> Ruling {
        let rules = self.rules();
        let done = (0..super::MAX_PARTS).filter(|&i| so_far.part(i) != 0).count();
        let example = legal
            .iter()
            .find(|m| m.first_part() == so_far.first_part() && (0..done).all(|j| m.part(j) == so_far.part(j)));
        let next = example.and_then(|m| self.part_of(*m, done)).map(|p| p.0);
        let what = next
            .and_then(|p| rules.turn.get(p))
            .map_or("the turn's next part".to_string(), |p| format!("`{}`", written(&p.text)));
        let shown = movetext::to_text(self, so_far);
        let mut message = format!("{shown} is not a whole turn: {what} comes next");
        if let Some(m) = example {
            message.push_str(&format!(", as in {}", movetext::to_text(self, *m)));
        }
        illegal("turn-incomplete", message, next.and_then(|p| rules.citation(&rules.turn[p].cite)))
    }

    /// Why the `i`th later part of the turn `so_far` may not act on `sq`.
    fn explain_part(&self, so_far: Move, i: usize, sq: usize) -> Ruling {
        let rules = self.rules().clone();
        let b = &rules.board;
        let mut after = self.clone();
        after.play_unchecked(so_far);
        let mover = self.side_to_move();
        // The part that comes `i`th: the one legal turns with the same beginning have there, or
        // else the first of the turn's parts after those taken.
        let same_start = |m: &Move| m.first_part() == so_far.first_part() && (0..i).all(|j| m.part(j) == so_far.part(j));
        let legal = self.legal_moves();
        let taken: Vec<usize> = (0..i).filter_map(|j| self.part_of(so_far, j).map(|p| p.0)).collect();
        let next = legal
            .iter()
            .filter(|m| same_start(m))
            .find_map(|m| self.part_of(*m, i).map(|p| p.0))
            .or_else(|| (taken.last().map_or(0, |p| p + 1)..rules.turn.len()).next());
        let Some(pi) = next else {
            return illegal(
                "no-such-move",
                format!("this turn has no part after {}", movetext::to_text(self, so_far)),
                None,
            );
        };
        let part = &rules.turn[pi];
        let clause = rules.citation(&part.cite);
        let shown = written(&part.text);
        let what = format!(" (`{shown}`)");
        let sq_name = b.name(sq);
        let r = match &part.action {
            PartAction::Place { kind, .. } => {
                let name = rules.kind(*kind).name.to_lowercase();
                if after.piece_at(sq).is_some() || after.neutral_at(sq).is_some() {
                    illegal(
                        "occupied",
                        format!(
                            "{} is taken by {}: the {name} goes on an empty square{what}",
                            sq_name,
                            piece_name(&after, sq)
                        ),
                        clause,
                    )
                } else if part.within.as_ref().is_some_and(|z| !z[mover].contains(sq)) {
                    illegal("outside-zone", format!("the {name} may not go on {sq_name}{what}"), clause)
                } else if let Some(r) = self.exposed_by_part(so_far, i, pi, sq, &what) {
                    r
                } else {
                    illegal(
                        "not-allowed",
                        format!("the {name} may not go on {sq_name} in this turn{what}"),
                        clause,
                    )
                }
            }
            PartAction::Remove { row_safe } => match after.piece_at(sq) {
                Some((_, s)) if s != mover => {
                    if row_safe.is_some() {
                        illegal(
                            "row-protected",
                            format!(
                                "{} stands in a row, and pieces outside rows must be removed first{what}",
                                piece_name(&after, sq)
                            ),
                            clause,
                        )
                    } else if let Some(r) = self.exposed_by_part(so_far, i, pi, sq, &what) {
                        r
                    } else {
                        illegal(
                            "not-allowed",
                            format!("{} may not be removed here{what}", piece_name(&after, sq)),
                            clause,
                        )
                    }
                }
                _ => illegal(
                    "not-enemy",
                    format!(
                        "{} is not an enemy piece, and only an enemy piece is removed{what}",
                        piece_name(&after, sq)
                    ),
                    clause,
                ),
            },
            PartAction::Gate { .. } => illegal(
                "not-allowed",
                format!("no piece may be dropped on {sq_name} in this turn{what}"),
                clause,
            ),
        };
        // A part that is not there at all in this turn (its condition does not hold).
        if part.condition.is_some() && !legal.iter().any(|m| same_start(m) && m.part(i) != 0) {
            return illegal(
                "part-not-due",
                format!(
                    "{} has no later part here: `{shown}` only follows when its condition holds",
                    movetext::to_text(self, so_far)
                ),
                rules.citation(&part.cite),
            );
        }
        r
    }

    /// Where the turn `so_far` with its `i`th later part (part `pi` of the turn) acting on `sq`
    /// would leave a royal of the mover's attacked or facing the other side's: the ruling that
    /// says so, with the part quoted (`what`).
    fn exposed_by_part(&self, so_far: Move, i: usize, pi: usize, sq: usize, what: &str) -> Option<Ruling> {
        let turn = so_far.with_part(i, super::part_slot(self.part_choice(pi)?, sq));
        self.exposure(turn, what)
    }

    /// Why `first` followed by the letter (and square) `suffix` is not a legal drop on the square
    /// the move left.
    fn explain_gate(&self, first: Move, suffix: &str) -> Ruling {
        let rules = self.rules().clone();
        let b = &rules.board;
        let us = self.side_to_move();
        let player = &rules.players[us.index()].name;
        let Some(pi) = rules.turn.iter().position(|p| matches!(p.action, PartAction::Gate { .. })) else {
            return illegal(
                "unreadable-move",
                format!("`{suffix}` after the move is not part of a turn here"),
                None,
            );
        };
        let part = &rules.turn[pi];
        let clause = rules.citation(&part.cite);
        let what = format!(" (`{}`)", written(&part.text));
        let letter = suffix.chars().next().unwrap_or('?');
        let PartAction::Gate { kinds, unmoved } = &part.action else {
            unreachable!("found as a gate")
        };
        let Some(kind) = kinds.iter().copied().find(|k| rules.kind(*k).letter.eq_ignore_ascii_case(&letter)) else {
            let names: Vec<String> = kinds
                .iter()
                .map(|k| rules.kind(*k).letter.to_ascii_lowercase().to_string())
                .collect();
            return illegal(
                "unreadable-move",
                format!(
                    "`{letter}` names no piece that may enter this way; the letters are {}",
                    names.join(", ")
                ),
                clause,
            );
        };
        let name = rules.kind(kind).name.to_lowercase();
        if !self.hand(us).iter().any(|(k, n)| *k == kind && *n > 0) {
            return illegal("not-in-hand", format!("{player} has no {name} in hand{what}"), clause);
        }
        let from = first.from as usize;
        if part.within.as_ref().is_some_and(|z| !z[us].contains(from)) {
            return illegal("outside-zone", format!("no {name} may enter on {}{what}", b.name(from)), clause);
        }
        if *unmoved && !self.virgin_squares().contains(&from) {
            return illegal(
                "piece-has-moved",
                format!(
                    "{} has moved before, so nothing may enter on {}{what}",
                    piece_name(self, from),
                    b.name(from)
                ),
                clause,
            );
        }
        illegal("not-allowed", format!("no {name} may enter after this move{what}"), clause)
    }

    /// A legal turn in words: its move, then each later part.
    fn describe_turn(&self, m: Move) -> String {
        let rules = self.rules();
        let b = &rules.board;
        let first = m.first_part();
        let mut s = match first.kind {
            MoveKind::Pass => format!("{} passes", rules.players[self.side_to_move().index()].name),
            _ => self.describe(first),
        };
        let mut after = self.clone();
        after.play_unchecked(first);
        for i in 0..super::MAX_PARTS {
            let Some((pi, kind, sq)) = self.part_of(m, i) else { continue };
            let sq_name = b.name(sq);
            match &rules.turn[pi].action {
                PartAction::Place { kind, .. } => {
                    s.push_str(&format!(", then the {} goes to {sq_name}", rules.kind(*kind).name.to_lowercase()));
                }
                PartAction::Remove { .. } => s.push_str(&format!(", then {} is removed", piece_name(&after, sq))),
                PartAction::Gate { .. } => {
                    let k = kind.map(|k| rules.kind(k).name.to_lowercase()).unwrap_or_default();
                    s.push_str(&format!(", then a {k} from the hand enters on {sq_name}"));
                }
            }
        }
        s
    }
}

/// A part's text without its citation.
fn written(text: &str) -> &str {
    match text.rfind('[') {
        Some(i) if text.trim_end().ends_with(']') => text[..i].trim_end(),
        _ => text,
    }
}
