//! The action model: every change of position in the sandbox is an [`Action`] applied by
//! [`Session::apply`], which goes through the interpreter's API — `Game::play` for a move found among
//! the legal moves, `Game::undo` to take one back, `Engine::from_fen` for a timeline frame or an edited
//! position, `Game::set_dead` and `Game::claim` — and appends a [`Logged`] entry. Replay, take-back
//! and editing therefore cannot drift from the rules: a refused action leaves the game as it was.

use arbiter::game::{Game, MoveKind};
use arbiter::model::{KindId, Side};
use arbiter::notation::{self, record};
use arbiter::scenario::{Frame, pick_random};
use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::SeedableRng;

use crate::session::Session;
use crate::session::editor;
use crate::session::tree::NodeId;

/// A change to the game.
#[derive(Clone, Debug, PartialEq)]
pub enum Action {
    /// Play the legal move this text names: coordinates (`e2e4`, `e7e8q`, `D4`, `pass`), or the
    /// ruleset's notation.
    Play(String),
    /// Play a move drawn uniformly from the legal moves (sorted by coordinates) by ChaCha8 seeded
    /// with `seed`, as a scenario's `Random` step draws.
    Random { seed: u64 },
    /// Take back the last move (`Game::undo`).
    TakeBack,
    /// Load timeline position `i` (clamped to the timeline).
    GoTo(usize),
    /// Go to a move of the variation tree.
    GoToNode(NodeId),
    /// Make the variation through this move the main line.
    Promote(NodeId),
    /// Delete the variation from this move on.
    Delete(NodeId),
    /// Bring back the variation deleted last.
    UndoDelete,
    /// Change the position (the referee's editor); the result must pass `Engine::from_fen`. The
    /// edited position starts a timeline of its own (moves played from it are its line); what was
    /// there before comes back with [`Action::UndoEdit`].
    Edit(Edit),
    /// Undo the last edit: the timeline, the moves and the position before it come back.
    UndoEdit,
    /// Mark the chain on this point dead, or alive again if it was marked (games that capture chains).
    MarkDead(usize),
    /// Claim the draw with this reason code, if the side to move may.
    ClaimDraw(String),
    /// Open the ruleset file again and replay the current line under it ([`Session::reload_rules`]).
    Reload,
    /// Save the game as a RON scenario at this path with the trainer's marks and caption
    /// (`editor::save_scenario`); the position stays.
    Save(std::path::PathBuf, crate::session::marks::Marks),
    /// Write the game with its variations as a record (PGN, or SGF for games that capture chains)
    /// at this path ([`crate::session::records::export`]); the position stays.
    Export(std::path::PathBuf),
}

/// An edit of the position.
#[derive(Clone, Debug, PartialEq)]
pub enum Edit {
    /// Put a piece on a square, replacing what stood there.
    Put { square: usize, kind: KindId, side: Side },
    /// Empty a square.
    Clear(usize),
    /// Give the move to this side.
    SideToMove(Side),
    /// Replace the position with this FEN (for rights, counters and the other fields).
    Fen(String),
}

/// One entry of the action log.
#[derive(Clone, Debug, PartialEq)]
pub struct Logged {
    pub action: Action,
    /// Was it done (or refused)?
    pub ok: bool,
    /// What happened, in words: the move as the ruleset writes it, or why it was refused.
    pub said: String,
}

impl Session {
    /// Applies an action and logs it.
    ///
    /// # Errors
    /// Why the action was refused (an illegal move, an invalid edit, nothing to take back, ...); the
    /// game is left as it was.
    pub fn apply(&mut self, action: Action) -> Result<(), String> {
        self.note = None;
        let result = match &action {
            // Logged by `reload_rules` itself, which a file watcher also calls directly.
            Action::Reload => return self.reload_from_source(),
            Action::Play(text) => self.play_found(text),
            Action::Random { seed } => self.play_random(*seed),
            Action::TakeBack => self.take_back(),
            Action::GoTo(i) => self.load_frame(*i).map(|()| format!("step {}", self.step)),
            Action::GoToNode(id) => self.go_to_node(*id),
            Action::Promote(id) => self.promote(*id),
            Action::Delete(id) => self.delete_branch(*id),
            Action::UndoDelete => self.undo_delete(),
            Action::Edit(e) => self.edit(e),
            Action::UndoEdit => self.undo_edit(),
            Action::MarkDead(sq) => self.mark_dead(*sq),
            Action::ClaimDraw(reason) => self.claim(reason),
            Action::Save(path, marks) => crate::session::editor::save_scenario(self, marks, path)
                .map(|p| format!("saved {} (it passes the scenario runner)", p.display())),
            Action::Export(path) => crate::session::records::export(self, path),
        };
        let (ok, said) = match &result {
            Ok(s) => (true, s.clone()),
            Err(e) => (false, e.clone()),
        };
        self.log.push(Logged { action, ok, said });
        result.map(|_| ())
    }

    /// After a change of position: nothing selected.
    pub(crate) fn settle(&mut self) {
        self.selected = None;
        self.selected_hand = None;
        self.targets.clear();
        self.choice = None;
        self.pending = None;
        self.refusal = None;
    }

    /// The squares of the game's last move (from, to), for highlighting; none after a pass. A
    /// roll has no squares: the move before it is shown.
    pub fn last_move(&self) -> Option<(usize, usize)> {
        self.game
            .moves()
            .iter()
            .rev()
            .find(|m| !matches!(m.kind, MoveKind::Roll(_)))
            .and_then(|m| match m.kind {
                MoveKind::Pass | MoveKind::Roll(_) => None,
                MoveKind::BearOff(_) => Some((m.from as usize, m.from as usize)),
                MoveKind::Place(_) | MoveKind::Drop(_) => Some((m.to as usize, m.to as usize)),
                MoveKind::Form(_) | MoveKind::Castle(_) | MoveKind::Swap => Some((m.from as usize, m.to as usize)),
            })
    }

    /// Plays the legal move `text` names (coordinates, or the ruleset's notation) unless the game is
    /// over; returns it as the ruleset writes it, or records the ruling that refuses it.
    fn play_found(&mut self, text: &str) -> Result<String, String> {
        if let Some(over) = self.game_over() {
            let message = over.message.clone();
            self.refusal = Some(crate::session::Refusal {
                text: text.to_string(),
                written: crate::session::written_refused(self.game.current(), text),
                ..over
            });
            return Err(message);
        }
        let pos = self.game.current().clone();
        match notation::find(&pos, text) {
            Some(m) => {
                let written = crate::session::written(&pos, m);
                self.game.play(m);
                if !self.game.dead().is_empty() {
                    self.game.set_dead(Vec::new());
                }
                self.record_hand_move(&arbiter::notation::uci::to_text(&pos, m), &written);
                self.settle();
                Ok(written)
            }
            None => {
                self.refuse(text);
                Err(match &self.refusal {
                    Some(r) => format!("{text}: illegal ({}): {}", r.code, r.message),
                    None => format!("no legal move is written `{text}`"),
                })
            }
        }
    }

    fn play_random(&mut self, seed: u64) -> Result<String, String> {
        if let Some(over) = self.game_over() {
            return Err(over.message);
        }
        let pos = self.game.current().clone();
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let m = pick_random(&pos, &mut rng).ok_or("there is no legal move")?;
        let text = arbiter::notation::uci::to_text(&pos, m);
        self.play_found(&text).map(|w| format!("{w} (seed {seed})"))
    }

    fn take_back(&mut self) -> Result<String, String> {
        let m = self
            .game
            .undo()
            .ok_or("nothing to take back: the game starts at this position (loaded or edited)")?;
        if !self.game.dead().is_empty() {
            self.game.set_dead(Vec::new());
        }
        self.after_take_back();
        let written = crate::session::written(self.game.current(), m);
        self.settle();
        Ok(format!("took back {written}"))
    }

    /// Loads timeline position `i` (clamped): from the current game when the frames between follow
    /// by moves — forward by playing the steps' moves, back by undoing them — else replayed from the
    /// start, so the game keeps its history (repetitions) where the frames follow by moves.
    pub(crate) fn load_frame(&mut self, i: usize) -> Result<(), String> {
        if self.timeline.is_empty() {
            return Err("the timeline is empty".to_string());
        }
        let i = i.min(self.timeline.len() - 1);
        self.replayed = 0;
        // Back to the step first, undoing moves by hand that the tree holds.
        if self.off_script > 0 && !self.edited() {
            for _ in 0..self.off_script {
                self.game.undo();
            }
            self.replayed += self.off_script;
            self.off_script = 0;
            self.node = None;
        }
        let on_step = self.off_script == 0 && self.game.current().fen() == self.timeline[self.step].fen;
        let result = if on_step && i > self.step {
            let mut r = Ok(());
            for k in self.step + 1..=i {
                self.replayed += self.timeline[k].played.len();
                r = follow(&self.engine, &mut self.game, &self.timeline[k]);
                if r.is_err() {
                    break;
                }
            }
            r
        } else if on_step && i < self.step && self.undo_frames(i) {
            Ok(())
        } else if on_step && i == self.step {
            self.game.set_dead(self.timeline[i].dead.clone());
            Ok(())
        } else {
            self.replayed += self.timeline[1..=i].iter().map(|f| f.played.len()).sum::<usize>();
            self.rebuild(i)
        };
        match result {
            Ok(()) => {
                self.step = i;
                self.off_script = 0;
                self.node = None;
                self.settle();
                Ok(())
            }
            Err(e) => {
                let e = format!("step {i}: {e}");
                self.note = Some(e.clone());
                Err(e)
            }
        }
    }

    /// Undoes the moves of the steps after `i` up to the current one; whether that reached frame
    /// `i` (a step that set up a position cannot be undone, and the game is then left for a rebuild).
    fn undo_frames(&mut self, i: usize) -> bool {
        let moves: usize = self.timeline[i + 1..=self.step].iter().map(|f| f.played.len()).sum();
        if moves == 0 || moves > self.game.ply() {
            return false;
        }
        for _ in 0..moves {
            self.game.undo();
        }
        self.replayed += moves;
        if self.game.current().fen() == self.timeline[i].fen {
            self.game.set_dead(self.timeline[i].dead.clone());
            true
        } else {
            false
        }
    }

    /// The game at frame `i`, played from frame 0 (itself reached through the prelude's moves,
    /// when there are some).
    fn rebuild(&mut self, i: usize) -> Result<(), String> {
        let mut game = self.first_frame_game()?;
        game.set_dead(self.timeline[0].dead.clone());
        for f in &self.timeline[1..=i] {
            follow(&self.engine, &mut game, f)?;
        }
        self.game = game;
        Ok(())
    }

    /// The game at frame 0: the prelude played from its start where it reaches the frame, else a
    /// game that starts at the frame's FEN.
    fn first_frame_game(&self) -> Result<Game, String> {
        let first = &self.timeline[0].fen;
        if let Some(p) = &self.prelude
            && let Ok(start) = self.engine.from_fen(&p.fen)
        {
            let mut game = Game::new(self.engine.clone(), start);
            if record::play_line(&mut game, &p.moves).is_ok() && game.current().fen() == *first {
                return Ok(game);
            }
        }
        let start = self.engine.from_fen(first).map_err(|e| e.to_string())?;
        Ok(Game::new(self.engine.clone(), start))
    }

    fn edit(&mut self, e: &Edit) -> Result<String, String> {
        let pos = self.game.current().clone();
        let rules = pos.rules().clone();
        let (fen, said) = match e {
            Edit::Put { square, kind, side } => (
                editor::fen_with(&pos, *square, Some((*kind, *side))),
                if rules.kind(*kind).neutral {
                    format!("put a {} on {}", rules.kind(*kind).name.to_lowercase(), rules.board.name(*square))
                } else {
                    format!(
                        "put {}'s {} on {}",
                        rules.players[side.index()].name,
                        rules.kind(*kind).name.to_lowercase(),
                        rules.board.name(*square)
                    )
                },
            ),
            Edit::Clear(square) => (
                editor::fen_with(&pos, *square, None),
                format!("emptied {}", rules.board.name(*square)),
            ),
            Edit::SideToMove(side) => (
                editor::fen_to_move(&pos, *side),
                format!("{} to move", rules.players[side.index()].name),
            ),
            Edit::Fen(text) => (text.trim().to_string(), "set the position from FEN".to_string()),
        };
        match self.engine.from_fen(&fen) {
            Ok(p) => {
                // The edited position starts a timeline of its own; the old one waits for an undo.
                let game = Game::new(self.engine.clone(), p);
                let start = arbiter::scenario::Frame {
                    step: 0,
                    fen: game.current().fen(),
                    played: Vec::new(),
                    caption: None,
                    highlight: Vec::new(),
                    arrows: Vec::new(),
                    dead: Vec::new(),
                    expectations: Vec::new(),
                };
                let before = crate::session::BeforeEdit {
                    timeline: std::mem::replace(&mut self.timeline, vec![start]),
                    prelude: self.prelude.take(),
                    step: std::mem::take(&mut self.step),
                    game: std::mem::replace(&mut self.game, game),
                    off_script: std::mem::take(&mut self.off_script),
                    variations: std::mem::take(&mut self.variations),
                    node: self.node.take(),
                    edited_start: std::mem::replace(&mut self.edited_start, true),
                    // Deletions were of the old tree: they can be undone again with it.
                    deleted: std::mem::take(&mut self.deleted),
                    // The record's notes were of its moves: the new timeline has none.
                    record: self.record.take(),
                };
                if self.before_edits.len() >= crate::session::MAX_UNDONE_EDITS {
                    self.before_edits.remove(0);
                }
                self.before_edits.push(before);
                self.edit_error = None;
                self.settle();
                Ok(said)
            }
            Err(err) => {
                let why = format!("{said}: refused: {err}");
                self.edit_error = Some(why.clone());
                Err(why)
            }
        }
    }

    fn undo_edit(&mut self) -> Result<String, String> {
        let Some(b) = self.before_edits.pop() else {
            return Err("there is no edit to undo".to_string());
        };
        self.timeline = b.timeline;
        self.prelude = b.prelude;
        self.step = b.step;
        self.game = b.game;
        self.off_script = b.off_script;
        self.variations = b.variations;
        self.node = b.node;
        self.edited_start = b.edited_start;
        self.deleted = b.deleted;
        self.record = b.record;
        self.edit_error = None;
        self.settle();
        Ok(format!("undid the edit ({} left to undo)", self.before_edits.len()))
    }

    fn mark_dead(&mut self, sq: usize) -> Result<String, String> {
        let pos = self.game.current();
        let name = pos.rules().board.name(sq);
        if !pos.chain_game() {
            return Err("these rules do not capture chains: there is nothing to mark dead".to_string());
        }
        if pos.piece_at(sq).is_none() {
            return Err(format!("{name} is empty: there is no chain to mark"));
        }
        let chain = pos.chain_at(sq);
        let mut dead = self.game.dead().to_vec();
        let was = dead.iter().any(|d| chain.contains(d) || *d == sq);
        if was {
            dead.retain(|d| !chain.contains(d) && *d != sq);
        } else {
            dead.push(sq);
        }
        self.game.set_dead(dead);
        Ok(format!("the chain on {name} marked {}", if was { "alive" } else { "dead" }))
    }

    fn claim(&mut self, reason: &str) -> Result<String, String> {
        match self.game.claim(reason) {
            Ok(()) => {
                self.settle();
                Ok(format!("claimed a draw ({reason})"))
            }
            Err(open) if open.is_empty() => Err(format!("no draw can be claimed now (asked: {reason})")),
            Err(open) => Err(format!("`{reason}` cannot be claimed now; claimable: {}", open.join(", "))),
        }
    }

    fn reload_from_source(&mut self) -> Result<(), String> {
        let Some(path) = self.rules_path.clone() else {
            return Err("no ruleset file to reload".to_string());
        };
        let opened = crate::session::source::reopen(&self.origin, &path, &self.params);
        if self.reload_rules(opened) {
            Ok(())
        } else {
            Err(format!("{} has errors; the last good rules stay in use", path.display()))
        }
    }
}

/// Plays a frame's moves on `game`; when they do not lead to the frame's position (a take-back, a
/// dead marking, a script that starts over), the game starts afresh from the frame's FEN.
pub(crate) fn follow(engine: &arbiter::game::Engine, game: &mut Game, frame: &Frame) -> Result<(), String> {
    let before = game.ply();
    let reached = !frame.played.is_empty() && record::play_line(game, &frame.played).is_ok() && game.current().fen() == frame.fen;
    if !reached {
        while game.ply() > before {
            game.undo();
        }
        // A frame reached by taking moves back: undone here too, so the game keeps its history.
        if game.current().fen() != frame.fen
            && let Some(back) = game.positions().iter().rev().position(|p| p.fen() == frame.fen)
        {
            for _ in 0..back {
                game.undo();
            }
        }
        if game.current().fen() != frame.fen {
            let pos = engine.from_fen(&frame.fen).map_err(|e| e.to_string())?;
            *game = Game::new(engine.clone(), pos);
        }
    }
    game.set_dead(frame.dead.clone());
    Ok(())
}
