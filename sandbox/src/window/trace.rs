//! `--trace FILE`: one line appended to FILE each time what the board shows changes — the rules'
//! reloads, the step, the
//! position's FEN, the piece selected, the promotion or route choice waiting, the trainer's marks —
//! so that a script (or a test driving a real window with `xdotool`) can follow what its clicks did
//! without reading pixels. Knows nothing of any game.

use std::io::Write;
use std::path::PathBuf;

use bevy::prelude::*;

use crate::session::Session;
use crate::session::marks::Marks;

/// Where the lines go, and the last one written (a line is written only when it differs).
#[derive(Resource, Debug)]
pub struct Trace {
    pub path: PathBuf,
    file: std::fs::File,
    last: String,
}

impl Trace {
    /// A trace to a new file at `path`: one that exists (a FIFO, a directory, yesterday's trace)
    /// is refused, never overwritten nor waited on.
    ///
    /// # Errors
    /// Why the file cannot be created, naming it.
    pub fn create(path: PathBuf) -> Result<Trace, String> {
        let file = arbiter::input::create_new(&path).map_err(|why| format!("--trace {}: {why}", path.display()))?;
        Ok(Trace {
            path,
            file,
            last: String::new(),
        })
    }
}

/// The state a line records, in words: `rules=0 step=2 ply=3 fen=… selected=e7 choice=Queen|Rook
/// squares=1 arrows=0` (`rules` counts the reloads of the ruleset).
pub fn line(session: &Session, marks: &Marks) -> String {
    let board = &session.engine.rules().board;
    let selected = session.selected.map_or_else(|| "-".to_string(), |sq| board.name(sq).to_string());
    let choice = session.choice.as_ref().map_or_else(
        || "-".to_string(),
        |c| {
            c.options
                .iter()
                .map(|(_, label)| label.replace(' ', "_"))
                .collect::<Vec<_>>()
                .join("|")
        },
    );
    format!(
        "rules={} step={} ply={} fen={} selected={selected} choice={choice} squares={} arrows={}",
        session.generation,
        session.step,
        session.game.ply(),
        session.game.current().fen().replace(' ', "_"),
        marks.squares.len(),
        marks.arrows.len(),
    )
}

fn write_trace(session: Res<Session>, marks: Res<Marks>, mut trace: ResMut<Trace>) {
    let now = line(&session, &marks);
    if now == trace.last {
        return;
    }
    let written = writeln!(trace.file, "{now}").and_then(|()| trace.file.flush());
    if let Err(e) = written {
        // Where stderr is gone too, the trace stops silently rather than ending the session.
        let _ = writeln!(std::io::stderr(), "sandbox: --trace {}: {e}", trace.path.display());
    }
    trace.last = now;
}

/// Writes the trace after each frame's changes, when a [`Trace`] is inserted.
pub fn plugin(app: &mut App) {
    app.add_systems(
        Last,
        write_trace.run_if(
            resource_exists::<Trace>
                .and_then(resource_exists::<Marks>)
                .and_then(resource_changed::<Session>.or_eager(resource_changed::<Marks>)),
        ),
    );
}
