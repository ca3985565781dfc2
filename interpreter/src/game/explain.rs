//! Rulings: why a move is legal or not, in words that name the pieces and squares involved, with
//! the reason code and the clause of the rule book. Slow on purpose — it re-runs the rules one
//! condition at a time — and used only when a person or a script asks.

use super::movetext;
use super::{Move, MoveKind, Position};
use crate::model::*;

/// Why a move is illegal.
#[derive(Clone, Debug, PartialEq)]
pub struct Illegal {
    /// Stable reason code (`royal-attacked`, `castling-through-check`, ...).
    pub code: &'static str,
    /// A sentence naming pieces and squares.
    pub message: String,
    /// The clause cited by the rule that forbids it (`FIDE 3.9.2`).
    pub clause: Option<String>,
}

/// The ruling on one move.
#[derive(Clone, Debug, PartialEq)]
pub enum Ruling {
    Legal { mv: Move, clause: Option<String>, message: String },
    Illegal(Illegal),
}

pub(super) fn piece_name(pos: &Position, sq: usize) -> String {
    let rules = pos.rules();
    // Among more than two players a piece is named with its owner's name (`green's queen on h6`).
    if rules.players.len() > 2
        && let Some((k, s)) = pos.piece_at(sq)
    {
        return format!(
            "{}'s {} on {}",
            rules.players[s.index()].name,
            rules.kind(k).name.to_lowercase(),
            rules.board.name(sq)
        );
    }
    match pos.piece_at(sq).map(|p| p.0).or_else(|| pos.neutral_at(sq)) {
        Some(k) => format!("the {} on {}", rules.kind(k).name.to_lowercase(), rules.board.name(sq)),
        None => format!("the empty square {}", rules.board.name(sq)),
    }
}

pub(super) fn illegal(code: &'static str, message: String, clause: Option<String>) -> Ruling {
    Ruling::Illegal(Illegal { code, message, clause })
}

impl Position {
    /// Rules on a move written in coordinates (`e2e4`, `e7e8q`), or as the point a piece is placed on
    /// (`D4`) or `pass` in games that place pieces; in games whose turns have several parts, the
    /// whole turn (`e2e4,e4d5`), each part in turn.
    pub fn explain(&self, text: &str) -> Ruling {
        if self.rules().roll.is_some()
            && let Some(r) = self.explain_roll(text)
        {
            return r;
        }
        if self.die_of(super::position::PASS).is_some() {
            return self.explain_race(text);
        }
        let ruling = if self.rules().turn.is_empty() {
            self.explain_one(text)
        } else {
            self.explain_turn(text)
        };
        match self.rolled() {
            Some(n) => self.with_roll_named(ruling, text, n),
            None => ruling,
        }
    }

    /// In a game of chance: the ruling on a roll (`roll:3`), or on any move before the side to
    /// move has rolled; `None` for a move after the roll, ruled on as any move.
    fn explain_roll(&self, text: &str) -> Option<Ruling> {
        let rules = self.rules();
        let roll = rules.roll.as_ref()?;
        let player = &rules.players[self.side_to_move().index()].name;
        let clause = rules.citation(&roll.cite);
        let shown: Vec<String> = roll.results.iter().map(|r| roll.show(r.0)).collect();
        let written = text.trim();
        if let Some(n) = written.strip_prefix("roll:") {
            if let Some(done) = self.roll_text() {
                return Some(illegal(
                    "rolled-already",
                    format!("{player} has rolled {done} already, and now moves by it"),
                    clause,
                ));
            }
            let found = roll.read(n).and_then(|v| roll.results.iter().position(|r| r.0 == v));
            return Some(match found {
                Some(i) => {
                    let (v, w) = roll.results[i];
                    let chance = fraction(w, roll.total());
                    Ruling::Legal {
                        mv: Move::roll(i, v),
                        clause,
                        message: format!("{player} rolls {} (`roll {}`: a chance of {chance})", roll.show(v), roll.text),
                    }
                }
                None => illegal(
                    "not-a-roll-result",
                    format!("`roll {}` shows {}, never `{n}`", roll.text, or_list(&shown)),
                    clause,
                ),
            });
        }
        if self.rolled().is_none() {
            return Some(illegal(
                "roll-first",
                format!(
                    "{player} has not rolled yet: the turn starts with `roll {}`, written roll:N (roll:{})",
                    roll.text, shown[0]
                ),
                clause,
            ));
        }
        None
    }

    /// A ruling in a position where the side to move has rolled `n`, saying so, and for a clause
    /// that goes by the roll, where the roll takes the piece.
    fn with_roll_named(&self, ruling: Ruling, text: &str, n: u32) -> Ruling {
        let rules = self.rules();
        let b = &rules.board;
        let us = self.side_to_move();
        let player = &rules.players[us.index()].name;
        let mut said = format!("{player} rolled {n}");
        let track_of = |i: usize| &rules.tracks[i];
        let written = text.trim();
        // A runner on the board: where the roll takes it along its track.
        // (A move from a square to a square, or a piece borne off: `g1off`.)
        let from = movetext::parse_text(self, written)
            .map(|mt| mt.from)
            .or_else(|| written.strip_suffix("off").and_then(|sq| b.parse_square(sq)));
        let mut detail = None;
        if let Some(from) = from
            && let Some((k, side)) = self.piece_at(from)
            && side == us
        {
            // The clause that bears off, where one does: it says the most.
            let mut runs: Vec<&Form> = rules
                .kind(k)
                .forms
                .iter()
                .filter(|f| matches!(f.primitive, Primitive::Run { .. }))
                .collect();
            runs.sort_by_key(|f| !f.bear_off);
            if let Some(f) = runs.first() {
                if let Primitive::Run { track } = f.primitive {
                    let t = track_of(track);
                    let path = &t.squares[us];
                    let piece = piece_name(self, from);
                    detail = Some(match path.iter().position(|&sq| sq == from) {
                        Some(i) => match path.get(i + n as usize) {
                            Some(&to) => format!("it takes {piece} on along `{}` to {}", t.name, b.name(to)),
                            None if f.bear_off && i + n as usize == path.len() => {
                                format!("it bears {piece} off, one square past the end of `{}`", t.name)
                            }
                            None if f.bear_off => format!(
                                "{piece} is {} from the end of `{}`: {n} takes it past, and only {} bears it off",
                                path.len() - 1 - i,
                                t.name,
                                path.len() - i
                            ),
                            None => format!("{piece} is {} from the end of `{}`: {n} takes it past", path.len() - 1 - i, t.name),
                        },
                        None => format!("{piece} is not on `{}`", t.name),
                    });
                }
            }
        } else if b.parse_square(written.rsplit('@').next().unwrap_or(written)).is_some()
            && let Some(f) = rules.kinds.iter().flat_map(|k| &k.forms).find(|f| f.by_roll.is_some())
        {
            // A piece from the hand (written as its square): the square it enters on.
            let t = track_of(f.by_roll.unwrap_or(0));
            let path = &t.squares[us];
            detail = Some(match (n as usize).checked_sub(1).and_then(|i| path.get(i)) {
                Some(&sq) => format!(
                    "a piece from the hand enters on {}, the square of `{}` it counts to",
                    b.name(sq),
                    t.name
                ),
                None => format!("no square of `{}` is {n} on", t.name),
            });
        }
        if let Some(d) = detail {
            said = format!("{said}: {d}");
        }
        match ruling {
            Ruling::Legal { mv, clause, message } => Ruling::Legal {
                mv,
                clause,
                message: format!("{message} ({said})"),
            },
            Ruling::Illegal(mut i) => {
                i.message = format!("{} ({said})", i.message);
                Ruling::Illegal(i)
            }
        }
    }

    /// Rules on a move of one part (the first part of a turn).
    pub(super) fn explain_one(&self, text: &str) -> Ruling {
        // Moves whose text is more than from and to (continuing jumps, drops, the swap) are legal
        // exactly when the generator lists them.
        if let Some(m) = movetext::find(self, text)
            && (m.legs() > 0 || matches!(m.kind, MoveKind::Drop(_) | MoveKind::Swap))
        {
            return Ruling::Legal {
                mv: m,
                clause: self.clause_of(m),
                message: self.describe(m),
            };
        }
        // A piece borne off past its track's end (`g1off`): legal when the generator lists it.
        if let Some(square) = text.trim().strip_suffix("off")
            && let Some(from) = self.rules().board.parse_square(square)
        {
            return match self
                .legal_moves()
                .into_iter()
                .find(|m| matches!(m.kind, MoveKind::BearOff(_)) && m.from as usize == from)
            {
                Some(m) => Ruling::Legal {
                    mv: m,
                    clause: self.clause_of(m),
                    message: self.describe(m),
                },
                None => illegal(
                    "cannot-bear-off",
                    format!("{} cannot be borne off now", piece_name(self, from)),
                    None,
                ),
            };
        }
        // Where one kind alone enters the board by drops, a drop is written as its square.
        let square_drop = rules_drop_letter(self.rules()).filter(|_| self.rules().board.parse_square(text.trim()).is_some());
        if let Some(letter) = square_drop
            && let Some(r) = self.explain_drop(&format!("{letter}@{}", text.trim()))
        {
            return r;
        }
        if let Some(r) = self.explain_drop(text) {
            return r;
        }
        if let Some(r) = self.explain_place(text) {
            return r;
        }
        let rules = self.rules().clone();
        let b = &rules.board;
        let Some(mt) = movetext::parse_text(self, text) else {
            return illegal(
                "unreadable-move",
                format!(
                    "`{text}` is not a move: write the from and to squares, like {}{}",
                    b.name(0),
                    b.name(b.width)
                ),
                None,
            );
        };
        let us = self.side_to_move();
        if let Some(&hole) = [mt.from, mt.to].iter().find(|&&sq| !b.has(sq)) {
            return illegal("not-a-cell", format!("{} is not a cell of this board", b.name(hole)), None);
        }
        let Some((kind, side)) = self.piece_at(mt.from) else {
            return illegal("empty-square", format!("there is no piece on {}", b.name(mt.from)), None);
        };
        if side != us {
            return illegal(
                "not-your-piece",
                format!(
                    "{} belongs to {}, and it is {}'s move",
                    piece_name(self, mt.from),
                    rules.players[side.index()].name,
                    rules.players[us.index()].name
                ),
                None,
            );
        }
        let legal = self.legal_moves();
        let same_squares: Vec<Move> = legal
            .iter()
            .copied()
            .filter(|m| m.from as usize == mt.from && m.to as usize == mt.to)
            .collect();
        if !same_squares.is_empty() {
            let promos: Vec<char> = same_squares
                .iter()
                .filter_map(|m| m.promotion())
                .map(|k| {
                    if rules.kind(k).plus {
                        '+'
                    } else {
                        rules.kind(k).letter.to_ascii_lowercase()
                    }
                })
                .collect();
            // A promoted kind with a `+` letter is promoted to with `+`, as `moves` writes it.
            let found = same_squares.iter().find(|m| match (m.promotion(), mt.promo) {
                (None, None) => true,
                (Some(k), Some('+')) => rules.kind(k).plus,
                (Some(k), Some(c)) => !rules.kind(k).plus && rules.kind(k).letter.eq_ignore_ascii_case(&c),
                _ => false,
            });
            return match found {
                Some(m) => Ruling::Legal {
                    mv: *m,
                    clause: self.clause_of(*m),
                    message: self.describe(*m),
                },
                None if mt.promo.is_none() => {
                    let clause = rules.kind(kind).promotion.as_ref().and_then(|p| rules.citation(&p.cite));
                    illegal(
                        "promotion-required",
                        format!(
                            "{} must promote on {}: add one of {}",
                            piece_name(self, mt.from),
                            b.name(mt.to),
                            promos.iter().map(|c| c.to_string()).collect::<Vec<_>>().join(", ")
                        ),
                        clause,
                    )
                }
                None => illegal(
                    "invalid-promotion",
                    format!(
                        "{} cannot promote to `{}` here; the choices are {}",
                        piece_name(self, mt.from),
                        mt.promo.unwrap_or('?'),
                        if promos.is_empty() {
                            "none".to_string()
                        } else {
                            promos.iter().map(|c| c.to_string()).collect::<Vec<_>>().join(", ")
                        }
                    ),
                    rules.kind(kind).promotion.as_ref().and_then(|p| rules.citation(&p.cite)),
                ),
            };
        }
        // Pseudo-legal but illegal: it would expose a royal.
        let pseudo: Vec<Move> = self
            .pseudo_moves()
            .into_iter()
            .filter(|m| m.from as usize == mt.from && m.to as usize == mt.to)
            .collect();
        if let Some(&m) = pseudo.first() {
            // Where captures explode: blowing up one's own royal.
            if let Some(ex) = &rules.explosion {
                let mut after = self.clone();
                after.play_unchecked(m);
                let lost: Vec<usize> = self
                    .royal_squares(us)
                    .into_iter()
                    .filter(|&r| after.piece_at(r) != self.piece_at(r) || (r == mt.from && after.piece_at(mt.to).is_none()))
                    .collect();
                if let Some(&r) = lost.first() {
                    return illegal(
                        "royal-explodes",
                        format!("capturing on {} would blow up {} with it", b.name(mt.to), piece_name(self, r)),
                        rules.citation(&ex.cite),
                    );
                }
            }
            let castle = matches!(m.kind, MoveKind::Castle(_));
            let exposed = self.exposing(m);
            if let Some(&(r, a)) = exposed.first() {
                let code = if castle { "castling-into-check" } else { "royal-attacked" };
                let clause = if castle {
                    self.castle_clause(m, |c| c.path_safe.clone())
                        .or_else(|| rules.royal_safety.clone().and_then(|c| rules.citation(&c)))
                } else {
                    rules.royal_safety.clone().and_then(|c| rules.citation(&c))
                };
                let r_name = {
                    let mut after = self.clone();
                    after.play_unchecked(m);
                    piece_name(&after, r)
                };
                return illegal(code, format!("{} would be attacked by {}", r_name, piece_name(self, a)), clause);
            }
            if let Some(&(r, e)) = self.facing_after(m).first() {
                let mut after = self.clone();
                after.play_unchecked(m);
                let clause = rules.royals_facing.as_ref().and_then(|(_, c)| rules.citation(c));
                return illegal(
                    "royals-facing",
                    format!(
                        "{} would face {} with nothing between them",
                        piece_name(&after, r),
                        piece_name(&after, e)
                    ),
                    clause,
                );
            }
        }
        if let Some(r) = self.explain_castling(kind, mt.from, mt.to) {
            return r;
        }
        if let Some(r) = self.explain_obligation(kind, mt.from, mt.to, &legal) {
            return r;
        }
        self.explain_forms(kind, mt.from, mt.to)
    }

    /// A move the clauses allow but an obligation forbids: a capture that must go on, or a move
    /// that is not a capture while one is compulsory.
    fn explain_obligation(&self, kind: KindId, from: usize, to: usize, legal: &[Move]) -> Option<Ruling> {
        let rules = self.rules().clone();
        let b = &rules.board;
        let name = piece_name(self, from);
        // The first leg of a capture that must continue.
        if let Some(&m) = legal
            .iter()
            .find(|m| m.from as usize == from && m.legs() > 1 && self.landings(**m).first() == Some(&to))
        {
            let f = self.form_of(m).map(|(k, i)| &rules.kind(k).forms[i]);
            return Some(illegal(
                "capture-must-continue",
                format!(
                    "{name} must go on capturing after {}: the whole move is {}",
                    b.name(to),
                    movetext::to_text(self, m)
                ),
                f.and_then(|f| rules.citation(&f.cite)),
            ));
        }
        let must = rules.must_capture.as_ref()?;
        let reach = rules
            .kind(kind)
            .forms
            .iter()
            .enumerate()
            .any(|(i, _)| self.clause_reach(self.side_to_move(), kind, i, from, false).contains(&to));
        let capture = legal.iter().find(|m| self.captures_of(**m) > 0)?;
        if !reach || self.piece_at(to).is_some() {
            return None;
        }
        let most = if must.most {
            " and the one that captures the most must be taken"
        } else {
            ""
        };
        Some(illegal(
            "capture-required",
            format!(
                "{name} may not move to {}: capturing is compulsory{most}, and {} captures",
                b.name(to),
                movetext::to_text(self, *capture)
            ),
            rules.citation(&must.cite),
        ))
    }

    /// Rules on a drop written `X@sq`, in a ruleset whose kind `X` drops from the hand.
    fn explain_drop(&self, text: &str) -> Option<Ruling> {
        let rules = self.rules().clone();
        let b = &rules.board;
        let (letter, square) = text.trim().split_once('@')?;
        let (kind, _) = rules.kind_by_text(letter.trim())?;
        let form = rules.kind(kind).forms.iter().find(|f| f.primitive == Primitive::Drop)?;
        let us = self.side_to_move();
        let player = &rules.players[us.index()].name;
        let what = rules.kind(kind).name.to_lowercase();
        let cite = rules.citation(&form.cite);
        let Some(sq) = b.parse_square(square.trim()) else {
            return Some(illegal(
                "unreadable-move",
                format!(
                    "`{text}` is not a drop: write the piece's letter, `@` and a square, like {}@{}",
                    rules.fen_text(kind, Side::FIRST),
                    b.name(0)
                ),
                None,
            ));
        };
        if let Some(r) = self.out_of_phase(form, &format!("{player} drops a {what}")) {
            return Some(r);
        }
        if let Some(r) = self.count_not_met(form, &format!("{player} drops a {what}")) {
            return Some(r);
        }
        if !self.hand(us).iter().any(|(k, n)| *k == kind && *n > 0) {
            return Some(illegal(
                "not-in-hand",
                format!("{player} has no {what} in hand"),
                rules.hand.as_ref().and_then(|h| rules.citation(&h.cite)),
            ));
        }
        if let Some((k, side)) = self.piece_at(sq) {
            return Some(illegal(
                "occupied",
                format!(
                    "{} is occupied by {}'s {}: a dropped piece goes on an empty square",
                    b.name(sq),
                    rules.players[side.index()].name,
                    rules.kind(k).name.to_lowercase()
                ),
                cite,
            ));
        }
        if form.within.as_ref().is_some_and(|z| !z[us].contains(sq)) {
            return Some(illegal(
                "outside-zone",
                format!("{player} may not drop a {what} on {}{}", b.name(sq), written_clause(form)),
                cite,
            ));
        }
        if let Some(k) = form.drop.no_file_with
            && (0..b.height).any(|r| self.piece_at(b.square(b.file(sq), r)) == Some((k, us)))
        {
            return Some(illegal(
                "file-has-own",
                format!(
                    "{player} already has a {} on the {} file{}",
                    rules.kind(k).name.to_lowercase(),
                    b.file_names[b.file(sq)],
                    written_clause(form)
                ),
                cite,
            ));
        }
        let pseudo = self.pseudo_moves();
        let m = pseudo
            .iter()
            .find(|m| matches!(m.kind, MoveKind::Drop(_)) && m.to as usize == sq && self.form_of_place(**m) == Some(kind));
        let Some(&m) = m else {
            return Some(illegal(
                "not-allowed",
                format!("{player} may not drop a {what} on {}{}", b.name(sq), written_clause(form)),
                cite,
            ));
        };
        if let Some(r) = self.exposure(m, "") {
            return Some(r);
        }
        if form.drop.not_giving_mate {
            return Some(illegal(
                "drop-mates",
                format!("a {what} dropped on {} would checkmate, which a drop may not do", b.name(sq)),
                cite,
            ));
        }
        Some(illegal(
            "not-allowed",
            format!("{player} may not drop a {what} on {}{}", b.name(sq), written_clause(form)),
            cite,
        ))
    }

    /// A slide as long as its line's pieces, from `from` toward `to`: the distance it must go, or
    /// the enemy piece in its way (`None` if `to` is on none of its lines).
    fn explain_counted(&self, f: &Form, from: usize, to: usize, name: &str) -> Option<Ruling> {
        let rules = self.rules();
        let b = &rules.board;
        let Primitive::Slide { dirs, .. } = &f.primitive else { return None };
        let us = self.side_to_move();
        let flip = if us == Side::FIRST { 1 } else { -1 };
        let fx = if b.hexes { flip } else { 1 };
        let cite = rules.citation(&f.cite);
        for &(dx, dy) in dirs {
            let (dx, dy) = (dx * fx, dy * flip);
            let mut line = vec![];
            let mut cur = from;
            while let Some(n) = b.offset(cur, dx, dy) {
                line.push(n);
                cur = n;
            }
            let Some(at) = line.iter().position(|&s| s == to) else { continue };
            let mut back = from;
            let mut pieces = 1;
            while let Some(n) = b.offset(back, -dx, -dy) {
                pieces += self.piece_at(n).is_some() as usize;
                back = n;
            }
            pieces += line.iter().filter(|&&s| self.piece_at(s).is_some()).count();
            let line_name = if dx == 0 {
                format!("the {} file", b.file_names[b.file(from)])
            } else if dy == 0 {
                format!("rank {}", b.rank_names[b.rank(from)])
            } else {
                "its diagonal".to_string()
            };
            if at + 1 != pieces {
                return Some(illegal(
                    "wrong-distance",
                    format!(
                        "{name} moves exactly as many squares as there are pieces on its line: {pieces} on {line_name}, not {}{}",
                        at + 1,
                        written_clause(f)
                    ),
                    cite,
                ));
            }
            if let Some(&e) = line[..at]
                .iter()
                .find(|&&s| self.piece_at(s).is_some_and(|(_, side)| side != us || !f.over_own))
            {
                return Some(illegal(
                    "blocked",
                    format!("{name} cannot pass {}{}", piece_name(self, e), written_clause(f)),
                    cite,
                ));
            }
        }
        None
    }

    /// "Not in this phase": `form` applies only in other phases than the one the game is in.
    pub(super) fn out_of_phase(&self, form: &Form, who_does: &str) -> Option<Ruling> {
        let rules = self.rules();
        let mask = form.during?;
        if mask >> self.phase() & 1 == 1 {
            return None;
        }
        let when: Vec<&str> = rules
            .phases
            .iter()
            .enumerate()
            .filter(|(i, _)| mask >> i & 1 == 1)
            .map(|(_, p)| p.name.as_str())
            .collect();
        Some(illegal(
            "not-in-phase",
            format!(
                "{who_does} only during the {} phase, and the game is in the {} phase{}",
                when.join(" or "),
                self.phase_name().unwrap_or("first"),
                written_clause(form)
            ),
            rules.citation(&form.cite),
        ))
    }

    /// "Not with this count": `form`'s `when` comparison does not hold for the side to move.
    pub(super) fn count_not_met(&self, form: &Form, who_does: &str) -> Option<Ruling> {
        let rules = self.rules();
        let crate::model::Condition::Compare { count, whose, op, value } = form.when.as_deref()? else {
            return None;
        };
        let us = self.side_to_move();
        // The checker turned a clause's `mover` into the side to move (the player making it).
        let who = whose.side(us, self.mover());
        let have = match count {
            crate::model::CountOf::Declared(i) => self.tally(who, *i),
            crate::model::CountOf::Pieces { kind, zone } => (0..rules.board.squares())
                .filter(|&s| {
                    self.piece_at(s)
                        .is_some_and(|(k, side)| side == who && kind.is_none_or(|want| want == k))
                        && zone.as_ref().is_none_or(|z| z[who].contains(s))
                })
                .count() as i64,
        };
        if op.holds(have, *value) {
            return None;
        }
        let player = &rules.players[who.index()].name;
        let what = match count {
            crate::model::CountOf::Declared(i) => format!("{player}'s count of {} is {have}", rules.counts[*i].name),
            crate::model::CountOf::Pieces { kind, zone } => format!(
                "{player} has {have} {}piece{}{}",
                kind.map_or(String::new(), |k| format!("{} ", rules.kind(k).name.to_lowercase())),
                if have == 1 { "" } else { "s" },
                if zone.is_some() { " there" } else { "" }
            ),
        };
        // The comparison as the clause writes it.
        let text = form
            .text
            .find("when ")
            .map_or("", |i| form.text[i + 5..].split([',', '[']).next().unwrap_or("").trim());
        Some(illegal(
            "count-not-met",
            format!("{who_does} only when `{text}`, and {what}{}", written_clause(form)),
            rules.citation(&form.cite),
        ))
    }

    /// Where `m` (a move, or a whole turn) would leave a royal of the mover's attacked or facing
    /// the other side's: the ruling that says which and why, `what` (the clause quoted, or
    /// nothing) after it.
    pub(super) fn exposure(&self, m: Move, what: &str) -> Option<Ruling> {
        let rules = self.rules();
        // The position after is made only for a ruling: most moves asked about expose nothing.
        let after = || {
            let mut after = self.clone();
            after.play_unchecked(m);
            after
        };
        if let Some(&(r, a)) = self.exposing(m).first() {
            let after = after();
            return Some(illegal(
                "royal-attacked",
                format!("{} would be attacked by {}{what}", piece_name(&after, r), piece_name(&after, a)),
                rules.royal_safety.clone().and_then(|c| rules.citation(&c)),
            ));
        }
        let (r, e) = *self.facing_after(m).first()?;
        let after = after();
        Some(illegal(
            "royals-facing",
            format!(
                "{} would face {} with nothing between them{what}",
                piece_name(&after, r),
                piece_name(&after, e)
            ),
            rules.royals_facing.as_ref().and_then(|(_, c)| rules.citation(c)),
        ))
    }

    pub(super) fn clause_of(&self, m: Move) -> Option<String> {
        let rules = self.rules();
        if let Some((k, i)) = self.form_of(m).or_else(|| self.placing_clause_of(m)) {
            return rules.kind(k).forms.get(i).and_then(|f| rules.citation(&f.cite));
        }
        self.castle_of(m).and_then(|(k, i)| rules.citation(&rules.kind(k).castles[i].cite))
    }

    pub(super) fn describe(&self, m: Move) -> String {
        if self.die_of(m).is_some() {
            return self.describe_race(m);
        }
        let rules = self.rules();
        let b = &rules.board;
        let player = &rules.players[self.side_to_move().index()].name;
        match m.kind {
            MoveKind::Drop(_) => {
                let k = self.form_of_place(m).map(|k| rules.kind(k).name.to_lowercase()).unwrap_or_default();
                let side_up = m
                    .promotion()
                    .map_or(String::new(), |p| format!(", {} side up,", rules.kind(p).name.to_lowercase()));
                return format!("{player} drops a {k} from the hand{side_up} on {}", b.name(m.to as usize));
            }
            MoveKind::Place(_) => {
                // A new piece: what it captures or turns as it lands, as for a move.
                let k = self.form_of_place(m).map(|k| rules.kind(k).name.to_lowercase()).unwrap_or_default();
                return format!("{player} places a {k} on {}{}", b.name(m.to as usize), self.side_effects(m));
            }
            MoveKind::Swap => {
                return format!(
                    "{player} takes over the piece on {}, which moves to {}",
                    b.name(m.from as usize),
                    b.name(m.to as usize)
                );
            }
            MoveKind::Roll(i) => {
                let shown = match (&rules.roll, self.roll_results().get(i as usize)) {
                    (Some(r), Some(&(v, _))) => r.show(v),
                    _ => m.to.to_string(),
                };
                return format!("{player} rolls {shown}");
            }
            MoveKind::BearOff(_) => return format!("{} is borne off", piece_name(self, m.from as usize)),
            _ => {}
        }
        if m.legs() > 0 || !self.jumped(m).is_empty() {
            let path: Vec<String> = self.landings(m).iter().map(|&s| b.name(s)).collect();
            let taken: Vec<String> = self.jumped(m).iter().map(|&s| piece_name(self, s)).collect();
            let mut s = format!("{} jumps to {}", piece_name(self, m.from as usize), path.join(", then "));
            if self.captures_of(m) > 0 {
                s.push_str(&format!(", capturing {}", taken.join(", ")));
            }
            if let Some(k) = m.promotion() {
                s.push_str(&format!(", and becomes a {}", rules.kind(k).name.to_lowercase()));
            }
            return s;
        }
        let mut s = format!("{} moves to {}", piece_name(self, m.from as usize), b.name(m.to as usize));
        if let Some(k) = m.promotion() {
            s.push_str(&format!(" and becomes a {}", rules.kind(k).name.to_lowercase()));
        }
        if matches!(m.kind, MoveKind::Castle(_)) {
            s = format!("{} castles to {}", piece_name(self, m.from as usize), b.name(m.to as usize));
        } else {
            s.push_str(&self.side_effects(m));
        }
        s
    }

    /// What a move of one piece does beyond its own two squares, in words: the copy it leaves
    /// (`leaving a copy`), the pieces next to it or enclosed that it captures or turns, the pieces
    /// an explosion takes (`, leaving a copy on a1, turning the stone on c3`). Empty if nothing.
    fn side_effects(&self, m: Move) -> String {
        let rules = self.rules();
        let b = &rules.board;
        let us = self.side_to_move();
        let mut after = self.clone();
        after.play_unchecked(m.first_part());
        let (from, to) = (m.from as usize, m.to as usize);
        let mut copy = false;
        let (mut taken, mut turned) = (Vec::new(), Vec::new());
        for sq in 0..b.squares() {
            if sq == to {
                continue;
            }
            match (self.piece_at(sq), after.piece_at(sq)) {
                (Some((_, side)), Some((_, now))) if sq == from && side == us && now == us => copy = true,
                (Some((_, side)), None) if sq != from && side != us => taken.push(piece_name(self, sq)),
                (Some((_, side)), None) if sq != from && side == us => {
                    taken.push(format!("its own {}", piece_name(self, sq).trim_start_matches("the ")))
                }
                (Some((_, side)), Some((_, now))) if side != us && now == us => turned.push(piece_name(self, sq)),
                _ => {}
            }
        }
        let mut s = String::new();
        if copy {
            s.push_str(&format!(", leaving a copy on {}", b.name(from)));
        }
        // Where captures explode: the piece captured, then what the blast takes, the captor too.
        let victim = self.piece_at(to).filter(|p| p.1 != us).map(|_| piece_name(self, to));
        let captor_blown = from != to && after.piece_at(to).is_none() && self.piece_at(from).is_some();
        if rules.explosion.is_some() && captor_blown {
            let mut blown = taken;
            blown.push(format!(
                "{} itself",
                piece_name(self, from).split(" on ").next().unwrap_or("the piece")
            ));
            if let Some(v) = victim {
                s.push_str(&format!(", capturing {v}"));
            }
            let last = blown.pop().unwrap_or_default();
            let list = if blown.is_empty() {
                last
            } else {
                format!("{} and {last}", blown.join(", "))
            };
            s.push_str(&format!("; the explosion removes {list}"));
            return s;
        }
        if !taken.is_empty() {
            s.push_str(&format!(", capturing {}", taken.join(", ")));
        }
        if !turned.is_empty() {
            s.push_str(&format!(", turning {}", turned.join(", ")));
        }
        s
    }

    fn castle_clause(&self, m: Move, pick: impl Fn(&Castle) -> Option<Option<String>>) -> Option<String> {
        let rules = self.rules();
        let (k, i) = self.castle_of(m)?;
        let c = &rules.kind(k).castles[i];
        pick(c).flatten().or_else(|| c.cite.clone()).and_then(|c| rules.citation(&Some(c)))
    }

    /// If `from → to` has the shape of a castling move, the condition that forbids it.
    fn explain_castling(&self, kind: KindId, from: usize, to: usize) -> Option<Ruling> {
        let rules = self.rules().clone();
        let b = &rules.board;
        let k = rules.kind(kind);
        let us = self.side_to_move();
        for c in &k.castles {
            // Along a rank, or along a file where a seat turns the back rank a quarter round.
            let (df, dr) = (b.file(to) as i32 - b.file(from) as i32, b.rank(to) as i32 - b.rank(from) as i32);
            if (df != 0 && dr != 0) || df.unsigned_abs().max(dr.unsigned_abs()) != c.distance {
                continue;
            }
            let cite = |x: &Option<Option<String>>| rules.citation(&x.clone().flatten().or_else(|| c.cite.clone()));
            let (dir, up) = (df.signum(), dr.signum());
            let castler = piece_name(self, from);
            let virgin = self.virgin_squares();
            if c.unmoved.is_some() && !virgin.contains(&from) {
                return Some(illegal(
                    "castling-rights-lost",
                    format!("{castler} has already moved, so it can no longer castle"),
                    cite(&c.unmoved),
                ));
            }
            // The partner: the farthest own partner piece along the rank in that direction.
            let mut partner = None;
            let mut between = Vec::new();
            let mut cur = from;
            while let Some(n) = b.offset(cur, dir, up) {
                if let Some((pk, ps)) = self.piece_at(n)
                    && pk == c.partner
                    && ps == us
                {
                    partner = Some(n);
                }
                cur = n;
            }
            let Some(partner) = partner else {
                return Some(illegal(
                    "castling-rights-lost",
                    format!(
                        "there is no {} on that side for {castler} to castle with",
                        rules.kind(c.partner).name.to_lowercase()
                    ),
                    cite(&c.partner_unmoved),
                ));
            };
            if c.partner_unmoved.is_some() && !virgin.contains(&partner) {
                return Some(illegal(
                    "castling-rights-lost",
                    format!(
                        "{} has already moved, so castling with it is no longer possible",
                        piece_name(self, partner)
                    ),
                    cite(&c.partner_unmoved),
                ));
            }
            let mut cur = from;
            while let Some(n) = b.offset(cur, dir, up) {
                if n == partner {
                    break;
                }
                if self.piece_at(n).is_some() {
                    between.push(n);
                }
                cur = n;
            }
            if let Some(&x) = between.first() {
                return Some(illegal(
                    "castling-path-blocked",
                    format!("{} stands between {castler} and {}", piece_name(self, x), piece_name(self, partner)),
                    cite(&c.empty_between),
                ));
            }
            if c.not_in_check.is_some()
                && let Some(&a) = self.enemy_attackers_of(from, us).first()
            {
                return Some(illegal(
                    "castling-in-check",
                    format!(
                        "castling is not allowed while {castler} is in check: it is attacked by {}",
                        piece_name(self, a)
                    ),
                    cite(&c.not_in_check),
                ));
            }
            if c.path_safe.is_some() {
                let mut cur = from;
                for step in 1..=c.distance {
                    let Some(n) = b.offset(cur, dir, up) else { break };
                    if let Some(&a) = self.enemy_attackers_of(n, us).first() {
                        let (code, how) = if step == c.distance {
                            ("castling-into-check", "onto")
                        } else {
                            ("castling-through-check", "through")
                        };
                        return Some(illegal(
                            code,
                            format!(
                                "castling {how} an attacked square {}: {} attacks it",
                                b.name(n),
                                piece_name(self, a)
                            ),
                            cite(&c.path_safe),
                        ));
                    }
                    cur = n;
                }
            }
        }
        None
    }

    /// Why no movement clause of the piece takes it from `from` to `to`.
    fn explain_forms(&self, kind: KindId, from: usize, to: usize) -> Ruling {
        let rules = self.rules().clone();
        let b = &rules.board;
        let us = self.side_to_move();
        let k = rules.kind(kind);
        let name = piece_name(self, from);
        let target = self.piece_at(to);
        if target.is_some_and(|(_, s)| s == us) {
            return illegal(
                "occupied-by-own-piece",
                format!("{} cannot move onto {}, its own side's piece", name, piece_name(self, to)),
                None,
            );
        }
        // A partner's piece is neither taken nor moved onto.
        if let Some((_, s)) = target
            && s != us
            && rules.teams.len() > s.index()
            && rules.teams[s.index()] == rules.teams[us.index()]
        {
            return illegal(
                "occupied-by-partner",
                format!(
                    "{} cannot move onto {}: {} and {} are partners, who never take each other's pieces",
                    name,
                    piece_name(self, to),
                    rules.players[us.index()].name,
                    rules.players[s.index()].name
                ),
                rules.citation(&rules.teams_cite),
            );
        }
        let virgin = self.virgin_squares();
        let beside_enemy = self.piece_at(b.square(b.file(to), b.rank(from))).is_some_and(|(_, s)| s != us);
        let mut best: Option<Ruling> = None;
        for (i, f) in k.forms.iter().enumerate() {
            // A hop reaches nothing on an empty board; it is the clause in question when the
            // target lies along one of its lines.
            if f.counted
                && let Some(r) = self.explain_counted(f, from, to, &name)
            {
                return r;
            }
            let hop_line = hop_along(b, f, us, from, to);
            let outside = f.within.as_ref().is_some_and(|z| !z[us].contains(to)) && shape_reaches(b, f, us, from, to);
            if !hop_line && !outside && !self.clause_reach(us, kind, i, from, true).contains(&to) {
                continue;
            }
            let cite = rules.citation(&f.cite);
            // The clause as written, without its citation (which the ruling carries separately).
            let written = match f.text.rfind('[') {
                Some(i) if f.text.trim_end().ends_with(']') => f.text[..i].trim_end(),
                _ => f.text.as_str(),
            };
            let rule_text = if written.is_empty() {
                String::new()
            } else {
                format!(" (`{written}`)")
            };
            if let Some(r) = self.out_of_phase(f, &format!("{name} moves this way")) {
                if best.is_none() {
                    best = Some(r);
                }
                continue;
            }
            if let Some(r) = self.count_not_met(f, &format!("{name} moves this way")) {
                if best
                    .as_ref()
                    .is_none_or(|b| matches!(b, Ruling::Illegal(i) if i.code == "wrong-start-square"))
                {
                    best = Some(r);
                }
                continue;
            }
            let r = if outside {
                illegal(
                    "outside-zone",
                    format!("{name} must stay within its zone, and {} is outside it{rule_text}", b.name(to)),
                    cite,
                )
            } else if f.from.as_ref().is_some_and(|z| !z[us].contains(from)) {
                illegal(
                    "wrong-start-square",
                    format!(
                        "{name} can move this way only from its zone, and {} is outside it{rule_text}",
                        b.name(from)
                    ),
                    cite,
                )
            } else if f.unmoved && !virgin.contains(&from) {
                illegal(
                    "piece-has-moved",
                    format!("{name} can move this way only before it has moved{rule_text}"),
                    cite,
                )
            } else if let Some(r) = hop_line
                .then(|| self.explain_screens(f, from, to, &name, &rule_text, &cite))
                .flatten()
            {
                r
            } else if hop_line && f.target == Target::Enemy && target.is_none() {
                illegal(
                    "needs-enemy-target",
                    format!("{name} may move this way only to capture, and {} is empty{rule_text}", b.name(to)),
                    cite,
                )
            } else if hop_line {
                continue;
            } else if !self.clause_reach(us, kind, i, from, false).contains(&to) {
                let blocker = lame_blocks(b, f, us, from, to)
                    .into_iter()
                    .find(|&s| self.piece_at(s).is_some())
                    .or_else(|| {
                        (0..b.squares())
                            .filter(|&s| s != from && s != to && self.piece_at(s).is_some())
                            .find(|&s| between(b, from, to, s))
                    });
                match blocker {
                    Some(x) => illegal(
                        "blocked",
                        format!(
                            "{name} cannot reach {}: {} is in the way{rule_text}",
                            b.name(to),
                            piece_name(self, x)
                        ),
                        cite,
                    ),
                    None => illegal("blocked", format!("{name} cannot reach {} from here{rule_text}", b.name(to)), cite),
                }
            } else {
                match (f.target, target) {
                    (Target::Empty, Some(_)) => illegal(
                        "needs-empty-target",
                        format!(
                            "{name} may move this way only to an empty square, and {} is taken{rule_text}",
                            b.name(to)
                        ),
                        cite,
                    ),
                    (Target::Enemy, None) => illegal(
                        "needs-enemy-target",
                        format!("{name} may move this way only to capture, and {} is empty{rule_text}", b.name(to)),
                        cite,
                    ),
                    (Target::EnPassant, _) => illegal(
                        "en-passant-unavailable",
                        format!(
                            "en passant on {} is possible only right after an enemy piece passed over it{rule_text}",
                            b.name(to)
                        ),
                        cite,
                    ),
                    _ => continue,
                }
            };
            // Prefer explanations from clauses that got furthest (not the start-zone ones).
            let rank = |r: &Ruling| match r {
                Ruling::Illegal(i) if i.code == "wrong-start-square" => 0,
                // Onto an enemy piece, the hop is the capturing clause the move tried.
                Ruling::Illegal(i) if i.code == "wrong-screen-count" => 2,
                // Beside an enemy piece on the rank it started from, the move looks like en passant.
                Ruling::Illegal(i) if i.code == "en-passant-unavailable" && beside_enemy => 2,
                _ => 1,
            };
            if best.as_ref().is_none_or(|b| rank(&r) > rank(b)) {
                best = Some(r);
            }
        }
        best.unwrap_or_else(|| {
            // Cite the piece's movement clauses: the one they share, or the first.
            let cites: Vec<&Option<String>> = k.forms.iter().map(|f| &f.cite).filter(|c| c.is_some()).collect();
            let clause = cites.first().and_then(|c| rules.citation(c));
            illegal(
                "no-such-move",
                format!("a {} cannot move from {} to {}", k.name.to_lowercase(), b.name(from), b.name(to)),
                clause,
            )
        })
    }
}

impl Position {
    /// For a hop clause that reaches `to` on an empty board but not here: how many screens stand
    /// between, against how many the clause needs.
    fn explain_screens(&self, f: &Form, from: usize, to: usize, name: &str, rule_text: &str, cite: &Option<String>) -> Option<Ruling> {
        let Primitive::Hop { screens, .. } = f.primitive else {
            return None;
        };
        let b = &self.rules().board;
        let found: Vec<usize> = (0..b.squares())
            .filter(|&s| s != from && s != to && self.piece_at(s).is_some() && between(b, from, to, s))
            .collect();
        if found.len() == screens as usize {
            return None;
        }
        let names: Vec<String> = found.iter().map(|&s| piece_name(self, s)).collect();
        let there = match names.as_slice() {
            [] => "there is none in between".to_string(),
            [one] => format!("there is only {one} in between"),
            many => format!("there are {} in between: {}", many.len(), many.join(", ")),
        };
        Some(illegal(
            "wrong-screen-count",
            format!(
                "{name} can reach {} this way only by jumping exactly {screens} piece{}, and {there}{rule_text}",
                b.name(to),
                if screens == 1 { "" } else { "s" }
            ),
            cite.clone(),
        ))
    }
}

/// Would the clause's geometry alone (no zones, nothing in the way) take a piece from `from` to `to`?
fn shape_reaches(b: &Board, f: &Form, side: Side, from: usize, to: usize) -> bool {
    let flip = if side == Side::FIRST { 1 } else { -1 };
    // Boards of hexes turn half round for the second player (a mirror would break their geometry).
    let fx = if b.hexes { flip } else { 1 };
    let ray = |dirs: &[(i32, i32)], max: Option<u32>| {
        dirs.iter().any(|d| {
            let mut cur = from;
            let mut n = 0;
            while let Some(x) = b.offset(cur, d.0 * fx, d.1 * flip) {
                n += 1;
                if max.is_some_and(|m| n > m) {
                    return false;
                }
                if x == to {
                    return true;
                }
                cur = x;
            }
            false
        })
    };
    match &f.primitive {
        Primitive::Step { dirs, distance } => dirs
            .iter()
            .any(|d| b.offset(from, d.0 * fx * *distance as i32, d.1 * flip * *distance as i32) == Some(to)),
        Primitive::Slide { dirs, max } => ray(dirs, *max),
        Primitive::Leap { offsets } => offsets.iter().any(|(o, _)| b.offset(from, o.0 * fx, o.1 * flip) == Some(to)),
        Primitive::Hop { dirs, .. } => ray(dirs, None),
        _ => false,
    }
}

/// Is `to` on one of a hop clause's lines from `from`?
fn hop_along(b: &Board, f: &Form, side: Side, from: usize, to: usize) -> bool {
    let Primitive::Hop { dirs, .. } = &f.primitive else {
        return false;
    };
    let flip = if side == Side::FIRST { 1 } else { -1 };
    // Boards of hexes turn half round for the second player (a mirror would break their geometry).
    let fx = if b.hexes { flip } else { 1 };
    dirs.iter().any(|d| {
        let mut cur = from;
        while let Some(n) = b.offset(cur, d.0 * fx, d.1 * flip) {
            if n == to {
                return true;
            }
            cur = n;
        }
        false
    })
}

/// The points that must be empty for a lame leap from `from` to `to` (the horse's leg, the
/// elephant's eye), if the clause has any for that leap.
fn lame_blocks(b: &Board, f: &Form, side: Side, from: usize, to: usize) -> Vec<usize> {
    let flip = if side == Side::FIRST { 1 } else { -1 };
    // Boards of hexes turn half round for the second player (a mirror would break their geometry).
    let fx = if b.hexes { flip } else { 1 };
    match &f.primitive {
        Primitive::Leap { offsets } => offsets
            .iter()
            .filter(|(o, _)| b.offset(from, o.0 * fx, o.1 * flip) == Some(to))
            .flat_map(|(_, blk)| blk.iter().filter_map(|p| b.offset(from, p.0 * fx, p.1 * flip)))
            .collect(),
        _ => Vec::new(),
    }
}

/// Is `s` on the straight line strictly between `a` and `c`?
fn between(b: &Board, a: usize, c: usize, s: usize) -> bool {
    let (fa, ra) = (b.file(a) as i32, b.rank(a) as i32);
    let (fc, rc) = (b.file(c) as i32, b.rank(c) as i32);
    let (fs, rs) = (b.file(s) as i32, b.rank(s) as i32);
    let cross = (fc - fa) * (rs - ra) - (rc - ra) * (fs - fa);
    cross == 0 && fs >= fa.min(fc) && fs <= fa.max(fc) && rs >= ra.min(rc) && rs <= ra.max(rc)
}

impl Position {
    /// Rules on a move that names a point alone (`D4`; `X@D4` where several kinds can be placed) or
    /// is `pass`, in a ruleset that places pieces. `None` for anything else, which the coordinate
    /// reader then rules on. The reasons come from the ruleset: `occupied` cites the placing
    /// clause, `suicide` its `forbid suicide`, `repetition` its `forbid repetition`.
    fn explain_place(&self, text: &str) -> Option<Ruling> {
        let rules = self.rules().clone();
        let b = &rules.board;
        let us = self.side_to_move();
        let player = &rules.players[us.index()].name;
        let t = text.trim();
        let legal = self.legal_moves();
        if t.eq_ignore_ascii_case("pass") {
            return Some(match legal.iter().find(|m| m.kind == MoveKind::Pass) {
                Some(&mv) => Ruling::Legal {
                    mv,
                    clause: rules.pass.clone().and_then(|c| rules.citation(&c)),
                    message: format!("{player} passes"),
                },
                None if rules.pass.is_some() && !self.exposing(super::position::PASS).is_empty() => {
                    let (r, a) = self.exposing(super::position::PASS)[0];
                    illegal(
                        "royal-attacked",
                        format!(
                            "{player} may not pass: {} would stay attacked by {}",
                            piece_name(self, r),
                            piece_name(self, a)
                        ),
                        rules.royal_safety.clone().and_then(|c| rules.citation(&c)),
                    )
                }
                None if rules.pass.is_some() && !self.facing_after(super::position::PASS).is_empty() => {
                    let (r, e) = self.facing_after(super::position::PASS)[0];
                    illegal(
                        "royals-facing",
                        format!(
                            "{player} may not pass: {} would stay facing {} with nothing between them",
                            piece_name(self, r),
                            piece_name(self, e)
                        ),
                        rules.royals_facing.as_ref().and_then(|(_, c)| rules.citation(c)),
                    )
                }
                None if rules.pass.is_some() => illegal(
                    "no-pass",
                    format!("{player} may pass only when there is no other move, and there is one"),
                    rules.pass.clone().and_then(|c| rules.citation(&c)),
                ),
                None => illegal("no-pass", "this game does not allow passing".into(), None),
            });
        }
        if t.eq_ignore_ascii_case("swap") {
            return Some(match legal.iter().find(|m| m.kind == MoveKind::Swap) {
                Some(&mv) => Ruling::Legal {
                    mv,
                    clause: rules.swap.clone().and_then(|c| rules.citation(&c)),
                    message: self.describe(mv),
                },
                None if rules.swap.is_some() => illegal(
                    "no-swap",
                    "the swap is only the second player's first move, taking over the first player's one piece".into(),
                    rules.swap.clone().and_then(|c| rules.citation(&c)),
                ),
                None => illegal("no-swap", "this game does not allow the swap (the pie rule is off)".into(), None),
            });
        }
        let (letter, square) = match t.split_once('@') {
            Some((l, s)) => (Some(l.trim()), s.trim()),
            None => (None, t),
        };
        let places = rules.kinds.iter().any(|k| k.forms.iter().any(|f| f.primitive == Primitive::Place));
        let Some(sq) = b.parse_square(square) else {
            // Not a point: in a placing game, unless it reads as a from-to move, say how to write one.
            // A file alone, where pieces fall: its column is full.
            let falls = rules.kinds.iter().any(|k| k.forms.iter().any(|f| f.falling.is_some()));
            if places && falls && b.file_names.iter().any(|f| f.eq_ignore_ascii_case(t)) {
                let cite = rules
                    .kinds
                    .iter()
                    .flat_map(|k| &k.forms)
                    .find(|f| f.falling.is_some())
                    .and_then(|f| rules.citation(&f.cite));
                return Some(illegal(
                    "file-full",
                    format!("the {t} file is full: nothing more falls into it"),
                    cite,
                ));
            }
            if places && movetext::parse_text(self, t).is_none() {
                let pass = if rules.pass.is_some() { ", or `pass`" } else { "" };
                return Some(illegal(
                    "unreadable-move",
                    format!("`{t}` is not a move: write the point to place on, like {}{pass}", b.name(0)),
                    None,
                ));
            }
            return None;
        };
        if !b.has(sq) {
            return Some(illegal("not-a-cell", format!("{} is not a cell of this board", b.name(sq)), None));
        }
        // The placing clauses of the side to move's kinds (all of them, or the one named).
        let clauses: Vec<(KindId, &Form)> = rules
            .kinds
            .iter()
            .enumerate()
            .filter(|(i, _)| letter.is_none_or(|l| l.eq_ignore_ascii_case(&rules.fen_text(KindId(*i as u8), Side::FIRST))))
            .flat_map(|(i, k)| {
                k.forms
                    .iter()
                    .filter(|f| f.primitive == Primitive::Place)
                    .map(move |f| (KindId(i as u8), f))
            })
            .collect();
        let (first_kind, first_form) = *clauses.first()?;
        let stone = |k: KindId| rules.kind(k).name.to_lowercase();
        if let Some(&mv) = legal.iter().find(|m| {
            matches!(m.kind, MoveKind::Place(_))
                && m.to as usize == sq
                && self.form_of_place(**m).is_some_and(|k| clauses.iter().any(|c| c.0 == k))
        }) {
            let kind = self.form_of_place(mv).unwrap_or(first_kind);
            let mut after = self.clone();
            after.play_unchecked(mv);
            let taken: Vec<String> = (0..b.squares())
                .filter(|&s| self.piece_at(s).is_some_and(|(_, side)| side != us) && after.piece_at(s).is_none())
                .map(|s| b.name(s))
                .collect();
            let mut message = format!("{player} places a {} on {}", stone(kind), b.name(sq));
            if !taken.is_empty() {
                message.push_str(&format!(
                    " and captures {} ({})",
                    if taken.len() == 1 {
                        "1 stone".to_string()
                    } else {
                        format!("{} stones", taken.len())
                    },
                    taken.join(", ")
                ));
            }
            let clause = clauses.iter().find(|c| c.0 == kind).and_then(|c| rules.citation(&c.1.cite));
            return Some(Ruling::Legal { mv, clause, message });
        }
        let cite = rules.citation(&first_form.cite);
        if let Some((k, side)) = self.piece_at(sq) {
            return Some(illegal(
                "occupied",
                format!(
                    "{} is occupied by {}'s {}: a {} goes on an empty {}",
                    b.name(sq),
                    rules.players[side.index()].name,
                    stone(k),
                    stone(first_kind),
                    if b.points {
                        "point"
                    } else if b.hexes {
                        "cell"
                    } else {
                        "square"
                    }
                ),
                cite,
            ));
        }
        if first_form.only_if.is_some() {
            return Some(illegal(
                "no-effect",
                format!(
                    "{player}'s {} on {} would enclose none of the opponent's pieces, and a move must{}",
                    stone(first_kind),
                    b.name(sq),
                    written_clause(first_form)
                ),
                cite,
            ));
        }
        if first_form.falling.is_some() {
            let file = b.file(sq);
            let rest = legal
                .iter()
                .find(|m| matches!(m.kind, MoveKind::Place(_)) && b.file(m.to as usize) == file);
            return Some(illegal(
                "not-resting",
                match rest {
                    Some(m) => format!(
                        "a {} in the {} file falls to {}, not {}{}",
                        stone(first_kind),
                        b.file_names[file],
                        b.name(m.to as usize),
                        b.name(sq),
                        written_clause(first_form)
                    ),
                    None => format!("the {} file is full{}", b.file_names[file], written_clause(first_form)),
                },
                cite,
            ));
        }
        if first_form.within.as_ref().is_some_and(|z| !z[us].contains(sq)) {
            return Some(illegal(
                "outside-zone",
                format!(
                    "{player} may not place a {} on {}{}",
                    stone(first_kind),
                    b.name(sq),
                    written_clause(first_form)
                ),
                cite,
            ));
        }
        match self.place_problem(first_kind, sq) {
            Some("suicide") => {
                let chain = self.chain_after_placing(sq);
                let others: Vec<String> = chain.iter().filter(|&&s| s != sq).map(|&s| b.name(s)).collect();
                let whose = if others.is_empty() {
                    "itself".to_string()
                } else {
                    format!("its chain (with {})", others.join(", "))
                };
                Some(illegal(
                    "suicide",
                    format!(
                        "{player}'s {} on {} would leave {whose} without liberties and capture nothing",
                        stone(first_kind),
                        b.name(sq)
                    ),
                    rules.suicide_forbidden.clone().and_then(|c| rules.citation(&c)),
                ))
            }
            Some("repetition") => {
                let (rule, clause) = rules.repetition_forbidden.clone().unzip();
                let what = match rule {
                    Some(RepetitionRule::Ko) => "the position before the last move (an immediate ko recapture)",
                    _ => "an earlier position of the board",
                };
                Some(illegal(
                    "repetition",
                    format!("{player}'s {} on {} would recreate {what}", stone(first_kind), b.name(sq)),
                    clause.flatten().and_then(|c| rules.citation(&Some(c))),
                ))
            }
            _ => {
                // A placement the clause gives that leaves a royal attacked or facing (a royal
                // placed where it is attacked, or where it faces the other side's).
                let placed = self
                    .pseudo_moves()
                    .into_iter()
                    .find(|m| matches!(m.kind, MoveKind::Place(_)) && m.to as usize == sq && self.form_of_place(*m) == Some(first_kind));
                if let Some(r) = placed.and_then(|m| self.exposure(m, "")) {
                    return Some(r);
                }
                Some(illegal(
                    "not-allowed",
                    format!(
                        "{player} may not place a {} on {} here{}",
                        stone(first_kind),
                        b.name(sq),
                        written_clause(first_form)
                    ),
                    cite,
                ))
            }
        }
    }

    /// The side to move's stones connected to `sq` if a stone of theirs stood there, `sq` first.
    fn chain_after_placing(&self, sq: usize) -> Vec<usize> {
        let b = &self.rules().board;
        let us = self.side_to_move();
        let mut chain = vec![sq];
        let mut i = 0;
        while i < chain.len() {
            for (dx, dy) in [(0, 1), (1, 0), (0, -1), (-1, 0)] {
                if let Some(n) = b.offset(chain[i], dx, dy)
                    && !chain.contains(&n)
                    && self.piece_at(n).is_some_and(|(_, s)| s == us)
                {
                    chain.push(n);
                }
            }
            i += 1;
        }
        chain
    }
}

/// ` (`place on empty`)`: the clause as written, without its citation, for a message.
/// The letter of the one kind that enters the board by a drop, where drops are written as their
/// square alone (no other kind is placed or dropped).
fn rules_drop_letter(rules: &Rules) -> Option<char> {
    let entering: Vec<&Kind> = rules
        .kinds
        .iter()
        .filter(|k| k.forms.iter().any(|f| matches!(f.primitive, Primitive::Place | Primitive::Drop)))
        .collect();
    match entering.as_slice() {
        [k] if k.forms.iter().any(|f| f.primitive == Primitive::Drop) => Some(k.letter),
        _ => None,
    }
}

pub(super) fn written_clause(f: &Form) -> String {
    let written = match f.text.rfind('[') {
        Some(i) if f.text.trim_end().ends_with(']') => f.text[..i].trim_end(),
        _ => f.text.as_str(),
    };
    if written.is_empty() {
        String::new()
    } else {
        format!(" (`{written}`)")
    }
}

/// `1 in 4`, `3 in 8`: a weight's chance, in lowest terms.
pub(super) fn fraction(weight: u64, total: u64) -> String {
    let g = gcd(weight, total).max(1);
    format!("{} in {}", weight / g, total / g)
}

fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 { a } else { gcd(b, a % b) }
}

/// `1, 2, 3 or 4`.
pub(super) fn or_list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} or {last}", rest.join(", ")),
    }
}
