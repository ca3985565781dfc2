//! Time controls and the clocks they run: the data a ruleset's `clock` section states (or a PGN
//! `TimeControl` tag gives), and the arithmetic of a game played under it — time added per stage,
//! Fischer increments, delays, go's byo-yomi periods — down to the flag fall.
//!
//! A control is a list of [`Stage`]s. Each gives its time when it begins (added to what is left,
//! as FIDE and the xiangqi rules count: unused time carries over); a stage of `moves` moves ends after
//! that many of the player's moves, and a `repeat` stage begins again each time. A stage without
//! `moves` lasts the rest of the game (sudden death). After the last stage's time, a control may
//! have byo-yomi: `periods` periods of `period` seconds each; a move made within a period costs
//! nothing, each period used up is lost, and the flag falls when the last one runs out.
//!
//! Times are in milliseconds (whole numbers, so that clocks add up exactly).

use std::fmt;

/// One stage of a time control.
#[derive(Clone, Debug, PartialEq)]
pub struct Stage {
    /// The player's moves the stage lasts; `None` for the rest of the game.
    pub moves: Option<u32>,
    /// Time added when the stage begins.
    pub time_ms: u64,
    /// Fischer increment: added after each move made in the stage.
    pub increment_ms: u64,
    /// Delay: the first this many milliseconds of each move are not counted.
    pub delay_ms: u64,
    /// The stage begins again when it ends (`then 10 moves in 15 min repeatedly`).
    pub repeat: bool,
}

/// A named time control.
#[derive(Clone, Debug, PartialEq)]
pub struct TimeControl {
    pub name: String,
    pub stages: Vec<Stage>,
    /// Byo-yomi after the main time: (periods, milliseconds each).
    pub byoyomi: Option<(u32, u64)>,
    /// The clause that states it (`[6.1]`), for rulings.
    pub cite: Option<String>,
}

/// The most stages a control may have, and the longest time one may give (a ruleset or a PGN tag
/// cannot ask the clock arithmetic for more).
pub const MAX_STAGES: usize = 16;
pub const MAX_TIME_MS: u64 = 1000 * 3600 * 1000;
/// The most moves a stage of a control may last: the same bound wherever a control comes from (a
/// ruleset's `clock`, `--clock`, a PGN `TimeControl`).
pub const MAX_STAGE_MOVES: u32 = 10_000;
/// The most byo-yomi periods a control may have (a ruleset's `clock`, an SGF `OT`).
pub const MAX_PERIODS: u32 = 100;

/// Why a stage's number of moves is refused, in the words every reader uses.
pub fn stage_moves_error(n: i128) -> Option<String> {
    (!(1..=i128::from(MAX_STAGE_MOVES)).contains(&n)).then(|| format!("a stage lasts 1 to {MAX_STAGE_MOVES} moves, not {n}"))
}

/// One player's clock.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SideClock {
    /// Main time left.
    pub left_ms: u64,
    /// The stage in force, and the player's moves made in it.
    pub stage: usize,
    pub moves_in_stage: u32,
    /// Byo-yomi periods left (all of them until the main time is used up).
    pub periods_left: u32,
    /// The main time is used up: moves are timed by the periods.
    pub in_byoyomi: bool,
}

/// Both players' clocks under one control.
#[derive(Clone, Debug, PartialEq)]
pub struct Clocks {
    pub control: TimeControl,
    pub sides: [SideClock; 2],
}

/// A flag fell: the player ran out of time on this move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FlagFall {
    /// The player whose time ran out (0: first, 1: second).
    pub side: usize,
    /// How far past the limit the move went.
    pub over_ms: u64,
}

impl Clocks {
    /// Both clocks at the start of a game.
    pub fn new(control: &TimeControl) -> Clocks {
        let first = control.stages.first().map_or(0, |s| s.time_ms);
        let periods = control.byoyomi.map_or(0, |(n, _)| n);
        let side = SideClock {
            left_ms: first,
            stage: 0,
            moves_in_stage: 0,
            periods_left: periods,
            in_byoyomi: false,
        };
        Clocks {
            control: control.clone(),
            sides: [side.clone(), side],
        }
    }

    /// Charges `side` for a move that took `spent_ms`; the flag falls if the move went past what
    /// the player had.
    pub fn spend(&mut self, side: usize, spent_ms: u64) -> Result<(), FlagFall> {
        let stages = &self.control.stages;
        let c = &mut self.sides[side];
        let stage = stages.get(c.stage);
        let delay = stage.map_or(0, |s| s.delay_ms);
        let mut charged = spent_ms.saturating_sub(delay);
        if !c.in_byoyomi {
            if charged <= c.left_ms {
                c.left_ms -= charged;
                charged = 0;
            } else {
                charged -= c.left_ms;
                c.left_ms = 0;
                match self.control.byoyomi {
                    Some((n, _)) if n > 0 => c.in_byoyomi = true,
                    _ => {
                        return Err(FlagFall { side, over_ms: charged });
                    }
                }
            }
        }
        if c.in_byoyomi {
            let period = self.control.byoyomi.map_or(0, |(_, p)| p).max(1);
            // Each period used up in full is lost; a move within what remains of one costs nothing.
            let all = u64::from(c.periods_left) * period;
            if charged > all {
                c.periods_left = 0;
                return Err(FlagFall {
                    side,
                    over_ms: charged - all,
                });
            }
            // A move made exactly as a period ends is still within it.
            c.periods_left -= (charged.saturating_sub(1) / period) as u32;
            // Byo-yomi does not count moves or add stages' time.
            return Ok(());
        }
        // The move counts toward its stage; increment after it; the next stage begins when due.
        if let Some(s) = stage {
            c.left_ms = c.left_ms.saturating_add(s.increment_ms).min(MAX_TIME_MS);
            c.moves_in_stage += 1;
            if s.moves.is_some_and(|m| c.moves_in_stage >= m) {
                c.moves_in_stage = 0;
                if !s.repeat && c.stage + 1 < stages.len() {
                    c.stage += 1;
                }
                let next = &stages[c.stage];
                // A repeating stage, or the last of moves-in-time stages, gives its time again.
                c.left_ms = c.left_ms.saturating_add(next.time_ms).min(MAX_TIME_MS);
            }
        }
        Ok(())
    }

    /// Seconds left for each side (main time, or the current period in byo-yomi).
    pub fn seconds_left(&self) -> [f64; 2] {
        let period = self.control.byoyomi.map_or(0, |(_, p)| p);
        [0, 1].map(|i| {
            let c = &self.sides[i];
            let ms = match (c.in_byoyomi, c.periods_left) {
                (true, 0) => 0,
                (true, _) => period,
                (false, _) => c.left_ms,
            };
            ms as f64 / 1000.0
        })
    }
}

/// A move's time as a game record gives it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stamp {
    /// The mover's time left after the move (PGN `[%clk 1:29:55]`, SGF `BL`/`WL`).
    Left(u64),
    /// The time the move took (PGN `[%emt 0:00:05]`).
    Spent(u64),
    /// In byo-yomi after the move: the time left in the period and the periods left (SGF `BL`
    /// with `OB`, `WL` with `OW`).
    Overtime { left_ms: u64, periods: u32 },
}

/// `h:mm:ss`, `m:ss` or `s`, each with an optional fraction (`0:00:05.3`), as milliseconds.
pub fn parse_hms(text: &str) -> Option<u64> {
    let mut ms = 0f64;
    let parts: Vec<&str> = text.trim().split(':').collect();
    if parts.is_empty() || parts.len() > 3 {
        return None;
    }
    for (i, p) in parts.iter().enumerate() {
        let last = i + 1 == parts.len();
        let v: f64 = if last { p.parse().ok()? } else { f64::from(p.parse::<u32>().ok()?) };
        if !(v.is_finite() && v >= 0.0) {
            return None;
        }
        ms = ms * 60.0 + v;
    }
    let ms = (ms * 1000.0).round();
    (ms <= MAX_TIME_MS as f64).then_some(ms as u64)
}

/// Milliseconds as `h:mm:ss`, with tenths when the time is not whole seconds (`0:00:05.3`).
pub fn write_hms(ms: u64) -> String {
    let (h, m, s) = (ms / 3_600_000, ms / 60_000 % 60, ms / 1000 % 60);
    let tenths = ms % 1000 / 100;
    if ms.is_multiple_of(1000) {
        format!("{h}:{m:02}:{s:02}")
    } else {
        format!("{h}:{m:02}:{s:02}.{tenths}")
    }
}

/// The clock command in a PGN comment: `[%clk …]` (time left) or else `[%emt …]` (time spent).
pub fn stamp_in_comment(comment: &str) -> Option<Stamp> {
    let value = |cmd: &str| {
        let at = comment.find(cmd)? + cmd.len();
        let rest = &comment[at..];
        let end = rest.find(']')?;
        parse_hms(&rest[..end])
    };
    value("[%clk ").map(Stamp::Left).or_else(|| value("[%emt ").map(Stamp::Spent))
}

impl Clocks {
    /// The time a move by `side` took, from what a record says of it: given, or the difference
    /// between the time the player had (with what the move itself earns: an increment, the next
    /// stage's time) and what the record says was left after it.
    pub fn spent_for(&self, side: usize, stamp: Stamp) -> u64 {
        match stamp {
            Stamp::Spent(ms) => ms,
            // The main time, then each period lost in full; a move within a period costs nothing
            // of it, so 1 ms past the lost ones stands for the time spent in the period kept.
            Stamp::Overtime { periods, .. } => {
                let c = &self.sides[side];
                let period = self.control.byoyomi.map_or(0, |(_, p)| p);
                let main = if c.in_byoyomi { 0 } else { c.left_ms };
                let lost = u64::from(c.periods_left.saturating_sub(periods));
                main + lost * period + 1
            }
            Stamp::Left(after) => {
                let mut free = self.clone();
                let _ = free.spend(side, 0);
                let c = &free.sides[side];
                let had = if c.in_byoyomi {
                    self.control.byoyomi.map_or(0, |(_, p)| p)
                } else {
                    c.left_ms
                };
                had.saturating_sub(after)
            }
        }
    }

    /// The time `side` has left now: main time, or the current period in byo-yomi.
    pub fn left_ms(&self, side: usize) -> u64 {
        let c = &self.sides[side];
        match (c.in_byoyomi, c.periods_left) {
            (true, 0) => 0,
            (true, _) => self.control.byoyomi.map_or(0, |(_, p)| p),
            (false, _) => c.left_ms,
        }
    }
}

/// A game's clock as a record writes it: the control, and for each move of the main line the
/// mover's time left after it and, in byo-yomi, the periods left.
#[derive(Clone, Debug, PartialEq)]
pub struct Timing {
    pub control: TimeControl,
    /// `(milliseconds left, byo-yomi periods left if in byo-yomi)` after each move, in order.
    pub after: Vec<(u64, Option<u32>)>,
}

/// An SGF `OT` value Arbiter understands: `5x30 byo-yomi` (periods × seconds).
pub fn parse_sgf_overtime(text: &str) -> Option<(u32, u64)> {
    let t = text.trim().to_ascii_lowercase();
    let (spec, kind) = t.split_once(char::is_whitespace)?;
    if !kind.trim().starts_with("byo") {
        return None;
    }
    let (n, secs) = spec.split_once('x')?;
    let n: u32 = n.parse().ok().filter(|&n| n > 0 && n <= MAX_PERIODS)?;
    let ms = seconds_ms(secs, "OT").ok().filter(|&ms| ms > 0)?;
    Some((n, ms))
}

/// Splits a move written with the seconds it took, `e2e4@12.5`, into the move and milliseconds.
/// The time is what follows the last `@` when it starts like a number: a drop (`P@e4`) has no time
/// (`P@e4@3` does). On a board whose squares are named by numbers alone, give a drop's time always.
///
/// # Errors
/// What follows `@` starts like a number but is not a number of seconds from 0 to 3,600,000.
pub fn split_timed(text: &str) -> Result<(&str, Option<u64>), String> {
    let Some((mv, secs)) = text.rsplit_once('@') else {
        return Ok((text, None));
    };
    if !secs.trim_start().starts_with(|c: char| c.is_ascii_digit() || c == '.' || c == '-') {
        return Ok((text, None));
    }
    match secs.trim().parse::<f64>() {
        Ok(s) if s.is_finite() && s >= 0.0 && s * 1000.0 <= MAX_TIME_MS as f64 => Ok((mv, Some((s * 1000.0).round() as u64))),
        _ => Err(format!("`{secs}` after `@` is not a number of seconds (0 to 3,600,000)")),
    }
}

/// The control `name` among a ruleset's `controls` (`classical`), or one written as a PGN
/// `TimeControl` value.
///
/// # Errors
/// Neither: the message lists the ruleset's controls.
pub fn find_control(controls: &[TimeControl], name: &str) -> Result<TimeControl, String> {
    if let Some(c) = controls.iter().find(|c| c.name == name.trim()) {
        return Ok(c.clone());
    }
    let named = if controls.is_empty() {
        "the ruleset names no time control".to_string()
    } else {
        format!(
            "the ruleset's are {}",
            controls.iter().map(|c| c.name.as_str()).collect::<Vec<_>>().join(", ")
        )
    };
    match parse_pgn_time_control(name) {
        Ok(Some(c)) => Ok(c),
        Ok(None) => Err(format!("`{name}`: an untimed or unknown control; {named}")),
        Err(e) if name.chars().any(|c| c.is_ascii_digit()) => Err(format!("`{name}`: {e}")),
        Err(_) => Err(format!("`{name}`: no such time control; {named}")),
    }
}

/// Why a PGN `TimeControl` value could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TimeControlError {
    pub field: String,
    pub message: String,
}

impl fmt::Display for TimeControlError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "TimeControl field `{}`: {}", self.field, self.message)
    }
}

fn seconds_ms(text: &str, field: &str) -> Result<u64, TimeControlError> {
    let err = |message: &str| TimeControlError {
        field: field.to_string(),
        message: message.to_string(),
    };
    let v: f64 = text.trim().parse().map_err(|_| err("expected a number of seconds"))?;
    if !(v.is_finite() && v >= 0.0) {
        return Err(err("expected a number of seconds"));
    }
    let ms = (v * 1000.0).round();
    if ms > MAX_TIME_MS as f64 {
        return Err(err("more than 1000 hours"));
    }
    Ok(ms as u64)
}

/// Reads a PGN `TimeControl` tag (PGN standard 9.6.1): fields separated by `:`, each `M/S` (M
/// moves in S seconds), `S` (sudden death), either with `+I` (increment in seconds), or `*S`
/// (a sandclock: all of it, unsupported as it runs both ways). The last moves-in-time field
/// repeats when it is the last field. `?` and `-` (unknown, untimed) give `None`.
pub fn parse_pgn_time_control(text: &str) -> Result<Option<TimeControl>, TimeControlError> {
    let text = text.trim();
    if text == "?" || text == "-" || text.is_empty() {
        return Ok(None);
    }
    let fields: Vec<&str> = text.split(':').collect();
    if fields.len() > MAX_STAGES {
        return Err(TimeControlError {
            field: text.to_string(),
            message: format!("more than {MAX_STAGES} periods"),
        });
    }
    let mut stages = Vec::new();
    for f in &fields {
        let err = |message: &str| TimeControlError {
            field: f.to_string(),
            message: message.to_string(),
        };
        if f.starts_with('*') {
            return Err(err("sandclock controls are not supported"));
        }
        let (main, increment) = match f.split_once('+') {
            Some((m, i)) => (m, seconds_ms(i, f)?),
            None => (*f, 0),
        };
        let (moves, time) = match main.split_once('/') {
            Some((m, t)) => {
                let m: u64 = m.trim().parse().map_err(|_| err("expected a number of moves before `/`"))?;
                if let Some(e) = stage_moves_error(m.into()) {
                    return Err(err(&e));
                }
                (Some(m as u32), seconds_ms(t, f)?)
            }
            None => (None, seconds_ms(main, f)?),
        };
        stages.push(Stage {
            moves,
            time_ms: time,
            increment_ms: increment,
            delay_ms: 0,
            repeat: false,
        });
    }
    if let Some(last) = stages.last_mut()
        && last.moves.is_some()
    {
        last.repeat = true;
    }
    if stages.iter().take(stages.len() - 1).any(|s| s.moves.is_none()) {
        return Err(TimeControlError {
            field: text.to_string(),
            message: "a sudden-death period must come last".to_string(),
        });
    }
    Ok(Some(TimeControl {
        name: text.to_string(),
        stages,
        byoyomi: None,
        cite: None,
    }))
}

/// Writes a control as a PGN `TimeControl` value (`40/5400+30:1800+30`); byo-yomi has no PGN form
/// and is left out.
pub fn write_pgn_time_control(c: &TimeControl) -> String {
    let secs = |ms: u64| {
        if ms.is_multiple_of(1000) {
            (ms / 1000).to_string()
        } else {
            format!("{}", ms as f64 / 1000.0)
        }
    };
    c.stages
        .iter()
        .map(|s| {
            let mut f = match s.moves {
                Some(m) => format!("{m}/{}", secs(s.time_ms)),
                None => secs(s.time_ms),
            };
            if s.increment_ms > 0 {
                f.push_str(&format!("+{}", secs(s.increment_ms)));
            }
            f
        })
        .collect::<Vec<_>>()
        .join(":")
}

#[cfg(test)]
mod tests {
    use super::*;

    const MIN: u64 = 60_000;
    const S: u64 = 1000;

    fn stage(moves: Option<u32>, time_ms: u64, repeat: bool) -> Stage {
        Stage {
            moves,
            time_ms,
            increment_ms: 0,
            delay_ms: 0,
            repeat,
        }
    }

    fn control(stages: Vec<Stage>, byoyomi: Option<(u32, u64)>) -> TimeControl {
        TimeControl {
            name: "test".into(),
            stages,
            byoyomi,
            cite: None,
        }
    }

    /// Xiangqi's first control: 40 moves in 90 minutes, then 10 moves every 15 minutes, unused
    /// time carried over.
    #[test]
    fn moves_in_time_stages_add_their_time_and_carry_over() {
        let c = control(vec![stage(Some(40), 90 * MIN, false), stage(Some(10), 15 * MIN, true)], None);
        let mut clocks = Clocks::new(&c);
        for _ in 0..39 {
            clocks.spend(0, 2 * MIN).expect("2 minutes a move for 39 moves is 78 minutes");
        }
        assert_eq!(clocks.sides[0].left_ms, 12 * MIN);
        clocks.spend(0, 2 * MIN).expect("the 40th move");
        // 10 minutes left, plus the next stage's 15.
        assert_eq!(clocks.sides[0].left_ms, 25 * MIN);
        for _ in 0..10 {
            clocks.spend(0, MIN).expect("a minute a move");
        }
        // 15 left, plus 15 again: the stage repeats.
        assert_eq!(clocks.sides[0].left_ms, 30 * MIN);
        assert_eq!(clocks.sides[1].left_ms, 90 * MIN, "the other clock did not run");
        assert_eq!(clocks.spend(0, 31 * MIN), Err(FlagFall { side: 0, over_ms: MIN }));
    }

    #[test]
    fn a_fischer_increment_is_added_after_each_move_and_a_delay_is_free() {
        let mut s = stage(None, 3 * MIN, false);
        s.increment_ms = 2 * S;
        let mut clocks = Clocks::new(&control(vec![s.clone()], None));
        clocks.spend(1, 10 * S).expect("in time");
        assert_eq!(clocks.sides[1].left_ms, 3 * MIN - 8 * S);
        s.increment_ms = 0;
        s.delay_ms = 5 * S;
        let mut clocks = Clocks::new(&control(vec![s], None));
        clocks.spend(0, 4 * S).expect("in time");
        assert_eq!(clocks.sides[0].left_ms, 3 * MIN, "within the delay");
        clocks.spend(0, 7 * S).expect("in time");
        assert_eq!(clocks.sides[0].left_ms, 3 * MIN - 2 * S);
    }

    /// Go's count-down: main time, then one-minute periods; a move within the minute costs
    /// nothing, each minute used up loses one, the flag falls when none is left.
    #[test]
    fn byoyomi_periods_are_lost_one_by_one_and_the_last_one_ends_the_game() {
        let c = control(vec![stage(None, 10 * MIN, false)], Some((3, MIN)));
        let mut clocks = Clocks::new(&c);
        clocks
            .spend(0, 10 * MIN + 30 * S)
            .expect("main time used up, 30 s into the first period");
        assert!(clocks.sides[0].in_byoyomi);
        assert_eq!(clocks.sides[0].periods_left, 3, "a move within the period keeps it");
        clocks.spend(0, 59 * S).expect("within the minute");
        assert_eq!(clocks.sides[0].periods_left, 3);
        clocks.spend(0, 90 * S).expect("one period used up, within the next");
        assert_eq!(clocks.sides[0].periods_left, 2);
        clocks.spend(0, 60 * S).expect("exactly a minute is within it");
        assert_eq!(clocks.sides[0].periods_left, 2);
        clocks.spend(0, 61 * S).expect("a whole period used up");
        assert_eq!(clocks.sides[0].periods_left, 1);
        assert_eq!(clocks.spend(0, 61 * S), Err(FlagFall { side: 0, over_ms: S }));
        assert_eq!(clocks.sides[0].periods_left, 0);
    }

    #[test]
    fn sudden_death_without_byoyomi_falls_at_the_first_move_past_the_limit() {
        let mut clocks = Clocks::new(&control(vec![stage(None, 5 * MIN, false)], None));
        clocks.spend(0, 5 * MIN).expect("exactly the time is in time");
        assert_eq!(clocks.spend(0, 1), Err(FlagFall { side: 0, over_ms: 1 }));
    }

    #[test]
    fn a_moves_time_follows_its_last_at_sign_and_a_drop_is_not_a_time() {
        assert_eq!(split_timed("e2e4@12.5"), Ok(("e2e4", Some(12_500))));
        assert_eq!(split_timed("e2e4"), Ok(("e2e4", None)));
        assert_eq!(split_timed("P@e4"), Ok(("P@e4", None)));
        assert_eq!(split_timed("P@e4@3"), Ok(("P@e4", Some(3000))));
        assert!(split_timed("e4@30x").is_err());
        assert!(split_timed("e4@-1").is_err());
        assert!(split_timed("e4@1e12").is_err());
    }

    #[test]
    fn pgn_time_controls_read_and_write_back() {
        let c = parse_pgn_time_control("40/5400:900+30").expect("valid").expect("timed");
        assert_eq!(c.stages.len(), 2);
        assert_eq!(c.stages[0], stage(Some(40), 5400 * S, false));
        assert_eq!(c.stages[1].time_ms, 900 * S);
        assert_eq!(c.stages[1].increment_ms, 30 * S);
        assert_eq!(write_pgn_time_control(&c), "40/5400:900+30");
        let repeat = parse_pgn_time_control("40/7200:20/3600").expect("valid").expect("timed");
        assert!(repeat.stages[1].repeat, "a last moves-in-time period repeats");
        assert_eq!(parse_pgn_time_control("?"), Ok(None));
        assert_eq!(parse_pgn_time_control("-"), Ok(None));
        assert_eq!(write_pgn_time_control(&parse_pgn_time_control("180+2").unwrap().unwrap()), "180+2");
        for bad in ["40/", "x/300", "300:40/60x", "0/300", "*180", "300:40/300", "1e30"] {
            assert!(parse_pgn_time_control(bad).is_err(), "{bad} is refused");
        }
    }

    #[test]
    fn record_times_read_and_write() {
        assert_eq!(parse_hms("1:29:55"), Some(5_395_000));
        assert_eq!(parse_hms("0:00:05.3"), Some(5_300));
        assert_eq!(parse_hms("2:05"), Some(125_000));
        assert_eq!(parse_hms("12.5"), Some(12_500));
        for bad in ["", "a:00", "1:2:3:4", "-1", "1:-2:00", "99999999:00:00"] {
            assert_eq!(parse_hms(bad), None, "{bad}");
        }
        assert_eq!(write_hms(5_395_000), "1:29:55");
        assert_eq!(write_hms(5_300), "0:00:05.3");
        assert_eq!(stamp_in_comment(" [%clk 0:02:58.4] good move"), Some(Stamp::Left(178_400)));
        assert_eq!(stamp_in_comment("[%emt 0:00:07] [%eval 0.3]"), Some(Stamp::Spent(7_000)));
        assert_eq!(stamp_in_comment("[%clk 0:02"), None);
        assert_eq!(parse_sgf_overtime("5x30 byo-yomi"), Some((5, 30 * S)));
        assert_eq!(parse_sgf_overtime("25/600 Canadian"), None);
    }

    /// What a record says was left after a move gives the time the move took: the increment and
    /// a stage's new time count as earned by the move, and in byo-yomi the periods lost.
    #[test]
    fn the_time_a_move_took_follows_from_the_time_left_after_it() {
        let mut s = stage(None, 3 * MIN, false);
        s.increment_ms = 2 * S;
        let clocks = Clocks::new(&control(vec![s], None));
        assert_eq!(clocks.spent_for(0, Stamp::Left(3 * MIN - 8 * S)), 10 * S);
        assert_eq!(clocks.spent_for(0, Stamp::Spent(4 * S)), 4 * S);
        let c = control(vec![stage(Some(2), MIN, false), stage(None, MIN, false)], None);
        let mut clocks = Clocks::new(&c);
        clocks.spend(1, 10 * S).expect("in time");
        // The second move ends the first stage: the next minute comes with it.
        assert_eq!(clocks.spent_for(1, Stamp::Left(MIN + 30 * S)), 20 * S);
        let go = control(vec![stage(None, MIN, false)], Some((3, 30 * S)));
        let clocks = Clocks::new(&go);
        let spent = clocks.spent_for(
            0,
            Stamp::Overtime {
                left_ms: 30 * S,
                periods: 2,
            },
        );
        let mut after = clocks.clone();
        after.spend(0, spent).expect("in time");
        assert_eq!((after.sides[0].in_byoyomi, after.sides[0].periods_left), (true, 2));
    }
}
