//! Moving through the game: the timeline's steps and the [`Tree`](crate::session::tree::Tree) of moves played
//! by hand. Every step is incremental where the line allows it — one step forward plays one move, one
//! step back undoes one (`Game::undo`), a jump between two steps plays or undoes only the moves between
//! them — and the game is replayed from the start only when the positions do not follow by moves (an
//! edit, a scenario step that sets up a position). [`Session::replayed`] counts the moves the last
//! navigation played or undid, so tests can hold the work to what the distance needs.

use arbiter::game::Game;
use arbiter::notation::record;
use arbiter::scenario::Frame;

use crate::session::actions::Action;
use crate::session::tree::NodeId;
use crate::session::{Replay, Session};

/// Where a [`Replay`] command leads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    Step(usize),
    Node(NodeId),
    /// Nowhere (the end of a branch, no other variation).
    Stay,
}

impl Session {
    /// The number of moves played by hand since the step that the tree knows of: the depth of the
    /// current node.
    pub fn branch_depth(&self) -> usize {
        self.node.map_or(0, |n| self.variations.depth(n))
    }

    /// Has the position been edited (or otherwise changed outside the tree) since the step?
    pub fn edited(&self) -> bool {
        self.off_script != self.branch_depth()
    }

    /// Where a [`Replay`] command leads from here.
    pub fn replay_goal(&self, r: Replay) -> Target {
        let last = self.timeline.len().saturating_sub(1);
        let on_tree = !self.edited();
        match r {
            Replay::First => Target::Step(0),
            Replay::Last => Target::Step(last),
            Replay::To(i) => Target::Step(i.min(last)),
            Replay::Node(id) => match self.variations.node(id) {
                Some(_) => Target::Node(id),
                None => Target::Stay,
            },
            Replay::Back if !on_tree => Target::Step(self.step),
            Replay::Back => match self.node.and_then(|n| self.variations.node(n)) {
                Some(n) => n.parent.map_or(Target::Step(self.step), Target::Node),
                None => Target::Step(self.step.saturating_sub(1)),
            },
            Replay::Forward if !on_tree => Target::Stay,
            Replay::Forward => match self.node {
                Some(n) => self
                    .variations
                    .children(self.step, Some(n))
                    .first()
                    .map_or(Target::Stay, |&c| Target::Node(c)),
                None if self.step < last => Target::Step(self.step + 1),
                // At the end of the main line, into the first branch that starts there.
                None => self.variations.roots(self.step).first().map_or(Target::Stay, |&c| Target::Node(c)),
            },
            Replay::Up | Replay::Down if !on_tree => Target::Stay,
            Replay::Up | Replay::Down => {
                let options = self.alternatives();
                let here = match self.node {
                    Some(n) => Target::Node(n),
                    None => Target::Step(self.step),
                };
                let Some(i) = options.iter().position(|t| *t == here) else {
                    return Target::Stay;
                };
                let j = if r == Replay::Up { i.checked_sub(1) } else { Some(i + 1) };
                j.and_then(|j| options.get(j).copied()).unwrap_or(Target::Stay)
            }
        }
    }

    /// The alternatives to the move that led here, in the list's order: the main line's move first
    /// (when the move left a step), then the branches played from the same position.
    pub fn alternatives(&self) -> Vec<Target> {
        match self.node.and_then(|n| self.variations.node(n)) {
            Some(n) if n.parent.is_some() => self
                .variations
                .siblings(self.node.unwrap_or(NodeId(0)))
                .into_iter()
                .map(Target::Node)
                .collect(),
            Some(n) => self.main_and_roots(n.anchor),
            None if self.step > 0 => self.main_and_roots(self.step - 1),
            None => Vec::new(),
        }
    }

    fn main_and_roots(&self, anchor: usize) -> Vec<Target> {
        let main = (anchor + 1 < self.timeline.len()).then_some(Target::Step(anchor + 1));
        main.into_iter()
            .chain(self.variations.roots(anchor).into_iter().map(Target::Node))
            .collect()
    }

    /// The action that carries out a [`Replay`] command, if it goes anywhere.
    pub fn replay_action(&self, r: Replay) -> Option<Action> {
        match self.replay_goal(r) {
            Target::Step(i) => Some(Action::GoTo(i)),
            Target::Node(id) => Some(Action::GoToNode(id)),
            Target::Stay => None,
        }
    }

    /// Goes to a node of the tree: plays and undoes only the moves between here and there when both
    /// are in the tree, else goes to its step first.
    pub(crate) fn go_to_node(&mut self, id: NodeId) -> Result<String, String> {
        let Some(target) = self.variations.node(id).cloned() else {
            return Err("that variation was deleted".to_string());
        };
        let path = self.variations.path(id);
        let here = if self.edited() || target.anchor != self.step {
            Vec::new()
        } else {
            self.node.map(|n| self.variations.path(n)).unwrap_or_default()
        };
        let common = here.iter().zip(&path).take_while(|(a, b)| a == b).count();
        self.replayed = 0;
        if self.edited() || target.anchor != self.step {
            self.load_frame(target.anchor)?;
        } else {
            for _ in common..here.len() {
                self.game.undo();
                self.replayed += 1;
            }
        }
        let counted = self.replayed;
        let mut reached = path[..common].last().copied();
        for &n in &path[common..] {
            let coords = self.variations.nodes[n.0].coords.clone();
            if let Err(e) = record::play_line(&mut self.game, &[coords.as_str()]) {
                self.node = reached;
                self.off_script = self.branch_depth();
                self.settle();
                return Err(format!(
                    "{} cannot be played here: {}",
                    self.variations.nodes[n.0].written, e.message
                ));
            }
            self.replayed += 1;
            reached = Some(n);
        }
        self.replayed = counted + path.len() - common;
        if !self.game.dead().is_empty() {
            self.game.set_dead(Vec::new());
        }
        self.node = Some(id);
        self.off_script = path.len();
        self.settle();
        Ok(format!("variation at step {}: {}", target.anchor, target.written))
    }

    /// Records a move just played by hand: it follows the main line when it is the next step's
    /// move, else it goes into the tree (a new branch, or the node it already has).
    pub(crate) fn record_hand_move(&mut self, coords: &str, written: &str) {
        if self.edited() {
            self.off_script += 1;
            return;
        }
        let next = self.timeline.get(self.step + 1);
        let follows = self.node.is_none() && next.is_some_and(|f| f.played.len() == 1 && f.fen == self.game.current().fen());
        if follows {
            self.step += 1;
            self.game.set_dead(self.timeline[self.step].dead.clone());
            return;
        }
        let id = self.variations.add(self.step, self.node, coords, written);
        self.node = Some(id);
        self.off_script += 1;
    }

    /// Takes one move back in the tree's terms: the node goes to its parent (the move stays in the
    /// tree), or the step back when the move was the main line's.
    pub(crate) fn after_take_back(&mut self) {
        if self.off_script > 0 {
            if !self.edited()
                && let Some(n) = self.node
            {
                self.node = self.variations.node(n).and_then(|n| n.parent);
            }
            self.off_script -= 1;
        } else if self.step > 0 && self.timeline[self.step - 1].fen == self.game.current().fen() {
            self.step -= 1;
        } else {
            self.off_script = 1;
            self.node = None;
        }
    }

    /// Deletes a branch from `id` on; when the current position lies in it, goes to what precedes it.
    pub(crate) fn delete_branch(&mut self, id: NodeId) -> Result<String, String> {
        let Some(n) = self.variations.node(id).cloned() else {
            return Err("that variation was already deleted".to_string());
        };
        let inside = !self.edited() && self.node.is_some_and(|c| self.variations.path(c).contains(&id));
        if inside {
            match n.parent {
                Some(p) => {
                    self.go_to_node(p)?;
                }
                None => self.load_frame(n.anchor)?,
            }
        }
        if let Some(gone) = self.variations.delete_keeping(id) {
            self.deleted.push(gone);
        }
        Ok(format!("deleted the variation from {} (Undo delete brings it back)", n.written))
    }

    /// Brings back the variation deleted last, where it was among its siblings.
    pub(crate) fn undo_delete(&mut self) -> Result<String, String> {
        let Some(gone) = self.deleted.pop() else {
            return Err("there is no deleted variation to bring back".to_string());
        };
        self.variations.restore(&gone);
        let written = self.variations.node(gone.id).map(|n| n.written.clone()).unwrap_or_default();
        Ok(format!("brought back the variation from {written}"))
    }

    /// Makes the branch through `id` the main line from its anchor on: its moves (down to `id`, then
    /// along first continuations) become the timeline's steps, and the main line's old moves become a
    /// branch. Only where the old steps are single moves without expectations (a record, or moves by
    /// hand): a scenario's steps carry checks and set-ups that a branch cannot hold. The old steps'
    /// captions (a record's result) are not kept.
    pub(crate) fn promote(&mut self, id: NodeId) -> Result<String, String> {
        let Some(n) = self.variations.node(id).cloned() else {
            return Err("that variation was deleted".to_string());
        };
        let anchor = n.anchor;
        let old: Vec<Frame> = self.timeline.get(anchor + 1..).map(<[Frame]>::to_vec).unwrap_or_default();
        if old.iter().any(|f| f.played.len() != 1 || !f.expectations.is_empty()) {
            return Err("the main line's steps here are not single moves (a scenario's steps): it stays".to_string());
        }
        // The promoted line: the path to `id`, then its first continuations.
        let mut line = self.variations.path(id);
        while let Some(c) = line
            .last()
            .and_then(|&l| self.variations.children(anchor, Some(l)).first().copied())
        {
            line.push(c);
        }
        self.load_frame(anchor)?;
        // The new frames, played from the anchor.
        let mut game: Game = self.game.clone();
        let mut frames = Vec::new();
        for (k, &node) in line.iter().enumerate() {
            let coords = self.variations.nodes[node.0].coords.clone();
            record::play_line(&mut game, &[coords.as_str()]).map_err(|e| format!("the variation no longer plays: {}", e.message))?;
            frames.push(Frame {
                step: anchor + 1 + k,
                fen: game.current().fen(),
                played: vec![coords],
                caption: None,
                highlight: Vec::new(),
                arrows: Vec::new(),
                dead: Vec::new(),
                expectations: Vec::new(),
            });
        }
        // The old steps' moves (in the record's notation) in coordinates and as the ruleset writes them.
        let old_moves: Vec<(String, String)> = {
            let mut g = self.game.clone();
            let mut out = Vec::new();
            for f in &old {
                let pos = g.current().clone();
                let Some(m) = arbiter::notation::find(&pos, &f.played[0]) else {
                    break;
                };
                out.push((arbiter::notation::uci::to_text(&pos, m), arbiter::notation::written(&pos, m)));
                g.play(m);
            }
            out
        };
        self.variations.promote(&line, anchor, &old_moves);
        self.timeline.truncate(anchor + 1);
        self.timeline.extend(frames);
        self.node = None;
        self.off_script = 0;
        let to = anchor + line.iter().position(|&l| l == id).map_or(0, |p| p + 1);
        self.load_frame(to)?;
        Ok(format!(
            "promoted the variation from {} to the main line",
            self.variations.nodes[line[0].0].written
        ))
    }
}
