//! Players: whatever chooses a move in a [`Walk`]. Two come with Arbiter, for any ruleset:
//! `random` (uniform over the legal moves) and `mcts` (UCT with random playouts). A player is
//! written as text on the command line and in files: `random`, `mcts:2000` (iterations),
//! `mcts:500ms` (thinking time).

use std::fmt;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::mcts::Mcts;
use super::walk::{Walk, below};
use crate::game::{Move, RandomPly};

/// Chooses moves.
pub trait Player: Send {
    /// One of the legal moves of `walk`'s current position, which has at least one and is not over.
    fn choose(&mut self, walk: &Walk) -> Move;
    /// [`Player::choose`] that gives up, returning `None`, soon after `stop` is raised (a player
    /// that searches looks at it as it goes).
    fn choose_unless(&mut self, walk: &Walk, stop: &AtomicBool) -> Option<Move> {
        (!stop.load(Ordering::Relaxed)).then(|| self.choose(walk))
    }
    /// [`Player::choose_unless`], then the move played in `walk` (as [`Walk::play`] plays it; a
    /// player may play it more directly).
    fn play_unless(&mut self, walk: &mut Walk, stop: &AtomicBool) -> Option<Move> {
        let m = self.choose_unless(walk, stop)?;
        walk.play(m);
        Some(m)
    }
    /// [`Player::choose`] for an onlooker: a player that searches reports its work and its best
    /// move so far in `progress` as it goes, and answers with that move soon after `stop` is
    /// raised (an engine's `stop`).
    fn think(&mut self, walk: &Walk, stop: &AtomicBool, progress: &Progress) -> Move {
        let _ = (stop, progress);
        self.choose(walk)
    }
    /// What the last choice cost: MCTS iterations run (0 for players that do not search).
    fn last_iterations(&self) -> u64 {
        0
    }
    /// A uniformly random player's generator and scratch list, with which a chain game's plies
    /// can be drawn and played in a run ([`Walk::play_random_chain_plies`]): the moves
    /// [`Player::play_unless`] would play. `None` for any other player.
    fn random_draws(&mut self) -> Option<(&mut ChaCha8Rng, &mut Vec<u16>)> {
        None
    }
}

/// What a search has done so far, read by another thread while it runs ([`Player::think`]).
#[derive(Debug, Default)]
pub struct Progress {
    iterations: AtomicU64,
    best: Mutex<Option<Move>>,
    /// The root's moves tried so far with their visits, most visited first (at most [`SHOWN`]).
    visits: Mutex<Vec<(Move, u64)>>,
}

/// How many of the root's moves [`Progress::visits`] keeps.
pub const SHOWN: usize = 8;

impl Progress {
    /// Records the work so far and the move the search would play now.
    pub fn report(&self, iterations: u64, best: Option<Move>) {
        self.iterations.store(iterations, Ordering::Relaxed);
        if let Ok(mut b) = self.best.lock() {
            *b = best;
        }
    }
    /// The iterations run so far.
    pub fn iterations(&self) -> u64 {
        self.iterations.load(Ordering::Relaxed)
    }
    /// The move the search would play now, once it has one.
    pub fn best(&self) -> Option<Move> {
        self.best.lock().ok().and_then(|b| *b)
    }
    /// Records the root's moves with their visits so far (kept: the [`SHOWN`] most visited).
    pub fn report_visits(&self, mut visits: Vec<(Move, u64)>) {
        visits.sort_by(|a, b| b.1.cmp(&a.1));
        visits.truncate(SHOWN);
        if let Ok(mut v) = self.visits.lock() {
            *v = visits;
        }
    }
    /// The root's most visited moves so far, most visited first, with their visits: what an
    /// onlooker draws while the search runs.
    pub fn visits(&self) -> Vec<(Move, u64)> {
        self.visits.lock().map(|v| v.clone()).unwrap_or_default()
    }
}

/// How long an MCTS player thinks about a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Budget {
    /// This many iterations: the same seed gives the same moves on any machine.
    Iterations(u32),
    /// This much time: stronger on a faster machine, and no longer reproducible.
    Time(Duration),
}

/// A player as written: `random`, `mcts:2000`, `mcts:500ms`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlayerSpec {
    Random,
    Mcts(Budget),
}

/// The most iterations a player may ask for per move, and the longest time (a typo like
/// `mcts:20000000` would otherwise run for hours while holding a tree of that many nodes).
pub const MAX_ITERATIONS: u32 = 1_000_000;
pub const MAX_THINK: Duration = Duration::from_secs(600);

impl PlayerSpec {
    /// Reads a player's text.
    ///
    /// # Errors
    /// What is wrong with it, naming the text and what is accepted.
    ///
    /// # Examples
    /// ```
    /// use arbiter::sim::{Budget, PlayerSpec};
    /// assert_eq!(PlayerSpec::parse("mcts:2000"), Ok(PlayerSpec::Mcts(Budget::Iterations(2000))));
    /// assert_eq!(PlayerSpec::parse("random").map(|p| p.to_string()), Ok("random".to_string()));
    /// assert!(PlayerSpec::parse("mcts:fast").is_err());
    /// ```
    pub fn parse(text: &str) -> Result<PlayerSpec, String> {
        let t = text.trim();
        let known = "players are `random`, `mcts:N` (N iterations a move) and `mcts:Nms` or `mcts:Ns` (thinking time a move)";
        if t == "random" {
            return Ok(PlayerSpec::Random);
        }
        let Some(budget) = t.strip_prefix("mcts:") else {
            return Err(format!("unknown player `{t}`: {known}"));
        };
        let (number, unit) = match budget.find(|c: char| !c.is_ascii_digit()) {
            Some(i) => budget.split_at(i),
            None => (budget, ""),
        };
        let n: u64 = number
            .parse()
            .map_err(|_| format!("`{t}`: the budget `{budget}` is not a whole number of iterations or a time like 500ms; {known}"))?;
        if n == 0 {
            return Err(format!("`{t}`: a budget must be above zero"));
        }
        let spec = match unit {
            "" => {
                if n > MAX_ITERATIONS as u64 {
                    return Err(format!("`{t}`: at most {MAX_ITERATIONS} iterations a move"));
                }
                PlayerSpec::Mcts(Budget::Iterations(n as u32))
            }
            "ms" | "s" => {
                let d = if unit == "s" {
                    Duration::from_secs(n)
                } else {
                    Duration::from_millis(n)
                };
                if d > MAX_THINK {
                    return Err(format!("`{t}`: at most {} s a move", MAX_THINK.as_secs()));
                }
                PlayerSpec::Mcts(Budget::Time(d))
            }
            other => return Err(format!("`{t}`: unknown unit `{other}` (use ms or s); {known}")),
        };
        Ok(spec)
    }

    /// Reads a comma-separated pair, `P1,P2` (one player alone plays both sides).
    ///
    /// # Errors
    /// As [`PlayerSpec::parse`], or when more than two are given.
    pub fn parse_pair(text: &str) -> Result<[PlayerSpec; 2], String> {
        let v = PlayerSpec::parse_sides(text, 2)?;
        Ok([v[0], v[1]])
    }

    /// Reads one player per side, comma-separated in the sides' order, for a game of `sides`
    /// sides; one player alone plays every side.
    ///
    /// # Errors
    /// As [`PlayerSpec::parse`], or when the count is neither 1 nor `sides`.
    pub fn parse_sides(text: &str, sides: usize) -> Result<Vec<PlayerSpec>, String> {
        let parts: Vec<&str> = text.split(',').collect();
        match parts.as_slice() {
            [one] => Ok(vec![PlayerSpec::parse(one)?; sides]),
            many if many.len() == sides => many.iter().map(|p| PlayerSpec::parse(p)).collect(),
            _ if sides == 2 => Err(format!(
                "`{text}`: give one player for both sides or two separated by a comma, first player first"
            )),
            _ => Err(format!(
                "`{text}`: give one player for every side or {sides} separated by commas, in the sides' turn order"
            )),
        }
    }

    /// Does the same seed give the same moves (no time budget)?
    pub fn reproducible(&self) -> bool {
        !matches!(self, PlayerSpec::Mcts(Budget::Time(_)))
    }

    /// A player of this kind drawing its random numbers from `seed`.
    pub fn build(&self, seed: u64) -> Box<dyn Player> {
        let rng = ChaCha8Rng::seed_from_u64(seed);
        match *self {
            PlayerSpec::Random => Box::new(Random {
                rng,
                buf: Vec::new(),
                points: Vec::new(),
            }),
            PlayerSpec::Mcts(budget) => Box::new(Mcts::new(budget, rng)),
        }
    }
}

impl fmt::Display for PlayerSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayerSpec::Random => write!(f, "random"),
            PlayerSpec::Mcts(Budget::Iterations(n)) => write!(f, "mcts:{n}"),
            PlayerSpec::Mcts(Budget::Time(d)) if d.subsec_millis() == 0 => write!(f, "mcts:{}s", d.as_secs()),
            PlayerSpec::Mcts(Budget::Time(d)) => write!(f, "mcts:{}ms", d.as_millis()),
        }
    }
}

/// Uniform over the moves [`Walk::candidates`] allows: every legal move, except that in games
/// that capture chains it never fills its own single-point eye and passes only when nothing else
/// is left.
pub struct Random {
    rng: ChaCha8Rng,
    buf: Vec<Move>,
    /// The empty points not yet drawn, in chain games.
    points: Vec<u16>,
}

impl Player for Random {
    fn choose(&mut self, walk: &Walk) -> Move {
        // Asked at a roll (a game's loop draws the rolls itself): as likely as the roll makes it.
        if walk.rules().roll.is_some()
            && let Some(roll) = walk.position().draw_roll(&mut self.rng)
        {
            return roll;
        }
        if !walk.position().chain_game() {
            // Every legal move is a candidate: draw from the list itself.
            let legal = walk.legal();
            return legal[below(&mut self.rng, legal.len())];
        }
        // Drawn from the empty points where the game allows, without listing the moves.
        if let Some(m) = walk.position().random_chain_move(&mut self.rng, &mut self.points) {
            return m;
        }
        self.from_candidates(walk)
    }
    fn random_draws(&mut self) -> Option<(&mut ChaCha8Rng, &mut Vec<u16>)> {
        Some((&mut self.rng, &mut self.points))
    }
    /// The same move as [`Player::choose`], played where a chain game lets it be drawn and
    /// played in one go.
    fn play_unless(&mut self, walk: &mut Walk, stop: &AtomicBool) -> Option<Move> {
        if stop.load(Ordering::Relaxed) {
            return None;
        }
        let m = if walk.position().chain_game() {
            match walk.play_random_chain_move(&mut self.rng, &mut self.points) {
                RandomPly::Played(m) => return Some(m),
                RandomPly::Exhausted => self.from_candidates(walk),
                RandomPly::NotDrawn => self.choose(walk),
            }
        } else {
            self.choose(walk)
        };
        walk.play(m);
        Some(m)
    }
}

impl Random {
    /// Drawn from the listed candidates (where drawing points found no placement to play).
    fn from_candidates(&mut self, walk: &Walk) -> Move {
        walk.candidates(&mut self.buf);
        self.buf[below(&mut self.rng, self.buf.len())]
    }
}

/// When a time budget runs out; checked every few iterations.
pub(crate) struct Deadline(Option<Instant>);

impl Deadline {
    pub(crate) fn after(budget: Budget) -> Deadline {
        Deadline(match budget {
            Budget::Time(d) => Some(Instant::now() + d),
            Budget::Iterations(_) => None,
        })
    }
    pub(crate) fn passed(&self) -> bool {
        self.0.is_some_and(|t| Instant::now() >= t)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn players_are_read_and_written_back() {
        for t in ["random", "mcts:1", "mcts:2000", "mcts:500ms", "mcts:3s"] {
            assert_eq!(PlayerSpec::parse(t).expect(t).to_string(), t);
        }
        assert_eq!(PlayerSpec::parse("mcts:1000ms").expect("a time").to_string(), "mcts:1s");
        assert_eq!(
            PlayerSpec::parse_pair("mcts:50,random"),
            Ok([PlayerSpec::Mcts(Budget::Iterations(50)), PlayerSpec::Random])
        );
        assert_eq!(PlayerSpec::parse_pair("random"), Ok([PlayerSpec::Random; 2]));
        // One per side, or one for every side; any other count is refused with the count asked.
        assert_eq!(PlayerSpec::parse_sides("random", 4), Ok(vec![PlayerSpec::Random; 4]));
        let three = PlayerSpec::parse_sides("random,mcts:10,random", 3).expect("three players");
        assert_eq!(three[1], PlayerSpec::parse("mcts:10").expect("a player"));
        let refused = PlayerSpec::parse_sides("random,random", 3).expect_err("two players for three sides");
        assert!(refused.contains("3 separated by commas"), "{refused}");
        assert!(PlayerSpec::parse_sides("random,bogus,random", 3).is_err());
    }

    #[test]
    fn bad_players_are_refused_with_the_reason() {
        let err = |t: &str| PlayerSpec::parse(t).expect_err(t);
        assert!(err("minimax").contains("unknown player `minimax`"));
        assert!(err("mcts:").contains("not a whole number"));
        assert!(err("mcts:0").contains("above zero"));
        assert!(err("mcts:5h").contains("unknown unit `h`"));
        assert!(err("mcts:99999999999").contains("at most"));
        assert!(err("mcts:100000s").contains("at most 600 s"));
        assert!(
            PlayerSpec::parse_pair("random,random,random")
                .expect_err("three")
                .contains("two separated by a comma")
        );
    }
}
