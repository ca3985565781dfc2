//! Hot reload: every [`POLL`] the watcher reads the modification times of the `.rules` file in use
//! (`Session::rules_path`) and of every file it `extends`; when one changed, it opens the same
//! thing again through
//! [`source::reopen`](crate::source::reopen) and hands the result — new rules, or their errors — to
//! `Session::reload_rules`, which keeps the last good engine on errors. A broken, half-written or
//! vanished file never panics or exits: it is read again at its next change.
//!
//! Polling the mtime needs no extra crate and behaves alike on every platform and file system; at
//! this interval its cost is one `stat` call per file. The list of files is read again after each
//! change, since an edit can add or remove an `extends`.

use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use bevy::prelude::*;

use crate::session::Session;
use crate::source;

/// How often the file's modification time is read.
pub const POLL: Duration = Duration::from_millis(400);

/// The ruleset watched, and each file it is read from with the modification time last seen.
#[derive(Resource)]
pub struct Watch {
    timer: Timer,
    path: Option<PathBuf>,
    files: Vec<(PathBuf, Option<SystemTime>)>,
}

impl Default for Watch {
    fn default() -> Watch {
        Watch {
            timer: Timer::new(POLL, TimerMode::Repeating),
            path: None,
            files: Vec::new(),
        }
    }
}

fn modified(path: &Path) -> Option<SystemTime> {
    std::fs::metadata(path).and_then(|m| m.modified()).ok()
}

/// The ruleset at `path` and the files it extends (as the checker read them), with their times.
/// A ruleset that cannot be read at all is still watched itself.
fn files_of(path: &Path) -> Vec<(PathBuf, Option<SystemTime>)> {
    let checked = arbiter::check::check_file(path, &[]);
    let mut files: Vec<PathBuf> = checked.sources.names().map(PathBuf::from).collect();
    if !files.iter().any(|f| f == path) {
        files.insert(0, path.to_path_buf());
    }
    files
        .into_iter()
        .map(|f| {
            let t = modified(&f);
            (f, t)
        })
        .collect()
}

/// Remembers a newly opened ruleset's files and their modification times at once; then reads them
/// on each tick, and a new time means a file was written.
fn poll(time: Res<Time<Real>>, mut watch: ResMut<Watch>, mut session: ResMut<Session>) {
    // Read through `Deref`: the session is marked changed only by a reload.
    if watch.path.as_deref() != session.rules_path.as_deref() {
        watch.path = session.rules_path.clone();
        watch.files = watch.path.as_deref().map(files_of).unwrap_or_default();
        watch.timer.reset();
        return;
    }
    if !watch.timer.tick(time.delta()).just_finished() {
        return;
    }
    let Some(path) = watch.path.clone() else { return };
    // A file that is missing for a moment (an editor that saves by renaming) is looked at again.
    let Some(changed) = watch
        .files
        .iter()
        .find(|(f, seen)| modified(f).is_some_and(|now| Some(now) != *seen))
        .map(|(f, _)| f.clone())
    else {
        return;
    };
    info!("{} changed: reloading {}", changed.display(), path.display());
    watch.files = files_of(&path);
    let reopened = source::reopen(&session.origin, &path, &session.params);
    session.reload_rules(reopened);
}

/// Watches the ruleset in use and reloads it when it changes (needs a [`Session`] and `Time`).
pub fn plugin(app: &mut App) {
    app.init_resource::<Watch>()
        .add_systems(Update, poll.run_if(resource_exists::<Session>));
}
