//! Hot reload: every [`POLL`] the watcher reads the modification time of the `.rules` file in use
//! (`Session::rules_path`); when it changed, it opens the same thing again through
//! [`source::reopen`](crate::source::reopen) and hands the result — new rules, or their errors — to
//! `Session::reload_rules`, which keeps the last good engine on errors. A broken, half-written or
//! vanished file never panics or exits: it is read again at its next change.
//!
//! Polling the mtime needs no extra crate and behaves alike on every platform and file system; at
//! this interval its cost is one `stat` call. Only the file itself is watched, not the files it
//! `extends`.

use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use bevy::prelude::*;

use crate::session::Session;
use crate::source;

/// How often the file's modification time is read.
pub const POLL: Duration = Duration::from_millis(400);

/// The watched file and the modification time last seen.
#[derive(Resource)]
pub struct Watch {
    timer: Timer,
    path: Option<PathBuf>,
    seen: Option<SystemTime>,
}

impl Default for Watch {
    fn default() -> Watch {
        Watch {
            timer: Timer::new(POLL, TimerMode::Repeating),
            path: None,
            seen: None,
        }
    }
}

fn modified(path: &Path) -> Option<SystemTime> {
    std::fs::metadata(path).and_then(|m| m.modified()).ok()
}

/// Remembers a newly opened file's modification time at once; then reads it on each tick, and a new
/// time means the file was written.
fn poll(time: Res<Time<Real>>, mut watch: ResMut<Watch>, mut session: ResMut<Session>) {
    // Read through `Deref`: the session is marked changed only by a reload.
    if watch.path.as_deref() != session.rules_path.as_deref() {
        watch.path = session.rules_path.clone();
        watch.seen = watch.path.as_deref().and_then(modified);
        watch.timer.reset();
        return;
    }
    if !watch.timer.tick(time.delta()).just_finished() {
        return;
    }
    let Some(path) = watch.path.clone() else { return };
    let now = modified(&path);
    // A file that is missing for a moment (an editor that saves by renaming) is looked at again.
    if now.is_none() || now == watch.seen {
        return;
    }
    watch.seen = now;
    info!("{} changed: reloading", path.display());
    let reopened = source::reopen(&session.origin, &path);
    session.reload_rules(reopened);
}

/// Watches the ruleset in use and reloads it when it changes (needs a [`Session`] and `Time`).
pub fn plugin(app: &mut App) {
    app.init_resource::<Watch>()
        .add_systems(Update, poll.run_if(resource_exists::<Session>));
}
