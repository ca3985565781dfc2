//! Random playouts: uniformly random legal moves until the game can go no further, for Monte Carlo
//! search and for measuring speed. In games that capture chains, a player never fills a
//! single-point eye of its own (an empty point whose neighbours are all its own pieces) and passes
//! when nothing else is left; two passes in a row end the playout.

use std::sync::atomic::{AtomicBool, Ordering};

use rand_chacha::rand_core::RngCore;

use super::bits::Bits;
use super::chains::{Verdict, unswap};
use super::position::Pos;
use super::{Move, MoveKind, Position};
use crate::compile::Gen;
use crate::model::{KindId, Side};

/// A uniform index below `n` (multiply-shift, no modulo bias worth measuring; `n` is far below
/// 2³²): the one draw every random player and playout makes.
#[inline]
pub(crate) fn below(rng: &mut impl RngCore, n: usize) -> usize {
    ((rng.next_u32() as u64 * n as u64) >> 32) as usize
}

impl<B: Bits> Pos<B> {
    /// After a placement (or a pass, `kind` = None): counters, side to move, history; as `make` does.
    #[inline(always)]
    pub(super) fn finish_move(&mut self, kind: Option<KindId>, captured: bool) {
        for c in self.counters.iter_mut() {
            *c = c.saturating_add(1);
        }
        // As `make` keeps them: a counter rule's clock starts again on a capture or on a
        // placement of its kind.
        if kind.is_some() {
            for (i, rk) in self.t.counters.iter().enumerate() {
                if captured || *rk == kind {
                    self.counters[i] = 0;
                }
            }
        }
        self.passes = if kind.is_none() { self.passes.saturating_add(1) } else { 0 };
        self.fullmove += self.stm.0 as u64; // after the second player's move
        self.stm = self.stm.other();
        self.hash ^= self.t.z_side;
        self.push_history_inlined();
    }

    /// Makes room in the record of positions (kept under a repetition rule) for a game of up to
    /// `max_plies` more plies in a game of placements: a typical one (about 1.3 plies a point)
    /// then never grows it; longer ones do.
    #[inline]
    pub fn reserve_record(&mut self, max_plies: usize) {
        if self.t.repetition.is_some() {
            let room = max_plies.min(2 * self.t.squares);
            self.seen.reserve(self.history.len() + room);
            self.history.reserve(room);
        }
    }

    /// Each side's placing clause where a random player's ply in this chain game is a bare
    /// placement or the pass and nothing else (see [`Pos::play_random_chain_move`]): its kind,
    /// its zone, and whether that is the whole board. `None` where a ply is more, the pass is not
    /// always allowed, a clause has a condition, or the chains are not kept.
    fn bare_clauses(&self) -> Option<[(KindId, B, bool); 2]> {
        let t = &*self.t;
        // A clause placing anywhere on the board is not asked where (most are).
        let clause = |s: usize| match &t.forms[s][..] {
            [f] if f.bare_place && matches!(f.how, Gen::Place) && !f.effects => {
                Some((f.kind, f.within, (t.board_mask & !f.within).is_empty()))
            }
            _ => None,
        };
        let clauses = [clause(0)?, clause(1)?];
        let simple = t.tallies.is_empty()
            && t.phase_ends.is_empty()
            && !t.gated
            && t.pass
            && !t.pass_only_when_stuck
            && self.only_placements()
            && self.chains.is_some();
        simple.then_some(clauses)
    }

    /// Can [`Pos::playout_chains`] play a playout here: is each ply of this chain game a bare
    /// placement anywhere on the board, or the pass ([`Pos::bare_clauses`])?
    pub(super) fn playout_fits(&self) -> bool {
        self.bare_clauses().is_some_and(|c| c.iter().all(|c| c.2))
    }

    /// The kind `side` places, if it places one.
    fn placed_kind(&self, side: Side) -> Option<KindId> {
        self.t.forms[side.index()]
            .iter()
            .find(|f| matches!(f.how, Gen::Place))
            .map(|f| f.kind)
    }

    /// A playout in a chain game where [`Pos::playout_fits`], played forward without undo
    /// information: the random player's draws (as [`Pos::draw_chain_point`] draws) with one
    /// generator for both sides, until two passes in a row or `max_plies`. Returns the plies
    /// played.
    pub fn playout_chains(&mut self, rng: &mut impl RngCore, max_plies: usize) -> usize {
        let Some(mut ch) = self.chains.take() else { return 0 };
        // The loop keeps no atari flags or airless sets: the position stops tracking them (its
        // counts then rule on each surrounded point, as they do untracked).
        ch.track = false;
        self.takes = [B::EMPTY; 2];
        self.airless = [B::EMPTY; 2];
        let kinds = [self.placed_kind(Side::FIRST), self.placed_kind(Side::SECOND)];
        let mut passes = self.passes;
        let mut plies = 0;
        // Room for a typical playout (about 1.3 plies per point); longer ones grow.
        let room = max_plies.min(2 * self.t.squares);
        self.seen.reserve(self.history.len() + room);
        self.history.reserve(room);
        // Room for a refusal of every point a ply: the swaps are written, not pushed. (In the
        // list of points to rule on again, which untracked chains do not use: its room stays
        // with the tables for the next playout.)
        let mut undo = std::mem::take(&mut ch.dirty);
        undo.resize(self.t.squares + 1, 0);
        while passes < 2 && plies < max_plies {
            // What this ply captures, as `make` keeps it.
            self.last_captured = 0;
            let mut played = false;
            if let Some(kind) = kinds[self.stm.index()] {
                // Drawn as `draw_chain_point` draws, spelled out here: through it (and a loop
                // built apart for clauses that place anywhere), 19 × 19 playouts measured 3-4 %
                // slower. Candidates are the first `live` entries of the part of the empty-point
                // list that is not the mover's own eyes; a rejected one is swapped behind them,
                // so every draw is uniform over those not yet rejected. The swaps are undone
                // before the placement, which keeps the list's parts.
                let (start, mut live) = ch.drawable(self.stm.index());
                let mut k = 0;
                while live > 0 {
                    let i = below(rng, live);
                    let sq = ch.empty_at_index(start + i);
                    let verdict = self.drawn_verdict(&ch, kind, sq);
                    if let Verdict::Legal = verdict {
                        if k > 0 {
                            let (start, live) = ch.drawable(self.stm.index());
                            unswap(ch.empty_part(start, live), &undo[..k]);
                        }
                        let captured = self.place_in::<false>(&mut ch, kind, sq);
                        self.finish_move(Some(kind), captured > 0);
                        played = true;
                        break;
                    }
                    live -= 1;
                    ch.swap_drawn(start + i, start + live);
                    undo[k] = i as u16;
                    k += 1;
                }
                if !played && k > 0 {
                    let (start, live) = ch.drawable(self.stm.index());
                    unswap(ch.empty_part(start, live), &undo[..k]);
                }
            }
            if played {
                passes = 0;
            } else {
                self.finish_move(None, false);
                passes += 1;
            }
            plies += 1;
        }
        undo.clear();
        ch.dirty = undo;
        self.chains = Some(ch);
        plies
    }
}

impl<B: Bits> Pos<B> {
    /// Random players' plies in a chain game, the same draws and the same moves as
    /// [`Pos::play_random_chain_move`] played once a ply, in one loop: the side to move draws
    /// with `draws[side]` (its generator and a scratch list), until two passes in a row,
    /// `max_plies` plies, or `stop` is raised (looked at every few hundred plies). Each ply adds
    /// the stones it took from the other side to `captures`, and its move to `moves` if given.
    /// Returns the plies played and whether stopped; `None`, with nothing played, where a ply is
    /// more than a bare placement or the pass (see [`Pos::play_random_chain_move`]), the pass
    /// is not always allowed, a clause has a condition, or the chains are tracked: there the
    /// plies are played one at a time.
    pub fn random_chain_plies<R: RngCore>(
        &mut self,
        draws: &mut [(&mut R, &mut Vec<u16>); 2],
        max_plies: usize,
        captures: &mut u64,
        moves: Option<&mut Vec<Move>>,
        stop: &AtomicBool,
    ) -> Option<(usize, bool)> {
        // What `play_random_chain_move` asks at every ply, asked once: none of it changes.
        let clauses = self.bare_clauses()?;
        let squares = self.t.squares;
        let mut ch = self.chains.take()?;
        if ch.track {
            self.chains = Some(ch);
            return None;
        }
        // Room for a refusal of every point, once for the game: the swaps are written, not pushed.
        for (_, undo) in draws.iter_mut() {
            undo.clear();
            undo.resize(squares + 1, 0);
        }
        // A clause that places anywhere is not asked where: the loop is built once each way.
        let run = if clauses.iter().all(|c| c.2) {
            self.run_chain_plies::<R, true>(&mut ch, draws, clauses, max_plies, captures, moves, stop)
        } else {
            self.run_chain_plies::<R, false>(&mut ch, draws, clauses, max_plies, captures, moves, stop)
        };
        self.chains = Some(ch);
        Some(run)
    }

    /// The loop of [`Pos::random_chain_plies`], with the chains held apart as `ch`; `ANYWHERE`:
    /// both sides' clauses place anywhere on the board.
    #[allow(clippy::too_many_arguments)]
    fn run_chain_plies<R: RngCore, const ANYWHERE: bool>(
        &mut self,
        ch: &mut Box<super::chains::Chains<B>>,
        draws: &mut [(&mut R, &mut Vec<u16>); 2],
        clauses: [(KindId, B, bool); 2],
        max_plies: usize,
        captures: &mut u64,
        mut moves: Option<&mut Vec<Move>>,
        stop: &AtomicBool,
    ) -> (usize, bool) {
        let mut plies = 0;
        while plies < max_plies && self.passes < 2 {
            if plies % 512 == 511 && stop.load(Ordering::Relaxed) {
                return (plies, true);
            }
            let us = self.stm.index();
            let (kind, within, anywhere) = clauses[us];
            let (rng, undo) = &mut draws[us];
            let drawn = self.draw_chain_point::<false>(ch, *rng, (kind, within, ANYWHERE || anywhere), undo);
            // What the placement takes from the other side (its own stones, in a suicide, aside).
            let before = self.side_bb[1 - us].count();
            let (m, captured) = self.play_drawn::<false>(ch, kind, drawn);
            if captured > 0 {
                *captures += (before - self.side_bb[1 - us].count()) as u64;
            }
            if let Some(v) = moves.as_deref_mut() {
                v.push(m);
            }
            plies += 1;
        }
        (plies, false)
    }
}

impl Position {
    /// [`Pos::random_chain_plies`].
    pub fn random_chain_plies<R: RngCore>(
        &mut self,
        draws: &mut [(&mut R, &mut Vec<u16>); 2],
        max_plies: usize,
        captures: &mut u64,
        moves: Option<&mut Vec<Move>>,
        stop: &AtomicBool,
    ) -> Option<(usize, bool)> {
        match &mut self.inner {
            super::Inner::Small(p) => p.random_chain_plies(draws, max_plies, captures, moves, stop),
            super::Inner::Medium(p) => p.random_chain_plies(draws, max_plies, captures, moves, stop),
            super::Inner::Large(p) => p.random_chain_plies(draws, max_plies, captures, moves, stop),
            super::Inner::Huge(p) => p.random_chain_plies(draws, max_plies, captures, moves, stop),
        }
    }

    /// Plays a random player's moves ([`Position::random_candidates`]) until two passes in a row,
    /// no legal move, or `max_plies`. Returns the plies played. In a chain game whose plies are
    /// bare placements and the pass, in one loop ([`Pos::playout_chains`]); in any other, the
    /// moves are drawn or listed a ply at a time.
    pub fn random_playout(&mut self, rng: &mut impl RngCore, max_plies: usize) -> usize {
        let fits = match &self.inner {
            super::Inner::Small(p) => p.playout_fits(),
            super::Inner::Medium(p) => p.playout_fits(),
            super::Inner::Large(p) => p.playout_fits(),
            super::Inner::Huge(p) => p.playout_fits(),
        };
        if self.chain_game() && fits {
            return match &mut self.inner {
                super::Inner::Small(p) => p.playout_chains(rng, max_plies),
                super::Inner::Medium(p) => p.playout_chains(rng, max_plies),
                super::Inner::Large(p) => p.playout_chains(rng, max_plies),
                super::Inner::Huge(p) => p.playout_chains(rng, max_plies),
            };
        }
        self.random_playout_listed(rng, max_plies)
    }

    /// [`Position::random_playout`] a ply at a time: drawn where a ply is a bare placement or the
    /// pass, else listed.
    #[inline(never)]
    fn random_playout_listed(&mut self, rng: &mut impl RngCore, max_plies: usize) -> usize {
        let chains = self.chain_game();
        let (mut plies, mut scratch, mut legal, mut candidates) = (0, Vec::new(), Vec::new(), Vec::new());
        while plies < max_plies && !(chains && self.passes() >= 2) {
            // A chain game's ply is drawn where it can be (a bare placement, or the pass), as a
            // random player draws it; else listed.
            if chains && matches!(self.play_random_chain_move(rng, &mut scratch), super::chains::RandomPly::Played(_)) {
                plies += 1;
                continue;
            }
            // Chance rolls as likely as the roll makes each result.
            if self.rules.roll.is_some()
                && let Some(roll) = self.draw_roll(rng)
            {
                self.play_unchecked(roll);
                plies += 1;
                continue;
            }
            self.legal_moves_into(&mut legal);
            self.random_candidates(&legal, &mut candidates);
            if candidates.is_empty() {
                break;
            }
            self.play_unchecked(candidates[below(rng, candidates.len())]);
            plies += 1;
        }
        plies
    }

    /// The moves a random player chooses among, given the legal moves `legal`: all of them,
    /// except that in games that capture chains it never fills a single-point eye of its own and
    /// passes only when nothing else is left (as go programs' playouts do, so that a random game
    /// ends).
    pub fn random_candidates(&self, legal: &[Move], out: &mut Vec<Move>) {
        out.clear();
        if !self.chain_game() {
            out.extend_from_slice(legal);
            return;
        }
        out.extend(
            legal
                .iter()
                .copied()
                .filter(|&m| m.kind != MoveKind::Pass && !self.fills_own_eye(m)),
        );
        if out.is_empty() {
            out.extend(legal.iter().copied().filter(|m| m.kind == MoveKind::Pass));
        }
        if out.is_empty() {
            out.extend_from_slice(legal);
        }
    }
}
