//! The session room, the sandbox's core, which names no other room: the game on screen and what it
//! is made of. [`Session`] holds the interpreter's `Game`, the timeline of what was opened (a
//! scenario's steps or a record's plies), the selection, the last ruling, the rules in use and the log
//! of what was done. Every change of position is an [`Action`] applied by [`Session::apply`]
//! ([`actions`]) through the interpreter's API — `Game::play` / `undo` / `set_dead` / `claim`,
//! `Engine::from_fen` — and recorded in [`Session::log`]; this module never edits a board itself.
//!
//! Input arrives as messages: [`Clicked`] (a square, read by the [`Tools`] mode: play, edit, mark dead),
//! [`ClickedHand`] (a piece in a player's hand, to drop), [`ClickedAway`] (beside the board: cancel),
//! [`Pick`] (an option of the choice or of the turn under way, from the panel), [`Replay`] (the
//! timeline) and [`Apply`] (any action, from the panel). A turn of several parts is entered part by
//! part ([`Pending`], [`turns`]) and played whole, as one [`Action::Play`]. Needs no window: the
//! tests drive it in a bare `App`.

pub mod actions;
pub mod editor;
pub mod marks;
pub mod recompile;
pub mod records;
pub mod source;
pub mod tree;
pub mod turns;

use std::path::PathBuf;

use arbiter::game::{Engine, Game, MAX_PARTS, Move, MoveKind, Position, Ruling, Status};
use arbiter::model::{KindId, PartAction, Primitive, Side};
use arbiter::notation::{self, uci};
use arbiter::scenario::Frame;
use bevy::prelude::*;

pub use crate::session::actions::{Action, Edit, Logged};
pub use crate::session::recompile::Broken;
use crate::session::source::Opened;

/// A click on a square or point of the board (its index in the ruleset's board).
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clicked(pub usize);

/// A click on a piece in a player's hand (its kind): selects it to drop, if that player is to move.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClickedHand {
    pub side: Side,
    pub kind: KindId,
}

/// A click beside the board and the hands: drops the selection and any pending choice or turn.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClickedAway;

/// A move along the timeline (each becomes [`Action::GoTo`]).
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Replay {
    First,
    /// One step back; after moves by hand, back to the step they started from.
    Back,
    Forward,
    Last,
    To(usize),
    /// A move in the variation tree.
    Node(crate::session::tree::NodeId),
    /// The previous alternative to the move that led here (the main line's move comes first).
    Up,
    /// The next alternative to the move that led here.
    Down,
}

/// An action to apply to the session (the panel's buttons send these).
#[derive(Message, Clone, Debug, PartialEq)]
pub struct Apply(pub Action);

/// An option picked in the panel for the turn being entered (nothing is played until the turn is
/// whole; then it is played as [`Action::Play`]).
#[derive(Message, Clone, Debug, PartialEq, Eq)]
pub enum Pick {
    /// One of the [`Choice`]'s options: its move, in coordinates (the turn's first part).
    First(String),
    /// A way to make the [`Pending`] turn's next part: its slot (`Move::part`; 0 leaves the part out).
    Part(u16),
}

/// A refused move: the interpreter's ruling on it.
#[derive(Clone, Debug, PartialEq)]
pub struct Refusal {
    /// The move as asked for (coordinates from a click, or as typed).
    pub text: String,
    /// The move as the ruleset writes moves ([`written_refused`]): `Ng8–e5` where the ruleset
    /// writes SAN or WXF, the text itself otherwise.
    pub written: String,
    pub code: String,
    pub message: String,
    pub clause: Option<String>,
}

/// A turn as the ruleset writes it (`notation::written`, which writes every part: `Nc3/H`,
/// `e4,d5`), its later parts added should that text leave them out (a notation writing the first
/// part alone would make two turns read alike): `/H` for a piece dropped on the square the move
/// left, `/Hh1` on another square, `,d5` for a piece placed or removed; check marks stay last.
pub fn written(pos: &Position, m: Move) -> String {
    let text = notation::written(pos, m);
    if (0..MAX_PARTS).all(|i| m.part(i) == 0) {
        return text;
    }
    let bare = |t: &str| t.trim_end_matches(['+', '#']).to_string();
    let first = bare(&notation::written(pos, m.first_part()));
    if bare(&text) != first {
        return text;
    }
    let rules = pos.rules();
    let mut parts = String::new();
    for i in 0..MAX_PARTS {
        let Some((part, kind, sq)) = pos.part_of(m, i) else { continue };
        match (rules.turn.get(part).map(|p| &p.action), kind) {
            (Some(PartAction::Gate { .. }), Some(k)) => {
                parts.push('/');
                parts.push(rules.kind(k).letter);
                if sq != m.from as usize {
                    parts.push_str(&rules.board.name(sq));
                }
            }
            _ => {
                parts.push(',');
                parts.push_str(&rules.board.name(sq));
            }
        }
    }
    let marks = &text[bare(&text).len()..];
    format!("{}{parts}{marks}", bare(&text))
}

/// A refused move written as the ruleset writes moves, so a ruling reads like the move list: where
/// the notation names pieces by letter (SAN, WXF), the piece's letter, its square, `–` or `x` (onto
/// an enemy piece), and the target — `Ng8–e5`, `Qd1xd5`; a piece written without a letter (a pawn)
/// by its squares alone, `e2–e5`. An illegal move has no SAN or WXF of its own (those name legal
/// moves by what tells them apart), so this long form is the honest one. Other notations, and a
/// text that is not a from-and-to square pair, stay as given.
pub fn written_refused(pos: &arbiter::game::Position, text: &str) -> String {
    let rules = pos.rules();
    if rules.notation == arbiter::model::Notation::Coordinates {
        return text.to_string();
    }
    let Some(mt) = arbiter::game::movetext::parse_text(pos, text) else {
        return text.to_string();
    };
    let Some((kind, side)) = pos.piece_at(mt.from) else {
        return text.to_string();
    };
    let k = rules.kind(kind);
    let letter = if k.unlettered { String::new() } else { k.written.to_string() };
    let takes = pos.piece_at(mt.to).is_some_and(|(_, s)| s != side);
    let b = &rules.board;
    format!("{letter}{}{}{}", b.name(mt.from), if takes { "x" } else { "–" }, b.name(mt.to))
}

/// A click on a target that several moves reach (promotion choices, or continuing captures that
/// take different routes to the same square): nothing is played until one is chosen.
#[derive(Clone, Debug, PartialEq)]
pub struct Choice {
    pub from: usize,
    pub to: usize,
    /// Each option: the move in coordinates (to pick as [`Pick::First`]: played as [`Action::Play`],
    /// or pending where it begins a turn of several parts) and its label — the kind it makes, or its
    /// route (`c3-e5-g7`) when the routes differ.
    pub options: Vec<(String, String)>,
}

/// The way a move went, for drawing: its start and every square it lands on, in order, and the
/// squares it jumped over.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MovePath {
    pub squares: Vec<usize>,
    pub jumped: Vec<usize>,
}

/// What a click on the board does.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Mode {
    /// Select a piece, play to a target, place a piece.
    #[default]
    Play,
    /// Put the [`Tools::brush`] on the square ([`Action::Edit`]); nothing while no brush is armed.
    Edit,
    /// Mark the chain under the click dead, or alive again ([`Action::MarkDead`]).
    MarkDead,
}

/// What the editor puts on a clicked square.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Brush {
    Piece(KindId, Side),
    Erase,
}

/// How clicks are read, and the panel's inputs that are not part of the game.
#[derive(Resource, Clone, Debug, PartialEq)]
pub struct Tools {
    pub mode: Mode,
    /// The editor's armed brush (`None`: a click in the editor changes nothing). Armed from the
    /// panel's palette; put down by a second click on it, Esc, a right-click or a click beside the
    /// board ([`ClickedAway`]), or leaving the editor.
    pub brush: Option<Brush>,
    /// The seed of the next "random move" (shown, and editable, in the panel).
    pub seed: u64,
    /// The editor's FEN field.
    pub fen_text: String,
    /// The position's FEN when the field was last filled from it (the field follows the position).
    pub fen_shown: String,
    /// Where "save as scenario" writes (empty: a fresh name in `editor::save_dir`).
    pub save_path: String,
    /// The FEN last put on the clipboard.
    pub copied: Option<String>,
    /// The shortcut sheet is shown (`?`, F1 or the panel's `?` button).
    pub help: bool,
}

impl Tools {
    /// Arms `brush`, or puts it down when it is the one armed (a second click on it in the palette).
    pub fn arm(&mut self, brush: Brush) {
        self.brush = if self.brush == Some(brush) { None } else { Some(brush) };
    }
}

impl Default for Tools {
    fn default() -> Tools {
        Tools {
            mode: Mode::Play,
            brush: None,
            seed: 1,
            fen_text: String::new(),
            fen_shown: String::new(),
            save_path: String::new(),
            copied: None,
            help: false,
        }
    }
}

/// The state of the sandbox.
#[derive(Resource)]
pub struct Session {
    pub engine: Engine,
    /// Bumped whenever `engine` is replaced (a reloaded ruleset), so the board is drawn anew.
    pub generation: u64,
    pub title: String,
    /// What was opened (a path or a bundled name), to open again on a reload.
    pub origin: String,
    /// The `.rules` file in use: a file watcher watches it.
    pub rules_path: Option<PathBuf>,
    /// The ruleset parameters in force (a scenario's or a record's).
    pub params: Vec<(String, String)>,
    pub timeline: Vec<Frame>,
    /// The moves that lead to the timeline's first frame, if it has a history of its own.
    pub prelude: Option<crate::session::source::Prelude>,
    /// Index into `timeline` of the position last loaded from it.
    pub step: usize,
    pub game: Game,
    /// Changes made by hand (moves, edits) since the timeline position was loaded; while there are
    /// any, the frame's caption and marks are not shown.
    pub off_script: usize,
    /// The moves played by hand, kept as branches off the timeline's steps.
    pub variations: crate::session::tree::Tree,
    /// The tree's node of the last move by hand (`None`: on the step itself). While no edit was made,
    /// `off_script` is its depth.
    pub node: Option<crate::session::tree::NodeId>,
    /// The moves the last navigation played or undid (see `navigate.rs`).
    pub replayed: usize,
    pub selected: Option<usize>,
    /// A kind in the hand of the side to move, selected to drop (then `targets` are where it may go).
    pub selected_hand: Option<KindId>,
    pub targets: Vec<usize>,
    /// A promotion or route choice waiting for the player.
    pub choice: Option<Choice>,
    /// A turn of several parts being entered: its move chosen, its later parts chosen one by one.
    pub pending: Option<crate::session::turns::Pending>,
    pub refusal: Option<Refusal>,
    /// A note for the panel (a frame that could not be loaded, a record cut short, ...).
    pub note: Option<String>,
    /// Why the last edit was refused (the interpreter's FEN error); the position stayed as it was.
    pub edit_error: Option<String>,
    /// Every action applied, in order.
    pub log: Vec<Logged>,
    /// Errors of the last reload, each rendered as `arbiter check` renders it (several lines: the message, `--> file:line:col`, the source line, a caret, the help); the rules in use
    /// are the last good ones.
    pub rule_errors: Vec<String>,
    /// The first move of the line that the reloaded rules refuse.
    pub broken: Option<Broken>,
    /// The timeline starts from an edited position (a reload keeps it rather than the source's).
    pub edited_start: bool,
    /// What each edit replaced, the last one last (undone by [`Action::UndoEdit`]).
    pub before_edits: Vec<BeforeEdit>,
    /// The variations deleted, the last one last (brought back by [`Action::UndoDelete`]).
    pub deleted: Vec<crate::session::tree::Deleted>,
    /// What the opened record carries beside its moves, written back by an export (`None` for a
    /// scenario or a bare ruleset, and once an edit has started a timeline of its own).
    pub record: Option<crate::session::records::RecordNotes>,
}

/// The most edits that can be undone (the oldest is forgotten beyond).
pub const MAX_UNDONE_EDITS: usize = 200;

/// The game as it was before an edit: its timeline, moves and position.
#[derive(Clone, Debug)]
pub struct BeforeEdit {
    pub timeline: Vec<Frame>,
    pub prelude: Option<crate::session::source::Prelude>,
    pub step: usize,
    pub game: Game,
    pub off_script: usize,
    pub variations: crate::session::tree::Tree,
    pub node: Option<crate::session::tree::NodeId>,
    pub edited_start: bool,
    pub deleted: Vec<crate::session::tree::Deleted>,
    pub record: Option<crate::session::records::RecordNotes>,
}

impl Session {
    /// A session at the start of what was opened.
    pub fn new(opened: Opened) -> Session {
        let game = Game::new(opened.engine.clone(), opened.engine.start());
        let mut s = Session {
            engine: opened.engine,
            generation: 0,
            title: opened.title,
            origin: opened.origin,
            rules_path: Some(opened.rules_path),
            params: opened.params,
            timeline: opened.timeline,
            prelude: opened.prelude,
            step: 0,
            game,
            off_script: 0,
            variations: opened.variations,
            record: opened.record,
            node: None,
            replayed: 0,
            selected: None,
            selected_hand: None,
            targets: Vec::new(),
            choice: None,
            pending: None,
            refusal: None,
            note: opened.stopped.or_else(|| {
                (!opened.skipped.is_empty()).then(|| format!("Skipped in the record's variations: {}", opened.skipped.join("; ")))
            }),
            edit_error: None,
            log: Vec::new(),
            rule_errors: Vec::new(),
            broken: None,
            edited_start: false,
            before_edits: Vec::new(),
            deleted: Vec::new(),
        };
        if let Err(e) = s.load_frame(0) {
            s.note = Some(e);
        }
        s
    }

    /// The current timeline frame (caption, highlights, arrows) unless changes were made by hand since.
    pub fn frame(&self) -> Option<&Frame> {
        (self.off_script == 0).then(|| self.timeline.get(self.step)).flatten()
    }

    /// Loads timeline position `i` (clamped), as [`Action::GoTo`].
    pub fn go_to(&mut self, i: usize) {
        let _ = self.apply(Action::GoTo(i));
    }

    /// Moves along the timeline or the variation tree (see [`Session::replay_goal`]).
    pub fn replay(&mut self, r: Replay) {
        if let Some(a) = self.replay_action(r) {
            let _ = self.apply(a);
        }
    }

    /// Is the game over (won, drawn, claimed)? The interpreter's outcome, as a refusal of any move.
    pub(crate) fn game_over(&self) -> Option<Refusal> {
        let o = self.game.outcome();
        (o.status != Status::Ongoing).then(|| Refusal {
            text: String::new(),
            written: String::new(),
            code: "game-over".to_string(),
            message: format!("the game is over: {}", o.message(self.game.current())),
            clause: o.clause.clone(),
        })
    }

    /// The legal moves of the piece on `from` (none once the game is over).
    fn moves_from(&self, from: usize) -> Vec<Move> {
        if self.game.outcome().status != Status::Ongoing {
            return Vec::new();
        }
        self.game
            .current()
            .legal_moves()
            .into_iter()
            .filter(|m| !matches!(m.kind, MoveKind::Place(_) | MoveKind::Pass) && m.from as usize == from)
            .collect()
    }

    /// The legal drops of a piece of `kind` from the hand of the side to move (none once the game is
    /// over).
    fn drops_of(&self, kind: KindId) -> Vec<Move> {
        if self.game.outcome().status != Status::Ongoing {
            return Vec::new();
        }
        let pos = self.game.current();
        pos.legal_moves()
            .into_iter()
            .filter(|m| matches!(m.kind, MoveKind::Drop(_)) && pos.form_of_place(*m) == Some(kind))
            .collect()
    }

    /// The kinds shown in the players' hands, one slot each (the same for both players): every kind
    /// that may be dropped, and any other kind either player holds; none where nothing is dropped.
    pub fn hand_kinds(&self) -> Vec<KindId> {
        hand_kinds(self.game.current())
    }

    /// Records the interpreter's ruling on the move `text` (coordinates), or that the game is over.
    pub(crate) fn refuse(&mut self, text: &str) {
        let written = written_refused(self.game.current(), text);
        if let Some(mut over) = self.game_over() {
            over.text = text.to_string();
            over.written = written;
            self.refusal = Some(over);
            return;
        }
        self.refusal = match self.game.current().explain(text) {
            Ruling::Illegal(i) => Some(Refusal {
                text: text.to_string(),
                written,
                code: i.code.to_string(),
                message: i.message,
                clause: i.clause,
            }),
            Ruling::Legal { .. } => None,
        };
    }

    /// A click on `sq` as the [`Tools`] read it (nothing where the board has no cell).
    pub fn click_with(&mut self, sq: usize, tools: &Tools) {
        if !self.engine.rules().board.has(sq) {
            return;
        }
        match (tools.mode, tools.brush) {
            (Mode::Play, _) => self.click(sq),
            (Mode::Edit, Some(Brush::Piece(kind, side))) => {
                let _ = self.apply(Action::Edit(Edit::Put { square: sq, kind, side }));
            }
            (Mode::Edit, Some(Brush::Erase)) => {
                let _ = self.apply(Action::Edit(Edit::Clear(sq)));
            }
            (Mode::Edit, None) => {
                self.note = Some("No brush: choose a piece or Erase in the panel, then click squares".to_string());
            }
            (Mode::MarkDead, _) => {
                let _ = self.apply(Action::MarkDead(sq));
            }
        }
    }

    /// A click on `sq` in play: select a piece of the side to move, play to a target (asking first
    /// when several moves reach it), drop the piece selected in the hand, place a piece (where pieces
    /// fall, anywhere in the column), or record the ruling on an illegal move. Where the move begins
    /// a turn of several parts, the turn is pending until they are chosen (`turns.rs`); while one
    /// is, the click makes its next part.
    pub fn click(&mut self, sq: usize) {
        let pos = self.game.current().clone();
        let rules = pos.rules().clone();
        let board = &rules.board;
        if !board.has(sq) {
            return;
        }
        self.note = None;
        // A click while a choice waits only cancels it: the piece stays selected, nothing is judged.
        if self.choice.take().is_some() {
            return;
        }
        if self.pending.is_some() {
            self.click_part(sq);
            return;
        }
        let us = pos.side_to_move();
        let own = matches!(pos.piece_at(sq), Some((_, side)) if side == us);
        if let Some(kind) = self.selected_hand.take() {
            self.targets.clear();
            let drops: Vec<Move> = self.drops_of(kind).into_iter().filter(|m| m.to as usize == sq).collect();
            if !drops.is_empty() {
                self.begin_turn(drops);
                return;
            }
            if !own {
                self.refuse(&format!("{}@{}", rules.kind(kind).letter, board.name(sq)));
                return;
            }
        }
        if let Some(from) = self.selected {
            let candidates: Vec<Move> = self.moves_from(from).into_iter().filter(|m| m.to as usize == sq).collect();
            let firsts = crate::session::turns::first_parts(&candidates);
            match firsts.as_slice() {
                // A second click on the piece lets it go (unless a route comes back to it).
                [] if from == sq => {
                    self.selected = None;
                    self.targets.clear();
                    return;
                }
                [_] => {
                    self.begin_turn(candidates);
                    return;
                }
                [_, _, ..] => {
                    self.choice = Some(Choice {
                        from,
                        to: sq,
                        options: options(&pos, &firsts),
                    });
                    self.refusal = None;
                    return;
                }
                [] => {}
            }
        }
        if own {
            self.select(sq);
            self.refusal = None;
            if self.targets.is_empty() {
                // Nothing to do from there: say why, rather than select in silence.
                let (kind, _) = pos.piece_at(sq).expect("own: a piece is there");
                let k = rules.kind(kind);
                let placed_only = k.forms.iter().all(|f| f.primitive == Primitive::Place);
                self.note = Some(if placed_only {
                    self.selected = None;
                    self.targets.clear();
                    format!(
                        "{} is taken: in this game a {} stays where it is placed; click an empty {}",
                        board.name(sq),
                        k.name.to_lowercase(),
                        if board.points { "point" } else { "cell" }
                    )
                } else {
                    format!("the {} on {} has no legal move here", k.name, board.name(sq))
                });
            }
            return;
        }
        if let Some(from) = self.selected {
            self.selected = None;
            self.targets.clear();
            self.refuse(&format!("{}{}", board.name(from), board.name(sq)));
            return;
        }
        let places = rules.kinds.iter().any(|k| k.forms.iter().any(|f| f.primitive == Primitive::Place));
        if pos.chain_game() || places {
            let exact: Vec<Move> = pos
                .legal_moves()
                .into_iter()
                .filter(|m| matches!(m.kind, MoveKind::Place(_)) && m.to as usize == sq)
                .collect();
            // Where pieces fall, a click anywhere in a column places in that column.
            let column = || uci::find(&pos, &board.file_names[board.file(sq)]);
            match (exact.is_empty(), column()) {
                (false, _) => self.begin_turn(exact),
                (true, Some(m)) => {
                    let _ = self.apply(Action::Play(uci::to_text(&pos, m)));
                }
                (true, None) => self.refuse(&board.name(sq)),
            }
        }
    }

    /// Selects the piece on `sq`; its targets are where its legal moves land.
    pub(crate) fn select(&mut self, sq: usize) {
        self.selected = Some(sq);
        self.targets = self.moves_from(sq).iter().map(|m| m.to as usize).collect();
        self.targets.sort_unstable();
        self.targets.dedup();
    }

    /// Selects `kind` in the hand of the side to move; its targets are where its legal drops go.
    pub(crate) fn select_hand(&mut self, kind: KindId) {
        self.selected_hand = Some(kind);
        self.targets = self.drops_of(kind).iter().map(|m| m.to as usize).collect();
        self.targets.sort_unstable();
        self.targets.dedup();
    }

    /// A click on a kind in `side`'s hand: select it to drop when `side` is to move and holds one
    /// (a second click lets it go); the targets are the squares its legal drops reach. While a turn
    /// is pending, the kind is the next part's choice (a drop onto a square the move left).
    pub fn click_hand(&mut self, side: Side, kind: KindId) {
        let pos = self.game.current().clone();
        let rules = pos.rules();
        let us = pos.side_to_move();
        let not_yours = || {
            format!(
                "that is {}'s hand, and it is {}'s move",
                rules.players[side.index()].name,
                rules.players[us.index()].name
            )
        };
        if self.pending.is_some() {
            self.note = None;
            if side == us {
                self.click_part_kind(kind);
            } else {
                self.note = Some(not_yours());
            }
            return;
        }
        let was = self.selected_hand;
        self.selected = None;
        self.selected_hand = None;
        self.targets.clear();
        self.choice = None;
        self.note = None;
        if was == Some(kind) {
            return;
        }
        if side != us {
            self.note = Some(not_yours());
            return;
        }
        if !pos.hand(side).iter().any(|&(k, n)| k == kind && n > 0) {
            return;
        }
        self.select_hand(kind);
        self.refusal = None;
        // A kind that enters the board only as a later part of a turn: say how, select nothing.
        let gate = rules
            .turn
            .iter()
            .find(|p| matches!(&p.action, PartAction::Gate { kinds, .. } if kinds.contains(&kind)));
        if let Some(part) = gate
            && self.targets.is_empty()
        {
            self.selected_hand = None;
            self.note = Some(format!(
                "a {} enters the board as a part of a turn: move a piece, then choose it ({})",
                rules.kind(kind).name.to_lowercase(),
                crate::session::turns::part_words(part)
            ));
        }
    }

    /// A click beside the board: nothing selected, no choice and no turn pending.
    pub fn click_away(&mut self) {
        self.selected = None;
        self.selected_hand = None;
        self.targets.clear();
        self.choice = None;
        self.pending = None;
    }

    /// The way the game's last move went, when it is more than a step from one square to another:
    /// a jump (the squares jumped over) or a move of several legs (every landing square).
    pub fn last_path(&self) -> Option<MovePath> {
        let m = *self.game.moves().last()?;
        let positions = self.game.positions();
        let before = positions.get(positions.len().checked_sub(2)?)?;
        if !matches!(m.kind, MoveKind::Form(_)) {
            return None;
        }
        let jumped = before.jumped(m);
        let landings = before.landings(m);
        if jumped.is_empty() && landings.len() < 2 {
            return None;
        }
        let mut squares = vec![m.from as usize];
        squares.extend(landings);
        Some(MovePath { squares, jumped })
    }

    /// The last move of the game, in coordinates.
    pub fn last_move_text(&self) -> Option<String> {
        let moves = self.game.moves();
        let positions = self.game.positions();
        let m = *moves.last()?;
        let before = positions.get(positions.len().checked_sub(2)?)?;
        Some(uci::to_text(before, m))
    }
}

/// The kinds shown in the players' hands (see [`Session::hand_kinds`]), in the ruleset's order.
pub fn hand_kinds(pos: &Position) -> Vec<KindId> {
    let rules = pos.rules();
    let held: Vec<KindId> = rules
        .sides_in_play()
        .flat_map(|side| pos.hand(side).into_iter().map(|(k, _)| k))
        .collect();
    (0..rules.kinds.len())
        .map(|k| KindId(k as u8))
        .filter(|&k| held.contains(&k) || rules.kind(k).forms.iter().any(|f| f.primitive == Primitive::Drop))
        .collect()
}

/// The options of a choice between moves from the same square to the same square: each move's
/// coordinates and its label — its route when the routes differ (with the kind it makes, if any),
/// else the kind it makes.
fn options(pos: &Position, moves: &[Move]) -> Vec<(String, String)> {
    let board = &pos.rules().board;
    let routes: Vec<Vec<usize>> = moves.iter().map(|m| pos.landings(*m)).collect();
    let differ = routes.iter().any(|r| *r != routes[0]);
    moves
        .iter()
        .zip(&routes)
        .map(|(m, route)| {
            let text = uci::to_text(pos, *m);
            let kind = m.promotion().map(|k| pos.rules().kind(k).name.clone());
            let label = if differ {
                let names: Vec<String> = std::iter::once(m.from as usize)
                    .chain(route.iter().copied())
                    .map(|sq| board.name(sq))
                    .collect();
                let path = names.join("-");
                match kind {
                    Some(k) => format!("{path} ({k})"),
                    None => path,
                }
            } else {
                kind.unwrap_or_else(|| text.clone())
            };
            (text, label)
        })
        .collect()
}

fn handle_replay(mut commands: MessageReader<Replay>, mut session: ResMut<Session>) {
    for r in commands.read() {
        session.replay(*r);
    }
}

fn handle_actions(mut actions: MessageReader<Apply>, mut session: ResMut<Session>) {
    for a in actions.read() {
        if let Err(e) = session.apply(a.0.clone()) {
            debug!("{:?} refused: {e}", a.0);
        }
    }
}

fn handle_clicks(mut clicks: MessageReader<Clicked>, mut session: ResMut<Session>, tools: Res<Tools>) {
    for c in clicks.read() {
        session.click_with(c.0, &tools);
        debug!(
            "click on square {}: selected {:?}, {} target(s), ply {}, refusal {:?}",
            c.0,
            session.selected,
            session.targets.len(),
            session.game.ply(),
            session.refusal.as_ref().map(|r| &r.code)
        );
    }
}

fn handle_picks(mut picks: MessageReader<Pick>, mut session: ResMut<Session>) {
    for p in picks.read() {
        match p {
            Pick::First(text) => session.pick_first(text),
            Pick::Part(slot) => session.pick_part(*slot),
        }
    }
}

fn handle_hand_clicks(mut clicks: MessageReader<ClickedHand>, mut session: ResMut<Session>, tools: Res<Tools>) {
    for c in clicks.read() {
        if tools.mode == Mode::Play {
            session.click_hand(c.side, c.kind);
        }
    }
}

/// A click beside the board (or Esc) drops the selection, the pending choice or turn and the editor's
/// brush (each written only if there was one, so nothing redraws for nothing).
fn handle_away(mut clicks: MessageReader<ClickedAway>, mut session: ResMut<Session>, mut tools: ResMut<Tools>) {
    for _ in clicks.read() {
        if session.selected.is_some() || session.selected_hand.is_some() || session.choice.is_some() || session.pending.is_some() {
            session.click_away();
        }
        if tools.brush.is_some() {
            tools.brush = None;
        }
    }
}

/// The session's handlers of this frame's messages. A room that acts on what they did (autoplay,
/// the computer's turn) runs after them.
#[derive(SystemSet, Debug, Clone, PartialEq, Eq, Hash)]
pub struct Handled;

/// The session room's plugin: its messages, [`Tools`] and the systems that apply them to the
/// [`Session`]. Needs no window; [`crate::logic`] adds the rooms that act by themselves.
pub fn plugin(app: &mut App) {
    app.add_message::<Clicked>()
        .add_message::<ClickedHand>()
        .add_message::<ClickedAway>()
        .add_message::<Replay>()
        .add_message::<Apply>()
        .add_message::<Pick>()
        .init_resource::<Tools>()
        .add_systems(
            Update,
            (
                handle_replay,
                handle_actions,
                handle_clicks,
                handle_hand_clicks,
                handle_picks,
                handle_away,
            )
                .chain()
                .in_set(Handled),
        );
}
