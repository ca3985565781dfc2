//! End conditions evaluated on a position, from the compiled end rules ([`crate::compile::CEnd`]):
//! what the game record's [`super::Game`] asks for every condition but those about its history
//! (repetition, checking throughout), and what perft asks with `--stop-at-end`, where a position
//! that an automatic end rule ends is a leaf with no children.

use super::bits::Bits;
use super::position::{NO_SQ, Pos};
use super::{Move, MoveKind};
use crate::compile::CCond;
use crate::model::*;

/// What is known of the side to move's legal moves where the end rules are judged (`None`: not
/// yet known): whether it has one, and whether it has one other than a pass, or the moves
/// themselves to tell that from when asked. Perft knows it at most nodes from the moves it
/// generated anyway; judged alone, "neither side can move" generated them again at every node.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Known<'a> {
    pub(super) legal: Option<bool>,
    pub(super) moving: Option<bool>,
    pub(super) listed: Option<&'a [Move]>,
}

impl Known<'_> {
    /// Known from the number of legal moves, `n`, where a pass (`passes`: the rules allow one)
    /// counts once at most: a pass and another move make two.
    pub(super) fn from_count(n: u64, passes: bool) -> Known<'static> {
        let moving = match (n, passes) {
            (0, _) => Some(false),
            // The pass, or one other move.
            (1, true) => None,
            _ => Some(true),
        };
        Known {
            legal: Some(n > 0),
            moving,
            listed: None,
        }
    }

    /// Known from the legal moves themselves.
    pub(super) fn from_moves(moves: &[Move]) -> Known<'_> {
        Known {
            legal: Some(!moves.is_empty()),
            moving: None,
            listed: Some(moves),
        }
    }
}

impl<B: Bits> Pos<B> {
    /// Does the condition hold here? History conditions never do (the game decides them).
    /// `legal` caches whether the side to move has a legal move.
    pub fn cond_holds(&self, c: &CCond<B>, legal: &mut Option<bool>) -> bool {
        let mut known = Known {
            legal: *legal,
            ..Known::default()
        };
        let holds = self.cond_holds_with(c, &mut known, &mut Vec::new());
        *legal = known.legal;
        holds
    }

    /// [`Pos::cond_holds`] with what is known of the side to move's moves, and a scratch buffer
    /// for move generation.
    fn cond_holds_with(&self, c: &CCond<B>, known: &mut Known<'_>, buf: &mut Vec<Move>) -> bool {
        let t = &*self.t;
        let stm = self.stm;
        let mover = self.mover();
        match c {
            CCond::NoLegalMove => !*known.legal.get_or_insert_with(|| self.count_legal(buf) > 0),
            CCond::InCheck => self.in_check(),
            CCond::History => false,
            CCond::Counter { index, plies } => self.counters.get(*index).is_some_and(|c| *c as u32 >= *plies),
            CCond::Material(pats, most) => {
                // Most positions have more pieces than any pattern: tell that by one count.
                if (self.side_bb[0] | self.side_bb[1]).count() > *most {
                    return false;
                }
                // Each side's pieces by kind, counted once from the few pieces left and compared
                // whole with each pattern.
                let mut have = [[0u8; MAX_KINDS]; 2];
                for sq in (self.side_bb[0] | self.side_bb[1]).iter() {
                    if let Some((k, side)) = self.piece_at(sq) {
                        let n = &mut have[side.index()][k.0 as usize];
                        *n = n.saturating_add(1);
                    }
                }
                pats.iter().any(|(p, same)| {
                    let fits = (have[0] == p[0] && have[1] == p[1]) || (have[0] == p[1] && have[1] == p[0]);
                    fits && same.is_none_or(|k| {
                        let bb = self.kind_bb[k.0 as usize] & t.board_mask;
                        (bb & t.dark).is_empty() || (bb & !t.dark).is_empty()
                    })
                })
            }
            CCond::NoneOf(kinds) => kinds.iter().all(|k| self.kind_bb[k.0 as usize].is_empty()),
            CCond::Passes(n) => self.passes as u32 >= *n,
            CCond::InARow { n, exact: false, dirs } => self.has_run(mover, *n, dirs),
            CCond::InARow { n, exact: true, dirs } => self.run_start(mover, *n, true, dirs).is_some(),
            CCond::Captured(k) => match k {
                None => self.last_captured != 0,
                Some(k) => self.last_captured >> k.0 & 1 == 1,
            },
            CCond::NoneLeft(k) => match k {
                None => self.side_bb[stm.index()].is_empty(),
                Some(k) => self.pieces(stm, *k).is_empty(),
            },
            CCond::Connects { zones, need } => self.connection_of(mover, zones, *need).is_some(),
            CCond::NeitherCanMove => {
                let listed = known.listed;
                let moving = known.moving.get_or_insert_with(|| match listed {
                    Some(moves) => moves.iter().any(|m| m.kind != MoveKind::Pass),
                    None => self.can_move(stm, buf),
                });
                !*moving && !self.can_move(mover, buf)
            }
            CCond::KindIn(k, zone) => (self.pieces(mover, *k) & zone[mover.index()]).any(),
            CCond::Compare { count, whose, op, value } => op.holds(self.count_of(count, whose.side(stm, mover)), *value),
            CCond::AllConnected { whose, next_to } => self.all_connected(whose.side(stm, mover), next_to),
            CCond::Ring { whose, edge } => self.surrounds(whose.side(stm, mover), *edge),
            CCond::During(mask) => mask >> self.phase & 1 == 1,
            CCond::RoyalsFacing(dirs) => {
                let occ = self.occ();
                let theirs = self.royals(Side::SECOND);
                self.royals(Side::FIRST).iter().any(|r| {
                    dirs.iter()
                        .any(|&d| t.first_blocker(d as usize, r, occ).is_some_and(|b| theirs.has(b)))
                })
            }
        }
    }

    /// The value of a compiled count for `side`.
    pub(crate) fn count_of(&self, c: &crate::compile::CCount<B>, side: Side) -> i64 {
        match c {
            crate::compile::CCount::Declared(i) => self.tallies[side.index()][*i] as i64,
            crate::compile::CCount::Pieces { kind, zone } => {
                let mut own = self.side_bb[side.index()] & zone[side.index()];
                if let Some(k) = kind {
                    own &= self.kind_bb[k.0 as usize];
                }
                own.count() as i64
            }
        }
    }

    /// Do `side`'s pieces enclose a cell: is some cell cut off from the board's edge (`edge`) by
    /// a loop of them, whatever stands on it (nothing, an enemy, or one of their own)?
    pub(crate) fn surrounds(&self, side: Side, edge: B) -> bool {
        let t = &*self.t;
        let own = self.side_bb[side.index()];
        let open = t.board_mask & !own;
        let reached = flood(edge & open, open, &t.adjacency, B::EMPTY);
        if (open & !reached).any() {
            return true;
        }
        // A loop around own stones only: an inner stone has no empty or enemy neighbour left to
        // reach the edge through, so some stone off the edge has only own neighbours (the six
        // around it are a ring; a bigger blob has one such stone at least).
        (own & !edge).iter().any(|s| (t.adjacency[s] & !own).is_empty())
    }

    /// Is every piece of `side` in one group, each next to another (`next_to`, per square)?
    pub(crate) fn all_connected(&self, side: Side, next_to: &[B]) -> bool {
        let own = self.side_bb[side.index()];
        let Some(first) = own.iter().next() else { return true };
        flood(B::bit(first), own, next_to, B::EMPTY) == own
    }

    /// Has `side` a move other than a pass (were it to move here)? `buf` is scratch space.
    fn can_move(&self, side: Side, buf: &mut Vec<Move>) -> bool {
        buf.clear();
        if side == self.stm {
            self.legal_moves(buf);
        } else {
            self.turned(side).legal_moves(buf);
        }
        buf.iter().any(|m| m.kind != MoveKind::Pass)
    }

    /// This position with `side` to move (a null move when it is not: no en-passant square).
    pub(crate) fn turned(&self, side: Side) -> Pos<B> {
        let mut other = self.clone();
        if side != self.stm {
            other.stm = side;
            other.hash ^= self.t.z_side;
            other.ep = B::EMPTY;
            other.ep_victim = NO_SQ;
        }
        other
    }

    /// Is there a run of at least `n` of `side`'s pieces along one of `dirs`? Set-wise where the
    /// board states each ray as a few whole-set shifts ([`crate::compile::RayShift`]): `n - 1`
    /// shifts a direction, where a walk from every piece costs a loop per piece (connect four asks
    /// at every node of a perft with end rules).
    fn has_run(&self, side: Side, n: u32, dirs: &[(u8, u8)]) -> bool {
        let own = self.side_bb[side.index()];
        if own.count() < n {
            return false;
        }
        for &(d, _) in dirs {
            let Some(ray) = &self.t.ray_shifts[d as usize] else {
                return self.run_start(side, n, false, dirs).is_some();
            };
            // Pieces that start a run of k along the ray, k = 1, 2, … n.
            let mut starts = own;
            for _ in 1..n {
                starts = own & ray.back(starts);
                if starts.is_empty() {
                    break;
                }
            }
            if starts.any() {
                return true;
            }
        }
        false
    }

    /// Where a run of `n` (exactly `n`, when `exact`) of `side`'s pieces along one of `dirs`
    /// (pairs of a ray direction and its reverse) starts: (square, direction) of the first found.
    fn run_start(&self, side: Side, n: u32, exact: bool, dirs: &[(u8, u8)]) -> Option<(usize, u8)> {
        let t = &*self.t;
        let own = self.side_bb[side.index()];
        if own.count() < n {
            return None;
        }
        for s in own.iter() {
            for &(d, rev) in dirs {
                let back = t.next[rev as usize][s];
                if back != NO_SQ && own.has(back as usize) {
                    continue; // not where a run starts
                }
                let next = &t.next[d as usize];
                let mut len = 1;
                let mut cur = next[s];
                while cur != NO_SQ && own.has(cur as usize) {
                    len += 1;
                    cur = next[cur as usize];
                }
                if len == n || (!exact && len > n) {
                    return Some((s, d));
                }
            }
        }
        None
    }

    /// A run of `n` (exactly `n`, when `exact`) of `side`'s pieces along one of `dirs`: the squares
    /// of the first one found.
    pub fn line(&self, side: Side, n: u32, exact: bool, dirs: &[(u8, u8)]) -> Option<Vec<usize>> {
        let (s, d) = self.run_start(side, n, exact, dirs)?;
        let own = self.side_bb[side.index()];
        let mut run = vec![s];
        let mut cur = self.t.next[d as usize][s];
        while cur != NO_SQ && own.has(cur as usize) {
            run.push(cur as usize);
            cur = self.t.next[d as usize][cur as usize];
        }
        Some(run)
    }

    /// A chain of `side`'s adjacent pieces touching at least `need` of the zones (each given per
    /// side): its squares, if there is one.
    pub fn connection_of(&self, side: Side, zones: &[[B; MAX_SIDES]], need: usize) -> Option<Vec<usize>> {
        let s = side.index();
        if let ([a, b], 2) = (zones, need) {
            return self.connection(side, a[s], b[s]);
        }
        let t = &*self.t;
        let own = self.side_bb[side.index()];
        let touching = zones.iter().fold(B::EMPTY, |u, z| u | z[s]);
        let mut seen = B::EMPTY;
        for start in (own & touching).iter() {
            if seen.has(start) {
                continue;
            }
            let reached = flood(B::bit(start), own, &t.adjacency, B::EMPTY);
            seen |= reached;
            if zones.iter().filter(|z| (z[s] & reached).any()).count() >= need {
                return Some(reached.iter().collect());
            }
        }
        None
    }

    /// A chain of `side`'s adjacent pieces from zone `a` to zone `b`: its squares (the first in
    /// `a`, the last in `b`), if there is one.
    pub fn connection(&self, side: Side, a: B, b: B) -> Option<Vec<usize>> {
        let t = &*self.t;
        let own = self.side_bb[side.index()];
        // From every piece in `a` at once, stopping as soon as one in `b` is reached.
        let reached = flood(own & a, own, &t.adjacency, b);
        let end = (reached & b).iter().next()?;
        // That flood may hold other chains too: the chain that connects is the one through the
        // piece it reached in `b`, and only it. Listed from a piece in `a` to the piece in `b`, the
        // rest between in square order.
        let chain = flood(B::bit(end), own, &t.adjacency, B::EMPTY);
        let first = (chain & a).iter().next()?;
        let mut squares = vec![first];
        squares.extend(chain.iter().filter(|&x| x != first && x != end));
        if end != first {
            squares.push(end);
        }
        Some(squares)
    }

    /// Does an automatic end rule hold here (history conditions left out)?
    pub fn ended(&self) -> bool {
        self.ended_given(Known::default(), &mut Vec::new())
    }

    /// [`Pos::ended`] with a scratch buffer for move generation, where what the side to move can
    /// do may be known already.
    pub(super) fn ended_given(&self, mut known: Known<'_>, buf: &mut Vec<Move>) -> bool {
        // Among more than two players, the sides put out one by one: over when all have places.
        if self.many() && self.all_placed() {
            return true;
        }
        // Rules that ask for the game's history, or for no legal move where one is known, are
        // passed over without judging a condition (perft asks at every node).
        self.t.ends.iter().any(|e| {
            e.automatic
                && e.judged_alone
                && !(e.no_legal_move && known.legal == Some(true))
                && e.conds.iter().all(|c| self.cond_holds_with(c, &mut known, buf))
        })
    }

    /// Perft where a position an automatic end rule ends is a leaf with no children.
    pub fn perft_stop(&mut self, depth: u32) -> u64 {
        self.perft_with::<true>(depth)
    }
}

/// The squares of `within` reached from `from` (on `within`) by steps to a square of `next_to`
/// (per square), `from` included; it stops early once it reaches a square of `until`.
fn flood<B: Bits>(from: B, within: B, next_to: &[B], until: B) -> B {
    let mut reached = from;
    let mut frontier = from;
    while frontier.any() && (reached & until).is_empty() {
        let mut grow = B::EMPTY;
        for s in frontier.iter() {
            grow |= next_to[s];
        }
        frontier = grow & within & !reached;
        reached |= frontier;
    }
    reached
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Inner, Position};

    /// Compares the set-wise and the walking test of every in-a-row condition of `p`'s rules, for
    /// every length to 6, both sides and each direction alone; how many comparisons were made.
    fn compare<B: Bits>(p: &Pos<B>, what: &str) -> usize {
        let mut checked = 0;
        for c in p.t.ends.iter().flat_map(|e| e.conds.iter()) {
            let CCond::InARow { dirs, .. } = c else { continue };
            for side in [Side::FIRST, Side::SECOND] {
                for n in 1..=6 {
                    for d in 0..dirs.len() {
                        let one = &dirs[d..=d];
                        let walked = p.run_start(side, n, false, one).is_some();
                        assert_eq!(p.has_run(side, n, one), walked, "{what}: a run of {n}, direction {d}");
                        checked += 1;
                    }
                }
            }
        }
        checked
    }

    /// Whether an automatic rule ends the game here: as `ended_given` tells it, given the legal
    /// moves `moves` (as perft knows them: listed, and counted only), and judging every condition
    /// of every rule (what it did before it passed rules over).
    fn ended_both_ways<B: Bits>(p: &Pos<B>, moves: &[Move]) -> (bool, bool) {
        let (mut buf, mut known) = (Vec::new(), Known::default());
        let all =
            p.t.ends
                .iter()
                .any(|e| e.automatic && e.conds.iter().all(|c| p.cond_holds_with(c, &mut known, &mut buf)));
        let listed = p.ended_given(Known::from_moves(moves), &mut buf);
        let counted = p.ended_given(Known::from_count(moves.len() as u64, p.t.pass), &mut buf);
        assert_eq!(listed, counted, "ended, the moves listed and only counted");
        (listed, all)
    }

    /// Passing over the rules that ask for history, or for no legal move where one is known, and
    /// taking whether a side can move from the moves perft generated, changes no answer: at every
    /// position of random games to their end, with the moves known.
    #[test]
    fn rules_passed_over_could_not_have_held() {
        use rand_chacha::ChaCha8Rng;
        use rand_chacha::rand_core::{RngCore, SeedableRng};
        let x = crate::sim::tests::engine("xiangqi").start();
        let Inner::Medium(p) = &x.inner else {
            panic!("xiangqi is on 90 squares")
        };
        let flags = |reason: &str| {
            let i = x.rules().end_rules.iter().position(|r| r.reason == reason).expect(reason);
            (p.t.ends[i].judged_alone, p.t.ends[i].no_legal_move)
        };
        assert_eq!(flags("checkmate"), (true, true));
        assert_eq!(flags("perpetual-check"), (false, false));
        assert_eq!(flags("move-limit"), (true, false));
        let (mut ended, mut othello_ended, mut forced_passes) = (0, 0, 0);
        for name in ["chess", "xiangqi", "connect-four", "antichess", "three-check", "othello"] {
            let e = crate::sim::tests::engine(name);
            for seed in 0..8 {
                let mut rng = ChaCha8Rng::seed_from_u64(seed);
                let mut pos: Position = e.start();
                for _ in 0..400 {
                    let moves = pos.legal_moves();
                    let (fast, full) = match &pos.inner {
                        Inner::Small(p) => ended_both_ways(p, &moves),
                        Inner::Medium(p) => ended_both_ways(p, &moves),
                        Inner::Large(p) => ended_both_ways(p, &moves),
                        Inner::Huge(p) => ended_both_ways(p, &moves),
                    };
                    assert_eq!(fast, full, "{name} {}", pos.fen());
                    ended += usize::from(full);
                    if name == "othello" {
                        // A count of one with passes allowed does not tell whether it is the
                        // pass: the side to move is asked again.
                        othello_ended += usize::from(full);
                        forced_passes += usize::from(moves.len() == 1 && moves[0].kind == MoveKind::Pass);
                    }
                    if moves.is_empty() || full {
                        break;
                    }
                    pos.play_unchecked(moves[(rng.next_u32() as usize) % moves.len()]);
                }
            }
        }
        assert!(ended > 0, "some game reached an end rule");
        assert_eq!(othello_ended, 8, "every random game of Othello ends when neither side can move");
        assert!(forced_passes > 0, "some side of a random Othello game had to pass");
    }

    /// The set-wise test of a run agrees with the walk from every piece, at every position of
    /// random games of the games that ask for a run.
    #[test]
    fn runs_found_set_wise_are_the_runs_a_walk_finds() {
        use rand_chacha::ChaCha8Rng;
        use rand_chacha::rand_core::{RngCore, SeedableRng};
        let mut checked = 0;
        let mut found = 0;
        for name in ["connect-four", "tic-tac-toe", "tapatan", "go"] {
            let e = crate::sim::tests::engine(name);
            for seed in 0..6 {
                let mut rng = ChaCha8Rng::seed_from_u64(seed);
                let mut pos: Position = e.start();
                for _ in 0..120 {
                    let what = format!("{name} {}", pos.fen());
                    checked += match &pos.inner {
                        Inner::Small(p) => compare(p, &what),
                        Inner::Medium(p) => compare(p, &what),
                        Inner::Large(p) => compare(p, &what),
                        Inner::Huge(p) => compare(p, &what),
                    };
                    let moves = pos.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    let m = moves[(rng.next_u32() as usize) % moves.len()];
                    pos.play_unchecked(m);
                    found += usize::from((0..pos.rules().end_rules.len()).any(|r| pos.end_condition_holds(r, 0)));
                }
            }
        }
        assert!(checked > 10_000 && found > 0, "{checked} comparisons, {found} positions ended");
    }
}
