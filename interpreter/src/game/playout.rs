//! Random playouts: uniformly random legal moves until the game can go no further, for Monte Carlo
//! search and for measuring speed. In games that capture chains, a player never fills a
//! single-point eye of its own (an empty point whose neighbours are all its own pieces) and passes
//! when nothing else is left; two passes in a row end the playout.

use rand_chacha::rand_core::RngCore;

use super::bits::Bits;
use super::position::{Pos, cell_side};
use super::{Move, Position};
use crate::compile::Gen;
use crate::model::KindId;

/// A uniform index below `n` (multiply-shift, no modulo bias worth measuring).
#[inline]
fn below(rng: &mut impl RngCore, n: usize) -> usize {
    ((rng.next_u32() as u64 * n as u64) >> 32) as usize
}

impl<B: Bits> Pos<B> {
    fn own_eye(&self, sq: usize) -> bool {
        let us = self.stm;
        self.t.neighbours[sq]
            .iter()
            .all(|&m| m == u16::MAX || (self.cells[m as usize] != 0 && cell_side(self.cells[m as usize]) == us))
    }

    /// The kind each side places, if it places one.
    fn placed_kind(&self) -> Option<KindId> {
        self.t.forms[self.stm.index()]
            .iter()
            .find(|f| matches!(f.how, Gen::Place))
            .map(|f| f.kind)
    }

    fn finish_move(&mut self, captured: bool) {
        for c in self.counters.iter_mut() {
            *c = if captured { 0 } else { c.saturating_add(1) };
        }
        if self.stm == crate::model::Side::SECOND {
            self.fullmove += 1;
        }
        self.stm = self.stm.other();
        self.hash ^= self.t.z_side;
        self.push_history();
    }

    /// A playout in a chain game, played forward without undo information. Returns the plies played.
    pub fn playout_chains(&mut self, rng: &mut impl RngCore, max_plies: usize) -> usize {
        let mut passes = 0;
        let mut plies = 0;
        self.seen.reserve(max_plies.min(4 * self.t.squares));
        self.history.reserve(max_plies.min(4 * self.t.squares));
        while passes < 2 && plies < max_plies {
            let mut played = false;
            if let Some(kind) = self.placed_kind() {
                // Candidates are the first `live` entries of the empty-point list; a rejected one
                // is swapped behind them, so every draw is uniform over those not yet rejected.
                let mut live = self.chains.as_ref().map_or(0, |c| c.empty.len());
                while live > 0 {
                    let i = below(rng, live);
                    let sq = self.chains.as_ref().map_or(0, |c| c.empty[i] as usize);
                    if !self.own_eye(sq) && self.place_problem(kind, sq).is_none() {
                        let captured = self.make_place(kind, sq);
                        self.finish_move(captured > 0);
                        played = true;
                        break;
                    }
                    live -= 1;
                    if let Some(c) = self.chains.as_mut() {
                        c.swap_empty(i, live);
                    }
                }
            }
            if played {
                passes = 0;
            } else {
                self.finish_move(false);
                passes += 1;
            }
            plies += 1;
        }
        plies
    }
}

impl Position {
    /// Plays uniformly random legal moves (see the module's note for chain games) until two passes
    /// in a row, no legal move, or `max_plies`. Returns the plies played.
    pub fn random_playout(&mut self, rng: &mut impl RngCore, max_plies: usize) -> usize {
        let chains = self.chain_game();
        if chains {
            return match &mut self.inner {
                super::Inner::Small(p) => p.playout_chains(rng, max_plies),
                super::Inner::Medium(p) => p.playout_chains(rng, max_plies),
                super::Inner::Large(p) => p.playout_chains(rng, max_plies),
            };
        }
        let mut plies = 0;
        let mut buf: Vec<Move> = Vec::with_capacity(64);
        while plies < max_plies {
            buf = self.legal_moves();
            if buf.is_empty() {
                break;
            }
            let m = buf[below(rng, buf.len())];
            self.play_unchecked(m);
            plies += 1;
        }
        let _ = buf;
        plies
    }
}
