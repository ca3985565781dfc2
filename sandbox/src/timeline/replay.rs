//! Autoplay along the timeline: while [`Autoplay::playing`], the session steps forward
//! [`Autoplay::speed`] times a second (driven by Bevy's `Time`), through [`Action::GoTo`], and stops
//! at the last frame.

use bevy::prelude::*;

use crate::session::{Action, Session};

/// The replay transport's state.
#[derive(Resource, Clone, Copy, Debug, PartialEq)]
pub struct Autoplay {
    pub playing: bool,
    /// Steps per second.
    pub speed: f32,
    /// Seconds accumulated towards the next step.
    pub elapsed: f32,
}

impl Default for Autoplay {
    fn default() -> Autoplay {
        Autoplay {
            playing: false,
            speed: 2.0,
            elapsed: 0.0,
        }
    }
}

/// The slowest and fastest autoplay the panel offers, in steps per second.
pub const SPEEDS: std::ops::RangeInclusive<f32> = 0.25..=20.0;

impl Autoplay {
    /// Starts playing from the current step (from the start if it is at the end), or pauses.
    pub fn toggle(&mut self, session: &Session) -> Option<Action> {
        self.playing = !self.playing;
        self.elapsed = 0.0;
        (self.playing && Autoplay::at_end(session) && session.timeline.len() > 1).then_some(Action::GoTo(0))
    }

    /// How many steps are due after `dt` more seconds.
    pub fn due(&mut self, dt: f32) -> usize {
        if !self.playing || self.speed <= 0.0 {
            return 0;
        }
        self.elapsed += dt;
        let period = 1.0 / self.speed.clamp(*SPEEDS.start(), *SPEEDS.end());
        let n = (self.elapsed / period).floor();
        self.elapsed -= n * period;
        n as usize
    }

    /// Advances the session by the steps due after `dt` seconds; stops playing at the last frame.
    pub fn advance(&mut self, dt: f32, session: &mut Session) {
        let n = self.due(dt);
        self.run(n, session);
    }

    /// Is the session at the last frame (so there is nothing left to play)?
    fn at_end(session: &Session) -> bool {
        session.step + 1 >= session.timeline.len() && session.off_script == 0
    }

    /// Takes `n` steps forward, stopping at the last frame.
    fn run(&mut self, n: usize, session: &mut Session) {
        for _ in 0..n {
            if Autoplay::at_end(session) {
                break;
            }
            let next = (session.step + 1).min(session.timeline.len().saturating_sub(1));
            if session.apply(Action::GoTo(next)).is_err() {
                self.playing = false;
                break;
            }
        }
        if self.playing && Autoplay::at_end(session) {
            self.playing = false;
            self.elapsed = 0.0;
        }
    }
}

/// Steps the session while autoplay is on. The session is touched only when a step is due or the
/// end is reached, so the board is not redrawn every frame.
pub fn autoplay(time: Res<Time>, mut auto: ResMut<Autoplay>, mut session: ResMut<Session>) {
    if !auto.playing {
        return;
    }
    let n = auto.due(time.delta_secs());
    if n > 0 || Autoplay::at_end(&session) {
        auto.run(n, &mut session);
    }
}

/// The autoplay state (the system itself runs in the session plugin's chain).
pub fn plugin(app: &mut App) {
    app.init_resource::<Autoplay>()
        .add_systems(Update, autoplay.after(crate::session::Handled));
}
