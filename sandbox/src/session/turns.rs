//! Turns of several parts, entered part by part. Where the ruleset's `turn` adds later parts to a
//! move (a neutral piece placed, a hole made, an enemy piece removed, a piece from the hand dropped
//! on a square the move left), the legal moves are whole turns: a click on a piece and a target that
//! begins several of them plays nothing. The session holds a [`Pending`] turn instead — the turns
//! still open — and offers the next part's choices as targets on the board (and as buttons in the
//! panel where a square alone does not say which: the kinds a hand may drop there, or leaving an
//! optional part out). Each choice narrows the turns; a part every open turn makes alike is passed
//! over; when one turn is left it is played whole, as [`Action::Play`] with its coordinates, the
//! one door every move goes through. Esc, a right-click or a click on no choice cancels it.
//!
//! While a turn is pending the board shows the position its parts so far leave
//! ([`Session::shown_position`]): a copy of the current position with the partial turn made on it
//! by the interpreter (`Position::play_unchecked`, as the generator itself makes a turn so far to
//! find the next part's choices). The game itself is not touched.

use std::borrow::Cow;

use arbiter::game::{MAX_PARTS, Move, MoveKind, Position};
use arbiter::model::{KindId, Part};
use arbiter::notation::uci;

use crate::session::{Action, Session};

/// A turn of several parts being entered.
#[derive(Clone, Debug, PartialEq)]
pub struct Pending {
    /// The legal turns still open: each begins with the move chosen and the parts chosen so far.
    pub turns: Vec<Move>,
    /// How many later parts are settled (the next part's slot, `Move::part`).
    pub done: usize,
    /// A square clicked where several choices of the next part lie (the kinds a hand may drop
    /// there): the choices shown are those on it.
    pub square: Option<usize>,
    /// A kind clicked in the hand that several choices drop (on different squares): the targets
    /// are their squares.
    pub kind: Option<KindId>,
}

impl Pending {
    /// The turn so far: the move and the parts settled, the later slots empty.
    pub fn so_far(&self) -> Move {
        (self.done..MAX_PARTS).fold(self.turns[0], |m, i| m.with_part(i, 0))
    }
}

/// One way to make the next part of the pending turn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PartOption {
    /// Its slot in the turn (`Move::part`); 0 leaves the part out.
    pub slot: u16,
    /// The square it acts on (`None`: the part left out).
    pub square: Option<usize>,
    /// The kind it drops from the hand, where the part chooses one.
    pub kind: Option<KindId>,
    /// In words: `Hawk on b1`, `d5`, `none`.
    pub label: String,
}

/// The distinct first parts of `moves`, in order.
pub fn first_parts(moves: &[Move]) -> Vec<Move> {
    let mut firsts: Vec<Move> = Vec::new();
    for m in moves {
        if !firsts.contains(&m.first_part()) {
            firsts.push(m.first_part());
        }
    }
    firsts
}

/// A part's text as the ruleset writes it, on one line (its padding before the citation closed up).
pub fn part_words(part: &Part) -> String {
    part.text.split_whitespace().collect::<Vec<_>>().join(" ")
}

impl Session {
    /// Begins the turn among `turns` (legal turns; those sharing the first one's move are kept):
    /// played at once when it is the only one, else pending until its parts are chosen.
    pub(crate) fn begin_turn(&mut self, turns: Vec<Move>) {
        let Some(&first) = turns.first() else { return };
        let turns: Vec<Move> = turns.into_iter().filter(|m| m.first_part() == first.first_part()).collect();
        self.selected = None;
        self.selected_hand = None;
        self.targets.clear();
        self.refusal = None;
        self.pending = Some(Pending {
            turns,
            done: 0,
            square: None,
            kind: None,
        });
        self.advance_turn();
    }

    /// Passes over the parts every open turn makes alike; plays the turn once one is left; else
    /// the next part's squares become the targets.
    fn advance_turn(&mut self) {
        loop {
            let Some(p) = self.pending.as_mut() else { return };
            if p.turns.len() == 1 || p.done >= MAX_PARTS {
                let m = p.turns[0];
                self.pending = None;
                let text = uci::to_text(self.game.current(), m);
                let _ = self.apply(Action::Play(text));
                return;
            }
            let slot = p.turns[0].part(p.done);
            if p.turns.iter().all(|m| m.part(p.done) == slot) {
                p.done += 1;
                continue;
            }
            break;
        }
        self.targets = self.shown_options().iter().filter_map(|o| o.square).collect();
        self.targets.sort_unstable();
        self.targets.dedup();
    }

    /// Every way to make the pending turn's next part: each square (with the kind dropped there,
    /// where the part chooses one), then leaving it out where it may be; none without a pending turn.
    pub fn part_options(&self) -> Vec<PartOption> {
        let Some(p) = &self.pending else { return Vec::new() };
        let pos = self.game.current();
        let rules = pos.rules();
        let mut out: Vec<PartOption> = Vec::new();
        for m in &p.turns {
            let slot = m.part(p.done);
            if out.iter().any(|o| o.slot == slot) {
                continue;
            }
            let (square, kind) = match pos.part_of(*m, p.done) {
                Some((_, kind, sq)) => (Some(sq), kind),
                None => (None, None),
            };
            let label = match (square, kind) {
                (Some(sq), Some(k)) => format!("{} on {}", rules.kind(k).name, rules.board.name(sq)),
                (Some(sq), None) => rules.board.name(sq),
                (None, _) => "none".to_string(),
            };
            out.push(PartOption { slot, square, kind, label });
        }
        out.sort_by_key(|o| (o.square.is_none(), o.square, o.kind.map(|k| k.0)));
        out
    }

    /// The options the board and the panel offer now: narrowed to the square or the kind clicked
    /// (leaving the part out stays offered).
    pub fn shown_options(&self) -> Vec<PartOption> {
        let Some(p) = &self.pending else { return Vec::new() };
        self.part_options()
            .into_iter()
            .filter(|o| o.square.is_none() || (p.square.is_none_or(|sq| o.square == Some(sq)) && p.kind.is_none_or(|k| o.kind == Some(k))))
            .collect()
    }

    /// The ruleset's part that the pending turn's next choice makes (its index in `Rules::turn`).
    pub fn next_part(&self) -> Option<usize> {
        let p = self.pending.as_ref()?;
        let pos = self.game.current();
        p.turns.iter().find_map(|m| pos.part_of(*m, p.done).map(|(part, _, _)| part))
    }

    /// Makes the pending turn's next part as `slot` says (0: leaves it out), if that is one of its
    /// options; the turn goes on, or is played once whole.
    pub fn pick_part(&mut self, slot: u16) {
        let Some(p) = self.pending.as_mut() else { return };
        let turns: Vec<Move> = p.turns.iter().copied().filter(|m| m.part(p.done) == slot).collect();
        if turns.is_empty() {
            return;
        }
        p.turns = turns;
        p.done += 1;
        p.square = None;
        p.kind = None;
        self.advance_turn();
    }

    /// One of the choice's options (a first part, in coordinates): the turns it begins, played
    /// at once or pending.
    pub fn pick_first(&mut self, text: &str) {
        self.choice = None;
        let pos = self.game.current().clone();
        let turns: Vec<Move> = pos
            .legal_moves()
            .into_iter()
            .filter(|m| uci::to_text(&pos, m.first_part()).eq_ignore_ascii_case(text))
            .collect();
        if turns.is_empty() {
            self.refuse(text);
            return;
        }
        self.begin_turn(turns);
    }

    /// A click on `sq` while a turn is pending: the next part's choice there, or the kinds to
    /// choose from when several lie there; a square with no choice cancels the turn, the piece
    /// that moved selected again.
    pub(crate) fn click_part(&mut self, sq: usize) {
        let kind = self.pending.as_ref().and_then(|p| p.kind);
        let mut here: Vec<PartOption> = self.part_options().into_iter().filter(|o| o.square == Some(sq)).collect();
        if here.len() > 1 && kind.is_some() {
            here.retain(|o| o.kind == kind);
        }
        match here.as_slice() {
            [] => self.cancel_pending(true),
            [one] => self.pick_part(one.slot),
            _ => {
                if let Some(p) = self.pending.as_mut() {
                    p.square = Some(sq);
                    p.kind = None;
                }
                self.targets = vec![sq];
            }
        }
    }

    /// A click on a kind in the mover's hand while a turn is pending: the next part's choice that
    /// drops it (on the square clicked, if one was), or its squares as the targets when several.
    pub(crate) fn click_part_kind(&mut self, kind: KindId) {
        let square = self.pending.as_ref().and_then(|p| p.square);
        let options: Vec<PartOption> = self
            .part_options()
            .into_iter()
            .filter(|o| o.kind == Some(kind) && square.is_none_or(|sq| o.square == Some(sq)))
            .collect();
        match options.as_slice() {
            [] => {
                let rules = self.engine.rules().clone();
                self.note = Some(format!(
                    "no {} can be dropped for this part of the turn",
                    rules.kind(kind).name.to_lowercase()
                ));
            }
            [one] => self.pick_part(one.slot),
            _ => {
                if let Some(p) = self.pending.as_mut() {
                    p.kind = Some(kind);
                    p.square = None;
                }
                self.targets = options.iter().filter_map(|o| o.square).collect();
                self.targets.sort_unstable();
                self.targets.dedup();
            }
        }
    }

    /// Drops the pending turn; with `reselect`, the piece it moved (or the kind it dropped) is
    /// selected again, with its targets, so that another target may be clicked.
    pub fn cancel_pending(&mut self, reselect: bool) {
        let Some(p) = self.pending.take() else { return };
        self.targets.clear();
        if !reselect {
            return;
        }
        let first = p.turns[0].first_part();
        match first.kind {
            MoveKind::Form(_) | MoveKind::Castle(_) => self.select(first.from as usize),
            MoveKind::Drop(_) => {
                if let Some(kind) = self.game.current().form_of_place(first) {
                    self.select_hand(kind);
                }
            }
            _ => {}
        }
    }

    /// The position the board shows: the current one, or while a turn is pending, the one its
    /// parts so far leave (made on a copy; the game is not touched).
    pub fn shown_position(&self) -> Cow<'_, Position> {
        match &self.pending {
            Some(p) => {
                let mut pos = self.game.current().clone();
                pos.play_unchecked(p.so_far());
                Cow::Owned(pos)
            }
            None => Cow::Borrowed(self.game.current()),
        }
    }

    /// The squares of the pending turn so far: where its piece came from and landed (or was
    /// dropped or placed), and each later part's square.
    pub fn pending_squares(&self) -> Vec<usize> {
        let Some(p) = &self.pending else { return Vec::new() };
        let pos = self.game.current();
        let m = p.so_far();
        let mut squares = Vec::new();
        if matches!(m.kind, MoveKind::Form(_) | MoveKind::Castle(_) | MoveKind::Swap) {
            squares.push(m.from as usize);
            squares.extend(pos.landings(m.first_part()));
        } else if !matches!(m.kind, MoveKind::Pass) {
            squares.push(m.to as usize);
        }
        squares.extend((0..p.done).filter_map(|i| pos.part_of(m, i).map(|(_, _, sq)| sq)));
        squares
    }

    /// The pending turn in words for the panel: the turn so far in coordinates, the part to
    /// choose now and the parts after it, as the ruleset writes them.
    pub fn pending_words(&self) -> Option<PendingWords> {
        let p = self.pending.as_ref()?;
        let pos = self.game.current();
        let rules = pos.rules();
        let next = self.next_part();
        let later = next.map_or(Vec::new(), |i| rules.turn.iter().skip(i + 1).map(part_words).collect());
        Some(PendingWords {
            so_far: uci::to_text(pos, p.so_far()),
            next: next.and_then(|i| rules.turn.get(i)).map(part_words).unwrap_or_default(),
            later,
        })
    }

    /// The last move's later parts: their squares (a neutral piece placed, a hole, a drop).
    pub fn last_parts(&self) -> Vec<usize> {
        let (Some(&m), positions) = (self.game.moves().last(), self.game.positions()) else {
            return Vec::new();
        };
        let Some(before) = positions.len().checked_sub(2).and_then(|i| positions.get(i)) else {
            return Vec::new();
        };
        (0..MAX_PARTS).filter_map(|i| before.part_of(m, i).map(|(_, _, sq)| sq)).collect()
    }
}

/// The pending turn in words (see [`Session::pending_words`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PendingWords {
    /// The turn so far, in coordinates (`e2e4`).
    pub so_far: String,
    /// The part to choose now, as the ruleset writes it.
    pub next: String,
    /// The parts after it.
    pub later: Vec<String>,
}
