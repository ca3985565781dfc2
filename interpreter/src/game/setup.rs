//! The second step every position takes (see [`crate::model::setup`]): a plain [`Setup`] becomes a
//! position only here, after the checks the engine relies on — pieces where they could stand,
//! rights with something to exercise them, chains with liberties, the phase the game is in — and a
//! position goes back to a `Setup` for anything that writes it.

use std::sync::Arc;

use thiserror::Error;

use super::bits::Bits;
use super::position::Pos;
use super::{AnyTables, Engine, Inner, Position};
use crate::compile::Tables;
use crate::model::*;
use crate::model::{CastlingRight, Setup, Wing};

/// Why the rules refuse a setup.
#[derive(Debug, Error, Clone, PartialEq)]
pub enum PositionError {
    /// A position no game of these rules has (a piece where it could never stand, a missing royal,
    /// a chain without liberties...).
    #[error("illegal position: {0}")]
    Illegal(String),
    /// A castling (or gating) right with nothing to exercise it.
    #[error("castling rights: {0}")]
    Castling(String),
    /// An en-passant square no piece can just have passed.
    #[error("en passant: {0}")]
    EnPassant(String),
}

impl Engine {
    /// The ruleset's setup position.
    pub fn start(&self) -> Position {
        self.position(&self.rules.setup).expect("the checker verified the setup position")
    }

    /// The position a setup describes, if these rules allow it: the only way to a [`Position`].
    ///
    /// # Errors
    /// A [`PositionError`] saying what the rules refuse, and where.
    pub fn position(&self, setup: &Setup) -> Result<Position, PositionError> {
        let inner = match &self.tables {
            AnyTables::Small(t) => Inner::Small(build(&self.rules, t.clone(), setup)?),
            AnyTables::Medium(t) => Inner::Medium(build(&self.rules, t.clone(), setup)?),
            AnyTables::Large(t) => Inner::Large(build(&self.rules, t.clone(), setup)?),
            AnyTables::Huge(t) => Inner::Huge(build(&self.rules, t.clone(), setup)?),
        };
        Ok(Position {
            rules: self.rules.clone(),
            inner,
        })
    }
}

impl Position {
    /// The position as plain data: what [`Engine::position`] reads back as this position.
    pub fn setup(&self) -> Setup {
        let rules = self.rules();
        let b = &rules.board;
        let mut tallies = [[0i64; MAX_TALLIES]; 2];
        for side in [Side::FIRST, Side::SECOND] {
            for (i, t) in tallies[side.index()].iter_mut().enumerate().take(rules.counts.len()) {
                *t = self.tally(side, i);
            }
        }
        let mut hands = Vec::new();
        for side in (0..rules.players.len()).map(|s| Side(s as u8)) {
            for (k, n) in self.hand(side) {
                hands.extend(std::iter::repeat_n((k, side), n as usize));
            }
        }
        Setup {
            board: (0..b.squares()).map(|sq| self.piece_at(sq)).collect(),
            stm: self.side_to_move(),
            castling: castling_rights(self),
            ep: self.en_passant_squares().first().copied(),
            halfmove: self.halfmove_clock(),
            fullmove: self.fullmove(),
            hands,
            promoted: (0..b.squares())
                .filter(|&sq| self.piece_at(sq).is_some() && self.is_promoted(sq))
                .collect(),
            neutral: (0..b.squares()).filter_map(|sq| self.neutral_at(sq).map(|k| (sq, k))).collect(),
            tallies,
            roll: self.rolled(),
            stacks: (0..b.squares())
                .filter_map(|sq| {
                    let n = self.stack_count(sq);
                    (n > 1).then_some((sq, n))
                })
                .collect(),
            places: self.places(),
        }
    }
}

/// Turns a setup into an engine position, checking what the engine relies on.
fn build<B: Bits>(rules: &Rules, t: Arc<Tables<B>>, s: &Setup) -> Result<Pos<B>, PositionError> {
    let b = &rules.board;
    let mut p = Pos::empty(t.clone());
    for (sq, c) in s.board.iter().enumerate() {
        if let Some((k, side)) = c {
            if !b.has(sq) {
                return Err(PositionError::Illegal(format!(
                    "{} is not a cell of this board, and the {} {} stands there",
                    b.name(sq),
                    rules.players[side.index()].name,
                    rules.kind(*k).name.to_lowercase()
                )));
            }
            p.put(sq, *k, *side);
        }
    }
    for &(k, side) in &s.hands {
        let c = p.hands[side.index()][k.0 as usize];
        p.set_hand(side, k, c.saturating_add(1));
    }
    for &sq in &s.promoted {
        p.promoted |= B::bit(sq);
    }
    for &(sq, k) in &s.neutral {
        p.put_neutral(sq, k);
    }
    for side in [Side::FIRST, Side::SECOND] {
        for i in 0..rules.counts.len() {
            p.set_tally(side, i, s.tallies[side.index()][i]);
        }
    }

    p.stm = s.stm;
    if t.many {
        p.hash ^= t.z_turn[s.stm.index()];
    } else if s.stm == Side::SECOND {
        p.hash ^= t.z_side;
    }
    if !s.places.is_empty() {
        if t.outs.is_empty() {
            return Err(PositionError::Illegal(
                "places of sides out of the game, and no end rule of this ruleset puts a side out".into(),
            ));
        }
        let n = t.sides as usize;
        for &(side, place) in &s.places {
            let name = &rules.players[side.index()].name;
            if place == 0 || place as usize > n {
                return Err(PositionError::Illegal(format!("{name} in place {place}: the places are 1 to {n}")));
            }
            if p.place[side.index()] != 0 || p.place[..n].contains(&place) {
                return Err(PositionError::Illegal(format!(
                    "{name} in place {place}: a side or a place given twice"
                )));
            }
            p.place[side.index()] = place;
            p.hash ^= t.z_place[side.index() * (MAX_SIDES + 1) + place as usize];
        }
        if p.place[s.stm.index()] != 0 && p.playing() > 0 {
            return Err(PositionError::Illegal(format!(
                "{} is to move, and out of the game",
                rules.players[s.stm.index()].name
            )));
        }
    }
    // The last mover, as far as a FEN tells: the side before, passing over those out.
    let mut moved = t.previous_side(s.stm);
    for _ in 0..t.sides {
        if p.place[moved.index()] == 0 {
            break;
        }
        moved = t.previous_side(moved);
    }
    p.moved = moved;
    if !s.stacks.is_empty() && p.stack.is_empty() {
        return Err(PositionError::Illegal(
            "stacks of pieces, and this ruleset's pieces do not stack".into(),
        ));
    }
    if !p.stack.is_empty() {
        for sq in 0..b.squares() {
            if s.board[sq].is_some() {
                let n = s.stacks.iter().find(|(q, _)| *q == sq).map_or(1, |&(_, n)| n.clamp(1, 255));
                p.set_stack(sq, n as u8);
            }
        }
    }
    if let Some(v) = s.roll {
        let Some(roll) = rules.roll.as_ref() else {
            return Err(PositionError::Illegal("a roll, in a game without one".into()));
        };
        match &t.race {
            Some(race) => {
                let dice = roll.dice(v);
                match race.states.iter().position(|st| st.dice == dice) {
                    Some(i) => {
                        p.set_roll(i + 1);
                        // Partway through a turn, the side to move made the last move.
                        p.again = !race.states[i].fresh;
                    }
                    None => {
                        return Err(PositionError::Illegal(format!(
                            "dice {} to use, which no roll of this game leaves",
                            roll.show(v)
                        )));
                    }
                }
            }
            None => match roll.index_of(v) {
                Some(i) => p.set_roll(i + 1),
                None => return Err(PositionError::Illegal(format!("a roll of {v}, which this game's roll never shows"))),
            },
        }
    }
    p.fullmove = s.fullmove;
    for c in p.counters.iter_mut() {
        // A clock past what a counter holds saturates (FEN refuses one).
        *c = s.halfmove.min(u16::MAX as u32) as u16;
    }
    // Pieces standing in their own promotion zone should have promoted.
    for (sq, c) in s.board.iter().enumerate() {
        if let Some((k, side)) = c
            && let Some(pr) = &rules.kind(*k).promotion
            && pr.zone[*side].contains(sq)
            && (!pr.optional || pr.forced.as_ref().is_some_and(|z| z[*side].contains(sq)))
            // A piece dropped or placed there arrives unpromoted, where the rules let it come.
            && !rules.kind(*k).forms.iter().any(|f| {
                matches!(f.primitive, Primitive::Drop | Primitive::Place)
                    && f.within.as_ref().is_none_or(|z| z[*side].contains(sq))
                    && (!f.drop.not_stuck
                        || crate::compile::could_move_from(rules, rules.kind(*k), sq, side.index()))
            })
        {
            return Err(PositionError::Illegal(format!(
                "the {} {} on {} stands where it must already have promoted",
                rules.players[side.index()].name,
                rules.kind(*k).name.to_lowercase(),
                b.name(sq)
            )));
        }
    }
    // Pieces that fall rest on something: the square below them (along the fall) is taken or off the board.
    for (sq, c) in s.board.iter().enumerate() {
        if let Some((k, side)) = c
            && let Some(d) = rules.kind(*k).forms.iter().find_map(|f| f.falling)
            && let Some(below) = b.offset(sq, d.0, d.1)
            && s.board[below].is_none()
        {
            return Err(PositionError::Illegal(format!(
                "the {} {} on {} floats: {} below it is empty, and pieces of this kind fall",
                rules.players[side.index()].name,
                rules.kind(*k).name.to_lowercase(),
                b.name(sq),
                b.name(below)
            )));
        }
    }
    // Castling rights → unmoved pieces.
    let gate_zone = rules.gate_zone();
    for right in &s.castling {
        let side = right.side;
        let letter = right.text(rules);
        let castles = &t.castles[side.index()];
        // A file names a piece that may still open its square to a drop (as Fairy-Stockfish
        // writes S-chess's gating rights), where castling does not claim it.
        let gate = |p: &mut Pos<B>, file: usize| -> bool {
            let Some(z) = gate_zone else { return false };
            let own = p.side_bb[side.index()];
            let on_file: Vec<usize> = z[side].iter().filter(|&sq| b.file(sq) == file && own.has(sq)).collect();
            match on_file.as_slice() {
                [sq] => {
                    p.virgin |= B::bit(*sq);
                    true
                }
                _ => false,
            }
        };
        // Where pieces may be dropped on the square a first move leaves, files name those rights
        // and castling is K and Q only, as Fairy-Stockfish reads S-chess's FEN.
        if let (Some(_), Wing::File(file)) = (gate_zone, right.wing) {
            if gate(&mut p, file) {
                continue;
            }
            return Err(PositionError::Castling(format!(
                "`{letter}`: no piece of the {} stands on that file where a piece may be dropped after its first move",
                rules.players[side.index()].name
            )));
        }
        if castles.is_empty() {
            return Err(PositionError::Castling(format!("`{letter}`: this ruleset has no castling")));
        }
        let mut done = false;
        for c in castles {
            for castler in p.pieces(side, c.kind).iter() {
                let candidates: Vec<(usize, usize)> = c
                    .dirs
                    .iter()
                    .enumerate()
                    .flat_map(|(i, &d)| (t.ray(d as usize, castler) & p.pieces(side, c.partner)).iter().map(move |r| (i, r)))
                    .collect();
                // The outermost partner on that wing (the king's wing is the side's right hand).
                let far = |r: &usize| b.file(*r).abs_diff(b.file(castler)) + b.rank(*r).abs_diff(b.rank(castler));
                let king_wing = c.king_wing as usize;
                let pick = match right.wing {
                    Wing::King => candidates.iter().filter(|(i, _)| *i == king_wing).map(|x| x.1).max_by_key(far),
                    Wing::Queen => candidates.iter().filter(|(i, _)| *i != king_wing).map(|x| x.1).max_by_key(far),
                    Wing::File(f) => candidates.iter().map(|x| x.1).find(|r| b.file(*r) == f),
                };
                if let Some(r) = pick {
                    p.virgin |= B::bit(castler) | B::bit(r);
                    done = true;
                }
            }
        }
        if !done {
            return Err(PositionError::Castling(format!(
                "`{letter}` but the {} has no unmoved piece to castle with on that side",
                rules.players[side.index()].name
            )));
        }
    }
    // Pieces with `unmoved` forms count as unmoved on their setup squares.
    for (sq, c) in s.board.iter().enumerate() {
        if let Some((k, _)) = c
            && rules.kind(*k).forms.iter().any(|f| f.unmoved)
            && rules.setup.board.get(sq) == Some(c)
        {
            p.virgin |= B::bit(sq);
        }
    }
    // En passant: the mark belongs to the piece one step beyond it, which just made it.
    if let Some(ep) = s.ep {
        let mover = s.stm.other();
        let flip = if mover == Side::FIRST { 1 } else { -1 };
        // Boards of hexes turn half round for the second player (a mirror would break their geometry).
        let fx = if b.hexes { flip } else { 1 };
        let mut victim = None;
        for k in &rules.kinds {
            for f in k.forms.iter().filter(|f| f.marks_en_passant) {
                if let Primitive::Step { dirs, .. } | Primitive::Slide { dirs, .. } = &f.primitive {
                    for d in dirs {
                        if let Some(v) = b.offset(ep, d.0 * fx, d.1 * flip)
                            && let Some((vk, vs)) = s.board[v]
                            && vs == mover
                            && rules.kind(vk).forms.iter().any(|g| g.marks_en_passant)
                        {
                            victim = Some(v);
                        }
                    }
                }
            }
        }
        match victim {
            Some(v) if s.board[ep].is_none() => {
                p.ep = B::bit(ep);
                p.ep_victim = v as u16;
            }
            _ => {
                return Err(PositionError::EnPassant(format!(
                    "no piece of the {} can just have passed {}",
                    rules.players[mover.index()].name,
                    b.name(ep)
                )));
            }
        }
    }
    // Royals never leave the board where they may not be attacked, unless a capture next to them
    // explodes (then the game has just ended).
    if t.royal_safety && t.explosion.is_none() {
        for side in [Side::FIRST, Side::SECOND] {
            if p.royals(side).is_empty() {
                return Err(PositionError::Illegal(format!(
                    "{} has no royal piece",
                    rules.players[side.index()].name
                )));
            }
        }
    }
    if let Some(why) = super::validity::impossible(rules, &p) {
        return Err(PositionError::Illegal(why));
    }
    if t.chains {
        p.rebuild_chains();
        // A chain without liberties cannot stand on the board.
        for sq in 0..b.squares() {
            if s.board[sq].is_some() && p.chain_at(sq).iter().all(|&c| b_neighbours_full(&p, c)) {
                return Err(PositionError::Illegal(format!("the chain at {} has no liberties", b.name(sq))));
            }
        }
    }
    // The phase: the first whose end does not hold yet (phases only ever move on).
    p.advance_phase();
    p.push_history();
    Ok(p)
}

/// The rights a position's unmoved pieces still give, as FEN lists them: each side's castling
/// (`K` before `Q`), then the pieces that may still open their square to a drop, by file.
fn castling_rights(pos: &Position) -> Vec<CastlingRight> {
    let rules = pos.rules();
    let b = &rules.board;
    let virgin = pos.virgin_squares();
    if rules.players.len() > 2 {
        return castling_rights_of_many(pos, &virgin);
    }
    let mut rights: [Vec<CastlingRight>; 2] = [Vec::new(), Vec::new()];
    let mut add = |right: CastlingRight| {
        let list = &mut rights[right.side.index()];
        if !list.contains(&right) {
            list.push(right);
        }
    };
    // The unmoved pieces the castling letters already stand for: castlers and their partners.
    let mut covered: Vec<usize> = Vec::new();
    for side in [Side::FIRST, Side::SECOND] {
        for (ki, k) in rules.kinds.iter().enumerate() {
            for c in &k.castles {
                let kid = KindId(ki as u8);
                for &castler in &virgin {
                    if pos.piece_at(castler) != Some((kid, side)) {
                        continue;
                    }
                    let rank = b.rank(castler);
                    let partners: Vec<usize> = virgin
                        .iter()
                        .copied()
                        .filter(|&r| b.rank(r) == rank && pos.piece_at(r) == Some((c.partner, side)))
                        .collect();
                    for (wing, right) in [(Wing::King, true), (Wing::Queen, false)] {
                        let that_way = partners.iter().copied().filter(|&r| (b.file(r) > b.file(castler)) == right);
                        let outermost = if right {
                            that_way.max_by_key(|&r| b.file(r))
                        } else {
                            that_way.min_by_key(|&r| b.file(r))
                        };
                        if let Some(r) = outermost {
                            add(CastlingRight { side, wing });
                            covered.extend([castler, r]);
                        }
                    }
                }
            }
        }
    }
    // Pieces that may still open their square to a drop, by file, where castling does not already
    // say so and the player has something in hand (as Fairy-Stockfish writes S-chess's gating).
    if let Some(z) = rules.gate_zone() {
        for side in [Side::FIRST, Side::SECOND] {
            if pos.hand(side).is_empty() {
                continue;
            }
            let mut squares: Vec<usize> = virgin
                .iter()
                .copied()
                .filter(|&sq| z[side].contains(sq) && pos.piece_at(sq).is_some_and(|(_, s)| s == side) && !covered.contains(&sq))
                .collect();
            squares.sort_by_key(|&sq| b.file(sq));
            for sq in squares {
                add(CastlingRight {
                    side,
                    wing: Wing::File(b.file(sq)),
                });
            }
        }
    }
    let [first, second] = rights;
    first.into_iter().chain(second).collect()
}

/// [`castling_rights`] among more than two sides: each side in turn order, `K` before `Q`, where
/// an unmoved castler has an unmoved partner along its back rank as its seat turns the board (the
/// king's wing to its right hand).
fn castling_rights_of_many(pos: &Position, virgin: &[usize]) -> Vec<CastlingRight> {
    let rules = pos.rules();
    let b = &rules.board;
    let mut rights = Vec::new();
    for (si, player) in rules.players.iter().enumerate() {
        let side = Side(si as u8);
        for (wing, d) in [(Wing::King, (1, 0)), (Wing::Queen, (-1, 0))] {
            let (dx, dy) = b.seat_dir(rules.seating, player.seat, d);
            let has = rules.kinds.iter().enumerate().any(|(ki, k)| {
                k.castles.iter().any(|c| {
                    virgin.iter().any(|&castler| {
                        if pos.piece_at(castler) != Some((KindId(ki as u8), side)) {
                            return false;
                        }
                        let mut sq = castler;
                        while let Some(next) = b.offset(sq, dx, dy) {
                            if virgin.contains(&next) && pos.piece_at(next) == Some((c.partner, side)) {
                                return true;
                            }
                            sq = next;
                        }
                        false
                    })
                })
            });
            if has {
                rights.push(CastlingRight { side, wing });
            }
        }
    }
    rights
}

/// Is every orthogonal neighbour of `sq` occupied?
fn b_neighbours_full<B: Bits>(p: &Pos<B>, sq: usize) -> bool {
    p.t.neighbours[sq]
        .iter()
        .all(|&m| m as usize >= p.cells.len() || p.cells[m as usize] != 0)
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;

    fn engine(name: &str) -> Engine {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("../rulesets/{name}.rules"));
        Engine::new(crate::check::check_file(&path, &[]).rules.expect("a bundled ruleset is valid"))
    }

    /// Every position a game reaches gives a setup that is that position again, without text.
    #[test]
    fn a_position_s_setup_is_that_position_again() {
        for name in [
            "chess",
            "xiangqi",
            "crazyhouse",
            "go",
            "seirawan",
            "three-check",
            "duck-chess",
            "draughts",
            "othello",
        ] {
            let e = engine(name);
            let mut pos = e.start();
            for ply in 0..12 {
                let setup = pos.setup();
                let again = e.position(&setup).unwrap_or_else(|err| panic!("{name} ply {ply}: {err}"));
                assert_eq!(again.setup(), setup, "{name} ply {ply}");
                assert_eq!(again.legal_moves().len(), pos.legal_moves().len(), "{name} ply {ply}");
                let moves = pos.legal_moves();
                let Some(&m) = moves.get((ply * 7 + 3) % moves.len().max(1)) else {
                    break;
                };
                pos.play_unchecked(m);
            }
        }
    }

    #[test]
    fn the_rules_refuse_a_setup_by_what_is_wrong_with_it() {
        let e = engine("chess");
        let mut setup = e.rules().setup.clone();
        setup.board.iter_mut().for_each(|c| {
            if c.is_some_and(|(k, _)| e.rules().kind(k).royal) {
                *c = None;
            }
        });
        let err = e.position(&setup).expect_err("no kings");
        assert!(matches!(err, PositionError::Castling(_)), "the kings' rights go first: {err:?}");
        setup.castling.clear();
        let err = e.position(&setup).expect_err("no kings");
        assert!(matches!(err, PositionError::Illegal(_)), "{err:?}");
        assert!(err.to_string().contains("has no royal piece"), "{err}");
        let mut ep = e.rules().setup.clone();
        ep.ep = Some(e.rules().board.parse_square("e6").expect("a square"));
        assert!(matches!(e.position(&ep), Err(PositionError::EnPassant(_))));
    }
}
