//! The game on screen: a `Game` from the interpreter, the scenario timeline, the selected piece and
//! the last ruling. Every change of position goes through the interpreter's API (`Game::play`,
//! `Engine::from_fen`); this module never edits a board itself.

use arbiter::game::{Engine, Game, Move, MoveKind, Ruling};
use arbiter::notation::uci;
use arbiter::scenario::Frame;
use bevy::prelude::*;

use crate::source::Opened;

/// A click on a square or point of the board (its index in the ruleset's board).
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clicked(pub usize);

/// A move along the scenario timeline.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Replay {
    First,
    Back,
    Forward,
    Last,
    To(usize),
}

/// A refused move: the interpreter's ruling on it.
#[derive(Clone, Debug, PartialEq)]
pub struct Refusal {
    pub text: String,
    pub code: String,
    pub message: String,
    pub clause: Option<String>,
}

/// The state of the sandbox.
#[derive(Resource)]
pub struct Session {
    pub engine: Engine,
    /// Bumped whenever `engine` is replaced (a reloaded ruleset), so the board is drawn anew.
    pub generation: u64,
    pub title: String,
    pub timeline: Vec<Frame>,
    /// Index into `timeline` of the position last loaded from it.
    pub step: usize,
    pub game: Game,
    /// Moves played by clicks since the timeline position was loaded.
    pub off_script: usize,
    pub selected: Option<usize>,
    pub targets: Vec<usize>,
    pub refusal: Option<Refusal>,
    pub last_move: Option<(usize, usize)>,
    /// A note for the panel (promotion choice made, bad FEN in a frame, ...).
    pub note: Option<String>,
}

impl Session {
    /// A session at the start of what was opened.
    pub fn new(opened: Opened) -> Session {
        let game = Game::new(opened.engine.clone(), opened.engine.start());
        let mut s = Session {
            engine: opened.engine,
            generation: 0,
            title: opened.title,
            timeline: opened.timeline,
            step: 0,
            game,
            off_script: 0,
            selected: None,
            targets: Vec::new(),
            refusal: None,
            last_move: None,
            note: None,
        };
        s.go_to(0);
        s
    }

    /// The current timeline frame (caption, highlights, arrows) unless moves were played since.
    pub fn frame(&self) -> Option<&Frame> {
        (self.off_script == 0).then(|| self.timeline.get(self.step)).flatten()
    }

    /// Loads timeline position `i` (clamped).
    pub fn go_to(&mut self, i: usize) {
        let i = i.min(self.timeline.len().saturating_sub(1));
        self.step = i;
        self.off_script = 0;
        self.selected = None;
        self.targets.clear();
        self.refusal = None;
        self.last_move = None;
        self.note = None;
        if let Some(frame) = self.timeline.get(i) {
            match self.engine.from_fen(&frame.fen) {
                Ok(pos) => self.game = Game::new(self.engine.clone(), pos),
                Err(e) => self.note = Some(format!("step {i}: {e:?}")),
            }
        }
    }

    pub fn replay(&mut self, r: Replay) {
        let last = self.timeline.len().saturating_sub(1);
        let to = match r {
            Replay::First => 0,
            Replay::Back if self.off_script > 0 => self.step,
            Replay::Back => self.step.saturating_sub(1),
            Replay::Forward => (self.step + 1).min(last),
            Replay::Last => last,
            Replay::To(i) => i,
        };
        self.go_to(to);
    }

    /// The legal moves of the piece on `from`.
    fn moves_from(&self, from: usize) -> Vec<Move> {
        self.game
            .current()
            .legal_moves()
            .into_iter()
            .filter(|m| !matches!(m.kind, MoveKind::Place(_) | MoveKind::Pass) && m.from as usize == from)
            .collect()
    }

    fn play(&mut self, m: Move) {
        let from = m.from as usize;
        let to = m.to as usize;
        self.game.play(m);
        self.off_script += 1;
        self.selected = None;
        self.targets.clear();
        self.refusal = None;
        self.last_move = Some((if matches!(m.kind, MoveKind::Place(_)) { to } else { from }, to));
    }

    fn refuse(&mut self, text: String) {
        self.refusal = match self.game.current().explain(&text) {
            Ruling::Illegal(i) => Some(Refusal {
                text,
                code: i.code.to_string(),
                message: i.message,
                clause: i.clause,
            }),
            Ruling::Legal { .. } => None,
        };
    }

    /// Handles a click on `sq`: select a piece of the side to move, play to a target, place a piece,
    /// or record the ruling on an illegal move.
    pub fn click(&mut self, sq: usize) {
        let pos = self.game.current().clone();
        let board = &pos.rules().board;
        if sq >= board.squares() {
            return;
        }
        self.note = None;
        if let Some(from) = self.selected {
            if from == sq {
                self.selected = None;
                self.targets.clear();
                return;
            }
            let candidates: Vec<Move> = self.moves_from(from).into_iter().filter(|m| m.to as usize == sq).collect();
            if let Some(&m) = candidates.first() {
                if candidates.len() > 1 {
                    let name = m.promotion().map(|k| pos.rules().kind(k).name.clone()).unwrap_or_default();
                    self.note = Some(format!("{} choices for this move; the first was played ({name})", candidates.len()));
                }
                self.play(m);
                return;
            }
        }
        let us = pos.side_to_move();
        if let Some((_, side)) = pos.piece_at(sq)
            && side == us
        {
            self.selected = Some(sq);
            self.targets = self.moves_from(sq).iter().map(|m| m.to as usize).collect();
            self.targets.sort_unstable();
            self.targets.dedup();
            self.refusal = None;
            return;
        }
        if let Some(from) = self.selected {
            self.selected = None;
            self.targets.clear();
            self.refuse(format!("{}{}", board.name(from), board.name(sq)));
            return;
        }
        let legal = pos.legal_moves();
        if pos.chain_game() || legal.iter().any(|m| matches!(m.kind, MoveKind::Place(_))) {
            let place = legal
                .into_iter()
                .find(|m| matches!(m.kind, MoveKind::Place(_)) && m.to as usize == sq);
            match place {
                Some(m) => self.play(m),
                None => self.refuse(board.name(sq)),
            }
        }
    }

    /// The last move played, in coordinates, if any was played by a click.
    pub fn last_move_text(&self) -> Option<String> {
        let moves = self.game.moves();
        let positions = self.game.positions();
        let m = *moves.last()?;
        let before = positions.get(positions.len().checked_sub(2)?)?;
        Some(uci::to_text(before, m))
    }
}

fn handle_clicks(mut clicks: MessageReader<Clicked>, mut session: ResMut<Session>) {
    for c in clicks.read() {
        session.click(c.0);
        debug!(
            "click on {}: selected {:?}, {} target(s), ply {}, refusal {:?}",
            session
                .engine
                .rules()
                .board
                .name(c.0.min(session.engine.rules().board.squares().saturating_sub(1))),
            session.selected,
            session.targets.len(),
            session.game.ply(),
            session.refusal.as_ref().map(|r| &r.code)
        );
    }
}

fn handle_replay(mut commands: MessageReader<Replay>, mut session: ResMut<Session>) {
    for r in commands.read() {
        session.replay(*r);
    }
}

/// The sandbox's logic: messages and the systems that apply them to the [`Session`]. Needs no window.
pub fn plugin(app: &mut App) {
    app.add_message::<Clicked>()
        .add_message::<Replay>()
        .add_systems(Update, (handle_replay, handle_clicks).chain());
}
