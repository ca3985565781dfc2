//! A game: the line of positions from a start, and how it stands — ongoing, won or drawn, by which
//! end rule and clause, and which draws a player could claim. End rules are tried in the order the
//! ruleset lists them; the first automatic one that holds ends the game.

use super::{Bounds, Chase, Engine, Move, Position, chaser_in_cycle};
use crate::model::*;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    Ongoing,
    Win,
    Draw,
    /// Ended without a result (a cycle, under some go rules).
    NoResult,
}

impl Status {
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Ongoing => "ongoing",
            Status::Win => "win",
            Status::Draw => "draw",
            Status::NoResult => "no-result",
        }
    }
}

/// How a game stands.
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    pub status: Status,
    pub winner: Option<Side>,
    /// The end rule's reason code (`checkmate`).
    pub reason: Option<String>,
    /// The clause it cites, with the ruleset's prefix (`FIDE 5.1.1`).
    pub clause: Option<String>,
    /// Draws the side to move could claim now: (reason, clause). A draw that a move of the side
    /// to move would produce counts too: the player claims it by declaring that move (FIDE 9.2,
    /// 9.3); [`Outcome::claim_moves`] names those moves.
    pub claimable: Vec<(String, Option<String>)>,
    /// For each claimable draw that does not hold yet but would after a move: the reason and the
    /// moves that would produce it.
    pub claim_moves: Vec<(String, Vec<Move>)>,
    /// The count, when the game ended by scoring.
    pub score: Option<Score>,
    /// The chase, when the game ended because one side chased throughout a repetition: who, and
    /// what it chased.
    pub chase: Option<Chase>,
    /// Among more than two players whose end rules put sides out one by one: every side's place
    /// (1 first), once all have one.
    pub places: Option<Vec<u8>>,
}

/// An area count: each side's stones and surrounded points (shared points halved), before komi.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Score {
    pub points: [f64; 2],
    /// Added to the second player's count.
    pub komi: f64,
}

impl Outcome {
    /// `red 1st, blue 2nd`: the places of a game of more than two players.
    fn places_text(&self, rules: &crate::model::Rules) -> Option<String> {
        let places = self.places.as_ref()?;
        // Teams win together: `red and yellow win`.
        if !rules.teams.is_empty() {
            let first: Vec<&str> = (0..places.len())
                .filter(|&s| places[s] == 1)
                .map(|s| rules.players[s].name.as_str())
                .collect();
            return Some(format!("{} win", first.join(" and ")));
        }
        let mut order: Vec<(u8, usize)> = places.iter().enumerate().map(|(s, &p)| (p, s)).collect();
        order.sort();
        Some(
            order
                .iter()
                .map(|&(p, s)| format!("{} {}", rules.players[s].name, ordinal(p)))
                .collect::<Vec<_>>()
                .join(", "),
        )
    }

    /// The `status:` line's words: the status, then the result — `win 1-0`, `draw 1/2-1/2`;
    /// among more than two, where the result names the winners, `win for red and yellow`, `win:
    /// red 1st, blue 2nd, …` and `draw`. `None` while the game goes on.
    pub fn status_text(&self, rules: &crate::model::Rules) -> Option<String> {
        let result = self.result_text(rules)?;
        if rules.players.len() <= 2 {
            return Some(format!("{} {result}", self.status.as_str()));
        }
        let status = self.status.as_str();
        Some(match (&self.places, self.winner) {
            (Some(places), _) if !rules.teams.is_empty() => {
                let first: Vec<&str> = (0..places.len())
                    .filter(|&s| places[s] == 1)
                    .map(|s| rules.players[s].name.as_str())
                    .collect();
                format!("{status} for {}", first.join(" and "))
            }
            (Some(_), _) => format!("{status}: {result}"),
            (None, Some(w)) if self.status == Status::Win => format!("{status} for {}", rules.players[w.index()].name),
            _ => status.to_string(),
        })
    }

    /// The result as records write it: `1-0`, `0-1`, `1/2-1/2`; for a scored game the winner's
    /// side letter and margin (`B+3.5`, `W+0.5`) or `0` for a tie; among more than two players
    /// `red wins` or `draw`.
    pub fn result_text(&self, rules: &crate::model::Rules) -> Option<String> {
        // Among more than two players no record writes `1-0`: the winner by name.
        if rules.players.len() > 2 {
            if let Some(text) = self.places_text(rules) {
                return Some(text);
            }
            return match (self.status, self.winner) {
                (Status::Win, Some(w)) => Some(format!("{} wins", rules.players[w.index()].name)),
                (Status::Draw, _) => Some("draw".into()),
                _ => None,
            };
        }
        match (&self.score, self.status) {
            (Some(s), Status::Win | Status::Draw) => {
                let m = s.margin();
                if m == 0.0 {
                    return Some("0".into());
                }
                let w = if m > 0.0 { 0 } else { 1 };
                Some(format!("{}+{}", rules.players[w].fen.to_uppercase(), m.abs()))
            }
            // A game that counts by area, won on time, is written as its records write it (`W+T`).
            (None, Status::Win)
                if rules.end_rules.iter().any(|r| matches!(r.verdict, Verdict::ScoreByArea { .. }))
                    && rules
                        .end_rules
                        .iter()
                        .any(|r| Some(&r.reason) == self.reason.as_ref() && r.conditions.contains(&Condition::FlagFallen)) =>
            {
                self.winner.map(|w| format!("{}+T", rules.players[w.index()].fen.to_uppercase()))
            }
            _ => self.result().map(str::to_string),
        }
    }
}

impl Score {
    /// First player's points minus the second's, komi included.
    pub fn margin(&self) -> f64 {
        self.points[0] - self.points[1] - self.komi
    }
}

impl Outcome {
    /// `1-0`, `0-1`, `1/2-1/2`, or `None` while the game goes on.
    pub fn result(&self) -> Option<&'static str> {
        match (self.status, self.winner) {
            (Status::Win, Some(Side::FIRST)) => Some("1-0"),
            (Status::Win, Some(_)) => Some("0-1"),
            (Status::Draw, _) => Some("1/2-1/2"),
            _ => None,
        }
    }

    /// How the game stands, as a sentence naming the sides, and the pieces and squares the end rule
    /// looked at: `black's king on e8 is attacked by the queen on h4 and black has no legal move:
    /// white wins`. `pos` is the position the outcome was read from ([`Game::current`]).
    ///
    /// # Examples
    /// ```
    /// # let checked = arbiter::check::check_file(std::path::Path::new("../rulesets/chess.rules"), &[]);
    /// # let engine = arbiter::game::Engine::new(checked.rules.expect("chess.rules is valid"));
    /// use arbiter::game::Game;
    /// use arbiter::notation::uci;
    /// let mut game = Game::new(engine.clone(), engine.start());
    /// for m in ["f2f3", "e7e5", "g2g4", "d8h4"] {
    ///     let mv = uci::find(game.current(), m).expect("a legal move");
    ///     game.play(mv);
    /// }
    /// let said = game.outcome().message(game.current());
    /// assert_eq!(said, "white's king on e1 is attacked by the queen on h4 and white has no legal move: black wins");
    /// ```
    ///
    /// Moves it names (a draw claimed by declaring a move) are written by `name_move`: the ruleset's
    /// notation where the caller knows it ([`Outcome::message`] in [`crate::notation`] passes
    /// [`crate::notation::written`]).
    pub fn message_naming(&self, pos: &Position, name_move: &dyn Fn(&Position, Move) -> String) -> String {
        let rules = pos.rules();
        let name = |s: Side| rules.players[s.index()].name.clone();
        let stm = pos.side_to_move();
        let rule = self.reason.as_ref().and_then(|r| rules.end_rules.iter().find(|e| &e.reason == r));
        match (self.status, rule) {
            (Status::Ongoing, _) => {
                let mut s = format!("{} to move", name(stm));
                if pos.in_check() {
                    s.push_str(&format!(", in check: {}", check_sentence(pos)));
                }
                for (reason, _) in &self.claimable {
                    if let Some(why) = self.claim_why_naming(pos, reason, name_move) {
                        s.push_str(&format!("; {} may claim a draw: {why}", name(stm)));
                    }
                }
                s
            }
            (Status::Win, rule) if self.places.is_some() => {
                // Every side's place: the last put out by `rule`'s condition.
                let listed = self.places_text(rules).unwrap_or_default();
                let why = rule.map(|r| conditions_sentence(pos, r, None, None)).unwrap_or_default();
                let all = if rules.teams.is_empty() {
                    format!("every player has its place: {listed}")
                } else {
                    listed
                };
                if why.is_empty() { all } else { format!("{why}; {all}") }
            }
            (status, rule) => {
                let checker = self.winner.map(Side::other);
                let why = rule
                    .map(|r| conditions_sentence(pos, r, checker, self.chase.as_ref()))
                    .unwrap_or_default();
                let verdict = match (status, self.winner) {
                    (Status::Win, Some(w)) => format!("{} wins", name(w)),
                    (Status::Win, None) => "the game is won".to_string(),
                    (Status::NoResult, _) => "the game ends without a result".to_string(),
                    _ => "the game is drawn".to_string(),
                };
                if why.is_empty() { verdict } else { format!("{why}: {verdict}") }
            }
        }
    }

    /// Why the draw `reason` (one of [`Outcome::claimable`]) may be claimed in `pos`: `the last 50
    /// moves by each side had no capture and no pawn move`. `None` for a reason the rules do not have.
    pub fn claim_message(pos: &Position, reason: &str) -> Option<String> {
        let rule = pos.rules().end_rules.iter().find(|e| e.reason == reason)?;
        Some(conditions_sentence(pos, rule, None, None))
    }

    /// Why the draw `reason` may be claimed in `pos`, the position this outcome was read from: as
    /// [`Outcome::claim_message`] says where it holds now, or naming the moves that would produce
    /// it (`by declaring Ng8, after which the same position has occurred 3 times`), each written
    /// by `name`.
    pub fn claim_why_naming(&self, pos: &Position, reason: &str, name: &dyn Fn(&Position, Move) -> String) -> Option<String> {
        let Some((_, moves)) = self.claim_moves.iter().find(|(r, _)| r == reason) else {
            return Outcome::claim_message(pos, reason);
        };
        let rule = pos.rules().end_rules.iter().find(|e| e.reason == reason)?;
        let first = *moves.first()?;
        let mut after = pos.clone();
        after.play_unchecked(first);
        let texts: Vec<String> = moves.iter().map(|m| name(pos, *m)).collect();
        // A few moves by name; many (every quiet move, for a move counter) by count and example.
        let declaring = if texts.len() <= 3 {
            join_or(&texts)
        } else {
            format!("any of {} moves ({}, …)", texts.len(), texts[..3].join(", "))
        };
        Some(format!(
            "by declaring {declaring}, after which {}",
            conditions_sentence(&after, rule, None, None)
        ))
    }
}

/// `the king on e1 is attacked by the queen on h4` for each attacked royal of the side to move.
fn check_sentence(pos: &Position) -> String {
    let rules = pos.rules();
    let stm = pos.side_to_move();
    let mut parts = Vec::new();
    for r in pos.royal_squares(stm) {
        let attackers = pos.enemy_attackers_of(r, stm);
        if attackers.is_empty() {
            continue;
        }
        let names: Vec<String> = attackers.iter().map(|&a| piece_on(pos, a)).collect();
        parts.push(format!(
            "{}'s {} on {} is attacked by {}",
            rules.players[stm.index()].name,
            kind_name(pos, r),
            rules.board.name(r),
            join_and(&names)
        ));
    }
    join_and(&parts)
}

fn kind_name(pos: &Position, sq: usize) -> String {
    pos.piece_at(sq)
        .map(|(k, _)| pos.rules().kind(k).name.to_lowercase())
        .unwrap_or_default()
}

fn piece_on(pos: &Position, sq: usize) -> String {
    crate::game::explain::piece_name(pos, sq)
}

/// `red chased black's cannon on a5 (unprotected) with every move of the repetition`.
fn chase_sentence(pos: &Position, c: &Chase) -> String {
    let rules = pos.rules();
    let victims: Vec<String> = c
        .victims
        .iter()
        .map(|&sq| {
            let owner = pos.piece_at(sq).map_or(c.chaser.other(), |(_, s)| s);
            format!(
                "{}'s {} on {}",
                rules.players[owner.index()].name,
                kind_name(pos, sq),
                rules.board.name(sq)
            )
        })
        .collect();
    let how = if c.with_checks {
        "with every move of the repetition that did not give check (one check, one chase)"
    } else {
        "with every move of the repetition"
    };
    format!("{} chased {} {how}", rules.players[c.chaser.index()].name, join_and(&victims))
}

/// `a, b and c`.
fn join_and(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// `a, b or c`.
fn join_or(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} or {last}", rest.join(", ")),
    }
}

/// The conditions of an end rule as they hold in `pos`, joined with "and". `checker` is the side
/// that gave check throughout a repetition, where the rule asks for one; `chase` what was chased
/// throughout, where the rule asks for a chase.
fn conditions_sentence(pos: &Position, rule: &EndRule, checker: Option<Side>, chase: Option<&Chase>) -> String {
    let rules = pos.rules();
    let name = |s: Side| rules.players[s.index()].name.clone();
    let stm = pos.side_to_move();
    let kinds = |ks: &[KindId]| -> Vec<String> { ks.iter().map(|k| rules.kind(*k).name.to_lowercase()).collect() };
    let in_check_listed = rule.conditions.contains(&Condition::InCheck);
    let mover = pos.mover();
    let ri = rules.end_rules.iter().position(|e| e.reason == rule.reason).unwrap_or(0);
    let b = &rules.board;
    let mut parts = Vec::new();
    // In check first: "… is attacked by … and white has no legal move" reads in the order it happens.
    if in_check_listed {
        parts.push(check_sentence(pos));
    }
    for (ci, c) in rule.conditions.iter().enumerate() {
        match c {
            Condition::InARow { n, .. } => match pos.end_line(ri, ci, mover) {
                Some(line) => {
                    let (first, last) = (line[0], line[line.len() - 1]);
                    parts.push(format!(
                        "{} has {} in a row, {}–{}",
                        name(mover),
                        line.len().max(*n as usize),
                        b.name(first),
                        b.name(last)
                    ))
                }
                None => parts.push(format!("{} has {n} in a row", name(mover))),
            },
            Condition::Captured(None) => parts.push("the last move captured".to_string()),
            Condition::Captured(Some(k)) => parts.push(format!("the last move captured a {}", rules.kind(*k).name.to_lowercase())),
            Condition::NoneLeft(None) => parts.push(format!("{} has no pieces left", name(stm))),
            Condition::NoneLeft(Some(k)) => parts.push(format!("{} has no {} left", name(stm), rules.kind(*k).name.to_lowercase())),
            Condition::Connects { zones, need } => {
                let what = if *need == 2 && zones.len() == 2 {
                    "its two edges".to_string()
                } else if *need == zones.len() {
                    format!("all {need} of its edges")
                } else {
                    format!("{need} of its {} edges", zones.len())
                };
                match pos.end_connection(ri, ci, mover) {
                    Some(chain) => parts.push(format!(
                        "{}'s pieces join {what} ({} connected, from {} to {})",
                        name(mover),
                        chain.len(),
                        b.name(chain[0]),
                        b.name(chain[chain.len() - 1])
                    )),
                    None => parts.push(format!("{}'s pieces join {what}", name(mover))),
                }
            }
            Condition::NeitherCanMove => parts.push("neither side can move".to_string()),
            Condition::CannotWin(who) => {
                let sides = who.sides(stm);
                let why: Vec<String> = sides.iter().map(|&s| cannot_win_why(pos, s)).collect();
                parts.push(match who {
                    Contender::Either => format!("neither side can win by any series of legal moves ({})", why.join("; ")),
                    _ => format!("{} cannot win by any series of legal moves ({})", name(sides[0]), why.join("; ")),
                });
            }
            Condition::KindIn(k, zone) => {
                let at: Vec<String> = zone[mover]
                    .iter()
                    .filter(|&sq| pos.piece_at(sq) == Some((*k, mover)))
                    .map(|sq| b.name(sq))
                    .collect();
                parts.push(format!(
                    "{}'s {} stands on {}",
                    name(mover),
                    rules.kind(*k).name.to_lowercase(),
                    join_and(&at)
                ))
            }
            Condition::InCheck => {}
            Condition::NoLegalMove if in_check_listed => parts.push(format!("{} has no legal move", name(stm))),
            Condition::NoLegalMove if pos.in_check() => parts.push(format!("{} has no legal move", name(stm))),
            Condition::NoLegalMove if rules.royal_safety.is_none() => parts.push(format!("{} has no legal move", name(stm))),
            Condition::NoLegalMove => parts.push(format!("{} has no legal move and is not in check", name(stm))),
            Condition::Repetition(n) => parts.push(format!("the same position has occurred {n} times")),
            Condition::Counter { plies, resetting_kind } => {
                let moves = plies / 2;
                parts.push(match resetting_kind {
                    Some(k) => format!(
                        "the last {moves} moves by each side had no capture and no {} move",
                        rules.kind(*k).name.to_lowercase()
                    ),
                    None => format!("the last {moves} moves by each side had no capture"),
                });
            }
            Condition::Material(pats) => {
                let m = pos.material();
                let sides: Vec<String> = [Side::FIRST, Side::SECOND]
                    .iter()
                    .map(|&s| format!("{}'s {}", name(s), join_and(&kinds(&m[s.index()]))))
                    .collect();
                let mut s = format!("only {} are left, which cannot lead to checkmate", join_and(&sides));
                if let Some(k) = matching_pattern(pos, pats).and_then(|p| p.same_colour) {
                    s = format!(
                        "only {} are left, every {} on squares of one colour, which cannot lead to checkmate",
                        join_and(&sides),
                        rules.kind(k).name.to_lowercase()
                    );
                }
                parts.push(s);
            }
            Condition::NoneOf(ks) => parts.push(format!("neither side has a {} left", join_or(&kinds(ks)))),
            Condition::CheckingThroughout => match checker {
                Some(s) => parts.push(format!("{} gave check with every move of the repetition", name(s))),
                None => parts.push("one side gave check with every move of the repetition".to_string()),
            },
            Condition::ChasingThroughout => parts.push(match chase {
                Some(c) => chase_sentence(pos, c),
                None => "one side chased the same piece with every move of the repetition".to_string(),
            }),
            Condition::Passes(n) => parts.push(format!("the last {n} moves were passes")),
            Condition::FlagFallen => parts.push(format!("{}'s time ran out (the flag fell)", name(pos.side_to_move()))),
            Condition::During(_) => parts.push(format!("the game is in the {} phase", pos.phase_name().unwrap_or("first"))),
            Condition::Ring(whose) => parts.push(format!("{}'s pieces surround a cell", name(whose.side(stm, pos.mover())))),
            Condition::RoyalsFacing(_) => parts.push("the royals face each other with nothing between".to_string()),
            Condition::AllConnected { whose, .. } => {
                let who = whose.side(stm, pos.mover());
                parts.push(format!("all of {}'s pieces form one group", name(who)));
            }
            Condition::Compare { count, whose, op, value } => {
                let who = whose.side(stm, pos.mover());
                let relation = match op {
                    Cmp::Eq => String::new(),
                    Cmp::Ne => format!(" (not {value})"),
                    Cmp::Ge => format!(" ({value} or more)"),
                    Cmp::Le => format!(" ({value} or fewer)"),
                    Cmp::Gt => format!(" (more than {value})"),
                    Cmp::Lt => format!(" (fewer than {value})"),
                };
                let plural = |n: i64| if n == 1 { "" } else { "s" };
                parts.push(match count {
                    CountOf::Declared(i) => {
                        format!(
                            "{}'s count of {} is {}{relation}",
                            name(who),
                            rules.counts[*i].name,
                            pos.tally(who, *i)
                        )
                    }
                    CountOf::Pieces { kind, zone } => {
                        let have = pos.end_count(ri, ci, who).unwrap_or(0);
                        let what = kind.map_or(String::new(), |k| format!("{} ", rules.kind(k).name.to_lowercase()));
                        let place = if zone.is_some() { " there" } else { "" };
                        format!("{} has {have} {what}piece{}{place}{relation}", name(who), plural(have))
                    }
                });
            }
        }
    }
    if rule.verdict == Verdict::MostPieces {
        let c = pos.piece_counts();
        parts.push(format!(
            "{} has {} pieces and {} {}",
            name(Side::FIRST),
            c[0],
            name(Side::SECOND),
            c[1]
        ));
    }
    if let Verdict::Points(i) = rule.verdict {
        let table = &rules.points[i];
        let t = table.totals(&pos.material());
        let shown = |s: Side| {
            let total = format_points(t[s.index()]);
            match table.bonus {
                Some((b, n)) if b == s => format!(
                    "{total} points ({} and {} added)",
                    format_points(t[s.index()] - n),
                    format_points(n)
                ),
                _ => format!("{total} points"),
            }
        };
        let mut line = format!(
            "{} has {} and {} {}",
            name(Side::FIRST),
            shown(Side::FIRST),
            name(Side::SECOND),
            shown(Side::SECOND)
        );
        if t[0] == t[1] {
            line.push_str(&match table.tie {
                Some(s) => format!(", a tie, which goes to {}", name(s)),
                None => ", a tie".to_string(),
            });
        }
        parts.push(line);
    }
    join_and(&parts)
}

/// Points as a person writes them: `13`, `6.5`.
fn format_points(p: f64) -> String {
    if p.fract() == 0.0 { format!("{p:.0}") } else { format!("{p}") }
}

/// Why `side` cannot win in `pos`, as the search proves it: `white: none of the 212 positions
/// reachable is a win for it`.
fn cannot_win_why(pos: &Position, side: Side) -> String {
    let rules = pos.rules();
    let name = rules.players[side.index()].name.clone();
    let royal = rules
        .kinds
        .iter()
        .find(|k| k.royal)
        .map_or("royal piece".to_string(), |k| k.name.to_lowercase());
    let other = rules.players[side.other().index()].name.clone();
    match pos.winnability(side, Bounds::FULL).verdict {
        super::Winnability::CannotWin(super::Proof::NoWinningRule) => format!("{name}: no end rule can give it the game"),
        super::Winnability::CannotWin(super::Proof::Blocked) => {
            format!("{name}: past pieces that can never move, none of its pieces can ever attack a square {other}'s {royal} can reach")
        }
        super::Winnability::CannotWin(super::Proof::Exhausted(n)) => {
            format!("{name}: none of the {n} positions reachable is a win for it")
        }
        _ => format!("{name}: proved as the game went on"),
    }
}

/// A line of play from a start position, with what repetition rules need.
///
/// A game costs a constant per ply, however long it runs: only the current position carries the
/// repetition record (the keys of every position so far, which legality in superko games reads);
/// the earlier ones keep their board, counters and side to move, and no position keeps the undo
/// records `make` leaves (in chain games a whole board per move).
#[derive(Clone, Debug)]
pub struct Game {
    engine: Engine,
    /// Squares whose chains the players agreed are dead (removed before counting).
    dead: Vec<usize>,
    /// Every position of the line; only the last carries the repetition record.
    positions: Vec<Position>,
    moves: Vec<Move>,
    keys: Vec<u64>,
    /// For each position: is the side to move in check (did the move before it give check)?
    checks: Vec<bool>,
    /// A draw claimed by the side to move: the reason, its clause, and the ply it was claimed at.
    claimed: Option<(String, Option<String>, usize)>,
    /// The ply at which the side to move's flag fell (its time ran out), if it did.
    flag_fell: Option<usize>,
    /// `cannot win` answers already searched, by position hash, contender and full search: the
    /// answer depends on the position alone, and a viewer asks for the outcome many times a frame.
    /// Shared by clones (the answers stay true); bounded by [`CANNOT_WIN_CACHE`].
    cannot_win_seen: std::sync::Arc<std::sync::Mutex<std::collections::HashMap<(u64, Contender, bool), bool>>>,
}

/// The most `cannot win` answers a game keeps (a long game forgets the oldest all at once).
const CANNOT_WIN_CACHE: usize = 4096;

impl Game {
    pub fn new(engine: Engine, mut start: Position) -> Game {
        start.forget_undo();
        let key = start.repetition_key();
        let check = start.in_check();
        Game {
            engine,
            dead: Vec::new(),
            positions: vec![start],
            moves: Vec::new(),
            keys: vec![key],
            checks: vec![check],
            claimed: None,
            flag_fell: None,
            cannot_win_seen: Default::default(),
        }
    }
    pub fn engine(&self) -> &Engine {
        &self.engine
    }
    /// Marks the chains containing these squares as dead: they are removed before counting.
    pub fn set_dead(&mut self, squares: Vec<usize>) {
        self.dead = squares;
    }
    pub fn dead(&self) -> &[usize] {
        &self.dead
    }
    /// How many of the last moves were passes.
    pub fn trailing_passes(&self) -> usize {
        self.moves.iter().rev().take_while(|m| m.kind == super::MoveKind::Pass).count()
    }
    /// The area count of the current position with the dead chains removed.
    pub fn area_score(&self, komi: f64) -> Score {
        area_score(self.current(), &self.dead, komi)
    }
    /// Who each point of the current position counts for in [`Game::area_score`], the dead chains
    /// removed: a living stone's side, or the side whose stones alone border an empty region
    /// (`None` where both sides do, or neither).
    pub fn area_owners(&self) -> Vec<Option<Side>> {
        area_owners(self.current(), &self.dead)
    }
    pub fn current(&self) -> &Position {
        self.positions.last().expect("a game always has its start position")
    }
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }
    /// The positions of the line, from the start to the current one. The earlier ones are for
    /// showing and writing moves: they do not carry the game's repetition record, so in a game with
    /// a repetition rule ask [`Game::current`] (or replay the line) for what is legal.
    pub fn positions(&self) -> &[Position] {
        &self.positions
    }
    /// The bytes the game holds on the heap: its positions, moves and repetition keys (the
    /// ruleset's tables, shared by every position, are not counted). Grows by a constant per ply.
    pub fn heap_bytes(&self) -> usize {
        use std::mem::size_of;
        self.positions.capacity() * size_of::<Position>()
            + self.positions.iter().map(Position::heap_bytes).sum::<usize>()
            + self.moves.capacity() * size_of::<Move>()
            + self.keys.capacity() * size_of::<u64>()
            + self.checks.capacity() * size_of::<bool>()
            + self.dead.capacity() * size_of::<usize>()
    }
    pub fn ply(&self) -> usize {
        self.moves.len()
    }
    /// Plays a legal move (from `current().legal_moves()`).
    pub fn play(&mut self, m: Move) {
        self.claimed = None;
        // The record moves on to the new position; the one left behind keeps only its board.
        let here = self.positions.last_mut().expect("a game always has its start position");
        let record = here.take_record();
        let mut next = here.clone();
        next.put_record(record);
        next.play_unchecked(m);
        next.forget_undo();
        self.keys.push(next.repetition_key());
        self.checks.push(next.in_check());
        self.positions.push(next);
        self.moves.push(m);
    }
    /// Claims the draw `reason` for the side to move: the game ends drawn by that rule. Only a draw
    /// the rules let the side to move claim now ([`Outcome::claimable`]) can be claimed; taking back
    /// a move withdraws the claim.
    ///
    /// # Errors
    /// The reasons that could be claimed now (empty if none), when `reason` is not one of them.
    ///
    /// # Examples
    /// ```
    /// # let checked = arbiter::check::check_file(std::path::Path::new("../rulesets/chess.rules"), &[]);
    /// # let engine = arbiter::game::Engine::new(checked.rules.expect("chess.rules is valid"));
    /// use arbiter::game::{Game, Status};
    /// let mut game = Game::new(engine.clone(), engine.start());
    /// for m in ["g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1", "f6g8"] {
    ///     game.play(arbiter::notation::uci::find(game.current(), m).expect("legal"));
    /// }
    /// assert_eq!(game.claim("fifty-move-rule"), Err(vec!["threefold-repetition".to_string()]));
    /// game.claim("threefold-repetition").expect("a threefold repetition may be claimed");
    /// assert_eq!(game.outcome().status, Status::Draw);
    /// game.undo();
    /// assert_eq!(game.outcome().status, Status::Ongoing);
    /// ```
    pub fn claim(&mut self, reason: &str) -> Result<(), Vec<String>> {
        let open = self.outcome().claimable;
        match open.iter().find(|(r, _)| r == reason) {
            Some((r, clause)) => {
                self.claimed = Some((r.clone(), clause.clone(), self.moves.len()));
                Ok(())
            }
            None => Err(open.into_iter().map(|(r, _)| r).collect()),
        }
    }
    /// The side to move's time has run out (its flag fell): the end rules with `flag fallen` rule
    /// on it from now on, until the move before is taken back.
    pub fn flag_fall(&mut self) {
        self.flag_fell = Some(self.moves.len());
    }
    /// Charges the side to move's clock for a move that took `spent_ms`, before the move is made.
    /// Past what the player had, its flag falls ([`Game::flag_fall`]) and `true` is returned: the
    /// move is not to be made, and the ruleset's `flag fallen` rules decide.
    pub fn charge(&mut self, clocks: &mut crate::clock::Clocks, spent_ms: u64) -> bool {
        let flagged = clocks.spend(self.current().side_to_move().index(), spent_ms).is_err();
        if flagged {
            self.flag_fall();
        }
        flagged
    }
    /// The draw claimed in the current position, if one was: its reason code.
    pub fn claimed(&self) -> Option<&str> {
        self.claimed.as_ref().filter(|c| c.2 == self.moves.len()).map(|c| c.0.as_str())
    }
    /// Takes back the last move.
    pub fn undo(&mut self) -> Option<Move> {
        if self.claimed.as_ref().is_some_and(|c| c.2 == self.moves.len()) {
            self.claimed = None;
        }
        if self.flag_fell.is_some_and(|p| p >= self.moves.len()) {
            self.flag_fell = None;
        }
        let m = self.moves.pop()?;
        let mut gone = self.positions.pop().expect("a position follows every move");
        let mut record = gone.take_record();
        record.forget_last();
        self.positions
            .last_mut()
            .expect("a game always has its start position")
            .put_record(record);
        self.keys.pop();
        self.checks.pop();
        Some(m)
    }

    /// How many times the current position has occurred (including now).
    pub fn occurrences(&self) -> usize {
        let k = *self.keys.last().expect("a game has a position");
        self.keys.iter().filter(|x| **x == k).count()
    }

    /// The side that gave check with every move since the earliest earlier occurrence of the
    /// current position, if exactly one side did.
    fn perpetual_checker(&self) -> Option<Side> {
        checker_in_cycle(&self.keys, &self.checks, |i| self.positions[i].side_to_move())
    }

    /// The side that chased the same piece with every move since the earliest earlier occurrence
    /// of the current position, if exactly one side did (replays that cycle: call it only once a
    /// repetition is known).
    fn perpetual_chaser(&self) -> Option<Chase> {
        let k = *self.keys.last()?;
        let first = self.keys.iter().position(|x| *x == k)?;
        if first == self.moves.len() {
            return None;
        }
        chaser_in_cycle(&self.positions[first], &self.moves[first..])
    }

    /// Evaluates the end rules on the current position (a claimed draw ends the game as its rule says).
    pub fn outcome(&self) -> Outcome {
        let rules = self.engine.rules().clone();
        let pos = self.current();
        if let Some((reason, clause, ply)) = &self.claimed
            && *ply == self.moves.len()
        {
            return Outcome {
                status: Status::Draw,
                winner: None,
                reason: Some(reason.clone()),
                clause: clause.clone(),
                claimable: Vec::new(),
                claim_moves: Vec::new(),
                score: None,
                chase: None,
                places: None,
            };
        }
        let mut legal_cache: Option<bool> = None;
        let mut out = Outcome {
            status: Status::Ongoing,
            winner: None,
            reason: None,
            clause: None,
            claimable: Vec::new(),
            claim_moves: Vec::new(),
            score: None,
            chase: None,
            places: None,
        };
        // Among more than two players, sides put out one by one: over once every side has its
        // place, the first place winning; the rules that put a side out never end the game.
        if let Some(ri) = pos.finished_by() {
            let r = &rules.end_rules[ri];
            let mut places = vec![0u8; rules.players.len()];
            for (side, p) in pos.places() {
                places[side.index()] = p;
            }
            out.status = Status::Win;
            out.winner = places.iter().position(|&p| p == 1).map(|i| Side(i as u8));
            out.reason = Some(r.reason.clone());
            out.clause = rules.citation(&r.cite);
            out.places = Some(places);
            return out;
        }
        for (ri, r) in rules.end_rules.iter().enumerate() {
            if r.verdict.puts_out(&rules) {
                continue;
            }
            let mut no_legal = || *legal_cache.get_or_insert_with(|| pos.legal_moves().is_empty());
            let Some(offender) = rule_holds(pos, ri, r, self, &mut no_legal) else {
                if r.verdict == Verdict::ClaimableDraw {
                    let moves = self.moves_producing(ri, r);
                    if !moves.is_empty() {
                        out.claimable.push((r.reason.clone(), rules.citation(&r.cite)));
                        out.claim_moves.push((r.reason.clone(), moves));
                    }
                }
                continue;
            };
            let clause = rules.citation(&r.cite);
            let Some((status, winner, score)) = verdict_result(r, pos, offender.side, &self.dead) else {
                out.claimable.push((r.reason.clone(), clause));
                continue;
            };
            return Outcome {
                status,
                winner,
                reason: Some(r.reason.clone()),
                clause,
                claimable: Vec::new(),
                claim_moves: Vec::new(),
                score,
                chase: offender.chase,
                places: rules.team_places(winner),
            };
        }
        out
    }

    /// The legal moves after which the claimable end rule `r` (index `ri`) would hold, for a rule
    /// about repetition or a move counter (a draw "about to appear"); none for any other rule.
    /// Cheap where no move could: a repetition needs a position seen often enough already, a
    /// counter one ply short of its count.
    fn moves_producing(&self, ri: usize, r: &EndRule) -> Vec<Move> {
        let pos = self.current();
        let about_to_appear = r
            .conditions
            .iter()
            .any(|c| matches!(c, Condition::Repetition(_) | Condition::Counter { .. }));
        if !about_to_appear {
            return Vec::new();
        }
        let most_seen = {
            let mut counts = std::collections::HashMap::new();
            for k in &self.keys {
                *counts.entry(*k).or_insert(0usize) += 1;
            }
            counts.into_values().max().unwrap_or(0)
        };
        let possible = r.conditions.iter().all(|c| match c {
            Condition::Repetition(n) => most_seen + 1 >= *n as usize,
            Condition::Counter { plies, resetting_kind } => pos.counter_for(*resetting_kind) + 1 >= *plies,
            _ => true,
        });
        if !possible {
            return Vec::new();
        }
        pos.legal_moves()
            .into_iter()
            .filter(|&m| {
                let mut after = self.clone();
                after.play(m);
                let now = after.current();
                rule_holds(now, ri, r, &after, &mut || now.legal_moves().is_empty()).is_some()
            })
            .collect()
    }
}

/// The area count of `pos` with the chains containing `dead` removed: each side's stones and the
/// empty regions only its stones border (shared regions halved).
pub(crate) fn area_score(pos: &Position, dead: &[usize], komi: f64) -> Score {
    if dead.is_empty()
        && let Some(points) = pos.area_points()
    {
        return Score { points, komi };
    }
    let mut points = [0.0f64; 2];
    for owner in area_owners(pos, dead) {
        match owner {
            Some(s) => points[s.index()] += 1.0,
            None => {
                points[0] += 0.5;
                points[1] += 0.5;
            }
        }
    }
    Score { points, komi }
}

/// Who each point counts for under area scoring, with the chains containing `dead` removed: a
/// living stone's side; for an empty or dead point, the side whose stones alone border its empty
/// region; `None` for a region both sides border (or neither).
pub(crate) fn area_owners(pos: &Position, dead: &[usize]) -> Vec<Option<Side>> {
    let b = &pos.rules().board;
    let n = b.squares();
    let mut owner: Vec<Option<Side>> = (0..n).map(|sq| pos.piece_at(sq).map(|(_, s)| s)).collect();
    for &d in dead {
        for s in pos.chain_at(d) {
            owner[s] = None;
        }
    }
    let stones = owner.clone();
    // Empty regions: whose stones border them.
    let mut seen = vec![false; n];
    for start in 0..n {
        if stones[start].is_some() || seen[start] {
            continue;
        }
        let mut stack = vec![start];
        seen[start] = true;
        let mut region = Vec::new();
        let mut borders = [false; 2];
        while let Some(sq) = stack.pop() {
            region.push(sq);
            for (dx, dy) in [(0, 1), (1, 0), (0, -1), (-1, 0)] {
                if let Some(m) = b.offset(sq, dx, dy) {
                    match stones[m] {
                        Some(s) => borders[s.index()] = true,
                        None if !seen[m] => {
                            seen[m] = true;
                            stack.push(m);
                        }
                        None => {}
                    }
                }
            }
        }
        let side = match borders {
            [true, false] => Some(Side::FIRST),
            [false, true] => Some(Side::SECOND),
            _ => None,
        };
        for sq in region {
            owner[sq] = side;
        }
    }
    owner
}

/// The side that gave check with every move since the earliest earlier occurrence of the last
/// position, if exactly one side did. `keys[i]` is position i's repetition key, `checks[i]` whether
/// its side to move is in check, `mover(i)` who moves in it.
pub(crate) fn checker_in_cycle(keys: &[u64], checks: &[bool], mover: impl Fn(usize) -> Side) -> Option<Side> {
    let k = *keys.last()?;
    let first = keys.iter().position(|x| *x == k)?;
    let last = keys.len() - 1;
    if first == last {
        return None;
    }
    // Position i+1 followed move i, made by the side to move in position i.
    let mut all = [true, true];
    let mut any = [false, false];
    for i in first..last {
        let m = mover(i).index();
        any[m] = true;
        if !checks[i + 1] {
            all[m] = false;
        }
    }
    match [all[0] && any[0], all[1] && any[1]] {
        [true, false] => Some(Side::FIRST),
        [false, true] => Some(Side::SECOND),
        _ => None,
    }
}

/// What the end rules ask of a game's history, besides the position.
pub(crate) trait History {
    /// How many times the current position has occurred (including now).
    fn occurrences(&self) -> usize;
    /// The side that gave check with every move since the earliest earlier occurrence of the
    /// current position, if exactly one side did.
    fn perpetual_checker(&self) -> Option<Side>;
    /// The side that chased the same piece with every move since the earliest earlier occurrence
    /// of the current position, if exactly one side did, and what it chased. Expensive: asked only
    /// once every other condition of its rule holds.
    fn perpetual_chaser(&self) -> Option<Chase>;
    /// How many of the last moves were passes.
    fn trailing_passes(&self) -> usize;
    /// The side to move's time ran out (only a game on a clock knows).
    fn flag_fallen(&self) -> bool {
        false
    }
    /// Has this game just started (no move played yet)?
    fn at_start(&self) -> bool;
    /// The bounds of a `cannot win` search asked as the game goes on.
    fn search_bounds(&self) -> Bounds {
        Bounds::GAME
    }
    /// Does a `cannot win` condition for `who` of `rule` hold on `pos`? A rule that also needs an
    /// event that happens once (a flag fall) has the search run in full. Otherwise it runs only where
    /// the position starts a stretch of moves the counters call reversible (positions within one
    /// reach each other, so one answer holds for all), and searches in full only where some pieces can
    /// never move, or briefly ([`History::search_bounds`]).
    fn cannot_win(&self, pos: &Position, who: Contender, rule: &EndRule) -> bool {
        if rule.conditions.contains(&Condition::FlagFallen) {
            return pos.cannot_win(who, Bounds::FULL);
        }
        (self.at_start() || pos.counters_reset()) && pos.cannot_win(who, self.search_bounds())
    }
}

impl History for Game {
    fn occurrences(&self) -> usize {
        Game::occurrences(self)
    }
    fn perpetual_checker(&self) -> Option<Side> {
        Game::perpetual_checker(self)
    }
    fn perpetual_chaser(&self) -> Option<Chase> {
        Game::perpetual_chaser(self)
    }
    fn trailing_passes(&self) -> usize {
        Game::trailing_passes(self)
    }
    fn flag_fallen(&self) -> bool {
        self.flag_fell == Some(self.ply())
    }
    fn at_start(&self) -> bool {
        self.ply() == 0
    }
    /// As the trait's, remembering each answer for the position (see `Game::cannot_win_seen`).
    fn cannot_win(&self, pos: &Position, who: Contender, rule: &EndRule) -> bool {
        let full = rule.conditions.contains(&Condition::FlagFallen);
        if !full && !(self.at_start() || pos.counters_reset()) {
            return false;
        }
        let key = (pos.hash(), who, full);
        if let Some(&known) = self.cannot_win_seen.lock().ok().as_ref().and_then(|m| m.get(&key)) {
            return known;
        }
        let answer = pos.cannot_win(who, if full { Bounds::FULL } else { self.search_bounds() });
        if let Ok(mut seen) = self.cannot_win_seen.lock() {
            if seen.len() >= CANNOT_WIN_CACHE {
                seen.clear();
            }
            seen.insert(key, answer);
        }
        answer
    }
}

/// Who an end rule that holds blames: the side that checked or chased throughout, where the rule
/// asks for one, and what it chased.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Offender {
    pub side: Option<Side>,
    pub chase: Option<Chase>,
}

/// Does end rule `r` (index `ri`) hold on `pos` after `history`? `Some` if it does, with the side
/// that checked or chased throughout where the rule asks for one. `no_legal` says whether the side
/// to move has no legal move (asked at most once per rule; callers cache it). A chase, the costly
/// condition, is looked for only once every other condition of the rule holds.
pub(crate) fn rule_holds(
    pos: &Position,
    ri: usize,
    r: &EndRule,
    history: &impl History,
    no_legal: &mut dyn FnMut() -> bool,
) -> Option<Offender> {
    let mut out = Offender::default();
    let holds = r.conditions.iter().enumerate().all(|(ci, c)| match c {
        Condition::NoLegalMove => no_legal(),
        Condition::Repetition(n) => history.occurrences() >= *n as usize,
        Condition::CheckingThroughout => {
            out.side = history.perpetual_checker();
            out.side.is_some()
        }
        Condition::ChasingThroughout => true,
        Condition::Passes(n) => history.trailing_passes() >= *n as usize,
        Condition::FlagFallen => history.flag_fallen(),
        Condition::CannotWin(who) => history.cannot_win(pos, *who, r),
        _ => pos.end_condition_holds(ri, ci),
    });
    if !holds {
        return None;
    }
    if r.conditions.contains(&Condition::ChasingThroughout) {
        let chase = history.perpetual_chaser()?;
        out.side = Some(chase.chaser);
        out.chase = Some(chase);
    }
    Some(out)
}

/// The result end rule `r` gives when it holds on `pos`: status, winner, and the count for a
/// scored game (with the chains containing `dead` removed). `None` for a claimable draw, which a
/// player must claim.
pub(crate) fn verdict_result(
    r: &EndRule,
    pos: &Position,
    checker: Option<Side>,
    dead: &[usize],
) -> Option<(Status, Option<Side>, Option<Score>)> {
    let stm = pos.side_to_move();
    let mut score = None;
    let (status, winner) = match r.verdict {
        Verdict::ClaimableDraw => return None,
        Verdict::Draw => (Status::Draw, None),
        Verdict::ToMoveLoses => (Status::Win, Some(pos.rules().rival(stm))),
        Verdict::ToMoveWins => (Status::Win, Some(stm)),
        Verdict::MoverLoses => (Status::Win, Some(pos.rules().rival(pos.mover()))),
        Verdict::MoverWins | Verdict::MoverFinishes => (Status::Win, Some(pos.mover())),
        Verdict::MostPieces => {
            let c = pos.piece_counts();
            match c[0].cmp(&c[1]) {
                std::cmp::Ordering::Greater => (Status::Win, Some(Side::FIRST)),
                std::cmp::Ordering::Less => (Status::Win, Some(Side::SECOND)),
                std::cmp::Ordering::Equal => (Status::Draw, None),
            }
        }
        Verdict::CheckerLoses | Verdict::ChaserLoses => (Status::Win, checker.map(Side::other)),
        Verdict::Player { side, wins } => (Status::Win, Some(if wins { side } else { pos.rules().rival(side) })),
        Verdict::Points(i) => {
            let table = &pos.rules().points[i];
            let t = table.totals(&pos.material());
            match t[0].partial_cmp(&t[1]) {
                Some(std::cmp::Ordering::Greater) => (Status::Win, Some(Side::FIRST)),
                Some(std::cmp::Ordering::Less) => (Status::Win, Some(Side::SECOND)),
                _ => match table.tie {
                    Some(s) => (Status::Win, Some(s)),
                    None => (Status::Draw, None),
                },
            }
        }
        Verdict::NoResult => (Status::NoResult, None),
        Verdict::ScoreByArea { komi } => {
            let s = area_score(pos, dead, komi);
            score = Some(s);
            match s.margin() {
                m if m > 0.0 => (Status::Win, Some(Side::FIRST)),
                m if m < 0.0 => (Status::Win, Some(Side::SECOND)),
                _ => (Status::Draw, None),
            }
        }
    };
    Some((status, winner, score))
}

/// The first pattern the material on the board fits.
fn matching_pattern<'a>(pos: &Position, pats: &'a [MaterialPattern]) -> Option<&'a MaterialPattern> {
    let m = pos.material();
    let rules = pos.rules();
    pats.iter().find(|p| {
        let fits = (m[0] == p.a && m[1] == p.b) || (m[0] == p.b && m[1] == p.a);
        fits && p.same_colour.is_none_or(|k| {
            let colours: Vec<Option<bool>> = (0..rules.board.squares())
                .filter(|&sq| pos.piece_at(sq).is_some_and(|(kk, _)| kk == k))
                .map(|sq| rules.board.is_dark(sq))
                .collect();
            colours.windows(2).all(|w| w[0] == w[1])
        })
    })
}

/// `1st`, `2nd`, `3rd`, `4th`...: a place.
pub fn ordinal(n: u8) -> String {
    let suffix = match (n % 10, n % 100) {
        (1, 11) | (2, 12) | (3, 13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules(name: &str) -> Rules {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("../rulesets/{name}.rules"));
        crate::check::check_file(&path, &[]).rules.expect("a bundled ruleset is valid")
    }

    fn ended(status: Status, winner: Option<u8>, places: Option<Vec<u8>>) -> Outcome {
        Outcome {
            status,
            winner: winner.map(Side),
            reason: Some("test".into()),
            clause: None,
            claimable: Vec::new(),
            claim_moves: Vec::new(),
            score: None,
            chase: None,
            places,
        }
    }

    #[test]
    fn the_status_text_names_who_won_once() {
        let chess = rules("chess");
        assert_eq!(ended(Status::Win, Some(1), None).status_text(&chess).as_deref(), Some("win 0-1"));
        assert_eq!(ended(Status::Draw, None, None).status_text(&chess).as_deref(), Some("draw 1/2-1/2"));
        let ludo = rules("ludo");
        assert_eq!(
            ended(Status::Win, Some(2), None).status_text(&ludo).as_deref(),
            Some("win for green")
        );
        assert_eq!(
            ended(Status::Win, None, Some(vec![2, 4, 1, 3])).status_text(&ludo).as_deref(),
            Some("win: green 1st, red 2nd, yellow 3rd, blue 4th")
        );
        assert_eq!(ended(Status::Draw, None, None).status_text(&ludo).as_deref(), Some("draw"));
        let four = rules("four-player-chess");
        assert_eq!(
            ended(Status::Win, Some(1), Some(vec![2, 1, 2, 1])).status_text(&four).as_deref(),
            Some("win for blue and green")
        );
        assert_eq!(ended(Status::Ongoing, None, None).status_text(&four), None);
    }
}
