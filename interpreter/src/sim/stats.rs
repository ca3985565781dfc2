//! What a simulation counts, and the statistics read from the counts. A [`Tally`] holds only sums
//! and exact distributions, so tallies of disjoint sets of games add up to exactly the tally of
//! all of them, in any order: that is what lets shards run apart and merge.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::walk::End;
use crate::game::Status;
use crate::model::Side;

/// Phases of a game for branching figures: each game's plies split in thirds.
pub const PHASES: [&str; 3] = ["opening", "middle", "end"];

/// One finished (or cut) game, as a tally takes it.
#[derive(Clone, Debug)]
pub struct GameSummary {
    /// The end, or `None` when the game was cut at the ply limit.
    pub end: Option<End>,
    /// The reason code of the end (`checkmate`); empty for a cut game.
    pub reason: String,
    pub plies: usize,
    pub captures: u64,
    /// Whether the legal moves were counted at each ply (see [`crate::sim::play_game`]).
    pub counted: bool,
    /// The number of legal moves at each ply played, where counted.
    pub branching: Vec<u32>,
}

/// Sums over games.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Tally {
    pub games: u64,
    /// Wins of each side (the ruleset's order): two in a game of two players, one per side in
    /// play in a game of more.
    pub wins: Vec<u64>,
    pub draws: u64,
    /// Games that ended without a result (a cycle under some go rules, or no move and no rule).
    pub no_result: u64,
    /// Games cut at the ply limit.
    pub unfinished: u64,
    /// Games per end reason.
    pub reasons: BTreeMap<String, u64>,
    /// Games per length in plies (finished and cut alike).
    pub lengths: BTreeMap<u64, u64>,
    /// Games whose legal moves were counted at every ply: the branching figures' games (see
    /// [`crate::sim::BRANCHING_EVERY`]). Absent from a tally written before they could be
    /// fewer than the games (see [`Tally::counted_every_game_if_unsaid`]).
    #[serde(default)]
    pub branching_games: u64,
    /// Per phase, over the games counted: plies played and the legal moves summed over them.
    pub phase_plies: [u64; 3],
    pub phase_moves: [u64; 3],
    pub captures: u64,
    /// Among more than two players put out one by one (places): the games that gave every side
    /// its place, and each side's places summed over them (its mean place is the sum over the
    /// games). Absent from a report of a game without places.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub placed: u64,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub place_sums: Vec<u64>,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

impl Tally {
    pub fn add(&mut self, g: &GameSummary) {
        self.games += 1;
        match &g.end {
            None => self.unfinished += 1,
            Some(End {
                status: Status::Win,
                winner: Some(w),
                ..
            }) => {
                if self.wins.len() <= w.index() {
                    self.wins.resize(w.index() + 1, 0);
                }
                self.wins[w.index()] += 1
            }
            Some(End { status: Status::Draw, .. }) => self.draws += 1,
            Some(_) => self.no_result += 1,
        }
        let reason = if g.end.is_none() { "max-plies" } else { g.reason.as_str() };
        *self.reasons.entry(reason.to_string()).or_insert(0) += 1;
        *self.lengths.entry(g.plies as u64).or_insert(0) += 1;
        self.branching_games += g.counted as u64;
        let n = g.branching.len().max(1);
        for (i, b) in g.branching.iter().enumerate() {
            let phase = (3 * i / n).min(2);
            self.phase_plies[phase] += 1;
            self.phase_moves[phase] += *b as u64;
        }
        self.captures += g.captures;
        // Places of a game of sides put out one by one, each its own (not of teams, whose shared
        // places are the result itself).
        if let Some(End { places: Some(places), .. }) = &g.end {
            let sides = places.iter().take_while(|&&p| p > 0).count();
            let each_its_own = (1..=sides as u8).all(|p| places[..sides].contains(&p));
            if sides > 2 && each_its_own {
                self.placed += 1;
                if self.place_sums.len() < sides {
                    self.place_sums.resize(sides, 0);
                }
                for (sum, &p) in self.place_sums.iter_mut().zip(&places[..sides]) {
                    *sum += p as u64;
                }
            }
        }
    }

    /// Each side's mean place over the games that gave every side one (`None` for none).
    pub fn mean_places(&self) -> Option<Vec<f64>> {
        (self.placed > 0).then(|| self.place_sums.iter().map(|&s| s as f64 / self.placed as f64).collect())
    }

    /// A tally read from a report written before [`Tally::branching_games`] was kept counted
    /// the legal moves in every game: says so.
    pub fn counted_every_game_if_unsaid(&mut self) {
        if self.branching_games == 0 && self.phase_plies.iter().any(|&p| p > 0) {
            self.branching_games = self.games;
        }
    }

    /// Does this tally hold what a run of at most `games` games cut at `max_plies` plies can
    /// (exactly `games` where `complete`)? Every game counted once by result, by reason and by
    /// length, no length past the cut, no more games counted for branching than played, and no
    /// sum past what a `u64` holds. A report read from a file is checked before it is merged.
    ///
    /// # Errors
    /// The first count that cannot be.
    pub fn check(&self, games: u64, complete: bool, max_plies: usize) -> Result<(), String> {
        // Each way of counting the games must count them all.
        let sum = |what: &str, values: Vec<u64>| -> Result<(), String> {
            let n = values
                .into_iter()
                .try_fold(0u64, u64::checked_add)
                .ok_or_else(|| format!("its {what} add up past what a count can hold"))?;
            if n == self.games {
                Ok(())
            } else {
                Err(format!("its {what} add up to {n} games, not the {} it played", self.games))
            }
        };
        if self.games > games || (complete && self.games != games) {
            return Err(format!(
                "it counts {} games where its share of the run is {games}{}",
                self.games,
                if complete { "" } else { " at most" }
            ));
        }
        let results: Vec<u64> = self
            .wins
            .iter()
            .copied()
            .chain([self.draws, self.no_result, self.unfinished])
            .collect();
        sum("results (wins, draws, no result, cut)", results)?;
        sum("end reasons", self.reasons.values().copied().collect())?;
        sum("game lengths", self.lengths.values().copied().collect())?;
        if let Some((&longest, _)) = self.lengths.last_key_value()
            && longest > max_plies as u64
        {
            return Err(format!("it has a game of {longest} plies, past the run's cut at {max_plies}"));
        }
        if self.branching_games > self.games {
            return Err(format!(
                "it counts the moves of {} games, more than the {} it played",
                self.branching_games, self.games
            ));
        }
        // Plies counted for branching: at most every ply of every game.
        let plies = self
            .lengths
            .iter()
            .try_fold(0u64, |a, (l, n)| l.checked_mul(*n).and_then(|p| a.checked_add(p)))
            .ok_or("its game lengths add up past what a count can hold")?;
        let counted = self
            .phase_plies
            .iter()
            .try_fold(0u64, |a, p| a.checked_add(*p))
            .ok_or("its plies counted for branching add up past what a count can hold")?;
        if counted > plies {
            return Err(format!(
                "it counts the moves at {counted} plies, more than the {plies} its games played"
            ));
        }
        // Each placed game gives each side a place from 1 to the number of sides.
        let finished = self.games - self.unfinished.min(self.games);
        if self.placed > finished {
            return Err(format!(
                "it counts {} games with places, more than the {finished} that finished",
                self.placed
            ));
        }
        let n = self.place_sums.len() as u64;
        if let Some(s) = self
            .place_sums
            .iter()
            .find(|&&s| s < self.placed || s > self.placed.saturating_mul(n))
        {
            return Err(format!(
                "a side's places add up to {s} over {} games of {n} sides, which places from 1 to {n} cannot",
                self.placed
            ));
        }
        Ok(())
    }

    /// Adds `o`'s counts (both checked with [`Tally::check`]: their sums hold).
    pub fn merge(&mut self, o: &Tally) {
        self.games += o.games;
        self.branching_games += o.branching_games;
        if self.wins.len() < o.wins.len() {
            self.wins.resize(o.wins.len(), 0);
        }
        for (a, b) in self.wins.iter_mut().zip(&o.wins) {
            *a += b;
        }
        self.draws += o.draws;
        self.no_result += o.no_result;
        self.unfinished += o.unfinished;
        for (k, v) in &o.reasons {
            *self.reasons.entry(k.clone()).or_insert(0) += v;
        }
        for (k, v) in &o.lengths {
            *self.lengths.entry(*k).or_insert(0) += v;
        }
        for i in 0..3 {
            self.phase_plies[i] += o.phase_plies[i];
            self.phase_moves[i] += o.phase_moves[i];
        }
        self.captures += o.captures;
        self.placed += o.placed;
        if self.place_sums.len() < o.place_sums.len() {
            self.place_sums.resize(o.place_sums.len(), 0);
        }
        for (a, b) in self.place_sums.iter_mut().zip(&o.place_sums) {
            *a += b;
        }
    }

    /// The games side `side` (an index in the ruleset's order) won.
    pub fn won(&self, side: usize) -> u64 {
        self.wins.get(side).copied().unwrap_or(0)
    }

    /// Games that ended by a rule (cut games left out).
    pub fn finished(&self) -> u64 {
        self.games - self.unfinished
    }

    /// `first`'s score over the finished games of `sides` players, `teams` giving each side's
    /// team where there are teams (empty where not): 1 a win (its team's), an equal share of a
    /// draw or a game without result among the parties (½ between two sides or two teams).
    pub fn score(&self, first: Side, sides: usize, teams: &[u8]) -> Interval {
        let (won, parties) = self.party_wins(first, sides, teams);
        let points = won as f64 + (self.draws + self.no_result) as f64 / parties as f64;
        Interval::wilson(points, self.finished())
    }

    /// The games `side`'s party (its team where `teams` gives one, else itself) won, and how
    /// many parties share a draw (at least 2).
    pub fn party_wins(&self, side: Side, sides: usize, teams: &[u8]) -> (u64, usize) {
        match teams.get(side.index()) {
            Some(&t) => {
                let won: u64 = (0..sides.min(teams.len())).filter(|&s| teams[s] == t).map(|s| self.won(s)).sum();
                let mut distinct = teams.to_vec();
                distinct.sort_unstable();
                distinct.dedup();
                (won, distinct.len().max(2))
            }
            None => (self.won(side.index()), sides.max(2)),
        }
    }

    /// The length in plies below which `q` of the games fall (nearest rank).
    pub fn length_quantile(&self, q: f64) -> u64 {
        if self.games == 0 {
            return 0;
        }
        let rank = ((q * self.games as f64).ceil() as u64).clamp(1, self.games);
        let mut seen = 0;
        for (len, n) in &self.lengths {
            seen += n;
            if seen >= rank {
                return *len;
            }
        }
        0
    }

    pub fn mean_length(&self) -> f64 {
        if self.games == 0 {
            return 0.0;
        }
        self.lengths.iter().map(|(l, n)| (*l * *n) as f64).sum::<f64>() / self.games as f64
    }

    /// About `bins` equal bins from the shortest game to the longest: (from, to inclusive, games).
    pub fn histogram(&self, bins: u64) -> Vec<(u64, u64, u64)> {
        let (Some((&lo, _)), Some((&hi, _))) = (self.lengths.first_key_value(), self.lengths.last_key_value()) else {
            return Vec::new();
        };
        let width = ((hi - lo) / bins.max(1) + 1).max(1);
        let mut out: Vec<(u64, u64, u64)> = Vec::new();
        let mut from = lo;
        while from <= hi {
            let to = from + width - 1;
            let n = self.lengths.range(from..=to).map(|(_, n)| n).sum();
            out.push((from, to, n));
            from = to + 1;
        }
        out
    }

    /// Mean legal moves per ply, per phase and over all.
    pub fn branching(&self) -> ([f64; 3], f64) {
        let mean = |m: u64, p: u64| if p == 0 { 0.0 } else { m as f64 / p as f64 };
        let per = [0, 1, 2].map(|i| mean(self.phase_moves[i], self.phase_plies[i]));
        (per, mean(self.phase_moves.iter().sum(), self.phase_plies.iter().sum()))
    }

    /// The statistics as one JSON object, in the ruleset's side names and reason codes (`teams`
    /// as for [`Tally::score`]).
    pub fn report(&self, sides: &[String], first: Side, teams: &[u8]) -> serde_json::Value {
        use serde_json::json;
        let n = self.games;
        let share = |k: u64| {
            let i = Interval::wilson(k as f64, n);
            json!({"games": k, "share": i.mean, "low": i.low, "high": i.high})
        };
        let mut results = serde_json::Map::new();
        let mut shares = serde_json::Map::new();
        for (i, name) in sides.iter().enumerate() {
            let won = self.won(i);
            results.insert(name.clone(), json!(won));
            shares.insert(name.clone(), share(won));
        }
        results.insert("draw".into(), json!(self.draws));
        results.insert("no-result".into(), json!(self.no_result));
        results.insert("unfinished".into(), json!(self.unfinished));
        shares.insert("draw".into(), share(self.draws));
        shares.insert("no-result".into(), share(self.no_result));
        shares.insert("unfinished".into(), share(self.unfinished));
        let score = self.score(first, sides.len(), teams);
        let (per, all) = self.branching();
        let mut by_phase = serde_json::Map::new();
        for (i, p) in PHASES.iter().enumerate() {
            by_phase.insert((*p).into(), json!(per[i]));
        }
        json!({
            "results": results,
            "shares": shares,
            "reasons": self.reasons,
            "first_player": sides[first.index()],
            "first_player_score": {"mean": score.mean, "low": score.low, "high": score.high, "games": self.finished()},
            "length": {
                "mean": self.mean_length(),
                "median": self.length_quantile(0.5),
                "p10": self.length_quantile(0.1),
                "p90": self.length_quantile(0.9),
                "min": self.lengths.first_key_value().map_or(0, |(l, _)| *l),
                "max": self.lengths.last_key_value().map_or(0, |(l, _)| *l),
                "histogram": self.histogram(20).iter().map(|(a, b, c)| json!({"from": a, "to": b, "games": c})).collect::<Vec<_>>(),
            },
            "branching": {"mean": all, "by_phase": by_phase, "games": self.branching_games},
            "captures_per_game": if n == 0 { 0.0 } else { self.captures as f64 / n as f64 },
            "mean_places": self.mean_places().map(|m| {
                sides.iter().cloned().zip(m.into_iter().map(|x| json!(x))).collect::<serde_json::Map<String, serde_json::Value>>()
            }),
        })
    }
}

/// A proportion with its 95% Wilson score interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Interval {
    pub mean: f64,
    pub low: f64,
    pub high: f64,
}

/// The normal quantile for a two-sided 95% interval.
pub const Z95: f64 = 1.959_963_984_540_054;

impl Interval {
    /// `successes` of `n` trials (half successes allowed, as for drawn games), with the Wilson
    /// interval, which stays inside [0, 1] and behaves at 0 and n, unlike the normal one.
    pub fn wilson(successes: f64, n: u64) -> Interval {
        if n == 0 {
            return Interval {
                mean: 0.0,
                low: 0.0,
                high: 1.0,
            };
        }
        let n = n as f64;
        let p = successes / n;
        let z2 = Z95 * Z95;
        let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
        let half = Z95 / (1.0 + z2 / n) * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
        Interval {
            mean: p,
            low: (centre - half).max(0.0),
            high: (centre + half).min(1.0),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_intervals_match_published_values() {
        // Wilson (1927) as tabulated by Newcombe (1998), table I: 81 of 263 gives 0.2553–0.3662;
        // 0 of 10 gives 0–0.2775.
        let i = Interval::wilson(81.0, 263);
        assert!((i.low - 0.2553).abs() < 5e-4 && (i.high - 0.3662).abs() < 5e-4, "{i:?}");
        let i = Interval::wilson(0.0, 10);
        assert!(i.low == 0.0 && (i.high - 0.2775).abs() < 5e-4, "{i:?}");
        let i = Interval::wilson(10.0, 10);
        assert!((i.high - 1.0).abs() < 1e-12 && (i.low - 0.7225).abs() < 5e-4, "{i:?}");
    }

    fn summary(winner: Option<Side>, plies: usize) -> GameSummary {
        GameSummary {
            end: winner.map(|w| End {
                status: Status::Win,
                winner: Some(w),
                rule: Some(0),
                score: None,
                places: None,
            }),
            reason: "mate".into(),
            plies,
            captures: 1,
            // Some games uncounted, as a run counts one in so many.
            counted: plies % 3 != 0,
            branching: if plies % 3 != 0 { vec![3; plies] } else { Vec::new() },
        }
    }

    #[test]
    fn tallies_merge_to_the_tally_of_all_games() {
        let games: Vec<GameSummary> = (0..40)
            .map(|i| summary([Some(Side::FIRST), Some(Side::SECOND), None][i % 3], 10 + i * 7 % 23))
            .collect();
        let mut all = Tally::default();
        games.iter().for_each(|g| all.add(g));
        let mut parts = [Tally::default(), Tally::default(), Tally::default()];
        for (i, g) in games.iter().enumerate() {
            parts[i % 3].add(g);
        }
        let mut merged = Tally::default();
        for p in parts.iter().rev() {
            merged.merge(p);
        }
        assert_eq!(merged, all);
        let counted = games.iter().filter(|g| g.counted).count() as u64;
        assert!(counted > 0 && counted < 40);
        assert_eq!(all.branching_games, counted);
        assert_eq!(
            all.phase_plies.iter().sum::<u64>(),
            games.iter().filter(|g| g.counted).map(|g| g.plies as u64).sum::<u64>()
        );
        assert_eq!(all.unfinished, 13);
        assert_eq!(all.reasons["max-plies"], 13);
    }

    #[test]
    fn places_are_averaged_per_side_merged_and_checked_and_teams_places_are_not() {
        let placed = |places: &[u8]| {
            let mut all = [0u8; crate::model::MAX_SIDES];
            all[..places.len()].copy_from_slice(places);
            let mut g = summary(Some(Side(places.iter().position(|&p| p == 1).unwrap_or(0) as u8)), 30);
            if let Some(e) = g.end.as_mut() {
                e.places = Some(all);
            }
            g
        };
        let games = [placed(&[1, 2, 3]), placed(&[3, 1, 2]), placed(&[2, 3, 1]), placed(&[1, 3, 2])];
        let (mut a, mut b) = (Tally::default(), Tally::default());
        a.add(&games[0]);
        a.add(&games[1]);
        b.add(&games[2]);
        b.add(&games[3]);
        a.merge(&b);
        assert_eq!(a.placed, 4);
        assert_eq!(a.mean_places(), Some(vec![1.75, 2.25, 2.0]));
        assert_eq!(a.check(4, true, 100), Ok(()));
        // A report whose places cannot be: a side placed 0 times in total over 4 games.
        let mut bad = a.clone();
        bad.place_sums[1] = 3;
        assert!(bad.check(4, true, 100).unwrap_err().contains("places add up to 3"));
        // Teams share places: the result itself, not a ranking.
        let mut teams = Tally::default();
        teams.add(&placed(&[1, 2, 1, 2]));
        assert_eq!((teams.placed, teams.mean_places()), (0, None));
    }

    #[test]
    fn quantiles_and_histogram_read_the_exact_distribution() {
        let mut t = Tally::default();
        for len in 1..=100 {
            t.add(&summary(Some(Side::FIRST), len));
        }
        assert_eq!(t.length_quantile(0.5), 50);
        assert_eq!(t.length_quantile(0.1), 10);
        assert_eq!(t.length_quantile(0.9), 90);
        assert!((t.mean_length() - 50.5).abs() < 1e-9);
        let h = t.histogram(10);
        assert_eq!(h.len(), 10);
        assert_eq!(h[0], (1, 10, 10));
        assert_eq!(h.iter().map(|b| b.2).sum::<u64>(), 100);
        assert_eq!(t.score(Side::FIRST, 2, &[]).mean, 1.0);
    }

    #[test]
    fn the_first_player_s_score_among_teams_is_its_team_s_with_a_draw_halved() {
        let mut t = Tally::default();
        for w in [0, 2, 1] {
            t.add(&summary(Some(Side(w)), 20));
        }
        let mut drawn = summary(None, 20);
        drawn.end = Some(End {
            status: Status::Draw,
            winner: None,
            rule: Some(0),
            score: None,
            places: None,
        });
        t.add(&drawn);
        // Red and yellow (sides 0 and 2) won two of four and drew one: (2 + ½) / 4.
        assert_eq!(t.score(Side::FIRST, 4, &[0, 1, 0, 1]).mean, 0.625);
        assert_eq!(t.score(Side(1), 4, &[0, 1, 0, 1]).mean, 0.375);
        // Four sides alone: red won one, a draw is a quarter.
        assert_eq!(t.score(Side::FIRST, 4, &[]).mean, 0.3125);
    }
}
