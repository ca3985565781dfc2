//! Hot reload: every [`POLL`] the watcher reads the modification times of the `.rules` file in use
//! (`Session::rules_path`) and of every file it `extends`; when one changed, it opens the same
//! thing again through
//! [`source::reopen`](crate::session::source::reopen) and hands the result — new rules, or their errors — to
//! `Session::reload_rules`, which keeps the last good engine on errors. A broken, half-written or
//! vanished file never panics or exits: it is read again at its next change.
//!
//! Polling the mtime needs no extra crate and behaves alike on every platform and file system; at
//! this interval its cost is one `stat` call per file. The list of files is read again after each
//! change, since an edit can add or remove an `extends`.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime};

use bevy::prelude::*;

use crate::session::Session;
use crate::session::source;

/// How often the file's modification time is read.
pub const POLL: Duration = Duration::from_millis(400);

/// The ruleset watched, and each file it is read from with the modification time last seen.
#[derive(Resource)]
pub struct Watch {
    timer: Timer,
    path: Option<PathBuf>,
    files: Vec<(PathBuf, Option<SystemTime>)>,
    /// Shared with the [`Waker`] thread, in a window: the files to watch, and whether one changed
    /// since the app last looked.
    shared: Arc<Shared>,
}

#[derive(Default)]
struct Shared {
    files: Mutex<Vec<PathBuf>>,
    changed: AtomicBool,
}

impl Default for Watch {
    fn default() -> Watch {
        Watch {
            timer: Timer::new(POLL, TimerMode::Repeating),
            path: None,
            files: Vec::new(),
            shared: Arc::default(),
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
        watch.share();
        watch.timer.reset();
        return;
    }
    // The waker saw a change (and woke the window for it), or it is time to look.
    let woken = watch.shared.changed.swap(false, Ordering::Relaxed);
    if !watch.timer.tick(time.delta()).just_finished() && !woken {
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
    watch.share();
    let reopened = source::reopen(&session.origin, &path, &session.params);
    session.reload_rules(reopened);
}

impl Watch {
    /// Hands the files now watched to the waker.
    fn share(&self) {
        if let Ok(mut files) = self.shared.files.lock() {
            *files = self.files.iter().map(|(f, _)| f.clone()).collect();
        }
    }
}

/// A thread that reads the watched files' modification times every [`POLL`] and, when one
/// changed, wakes the window's event loop: the window can sleep while nothing happens (a redraw
/// every second for the watcher's sake cost a software renderer a sixth of a core) and a saved
/// ruleset still shows within [`POLL`].
pub struct Waker;

/// Starts the [`Waker`] for a window (`proxy` wakes its event loop). The thread ends when the
/// event loop is gone.
pub fn start_waker(watch: Res<Watch>, proxy: Res<bevy::winit::EventLoopProxyWrapper>) {
    let shared = watch.shared.clone();
    let proxy: bevy::winit::EventLoopProxy<bevy::winit::WinitUserEvent> = (*proxy).clone();
    let spawned = std::thread::Builder::new().name("ruleset watcher".into()).spawn(move || {
        let mut seen: Vec<(PathBuf, Option<SystemTime>)> = Vec::new();
        loop {
            std::thread::sleep(POLL);
            let files = shared.files.lock().map(|f| f.clone()).unwrap_or_default();
            let now: Vec<(PathBuf, Option<SystemTime>)> = files.into_iter().map(|f| (f.clone(), modified(&f))).collect();
            let changed = now.iter().any(|(f, t)| seen.iter().any(|(g, u)| g == f && u != t));
            seen = now;
            if changed {
                shared.changed.store(true, Ordering::Relaxed);
                if proxy.send_event(bevy::winit::WinitUserEvent::WakeUp).is_err() {
                    return;
                }
            }
        }
    });
    if let Err(e) = spawned {
        warn!("the ruleset watcher's thread did not start ({e}): a saved ruleset shows at the next input");
    }
}

/// Watches the ruleset in use and reloads it when it changes (needs a [`Session`] and `Time`).
pub fn plugin(app: &mut App) {
    app.init_resource::<Watch>()
        .add_systems(Update, poll.run_if(resource_exists::<Session>));
}

/// [`plugin`], and in a window the [`Waker`] that wakes it when a watched file changes.
pub fn window_plugin(app: &mut App) {
    app.add_plugins(plugin)
        .add_systems(Startup, start_waker.run_if(resource_exists::<bevy::winit::EventLoopProxyWrapper>));
}
