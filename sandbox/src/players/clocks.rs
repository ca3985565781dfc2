//! Running clocks for a game played live: one of the ruleset's named time controls, started from
//! the panel. The side to move's clock runs on real time (`Time<Real>`: never clamped or paused);
//! a move made charges the time it took to its player ([`arbiter::clock::Clocks::spend`]: increments, stages, byo-yomi periods), and a
//! clock that runs out makes the flag fall ([`arbiter::game::Game::flag_fall`]), so the ruleset's
//! own `flag fallen` rule rules on it — with its clause — as it does on the command line.
//!
//! The clocks only follow moves: a take-back, a step or a jump in the timeline, or an edit stops
//! them (what is on them stays shown). Nothing here knows a game: the controls and what a flag fall
//! means come from the ruleset.

use std::time::Duration;

use bevy::prelude::*;
use bevy::winit::{UpdateMode, WinitSettings};

use arbiter::clock::Clocks;

use crate::session::Session;

/// What the panel asks of the clocks.
#[derive(Clone, Debug, PartialEq)]
pub enum ClockRequest {
    /// Start the named control of the ruleset from the current position, the side to move's clock first.
    Start(String),
    Stop,
}

/// The live clocks (the panel shows, starts and stops them).
#[derive(Resource, Clone, Debug, Default, PartialEq)]
pub struct LiveClock {
    pub clocks: Option<Clocks>,
    pub running: bool,
    /// The control chosen in the panel (a name of the ruleset's).
    pub chosen: String,
    /// A request from the panel, taken by [`tick`].
    pub request: Option<ClockRequest>,
    /// Seconds left on each clock as of this frame (the side to move's running down), and the
    /// byo-yomi periods left when in byo-yomi.
    pub shown: [f64; 2],
    pub periods: [Option<u32>; 2],
    /// Why the clocks stopped, in words (a flag fell, the position changed other than by a move).
    pub stopped: Option<String>,
    /// When the current move began (`Time` elapsed seconds), and the game's ply then.
    began: f64,
    ply: usize,
}

impl LiveClock {
    fn show(&mut self, now: f64, to_move: usize) {
        let Some(c) = &self.clocks else { return };
        for side in 0..2 {
            let mut left = c.left_ms(side) as f64 / 1000.0;
            if self.running && side == to_move {
                left = (left - (now - self.began)).max(0.0);
            }
            self.shown[side] = left;
            self.periods[side] = c.sides[side].in_byoyomi.then_some(c.sides[side].periods_left);
        }
    }
}

/// `h:mm:ss` (or `m:ss` under an hour) with tenths under ten seconds, as clocks show time.
pub fn clock_text(secs: f64) -> String {
    let secs = secs.max(0.0);
    let whole = secs.floor() as u64;
    let (h, m, s) = (whole / 3600, whole / 60 % 60, whole % 60);
    if secs < 10.0 {
        format!("0:{s:02}.{}", ((secs - secs.floor()) * 10.0).floor() as u64)
    } else if h > 0 {
        format!("{h}:{m:02}:{s:02}")
    } else {
        format!("{m}:{s:02}")
    }
}

/// How long until a clock showing `left` seconds (running down) shows another text: to the next
/// whole second, or under ten seconds to the next tenth ([`clock_text`]), and a little past it so
/// the frame falls after the change.
pub fn next_change(left: f64) -> Duration {
    let unit = if left < 10.0 { 0.1 } else { 1.0 };
    let into = left.max(0.0) % unit;
    let until = if into < 1e-6 { unit } else { into };
    Duration::from_secs_f64(until + 0.005)
}

/// The window's update mode while a clock runs: a frame when its text changes (or on input), not
/// every frame. The settings it replaced are kept in `before` and given back when no clock runs,
/// so the clocks need not know what the window does when idle.
fn wake_for(settings: &mut WinitSettings, wait: Option<Duration>, before: &mut Option<WinitSettings>) {
    let wanted = match wait {
        Some(w) => WinitSettings {
            focused_mode: UpdateMode::reactive(w),
            unfocused_mode: UpdateMode::reactive_low_power(w),
        },
        None => match before.take() {
            Some(idle) => idle,
            None => return,
        },
    };
    if before.is_none() && wait.is_some() {
        *before = Some(settings.clone());
    }
    if settings.focused_mode != wanted.focused_mode || settings.unfocused_mode != wanted.unfocused_mode {
        *settings = wanted;
    }
}

/// Why the clocks stopped when the game ended.
const GAME_OVER: &str = "the game is over";

/// Runs the clocks: takes the panel's request, charges a move made to its player, stops on any
/// other change of position, and makes the flag fall when the side to move's time is gone. While
/// a clock runs, the window wakes when its text next changes ([`next_change`]) rather than every
/// frame (a real window only: an offscreen render has no [`WinitSettings`]).
pub fn tick(
    time: Res<Time<Real>>,
    mut live: ResMut<LiveClock>,
    mut session: ResMut<Session>,
    mut settings: Option<ResMut<WinitSettings>>,
    mut before: Local<Option<WinitSettings>>,
) {
    let wait = run(&time, &mut live, &mut session);
    if let Some(settings) = settings.as_deref_mut() {
        wake_for(settings, wait, &mut before);
    }
}

/// [`tick`]'s work; the wait until the running clock's text changes, `None` when no clock runs.
fn run(time: &Time<Real>, live: &mut LiveClock, session: &mut Session) -> Option<Duration> {
    let now = time.elapsed_secs_f64();
    let to_move = session.game.current().side_to_move().index();
    let ply = session.game.ply();
    match live.request.take() {
        Some(ClockRequest::Start(name)) => match session.engine.rules().clocks.iter().find(|c| c.name == name) {
            Some(control) => {
                live.clocks = Some(Clocks::new(control));
                live.running = session.game.outcome().status == arbiter::game::Status::Ongoing;
                live.stopped = (!live.running).then(|| GAME_OVER.to_string());
                live.began = now;
                live.ply = ply;
            }
            None => live.stopped = Some(format!("the ruleset has no time control `{name}`")),
        },
        Some(ClockRequest::Stop) => {
            live.running = false;
            live.stopped = Some("stopped".to_string());
        }
        None => {}
    }
    if !live.running {
        // "The game is over" was about the position the game ended in: stepped back into a live
        // one, the clocks say only when they stopped.
        if live.stopped.as_deref() == Some(GAME_OVER) && session.game.outcome().status == arbiter::game::Status::Ongoing {
            live.stopped = Some(format!("stopped when the game ended (ply {})", live.ply));
        }
        live.show(now, to_move);
        return None;
    }
    if ply == live.ply + 1 && live.clocks.is_some() {
        // The move just made took the time since the last one.
        let mover = session.game.positions()[ply - 1].side_to_move().index();
        let spent = ((now - live.began).max(0.0) * 1000.0).round() as u64;
        if let Some(c) = live.clocks.as_mut() {
            let _ = c.spend(mover, spent);
        }
        live.began = now;
        live.ply = ply;
    } else if ply != live.ply {
        live.running = false;
        live.stopped = Some("the position changed other than by a move: the clocks stopped".to_string());
        live.show(now, to_move);
        return None;
    }
    if session.game.outcome().status != arbiter::game::Status::Ongoing {
        live.running = false;
        live.stopped = Some(GAME_OVER.to_string());
        live.show(now, to_move);
        return None;
    }
    // The side to move's time, as the clock would charge it if the move came now.
    let spent = ((now - live.began).max(0.0) * 1000.0).round() as u64;
    let flagged = live.clocks.as_ref().is_some_and(|c| c.clone().spend(to_move, spent).is_err());
    if flagged {
        if let Some(c) = live.clocks.as_mut() {
            let _ = c.spend(to_move, spent);
        }
        live.running = false;
        live.show(now, to_move);
        session.game.flag_fall();
        let name = session.engine.rules().players[to_move].name.clone();
        let outcome = session.game.outcome();
        live.stopped = Some(if outcome.status == arbiter::game::Status::Ongoing {
            format!("{name}'s flag fell; the ruleset has no end rule for it (`flag fallen`)")
        } else {
            format!("{name}'s flag fell: {}", outcome.message(session.game.current()))
        });
        return None;
    }
    live.show(now, to_move);
    Some(next_change(live.shown[to_move]))
}

pub fn plugin(app: &mut App) {
    app.init_resource::<LiveClock>().add_systems(Update, tick);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clock_text_shows_tenths_only_near_the_end() {
        assert_eq!(clock_text(5400.0), "1:30:00");
        assert_eq!(clock_text(59.9), "0:59");
        assert_eq!(clock_text(9.46), "0:09.4");
        assert_eq!(clock_text(-1.0), "0:00.0");
    }

    /// The wait until a running clock's text changes: the rest of the second (of the tenth under
    /// ten seconds), just past the change; a whole unit when on the boundary.
    #[test]
    fn a_running_clock_wakes_the_window_when_its_text_changes() {
        let ms = |d: Duration| d.as_millis();
        assert_eq!(ms(next_change(5400.25)), 255);
        assert_eq!(ms(next_change(5400.0)), 1005);
        assert_eq!(ms(next_change(9.46)), 65);
        assert_eq!(ms(next_change(0.0)), 105);
        // The text one wait later differs from the text now.
        for left in [5400.25, 61.0, 10.02, 9.46, 3.0] {
            let later = left - next_change(left).as_secs_f64();
            assert_ne!(clock_text(left), clock_text(later), "{left}");
        }
    }

    #[test]
    fn the_window_s_own_settings_come_back_when_the_clocks_stop() {
        let idle = WinitSettings {
            focused_mode: UpdateMode::reactive(Duration::from_secs(30)),
            unfocused_mode: UpdateMode::reactive_low_power(Duration::from_secs(30)),
        };
        let (mut settings, mut before) = (idle.clone(), None);
        wake_for(&mut settings, None, &mut before);
        assert_eq!(settings.focused_mode, idle.focused_mode, "no clock ran: untouched");
        wake_for(&mut settings, Some(Duration::from_millis(400)), &mut before);
        assert_eq!(settings.focused_mode, UpdateMode::reactive(Duration::from_millis(400)));
        wake_for(&mut settings, Some(Duration::from_millis(900)), &mut before);
        assert_eq!(settings.focused_mode, UpdateMode::reactive(Duration::from_millis(900)));
        wake_for(&mut settings, None, &mut before);
        assert_eq!(
            (settings.focused_mode, settings.unfocused_mode),
            (idle.focused_mode, idle.unfocused_mode)
        );
        assert!(before.is_none());
    }
}
