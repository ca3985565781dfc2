//! Where each kind can ever stand, and how many of it there can be: derived from the rules alone
//! (the setup, the movement clauses with their zones, promotions, castling, placements and drops),
//! so that a position no game could reach is refused for any ruleset, not per game.
//!
//! Both are over-approximations: movement is taken on an empty board (a slide reaches its whole
//! ray, a hop every square beyond its first step, a lame leap is never blocked), so a refused square
//! is one that no sequence of moves reaches, whatever stands in the way.

use super::{CForm, Gen, Tables};
use crate::bits::Bits;
use crate::model::{Enclose, KindId, PartAction, Rules, Side};

/// What a position must obey, per side and kind.
#[derive(Clone, Debug)]
pub struct Reach<B> {
    /// Per side, per kind: the squares a piece of that kind may ever stand on.
    pub squares: Vec<Vec<B>>,
    /// Per side, per kind: how many the setup has. `None` where pieces are placed or dropped onto
    /// the board, or change owner: then no count is bounded by the setup.
    pub setup_counts: Option<Vec<Vec<u32>>>,
    /// Per kind: some promotion turns a piece into it.
    pub promoted_into: Vec<bool>,
    /// Per kind: it may promote.
    pub promotes: Vec<bool>,
}

/// The reach of every kind, or `None` while the setup is not read yet (the checker compiles some
/// tables before it has one, and reports a setup it cannot read).
pub fn compute<B: Bits>(rules: &Rules, t: &Tables<B>) -> Option<Reach<B>> {
    let setup = &rules.setup;
    if setup.board.len() != rules.board.squares() {
        return None;
    }
    let kinds = rules.kinds.len();
    let changes_owner = rules.swap.is_some()
        || rules.kinds.iter().any(|k| {
            k.forms
                .iter()
                .any(|f| matches!(f.enclose, Some((Enclose::Flip, _))) || f.neighbours == Some(Enclose::Flip))
        });
    let squares = (0..rules.players.len()).map(|i| Side(i as u8)).map(|side| {
        if changes_owner {
            vec![t.board_mask; kinds]
        } else {
            side_reach(rules, t, side, &setup.board)
        }
    });
    let placed = changes_owner
        || rules.keeps_hands()
        || t.forms.iter().flatten().any(|f| matches!(f.how, Gen::Place | Gen::Drop) || f.clone)
        || rules.turn.iter().any(|p| match p.action {
            PartAction::Place { kind, .. } => !rules.kind(kind).neutral,
            PartAction::Gate { .. } => true,
            PartAction::Remove { .. } => false,
        });
    let setup_counts = (!placed).then(|| {
        (0..rules.players.len()).map(|i| Side(i as u8)).map(|side| {
            let mut c = vec![0u32; kinds];
            for (k, s) in setup.board.iter().flatten() {
                if *s == side {
                    c[k.0 as usize] += 1;
                }
            }
            c
        })
    });
    let mut promoted_into = vec![false; kinds];
    let mut promotes = vec![false; kinds];
    for (ki, k) in rules.kinds.iter().enumerate() {
        if let Some(p) = &k.promotion {
            promotes[ki] = true;
            for c in &p.choices {
                promoted_into[c.0 as usize] = true;
            }
        }
    }
    Some(Reach {
        squares: squares.collect(),
        setup_counts: setup_counts.map(|c| c.collect()),
        promoted_into,
        promotes,
    })
}

/// The squares each kind of `side` may stand on: a fixed point over all kinds at once, since
/// promotions and castling move squares from one kind's reach into another's.
fn side_reach<B: Bits>(rules: &Rules, t: &Tables<B>, side: Side, board: &[Option<(KindId, Side)>]) -> Vec<B> {
    let s = side.index();
    let kinds = rules.kinds.len();
    let mut reach = vec![B::EMPTY; kinds];
    for (sq, c) in board.iter().enumerate() {
        if let Some((k, owner)) = c
            && *owner == side
        {
            reach[k.0 as usize] |= B::bit(sq);
        }
    }
    // Placements and drops put a piece anywhere their clause allows; so do a turn's later parts.
    for f in &t.forms[s] {
        if matches!(f.how, Gen::Place | Gen::Drop) {
            reach[f.kind.0 as usize] |= f.within & !f.stuck;
        }
    }
    for p in &t.parts {
        match &p.action {
            PartAction::Place { kind, .. } => reach[kind.0 as usize] |= p.within[s],
            PartAction::Gate { kinds, .. } => {
                for k in kinds {
                    reach[k.0 as usize] |= p.within[s];
                }
            }
            PartAction::Remove { .. } => {}
        }
    }
    // Every square is added at most once per kind, so this ends within kinds × squares rounds.
    let mut done = vec![B::EMPTY; kinds];
    loop {
        let mut changed = false;
        for k in 0..kinds {
            let mut todo = reach[k] & !done[k];
            while let Some(from) = todo.pop() {
                done[k] |= B::bit(from);
                for f in t.forms[s].iter().filter(|f| f.kind.0 as usize == k && f.from.has(from)) {
                    let landing = targets(t, f, from) & f.within;
                    for to in landing.iter() {
                        let (stays, becomes) = promotion_at(t, side, KindId(k as u8), from, to);
                        if stays && !reach[k].has(to) {
                            reach[k] |= B::bit(to);
                            todo |= B::bit(to);
                        }
                        for c in becomes {
                            if !reach[c.0 as usize].has(to) {
                                reach[c.0 as usize] |= B::bit(to);
                                changed = true;
                            }
                        }
                    }
                }
                for c in t.castles[s].iter().filter(|c| c.kind.0 as usize == k) {
                    for &d in &c.dirs {
                        let (dx, dy, _) = t.dirs[d as usize];
                        let step = |sq: usize, n: u32| (0..n).try_fold(sq, |at, _| rules.board.offset(at, dx, dy));
                        if let Some(to) = step(from, c.distance)
                            && let Some(back) = rules.board.offset(to, -dx, -dy)
                        {
                            if !reach[k].has(to) {
                                reach[k] |= B::bit(to);
                                todo |= B::bit(to);
                            }
                            if !reach[c.partner.0 as usize].has(back) {
                                reach[c.partner.0 as usize] |= B::bit(back);
                                changed = true;
                            }
                        }
                    }
                }
            }
        }
        if !changed {
            return reach;
        }
    }
}

/// Where a clause may land from `from` on an empty board, whatever it needs to stand in between:
/// hops and jumps need pieces there, and over-approximating keeps every reachable square.
fn targets<B: Bits>(t: &Tables<B>, f: &CForm<B>, from: usize) -> B {
    match &f.how {
        Gen::Leap { targets } => targets[from],
        Gen::Lame { entries } => entries[from].iter().fold(B::EMPTY, |b, e| b | B::bit(e.0 as usize)),
        Gen::Slide { dirs, bounded, .. } => {
            let rays = dirs.iter().fold(B::EMPTY, |b, &d| b | t.ray(d as usize, from));
            bounded.as_ref().map_or(rays, |bd| rays & bd[from])
        }
        Gen::Hop { dirs, .. } | Gen::HopNot { dirs, .. } => dirs.iter().fold(B::EMPTY, |b, &d| b | t.ray(d as usize, from)),
        Gen::Counted { dirs, .. } => dirs.iter().fold(B::EMPTY, |b, &(d, _)| b | t.ray(d as usize, from)),
        Gen::Jump { entries, dirs, .. } => {
            let far = f.jump.is_some_and(|j| j.far);
            if far {
                dirs.iter().fold(B::EMPTY, |b, &d| b | t.ray(d as usize, from))
            } else {
                entries[from].iter().fold(B::EMPTY, |b, e| b | B::bit(e.1 as usize))
            }
        }
        Gen::Place | Gen::Drop => B::EMPTY,
        // Whatever the roll.
        Gen::Track { by_roll } => by_roll.iter().fold(B::EMPTY, |b, to| b | to[from]),
    }
}

/// A piece of kind `k` moving `from` → `to`: may it stay as it is there, and what may it become?
fn promotion_at<B: Bits>(t: &Tables<B>, side: Side, k: KindId, from: usize, to: usize) -> (bool, Vec<KindId>) {
    let Some(p) = &t.promotion[side.index()][k.0 as usize] else {
        return (true, Vec::new());
    };
    let here = p.zone.has(to) || (p.leaving && p.zone.has(from));
    if !here {
        return (true, Vec::new());
    }
    let must = !p.optional || p.forced.has(to);
    (!must, p.choices.clone())
}
