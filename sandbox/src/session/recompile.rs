//! The session's side of hot reload: when the `.rules` file in use changes, [`Session::reload_rules`]
//! takes what opening it again gave. Errors (each as `arbiter check` renders it: message, file:line:col, the source line with a caret, the help) are
//! kept for the panel and the last good rules stay in use. New rules replace the engine and the
//! timeline, and the current line — the game's start and every move since, in coordinates — is
//! replayed under them through the interpreter; the first move they refuse stops the replay and is
//! flagged as [`Broken`]. The file watcher itself lives elsewhere (`reload.rs`).

use arbiter::game::Game;
use arbiter::notation::{self, record, uci};

use crate::session::Session;
use crate::session::actions::{Action, Logged};
use crate::session::source::Opened;

/// The first move of the line that the reloaded rules refuse.
#[derive(Clone, Debug, PartialEq)]
pub struct Broken {
    /// 1-based ply in the game's line (0: the start position itself no longer fits the rules).
    pub ply: usize,
    /// The move as the old rules wrote it.
    pub text: String,
    /// The new rules' ruling: reason code, sentence and clause.
    pub code: String,
    pub message: String,
    pub clause: Option<String>,
}

impl Broken {
    /// `ply 5 Nf3 is illegal under the new rules: …`.
    pub fn sentence(&self) -> String {
        let clause = self.clause.as_ref().map(|c| format!(" [{c}]")).unwrap_or_default();
        if self.ply == 0 {
            format!("the start position does not fit the new rules: {}", self.message)
        } else {
            format!(
                "ply {} {} is illegal under the new rules ({}{clause}): {}",
                self.ply, self.text, self.code, self.message
            )
        }
    }
}

impl Session {
    /// Takes a reloaded ruleset: `Err` carries its errors (kept in [`Session::rule_errors`]; the engine
    /// and game stay); `Ok` replaces the engine (bumping [`Session::generation`]) and the timeline and
    /// replays the current line under the new rules, flagging the first move they refuse in
    /// [`Session::broken`]. Logged as [`Action::Reload`]. Returns whether the new rules are in use.
    pub fn reload_rules(&mut self, result: Result<Opened, Vec<String>>) -> bool {
        let opened = match result {
            Err(errors) => {
                let said = format!(
                    "kept the last good rules: {} error{}",
                    errors.len(),
                    if errors.len() == 1 { "" } else { "s" }
                );
                self.rule_errors = errors;
                self.log.push(Logged {
                    action: Action::Reload,
                    ok: false,
                    said,
                });
                return false;
            }
            Ok(o) => o,
        };
        // The current line under the old rules: its start, and each move in coordinates and as written.
        let start = self.game.positions()[0].fen();
        let line: Vec<(String, String)> = self
            .game
            .moves()
            .iter()
            .zip(self.game.positions())
            .map(|(m, p)| (uci::to_text(p, *m), notation::written(p, *m)))
            .collect();
        let dead = self.game.dead().to_vec();
        let (step, off_script) = (self.step, self.off_script);
        // The moves by hand in the tree (they stay there, whatever the new rules say of them).
        let depth = if self.edited() { None } else { Some(self.branch_depth()) };

        self.engine = opened.engine;
        self.generation += 1;
        self.title = opened.title;
        // A timeline that starts from an edit is the user's: it stays (its moves are replayed
        // below like any line).
        if !self.edited_start {
            self.timeline = opened.timeline;
            self.prelude = opened.prelude;
            self.record = opened.record;
        }
        self.rules_path = Some(opened.rules_path);
        self.params = opened.params;
        self.rule_errors.clear();
        self.broken = None;
        self.edit_error = None;
        self.note = opened.stopped;

        let said = match self.engine.from_fen(&start) {
            Err(e) => {
                self.broken = Some(Broken {
                    ply: 0,
                    text: start,
                    code: "fen".to_string(),
                    message: e.to_string(),
                    clause: None,
                });
                let _ = self.load_frame(step);
                self.broken.as_ref().map(Broken::sentence).unwrap_or_default()
            }
            Ok(pos) => {
                let mut game = Game::new(self.engine.clone(), pos);
                let coords: Vec<&str> = line.iter().map(|(c, _)| c.as_str()).collect();
                match record::play_line(&mut game, &coords) {
                    Ok(()) => game.set_dead(dead),
                    Err(stop) => {
                        self.broken = Some(Broken {
                            ply: stop.index + 1,
                            text: line[stop.index].1.clone(),
                            code: stop.code,
                            message: stop.message,
                            clause: stop.clause,
                        });
                    }
                }
                self.game = game;
                self.step = step.min(self.timeline.len().saturating_sub(1));
                let on_frame = self.timeline.get(self.step).is_some_and(|f| f.fen == self.game.current().fen());
                self.off_script = if on_frame && self.broken.is_none() { 0 } else { off_script.max(1) };
                // A refused move by hand and what follows it stay in the tree: the position goes to
                // the last move the new rules allow, and the rest can be tried again from the list.
                if let (Some(b), Some(depth)) = (&self.broken, depth) {
                    let main = line.len().saturating_sub(depth);
                    let reached = b.ply.saturating_sub(1);
                    if reached >= main && self.step == step {
                        let keep = reached - main;
                        let path = self.node.map(|n| self.variations.path(n)).unwrap_or_default();
                        self.node = keep.checked_sub(1).and_then(|k| path.get(k).copied());
                        self.off_script = keep;
                    } else {
                        self.node = None;
                    }
                }
                self.settle();
                match &self.broken {
                    Some(b) => b.sentence(),
                    None => format!("replayed {} move(s) under the new rules", line.len()),
                }
            }
        };
        self.log.push(Logged {
            action: Action::Reload,
            ok: self.broken.is_none(),
            said,
        });
        true
    }
}
