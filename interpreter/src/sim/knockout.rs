//! Knockout tournaments, in the competition format of the xiangqi seed: each round is paired by
//! drawing cards, each pairing plays a short match, the winners go on until one is left.
//!
//! The format, as this module plays it:
//! - **The draw.** A round of `n` players deals two sets of number cards, one red and one black,
//!   numbered `1..=n/2`; when `n` is odd there is also one K, whose holder has a bye and goes
//!   straight to the next round. The two holders of the same number play each other. With 13
//!   players round 1 deals red and black 1–6 and a K; round 2 (six winners and the bye) deals 1–3
//!   and a K; round 3 deals 1–2 (the semi-finals); the last round deals 1 (the final).
//! - **Colours.** The holder of the red card plays the side that moves first in game 1 of the
//!   match. The seed fixes only game 1; here the colours then alternate game by game (extra games
//!   included), so over a match of three the red-card holder moves first twice.
//! - **A match** is won on points, a win 1 and a draw ½ (a game cut at the ply limit, or ended
//!   without a result, is a draw): [`KnockoutRules::games_per_match`] games, stopping early once the
//!   trailing player could not catch up even by winning every game left. A match level after them
//!   goes to up to [`KnockoutRules::extra_games`] extra games, the first decisive one winning it;
//!   a match still level after those is decided by lot.
//!
//! Everything left to chance — the cards of each round, each lot, and the seed each game's players
//! draw their moves from — comes from the tournament's seed through [`derive`], keyed by round,
//! match and game. So the same seed, entrants and players give the same tournament, and a game's
//! seed does not depend on how many games came before it.
//!
//! The module plays no game itself: [`run`] calls a closure for each game, so the bracket can be
//! tested without a board, and the command line passes one that plays the entrants' players.

use std::fmt;

use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The most entrants a tournament may have (and the fewest is 2).
pub const MAX_ENTRANTS: u32 = 1024;
/// The most games a match, or its extra games, may be set to.
pub const MAX_MATCH_GAMES: u32 = 99;

/// An entrant, numbered from 1 and written `E1`, `E2`, …
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Entrant(pub u32);

impl fmt::Display for Entrant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "E{}", self.0)
    }
}

/// How long a match is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KnockoutRules {
    /// Games in a match (the seed: three, "3 games, 2 wins").
    pub games_per_match: u32,
    /// Extra games for a match level on points after those, the first decisive one winning; a
    /// match level after these too is decided by lot.
    pub extra_games: u32,
}

impl Default for KnockoutRules {
    /// The seed's: best of three, then up to two extra games, then lot.
    fn default() -> KnockoutRules {
        KnockoutRules {
            games_per_match: 3,
            extra_games: 2,
        }
    }
}

impl KnockoutRules {
    /// Checks the numbers: 1 to [`MAX_MATCH_GAMES`] games a match, 0 to [`MAX_MATCH_GAMES`] extra.
    ///
    /// # Errors
    /// Which number is out of range, and the range.
    pub fn new(games_per_match: u32, extra_games: u32) -> Result<KnockoutRules, String> {
        if games_per_match == 0 || games_per_match > MAX_MATCH_GAMES {
            return Err(format!("--games-per-match {games_per_match}: give from 1 to {MAX_MATCH_GAMES}"));
        }
        if extra_games > MAX_MATCH_GAMES {
            return Err(format!("--extra-games {extra_games}: give from 0 to {MAX_MATCH_GAMES}"));
        }
        Ok(KnockoutRules {
            games_per_match,
            extra_games,
        })
    }

    /// The most games one match can take.
    pub fn most_games(&self) -> u32 {
        self.games_per_match + self.extra_games
    }
}

/// A card of the draw: a number of the red or the black set, or the K (a bye).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Card {
    Red(u32),
    Black(u32),
    King,
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Card::Red(n) => write!(f, "red {n}"),
            Card::Black(n) => write!(f, "black {n}"),
            Card::King => write!(f, "K"),
        }
    }
}

/// The cards a round of `players` deals, before shuffling: red `1..=players/2`, black the same,
/// and a K when `players` is odd.
pub fn deck(players: usize) -> Vec<Card> {
    let half = (players / 2) as u32;
    let mut cards: Vec<Card> = (1..=half).map(Card::Red).chain((1..=half).map(Card::Black)).collect();
    if players % 2 == 1 {
        cards.push(Card::King);
    }
    cards
}

/// One game to play: who moves first, who second, and the seed their players draw from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fixture {
    /// The round, from 1.
    pub round: usize,
    /// The match within the round, from 1 (in the order of the card numbers).
    pub match_number: usize,
    /// The game within the match, from 1; those past [`KnockoutRules::games_per_match`] are extra.
    pub game: u32,
    /// The entrant playing the side that moves first, and the other.
    pub first: Entrant,
    pub second: Entrant,
    pub seed: u64,
}

/// Who won a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    /// The entrant who moved first.
    First,
    Second,
    /// Neither: a draw, a game cut at the ply limit, or a game that ended without a result.
    Draw,
}

/// A game's result, as the closure given to [`run`] reports it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameResult {
    pub decision: Decision,
    /// Why it ended (`checkmate`, `max-plies`).
    pub reason: String,
    pub plies: usize,
}

/// A game played in a match.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayedGame {
    pub fixture: Fixture,
    pub result: GameResult,
}

impl PlayedGame {
    /// The winner, if the game was decisive.
    pub fn winner(&self) -> Option<Entrant> {
        match self.result.decision {
            Decision::First => Some(self.fixture.first),
            Decision::Second => Some(self.fixture.second),
            Decision::Draw => None,
        }
    }
}

/// What settled a match.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DecidedBy {
    /// The points of its regular games.
    Games,
    /// A decisive extra game.
    ExtraGames,
    /// A lot, after every game was level.
    Lot,
}

impl DecidedBy {
    pub fn as_str(&self) -> &'static str {
        match self {
            DecidedBy::Games => "games",
            DecidedBy::ExtraGames => "extra-games",
            DecidedBy::Lot => "lot",
        }
    }
}

/// A match between the holders of the red and the black card of one number.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Match {
    /// The number on both cards.
    pub number: u32,
    pub red: Entrant,
    pub black: Entrant,
    pub games: Vec<PlayedGame>,
    /// Points of the red- and the black-card holder, in half points (a win is 2, a draw 1 each).
    pub half_points: [u32; 2],
    /// `None` when the tournament was stopped during the match.
    pub winner: Option<Entrant>,
    pub decided_by: Option<DecidedBy>,
}

/// A round: the draw, its matches in card order, and the bye if any.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Round {
    /// From 1.
    pub number: usize,
    /// Each player's card, by entrant number.
    pub draw: Vec<(Entrant, Card)>,
    pub matches: Vec<Match>,
    pub byes: Vec<Entrant>,
}

impl Round {
    /// The entrants who go on to the next round (so far, if the round was stopped), by number.
    pub fn advancing(&self) -> Vec<Entrant> {
        let mut out: Vec<Entrant> = self
            .matches
            .iter()
            .filter_map(|m| m.winner)
            .chain(self.byes.iter().copied())
            .collect();
        out.sort();
        out
    }
}

/// A whole tournament, or as much of it as was played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bracket {
    pub entrants: u32,
    pub rules: KnockoutRules,
    pub seed: u64,
    pub rounds: Vec<Round>,
    /// `None` when the tournament was stopped before the final was won.
    pub champion: Option<Entrant>,
    /// Stopped before the end: the last round holds the matches played and the one under way.
    pub partial: bool,
}

/// What each random choice of a tournament is for, so that no two draw from the same stream.
const FOR_DRAW: u64 = 1;
const FOR_LOT: u64 = 2;
const FOR_GAME: u64 = 3;

/// A seed for one purpose of a tournament seeded `seed`: `keys` folded in one by one with a
/// splitmix64 step, so nearby seeds and keys give unrelated numbers.
pub fn derive(seed: u64, keys: &[u64]) -> u64 {
    let mix = |mut z: u64| {
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    };
    keys.iter().fold(mix(seed.wrapping_add(0x9E37_79B9_7F4A_7C15)), |h, k| {
        mix(h ^ k.wrapping_add(0x9E37_79B9_7F4A_7C15).wrapping_mul(0xD6E8_FEB8_6659_FD93))
    })
}

/// Deals the cards of round `round` to `players` (by entrant number): the round's own shuffle.
pub fn deal(seed: u64, round: usize, players: &[Entrant]) -> Vec<(Entrant, Card)> {
    let mut cards = deck(players.len());
    let mut rng = ChaCha8Rng::seed_from_u64(derive(seed, &[FOR_DRAW, round as u64]));
    cards.shuffle(&mut rng);
    players.iter().copied().zip(cards).collect()
}

/// Plays a knockout of `entrants` entrants (`E1` to `EN`) under `rules`, everything drawn from
/// `seed`. `play` plays one game and returns its result, or `None` to stop the tournament (Ctrl-C):
/// the bracket then holds what was played and is marked partial.
///
/// # Errors
/// Fewer than 2 entrants, or more than [`MAX_ENTRANTS`].
///
/// # Examples
/// ```
/// use arbiter::sim::knockout::{self, Decision, GameResult, KnockoutRules};
/// // The lower-numbered entrant always wins.
/// let b = knockout::run(13, KnockoutRules::default(), 7, |f| {
///     let decision = if f.first < f.second { Decision::First } else { Decision::Second };
///     Some(GameResult { decision, reason: "checkmate".into(), plies: 40 })
/// })
/// .unwrap();
/// assert_eq!(b.rounds.len(), 4);
/// assert_eq!(b.champion, Some(knockout::Entrant(1)));
/// ```
pub fn run(
    entrants: u32,
    rules: KnockoutRules,
    seed: u64,
    mut play: impl FnMut(&Fixture) -> Option<GameResult>,
) -> Result<Bracket, String> {
    if !(2..=MAX_ENTRANTS).contains(&entrants) {
        return Err(format!("--entrants {entrants}: a knockout needs from 2 to {MAX_ENTRANTS} entrants"));
    }
    let mut bracket = Bracket {
        entrants,
        rules,
        seed,
        rounds: Vec::new(),
        champion: None,
        partial: false,
    };
    let mut players: Vec<Entrant> = (1..=entrants).map(Entrant).collect();
    while players.len() > 1 {
        let number = bracket.rounds.len() + 1;
        let draw = deal(seed, number, &players);
        let mut round = Round {
            number,
            draw: draw.clone(),
            matches: Vec::new(),
            byes: draw.iter().filter(|(_, c)| *c == Card::King).map(|(e, _)| *e).collect(),
        };
        // The holders of red and black `n` at `n - 1`: the deck has both cards of every number.
        let mut pairs = vec![[Entrant(0); 2]; players.len() / 2];
        for (e, c) in &draw {
            match c {
                Card::Red(n) => pairs[*n as usize - 1][0] = *e,
                Card::Black(n) => pairs[*n as usize - 1][1] = *e,
                Card::King => {}
            }
        }
        for (n, [red, black]) in (1..).zip(pairs) {
            let m = play_match(&rules, seed, number, n, red, black, &mut play);
            let stopped = m.winner.is_none();
            round.matches.push(m);
            if stopped {
                bracket.rounds.push(round);
                bracket.partial = true;
                return Ok(bracket);
            }
        }
        players = round.advancing();
        bracket.rounds.push(round);
    }
    bracket.champion = players.first().copied();
    Ok(bracket)
}

/// Plays match `number` of round `round`; its winner is `None` if `play` stopped it.
fn play_match(
    rules: &KnockoutRules,
    seed: u64,
    round: usize,
    number: u32,
    red: Entrant,
    black: Entrant,
    play: &mut impl FnMut(&Fixture) -> Option<GameResult>,
) -> Match {
    let mut m = Match {
        number,
        red,
        black,
        games: Vec::new(),
        half_points: [0, 0],
        winner: None,
        decided_by: None,
    };
    let key = [round as u64, number as u64];
    // Plays game `game` (from 1); false when stopped.
    let mut next = |m: &mut Match, game: u32| -> bool {
        // Colours alternate, the red-card holder moving first in the odd games.
        let (first, second) = if game % 2 == 1 { (red, black) } else { (black, red) };
        let fixture = Fixture {
            round,
            match_number: number as usize,
            game,
            first,
            second,
            seed: derive(seed, &[FOR_GAME, key[0], key[1], game as u64]),
        };
        let Some(result) = play(&fixture) else {
            return false;
        };
        let g = PlayedGame { fixture, result };
        match g.winner() {
            Some(w) if w == red => m.half_points[0] += 2,
            Some(_) => m.half_points[1] += 2,
            None => {
                m.half_points[0] += 1;
                m.half_points[1] += 1;
            }
        }
        m.games.push(g);
        true
    };
    let leader = |m: &Match| match m.half_points[0].cmp(&m.half_points[1]) {
        std::cmp::Ordering::Greater => Some(red),
        std::cmp::Ordering::Less => Some(black),
        std::cmp::Ordering::Equal => None,
    };
    for game in 1..=rules.games_per_match {
        // Decided once the trailing player could not catch up by winning every game left.
        let left = 2 * (rules.games_per_match - game + 1);
        if m.half_points[0].abs_diff(m.half_points[1]) > left {
            break;
        }
        if !next(&mut m, game) {
            return m;
        }
    }
    if let Some(w) = leader(&m) {
        m.winner = Some(w);
        m.decided_by = Some(DecidedBy::Games);
        return m;
    }
    for extra in 1..=rules.extra_games {
        if !next(&mut m, rules.games_per_match + extra) {
            return m;
        }
        if let Some(w) = m.games.last().and_then(PlayedGame::winner) {
            m.winner = Some(w);
            m.decided_by = Some(DecidedBy::ExtraGames);
            return m;
        }
    }
    let mut lot = ChaCha8Rng::seed_from_u64(derive(seed, &[FOR_LOT, key[0], key[1]]));
    m.winner = Some(if lot.gen_bool(0.5) { red } else { black });
    m.decided_by = Some(DecidedBy::Lot);
    m
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::*;

    fn result(decision: Decision) -> Option<GameResult> {
        Some(GameResult {
            decision,
            reason: "test".into(),
            plies: 1,
        })
    }

    /// A game decided by its seed: the first player wins, the second wins, or a draw.
    fn by_seed(f: &Fixture) -> Option<GameResult> {
        result(match f.seed % 3 {
            0 => Decision::First,
            1 => Decision::Second,
            _ => Decision::Draw,
        })
    }

    fn entrants(round: &Round) -> Vec<Entrant> {
        let mut all: Vec<Entrant> = round.draw.iter().map(|(e, _)| *e).collect();
        all.sort();
        all
    }

    #[test]
    fn thirteen_entrants_play_the_seed_s_four_rounds() {
        let b = run(13, KnockoutRules::default(), 7, by_seed).unwrap();
        assert!(!b.partial);
        let shape: Vec<(usize, usize, usize)> = b.rounds.iter().map(|r| (r.draw.len(), r.matches.len(), r.byes.len())).collect();
        assert_eq!(shape, [(13, 6, 1), (7, 3, 1), (4, 2, 0), (2, 1, 0)]);
        let mut players: Vec<Entrant> = (1..=13).map(Entrant).collect();
        for round in &b.rounds {
            // Every player of the round appears exactly once: in one match or as the bye.
            assert_eq!(entrants(round), players);
            let mut seen: Vec<Entrant> = round
                .matches
                .iter()
                .flat_map(|m| [m.red, m.black])
                .chain(round.byes.clone())
                .collect();
            seen.sort();
            assert_eq!(seen, players, "round {}", round.number);
            // The cards: red and black 1..=n/2, K for the bye; matches pair equal numbers.
            let mut cards: Vec<String> = round.draw.iter().map(|(_, c)| c.to_string()).collect();
            let mut expected: Vec<String> = deck(players.len()).iter().map(Card::to_string).collect();
            cards.sort();
            expected.sort();
            assert_eq!(cards, expected);
            for m in &round.matches {
                assert!(round.draw.contains(&(m.red, Card::Red(m.number))));
                assert!(round.draw.contains(&(m.black, Card::Black(m.number))));
            }
            for bye in &round.byes {
                assert!(round.draw.contains(&(*bye, Card::King)));
            }
            players = round.advancing();
        }
        assert_eq!(players.len(), 1);
        let champion = b.champion.unwrap();
        assert_eq!(Some(champion), players.first().copied());
        // The champion won every match it played.
        for round in &b.rounds {
            for m in round.matches.iter().filter(|m| m.red == champion || m.black == champion) {
                assert_eq!(m.winner, Some(champion), "round {}", round.number);
            }
        }
    }

    #[test]
    fn every_size_ends_with_one_champion_after_n_minus_one_matches() {
        for n in 2..=40u32 {
            let b = run(n, KnockoutRules::default(), n as u64, by_seed).unwrap();
            let matches: usize = b.rounds.iter().map(|r| r.matches.len()).sum();
            assert_eq!(matches, n as usize - 1, "{n} entrants");
            assert_eq!(b.rounds.len(), (n as f64).log2().ceil() as usize, "{n} entrants");
            assert!(b.champion.is_some());
        }
        assert!(run(1, KnockoutRules::default(), 0, by_seed).is_err());
        assert!(run(0, KnockoutRules::default(), 0, by_seed).is_err());
        assert!(run(MAX_ENTRANTS + 1, KnockoutRules::default(), 0, by_seed).is_err());
    }

    #[test]
    fn the_red_card_holder_moves_first_in_game_one_and_colours_alternate() {
        let b = run(13, KnockoutRules::default(), 3, |_| result(Decision::Draw)).unwrap();
        for m in b.rounds.iter().flat_map(|r| &r.matches) {
            for g in &m.games {
                let red_first = g.fixture.game % 2 == 1;
                assert_eq!(g.fixture.first, if red_first { m.red } else { m.black });
                assert_eq!(g.fixture.second, if red_first { m.black } else { m.red });
            }
            assert_eq!(m.games[0].fixture.first, m.red);
        }
    }

    #[test]
    fn a_match_stops_once_it_is_decided_and_counts_draws_as_half() {
        // The first player always wins: after two games each has won one (colours alternate), the
        // third settles it.
        let b = run(2, KnockoutRules::default(), 1, |_| result(Decision::First)).unwrap();
        let m = &b.rounds[0].matches[0];
        assert_eq!(
            (m.games.len(), m.half_points, m.winner, m.decided_by),
            (3, [4, 2], Some(m.red), Some(DecidedBy::Games))
        );
        // The red-card holder always wins: 2–0 after two games, the third is not played.
        let red = b.rounds[0].matches[0].red;
        let b = run(2, KnockoutRules::default(), 1, |f| {
            result(if f.first == red { Decision::First } else { Decision::Second })
        })
        .unwrap();
        let m = &b.rounds[0].matches[0];
        assert_eq!((m.games.len(), m.half_points, m.winner), (2, [4, 0], Some(red)));
        // Draw, win, draw: 2–1 in half points... the winner of game 2 takes it on points.
        let b = run(2, KnockoutRules::default(), 1, |f| {
            result(if f.game == 2 { Decision::First } else { Decision::Draw })
        })
        .unwrap();
        let m = &b.rounds[0].matches[0];
        assert_eq!((m.games.len(), m.half_points, m.winner), (3, [2, 4], Some(m.black)));
    }

    #[test]
    fn a_level_match_goes_to_extra_games_then_to_lot() {
        // Win, loss, draw is level: the first extra game (game 4) is decisive.
        let b = run(2, KnockoutRules::default(), 5, |f| {
            result(match f.game {
                1 | 2 => Decision::First,
                3 => Decision::Draw,
                _ => Decision::Second,
            })
        })
        .unwrap();
        let m = &b.rounds[0].matches[0];
        // Game 4 has the black-card holder first, so its second player, the red-card holder, wins.
        assert_eq!(
            (m.games.len(), m.winner, m.decided_by),
            (4, Some(m.red), Some(DecidedBy::ExtraGames))
        );
        // Always a draw: every match plays 3 + 2 games and is decided by lot, the same way each time.
        let draws = |seed| run(13, KnockoutRules::default(), seed, |_| result(Decision::Draw)).unwrap();
        let b = draws(11);
        for m in b.rounds.iter().flat_map(|r| &r.matches) {
            assert_eq!(m.games.len(), 5);
            assert_eq!(m.decided_by, Some(DecidedBy::Lot));
            assert_eq!(m.half_points, [5, 5]);
        }
        assert_eq!(draws(11), b);
        // Lots fall both ways.
        let lots: BTreeSet<bool> = (0..20u64)
            .flat_map(|s| draws(s).rounds.into_iter().flat_map(|r| r.matches))
            .map(|m| m.winner == Some(m.red))
            .collect();
        assert_eq!(lots.len(), 2);
        // No extra games: straight to lot.
        let b = run(2, KnockoutRules::new(3, 0).unwrap(), 5, |_| result(Decision::Draw)).unwrap();
        assert_eq!(b.rounds[0].matches[0].games.len(), 3);
        assert_eq!(b.rounds[0].matches[0].decided_by, Some(DecidedBy::Lot));
    }

    #[test]
    fn the_same_seed_plays_the_same_tournament_and_another_seed_draws_differently() {
        let a = run(13, KnockoutRules::default(), 7, by_seed).unwrap();
        assert_eq!(run(13, KnockoutRules::default(), 7, by_seed).unwrap(), a);
        let b = run(13, KnockoutRules::default(), 8, by_seed).unwrap();
        assert_ne!(a.rounds[0].draw, b.rounds[0].draw);
        // Each game has its own seed.
        let seeds: BTreeSet<u64> = a
            .rounds
            .iter()
            .flat_map(|r| &r.matches)
            .flat_map(|m| &m.games)
            .map(|g| g.fixture.seed)
            .collect();
        let games: usize = a.rounds.iter().flat_map(|r| &r.matches).map(|m| m.games.len()).sum();
        assert_eq!(seeds.len(), games);
    }

    #[test]
    fn a_stop_leaves_a_partial_bracket_with_the_match_under_way() {
        let mut played = 0;
        let b = run(13, KnockoutRules::default(), 7, |f| {
            played += 1;
            if played > 10 { None } else { by_seed(f) }
        })
        .unwrap();
        assert!(b.partial);
        assert_eq!(b.champion, None);
        let games: usize = b.rounds.iter().flat_map(|r| &r.matches).map(|m| m.games.len()).sum();
        assert_eq!(games, 10);
        let last = b.rounds.last().unwrap().matches.last().unwrap();
        assert_eq!((last.winner, last.decided_by), (None, None));
    }

    #[test]
    fn rules_out_of_range_are_refused() {
        assert!(KnockoutRules::new(0, 2).is_err());
        assert!(KnockoutRules::new(MAX_MATCH_GAMES + 1, 2).is_err());
        assert!(KnockoutRules::new(3, MAX_MATCH_GAMES + 1).is_err());
        assert_eq!(KnockoutRules::new(3, 2), Ok(KnockoutRules::default()));
    }
}
