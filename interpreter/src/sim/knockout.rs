//! Knockout tournaments, in the competition format of the xiangqi seed: each round is seated by
//! drawing cards, each table plays a short match, the winners go on until one is left.
//!
//! The format, as this module plays it:
//! - **The draw.** A round of `n` players at tables of two deals two sets of number cards, one red
//!   and one black, numbered `1..=n/2`; when `n` is odd there is also one K, whose holder has a bye
//!   and goes straight to the next round. The two holders of the same number play each other. With
//!   13 players round 1 deals red and black 1–6 and a K; round 2 (six winners and the bye) deals
//!   1–3 and a K; round 3 deals 1–2 (the semi-finals); the last round deals 1 (the final).
//! - **Tables of more.** A game of `k` parties (sides, or teams of partners) seats `k` entrants a
//!   table: the deck has a set of cards for each seat, numbered `1..=n/k`, and `n mod k` Ks. Each
//!   table sends one entrant on, so a round takes `k - 1` entrants out per table, and the knockout
//!   ends with one champion only when `n` is one more than a multiple of `k - 1` (4, 7, 10, 13…
//!   at tables of four); [`run`] refuses the other sizes, naming the nearest.
//! - **Colours.** The holder of seat 1 (the red card) plays the party that moves first in game 1
//!   of the match. The seed fixes only game 1; here the seats then turn game by game (extra games
//!   included): in game `g` the holder of seat `s` plays the party seat `s + g - 1` had (mod `k`),
//!   so at tables of two the colours alternate and over a match of three the red-card holder
//!   moves first twice.
//! - **A match** is won on points: each game counts as a game against each other entrant at the
//!   table, a win 1 and a draw ½ (a game cut at the ply limit, or ended without a result, is a
//!   draw; entrants who lost together drew with each other; in a game ranked by places, a better
//!   place wins). At tables of two that is a win 1, a draw ½. [`KnockoutRules::games_per_match`]
//!   games, stopping early once no one could catch the leader even by winning every game left.
//!   Entrants level at the top after them go to up to [`KnockoutRules::extra_games`] extra games
//!   (the whole table plays; they count for the level entrants alone), the first in which one of
//!   them scores more than the others winning it; entrants still level after those are parted by
//!   lot.
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
/// The most entrants at one table (a game's most sides).
pub const MAX_SEATS: u32 = crate::model::MAX_SIDES as u32;

/// An entrant, numbered from 1 and written `E1`, `E2`, …
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Entrant(pub u32);

impl fmt::Display for Entrant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "E{}", self.0)
    }
}

/// How long a match is, and how many entrants play at a table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KnockoutRules {
    /// Games in a match (the seed: three, "3 games, 2 wins").
    pub games_per_match: u32,
    /// Extra games for a match level on points after those, the first decisive one winning; a
    /// match level after these too is decided by lot.
    pub extra_games: u32,
    /// Entrants at a table: the parties of the game (2 for two sides, or two teams).
    pub seats: u32,
}

impl Default for KnockoutRules {
    /// The seed's: best of three, then up to two extra games, then lot; two at a table.
    fn default() -> KnockoutRules {
        KnockoutRules {
            games_per_match: 3,
            extra_games: 2,
            seats: 2,
        }
    }
}

impl KnockoutRules {
    /// Checks the numbers: 1 to [`MAX_MATCH_GAMES`] games a match, 0 to [`MAX_MATCH_GAMES`] extra;
    /// two at a table (see [`KnockoutRules::at_tables_of`]).
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
            seats: 2,
        })
    }

    /// The same rules with `seats` entrants at a table (2 to [`MAX_SEATS`]).
    ///
    /// # Errors
    /// A number of seats out of that range.
    pub fn at_tables_of(self, seats: u32) -> Result<KnockoutRules, String> {
        if !(2..=MAX_SEATS).contains(&seats) {
            return Err(format!(
                "a table of {seats}: a knockout seats from 2 to {MAX_SEATS} entrants a table"
            ));
        }
        Ok(KnockoutRules { seats, ..self })
    }

    /// The most games one match can take.
    pub fn most_games(&self) -> u32 {
        self.games_per_match + self.extra_games
    }

    /// The matches a knockout of `entrants` plays: each takes `seats - 1` entrants out.
    pub fn matches(&self, entrants: u32) -> u32 {
        (entrants - 1) / (self.seats - 1)
    }

    /// Whether `entrants` can be played down to one champion: fewer than [`MAX_ENTRANTS`] + 1, and
    /// at tables of more than two, one more than a multiple of `seats - 1`.
    ///
    /// # Errors
    /// Why not, with the nearest sizes that can.
    pub fn check_entrants(&self, entrants: u32) -> Result<(), String> {
        if !(2..=MAX_ENTRANTS).contains(&entrants) {
            return Err(format!("--entrants {entrants}: a knockout needs from 2 to {MAX_ENTRANTS} entrants"));
        }
        let step = self.seats - 1;
        if !(entrants - 1).is_multiple_of(step) {
            let below = entrants - (entrants - 1) % step;
            let near: Vec<String> = [below, below + step]
                .into_iter()
                .filter(|n| (self.seats..=MAX_ENTRANTS).contains(n))
                .map(|n| n.to_string())
                .collect();
            return Err(format!(
                "--entrants {entrants}: at tables of {} each match sends one of {} on, so a knockout needs one more than a multiple of {step} entrants (give {})",
                self.seats,
                self.seats,
                near.join(" or ")
            ));
        }
        Ok(())
    }
}

/// A card of the draw: a number of the red or the black set (tables of two), a seat at a numbered
/// table (tables of more), or the K (a bye).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Card {
    Red(u32),
    Black(u32),
    /// Seat `seat` (from 1) at table `table`.
    Seat {
        table: u32,
        seat: u32,
    },
    King,
}

impl Card {
    /// The table and seat (from 1) the card gives, `None` for the K.
    pub fn place(&self) -> Option<(u32, u32)> {
        match *self {
            Card::Red(n) => Some((n, 1)),
            Card::Black(n) => Some((n, 2)),
            Card::Seat { table, seat } => Some((table, seat)),
            Card::King => None,
        }
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Card::Red(n) => write!(f, "red {n}"),
            Card::Black(n) => write!(f, "black {n}"),
            Card::Seat { table, seat } => write!(f, "{table}/{seat}"),
            Card::King => write!(f, "K"),
        }
    }
}

/// The cards a round of `players` at tables of `seats` deals, before shuffling: a set per seat
/// numbered `1..=players/seats` (red and black at tables of two), and `players mod seats` Ks.
pub fn deck(players: usize, seats: usize) -> Vec<Card> {
    let tables = (players / seats) as u32;
    let card = |seat: usize, table: u32| match (seats, seat) {
        (2, 0) => Card::Red(table),
        (2, _) => Card::Black(table),
        _ => Card::Seat {
            table,
            seat: seat as u32 + 1,
        },
    };
    let mut cards: Vec<Card> = (0..seats).flat_map(|s| (1..=tables).map(move |t| card(s, t))).collect();
    cards.extend(std::iter::repeat_n(Card::King, players % seats));
    cards
}

/// One game to play: the entrants in the order of the parties' turns (the first moves first),
/// and the seed their players draw from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fixture {
    /// The round, from 1.
    pub round: usize,
    /// The match within the round, from 1 (in the order of the card numbers).
    pub match_number: usize,
    /// The game within the match, from 1; those past [`KnockoutRules::games_per_match`] are extra.
    pub game: u32,
    /// The entrants in turn order: `order[0]` plays the party that moves first.
    pub order: Vec<Entrant>,
    pub seed: u64,
}

impl Fixture {
    /// The entrant who moves first.
    pub fn first(&self) -> Entrant {
        self.order[0]
    }
}

/// How a game came out, by the fixture's order of entrants.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Decision {
    /// `order[i]` won; the others lost.
    Won(usize),
    /// No one won: a draw, a game cut at the ply limit, or a game that ended without a result.
    Draw,
    /// Every entrant's place, 1 first (places may be shared).
    Places(Vec<u8>),
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
    /// Every entrant's place (1 first), by the fixture's order.
    pub fn places(&self) -> Vec<u8> {
        let k = self.fixture.order.len();
        match &self.result.decision {
            Decision::Won(w) => (0..k).map(|i| if i == *w { 1 } else { 2 }).collect(),
            Decision::Places(p) if p.len() == k => p.clone(),
            _ => vec![1; k],
        }
    }

    /// The winner, if one entrant alone finished first.
    pub fn winner(&self) -> Option<Entrant> {
        let places = self.places();
        match places.iter().filter(|&&p| p == 1).count() {
            1 => places.iter().position(|&p| p == 1).map(|i| self.fixture.order[i]),
            _ => None,
        }
    }

    /// What the game scores `e`, in half points: 2 for each entrant at the table it finished
    /// ahead of, 1 for each it finished level with.
    pub fn half_points(&self, e: Entrant) -> u32 {
        let places = self.places();
        let Some(me) = self.fixture.order.iter().position(|&o| o == e) else {
            return 0;
        };
        (0..places.len())
            .filter(|&j| j != me)
            .map(|j| match places[me].cmp(&places[j]) {
                std::cmp::Ordering::Less => 2,
                std::cmp::Ordering::Equal => 1,
                std::cmp::Ordering::Greater => 0,
            })
            .sum()
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

/// A match between the holders of the cards of one number.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Match {
    /// The number on the cards.
    pub number: u32,
    /// The card holders by seat: red then black at tables of two.
    pub seats: Vec<Entrant>,
    pub games: Vec<PlayedGame>,
    /// Each seat's points, in half points (a win 2, a draw 1 against each other entrant). Extra
    /// games count for the [level](Match::level) entrants alone: the others at the table only
    /// make the game up (at tables of two, both are level).
    pub half_points: Vec<u32>,
    /// The entrants level at the top after the regular games, who went to extra games (and a
    /// lot); empty when the games decided the match.
    pub level: Vec<Entrant>,
    /// `None` when the tournament was stopped during the match.
    pub winner: Option<Entrant>,
    pub decided_by: Option<DecidedBy>,
}

/// A round: the draw, its matches in card order, and the byes.
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

/// Deals the cards of round `round` to `players` (by entrant number) at tables of `seats`: the
/// round's own shuffle.
pub fn deal(seed: u64, round: usize, players: &[Entrant], seats: usize) -> Vec<(Entrant, Card)> {
    let mut cards = deck(players.len(), seats);
    let mut rng = ChaCha8Rng::seed_from_u64(derive(seed, &[FOR_DRAW, round as u64]));
    cards.shuffle(&mut rng);
    players.iter().copied().zip(cards).collect()
}

/// Plays a knockout of `entrants` entrants (`E1` to `EN`) under `rules`, everything drawn from
/// `seed`. `play` plays one game and returns its result, or `None` to stop the tournament (Ctrl-C):
/// the bracket then holds what was played and is marked partial.
///
/// # Errors
/// Fewer than 2 entrants, more than [`MAX_ENTRANTS`], or a number that tables of more than two
/// cannot bring down to one ([`KnockoutRules::check_entrants`]).
///
/// # Examples
/// ```
/// use arbiter::sim::knockout::{self, Decision, GameResult, KnockoutRules};
/// // The lower-numbered entrant always wins.
/// let b = knockout::run(13, KnockoutRules::default(), 7, |f| {
///     let decision = if f.order[0] < f.order[1] { Decision::Won(0) } else { Decision::Won(1) };
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
    rules.check_entrants(entrants)?;
    let seats = rules.seats as usize;
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
        let draw = deal(seed, number, &players, seats);
        let mut round = Round {
            number,
            draw: draw.clone(),
            matches: Vec::new(),
            byes: draw.iter().filter(|(_, c)| *c == Card::King).map(|(e, _)| *e).collect(),
        };
        // The holders of table `n`'s cards at `n - 1`: the deck has every seat of every table.
        let mut tables = vec![vec![Entrant(0); seats]; players.len() / seats];
        for (e, c) in &draw {
            if let Some((table, seat)) = c.place() {
                tables[table as usize - 1][seat as usize - 1] = *e;
            }
        }
        for (n, table) in (1..).zip(tables) {
            let m = play_match(&rules, seed, number, n, table, &mut play);
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

/// The entrants of `of` (seats) holding the most points.
fn leaders(m: &Match, of: &[usize]) -> Vec<usize> {
    let best = of.iter().map(|&s| m.half_points[s]).max().unwrap_or(0);
    of.iter().copied().filter(|&s| m.half_points[s] == best).collect()
}

/// Plays match `number` of round `round`; its winner is `None` if `play` stopped it.
fn play_match(
    rules: &KnockoutRules,
    seed: u64,
    round: usize,
    number: u32,
    seats: Vec<Entrant>,
    play: &mut impl FnMut(&Fixture) -> Option<GameResult>,
) -> Match {
    let k = seats.len();
    let mut m = Match {
        number,
        seats: seats.clone(),
        games: Vec::new(),
        half_points: vec![0; k],
        level: Vec::new(),
        winner: None,
        decided_by: None,
    };
    let key = [round as u64, number as u64];
    // Plays game `game` (from 1), scoring it for the seats `counted`; false when stopped.
    let mut next = |m: &mut Match, game: u32, counted: &[usize]| -> bool {
        // The seats turn: seat `s` plays in game `g` the party seat `s + g - 1` played in game 1.
        let turn = (game as usize - 1) % k;
        let order = (0..k).map(|p| seats[(p + k - turn) % k]).collect();
        let fixture = Fixture {
            round,
            match_number: number as usize,
            game,
            order,
            seed: derive(seed, &[FOR_GAME, key[0], key[1], game as u64]),
        };
        let Some(result) = play(&fixture) else {
            return false;
        };
        let g = PlayedGame { fixture, result };
        for &s in counted {
            m.half_points[s] += g.half_points(seats[s]);
        }
        m.games.push(g);
        true
    };
    let everyone: Vec<usize> = (0..k).collect();
    // The most half points one entrant can gain on another in a game.
    let swing = 2 * (k as u32 - 1);
    for game in 1..=rules.games_per_match {
        // Decided once no one could catch the leader by winning every game left.
        let left = swing * (rules.games_per_match - game + 1);
        let top = leaders(&m, &everyone);
        if top.len() == 1
            && everyone
                .iter()
                .all(|&s| s == top[0] || m.half_points[top[0]] - m.half_points[s] > left)
        {
            break;
        }
        if !next(&mut m, game, &everyone) {
            return m;
        }
    }
    let tied = leaders(&m, &everyone);
    if let [w] = tied[..] {
        m.winner = Some(seats[w]);
        m.decided_by = Some(DecidedBy::Games);
        return m;
    }
    m.level = tied.iter().map(|&s| seats[s]).collect();
    for extra in 1..=rules.extra_games {
        if !next(&mut m, rules.games_per_match + extra, &tied) {
            return m;
        }
        // Decisive when one of the level entrants scored more in it than the others.
        if let Some(g) = m.games.last() {
            let scored: Vec<u32> = tied.iter().map(|&s| g.half_points(seats[s])).collect();
            let best = scored.iter().copied().max().unwrap_or(0);
            if scored.iter().filter(|&&x| x == best).count() == 1 {
                let w = tied[scored.iter().position(|&x| x == best).unwrap_or(0)];
                m.winner = Some(seats[w]);
                m.decided_by = Some(DecidedBy::ExtraGames);
                return m;
            }
        }
    }
    let mut lot = ChaCha8Rng::seed_from_u64(derive(seed, &[FOR_LOT, key[0], key[1]]));
    // Two level entrants toss a coin (as tournaments before tables of more drew their lots).
    let w = match tied[..] {
        [a, b] => {
            if lot.gen_bool(0.5) {
                a
            } else {
                b
            }
        }
        _ => tied[lot.gen_range(0..tied.len())],
    };
    m.winner = Some(seats[w]);
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
            0 => Decision::Won(0),
            1 => Decision::Won(1),
            _ => Decision::Draw,
        })
    }

    /// The entrants seated at the round's tables and those with a bye, by number.
    fn seated(round: &Round) -> Vec<Entrant> {
        let mut seen: Vec<Entrant> = round
            .matches
            .iter()
            .flat_map(|m| m.seats.clone())
            .chain(round.byes.clone())
            .collect();
        seen.sort();
        seen
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
            assert_eq!(seated(round), players, "round {}", round.number);
            // The cards: red and black 1..=n/2, K for the bye; matches pair equal numbers.
            let mut cards: Vec<String> = round.draw.iter().map(|(_, c)| c.to_string()).collect();
            let mut expected: Vec<String> = deck(players.len(), 2).iter().map(Card::to_string).collect();
            cards.sort();
            expected.sort();
            assert_eq!(cards, expected);
            for m in &round.matches {
                assert!(round.draw.contains(&(m.seats[0], Card::Red(m.number))));
                assert!(round.draw.contains(&(m.seats[1], Card::Black(m.number))));
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
            for m in round.matches.iter().filter(|m| m.seats.contains(&champion)) {
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
                let [red, black] = [m.seats[0], m.seats[1]];
                assert_eq!(g.fixture.order, if red_first { [red, black] } else { [black, red] });
            }
            assert_eq!(m.games[0].fixture.first(), m.seats[0]);
        }
    }

    #[test]
    fn a_match_stops_once_it_is_decided_and_counts_draws_as_half() {
        // The first player always wins: after two games each has won one (colours alternate), the
        // third settles it.
        let b = run(2, KnockoutRules::default(), 1, |_| result(Decision::Won(0))).unwrap();
        let m = &b.rounds[0].matches[0];
        assert_eq!(
            (m.games.len(), m.half_points.clone(), m.winner, m.decided_by),
            (3, vec![4, 2], Some(m.seats[0]), Some(DecidedBy::Games))
        );
        // The red-card holder always wins: 2–0 after two games, the third is not played.
        let red = b.rounds[0].matches[0].seats[0];
        let b = run(2, KnockoutRules::default(), 1, |f| {
            result(if f.first() == red { Decision::Won(0) } else { Decision::Won(1) })
        })
        .unwrap();
        let m = &b.rounds[0].matches[0];
        assert_eq!((m.games.len(), m.half_points.clone(), m.winner), (2, vec![4, 0], Some(red)));
        // Draw, win, draw: 2–1 in half points... the winner of game 2 takes it on points.
        let b = run(2, KnockoutRules::default(), 1, |f| {
            result(if f.game == 2 { Decision::Won(0) } else { Decision::Draw })
        })
        .unwrap();
        let m = &b.rounds[0].matches[0];
        assert_eq!((m.games.len(), m.half_points.clone(), m.winner), (3, vec![2, 4], Some(m.seats[1])));
    }

    #[test]
    fn a_level_match_goes_to_extra_games_then_to_lot() {
        // Win, loss, draw is level: the first extra game (game 4) is decisive.
        let b = run(2, KnockoutRules::default(), 5, |f| {
            result(match f.game {
                1 | 2 => Decision::Won(0),
                3 => Decision::Draw,
                _ => Decision::Won(1),
            })
        })
        .unwrap();
        let m = &b.rounds[0].matches[0];
        // Game 4 has the black-card holder first, so its second player, the red-card holder, wins.
        assert_eq!(
            (m.games.len(), m.winner, m.decided_by),
            (4, Some(m.seats[0]), Some(DecidedBy::ExtraGames))
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
            .map(|m| m.winner == Some(m.seats[0]))
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

    fn four() -> KnockoutRules {
        KnockoutRules::default().at_tables_of(4).unwrap()
    }

    #[test]
    fn tables_of_four_take_three_out_a_match_down_to_one_champion() {
        for n in [4u32, 7, 10, 13, 16, 25, 100] {
            let b = run(n, four(), u64::from(n), |f| result(Decision::Won(f.seed as usize % 4))).unwrap();
            let matches: usize = b.rounds.iter().map(|r| r.matches.len()).sum();
            assert_eq!(matches as u32, four().matches(n), "{n} entrants");
            let mut players: Vec<Entrant> = (1..=n).map(Entrant).collect();
            for round in &b.rounds {
                // Every player sits at one table or has a bye; the cards are a set per seat.
                assert_eq!(seated(round), players, "{n} entrants, round {}", round.number);
                assert_eq!(round.byes.len(), players.len() % 4);
                for m in &round.matches {
                    for (s, e) in m.seats.iter().enumerate() {
                        let card = Card::Seat {
                            table: m.number,
                            seat: s as u32 + 1,
                        };
                        assert!(round.draw.contains(&(*e, card)), "{e} holds {card}");
                    }
                    assert!(m.seats.contains(&m.winner.unwrap()));
                }
                players = round.advancing();
            }
            assert_eq!(players, [b.champion.unwrap()]);
        }
        // Sizes that cannot come down to one are refused, naming the nearest that can.
        let e = run(6, four(), 0, by_seed).unwrap_err();
        assert!(e.contains("give 4 or 7"), "{e}");
        let e = run(3, four(), 0, by_seed).unwrap_err();
        assert!(e.contains("give 4)"), "{e}");
        let e = run(MAX_ENTRANTS, KnockoutRules::default().at_tables_of(6).unwrap(), 0, by_seed).unwrap_err();
        assert!(e.contains("give 1021)"), "{e}");
        assert!(run(8, KnockoutRules::default().at_tables_of(3).unwrap(), 0, by_seed).is_err());
        assert!(run(9, KnockoutRules::default().at_tables_of(3).unwrap(), 0, by_seed).is_ok());
        assert!(KnockoutRules::default().at_tables_of(1).is_err());
        assert!(KnockoutRules::default().at_tables_of(MAX_SEATS + 1).is_err());
    }

    #[test]
    fn at_a_table_of_four_the_seats_turn_and_each_game_counts_against_every_other_entrant() {
        // Seat 1 always wins: 6 half points a game to the others' 2 (they drew with each other);
        // after two games it leads by 8 with 6 at most to gain, so the third is not played.
        let b = run(4, four(), 1, |f| {
            let seat1 = f.order.iter().position(|&e| e == Entrant(1)).unwrap_or(0);
            result(Decision::Won(seat1))
        })
        .unwrap();
        let m = &b.rounds[0].matches[0];
        assert_eq!(m.games.len(), 2);
        let one = m.seats.iter().position(|&e| e == Entrant(1)).unwrap();
        assert_eq!(m.half_points[one], 12);
        assert!(m.half_points.iter().enumerate().all(|(s, &h)| s == one || h == 4));
        assert_eq!((m.winner, m.decided_by), (Some(Entrant(1)), Some(DecidedBy::Games)));
        // The seats turn game by game: seat s plays in game g the party seat s + g - 1 had.
        let b = run(4, four(), 2, |_| result(Decision::Draw)).unwrap();
        let m = &b.rounds[0].matches[0];
        assert_eq!(m.games.len(), 5);
        for g in &m.games {
            let turn = (g.fixture.game as usize - 1) % 4;
            for (s, e) in m.seats.iter().enumerate() {
                assert_eq!(g.fixture.order[(s + turn) % 4], *e, "game {}", g.fixture.game);
            }
        }
        // A ranked game: places 1 to 4 score 6, 4, 2, 0; shared places count as draws.
        let g = |places: Vec<u8>| PlayedGame {
            fixture: Fixture {
                round: 1,
                match_number: 1,
                game: 1,
                order: (1..=4).map(Entrant).collect(),
                seed: 0,
            },
            result: GameResult {
                decision: Decision::Places(places),
                reason: "test".into(),
                plies: 1,
            },
        };
        let ranked = g(vec![2, 1, 4, 3]);
        assert_eq!((1..=4).map(|e| ranked.half_points(Entrant(e))).collect::<Vec<_>>(), [4, 6, 0, 2]);
        assert_eq!(ranked.winner(), Some(Entrant(2)));
        let shared = g(vec![1, 1, 3, 3]);
        assert_eq!((1..=4).map(|e| shared.half_points(Entrant(e))).collect::<Vec<_>>(), [5, 5, 1, 1]);
        assert_eq!(shared.winner(), None);
    }

    #[test]
    fn entrants_level_at_the_top_of_a_table_go_to_extra_games_among_the_whole_table_then_to_lot() {
        // The first to move wins games 1-3: seats 1, 4 and 3 (the seats turn), each 10 half
        // points to seat 2's 6. `then` says who wins the extra games, by seat (game 1's order).
        let play = |then: fn(&[Entrant], &Fixture) -> Decision| {
            let mut seats = Vec::new();
            run(4, four(), 9, move |f| {
                if f.game == 1 {
                    seats = f.order.clone();
                }
                result(if f.game <= 3 { Decision::Won(0) } else { then(&seats, f) })
            })
            .unwrap()
            .rounds[0]
                .matches[0]
                .clone()
        };
        fn at(f: &Fixture, e: Entrant) -> usize {
            f.order.iter().position(|&o| o == e).unwrap_or(0)
        }
        // Seat 3 wins game 4: decided (10, 6, 10, 10 before it). Seat 2, not level, makes the
        // game up: its points stay those of the three games.
        let m = play(|seats, f| Decision::Won(at(f, seats[2])));
        assert_eq!(m.half_points, [12, 6, 16, 12]);
        assert_eq!(
            (m.games.len(), m.winner, m.decided_by),
            (4, Some(m.seats[2]), Some(DecidedBy::ExtraGames))
        );
        // Seat 2, not level at the top, wins every extra game: nothing is decided, and the lot
        // falls among seats 1, 3 and 4.
        let m = play(|seats, f| Decision::Won(at(f, seats[1])));
        assert_eq!((m.games.len(), m.decided_by), (5, Some(DecidedBy::Lot)));
        // Its wins are not its points (the level three, losing together, share theirs): it ends
        // below the winner, whom the lot chose among equals.
        assert_eq!(m.half_points, [14, 6, 14, 14]);
        assert_eq!(m.level, [m.seats[0], m.seats[2], m.seats[3]]);
        assert!([m.seats[0], m.seats[2], m.seats[3]].contains(&m.winner.unwrap()));
        // A ranked extra game putting seat 4 ahead of seats 1 and 3 decides it, seat 2 first or not.
        let m = play(|seats, f| {
            let mut places = vec![0; 4];
            for (s, p) in [(1, 1), (3, 2), (0, 3), (2, 3)] {
                places[at(f, seats[s])] = p;
            }
            Decision::Places(places)
        });
        assert_eq!(
            (m.games.len(), m.winner, m.decided_by),
            (4, Some(m.seats[3]), Some(DecidedBy::ExtraGames))
        );
        // Lots among four fall every way.
        let winners: BTreeSet<usize> = (0..30u64)
            .map(|seed| {
                let m = run(4, four(), seed, |_| result(Decision::Draw)).unwrap().rounds[0].matches[0].clone();
                m.seats.iter().position(|&e| Some(e) == m.winner).unwrap()
            })
            .collect();
        assert_eq!(winners.len(), 4);
    }

    #[test]
    fn rules_out_of_range_are_refused() {
        assert!(KnockoutRules::new(0, 2).is_err());
        assert!(KnockoutRules::new(MAX_MATCH_GAMES + 1, 2).is_err());
        assert!(KnockoutRules::new(3, MAX_MATCH_GAMES + 1).is_err());
        assert_eq!(KnockoutRules::new(3, 2), Ok(KnockoutRules::default()));
    }
}
