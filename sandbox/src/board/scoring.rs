//! The count in rulesets that score by area (a `score by area` verdict), as the panel says it and
//! the board shows it: the final count once the game is over, an estimate clearly called one while
//! it goes on; and, while scoring (the game over, or chains marked dead), who owns each point. All
//! from the interpreter (`Game::area_score`, `Game::area_owners`); no game is named here.

use arbiter::game::{Game, Status};
use arbiter::model::{Rules, Side, Verdict};

/// The komi of the ruleset's `score by area` verdict, if it has one.
pub fn area_komi(rules: &Rules) -> Option<f64> {
    rules.end_rules.iter().find_map(|r| match r.verdict {
        Verdict::ScoreByArea { komi } => Some(komi),
        _ => None,
    })
}

/// The panel's line about the count: `Score: …` once the game is over (the count that decided
/// it), `Estimate (game not over): …` while it goes on; `None` for rulesets that do not score by area.
pub fn score_line(game: &Game) -> Option<String> {
    let rules = game.current().rules();
    let komi = area_komi(rules)?;
    let outcome = game.outcome();
    let over = outcome.status != Status::Ongoing;
    let s = outcome.score.unwrap_or_else(|| game.area_score(komi));
    let [a, b] = [&rules.players[0].name, &rules.players[1].name];
    let m = s.margin();
    let lead = match m {
        m if m > 0.0 => format!("{a} by {m}"),
        m if m < 0.0 => format!("{b} by {}", -m),
        _ => "a tie".to_string(),
    };
    let head = if over { "Score" } else { "Estimate (game not over)" };
    let lead = if over { lead } else { format!("{lead} if it ended now") };
    Some(format!(
        "{head}: {a} {}, {b} {} + komi {} — {lead}",
        s.points[0], s.points[1], s.komi
    ))
}

/// Who owns each point, when the board should show it: in a ruleset that scores by area, once the
/// game is over or chains are marked dead; else `None`.
pub fn territory(game: &Game) -> Option<Vec<Option<Side>>> {
    area_komi(game.current().rules())?;
    let scoring = game.outcome().status != Status::Ongoing || !game.dead().is_empty();
    scoring.then(|| game.area_owners())
}

/// The stones of the chains marked dead.
pub fn dead_stones(game: &Game) -> Vec<usize> {
    let pos = game.current();
    let mut stones: Vec<usize> = game.dead().iter().flat_map(|&sq| pos.chain_at(sq)).collect();
    stones.sort_unstable();
    stones.dedup();
    stones
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::{Action, Session};

    fn go() -> Session {
        Session::new(crate::session::source::open(Some("go")).expect("the bundled go rules"))
    }

    #[test]
    fn an_unfinished_game_shows_an_estimate_and_a_finished_one_its_score() {
        let mut s = go();
        let line = score_line(&s.game).expect("go scores by area");
        assert!(line.starts_with("Estimate (game not over): "), "{line}");
        assert!(line.ends_with("if it ended now"), "{line}");
        for _ in 0..2 {
            s.apply(Action::Play("pass".into())).expect("a pass");
        }
        assert_ne!(s.game.outcome().status, Status::Ongoing, "two passes end the game");
        let line = score_line(&s.game).expect("a count");
        assert!(line.starts_with("Score: ") && !line.contains("estimate"), "{line}");
        let chess = Session::new(crate::session::source::open(Some("chess")).expect("chess"));
        assert_eq!(score_line(&chess.game), None);
    }

    #[test]
    fn territory_shows_while_scoring_and_a_dead_stones_point_goes_to_the_side_round_it() {
        let mut s = go();
        let board = s.engine.rules().board.clone();
        let at = |name: &str| board.parse_square(name).expect("a point");
        // The first player walls off a1; the second player's lone stone on d4.
        for m in ["B1", "pass", "A2", "D4"] {
            s.apply(Action::Play(m.into())).expect("a legal move");
        }
        assert_eq!(territory(&s.game), None, "not while the game goes on unmarked");
        s.apply(Action::MarkDead(at("D4"))).expect("a chain");
        assert_eq!(dead_stones(&s.game), vec![at("D4")]);
        let owners = territory(&s.game).expect("shown once a chain is marked dead");
        let first = Some(Side::FIRST);
        for name in ["B1", "A2", "A1", "D4", "Q16"] {
            assert_eq!(owners[at(name)], first, "{name}: the first player's, the d4 stone dead");
        }
        s.apply(Action::MarkDead(at("D4"))).expect("alive again");
        assert_eq!(territory(&s.game), None, "no chain marked dead: hidden again");
        assert_eq!(s.game.area_owners()[at("Q16")], None, "both sides border the open board");
        assert_eq!(s.game.area_owners()[at("A1")], first);
    }
}
