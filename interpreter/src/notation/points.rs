//! Points: race games' moves as backgammon players write them. Each square of the mover's track is
//! a point numbered from the track's end (the last square is 1, as a backgammon player's home
//! board counts down to its 1-point); a die's move is `13/8`, an entry from hand `bar/22`, a
//! piece borne off `6/off`, a hit marked `*` (`13/8*`); the roll is its dice and a colon (`5-3:`),
//! so that a turn reads `5-3: 13/8 6/3`.

use crate::game::{Move, MoveKind, Position};
use crate::model::{Primitive, Rules, Side};

/// The mover's track that numbers the points: the first a clause moves along.
fn track(rules: &Rules, side: Side) -> Option<&[usize]> {
    let t = rules.kinds.iter().flat_map(|k| &k.forms).find_map(|f| match f.primitive {
        Primitive::Run { track } => Some(track),
        _ => f.by_roll,
    })?;
    Some(&rules.tracks[t].squares[side])
}

/// The point `sq` is for `side` (`None`: off its track).
fn point(rules: &Rules, side: Side, sq: usize) -> Option<usize> {
    let path = track(rules, side)?;
    path.iter().position(|&s| s == sq).map(|i| path.len() - i)
}

/// A move written in points (coordinates where the square is on no track).
pub fn to_points(pos: &Position, m: Move) -> String {
    let rules = pos.rules();
    let us = pos.side_to_move();
    let name = |sq: usize| point(rules, us, sq).map_or_else(|| rules.board.name(sq), |p| p.to_string());
    let hit = |sq: usize| if pos.piece_at(sq).is_some_and(|p| p.1 != us) { "*" } else { "" };
    match m.kind {
        MoveKind::Roll(_) => match pos.rules().roll.as_ref().zip(pos.roll_results().get(roll_index(m))) {
            Some((r, &(v, _))) => format!("{}:", r.show(v)),
            None => crate::notation::uci::to_text(pos, m),
        },
        MoveKind::Pass => "pass".into(),
        MoveKind::Drop(_) => format!("bar/{}{}", name(m.to as usize), hit(m.to as usize)),
        MoveKind::BearOff(_) => format!("{}/off", name(m.from as usize)),
        _ => format!("{}/{}{}", name(m.from as usize), name(m.to as usize), hit(m.to as usize)),
    }
}

fn roll_index(m: Move) -> usize {
    match m.kind {
        MoveKind::Roll(i) => i as usize,
        _ => usize::MAX,
    }
}

/// The legal move a text in points names (`13/8`, `13/8*`, `bar/22`, `6/off`, `5-3:`), if exactly
/// one does.
pub fn find(pos: &Position, text: &str) -> Option<Move> {
    let want = text.trim().trim_end_matches('*');
    if want.is_empty() {
        return None;
    }
    let legal = pos.legal_moves();
    let mut hits = legal.iter().filter(|&&m| {
        let t = to_points(pos, m);
        t.trim_end_matches('*').eq_ignore_ascii_case(want)
            || (matches!(m.kind, MoveKind::Roll(_)) && want.strip_suffix(':').is_some_and(|d| roll_matches(pos, m, d)))
    });
    let first = *hits.next()?;
    // Two moves written alike (a piece borne off by either of two dice) are the same to a player
    // only where they leave the same dice: otherwise name neither.
    hits.next().is_none().then_some(first)
}

/// A move written in points (`13/8`, `13/8*`, `bar/22`, `6/off`) as the coordinates the rulings
/// read (`a2e1`, `j2`, `g1off`), legal or not; `None` for a text that is not points, or names a
/// point the mover's track does not have.
pub fn to_coordinates(pos: &Position, text: &str) -> Option<String> {
    let rules = pos.rules();
    let path = track(rules, pos.side_to_move())?;
    let (a, b) = text.trim().trim_end_matches('*').split_once('/')?;
    let square = |p: &str| -> Option<String> {
        let n: usize = p.parse().ok()?;
        let i = path.len().checked_sub(n).filter(|_| n > 0)?;
        Some(rules.board.name(path[i]))
    };
    Some(match (a.eq_ignore_ascii_case("bar"), b.eq_ignore_ascii_case("off")) {
        (true, false) => square(b)?,
        (false, true) => format!("{}off", square(a)?),
        (false, false) => format!("{}{}", square(a)?, square(b)?),
        (true, true) => return None,
    })
}

/// Does the roll `m` show the dice `d` (in any order)?
fn roll_matches(pos: &Position, m: Move, d: &str) -> bool {
    let Some(r) = pos.rules().roll.as_ref() else { return false };
    r.read(d)
        .is_some_and(|v| pos.roll_results().get(roll_index(m)).is_some_and(|x| x.0 == v))
}

#[cfg(test)]
mod tests {
    use crate::game::Engine;
    use crate::notation::{find, written_line};
    use std::path::Path;

    #[test]
    fn a_turn_reads_as_backgammon_players_write_it() {
        let checked = crate::check::check_file(Path::new("../rulesets/backgammon.rules"), &[]);
        let engine = Engine::new(checked.rules.expect("backgammon.rules is valid"));
        let mut pos = engine.start();
        let mut line = Vec::new();
        for text in ["3-5:", "13/8", "6/3"] {
            let m = find(&pos, text).unwrap_or_else(|| panic!("{text} is found"));
            line.push(m);
            pos.play_unchecked(m);
        }
        assert_eq!(written_line(&engine.start(), &line).join(" "), "5-3: 13/8 6/3");
        // Black hits the blot left on white's 3-point (black's 22) from its 24-point, by a 2.
        let mut pos = engine
            .from_fen("(5C)3(3c)1(5c)4(2C)/(5c)3(3C)1(4C)2C1(2c) b - - 0+0 roll:2-1 0 1")
            .expect("a position");
        let m = find(&pos, "24/22").expect("the hit");
        assert_eq!(crate::notation::written(&pos, m), "24/22*");
        pos.play_unchecked(m);
        assert_eq!(crate::notation::written(&pos, find(&pos, "24/23").expect("the 1")), "24/23");
        // Off the board, and a piece entering from the bar.
        let pos = engine.from_fen("12/11C[c] w - - 14+0 roll:6-1 0 1").expect("a position");
        // White's last checker: either die would bear it off, and the higher must (the turn ends).
        let off = find(&pos, "1/off").expect("borne off");
        assert_eq!(
            (crate::notation::written(&pos, off), pos.die_of(off)),
            ("1/off".to_string(), Some(6))
        );
        let pos = engine.from_fen("12/11C[c] b - - 14+0 roll:6-1 0 1").expect("a position");
        assert_eq!(
            crate::notation::written(&pos, find(&pos, "bar/24").expect("enters on its 24-point")),
            "bar/24*",
            "hitting white's last checker"
        );
    }
}
