//! A game: the line of positions from a start, and how it stands — ongoing, won or drawn, by which
//! end rule and clause, and which draws a player could claim. End rules are tried in the order the
//! ruleset lists them; the first automatic one that holds ends the game.

use super::{Engine, Move, Position};
use crate::model::*;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    Ongoing,
    Win,
    Draw,
}

impl Status {
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Ongoing => "ongoing",
            Status::Win => "win",
            Status::Draw => "draw",
        }
    }
}

/// How a game stands.
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    pub status: Status,
    pub winner: Option<Side>,
    /// The end rule's reason code (`checkmate`).
    pub reason: Option<String>,
    /// The clause it cites, with the ruleset's prefix (`FIDE 5.1.1`).
    pub clause: Option<String>,
    /// Draws the side to move could claim now: (reason, clause).
    pub claimable: Vec<(String, Option<String>)>,
}

impl Outcome {
    /// `1-0`, `0-1`, `1/2-1/2`, or `None` while the game goes on.
    pub fn result(&self) -> Option<&'static str> {
        match (self.status, self.winner) {
            (Status::Win, Some(Side::FIRST)) => Some("1-0"),
            (Status::Win, Some(_)) => Some("0-1"),
            (Status::Draw, _) => Some("1/2-1/2"),
            _ => None,
        }
    }
}

/// A line of play from a start position, with what repetition rules need.
#[derive(Clone, Debug)]
pub struct Game {
    engine: Engine,
    positions: Vec<Position>,
    moves: Vec<Move>,
    keys: Vec<u64>,
    /// For each position: is the side to move in check (did the move before it give check)?
    checks: Vec<bool>,
}

impl Game {
    pub fn new(engine: Engine, start: Position) -> Game {
        let key = start.repetition_key();
        let check = start.in_check();
        Game {
            engine,
            positions: vec![start],
            moves: Vec::new(),
            keys: vec![key],
            checks: vec![check],
        }
    }
    pub fn engine(&self) -> &Engine {
        &self.engine
    }
    pub fn current(&self) -> &Position {
        self.positions.last().expect("a game always has its start position")
    }
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }
    pub fn positions(&self) -> &[Position] {
        &self.positions
    }
    pub fn ply(&self) -> usize {
        self.moves.len()
    }
    /// Plays a legal move (from `current().legal_moves()`).
    pub fn play(&mut self, m: Move) {
        let mut next = self.current().clone();
        next.play_unchecked(m);
        self.keys.push(next.repetition_key());
        self.checks.push(next.in_check());
        self.positions.push(next);
        self.moves.push(m);
    }
    /// Takes back the last move.
    pub fn undo(&mut self) -> Option<Move> {
        let m = self.moves.pop()?;
        self.positions.pop();
        self.keys.pop();
        self.checks.pop();
        Some(m)
    }

    /// How many times the current position has occurred (including now).
    pub fn occurrences(&self) -> usize {
        let k = *self.keys.last().expect("a game has a position");
        self.keys.iter().filter(|x| **x == k).count()
    }

    /// The side that gave check with every move since the earliest earlier occurrence of the
    /// current position, if exactly one side did.
    fn perpetual_checker(&self) -> Option<Side> {
        let k = *self.keys.last()?;
        let first = self.keys.iter().position(|x| *x == k)?;
        let last = self.keys.len() - 1;
        if first == last {
            return None;
        }
        // Position i+1 followed move i, made by the side to move in position i.
        let mut all = [true, true];
        let mut any = [false, false];
        for i in first..last {
            let mover = self.positions[i].side_to_move().index();
            any[mover] = true;
            if !self.checks[i + 1] {
                all[mover] = false;
            }
        }
        let checking = [all[0] && any[0], all[1] && any[1]];
        match checking {
            [true, false] => Some(Side::FIRST),
            [false, true] => Some(Side::SECOND),
            _ => None,
        }
    }

    /// Evaluates the end rules on the current position.
    pub fn outcome(&self) -> Outcome {
        let rules = self.engine.rules().clone();
        let pos = self.current();
        let mut legal_cache: Option<bool> = None;
        let mut out = Outcome {
            status: Status::Ongoing,
            winner: None,
            reason: None,
            clause: None,
            claimable: Vec::new(),
        };
        for r in &rules.end_rules {
            let mut checker = None;
            let holds = r.conditions.iter().all(|c| match c {
                Condition::NoLegalMove => *legal_cache.get_or_insert_with(|| pos.legal_moves().is_empty()),
                Condition::InCheck => pos.in_check(),
                Condition::Repetition(n) => self.occurrences() >= *n as usize,
                Condition::Counter { plies, resetting_kind } => pos.counter_for(*resetting_kind) >= *plies,
                Condition::Material(pats) => material_matches(pos, pats),
                Condition::NoneOf(kinds) => {
                    let m = pos.material();
                    !m.iter().flatten().any(|k| kinds.contains(k))
                }
                Condition::CheckingThroughout => {
                    checker = self.perpetual_checker();
                    checker.is_some()
                }
            });
            if !holds {
                continue;
            }
            let clause = rules.citation(&r.cite);
            let stm = pos.side_to_move();
            let (status, winner) = match r.verdict {
                Verdict::ClaimableDraw => {
                    out.claimable.push((r.reason.clone(), clause));
                    continue;
                }
                Verdict::Draw => (Status::Draw, None),
                Verdict::MoverLoses => (Status::Win, Some(stm.other())),
                Verdict::MoverWins => (Status::Win, Some(stm)),
                Verdict::CheckerLoses => (Status::Win, checker.map(Side::other)),
            };
            return Outcome {
                status,
                winner,
                reason: Some(r.reason.clone()),
                clause,
                claimable: Vec::new(),
            };
        }
        out
    }
}

fn material_matches(pos: &Position, pats: &[MaterialPattern]) -> bool {
    let m = pos.material();
    let rules = pos.rules();
    pats.iter().any(|p| {
        let fits = (m[0] == p.a && m[1] == p.b) || (m[0] == p.b && m[1] == p.a);
        fits && p.same_colour.is_none_or(|k| {
            let colours: Vec<Option<bool>> = (0..rules.board.squares())
                .filter(|&sq| pos.piece_at(sq).is_some_and(|(kk, _)| kk == k))
                .map(|sq| rules.board.is_dark(sq))
                .collect();
            colours.windows(2).all(|w| w[0] == w[1])
        })
    })
}
