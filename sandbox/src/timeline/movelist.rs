//! The move list: the timeline's steps and the variation tree as rows of entries, in the ruleset's
//! notation ([`written`]), numbered per move pair where the line is one move a step and the two
//! sides alternate (`1. e4 e5 2. Nf3`), else one row per step with its caption wrapped. A turn of
//! several parts is one move, one entry (`e2e4,e4d5`, `Nc3/H`). [`rows`] is plain data (tested
//! without a window); [`show`] draws it in a scroll area that follows the current move when it
//! changes.

use arbiter::game::Engine;
use arbiter::model::Side;
use arbiter::notation;
use arbiter::scenario::Frame;
use bevy_egui::egui;

use crate::session::tree::NodeId;
use crate::session::{Session, written};
use crate::timeline::navigate::Target;

/// One clickable move (or step) of the list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// `3.` or `3...` before the move, where the list numbers moves.
    pub number: Option<String>,
    pub text: String,
    pub target: Target,
    pub current: bool,
}

/// A row of the list: the main line's (depth 0) or a variation's, indented by its depth.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    pub depth: usize,
    pub entries: Vec<Entry>,
}

impl Row {
    /// The row as text: `1. e4 e5`.
    pub fn text(&self) -> String {
        let parts: Vec<String> = self
            .entries
            .iter()
            .map(|e| match &e.number {
                Some(n) => format!("{n} {}", e.text),
                None => e.text.clone(),
            })
            .collect();
        parts.join(" ")
    }
}

/// The main line's moves as the ruleset writes them, one entry per step (its moves joined), with the
/// side that moved and the move number of the position before; computed once per timeline.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MainLine {
    key: (u64, usize, String),
    /// Per step (index 0: the start, empty): the written moves, the mover and its move number.
    pub steps: Vec<(String, Option<(Side, u64)>)>,
    /// Is the list numbered per move pair (one move a step, the two sides alternating)?
    pub pairs: bool,
}

impl MainLine {
    /// The main line of `session`'s timeline, reusing `self` when the timeline did not change.
    pub fn update(&mut self, session: &Session) {
        let key = (
            session.generation,
            session.timeline.len(),
            session.timeline.last().map(|f| f.fen.clone()).unwrap_or_default(),
        );
        if key == self.key && !self.steps.is_empty() {
            return;
        }
        *self = MainLine::of(&session.engine, &session.timeline);
        self.key = key;
    }

    /// The written moves of each step.
    pub fn of(engine: &Engine, timeline: &[Frame]) -> MainLine {
        let mut steps = vec![(String::new(), None)];
        for w in timeline.windows(2) {
            let (before, frame) = (&w[0], &w[1]);
            let Ok(mut pos) = engine.from_fen(&before.fen) else {
                steps.push((frame.played.join(" "), None));
                continue;
            };
            let mover = Some((pos.side_to_move(), pos.fullmove()));
            let mut written = Vec::new();
            for text in &frame.played {
                match notation::find(&pos, text) {
                    Some(m) => {
                        written.push(self::written(&pos, m));
                        pos.play_forward(m);
                    }
                    None => written.push(text.clone()),
                }
            }
            steps.push((written.join(" "), mover));
        }
        let two = engine.rules().players.len() == 2;
        // A timeline of the start alone (a bare ruleset) is numbered per move pair too: the moves
        // played from it are its line.
        let pairs = two
            && timeline[1..].iter().all(|f| f.played.len() == 1)
            && steps[1..].windows(2).all(|w| match (w[0].1, w[1].1) {
                (Some((a, _)), Some((b, _))) => a != b,
                _ => false,
            })
            && steps[1..].iter().all(|s| s.1.is_some());
        MainLine {
            key: Default::default(),
            steps,
            pairs,
        }
    }
}

/// `3.` for the first side's move, `3...` for the second's where it opens a row.
fn number(side: Side, n: u64, opens: bool) -> Option<String> {
    if side == Side::FIRST {
        Some(format!("{n}."))
    } else if opens {
        Some(format!("{n}..."))
    } else {
        None
    }
}

/// The list's rows: the main line, with each step's variations after the move they replace (per
/// move pair) or after the step they start from (per step).
pub fn rows(session: &Session, main: &MainLine) -> Vec<Row> {
    let on_tree = !session.edited();
    let here_step = (session.off_script == 0).then_some(session.step);
    let here_node = if on_tree { session.node } else { None };
    let mut rows = Vec::new();
    let mut row = Row {
        depth: 0,
        entries: Vec::new(),
    };
    let last = session.timeline.len().saturating_sub(1);
    let variations = |rows: &mut Vec<Row>, anchor: usize| {
        for r in session.variations.roots(anchor) {
            branch(session, main, r, 1, here_node, rows);
        }
    };
    if main.pairs && last == 0 {
        // Nothing scripted: the first line played from the start is the main line, the others
        // its variations.
        let roots = session.variations.roots(0);
        if let Some((&first, others)) = roots.split_first() {
            branch(session, main, first, 0, here_node, &mut rows);
            for &r in others {
                branch(session, main, r, 1, here_node, &mut rows);
            }
        }
    } else if main.pairs {
        for i in 1..=last {
            let (text, mover) = &main.steps[i];
            let (side, n) = mover.unwrap_or((Side::FIRST, 0));
            if side == Side::FIRST && !row.entries.is_empty() {
                rows.push(std::mem::replace(
                    &mut row,
                    Row {
                        depth: 0,
                        entries: Vec::new(),
                    },
                ));
            }
            let glyphs = session
                .record
                .as_ref()
                .and_then(|r| r.at(i))
                .map(crate::session::records::glyphs)
                .unwrap_or_default();
            row.entries.push(Entry {
                number: number(side, n, row.entries.is_empty()),
                text: format!("{text}{glyphs}"),
                target: Target::Step(i),
                current: here_step == Some(i),
            });
            // Variations replacing step i's move follow it; the row starts again after them.
            if !session.variations.roots(i - 1).is_empty() {
                rows.push(std::mem::replace(
                    &mut row,
                    Row {
                        depth: 0,
                        entries: Vec::new(),
                    },
                ));
                variations(&mut rows, i - 1);
            }
        }
        if !row.entries.is_empty() {
            rows.push(row);
        }
        variations(&mut rows, last);
    } else {
        for i in 0..=last {
            let frame = &session.timeline[i];
            let text = match (i, main.steps.get(i).map(|s| s.0.as_str()).filter(|t| !t.is_empty()), &frame.caption) {
                (0, _, _) => "start".to_string(),
                (_, Some(moves), _) => moves.to_string(),
                (_, None, Some(c)) => c.clone(),
                (_, None, None) => String::new(),
            };
            rows.push(Row {
                depth: 0,
                entries: vec![Entry {
                    number: Some(format!("{i}.")),
                    text,
                    target: Target::Step(i),
                    current: here_step == Some(i),
                }],
            });
            variations(&mut rows, i);
        }
    }
    rows
}

/// A variation's rows: the line from `start` along first continuations, then each other
/// continuation one level deeper.
fn branch(session: &Session, main: &MainLine, start: NodeId, depth: usize, here: Option<NodeId>, rows: &mut Vec<Row>) {
    let tree = &session.variations;
    let mut line = vec![start];
    while let Some(c) = line.last().and_then(|&l| tree.children(0, Some(l)).first().copied()) {
        line.push(c);
    }
    let Some(anchor) = tree.node(start).map(|n| n.anchor) else {
        return;
    };
    // The side and number of the variation's first move: from the anchor's position.
    let first = session
        .engine
        .from_fen(&session.timeline[anchor.min(session.timeline.len() - 1)].fen)
        .ok()
        .map(|p| (p.side_to_move(), p.fullmove()));
    let before = tree.depth(start).saturating_sub(1);
    let entries = line
        .iter()
        .enumerate()
        .map(|(k, &id)| {
            let ply = before + k;
            let number = match (main.pairs, first) {
                (true, Some((side, n))) => {
                    let second = (side == Side::SECOND) as u64;
                    let mover = if (ply as u64 + second).is_multiple_of(2) {
                        Side::FIRST
                    } else {
                        Side::SECOND
                    };
                    number(mover, n + (ply as u64 + second) / 2, k == 0)
                }
                _ => Some(format!("{}.", anchor + ply + 1)),
            };
            let node = &tree.nodes[id.0];
            Entry {
                number,
                text: format!("{}{}", node.written, crate::session::records::glyphs(&node.annotation)),
                target: Target::Node(id),
                current: here == Some(id),
            }
        })
        .collect();
    rows.push(Row { depth, entries });
    for &l in &line {
        for &c in tree.children(0, Some(l)).iter().skip(1) {
            branch(session, main, c, depth + 1, here, rows);
        }
    }
}

/// What the drawn list reports: the entry clicked, and where the current entry and the visible part
/// of the list are (for tests of scrolling).
#[derive(Clone, Debug)]
pub struct Shown {
    pub clicked: Option<Target>,
    pub current: Option<egui::Rect>,
    pub visible: egui::Rect,
}

/// Draws the rows in a scroll area `height` high; scrolls to the current entry when `follow`, to
/// the top when `top` (the start, which has no entry of its own, was just reached).
pub fn show(ui: &mut egui::Ui, rows: &[Row], height: f32, follow: bool, top: bool) -> Shown {
    let mut shown = Shown {
        clicked: None,
        current: None,
        visible: egui::Rect::NOTHING,
    };
    let mut area = egui::ScrollArea::vertical()
        .id_salt("moves")
        .min_scrolled_height(height)
        .max_height(height)
        .auto_shrink([false, false]);
    if top {
        area = area.vertical_scroll_offset(0.0);
    }
    let out = area.show(ui, |ui| {
        for row in rows {
            ui.horizontal_wrapped(|ui| {
                ui.add_space(row.depth as f32 * 14.0);
                for e in &row.entries {
                    if let Some(n) = &e.number {
                        ui.weak(n);
                    }
                    let text = if row.depth > 0 {
                        egui::RichText::new(&e.text).italics()
                    } else {
                        egui::RichText::new(&e.text)
                    };
                    let r = ui.add(egui::Button::selectable(e.current, text).wrap());
                    if e.current {
                        if follow {
                            r.scroll_to_me(Some(egui::Align::Center));
                        }
                        shown.current = Some(r.rect);
                    }
                    if r.clicked() {
                        shown.clicked = Some(e.target);
                    }
                }
            });
        }
    });
    shown.visible = out.inner_rect;
    shown
}

/// Does the session hold a record's commentary: the game's comment, or a comment or glyph on a
/// move of the main line or of a variation?
pub fn has_commentary(session: &Session) -> bool {
    session.record.as_ref().is_some_and(|r| r.any())
        || session
            .variations
            .nodes
            .iter()
            .any(|n| !n.deleted && (!n.annotation.is_empty() || n.line_comment.is_some()))
}

/// The comment on the move in view: a variation's move (after its line's comment, on the line's
/// first move), a main-line step's move, or at the start the game's comment.
pub fn comment_here(session: &Session) -> Option<String> {
    if let Some(id) = session.node.filter(|_| !session.edited()) {
        let node = session.variations.node(id)?;
        let said: Vec<&str> = [node.line_comment.as_deref(), node.annotation.comment.as_deref()]
            .into_iter()
            .flatten()
            .collect();
        return (!said.is_empty()).then(|| said.join(" — "));
    }
    if session.off_script > 0 {
        return None;
    }
    let notes = session.record.as_ref()?;
    if session.step == 0 {
        return notes.comment.clone();
    }
    notes.at(session.step)?.comment.clone()
}

/// The game's last move as the ruleset writes it.
pub fn last_move_written(session: &Session) -> Option<String> {
    let m = *session.game.moves().last()?;
    let positions = session.game.positions();
    let before = positions.get(positions.len().checked_sub(2)?)?;
    Some(written(before, m))
}

/// The game's ply counted from the first move of the whole game: the moves played since the game's
/// start, and the plies the start's FEN says came before it (its move number and side to move), so
/// a position set up from the middle of a game is not "ply 0".
pub fn ply_number(game: &arbiter::game::Game) -> u64 {
    let start = &game.positions()[0];
    let before = start.fullmove().saturating_sub(1).saturating_mul(2) + u64::from(start.side_to_move() == Side::SECOND);
    before.saturating_add(game.ply() as u64)
}
