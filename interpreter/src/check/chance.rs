//! Chance and tracks: `roll` (the chance event that starts every turn, and what each result's
//! chance is) and `track` (the squares a player's pieces run along, in order).

use super::{Cx, codes};
use crate::diag::Diagnostic;
use crate::diag::Span;
use crate::model::{
    Again, Apart, BySide, Form, Kind, MAX_DICE, MAX_DICE_APART, MAX_FACES, MAX_ROLL_RESULTS, MAX_ROLL_VALUE, MostDice, Primitive, Race,
    Roll, Stack, Track,
};
use crate::syntax::ast;

/// The `roll`, if one is declared and sound.
pub(super) fn resolve_roll(cx: &mut Cx, items: &[ast::Item]) -> Option<Roll> {
    // (A second `roll` is refused where the items are merged, as any item defined twice.)
    let mut found: Option<Roll> = None;
    for it in items {
        let ast::Item::Roll(r) = it else { continue };
        let Some((results, apart)) = results(cx, &r.what) else {
            // Reported; what uses the roll is not reported again as missing one.
            cx.roll_declared = true;
            continue;
        };
        cx.roll_declared = true;
        cx.roll_span = Some(r.span);
        let text = cx
            .src
            .shown(r.span)
            .trim_start_matches("override")
            .trim()
            .trim_start_matches("roll")
            .trim()
            .to_string();
        let text = match text.find('[') {
            Some(i) => text[..i].trim().to_string(),
            None => text,
        };
        found = Some(Roll {
            results,
            text,
            cite: r.cite.as_ref().map(|c| c.text.clone()),
            apart,
        });
    }
    found
}

/// Each number the roll may show and its weight, numbers ascending; and how its dice are used
/// one by one, where they are.
fn results(cx: &mut Cx, what: &ast::RollWhat) -> Option<(Vec<(u32, u64)>, Option<Apart>)> {
    match what {
        ast::RollWhat::List(entries) => {
            let mut out: Vec<(u32, u64)> = Vec::new();
            for &(v, span) in entries {
                if !(0..=MAX_ROLL_VALUE).contains(&v) {
                    let shown = cx.src.shown(span);
                    cx.error(
                        codes::BOUND,
                        span,
                        format!("a roll's number must be between 0 and {MAX_ROLL_VALUE}, not {shown}"),
                    )
                    .label = "out of range".into();
                    return None;
                }
                match out.iter_mut().find(|r| r.0 == v as u32) {
                    Some(r) => r.1 += 1,
                    None => out.push((v as u32, 1)),
                }
            }
            if out.len() == 1
                && let Some(&(_, span)) = entries.first()
            {
                cx.diags.push(
                    Diagnostic::warning(codes::REDUNDANT, span, "a roll with one result is no chance at all").label("always this number"),
                );
            }
            out.sort_by_key(|r| r.0);
            too_many(cx, out.len(), entries.first().map(|e| e.1).unwrap_or_default())?;
            Some((out, None))
        }
        ast::RollWhat::Dice {
            count,
            faces,
            summed: _,
            apart: Some((span, twice)),
        } => {
            let Some(faces) = faces else {
                cx.error(
                    codes::CONTRADICTION,
                    *span,
                    "coins used one by one would move pieces by 0 or 1 each: sum them, or roll dice",
                )
                .label = "coins".into();
                return None;
            };
            let n = cx.count(count, "the number of dice used one by one", 1, MAX_DICE_APART)?;
            let hi = cx.count(faces, "a die's faces", 2, MAX_FACES)? as u32;
            if n == 1 {
                cx.diags
                    .push(Diagnostic::warning(codes::REDUNDANT, *span, "one die used one by one is the die itself").label("no effect"));
            }
            // Every throw as a set of numbers (highest first), weighted by the orders it comes in.
            let mut throws: Vec<Vec<u32>> = vec![Vec::new()];
            for _ in 0..n {
                throws = throws
                    .into_iter()
                    .flat_map(|t| {
                        let top = t.last().copied().unwrap_or(hi);
                        (1..=top).map(move |d| {
                            let mut t = t.clone();
                            t.push(d);
                            t
                        })
                    })
                    .collect();
            }
            too_many(cx, throws.len(), count.span())?;
            let factorial = |k: usize| (1..=k as u64).product::<u64>();
            let mut out: Vec<(u32, u64)> = throws
                .iter()
                .map(|t| {
                    let mut orders = factorial(t.len());
                    let mut i = 0;
                    while i < t.len() {
                        let same = t[i..].iter().take_while(|&&d| d == t[i]).count();
                        orders /= factorial(same);
                        i += same;
                    }
                    (Roll::pack(t), orders)
                })
                .collect();
            out.sort_by_key(|r| r.0);
            Some((
                out,
                Some(Apart {
                    dice: n as u32,
                    faces: hi,
                    doubles_twice: *twice,
                }),
            ))
        }
        ast::RollWhat::Dice { count, faces, summed, .. } => {
            let n = cx.count(count, "the number of dice", 1, MAX_DICE)?;
            let (lo, hi) = match faces {
                Some(f) => (1, cx.count(f, "a die's faces", 2, MAX_FACES)?),
                None => (0, 1),
            };
            if n > 1 && summed.is_none() {
                let what = if faces.is_some() { "dice" } else { "coins" };
                cx.diags.push(
                    Diagnostic::error(
                        codes::CONTRADICTION,
                        count.span(),
                        format!("{n} {what} neither summed nor used one by one: say how the pieces move by them"),
                    )
                    .label("how are they used?")
                    .help("write `summed` (the pieces move by the total) or `used one by one` (each die a part of the turn, as in backgammon)"),
                );
                return None;
            }
            if n == 1
                && let Some(span) = summed
            {
                cx.diags
                    .push(Diagnostic::warning(codes::REDUNDANT, *span, "one die's total is the die itself").label("no effect"));
            }
            let distinct = (n * (hi - lo) + 1) as usize;
            too_many(cx, distinct, count.span())?;
            // The distribution of the sum, one die at a time.
            let mut ways: Vec<u64> = vec![1];
            for _ in 0..n {
                let mut next = vec![0u64; ways.len() + (hi - lo) as usize];
                for (s, &w) in ways.iter().enumerate() {
                    for f in 0..=(hi - lo) as usize {
                        next[s + f] += w;
                    }
                }
                ways = next;
            }
            Some((
                ways.iter().enumerate().map(|(s, &w)| ((s as i64 + n * lo) as u32, w)).collect(),
                None,
            ))
        }
    }
}

/// Refuses a roll with more results than [`MAX_ROLL_RESULTS`].
fn too_many(cx: &mut Cx, n: usize, span: Span) -> Option<()> {
    if n > MAX_ROLL_RESULTS {
        cx.error(
            codes::BOUND,
            span,
            format!("this roll has {n} different results; a roll may have at most {MAX_ROLL_RESULTS}"),
        )
        .label = "too many results".into();
        return None;
    }
    Some(())
}

/// The declared tracks, each player's squares in order (into `cx.tracks`).
pub(super) fn resolve_tracks(cx: &mut Cx, items: &[ast::Item]) {
    for it in items {
        let ast::Item::Track(t) = it else { continue };
        if let Some((_, first)) = cx.tracks.iter().find(|(tr, _)| tr.name == t.name.name) {
            let first = *first;
            cx.diags.push(
                Diagnostic::error(codes::DUPLICATE, t.name.span, format!("track `{}` is declared twice", t.name.name))
                    .label("declared again")
                    .with(first, "first declared here"),
            );
            continue;
        }
        let Some(board) = cx.board.clone() else { continue };
        let mut squares = Vec::new();
        let mut ok = true;
        for (name, span) in &t.squares {
            match board.parse_square(name).filter(|&sq| board.has(sq)) {
                Some(sq) if squares.contains(&sq) => {
                    cx.error(codes::DUPLICATE, *span, format!("track `{}` passes {name} twice", t.name.name))
                        .label = "again here".into();
                    ok = false;
                }
                Some(sq) => squares.push(sq),
                None => {
                    cx.error(codes::UNKNOWN_NAME, *span, format!("{name} is not a square of the board"))
                        .label = "not on the board".into();
                    ok = false;
                }
            }
        }
        if ok && squares.len() < 2 {
            cx.error(
                codes::BOUND,
                t.name.span,
                format!("track `{}` needs at least two squares", t.name.name),
            )
            .label = "too short".into();
            ok = false;
        }
        if !ok {
            cx.broken_tracks.push(t.name.name.clone());
            continue;
        }
        let mut per_side = Vec::new();
        for (i, &seat) in cx.seats.iter().enumerate() {
            let turned: Option<Vec<usize>> = if t.both || seat == 0 {
                Some(squares.clone())
            } else {
                squares.iter().map(|&sq| board.seat_square(cx.seating, seat, sq)).collect()
            };
            match turned {
                Some(v) => per_side.push(v),
                None => {
                    let who = cx.player_names.get(i).cloned().unwrap_or_default();
                    cx.error(
                        codes::CONTRADICTION,
                        t.name.span,
                        format!(
                            "track `{}` has no counterpart for `{who}`: `seated by {}` turns it off the board",
                            t.name.name,
                            cx.seating.as_str()
                        ),
                    )
                    .label = "no turn of it for every side".into();
                    ok = false;
                    break;
                }
            }
        }
        if !ok {
            cx.broken_tracks.push(t.name.name.clone());
            continue;
        }
        cx.tracks.push((
            Track {
                name: t.name.name.clone(),
                squares: BySide(per_side),
            },
            t.name.span,
        ));
    }
}

/// The index of the track a clause names, reporting an unknown one; and that the ruleset rolls.
pub(super) fn track_for_roll(cx: &mut Cx, name: &ast::Ident, span: Span) -> Option<usize> {
    cx.used.insert(format!("track {}", name.name));
    if !cx.roll_declared {
        cx.diags.push(
            Diagnostic::error(codes::MISSING, span, "a move by the roll, in a game without a `roll`")
                .label("nothing is rolled")
                .help("declare what starts each turn: `roll 1 die of 6`"),
        );
        return None;
    }
    if let Some(i) = cx.tracks.iter().position(|(t, _)| t.name == name.name) {
        return Some(i);
    }
    if !cx.broken_tracks.contains(&name.name) {
        let names: Vec<String> = cx.tracks.iter().map(|(t, _)| t.name.clone()).collect();
        cx.unknown(&name.name, name.span, "track", names.iter().map(|s| s.as_str()));
    }
    None
}

/// Warns of a track no clause runs along.
pub(super) fn unused_tracks(cx: &mut Cx) {
    for (t, span) in cx.tracks.clone() {
        if !cx.used.contains(&format!("track {}", t.name)) {
            cx.diags.push(
                Diagnostic::warning(codes::UNUSED, span, format!("track `{}` is never used", t.name)).label("no clause moves along it"),
            );
        }
    }
}

/// Warns of a roll nothing moves by; refuses moves by the roll beside `forbid royal attacked`
/// (`royal_safety`, where it is written): what a piece attacks would hang on the next roll.
pub(super) fn roll_used(cx: &mut Cx, kinds: &[Kind], royal_safety: Option<Span>) {
    let by_roll = |f: &Form| matches!(f.primitive, Primitive::Run { .. }) || f.by_roll.is_some();
    let used = kinds.iter().any(|k| k.forms.iter().any(by_roll));
    if let Some(span) = cx.roll_span
        && !used
    {
        cx.diags.push(
            Diagnostic::warning(codes::UNUSED, span, "nothing moves by the roll")
                .label("rolled every turn, never used")
                .help("move by it: `move along TRACK by roll`, or `drop along TRACK by roll`"),
        );
    }
    if let Some(span) = royal_safety
        && let Some(k) = kinds.iter().find(|k| k.forms.iter().any(by_roll))
    {
        cx.diags.push(
            Diagnostic::error(
                codes::CONTRADICTION,
                span,
                format!(
                    "`forbid royal attacked` in a game where the {} moves by the roll: what a piece attacks would hang on the next roll",
                    k.name
                ),
            )
            .label("cannot be judged before the roll"),
        );
    }
}

/// `another turn after ...`: a zone landed in (seen from the mover), or numbers the roll showed
/// (which need a roll that shows them).
pub(super) fn resolve_again(cx: &mut Cx, items: &[ast::Item], roll: Option<&Roll>) -> Vec<Again> {
    let mut out = Vec::new();
    for it in items {
        let ast::Item::Again(a) = it else { continue };
        let cite = a.cite.as_ref().map(|c| c.text.clone());
        match &a.after {
            ast::AgainAfter::Landing(z) => {
                if let Some(zone) = super::board::zone_by_side(cx, z) {
                    out.push(Again::Landing(zone, cite));
                }
            }
            ast::AgainAfter::Rolling(numbers) => {
                let Some(roll) = roll else {
                    if !cx.roll_declared {
                        cx.diags.push(
                            Diagnostic::error(codes::MISSING, a.span, "another turn after a roll, in a game without a `roll`")
                                .label("nothing is rolled")
                                .help("declare what starts each turn: `roll 1 die of 6`"),
                        );
                    }
                    continue;
                };
                let mut values = Vec::new();
                for &(v, span) in numbers {
                    match u32::try_from(v).ok().filter(|v| roll.index_of(*v).is_some()) {
                        Some(v) => values.push(v),
                        None => {
                            let shown: Vec<String> = roll.results.iter().map(|r| r.0.to_string()).collect();
                            cx.diags.push(
                                Diagnostic::error(codes::CONTRADICTION, span, format!("`roll {}` never shows {v}", roll.text))
                                    .label("never rolled")
                                    .help(format!("it shows {}", shown.join(", "))),
                            );
                        }
                    }
                }
                if !values.is_empty() {
                    out.push(Again::Rolling(values, cite));
                }
            }
        }
    }
    out
}

/// `pieces stack`, `must enter from hand first` and `must use the most dice`, checked against
/// the roll and the clauses: games with any of them, with dice used one by one, or with a
/// clause that bears off only from home or overshooting, move only along tracks (their own
/// generator), and each rule needs what it is about.
pub(super) fn resolve_race(cx: &mut Cx, items: &[ast::Item], roll: Option<&Roll>, kinds: &[Kind]) -> Race {
    let mut race = Race::default();
    let mut first_span: Option<Span> = None;
    for it in items {
        let ast::Item::Race(r) = it else { continue };
        first_span.get_or_insert(r.span);
        let cite = r.cite.as_ref().map(|c| c.text.clone());
        match &r.rule {
            ast::RaceRule::Stack { block } => {
                let block = match block {
                    Some((n, span)) if !(2..=255).contains(n) => {
                        cx.error(
                            codes::BOUND,
                            *span,
                            format!("a stack that blocks must hold between 2 and 255 pieces, not {n}"),
                        )
                        .label = "out of range".into();
                        None
                    }
                    Some((n, _)) => Some(*n as u32),
                    None => None,
                };
                race.stack = Some(Stack { block, cite });
            }
            ast::RaceRule::EnterFirst { when_can } => {
                let words = if *when_can { "when it can" } else { "first" };
                if !kinds.iter().any(|k| k.forms.iter().any(|f| f.by_roll.is_some())) {
                    cx.error(
                        codes::CONTRADICTION,
                        r.span,
                        format!("`must enter from hand {words}`, but no clause enters a piece from hand along a track"),
                    )
                    .label = "nothing enters".into();
                }
                if *when_can {
                    race.enter_when_can = Some(cite);
                } else {
                    race.enter_first = Some(cite);
                }
            }
            ast::RaceRule::StartFirst { track } => {
                let name = ast::Ident {
                    name: track.0.clone(),
                    span: track.1,
                };
                let Some(i) = track_for_roll(cx, &name, r.span) else { continue };
                if !kinds.iter().any(|k| k.forms.iter().any(|f| f.by_roll.is_some())) {
                    cx.error(
                        codes::CONTRADICTION,
                        r.span,
                        format!(
                            "`must move from the start of {} first` binds while pieces wait in hand, but no clause enters a piece from hand",
                            track.0
                        ),
                    )
                    .label = "nothing is ever in hand to wait".into();
                }
                race.start_first = Some((i, cite));
            }
            ast::RaceRule::MostDice { higher } => {
                if roll.is_some_and(|r| r.apart.is_none()) {
                    cx.error(
                        codes::CONTRADICTION,
                        r.span,
                        format!(
                            "`must use the most dice`, but `roll {}` is not used one by one",
                            roll.map(|r| r.text.as_str()).unwrap_or_default()
                        ),
                    )
                    .label = "one number a turn".into();
                } else if roll.is_none() && !cx.roll_declared {
                    cx.diags.push(
                        Diagnostic::error(codes::MISSING, r.span, "`must use the most dice`, in a game without a `roll`")
                            .label("nothing is rolled")
                            .help("declare the dice: `roll 2 dice of 6 used one by one`"),
                    );
                }
                race.most_dice = Some(MostDice { higher: *higher, cite });
            }
        }
    }
    let apart = roll.and_then(|r| r.apart.is_some().then_some(cx.roll_span).flatten());
    let home = kinds.iter().flat_map(|k| &k.forms).any(|f| f.runs_the_race());
    // `on a roll of N`: numbers a die (or the roll) shows.
    for it in items {
        let ast::Item::Piece(p) = it else { continue };
        for m in p.forms.iter().flat_map(|f| &f.modifiers) {
            let ast::Modifier::OnRoll(numbers, _) = m else { continue };
            let Some(roll) = roll else { continue };
            let shows = |n: i64| match roll.apart {
                Some(a) => (1..=a.faces as i64).contains(&n),
                None => u32::try_from(n).is_ok_and(|v| roll.index_of(v).is_some()),
            };
            for &(n, span) in numbers {
                if !shows(n) {
                    let what = match roll.apart {
                        Some(a) => format!("a die shows 1 to {}", a.faces),
                        None => format!("it shows {}", roll.shown_results()),
                    };
                    cx.diags.push(
                        Diagnostic::error(codes::CONTRADICTION, span, format!("`roll {}` never shows {n}", roll.text))
                            .label("never rolled")
                            .help(what),
                    );
                }
            }
        }
    }
    // A race game (its own generator): every clause moves along a track.
    if first_span.is_none() && apart.is_none() && !home {
        return race;
    }
    for it in items {
        let ast::Item::Piece(p) = it else { continue };
        for f in &p.forms {
            let on_track = matches!(f.primitive, ast::Primitive::Run { .. })
                || f.modifiers
                    .iter()
                    .any(|m| matches!(m, ast::Modifier::ByRoll(..) | ast::Modifier::AtStart(..)));
            if !on_track {
                cx.diags.push(
                    Diagnostic::error(
                        codes::CONTRADICTION,
                        f.span,
                        format!("in a game of stacks, dice used one by one or bearing off from home, pieces move only along tracks, and this clause of the {} does not", p.name.name),
                    )
                    .label("not along a track"),
                );
            }
        }
    }
    race
}

#[cfg(test)]
mod tests {
    use crate::check::check_source;
    use crate::model::{Roll, Side};

    /// A race ruleset with `roll` and `track` as given.
    fn race(roll: &str, track: &str) -> String {
        format!(
            "game \"R\" {{\n  players white \"w\", black \"b\"\n}}\nboard 4 x 2 squares {{\n  files a..d\n  ranks 1..2\n}}\n\
             {roll}\n{track}\npiece Runner \"R\" {{\n  move along ring by roll\n}}\nallow pass when no other move\nsetup \"R3/3r w - - 0 1\"\n"
        )
    }

    fn roll_of(roll: &str) -> Roll {
        let c = check_source("race.rules", &race(roll, "track ring = a1, b1, c1, d1, d2, c2, b2, a2"), None, &[]);
        let rules = c.rules.unwrap_or_else(|| panic!("`{roll}` checks: {:?}", c.diagnostics.items));
        rules.roll.expect("a roll")
    }

    #[test]
    fn dice_used_one_by_one_are_read_in_either_order_and_only_as_the_roll_can_leave_them() {
        let r = roll_of("roll 2 dice of 6 used one by one, doubles twice");
        assert_eq!(r.results.len(), 21);
        assert_eq!(r.total(), 36);
        let five_three = r.read("5-3").expect("a throw");
        assert_eq!((r.read("3-5"), r.show(five_three)), (Some(five_three), "5-3".to_string()));
        assert_eq!(r.results[r.index_of(five_three).expect("a result")].1, 2, "5-3 comes two ways");
        assert_eq!(r.results[r.index_of(r.read("4-4").expect("a double")).expect("a result")].1, 1);
        for bad in ["7-1", "5-3-1", "5", "0-1", "", "-", "5--3", "x-1", "99999999999-1"] {
            assert_eq!(r.read(bad), None, "{bad:?} is no throw");
        }
        // What is left to use: a throw, one die of it, or partway through a double used twice.
        for left in ["5-3", "3", "4-4-4-4", "4-4-4", "1"] {
            assert!(r.read_left(left).is_some(), "{left}");
        }
        for bad in ["4-4-4-4-4", "5-3-1", "5-5-3", "7", "", "3-"] {
            assert_eq!(r.read_left(bad), None, "{bad:?} is never left");
        }
    }

    #[test]
    fn dice_and_coins_summed_give_the_distribution_of_their_total() {
        let two_d6 = roll_of("roll 2 dice of 6 summed");
        let expected: Vec<(u32, u64)> = (2..=12).map(|s: u32| (s, 6 - (7i64 - s as i64).unsigned_abs())).collect();
        assert_eq!(two_d6.results, expected);
        assert_eq!(two_d6.total(), 36);
        assert_eq!(two_d6.text, "2 dice of 6 summed");
        assert_eq!(roll_of("roll 4 coins summed").results, vec![(0, 1), (1, 4), (2, 6), (3, 4), (4, 1)]);
        assert_eq!(roll_of("roll 1 die of 4").results, vec![(1, 1), (2, 1), (3, 1), (4, 1)]);
        assert_eq!(roll_of("roll 1 coin").results, vec![(0, 1), (1, 1)]);
        // A list's entries each as likely: a number listed twice, twice as likely; sorted.
        assert_eq!(roll_of("roll one of 3, 1, 3, 0").results, vec![(0, 1), (1, 1), (3, 2)]);
        // The largest roll the bounds allow: 8 dice of 8 faces, 57 results, 8^8 ways.
        let big = roll_of("roll 8 dice of 8 summed");
        assert_eq!((big.results.len(), big.total()), (57, 8u64.pow(8)));
    }

    #[test]
    fn a_track_is_mirrored_for_the_second_player_unless_it_is_for_both() {
        let squares = |track: &str| {
            let c = check_source("race.rules", &race("roll 1 die of 4", track), None, &[]);
            let rules = c.rules.unwrap_or_else(|| panic!("`{track}` checks: {:?}", c.diagnostics.items));
            let names = |s: Side| {
                rules.tracks[0].squares[s]
                    .iter()
                    .map(|&sq| rules.board.name(sq))
                    .collect::<Vec<_>>()
                    .join(" ")
            };
            (names(Side::FIRST), names(Side::SECOND))
        };
        assert_eq!(squares("track ring = a1, b1, c1, d2"), ("a1 b1 c1 d2".into(), "a2 b2 c2 d1".into()));
        assert_eq!(
            squares("track ring = a1, b1, c1, d2 for both"),
            ("a1 b1 c1 d2".into(), "a1 b1 c1 d2".into())
        );
    }

    #[test]
    fn a_roll_past_the_bounds_is_refused_with_the_bound() {
        for (roll, says) in [
            ("roll 9 dice of 6 summed", "between 1 and 8"),
            ("roll 1 die of 101", "between 2 and 100"),
            ("roll 1 die of 1", "between 2 and 100"),
            ("roll one of 0, 1001", "between 0 and 1000"),
            ("roll 8 dice of 10 summed", "73 different results"),
            ("roll 3 coins", "neither summed nor used one by one"),
        ] {
            let c = check_source("race.rules", &race(roll, "track ring = a1, b1, c1, d1"), None, &[]);
            assert!(c.rules.is_none(), "`{roll}` is refused");
            let text: Vec<&str> = c.diagnostics.items.iter().map(|d| d.message.as_str()).collect();
            assert!(text.iter().any(|m| m.contains(says)), "`{roll}`: {text:?}");
        }
    }
}
