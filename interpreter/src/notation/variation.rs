//! Variations: the lines a record gives besides its main line (PGN's `( ... )`, SGF's second and
//! later game trees), as [`Branch`]es hanging off the moves they replace.
//!
//! A branch is plain text, like a record's main line: which move a text names depends on the
//! position, so [`replay`] plays the branches through a [`Game`] and turns them into coordinates, and
//! the writers ([`crate::notation::pgn::write_tree`], [`crate::notation::sgf::write_tree`]) play them
//! to write each move in the ruleset's notation. Invariant: a branch's `at` indexes the moves of the
//! line it hangs from; a branch at the end of that line (`at == len`) continues it, and the writers
//! make the first such branch part of the line ([`normalize`]).
//!
//! A branch keeps what the record said about its moves ([`Annotation`]s, parallel to its moves)
//! and a comment before its first move ([`Branch::comment`]: it belongs to the line, not to a
//! move, as PGN's `( {comment} 1... c5 )` and python-chess's `starting_comment` have it). Both
//! follow the moves through [`replay`] and the writers; a branch cut at an illegal move loses the
//! annotations of the moves cut.

use crate::game::{Game, Move};
use crate::notation::annotation::{Annotation, join_comment, trimmed};
use crate::notation::find;
use crate::notation::record::Stop;
use crate::notation::uci;

/// How deep variations may nest: deeper ones are refused when read, so no record can exhaust the stack.
pub const MAX_DEPTH: usize = 64;

/// A line played instead of move `at` of the line it hangs from.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Branch {
    /// The index, in the parent line, of the move this line replaces: the branch starts from the
    /// position before that move.
    pub at: usize,
    /// The moves as written (a record's notation, or coordinates).
    pub moves: Vec<String>,
    /// Variations of this line, indexed into `moves`.
    pub branches: Vec<Branch>,
    /// What the record says of each move, parallel to `moves`; may be shorter (the rest have none;
    /// readers and [`replay`] leave out the empty ones at the end).
    pub annotations: Vec<Annotation>,
    /// The comment before the line's first move.
    pub comment: Option<String>,
}

impl Branch {
    /// How many moves the branch and its variations hold.
    pub fn size(&self) -> usize {
        self.moves.len() + self.branches.iter().map(Branch::size).sum::<usize>()
    }
}

/// A line with its variations, moves resolved against the positions they are played from.
#[derive(Clone)]
pub(crate) struct Line {
    pub moves: Vec<Move>,
    /// `(at, line)`, in the order given.
    pub branches: Vec<(usize, Line)>,
    /// As long as `moves`.
    pub annotations: Vec<Annotation>,
    /// The comment before the first move.
    pub comment: Option<String>,
}

/// `annotations` made as long as `len`: cut, or filled with empty ones.
fn fitted(annotations: &[Annotation], len: usize) -> Vec<Annotation> {
    let mut out: Vec<Annotation> = annotations.iter().take(len).cloned().collect();
    out.resize(len, Annotation::default());
    out
}

/// Resolves `branches` hanging off `moves` (annotated by `annotations`), played from `game`'s
/// current position (which is left as it was). A branch stops at its first move that is not legal,
/// and its variations after that are dropped; `notes` says so, naming the move by `path` (the
/// moves' numbers from the main line down).
pub(crate) fn resolve(
    game: &mut Game,
    moves: &[Move],
    annotations: &[Annotation],
    branches: &[Branch],
    notes: &mut Vec<String>,
    path: &str,
) -> Line {
    let mut out = Line {
        moves: moves.to_vec(),
        branches: Vec::new(),
        annotations: fitted(annotations, moves.len()),
        comment: None,
    };
    let mut played = 0;
    let mut sorted: Vec<&Branch> = branches.iter().collect();
    sorted.sort_by_key(|b| b.at);
    for b in sorted {
        if b.at > moves.len() {
            notes.push(format!(
                "{path}a variation after move {} of a line of {}: skipped",
                b.at,
                moves.len()
            ));
            continue;
        }
        while played < b.at {
            game.play(moves[played]);
            played += 1;
        }
        let here = format!("{path}{}: ", b.at + 1);
        let mut line = Vec::new();
        for (i, text) in b.moves.iter().enumerate() {
            match find(game.current(), text) {
                Some(m) if game.outcome().status == crate::game::Status::Ongoing => {
                    line.push(m);
                    game.play(m);
                }
                _ => {
                    let stop = play_stop(game, i, text);
                    notes.push(format!("the variation at move {here}{stop}; the rest of it is skipped"));
                    break;
                }
            }
        }
        for _ in 0..line.len() {
            game.undo();
        }
        let kept: Vec<Branch> = b.branches.iter().filter(|n| n.at <= line.len()).cloned().collect();
        let dropped = b.branches.len() - kept.len();
        if dropped > 0 && line.len() < b.moves.len() {
            notes.push(format!(
                "{dropped} variation(s) after the illegal move of the variation at move {here}skipped"
            ));
        }
        let mut inner = resolve(game, &line, &b.annotations, &kept, notes, &here);
        inner.comment = b.comment.clone();
        out.branches.push((b.at, inner));
    }
    while played > 0 {
        game.undo();
        played -= 1;
    }
    out
}

/// The ruling on a branch's move `text` that could not be played (its index in the branch).
fn play_stop(game: &mut Game, index: usize, text: &str) -> Stop {
    let mut probe = Game::new(game.engine().clone(), game.current().clone());
    match crate::notation::record::play_line(&mut probe, &[text]) {
        Err(mut s) => {
            s.index = index;
            s
        }
        Ok(()) => Stop {
            index,
            text: text.to_string(),
            code: "game-over".to_string(),
            message: "the game is already over".to_string(),
            clause: None,
        },
    }
}

/// The line in the shape both record formats write: a branch at its end (`at == len`) made part of
/// it (the first such branch continues the line, any others become variations of that
/// continuation's first move); a variation of a branch's first move (`at == 0`) made a sibling of
/// that branch; empty branches dropped; branches in the order of the moves they replace.
pub(crate) fn normalize(mut line: Line) -> Line {
    loop {
        let len = line.moves.len();
        let Some(i) = line.branches.iter().position(|(at, l)| *at == len && !l.moves.is_empty()) else {
            break;
        };
        let (_, cont) = line.branches.remove(i);
        // The continuation's own comment now stands after the move before it.
        if let Some(c) = &cont.comment {
            match line.annotations.last_mut() {
                Some(a) => a.add_comment(c),
                None => join_comment(&mut line.comment, c),
            }
        }
        line.moves.extend(cont.moves);
        line.annotations.extend(cont.annotations);
        line.branches.extend(cont.branches.into_iter().map(|(at, l)| (at + len, l)));
    }
    let len = line.moves.len();
    let mut branches = std::mem::take(&mut line.branches);
    branches.sort_by_key(|(at, _)| *at);
    for (at, l) in branches {
        if at >= len || l.moves.is_empty() {
            continue;
        }
        let mut l = normalize(l);
        let (first, rest): (Vec<_>, Vec<_>) = std::mem::take(&mut l.branches).into_iter().partition(|(a, _)| *a == 0);
        l.branches = rest;
        line.branches.push((at, l));
        line.branches.extend(first.into_iter().map(|(_, f)| (at, f)));
    }
    line
}

/// The branches of a resolved line as text in coordinates ([`uci::to_text`]), played from `game`'s
/// current position (left as it was).
pub(crate) fn to_coordinates(game: &mut Game, line: &Line) -> Vec<Branch> {
    let mut out = Vec::new();
    let mut played = 0;
    for (at, l) in &line.branches {
        while played < *at {
            game.play(line.moves[played]);
            played += 1;
        }
        let mut moves = Vec::new();
        for &m in &l.moves {
            moves.push(uci::to_text(game.current(), m));
            game.play(m);
        }
        for _ in 0..l.moves.len() {
            game.undo();
        }
        out.push(Branch {
            at: *at,
            moves,
            branches: to_coordinates(game, l),
            annotations: trimmed(l.annotations.clone()),
            comment: l.comment.clone(),
        });
    }
    for _ in 0..played {
        game.undo();
    }
    out
}

/// A record's variations played from its start, in coordinates, with notes on what was skipped.
///
/// `game` holds the main line as replayed; the branches are resolved from its start position.
pub fn replay(game: &Game, branches: &[Branch]) -> (Vec<Branch>, Vec<String>) {
    let mut notes = Vec::new();
    let mut g = Game::new(game.engine().clone(), game.positions()[0].clone());
    let main = game.moves().to_vec();
    let kept: Vec<Branch> = branches.iter().filter(|b| b.at <= main.len()).cloned().collect();
    if kept.len() < branches.len() {
        notes.push(format!(
            "{} variation(s) after the last move that could be played: skipped",
            branches.len() - kept.len()
        ));
    }
    let line = resolve(&mut g, &main, &[], &kept, &mut notes, "");
    (to_coordinates(&mut g, &line), notes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Engine;

    fn chess() -> Engine {
        let checked = crate::check::check_file(std::path::Path::new("../rulesets/chess.rules"), &[]);
        Engine::new(checked.rules.expect("chess.rules is valid"))
    }

    fn branch(at: usize, moves: &[&str], branches: Vec<Branch>) -> Branch {
        Branch {
            at,
            moves: moves.iter().map(|s| s.to_string()).collect(),
            branches,
            ..Branch::default()
        }
    }

    #[test]
    fn replay_turns_variations_into_coordinates_and_says_what_it_skipped() {
        let e = chess();
        let mut game = Game::new(e.clone(), e.start());
        crate::notation::record::play_line(&mut game, &["e4", "e5", "Nf3"]).unwrap();
        let branches = vec![
            branch(1, &["c5", "Nf3", "d6"], vec![branch(1, &["Nc3"], vec![])]),
            branch(2, &["Bc4", "Qh5"], vec![]),
            branch(0, &["d4", "Ke2"], vec![branch(2, &["c4"], vec![])]),
        ];
        let (out, notes) = replay(&game, &branches);
        assert_eq!(out[0], branch(0, &["d2d4"], vec![]));
        assert_eq!(out[1], branch(1, &["c7c5", "g1f3", "d7d6"], vec![branch(1, &["b1c3"], vec![])]));
        assert_eq!(out[2], branch(2, &["f1c4"], vec![]));
        assert_eq!(notes.len(), 3, "{notes:?}");
        assert!(notes[0].contains("move 1: move 2 (`Ke2`) is illegal"), "{notes:?}");
        assert!(notes[2].contains("move 3: move 2 (`Qh5`) is illegal"), "{notes:?}");
        // The game is where it was.
        assert_eq!(game.ply(), 3);
    }

    #[test]
    fn a_branch_at_the_end_of_a_line_continues_it() {
        let e = chess();
        let mut g = Game::new(e.clone(), e.start());
        let main = Vec::new();
        let branches = vec![
            branch(0, &["e4", "e5"], vec![branch(1, &["c5"], vec![])]),
            branch(0, &["d4"], vec![]),
        ];
        let line = normalize(resolve(&mut g, &main, &[], &branches, &mut Vec::new(), ""));
        assert_eq!(line.moves.len(), 2);
        let ats: Vec<usize> = line.branches.iter().map(|(at, _)| *at).collect();
        assert_eq!(ats, [0, 1]);
    }
}
