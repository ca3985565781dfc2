//! "Can this side still win?": the question behind a `cannot win` end condition (a dead
//! position, a flag fall against a player who could not have won), answered for any ruleset from
//! its own end rules. A win for side S is a position where the first automatic end rule that holds
//! gives S the game; the question is whether any series of legal moves, both players helping,
//! reaches one.
//!
//! Three answers, never more than the work done proves:
//! - [`Winnability::CannotWin`]: proved, by the rules alone (no end rule can give S the game), by
//!   a static argument about pieces that can never move again, or by visiting every position
//!   reachable from here;
//! - [`Winnability::CanWin`]: a line of legal moves that ends in S's win (a helpmate);
//! - [`Winnability::Unknown`]: the bounds ([`Bounds`]) ran out first, or the rules have a kind of
//!   end the search cannot judge (a count by area, a win decided by the game's history).
//!
//! Invariants: the answer depends on the position and the bounds only; every search is bounded in
//! nodes and depth, so no ruleset makes it loop; positions are told apart by their pieces, side to
//! move, unmoved pieces and en-passant mark (64-bit Zobrist keys; a collision could hide a
//! position, as in every transposition table). The search ignores end rules about the game's
//! history (repetition, move counters): they end games in draws, and the question asks what the
//! moves allow.
//!
//! How: (1) the rules — no automatic end rule gives S the game; (2) a static proof where every
//! end rule that gives S the game asks for the loser `in check`: pieces that cannot move now and
//! never will (their blockers cannot move either, nothing can come to capture them or be captured
//! by them) wall off the board; if no square the loser's royal can ever reach can be attacked by a
//! piece of S from anywhere that piece can reach, S can never give check; (3) a short helpmate
//! search, deepening one ply at a time with a transposition table; (4) a depth-first walk through
//! every reachable position, which either finds a win or runs out of positions (a proof).

use std::collections::{HashMap, HashSet};

use super::bits::Bits;
use super::position::Pos;
use super::{Move, MoveKind};
use crate::compile::{CCond, Gen};
use crate::model::*;

/// How much work a question may cost.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bounds {
    /// Positions visited, over all phases.
    pub nodes: u64,
    /// Positions visited where the static proof finds no piece that can never move (the search
    /// is then rarely short): a game asking as it goes keeps this small.
    pub open_nodes: u64,
    /// The longest line searched, in plies.
    pub depth: u32,
    /// The deepest line of the short helpmate search (phase 3).
    pub quick_depth: u32,
    /// Where the static proof finds no piece that can never move, the most legal moves both sides
    /// together may have (each counted as if to move) for the search to run at all: with more,
    /// `open_nodes` positions are a few plies, which prove nothing.
    pub open_moves: usize,
}

impl Bounds {
    /// For a question asked once (a flag fall, a test, `explain`).
    pub const FULL: Bounds = Bounds {
        nodes: 400_000,
        open_nodes: 400_000,
        depth: 400,
        quick_depth: 6,
        open_moves: usize::MAX,
    };
    /// For a game asking as it goes, at the start of each stretch of reversible moves (`arbiter
    /// play`, scenarios, the sandbox): in full where pieces are walled in, briefly elsewhere.
    pub const GAME: Bounds = Bounds {
        nodes: 400_000,
        open_nodes: 5_000,
        depth: 400,
        quick_depth: 0,
        open_moves: 32,
    };
    /// For simulated games (`simulate`, tournaments, benchmarks): the static proof alone, no search
    /// (a random game reaches walled-in positions too often for a search to be cheap).
    pub const EVERY_PLY: Bounds = Bounds {
        nodes: 0,
        open_nodes: 0,
        depth: 0,
        quick_depth: 0,
        open_moves: 0,
    };
}

/// How "cannot win" was proved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Proof {
    /// No automatic end rule can give the player the game.
    NoWinningRule,
    /// Pieces that can never move wall the player's pieces off every square where the other
    /// side's royal could stand.
    Blocked,
    /// Every position reachable from here was visited (this many), none a win.
    Exhausted(u64),
}

/// The answer to "can this side still win?".
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Winnability {
    CannotWin(Proof),
    /// A line of legal moves from the position to a win for the side (both players helping).
    CanWin(Vec<Move>),
    /// The bounds ran out, or the rules have an end the search cannot judge.
    Unknown,
}

/// The answer and the work it took.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    pub verdict: Winnability,
    /// Positions visited by the searches.
    pub nodes: u64,
}

/// What the end rules say of a position reached in the search.
enum Judged {
    /// An end rule gives the side the game.
    Win,
    /// The game is over otherwise (a draw, the other side's win, no move and no rule).
    Over,
    /// It goes on: the legal moves.
    Open(Vec<Move>),
}

/// The end rules as the search reads them.
struct Plan {
    /// Automatic end rules whose conditions the position alone decides: (index, verdict).
    rules: Vec<(usize, Verdict)>,
    /// Some end rule that could give the side the game cannot be judged by the search (history,
    /// scoring): running out of positions then proves nothing.
    incomplete: bool,
    /// Some end rule could give the side the game.
    any_win: bool,
    /// Every end rule that could give the side the game asks for the loser, to move, in check.
    wins_need_check: bool,
}

fn plan<B: Bits>(p: &Pos<B>, rules: &Rules) -> Plan {
    let mut out = Plan {
        rules: Vec::new(),
        incomplete: false,
        any_win: false,
        wins_need_check: true,
    };
    for (ri, r) in rules.end_rules.iter().enumerate() {
        // A claimed draw is a player's choice, a flag fall the clock's: neither is a move.
        if r.verdict == Verdict::ClaimableDraw || r.conditions.contains(&Condition::FlagFallen) {
            continue;
        }
        let can_win = !matches!(r.verdict, Verdict::Draw | Verdict::NoResult);
        let judged =
            p.t.ends
                .get(ri)
                .is_some_and(|e| e.conds.iter().all(|c| !matches!(c, CCond::History | CCond::Counter { .. })))
                && !matches!(r.verdict, Verdict::ScoreByArea { .. } | Verdict::CheckerLoses);
        if can_win {
            out.any_win = true;
            // The loser is the side to move, in check.
            let loser_to_move = matches!(r.verdict, Verdict::ToMoveLoses | Verdict::MoverWins);
            if !(loser_to_move && r.conditions.contains(&Condition::InCheck)) {
                out.wins_need_check = false;
            }
            if !judged {
                out.incomplete = true;
            }
        }
        if judged {
            out.rules.push((ri, r.verdict));
        }
    }
    out
}

/// The winner a verdict names in `p` (None for a draw or no result).
fn winner<B: Bits>(v: Verdict, p: &Pos<B>) -> Option<Side> {
    let stm = p.stm;
    match v {
        Verdict::ToMoveLoses | Verdict::MoverWins => Some(stm.other()),
        Verdict::ToMoveWins | Verdict::MoverLoses => Some(stm),
        Verdict::MostPieces => {
            let (a, b) = (p.side_bb[0].count(), p.side_bb[1].count());
            match a.cmp(&b) {
                std::cmp::Ordering::Greater => Some(Side::FIRST),
                std::cmp::Ordering::Less => Some(Side::SECOND),
                std::cmp::Ordering::Equal => None,
            }
        }
        _ => None,
    }
}

struct Search<'a, B: Bits> {
    _bits: std::marker::PhantomData<B>,
    plan: &'a Plan,
    side: Side,
    nodes: u64,
    limit: u64,
    width: usize,
}

impl<B: Bits> Search<'_, B> {
    /// The position's identity for the tables: pieces, side to move, unmoved pieces, en passant.
    fn key(p: &Pos<B>) -> u64 {
        let t = &*p.t;
        let mut k = p.hash;
        for sq in p.virgin.iter() {
            k ^= t.z_virgin.get(sq).copied().unwrap_or(0);
        }
        for sq in p.ep.iter() {
            k ^= t.z_ep.get(sq).copied().unwrap_or(0).rotate_left(17);
        }
        k
    }

    fn judge(&self, p: &Pos<B>) -> Judged {
        let mut moves = Vec::new();
        p.legal_moves(&mut moves);
        let mut legal = Some(!moves.is_empty());
        for &(ri, v) in &self.plan.rules {
            if p.t.ends[ri].conds.iter().all(|c| p.cond_holds(c, &mut legal)) {
                return if winner(v, p) == Some(self.side) {
                    Judged::Win
                } else {
                    Judged::Over
                };
            }
        }
        if moves.is_empty() {
            return Judged::Over;
        }
        self.order(p, &mut moves);
        Judged::Open(moves)
    }

    /// Moves likeliest to lead to a win first (generic, by the board's geometry): captures and
    /// promotions; the winner's pieces toward the loser's royal; the loser's royal toward the
    /// board's edges and corners, its other pieces toward it (to stand in its way).
    fn order(&self, p: &Pos<B>, moves: &mut [Move]) {
        let loser = self.side.other();
        let royal = p.royals(loser).iter().next();
        let w = self.width.max(1);
        let dist = |a: usize, b: usize| {
            let (ax, ay, bx, by) = ((a % w) as i32, (a / w) as i32, (b % w) as i32, (b / w) as i32);
            (ax - bx).abs().max((ay - by).abs())
        };
        let enemy = p.side_bb[p.stm.other().index()];
        moves.sort_by_cached_key(|m| {
            let to = m.to as usize;
            if m.promo != 0 || (matches!(m.kind, MoveKind::Form(_)) && enemy.has(to)) {
                return 0;
            }
            let Some(r) = royal else { return 1 };
            if p.stm == self.side {
                1 + dist(to, r)
            } else if m.from as usize == r {
                1 + p.t.adjacency.get(to).map_or(0, |a| a.count() as i32)
            } else {
                1 + dist(to, r)
            }
        });
    }

    /// Helpmate search to `depth` plies; the line found is pushed in reverse onto `line`.
    fn helpmate(&mut self, p: &mut Pos<B>, moves: &[Move], depth: u32, tt: &mut HashMap<u64, u32>, line: &mut Vec<Move>) -> bool {
        for &m in moves {
            if self.nodes >= self.limit {
                return false;
            }
            self.nodes += 1;
            let u = p.make(m);
            let found = match self.judge(p) {
                Judged::Win => true,
                Judged::Over => false,
                Judged::Open(next) if depth > 1 => {
                    let k = Self::key(p);
                    if tt.get(&k).is_some_and(|&d| d >= depth - 1) {
                        false
                    } else {
                        let f = self.helpmate(p, &next, depth - 1, tt, line);
                        if !f && self.nodes < self.limit {
                            tt.insert(k, depth - 1);
                        }
                        f
                    }
                }
                Judged::Open(_) => false,
            };
            p.unmake(m, &u);
            if found {
                line.push(m);
                return true;
            }
        }
        false
    }

    /// Every position reachable from `p` (whose legal moves are `root`), depth first, until a win.
    fn exhaust(&mut self, p: &mut Pos<B>, root: Vec<Move>, depth: u32) -> Winnability {
        struct Frame<B: Bits> {
            moves: Vec<Move>,
            next: usize,
            came_by: Option<(Move, super::position::Undo<B>)>,
        }
        let mut seen: HashSet<u64> = HashSet::new();
        seen.insert(Self::key(p));
        let mut stack = vec![Frame::<B> {
            moves: root,
            next: 0,
            came_by: None,
        }];
        let mut cut = false;
        let mut result = None;
        while let Some(top) = stack.last_mut() {
            if top.next == top.moves.len() {
                let f = stack.pop().expect("the stack has a top");
                if let Some((m, u)) = f.came_by {
                    p.unmake(m, &u);
                }
                continue;
            }
            let m = top.moves[top.next];
            top.next += 1;
            if self.nodes >= self.limit {
                result = Some(Winnability::Unknown);
                break;
            }
            self.nodes += 1;
            let u = p.make(m);
            let k = Self::key(p);
            if !seen.insert(k) {
                p.unmake(m, &u);
                continue;
            }
            match self.judge(p) {
                Judged::Win => {
                    let mut line: Vec<Move> = stack.iter().filter_map(|f| f.came_by.map(|(m, _)| m)).collect();
                    line.push(m);
                    p.unmake(m, &u);
                    result = Some(Winnability::CanWin(line));
                    break;
                }
                Judged::Over => p.unmake(m, &u),
                Judged::Open(next) => {
                    if stack.len() as u32 >= depth {
                        // Too deep to follow: what lies beyond is not known.
                        cut = true;
                        seen.remove(&k);
                        p.unmake(m, &u);
                    } else {
                        stack.push(Frame {
                            moves: next,
                            next: 0,
                            came_by: Some((m, u)),
                        });
                    }
                }
            }
        }
        // Leave the position as it was.
        while let Some(f) = stack.pop() {
            if let Some((m, u)) = f.came_by {
                p.unmake(m, &u);
            }
        }
        match result {
            Some(Winnability::CanWin(line)) => Winnability::CanWin(shortcut(p, line)),
            Some(r) => r,
            None if cut || self.plan.incomplete => Winnability::Unknown,
            None => Winnability::CannotWin(Proof::Exhausted(seen.len() as u64)),
        }
    }
}

/// A depth-first line wanders: shorten it by jumping, from each position, to the latest position of
/// the line that one legal move reaches.
fn shortcut<B: Bits>(start: &Pos<B>, line: Vec<Move>) -> Vec<Move> {
    let mut p = start.clone();
    let mut keys = vec![Search::<B>::key(&p)];
    let mut undos = Vec::new();
    for &m in &line {
        undos.push(p.make(m));
        keys.push(Search::<B>::key(&p));
    }
    for (m, u) in line.iter().zip(&undos).rev() {
        p.unmake(*m, u);
    }
    let mut out = Vec::new();
    let mut at = 0;
    let mut moves = Vec::new();
    while at < line.len() {
        moves.clear();
        p.legal_moves(&mut moves);
        // The latest position of the line one move reaches (the line's own move at least).
        let mut best = (at + 1, line[at]);
        for &m in &moves {
            let u = p.make(m);
            let k = Search::<B>::key(&p);
            p.unmake(m, &u);
            if let Some(j) = keys.iter().rposition(|x| *x == k)
                && j > best.0
            {
                best = (j, m);
            }
        }
        let _ = p.make(best.1);
        out.push(best.1);
        at = best.0;
    }
    out
}

impl<B: Bits> Pos<B> {
    /// Could the static proof succeed here, judging by the side to move's `legal` moves alone?
    /// Not if a move captures, if a piece that may promote can move (the proof cannot bound its
    /// reach) or if every piece of the side to move can move (nothing walls the board). One pass
    /// over the moves with bit sets: a simulated game asks this on many plies.
    pub(super) fn may_be_walled_in(&self, legal: &[Move]) -> bool {
        let t = &*self.t;
        let enemy = self.side_bb[self.stm.other().index()];
        let mut movers = B::EMPTY;
        for &m in legal {
            // Most captures land on an enemy piece; the forms that may capture elsewhere (en
            // passant, jumps, enclosures) and placements are asked in full.
            let elsewhere = match m.kind {
                MoveKind::Form(fi) => t.forms[self.stm.index()]
                    .get(fi as usize)
                    .is_none_or(|f| f.target == Target::EnPassant || f.jump.is_some_and(|j| j.capturing) || f.enclose.is_some()),
                _ => true,
            };
            if enemy.has(m.to as usize) || (elsewhere && self.captures_of(m) > 0) {
                return false;
            }
            movers |= B::bit(m.from as usize);
        }
        let promotes = |s: Side, k: KindId| t.promotion[s.index()].get(k.0 as usize).is_some_and(|p| p.is_some());
        if movers.iter().any(|sq| self.piece_at(sq).is_some_and(|(k, s)| promotes(s, k))) {
            return false;
        }
        if movers.count() >= self.side_bb[self.stm.index()].count() {
            return false;
        }
        // The other side's pieces that may promote must not be able to move either.
        let other = self.stm.other();
        let occ = self.occ();
        let theirs = self.side_bb[other.index()];
        let ours = self.side_bb[self.stm.index()];
        !theirs.iter().any(|sq| {
            let Some((k, _)) = self.piece_at(sq).filter(|&(k, _)| promotes(other, k)) else {
                return false;
            };
            t.forms[other.index()]
                .iter()
                .filter(|f| f.kind == k && f.from.has(sq) && !(f.unmoved && !self.virgin.has(sq)))
                .any(|f| {
                    let to = self.form_targets(f, sq, occ) & f.within & t.board_mask;
                    match f.target {
                        Target::Empty => (to & !occ).any(),
                        Target::Enemy => (to & ours).any(),
                        Target::Any => (to & !theirs).any(),
                        // The other side has no en-passant mark to take.
                        Target::EnPassant => false,
                    }
                })
        })
    }

    /// The legal moves of both sides: `own` for the side to move, and the other side's as if it
    /// were to move.
    fn mobility(&self, own: usize) -> usize {
        let mut buf = Vec::new();
        self.turned(self.stm.other()).legal_moves(&mut buf);
        own + buf.len()
    }

    /// Can `side` still win from here? See the module documentation.
    pub(super) fn winnability(&self, rules: &Rules, side: Side, bounds: Bounds) -> Answer {
        let t = &*self.t;
        let plan = plan(self, rules);
        let answer = |verdict, nodes| Answer { verdict, nodes };
        if !plan.any_win {
            return answer(Winnability::CannotWin(Proof::NoWinningRule), 0);
        }
        if t.chains || t.hand {
            // Placements and drops make the reachable positions too many to walk.
            return answer(Winnability::Unknown, 0);
        }
        let fixed = if plan.wins_need_check && !plan.incomplete {
            match self.walled_off(side, bounds.nodes == 0 && bounds.open_nodes == 0) {
                Walls::Proved => return answer(Winnability::CannotWin(Proof::Blocked), 0),
                Walls::Fixed(f) => f,
                Walls::NotApplicable => B::EMPTY,
            }
        } else {
            B::EMPTY
        };
        let limit = if fixed.is_empty() { bounds.open_nodes } else { bounds.nodes };
        if limit == 0 {
            return answer(Winnability::Unknown, 0);
        }
        let mut p = self.clone();
        let mut s = Search::<B> {
            _bits: std::marker::PhantomData,
            plan: &plan,
            side,
            nodes: 0,
            limit,
            width: t.width,
        };
        let root = match s.judge(&p) {
            Judged::Win => return answer(Winnability::CanWin(Vec::new()), 0),
            Judged::Over => {
                let v = if plan.incomplete {
                    Winnability::Unknown
                } else {
                    Winnability::CannotWin(Proof::Exhausted(1))
                };
                return answer(v, 0);
            }
            Judged::Open(m) if fixed.is_empty() && bounds.open_moves < usize::MAX && self.mobility(m.len()) > bounds.open_moves => {
                return answer(Winnability::Unknown, 0);
            }
            Judged::Open(m) => m,
        };
        if bounds.quick_depth > 0 {
            let quick_limit = limit / 4;
            s.limit = quick_limit;
            let mut tt = HashMap::new();
            for depth in 1..=bounds.quick_depth {
                let mut line = Vec::new();
                if s.helpmate(&mut p, &root, depth, &mut tt, &mut line) {
                    line.reverse();
                    return answer(Winnability::CanWin(line), s.nodes);
                }
                if s.nodes >= quick_limit {
                    break;
                }
            }
            s.limit = limit;
        }
        let v = s.exhaust(&mut p, root, bounds.depth);
        answer(v, s.nodes)
    }

    /// The static proof: pieces that can never move (found as the largest set of pieces that have
    /// no move now and keep none whatever the other pieces do), the squares every other piece
    /// could ever reach past them, and whether a piece of `side` could attack a square the other
    /// side's royal could reach. Over-approximates reach (other movable pieces are taken off the
    /// board), so [`Walls::Proved`] is a proof; gives up on move kinds it cannot bound (hops,
    /// jumps, placements), on promotions and castling still possible.
    /// `static_only`: the caller will not search, so stop as soon as the proof fails.
    fn walled_off(&self, side: Side, static_only: bool) -> Walls<B> {
        let t = &*self.t;
        if t.swap || t.must_capture.is_some() || t.general && t.forms.iter().flatten().any(|f| f.effects) {
            return Walls::NotApplicable;
        }
        let occ = self.occ();
        // Pieces with a move now, for either side.
        let mut movers = B::EMPTY;
        let mut buf = Vec::new();
        for s in [Side::FIRST, Side::SECOND] {
            buf.clear();
            if s == self.stm {
                self.pseudo_moves(&mut buf);
            } else {
                let mut other = self.clone();
                other.stm = s;
                other.ep = B::EMPTY;
                other.ep_victim = super::position::NO_SQ;
                other.pseudo_moves(&mut buf);
            }
            for m in &buf {
                if matches!(m.kind, MoveKind::Form(_) | MoveKind::Castle(_)) {
                    movers |= B::bit(m.from as usize);
                }
            }
        }
        let mut fixed = occ & !movers;
        let forms_of = |s: Side, k: KindId| t.forms[s.index()].iter().filter(move |f| f.kind == k);
        let bounded = |f: &crate::compile::CForm<B>| matches!(f.how, Gen::Leap { .. } | Gen::Slide { .. } | Gen::Lame { .. });
        let captures = |f: &crate::compile::CForm<B>| matches!(f.target, Target::Any | Target::Enemy);
        // A royal never gives check where royals may not be left attacked and attack each other
        // alike (the same kind, leaping both ways): attacking the other royal, it would stand
        // attacked by it.
        let royal_checks = |s: Side, k: KindId| -> bool {
            if !t.royal_kinds.contains(&k) || !t.royal_safety {
                return true;
            }
            let loser = s.other();
            if self.royals(loser).iter().any(|r| self.piece_at(r).is_some_and(|(lk, _)| lk != k)) {
                return true;
            }
            let leaps = |side: Side| -> Option<Vec<B>> {
                let mut all = vec![B::EMPTY; t.squares];
                for f in forms_of(side, k).filter(|f| captures(f)) {
                    let Gen::Leap { targets } = &f.how else { return None };
                    for (x, to) in targets.iter().enumerate().take(t.squares) {
                        all[x] |= *to & f.within;
                    }
                }
                Some(all)
            };
            let (Some(a), Some(b)) = (leaps(s), leaps(loser)) else {
                return true;
            };
            // Symmetric: whenever one attacks the other, the other attacks it back.
            !(0..t.squares).all(|x| a[x].iter().all(|y| b[y].has(x)))
        };
        // Pieces that can move now and whose reach the proof cannot bound: give up before any work.
        for sq in (occ & !fixed).iter() {
            let Some((k, s)) = self.piece_at(sq) else { continue };
            if t.promotion[s.index()].get(k.0 as usize).is_some_and(|p| p.is_some())
                || (!t.castles[s.index()].is_empty() && self.virgin.has(sq))
                || forms_of(s, k).any(|f| !bounded(f))
            {
                return Walls::NotApplicable;
            }
        }
        let mut regions: Vec<(usize, B)>;
        let mut attack: [B; 2];
        // What could give check: the attacks of every piece but royals that never can.
        let mut check: [B; 2];
        loop {
            let mobile = occ & !fixed;
            regions = Vec::new();
            let mut reach = [B::EMPTY; 2];
            attack = [B::EMPTY; 2];
            check = [B::EMPTY; 2];
            // Squares a royal may never step on: attacked by an enemy piece that can never move,
            // by a leap (which nothing can block).
            let mut barred = [B::EMPTY; 2];
            if t.royal_safety {
                for sq in fixed.iter() {
                    let Some((k, s)) = self.piece_at(sq) else { continue };
                    for f in forms_of(s, k).filter(|f| captures(f) && f.from.has(sq) && matches!(f.how, Gen::Leap { .. })) {
                        barred[s.other().index()] |= self.form_targets(f, sq, fixed) & f.within;
                    }
                }
            }
            // The loser's royals first, then the side's pieces: a caller that will not search can
            // stop at the first piece of the side that could check the loser's royal somewhere.
            let loser = side.other();
            let loser_royals = self.royals(loser);
            let ours = self.side_bb[side.index()] & !loser_royals;
            let mut zone = loser_royals & fixed;
            let order = (mobile & loser_royals)
                .iter()
                .chain((mobile & ours).iter())
                .chain((mobile & !ours & !loser_royals).iter());
            for sq in order {
                let Some((k, s)) = self.piece_at(sq) else { continue };
                let royal = t.royal_kinds.contains(&k);
                if t.promotion[s.index()].get(k.0 as usize).is_some_and(|p| p.is_some()) {
                    return Walls::NotApplicable;
                }
                if !t.castles[s.index()].is_empty() && self.virgin.has(sq) {
                    return Walls::NotApplicable;
                }
                if forms_of(s, k).any(|f| !bounded(f)) {
                    return Walls::NotApplicable;
                }
                let mut region = B::bit(sq);
                let mut frontier = region;
                while frontier.any() {
                    let mut grow = B::EMPTY;
                    for x in frontier.iter() {
                        for f in forms_of(s, k) {
                            if !f.from.has(x) || (f.unmoved && !(x == sq && self.virgin.has(sq))) {
                                continue;
                            }
                            grow |= self.form_targets(f, x, fixed) & f.within;
                        }
                    }
                    frontier = grow & !fixed & !region & t.board_mask;
                    if royal {
                        frontier &= !barred[s.index()];
                    }
                    region |= frontier;
                }
                let mut att = B::EMPTY;
                for x in region.iter() {
                    for f in forms_of(s, k).filter(|f| captures(f) && f.from.has(x)) {
                        att |= self.form_targets(f, x, fixed) & f.within;
                    }
                }
                reach[s.index()] |= region;
                attack[s.index()] |= att;
                if royal && s == loser {
                    zone |= region;
                }
                if royal_checks(s, k) {
                    check[s.index()] |= att;
                    if static_only && s == side && (att & zone).any() {
                        return Walls::Fixed(B::EMPTY);
                    }
                }
                regions.push((sq, region));
            }
            for sq in fixed.iter() {
                let Some((k, s)) = self.piece_at(sq) else { continue };
                for f in forms_of(s, k).filter(|f| captures(f) && f.from.has(sq)) {
                    let att = self.form_targets(f, sq, fixed) & f.within;
                    attack[s.index()] |= att;
                    if royal_checks(s, k) {
                        check[s.index()] |= att;
                    }
                }
            }
            // Later rounds only free pieces and grow what others reach: a check possible now stays
            // possible, and a caller that will not search has its answer.
            if static_only {
                let loser = side.other();
                let mut zone = B::EMPTY;
                for r in self.royals(loser).iter() {
                    zone |= regions.iter().find(|(sq, _)| *sq == r).map_or(B::bit(r), |(_, reg)| *reg);
                }
                if (check[side.index()] & zone).any() {
                    return Walls::Fixed(B::EMPTY);
                }
            }
            // A piece stays fixed only if it can never move and never be taken.
            let mut broken = B::EMPTY;
            for sq in fixed.iter() {
                let Some((k, s)) = self.piece_at(sq) else { continue };
                let e = s.other();
                let own_fixed = fixed & self.side_bb[s.index()];
                let enemy_fixed = fixed & self.side_bb[e.index()];
                let mut moves = attack[e.index()].has(sq);
                for f in forms_of(s, k) {
                    if !f.from.has(sq) || (f.unmoved && !self.virgin.has(sq)) {
                        continue;
                    }
                    if !bounded(f) {
                        return Walls::NotApplicable;
                    }
                    let to = self.form_targets(f, sq, fixed) & f.within & t.board_mask;
                    moves |= match f.target {
                        Target::Empty => (to & !fixed).any(),
                        Target::Any => (to & !own_fixed).any(),
                        Target::Enemy => (to & (enemy_fixed | reach[e.index()])).any(),
                        // A mark needs an enemy piece that makes one and can still move.
                        Target::EnPassant => regions.iter().any(|(x, _)| {
                            self.piece_at(*x)
                                .is_some_and(|(ek, es)| es == e && forms_of(es, ek).any(|g| g.marks_ep))
                        }),
                    };
                }
                if moves {
                    broken.set(sq);
                }
            }
            if broken.is_empty() {
                break;
            }
            fixed &= !broken;
        }
        let loser = side.other();
        let mut zone = B::EMPTY;
        for r in self.royals(loser).iter() {
            zone |= regions.iter().find(|(sq, _)| *sq == r).map_or(B::bit(r), |(_, reg)| *reg);
        }
        if (check[side.index()] & zone).is_empty() {
            Walls::Proved
        } else {
            Walls::Fixed(fixed)
        }
    }
}

/// What the static proof found.
enum Walls<B> {
    /// The side can never attack a square the other side's royal could stand on.
    Proved,
    /// Not proved; these pieces can never move (perhaps none).
    Fixed(B),
    /// The rules have moves the proof cannot bound.
    NotApplicable,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Engine, Position};

    fn engine(name: &str) -> Engine {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("../rulesets/{name}.rules"));
        Engine::new(crate::check::check_file(&path, &[]).rules.expect("a bundled ruleset is valid"))
    }

    fn answer(pos: &Position, side: Side, bounds: Bounds) -> Answer {
        pos.winnability(side, bounds)
    }

    #[test]
    fn locked_pawns_wall_the_kings_apart() {
        let e = engine("chess");
        let pos = e.from_fen("3k4/8/8/p2p2p1/P2P2P1/8/3K4/8 w - - 0 1").expect("a legal FEN");
        for side in [Side::FIRST, Side::SECOND] {
            assert_eq!(
                answer(&pos, side, Bounds::EVERY_PLY).verdict,
                Winnability::CannotWin(Proof::Blocked)
            );
        }
    }

    #[test]
    fn a_bare_king_cannot_win_and_a_queen_can() {
        let e = engine("chess");
        let pos = e.from_fen("8/8/2k5/8/8/8/4K3/3Q4 w - - 0 1").expect("a legal FEN");
        assert_eq!(
            answer(&pos, Side::SECOND, Bounds::EVERY_PLY).verdict,
            Winnability::CannotWin(Proof::Blocked)
        );
        let Winnability::CanWin(line) = answer(&pos, Side::FIRST, Bounds::FULL).verdict else {
            panic!("king and queen can mate a king");
        };
        let mut p = pos.clone();
        for m in line {
            assert!(p.legal_moves().contains(&m), "the line is played move by move");
            p.play_unchecked(m);
        }
        assert!(
            p.in_check() && p.legal_moves().is_empty(),
            "the line ends in checkmate: {}",
            p.fen()
        );
    }

    #[test]
    fn an_open_position_is_unknown_within_small_bounds_never_dead() {
        let e = engine("chess");
        let tiny = Bounds {
            nodes: 50,
            open_nodes: 50,
            depth: 10,
            quick_depth: 2,
            open_moves: usize::MAX,
        };
        let a = answer(&e.start(), Side::FIRST, tiny);
        assert_eq!(a.verdict, Winnability::Unknown);
        assert!(a.nodes <= 50, "the bounds hold: {} nodes", a.nodes);
        // A game's brief search does not start where the sides have many moves (20 each here).
        let few = Bounds { open_moves: 39, ..tiny };
        assert_eq!(
            answer(&e.start(), Side::FIRST, few),
            Answer {
                verdict: Winnability::Unknown,
                nodes: 0
            }
        );
    }

    #[test]
    fn rulesets_the_search_cannot_walk_answer_unknown_at_once() {
        let go = engine("go");
        let a = answer(&go.start(), Side::FIRST, Bounds::FULL);
        assert_eq!((a.verdict, a.nodes), (Winnability::Unknown, 0));
        // Xiangqi's cannons hop: no static proof, and a game asking as it goes does not search.
        let xq = engine("xiangqi");
        let a = answer(&xq.start(), Side::FIRST, Bounds::EVERY_PLY);
        assert_eq!((a.verdict, a.nodes), (Winnability::Unknown, 0));
    }

    #[test]
    fn a_ruleset_without_a_winning_rule_cannot_be_won() {
        let src = "game \"G\" { players white \"w\", black \"b\" }\nboard 3 x 3 squares { files a..c ranks 1..3 }\n\
                   piece King \"K\" royal { step any }\nend { stuck: no legal move -> draw }\nsetup \"k2/3/2K w - - 0 1\"\n";
        let checked = crate::check::check_source("draw-only.rules", src, None, &[]);
        let Some(rules) = checked.rules else {
            panic!("{:?}", checked.diagnostics.items.iter().map(|d| &d.message).collect::<Vec<_>>())
        };
        let e = Engine::new(rules);
        assert_eq!(
            answer(&e.start(), Side::FIRST, Bounds::FULL).verdict,
            Winnability::CannotWin(Proof::NoWinningRule)
        );
    }
}
