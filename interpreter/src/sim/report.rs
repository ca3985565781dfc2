//! A run's report as JSON, and the merge of shard reports. A report carries, besides the
//! statistics, what identifies the run (ruleset, parameters, start, players, seed, games, ply
//! limit) and the raw [`Tally`], so that shards of one run can be checked to belong together and
//! merged into exactly the statistics the whole run would give.

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use super::{Shard, Tally};
use crate::model::Side;

/// What identifies a run: two reports merge only when these agree (but for the shard).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunInfo {
    /// The ruleset's game name (`Chess`).
    pub game: String,
    pub params: Vec<(String, String)>,
    /// The start position's FEN.
    pub start: String,
    /// The sides' names, in the ruleset's order.
    pub sides: Vec<String>,
    /// Each side's team, where the ruleset has `teams` (a team's wins are its sides' together).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub teams: Vec<u8>,
    /// Who moves first at the start (0 or 1).
    pub first: usize,
    pub players: Vec<String>,
    pub seed: u64,
    /// Games in the whole run, all shards together.
    pub games: u64,
    pub max_plies: usize,
    /// Games counted for branching: one in this many (see [`crate::sim::Config::branching_every`]);
    /// a report written before it was kept counted every game.
    #[serde(default = "every_game")]
    pub branching_every: u64,
}

fn every_game() -> u64 {
    1
}

impl RunInfo {
    /// Does the description hold together: a side to move first among its sides, a team for
    /// each side where there are teams, as many players as sides? (Read from a file, it may not.)
    ///
    /// # Errors
    /// What does not, in words.
    pub fn check(&self) -> Result<(), String> {
        let n = self.sides.len();
        if n == 0 {
            return Err("names no sides".into());
        }
        if self.first >= n {
            return Err(format!("has side {} move first, of its {n} sides (0 to {})", self.first, n - 1));
        }
        if !self.teams.is_empty() && self.teams.len() != n {
            return Err(format!("gives {} teams for its {n} sides", self.teams.len()));
        }
        if let Some(t) = self.teams.iter().find(|&&t| t as usize >= n) {
            return Err(format!("puts a side in team {t}, past its {n} sides"));
        }
        if self.players.len() != n {
            return Err(format!("names {} players for its {n} sides", self.players.len()));
        }
        Ok(())
    }
}

/// How long a run took (left out of comparisons: it is the only part that varies).
#[derive(Clone, Copy, Debug)]
pub struct Timing {
    pub seconds: f64,
    pub threads: usize,
}

/// The JSON object of a run (or of a shard of one, when `shard` is given).
pub fn to_json(info: &RunInfo, shard: Option<Shard>, tally: &Tally, partial: bool, timing: Option<Timing>) -> Value {
    let first = Side(info.first as u8);
    let mut v = tally.report(&info.sides, first, &info.teams);
    let o = v.as_object_mut().expect("a report is an object");
    o.insert("game".into(), json!(info.game));
    o.insert(
        "params".into(),
        json!(
            info.params
                .iter()
                .map(|(k, v)| (k.clone(), json!(v)))
                .collect::<serde_json::Map<_, _>>()
        ),
    );
    o.insert("start".into(), json!(info.start));
    o.insert("seed".into(), json!(info.seed));
    o.insert("players".into(), json!(info.players));
    o.insert("max_plies".into(), json!(info.max_plies));
    o.insert("games".into(), json!(tally.games));
    o.insert("run_games".into(), json!(info.games));
    o.insert("partial".into(), json!(partial));
    if let Some(s) = shard {
        o.insert("shard".into(), json!({"index": s.index, "count": s.count}));
    }
    o.insert("run".into(), serde_json::to_value(info).expect("run info serialises"));
    o.insert("tally".into(), serde_json::to_value(tally).expect("a tally serialises"));
    if let Some(t) = timing {
        o.insert(
            "timing".into(),
            json!({"seconds": t.seconds, "threads": t.threads, "games_per_second": if t.seconds > 0.0 { tally.games as f64 / t.seconds } else { 0.0 }}),
        );
    }
    v
}

/// Shard reports merged: the run they belong to, the summed tally, and the shards missing.
#[derive(Debug)]
pub struct Merged {
    pub info: RunInfo,
    pub tally: Tally,
    /// Shards of the run no report covered, and shards that stopped early.
    pub missing: Vec<u64>,
    pub partial: bool,
    /// The shard count, when the reports were shards.
    pub count: Option<u64>,
}

/// Merges reports written by `arbiter simulate --json` (shards of one run, each once).
///
/// # Errors
/// Which report is not one, or does not belong with the first, and why.
pub fn merge(reports: &[(String, Value)]) -> Result<Merged, String> {
    let mut first: Option<(RunInfo, Option<u64>)> = None;
    let mut tally = Tally::default();
    let mut seen: Vec<u64> = Vec::new();
    let mut partial = false;
    for (name, v) in reports {
        let info: RunInfo = v
            .get("run")
            .cloned()
            .ok_or_else(|| format!("{name}: not a report of `arbiter simulate --json` (no \"run\" key)"))
            .and_then(|r| serde_json::from_value(r).map_err(|e| format!("{name}: its \"run\" is not a run's description: {e}")))?;
        info.check().map_err(|e| format!("{name}: its \"run\" {e}"))?;
        let mut t: Tally = v
            .get("tally")
            .cloned()
            .ok_or_else(|| format!("{name}: no \"tally\" key"))
            .and_then(|r| serde_json::from_value(r).map_err(|e| format!("{name}: its \"tally\" is not a tally: {e}")))?;
        t.counted_every_game_if_unsaid();
        // A side's wins and places are kept only for the run's sides.
        let sides = info.sides.len();
        if t.wins.len() > sides || t.place_sums.len() > sides {
            return Err(format!(
                "{name}: its \"tally\" counts the wins or places of {} sides, where the run has {sides}",
                t.wins.len().max(t.place_sums.len())
            ));
        }
        let shard = match v.get("shard") {
            None | Some(Value::Null) => None,
            Some(s) => Some(Shard {
                index: s
                    .get("index")
                    .and_then(Value::as_u64)
                    .ok_or_else(|| format!("{name}: \"shard\" has no index"))?,
                count: s
                    .get("count")
                    .and_then(Value::as_u64)
                    .ok_or_else(|| format!("{name}: \"shard\" has no count"))?,
            }),
        };
        match &first {
            None => first = Some((info.clone(), shard.map(|s| s.count))),
            Some((i, count)) => {
                if *i != info {
                    return Err(format!(
                        "{name}: a different run from {} (ruleset, parameters, start, players, seed, games, ply limit or branching sample differ)",
                        reports[0].0
                    ));
                }
                if *count != shard.map(|s| s.count) {
                    return Err(format!("{name}: split into a different number of shards from {}", reports[0].0));
                }
            }
        }
        let index = shard.map_or(0, |s| s.index);
        if shard.is_some_and(|s| s.index >= s.count) {
            return Err(format!("{name}: shard {index} of {} does not exist", shard.map_or(1, |s| s.count)));
        }
        if seen.contains(&index) {
            return Err(format!("{name}: shard {index} is given twice"));
        }
        seen.push(index);
        let stopped = v.get("partial").and_then(Value::as_bool).unwrap_or(false);
        partial |= stopped;
        // What the shard played must be what it could: its share of the run's games.
        let share = shard.unwrap_or(Shard::WHOLE).range(info.games);
        t.check(share.end - share.start, !stopped, info.max_plies)
            .map_err(|e| format!("{name}: not a report `arbiter simulate` wrote: {e}"))?;
        let mut sum = tally.clone();
        sum.merge(&t);
        sum.check(info.games, false, info.max_plies)
            .map_err(|e| format!("{name}: with the reports before it, {e}"))?;
        tally = sum;
    }
    let (info, count) = first.ok_or("no reports to merge")?;
    let missing = (0..count.unwrap_or(1)).filter(|k| !seen.contains(k)).collect::<Vec<_>>();
    Ok(Merged {
        partial: partial || !missing.is_empty(),
        info,
        tally,
        missing,
        count,
    })
}
