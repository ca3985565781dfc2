//! Could a game have reached this position? One check, derived from the rules (see
//! [`crate::compile::reach`]), shared by FEN reading and so by `--fen`, scenarios, the checker's
//! setup test and the sandbox's editor. Each refusal names the rule the position breaks.

use super::position::Pos;
use crate::bits::Bits;
use crate::model::{KindId, Rules, Side};

/// The first rule the position breaks, as a sentence, or `None` if a game could reach it as far as
/// these tests can tell: piece counts against the setup and promotions, the squares each kind can
/// ever stand on, the side not to move left attacked, and royals facing.
pub(crate) fn impossible<B: Bits>(rules: &Rules, p: &Pos<B>) -> Option<String> {
    counts(rules, p)
        .or_else(|| squares(rules, p))
        .or_else(|| attacked(rules, p))
        .or_else(|| facing(rules, p))
}

fn side_name(rules: &Rules, side: Side) -> &str {
    &rules.players[side.index()].name
}

/// The citations of a kind's movement clauses and of the promotions into it, for messages.
fn kind_citations(rules: &Rules, k: KindId) -> String {
    let mut v: Vec<String> = rules.kind(k).forms.iter().filter_map(|f| rules.citation(&f.cite)).collect();
    for o in &rules.kinds {
        if let Some(p) = &o.promotion
            && p.choices.contains(&k)
            && let Some(c) = rules.citation(&p.cite)
        {
            v.push(c);
        }
    }
    v.dedup();
    if v.is_empty() {
        String::new()
    } else {
        format!(" ({})", v.join(", "))
    }
}

fn counts<B: Bits>(rules: &Rules, p: &Pos<B>) -> Option<String> {
    let reach = p.t.reach.as_ref()?;
    let setup = reach.setup_counts.as_ref()?;
    for side in (0..rules.players.len()).map(|s| Side(s as u8)) {
        let s = side.index();
        let count = |k: usize| p.pieces(side, KindId(k as u8)).count();
        let mut excess = Vec::new();
        let mut missing = 0u32;
        for (k, kind) in rules.kinds.iter().enumerate() {
            let (have, start) = (count(k), setup[s][k]);
            if have > start {
                if !reach.promoted_into[k] {
                    return Some(format!(
                        "{} has {have} {}; the setup has {start}, and no promotion makes more",
                        side_name(rules, side),
                        plural(&kind.name, have)
                    ));
                }
                excess.push((have - start, kind.name.as_str()));
            }
            if reach.promotes[k] {
                missing += start.saturating_sub(have);
            }
        }
        let extra: u32 = excess.iter().map(|e| e.0).sum();
        if extra > missing {
            let promoting: Vec<&str> = rules
                .kinds
                .iter()
                .enumerate()
                .filter(|(k, _)| reach.promotes[*k])
                .map(|(_, kind)| kind.name.as_str())
                .collect();
            let list: Vec<String> = excess.iter().map(|(n, name)| format!("{n} {}", plural(name, *n))).collect();
            return Some(format!(
                "{} has {} more than the setup, but is missing only {missing} of the pieces that promote ({}) to have become them",
                side_name(rules, side),
                list.join(", "),
                promoting.join(", ")
            ));
        }
    }
    None
}

fn plural(name: &str, n: u32) -> String {
    if n == 1 { name.to_string() } else { format!("{name}s") }
}

fn squares<B: Bits>(rules: &Rules, p: &Pos<B>) -> Option<String> {
    let reach = p.t.reach.as_ref()?;
    for side in (0..rules.players.len()).map(|s| Side(s as u8)) {
        for (k, kind) in rules.kinds.iter().enumerate() {
            let stray = p.pieces(side, KindId(k as u8)) & !reach.squares[side.index()][k];
            if let Some(sq) = stray.iter().next() {
                return Some(format!(
                    "no {} {} can ever stand on {}: from the setup, its moves{} never bring one there",
                    side_name(rules, side),
                    kind.name,
                    rules.board.name(sq),
                    kind_citations(rules, KindId(k as u8))
                ));
            }
        }
    }
    None
}

fn attacked<B: Bits>(rules: &Rules, p: &Pos<B>) -> Option<String> {
    let cite = rules.royal_safety.as_ref()?;
    let many = p.many();
    // Among more than two, the side that moved last: its enemies' royals may stand attacked (a
    // check out of turn), its own may not — unless it took a royal, which ends the game.
    let mover = if many { p.t.previous_side(p.stm) } else { p.stm.other() };
    let occ = p.occ();
    if many && p.enemy_sides(mover).any(|s| p.royals(s).is_empty()) {
        return None;
    }
    // Where captures explode, a move that blew up the side to move's royal was legal whatever it
    // left attacked (the game is over), and royals within a blast of the enemy's are never attacked.
    if p.t.explosion.is_some() && p.royals(p.stm).is_empty() {
        return None;
    }
    for r in p.royals(mover).iter() {
        if !p.in_danger(r, mover, occ) {
            continue;
        }
        let gone = if p.t.explosion.is_some() { p.royals(p.stm) } else { B::EMPTY };
        let by: Vec<usize> = if many {
            p.enemy_sides(mover).flat_map(|s| p.attackers(r, s, occ, gone)).collect()
        } else {
            p.attackers(r, p.stm, occ, gone)
        };
        if let Some(&a) = by.first() {
            let (k, _) = p.piece_at(r)?;
            let (ak, _) = p.piece_at(a)?;
            return Some(format!(
                "{}'s {} on {} is attacked by the {} on {}, but it is not {}'s move: the last move would have left it attacked, which `forbid royal attacked`{} does not allow",
                side_name(rules, mover),
                rules.kind(k).name,
                rules.board.name(r),
                rules.kind(ak).name,
                rules.board.name(a),
                side_name(rules, mover),
                cited(rules, cite)
            ));
        }
    }
    None
}

fn facing<B: Bits>(rules: &Rules, p: &Pos<B>) -> Option<String> {
    let (_, cite) = rules.royals_facing.as_ref()?;
    let occ = p.occ();
    for r in p.royals(Side::FIRST).iter() {
        if p.faces(r, Side::FIRST, occ, B::EMPTY) {
            let (k, _) = p.piece_at(r)?;
            return Some(format!(
                "{}'s {} on {} faces the other side's royal with nothing between: whoever moved last left them so, which `forbid royals facing`{} does not allow",
                side_name(rules, Side::FIRST),
                rules.kind(k).name,
                rules.board.name(r),
                cited(rules, cite)
            ));
        }
    }
    None
}

fn cited(rules: &Rules, cite: &Option<String>) -> String {
    rules.citation(cite).map_or(String::new(), |c| format!(" ({c})"))
}
