//! Simulation: players, self-play and the statistics a rule designer asks of a ruleset (does the
//! first player win more often, how long are games, how many moves are there to choose from).
//!
//! Game `i` of a run with seed `s` depends on nothing but the ruleset, its start, the players, `s`
//! and `i`: each side's player draws from its own ChaCha stream ([`player_seed`]). So a run's
//! statistics are the same on one thread or many, and a run split into shards of disjoint game
//! ranges merges into exactly the run's statistics ([`Tally::merge`]).

pub mod knockout;
mod mcts;
mod player;
pub mod report;
mod stats;
mod walk;

use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::SeedableRng;
use std::cell::RefCell;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

pub use mcts::Mcts;
pub use player::{Budget, MAX_ITERATIONS, MAX_THINK, Player, PlayerSpec, Progress, Random};
pub use stats::{GameSummary, Interval, PHASES, Tally, Z95};
pub use walk::{End, STUCK, Walk};

use crate::game::{Move, Position};

/// The longest game a simulation plays before cutting it, unless told otherwise.
pub const DEFAULT_MAX_PLIES: usize = 1000;
/// In a game whose moves a random player draws without listing them (go), the legal moves of
/// each ply are counted (for the branching figures) in one game in this many, unless told
/// otherwise: counting them costs more than playing the ply. Games `0, N, 2N, …` are counted,
/// whatever the threads or shards.
pub const BRANCHING_EVERY: u64 = 16;
/// The most games one run may ask for, and the longest game (a typo would otherwise run for days).
pub const MAX_GAMES: u64 = 100_000_000;
pub const MAX_PLIES: usize = 100_000;

/// The K-th of N disjoint ranges of a run's games (K from 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Shard {
    pub index: u64,
    pub count: u64,
}

impl Shard {
    pub const WHOLE: Shard = Shard { index: 0, count: 1 };

    /// Reads `K/N`, with 0 ≤ K < N.
    ///
    /// # Errors
    /// What is wrong with the text.
    pub fn parse(text: &str) -> Result<Shard, String> {
        let (k, n) = text
            .split_once('/')
            .ok_or_else(|| format!("`{text}`: a shard is written K/N, e.g. 0/4 (K from 0 to N-1)"))?;
        let k: u64 = k.trim().parse().map_err(|_| format!("`{text}`: K must be a whole number"))?;
        let n: u64 = n.trim().parse().map_err(|_| format!("`{text}`: N must be a whole number"))?;
        if n == 0 {
            return Err(format!("`{text}`: N, the number of shards, must be at least 1"));
        }
        if k >= n {
            return Err(format!("`{text}`: K must be below N (shards are 0/{n} to {}/{n})", n - 1));
        }
        Ok(Shard { index: k, count: n })
    }

    /// The games of `total` this shard plays: indices `from..to`.
    pub fn range(&self, total: u64) -> std::ops::Range<u64> {
        let at = |k: u64| (total as u128 * k as u128 / self.count as u128) as u64;
        at(self.index)..at(self.index + 1)
    }
}

/// What to simulate.
#[derive(Clone, Debug)]
pub struct Config {
    /// Games in the whole run (all shards together).
    pub games: u64,
    pub seed: u64,
    /// Each side's player, in the ruleset's order (not who moves first): one per side in play.
    pub players: Vec<PlayerSpec>,
    pub max_plies: usize,
    pub threads: usize,
    pub shard: Shard,
    /// Keep each game's moves (for writing the games out).
    pub keep_moves: bool,
    /// Count the legal moves of every ply in game `i` only where `i` is a multiple of this, in
    /// games that need not count them to play (see [`BRANCHING_EVERY`]); 1 counts every game.
    pub branching_every: u64,
}

/// The seed of the player of `side_index` in game `game` of a run seeded `seed`: a splitmix64 mix,
/// so nearby seeds and games give unrelated streams.
pub fn player_seed(seed: u64, game: u64, side_index: usize) -> u64 {
    let mut z = seed ^ (game.wrapping_mul(2).wrapping_add(side_index as u64)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The seed of the rolls of game `game` of a run seeded `seed`: a stream of its own beside the
/// players' (the same mix from a seed moved out of their way: a third side index would be the next
/// game's first player), so the rolls of a game are the same whichever thread or shard plays it,
/// and whoever its players are.
pub fn chance_seed(seed: u64, game: u64) -> u64 {
    player_seed(seed.rotate_left(32) ^ 0x6368_616E_6365_2026, game, 0)
}

/// Where a run's games begin: the walks from its start made once (the ruleset's end rules read,
/// the start judged), which each game copies. A thread's own (a walk is not `Sync`).
#[derive(Clone, Debug)]
pub struct Start {
    counted: Walk,
    /// Where a game can be played uncounted ([`Walk::uncounted`]).
    uncounted: Option<Walk>,
    /// The last game's walk, which the next game copies its start into (`clone_from`: its
    /// position's tables and its lists keep their room).
    spare: RefCell<Option<Walk>>,
}

impl Start {
    pub fn new(pos: &Position) -> Start {
        let uncounted = Walk::uncounted(pos.clone());
        Start {
            counted: Walk::new(pos.clone()),
            uncounted: uncounted.runs_uncounted().then_some(uncounted),
            spare: RefCell::new(None),
        }
    }

    /// A copy of `from` (one of this start's walks), made into the spare walk where there is one.
    fn copy(&self, from: &Walk) -> Walk {
        match self.spare.take() {
            Some(mut w) => {
                w.clone_from(from);
                w
            }
            None => from.clone(),
        }
    }
}

/// One game played by `players` (first side's, second side's) from `start`, cut after
/// `max_plies`. `None` if `stop` was raised before it ended. Returns the summary and, with
/// `keep_moves`, the moves. In a game of chance the rolls are drawn from `chance_seed` (see
/// [`chance_seed`]), apart from the players' draws: the same seed, the same rolls, whoever plays.
///
/// Without `count_branching`, a game that two random players can play without counting each
/// ply's legal moves (see [`Walk::play_random_chain_plies`]) is played so, and its summary has
/// no branching figures ([`GameSummary::counted`] false); the game itself is the same.
pub fn play_game(
    start: &Position,
    players: &mut [Box<dyn Player>],
    max_plies: usize,
    keep_moves: bool,
    count_branching: bool,
    chance_seed: u64,
    stop: &AtomicBool,
) -> Option<(GameSummary, Vec<Move>)> {
    play_game_from(
        &Start::new(start),
        players,
        max_plies,
        keep_moves,
        count_branching,
        chance_seed,
        stop,
    )
}

/// [`play_game`] from a [`Start`] made once for many games.
#[allow(clippy::too_many_arguments)]
pub fn play_game_from(
    start: &Start,
    players: &mut [Box<dyn Player>],
    max_plies: usize,
    keep_moves: bool,
    count_branching: bool,
    chance_seed: u64,
    stop: &AtomicBool,
) -> Option<(GameSummary, Vec<Move>)> {
    let mut moves = Vec::new();
    let mut walk = None;
    if let (false, Some(from), [a, b]) = (count_branching, &start.uncounted, &mut *players) {
        if let (Some(a), Some(b)) = (a.random_draws(), b.random_draws()) {
            let mut w = start.copy(from);
            w.reserve_record(max_plies);
            // Where no run can be made, nothing was played: the game is counted after all.
            if w.play_random_chain_plies([a, b], max_plies, keep_moves.then_some(&mut moves), stop)? {
                walk = Some(w);
            } else {
                start.spare.replace(Some(w));
            }
        }
    }
    // The plies of any other game, one at a time.
    let counted = walk.is_none();
    let mut walk = walk.unwrap_or_else(|| {
        let mut w = start.copy(&start.counted);
        w.reserve_record(max_plies);
        w
    });
    let mut branching = Vec::with_capacity(if counted { 128 } else { 0 });
    // Made where the game first rolls: a game without chance never seeds it (nor asks).
    let rolls = walk.rules().roll.is_some();
    let mut chance: Option<ChaCha8Rng> = None;
    while walk.end().is_none() && walk.plies() < max_plies {
        if stop.load(Ordering::Relaxed) {
            return None;
        }
        if rolls && walk.position().to_roll() {
            // Chance's move, not a player's (and no choice to count among the branching).
            let rng = chance.get_or_insert_with(|| ChaCha8Rng::seed_from_u64(chance_seed));
            let m = walk.position().draw_roll(rng).expect("a position still to roll draws a roll");
            walk.play(m);
            if keep_moves {
                moves.push(m);
            }
            continue;
        }
        if counted {
            branching.push(walk.legal_count() as u32);
        }
        let side = walk.position().side_to_move().index();
        let m = players[side].play_unless(&mut walk, stop)?;
        if keep_moves {
            moves.push(m);
        }
    }
    let end = walk.end().cloned();
    let reason = end.as_ref().map(|e| e.reason(walk.rules()).to_string()).unwrap_or_default();
    let summary = GameSummary {
        end,
        reason,
        plies: walk.plies(),
        captures: walk.captures(),
        counted,
        branching,
    };
    start.spare.replace(Some(walk));
    Some((summary, moves))
}

/// Game `game` of the run: its players seeded as [`player_seed`] says.
pub fn play_indexed(start: &Start, cfg: &Config, game: u64, stop: &AtomicBool) -> Option<(GameSummary, Vec<Move>)> {
    let mut players: Vec<Box<dyn Player>> = cfg
        .players
        .iter()
        .enumerate()
        .map(|(s, p)| p.build(player_seed(cfg.seed, game, s)))
        .collect();
    let counted = game % cfg.branching_every.max(1) == 0;
    play_game_from(
        start,
        &mut players,
        cfg.max_plies,
        cfg.keep_moves,
        counted,
        chance_seed(cfg.seed, game),
        stop,
    )
}

/// A run's result.
#[derive(Debug)]
pub struct Outcome {
    pub tally: Tally,
    /// Stopped before every game of the shard was played: the tally holds the finished ones.
    pub partial: bool,
    /// With `keep_moves`: each finished game's index, summary and moves, by index.
    pub games: Vec<(u64, GameSummary, Vec<Move>)>,
}

/// Plays the shard's games on `cfg.threads` threads. `progress` is called after each game with the
/// number finished; `stop` ends the run early (the games under way are dropped).
pub fn run(start: &Position, cfg: &Config, stop: &AtomicBool, progress: &(dyn Fn(u64) + Sync)) -> Outcome {
    let range = cfg.shard.range(cfg.games);
    let next = AtomicU64::new(range.start);
    let finished = AtomicU64::new(0);
    let out = Mutex::new((Tally::default(), Vec::new()));
    let work = || {
        let start = &Start::new(start);
        let mut local = Tally::default();
        let mut kept = Vec::new();
        loop {
            let g = next.fetch_add(1, Ordering::Relaxed);
            if g >= range.end || stop.load(Ordering::Relaxed) {
                break;
            }
            let Some((summary, moves)) = play_indexed(start, cfg, g, stop) else {
                break;
            };
            local.add(&summary);
            if cfg.keep_moves {
                kept.push((g, summary, moves));
            }
            progress(finished.fetch_add(1, Ordering::Relaxed) + 1);
        }
        let mut o = out.lock().unwrap_or_else(|e| e.into_inner());
        o.0.merge(&local);
        o.1.extend(kept);
    };
    let threads = cfg.threads.clamp(1, 256);
    std::thread::scope(|s| {
        for _ in 1..threads {
            s.spawn(work);
        }
        work();
    });
    let (tally, mut games) = out.into_inner().unwrap_or_else(|e| e.into_inner());
    games.sort_by_key(|g| g.0);
    Outcome {
        partial: tally.games < range.end - range.start,
        tally,
        games,
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::game::Engine;

    /// A bundled ruleset's engine, for the simulation module's tests.
    pub(crate) fn engine(name: &str) -> Engine {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../rulesets")
            .join(format!("{name}.rules"));
        Engine::new(crate::check::check_file(&path, &[]).rules.expect("a bundled ruleset is valid"))
    }

    /// Asserts that `moves`, the generator's moves in `pos`, are exactly those the plain
    /// definition of legality allows (`legal_moves_reference`), in any order; `at` names the
    /// position in the failure. Returns them sorted.
    pub(crate) fn assert_legal_as_defined(
        mut moves: Vec<crate::game::Move>,
        pos: &crate::game::Position,
        at: &str,
    ) -> Vec<crate::game::Move> {
        let mut reference = pos.legal_moves_reference();
        moves.sort_by_key(|m| (m.from, m.to, m.promo, m.route));
        reference.sort_by_key(|m| (m.from, m.to, m.promo, m.route));
        assert_eq!(moves, reference, "{at}: the generator and the definition of legality disagree");
        moves
    }

    fn cfg(games: u64, threads: usize, shard: Shard) -> Config {
        Config {
            games,
            seed: 42,
            players: vec![PlayerSpec::Random; 2],
            max_plies: 400,
            threads,
            shard,
            keep_moves: false,
            branching_every: BRANCHING_EVERY,
        }
    }

    #[test]
    fn results_do_not_depend_on_threads_or_shards() {
        let e = engine("chess");
        let stop = AtomicBool::new(false);
        let one = run(&e.start(), &cfg(24, 1, Shard::WHOLE), &stop, &|_| {});
        let many = run(&e.start(), &cfg(24, 3, Shard::WHOLE), &stop, &|_| {});
        assert_eq!(one.tally, many.tally);
        let mut merged = Tally::default();
        for k in 0..5 {
            let part = run(&e.start(), &cfg(24, 2, Shard { index: k, count: 5 }), &stop, &|_| {});
            assert!(!part.partial);
            merged.merge(&part.tally);
        }
        assert_eq!(merged, one.tally);
        assert_eq!(one.tally.games, 24);
        assert!(!one.partial);
        // A different seed plays different games.
        let other = run(
            &e.start(),
            &Config {
                seed: 43,
                ..cfg(24, 1, Shard::WHOLE)
            },
            &stop,
            &|_| {},
        );
        assert_ne!(other.tally.lengths, one.tally.lengths);
    }

    /// Chooses as the wrapped player does, but plays through [`Walk::play`] (the trait's own
    /// [`Player::play_unless`]).
    struct Plain(Box<dyn Player>);

    impl Player for Plain {
        fn choose(&mut self, walk: &Walk) -> Move {
            self.0.choose(walk)
        }
    }

    /// The random player of a chain game draws and plays its move in one go: the games, moves and
    /// statistics are those of choosing the move and playing it through the walk.
    #[test]
    fn random_players_play_the_same_games_in_one_go() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../rulesets/go.rules");
        let stop = AtomicBool::new(false);
        let mut captures = 0;
        for size in [5, 9] {
            let e = Engine::new(
                crate::check::check_file(&path, &[("size".into(), size.to_string())])
                    .rules
                    .expect("go.rules is valid"),
            );
            for game in 0..16 {
                let build = |s: usize| PlayerSpec::Random.build(player_seed(7, game, s));
                let mut lean = [build(0), build(1)];
                let mut plain: [Box<dyn Player>; 2] = [Box::new(Plain(build(0))), Box::new(Plain(build(1)))];
                let mut run = [build(0), build(1)];
                let (a, moves_a) = play_game(&e.start(), &mut lean, 3000, true, true, 0, &stop).expect("not stopped");
                let (b, moves_b) = play_game(&e.start(), &mut plain, 3000, true, true, 0, &stop).expect("not stopped");
                // Uncounted, the plies are played in one run, never judged on the way.
                let (c, moves_c) = play_game(&e.start(), &mut run, 3000, true, false, 0, &stop).expect("not stopped");
                assert_eq!(moves_a, moves_b, "{size}x{size} game {game}");
                assert_eq!(moves_a, moves_c, "{size}x{size} game {game}");
                assert_eq!(
                    (&a.end, &a.reason, a.plies, a.captures, &a.branching),
                    (&b.end, &b.reason, b.plies, b.captures, &b.branching),
                    "{size}x{size} game {game}"
                );
                assert_eq!(
                    (&a.end, &a.reason, a.plies, a.captures),
                    (&c.end, &c.reason, c.plies, c.captures),
                    "{size}x{size} game {game}"
                );
                assert!(a.counted && a.branching.len() == a.plies, "{size}x{size} game {game}");
                assert!(!c.counted && c.branching.is_empty(), "{size}x{size} game {game}");
                assert_eq!(a.end.is_some(), a.plies < 3000);
                captures += a.captures;
            }
        }
        assert!(captures > 100, "only {captures} stones captured");
    }

    /// A start plays each game into the walk its last game left (`Start::copy`): a game played
    /// after others, counted or not, is the game a fresh start plays (chess, and go, whose
    /// uncounted games run apart).
    #[test]
    fn a_game_played_into_the_last_game_s_walk_is_the_game_a_fresh_start_plays() {
        let stop = AtomicBool::new(false);
        for name in ["chess", "go"] {
            let e = engine(name);
            let cfg = Config {
                games: 8,
                seed: 11,
                players: vec![PlayerSpec::Random; 2],
                max_plies: 300,
                threads: 1,
                shard: Shard::WHOLE,
                keep_moves: true,
                branching_every: 3,
            };
            let reused = Start::new(&e.start());
            for game in (0..8).rev().chain(0..8) {
                let (a, moves_a) = play_indexed(&reused, &cfg, game, &stop).expect("not stopped");
                let (b, moves_b) = play_indexed(&Start::new(&e.start()), &cfg, game, &stop).expect("not stopped");
                assert!(moves_a.len() > 10, "{name} game {game}: {} moves", moves_a.len());
                assert_eq!(moves_a, moves_b, "{name} game {game}");
                assert_eq!(
                    (&a.end, &a.reason, a.plies, a.captures, a.counted, &a.branching),
                    (&b.end, &b.reason, b.plies, b.captures, b.counted, &b.branching),
                    "{name} game {game}"
                );
            }
            assert!(reused.spare.borrow().is_some(), "{name}: the last game's walk is kept");
        }
    }

    #[test]
    fn a_raised_stop_leaves_a_partial_tally() {
        let e = engine("chess");
        let stop = AtomicBool::new(false);
        let c = cfg(50, 1, Shard::WHOLE);
        let out = run(&e.start(), &c, &stop, &|n| {
            if n == 7 {
                stop.store(true, Ordering::Relaxed);
            }
        });
        assert!(out.partial);
        assert_eq!(out.tally.games, 7);
    }

    #[test]
    fn shards_cover_every_game_once() {
        for total in [0u64, 1, 7, 100, 101] {
            for n in 1..6 {
                let mut covered = Vec::new();
                for k in 0..n {
                    covered.extend(Shard { index: k, count: n }.range(total));
                }
                assert_eq!(covered, (0..total).collect::<Vec<_>>());
            }
        }
        assert_eq!(
            Shard::parse("4/4"),
            Err("`4/4`: K must be below N (shards are 0/4 to 3/4)".to_string())
        );
        assert_eq!(
            Shard::parse("0/0"),
            Err("`0/0`: N, the number of shards, must be at least 1".to_string())
        );
        assert!(Shard::parse("1-4").is_err());
        assert_eq!(Shard::parse("3/4"), Ok(Shard { index: 3, count: 4 }));
    }
}
